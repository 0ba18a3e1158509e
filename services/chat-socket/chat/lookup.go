package chat

import (
	"context"
	"sync"
	"time"
)

// Lookups are cached briefly so that a crowd joining the same stream costs one store read,
// not one per viewer.
const (
	lookupCacheTTL  = 10 * time.Second
	lookupCacheSize = 10_000
)

// lookupCache caches the answers of one lookup function: values and definite answers (a
// not-found error, per final), never errors of the store, which may answer next time.
type lookupCache[K comparable, V any] struct {
	now    func() time.Time
	lookup func(context.Context, K) (V, error)
	final  func(error) bool // errors worth caching

	mu      sync.Mutex
	entries map[K]lookupEntry[V]
}

type lookupEntry[V any] struct {
	v       V
	err     error
	expires time.Time
}

func newLookupCache[K comparable, V any](now func() time.Time, lookup func(context.Context, K) (V, error), final func(error) bool) *lookupCache[K, V] {
	return &lookupCache[K, V]{now: now, lookup: lookup, final: final, entries: map[K]lookupEntry[V]{}}
}

func (c *lookupCache[K, V]) get(ctx context.Context, key K) (V, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.v, e.err
	}
	v, err := c.lookup(ctx, key)
	if err != nil && !c.final(err) {
		var zero V
		return zero, err
	}
	c.mu.Lock()
	if len(c.entries) >= lookupCacheSize {
		clear(c.entries)
	}
	c.entries[key] = lookupEntry[V]{v: v, err: err, expires: now.Add(lookupCacheTTL)}
	c.mu.Unlock()
	return v, err
}
