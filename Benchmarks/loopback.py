"""What the loopback servers of Benchmarks/ share: a quiet HTTP/1.1 handler that answers with
a body and its length."""
import http.server


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body, headers):
        """Sends `status`, `headers` and `body` (its length counted)."""
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass
