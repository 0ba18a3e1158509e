package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

// The end-to-end tests build the real binary once and drive it over real sockets.
var gatewayBin string

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{"services/publish-gateway": &gatewayBin}))
}

const jwtSecret = "e2e-secret-0123456789abcdef0123456789"

// gatewayProc is one running gateway process.
type gatewayProc struct {
	cmd  *exec.Cmd
	url  string
	done chan error
	logs *testenv.Buffer
}

// startGateway runs the binary on a free loopback port with the given extra environment
// and waits until it listens.
func startGateway(t *testing.T, dbURL string, extra ...string) *gatewayProc {
	t.Helper()
	cmd := exec.Command(gatewayBin, "serve")
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"OPENVIBE_ADDR=127.0.0.1:0",
		"OPENVIBE_DATABASE_URL=" + dbURL,
		"OPENVIBE_JWT_SECRET=" + jwtSecret,
		"OPENVIBE_LOG_FORMAT=json",
		"OPENVIBE_LOG_LEVEL=info",
		"OPENVIBE_MIGRATE_ON_START=true",
		"OPENVIBE_SHUTDOWN_TIMEOUT=15s",
	}, extra...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &gatewayProc{cmd: cmd, done: make(chan error, 1), logs: &testenv.Buffer{}}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(p.logs, line)
			var rec struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "server listening" {
				addr <- rec.Addr
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-p.done
			}
		}
		if t.Failed() {
			t.Logf("gateway log:\n%s", p.logs.String())
		}
	})
	select {
	case a := <-addr:
		p.url = "http://" + a
	case err := <-p.done:
		t.Fatalf("gateway exited before listening: %v\n%s", err, p.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("gateway did not start\n%s", p.logs.String())
	}
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *gatewayProc) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-p.done:
		require.NoError(t, err, "clean exit after SIGTERM\n%s", p.logs.String())
	case <-time.After(30 * time.Second):
		t.Fatal("gateway did not stop after SIGTERM")
	}
}

// fixture is a user with a publish token and the seed's slot.
type fixture struct {
	st    store.Store
	user  store.User
	token string
	slot  store.ManagedStream
	live  int64
}

func newFixture(t *testing.T, dbURL string, live bool, scopes ...string) *fixture {
	t.Helper()
	ctx := t.Context()
	st, err := stores.Open(ctx, dbURL, stores.Options{Migrate: true, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	u, err := st.CreateUser(ctx, "streamer", "x")
	require.NoError(t, err)
	if len(scopes) == 0 {
		scopes = []string{store.ScopeVibeCodingPublish}
	}
	tok, hash, hint, err := auth.NewAPIToken()
	require.NoError(t, err)
	_, err = st.CreateAPIToken(ctx, store.APIToken{UserID: u.ID, Name: "e2e", Hash: hash, Hint: hint, Scopes: scopes})
	require.NoError(t, err)
	bs, err := vibe.BroadcastWithSettings(json.RawMessage(`{}`), vibe.DefaultSettings())
	require.NoError(t, err)
	ms, err := st.CreateManagedStream(ctx, u.ID, "camp-code", "Night Bus Refactor", bs)
	require.NoError(t, err)
	f := &fixture{st: st, user: u, token: tok, slot: ms}
	if live {
		ls, _, err := st.StartLiveStream(ctx, ms.ID, time.Now())
		require.NoError(t, err)
		f.live = ls.ID
	}
	return f
}

func (f *fixture) token2(t *testing.T, scopes ...string) string {
	t.Helper()
	tok, hash, hint, err := auth.NewAPIToken()
	require.NoError(t, err)
	_, err = f.st.CreateAPIToken(t.Context(), store.APIToken{UserID: f.user.ID, Name: "e2e", Hash: hash, Hint: hint, Scopes: scopes})
	require.NoError(t, err)
	return tok
}

func sqliteURL(t *testing.T) string { return filepath.Join(t.TempDir(), "openvibe.db") }

// databases runs fn against SQLite, and against PostgreSQL when one is available.
func databases(t *testing.T, fn func(t *testing.T, dbURL string)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, sqliteURL(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, testenv.Postgres(t)) })
}

func timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
