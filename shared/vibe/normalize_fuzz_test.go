package vibe

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// FuzzNormalizePublisher: any hello publisher object normalizes without a panic to a known
// client type; normalizing the result again changes nothing; and the viewer-safe cut never
// carries the machine or workspace name.
func FuzzNormalizePublisher(f *testing.F) {
	for _, s := range []string{
		`{"integrationId":"github-copilot","integrationLabel":"GitHub Copilot","vendor":"GitHub","clientType":"vscode-extension","clientName":"c","clientVersion":"1","workspaceName":"w","machineName":"m","viewerDepth":"deep","capabilities":{"thinking":true}}`,
		`{"clientType":"VSCODE-EXTENSION"}`, `{"clientType":"rootkit","machineName":"box"}`, `{"clientName":7}`,
		`{"capabilities":"yes"}`, `[]`, `null`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	known := []string{"vscode-extension", "cli", "browser", "service", "other", ""}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p := NormalizePublisher(json.RawMessage(raw))
		if !slices.Contains(known, p.ClientType) {
			t.Fatalf("client type %q", p.ClientType)
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if p2 := NormalizePublisher(again); !reflect.DeepEqual(p, p2) {
			t.Fatalf("not idempotent: %+v then %+v", p, p2)
		}
		if v := p.ViewerSafe(); v != nil && (v.MachineName != "" || v.WorkspaceName != "" || v.Capabilities != nil) {
			t.Fatalf("viewer-safe publisher carries private fields: %+v", v)
		}
	})
}

// FuzzSettingsFromBroadcast: any stored broadcast_settings object reads without a panic
// into settings that a strict patch accepts as they are (every value in range), and that
// survive being written back into the broadcast object unchanged.
func FuzzSettingsFromBroadcast(f *testing.F) {
	for _, s := range []string{
		`{"vibe_coding":{"enabled":1,"delay_ms":1500,"viewer_depth":"deep","widget_title":"W"}}`,
		`{"vibe_coding":{"delay_ms":-5,"max_events":100000,"enabled":"yes","paused":"on"}}`,
		`{"vibe_coding":{"viewer_depth":"DEEP","widget_title":""}}`, `{"vibe_coding":null}`, `{"vibe_coding":[]}`,
		`{"other":1}`, `[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := SettingsFromBroadcast(json.RawMessage(raw))
		body, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		strict, err := ApplySettingsPatch(DefaultSettings(), body)
		if err != nil {
			t.Fatalf("settings read from %q are not valid settings: %v", raw, err)
		}
		if strict != s {
			t.Fatalf("strict patch changed %+v into %+v", s, strict)
		}
		b, err := BroadcastWithSettings(json.RawMessage(`{}`), s)
		if err != nil {
			t.Fatal(err)
		}
		if back := SettingsFromBroadcast(b); back != s {
			t.Fatalf("write and read back changed %+v into %+v", s, back)
		}
	})
}
