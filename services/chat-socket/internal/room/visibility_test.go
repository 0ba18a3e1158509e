package room

import (
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/vibetest"
)

// storeTool adds a public tool call with arguments, received now, and publishes it.
func (h *harness) storeTool() int64 {
	e := h.st.addEvent(vibe.Event{
		EventType: vibe.TypeToolCall, Summary: "ran the tests",
		Tool: &vibe.ToolBody{Name: "bash", Phase: "end", ArgumentsPreview: "go test ./...", ResultPreview: "ok"},
	}, vibe.VisibilityPublic, time.Now())
	h.publish(e)
	return e.Seq
}

// settings stores and sends new settings, as the api does, and lets the room take them.
func (h *harness) settings(s vibe.Settings) {
	h.st.setSettings(s)
	h.send(slotbus.Message{Kind: slotbus.KindSettings, Settings: &s})
	synctest.Wait()
}

func (h *harness) resume(since int64) []frame {
	v, _ := h.join(&since, 1<<20)
	return take(h.t, v)
}

// TestReplayFollowsTheCurrentSettings: a resuming viewer is replayed what a viewer may see
// under the settings now, not the frames as they were sent: nothing while paused, no tool
// call once tool calls are hidden, no arguments once arguments are hidden.
func TestReplayFollowsTheCurrentSettings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.ShowToolArguments = 1
		h := newHarness(t, s)
		v := h.watch()
		tool := h.storeTool()
		prompt := h.store(vibe.TypePrompt).Seq
		sent := take(t, v)
		require.Equal(t, []int64{tool, prompt}, seqs(sent))
		require.Equal(t, "go test ./...", sent[0].Event.Tool.ArgumentsPreview)

		fs := h.resume(0)
		require.True(t, fs[0].Resumed)
		require.Equal(t, []int64{tool, prompt}, seqs(fs), "unchanged settings: the frames as delivered")
		require.Equal(t, "go test ./...", fs[2].Event.Tool.ArgumentsPreview)

		noArgs := s
		noArgs.ShowToolArguments = 0
		h.settings(noArgs)
		fs = h.resume(0)
		require.Equal(t, []int64{tool, prompt}, seqs(fs))
		require.Empty(t, fs[2].Event.Tool.ArgumentsPreview, "arguments hidden since: not replayed")
		require.Empty(t, fs[2].Event.Tool.ResultPreview)
		require.Equal(t, "bash", fs[2].Event.Tool.Name)

		noTools := noArgs
		noTools.ShowToolCalls = 0
		h.settings(noTools)
		require.Equal(t, []int64{prompt}, seqs(h.resume(0)), "tool calls hidden since: not replayed")

		paused := noTools
		paused.Paused = 1
		h.settings(paused)
		require.Empty(t, seqs(h.resume(0)), "nothing is replayed while the slot is paused")

		h.settings(s)
		fs = h.resume(0)
		require.Equal(t, []int64{tool, prompt}, seqs(fs), "shown again once resumed, as in the feed")
		require.Equal(t, "go test ./...", fs[2].Event.Tool.ArgumentsPreview)
	})
}

// TestResumeAnswersByWhatViewersMaySee: the resume answer and the seq a joining viewer is
// given depend only on the events a viewer may see now, so probing ?since= tells nothing of
// streamer-only, hidden or still delayed events.
func TestResumeAnswersByWhatViewersMaySee(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, vibe.DefaultSettings()) // show_thinking=0
		v := h.watch()
		shown := h.store(vibe.TypePrompt).Seq
		h.publish(h.st.add(vibe.TypePrompt, vibe.VisibilityStreamer, false, time.Now()))
		h.store(vibe.TypeThinking)
		require.Equal(t, []int64{shown}, seqs(take(t, v)))

		requireAnswer := func(fs []frame, resumed bool, what string) {
			t.Helper()
			require.Equal(t, FrameWelcome, fs[0].Type)
			require.Equal(t, shown, fs[0].Seq, "%s: the welcome seq is the newest event viewers may see", what)
			require.Equal(t, resumed, fs[0].Resumed, what)
			if !resumed {
				require.Len(t, fs, 3, what)
				require.Equal(t, FrameReset, fs[2].Type, what)
				require.Equal(t, ResetUnknown, fs[2].Reason, what)
				require.Equal(t, shown, fs[2].Seq, what)
			}
			require.Empty(t, seqs(fs), what)
		}
		w, _ := h.join(nil, 1<<20)
		fs := take(t, w)
		require.Equal(t, []string{FrameWelcome, FrameChatHistory}, types(fs))
		require.Equal(t, shown, fs[0].Seq, "no since: the welcome seq is the newest event viewers may see")
		requireAnswer(h.resume(shown), true, "since the newest visible event")
		requireAnswer(h.resume(shown+1), false, "since a streamer-only event")
		requireAnswer(h.resume(shown+2), false, "since a hidden event")
		requireAnswer(h.resume(shown+3), false, "since nothing stored")

		delayed := vibe.DefaultSettings()
		delayed.DelayMs = 60_000
		h.settings(delayed)
		take(t, v)
		pending := h.store(vibe.TypePrompt).Seq
		requireAnswer(h.resume(pending), false, "since an event still inside its delay")
		requireAnswer(h.resume(pending-1), false, "since the event before it")
		time.Sleep(time.Minute)
		require.Equal(t, []int64{pending}, seqs(take(t, v)))
		shown = pending
		requireAnswer(h.resume(pending), true, "since it, once delivered")
	})
}

