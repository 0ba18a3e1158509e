package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Private servers: a test that stops, kills or restarts its PostgreSQL or Redis server, or
// needs one to itself (Redis pub/sub channels are global to a server), starts its own here
// instead of using the shared ones of Postgres and Redis.

// requireBinary returns the path of a server binary, or skips the test without it (fails
// it under REQUIRE_SERVICES=1).
func requireBinary(t testing.TB, path, what string) string {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if p, err := exec.LookPath(path); err == nil {
		return p
	}
	if RequireServices() {
		t.Fatalf("%s is required (REQUIRE_SERVICES=1) but %s was not found", what, path)
	}
	t.Skipf("%s not available (%s not found)", what, path)
	return ""
}

// PostgresServer is a private PostgreSQL server. As root it runs as the postgres user.
type PostgresServer struct {
	t    testing.TB
	bin  string
	dir  string // owned by the server's user
	Port int
	URL  string
}

// StartPostgresServer initializes and starts a PostgreSQL server on a free loopback port; it is
// stopped and removed when the test ends.
func StartPostgresServer(t testing.TB) *PostgresServer {
	t.Helper()
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	initdb := "initdb"
	if len(matches) > 0 {
		initdb = matches[len(matches)-1]
	}
	initdb = requireBinary(t, initdb, "PostgreSQL")
	dir, err := os.MkdirTemp("", "openvibe-e2e-pg-")
	if err != nil {
		t.Fatal(err)
	}
	p := &PostgresServer{t: t, bin: filepath.Dir(initdb), dir: dir, Port: FreePort(t)}
	p.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.Port)
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chown", "-R", "postgres", dir).CombinedOutput(); err != nil {
			t.Fatalf("chown %s: %v %s", dir, err, out)
		}
	}
	if out, err := p.cmd("initdb", "-D", p.data(), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		_ = p.cmd("pg_ctl", "-D", p.data(), "-m", "immediate", "-w", "stop").Run()
		_ = os.RemoveAll(dir)
	})
	p.Start()
	return p
}

func (p *PostgresServer) data() string { return filepath.Join(p.dir, "data") }

func (p *PostgresServer) cmd(tool string, args ...string) *exec.Cmd {
	path := filepath.Join(p.bin, tool)
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// Start starts (or restarts) the server and waits until it accepts connections.
func (p *PostgresServer) Start() {
	p.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=128MB -c fsync=on -c synchronous_commit=on", p.Port, p.data())
	out, err := p.cmd("pg_ctl", "-D", p.data(), "-l", filepath.Join(p.dir, "pg.log"), "-w", "-t", "60", "-o", opts, "start").CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "pg.log"))
		p.t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
}

// Stop stops the server. Immediate mode is a crash from the clients' point of view: no
// checkpoint, connections cut; committed data survives through the WAL.
func (p *PostgresServer) Stop() {
	p.t.Helper()
	if out, err := p.cmd("pg_ctl", "-D", p.data(), "-m", "immediate", "-w", "stop").CombinedOutput(); err != nil {
		p.t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

// RedisServer is a private redis-server process.
type RedisServer struct {
	t    testing.TB
	bin  string
	dir  string
	Port int
	URL  string
	cmd  *exec.Cmd
}

// NewRedisServer prepares a redis-server on a free loopback port without starting it; it is
// killed when the test ends.
func NewRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	r := &RedisServer{t: t, bin: requireBinary(t, "redis-server", "Redis"), dir: t.TempDir(), Port: FreePort(t)}
	r.URL = "redis://127.0.0.1:" + strconv.Itoa(r.Port) + "/0"
	t.Cleanup(r.Kill)
	return r
}

// StartRedisServer starts a redis-server on a free loopback port, killed when the test ends.
func StartRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	r := NewRedisServer(t)
	r.Start()
	return r
}

// Start starts the server (again, on the same port) and waits until it answers.
func (r *RedisServer) Start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, "--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", r.dir, "--loglevel", "warning")
	out := &Buffer{}
	r.cmd.Stdout, r.cmd.Stderr = out, out
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the test
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(r.Port), 200*time.Millisecond)
		if err == nil {
			_ = c.SetDeadline(time.Now().Add(time.Second))
			_, _ = c.Write([]byte("PING\r\n"))
			buf := make([]byte, 16)
			n, _ := c.Read(buf)
			c.Close()
			if strings.HasPrefix(string(buf[:n]), "+PONG") {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("redis-server on port %d did not start: %s", r.Port, out.String())
}

// Kill stops the server abruptly (SIGKILL), as a crash would.
func (r *RedisServer) Kill() {
	if r.cmd == nil || r.cmd.ProcessState != nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
}

// RequireServers skips the test when the PostgreSQL or Redis server binaries are missing
// (fails it under REQUIRE_SERVICES=1).
func RequireServers(t testing.TB) {
	t.Helper()
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	initdb := "initdb"
	if len(matches) > 0 {
		initdb = matches[len(matches)-1]
	}
	requireBinary(t, initdb, "PostgreSQL")
	requireBinary(t, "redis-server", "Redis")
}
