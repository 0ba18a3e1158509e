package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"openvibe.live/backend/shared/store"
)

const eventCols = `e.id, e.managed_stream_id, e.seq, e.session_id, s.session_key, e.event_id, e.event_type,
	e.visibility, e.live_stream_id, e.payload, e.occurred_at, e.received_at, e.withheld,
	e.withheld_reason, e.retracted_at, e.retracted_by, e.first_delivered_at, e.normalized`

const eventFrom = ` FROM vibe_coding_events e JOIN vibe_coding_sessions s ON s.id = e.session_id `

func scanEvent(row interface{ Scan(...any) error }) (store.VibeEvent, error) {
	var e store.VibeEvent
	var live, occurred, retracted, retractedBy, delivered sql.NullInt64
	var payload string
	var normalized, reason sql.NullString
	var received int64
	if err := row.Scan(&e.ID, &e.ManagedStreamID, &e.Seq, &e.SessionID, &e.SessionKey, &e.EventID, &e.EventType,
		&e.Visibility, &live, &payload, &occurred, &received, &e.Withheld,
		&reason, &retracted, &retractedBy, &delivered, &normalized); err != nil {
		return store.VibeEvent{}, err
	}
	e.LiveStreamID, e.WithheldReason = int64Ptr(live), reason.String
	e.Payload = json.RawMessage(payload)
	if normalized.Valid {
		e.Normalized = json.RawMessage(normalized.String)
	}
	e.OccurredAt, e.ReceivedAt = timePtr(occurred), fromMicros(received)
	e.RetractedAt, e.RetractedBy, e.FirstDeliveredAt = timePtr(retracted), int64Ptr(retractedBy), timePtr(delivered)
	return e, nil
}

// InsertVibeEvents stores the batch in one transaction: each slot's last_seq is read once,
// every event is inserted with a reused prepared statement (ON CONFLICT DO NOTHING; a
// conflict means a duplicate, whose stored row is fetched), then each slot's last_seq and
// each session's times are written once. The single writer connection serializes batches,
// so the per-slot numbers are gap-free; a rollback discards them.
func (s *Store) InsertVibeEvents(ctx context.Context, events []store.NewVibeEvent) ([]store.InsertedVibeEvent, error) {
	if len(events) == 0 {
		return []store.InsertedVibeEvent{}, nil
	}
	if err := store.ValidateNewEvents(events); err != nil {
		return nil, fmt.Errorf("insert vibe events: %w", err)
	}
	out := make([]store.InsertedVibeEvent, len(events))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		return s.insertEvents(ctx, tx, events, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Store) insertEvents(ctx context.Context, tx *sql.Tx, events []store.NewVibeEvent, out []store.InsertedVibeEvent) error {
	lastSeq, err := slotSeqs(ctx, tx, events)
	if err != nil {
		return err
	}
	keys, err := sessionKeys(ctx, tx, events)
	if err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `
		INSERT INTO vibe_coding_events (managed_stream_id, seq, session_id, event_id, event_type, visibility,
			live_stream_id, payload, occurred_at, received_at, withheld, withheld_reason, normalized)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (managed_stream_id, event_id) DO NOTHING`)
	if err != nil {
		return mapErr(err, "insert vibe events")
	}
	defer ins.Close()
	seen := map[int64]time.Time{} // session → newest received_at in the batch
	for i, e := range events {
		received := s.orNow(e.ReceivedAt)
		seq := lastSeq[e.ManagedStreamID] + 1
		res, err := ins.ExecContext(ctx, e.ManagedStreamID, seq, e.SessionID, e.EventID, e.EventType, e.Visibility,
			nullInt64(e.LiveStreamID), string(e.Payload), nullMicros(e.OccurredAt), micros(received), e.Withheld,
			withheldReason(e), nullText(e.Normalized))
		var id, n int64
		if err == nil {
			if n, err = res.RowsAffected(); err == nil && n == 1 {
				id, err = res.LastInsertId()
			}
		}
		switch {
		case err == nil && n == 0: // (slot, event_id) exists: return the first row
			first, err := scanEvent(tx.QueryRowContext(ctx,
				`SELECT `+eventCols+eventFrom+`WHERE e.managed_stream_id = ? AND e.event_id = ?`,
				e.ManagedStreamID, e.EventID))
			if err != nil {
				return mapErr(err, "insert vibe events: fetch duplicate")
			}
			out[i] = store.InsertedVibeEvent{Event: first, Duplicate: true}
		case err != nil:
			return mapErr(err, "insert vibe events")
		default:
			lastSeq[e.ManagedStreamID] = seq
			out[i] = store.InsertedVibeEvent{Event: store.VibeEvent{
				ID: id, ManagedStreamID: e.ManagedStreamID, Seq: seq, SessionID: e.SessionID,
				SessionKey: keys[e.SessionID], EventID: e.EventID, EventType: e.EventType,
				Visibility: e.Visibility, LiveStreamID: e.LiveStreamID, Payload: e.Payload, Normalized: e.Normalized,
				OccurredAt: truncPtr(e.OccurredAt), ReceivedAt: received, Withheld: e.Withheld,
				WithheldReason: withheldReason(e).String,
			}}
		}
		if received.After(seen[e.SessionID]) {
			seen[e.SessionID] = received
		}
	}
	for _, slot := range slices.Sorted(maps.Keys(lastSeq)) {
		if _, err := tx.ExecContext(ctx, `UPDATE managed_streams SET last_seq = ? WHERE id = ? AND last_seq < ?`,
			lastSeq[slot], slot, lastSeq[slot]); err != nil {
			return mapErr(err, "insert vibe events: bump slot sequence")
		}
	}
	for _, id := range slices.Sorted(maps.Keys(seen)) {
		at := micros(seen[id])
		if _, err := tx.ExecContext(ctx, `UPDATE vibe_coding_sessions
			SET last_event_at = max(coalesce(last_event_at, ?), ?), last_seen_at = max(last_seen_at, ?)
			WHERE id = ?`, at, at, at, id); err != nil {
			return mapErr(err, "insert vibe events: touch session")
		}
	}
	return nil
}

