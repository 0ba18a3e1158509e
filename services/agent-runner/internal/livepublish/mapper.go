// Package livepublish streams agent sessions to an OpenVibe.Live slot. A link (a session, or
// every session of the runner) holds one publisher client to the publish gateway; the bus
// events of the linked sessions are mapped to canonical vibe-coding events: a user message is
// a prompt, finished assistant text a response, reasoning thinking, each tool call a tool.call
// (start, then end or error), a turn's file changes file.change events, file writes and edits
// file.save events, and the session's busy/idle state session.status. Event IDs are derived
// from part IDs and phases, so a resend is deduplicated by the gateway. Publishing never
// blocks the agent: the client queues in a bounded buffer, sanitizes, reconnects and resends.
package livepublish

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"openvibe.live/backend/shared/vibe"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/snapshot"
)

// EventDiff is the bus event a finished turn publishes with its snapshot diff (TurnDiff).
const EventDiff = "session.diff"

// TurnDiff is the payload of EventDiff.
type TurnDiff struct {
	MessageID string            `json:"message_id"`
	Directory string            `json:"directory,omitempty"`
	Changes   []snapshot.Change `json:"changes"`
}

// Preview limits.
const (
	previewRunes  = 400
	responseRunes = 4000
)

// Mapper turns bus events into canonical events. It remembers each message's role (from
// message.updated) to tell a prompt from a response. Not safe for concurrent use.
type Mapper struct {
	roles    map[string]message.Role // message ID → role
	dirs     map[string]string       // session ID → directory
	sent     map[string]bool         // event IDs already produced (finished parts only)
	order    []string
	maxTrack int
	now      func() time.Time
}

// NewMapper returns an empty mapper.
func NewMapper() *Mapper {
	return &Mapper{roles: map[string]message.Role{}, dirs: map[string]string{}, sent: map[string]bool{},
		maxTrack: 10000, now: time.Now}
}

func (m *Mapper) remember(id string) bool {
	if m.sent[id] {
		return false
	}
	m.sent[id] = true
	m.order = append(m.order, id)
	if len(m.order) > m.maxTrack {
		delete(m.sent, m.order[0])
		m.order = m.order[1:]
	}
	return true
}

// Map returns the canonical events for one bus event (often none).
func (m *Mapper) Map(e bus.Event) []vibe.Event {
	switch e.Type {
	case bus.MessageUpdated:
		if msg, ok := asMessage(e.Properties); ok {
			m.roles[msg.ID] = msg.Role
			if len(m.roles) > m.maxTrack {
				clear(m.roles)
				m.roles[msg.ID] = msg.Role
			}
		}
	case bus.SessionCreated, bus.SessionUpdated:
		if d := sessionDir(e.Properties); d != "" {
			m.dirs[e.SessionID] = d
		}
	case bus.PartUpdated:
		return m.part(e)
	case bus.SessionStatus:
		return m.status(e)
	case EventDiff:
		return m.diff(e)
	}
	return nil
}

func (m *Mapper) base(e bus.Event, id, typ string) vibe.Event {
	t := e.Time
	if t.IsZero() {
		t = m.now()
	}
	return vibe.Event{EventID: id, EventType: typ, SessionID: e.SessionID,
		OccurredAt: t.UTC().Format(time.RFC3339Nano), Source: &vibe.Source{Channel: "openvibe", RawType: e.Type}}
}

func (m *Mapper) part(e bus.Event) []vibe.Event {
	switch p := e.Properties.(type) {
	case *message.TextPart:
		if p.Time.End == nil || strings.TrimSpace(p.Text) == "" {
			return nil // still streaming
		}
		if m.roles[p.MessageID] == message.RoleUser {
			id := "ov-" + p.ID + "-prompt"
			if !m.remember(id) {
				return nil
			}
			ev := m.base(e, id, vibe.TypePrompt)
			ev.Prompt = &vibe.TextBody{Text: p.Text}
			ev.Summary = preview(p.Text, 120)
			return []vibe.Event{ev}
		}
		id := "ov-" + p.ID + "-response"
		if !m.remember(id) {
			return nil
		}
		ev := m.base(e, id, vibe.TypeResponse)
		txt, cut := truncate(p.Text, responseRunes)
		ev.Response = &vibe.ResponseBody{Text: txt, Truncated: cut}
		ev.Summary = preview(p.Text, 120)
		return []vibe.Event{ev}
	case *message.ReasoningPart:
		if p.Time.End == nil || strings.TrimSpace(p.Text) == "" {
			return nil
		}
		id := "ov-" + p.ID + "-thinking"
		if !m.remember(id) {
			return nil
		}
		ev := m.base(e, id, vibe.TypeThinking)
		ev.Thinking = &vibe.TextBody{Text: preview(p.Text, responseRunes)}
		return []vibe.Event{ev}
	case *message.ToolPart:
		return m.tool(e, p)
	}
	return nil
}

