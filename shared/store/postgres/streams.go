package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"openvibe.live/backend/shared/store"
)

const streamCols = `id, user_id, slug, title, broadcast_settings::text, live_stream_id, last_seq, paused_at, created_at, updated_at`

func scanStream(row pgx.Row) (store.ManagedStream, error) {
	var m store.ManagedStream
	var settings string
	if err := row.Scan(&m.ID, &m.UserID, &m.Slug, &m.Title, &settings, &m.LiveStreamID, &m.LastSeq,
		&m.PausedAt, &m.CreatedAt, &m.UpdatedAt); err != nil {
		return store.ManagedStream{}, err
	}
	m.BroadcastSettings = json.RawMessage(settings)
	utc(&m.CreatedAt, &m.UpdatedAt)
	utcPtr(&m.PausedAt)
	return m, nil
}

func (s *Store) CreateManagedStream(ctx context.Context, userID int64, slug, title string, broadcastSettings json.RawMessage) (store.ManagedStream, error) {
	settings, err := store.ObjectText(broadcastSettings, "broadcast settings")
	if err != nil {
		return store.ManagedStream{}, err
	}
	now := s.nowUTC()
	m, err := scanStream(s.pool.QueryRow(ctx, `
		INSERT INTO managed_streams (user_id, slug, title, broadcast_settings, created_at, updated_at)
		VALUES ($1, $2, $3, $4::jsonb, $5, $5) RETURNING `+streamCols,
		userID, slug, title, settings, now))
	return m, mapErr(err, "create managed stream")
}

func (s *Store) ManagedStreamByID(ctx context.Context, id int64) (store.ManagedStream, error) {
	m, err := scanStream(s.pool.QueryRow(ctx, `SELECT `+streamCols+` FROM managed_streams WHERE id = $1`, id))
	return m, mapErr(err, "managed stream by id")
}

func (s *Store) ManagedStreamBySlug(ctx context.Context, userID int64, slug string) (store.ManagedStream, error) {
	m, err := scanStream(s.pool.QueryRow(ctx,
		`SELECT `+streamCols+` FROM managed_streams WHERE user_id = $1 AND lower(slug) = lower($2)`, userID, slug))
	return m, mapErr(err, "managed stream by slug")
}

func (s *Store) ListManagedStreams(ctx context.Context, userID int64) ([]store.ManagedStream, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+streamCols+` FROM managed_streams WHERE user_id = $1 ORDER BY id`, userID)
	return collect(rows, err, scanStream, "list managed streams")
}

// UpdateBroadcastSettings runs update while holding the slot's row lock (SELECT … FOR NO KEY UPDATE),
// so concurrent read-modify-write cycles from any replica never lose an update.
func (s *Store) UpdateBroadcastSettings(ctx context.Context, id int64, update func(current store.ManagedStream) (store.SettingsUpdate, error)) (store.ManagedStream, error) {
	var m store.ManagedStream
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		cur, err := scanStream(tx.QueryRow(ctx, `SELECT `+streamCols+` FROM managed_streams WHERE id = $1 FOR NO KEY UPDATE`, id))
		if err != nil {
			return mapErr(err, "update broadcast settings")
		}
		next, err := update(cur)
		if err != nil {
			return err
		}
		settings, err := store.ObjectText(next.BroadcastSettings, "broadcast settings")
		if err != nil {
			return err
		}
		if w := next.Withhold; w != nil {
			w.ManagedStreamID = id
			if _, err := withhold(ctx, tx, *w); err != nil {
				return err
			}
		}
		m, err = scanStream(tx.QueryRow(ctx,
			`UPDATE managed_streams SET broadcast_settings = $1::jsonb, paused_at = $2, updated_at = $3 WHERE id = $4 RETURNING `+streamCols,
			settings, next.PausedAt, s.nowUTC(), id))
		return mapErr(err, "update broadcast settings")
	})
	return m, err
}

const liveCols = `id, managed_stream_id, started_at, ended_at`

func scanLive(row pgx.Row) (store.LiveStream, error) {
	var l store.LiveStream
	if err := row.Scan(&l.ID, &l.ManagedStreamID, &l.StartedAt, &l.EndedAt); err != nil {
		return store.LiveStream{}, err
	}
	utc(&l.StartedAt)
	utcPtr(&l.EndedAt)
	return l, nil
}

// lockLive locks the slot row and returns its current live stream id (nil when not live).
func lockLive(ctx context.Context, q querier, slot int64) (*int64, error) {
	var live *int64
	err := q.QueryRow(ctx, `SELECT live_stream_id FROM managed_streams WHERE id = $1 FOR NO KEY UPDATE`, slot).Scan(&live)
	return live, err
}

func (s *Store) StartLiveStream(ctx context.Context, managedStreamID int64, at time.Time) (store.LiveStream, bool, error) {
	var ls store.LiveStream
	started := false
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		live, err := lockLive(ctx, tx, managedStreamID)
		if err != nil {
			return mapErr(err, "start live stream")
		}
		if live != nil {
			ls, err = scanLive(tx.QueryRow(ctx, `SELECT `+liveCols+` FROM live_streams WHERE id = $1`, *live))
			return mapErr(err, "start live stream")
		}
		ls, err = scanLive(tx.QueryRow(ctx,
			`INSERT INTO live_streams (managed_stream_id, started_at) VALUES ($1, $2) RETURNING `+liveCols,
			managedStreamID, at))
		if err != nil {
			return mapErr(err, "start live stream")
		}
		_, err = tx.Exec(ctx, `UPDATE managed_streams SET live_stream_id = $1, updated_at = $2 WHERE id = $3`,
			ls.ID, s.nowUTC(), managedStreamID)
		started = true
		return mapErr(err, "start live stream")
	})
	if err != nil {
		return store.LiveStream{}, false, err
	}
	return ls, started, nil
}

func (s *Store) EndLiveStream(ctx context.Context, managedStreamID int64, at time.Time) (store.LiveStream, error) {
	var ls store.LiveStream
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		live, err := lockLive(ctx, tx, managedStreamID)
		if err != nil {
			return mapErr(err, "end live stream")
		}
		if live == nil {
			return fmt.Errorf("end live stream: slot is not live: %w", store.ErrNotFound)
		}
		ls, err = scanLive(tx.QueryRow(ctx,
			`UPDATE live_streams SET ended_at = $1 WHERE id = $2 RETURNING `+liveCols, at, *live))
		if err != nil {
			return mapErr(err, "end live stream")
		}
		_, err = tx.Exec(ctx, `UPDATE managed_streams SET live_stream_id = NULL, updated_at = $1 WHERE id = $2`,
			s.nowUTC(), managedStreamID)
		return mapErr(err, "end live stream")
	})
	if err != nil {
		return store.LiveStream{}, err
	}
	return ls, nil
}

func (s *Store) LiveStreamByID(ctx context.Context, id int64) (store.LiveStream, error) {
	ls, err := scanLive(s.pool.QueryRow(ctx, `SELECT `+liveCols+` FROM live_streams WHERE id = $1`, id))
	return ls, mapErr(err, "live stream by id")
}
