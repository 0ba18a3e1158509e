package llm

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// ScriptStep is the JSON form of a Step, for scripted demos:
//
//	[{"events": [{"type": "text_delta", "text": "Hello"}], "delay_ms": 20},
//	 {"events": [{"type": "tool_call", "tool_call": {"id": "c1", "name": "read", "input": {"file_path": "go.mod"}}}]}]
type ScriptStep struct {
	Events  []Event `json:"events"`
	DelayMS int     `json:"delay_ms,omitempty"`
	Hang    bool    `json:"hang,omitempty"`
}

// LoadScript reads a JSON file of ScriptSteps.
func LoadScript(path string) ([]Step, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	return ParseScript(b)
}

// ParseScript decodes ScriptSteps.
func ParseScript(b []byte) ([]Step, error) {
	var raw []ScriptStep
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("decode script: %w", err)
	}
	steps := make([]Step, 0, len(raw))
	for i, r := range raw {
		for j, ev := range r.Events {
			switch ev.Type {
			case TextDelta, ReasoningDelta, StreamDone:
			case ToolCallComplete:
				if ev.ToolCall == nil || ev.ToolCall.Name == "" {
					return nil, fmt.Errorf("script step %d event %d: tool_call needs a name", i, j)
				}
			default:
				return nil, fmt.Errorf("script step %d event %d: unknown type %q", i, j, ev.Type)
			}
		}
		steps = append(steps, Step{Events: r.Events, Delay: time.Duration(r.DelayMS) * time.Millisecond, Hang: r.Hang})
	}
	return steps, nil
}
