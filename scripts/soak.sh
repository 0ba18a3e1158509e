#!/usr/bin/env bash
# The soak (make soak): the mixed scenario — publishers, 160 viewers over two chat-socket
# replicas, chat, public feed reads — against a real two-replica cluster on its own
# PostgreSQL and Redis for DURATION (default 10m). Fails on any error, any lost or
# duplicated event, or goroutine or memory growth; prints throughput, latency percentiles,
# goroutines and resident memory per interval, also written to
# $OPENVIBE_ARTIFACTS/soak-DURATION.txt.
#
#   scripts/soak.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
duration=${1:-10m}

bash scripts/install-test-deps.sh
export REQUIRE_SERVICES=${REQUIRE_SERVICES:-1}
export OPENVIBE_ARTIFACTS=${OPENVIBE_ARTIFACTS:-$root/artifacts}
mkdir -p "$OPENVIBE_ARTIFACTS"
export OPENVIBE_SOAK=$duration
export OPENVIBE_SOAK_REPORT=$OPENVIBE_ARTIFACTS/soak-$duration.txt

# The test's own deadline: the soak plus ten minutes for setup and drain.
case $duration in
*h) secs=$((${duration%h} * 3600)) ;;
*m) secs=$((${duration%m} * 60)) ;;
*s) secs=${duration%s} ;;
*) echo "soak: DURATION must be a whole number of s, m or h, such as 90s or 10m" >&2; exit 2 ;;
esac
secs=$((secs + 600))

cd e2e
go test -count=1 -v -timeout "${secs}s" -run '^TestSoak$' ./soak
echo "soak: report in $OPENVIBE_SOAK_REPORT"
