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
		c.fail(reasonInvalidJSON, TextInvalidJSON, "")
		return nil
	case err != nil || msg.Type == "":
		c.g.met.messages.WithLabelValues("invalid").Inc()
		c.fail(reasonInvalidPayload, TextInvalidPayload, "")
		return nil
	}
	switch msg.Type {
	case vibe.MsgEvent:
		c.g.met.messages.WithLabelValues("event").Inc()
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
		return TextSlotMismatch
	}
	if slotSlug != "" && !strings.EqualFold(slotSlug, c.slot.slug) {
		return vibe.ReasonSlugMismatch
	}
	return ""
}

func checkVersion(v int) string {
	if v > vibe.ProtocolVersion || v < 0 {
		return TextUnsupportedVersion + strconv.Itoa(v)
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
		c.fail(reasonNoSession, TextSessionKeyRequired, "")
		return
	case len([]rune(key)) > maxSessionKeyLen:
		c.fail(reasonInvalidPayload, TextSessionKeyTooLong, "")
		return
	}
	pub := vibe.NormalizePublisher(h.Publisher)
	pubJSON, _ := json.Marshal(pub)
	s, err := c.openSession(ctx, key, pubJSON)
	if err != nil {
		c.fail(reasonStoreError, TextSessionStore, "")
		return
	}
	c.publisher, c.current = pubJSON, s
	c.reply(encode(vibe.HelloAck{Type: vibe.MsgHelloAck, SessionKey: key, Timestamp: timestamp(s.row.LastSeenAt)}))
}

// openSession creates or refreshes the (slot, key) session with publisher pubJSON, and makes
// it one of this connection's sessions.
func (c *conn) openSession(ctx context.Context, key string, pubJSON json.RawMessage) (*connSession, error) {
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
		return nil, err
	}
	sess.LastSeenAt = now
	s := &connSession{row: sess, san: c.g.sessionSanitizer(vibe.NormalizePublisher(pubJSON))}
	c.byKey[key] = s
	c.mu.Lock()
	if _, known := c.sessions[sess.ID]; !known {
		c.g.sessions.acquire(sess.ID)
	}
	c.sessions[sess.ID] = sess
	c.mu.Unlock()
	return s, nil
}

