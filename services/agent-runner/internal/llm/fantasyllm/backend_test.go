package fantasyllm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/services/agent-runner/internal/llm"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"), goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
}

// replay serves recorded SSE responses in order and keeps the request bodies.
type replay struct {
	t      *testing.T
	mu     sync.Mutex
	files  []string
	bodies []map[string]any
	paths  []string
	// before runs first for each request; returning true means it answered.
	before func(w http.ResponseWriter, n int) bool
}

func (rp *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	rp.mu.Lock()
	n := len(rp.bodies)
	rp.bodies = append(rp.bodies, body)
	rp.paths = append(rp.paths, r.URL.Path)
	rp.mu.Unlock()
	if rp.before != nil && rp.before(w, n) {
		return
	}
	rp.mu.Lock()
	file := rp.files[0]
	rp.files = rp.files[1:]
	rp.mu.Unlock()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	_, _ = w.Write(data)
}

func collect(t *testing.T, b *Backend, req llm.Request) []llm.Event {
	t.Helper()
	var out []llm.Event
	for ev := range b.Stream(t.Context(), req) {
		out = append(out, ev)
	}
	return out
}

var readTool = llm.ToolDef{Name: "read", Description: "Read a file", Schema: map[string]any{
	"type": "object", "properties": map[string]any{"file_path": map[string]any{"type": "string"}}, "required": []any{"file_path"}}}

func firstRequest() llm.Request {
	return llm.Request{Model: "m", System: "You are a test.", Tools: []llm.ToolDef{readTool},
		Messages: []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "what is in a.txt?"}}}}}
}

// secondRequest continues firstRequest with the call and its result.
func secondRequest(callID string) llm.Request {
	r := firstRequest()
	r.Messages = append(r.Messages,
		llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Kind: llm.PartText, Text: "Reading."},
			{Kind: llm.PartToolCall, CallID: callID, Tool: "read", Input: json.RawMessage(`{"file_path":"a.txt"}`)}}},
		llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{Kind: llm.PartToolResult, CallID: callID, Tool: "read", Text: "1\thi"}}})
	return r
}

