package vibe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func projSettings(mod func(*Settings)) Settings {
	s := DefaultSettings()
	if mod != nil {
		mod(&s)
	}
	return s
}

func TestProjectHides(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ev   Event
		mod  func(*Settings)
	}{
		{"disabled", Event{EventType: TypePrompt}, func(s *Settings) { s.Enabled = 0 }},
		{"paused", Event{EventType: TypeSessionStatus}, func(s *Settings) { s.Paused = 1 }},
		{"streamer only", Event{EventType: TypePrompt, Visibility: VisibilityStreamer}, nil},
		{"prompts off", Event{EventType: TypePrompt}, func(s *Settings) { s.ShowPrompts = 0 }},
		{"responses off", Event{EventType: TypeResponse}, func(s *Settings) { s.ShowResponses = 0 }},
		{"thinking off by default", Event{EventType: TypeThinking}, nil},
		{"tools off", Event{EventType: TypeToolCall}, func(s *Settings) { s.ShowToolCalls = 0 }},
		{"file change off", Event{EventType: TypeFileChange}, func(s *Settings) { s.ShowFileEvents = 0 }},
		{"file save off", Event{EventType: TypeFileSave}, func(s *Settings) { s.ShowFileEvents = 0 }},
		{"custom type hidden", Event{EventType: "chat"}, func(s *Settings) { s.ShowCustomEvents = 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Nil(t, Project(&tt.ev, projSettings(tt.mod)))
		})
	}
	require.Nil(t, Project(nil, DefaultSettings()))
}

func TestProjectShowsStatusAlways(t *testing.T) {
	t.Parallel()
	s := projSettings(func(s *Settings) {
		s.ShowPrompts, s.ShowResponses, s.ShowToolCalls, s.ShowFileEvents = 0, 0, 0, 0
	})
	p := Project(&Event{EventID: "e", EventType: TypeSessionStatus, Status: &StatusBody{State: "idle"}}, s)
	require.NotNil(t, p)
	require.Equal(t, &StatusBody{State: "idle"}, p.Status)
	require.Equal(t, []string{TypeSessionStatus}, VisibleTypes(s))
}

func TestProjectTool(t *testing.T) {
	t.Parallel()
	ev := &Event{EventID: "e", EventType: TypeToolCall, Summary: "Ran rm -rf build/",
		Tool: &ToolBody{Name: "terminal", Phase: "end", ArgumentsPreview: "rm -rf build/", ResultPreview: "done"}}
	p := Project(ev, DefaultSettings())
	require.Equal(t, &ToolBody{Name: "terminal", Phase: "end"}, p.Tool, "no tool is exempt from show_tool_arguments")
	require.NotContains(t, p.Summary, "rm -rf", "the summary quotes the arguments")
	require.Equal(t, "Used terminal", p.Summary)

	p = Project(ev, projSettings(func(s *Settings) { s.ShowToolArguments = 1 }))
	require.Equal(t, "rm -rf build/", p.Tool.ArgumentsPreview)
	require.Equal(t, "done", p.Tool.ResultPreview)
	require.Equal(t, "Ran rm -rf build/", p.Summary)
	require.Equal(t, "Ran rm -rf build/", ev.Summary, "the stored event is not modified")
}

// TestProjectToolSummary: with arguments hidden, a publisher's summary that needs no
// arguments reaches viewers; one that quotes the arguments or the result does not.
func TestProjectToolSummary(t *testing.T) {
	t.Parallel()
	tool := func(summary, args, result string) *Event {
		return &Event{EventID: "e", EventType: TypeToolCall, Summary: summary,
			Tool: &ToolBody{Name: "Bash", Phase: "end", ArgumentsPreview: args, ResultPreview: result}}
	}
	for _, tc := range []struct {
		name, summary, args, result, want string
	}{
		{"informative", "Ran tests (go test) — 3 failed", `{"command":"go test ./internal/room/..."}`, "FAIL x", "Ran tests (go test) — 3 failed"},
		{"path redacted", "Read internal/room/room.go", `{"file_path":"/w/internal/room/room.go"}`, "", "Read room.go"},
		{"quotes the raw arguments", "Ran curl -s https://example.test/x", "curl -s https://example.test/x", "", "Used Bash"},
		{"quotes a JSON argument", "Ran psql -h db.internal -U admin", `{"command":"psql -h db.internal -U admin","timeout":5}`, "", "Used Bash"},
		{"quotes a nested argument", "Wrote the launch codes", `{"edits":[{"new_string":"the launch codes"}]}`, "", "Used Bash"},
		{"quotes the result", "Found alice@corp.example", "{}", "alice@corp.example", "Used Bash"},
		{"short values are not quotes", "Ran go vet", `{"command":"go vet"}`, "", "Ran go vet"},
		{"no summary", "", `{"command":"ls"}`, "", "Used Bash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := Project(tool(tc.summary, tc.args, tc.result), DefaultSettings())
			require.Equal(t, tc.want, p.Summary)
			require.Empty(t, p.Tool.ArgumentsPreview)
			require.Empty(t, p.Tool.ResultPreview)
		})
	}
}

