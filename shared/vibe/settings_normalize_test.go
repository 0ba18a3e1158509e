package vibe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormalizeSettings(t *testing.T) {
	t.Parallel()
	def := DefaultSettings()
	tests := []struct {
		name string
		raw  string
		want func(*Settings)
	}{
		{"empty object keeps defaults", `{}`, func(*Settings) {}},
		{"not json", `{nope`, func(*Settings) {}},
		{"not an object", `[1,2]`, func(*Settings) {}},
		{"null", `null`, func(*Settings) {}},
		{"bool true", `{"show_thinking": true}`, func(s *Settings) { s.ShowThinking = 1 }},
		{"bool false", `{"enabled": false}`, func(s *Settings) { s.Enabled = 0 }},
		{"number 0", `{"enabled": 0}`, func(s *Settings) { s.Enabled = 0 }},
		{"number 1", `{"show_thinking": 1}`, func(s *Settings) { s.ShowThinking = 1 }},
		{"string 0 is false", `{"enabled": "0"}`, func(s *Settings) { s.Enabled = 0 }},
		{"string false is false", `{"enabled": "false"}`, func(s *Settings) { s.Enabled = 0 }},
		{"string no", `{"enabled": "no"}`, func(s *Settings) { s.Enabled = 0 }},
		{"string off", `{"enabled": "OFF"}`, func(s *Settings) { s.Enabled = 0 }},
		{"string yes", `{"show_thinking": "yes"}`, func(s *Settings) { s.ShowThinking = 1 }},
		{"string on", `{"show_thinking": "on"}`, func(s *Settings) { s.ShowThinking = 1 }},
		{"string 1", `{"show_thinking": "1"}`, func(s *Settings) { s.ShowThinking = 1 }},
		{"string true", `{"show_thinking": " True "}`, func(s *Settings) { s.ShowThinking = 1 }},
		{"bool junk keeps default", `{"enabled": "maybe", "paused": 7}`, func(*Settings) {}},
		{"depth", `{"viewer_depth": "deep"}`, func(s *Settings) { s.ViewerDepth = DepthDeep }},
		{"depth any case", `{"viewer_depth": " HEADLINE "}`, func(s *Settings) { s.ViewerDepth = DepthHeadline }},
		{"depth synonym", `{"viewer_depth": "verbose"}`, func(s *Settings) { s.ViewerDepth = DepthDeep }},
		{"depth junk", `{"viewer_depth": "galaxy"}`, func(*Settings) {}},
		{"delay rounded", `{"delay_ms": 1500.6}`, func(s *Settings) { s.DelayMs = 1501 }},
		{"delay clamped high", `{"delay_ms": 9999999}`, func(s *Settings) { s.DelayMs = 120000 }},
		{"delay clamped low", `{"delay_ms": -5}`, func(s *Settings) { s.DelayMs = 0 }},
		{"delay numeric string", `{"delay_ms": "2500"}`, func(s *Settings) { s.DelayMs = 2500 }},
		{"delay junk", `{"delay_ms": "soon"}`, func(*Settings) {}},
		{"max_events bounds", `{"max_events": 0}`, func(s *Settings) { s.MaxEvents = 1 }},
		{"max_events high", `{"max_events": 1000}`, func(s *Settings) { s.MaxEvents = 100 }},
		{"prompt chars low", `{"max_prompt_chars": 1}`, func(s *Settings) { s.MaxPromptChars = 60 }},
		{"prompt chars high", `{"max_prompt_chars": 5000}`, func(s *Settings) { s.MaxPromptChars = 1200 }},
		{"response chars", `{"max_response_chars": 10, "max_thinking_chars": 10}`, func(s *Settings) { s.MaxResponseChars = 80; s.MaxThinkingChars = 40 }},
		{"response chars high", `{"max_response_chars": 99999}`, func(s *Settings) { s.MaxResponseChars = 2400 }},
		{"tool and snippet", `{"max_tool_chars": 5000, "max_snippet_chars": 3}`, func(s *Settings) { s.MaxToolChars = 1200; s.MaxSnippetChars = 40 }},
		{"title trimmed", `{"widget_title": "  My Feed  "}`, func(s *Settings) { s.WidgetTitle = "My Feed" }},
		{"title empty", `{"widget_title": "   "}`, func(*Settings) {}},
		{"title cut", `{"widget_title": "` + strings.Repeat("é", 100) + `"}`, func(s *Settings) { s.WidgetTitle = strings.Repeat("é", 80) }},
		{"title control chars", `{"widget_title": "a\u0000b\nc"}`, func(s *Settings) { s.WidgetTitle = "ab c" }},
		{"unknown keys ignored", `{"foo": 1}`, func(*Settings) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := def
			tt.want(&want)
			require.Equal(t, want, NormalizeSettings(json.RawMessage(tt.raw)))
		})
	}
}

func TestSettingsFromBroadcast(t *testing.T) {
	t.Parallel()
	s := SettingsFromBroadcast(json.RawMessage(`{"theme":"dark","vibe_coding":{"paused":"1","delay_ms":3000}}`))
	require.Equal(t, 1, s.Paused)
	require.Equal(t, 3000, s.DelayMs)
	require.Equal(t, DefaultSettings(), SettingsFromBroadcast(nil))
	require.Equal(t, DefaultSettings(), SettingsFromBroadcast(json.RawMessage(`"junk"`)))
	require.Equal(t, DefaultSettings(), SettingsFromBroadcast(json.RawMessage(`{"vibe_coding":"junk"}`)))
}

