package vibe

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// envelopeKeys are the keys ParseClientMessage reads.
var envelopeKeys = []string{"type", "protocolVersion", "managedStreamId", "slotSlug", "timestamp", "sessionKey", "publisher", "event"}

// jsonEnvelope is what encoding/json makes of the same envelope.
type jsonEnvelope struct {
	Type            string          `json:"type"`
	ProtocolVersion int             `json:"protocolVersion"`
	ManagedStreamID int64           `json:"managedStreamId"`
	SlotSlug        string          `json:"slotSlug"`
	Timestamp       string          `json:"timestamp"`
	SessionKey      string          `json:"sessionKey"`
	Publisher       json.RawMessage `json:"publisher"`
	Event           json.RawMessage `json:"event"`
}

// checkClientMessage compares ParseClientMessage with json.Unmarshal into the envelope
// struct, on every message where the two are meant to agree: encoding/json also matches a
// key in another case, and reports a repeated key's first bad value even when a later one
// is good.
func checkClientMessage(t *testing.T, raw []byte) {
	got, err := ParseClientMessage(raw)
	if !json.Valid(raw) {
		require.ErrorIs(t, err, ErrMessageNotJSON, "%q", raw)
		return
	}
	obj, isObject := splitObject(raw)
	if !isObject {
		require.ErrorIs(t, err, ErrMessageNotObject, "%q", raw)
		return
	}
	require.NoError(t, err, "%q", raw)
	seen := map[string]bool{}
	for _, m := range obj {
		for _, k := range envelopeKeys {
			if strings.EqualFold(m.key, k) && (m.key != k || seen[k]) {
				return
			}
		}
		seen[m.key] = true
	}
	checkClientEvent(t, &got)
	if len(got.Coerced) > 0 {
		require.NotEmpty(t, got.Coerced) // values in other forms: encoding/json refuses them
		return
	}
	var want jsonEnvelope
	wantErr := json.Unmarshal(raw, &want)
	require.Equal(t, wantErr == nil, got.FieldError == "", "%q: json says %v, FieldError %q", raw, wantErr, got.FieldError)
	require.Equal(t, want, jsonEnvelope{got.Type, got.ProtocolVersion, got.ManagedStreamID, got.SlotSlug,
		got.Timestamp, got.SessionKey, got.Publisher, got.Event}, "%q", raw)
}

// checkClientEvent compares the message's ParseEvent, which does not validate the event
// again, with ParseEvent.
func checkClientEvent(t *testing.T, m *ClientMessage) {
	got, gotNorm, gotErr := m.ParseEvent()
	want, wantNorm, wantErr := CanonicalEvent(m.Event)
	require.Equal(t, wantErr, gotErr, "%q", m.Event)
	require.Equal(t, want, got, "%q", m.Event)
	require.Equal(t, wantNorm, gotNorm, "%q", m.Event)
}

func TestParseClientMessageEvent(t *testing.T) {
	m, err := ParseClientMessage([]byte(`{"type":"vibe-coding.event","event":` + seedEvent + `}`))
	require.NoError(t, err)
	ev, _, err := m.ParseEvent()
	require.NoError(t, err)
	require.Equal(t, "28c49b5c-9070-4fd3-b750-b67d84338f64", ev.EventID)
	checkClientEvent(t, &m)

	m.Event = json.RawMessage(`{"eventId":"e","eventType":`) // replaced: validated again
	_, _, err = m.ParseEvent()
	require.EqualError(t, err, "event payload is required")
	for _, raw := range []string{`{"type":"vibe-coding.event"}`, `{"event":null}`, `{"event":"text"}`, `{"event":[{}]}`, `{"event":{"eventId":1}}`} {
		m, err := ParseClientMessage([]byte(raw))
		require.NoError(t, err)
		checkClientEvent(t, &m)
	}
}

func TestParseClientMessage(t *testing.T) {
	for _, raw := range []string{
		`{"type":"vibe-coding.hello","protocolVersion":1,"managedStreamId":123,"slotSlug":"camp-code","timestamp":"2026-04-21T23:10:00.000Z","sessionKey":"k","publisher":{"clientType":"cli"}}`,
		`{"type":"vibe-coding.event","sessionKey":"k","event":{"eventId":"e","eventType":"prompt"}}`,
		`{"type":"vibe-coding.ping"}`, `{}`, ` {"type" : "a" , "event" : null } `,
		`{"type":42}`, `{"type":null,"sessionKey":7}`, `{"protocolVersion":1.0}`, `{"protocolVersion":1e2}`,
		`{"protocolVersion":-0}`, `{"managedStreamId":9223372036854775808}`, `{"managedStreamId":"12"}`,
		`{"slotSlug":["a"],"timestamp":{}}`, `{"type":"\u0076ibe","sessionKey":"a\"b\\c\u00e9"}`,
		"{\"sessionKey\":\"bad\xffutf8\"}", `{"\u0074ype":"escaped key"}`, `{"publisher":null,"event":"text"}`,
		`{"type":"a","type":"b"}`,
		`[1]`, `"s"`, `null`, `1`, ``, `{`, `{"type":}`, `{"a":1} x`,
	} {
		checkClientMessage(t, []byte(raw))
	}
}

