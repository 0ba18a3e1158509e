package tool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Shell runs bash commands in their own process group so a timeout or an abort can kill the
// command and everything it started. Output (stdout and stderr, interleaved) is capped: the
// first and last HeadTail bytes are kept, the middle is counted and dropped.
type Shell struct {
	Sandbox  *Sandbox
	Env      []string // nil: the service's environment
	HeadTail int      // bytes kept at each end; 0 means 16 KiB
	// KillGrace is how long a group gets between SIGTERM and SIGKILL; 0 means 2s.
	KillGrace time.Duration
}

// ShellResult is the outcome of one command.
type ShellResult struct {
	Output   string
	ExitCode int
	TimedOut bool
	Aborted  bool
	Dropped  int64 // bytes dropped from the middle of the output
}

// Run runs command with bash in dir until it exits, timeout passes or ctx ends. When the
// shell exits, processes it left in its group (e.g. "server &") are killed too, so nothing
// outlives the call and holds its output open. In the sandbox, writable (the project) and
// dir may be written; nothing else of the host's files is visible but the system directories.
func (s *Shell) Run(ctx context.Context, dir, command string, timeout time.Duration, writable ...string) (ShellResult, error) {
	var res ShellResult
	args := []string{"bash", "-c", command}
	env := s.Env
	if s.Sandbox != nil {
		args = s.Sandbox.argv(dir, command, append(writable, dir), s.Env)
		env = []string{} // bwrap sets the command's environment itself
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw, err := os.Pipe()
	if err != nil {
		return res, fmt.Errorf("pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return res, fmt.Errorf("start bash: %w", err)
	}
	pw.Close() // the children hold the write end now
	out := newCapBuffer(s.headTail())
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(out, pr)
	}()

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	pgid := cmd.Process.Pid
	var werr error
	select {
	case werr = <-exited:
		killGroup(pgid, syscall.SIGKILL) // background leftovers
	case <-timer.C:
		res.TimedOut = true
		werr = s.stop(pgid, exited)
	case <-ctx.Done():
		res.Aborted = true
		werr = s.stop(pgid, exited)
	}
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		// A process escaped the group (setsid) and still holds the pipe: stop reading.
	}
	pr.Close()
	<-copied
	res.Output, res.Dropped = out.String()
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee):
		res.ExitCode = ee.ExitCode()
	default:
		return res, fmt.Errorf("wait bash: %w", werr)
	}
	return res, nil
}

func (s *Shell) headTail() int {
	if s.HeadTail > 0 {
		return s.HeadTail
	}
	return 16 << 10
}

// stop sends SIGTERM to the group, then SIGKILL after the grace period, and returns the
// shell's wait result.
func (s *Shell) stop(pgid int, exited <-chan error) error {
	grace := s.KillGrace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	killGroup(pgid, syscall.SIGTERM)
	select {
	case err := <-exited:
		killGroup(pgid, syscall.SIGKILL)
		return err
	case <-time.After(grace):
		killGroup(pgid, syscall.SIGKILL)
		return <-exited
	}
}

func killGroup(pgid int, sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }

// capBuffer keeps the first n and the last n bytes written, in O(n) memory.
type capBuffer struct {
	mu      sync.Mutex
	n       int
	head    []byte
	tail    []byte // ring
	pos     int
	full    bool
	dropped int64
}

func newCapBuffer(n int) *capBuffer {
	return &capBuffer{n: n, head: make([]byte, 0, n), tail: make([]byte, n)}
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := len(p)
	if room := c.n - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		k := copy(c.tail[c.pos:], p)
		if c.full {
			c.dropped += int64(k)
		}
		p = p[k:]
		c.pos += k
		if c.pos == c.n {
			c.pos, c.full = 0, true
		}
	}
	return total, nil
}

// String returns the kept output with a marker where bytes were dropped.
func (c *capBuffer) String() (string, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	b.Write(c.head)
	var tail []byte
	if c.full {
		tail = append(append(tail, c.tail[c.pos:]...), c.tail[:c.pos]...)
	} else {
		tail = c.tail[:c.pos]
	}
	if c.dropped > 0 {
		fmt.Fprintf(&b, "\n\n... [%d bytes of output omitted] ...\n\n", c.dropped)
	}
	b.Write(tail)
	return strings.ToValidUTF8(b.String(), "�"), c.dropped
}