// sessionFor returns the session an event names. A key this connection has not opened is
// opened as the original platform does: the first event on a connection without hello
// establishes its key, and an event naming another key is stored in that session. A session
// already in the store keeps its publisher; a new one takes the publisher the event names
// (one connection may carry the sessions of several agents), else the connection's (from its
// last hello, if any).
func (c *conn) sessionFor(ctx context.Context, key string, evPub *vibe.Publisher) (*connSession, error) {
	if s, ok := c.byKey[key]; ok {
		return s, nil
	}
	if len(c.byKey) >= maxSessionsPerConn {
		return nil, errTooManySessions
	}
	pubJSON := c.publisher
	if evPub != nil {
		raw, _ := json.Marshal(evPub)
		if pub := vibe.NormalizePublisher(raw); pub != (vibe.Publisher{}) {
			pubJSON, _ = json.Marshal(pub)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, c.g.cfg.StoreTimeout)
	existing, err := c.g.st.VibeSessionByKey(sctx, c.slot.id, key)
	cancel()
	switch {
	case err == nil:
		if len(existing.Publisher) > 0 && string(existing.Publisher) != "{}" {
			pubJSON = existing.Publisher
		}
	case !errors.Is(err, store.ErrNotFound):
		c.g.met.sessionErrors.Inc()
		c.log.ErrorContext(ctx, "reading session failed", "error", err)
		return nil, err
	}
	s, err := c.openSession(ctx, key, pubJSON)
	if err != nil {
		return nil, err
	}
	if c.current == nil {
		c.current = s
	}
	return s, nil
}

var errTooManySessions = errors.New("too many sessions on one connection")

func (c *conn) handleEvent(ctx context.Context, env *vibe.ClientMessage) *closeRequest {
	received := time.Now()
	for _, f := range env.Coerced {
		c.g.met.normalizations.WithLabelValues("envelope." + f).Inc()
	}
	ev, norm, err := env.ParseEvent()
	switch text := c.checkEnvelope(env); {
	case text != "":
		c.fail(reasonInvalidPayload, text, ev.EventID)
		return nil
	case err != nil:
		text := TextInvalidPayload
		if ee := (*vibe.EventError)(nil); errors.As(err, &ee) {
			text = ee.Msg
		}
		c.fail(reasonInvalidEvent, text, "")
		return nil
	}
	key := strings.TrimSpace(ev.SessionKey)
	if key == "" {
		key = strings.TrimSpace(env.SessionKey)
	}
	switch {
	case key == "" && c.current == nil:
		c.fail(reasonNoSession, TextSessionNotEstablished, ev.EventID)
		return nil
	case key == "":
		key = c.current.row.SessionKey
	case len([]rune(key)) > maxSessionKeyLen:
		c.fail(reasonInvalidPayload, TextSessionKeyTooLong, ev.EventID)
		return nil
	}
	sess, err := c.sessionFor(ctx, key, ev.Publisher)
	if err != nil {
		text := TextSessionStore
		if errors.Is(err, errTooManySessions) {
			text = TextTooManySessions
		}
		c.fail(reasonStoreError, text, ev.EventID)
		return nil
	}
	if !c.slot.limiter.Allow() {
		c.g.met.eventsRejected.WithLabelValues(reasonRateLimited).Inc()
		c.g.met.closes.WithLabelValues("slot_rate_limited").Inc()
		return &closeRequest{code: vibe.CloseRateLimited, reason: vibe.ReasonRateLimited}
	}
	c.submit(ctx, c.buildJob(ev, norm, sess, received))
	return nil
}

// checkEnvelope validates the envelope around an event, in the order the protocol document
// lists the errors. Envelope fields that could not be read count as absent: they are not the
// event.
func (c *conn) checkEnvelope(env *vibe.ClientMessage) string {
	switch {
	case checkVersion(env.ProtocolVersion) != "":
		return checkVersion(env.ProtocolVersion)
	case c.checkTarget(env.ManagedStreamID, env.SlotSlug) != "":
		return c.checkTarget(env.ManagedStreamID, env.SlotSlug)
	}
	return ""
}

// buildJob sanitizes the event and its normalized record and prepares its row. A slot that is
// offline, disabled or paused at this moment stores the event withheld: kept for the owner,
// never shown to viewers.
func (c *conn) buildJob(ev vibe.Event, norm vibe.Normalized, sess *connSession, received time.Time) *job {
	j := &job{c: c, slot: c.slot, received: received}
	if sent := norm.Get("eventId"); len(sent) > 0 && (sent[0] == '-' || sent[0] >= '0' && sent[0] <= '9') {
		j.sentID = sent // a numeric id: the ack names the event as the publisher did
	}
	for _, f := range norm {
		c.g.met.normalizations.WithLabelValues(f.Field).Inc()
	}
	ev = sess.san.SanitizeEvent(ev)
	ev.SessionKey = sess.row.SessionKey
	payload, _ := json.Marshal(ev) // a vibe.Event always marshals
	view := c.slot.current()
	withheld := vibe.WithholdOnReceipt(view.settings, view.liveStreamID != nil)
	j.row = store.NewVibeEvent{
		ManagedStreamID: c.slot.id,
		SessionID:       sess.row.ID,
		EventID:         ev.EventID,
		EventType:       ev.EventType,
		Visibility:      ev.Visibility,
		LiveStreamID:    view.liveStreamID,
		Payload:         payload,
		Normalized:      sess.san.SanitizeNormalized(norm).JSON(),
		ReceivedAt:      c.g.now(),
		Withheld:        withheld != "",
		WithheldReason:  withheld,
	}
	if t, err := time.Parse(time.RFC3339Nano, ev.OccurredAt); err == nil {
		t = t.UTC()
		j.row.OccurredAt = &t
	}
	return j
}

// submit hands the event to the batch writer, or refuses it when the gateway is closing.
func (c *conn) submit(ctx context.Context, j *job) {
	if !c.acquire() {
		return
	}
	if c.closing.Load() {
		c.release()
		c.fail(reasonShuttingDown, TextShuttingDown, j.row.EventID)
		return
	}
	if err := c.g.writer.submit(ctx, j); err != nil {
		c.release()
		c.fail(reasonShuttingDown, TextShuttingDown, j.row.EventID)
	}
}
