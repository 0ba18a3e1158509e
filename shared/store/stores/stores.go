// Package stores opens the store.Store named by a database URL: PostgreSQL for postgres:// and
// postgresql:// URLs, SQLite for a sqlite: URL, a file: URI or a plain path. It migrates the
// schema when asked and always refuses a database whose schema the binary does not match.
package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/postgres"
	"openvibe.live/backend/shared/store/sqlite"
)

// Options tune Open.
type Options struct {
	// Migrate applies pending migrations before the schema check.
	Migrate bool
	// Logger receives diagnostics (default: discard).
	Logger *slog.Logger
}

// Open opens the store at url:
//
//	postgres://user:pass@host/db?sslmode=…   PostgreSQL (postgresql:// too)
//	sqlite:/var/lib/openvibe/openvibe.db      SQLite (also sqlite:///abs/path, sqlite:relative.db)
//	file:/var/lib/openvibe/openvibe.db?…      SQLite URI
//	/var/lib/openvibe/openvibe.db             SQLite path; :memory: for a private in-memory database
//
// The parent directory of a SQLite file is created. With opts.Migrate pending migrations are
// applied first (safe with concurrent replicas on PostgreSQL). Open fails with an error
// wrapping migrations.ErrSchemaMismatch when the schema version is not the binary's.
func Open(ctx context.Context, url string, opts Options) (store.Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	backend, target, err := Parse(url)
	if err != nil {
		return nil, err
	}
	switch backend {
	case migrations.Postgres:
		s, err := postgres.Open(ctx, target, postgres.Options{Logger: opts.Logger})
		if err != nil {
			return nil, err
		}
		db := stdlib.OpenDBFromPool(s.Pool())
		err = prepare(ctx, db, backend, opts)
		err = errors.Join(err, db.Close())
		if err != nil {
			s.Close()
			return nil, err
		}
		return s, nil
	default:
		s, err := sqlite.Open(ctx, target, sqlite.Options{Logger: opts.Logger})
		if err != nil {
			return nil, err
		}
		if err := prepare(ctx, s.DB(), backend, opts); err != nil {
			s.Close()
			return nil, err
		}
		return s, nil
	}
}

// Parse returns the backend (migrations.Postgres or migrations.SQLite) a database URL names
// and what to hand that backend's Open.
func Parse(url string) (backend, target string, err error) {
	switch {
	case url == "":
		return "", "", errors.New("empty database URL: set a postgres:// URL or a SQLite path")
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return migrations.Postgres, url, nil
	case strings.HasPrefix(url, "sqlite:"):
		rest := strings.TrimPrefix(url, "sqlite:")
		if strings.HasPrefix(rest, "//") {
			rest = strings.TrimPrefix(rest, "//") // sqlite:///abs → /abs, sqlite://rel → rel
		}
		path, query, _ := strings.Cut(rest, "?")
		if path == "" {
			return "", "", fmt.Errorf("database URL %q names no SQLite file", url)
		}
		if query != "" {
			return migrations.SQLite, "file:" + path + "?" + query, nil
		}
		return migrations.SQLite, path, nil
	case strings.HasPrefix(url, "file:"), !strings.Contains(url, "://"):
		return migrations.SQLite, url, nil
	}
	scheme, _, _ := strings.Cut(url, "://")
	return "", "", fmt.Errorf("unsupported database URL scheme %q: use postgres://, sqlite: or a file path", scheme)
}

func prepare(ctx context.Context, db *sql.DB, backend string, opts Options) error {
	if opts.Migrate {
		if err := migrations.Up(ctx, db, backend); err != nil {
			return err
		}
	}
	current, _, err := migrations.Version(ctx, db, backend)
	if err != nil {
		return err
	}
	if err := migrations.Check(ctx, db, backend); err != nil {
		return fmt.Errorf("refusing to use the %s database: %w", backend, err)
	}
	opts.Logger.InfoContext(ctx, "database ready", "backend", backend, "schema_version", current, "migrated", opts.Migrate)
	return nil
}
