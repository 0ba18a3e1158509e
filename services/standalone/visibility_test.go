package main

// The visibility suite drives the standalone server (publish gateway, chat socket and api on
// one port, one store) over its public sockets and REST routes only, as a viewer probing for
// more than the slot owner shows: whatever the chat socket sends (a live frame, a ?since=
// replay, the seq of a welcome or reset frame) must never tell more than the public feed
// shows under the slot's current settings. docs/protocol.md (Delivery rules, Resume) and
// docs/api.md (the public feed, viewer_status) state the rule.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/viewerclient"
)

// visWait bounds every wait of the suite: generous, for a loaded machine.
const visWait = 20 * time.Second

// TestViewerVisibility runs the suite against one standalone server on SQLite.
func TestViewerVisibility(t *testing.T) {
	t.Parallel()
	runVisibilitySuite(t, startSecure(t, generousLimits))
}

// TestViewerVisibilityPostgres runs it on PostgreSQL.
func TestViewerVisibilityPostgres(t *testing.T) {
	t.Parallel()
	runVisibilitySuite(t, startSecure(t, postgresEnv(t)))
}

func runVisibilitySuite(t *testing.T, s *secServer) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *secServer)
	}{
		{"replay follows the current settings", testReplayFollowsSettings},
		{"due while paused stays withheld", testDueWhilePausedStaysWithheld},
		{"resume answer tells only what viewers see", testResumeAnswerTellsOnlyShown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := *s
			s.t = t
			tc.fn(t, &s)
		})
	}
}

// A viewer joining with ?since=0 gets exactly what the public feed shows now: after the
// owner hides tool arguments and file snippets, then tool calls, then pauses the slot, the
// replay of events delivered before under other settings follows each change.
func testReplayFollowsSettings(t *testing.T, s *secServer) {
	v := s.visSlot("replay", map[string]any{"show_tool_calls": 1, "show_tool_arguments": 1,
		"show_file_events": 1, "show_file_snippets": 1, "delay_ms": 0}, true)
	const args, snippet = "-run TestRoomReplay -count 3 ./room/", "replayWindowProbe := 42"
	v.publish(map[string]any{"eventType": "prompt", "summary": "Run the room tests", "prompt": map[string]any{"text": "Run the room tests"}})
	v.publish(map[string]any{"eventType": "tool.call", "summary": "Ran go test",
		"tool": map[string]any{"name": "go test", "phase": "end", "argumentsPreview": args, "resultPreview": "ok room 1.2s"}})
	v.publish(map[string]any{"eventType": "file.change", "summary": "Edited room.go",
		"file": map[string]any{"name": "room.go", "relativePath": "room.go", "operation": "edit", "changeCount": 2, "snippet": snippet}})
	v.waitDelivered(3)

	// As delivered, the arguments and the snippet are shown: in the feed and in a replay.
	feed := v.feed()
	require.Len(t, feed, 3)
	require.Contains(t, feedText(feed), args)
	require.Contains(t, feedText(feed), snippet)
	require.True(t, v.replayIsFeed(v.join(0), feed, "as delivered"))

	steps := []struct {
		what   string
		change map[string]any
		gone   []string // text no viewer may get any more
		types  []string // the event types the feed keeps
	}{
		{"arguments and snippets hidden", map[string]any{"show_tool_arguments": 0, "show_file_snippets": 0},
			[]string{args, snippet}, []string{"prompt", "tool.call", "file.change"}},
		{"tool calls hidden", map[string]any{"show_tool_calls": 0}, []string{args, snippet, "go test"},
			[]string{"prompt", "file.change"}},
		{"paused", map[string]any{"paused": 1}, []string{args, snippet, "go test", "Run the room tests", "room.go"}, nil},
	}
	for _, step := range steps {
		v.settings(step.change)
		feed := v.feed()
		require.Equal(t, step.types, feedTypes(feed), "%s: the feed", step.what)
		for _, text := range step.gone {
			require.NotContains(t, feedText(feed), text, "%s: the feed", step.what)
		}
		a := v.join(0)
		for _, text := range step.gone {
			assert.False(t, strings.Contains(a.replayText(), text), "%s: a ?since=0 replay sent %q, which the settings hide", step.what, text)
		}
		v.replayIsFeed(a, feed, step.what)
	}
}

