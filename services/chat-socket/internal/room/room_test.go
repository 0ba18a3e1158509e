package room

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type harness struct {
	t       *testing.T
	st      *fakeStore
	br      *fakeBroker
	hub     *Hub
	metrics *Metrics
	marker  *Marker
}

func testConfig() Config {
	return Config{
		ResumeLimit: 5, ChatHistory: 3, RefreshInterval: 5 * time.Second, RetryInterval: time.Second,
		StoreTimeout: time.Second, FetchPage: 2, MaxReplayBytes: 1 << 20,
	}
}

// newHarness must run inside a synctest bubble.
func newHarness(t *testing.T, s vibe.Settings) *harness {
	h := &harness{t: t, st: newFakeStore(s), br: newFakeBroker(), metrics: NewMetrics(prometheus.NewRegistry())}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h.marker = NewMarker(h.st, time.Second, log, h.metrics)
	h.hub = NewHub(HubDeps{Store: h.st, Broker: h.br, Marker: h.marker, Metrics: h.metrics, Logger: log, Now: time.Now, Config: testConfig()})
	t.Cleanup(h.hub.Close)
	return h
}

func (h *harness) join(since *int64, maxBytes int) (*Viewer, *Room) {
	v := NewViewer(maxBytes, 0, "")
	r, err := h.hub.Join(h.t.Context(), Slot{ID: 7, Slug: "camp-code", Owner: "ada"}, v, since)
	require.NoError(h.t, err)
	synctest.Wait()
	return v, r
}

// watch joins a viewer from the live edge and takes its welcome frames, so that take returns
// only what comes after.
func (h *harness) watch() *Viewer {
	v, _ := h.join(nil, 1<<20)
	take(h.t, v)
	return v
}

func (h *harness) publish(e store.VibeEvent) {
	require.NoError(h.t, slotbus.Publish(h.t.Context(), h.br, slotbus.Message{Kind: slotbus.KindEvent, SlotID: 7, Event: slotbus.FromStoreEvent(e)}))
}

func (h *harness) send(m slotbus.Message) {
	m.SlotID = 7
	require.NoError(h.t, slotbus.Publish(h.t.Context(), h.br, m))
}

// store adds an event received now and publishes it.
func (h *harness) store(typ string) store.VibeEvent {
	e := h.st.add(typ, vibe.VisibilityPublic, false, time.Now())
	h.publish(e)
	return e
}

type frame struct {
	Type     string         `json:"type"`
	Seq      int64          `json:"seq"`
	DelayMs  int            `json:"delay_ms"`
	Event    *vibe.Event    `json:"event"`
	EventID  string         `json:"eventId"`
	Reason   string         `json:"reason"`
	Settings *vibe.Settings `json:"settings"`
	Resumed  bool           `json:"resumed"`
}

// take returns the frames queued to v so far, without waiting.
func take(t *testing.T, v *Viewer) []frame {
	synctest.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	raw, _ := v.Next(ctx, nil)
	out := make([]frame, 0, len(raw))
	for _, b := range raw {
		var f frame
		require.NoError(t, json.Unmarshal(b, &f))
		out = append(out, f)
	}
	return out
}

func seqs(fs []frame) []int64 {
	var out []int64
	for _, f := range fs {
		if f.Type == vibe.FrameVibeCoding {
			out = append(out, f.Seq)
		}
	}
	return out
}

func types(fs []frame) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Type)
	}
	return out
}

func TestJoinSendsWelcomeAndChatHistory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now().Add(-time.Minute))
		v, _ := h.join(nil, 1<<20)
		fs := take(t, v)
		require.Equal(t, []string{FrameWelcome, FrameChatHistory}, types(fs))
		require.EqualValues(t, 1, fs[0].Seq, "welcome seq is the delivery position")
		require.Equal(t, vibe.DefaultSettings(), *fs[0].Settings)
	})
}

func TestDelayHoldsEventsUntilReceivedPlusDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 1500
		h := newHarness(t, s)
		v := h.watch()
		h.store(vibe.TypePrompt)
		time.Sleep(1499 * time.Millisecond)
		require.Empty(t, take(t, v), "delivered before the delay ended")
		time.Sleep(time.Millisecond)
		fs := take(t, v)
		require.Equal(t, []int64{1}, seqs(fs))
		require.Equal(t, 1500, fs[0].DelayMs)
		require.Equal(t, "prompt ev-1", fs[0].Event.Prompt.Text)
	})
}

func TestDelayChangeReschedulesPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 10_000
		h := newHarness(t, s)
		v := h.watch()
		h.store(vibe.TypePrompt)
		time.Sleep(time.Second)
		s.DelayMs = 2000
		h.settings(s)
		fs := take(t, v)
		require.Equal(t, []string{vibe.FrameSettings}, types(fs))
		time.Sleep(999 * time.Millisecond)
		require.Empty(t, take(t, v))
		time.Sleep(time.Millisecond)
		require.Equal(t, []int64{1}, seqs(take(t, v)))
	})
}

func TestHiddenEventsNeverReachViewers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings()) // show_thinking=0
		v := h.watch()
		h.store(vibe.TypeThinking)
		h.publish(h.st.add(vibe.TypePrompt, vibe.VisibilityStreamer, false, time.Now()))
		h.publish(h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, true, time.Now()))
		h.store(vibe.TypePrompt)
		require.Equal(t, []int64{4}, seqs(take(t, v)))
	})
}

func TestGapsAreFilledFromTheStoreInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		v := h.watch()
		h.store(vibe.TypePrompt)
		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now()) // never published
		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		h.store(vibe.TypePrompt)
		require.Equal(t, []int64{1, 2, 3, 4}, seqs(take(t, v)))

		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now()) // lost, then a gap signal
		h.br.gap(slotbus.Channel(7))
		require.Equal(t, []int64{5}, seqs(take(t, v)))
		require.Equal(t, 2.0, testutil.ToFloat64(h.metrics.GapFills.WithLabelValues("seq_gap"))+testutil.ToFloat64(h.metrics.GapFills.WithLabelValues("broker_gap")))
	})
}

func TestGapFillWaitsForTheStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		v := h.watch()
		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		h.st.setFail(true)
		h.store(vibe.TypePrompt)
		require.Empty(t, seqs(take(t, v)), "seq 2 must not overtake the missing seq 1")
		h.st.setFail(false)
		time.Sleep(time.Second)
		require.Equal(t, []int64{1, 2}, seqs(take(t, v)))
	})
}

func TestRefreshRecoversSilentLossAndSettings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		v := h.watch()
		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		s := vibe.DefaultSettings()
		s.WidgetTitle = "Late night"
		h.st.setSettings(s)
		time.Sleep(5 * time.Second)
		fs := take(t, v)
		require.Equal(t, []string{vibe.FrameSettings, vibe.FrameVibeCoding}, types(fs))
		require.Equal(t, "Late night", fs[0].Settings.WidgetTitle)
	})
}

func TestPauseDropsEventsForGood(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 1000
		h := newHarness(t, s)
		v := h.watch()
		h.store(vibe.TypePrompt)
		paused := s
		paused.Paused = 1
		h.settings(paused)
		h.publish(h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, true, time.Now())) // stored while paused
		time.Sleep(2 * time.Second)
		require.Equal(t, []string{vibe.FrameSettings}, types(take(t, v)))
		h.settings(s)
		time.Sleep(2 * time.Second)
		h.store(vibe.TypePrompt)
		time.Sleep(time.Second)
		fs := take(t, v)
		require.Equal(t, []int64{3}, seqs(fs), "events due while paused are never shown")
	})
}

// Events and settings travel on two channels: the first event stored after a resume may
// reach the room before the resume does. The room reads the slot before it drops an event
// the store took as live, and shows it; an event a gateway stored as live just after a pause
// (its settings not yet updated) is still dropped, since the slot read says paused.
func TestResumeOvertakenByEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		paused := s
		paused.Paused = 1
		h := newHarness(t, paused)
		v := h.watch()

		h.st.setSettings(s) // resumed in the store; the message is still on its way
		first := h.store(vibe.TypePrompt)
		synctest.Wait()
		fs := take(t, v)
		require.Equal(t, []string{vibe.FrameSettings, "vibe-coding"}, types(fs), "the slot read resumes the room")
		require.Equal(t, first.Seq, fs[1].Seq)
		h.send(slotbus.Message{Kind: slotbus.KindSettings, Settings: &s}) // the late resume
		synctest.Wait()
		require.Empty(t, take(t, v), "nothing is sent twice")

		h.settings(paused)
		require.Equal(t, []string{vibe.FrameSettings}, types(take(t, v)))
		h.store(vibe.TypePrompt) // stored as live by a gateway that had not seen the pause
		time.Sleep(time.Second)
		require.Empty(t, take(t, v), "the slot read says paused: the event is dropped")
		h.settings(s)
		last := h.store(vibe.TypePrompt)
		time.Sleep(time.Second)
		fs = take(t, v)
		require.Equal(t, []int64{last.Seq}, seqs(fs))
	})
}

