package room

import (
	"context"
	"sync"
)

// Close codes the viewer socket uses.
const (
	CloseSlow        = 4008 // the viewer could not keep up with its send queue
	ReasonSlow       = "slow"
	CloseNotFound    = 4404
	ReasonNotFound   = "slot not found"
	CloseUnavailable = 1013 // try again later: the slot could not be loaded
)

// Viewer is one connected viewer as the room sees it: a send queue bounded in bytes that the
// room appends to without ever blocking, and a cursor so that no seq is sent twice.
//
// The connection side drains the queue with Next and writes what it gets; when the queue
// overflows, the viewer is killed with CloseSlow and the connection side closes the socket.
type Viewer struct {
	// UserID and Username identify a logged-in viewer (0 and "" when anonymous).
	UserID   int64
	Username string
	// Original marks a viewer on the original platform's chat socket (/ws/chat?stream=):
	// no welcome frame, chat in the original's shape, and user-count frames. Set before Join.
	Original bool

	maxBytes int

	mu     sync.Mutex
	queue  [][]byte
	queued int // bytes in queue
	dead   bool
	code   int
	reason string
	wake   chan struct{} // capacity 1: "the queue changed"
	done   chan struct{} // closed by Kill

	// after is the highest seq sent to (or skipped for) this viewer; owned by the room loop.
	after int64
}

// NewViewer returns a viewer whose send queue holds at most maxBytes.
func NewViewer(maxBytes int, userID int64, username string) *Viewer {
	return &Viewer{
		UserID:   userID,
		Username: username,
		maxBytes: maxBytes,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
}

// Send queues a frame. It never blocks: when the queue would exceed its byte bound the
// viewer is killed with CloseSlow and Send reports false.
func (v *Viewer) Send(frame []byte) bool {
	v.mu.Lock()
	if v.dead {
		v.mu.Unlock()
		return false
	}
	if v.queued+len(frame) > v.maxBytes && v.queued > 0 {
		v.mu.Unlock()
		v.Kill(CloseSlow, ReasonSlow)
		return false
	}
	v.queue = append(v.queue, frame)
	v.queued += len(frame)
	v.mu.Unlock()
	select {
	case v.wake <- struct{}{}:
	default:
	}
	return true
}

// Kill marks the viewer dead with a close code; the first call wins. The connection side
// sees it through Done and Next.
func (v *Viewer) Kill(code int, reason string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.dead {
		return
	}
	v.dead, v.code, v.reason = true, code, reason
	v.queue, v.queued = nil, 0
	close(v.done)
}

// Done is closed once the viewer is killed.
func (v *Viewer) Done() <-chan struct{} { return v.done }

// CloseStatus returns the close code and reason given to Kill.
func (v *Viewer) CloseStatus() (int, string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.code, v.reason
}

// Next waits for queued frames and takes them all (the caller coalesces them into as few
// writes as it can). It returns ok=false once the viewer is killed or ctx ends.
func (v *Viewer) Next(ctx context.Context, buf [][]byte) (frames [][]byte, ok bool) {
	for {
		v.mu.Lock()
		if v.dead {
			v.mu.Unlock()
			return nil, false
		}
		if len(v.queue) > 0 {
			frames = append(buf[:0], v.queue...)
			clear(v.queue)
			v.queue, v.queued = v.queue[:0], 0
			v.mu.Unlock()
			return frames, true
		}
		v.mu.Unlock()
		select {
		case <-v.wake:
		case <-v.done:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// Queued returns the bytes waiting in the send queue.
func (v *Viewer) Queued() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.queued
}
