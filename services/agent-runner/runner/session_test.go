package runner

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/llm"
)

// TestForkFromMiddle forks after the first exchange of a two-exchange session: the fork has
// copies (new IDs) of the first two messages only, and its next turn sees only them.
func TestForkFromMiddle(t *testing.T) {
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Text("first answer")}},
		llm.Step{Events: []llm.Event{llm.Text("second answer")}},
		llm.Step{Events: []llm.Event{llm.Text("forked answer")}},
	))
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "first question")
	ev.idle(s.ID)
	h.prompt("alice", s.ID, "second question")
	ev.idle(s.ID)
	orig := h.messages("alice", s.ID)
	require.Len(t, orig, 4)

	var fork SessionView
	require.Equal(t, http.StatusCreated, h.do("alice", "POST", "/agent/session/"+s.ID+"/fork",
		map[string]any{"message_id": orig[1].ID}, &fork))
	require.NotEqual(t, s.ID, fork.ID)
	copied := h.messages("alice", fork.ID)
	require.Len(t, copied, 2)
	for i, m := range copied {
		require.NotEqual(t, orig[i].ID, m.ID)
		require.Equal(t, fork.ID, m.SessionID)
		require.Equal(t, orig[i].Text(), m.Text())
		require.Equal(t, len(orig[i].Parts), len(m.Parts))
		for j, p := range m.Parts {
			require.NotEqual(t, orig[i].Parts[j].Meta().ID, p.Meta().ID)
			require.Equal(t, m.ID, p.Meta().MessageID)
		}
	}

	h.prompt("alice", fork.ID, "another direction")
	ev.idle(fork.ID)
	reqs := backend.Requests()
	last := reqs[len(reqs)-1]
	require.Len(t, last.Messages, 3)
	require.Equal(t, "first question", last.Messages[0].Parts[0].Text)
	require.Equal(t, "first answer", last.Messages[1].Parts[0].Text)
	require.Equal(t, "another direction", last.Messages[2].Parts[0].Text)
	require.Len(t, h.messages("alice", s.ID), 4, "the original is untouched")

	var out map[string]any
	require.Equal(t, http.StatusNotFound, h.do("alice", "POST", "/agent/session/"+s.ID+"/fork",
		map[string]any{"message_id": "msg_nope"}, &out))
}

// TestAbortMidStream aborts a turn while the model is streaming; the partial text is kept,
// the message is marked aborted, a prompt queued meanwhile is dropped, and the session takes
// a new prompt.
func TestAbortMidStream(t *testing.T) {
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Text("partial "), llm.Text("answer")}, Hang: true},
		llm.Step{Events: []llm.Event{llm.Text("after abort")}},
	))
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "talk forever")
	ev.next(func(e sseEvent) bool {
		var p map[string]any
		_ = json.Unmarshal(e.Properties, &p)
		return e.Type == "part.delta" && p["delta"] == "answer"
	})
	var busy SessionView
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/session/"+s.ID, nil, &busy))
	require.True(t, busy.Busy)
	var out map[string]any
	require.Equal(t, http.StatusAccepted, h.do("alice", "POST", "/agent/session/"+s.ID+"/message", map[string]any{"text": "x"}, &out))
	require.NotNil(t, out["queued"], "a prompt sent while busy waits in the queue")

	start := time.Now()
	var ab map[string]bool
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/abort", nil, &ab))
	require.True(t, ab["aborted"])
	status := ev.idle(s.ID)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Equal(t, "aborted", status["error"])

	msgs := h.messages("alice", s.ID)
	require.Len(t, msgs, 2, "the abort dropped the queued prompt too")
	require.Equal(t, "aborted", msgs[1].Finish)
	require.Equal(t, "partial answer", msgs[1].Text())

	h.prompt("alice", s.ID, "again")
	ev.idle(s.ID)
	msgs = h.messages("alice", s.ID)
	require.Equal(t, "after abort", msgs[len(msgs)-1].Text())
}

// TestAbortKillsRunningCommand aborts a turn whose bash call started a long-running
// dev-server style command; the call ends at once and no process is left behind.
func TestAbortKillsRunningCommand(t *testing.T) {
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Call("c1", "bash", map[string]any{"command": "sleep 1000 & echo $! > pid; wait"})}},
	))
	h := newHarness(t, harnessOpts{backend: backend, env: map[string]string{
		"OPENVIBE_CONFIG_CONTENT": `{"permission": [{"tool": "bash", "action": "allow"}]}`}})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "start the server")
	pidFile := filepath.Join(h.userDir(10), "pid")
	require.Eventually(t, func() bool { b, _ := os.ReadFile(pidFile); return len(b) > 0 }, 5*time.Second, 10*time.Millisecond)
	start := time.Now()
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/abort", nil, nil))
	ev.idle(s.ID)
	require.Less(t, time.Since(start), 10*time.Second)
	requireDead(t, pidFile)
	tp := h.messages("alice", s.ID)[1].ToolParts()[0]
	require.True(t, strings.HasPrefix(tp.Error, "aborted by the user"), tp.Error)
}

