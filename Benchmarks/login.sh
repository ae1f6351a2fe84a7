#!/usr/bin/env bash
# news serve's login beside OpenSSL's PBKDF2 of the same cost: a Google Reader ClientLogin
# (PBKDF2-HMAC-SHA256 at 600,000 rounds, the password kept as docs/serve.md says) against
# `openssl kdf … PBKDF2` at 600,000 rounds, in one hyperfine run on a loopback server.
# Needs hyperfine, curl, openssl and python3; installs nothing.
# Usage: bash Benchmarks/login.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
for tool in hyperfine curl openssl python3; do
  command -v "$tool" >/dev/null || { echo "login.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product news >&2
news="$(swift build -c release --show-bin-path)/news"
work=$(mktemp -d)
export NEWS_HOME="$work" NEWS_ANALYTICS=off NO_COLOR=1
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64)
echo "benchmark-password" | "$news" serve --set-password --user ann >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$news" serve --listen "127.0.0.1:$port" --quiet 2>"$work/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/login.json" \
  "curl -s -o /dev/null -d Email=ann&Passwd=benchmark-password http://127.0.0.1:$port/accounts/ClientLogin" \
  "openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt pass:benchmark-password -kdfopt salt:0123456789abcdef -kdfopt iter:600000 PBKDF2" >&2
python3 - "$work/login.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
ours, theirs = results[0]["mean"], results[1]["mean"]
print("| 600,000 rounds of PBKDF2-HMAC-SHA256 | news serve (ClientLogin) | openssl kdf | ratio |")
print("|---|---|---|---|")
print(f"| wall, mean of the runs | {ours*1000:.0f} ms | {theirs*1000:.0f} ms | {ours/theirs:.2f}× |")
PY
