package vibe

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// ClientMessage is a message from a publisher with its envelope read: the union of the
// fields of hello, event and ping. Keys match exactly, as they do inside events; a key in
// another case is an unknown field, and unknown fields are ignored.
type ClientMessage struct {
	Type            string
	ProtocolVersion int
	ManagedStreamID int64
	SlotSlug        string
	Timestamp       string
	SessionKey      string
	Publisher       json.RawMessage // as sent (JSON null included); nil when absent
	Event           json.RawMessage // as sent (JSON null included); nil when absent

	// FieldError describes the first envelope field whose value cannot be read in any form
	// ("sessionKey must be a string"), or is "". That field reads as its zero value; the
	// others are read regardless, so the message's type can still be told.
	FieldError string
	// Coerced lists the envelope fields sent in another form and read anyway (a sessionKey
	// sent as a number, a managedStreamId as a numeric string), and those that could not be
	// read (FieldError's field among them).
	Coerced []string

	validEvent json.RawMessage // Event as ParseClientMessage read it: valid JSON
}

// Errors of ParseClientMessage.
var (
	ErrMessageNotJSON   = errors.New("message is not valid JSON")
	ErrMessageNotObject = errors.New("message is not a JSON object")
)

// ParseClientMessage reads the envelope of one publisher message. The message is validated
// once; the event inside is left raw, for ParseEvent. Publisher and Event are copies, so they
// outlive data.
func ParseClientMessage(data []byte) (ClientMessage, error) {
	if !json.Valid(data) {
		return ClientMessage{}, ErrMessageNotJSON
	}
	obj, ok := splitObject(data)
	if !ok {
		return ClientMessage{}, ErrMessageNotObject
	}
	d := envelopeDecoder{obj: obj}
	m := ClientMessage{
		Type:            d.typ(),
		ProtocolVersion: int(d.integer("protocolVersion")),
		ManagedStreamID: d.integer("managedStreamId"),
		SlotSlug:        d.str("slotSlug", true),
		Timestamp:       d.str("timestamp", false),
		SessionKey:      d.str("sessionKey", true),
		Publisher:       d.raw("publisher"),
		Event:           d.raw("event"),
	}
	m.FieldError, m.Coerced = d.err, d.coerced
	m.validEvent = m.Event
	return m, nil
}

// ParseEvent is vibe.CanonicalEvent on the message's event. The event was validated with the
// whole message, so it is not validated again (unless Event was replaced since).
func (m *ClientMessage) ParseEvent() (Event, Normalized, error) {
	if len(m.Event) == 0 || len(m.Event) != len(m.validEvent) || &m.Event[0] != &m.validEvent[0] {
		return CanonicalEvent(m.Event)
	}
	return parseEventObject(splitObject(m.Event))
}

// Hello is the message as a vibe-coding.hello.
func (m *ClientMessage) Hello() Hello {
	return Hello{Type: m.Type, ProtocolVersion: m.ProtocolVersion, ManagedStreamID: m.ManagedStreamID,
		SlotSlug: m.SlotSlug, Timestamp: m.Timestamp, SessionKey: m.SessionKey, Publisher: m.Publisher}
}

// envelopeDecoder reads envelope fields generously: strings or numbers for text fields,
// integers or numeric strings for integer fields; null counts as absent.
type envelopeDecoder struct {
	obj     object
	err     string
	coerced []string
}

func (d *envelopeDecoder) fail(field, what string) {
	if d.err == "" {
		d.err = field + " must be " + what
	}
	d.coerced = append(d.coerced, field)
}

func (d *envelopeDecoder) value(field string) json.RawMessage {
	v := d.obj.get(field)
	if v == nil || isNull(v) {
		return nil
	}
	return v
}

// typ reads the message type, which must be a string (or the message is not a protocol
// message at all).
func (d *envelopeDecoder) typ() string {
	v := d.value("type")
	if v == nil {
		return ""
	}
	if v[0] != '"' {
		d.coerced = append(d.coerced, "type")
		return ""
	}
	s, _ := jsonString(v)
	return s
}

// str reads a text field: a string, or a number as its literal. Anything else is a field
// error when strict, or silently absent.
func (d *envelopeDecoder) str(field string, strict bool) string {
	v := d.value(field)
	if v == nil {
		return ""
	}
	s, exact, ok := asIdent(v)
	switch {
	case !ok && strict:
		d.fail(field, "a string")
	case !ok:
		d.coerced = append(d.coerced, field)
	case !exact:
		d.coerced = append(d.coerced, field)
	}
	return s
}

func (d *envelopeDecoder) integer(field string) int64 {
	v := d.value(field)
	if v == nil {
		return 0
	}
	// The value is valid JSON, so strconv sees only what JSON allows of a number.
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	if v[0] == '"' {
		s, _ := jsonString(v)
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			d.coerced = append(d.coerced, field)
			return n
		}
	}
	d.fail(field, "an integer")
	return 0
}

func (d *envelopeDecoder) raw(field string) json.RawMessage {
	v := d.obj.get(field)
	if v == nil {
		return nil
	}
	return append(json.RawMessage(nil), v...)
}
