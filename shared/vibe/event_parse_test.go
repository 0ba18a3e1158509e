package vibe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const seedEvent = `{
    "version": 1,
    "eventId": "28c49b5c-9070-4fd3-b750-b67d84338f64",
    "sessionKey": "openvibe-20260421231000-ab12cd34",
    "sessionId": "7b3e6b3a-78df-40d7-a53d-9acfa1b2cb30",
    "sequence": 17,
    "eventType": "response",
    "visibility": "public",
    "depth": "standard",
    "occurredAt": "2026-04-21T23:10:01.099Z",
    "summary": "Refactored the publish server to sanitize Copilot events before viewer fanout.",
    "source": {"channel": "chat-session", "rawType": "request.response"},
    "publisher": {
      "integrationId": "github-copilot", "integrationLabel": "GitHub Copilot", "vendor": "GitHub",
      "clientType": "vscode-extension", "clientName": "OpenVibe.Live Copilot Companion"
    },
    "response": {"text": "Refactored the publish server.", "truncated": false},
    "metadata": {"requestId": "req-123", "responseId": "resp-456", "workspaceName": "openvibe", "model": "gpt-5.4"},
    "debug": {"raw": "dropped"}
}`

func TestParseEventSeed(t *testing.T) {
	t.Parallel()
	ev, err := ParseEvent(json.RawMessage(seedEvent))
	require.NoError(t, err)
	require.Equal(t, Event{
		Version:    1,
		EventID:    "28c49b5c-9070-4fd3-b750-b67d84338f64",
		SessionKey: "openvibe-20260421231000-ab12cd34",
		SessionID:  "7b3e6b3a-78df-40d7-a53d-9acfa1b2cb30",
		Sequence:   17,
		EventType:  TypeResponse,
		Visibility: VisibilityPublic,
		Depth:      DepthStandard,
		OccurredAt: "2026-04-21T23:10:01.099Z",
		Summary:    "Refactored the publish server to sanitize Copilot events before viewer fanout.",
		Source:     &Source{Channel: "chat-session", RawType: "request.response"},
		Publisher: &Publisher{IntegrationID: "github-copilot", IntegrationLabel: "GitHub Copilot", Vendor: "GitHub",
			ClientType: "vscode-extension", ClientName: "OpenVibe.Live Copilot Companion"},
		Response: &ResponseBody{Text: "Refactored the publish server."},
		Metadata: &EventMetadata{RequestID: "req-123", ResponseID: "resp-456", WorkspaceName: "openvibe", Model: "gpt-5.4"},
	}, ev)
}

func TestParseEventBodies(t *testing.T) {
	t.Parallel()
	ev, err := ParseEvent(json.RawMessage(`{"eventId":"e1","eventType":"file.change",
		"file":{"name":"a.go","relativePath":"src/a.go","operation":"edit","changeCount":3,"snippet":null,"extra":1},
		"prompt":{"text":"not a prompt event"}}`))
	require.NoError(t, err)
	require.Empty(t, ev.Visibility, "parsing leaves a missing visibility to the sanitizer")
	require.Nil(t, ev.Prompt, "bodies of other types are dropped")
	require.Equal(t, &FileBody{Name: "a.go", RelativePath: "src/a.go", Operation: "edit", ChangeCount: 3}, ev.File)

	ev, err = ParseEvent(json.RawMessage(`{"eventId":"e2","eventType":"tool.call","visibility":"streamer",
		"tool":{"name":"bash","phase":"start","argumentsPreview":"ls","resultPreview":"ok"}}`))
	require.NoError(t, err)
	require.Equal(t, VisibilityStreamer, ev.Visibility)
	require.Equal(t, &ToolBody{Name: "bash", Phase: "start", ArgumentsPreview: "ls", ResultPreview: "ok"}, ev.Tool)

	ev, err = ParseEvent(json.RawMessage(`{"eventId":"e3","eventType":"session.status","status":{"state":"idle","message":"waiting"}}`))
	require.NoError(t, err)
	require.Equal(t, &StatusBody{State: "idle", Message: "waiting"}, ev.Status)

	snip := "x := 1"
	ev, err = ParseEvent(json.RawMessage(`{"eventId":"e4","eventType":"file.save","file":{"name":"a.go","snippet":"x := 1"}}`))
	require.NoError(t, err)
	require.Equal(t, &snip, ev.File.Snippet)

	ev, _, err = CanonicalEvent(json.RawMessage(`{"eventId":"e5","eventType":"terminal.output","summary":"ran the tests",
		"tool":{"name":"go"},"output":"PASS"}`))
	require.NoError(t, err)
	require.Equal(t, Event{EventID: "e5", EventType: "terminal.output", Summary: "ran the tests"}, ev,
		"a custom type keeps the fields every event has and no body")
}

