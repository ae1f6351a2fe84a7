#!/usr/bin/env python3
"""Times `news browse` to its first home screen with every visible row's counts, in a
pseudo-terminal, against `news --version` started the same way (Benchmarks/home.sh).

Usage: home_pty.py <news> <runs>
Prints one line: "<browse median s> <version median s>". The environment (NEWS_HOME, the key,
the sources' URLs) is the caller's.
"""
import os
import pty
import re
import select
import signal
import statistics
import sys
import time

NEWS, RUNS = sys.argv[1], int(sys.argv[2])
# A row whose counts are known: "  name   12/50  cached, 3 min ago".
COUNTS = re.compile(rb"\d+/\d+")


def run(arguments, ready):
    """Seconds from the start of `news arguments` until `ready(output)` (or the exit)."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(NEWS, [NEWS] + arguments)
    output = b""
    elapsed = None
    deadline = start + 30
    while time.perf_counter() < deadline:
        readable, _, _ = select.select([fd], [], [], 0.05)
        if readable:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                elapsed = time.perf_counter() - start
                break
            output += chunk
            if ready(output):
                elapsed = time.perf_counter() - start
                break
    try:
        os.write(fd, b"q")
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)
    if elapsed is None:
        sys.exit("news never drew its home screen: " + output[-400:].decode(errors="replace"))
    return elapsed


def home_drawn(output):
    # Every visible row has its counts: 20 rows of counts after the first frame.
    return len(COUNTS.findall(output)) >= 20


browse = [run(["browse"], home_drawn) for _ in range(RUNS)]
version = [run(["--version"], lambda _: False) for _ in range(RUNS)]
print(f"{statistics.median(browse):.4f} {statistics.median(version):.4f}")
