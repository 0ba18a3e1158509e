package cluster

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

	"openvibe.live/backend/shared/testenv"
)

// Proc is one replica of a service: a real process on a fixed loopback port, which keeps
// its port across restarts.
type Proc struct {
	t    testing.TB
	Name string
	Addr string // host:port
	bin  string
	env  []string
	logs *logBuffer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// logBuffer keeps a process's output across restarts.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newProc(t testing.TB, name, bin string, env []string) *Proc {
	p := &Proc{t: t, Name: name, Addr: "127.0.0.1:" + strconv.Itoa(testenv.FreePort(t)), bin: bin, env: env, logs: &logBuffer{}}
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			t.Logf("--- %s (%s) logs, last lines:\n%s", p.Name, p.Addr, tail(p.logs.String(), 80))
		}
	})
	return p
}

// URL is the replica's base URL.
func (p *Proc) URL() string { return "http://" + p.Addr }

// Logs returns everything the process printed, over all its runs.
func (p *Proc) Logs() string { return p.logs.String() }

// Start runs the process (it must not be running) without waiting for readiness.
func (p *Proc) Start() {
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
func (p *Proc) StartReady(timeout time.Duration) {
	p.t.Helper()
	p.Start()
	p.WaitReady(timeout)
}

// WaitReady waits until /readyz answers 200, failing the test after timeout.
func (p *Proc) WaitReady(timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if p.Ready() == http.StatusOK {
			return
		}
		if !p.Running() {
			p.t.Fatalf("%s exited before it was ready:\n%s", p.Name, tail(p.Logs(), 40))
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("%s not ready after %s:\n%s", p.Name, timeout, tail(p.Logs(), 40))
}

// Ready returns the status of GET /readyz, or 0 when the request fails.
func (p *Proc) Ready() int { return p.probe("/readyz") }

// Healthy returns the status of GET /healthz, or 0 when the request fails.
func (p *Proc) Healthy() int { return p.probe("/healthz") }

func (p *Proc) probe(path string) int {
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
func (p *Proc) Running() bool {
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

// Kill sends SIGKILL and waits for the process to exit.
func (p *Proc) Kill() { p.signal(syscall.SIGKILL, 0) }

// Term sends SIGTERM and waits (up to timeout, then SIGKILL) for the process to exit. It
// returns the exit code (-1 when it had to be killed).
func (p *Proc) Term(timeout time.Duration) int { return p.signal(syscall.SIGTERM, timeout) }

func (p *Proc) signal(sig syscall.Signal, timeout time.Duration) int {
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

// Metrics scrapes /metrics and returns every sample without labels (name → value) and with
// labels (the full series text → value).
func (p *Proc) Metrics() (map[string]float64, error) {
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

func tail(s string, lines int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(parts[max(0, len(parts)-lines):], "\n")
}