// TestUsersAreIsolated: nobody lists, reads, drives, forks, deletes or answers permissions
// for another user's session, and directories stay inside each user's workspace.
func TestUsersAreIsolated(t *testing.T) {
	backend := bashEvery("echo private")
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	bobEvents := h.subscribe("bob", "/agent/event")
	h.prompt("alice", s.ID, "secret work")
	req := ev.asked()

	var out map[string]any
	for _, c := range []struct{ method, path string }{
		{"GET", "/agent/session/" + s.ID},
		{"GET", "/agent/session/" + s.ID + "/message"},
		{"POST", "/agent/session/" + s.ID + "/message"},
		{"POST", "/agent/session/" + s.ID + "/fork"},
		{"POST", "/agent/session/" + s.ID + "/abort"},
		{"DELETE", "/agent/session/" + s.ID},
		{"GET", "/agent/session/" + s.ID + "/event"},
	} {
		require.Equal(t, http.StatusNotFound, h.do("bob", c.method, c.path, map[string]any{"text": "x"}, &out), c.path)
	}
	var list []SessionView
	require.Equal(t, http.StatusOK, h.do("bob", "GET", "/agent/session", nil, &list))
	require.Empty(t, list)
	var pending []map[string]any
	require.Equal(t, http.StatusOK, h.do("bob", "GET", "/agent/permission", nil, &pending))
	require.Empty(t, pending)
	require.Equal(t, http.StatusNotFound, h.reply("bob", req["id"].(string), "allow", true))

	require.Equal(t, http.StatusOK, h.reply("alice", req["id"].(string), "deny", false))
	ev.idle(s.ID)
	select {
	case e := <-bobEvents.ch:
		t.Fatalf("bob received alice's event %s", e.Type)
	default:
	}

	// Directory confinement.
	require.Equal(t, http.StatusBadRequest, h.do("bob", "POST", "/agent/session", map[string]any{"directory": h.userDir(10)}, &out))
	require.Contains(t, out["error"], "outside your workspace")
	require.Equal(t, http.StatusBadRequest, h.do("bob", "POST", "/agent/session", map[string]any{"directory": "../10"}, &out))
	require.Equal(t, http.StatusBadRequest, h.do("bob", "POST", "/agent/session", map[string]any{"directory": "/etc"}, &out))
	require.NoError(t, os.Symlink(h.userDir(10), filepath.Join(h.userDir(20), "sneaky")))
	require.Equal(t, http.StatusBadRequest, h.do("bob", "POST", "/agent/session", map[string]any{"directory": "sneaky"}, &out))

	// Authentication and scopes.
	require.Equal(t, http.StatusUnauthorized, h.do("", "GET", "/agent/session", nil, &out))
	require.Equal(t, http.StatusUnauthorized, h.do("wrong", "GET", "/agent/session", nil, &out))
	require.Equal(t, http.StatusForbidden, h.do("noscope", "GET", "/agent/session", nil, &out))
	require.Equal(t, http.StatusOK, h.do("scoped", "GET", "/agent/session", nil, &list))
}

// TestReadOutsideWorkspaceRefused: a tool cannot reach outside the user's workspace, even
// through a symlink, and paths outside the project need permission.
func TestReadOutsideWorkspaceRefused(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("top secret"), 0o644))
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Call("c1", "read", map[string]any{"file_path": secret})}},
		llm.Step{Events: []llm.Event{llm.Call("c2", "read", map[string]any{"file_path": "link/secret.txt"})}},
		llm.Step{Events: []llm.Event{llm.Text("done")}},
	))
	h := newHarness(t, harnessOpts{backend: backend})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.Symlink(filepath.Dir(secret), filepath.Join(dir, "link")))
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "read secrets")
	ev.idle(s.ID)
	res := toolResults(backend.Requests()[2])
	require.Len(t, res, 2)
	for _, r := range res {
		require.True(t, r.IsError)
		require.Contains(t, r.Text, "outside the workspace")
		require.NotContains(t, r.Text, "top secret")
	}
}

func TestPatchSession(t *testing.T) {
	h := newHarness(t, harnessOpts{backend: llm.NewScripted(llm.Queue())})
	s := h.createSession("alice", "")
	var out SessionView
	require.Equal(t, http.StatusOK, h.do("alice", "PATCH", "/agent/session/"+s.ID, map[string]any{"title": "Renamed", "agent": "plan"}, &out))
	require.Equal(t, "Renamed", out.Title)
	require.Equal(t, "plan", out.Agent)
	var e map[string]any
	require.Equal(t, http.StatusBadRequest, h.do("alice", "PATCH", "/agent/session/"+s.ID, map[string]any{"agent": "general"}, &e))
	require.Equal(t, http.StatusBadRequest, h.do("alice", "PATCH", "/agent/session/"+s.ID, map[string]any{"agent": "nope"}, &e))
	require.Equal(t, http.StatusBadRequest, h.do("alice", "PATCH", "/agent/session/"+s.ID, map[string]any{"title": " "}, &e))
	require.Equal(t, http.StatusNotFound, h.do("bob", "PATCH", "/agent/session/"+s.ID, map[string]any{"title": "x"}, &e))
}

// TestQueueSurvivesRestart: a prompt queued behind a turn that the shutdown interrupted
// runs once the runner is back.
func TestQueueSurvivesRestart(t *testing.T) {
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Text("working")}, Hang: true},
		llm.Step{Events: []llm.Event{llm.Text("after the restart")}},
	))
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "long job")
	ev.next(ofType("part.delta"))
	var out map[string]any
	require.Equal(t, http.StatusAccepted, h.do("alice", "POST", "/agent/session/"+s.ID+"/message", map[string]any{"text": "next"}, &out))
	require.NotNil(t, out["queued"])
	ev.close()
	h.restart()
	require.Eventually(t, func() bool {
		msgs := h.messages("alice", s.ID)
		return len(msgs) == 4 && msgs[3].Text() == "after the restart"
	}, 20*time.Second, 20*time.Millisecond)
	require.Equal(t, "next", h.messages("alice", s.ID)[2].Text())
	var q []map[string]any
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/session/"+s.ID+"/queue", nil, &q))
	require.Empty(t, q)
}
