package codex

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/activity"
	"openvibe.live/backend/clients/vibe-publish/internal/applypatch"
	"openvibe.live/backend/shared/vibe"
)

// Channel is the source.channel of every event this adapter emits.
const Channel = "codex"

var idSpace = uuid.MustParse("6a3f1c2e-94b0-4d7a-b1e5-2c8d0f7e3a91")

// Mapper turns rollout lines into canonical events. Feed it every line of one rollout in
// order, with its line number: events of lines without an id of their own are keyed by it.
type Mapper struct {
	root    string // project root; "" until session_meta names the cwd
	cwd     string
	b       activity.Builder
	calls   map[string]call
	uses    map[string]int // how often each call id was used: a repeat gets its own key
	order   int
	seen    bool
	version string
}

type call struct {
	key                 string
	order               int
	planDone, planTotal int
	at                  string
	tool                activity.Tool
	patch               []applypatch.File
	cwd                 string
}

// NewMapper returns a Mapper for a rollout of the project at root ("": the session's cwd).
func NewMapper(root string) *Mapper {
	return &Mapper{root: root, calls: map[string]call{}, uses: map[string]int{}, b: activity.Builder{Space: idSpace, Channel: Channel}}
}

// Recognized reports whether any line so far was a rollout line.
func (m *Mapper) Recognized() bool { return m.seen }

// Line maps one rollout line (n is its 1-based number).
func (m *Mapper) Line(raw []byte, n int64) ([]vibe.Event, error) {
	var l rolloutLine
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("not a rollout line: %w", err)
	}
	key := "L" + strconv.FormatInt(n, 10)
	switch {
	case l.Type == "session_meta" || (l.Type == "" && n == 1 && len(l.Payload) == 0):
		return nil, m.meta(l, raw)
	case l.Type == "turn_context":
		var tc turnContext
		if json.Unmarshal(l.Payload, &tc) == nil {
			m.cwd = activity.First(tc.Cwd, m.cwd)
			m.b.Model = activity.First(tc.Model, m.b.Model)
		}
		m.seen = true
		return nil, nil
	case l.Type == "compacted":
		m.seen = true
		return []vibe.Event{m.b.Status(key+"/compacted", "compacted", l.Timestamp, "working", "Conversation compacted to free context")}, nil
	case l.Type == "response_item":
		m.seen = true
		var it item
		if err := json.Unmarshal(l.Payload, &it); err != nil {
			return nil, fmt.Errorf("response_item: %w", err)
		}
		return m.item(it, key, l.Timestamp), nil
	case l.Type == "event_msg":
		m.seen = true // the terminal UI's copies of response items: published once, from those
		return nil, nil
	case l.Payload == nil && l.Type != "": // before 0.20: bare response items
		var it item
		if json.Unmarshal(raw, &it) == nil && knownItem[it.Type] {
			return m.item(it, key, l.Timestamp), nil
		}
	}
	return nil, nil
}

