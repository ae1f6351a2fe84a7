#!/usr/bin/env bash
# The query language at a million stored articles (#43): each command against its baseline,
# side by side in one run. The store is filled as Benchmarks/million.sh fills it
# (`news-benchmark populate`, retention off), then 100 feeds of 50 items are imported and
# fetched, ten of them tagged `tech`; a copy of the home gets 10 saved searches (query lists).
# Needs hyperfine, python3 and jq; installs nothing.
# Usage: bash Benchmarks/queries.sh [--quick] [count]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=(--warmup 1 --runs 10)
if [ "${1:-}" = "--quick" ]; then runs=(--warmup 1 --runs 3); shift; fi
count=${1:-1000000}
for tool in hyperfine python3 jq; do
  command -v "$tool" >/dev/null || { echo "queries.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product news >&2
swift build -c release --product news-benchmark >&2
bin="$(swift build -c release --show-bin-path)"
news="$bin/news"
work=$(mktemp -d)
python3 Benchmarks/feed_server.py 100 50 0 >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
for n in $(seq 0 99); do echo "$base/feeds/$n.xml"; done >"$work/urls"
export NEWS_ANALYTICS=off NO_COLOR=1 NEWS_RETENTION_MAX=0 NEWS_RETENTION_DAYS=0 NEWS_COUNTS=off
export NEWS_FEED_A_URL="$base/a.json" NEWS_FEED_B_URL="$base/b.json" NEWS_FEED_C_URL="$base/c.json"
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
export NEWSAPI_KEY=benchmark NEWSAPI_URL="$base"

echo "== filling $count articles, then 100 feeds (10 tagged tech)" >&2
mkdir -p "$work/big"
NEWS_HOME="$work/big" "$bin/news-benchmark" populate "$count" >&2
for demo in articles bbc a b c; do NEWS_HOME="$work/big" "$news" sources set "$demo" --disable >/dev/null; done
NEWS_HOME="$work/big" "$news" sources import "$work/urls" >/dev/null
NEWS_HOME="$work/big" "$news" feed >/dev/null
NEWS_HOME="$work/big" "$news" sources --json | jq -r '.sources[] | select(.format != "json" and .format != "provider") | .name' \
  | head -10 | while read -r name; do
  NEWS_HOME="$work/big" "$news" sources set "$name" --tags tech >/dev/null
done
cp -a "$work/big" "$work/queries"
for i in $(seq 0 9); do
  NEWS_HOME="$work/queries" "$news" sources add --search "is:unread age<$((i + 1))d OR story-$i" \
    --name "query-$i" >/dev/null
done
query='is:unread tag:tech age<7d'
# #58's shape: every article read, and a word 31 of them hold (a feed of its own).
cp -a "$work/big" "$work/read"
python3 - "$work/rare.xml" <<'PY'
import sys
items = "".join(
    f"<item><title>Zanzibar storm {i}</title><link>http://rare.example/{i}</link>"
    f"<pubDate>Mon, 02 Nov 2026 10:{i:02d}:00 GMT</pubDate></item>" for i in range(31))
open(sys.argv[1], "w").write(f"<rss version='2.0'><channel><title>R</title>{items}</channel></rss>")
PY
NEWS_HOME="$work/read" "$news" sources add --exec "cat $work/rare.xml" --name rare >/dev/null
NEWS_HOME="$work/read" "$news" feed --source rare >/dev/null
NEWS_HOME="$work/read" "$news" read --where 'is:unread' >/dev/null

source Benchmarks/ratios.sh
bench queries -n "news --version" "$(at big --version)" \
  -n "search '$query' --limit 20" "$(at big search "'$query'" --limit 20 --json)" \
  -n "feed --offline --where '$query'" "$(at big feed --offline --where "'$query'" --json)" \
  -n "search 'climate is:unread age<30d' --limit 20" "$(at big search "'climate is:unread age<30d'" --limit 20 --json)"
bench narrowed -n "news --version" "$(at read --version)" \
  -n "search zanzibar --limit 20" "$(at read search zanzibar --limit 20 --json)" \
  -n "search 'zanzibar is:unread' --limit 20" "$(at read search "'zanzibar is:unread'" --limit 20 --json)" \
  -n "search 'zanzibar (title:storm OR author:a)' --limit 20" \
  "$(at read search "'zanzibar (title:storm OR author:a)'" --limit 20 --json)" \
  -n "search is:unread --limit 20" "$(at read search is:unread --limit 20 --json)"
# Each example of docs/queries.md, and #58's three, in the home where every article is read.
examples=(
  'climate'
  'is:unread tag:tech age<7d'
  'author:"Ann Lee" -is:read'
  'source:hn age>2d'
  '(rust OR swift) -sponsored'
  'has:enclosure -has:download'
  'date:2026-11-01..2026-11-20 /\bAI\b/'
  'url:github.com is:bookmarked'
  'climate is:unread'
  'is:unread'
  'climate (title:storm OR author:a)'
)
arguments=(-n "news --version" "$(at read --version)")
for example in "${examples[@]}"; do
  arguments+=(-n "search '$example' --limit 20" "$(at read search "'$example'" --limit 20 --json)")
done
bench examples "${arguments[@]}"
read -r browse _ < <(NEWS_HOME="$work/big" python3 Benchmarks/home_pty.py "$news" "${runs[3]}")
read -r browse_queries _ < <(NEWS_HOME="$work/queries" python3 Benchmarks/home_pty.py "$news" "${runs[3]}")

echo
echo "| at $count stored | ours | baseline | ratio | target |"
echo "|---|---|---|---|---|"
row "\`search '$query' --limit 20\`" queries 1 0 "--version" "≤ 3×"
row "\`feed --offline --where '$query'\`" queries 2 0 "--version" "≤ 3×"
row "\`search 'climate is:unread age<30d' --limit 20\`" queries 3 0 "--version" ""
row "every one read: \`search zanzibar\` (31 matches)" narrowed 1 0 "--version" ""
row "every one read: \`search 'zanzibar is:unread'\`" narrowed 2 0 "--version" "≤ 3×"
row "every one read: \`search 'zanzibar (title:storm OR author:a)'\`" narrowed 3 0 "--version" "≤ 3×"
row "every one read: \`search is:unread\`" narrowed 4 0 "--version" "≤ 3×"
echo
echo "| at $count stored, every one read: docs/queries.md's examples | ours | baseline | ratio | target |"
echo "|---|---|---|---|---|"
for index in "${!examples[@]}"; do
  row "\`search '${examples[$index]}' --limit 20\`" examples $((index + 1)) 0 "--version" "≤ 3×"
done
echo
python3 -c "import sys; q, b = map(float, sys.argv[1:3]); print(f'| browse to the first home screen with 10 query lists | {q*1000:.1f} ms | {b*1000:.1f} ms (without them) | {q/b:.2f}× | ≤ 1.5× |')" "$browse_queries" "$browse"
