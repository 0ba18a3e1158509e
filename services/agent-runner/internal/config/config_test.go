package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/permission"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLayering(t *testing.T) {
	dir := t.TempDir()
	global := filepath.Join(dir, "global.json")
	require.NoError(t, os.WriteFile(global, []byte(`{
		// global defaults
		"model": "anthropic/claude-sonnet-4-5",
		"instructions": ["GLOBAL.md"],
		"permission": [{"tool": "bash", "action": "ask"}],
		"provider": {"anthropic": {"api_key": "${ANTHROPIC_KEY}", "models": {"claude-sonnet-4-5": {"cost": {"input": 3}}}}},
		"agent": {"build": {"max_steps": 10, "permission": [{"tool": "edit", "action": "ask"}]}},
	}`), 0o644))
	proj := filepath.Join(dir, "proj")
	require.NoError(t, os.MkdirAll(proj, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(proj, "openvibe.json"), []byte(`{
		"instructions": ["PROJECT.md"],
		"permission": [{"tool": "bash", "pattern": "go test*", "action": "allow"}],
		"provider": {"anthropic": {"models": {"claude-sonnet-4-5": {"cost": {"output": 15}}}}},
		"agent": {"build": {"permission": [{"tool": "edit", "pattern": "*.go", "action": "allow"}]}}
	}`), 0o644))
	l := Loader{Global: global, TrustProject: true, Getenv: env(map[string]string{"ANTHROPIC_KEY": "sk-1", "OPENVIBE_MODEL": "openai/gpt-4.1"})}
	c, err := l.Load(proj)
	require.NoError(t, err)
	require.Equal(t, "openai/gpt-4.1", c.Model, "the environment wins")
	require.Equal(t, []string{"GLOBAL.md", "PROJECT.md"}, c.Instructions, "lists concatenate")
	require.Equal(t, "sk-1", c.Provider["anthropic"].APIKey)
	cost := c.Provider["anthropic"].Models["claude-sonnet-4-5"].Cost
	require.Equal(t, 3.0, cost.Input, "objects merge recursively")
	require.Equal(t, 15.0, cost.Output)
	require.Equal(t, []permission.Rule{{Tool: "bash", Pattern: "go test*", Action: "allow"}, {Tool: "bash", Action: "ask"}},
		c.Permission, "project rules come before global ones")
	require.Equal(t, 10, *c.Agent["build"].MaxSteps)
	require.Equal(t, "*.go", c.Agent["build"].Permission[0].Pattern)
}

func TestErrorsNameFileLineAndKey(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, content, want string
		untrusted           bool
	}{
		{"syntax", "{\n  \"model\": \"a/b\",\n  \"agent\": {,\n}", "line 3", false},
		{"type", "{\n  \"model\": \"a/b\",\n  \"instructions\": \"not a list\"\n}", `line 3: key "instructions": expected []string, got string`, false},
		{"unknown key", "{\n  \"model\": \"a/b\",\n\n  \"modle\": \"x\"\n}", `line 4: unknown key "modle"`, false},
		{"missing env", `{"provider": {"openai": {"api_key": "${NOPE_KEY}"}}}`, `key "provider.openai.api_key": ${NOPE_KEY} is not set`, false},
		{"bad rule", `{"permission": [{"tool": "bash", "action": "sometimes"}]}`, `permission[0]: action "sometimes"`, false},
		{"bad model", `{"model": "gpt"}`, `want provider/model`, false},
		{"untrusted provider", `{"provider": {"x": {}}}`, `"provider" is not allowed`, true},
		{"untrusted env", `{"instructions": ["${HOME}"]}`, `not allowed in project configs`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name+".json")
			require.NoError(t, os.WriteFile(p, []byte(c.content), 0o644))
			_, err := Merge([]Layer{{Name: p, Data: []byte(c.content), Untrusted: c.untrusted}}, env(map[string]string{"HOME": "/root"}))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.Contains(t, err.Error(), p)
		})
	}
}

// TestListsThatAreValuesReplace: an MCP command (and its args) from a later layer replaces
// the earlier one; the lists that collect entries concatenate.
func TestListsThatAreValuesReplace(t *testing.T) {
	global := Layer{Name: "global.json", Data: []byte(`{
		"instructions": ["A.md"],
		"mcp": {"fs": {"type": "local", "command": ["node", "server.mjs"], "args": ["--verbose"]}},
		"agent": {"build": {"disabled_tools": ["web_fetch"], "permission": [{"tool": "bash", "action": "ask"}]}}
	}`)}
	proj := Layer{Name: "openvibe.json", Data: []byte(`{
		"instructions": ["B.md"],
		"mcp": {"fs": {"type": "local", "command": ["node", "server-v2.mjs"], "args": []}},
		"agent": {"build": {"disabled_tools": ["task"], "permission": [{"tool": "bash", "pattern": "ls*", "action": "allow"}]}}
	}`)}
	c, err := Merge([]Layer{global, proj}, env(nil))
	require.NoError(t, err)
	require.Equal(t, []string{"node", "server-v2.mjs"}, c.MCP["fs"].Command)
	require.Empty(t, c.MCP["fs"].Args)
	require.Equal(t, []string{"A.md", "B.md"}, c.Instructions)
	require.Equal(t, []string{"web_fetch", "task"}, c.Agent["build"].DisabledTools)
	require.Equal(t, "ls*", c.Agent["build"].Permission[0].Pattern, "the project's agent rules first")
	require.Len(t, c.Agent["build"].Permission, 2)
}
