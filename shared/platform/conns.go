package platform

import (
	"context"
	"sync"
)

// Conns is the set of a service's open long-lived connections (WebSockets), for a graceful
// shutdown: once Close has begun Add refuses new ones, and Wait returns when the last one has
// been removed. The zero value is ready to use.
type Conns[T comparable] struct {
	mu     sync.Mutex
	closed bool
	set    map[T]struct{}
	wg     sync.WaitGroup
}

// Add registers an open connection; false once Close has begun, when the caller must refuse
// it. Every successful Add must be matched by a Remove.
func (c *Conns[T]) Add(x T) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	if c.set == nil {
		c.set = map[T]struct{}{}
	}
	c.set[x] = struct{}{}
	c.wg.Add(1)
	return true
}

// Remove unregisters a connection that Add accepted, once it is finished with.
func (c *Conns[T]) Remove(x T) {
	c.mu.Lock()
	delete(c.set, x)
	c.mu.Unlock()
	c.wg.Done()
}

// Close refuses new connections from now on and calls f, which must not block, for each
// open one (to ask it to close).
func (c *Conns[T]) Close(f func(T)) {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.Each(f)
}

// Closed reports whether Close has begun.
func (c *Conns[T]) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Each calls f, which must not block, for each open connection.
func (c *Conns[T]) Each(f func(T)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for x := range c.set {
		f(x)
	}
}

// Wait waits until every connection has been removed, or until ctx ends, when it returns
// ctx's error (the connections are still being removed).
func (c *Conns[T]) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
