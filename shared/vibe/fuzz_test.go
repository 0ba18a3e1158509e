package vibe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParseEvent(f *testing.F) {
	f.Add([]byte(seedEvent))
	f.Add([]byte(`{"eventId":"e","eventType":"file.change","file":{"name":"a","snippet":null,"changeCount":2}}`))
	f.Add([]byte(`{"eventId":"e","eventType":"tool.call","tool":{"name":"bash","phase":"start"}}`))
	f.Add([]byte(`{"eventId":"e","eventType":"session.status","status":{"state":"idle"},"visibility":"streamer"}`))
	f.Add([]byte(`{"eventId":5}`))
	f.Add([]byte(`{"eventId":9,"eventType":"Tool_Call","sequence":"4","occurredAt":1776813001099,"tool":{"phase":"completed","argumentsPreview":{"a":[1]}}}`))
	f.Add([]byte(`{"eventId":"e","eventType":"file.change","depth":"verbose","file":{"operation":"modify","changeCount":"3"},"occurredAt":"Tue, 21 Apr 2026 23:10:01 GMT"}`))
	f.Add([]byte(`{"eventId":"e","response":{"text":[{"text":"a"},"b"],"truncated":"yes"},"publisher":{"clientType":"terminal","capabilities":{"thinking":1}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		ev, err := ParseEvent(raw)
		if err != nil {
			if _, ok := err.(*EventError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if ev.EventID == "" || utf8.RuneCountInString(ev.EventID) > MaxEventIDLen {
			t.Fatalf("accepted eventId %q", ev.EventID)
		}
		if ev.Visibility != "" && ev.Visibility != VisibilityPublic && ev.Visibility != VisibilityStreamer {
			t.Fatalf("visibility %q", ev.Visibility)
		}
		// A parsed event re-encodes to an event that parses to itself.
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		again, norm, err := CanonicalEvent(b)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b, err)
		}
		if len(norm) > 0 {
			t.Fatalf("a canonical event was normalised again: %s in %s", norm.JSON(), b)
		}
		b2, _ := json.Marshal(again)
		if string(b) != string(b2) {
			t.Fatalf("not stable:\n%s\n%s", b, b2)
		}
	})
}

// fuzzSecrets are planted into fuzzed text; none may survive sanitizing, whatever surrounds
// it.
var fuzzSecrets = []string{
	"ghp_Ab3dEf5hIj7lMn9pQr1tUv3xYz5bCd7fGh9J",
	"AKIAQWERTYUIOPASDFGH",
	"sk-ant-api03-Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9Qm-AbCdEAA",
	"xoxb-123456789012-123456789012-AbCdEfGhIjKlMnOpQrStUvWx",
	"hbt_Qm9vYmFyYmF6cXV4cXV1eHh5ei0tX19fYWJjZGVmZ2g",
}

func FuzzSanitize(f *testing.F) {
	f.Add("export TOKEN=", "\nnext line", uint8(0))
	f.Add(`{"args":"`, `"}`, uint8(1))
	f.Add("curl -H 'Authorization: Bearer ", "' https://x", uint8(2))
	f.Add("/home/alice/", "/x.go", uint8(3))
	f.Add("", "", uint8(4))
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, before, after string, which uint8) {
		secret := fuzzSecrets[int(which)%len(fuzzSecrets)]
		ss := san.NewSession(SessionHints{WorkspaceName: "app"})
		in := before + secret + after
		out := ss.SanitizeText(in)
		if strings.Contains(out, secret) {
			t.Fatalf("planted secret survived:\n in: %q\nout: %q", in, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", in)
		}
		// Sanitizing is idempotent enough never to reintroduce anything: a second pass
		// still holds no secret.
		if again := ss.SanitizeText(out); strings.Contains(again, secret) {
			t.Fatalf("second pass reintroduced the secret: %q", again)
		}
		ev := ss.SanitizeEvent(Event{EventID: "e", EventType: TypeToolCall, Summary: in,
			Tool: &ToolBody{Name: "t", ArgumentsPreview: in, ResultPreview: after + secret}})
		b, _ := json.Marshal(ev)
		if strings.Contains(string(b), secret) {
			t.Fatalf("planted secret survived in event: %s", b)
		}
	})
}

func FuzzProject(f *testing.F) {
	f.Add([]byte(seedEvent), []byte(`{}`))
	f.Add([]byte(`{"eventId":"e","eventType":"tool.call","tool":{"name":"bash","argumentsPreview":"rm -rf /"}}`), []byte(`{"show_tool_arguments":1,"viewer_depth":"deep"}`))
	f.Add([]byte(`{"eventId":"e","eventType":"file.save","file":{"relativePath":"a/b/c.go","snippet":"x\ny"}}`), []byte(`{"show_file_snippets":"yes","redact_file_paths":0,"max_snippet_chars":40}`))
	f.Add([]byte(`{"eventId":"e","eventType":"prompt","visibility":"streamer","prompt":{"text":"hi"}}`), []byte(`{"viewer_depth":"headline"}`))
	f.Fuzz(func(t *testing.T, rawEvent, rawSettings []byte) {
		ev, err := ParseEvent(rawEvent)
		if err != nil {
			return
		}
		s := NormalizeSettings(rawSettings)
		p := Project(&ev, s)
		if p == nil {
			return
		}
		if !s.Live() || ev.Visibility == VisibilityStreamer || !typeShown(ev.EventType, s) {
			t.Fatalf("shown although hidden: %+v with %+v", ev, s)
		}
		limit := textLimit(ev.EventType, s)
		check := func(what, text string, limit int) {
			if n := utf8.RuneCountInString(text); n > limit && text != ev.Summary {
				t.Fatalf("%s has %d characters, limit %d", what, n, limit)
			}
		}
		check("summary", p.Summary, max(limit, 64))
		if p.Tool != nil && s.ShowToolArguments == 0 && (p.Tool.ArgumentsPreview != "" || p.Tool.ResultPreview != "") {
			t.Fatal("tool arguments shown without show_tool_arguments")
		}
		if p.File != nil && s.ShowFileSnippets == 0 && p.File.Snippet != nil {
			t.Fatal("snippet shown without show_file_snippets")
		}
		if p.Publisher != nil && (p.Publisher.MachineName != "" || p.Publisher.WorkspaceName != "") {
			t.Fatal("publisher machine or workspace shown")
		}
		if p.Metadata != nil && p.Metadata.WorkspaceName != "" {
			t.Fatal("workspace name shown")
		}
		for _, txt := range []*TextBody{p.Prompt, p.Thinking} {
			if txt != nil {
				check("text", txt.Text, limit)
			}
		}
		if p.Response != nil {
			check("response", p.Response.Text, limit)
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzApplySettingsPatch(f *testing.F) {
	f.Add([]byte(`{"delay_ms":1500,"viewer_depth":"deep"}`))
	f.Add([]byte(`{"enabled":"no","paused":"on","widget_title":"  x  "}`))
	f.Add([]byte(`{"max_events":null,"foo":1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, patch []byte) {
		cur := DefaultSettings()
		cur.DelayMs = 777
		got, err := ApplySettingsPatch(cur, patch)
		if err != nil {
			if _, ok := err.(*SettingsError); !ok {
				t.Fatalf("error of type %T", err)
			}
			if got != cur {
				t.Fatal("a rejected patch changed the settings")
			}
			return
		}
		if got != got.normalized() {
			t.Fatalf("result not normalized: %+v", got)
		}
		// What the API stores reads back the same.
		b, _ := json.Marshal(got)
		if NormalizeSettings(b) != got {
			t.Fatalf("stored settings read back differently: %s", b)
		}
		if NormalizeSettings(patch).normalized() != NormalizeSettings(patch) {
			t.Fatal("tolerant read not normalized")
		}
	})
}