// slotSeqs reads each slot's last_seq once; ErrNotFound when a slot is missing.
func slotSeqs(ctx context.Context, q querier, events []store.NewVibeEvent) (map[int64]int64, error) {
	seqs := map[int64]int64{}
	for _, e := range events {
		if _, ok := seqs[e.ManagedStreamID]; ok {
			continue
		}
		var last int64
		err := q.QueryRowContext(ctx, `SELECT last_seq FROM managed_streams WHERE id = ?`, e.ManagedStreamID).Scan(&last)
		if err != nil {
			return nil, mapErr(err, fmt.Sprintf("insert vibe events: slot %d", e.ManagedStreamID))
		}
		seqs[e.ManagedStreamID] = last
	}
	return seqs, nil
}

// sessionKeys loads the key of every session in the batch and checks that each event's
// session belongs to the event's slot.
func sessionKeys(ctx context.Context, q querier, events []store.NewVibeEvent) (map[int64]string, error) {
	keys := map[int64]string{}
	slots := map[int64]int64{}
	for _, e := range events {
		if _, ok := keys[e.SessionID]; !ok {
			var key string
			var slot int64
			err := q.QueryRowContext(ctx, `SELECT managed_stream_id, session_key FROM vibe_coding_sessions WHERE id = ?`,
				e.SessionID).Scan(&slot, &key)
			if err != nil {
				return nil, mapErr(err, fmt.Sprintf("insert vibe events: session %d", e.SessionID))
			}
			keys[e.SessionID], slots[e.SessionID] = key, slot
		}
		if slots[e.SessionID] != e.ManagedStreamID {
			return nil, fmt.Errorf("insert vibe events: session %d is not in slot %d: %w",
				e.SessionID, e.ManagedStreamID, store.ErrNotFound)
		}
	}
	return keys, nil
}

func (s *Store) VibeEventByEventID(ctx context.Context, managedStreamID int64, eventID string) (store.VibeEvent, error) {
	e, err := scanEvent(s.r.QueryRowContext(ctx,
		`SELECT `+eventCols+eventFrom+`WHERE e.managed_stream_id = ? AND e.event_id = ?`, managedStreamID, eventID))
	return e, mapErr(err, "vibe event by event id")
}

func (s *Store) queryEvents(ctx context.Context, doing, where string, args ...any) ([]store.VibeEvent, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+eventCols+eventFrom+where, args...)
	if err != nil {
		return nil, mapErr(err, doing)
	}
	return collect(rows, scanEvent, doing)
}

func (s *Store) VibeEventsAfter(ctx context.Context, managedStreamID, afterSeq int64, limit int) ([]store.VibeEvent, error) {
	if limit <= 0 {
		return []store.VibeEvent{}, nil
	}
	return s.queryEvents(ctx, "vibe events after",
		`WHERE e.managed_stream_id = ? AND e.seq > ? ORDER BY e.seq LIMIT ?`, managedStreamID, afterSeq, limit)
}

func (s *Store) VibeEventsBefore(ctx context.Context, managedStreamID, beforeSeq int64, limit int) ([]store.VibeEvent, error) {
	if limit <= 0 {
		return []store.VibeEvent{}, nil
	}
	return s.queryEvents(ctx, "vibe events before",
		`WHERE e.managed_stream_id = ? AND e.seq < ? ORDER BY e.seq DESC LIMIT ?`,
		managedStreamID, seqBound(beforeSeq), limit)
}

// seqBound maps "0: from the newest" to an open upper bound.
func seqBound(beforeSeq int64) int64 {
	if beforeSeq <= 0 {
		return math.MaxInt64
	}
	return beforeSeq
}