// TestEventsDueWhilePausedAreWithheld: an event that comes due while the slot is paused is
// dropped and marked withheld in the store, so the feed and the owner history never show it
// after the slot resumes; every replica marks it, the first mark stands.
func TestEventsDueWhilePausedAreWithheld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 1000
		h := newHarness(t, s)
		other := NewHub(HubDeps{Store: h.st, Broker: h.br, Marker: NewMarker(h.st, time.Second, slog.New(slog.DiscardHandler), h.metrics),
			Metrics: NewMetrics(prometheus.NewRegistry()), Logger: slog.New(slog.DiscardHandler), Now: time.Now, Config: testConfig()})
		t.Cleanup(other.Close)
		v := h.watch()
		_, err := other.Join(t.Context(), Slot{ID: 7, Slug: "camp-code", Owner: "ada"}, NewViewer(1<<20, 0, ""), nil)
		require.NoError(t, err)
		synctest.Wait()

		due := h.store(vibe.TypePrompt)
		synctest.Wait()
		paused := s
		paused.Paused = 1
		h.settings(paused)
		time.Sleep(2 * time.Second)
		require.Equal(t, []string{vibe.FrameSettings}, types(take(t, v)))
		h.marker.Flush(t.Context())
		other.marker.Flush(t.Context())
		row := h.st.event(due.Seq)
		require.True(t, row.Withheld, "marked in the store")
		require.Equal(t, vibe.WithheldDueWhilePaused, row.WithheldReason)

		h.settings(s)
		kept := h.store(vibe.TypePrompt)
		time.Sleep(time.Second)
		require.Equal(t, []int64{kept.Seq}, seqs(take(t, v)))
		require.Equal(t, []int64{kept.Seq}, seqs(h.resume(0)), "nor replayed")
		h.marker.Flush(t.Context())
		require.False(t, h.st.event(kept.Seq).Withheld)
	})
}

// TestControlOvertakingItsEvent: control messages and events travel on two channels, so a
// retraction, a panic or a pause may reach the room before the event it concerns. None of
// them lets the event through.
func TestControlOvertakingItsEvent(t *testing.T) {
	s := vibe.DefaultSettings()
	s.DelayMs = 3000
	paused := s
	paused.Paused = 1
	for _, tc := range []struct {
		name string
		// control runs after the events are stored and before they are published: it
		// changes the store as the api does, then sends its message.
		control func(h *harness, seqs []int64)
	}{
		{"retract", func(h *harness, seqs []int64) {
			h.st.retract(seqs[0])
			h.send(slotbus.Message{Kind: slotbus.KindRetract, Retract: &slotbus.Retract{Seq: seqs[0], EventID: h.st.event(seqs[0]).EventID}})
		}},
		{"panic", func(h *harness, seqs []int64) {
			since := time.Now().Add(-4 * time.Second)
			h.st.setSettings(paused)
			h.st.withholdSince(since)
			h.send(slotbus.Message{Kind: slotbus.KindPanic, Panic: &slotbus.Panic{At: time.Now(), Since: since, Settings: paused}})
		}},
		{"pause", func(h *harness, seqs []int64) {
			h.st.setSettings(paused)
			h.send(slotbus.Message{Kind: slotbus.KindSettings, Settings: &paused})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, s)
				v := h.watch()
				var stored []store.VibeEvent
				var ids []int64
				for range 2 {
					e := h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
					stored, ids = append(stored, e), append(ids, e.Seq)
				}
				tc.control(h, ids)
				synctest.Wait() // the control message is taken first
				for _, e := range stored {
					h.publish(e) // as it was published: before the control change
				}
				switch tc.name {
				case "panic":
					time.Sleep(time.Second)
					h.settings(s) // resumed before the events are due
					time.Sleep(3 * time.Second)
				case "pause":
					time.Sleep(4 * time.Second) // due while paused
					h.marker.Flush(t.Context())
					require.Equal(t, vibe.WithheldDueWhilePaused, h.st.event(ids[0]).WithheldReason)
					h.settings(s)
					time.Sleep(time.Second)
				default:
					time.Sleep(4 * time.Second)
				}
				got := seqs(take(t, v))
				require.NotContains(t, got, ids[0], "the event the %s concerns reached a viewer", tc.name)
				require.Equal(t, got, seqs(h.resume(0)), "the replay is what was delivered")
				if tc.name == "retract" {
					require.Equal(t, []int64{ids[1]}, got, "the other event is delivered")
				} else {
					require.Empty(t, got)
				}
			})
		})
	}
}

