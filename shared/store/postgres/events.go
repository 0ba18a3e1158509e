package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"openvibe.live/backend/shared/store"
)

const eventCols = `e.id, e.managed_stream_id, e.seq, e.session_id, s.session_key, e.event_id, e.event_type,
	e.visibility, e.live_stream_id, e.payload::text, e.occurred_at, e.received_at, e.withheld,
	coalesce(e.withheld_reason, ''), e.retracted_at, e.retracted_by, e.first_delivered_at, e.normalized::text`

const eventFrom = ` FROM vibe_coding_events e JOIN vibe_coding_sessions s ON s.id = e.session_id `

func scanEvent(row pgx.Row) (store.VibeEvent, error) {
	var e store.VibeEvent
	var payload string
	var normalized *string
	if err := row.Scan(&e.ID, &e.ManagedStreamID, &e.Seq, &e.SessionID, &e.SessionKey, &e.EventID, &e.EventType,
		&e.Visibility, &e.LiveStreamID, &payload, &e.OccurredAt, &e.ReceivedAt, &e.Withheld,
		&e.WithheldReason, &e.RetractedAt, &e.RetractedBy, &e.FirstDeliveredAt, &normalized); err != nil {
		return store.VibeEvent{}, err
	}
	e.Payload = json.RawMessage(payload)
	if normalized != nil {
		e.Normalized = json.RawMessage(*normalized)
	}
	utc(&e.ReceivedAt)
	utcPtr(&e.OccurredAt, &e.RetractedAt, &e.FirstDeliveredAt)
	return e, nil
}

type eventKey struct {
	slot    int64
	eventID string
}

// InsertVibeEvents stores the batch in one transaction sent as two pipelined round trips
// (BEGIN and COMMIT ride along with the statements):
//
//  1. BEGIN; lock every slot of the batch once, in id order (SELECT … FOR NO KEY UPDATE:
//     concurrent batches sharing slots cannot deadlock), read their last_seq, load the
//     sessions, and fetch the events of the batch that are already stored (duplicates);
//  2. insert the new events with one multi-row INSERT … SELECT FROM unnest(…), numbering them
//     from last_seq in input order, write each slot's last_seq and each session's times; COMMIT.
//
// While the slot rows are locked no other transaction can add events to those slots, so the
// duplicate check cannot race and the numbers stay gap-free; a rollback returns them.
func (s *Store) InsertVibeEvents(ctx context.Context, events []store.NewVibeEvent) ([]store.InsertedVibeEvent, error) {
	if len(events) == 0 {
		return []store.InsertedVibeEvent{}, nil
	}
	if err := store.ValidateNewEvents(events); err != nil {
		return nil, fmt.Errorf("insert vibe events: %w", err)
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, mapErr(err, "insert vibe events: acquire connection")
	}
	// A connection released inside a transaction (a failed ROLLBACK) is destroyed by the pool.
	defer conn.Release()
	out := make([]store.InsertedVibeEvent, len(events))
	if err := s.insertEvents(ctx, conn, events, out); err != nil {
		if conn.Conn().PgConn().TxStatus() != 'I' {
			if _, rbErr := conn.Exec(context.WithoutCancel(ctx), "ROLLBACK"); rbErr != nil {
				s.log.WarnContext(ctx, "rollback of a failed event batch failed; dropping the connection", "error", rbErr)
			}
		}
		return nil, err
	}
	return out, nil
}

func (s *Store) insertEvents(ctx context.Context, tx querier, events []store.NewVibeEvent, out []store.InsertedVibeEvent) error {
	lastSeq, sessionSlot, sessionKey, existing, err := lockAndLoad(ctx, tx, events)
	if err != nil {
		return err
	}
	var ins insertArrays
	first := map[eventKey]int{} // first index of each new event in the batch
	seen := map[int64]time.Time{}
	for i, e := range events {
		if slot, ok := sessionSlot[e.SessionID]; !ok || slot != e.ManagedStreamID {
			return fmt.Errorf("insert vibe events: session %d is not in slot %d: %w", e.SessionID, e.ManagedStreamID, store.ErrNotFound)
		}
		received := s.orNow(e.ReceivedAt)
		if received.After(seen[e.SessionID]) {
			seen[e.SessionID] = received
		}
		k := eventKey{e.ManagedStreamID, e.EventID}
		if row, ok := existing[k]; ok {
			out[i] = store.InsertedVibeEvent{Event: row, Duplicate: true}
			continue
		}
		if _, ok := first[k]; ok {
			continue // resolved below, once the first copy has its id
		}
		first[k] = i
		seq := lastSeq[e.ManagedStreamID] + 1
		lastSeq[e.ManagedStreamID] = seq
		ins.add(e, seq, received)
		out[i] = store.InsertedVibeEvent{Event: store.VibeEvent{
			ManagedStreamID: e.ManagedStreamID, Seq: seq, SessionID: e.SessionID, SessionKey: sessionKey[e.SessionID],
			EventID: e.EventID, EventType: e.EventType, Visibility: e.Visibility, LiveStreamID: e.LiveStreamID,
			Payload: e.Payload, Normalized: e.Normalized, OccurredAt: truncPtr(e.OccurredAt), ReceivedAt: received,
			Withheld: e.Withheld, WithheldReason: withheldReason(e),
		}}
	}

	ids, err := writeEvents(ctx, tx, &ins, lastSeq, seen)
	if err != nil {
		return err
	}
	for i, e := range events {
		k := eventKey{e.ManagedStreamID, e.EventID}
		j, isNew := first[k]
		switch {
		case isNew && j == i:
			out[i].Event.ID = ids[eventSeq{e.ManagedStreamID, out[i].Event.Seq}]
		case isNew:
			out[i] = store.InsertedVibeEvent{Event: out[j].Event, Duplicate: true}
		}
	}
	return nil
}