// Events that come due while the slot is paused are dropped for good: after the resume, no
// viewer gets them live or in a replay, the public feed never lists them, and the owner
// history calls them withheld (due_while_paused), not visible. Once with a viewer watching
// (the chat socket drops them), once with none (nothing but the resume decides).
func testDueWhilePausedStaysWithheld(t *testing.T, s *secServer) {
	for _, watched := range []bool{true, false} {
		name := map[bool]string{true: "watched", false: "unwatched"}[watched]
		t.Run(name, func(t *testing.T) {
			s := *s
			s.t = t
			v := s.visSlot("due-"+name, map[string]any{"delay_ms": 2000}, watched)
			delay := 2 * time.Second
			dropped := s.droppedPaused()
			var lost []int64
			for attempt := 1; ; attempt++ {
				sent := time.Now()
				lost = []int64{
					v.publish(map[string]any{"eventType": "prompt", "summary": "Paused too late " + strconv.Itoa(attempt)}).Sequence,
					v.publish(map[string]any{"eventType": "response", "summary": "Still paused too late " + strconv.Itoa(attempt)}).Sequence,
				}
				pausedAt := v.settings(map[string]any{"paused": 1})
				if pausedAt.Before(sent.Add(delay)) {
					break // both were pending when the slot paused
				}
				// Too slow a machine: they may have come due first. Try again.
				require.Less(t, attempt, 3, "could not pause within the delay window")
				v.settings(map[string]any{"paused": 0})
			}
			// Wait until they came due while paused: the chat socket dropped them, and the api
			// no longer calls them pending.
			if watched {
				require.Eventually(t, func() bool { return s.droppedPaused() >= dropped+len(lost) }, visWait, 50*time.Millisecond,
					"the chat socket dropped both events as paused")
			}
			h := v.history()
			time.Sleep(time.Until(h[lost[1]].VisibleAt.Add(100 * time.Millisecond))) // due, by the server's clock (this host's)
			v.settings(map[string]any{"paused": 0})

			// Something published after the resume is delivered, after them in seq order, so
			// by then the socket has sent whatever it would of the two.
			after := v.publishDelivered(map[string]any{"eventType": "prompt", "summary": "Back from the pause"})
			if watched {
				v.waitSeq(after)
				got := v.delivered()
				for _, seq := range lost {
					assert.NotContains(t, got, seq, "the socket sent an event that came due while paused")
				}
			}
			require.Eventually(t, func() bool { return slices.Contains(feedSeqs(v.feed()), after) }, visWait, 50*time.Millisecond)
			feed := v.feed()
			for _, seq := range lost {
				assert.NotContains(t, feedSeqs(feed), seq, "the public feed shows an event that came due while paused")
			}
			require.Equal(t, after, feed[len(feed)-1].Seq, "the feed ends with the event published after the resume")
			a := v.join(0)
			for _, seq := range lost {
				assert.NotContains(t, a.replaySeqs(), seq, "a ?since=0 replay sent an event that came due while paused")
			}
			v.replayIsFeed(a, feed, "after the resume")
			h = v.history()
			for _, seq := range lost {
				assert.Equal(t, "withheld", h[seq].Status, "the owner history's viewer_status of seq %d, which came due while paused", seq)
				assert.Equal(t, "due_while_paused", h[seq].Reason, "the owner history's withheld_reason of seq %d", seq)
			}
		})
	}
}

