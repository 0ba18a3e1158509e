package vibe

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// checkJSONObject compares jsonObject with json.Unmarshal into a map of raw values: the same
// keys, and for each the value json.Unmarshal keeps.
func checkJSONObject(t *testing.T, raw []byte) {
	var want map[string]json.RawMessage
	wantErr := json.Unmarshal(raw, &want)
	got, ok := jsonObject(raw)
	if wantErr != nil || want == nil { // an error, or null
		require.False(t, ok, "%q", raw)
		return
	}
	require.True(t, ok, "%q", raw)
	keys := map[string]bool{}
	for _, m := range got {
		keys[m.key] = true
	}
	require.Equal(t, len(want), len(keys), "%q", raw)
	for k, v := range want {
		require.Equal(t, string(v), string(got.get(k)), "%q: member %q", raw, k)
	}
}

func TestJSONObject(t *testing.T) {
	for _, raw := range []string{
		`{}`, ` { } `, `{"a":1}`, "{\n\t\"a\" :\r\n \"x\" , \"b\":[1,{\"c\":\"]}\"}] ,\"d\":null}",
		`{"a":"x\"y","a":"last"}`, `{"\u0061":true,"b\\c":false,"":-1.5e3}`, `{"s":"\ud83d\ude00 é"}`,
		`{"k":{"nested":{"deeper":["a","}"]}}}`, "{\"bad\xff\":1}",
		`null`, `[]`, `"s"`, `1`, ``, `{`, `{"a"}`, `{"a":1,}`, `{"a":1} x`, `{'a':1}`,
	} {
		checkJSONObject(t, []byte(raw))
	}
}

func FuzzJSONObject(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":{"c":[1,"x"]}}`, `{"a":"\"","a":2}`, `{}`, `[1]`, `{"a":tru}`} {
		f.Add([]byte(s))
	}
	f.Add([]byte(seedEvent))
	f.Fuzz(func(t *testing.T, raw []byte) { checkJSONObject(t, raw) })
}
