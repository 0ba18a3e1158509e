package testenv

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Buffer is a goroutine-safe buffer, for the output of a child process.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(parts[max(0, len(parts)-n):], "\n")
}

// Process is a service binary run by a test: `bin serve` on a loopback port reserved for the
// test, so it keeps its address across restarts. Its output is kept over all its runs, and
// its last lines are logged when the test fails. It is killed when the test ends, and with
// the test process if that dies first.
type Process struct {
	t    testing.TB
	Name string
	Addr string // host:port
	bin  string
	env  []string
	logs *Buffer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// NewProcess prepares a process named name (for logs) running bin with env (KEY=value;
// OPENVIBE_ADDR is added). Start it with Start or StartReady.
func NewProcess(t testing.TB, name, bin string, env []string) *Process {
	p := &Process{t: t, Name: name, Addr: FreeAddr(t), bin: bin, env: env, logs: &Buffer{}}
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			t.Logf("--- %s (%s) logs, last lines:\n%s", p.Name, p.Addr, Tail(p.logs.String(), 80))
		}
	})
	return p
}

// StartProcess is NewProcess followed by StartReady with a 30 s timeout.
func StartProcess(t testing.TB, name, bin string, env []string) *Process {
	t.Helper()
	p := NewProcess(t, name, bin, env)
	p.StartReady(30 * time.Second)
	return p
}

// URL is the process's base URL.
func (p *Process) URL() string { return "http://" + p.Addr }

// Logs returns everything the process printed, over all its runs.
func (p *Process) Logs() string { return p.logs.String() }

// Start runs the process (it must not be running) without waiting for readiness.
func (p *Process) Start() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		p.t.Fatalf("%s already running", p.Name)
	}
	cmd := exec.Command(p.bin, "serve")
	cmd.Env = append([]string{"OPENVIBE_ADDR=" + p.Addr}, p.env...)
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the test
	fmt.Fprintf(p.logs, "=== %s start %s\n", time.Now().Format(time.TimeOnly), p.Name)
	if err := cmd.Start(); err != nil {
		p.t.Fatalf("start %s: %v", p.Name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	p.cmd, p.done = cmd, done
}

// StartReady starts the process and waits until /readyz answers 200.
func (p *Process) StartReady(timeout time.Duration) {
	p.t.Helper()
	p.Start()
	p.WaitReady(timeout)
}

// WaitReady waits until /readyz answers 200, failing the test after timeout or when the
// process exits first.
func (p *Process) WaitReady(timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if p.Ready() == http.StatusOK {
			return
		}
		if !p.Running() {
			p.t.Fatalf("%s exited before it was ready:\n%s", p.Name, Tail(p.Logs(), 40))
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("%s not ready after %s:\n%s", p.Name, timeout, Tail(p.Logs(), 40))
}

// Ready returns the status of GET /readyz, or 0 when the request fails.
func (p *Process) Ready() int { return p.probe("/readyz") }

// Healthy returns the status of GET /healthz, or 0 when the request fails.
func (p *Process) Healthy() int { return p.probe("/healthz") }

func (p *Process) probe(path string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL()+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// Running reports whether the process is alive.
func (p *Process) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Kill sends SIGKILL and waits for the process to exit: no graceful close for its peers to
// see.
func (p *Process) Kill() { p.signal(syscall.SIGKILL, 0) }

// Term sends SIGTERM and waits (up to timeout, then SIGKILL) for the process to exit. It
// returns the exit code (-1 when it had to be killed).
func (p *Process) Term(timeout time.Duration) int { return p.signal(syscall.SIGTERM, timeout) }

func (p *Process) signal(sig syscall.Signal, timeout time.Duration) int {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.cmd = nil
	p.mu.Unlock()
	if cmd == nil {
		return 0
	}
	fmt.Fprintf(p.logs, "=== %s %s %s\n", time.Now().Format(time.TimeOnly), sig, p.Name)
	_ = cmd.Process.Signal(sig)
	if sig == syscall.SIGKILL {
		<-done
		return -1
	}
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		<-done
		return -1
	}
}

// Metrics scrapes /metrics and returns every sample: name → value for series without
// labels, the full series text → value for the others.
func (p *Process) Metrics() (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL()+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	return ParseMetrics(resp.Body)
}

// Metric is the value of one metric of the process, summed over all its series; the test
// fails when /metrics cannot be read.
func (p *Process) Metric(name string) float64 {
	p.t.Helper()
	m, err := p.Metrics()
	if err != nil {
		p.t.Fatalf("%s metrics: %v", p.Name, err)
	}
	return SumMetric(m, name)
}

// ParseMetrics reads the Prometheus text format into series → value.
func ParseMetrics(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}

// SumMetric adds every series of a metric name (all label sets).
func SumMetric(m map[string]float64, name string) float64 {
	var sum float64
	for k, v := range m {
		if k == name || strings.HasPrefix(k, name+"{") {
			sum += v
		}
	}
	return sum
}
