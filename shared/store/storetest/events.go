package storetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

func testInsertVibeEvents(t *testing.T, s store.Store) {
	ctx := t.Context()
	f := mkFixture(t, s, "alice")
	ls, _, err := s.StartLiveStream(ctx, f.slot.ID, at(0))
	require.NoError(t, err)

	e1 := f.event("e1", at(time.Second))
	e1.LiveStreamID = &ls.ID
	e1.OccurredAt = ptr(at(500 * time.Millisecond))
	e2 := f.event("e2", at(2*time.Second))
	e2.EventType, e2.Visibility, e2.Withheld = "thinking", vibe.VisibilityStreamer, true
	e2.Payload = json.RawMessage(`{"type":"thinking","text":"ü \u2603 \"quoted\" \u0000","n":[1,2.5,null]}`)
	e2.Normalized = json.RawMessage(`{"tool.phase":"completed","sequence":"17","occurredAt":1776813001099}`)
	e3 := f.event("e3", time.Time{}) // zero ReceivedAt: the store's now

	res := insert(t, s, e1, e2, e3)
	for i, r := range res {
		require.False(t, r.Duplicate)
		require.Positive(t, r.Event.ID)
		require.EqualValues(t, i+1, r.Event.Seq, "per-slot sequence from 1")
		require.Equal(t, f.slot.ID, r.Event.ManagedStreamID)
		require.Equal(t, f.session.ID, r.Event.SessionID)
		require.Equal(t, f.session.SessionKey, r.Event.SessionKey)
	}
	requireRecent(t, res[2].Event.ReceivedAt)

	stored := allEvents(t, s, f.slot.ID)
	require.Equal(t, []int64{1, 2, 3}, seqs(stored))
	for i, want := range []store.NewVibeEvent{e1, e2} {
		got := stored[i]
		require.Equal(t, res[i].Event.ID, got.ID)
		require.Equal(t, want.EventID, got.EventID)
		require.Equal(t, want.EventType, got.EventType)
		require.Equal(t, want.Visibility, got.Visibility)
		require.Equal(t, want.LiveStreamID, got.LiveStreamID)
		require.Equal(t, want.Withheld, got.Withheld)
		require.JSONEq(t, string(want.Payload), string(got.Payload))
		requireNormalized(t, want.Normalized, got.Normalized)
		requireNormalized(t, want.Normalized, res[i].Event.Normalized)
		requireTimePtr(t, want.OccurredAt, got.OccurredAt)
		requireTime(t, want.ReceivedAt, got.ReceivedAt)
		requireTime(t, res[i].Event.ReceivedAt, got.ReceivedAt)
		require.Equal(t, f.session.SessionKey, got.SessionKey)
		require.Nil(t, got.RetractedAt)
		require.Nil(t, got.RetractedBy)
		require.Nil(t, got.FirstDeliveredAt)
	}

	slot, err := s.ManagedStreamByID(ctx, f.slot.ID)
	require.NoError(t, err)
	require.EqualValues(t, 3, slot.LastSeq)

	sess, err := s.VibeSessionByKey(ctx, f.slot.ID, f.session.SessionKey)
	require.NoError(t, err)
	require.NotNil(t, sess.LastEventAt, "inserting bumps the session's last_event_at")
	requireTime(t, res[2].Event.ReceivedAt, *sess.LastEventAt)
	requireTime(t, res[2].Event.ReceivedAt, sess.LastSeenAt)

	got, err := s.VibeEventByEventID(ctx, f.slot.ID, "e2")
	require.NoError(t, err)
	require.EqualValues(t, 2, got.Seq)
	requireNormalized(t, e2.Normalized, got.Normalized)

	dup := insert(t, s, e2)
	require.True(t, dup[0].Duplicate)
	requireNormalized(t, e2.Normalized, dup[0].Event.Normalized, "a duplicate returns the first row's record")

	bad := f.event("bad", at(time.Minute))
	bad.Normalized = json.RawMessage(`["not","an","object"]`)
	_, err = s.InsertVibeEvents(ctx, []store.NewVibeEvent{bad})
	require.Error(t, err, "a normalized record must be a JSON object")
	_, err = s.VibeEventByEventID(ctx, f.slot.ID, "nope")
	require.ErrorIs(t, err, store.ErrNotFound)
	other := mkSlot(t, s, f.user.ID, "other")
	_, err = s.VibeEventByEventID(ctx, other.ID, "e2")
	require.ErrorIs(t, err, store.ErrNotFound, "event ids are per slot")

	empty, err := s.InsertVibeEvents(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, empty)
}

