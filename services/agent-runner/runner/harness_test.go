package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/platform"

	"openvibe.live/backend/services/agent-runner/internal/llm"
	"openvibe.live/backend/services/agent-runner/internal/message"
)

// fakeAuth maps bearer tokens to principals.
type fakeAuth map[string]auth.Principal

func (f fakeAuth) Authenticate(_ context.Context, bearer string) (auth.Principal, error) {
	if p, ok := f[bearer]; ok {
		return p, nil
	}
	return auth.Principal{}, fmt.Errorf("unknown token: %w", auth.ErrUnauthenticated)
}

var testUsers = fakeAuth{
	"alice":   {UserID: 10, Username: "alice"},
	"bob":     {UserID: 20, Username: "bob"},
	"noscope": {UserID: 30, Username: "carol", TokenID: 5, Scopes: []string{"publish"}},
	"scoped":  {UserID: 30, Username: "carol", TokenID: 6, Scopes: []string{"agent"}},
}

type harness struct {
	t       *testing.T
	dbPath  string
	root    string
	backend *llm.Scripted
	env     map[string]string
	runner  *Runner
	snapDir string
	srv     *httptest.Server
}

type harnessOpts struct {
	backend *llm.Scripted
	env     map[string]string
	dbPath  string
	root    string
}

func newHarness(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	if o.dbPath == "" {
		o.dbPath = filepath.Join(t.TempDir(), "agent.db")
	}
	if o.root == "" {
		o.root = t.TempDir()
	}
	h := &harness{t: t, dbPath: o.dbPath, root: o.root, backend: o.backend, env: o.env, snapDir: t.TempDir()}
	h.start()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) getenv(k string) string { return h.env[k] }

func (h *harness) start() {
	h.t.Helper()
	d := Deps{Database: h.dbPath, Auth: testUsers, WorkspaceRoot: h.root, PerUserWorkspace: true,
		DefaultModel: "scripted/test", Getenv: h.getenv, SnapshotDir: h.snapDir, Registerer: prometheus.NewRegistry(), AllowPrivateNetwork: true}
	if h.backend != nil {
		d.Backend = h.backend
	}
	r, err := New(h.t.Context(), d)
	require.NoError(h.t, err)
	e := platform.NewEcho(nil, prometheus.NewRegistry())
	r.Register(e)
	h.runner, h.srv = r, httptest.NewServer(e)
}

func (h *harness) stop() {
	if h.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(h.t, h.runner.Shutdown(ctx))
	h.srv.CloseClientConnections()
	h.srv.Close()
	require.NoError(h.t, h.runner.Close())
	h.srv = nil
}

// restart stops the server and opens a new one on the same database.
func (h *harness) restart() {
	h.stop()
	h.start()
}

// userDir is a user's workspace directory.
func (h *harness) userDir(id int64) string { return filepath.Join(h.root, fmt.Sprint(id)) }

func (h *harness) do(token, method, path string, body any, out any) int {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(h.t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(h.t.Context(), method, h.srv.URL+path, rd)
	require.NoError(h.t, err)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err)
	if out != nil && resp.StatusCode < 300 && len(data) > 0 {
		require.NoError(h.t, json.Unmarshal(data, out), string(data))
	}
	if m, ok := out.(*map[string]any); ok && resp.StatusCode >= 300 {
		_ = json.Unmarshal(data, m)
	}
	return resp.StatusCode
}

func (h *harness) createSession(token, dir string) SessionView {
	h.t.Helper()
	var s SessionView
	code := h.do(token, "POST", "/agent/session", map[string]any{"directory": dir}, &s)
	require.Equal(h.t, http.StatusCreated, code)
	return s
}

func (h *harness) prompt(token, sessionID, text string) {
	h.t.Helper()
	var out map[string]any
	code := h.do(token, "POST", "/agent/session/"+sessionID+"/message", map[string]any{"text": text}, &out)
	require.Equal(h.t, http.StatusAccepted, code, out)
}

