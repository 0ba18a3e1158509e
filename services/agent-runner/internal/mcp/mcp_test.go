package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/services/agent-runner/internal/tool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type echoOut struct {
	Echo string `json:"echo"`
}

// fakeServers runs an in-process go-sdk server for every connection the manager makes, and
// lets the test crash the current one.
type fakeServers struct {
	mu       sync.Mutex
	sessions []*sdk.ServerSession
	hang     chan struct{}
	connects atomic.Int32
	refuse   atomic.Bool
}

func (f *fakeServers) newServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1.2.3"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo text back",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, echoOut, error) {
			return nil, echoOut{Echo: in.Text}, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "fail", Description: "Always fails"},
		func(_ context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such thing"}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "slow.op", Description: "Hangs until released"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			select {
			case <-ctx.Done():
			case <-f.hang:
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil, nil
		})
	return srv
}

func (f *fakeServers) transport(ctx context.Context) func(string, ServerConfig) (sdk.Transport, error) {
	return func(string, ServerConfig) (sdk.Transport, error) {
		if f.refuse.Load() {
			return nil, errors.New("refused")
		}
		ct, st := sdk.NewInMemoryTransports()
		ss, err := f.newServer().Connect(ctx, st, nil)
		if err != nil {
			return nil, err
		}
		f.connects.Add(1)
		f.mu.Lock()
		f.sessions = append(f.sessions, ss)
		f.mu.Unlock()
		return ct, nil
	}
}

func (f *fakeServers) crash() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.sessions {
		_ = s.Close()
	}
	f.sessions = nil
}

func call(t *testing.T, reg *tool.Registry, name, args string) (tool.Result, error) {
	t.Helper()
	tl, ok := reg.Get(name)
	require.True(t, ok, "tool %s registered", name)
	return tl.Run(t.Context(), &tool.Context{}, json.RawMessage(args))
}

func waitState(t *testing.T, m *Manager, state string, tools int) Status {
	t.Helper()
	var st Status
	require.Eventually(t, func() bool {
		st = m.Status()[0]
		return st.State == state && len(st.Tools) == tools
	}, 10*time.Second, 10*time.Millisecond, "want %s with %d tools", state, tools)
	return st
}

func TestInProcessServerToolsCrashAndReconnect(t *testing.T) {
	srvCtx, stopSrv := context.WithCancel(context.Background())
	defer stopSrv()
	f := &fakeServers{hang: make(chan struct{})}
	reg, err := tool.NewRegistry()
	require.NoError(t, err)
	m, err := New(Options{
		Servers:    map[string]ServerConfig{"fake-1": {Type: TypeLocal, Command: []string{"unused"}, Timeout: 300}},
		Registry:   reg,
		BackoffMin: 20 * time.Millisecond, BackoffMax: 100 * time.Millisecond,
		Transport: f.transport(srvCtx),
	})
	require.NoError(t, err)
	m.Start(t.Context(), 5*time.Second)
	defer m.Close()

	st := waitState(t, m, StateConnected, 3)
	require.Equal(t, []string{"fake-1_echo", "fake-1_fail", "fake-1_slow_op"}, st.Tools)
	require.Equal(t, "fake", st.ServerName)
	echo, _ := reg.Get("fake-1_echo")
	require.Equal(t, tool.KindRead, echo.Kind())
	require.Equal(t, "object", echo.Schema()["type"])
	require.Contains(t, echo.Schema()["properties"], "text")
	slow, _ := reg.Get("fake-1_slow_op")
	require.Equal(t, tool.KindExecute, slow.Kind())

	res, err := call(t, reg, "fake-1_echo", `{"text":"hi"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"echo":"hi"}`, res.Output)

	_, err = call(t, reg, "fake-1_fail", `{}`)
	require.Error(t, err)
	require.True(t, tool.IsInputError(err))
	require.Contains(t, err.Error(), "no such thing")

	// The server crashes: its tools go away, the failure is reported, and it comes back.
	f.crash()
	require.Eventually(t, func() bool { _, ok := reg.Get("fake-1_echo"); return !ok || f.connects.Load() >= 2 }, 5*time.Second, 5*time.Millisecond)
	st = waitState(t, m, StateConnected, 3)
	require.GreaterOrEqual(t, st.Connects, 2)
	require.GreaterOrEqual(t, st.Failures, 1)
	res, err = call(t, reg, "fake-1_echo", `{"text":"again"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"echo":"again"}`, res.Output)

	// A call that times out fails for the model and restarts the server.
	before := f.connects.Load()
	_, err = call(t, reg, "fake-1_slow_op", `{}`)
	require.ErrorContains(t, err, "did not answer")
	require.Eventually(t, func() bool { return f.connects.Load() > before }, 5*time.Second, 5*time.Millisecond)
	waitState(t, m, StateConnected, 3)
	close(f.hang)
}

