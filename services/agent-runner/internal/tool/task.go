package tool

import (
	"context"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

// TaskParams are the task tool's parameters.
type TaskParams struct {
	Description  string `json:"description" jsonschema_description:"Three to five words describing the task"`
	Prompt       string `json:"prompt" jsonschema_description:"The full instructions for the subagent"`
	SubagentType string `json:"subagent_type,omitempty" jsonschema_description:"Which subagent to use (default general)"`
}

// Task returns the task tool: delegate work to a subagent in a child session.
func Task() Tool {
	return New(Def[TaskParams]{
		Name: "task",
		Description: "Delegate a self-contained research task to a subagent that runs in its own child session " +
			"with read-only tools, and get its final answer back.",
		Kind: KindDelegate,
		Perm: func(tc *Context, p TaskParams) Perm {
			a := p.SubagentType
			if a == "" {
				a = "general"
			}
			return Perm{Pattern: a, Kind: permission.KindText, Always: a, Title: "Delegate to " + a + ": " + p.Description}
		},
		Run: func(ctx context.Context, tc *Context, p TaskParams) (Result, error) {
			if tc.Task == nil {
				return Result{}, Errorf("task delegation is not available here")
			}
			a := p.SubagentType
			if a == "" {
				a = "general"
			}
			out, err := tc.Task(ctx, a, p.Description, p.Prompt)
			if err != nil {
				return Result{}, err
			}
			return Result{Title: p.Description, Output: out}, nil
		},
	})
}
