package message

import (
	"encoding/json"
	"fmt"
	"time"
)

// PartType discriminates the stored JSON of a part.
type PartType string

// Part types.
const (
	TypeText       PartType = "text"
	TypeReasoning  PartType = "reasoning"
	TypeTool       PartType = "tool"
	TypeStepStart  PartType = "step-start"
	TypeCompaction PartType = "compaction"
)

// Part is one typed element of a message.
type Part interface {
	// Meta returns the identity shared by every part type.
	Meta() *PartMeta
}

// PartMeta identifies a part and places it in its message.
type PartMeta struct {
	ID        string   `json:"id"`
	MessageID string   `json:"message_id"`
	SessionID string   `json:"session_id"`
	Type      PartType `json:"type"`
}

// Meta implements Part.
func (m *PartMeta) Meta() *PartMeta { return m }

// Span is the time a part was being produced.
type Span struct {
	Start time.Time  `json:"start"`
	End   *time.Time `json:"end,omitempty"`
}

// TextPart is prose the model (or the user) wrote.
type TextPart struct {
	PartMeta
	Text string `json:"text"`
	Time Span   `json:"time"`
}

// ReasoningPart is the model's thinking.
type ReasoningPart struct {
	PartMeta
	Text string `json:"text"`
	Time Span   `json:"time"`
}

// StepStartPart marks the beginning of one agent iteration (one model call).
type StepStartPart struct {
	PartMeta
	Step int `json:"step"`
}

// CompactionPart is a summary that replaced older messages.
type CompactionPart struct {
	PartMeta
	Summary string `json:"summary"`
	// Through is the ID of the last message the summary replaces.
	Through string `json:"through,omitempty"`
}

// ToolState is where a tool call is in its lifecycle: pending → running → completed | error.
type ToolState string

// Tool states.
const (
	ToolPending   ToolState = "pending"
	ToolRunning   ToolState = "running"
	ToolCompleted ToolState = "completed"
	ToolError     ToolState = "error"
)

// Done reports whether the state is final.
func (s ToolState) Done() bool { return s == ToolCompleted || s == ToolError }

// ToolPart tracks one tool call from invocation to result.
type ToolPart struct {
	PartMeta
	CallID   string          `json:"call_id"`
	Tool     string          `json:"tool"`
	State    ToolState       `json:"state"`
	Input    json.RawMessage `json:"input"`
	Title    string          `json:"title,omitempty"`
	Output   string          `json:"output,omitempty"`
	Error    string          `json:"error,omitempty"`
	Metadata map[string]any  `json:"metadata,omitempty"`
	Time     Span            `json:"time"`
}

// DecodePart reads a stored part back into its typed value.
func DecodePart(raw []byte) (Part, error) {
	var head struct {
		Type PartType `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("decode part: %w", err)
	}
	var p Part
	switch head.Type {
	case TypeText:
		p = &TextPart{}
	case TypeReasoning:
		p = &ReasoningPart{}
	case TypeTool:
		p = &ToolPart{}
	case TypeStepStart:
		p = &StepStartPart{}
	case TypeCompaction:
		p = &CompactionPart{}
	default:
		return nil, fmt.Errorf("decode part: unknown type %q", head.Type)
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, fmt.Errorf("decode %s part: %w", head.Type, err)
	}
	return p, nil
}
