package serve

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

func write(path, content string) call {
	return call{Name: "write", Args: map[string]any{"file_path": path, "content": content}}
}

func bash(command string) call { return call{Name: "bash", Args: map[string]any{"command": command}} }

// lastTool is the session's most recent tool call.
func lastTool(c *client, sessionID string) *message.ToolPart {
	c.t.Helper()
	tps := c.toolParts(sessionID)
	require.NotEmpty(c.t, tps)
	return tps[len(tps)-1]
}

// TestRememberedApprovalNeverOverridesDeny: a write deny at the global, project or agent
// level still denies after the user approved another write with remember; the remembered
// approval answers the questions the rules leave open, and nothing else.
func TestRememberedApprovalNeverOverridesDeny(t *testing.T) {
	deny := []any{map[string]any{"tool": "write", "pattern": "secret/**", "action": "deny"}}
	levels := []struct {
		name            string
		global, project map[string]any
	}{
		{"global", map[string]any{"permission": deny}, nil},
		{"project", nil, map[string]any{"permission": deny}},
		{"agent", nil, map[string]any{"agent": map[string]any{"build": map[string]any{"permission": deny}}}},
	}
	for _, lv := range levels {
		t.Run(lv.name, func(t *testing.T) {
			p := newProvider(t)
			ov := startOpenvibe(t, config(p, lv.global))
			c := ov.client(t)
			dir := project(t, t.TempDir(), "app")
			if lv.project != nil {
				writeJSON(t, filepath.Join(dir, "openvibe.json"), lv.project)
			}
			s := c.createSession(dir)
			ev := c.events("/agent/session/" + s.ID + "/event")

			p.script(reply{Calls: []call{write("notes.txt", "n")}}, reply{Text: "noted"})
			c.prompt(s.ID, "take a note")
			req := ev.askOrIdle(s.ID)
			require.NotNil(t, req, "the first write asks")
			c.reply(req["id"].(string), "allow", true)
			ev.idle(s.ID)

			p.script(reply{Calls: []call{write("secret/key.txt", "k")}}, reply{Text: "tried"})
			c.prompt(s.ID, "store the key")
			require.Nil(t, ev.askOrIdle(s.ID), "a denied write is not asked")
			tp := lastTool(c, s.ID)
			require.Equal(t, message.ToolError, tp.State)
			require.Contains(t, tp.Error, "permission denied: write secret/key.txt")
			require.NoFileExists(t, filepath.Join(dir, "secret", "key.txt"))

			p.script(reply{Calls: []call{write("other.txt", "o")}}, reply{Text: "done"})
			c.prompt(s.ID, "another note")
			require.Nil(t, ev.askOrIdle(s.ID), "the remembered approval covers other writes")
			require.FileExists(t, filepath.Join(dir, "other.txt"))
		})
	}
}

// TestRememberedCommandIsThatCommand: approving `echo hello` with remember allows exactly
// that simple command again; a compound line that contains it asks for the rest, whatever
// joins them (;, &&, |, a newline, $(…), backticks), and the allow rule `go test*` covers
// only the go test part of a line.
func TestRememberedCommandIsThatCommand(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{"permission": []any{
		map[string]any{"tool": "bash", "pattern": "go test*", "action": "allow"}}}))
	c := ov.client(t)
	dir := project(t, t.TempDir(), "app")
	s := c.createSession(dir)
	ev := c.events("/agent/session/" + s.ID + "/event")

	p.script(reply{Calls: []call{bash("echo hello")}}, reply{Text: "ok"})
	c.prompt(s.ID, "greet")
	req := ev.askOrIdle(s.ID)
	require.NotNil(t, req)
	require.Equal(t, "command", req["kind"], "bash patterns are matched as commands")
	require.Equal(t, []any{"echo hello"}, req["commands"])
	c.reply(req["id"].(string), "allow", true)
	ev.idle(s.ID)
	require.Contains(t, lastTool(c, s.ID).Output, "hello")

	p.script(reply{Calls: []call{bash("echo hello")}}, reply{Text: "ok"})
	c.prompt(s.ID, "greet again")
	require.Nil(t, ev.askOrIdle(s.ID), "the same command runs without asking")

	for i, line := range []string{
		"echo hello; touch pwned0",
		"echo hello\ntouch pwned1",
		"echo hello && touch pwned2",
		"echo hello || touch pwned3",
		"echo hello | tee pwned4",
		"echo hello $(touch pwned5)",
		"echo hello `touch pwned6`",
		"echo hello > pwned7",
		"go test -run NothingAtAll ./none; touch pwned8",
	} {
		p.script(reply{Calls: []call{bash(line)}}, reply{Text: "ok"})
		c.prompt(s.ID, "try "+line)
		req := ev.askOrIdle(s.ID)
		require.NotNil(t, req, "%q must ask", line)
		cmds := req["commands"].([]any)
		require.NotContains(t, cmds, "echo hello", "%q: the remembered command is not asked again", line)
		require.NotContains(t, cmds, "go test -run NothingAtAll ./none", "%q: the allow rule covers go test", line)
		require.NotEmpty(t, cmds)
		c.reply(req["id"].(string), "deny", false)
		ev.idle(s.ID)
		require.Contains(t, lastTool(c, s.ID).Error, "permission denied")
		require.NoFileExists(t, filepath.Join(dir, "pwned"+string(rune('0'+i))))
	}

	// The user may remember a prefix of their choosing instead, never "everything".
	p.script(reply{Calls: []call{bash("ls -a")}}, reply{Text: "ok"})
	c.prompt(s.ID, "list")
	req = ev.askOrIdle(s.ID)
	require.NotNil(t, req)
	code, body := c.send(http.MethodPost, "/agent/permission/reply", map[string]any{"request_id": req["id"],
		"decision": "allow", "remember": true, "always": []string{"*"}})
	require.Equal(t, http.StatusBadRequest, code, string(body))
	c.call(http.MethodPost, "/agent/permission/reply", map[string]any{"request_id": req["id"],
		"decision": "allow", "remember": true, "always": []string{"ls *"}}, http.StatusOK, nil)
	ev.idle(s.ID)
	p.script(reply{Calls: []call{bash("ls -la /")}}, reply{Text: "ok"})
	c.prompt(s.ID, "list more")
	require.Nil(t, ev.askOrIdle(s.ID), "the chosen prefix covers ls -la /")
	p.script(reply{Calls: []call{bash("ls -la; touch pwned9")}}, reply{Text: "ok"})
	c.prompt(s.ID, "list and touch")
	req = ev.askOrIdle(s.ID)
	require.NotNil(t, req)
	require.Equal(t, []any{"touch pwned9"}, req["commands"])
	c.reply(req["id"].(string), "deny", false)
	ev.idle(s.ID)
	require.NoFileExists(t, filepath.Join(dir, "pwned9"))

	// Quoting the program name does not get a command past a deny rule.
	p.script(reply{Calls: []call{bash(`'rm' -f important.txt`)}}, reply{Text: "ok"})
	writeFile(t, filepath.Join(dir, "important.txt"), "keep")
	writeJSON(t, filepath.Join(dir, "openvibe.json"), map[string]any{"permission": []any{
		map[string]any{"tool": "bash", "pattern": "rm *", "action": "deny"}}})
	c.prompt(s.ID, "remove")
	require.Nil(t, ev.askOrIdle(s.ID))
	require.Contains(t, lastTool(c, s.ID).Error, "permission denied: bash rm -f important.txt")
	require.FileExists(t, filepath.Join(dir, "important.txt"))
}