func testInsertVibeEventsDuplicates(t *testing.T, s store.Store) {
	ctx := t.Context()
	f := mkFixture(t, s, "alice")
	first := insert(t, s, f.event("e1", at(0)), f.event("e2", at(time.Second)))

	resend := f.event("e1", at(time.Hour))
	resend.Payload = json.RawMessage(`{"changed":true}`)
	res := insert(t, s, f.event("e3", at(2*time.Second)), resend, f.event("e4", at(3*time.Second)))
	require.False(t, res[0].Duplicate)
	require.EqualValues(t, 3, res[0].Event.Seq)
	require.True(t, res[1].Duplicate)
	require.Equal(t, first[0].Event.ID, res[1].Event.ID, "the row stored first is returned")
	require.EqualValues(t, 1, res[1].Event.Seq)
	require.JSONEq(t, string(first[0].Event.Payload), string(res[1].Event.Payload))
	requireTime(t, at(0), res[1].Event.ReceivedAt)
	require.Equal(t, f.session.SessionKey, res[1].Event.SessionKey)
	require.False(t, res[2].Duplicate)
	require.EqualValues(t, 4, res[2].Event.Seq, "a duplicate does not consume a sequence number")

	// A duplicate within one batch is a duplicate of the batch's first copy.
	res = insert(t, s, f.event("e5", at(4*time.Second)), f.event("e5", at(5*time.Second)))
	require.False(t, res[0].Duplicate)
	require.True(t, res[1].Duplicate)
	require.Equal(t, res[0].Event.ID, res[1].Event.ID)
	require.EqualValues(t, 5, res[1].Event.Seq)

	// An all-duplicate batch changes nothing.
	res = insert(t, s, f.event("e2", at(time.Hour)))
	require.True(t, res[0].Duplicate)
	require.EqualValues(t, 2, res[0].Event.Seq)

	require.Equal(t, seqRange(1, 5), seqs(allEvents(t, s, f.slot.ID)))
	slot, err := s.ManagedStreamByID(ctx, f.slot.ID)
	require.NoError(t, err)
	require.EqualValues(t, 5, slot.LastSeq)
}

func testInsertVibeEventsAtomic(t *testing.T, s store.Store) {
	ctx := t.Context()
	a, b := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	insert(t, s, a.event("a1", at(0)))

	bad := []struct {
		name string
		ev   store.NewVibeEvent
	}{
		{"unknown slot", store.NewVibeEvent{ManagedStreamID: a.slot.ID + b.slot.ID + 100, SessionID: a.session.ID,
			EventID: "x", EventType: "prompt", Visibility: vibe.VisibilityPublic, Payload: json.RawMessage(`{}`), ReceivedAt: at(0)}},
		{"session of another slot", store.NewVibeEvent{ManagedStreamID: a.slot.ID, SessionID: b.session.ID,
			EventID: "x", EventType: "prompt", Visibility: vibe.VisibilityPublic, Payload: json.RawMessage(`{}`), ReceivedAt: at(0)}},
		{"unknown session", store.NewVibeEvent{ManagedStreamID: a.slot.ID, SessionID: a.session.ID + b.session.ID + 100,
			EventID: "x", EventType: "prompt", Visibility: vibe.VisibilityPublic, Payload: json.RawMessage(`{}`), ReceivedAt: at(0)}},
		{"unknown live stream", store.NewVibeEvent{ManagedStreamID: a.slot.ID, SessionID: a.session.ID, LiveStreamID: ptr(int64(1 << 40)),
			EventID: "x", EventType: "prompt", Visibility: vibe.VisibilityPublic, Payload: json.RawMessage(`{}`), ReceivedAt: at(0)}},
	}
	for _, tc := range bad {
		// The bad event comes last, after valid events of both slots.
		_, err := s.InsertVibeEvents(ctx, []store.NewVibeEvent{a.event("a2", at(time.Second)), b.event("b1", at(time.Second)), tc.ev})
		require.ErrorIs(t, err, store.ErrNotFound, tc.name)
	}
	for _, payload := range []string{`{not json`, "{\"text\":\"\xff\xfe\"}"} {
		invalid := a.event("a2", at(time.Second))
		invalid.Payload = json.RawMessage(payload)
		_, err := s.InsertVibeEvents(ctx, []store.NewVibeEvent{a.event("a3", at(time.Second)), invalid})
		require.Error(t, err, "payload %q", payload)
	}
	nul := a.event("a\x00", at(time.Second))
	_, err := s.InsertVibeEvents(ctx, []store.NewVibeEvent{nul})
	require.Error(t, err, "a NUL byte in an event id")

	require.Equal(t, []int64{1}, seqs(allEvents(t, s, a.slot.ID)), "nothing of a failed batch is stored")
	require.Empty(t, allEvents(t, s, b.slot.ID))
	res := insert(t, s, a.event("a2", at(time.Second)), b.event("b1", at(time.Second)))
	require.EqualValues(t, 2, res[0].Event.Seq, "a failed batch leaves no gap")
	require.EqualValues(t, 1, res[1].Event.Seq)
}

