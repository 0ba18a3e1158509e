// Package fanout is the per-subscription delivery queue shared by the broker backends: a
// bounded queue that never blocks the producer, drops on overflow and signals the loss with a
// Gap before whatever the subscriber receives next.
package fanout

import (
	"sync"

	"openvibe.live/backend/shared/broker"
)

// DefaultSize is the queue length used when a backend is given none.
const DefaultSize = 256

type entry struct {
	payload   []byte
	gapBefore bool
}

// Sub is one subscription's queue and the goroutine that feeds its Messages channel.
type Sub struct {
	channel string
	size    int
	onClose func(*Sub)
	metrics *Metrics

	mu         sync.Mutex
	queue      []entry
	pendingGap bool // a Gap is owed after the queued entries (and before the next one)
	closed     bool

	wake      chan struct{} // cap 1: something was queued
	done      chan struct{} // closed by Close
	pumpDone  chan struct{}
	out       chan broker.Message
	closeOnce sync.Once
}

// New starts a subscription queue of up to size messages (DefaultSize if size <= 0) for
// channel. onClose, if set, runs once when the subscription closes, before Close returns.
// metrics may be nil.
func New(channel string, size int, metrics *Metrics, onClose func(*Sub)) *Sub {
	if size <= 0 {
		size = DefaultSize
	}
	s := &Sub{
		channel:  channel,
		size:     size,
		onClose:  onClose,
		metrics:  metrics,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		pumpDone: make(chan struct{}),
		out:      make(chan broker.Message),
	}
	metrics.subscribed(1)
	go s.pump()
	return s
}

// Channel is the channel the subscription listens to.
func (s *Sub) Channel() string { return s.channel }

// Messages implements broker.Subscription.
func (s *Sub) Messages() <-chan broker.Message { return s.out }

// Push queues a copy of payload without blocking. When the queue is full the message is
// dropped and a Gap is owed.
func (s *Sub) Push(payload []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if len(s.queue) >= s.size {
		s.pendingGap = true
		s.metrics.drop()
		return
	}
	s.queue = append(s.queue, entry{payload: append([]byte(nil), payload...), gapBefore: s.pendingGap})
	s.pendingGap = false
	s.signal()
}

// Gap records that messages may have been lost at this point (for example while a
// connection was down). The subscriber receives one Gap before any message pushed later.
func (s *Sub) Gap() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.pendingGap = true
	s.signal()
}

func (s *Sub) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Close stops the subscription: the pump exits, Messages is closed and onClose runs. Safe to
// call more than once and from any goroutine.
func (s *Sub) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.queue = nil
		s.mu.Unlock()
		close(s.done)
		<-s.pumpDone
		s.metrics.subscribed(-1)
		if s.onClose != nil {
			s.onClose(s)
		}
	})
	return nil
}

func (s *Sub) pump() {
	defer close(s.pumpDone)
	defer close(s.out)
	for {
		msg, ok := s.next()
		if !ok {
			return
		}
		select {
		case s.out <- msg:
		case <-s.done:
			return
		}
	}
}

// next waits for the next message to hand out: a Gap owed before the head entry, the head
// entry, or a Gap owed after an emptied queue.
func (s *Sub) next() (broker.Message, bool) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return broker.Message{}, false
		}
		if len(s.queue) > 0 {
			head := &s.queue[0]
			if head.gapBefore {
				head.gapBefore = false
				s.mu.Unlock()
				s.metrics.gap()
				return broker.Message{Channel: s.channel, Gap: true}, true
			}
			msg := broker.Message{Channel: s.channel, Payload: head.payload}
			s.queue[0] = entry{}
			s.queue = s.queue[1:]
			if len(s.queue) == 0 {
				s.queue = nil // let the backing array go
			}
			s.mu.Unlock()
			return msg, true
		}
		if s.pendingGap {
			s.pendingGap = false
			s.mu.Unlock()
			s.metrics.gap()
			return broker.Message{Channel: s.channel, Gap: true}, true
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-s.done:
			return broker.Message{}, false
		}
	}
}
