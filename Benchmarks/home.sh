#!/usr/bin/env bash
# Time to the first home screen of `news browse` (issue #24): 200 feed sources with 50 items
# each stored (10,000 items), every visible row with its counts from the store, as a ratio to
# `news --version` started the same way (in a pseudo-terminal). Target: at most 2x.
# Needs python3; installs nothing. Usage: bash Benchmarks/home.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
python3 Benchmarks/feed_server.py 200 50 0 > "$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(head -1 "$work/port")"
for n in $(seq 0 199); do echo "$base/feeds/$n.xml"; done > "$work/urls"
export NEWS_HOME="$work/news" NEWS_ANALYTICS=off NO_COLOR=1
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
export NEWS_FEED_A_URL="$base/a.json" NEWS_FEED_B_URL="$base/b.json" NEWS_FEED_C_URL="$base/c.json"
"$news" sources import "$work/urls" >/dev/null
"$news" feed >/dev/null
read -r browse version < <(python3 Benchmarks/home_pty.py "$news" "$runs")
python3 -c "import sys; b, v = float(sys.argv[1]), float(sys.argv[2]); print(f'| first home screen, 200 sources, 10,000 items | {b*1000:.1f} ms | {v*1000:.1f} ms (--version) | {b/v:.2f}x | <= 2x |')" "$browse" "$version"
