#!/usr/bin/env bash
# A hook that forks never holds `news sync` (#42.5): through the built binary, a newItem hook that
# leaves `sleep` running in the background for each of 10 items, and an afterSync hook that
# sleeps past NEWS_HOOK_TIMEOUT. Fails if the sync takes 10 s or more (NEWS_HOOK_TIMEOUT is 3 s;
# a sync that waited for the afterSync hook's 13 s, or the background sleeps' 301 s, would take
# longer; the 7 s between are start-up and the fetch of a debug build on a busy machine, not a
# margin the property needs), or leaves any of the hooks' processes behind.
#   bash Tests/Stress/hook-fork.sh [path/to/news]
set -uo pipefail
news=${1:-.build/debug/news}
news=$(cd "$(dirname "$news")" && pwd)/$(basename "$news")
work=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null; pkill -f "sleep 301.4242" 2>/dev/null; pkill -f "sleep 13.4242" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "hook-fork: $*"; exit 1; }

# The feed, empty at first: a source's first answer is what it held, no news (no hook runs).
feed() {
  python3 - "$work" "$1" <<'PY'
import sys
items = ''.join(f'<item><title>Story {i}</title><link>http://f.example/{i}</link></item>' for i in range(int(sys.argv[2])))
open(f'{sys.argv[1]}/feed.xml', 'w').write(f'<rss version="2.0"><channel><title>F</title>{items}</channel></rss>')
# Dated a minute on: the server's Last-Modified (whole seconds) differs from the first answer's.
import os, time
later = time.time() + 60 * int(sys.argv[2] != '0')
os.utime(f'{sys.argv[1]}/feed.xml', (later, later))
PY
}
feed 0
(cd "$work" && exec python3 -m http.server 0 --bind 127.0.0.1 > "$work/server.log" 2>&1) &
server=$!
for _ in $(seq 200); do grep -q "port" "$work/server.log" 2>/dev/null && break; sleep 0.05; done
port=$(grep -o 'port [0-9]*' "$work/server.log" | head -1 | cut -d' ' -f2)
[ -n "$port" ] || fail "the feed server did not start"
off='{"name": "a", "enabled": false}, {"name": "b", "enabled": false}, {"name": "c", "enabled": false}, {"name": "articles", "enabled": false}, {"name": "bbc", "enabled": false}, {"name": "newsapi", "enabled": false}'
echo "{\"sources\": [$off, {\"name\": \"f\", \"url\": \"http://127.0.0.1:$port/feed.xml\"}]}" \
  > "$work/config.json"
export NEWS_HOME="$work/home" NEWS_CONFIG="$work/config.json" NEWS_HOOK_TIMEOUT=3
NEWS_STORE_KEY=$(head -c 32 /dev/urandom | base64)
export NEWS_STORE_KEY
unset NEWSAPI_KEY
"$news" sync > /dev/null 2>&1 || fail "the first sync (the empty feed) failed"
feed 10
cat > "$work/config.json" <<JSON
{"sources": [$off, {"name": "f", "url": "http://127.0.0.1:$port/feed.xml"}],
 "hooks": {"newItem": "sleep 301.4242 & echo started >> $work/started",
           "afterSync": "sleep 13.4242; true"}}
JSON
start=$(date +%s.%N)
"$news" sync --refresh > "$work/out" 2> "$work/err"
code=$?
elapsed=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
echo "  sync: exit $code in $elapsed s (NEWS_HOOK_TIMEOUT=3); $(wc -l < "$work/started") newItem hooks ran"
[ "$code" = 0 ] || { cat "$work/err"; fail "sync exited $code"; }
[ "$(wc -l < "$work/started")" = 10 ] || fail "not every newItem hook ran"
grep -q "afterSync hook took longer than 3 s" "$work/err" || { cat "$work/err"; fail "the afterSync hook was not stopped"; }
python3 -c "import sys; sys.exit(0 if $elapsed < 10 else 1)" || fail "sync took $elapsed s: it waited for a hook past NEWS_HOOK_TIMEOUT (3 s)"
sleep 0.2
left=$(pgrep -f "sleep (301|13).4242" | wc -l)
[ "$left" = 0 ] || fail "$left of the hooks' processes outlived the sync"
echo "hook-fork: the sync ended without waiting for a hook past NEWS_HOOK_TIMEOUT and left no process behind"
