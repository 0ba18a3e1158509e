package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSymlinkTargetIsNoValue(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	kept := []string{
		"lrwxrwxrwx  1 root root   52 Jun 20  2025 docker-credential-gcloud -> ../lib/google-cloud-sdk/bin/docker-credential-gcloud",
		"lrwxrwxrwx  1 root root   24 Jun 20  2025 git-credential-gcloud.sh -> /usr/lib/google-cloud-sdk/bin/git-credential-gcloud.sh\ntotal 8",
		"secrets -> ./config/secrets/prod",
	}
	for _, in := range kept {
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		require.Equal(t, in, out)
	}
	caught := []struct{ in, secret string }{
		{"$config->password = 'dipPr170Gg!';", "dipPr170Gg!"},
		{"token -> Qx7mB2pzR9vL4kWn8cT1yH6jPq3", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3"},
		{"password -> /Qx7mB2pzR9vL4kWn8cT1+yH6jPq3=", "Qx7mB2pzR9vL4kWn8cT1+yH6jPq3"},
	}
	for _, tc := range caught {
		out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
		require.NotContains(t, out, tc.secret, "in %q", tc.in)
	}
}
