package vibe

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The canonicaliser maps what publishers send onto the canonical event model. Publishers in
// the field send many forms of the same value ("completed" for a tool's end, epoch
// milliseconds for a time, "17" for a sequence number); an event is never refused for a value
// that can be mapped. Each enumerated field is one rule below: its canonical values, the
// synonyms that map onto them, and what any other value becomes. docs/protocol.md carries the
// same table.

// enumRule canonicalises one enumerated field.
type enumRule struct {
	values   []string          // the canonical values
	synonyms map[string]string // folded synonym → canonical value
	fallback string            // what any other value becomes; "" drops it
	// words lets a value that is no synonym map by its last words: a namespaced constant
	// ("TASK_STATE_COMPLETED", "IN_MODIFY", "tool.call.finished", "toolCallFailed") means
	// what its final words mean. Never for visibility, where a guess must not show an event.
	words bool
}

// synonyms builds a synonym map from canonical value → its synonyms (folded form).
func synonyms(m map[string][]string) map[string]string {
	out := map[string]string{}
	for canonical, words := range m {
		for _, w := range words {
			out[fold(w)] = canonical
		}
		out[fold(canonical)] = canonical // other spellings of the value itself
	}
	return out
}

var (
	visibilityRule = enumRule{
		values: []string{VisibilityPublic, VisibilityStreamer},
		synonyms: synonyms(map[string][]string{
			VisibilityPublic:   {"everyone", "viewers", "visible", "shown", "show", "open", "all"},
			VisibilityStreamer: {"private", "owner", "owner-only", "streamer-only", "hidden", "hide", "internal", "secret", "self"},
		}),
		fallback: VisibilityStreamer, // unknown: keep it from viewers
	}
	depthRule = enumRule{
		words:  true,
		values: []string{DepthHeadline, DepthStandard, DepthDeep},
		synonyms: synonyms(map[string][]string{
			DepthHeadline: {"brief", "short", "summary", "minimal", "min", "low", "compact", "terse", "headlines"},
			DepthStandard: {"normal", "default", "medium", "regular", "basic"},
			DepthDeep:     {"verbose", "detailed", "detail", "full", "high", "max", "maximum", "debug", "all"},
		}),
		fallback: DepthStandard,
	}
	phaseRule = enumRule{
		words:  true,
		values: []string{"start", "end", "error"},
		synonyms: synonyms(map[string][]string{
			"start": {"running", "started", "starting", "in_progress", "pending", "begin", "began", "invoked",
				"invoke", "call", "calling", "executing", "working", "queued",
				"input-streaming", "input-available", "approval-requested"}, // the AI SDK's tool part states
			"end": {"completed", "complete", "done", "success", "succeeded", "successful", "finished", "finish",
				"ok", "result", "ended", "stop", "stopped", "returned", "output-available"},
			"error": {"failed", "failure", "fail", "errored", "err", "exception", "crashed", "timeout", "timed_out",
				"cancelled", "canceled", "aborted", "rejected", "denied", "incomplete", "expired",
				"output-error", "output-denied"},
		}),
	}
	operationRule = enumRule{
		words:  true,
		values: []string{"create", "edit", "delete", "rename", "save"},
		synonyms: synonyms(map[string][]string{
			"create": {"created", "add", "added", "new", "add-dir", "copied", "copy"},
			"edit": {"modify", "modified", "update", "updated", "change", "changed", "edited", "patch", "patched",
				"replace", "replaced", "append", "appended", "write", "written", "overwrite", "chmod"},
			"delete": {"deleted", "remove", "removed", "rm", "unlink", "unlink-dir"},
			"rename": {"renamed", "move", "moved", "mv"},
			"save":   {"saved"},
		}),
	}
	clientTypeRule = enumRule{
		words:  true,
		values: append(slices.Clip(ClientTypes), "other"),
		synonyms: synonyms(map[string][]string{
			"vscode-extension": {"vscode", "vs-code", "code-extension"},
			"cli":              {"terminal", "command-line", "shell", "console"},
			"browser":          {"web", "webapp", "browser-extension"},
			"service":          {"server", "daemon", "agent", "bot", "backend"},
		}),
		fallback: "other",
	}
	// publisherDepthRule is depthRule for a publisher's viewerDepth hint, which is dropped
	// rather than defaulted when unknown.
	publisherDepthRule = enumRule{values: depthRule.values, synonyms: depthRule.synonyms}
)

// eventTypeSynonyms maps other names of the canonical event types onto them (folded form).
// Any other type is a custom type: kept as sent and shown to viewers as generic activity.
var eventTypeSynonyms = synonyms(map[string][]string{
	TypeSessionStatus: {"status", "session", "session_state"},
	TypePrompt:        {"user_prompt", "user_message", "user_input", "user"},
	TypeResponse:      {"assistant_response", "assistant_message", "assistant", "reply", "answer"},
	TypeThinking:      {"reasoning", "thought", "thoughts", "think"},
	TypeToolCall:      {"tool", "tool_use", "tool_invocation", "tool_result", "function_call", "function"},
	TypeFileChange:    {"file_changed", "file_edit", "file_edited", "file_modified", "file_update", "file_updated", "file_write"},
	TypeFileSave:      {"file_saved"},
})

// fold lowercases s and drops spaces, '_', '-' and '.', so that "In Progress", "in_progress"
// and "IN-PROGRESS" compare equal.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.TrimSpace(s) {
		switch r {
		case ' ', '_', '-', '.':
			continue
		}
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// canonical maps s onto the rule's values; changed is false when s already was one.
func (r *enumRule) canonical(s string) (v string, changed bool) {
	if slices.Contains(r.values, s) {
		return s, false
	}
	if v, ok := r.synonyms[fold(s)]; ok {
		return v, true
	}
	if r.words {
		if v, ok := r.byLastWords(s); ok {
			return v, true
		}
	}
	return r.fallback, true
}

