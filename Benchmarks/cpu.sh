#!/usr/bin/env bash
# CPU the release binary spends on the audit's hostile servers (issue #21), each against its target:
#   - a server that holds the request for 4 s: CPU time / wall time of the wait   (target ≤ 10%)
#   - a 2 MB gzip body that inflates to 2 GiB (NEWSAPI_URL): CPU seconds            (target < 2 s)
#   - an RSS item with 400,000 attributes (4.7 MB), as a web feed: CPU seconds     (target < 2 s)
# Needs python3, gzip and GNU time (/usr/bin/time); installs nothing. Usage: bash Benchmarks/cpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

head -c $((2 << 30)) /dev/zero | gzip -9 >"$work/bomb.gz"
python3 - "$work" <<'PY'
import sys
attributes = " ".join(f'a{i}="{i}"' for i in range(400000))
open(f"{sys.argv[1]}/wide.xml", "w").write(
    f'<rss><channel><title>w</title><item {attributes}><title>wide</title></item></channel></rss>')
PY
python3 - "$work" >"$work/port" <<'PY' &
import http.server, sys, time
work = sys.argv[1]
bomb = open(f"{work}/bomb.gz", "rb").read()
wide = open(f"{work}/wide.xml", "rb").read()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/held/v2/"):
            time.sleep(4)
            body, headers = b'{"status":"ok","totalResults":0,"articles":[]}', {}
        elif self.path.startswith("/bomb/v2/"):
            body, headers = bomb, {"Content-Encoding": "gzip"}
        else:
            body, headers = wide, {"Content-Type": "application/rss+xml"}
        self.send_response(200)
        for name, value in headers.items(): self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
server=$!
while [ ! -s "$work/port" ]; do sleep 0.1; done
base="http://127.0.0.1:$(cat "$work/port")"

measure() {  # label, then the command: one row of the table
  local label=$1
  shift
  /usr/bin/time -f "%e %U %S %x" -o "$work/time" "$@" >/dev/null 2>"$work/err" || true
  read -r wall user system status <"$work/time"
  python3 -c "import sys; w,u,s=map(float,sys.argv[2:5]); print(f'| {sys.argv[1]} | {sys.argv[5]} | {w:.2f} s | {u+s:.2f} s | {100*(u+s)/w:.0f}% |')" \
    "$label" "$wall" "$user" "$system" "$status"
}

export NEWS_HOME="$work/home" NEWSAPI_KEY=benchmark NEWS_ANALYTICS=off NEWS_RETRY_DELAY=0
echo "| case | exit | wall | CPU | CPU / wall |"
echo "|---|---|---|---|---|"
NEWSAPI_URL="$base/held" measure "request held 4 s (\`news headlines\`)" "$news" headlines --json
NEWSAPI_URL="$base/bomb" measure "2 MB gzip inflating to 2 GiB (refused past 10 MiB)" "$news" headlines --json
"$news" sources add "$base/wide.xml" --name wide >/dev/null 2>&1 || true
measure "400,000 attributes on one item, 4.7 MB (\`news feed --refresh --source wide\`)" \
  "$news" feed --refresh --source wide
