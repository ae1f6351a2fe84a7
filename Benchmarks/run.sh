#!/usr/bin/env bash
# Benchmarks for news, measured side by side in one run and reported as ratios against a baseline.
# Needs hyperfine, curl, jq, openssl, python3 and GNU time (/usr/bin/time); it installs nothing:
#   apt-get install hyperfine curl jq openssl python3 time
# Usage: bash Benchmarks/run.sh [--quick]    (--quick: fewer runs, for a smoke test)
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for tool in hyperfine curl jq openssl python3 swift; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -x /usr/bin/time ] || missing+=("time (GNU time, /usr/bin/time)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "missing: ${missing[*]}; install them (Debian: apt-get install hyperfine curl jq openssl python3 time)" >&2
  exit 1
fi

runs=(--warmup 3 --min-runs 20)
[ "${1:-}" = "--quick" ] && runs=(--warmup 1 --runs 5)

echo "== building release binaries" >&2
swift build -c release --product news >&2
swift build -c release --product news-benchmark >&2
bin=$(swift build -c release --show-bin-path)
news="$bin/news"

work=$(mktemp -d)
server_log="$work/server.out"
python3 Benchmarks/server.py > "$server_log" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$server_log" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$server_log")"

export NEWSAPI_KEY=benchmark-key NEWSAPI_URL="$base" NEWS_ANALYTICS=off NO_COLOR=1
export NEWS_FEED_A_URL="$base/feed/a.json" NEWS_FEED_B_URL="$base/feed/b.json"
export NEWS_FEED_C_URL="$base/feed/c.json"
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
export NEWS_HOME="$work/home"

json="$work/json"
mkdir -p "$json"
bench() {  # name, then hyperfine arguments; leaves the mean of each command in $json/name.json
  local name=$1
  shift
  hyperfine -N "${runs[@]}" --export-json "$json/$name.json" "$@" >&2
}
mean() { jq -r ".results[$2].mean" "$json/$1.json"; }
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
ms() { python3 -c "print(f'{$1 * 1000:.1f}')"; }

echo "== 1. headlines from the network vs curl | jq" >&2
curl -s -H "X-Api-Key: benchmark-key" "$base/v2/top-headlines?country=us" > /dev/null
bench headlines \
  -n "curl | jq" "bash -c 'curl -s -H \"X-Api-Key: benchmark-key\" \"$base/v2/top-headlines?country=us\" | jq -r \".articles[].title\"'" \
  -n "news headlines" "$news headlines --json --refresh"

echo "== 2. feed on a warm cache vs news --version" >&2
"$news" feed --json > /dev/null
bench feed -n "news --version" "$news --version" -n "news feed (warm)" "$news feed --json"

echo "== 3. the store at 10,000 and 100,000 articles" >&2
# Three homes: empty, 10,000 and 100,000 stored (one provider; retention raised to keep them).
export NEWS_RETENTION_MAX=200000
for count in 0 10000 100000; do
  mkdir -p "$work/store-$count"
  [ "$count" -gt 0 ] && NEWS_HOME="$work/store-$count" "$bin/news-benchmark" populate "$count" >&2
  NEWS_HOME="$work/store-$count" "$news" headlines --json --refresh > /dev/null
done
at() { echo "env NEWS_HOME=$work/store-$1 $news ${*:2}"; }
# Every command through env, so that the baseline pays for it too.
bench write -n "empty" "$(at 0 headlines --json --refresh)" \
  -n "10,000" "$(at 10000 headlines --json --refresh)" \
  -n "100,000" "$(at 100000 headlines --json --refresh)"
NEWS_HOME="$work/store-100000" "$news" headlines --offline --json > /dev/null
bench read -n "news --version" "$(at 100000 --version)" \
  -n "headlines --offline" "$(at 100000 headlines --offline --json)" \
  -n "show 3 --offline" "$(at 100000 show 3 --offline --json)" \
  -n "bookmarks" "$(at 100000 bookmarks --json)" \
  -n "search story 4242" "$(at 100000 search story 4242 --json)" \
  -n "search climate policy" "$(at 100000 search climate policy --json)" \
  -n "search at 10,000" "$(at 10000 search story 4242 --json)"
broad=$(NEWS_HOME="$work/store-100000" "$news" search climate policy --json | jq '.articles | length')

echo "== 4. ChaCha20-Poly1305 throughput, 16 KiB messages" >&2
ours=$("$bin/news-benchmark" crypto 256 | awk '{print $1}')
theirs=$(openssl speed -evp chacha20-poly1305 -bytes 16384 -seconds 3 2>/dev/null \
  | awk 'tolower($1) ~ /^chacha20-poly1305/ {v=$NF; sub(/k$/, "", v); print v * 1000}')

