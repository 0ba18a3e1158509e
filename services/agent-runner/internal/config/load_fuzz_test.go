package config

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzMerge parses each input as a JSONC config file, trusted and untrusted. Properties: no
// panic; an untrusted (project) file never pulls a server environment variable into the
// config, whatever it references; and a config that loads encodes to JSON that loads again
// to the same config.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"model":"anthropic/claude"}`, "// comment\n{\"model\": \"a/b\",}",
		`{"model":"${SECRET_KEY}"}`, `{"provider":{"x":{"options":{"apiKey":"${SECRET_KEY}"}}}}`,
		`{"agent":{"build":{"prompt":"${SECRET_KEY}"}}}`, `{"permission":[{"permission":"bash","pattern":"*","action":"allow"}]}`,
		`{"mcp":{"m":{"type":"local","command":["x"]}}}`, `{"model":"nope"}`, `[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	const secret = "server-secret-value-7f3a"
	getenv := func(k string) string {
		if k != "" {
			return secret
		}
		return ""
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if c, err := Merge([]Layer{{Name: "project.jsonc", Data: data, Untrusted: true}}, getenv); err == nil {
			raw, _ := json.Marshal(c)
			if strings.Contains(string(raw), secret) {
				t.Fatalf("an untrusted file read the environment: %s", raw)
			}
		}
		c, err := Merge([]Layer{{Name: "global.jsonc", Data: data}}, getenv)
		if err != nil {
			return
		}
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("encode %+v: %v", c, err)
		}
		again, err := Merge([]Layer{{Name: "again.json", Data: raw}}, func(string) string { return "" })
		if err != nil {
			t.Fatalf("the loaded config %s does not load again: %v", raw, err)
		}
		raw2, _ := json.Marshal(again)
		if string(raw2) != string(raw) {
			t.Fatalf("not stable:\n%s\n%s", raw, raw2)
		}
	})
}
