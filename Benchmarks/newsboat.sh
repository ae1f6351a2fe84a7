#!/usr/bin/env bash
# news against newsboat, side by side in one run: 200 RSS feeds x 50 items on one loopback host
# whose every answer waits 100 ms, as ratios (news / newsboat).
# Needs hyperfine, newsboat, python3, curl, jq and GNU time; installs nothing:
#   apt-get install hyperfine newsboat python3 curl jq time
# Usage: bash Benchmarks/newsboat.sh [--quick] [feeds] [items] [delay-ms]
set -euo pipefail
cd "$(dirname "$0")/.."

runs=(--warmup 1 --min-runs 10)
if [ "${1:-}" = "--quick" ]; then runs=(--runs 3); shift; fi
feeds=${1:-200} items=${2:-50} delay=${3:-100}

missing=()
for tool in hyperfine newsboat python3 curl jq swift; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -x /usr/bin/time ] || missing+=("time (GNU time)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "missing: ${missing[*]}; install them (Debian: apt-get install hyperfine newsboat python3 curl jq time)" >&2
  exit 1
fi

echo "== building news (release)" >&2
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"

work=$(mktemp -d)
python3 Benchmarks/feed_server.py "$feeds" "$items" "$delay" > "$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"

for n in $(seq 0 $((feeds - 1))); do echo "$base/feeds/$n.xml"; done > "$work/urls"
echo "reload-threads 8" > "$work/newsboat.conf"
export NEWS_HOME="$work/news" NEWS_ANALYTICS=off NO_COLOR=1
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
# The built-in JSON sources answer at once from the same server.
export NEWS_FEED_A_URL="$base/a.json" NEWS_FEED_B_URL="$base/b.json" NEWS_FEED_C_URL="$base/c.json"
"$news" sources import "$work/urls" >/dev/null
boat=(newsboat -u "$work/urls" -c "$work/cache.db" -C "$work/newsboat.conf")

cat > "$work/cold.sh" <<COLD
#!/bin/sh
rm -f "$work"/news/*.enc "$work/cache.db"
COLD
chmod +x "$work/cold.sh"

json="$work/json"
mkdir -p "$json"
mean() { jq -r ".results[$2].mean" "$json/$1.json"; }
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
ms() { python3 -c "print(f'{$1 * 1000:.0f}')"; }

echo "== 1. cold refresh: $feeds feeds x $items items, ${delay} ms a request" >&2
hyperfine -N "${runs[@]}" --prepare "$work/cold.sh" --export-json "$json/cold.json" \
  -n "newsboat -x reload (reload-threads 8)" "${boat[*]} -x reload" \
  -n "news feed --refresh" "$news feed --refresh" \
  -n "news feed --refresh (NEWS_HOST_CONCURRENCY=8)" "env NEWS_HOST_CONCURRENCY=8 $news feed --refresh" >&2

echo "== 2. warm: every item from the cache" >&2
"$news" feed --refresh >/dev/null
"${boat[@]}" -x reload
hyperfine -N "${runs[@]}" --export-json "$json/warm.json" \
  -n "newsboat -x print-unread" "${boat[*]} -x print-unread" \
  -n "news feed" "$news feed" \
  -n "news feed --json" "$news feed --json" >&2

echo "== 3. conditional GET on the second run" >&2
count() { curl -s "$base/stats" | jq -r ".$1"; }
"$work/cold.sh"
"$news" feed --refresh >/dev/null; curl -s "$base/reset" >/dev/null
"$news" feed --refresh >/dev/null
news_conditional=$(count conditional) news_304=$(count not_modified) news_requests=$(count requests)
"${boat[@]}" -x reload; curl -s "$base/reset" >/dev/null
"${boat[@]}" -x reload
boat_conditional=$(count conditional) boat_304=$(count not_modified) boat_requests=$(count requests)

echo "== 4. peak memory of a cold refresh" >&2
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'; }
"$work/cold.sh"; mem_news=$(peak "$news" feed --refresh)
"$work/cold.sh"; mem_boat=$(peak "${boat[@]}" -x reload)

cat <<TABLE
| benchmark | news | newsboat 2.21 | ratio | target |
|---|---|---|---|---|
| cold refresh, $feeds feeds × $items items (\`news feed --refresh\`, 12 a host, vs \`newsboat -x reload\`, 8 threads) | $(ms "$(mean cold 1)") ms | $(ms "$(mean cold 0)") ms | $(ratio "$(mean cold 1)" "$(mean cold 0)")× | ≤ 0.8× |
| the same at newsboat's concurrency (\`NEWS_HOST_CONCURRENCY=8\`) | $(ms "$(mean cold 2)") ms | $(ms "$(mean cold 0)") ms | $(ratio "$(mean cold 2)" "$(mean cold 0)")× | |
| warm, $((feeds * items)) items (\`news feed\` vs \`newsboat -x print-unread\`) | $(ms "$(mean warm 1)") ms | $(ms "$(mean warm 0)") ms | $(ratio "$(mean warm 1)" "$(mean warm 0)")× | ≤ 0.3× |
| warm, \`news feed --json\` | $(ms "$(mean warm 2)") ms | $(ms "$(mean warm 0)") ms | $(ratio "$(mean warm 2)" "$(mean warm 0)")× | |
| conditional GET on the second run (requests sent conditionally / answered 304) | $news_conditional of $news_requests / $news_304 | $boat_conditional of $boat_requests / $boat_304 | | every source |
| peak memory of a cold refresh (max RSS) | $mem_news KiB | $mem_boat KiB | $(ratio "$mem_news" "$mem_boat")× | < 1× |
TABLE
