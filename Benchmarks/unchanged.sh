#!/usr/bin/env bash
# An unchanged refresh (every source answers 304 Not Modified) against the cold refresh of the same
# sources, side by side in one run: wall and CPU time, and bytes written under NEWS_HOME.
# Target (issue #22): the unchanged refresh costs at most 0.3x the cold one.
# Needs python3, jq and GNU time; installs nothing. Usage: bash Benchmarks/unchanged.sh [feeds] [items]
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${1:-500}
items=${2:-100}
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
python3 Benchmarks/feed_server.py "$feeds" "$items" 0 >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
for n in $(seq 0 $((feeds - 1))); do echo "$base/feeds/$n.xml"; done >"$work/urls"
export NEWS_HOME="$work/news" NEWS_ANALYTICS=off NO_COLOR=1 NEWS_RETENTION_MAX=200000
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
export NEWS_FEED_A_URL="$base/a.json" NEWS_FEED_B_URL="$base/b.json" NEWS_FEED_C_URL="$base/c.json"
"$news" sources import "$work/urls" >/dev/null

measure() {  # label
  /usr/bin/time -f "%e %U %S" -o "$work/time" \
    sh -c "\"$news\" feed --refresh >/dev/null 2>&1; grep -E '^write_bytes' /proc/\$\$/io | cut -d' ' -f2 > \"$work/io\"" || true
  read -r wall user system <"$work/time"
  printf '%s %s %s\n' "$wall" "$(python3 -c "print(round($user + $system, 2))")" "$(cat "$work/io" 2>/dev/null || echo 0)"
}
rm -rf "$NEWS_HOME"/*.enc
read -r cold_wall cold_cpu _ < <(measure)
read -r warm_wall warm_cpu _ < <(measure)
stats=$(curl -s "$base/stats")
echo "| refresh of $feeds feeds x $items items | wall | CPU | ratio (CPU) | target |"
echo "|---|---|---|---|---|"
echo "| cold (empty store) | ${cold_wall} s | ${cold_cpu} s | | |"
echo "| unchanged (every answer 304: $(echo "$stats" | jq .not_modified) of $(echo "$stats" | jq .requests)) | ${warm_wall} s | ${warm_cpu} s | $(python3 -c "print(f'{$warm_cpu / $cold_cpu:.2f}')")× | ≤ 0.3× |"
