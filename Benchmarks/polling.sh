#!/usr/bin/env bash
# Ask only what is due (#58.3): the requests a day of 96 `news sync`s (one every 15 minutes)
# send to FEEDS feeds of mixed posting rates (Benchmarks/polling_server.py: every 10 minutes to
# silent for half a year), before and after in one run:
#   before: every source asked every sync (NEWS_REFRESH_MIN = NEWS_REFRESH_MAX = 900 s, the
#           15-minute TTL of earlier versions);
#   after:  the defaults (each source as often as it posts, 15 minutes to a day).
# The day is simulated: each sync runs under faketime at its time of day, and the server dates
# each feed's posts by the same clock, so a feed's answer changes only when it has posted.
# Needs faketime, python3, jq (apt-get install faketime python3 jq). Usage:
#   FEEDS=10000 bash Benchmarks/polling.sh      (default 1000 feeds; NEWS_BIN=<a news> skips
#                                                the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${FEEDS:-1000}
for tool in faketime python3 jq; do
  command -v "$tool" >/dev/null || { echo "polling.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
if [ -n "${NEWS_BIN:-}" ]; then
  news=$NEWS_BIN
else
  swift build -c release --product news >&2
  news="$(swift build -c release --show-bin-path)/news"
fi
work=$(mktemp -d)
server=""
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
export NEWS_ANALYTICS=off NO_COLOR=1 TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1
export NEWS_STORE_KEY=${NEWS_STORE_KEY:-$(head -c32 /dev/urandom | base64)}
start=$(date -u -d '2026-12-01 00:00:00' +%s)
echo "$start" >"$work/now"
python3 Benchmarks/polling_server.py "$feeds" "$work/now" >"$work/port" &
server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
for n in $(seq 0 $((feeds - 1))); do echo "$base/feeds/$n.xml"; done >"$work/urls"

# at <seconds since 1970> <command…>: the command at that simulated time.
at() {
  local when=$1
  shift
  echo "$when" >"$work/now"
  faketime -f "@$(date -u -d "@$when" '+%Y-%m-%d %H:%M:%S')" "$@"
}

# day <label> <environment…>: a home subscribed to every feed, synced once at midnight, then 96
# syncs 15 minutes apart; prints the day's requests as JSON.
day() {
  local label=$1
  shift
  local home="$work/home-$label"
  mkdir -p "$home"
  local off
  off=$(for name in a b c articles bbc; do printf '{"name": "%s", "enabled": false}, ' "$name"; done)
  echo "{\"sources\": [${off%, }]}" >"$home/config.json"
  env NEWS_HOME="$home" "$@" "$news" sources import "$work/urls" >/dev/null
  at "$start" env NEWS_HOME="$home" "$@" "$news" sync --quiet >/dev/null 2>"$work/errors" || true
  curl -s "$base/reset" >/dev/null
  for step in $(seq 1 96); do
    at $((start + step * 900)) env NEWS_HOME="$home" "$@" "$news" sync --quiet >/dev/null \
      2>>"$work/errors" || true
  done
  curl -s "$base/stats"
}

before=$(day before NEWS_REFRESH_MIN=900 NEWS_REFRESH_MAX=900)
after=$(day after)
if [ -s "$work/errors" ]; then
  echo "some syncs warned (first lines):" >&2
  head -5 "$work/errors" >&2
fi
echo "$feeds feeds, 96 syncs a day (one every 15 minutes), requests after the first sync:"
printf '%-8s %10s %10s\n' "" before after
for class in "10 min" hourly "6 h" daily weekly silent; do
  printf '%-8s %10s %10s\n' "$class" \
    "$(jq -r --arg c "$class" '.classes[$c] // 0' <<<"$before")" \
    "$(jq -r --arg c "$class" '.classes[$c] // 0' <<<"$after")"
done
printf '%-8s %10s %10s\n' all "$(jq .requests <<<"$before")" "$(jq .requests <<<"$after")"
printf '%-8s %10s %10s\n' "304s" "$(jq .not_modified <<<"$before")" "$(jq .not_modified <<<"$after")"
jq -rn --argjson b "$before" --argjson a "$after" \
  '"after / before: \(($a.requests / $b.requests * 1000 | round) / 1000)×"'
