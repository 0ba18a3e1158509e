package publisher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"openvibe.live/backend/shared/vibe"
)

// readLimit bounds one gateway message; acks and readies are small.
const readLimit = 1 << 20

// rateLimitedBackoff is the least wait after the gateway closed with 4429.
const rateLimitedBackoff = 5 * time.Second

// errRateLimited marks a 4429 close: retried, but not too soon.
var errRateLimited = errors.New("rate limited by the gateway")

// run owns the connection: it connects, serves a session, and reconnects with jittered
// exponential backoff until ctx ends or the gateway refuses permanently.
func (c *Client) run(ctx context.Context) {
	defer close(c.done)
	backoff := c.cfg.BackoffMin
	for {
		established, err := c.session(ctx)
		c.setConnected(false)
		if ctx.Err() != nil {
			return
		}
		var rej *RejectedError
		if errors.As(err, &rej) {
			c.fail(rej)
			return
		}
		c.noteError(err)
		if established {
			backoff = c.cfg.BackoffMin
		}
		wait := backoff/2 + rand.N(backoff/2+1)
		if errors.Is(err, errRateLimited) {
			wait = max(wait, rateLimitedBackoff)
		}
		backoff = min(2*backoff, c.cfg.BackoffMax)
		c.cfg.Logger.DebugContext(ctx, "publisher reconnecting", "error", err, "wait", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// session serves one connection. established reports whether the handshake completed.
func (c *Client) session(ctx context.Context) (established bool, err error) {
	conn, ready, err := c.handshake(ctx)
	if err != nil {
		return false, err
	}
	defer conn.CloseNow()

	c.mu.Lock()
	c.ready = &ready
	c.stats.Connects++
	resend := append([]*item(nil), c.inflight...)
	c.retry = nil // resend covers every event in flight
	c.broadcastLocked()
	c.mu.Unlock()
	c.setConnected(true)
	if c.cfg.OnReady != nil {
		c.cfg.OnReady(ready)
	}

	var lastRecv atomic.Int64
	lastRecv.Store(c.cfg.Now().UnixNano())
	readErr := make(chan error, 1)
	readerDone := make(chan struct{})
	// The reader outlives ctx so that a closing handshake can complete: a cancelled read
	// would drop the connection at once.
	readCtx, stopReader := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		defer close(readerDone)
		readErr <- c.readLoop(readCtx, conn, &lastRecv)
	}()
	defer func() {
		conn.CloseNow()
		stopReader()
		<-readerDone
	}()

	ping := time.NewTicker(c.cfg.PingInterval)
	defer ping.Stop()
	for {
		if err := c.sendPending(ctx, conn, &resend); err != nil {
			return true, err
		}
		select {
		case <-ctx.Done():
			_ = conn.Close(websocket.StatusNormalClosure, "publisher closing")
			return true, ctx.Err()
		case err := <-readErr:
			return true, err
		case <-c.wake:
		case <-ping.C:
			if err := c.checkLiveness(lastRecv.Load()); err != nil {
				return true, err
			}
			if err := c.write(ctx, conn, vibe.Ping{Type: vibe.MsgPing, ProtocolVersion: vibe.ProtocolVersion, Timestamp: formatTime(c.cfg.Now())}); err != nil {
				return true, err
			}
		}
	}
}

// handshake dials, waits for vibe-coding.ready, sends the hello and waits for its ack.
func (c *Client) handshake(ctx context.Context) (*websocket.Conn, vibe.Ready, error) {
	hctx, cancel := context.WithTimeout(ctx, c.cfg.HandshakeTimeout)
	defer cancel()
	conn, resp, err := websocket.Dial(hctx, c.url, &websocket.DialOptions{
		HTTPClient: c.cfg.HTTPClient,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + c.cfg.Token}},
	})
	if err != nil {
		if resp != nil {
			if code := permanentCode(resp.StatusCode); code != 0 {
				return nil, vibe.Ready{}, &RejectedError{Code: code, Reason: bodyReason(resp.Body)}
			}
		}
		return nil, vibe.Ready{}, fmt.Errorf("connect to gateway: %w", err)
	}
	conn.SetReadLimit(readLimit)
	var serverMsg string
	var ready vibe.Ready
	if err := c.readUntil(hctx, conn, vibe.MsgReady, &ready, &serverMsg); err != nil {
		conn.CloseNow()
		return nil, ready, classify(err, serverMsg, "waiting for ready")
	}
	pub, err := json.Marshal(c.cfg.Publisher)
	if err != nil {
		conn.CloseNow()
		return nil, ready, fmt.Errorf("encode publisher: %w", err)
	}
	hello := vibe.Hello{
		Type: vibe.MsgHello, ProtocolVersion: vibe.ProtocolVersion,
		ManagedStreamID: c.cfg.ManagedStreamID, SlotSlug: c.cfg.SlotSlug,
		Timestamp: formatTime(c.cfg.Now()), SessionKey: c.cfg.SessionKey, Publisher: pub,
	}
	if err := c.write(hctx, conn, hello); err != nil {
		conn.CloseNow()
		return nil, ready, classify(err, serverMsg, "send hello")
	}
	var ack vibe.HelloAck
	if err := c.readUntil(hctx, conn, vibe.MsgHelloAck, &ack, &serverMsg); err != nil {
		conn.CloseNow()
		return nil, ready, classify(err, serverMsg, "waiting for hello ack")
	}
	return conn, ready, nil
}

