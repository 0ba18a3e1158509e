#!/usr/bin/env bash
# Runs every module's tests with the race detector against real PostgreSQL and Redis servers
# started from local binaries (scripts/test-services.sh), installing what the tests need.
#
#   scripts/test.sh                 all modules
#   scripts/test.sh ./shared/...    extra go test arguments are passed through (per module)
#
# REQUIRE_SERVICES=1 turns every skipped real-backend test into a failure (CI sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

bash scripts/install-test-deps.sh

eval "$(bash scripts/test-services.sh env)"
if [ -z "${KEEP_TEST_SERVICES:-}" ]; then
	trap 'bash scripts/test-services.sh stop' EXIT
fi

export OPENVIBE_ARTIFACTS=${OPENVIBE_ARTIFACTS:-$root/artifacts}
mkdir -p "$OPENVIBE_ARTIFACTS"

timeout=${TEST_TIMEOUT:-20m}
status=0
for dir in $(go list -m -f '{{.Dir}}'); do
	rel=${dir#"$root"/}
	echo "=== module $rel"
	if ! (cd "$dir" && go test -race -timeout "$timeout" -count=1 "${@:-./...}"); then
		status=1
	fi
done
exit $status
