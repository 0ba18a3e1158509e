package gateway

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

func TestEventStoredThenAckedThenPublished(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend)
		_, tok, ms := h.liveSlot()
		bus := h.subscribe(ms.ID)
		ctx := h.ctx()
		c := h.connect(tok, ms, "key-1")

		secret := "ghp_" + "0123456789abcdefghijABCDEFGHIJ012345"
		require.NoError(t, c.Send(ctx, eventMsg("key-1", "ev-1", vibe.TypeResponse, map[string]any{
			"summary":  "Pushed with token " + secret + " from /home/alice/src/openvibe/main.go",
			"response": map[string]any{"text": "ok", "truncated": false},
		})))
		m, err := c.Expect(ctx, vibe.MsgAck, nil)
		require.NoError(t, err)
		f, err := m.Fields()
		require.NoError(t, err)
		require.ElementsMatch(t, []string{"type", "event_id", "live_stream_id", "delivered", "sequence", "timestamp"}, keys(f))
		require.Equal(t, "ev-1", f["event_id"])
		require.EqualValues(t, *ms.LiveStreamID, f["live_stream_id"])
		require.Equal(t, true, f["delivered"])
		require.EqualValues(t, 1, f["sequence"])
		requireTimestamp(t, f["timestamp"])

		row, err := h.st.VibeEventByEventID(t.Context(), ms.ID, "ev-1")
		require.NoError(t, err)
		require.EqualValues(t, 1, row.Seq)
		require.Equal(t, "key-1", row.SessionKey)
		require.Equal(t, vibe.TypeResponse, row.EventType)
		require.Equal(t, vibe.VisibilityPublic, row.Visibility)
		require.False(t, row.Withheld)
		require.Equal(t, ms.LiveStreamID, row.LiveStreamID)
		require.NotNil(t, row.OccurredAt)
		require.Equal(t, "2026-04-21T23:10:01.099Z", row.OccurredAt.UTC().Format("2006-01-02T15:04:05.000Z"))
		require.NotContains(t, string(row.Payload), secret, "the server sanitizes before storing")
		require.NotContains(t, string(row.Payload), "/home/alice")
		var ev vibe.Event
		require.NoError(t, json.Unmarshal(row.Payload, &ev))
		require.Equal(t, "ev-1", ev.EventID)
		require.Equal(t, "key-1", ev.SessionKey)

		require.Eventually(t, func() bool { return len(bus.snapshot()) == 1 }, 5*time.Second, 10*time.Millisecond)
		got := bus.snapshot()[0]
		require.Equal(t, *slotbus.FromStoreEvent(row), got)
	})
}

func TestDuplicateEventIDStoredOnceBroadcastOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend)
		_, tok, ms := h.liveSlot()
		bus := h.subscribe(ms.ID)
		ctx := h.ctx()
		c := h.connect(tok, ms, "key-1")

		first := ack(t, sendEvent(t, ctx, c, "key-1", "ev-dup"))
		require.False(t, first.Duplicate)
		second := ack(t, sendEvent(t, ctx, c, "key-1", "ev-dup"))
		require.True(t, second.Duplicate)
		require.Equal(t, first.Sequence, second.Sequence)
		require.Equal(t, first.LiveStreamID, second.LiveStreamID)
		require.Equal(t, first.Delivered, second.Delivered)

		// A second connection (a publisher that reconnected) resending it: still one row.
		c2 := h.connect(tok, ms, "key-1")
		third := ack(t, sendEvent(t, ctx, c2, "key-1", "ev-dup"))
		require.True(t, third.Duplicate)
		require.Equal(t, first.Sequence, third.Sequence)

		// A later event flushes the bus: anything published before it has arrived.
		ack(t, sendEvent(t, ctx, c, "key-1", "ev-after"))
		require.Eventually(t, func() bool { return len(bus.snapshot()) == 2 }, 5*time.Second, 10*time.Millisecond)
		rows, err := h.st.VibeEventsAfter(t.Context(), ms.ID, 0, 10)
		require.NoError(t, err)
		require.Len(t, rows, 2)
		events := bus.snapshot()
		require.Equal(t, "ev-dup", events[0].EventID)
		require.Equal(t, "ev-after", events[1].EventID)
	})
}

