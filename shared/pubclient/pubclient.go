// Package pubclient is a small typed client of the publisher socket
// (/ws/vibe-coding/publish) for the tests and the load tools: it sends protocol messages as
// given, in whatever value forms a publisher uses, and reads the server's answers in order,
// keeping every field the server sent so tests can check them all. (shared/vibe/publisher is
// the publisher library: it queues, paces, reconnects and resends; this client does none of
// that.) docs/protocol.md describes the socket.
package pubclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"openvibe.live/backend/shared/vibe"
)

// Client is one publisher connection.
type Client struct {
	ws *websocket.Conn
}

// Message is one server message: its type, and the raw object.
type Message struct {
	Type string
	Raw  json.RawMessage
}

// Fields decodes the message into a map, to check the exact set of fields.
func (m Message) Fields() (map[string]any, error) {
	var f map[string]any
	err := json.Unmarshal(m.Raw, &f)
	return f, err
}

// Decode decodes the message into v.
func (m Message) Decode(v any) error { return json.Unmarshal(m.Raw, v) }

// URL builds the publish socket URL for base (http://host:port or ws://host:port).
func URL(base, token string, managedStreamID int64, slotSlug string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	}
	u.Path = "/ws/vibe-coding/publish"
	q := url.Values{}
	if token != "" {
		q.Set("token", token)
	}
	if managedStreamID != 0 {
		q.Set("managedStreamId", strconv.FormatInt(managedStreamID, 10))
	}
	if slotSlug != "" {
		q.Set("slotSlug", slotSlug)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Dial opens a connection. header may carry an Authorization header or a cookie.
func Dial(ctx context.Context, rawURL string, header http.Header) (*Client, error) {
	ws, resp, err := websocket.Dial(ctx, rawURL, &websocket.DialOptions{HTTPHeader: header})
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("dial publish socket: %w", err)
	}
	ws.SetReadLimit(1 << 20)
	return &Client{ws: ws}, nil
}

// Conn exposes the underlying socket (to send pings or odd frames).
func (c *Client) Conn() *websocket.Conn { return c.ws }

// Send encodes v as JSON and sends it.
func (c *Client) Send(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.SendRaw(ctx, b)
}

// SendRaw sends b as one text message.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Event sends ev (a vibe.Event, or a map holding an event in any value forms) in a
// vibe-coding.event envelope of protocol version 1 stamped with the time, for sessionKey
// (left out when empty: the connection's session is used).
func (c *Client) Event(ctx context.Context, sessionKey string, ev any) error {
	return c.Send(ctx, eventEnvelope{
		Type: vibe.MsgEvent, ProtocolVersion: vibe.ProtocolVersion, SessionKey: sessionKey,
		Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Event: ev,
	})
}

type eventEnvelope struct {
	Type            string `json:"type"`
	ProtocolVersion int    `json:"protocolVersion"`
	SessionKey      string `json:"sessionKey,omitempty"`
	Timestamp       string `json:"timestamp"`
	Event           any    `json:"event"`
}

// Next reads the next server message.
func (c *Client) Next(ctx context.Context) (Message, error) {
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return Message{}, err
	}
	var env vibe.Envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return Message{}, fmt.Errorf("server sent invalid JSON %q: %w", b, err)
	}
	return Message{Type: env.Type, Raw: b}, nil
}

// Expect reads the next message, requires its type, and decodes it into v (if not nil).
func (c *Client) Expect(ctx context.Context, typ string, v any) (Message, error) {
	m, err := c.Next(ctx)
	if err != nil {
		return m, err
	}
	if m.Type != typ {
		return m, fmt.Errorf("got %s, want %s: %s", m.Type, typ, m.Raw)
	}
	if v != nil {
		if err := m.Decode(v); err != nil {
			return m, fmt.Errorf("decode %s: %w", typ, err)
		}
	}
	return m, nil
}

// Ready reads vibe-coding.ready.
func (c *Client) Ready(ctx context.Context) (vibe.Ready, error) {
	var r vibe.Ready
	_, err := c.Expect(ctx, vibe.MsgReady, &r)
	return r, err
}

// Hello sends vibe-coding.hello and reads its ack.
func (c *Client) Hello(ctx context.Context, h vibe.Hello) (vibe.HelloAck, error) {
	var ack vibe.HelloAck
	if h.Type == "" {
		h.Type = vibe.MsgHello
	}
	if err := c.Send(ctx, h); err != nil {
		return ack, err
	}
	_, err := c.Expect(ctx, vibe.MsgHelloAck, &ack)
	return ack, err
}

// CloseError reads until the server closes the connection and returns the close status
// and reason (-1 when the connection ended without a close frame), with the messages
// received before it.
func (c *Client) CloseError(ctx context.Context) (websocket.StatusCode, string, []Message) {
	var msgs []Message
	for {
		m, err := c.Next(ctx)
		if err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Reason, msgs
			}
			return -1, err.Error(), msgs
		}
		msgs = append(msgs, m)
	}
}

// Close closes the connection normally.
func (c *Client) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// CloseNow drops the connection without a close handshake.
func (c *Client) CloseNow() error { return c.ws.CloseNow() }
