package runner

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/llm"
)

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
