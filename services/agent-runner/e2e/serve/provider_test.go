package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// provider is an OpenAI-compatible chat-completions server that streams, for each request,
// the reply its test scripted: the runner reaches it as a configured "openai-compatible"
// provider by base URL, as a user's llama.cpp or vLLM would be.
type provider struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	queue   []reply
	decide  func(req chatRequest) (reply, bool) // consulted first when set
	reqs    []chatRequest
	spilled int // requests answered after the script ran out
	// models is what GET /v1/models lists; listed counts those requests.
	models []string
	listed int
}

// reply is one model answer: text, then tool calls.
type reply struct {
	Text  string
	Calls []call
	Delay time.Duration // before the first chunk
	// Usage reported for the request (prompt and completion tokens).
	In, Out int
}

type call struct {
	Name string
	Args any
}

// chatRequest is what the runner sent.
type chatRequest struct {
	Model    string        `json:"model"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

// text is the message's content as plain text (a string, or the text of its parts).
func (m chatMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	out := ""
	for _, p := range parts {
		out += p.Text
	}
	return out
}

// ToolNames lists the tools offered to the model in the request.
func (r chatRequest) ToolNames() []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	slices.Sort(out)
	return out
}

// ToolResults are the contents of the tool messages in the request, in order.
func (r chatRequest) ToolResults() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role == "tool" {
			out = append(out, m.text())
		}
	}
	return out
}

// LastUser is the text of the request's last user message.
func (r chatRequest) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].text()
		}
	}
	return ""
}

func newProvider(t *testing.T) *provider {
	p := &provider{t: t, models: []string{"m", "big-model"}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

// script queues replies, answered in order.
func (p *provider) script(rs ...reply) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queue = append(p.queue, rs...)
}

// listCalls is how many times the model list was asked for.
func (p *provider) listCalls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.listed
}

// requests returns what the runner sent so far.
func (p *provider) requests() []chatRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reqs)
}

// entry is the provider's "provider" entry for openvibe.json, with a model "m" whose
// prices are 1 and 2 dollars per million tokens.
func (p *provider) entry() map[string]any {
	return map[string]any{"fake": map[string]any{"type": "openai-compatible", "base_url": p.srv.URL + "/v1",
		"api_key": "sk-test", "models": map[string]any{"m": map[string]any{"cost": map[string]any{"input": 1, "output": 2}}}}}
}

func (p *provider) next(req chatRequest) reply {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reqs = append(p.reqs, req)
	if p.decide != nil {
		if r, ok := p.decide(req); ok {
			return r
		}
	}
	if len(p.queue) == 0 {
		p.spilled++
		return reply{Text: "(the script has no more replies)"}
	}
	r := p.queue[0]
	p.queue = p.queue[1:]
	return r
}

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
		p.mu.Lock()
		p.listed++
		var data []any
		for _, m := range p.models {
			data = append(data, map[string]any{"id": m, "object": "model", "owned_by": "test"})
		}
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	rep := p.next(req)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1764400000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if rep.Text != "" {
		send(chunk(map[string]any{"content": rep.Text}, nil))
	}
	for i, c := range rep.Calls {
		args, _ := json.Marshal(c.Args)
		if c.Args == nil {
			args = []byte("{}")
		}
		send(chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": fmt.Sprintf("call_%d_%d", len(p.requests()), i),
			"type": "function", "function": map[string]any{"name": c.Name, "arguments": string(args)}}}}, nil))
	}
	finish := "stop"
	if len(rep.Calls) > 0 {
		finish = "tool_calls"
	}
	send(chunk(map[string]any{}, finish))
	in, out := rep.In, rep.Out
	if in == 0 && out == 0 {
		in, out = 100, 10
	}
	send(map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1764400000, "model": req.Model,
		"choices": []any{}, "usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}
