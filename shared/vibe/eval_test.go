package vibe

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The evaluation corpora under testdata/eval were written by others (testdata/eval/
// manifest.json names the repository, commit, path and licence of every file) and split
// once, by the SHA-256 of each example's id, into a development half and a held-back half.
// CI measures the held-back half against the thresholds; rules are only ever tuned on the
// development half, whose misses -eval.show prints.
var (
	evalSplit = flag.String("eval.split", "held", "which half of testdata/eval to measure: dev or held")
	evalShow  = flag.Bool("eval.show", false, "print every miss and false redaction (development half only)")
)

const (
	evalSecretsFile  = "testdata/eval/secrets.jsonl"
	evalContextsFile = "testdata/eval/contexts.jsonl" // development half only
	evalContexts     = "agent-contexts"
)

type evalExample struct {
	ID string `json:"id"`
	// Group, when set, fixes the split in place of the id: the examples of one repository
	// of CredData share a half.
	Group   string   `json:"group,omitempty"`
	Source  string   `json:"source"`
	Split   string   `json:"split"`
	Class   string   `json:"class"`
	Label   string   `json:"label"`
	Text    string   `json:"text"`
	Secrets []string `json:"secrets"`
	// Before holds the texts the same session sanitized first (agent-contexts only).
	Before []string `json:"before,omitempty"`
}

// Example classes.
const (
	evalKnownFormat = "known-format"
	evalKeyword     = "keyword-context"
	evalHarmless    = "harmless"
	evalFormatNeg   = "format-negative"
)

// EvalSplitOf is the one split rule: the first byte of the id's SHA-256, even for dev.
func evalSplitOf(id string) string {
	if sha256.Sum256([]byte(id))[0]%2 == 0 {
		return "dev"
	}
	return "held"
}

func loadEvalExamples(t testing.TB, files ...string) []evalExample {
	t.Helper()
	var out []evalExample
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 4<<20), 4<<20)
		for sc.Scan() {
			var e evalExample
			require.NoError(t, json.Unmarshal(sc.Bytes(), &e))
			if e.Source == evalContexts {
				// Generated from the development half: never part of the held-back one.
				require.Equal(t, "dev", e.Split, "%s: agent contexts are development data", e.ID)
			} else {
				require.Equal(t, evalSplitOf(cmp.Or(e.Group, e.ID)), e.Split, "%s: the split is fixed by the id or group", e.ID)
				require.Empty(t, e.Before, "%s: only agent contexts span events", e.ID)
			}
			out = append(out, e)
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	return out
}

// secretLeaks reports whether out still holds the secret or any 8-character piece of it that
// the text did not hold outside the example's secrets (the key name `password` in
// `password=password123` is not a leak of the secret).
func secretLeaks(text, out, secret string, all []string) bool {
	if secret == "" {
		return false
	}
	out = redactionMark.ReplaceAllString(out, "\x00")
	rest := text
	for _, s := range slices.SortedFunc(slices.Values(all), func(a, b string) int { return len(b) - len(a) }) {
		if s != "" {
			rest = strings.ReplaceAll(rest, s, "\x00")
		}
	}
	for _, line := range strings.Split(secret, "\n") {
		line = strings.TrimSpace(line)
		if len(line) <= 8 {
			if len(line) >= 4 && strings.Contains(out, line) && !strings.Contains(rest, line) {
				return true
			}
			continue
		}
		for i := 0; i+8 <= len(line); i++ {
			piece := line[i : i+8]
			if strings.Contains(out, piece) && !strings.Contains(rest, piece) {
				return true
			}
		}
	}
	return false
}

var redactionMark = regexp.MustCompile(`\[redacted(?::[^\]]*)?\]`)

type evalTally struct{ n, bad int }

func (t *evalTally) add(bad bool) {
	t.n++
	if bad {
		t.bad++
	}
}

func (t evalTally) pct() float64 {
	if t.n == 0 {
		return 0
	}
	return 100 * float64(t.bad) / float64(t.n)
}

