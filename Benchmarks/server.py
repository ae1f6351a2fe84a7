#!/usr/bin/env python3
"""Loopback server for Benchmarks/run.sh: realistic recorded responses on 127.0.0.1.

Prints the port it listens on, then serves until killed:
  /v2/top-headlines   a recorded newsapi.org response (20 articles)
  /feed/{a,b,c}.json  the feed sources' sample shapes
"""
import http.server
import pathlib
import sys

import loopback

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "TestSupport" / "Fixtures"
ROUTES = {
    "/v2/top-headlines": "top-headlines-us-2022-02-17.json",
    "/feed/a.json": "source_a.readme-sample.json",
    "/feed/b.json": "source_b.readme-sample.json",
    "/feed/c.json": "source_c.readme-sample.json",
}
BODIES = {path: (FIXTURES / name).read_bytes() for path, name in ROUTES.items()}


class Handler(loopback.Handler):
    def do_GET(self):
        body = BODIES.get(self.path.split("?", 1)[0])
        status = 200 if body is not None else 404
        body = body if body is not None else b'{"status":"error","code":"notFound"}'
        self.answer(status, body, {"Content-Type": "application/json"})


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
