package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

func testVibeEventsPagination(t *testing.T, s store.Store) {
	ctx := t.Context()
	f, other := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	var batch []store.NewVibeEvent
	for i := range 10 {
		ev := f.event(fmt.Sprintf("e%d", i+1), at(time.Duration(i)*time.Second))
		ev.Withheld = i == 3
		ev.Visibility = map[bool]string{true: vibe.VisibilityStreamer, false: vibe.VisibilityPublic}[i == 4]
		batch = append(batch, ev)
	}
	insert(t, s, batch...)
	insert(t, s, other.event("o1", at(0)))
	_, err := s.RetractVibeEvent(ctx, f.slot.ID, "e6", f.user.ID, at(time.Hour))
	require.NoError(t, err)

	after := func(afterSeq int64, limit int) []int64 {
		ev, err := s.VibeEventsAfter(ctx, f.slot.ID, afterSeq, limit)
		require.NoError(t, err)
		return seqs(ev)
	}
	before := func(beforeSeq int64, limit int) []int64 {
		ev, err := s.VibeEventsBefore(ctx, f.slot.ID, beforeSeq, limit)
		require.NoError(t, err)
		return seqs(ev)
	}
	require.Equal(t, []int64{1, 2, 3}, after(0, 3), "oldest first")
	require.Equal(t, []int64{4, 5, 6, 7}, after(3, 4), "withheld, streamer-only and retracted included")
	require.Equal(t, []int64{9, 10}, after(8, 100))
	require.Empty(t, after(10, 100))
	require.Equal(t, []int64{10, 9, 8}, before(0, 3), "0: from the newest, newest first")
	require.Equal(t, []int64{7, 6, 5, 4}, before(8, 4))
	require.Equal(t, []int64{2, 1}, before(3, 100))
	require.Empty(t, before(1, 100))
	require.Empty(t, after(0, 0), "a limit <= 0 returns no rows")
	require.Empty(t, before(0, -1))
	feed, err := s.VibeFeed(ctx, store.FeedQuery{ManagedStreamID: f.slot.ID, ReceivedBefore: at(time.Hour)})
	require.NoError(t, err)
	require.Empty(t, feed)

	all, err := s.VibeEventsBefore(ctx, other.slot.ID, 0, 100)
	require.NoError(t, err)
	require.Len(t, all, 1, "other slots are not mixed in")
	require.Equal(t, "o1", all[0].EventID)
}

