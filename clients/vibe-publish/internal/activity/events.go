package activity

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"openvibe.live/backend/shared/vibe"
)

// Builder makes the canonical events of one agent's session. Event ids are derived from the
// agent's own ids (or file and line) under the adapter's namespace, so reading a session
// again yields the same ids and the gateway stores each event once.
type Builder struct {
	Space     uuid.UUID // the adapter's id namespace
	Channel   string    // source.channel
	SessionID string    // the agent's session id
	Model     string    // metadata.model, when known
	Workspace string    // metadata.workspaceName, when known
}

// ID derives a stable event id from the session id and key.
func (b Builder) ID(key ...string) string {
	return uuid.NewSHA1(b.Space, []byte(b.SessionID+"/"+strings.Join(key, "/"))).String()
}

// Event is the skeleton every event shares. key identifies the event within the session.
func (b Builder) Event(key, typ, rawType, at string) vibe.Event {
	ev := vibe.Event{
		Version:    vibe.ProtocolVersion,
		EventID:    b.ID(key),
		SessionID:  b.SessionID,
		EventType:  typ,
		Visibility: vibe.VisibilityPublic,
		OccurredAt: Timestamp(at),
		Source:     &vibe.Source{Channel: b.Channel, RawType: rawType},
	}
	if b.Model != "" || b.Workspace != "" {
		ev.Metadata = &vibe.EventMetadata{Model: b.Model, WorkspaceName: b.Workspace}
	}
	return ev
}

// Prompt is what the streamer typed.
func (b Builder) Prompt(key, rawType, at, text string) vibe.Event {
	ev := b.Event(key, vibe.TypePrompt, rawType, at)
	ev.Summary, ev.Prompt = Summarize(text), &vibe.TextBody{Text: text}
	return ev
}

// Response is the agent's text.
func (b Builder) Response(key, rawType, at, text string) vibe.Event {
	ev := b.Event(key, vibe.TypeResponse, rawType, at)
	ev.Summary, ev.Response = Summarize(text), &vibe.ResponseBody{Text: text}
	return ev
}

// Thinking is the agent's reasoning (hidden from viewers unless the slot shows thinking).
func (b Builder) Thinking(key, rawType, at, text string) vibe.Event {
	ev := b.Event(key, vibe.TypeThinking, rawType, at)
	ev.Summary, ev.Thinking = Summarize(text), &vibe.TextBody{Text: text}
	return ev
}

// Status is a session.status event.
func (b Builder) Status(key, rawType, at, state, message string) vibe.Event {
	ev := b.Event(key, vibe.TypeSessionStatus, rawType, at)
	ev.Summary, ev.Status = Summarize(message), &vibe.StatusBody{State: state, Message: message}
	return ev
}

// ToolStart opens a tool call; args is a preview of its arguments (shown only when the slot
// shows tool arguments).
func (b Builder) ToolStart(key, rawType, at string, t Tool, args string) vibe.Event {
	ev := b.Event(key+"/tool-start", vibe.TypeToolCall, rawType, at)
	ev.Summary = Truncate(StartSummary(t), MaxSummary)
	ev.Tool = &vibe.ToolBody{Name: t.Name, Phase: "start", ArgumentsPreview: Truncate(args, MaxPreview)}
	return ev
}

// ToolEnd closes a tool call with its outcome and a preview of its result.
func (b Builder) ToolEnd(key, rawType, at string, t Tool, o Outcome, result string) vibe.Event {
	ev := b.Event(key+"/tool-end", vibe.TypeToolCall, rawType, at)
	ev.Summary = Truncate(EndSummary(t, o), MaxSummary)
	phase := "end"
	if o.Failed {
		phase = "error"
	}
	ev.Tool = &vibe.ToolBody{Name: t.Name, Phase: phase, ResultPreview: Truncate(result, MaxPreview)}
	return ev
}

// FileChange is one file a tool created, edited, deleted or renamed.
type FileChange struct {
	Path           string // project-relative
	Operation      string // create, edit, delete, rename
	Added, Removed int    // changed lines
	Snippet        string // a Hunk of the change, or the new file's first lines
}

// File makes the file.change event of a change.
func (b Builder) File(key, rawType, at string, fc FileChange) vibe.Event {
	ev := b.Event(key+"/file", vibe.TypeFileChange, rawType, at)
	ev.Summary = Truncate(fileSummary(fc), MaxSummary)
	ev.File = &vibe.FileBody{Name: BaseName(fc.Path), RelativePath: fc.Path, Operation: fc.Operation, ChangeCount: fc.Added + fc.Removed}
	if s := TruncateLines(fc.Snippet, SnippetLines+1, MaxSnippet); s != "" {
		ev.File.Snippet = &s
	}
	return ev
}

// Timestamp is at when it is an RFC 3339 time, else "" (the gateway then stamps the event).
func Timestamp(at string) string {
	if _, err := time.Parse(time.RFC3339Nano, at); err != nil {
		return ""
	}
	return at
}

// BaseName is the last element of a slash- or backslash-separated path.
func BaseName(p string) string {
	p = strings.TrimRight(strings.ReplaceAll(p, `\`, "/"), "/")
	return p[strings.LastIndexByte(p, '/')+1:]
}

// First is the first of its arguments that is not empty.
func First(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
