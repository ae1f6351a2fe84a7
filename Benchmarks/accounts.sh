#!/usr/bin/env bash
# Sync of an account on a Google Reader API server against the local refresh of the same feeds,
# side by side in one run (issue #25): FEEDS feeds x ITEMS items, first (into an empty store) and
# incremental (nothing new: the account asks for items since its last sync; the local refresh
# gets 304 from every feed). Each home is copied fresh before each first run.
# Needs hyperfine (Debian's package) and python3. Usage: bash Benchmarks/accounts.sh [feeds] [items]
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${1:-200}
items=${2:-50}
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
python3 Benchmarks/greader_server.py "$feeds" "$items" >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
export NEWS_ANALYTICS=off NO_COLOR=1 NEWS_RETENTION_MAX=200000 BENCH_PASSWORD=p
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
export NEWS_FEED_A_URL="$base/a.json" NEWS_FEED_B_URL="$base/b.json" NEWS_FEED_C_URL="$base/c.json"
for n in $(seq 0 $((feeds - 1))); do echo "$base/feeds/$n.xml"; done >"$work/urls"
NEWS_HOME="$work/local0" "$news" sources import "$work/urls" >/dev/null
NEWS_HOME="$work/account0" "$news" accounts add bench --greader "$base/api/greader.php" \
  --user u --password-env BENCH_PASSWORD >/dev/null

hyperfine --style basic --warmup 1 --runs 5 --export-json "$work/first.json" \
  --prepare "rm -rf $work/local && cp -r $work/local0 $work/local" \
  -n "local refresh (cold)" "env NEWS_HOME=$work/local $news feed --refresh" \
  --prepare "rm -rf $work/account && cp -r $work/account0 $work/account" \
  -n "account sync (first)" "env NEWS_HOME=$work/account $news sync --account bench" >&2
hyperfine --style basic --warmup 1 --runs 10 --export-json "$work/next.json" \
  -n "local refresh (all 304)" "env NEWS_HOME=$work/local $news feed --refresh" \
  -n "account sync (incremental)" "env NEWS_HOME=$work/account $news sync --account bench" >&2
python3 - "$work/first.json" "$work/next.json" "$feeds" "$items" <<'PY'
import json, sys
first, nxt = (json.load(open(p))["results"] for p in sys.argv[1:3])
def ms(r): return r["mean"] * 1000
print(f"| {sys.argv[3]} feeds x {sys.argv[4]} items | account sync | local refresh | ratio |")
print("|---|---|---|---|")
print(f"| first (empty store) | {ms(first[1]):.0f} ms | {ms(first[0]):.0f} ms | {first[1]['mean'] / first[0]['mean']:.2f}x |")
print(f"| incremental (nothing new) | {ms(nxt[1]):.0f} ms | {ms(nxt[0]):.0f} ms | {nxt[1]['mean'] / nxt[0]['mean']:.2f}x |")
PY
