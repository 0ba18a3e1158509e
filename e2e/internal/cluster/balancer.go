package cluster

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Balancer is a plain TCP load balancer on loopback, as a cloud load balancer in front of
// replicas would be: round robin over the backends, skipping one that refuses the
// connection; no stickiness and no knowledge of the protocol.
type Balancer struct {
	Addr     string
	backends []string
	l        net.Listener
	next     atomic.Uint64
	wg       sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// NewBalancer listens on a free loopback port and forwards to backends until the test ends.
func NewBalancer(t testing.TB, backends ...string) *Balancer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &Balancer{Addr: l.Addr().String(), backends: backends, l: l, conns: map[net.Conn]struct{}{}}
	b.wg.Add(1)
	go b.accept()
	t.Cleanup(b.Close)
	return b
}

// URL is the balancer's base URL.
func (b *Balancer) URL() string { return "http://" + b.Addr }

// Close stops accepting, cuts every connection and waits for the forwarding goroutines.
func (b *Balancer) Close() {
	_ = b.l.Close()
	b.mu.Lock()
	for c := range b.conns {
		_ = c.Close()
	}
	b.conns = nil
	b.mu.Unlock()
	b.wg.Wait()
}

func (b *Balancer) accept() {
	defer b.wg.Done()
	for {
		c, err := b.l.Accept()
		if err != nil {
			return
		}
		b.wg.Add(1)
		go b.serve(c)
	}
}

func (b *Balancer) track(c net.Conn, on bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !on {
		delete(b.conns, c)
		return true
	}
	if b.conns == nil {
		_ = c.Close()
		return false
	}
	b.conns[c] = struct{}{}
	return true
}

func (b *Balancer) serve(c net.Conn) {
	defer b.wg.Done()
	defer c.Close()
	start := b.next.Add(1)
	var up net.Conn
	for i := range uint64(len(b.backends)) {
		addr := b.backends[(start+i)%uint64(len(b.backends))]
		var err error
		if up, err = net.DialTimeout("tcp", addr, 2*time.Second); err == nil {
			break
		}
	}
	if up == nil {
		return
	}
	defer up.Close()
	b.track(c, true)
	b.track(up, true)
	defer b.track(c, false)
	defer b.track(up, false)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		// Half-close is not forwarded: a closed side ends the pair, as a crash would.
		_ = dst.Close()
		_ = src.Close()
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	<-done
}