// readUntil reads messages until one of type want arrives and decodes it into v. Errors
// the gateway sends meanwhile are remembered in serverMsg: a close usually follows.
func (c *Client) readUntil(ctx context.Context, conn *websocket.Conn, want string, v any, serverMsg *string) error {
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return err
		}
		var env vibe.Envelope
		if json.Unmarshal(data, &env) != nil {
			continue
		}
		switch env.Type {
		case want:
			if err := json.Unmarshal(data, v); err != nil {
				return fmt.Errorf("decode %s: %w", want, err)
			}
			return nil
		case vibe.MsgError: // a close follows; its error carries this text
			var e vibe.Error
			_ = json.Unmarshal(data, &e)
			*serverMsg = e.Error
		}
	}
}

// readLoop handles acks, errors, pongs and readies until the connection fails.
func (c *Client) readLoop(ctx context.Context, conn *websocket.Conn, lastRecv *atomic.Int64) error {
	var serverMsg string
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return classify(err, serverMsg, "read")
		}
		lastRecv.Store(c.cfg.Now().UnixNano())
		var env vibe.Envelope
		if json.Unmarshal(data, &env) != nil {
			continue
		}
		switch env.Type {
		case vibe.MsgAck:
			var a vibe.Ack
			if json.Unmarshal(data, &a) == nil {
				c.acked(a)
			}
		case vibe.MsgError:
			var e vibe.Error
			_ = json.Unmarshal(data, &e)
			if e.EventID != "" && retryable(e.Error) && c.retryLater(e.EventID) {
				c.report(&ServerError{Message: e.Error})
				continue
			}
			if e.EventID != "" && c.rejected(e.EventID, &EventError{EventID: e.EventID, Message: e.Error}) {
				continue
			}
			serverMsg = e.Error
			c.report(&ServerError{Message: e.Error})
			if strings.Contains(e.Error, "send hello again") {
				return fmt.Errorf("gateway lost the session: %s", e.Error)
			}
		case vibe.MsgReady:
			var r vibe.Ready
			if json.Unmarshal(data, &r) == nil {
				c.mu.Lock()
				c.ready = &r
				c.broadcastLocked()
				c.mu.Unlock()
				if c.cfg.OnReady != nil {
					c.cfg.OnReady(r)
				}
			}
		}
	}
}

