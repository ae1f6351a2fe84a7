#!/usr/bin/env python3
"""news's article extraction against readability-lxml's, page by page: the word-bag F1 of the
two texts (the measure the tests use) and whether the titles agree. readability-lxml is an
oracle kept out of the build: `pip install readability-lxml` (in a virtual environment).

    python3 Benchmarks/oracle.py [page.html…]     # default: the test pages

Needs `swift build -c release --product news-benchmark`."""
import collections
import glob
import html
import os
import re
import subprocess
import sys

try:
    from readability import Document
except ImportError:
    sys.exit("oracle.py needs readability-lxml: pip install readability-lxml")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build/release/news-benchmark")


def words(text):
    return collections.Counter(re.findall(r"\w+", text.lower()))


def f1(ours, theirs):
    a, b = words(ours), words(theirs)
    common = sum((a & b).values())
    if not common:
        return 0.0
    precision, recall = common / sum(a.values()), common / sum(b.values())
    return 2 * precision * recall / (precision + recall)


def theirs(path):
    with open(path, "rb") as page:
        document = Document(page.read())
    text = re.sub(r"<[^>]+>", " ", document.summary(html_partial=True))
    return document.short_title(), html.unescape(text)


def ours(paths):
    out = subprocess.run([TOOL, "text", *paths], capture_output=True, text=True, check=True)
    found = {}
    for block in out.stdout.split("== ")[1:]:
        path, _, rest = block.partition("\n")
        title, _, text = rest.partition("\n")
        found[path] = (title.removeprefix("title: "), text)
    return found


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "Tests/TestSupport/Fixtures/pages/*.html")))
    if not os.path.exists(TOOL):
        sys.exit("build it first: swift build -c release --product news-benchmark")
    mine = ours(paths)
    good = 0
    for path in paths:
        their_title, their_text = theirs(path)
        my_title, my_text = mine[path]
        score = f1(my_text, their_text)
        good += score >= 0.9
        same = "same title" if my_title.strip() == their_title.strip() else f"title {my_title!r} vs {their_title!r}"
        print(f"{score:5.2f}  {os.path.basename(path)}  ({same})")
    print(f"{good} of {len(paths)} pages at F1 >= 0.9 against readability-lxml")


if __name__ == "__main__":
    main()