func (h *harness) messages(token, sessionID string) []*message.Message {
	h.t.Helper()
	var msgs []*message.Message
	require.Equal(h.t, http.StatusOK, h.do(token, "GET", "/agent/session/"+sessionID+"/message", nil, &msgs))
	return msgs
}

// sseEvent is one decoded SSE event.
type sseEvent struct {
	Type       string          `json:"type"`
	SessionID  string          `json:"session_id"`
	Properties json.RawMessage `json:"properties"`
}

// events is an SSE client collecting events in the background.
type events struct {
	t    *testing.T
	ch   chan sseEvent
	stop context.CancelFunc
	wg   sync.WaitGroup
}

func (h *harness) subscribe(token, path string) *events {
	h.t.Helper()
	ctx, cancel := context.WithCancel(h.t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", h.srv.URL+path, nil)
	require.NoError(h.t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(h.t, err)
	require.Equal(h.t, http.StatusOK, resp.StatusCode)
	ev := &events{t: h.t, ch: make(chan sseEvent, 10000), stop: cancel}
	ev.wg.Add(1)
	go func() {
		defer ev.wg.Done()
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := sc.Text()
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var e sseEvent
				if json.Unmarshal([]byte(data), &e) == nil {
					ev.ch <- e
				}
			}
		}
	}()
	first := ev.next(func(e sseEvent) bool { return e.Type == "server.connected" })
	require.Equal(h.t, "server.connected", first.Type)
	h.t.Cleanup(ev.close)
	return ev
}

func (ev *events) close() {
	ev.stop()
	ev.wg.Wait()
}

// next returns the next event matching pred, failing after 10s.
func (ev *events) next(pred func(sseEvent) bool) sseEvent {
	ev.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-ev.ch:
			if pred(e) {
				return e
			}
		case <-timeout:
			ev.t.Fatalf("timed out waiting for an event")
			return sseEvent{}
		}
	}
}

func ofType(typ string) func(sseEvent) bool { return func(e sseEvent) bool { return e.Type == typ } }

// asked waits for the next permission request and decodes it.
func (ev *events) asked() map[string]any {
	ev.t.Helper()
	e := ev.next(ofType("permission.asked"))
	var req map[string]any
	require.NoError(ev.t, json.Unmarshal(e.Properties, &req))
	return req
}

// idle waits for the session to go idle and returns the status properties.
func (ev *events) idle(sessionID string) map[string]any {
	ev.t.Helper()
	for {
		e := ev.next(func(e sseEvent) bool { return e.Type == "session.status" && e.SessionID == sessionID })
		var props map[string]any
		require.NoError(ev.t, json.Unmarshal(e.Properties, &props))
		if props["status"] == "idle" {
			return props
		}
	}
}

func (h *harness) reply(token, requestID, decision string, remember bool) int {
	h.t.Helper()
	return h.do(token, "POST", "/agent/permission/reply",
		map[string]any{"request_id": requestID, "decision": decision, "remember": remember}, nil)
}

// toolResults returns the tool results the model was sent in request i.
func toolResults(req llm.Request) []llm.Part {
	var out []llm.Part
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.Kind == llm.PartToolResult {
				out = append(out, p)
			}
		}
	}
	return out
}

// requireDead fails unless the process whose PID is in pidFile is gone.
func requireDead(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			return true
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		return len(fields) > 0 && fields[0] == "Z" // a zombie not yet reaped by init
	}, 3*time.Second, 20*time.Millisecond, "process %d is still alive", pid)
}

// waitIdle waits until the session's turn has ended.
func (h *harness) waitIdle(token, sessionID string) {
	h.t.Helper()
	require.Eventually(h.t, func() bool {
		var s SessionView
		return h.do(token, "GET", "/agent/session/"+sessionID, nil, &s) == http.StatusOK && !s.Busy
	}, 20*time.Second, 10*time.Millisecond)
}
