#!/usr/bin/env bash
# Runs the go test benchmarks of every module once, briefly, against the real backends, so
# benchmark code keeps compiling and running. The figures in docs/benchmarks.md come from the
# longer commands written next to each figure there.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash scripts/test-services.sh env)"
trap 'bash scripts/test-services.sh stop' EXIT
benchtime=${BENCHTIME:-100x}
status=0
for dir in $(go list -m -f '{{.Dir}}'); do
	(cd "$dir" && go test -run '^$' -bench . -benchtime "$benchtime" -benchmem ./...) || status=1
done
exit $status
