package compat

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/e2e/internal/cluster"
)

const password = "correct horse battery staple"

// originalForm is an event as the original platform's publishers send it, the eventId the
// server stores it under, and what the owner's history must say was normalised.
type originalForm struct {
	event      map[string]any
	id         string
	normalized map[string]any // nil: canonical as sent
}

// originalSession is a short agent session in the original's value forms: every form the
// original server stored and this one used to refuse.
func originalSession(key string) []originalForm {
	ev := func(id any, typ string, extra map[string]any) map[string]any {
		m := map[string]any{"version": 1, "eventId": id, "sessionKey": key, "eventType": typ,
			"visibility": "public", "summary": fmt.Sprintf("%s %v", typ, id),
			"occurredAt": "2026-04-21T23:10:01.099Z",
			"publisher":  map[string]any{"integrationId": "github-copilot", "integrationLabel": "GitHub Copilot", "clientType": "vscode-extension"}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tool := func(phase string) map[string]any {
		return map[string]any{"tool": map[string]any{"name": "run_in_terminal", "phase": phase, "argumentsPreview": "go test ./..."}}
	}
	return []originalForm{
		{ev("o-running", "tool.call", tool("running")), "o-running", map[string]any{"tool.phase": "running"}},
		{ev("o-completed", "tool.call", tool("completed")), "o-completed", map[string]any{"tool.phase": "completed"}},
		{ev("o-failed", "tool.call", tool("failed")), "o-failed", map[string]any{"tool.phase": "failed"}},
		{ev("o-modify", "file.change", map[string]any{"file": map[string]any{"name": "publish-server.js",
			"relativePath": "server/vibe-coding/publish-server.js", "operation": "modify", "changeCount": "3"}}),
			"o-modify", map[string]any{"file.operation": "modify", "file.changeCount": "3"}},
		{ev("o-seq", "prompt", map[string]any{"sequence": "17", "prompt": map[string]any{"text": "make the tests pass"}}),
			"o-seq", map[string]any{"sequence": "17"}},
		{ev("o-epoch", "response", map[string]any{"occurredAt": 1776813001099, "response": map[string]any{"text": "Done.", "truncated": false}}),
			"o-epoch", map[string]any{"occurredAt": float64(1776813001099)}},
		{ev("o-date", "response", map[string]any{"occurredAt": "2026-04-21 23:10:01", "response": map[string]any{"text": "Done."}}),
			"o-date", map[string]any{"occurredAt": "2026-04-21 23:10:01"}},
		{ev("o-verbose", "response", map[string]any{"depth": "verbose", "response": map[string]any{"text": "All green."}}),
			"o-verbose", map[string]any{"depth": "verbose"}},
		{ev(4711, "prompt", map[string]any{"prompt": map[string]any{"text": "and now the docs"}}), "4711", map[string]any{"eventId": float64(4711)}},
		{ev("o-custom", "terminal.output", nil), "o-custom", nil},
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// deployment is a cluster (a gateway, two chat-socket replicas, the api) with a streamer,
// ada, live on her slot camp-code, and her publish token.
type deployment struct {
	c     *cluster.Cluster
	owner *cluster.API
	slot  cluster.Slot
	live  int64 // the live stream id
	token string
}

func deploy(t *testing.T) deployment {
	t.Helper()
	c := cluster.Start(t, bins, cluster.Options{Gateways: 1, Chats: 2, APIs: 1})
	owner := c.API()
	owner.Register("ada", password)
	slot := owner.CreateSlot("camp-code")
	return deployment{c: c, owner: owner, slot: slot, live: owner.GoLive(slot.ID), token: owner.CreateToken("copilot")}
}

// viewer registers a viewer account.
func (d deployment) viewer(name string) *cluster.API {
	a := d.c.API()
	a.Register(name, password)
	return a
}

// TestOriginalClients: a publisher sending the original's value forms is acked for every
// event, the owner's history records what was normalised, and viewers that join the original
// chat socket on either replica get every event, the chat history and the chat, one JSON
// object per message.
func TestOriginalClients(t *testing.T) {
	d := deploy(t)
	c, owner, slot, live, token := d.c, d.owner, d.slot, d.live, d.token
	bob := d.viewer("bob")

	anon := dialOriginalViewer(t, c.Chats[0], live, "")
	member := dialOriginalViewer(t, c.Chats[1], live, bob.Token)
	for _, v := range []*originalViewer{anon, member} {
		v.waitFor("auth", func(f []map[string]any) bool { return len(ofType(f, "auth")) > 0 })
	}
	require.Equal(t, true, ofType(member.waitFor("auth", func([]map[string]any) bool { return true }), "auth")[0]["authenticated"])

	gateway := c.Gateways[0].Addr
	const key = "openvibe-20260421231000-ab12cd34"
	t.Run("an event before hello adopts the envelope's sessionKey", func(t *testing.T) {
		p := dialPublisher(t, gateway, token, slot.ID)
		a := p.event(key, map[string]any{"eventId": "before-hello", "eventType": "session.status", "summary": "Copilot session started"})
		require.Equal(t, "vibe-coding.ack", a["type"], "%v", a)
		require.Equal(t, "before-hello", a["event_id"])

		bare := dialPublisher(t, gateway, token, slot.ID)
		e := bare.event("", map[string]any{"eventId": "no-key", "eventType": "prompt"})
		require.Equal(t, map[string]any{"type": "vibe-coding.error", "error": "sessionKey must be established before events are accepted", "event_id": "no-key"}, e)
	})

	p := dialPublisher(t, gateway, token, slot.ID)
	p.send(map[string]any{"type": "vibe-coding.hello", "protocolVersion": 1, "sessionKey": key,
		"publisher": map[string]any{"integrationId": "github-copilot", "integrationLabel": "GitHub Copilot", "clientType": "vscode-extension",
			"clientName": "OpenVibe.Live Copilot Companion", "workspaceName": "openvibe", "machineName": "streamer-laptop"}})
	require.Equal(t, "vibe-coding.hello.ack", p.next()["type"])
	forms := originalSession(key)
	t.Run("every value form is acked", func(t *testing.T) {
		for _, f := range forms {
			a := p.event(key, f.event)
			require.Equal(t, "vibe-coding.ack", a["type"], "%v: %v", f.event["eventId"], a)
			require.Equal(t, f.event["eventId"], normalizeNumber(a["event_id"]), "the ack names the event as sent")
			require.Equal(t, true, a["delivered"], "%v", f.id)
		}
	})

	t.Run("the owner's history keeps what was normalised from what", func(t *testing.T) {
		var h struct {
			Events []map[string]any `json:"events"`
		}
		_, err := owner.Do(t.Context(), http.MethodGet, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/events?limit=200", nil, &h)
		require.NoError(t, err)
		byID := map[string]map[string]any{}
		for _, e := range h.Events {
			byID[fmt.Sprint(e["event_id"])] = e
		}
		for _, f := range forms {
			e, ok := byID[f.id]
			require.True(t, ok, "%s stored", f.id)
			if f.normalized == nil {
				require.Nil(t, e["normalized"], f.id)
				continue
			}
			require.Equal(t, f.normalized, e["normalized"], f.id)
		}
		require.Equal(t, "end", byID["o-completed"]["tool"].(map[string]any)["phase"])
		require.Equal(t, "edit", byID["o-modify"]["file"].(map[string]any)["operation"])
		require.Equal(t, "2026-04-21T23:10:01.099Z", byID["o-epoch"]["occurredAt"])
	})

	want := []string{"before-hello"}
	for _, f := range forms {
		want = append(want, f.id)
	}
	t.Run("every event reaches the viewers on both replicas", func(t *testing.T) {
		for _, v := range []*originalViewer{anon, member} {
			frames := v.waitFor("every event", func(f []map[string]any) bool { return len(vibeIDs(f)) >= len(want) })
			require.Equal(t, want, vibeIDs(frames))
			custom := ofType(frames, "vibe-coding")[len(want)-1]["event"].(map[string]any)
			require.Equal(t, "terminal.output", custom["eventType"], "a custom type is generic activity")
			require.Equal(t, "terminal.output o-custom", custom["summary"])
		}
	})

	t.Run("a 30-event burst reaches every viewer as 30 messages, each one JSON object", func(t *testing.T) {
		for i := range 30 {
			p.send(map[string]any{"type": "vibe-coding.event", "sessionKey": key, "event": map[string]any{
				"eventId": fmt.Sprintf("burst-%02d", i), "eventType": "tool.call", "sequence": fmt.Sprint(100 + i),
				"tool": map[string]any{"name": "read_file", "phase": "completed"}}})
		}
		for range 30 {
			require.Equal(t, "vibe-coding.ack", p.next()["type"])
		}
		for _, v := range []*originalViewer{anon, member} {
			frames := v.waitFor("the burst", func(f []map[string]any) bool { return len(vibeIDs(f)) >= len(want)+30 })
			require.Len(t, vibeIDs(frames), len(want)+30)
			require.Zero(t, v.brokenMessages(), "no message held more than one JSON object")
		}
	})

	t.Run("chat, chat history and the viewer count across replicas", func(t *testing.T) {
		member.send(map[string]any{"type": "chat", "message": "nice refactor", "streamId": live})
		for _, v := range []*originalViewer{anon, member} {
			frames := v.waitFor("bob's chat", func(f []map[string]any) bool { return len(ofType(f, "chat")) > 0 })
			m := ofType(frames, "chat")[0]
			require.Equal(t, "nice refactor", m["message"])
			require.Equal(t, "bob", m["username"])
		}
		anon.send(map[string]any{"type": "chat", "message": "me too"})
		require.Equal(t, "This channel requires a logged-in account to chat.",
			ofType(anon.waitFor("refusal", func(f []map[string]any) bool { return len(ofType(f, "system")) > 0 }), "system")[0]["message"])

		late := dialOriginalViewer(t, c.Chats[0], live, "")
		frames := late.waitFor("history", func(f []map[string]any) bool { return len(ofType(f, "chat.history")) > 0 })
		history := ofType(frames, "chat.history")[0]["messages"].([]any)
		require.Equal(t, "nice refactor", history[len(history)-1].(map[string]any)["message"])

		for _, v := range []*originalViewer{anon, member, late} {
			v.waitFor("a count of 3", func(f []map[string]any) bool {
				counts := ofType(f, "user-count")
				return len(counts) > 0 && counts[len(counts)-1]["count"] == float64(3)
			})
		}
		var rest struct {
			Messages []map[string]any `json:"messages"`
		}
		_, err := c.API().Do(t.Context(), http.MethodGet, "/api/chat/"+itoa(live)+"/history?limit=500", nil, &rest)
		require.NoError(t, err)
		require.Equal(t, "nice refactor", rest.Messages[len(rest.Messages)-1]["message"])
	})

	t.Run("the original workspace's broadcast-settings save reaches viewers", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
		defer cancel()
		status, err := owner.Do(ctx, http.MethodPut, "/api/streams/broadcast-settings", map[string]any{
			"managed_stream_id": slot.ID, "settings": map[string]any{"bitrate": 2500, "resolution": "720",
				"vibeCoding": map[string]any{"enabled": 1, "viewer_depth": "deep", "show_thinking": 1, "delay_ms": 0}}}, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, status)
		a := p.event(key, map[string]any{"eventId": "thought-1", "eventType": "thinking", "thinking": map[string]any{"text": "check the docs"}})
		require.Equal(t, true, a["delivered"], "thinking is shown now: %v", a)
		anon.waitFor("the thinking event", func(f []map[string]any) bool {
			ids := vibeIDs(f)
			return len(ids) > 0 && ids[len(ids)-1] == "thought-1"
		})
	})
}

// normalizeNumber turns a JSON number read into any back into the int the test sent.
func normalizeNumber(v any) any {
	if f, ok := v.(float64); ok && f == float64(int64(f)) {
		return int(f)
	}
	return v
}
