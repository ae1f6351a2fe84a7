#!/usr/bin/env python3
"""Loopback server for Benchmarks/accounts.sh: the same FEEDS x ITEMS items two ways.

Usage: greader_server.py <feeds> <items>
Prints the port it listens on, then serves until killed:
  /feeds/<n>.xml          feed n as RSS 2.0 (for a local refresh), with an ETag (304 when sent back)
  /a.json, /b.json, /c.json   the built-in JSON sources' samples
  /api/greader.php/...    the Google Reader API of one user (u / p) subscribed to every feed:
                          accounts/ClientLogin, reader/api/0/token, subscription/list,
                          stream/contents/user/-/state/com.google/reading-list (n, c, ot),
                          stream/items/ids (s, xt, n, c), edit-tag
Every item was crawled an hour before the server started: a sync asking for items since its
last sync (less a minute) gets none. One item in 50 is starred.
"""
import hashlib
import http.server
import json
import pathlib
import sys
import time
import urllib.parse

FEEDS, ITEMS = int(sys.argv[1]), int(sys.argv[2])
WORDS = "election climate markets court health science sports energy space policy trade".split()
STARTED = int(time.time()) - 3600  # crawled an hour ago: past the overlap a sync asks again
AUTH = "bench-auth"


def story(n, i):
    topic, other = WORDS[(n + i) % len(WORDS)], WORDS[(n * 7 + i * 3) % len(WORDS)]
    return {
        "id": n * ITEMS + i + 1,
        "feed": n,
        "title": f"Feed {n} story {i}: what the {topic} debate means for {other}",
        "link": f"https://site{n}.example.com/{topic}/story-{i}.html",
        "published": 1793577600 + (i % 28) * 86400 + (i % 24) * 3600,
        "author": f"Reporter {i % 17}",
        "summary": f"<p>A realistic summary of about two lines, about <b>{topic}</b> and {other},\n"
        "with enough words to be representative of what real feeds send.</p>",
    }


STORIES = [story(n, i) for n in range(FEEDS) for i in range(ITEMS)]
NEWEST_FIRST = sorted(STORIES, key=lambda s: (s["published"], s["id"]), reverse=True)


def rss(n):
    items = "".join(
        f"""<item><title>{s['title']}</title><link>{s['link']}</link><guid>{s['link']}</guid>
<pubDate>{time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(s['published']))}</pubDate>
<dc:creator>{s['author']}</dc:creator><description><![CDATA[{s['summary']}]]></description></item>"""
        for s in STORIES[n * ITEMS:(n + 1) * ITEMS])
    body = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>Feed {n}</title><link>https://site{n}.example.com/</link><description>Feed {n}</description>
{items}</channel></rss>""".encode()
    return body, '"' + hashlib.sha1(body).hexdigest()[:16] + '"'


BODIES = [rss(n) for n in range(FEEDS)]
FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "TestSupport" / "Fixtures"
BUILT_IN = {
    f"/{name}.json": (FIXTURES / f"source_{name}.readme-sample.json").read_bytes() for name in "abc"
}


def item_json(s):
    return {
        "id": "tag:google.com,2005:reader/item/%016x" % s["id"],
        "title": s["title"], "published": s["published"], "updated": s["published"],
        "crawlTimeMsec": str(STARTED * 1000), "author": s["author"],
        "canonical": [{"href": s["link"]}], "alternate": [{"href": s["link"], "type": "text/html"}],
        "summary": {"content": s["summary"]},
        "origin": {"streamId": f"feed/https://site{s['feed']}.example.com/rss", "title": f"Feed {s['feed']}"},
        "categories": ["user/-/state/com.google/reading-list"]
        + (["user/-/state/com.google/starred"] if starred(s) else []),
    }


def starred(s):
    """One item in 50 is starred, as a reader's saved items are spread over their feeds."""
    return s["id"] % 50 == 0


def page(items, query, default):
    size = min(int(query.get("n", [default])[0]), 10000)
    start = int(query.get("c", ["0"])[0])
    chunk = items[start:start + size]
    return chunk, (str(start + size) if start + size < len(items) else None)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body, headers):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, obj):
        self.answer(200, json.dumps(obj).encode(), {"Content-Type": "application/json"})

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        path = urllib.parse.urlparse(self.path).path
        if path == "/api/greader.php/accounts/ClientLogin":
            if form.get("Email") == ["u"] and form.get("Passwd") == ["p"]:
                return self.answer(200, f"SID=x\nLSID=x\nAuth={AUTH}\n".encode(), {})
            return self.answer(401, b"Error=BadAuthentication\n", {})
        if self.headers.get("Authorization") != f"GoogleLogin auth={AUTH}":
            return self.answer(401, b"Unauthorized", {})
        return self.answer(200, b"OK", {})

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path in BUILT_IN:
            return self.answer(200, BUILT_IN[url.path], {"Content-Type": "application/json"})
        if url.path.startswith("/feeds/"):
            body, etag = BODIES[int(url.path.removeprefix("/feeds/").removesuffix(".xml"))]
            if self.headers.get("If-None-Match") == etag:
                return self.answer(304, b"", {"ETag": etag})
            return self.answer(200, body, {"Content-Type": "application/rss+xml", "ETag": etag})
        if self.headers.get("Authorization") != f"GoogleLogin auth={AUTH}":
            return self.answer(401, b"Unauthorized", {})
        api = url.path.removeprefix("/api/greader.php/reader/api/0/")
        if api == "token":
            return self.answer(200, b"bench-token\n", {})
        if api == "subscription/list":
            return self.json({"subscriptions": [
                {"id": f"feed/https://site{n}.example.com/rss", "title": f"Feed {n}",
                 "url": f"https://site{n}.example.com/rss", "categories": []}
                for n in range(FEEDS)]})
        if api == "stream/contents/user/-/state/com.google/reading-list":
            since = int(query.get("ot", ["0"])[0])
            items = NEWEST_FIRST if since <= STARTED else []
            chunk, continuation = page(items, query, "20")
            body = {"items": [item_json(s) for s in chunk]}
            if continuation:
                body["continuation"] = continuation
            return self.json(body)
        if api == "stream/items/ids":
            of_starred = query.get("s", [""])[0].endswith("/starred")
            ids = [str(s["id"]) for s in NEWEST_FIRST if not of_starred or starred(s)]
            chunk, continuation = page(ids, query, "20")
            body = {"itemRefs": [{"id": i} for i in chunk]}
            if continuation:
                body["continuation"] = continuation
            return self.json(body)
        return self.answer(404, b"not found", {})


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
