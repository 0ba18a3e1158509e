package vibe

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits applied when decoding a publisher's event.
const (
	MaxEventIDLen  = 128 // characters of eventId
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

// The two refusals: what is not an event at all. The texts are the original protocol's.
const (
	TextEventRequired = "event payload is required"
	TextEventID       = "eventId and eventType are required"
)

// CanonicalEvent reads the event object of a vibe-coding.event envelope into the canonical
// model, as the gateway takes every event. It refuses (with an *EventError) only what cannot
// be an event: a value that is not a JSON object, or one without an id (a non-empty string
// or a number). Everything else is canonicalised: values in other forms are mapped onto
// canonical ones, values that cannot be are dropped, unknown fields are ignored, and only the
// body that belongs to the event type is kept (a custom type keeps none); the Normalized
// record says what was mapped from what. It does not clean or sanitize anything: pass the
// result through a SessionSanitizer.
func CanonicalEvent(raw json.RawMessage) (Event, Normalized, error) {
	obj, ok := jsonObject(raw)
	return parseEventObject(obj, ok)
}

// ParseEvent is the publisher's side of CanonicalEvent: it accepts only an event that is
// canonical as it stands (a canonical type, every field in its canonical form; the publisher
// description is read tolerantly) and names the first field that is not, with an *EventError
// ("tool.phase must be one of start, end, error"). Publishers use it to check what they are
// about to send; the gateway takes anything CanonicalEvent can map.
func ParseEvent(raw json.RawMessage) (Event, error) {
	ev, norm, err := CanonicalEvent(raw)
	if err != nil {
		return Event{}, err
	}
	for _, f := range norm {
		switch {
		case strings.HasPrefix(f.Field, "publisher."):
		case f.want == "":
			return Event{}, eventErr(TextEventID)
		default:
			return Event{}, eventErr(f.Field + " must be " + f.want)
		}
	}
	if !IsCanonicalType(ev.EventType) {
		return Event{}, eventErr("eventType must be " + oneOfText(EventTypes))
	}
	return ev, nil
}

// parseEventObject is CanonicalEvent on the members of the event object (ok false when it is
// not one).
func parseEventObject(obj object, ok bool) (Event, Normalized, error) {
	if !ok {
		return Event{}, nil, eventErr(TextEventRequired)
	}
	var norm Normalized
	d := decoder{obj: obj, norm: &norm}
	var ev Event
	if !d.header(&ev) {
		return Event{}, nil, eventErr(TextEventID)
	}
	d.bodies(&ev)
	return ev, norm, nil
}

// decoder reads the known fields of one JSON object (already validated), recording in norm
// every value it had to map.
type decoder struct {
	obj    object
	prefix string
	norm   *Normalized
}

func (d *decoder) note(field string, v json.RawMessage, verbatim bool, want string) {
	d.norm.add(d.prefix+field, v, verbatim, want)
}

// present returns a field's value, or false when it is absent or null.
func (d *decoder) present(field string) (json.RawMessage, bool) {
	v := d.obj.get(field)
	if v == nil || isNull(v) {
		return nil, false
	}
	return v, true
}

// read reads a field with one of the coercions; a value that is not in the canonical form
// is recorded, and one that cannot be read at all is dropped (and recorded).
func read[T any](d *decoder, field string, verbatim bool, want string, as func(json.RawMessage) (T, bool, bool)) T {
	var zero T
	v, ok := d.present(field)
	if !ok {
		return zero
	}
	x, exact, ok := as(v)
	if !exact {
		d.note(field, v, verbatim, want)
	}
	if !ok {
		return zero
	}
	return x
}

func (d *decoder) text(field string) string   { return read(d, field, false, "a string", asText) }
func (d *decoder) ident(field string) string  { return read(d, field, true, "a string", asIdent) }
func (d *decoder) integer(field string) int64 { return read(d, field, true, "an integer", asInt) }
func (d *decoder) boolean(field string) bool  { return read(d, field, true, "a boolean", asBool) }
func (d *decoder) time(field string) string {
	return read(d, field, true, "an RFC 3339 timestamp", asTime)
}

// enum reads an enumerated field through its rule.
func (d *decoder) enum(field string, r *enumRule) string {
	v, ok := d.present(field)
	if !ok {
		return ""
	}
	s, isStr := "", v[0] == '"'
	if isStr {
		s, isStr = jsonString(v)
	}
	if !isStr {
		d.note(field, v, true, oneOfText(r.values))
		return r.fallback
	}
	if s == "" {
		return "" // as good as absent
	}
	out, changed := r.canonical(s)
	if changed {
		d.note(field, v, true, oneOfText(r.values))
	}
	return out
}

// object returns a decoder for a nested object, or nil when the field is absent, null or
// not an object (recorded).
func (d *decoder) object(field string) *decoder {
	v, ok := d.present(field)
	if !ok {
		return nil
	}
	obj, ok := splitObject(v)
	if !ok {
		d.note(field, v, false, "an object")
		return nil
	}
	return &decoder{obj: obj, prefix: d.prefix + field + ".", norm: d.norm}
}

// header reads the fields every event has; it reports false when the event has no id.
func (d *decoder) header(ev *Event) bool {
	id, ok := d.eventID()
	if !ok {
		return false
	}
	ev.EventID = id
	ev.EventType = d.eventType()
	ev.Version = int(min(max(d.integer("version"), math.MinInt32), math.MaxInt32))
	ev.SessionKey = d.ident("sessionKey")
	ev.SessionID = d.ident("sessionId")
	ev.Sequence = d.integer("sequence")
	ev.Visibility = d.enum("visibility", &visibilityRule)
	ev.Depth = d.enum("depth", &depthRule)
	ev.OccurredAt = d.time("occurredAt")
	ev.Summary = d.text("summary")
	if s := d.object("source"); s != nil {
		ev.Source = &Source{Channel: s.ident("channel"), RawType: s.ident("rawType")}
	}
	if p := d.object("publisher"); p != nil {
		pub := p.publisher()
		ev.Publisher = &pub
	}
	if m := d.object("metadata"); m != nil {
		ev.Metadata = &EventMetadata{
			RequestID:     m.ident("requestId"),
			ResponseID:    m.ident("responseId"),
			WorkspaceName: m.ident("workspaceName"),
			Model:         m.ident("model"),
		}
	}
	return true
}

// eventID reads the id: a string that is not blank, or a number (its literal). An id longer
// than MaxEventIDLen characters or holding non-printable characters is replaced by a derived
// one (DerivedEventID), so the same id sent again still finds the first copy.
func (d *decoder) eventID() (string, bool) {
	v, ok := d.present("eventId")
	if !ok {
		return "", false
	}
	id, exact, ok := asIdent(v)
	if !ok || strings.TrimSpace(id) == "" {
		return "", false
	}
	switch {
	case utf8.RuneCountInString(id) > MaxEventIDLen:
		d.note("eventId", v, true, "at most 128 characters")
		return DerivedEventID(id), true
	case !isPrintableID(id):
		d.note("eventId", v, true, "made of printable characters")
		return DerivedEventID(id), true
	case !exact:
		d.note("eventId", v, true, "a string")
	}
	return id, true
}

// DerivedEventID is the canonical id of an id that is too long or not printable: its first
// printable characters, "~" and a hash of the whole id, at most MaxEventIDLen characters.
func DerivedEventID(id string) string {
	sum := sha256.Sum256([]byte(id))
	var keep strings.Builder
	for _, r := range id {
		if keep.Len() >= 64 {
			break
		}
		if unicode.IsPrint(r) && r != utf8.RuneError && !unicode.IsSpace(r) {
			keep.WriteRune(r)
		}
	}
	return truncateRunes(keep.String(), 64, "") + "~" + hex.EncodeToString(sum[:16])
}

// eventType reads the type: a canonical type, another name of one, or a custom type kept as
// sent. An event without one takes the type its body says (a "tool" object: tool.call), or
// else session.status, as the original platform stored it.
func (d *decoder) eventType() string {
	v, ok := d.present("eventType")
	if ok && v[0] == '"' {
		s, _ := jsonString(v)
		if t, changed := canonicalType(s); t != "" {
			if changed {
				d.note("eventType", v, true, oneOfText(EventTypes))
			}
			return t
		}
	}
	want := oneOfText(EventTypes)
	if !ok || string(v) == `""` {
		v, want = nullJSON, "" // absent: "eventId and eventType are required"
	}
	d.note("eventType", v, true, want)
	for _, b := range bodyTypes {
		if _, ok := d.present(b.field); ok {
			return b.eventType
		}
	}
	return TypeSessionStatus
}

// bodyTypes says which event type each body belongs to, for events sent without a type.
var bodyTypes = []struct{ field, eventType string }{
	{"prompt", TypePrompt}, {"response", TypeResponse}, {"thinking", TypeThinking},
	{"tool", TypeToolCall}, {"file", TypeFileChange}, {"status", TypeSessionStatus},
}

// bodies reads the body that belongs to the event type; other bodies are dropped.
func (d *decoder) bodies(ev *Event) {
	switch ev.EventType {
	case TypePrompt:
		ev.Prompt = d.textBody("prompt")
	case TypeThinking:
		ev.Thinking = d.textBody("thinking")
	case TypeResponse:
		if b, s, ok := d.body("response"); b != nil {
			ev.Response = &ResponseBody{Text: b.text("text"), Truncated: b.boolean("truncated")}
		} else if ok {
			ev.Response = &ResponseBody{Text: s}
		}
	case TypeToolCall:
		if b, s, ok := d.body("tool"); b != nil {
			ev.Tool = &ToolBody{
				Name:             b.ident("name"),
				Phase:            b.enum("phase", &phaseRule),
				ArgumentsPreview: b.preview("argumentsPreview"),
				ResultPreview:    b.preview("resultPreview"),
			}
		} else if ok {
			ev.Tool = &ToolBody{Name: s}
		}
	case TypeFileChange, TypeFileSave:
		if b, s, ok := d.body("file"); b != nil {
			ev.File = b.file()
		} else if ok {
			ev.File = &FileBody{RelativePath: s}
		}
	case TypeSessionStatus:
		if b, s, ok := d.body("status"); b != nil {
			ev.Status = &StatusBody{State: b.ident("state"), Message: b.text("message")}
		} else if ok {
			ev.Status = &StatusBody{State: s}
		}
	}
}

// body returns a decoder for an object body; a body sent as text instead (a string, or an
// array of text parts) is returned as s with ok set, and recorded.
func (d *decoder) body(field string) (b *decoder, s string, ok bool) {
	v, present := d.present(field)
	if !present {
		return nil, "", false
	}
	if v[0] == '{' {
		obj, _ := splitObject(v)
		return &decoder{obj: obj, prefix: d.prefix + field + ".", norm: d.norm}, "", false
	}
	d.note(field, v, false, "an object")
	s, _, ok = asText(v)
	return nil, s, ok
}

func (d *decoder) textBody(field string) *TextBody {
	b, s, ok := d.body(field)
	switch {
	case b != nil:
		return &TextBody{Text: b.text("text")}
	case ok:
		return &TextBody{Text: s}
	}
	return nil
}

// preview reads a tool preview: text as is, any other JSON value (a tool's arguments are
// often an object) as compact JSON text.
func (d *decoder) preview(field string) string {
	v, ok := d.present(field)
	if !ok {
		return ""
	}
	if v[0] == '"' {
		s, _ := jsonString(v)
		return s
	}
	d.note(field, v, false, "a string")
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

func (d *decoder) file() *FileBody {
	f := &FileBody{
		Name:         d.text("name"),
		RelativePath: d.text("relativePath"),
		Operation:    d.enum("operation", &operationRule),
	}
	if v, ok := d.present("changeCount"); ok {
		n, exact, ok := asInt(v)
		if !exact || n < 0 || n > math.MaxInt32 {
			d.note("changeCount", v, true, "a non-negative integer")
		}
		if ok {
			f.ChangeCount = int(min(max(n, 0), math.MaxInt32))
		}
	}
	if _, ok := d.present("snippet"); ok {
		s := d.text("snippet")
		f.Snippet = &s
	}
	return f
}

// isPrintableID reports whether s has only printable characters and is not blank.
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

// publisher reads a publisher description (event.publisher): strings as sent (numbers as
// their literal), the client type and viewer depth through their rules, capabilities as
// booleans. It does not clean the strings; cleanPublisher does.
func (d *decoder) publisher() Publisher {
	p := Publisher{
		IntegrationID:    d.ident("integrationId"),
		IntegrationLabel: d.text("integrationLabel"),
		Vendor:           d.text("vendor"),
		ClientType:       d.enum("clientType", &clientTypeRule),
		ClientName:       d.text("clientName"),
		ClientVersion:    d.ident("clientVersion"),
		WorkspaceName:    d.text("workspaceName"),
		MachineName:      d.text("machineName"),
		ViewerDepth:      d.enum("viewerDepth", &publisherDepthRule),
	}
	if caps := d.object("capabilities"); caps != nil {
		p.Capabilities = &Capabilities{
			Thinking:            caps.boolean("thinking"),
			ToolCalls:           caps.boolean("toolCalls"),
			WorkspaceFileEvents: caps.boolean("workspaceFileEvents"),
		}
	}
	return p
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
	var norm Normalized
	d := decoder{obj: obj, norm: &norm}
	return cleanPublisher(d.publisher())
}

// cleanPublisher removes control characters from a publisher's strings, trims them and caps
// them at maxPublisherLn characters.
func cleanPublisher(p Publisher) Publisher {
	c := func(s string) string {
		return strings.TrimSpace(truncateRunes(cleanControl(s, false), maxPublisherLn, ""))
	}
	out := Publisher{
		IntegrationID:    c(p.IntegrationID),
		IntegrationLabel: c(p.IntegrationLabel),
		Vendor:           c(p.Vendor),
		ClientType:       c(p.ClientType),
		ClientName:       c(p.ClientName),
		ClientVersion:    c(p.ClientVersion),
		WorkspaceName:    c(p.WorkspaceName),
		MachineName:      c(p.MachineName),
		ViewerDepth:      c(p.ViewerDepth),
	}
	if p.Capabilities != nil {
		caps := *p.Capabilities
		out.Capabilities = &caps
	}
	return out
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
