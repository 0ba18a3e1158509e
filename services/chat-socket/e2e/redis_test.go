package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

// redisServer is a private redis-server process: pub/sub channels are global to a server,
// so each test gets its own rather than sharing one with other packages' tests.
type redisServer struct {
	t    *testing.T
	port string
	url  string
	dir  string
	cmd  *exec.Cmd
}

func newRedis(t *testing.T) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if testenv.RequireServices() {
			t.Fatal("redis-server is required (REQUIRE_SERVICES=1) but not on PATH")
		}
		t.Skip("redis-server not on PATH")
	}
	_, port, _ := net.SplitHostPort(testenv.FreeAddr(t))
	r := &redisServer{t: t, port: port, url: "redis://127.0.0.1:" + port + "/0", dir: t.TempDir()}
	r.start()
	t.Cleanup(r.kill)
	return r
}

func (r *redisServer) start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", r.port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", r.dir)
	r.cmd.Stdout, r.cmd.Stderr = nil, os.Stderr
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the test
	require.NoError(r.t, r.cmd.Start())
	for range 100 {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+r.port, 100*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("redis-server on port %s did not start", r.port)
}

// kill stops the server abruptly (SIGKILL), as a crash would.
func (r *redisServer) kill() {
	if r.cmd == nil || r.cmd.ProcessState != nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
}

func (r *redisServer) String() string { return fmt.Sprintf("redis on %s", r.port) }
