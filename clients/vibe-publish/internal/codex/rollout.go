// Package codex follows OpenAI Codex CLI session rollouts and maps them to canonical
// vibe-coding events.
//
// Codex appends one JSON object per line to $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl
// (CODEX_HOME defaults to ~/.codex): {"timestamp", "type", "payload"} with type session_meta
// (id, cwd, cli_version), turn_context (cwd, model), response_item (the conversation:
// messages, reasoning, function and custom tool calls and their outputs, local shell calls,
// web searches), compacted, and event_msg (copies of the same activity for the terminal UI,
// which are not published twice). Rollouts of versions before 0.20 hold the response items
// bare, after a first line with the session's id.
package codex

import (
	"encoding/json"
	"strings"
)

// rolloutLine is one line of a rollout.
type rolloutLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type sessionMeta struct {
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	Timestamp  string `json:"timestamp"`
}

type turnContext struct {
	Cwd   string `json:"cwd"`
	Model string `json:"model"`
}

// item is a response_item payload (the fields of every kind used here).
type item struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   []textPart      `json:"summary"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Status    string          `json:"status"`
	Action    *struct {
		Type             string   `json:"type"`
		Command          []string `json:"command"`
		WorkingDirectory string   `json:"working_directory"`
		Query            string   `json:"query"`
		URL              string   `json:"url"`
	} `json:"action"`
	Message string `json:"message"` // compacted
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// texts flattens message or reasoning content: a list of {type, text} parts or a string.
func texts(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var parts []textPart
	if json.Unmarshal(raw, &parts) != nil {
		var one textPart
		if json.Unmarshal(raw, &one) != nil || one.Text == "" {
			return nil
		}
		parts = []textPart{one}
	}
	var out []string
	for _, p := range parts {
		if p.Text != "" && (p.Type == "" || strings.HasSuffix(p.Type, "text")) {
			out = append(out, p.Text)
		}
	}
	return out
}

// callArgs are the arguments of the function calls the adapter describes.
type callArgs struct {
	Command json.RawMessage `json:"command"` // shell: ["bash","-lc","…"]; shell_command: "…"
	Cmd     string          `json:"cmd"`     // exec_command
	Workdir string          `json:"workdir"`
	Input   string          `json:"input"` // apply_patch as a function
	Patch   string          `json:"patch"`
	Path    string          `json:"path"`
	Query   string          `json:"query"`
	Pattern string          `json:"pattern"`
	Plan    []struct {
		Status string `json:"status"`
	} `json:"plan"`
}

// command is the command line of a shell call's arguments.
func (a callArgs) command() string {
	if a.Cmd != "" {
		return a.Cmd
	}
	var s string
	if json.Unmarshal(a.Command, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(a.Command, &argv) == nil {
		return argvLine(argv)
	}
	return ""
}

// argvLine is the command an argv runs: the script of sh -c, else the words joined.
func argvLine(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") && strings.HasSuffix(argv[0], "sh") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// output is what a function_call_output or custom_tool_call_output says.
type output struct {
	text     string
	exitCode int
	failed   bool
}
