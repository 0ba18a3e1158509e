#!/usr/bin/env bash
# Extracts the true- and false-positive examples of every gitleaks rule from the gitleaks
# module in the Go module cache into examples.jsonl (one {"rule","tps","fps"} object per
# line). The examples only exist as arguments to utils.Validate in gitleaks'
# cmd/generate/config/rules package, so this copies that package and its helpers into a
# scratch module, patches Validate to write its arguments out, and runs the config
# generator. Run from anywhere inside the shared module:
#   bash testdata/gitleaks/extract.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "$here/../.." && go list -m -f '{{.Dir}}' github.com/zricethezav/gitleaks/v8)
version=$(cd "$here/../.." && go list -m -f '{{.Version}}' github.com/zricethezav/gitleaks/v8)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/generate"
cp -r "$dir/cmd/generate/config" "$dir/cmd/generate/secrets" "$work/generate/"
chmod -R u+w "$work"
rm -f "$work"/generate/config/*/*_test.go
find "$work" -name '*.go' -exec sed -i 's#github.com/zricethezav/gitleaks/v8/cmd/generate/#glx/generate/#g' {} +

v="$work/generate/config/utils/validate.go"
sed -i 's/^import (/import (\n\t"encoding\/json"\n\t"os"/' "$v"
sed -i 's/^func Validate(rule config.Rule, truePositives \[\]string, falsePositives \[\]string) \*config.Rule {/&\n\tdumpExamples(rule.RuleID, truePositives, falsePositives)/' "$v"
cat >>"$v" <<'GO'

func dumpExamples(id string, tps, fps []string) {
	f, err := os.OpenFile(os.Getenv("GITLEAKS_EXAMPLES_OUT"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	b, _ := json.Marshal(map[string]any{"rule": id, "tps": tps, "fps": fps})
	_, _ = f.Write(append(b, '\n'))
}
GO
printf 'module glx\n\ngo 1.26\n\nrequire github.com/zricethezav/gitleaks/v8 %s\n' "$version" >"$work/go.mod"
(cd "$work" && GOWORK=off GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1)
out="$work/examples.jsonl"
(cd "$work/generate/config" && GOWORK=off GITLEAKS_EXAMPLES_OUT="$out" go run . "$work/gitleaks.toml" >/dev/null)
mv "$out" "$here/examples.jsonl"
echo "wrote $(wc -l <"$here/examples.jsonl") rules' examples from gitleaks $version"