func (s *Store) VibeFeed(ctx context.Context, q store.FeedQuery) ([]store.VibeEvent, error) {
	if q.Limit <= 0 {
		return []store.VibeEvent{}, nil
	}
	where := `WHERE e.managed_stream_id = ? AND e.seq < ? AND e.visibility = 'public' AND e.withheld = 0
		AND e.retracted_at IS NULL AND e.received_at <= ?`
	args := []any{q.ManagedStreamID, seqBound(q.BeforeSeq), micros(q.ReceivedBefore)}
	if len(q.Types) > 0 {
		where += ` AND e.event_type IN (` + placeholders(len(q.Types)) + `)`
		for _, t := range q.Types {
			args = append(args, t)
		}
	}
	if len(q.ExcludeTypes) > 0 {
		where += ` AND e.event_type NOT IN (` + placeholders(len(q.ExcludeTypes)) + `)`
		for _, t := range q.ExcludeTypes {
			args = append(args, t)
		}
	}
	return s.queryEvents(ctx, "vibe feed", where+` ORDER BY e.seq DESC LIMIT ?`, append(args, q.Limit)...)
}

func (s *Store) RetractVibeEvent(ctx context.Context, managedStreamID int64, eventID string, by int64, at time.Time) (store.VibeEvent, error) {
	var e store.VibeEvent
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE vibe_coding_events
			SET retracted_by = CASE WHEN retracted_at IS NULL THEN ? ELSE retracted_by END,
			    retracted_at = coalesce(retracted_at, ?)
			WHERE managed_stream_id = ? AND event_id = ?`, by, micros(at), managedStreamID, eventID)
		if err := affectedOne(res, err, "retract vibe event"); err != nil {
			return err
		}
		e, err = scanEvent(tx.QueryRowContext(ctx,
			`SELECT `+eventCols+eventFrom+`WHERE e.managed_stream_id = ? AND e.event_id = ?`, managedStreamID, eventID))
		return mapErr(err, "retract vibe event")
	})
	return e, err
}

// WithholdVibeEvents withholds the events w selects.
func (s *Store) WithholdVibeEvents(ctx context.Context, w store.Withhold) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = withhold(ctx, tx, w)
		return err
	})
	return n, err
}

// withhold marks the events w selects withheld, markChunk seqs per statement.
func withhold(ctx context.Context, q querier, w store.Withhold) (int64, error) {
	const set = `UPDATE vibe_coding_events SET withheld = 1, withheld_reason = ? WHERE managed_stream_id = ? AND withheld = 0 AND `
	reason := sql.NullString{String: w.Reason, Valid: w.Reason != ""}
	var total int64
	exec := func(cond string, args ...any) error {
		res, err := q.ExecContext(ctx, set+cond, append([]any{reason, w.ManagedStreamID}, args...)...)
		if err == nil {
			var n int64
			n, err = res.RowsAffected()
			total += n
		}
		return mapErr(err, "withhold vibe events")
	}
	if len(w.Seqs) == 0 {
		to := int64(math.MaxInt64)
		if !w.ReceivedTo.IsZero() {
			to = micros(w.ReceivedTo)
		}
		return total, exec(`received_at >= ? AND received_at <= ?`, micros(w.ReceivedFrom), to)
	}
	for chunk := range slices.Chunk(w.Seqs, markChunk) {
		args := make([]any, len(chunk))
		for i, seq := range chunk {
			args[i] = seq
		}
		if err := exec(`seq IN (`+placeholders(len(chunk))+`)`, args...); err != nil {
			return total, err
		}
	}
	return total, nil
}

// withheldReason is the reason column of a new event: NULL unless it is withheld.
func withheldReason(e store.NewVibeEvent) sql.NullString {
	if !e.Withheld || e.WithheldReason == "" {
		return sql.NullString{}
	}
	return sql.NullString{String: e.WithheldReason, Valid: true}
}

// markChunk bounds the number of seqs bound in one statement.
const markChunk = 500

func (s *Store) MarkVibeEventsDelivered(ctx context.Context, managedStreamID int64, seqs []int64, at time.Time) error {
	if len(seqs) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for chunk := range slices.Chunk(seqs, markChunk) {
			args := make([]any, 0, len(chunk)+2)
			args = append(args, micros(at), managedStreamID)
			for _, seq := range chunk {
				args = append(args, seq)
			}
			_, err := tx.ExecContext(ctx, `UPDATE vibe_coding_events SET first_delivered_at = ?
				WHERE managed_stream_id = ? AND first_delivered_at IS NULL AND seq IN (`+placeholders(len(chunk))+`)`, args...)
			if err != nil {
				return mapErr(err, "mark vibe events delivered")
			}
		}
		return nil
	})
}

// pruneChunk bounds the rows one prune transaction deletes, so that a large backlog never
// holds the single writer for long.
const pruneChunk = 5000

// PruneVibeEvents deletes events received before `before`, in chunks of pruneChunk rows.
func (s *Store) PruneVibeEvents(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		res, err := s.w.ExecContext(ctx, `DELETE FROM vibe_coding_events WHERE id IN (
			SELECT id FROM vibe_coding_events WHERE received_at < ? ORDER BY received_at LIMIT ?)`,
			micros(before), pruneChunk)
		if err != nil {
			return total, mapErr(err, "prune vibe events")
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, mapErr(err, "prune vibe events")
		}
		total += n
		if n < pruneChunk {
			return total, nil
		}
	}
}

// nullText stores an empty JSON value as NULL.
func nullText(raw json.RawMessage) sql.NullString {
	return sql.NullString{String: string(raw), Valid: len(raw) > 0}
}
