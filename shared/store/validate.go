package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"openvibe.live/backend/shared/vibe"
)

// Checks both backends make before writing, so that what one accepts the other does too.

// ValidateNewEvents rejects a batch holding an event no backend could store, before anything
// is written.
func ValidateNewEvents(events []NewVibeEvent) error {
	for i, e := range events {
		switch {
		case e.EventID == "":
			return fmt.Errorf("event %d: empty event id", i)
		case e.EventType == "":
			return fmt.Errorf("event %d: empty event type", i)
		case e.Visibility != vibe.VisibilityPublic && e.Visibility != vibe.VisibilityStreamer:
			return fmt.Errorf("event %d: unknown visibility %q", i, e.Visibility)
		case !json.Valid(e.Payload):
			return fmt.Errorf("event %d: payload is not valid JSON", i)
		case !utf8.Valid(e.Payload) || !validText(e.EventID) || !validText(e.EventType):
			return fmt.Errorf("event %d: invalid UTF-8 or NUL byte", i)
		case len(e.Normalized) > 0 && !isObject(e.Normalized):
			return fmt.Errorf("event %d: normalized record is not a JSON object", i)
		}
	}
	return nil
}

func isObject(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	return utf8.Valid(raw) && json.Unmarshal(raw, &obj) == nil && obj != nil
}

// validText reports whether s can be stored in a text column of either backend.
func validText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// ObjectText checks a JSON object about to be stored (settings, publisher fields) and returns
// it as text; empty means {}. what names it in the error.
func ObjectText(raw json.RawMessage, what string) (string, error) {
	if len(raw) == 0 {
		return "{}", nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return "", fmt.Errorf("%s must be a JSON object", what)
	}
	return string(raw), nil
}
