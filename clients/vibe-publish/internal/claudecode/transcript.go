// Package claudecode follows Claude Code session transcripts and maps them to canonical
// vibe-coding events.
//
// Claude Code appends one JSON object per line to
// ~/.claude/projects/<escaped project path>/<session id>.jsonl. Lines of type "user" and
// "assistant" carry a message whose content is a string or a list of blocks (text, thinking,
// tool_use, tool_result, image); a "system" line with subtype "compact_boundary" marks a
// compaction; other line types (summary, file-history-snapshot, progress, queue-operation, …)
// carry nothing a viewer needs. Sub-agents write their own transcripts: inside the session's
// file with isSidechain set (1.x), as agent-<id>.jsonl beside it (2.0) or as
// <session id>/subagents/agent-<id>.jsonl (2.1).
package claudecode

import "encoding/json"

// line is one transcript line (only the fields used here).
type line struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	LeafUUID         string          `json:"leafUuid"`
	SessionID        string          `json:"sessionId"`
	AgentID          string          `json:"agentId"`
	Cwd              string          `json:"cwd"`
	Timestamp        string          `json:"timestamp"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	TranscriptOnly   bool            `json:"isVisibleInTranscriptOnly"`
	RequestID        string          `json:"requestId"`
	Message          *message        `json:"message"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"`
	CompactMetadata  *struct {
		Trigger string `json:"trigger"`
	} `json:"compactMetadata"`
}

// transcriptLike reports whether a decoded line has the shape of a transcript line.
func (l *line) transcriptLike() bool {
	return l.Type != "" && (l.SessionID != "" || l.UUID != "" || l.LeafUUID != "")
}

type message struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

// block is one content block.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blocks decodes message content: a plain string is one text block.
func (m *message) blocks() []block {
	if m == nil || len(m.Content) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var bs []block
	if json.Unmarshal(m.Content, &bs) != nil {
		return nil
	}
	return bs
}

// resultText flattens a tool_result's content (a string or a list of text blocks).
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	out := ""
	for _, b := range bs {
		if b.Type == "text" && b.Text != "" {
			if out != "" {
				out += "\n"
			}
			out += b.Text
		}
	}
	return out
}

// toolInput holds the input fields of the tools the adapter describes.
type toolInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	OldString    string `json:"old_string"`
	NewString    string `json:"new_string"`
	Content      string `json:"content"`
	NewSource    string `json:"new_source"`
	EditMode     string `json:"edit_mode"`
	Edits        []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
	Command     string `json:"command"`
	Description string `json:"description"`
	Pattern     string `json:"pattern"`
	Query       string `json:"query"`
	URL         string `json:"url"`
	Todos       []todo `json:"todos"`
}

type todo struct {
	Status string `json:"status"`
}

// toolResult holds the parts of a toolUseResult the adapter reads. Its shape depends on the
// tool; a failed call stores a plain string.
type toolResult struct {
	Type            string  `json:"type"` // Write: "create" or "update"
	OriginalFile    *string `json:"originalFile"`
	Stdout          string  `json:"stdout"`
	Stderr          string  `json:"stderr"`
	NumFiles        *int    `json:"numFiles"`
	Filenames       []any   `json:"filenames"`
	NewTodos        []todo  `json:"newTodos"`
	StructuredPatch []struct {
		Lines []string `json:"lines"`
	} `json:"structuredPatch"`
}
