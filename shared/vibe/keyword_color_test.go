package vibe

import (
	"testing"
)

// TestColorValueIsNoSecret: a style's colours under a token's name (Pygments styles map
// Token to a colour; themes name token colours) are no values of a token.
func TestColorValueIsNoSecret(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		"    styles = {\n        Token:              '#dddddd',\n        Comment:            'italic #666666',\n    }",
		"        Token:                      \"#d8dee9\",",
		"TOKEN_COLOR = 'bold bg:#ABB2BF'\n--token-border: border:#fff;",
	)
	requireMasked(t, san, []maskedRow{
		{"Token: '#Qx7mB2pzR9'", "Qx7mB2pzR9"},
		{`password: "#a1b2c3d4e5f6"`, "a1b2c3d4e5f6"},
		{"TOKEN = 'bold Qx7mB2pzR9vL4kWn'", "Qx7mB2pzR9vL4kWn"},
	})
}
