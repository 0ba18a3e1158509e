// Package follow reads a text file line by line and, when asked, keeps following it like
// tail -F: it waits for appended lines, starts over when the file is truncated and reopens it
// when it is replaced (log rotation, an editor's atomic save).
package follow

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// MaxLine bounds one line; longer lines are skipped and reported through Options.OnSkip.
const MaxLine = 16 << 20

// Options controls Lines.
type Options struct {
	Follow  bool          // keep waiting for new lines at end of file
	FromEnd bool          // start at the current end of the file (only with Follow)
	Poll    time.Duration // how often to look for new data; default 200ms
	// OnSkip is told about a line that was too long (its 1-based number).
	OnSkip func(line int64, err error)
	// OnLongLine, when set, also gets the first HeadBytes of a line that was too long, so that
	// a reader can still tell what the line was (a tool result it must close, say).
	OnLongLine func(line int64, head []byte)
	// Stop, when set, is checked at each end of file while following: returning true ends
	// Lines with nil (used to switch to a newer file).
	Stop func() bool
	// MaxLine overrides the MaxLine limit (tests).
	MaxLine int
	// Opened, when set, is called once the file is open (and, with FromEnd, positioned).
	Opened func()
}

// HeadBytes is how much of an over-long line OnLongLine gets.
const HeadBytes = 64 << 10

// ErrLineTooLong is passed to OnSkip for a line over MaxLine.
var ErrLineTooLong = errors.New("line too long")

// Lines calls fn for every complete line of path (without the line break; a final line
// without one counts when not following). It returns fn's first error, ctx's error, or nil
// at end of file when not following.
func Lines(ctx context.Context, path string, opt Options, fn func(line []byte, n int64) error) error {
	if opt.Poll <= 0 {
		opt.Poll = 200 * time.Millisecond
	}
	if opt.MaxLine <= 0 {
		opt.MaxLine = MaxLine
	}
	t := &tailer{path: path, opt: opt, fn: fn}
	return t.run(ctx)
}

// Reader reads lines from r (stdin) until EOF or ctx ends; there is nothing to follow. Lines
// over MaxLine are skipped and reported through opt.OnSkip.
func Reader(ctx context.Context, r io.Reader, opt Options, fn func(line []byte, n int64) error) error {
	if opt.MaxLine <= 0 {
		opt.MaxLine = MaxLine
	}
	t := &tailer{path: "input", opt: opt, fn: fn, r: bufio.NewReaderSize(r, 64<<10)}
	if err := t.drain(ctx); err != nil {
		return err
	}
	return t.finish()
}

type tailer struct {
	path string
	opt  Options
	fn   func([]byte, int64) error

	f       *os.File
	info    os.FileInfo
	r       *bufio.Reader
	offset  int64 // bytes consumed from f
	partial []byte
	lineNo  int64
	skip    bool   // inside an over-long line
	head    []byte // its first HeadBytes
}

func (t *tailer) run(ctx context.Context) error {
	if err := t.open(t.opt.Follow && t.opt.FromEnd); err != nil {
		return err
	}
	defer func() { t.f.Close() }()
	if t.opt.Opened != nil {
		t.opt.Opened()
	}
	for {
		if err := t.drain(ctx); err != nil {
			return err
		}
		if !t.opt.Follow {
			return t.finish()
		}
		if t.opt.Stop != nil && t.opt.Stop() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(t.opt.Poll):
		}
		if err := t.checkReplaced(ctx); err != nil {
			return err
		}
	}
}

// finish hands over a last line that has no line break.
func (t *tailer) finish() error {
	if len(t.partial) == 0 {
		return nil
	}
	t.lineNo++
	if t.skip {
		t.reportSkip()
		return nil
	}
	return t.fn(bytes.TrimRight(t.partial, "\r"), t.lineNo)
}

func (t *tailer) open(atEnd bool) error {
	f, err := os.Open(t.path)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if t.f != nil {
		t.f.Close()
	}
	t.f, t.info, t.offset, t.partial, t.skip = f, info, 0, nil, false
	if atEnd {
		if t.offset, err = f.Seek(0, io.SeekEnd); err != nil {
			return err
		}
	}
	t.r = bufio.NewReaderSize(f, 64<<10)
	return nil
}

// drain hands over every complete line available now.
func (t *tailer) drain(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk, err := t.r.ReadSlice('\n')
		t.offset += int64(len(chunk))
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			line := chunk[:len(chunk)-1]
			if len(t.partial) > 0 {
				t.partial = append(t.partial, line...)
				line = t.partial
			}
			t.lineNo++
			if !t.skip && len(line) > t.opt.MaxLine {
				t.keepHead(line)
			}
			skipped := t.skip || len(line) > t.opt.MaxLine
			t.partial, t.skip = t.partial[:0], false
			if skipped {
				t.reportSkip()
				continue
			}
			if ferr := t.fn(bytes.TrimRight(line, "\r"), t.lineNo); ferr != nil {
				return ferr
			}
			continue
		}
		if !t.skip {
			if len(t.partial)+len(chunk) > t.opt.MaxLine {
				t.keepHead(append(t.partial, chunk...))
				t.skip, t.partial = true, t.partial[:0]
			} else {
				t.partial = append(t.partial, chunk...)
			}
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil
		default:
			return fmt.Errorf("read %s: %w", t.path, err)
		}
	}
}

func (t *tailer) keepHead(line []byte) {
	t.head = append(t.head[:0], line[:min(len(line), HeadBytes)]...)
}

func (t *tailer) reportSkip() {
	if t.opt.OnSkip != nil {
		t.opt.OnSkip(t.lineNo, ErrLineTooLong)
	}
	if t.opt.OnLongLine != nil {
		t.opt.OnLongLine(t.lineNo, t.head)
	}
	t.head = t.head[:0]
}

// checkReplaced reopens the path when the file was truncated or replaced.
func (t *tailer) checkReplaced(ctx context.Context) error {
	info, err := os.Stat(t.path)
	if err != nil {
		return nil // being rotated: the old file stays open until a new one appears
	}
	if !os.SameFile(info, t.info) {
		if err := t.drain(ctx); err != nil { // finish what the old file had
			return err
		}
		return t.open(false)
	}
	if info.Size() < t.offset {
		if _, err := t.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		t.offset, t.partial, t.skip = 0, nil, false
		t.r.Reset(t.f)
	}
	return nil
}
