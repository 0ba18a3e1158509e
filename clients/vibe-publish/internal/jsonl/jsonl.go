// Package jsonl reads canonical vibe-coding events, one JSON object per line, from a file or
// standard input.
package jsonl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/google/uuid"

	"openvibe.live/backend/clients/vibe-publish/internal/follow"
	"openvibe.live/backend/shared/vibe"
)

// Options configures Run.
type Options struct {
	Path    string    // file to read; "" or "-" reads Stdin
	Stdin   io.Reader // used when Path is "" or "-"
	Follow  bool      // keep reading appended lines (tail -F)
	FromEnd bool      // with Follow: skip what the file already holds
	// OnBadLine is told about a line that is not a valid event; the line is skipped.
	OnBadLine func(line int64, err error)
}

// idSpace namespaces the eventIds derived for file lines that carry none.
var idSpace = uuid.MustParse("5b0c3a52-4a8f-4f38-9d1e-8d3f0b6c7a10")

// Run emits every valid event until end of input (or, following, until ctx ends).
func Run(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error) error {
	if opt.Path == "" || opt.Path == "-" {
		return follow.Reader(ctx, opt.Stdin, follow.Options{OnSkip: func(n int64, err error) { bad(opt, n, err) }}, func(line []byte, n int64) error {
			return handle(ctx, opt, emit, line, n, "")
		})
	}
	abs, err := filepath.Abs(opt.Path)
	if err != nil {
		return err
	}
	err = follow.Lines(ctx, opt.Path, follow.Options{
		Follow: opt.Follow, FromEnd: opt.FromEnd,
		OnSkip: func(n int64, err error) { bad(opt, n, err) },
	}, func(line []byte, n int64) error {
		return handle(ctx, opt, emit, line, n, abs)
	})
	if err != nil {
		return fmt.Errorf("read events from %s: %w", opt.Path, err)
	}
	return nil
}

func handle(ctx context.Context, opt Options, emit func(context.Context, vibe.Event) error, line []byte, n int64, source string) error {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	ev, err := ParseLine(line, source, n)
	if err != nil {
		bad(opt, n, err)
		return nil
	}
	return emit(ctx, ev)
}

func bad(opt Options, n int64, err error) {
	if opt.OnBadLine != nil {
		opt.OnBadLine(n, err)
	}
}

// ParseLine decodes one canonical event with the protocol's strict rules. A line without an
// eventId gets one: derived from source, line number and content when source (the file's
// absolute path) is set, so that re-reading a file does not publish duplicates; random
// otherwise.
func ParseLine(line []byte, source string, n int64) (vibe.Event, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
		return vibe.Event{}, fmt.Errorf("not a JSON object")
	}
	if id, ok := obj["eventId"]; !ok || string(id) == "null" {
		var gen string
		if source != "" {
			gen = uuid.NewSHA1(idSpace, []byte(source+"\x00"+strconv.FormatInt(n, 10)+"\x00"+string(line))).String()
		} else {
			gen = uuid.NewString()
		}
		obj["eventId"], _ = json.Marshal(gen)
		var err error
		if line, err = json.Marshal(obj); err != nil {
			return vibe.Event{}, err
		}
	}
	return vibe.ParseEvent(line)
}
