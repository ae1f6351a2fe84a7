#!/usr/bin/env python3
"""news's article extraction against Readability's, page by page: the word-bag F1 of the two
texts (the measure the tests use) and whether the titles agree. The oracle is kept out of the
build: readability-lxml (`pip install readability-lxml`, in a virtual environment), or with
`--readability-js <parse.cjs>` Mozilla's Readability.js itself, run by node: the bundle that the
PyPI package python-readability ships (`pip download --no-deps python-readability`, unzip the
wheel: `readability/impl/parse.cjs`, Readability.js over cheerio).

    python3 Benchmarks/oracle.py [--readability-js parse.cjs [--beside-lxml]] [--quiet] [page.html…]
    # default pages: the test pages; a directory stands for the .html pages below it (for
    # Mozilla's own corpus: `git clone https://github.com/mozilla/readability`, then give
    # readability/test/test-pages: each <name>/source.html is read, its expected.html left out)

With `--beside-lxml`, readability-lxml is scored against Readability.js on the same pages too
(a last line of its own): how far a second extractor is from it, beside `news`.

Needs `swift build -c release --product news-benchmark`."""
import collections
import glob
import html
import html.parser
import json
import os
import re
import subprocess
import sys


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build/release/news-benchmark")


# Scripts written without spaces (Chinese, Japanese, Korean syllables, Thai, Burmese): each
# character is a word of its own, as `news` counts them, so that a line break the other
# extractor drops (`回来Ai`) does not make two lines one unknown word.
UNSPACED = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af\u0e00-\u0e7f\u1000-\u109f"
WORD = re.compile(f"[{UNSPACED}]|[^\\W{UNSPACED}]+")


def words(text):
    return collections.Counter(WORD.findall(text.lower()))


def f1(ours, theirs):
    a, b = words(ours), words(theirs)
    if not a and not b:
        return 1.0  # both found no article
    common = sum((a & b).values())
    if not common:
        return 0.0
    precision, recall = common / sum(a.values()), common / sum(b.values())
    return 2 * precision * recall / (precision + recall)


