package vibe

import (
	"encoding/json"
	"errors"
	"strconv"
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

	// FieldError describes the first envelope field whose value has the wrong JSON type
	// ("sessionKey must be a string"), or is "". That field reads as its zero value; the
	// others are read regardless, so the message's type can still be told.
	FieldError string

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
		Type:            d.str("type"),
		ProtocolVersion: int(d.integer("protocolVersion")),
		ManagedStreamID: d.integer("managedStreamId"),
		SlotSlug:        d.str("slotSlug"),
		Timestamp:       d.str("timestamp"),
		SessionKey:      d.str("sessionKey"),
		Publisher:       d.raw("publisher"),
		Event:           d.raw("event"),
	}
	m.FieldError = d.err
	m.validEvent = m.Event
	return m, nil
}

// ParseEvent is vibe.ParseEvent on the message's event. The event was validated with the
// whole message, so it is not validated again (unless Event was replaced since).
func (m *ClientMessage) ParseEvent() (Event, error) {
	if len(m.Event) == 0 || len(m.Event) != len(m.validEvent) || &m.Event[0] != &m.validEvent[0] {
		return ParseEvent(m.Event)
	}
	return parseEventObject(splitObject(m.Event))
}

// Hello is the message as a vibe-coding.hello.
func (m *ClientMessage) Hello() Hello {
	return Hello{Type: m.Type, ProtocolVersion: m.ProtocolVersion, ManagedStreamID: m.ManagedStreamID,
		SlotSlug: m.SlotSlug, Timestamp: m.Timestamp, SessionKey: m.SessionKey, Publisher: m.Publisher}
}

// envelopeDecoder reads envelope fields with the types encoding/json would accept for the
// protocol structs: strings or null, integers without a fraction or exponent, or null.
type envelopeDecoder struct {
	obj object
	err string
}

func (d *envelopeDecoder) fail(field, what string) {
	if d.err == "" {
		d.err = field + " must be " + what
	}
}

func (d *envelopeDecoder) str(field string) string {
	v := d.obj.get(field)
	if v == nil || isNull(v) {
		return ""
	}
	s, ok := "", v[0] == '"'
	if ok {
		s, ok = jsonString(v)
	}
	if !ok {
		d.fail(field, "a string")
	}
	return s
}

func (d *envelopeDecoder) integer(field string) int64 {
	v := d.obj.get(field)
	if v == nil || isNull(v) {
		return 0
	}
	// The value is valid JSON, so strconv sees only what JSON allows of a number.
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		d.fail(field, "an integer")
		return 0
	}
	return n
}

func (d *envelopeDecoder) raw(field string) json.RawMessage {
	v := d.obj.get(field)
	if v == nil {
		return nil
	}
	return append(json.RawMessage(nil), v...)
}

// PeekEvent reads the eventId and sessionKey of a raw event, when they are strings, without
// validating anything else: an error about an event that ParseEvent rejected can still
// name it. An eventId far over the length limit is not echoed.
func PeekEvent(raw json.RawMessage) (eventID, sessionKey string) {
	obj, ok := jsonObject(raw)
	if !ok {
		return "", ""
	}
	str := func(key string) string {
		v := obj.get(key)
		if len(v) == 0 || v[0] != '"' {
			return ""
		}
		s, _ := jsonString(v)
		return s
	}
	eventID, sessionKey = str("eventId"), str("sessionKey")
	if len(eventID) > MaxEventIDLen*4 {
		eventID = ""
	}
	return eventID, sessionKey
}