// The answer to ?since=N (resumed, or a reset and its seq) and the welcome seq depend only on
// what viewers may see now: streamer-only events, events of a hidden type and events still
// inside the delay leave every answer as if they did not exist.
func testResumeAnswerTellsOnlyShown(t *testing.T, s *secServer) {
	v := s.visSlot("probe", map[string]any{"show_thinking": 0, "delay_ms": 0}, true)
	shown := v.publishDelivered(map[string]any{"eventType": "prompt", "summary": "Shown to viewers"})
	v.waitSeq(shown)
	probeAbove := func(what string, high int64) {
		t.Helper()
		require.Equal(t, []int64{shown}, feedSeqs(v.feed()), "%s: the feed", what)
		for since := shown + 1; since <= high+1; since++ {
			a := v.join(since)
			v.answersAsNothing(a, since, shown, what)
		}
		a := v.join(-1)
		assert.Equal(t, shown, a.welcome.Seq, "%s: the welcome seq of a join without since", what)
	}

	// Streamer-only events, and a type the settings hide.
	v.publish(map[string]any{"eventType": "prompt", "visibility": "streamer", "summary": "For the streamer only"})
	v.publish(map[string]any{"eventType": "prompt", "visibility": "streamer", "summary": "Also for the streamer"})
	high := v.publish(map[string]any{"eventType": "thinking", "summary": "Thinking, hidden", "thinking": map[string]any{"text": "Thinking, hidden"}}).Sequence
	// A watcher's frames and the store both order events: once the server has stored them, a
	// probe that reaches the room after them must not tell them apart from nothing.
	probeAbove("streamer-only and hidden", high)

	// An event still inside its delay window.
	v.settings(map[string]any{"delay_ms": 2000})
	for attempt := 1; ; attempt++ {
		sent := time.Now()
		seq := v.publish(map[string]any{"eventType": "prompt", "summary": "Not due yet " + strconv.Itoa(attempt)}).Sequence
		a := v.join(seq)
		if a.at.Before(sent.Add(2 * time.Second)) {
			v.answersAsNothing(a, seq, shown, "an event still in its delay")
			b := v.join(-1)
			if b.at.Before(sent.Add(2 * time.Second)) {
				assert.Equal(t, shown, b.welcome.Seq, "the welcome seq of a join without since while an event is in its delay")
			}
			break
		}
		// Too slow a machine: the event came due before the probe was answered. Try again.
		require.Less(t, attempt, 3, "could not probe within the delay window")
		v.waitSeq(seq)
		shown = seq
	}
}

// visSlot is one account's live slot with its publisher connection and, optionally, a viewer
// that watches it from the start.
type visSlot struct {
	t        *testing.T
	s        *secServer
	username string
	slug     string
	session  string
	slotID   int64
	pub      *pubclient.Client
	key      string
	watch    *viewerclient.Recorder // nil: nobody watches
	n        int                    // events published
	joins    int                    // viewers joined by join
}

// ack is what the gateway acked of one event.
type ack struct {
	EventID   string `json:"event_id"`
	Delivered bool   `json:"delivered"`
	Sequence  int64  `json:"sequence"`
}