func TestDeliveredFlag(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend)
		alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
		cases := []struct {
			name      string
			live      bool
			settings  string
			eventType string
			extra     map[string]any
			delivered bool
			withheld  string // why the event is stored withheld, "" when it is not
		}{
			{"live and shown", true, "", vibe.TypeResponse, nil, true, ""},
			{"offline slot", false, "", vibe.TypeResponse, nil, false, vibe.WithheldOffline},
			{"paused slot", true, `{"paused":1}`, vibe.TypeResponse, nil, false, vibe.WithheldPaused},
			{"disabled slot", true, `{"enabled":0}`, vibe.TypeResponse, nil, false, vibe.WithheldDisabled},
			{"streamer-only event", true, "", vibe.TypeResponse, map[string]any{"visibility": "streamer"}, false, ""},
			{"type switched off", true, "", vibe.TypeThinking, nil, false, ""},
			{"type switched on", true, `{"show_thinking":1}`, vibe.TypeThinking, nil, true, ""},
			{"prompts hidden", true, `{"show_prompts":0}`, vibe.TypePrompt, nil, false, ""},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				ms := h.slot(alice, fmt.Sprintf("slot-%d", i), tc.live, tc.settings)
				ctx := h.ctx()
				c := h.connect(tok, ms, "key")
				require.NoError(t, c.Send(ctx, eventMsg("key", "ev", tc.eventType, tc.extra)))
				m, err := c.Next(ctx)
				require.NoError(t, err)
				a := ack(t, m)
				require.Equal(t, tc.delivered, a.Delivered)
				require.Equal(t, ms.LiveStreamID, a.LiveStreamID)
				row, err := h.st.VibeEventByEventID(t.Context(), ms.ID, "ev")
				require.NoError(t, err, "stored whatever the settings")
				require.Equal(t, tc.withheld != "", row.Withheld)
				require.Equal(t, tc.withheld, row.WithheldReason)

				// The delivered decision agrees with the viewer projection.
				var ev vibe.Event
				require.NoError(t, json.Unmarshal(row.Payload, &ev))
				s := vibe.SettingsFromBroadcast(ms.BroadcastSettings)
				require.Equal(t, tc.delivered, !row.Withheld && vibe.Project(&ev, s) != nil)
			})
		}
	})
}

func TestBrokerDeadStoreBeforeAck(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend)
		_, tok, ms := h.liveSlot()
		ctx := h.ctx()
		c := h.connect(tok, ms, "key")
		h.br.dead.Store(true)

		const n = 50
		sendNumbered(t, ctx, c, "key", n)
		for i := range n {
			m, err := c.Next(ctx)
			require.NoError(t, err)
			a := ack(t, m)
			require.Equal(t, numbered(i), a.EventID, "acks keep the send order")
			require.False(t, a.Delivered, "the broker did not take it")
			require.EqualValues(t, i+1, a.Sequence)
			_, err = h.st.VibeEventByEventID(t.Context(), ms.ID, a.EventID)
			require.NoError(t, err, "an acked event is in the store")
		}
		require.GreaterOrEqual(t, h.counter(h.gw.met.brokerFailures), float64(n))

		// Publishing resumes within a second of the broker coming back.
		h.br.dead.Store(false)
		i := 0
		require.Eventually(t, func() bool {
			i++
			return ack(t, sendEvent(t, ctx, c, "key", fmt.Sprintf("ev-back-%d", i))).Delivered
		}, 3*time.Second, 50*time.Millisecond)
	})
}

func TestStoreOutageNeverAcks(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend)
		_, tok, ms := h.liveSlot()
		ctx := h.ctx()
		c := h.connect(tok, ms, "key")
		h.st.down.Store(true)

		const n = 20
		sendNumbered(t, ctx, c, "key", n)
		for i := range n {
			m, err := c.Next(ctx)
			require.NoError(t, err)
			e := protoError(t, m)
			require.Equal(t, TextEventStore, e.Error)
			require.Equal(t, numbered(i), e.EventID)
		}
		require.NoError(t, c.Send(ctx, helloMsg("key-2")))
		m, err := c.Next(ctx)
		require.NoError(t, err)
		require.Equal(t, TextSessionStore, protoError(t, m).Error)

		h.st.down.Store(false)
		a := ack(t, sendEvent(t, ctx, c, "key", "ev-05"))
		require.EqualValues(t, 1, a.Sequence, "nothing was stored during the outage")
		require.False(t, a.Duplicate)
	})
}

func TestBadEventDoesNotSinkItsBatch(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend, withConfig(func(c *Config) { c.BatchMaxDelay = 20 * time.Millisecond }))
		_, tok, ms := h.liveSlot()
		ctx := h.ctx()
		c := h.connect(tok, ms, "key")
		h.st.poison.Store("ev-bad")

		ids := []string{"ev-a", "ev-b", "ev-bad", "ev-c", "ev-d"}
		for _, id := range ids {
			require.NoError(t, c.Send(ctx, eventMsg("key", id, vibe.TypeResponse, nil)))
		}
		var seqs []int64
		for _, id := range ids {
			m, err := c.Next(ctx)
			require.NoError(t, err)
			if id == "ev-bad" {
				e := protoError(t, m)
				require.Equal(t, TextEventStore, e.Error)
				require.Equal(t, id, e.EventID)
				continue
			}
			a := ack(t, m)
			require.Equal(t, id, a.EventID)
			seqs = append(seqs, a.Sequence)
		}
		require.Equal(t, []int64{1, 2, 3, 4}, seqs)
		require.GreaterOrEqual(t, h.counter(h.gw.met.batchFailures), 1.0, "the events went as one batch first")
	})
}