func testVibeFeed(t *testing.T, s store.Store) {
	ctx := t.Context()
	f, other := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	type spec struct {
		typ, vis          string
		withheld, retract bool
		received          time.Duration
	}
	specs := []spec{
		{"prompt", vibe.VisibilityPublic, false, false, 1 * time.Second},    // 1 visible
		{"thinking", vibe.VisibilityPublic, false, false, 2 * time.Second},  // 2 visible
		{"prompt", vibe.VisibilityStreamer, false, false, 3 * time.Second},  // 3 streamer only
		{"prompt", vibe.VisibilityPublic, true, false, 4 * time.Second},     // 4 withheld
		{"prompt", vibe.VisibilityPublic, false, true, 5 * time.Second},     // 5 retracted
		{"tool_call", vibe.VisibilityPublic, false, false, 6 * time.Second}, // 6 visible
		{"prompt", vibe.VisibilityPublic, false, false, 10 * time.Second},   // 7 visible at cutoff
		{"prompt", vibe.VisibilityPublic, false, false, 11 * time.Second},   // 8 still delayed
		{"thinking", vibe.VisibilityPublic, false, false, 12 * time.Second}, // 9 still delayed
	}
	var batch []store.NewVibeEvent
	for i, sp := range specs {
		ev := f.event(fmt.Sprintf("e%d", i+1), at(sp.received))
		ev.EventType, ev.Visibility, ev.Withheld = sp.typ, sp.vis, sp.withheld
		batch = append(batch, ev)
	}
	insert(t, s, batch...)
	insert(t, s, other.event("o1", at(time.Second)))
	_, err := s.RetractVibeEvent(ctx, f.slot.ID, "e5", f.user.ID, at(time.Minute))
	require.NoError(t, err)

	cutoff := at(10 * time.Second)
	cases := []struct {
		name string
		q    store.FeedQuery
		want []int64
	}{
		{"all visible up to the cutoff", store.FeedQuery{ReceivedBefore: cutoff, Limit: 100}, []int64{7, 6, 2, 1}},
		{"limit", store.FeedQuery{ReceivedBefore: cutoff, Limit: 2}, []int64{7, 6}},
		{"before seq", store.FeedQuery{ReceivedBefore: cutoff, BeforeSeq: 6, Limit: 100}, []int64{2, 1}},
		{"before seq and limit", store.FeedQuery{ReceivedBefore: cutoff, BeforeSeq: 7, Limit: 1}, []int64{6}},
		{"types", store.FeedQuery{ReceivedBefore: cutoff, Types: []string{"prompt", "tool_call"}, Limit: 100}, []int64{7, 6, 1}},
		{"one type", store.FeedQuery{ReceivedBefore: cutoff, Types: []string{"thinking"}, Limit: 100}, []int64{2}},
		{"unknown type", store.FeedQuery{ReceivedBefore: cutoff, Types: []string{"nope"}, Limit: 100}, []int64{}},
		{"exclude types", store.FeedQuery{ReceivedBefore: cutoff, ExcludeTypes: []string{"thinking"}, Limit: 100}, []int64{7, 6, 1}},
		{"exclude two", store.FeedQuery{ReceivedBefore: cutoff, ExcludeTypes: []string{"thinking", "prompt"}, Limit: 100}, []int64{6}},
		{"include and exclude", store.FeedQuery{ReceivedBefore: cutoff, Types: []string{"prompt", "thinking"},
			ExcludeTypes: []string{"prompt"}, Limit: 100}, []int64{2}},
		{"later cutoff", store.FeedQuery{ReceivedBefore: at(time.Hour), Limit: 100}, []int64{9, 8, 7, 6, 2, 1}},
		{"early cutoff", store.FeedQuery{ReceivedBefore: at(time.Second), Limit: 100}, []int64{1}},
		{"cutoff before everything", store.FeedQuery{ReceivedBefore: at(0), Limit: 100}, []int64{}},
	}
	for _, tc := range cases {
		tc.q.ManagedStreamID = f.slot.ID
		got, err := s.VibeFeed(ctx, tc.q)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, seqs(got), tc.name)
		for _, e := range got {
			require.Equal(t, f.slot.ID, e.ManagedStreamID, tc.name)
		}
	}
}

func testRetractVibeEvent(t *testing.T, s store.Store) {
	ctx := t.Context()
	f, other := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	insert(t, s, f.event("e1", at(0)), f.event("e2", at(time.Second)))

	got, err := s.RetractVibeEvent(ctx, f.slot.ID, "e1", f.user.ID, at(time.Minute))
	require.NoError(t, err)
	require.Equal(t, "e1", got.EventID)
	require.EqualValues(t, 1, got.Seq)
	require.Equal(t, &f.user.ID, got.RetractedBy)
	requireTimePtr(t, ptr(at(time.Minute)), got.RetractedAt)

	again, err := s.RetractVibeEvent(ctx, f.slot.ID, "e1", other.user.ID, at(time.Hour))
	require.NoError(t, err, "retracting twice is not an error")
	require.Equal(t, &f.user.ID, again.RetractedBy, "the first author is kept")
	requireTimePtr(t, ptr(at(time.Minute)), again.RetractedAt, "the first time is kept")

	stored, err := s.VibeEventByEventID(ctx, f.slot.ID, "e1")
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(time.Minute)), stored.RetractedAt)
	e2, err := s.VibeEventByEventID(ctx, f.slot.ID, "e2")
	require.NoError(t, err)
	require.Nil(t, e2.RetractedAt)

	_, err = s.RetractVibeEvent(ctx, f.slot.ID, "nope", f.user.ID, at(0))
	require.ErrorIs(t, err, store.ErrNotFound)
	_, err = s.RetractVibeEvent(ctx, other.slot.ID, "e2", other.user.ID, at(0))
	require.ErrorIs(t, err, store.ErrNotFound, "an event of another slot is not found")
}

