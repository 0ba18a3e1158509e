package vibe

import (
	"math/rand/v2"
	"slices"
	"testing"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/stretchr/testify/require"
)

// TestACMatcher compares every occurrence acMatcher reports with the trie walk it replaces,
// over random patterns and texts of a small alphabet (so that patterns overlap, nest and
// share suffixes) and the rules' own keywords over the benchmark texts.
func TestACMatcher(t *testing.T) {
	type hit struct{ p, end int }
	compare := func(patterns []string, text string) {
		t.Helper()
		var want, got []hit
		ahocorasick.NewTrieBuilder().AddStrings(patterns).Build().Walk([]byte(text), func(end, _, p int64) bool {
			want = append(want, hit{int(p), int(end) + 1})
			return true
		})
		newACMatcher(patterns).each(text, func(p, end int) { got = append(got, hit{p, end}) })
		cmp := func(a, b hit) int { return a.end*1000 + a.p - b.end*1000 - b.p }
		slices.SortFunc(want, cmp)
		slices.SortFunc(got, cmp)
		require.Equal(t, want, got, "patterns %q text %q", patterns, text)
	}
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, 1+r.IntN(n))
		for i := range b {
			b[i] = "abcA\xff"[r.IntN(5)]
		}
		return string(b)
	}
	for range 2000 {
		var pats []string
		seen := map[string]bool{}
		for range 1 + r.IntN(12) {
			if w := word(5); !seen[w] {
				seen[w] = true
				pats = append(pats, w)
			}
		}
		compare(pats, word(60))
	}
	san, err := NewSanitizer()
	require.NoError(t, err)
	kws := san.gitleaks.keywords
	for _, text := range benchTexts(t) {
		compare(kws, text)
		compare(kws, text[:100])
	}
}