echo "== 5. peak memory" >&2
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'; }
mem_headlines=$(peak "$news" headlines --json --refresh)
mem_feed=$(peak "$news" feed --json)
mem_version=$(peak "$news" --version)
export NEWS_HOME="$work/store-100000"
mem_offline=$(peak "$news" headlines --offline --json)
mem_show=$(peak "$news" show 3 --offline --json)
mem_search=$(peak "$news" search story 4242 --json)
mem_write=$(peak "$news" headlines --json --refresh)
export NEWS_HOME="$work/store-0"
mem_offline0=$(peak "$news" headlines --offline --json)
mem_show0=$(peak "$news" show 3 --offline --json)

cat <<TABLE
| benchmark | ours | baseline | ratio | target |
|---|---|---|---|---|
| \`news headlines --json --refresh\` vs \`curl \| jq\` | $(ms "$(mean headlines 1)") ms | $(ms "$(mean headlines 0)") ms | $(ratio "$(mean headlines 1)" "$(mean headlines 0)")× | ≤ 2× |
| \`news feed --json\` (warm cache) vs \`news --version\` | $(ms "$(mean feed 1)") ms | $(ms "$(mean feed 0)") ms | $(ratio "$(mean feed 1)" "$(mean feed 0)")× | ≤ 1.5× |
| \`news headlines --refresh\` (20 articles) with 10,000 stored vs none | $(ms "$(mean write 1)") ms | $(ms "$(mean write 0)") ms | $(ratio "$(mean write 1)" "$(mean write 0)")× | ≤ 1.3× |
| \`news headlines --refresh\` (20 articles) with 100,000 stored vs none | $(ms "$(mean write 2)") ms | $(ms "$(mean write 0)") ms | $(ratio "$(mean write 2)" "$(mean write 0)")× | ≤ 1.3× |
| \`news headlines --offline\` at 100,000 vs \`--version\` | $(ms "$(mean read 1)") ms | $(ms "$(mean read 0)") ms | $(ratio "$(mean read 1)" "$(mean read 0)")× | ≤ 1.5× |
| \`news show 3 --offline\` at 100,000 vs \`--version\` | $(ms "$(mean read 2)") ms | $(ms "$(mean read 0)") ms | $(ratio "$(mean read 2)" "$(mean read 0)")× | ≤ 1.5× |
| \`news bookmarks\` at 100,000 vs \`--version\` | $(ms "$(mean read 3)") ms | $(ms "$(mean read 0)") ms | $(ratio "$(mean read 3)" "$(mean read 0)")× | ≤ 1.5× |
| \`news search story 4242\` at 100,000 vs \`--version\` | $(ms "$(mean read 4)") ms | $(ms "$(mean read 0)") ms | $(ratio "$(mean read 4)" "$(mean read 0)")× | ≤ 3× |
| \`news search story 4242\` at 10,000 vs \`--version\` | $(ms "$(mean read 6)") ms | $(ms "$(mean read 0)") ms | $(ratio "$(mean read 6)" "$(mean read 0)")× | ≤ 3× |
| \`news search climate policy\` at 100,000 ($broad found, all printed) vs \`--version\` | $(ms "$(mean read 5)") ms | $(ms "$(mean read 0)") ms | $(ratio "$(mean read 5)" "$(mean read 0)")× | ≤ 3× |
| ChaCha20-Poly1305, 16 KiB messages | $(python3 -c "print(f'{$ours / 1e6:.0f}')") MB/s | $(python3 -c "print(f'{$theirs / 1e6:.0f}')") MB/s (openssl) | $(python3 -c "print(f'{100 * $ours / $theirs:.0f}')")% | ≥ 35% |
| ChaCha20-Poly1305, 16 KiB messages (absolute) | $(python3 -c "print(f'{$ours / 1e6:.0f}')") MB/s | 1000 MB/s | $(python3 -c "print(f'{$ours / 1e9:.2f}')")× | ≥ 1× |
| peak memory (max RSS), network | headlines $mem_headlines KiB · feed $mem_feed KiB | \`--version\` $mem_version KiB | | |
| peak memory at 100,000 stored vs none | offline $mem_offline KiB · show $mem_show KiB · search $mem_search KiB · write $mem_write KiB | offline $mem_offline0 KiB · show $mem_show0 KiB | $(python3 -c "print(f'{$mem_offline / $mem_offline0:.2f}')")× (offline) | flat (≈ 1×) |
TABLE
