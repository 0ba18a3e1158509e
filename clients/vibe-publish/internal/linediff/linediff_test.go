package linediff

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChangedLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		n    int
	}{
		{"", "", 0},
		{"x\n", "x\n", 0},
		{"", "a\nb\n", 2},
		{"a\nb\nc", "a\nB\nc", 2},
		{"a\nb\nc", "a\nc", 1},
		{"a\nb", "a\nb\nc\nd", 2},
		{"1\n2\n3\n4", "0\n1\n2\n3\n4\n5", 2},
	}
	for _, c := range cases {
		require.Equal(t, c.n, Changed(c.a, c.b), "%q → %q", c.a, c.b)
	}
}
