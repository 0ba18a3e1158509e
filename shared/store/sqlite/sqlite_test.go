package sqlite_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/sqlite"
	"openvibe.live/backend/shared/store/storetest"
	"openvibe.live/backend/shared/vibe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newStore(t testing.TB) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "openvibe.db"), sqlite.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	require.NoError(t, migrations.Up(t.Context(), s.DB(), migrations.SQLite))
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t) })
}

func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	cases := []struct{ name, path string }{
		{"plain path in a new directory", filepath.Join(dir, "a", "b", "plain.db")},
		{"file URI", "file:" + filepath.Join(dir, "uri.db") + "?cache=private"},
		{"in memory", ":memory:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sqlite.Open(ctx, tc.path, sqlite.Options{})
			require.NoError(t, err)
			defer s.Close()
			require.NoError(t, migrations.Up(ctx, s.DB(), migrations.SQLite))
			require.NoError(t, s.Ping(ctx))
			u, err := s.CreateUser(ctx, "alice", "h")
			require.NoError(t, err)
			got, err := s.UserByID(ctx, u.ID)
			require.NoError(t, err, "reads see the write")
			require.Equal(t, "alice", got.Username)
		})
	}
	for _, bad := range []string{"", "file:"} {
		_, err := sqlite.Open(ctx, bad, sqlite.Options{})
		require.Error(t, err, bad)
	}
}

func TestPragmas(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	var mode string
	var fk, busy int
	require.NoError(t, s.DB().QueryRowContext(t.Context(), `PRAGMA journal_mode`).Scan(&mode))
	require.NoError(t, s.DB().QueryRowContext(t.Context(), `PRAGMA foreign_keys`).Scan(&fk))
	require.NoError(t, s.DB().QueryRowContext(t.Context(), `PRAGMA busy_timeout`).Scan(&busy))
	require.Equal(t, "wal", mode)
	require.Equal(t, 1, fk)
	require.Equal(t, 5000, busy)
}

// TestReopen: data survives closing and reopening the file.
func TestReopen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "openvibe.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	require.NoError(t, err)
	require.NoError(t, migrations.Up(ctx, s.DB(), migrations.SQLite))
	_, err = s.CreateUser(ctx, "alice", "h")
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = sqlite.Open(ctx, path, sqlite.Options{})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, migrations.Check(ctx, s.DB(), migrations.SQLite))
	_, err = s.UserByUsername(ctx, "ALICE")
	require.NoError(t, err)
}

func BenchmarkInsertVibeEvents(b *testing.B) {
	storetest.BenchmarkInsertVibeEvents(b, func(tb testing.TB) store.Store { return newStore(tb) })
}

// TestTwoHandlesOneFile: two stores on one file (two processes, say) still number a slot's
// events without gaps or reuse: IMMEDIATE transactions and the busy timeout serialize them.
func TestTwoHandlesOneFile(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "shared.db")
	a, err := sqlite.Open(ctx, path, sqlite.Options{})
	require.NoError(t, err)
	defer a.Close()
	require.NoError(t, migrations.Up(ctx, a.DB(), migrations.SQLite))
	b, err := sqlite.Open(ctx, path, sqlite.Options{})
	require.NoError(t, err)
	defer b.Close()

	u, err := a.CreateUser(ctx, "alice", "h")
	require.NoError(t, err)
	m, err := a.CreateManagedStream(ctx, u.ID, "main", "Main", nil)
	require.NoError(t, err)
	v, err := a.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID, SessionKey: "k"})
	require.NoError(t, err)

	const perHandle, batch = 20, 5
	var wg sync.WaitGroup
	for h, s := range []*sqlite.Store{a, b} {
		wg.Go(func() {
			for i := range perHandle {
				events := make([]store.NewVibeEvent, batch)
				for j := range events {
					events[j] = store.NewVibeEvent{ManagedStreamID: m.ID, SessionID: v.ID,
						EventID: fmt.Sprintf("h%d-%d-%d", h, i, j), EventType: "prompt",
						Visibility: vibe.VisibilityPublic, Payload: []byte(`{}`)}
				}
				_, err := s.InsertVibeEvents(ctx, events)
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	got, err := b.VibeEventsAfter(ctx, m.ID, 0, 1000)
	require.NoError(t, err)
	require.Len(t, got, 2*perHandle*batch)
	for i, e := range got {
		require.EqualValues(t, i+1, e.Seq)
	}
}
