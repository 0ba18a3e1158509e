package vibe

import (
	"testing"
)

// TestOneCharacterValueIsNoSecret: HTML's accesskey attribute (every page Texinfo, DocBook
// and Sphinx generate) holds one character under a name with key in it.
func TestOneCharacterValueIsNoSecret(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		`Next: <a href="#Introduction" accesskey="n" rel="next">Introduction</a>, Previous: <a href="dir.html#Top" accesskey="p" rel="prev">(dir)</a>`,
		`<td align="center"><a accesskey="u" href="index.html">Home</a></td>`,
		`ACCESSKEY="h"`,
	)
	requireMasked(t, san, []maskedRow{
		{`<a accesskey="Qx7mB2pzR9vL4kWn" href="x">`, "Qx7mB2pzR9vL4kWn"},
		{`password="x9"` + "\n" + `accesskey="tR4#kq8Z"`, "tR4#kq8Z"},
		{`ACCESS_KEY="AbC4dE5fG6hI7jK8"`, "AbC4dE5fG6hI7jK8"},
	})
}
