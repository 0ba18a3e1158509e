// Package sqlstore implements store.Store once over database/sql, for the SQL databases the
// runner supports. A Dialect says what differs between them; the backends (store/sqlite and
// store/postgres) open and migrate the database and hand it to New with their dialect.
//
// Statements are written once, with numbered placeholders ($1, $2, …, which the SQLite
// driver binds by number too) and table names in braces: {sessions} stands for the
// dialect's TablePrefix followed by "sessions". JSON is bound as a string, which SQLite
// stores as TEXT and PostgreSQL parses into jsonb.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/store"
	sharedstore "openvibe.live/backend/shared/store"
)

// Dialect is what differs between the databases a Store runs on.
type Dialect struct {
	// TablePrefix is prepended to every table name.
	TablePrefix string
	// UnixMillis stores times as integer milliseconds since the Unix epoch.
	// Otherwise times are bound as time.Time, for a timestamp column.
	UnixMillis bool

	// The statements that differ, written as the database runs them (table names in full).

	// PutMessage inserts or updates a message, with arguments $1 id, $2 session_id and
	// $3 data (JSON). A new message gets a seq after the session's others; an update
	// changes only data.
	PutMessage string
	// PutPart inserts or updates a part, with arguments $1 id, $2 message_id, $3 session_id
	// and $4 data (JSON). A new part gets a seq after its message's others; an update
	// changes only data.
	PutPart string
}

// tables are the names that stand in braces in the statements.
var tables = []string{"projects", "sessions", "messages", "parts", "todos", "permission_rules", "permission_requests",
	"queued_prompts"}

// Store is a store.Store on a SQL database.
type Store struct {
	db     *sql.DB
	d      Dialect
	tables *strings.Replacer // {name} to the dialect's table name
}

var _ store.Store = (*Store)(nil)

// New returns a Store on db, which must hold the runner schema. Close closes db.
func New(db *sql.DB, d Dialect) *Store {
	var names []string
	for _, t := range tables {
		names = append(names, "{"+t+"}", d.TablePrefix+t)
	}
	return &Store{db: db, d: d, tables: strings.NewReplacer(names...)}
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// sql returns stmt with its table names filled in.
func (s *Store) sql(stmt string) string { return s.tables.Replace(stmt) }

// timeArg returns t as the dialect stores it.
func (s *Store) timeArg(t time.Time) any {
	if s.d.UnixMillis {
		return t.UnixMilli()
	}
	return t.UTC()
}

// timeDest is a scan destination for a time column of either dialect; it stores the
// time in UTC.
type timeDest struct{ t *time.Time }

func (d timeDest) Scan(v any) error {
	switch v := v.(type) {
	case int64:
		*d.t = time.UnixMilli(v).UTC()
	case time.Time:
		*d.t = v.UTC()
	default:
		return fmt.Errorf("scan time: unsupported type %T", v)
	}
	return nil
}

// querier is satisfied by both *sql.DB and *sql.Tx.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// tx runs fn in a transaction, committed if fn returns nil and rolled back otherwise.
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return sharedstore.InTx(ctx, s.db, fn)
}

// notFound wraps err with what, as store.ErrNotFound if it is sql.ErrNoRows.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// affected returns a store.ErrNotFound wrapped with what if res changed no row.
func affected(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	return nil
}
