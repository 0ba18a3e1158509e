package api_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/slotbus"
)

// TestOwnerHistoryOriginalKeys: the owner history carries the original platform's keys
// (managed_stream_id, live_stream_id, settings, publisher, events, public_events) beside its
// own, each event is also the stored event itself, and each says what was normalised.
func TestOwnerHistoryOriginalKeys(t *testing.T) {
	t.Parallel()
	e := sqliteEnv(t)
	alice := e.register("alice")
	slot := e.createSlot(alice.Token, "camp-code")
	var live struct {
		LiveStreamID int64 `json:"live_stream_id"`
	}
	e.as(alice.Token).expect(http.MethodPost, "/api/managed-streams/"+itoa(slot.ID)+"/live", nil, http.StatusCreated, &live)
	e.storeEvents(slot.ID,
		seedEvent{id: "t-1", typ: "tool.call", payload: map[string]any{"tool": map[string]any{"name": "bash", "phase": "end"}},
			normalized: `{"tool.phase":"completed","sequence":"17"}`},
		seedEvent{id: "t-2", typ: "prompt", payload: map[string]any{"prompt": map[string]any{"text": "go"}}},
		seedEvent{id: "t-3", typ: "terminal.output"},
	)
	path := "/api/vibe-coding/managed/" + itoa(slot.ID) + "/events"
	var h map[string]any
	e.as(alice.Token).expect(http.MethodGet, path, nil, http.StatusOK, &h)
	for _, k := range []string{"managed_stream_id", "live_stream_id", "settings", "publisher", "events", "public_events",
		"managed_stream", "next_before"} {
		require.Contains(t, h, k)
	}
	require.EqualValues(t, slot.ID, h["managed_stream_id"])
	require.EqualValues(t, live.LiveStreamID, h["live_stream_id"])
	pub := h["publisher"].(map[string]any)
	require.Equal(t, "GitHub Copilot", pub["integrationLabel"])
	require.Equal(t, "streamer-laptop", pub["machineName"], "the owner sees the whole publisher")

	events := h["events"].([]any)
	require.Len(t, events, 3)
	newest, oldest := events[0].(map[string]any), events[2].(map[string]any)
	require.Equal(t, "t-3", newest["eventId"], "newest first by default: the studio pages from there")
	require.Equal(t, "terminal.output", newest["eventType"])
	require.Nil(t, newest["normalized"])
	require.Equal(t, "t-1", oldest["eventId"], "each item is also the stored event")
	require.Equal(t, "t-1", oldest["event_id"])
	require.Equal(t, map[string]any{"name": "bash", "phase": "end"}, oldest["tool"])
	require.Equal(t, map[string]any{"tool.phase": "completed", "sequence": "17"}, oldest["normalized"])

	public := h["public_events"].([]any)
	require.Len(t, public, 3, "a custom type is generic activity viewers see")
	require.Equal(t, "t-1", public[0].(map[string]any)["eventId"], "public events oldest first, as the feed")

	e.as(alice.Token).expect(http.MethodGet, path+"?order=oldest", nil, http.StatusOK, &h)
	events = h["events"].([]any)
	require.Equal(t, "t-1", events[0].(map[string]any)["eventId"], "?order=oldest: the original's order")
	require.Equal(t, "order must be newest or oldest", e.as(alice.Token).do(http.MethodGet, path+"?order=up", nil).errorMessage(t))
}

