#!/usr/bin/env bash
# A million stored articles (#34): each command against its baseline, side by side in one run.
# The store is filled by `news-benchmark populate 1000000` (200 runs of 5,000 through the same
# `keep` a refresh uses: the same segment files, compactions, retention), with retention off
# (NEWS_RETENTION_MAX=0, NEWS_RETENTION_DAYS=0), then through the command line: 100 feeds of 50
# items imported and fetched, five bookmarks, a search, the last listing.
# Needs hyperfine, python3 and jq; installs nothing. Usage: bash Benchmarks/million.sh [--quick] [count]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=(--warmup 1 --runs 10)
if [ "${1:-}" = "--quick" ]; then runs=(--warmup 1 --runs 3); shift; fi
count=${1:-1000000}
for tool in hyperfine python3 jq; do
  command -v "$tool" >/dev/null || { echo "million.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
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
# newsapi.org's list is the million's (stored by the fill); the server only answers the feeds.
export NEWSAPI_KEY=benchmark NEWSAPI_URL="$base"

echo "== filling $count articles, then the reader's own steps" >&2
mkdir -p "$work/big" "$work/empty"
start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$work/fill-rss" env NEWS_HOME="$work/big" "$bin/news-benchmark" populate "$count" >&2
fill=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f}')" "$start" "$(date +%s.%N)")
for home in big empty; do
  # The demo sources off: newsapi.org (the million) and the 100 feeds are the home's rows.
  for demo in articles bbc a b c; do
    NEWS_HOME="$work/$home" "$news" sources set "$demo" --disable >/dev/null
  done
  NEWS_HOME="$work/$home" "$news" sources import "$work/urls" >/dev/null
  NEWS_HOME="$work/$home" "$news" feed >/dev/null
done
NEWS_HOME="$work/big" "$news" search climate --limit 5 >/dev/null
NEWS_HOME="$work/big" "$news" bookmark 1 2 3 4 5 >/dev/null
NEWS_HOME="$work/big" "$news" headlines --offline >/dev/null

source Benchmarks/ratios.sh
bench offline -n "news --version" "$(at big --version)" \
  -n "headlines --offline" "$(at big headlines --offline --json)" \
  -n "feed --offline" "$(at big feed --offline --json)" \
  -n "feed --offline, without the million" "$(at empty feed --offline --json)" \
  -n "search --limit 20" "$(at big search climate --limit 20 --json)" \
  -n "search story" "$(at big search story 777777 --json)"
# A refresh of the 100 feeds that fetches and stores their 5,000 items again (their cache
# entries removed first, so nothing is answered 304), into the big home and into the empty one.
prepare() { echo "rm -f $work/$1/feed-*.enc $work/$1/revalidated.enc"; }
bench refresh --prepare "$(prepare empty)" -n "empty home" "$(at empty feed --refresh --json)" \
  --prepare "$(prepare big)" -n "big home" "$(at big feed --refresh --json)"
doctor=$( { /usr/bin/time -f "%e %M" env NEWS_HOME="$work/big" "$news" doctor >/dev/null; } 2>&1 | tail -1)
read -r browse version < <(NEWS_HOME="$work/big" python3 Benchmarks/home_pty.py "$news" "${runs[3]}")
read -r browse_empty _ < <(NEWS_HOME="$work/empty" python3 Benchmarks/home_pty.py "$news" "${runs[3]}")
files=$(find "$work/big" -name '*.enc' | wc -l)
bytes=$(du -sb "$work/big" | cut -f1)

echo
echo "| at $count stored | ours | baseline | ratio | target |"
echo "|---|---|---|---|---|"
row "\`headlines --offline --json\`" offline 1 0 "--version" "≤ 1.5×"
row "\`feed --offline --json\` (100 feeds, 5,000 items)" offline 2 3 "without the million" "≤ 1.5×"
row "\`feed --offline --json\` (100 feeds, 5,000 items)" offline 2 0 "--version" ""
row "\`search climate --limit 20\`" offline 4 0 "--version" "≤ 3×"
row "\`search story 777777\`" offline 5 0 "--version" ""
python3 -c "import sys; b, e, v = map(float, sys.argv[1:4]); print(f'| browse to the first home screen (newsapi.org and 100 feeds) | {b*1000:.1f} ms | {e*1000:.1f} ms (without the million) | {b/e:.2f}× | ≤ 2× |'); print(f'| browse to the first home screen (newsapi.org and 100 feeds) | {b*1000:.1f} ms | {v*1000:.1f} ms (--version) | {b/v:.2f}× | |')" "$browse" "$browse_empty" "$version"
row "refresh of 100 feeds (5,000 items stored again)" refresh 1 0 "empty home" "≤ 1.3×"
echo "| \`doctor\` | ${doctor% *} s, ${doctor#* } KiB | | | ≤ 10 s |"
echo "| the fill (\`news-benchmark populate\`) | $fill s, $(cat "$work/fill-rss") KiB | | | |"
echo "| store on disk | $bytes bytes in $files files: $((bytes / count)) bytes an article | | | |"
