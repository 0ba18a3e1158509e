// Package storetest is the conformance suite of store.Store: every backend runs the same
// tests, each on a fresh store, and a backend that passes honours the contract documented in
// package store.
package storetest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// Run runs the suite. newStore must return a fresh, migrated, empty store and arrange for it
// to be closed when the test ends.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Ping", testPing},
		{"Users", testUsers},
		{"APITokens", testAPITokens},
		{"ManagedStreams", testManagedStreams},
		{"UpdateBroadcastSettings", testUpdateBroadcastSettings},
		{"UpdateBroadcastSettingsPause", testUpdateBroadcastSettingsPause},
		{"UpdateBroadcastSettingsConcurrent", testUpdateBroadcastSettingsConcurrent},
		{"LiveStreams", testLiveStreams},
		{"VibeSessions", testVibeSessions},
		{"EndIdleVibeSessions", testEndIdleVibeSessions},
		{"InsertVibeEvents", testInsertVibeEvents},
		{"InsertVibeEventsDuplicates", testInsertVibeEventsDuplicates},
		{"InsertVibeEventsAtomic", testInsertVibeEventsAtomic},
		{"InsertVibeEventsMixedSlots", testInsertVibeEventsMixedSlots},
		{"InsertVibeEventsConcurrent", testInsertVibeEventsConcurrent},
		{"VibeEventsPagination", testVibeEventsPagination},
		{"VibeFeed", testVibeFeed},
		{"ViewerFeedFollowsTheRule", testViewerFeedFollowsTheRule},
		{"RetractVibeEvent", testRetractVibeEvent},
		{"WithholdVibeEvents", testWithholdVibeEvents},
		{"MarkVibeEventsDelivered", testMarkVibeEventsDelivered},
		{"PruneVibeEvents", testPruneVibeEvents},
		{"PruneVibeEventsMany", testPruneVibeEventsMany},
		{"ChatMessages", testChatMessages},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newStore(t))
		})
	}
}

// base is a fixed instant with sub-microsecond digits, in a non-UTC zone, so that precision
// and UTC normalisation are checked everywhere it is used.
var base = time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("UTC+2", 2*3600))

func at(d time.Duration) time.Time { return base.Add(d) }

// requireTime asserts got is want to at least millisecond precision, in UTC.
func requireTime(t *testing.T, want, got time.Time, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, time.UTC, got.Location(), msgAndArgs...)
	diff := got.Sub(want)
	require.Truef(t, diff > -time.Millisecond && diff < time.Millisecond,
		"time %s, want %s (%v)", got.Format(time.RFC3339Nano), want.UTC().Format(time.RFC3339Nano), fmt.Sprint(msgAndArgs...))
}

func requireTimePtr(t *testing.T, want, got *time.Time, msgAndArgs ...any) {
	t.Helper()
	if want == nil {
		require.Nil(t, got, msgAndArgs...)
		return
	}
	require.NotNil(t, got, msgAndArgs...)
	requireTime(t, *want, *got, msgAndArgs...)
}

// requireRecent asserts a store-set time is close to now, in UTC.
func requireRecent(t *testing.T, got time.Time) {
	t.Helper()
	require.Equal(t, time.UTC, got.Location())
	require.WithinDuration(t, time.Now(), got, time.Minute)
}

func ptr[T any](v T) *T { return &v }

func mkUser(t *testing.T, s store.Store, name string) store.User {
	t.Helper()
	u, err := s.CreateUser(t.Context(), name, "hash-of-"+name)
	require.NoError(t, err)
	return u
}

func mkSlot(t *testing.T, s store.Store, userID int64, slug string) store.ManagedStream {
	t.Helper()
	m, err := s.CreateManagedStream(t.Context(), userID, slug, "Title "+slug, nil)
	require.NoError(t, err)
	return m
}

func mkSession(t *testing.T, s store.Store, slotID int64, key string) store.VibeSession {
	t.Helper()
	v, err := s.UpsertVibeSession(t.Context(), store.VibeSession{
		ManagedStreamID: slotID, SessionKey: key, Publisher: json.RawMessage(`{"name":"test"}`),
		StartedAt: at(0), LastSeenAt: at(0),
	})
	require.NoError(t, err)
	return v
}

// fixture is a user with one slot and one session.
type fixture struct {
	user    store.User
	slot    store.ManagedStream
	session store.VibeSession
}

func mkFixture(t *testing.T, s store.Store, name string) fixture {
	t.Helper()
	u := mkUser(t, s, name)
	m := mkSlot(t, s, u.ID, "main")
	return fixture{user: u, slot: m, session: mkSession(t, s, m.ID, "sess-"+name)}
}

func (f fixture) event(id string, received time.Time) store.NewVibeEvent {
	return store.NewVibeEvent{
		ManagedStreamID: f.slot.ID, SessionID: f.session.ID, EventID: id, EventType: "prompt",
		Visibility: vibe.VisibilityPublic, ReceivedAt: received,
		Payload: json.RawMessage(fmt.Sprintf(`{"eventId":%q,"type":"prompt","text":"hello"}`, id)),
	}
}

func insert(t *testing.T, s store.Store, events ...store.NewVibeEvent) []store.InsertedVibeEvent {
	t.Helper()
	res, err := s.InsertVibeEvents(t.Context(), events)
	require.NoError(t, err)
	require.Len(t, res, len(events))
	return res
}

func seqs(events []store.VibeEvent) []int64 {
	out := make([]int64, len(events))
	for i, e := range events {
		out[i] = e.Seq
	}
	return out
}

func seqRange(from, to int64) []int64 {
	out := []int64{}
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func allEvents(t *testing.T, s store.Store, slotID int64) []store.VibeEvent {
	t.Helper()
	ev, err := s.VibeEventsAfter(t.Context(), slotID, 0, 1_000_000)
	require.NoError(t, err)
	return ev
}

func testPing(t *testing.T, s store.Store) {
	require.NoError(t, s.Ping(t.Context()))
}