// sendPending writes resends first, then queued events while the in-flight window has room.
func (c *Client) sendPending(ctx context.Context, conn *websocket.Conn, resend *[]*item) error {
	for {
		it := c.next(resend)
		if it == nil {
			return nil
		}
		if it.raw == nil {
			raw, err := c.encode(it)
			if err != nil { // cannot happen for a vibe.Event; never resend it
				c.rejected(it.ev.EventID, &EventError{EventID: it.ev.EventID, Message: err.Error()})
				continue
			}
			if len(raw) > c.cfg.MaxMessageBytes {
				c.rejected(it.ev.EventID, &EventError{EventID: it.ev.EventID, Message: fmt.Sprintf("event too large: %d bytes encoded, the gateway accepts %d", len(raw), c.cfg.MaxMessageBytes)})
				continue
			}
			it.raw = raw
		}
		if err := c.pace.Wait(ctx); err != nil {
			c.requeue(it)
			return err
		}
		// Counted before the write: the ack may be read (and Flush return) before Write does.
		c.mu.Lock()
		it.sends++
		it.sent = c.cfg.Now()
		c.stats.Sent++
		if it.sends > 1 {
			c.stats.Resent++
		}
		c.mu.Unlock()
		wctx, cancel := context.WithTimeout(ctx, c.cfg.HandshakeTimeout)
		err := conn.Write(wctx, websocket.MessageText, it.raw)
		cancel()
		if err != nil {
			return classify(err, "", "send event")
		}
	}
}

// next picks the next event to write, moving it from the queue into the in-flight window.
func (c *Client) next(resend *[]*item) *item {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(*resend) > 0 {
		it := (*resend)[0]
		*resend = (*resend)[1:]
		if !it.done {
			return it
		}
	}
	now := c.cfg.Now()
	for i := 0; i < len(c.retry); i++ {
		it := c.retry[i]
		if !it.done && now.Before(it.retryAt) {
			continue // backing off; a timer kicks the sender when it is due
		}
		c.retry = append(c.retry[:i], c.retry[i+1:]...)
		if !it.done {
			return it
		}
		i--
	}
	if len(c.queue) == 0 || len(c.inflight) >= c.cfg.MaxInFlight {
		return nil
	}
	it := c.queue[0]
	c.queue[0] = nil
	c.queue = c.queue[1:]
	if len(c.queue) == 0 {
		c.queue = nil // let the backing array go
	}
	c.inflight = append(c.inflight, it)
	c.broadcastLocked()
	return it
}

func (c *Client) encode(it *item) ([]byte, error) {
	ev, err := json.Marshal(c.prep.Sanitize(it.ev))
	if err != nil {
		return nil, fmt.Errorf("encode event: %w", err)
	}
	return json.Marshal(vibe.EventEnvelope{
		Type: vibe.MsgEvent, ProtocolVersion: vibe.ProtocolVersion,
		ManagedStreamID: c.cfg.ManagedStreamID, SlotSlug: c.cfg.SlotSlug,
		SessionKey: c.cfg.SessionKey, Timestamp: formatTime(c.cfg.Now()), Event: ev,
	})
}

// acked takes an acked event out of the in-flight window and hands the ack to OnAck. The
// event counts as pending until OnAck has returned, so that after Flush every ack has been
// reported.
func (c *Client) acked(a vibe.Ack) {
	c.mu.Lock()
	removed := c.removeInflightLocked(a.EventID)
	if removed {
		c.stats.Acked++
		if a.Duplicate {
			c.stats.Duplicates++
		} else if !a.Delivered {
			c.stats.Undelivered++
		}
		if a.Sequence > 0 {
			c.stats.LastAckSequence = a.Sequence
		}
	}
	c.mu.Unlock()
	c.kick()
	if c.cfg.OnAck != nil {
		c.cfg.OnAck(a)
	}
	if removed {
		c.settle()
	}
}

// retryable tells the event errors after which the gateway wants the event again.
func retryable(msg string) bool {
	return strings.Contains(msg, "send it again") || strings.Contains(msg, "send the event again")
}

// retryLater schedules an in-flight event to be written again after a backoff that doubles
// with each refusal (BackoffMin up to BackoffMax, jittered), so a gateway whose store is down
// is not flooded with resends; false if the event is not in flight.
func (c *Client) retryLater(eventID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, it := range c.inflight {
		if it.ev.EventID == eventID {
			it.retries++
			delay := retryDelay(c.cfg.BackoffMin, c.cfg.BackoffMax, it.retries)
			it.retryAt = c.cfg.Now().Add(delay)
			c.retry = append(c.retry, it)
			time.AfterFunc(delay, c.kick)
			return true
		}
	}
	return false
}

// retryDelay is min·2^(n-1), capped at max, with up to 25% jitter taken off.
func retryDelay(minDelay, maxDelay time.Duration, n int) time.Duration {
	d := minDelay
	for i := 1; i < n && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	return d - time.Duration(rand.Int64N(int64(d)/4+1))
}