func TestProjectFile(t *testing.T) {
	t.Parallel()
	snip := "line one\nline two\nline three"
	ev := &Event{EventID: "e", EventType: TypeFileChange, Summary: "Editing server/vibe-coding/publish-server.js",
		File: &FileBody{Name: "server/vibe-coding/publish-server.js", RelativePath: "server/vibe-coding/publish-server.js",
			Operation: "edit", ChangeCount: 3, Snippet: &snip}}

	p := Project(ev, DefaultSettings())
	require.Equal(t, &FileBody{Name: "publish-server.js", RelativePath: "publish-server.js", Operation: "edit", ChangeCount: 3}, p.File)
	require.Equal(t, "Editing publish-server.js", p.Summary)

	p = Project(ev, projSettings(func(s *Settings) { s.RedactFilePaths = 0; s.ShowFileSnippets = 1 }))
	require.Equal(t, "server/vibe-coding/publish-server.js", p.File.RelativePath)
	require.Equal(t, "Editing server/vibe-coding/publish-server.js", p.Summary)
	require.Equal(t, snip, *p.File.Snippet, "line breaks are kept")

	p = Project(ev, projSettings(func(s *Settings) { s.ShowFileSnippets = 1; s.MaxSnippetChars = 40; s.ViewerDepth = DepthHeadline }))
	require.Equal(t, snip, *p.File.Snippet)
	long := strings.Repeat("abcdefghij\n", 20)
	ev.File.Snippet = &long
	p = Project(ev, projSettings(func(s *Settings) { s.ShowFileSnippets = 1; s.MaxSnippetChars = 40 }))
	// At most 40 characters, cut at a word's start rather than inside one.
	require.Equal(t, strings.Repeat("abcdefghij\n", 3)+Ellipsis, *p.File.Snippet)
	require.LessOrEqual(t, utf8.RuneCountInString(*p.File.Snippet), 40)
	require.Contains(t, *p.File.Snippet, "\n")
}

// TestProjectAddressInNames: an address in a file's name or path, or a tool's name, is
// personal data as in any text; with personal data shown it stays.
func TestProjectAddressInNames(t *testing.T) {
	t.Parallel()
	path := ".config/gcloud/legacy_credentials/ada.lovelace@corp.io/adc.json"
	ev := &Event{EventID: "e", EventType: TypeFileChange, File: &FileBody{Name: "ada.lovelace@corp.io.vcf", RelativePath: path, Operation: "edit"}}
	p := Project(ev, projSettings(func(s *Settings) { s.RedactFilePaths = 0 }))
	require.Equal(t, ".config/gcloud/legacy_credentials/[redacted:email]/adc.json", p.File.RelativePath)
	require.Equal(t, "[redacted:email]", p.File.Name) // the address runs on over .vcf, a domain's last label as far as it can tell
	tool := &Event{EventID: "t", EventType: TypeToolCall, Tool: &ToolBody{Name: "mail/ada.lovelace@corp.io", Phase: "start"}}
	require.Equal(t, "mail/[redacted:email]", Project(tool, projSettings(func(s *Settings) { s.ShowToolArguments = 1 })).Tool.Name)
	p = Project(ev, projSettings(func(s *Settings) { s.RedactFilePaths = 0; s.RedactPersonalData = 0 }))
	require.Equal(t, path, p.File.RelativePath)
}

func TestProjectSummaryPaths(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"Editing src/main.go":                       "Editing main.go",
		"Saved cmd/api/main.go and internal/x/y.go": "Saved main.go and y.go",
		"Read docs/README.md.":                      "Read README.md.",
		"Opened https://example.com/a/b.html":       "Opened https://example.com/a/b.html",
		"Pros and/or cons":                          "Pros and/or cons",
		`Edited src\app\main.cs`:                    "Edited main.cs",
	}
	for in, want := range tests {
		require.Equal(t, want, redactSummaryPaths(in), in)
	}
}

func TestProjectTruncation(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("é", 3000)
	ev := &Event{EventID: "e", EventType: TypeResponse, Response: &ResponseBody{Text: text}}
	tests := []struct {
		depth string
		max   int
		want  int
	}{
		{DepthStandard, 360, 360},
		{DepthHeadline, 360, 216},
		{DepthDeep, 360, 396},
		{DepthHeadline, 80, 48},
		{DepthDeep, 2400, 2640},
	}
	for _, tt := range tests {
		p := Project(ev, projSettings(func(s *Settings) { s.ViewerDepth = tt.depth; s.MaxResponseChars = tt.max }))
		require.Equal(t, tt.want, utf8.RuneCountInString(p.Response.Text), "%s %d", tt.depth, tt.max)
		require.True(t, strings.HasSuffix(p.Response.Text, Ellipsis))
		require.True(t, p.Response.Truncated)
		require.True(t, utf8.ValidString(p.Response.Text))
	}
	// headline never goes below 40 characters.
	th := &Event{EventID: "e", EventType: TypeThinking, Thinking: &TextBody{Text: text}}
	p := Project(th, projSettings(func(s *Settings) { s.ShowThinking = 1; s.MaxThinkingChars = 40; s.ViewerDepth = DepthHeadline }))
	require.Equal(t, 40, utf8.RuneCountInString(p.Thinking.Text))

	short := &Event{EventID: "e", EventType: TypePrompt, Prompt: &TextBody{Text: "hello"}}
	require.Equal(t, "hello", Project(short, DefaultSettings()).Prompt.Text)
	pr := &Event{EventID: "e", EventType: TypePrompt, Prompt: &TextBody{Text: text}, Summary: text}
	p = Project(pr, DefaultSettings())
	require.Equal(t, 220, utf8.RuneCountInString(p.Prompt.Text))
	require.Equal(t, 220, utf8.RuneCountInString(p.Summary))
}

