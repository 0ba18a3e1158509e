// Package viewerclient is a typed client of the viewer socket, the chat-socket's WebSocket,
// for the tests and the load tools. It joins a slot either way the server offers
// (/ws/chat/:username/:slot, or the original platform's /ws/chat?stream= and a join frame),
// speaks both framings (one JSON object per message, the default, and ?batch=1, frames
// coalesced one per line), and keeps every frame as the server sent it so callers can check
// every field. docs/protocol.md describes the socket.
package viewerclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"openvibe.live/backend/shared/vibe"
)

// Frame types beyond the vibe-coding ones in shared/vibe.
const (
	FrameWelcome     = "welcome"
	FrameChatHistory = "chat.history"
	FrameChatMessage = "chat.message"
	FrameReset       = "reset"
	FrameError       = "error"
	FramePong        = "pong"
)

// DefaultReadLimit caps one message read when Options.ReadLimit is zero.
const DefaultReadLimit = 4 << 20

// Options say how to join and what to ask for.
type Options struct {
	// Username and Slot (its id or slug) join /ws/chat/:username/:slot.
	Username, Slot string
	// Stream, when Username is empty, joins the original platform's way: /ws/chat?stream=<id>
	// (the server joins a live stream's slot at once), then, once open, sends
	// {"type":"join","streamId":<id>} (with the token, if any) as the original client does,
	// unless NoJoin is set. With neither Username nor Stream the socket opens /ws/chat bare.
	Stream int64
	NoJoin bool
	// Resume sends ?since=Since: replay the events after that seq (0: from the start).
	Resume bool
	Since  int64
	// Batch asks for coalesced frames (?batch=1); by default every message holds one frame.
	Batch bool
	// Token is a session JWT, sent as ?token=.
	Token string
	// Query holds further parameters, sent as given (to test how bad ones are refused).
	Query url.Values
	// Header is sent with the upgrade request (an Authorization header, a cookie, Origin).
	Header http.Header
	// HTTPClient dials the connection (nil: the default).
	HTTPClient *http.Client
	// ReadLimit caps one message (0: DefaultReadLimit).
	ReadLimit int64
}

// URL is the socket's address on base (http://host:port, ws://host:port or host:port).
func URL(base string, o Options) string {
	u := wsBase(base)
	q := url.Values{}
	switch {
	case o.Username != "":
		u.Path = "/ws/chat/" + o.Username + "/" + o.Slot
		u.RawPath = "/ws/chat/" + url.PathEscape(o.Username) + "/" + url.PathEscape(o.Slot)
	default:
		u.Path = "/ws/chat"
		if o.Stream != 0 {
			q.Set("stream", strconv.FormatInt(o.Stream, 10))
		}
	}
	if o.Resume {
		q.Set("since", strconv.FormatInt(o.Since, 10))
	}
	if o.Batch {
		q.Set("batch", "1")
	}
	if o.Token != "" {
		q.Set("token", o.Token)
	}
	for k, vs := range o.Query {
		q[k] = append(q[k], vs...)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func wsBase(base string) *url.URL {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		u = &url.URL{Host: base}
	}
	switch u.Scheme {
	case "https", "wss":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	return u
}

// Conn is one viewer connection. Its methods other than Send, Close and CloseNow must not
// be called concurrently.
type Conn struct {
	ws    *websocket.Conn
	batch bool
	// pending are the frames of the last message not returned by Next yet.
	pending []Frame
	buf     bytes.Buffer
}

// DialError is a refused upgrade: the server answered with an HTTP status instead.
type DialError struct {
	Status int
	Body   string
	Err    error
}

func (e *DialError) Error() string {
	return fmt.Sprintf("dial viewer socket: HTTP %d %s: %v", e.Status, e.Body, e.Err)
}

func (e *DialError) Unwrap() error { return e.Err }

// Dial opens a viewer socket on base and, for the original platform's join, sends the join
// frame.
func Dial(ctx context.Context, base string, o Options) (*Conn, error) {
	ws, resp, err := websocket.Dial(ctx, URL(base, o), &websocket.DialOptions{HTTPHeader: o.Header, HTTPClient: o.HTTPClient})
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			var body bytes.Buffer
			if resp.Body != nil {
				_, _ = body.ReadFrom(io.LimitReader(resp.Body, 1024))
				_ = resp.Body.Close()
			}
			return nil, &DialError{Status: resp.StatusCode, Body: body.String(), Err: err}
		}
		return nil, fmt.Errorf("dial viewer socket: %w", err)
	}
	limit := o.ReadLimit
	if limit == 0 {
		limit = DefaultReadLimit
	}
	ws.SetReadLimit(limit)
	c := &Conn{ws: ws, batch: o.Batch}
	if o.Username == "" && o.Stream != 0 && !o.NoJoin {
		join := map[string]any{"type": "join", "streamId": o.Stream}
		if o.Token != "" {
			join["token"] = o.Token
		}
		if err := c.Send(ctx, join); err != nil {
			ws.CloseNow()
			return nil, fmt.Errorf("send join: %w", err)
		}
	}
	return c, nil
}