// lockAndLoad is the first round trip of an insert.
func lockAndLoad(ctx context.Context, tx querier, events []store.NewVibeEvent) (
	lastSeq map[int64]int64, sessionSlot map[int64]int64, sessionKey map[int64]string, existing map[eventKey]store.VibeEvent, err error,
) {
	slotSet, sessionSet := map[int64]bool{}, map[int64]bool{}
	keySet := map[eventKey]bool{}
	var keySlots []int64
	var keyIDs []string
	for _, e := range events {
		slotSet[e.ManagedStreamID], sessionSet[e.SessionID] = true, true
		if k := (eventKey{e.ManagedStreamID, e.EventID}); !keySet[k] {
			keySet[k] = true
			keySlots, keyIDs = append(keySlots, k.slot), append(keyIDs, k.eventID)
		}
	}
	slots := slices.Sorted(maps.Keys(slotSet))
	lastSeq, sessionSlot, sessionKey = map[int64]int64{}, map[int64]int64{}, map[int64]string{}
	existing = map[eventKey]store.VibeEvent{}

	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SELECT id, last_seq FROM managed_streams WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE`, slots).
		Query(func(rows pgx.Rows) error {
			var id, last int64
			_, err := pgx.ForEachRow(rows, []any{&id, &last}, func() error { lastSeq[id] = last; return nil })
			return err
		})
	b.Queue(`SELECT id, managed_stream_id, session_key FROM vibe_coding_sessions WHERE id = ANY($1)`,
		slices.Collect(maps.Keys(sessionSet))).
		Query(func(rows pgx.Rows) error {
			var id, slot int64
			var key string
			_, err := pgx.ForEachRow(rows, []any{&id, &slot, &key}, func() error {
				sessionSlot[id], sessionKey[id] = slot, key
				return nil
			})
			return err
		})
	// LATERAL makes each key an index lookup on (managed_stream_id, event_id), whatever the
	// table's statistics say (a hash join would scan the whole table).
	b.Queue(`SELECT `+eventCols+` FROM unnest($1::bigint[], $2::text[]) AS k(slot, event_id)
		CROSS JOIN LATERAL (SELECT * FROM vibe_coding_events x
			WHERE x.managed_stream_id = k.slot AND x.event_id = k.event_id) e
		JOIN vibe_coding_sessions s ON s.id = e.session_id`, keySlots, keyIDs).
		Query(func(rows pgx.Rows) error {
			for rows.Next() {
				ev, err := scanEvent(rows)
				if err != nil {
					return err
				}
				existing[eventKey{ev.ManagedStreamID, ev.EventID}] = ev
			}
			return rows.Err()
		})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, nil, nil, mapErr(err, "insert vibe events: lock slots")
	}
	for _, slot := range slots {
		if _, ok := lastSeq[slot]; !ok {
			return nil, nil, nil, nil, fmt.Errorf("insert vibe events: slot %d: %w", slot, store.ErrNotFound)
		}
	}
	return lastSeq, sessionSlot, sessionKey, existing, nil
}

// insertArrays holds the columns of the new events, one array per column, for unnest.
type insertArrays struct {
	slot, seq, session []int64
	eventID, typ, vis  []string
	live               []*int64
	payload            []string
	normalized         []*string
	occurred           []*time.Time
	received           []time.Time
	withheld           []bool
	reason             []*string
}

func (a *insertArrays) add(e store.NewVibeEvent, seq int64, received time.Time) {
	a.slot, a.seq, a.session = append(a.slot, e.ManagedStreamID), append(a.seq, seq), append(a.session, e.SessionID)
	a.eventID, a.typ, a.vis = append(a.eventID, e.EventID), append(a.typ, e.EventType), append(a.vis, e.Visibility)
	a.live, a.payload = append(a.live, e.LiveStreamID), append(a.payload, string(e.Payload))
	a.occurred, a.received = append(a.occurred, e.OccurredAt), append(a.received, received)
	a.withheld = append(a.withheld, e.Withheld)
	var reason *string
	if r := withheldReason(e); r != "" {
		reason = &r
	}
	a.reason = append(a.reason, reason)
	var norm *string
	if len(e.Normalized) > 0 {
		n := string(e.Normalized)
		norm = &n
	}
	a.normalized = append(a.normalized, norm)
}

type eventSeq struct{ slot, seq int64 }

// writeEvents is the second round trip: insert, bump slots, touch sessions.
func writeEvents(ctx context.Context, tx querier, a *insertArrays, lastSeq map[int64]int64, seen map[int64]time.Time) (map[eventSeq]int64, error) {
	ids := map[eventSeq]int64{}
	b := &pgx.Batch{}
	if len(a.slot) > 0 {
		b.Queue(`
			INSERT INTO vibe_coding_events (managed_stream_id, seq, session_id, event_id, event_type, visibility,
				live_stream_id, payload, occurred_at, received_at, withheld, withheld_reason, normalized)
			SELECT slot, seq, session, event_id, typ, vis, live, payload::json, occurred, received, withheld, reason, norm::json
			FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[],
				$7::bigint[], $8::text[], $9::timestamptz[], $10::timestamptz[], $11::boolean[], $12::text[], $13::text[])
				AS t(slot, seq, session, event_id, typ, vis, live, payload, occurred, received, withheld, norm, reason)
			RETURNING managed_stream_id, seq, id`,
			a.slot, a.seq, a.session, a.eventID, a.typ, a.vis, a.live, a.payload, a.occurred, a.received, a.withheld,
			a.normalized, a.reason,
		).Query(func(rows pgx.Rows) error {
			var slot, seq, id int64
			_, err := pgx.ForEachRow(rows, []any{&slot, &seq, &id}, func() error { ids[eventSeq{slot, seq}] = id; return nil })
			return err
		})
		slots := slices.Sorted(maps.Keys(lastSeq))
		last := make([]int64, len(slots))
		for i, id := range slots {
			last[i] = lastSeq[id]
		}
		b.Queue(`UPDATE managed_streams AS m SET last_seq = v.last
			FROM unnest($1::bigint[], $2::bigint[]) AS v(id, last) WHERE m.id = v.id AND m.last_seq < v.last`, slots, last)
	}
	sessions := slices.Sorted(maps.Keys(seen))
	times := make([]time.Time, len(sessions))
	for i, id := range sessions {
		times[i] = seen[id]
	}
	b.Queue(`UPDATE vibe_coding_sessions AS s
		SET last_event_at = greatest(s.last_event_at, v.at), last_seen_at = greatest(s.last_seen_at, v.at)
		FROM unnest($1::bigint[], $2::timestamptz[]) AS v(id, at) WHERE s.id = v.id`, sessions, times)
	b.Queue(`COMMIT`)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, mapErr(err, "insert vibe events")
	}
	if len(ids) != len(a.slot) {
		return nil, fmt.Errorf("insert vibe events: %d rows returned for %d events", len(ids), len(a.slot))
	}
	return ids, nil
}

func (s *Store) VibeEventByEventID(ctx context.Context, managedStreamID int64, eventID string) (store.VibeEvent, error) {
	e, err := scanEvent(s.pool.QueryRow(ctx,
		`SELECT `+eventCols+eventFrom+`WHERE e.managed_stream_id = $1 AND e.event_id = $2`, managedStreamID, eventID))
	return e, mapErr(err, "vibe event by event id")
}

func (s *Store) queryEvents(ctx context.Context, doing, where string, args ...any) ([]store.VibeEvent, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+eventCols+eventFrom+where, args...)
	return collect(rows, err, scanEvent, doing)
}

func (s *Store) VibeEventsAfter(ctx context.Context, managedStreamID, afterSeq int64, limit int) ([]store.VibeEvent, error) {
	if limit <= 0 {
		return []store.VibeEvent{}, nil
	}
	return s.queryEvents(ctx, "vibe events after",
		`WHERE e.managed_stream_id = $1 AND e.seq > $2 ORDER BY e.seq LIMIT $3`, managedStreamID, afterSeq, limit)
}

func (s *Store) VibeEventsBefore(ctx context.Context, managedStreamID, beforeSeq int64, limit int) ([]store.VibeEvent, error) {
	if limit <= 0 {
		return []store.VibeEvent{}, nil
	}
	return s.queryEvents(ctx, "vibe events before",
		`WHERE e.managed_stream_id = $1 AND e.seq < $2 ORDER BY e.seq DESC LIMIT $3`,
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
	types, exclude := q.Types, q.ExcludeTypes
	if types == nil {
		types = []string{}
	}
	if exclude == nil {
		exclude = []string{}
	}
	return s.queryEvents(ctx, "vibe feed", `
		WHERE e.managed_stream_id = $1 AND e.seq < $2 AND e.visibility = 'public' AND NOT e.withheld
		  AND e.retracted_at IS NULL AND e.received_at <= $3
		  AND (cardinality($4::text[]) = 0 OR e.event_type = ANY($4::text[]))
		  AND NOT (e.event_type = ANY($6::text[]))
		ORDER BY e.seq DESC LIMIT $5`,
		q.ManagedStreamID, seqBound(q.BeforeSeq), q.ReceivedBefore, types, q.Limit, exclude)
}

func (s *Store) RetractVibeEvent(ctx context.Context, managedStreamID int64, eventID string, by int64, at time.Time) (store.VibeEvent, error) {
	var e store.VibeEvent
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE vibe_coding_events
			SET retracted_by = CASE WHEN retracted_at IS NULL THEN $1 ELSE retracted_by END,
			    retracted_at = coalesce(retracted_at, $2)
			WHERE managed_stream_id = $3 AND event_id = $4`, by, at, managedStreamID, eventID)
		if err := affectedOne(tag, err, "retract vibe event"); err != nil {
			return err
		}
		e, err = scanEvent(tx.QueryRow(ctx,
			`SELECT `+eventCols+eventFrom+`WHERE e.managed_stream_id = $1 AND e.event_id = $2`, managedStreamID, eventID))
		return mapErr(err, "retract vibe event")
	})
	if err != nil {
		return store.VibeEvent{}, err
	}
	return e, nil
}

