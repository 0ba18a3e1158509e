package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"openvibe.live/backend/shared/store"
)

const sessionCols = `id, managed_stream_id, session_key, live_stream_id, publisher::text, status,
	started_at, last_seen_at, last_event_at, ended_at`

func scanSession(row pgx.Row) (store.VibeSession, error) {
	var v store.VibeSession
	var publisher string
	if err := row.Scan(&v.ID, &v.ManagedStreamID, &v.SessionKey, &v.LiveStreamID, &publisher, &v.Status,
		&v.StartedAt, &v.LastSeenAt, &v.LastEventAt, &v.EndedAt); err != nil {
		return store.VibeSession{}, err
	}
	v.Publisher = json.RawMessage(publisher)
	utc(&v.StartedAt, &v.LastSeenAt)
	utcPtr(&v.LastEventAt, &v.EndedAt)
	return v, nil
}

// UpsertVibeSession creates the session or refreshes publisher, live stream and last_seen_at,
// reactivating it. StartedAt and LastSeenAt default to now; StartedAt is kept on refresh.
func (s *Store) UpsertVibeSession(ctx context.Context, v store.VibeSession) (store.VibeSession, error) {
	publisher, err := store.ObjectText(v.Publisher, "publisher")
	if err != nil {
		return store.VibeSession{}, err
	}
	seen := s.orNow(v.LastSeenAt)
	started := seen
	if !v.StartedAt.IsZero() {
		started = s.orNow(v.StartedAt)
	}
	out, err := scanSession(s.pool.QueryRow(ctx, `
		INSERT INTO vibe_coding_sessions
			(managed_stream_id, session_key, live_stream_id, publisher, status, started_at, last_seen_at)
		VALUES ($1, $2, $3, $4::jsonb, 'active', $5, $6)
		ON CONFLICT (managed_stream_id, session_key) DO UPDATE SET
			live_stream_id = excluded.live_stream_id,
			publisher = excluded.publisher,
			status = 'active',
			last_seen_at = excluded.last_seen_at,
			ended_at = NULL
		RETURNING `+sessionCols,
		v.ManagedStreamID, v.SessionKey, v.LiveStreamID, publisher, started, seen))
	return out, mapErr(err, "upsert vibe session")
}

func (s *Store) VibeSessionByKey(ctx context.Context, managedStreamID int64, sessionKey string) (store.VibeSession, error) {
	v, err := scanSession(s.pool.QueryRow(ctx,
		`SELECT `+sessionCols+` FROM vibe_coding_sessions WHERE managed_stream_id = $1 AND session_key = $2`,
		managedStreamID, sessionKey))
	return v, mapErr(err, "vibe session by key")
}

func (s *Store) LatestVibeSession(ctx context.Context, managedStreamID int64) (store.VibeSession, error) {
	v, err := scanSession(s.pool.QueryRow(ctx,
		`SELECT `+sessionCols+` FROM vibe_coding_sessions WHERE managed_stream_id = $1
		 ORDER BY last_seen_at DESC, id DESC LIMIT 1`, managedStreamID))
	return v, mapErr(err, "latest vibe session")
}

// EndVibeSession marks the session ended; ending an ended session keeps its first end time.
func (s *Store) EndVibeSession(ctx context.Context, sessionID int64, at time.Time) error {
	tag, err := s.pool.Exec(ctx,
		`UPDATE vibe_coding_sessions SET status = 'ended', ended_at = coalesce(ended_at, $1) WHERE id = $2`,
		at, sessionID)
	return affectedOne(tag, err, "end vibe session")
}

func (s *Store) EndIdleVibeSessions(ctx context.Context, idleSince, at time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx,
		`UPDATE vibe_coding_sessions SET status = 'ended', ended_at = $1 WHERE status = 'active' AND last_seen_at < $2`,
		at, idleSince)
	if err != nil {
		return 0, mapErr(err, "end idle vibe sessions")
	}
	return tag.RowsAffected(), nil
}
