#!/usr/bin/env bash
# go vet, a gofmt check and a go mod tidy diff check per module, and the compose file check.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
status=0
unformatted=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
	echo "gofmt needed:"; echo "$unformatted"; status=1
fi
for dir in $(go list -m -f '{{.Dir}}'); do
	rel=${dir#"$root"/}
	(cd "$dir" && go vet ./...) || { echo "go vet failed in $rel"; status=1; }
	(cd "$dir" && cp go.mod /tmp/lint.go.mod && { cp go.sum /tmp/lint.go.sum 2>/dev/null || :; } &&
		GOWORK=off go mod tidy >/dev/null 2>&1 &&
		if ! git diff --quiet -- go.mod go.sum; then
			echo "go mod tidy changes $rel:"; git --no-pager diff --stat -- go.mod go.sum
			cp /tmp/lint.go.mod go.mod; [ -f /tmp/lint.go.sum ] && cp /tmp/lint.go.sum go.sum; exit 1
		fi) || status=1
	(cd "$dir" && GOWORK=off go build ./...) || { echo "GOWORK=off build failed in $rel"; status=1; }
done
if command -v docker-compose >/dev/null 2>&1; then
	docker-compose -f docker-compose.yml config -q || { echo "docker-compose.yml does not validate"; status=1; }
else
	echo "docker-compose missing: run scripts/install-test-deps.sh"; status=1
fi
exit $status
