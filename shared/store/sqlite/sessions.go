package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"openvibe.live/backend/shared/store"
)

const sessionCols = `id, managed_stream_id, session_key, live_stream_id, publisher, status,
	started_at, last_seen_at, last_event_at, ended_at`

func scanSession(row interface{ Scan(...any) error }) (store.VibeSession, error) {
	var v store.VibeSession
	var live, lastEvent, ended sql.NullInt64
	var publisher string
	var started, seen int64
	if err := row.Scan(&v.ID, &v.ManagedStreamID, &v.SessionKey, &live, &publisher, &v.Status,
		&started, &seen, &lastEvent, &ended); err != nil {
		return store.VibeSession{}, err
	}
	v.LiveStreamID = int64Ptr(live)
	v.Publisher = json.RawMessage(publisher)
	v.StartedAt, v.LastSeenAt = fromMicros(started), fromMicros(seen)
	v.LastEventAt, v.EndedAt = timePtr(lastEvent), timePtr(ended)
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
	out, err := scanSession(s.w.QueryRowContext(ctx, `
		INSERT INTO vibe_coding_sessions
			(managed_stream_id, session_key, live_stream_id, publisher, status, started_at, last_seen_at)
		VALUES (?, ?, ?, ?, 'active', ?, ?)
		ON CONFLICT (managed_stream_id, session_key) DO UPDATE SET
			live_stream_id = excluded.live_stream_id,
			publisher = excluded.publisher,
			status = 'active',
			last_seen_at = excluded.last_seen_at,
			ended_at = NULL
		RETURNING `+sessionCols,
		v.ManagedStreamID, v.SessionKey, nullInt64(v.LiveStreamID), publisher, micros(started), micros(seen)))
	return out, mapErr(err, "upsert vibe session")
}

func (s *Store) VibeSessionByKey(ctx context.Context, managedStreamID int64, sessionKey string) (store.VibeSession, error) {
	v, err := scanSession(s.r.QueryRowContext(ctx,
		`SELECT `+sessionCols+` FROM vibe_coding_sessions WHERE managed_stream_id = ? AND session_key = ?`,
		managedStreamID, sessionKey))
	return v, mapErr(err, "vibe session by key")
}

func (s *Store) LatestVibeSession(ctx context.Context, managedStreamID int64) (store.VibeSession, error) {
	v, err := scanSession(s.r.QueryRowContext(ctx,
		`SELECT `+sessionCols+` FROM vibe_coding_sessions WHERE managed_stream_id = ?
		 ORDER BY last_seen_at DESC, id DESC LIMIT 1`, managedStreamID))
	return v, mapErr(err, "latest vibe session")
}

// EndVibeSession marks the session ended; ending an ended session keeps its first end time.
func (s *Store) EndVibeSession(ctx context.Context, sessionID int64, at time.Time) error {
	res, err := s.w.ExecContext(ctx,
		`UPDATE vibe_coding_sessions SET status = 'ended', ended_at = coalesce(ended_at, ?) WHERE id = ?`,
		micros(at), sessionID)
	return affectedOne(res, err, "end vibe session")
}

func (s *Store) EndIdleVibeSessions(ctx context.Context, idleSince, at time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx,
		`UPDATE vibe_coding_sessions SET status = 'ended', ended_at = ? WHERE status = 'active' AND last_seen_at < ?`,
		micros(at), micros(idleSince))
	if err != nil {
		return 0, mapErr(err, "end idle vibe sessions")
	}
	n, err := res.RowsAffected()
	return n, mapErr(err, "end idle vibe sessions")
}
