#!/usr/bin/env bash
# A podcast episode downloaded through the built binary (#36): killed with SIGKILL half way, then
# resumed by the next run with a byte range, against a Python file server on loopback that
# honours Range and If-Range. Passes when the resumed file is byte for byte the original, the
# server was asked for the rest only, and the run on a terminal drew a progress bar.
#   bash Tests/Stress/download-resume.sh [path/to/news]
set -uo pipefail
news=${1:-.build/debug/news}
news=$(cd "$(dirname "$news")" && pwd)/$(basename "$news")
work=$(mktemp -d)
trap 'kill $server $downloader 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
server= downloader=
fail() { echo "download-resume: $*"; exit 1; }

head -c 24000000 /dev/urandom > "$work/episode.mp3"
cat > "$work/server.py" <<'PY'
import hashlib, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
work = sys.argv[1]
body = open(f"{work}/episode.mp3", "rb").read()
etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        port = self.server.server_address[1]
        if self.path == "/cast.xml":
            feed = (f'<rss version="2.0"><channel><title>Cast</title><item><title>Episode 1</title>'
                    f'<link>http://127.0.0.1:{port}/ep1</link>'
                    f'<pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate>'
                    f'<enclosure url="http://127.0.0.1:{port}/ep1.mp3" type="audio/mpeg" '
                    f'length="{len(body)}"/></item></channel></rss>').encode()
            return self.send(200, feed, {"Content-Type": "application/rss+xml"})
        if self.path != "/ep1.mp3": return self.send(404, b"")
        with open(f"{work}/requests.log", "a") as log:
            log.write(f"range={self.headers.get('Range')} if-range={self.headers.get('If-Range')}\n")
        start, status, headers = 0, 200, {"Content-Type": "audio/mpeg", "ETag": etag,
                                          "Accept-Ranges": "bytes"}
        asked = self.headers.get("Range")
        if asked and asked.startswith("bytes=") and self.headers.get("If-Range") in (None, etag):
            start, status = int(asked[6:].split("-")[0]), 206
            headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
        self.send(status, body[start:], headers)
    def send(self, status, payload, headers):
        self.send_response(status)
        for name, value in headers.items(): self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            # About 6 MB a second: slow enough to be killed half way, and for progress frames.
            for offset in range(0, len(payload), 65536):
                self.wfile.write(payload[offset:offset + 65536])
                time.sleep(0.01)
        except (BrokenPipeError, ConnectionResetError):
            pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
open(f"{work}/port", "w").write(str(server.server_address[1]))
server.serve_forever()
PY
python3 "$work/server.py" "$work" & server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the file server did not start"
port=$(cat "$work/port")

export NEWS_HOME="$work/home" HOME="$work" NEWS_ANALYTICS=off NEWS_COUNTS=off \
  NEWS_DOWNLOAD_DIR="$work/downloads" LANG=C.UTF-8 TERM=xterm
mkdir -p "$NEWS_HOME"
printf '{"sources": [{"name": "cast", "url": "http://127.0.0.1:%s/cast.xml"}, %s]}\n' "$port" \
  '{"name": "a", "enabled": false}, {"name": "b", "enabled": false}, {"name": "c", "enabled": false}' \
  > "$NEWS_HOME/config.json"
"$news" feed >/dev/null || fail "news feed failed"

file="$work/downloads/cast/2026-11-24 Episode 1.mp3"
"$news" download 1 >"$work/first.out" 2>&1 & downloader=$!
# Killed once a third or more has arrived (the server sends about 6 MB a second).
for _ in $(seq 300); do
  size=$(stat -c %s "$file.part" 2>/dev/null || echo 0)
  [ "$size" -ge 8000000 ] && break
  sleep 0.05
done
kill -9 "$downloader" 2>/dev/null
wait "$downloader" 2>/dev/null
downloader=
kept=$(stat -c %s "$file.part" 2>/dev/null || echo 0)
[ "$kept" -ge 8000000 ] && [ "$kept" -lt 24000000 ] || fail "the part holds $kept bytes after the kill"
[ -e "$file" ] && fail "the file took its name before it was whole"

# On a terminal (script(1) gives it one): the progress bar (the server still slow enough for a
# few frames), then the line of the finished file.
script -qfec "'$news' download 1" "$work/second.out" >/dev/null 2>&1 \
  || fail "the resumed download failed: $(tail -c 400 "$work/second.out")"
cmp -s "$file" "$work/episode.mp3" || fail "the resumed file differs from the original"
[ -e "$file.part" ] && fail "the part was left behind"
last=$(tail -n 1 "$work/requests.log")
case "$last" in
  "range=bytes="*"- if-range=\""*) ;;
  *) fail "the second run did not ask for the rest with Range and If-Range: $last" ;;
esac
offset=${last#range=bytes=}
offset=${offset%%-*}
[ "$offset" -ge "$kept" ] || fail "asked from byte $offset, the part held $kept"
grep -q '%' "$work/second.out" || fail "no progress bar on the terminal"
grep -q 'resumed' "$work/second.out" || fail "the finished line does not say resumed"
echo "download-resume: killed at $kept of 24000000 bytes, resumed from byte $offset: identical"
