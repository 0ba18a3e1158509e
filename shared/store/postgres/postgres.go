// Package postgres implements store.Store on PostgreSQL with a pgx v5 connection pool: the
// distributed mode's storage, shared by every replica of every service.
//
// Per-slot sequence numbers are gap-free because the insert transaction locks the slot's
// managed_streams row, reads last_seq, inserts the events and writes last_seq back: writers of
// one slot are serialized by the row lock, and a rollback returns the numbers. See
// InsertVibeEvents for the batching that makes this fast.
//
// The schema comes from the migrations module; Open does not migrate.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"openvibe.live/backend/shared/store"
)

// Options tune Open. The zero value is usable.
type Options struct {
	// MaxConns caps the pool (default: pgxpool's, or pool_max_conns in the URL).
	MaxConns int32
	// Logger receives diagnostics (default: discard).
	Logger *slog.Logger
	// Now is the clock for the times the store sets itself (created_at, …); default time.Now.
	Now func() time.Time
}

// Store is the PostgreSQL store.Store.
type Store struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	now  func() time.Time
}

var _ store.Store = (*Store)(nil)

// querier is what repository code needs; *pgxpool.Pool, *pgxpool.Conn and pgx.Tx satisfy it.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

var (
	_ querier = (*pgxpool.Pool)(nil)
	_ querier = (pgx.Tx)(nil)
)

// Open connects a pool to the database at url (postgres:// or postgresql://) and pings it.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse postgres url: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to postgres at %s:%d: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
	}
	return &Store{pool: pool, log: opts.Logger, now: opts.Now}, nil
}

// Pool returns the connection pool, for migrations and checks.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping postgres: %w", err)
	}
	return nil
}

// Close closes the pool, waiting for connections in use to be released.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, fn)
}

// PostgreSQL error codes.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
)

// mapErr wraps err with what was being done, translating no-rows and constraint violations
// into the store sentinels.
func mapErr(err error, doing string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", doing, store.ErrNotFound)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case codeUniqueViolation:
			return fmt.Errorf("%s: %w: %s", doing, store.ErrConflict, pe.ConstraintName)
		case codeForeignKeyViolation:
			return fmt.Errorf("%s: referenced row missing: %w", doing, store.ErrNotFound)
		}
	}
	return fmt.Errorf("%s: %w", doing, err)
}

func (s *Store) nowUTC() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// orNow returns t truncated to microseconds in UTC, or the store's clock when t is zero.
func (s *Store) orNow(t time.Time) time.Time {
	if t.IsZero() {
		return s.nowUTC()
	}
	return t.UTC().Truncate(time.Microsecond)
}

func truncPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC().Truncate(time.Microsecond)
	return &v
}

// utc normalises scanned times (pgx returns them in the local zone).
func utc(ts ...*time.Time) {
	for _, t := range ts {
		*t = t.UTC()
	}
}

func utcPtr(ts ...**time.Time) {
	for _, t := range ts {
		if *t != nil {
			v := (*t).UTC()
			*t = &v
		}
	}
}

// affectedOne maps "no row changed" to ErrNotFound.
func affectedOne(tag pgconn.CommandTag, err error, doing string) error {
	if err != nil {
		return mapErr(err, doing)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%s: %w", doing, store.ErrNotFound)
	}
	return nil
}

// collect scans every row, closing rows.
func collect[T any](rows pgx.Rows, err error, scan func(pgx.Row) (T, error), doing string) ([]T, error) {
	if err != nil {
		return nil, mapErr(err, doing)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, mapErr(err, doing)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(err, doing)
	}
	return out, nil
}