// byLastWords maps s by its last words, longest run first: "TASK_STATE_COMPLETED" tries
// "statecompleted", then "completed". A negation anywhere ("not_done", "NON_FATAL") maps
// nothing.
func (r *enumRule) byLastWords(s string) (string, bool) {
	w := splitWords(s)
	if len(w) < 2 || slices.ContainsFunc(w, isNegation) {
		return "", false
	}
	for i := 1; i < len(w); i++ {
		if v, ok := r.synonyms[strings.Join(w[i:], "")]; ok {
			return v, true
		}
	}
	return "", false
}

// splitWords splits an identifier into lowercase words at separators and at lower-to-upper
// case changes ("toolCallFailed" → tool, call, failed).
func splitWords(s string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '_' || r == '-' || r == '.' || r == ':' || r == '/':
			flush()
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z':
			if prevLower {
				flush()
			}
			r += 'a' - 'A'
			prevLower = false
		default:
			prevLower = r >= 'a' && r <= 'z'
		}
		b.WriteRune(r)
	}
	flush()
	return words
}

func isNegation(w string) bool {
	switch w {
	case "not", "non", "no", "never", "un", "without":
		return true
	}
	return false
}

// IsCanonicalType reports whether t is one of the canonical event types (EventTypes); any
// other type is a custom type.
func IsCanonicalType(t string) bool { return slices.Contains(EventTypes, t) }

// canonicalType maps an event type onto a canonical one when it is another name of it, and
// keeps a custom type as sent (trimmed).
func canonicalType(s string) (t string, changed bool) {
	if IsCanonicalType(s) {
		return s, false
	}
	if v, ok := eventTypeSynonyms[fold(s)]; ok {
		return v, true
	}
	t = strings.TrimSpace(s)
	return t, t != s
}

// Normalized records what the canonicaliser changed in one event: for each field (a dotted
// path such as "tool.phase"), in the order met, the value the publisher sent. Short strings,
// numbers and booleans are kept as sent; anything else is described ("(object)",
// "(string, 812 characters)"), so the record never holds free text. A field the publisher
// left out but the event needed (a missing eventType) is recorded as null.
type Normalized []NormalizedField

// NormalizedField is one entry of a Normalized record.
type NormalizedField struct {
	Field string
	From  json.RawMessage
	want  string // what the canonical form is ("an integer"), for ParseEvent's error
}

// maxRecordedRunes bounds a string kept as sent in a Normalized record.
const maxRecordedRunes = 64

// MarshalJSON writes the record as one JSON object, fields in order; an empty record is null.
func (n Normalized) MarshalJSON() ([]byte, error) {
	if len(n) == 0 {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Field)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.From)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a record written by MarshalJSON, keeping the order of its fields.
func (n *Normalized) UnmarshalJSON(data []byte) error {
	*n = nil
	if isNull(data) {
		return nil
	}
	obj, ok := jsonObject(data)
	if !ok {
		return errNormalizedNotObject
	}
	for _, m := range obj {
		*n = append(*n, NormalizedField{Field: m.key, From: append(json.RawMessage(nil), m.val...)})
	}
	return nil
}

// JSON returns the record as a JSON object, or nil when it is empty (what the store keeps).
func (n Normalized) JSON() json.RawMessage {
	if len(n) == 0 {
		return nil
	}
	b, _ := n.MarshalJSON()
	return b
}

// Fields lists the fields of the record, in order.
func (n Normalized) Fields() []string {
	out := make([]string, len(n))
	for i, f := range n {
		out[i] = f.Field
	}
	return out
}

// Get returns the recorded value of field, or nil.
func (n Normalized) Get(field string) json.RawMessage {
	for _, f := range n {
		if f.Field == field {
			return f.From
		}
	}
	return nil
}

// add records field as normalised from v. verbatim says whether a short string may be kept
// as sent (enumerated values, numbers and times) or only described (text); want is what the
// canonical form is.
func (n *Normalized) add(field string, v json.RawMessage, verbatim bool, want string) {
	*n = append(*n, NormalizedField{Field: field, From: recordedValue(v, verbatim), want: want})
}

// oneOfText describes an enumeration: "a or b", "one of a, b, c".
func oneOfText(values []string) string {
	if len(values) == 2 {
		return values[0] + " or " + values[1]
	}
	return "one of " + strings.Join(values, ", ")
}

var (
	nullJSON               = json.RawMessage("null")
	errNormalizedNotObject = errors.New("normalized record must be a JSON object")
)

func recordedValue(v json.RawMessage, verbatim bool) json.RawMessage {
	if len(v) == 0 {
		return nullJSON
	}
	describe := func(what string) json.RawMessage { // what needs no escaping
		return json.RawMessage(`"(` + what + `)"`)
	}
	switch v[0] {
	case '"':
		s, _ := jsonString(v)
		n := utf8.RuneCountInString(s)
		if verbatim && n <= maxRecordedRunes {
			b, _ := json.Marshal(s)
			return b
		}
		return describe("string, " + strconv.Itoa(n) + " characters")
	case '{':
		return describe("object")
	case '[':
		return describe("array")
	}
	if len(v) > 32 {
		return describe("number")
	}
	return append(json.RawMessage(nil), v...) // a number, true, false or null
}
