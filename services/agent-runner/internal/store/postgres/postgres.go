// Package postgres implements the runner store on PostgreSQL (pgx through database/sql), for
// hosting several runner replicas on one database. Tables are prefixed agent_ and migrated by
// goose with their own version table, so they can live beside the platform schema.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"

	"openvibe.live/backend/services/agent-runner/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// VersionTable is the goose version table of the runner schema.
const VersionTable = "agent_goose_db_version"

// Store is the PostgreSQL store.
type Store = sqlstore.Store

// dialect is PostgreSQL's: agent_ tables and timestamptz times. The seq of a message or part
// is an identity column, so the inserts leave it out.
var dialect = sqlstore.Dialect{
	TablePrefix: "agent_",
	PutMessage: `INSERT INTO agent_messages (id, session_id, data) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
	PutPart: `INSERT INTO agent_parts (id, message_id, session_id, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
}

// Open connects to url (postgres://…) and migrates the runner schema.
func Open(ctx context.Context, url string, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	db.SetMaxOpenConns(10)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connect postgres: %w", err)
	}
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, sub, goose.WithTableName(VersionTable),
		goose.WithDisableGlobalRegistry(true), goose.WithSlog(log))
	if err == nil {
		_, err = p.Up(ctx)
	}
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("migrate agent schema: %w", err)
	}
	return sqlstore.New(db, dialect), nil
}
