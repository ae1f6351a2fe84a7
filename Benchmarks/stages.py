#!/usr/bin/env python3
"""Sums `perf report --no-children --sort symbol --stdio` by stage of a refresh (Benchmarks/lean.sh).

Reads the report on stdin; prints each stage's share of the samples, largest first. A symbol goes
to the first stage whose pattern it matches (Swift's mangled and demangled names both)."""
import re
import sys

STAGES = [
    ("parse (feed reader, HTML to text, dates)", r"FeedParsing|XMLTokenizer|HTMLText|Syndication|RFC822|EntityDecoder|FeedReader"),
    ("ids and dedup (ARTICLEID, SHA-256, hashing)", r"ArticleID|SHA256|sha256|Hasher|hashValue|_hash|siphash"),
    ("sealing (ChaCha20-Poly1305)", r"ChaCha|Poly1305|chacha|poly1305|Cipher|Seal"),
    ("the writer (segments, index, manifest, read marks)", r"ArticleStore|Segment|WordIndex|Manifest|BinaryWriter|BinaryReader|StoredArticle|KeepBatcher|ReadMarks|EncryptedStore"),
    ("packing items (FeedItemPack)", r"FeedItemPack"),
    ("output (rendering, JSON)", r"Renderer|JSONValue|serialized|Rendering|TerminalSanitizer"),
    ("HTTP (libcurl, sockets, gzip)", r"curl|Curl|HTTP|ssl|inflate|zlib|Transport"),
    ("Swift runtime (retain/release, allocation, strings)", r"swift_|malloc|free|_int_|memmove|memcpy|String|Array|Dictionary|Unicode"),
    ("kernel (files, sockets)", r"\[k\]|^0x|entry_SYSCALL|ext4|tcp_"),
]

totals = {}
other = 0.0
for line in sys.stdin:
    match = re.match(r"\s+([\d.]+)%\s+\S+\s+\S+\s+\[(.)\]\s+(.*)", line)
    if not match:
        continue
    share, kind, symbol = float(match.group(1)), match.group(2), match.group(3)
    text = f"[{kind}] {symbol}"
    for name, pattern in STAGES:
        if re.search(pattern, text):
            totals[name] = totals.get(name, 0.0) + share
            break
    else:
        other += share
print("| stage | share of CPU samples |")
print("|---|---|")
for name, share in sorted(totals.items(), key=lambda item: -item[1]):
    print(f"| {name} | {share:.1f}% |")
print(f"| other | {other:.1f}% |")
