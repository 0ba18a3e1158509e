package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv/browser"
	"openvibe.live/backend/shared/vibe"
)

// TestPreviewMatchesServerProjection checks that the studio's live preview, computed in the
// browser, shows what the server's projection shows, for every event type under several
// settings.
func TestPreviewMatchesServerProjection(t *testing.T) {
	s := startStack(t)
	a := s.register("previewer")
	s.createSlot(a, "preview")
	b := browser.Start(t)
	browser.Run(t, b, chromedp.Navigate(s.url+"/previewer/preview"), browser.WaitJS(`!!window.OpenVibe`))

	long := strings.Repeat("ünïcode wörds and more text ", 60)
	snippet := "for attempt := 1; attempt <= 5; attempt++ { " + strings.Repeat("x", 300) + " }"
	events := []vibe.Event{
		{EventID: "p", EventType: vibe.TypePrompt, Summary: "Fix src/net/upload.go and ~/notes/todo.md", Prompt: &vibe.TextBody{Text: long}},
		{EventID: "r", EventType: vibe.TypeResponse, Summary: long, Response: &vibe.ResponseBody{Text: long}},
		{EventID: "r2", EventType: vibe.TypeResponse, Summary: "short", Response: &vibe.ResponseBody{Text: "short", Truncated: true}},
		{EventID: "t", EventType: vibe.TypeThinking, Summary: "Thinking", Thinking: &vibe.TextBody{Text: long}},
		{EventID: "tc", EventType: vibe.TypeToolCall, Summary: "grep -r token ./src", Tool: &vibe.ToolBody{Name: "grep", Phase: "start", ArgumentsPreview: long, ResultPreview: "src/a.go:1"}},
		{EventID: "tc2", EventType: vibe.TypeToolCall, Summary: "mystery"},
		{EventID: "f", EventType: vibe.TypeFileChange, Summary: "Editing server/vibe-coding/publish-server.js", File: &vibe.FileBody{Name: "publish-server.js", RelativePath: "server/vibe-coding/publish-server.js", Operation: "edit", ChangeCount: 3, Snippet: &snippet}},
		{EventID: "fs", EventType: vibe.TypeFileSave, Summary: `Saved C:\work\app\main.go`, File: &vibe.FileBody{Name: "main.go", RelativePath: `work\app\main.go`, Operation: "save"}},
		{EventID: "ss", EventType: vibe.TypeSessionStatus, Summary: "Session started", Status: &vibe.StatusBody{State: "started", Message: long}},
		{EventID: "priv", EventType: vibe.TypePrompt, Visibility: vibe.VisibilityStreamer, Summary: "private", Prompt: &vibe.TextBody{Text: "private"}},
		{EventID: "url", EventType: vibe.TypeResponse, Summary: "See https://example.com/a/b.html and ./docs/x.md", Response: &vibe.ResponseBody{Text: "ok"}},
	}
	def := vibe.DefaultSettings()
	deep := def
	deep.ViewerDepth, deep.ShowThinking, deep.ShowToolArguments, deep.ShowFileSnippets = vibe.DepthDeep, 1, 1, 1
	headline := deep
	headline.ViewerDepth, headline.RedactFilePaths, headline.MaxPromptChars, headline.MaxSnippetChars = vibe.DepthHeadline, 0, 60, 40
	hidden := def
	hidden.ShowPrompts, hidden.ShowResponses, hidden.ShowFileEvents, hidden.ShowToolCalls = 0, 0, 0, 0
	paused := def
	paused.Paused = 1

	for name, st := range map[string]vibe.Settings{"defaults": def, "deep": deep, "headline": headline, "hidden": hidden, "paused": paused} {
		for _, ev := range events {
			t.Run(fmt.Sprintf("%s/%s", name, ev.EventID), func(t *testing.T) {
				evJSON, err := json.Marshal(ev)
				require.NoError(t, err)
				stJSON, err := json.Marshal(st)
				require.NoError(t, err)
				raw := browser.Eval[string](t, b, fmt.Sprintf(`JSON.stringify(OpenVibe.project(%s, %s))`, evJSON, stJSON))
				want := vibe.Project(&ev, st)
				if want == nil {
					require.Equal(t, "null", raw)
					return
				}
				require.NotEqual(t, "null", raw, "the preview hides an event viewers see")
				var got vibe.Event
				require.NoError(t, json.Unmarshal([]byte(raw), &got))
				viewerFields := func(e vibe.Event) vibe.Event {
					e.Version, e.SessionID, e.Sequence, e.Metadata = 0, "", 0, nil
					return e
				}
				require.Equal(t, viewerFields(*want), viewerFields(got))
			})
		}
	}
}
