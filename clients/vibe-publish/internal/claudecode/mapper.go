package claudecode

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/linediff"

	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "claude-code"

// Preview limits, in characters. The gateway and the viewer settings cut further.
const (
	maxSummary = 160
	maxPreview = 2000
	maxSnippet = 600
)

// idSpace namespaces the eventIds derived from transcript line uuids, so that reading a
// transcript again yields the same ids and the gateway stores each event once.
var idSpace = uuid.MustParse("0f5c9a1e-7d3b-4c62-8e1f-3a9b6d2c4e70")

// Mapper turns transcript lines into canonical events. It remembers tool uses so that their
// results can be matched to them; feed it every line of a transcript in order.
type Mapper struct {
	tools map[string]toolUse
}

type toolUse struct {
	name  string
	input json.RawMessage
	cwd   string
}

// NewMapper returns an empty Mapper.
func NewMapper() *Mapper { return &Mapper{tools: map[string]toolUse{}} }

// fileTools are the tools that change files.
var fileTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}

// Line maps one transcript line. Lines it has nothing to say about return no events; a line
// that is not JSON returns an error.
func (m *Mapper) Line(raw []byte) ([]vibe.Event, error) {
	var l line
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("not a transcript line: %w", err)
	}
	if l.IsSidechain || l.Message == nil || l.UUID == "" {
		return nil, nil
	}
	var out []vibe.Event
	for i, b := range l.Message.blocks() {
		switch {
		case l.Type == "user" && b.Type == "text":
			if ev, ok := m.prompt(&l, i, b.Text); ok {
				out = append(out, ev)
			}
		case l.Type == "user" && b.Type == "tool_result":
			out = append(out, m.toolResult(&l, i, b)...)
		case l.Type == "assistant" && b.Type == "text" && strings.TrimSpace(b.Text) != "":
			ev := m.base(&l, i, "text", vibe.TypeResponse, "assistant.text")
			ev.Summary = summarize(b.Text)
			ev.Response = &vibe.ResponseBody{Text: b.Text}
			out = append(out, ev)
		case l.Type == "assistant" && b.Type == "thinking" && strings.TrimSpace(b.Thinking) != "":
			ev := m.base(&l, i, "thinking", vibe.TypeThinking, "assistant.thinking")
			ev.Summary = summarize(b.Thinking)
			ev.Thinking = &vibe.TextBody{Text: b.Thinking}
			out = append(out, ev)
		case l.Type == "assistant" && b.Type == "tool_use" && b.ID != "":
			out = append(out, m.toolUse(&l, i, b))
		}
	}
	return out, nil
}

func (m *Mapper) prompt(l *line, i int, text string) (vibe.Event, bool) {
	if l.IsMeta || isNoise(text) {
		return vibe.Event{}, false
	}
	ev := m.base(l, i, "text", vibe.TypePrompt, "user.text")
	ev.Summary = summarize(text)
	ev.Prompt = &vibe.TextBody{Text: text}
	return ev, true
}

func (m *Mapper) toolUse(l *line, i int, b block) vibe.Event {
	m.tools[b.ID] = toolUse{name: b.Name, input: b.Input, cwd: l.Cwd}
	ev := m.base(l, i, "tool-start", vibe.TypeToolCall, "assistant.tool_use")
	ev.Summary = "Running " + b.Name
	ev.Tool = &vibe.ToolBody{Name: b.Name, Phase: "start", ArgumentsPreview: truncate(compactJSON(b.Input), maxPreview)}
	return ev
}

func (m *Mapper) toolResult(l *line, i int, b block) []vibe.Event {
	tu, known := m.tools[b.ToolUseID]
	name := tu.name
	if !known {
		name = "tool"
	}
	delete(m.tools, b.ToolUseID)
	ev := m.base(l, i, "tool-end", vibe.TypeToolCall, "user.tool_result")
	ev.Tool = &vibe.ToolBody{Name: name, Phase: "end", ResultPreview: truncate(resultText(b.Content), maxPreview)}
	ev.Summary = name + " finished"
	if b.IsError {
		ev.Tool.Phase, ev.Summary = "error", name+" failed"
	}
	out := []vibe.Event{ev}
	if known && !b.IsError && fileTools[name] {
		if fe, ok := m.fileChange(l, i, tu); ok {
			out = append(out, fe)
		}
	}
	return out
}

