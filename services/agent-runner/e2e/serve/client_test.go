package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// client speaks the agent API of a running server as one caller.
type client struct {
	t    *testing.T
	base string // http://host:port
	// auth puts the caller's credential on a request.
	auth func(*http.Request)
}

func bearer(token string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
}

// send makes a request and returns the status and body.
func (c *client) send(method, path string, body any, edit ...func(*http.Request)) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(c.t, err)
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(c.t.Context(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	require.NoError(c.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.auth != nil {
		c.auth(req)
	}
	for _, f := range edit {
		f(req)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(c.t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(c.t, err)
	return res.StatusCode, data
}

// call makes a request, requires the status and decodes the body into out (when not nil).
func (c *client) call(method, path string, body any, want int, out any) {
	c.t.Helper()
	code, data := c.send(method, path, body)
	require.Equal(c.t, want, code, "%s %s: %s", method, path, data)
	if out != nil {
		require.NoError(c.t, json.Unmarshal(data, out), string(data))
	}
}

// apiError is the error of a refused request.
func apiError(t *testing.T, data []byte) string {
	t.Helper()
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(data, &e), string(data))
	if e.Error == "" {
		return e.Message
	}
	return e.Error
}

type session struct {
	ID        string `json:"id"`
	ProjectID string `json:"project_id"`
	Directory string `json:"directory"`
	Agent     string `json:"agent"`
	Busy      bool   `json:"busy"`
}

func (c *client) createSession(dir string, agent ...string) session {
	c.t.Helper()
	body := map[string]any{"directory": dir}
	if len(agent) > 0 {
		body["agent"] = agent[0]
	}
	var s session
	c.call(http.MethodPost, "/agent/session", body, http.StatusCreated, &s)
	return s
}

// prompt starts a turn and returns the stored user message's ID.
func (c *client) prompt(sessionID, text string, extra ...map[string]any) string {
	c.t.Helper()
	body := map[string]any{"text": text}
	for _, e := range extra {
		for k, v := range e {
			body[k] = v
		}
	}
	var out struct {
		Message struct {
			ID string `json:"id"`
		} `json:"message"`
	}
	c.call(http.MethodPost, "/agent/session/"+sessionID+"/message", body, http.StatusAccepted, &out)
	return out.Message.ID
}

// turn runs a whole turn (wait: true) and returns the error it reported, if any.
func (c *client) turn(sessionID, text string) string {
	c.t.Helper()
	var out struct {
		Error string `json:"error"`
	}
	c.call(http.MethodPost, "/agent/session/"+sessionID+"/message", map[string]any{"text": text, "wait": true}, http.StatusOK, &out)
	return out.Error
}

func (c *client) messages(sessionID string) []*message.Message {
	c.t.Helper()
	var msgs []*message.Message
	c.call(http.MethodGet, "/agent/session/"+sessionID+"/message", nil, http.StatusOK, &msgs)
	return msgs
}

// toolParts are the session's tool calls, in order.
func (c *client) toolParts(sessionID string) []*message.ToolPart {
	c.t.Helper()
	var out []*message.ToolPart
	for _, m := range c.messages(sessionID) {
		out = append(out, m.ToolParts()...)
	}
	return out
}

// reply answers a permission request.
func (c *client) reply(requestID, decision string, remember bool) {
	c.t.Helper()
	c.call(http.MethodPost, "/agent/permission/reply", map[string]any{"request_id": requestID, "decision": decision,
		"remember": remember}, http.StatusOK, nil)
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	ID         string          `json:"-"`
	Type       string          `json:"type"`
	SessionID  string          `json:"session_id"`
	Properties json.RawMessage `json:"properties"`
}

func (e sseEvent) props(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(e.Properties, &m), string(e.Properties))
	return m
}

// stream is an open SSE connection read in the background.
type stream struct {
	t      *testing.T
	ch     chan sseEvent
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// events opens an SSE stream (path with its query) and returns it once it answered 200.
func (c *client) events(path string, header ...http.Header) *stream {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	require.NoError(c.t, err)
	if c.auth != nil {
		c.auth(req)
	}
	for _, h := range header {
		for k, v := range h {
			req.Header[k] = v
		}
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(c.t, err)
	require.Equal(c.t, http.StatusOK, res.StatusCode)
	s := &stream{t: c.t, ch: make(chan sseEvent, 10000), cancel: cancel}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(s.ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Type != "" {
					s.ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				id := ev.ID
				_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev)
				ev.ID = id
			}
		}
	}()
	c.t.Cleanup(s.close)
	return s
}

func (s *stream) close() {
	s.cancel()
	s.wg.Wait()
}

// next returns the next event that satisfies pred, failing after 30 s.
func (s *stream) next(pred func(sseEvent) bool) sseEvent {
	s.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e, ok := <-s.ch:
			require.True(s.t, ok, "the event stream ended")
			if pred(e) {
				return e
			}
		case <-timeout:
			s.t.Fatal("timed out waiting for an event")
			return sseEvent{}
		}
	}
}

func ofType(typ string) func(sseEvent) bool { return func(e sseEvent) bool { return e.Type == typ } }

// asked waits for the next permission request.
func (s *stream) asked() map[string]any {
	s.t.Helper()
	return s.next(ofType("permission.asked")).props(s.t)
}

// idle waits until the session's turn ended and returns the status properties.
func (s *stream) idle(sessionID string) map[string]any {
	s.t.Helper()
	for {
		e := s.next(func(e sseEvent) bool { return e.Type == "session.status" && e.SessionID == sessionID })
		if p := e.props(s.t); p["status"] == "idle" {
			return p
		}
	}
}

// askOrIdle waits for the session to ask for permission (returning the request) or to end
// its turn (returning nil).
func (s *stream) askOrIdle(sessionID string) map[string]any {
	s.t.Helper()
	for {
		e := s.next(func(e sseEvent) bool {
			return e.SessionID == sessionID && (e.Type == "permission.asked" || e.Type == "session.status")
		})
		p := e.props(s.t)
		if e.Type == "permission.asked" {
			return p
		}
		if p["status"] == "idle" {
			return nil
		}
	}
}

// until collects events up to and including the first that satisfies pred.
func (s *stream) until(pred func(sseEvent) bool) []sseEvent {
	s.t.Helper()
	var out []sseEvent
	for {
		e := s.next(func(sseEvent) bool { return true })
		out = append(out, e)
		if pred(e) {
			return out
		}
	}
}

// idleOf matches the status event that ends a turn of sessionID.
func idleOf(t *testing.T, sessionID string) func(sseEvent) bool {
	return func(e sseEvent) bool {
		return e.Type == "session.status" && e.SessionID == sessionID && e.props(t)["status"] == "idle"
	}
}

// ids are the events' IDs, server.connected (which has none) left out.
func ids(evs []sseEvent) []string {
	var out []string
	for _, e := range evs {
		if e.Type != "server.connected" {
			out = append(out, e.ID)
		}
	}
	return out
}
