package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

// binary is the api binary built once for the tests.
var binary string

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{"services/api": &binary}))
}

func baseEnv(t *testing.T, addr string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"OPENVIBE_ADDR=" + addr,
		"OPENVIBE_DATABASE_URL=" + filepath.Join(t.TempDir(), "api.db"),
		"OPENVIBE_JWT_SECRET=binary-test-secret-binary-test-secret",
		"OPENVIBE_MIGRATE_ON_START=true",
		"OPENVIBE_LOG_FORMAT=text",
	}
}

// TestBinaryServesAndShutsDown runs the real binary: it serves health checks, the API and the
// pages over a real socket, and exits cleanly on SIGTERM.
func TestBinaryServesAndShutsDown(t *testing.T) {
	t.Parallel()
	addr := testenv.FreeAddr(t)
	cmd := exec.Command(binary, "serve")
	cmd.Env = baseEnv(t, addr)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	base := "http://" + addr
	require.Eventually(t, func() bool {
		res, err := http.Get(base + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, 15*time.Second, 50*time.Millisecond, "readyz never answered 200; logs:\n%s", &logs)

	res, err := http.Post(base+"/api/auth/register", "application/json", strings.NewReader(`{"username":"alice","password":"correct horse battery"}`))
	require.NoError(t, err)
	var s struct {
		Token string `json:"token"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&s))
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)

	req, _ := http.NewRequest(http.MethodPost, base+"/api/managed-streams", strings.NewReader(`{"slug":"camp-code","title":"Camp"}`))
	req.Header.Set("Authorization", "Bearer "+s.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)

	for path, want := range map[string]int{
		"/healthz": 200, "/metrics": 200, "/studio": 200, "/alice/camp-code": 200, "/nobody/slot": 404,
		"/api/vibe-coding/channel/alice/camp-code/events": 200, "/static/vibe.js": 200,
	} {
		res, err := http.Get(base + path)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, want, res.StatusCode, path)
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		require.NoError(t, err, "exit status after SIGTERM; logs:\n%s", &logs)
	case <-time.After(20 * time.Second):
		t.Fatalf("no exit within 20s of SIGTERM; logs:\n%s", &logs)
	}
	require.NotContains(t, logs.String(), "binary-test-secret", "the secret is never logged")
}

func TestBinaryConfig(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	cmd := exec.CommandContext(ctx, binary, "config")
	cmd.Env = baseEnv(t, "127.0.0.1:0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NotContains(t, string(out), "binary-test-secret")
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(out, &cfg))
	require.Equal(t, "[redacted]", cfg["OPENVIBE_JWT_SECRET"])
	require.EqualValues(t, 120, cfg["OPENVIBE_API_USER_WRITES_PER_MINUTE"])

	cmd = exec.CommandContext(ctx, binary, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OPENVIBE_API_USER_WRITES_PER_MINUTE=-1", "OPENVIBE_JWT_SECRET=short"}
	out, err = cmd.CombinedOutput()
	require.Error(t, err)
	for _, want := range []string{"OPENVIBE_DATABASE_URL", "OPENVIBE_JWT_SECRET", "OPENVIBE_API_USER_WRITES_PER_MINUTE"} {
		require.Contains(t, string(out), want, "every problem is reported at once")
	}
}
