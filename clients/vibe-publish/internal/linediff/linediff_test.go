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

func TestStatAndHunk(t *testing.T) {
	t.Parallel()
	a := "package p\n\nfunc f() int {\n\treturn 1\n}\n"
	b := "package p\n\nfunc f() int {\n\tx := 2\n\treturn x\n}\n"
	added, removed := Stat(a, b)
	require.Equal(t, 2, added)
	require.Equal(t, 1, removed)
	require.Equal(t, "@@\n func f() int {\n-\treturn 1\n+\tx := 2\n+\treturn x\n }", Hunk(a, b, 12))
	require.Equal(t, "@@\n func f() int {\n-\treturn 1", Hunk(a, b, 2), "cut at maxLines")
	require.Empty(t, Hunk(a, a, 12))
	require.Equal(t, "@@\n+a\n+b", Added("a\nb\nc\n", 2))
	require.Empty(t, Added("", 2))
}
