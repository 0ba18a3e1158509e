package publisher

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"openvibe.live/backend/shared/vibe"
)

// PublishPath is the gateway's publisher WebSocket path.
const PublishPath = "/ws/vibe-coding/publish"

// Config configures a Client. Server, Token and ManagedStreamID are required; the rest has
// defaults.
type Config struct {
	// Server is the gateway's base URL (http, https, ws or wss). When it has no path,
	// PublishPath is used.
	Server string
	// Token is an hbt_ API token with the vibe_coding_publish scope, or a JWT. It is sent in
	// the Authorization header, never in the URL.
	Token           string
	ManagedStreamID int64
	SlotSlug        string // optional; the gateway checks it matches ManagedStreamID

	// SessionKey names this publishing session; generated ("openvibe-YYYYMMDDHHMMSS-<8 hex>")
	// when empty.
	SessionKey string
	// Publisher describes the integration, sent in the hello.
	Publisher vibe.Publisher

	// Sanitizer is the process-wide sanitizer (expensive to build: share one). When nil and
	// DisableSanitize is false, New builds one.
	Sanitizer *vibe.Sanitizer
	// Hints help the sanitizer recognise workspace names, machine names and roots.
	Hints vibe.SessionHints
	// DisableSanitize sends events as given. Tests only: the gateway sanitizes anyway, but
	// client-side sanitizing keeps secrets off the wire.
	DisableSanitize bool

	QueueSize   int // events accepted but not yet sent; default 1024
	MaxInFlight int // events sent but not yet acked; default 64
	// Rate and Burst pace the messages sent, to stay under the gateway's per-connection
	// limit (50/s sustained, 200 burst by default there): default 40 per second, burst 100.
	// A negative Rate turns pacing off (for a gateway configured with higher limits).
	Rate  float64
	Burst int
	// MaxMessageBytes is the gateway's message size limit; a larger event is rejected
	// locally (as an *EventError) instead of getting the connection closed. Default 262144.
	MaxMessageBytes int

	PingInterval     time.Duration // default 15s
	ReadTimeout      time.Duration // no frame for this long means the link is dead; default 3*PingInterval
	HandshakeTimeout time.Duration // dial + ready + hello.ack; default 15s
	AckTimeout       time.Duration // oldest unacked event older than this: reconnect; default 30s
	BackoffMin       time.Duration // default 250ms
	BackoffMax       time.Duration // default 30s

	HTTPClient *http.Client
	Logger     *slog.Logger

	// Callbacks, called from the client's goroutines: they must not block.
	OnReady func(vibe.Ready) // after each successful handshake
	OnAck   func(vibe.Ack)   // for every ack, including duplicates; before Flush sees the event done
	OnError func(error)      // connection errors, *EventError, *ServerError, *RejectedError
	OnState func(connected bool)

	Now func() time.Time
}

func (c *Config) setDefaults() {
	if c.QueueSize <= 0 {
		c.QueueSize = 1024
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = 64
	}
	if c.Rate == 0 {
		c.Rate = 40
	}
	if c.Burst <= 0 {
		c.Burst = 100
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = 256 << 10
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 15 * time.Second
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = 3 * c.PingInterval
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 15 * time.Second
	}
	if c.AckTimeout <= 0 {
		c.AckTimeout = 30 * time.Second
	}
	if c.BackoffMin <= 0 {
		c.BackoffMin = 250 * time.Millisecond
	}
	if c.BackoffMax < c.BackoffMin {
		c.BackoffMax = max(30*time.Second, c.BackoffMin)
	}
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

func (c *Config) validate() error {
	var errs []error
	if c.Server == "" {
		errs = append(errs, errors.New("server URL is required"))
	} else if _, err := PublishURL(c.Server, 1, ""); err != nil {
		errs = append(errs, err)
	}
	if c.Token == "" {
		errs = append(errs, errors.New("token is required"))
	}
	if c.ManagedStreamID <= 0 {
		errs = append(errs, errors.New("managed stream id must be a positive number"))
	}
	return errors.Join(errs...)
}

// PublishURL builds the publisher WebSocket URL from a server base URL.
func PublishURL(server string, managedStreamID int64, slotSlug string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(server))
	if err != nil {
		return "", fmt.Errorf("parse server URL: %w", err)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("server URL %q: scheme must be http, https, ws or wss", server)
	}
	if u.Host == "" {
		return "", fmt.Errorf("server URL %q has no host", server)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = PublishPath
	}
	q := u.Query()
	q.Del("token")
	q.Set("managedStreamId", strconv.FormatInt(managedStreamID, 10))
	if slotSlug != "" {
		q.Set("slotSlug", slotSlug)
	}
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String(), nil
}
