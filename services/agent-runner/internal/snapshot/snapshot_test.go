package snapshot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// tree reads every file under root (including ignored ones) as path → content.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if d.IsDir() {
			if p != root {
				out[filepath.ToSlash(mustRel(t, root, p))+"/"] = ""
			}
			return nil
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[filepath.ToSlash(mustRel(t, root, p))] = string(b)
		return nil
	}))
	return out
}

func mustRel(t *testing.T, root, p string) string {
	r, err := filepath.Rel(root, p)
	require.NoError(t, err)
	return r
}

func TestTurnIsRevertedByteForByte(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	st, err := New(t.TempDir())
	require.NoError(t, err)

	write(t, root, ".gitignore", "build/\n*.log\n")
	write(t, root, "main.go", "package main\n\nfunc main() {}\n")
	write(t, root, "pkg/util.go", "package pkg\n")
	write(t, root, "docs/old.md", "old\nnotes\n")
	write(t, root, "same-a.txt", "dup")
	write(t, root, "same-b.txt", "dup")
	write(t, root, "build/out.bin", "ignored before")
	write(t, root, "run.log", "ignored log")
	bin := string([]byte{0, 1, 2, 255, 254, '\n', 0})
	write(t, root, "data.bin", bin)
	require.NoError(t, os.Chmod(filepath.Join(root, "main.go"), 0o755))
	before := tree(t, root)

	s1, err := st.Take(t.Context(), root)
	require.NoError(t, err)
	require.Contains(t, s1.Files, "main.go")
	require.NotContains(t, s1.Files, "build/out.bin")
	require.NotContains(t, s1.Files, "run.log")
	require.Equal(t, s1.Files["same-a.txt"].Hash, s1.Files["same-b.txt"].Hash)

	// The turn: add files (one in a new directory), edit, delete, touch ignored files.
	write(t, root, "new.go", "package main\n// new\n")
	write(t, root, "newdir/deep/x.txt", "x\n")
	write(t, root, "main.go", "package main\n\nfunc main() { println(1) }\n")
	require.NoError(t, os.Remove(filepath.Join(root, "docs/old.md")))
	require.NoError(t, os.Remove(filepath.Join(root, "data.bin")))
	write(t, root, "build/out.bin", "ignored after")

	s2, err := st.Take(t.Context(), root)
	require.NoError(t, err)
	d := st.Diff(s1, s2)
	require.Equal(t, []Change{
		{Path: "data.bin", Op: Deleted},
		{Path: "docs/old.md", Op: Deleted, Lines: 2},
		{Path: "main.go", Op: Modified, Lines: 2},
		{Path: "new.go", Op: Added, Lines: 2},
		{Path: "newdir/deep/x.txt", Op: Added, Lines: 1},
	}, d.Changes)

	rd, err := st.Restore(t.Context(), s1)
	require.NoError(t, err)
	require.Len(t, rd.Changes, 5)
	after := tree(t, root)
	after["build/out.bin"] = before["build/out.bin"] // ignored files are not touched
	require.Equal(t, before, after)
	fi, err := os.Stat(filepath.Join(root, "main.go"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o755), fi.Mode().Perm())
	b, err := os.ReadFile(filepath.Join(root, "build/out.bin"))
	require.NoError(t, err)
	require.Equal(t, "ignored after", string(b))

	// Un-revert: back to the state after the turn.
	_, err = st.Restore(t.Context(), s2)
	require.NoError(t, err)
	again, err := st.Take(t.Context(), root)
	require.NoError(t, err)
	require.True(t, Compare(s2, again).Empty())

	// Snapshots load back from their manifests.
	got, err := st.Get(s1.ID)
	require.NoError(t, err)
	require.Equal(t, s1.Files, got.Files)
	_, err = st.Get("../etc")
	require.ErrorIs(t, err, ErrNotFound)
	_, err = st.Get("nope")
	require.ErrorIs(t, err, ErrNotFound)
}

func TestLargeFilesAreSkipped(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	st, err := New(t.TempDir())
	require.NoError(t, err)
	st.MaxFileBytes = 10
	write(t, root, "small", "ok")
	write(t, root, "big", "0123456789abcdef")
	s1, err := st.Take(t.Context(), root)
	require.NoError(t, err)
	require.Contains(t, s1.Files, "small")
	require.Equal(t, []string{"big"}, s1.Skipped)
	write(t, root, "big", "changed and still too big")
	_, err = st.Restore(t.Context(), s1)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, "big"))
	require.NoError(t, err)
	require.Equal(t, "changed and still too big", string(b), "oversized files are left alone")
}

func TestObjectsAreDeduplicated(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := t.TempDir()
	st, err := New(dir)
	require.NoError(t, err)
	for i := range 5 {
		write(t, root, filepath.Join("d", string(rune('a'+i))), "same content")
	}
	_, err = st.Take(t.Context(), root)
	require.NoError(t, err)
	_, err = st.Take(t.Context(), root)
	require.NoError(t, err)
	var objects int
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "objects"), func(p string, d os.DirEntry, err error) error {
		if !d.IsDir() {
			objects++
		}
		return err
	}))
	require.Equal(t, 1, objects)
}

func TestLinesChanged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		n    int
	}{
		{"", "a\nb\n", 2},
		{"a\nb\n", "", 2},
		{"a\nb\nc\n", "a\nB\nc\n", 2},
		{"a\n", "a\n", 0},
		{"a\x00", "b", 0},
	} {
		require.Equal(t, tc.n, LinesChanged([]byte(tc.a), []byte(tc.b)), "%q → %q", tc.a, tc.b)
	}
}
