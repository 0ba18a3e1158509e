package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows are written after lines of Go identity servers and their documentation:
// dexidp/dex (Apache-2.0), oauth2-proxy/oauth2-proxy (MIT), markbates/goth (MIT), ory/hydra
// (Apache-2.0) and authelia/authelia (Apache-2.0) — structured logging, OAuth parameters, Go
// composite literals, flag lookups and message catalogs that a coding stream shows while
// someone works on login code — and of Go client libraries (redis/go-redis, BSD-2-Clause;
// google/go-github, BSD-3-Clause; sashabaranov/go-openai, Apache-2.0) and authentication
// libraries in Python and TypeScript (fastapi/fastapi, MIT; panva/node-oidc-provider, MIT;
// supertokens/supertokens-node, Apache-2.0; jazzband/djangorestframework-simplejwt, MIT) and
// of a coding agent (Aider-AI/aider, Apache-2.0), Rust web and database crates
// (tokio-rs/axum, MIT; Keats/jsonwebtoken, MIT; launchbadge/sqlx, MIT or Apache-2.0) and an AI
// SDK (vercel/ai, Apache-2.0) and a settings library (pydantic/pydantic and
// pydantic/pydantic-settings, MIT) and an OAuth provider for Rails (doorkeeper-gem/doorkeeper,
// MIT). The rows of secrets are made up.

func TestGoAuthShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// a structured log call: a message that ends in a credential's word, then a pair
			"\t\tlogger.Error(\"could not rotate password\", \"err\", err)",
			"\t\th.log.WarnContext(ctx, \"stale credential\", \"user\", userID)",
			// an OAuth parameter and its value; a form's field and the variable it shows
			"\topts = append(opts, oauth2.SetAuthURLParam(\"code_challenge_method\", \"S256\"))",
			"\t\t{Name: \"token\", Label: \"ID token\", Value: idToken},",
			// Go's expressions: a one-element slice of a field, an address, an empty literal
			"\tform := url.Values{\"logout_token\": {s.token}}.Encode()",
			"\tr.oAuth2Token = &oAuth2Token",
			"\t\tupdatedKey := &jwks2.Keys[0]",
			"\tvarIntrospectedOAuth2Token := _IntrospectedOAuth2Token{}",
			// a template's file, a connector's kind, a version's tag, the name's own words
			"\ttmplResetPassword = \"reset-password.html\"",
			"  passwordConnector: ldap",
			"a context value of `app:kdf:storage:encryption_key:v1`.",
			"\tActionResetPassword = \"ResetPassword\"",
			// a format's verb, a flag's name as a variable's, a prefix compared or trimmed
			"\treturn fmt.Errorf(\"refresh token: code:%v msg: %s\", resp.Code, resp.Msg)",
			"  --cookie-secret=COOKIE_SECRET \\",
			"\t\tif password[:4] == \"$2a$\" {",
			"\ttoken := strings.TrimPrefix(raw, \"ory_at_\")",
			// a cookie of placeholders, a dated file's name in a link's definition
			"Cookie: app_session=<session_id>; Path=/; HttpOnly",
			"[tok-exchange]: docs/proposals/token-exchange-2024-05-01-%23rfc8693.md",
			// a flag read by its name, a table's headers, a generated client's method called
			"\t\tclientSecret := flags.MustGetString(cmd, \"client-secret\")",
			"\treturn []string{\"ACCESS TOKEN\", \"REFRESH TOKEN\", \"EXPIRY\"}",
			"    resp, r, err := V0alpha2Api.AdminIntrospectOAuth2Token(ctx).Execute()",
			// a page's element, a mail's subject and what to find in it, a help topic
			"\tpasswordElement := rs.WaitElementLocatedByID(t, page, \"password-textfield\")",
			"\tnode := findEmail(t, \"Reset your password\", \"link\")",
			"\t\tnewHelpTopic(\"hash-password\", \"help topic for hashing passwords\", helpTopicHashPassword),",
			// a message catalog: phrases and words in another language
			"{\n\t\"Sign in\": \"Se connecter\",\n\t\"Go back to sign in\": \"Retour à la connexion\",\n\t\"Reset your password\": \"Réinitialiser le mot\",\n\t\"Password\": \"Sandi\"\n}",
			"\t\"There was an issue resetting the password\": \"Det oppstod et problem under tilbakestilling av passordet\",",
			"\t\"Secret\": \"Gizli\",",
			// a literal the name and a blank fill, closed before the next argument; a heading
			"\t\treturn strings.HasPrefix(s, \"NOAUTH \") || strings.HasPrefix(s, \"WRONGPASS \") || strings.Contains(s, \"unauthenticated\")",
			"#### 4. Username/Password Fields (Lowest Priority)",
			// a key's kind, a package's exported name, placeholders
			"        \"keyDetails\": \"PKIX_ECDSA_P256_SHA_256\",",
			"\t\tModel: openai.GPT3Dot5Turbo,",
			"  secret: FIXME         # Secret key for cryptographic operations (CHANGE THIS!)",
			"\t\tClientSecret: \"your app's client secret\",",
			// a version's bounds after "pin to", a value elided on both sides, routes named for
			// what they serve, a token's payload, OAuth scopes, an instruction in capitals
			"* Allow Starlette 0.38.x, update the pin to `>=0.37.2,<0.39.0`.",
			"        { credential: '...serialized-credential...' },",
			"  credential: '/credential',",
			"    routes: { token: '/token/' },\n    introspection: '/token/introspection',",
			"        tokenPayload.cnf['x5t#S256'] = x5t;",
			"            finalAccessTokenPayload = {\n                ...finalAccessTokenPayload,\n                ...update,\n            };",
			"\t\t\tconst accessToken = await getAccessToken(\"calendar-service\", \"calendar.write\");",
			"\t\tconst calendarAccessToken = await getAccessToken(\"calendar-service\", \"calendar.read calendar.write\");",
			"      // apiKey: \"IF YOU HAVE AN API KEY FOR THE CORE, ADD IT HERE\",",
			// a route's segments, a vendor's name in an identifier, a type parameter, words
			// that say what to put there
			"    \"/<tenantId>/recipe/user/password/reset/token/consume\": {",
			"export let Linkedin = ProviderLinkedin;",
			"export function validateCredentialOrThrowError<T>(credential: T): T {",
			"        SECRET_KEY=\"a random key to use\",",
			// a coding agent's code and docs: a table of a key's variable and the model it
			// picks, a tag made unique by a digest, a flag that takes NAME=KEY, benchmark runs'
			// directories, an INI file written in a string
			"        (\"ANTHROPIC_API_KEY\", \"sonnet\"),",
			"REASONING_TAG = \"thinking-content-\" + \"7bbeb8e1441453ad999a0bbba8a46d4b\"",
			"  - New `--api-key provider=key` setting.",
			"### `--api-key PROVIDER=KEY`",
			"So `--api-key gemini=xxx` would set `GEMINI_API_KEY=xxx`.",
			"- dirname: 2024-08-15-13-18-36--json-no-lint-gpt-4o-2024-08-06-func",
			"- dirname: 2025-05-07-03-15-59--Qwen3-235B-A22B-Q5_K_M-whole-nothink",
			"        empty_creds = '[general]\\nemail = \"\"\\n'",
			// Rust's types where a value goes, a WebSocket handshake's nonce, a JWK's id and
			// thumbprint
			"    token: impl AsRef<[u8]>,",
			"    password: &'s str,",
			"    secret_key: u32,",
			"            .header(\"sec-websocket-key\", \"6D69KGBOr4Re+Nj6zx9aQA==\")",
			"{\"keys\":[{\"kty\":\"RSA\",\"e\":\"AQAB\",\"kid\":\"1Z57d_i7TE6KTY57pKzDy\",\"x5t\":\"1gA-aTE9VglLXZnrqvzwWhHsFdk\"}]}",
			// an AI SDK: a skill's id and model names after a provider's name, stand-ins in
			// tests and docs, a global's name, a Bedrock tool use id
			"  anthropic: 'skill_abc123',",
			"- limit a provider to certain models without a fallback (here: `groq > gemma2-9b-it`, `groq > qwen-qwq-32b`)",
			"      Authorization: 'Bearer token123',",
			"const openai = createOpenAI({ apiKey: 'openai-api-key' });",
			"  apiKey: 'anthropic-api-key',",
			"const AUTH_GLOBAL_KEY = '__mcpAuth';",
			" * Bedrock generates tool call IDs in formats like `tooluse_bpe71yCfRu2b5i-nKGDr5g`,",
			// DSNs with no password or a stand-in, where secrets are read from, a config
			// file's section
			"    pg_dsn: PostgresDsn = 'postgres://user:pass@localhost:5432/foobar'",
			"print(Settings(database_dsn='postgres://postgres@localhost:5432/kwargs_db'))",
			"        self.secrets_paths: list[Path] = [Path(p).expanduser().resolve() for p in paths]",
			"CONFIGFILE_KEY = 'pydantic-mypy'",
			// a table's file and link cells, require paths and routes named for their name, a
			// constant's path, Ruby's modifier after a variable
			"| 7662 | Token Introspection | `lib/doorkeeper/oauth/token_introspection.rb` |",
			"| JWT Token support | [doorkeeper-gem/doorkeeper-jwt](https://github.com/doorkeeper-gem/doorkeeper-jwt) |",
			"            token_info: \"doorkeeper/token_info\",",
			"    autoload :Password, \"doorkeeper/request/password\"",
			"  # access_token_class \"Doorkeeper::AccessToken\"",
			"        auth.credentials = credentials_data if credentials_data",
			// ElevenLabs' premade voices by name, from an agent session's development half
			"        VOICES.update(\n        {\n            \"rachel\": \"21m00Tcm4TlvDq8ikWAM\",\n            \"drew\": \"29vD33N1CtxCmqQRPOHJ\",\n        })",
		)
	})
	t.Run("guards", func(t *testing.T) {
		// What the prompt and blank-line rules above must leave alone: a prompt with no
		// answer yet, a sentence after a prompt, a label and a paragraph after a blank line.
		requireKept(t, san,
			"? Enter a secret value: (hidden)",
			"Enter the token: then press OK.",
			"Admin password:\n\nThe first login asks for a new one.",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"logger.Error(\"login failed\", \"password\", \"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"{Name: \"token\", Value: \"Zx8kq2pLm9Qw4rT7\"}", "Zx8kq2pLm9Qw4rT7"},
			{"\tform := url.Values{\"refresh_token\": {\"Zx8kq2pLm9Qw4rT7\"}}", "Zx8kq2pLm9Qw4rT7"},
			{"\t\tSecret: &Zq8rT2vLm9xKpW4a,", "Zq8rT2vLm9xKpW4a"},
			{"  --cookie-secret=Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"\t\tif password == \"Zx8kq2pLm9Qw\" {", "Zx8kq2pLm9Qw"},
			{"Cookie: app_session=Zx8kq2pLm9Qw4rT7; Path=/", "Zx8kq2pLm9Qw4rT7"},
			{"{\n\t\"Password\": \"Sandi\"\n}", "Sandi"},
			{"{\n\t\"admin password\": \"correct horse battery staple\"\n}", "correct horse battery staple"},
			{"token: code:Zx8kq2pLm9Qw", "Zx8kq2pLm9Qw"},
			{"  db_pass: \"jDd2p,>#meS1IQzP%s\"", "jDd2p,>#meS1IQzP%s"},
			{"\tclientSecret := cfg.GetString(\"x\", \"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"password: vZx8kq2", "vZx8kq2"},
			{"\ttoken = \"app_at_Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"formstack access_token \"7b3e5d8c1a9f4e2b6c8d3a5e9f1b7c4d\"", "7b3e5d8c1a9f4e2b6c8d3a5e9f1b7c4d"},
			{"https://ci.example.com/badge.svg?token=Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			// a badge's token is kept masked: CredData's reviewers label Codecov's as credentials
			{"[![codecov](https://codecov.io/gh/acme/widget/graph/badge.svg?token=tsrCZKuSSw)](https://codecov.io/gh/acme/widget)", "tsrCZKuSSw"},
			// an API client made with its key; a DSN's password filled in by Sprintf; Go's
			// smtp.PlainAuth and hmac.New; a cookie's value; a Terraform variable's default; a
			// token piped to gh auth login
			{"\tclient := openai.NewClient(\"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"let client = Client::new(\"Zx8kq2pLm9Qw4rT7\");", "Zx8kq2pLm9Qw4rT7"},
			{"var api = new PaymentsClient(\"Zx8kq2pLm9Qw4rT7\");", "Zx8kq2pLm9Qw4rT7"},
			{"\tdsn := fmt.Sprintf(\"%s:%s@tcp(db:3306)/app\", \"root\", \"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"\tauth := smtp.PlainAuth(\"\", \"me@example.com\", \"Zx8kq2pLm9Qw4rT7\", \"smtp.example.com\")", "Zx8kq2pLm9Qw4rT7"},
			{"\tmac := hmac.New(sha256.New, []byte(\"Zx8kq2pLm9Qw4rT7\"))", "Zx8kq2pLm9Qw4rT7"},
			{"\tcookie := &http.Cookie{Name: \"session\", Value: \"Zx8kq2pLm9Qw4rT7\"}", "Zx8kq2pLm9Qw4rT7"},
			{"variable \"db_password\" {\n  type    = string\n  default = \"Zx8kq2pLm9Qw4rT7\"\n}", "Zx8kq2pLm9Qw4rT7"},
			{"echo Zx8kq2pLm9Qw4rT7 | gh auth login --with-token", "Zx8kq2pLm9Qw4rT7"},
			{"  secret: FIXMEZx8kq2pLm9", "FIXMEZx8kq2pLm9"},
			// a password a blank line sets apart from its label, a login's pair after "with:",
			// a prompt's answer echoed on its line
			{"Jenkins initial admin password:\n\n3f9c2e7a1b5d4f8e9a0c6b2d7e1f3a5c\n", "3f9c2e7a1b5d4f8e9a0c6b2d7e1f3a5c"},
			{"Login with: admin / Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"wrangler secret put API_KEY\n? Enter a secret value: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			// beside this round's harmless classes: a pin's value, a route that is no echo,
			// a generated scope-like value, a linkedin key, a passphrase of words
			{"change the pin to Zx8kq2pL", "Zx8kq2pL"},
			{"  credential: '/Zx8kq2pLm9Qw4rT7',", "Zx8kq2pLm9Qw4rT7"},
			{"const accessToken = await getAccessToken(\"svc\", \"Zx8kq2pLm9Qw.4rT7aB\");", "Zx8kq2pLm9Qw.4rT7aB"},
			{"linkedin_secret = \"3zxw8sr3aohulzkm\"", "3zxw8sr3aohulzkm"},
			{"SECRET_KEY=\"correct horse battery staple\"", "correct horse battery staple"},
			{"        (\"DB_PASSWORD\", \"hunter\"),", "hunter"},
			{"aider --api-key openai=Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"SESSION_TAG = \"session-\" + \"7bbeb8e1441453ad999a0bbba8a46d4b\"", "7bbeb8e1441453ad999a0bbba8a46d4b"},
			{"api_key = '[general]Zx8kq2pLm9Qw'", "Zx8kq2pLm9Qw"},
			{"    secret_key: u32Zx8kq2pLm9Qw,", "u32Zx8kq2pLm9Qw"},
			{"  groq: 'gsk_Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m',", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m"},
			{"      Authorization: 'Bearer token123Zx8kq2pLm9',", "token123Zx8kq2pLm9"},
			{"  apiKey: 'openai-Zx8kq2pLm9Qw4rT7',", "Zx8kq2pLm9Qw4rT7"},
			{"    pg_dsn: PostgresDsn = 'postgres://user:Zx8kq2pLm9@localhost:5432/foobar'", "Zx8kq2pLm9"},
			{"print(Settings(database_dsn='postgres://Zx8kq2pLm9Qw@localhost:5432/db'))", "Zx8kq2pLm9Qw"},
			{"| API Token | `Zx8kq2pLm9Qw4rT7aB3d` |", "Zx8kq2pLm9Qw4rT7aB3d"},
			{"            token_info: \"Zx8kq2pLm9Qw/token_info\",", "Zx8kq2pLm9Qw"},
			{"        auth.credentials = \"Zx8kq2pLm9Qw4rT7\" if ready", "Zx8kq2pLm9Qw4rT7"},
			{"        \"rachel\": \"21m00Tcm4TlvDq8ikWAZ\",", "21m00Tcm4TlvDq8ikWAZ"},
			{"{\"kid\":\"k1\",\"kty\":\"oct\",\"k\":\"Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m\"}", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m"},
		})
	})
}
