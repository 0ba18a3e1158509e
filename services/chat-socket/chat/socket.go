package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/chat-socket/internal/room"
	"openvibe.live/backend/shared/auth"
)

// Close codes and reasons of the viewer socket (see docs/protocol.md).
const (
	closeNormal      = 1000
	closeGoingAway   = 1001
	closeBadRequest  = 4400
	closePingTimeout = 4002
	reasonShutdown   = "server shutting down"
	reasonPeerClosed = "closed by peer"
	reasonPing       = "ping timeout"
)

// readLimit caps one client message; chat messages are far smaller.
const readLimit = 8 << 10

// lookupTimeout bounds resolving the slot and the viewer's credential on join.
const lookupTimeout = 5 * time.Second

var batchPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// connection is one viewer socket.
type connection struct {
	s      *Server
	conn   *websocket.Conn
	v      *room.Viewer
	batch  bool
	ctx    context.Context
	cancel context.CancelFunc
	// writeStart is when the current write began (unix ns), 0 between writes; the server's
	// sweeper closes the viewer when a write stalls past WriteTimeout.
	writeStart atomic.Int64

	// Owned by the reader goroutine (and by serve once the reader has stopped).
	room *room.Room // the room joined, nil when none
	slot room.Slot
	orig *originalViewer // the original platform's socket; nil on /ws/chat/:username/:slot
}

func (s *Server) handleSocket(c echo.Context) error {
	req := c.Request()
	conn, err := s.upgrade(c)
	if conn == nil {
		return err
	}
	// The socket outlives this handler: once upgraded it runs on its own goroutines, so the
	// handler's deep stack (net/http, echo, middleware) is not kept for every viewer.
	ctx, cancel := context.WithCancel(context.Background())
	handedOff := false
	defer func() {
		if !handedOff {
			cancel()
		}
	}()

	since, batch, err := parseQuery(req.URL.Query())
	if err != nil {
		_ = conn.Close(closeBadRequest, err.Error())
		return nil
	}
	lookupCtx, cancelLookup := context.WithTimeout(ctx, lookupTimeout)
	defer cancelLookup()
	slot, err := s.slots.Resolve(lookupCtx, c.Param("username"), c.Param("slot"))
	if err != nil {
		if errors.Is(err, errSlotNotFound) {
			_ = conn.Close(room.CloseNotFound, room.ReasonNotFound)
		} else {
			s.log.ErrorContext(ctx, "resolve slot", "error", err)
			_ = conn.Close(room.CloseUnavailable, "try again later")
		}
		return nil
	}
	userID, username := s.viewer(lookupCtx, auth.TokenFromRequest(req))
	v := room.NewViewer(s.cfg.SendQueueBytes, userID, username)
	cc := &connection{s: s, conn: conn, v: v, batch: batch, ctx: ctx, cancel: cancel}
	handedOff = s.start(cc, func() bool {
		r, err := s.hub.Join(cc.ctx, slot, cc.v, since)
		cc.room, cc.slot = r, slot
		return err == nil
	})
	return nil
}

// upgrade checks the origin and accepts the WebSocket; nil when it answered the request
// itself (refused origin, failed upgrade).
func (s *Server) upgrade(c echo.Context) (*websocket.Conn, error) {
	req := c.Request()
	if err := checkOrigin(req, s.cfg.AllowedOrigins); err != nil {
		return nil, echo.NewHTTPError(http.StatusForbidden, "origin not allowed")
	}
	conn, err := websocket.Accept(c.Response(), req, &websocket.AcceptOptions{
		InsecureSkipVerify: true, // checked above, with our own error response
		CompressionMode:    websocket.CompressionDisabled,
	})
	if err != nil {
		return nil, nil // Accept has written the HTTP error
	}
	conn.SetReadLimit(readLimit)
	return conn, nil
}

// start hands an upgraded connection to its own goroutine, which joins (false: the hub is
// closing) and serves it. It reports false when the server is shutting down.
func (s *Server) start(cc *connection, join func() bool) bool {
	if !s.conns.Add(cc) {
		_ = cc.conn.Close(closeGoingAway, reasonShutdown)
		return false
	}
	go func() {
		defer s.conns.Remove(cc)
		defer cc.cancel()
		cc.serve(join)
	}()
	return true
}

// viewer authenticates the optional credential. A missing or invalid one leaves the viewer
// anonymous (it can watch but not chat); only session JWTs may chat.
func (s *Server) viewer(ctx context.Context, tok string) (int64, string) {
	if tok == "" {
		return 0, ""
	}
	p, err := s.auth.Authenticate(ctx, tok)
	if err != nil || p.IsToken() {
		return 0, ""
	}
	return p.UserID, p.Username
}

func parseQuery(q url.Values) (since *int64, batch bool, err error) {
	if batch, err = parseBatch(q); err != nil {
		return nil, false, err
	}
	if raw := q.Get("since"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 0 {
			return nil, false, errors.New("since must be a non-negative integer")
		}
		since = &n
	}
	return since, batch, nil
}