func TestOpenAICompatibleStream(t *testing.T) {
	rp := &replay{t: t, files: []string{"openai_tool_call.sse", "openai_text.sse"}}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	p, err := NewProvider(ProviderConfig{Name: "local", Type: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "sk-test"})
	require.NoError(t, err)
	b := New(p, Options{})

	evs := collect(t, b, firstRequest())
	text := ""
	var call *llm.ToolCall
	var done llm.Event
	for _, ev := range evs {
		switch ev.Type {
		case llm.TextDelta:
			text += ev.Text
		case llm.ToolCallComplete:
			call = ev.ToolCall
		case llm.StreamDone:
			done = ev
		case llm.Error:
			t.Fatalf("stream error: %v", ev.Err)
		}
	}
	require.Equal(t, "Let me read it.", text)
	require.NotNil(t, call)
	require.Equal(t, "call_Qx7", call.ID)
	require.Equal(t, "read", call.Name)
	require.JSONEq(t, `{"file_path":"a.txt"}`, string(call.Input))
	require.Equal(t, "tool-calls", done.Finish)
	require.EqualValues(t, 30, done.Usage.OutputTokens)
	require.EqualValues(t, 100, done.Usage.CacheReadTokens)
	require.EqualValues(t, 120, done.Usage.InputTokens+done.Usage.CacheReadTokens)

	req := rp.bodies[0]
	require.Equal(t, "/v1/chat/completions", rp.paths[0])
	require.Equal(t, "m", req["model"])
	require.Equal(t, true, req["stream"])
	tools := req["tools"].([]any)
	require.Len(t, tools, 1)
	fn := tools[0].(map[string]any)["function"].(map[string]any)
	require.Equal(t, "read", fn["name"])
	require.Equal(t, "object", fn["parameters"].(map[string]any)["type"])
	msgs := req["messages"].([]any)
	require.Equal(t, "system", msgs[0].(map[string]any)["role"])

	evs = collect(t, b, secondRequest("call_Qx7"))
	require.Equal(t, llm.TextDelta, evs[0].Type)
	require.Equal(t, "The file says hi.", evs[0].Text)
	require.Equal(t, "stop", evs[len(evs)-1].Finish)
	msgs = rp.bodies[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	require.Equal(t, "tool", last["role"])
	require.Equal(t, "call_Qx7", last["tool_call_id"])
	asst := msgs[len(msgs)-2].(map[string]any)
	require.Equal(t, "call_Qx7", asst["tool_calls"].([]any)[0].(map[string]any)["id"])
}

func TestAnthropicStream(t *testing.T) {
	rp := &replay{t: t, files: []string{"anthropic_tool_use.sse", "anthropic_text.sse"}}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	p, err := NewProvider(ProviderConfig{Name: "anthropic", Type: "anthropic", BaseURL: srv.URL, APIKey: "sk-ant-test"})
	require.NoError(t, err)
	b := New(p, Options{})

	evs := collect(t, b, firstRequest())
	text, reasoning := "", ""
	var call *llm.ToolCall
	var done llm.Event
	for _, ev := range evs {
		switch ev.Type {
		case llm.TextDelta:
			text += ev.Text
		case llm.ReasoningDelta:
			reasoning += ev.Text
		case llm.ToolCallComplete:
			call = ev.ToolCall
		case llm.StreamDone:
			done = ev
		case llm.Error:
			t.Fatalf("stream error: %v", ev.Err)
		}
	}
	require.Equal(t, "The user wants the file.", reasoning)
	require.Equal(t, "Reading a.txt.", text)
	require.NotNil(t, call)
	require.Equal(t, "toolu_01T1x1fJ34qAmk2tNTrN7Up6", call.ID)
	require.JSONEq(t, `{"file_path":"a.txt"}`, string(call.Input))
	require.Equal(t, "tool-calls", done.Finish)
	require.EqualValues(t, 200, done.Usage.InputTokens)
	require.EqualValues(t, 42, done.Usage.OutputTokens)
	require.EqualValues(t, 50, done.Usage.CacheReadTokens)
	require.EqualValues(t, 10, done.Usage.CacheWriteTokens)

	require.Equal(t, "/v1/messages", rp.paths[0])
	req := rp.bodies[0]
	require.Equal(t, "m", req["model"])
	tools := req["tools"].([]any)
	require.Equal(t, "read", tools[0].(map[string]any)["name"])
	require.NotEmpty(t, req["system"])

	evs = collect(t, b, secondRequest("toolu_01T1x1fJ34qAmk2tNTrN7Up6"))
	require.Equal(t, "It says hi.", evs[0].Text)
	require.Equal(t, "stop", evs[len(evs)-1].Finish)
	msgs := rp.bodies[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	require.Equal(t, "user", last["role"])
	block := last["content"].([]any)[0].(map[string]any)
	require.Equal(t, "tool_result", block["type"])
	require.Equal(t, "toolu_01T1x1fJ34qAmk2tNTrN7Up6", block["tool_use_id"])
}

// TestRetryOnRateLimit: a 429 before any output is retried after the server's delay.
func TestRetryOnRateLimit(t *testing.T) {
	rp := &replay{t: t, files: []string{"openai_text.sse"}}
	rp.before = func(w http.ResponseWriter, n int) bool {
		if n < 2 {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("retry-after-ms", "20")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}`)
			return true
		}
		return false
	}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	p, err := NewProvider(ProviderConfig{Name: "openai", Type: "openai", BaseURL: srv.URL + "/v1", APIKey: "sk-test"})
	require.NoError(t, err)
	b := New(p, Options{BaseDelay: 10 * time.Second}) // the server's retry-after-ms wins
	start := time.Now()
	evs := collect(t, b, firstRequest())
	require.Less(t, time.Since(start), 5*time.Second)
	require.Len(t, rp.bodies, 3)
	require.Equal(t, "The file says hi.", evs[0].Text)

	// Without retries left, the error reaches the caller.
	rp.before = func(w http.ResponseWriter, n int) bool {
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached"}}`)
		return true
	}
	b = New(p, Options{MaxRetries: -1})
	evs = collect(t, b, firstRequest())
	require.Len(t, evs, 1)
	require.Equal(t, llm.Error, evs[0].Type)
	require.Error(t, evs[0].Err)
}

// TestAbortStopsStream: cancelling the context ends a stream that is still open at once.
func TestAbortStopsStream(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"partial"},"finish_reason":null}]}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	p, err := NewProvider(ProviderConfig{Name: "openai", Type: "openai", BaseURL: srv.URL + "/v1", APIKey: "k"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	var got []llm.Event
	start := time.Now()
	for ev := range New(p, Options{}).Stream(ctx, firstRequest()) {
		got = append(got, ev)
		if ev.Type == llm.TextDelta {
			cancel()
		}
	}
	cancel()
	require.Less(t, time.Since(start), 3*time.Second)
	require.Equal(t, "partial", got[0].Text)
	require.Equal(t, llm.Error, got[len(got)-1].Type)
}
