package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// conn is one publisher connection after ready. Three goroutines serve it:
//   - the reader (the HTTP handler's goroutine) reads and handles client messages, one at a
//     time, and owns the connection's lifecycle;
//   - the writer is the only one writing data frames: replies from the reader, and acks or
//     errors for stored events, queued by the batch writer;
//   - the pinger sends WebSocket pings and drops the connection when they go unanswered.
//
// Every event handed to the batch writer holds one in-flight token until its ack (or error)
// is written, so the results queue never fills and a connection cannot queue more than
// MaxInflight events.
type conn struct {
	g         *Gateway
	ws        *websocket.Conn
	log       *slog.Logger
	slot      *slotState
	principal auth.Principal
	limiter   *rate.Limiter

	replies    chan []byte   // reader → writer
	results    chan []byte   // batch writer → writer; capacity MaxInflight
	inflight   chan struct{} // tokens; capacity MaxInflight
	wake       chan struct{}
	writerDone chan struct{}
	closing    atomic.Bool // no new events are taken

	mu       sync.Mutex
	closeReq *closeRequest
	sessions map[int64]store.VibeSession // every session this connection established

	// Reader-only state.
	current   *connSession            // the last hello's session, or the one the first event adopted
	byKey     map[string]*connSession // every session this connection opened, by key
	publisher json.RawMessage         // the last hello's normalized publisher
	buf       bytes.Buffer
}

// connSession is a session a connection publishes into, with the sanitizer of its events.
type connSession struct {
	row store.VibeSession
	san eventSanitizer
}

// closeRequest asks the writer to end the connection. A graceful one waits until every
// in-flight event is answered, then sends a vibe-coding.error and the close frame; an abort
// drops the connection at once (the peer is gone).
type closeRequest struct {
	code   websocket.StatusCode
	reason string
	abort  bool
}

func newConn(g *Gateway, ws *websocket.Conn, log *slog.Logger) *conn {
	n := g.cfg.MaxInflight
	return &conn{
		g: g, ws: ws, log: log,
		limiter:    rate.NewLimiter(rate.Limit(g.cfg.ConnRate), g.cfg.ConnBurst),
		replies:    make(chan []byte, 16),
		results:    make(chan []byte, n),
		inflight:   make(chan struct{}, n),
		wake:       make(chan struct{}, 1),
		writerDone: make(chan struct{}),
		sessions:   map[int64]store.VibeSession{},
		byKey:      map[string]*connSession{},
	}
}

// attach binds the admitted connection to its principal and slot.
func (c *conn) attach(p auth.Principal, slot *slotState, log *slog.Logger) {
	c.principal, c.slot, c.log = p, slot, log
}

// serve sends ready, then runs the connection until it ends.
func (c *conn) serve(ctx context.Context, ready []byte) {
	c.replies <- ready // the writer is not running yet and the queue is empty
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(c.writeLoop)
	wg.Go(func() { c.pingLoop(ctx) })

	req := c.readLoop(ctx)
	c.requestClose(req)
	<-c.writerDone
	cancel()
	wg.Wait()
	_ = c.ws.CloseNow()
	c.endSessions()
}

// requestClose asks the writer to close; an abort overrides a graceful request.
func (c *conn) requestClose(req closeRequest) {
	c.closing.Store(true)
	c.mu.Lock()
	if c.closeReq == nil || (req.abort && !c.closeReq.abort) {
		c.closeReq = &req
	}
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *conn) pendingClose() *closeRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeReq
}

// deliver queues an ack or error for an event that holds an in-flight token. It never
// blocks: the token guarantees room.
func (c *conn) deliver(b []byte) {
	select {
	case c.results <- b:
	default:
		c.g.met.ackDrops.Inc()
	}
}

// reply queues a reader-side reply; false when the writer is gone.
func (c *conn) reply(b []byte) bool {
	select {
	case c.replies <- b:
		return true
	case <-c.writerDone:
		return false
	}
}

// acquire takes an in-flight token, waiting for acks to go out when MaxInflight are pending.
func (c *conn) acquire() bool {
	select {
	case c.inflight <- struct{}{}:
		return true
	case <-c.writerDone:
		return false
	}
}

func (c *conn) release() { <-c.inflight }

func (c *conn) writeLoop() {
	defer close(c.writerDone)
	var drain <-chan time.Time
	for {
		if req := c.pendingClose(); req != nil {
			if req.abort {
				_ = c.ws.CloseNow()
				return
			}
			if drain == nil {
				t := time.NewTimer(c.g.cfg.StoreTimeout + c.g.cfg.PublishTimeout + time.Second)
				defer t.Stop()
				drain = t.C
			}
			if len(c.inflight) == 0 && len(c.replies) == 0 && len(c.results) == 0 {
				c.finalClose(*req)
				return
			}
		}
		// Reader-side replies go first when both queues hold something: ready opens the
		// conversation and a session's hello-ack precedes the acks of its events, which a
		// select between ready channels would order at random (an ack reached a publisher
		// before ready on a loaded machine).
		select {
		case b := <-c.replies:
			if !c.write(b) {
				return
			}
			continue
		default:
		}
		select {
		case b := <-c.replies:
			if !c.write(b) {
				return
			}
		case b := <-c.results:
			ok := c.write(b)
			c.release()
			if !ok {
				return
			}
		case <-c.wake:
		case <-drain:
			c.log.Warn("closing with events still unanswered", "in_flight", len(c.inflight))
			c.finalClose(*c.pendingClose())
			return
		}
	}
}

