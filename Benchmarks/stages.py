#!/usr/bin/env python3
"""Where a refresh's CPU goes, by stage (Benchmarks/lean.sh --profile).

Reads `perf report --children --sort symbol --stdio` on stdin and prints, for each stage, the
largest inclusive share among the functions that begin it (Swift's mangled names), so that a
stage counts everything it calls (sealing: the cipher's own time, summed). Stages overlap where one calls another (ids are part of
reading the feed; sealing and fsync part of the writer); the kernel's file creation and fsync
are shown apart."""
import re
import sys

STAGES = [
    ("parse: reading the feed into items (ids included)", r"SyndicationAdapterV4read"),
    ("  of which the XML and HTML reader", r"DocumentParserV5parse"),
    ("  of which ids (ARTICLEID: link normalized, SHA-256)", r"ArticleIDO6derive"),
    ("dedup and lists: links merged, read marks, ignore rules", r"ListServiceV4feed"),
    ("the writer: segments, index, manifest, cache bundles (sealing and fsync included)",
     r"CommitBatcherC5drain"),
    ("  of which the search index", r"SegmentBuilderO5index"),
    ("  of which the segment manifest", r"ArticleSegmentsV6commit"),
    ("  of which the cache entries, a bundle a commit", r"FeedCacheC6commit"),
    ("sealing and opening (ChaCha20-Poly1305, its own time), everywhere", r"SELF:ChaCha20|Poly1305"),
    ("fsync, everywhere", r"^fsync$"),
    ("creating files (ext4 inodes), everywhere", r"^ext4_create$"),
    ("output: the text of every item", r"FeedRendererV4text"),
    ("HTTP (libcurl's callbacks)", r"Curl|curl"),
]

shares = {}
for line in sys.stdin:
    match = re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+\[.\]\s+(\S+)", line)
    if not match:
        continue
    inclusive, own, symbol = float(match.group(1)), float(match.group(2)), match.group(3)
    for name, pattern in STAGES:
        if pattern.startswith("SELF:"):
            if re.search(pattern[5:], symbol):
                shares[name] = shares.get(name, 0.0) + own
        elif re.search(pattern, symbol):
            shares[name] = max(shares.get(name, 0.0), inclusive)
print("| stage | share of the refresh's CPU |")
print("|---|---|")
for name, _ in STAGES:
    print(f"| {name} | {shares.get(name, 0.0):.1f}% |")
