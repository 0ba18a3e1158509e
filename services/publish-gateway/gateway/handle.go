package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// handle answers one client message. It returns a close request when the connection must
// end (the slot's rate limit), nil otherwise: every other problem is answered with a
// vibe-coding.error and the connection stays open.
func (c *conn) handle(ctx context.Context, data []byte) *closeRequest {
	// One pass reads every envelope field any client message has; a field of the wrong type
	// does not stop the others from being read, so the type still dispatches.
	msg, err := vibe.ParseClientMessage(data)
	switch {
	case errors.Is(err, vibe.ErrMessageNotJSON):
		c.g.met.messages.WithLabelValues("invalid").Inc()
		c.fail(reasonInvalidJSON, ErrInvalidJSON, "")
		return nil
	case err != nil || msg.Type == "":
		c.g.met.messages.WithLabelValues("invalid").Inc()
		c.fail(reasonInvalidPayload, ErrInvalidPayload, "")
		return nil
	}
	switch msg.Type {
	case vibe.MsgEvent:
		c.g.met.messages.WithLabelValues("event").Inc()
		if msg.FieldError != "" {
			ev, _, _ := msg.ParseEvent()
			c.fail(reasonInvalidPayload, msg.FieldError, ev.EventID)
			return nil
		}
		return c.handleEvent(ctx, &msg)
	case vibe.MsgHello:
		c.g.met.messages.WithLabelValues("hello").Inc()
		if msg.FieldError != "" {
			c.fail(reasonInvalidPayload, msg.FieldError, "")
			return nil
		}
		c.handleHello(ctx, msg.Hello())
	case vibe.MsgPing:
		c.g.met.messages.WithLabelValues("ping").Inc()
		c.reply(encode(vibe.Pong{Type: vibe.MsgPong, Timestamp: timestamp(c.g.now())}))
	default:
		c.g.met.messages.WithLabelValues("other").Inc()
		c.fail(reasonInvalidPayload, unsupportedType(msg.Type), "")
	}
	return nil
}

// fail answers with a vibe-coding.error and counts the rejection.
func (c *conn) fail(reason, text, eventID string) {
	c.g.met.eventsRejected.WithLabelValues(reason).Inc()
	c.reply(errorMessage(text, eventID))
}

// checkTarget reports a problem with the slot an envelope names, or "".
func (c *conn) checkTarget(managedStreamID int64, slotSlug string) string {
	if managedStreamID != 0 && managedStreamID != c.slot.id {
		return ErrSlotMismatch
	}
	if slotSlug != "" && !strings.EqualFold(slotSlug, c.slot.slug) {
		return vibe.ReasonSlugMismatch
	}
	return ""
}

func checkVersion(v int) string {
	if v > vibe.ProtocolVersion || v < 0 {
		return ErrUnsupportedVersion + strconv.Itoa(v)
	}
	return ""
}

func (c *conn) handleHello(ctx context.Context, h vibe.Hello) {
	key := strings.TrimSpace(h.SessionKey)
	switch {
	case checkVersion(h.ProtocolVersion) != "":
		c.fail(reasonInvalidPayload, checkVersion(h.ProtocolVersion), "")
		return
	case c.checkTarget(h.ManagedStreamID, h.SlotSlug) != "":
		c.fail(reasonInvalidPayload, c.checkTarget(h.ManagedStreamID, h.SlotSlug), "")
		return
	case key == "":
		c.fail(reasonNoSession, ErrSessionKeyRequired, "")
		return
	case len([]rune(key)) > maxSessionKeyLen:
		c.fail(reasonInvalidPayload, ErrSessionKeyTooLong, "")
		return
	}
	pub := vibe.NormalizePublisher(h.Publisher)
	pubJSON, _ := json.Marshal(pub)
	now := c.g.now()
	sctx, cancel := context.WithTimeout(ctx, c.g.cfg.StoreTimeout)
	defer cancel()
	sess, err := c.g.st.UpsertVibeSession(sctx, store.VibeSession{
		ManagedStreamID: c.slot.id,
		SessionKey:      key,
		LiveStreamID:    c.slot.current().liveStreamID,
		Publisher:       pubJSON,
		Status:          store.SessionActive,
		StartedAt:       now,
		LastSeenAt:      now,
	})
	if err != nil {
		c.g.met.sessionErrors.Inc()
		c.log.ErrorContext(ctx, "storing session failed", "error", err)
		c.fail(reasonStoreError, ErrSessionStore, "")
		return
	}
	sess.LastSeenAt = now
	c.session = &sess
	c.sanitizer = c.g.sessionSanitizer(pub)
	c.mu.Lock()
	if _, known := c.sessions[sess.ID]; !known {
		c.g.sessions.acquire(sess.ID)
	}
	c.sessions[sess.ID] = sess
	c.mu.Unlock()
	c.reply(encode(vibe.HelloAck{Type: vibe.MsgHelloAck, SessionKey: key, Timestamp: timestamp(now)}))
}