func TestServerThatNeverStartsIsReported(t *testing.T) {
	reg, err := tool.NewRegistry()
	require.NoError(t, err)
	m, err := New(Options{
		Servers: map[string]ServerConfig{
			"missing": {Type: TypeLocal, Command: []string{filepath.Join(t.TempDir(), "no-such-binary")}},
			"off":     {Type: TypeLocal, Command: []string{"x"}, Enabled: new(false)},
		},
		Registry:   reg,
		BackoffMin: 10 * time.Millisecond, BackoffMax: 20 * time.Millisecond,
	})
	require.NoError(t, err)
	m.Start(t.Context(), 5*time.Second)
	defer m.Close()
	require.Eventually(t, func() bool {
		st := m.Status()
		return st[0].Name == "missing" && st[0].State == StateFailed && st[0].Failures >= 2 && st[0].Error != ""
	}, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, StateDisabled, m.Status()[1].State)
	require.Empty(t, reg.All())
}

func TestConfigValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  ServerConfig
		err  string
	}{
		{"ok", ServerConfig{Type: TypeLocal, Command: []string{"node"}}, ""},
		{"ok", ServerConfig{Type: TypeRemote, URL: "https://x/mcp", Transport: TransportSSE}, ""},
		{"bad name!", ServerConfig{Type: TypeLocal, Command: []string{"node"}}, "server name"},
		{"x", ServerConfig{Type: TypeLocal}, "mcp.x.command"},
		{"x", ServerConfig{Type: TypeRemote, URL: "ftp://x"}, "mcp.x.url"},
		{"x", ServerConfig{Type: TypeRemote, URL: "http://x", Transport: "ws"}, "mcp.x.transport"},
		{"x", ServerConfig{Type: "docker"}, "mcp.x.type"},
	} {
		err := tc.cfg.Validate(tc.name)
		if tc.err == "" {
			require.NoError(t, err)
		} else {
			require.ErrorContains(t, err, tc.err)
		}
	}
	require.Equal(t, "git_hub_search_issues", ToolName("git hub", "search.issues"))
	require.Len(t, ToolName(strings.Repeat("s", 32), strings.Repeat("t", 60)), 64)
}

// everythingServer installs @modelcontextprotocol/server-everything (the reference server
// written by the MCP maintainers) with npm into a cache directory and returns its entry point.
func everythingServer(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("OPENVIBE_TEST_NPM_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "openvibe-test-npm")
	}
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("REQUIRE_SERVICES") != "" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node not installed: %v", err)
	}
	if _, err := os.Stat(entry); err == nil {
		return entry
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", dir,
		"@modelcontextprotocol/server-everything").CombinedOutput()
	if err != nil {
		skip("npm install @modelcontextprotocol/server-everything: %v\n%s", err, out)
	}
	return entry
}

func TestReferenceServerEverythingOverStdio(t *testing.T) {
	entry := everythingServer(t)
	reg, err := tool.NewRegistry()
	require.NoError(t, err)
	m, err := New(Options{
		Servers:  map[string]ServerConfig{"everything": {Type: TypeLocal, Command: []string{"node", entry}, Args: []string{"stdio"}, Timeout: 20000}},
		Registry: reg,
	})
	require.NoError(t, err)
	m.Start(t.Context(), 30*time.Second)
	defer m.Close()
	st := m.Status()[0]
	require.Equal(t, StateConnected, st.State, "error: %s", st.Error)
	require.Contains(t, st.Tools, "everything_echo")
	require.Contains(t, st.Tools, "everything_get-sum")

	echo, ok := reg.Get("everything_echo")
	require.True(t, ok)
	require.Contains(t, echo.Schema()["properties"], "message")
	res, err := echo.Run(t.Context(), &tool.Context{}, json.RawMessage(`{"message":"hello from openvibe"}`))
	require.NoError(t, err)
	require.Contains(t, res.Output, "hello from openvibe")

	sum, _ := reg.Get("everything_get-sum")
	res, err = sum.Run(t.Context(), &tool.Context{}, json.RawMessage(`{"a":2,"b":40}`))
	require.NoError(t, err)
	require.Contains(t, res.Output, "42")

	// Bad arguments come back as a tool error the model can read, not a crash.
	_, err = sum.Run(t.Context(), &tool.Context{}, json.RawMessage(`{"a":"two"}`))
	require.Error(t, err)
	require.Equal(t, StateConnected, m.Status()[0].State)
}
