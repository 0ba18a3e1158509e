package vibe

import (
	"math/rand/v2"
	"slices"
	"strings"
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

// TestFormIndex compares the seen-secret index with the trie walk it replaces, occurrence
// by occurrence and in the same order, over random forms that overlap, nest and repeat.
func TestFormIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	word := func(min, n int) string {
		b := make([]byte, min+r.IntN(n))
		for i := range b {
			b[i] = "ab\x00"[r.IntN(3)]
		}
		return string(b)
	}
	type hit struct{ p, start, end int }
	for range 3000 {
		var forms []string
		seen := map[string]bool{}
		for range 1 + r.IntN(10) {
			if w := word(minSeenForm, 6); !seen[w] {
				seen[w] = true
				forms = append(forms, w)
			}
		}
		// Suffixes and prefixes of a form: occurrences that end together or start together.
		if f := forms[0]; len(f) > minSeenForm {
			for _, g := range []string{f[len(f)-minSeenForm:], f[:minSeenForm]} {
				if !seen[g] {
					seen[g] = true
					forms = append(forms, g)
				}
			}
		}
		text := word(0, 80)
		if r.IntN(2) == 0 {
			text += forms[r.IntN(len(forms))] + word(0, 5) + forms[r.IntN(len(forms))]
		}
		var want, got []hit
		ahocorasick.NewTrieBuilder().AddStrings(forms).Build().Walk([]byte(text), func(end, n, p int64) bool {
			want = append(want, hit{int(p), int(end - n + 1), int(end + 1)})
			return true
		})
		newFormIndex(forms).each(text, func(p, start, end int) { got = append(got, hit{p, start, end}) })
		require.Equal(t, want, got, "forms %q text %q", forms, text)
	}
}

// BenchmarkACMatcher walks the gates' and gitleaks' keyword automata over a 4 KB terminal
// text, lower-cased as the gates read it.
func BenchmarkACMatcher(b *testing.B) {
	san, err := NewSanitizer()
	require.NoError(b, err)
	text := strings.ToLower(benchTexts(b)["terminal"])
	g := extraGates()
	b.SetBytes(int64(3 * len(text)))
	n := 0
	for b.Loop() {
		for _, m := range []*acMatcher{san.gitleaks.prefilter, g.literals, g.keywords} {
			m.each(text, func(int, int) { n++ })
		}
	}
}

// TestANSIPrefilters checks that the literal checks in front of the escaped-ANSI and
// SGR-remnant expressions never skip a text either matches.
func TestANSIPrefilters(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{`\`, "u", "001", "b", "B", "x", "1", "033", "e", "[", "m", ";", "0", "9", "3", "a", " ", "]"}
	for range 200000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if escapedANSI.MatchString(s) {
			require.True(t, hasEscapedESC(s), "%q", s)
		}
		if sgrRemnant.MatchString(s) {
			require.True(t, hasBracketDigit(s), "%q", s)
		}
	}
}

// TestACMatcherUnionAndHits compares union (two walks at once) with the sets of the
// occurrences each reports, and acHits.next with strings.Index, over random patterns and
// texts of a small alphabet, short and long (the walks split only texts longer than four
// times the longest pattern).
func TestACMatcherUnionAndHits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	word := func(n int) string {
		b := make([]byte, 1+r.IntN(n))
		for i := range b {
			b[i] = "abcA\xff"[r.IntN(5)]
		}
		return string(b)
	}
	for range 3000 {
		var pats []string
		seen := map[string]bool{}
		for range 1 + r.IntN(12) {
			if w := word(6); !seen[w] {
				seen[w] = true
				pats = append(pats, w)
			}
		}
		m := newACMatcher(pats)
		rows := m.stateRows(1, func(p int, row []uint64) { row[0] |= 1 << p })
		text := word(1 + r.IntN(600))
		var want uint64
		m.each(text, func(p, _ int) { want |= 1 << p })
		var got [1]uint64
		found := m.union(text, rows, got[:])
		require.Equal(t, want, got[0], "patterns %q text %q", pats, text)
		require.Equal(t, want != 0, found)

		hits := m.hits(text, nil)
		for p, pat := range pats {
			for from := 0; ; {
				i := strings.Index(text[from:], pat)
				if i >= 0 {
					i += from
				}
				require.Equal(t, i, hits.next(p, from), "pattern %q text %q from %d", pat, text, from)
				if i < 0 {
					break
				}
				from = i + 1 + r.IntN(len(pat))
			}
		}
	}
}

// TestContainsFold compares containsFold with strings.Contains of each pattern over the
// lower-cased text.
func TestContainsFold(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	word := func(n int, alphabet string) string {
		b := make([]byte, 1+r.IntN(n))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 5000 {
		var pats []string
		for range 1 + r.IntN(8) {
			pats = append(pats, word(5, "ab-x*"))
		}
		m := newACMatcher(pats)
		text := word(40, "abAB-x*X_")
		want := false
		for _, p := range pats {
			want = want || strings.Contains(strings.ToLower(text), p)
		}
		require.Equal(t, want, m.containsFold(text), "patterns %q text %q", pats, text)
	}
	require.True(t, placeholderWords("MY_API_KEY_HERE_ChangeMe"))
	require.False(t, placeholderWords("sk-live-4f9a8b7c6d5e"))
}