// TestParseEventRefusals: the only events CanonicalEvent refuses are those that cannot be
// events, with the original protocol's texts (ParseEvent refuses them the same way).
func TestParseEventRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, msg string
	}{
		{"missing", ``, "event payload is required"},
		{"null", `null`, "event payload is required"},
		{"array", `[]`, "event payload is required"},
		{"string", `"x"`, "event payload is required"},
		{"bad json", `{"eventId":`, "event payload is required"},
		{"no id", `{"eventType":"prompt"}`, "eventId and eventType are required"},
		{"empty id", `{"eventId":"","eventType":"prompt"}`, "eventId and eventType are required"},
		{"blank id", `{"eventId":"   ","eventType":"prompt"}`, "eventId and eventType are required"},
		{"null id", `{"eventId":null,"eventType":"prompt"}`, "eventId and eventType are required"},
		{"object id", `{"eventId":{"v":1},"eventType":"prompt"}`, "eventId and eventType are required"},
		{"bool id", `{"eventId":true,"eventType":"prompt"}`, "eventId and eventType are required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, parse := range []func(json.RawMessage) error{
				func(raw json.RawMessage) error { _, _, err := CanonicalEvent(raw); return err },
				func(raw json.RawMessage) error { _, err := ParseEvent(raw); return err },
			} {
				var ee *EventError
				err := parse(json.RawMessage(tt.raw))
				require.True(t, errors.As(err, &ee), "error %v", err)
				require.Equal(t, tt.msg, ee.Error())
			}
		})
	}
}

func TestNormalizePublisher(t *testing.T) {
	t.Parallel()
	p := NormalizePublisher(json.RawMessage(`{"integrationId":" claude-code ","clientType":"jetbrains","clientName":"` +
		strings.Repeat("n", 300) + `","machineName":"box\u0007","viewerDepth":"huge",
		"capabilities":{"thinking":"true","toolCalls":1,"workspaceFileEvents":"nope"},"token":"dropped"}`))
	require.Equal(t, "claude-code", p.IntegrationID)
	require.Equal(t, "other", p.ClientType)
	require.Len(t, p.ClientName, maxPublisherLn)
	require.Equal(t, "box", p.MachineName)
	require.Empty(t, p.ViewerDepth)
	require.Equal(t, &Capabilities{Thinking: true, ToolCalls: true}, p.Capabilities)

	for _, ct := range ClientTypes {
		require.Equal(t, ct, NormalizePublisher(json.RawMessage(`{"clientType":"`+ct+`"}`)).ClientType)
	}
	require.Equal(t, Publisher{}, NormalizePublisher(json.RawMessage(`"junk"`)))
	require.Equal(t, Publisher{}, NormalizePublisher(nil))
}

func TestPublisherViewerSafe(t *testing.T) {
	t.Parallel()
	p := Publisher{IntegrationID: "a", IntegrationLabel: "b", Vendor: "c", ClientType: "cli", ClientName: "d",
		ClientVersion: "1", WorkspaceName: "w", MachineName: "m", ViewerDepth: "deep", Capabilities: &Capabilities{Thinking: true}}
	require.Equal(t, &Publisher{IntegrationID: "a", IntegrationLabel: "b", Vendor: "c", ClientType: "cli", ClientName: "d"}, p.ViewerSafe())
	require.Nil(t, Publisher{MachineName: "m"}.ViewerSafe())
}

// BenchmarkParseEvent decodes the protocol document's response event, as the gateway does
// for every event it receives.
func BenchmarkParseEvent(b *testing.B) {
	raw := json.RawMessage(`{"version":1,"eventId":"evt_123","sessionKey":"vscode-copilot-session-1","eventType":"response",` +
		`"visibility":"public","depth":"standard","occurredAt":"2026-04-21T23:10:01.099Z",` +
		`"summary":"Refactored the publish server to sanitize Copilot events before viewer fanout.",` +
		`"source":{"channel":"chat-session","rawType":"request.response"},` +
		`"response":{"text":"Refactored the publish server to sanitize Copilot events before viewer fanout.","truncated":false},` +
		`"metadata":{"requestId":"req-123","responseId":"resp-456","model":"gpt-5.4"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseEvent(raw); err != nil {
			b.Fatal(err)
		}
	}
}