func (m *Mapper) tool(e bus.Event, p *message.ToolPart) []vibe.Event {
	var phase string
	switch p.State {
	case message.ToolRunning:
		phase = "start"
	case message.ToolCompleted:
		phase = "end"
	case message.ToolError:
		phase = "error"
	default:
		return nil
	}
	id := "ov-" + p.ID + "-" + phase
	if !m.remember(id) {
		return nil
	}
	ev := m.base(e, id, vibe.TypeToolCall)
	ev.Tool = &vibe.ToolBody{Name: p.Tool, Phase: phase, ArgumentsPreview: preview(compactJSON(p.Input), previewRunes)}
	switch phase {
	case "end":
		ev.Tool.ResultPreview = preview(p.Output, previewRunes)
	case "error":
		ev.Tool.ResultPreview = preview(p.Error, previewRunes)
	}
	ev.Summary = p.Title
	out := []vibe.Event{ev}
	if phase == "end" && (p.Tool == "write" || p.Tool == "edit") {
		var in struct {
			FilePath string `json:"file_path"`
		}
		if json.Unmarshal(p.Input, &in) == nil && in.FilePath != "" {
			rel := m.relative(e.SessionID, in.FilePath)
			sid := "ov-" + p.ID + "-save"
			if m.remember(sid) {
				save := m.base(e, sid, vibe.TypeFileSave)
				save.File = &vibe.FileBody{Name: path.Base(rel), RelativePath: rel, Operation: "save"}
				out = append(out, save)
			}
		}
	}
	return out
}

func (m *Mapper) relative(sessionID, p string) string {
	p = filepath.Clean(p)
	if dir := m.dirs[sessionID]; dir != "" && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Base(p) // never publish an absolute path
	}
	return filepath.ToSlash(p)
}

func (m *Mapper) status(e bus.Event) []vibe.Event {
	props, _ := e.Properties.(map[string]any)
	st, _ := props["status"].(string)
	msg, _ := props["error"].(string)
	state := "active"
	switch st {
	case "busy":
	case "idle":
		state = "idle"
		if msg != "" {
			state = "error"
		}
	default:
		return nil
	}
	ev := m.base(e, fmt.Sprintf("ov-%s-status-%d", e.SessionID, e.Time.UnixNano()), vibe.TypeSessionStatus)
	ev.Status = &vibe.StatusBody{State: state, Message: preview(msg, previewRunes)}
	return []vibe.Event{ev}
}

func (m *Mapper) diff(e bus.Event) []vibe.Event {
	var d TurnDiff
	switch v := e.Properties.(type) {
	case TurnDiff:
		d = v
	case *TurnDiff:
		d = *v
	default:
		return nil
	}
	var out []vibe.Event
	for _, c := range d.Changes {
		id := fmt.Sprintf("ov-%s-file-%s", d.MessageID, c.Path)
		if utf8.RuneCountInString(id) > vibe.MaxEventIDLen {
			id = id[:vibe.MaxEventIDLen]
		}
		if !m.remember(id) {
			continue
		}
		ev := m.base(e, id, vibe.TypeFileChange)
		op := map[snapshot.Op]string{snapshot.Added: "create", snapshot.Modified: "edit", snapshot.Deleted: "delete"}[c.Op]
		ev.File = &vibe.FileBody{Name: path.Base(c.Path), RelativePath: c.Path, Operation: op, ChangeCount: max(c.Lines, 1)}
		out = append(out, ev)
	}
	return out
}

func asMessage(v any) (message.Message, bool) {
	switch m := v.(type) {
	case message.Message:
		return m, true
	case *message.Message:
		return *m, true
	}
	return message.Message{}, false
}

// sessionDir reads Directory from a store.Session (or anything with that field) without
// importing the store.
func sessionDir(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var s struct {
		Directory string `json:"directory"`
	}
	_ = json.Unmarshal(b, &s)
	return s.Directory
}

func compactJSON(raw json.RawMessage) string {
	return strings.Join(strings.Fields(string(raw)), " ")
}

func preview(s string, n int) string {
	out, _ := truncate(strings.TrimSpace(s), n)
	return out
}

func truncate(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	r := []rune(s)
	return string(r[:n]) + "…", true
}
