// Package claudecode follows Claude Code session transcripts and maps them to canonical
// vibe-coding events.
//
// Claude Code appends one JSON object per line to
// ~/.claude/projects/<escaped project path>/<session id>.jsonl. Lines of type "user" and
// "assistant" carry a message whose content is a string or a list of blocks (text, thinking,
// tool_use, tool_result); other line types (summary, system, file-history-snapshot, …) carry
// nothing a viewer needs and are skipped.
package claudecode

import "encoding/json"

// line is one transcript line (only the fields used here).
type line struct {
	Type          string          `json:"type"`
	UUID          string          `json:"uuid"`
	SessionID     string          `json:"sessionId"`
	Cwd           string          `json:"cwd"`
	Timestamp     string          `json:"timestamp"`
	IsSidechain   bool            `json:"isSidechain"`
	IsMeta        bool            `json:"isMeta"`
	RequestID     string          `json:"requestId"`
	Message       *message        `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
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

// Tool inputs of the file-editing tools.
type editInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	OldString    string `json:"old_string"`
	NewString    string `json:"new_string"`
	Content      string `json:"content"`
	NewSource    string `json:"new_source"`
	EditMode     string `json:"edit_mode"`
	Edits        []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// writeResult is the part of a Write tool's toolUseResult that tells create from update.
type writeResult struct {
	Type         string  `json:"type"`
	OriginalFile *string `json:"originalFile"`
}
