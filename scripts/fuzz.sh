#!/usr/bin/env bash
# Runs every fuzz target in the repository for a bounded time each (default 10s):
#   scripts/fuzz.sh 30s              every target
#   scripts/fuzz.sh 3s 'shared/'     only targets whose directory matches the pattern
# Targets are found by name (func FuzzX(f *testing.F) in a *_test.go file). An input that
# fails is written by go test under the package's testdata/fuzz/FuzzX/ and kept there as a
# regression case: the seed corpora and those files run with the ordinary tests too.
# FUZZ_JOBS targets run at once (default 1), each with FUZZ_PARALLEL workers (default 2);
# CI uses FUZZ_JOBS=2 FUZZ_PARALLEL=1, since building and starting each target costs more
# than a few seconds of fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-10s}
filter=${2:-}
jobs=${FUZZ_JOBS:-1}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
started=$SECONDS

# corpus lists the failing inputs go test has written for a target.
corpus() { ls "$1/testdata/fuzz/$2" 2>/dev/null || true; }

# fuzz_one runs one target and leaves its output and result in $logs.
#
# Go 1.26's fuzzing coordinator can end a run that found nothing with a bare
# "context deadline exceeded" when -fuzztime expires while a worker is busy
# (go.dev/issue/75804, fixed in Go 1.27). So a failed run counts only when go test wrote a
# failing input or reported anything besides that deadline; a bare deadline is noted in the
# target's log and ignored.
fuzz_one() {
	local dir=$1 target=$2 log=$logs/$3-$2.log t0=$SECONDS rc=0 before
	before=$(corpus "$dir" "$target")
	(cd "$dir" && go test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" \
		-fuzzminimizetime 10s -parallel "${FUZZ_PARALLEL:-2}" .) >"$log" 2>&1 || rc=$?
	if ((rc != 0)) && [[ $(corpus "$dir" "$target") == "$before" ]] &&
		grep -q '^    context deadline exceeded$' "$log" &&
		! grep -qE '^\s+(Failing input written|panic:|.*_test\.go:[0-9]+:)' "$log"; then
		echo "fuzz: ignoring the coordinator's deadline race (go.dev/issue/75804): no failing input" >>"$log"
		rc=0
	fi
	{
		echo "=== fuzz ./$dir $target ($fuzztime): $((SECONDS - t0))s"
		tail -n 20 "$log"
	} >"$log.done"
	if ((rc != 0)); then
		echo "./$dir $target" >"$log.failed"
	fi
}

targets=$(grep -rHoE --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+\(' shared services clients e2e migrations 2>/dev/null |
	sed -E 's/:func (Fuzz[A-Za-z0-9_]+)\($/ \1/' | sort -u)
n=0
while read -r file target; do
	[[ -z $file ]] && continue
	n=$((n + 1))
	dir=$(dirname "$file")
	if [[ -n $filter && ! $dir =~ $filter ]]; then
		continue
	fi
	while (($(jobs -rp | wc -l) >= jobs)); do
		wait -n || true
	done
	fuzz_one "$dir" "$target" "$(printf %03d $n)" &
done <<<"$targets"
wait
cat "$logs"/*.done 2>/dev/null || true
echo "fuzzing took $((SECONDS - started))s"
if compgen -G "$logs/*.failed" >/dev/null; then
	echo "FAILED:"
	cat "$logs"/*.failed
	exit 1
fi
