// Package ratelimit holds one token bucket per key (a user, an IP address) and forgets the
// buckets that have refilled, so memory stays bounded by the keys active in the last minutes.
package ratelimit

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is a set of token buckets sharing one rate and burst. A nil *Limiter allows
// everything. Safe for concurrent use.
type Limiter struct {
	limit rate.Limit
	burst int
	// idle is how long an unused bucket takes to refill completely; past it the bucket is
	// indistinguishable from a new one and is dropped.
	idle time.Duration

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// New returns a limiter allowing perMinute events per key on average with bursts of burst,
// or nil (no limit) when perMinute is 0 or less.
func New(perMinute, burst int) *Limiter {
	if perMinute <= 0 {
		return nil
	}
	burst = max(burst, 1)
	limit := rate.Limit(float64(perMinute) / 60)
	idle := time.Duration(math.Ceil(float64(burst)/float64(limit))) * time.Second
	return &Limiter{limit: limit, burst: burst, idle: max(idle, time.Minute), buckets: make(map[string]*bucket)}
}

// Allow takes one token from key's bucket at now. When the bucket is empty it returns false
// and how long until a token is available.
func (l *Limiter) Allow(key string, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, l.idle
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// Len reports how many buckets are held.
func (l *Limiter) Len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// sweep drops buckets idle long enough to be full again, at most once per idle period.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.idle {
		return
	}
	l.lastSweep = now
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= l.idle {
			delete(l.buckets, k)
		}
	}
}
