package runner

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/compaction"
	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/snapshot"
)

// waitIdle waits until the session's turn has ended.
func (h *harness) waitIdle(token, sessionID string) {
	h.t.Helper()
	require.Eventually(h.t, func() bool {
		var s SessionView
		return h.do(token, "GET", "/agent/session/"+sessionID, nil, &s) == http.StatusOK && !s.Busy
	}, 20*time.Second, 10*time.Millisecond)
}

func isSummaryRequest(req llm.Request) bool {
	if len(req.Messages) == 0 {
		return false
	}
	last := req.Messages[len(req.Messages)-1]
	return len(last.Parts) == 1 && last.Parts[0].Text == compaction.SummaryPrompt
}

func compactionParts(msgs []*message.Message) []*message.CompactionPart {
	var out []*message.CompactionPart
	for _, m := range msgs {
		for _, p := range m.Parts {
			if c, ok := p.(*message.CompactionPart); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

const windowConfig = `{"provider":{"scripted":{"type":"openai-compatible","base_url":"http://127.0.0.1:9","models":{"test":{"context_window":20000}}}}}`

func TestLongSessionCompactsOnceAndContinues(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("All work and no play makes a long answer. ", 380) // ~4000 tokens
	var summaries atomic.Int32
	be := llm.NewScripted(func(req llm.Request) llm.Step {
		if isSummaryRequest(req) {
			summaries.Add(1)
			return llm.Step{Events: []llm.Event{llm.Text("Goal: answer seven prompts. Progress: turns 1-3 answered at length.")}}
		}
		return llm.Step{Events: []llm.Event{llm.Text(long)}}
	})
	h := newHarness(t, harnessOpts{backend: be, env: map[string]string{"OPENVIBE_CONFIG_CONTENT": windowConfig}})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	s := h.createSession("alice", dir)
	for i := 1; i <= 7; i++ {
		h.prompt("alice", s.ID, "prompt number "+strings.Repeat("x", i))
		h.waitIdle("alice", s.ID)
	}
	require.EqualValues(t, 1, summaries.Load(), "compacted exactly once")
	msgs := h.messages("alice", s.ID)
	cps := compactionParts(msgs)
	require.Len(t, cps, 1)
	require.Contains(t, cps[0].Summary, "Goal: answer seven prompts")
	// The model calls after the compaction start with the summary and keep the recent turns.
	var after []llm.Request
	for _, r := range be.Requests() {
		if !isSummaryRequest(r) && strings.HasPrefix(r.Messages[0].Parts[0].Text, compaction.SummaryPrefix) {
			after = append(after, r)
		}
	}
	require.Len(t, after, 2, "the turns after the compaction saw the summary")
	require.Contains(t, after[0].Messages[1].Parts[0].Text, "prompt number xxxx", "the most recent turns stay intact")
	require.Less(t, compaction.Estimate(after[0]), int64(20000-2500))
	// The last turn answered normally.
	last := msgs[len(msgs)-1]
	require.Equal(t, message.RoleAssistant, last.Role)
	require.Equal(t, long, last.Text())
}

// TestCompactionFollowsTheProvidersCount: when the provider counts more tokens than the
// four-bytes-a-token estimate (code, other languages), compaction starts earlier, before
// the real window overflows.
func TestCompactionFollowsTheProvidersCount(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("All work and no play makes a long answer. ", 380) // ~4000 estimated tokens
	run := func(factor int64) (firstSummaryAt int) {
		var calls int
		be := llm.NewScripted(func(req llm.Request) llm.Step {
			if isSummaryRequest(req) {
				if firstSummaryAt == 0 {
					firstSummaryAt = calls
				}
				return llm.Step{Events: []llm.Event{llm.Text("Goal: answer the prompts.")}}
			}
			calls++
			return llm.Step{Events: []llm.Event{llm.Text(long), llm.Done("stop", factor*compaction.Estimate(req), 10)}}
		})
		h := newHarness(t, harnessOpts{backend: be, env: map[string]string{"OPENVIBE_CONFIG_CONTENT": windowConfig}})
		dir := h.userDir(10)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		s := h.createSession("alice", dir)
		for i := 1; i <= 6 && firstSummaryAt == 0; i++ {
			h.prompt("alice", s.ID, "prompt number "+strings.Repeat("x", i))
			h.waitIdle("alice", s.ID)
		}
		return firstSummaryAt
	}
	plain, doubled := run(1), run(2)
	require.Positive(t, plain)
	require.Positive(t, doubled)
	require.Less(t, doubled, plain, "a provider counting twice the estimate compacts earlier")
}

func TestCompactionThatDoesNotShrinkIsReported(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 4000)
	var summaries atomic.Int32
	be := llm.NewScripted(func(req llm.Request) llm.Step {
		if isSummaryRequest(req) {
			summaries.Add(1)
			return llm.Step{Events: []llm.Event{llm.Text(strings.Repeat("useless summary ", 20000))}}
		}
		return llm.Step{Events: []llm.Event{llm.Text(long)}}
	})
	h := newHarness(t, harnessOpts{backend: be, env: map[string]string{"OPENVIBE_CONFIG_CONTENT": windowConfig}})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	s := h.createSession("alice", dir)
	var errs []string
	for i := range 7 {
		var out map[string]any
		code := h.do("alice", "POST", "/agent/session/"+s.ID+"/message", map[string]any{"text": "go " + strings.Repeat("y", i), "wait": true}, &out)
		require.Equal(t, http.StatusOK, code, out)
		if e, ok := out["error"].(string); ok {
			errs = append(errs, e)
		}
	}
	require.NotEmpty(t, errs)
	require.Contains(t, errs[0], compaction.ErrNoProgress.Error())
	require.Empty(t, compactionParts(h.messages("alice", s.ID)), "nothing stored")
	require.LessOrEqual(t, int(summaries.Load()), len(errs), "one attempt per turn, no loop")

	// A manual compaction of a session that is too short is refused with a clear error.
	s2 := h.createSession("alice", dir)
	var out map[string]any
	require.Equal(t, http.StatusConflict, h.do("alice", "POST", "/agent/session/"+s2.ID+"/compact", nil, &out))
	require.Contains(t, out["error"], "nothing to compact")
}

func TestManualCompaction(t *testing.T) {
	t.Parallel()
	be := llm.NewScripted(func(req llm.Request) llm.Step {
		if isSummaryRequest(req) {
			return llm.Step{Events: []llm.Event{llm.Text("short summary")}}
		}
		return llm.Step{Events: []llm.Event{llm.Text(strings.Repeat("answer ", 200))}}
	})
	h := newHarness(t, harnessOpts{backend: be})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	s := h.createSession("alice", dir)
	for _, p := range []string{"one", "two", "three"} {
		h.prompt("alice", s.ID, p)
		h.waitIdle("alice", s.ID)
	}
	var m message.Message
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/compact", nil, &m))
	require.Len(t, compactionParts([]*message.Message{&m}), 1)
	require.Equal(t, http.StatusNotFound, h.do("bob", "POST", "/agent/session/"+s.ID+"/compact", nil, nil))
	h.prompt("alice", s.ID, "four")
	h.waitIdle("alice", s.ID)
	reqs := be.Requests()
	last := reqs[len(reqs)-1]
	require.Equal(t, compaction.SummaryPrefix+"short summary", last.Messages[0].Parts[0].Text)
}

func readTree(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[rel] = string(b)
		return nil
	}))
	return out
}

