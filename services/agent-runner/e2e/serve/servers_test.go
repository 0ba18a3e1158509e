// Package serve drives the real `openvibe serve` and `agent-runner serve` processes over
// HTTP, with an OpenAI-compatible provider scripted by each test and MCP servers on the
// official SDK: permissions, the sandbox, configuration and the API as a user meets them.
package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
)

var openvibeBin, runnerBin, fixtureBin string

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{
		"services/agent-runner/cmd/openvibe":         &openvibeBin,
		"services/agent-runner":                      &runnerBin,
		"services/agent-runner/e2e/serve/mcpfixture": &fixtureBin,
	}))
}

// writeJSON writes v as JSON to path, creating its directory.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	writeFile(t, path, string(b))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// project makes a git project directory (a .git folder) under parent.
func project(t *testing.T, parent, name string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	return dir
}

// openvibe is a running `openvibe serve`: one local user, a password, a HOME of its own.
type openvibe struct {
	*testenv.Process
	home     string
	password string
}

// startOpenvibe runs `openvibe serve` with global as ~/.config/openvibe/openvibe.json.
func startOpenvibe(t *testing.T, global map[string]any, env ...string) *openvibe {
	t.Helper()
	home := t.TempDir()
	if global != nil {
		writeJSON(t, filepath.Join(home, ".config", "openvibe", "openvibe.json"), global)
	}
	o := &openvibe{home: home, password: "local-password-0123456789"}
	vars := append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENVIBE_SERVER_PASSWORD=" + o.password,
		"OPENVIBE_DB=" + filepath.Join(home, "state", "openvibe.db"), "OPENVIBE_SNAPSHOT_DIR=" + filepath.Join(home, "snapshots")}, env...)
	o.Process = testenv.StartProcess(t, "openvibe", openvibeBin, vars)
	return o
}

func (o *openvibe) client(t *testing.T) *client {
	return &client{t: t, base: o.URL(), auth: bearer(o.password)}
}

// service is a running `agent-runner serve` for platform users, with its data directory
// outside /tmp (the sandbox hides /tmp, so a test of what it hides must look elsewhere).
type service struct {
	*testenv.Process
	t     *testing.T
	data  string
	store store.Store
	jwt   *auth.JWT
}

const jwtSecret = "e2e-jwt-secret-e2e-jwt-secret-e2e-jwt-0123"

// dataDir makes a directory outside /tmp, removed when the test ends.
func dataDir(t *testing.T) string {
	t.Helper()
	base := "/var/tmp"
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		base, err = os.UserCacheDir()
		require.NoError(t, err)
	}
	dir, err := os.MkdirTemp(base, "openvibe-e2e-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.False(t, strings.HasPrefix(dir, "/tmp/"), "the data directory must be outside /tmp")
	return dir
}

// startService runs `agent-runner serve` with global as its openvibe.json; the JWT secret is
// a file in the data directory, as the standalone server keeps it.
func startService(t *testing.T, global map[string]any, env ...string) *service {
	t.Helper()
	data := dataDir(t)
	writeFile(t, filepath.Join(data, "jwt-secret"), jwtSecret)
	require.NoError(t, os.Chmod(filepath.Join(data, "jwt-secret"), 0o600))
	writeJSON(t, filepath.Join(data, "openvibe.json"), global)
	platformDB := filepath.Join(data, "openvibe.db")
	ctx := t.Context()
	st, err := stores.Open(ctx, platformDB, stores.Options{Migrate: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(jwtSecret), Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	vars := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(data, "home"),
		"OPENVIBE_DATABASE_URL=" + platformDB, "OPENVIBE_JWT_SECRET_FILE=" + filepath.Join(data, "jwt-secret"),
		"OPENVIBE_AGENT_DATABASE=" + filepath.Join(data, "agent.db"),
		"OPENVIBE_AGENT_WORKSPACE_ROOT=" + filepath.Join(data, "workspaces"),
		"OPENVIBE_AGENT_SNAPSHOT_DIR=" + filepath.Join(data, "snapshots"),
		"OPENVIBE_AGENT_CONFIG=" + filepath.Join(data, "openvibe.json"), "OPENVIBE_LOG_LEVEL=debug"}, env...)
	p := testenv.StartProcess(t, "agent-runner", runnerBin, vars)
	return &service{Process: p, t: t, data: data, store: st, jwt: jwt}
}

// user creates a platform user and returns its ID and a session token (a JWT).
func (s *service) user(name string) (int64, string) {
	s.t.Helper()
	u, err := s.store.CreateUser(context.Background(), name, "unused-hash")
	require.NoError(s.t, err)
	tok, _, err := s.jwt.Issue(u.ID, u.Username, time.Now())
	require.NoError(s.t, err)
	return u.ID, tok
}

// workspace is a user's workspace directory on the server.
func (s *service) workspace(id int64) string {
	return filepath.Join(s.data, "workspaces", fmt.Sprint(id))
}

func (s *service) client(t *testing.T, token string) *client {
	return &client{t: t, base: s.URL(), auth: bearer(token)}
}

// config is an openvibe.json using the test's provider as the default model.
func config(p *provider, more map[string]any) map[string]any {
	c := map[string]any{"model": "fake/m", "provider": p.entry()}
	for k, v := range more {
		c[k] = v
	}
	return c
}

// allowAll is a permission list that lets every tool run.
var allowAll = []any{map[string]any{"tool": "*", "action": "allow"}}
