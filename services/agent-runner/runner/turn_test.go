package runner

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/testenv"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestWholeTurn drives a prompt through read → edit (ask, allowed over HTTP) → bash (ask,
// allowed) → final text, checks every stored part and its lifecycle on the bus, and checks
// the history replays identically after a restart.
func TestWholeTurn(t *testing.T) { wholeTurn(t, "") }

// TestWholeTurnPostgres runs the same turn with the runner's state in PostgreSQL.
func TestWholeTurnPostgres(t *testing.T) { wholeTurn(t, testenv.Postgres(t)) }

func wholeTurn(t *testing.T, db string) {
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Reasoning("I should look first."), llm.Text("Let me read it."),
			llm.Call("c1", "read", map[string]any{"file_path": "hello.txt"})}},
		llm.Step{Events: []llm.Event{llm.Call("c2", "edit", map[string]any{"file_path": "hello.txt", "old_string": "world", "new_string": "there"})}},
		llm.Step{Events: []llm.Event{llm.Call("c3", "bash", map[string]any{"command": "cat hello.txt"})}},
		llm.Step{Events: []llm.Event{llm.Text("Done: "), llm.Text("hello there."), llm.Done("stop", 100, 20)}},
	))
	h := newHarness(t, harnessOpts{backend: backend, dbPath: db})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello world\n"), 0o644))

	ev := h.subscribe("alice", "/agent/event")
	s := h.createSession("alice", "")
	require.Equal(t, dir, s.Directory)
	h.prompt("alice", s.ID, "Change world to there")

	edit := ev.asked()
	require.Equal(t, "edit", edit["tool"])
	require.Equal(t, "hello.txt", edit["pattern"])
	// The file is untouched until the user answers.
	b, _ := os.ReadFile(filepath.Join(dir, "hello.txt"))
	require.Equal(t, "hello world\n", string(b))
	require.Equal(t, http.StatusOK, h.reply("alice", edit["id"].(string), "allow", false))

	bash := ev.asked()
	require.Equal(t, "bash", bash["tool"])
	require.Equal(t, "cat hello.txt", bash["pattern"])
	require.Equal(t, http.StatusOK, h.reply("alice", bash["id"].(string), "allow", false))
	status := ev.idle(s.ID)
	require.Nil(t, status["error"])

	b, _ = os.ReadFile(filepath.Join(dir, "hello.txt"))
	require.Equal(t, "hello there\n", string(b))

	// The model saw the bash output in its last request.
	reqs := backend.Requests()
	require.Len(t, reqs, 4)
	results := toolResults(reqs[3])
	require.Len(t, results, 3)
	require.Contains(t, results[0].Text, "hello world")
	require.Contains(t, results[2].Text, "hello there")
	require.Contains(t, results[2].Text, "[exit code 0]")

	msgs := h.messages("alice", s.ID)
	require.Len(t, msgs, 5) // user + 4 assistant steps
	require.Equal(t, message.RoleUser, msgs[0].Role)
	require.Equal(t, "Change world to there", msgs[0].Text())
	first := msgs[1]
	require.Len(t, first.Parts, 4)
	require.IsType(t, &message.StepStartPart{}, first.Parts[0])
	require.Equal(t, "I should look first.", first.Parts[1].(*message.ReasoningPart).Text)
	require.Equal(t, "Let me read it.", first.Parts[2].(*message.TextPart).Text)
	var tools []*message.ToolPart
	for _, m := range msgs[1:4] {
		tools = append(tools, m.ToolParts()...)
	}
	require.Len(t, tools, 3)
	for i, name := range []string{"read", "edit", "bash"} {
		require.Equal(t, name, tools[i].Tool)
		require.Equal(t, message.ToolCompleted, tools[i].State, tools[i].Error)
		require.NotNil(t, tools[i].Time.End)
		require.NotEmpty(t, tools[i].Output)
	}
	require.Equal(t, "Done: hello there.", msgs[4].Text())
	require.Equal(t, "stop", msgs[4].Finish)
	require.EqualValues(t, 100, msgs[4].Usage.InputTokens)

	var sess SessionView
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/session/"+s.ID, nil, &sess))
	require.Equal(t, "Change world to there", sess.Title)
	require.EqualValues(t, 100+3*10, sess.Usage.InputTokens)
	require.False(t, sess.Busy)

	// Replay after a restart: the same messages and parts, byte for byte.
	before, err := json.Marshal(msgs)
	require.NoError(t, err)
	h.restart()
	after, err := json.Marshal(h.messages("alice", s.ID))
	require.NoError(t, err)
	require.JSONEq(t, string(before), string(after))
}

// TestToolPartLifecycleOnBus checks a tool part is published pending → running → completed.
func TestToolPartLifecycleOnBus(t *testing.T) {
	backend := llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Call("c1", "glob", map[string]any{"pattern": "*.txt"})}},
		llm.Step{Events: []llm.Event{llm.Text("ok")}},
	))
	h := newHarness(t, harnessOpts{backend: backend})
	require.NoError(t, os.MkdirAll(h.userDir(10), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(h.userDir(10), "a.txt"), nil, 0o644))
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/session/"+s.ID+"/event")
	h.prompt("alice", s.ID, "find text files")
	var states []string
	for len(states) == 0 || states[len(states)-1] != "completed" {
		e := ev.next(ofType("part.updated"))
		var p map[string]any
		require.NoError(t, json.Unmarshal(e.Properties, &p))
		if p["type"] == "tool" {
			states = append(states, p["state"].(string))
		}
	}
	require.Equal(t, []string{"pending", "running", "completed"}, states)
	ev.idle(s.ID)
}
