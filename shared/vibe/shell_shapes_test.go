package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestZshCompletionSpecs(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"  '--ftp-pass[specify FTP password]:password' \\\n  '--ftp-port[specify FTP port]:port [21]:_ports' \\",
			"  '--dropbox-client-id[specify Dropbox app client ID]:client ID' \\\n  '--dropbox-client-secret[specify Dropbox app client secret]:secret' \\\n  '--dropbox-impersonate[impersonate specified user]:user' \\",
			"    '-password[specify password]:password'\n    '-attach[attach to running VM]:address'",
			"  '-s+[specify secret key file]:secret key:_files' \\\n  '-x+[specify signature file]:signature file:_files' \\",
			"  '(-w --password)'{-w,--password=}'[password]:password' \\",
			"      '(-D -U -L -p --password)'{-p+,--password=}'[specify encrypted password]:encrypted password'",
			"  -{,-}'password=:password:' \\\n  '--arguments=:ghostscript arguments:' \\",
			`      _arguments -C "1:password" "*::arg:->args"`,
			"          _message -e passwords 'proxy password' &&",
			"      _wanted users expl 'login name' _combination -s '[:@]' my-accounts users-hosts users -S '' && ret=0",
			"    imap.pass:'password git imap-send should use when logging in:password:->string'",
			"  '(-ap --auth-password)'{-ap,--auth-password=}'[provide the password to be used for authentication]::password' \\",
			"#'-fdisable--pass=-[disables an optimization pass]:range1+range2: '",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`mysql --password='S3cr3t!pw' -u root`, "S3cr3t!pw"},
			{`mysql '--password=S3cr3t!pw' -u root`, "S3cr3t!pw"},
			{`curl -u 'admin:S3cr3tpw' https://example.com/api`, "S3cr3tpw"},
			{`rclone config create ftp1 ftp --ftp-pass 'Xk9#mQ2vLp7w'`, "Xk9#mQ2vLp7w"},
			{`imap.pass:'Xk9#mQ2vLp7w'`, "Xk9#mQ2vLp7w"},
			{`git config --global sendemail.smtppass 'Xk9mQ2vLp7wR'`, "Xk9mQ2vLp7wR"},
			{`export GITHUB_TOKEN=ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT`, "ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT"},
			{`  '--token=ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT' \`, "ghp_aBcD1234eFgH5678iJkL9012mNoP3456qRsT"},
			{`PASSWORD='hunter2!x9'`, "hunter2!x9"},
		})
	})
	t.Run("shape", func(t *testing.T) {
		require.True(t, zshSpec("-p+[specify password]:password:", 0, 0))
		require.True(t, zshSpec("1:password", 0, 0))
		require.True(t, zshSpec("*::arg:->args", 0, 0))
		require.False(t, zshSpec("--password=S3cr3t!pw", 0, 0), "a flag with its value opens no description")
		require.False(t, zshSpec("1:S3cr3tpw", 0, 0), "a message is words")
		require.False(t, zshSpec("admin:S3cr3tpw", 0, 0))
	})
}
