// Package sqlite implements store.Store on an embedded SQLite database (modernc.org/sqlite,
// pure Go): the standalone mode's storage.
//
// The database runs in WAL mode with foreign keys on and a busy timeout. Every write goes
// through one dedicated connection (SQLite allows a single writer at a time; queueing in Go is
// cheaper than spinning on SQLITE_BUSY), with transactions begun IMMEDIATE so that another
// process sharing the file can never deadlock a read-then-write transaction. Reads use a
// separate pool of query-only connections, which in WAL mode never block the writer.
//
// Times are stored as INTEGER microseconds since the Unix epoch and returned in UTC.
// The schema comes from the migrations module; Open does not migrate.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"

	"openvibe.live/backend/shared/store"
)

// Options tune Open. The zero value is usable.
type Options struct {
	// ReadConns is the size of the read pool (default 4).
	ReadConns int
	// BusyTimeout is how long a statement waits for a lock held by another process
	// (default 5s).
	BusyTimeout time.Duration
	// Logger receives diagnostics (default: discard).
	Logger *slog.Logger
	// Now is the clock for the times the store sets itself (created_at, …); default time.Now.
	Now func() time.Time
}

// Store is the SQLite store.Store.
type Store struct {
	w   *sql.DB // the single writer connection
	r   *sql.DB // query-only read pool (== w for an in-memory database)
	log *slog.Logger
	now func() time.Time
}

var _ store.Store = (*Store)(nil)

// querier is what repository code needs; *sql.DB, *sql.Conn and *sql.Tx all satisfy it.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Open opens (creating if needed) the database file at path, or a private in-memory
// database for ":memory:". A "file:" URI is accepted too; its query is kept.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if opts.ReadConns <= 0 {
		opts.ReadConns = 4
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{log: opts.Logger, now: opts.Now}

	if path == ":memory:" {
		// One connection sees one private in-memory database: share it for reads and writes.
		db, err := openDB(ctx, "file::memory:", opts.BusyTimeout, "immediate", false)
		if err != nil {
			return nil, err
		}
		s.w, s.r = db, db
		return s, nil
	}

	name, query, err := splitPath(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o750); err != nil {
		return nil, fmt.Errorf("create database directory: %w", err)
	}
	dsn := "file:" + name
	if query != "" {
		dsn += "?" + query
	}
	if s.w, err = openDB(ctx, dsn, opts.BusyTimeout, "immediate", false); err != nil {
		return nil, err
	}
	if s.r, err = openDB(ctx, dsn, opts.BusyTimeout, "deferred", true); err != nil {
		s.w.Close()
		return nil, err
	}
	s.r.SetMaxOpenConns(opts.ReadConns)
	s.r.SetMaxIdleConns(opts.ReadConns)
	var mode string
	if err := s.w.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		s.Close()
		return nil, fmt.Errorf("open sqlite database: %w", err)
	}
	if mode != "wal" {
		// Some file systems (network mounts) cannot hold a WAL: it still works, with readers
		// and the writer blocking each other.
		s.log.WarnContext(ctx, "sqlite database is not in WAL mode", "journal_mode", mode, "path", name)
	}
	return s, nil
}

// splitPath turns a plain path or a "file:" URI into a file name and a query string.
func splitPath(path string) (name, query string, err error) {
	if path == "" {
		return "", "", errors.New("sqlite: empty database path")
	}
	if !strings.HasPrefix(path, "file:") {
		return path, "", nil
	}
	rest := strings.TrimPrefix(path, "file:")
	name, query, _ = strings.Cut(rest, "?")
	if _, err := url.ParseQuery(query); err != nil {
		return "", "", fmt.Errorf("sqlite: bad URI query %q: %w", query, err)
	}
	if name == "" {
		return "", "", errors.New("sqlite: empty database path")
	}
	return name, query, nil
}

func openDB(ctx context.Context, dsn string, busy time.Duration, txlock string, readOnly bool) (*sql.DB, error) {
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	pragmas := []string{
		fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()),
		"foreign_keys(1)",
		"synchronous(FULL)",
	}
	if !strings.Contains(dsn, ":memory:") {
		pragmas = append([]string{"journal_mode(WAL)"}, pragmas...)
	}
	if readOnly {
		pragmas = append(pragmas, "query_only(1)")
	}
	q := url.Values{"_pragma": pragmas, "_txlock": {txlock}}
	db, err := sql.Open("sqlite", dsn+sep+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite database: %w", err)
	}
	if !readOnly {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
	}
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite database: %w", err)
	}
	return db, nil
}

// DB returns the writer handle, for migrations and checks.
func (s *Store) DB() *sql.DB { return s.w }

// Ping checks both the writer and the read pool.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	err := s.w.Close()
	if s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return store.InTx(ctx, s.w, fn)
}

// Extended SQLite result codes.
const (
	codeConstraintForeignKey = 787
	codeConstraintPrimaryKey = 1555
	codeConstraintUnique     = 2067
)

// mapErr wraps err with what was being done, translating no-rows and constraint violations
// into the store sentinels.
func mapErr(err error, doing string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", doing, store.ErrNotFound)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case codeConstraintUnique, codeConstraintPrimaryKey:
			return fmt.Errorf("%s: %w: %v", doing, store.ErrConflict, err)
		case codeConstraintForeignKey:
			return fmt.Errorf("%s: referenced row missing: %w", doing, store.ErrNotFound)
		}
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// Time encoding: INTEGER microseconds since the epoch.

func (s *Store) nowUTC() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }

func nullMicros(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func timePtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMicros(v.Int64)
	return &t
}

func int64Ptr(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	return &v.Int64
}

func nullInt64(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}

// orNow returns t truncated to microseconds, or the store's clock when t is zero.
func (s *Store) orNow(t time.Time) time.Time {
	if t.IsZero() {
		return s.nowUTC()
	}
	return t.UTC().Truncate(time.Microsecond)
}

// placeholders returns "?, ?, …" with n marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
