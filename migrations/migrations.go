// Package migrations holds the database schema of OpenVibe.Live as goose v3 SQL migrations,
// one folder per dialect (postgres/ and sqlite/), embedded in the binary.
//
// Up applies every pending migration; Check refuses a database whose schema version is not
// exactly the newest embedded one, so a binary never runs against a schema it was not built
// for (older: run the migrate command; newer: the binary is outdated).
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Dialects.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
)

// versionTable is goose's bookkeeping table.
const versionTable = "goose_db_version"

// advisoryLockID keys the PostgreSQL advisory lock held while migrating, so that replicas
// starting together apply each migration once. ("openvibe" as ASCII, truncated to 63 bits.)
const advisoryLockID int64 = 0x6f70656e76696265

// ErrSchemaMismatch is returned by Check when the database schema version differs from the
// newest migration embedded in the binary.
var ErrSchemaMismatch = errors.New("database schema version mismatch")

//go:embed postgres/*.sql sqlite/*.sql
var embedded embed.FS

// Up applies all pending migrations. On PostgreSQL it holds a session advisory lock for the
// duration, so concurrent callers (replicas starting together) are safe.
func Up(ctx context.Context, db *sql.DB, dialect string) error {
	p, err := newProvider(db, dialect, true)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate %s: %w", dialect, err)
	}
	return nil
}

// Version returns the database's schema version (0 for an empty database) and the newest
// version embedded in the binary. It does not write to the database.
func Version(ctx context.Context, db *sql.DB, dialect string) (current, latest int64, err error) {
	latest, err = Latest(dialect)
	if err != nil {
		return 0, 0, err
	}
	exists, err := versionTableExists(ctx, db, dialect)
	if err != nil || !exists {
		return 0, latest, err
	}
	p, err := newProvider(db, dialect, false)
	if err != nil {
		return 0, 0, err
	}
	current, err = p.GetDBVersion(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read %s schema version: %w", dialect, err)
	}
	return current, latest, nil
}

// Check returns an error wrapping ErrSchemaMismatch unless the database schema version is the
// newest embedded one.
func Check(ctx context.Context, db *sql.DB, dialect string) error {
	current, latest, err := Version(ctx, db, dialect)
	if err != nil {
		return err
	}
	switch {
	case current < latest:
		return fmt.Errorf("%w: the database is at version %d, this binary needs %d: run the migrate command (or set OPENVIBE_MIGRATE_ON_START=true)",
			ErrSchemaMismatch, current, latest)
	case current > latest:
		return fmt.Errorf("%w: the database is at version %d, newer than this binary's %d: upgrade the binary",
			ErrSchemaMismatch, current, latest)
	}
	// At the newest version, yet an older migration may be missing (applied out of order).
	p, err := newProvider(db, dialect, false)
	if err != nil {
		return err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSchemaMismatch, err)
	}
	if pending {
		return fmt.Errorf("%w: the database is at version %d but misses older migrations: run the migrate command",
			ErrSchemaMismatch, current)
	}
	return nil
}

// Latest returns the newest migration version embedded for dialect.
func Latest(dialect string) (int64, error) {
	fsys, err := dialectFS(dialect)
	if err != nil {
		return 0, err
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return 0, fmt.Errorf("list %s migrations: %w", dialect, err)
	}
	var latest int64
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".sql" {
			continue
		}
		v, err := goose.NumericComponent(e.Name())
		if err != nil {
			return 0, fmt.Errorf("migration %s/%s: %w", dialect, e.Name(), err)
		}
		latest = max(latest, v)
	}
	if latest == 0 {
		return 0, fmt.Errorf("no %s migrations embedded", dialect)
	}
	return latest, nil
}

func dialectFS(dialect string) (fs.FS, error) {
	switch dialect {
	case Postgres, SQLite:
		return fs.Sub(embedded, dialect)
	}
	return nil, fmt.Errorf("unknown migrations dialect %q (want %q or %q)", dialect, Postgres, SQLite)
}

func newProvider(db *sql.DB, dialect string, locked bool) (*goose.Provider, error) {
	fsys, err := dialectFS(dialect)
	if err != nil {
		return nil, err
	}
	gd := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if dialect == Postgres {
		gd = goose.DialectPostgres
		if locked {
			l, err := lock.NewPostgresSessionLocker(lock.WithLockID(advisoryLockID))
			if err != nil {
				return nil, fmt.Errorf("create migration lock: %w", err)
			}
			opts = append(opts, goose.WithSessionLocker(l))
		}
	}
	p, err := goose.NewProvider(gd, db, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("load %s migrations: %w", dialect, err)
	}
	return p, nil
}

func versionTableExists(ctx context.Context, db *sql.DB, dialect string) (bool, error) {
	q := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1`
	if dialect == Postgres {
		q = `SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = $1`
	}
	var n int
	if err := db.QueryRowContext(ctx, q, versionTable).Scan(&n); err != nil {
		return false, fmt.Errorf("look for the %s schema version table: %w", dialect, err)
	}
	return n > 0, nil
}