func testWithholdVibeEvents(t *testing.T, s store.Store) {
	ctx := t.Context()
	f, other := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	already := f.event("e4", at(4*time.Second))
	already.Withheld, already.WithheldReason = true, vibe.WithheldPaused
	shown := f.event("e1", at(time.Second))
	shown.WithheldReason = vibe.WithheldPaused // ignored: the event is not withheld
	res := insert(t, s, shown, f.event("e2", at(2*time.Second)), f.event("e3", at(3*time.Second)), already,
		f.event("e5", at(5*time.Second)), f.event("e6", at(6*time.Second)))
	require.Empty(t, res[0].Event.WithheldReason)
	require.Equal(t, vibe.WithheldPaused, res[3].Event.WithheldReason)
	insert(t, s, other.event("o1", at(3*time.Second)))
	reasons := func() map[string]string {
		out := map[string]string{}
		for _, e := range allEvents(t, s, f.slot.ID) {
			if e.Withheld {
				out[e.EventID] = e.WithheldReason
			} else {
				out[e.EventID] = "-"
			}
		}
		return out
	}
	withhold := func(w store.Withhold) int64 {
		t.Helper()
		w.ManagedStreamID = f.slot.ID
		n, err := s.WithholdVibeEvents(ctx, w)
		require.NoError(t, err)
		return n
	}

	n := withhold(store.Withhold{ReceivedFrom: at(2 * time.Second), ReceivedTo: at(4 * time.Second), Reason: vibe.WithheldPanic})
	require.EqualValues(t, 2, n, "events received in the range, not already withheld")
	require.Equal(t, map[string]string{"e1": "-", "e2": vibe.WithheldPanic, "e3": vibe.WithheldPanic,
		"e4": vibe.WithheldPaused, "e5": "-", "e6": "-"}, reasons(), "an event already withheld keeps its reason")
	o, err := s.VibeEventByEventID(ctx, other.slot.ID, "o1")
	require.NoError(t, err)
	require.False(t, o.Withheld, "other slots are untouched")

	// By seq, as chat sockets mark events that came due while the slot was paused: every
	// replica marks the same event, and the first mark stands.
	seq := allEvents(t, s, f.slot.ID)[4].Seq
	for range 3 {
		withhold(store.Withhold{Seqs: []int64{seq, seq + 100}, Reason: vibe.WithheldDueWhilePaused})
	}
	require.Equal(t, vibe.WithheldDueWhilePaused, reasons()["e5"])
	require.Zero(t, withhold(store.Withhold{Seqs: []int64{seq}, Reason: vibe.WithheldPanic}), "idempotent")
	require.Equal(t, vibe.WithheldDueWhilePaused, reasons()["e5"])

	require.EqualValues(t, 2, withhold(store.Withhold{Reason: vibe.WithheldPanic}), "no bounds: every event")
	feed, err := s.VibeFeed(ctx, store.FeedQuery{ManagedStreamID: f.slot.ID, ReceivedBefore: at(time.Hour), Limit: 10})
	require.NoError(t, err)
	require.Empty(t, feed)
	require.Zero(t, withhold(store.Withhold{Seqs: []int64{}, ReceivedFrom: at(time.Hour)}))
}

func testMarkVibeEventsDelivered(t *testing.T, s store.Store) {
	ctx := t.Context()
	f, other := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	insert(t, s, f.event("e1", at(0)), f.event("e2", at(0)), f.event("e3", at(0)), f.event("e4", at(0)))
	insert(t, s, other.event("o1", at(0)))

	require.NoError(t, s.MarkVibeEventsDelivered(ctx, f.slot.ID, []int64{1, 2}, at(time.Second)))
	require.NoError(t, s.MarkVibeEventsDelivered(ctx, f.slot.ID, []int64{2, 3, 99}, at(time.Minute)))
	require.NoError(t, s.MarkVibeEventsDelivered(ctx, f.slot.ID, nil, at(time.Hour)))
	want := map[int64]*time.Time{1: ptr(at(time.Second)), 2: ptr(at(time.Second)), 3: ptr(at(time.Minute)), 4: nil}
	for _, e := range allEvents(t, s, f.slot.ID) {
		requireTimePtr(t, want[e.Seq], e.FirstDeliveredAt, fmt.Sprintf("seq %d", e.Seq))
	}
	o, err := s.VibeEventByEventID(ctx, other.slot.ID, "o1")
	require.NoError(t, err)
	require.Nil(t, o.FirstDeliveredAt, "seq 1 of another slot is untouched")

	// Large sets are accepted.
	many := make([]int64, 2000)
	for i := range many {
		many[i] = int64(i + 1)
	}
	require.NoError(t, s.MarkVibeEventsDelivered(ctx, f.slot.ID, many, at(time.Hour)))
	e4, err := s.VibeEventByEventID(ctx, f.slot.ID, "e4")
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(time.Hour)), e4.FirstDeliveredAt)
}

