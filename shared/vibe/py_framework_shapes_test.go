package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The first kept rows quote lines of Django (BSD-3-Clause), a web framework whose source a
// coding stream reads and edits often; the rows after them are our own, written in the
// shape of configuration-management modules and their documentation. The rows of secrets
// are made up.

func TestPyFrameworkShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// private names a session keeps values under
			"SESSION_KEY = '_auth_user_id'",
			"INTERNAL_RESET_SESSION_TOKEN = '_password_reset_token'",
			// a prompt, a statement's template, markers tested for
			"                    password2 = getpass.getpass('Password (again): ')",
			"            set_password = 'ALTER USER %(user)s IDENTIFIED BY \"%(password)s\"'",
			"            if csrf_token == 'NOTPROVIDED':",
			"    if token.contents != 'endif':",
			// names listed beside a password's, a variable stored under a constant
			"        @sensitive_variables('user', 'password', 'credit_card')\n        def my_function(user):\n            pw = user.pass_word\n            cc = user.credit_card_number",
			"                request.session[LANGUAGE_SESSION_KEY] = lang_code",
			// prose about an option
			"            # `ps` on old Unix flavors but --password suffers from the same",
			"# how --ask-vault-pass / --vault-password-file pick the vault id",
			"Reads from the terminal unless -u or -p is given.",
			// file descriptors and switches passed on
			"        proc = subprocess.Popen(\n            cmd,\n            pass_fds=(status_fd,),\n        )",
			"PASS_BOOLS = ('check_mode', 'debug', 'diff')",
			// a tuple unpacked, a command's template, a list's choices, an attribute's name
			"        user, _, password = credentials",
			"        argv += ['-passwd', '/Groups/%s' % login]",
			"    rotate_password=dict(type='str', default='never', choices=['never', 'on_change']),",
			"        self._sudo_pass = getattr(ctx, 'sudo_pass') or ''",
			// a path built in a template, a placeholder's template
			"    password: \"{{ lookup('password', 'secrets/' + env + '/db', length=20) }}\"",
			"        self._omit_token = data.get('omit_token', '__omit_marker__%s' % sha1(os.urandom(16)).hexdigest())",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"SESSION_KEY = 'Zx8kq2pLm9Qw4rT7'", "Zx8kq2pLm9Qw4rT7"},
			{"if password == 'zxkqplmqwr':", "zxkqplmqwr"},
			{"    if token.value == 'Zx8kq2pLm9Qw4rT7':", "Zx8kq2pLm9Qw4rT7"},
			{"creds = [('user', 'admin'), ('password', 'Zx8kq2pLm9Qw4rT7')]", "Zx8kq2pLm9Qw4rT7"},
			{"password2 = getpass.getpass('Zx8kq2pLm9Qw4rT7')", "Zx8kq2pLm9Qw4rT7"},
			{"mysql -u root --password Zx8kq2pLm9 is the login", "Zx8kq2pLm9"},
			{"password = sunshine", "sunshine"},
			{"token = os.environ.get('TOKEN', 'Zx8kq2pLm9Qw4rT7')", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