// visSlot registers name, creates its slot with the given settings, goes live, opens a
// publisher and, when watched, a viewer.
func (s *secServer) visSlot(name string, settings map[string]any, watched bool) *visSlot {
	s.t.Helper()
	v := &visSlot{t: s.t, s: s, username: "vis-" + name, slug: "slot-" + name, key: "vis-session-" + name}
	var reg struct {
		User  struct{ ID int64 } `json:"user"`
		Token string             `json:"token"`
	}
	s.must(http.StatusCreated, "POST", "/api/auth/register", "", map[string]string{"username": v.username, "password": "correct horse battery staple"}, &reg)
	v.session = reg.Token
	var slot struct{ ID int64 }
	s.must(http.StatusCreated, "POST", "/api/managed-streams", v.session, map[string]string{"slug": v.slug, "title": "Visibility " + name}, &slot)
	v.slotID = slot.ID
	s.must(http.StatusOK, "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", v.slotID), v.session, map[string]any{"settings": settings}, nil)
	s.must(http.StatusCreated, "POST", fmt.Sprintf("/api/managed-streams/%d/live", v.slotID), v.session, nil, nil)
	var tok struct{ Token string }
	s.must(http.StatusCreated, "POST", "/api/tokens", v.session, map[string]any{"name": "publisher", "scopes": []string{store.ScopeVibeCodingPublish}}, &tok)
	if watched {
		v.watch = v.dial(-1, "")
		_, err := v.watch.NextOf(visWait, viewerclient.FrameWelcome)
		require.NoError(s.t, err, "the watcher's welcome")
	}
	ctx := s.t.Context()
	pub, err := pubclient.Dial(ctx, pubclient.URL(s.base, tok.Token, v.slotID, v.slug), nil)
	require.NoError(s.t, err)
	s.t.Cleanup(func() { _ = pub.CloseNow() })
	v.pub = pub
	_, err = pub.Ready(ctx)
	require.NoError(s.t, err)
	require.NoError(s.t, pub.Send(ctx, map[string]any{"type": "vibe-coding.hello", "protocolVersion": 1, "sessionKey": v.key,
		"publisher": map[string]any{"integrationId": "visibility-suite", "clientType": "cli", "clientName": "visibility suite"}}))
	_, err = pub.Expect(ctx, "vibe-coding.hello.ack", nil)
	require.NoError(s.t, err)
	return v
}

// dial opens a viewer socket, with ?since= when since is not negative, logged in with token
// when it is not empty.
func (v *visSlot) dial(since int64, token string) *viewerclient.Recorder {
	v.t.Helper()
	c, err := viewerclient.Dial(v.t.Context(), v.s.base, viewerclient.Options{Username: v.username, Slot: v.slug,
		Resume: since >= 0, Since: since, Token: token})
	require.NoError(v.t, err, "dial the chat socket")
	rec := viewerclient.Record(c)
	v.t.Cleanup(rec.Close)
	return rec
}

// publish sends one event (public unless fields say otherwise) and waits for its ack.
func (v *visSlot) publish(fields map[string]any) ack {
	v.t.Helper()
	v.n++
	ev := map[string]any{"version": 1, "eventId": fmt.Sprintf("%s-%d", v.slug, v.n), "visibility": "public",
		"occurredAt": time.Now().UTC().Format(time.RFC3339Nano)}
	maps.Copy(ev, fields)
	ctx := v.t.Context()
	require.NoError(v.t, v.pub.Event(ctx, v.key, ev))
	var a ack
	_, err := v.pub.Expect(ctx, "vibe-coding.ack", &a)
	require.NoError(v.t, err)
	require.Equal(v.t, ev["eventId"], a.EventID)
	return a
}

// publishDelivered publishes until the gateway acks an event as delivered (it may still take
// the slot as paused for a moment after a resume) and returns that event's seq.
func (v *visSlot) publishDelivered(fields map[string]any) int64 {
	v.t.Helper()
	deadline := time.Now().Add(visWait)
	for {
		a := v.publish(fields)
		if a.Delivered {
			return a.Sequence
		}
		require.True(v.t, time.Now().Before(deadline), "no event acked as delivered")
		time.Sleep(100 * time.Millisecond)
	}
}

// delivered returns the seqs of the vibe-coding frames the watcher got so far.
func (v *visSlot) delivered() []int64 { return vibeSeqs(v.watch.Frames()) }

// waitDelivered waits until the watcher got n vibe-coding frames and returns their seqs.
func (v *visSlot) waitDelivered(n int) []int64 {
	v.t.Helper()
	frames, ok := v.watch.Wait(visWait, func(fs []viewerclient.Frame) bool { return len(vibeSeqs(fs)) >= n })
	require.True(v.t, ok, "the watcher got %d events, not %d", len(vibeSeqs(frames)), n)
	return vibeSeqs(frames)
}

// waitSeq waits until the watcher got the event seq.
func (v *visSlot) waitSeq(seq int64) {
	v.t.Helper()
	_, ok := v.watch.Wait(visWait, func(fs []viewerclient.Frame) bool { return slices.Contains(vibeSeqs(fs), seq) })
	require.True(v.t, ok, "the watcher got seq %d", seq)
}

