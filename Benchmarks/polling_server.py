#!/usr/bin/env python3
"""Loopback server for Benchmarks/polling.sh: FEEDS RSS feeds that post at mixed rates, dated
by a simulated clock.

Usage: polling_server.py <feeds> <now-file>
Prints the port it listens on, then serves until killed. <now-file> holds the simulated time
(seconds since 1970), written by the benchmark before each run; each feed lists its 20 newest
posts up to then, so its answer changes only when it has posted.
  /feeds/<n>.xml   feed n (0-based), with an ETag; 304 to a request sending it back
  /stats           {"requests", "not_modified", "classes": {class: requests}}
  /reset           sets the counters to zero
Feed n posts as class n % 20 says: 1 in 20 every 10 minutes, 3 hourly, 6 every 6 hours, 6 daily,
3 weekly, and 1 that posted monthly and fell silent 180 days ago.
"""
import hashlib
import http.server
import json
import sys
import threading

import loopback

FEEDS, NOW_FILE = int(sys.argv[1]), sys.argv[2]
CLASSES = (
    [("10 min", 600)] + [("hourly", 3_600)] * 3 + [("6 h", 21_600)] * 6 + [("daily", 86_400)] * 6
    + [("weekly", 604_800)] * 3 + [("silent", 2_592_000)])
SILENT_FOR = 180 * 86_400
lock = threading.Lock()
stats = {"requests": 0, "not_modified": 0, "classes": {}}


def now():
    with open(NOW_FILE) as file:
        return int(file.read().strip())


def feed(n, at):
    name, interval = CLASSES[n % len(CLASSES)]
    phase = (n * 7919) % interval
    if name == "silent":
        at -= SILENT_FOR
    last = (at - phase) // interval * interval + phase
    items = []
    for k in range(20):
        posted = last - k * interval
        stamp = http_date(posted)
        items.append(
            f"<item><title>Feed {n} post {posted}</title>"
            f"<link>https://site{n}.example.com/{posted}.html</link>"
            f"<guid>https://site{n}.example.com/{posted}.html</guid>"
            f"<pubDate>{stamp}</pubDate><description>Post {posted} of feed {n}.</description></item>")
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
        f"<title>Feed {n}</title><link>https://site{n}.example.com/</link>"
        + "".join(items) + "</channel></rss>").encode()
    return body, '"' + hashlib.sha1(body).hexdigest()[:16] + '"', name


def http_date(seconds):
    import email.utils
    return email.utils.formatdate(seconds, usegmt=True)


class Handler(loopback.Handler):
    def do_GET(self):
        if self.path in ("/stats", "/reset"):
            with lock:
                if self.path == "/reset":
                    stats.update(requests=0, not_modified=0, classes={})
                body = json.dumps(stats).encode()
            return self.answer(200, body, {"Content-Type": "application/json"})
        try:
            n = int(self.path.removeprefix("/feeds/").removesuffix(".xml"))
            if not 0 <= n < FEEDS:
                raise ValueError
        except ValueError:
            return self.answer(404, b"not found", {})
        body, etag, name = feed(n, now())
        unchanged = self.headers.get("If-None-Match") == etag
        with lock:
            stats["requests"] += 1
            stats["not_modified"] += unchanged
            stats["classes"][name] = stats["classes"].get(name, 0) + 1
        if unchanged:
            return self.answer(304, b"", {"ETag": etag})
        self.answer(200, body, {"Content-Type": "application/rss+xml", "ETag": etag})


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
