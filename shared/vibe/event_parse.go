package vibe

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits applied when decoding a publisher's event.
const (
	MaxEventIDLen  = 128 // characters of eventId
	maxIdentLen    = 256 // session keys and ids, metadata ids, source fields
	maxPublisherLn = 128 // every publisher string
)

// Event visibilities.
const (
	VisibilityPublic   = "public"
	VisibilityStreamer = "streamer"
)

// EventError is a protocol error about one event; its message is sent to the publisher as
// is.
type EventError struct {
	Msg string
}

func (e *EventError) Error() string { return e.Msg }

func eventErr(msg string) error { return &EventError{Msg: msg} }

var msgEventTypes = "eventType must be one of " + strings.Join(EventTypes, ", ")

// ParseEvent decodes and validates the event object of a vibe-coding.event envelope. It is
// strict about the fields it knows (a wrong type is an *EventError naming the field), drops
// unknown fields, keeps only the body that belongs to the event type, and defaults
// visibility to public. It does not sanitize: pass the result through a SessionSanitizer.
func ParseEvent(raw json.RawMessage) (Event, error) {
	obj, ok := jsonObject(raw)
	return parseEventObject(obj, ok)
}

// parseEventObject is ParseEvent on the members of the event object (ok false when it is
// not one).
func parseEventObject(obj object, ok bool) (Event, error) {
	if !ok {
		return Event{}, eventErr("event payload is required")
	}
	d := decoder{obj: obj}
	var ev Event
	if err := d.header(&ev); err != nil {
		return Event{}, err
	}
	if err := d.bodies(&ev); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// decoder reads the known fields of one JSON object, recording the first problem.
type decoder struct {
	obj    object
	prefix string
	err    error
}

func (d *decoder) fail(field, what string) {
	if d.err == nil {
		d.err = eventErr(d.prefix + field + " must be " + what)
	}
}

func (d *decoder) present(field string) (json.RawMessage, bool) {
	v := d.obj.get(field)
	if v == nil || isNull(v) {
		return nil, false
	}
	return v, true
}

func (d *decoder) str(field string) string {
	v, ok := d.present(field)
	if !ok {
		return ""
	}
	s, ok := jsonString(v)
	if !ok {
		d.fail(field, "a string")
	}
	return s
}

// ident reads a short identifier string, cleaned and capped.
func (d *decoder) ident(field string) string {
	return truncateRunes(cleanControl(d.str(field), false), maxIdentLen, "")
}

func (d *decoder) integer(field string) int64 {
	v, ok := d.present(field)
	if !ok {
		return 0
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && n >= -1<<53 && n <= 1<<53 {
		return n // the common form: plain digits
	}
	var f float64
	if json.Unmarshal(v, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		d.fail(field, "an integer")
		return 0
	}
	return int64(f)
}

func (d *decoder) boolean(field string) bool {
	v, ok := d.present(field)
	if !ok {
		return false
	}
	switch string(v) {
	case "true":
		return true
	case "false":
		return false
	}
	d.fail(field, "a boolean")
	return false
}

// oneOf reads an optional string that must be one of allowed.
func (d *decoder) oneOf(field string, allowed ...string) string {
	v, ok := d.present(field)
	if !ok {
		return ""
	}
	s, isStr := jsonString(v)
	if !isStr || (s != "" && !slices.Contains(allowed, s)) {
		d.fail(field, oneOfText(allowed))
		return ""
	}
	return s
}

func oneOfText(allowed []string) string {
	if len(allowed) == 2 {
		return allowed[0] + " or " + allowed[1]
	}
	return "one of " + strings.Join(allowed, ", ")
}

// object returns a decoder for a nested object, or nil when the field is absent.
func (d *decoder) object(field string) *decoder {
	v, ok := d.present(field)
	if !ok {
		return nil
	}
	obj, ok := splitObject(v) // inside the event, already validated
	if !ok {
		d.fail(field, "an object")
		return nil
	}
	return &decoder{obj: obj, prefix: d.prefix + field + "."}
}

// sub collects a nested decoder's problem into d.
func (d *decoder) sub(s *decoder) {
	if s != nil && d.err == nil {
		d.err = s.err
	}
}

func (d *decoder) header(ev *Event) error {
	id, idOK := d.present("eventId")
	typ, typOK := d.present("eventType")
	if !idOK || !typOK || string(id) == `""` || string(typ) == `""` {
		return eventErr("eventId and eventType are required")
	}
	var isStr bool
	if ev.EventID, isStr = jsonString(id); !isStr {
		return eventErr("eventId must be a string")
	}
	if utf8.RuneCountInString(ev.EventID) > MaxEventIDLen {
		return eventErr("eventId must be at most 128 characters")
	}
	if !isPrintableID(ev.EventID) {
		return eventErr("eventId must contain only printable characters")
	}
	if ev.EventType, isStr = jsonString(typ); !isStr || !slices.Contains(EventTypes, ev.EventType) {
		return eventErr(msgEventTypes)
	}
	ev.Version = int(d.integer("version"))
	ev.SessionKey = d.ident("sessionKey")
	ev.SessionID = d.ident("sessionId")
	ev.Sequence = d.integer("sequence")
	ev.Visibility = d.oneOf("visibility", VisibilityPublic, VisibilityStreamer)
	if ev.Visibility == "" {
		ev.Visibility = VisibilityPublic
	}
	ev.Depth = d.oneOf("depth", DepthHeadline, DepthStandard, DepthDeep)
	ev.OccurredAt = d.timestamp("occurredAt")
	ev.Summary = d.str("summary")
	if s := d.object("source"); s != nil {
		ev.Source = &Source{Channel: s.ident("channel"), RawType: s.ident("rawType")}
		d.sub(s)
	}
	if v, ok := d.present("publisher"); ok {
		if bytes.TrimSpace(v)[0] != '{' {
			d.fail("publisher", "an object")
		} else {
			p := NormalizePublisher(v)
			ev.Publisher = &p
		}
	}
	if m := d.object("metadata"); m != nil {
		ev.Metadata = &EventMetadata{
			RequestID:     m.ident("requestId"),
			ResponseID:    m.ident("responseId"),
			WorkspaceName: m.ident("workspaceName"),
			Model:         m.ident("model"),
		}
		d.sub(m)
	}
	return d.err
}

func (d *decoder) timestamp(field string) string {
	s := d.str(field)
	if s == "" {
		return ""
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		d.fail(field, "an RFC 3339 timestamp")
		return ""
	}
	return s
}

// bodies decodes the body that belongs to the event type; other bodies are dropped.
func (d *decoder) bodies(ev *Event) error {
	switch ev.EventType {
	case TypePrompt:
		if b := d.object("prompt"); b != nil {
			ev.Prompt = &TextBody{Text: b.str("text")}
			d.sub(b)
		}
	case TypeThinking:
		if b := d.object("thinking"); b != nil {
			ev.Thinking = &TextBody{Text: b.str("text")}
			d.sub(b)
		}
	case TypeResponse:
		if b := d.object("response"); b != nil {
			ev.Response = &ResponseBody{Text: b.str("text"), Truncated: b.boolean("truncated")}
			d.sub(b)
		}
	case TypeToolCall:
		if b := d.object("tool"); b != nil {
			ev.Tool = &ToolBody{
				Name:             b.ident("name"),
				Phase:            b.oneOf("phase", "start", "end", "error"),
				ArgumentsPreview: b.str("argumentsPreview"),
				ResultPreview:    b.str("resultPreview"),
			}
			d.sub(b)
		}
	case TypeFileChange, TypeFileSave:
		if b := d.object("file"); b != nil {
			ev.File = decodeFile(b)
			d.sub(b)
		}
	case TypeSessionStatus:
		if b := d.object("status"); b != nil {
			ev.Status = &StatusBody{State: b.ident("state"), Message: b.str("message")}
			d.sub(b)
		}
	}
	return d.err
}

func decodeFile(b *decoder) *FileBody {
	f := &FileBody{
		Name:         b.str("name"),
		RelativePath: b.str("relativePath"),
		Operation:    b.oneOf("operation", "create", "edit", "delete", "rename", "save"),
	}
	n := b.integer("changeCount")
	if n < 0 {
		b.fail("changeCount", "a non-negative integer")
	}
	f.ChangeCount = int(min(n, math.MaxInt32))
	if _, ok := b.present("snippet"); ok {
		s := b.str("snippet")
		f.Snippet = &s
	}
	return f
}

// isPrintableID reports whether s has only printable, non-space-only characters.
func isPrintableID(s string) bool {
	if !utf8.ValidString(s) || strings.TrimSpace(s) == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// NormalizePublisher reads a publisher description (hello.publisher or event.publisher)
// tolerantly: strings are cleaned and capped, an unknown clientType becomes "other", a bad
// viewerDepth is dropped and capabilities become plain booleans. Junk yields a zero
// Publisher.
func NormalizePublisher(raw json.RawMessage) Publisher {
	obj, ok := jsonObject(raw)
	if !ok {
		return Publisher{}
	}
	str := func(k string) string {
		s, ok := jsonString(obj.get(k))
		if !ok {
			return ""
		}
		return strings.TrimSpace(truncateRunes(cleanControl(s, false), maxPublisherLn, ""))
	}
	p := Publisher{
		IntegrationID:    str("integrationId"),
		IntegrationLabel: str("integrationLabel"),
		Vendor:           str("vendor"),
		ClientType:       str("clientType"),
		ClientName:       str("clientName"),
		ClientVersion:    str("clientVersion"),
		WorkspaceName:    str("workspaceName"),
		MachineName:      str("machineName"),
	}
	if p.ClientType != "" && !slices.Contains(ClientTypes, p.ClientType) {
		p.ClientType = "other"
	}
	if d, ok := parseDepth(str("viewerDepth")); ok {
		p.ViewerDepth = d
	}
	if caps, ok := splitObject(obj.get("capabilities")); ok {
		flag := func(k string) bool {
			b, ok := parseBool(caps.get(k))
			return ok && b == 1
		}
		p.Capabilities = &Capabilities{
			Thinking:            flag("thinking"),
			ToolCalls:           flag("toolCalls"),
			WorkspaceFileEvents: flag("workspaceFileEvents"),
		}
	}
	return p
}

// ViewerSafe returns the part of the publisher viewers may see: integrationId,
// integrationLabel, vendor, clientType and clientName. It returns nil when all of them are
// empty.
func (p Publisher) ViewerSafe() *Publisher {
	v := Publisher{
		IntegrationID:    p.IntegrationID,
		IntegrationLabel: p.IntegrationLabel,
		Vendor:           p.Vendor,
		ClientType:       p.ClientType,
		ClientName:       p.ClientName,
	}
	if v == (Publisher{}) {
		return nil
	}
	return &v
}
