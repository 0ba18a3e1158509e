package storetest

import (
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

func testUpdateBroadcastSettings(t *testing.T, s store.Store) {
	ctx := t.Context()
	u := mkUser(t, s, "alice")
	m, err := s.CreateManagedStream(ctx, u.ID, "main", "Main", []byte(`{"a":1}`))
	require.NoError(t, err)

	var seen store.ManagedStream
	got, err := s.UpdateBroadcastSettings(ctx, m.ID, func(cur store.ManagedStream) (store.SettingsUpdate, error) {
		seen = cur
		return store.SettingsUpdate{BroadcastSettings: json.RawMessage(`{"a":2,"vibe_coding":{"enabled":true}}`)}, nil
	})
	require.NoError(t, err)
	require.Equal(t, m.ID, seen.ID, "update receives the slot as stored")
	require.JSONEq(t, `{"a":1}`, string(seen.BroadcastSettings), "update receives the current settings")
	require.Nil(t, seen.PausedAt)
	require.Equal(t, m.ID, got.ID)
	require.JSONEq(t, `{"a":2,"vibe_coding":{"enabled":true}}`, string(got.BroadcastSettings))
	require.False(t, got.UpdatedAt.Before(m.UpdatedAt))

	boom := errors.New("boom")
	_, err = s.UpdateBroadcastSettings(ctx, m.ID, func(store.ManagedStream) (store.SettingsUpdate, error) {
		return store.SettingsUpdate{BroadcastSettings: json.RawMessage(`{"a":3}`)}, boom
	})
	require.ErrorIs(t, err, boom, "an error from update aborts")
	_, err = s.UpdateBroadcastSettings(ctx, m.ID, func(store.ManagedStream) (store.SettingsUpdate, error) {
		return store.SettingsUpdate{BroadcastSettings: json.RawMessage(`not json`)}, nil
	})
	require.Error(t, err, "invalid JSON is refused")
	after, err := s.ManagedStreamByID(ctx, m.ID)
	require.NoError(t, err)
	require.JSONEq(t, `{"a":2,"vibe_coding":{"enabled":true}}`, string(after.BroadcastSettings), "aborted updates change nothing")

	called := false
	_, err = s.UpdateBroadcastSettings(ctx, m.ID+100, func(store.ManagedStream) (store.SettingsUpdate, error) {
		called = true
		return store.SettingsUpdate{BroadcastSettings: json.RawMessage(`{}`)}, nil
	})
	require.ErrorIs(t, err, store.ErrNotFound)
	require.False(t, called)
}

// testUpdateBroadcastSettingsPause: the update keeps PausedAt as it says, and withholds the
// events it selects in the same transaction, or not at all when it aborts.
func testUpdateBroadcastSettingsPause(t *testing.T, s store.Store) {
	ctx := t.Context()
	f := mkFixture(t, s, "alice")
	other := mkFixture(t, s, "bob")
	insert(t, s, f.event("before", at(0)), f.event("due", at(5*time.Second)), f.event("after", at(11*time.Second)))
	insert(t, s, other.event("o1", at(5*time.Second)))
	update := func(u store.SettingsUpdate, fail error) (store.ManagedStream, error) {
		return s.UpdateBroadcastSettings(ctx, f.slot.ID, func(cur store.ManagedStream) (store.SettingsUpdate, error) {
			if u.BroadcastSettings == nil {
				u.BroadcastSettings = cur.BroadcastSettings
			}
			return u, fail
		})
	}

	paused, err := update(store.SettingsUpdate{PausedAt: ptr(at(2 * time.Second))}, nil)
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(2*time.Second)), paused.PausedAt)
	got, err := s.ManagedStreamByID(ctx, f.slot.ID)
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(2*time.Second)), got.PausedAt)

	// The slot id of the withhold is the slot's, whatever the callback says.
	resume := store.SettingsUpdate{Withhold: &store.Withhold{ManagedStreamID: other.slot.ID,
		ReceivedFrom: at(time.Second), ReceivedTo: at(10 * time.Second), Reason: vibe.WithheldDueWhilePaused}}
	_, err = update(resume, errors.New("boom"))
	require.Error(t, err)
	for _, e := range allEvents(t, s, f.slot.ID) {
		require.False(t, e.Withheld, "an aborted update withholds nothing")
	}
	shown, err := update(resume, nil)
	require.NoError(t, err)
	require.Nil(t, shown.PausedAt)
	withheld := map[string]string{}
	for _, e := range allEvents(t, s, f.slot.ID) {
		if e.Withheld {
			withheld[e.EventID] = e.WithheldReason
		}
	}
	require.Equal(t, map[string]string{"due": vibe.WithheldDueWhilePaused}, withheld)
	o, err := s.VibeEventByEventID(ctx, other.slot.ID, "o1")
	require.NoError(t, err)
	require.False(t, o.Withheld, "other slots are untouched")
}

