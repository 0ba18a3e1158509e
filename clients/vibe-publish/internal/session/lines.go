package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/follow"
	"openvibe.live/backend/shared/vibe"
)

// LineMapper maps the lines of one session file, in order.
type LineMapper interface {
	Line(raw []byte, n int64) ([]vibe.Event, error)
	// Close ends what is still open (tool calls) when no more lines will come.
	Close() []vibe.Event
}

// Lines configures ReadLines.
type Lines struct {
	Follow  bool          // keep reading appended lines until Stop or ctx ends
	History bool          // lines there when reading starts are mapped, not emitted
	Poll    time.Duration // follow's poll interval
	Stop    func() bool   // see follow.Options.Stop
	// OnBadLine is told about a line the mapper refused or that was too long.
	OnBadLine func(n int64, err error)
	// Blank hands blank lines to the mapper too (they separate paragraphs in Markdown).
	Blank bool
}

// ReadLines maps a session file line by line and emits the events. Read to its end without
// Follow, or stopped while following, the mapper's open calls are closed.
func ReadLines(ctx context.Context, path string, m LineMapper, opt Lines, emit func(context.Context, vibe.Event) error) error {
	var seen int64
	if opt.History {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen = int64(bytes.Count(data, []byte{'\n'}))
	}
	out := func(evs []vibe.Event) error {
		for _, ev := range evs {
			if err := emit(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	}
	err := follow.Lines(ctx, path, follow.Options{Follow: opt.Follow, Poll: opt.Poll, Stop: opt.Stop,
		OnSkip: func(n int64, err error) {
			if n > seen && opt.OnBadLine != nil {
				opt.OnBadLine(n, err)
			}
		},
	}, func(raw []byte, n int64) error {
		if !opt.Blank && len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		evs, err := m.Line(raw, n)
		if err != nil && n > seen && opt.OnBadLine != nil {
			opt.OnBadLine(n, err)
		}
		if n <= seen {
			return nil
		}
		return out(evs)
	})
	if err == nil { // read to the end, or a newer session began
		err = out(m.Close())
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return err
}

// Check refuses a file none of whose first 100 non-empty lines is a JSON object that looks
// like one of the agent's (an empty file is a session that has not started). what names the
// format in the error.
func Check(path string, looksRight func(obj map[string]json.RawMessage) bool, notIt error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	seen, ok := 0, false
	stop := fmt.Errorf("stop")
	_ = follow.Reader(context.Background(), f, follow.Options{}, func(raw []byte, _ int64) error {
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		seen++
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) == nil && looksRight(obj) {
			ok = true
			return stop
		}
		if seen >= 100 {
			return stop
		}
		return nil
	})
	if seen > 0 && !ok {
		return fmt.Errorf("%w: %s", notIt, path)
	}
	return nil
}