// parseBatch reads the batch parameter: frames are one JSON object per WebSocket message
// unless the client asks for coalescing with batch=1.
func parseBatch(q url.Values) (bool, error) {
	switch q.Get("batch") {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, errors.New("batch must be 0 or 1")
}

// checkOrigin allows requests without an Origin (non-browser clients), same-host origins and
// the configured patterns.
func checkOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return errors.New("malformed origin")
	}
	if strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	for _, p := range patterns {
		p = strings.ToLower(strings.TrimSpace(p))
		target := strings.ToLower(u.Host)
		if strings.Contains(p, "://") {
			target = strings.ToLower(u.Scheme + "://" + u.Host)
		}
		if ok, _ := path.Match(p, target); ok {
			return nil
		}
	}
	return errors.New("origin not allowed")
}

// serve runs the connection: join, write frames until the viewer is killed or the peer
// leaves, then close with the viewer's close code and leave the room.
func (cc *connection) serve(join func() bool) {
	s := cc.s
	if !join() {
		_ = cc.conn.Close(closeGoingAway, reasonShutdown)
		return
	}
	defer cc.leaveRoom()
	var readers sync.WaitGroup
	readers.Go(cc.readLoop)
	ping := time.AfterFunc(s.cfg.PingInterval, cc.ping)
	cc.writeLoop()
	ping.Stop()
	code, reason := cc.v.CloseStatus()
	if code == room.CloseSlow {
		s.metrics.SlowDisconnects.Inc()
	}
	_ = cc.conn.Close(websocket.StatusCode(code), reason)
	cc.cancel()
	readers.Wait()
}

func (cc *connection) writeLoop() {
	var buf [][]byte
	for {
		frames, ok := cc.v.Next(cc.ctx, buf)
		if !ok {
			return
		}
		if err := cc.write(frames); err != nil {
			cc.v.Kill(room.CloseSlow, room.ReasonSlow)
			return
		}
		clear(frames)
		buf = frames[:0]
	}
}

// leaveRoom leaves the room joined, if any.
func (cc *connection) leaveRoom() {
	if cc.room != nil {
		cc.s.hub.Leave(cc.room, cc.v)
		cc.room = nil
	}
}

// write sends frames, one JSON object per WebSocket message, or coalesced into messages of
// up to MaxBatchBytes joined by '\n' when the viewer asked for it (batch=1).
func (cc *connection) write(frames [][]byte) error {
	cc.writeStart.Store(time.Now().UnixNano())
	defer cc.writeStart.Store(0)
	// No deadline on the context: a timer per write costs more than the write itself at
	// high fan-out; cutStalledWrites enforces WriteTimeout instead.
	ctx := context.Background()
	if !cc.batch || len(frames) == 1 {
		for _, f := range frames {
			if err := cc.conn.Write(ctx, websocket.MessageText, f); err != nil {
				return err
			}
		}
		return nil
	}
	b := batchPool.Get().(*bytes.Buffer)
	defer batchPool.Put(b)
	b.Reset()
	for _, f := range frames {
		if b.Len() > 0 && b.Len()+1+len(f) > cc.s.cfg.MaxBatchBytes {
			if err := cc.conn.Write(ctx, websocket.MessageText, b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.Write(f)
	}
	return cc.conn.Write(ctx, websocket.MessageText, b.Bytes())
}

// ping checks the peer is alive, and re-arms itself; a peer that does not answer is dropped.
func (cc *connection) ping() {
	ctx, cancel := context.WithTimeout(cc.ctx, cc.s.cfg.PongTimeout)
	defer cancel()
	if err := cc.conn.Ping(ctx); err != nil {
		cc.v.Kill(closePingTimeout, reasonPing)
		return
	}
	select {
	case <-cc.v.Done():
	default:
		time.AfterFunc(cc.s.cfg.PingInterval, cc.ping)
	}
}

// clientMessage is what viewers send.
type clientMessage struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func (cc *connection) readLoop() {
	for {
		typ, data, err := cc.conn.Read(cc.ctx)
		if err != nil {
			cc.v.Kill(closeNormal, reasonPeerClosed)
			return
		}
		if cc.orig != nil {
			cc.handleOriginal(typ, data)
			continue
		}
		if typ != websocket.MessageText {
			cc.v.Send(room.ErrorBytes("binary messages are not supported"))
			continue
		}
		var m clientMessage
		if err := json.Unmarshal(data, &m); err != nil {
			cc.v.Send(room.ErrorBytes("message is not valid JSON"))
			continue
		}
		switch m.Type {
		case "chat.send":
			if problem := cc.s.sendChat(cc.ctx, cc.slot, chatter{cc.v.UserID, cc.v.Username}, m.Text); problem != "" {
				cc.v.Send(room.ErrorBytes(problem))
			}
		case "ping":
			cc.v.Send(pongFrame)
		default:
			cc.v.Send(room.ErrorBytes("unknown message type"))
		}
	}
}

var pongFrame = room.Encode(map[string]string{"type": room.FramePong})
