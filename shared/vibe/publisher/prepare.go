package publisher

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"openvibe.live/backend/shared/vibe"
)

// NewSessionKey returns a session key of the form openvibe-YYYYMMDDHHMMSS-<8 hex>.
func NewSessionKey(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "openvibe-" + now.UTC().Format("20060102150405") + "-" + hex.EncodeToString(b[:])
}

// Preparer turns an adapter's event into the event a Client sends: it stamps the fields the
// protocol needs (eventId, sequence, sessionKey, version, occurredAt) and sanitizes it. The
// CLI's dry run uses it to show exactly what would be sent.
type Preparer struct {
	sessionKey string
	now        func() time.Time
	session    *vibe.SessionSanitizer // nil: sanitizing disabled

	mu  sync.Mutex
	seq int64
}

// NewPreparer builds a Preparer for cfg (SessionKey, Sanitizer, Hints, DisableSanitize, Now).
// It generates cfg.SessionKey when empty, so the caller can read it back.
func NewPreparer(cfg *Config) (*Preparer, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SessionKey == "" {
		cfg.SessionKey = NewSessionKey(cfg.Now())
	}
	p := &Preparer{sessionKey: cfg.SessionKey, now: cfg.Now}
	if !cfg.DisableSanitize {
		s := cfg.Sanitizer
		if s == nil {
			var err error
			if s, err = vibe.NewSanitizer(); err != nil {
				return nil, fmt.Errorf("build sanitizer: %w", err)
			}
			cfg.Sanitizer = s
		}
		p.session = s.NewSession(cfg.Hints)
	}
	return p, nil
}

// SessionKey is the key stamped on every event.
func (p *Preparer) SessionKey() string { return p.sessionKey }

// Stamp fills eventId (a random UUID), sequence (one more than the highest seen),
// sessionKey, version and occurredAt when absent. It is cheap and safe for concurrent use.
func (p *Preparer) Stamp(ev vibe.Event) vibe.Event {
	if ev.EventID == "" {
		ev.EventID = uuid.NewString()
	}
	if ev.Version == 0 {
		ev.Version = vibe.ProtocolVersion
	}
	if ev.SessionKey == "" {
		ev.SessionKey = p.sessionKey
	}
	if ev.OccurredAt == "" {
		ev.OccurredAt = formatTime(p.now())
	}
	p.mu.Lock()
	if ev.Sequence <= 0 {
		p.seq++
		ev.Sequence = p.seq
	} else if ev.Sequence > p.seq {
		p.seq = ev.Sequence
	}
	p.mu.Unlock()
	return ev
}

// Sanitize removes secrets and absolute paths with the shared sanitizer (a no-op when
// sanitizing is disabled). It may take a few milliseconds.
func (p *Preparer) Sanitize(ev vibe.Event) vibe.Event {
	if p.session == nil {
		return ev
	}
	return p.session.SanitizeEvent(ev)
}

// Prepare is Stamp then Sanitize.
func (p *Preparer) Prepare(ev vibe.Event) vibe.Event { return p.Sanitize(p.Stamp(ev)) }

func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
