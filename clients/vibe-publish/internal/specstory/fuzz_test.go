package specstory

import (
	"testing"
)

// FuzzEvents: any text maps without panicking; every event has an id and a type; ids are
// unique within a chat; and a chat that grows by appending keeps the ids it had (the parts
// before the last one map the same).
func FuzzEvents(f *testing.F) {
	for _, s := range []string{early, cursor, toolUse, vscode, cli,
		"_**User**_\n\n```\n_**Assistant**_\n",
		"<details><summary>Tool use: **run_terminal_cmd**</summary>\n\n```bash\nls\n```",
		"<tool-use data-tool-type=\"shell\" data-tool-name=\"x\">\n<think>\n"} {
		f.Add(s, "\n_**Assistant**_\n\nmore")
	}
	f.Fuzz(func(t *testing.T, text, more string) {
		evs, tail := Events([]byte(text), "chat.md", "/work/app")
		if tail < 0 || tail > len(evs) {
			t.Fatalf("tail %d of %d events", tail, len(evs))
		}
		seen := map[string]bool{}
		for _, ev := range evs {
			if ev.EventID == "" || ev.EventType == "" {
				t.Fatalf("event without id or type: %+v", ev)
			}
			if seen[ev.EventID] {
				t.Fatalf("event id %q twice", ev.EventID)
			}
			seen[ev.EventID] = true
		}
		grown, _ := Events([]byte(text+more), "chat.md", "/work/app")
		ids := map[string]bool{}
		for _, ev := range grown {
			ids[ev.EventID] = true
		}
		for _, ev := range evs[:len(evs)-tail] {
			if !ids[ev.EventID] {
				t.Fatalf("event %q of the settled parts gone once the chat grew", ev.EventID)
			}
		}
	})
}
