package viewerclient

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrTimeout is returned when no frame came in time.
var ErrTimeout = errors.New("viewerclient: no frame in time")

// Recorder reads a Conn in the background and keeps every frame, so that a caller can wait
// for frames with a deadline and check that none arrive: a read whose context ends closes a
// coder/websocket connection, so a Conn alone cannot wait with a timeout. Next and NextOf
// consume the frames in order; Frames and Wait see all of them.
type Recorder struct {
	c    *Conn
	done chan struct{}

	mu        sync.Mutex
	frames    []Frame
	cursor    int // frames consumed by Next and NextOf
	malformed []*FramingError
	err       error         // how the connection ended, once done is closed
	changed   chan struct{} // closed and replaced whenever something is recorded
}

// Record starts reading c until its connection ends or Close is called.
func Record(c *Conn) *Recorder {
	r := &Recorder{c: c, done: make(chan struct{}), changed: make(chan struct{})}
	go r.read()
	return r
}

func (r *Recorder) read() {
	defer close(r.done)
	for {
		f, err := r.c.Next(context.Background())
		var fe *FramingError
		r.mu.Lock()
		switch {
		case errors.As(err, &fe):
			r.malformed = append(r.malformed, fe)
		case err != nil:
			r.err = err
		default:
			r.frames = append(r.frames, f)
		}
		close(r.changed)
		r.changed = make(chan struct{})
		r.mu.Unlock()
		if err != nil && fe == nil {
			return
		}
	}
}

// Conn is the connection recorded, to send on.
func (r *Recorder) Conn() *Conn { return r.c }

// Frames returns a copy of every frame received so far.
func (r *Recorder) Frames() []Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Frame(nil), r.frames...)
}

// Malformed returns the messages that broke the framing asked for.
func (r *Recorder) Malformed() []*FramingError {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*FramingError(nil), r.malformed...)
}

// Done is closed once the connection has ended; Err then says how.
func (r *Recorder) Done() <-chan struct{} { return r.done }

// Err is the error that ended the connection (nil while it is open).
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Wait waits until cond holds over every frame received so far, for at most timeout; it
// returns those frames and whether cond held. It gives up early once the connection ended
// without cond holding.
func (r *Recorder) Wait(timeout time.Duration, cond func([]Frame) bool) ([]Frame, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		frames, changed, ended := append([]Frame(nil), r.frames...), r.changed, r.err != nil
		r.mu.Unlock()
		if cond(frames) {
			return frames, true
		}
		if ended {
			return frames, false
		}
		select {
		case <-changed:
		case <-deadline.C:
			return r.Frames(), false
		}
	}
}

// Next returns the next frame not yet returned, waiting at most timeout: ErrTimeout when
// none came, or the connection's end once every frame before it was returned.
func (r *Recorder) Next(timeout time.Duration) (Frame, error) {
	return r.next(timeout, func(Frame) bool { return true })
}

// NextOf returns the next frame of type typ, skipping (and consuming) the others, waiting at
// most timeout in all.
func (r *Recorder) NextOf(timeout time.Duration, typ string) (Frame, error) {
	return r.next(timeout, func(f Frame) bool { return f.Type == typ })
}

func (r *Recorder) next(timeout time.Duration, match func(Frame) bool) (Frame, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		for r.cursor < len(r.frames) {
			f := r.frames[r.cursor]
			r.cursor++
			if match(f) {
				r.mu.Unlock()
				return f, nil
			}
		}
		changed, err := r.changed, r.err
		r.mu.Unlock()
		if err != nil {
			return Frame{}, err
		}
		select {
		case <-changed:
		case <-deadline.C:
			return Frame{}, ErrTimeout
		}
	}
}

// Close drops the connection and waits for the reader to stop.
func (r *Recorder) Close() {
	_ = r.c.CloseNow()
	<-r.done
}
