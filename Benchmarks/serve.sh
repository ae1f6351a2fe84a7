#!/usr/bin/env bash
# news serve at 100,000 stored articles (#55): each endpoint against the same server's answer to
# a trivial one (`token`: its floor), side by side in one hyperfine run through curl; then 16
# clients at once (keep-alive, mixed requests) for the rate, and the server's peak memory.
# Needs hyperfine, curl and python3; installs nothing.
# Usage: bash Benchmarks/serve.sh [--quick] [count]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=(--warmup 3 --runs 30)
if [ "${1:-}" = "--quick" ]; then runs=(--warmup 1 --runs 10); shift; fi
count=${1:-100000}
for tool in hyperfine curl python3; do
  command -v "$tool" >/dev/null || { echo "serve.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product news >&2
swift build -c release --product news-benchmark >&2
bin="$(swift build -c release --show-bin-path)"
work=$(mktemp -d)
export NEWS_HOME="$work/home" NEWS_ANALYTICS=off NO_COLOR=1 NEWS_RETENTION_MAX=0 NEWS_RETENTION_DAYS=0
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
mkdir -p "$NEWS_HOME"
echo "== filling $count articles" >&2
"$bin/news-benchmark" populate "$count" >&2
"$bin/news" serve --listen 127.0.0.1:0 --quiet 2>"$work/log" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "Google Reader API" "$work/log" 2>/dev/null && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/log" | head -1)
api="$base/reader/api/0"
list="user/-/state/com.google/reading-list"
# The first request reads the library (every article, its number): not what is measured.
start=$(date +%s.%N)
curl -sf "$api/unread-count" >/dev/null
python3 -c "import sys; print(f'first request (the library read): {float(sys.argv[2]) - float(sys.argv[1]):.2f} s')" "$start" "$(date +%s.%N)" >&2
curl -sf "$api/stream/items/ids?s=$list&n=100" | python3 -c '
import json, sys
print("&".join("i=" + r["id"] for r in json.load(sys.stdin)["itemRefs"]))' >"$work/ids"

hyperfine --style basic "${runs[@]}" --export-json "$work/serve.json" \
  -n "token (the floor)" "curl -sf $api/token" \
  -n "stream/items/ids n=1000" "curl -sf '$api/stream/items/ids?s=$list&n=1000'" \
  -n "stream/items/contents of 100" "curl -sf -d @$work/ids $api/stream/items/contents" \
  -n "unread-count" "curl -sf $api/unread-count" \
  -n "stream/contents n=50" "curl -sf '$api/stream/contents/$list?n=50'" >&2

python3 - "$base" "$work/ids" <<'PY' >"$work/rate"
import http.client, sys, threading, time, urllib.parse
base = urllib.parse.urlparse(sys.argv[1])
ids = open(sys.argv[2]).read().strip()
paths = ["/reader/api/0/unread-count", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=100",
         "/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=20", "/reader/api/0/token"]
done, errors, stop = [0], [0], time.time() + 5
lock = threading.Lock()
def client(n):
    connection = http.client.HTTPConnection(base.hostname, base.port)
    k = n
    while time.time() < stop:
        k += 1
        if k % 5 == 0:
            connection.request("POST", "/reader/api/0/stream/items/contents", ids,
                               {"Content-Type": "application/x-www-form-urlencoded"})
        else:
            connection.request("GET", paths[k % len(paths)])
        response = connection.getresponse(); response.read()
        with lock:
            done[0] += 1
            errors[0] += response.status != 200
threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
for t in threads: t.start()
for t in threads: t.join()
print(f"{done[0] / 5:.0f} {errors[0]}")
PY
peak=$(grep VmHWM /proc/$server/status | awk '{print $2}')
python3 - "$work/serve.json" "$work/rate" "$peak" "$count" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
rate, errors = open(sys.argv[2]).read().split()
floor = results[0]["mean"]
targets = {"stream/items/ids n=1000": 3, "stream/items/contents of 100": 5, "unread-count": 2,
           "stream/contents n=50": 5}
print(f"| at {int(sys.argv[4]):,} stored | mean | ratio to token | target |")
print("|---|---|---|---|")
for r in results:
    target = targets.get(r["command"])
    print(f"| {r['command']} | {r['mean'] * 1000:.1f} ms | {r['mean'] / floor:.2f}x | {'≤ %dx' % target if target else ''} |")
print(f"| 16 clients at once, mixed | {rate} requests/s ({errors} not 200) | | ≥ 1,000/s |")
print(f"| peak memory of news serve | {int(sys.argv[3]) / 1024:.0f} MB | | < 100 MB |")
PY