func TestRetract(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 3000
		h := newHarness(t, s)
		v := h.watch()
		pending := h.store(vibe.TypePrompt)
		time.Sleep(time.Second)
		h.send(slotbus.Message{Kind: slotbus.KindRetract, Retract: &slotbus.Retract{Seq: pending.Seq, EventID: pending.EventID}})
		time.Sleep(3 * time.Second)
		require.Empty(t, take(t, v), "a retracted pending event is never delivered")

		delivered := h.store(vibe.TypePrompt)
		time.Sleep(3 * time.Second)
		require.Equal(t, []int64{2}, seqs(take(t, v)))
		h.send(slotbus.Message{Kind: slotbus.KindRetract, Retract: &slotbus.Retract{Seq: delivered.Seq, EventID: delivered.EventID}})
		fs := take(t, v)
		require.Equal(t, []string{vibe.FrameRetract}, types(fs))
		require.Equal(t, delivered.EventID, fs[0].EventID)

		zero := int64(0)
		late, _ := h.join(&zero, 1<<20)
		require.Empty(t, seqs(take(t, late)), "a retracted event is not replayed")
	})
}

func TestPanicDropsEveryPendingEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 3000
		h := newHarness(t, s)
		v := h.watch()
		for range 3 {
			h.store(vibe.TypePrompt)
		}
		synctest.Wait() // the room has them; TestPanicOvertakingItsEvents is the other order
		paused := s
		paused.Paused = 1
		// The api stores the paused settings, withholds the events, then publishes.
		h.st.setSettings(paused)
		h.st.withholdSince(time.Now().Add(-4 * time.Second))
		h.send(slotbus.Message{Kind: slotbus.KindPanic, Panic: &slotbus.Panic{At: time.Now(), Since: time.Now().Add(-4 * time.Second), Settings: paused}})
		fs := take(t, v)
		require.Equal(t, []string{vibe.FrameSettings}, types(fs))
		require.Equal(t, 1, fs[0].Settings.Paused)
		time.Sleep(5 * time.Second)
		require.Empty(t, take(t, v))
		require.Equal(t, 3.0, testutil.ToFloat64(h.metrics.EventsDropped.WithLabelValues("panic")))
	})
}

func TestResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		v, _ := h.join(nil, 1<<20)
		for range 8 {
			h.store(vibe.TypePrompt)
		}
		require.Equal(t, []int64{1, 2, 3, 4, 5, 6, 7, 8}, seqs(take(t, v)))

		for _, tc := range []struct {
			name  string
			since int64
			want  []int64
			reset string
		}{
			{"exact", 5, []int64{6, 7, 8}, ""},
			{"up to date", 8, nil, ""},
			{"oldest replayable", 3, []int64{4, 5, 6, 7, 8}, ""},
			{"too old", 2, nil, ResetTooOld},
			{"ahead", 50, nil, ResetUnknown},
		} {
			since := tc.since
			r, _ := h.join(&since, 1<<20)
			fs := take(t, r)
			require.Equal(t, tc.want, seqs(fs), tc.name)
			require.Equal(t, tc.reset == "", fs[0].Resumed, tc.name)
			if tc.reset != "" {
				require.Equal(t, FrameReset, fs[2].Type, tc.name)
				require.Equal(t, tc.reset, fs[2].Reason, tc.name)
			}
		}
	})
}

func TestResumeAfterRoomRestartUsesTheStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		for range 4 {
			h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		}
		since := int64(1)
		v, _ := h.join(&since, 1<<20)
		require.Equal(t, []int64{2, 3, 4}, seqs(take(t, v)))
	})
}

// TestResumeAheadOfThisNode: a viewer coming from a node that already delivered seq 1, while
// this node still holds it inside its delay. Resuming it at 1 would tell anyone who asks that
// seq 1 exists before its delay has passed, so it gets a reset at what this node has shown,
// then both events live, each once.
func TestResumeAheadOfThisNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 1000
		h := newHarness(t, s)
		v, _ := h.join(nil, 1<<20)
		h.store(vibe.TypePrompt)
		h.store(vibe.TypePrompt)
		since := int64(1)
		w, _ := h.join(&since, 1<<20)
		time.Sleep(time.Second)
		require.Equal(t, []int64{1, 2}, seqs(take(t, v)))
		fs := take(t, w)
		require.Equal(t, []string{FrameWelcome, FrameChatHistory, FrameReset, vibe.FrameVibeCoding, vibe.FrameVibeCoding}, types(fs))
		require.False(t, fs[0].Resumed)
		require.Zero(t, fs[2].Seq)
		require.Equal(t, []int64{1, 2}, seqs(fs))
	})
}

func TestSlowViewerIsCutOffAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		slow, _ := h.join(nil, 2048)
		fast := h.watch()
		for range 20 {
			h.store(vibe.TypePrompt)
		}
		synctest.Wait()
		select {
		case <-slow.Done():
		default:
			t.Fatal("slow viewer not killed")
		}
		code, reason := slow.CloseStatus()
		require.Equal(t, CloseSlow, code)
		require.Equal(t, ReasonSlow, reason)
		require.Len(t, seqs(take(t, fast)), 20)
	})
}

func TestRoomReleasesItsSubscriptionWithTheLastViewer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		a, r := h.join(nil, 1<<20)
		b, _ := h.join(nil, 1<<20)
		require.Equal(t, 1, h.br.subscribers(slotbus.Channel(7)), "one subscription per room and channel")
		require.Equal(t, 1, h.br.subscribers(slotbus.ControlChannel(7)))
		h.hub.Leave(r, a)
		synctest.Wait()
		require.Equal(t, 1, h.br.subscribers(slotbus.Channel(7)))
		h.hub.Leave(r, b)
		synctest.Wait()
		require.Equal(t, 0, h.br.subscribers(slotbus.Channel(7)))
		require.Equal(t, 0, h.br.subscribers(slotbus.ControlChannel(7)))
		require.Equal(t, 0, h.hub.Rooms())
	})
}

func TestFirstDeliveryTimesAreRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 500
		h := newHarness(t, s)
		v, _ := h.join(nil, 1<<20)
		start := time.Now()
		h.store(vibe.TypePrompt)
		h.store(vibe.TypeThinking) // hidden: never delivered
		time.Sleep(time.Second)
		take(t, v)
		h.marker.Flush(t.Context())
		require.Len(t, h.st.delivered, 1)
		require.Equal(t, start.Add(500*time.Millisecond), h.st.delivered[1])
	})
}

func TestChatIsBroadcastOnceAndKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings())
		v := h.watch()
		c := &slotbus.Chat{ID: 9, UserID: 1, Username: "ada", Text: "hi", CreatedAt: time.Now()}
		h.hub.Chat(t.Context(), 7, c)
		h.send(slotbus.Message{Kind: slotbus.KindChat, Chat: c})
		require.Equal(t, []string{FrameChatMessage}, types(take(t, v)))
		w, _ := h.join(nil, 1<<20)
		raw := take(t, w)
		require.Equal(t, FrameChatHistory, raw[1].Type)
	})
}

func TestLostRetractIsHonouredFromTheStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 10_000
		h := newHarness(t, s)
		v := h.watch()
		h.store(vibe.TypePrompt)
		h.store(vibe.TypePrompt)
		h.st.mu.Lock()
		now := time.Now()
		h.st.events[0].RetractedAt = &now // retracted, but the broker message was lost
		h.st.mu.Unlock()
		time.Sleep(11 * time.Second)
		require.Equal(t, []int64{2}, seqs(take(t, v)))
	})
}

func TestBackfillRespectsTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 3000
		h := newHarness(t, s)
		// Stored a second before the room starts: still inside its window.
		h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now().Add(-time.Second))
		zero := int64(0)
		v, _ := h.join(&zero, 1<<20)
		require.Empty(t, seqs(take(t, v)), "not replayed before its delay ends")
		time.Sleep(1999 * time.Millisecond)
		require.Empty(t, seqs(take(t, v)))
		time.Sleep(time.Millisecond)
		require.Equal(t, []int64{1}, seqs(take(t, v)), "delivered live when due")

		// A resuming viewer joining while an event is pending gets it when due, not before.
		h.store(vibe.TypePrompt)
		time.Sleep(time.Second)
		since := int64(1)
		w, _ := h.join(&since, 1<<20)
		require.Empty(t, seqs(take(t, w)))
		time.Sleep(2 * time.Second)
		require.Equal(t, []int64{2}, seqs(take(t, w)))
		require.Equal(t, []int64{2}, seqs(take(t, v)))
	})
}
