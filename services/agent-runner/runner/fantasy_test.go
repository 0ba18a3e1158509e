package runner

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// TestTurnThroughFantasyProvider runs a turn through the configured provider path: an
// openai-compatible provider from OPENVIBE_CONFIG_CONTENT, served by a local server replaying
// recorded streaming responses (a tool call, then text).
func TestTurnThroughFantasyProvider(t *testing.T) {
	var mu sync.Mutex
	files := []string{"openai_tool_call.sse", "openai_text.sse"}
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		f := files[0]
		files = files[1:]
		mu.Unlock()
		data, err := os.ReadFile(filepath.Join("..", "internal", "llm", "fantasyllm", "testdata", f))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(data)
	}))
	defer srv.Close()
	cfg := `{
	  // a local OpenAI-compatible server (llama.cpp, Ollama, vLLM…)
	  "model": "local/qwen-test",
	  "provider": {"local": {"type": "openai-compatible", "base_url": "` + srv.URL + `/v1", "api_key": "${LOCAL_KEY}",
	    "models": {"qwen-test": {"cost": {"input": 1, "output": 2}}}}}
	}`
	h := newHarness(t, harnessOpts{env: map[string]string{"OPENVIBE_CONFIG_CONTENT": cfg, "LOCAL_KEY": "k-123"}})
	require.NoError(t, os.MkdirAll(h.userDir(10), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(h.userDir(10), "a.txt"), []byte("hi\n"), 0o644))
	s := h.createSession("alice", "")
	ev := h.subscribe("alice", "/agent/event")
	h.prompt("alice", s.ID, "what is in a.txt?")
	require.Nil(t, ev.idle(s.ID)["error"])

	msgs := h.messages("alice", s.ID)
	require.Len(t, msgs, 3)
	tp := msgs[1].ToolParts()[0]
	require.Equal(t, "call_Qx7", tp.CallID)
	require.Equal(t, message.ToolCompleted, tp.State)
	require.Contains(t, tp.Output, "1\thi")
	require.Equal(t, "The file says hi.", msgs[2].Text())
	require.Equal(t, "local/qwen-test", msgs[2].Model)

	// The second request carried the tool result; the session's cost used the configured prices.
	require.Len(t, bodies, 2)
	var second map[string]any
	require.NoError(t, json.Unmarshal([]byte(bodies[1]), &second))
	require.Equal(t, "qwen-test", second["model"])
	msgsSent := second["messages"].([]any)
	last := msgsSent[len(msgsSent)-1].(map[string]any)
	require.Equal(t, "tool", last["role"])
	require.Contains(t, last["content"], "1\thi")
	var sess SessionView
	require.Equal(t, http.StatusOK, h.do("alice", "GET", "/agent/session/"+s.ID, nil, &sess))
	require.EqualValues(t, 30+6, sess.Usage.OutputTokens)
	require.InDelta(t, (20+180)*1.0/1e6+(36)*2.0/1e6, sess.Usage.Cost, 1e-9)
}
