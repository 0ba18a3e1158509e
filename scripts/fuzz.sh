#!/usr/bin/env bash
# Runs every fuzz target of every module for a bounded time each (default 10s):
#   scripts/fuzz.sh 30s
# Inputs that fail are written by go test under the package's testdata/fuzz/ and kept there
# as regression cases; the seed corpora run with the ordinary tests too.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-10s}
status=0
for dir in $(go list -m -f '{{.Dir}}'); do
	for pkg in $(cd "$dir" && go list ./...); do
		pdir=$(cd "$dir" && go list -f '{{.Dir}}' "$pkg")
		targets=$(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$pdir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u || true)
		for t in $targets; do
			echo "=== fuzz $pkg $t ($fuzztime)"
			if ! (cd "$pdir" && go test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" -parallel 2 .); then
				status=1
			fi
		done
	done
done
exit $status
