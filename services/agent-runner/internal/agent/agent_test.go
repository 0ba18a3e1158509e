package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/tool"
)

type fakeTool struct {
	name string
	kind tool.Kind
}

func (f fakeTool) Name() string                                        { return f.name }
func (f fakeTool) Description() string                                 { return f.name }
func (f fakeTool) Kind() tool.Kind                                     { return f.kind }
func (f fakeTool) Schema() map[string]any                              { return map[string]any{} }
func (f fakeTool) Permission(*tool.Context, json.RawMessage) tool.Perm { return tool.Perm{} }
func (f fakeTool) Run(context.Context, *tool.Context, json.RawMessage) (tool.Result, error) {
	return tool.Result{}, nil
}

// TestReadOnlyAgentsTools: plan, general and every subagent-mode agent get read tools
// (MCP tools annotated read-only among them) and never a writer; subagents cannot delegate.
func TestReadOnlyAgentsTools(t *testing.T) {
	t.Parallel()
	all := []tool.Tool{fakeTool{"read", tool.KindRead}, fakeTool{"write", tool.KindWrite}, fakeTool{"bash", tool.KindExecute},
		fakeTool{"task", tool.KindDelegate}, fakeTool{"mcp_peek", tool.KindRead}, fakeTool{"mcp_write", tool.KindExecute}}
	yes := true
	agents, err := Resolve(map[string]Override{
		"scout":    {Mode: ptr(Subagent)},
		"reviewer": {ReadOnly: &yes},
		"plan2":    {Mode: ptr(Subagent), ReadOnly: ptr(false)}, // a subagent is read-only whatever it says
	})
	require.NoError(t, err)
	names := func(a Agent) []string {
		var out []string
		for _, tl := range a.Tools(all) {
			out = append(out, tl.Name())
		}
		return out
	}
	require.Equal(t, []string{"read", "write", "bash", "task", "mcp_peek", "mcp_write"}, names(agents["build"]))
	require.Equal(t, []string{"read", "task", "mcp_peek"}, names(agents["plan"]))
	require.Equal(t, []string{"read", "task", "mcp_peek"}, names(agents["reviewer"]))
	for _, sub := range []string{"general", "scout", "plan2"} {
		require.Equal(t, []string{"read", "mcp_peek"}, names(agents[sub]), sub)
	}
}

func ptr[T any](v T) *T { return &v }
