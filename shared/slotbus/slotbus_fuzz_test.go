package slotbus

import (
	"encoding/json"
	"testing"
)

// FuzzDecode: any payload on a slot channel decodes without a panic into an error or a
// message with a kind and a positive slot id, which encodes and decodes back to the same
// message.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"kind":"event","slot_id":1,"event":{"seq":1,"event_id":"e","payload":{"eventType":"prompt"}}}`,
		`{"kind":"settings","slot_id":2}`, `{"kind":"chat","slot_id":3,"chat":{"id":1,"text":"hi"}}`,
		`{"kind":"retract","slot_id":4}`, `{"kind":"panic","slot_id":5}`,
		`{"kind":"","slot_id":1}`, `{"kind":"event","slot_id":-1}`, `{"kind":"event","slot_id":"1"}`,
		`[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := Decode(payload)
		if err != nil {
			return
		}
		if m.Kind == "" || m.SlotID <= 0 {
			t.Fatalf("decoded %q into %+v", payload, m)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", m, err)
		}
		m2, err := Decode(again)
		if err != nil {
			t.Fatalf("decode of re-encoded %s: %v", again, err)
		}
		third, _ := json.Marshal(m2)
		if string(third) != string(again) {
			t.Fatalf("not stable: %s then %s", again, third)
		}
	})
}
