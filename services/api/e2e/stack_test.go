package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/vibe/publisher"
)

var (
	sanitizerOnce sync.Once
	sanitizer     *vibe.Sanitizer
	sanitizerErr  error
)

func sharedSanitizer(t *testing.T) *vibe.Sanitizer {
	t.Helper()
	sanitizerOnce.Do(func() { sanitizer, sanitizerErr = vibe.NewSanitizer() })
	require.NoError(t, sanitizerErr)
	return sanitizer
}

// stack is the api, chat-socket and publish-gateway services on one server, as the
// standalone binary runs them.
type stack struct {
	t   *testing.T
	url string
}

func startStack(t *testing.T) *stack {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("OPENVIBE_E2E_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	st := openStore(t, filepath.Join(t.TempDir(), "e2e.db"), log)
	br := openBroker(t, log)
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte("e2e-secret-e2e-secret-e2e-secret-0123"), Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	authn := auth.NewAuthenticator(st, jwt, time.Now)
	reg := prometheus.NewRegistry()

	cfg := api.DefaultConfig()
	cfg.UserWritesPerMinute, cfg.IPWritesPerMinute, cfg.AuthAttemptsPerMinute = 0, 0, 0
	apiSvc, err := api.New(api.Deps{Store: st, Broker: br, Auth: authn, JWT: jwt, Logger: log, Registerer: reg, Config: cfg})
	require.NoError(t, err)
	chatSvc, err := chat.New(chat.Deps{Store: st, Broker: br, Auth: authn, Logger: log, Registerer: reg, Config: chat.DefaultConfig()})
	require.NoError(t, err)
	gw, err := gateway.New(gateway.Deps{Store: st, Broker: br, Auth: authn, Sanitizer: sharedSanitizer(t), Logger: log, Registerer: reg, Config: gateway.DefaultConfig()})
	require.NoError(t, err)

	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- platform.Serve(ctx, platform.ServeOptions{
			Addr: "127.0.0.1:0", Logger: log, Registry: reg,
			Services:        []platform.Service{apiSvc, chatSvc, gw},
			ShutdownTimeout: 10 * time.Second,
			OnListen:        func(a string) { addr <- a },
			Exit:            func(code int) { t.Errorf("shutdown watchdog fired (exit %d)", code) },
		})
	}()
	s := &stack{t: t}
	select {
	case a := <-addr:
		s.url = "http://" + a
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("server did not start within 10s")
	}
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
		_ = br.Close()
		_ = st.Close()
	})
	return s
}

// call performs a JSON request against the stack and decodes the answer.
func (s *stack) call(method, path, bearer string, body any, want int, out any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(s.t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	require.Equal(s.t, want, res.StatusCode, "%s %s: %s", method, path, raw)
	if out != nil {
		require.NoError(s.t, json.Unmarshal(raw, out))
	}
}

type account struct {
	ID    int64
	Name  string
	Token string
}

func (s *stack) register(name string) account {
	s.t.Helper()
	var out struct {
		User struct {
			ID int64 `json:"id"`
		} `json:"user"`
		Token string `json:"token"`
	}
	s.call(http.MethodPost, "/api/auth/register", "", map[string]string{"username": name, "password": "correct horse battery"}, http.StatusCreated, &out)
	return account{ID: out.User.ID, Name: name, Token: out.Token}
}

func (s *stack) createSlot(a account, slug string) int64 {
	s.t.Helper()
	var out struct {
		ID int64 `json:"id"`
	}
	s.call(http.MethodPost, "/api/managed-streams", a.Token, map[string]string{"slug": slug, "title": "Night Bus Refactor"}, http.StatusCreated, &out)
	return out.ID
}

func (s *stack) publishToken(a account) string {
	s.t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	s.call(http.MethodPost, "/api/tokens", a.Token, map[string]any{"name": "e2e", "scopes": []string{"vibe_coding_publish"}}, http.StatusCreated, &out)
	return out.Token
}

// publisher connects a real publisher client to the stack's gateway.
func (s *stack) publisher(token string, slotID int64) *publisher.Client {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := publisher.Dial(ctx, publisher.Config{
		Server: s.url, Token: token, ManagedStreamID: slotID, Sanitizer: sharedSanitizer(s.t),
		Publisher: vibe.Publisher{IntegrationID: "openvibe", IntegrationLabel: "openvibe agent", Vendor: "OpenVibe", ClientType: "cli", ClientName: "openvibe e2e", MachineName: "secret-box"},
	})
	require.NoError(s.t, err)
	s.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Close(ctx)
	})
	return c
}

// publish sends events and waits for each ack.
func publish(t *testing.T, c *publisher.Client, evs ...vibe.Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, ev := range evs {
		require.NoError(t, c.PublishWait(ctx, ev), "publish %s", ev.EventID)
	}
}

func prompt(id, text string) vibe.Event {
	return vibe.Event{EventID: id, EventType: vibe.TypePrompt, Summary: text, Prompt: &vibe.TextBody{Text: text}}
}

func thinking(id, text string) vibe.Event {
	return vibe.Event{EventID: id, EventType: vibe.TypeThinking, Summary: "Thinking", Thinking: &vibe.TextBody{Text: text}}
}

func response(id, text string) vibe.Event {
	return vibe.Event{EventID: id, EventType: vibe.TypeResponse, Summary: text, Response: &vibe.ResponseBody{Text: text}}
}

func toolCall(id, name string) vibe.Event {
	return vibe.Event{EventID: id, EventType: vibe.TypeToolCall, Summary: "Ran " + name, Tool: &vibe.ToolBody{Name: name, Phase: "end", ArgumentsPreview: "-n retry ./src"}}
}

func fileChange(id, path string) vibe.Event {
	return vibe.Event{EventID: id, EventType: vibe.TypeFileChange, Summary: "Editing " + path, File: &vibe.FileBody{Name: filepath.Base(path), RelativePath: path, Operation: "edit", ChangeCount: 3}}
}

// artifacts is where screenshots go: $OPENVIBE_ARTIFACTS or services/api/testdata/artifacts.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("OPENVIBE_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "testdata", "artifacts")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

func uniqueID(prefix string) string { return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()) }
