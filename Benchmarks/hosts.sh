#!/usr/bin/env bash
# The Internet's shape (#34): a cold refresh of feeds spread over 100 hosts (127.0.0.1 …
# 127.0.0.100), each feed answering after its own 20 to 800 ms, one in 25 failing with 500,
# news against newsboat (reload-threads 8), wall time side by side in one run, with the floor
# the delays impose: the slowest feed, and the sum of the delays over the requests in flight.
# Needs hyperfine, newsboat and python3; installs nothing.
# Usage: bash Benchmarks/hosts.sh [--quick] [feeds] [hosts]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=(--runs 5)
if [ "${1:-}" = "--quick" ]; then runs=(--runs 2); shift; fi
feeds=${1:-1000} hosts=${2:-100}
for tool in hyperfine newsboat python3 jq; do
  command -v "$tool" >/dev/null || { echo "hosts.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
python3 Benchmarks/hosts_server.py "$feeds" "$hosts" 50 >"$work/urls" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ "$(wc -l <"$work/urls")" -ge "$feeds" ] && break; sleep 0.1; done
echo "reload-threads 8" >"$work/newsboat.conf"
export NEWS_HOME="$work/news" NEWS_ANALYTICS=off NO_COLOR=1 NEWS_COUNTS=off
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
mkdir -p "$NEWS_HOME"
# The built-in demo sources off: only the feeds are measured.
off=$(for name in a b c articles bbc; do printf '{"name": "%s", "enabled": false}, ' "$name"; done)
echo "{\"sources\": [${off%, }]}" >"$NEWS_HOME/config.json"
"$news" sources import "$work/urls" >/dev/null
boat=(newsboat -u "$work/urls" -c "$work/cache.db" -C "$work/newsboat.conf")
cat >"$work/cold.sh" <<COLD
#!/bin/sh
rm -f "$work"/news/*.enc "$work/cache.db"
COLD
chmod +x "$work/cold.sh"
hyperfine -N -i "${runs[@]}" --prepare "$work/cold.sh" --export-json "$work/hosts.json" \
  -n "newsboat -x reload (reload-threads 8)" "${boat[*]} -x reload" \
  -n "news feed --refresh" "$news feed --refresh" \
  -n "news feed --refresh (NEWS_CONCURRENCY=32)" "env NEWS_CONCURRENCY=32 $news feed --refresh" >&2
floor=$(python3 -c "
delays = [(20 + (n * 7919) % 781) / 1000 for n in range($feeds)]
print(f'{max(max(delays), sum(delays) / 96):.2f} s (slowest {max(delays):.2f} s; delays ÷ 96 in flight {sum(delays) / 96:.2f} s)')")
# (A sync with failing sources exits 75: its memory counts all the same.)
peak() { "$work/cold.sh"; { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null || true; } | tail -1; }
mem_news=$(peak "$news" feed --refresh) mem_sync=$(peak "$news" sync --quiet)
mem_boat=$(peak "${boat[@]}" -x reload)
mean() { jq -r ".results[$1].mean" "$work/hosts.json"; }
python3 -c "import sys; n, m, b = map(float, sys.argv[1:4]); print(f'| cold refresh, $feeds feeds over $hosts hosts, 20–800 ms each | {n:.2f} s | {b:.2f} s | {n/b:.2f}× | ≤ 0.25× |'); print(f'| the same with NEWS_CONCURRENCY=32 | {m:.2f} s | {b:.2f} s | {m/b:.2f}× | |')" "$(mean 1)" "$(mean 2)" "$(mean 0)"
echo "| the floor the delays set for news | $floor | | | |"
echo "| peak memory (max RSS): feed --refresh, sync | $mem_news KiB, $mem_sync KiB | $mem_boat KiB | | ≤ 1× |"
