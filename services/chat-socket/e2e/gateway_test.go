package e2e

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

// TestGatewayToViewer runs the whole path with real processes: a publisher client talks to
// the publish gateway, which stores and publishes; two chat-socket replicas deliver to their
// viewers. It checks the seed frame and that delay_ms=1500 holds an event ≥ 1.5 s after its ack.
func TestGatewayToViewer(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	_, _, err := w.st.StartLiveStream(t.Context(), w.slot.ID, time.Now()) // acks say delivered only while live
	require.NoError(t, err)
	gw := startGateway(t, w.dbURL, r.URL)
	a, b := startChat(t, w.dbURL, r.URL), startChat(t, w.dbURL, r.URL)
	viewers := []*viewer{dialViewer(t, a, w), dialViewer(t, b, w)}
	for _, v := range viewers {
		v.must("welcome")
	}

	pub, acks, errs := dialPublisher(t, w, gw)

	var seed vibe.Event
	require.NoError(t, json.Unmarshal([]byte(seedEvent), &seed))
	seed.SessionKey, seed.Sequence = "", 0 // the client stamps its own session
	require.NoError(t, pub.Publish(seed))
	ack := waitAck(t, acks, errs)
	require.True(t, ack.Delivered)
	for _, v := range viewers {
		f := v.must("vibe-coding")
		require.EqualValues(t, w.slot.ID, f.m["managed_stream_id"])
		require.Equal(t, w.slot.Slug, f.m["slot_slug"])
		require.EqualValues(t, 0, f.m["delay_ms"])
		require.Equal(t, ack.Sequence, f.seq())
		require.Equal(t, seed.EventID, f.eventField("eventId"))
		require.Equal(t, "response", f.eventField("eventType"))
		require.Equal(t, seed.Summary, f.eventField("summary"))
		require.NotNil(t, f.eventField("response"))
	}

	w.settings(func(s *vibe.Settings) { s.DelayMs = 1500 })
	for _, v := range viewers {
		v.must("vibe-coding.settings")
	}
	time.Sleep(1200 * time.Millisecond) // the gateway caches settings for up to a second
	delayed := event(vibe.TypePrompt, vibe.VisibilityPublic, "delayed through the gateway")
	require.NoError(t, pub.Publish(delayed))
	ack = waitAck(t, acks, errs)
	ackedAt := time.Now()
	require.Equal(t, delayed.EventID, ack.EventID)
	stored, err := w.st.VibeEventByEventID(t.Context(), w.slot.ID, delayed.EventID)
	require.NoError(t, err)
	for _, v := range viewers {
		f := v.must("vibe-coding")
		require.Equal(t, delayed.EventID, f.eventField("eventId"))
		require.GreaterOrEqual(t, f.at.Sub(stored.ReceivedAt), 1500*time.Millisecond, "held for the delay after the server received it")
		require.GreaterOrEqual(t, f.at.Sub(ackedAt), 1490*time.Millisecond, "and as long after the ack (10 ms for the ack's own trip)")
		t.Logf("delivered %s after the ack", f.at.Sub(ackedAt))
	}
}

// TestGatewayOfflineEventsNeverReachViewers: an event published while the slot is offline is
// stored withheld and acked delivered:false; no viewer gets it, then or after the slot goes
// live, while an event published once live arrives as usual.
func TestGatewayOfflineEventsNeverReachViewers(t *testing.T) {
	t.Parallel()
	r := testenv.StartRedisServer(t)
	w := newWorld(t, r.URL)
	gw := startGateway(t, w.dbURL, r.URL)
	chat := startChat(t, w.dbURL, r.URL)
	v := dialViewer(t, chat, w)
	v.must("welcome")

	pub, acks, errs := dialPublisher(t, w, gw)

	offline := event(vibe.TypeResponse, vibe.VisibilityPublic, "published before going live")
	require.NoError(t, pub.Publish(offline))
	ack := waitAck(t, acks, errs)
	require.False(t, ack.Delivered)
	require.Nil(t, ack.LiveStreamID)
	row, err := w.st.VibeEventByEventID(t.Context(), w.slot.ID, offline.EventID)
	require.NoError(t, err)
	require.True(t, row.Withheld, "kept for the owner, never shown")
	v.none("vibe-coding", time.Second)

	_, _, err = w.st.StartLiveStream(t.Context(), w.slot.ID, time.Now())
	require.NoError(t, err)
	time.Sleep(1200 * time.Millisecond) // the gateway caches the slot for up to a second
	live := event(vibe.TypeResponse, vibe.VisibilityPublic, "published live")
	require.NoError(t, pub.Publish(live))
	ack = waitAck(t, acks, errs)
	require.True(t, ack.Delivered)
	f := v.must("vibe-coding")
	require.Equal(t, live.EventID, f.eventField("eventId"), "the offline event never arrives, before or after")

	late := dialViewer(t, chat, w, 0) // a viewer replaying the slot from the start
	late.must("welcome")
	f = late.must("vibe-coding")
	require.Equal(t, live.EventID, f.eventField("eventId"))
	late.none("vibe-coding", 500*time.Millisecond)
}

// dialPublisher creates an API token for the world's owner and connects the publisher client
// to the gateway; acks and errors arrive on the returned channels.
func dialPublisher(t *testing.T, w *world, gw *testenv.Process) (*publisher.Client, <-chan vibe.Ack, <-chan error) {
	t.Helper()
	tok, hash, hint, err := auth.NewAPIToken()
	require.NoError(t, err)
	_, err = w.st.CreateAPIToken(t.Context(), store.APIToken{
		UserID: w.user.ID, Name: "e2e", Hash: hash, Hint: hint, Scopes: []string{store.ScopeVibeCodingPublish}, CreatedAt: time.Now(),
	})
	require.NoError(t, err)
	acks := make(chan vibe.Ack, 16)
	errs := make(chan error, 16)
	pub, err := publisher.Dial(t.Context(), publisher.Config{
		Server: "ws://" + gw.Addr, Token: tok, ManagedStreamID: w.slot.ID, SlotSlug: w.slot.Slug,
		DisableSanitize: true, // the gateway sanitizes on its own
		OnAck:           func(a vibe.Ack) { acks <- a },
		OnError:         func(err error) { errs <- err },
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = pub.Close(t.Context()) })
	return pub, acks, errs
}

func waitAck(t *testing.T, acks <-chan vibe.Ack, errs <-chan error) vibe.Ack {
	t.Helper()
	select {
	case a := <-acks:
		return a
	case err := <-errs:
		t.Fatalf("publisher error: %v", err)
	case <-time.After(15 * time.Second):
		t.Fatal("no ack within 15s")
	}
	return vibe.Ack{}
}
