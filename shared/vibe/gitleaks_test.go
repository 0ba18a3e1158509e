package vibe

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGitleaksScannerMatchesDetector checks that the scanner (rules picked by keyword,
// applied without gitleaks' detector, some anchored at their literals) reports exactly what
// gitleaks' own detector finds with the same rules, in the same order: over every
// gitleaks rule example (true and false positives), the positive corpus, and the negative
// corpus of code and prose, line chunks as the sanitizer passes them.
func TestGitleaksScannerMatchesDetector(t *testing.T) {
	t.Parallel()
	full, err := newGitleaksDetector(gitleaksGenericRule)
	require.NoError(t, err)
	sc := newGitleaksScanner(full)

	var texts []string
	for _, e := range loadGitleaksExamples(t) {
		texts = append(texts, e.TPs...)
		texts = append(texts, e.FPs...)
	}
	for _, c := range loadPositiveCorpus(t) {
		texts = append(texts, c.Text)
	}
	for _, dir := range []string{"code", "prose"} {
		chunks, _ := negativeChunks(t, dir)
		texts = append(texts, chunks...)
	}

	found := 0
	for _, text := range texts {
		for off := 0; off < len(text); {
			end := chunkEnd(text, off)
			chunk := text[off:end]
			off = end
			var want, got []string
			gitleaksFindings(context.Background(), full, chunk, func(rule, secret string) { want = append(want, rule+"\x00"+secret) })
			sc.findings(context.Background(), chunk, strings.ToLower(chunk), func(rule, secret string) { got = append(got, rule+"\x00"+secret) })
			// In the same order too: the first rule to report a secret names it.
			require.Equal(t, want, got, "findings in %q", chunk)
			found += len(want)
		}
	}
	require.Greater(t, found, 500, "the texts hold secrets of many rules")
	t.Logf("%d texts, %d findings, identical", len(texts), found)
}
