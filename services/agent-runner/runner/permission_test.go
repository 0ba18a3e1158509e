package runner

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
)

// bashSteps answers every odd request with a bash call running cmd and every even one with text.
func bashEvery(cmds ...string) *llm.Scripted {
	var steps []llm.Step
	for i, c := range cmds {
		steps = append(steps,
			llm.Step{Events: []llm.Event{llm.Call("b"+string(rune('a'+i)), "bash", map[string]any{"command": c})}},
			llm.Step{Events: []llm.Event{llm.Text("ran " + c)}})
	}
	return llm.NewScripted(llm.Queue(steps...))
}

// TestDenyTellsTheModel: a denied call fails with a message the model receives.
func TestDenyTellsTheModel(t *testing.T) {
	backend := bashEvery("touch should-not-exist")
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "make a file")
	req := ev.asked()
	require.Equal(t, http.StatusOK, h.reply("alice", req["id"].(string), "deny", false))
	ev.idle(s.ID)
	_, err := os.Stat(filepath.Join(h.userDir(10), "should-not-exist"))
	require.True(t, os.IsNotExist(err))
	reqs := backend.Requests()
	require.Len(t, reqs, 2)
	res := toolResults(reqs[1])
	require.Len(t, res, 1)
	require.True(t, res[0].IsError)
	require.Contains(t, res[0].Text, "permission denied: bash touch should-not-exist (the user rejected it)")
	tp := h.messages("alice", s.ID)[1].ToolParts()[0]
	require.Equal(t, message.ToolError, tp.State)
}