func TestParseClientMessageKeysMatchExactly(t *testing.T) {
	m, err := ParseClientMessage([]byte(`{"Type":"vibe-coding.ping","SESSIONKEY":"k","type":"vibe-coding.hello"}`))
	require.NoError(t, err)
	require.Equal(t, "vibe-coding.hello", m.Type)
	require.Empty(t, m.SessionKey, "a key in another case is an unknown key")
	require.Empty(t, m.FieldError)
}

func TestParseClientMessageFieldErrors(t *testing.T) {
	m, err := ParseClientMessage([]byte(`{"type":"vibe-coding.event","protocolVersion":{},"sessionKey":[5],"event":{}}`))
	require.NoError(t, err)
	require.Equal(t, "vibe-coding.event", m.Type, "a bad field does not stop the others")
	require.Equal(t, "protocolVersion must be an integer", m.FieldError, "the first bad field is named")
	require.Equal(t, []string{"protocolVersion", "sessionKey"}, m.Coerced)
	require.JSONEq(t, `{}`, string(m.Event))
}

// TestParseClientMessageCoerces: envelope values in the forms the original platform's
// publishers send are read.
func TestParseClientMessageCoerces(t *testing.T) {
	m, err := ParseClientMessage([]byte(`{"type":"vibe-coding.event","protocolVersion":"1","managedStreamId":" 123 ",` +
		`"sessionKey":42,"slotSlug":7,"timestamp":1776813001099,"event":{}}`))
	require.NoError(t, err)
	require.Empty(t, m.FieldError)
	require.Equal(t, 1, m.ProtocolVersion)
	require.EqualValues(t, 123, m.ManagedStreamID)
	require.Equal(t, "42", m.SessionKey)
	require.Equal(t, "7", m.SlotSlug)
	require.Equal(t, "1776813001099", m.Timestamp)
	require.ElementsMatch(t, []string{"protocolVersion", "managedStreamId", "sessionKey", "slotSlug", "timestamp"}, m.Coerced)

	m, err = ParseClientMessage([]byte(`{"type":"vibe-coding.event","timestamp":{"at":1}}`))
	require.NoError(t, err)
	require.Empty(t, m.FieldError, "the timestamp is not used: a bad one is no error")
	require.Equal(t, []string{"timestamp"}, m.Coerced)
}

func TestParseClientMessageCopiesRawValues(t *testing.T) {
	raw := []byte(`{"type":"vibe-coding.event","publisher":{"a":1},"event":{"eventId":"e"}}`)
	m, err := ParseClientMessage(raw)
	require.NoError(t, err)
	for i := range raw {
		raw[i] = ' '
	}
	require.JSONEq(t, `{"a":1}`, string(m.Publisher))
	require.JSONEq(t, `{"eventId":"e"}`, string(m.Event))
}

func FuzzClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"vibe-coding.hello","protocolVersion":1,"managedStreamId":123,"sessionKey":"k","publisher":{}}`,
		`{"type":7,"protocolVersion":1.5,"event":null}`, `{"managedStreamId":-1e3,"slotSlug":"\u00e9"}`, `[]`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"type":"vibe-coding.event","sessionKey":"k","event":` + seedEvent + `}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkClientMessage(t, raw)
	})
}

// BenchmarkParseClientMessage reads the envelope of an event message the size of the
// protocol document's example, against encoding/json into the same fields.
func BenchmarkParseClientMessage(b *testing.B) {
	raw := []byte(`{"type":"vibe-coding.event","protocolVersion":1,"managedStreamId":123,"slotSlug":"camp-code",` +
		`"sessionKey":"vscode-copilot-session-1","timestamp":"2026-04-21T23:10:01.100Z","event":` + seedEvent + `}`)
	b.Run("ParseClientMessage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseClientMessage(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ParseClientMessage+ParseEvent", func(b *testing.B) { // the gateway's whole decoding
		b.ReportAllocs()
		for b.Loop() {
			m, err := ParseClientMessage(raw)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := m.ParseEvent(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m jsonEnvelope
			if err := json.Unmarshal(raw, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
