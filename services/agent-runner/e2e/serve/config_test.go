package serve

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// mcpCall is a call of the fixture server's tool through its namespaced name.
func mcpCall(server, tool string) call {
	return call{Name: server + "_" + tool, Args: map[string]any{}}
}

// TestProjectMCPReplacesAndAdds: a trusted project openvibe.json configures MCP servers: its
// entry for a server the global file also names replaces the command (lists of values are
// replaced, not concatenated), a server of its own is offered in that project only, and a
// local server runs in the session's directory.
func TestProjectMCPReplacesAndAdds(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{
		"permission":   allowAll,
		"instructions": []string{"GLOBAL.md"},
		"mcp":          map[string]any{"fix": map[string]any{"type": "local", "command": []string{fixtureBin, "global-arg"}}},
	}))
	c := ov.client(t)
	root := t.TempDir()
	app := project(t, root, "app")
	other := project(t, root, "other")
	writeFile(t, filepath.Join(app, "GLOBAL.md"), "global instructions")
	writeFile(t, filepath.Join(app, "PROJECT.md"), "project instructions")
	writeJSON(t, filepath.Join(app, "openvibe.json"), map[string]any{
		"instructions": []string{"PROJECT.md"},
		"mcp": map[string]any{
			"fix":  map[string]any{"type": "local", "command": []string{fixtureBin, "project-arg"}},
			"mine": map[string]any{"type": "local", "command": []string{fixtureBin, "mine"}},
		},
	})

	s := c.createSession(app)
	p.script(reply{Calls: []call{mcpCall("fix", "argv"), mcpCall("mine", "argv"), mcpCall("fix", "whereami")}}, reply{Text: "ok"})
	require.Empty(t, c.turn(s.ID, "where are you?"))
	tps := c.toolParts(s.ID)
	require.Len(t, tps, 3)
	for _, tp := range tps {
		require.Equal(t, message.ToolCompleted, tp.State, "%s: %s", tp.Tool, tp.Error)
	}
	require.Equal(t, "project-arg", tps[0].Output, "the project's command replaces the global one")
	require.Equal(t, "mine", tps[1].Output)
	require.Equal(t, app, tps[2].Output, "a local server runs in the session's directory")
	first := p.requests()[0]
	require.Contains(t, first.Messages[0].text(), "global instructions", "instructions still concatenate")
	require.Contains(t, first.Messages[0].text(), "project instructions")

	so := c.createSession(other)
	p.script(reply{Calls: []call{mcpCall("fix", "argv"), mcpCall("fix", "whereami")}}, reply{Text: "ok"})
	require.Empty(t, c.turn(so.ID, "and here?"))
	offered := p.requests()[len(p.requests())-2].ToolNames()
	require.NotContains(t, offered, "mine_argv", "a project's own server stays in its project")
	tps = c.toolParts(so.ID)
	require.Equal(t, "global-arg", tps[0].Output)
	require.Equal(t, other, tps[1].Output)
}

// TestBadProjectConfigIsAClientError: creating a session in a project whose openvibe.json
// is wrong answers 400 with what is wrong, as GET /config does, instead of a bare 500.
func TestBadProjectConfigIsAClientError(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, nil))
	c := ov.client(t)
	root := t.TempDir()
	typo := project(t, root, "typo")
	writeFile(t, filepath.Join(typo, "openvibe.json"), "{\n  \"modle\": \"fake/m\"\n}\n")
	unset := project(t, root, "unset")
	writeFile(t, filepath.Join(unset, "openvibe.json"), `{"provider": {"x": {"type": "openai-compatible", "base_url": "http://127.0.0.1:1", "api_key": "${NOPE_NOT_SET}"}}}`)
	for dir, want := range map[string]string{typo: `line 2: unknown key "modle"`, unset: "${NOPE_NOT_SET} is not set"} {
		code, body := c.send(http.MethodPost, "/agent/session", map[string]any{"directory": dir})
		require.Equal(t, http.StatusBadRequest, code, string(body))
		require.Contains(t, apiError(t, body), want)
		code, body = c.send(http.MethodGet, "/agent/config?directory="+dir, nil)
		require.Equal(t, http.StatusBadRequest, code)
		require.Contains(t, apiError(t, body), want)
	}
}

// TestEventsNameTheirSession: the first frame of a per-session stream names the session,
// and a permission request has no unexplained numeric fields.
func TestEventsNameTheirSession(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, nil))
	c := ov.client(t)
	s := c.createSession(project(t, t.TempDir(), "app"))
	ev := c.events("/agent/session/" + s.ID + "/event")
	first := ev.next(func(sseEvent) bool { return true })
	require.Equal(t, "server.connected", first.Type)
	require.Equal(t, s.ID, first.SessionID)

	p.script(reply{Calls: []call{bash("true")}}, reply{Text: "ok"})
	c.prompt(s.ID, "run")
	req := ev.asked()
	for k, v := range req {
		_, isNumber := v.(float64)
		require.False(t, isNumber, "permission.asked %s is a bare number", k)
	}
	require.True(t, strings.HasPrefix(req["id"].(string), "per_"))
	c.reply(req["id"].(string), "deny", false)
	ev.idle(s.ID)
}
