package stores_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct{ url, backend, target string }{
		{"postgres://u@h/db?sslmode=disable", migrations.Postgres, "postgres://u@h/db?sslmode=disable"},
		{"postgresql://u@h/db", migrations.Postgres, "postgresql://u@h/db"},
		{"sqlite:/var/lib/ov/ov.db", migrations.SQLite, "/var/lib/ov/ov.db"},
		{"sqlite:///var/lib/ov/ov.db", migrations.SQLite, "/var/lib/ov/ov.db"},
		{"sqlite:data/ov.db", migrations.SQLite, "data/ov.db"},
		{"sqlite:data/ov.db?cache=private", migrations.SQLite, "file:data/ov.db?cache=private"},
		{"file:/tmp/x.db?cache=private", migrations.SQLite, "file:/tmp/x.db?cache=private"},
		{"/tmp/x.db", migrations.SQLite, "/tmp/x.db"},
		{"data/x.db", migrations.SQLite, "data/x.db"},
		{":memory:", migrations.SQLite, ":memory:"},
	}
	for _, tc := range cases {
		backend, target, err := stores.Parse(tc.url)
		require.NoError(t, err, tc.url)
		require.Equal(t, tc.backend, backend, tc.url)
		require.Equal(t, tc.target, target, tc.url)
	}
	for _, bad := range []string{"", "mysql://u@h/db", "sqlite:", "redis://localhost"} {
		_, _, err := stores.Parse(bad)
		require.Error(t, err, bad)
	}
}

func TestOpenSQLite(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "data", "nested", "openvibe.db")

	_, err := stores.Open(ctx, path, stores.Options{})
	require.ErrorIs(t, err, migrations.ErrSchemaMismatch, "an unmigrated database is refused")

	s, err := stores.Open(ctx, "sqlite:"+path, stores.Options{Migrate: true})
	require.NoError(t, err)
	_, err = s.CreateUser(ctx, "alice", "h")
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s, err = stores.Open(ctx, path, stores.Options{})
	require.NoError(t, err, "a migrated database opens without migrating")
	_, err = s.UserByUsername(ctx, "alice")
	require.NoError(t, err)
	require.NoError(t, s.Close())

	bumpVersion(t, "sqlite", "file:"+path)
	_, err = stores.Open(ctx, path, stores.Options{Migrate: true})
	require.ErrorIs(t, err, migrations.ErrSchemaMismatch, "a newer schema is refused even with Migrate")
	require.ErrorContains(t, err, "upgrade the binary")
}

func TestOpenPostgres(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	url := testenv.Postgres(t)

	_, err := stores.Open(ctx, url, stores.Options{})
	require.ErrorIs(t, err, migrations.ErrSchemaMismatch)
	require.ErrorContains(t, err, "run the migrate command")

	s, err := stores.Open(ctx, url, stores.Options{Migrate: true})
	require.NoError(t, err)
	require.NoError(t, s.Ping(ctx))
	require.NoError(t, s.Close())

	s, err = stores.Open(ctx, url, stores.Options{})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	bumpVersion(t, "pgx", url)
	_, err = stores.Open(ctx, url, stores.Options{})
	require.ErrorIs(t, err, migrations.ErrSchemaMismatch)
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	_, err := stores.Open(ctx, "mysql://u@h/db", stores.Options{})
	require.ErrorContains(t, err, "unsupported database URL scheme")

	// A directory that cannot be created.
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err = stores.Open(ctx, filepath.Join(file, "sub", "x.db"), stores.Options{Migrate: true})
	require.Error(t, err)
}

// bumpVersion records a migration newer than any this binary has.
func bumpVersion(t *testing.T, driver, dsn string) {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.ExecContext(t.Context(), `INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true)`)
	require.NoError(t, err)
}
