// Package message holds the conversation model: messages with a role and an ordered list of
// typed parts. Parts are stored as JSON documents with a "type" discriminator and read back
// as the typed values below.
package message

import (
	"encoding/json"
	"fmt"
	"time"
)

// Role is who wrote a message.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
)

// Usage is token accounting for one model call or a whole session.
type Usage struct {
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	ReasoningTokens  int64   `json:"reasoning_tokens,omitempty"`
	CacheReadTokens  int64   `json:"cache_read_tokens"`
	CacheWriteTokens int64   `json:"cache_write_tokens"`
	Cost             float64 `json:"cost"`
}

// Add accumulates o into u.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.ReasoningTokens += o.ReasoningTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
	u.Cost += o.Cost
}

// Message is one turn in a session.
type Message struct {
	ID        string     `json:"id"`
	SessionID string     `json:"session_id"`
	Role      Role       `json:"role"`
	Agent     string     `json:"agent,omitempty"`
	Model     string     `json:"model,omitempty"`
	Usage     Usage      `json:"usage"`
	Finish    string     `json:"finish,omitempty"` // stop, tool-calls, length, aborted, error
	Error     string     `json:"error,omitempty"`
	Created   time.Time  `json:"created"`
	Completed *time.Time `json:"completed,omitempty"`
	Parts     []Part     `json:"parts"`
}

// UnmarshalJSON decodes a message with its typed parts.
func (m *Message) UnmarshalJSON(b []byte) error {
	type plain Message
	var aux struct {
		plain
		Parts []json.RawMessage `json:"parts"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*m = Message(aux.plain)
	m.Parts = make([]Part, 0, len(aux.Parts))
	for _, raw := range aux.Parts {
		p, err := DecodePart(raw)
		if err != nil {
			return err
		}
		m.Parts = append(m.Parts, p)
	}
	return nil
}

// Text returns the concatenated text parts of the message.
func (m *Message) Text() string {
	var s string
	for _, p := range m.Parts {
		if t, ok := p.(*TextPart); ok {
			s += t.Text
		}
	}
	return s
}

// ToolParts returns the message's tool parts in order.
func (m *Message) ToolParts() []*ToolPart {
	var out []*ToolPart
	for _, p := range m.Parts {
		if t, ok := p.(*ToolPart); ok {
			out = append(out, t)
		}
	}
	return out
}

// Clone returns a deep copy of the message (parts included), safe to hand to another goroutine.
func (m *Message) Clone() *Message {
	b, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("message: clone: %v", err)) // parts are plain data; cannot fail
	}
	var c Message
	if err := json.Unmarshal(b, &c); err != nil {
		panic(fmt.Sprintf("message: clone: %v", err))
	}
	return &c
}
