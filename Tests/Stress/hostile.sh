#!/usr/bin/env bash
# Hostile markup costs milliseconds (#42): pages written to hurt the HTML-to-text path, the tree
# builder, the article extractor and the extraction rules' selectors, each run once through
# `news-benchmark hostile` (the page extracted as `show --full` extracts it and made text, and
# the page as a feed item's HTML content made text). Passes when each stays within its CPU
# (user + system) and peak memory bounds, and no text is longer than the 1 MiB cap. A release
# build: the bounds are the product's, not a debug build's.
#   bash Tests/Stress/hostile.sh
# Then the nested-list feed item through the built `news` (feed --refresh, show): bounded too.
set -uo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product news-benchmark >/dev/null 2>&1 \
  || { swift build -c release --product news-benchmark; exit 1; }
tool="$(swift build -c release --show-bin-path)/news-benchmark"
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
failed=0

python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
intro = '<p>' + 'Words of an introduction, long enough to be an article. ' * 12 + '</p>'
pages = {
    'nested-lists': '<html><body><article>' + intro + '<ul><li>x' * 100000 + '</article></body></html>',
    'nested-quotes': '<html><body><article>' + intro + '<blockquote>q ' * 50000 + '</article></body></html>',
    'links': '<html><body><article>' + ''.join(
        f'<p>word <a href="https://e.example/{i}">l{i}</a> more words, here.</p>' for i in range(100000))
        + '</article></body></html>',
    'unclosed-div-p': '<html><body>' + '<div><p>x ' * 100000 + '</body></html>',
    'closed-divs': '<html><body>' + '<div>' * 100000 + 'text ' * 100 + '</div>' * 100000 + '</body></html>',
    'flat-divs': '<html><body>' + '<div>some words, here.</div>' * 100000 + '</body></html>',
    'table': '<html><body><table>' + ('<tr>' + '<td>c</td>' * 1000 + '</tr>') * 800 + '</table></body></html>',
    'pre-spaces': '<html><body><article>' + intro + '<pre>' + ' ' * (8 << 20) + '</pre></article></body></html>',
    'comments': '<html><body><article>' + 'word <!-- c --> ' * 100000 + '</article></body></html>',
    'nested-headers': '<html><body>' + '<header><h1>t</h1>' * 50000 + 'x</body></html>',
    'flat-headings': '<html><body><article>' + '<h2>t</h2>' * 100000 + 'x</article></body></html>',
    'nested-hidden': '<html><body>' + '<div class="byline" aria-hidden="true">' * 50000 + 'x</body></html>',
    'deep-divs': '<html><body>' + '<div>' * 200 + 'words of text, ' * 100 + '</div>' * 200 + '</body></html>',
    # 400 open elements, then 2.4 million stray tags (9.6 MB): each used to walk the stack.
    'deep-stray-ends': '<html><body>' + '<div>' * 400 + 'words ' * 100 + '</b>' * 2400000 + '</body></html>',
    'deep-stray-li': '<html><body>' + '<div>' * 400 + 'words ' * 100 + '<li>' * 2400000 + '</body></html>',
    # 250,000 elements in chains 390 deep, for the extraction rules' selectors (8 MB).
    'deep-chains': '<html><body>' + ('<div class="a b c"><section id="s"><p class="x">w</p>' + '<div class="c a">' * 388 + 'words ' + '</div>' * 388 + '</section></div>') * 640 + '</body></html>',
    'deep-stray-dd': '<html><body>' + '<div>' * 400 + 'words ' * 100 + '<dd>' * 2400000 + '</body></html>',
}
for name, page in pages.items():
    open(f'{work}/{name}.html', 'w').write(page)
PY

# name, extra arguments, CPU seconds, peak MB (for both paths of one page of at most 8.4 MB).
check() {
  local name=$1 seconds=$2 megabytes=$3
  shift 3
  local out
  out=$( { /usr/bin/time -f "%U %S %M" "$tool" hostile "$work/$name.html" "$@" > "$work/$name.out"; } 2>&1 | tail -1)
  read -r user system kilobytes <<< "$out"
  local cpu
  cpu=$(python3 -c "print(round($user + $system, 2))")
  local text
  text=$(cat "$work/$name.out")
  printf '  %-16s %5ss CPU %5s MB  %s\n' "$name" "$cpu" "$((kilobytes / 1024))" "$text"
  if python3 -c "import sys; sys.exit(0 if $cpu <= $seconds else 1)"; then :; else
    echo "hostile: $name took $cpu s of CPU (bound $seconds s)"; failed=1
  fi
  if [ "$((kilobytes / 1024))" -gt "$megabytes" ]; then
    echo "hostile: $name peaked at $((kilobytes / 1024)) MB (bound $megabytes MB)"; failed=1
  fi
  for bytes in $(echo "$text" | grep -o '[0-9]* bytes' | cut -d' ' -f1); do
    if [ "$bytes" -gt 1048576 ]; then echo "hostile: $name made $bytes bytes of text"; failed=1; fi
  done
}

