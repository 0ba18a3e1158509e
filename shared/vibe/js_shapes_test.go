package vibe

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEchoedName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"const PENDING_REDIRECT_KEY = 'pendingRedirect';",
			"    CREDENTIAL_ALREADY_IN_USE: 'auth/credential-already-in-use',",
			"export const METRIC_GEN_AI_SERVER_TIME_TO_FIRST_TOKEN = 'gen_ai.server.time_to_first_token';",
			"const API_TOKEN_HEADER = 'x-api-token';",
			`static SESSION_TOKEN_NAME = "session-token";`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`const API_KEY = "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u";`, "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"},
			{`const DB_PASSWORD = 'hunter2xyz';`, "hunter2xyz"},
			{`const SECRET_TOKEN = 'correcthorsebatterystaple';`, "correcthorsebatterystaple"},
			{`  password: 'hunter2xyz',`, "hunter2xyz"},
			{`  Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',`, "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		})
	})
	t.Run("shape", func(t *testing.T) {
		require.False(t, echoedName("PENDING_REDIRECT_KEY", "'pendingRedirect'"), "a plain echo of a key's name is left to lookupKeyName")
		require.True(t, echoedName("CREDENTIAL_ALREADY_IN_USE", "'auth/credential-already-in-use'"))
		require.False(t, echoedName("API_KEY", "'api-key-2024'"), "a digit leaves the value to the other rules")
		require.False(t, echoedName("SLACK_API_TOKEN", "'slack-api-token'"), "a plain echo of a credential's own name may be its value")
		require.True(t, echoedName("METRIC_TIME_TO_FIRST_TOKEN", "'gen_ai.server.time_to_first_token'"), "a namespaced code")
		require.False(t, echoedName("DB_PASSWORD", "'db_password'"), "a password named after itself is still the password")
		require.False(t, echoedName("MYSQL_ROOT_PASSWORD", "mysql-root-password"), "a password named after itself is still the password")
		require.False(t, echoedName("apiTokenKey", "'api-token'"), "only upper-case constants")
		require.False(t, echoedName("AUTH_TOKEN", "'token-for-prod-mainframe-access'"), "more words of its own than shared")
	})
}

func TestLookupKeyName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"const PERSISTENCE_KEY = 'persistence';",
		"const REFERENCES_KEY = '_references';",
		`export const SORT_ORDER_KEY = "sortOrder";`,
	)
	requireMasked(t, san, []maskedRow{
		{`const STRIPE_KEY = "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u";`, "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"},
		{`const API_KEY = 'persistence';`, "persistence"},
		{`const ADMIN_KEY = 'dragonfly';`, "dragonfly"},
		{`const PERSISTENCE_KEY = 'xq7ZkP2mWv9sT4rL';`, "xq7ZkP2mWv9sT4rL"},
		{`const REFERENCES_KEY = 'zqxvkwpjyfhgtrmn';`, "zqxvkwpjyfhgtrmn"},
	})
}

func TestBase64Prose(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	src := base64.StdEncoding.EncodeToString([]byte("function compile(program, options) {\n  var environment = new Compiler();\n  return environment.compile(program, options);\n}\n"))
	requireKept(t, san,
		"//# sourceMappingURL=data:application/json;base64,"+src,
		src[5:], // a line of it cut anywhere
	)
	key := base64.StdEncoding.EncodeToString([]byte("\x8f\x13\xa7\x01\xfe\x9c\x42\x77\x0b\xd3\x61\xe5\x2a\x9f\x30\xc8\x55\x1e\xb4\x7d\x06\xea\x93\x28\x4f\xc1\x6b\xd0\x3e\x87\x19\xf2\xa5\x5c\x0d\xb8\x74\x2e\x91\xcf\x43\x0a\xe7\x68\x1b\xd6\x39\x84"))
	requireMasked(t, san, []maskedRow{
		{"const secret = '" + key + "';", key[8:40]},
		{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("deploy-bot:Xk9#mQ2vLp7wRt4zNc8s")), base64.StdEncoding.EncodeToString([]byte("deploy-bot:Xk9#mQ2vLp7wRt4zNc8s"))[:16]},
		{"  password: 'hunter2xyz',", "hunter2xyz"},
	})
	require.False(t, base64Prose(base64.StdEncoding.EncodeToString([]byte("user:correct-horse-battery-staple-and-more-words-here-xyz"))), "one unbroken word")
}

func TestLexerTokenWord(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		`                token: "comment",`,
		`    this.$rules = { start: [{ token: 'keyword.control.assembly', regex: "(?:mov|add)" }] };`,
		`            token : ["entity.name.function", "text", "keyword.operator", "text", "storage.type"],`,
		`{token:"paren.lparen",regex:"[[({]"},{token:"text.tag-whitespace.xml",regex:"[ ]+"}`,
		`      [/\[/, { token: "@brackets", next: "@nestedCall" }],`,
		`  "@keywords": { token: "keyword.$0" },`,
		`      if (token === "option") {`,
		`      if (token === 'halfAMinute') {`,
		`          return token("num", valid);`,
		`    defaultToken: "invalid",`,
		`    tokenPostfix: ".js",`,
	)
	requireMasked(t, san, []maskedRow{
		{`if (token === 'ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i') {`, "ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i"},
		{`if (token === 'xK9mQ2vLp7wRt4zNc8sB') {`, "xK9mQ2vLp7wRt4zNc8sB"},
		{`    token: "xK9mQ2vLp7wRt4zNc8sB",`, "xK9mQ2vLp7wRt4zNc8sB"},
		{`    token: "correcthorsebatterystaple",`, "correcthorsebatterystaple"},
		{`const accessToken = "comment";`, "comment"},
		{`TOKEN=keyword.control`, "keyword.control"},
		{`  token: 'abcdefghijklmnopqrstuvtt',`, "abcdefghijklmnopqrstuvtt"},
	})
	require.False(t, lexerTokenWord("apiToken", "'keyword'"), "a name for an issued token")
	require.False(t, lexerTokenWord("token", "'comment1x9'"), "a digit outside a scope")
}

func TestMinifiedCode(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"exports.Token = void 0;",
		"exports.AzureKeyCredential = void 0;",
		"opd:!1,pushd:!1,pwd:!1,x:1",
		"e.space_before_token=!0,",
		"var tokenValue=formatDistanceLocale$11[token];",
		"report(0);let{tokenStart:l}=t;",
		`this.tokenEnd=this.firstCharOffset}setSource(t=""){`,
		"ken.cancel():this._token=Dt.Cancelled}dispose(e=!1){e",
		"arkerTag:En,Uri:le,Token:Ja}}var x",
	)
	requireMasked(t, san, []maskedRow{
		{"creds: {password: hunter2xyz}", "hunter2xyz"},
		{"{token: xK9mQ2vLp7wRt4zNc8sB}", "xK9mQ2vLp7wRt4zNc8sB"},
		{"export TOKEN=void", "void"},
		{"API_TOKEN=Xk9mQ2vLp7wRt4zNc8s$1", "Xk9mQ2vLp7wRt4zNc8s"},
		{`password = "!1"`, "!1"},
	})
}