func testPruneVibeEvents(t *testing.T, s store.Store) {
	ctx := t.Context()
	f, other := mkFixture(t, s, "alice"), mkFixture(t, s, "bob")
	insert(t, s, f.event("e1", at(0)), f.event("e2", at(time.Hour)), f.event("e3", at(2*time.Hour)))
	insert(t, s, other.event("o1", at(0)))

	n, err := s.PruneVibeEvents(ctx, at(time.Hour))
	require.NoError(t, err)
	require.EqualValues(t, 2, n, "events of every slot received before the cutoff")
	require.Equal(t, []int64{2, 3}, seqs(allEvents(t, s, f.slot.ID)))
	require.Empty(t, allEvents(t, s, other.slot.ID))

	res := insert(t, s, f.event("e4", at(3*time.Hour)), other.event("o2", at(3*time.Hour)))
	require.EqualValues(t, 4, res[0].Event.Seq, "sequence numbers are never reused after a prune")
	require.EqualValues(t, 2, res[1].Event.Seq)
}

func testChatMessages(t *testing.T, s store.Store) {
	ctx := t.Context()
	alice, bob := mkUser(t, s, "Alice"), mkUser(t, s, "bob")
	slot, otherSlot := mkSlot(t, s, alice.ID, "main"), mkSlot(t, s, alice.ID, "other")

	var sent []store.ChatMessage
	for i := range 5 {
		u := []store.User{alice, bob}[i%2]
		m, err := s.InsertChatMessage(ctx, store.ChatMessage{ManagedStreamID: slot.ID, UserID: u.ID,
			Text: fmt.Sprintf("msg %d", i), CreatedAt: at(time.Duration(i) * time.Second)})
		require.NoError(t, err)
		require.Positive(t, m.ID)
		require.Equal(t, u.Username, m.Username)
		requireTime(t, at(time.Duration(i)*time.Second), m.CreatedAt)
		sent = append(sent, m)
	}
	_, err := s.InsertChatMessage(ctx, store.ChatMessage{ManagedStreamID: otherSlot.ID, UserID: bob.ID, Text: "elsewhere"})
	require.NoError(t, err)
	_, err = s.InsertChatMessage(ctx, store.ChatMessage{ManagedStreamID: slot.ID, UserID: alice.ID + bob.ID + 100, Text: "ghost"})
	require.ErrorIs(t, err, store.ErrNotFound, "a message needs an existing user")

	recent, err := s.RecentChatMessages(ctx, slot.ID, 3)
	require.NoError(t, err)
	require.Len(t, recent, 3)
	for i, m := range recent {
		want := sent[i+2]
		require.Equal(t, want.ID, m.ID, "the newest 3, oldest first")
		require.Equal(t, want.Text, m.Text)
		require.Equal(t, want.UserID, m.UserID)
		require.Equal(t, want.Username, m.Username)
		require.Equal(t, slot.ID, m.ManagedStreamID)
		requireTime(t, want.CreatedAt, m.CreatedAt)
	}
	all, err := s.RecentChatMessages(ctx, slot.ID, 100)
	require.NoError(t, err)
	require.Len(t, all, 5)
	require.Equal(t, "Alice", all[0].Username)
	none, err := s.RecentChatMessages(ctx, slot.ID, 0)
	require.NoError(t, err)
	require.Empty(t, none, "a limit <= 0 returns no rows")
	none, err = s.RecentChatMessages(ctx, slot.ID+otherSlot.ID+100, 10)
	require.NoError(t, err)
	require.Empty(t, none)
}

// testPruneVibeEventsMany: a backlog larger than any backend's delete chunk is pruned fully.
func testPruneVibeEventsMany(t *testing.T, s store.Store) {
	ctx := t.Context()
	f := mkFixture(t, s, "alice")
	const total, batch = 12_000, 500
	for b := range total / batch {
		events := make([]store.NewVibeEvent, batch)
		for i := range events {
			n := b*batch + i
			events[i] = f.event(fmt.Sprintf("e%d", n), at(time.Duration(n)*time.Millisecond))
		}
		insert(t, s, events...)
	}
	insert(t, s, f.event("keep", at(time.Hour)))
	n, err := s.PruneVibeEvents(ctx, at(time.Minute))
	require.NoError(t, err)
	require.EqualValues(t, total, n)
	left := allEvents(t, s, f.slot.ID)
	require.Len(t, left, 1)
	require.Equal(t, "keep", left[0].EventID)
	require.EqualValues(t, total+1, left[0].Seq)
}