func TestRevertTurnByteForByte(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{})
	dir := h.userDir(10)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	bin := string([]byte{0, 1, 2, 0xff, '\r', '\n', 0xfe})
	files := map[string]string{"main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n", "data.bin": bin,
		"old/remove-me.txt": "bye\r\n", "openvibe.json": `{"permission":[{"tool":"*","action":"allow"}]}`}
	for p, c := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644))
	}
	before := readTree(t, dir)
	h.backend = llm.NewScripted(llm.Queue(
		llm.Step{Events: []llm.Event{llm.Call("c0", "read", map[string]any{"file_path": filepath.Join(dir, "main.go")})}},
		llm.Step{Events: []llm.Event{
			llm.Call("c1", "edit", map[string]any{"file_path": filepath.Join(dir, "main.go"), "old_string": `"hi"`, "new_string": `"hello"`}),
			llm.Call("c2", "write", map[string]any{"file_path": filepath.Join(dir, "pkg/new.go"), "content": "package pkg\n"}),
			llm.Call("c3", "bash", map[string]any{"command": "rm -r old data.bin"}),
		}},
		llm.Step{Events: []llm.Event{llm.Text("done")}},
	))
	h.restart()
	s := h.createSession("alice", dir)
	var out map[string]any
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/message", map[string]any{"text": "change things", "wait": true}, &out))
	changed := readTree(t, dir)
	require.NotEqual(t, before, changed)
	require.Contains(t, changed, "pkg/new.go")

	var log snapshot.SessionLog
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/session/"+s.ID+"/snapshot", nil, &log))
	require.Len(t, log.Turns, 1)
	require.NotNil(t, log.Turns[0].Diff)
	a, m, d := log.Turns[0].Diff.Count()
	require.Equal(t, [3]int{1, 1, 2}, [3]int{a, m, d})
	userMsg := log.Turns[0].MessageID

	require.Equal(t, http.StatusNotFound, h.do("bob", "POST", "/agent/session/"+s.ID+"/revert", map[string]any{"message_id": userMsg}, nil))
	require.Equal(t, http.StatusBadRequest, h.do("alice", "POST", "/agent/session/"+s.ID+"/revert", map[string]any{}, nil))
	require.Equal(t, http.StatusNotFound, h.do("alice", "POST", "/agent/session/"+s.ID+"/revert", map[string]any{"message_id": "msg_nope"}, nil))
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/revert", map[string]any{"message_id": userMsg}, nil))
	require.Equal(t, before, readTree(t, dir), "reverted byte for byte")

	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/unrevert", nil, nil))
	require.Equal(t, changed, readTree(t, dir), "un-reverted")
	require.Equal(t, http.StatusConflict, h.do("alice", "POST", "/agent/session/"+s.ID+"/unrevert", nil, nil))
}

