package migrations_test

import (
	"database/sql"
	"path/filepath"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/testenv"
)

func openSQLite(t *testing.T) *sql.DB {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "test.db") + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)"
	db, err := sql.Open("sqlite", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func openPostgres(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func dialects(t *testing.T) map[string]func(t *testing.T) *sql.DB {
	return map[string]func(t *testing.T) *sql.DB{
		migrations.SQLite: openSQLite,
		migrations.Postgres: func(t *testing.T) *sql.DB {
			return openPostgres(t, testenv.Postgres(t))
		},
	}
}

func TestUpCheckVersion(t *testing.T) {
	t.Parallel()
	for dialect, open := range dialects(t) {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db := open(t)
			latest, err := migrations.Latest(dialect)
			require.NoError(t, err)
			require.Positive(t, latest)

			cur, lat, err := migrations.Version(ctx, db, dialect)
			require.NoError(t, err)
			require.Zero(t, cur)
			require.Equal(t, latest, lat)

			err = migrations.Check(ctx, db, dialect)
			require.ErrorIs(t, err, migrations.ErrSchemaMismatch)
			require.ErrorContains(t, err, "run the migrate command")

			require.NoError(t, migrations.Up(ctx, db, dialect))
			require.NoError(t, migrations.Check(ctx, db, dialect))
			require.NoError(t, migrations.Up(ctx, db, dialect), "a second Up is a no-op")
			cur, _, err = migrations.Version(ctx, db, dialect)
			require.NoError(t, err)
			require.Equal(t, latest, cur)

			for _, table := range []string{"users", "api_tokens", "managed_streams", "live_streams",
				"vibe_coding_sessions", "vibe_coding_events", "chat_messages"} {
				var n int
				require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n), table)
			}

			// A database migrated by a newer binary is refused too.
			_, err = db.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, true)`, latest+1)
			require.NoError(t, err)
			err = migrations.Check(ctx, db, dialect)
			require.ErrorIs(t, err, migrations.ErrSchemaMismatch)
			require.ErrorContains(t, err, "upgrade the binary")
		})
	}
}

func TestSchemaConstraints(t *testing.T) {
	t.Parallel()
	for dialect, open := range dialects(t) {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db := open(t)
			require.NoError(t, migrations.Up(ctx, db, dialect))
			now := "2026-01-02T03:04:05Z"
			if dialect == migrations.SQLite {
				now = "1767323045000000"
			}
			ins := func(q string, args ...any) error {
				_, err := db.ExecContext(ctx, q, args...)
				return err
			}
			require.NoError(t, ins(`INSERT INTO users (username, password_hash, created_at) VALUES ('Alice', 'x', $1)`, now))
			require.Error(t, ins(`INSERT INTO users (username, password_hash, created_at) VALUES ('alice', 'x', $1)`, now),
				"usernames are unique case-insensitively")
			require.NoError(t, ins(`INSERT INTO managed_streams (user_id, slug, title, created_at, updated_at) VALUES (1, 'Main', 't', $1, $1)`, now))
			require.Error(t, ins(`INSERT INTO managed_streams (user_id, slug, title, created_at, updated_at) VALUES (1, 'MAIN', 't', $1, $1)`, now),
				"slugs are unique per user case-insensitively")
			require.Error(t, ins(`INSERT INTO managed_streams (user_id, slug, title, created_at, updated_at) VALUES (99, 'x', 't', $1, $1)`, now),
				"foreign keys are enforced")
			var settings string
			require.NoError(t, db.QueryRowContext(ctx, `SELECT broadcast_settings FROM managed_streams WHERE id = 1`).Scan(&settings))
			require.JSONEq(t, `{}`, settings)
		})
	}
}

func TestConcurrentUp(t *testing.T) {
	t.Parallel()
	url := testenv.Postgres(t)
	ctx := t.Context()
	const replicas = 4
	var wg sync.WaitGroup
	errs := make([]error, replicas)
	for i := range replicas {
		db := openPostgres(t, url)
		wg.Go(func() { errs[i] = migrations.Up(ctx, db, migrations.Postgres) })
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, migrations.Check(ctx, openPostgres(t, url), migrations.Postgres))
}

func TestUnknownDialect(t *testing.T) {
	t.Parallel()
	_, err := migrations.Latest("oracle")
	require.ErrorContains(t, err, "unknown migrations dialect")
	require.Error(t, migrations.Up(t.Context(), openSQLite(t), "oracle"))
}

// TestDownUp: every migration's Down section undoes its Up, so the schema can be rebuilt.
func TestDownUp(t *testing.T) {
	t.Parallel()
	for dialect, open := range dialects(t) {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db := open(t)
			require.NoError(t, migrations.Up(ctx, db, dialect))
			p, err := migrations.NewProviderForTest(db, dialect, false)
			require.NoError(t, err)
			_, err = p.DownTo(ctx, 0)
			require.NoError(t, err)
			cur, _, err := migrations.Version(ctx, db, dialect)
			require.NoError(t, err)
			require.Zero(t, cur)
			var n int
			err = db.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n)
			require.Error(t, err, "tables are dropped")
			require.NoError(t, migrations.Up(ctx, db, dialect))
			require.NoError(t, migrations.Check(ctx, db, dialect))
		})
	}
}

// TestPausedSlotsKeepTheirPause: a slot paused or disabled before the pause time was kept
// counts as paused since its last settings change; the others as shown.
func TestPausedSlotsKeepTheirPause(t *testing.T) {
	t.Parallel()
	for dialect, open := range dialects(t) {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db := open(t)
			p, err := migrations.NewProviderForTest(db, dialect, false)
			require.NoError(t, err)
			_, err = p.UpTo(ctx, 2)
			require.NoError(t, err)
			updated := "2026-01-02T03:04:05Z"
			if dialect == migrations.SQLite {
				updated = "1767323045000000"
			}
			_, err = db.ExecContext(ctx, `INSERT INTO users (username, password_hash, created_at) VALUES ('alice', 'x', $1)`, updated)
			require.NoError(t, err)
			for slug, settings := range map[string]string{
				"paused":   `{"vibe_coding":{"enabled":1,"paused":1}}`,
				"disabled": `{"bitrate":6000,"vibe_coding":{"enabled":0,"paused":0}}`,
				"shown":    `{"vibe_coding":{"enabled":1,"paused":0}}`,
				"default":  `{}`,
			} {
				_, err = db.ExecContext(ctx, `INSERT INTO managed_streams (user_id, slug, title, broadcast_settings, created_at, updated_at)
					VALUES (1, $1, 't', $2, $3, $3)`, slug, settings, updated)
				require.NoError(t, err)
			}
			require.NoError(t, migrations.Up(ctx, db, dialect))
			rows, err := db.QueryContext(ctx, `SELECT slug FROM managed_streams WHERE paused_at = updated_at ORDER BY slug`)
			require.NoError(t, err)
			defer rows.Close()
			var paused []string
			for rows.Next() {
				var slug string
				require.NoError(t, rows.Scan(&slug))
				paused = append(paused, slug)
			}
			require.NoError(t, rows.Err())
			require.Equal(t, []string{"disabled", "paused"}, paused)
			var n int
			require.NoError(t, db.QueryRowContext(ctx, `SELECT count(*) FROM managed_streams WHERE paused_at IS NULL`).Scan(&n))
			require.Equal(t, 2, n)
		})
	}
}
