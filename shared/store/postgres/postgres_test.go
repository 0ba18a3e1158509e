package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/postgres"
	"openvibe.live/backend/shared/store/storetest"
	"openvibe.live/backend/shared/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newStore(t testing.TB) *postgres.Store {
	t.Helper()
	url := testenv.Postgres(t)
	s, err := postgres.Open(t.Context(), url, postgres.Options{MaxConns: 8})
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