// WithholdVibeEvents withholds the events w selects.
func (s *Store) WithholdVibeEvents(ctx context.Context, w store.Withhold) (int64, error) {
	return withhold(ctx, s.pool, w)
}

// withhold marks the events w selects withheld in one statement.
func withhold(ctx context.Context, q querier, w store.Withhold) (int64, error) {
	var reason *string
	if w.Reason != "" {
		reason = &w.Reason
	}
	const set = `UPDATE vibe_coding_events SET withheld = true, withheld_reason = $1
		WHERE managed_stream_id = $2 AND NOT withheld AND `
	var tag pgconn.CommandTag
	var err error
	if len(w.Seqs) > 0 {
		tag, err = q.Exec(ctx, set+`seq = ANY($3)`, reason, w.ManagedStreamID, w.Seqs)
	} else {
		var to *time.Time
		if !w.ReceivedTo.IsZero() {
			to = &w.ReceivedTo
		}
		tag, err = q.Exec(ctx, set+`received_at >= $3 AND ($4::timestamptz IS NULL OR received_at <= $4)`,
			reason, w.ManagedStreamID, w.ReceivedFrom, to)
	}
	if err != nil {
		return 0, mapErr(err, "withhold vibe events")
	}
	return tag.RowsAffected(), nil
}

// withheldReason is the reason stored with a new event: none unless it is withheld.
func withheldReason(e store.NewVibeEvent) string {
	if !e.Withheld {
		return ""
	}
	return e.WithheldReason
}

func (s *Store) MarkVibeEventsDelivered(ctx context.Context, managedStreamID int64, seqs []int64, at time.Time) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `UPDATE vibe_coding_events SET first_delivered_at = $1
		WHERE managed_stream_id = $2 AND seq = ANY($3) AND first_delivered_at IS NULL`, at, managedStreamID, seqs)
	return mapErr(err, "mark vibe events delivered")
}

// pruneChunk bounds the rows one prune statement deletes, keeping each transaction short.
const pruneChunk = 10000

// PruneVibeEvents deletes events received before `before`, in chunks of pruneChunk rows.
func (s *Store) PruneVibeEvents(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		tag, err := s.pool.Exec(ctx, `DELETE FROM vibe_coding_events WHERE id IN (
			SELECT id FROM vibe_coding_events WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
			before, pruneChunk)
		if err != nil {
			return total, mapErr(err, "prune vibe events")
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < pruneChunk {
			return total, nil
		}
	}
}
