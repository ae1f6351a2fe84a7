#!/usr/bin/env bash
# Lean at every arrival rate (#48), every ratio measured side by side in one run:
#  1. 1,000 feeds x 50 items on one loopback host answering at once (Benchmarks/feed_server.py,
#     no delay): CPU (user + sys) and peak memory (max RSS) of a cold `news feed --refresh` and
#     `news sync` against `newsboat -x reload` (reload-threads 8), the median of each;
#  2. the CPU an item at 1,000 feeds against at 100 (the same server, the same commands);
#  3. at a million stored articles, all read: `headlines --offline` and `search --limit 20`
#     against `news --version` (hyperfine), when a million home is given or made;
#  4. the article extractor on a 100 KB page beside the feed reader's MB/s (Benchmarks/extract.sh).
# With --profile, `perf record` of one cold `feed --refresh` at 1,000 feeds, summed by stage.
# Needs hyperfine, newsboat, python3, jq, GNU time (and perf for --profile); installs nothing:
#   apt-get install hyperfine newsboat python3 jq time linux-perf
# Usage: bash Benchmarks/lean.sh [--quick] [--profile] [--million <home made by populate>|--fill]
#   --fill makes the million home first (news-benchmark populate 1000000: minutes, 1.5 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 profile=0 million="" fill=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) runs=1 ;;
    --profile) profile=1 ;;
    --million) million=$2; shift ;;
    --fill) fill=1 ;;
    *) echo "usage: lean.sh [--quick] [--profile] [--million <home>|--fill]" >&2; exit 64 ;;
  esac
  shift
