package platform

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	demoDir   string
	buildDemo = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "platform-demo-")
		if err != nil {
			return "", err
		}
		demoDir = dir
		bin := filepath.Join(dir, "demo")
		out, err := exec.Command("go", "build", "-o", bin, "./testdata/demo").CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go build: %w\n%s", err, out)
		}
		return bin, nil
	})
)

// demoBinary builds testdata/demo, a binary wired like the services, once per test run.
func demoBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin, err := buildDemo()
	require.NoError(t, err)
	return bin
}

// TestProcessLifecycle runs the demo binary as a real process: it serves, answers the
// healthcheck subcommand from a second process, and on SIGTERM shuts down in order and exits 0.
func TestProcessLifecycle(t *testing.T) {
	t.Parallel()
	bin := demoBinary(t)

	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--log-format", "text")
	cmd.Env = append(os.Environ(), "DEMO_SECRET=s", "OPENVIBE_DRAIN_DELAY=100ms")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	addr := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))

	code, body := get(t, "http://"+addr+"/hello")
	require.Equal(t, 200, code)
	require.Equal(t, "hello", body)

	hc := exec.Command(bin, "healthcheck")
	hc.Env = append(os.Environ(), "DEMO_SECRET=s", "OPENVIBE_ADDR="+addr)
	out, err := hc.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "ok\n", string(out))

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "exit status after SIGTERM; logs:\n%s", logs)
	case <-time.After(10 * time.Second):
		t.Fatalf("no exit after SIGTERM; logs:\n%s", logs)
	}
	l := logs.String()
	iShutdown := strings.Index(l, "shutting down")
	iService := strings.Index(l, "demo service shutdown")
	iDone := strings.Index(l, "shutdown complete")
	require.True(t, iShutdown >= 0 && iShutdown < iService && iService < iDone, "shutdown order in logs:\n%s", l)

	hc = exec.Command(bin, "healthcheck")
	hc.Env = append(os.Environ(), "DEMO_SECRET=s", "OPENVIBE_ADDR="+addr)
	out, err = hc.CombinedOutput()
	require.Error(t, err, "healthcheck fails once the server is gone: %s", out)
}

func TestProcessRejectsBadConfig(t *testing.T) {
	t.Parallel()
	bin := demoBinary(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OPENVIBE_ADDR=bad", "OPENVIBE_LOG_LEVEL=loud")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr)
	require.Equal(t, 1, exitErr.ExitCode())
	for _, want := range []string{"DEMO_SECRET", "OPENVIBE_ADDR", "OPENVIBE_LOG_LEVEL"} {
		require.Contains(t, string(out), want)
	}
}
