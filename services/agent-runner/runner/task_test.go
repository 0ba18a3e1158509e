package runner

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/permission"
)

// TestTaskDelegatesToSubagent: the primary agent's task call runs the general subagent in a
// child session with read-only tools, and its answer comes back as the call's output.
func TestTaskDelegatesToSubagent(t *testing.T) {
	backend := llm.NewScripted(func(req llm.Request) llm.Step {
		names := map[string]bool{}
		for _, td := range req.Tools {
			names[td.Name] = true
		}
		last := req.Messages[len(req.Messages)-1]
		switch {
		case names["task"] && last.Role == llm.RoleUser: // primary, first step
			return llm.Step{Events: []llm.Event{llm.Call("t1", "task", map[string]any{
				"description": "find the answer", "prompt": "What is in notes.txt?", "subagent_type": "general"})}}
		case names["task"]: // primary, after the task result
			return llm.Step{Events: []llm.Event{llm.Text("The subagent says: " + last.Parts[0].Text)}}
		case names["bash"] || names["edit"] || names["write"]:
			return llm.Step{Events: []llm.Event{llm.Text("a subagent must not have write tools")}}
		case last.Role == llm.RoleUser: // subagent, first step
			return llm.Step{Events: []llm.Event{llm.Call("r1", "read", map[string]any{"file_path": "notes.txt"})}}
		default:
			return llm.Step{Events: []llm.Event{llm.Text("notes mention 42")}}
		}
	})
	h := newHarness(t, harnessOpts{backend: backend})
	require.NoError(t, os.MkdirAll(h.userDir(10), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(h.userDir(10), "notes.txt"), []byte("42\n"), 0o644))
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "ask a subagent")
	ev.idle(s.ID)

	msgs := h.messages("alice", s.ID)
	final := msgs[len(msgs)-1].Text()
	require.True(t, strings.HasPrefix(final, "The subagent says: notes mention 42"), final)
	var list []SessionView
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/session", nil, &list))
	require.Len(t, list, 2)
	var child SessionView
	for _, x := range list {
		if x.ID != s.ID {
			child = x
		}
	}
	require.Equal(t, s.ID, child.ParentID)
	require.Equal(t, "general", child.Agent)
	childMsgs := h.messages("alice", child.ID)
	require.Equal(t, "read", childMsgs[1].ToolParts()[0].Tool)

	// Deleting the parent deletes the child.
	require.Equal(t, http.StatusNoContent, h.do("alice", "DELETE", "/agent/session/"+s.ID, nil, nil))
	require.Equal(t, http.StatusNotFound, h.do("alice", "GET", "/agent/session/"+child.ID, nil, nil))
}

// TestLongSessionMemoryBounded runs many turns whose commands print megabytes each: the heap
// after the last turn is not larger than after the first few, and stored outputs are capped.
func TestLongSessionMemoryBounded(t *testing.T) {
	backend := llm.NewScripted(func(req llm.Request) llm.Step {
		if req.Messages[len(req.Messages)-1].Role == llm.RoleUser {
			return llm.Step{Events: []llm.Event{llm.Text(strings.Repeat("thinking out loud ", 200)),
				llm.Call("b", "bash", map[string]any{"command": "head -c 3000000 /dev/zero | tr '\\0' x"})}}
		}
		return llm.Step{Events: []llm.Event{llm.Text("ok")}}
	}).KeepRequests(1)
	h := newHarness(t, harnessOpts{backend: backend})
	s := h.createSession("alice", "")
	sess, err := h.runner.Store().GetSession(t.Context(), s.ID)
	require.NoError(t, err)
	// Something is always listening slowly: a subscriber that never reads.
	slow := h.runner.Bus().Subscribe(8, nil)
	defer slow.Close()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	turn := func(i int) {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		_, err := h.runner.Engine().Prompt(ctx, sess, engine.PromptInput{Text: fmt.Sprint("turn ", i), Policy: permission.HeadlessAllow})
		require.NoError(t, err)
	}
	for i := range 5 {
		turn(i)
	}
	early := heap()
	for i := 5; i < 40; i++ {
		turn(i)
	}
	late := heap()
	require.Less(t, late, early+8<<20, "heap grew from %d to %d bytes over 35 turns", early, late)
	msgs := h.messages("alice", s.ID)
	require.Len(t, msgs, 40*3)
	for _, m := range msgs {
		for _, tp := range m.ToolParts() {
			require.Less(t, len(tp.Output), 40<<10, "tool output must be capped")
			require.Contains(t, tp.Output, "bytes of output omitted")
		}
	}
	require.Greater(t, slow.Dropped(), int64(0))
}