// Frame is one server frame: its type and seq (0 when it has none), the raw JSON object, and
// when the message holding it was read.
type Frame struct {
	Type string
	Seq  int64
	Raw  json.RawMessage
	At   time.Time
}

// Decode decodes the frame into v.
func (f Frame) Decode(v any) error { return json.Unmarshal(f.Raw, v) }

// Fields decodes the frame into a map, to check the exact set of fields.
func (f Frame) Fields() (map[string]any, error) {
	var m map[string]any
	err := json.Unmarshal(f.Raw, &m)
	return m, err
}

// Vibe decodes a vibe-coding frame.
func (f Frame) Vibe() (vibe.ViewerFrame, error) {
	var v vibe.ViewerFrame
	if f.Type != vibe.FrameVibeCoding {
		return v, fmt.Errorf("a %q frame, not %q", f.Type, vibe.FrameVibeCoding)
	}
	err := f.Decode(&v)
	return v, err
}

// FramingError is a message that breaks the framing asked for: in the default framing, a
// message that is not exactly one JSON object (or, with batch, a line that is not one). The
// connection stays usable.
type FramingError struct {
	Message []byte
	Err     error
}

func (e *FramingError) Error() string {
	return fmt.Sprintf("message %.200q is not framed as asked: %v", e.Message, e.Err)
}

func (e *FramingError) Unwrap() error { return e.Err }

// Next returns the next frame, reading a message when none is pending. A read error ends
// the connection (coder/websocket closes the socket when ctx ends during a read); a
// *FramingError does not.
func (c *Conn) Next(ctx context.Context) (Frame, error) {
	for len(c.pending) == 0 {
		if err := c.readFrames(ctx); err != nil {
			return Frame{}, err
		}
	}
	f := c.pending[0]
	c.pending = c.pending[1:]
	return f, nil
}

func (c *Conn) readFrames(ctx context.Context) error {
	_, data, err := c.ws.Read(ctx)
	if err != nil {
		return err
	}
	at := time.Now()
	if !c.batch {
		f, err := parseFrame(data, at)
		if err != nil {
			return &FramingError{Message: data, Err: err}
		}
		c.pending = append(c.pending, f)
		return nil
	}
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		f, err := parseFrame(line, at)
		if err != nil {
			return &FramingError{Message: data, Err: err}
		}
		c.pending = append(c.pending, f)
	}
	return nil
}

// parseFrame decodes one frame's type and seq, keeping a copy of its bytes.
func parseFrame(b []byte, at time.Time) (Frame, error) {
	var head struct {
		Type *string `json:"type"`
		Seq  int64   `json:"seq"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return Frame{}, err
	}
	if head.Type == nil {
		return Frame{}, errors.New("the frame has no type")
	}
	return Frame{Type: *head.Type, Seq: head.Seq, Raw: bytes.Clone(b), At: at}, nil
}

// ReadMessage reads one WebSocket message into a buffer the Conn reuses and calls fn with
// each frame it holds (the whole message, or with batch each non-empty line) and the time
// the message was read, neither copied nor decoded: the load tools' path, where a decode per
// frame would cost more than the delivery measured. frame is valid only during fn. It must
// not be mixed with Next.
func (c *Conn) ReadMessage(ctx context.Context, fn func(frame []byte, at time.Time)) error {
	_, r, err := c.ws.Reader(ctx)
	if err != nil {
		return err
	}
	c.buf.Reset()
	if _, err := c.buf.ReadFrom(r); err != nil {
		return err
	}
	at := time.Now()
	if !c.batch {
		fn(c.buf.Bytes(), at)
		return nil
	}
	for line := range bytes.SplitSeq(c.buf.Bytes(), []byte{'\n'}) {
		if len(line) > 0 {
			fn(line, at)
		}
	}
	return nil
}

// Send encodes v as JSON and sends it as one text message.
func (c *Conn) Send(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// SendChat posts a chat message as {"type":"chat.send","text":…}.
func (c *Conn) SendChat(ctx context.Context, text string) error {
	return c.Send(ctx, map[string]string{"type": "chat.send", "text": text})
}

// WS exposes the underlying socket (to ping, or to write odd frames).
func (c *Conn) WS() *websocket.Conn { return c.ws }

// Close closes the connection normally.
func (c *Conn) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// CloseNow drops the connection without a close handshake.
func (c *Conn) CloseNow() error { return c.ws.CloseNow() }

// CloseStatus is the close code err carries, or -1 when the connection ended without one.
func CloseStatus(err error) websocket.StatusCode { return websocket.CloseStatus(err) }
