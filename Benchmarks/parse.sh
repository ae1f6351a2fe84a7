#!/usr/bin/env bash
# The feed reader's throughput (MB/s) against the XMLParser-based reader it replaced, on the same
# documents, in one run; then the new reader alone on the worst documents the audit and the
# fuzzer produced (400,000 attributes on one element, 100,000 nested elements, 1 MB of `&`).
# Usage: bash Benchmarks/parse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product news-benchmark >&2
tool="$(swift build -c release --show-bin-path)/news-benchmark"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
summary = "<p>" + "Words of a long summary, with <b>some</b> markup &amp; entities. " * 20 + "</p>"
with open(f"{work}/rss.xml", "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Big</title>\n')
    for i in range(5000):
        f.write(f'<item><title>Item {i} &amp; more</title><link>https://big.example/{i}</link>'
                f'<guid>https://big.example/{i}</guid><dc:creator>Writer {i % 7}</dc:creator>'
                f'<pubDate>Mon, 23 Nov 2026 08:00:00 GMT</pubDate>'
                f'<description><![CDATA[{summary}]]></description></item>\n')
    f.write('</channel></rss>\n')
with open(f"{work}/atom.xml", "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            '<title>Big</title><id>urn:big</id><updated>2026-11-23T08:00:00Z</updated>\n')
    for i in range(5000):
        f.write(f'<entry><title type="html">Entry {i} &amp;amp; more</title>'
                f'<link rel="alternate" type="text/html" href="https://big.example/{i}"/>'
                f'<id>urn:big:{i}</id><updated>2026-11-23T08:00:00Z</updated>'
                f'<author><name>Writer {i % 7}</name></author>'
                f'<summary type="html">{summary.replace("&", "&amp;").replace("<", "&lt;")}</summary></entry>\n')
    f.write('</feed>\n')
attributes = " ".join(f'a{i}="{i}"' for i in range(400000))
open(f"{work}/attributes.xml", "w").write(f'<rss><channel><item {attributes}><title>x</title></item></channel></rss>')
open(f"{work}/nested.xml", "w").write('<rss><channel><item><title>x</title>' + "<x>" * 100000 + "</x>" * 100000 + '</item></channel></rss>')
open(f"{work}/ampersands.xml", "w").write('<rss><channel><item><title>' + "&amp" * 250000 + '</title></item></channel></rss>')
PY
echo "== RSS 2.0, 5,000 items ($(du -h "$work/rss.xml" | cut -f1))"
"$tool" parse "$work/rss.xml"
echo "== Atom 1.0, 5,000 entries ($(du -h "$work/atom.xml" | cut -f1))"
"$tool" parse "$work/atom.xml"
for worst in attributes nested ampersands; do
  echo "== worst case: $worst ($(du -h "$work/$worst.xml" | cut -f1)), the new reader only"
  "$tool" parse --new-only "$work/$worst.xml"
done
