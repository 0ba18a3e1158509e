package claudecode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "claude-code"

// idSpace namespaces the eventIds derived from transcript line uuids, so that reading a
// transcript again yields the same ids and the gateway stores each event once.
var idSpace = uuid.MustParse("0f5c9a1e-7d3b-4c62-8e1f-3a9b6d2c4e70")

// Mapper turns transcript lines into canonical events. It remembers tool uses so that their
// results can be matched to them; feed it every line of one transcript file in order.
type Mapper struct {
	root      string // project root; paths are made relative to it
	sidechain bool   // a sub-agent's transcript: its prompts and text are not the streamer's
	tools     map[string]toolUse
	calls     int  // tool uses seen, to close open ones in order
	seen      bool // a line with the shape of a transcript line was read
}

type toolUse struct {
	order   int
	at      string
	builder activity.Builder
	tool    activity.Tool
	name    string
	input   toolInput
	cwd     string
}

// NewMapper returns a Mapper for a transcript of the project at root ("": the directory of
// the transcript's first line).
func NewMapper(root string) *Mapper { return &Mapper{root: root, tools: map[string]toolUse{}} }

// NewSidechainMapper returns a Mapper for a sub-agent's transcript: only its tool calls and
// file changes are published, not the instructions the main agent gave it or its replies.
func NewSidechainMapper(root string) *Mapper {
	m := NewMapper(root)
	m.sidechain = true
	return m
}

// Recognized reports whether any line so far had the shape of a transcript line.
func (m *Mapper) Recognized() bool { return m.seen }

// OpenTools counts tool calls started and not yet finished.
func (m *Mapper) OpenTools() int { return len(m.tools) }

// Line maps one transcript line. Lines it has nothing to say about return no events; a line
// that is not JSON returns an error.
func (m *Mapper) Line(raw []byte) ([]vibe.Event, error) {
	var l line
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("not a transcript line: %w", err)
	}
	if l.transcriptLike() {
		m.seen = true
	}
	if m.root == "" && l.Cwd != "" {
		m.root = l.Cwd
	}
	if l.Type == "system" && l.Subtype == "compact_boundary" && l.UUID != "" {
		msg := "Conversation compacted to free context"
		if l.CompactMetadata != nil && l.CompactMetadata.Trigger == "manual" {
			msg = "Conversation compacted (/compact)"
		}
		return []vibe.Event{m.builder(&l).Status(l.UUID+"/compact", "system.compact_boundary", l.Timestamp, "working", msg)}, nil
	}
	if l.Message == nil || l.UUID == "" {
		return nil, nil
	}
	side := m.sidechain || l.IsSidechain
	var out []vibe.Event
	for i, b := range l.Message.blocks() {
		key := l.UUID + "/" + strconv.Itoa(i)
		switch {
		case l.Type == "user" && b.Type == "text" && !side:
			out = append(out, m.userText(&l, key, b.Text)...)
		case l.Type == "user" && b.Type == "tool_result":
			out = append(out, m.toolResult(&l, key, b)...)
		case l.Type == "assistant" && b.Type == "text" && !side && strings.TrimSpace(b.Text) != "":
			ev := m.builder(&l).Response(key+"/text", "assistant.text", l.Timestamp, b.Text)
			out = append(out, m.withMessage(&l, ev))
		case l.Type == "assistant" && b.Type == "thinking" && !side && strings.TrimSpace(b.Thinking) != "":
			ev := m.builder(&l).Thinking(key+"/thinking", "assistant.thinking", l.Timestamp, b.Thinking)
			out = append(out, m.withMessage(&l, ev))
		case l.Type == "assistant" && b.Type == "tool_use" && b.ID != "":
			out = append(out, m.toolUse(&l, key, b))
		}
	}
	return out, nil
}

// userText maps a text block of a user line: a prompt, or nothing when Claude Code wrote it.
func (m *Mapper) userText(l *line, key, text string) []vibe.Event {
	if l.IsMeta || l.IsCompactSummary || l.TranscriptOnly {
		return nil
	}
	if cmd, ok := bashInput(text); ok { // a command the streamer ran with "!" in Claude Code
		t := activity.Tool{Name: "Bash", Kind: activity.Shell, Command: cmd}
		return []vibe.Event{m.withMessage(l, m.builder(l).ToolEnd(key, "user.bash_input", l.Timestamp, t, activity.Outcome{Matches: -1}, ""))}
	}
	text = stripContext(text)
	if isNoise(text) {
		return nil
	}
	return []vibe.Event{m.withMessage(l, m.builder(l).Prompt(key+"/text", "user.text", l.Timestamp, text))}
}

