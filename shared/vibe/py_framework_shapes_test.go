package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of Django (BSD-3-Clause), SQLAlchemy and PyMySQL (MIT),
// keystoneauth1, botocore, aiohttp, the AWS CLI and oauth2client (Apache-2.0),
// requests-oauthlib and dnspython (ISC), kombu and BorgBackup (BSD-3-Clause), hvac, python-jose
// and MSAL (MIT or Apache-2.0): Python libraries whose source a coding stream reads and edits often; the
// rows marked as ours are written in the shape of other modules (configuration management,
// LDAP, SSH and GitHub clients, a backup tool, a password store) whose licences we do not quote. The rows of secrets are made up.

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
			// a docstring after an alias, members of self, a class's name listed in __all__
			"V2Password = v2.Password\n\"\"\"See :class:`keystoneauth1.identity.v2.Password`\"\"\"\n\nV2Token = v2.Token\n\"\"\"See :class:`keystoneauth1.identity.v2.Token`\"\"\"",
			"        self.count = self.tokens_taken+len(self.tokens)\n            token_number = self.tokens_taken+len(self.tokens)", // ours
			"V3ADFSPassword = v3.ADFSPassword\n__all__ = ('V3Saml2Password', 'V3ADFSPassword')",
			// a parameter's type cut at its comma, a raw string's pattern, the variable a key is read from
			"    def __init__(\n        self, username: typing.Union[str, bytes], password: typing.Union[str, bytes]\n    ) -> None:",
			"_TOKEN: Final[str] = rf\"[{_TCHAR}]+\"",
			"    ACCESS_KEY = 'aws_access_key_id'",
			// names assigned together or unpacked, a variable named for a password
			"        hostname = userid = password = virtual_host = login_method = None",
			"                *logins, password = auth_from_netrc",
			"            password = passwd",
			// Python's identity test against a sentinel (ours)
			"        assert client_secret is github.GithubObject.NotSet or isinstance(client_secret, str), client_secret",
			// a codec's error handler, SSH's GSS-API key exchange, error codes, reST markup
			"                    new_password = new_password.decode(\"UTF-8\", \"replace\")", // ours
			"    NAME = \"gss-group14-sha1-toWM5Slw5Ew8Mqkay+al2g==\"",                       // ours: RFC 4462's name
			"INVALID_AUTHORIZATION_SPECIFICATION = '28000'\nINVALID_PASSWORD = '28P01'",      // ours: PostgreSQL's SQLSTATE codes
			"    :param passwd: **DEPRECATED** Alias for password.",
			// a list of pairs, a header's name
			"        token = [(\"oauth2_access_token\", session.access_token)]",
			"    _OBJECT_MD5_KEY = 'x-object-meta-x-sdk-md5'", // ours
			// LDAP's names and their references (ours)
			"    ('1.2.3.4', ATTRIBUTE_TYPE, 'secretary', 'RFC4524'),",
			"_sensitive_attrs = ('userpassword', 'unicodepwd')",
			"    RESULT_INVALID_CREDENTIALS: 'invalidCredentials',",
			"        if negotiated_token[1:] != '\\x00\\x00\\x00':",
			// a shell's defaults under a store's settings (ours)
			"umask \"${PASSWORD_STORE_UMASK:-077}\"\nX_SELECTION=\"${PASSWORD_STORE_X_SELECTION:-clipboard}\"",
			"                cmd = [PASS_PROG, 'insert', '--multiline']", // ours
			// signing names, option and property names
			"S3_SIGNING_NAMES = ('s3', 's3-outposts', 's3-object-lambda')",
			"EMRFS_BA_ARG_KEY = '-e'",
			"EMRFS_SSE_KEY = 'fs.s3.enableServerSideEncryption'",
			"            dest_params=instances, dest_key='Ec2KeyName')",
			// a template filled in, names assigned together, an expression, an ACL's entry
			"        auth_string = u'%s:%s' % (self.username, self.password)", // ours
			"grp = pwd = cached_ops", // ours
			"            corrupted_key = (int.from_bytes(H(0), 'little') ^ 1).to_bytes(32, 'little')",
			"user::rw-\ngroup::r--\nmask::rw-\nother::---\nuser:root:rw-:0\ngroup:root:rw-:0\n",
			// base32's alphabets, a descriptor's number, format fields, a tuple of constants
			"    b\"0123456789ABCDEFGHIJKLMNOPQRSTUV\", b\"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567\"",
			"            cmd.extend(['--passphrase-fd', '0'])", // ours
			"            \"{0} Credential={1}/{2}, SignedHeaders={3}, Signature={4}\".format(",
			"    KEY_128 = (ALGORITHMS.A128GCM, ALGORITHMS.A128GCMKW, ALGORITHMS.A128KW, ALGORITHMS.A128CBC)",
			// a variable stored under a quoted subscript, OAuth's token use, Google's published
			// P12 password, a duration
			"    pkcs8_key[\"privateKey\"] = pkcs1_key",
			"                requested_token_use=\"on_behalf_of\",",
			"    def from_string(key, password=b'notasecret'):",
			"        token_period=0,",
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
			{"TOKEN = rb\"Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"ACCESS_KEY = 'AKIAZX8KQ2PLM9QW4RT7'", "AKIAZX8KQ2PLM9QW4RT7"},
			{"creds = ('password', 'Zx8kq2pLm9Qw4rT7')", "Zx8kq2pLm9Qw4rT7"},
			{"the password is Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"For staging the signing_key is ga1nMHhMZaIyVpbWhqKf until we rotate it.", "ga1nMHhMZaIyVpbWhqKf"},
			{"  api_key: \"QdsRippLnlFaGdyLEBnd\"", "QdsRippLnlFaGdyLEBnd"},
			{"Atlassian_key = \"DjayBenyJrtpvydFCzAphcqc\"", "DjayBenyJrtpvydFCzAphcqc"},
			{"        auth_string = u'Zx8kq2pLm9Qw4rT7'", "Zx8kq2pLm9Qw4rT7"},
			{"    pkcs8_key[\"privateKey\"] = \"Zx8kq2pLm9Qw4rT7aB3dE5\"", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"    def from_string(key, password=b'Zx8kq2pLm9Qw4rT7'):", "Zx8kq2pLm9Qw4rT7"},
			{"        token_period=Zx8kq2pLm9Qw4rT7,", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
