// Package gemini follows Gemini CLI chat recordings and maps them to canonical vibe-coding
// events.
//
// Gemini CLI records each session under ~/.gemini/tmp/<project>/chats/, where <project> is
// the SHA-256 of the project's path (before 0.20) or a short name recorded in
// ~/.gemini/projects.json and in the directory's .project_root file. A session is either one
// JSON document (session-*.json, rewritten whole on every change) or, in later versions, JSON
// lines (session-*.jsonl): a metadata line, then each message whole, written again whenever it
// changes (a tool call's result arrives), {"$set": {…}} metadata updates and
// {"$rewindTo": id} when the streamer rewinds. Either way the adapter reads the whole file
// again when it changes and publishes what is new, message id by message id.
package gemini

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// conversation is a session's state.
type conversation struct {
	SessionID   string    `json:"sessionId"`
	ProjectHash string    `json:"projectHash"`
	StartTime   string    `json:"startTime"`
	Kind        string    `json:"kind"`
	Messages    []message `json:"messages"`
}

type message struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"` // user, gemini, info, error, warning
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	Parts          json.RawMessage `json:"parts"`
	Thoughts       []thought       `json:"thoughts"`
	ToolCalls      []toolCall      `json:"toolCalls"`
	Model          string          `json:"model"`
}

type thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

type toolCall struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

// text is a message's text: content as a string or a list of {text} parts.
func (m message) text() string {
	for _, raw := range []json.RawMessage{m.DisplayContent, m.Content, m.Parts} {
		if t := partsText(raw); t != "" {
			return t
		}
	}
	return ""
}

func partsText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text    *string `json:"text"`
		Thought bool    `json:"thought"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Text != nil && !p.Thought {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

var errNotChat = errors.New("not a Gemini CLI chat recording")

// parse reads a session file in either format.
func parse(data []byte) (conversation, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return conversation{}, nil
	}
	var c conversation
	if json.Unmarshal(trimmed, &c) == nil && (c.SessionID != "" || c.Messages != nil) {
		return c, nil
	}
	return parseLines(trimmed)
}

// parseLines replays a JSON-lines recording.
func parseLines(data []byte) (conversation, error) {
	var c conversation
	index := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	recognized := false
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec struct {
			message
			SessionID   string          `json:"sessionId"`
			ProjectHash string          `json:"projectHash"`
			StartTime   string          `json:"startTime"`
			Kind        string          `json:"kind"`
			Set         json.RawMessage `json:"$set"`
			RewindTo    *string         `json:"$rewindTo"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			continue // a line being written; the next read has it whole
		}
		switch {
		case rec.RewindTo != nil:
			recognized = true
			if i, ok := index[*rec.RewindTo]; ok {
				for _, m := range c.Messages[i:] {
					delete(index, m.ID)
				}
				c.Messages = c.Messages[:i]
			} else {
				c.Messages, index = nil, map[string]int{}
			}
		case rec.ID != "":
			recognized = true
			if i, ok := index[rec.ID]; ok {
				c.Messages[i] = rec.message
			} else {
				index[rec.ID] = len(c.Messages)
				c.Messages = append(c.Messages, rec.message)
			}
		case rec.Set != nil:
			recognized = true
			var set conversation
			if json.Unmarshal(rec.Set, &set) == nil && set.SessionID != "" {
				c.SessionID = set.SessionID
			}
		case rec.SessionID != "":
			recognized = true
			c.SessionID, c.ProjectHash, c.StartTime, c.Kind = rec.SessionID, rec.ProjectHash, rec.StartTime, rec.Kind
		}
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("read chat recording: %w", err)
	}
	if !recognized {
		return c, errNotChat
	}
	return c, nil
}
