package session

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"openvibe.live/backend/shared/vibe"
)

// Snapshot reads what a session holds now: all its events, with stable ids, and the ends to
// send for the tool calls still open should no more come.
type Snapshot func() (evs, open []vibe.Event, err error)

// Polls configures Poll.
type Polls struct {
	Follow  bool          // keep polling until Stop or ctx ends
	History bool          // what the first snapshot holds is not emitted
	Poll    time.Duration // how often to look
	Stop    func() bool   // a newer session began
	// OnError is told about a snapshot that failed while following (it is taken again at the
	// next change).
	OnError func(error)
	// OnReady is called once the first snapshot was taken: anything the session gets from now
	// on is published.
	OnReady func()
}

// Poll follows a session whose files are rewritten rather than only appended to: it takes a
// snapshot whenever changed reports a change and emits the events of it not emitted before.
// Without Follow, or stopped, it also emits the ends of the calls still open.
func Poll(ctx context.Context, opt Polls, changed func() bool, snap Snapshot, emit func(context.Context, vibe.Event) error) error {
	sent := map[string]bool{}
	out := func(evs []vibe.Event) error {
		for _, ev := range evs {
			if sent[ev.EventID] {
				continue
			}
			sent[ev.EventID] = true
			if err := emit(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	}
	var open []vibe.Event
	first := true
	for {
		if changed() {
			evs, o, err := snap()
			switch {
			case err != nil && !opt.Follow:
				return err
			case err != nil:
				if opt.OnError != nil {
					opt.OnError(err)
				}
			default:
				open = o
				if first && opt.History {
					for _, ev := range evs {
						sent[ev.EventID] = true
					}
				} else if err := out(evs); err != nil {
					return err
				}
				if first && opt.OnReady != nil {
					opt.OnReady()
				}
				first = false
			}
		}
		if !opt.Follow || (opt.Stop != nil && opt.Stop()) {
			return out(open)
		}
		if err := Sleep(ctx, opt.Poll); err != nil {
			return err
		}
	}
}

// ProjectDir is dir (default: the working directory) as an absolute path.
func ProjectDir(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	return filepath.Abs(dir)
}