func vibeSeqs(frames []viewerclient.Frame) []int64 {
	var seqs []int64
	for _, f := range frames {
		if f.Type == "vibe-coding" {
			seqs = append(seqs, f.Seq)
		}
	}
	return seqs
}

// settings saves a settings change as the studio does and, with a watcher, waits until the
// chat socket sends it; it returns when the change was seen.
func (v *visSlot) settings(change map[string]any) time.Time {
	v.t.Helper()
	seen := 0
	if v.watch != nil {
		seen = len(v.watch.Frames())
	}
	v.s.must(http.StatusOK, "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", v.slotID), v.session, map[string]any{"settings": change}, nil)
	if v.watch == nil {
		return time.Now()
	}
	var at time.Time
	_, ok := v.watch.Wait(visWait, func(fs []viewerclient.Frame) bool {
		for _, f := range fs[seen:] {
			var sf struct{ Settings map[string]any }
			if f.Type == "vibe-coding.settings" && f.Decode(&sf) == nil && hasSettings(sf.Settings, change) {
				at = f.At
				return true
			}
		}
		return false
	})
	require.True(v.t, ok, "the chat socket sent the settings %v", change)
	return at
}

func hasSettings(got, want map[string]any) bool {
	for k, w := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(w) {
			return false
		}
	}
	return true
}

// feedEvent is one event of the public feed: its seq and the projected event.
type feedEvent struct {
	Seq   int64
	Event map[string]any
}

// feed reads the public feed, oldest first.
func (v *visSlot) feed() []feedEvent {
	v.t.Helper()
	var body struct{ Events []map[string]any }
	v.s.must(http.StatusOK, "GET", fmt.Sprintf("/api/vibe-coding/channel/%s/%s/events?limit=100", v.username, v.slug), "", nil, &body)
	out := make([]feedEvent, 0, len(body.Events))
	for _, e := range body.Events {
		seq, ok := e["seq"].(float64)
		require.True(v.t, ok, "a feed event without seq: %v", e)
		delete(e, "seq")
		out = append(out, feedEvent{Seq: int64(seq), Event: e})
	}
	return out
}

func feedSeqs(feed []feedEvent) []int64 {
	seqs := []int64{}
	for _, e := range feed {
		seqs = append(seqs, e.Seq)
	}
	return seqs
}

func feedTypes(feed []feedEvent) []string {
	var types []string
	for _, e := range feed {
		types = append(types, fmt.Sprint(e.Event["eventType"]))
	}
	return types
}

func feedText(feed []feedEvent) string {
	raw, _ := json.Marshal(feed)
	return string(raw)
}

// historyEntry is what the owner history says of one event.
type historyEntry struct {
	Status    string
	Reason    string
	VisibleAt time.Time
}

// history reads the owner history by seq.
func (v *visSlot) history() map[int64]historyEntry {
	v.t.Helper()
	var body struct {
		Events []struct {
			Seq            int64     `json:"seq"`
			ViewerStatus   string    `json:"viewer_status"`
			WithheldReason *string   `json:"withheld_reason"`
			VisibleAt      time.Time `json:"visible_at"`
		} `json:"events"`
	}
	v.s.must(http.StatusOK, "GET", fmt.Sprintf("/api/vibe-coding/managed/%d/events?limit=200", v.slotID), v.session, nil, &body)
	out := map[int64]historyEntry{}
	for _, e := range body.Events {
		h := historyEntry{Status: e.ViewerStatus, VisibleAt: e.VisibleAt}
		if e.WithheldReason != nil {
			h.Reason = *e.WithheldReason
		}
		out[e.Seq] = h
	}
	return out
}

// joinAnswer is what a joining viewer was told: its welcome frame, the reset frame if any,
// and the events replayed before any live frame.
type joinAnswer struct {
	welcome struct {
		Seq     int64 `json:"seq"`
		Resumed bool  `json:"resumed"`
	}
	reset *struct {
		Seq    int64  `json:"seq"`
		Reason string `json:"reason"`
	}
	replay []viewerclient.Frame
	at     time.Time // when the welcome frame arrived
}

