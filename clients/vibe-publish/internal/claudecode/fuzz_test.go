package claudecode

import (
	"bufio"
	"os"
	"testing"
)

// FuzzMapperLine: any line, valid JSON or not, maps without panicking, and every event has
// an id and a canonical type.
func FuzzMapperLine(f *testing.F) {
	data, err := os.Open("testdata/session.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(data)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	data.Close()
	f.Add([]byte(`{"type":"user","uuid":"u","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"text"}]}]}}`))
	f.Add([]byte(`{"type":"assistant","uuid":"u","message":{"content":"plain"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		m := NewMapper("")
		for range 2 { // twice: a tool use, then its result may refer to it
			evs, _ := m.Line(line)
			for _, ev := range evs {
				if ev.EventID == "" || ev.EventType == "" {
					t.Fatalf("event without id or type: %+v", ev)
				}
			}
		}
	})
}
