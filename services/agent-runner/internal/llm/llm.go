// Package llm is the runner's view of a language model: one Stream call that takes messages
// and tool definitions and yields typed events. The session engine only ever sees these
// events; which provider or library is underneath is a backend's business.
package llm

import (
	"context"
	"encoding/json"
	"iter"
)

// Role of a message sent to the model.
type Role string

// Roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one provider-neutral message.
type Message struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts"`
}

// PartKind discriminates Part.
type PartKind string

// Part kinds.
const (
	PartText       PartKind = "text"
	PartReasoning  PartKind = "reasoning"
	PartToolCall   PartKind = "tool_call"
	PartToolResult PartKind = "tool_result"
)

// Part is text, reasoning, a tool call (assistant) or a tool result (tool).
type Part struct {
	Kind    PartKind        `json:"kind"`
	Text    string          `json:"text,omitempty"`
	CallID  string          `json:"call_id,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	IsError bool            `json:"is_error,omitempty"`
}

// ToolDef is a tool offered to the model.
type ToolDef struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Schema      map[string]any `json:"schema"`
}

// Request is one model call.
type Request struct {
	// Model is the model ID within the backend's provider.
	Model       string
	System      string
	Messages    []Message
	Tools       []ToolDef
	MaxTokens   int64
	Temperature *float64
	// SessionID lets test backends tell sessions apart; providers ignore it.
	SessionID string
}

// EventType discriminates Event.
type EventType string

// Event types.
const (
	TextDelta        EventType = "text_delta"
	ReasoningDelta   EventType = "reasoning_delta"
	ToolCallComplete EventType = "tool_call"
	StreamDone       EventType = "done"
	Error            EventType = "error"
)

// Usage is token accounting of one call.
type Usage struct {
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
	ReasoningTokens  int64 `json:"reasoning_tokens"`
	CacheReadTokens  int64 `json:"cache_read_tokens"`
	CacheWriteTokens int64 `json:"cache_write_tokens"`
}

// ToolCall is a complete tool call from the model.
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Event is one item of a stream.
type Event struct {
	Type     EventType `json:"type"`
	Text     string    `json:"text,omitempty"`
	ToolCall *ToolCall `json:"tool_call,omitempty"`
	Usage    Usage     `json:"usage"`
	// Finish is why the model stopped: stop, tool-calls, length, …
	Finish string `json:"finish,omitempty"`
	Err    error  `json:"-"`
}

// Backend streams model responses. The sequence ends after StreamDone or Error; cancelling
// ctx ends it promptly.
type Backend interface {
	Stream(ctx context.Context, req Request) iter.Seq[Event]
}
