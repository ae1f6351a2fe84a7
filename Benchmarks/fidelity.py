#!/usr/bin/env python3
"""Feed fidelity against feedparser, on feedparser's own test corpus.

    python3 Benchmarks/fidelity.py <feedparser source directory> [--show links|titles|text|dates]

The corpus is feedparser's sdist (`pip download --no-binary :all: --no-deps feedparser`, then
unpack it): its tests/wellformed, tests/illformed and tests/encoding documents (those served with
HTTP headers of their own left out), each read by feedparser (the
oracle, `pip install feedparser`) and by `news-benchmark entries` (built with `swift build -c
release --product news-benchmark`), both as served from http://127.0.0.1:8097/<its path>, as
feedparser's own tests serve them. Per field, the share of entries on which the two agree: items
(the same number of entries a document), links, titles, dates (the same second) and text (the
same words, markup and entities aside). `--show` prints the entries that differ on one field.
The corpus stays out of the repository; this script and its table in Benchmarks/README.md are
what is kept.
"""

import calendar
import html
import json
import os
import re
import subprocess
import sys

import feedparser

BASE = "http://127.0.0.1:8097/"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.environ.get("NEWS_BENCHMARK", os.path.join(REPOSITORY, ".build/release/news-benchmark"))
# Served with HTTP headers of their own (redirects, compression, a charset or language said by
# the server): not a document's reading alone. Each names its headers in its opening comment.
SKIPPED = ("tests/wellformed/http/", "tests/illformed/http/")


def served_with_headers(path):
    with open(path, "rb") as f:
        return b"Header:" in f.read(2048)


def words(text, markup=False):
    """The words of plain text, or of HTML (`markup`) with its tags and entities read, case
    folded."""
    if not text:
        return []
    if markup:
        text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    return re.findall(r"\w+", text.casefold())


def is_markup(detail):
    return (detail or {}).get("type") in ("text/html", "application/xhtml+xml")


def oracle(path):
    with open(path, "rb") as f:
        data = f.read()
    parsed = feedparser.parse(data, response_headers={"content-location": BASE + path})
    entries = []
    for entry in parsed.entries:
        # feedparser's text is markup when its type says HTML or XHTML.
        text, detail = entry.get("summary"), entry.get("summary_detail")
        if entry.get("content") and (not text or not detail):
            text, detail = entry["content"][0].get("value"), entry["content"][0]
        # The date `news` takes: published, else updated, else created.
        when = (
            entry.get("published_parsed")
            or entry.get("updated_parsed")
            or entry.get("created_parsed")
        )
        entries.append(
            {
                "title": entry.get("title"),
                "title_html": is_markup(entry.get("title_detail")),
                "text_html": is_markup(detail),
                "link": entry.get("link"),
                "text": text,
                "date": calendar.timegm(when) if when else None,
            }
        )
    return entries


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    tool = os.path.abspath(TOOL)
    os.chdir(sys.argv[1])
    show = sys.argv[sys.argv.index("--show") + 1] if "--show" in sys.argv else None
    files = []
    for top in ("tests/wellformed", "tests/illformed", "tests/encoding"):
        for root, _, names in os.walk(top):
            for name in sorted(names):
                path = os.path.join(root, name)
                if (
                    name.endswith(".xml")
                    and not path.startswith(SKIPPED)
                    and not served_with_headers(path)
                ):
                    files.append(path)
    files.sort()
    ours = {}
    for start in range(0, len(files), 200):
        out = subprocess.run(
            [tool, "entries", BASE] + files[start : start + 200],
            check=True, capture_output=True, text=True,
        ).stdout
        for line in out.splitlines():
            document = json.loads(line)
            ours[document["file"]] = document.get("entries", [])
    agree = {"items": [0, 0], "links": [0, 0], "titles": [0, 0], "dates": [0, 0], "text": [0, 0]}
    for path in files:
        theirs = oracle(path)
        mine = ours.get(path, [])
        if not theirs and not mine:
            continue
        agree["items"][1] += 1
        agree["items"][0] += len(theirs) == len(mine)
        if show == "items" and len(theirs) != len(mine):
            print(f"{path}: feedparser {len(theirs)}, news {len(mine)}")
        for index, (a, b) in enumerate(zip(theirs, mine)):
            pairs = {
                "links": (a["link"], b.get("link")),
                "titles": (" ".join(words(a["title"], a["title_html"])), " ".join(words(b.get("title")))),
                "dates": (a["date"], int(b["date"]) if b.get("date") is not None else None),
                "text": (words(a["text"], a["text_html"]), words(b.get("text"))),
            }
            for field, (x, y) in pairs.items():
                if not x and not y:
                    continue
                agree[field][1] += 1
                agree[field][0] += x == y
                if show == field and x != y:
                    print(f"{path} [{index}]: feedparser {x!r}\n{' ' * len(path)}   news {y!r}")
    print(f"{len(files)} documents")
    for field, (same, total) in agree.items():
        share = 100.0 * same / total if total else 100.0
        print(f"{field:7} {share:5.1f}%  ({same} of {total})")


if __name__ == "__main__":
    main()