// TestReadOnlyAgentsGetOnlyReadOnlyMCPTools: plan, general and any subagent-mode agent are
// offered the MCP tools annotated readOnlyHint and nothing else (an unannotated tool counts
// as a writer); a call to a withheld tool fails and writes nothing, even with every tool
// allowed.
func TestReadOnlyAgentsGetOnlyReadOnlyMCPTools(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{
		"permission": allowAll,
		"mcp":        map[string]any{"fix": map[string]any{"type": "local", "command": []string{fixtureBin}}},
		"agent":      map[string]any{"scout": map[string]any{"mode": "subagent", "prompt": "You scout."}},
	}))
	c := ov.client(t)
	dir := project(t, t.TempDir(), "app")
	readOnly := []string{"fix_argv", "fix_peek", "fix_whereami"}
	writers := []string{"fix_count_lines", "fix_write_note"}

	build := c.createSession(dir)
	p.script(reply{Text: "hi"})
	require.Empty(t, c.turn(build.ID, "hello"))
	offered := p.requests()[len(p.requests())-1].ToolNames()
	for _, name := range append(readOnly, writers...) {
		require.Contains(t, offered, name, "build gets every MCP tool")
	}

	plan := c.createSession(dir, "plan")
	p.script(
		reply{Calls: []call{{Name: "fix_write_note", Args: map[string]any{"name": "plan.txt", "text": "x"}}}},
		reply{Calls: []call{{Name: "task", Args: map[string]any{"description": "look", "prompt": "look around"}}}},
		reply{Text: "general looked"}, // the general subagent
		reply{Calls: []call{{Name: "task", Args: map[string]any{"description": "scout", "prompt": "scout", "subagent_type": "scout"}}}},
		reply{Text: "scout looked"}, // the scout subagent
		reply{Text: "planned"},
	)
	require.Empty(t, c.turn(plan.ID, "plan it"))
	reqs := p.requests()
	for i, who := range map[int]string{len(reqs) - 6: "plan", len(reqs) - 4: "general", len(reqs) - 2: "scout"} {
		offered := reqs[i].ToolNames()
		for _, name := range readOnly {
			require.Contains(t, offered, name, "%s gets read-only MCP tools", who)
		}
		for _, name := range append(writers, "bash", "write", "edit") {
			require.NotContains(t, offered, name, "%s must not get %s", who, name)
		}
	}
	tps := c.toolParts(plan.ID)
	require.Equal(t, "fix_write_note", tps[0].Tool)
	require.Equal(t, message.ToolError, tps[0].State)
	require.Contains(t, tps[0].Error, "unknown tool")
	require.NoFileExists(t, filepath.Join(dir, "plan.txt"))
	require.NoFileExists(t, "plan.txt") // where the server was started
}

// TestToolSchemaDescriptionsAreWhole: parameter descriptions with commas reach the model
// (and GET /tool) whole.
func TestToolSchemaDescriptionsAreWhole(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, nil))
	c := ov.client(t)
	var tools []struct {
		Name   string `json:"name"`
		Schema struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		} `json:"schema"`
	}
	c.call(http.MethodGet, "/agent/tool", nil, http.StatusOK, &tools)
	desc := map[string]string{}
	for _, tl := range tools {
		for name, prop := range tl.Schema.Properties {
			desc[tl.Name+"."+name] = prop.Description
		}
	}
	require.Equal(t, "Timeout in milliseconds (default 120000, at most 600000)", desc["bash.timeout"])
	require.Equal(t, "Timeout in seconds (default 30, at most 120)", desc["web_fetch.timeout"])
	require.Equal(t, "Only files whose path matches this glob, e.g. **/*.go", desc["grep.include"])
}
