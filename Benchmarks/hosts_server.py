#!/usr/bin/env python3
"""Feeds spread over many hosts, as the Internet serves them, for Benchmarks/hosts.sh.

Usage: hosts_server.py <feeds> <hosts> <items> [<min-ms> <max-ms> [<fail-every>]]
Listens on 127.0.0.1 … 127.0.0.<hosts> (the loopback range: distinct hosts, no set-up), one
port each, and prints one URL a line, feed n on host n % hosts. Each feed waits its own delay,
spread evenly between min and max (20 to 800 ms unless given; then one in ten waits 600 ms or
more) before it answers; one in <fail-every> (25 unless given, 0: none) answers 500; a request
sending the feed's ETag back is answered 304. Serves until killed.
"""
import hashlib
import http.server
import sys
import threading
import time

FEEDS, HOSTS, ITEMS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
LOW, HIGH = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (20, 800)
FAIL_EVERY = int(sys.argv[6]) if len(sys.argv) > 6 else 25


def delay(n):
    """LOW to HIGH ms, spread evenly, fixed a feed."""
    return (LOW + (n * 7919) % (HIGH - LOW + 1)) / 1000


def feed(n):
    items = "".join(
        f"""<item><title>Feed {n} story {i}: climate, markets and the court</title>
<link>https://site{n}.example.com/story-{i}.html</link>
<pubDate>Mon, {1 + i % 28:02d} Nov 2026 {i % 24:02d}:00:00 +0000</pubDate>
<description><![CDATA[<p>A summary of about two lines, with enough words to be representative
of what real feeds send, <b>and some markup</b>.</p>]]></description></item>"""
        for i in range(ITEMS))
    body = (f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
            f"<title>Feed {n}</title><link>https://site{n}.example.com/</link>{items}"
            f"</channel></rss>").encode()
    return body, '"' + hashlib.sha1(body).hexdigest()[:16] + '"'


BODIES = [feed(n) for n in range(FEEDS)]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        try:
            n = int(self.path.removeprefix("/feeds/").removesuffix(".xml"))
            body, etag = BODIES[n]
        except (ValueError, IndexError):
            return self.answer(404, b"", {})
        time.sleep(delay(n))
        if FAIL_EVERY and n % FAIL_EVERY == 7 % FAIL_EVERY:
            return self.answer(500, b"failing", {"Content-Type": "text/plain"})
        if self.headers.get("If-None-Match") == etag:
            return self.answer(304, b"", {"ETag": etag})
        self.answer(200, body, {"Content-Type": "application/rss+xml", "ETag": etag})

    def answer(self, status, body, headers):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


servers = [Server((f"127.0.0.{host + 1}", 0), Handler) for host in range(HOSTS)]
for server in servers:
    threading.Thread(target=server.serve_forever, daemon=True).start()
for n in range(FEEDS):
    host, port = servers[n % HOSTS].server_address
    print(f"http://{host}:{port}/feeds/{n}.xml")
sys.stdout.flush()
threading.Event().wait()
