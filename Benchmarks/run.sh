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

echo "== 3. search and offline headlines over 10,000 stored articles" >&2
NEWS_RETENTION_MAX=20000 "$bin/news-benchmark" populate 10000 >&2
bench store -n "news --version" "$news --version" \
  -n "news search" "$news search climate policy --json" \
  -n "news headlines --offline" "$news headlines --offline --json"

echo "== 4. ChaCha20-Poly1305 throughput, 16 KiB messages" >&2
ours=$("$bin/news-benchmark" crypto 256 | awk '{print $1}')
theirs=$(openssl speed -evp chacha20-poly1305 -bytes 16384 -seconds 3 2>/dev/null \
  | awk 'tolower($1) ~ /^chacha20-poly1305/ {v=$NF; sub(/k$/, "", v); print v * 1000}')

echo "== 5. peak memory" >&2
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'; }
mem_headlines=$(peak "$news" headlines --json --refresh)
mem_feed=$(peak "$news" feed --json)
mem_search=$(peak "$news" search climate policy --json)
mem_offline=$(peak "$news" headlines --offline --json)
mem_version=$(peak "$news" --version)

cat <<TABLE
| benchmark | ours | baseline | ratio | target |
|---|---|---|---|---|
| \`news headlines --json --refresh\` vs \`curl \| jq\` | $(ms "$(mean headlines 1)") ms | $(ms "$(mean headlines 0)") ms | $(ratio "$(mean headlines 1)" "$(mean headlines 0)")× | ≤ 2× |
| \`news feed --json\` (warm cache) vs \`news --version\` | $(ms "$(mean feed 1)") ms | $(ms "$(mean feed 0)") ms | $(ratio "$(mean feed 1)" "$(mean feed 0)")× | ≤ 1.5× |
| \`news search\` over 10,000 articles | $(ms "$(mean store 1)") ms | $(ms "$(mean store 0)") ms (\`--version\`) | $(ratio "$(mean store 1)" "$(mean store 0)")× | < 100 ms |
| \`news headlines --offline\` with 10,000 stored | $(ms "$(mean store 2)") ms | $(ms "$(mean store 0)") ms (\`--version\`) | $(ratio "$(mean store 2)" "$(mean store 0)")× | |
| ChaCha20-Poly1305, 16 KiB messages | $(python3 -c "print(f'{$ours / 1e6:.0f}')") MB/s | $(python3 -c "print(f'{$theirs / 1e6:.0f}')") MB/s (openssl) | $(python3 -c "print(f'{100 * $ours / $theirs:.0f}')")% | ≥ 30% |
| peak memory (max RSS) | headlines $mem_headlines KiB · feed $mem_feed KiB · search $mem_search KiB · offline $mem_offline KiB | \`--version\` $mem_version KiB | | |
TABLE