func TestProjectCutsPublisherAndMetadata(t *testing.T) {
	t.Parallel()
	ev := &Event{EventID: "e", EventType: TypePrompt, SessionKey: "k", Visibility: VisibilityPublic,
		Source:    &Source{Channel: "c", RawType: "r"},
		Publisher: &Publisher{IntegrationID: "i", ClientType: "cli", MachineName: "laptop", WorkspaceName: "ws", ClientVersion: "1"},
		Metadata:  &EventMetadata{RequestID: "q", ResponseID: "r", WorkspaceName: "ws", Model: "m"},
		Prompt:    &TextBody{Text: "hi"}}
	p := Project(ev, DefaultSettings())
	require.Equal(t, &Publisher{IntegrationID: "i", ClientType: "cli"}, p.Publisher)
	require.Equal(t, &EventMetadata{RequestID: "q", ResponseID: "r", Model: "m"}, p.Metadata)
	require.Nil(t, p.Source)
	require.Empty(t, p.SessionKey)
}

func TestVisibleTypes(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{TypeSessionStatus, TypePrompt, TypeResponse, TypeToolCall, TypeFileChange, TypeFileSave}, VisibleTypes(DefaultSettings()))
	require.Nil(t, VisibleTypes(projSettings(func(s *Settings) { s.Paused = 1 })))
	require.Nil(t, VisibleTypes(projSettings(func(s *Settings) { s.Enabled = 0 })))
	require.Equal(t, EventTypes, VisibleTypes(projSettings(func(s *Settings) { s.ShowThinking = 1 })))
}

// TestProjectCustomType: a custom event type reaches viewers as generic activity, its
// summary only, unless the owner hides custom types; the feed's type filter follows.
func TestProjectCustomType(t *testing.T) {
	t.Parallel()
	ev := Event{EventID: "e", EventType: "terminal.output", Sequence: 3, Summary: "ran the tests in /home/ada/app/pkg/x_test.go"}
	require.Equal(t, &Event{EventID: "e", EventType: "terminal.output", Sequence: 3, Summary: "ran the tests in x_test.go"},
		Project(&ev, DefaultSettings()))
	require.Nil(t, Project(&ev, projSettings(func(s *Settings) { s.ShowCustomEvents = 0 })))

	s := projSettings(func(s *Settings) { s.ShowToolCalls = 0 })
	include, exclude := FeedTypes(s)
	require.Nil(t, include)
	require.Equal(t, []string{TypeThinking, TypeToolCall}, exclude, "custom types shown: exclude what is off")
	s.ShowCustomEvents = 0
	include, exclude = FeedTypes(s)
	require.Equal(t, []string{TypeSessionStatus, TypePrompt, TypeResponse, TypeFileChange, TypeFileSave}, include)
	require.Nil(t, exclude)
}

// TestProjectRedactionClass: viewers see the class of a redaction, the stored event (the
// owner's history) the rule too.
func TestProjectRedactionClass(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	stored := san.NewSession(SessionHints{}).SanitizeEvent(Event{
		EventID: "e", EventType: TypeResponse,
		Summary:  "posted to https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/aBcDeFgHiJkLmNoPqRsTuVwX",
		Response: &ResponseBody{Text: "DB_PASSWORD=hunter22x and ghp_" + strings.Repeat("x1Y2", 9)},
	})
	require.Contains(t, stored.Summary, "[redacted:webhook/")
	require.Contains(t, stored.Response.Text, "[redacted:password/keyword-assignment]")
	s := projSettings(func(s *Settings) { s.MaxResponseChars = 2000 })
	p := Project(&stored, s)
	require.NotNil(t, p)
	require.Contains(t, p.Summary, "[redacted:webhook]")
	require.NotContains(t, p.Summary, "webhook-url")
	require.Equal(t, "DB_PASSWORD=[redacted:password] and [redacted:token]", p.Response.Text)
	require.Contains(t, stored.Response.Text, "[redacted:token/", "the stored event keeps the rule")
	require.Equal(t, "[redacted:token] x [redacted:private-key]", publicMarks("[redacted:token/github-pat] x [redacted:private-key]"))
	require.Equal(t, "[redacted] [redacted:x", publicMarks("[redacted] [redacted:x"))
}