// TestFirstMatchWins: project rules are evaluated in order and the first match decides.
func TestFirstMatchWins(t *testing.T) {
	cases := []struct {
		name   string
		config string
		denied bool
	}{
		{"deny first", `{"permission": [{"tool": "bash", "pattern": "echo *", "action": "deny"}, {"tool": "*", "action": "allow"}]}`, true},
		{"allow first", `{"permission": [{"tool": "*", "action": "allow"}, {"tool": "bash", "pattern": "echo *", "action": "deny"}]}`, false},
		{"glob tool", `{"permission": [{"tool": "ba?h", "action": "deny"}, {"tool": "bash", "action": "allow"}]}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			backend := bashEvery("echo hi")
			h := newHarness(t, harnessOpts{backend: backend})
			dir := h.userDir(10)
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "openvibe.json"), []byte(tc.config), 0o644))
			s := h.createSession("alice", "")
			ev := h.subscribe("alice", "/agent/event")
			h.prompt("alice", s.ID, "say hi") // no ask: a rule decides either way
			ev.idle(s.ID)
			res := toolResults(backend.Requests()[1])
			require.Equal(t, tc.denied, res[0].IsError, res[0].Text)
			if tc.denied {
				require.Contains(t, res[0].Text, "a rule denies it")
			} else {
				require.Contains(t, res[0].Text, "hi\n[exit code 0]")
			}
		})
	}
}

// TestRememberedApproval: "remember" saves a rule for the project and agent (here the
// prefix the user picked from the request's offers); it applies to the next call and after
// a restart, but not to another agent or another project.
func TestRememberedApproval(t *testing.T) {
	backend := bashEvery("echo one", "echo two", "echo three", "echo four", "echo five")
	h := newHarness(t, harnessOpts{backend: backend, env: map[string]string{
		"OPENVIBE_CONFIG_CONTENT": `{"agent": {"helper": {"description": "another primary agent"}}}`}})
	dirA := filepath.Join(h.userDir(10), "a")
	dirB := filepath.Join(h.userDir(10), "b")
	require.NoError(t, os.MkdirAll(filepath.Join(dirA, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dirB, ".git"), 0o755))

	s := h.createSession("alice", dirA)
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "one")
	req := ev.asked()
	require.Equal(t, []any{"echo one"}, req["always"])
	require.Equal(t, []any{"echo *"}, req["prefixes"])
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/permission/reply", map[string]any{"request_id": req["id"],
		"decision": "allow", "remember": true, "always": []string{"echo *"}}, nil))
	ev.idle(s.ID)

	var rules []map[string]any
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/permission/rule", nil, &rules))
	require.Len(t, rules, 1)
	require.Equal(t, "bash", rules[0]["tool"])
	require.Equal(t, "build", rules[0]["agent"])

	// Same project and agent: no ask.
	h.prompt("alice", s.ID, "two")
	require.Nil(t, ev.idle(s.ID)["error"])
	require.Empty(t, h.runner.Engine().Permissions().Pending(10, ""))

	// After a restart: still no ask.
	ev.close()
	h.restart()
	ev = h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "three")
	require.Nil(t, ev.idle(s.ID)["error"])

	// Another agent in the same project asks again.
	var other SessionView
	require.Equal(t, http.StatusCreated, h.do("alice", "POST", "/agent/session", map[string]any{"directory": dirA, "agent": "helper"}, &other))
	h.prompt("alice", other.ID, "four")
	req = ev.asked()
	require.Equal(t, "helper", req["agent"])
	require.Equal(t, http.StatusOK, h.reply("alice", req["id"].(string), "deny", false))
	ev.idle(other.ID)

	// Another project asks again.
	sb := h.createSession("alice", dirB)
	h.prompt("alice", sb.ID, "five")
	req = ev.asked()
	require.Equal(t, sb.ID, req["session_id"])
	require.Equal(t, http.StatusOK, h.reply("alice", req["id"].(string), "deny", false))
	ev.idle(sb.ID)

	// Revoking the rule brings the question back.
	id := int64(rules[0]["id"].(float64))
	require.Equal(t, http.StatusNoContent, h.do("alice", "DELETE", "/agent/permission/rule/"+itoa(id), nil, nil))
	require.Equal(t, http.StatusNotFound, h.do("alice", "DELETE", "/agent/permission/rule/"+itoa(id), nil, nil))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestHeadlessNeverHangs: with no one to answer, an ask resolves by policy at once.
func TestHeadlessNeverHangs(t *testing.T) {
	for _, tc := range []struct {
		policy permission.Policy
		denied bool
	}{{permission.HeadlessDeny, true}, {permission.HeadlessAllow, false}} {
		backend := bashEvery("echo headless")
		h := newHarness(t, harnessOpts{backend: backend})
		s := h.createSession("alice", "")
		sess, err := h.runner.Store().GetSession(t.Context(), s.ID)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		last, err := h.runner.Engine().Prompt(ctx, sess, engine.PromptInput{Text: "go", Policy: tc.policy})
		cancel()
		require.NoError(t, err)
		require.Equal(t, "ran echo headless", last.Text())
		res := toolResults(backend.Requests()[1])
		require.Equal(t, tc.denied, res[0].IsError, res[0].Text)
		if tc.denied {
			require.Contains(t, res[0].Text, "nobody can approve in a headless run")
		}
	}
}

// TestPendingRequestSurvivesRestart: a request pending at shutdown is listed after a
// restart; answering it runs the call and finishes the turn. Unknown IDs are 404.
func TestPendingRequestSurvivesRestart(t *testing.T) {
	backend := bashEvery("echo resumed > out.txt")
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "write out.txt")
	req := ev.asked()
	ev.close()
	h.restart()

	var pending []map[string]any
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/permission", nil, &pending))
	require.Len(t, pending, 1)
	require.Equal(t, req["id"], pending[0]["id"])
	require.Equal(t, http.StatusNotFound, h.reply("alice", "per_unknown", "allow", false))
	require.Equal(t, http.StatusNotFound, h.reply("bob", req["id"].(string), "allow", false))

	ev = h.subscribe("alice", "/agent/event")
	require.Equal(t, http.StatusOK, h.reply("alice", req["id"].(string), "allow", false))
	ev.idle(s.ID)
	b, err := os.ReadFile(filepath.Join(h.userDir(10), "out.txt"))
	require.NoError(t, err)
	require.Equal(t, "resumed\n", string(b))
	msgs := h.messages("alice", s.ID)
	require.Equal(t, "ran echo resumed > out.txt", msgs[len(msgs)-1].Text())
	require.Equal(t, message.ToolCompleted, msgs[1].ToolParts()[0].State)
}