func TestAcksInOrderAcrossBatches(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, backend harnessOpt) {
		h := newHarness(t, backend, withConfig(func(c *Config) { c.BatchMaxEvents, c.Writers = 7, 3 }))
		_, tok, ms := h.liveSlot()
		ctx := h.ctx()
		a := h.connect(tok, ms, "key-a")
		b := h.connect(tok, ms, "key-b")
		const n = 120
		go func() {
			for i := range n {
				_ = b.Send(ctx, eventMsg("key-b", fmt.Sprintf("b-%03d", i), vibe.TypeResponse, nil))
			}
		}()
		for i := range n {
			require.NoError(t, a.Send(ctx, eventMsg("key-a", fmt.Sprintf("a-%03d", i), vibe.TypeResponse, nil)))
		}
		check := func(prefix string, next func() (vibe.Ack, error)) {
			last := int64(0)
			for i := range n {
				got, err := next()
				require.NoError(t, err)
				require.Equal(t, fmt.Sprintf("%s-%03d", prefix, i), got.EventID)
				require.Greater(t, got.Sequence, last)
				last = got.Sequence
			}
		}
		check("a", func() (vibe.Ack, error) {
			var x vibe.Ack
			_, err := a.Expect(ctx, vibe.MsgAck, &x)
			return x, err
		})
		check("b", func() (vibe.Ack, error) {
			var x vibe.Ack
			_, err := b.Expect(ctx, vibe.MsgAck, &x)
			return x, err
		})
		rows, err := h.st.VibeEventsAfter(t.Context(), ms.ID, 0, 1000)
		require.NoError(t, err)
		require.Len(t, rows, 2*n)
		for i, r := range rows {
			require.EqualValues(t, i+1, r.Seq, "gap-free sequence")
		}
	})
}

// TestPanicTurnsDeliveredOffQuickly: a panic message on the broker reaches the gateway's
// settings cache at once, well before any reload.
func TestPanicTurnsDeliveredOffQuickly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")
	require.True(t, ack(t, sendEvent(t, ctx, c, "key", "ev-1")).Delivered)

	paused := vibe.DefaultSettings()
	paused.Paused = 1
	_, err := h.st.UpdateBroadcastSettings(t.Context(), ms.ID, store.SettingsOnly(func(cur json.RawMessage) (json.RawMessage, error) {
		return vibe.BroadcastWithSettings(cur, paused)
	}))
	require.NoError(t, err)
	sent := time.Now()
	require.NoError(t, slotbus.Publish(t.Context(), h.br, slotbus.Message{Kind: slotbus.KindPanic, SlotID: ms.ID,
		Panic: &slotbus.Panic{At: sent, Settings: paused}}))
	var a vibe.Ack
	require.Eventually(t, func() bool {
		a = ack(t, sendEvent(t, ctx, c, "key", fmt.Sprintf("ev-%d", time.Now().UnixNano())))
		return !a.Delivered
	}, time.Second, 20*time.Millisecond)
	// The event read after the gateway saw the pause is stored withheld.
	a = ack(t, sendEvent(t, ctx, c, "key", "ev-after-panic"))
	require.False(t, a.Delivered)
	row, err := h.st.VibeEventByEventID(t.Context(), ms.ID, a.EventID)
	require.NoError(t, err)
	require.True(t, row.Withheld, "stored while paused: withheld for good")
}

// TestSettingsReloadWithoutBroker: with no broker message at all, the reload picks up a
// settings change and a live stream start within the TTL.
func TestSettingsReloadWithoutBroker(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.SettingsTTL = 200 * time.Millisecond }))
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	ms := h.slot(alice, "camp-code", false, "")
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")
	require.False(t, ack(t, sendEvent(t, ctx, c, "key", "ev-0")).Delivered, "offline")

	ls, _, err := h.st.StartLiveStream(t.Context(), ms.ID, time.Now())
	require.NoError(t, err)
	i := 0
	require.Eventually(t, func() bool {
		i++
		a := ack(t, sendEvent(t, ctx, c, "key", fmt.Sprintf("ev-live-%d", i)))
		return a.Delivered && a.LiveStreamID != nil && *a.LiveStreamID == ls.ID
	}, 2*time.Second, 50*time.Millisecond)
}

// TestStorePanicIsAnError: a store that panics on one event fails that event only.
func TestStorePanicIsAnError(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *Config) { c.BatchMaxDelay = 20 * time.Millisecond }))
	_, tok, ms := h.liveSlot()
	ctx := h.ctx()
	c := h.connect(tok, ms, "key")
	for _, id := range []string{"ev-1", "ev-panic", "ev-2"} {
		require.NoError(t, c.Send(ctx, eventMsg("key", id, vibe.TypeResponse, nil)))
	}
	require.Equal(t, "ev-1", ack(t, must(c.Next(ctx))).EventID)
	e := protoError(t, must(c.Next(ctx)))
	require.Equal(t, TextEventStore, e.Error)
	require.Equal(t, "ev-panic", e.EventID)
	require.Equal(t, "ev-2", ack(t, must(c.Next(ctx))).EventID)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