// TestSanitizerEvaluation measures the sanitizer on one half of the public corpora and
// enforces the thresholds on the held-back half: known-format secrets 100% caught,
// keyword-context ≥ 99%, secret-bearing events leaking < 0.5%, harmless events altered
// ≤ 1%. Figures per source and class go to the log (-v). Run the development half with
//
//	go test ./vibe -run TestSanitizerEvaluation -eval.split=dev -eval.show -v
func TestSanitizerEvaluation(t *testing.T) {
	t.Parallel()
	require.Contains(t, []string{"dev", "held"}, *evalSplit)
	show := *evalShow && *evalSplit == "dev"
	san, err := NewSanitizer()
	require.NoError(t, err)

	type key struct{ source, class string }
	tallies := map[key]*evalTally{}
	leak := map[string]*evalTally{} // per source: secret-bearing events leaking
	tally := func(k key) *evalTally {
		if tallies[k] == nil {
			tallies[k] = &evalTally{}
		}
		return tallies[k]
	}
	files := []string{evalSecretsFile}
	if *evalSplit == "dev" {
		files = append(files, evalContextsFile)
	}
	contexts := map[string]*evalTally{} // per context of agent-contexts
	for _, e := range loadEvalExamples(t, files...) {
		if e.Split != *evalSplit {
			continue
		}
		ss := san.NewSession(SessionHints{})
		for _, b := range e.Before {
			ss.SanitizeText(b)
		}
		out := ss.SanitizeText(e.Text)
		switch e.Class {
		case evalKnownFormat, evalKeyword:
			leaked := false
			for _, s := range e.Secrets {
				if secretLeaks(e.Text, out, s, e.Secrets) {
					leaked = true
				}
			}
			tally(key{e.Source, e.Class}).add(leaked)
			if e.Source == evalContexts {
				if contexts[e.Label] == nil {
					contexts[e.Label] = &evalTally{}
				}
				contexts[e.Label].add(leaked)
			}
			sums := []string{e.Source, "all"}
			if e.Source == evalContexts {
				sums = sums[:1] // "all" is the corpora written by others
			}
			for _, k := range sums {
				if leak[k] == nil {
					leak[k] = &evalTally{}
				}
				leak[k].add(leaked)
			}
			if leaked && show {
				t.Logf("MISS %s %s [%s]\n  in:  %q\n  out: %q", e.Class, e.ID, e.Label, e.Text, out)
			}
		case evalHarmless, evalFormatNeg:
			altered := strings.Count(out, "[redacted") > strings.Count(e.Text, "[redacted")
			tally(key{e.Source, e.Class}).add(altered)
			if altered && show {
				t.Logf("ALTERED %s %s [%s]\n  in:  %q\n  out: %q", e.Class, e.ID, e.Label, e.Text, out)
			}
		default:
			t.Fatalf("%s: unknown class %q", e.ID, e.Class)
		}
	}

	keys := make([]key, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.source+a.class, b.source+b.class) })
	byClass := map[string]*evalTally{}
	var report strings.Builder
	fmt.Fprintf(&report, "evaluation, %s half:\n", *evalSplit)
	for _, k := range keys {
		tl := tallies[k]
		fmt.Fprintf(&report, "  %-21s %-16s %s\n", k.source, k.class, evalFigure(k.class, *tl))
		if k.source == evalContexts {
			continue
		}
		if byClass[k.class] == nil {
			byClass[k.class] = &evalTally{}
		}
		byClass[k.class].n += tl.n
		byClass[k.class].bad += tl.bad
	}
	for _, c := range []string{evalKnownFormat, evalKeyword, evalHarmless, evalFormatNeg} {
		if tl := byClass[c]; tl != nil {
			fmt.Fprintf(&report, "  %-21s %-16s %s\n", "all", c, evalFigure(c, *tl))
		}
	}
	for _, s := range slices.Sorted(maps.Keys(leak)) {
		fmt.Fprintf(&report, "  %-21s %-16s %.2f%% (%d/%d) of secret-bearing events leak ≥ 8 characters\n", s, "leaking", leak[s].pct(), leak[s].bad, leak[s].n)
	}
	for _, c := range slices.Sorted(maps.Keys(contexts)) {
		fmt.Fprintf(&report, "  %-21s %-18s %s\n", evalContexts, c, evalFigure(evalKnownFormat, *contexts[c]))
	}
	t.Log(report.String())

	// The targets, and the floors this build is held to where a target is not met yet: a
	// figure below its floor is a regression and fails; one between floor and target is
	// reported as not met. The floors hold for the whole corpus and, so that figures stay
	// comparable from build to build, for the sources of the first build on their own; the
	// code sources are reported as a group of their own, without floors yet.
	sum := func(sources []string, class string) evalTally {
		var tl evalTally
		for k, v := range tallies {
			if k.class == class && (sources == nil && k.source != evalContexts || slices.Contains(sources, k.source)) {
				tl.n += v.n
				tl.bad += v.bad
			}
		}
		return tl
	}
	leaks := func(sources []string) evalTally {
		if sources == nil {
			return *leak["all"]
		}
		var tl evalTally
		for _, src := range sources {
			if l := leak[src]; l != nil {
				tl.n += l.n
				tl.bad += l.bad
			}
		}
		return tl
	}
	// The whole corpus has floors of its own, set with the eighteenth build, and so have the
	// first seventeen builds' sources, set with the seventeenth, the first sixteen builds' sources, set with the sixteenth, the first fifteen builds' sources, set with the fifteenth, the first fourteen builds' sources, set with the fourteenth, the first thirteen builds' sources, set with the thirteenth, the first twelve builds' sources, set with the twelfth, the first eleven builds' sources, set with the eleventh, and the first ten builds' sources,
	// set with the tenth; the sources of the first seven builds
	// keep the whole-corpus floors set with the seventh, those of the first six builds the
	// ones set with the sixth, those of the first five builds the ones set with the fifth,
	// those of the first four the ones set with the fourth, and those of the first three
	// builds theirs, comparable from build to build.
	var priorSources, fourBuildsSources, fiveBuildsSources, sixBuildsSources, sevenBuildsSources, tenBuildsSources, elevenBuildsSources, twelveBuildsSources, thirteenBuildsSources, fourteenBuildsSources, fifteenBuildsSources, sixteenBuildsSources, seventeenBuildsSources []string
	for k := range tallies {
		if slices.Contains(eighteenthBuildSources, k.source) {
			continue
		}
		if k.source != evalContexts && !slices.Contains(seventeenBuildsSources, k.source) {
			seventeenBuildsSources = append(seventeenBuildsSources, k.source)
		}
		if slices.Contains(seventeenthBuildSources, k.source) {
			continue
		}
		if k.source != evalContexts && !slices.Contains(sixteenBuildsSources, k.source) {
			sixteenBuildsSources = append(sixteenBuildsSources, k.source)
		}
		if slices.Contains(sixteenthBuildSources, k.source) {
			continue
		}
		if k.source != evalContexts && !slices.Contains(fifteenBuildsSources, k.source) {
			fifteenBuildsSources = append(fifteenBuildsSources, k.source)
		}
		if slices.Contains(fifteenthBuildSources, k.source) {
			continue
		}
		if k.source != evalContexts && !slices.Contains(fourteenBuildsSources, k.source) {
			fourteenBuildsSources = append(fourteenBuildsSources, k.source)
		}
		if slices.Contains(fourteenthBuildSources, k.source) {
			continue
		}
		if k.source != evalContexts && !slices.Contains(thirteenBuildsSources, k.source) {
			thirteenBuildsSources = append(thirteenBuildsSources, k.source)
		}
		if slices.Contains(thirteenthBuildSources, k.source) {
			continue
		}
		if k.source != evalContexts && !slices.Contains(twelveBuildsSources, k.source) {
			twelveBuildsSources = append(twelveBuildsSources, k.source)
		}
		if k.source != evalContexts && !slices.Contains(twelfthBuildSources, k.source) && !slices.Contains(elevenBuildsSources, k.source) {
			elevenBuildsSources = append(elevenBuildsSources, k.source)
		}
		if k.source != evalContexts && !slices.Contains(twelfthBuildSources, k.source) && !slices.Contains(eleventhBuildSources, k.source) &&
			!slices.Contains(tenBuildsSources, k.source) {
			tenBuildsSources = append(tenBuildsSources, k.source)
		}
		if k.source == evalContexts || slices.Contains(eighthBuildSources, k.source) || slices.Contains(ninthBuildSources, k.source) ||
			slices.Contains(tenthBuildSources, k.source) || slices.Contains(eleventhBuildSources, k.source) ||
			slices.Contains(twelfthBuildSources, k.source) || slices.Contains(sevenBuildsSources, k.source) {
			continue
		}
		sevenBuildsSources = append(sevenBuildsSources, k.source)
		if slices.Contains(seventhBuildSources, k.source) {
			continue
		}
		sixBuildsSources = append(sixBuildsSources, k.source)
		if slices.Contains(sixthBuildSources, k.source) {
			continue
		}
		fiveBuildsSources = append(fiveBuildsSources, k.source)
		if slices.Contains(fifthBuildSources, k.source) {
			continue
		}
		fourBuildsSources = append(fourBuildsSources, k.source)
		if !slices.Contains(fourthBuildSources, k.source) {
			priorSources = append(priorSources, k.source)
		}
	}
	for _, set := range []struct {
		name    string
		sources []string
		floors  *evalFloors // nil: reported, not held to floors yet
	}{{"all sources", nil, &eighteenBuildsFloors}, {"first seventeen builds' sources", seventeenBuildsSources, &seventeenBuildsFloors},
		{"first sixteen builds' sources", sixteenBuildsSources, &sixteenBuildsFloors},
		{"first fifteen builds' sources", fifteenBuildsSources, &fifteenBuildsFloors},
		{"first fourteen builds' sources", fourteenBuildsSources, &fourteenBuildsFloors},
		{"first thirteen builds' sources", thirteenBuildsSources, &thirteenBuildsFloors},
		{"first twelve builds' sources", twelveBuildsSources, &twelveBuildsFloors},
		{"first eleven builds' sources", elevenBuildsSources, &elevenBuildsFloors},
		{"first ten builds' sources", tenBuildsSources, &tenBuildsFloors},
		{"first seven builds' sources", sevenBuildsSources, &sevenBuildsFloors},
		{"first six builds' sources", sixBuildsSources, &sixBuildsFloors},
		{"first five builds' sources", fiveBuildsSources, &fiveBuildsFloors},
		{"first four builds' sources", fourBuildsSources, &allFloors},
		{"first three builds' sources", priorSources, &heldFloors},
		{"first-build sources", firstBuildSources, &firstBuildFloors},
		{"code sources", codeSources, nil}, {"fourth-build sources", fourthBuildSources, nil},
		{"fifth-build sources", fifthBuildSources, &fifthBuildFloors},
		{"sixth-build sources", sixthBuildSources, &sixthBuildFloors},
		{"seventh-build sources", seventhBuildSources, &seventhBuildFloors},
		{"eighth-build sources", eighthBuildSources, &eighthBuildFloors},
		{"ninth-build sources", ninthBuildSources, &ninthBuildFloors},
		{"tenth-build sources", tenthBuildSources, &tenthBuildFloors},
		{"eleventh-build sources", eleventhBuildSources, &eleventhBuildFloors},
		{"twelfth-build sources", twelfthBuildSources, &twelfthBuildFloors},
		{"thirteenth-build sources", thirteenthBuildSources, &thirteenthBuildFloors},
		{"fourteenth-build sources", fourteenthBuildSources, &fourteenthBuildFloors},
		{"fifteenth-build sources", fifteenthBuildSources, &fifteenthBuildFloors},
		{"sixteenth-build sources", sixteenthBuildSources, &sixteenthBuildFloors},
		{"seventeenth-build sources", seventeenthBuildSources, &seventeenthBuildFloors},
		{"eighteenth-build sources", eighteenthBuildSources, &eighteenthBuildFloors}} {
		known, keyword, leaking := sum(set.sources, evalKnownFormat), sum(set.sources, evalKeyword), leaks(set.sources)
		t.Logf("%s: known-format %s, keyword-context %s, leaking %.2f%% (%d/%d), format negatives %s", set.name,
			evalFigure(evalKnownFormat, known), evalFigure(evalKeyword, keyword), leaking.pct(), leaking.bad, leaking.n,
			evalFigure(evalFormatNeg, sum(set.sources, evalFormatNeg)))
		if set.floors == nil || *evalSplit != "held" {
			continue
		}
		checks := []struct {
			name           string
			got            float64 // percent
			target, floor  float64
			higherIsBetter bool
		}{
			{"known-format secrets caught", 100 - known.pct(), 100, set.floors.knownFormat, true},
			{"keyword-context secrets caught", 100 - keyword.pct(), 99, set.floors.keyword, true},
			{"secret-bearing events leaking", leaking.pct(), 0.5, set.floors.leaking, false},
		}
		for _, c := range checks {
			met := c.higherIsBetter && c.got >= c.target || !c.higherIsBetter && c.got < c.target
			if !met {
				t.Logf("TARGET NOT MET on the held-back half (%s): %s %.2f%% (target %s%.1f%%)", set.name, c.name, c.got, map[bool]string{true: "≥ ", false: "< "}[c.higherIsBetter], c.target)
			}
			if c.higherIsBetter {
				require.GreaterOrEqualf(t, c.got, c.floor, "%s (%s) fell below its floor", c.name, set.name)
			} else {
				require.LessOrEqualf(t, c.got, c.floor, "%s (%s) rose above its floor", c.name, set.name)
			}
		}
	}
}