func testInsertVibeEventsMixedSlots(t *testing.T, s store.Store) {
	a, b := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	insert(t, s, b.event("b0", at(0)))
	var batch []store.NewVibeEvent
	for i := range 6 {
		batch = append(batch, a.event(fmt.Sprintf("a%d", i), at(time.Duration(i)*time.Second)))
		batch = append(batch, b.event(fmt.Sprintf("b%d", i+1), at(time.Duration(i)*time.Second)))
	}
	res := insert(t, s, batch...)
	for i, r := range res {
		require.Equal(t, batch[i].EventID, r.Event.EventID, "results are in input order")
		require.Equal(t, batch[i].ManagedStreamID, r.Event.ManagedStreamID)
		want := int64(i/2 + 1) // a: 1..6
		if i%2 == 1 {
			want++ // b: after b0
		}
		require.Equal(t, want, r.Event.Seq, "per-slot numbering in input order")
	}
	require.Equal(t, seqRange(1, 6), seqs(allEvents(t, s, a.slot.ID)))
	require.Equal(t, seqRange(1, 7), seqs(allEvents(t, s, b.slot.ID)))
}

// testInsertVibeEventsConcurrent: many writers, some slots shared, with resends: per slot the
// stored numbers are exactly 1..N for N distinct event ids, and every writer saw a coherent
// answer.
func testInsertVibeEventsConcurrent(t *testing.T, s store.Store) {
	ctx := t.Context()
	slots := []fixture{mkFixture(t, s, "alice"), mkFixture(t, s, "bob"), mkFixture(t, s, "carol")}
	const writers, batches, batchSize = 8, 12, 5

	type result struct {
		slot, seq int64
		eventID   string
		dup       bool
	}
	var mu sync.Mutex
	var results []result
	var wg sync.WaitGroup
	errs := make(chan error, writers*batches)
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			var sent []store.NewVibeEvent
			for b := range batches {
				var batch []store.NewVibeEvent
				for i := range batchSize {
					if len(sent) > 0 && rng.IntN(5) == 0 { // resend an earlier event
						batch = append(batch, sent[rng.IntN(len(sent))])
						continue
					}
					f := slots[rng.IntN(len(slots))]
					ev := f.event(fmt.Sprintf("w%d-b%d-i%d", w, b, i), at(time.Duration(b)*time.Second))
					batch = append(batch, ev)
					sent = append(sent, ev)
				}
				res, err := s.InsertVibeEvents(ctx, batch)
				errs <- err
				if err != nil {
					return
				}
				mu.Lock()
				for _, r := range res {
					results = append(results, result{r.Event.ManagedStreamID, r.Event.Seq, r.Event.EventID, r.Duplicate})
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	for _, f := range slots {
		stored := allEvents(t, s, f.slot.ID)
		require.Equal(t, seqRange(1, int64(len(stored))), seqs(stored), "gap-free per slot")
		bySeq := map[int64]string{}
		for _, e := range stored {
			bySeq[e.Seq] = e.EventID
		}
		fresh := 0
		for _, r := range results {
			if r.slot != f.slot.ID {
				continue
			}
			require.Equal(t, bySeq[r.seq], r.eventID, "every answer, duplicate or not, names the stored row")
			if !r.dup {
				fresh++
			}
		}
		require.Equal(t, len(stored), fresh, "each stored event was reported new exactly once")
		slot, err := s.ManagedStreamByID(ctx, f.slot.ID)
		require.NoError(t, err)
		require.EqualValues(t, len(stored), slot.LastSeq)
	}
}

// requireNormalized asserts a stored normalized record: nil stays nil, and an object keeps its
// fields in their order.
func requireNormalized(t *testing.T, want, got json.RawMessage, msgAndArgs ...any) {
	t.Helper()
	if len(want) == 0 {
		require.Empty(t, got, msgAndArgs...)
		return
	}
	require.JSONEq(t, string(want), string(got), msgAndArgs...)
	require.Equal(t, keysInOrder(t, want), keysInOrder(t, got), msgAndArgs...)
}

func keysInOrder(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && dec.More() {
				keys = append(keys, v)
				var skip json.RawMessage
				require.NoError(t, dec.Decode(&skip))
			}
		}
	}
}