class _Text(html.parser.HTMLParser):
    """The text of an article's HTML, each element's text apart from the next."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pieces = []

    def handle_data(self, data):
        self.pieces.append(data)


def text_of(markup):
    reader = _Text()
    reader.feed(markup)
    reader.close()
    return " ".join(reader.pieces)


def lxml_oracle():
    try:
        from readability import Document
    except ImportError:
        sys.exit("oracle.py needs readability-lxml: pip install readability-lxml")

    def theirs(paths):
        found = {}
        for path in paths:
            with open(path, "rb") as page:
                document = Document(page.read())
            found[path] = (document.short_title(), text_of(document.summary(html_partial=True)))
        return found

    return "readability-lxml", theirs


# Readability.js over each page, as a browser's reader view would be given it: the page's bytes
# decoded by the charset its first 8 KB declare (a browser's parser changes to a charset it
# meets later than its 1,024 bytes of prescan; UTF-8 when none, or one node does not
# know), no base URL of its own.
RUN_JS = """
const {parse} = require(process.argv[1]);
const fs = require('fs');
function decode(bytes) {
  const head = bytes.subarray(0, 8192).toString('latin1').toLowerCase();
  const declared = /<meta[^>]*charset\\s*=\\s*["']?([a-z0-9_:.-]+)/.exec(head);
  try { return new TextDecoder(declared ? declared[1] : 'utf-8').decode(bytes); }
  catch (e) { return new TextDecoder('utf-8').decode(bytes); }
}
for (const path of process.argv.slice(2)) {
  let found = {title: '', text: ''};
  try {
    const r = parse(decode(fs.readFileSync(path)), {baseURI: 'https://example.com/'});
    if (r) found = {title: r.title || '', text: r.content || ''};
  } catch (e) {}
  process.stdout.write(JSON.stringify({path, ...found}) + "\\n");
}
"""


def js_oracle(bundle):
    def theirs(paths):
        out = subprocess.run(["node", "-e", RUN_JS, os.path.abspath(bundle), *paths],
                             capture_output=True, text=True, check=True)
        found = {}
        for line in out.stdout.split("\n"):
            if not line:
                continue
            row = json.loads(line)
            # The article's HTML read as text, each element's apart (as for readability-lxml):
            # its textContent runs blocks together where the page has no space between them
            # (`entfernen.Das`).
            found[row["path"]] = (row["title"], text_of(row["text"]))
        return found

    return "Readability.js", theirs


def ours(paths):
    out = subprocess.run([TOOL, "text", *paths], capture_output=True, text=True, check=True)
    # Each page's block starts with a line `== <its path>` (a page's text may hold `== ` too).
    found, current, lines = {}, None, []
    heads = {"== " + path: path for path in paths}
    for line in out.stdout.split("\n") + ["== "]:
        if line in heads or line == "== ":
            if current is not None:
                title = lines[0].removeprefix("title: ") if lines else ""
                found[current] = (title, "\n".join(lines[1:]))
            current, lines = heads.get(line), []
        else:
            lines.append(line)
    return found


def pages(arguments):
    found = []
    for argument in arguments:
        if os.path.isdir(argument):
            # Mozilla's test pages (`readability/test/test-pages/<name>/source.html`) sit beside
            # Readability's expected output, which is no page to read.
            found += sorted(
                path for path in glob.glob(os.path.join(argument, "**/*.html"), recursive=True)
                if os.path.basename(path) != "expected.html")
        else:
            found.append(argument)
    return found


def page_name(path):
    """A page's name: its file's, or its directory's for Mozilla's `<name>/source.html`."""
    if os.path.basename(path) == "source.html":
        return os.path.basename(os.path.dirname(path))
    return os.path.basename(path)


def main():
    arguments = sys.argv[1:]
    quiet = "--quiet" in arguments
    beside = "--beside-lxml" in arguments
    arguments = [a for a in arguments if a not in ("--quiet", "--beside-lxml")]
    if arguments[:1] == ["--readability-js"]:
        name, theirs = js_oracle(arguments[1])
        arguments = arguments[2:]
    else:
        name, theirs = lxml_oracle()
    paths = pages(arguments) or sorted(
        glob.glob(os.path.join(ROOT, "Tests/TestSupport/Fixtures/pages/*.html")))
    if not os.path.exists(TOOL):
        sys.exit("build it first: swift build -c release --product news-benchmark")
    mine, their = ours(paths), theirs(paths)
    good = titles = 0
    total = 0.0
    for path in paths:
        their_title, their_text = their[path]
        my_title, my_text = mine[path]
        score = f1(my_text, their_text)
        good += score >= 0.9
        total += score
        # Titles the same but for their spacing (a no-break or ideographic space is a space);
        # a page where neither finds an article has no title to compare.
        same = " ".join(my_title.split()) == " ".join(their_title.split()) or not (
            words(my_text) or words(their_text))
        titles += same
        if not quiet or score < 0.9 or not same:
            said = "same title" if same else f"title {my_title!r} vs {their_title!r}"
            print(f"{score:5.2f}  {page_name(path)}  ({said})")
    count = len(paths)
    print(f"{good} of {count} pages at F1 >= 0.9 against {name} ({100 * good / count:.0f}%), "
          f"mean F1 {total / count:.3f}, titles the same on {titles} ({100 * titles / count:.0f}%)")
    if beside and name != "readability-lxml":
        others = lxml_oracle()[1](paths)
        scores = [f1(others[path][1], their[path][1]) for path in paths]
        same = sum(" ".join(others[path][0].split()) == " ".join(their[path][0].split())
                   or not (words(others[path][1]) or words(their[path][1])) for path in paths)
        print(f"readability-lxml: {sum(s >= 0.9 for s in scores)} of {count} pages at F1 >= 0.9 "
              f"against {name} ({100 * sum(s >= 0.9 for s in scores) / count:.0f}%), "
              f"mean F1 {sum(scores) / count:.3f}, titles the same on {same} "
              f"({100 * same / count:.0f}%)")


if __name__ == "__main__":
    main()
