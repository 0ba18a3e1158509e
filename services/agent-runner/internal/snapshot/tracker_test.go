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