// TestMCPStatusEndpoint: a shared (remote) server is reported from startup; a local server
// runs for a session's directory from its first turn and is reported with that directory,
// to that directory's user only.
func TestMCPStatusEndpoint(t *testing.T) {
	t.Parallel()
	cfg := `{"mcp":{"broken":{"type":"local","command":["` + filepath.Join(t.TempDir(), "missing") + `"]},
		"down":{"type":"remote","url":"http://127.0.0.1:9/mcp","timeout":2000}}}`
	h := newHarness(t, harnessOpts{env: map[string]string{"OPENVIBE_CONFIG_CONTENT": cfg},
		backend: llm.NewScripted(llm.Queue(llm.Step{Events: []llm.Event{llm.Text("hi")}}))})
	var st []map[string]any
	require.Eventually(t, func() bool {
		require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/mcp", nil, &st))
		return len(st) == 1 && st[0]["state"] == "failed"
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, "down", st[0]["name"])
	require.NotContains(t, st[0], "directory")

	s := h.createSession("alice", "")
	require.Equal(t, http.StatusOK, h.do("alice", "POST", "/agent/session/"+s.ID+"/message", map[string]any{"text": "hi", "wait": true}, nil))
	require.Eventually(t, func() bool {
		require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/mcp", nil, &st))
		return len(st) == 2 && st[1]["state"] == "failed"
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, "broken", st[1]["name"])
	require.Equal(t, s.Directory, st[1]["directory"])
	require.NotEmpty(t, st[1]["error"])
	require.Equal(t, http.StatusOK, h.do("bob", "GET", "/agent/mcp", nil, &st))
	require.Len(t, st, 1, "bob does not see alice's directory")
	require.Equal(t, http.StatusUnauthorized, h.do("", "GET", "/agent/mcp", nil, nil))
}
