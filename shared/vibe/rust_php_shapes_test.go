package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of rust-lang/cargo (MIT OR Apache-2.0: its sources, docs, tests'
// snapshots and changelog) and laravel/framework (MIT): a Rust tool and a PHP framework whose
// code a coding stream reads and edits often. The rows of secrets are made up.

func TestRustPHPShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// Rust's types as a parameter's or a field's annotation, a closure, a turbofish
			"    fn r#try(&mut self, token: Token<'a>) -> bool {",
			"        token: Secret<&str>,",
			"        password: *const gchar,",
			"    pub authorization: Option<String>,",
			"pub(crate) fn paserk_public_from_paserk_secret(secret_key: Secret<&str>) -> Option<String> {",
			"    static CARGO_CREDENTIAL_LIBSECRET: std::sync::OnceLock<\n        cargo_credential_libsecret::LibSecretCredential,\n    > = std::sync::OnceLock::new();",
			"        let mut pass = |file| {",
			"        token: args.get_one::<String>(\"token\").cloned().map(Secret::from),",
			"                user: parts.next()?.parse::<u64>().ok()?,",
			// an option's help, providers' names, a changelog's entry
			"        .arg(opt(\"token\", \"API token to use when authenticating\").value_name(\"TOKEN\"))",
			"global-credential-providers = [\"cargo:token\", \"cargo:libsecret\", \"cargo:macos-keychain\", \"cargo:wincred\"]",
			"- cargo-credential-libsecret: load libsecret only once",
			// a placeholder between escaped angle brackets, a known_hosts line
			"    <tspan x=\"10px\" y=\"244px\"><tspan>      </tspan><tspan class=\"fg-bright-cyan bold\">--config</tspan><tspan class=\"fg-cyan\"> </tspan><tspan class=\"fg-cyan\">&lt;KEY=VALUE|PATH&gt;</tspan><tspan>  Override a configuration value</tspan>",
			"        192.168.42.12 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKVYJpa0yUGaNk0NXQTPWa0tHjqRpx+7hl2diReH6DtR eric@host",
			// PHP: a translation's key, interpolation, strings joined to code, classes' names
			"    const PASSWORD_RESET = 'passwords.sent';",
			"        $dsn = \"pgsql:{$host}dbname='{$database}'\";",
			"            'password' => '--password='.$connection['password'],",
			"        return new HtmlString('<input type=\"hidden\" name=\"_token\" value=\"'.csrf_token().'\" autocomplete=\"off\">');",
			"            'auth.password' => [\\Illuminate\\Auth\\Passwords\\PasswordBrokerManager::class, \\Illuminate\\Contracts\\Auth\\PasswordBrokerFactory::class],",
			"            'KeyConditionExpression' => 'application = :application',",
			// a repository's remote
			"remote auth git@github.com:illuminate/auth.git",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"        token: Zx8kq2pLm9Qw4rT7aB3dE5,", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"            'password' => 'Zx8kq2pLm9Qw4rT7',", "Zx8kq2pLm9Qw4rT7"},
			{"        $dsn = \"pgsql:host=db;password=Zx8kq2pLm9Qw4rT7\";", "Zx8kq2pLm9Qw4rT7"},
			{"login admin:Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"https://x.io/a?token=Zx8kq2pLm9Qw4rT7&gt=1", "Zx8kq2pLm9Qw4rT7"},
			{"- deploy-token: Zx8kq2pLm9Qw4rT7aB3dE5", "Zx8kq2pLm9Qw4rT7aB3dE5"},
		})
	})
}
