#!/usr/bin/env python3
"""Loopback server for Benchmarks/history.sh. Prints its port, then serves until killed:
  /v2/top-headlines?page=N&pageSize=M  M articles of their own for each page
  /feed/{a,b,c}.json                   the feed sources' samples
"""
import http.server, json, pathlib, sys, urllib.parse
fixtures = pathlib.Path("Tests/TestSupport/Fixtures")
samples = {f"/feed/{n}.json": (fixtures / f"source_{n}.readme-sample.json").read_bytes() for n in "abc"}
words = "election climate markets court health science sports energy space policy trade".split()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path in samples:
            body = samples[url.path]
        else:
            query = urllib.parse.parse_qs(url.query)
            page, size = int(query.get("page", ["1"])[0]), int(query.get("pageSize", ["20"])[0])
            articles = [{
                "source": {"id": None, "name": "Example"}, "author": f"Reporter {i % 17}",
                "title": f"Page {page} story {i}: the {words[(page + i) % 11]} and {words[(page * 3 + i) % 11]} debate",
                "description": f"About {words[i % 11]} and {words[(i * 5) % 11]}, two lines long.",
                "url": f"https://site.example/p{page}/story-{i}.html", "urlToImage": None,
                "publishedAt": f"2026-11-{1 + (page + i) % 28:02d}T{i % 24:02d}:00:00Z",
                "content": "Text of the story… [+1200 chars]"} for i in range(size)]
            body = json.dumps({"status": "ok", "totalResults": 10000, "articles": articles}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
