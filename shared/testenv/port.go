package testenv

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Ports handed to child processes are chosen below the kernel's ephemeral range, so that
// neither a bind to port 0 nor an outgoing connection (a test's own client sockets) can take
// one between the moment it is chosen and the moment the child binds it. Each port is also
// reserved with a lock file for the rest of the test, so that test binaries running side by
// side (go test runs packages in parallel) never hand out the same one; the lock goes with
// the process, so a crashed test leaves nothing reserved.
const (
	portLow     = 10000 // the bottom of the range ports are drawn from
	portTries   = 200
	portLockDir = "openvibe-test-ports"
)

// FreePort returns a loopback TCP port that is free now and stays reserved for this test
// until it ends, for a child process (a service, PostgreSQL, Redis) to listen on. Restarting
// that child on the same port during the test is safe: nothing else is handed the port.
func FreePort(t testing.TB) int {
	t.Helper()
	port, release, err := reservePort()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	t.Cleanup(release)
	return port
}

// FreeAddr is FreePort as a "127.0.0.1:port" address.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return "127.0.0.1:" + strconv.Itoa(FreePort(t))
}

func reservePort() (int, func(), error) {
	hi := ephemeralLow() - 1
	if hi <= portLow {
		return 0, nil, fmt.Errorf("no ports below the ephemeral range (it starts at %d)", hi+1)
	}
	dir := filepath.Join(os.TempDir(), portLockDir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return 0, nil, err
	}
	_ = os.Chmod(dir, 0o777) // shared by every user that runs tests here
	for range portTries {
		port := portLow + rand.IntN(hi-portLow+1)
		release, ok := lockPort(dir, port)
		if !ok {
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			release() // something outside the tests listens there
			continue
		}
		_ = l.Close()
		return port, release, nil
	}
	return 0, nil, errors.New("no free loopback port after " + strconv.Itoa(portTries) + " tries")
}

// lockPort takes the port's lock file without waiting.
func lockPort(dir string, port int) (func(), bool) {
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)+".lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return nil, false
	}
	return func() { _ = f.Close() }, true
}

// ephemeralLow is the first port of the kernel's ephemeral range (32768 when it cannot be
// read, the usual Linux default).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if fields := strings.Fields(string(b)); len(fields) == 2 {
			if n, err := strconv.Atoi(fields[0]); err == nil {
				return n
			}
		}
	}
	return 32768
}
