package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPuTTYPrivateKey: a PuTTY key file's private lines and MAC are masked wherever they are
// printed; its header, comment and public lines are kept, and so is a line that only names
// the field.
func TestPuTTYPrivateKey(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	priv := []string{
		"AAABAQCq7vKp2mXc9RzT4LwBn8sYf3aQe6hJd1oGu5tVi0rNkWxZ2bMyH7lPcEqA",
		"Fz3oTn9WbLk1sRgD5uYp8cVh2eMj6aQx4iN0tKwGr7yBdUl3vOfPZ9mHqCzJ1X",
		"hW5sQ8kRm2Tn",
	}
	mac := "3f9a1c0b7e2d4a6f8091b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f607"
	file := "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n" +
		"AAAAC3NzaC1lZDI1NTE5AAAAIBx7kPq2vLm9xKpW4aZq8rT2vLm9xKpW4aZq8rT2\nvLm9xK\n" +
		"Private-Lines: 3\n" + strings.Join(priv, "\n") + "\nPrivate-MAC: " + mac + "\n"
	for _, in := range []string{file, strings.ReplaceAll(file, "\n", "\r\n"), "$ cat ~/.ssh/deploy.ppk\n" + file} {
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		for _, s := range append(priv, mac) {
			require.NotContains(t, out, s[:12], "in %q", in)
		}
		require.Contains(t, out, "PuTTY-User-Key-File-3: ssh-ed25519")
		require.Contains(t, out, "Comment: deploy@ci")
		require.Contains(t, out, "[redacted:private-key")
	}
	for _, in := range []string{
		"The Private-Lines: header counts the base64 lines that follow it.",
		"Private-Lines: 14 lines follow, then Private-MAC.",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}
