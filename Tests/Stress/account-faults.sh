#!/usr/bin/env bash
# An account's server at fault (#31), end to end through the built binary: a Google Reader API
# server (Python, loopback only) that redirects its login to another server, fails half-way
# through a sync, and deletes a saved item. Passes when the password never reaches the other
# server, a mark the server took is never sent again, and a deleted item keeps its bookmark.
#   bash Tests/Stress/account-faults.sh [path/to/news]
set -uo pipefail
news=${1:-.build/debug/news}
news=$(cd "$(dirname "$news")" && pwd)/$(basename "$news")
work=$(mktemp -d)
trap 'kill $server $other 2>/dev/null; rm -rf "$work"' EXIT
: > "$work/mode"

cat > "$work/server.py" <<'PY'
import json, sys, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
work, role = sys.argv[1], sys.argv[2]
items = {1: ("Saved story", "https://s.example/1"), 2: ("Read story", "https://s.example/2"),
         3: ("Third story", "https://s.example/3")}
state = {"read": set(), "starred": {1}, "deleted": set()}
def mode():
    return open(f"{work}/mode").read().split()
def log(name, line):
    with open(f"{work}/{name}", "a") as out: out.write(line + "\n")
class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def answer(self, status, body=b"", headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items(): self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def json(self, value): self.answer(200, json.dumps(value).encode(), {"Content-Type": "application/json"})
    def do_GET(self): self.handle_any(b"")
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.handle_any(self.rfile.read(length))
    def handle_any(self, body):
        if role == "other":
            log("other.log", f"{self.command} {self.path} {body!r}")
            return self.answer(200, b"Auth=stolen\n")
        url = urllib.parse.urlsplit(self.path)
        path = url.path.split("/api/greader.php/", 1)[-1]
        query = urllib.parse.parse_qsl(url.query) + urllib.parse.parse_qsl(body.decode())
        live = [i for i in items if i not in state["deleted"]]
        for word in mode():
            if word.startswith("deleted:"): state["deleted"].add(int(word[8:]))
        if path == "accounts/ClientLogin":
            if "redirect" in mode():
                return self.answer(307, b"", {"Location": open(f"{work}/other-url").read().strip()})
            fields = dict(query)
            if fields.get("Email") == "ann" and fields.get("Passwd") == "s3cret":
                return self.answer(200, b"SID=x\nAuth=tok\n")
            return self.answer(401, b"Error=BadAuthentication\n")
        if self.headers.get("Authorization") != "GoogleLogin auth=tok":
            return self.answer(401)
        if path == "reader/api/0/token": return self.answer(200, b"T1\n")
        if path == "reader/api/0/subscription/list":
            return self.json({"subscriptions": [{"id": "feed/https://s.example/rss", "title": "S",
                                                  "url": "https://s.example/rss", "categories": []}]})
        def content(i):
            cats = ["user/-/state/com.google/reading-list"]
            if i in state["read"]: cats.append("user/-/state/com.google/read")
            if i in state["starred"]: cats.append("user/-/state/com.google/starred")
            return {"id": "tag:google.com,2005:reader/item/%016x" % i, "title": items[i][0],
                    "published": 1700000000 + i, "canonical": [{"href": items[i][1]}],
                    "origin": {"streamId": "feed/https://s.example/rss"}, "categories": cats}
        if path.startswith("reader/api/0/stream/contents/"):
            return self.json({"items": [content(i) for i in live]})
        if path == "reader/api/0/stream/items/ids":
            if "fail-ids" in mode(): return self.answer(500)
            fields = dict(query)
            if fields.get("s") == "user/-/state/com.google/starred":
                ids = [i for i in live if i in state["starred"]]
            else:
                ids = [i for i in live if i not in state["read"]]
            return self.json({"itemRefs": [{"id": str(i)} for i in ids]})
        if path == "reader/api/0/stream/items/contents":
            wanted = {int(v.split("/")[-1], 16) if "/" in v else int(v) for k, v in query if k == "i"}
            return self.json({"items": [content(i) for i in live if i in wanted]})
        if path == "reader/api/0/edit-tag":
            log("edits.log", body.decode())
            ids = {int(v.split("/")[-1], 16) if "/" in v else int(v) for k, v in query if k == "i"}
            for k, v in query:
                target = {"user/-/state/com.google/read": "read",
                          "user/-/state/com.google/starred": "starred"}.get(v)
                if target and k == "a": state[target] |= ids
                if target and k == "r": state[target] -= ids
            return self.answer(200, b"OK")
        self.answer(404)
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
open(f"{work}/{role}-port", "w").write(str(server.server_address[1]))
server.serve_forever()
PY
python3 "$work/server.py" "$work" reader > "$work/reader.out" 2>&1 &
server=$!
python3 "$work/server.py" "$work" other > "$work/other.out" 2>&1 &
other=$!
for _ in $(seq 100); do [ -s "$work/reader-port" ] && [ -s "$work/other-port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/reader-port")/api/greader.php"
echo "http://127.0.0.1:$(cat "$work/other-port")/login" > "$work/other-url"
export NEWS_HOME="$work/home" NEWS_ANALYTICS=off NO_COLOR=1 NEWS_RETRY_DELAY=0 PW=s3cret
export NEWS_STORE_KEY=$(head -c32 /dev/urandom | base64) NEWS_CONFIG="$work/config.json"
echo '{"sources": []}' > "$NEWS_CONFIG"

passed=0
failed=0
check() { # check <what> <command…>: the command's exit 0 is a pass
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $what"; fi
}
add() { "$news" accounts add home --greader "$url" --user ann --password-env PW 2>&1; }

echo redirect > "$work/mode"
out=$(add); code=$?
check "a login redirected elsewhere is refused (exit 69)" test "$code" = 69
check "the other server never saw the password" test ! -s "$work/other.log"
check "the message names the other server" grep -q "127.0.0.1:$(cat "$work/other-port")" <<< "$out"
check "no password in the message" test "$(grep -c s3cret <<< "$out")" = 0

: > "$work/mode"
check "add" test "$(add > /dev/null; echo $?)" = 0
check "first sync" "$news" sync --account home > /dev/null
check "the saved item is a bookmark" grep -q "Saved story" <<< "$("$news" bookmarks 2>&1)"
id=$("$news" search "Read story" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["articles"][0]["id"])')
check "read here" "$news" read "$id" > /dev/null

echo fail-ids > "$work/mode"
for _ in 1 2 3; do "$news" sync --account home > /dev/null 2>&1; done
check "a mark the server took is sent once over three failed syncs" test "$(wc -l < "$work/edits.log")" = 1

echo deleted:1 > "$work/mode"
check "sync after a deletion" "$news" sync --account home > /dev/null
check "the deleted item keeps its bookmark" grep -q "Saved story" <<< "$("$news" bookmarks 2>&1)"
check "accounts says it is gone from the server" grep -q "gone from the server" <<< "$("$news" accounts 2>&1)"
check "doctor finds the store healthy" "$news" doctor > /dev/null

echo "account-faults: $passed passed, $failed failed"
[ "$failed" = 0 ]
