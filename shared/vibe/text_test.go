package vibe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestTruncateAtWords(t *testing.T) {
	t.Parallel()
	require.Equal(t, "ok", Truncate("ok", 10))
	// A cut inside a word moves back to the word's start: no piece of a word is shown.
	require.Equal(t, "✔ rejects array responses from …", Truncate("✔ rejects array responses from cyspbot (0.10ms)", 38))
	// A cut between words stays where it falls.
	require.Equal(t, "one two …", Truncate("one two three", 9))
	// A word longer than the backoff is cut where the limit falls.
	require.Equal(t, strings.Repeat("a", 49)+Ellipsis, Truncate(strings.Repeat("a", 100), 50))
	// At most n characters, in any script, whatever n.
	for _, s := range []string{"Привет мир, как дела сегодня", "日本語のテキストを切る", strings.Repeat("ab ", 40), "x"} {
		for n := 0; n < 30; n++ {
			require.LessOrEqual(t, utf8.RuneCountInString(Truncate(s, n)), n)
			require.True(t, utf8.ValidString(Truncate(s, n)))
		}
	}
}
