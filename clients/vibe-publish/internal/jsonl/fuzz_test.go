package jsonl

import (
	"testing"

	"openvibe.live/backend/shared/vibe"
)

// FuzzParseLine: any line either fails with an error or yields an event the gateway would
// accept as well.
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"eventType":"prompt","prompt":{"text":"hello"}}`))
	f.Add([]byte(`{"eventId":null,"eventType":"file.change","file":{"relativePath":"a.go","snippet":null}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"eventType":"tool.call","tool":{"name":1}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := ParseLine(line, "/tmp/x.jsonl", 1)
		if err != nil {
			return
		}
		if ev.EventID == "" {
			t.Fatal("no eventId")
		}
		if !validType(ev.EventType) {
			t.Fatalf("type %q", ev.EventType)
		}
	})
}

func validType(s string) bool {
	for _, t := range vibe.EventTypes {
		if t == s {
			return true
		}
	}
	return false
}
