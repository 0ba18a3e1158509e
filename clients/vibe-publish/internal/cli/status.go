package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	"openvibe.live/backend/shared/vibe/publisher"
)

// status writes to stderr: a live status line redrawn in place when stderr is a terminal,
// and one line per notable event (connected, disconnected, errors) otherwise.
type status struct {
	mu     sync.Mutex
	w      io.Writer
	tty    bool
	label  string
	stats  func() publisher.Stats
	drawn  bool
	quiet  bool
	closed bool
}

func newStatus(w io.Writer, quiet bool) *status {
	f, ok := w.(*os.File)
	tty := ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
	return &status{w: w, tty: tty && !quiet, quiet: quiet}
}

// logf prints one line, above the status line when there is one.
func (s *status) logf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	fmt.Fprintf(s.w, "vibe-publish: "+format+"\n", args...)
	s.drawLocked()
}

// infof prints a line that only informs (which session is followed): not with --quiet.
func (s *status) infof(format string, args ...any) {
	if s.quiet {
		return
	}
	s.logf(format, args...)
}

// run redraws the status line until ctx ends.
func (s *status) run(ctx context.Context) {
	if !s.tty {
		return
	}
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.mu.Lock()
			s.clearLocked()
			s.drawLocked()
			s.mu.Unlock()
		}
	}
}

// finish removes the status line for good.
func (s *status) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	s.closed = true
}

func (s *status) attach(label string, stats func() publisher.Stats) {
	s.mu.Lock()
	s.label, s.stats = label, stats
	s.mu.Unlock()
}

func (s *status) clearLocked() {
	if s.drawn {
		fmt.Fprint(s.w, "\r\x1b[2K")
		s.drawn = false
	}
}

func (s *status) drawLocked() {
	if !s.tty || s.closed || s.stats == nil {
		return
	}
	fmt.Fprint(s.w, statusLine(s.label, s.stats()))
	s.drawn = true
}

// statusLine renders the one-line summary.
func statusLine(label string, st publisher.Stats) string {
	state := "○ connecting"
	if st.Connected {
		state = "● live"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s  sent %d  acked %d", state, label, st.Sent, st.Acked)
	if st.Undelivered > 0 {
		fmt.Fprintf(&b, " (%d not shown)", st.Undelivered)
	}
	if st.Queued+st.InFlight > 0 {
		fmt.Fprintf(&b, "  pending %d", st.Queued+st.InFlight)
	}
	if st.Dropped > 0 {
		fmt.Fprintf(&b, "  dropped %d", st.Dropped)
	}
	if st.Rejected > 0 {
		fmt.Fprintf(&b, "  rejected %d", st.Rejected)
	}
	if st.LastError != "" {
		msg := st.LastError
		if len(msg) > 80 {
			msg = msg[:77] + "..."
		}
		fmt.Fprintf(&b, "  last error: %s", msg)
	}
	return b.String()
}
