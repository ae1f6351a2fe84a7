#!/usr/bin/env python3
"""Loopback feed server for Benchmarks/newsboat.sh: FEEDS RSS 2.0 feeds of ITEMS items each.

Usage: feed_server.py <feeds> <items> <delay-ms>
Prints the port it listens on, then serves until killed:
  /feeds/<n>.xml   feed n (0-based), with an ETag and a Last-Modified; answers 304 to a request
                   that sends either back
  /a.json, /b.json, /c.json   the built-in JSON sources' samples, at once
  /stats           requests served so far: {"requests": n, "conditional": n, "not_modified": n}
  /reset           sets the counters to zero
Every feed answer waits <delay-ms> first, like a server across the Internet.
"""
import hashlib
import http.server
import json
import pathlib
import sys
import threading
import time

FEEDS, ITEMS, DELAY = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000
LAST_MODIFIED = "Mon, 23 Nov 2026 08:00:00 GMT"
WORDS = "election climate markets court health science sports energy space policy trade".split()


def feed(n):
    items = []
    for i in range(ITEMS):
        topic, other = WORDS[(n + i) % len(WORDS)], WORDS[(n * 7 + i * 3) % len(WORDS)]
        day = 1 + (i % 28)
        items.append(
            f"""<item><title>Feed {n} story {i}: what the {topic} debate means for {other}</title>
<link>https://site{n}.example.com/{topic}/story-{i}.html</link>
<guid>https://site{n}.example.com/{topic}/story-{i}.html</guid>
<pubDate>Mon, {day:02d} Nov 2026 {i % 24:02d}:{i % 60:02d}:00 +0000</pubDate>
<dc:creator>Reporter {i % 17}</dc:creator>
<description><![CDATA[<p>A realistic summary of about two lines, about <b>{topic}</b> and {other},
with enough words to be representative of what real feeds send.</p>]]></description>
</item>""")
    body = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>Feed {n}</title><link>https://site{n}.example.com/</link><description>Feed {n}</description>
{"".join(items)}
</channel></rss>
""".encode()
    return body, '"' + hashlib.sha1(body).hexdigest()[:16] + '"'


BODIES = [feed(n) for n in range(FEEDS)]
FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "TestSupport" / "Fixtures"
BUILT_IN = {
    f"/{name}.json": (FIXTURES / f"source_{name}.readme-sample.json").read_bytes() for name in "abc"
}
lock = threading.Lock()
stats = {"requests": 0, "conditional": 0, "not_modified": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path == "/stats" or self.path == "/reset":
            with lock:
                if self.path == "/reset":
                    for key in stats:
                        stats[key] = 0
                body = json.dumps(stats).encode()
            return self.answer(200, body, {"Content-Type": "application/json"})
        if self.path in BUILT_IN:
            return self.answer(200, BUILT_IN[self.path], {"Content-Type": "application/json"})
        try:
            n = int(self.path.removeprefix("/feeds/").removesuffix(".xml"))
            body, etag = BODIES[n]
        except (ValueError, IndexError):
            return self.answer(404, b"not found", {})
        time.sleep(DELAY)
        conditional = "If-None-Match" in self.headers or "If-Modified-Since" in self.headers
        fresh = self.headers.get("If-None-Match") == etag or (
            self.headers.get("If-Modified-Since") == LAST_MODIFIED)
        with lock:
            stats["requests"] += 1
            stats["conditional"] += conditional
            stats["not_modified"] += fresh
        headers = {"ETag": etag, "Last-Modified": LAST_MODIFIED}
        if fresh:
            return self.answer(304, b"", headers)
        headers["Content-Type"] = "application/rss+xml"
        self.answer(200, body, headers)

    def answer(self, status, body, headers):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
