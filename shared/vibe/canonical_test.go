package vibe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestCanonicalEvent: values the original platform's publishers send are mapped onto the
// canonical model, and the record says what was mapped from what.
func TestCanonicalEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  string // the event
		want func(t *testing.T, ev Event)
		norm string // the record, as JSON ("null": nothing normalised)
	}{
		{"tool phase completed", `{"eventId":"e","eventType":"tool.call","tool":{"name":"bash","phase":"completed"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "end", ev.Tool.Phase) }, `{"tool.phase":"completed"}`},
		{"tool phase failed", `{"eventId":"e","eventType":"tool.call","tool":{"phase":"failed"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "error", ev.Tool.Phase) }, `{"tool.phase":"failed"}`},
		{"tool phase running", `{"eventId":"e","eventType":"tool.call","tool":{"phase":"Running"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "start", ev.Tool.Phase) }, `{"tool.phase":"Running"}`},
		{"tool phase in progress", `{"eventId":"e","eventType":"tool.call","tool":{"phase":"in-progress"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "start", ev.Tool.Phase) }, `{"tool.phase":"in-progress"}`},
		{"tool phase unknown", `{"eventId":"e","eventType":"tool.call","tool":{"phase":"middle"}}`,
			func(t *testing.T, ev Event) { require.Empty(t, ev.Tool.Phase) }, `{"tool.phase":"middle"}`},
		{"tool phase canonical", `{"eventId":"e","eventType":"tool.call","tool":{"phase":"end"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "end", ev.Tool.Phase) }, `null`},
		{"file operation modify", `{"eventId":"e","eventType":"file.change","file":{"operation":"modify"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "edit", ev.File.Operation) }, `{"file.operation":"modify"}`},
		{"file operation moved", `{"eventId":"e","eventType":"file.change","file":{"operation":"moved"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "rename", ev.File.Operation) }, `{"file.operation":"moved"}`},
		{"sequence string", `{"eventId":"e","eventType":"prompt","sequence":"17"}`,
			func(t *testing.T, ev Event) { require.EqualValues(t, 17, ev.Sequence) }, `{"sequence":"17"}`},
		{"sequence float", `{"eventId":"e","eventType":"prompt","sequence":17.0}`,
			func(t *testing.T, ev Event) { require.EqualValues(t, 17, ev.Sequence) }, `null`},
		{"sequence fraction", `{"eventId":"e","eventType":"prompt","sequence":16.6}`,
			func(t *testing.T, ev Event) { require.EqualValues(t, 17, ev.Sequence) }, `{"sequence":16.6}`},
		{"sequence junk", `{"eventId":"e","eventType":"prompt","sequence":"abc"}`,
			func(t *testing.T, ev Event) { require.Zero(t, ev.Sequence) }, `{"sequence":"abc"}`},
		{"change count string", `{"eventId":"e","eventType":"file.change","file":{"changeCount":"3"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, 3, ev.File.ChangeCount) }, `{"file.changeCount":"3"}`},
		{"change count negative", `{"eventId":"e","eventType":"file.change","file":{"changeCount":-2}}`,
			func(t *testing.T, ev Event) { require.Zero(t, ev.File.ChangeCount) }, `{"file.changeCount":-2}`},
		{"occurredAt epoch ms", `{"eventId":"e","eventType":"prompt","occurredAt":1776813001099}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.099Z", ev.OccurredAt) }, `{"occurredAt":1776813001099}`},
		{"occurredAt epoch s", `{"eventId":"e","eventType":"prompt","occurredAt":1776813001}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.000Z", ev.OccurredAt) }, `{"occurredAt":1776813001}`},
		{"occurredAt epoch ms string", `{"eventId":"e","eventType":"prompt","occurredAt":"1776813001099"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.099Z", ev.OccurredAt) }, `{"occurredAt":"1776813001099"}`},
		{"occurredAt sql", `{"eventId":"e","eventType":"prompt","occurredAt":"2026-04-21 23:10:01"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.000Z", ev.OccurredAt) }, `{"occurredAt":"2026-04-21 23:10:01"}`},
		{"occurredAt http date", `{"eventId":"e","eventType":"prompt","occurredAt":"Tue, 21 Apr 2026 23:10:01 GMT"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.000Z", ev.OccurredAt) }, `{"occurredAt":"Tue, 21 Apr 2026 23:10:01 GMT"}`},
		{"occurredAt javascript", `{"eventId":"e","eventType":"prompt","occurredAt":"Wed Apr 22 2026 01:10:01 GMT+0200 (Central European Summer Time)"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.000Z", ev.OccurredAt) },
			`{"occurredAt":"Wed Apr 22 2026 01:10:01 GMT+0200 (Central European Summer Time)"}`},
		{"occurredAt no zone", `{"eventId":"e","eventType":"prompt","occurredAt":"2026-04-21T23:10:01.5"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-21T23:10:01.500Z", ev.OccurredAt) }, `{"occurredAt":"2026-04-21T23:10:01.5"}`},
		{"occurredAt rfc3339 kept", `{"eventId":"e","eventType":"prompt","occurredAt":"2026-04-22T01:10:01+02:00"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "2026-04-22T01:10:01+02:00", ev.OccurredAt) }, `null`},
		{"occurredAt junk", `{"eventId":"e","eventType":"prompt","occurredAt":"yesterday"}`,
			func(t *testing.T, ev Event) { require.Empty(t, ev.OccurredAt) }, `{"occurredAt":"yesterday"}`},
		{"depth verbose", `{"eventId":"e","eventType":"prompt","depth":"verbose"}`,
			func(t *testing.T, ev Event) { require.Equal(t, DepthDeep, ev.Depth) }, `{"depth":"verbose"}`},
		{"depth unknown", `{"eventId":"e","eventType":"prompt","depth":"galaxy-brain"}`,
			func(t *testing.T, ev Event) { require.Equal(t, DepthStandard, ev.Depth) }, `{"depth":"galaxy-brain"}`},
		{"depth case", `{"eventId":"e","eventType":"prompt","depth":"Deep"}`,
			func(t *testing.T, ev Event) { require.Equal(t, DepthDeep, ev.Depth) }, `{"depth":"Deep"}`},
		{"visibility private", `{"eventId":"e","eventType":"prompt","visibility":"private"}`,
			func(t *testing.T, ev Event) { require.Equal(t, VisibilityStreamer, ev.Visibility) }, `{"visibility":"private"}`},
		{"visibility unknown", `{"eventId":"e","eventType":"prompt","visibility":"friends"}`,
			func(t *testing.T, ev Event) { require.Equal(t, VisibilityStreamer, ev.Visibility) }, `{"visibility":"friends"}`},
		{"visibility number", `{"eventId":"e","eventType":"prompt","visibility":1}`,
			func(t *testing.T, ev Event) { require.Equal(t, VisibilityStreamer, ev.Visibility) }, `{"visibility":1}`},
		{"eventId number", `{"eventId":17,"eventType":"prompt"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "17", ev.EventID) }, `{"eventId":17}`},
		{"custom type", `{"eventId":"e","eventType":"terminal.output","summary":"ran go test"}`,
			func(t *testing.T, ev Event) { require.Equal(t, "terminal.output", ev.EventType) }, `null`},
		{"type synonym", `{"eventId":"e","eventType":"tool_call","tool":{"name":"x"}}`,
			func(t *testing.T, ev Event) {
				require.Equal(t, TypeToolCall, ev.EventType)
				require.Equal(t, "x", ev.Tool.Name)
			}, `{"eventType":"tool_call"}`},
		{"type case", `{"eventId":"e","eventType":"File.Change"}`,
			func(t *testing.T, ev Event) { require.Equal(t, TypeFileChange, ev.EventType) }, `{"eventType":"File.Change"}`},
		{"type missing, tool body", `{"eventId":"e","tool":{"name":"x"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, TypeToolCall, ev.EventType) }, `{"eventType":null}`},
		{"type missing", `{"eventId":"e","summary":"hi"}`,
			func(t *testing.T, ev Event) { require.Equal(t, TypeSessionStatus, ev.EventType) }, `{"eventType":null}`},
		{"type number", `{"eventId":"e","eventType":3}`,
			func(t *testing.T, ev Event) { require.Equal(t, TypeSessionStatus, ev.EventType) }, `{"eventType":3}`},
		{"session key number", `{"eventId":"e","eventType":"prompt","sessionKey":42}`,
			func(t *testing.T, ev Event) { require.Equal(t, "42", ev.SessionKey) }, `{"sessionKey":42}`},
		{"summary number", `{"eventId":"e","eventType":"prompt","summary":42}`,
			func(t *testing.T, ev Event) { require.Equal(t, "42", ev.Summary) }, `{"summary":42}`},
		{"response parts", `{"eventId":"e","eventType":"response","response":{"text":[{"type":"text","text":"one"},"two"]}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "one\ntwo", ev.Response.Text) }, `{"response.text":"(array)"}`},
		{"response truncated string", `{"eventId":"e","eventType":"response","response":{"text":"x","truncated":"true"}}`,
			func(t *testing.T, ev Event) { require.True(t, ev.Response.Truncated) }, `{"response.truncated":"true"}`},
		{"prompt as text", `{"eventId":"e","eventType":"prompt","prompt":"fix the flaky test"}`,
			func(t *testing.T, ev Event) { require.Equal(t, &TextBody{Text: "fix the flaky test"}, ev.Prompt) },
			`{"prompt":"(string, 18 characters)"}`},
		{"tool arguments object", `{"eventId":"e","eventType":"tool.call","tool":{"name":"bash","argumentsPreview":{"cmd": "ls"}}}`,
			func(t *testing.T, ev Event) { require.Equal(t, `{"cmd":"ls"}`, ev.Tool.ArgumentsPreview) },
			`{"tool.argumentsPreview":"(object)"}`},
		{"source as text", `{"eventId":"e","eventType":"prompt","source":"chat"}`,
			func(t *testing.T, ev Event) { require.Nil(t, ev.Source) }, `{"source":"(string, 4 characters)"}`},
		{"metadata number", `{"eventId":"e","eventType":"prompt","metadata":{"requestId":123}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "123", ev.Metadata.RequestID) }, `{"metadata.requestId":123}`},
		{"publisher client type", `{"eventId":"e","eventType":"prompt","publisher":{"clientType":"terminal"}}`,
			func(t *testing.T, ev Event) { require.Equal(t, "cli", ev.Publisher.ClientType) }, `{"publisher.clientType":"terminal"}`},
		{"many", `{"eventId":9,"eventType":"tool.call","sequence":"4","tool":{"phase":"done"},"depth":"verbose"}`,
			func(t *testing.T, ev Event) {
				require.Equal(t, "9", ev.EventID)
				require.EqualValues(t, 4, ev.Sequence)
			}, `{"eventId":9,"sequence":"4","depth":"verbose","tool.phase":"done"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ev, norm, err := CanonicalEvent(json.RawMessage(tt.raw))
			require.NoError(t, err)
			tt.want(t, ev)
			b, err := json.Marshal(norm)
			require.NoError(t, err)
			require.Equal(t, tt.norm, string(b))
		})
	}
}

// TestCanonicalEventSeed: the protocol document's event is canonical as sent.
func TestCanonicalEventSeed(t *testing.T) {
	t.Parallel()
	_, norm, err := CanonicalEvent(json.RawMessage(seedEvent))
	require.NoError(t, err)
	require.Empty(t, norm)
}

func TestDerivedEventID(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 300)
	ev, norm, err := CanonicalEvent(json.RawMessage(`{"eventId":"` + long + `","eventType":"prompt"}`))
	require.NoError(t, err)
	require.LessOrEqual(t, utf8.RuneCountInString(ev.EventID), MaxEventIDLen)
	require.True(t, strings.HasPrefix(ev.EventID, strings.Repeat("a", 64)+"~"))
	require.Equal(t, DerivedEventID(long), ev.EventID, "the same id maps to the same canonical id")
	require.NotEqual(t, DerivedEventID(long+"b"), ev.EventID, "ids sharing a prefix stay apart")
	require.JSONEq(t, `{"eventId":"(string, 300 characters)"}`, string(norm.JSON()))

	ev, _, err = CanonicalEvent(json.RawMessage(`{"eventId":"a\u0000b","eventType":"prompt"}`))
	require.NoError(t, err)
	require.True(t, isPrintableID(ev.EventID), ev.EventID)
	require.True(t, strings.HasPrefix(ev.EventID, "ab~"))
}

func TestNormalizedJSON(t *testing.T) {
	t.Parallel()
	var n Normalized
	require.Nil(t, n.JSON())
	n.add("tool.phase", json.RawMessage(`"completed"`), true, "")
	n.add("sequence", json.RawMessage(`"17"`), true, "")
	n.add("prompt", json.RawMessage(`"a long prompt text that must never be copied into the record at all, ever"`), true, "")
	n.add("file", json.RawMessage(`{"a":1}`), false, "")
	require.Equal(t, `{"tool.phase":"completed","sequence":"17","prompt":"(string, 73 characters)","file":"(object)"}`, string(n.JSON()))
	var back Normalized
	require.NoError(t, json.Unmarshal(n.JSON(), &back))
	require.Equal(t, string(n.JSON()), string(back.JSON()))
	require.Equal(t, []string{"tool.phase", "sequence", "prompt", "file"}, back.Fields())
	require.Equal(t, json.RawMessage(`"17"`), back.Get("sequence"))
}

func TestSanitizeNormalized(t *testing.T) {
	t.Parallel()
	ss := testSanitizer(t).NewSession(SessionHints{})
	n := Normalized{
		{Field: "tool.phase", From: json.RawMessage(`"completed"`)},
		{Field: "tool.name", From: json.RawMessage(`"AKIAQWERTYUIOPASDFGH"`)},
		{Field: "sequence", From: json.RawMessage(`17`)},
	}
	out := ss.SanitizeNormalized(n)
	require.Equal(t, json.RawMessage(`"completed"`), out.Get("tool.phase"))
	require.Equal(t, json.RawMessage(`17`), out.Get("sequence"))
	require.NotContains(t, string(out.Get("tool.name")), "AKIAQWERTYUIOPASDFGH")
	require.Nil(t, ss.SanitizeNormalized(nil))
}

// TestParseEventStrict: ParseEvent, the publisher's check, accepts the canonical event as it
// stands and names the first field that is not canonical, in the texts the protocol has
// always used.
func TestParseEventStrict(t *testing.T) {
	t.Parallel()
	_, err := ParseEvent(json.RawMessage(seedEvent))
	require.NoError(t, err)
	_, err = ParseEvent(json.RawMessage(`{"eventId":"e","eventType":"prompt","sequence":17.0,"publisher":{"clientType":"emacs"}}`))
	require.NoError(t, err, "an integral number is an integer; the publisher is read tolerantly")
	for _, tt := range []struct{ raw, msg string }{
		{`{"eventId":"e","eventType":"keystroke"}`, "eventType must be one of session.status, prompt, response, thinking, tool.call, file.change, file.save"},
		{`{"eventId":"e"}`, "eventId and eventType are required"},
		{`{"eventId":"e","eventType":""}`, "eventId and eventType are required"},
		{`{"eventId":"e","eventType":3}`, "eventType must be one of session.status, prompt, response, thinking, tool.call, file.change, file.save"},
		{`{"eventId":5,"eventType":"prompt"}`, "eventId must be a string"},
		{`{"eventId":"` + strings.Repeat("a", 129) + `","eventType":"prompt"}`, "eventId must be at most 128 characters"},
		{`{"eventId":"a\u0000b","eventType":"prompt"}`, "eventId must be made of printable characters"},
		{`{"eventId":"e","eventType":"prompt","visibility":"private"}`, "visibility must be public or streamer"},
		{`{"eventId":"e","eventType":"prompt","sequence":"7"}`, "sequence must be an integer"},
		{`{"eventId":"e","eventType":"prompt","summary":{}}`, "summary must be a string"},
		{`{"eventId":"e","eventType":"prompt","depth":"full"}`, "depth must be one of headline, standard, deep"},
		{`{"eventId":"e","eventType":"prompt","occurredAt":"yesterday"}`, "occurredAt must be an RFC 3339 timestamp"},
		{`{"eventId":"e","eventType":"prompt","source":"x"}`, "source must be an object"},
		{`{"eventId":"e","eventType":"prompt","prompt":"hi"}`, "prompt must be an object"},
		{`{"eventId":"e","eventType":"response","response":{"text":"x","truncated":"no"}}`, "response.truncated must be a boolean"},
		{`{"eventId":"e","eventType":"tool.call","tool":{"phase":"completed"}}`, "tool.phase must be one of start, end, error"},
		{`{"eventId":"e","eventType":"tool.call","tool":{"argumentsPreview":{"cmd":"ls"}}}`, "tool.argumentsPreview must be a string"},
		{`{"eventId":"e","eventType":"file.change","file":{"operation":"modify"}}`, "file.operation must be one of create, edit, delete, rename, save"},
		{`{"eventId":"e","eventType":"file.change","file":{"changeCount":-1}}`, "file.changeCount must be a non-negative integer"},
		{`{"eventId":"e","eventType":"prompt","metadata":{"model":7}}`, "metadata.model must be a string"},
	} {
		_, err := ParseEvent(json.RawMessage(tt.raw))
		var ee *EventError
		require.ErrorAs(t, err, &ee, tt.raw)
		require.Equal(t, tt.msg, ee.Msg, tt.raw)
	}
}

// BenchmarkCanonicalEvent reads the protocol document's event (canonical as sent) and a tool
// call in the original platform's forms (four fields to map), and sanitizes the latter's
// record, as the gateway does for every event.
func BenchmarkCanonicalEvent(b *testing.B) {
	original := json.RawMessage(`{"version":1,"eventId":"ev-1","sessionKey":"k","eventType":"tool.call","visibility":"public",` +
		`"sequence":"17","occurredAt":1776813001099,"summary":"Ran the publish server's tests.",` +
		`"tool":{"name":"run_in_terminal","phase":"completed","argumentsPreview":{"command":"npm test"},"resultPreview":"42 passing"}}`)
	for _, bc := range []struct {
		name string
		raw  json.RawMessage
	}{{"canonical", json.RawMessage(seedEvent)}, {"original-forms", original}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := CanonicalEvent(bc.raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	_, norm, _ := CanonicalEvent(original)
	ss := testSanitizer(b).NewSession(SessionHints{})
	b.Run("SanitizeNormalized", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ss.SanitizeNormalized(norm)
		}
	})
}

// TestEnumLastWords: a namespaced constant maps by its last words, except past a negation
// and never for visibility.
func TestEnumLastWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rule *enumRule
		in   string
		want string
	}{
		{&phaseRule, "TASK_STATE_COMPLETED", "end"},
		{&phaseRule, "toolCallFailed", "error"},
		{&phaseRule, "tool.call.in_progress", "start"},
		{&phaseRule, "not_done", ""},
		{&phaseRule, "NON_FATAL_ERROR", ""},
		{&phaseRule, "FROBNICATED", ""},
		{&operationRule, "IN_MODIFY", "edit"},
		{&operationRule, "FileDeleted", "delete"},
		{&depthRule, "VIEWER_DEPTH_VERBOSE", DepthDeep},
		{&visibilityRule, "not_public", VisibilityStreamer},
		{&visibilityRule, "VISIBILITY_PUBLIC", VisibilityStreamer},
	} {
		got, _ := tc.rule.canonical(tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
}