func (c *conn) write(b []byte) bool {
	ctx, cancel := context.WithTimeout(context.Background(), c.g.cfg.WriteTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.log.Debug("write to publisher failed", "error", err)
		_ = c.ws.CloseNow()
		return false
	}
	return true
}

// finalClose sends the error message that names the reason, then the close frame.
func (c *conn) finalClose(req closeRequest) {
	if !c.write(errorMessage(req.reason, "")) {
		return
	}
	_ = c.ws.Close(req.code, req.reason)
}

func (c *conn) pingLoop(ctx context.Context) {
	t := time.NewTicker(c.g.cfg.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if c.closing.Load() {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, c.g.cfg.PingTimeout)
		err := c.ws.Ping(pctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil && !c.closing.Load() {
				c.g.met.pingTimeouts.Inc()
				c.log.Info("dropping publisher that stopped answering pings", "error", err)
				_ = c.ws.CloseNow()
			}
			return
		}
		c.touchSessions(ctx)
	}
}

// readLoop reads and handles messages until the connection must close, and says how.
func (c *conn) readLoop(ctx context.Context) closeRequest {
	limit := c.g.cfg.MaxMessageBytes
	c.ws.SetReadLimit(limit + 1) // the library never cuts first: readMessage does, with an error message
	for {
		data, err := c.readMessage(ctx, limit)
		if errors.Is(err, errTooLarge) {
			c.g.met.eventsRejected.WithLabelValues(reasonTooLarge).Inc()
			c.g.met.closes.WithLabelValues("too_large").Inc()
			return closeRequest{code: closeTooBig, reason: tooLargeReason(limit)}
		}
		if err != nil {
			if req := c.pendingClose(); req != nil && !req.abort {
				c.g.met.closes.WithLabelValues("shutdown").Inc()
				return *req // our own close frame ended the read: let the writer finish it
			}
			c.g.met.closes.WithLabelValues(closeCause(err)).Inc()
			return closeRequest{abort: true}
		}
		if !c.limiter.Allow() {
			c.g.met.eventsRejected.WithLabelValues(reasonRateLimited).Inc()
			c.g.met.closes.WithLabelValues("rate_limited").Inc()
			return closeRequest{code: vibe.CloseRateLimited, reason: vibe.ReasonRateLimited}
		}
		if req := c.handleSafely(ctx, data); req != nil {
			return *req
		}
	}
}

// handleSafely handles one message; a panic (a bug) ends this connection with 1011 instead
// of the process.
func (c *conn) handleSafely(ctx context.Context, data []byte) (req *closeRequest) {
	defer func() {
		if r := recover(); r != nil {
			c.log.ErrorContext(ctx, "panic while handling a publisher message", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			c.g.met.closes.WithLabelValues("internal_error").Inc()
			req = &closeRequest{code: closeInternalErr, reason: TextInternal}
		}
	}()
	return c.handle(ctx, data)
}

var errTooLarge = errors.New("message too large")

func (c *conn) readMessage(ctx context.Context, limit int64) ([]byte, error) {
	_, r, err := c.ws.Reader(ctx)
	if err != nil {
		return nil, err
	}
	c.buf.Reset()
	n, err := c.buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, errTooLarge
	}
	return c.buf.Bytes(), nil
}

func closeCause(err error) string {
	switch websocket.CloseStatus(err) {
	case -1:
		return "dropped"
	case websocket.StatusNormalClosure, websocket.StatusGoingAway:
		return "client_closed"
	default:
		return "client_error"
	}
}

// endSessions marks the connection's sessions ended, unless another connection on this
// gateway still uses one of them.
func (c *conn) endSessions() {
	c.mu.Lock()
	sessions := make([]store.VibeSession, 0, len(c.sessions))
	for _, s := range c.sessions {
		sessions = append(sessions, s)
	}
	c.mu.Unlock()
	for _, s := range sessions {
		if !c.g.sessions.release(s.ID) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.g.cfg.StoreTimeout)
		if err := c.g.st.EndVibeSession(ctx, s.ID, c.g.now()); err != nil {
			c.g.met.sessionErrors.Inc()
			c.log.Warn("ending session failed; the reaper will end it", "session_id", s.ID, "error", err)
		}
		cancel()
	}
}

// touchSessions refreshes last_seen_at of the connection's sessions now and then, so the
// idle reaper (which also ends sessions orphaned by a crashed gateway) spares live ones.
func (c *conn) touchSessions(ctx context.Context) {
	every := min(c.g.cfg.IdleSessionTimeout/3, time.Minute)
	now := c.g.now()
	c.mu.Lock()
	var due []store.VibeSession
	for id, s := range c.sessions {
		if now.Sub(s.LastSeenAt) >= every {
			s.LastSeenAt = now
			c.sessions[id] = s
			due = append(due, s)
		}
	}
	c.mu.Unlock()
	for _, s := range due {
		sctx, cancel := context.WithTimeout(ctx, c.g.cfg.StoreTimeout)
		s.LiveStreamID = c.slot.current().liveStreamID
		if _, err := c.g.st.UpsertVibeSession(sctx, s); err != nil {
			c.g.met.sessionErrors.Inc()
			c.log.Warn("refreshing session failed", "session_id", s.ID, "error", err)
		}
		cancel()
	}
}