done
for tool in hyperfine newsboat python3 jq; do
  command -v "$tool" >/dev/null || { echo "lean.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "lean.sh needs GNU time (apt-get install time)" >&2; exit 1; }
swift build -c release --product news >&2
swift build -c release --product news-benchmark >&2
bin="$(swift build -c release --show-bin-path)"
news="$bin/news"
work=$(mktemp -d)
servers=()
trap 'kill "${servers[@]}" 2>/dev/null; rm -rf "$work"' EXIT
export NEWS_ANALYTICS=off NO_COLOR=1 NEWS_COUNTS=off
export NEWS_STORE_KEY=${NEWS_STORE_KEY:-$(head -c32 /dev/urandom | base64)}

# serve <feeds>: a feed server of <feeds> x 50 items answering at once; its base URL in $base.
serve() {
  python3 Benchmarks/feed_server.py "$1" 50 0 >"$work/port-$1" &
  servers+=($!)
  for _ in $(seq 100); do [ -s "$work/port-$1" ] && break; sleep 0.1; done
  base="http://127.0.0.1:$(head -1 "$work/port-$1")"
}
# home <feeds>: a news home and a newsboat url file subscribed to the server's <feeds> feeds.
home() {
  local dir="$work/home-$1"
  mkdir -p "$dir"
  local off
  off=$(for name in a b c articles bbc; do printf '{"name": "%s", "enabled": false}, ' "$name"; done)
  echo "{\"sources\": [${off%, }]}" >"$dir/config.json"
  for n in $(seq 0 $(($1 - 1))); do echo "$base/feeds/$n.xml"; done >"$work/urls-$1"
  NEWS_HOME="$dir" "$news" sources import "$work/urls-$1" >/dev/null
}
echo "reload-threads 8" >"$work/newsboat.conf"
# measure <feeds> <label> <command…>: user+sys seconds and max RSS KiB of a cold run, the median
# of $runs (the store and newsboat's cache removed before each).
measure() {
  local feeds=$1 label=$2
  shift 2
  for _ in $(seq "$runs"); do
    rm -f "$work/home-$feeds"/*.enc "$work/cache-$feeds.db"
    { NEWS_HOME="$work/home-$feeds" /usr/bin/time -f "%U %S %M" "$@" >/dev/null 2>"$work/err" || true; }
    tail -1 "$work/err"
  done | python3 -c "
import sys, statistics
rows = [list(map(float, line.split())) for line in sys.stdin if line.strip()]
print(round(statistics.median(u + s for u, s, _ in rows), 2), statistics.median(m for _, _, m in rows))
" >"$work/m-$feeds-$label"
}
cpu() { cut -d' ' -f1 "$work/m-$1-$2"; }
rss() { cut -d' ' -f2 "$work/m-$1-$2"; }
boat() { echo newsboat -u "$work/urls-$1" -c "$work/cache-$1.db" -C "$work/newsboat.conf" -x reload; }

for feeds in 100 1000; do
  echo "== $feeds feeds x 50 items, one host, answering at once ($runs runs each)" >&2
  serve "$feeds"
  home "$feeds"
  measure "$feeds" refresh "$news" feed --refresh
  measure "$feeds" sync "$news" sync --quiet
  measure "$feeds" boat $(boat "$feeds")
done

if [ "$profile" = 1 ]; then
  command -v perf >/dev/null || { echo "--profile needs perf (apt-get install linux-perf)" >&2; exit 1; }
  rm -f "$work/home-1000"/*.enc
  NEWS_HOME="$work/home-1000" perf record -q -g -o "$work/perf.data" "$news" feed --refresh >/dev/null 2>&1
  echo
  perf report -i "$work/perf.data" --children --sort symbol --stdio 2>/dev/null \
    | python3 Benchmarks/stages.py
fi

ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$1" "$2"; }
us() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]) * 1e6:.0f}')" "$1" "$2"; }
mb() { python3 -c "import sys; print(f'{float(sys.argv[1]) / 1024:.0f}')" "$1"; }
echo
echo "| 1,000 feeds × 50 items, one host, at once | news | newsboat | ratio | target |"
echo "|---|---|---|---|---|"
echo "| CPU, \`feed --refresh\` | $(cpu 1000 refresh) s | $(cpu 1000 boat) s | $(ratio "$(cpu 1000 refresh)" "$(cpu 1000 boat)")× | ≤ 0.15× |"
echo "| CPU, \`sync\` | $(cpu 1000 sync) s | $(cpu 1000 boat) s | $(ratio "$(cpu 1000 sync)" "$(cpu 1000 boat)")× | ≤ 0.15× |"
echo "| peak memory, \`feed --refresh\` | $(mb "$(rss 1000 refresh)") MB | $(mb "$(rss 1000 boat)") MB | $(ratio "$(rss 1000 refresh)" "$(rss 1000 boat)")× | ≤ 0.9× |"
echo "| peak memory, \`sync\` | $(mb "$(rss 1000 sync)") MB | $(mb "$(rss 1000 boat)") MB | $(ratio "$(rss 1000 sync)" "$(rss 1000 boat)")× | ≤ 0.9× |"
echo "| CPU an item, \`feed --refresh\`, 1,000 feeds vs 100 | $(us "$(cpu 1000 refresh)" 50000) µs | $(us "$(cpu 100 refresh)" 5000) µs (100) | $(ratio "$(cpu 1000 refresh)" "$(python3 -c "print($(cpu 100 refresh) * 10)")")× | ≤ 1.2× |"

if [ "$fill" = 1 ] && [ -z "$million" ]; then
  million="$work/million"
  echo "== filling 1,000,000 articles" >&2
  NEWS_HOME="$million" NEWS_RETENTION_MAX=0 NEWS_RETENTION_DAYS=0 "$bin/news-benchmark" populate 1000000 >&2
fi
if [ -n "$million" ]; then
  export NEWS_RETENTION_MAX=0 NEWS_RETENTION_DAYS=0
  # All read, as the issue measures it (a second run finds them read already).
  NEWS_HOME="$million" "$news" read --all >/dev/null
  NEWS_HOME="$million" "$news" headlines --offline >/dev/null
  hyperfine -N --warmup 2 --runs $((runs * 5)) --export-json "$work/million.json" \
    -n "news --version" "env NEWS_HOME=$million $news --version" \
    -n "headlines --offline" "env NEWS_HOME=$million $news headlines --offline" \
    -n "search --limit 20" "env NEWS_HOME=$million $news search climate --limit 20" >&2
  mean() { jq -r ".results[$1].mean" "$work/million.json"; }
  ms() { python3 -c "import sys; print(f'{float(sys.argv[1]) * 1000:.1f}')" "$1"; }
  echo
  echo "| 1,000,000 stored, all read | ours | \`news --version\` | ratio | target |"
  echo "|---|---|---|---|---|"
  echo "| \`headlines --offline\` | $(ms "$(mean 1)") ms | $(ms "$(mean 0)") ms | $(ratio "$(mean 1)" "$(mean 0)")× | ≤ 1.3× |"
  echo "| \`search climate --limit 20\` | $(ms "$(mean 2)") ms | $(ms "$(mean 0)") ms | $(ratio "$(mean 2)" "$(mean 0)")× | ≤ 1.5× |"
fi
echo
bash Benchmarks/extract.sh
