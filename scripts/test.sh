#!/usr/bin/env bash
# Runs every module's tests with the race detector against real PostgreSQL and Redis servers
# started from local binaries (scripts/test-services.sh), installing what the tests need.
#
#   scripts/test.sh                 all modules
#   scripts/test.sh ./shared/...    extra go test arguments are passed through (per module)
#
# REQUIRE_SERVICES=1 turns every skipped real-backend test into a failure (CI sets it).
# The binaries that tests run as real processes are built once, before any test starts, into
# one directory that every test package shares (testenv.BinariesEnv); a test builds nothing
# itself, so how busy the machine is changes how long a run takes, not whether it passes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The main packages that tests start as processes, named as testenv.BuildBinaries names them.
binaries=(
	services/publish-gateway
	services/chat-socket
	services/api
	services/standalone
	services/agent-runner/cmd/openvibe
	clients/vibe-publish
)

elapsed() { echo $(($(date +%s) - $1)); }

bash scripts/install-test-deps.sh

eval "$(bash scripts/test-services.sh env)"
bin=$(mktemp -d /tmp/openvibe-test-bin-XXXXXX)
cleanup() {
	rm -rf "$bin"
	if [ -z "${KEEP_TEST_SERVICES:-}" ]; then bash scripts/test-services.sh stop; fi
}
trap cleanup EXIT

export OPENVIBE_ARTIFACTS=${OPENVIBE_ARTIFACTS:-$root/artifacts}
mkdir -p "$OPENVIBE_ARTIFACTS"

echo "test: the first run on a machine downloads and compiles every dependency (several minutes);"
echo "test: later runs reuse the Go module and build caches"

start=$(date +%s)
echo "=== building the binaries the tests run (${#binaries[@]})"
for module in "${binaries[@]}"; do
	(cd "$module" && go build -o "$bin/$(basename "$module")" .)
done
export OPENVIBE_E2E_BINARIES=$bin
summary=("$(printf '%-32s %-4s %5ss' build ok "$(elapsed "$start")")")

# While one module's tests run, the next modules' race-instrumented test binaries are
# compiled in the background at the lowest CPU priority (and run with /bin/true, so nothing
# runs): end-to-end tests spend much of their time waiting on sockets and timers, and what is
# compiled then is in the build cache when that module's turn comes. It is the same build
# go test -race does, so nothing is compiled twice; on a warm cache it finds everything done.
mapfile -t modules < <(go list -m -f '{{.Dir}}')
(
	for dir in "${modules[@]:1}"; do
		cd "$dir" && nice -n 19 go test -race -count=1 -exec /bin/true ./... >/dev/null 2>&1 || true
	done
) &
prewarm=$!
trap 'pkill -P "$prewarm" 2>/dev/null || true; kill "$prewarm" 2>/dev/null || true; cleanup' EXIT

timeout=${TEST_TIMEOUT:-20m}
status=0
for dir in "${modules[@]}"; do
	rel=${dir#"$root"/}
	echo "=== module $rel"
	t=$(date +%s)
	result=ok
	if ! (cd "$dir" && go test -race -timeout "$timeout" -count=1 "${@:-./...}"); then
		status=1
		result=FAIL
	fi
	summary+=("$(printf '%-32s %-4s %5ss' "$rel" "$result" "$(elapsed "$t")")")
done

echo "=== summary ($(elapsed "$start") s in all)"
printf '%s\n' "${summary[@]}"
exit $status