// testUpdateBroadcastSettingsConcurrent: read-modify-write under the row lock loses no update.
func testUpdateBroadcastSettingsConcurrent(t *testing.T, s store.Store) {
	ctx := t.Context()
	u := mkUser(t, s, "alice")
	m, err := s.CreateManagedStream(ctx, u.ID, "main", "Main", []byte(`{"n":0}`))
	require.NoError(t, err)
	const workers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Go(func() {
			for range each {
				_, err := s.UpdateBroadcastSettings(ctx, m.ID, func(cur store.ManagedStream) (store.SettingsUpdate, error) {
					var v struct{ N int }
					if err := json.Unmarshal(cur.BroadcastSettings, &v); err != nil {
						return store.SettingsUpdate{}, err
					}
					return store.SettingsUpdate{BroadcastSettings: json.RawMessage(`{"n":` + strconv.Itoa(v.N+1) + `}`)}, nil
				})
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got, err := s.ManagedStreamByID(ctx, m.ID)
	require.NoError(t, err)
	require.JSONEq(t, `{"n":80}`, string(got.BroadcastSettings))
}

func testLiveStreams(t *testing.T, s store.Store) {
	ctx := t.Context()
	u := mkUser(t, s, "alice")
	m := mkSlot(t, s, u.ID, "main")

	ls, started, err := s.StartLiveStream(ctx, m.ID, at(0))
	require.NoError(t, err)
	require.True(t, started)
	require.Positive(t, ls.ID)
	require.Equal(t, m.ID, ls.ManagedStreamID)
	requireTime(t, at(0), ls.StartedAt)
	require.Nil(t, ls.EndedAt)
	slot, err := s.ManagedStreamByID(ctx, m.ID)
	require.NoError(t, err)
	require.Equal(t, &ls.ID, slot.LiveStreamID)

	again, started, err := s.StartLiveStream(ctx, m.ID, at(time.Minute))
	require.NoError(t, err)
	require.False(t, started, "an already live slot is not started again")
	require.Equal(t, ls.ID, again.ID)
	requireTime(t, at(0), again.StartedAt)

	byID, err := s.LiveStreamByID(ctx, ls.ID)
	require.NoError(t, err)
	require.Equal(t, m.ID, byID.ManagedStreamID)
	require.Nil(t, byID.EndedAt)

	ended, err := s.EndLiveStream(ctx, m.ID, at(time.Hour))
	require.NoError(t, err)
	require.Equal(t, ls.ID, ended.ID)
	requireTimePtr(t, ptr(at(time.Hour)), ended.EndedAt)
	requireTime(t, at(0), ended.StartedAt)
	byID, err = s.LiveStreamByID(ctx, ls.ID)
	require.NoError(t, err, "an ended live stream is still found")
	requireTimePtr(t, ptr(at(time.Hour)), byID.EndedAt)
	_, err = s.LiveStreamByID(ctx, ls.ID+1000)
	require.ErrorIs(t, err, store.ErrNotFound)
	slot, err = s.ManagedStreamByID(ctx, m.ID)
	require.NoError(t, err)
	require.Nil(t, slot.LiveStreamID)

	_, err = s.EndLiveStream(ctx, m.ID, at(2*time.Hour))
	require.ErrorIs(t, err, store.ErrNotFound, "a slot that is not live cannot end")

	next, started, err := s.StartLiveStream(ctx, m.ID, at(3*time.Hour))
	require.NoError(t, err)
	require.True(t, started)
	require.NotEqual(t, ls.ID, next.ID, "going live again starts a new live stream")

	_, _, err = s.StartLiveStream(ctx, m.ID+100, at(0))
	require.ErrorIs(t, err, store.ErrNotFound)
	_, err = s.EndLiveStream(ctx, m.ID+100, at(0))
	require.ErrorIs(t, err, store.ErrNotFound)
}

func testVibeSessions(t *testing.T, s store.Store) {
	ctx := t.Context()
	u := mkUser(t, s, "alice")
	m := mkSlot(t, s, u.ID, "main")
	ls, _, err := s.StartLiveStream(ctx, m.ID, at(0))
	require.NoError(t, err)

	v, err := s.UpsertVibeSession(ctx, store.VibeSession{
		ManagedStreamID: m.ID, SessionKey: "k1", LiveStreamID: &ls.ID,
		Publisher: json.RawMessage(`{"name":"cli","version":"1"}`), StartedAt: at(0), LastSeenAt: at(0),
	})
	require.NoError(t, err)
	require.Positive(t, v.ID)
	require.Equal(t, m.ID, v.ManagedStreamID)
	require.Equal(t, "k1", v.SessionKey)
	require.Equal(t, &ls.ID, v.LiveStreamID)
	require.JSONEq(t, `{"name":"cli","version":"1"}`, string(v.Publisher))
	require.Equal(t, store.SessionActive, v.Status)
	requireTime(t, at(0), v.StartedAt)
	requireTime(t, at(0), v.LastSeenAt)
	require.Nil(t, v.LastEventAt)
	require.Nil(t, v.EndedAt)

	require.NoError(t, s.EndVibeSession(ctx, v.ID, at(time.Minute)))
	got, err := s.VibeSessionByKey(ctx, m.ID, "k1")
	require.NoError(t, err)
	require.Equal(t, store.SessionEnded, got.Status)
	requireTimePtr(t, ptr(at(time.Minute)), got.EndedAt)
	require.NoError(t, s.EndVibeSession(ctx, v.ID, at(time.Hour)), "ending twice is harmless")
	got, err = s.VibeSessionByKey(ctx, m.ID, "k1")
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(time.Minute)), got.EndedAt, "the first end time is kept")

	v2, err := s.UpsertVibeSession(ctx, store.VibeSession{
		ManagedStreamID: m.ID, SessionKey: "k1", Publisher: json.RawMessage(`{"name":"cli","version":"2"}`),
		StartedAt: at(2 * time.Minute), LastSeenAt: at(2 * time.Minute),
	})
	require.NoError(t, err)
	require.Equal(t, v.ID, v2.ID, "the same (slot, key) is the same session")
	require.Equal(t, store.SessionActive, v2.Status, "a refresh reactivates")
	require.Nil(t, v2.EndedAt)
	require.Nil(t, v2.LiveStreamID, "the live stream is refreshed")
	require.JSONEq(t, `{"name":"cli","version":"2"}`, string(v2.Publisher))
	requireTime(t, at(0), v2.StartedAt, "started_at is kept")
	requireTime(t, at(2*time.Minute), v2.LastSeenAt)

	other := mkSlot(t, s, u.ID, "other")
	v3, err := s.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: other.ID, SessionKey: "k1", LastSeenAt: at(time.Minute)})
	require.NoError(t, err)
	require.NotEqual(t, v.ID, v3.ID, "keys are per slot")
	require.JSONEq(t, `{}`, string(v3.Publisher))
	k2, err := s.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID, SessionKey: "k2", LastSeenAt: at(time.Minute)})
	require.NoError(t, err)

	latest, err := s.LatestVibeSession(ctx, m.ID)
	require.NoError(t, err)
	require.Equal(t, v.ID, latest.ID, "latest by last_seen_at")
	_, err = s.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID, SessionKey: "k2", LastSeenAt: at(time.Hour)})
	require.NoError(t, err)
	latest, err = s.LatestVibeSession(ctx, m.ID)
	require.NoError(t, err)
	require.Equal(t, k2.ID, latest.ID)

	_, err = s.VibeSessionByKey(ctx, m.ID, "nope")
	require.ErrorIs(t, err, store.ErrNotFound)
	empty := mkSlot(t, s, u.ID, "empty")
	_, err = s.LatestVibeSession(ctx, empty.ID)
	require.ErrorIs(t, err, store.ErrNotFound)
	require.ErrorIs(t, s.EndVibeSession(ctx, v.ID+v3.ID+k2.ID+100, at(0)), store.ErrNotFound)
	_, err = s.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID + other.ID + empty.ID + 100, SessionKey: "x"})
	require.ErrorIs(t, err, store.ErrNotFound, "a session needs an existing slot")
}