func (m *Mapper) toolUse(l *line, key string, b block) vibe.Event {
	var in toolInput
	_ = json.Unmarshal(b.Input, &in)
	t := m.describe(b.Name, in, l.Cwd)
	m.tools[b.ID] = toolUse{order: m.calls, at: l.Timestamp, builder: m.builder(l), tool: t, name: b.Name, input: in, cwd: l.Cwd}
	m.calls++
	ev := m.builder(l).ToolStart(key, "assistant.tool_use", l.Timestamp, t, activity.CompactJSON(b.Input))
	return m.withMessage(l, ev)
}

func (m *Mapper) toolResult(l *line, key string, b block) []vibe.Event {
	tu, known := m.tools[b.ToolUseID]
	if !known { // no call was shown for it
		return nil
	}
	delete(m.tools, b.ToolUseID)
	var res toolResult
	_ = json.Unmarshal(l.ToolUseResult, &res)
	text := resultText(b.Content)
	o := outcome(tu, b.IsError, text, res)
	ev := m.builder(l).ToolEnd(key, "user.tool_result", l.Timestamp, tu.tool, o, text)
	out := []vibe.Event{m.withMessage(l, ev)}
	if !b.IsError && fileTools[tu.name] {
		if fc, ok := m.fileChange(tu, res); ok {
			out = append(out, m.withMessage(l, m.builder(l).File(key, "tool."+tu.name, l.Timestamp, fc)))
		}
	}
	return out
}

var toolUseIDRE = regexp.MustCompile(`"tool_use_id"\s*:\s*"([^"]+)"`)

// LongLine closes the tool call whose result was on a line too long to read, given the line's
// first bytes, so that viewers do not see the call running for ever.
func (m *Mapper) LongLine(head []byte) []vibe.Event {
	match := toolUseIDRE.FindSubmatch(head)
	if match == nil {
		return nil
	}
	id := string(match[1])
	tu, known := m.tools[id]
	if !known {
		return nil
	}
	delete(m.tools, id)
	var l line
	l.SessionID = stringField(head, "sessionId")
	l.Timestamp = stringField(head, "timestamp")
	b := m.builder(&l)
	ev := b.ToolEnd("long/"+id, "user.tool_result", l.Timestamp, tu.tool, activity.Outcome{Matches: -1}, "(the result was too large to show)")
	return []vibe.Event{ev}
}

// Close ends the calls still open: the transcript was read to its end (--once) or a newer
// session began, so no result will come.
func (m *Mapper) Close() []vibe.Event {
	ids := make([]string, 0, len(m.tools))
	for id := range m.tools {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return m.tools[ids[i]].order < m.tools[ids[j]].order })
	var out []vibe.Event
	for _, id := range ids {
		tu := m.tools[id]
		out = append(out, tu.builder.ToolEnd("unfinished/"+id, "tool_use.unfinished", tu.at, tu.tool, activity.Outcome{Unfinished: true}, ""))
		delete(m.tools, id)
	}
	return out
}

func stringField(head []byte, name string) string {
	re := regexp.MustCompile(`"` + name + `"\s*:\s*"([^"]*)"`)
	if m := re.FindSubmatch(head); m != nil {
		return string(m[1])
	}
	return ""
}

// builder makes the line's events.
func (m *Mapper) builder(l *line) activity.Builder {
	b := activity.Builder{Space: idSpace, Channel: Channel, SessionID: l.SessionID}
	if l.Message != nil {
		b.Model = l.Message.Model
	}
	if m.root != "" {
		b.Workspace = activity.BaseName(m.root)
	}
	return b
}

// withMessage adds the request and message ids of the line to an event's metadata.
func (m *Mapper) withMessage(l *line, ev vibe.Event) vibe.Event {
	md := vibe.EventMetadata{RequestID: l.RequestID}
	if l.Message != nil {
		md.ResponseID = l.Message.ID
	}
	if ev.Metadata != nil {
		md.Model, md.WorkspaceName = ev.Metadata.Model, ev.Metadata.WorkspaceName
	}
	if md != (vibe.EventMetadata{}) {
		ev.Metadata = &md
	}
	return ev
}

func (m *Mapper) rel(cwd, p string) string { return activity.Relative(m.root, cwd, p) }
