#!/usr/bin/env bash
# The store under a real reader's history (issue #22), side by side in one run, as ratios:
# a home built through the command line (100 queries of 100 headlines: `news headlines
# --page-size 100 --page 1…100`), topped up to 100,000 articles with the tool's quick fill, then
# 100,000 read marks (`news read --all`); against `news --version`, an empty home, or the same
# home without the marks.
# Needs hyperfine, python3 and jq; installs nothing. Usage: bash Benchmarks/history.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=(--warmup 3 --min-runs 15)
[ "${1:-}" = "--quick" ] && runs=(--warmup 1 --runs 5)
swift build -c release --product news >&2
swift build -c release --product news-benchmark >&2
bin=$(swift build -c release --show-bin-path)
news="$bin/news"
work=$(mktemp -d)
python3 Benchmarks/history_server.py >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
export NEWSAPI_KEY=benchmark-key NEWSAPI_URL="$base" NEWS_ANALYTICS=off NO_COLOR=1
export NEWS_FEED_A_URL="$base/feed/a.json" NEWS_FEED_B_URL="$base/feed/b.json"
export NEWS_FEED_C_URL="$base/feed/c.json" NEWS_RETENTION_MAX=200000
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
echo "$NEWS_STORE_KEY" >"$work/key"

echo "== building the history: 100 queries through the command line, then the quick fill" >&2
mkdir -p "$work/history" "$work/empty"
NEWS_HOME="$work/history" "$bin/news-benchmark" populate 90000 >&2
for page in $(seq 1 100); do
  NEWS_HOME="$work/history" "$news" headlines --page-size 100 --page "$page" --json >/dev/null
done
NEWS_HOME="$work/history" "$news" feed >/dev/null
NEWS_HOME="$work/history" "$news" headlines --json >/dev/null
cp -r "$work/history" "$work/unmarked"
NEWS_HOME="$work/history" "$news" read --all >&2
NEWS_HOME="$work/empty" "$news" feed >/dev/null

source Benchmarks/ratios.sh
echo "work: $work" >&2
bench offline -n "news --version" "$(at history --version)" \
  -n "headlines --offline" "$(at history headlines --offline --json)" \
  -n "headlines --offline, no marks" "$(at unmarked headlines --offline --json)" \
  -n "search --limit 20" "$(at history search climate policy --limit 20 --json)"
bench online -n "empty home" "$(at empty headlines --json --refresh)" \
  -n "history" "$(at history headlines --json --refresh)"
bench marks -n "read 3, no marks" "$(at unmarked read 3)" -n "read 3" "$(at history read 3)" \
  -n "feed, no marks" "$(at unmarked feed --json)" -n "feed" "$(at history feed --json)"

echo "| at 100,000 stored, 100 earlier queries, 100,000 read marks | ours | baseline | ratio | target |"
echo "|---|---|---|---|---|"
row "\`headlines --offline --json\`" offline 1 0 "--version" "≤ 1.5×"
row "\`headlines --offline --json\` with the marks" offline 1 2 "no marks" "≤ 1.1×"
row "\`search climate policy --limit 20\`" offline 3 0 "--version" "≤ 3×"
row "online \`headlines --json\`" online 1 0 "empty home" "≤ 1.3×"
row "\`read 3\`" marks 1 0 "no marks" "≤ 1.3×"
row "\`feed --json\` (warm)" marks 3 2 "no marks" "≤ 1.3×"
