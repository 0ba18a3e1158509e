package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzViewerFrame decodes each input as the viewer socket's read loop does, then cleans a
// chat.send text as sendChat does. Properties: no panic; a cleaned message is valid UTF-8,
// non-empty, trimmed, free of control characters (so no line breaks reach other viewers),
// within the length limit, and cleaning it again changes nothing; a refused one says why.
func FuzzViewerFrame(f *testing.F) {
	for _, s := range []string{
		`{"type":"chat.send","text":"hello"}`, `{"type":"ping"}`, `{"type":"chat.send","text":"  \n\t "}`,
		`{"type":"chat.send","text":"a\u0000b\u2028c\r\nd"}`, `{"type":"chat.send","text":"<img src=x onerror=alert(1)>"}`,
		`{"type":"chat.send","text":"` + strings.Repeat("é", 600) + `"}`, `{"type":"chat.send","text":7}`,
		`{"type":"chat.send","text":"\ud800"}`, `[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	const maxChars = 500
	f.Fuzz(func(t *testing.T, data []byte) {
		var m clientMessage
		if err := json.Unmarshal(data, &m); err != nil || m.Type != "chat.send" {
			return
		}
		out, problem := cleanChat(m.Text, maxChars)
		if problem != "" {
			if out != "" {
				t.Fatalf("refused %q with %q but returned %q", m.Text, problem, out)
			}
			return
		}
		switch {
		case out == "":
			t.Fatalf("accepted an empty message from %q", m.Text)
		case !utf8.ValidString(out):
			t.Fatalf("accepted invalid UTF-8 %q", out)
		case strings.TrimSpace(out) != out:
			t.Fatalf("not trimmed: %q", out)
		case strings.IndexFunc(out, unicode.IsControl) >= 0:
			t.Fatalf("control character in %q", out)
		case utf8.RuneCountInString(out) > maxChars:
			t.Fatalf("%d characters accepted", utf8.RuneCountInString(out))
		}
		if again, p := cleanChat(out, maxChars); again != out || p != "" {
			t.Fatalf("cleaning %q again gave %q, %q", out, again, p)
		}
	})
}