func testEndIdleVibeSessions(t *testing.T, s store.Store) {
	ctx := t.Context()
	u := mkUser(t, s, "alice")
	m := mkSlot(t, s, u.ID, "main")
	mk := func(key string, seen time.Time) store.VibeSession {
		v, err := s.UpsertVibeSession(ctx, store.VibeSession{ManagedStreamID: m.ID, SessionKey: key, LastSeenAt: seen})
		require.NoError(t, err)
		return v
	}
	old1, old2, fresh := mk("old1", at(0)), mk("old2", at(time.Minute)), mk("fresh", at(time.Hour))
	ended := mk("ended", at(0))
	require.NoError(t, s.EndVibeSession(ctx, ended.ID, at(time.Second)))

	n, err := s.EndIdleVibeSessions(ctx, at(30*time.Minute), at(2*time.Hour))
	require.NoError(t, err)
	require.EqualValues(t, 2, n)
	for _, v := range []store.VibeSession{old1, old2} {
		got, err := s.VibeSessionByKey(ctx, m.ID, v.SessionKey)
		require.NoError(t, err)
		require.Equal(t, store.SessionEnded, got.Status)
		requireTimePtr(t, ptr(at(2*time.Hour)), got.EndedAt)
	}
	got, err := s.VibeSessionByKey(ctx, m.ID, fresh.SessionKey)
	require.NoError(t, err)
	require.Equal(t, store.SessionActive, got.Status)
	got, err = s.VibeSessionByKey(ctx, m.ID, ended.SessionKey)
	require.NoError(t, err)
	requireTimePtr(t, ptr(at(time.Second)), got.EndedAt, "already ended sessions are untouched")

	n, err = s.EndIdleVibeSessions(ctx, at(30*time.Minute), at(3*time.Hour))
	require.NoError(t, err)
	require.Zero(t, n)
}
