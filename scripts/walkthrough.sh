#!/usr/bin/env bash
# Follows the README literally: starts `make run` on a fresh data directory, runs the
# walk-through's shell block as written, and checks that the public feed shows the published
# events with the planted secret and home path removed. CI runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq >/dev/null || { [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >&2; }
work=$(mktemp -d)
# Port 0: the server binds a free port itself and prints its URL. The address and data
# directory come from the environment, as the README documents.
OPENVIBE_ADDR=127.0.0.1:0 OPENVIBE_DATA_DIR="$work/data" make run >"$work/run.log" 2>&1 &
runpid=$!
cleanup() { pkill -TERM -P $runpid 2>/dev/null || true; kill $runpid 2>/dev/null || true; wait $runpid 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
SERVER=
# make run builds first, which on a busy machine with a cold cache takes minutes: wait as
# long as it is still running (at most 15 minutes).
for _ in $(seq 4500); do
	SERVER=$(grep -o 'running at http://[^ ]*' "$work/run.log" | head -n 1 | cut -d' ' -f3) || true
	[ -n "$SERVER" ] && curl -fsS "$SERVER/healthz" >/dev/null 2>&1 && break
	kill -0 $runpid 2>/dev/null || break
	sleep 0.2
done
[ -n "$SERVER" ] || { echo "make run printed no URL"; cat "$work/run.log"; exit 1; }
case $SERVER in
*:8080) echo "make run ignored OPENVIBE_ADDR: $SERVER"; exit 1 ;;
esac
[ -f "$work/data/jwt-secret" ] || { echo "make run ignored OPENVIBE_DATA_DIR"; exit 1; }
curl -fsS "$SERVER/healthz" >/dev/null || { cat "$work/run.log"; exit 1; }
export SERVER

# The walk-through block, exactly as the README has it.
awk '/^## Five-minute walk-through/{on=1} on && /^```sh/{inblock=1; next} inblock && /^```/{exit} inblock' README.md >"$work/walk.sh"
[ -s "$work/walk.sh" ] || { echo "no walk-through block in README.md"; exit 1; }
bash -euo pipefail "$work/walk.sh" >"$work/feed.json"

# The last JSON document printed is the feed (step 3 prints the live stream id first).
jq -s '.[-1]' "$work/feed.json" >"$work/last.json" && mv "$work/last.json" "$work/feed.json"
events=$(jq '.events | length' "$work/feed.json")
echo "walkthrough: the public feed shows $events events"
[ "$events" -ge 4 ] || { cat "$work/feed.json"; exit 1; }
if grep -q 's3cr3t-Pa55\|/home/ada' "$work/feed.json"; then echo "walkthrough: a secret reached the feed"; exit 1; fi
jq -e '.publisher.integrationId' "$work/feed.json" >/dev/null
echo "walkthrough: ok"
