// Package session follows an agent's newest session of a project: it reads the session the
// agent is writing, and switches to a newer one when the streamer starts one.
package session

import (
	"context"
	"time"
)

// Options configures Run.
type Options struct {
	// Follow keeps reading as the agent writes, and switches to newer sessions. Without it
	// the newest session is read as it is and Run returns.
	Follow bool
	// Replay publishes what the session already holds when Run starts. Without Follow it is
	// implied.
	Replay bool
	// Poll is how often to look for a first or newer session; default 250ms.
	Poll time.Duration
	// Newest finds the project's most recent session. Its error, when no session exists, is
	// returned as it is without Follow (so it should say what to do).
	Newest func() (path string, modified time.Time, err error)
	// Read reads one session until it ends (without Follow), ctx ends, or stop returns true at a
	// moment when everything written so far has been read. With history set, what the session
	// holds when Read starts is not emitted (only mapped, so that later lines can refer to it).
	Read func(ctx context.Context, path string, history bool, stop func() bool) error
	// OnWaiting is told once when following and no session exists yet.
	OnWaiting func(err error)
	// Stop, when set, is asked with the check for a newer session: returning true ends the
	// session being read as a switch to a newer one would, and Run returns nil.
	Stop func() bool
}

// Run follows the newest session, then each newer one from its start.
func Run(ctx context.Context, opt Options) error {
	if opt.Poll <= 0 {
		opt.Poll = 250 * time.Millisecond
	}
	history := opt.Follow && !opt.Replay
	waiting := false
	for {
		path, mod, err := opt.Newest()
		if err != nil {
			if !opt.Follow {
				return err
			}
			if !waiting && opt.OnWaiting != nil {
				opt.OnWaiting(err)
			}
			waiting = true
			history = false // a session that appears later is new: all of it is published
			if err := Sleep(ctx, opt.Poll); err != nil {
				return err
			}
			continue
		}
		var lastCheck time.Time
		stopped := false
		newer := func() bool {
			if opt.Stop != nil && opt.Stop() {
				stopped = true
				return true
			}
			if time.Since(lastCheck) < time.Second {
				return false
			}
			lastCheck = time.Now()
			p, m, err := opt.Newest()
			return err == nil && p != path && m.After(mod)
		}
		if err := opt.Read(ctx, path, history, newer); err != nil || !opt.Follow || stopped {
			return err
		}
		history = false // a newer session is published from its start
	}
}

// Sleep waits for d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