// TestPanicWaitsForTheStore: after a panic the room reads the store before it takes another
// event from the broker; while the store does not answer, events wait.
func TestPanicWaitsForTheStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 1000
		h := newHarness(t, s)
		v := h.watch()
		e := h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		paused := s
		paused.Paused = 1
		since := time.Now().Add(-2 * time.Second)
		h.st.setSettings(paused)
		h.st.withholdSince(since)
		h.st.setFail(true)
		h.send(slotbus.Message{Kind: slotbus.KindPanic, Panic: &slotbus.Panic{At: time.Now(), Since: since, Settings: paused}})
		synctest.Wait()
		h.publish(e) // late, not withheld in the message
		h.settings(s)
		time.Sleep(2 * time.Second)
		require.Empty(t, seqs(take(t, v)), "held while the store is away")
		h.st.setFail(false)
		time.Sleep(3 * time.Second)
		require.Empty(t, seqs(take(t, v)), "the store says withheld")
	})
}

// TestRoomFollowsTheRule: for every case of the rule, a room delivers the event exactly when
// vibe.WhyHidden shows it: replayed to a viewer that joins after it was stored (and, still
// inside its delay, sent live once it is due), or sent live when it comes from the broker.
func TestRoomFollowsTheRule(t *testing.T) {
	for _, c := range vibetest.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			delay := time.Duration(c.Settings.DelayMs) * time.Millisecond
			add := func(h *harness) store.VibeEvent {
				e := c.At(time.Now())
				row := h.st.add(e.EventType, e.Visibility, e.Withheld, e.ReceivedAt)
				if e.Retracted {
					h.st.retract(row.Seq)
				}
				return h.st.event(row.Seq)
			}
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, c.Settings)
				add(h)
				fs := h.resume(0)
				want := []int64(nil)
				if c.Want == vibe.Shown {
					want = []int64{1}
				}
				require.Equal(t, want, seqs(fs), "stored before the room started")
				v, _ := h.join(nil, 1<<20)
				take(t, v)
				time.Sleep(max(0, delay-c.Age) + time.Millisecond)
				want = nil
				if c.Want == vibe.HiddenDelayed {
					want = []int64{1}
				}
				require.Equal(t, want, seqs(take(t, v)), "sent live when due")
			})
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, c.Settings)
				v := h.watch()
				h.publish(add(h))
				time.Sleep(delay + time.Millisecond)
				var want []int64
				if c.Want.Coming() {
					want = []int64{1}
				}
				require.Equal(t, want, seqs(take(t, v)), "from the broker")
			})
		})
	}
}

// TestResumeDropsWhatItWithheld: the resume withholds, in its own transaction, every event
// that came due while the slot was paused, timed by the store's receive times. The room times
// a live event from its arrival, a little later, so when the resume reaches it the room may
// still hold such an event pending, or not have received it yet. Neither is shown.
func TestResumeDropsWhatItWithheld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := vibe.DefaultSettings()
		s.DelayMs = 2000
		h := newHarness(t, s)
		v := h.watch()
		pending := h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		late := h.st.add(vibe.TypePrompt, vibe.VisibilityPublic, false, time.Now())
		time.Sleep(100 * time.Millisecond)
		h.publish(pending) // arrives 100 ms after it was stored: due 100 ms after the store has it due
		paused := s
		paused.Paused = 1
		h.settings(paused)
		time.Sleep(1950 * time.Millisecond) // due by the store's clock, still pending in the room

		// The resume, as the api does it: withhold what came due while paused, then save and
		// send the settings.
		_, err := h.st.WithholdVibeEvents(t.Context(), store.Withhold{ManagedStreamID: 7,
			Seqs: []int64{pending.Seq, late.Seq}, Reason: vibe.WithheldDueWhilePaused})
		require.NoError(t, err)
		h.settings(s)
		h.publish(late) // its broker copy, from before it was withheld, comes after the resume
		kept := h.store(vibe.TypePrompt)
		time.Sleep(3 * time.Second)
		require.Equal(t, []int64{kept.Seq}, seqs(take(t, v)), "events the resume withheld are never shown")
		require.Equal(t, []int64{kept.Seq}, seqs(h.resume(0)), "nor replayed")
	})
}