func (c *conn) handleEvent(ctx context.Context, env *vibe.ClientMessage) *closeRequest {
	received := time.Now()
	ev, _, err := env.ParseEvent()
	key := env.SessionKey
	if key == "" {
		key = ev.SessionKey
	}
	if text := c.checkEnvelope(env, key); text != "" {
		c.fail(envelopeReason(text), text, ev.EventID)
		return nil
	}
	if err != nil {
		text := ErrInvalidPayload
		if ee := (*vibe.EventError)(nil); errors.As(err, &ee) {
			text = ee.Msg
		}
		c.fail(reasonInvalidEvent, text, "")
		return nil
	}
	if ev.SessionKey != "" && ev.SessionKey != key {
		c.fail(reasonSessionMismatch, ErrSessionMismatch, ev.EventID)
		return nil
	}
	if !c.slot.limiter.Allow() {
		c.g.met.eventsRejected.WithLabelValues(reasonRateLimited).Inc()
		c.g.met.closes.WithLabelValues("slot_rate_limited").Inc()
		return &closeRequest{code: vibe.CloseRateLimited, reason: vibe.ReasonRateLimited}
	}
	c.submit(ctx, c.buildJob(ev, key, received))
	return nil
}

// checkEnvelope validates the envelope around an event, in the order the protocol document
// lists the errors.
func (c *conn) checkEnvelope(env *vibe.ClientMessage, key string) string {
	switch {
	case checkVersion(env.ProtocolVersion) != "":
		return checkVersion(env.ProtocolVersion)
	case c.checkTarget(env.ManagedStreamID, env.SlotSlug) != "":
		return c.checkTarget(env.ManagedStreamID, env.SlotSlug)
	case key == "":
		return ErrSessionKeyRequired
	case c.session == nil:
		return ErrSessionNotEstablished
	case key != c.session.SessionKey:
		return ErrSessionMismatch
	case len(env.Event) == 0 || string(env.Event) == "null": // the raw value, without surrounding space
		return ErrEventRequired
	}
	return ""
}

func envelopeReason(text string) string {
	switch text {
	case ErrSessionKeyRequired, ErrSessionNotEstablished:
		return reasonNoSession
	case ErrSessionMismatch:
		return reasonSessionMismatch
	default:
		return reasonInvalidPayload
	}
}

// buildJob sanitizes the event and prepares its row. A slot that is offline, disabled or
// paused at this moment stores the event withheld: kept for the owner, never shown to
// viewers.
func (c *conn) buildJob(ev vibe.Event, key string, received time.Time) *job {
	ev = c.sanitizer.SanitizeEvent(ev)
	ev.SessionKey = key
	payload, _ := json.Marshal(ev) // a vibe.Event always marshals
	view := c.slot.current()
	row := store.NewVibeEvent{
		ManagedStreamID: c.slot.id,
		SessionID:       c.session.ID,
		EventID:         ev.EventID,
		EventType:       ev.EventType,
		Visibility:      ev.Visibility,
		LiveStreamID:    view.liveStreamID,
		Payload:         payload,
		ReceivedAt:      c.g.now(),
		Withheld:        !view.settings.Live() || view.liveStreamID == nil,
	}
	if t, err := time.Parse(time.RFC3339Nano, ev.OccurredAt); err == nil {
		t = t.UTC()
		row.OccurredAt = &t
	}
	return &job{c: c, slot: c.slot, row: row, received: received}
}

// submit hands the event to the batch writer, or refuses it when the gateway is closing.
func (c *conn) submit(ctx context.Context, j *job) {
	if !c.acquire() {
		return
	}
	if c.closing.Load() {
		c.release()
		c.fail(reasonShuttingDown, ErrShuttingDown, j.row.EventID)
		return
	}
	if err := c.g.writer.submit(ctx, j); err != nil {
		c.release()
		c.fail(reasonShuttingDown, ErrShuttingDown, j.row.EventID)
	}
}
