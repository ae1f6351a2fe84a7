#!/usr/bin/env bash
# Ten thousand feeds beside newsboat (#58.2): 10,000 RSS feeds of 20 items over 200 loopback
# hosts (127.0.0.1 … 127.0.0.200), each answering after its own 5 to 100 ms, with ETags
# (`hosts_server.py`). A cold `news feed --refresh` into an empty home, then the same refresh
# again (every answer 304), each under /usr/bin/time, and the home's files and bytes; then a
# cold `newsboat -x reload` (reload-threads 8) under /usr/bin/time, stopped after
# NEWSBOAT_LIMIT seconds (900 unless set; it is then said not to have finished, its CPU and
# memory what it had used by then). One run each: the newsboat run alone takes minutes.
# Needs newsboat and python3; installs nothing.
# Usage: bash Benchmarks/tenk.sh [feeds] [hosts]
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${1:-10000} hosts=${2:-200} limit=${NEWSBOAT_LIMIT:-900}
for tool in newsboat python3; do
  command -v "$tool" >/dev/null || { echo "tenk.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
python3 Benchmarks/hosts_server.py "$feeds" "$hosts" 20 5 100 0 >"$work/urls" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 300); do [ "$(wc -l <"$work/urls")" -ge "$feeds" ] && break; sleep 0.1; done
export NEWS_HOME="$work/news" NEWS_ANALYTICS=off NO_COLOR=1 NEWS_COUNTS=off
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
mkdir -p "$NEWS_HOME"
off=$(for name in a b c articles bbc; do printf '{"name": "%s", "enabled": false}, ' "$name"; done)
echo "{\"sources\": [${off%, }]}" >"$NEWS_HOME/config.json"
"$news" sources import "$work/urls" >/dev/null
# Wall, user and system seconds, and peak memory (KiB) of a command, its output left out.
timed() { /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" >/dev/null 2>&1 || true; tail -1 "$work/time"; }
echo "== news: cold, then unchanged" >&2
read -r cold_wall cold_user cold_sys cold_mem < <(timed "$news" feed --refresh)
read -r same_wall same_user same_sys same_mem < <(timed "$news" feed --refresh)
files=$(ls "$NEWS_HOME" | wc -l) bytes=$(du -sb "$NEWS_HOME" | cut -f1)
echo "== newsboat (at most $limit s)" >&2
echo "reload-threads 8" >"$work/newsboat.conf"
# Stopped from outside, so that /usr/bin/time still reaps it and says what it used.
(sleep "$limit"; pkill -KILL -x newsboat) &
stopper=$!
read -r boat_wall boat_user boat_sys boat_mem < <(timed \
  newsboat -u "$work/urls" -c "$work/cache.db" -C "$work/newsboat.conf" -x reload)
kill "$stopper" 2>/dev/null || true
finished=yes
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) - 1 else 1)" \
  "$boat_wall" "$limit" || finished="no, stopped at $limit s"
python3 - "$feeds" "$hosts" "$cold_wall" "$cold_user" "$cold_sys" "$cold_mem" "$same_wall" \
  "$same_user" "$same_sys" "$files" "$bytes" "$boat_wall" "$boat_user" "$boat_sys" "$boat_mem" \
  "$finished" <<'PY'
import sys
a = sys.argv[1:]
feeds, hosts = int(a[0]), int(a[1])
cw, cu, cs, cm, sw, su, ss = map(float, a[2:9])
files, size = int(a[9]), int(a[10])
bw, bu, bs, bm = map(float, a[11:15])
done = a[15]
print(f"| {feeds:,} feeds × 20 items over {hosts} hosts, 5–100 ms | news | newsboat 2.21 | ratio | target |")
print("|---|---|---|---|---|")
ratio = lambda a, b: f"{a/b:.2f}×" if b > 0 else "–"
print(f"| cold refresh, wall | {cw:.1f} s | {bw:.1f} s (finished: {done}) | {ratio(cw, bw)} | ≤ 0.25× |")
print(f"| cold refresh, CPU (user + sys) | {cu+cs:.1f} s | {bu+bs:.1f} s | {ratio(cu+cs, bu+bs)} | |")
print(f"| peak memory | {cm/1024:.0f} MB | {bm/1024:.0f} MB | {ratio(cm, bm)} | ≤ 0.8× |")
print(f"| unchanged refresh (every answer 304), CPU (wall) | {su+ss:.1f} s ({sw:.1f} s) | | {ratio(su+ss, cu+cs)} the cold one's | ≤ 0.2× |")
print(f"| the home after the refresh | {files} files, {size/1e6:.0f} MB ({size/(feeds*20):.0f} bytes an item) | | | |")
PY
