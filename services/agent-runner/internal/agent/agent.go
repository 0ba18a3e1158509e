// Package agent defines agents: named configurations of model, system prompt, tools,
// permissions and step limit. Three are built in (build, plan, general); configuration may
// override them or add new ones.
package agent

import (
	"fmt"
	"slices"
	"sort"

	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

// Mode says how an agent is used.
type Mode string

// Modes.
const (
	// Primary agents drive a conversation with every tool they have.
	Primary Mode = "primary"
	// Subagent agents are delegated to; they are read-only and cannot delegate further.
	Subagent Mode = "subagent"
)

// Agent is one agent definition.
type Agent struct {
	Name          string   `json:"name"`
	Description   string   `json:"description"`
	Mode          Mode     `json:"mode"`
	Model         string   `json:"model,omitempty"` // provider/model; empty: the configured default
	Prompt        string   `json:"prompt,omitempty"`
	DisabledTools []string `json:"disabled_tools,omitempty"`
	// ReadOnly agents get only the tools that change nothing: the read tools, MCP tools
	// annotated readOnlyHint, and task (whose subagents are read-only themselves).
	ReadOnly    bool              `json:"read_only"`
	Permission  []permission.Rule `json:"permission,omitempty"`
	MaxSteps    int               `json:"max_steps"`
	Temperature *float64          `json:"temperature,omitempty"`
	BuiltIn     bool              `json:"built_in"`
}

// DefaultMaxSteps bounds a turn's model calls when an agent sets none.
const DefaultMaxSteps = 50

const basePrompt = `You are openvibe, a coding agent working in the user's project.
Use the tools to inspect and change files and to run commands. Read a file before editing it.
Keep answers short and concrete; say what you changed.`

var readOnlyTools = []string{"write", "edit", "bash"}

// Builtins returns fresh copies of the built-in agents.
func Builtins() map[string]Agent {
	return map[string]Agent{
		"build": {Name: "build", Description: "Default agent with full read, write and execute access.",
			Mode: Primary, Prompt: basePrompt, MaxSteps: DefaultMaxSteps, BuiltIn: true},
		"plan": {Name: "plan", Description: "Read-only analysis and planning; changes nothing.",
			Mode: Primary, Prompt: basePrompt + "\nYou are in plan mode: analyse and propose a plan; do not change files or run commands.",
			DisabledTools: slices.Clone(readOnlyTools), ReadOnly: true, MaxSteps: DefaultMaxSteps, BuiltIn: true},
		"general": {Name: "general", Description: "Subagent for research and delegated searches (read-only).",
			Mode: Subagent, Prompt: basePrompt + "\nYou are a subagent: research what you are asked and answer with a concise report.",
			DisabledTools: []string{"task"}, ReadOnly: true, MaxSteps: 25, BuiltIn: true},
	}
}

// Override is a configured agent: fields set override the built-in of the same name.
type Override struct {
	Description   *string  `json:"description,omitempty"`
	Mode          *Mode    `json:"mode,omitempty"`
	Model         *string  `json:"model,omitempty"`
	Prompt        *string  `json:"prompt,omitempty"`
	DisabledTools []string `json:"disabled_tools,omitempty"`
	// ReadOnly makes a primary agent read-only (subagents always are).
	ReadOnly    *bool             `json:"read_only,omitempty"`
	Permission  []permission.Rule `json:"permission,omitempty"`
	MaxSteps    *int              `json:"max_steps,omitempty"`
	Temperature *float64          `json:"temperature,omitempty"`
	Disable     bool              `json:"disable,omitempty"`
}

// Resolve merges configured overrides into the built-ins.
func Resolve(overrides map[string]Override) (map[string]Agent, error) {
	agents := Builtins()
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		o := overrides[name]
		if o.Disable {
			delete(agents, name)
			continue
		}
		a, ok := agents[name]
		if !ok {
			a = Agent{Name: name, Mode: Primary, MaxSteps: DefaultMaxSteps, Prompt: basePrompt}
		}
		if err := apply(&a, o); err != nil {
			return nil, fmt.Errorf("agent %q: %w", name, err)
		}
		agents[name] = a
	}
	return agents, nil
}

func apply(a *Agent, o Override) error {
	if o.Description != nil {
		a.Description = *o.Description
	}
	if o.Mode != nil {
		if *o.Mode != Primary && *o.Mode != Subagent {
			return fmt.Errorf("mode %q: want primary or subagent", *o.Mode)
		}
		a.Mode = *o.Mode
	}
	if o.Model != nil {
		a.Model = *o.Model
	}
	if o.Prompt != nil {
		a.Prompt = *o.Prompt
	}
	if o.DisabledTools != nil {
		a.DisabledTools = append(a.DisabledTools, o.DisabledTools...)
	}
	if o.ReadOnly != nil {
		a.ReadOnly = *o.ReadOnly
	}
	if a.Mode == Subagent {
		a.ReadOnly = true
	}
	if o.MaxSteps != nil {
		if *o.MaxSteps < 1 {
			return fmt.Errorf("max_steps must be at least 1")
		}
		a.MaxSteps = *o.MaxSteps
	}
	if o.Temperature != nil {
		a.Temperature = o.Temperature
	}
	for i, r := range o.Permission {
		if err := r.Validate(); err != nil {
			return fmt.Errorf("permission[%d]: %w", i, err)
		}
	}
	// The configured agent's rules come before the built-in's: first match wins.
	a.Permission = append(slices.Clone(o.Permission), a.Permission...)
	return nil
}

// Tools returns what the agent may use of the available tools: without its disabled ones;
// for a read-only agent only read tools (task included: its subagents are read-only), and a
// subagent never gets task (no delegation from a delegate).
func (a Agent) Tools(all []tool.Tool) []tool.Tool {
	var out []tool.Tool
	for _, t := range all {
		switch {
		case slices.Contains(a.DisabledTools, t.Name()):
		case a.Mode == Subagent && t.Kind() == tool.KindDelegate:
		case a.ReadOnly && t.Kind() != tool.KindRead && t.Kind() != tool.KindDelegate:
		default:
			out = append(out, t)
		}
	}
	return out
}