// requeue puts back an event picked for writing but not written (it stays in flight and
// goes out first on the next connection).
func (c *Client) requeue(it *item) {
	c.mu.Lock()
	c.retry = append([]*item{it}, c.retry...)
	c.mu.Unlock()
}

// rejected takes an event the gateway refused for good out of the in-flight window and
// reports err for it; false (and nothing reported) if the event was not in flight.
func (c *Client) rejected(eventID string, err *EventError) bool {
	c.mu.Lock()
	if !c.removeInflightLocked(eventID) {
		c.mu.Unlock()
		return false
	}
	c.stats.Rejected++
	c.mu.Unlock()
	c.kick()
	c.report(err)
	c.settle()
	return true
}

// removeInflightLocked takes an answered event out of the in-flight window. Until settle,
// Flush still counts it: its callback has not run yet.
func (c *Client) removeInflightLocked(eventID string) bool {
	for i, it := range c.inflight {
		if it.ev.EventID == eventID {
			it.done = true
			c.inflight = append(c.inflight[:i], c.inflight[i+1:]...)
			c.answering++
			return true
		}
	}
	return false
}

// settle ends the answer of an event taken out of the in-flight window, once its callback
// has run.
func (c *Client) settle() {
	c.mu.Lock()
	c.answering--
	c.broadcastLocked()
	c.mu.Unlock()
}

// checkLiveness fails the connection when the gateway has been silent too long or the oldest
// event has waited too long for its ack.
func (c *Client) checkLiveness(lastRecv int64) error {
	now := c.cfg.Now()
	if silent := now.Sub(time.Unix(0, lastRecv)); silent > c.cfg.ReadTimeout {
		return fmt.Errorf("no message from the gateway for %s", silent.Round(time.Second))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.inflight) > 0 {
		oldest := c.inflight[0]
		if oldest.sends > 0 && now.Sub(oldest.sent) > c.cfg.AckTimeout {
			return fmt.Errorf("no ack for event %s after %s", oldest.ev.EventID, c.cfg.AckTimeout)
		}
	}
	return nil
}

func (c *Client) write(ctx context.Context, conn *websocket.Conn, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, c.cfg.HandshakeTimeout)
	defer cancel()
	return conn.Write(wctx, websocket.MessageText, data)
}

func (c *Client) setConnected(v bool) {
	c.mu.Lock()
	changed := c.stats.Connected != v
	c.stats.Connected = v
	if changed {
		c.broadcastLocked()
	}
	c.mu.Unlock()
	if changed && c.cfg.OnState != nil {
		c.cfg.OnState(v)
	}
}

func (c *Client) noteError(err error) {
	if err == nil {
		return
	}
	c.report(err)
}

// report records err as the last error and hands it to OnError.
func (c *Client) report(err error) {
	c.mu.Lock()
	c.stats.LastError = err.Error()
	c.stats.LastErrorAt = c.cfg.Now()
	c.broadcastLocked()
	c.mu.Unlock()
	if c.cfg.OnError != nil {
		c.cfg.OnError(err)
	}
}

func (c *Client) fail(err *RejectedError) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	c.report(err)
	c.cfg.Logger.ErrorContext(context.Background(), "publisher stopped", "error", err)
}

// classify turns a connection error into a *RejectedError for the permanent close codes,
// errRateLimited for 4429, or a wrapped error to retry.
func classify(err error, serverMsg, doing string) error {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		reason := ce.Reason
		if reason == "" {
			reason = serverMsg
		}
		if code := permanentCode(int(ce.Code)); code != 0 {
			return &RejectedError{Code: code, Reason: reason}
		}
		if int(ce.Code) == vibe.CloseRateLimited {
			return fmt.Errorf("%s: %w (%s)", doing, errRateLimited, reason)
		}
		return fmt.Errorf("%s: gateway closed the connection (%d %s)", doing, ce.Code, reason)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// bodyReason extracts {"error": "..."} from a refused handshake's body.
func bodyReason(body io.Reader) string {
	if body == nil {
		return ""
	}
	data, _ := io.ReadAll(io.LimitReader(body, 1024))
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &e) == nil {
		if e.Error != "" {
			return e.Error
		}
		return e.Message
	}
	return ""
}
