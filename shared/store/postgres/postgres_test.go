package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/postgres"
	"openvibe.live/backend/shared/store/storetest"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newStore(t testing.TB) *postgres.Store {
	t.Helper()
	return newStoreAt(t, testenv.Postgres(t), 8)
}

// newStoreAt opens a store on url, migrating it.
func newStoreAt(t testing.TB, url string, maxConns int32) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url, postgres.Options{MaxConns: maxConns})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	db := stdlib.OpenDBFromPool(s.Pool())
	defer db.Close()
	require.NoError(t, migrations.Up(t.Context(), db, migrations.Postgres))
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t) })
}

func BenchmarkInsertVibeEvents(b *testing.B) {
	storetest.BenchmarkInsertVibeEvents(b, func(tb testing.TB) store.Store { return newStore(tb) })
}

// TestInsertFailureLeavesConnectionClean: a batch failing on the server inside the pipelined
// transaction is rolled back, and the single pooled connection is usable afterwards.
func TestInsertFailureLeavesConnectionClean(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	url := testenv.Postgres(t)
	setup := newStoreAt(t, url, 4)
	u, err := setup.CreateUser(ctx, "alice", "h")
	require.NoError(t, err)
	m, err := setup.CreateManagedStream(ctx, u.ID, "main", "Main", nil)
	require.NoError(t, err)
	v, err := setup.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID, SessionKey: "k"})
	require.NoError(t, err)

	s := newStoreAt(t, url, 1)
	ev := func(id string, live *int64) store.NewVibeEvent {
		return store.NewVibeEvent{ManagedStreamID: m.ID, SessionID: v.ID, EventID: id, EventType: "prompt",
			Visibility: vibe.VisibilityPublic, Payload: []byte(`{}`), LiveStreamID: live}
	}
	bad := int64(1 << 40)
	for range 3 {
		_, err = s.InsertVibeEvents(ctx, []store.NewVibeEvent{ev("a", nil), ev("b", &bad)})
		require.ErrorIs(t, err, store.ErrNotFound)
	}
	res, err := s.InsertVibeEvents(ctx, []store.NewVibeEvent{ev("a", nil)})
	require.NoError(t, err)
	require.EqualValues(t, 1, res[0].Event.Seq)

	canceled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.InsertVibeEvents(canceled, []store.NewVibeEvent{ev("c", nil)})
	require.Error(t, err)
	res, err = s.InsertVibeEvents(ctx, []store.NewVibeEvent{ev("c", nil)})
	require.NoError(t, err)
	require.EqualValues(t, 2, res[0].Event.Seq)
}
