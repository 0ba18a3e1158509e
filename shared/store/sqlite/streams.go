package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"openvibe.live/backend/shared/store"
)

const streamCols = `id, user_id, slug, title, broadcast_settings, live_stream_id, last_seq, paused_at, created_at, updated_at`

func scanStream(row interface{ Scan(...any) error }) (store.ManagedStream, error) {
	var m store.ManagedStream
	var settings string
	var live, paused sql.NullInt64
	var created, updated int64
	if err := row.Scan(&m.ID, &m.UserID, &m.Slug, &m.Title, &settings, &live, &m.LastSeq, &paused, &created, &updated); err != nil {
		return store.ManagedStream{}, err
	}
	m.BroadcastSettings = json.RawMessage(settings)
	m.LiveStreamID, m.PausedAt = int64Ptr(live), timePtr(paused)
	m.CreatedAt, m.UpdatedAt = fromMicros(created), fromMicros(updated)
	return m, nil
}

func (s *Store) CreateManagedStream(ctx context.Context, userID int64, slug, title string, broadcastSettings json.RawMessage) (store.ManagedStream, error) {
	settings, err := store.ObjectText(broadcastSettings, "broadcast settings")
	if err != nil {
		return store.ManagedStream{}, err
	}
	now := micros(s.nowUTC())
	m, err := scanStream(s.w.QueryRowContext(ctx, `
		INSERT INTO managed_streams (user_id, slug, title, broadcast_settings, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING `+streamCols,
		userID, slug, title, settings, now, now))
	return m, mapErr(err, "create managed stream")
}

func (s *Store) ManagedStreamByID(ctx context.Context, id int64) (store.ManagedStream, error) {
	m, err := scanStream(s.r.QueryRowContext(ctx, `SELECT `+streamCols+` FROM managed_streams WHERE id = ?`, id))
	return m, mapErr(err, "managed stream by id")
}

func (s *Store) ManagedStreamBySlug(ctx context.Context, userID int64, slug string) (store.ManagedStream, error) {
	m, err := scanStream(s.r.QueryRowContext(ctx,
		`SELECT `+streamCols+` FROM managed_streams WHERE user_id = ? AND lower(slug) = lower(?)`, userID, slug))
	return m, mapErr(err, "managed stream by slug")
}

func (s *Store) ListManagedStreams(ctx context.Context, userID int64) ([]store.ManagedStream, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+streamCols+` FROM managed_streams WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, mapErr(err, "list managed streams")
	}
	return collect(rows, scanStream, "list managed streams")
}

// UpdateBroadcastSettings runs update inside the write transaction: update must be quick and
// must not call back into the store's write methods.
func (s *Store) UpdateBroadcastSettings(ctx context.Context, id int64, update func(current store.ManagedStream) (store.SettingsUpdate, error)) (store.ManagedStream, error) {
	var m store.ManagedStream
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		cur, err := scanStream(tx.QueryRowContext(ctx, `SELECT `+streamCols+` FROM managed_streams WHERE id = ?`, id))
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
		m, err = scanStream(tx.QueryRowContext(ctx,
			`UPDATE managed_streams SET broadcast_settings = ?, paused_at = ?, updated_at = ? WHERE id = ? RETURNING `+streamCols,
			settings, nullMicros(next.PausedAt), micros(s.nowUTC()), id))
		return mapErr(err, "update broadcast settings")
	})
	return m, err
}

const liveCols = `id, managed_stream_id, started_at, ended_at`

func scanLive(row interface{ Scan(...any) error }) (store.LiveStream, error) {
	var l store.LiveStream
	var started int64
	var ended sql.NullInt64
	if err := row.Scan(&l.ID, &l.ManagedStreamID, &started, &ended); err != nil {
		return store.LiveStream{}, err
	}
	l.StartedAt, l.EndedAt = fromMicros(started), timePtr(ended)
	return l, nil
}

// currentLive returns the slot's current live stream id (nil when not live); ErrNotFound for
// a missing slot.
func currentLive(ctx context.Context, q querier, slot int64) (*int64, error) {
	var live sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT live_stream_id FROM managed_streams WHERE id = ?`, slot).Scan(&live); err != nil {
		return nil, err
	}
	return int64Ptr(live), nil
}

func (s *Store) StartLiveStream(ctx context.Context, managedStreamID int64, at time.Time) (store.LiveStream, bool, error) {
	var ls store.LiveStream
	started := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		live, err := currentLive(ctx, tx, managedStreamID)
		if err != nil {
			return mapErr(err, "start live stream")
		}
		if live != nil {
			ls, err = scanLive(tx.QueryRowContext(ctx, `SELECT `+liveCols+` FROM live_streams WHERE id = ?`, *live))
			return mapErr(err, "start live stream")
		}
		ls, err = scanLive(tx.QueryRowContext(ctx,
			`INSERT INTO live_streams (managed_stream_id, started_at) VALUES (?, ?) RETURNING `+liveCols,
			managedStreamID, micros(at)))
		if err != nil {
			return mapErr(err, "start live stream")
		}
		_, err = tx.ExecContext(ctx, `UPDATE managed_streams SET live_stream_id = ?, updated_at = ? WHERE id = ?`,
			ls.ID, micros(s.nowUTC()), managedStreamID)
		started = true
		return mapErr(err, "start live stream")
	})
	return ls, started, err
}

func (s *Store) EndLiveStream(ctx context.Context, managedStreamID int64, at time.Time) (store.LiveStream, error) {
	var ls store.LiveStream
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		live, err := currentLive(ctx, tx, managedStreamID)
		if err != nil {
			return mapErr(err, "end live stream")
		}
		if live == nil {
			return fmt.Errorf("end live stream: slot is not live: %w", store.ErrNotFound)
		}
		ls, err = scanLive(tx.QueryRowContext(ctx,
			`UPDATE live_streams SET ended_at = ? WHERE id = ? RETURNING `+liveCols, micros(at), *live))
		if err != nil {
			return mapErr(err, "end live stream")
		}
		_, err = tx.ExecContext(ctx, `UPDATE managed_streams SET live_stream_id = NULL, updated_at = ? WHERE id = ?`,
			micros(s.nowUTC()), managedStreamID)
		return mapErr(err, "end live stream")
	})
	if errors.Is(err, store.ErrNotFound) {
		return store.LiveStream{}, err
	}
	return ls, err
}

func (s *Store) LiveStreamByID(ctx context.Context, id int64) (store.LiveStream, error) {
	ls, err := scanLive(s.r.QueryRowContext(ctx, `SELECT `+liveCols+` FROM live_streams WHERE id = ?`, id))
	return ls, mapErr(err, "live stream by id")
}