func TestApplySettingsPatch(t *testing.T) {
	t.Parallel()
	cur := DefaultSettings()
	cur.DelayMs = 5000

	got, err := ApplySettingsPatch(cur, json.RawMessage(`{"show_thinking":true,"viewer_depth":"deep","max_events":"30","paused":"off"}`))
	require.NoError(t, err)
	want := cur
	want.ShowThinking, want.ViewerDepth, want.MaxEvents = 1, DepthDeep, 30
	require.Equal(t, want, got, "missing keys keep the current value")

	got, err = ApplySettingsPatch(cur, json.RawMessage(`{"delay_ms":null}`))
	require.NoError(t, err)
	require.Equal(t, 0, got.DelayMs, "null resets to the default")

	got, err = ApplySettingsPatch(cur, json.RawMessage(`{"delay_ms":999999,"max_prompt_chars":12.4}`))
	require.NoError(t, err)
	require.Equal(t, 120000, got.DelayMs)
	require.Equal(t, 60, got.MaxPromptChars)
}

func TestApplySettingsPatchErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		patch  string
		fields map[string]string
		msg    string
	}{
		{
			name:   "every bad field",
			patch:  `{"delay_ms":"soon","viewer_depth":"galaxy","foo":1,"enabled":"maybe"}`,
			fields: map[string]string{"delay_ms": "must be an integer", "viewer_depth": "must be one of headline, standard, deep", "foo": "unknown field", "enabled": "must be a boolean (true, false, 0 or 1)"},
			msg:    "invalid settings: delay_ms must be an integer; enabled must be a boolean (true, false, 0 or 1); viewer_depth must be one of headline, standard, deep; unknown field foo",
		},
		{
			name:   "example",
			patch:  `{"delay_ms":true,"viewer_depth":3,"foo":"x"}`,
			fields: map[string]string{"delay_ms": "must be an integer", "viewer_depth": "must be one of headline, standard, deep", "foo": "unknown field"},
			msg:    "invalid settings: delay_ms must be an integer; viewer_depth must be one of headline, standard, deep; unknown field foo",
		},
		{"bool number 2", `{"paused":2}`, map[string]string{"paused": "must be a boolean (true, false, 0 or 1)"}, ""},
		{"title type", `{"widget_title":5}`, map[string]string{"widget_title": "must be a string"}, ""},
		{"title empty", `{"widget_title":"  "}`, map[string]string{"widget_title": "must be 1 to 80 characters"}, ""},
		{"title long", `{"widget_title":"` + strings.Repeat("x", 81) + `"}`, map[string]string{"widget_title": "must be 1 to 80 characters"}, ""},
		{"array", `[1]`, map[string]string{"": "settings must be a JSON object"}, "invalid settings: settings must be a JSON object"},
		{"empty", ``, map[string]string{"": "settings must be a JSON object"}, ""},
		{"object value for int", `{"max_events":{}}`, map[string]string{"max_events": "must be an integer"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cur := DefaultSettings()
			got, err := ApplySettingsPatch(cur, json.RawMessage(tt.patch))
			var se *SettingsError
			require.True(t, errors.As(err, &se), "error %v", err)
			require.Equal(t, tt.fields, se.Fields)
			if tt.msg != "" {
				require.Equal(t, tt.msg, err.Error())
			}
			require.Equal(t, cur, got, "a rejected patch changes nothing")
		})
	}
}

func TestBroadcastWithSettings(t *testing.T) {
	t.Parallel()
	s := DefaultSettings()
	s.Paused = 1
	out, err := BroadcastWithSettings(json.RawMessage(`{"theme":"dark","vibe_coding":{"paused":0}}`), s)
	require.NoError(t, err)
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(out, &obj))
	require.JSONEq(t, `"dark"`, string(obj["theme"]))
	require.Equal(t, s, SettingsFromBroadcast(out))

	for _, junk := range []string{``, `null`, `"x"`, `[1]`, `{bad`} {
		out, err := BroadcastWithSettings(json.RawMessage(junk), s)
		require.NoError(t, err)
		require.Equal(t, s, SettingsFromBroadcast(out))
	}
}

// TestMergeSettings: settings saved the original workspace's way (its vibeCoding object, the
// value forms it sends) apply over the current ones, and junk keeps the current value.
func TestMergeSettings(t *testing.T) {
	t.Parallel()
	cur := DefaultSettings()
	cur.DelayMs, cur.ShowThinking = 1500, 1
	got := MergeSettings(cur, json.RawMessage(`{"enabled":1,"delay_ms":"3000","show_thinking":false,
		"viewer_depth":"verbose","max_events":"lots","widget_title":null,"bitrate":2500}`))
	want := cur
	want.DelayMs, want.ShowThinking, want.ViewerDepth = 3000, 0, DepthDeep
	require.Equal(t, want, got)
	require.Equal(t, cur, MergeSettings(cur, json.RawMessage(`[]`)))

	b := json.RawMessage(`{"bitrate":2500,"vibeCoding":{"enabled":0,"delay_ms":250}}`)
	s := SettingsFromBroadcast(b)
	require.Equal(t, 0, s.Enabled, "the original workspace's key is read")
	require.Equal(t, 250, s.DelayMs)
	out, err := BroadcastWithSettings(b, s)
	require.NoError(t, err)
	require.JSONEq(t, `{"bitrate":2500,"vibe_coding":`+string(must(json.Marshal(s)))+`}`, string(out),
		"writing keeps one copy, under vibe_coding")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
