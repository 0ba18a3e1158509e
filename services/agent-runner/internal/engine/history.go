package engine

import (
	"encoding/json"
	"strings"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
)

// History converts stored messages into what the model is sent. When a message holds a
// CompactionPart, the history starts with its summary. Tool calls that never finished are
// reported to the model as failed, so every call has a result.
func History(msgs []*message.Message) []llm.Message {
	start := 0
	summary := ""
	for i, m := range msgs {
		for _, p := range m.Parts {
			if c, ok := p.(*message.CompactionPart); ok {
				start, summary = i+1, c.Summary
			}
		}
	}
	var out []llm.Message
	if summary != "" {
		out = append(out, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText,
			Text: "Summary of the conversation so far:\n" + summary}}})
	}
	for _, m := range msgs[start:] {
		switch m.Role {
		case message.RoleUser, message.RoleSystem:
			if t := m.Text(); t != "" {
				out = append(out, llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: t}}})
			}
		case message.RoleAssistant:
			out = append(out, assistantHistory(m)...)
		}
	}
	return out
}

func assistantHistory(m *message.Message) []llm.Message {
	var parts, results []llm.Part
	for _, p := range m.Parts {
		switch v := p.(type) {
		case *message.TextPart:
			if strings.TrimSpace(v.Text) != "" {
				parts = append(parts, llm.Part{Kind: llm.PartText, Text: v.Text})
			}
		case *message.ReasoningPart:
			if v.Text != "" {
				parts = append(parts, llm.Part{Kind: llm.PartReasoning, Text: v.Text})
			}
		case *message.ToolPart:
			input := v.Input
			if !json.Valid(input) || len(input) == 0 {
				input = json.RawMessage("{}")
			}
			parts = append(parts, llm.Part{Kind: llm.PartToolCall, CallID: v.CallID, Tool: v.Tool, Input: input})
			results = append(results, toolResult(v))
		}
	}
	var out []llm.Message
	if len(parts) > 0 {
		out = append(out, llm.Message{Role: llm.RoleAssistant, Parts: parts})
	}
	if len(results) > 0 {
		out = append(out, llm.Message{Role: llm.RoleTool, Parts: results})
	}
	return out
}

func toolResult(v *message.ToolPart) llm.Part {
	r := llm.Part{Kind: llm.PartToolResult, CallID: v.CallID, Tool: v.Tool}
	switch v.State {
	case message.ToolCompleted:
		r.Text = v.Output
	case message.ToolError:
		r.Text, r.IsError = "Error: "+v.Error, true
	default:
		r.Text, r.IsError = "Error: the tool call was interrupted before it finished", true
	}
	return r
}
