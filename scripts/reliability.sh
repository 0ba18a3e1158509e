#!/usr/bin/env bash
# The fault suite (make test-reliability): real processes of every service on their own
# PostgreSQL and Redis, with a gateway killed (-9) and stopped (SIGTERM) under load, Redis and
# PostgreSQL stopped for 10 s, a chat-socket replica killed, retract and panic across two
# chat-socket replicas, then a 60 s soak of the mixed scenario (OPENVIBE_SOAK to change it,
# OPENVIBE_SOAK=0 to leave it out). Loopback only; every test stops by itself. About 5
# minutes on a 2-core machine.
#
#   scripts/reliability.sh            the whole suite
#   scripts/reliability.sh -run Redis extra go test arguments
#
# Figures (events acked and stored, recovery times, soak table) are printed by the tests
# (-v) and the log is kept in $OPENVIBE_ARTIFACTS/reliability.log.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

bash scripts/install-test-deps.sh
export REQUIRE_SERVICES=${REQUIRE_SERVICES:-1}
export OPENVIBE_SOAK=${OPENVIBE_SOAK:-60s}
[ "$OPENVIBE_SOAK" = 0 ] && unset OPENVIBE_SOAK
export OPENVIBE_ARTIFACTS=${OPENVIBE_ARTIFACTS:-$root/artifacts}
mkdir -p "$OPENVIBE_ARTIFACTS"

# Build the services once for every test package.
bin=$(mktemp -d /tmp/openvibe-reliability-XXXXXX)
trap 'rm -rf "$bin"' EXIT
for svc in publish-gateway chat-socket api; do
	(cd "services/$svc" && go build -o "$bin/$svc" .)
done
export OPENVIBE_E2E_BINARIES=$bin

cd e2e
# One package at a time (-p 1): the fault tests time outages, and the machine is small.
go test -count=1 -p 1 -v -timeout 20m ./faults ./replicas ./soak "$@" 2>&1 |
	tee "$OPENVIBE_ARTIFACTS/reliability.log" |
	grep -E '^(=== RUN|--- |PASS|FAIL|ok|panic)|fault step|events|soak|^ +[0-9]+m?[0-9.]*s |goroutines|Error|expected|actual|Messages'
exit "${PIPESTATUS[0]}"
