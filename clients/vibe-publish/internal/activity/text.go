package activity

import (
	"encoding/json"
	"strings"

	"openvibe.live/backend/shared/vibe"
)

// Preview limits, in characters. The gateway and the slot's settings cut further.
const (
	MaxSummary = 160
	MaxPreview = 2000
	MaxSnippet = 600
	// SnippetLines is how many lines of a change a file event's snippet shows.
	SnippetLines = 12
)

// Summarize is the first non-empty line of text, cut to MaxSummary.
func Summarize(text string) string {
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return Truncate(l, MaxSummary)
		}
	}
	return ""
}

// Truncate cuts s to n characters, ending with an ellipsis when it cuts, as the gateway caps
// events for viewers (vibe.Truncate: a cut inside a short word moves back to its start).
func Truncate(s string, n int) string { return vibe.Truncate(s, n) }

// TruncateLines keeps the first lines lines of s, then cuts to chars characters.
func TruncateLines(s string, lines, chars int) string {
	parts := strings.SplitN(s, "\n", lines+1)
	if len(parts) > lines {
		parts = parts[:lines]
	}
	return Truncate(strings.Join(parts, "\n"), chars)
}

// CompactJSON re-encodes a JSON value without insignificant space ("" when it is not JSON).
func CompactJSON(raw []byte) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