// join opens a viewer socket (with ?since= when since is not negative), reads what the
// server sends on joining and closes it. The room sends the welcome, the chat history and
// then the replay or the reset in one step of its loop, so a chat message this viewer posts
// once welcomed comes back after all of them: every frame before it is the join's answer.
func (v *visSlot) join(since int64) joinAnswer {
	v.t.Helper()
	rec := v.dial(since, v.session)
	defer rec.Close()
	var a joinAnswer
	w, err := rec.NextOf(visWait, viewerclient.FrameWelcome)
	require.NoError(v.t, err, "the welcome frame")
	require.NoError(v.t, w.Decode(&a.welcome))
	a.at = w.At
	v.joins++
	mark := fmt.Sprintf("join %d of %s", v.joins, v.slug)
	require.NoError(v.t, rec.Conn().SendChat(v.t.Context(), mark))
	for {
		f, err := rec.Next(visWait)
		require.NoError(v.t, err, "the chat message %q", mark)
		switch f.Type {
		case viewerclient.FrameChatMessage:
			var m struct{ Text string }
			require.NoError(v.t, f.Decode(&m))
			if m.Text == mark {
				return a
			}
		case viewerclient.FrameReset:
			require.NoError(v.t, f.Decode(&a.reset))
		case "vibe-coding":
			a.replay = append(a.replay, f)
		}
	}
}

// answersAsNothing checks that a join with ?since=since, above shown (the newest event
// viewers were shown), got the answer for a position ahead of every event: a reset to shown.
func (v *visSlot) answersAsNothing(a joinAnswer, since, shown int64, what string) {
	v.t.Helper()
	assert.False(v.t, a.welcome.Resumed, "%s: ?since=%d (viewers saw up to %d) was resumed, as if there were events after %d", what, since, shown, shown)
	if assert.NotNil(v.t, a.reset, "%s: ?since=%d got no reset frame", what, since) {
		assert.Equal(v.t, shown, a.reset.Seq, "%s: the reset seq for ?since=%d", what, since)
	}
	assert.Equal(v.t, shown, a.welcome.Seq, "%s: the welcome seq for ?since=%d", what, since)
	assert.Empty(v.t, a.replay, "%s: ?since=%d", what, since)
}

func (a joinAnswer) replaySeqs() []int64 {
	seqs := []int64{}
	for _, f := range a.replay {
		seqs = append(seqs, f.Seq)
	}
	return seqs
}

func (a joinAnswer) replayText() string {
	var b strings.Builder
	for _, f := range a.replay {
		b.Write(f.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// replayIsFeed checks that a ?since=0 replay is the public feed: the same events, in the
// same order, projected the same.
func (v *visSlot) replayIsFeed(a joinAnswer, feed []feedEvent, what string) bool {
	v.t.Helper()
	if !assert.Equal(v.t, feedSeqs(feed), a.replaySeqs(), "%s: the seqs of a ?since=0 replay against the public feed", what) {
		return false
	}
	ok := true
	for i, f := range a.replay {
		var frame struct{ Event map[string]any }
		require.NoError(v.t, f.Decode(&frame))
		ok = assert.Equal(v.t, feed[i].Event, frame.Event, "%s: seq %d replayed against the feed", what, f.Seq) && ok
	}
	return ok
}

// droppedPaused reads how many events the chat socket dropped because the slot was paused
// (openvibe_chat_events_dropped_total{reason="paused"}).
func (s *secServer) droppedPaused() int {
	s.t.Helper()
	r := s.request("GET", "/metrics", "", nil, nil)
	require.Equal(s.t, http.StatusOK, r.status)
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "openvibe_chat_events_dropped_total{") && strings.Contains(line, `reason="paused"`) {
			n, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			require.NoError(s.t, err, line)
			return int(n)
		}
	}
	return 0
}
