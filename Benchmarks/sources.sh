#!/usr/bin/env bash
# Reading at ten thousand sources (#58.2): a home of 10,000 feeds × 20 items and one of 100
# (`feed_server.py`, `sources import`, one `feed --refresh` each), then `--version` (which reads
# config.json), `sources` (as text and with `--json`), `search report --limit 20` and
# `feed --offline --json` in both, side by side in one hyperfine run each; the table gives each
# command at 10,000 against the same at 100, and against `--version` of its own home.
# Needs hyperfine, python3 and jq; installs nothing.
# Usage: bash Benchmarks/sources.sh [--quick] [feeds]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=(--warmup 1 --runs 10)
if [ "${1:-}" = "--quick" ]; then runs=(--warmup 1 --runs 3); shift; fi
feeds=${1:-10000}
for tool in hyperfine python3 jq; do
  command -v "$tool" >/dev/null || { echo "sources.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
servers=()
trap 'kill "${servers[@]}" 2>/dev/null; rm -rf "$work"' EXIT
export NEWS_ANALYTICS=off NO_COLOR=1 NEWS_COUNTS=off NEWS_RETENTION_MAX=0
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
off=$(for name in a b c articles bbc; do printf '{"name": "%s", "enabled": false}, ' "$name"; done)
for count in 100 "$feeds"; do
  home="$work/h$count"
  mkdir -p "$home"
  python3 Benchmarks/feed_server.py "$count" 20 0 >"$home.port" &
  servers+=($!)
  for _ in $(seq 50); do [ -s "$home.port" ] && break; sleep 0.1; done
  base="http://127.0.0.1:$(head -1 "$home.port")"
  for n in $(seq 0 $((count - 1))); do echo "$base/feeds/$n.xml"; done >"$home.urls"
  echo "{\"sources\": [${off%, }]}" >"$home/config.json"
  echo "== $count feeds: import and one refresh" >&2
  NEWS_HOME="$home" "$news" sources import "$home.urls" >/dev/null
  NEWS_HOME="$home" "$news" feed --refresh >/dev/null
done

source Benchmarks/ratios.sh
commands=("--version" "sources" "sources --json" "search report --limit 20 --json" "feed --offline --json")
for count in 100 "$feeds"; do
  arguments=()
  # Named `news …`: hyperfine would take a name starting with `--` for an option of its own.
  for command in "${commands[@]}"; do arguments+=(-n "news $command" "$(at "h$count" $command)"); done
  bench "h$count" "${arguments[@]}"
done
echo
echo "| command | at $feeds sources | at 100 | ratio | at $feeds against its \`--version\` | at 100 against its \`--version\` |"
echo "|---|---|---|---|---|---|"
for index in "${!commands[@]}"; do
  python3 -c "
import sys
big, small, big_version, small_version = map(float, sys.argv[2:6])
print(f'| \`{sys.argv[1]}\` | {big*1000:.1f} ms | {small*1000:.1f} ms | {big/small:.2f}× | {big/big_version:.2f}× | {small/small_version:.2f}× |')
" "${commands[$index]}" "$(mean "h$feeds" "$index")" "$(mean h100 "$index")" \
    "$(mean "h$feeds" 0)" "$(mean h100 0)"
done
