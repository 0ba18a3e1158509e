package redis_test

import (
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker/brokertest"
	"openvibe.live/backend/shared/broker/redis"
	"openvibe.live/backend/shared/testenv"
)

// TestSilentConnectionIsReplaced: when the pub/sub connection stops carrying data without
// closing (a network partition, a hung server), the health-check PING goes unanswered, the
// connection is dropped and replaced, and the subscriber gets a Gap and then new messages.
func TestSilentConnectionIsReplaced(t *testing.T) {
	t.Parallel()
	srv := testenv.StartRedisServer(t)
	p := newProxy(t, "127.0.0.1:"+strconv.Itoa(srv.Port))
	b, err := redis.Open(t.Context(), "redis://"+p.addr()+"/0?read_timeout=500ms", redis.Options{HealthInterval: 100 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(tlog{t}, nil))})
	require.NoError(t, err)
	defer b.Close()

	ch := brokertest.Channel(t, "silent")
	sub, err := b.Subscribe(t.Context(), ch)
	require.NoError(t, err)
	defer sub.Close()
	require.NoError(t, b.Publish(t.Context(), ch, []byte("before")))
	require.Equal(t, "before", brokertest.ReceivePayload(t, sub))

	p.freezeExisting() // every open connection goes silent; new ones work
	m := brokertest.Receive(t, sub)
	require.True(t, m.Gap, "got %q instead of a Gap", m.Payload)
	// The client's pooled connections are frozen too: PUBLISH on one of them times out
	// (uncertain, so an error) and the broken connection is discarded; the caller retries.
	require.Eventually(t, func() bool { return b.Publish(t.Context(), ch, []byte("after")) == nil },
		5*time.Second, 10*time.Millisecond)
	require.Equal(t, "after", brokertest.ReceivePayload(t, sub))
}

// proxy forwards TCP connections to target; freezeExisting makes the current ones stop
// forwarding while staying open.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []*proxiedConn
	wg     sync.WaitGroup
}

type proxiedConn struct {
	client, server net.Conn
	mu             sync.Mutex
	frozen         bool
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &proxy{ln: ln, target: target}
	p.wg.Go(p.accept)
	t.Cleanup(func() {
		_ = ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			_ = c.client.Close()
			_ = c.server.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = client.Close()
			continue
		}
		c := &proxiedConn{client: client, server: server}
		p.mu.Lock()
		p.conns = append(p.conns, c)
		p.mu.Unlock()
		p.wg.Go(func() { c.pipe(server, client) })
		p.wg.Go(func() { c.pipe(client, server) })
	}
}

func (p *proxy) freezeExisting() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.mu.Lock()
		c.frozen = true
		c.mu.Unlock()
	}
}

// pipe copies src to dst, discarding everything once frozen.
func (c *proxiedConn) pipe(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if err != nil {
			return
		}
		c.mu.Lock()
		frozen := c.frozen
		c.mu.Unlock()
		if frozen {
			continue
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			return
		}
	}
}

type tlog struct{ t *testing.T }

func (l tlog) Write(p []byte) (int, error) { l.t.Log(string(p)); return len(p), nil }
