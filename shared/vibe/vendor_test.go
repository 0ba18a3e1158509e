package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestVendorKeys: a generated value after the name of the service it belongs to is masked,
// however the name and value are joined; a hash, a version, a date or a word after the same
// names, or a generated value after another word, is not.
func TestVendorKeys(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tt := range []struct{ in, secret, kept string }{
		{"export CLOUDSMITH 0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "export CLOUDSMITH "},
		{"mailgun: Qm7xK2pL9vR4tW8zN3cB", "Qm7xK2pL9vR4tW8zN3cB", "mailgun: "},
		{`"statuscake": "8c1f7e2a-5b3d-4f6e-9a0b-1c2d3e4f5a6b"`, "8c1f7e2a-5b3d-4f6e-9a0b", `"statuscake": "`},
		{"pipedrive=a9f3k2m8q1w7e4r6t0y5u3i2", "a9f3k2m8q1w7e4r6t0y5u3i2", "pipedrive="},
		{"paystackPRIVATE 7d1e9c3b5a2f4e6d8c0b1a3f5e7d9c2b", "7d1e9c3b5a2f4e6d8c0b1a3f5e7d9c2b", "paystackPRIVATE "},
		{"mixpanel SECRET 2b4d6f8a1c3e5a7b9d0f2e4c", "2b4d6f8a1c3e5a7b9d0f2e4c", "mixpanel SECRET "},
		{"the nexmo key is set: nexmo => 'Zx81Qw72Er63Ty54'", "Zx81Qw72Er63Ty54", "nexmo => '"},
		{"opsgenie_api: Zx8+1Qw72Er/63Ty54==", "Zx8+1Qw72Er", "opsgenie_api: "},
		{"paymo 0f1e2d3c4b5a69788796a5b4c3d2e1f0aa", "0f1e2d3c4b5a6978", "paymo "}, // the name without its app
		{"#define NL80211_ATTR_FRAME Qm7xK2pL9vR4tW8zN3cB", "Qm7xK2pL9vR4tW8zN3cB", "#define NL80211_ATTR_FRAME "},
		{"FRAME=Qm7xK2pL9vR4tW8zN3cB FRAME", "Qm7xK2pL9vR4tW8zN3cB", "FRAME="},
		// A UUID whose groups read as words (cbbe, abbe) is still a key.
		{"export crowdin '8ef52dff-cbbe-f09f-abbe-40cfec6aae9f'", "8ef52dff-cbbe-f09f-abbe", "export crowdin '"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q", tt.in)
		require.Contains(t, out, "[redacted:", "%q → %q", tt.in, out)
		require.Contains(t, out, tt.kept)
	}
	for _, in := range []string{
		"git commit 3f9c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c",    // a hash after a word
		"github 3f9c2a1b4d5e6f708192a3b4c5d6e7f8091a2b3c merged", // code hosts precede commit hashes
		"stripe v12.3.0-beta and sentry 2024-01-01T10:00:00",     // versions and times
		"datadog-agent 7.52.1 on host twilio.example-2024",
		"mailgun: newsletter_template_2024",                            // words, not generated
		"mailgun $MAILGUN_KEY_2024 and mailgun: ${MAILGUN_API_KEY_V3}", // variables
		"mailgun: XXXXXXXXXXXXXXXXXXXX1234", "sendgrid: your_sendgrid_key_123",
		"#define NL80211_ATTR_FRAME NL80211_ATTR_FRAME\n#define NL80211_ATTR_SSID NL80211_ATTR_SSID", // a macro defined as itself
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	// A path segment after a host named for a service is not a value after its name.
	out := san.NewSession(SessionHints{}).SanitizeText("see https://api.mailgun.com/v3/a9f3k2m8q1w7e4r6t0y5u3i2 docs")
	require.NotContains(t, out, "vendor-key")
}
