package snapshot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTrackerRevertAndUnrevert(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	st, err := New(t.TempDir())
	require.NoError(t, err)
	tr, err := NewTracker(st)
	require.NoError(t, err)
	write(t, root, "a.txt", "a1\n")
	write(t, root, "gone.txt", "bye\n")
	start := tree(t, root)

	require.NoError(t, tr.Begin(t.Context(), "ses_1", "msg_1", root))
	write(t, root, "a.txt", "a2\n")
	write(t, root, "sub/new.txt", "new\n")
	require.NoError(t, os.Remove(filepath.Join(root, "gone.txt")))
	d, err := tr.End(t.Context(), "ses_1", "msg_1")
	require.NoError(t, err)
	added, modified, deleted := d.Count()
	require.Equal(t, [3]int{1, 1, 1}, [3]int{added, modified, deleted})
	afterTurn := tree(t, root)

	require.NoError(t, tr.Begin(t.Context(), "ses_1", "msg_2", root))
	write(t, root, "a.txt", "a3\n")
	_, err = tr.End(t.Context(), "ses_1", "msg_2")
	require.NoError(t, err)
	latest := tree(t, root)

	_, err = tr.Revert(t.Context(), "ses_1", "msg_2")
	require.NoError(t, err)
	require.Equal(t, afterTurn, tree(t, root))
	r, err := tr.Revert(t.Context(), "ses_1", "msg_1") // further back, same un-revert point
	require.NoError(t, err)
	require.Equal(t, start, tree(t, root))
	require.Equal(t, "msg_1", r.MessageID)

	_, err = tr.Unrevert(t.Context(), "ses_1")
	require.NoError(t, err)
	require.Equal(t, latest, tree(t, root))
	_, err = tr.Unrevert(t.Context(), "ses_1")
	require.ErrorIs(t, err, ErrNotReverted)
	_, err = tr.Revert(t.Context(), "ses_1", "msg_unknown")
	require.ErrorIs(t, err, ErrNoTurn)
	_, err = tr.Revert(t.Context(), "../x", "msg_1")
	require.Error(t, err)
}

// TestRevertIsPerSession: two sessions take turns in one project; reverting one session's
// turn changes only the files that session changed, and leaves alone (reporting it) a file
// someone changed after it.
func TestRevertIsPerSession(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	st, err := New(t.TempDir())
	require.NoError(t, err)
	tr, err := NewTracker(st)
	require.NoError(t, err)
	write(t, root, "shared.txt", "v0\n")
	turn := func(session, msg string, change func()) {
		require.NoError(t, tr.Begin(t.Context(), session, msg, root))
		change()
		_, err := tr.End(t.Context(), session, msg)
		require.NoError(t, err)
	}
	turn("ses_x", "msg_x1", func() { write(t, root, "x/a.txt", "x\n"); write(t, root, "shared.txt", "v1\n") })
	turn("ses_y", "msg_y1", func() { write(t, root, "y/b.txt", "y\n") })
	r, err := tr.Revert(t.Context(), "ses_x", "msg_x1")
	require.NoError(t, err)
	require.Equal(t, map[string]string{"shared.txt": "v0\n", "y/": "", "y/b.txt": "y\n"}, tree(t, root))
	require.NoDirExists(t, filepath.Join(root, "x"), "the directory x's turn made is gone too")
	require.Empty(t, r.Conflicts)
	require.Len(t, r.Diff.Changes, 2)

	_, err = tr.Unrevert(t.Context(), "ses_x")
	require.NoError(t, err)
	turn("ses_y", "msg_y2", func() { write(t, root, "shared.txt", "v2 by y\n") })
	r, err = tr.Revert(t.Context(), "ses_x", "msg_x1")
	require.NoError(t, err)
	require.Equal(t, []string{"shared.txt"}, r.Conflicts)
	require.Equal(t, map[string]string{"shared.txt": "v2 by y\n", "y/": "", "y/b.txt": "y\n"}, tree(t, root))

	// A new turn while reverted drops the undone turns: unreverting has nothing to bring back.
	turn("ses_x", "msg_x2", func() { write(t, root, "x2.txt", "again\n") })
	l, err := tr.Log("ses_x")
	require.NoError(t, err)
	require.Len(t, l.Turns, 1)
	require.Equal(t, "msg_x2", l.Turns[0].MessageID)
	_, err = tr.Unrevert(t.Context(), "ses_x")
	require.ErrorIs(t, err, ErrNotReverted)
}

// TestUndoRedo: undo takes back the session's turns one at a time, newest first; redo
// brings them back one at a time; each touches only the session's own files.
func TestUndoRedo(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	st, err := New(t.TempDir())
	require.NoError(t, err)
	tr, err := NewTracker(st)
	require.NoError(t, err)
	turn := func(session, msg, file, content string) {
		require.NoError(t, tr.Begin(t.Context(), session, msg, root))
		write(t, root, file, content)
		_, err := tr.End(t.Context(), session, msg)
		require.NoError(t, err)
	}
	turn("ses_x", "msg_1", "a.txt", "1\n")
	turn("ses_x", "msg_2", "a.txt", "2\n")
	turn("ses_y", "msg_y", "y.txt", "y\n")
	turn("ses_x", "msg_3", "b.txt", "3\n")
	_, err = tr.Redo(t.Context(), "ses_x")
	require.ErrorIs(t, err, ErrNotReverted)
	states := []map[string]string{
		{"a.txt": "2\n", "y.txt": "y\n"},
		{"a.txt": "1\n", "y.txt": "y\n"},
		{"y.txt": "y\n"},
	}
	for _, want := range states {
		_, err := tr.Undo(t.Context(), "ses_x")
		require.NoError(t, err)
		require.Equal(t, want, tree(t, root))
	}
	_, err = tr.Undo(t.Context(), "ses_x")
	require.ErrorIs(t, err, ErrNothingToUndo)
	r, err := tr.Redo(t.Context(), "ses_x")
	require.NoError(t, err)
	require.Equal(t, "msg_2", r.MessageID, "the turns from msg_2 on stay undone")
	require.Equal(t, states[1], tree(t, root))
	_, err = tr.Redo(t.Context(), "ses_x")
	require.NoError(t, err)
	r, err = tr.Redo(t.Context(), "ses_x")
	require.NoError(t, err)
	require.Empty(t, r.MessageID, "everything redone")
	require.Equal(t, map[string]string{"a.txt": "2\n", "b.txt": "3\n", "y.txt": "y\n"}, tree(t, root))
}
