package publisher

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"openvibe.live/backend/shared/vibe"
)

// Client publishes canonical events to a publish gateway over one WebSocket, reconnecting
// as needed. Publish never blocks; events are sent in order with a bounded window of
// unacknowledged events, and those still unacknowledged when a connection drops are sent
// again on the next one (the gateway deduplicates by eventId). All methods are safe for
// concurrent use.
type Client struct {
	cfg  Config
	prep *Preparer
	url  string

	cancel context.CancelFunc
	done   chan struct{}
	wake   chan struct{} // capacity 1: work for the sender
	pace   *rate.Limiter

	mu       sync.Mutex
	queue    []*item // accepted, not yet sent
	inflight []*item // sent (or being sent), not yet acked, in send order
	// answering counts events taken out of inflight whose OnAck or OnError has not returned
	// yet; Flush waits for them too.
	answering int
	retry     []*item // in flight, to be written again (the gateway asked for it)
	changed   chan struct{}
	stats     Stats
	ready     *vibe.Ready
	closing   bool
	err       error // permanent failure; set once
}

type item struct {
	ev      vibe.Event // stamped, not yet sanitized
	raw     []byte     // encoded envelope; owned by the sender goroutine
	sent    time.Time
	sends   int
	retries int       // times the gateway asked for the event again
	retryAt time.Time // not written again before this
	done    bool      // acked or rejected
}

// Stats is a snapshot of a client's counters.
type Stats struct {
	Connected       bool
	SessionKey      string
	Connects        int64 // successful handshakes
	Queued          int   // accepted, not yet sent
	InFlight        int   // sent, not yet acked
	Published       int64 // accepted by Publish
	Sent            int64 // event envelopes written (or being written), resends included
	Resent          int64
	Acked           int64 // acks received, duplicates included
	Duplicates      int64
	Undelivered     int64 // acked (not as duplicates) with delivered false: stored, not shown to viewers
	Rejected        int64 // events the gateway refused with an error
	Dropped         int64 // events refused because the queue was full
	LastAckSequence int64 // the per-slot sequence of the latest ack
	LastError       string
	LastErrorAt     time.Time
}

// New validates cfg and starts a client that connects in the background. Use WaitReady to
// wait for the first connection, or Dial to do both.
func New(cfg Config) (*Client, error) {
	cfg.setDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("publisher config: %w", err)
	}
	prep, err := NewPreparer(&cfg)
	if err != nil {
		return nil, err
	}
	u, err := PublishURL(cfg.Server, cfg.ManagedStreamID, cfg.SlotSlug)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{
		cfg: cfg, prep: prep, url: u, cancel: cancel,
		done: make(chan struct{}), wake: make(chan struct{}, 1), changed: make(chan struct{}),
		pace: rate.NewLimiter(rate.Limit(cfg.Rate), cfg.Burst),
	}
	if cfg.Rate < 0 {
		c.pace = rate.NewLimiter(rate.Inf, 0)
	}
	c.stats.SessionKey = cfg.SessionKey
	go c.run(ctx)
	return c, nil
}

// Dial is New followed by WaitReady; on failure the client is stopped.
func Dial(ctx context.Context, cfg Config) (*Client, error) {
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if _, err := c.WaitReady(ctx); err != nil {
		c.cancel()
		<-c.done
		return nil, err
	}
	return c, nil
}

// SessionKey is the session key sent in the hello and stamped on events.
func (c *Client) SessionKey() string { return c.cfg.SessionKey }

// Publish stamps ev (eventId, sequence, sessionKey, version, occurredAt when absent) and
// queues it. It never blocks: it returns ErrQueueFull (and counts a drop) when the queue is
// full, and ErrClosed or the permanent failure once the client has stopped.
func (c *Client) Publish(ev vibe.Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.stoppedLocked(); err != nil {
		return err
	}
	if len(c.queue) >= c.cfg.QueueSize {
		c.stats.Dropped++
		c.broadcastLocked()
		return ErrQueueFull
	}
	c.queue = append(c.queue, &item{ev: c.prep.Stamp(ev)})
	c.stats.Published++
	c.broadcastLocked()
	c.kick()
	return nil
}

// PublishWait is Publish for producers that can wait (replaying a file): when the queue is
// full it waits for room instead of dropping, until ctx ends.
func (c *Client) PublishWait(ctx context.Context, ev vibe.Event) error {
	for {
		c.mu.Lock()
		full := len(c.queue) >= c.cfg.QueueSize
		ch := c.changed
		c.mu.Unlock()
		if !full {
			if err := c.Publish(ev); !errors.Is(err, ErrQueueFull) {
				return err
			}
			continue
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Flush waits until every accepted event has been acked (or rejected by the gateway) and
// its OnAck (or OnError) has returned. It returns the permanent failure if the client
// stopped with events still pending.
func (c *Client) Flush(ctx context.Context) error {
	for {
		c.mu.Lock()
		pending := len(c.queue) + len(c.inflight) + c.answering
		err, ch := c.err, c.changed
		c.mu.Unlock()
		if pending == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%d events not delivered: %w", pending, err)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("flush: %d events not acked: %w", pending, ctx.Err())
		}
	}
}

// Close stops accepting events, waits (until ctx ends) for the pending ones to be acked,
// then closes the connection. It returns the flush error, or the permanent failure that
// stopped the client.
func (c *Client) Close(ctx context.Context) error {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	ferr := c.Flush(ctx)
	c.cancel()
	<-c.done
	if err := c.Err(); err != nil {
		return err
	}
	return ferr
}

// Done is closed when the client has stopped: after Close, or on a permanent failure.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is the permanent failure that stopped the client (a *RejectedError), or nil.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// WaitReady waits for the gateway's first vibe-coding.ready (and hello ack) and returns it.
func (c *Client) WaitReady(ctx context.Context) (vibe.Ready, error) {
	for {
		c.mu.Lock()
		ready, err, ch := c.ready, c.err, c.changed
		c.mu.Unlock()
		switch {
		case ready != nil:
			return *ready, nil
		case err != nil:
			return vibe.Ready{}, err
		}
		select {
		case <-ch:
		case <-c.done:
			if err := c.Err(); err != nil {
				return vibe.Ready{}, err
			}
			return vibe.Ready{}, ErrClosed
		case <-ctx.Done():
			c.mu.Lock()
			last := c.stats.LastError
			c.mu.Unlock()
			if last != "" {
				return vibe.Ready{}, fmt.Errorf("waiting for the gateway: %w (last error: %s)", ctx.Err(), last)
			}
			return vibe.Ready{}, fmt.Errorf("waiting for the gateway: %w", ctx.Err())
		}
	}
}

// Ready returns the latest vibe-coding.ready, if any.
func (c *Client) Ready() (vibe.Ready, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ready == nil {
		return vibe.Ready{}, false
	}
	return *c.ready, true
}

// Settings returns the slot's settings from the latest ready, or the defaults.
func (c *Client) Settings() vibe.Settings {
	if r, ok := c.Ready(); ok {
		return r.Settings
	}
	return vibe.DefaultSettings()
}

// Stats returns a snapshot of the counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Queued, s.InFlight = len(c.queue), len(c.inflight)
	return s
}

func (c *Client) stoppedLocked() error {
	if c.err != nil {
		return c.err
	}
	if c.closing {
		return ErrClosed
	}
	select {
	case <-c.done:
		return ErrClosed
	default:
		return nil
	}
}

// broadcastLocked wakes everyone waiting on c.changed.
func (c *Client) broadcastLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) kick() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}
