#!/usr/bin/env bash
# Readers and writers of one store at once (#22): 4 writers refresh feeds whose every save compacts
# (NEWS_RETENTION_MAX below the feed's size), while 4 readers read, show, bookmark, search and list
# offline. Passes when no command exits 70 (an internal error) and `news doctor` finds the store
# healthy afterwards. Against a loopback server only; bounded in time.
#   bash Tests/Stress/concurrency.sh [path/to/news] [seconds]
set -uo pipefail
news=${1:-.build/debug/news}
seconds=${2:-15}
news=$(cd "$(dirname "$news")" && pwd)/$(basename "$news")
work=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/feeds" "$work/home"
python3 - "$work/feeds" <<'PY'
import sys
for f in range(2):
    with open(f"{sys.argv[1]}/f{f}.xml", "w") as out:
        out.write('<rss version="2.0"><channel><title>Stress</title>')
        for i in range(400):
            out.write(f'<item><title>Story {f}-{i}</title><link>http://s.example/{f}/{i}</link>'
                      f'<description>climate policy {i}</description></item>')
        out.write('</channel></rss>')
PY
(cd "$work/feeds" && exec python3 -m http.server 0 --bind 127.0.0.1) > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q 'port [0-9]*' "$work/server.log" && break; sleep 0.1; done
port=$(grep -o 'port [0-9]*' "$work/server.log" | head -1 | cut -d' ' -f2)
base="http://127.0.0.1:$port"
export NEWS_HOME="$work/home" NEWS_ANALYTICS=off NEWS_RETENTION_MAX=300 NO_COLOR=1
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64) NEWS_CONFIG="$work/config.json"
export NEWS_FEED_A_URL="$base/f0.xml" NEWS_FEED_B_URL="$base/f1.xml" NEWS_FEED_C_URL="$base/f1.xml"
echo "{\"sources\":[{\"name\":\"w0\",\"url\":\"$base/f0.xml\"},{\"name\":\"w1\",\"url\":\"$base/f1.xml\"}]}" > "$NEWS_CONFIG"
"$news" feed --refresh --source w0,w1 > /dev/null || { echo "stress: the first fetch failed"; exit 1; }

: > "$work/internal"
end=$((SECONDS + seconds))
writer() {
  local runs=0
  while [ $SECONDS -lt $end ]; do
    "$news" feed --refresh --source w0,w1 > /dev/null 2>> "$work/errors"
    [ $? = 70 ] && echo "feed --refresh" >> "$work/internal"
    runs=$((runs + 1))
  done
  echo $runs >> "$work/runs"
}
reader() {
  local runs=0
  while [ $SECONDS -lt $end ]; do
    for command in "read s.example-0-5" "show s.example-1-7 --offline" "bookmark s.example-0-9" \
      "search climate --limit 5" "feed --offline --source w0" "unread s.example-0-5"; do
      # shellcheck disable=SC2086
      "$news" $command > /dev/null 2>> "$work/errors"
      [ $? = 70 ] && echo "$command" >> "$work/internal"
      runs=$((runs + 1))
    done
  done
  echo $runs >> "$work/runs"
}
# doctor beside the writers (#31): a segment a compaction just made or retired is never reported
# missing, so every run exits 0.
: > "$work/doctors"
doctorer() {
  local runs=0
  while [ $SECONDS -lt $end ]; do
    "$news" doctor > "$work/doctor-run" 2>&1
    code=$?
    [ $code != 0 ] && { echo "doctor exit $code"; grep -B1 -A1 FAILED "$work/doctor-run"; } >> "$work/doctors"
    runs=$((runs + 1))
  done
  echo $runs >> "$work/runs"
}
pids=()
for _ in 1 2 3 4; do writer & pids+=($!); done
doctorer & pids+=($!)
for _ in 1 2 3 4; do reader & pids+=($!); done
wait "${pids[@]}"
runs=$(awk "{ total += \$1 } END { print total }" "$work/runs")
internal=$(wc -l < "$work/internal" 2>/dev/null || echo 0)
doctors=$(grep -c "^doctor exit" "$work/doctors" 2>/dev/null || true)
"$news" doctor > "$work/doctor" 2>&1
doctor=$?
echo "stress: $runs commands in ${seconds}s, $internal internal errors (exit 70), $doctors failed doctor runs beside the writers, doctor exit $doctor"
[ -s "$work/errors" ] && sort "$work/errors" | uniq -c | sort -rn | head -5
if [ "$internal" -gt 0 ] || [ "$doctor" -ne 0 ] || [ "${doctors:-0}" -gt 0 ]; then
  cat "$work/internal" "$work/doctors" "$work/doctor" 2>/dev/null | head -20
  echo "stress: 0 passed, 1 failed"
  exit 1
fi
echo "stress: 1 passed, 0 failed"
