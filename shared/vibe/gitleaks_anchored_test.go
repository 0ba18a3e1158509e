package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAnchoredRules checks that every rule run from its literals finds exactly the matches
// its expression finds, over gitleaks' own examples of every rule (each alone, all of them
// joined, and glued to word characters to test the boundary), the evaluation corpus and the
// benchmark texts.
func TestAnchoredRules(t *testing.T) {
	san, err := NewSanitizer()
	require.NoError(t, err)
	sc := san.gitleaks
	require.NotEmpty(t, sc.anchored)
	var texts []string
	var joined strings.Builder
	for _, e := range loadGitleaksExamples(t) {
		for _, x := range append(e.TPs, e.FPs...) {
			texts = append(texts, x, "a"+x, x+"\n"+x, "-"+x+"_")
			joined.WriteString(x + "\n")
		}
	}
	texts = append(texts, joined.String())
	for _, e := range loadEvalExamples(t, evalSecretsFile) {
		if e.Split == "dev" {
			texts = append(texts, e.Text)
		}
	}
	for _, x := range benchTexts(t) {
		texts = append(texts, x)
	}
	matched := map[string]int{}
	for id, a := range sc.anchored {
		re := sc.cfg.Rules[id].Regex
		for _, x := range texts {
			want := re.FindAllStringIndex(x, -1)
			require.Equal(t, want, a.findAll(x), "rule %s on %q", id, x)
			matched[id] += len(want)
		}
	}
	hit := 0
	for _, n := range matched {
		if n > 0 {
			hit++
		}
	}
	t.Logf("%d anchored rules, %d of them with matches in the texts", len(sc.anchored), hit)
	require.Greater(t, hit, len(sc.anchored)*3/4)
}

// TestAnchoredAllowlists checks that each allowlist run as one anchored expression allows
// exactly what gitleaks' own check allows, over gitleaks' examples, their secrets' likely
// stand-ins and the corpus's secrets.
func TestAnchoredAllowlists(t *testing.T) {
	san, err := NewSanitizer()
	require.NoError(t, err)
	sc := san.gitleaks
	require.NotEmpty(t, sc.allowRe, "the global allowlist is anchored")
	targets := []string{"", "true", "FALSE", "null", "aaaa", "${HOME}", "$API_KEY", "{{ secrets.X }}", "${{ secrets.TOKEN }}",
		"%APPDATA%", "%s", "{0}", "@TOKEN@", "/Users/alice/x", "/etc/passwd", "$1", "x${HOME}", "ab$API_KEY"}
	for _, e := range loadGitleaksExamples(t) {
		for _, x := range append(e.TPs, e.FPs...) {
			targets = append(targets, x, strings.TrimSpace(x))
		}
	}
	for _, e := range loadEvalExamples(t, evalSecretsFile) {
		if e.Split == "dev" {
			targets = append(targets, e.Secrets...)
		}
	}
	allowed := 0
	for a, re := range sc.allowRe {
		for _, x := range targets {
			want := a.RegexAllowed(x)
			require.Equal(t, want, x != "" && re.MatchString(x), "%q", x)
			if want {
				allowed++
			}
		}
	}
	require.Greater(t, allowed, 10)
}
