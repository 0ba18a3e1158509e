package store

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

func TestValidateNewEvents(t *testing.T) {
	ok := NewVibeEvent{EventID: "e-1", EventType: "prompt", Visibility: vibe.VisibilityPublic, Payload: json.RawMessage(`{"a":1}`)}
	require.NoError(t, ValidateNewEvents([]NewVibeEvent{ok, ok}))
	for _, tc := range []struct {
		want string
		mod  func(e *NewVibeEvent)
	}{
		{"event 1: empty event id", func(e *NewVibeEvent) { e.EventID = "" }},
		{"event 1: empty event type", func(e *NewVibeEvent) { e.EventType = "" }},
		{`event 1: unknown visibility "everyone"`, func(e *NewVibeEvent) { e.Visibility = "everyone" }},
		{"event 1: payload is not valid JSON", func(e *NewVibeEvent) { e.Payload = json.RawMessage(`{`) }},
		{"event 1: invalid UTF-8 or NUL byte", func(e *NewVibeEvent) { e.EventID = "a\x00b" }},
		{"event 1: invalid UTF-8 or NUL byte", func(e *NewVibeEvent) { e.EventType = "\xff" }},
	} {
		bad := ok
		tc.mod(&bad)
		require.EqualError(t, ValidateNewEvents([]NewVibeEvent{ok, bad}), tc.want)
	}
}

func TestObjectText(t *testing.T) {
	s, err := ObjectText(nil, "settings")
	require.NoError(t, err)
	require.Equal(t, "{}", s)
	s, err = ObjectText(json.RawMessage(`{"a":[1]}`), "settings")
	require.NoError(t, err)
	require.Equal(t, `{"a":[1]}`, s)
	for _, raw := range []string{`null`, `[1]`, `"x"`, `{`} {
		_, err := ObjectText(json.RawMessage(raw), "publisher")
		require.EqualError(t, err, "publisher must be a JSON object", raw)
	}
}
