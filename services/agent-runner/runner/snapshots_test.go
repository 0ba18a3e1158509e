package runner

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/snapshot"
)

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