var knownItem = map[string]bool{"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true, "web_search_call": true}

func (m *Mapper) meta(l rolloutLine, raw []byte) error {
	var meta sessionMeta
	src := l.Payload
	if src == nil {
		src = raw
	}
	if err := json.Unmarshal(src, &meta); err != nil {
		return fmt.Errorf("session_meta: %w", err)
	}
	if meta.ID == "" {
		return nil
	}
	m.seen = true
	m.b.SessionID, m.cwd, m.version = meta.ID, activity.First(meta.Cwd, m.cwd), meta.CLIVersion
	if m.root == "" {
		m.root = meta.Cwd
	}
	if m.root != "" {
		m.b.Workspace = activity.BaseName(m.root)
	}
	return nil
}

func (m *Mapper) item(it item, key, at string) []vibe.Event {
	switch it.Type {
	case "message":
		return m.message(it, key, at)
	case "reasoning":
		var out []vibe.Event
		parts := it.Summary
		for i, p := range parts {
			if strings.TrimSpace(p.Text) != "" {
				out = append(out, m.b.Thinking(key+"/"+strconv.Itoa(i)+"/thinking", "response_item.reasoning", at, p.Text))
			}
		}
		return out
	case "function_call", "custom_tool_call", "local_shell_call":
		return m.callStart(it, at)
	case "function_call_output", "custom_tool_call_output":
		return m.callEnd(it, key, at)
	case "web_search_call":
		if it.Action == nil || it.Action.Query == "" {
			return nil
		}
		t := activity.Tool{Name: "web_search", Kind: activity.WebSearch, Query: it.Action.Query}
		return []vibe.Event{m.b.ToolEnd(key, "response_item.web_search_call", at, t, activity.Outcome{Matches: -1}, "")}
	}
	return nil
}

// Instruction and context blocks Codex sends as user messages; the streamer did not type them.
var injected = []string{"<environment_context>", "<user_instructions>", "<INSTRUCTIONS>", "# AGENTS.md instructions",
	"<permissions instructions>", "<turn_aborted>", "<skill>", "<user_shell_command>", "<collaboration_mode>"}

func (m *Mapper) message(it item, key, at string) []vibe.Event {
	var out []vibe.Event
	for i, text := range texts(it.Content) {
		k := key + "/" + strconv.Itoa(i) + "/text"
		switch it.Role {
		case "user":
			if t := strings.TrimSpace(text); t != "" && !hasAnyPrefix(t, injected) {
				out = append(out, m.b.Prompt(k, "response_item.message.user", at, text))
			}
		case "assistant":
			if strings.TrimSpace(text) != "" {
				out = append(out, m.b.Response(k, "response_item.message.assistant", at, text))
			}
		}
	}
	return out
}

func (m *Mapper) callStart(it item, at string) []vibe.Event {
	id := it.CallID
	if id == "" {
		return nil
	}
	c := call{key: "call/" + id, order: m.order, at: at, cwd: m.cwd}
	if n := m.uses[id]; n > 0 {
		c.key += "#" + strconv.Itoa(n+1)
	}
	m.uses[id]++
	m.order++
	args := it.Input
	switch it.Type {
	case "local_shell_call":
		if it.Action == nil {
			return nil
		}
		cmd := argvLine(it.Action.Command)
		c.cwd = activity.First(it.Action.WorkingDirectory, c.cwd)
		c.tool = m.shellTool("shell", cmd)
		c.patch = m.patchOf(cmd)
		b, _ := json.Marshal(it.Action)
		args = string(b)
	default:
		var a callArgs
		if it.Type == "function_call" {
			args = argString(it.Arguments)
			_ = json.Unmarshal([]byte(args), &a)
		}
		c.cwd = activity.First(a.Workdir, c.cwd)
		c.tool, c.patch = m.describe(it.Name, it.Input, a, c.cwd)
		for _, step := range a.Plan {
			c.planTotal++
			if step.Status == "completed" {
				c.planDone++
			}
		}
	}
	m.calls[id] = c
	rawType := "response_item." + it.Type
	return []vibe.Event{m.b.ToolStart(c.key, rawType, at, c.tool, activity.CompactJSON([]byte(args)))}
}

// describe says what a function or custom tool call is.
func (m *Mapper) describe(name, input string, a callArgs, cwd string) (activity.Tool, []applypatch.File) {
	switch name {
	case "shell", "shell_command", "exec_command", "container.exec", "local_shell":
		cmd := a.command()
		return m.shellTool(name, cmd), m.patchOf(cmd)
	case "apply_patch":
		text, _ := applypatch.Find(activity.First(input, a.Input, a.Patch))
		p := applypatch.Parse(text)
		return m.editTool(name, p, cwd), p
	case "update_plan":
		return activity.Tool{Name: name, Kind: activity.Plan}, nil
	case "view_image", "read_file":
		return activity.Tool{Name: name, Kind: activity.Read, Path: activity.Relative(m.root, cwd, a.Path)}, nil
	case "list_dir":
		return activity.Tool{Name: name, Kind: activity.List, Path: activity.Relative(m.root, cwd, a.Path)}, nil
	case "grep_files":
		return activity.Tool{Name: name, Kind: activity.Search, Pattern: a.Pattern}, nil
	case "web_search":
		return activity.Tool{Name: name, Kind: activity.WebSearch, Query: a.Query}, nil
	}
	return activity.Tool{Name: name}, nil
}

func (m *Mapper) shellTool(name, cmd string) activity.Tool {
	if p := m.patchOf(cmd); p != nil {
		return m.editTool("apply_patch", p, m.cwd)
	}
	return activity.Tool{Name: name, Kind: activity.Shell, Command: cmd}
}

// patchOf is the patch a shell command applies (Codex before 0.30 ran apply_patch as a
// command), or nil.
func (m *Mapper) patchOf(cmd string) []applypatch.File {
	if !strings.Contains(cmd, "apply_patch") {
		return nil
	}
	if text, ok := applypatch.Find(cmd); ok {
		return applypatch.Parse(text)
	}
	return nil
}

func (m *Mapper) editTool(name string, p []applypatch.File, cwd string) activity.Tool {
	t := activity.Tool{Name: name, Kind: activity.Edit}
	switch len(p) {
	case 0:
	case 1:
		t.Path = activity.Relative(m.root, cwd, p[0].Target())
	default:
		t.Path = fmt.Sprintf("%d files", len(p))
	}
	return t
}

func (m *Mapper) callEnd(it item, key, at string) []vibe.Event {
	c, ok := m.calls[it.CallID]
	if !ok {
		return nil // no call was shown for it
	}
	delete(m.calls, it.CallID)
	out := parseOutput(it.Output)
	o := activity.Outcome{Failed: out.failed, ExitCode: out.exitCode, Output: out.text, Matches: -1}
	o.Done, o.Total = c.planDone, c.planTotal
	evs := []vibe.Event{m.b.ToolEnd(c.key, "response_item."+it.Type, at, c.tool, o, out.text)}
	if !out.failed {
		for i, fc := range applypatch.Changes(c.patch, m.root, c.cwd) {
			evs = append(evs, m.b.File(c.key+"/"+strconv.Itoa(i), "apply_patch", at, fc))
		}
	}
	return evs
}

// Close ends the calls still open: the rollout was read to its end or a newer session began.
func (m *Mapper) Close() []vibe.Event {
	ids := make([]string, 0, len(m.calls))
	for id := range m.calls {
		ids = append(ids, id)
	}
	sortBy(ids, func(id string) int { return m.calls[id].order })
	var out []vibe.Event
	for _, id := range ids {
		c := m.calls[id]
		out = append(out, m.b.ToolEnd(c.key, "unfinished", c.at, c.tool, activity.Outcome{Unfinished: true}, ""))
		delete(m.calls, id)
	}
	return out
}

var exitRE = regexp.MustCompile(`(?m)^(?:Exit code:|Process exited with code) (-?\d+)`)

// parseOutput reads a tool output: a JSON string holding {"output", "metadata":{"exit_code"}}
// (before 0.50), plain text opening with "Exit code: N" (later), or content parts.
func parseOutput(raw json.RawMessage) output {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var wrapped struct {
			Content string `json:"content"`
			Success *bool  `json:"success"`
		}
		if json.Unmarshal(raw, &wrapped) == nil && wrapped.Content != "" {
			return output{text: wrapped.Content, failed: wrapped.Success != nil && !*wrapped.Success}
		}
		return output{text: strings.Join(texts(raw), "\n")}
	}
	var inner struct {
		Output   *string `json:"output"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(strings.TrimSpace(s), "{") && json.Unmarshal([]byte(s), &inner) == nil && inner.Output != nil {
		o := output{text: *inner.Output}
		if e := inner.Metadata.ExitCode; e != nil && *e != 0 {
			o.exitCode, o.failed = *e, true
		}
		return o
	}
	o := output{text: s}
	if m := exitRE.FindStringSubmatch(s); m != nil {
		if n, _ := strconv.Atoi(m[1]); n != 0 {
			o.exitCode, o.failed = n, true
		}
	}
	if strings.HasPrefix(s, "apply_patch verification failed") || strings.HasPrefix(s, "Failed to apply patch") {
		o.failed = true
	}
	return o
}

// argString is a function call's arguments: a JSON string holding JSON (as the API sends
// them), or the JSON itself.
func argString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func sortBy(ids []string, key func(string) int) {
	sort.Slice(ids, func(i, j int) bool { return key(ids[i]) < key(ids[j]) })
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