// fileChange builds the file.change event for a successful file-editing tool call.
func (m *Mapper) fileChange(l *line, i int, tu toolUse) (vibe.Event, bool) {
	var in editInput
	if json.Unmarshal(tu.input, &in) != nil {
		return vibe.Event{}, false
	}
	path := in.FilePath
	if tu.name == "NotebookEdit" && in.NotebookPath != "" {
		path = in.NotebookPath
	}
	if path == "" {
		return vibe.Event{}, false
	}
	op, count, snippet := "edit", 0, ""
	switch tu.name {
	case "Edit":
		count, snippet = linediff.Changed(in.OldString, in.NewString), in.NewString
	case "MultiEdit":
		for _, e := range in.Edits {
			count += linediff.Changed(e.OldString, e.NewString)
		}
		if n := len(in.Edits); n > 0 {
			snippet = in.Edits[n-1].NewString
		}
	case "Write":
		var wr writeResult
		_ = json.Unmarshal(l.ToolUseResult, &wr)
		switch {
		case wr.Type == "create":
			op, count = "create", linediff.Count(in.Content)
		case wr.OriginalFile != nil:
			count = linediff.Changed(*wr.OriginalFile, in.Content)
		default:
			count = linediff.Count(in.Content)
		}
		snippet = in.Content
	case "NotebookEdit":
		count, snippet = max(linediff.Count(in.NewSource), 1), in.NewSource
		if in.EditMode == "delete" {
			snippet = ""
		}
	}
	rel := relativeTo(tu.cwd, path)
	ev := m.base(l, i, "file", vibe.TypeFileChange, "tool."+tu.name)
	verb := map[string]string{"create": "Creating ", "edit": "Editing "}[op]
	ev.Summary = verb + rel
	ev.File = &vibe.FileBody{Name: filepath.Base(rel), RelativePath: rel, Operation: op, ChangeCount: count}
	if s := truncateLines(snippet, 12, maxSnippet); s != "" {
		ev.File.Snippet = &s
	}
	return ev, true
}

// base fills what every event of a line shares. kind tells apart the events one block gives.
func (m *Mapper) base(l *line, i int, kind, typ, rawType string) vibe.Event {
	ev := vibe.Event{
		Version:    vibe.ProtocolVersion,
		EventID:    uuid.NewSHA1(idSpace, []byte(l.SessionID+"/"+l.UUID+"/"+strconv.Itoa(i)+"/"+kind)).String(),
		SessionID:  l.SessionID,
		EventType:  typ,
		Visibility: vibe.VisibilityPublic,
		OccurredAt: l.Timestamp,
		Source:     &vibe.Source{Channel: Channel, RawType: rawType},
	}
	md := vibe.EventMetadata{RequestID: l.RequestID, ResponseID: l.Message.ID, Model: l.Message.Model}
	if l.Cwd != "" {
		md.WorkspaceName = filepath.Base(l.Cwd)
	}
	if md != (vibe.EventMetadata{}) {
		ev.Metadata = &md
	}
	return ev
}

// relativeTo makes path relative to cwd; a path outside cwd keeps only its base name.
func relativeTo(cwd, path string) string {
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(filepath.Clean(path))
	}
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// noisePrefixes start user "messages" that Claude Code writes itself (slash commands, their
// output, interruptions), not prompts the streamer typed.
var noisePrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "<system-reminder>", "<user-prompt-submit-hook>",
	"Caveat: The messages below were generated", "[Request interrupted by user",
}

func isNoise(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return true
	}
	for _, p := range noisePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func summarize(text string) string {
	t := strings.TrimSpace(text)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return truncate(t, maxSummary)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func truncateLines(s string, lines, chars int) string {
	parts := strings.SplitN(s, "\n", lines+1)
	if len(parts) > lines {
		parts = parts[:lines]
	}
	return truncate(strings.Join(parts, "\n"), chars)
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