// TestBroadcastSettingsFlow: the original workspace's save flow (PUT
// /api/streams/broadcast-settings with the whole broadcast object, vibe-coding settings
// under vibeCoding) changes the slot's vibe-coding settings, tells viewers, and keeps the
// other keys.
func TestBroadcastSettingsFlow(t *testing.T) {
	t.Parallel()
	e := sqliteEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	slot := e.createSlot(alice.Token, "camp-code")
	sub := e.subscribe(slot.ID)
	const path = "/api/streams/broadcast-settings"

	blob := map[string]any{"bitrate": 2500, "fps": "30", "browserMode": "camera", "vibeCoding": map[string]any{
		"enabled": 1, "widget_title": "Night Bus", "viewer_depth": "deep", "show_thinking": 1, "delay_ms": 1500,
		"max_events": 30, "redact_file_paths": 0,
	}}
	var saved struct {
		Settings        map[string]any `json:"settings"`
		ManagedStreamID int64          `json:"managed_stream_id"`
	}
	e.as(alice.Token).expect(http.MethodPut, path, map[string]any{"managed_stream_id": itoa(slot.ID), "settings": blob}, http.StatusOK, &saved)
	require.Equal(t, slot.ID, saved.ManagedStreamID)
	require.EqualValues(t, 2500, saved.Settings["bitrate"])
	require.NotContains(t, saved.Settings, "vibeCoding", "one copy of the vibe-coding settings, under vibe_coding")
	vc := saved.Settings["vibe_coding"].(map[string]any)
	require.EqualValues(t, 1500, vc["delay_ms"])
	require.Equal(t, "Night Bus", vc["widget_title"])

	msg := nextSlotMessage(t, sub)
	require.Equal(t, slotbus.KindSettings, msg.Kind)
	require.Equal(t, 1500, msg.Settings.DelayMs)
	require.Equal(t, 1, msg.Settings.ShowThinking)

	var got struct {
		Settings map[string]any `json:"settings"`
	}
	e.as(alice.Token).expect(http.MethodGet, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/settings", nil, http.StatusOK, &got)
	require.Equal(t, "deep", got.Settings["viewer_depth"])
	require.EqualValues(t, 0, got.Settings["redact_file_paths"])

	// The other save path sends the broadcast object without vibe-coding settings: they stay.
	saved.Settings = nil
	e.as(alice.Token).expect(http.MethodPut, path, map[string]any{"managed_stream_id": slot.ID, "settings": map[string]any{"bitrate": 4000}}, http.StatusOK, &saved)
	require.EqualValues(t, 4000, saved.Settings["bitrate"])
	require.NotContains(t, saved.Settings, "fps", "the object is replaced, as on the original platform")
	require.EqualValues(t, 1500, saved.Settings["vibe_coding"].(map[string]any)["delay_ms"])

	saved.Settings = nil
	e.as(alice.Token).expect(http.MethodGet, path+"?managed_stream_id="+itoa(slot.ID), nil, http.StatusOK, &saved)
	require.EqualValues(t, 4000, saved.Settings["bitrate"])
	saved.Settings = nil
	e.as(bob.Token).expect(http.MethodGet, path+"?managed_stream_id="+itoa(slot.ID), nil, http.StatusOK, &saved)
	require.Empty(t, saved.Settings, "someone else's slot reads as empty, as on the original platform")

	for _, tc := range []struct {
		name   string
		as     string
		body   any
		status int
		msg    string
	}{
		{"no slot", alice.Token, map[string]any{"settings": map[string]any{}}, http.StatusBadRequest, "managed_stream_id is required"},
		{"bad slot", alice.Token, map[string]any{"managed_stream_id": "x", "settings": map[string]any{}}, http.StatusBadRequest, "managed_stream_id is required"},
		{"not an object", alice.Token, map[string]any{"managed_stream_id": slot.ID, "settings": "bitrate=1"}, http.StatusBadRequest, "settings must be an object"},
		{"someone else's slot", bob.Token, map[string]any{"managed_stream_id": slot.ID, "settings": map[string]any{}}, http.StatusForbidden, "Not your managed stream"},
		{"no such slot", alice.Token, map[string]any{"managed_stream_id": slot.ID + 100, "settings": map[string]any{}}, http.StatusForbidden, "Not your managed stream"},
	} {
		r := e.as(tc.as).do(http.MethodPut, path, tc.body)
		require.Equal(t, tc.status, r.status, tc.name)
		require.Equal(t, tc.msg, r.errorMessage(t), tc.name)
	}
	require.Equal(t, http.StatusUnauthorized, e.anon().do(http.MethodPut, path, map[string]any{"managed_stream_id": slot.ID}).status)
}

// TestChatHistoryOriginal: GET /api/chat/:streamId/history answers the original client's
// history request for a live stream with the slot's chat, oldest first.
func TestChatHistoryOriginal(t *testing.T) {
	t.Parallel()
	e := sqliteEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	slot := e.createSlot(alice.Token, "camp-code")
	var live struct {
		LiveStreamID int64 `json:"live_stream_id"`
	}
	e.as(alice.Token).expect(http.MethodPost, "/api/managed-streams/"+itoa(slot.ID)+"/live", nil, http.StatusCreated, &live)
	for _, text := range []string{"first", "second"} {
		e.chat(slot.ID, bob.User.ID, text)
	}
	var h struct {
		Messages []map[string]any `json:"messages"`
		Channel  string           `json:"channel"`
		Active   int64            `json:"activeManagedId"`
		Live     []map[string]any `json:"liveSlots"`
	}
	e.anon().expect(http.MethodGet, "/api/chat/"+itoa(live.LiveStreamID)+"/history?limit=500", nil, http.StatusOK, &h)
	require.Len(t, h.Messages, 2)
	require.Equal(t, "first", h.Messages[0]["message"])
	require.Equal(t, "bob", h.Messages[0]["username"])
	require.NotEmpty(t, h.Messages[0]["timestamp"])
	require.NotNil(t, h.Messages[0]["id"])
	require.Equal(t, "alice", h.Channel)
	require.Equal(t, slot.ID, h.Active)
	require.Len(t, h.Live, 1)

	e.anon().expect(http.MethodGet, "/api/chat/999999/history", nil, http.StatusOK, &h)
	require.Empty(t, h.Messages, "an unknown stream has no history")
}

func sqliteEnv(t *testing.T) *env {
	path := filepath.Join(t.TempDir(), "openvibe.db")
	return newEnv(t, path, path)
}