echo "== hostile pages (extraction and text; bounds: CPU seconds, peak MB)"
# 4 s: the slowest of them (the 800,000-cell table) takes 2.5 s on an idle machine and was
# measured at 3.4 s on CI's busy one; a bound here catches a cost that grows faster than the
# page (these pages cost tens of seconds before #42), not a third more on a loaded machine.
for name in nested-lists nested-quotes links unclosed-div-p closed-divs flat-divs table \
  pre-spaces comments nested-headers flat-headings nested-hidden; do
  check "$name" 4 200
done
# 400 open elements and 2.4 million stray tags: linear (they cost 18-23 s when each tag walked
# the open elements); both paths of a 9.6 MB page.
for name in deep-stray-ends deep-stray-li deep-stray-dd; do
  check "$name" 5 200
done
# Extraction rules: a descendant chain that finds no `section` on a page 200 divs deep.
check deep-divs 1 100 --keep "section div div div div div"
# 22 alternatives of 15 steps (1,010 characters), as keep and drop, on 250,000 elements.
rule=$(python3 -c "print(', '.join(['.a ' * 14 + 'p' + str(i) for i in range(22)]))")
# (The page alone costs about 3 s of extraction passes; the rules add under one.)
check deep-chains 5 300 --keep "$rule" --drop "$rule"

# The nested list as a feed item, through the command line: fetched, stored, shown.
news=.build/release/news
[ -x "$news" ] || news=.build/debug/news
if [ -x "$news" ]; then
  echo "== a feed item of 10,000 nested lists through $news"
  python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
content = '<ul><li>x' * 10000
feed = ('<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>'
        '<title>H</title><item><title>Nested</title><link>http://h.example/1</link>'
        f'<content:encoded><![CDATA[{content}]]></content:encoded></item></channel></rss>')
open(f'{work}/feed.xml', 'w').write(feed)
PY
  home="$work/home"
  mkdir -p "$home"
  echo "{\"sources\": [{\"name\": \"a\", \"enabled\": false}, {\"name\": \"b\", \"enabled\": false}, {\"name\": \"c\", \"enabled\": false}, {\"name\": \"articles\", \"enabled\": false}, {\"name\": \"bbc\", \"enabled\": false}, {\"name\": \"h\", \"url\": \"file://$work/feed.xml\"}]}" > "$home/config.json"
  ( cd "$work" && python3 -m http.server 0 --bind 127.0.0.1 > "$work/server.log" 2>&1 & echo $! > "$work/server.pid" )
  for _ in $(seq 100); do grep -q "port" "$work/server.log" 2>/dev/null && break; sleep 0.05; done
  port=$(grep -o 'port [0-9]*' "$work/server.log" | head -1 | cut -d' ' -f2)
  sed -i "s#file://$work/feed.xml#http://127.0.0.1:$port/feed.xml#" "$home/config.json"
  export NEWS_HOME="$home" NEWS_CONFIG="$home/config.json" NEWS_STORE_KEY
  NEWS_STORE_KEY=$(head -c 32 /dev/urandom | base64)
  unset NEWSAPI_KEY
  out=$( { /usr/bin/time -f "%U %S %M" "$news" feed --refresh --source h > /dev/null; } 2>&1 | tail -1)
  read -r user system kilobytes <<< "$out"
  stored=$(du -sk "$home" | cut -f1)
  shown=$("$news" show 1 | wc -c)
  kill "$(cat "$work/server.pid")" 2>/dev/null
  echo "  feed --refresh: $user+$system s CPU, $((kilobytes / 1024)) MB; store ${stored} KB; show prints $shown bytes"
  [ "$stored" -le 20480 ] || { echo "hostile: the store holds $((stored / 1024)) MB"; failed=1; }
  [ "$shown" -le 2200000 ] || { echo "hostile: show printed $shown bytes"; failed=1; }
  [ "$((kilobytes / 1024))" -le 300 ] || { echo "hostile: feed --refresh peaked at $((kilobytes / 1024)) MB"; failed=1; }
fi
[ "$failed" = 0 ] && echo "hostile: every page within its bounds"
exit "$failed"
