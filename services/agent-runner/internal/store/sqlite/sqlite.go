// Package sqlite implements the runner store on SQLite through the pure-Go modernc.org/sqlite
// driver. Migrations are embedded and applied by goose's Provider API on Open.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"strings"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"openvibe.live/backend/services/agent-runner/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// VersionTable is the goose version table of the runner schema, distinct from the
// platform's so both schemas may share one database file.
const VersionTable = "agent_goose_db_version"

// Store is the SQLite store.
type Store = sqlstore.Store

// dialect is SQLite's: unprefixed tables and times as Unix milliseconds. The seq of a message
// (within its session) or part (within its message) is the next one up, computed by the insert.
// The driver binds $N to the N-th argument, so the shared statements run as written.
var dialect = sqlstore.Dialect{
	UnixMillis: true,
	PutMessage: `INSERT INTO messages (id, session_id, seq, data)
		VALUES ($1, $2, COALESCE((SELECT MAX(seq) FROM messages WHERE session_id = $2), 0) + 1, $3)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
	PutPart: `INSERT INTO parts (id, message_id, session_id, seq, data)
		VALUES ($1, $2, $3, COALESCE((SELECT MAX(seq) FROM parts WHERE message_id = $2), 0) + 1, $4)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
}

// Open opens (creating if needed) the database at path and migrates it to the current schema.
func Open(ctx context.Context, path string, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path = strings.TrimPrefix(path, "sqlite:")
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	// One connection: SQLite serialises writers anyway and this keeps pragmas on every query.
	db.SetMaxOpenConns(1)
	if err := migrate(ctx, db, log); err != nil {
		_ = db.Close()
		return nil, err
	}
	return sqlstore.New(db, dialect), nil
}

func migrate(ctx context.Context, db *sql.DB, log *slog.Logger) error {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("migrations fs: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub,
		goose.WithTableName(VersionTable), goose.WithDisableGlobalRegistry(true), goose.WithSlog(log))
	if err != nil {
		return fmt.Errorf("migration provider: %w", err)
	}
	cur, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	sources := p.ListSources()
	if latest := sources[len(sources)-1].Version; cur > latest {
		return fmt.Errorf("database schema version %d is newer than this binary's %d", cur, latest)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