type evalFloors struct{ knownFormat, keyword, leaking float64 }

// The floors: just short of the held-back figures of the last build measured, the level
// below which a change is a regression. They move only toward the targets, with the
// figures in docs/sanitizer.md. The first build's sources (CredSweeper, detect-secrets,
// secrets-patterns-db) keep floors of their own, comparable with the first build's.
var (
	allFloors         = evalFloors{knownFormat: 96.2, keyword: 94.6, leaking: 4.9}
	heldFloors        = evalFloors{knownFormat: 96, keyword: 94.9, leaking: 4.8}
	firstBuildSources = []string{"credsweeper", "detect-secrets", "secrets-patterns-db"}
	firstBuildFloors  = evalFloors{knownFormat: 95.5, keyword: 92.4, leaking: 6.4}
	// The code sources (testdata/eval/sources3.py): credentials written into code, build
	// files and cloud configuration, labelled by static analysers' and scanners' tests.
	codeSources = []string{"trivy", "gosec", "bandit", "semgrep-rules"}
	// The fourth build (testdata/eval/sources4.py): infrastructure-as-code files (Terraform,
	// CloudFormation, Kubernetes, Ansible, Dockerfiles, ARM) from KICS's secret query tests.
	fourthBuildSources = []string{"kics"}
	// The fifth build (testdata/eval/sources5.py): the test rows of OSV-SCALIBR's secret
	// detectors (veles), token formats and the names and headers around keyed secrets.
	fifthBuildSources = []string{"osv-scalibr"}
	fifthBuildFloors  = evalFloors{knownFormat: 89.4, keyword: 89.9, leaking: 10.5}
	// The first five builds' sources together (the whole corpus with the fifth build).
	fiveBuildsFloors = evalFloors{knownFormat: 95.7, keyword: 94.6, leaking: 5.1}
	// The sixth build (testdata/eval/sources6.py): Earlybird's tests of its credential rules
	// and false-positive filters, passwords, secrets and keys in config files, code and headers.
	sixthBuildSources = []string{"earlybird"}
	sixthBuildFloors  = evalFloors{knownFormat: 99.9, keyword: 83.3, leaking: 12.6}
	// The whole corpus with the sixth build.
	sixBuildsFloors = evalFloors{knownFormat: 95.7, keyword: 94.5, leaking: 5.2}
	// The seventh build (testdata/eval/sources7.py): CredData, lines of real repositories
	// that scanners flagged, reviewed by hand as credentials or not, split by repository.
	// Floors just short of its held-back figures after the rules fitted on its development
	// half (first figures 93.48 / 89.81 / 9.72%).
	seventhBuildSources = []string{"creddata"}
	seventhBuildFloors  = evalFloors{knownFormat: 95.6, keyword: 91.5, leaking: 7.95}
	// The whole corpus with the seventh build. Its floors gave up one value (93.52 →
	// 93.46%, leaking 5.94 → 5.99%) when a constant's name that ends in what it holds
	// (GCR_USERNAME, A_BEAUTIFUL_JOIN_TOKEN) was kept as the stand-in it is; that also kept
	// six false redactions of the held-back negatives.
	sevenBuildsFloors = evalFloors{knownFormat: 95.7, keyword: 93.45, leaking: 6.0}
	// The eighth build (testdata/eval/sources8.py): the examples SonarSource wrote beside
	// each rule of its secret detector (sonar-text), code, configuration and command lines
	// said to hold a secret or not.
	eighthBuildSources = []string{"sonar-text"}
	// Floors just short of its held-back figures after the rules fitted on its development
	// half (first figures 98.15 / 91.67 / 5.26%).
	eighthBuildFloors = evalFloors{knownFormat: 99.9, keyword: 93.3, leaking: 3.55}
	// The ninth build (testdata/eval/sources9.py): the detector tests of octarinesec's
	// secret-detector, GitHub's secret scanning custom patterns with their sample files, and
	// the tests of the plugins IBM's fork of detect-secrets added or changed.
	ninthBuildSources = []string{"secret-detector", "custom-patterns", "ibm-detect-secrets"}
	// After its development half (first figures 85.71 / 90.24 / 11.59%).
	ninthBuildFloors = evalFloors{knownFormat: 89.2, keyword: 90.2, leaking: 10.2}
	// The tenth build (testdata/eval/sources10.py): the test cases KeyHog's detectors carry,
	// a string each must flag and one it must not.
	tenthBuildSources = []string{"keyhog"}
	// After its development half (first figures 92.06 / 90.10 / 9.43%).
	tenthBuildFloors = evalFloors{knownFormat: 92.0, keyword: 90.5, leaking: 9.1}
	// The whole corpus with the tenth build.
	tenBuildsFloors = evalFloors{knownFormat: 95.4, keyword: 93.1, leaking: 6.3}
	// The eleventh build (testdata/eval/sources11.py): the examples of the rules Titus (Nosey
	// Parker's successor) carries that the corpus had none of, each rule's examples in one
	// half.
	eleventhBuildSources = []string{"titus"}
	// Its first figures; its development half (98.21 / 96.55 / 2.63%) showed no class of its own.
	eleventhBuildFloors = evalFloors{knownFormat: 92.5, keyword: 91.0, leaking: 8.2}
	// The whole corpus with the eleventh build.
	elevenBuildsFloors = evalFloors{knownFormat: 95.2, keyword: 93.0, leaking: 6.4}
	// The twelfth build (testdata/eval/sources12.py): the samples Horusec's leaks rules, Checkov's
	// secrets tests and DevSkim's token rules are tested with, each rule's (or test input
	// directory's) examples in one half.
	twelfthBuildSources = []string{"horusec", "checkov", "devskim"}
	// Its first figures (100.00 / 75.00 / 10.00%, of 6 known-format and 4 keyword-context
	// held-back secrets); its development half (100 / 100 / 0%) showed nothing to learn.
	twelfthBuildFloors = evalFloors{knownFormat: 99.9, keyword: 74.9, leaking: 10.1}
	// The whole corpus with the twelfth build.
	twelveBuildsFloors = evalFloors{knownFormat: 95.3, keyword: 93.8, leaking: 5.8}
	// The thirteenth build (testdata/eval/sources13.py): the literals CodeQL's hard-coded
	// credential query tests expect flagged, and the lines beside them they expect nothing of,
	// each test file's examples in one half.
	thirteenthBuildSources = []string{"codeql"}
	// Its first figures (100.00 / 0.00%, of 8 keyword-context held-back secrets; no
	// known-format one); its development half caught 5 of 8.
	thirteenthBuildFloors = evalFloors{knownFormat: 99.9, keyword: 99.9, leaking: 0.1}
	// The whole corpus with the thirteenth build.
	thirteenBuildsFloors = evalFloors{knownFormat: 95.3, keyword: 93.9, leaking: 5.75}
	// The fourteenth build (testdata/eval/sources14.py): the true and false positives Checkmarx'
	// 2ms tests its secret rules with, each rule's examples in one half.
	fourteenthBuildSources = []string{"2ms"}
	// Its first figures (100.00 / 100.00 / 0.00%, of 53 known-format and 35 keyword-context
	// held-back secrets; 20.00% of 80 format negatives altered).
	fourteenthBuildFloors = evalFloors{knownFormat: 99.9, keyword: 99.9, leaking: 0.1}
	// The whole corpus with the fourteenth build.
	fourteenBuildsFloors = evalFloors{knownFormat: 95.6, keyword: 94.0, leaking: 5.6}
	// The fifteenth build (testdata/eval/sources15.py): what the tests of Datadog's agent
	// scrubber expect it to replace and leave, and the values Syft's secrets cataloger test
	// expects found in its fixtures, each test function's (or fixture's) examples in one half.
	fifteenthBuildSources = []string{"datadog-scrubber", "syft"}
	// Its first figures (50.00 / 60.00 / 44.44%, of 4 known-format and 5 keyword-context
	// held-back secret-bearing events; no held-back format negative).
	fifteenthBuildFloors = evalFloors{knownFormat: 49.9, keyword: 59.9, leaking: 44.5}
	// The whole corpus with the fifteenth build.
	fifteenBuildsFloors = evalFloors{knownFormat: 95.3, keyword: 93.9, leaking: 5.7}
	// The sixteenth build (testdata/eval/sources16.py): the findings DeepSecrets' engine tests
	// expect in their fixtures, what dd-trace-go's query string obfuscator and GitLab Runner's
	// URL sanitizer are tested to replace and leave, each test function's examples in one half.
	sixteenthBuildSources = []string{"deepsecrets", "dd-trace-go", "gitlab-runner"}
	// Its first figures (63.64 / 80.00 / 28.57%, of 11 known-format and 10 keyword-context
	// held-back secret-bearing events; 3 of 24 held-back format negatives altered).
	sixteenthBuildFloors = evalFloors{knownFormat: 63.5, keyword: 79.9, leaking: 28.6}
	// The whole corpus with the sixteenth build.
	sixteenBuildsFloors = evalFloors{knownFormat: 94.9, keyword: 93.8, leaking: 5.9}
	// The seventeenth build (testdata/eval/sources17.py): what the Cloud Foundry CLI's request
	// trace sanitizer, Snyk's log scrubber and Composer's URL and command sanitizers are tested
	// to hide and leave, each test's examples in one half.
	seventeenthBuildSources = []string{"cf-cli", "snyk", "composer"}
	// Its first figures (87.50 / 50.00 / 35.00%, of 8 known-format and 12 keyword-context
	// held-back secret-bearing events; 0 of 5 held-back format negatives altered).
	seventeenthBuildFloors = evalFloors{knownFormat: 87.4, keyword: 49.9, leaking: 35.1}
	// The whole corpus with the seventeenth build.
	seventeenBuildsFloors = evalFloors{knownFormat: 94.8, keyword: 93.6, leaking: 6.1}
	// The eighteenth build (testdata/eval/sources18.py): what semantic-release's
	// hide-sensitive, pip's URL redaction, conda's channel token filter and the telemetry
	// anonymizer of Copilot for Eclipse are tested to hide and leave, each test's examples in
	// one half.
	eighteenthBuildSources = []string{"semantic-release", "pip", "conda", "copilot-for-eclipse"}
	// Its first figures (100.00 / 75.00 / 22.22%, of 1 known-format and 8 keyword-context
	// held-back secret-bearing events; 0 of 30 held-back format negatives altered).
	eighteenthBuildFloors = evalFloors{knownFormat: 99.9, keyword: 74.9, leaking: 22.3}
	// The whole corpus with the eighteenth build.
	eighteenBuildsFloors = evalFloors{knownFormat: 94.8, keyword: 93.5, leaking: 6.1}
)

func evalFigure(class string, tl evalTally) string {
	switch class {
	case evalKnownFormat, evalKeyword:
		return fmt.Sprintf("%.2f%% caught (%d/%d)", 100-tl.pct(), tl.n-tl.bad, tl.n)
	}
	return fmt.Sprintf("%.2f%% altered (%d/%d)", tl.pct(), tl.bad, tl.n)
}
