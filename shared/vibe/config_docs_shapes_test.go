package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows are written after lines of projects a coding stream shows while someone sets
// up a service: an authentication server and its docs (supabase/auth, MIT), a coding agent
// for editors (continuedev/continue, Apache-2.0), Compose samples (docker/awesome-compose,
// CC0-1.0), framework documentation (laravel/docs, MIT; nestjs/docs.nestjs.com, MIT), a
// reverse proxy's documentation (traefik/traefik, MIT) and an SDK with its test matrix
// (getsentry/sentry-python, MIT). The rows of secrets are made up.

func TestConfigDocsShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// a sentence closed by markup; a context key spelled as its constant's name
			"const changedMail = `<h2>Your password was changed</h2>`",
			"<p>The token was revoked</p>",
			"Your password was reset<br>",
			"\tAPIKeyAuthScopes = \"APIKeyAuth.Scopes\"",
			// a CI expression escaped inside a template literal
			"    apiKey: \\${{ secrets.OPENAI_API_KEY }}",
			"    vars[secret] = `\\${{ secrets.${slug} }}`;",
			// an alias's model, a template's marker, TypeScript types where values go
			"    \"deepseek-v2\": \"DeepSeek-V2-0628\",",
			"    const holeToken = \"|HOLE|\";",
			"  getSecrets: [{ names: string[] }, Record<string, string>];",
			"export const CORE_PASS_THROUGH: (keyof FromWebviewProtocol)[] = [",
			// slots named for what goes there; a sentence after a heading's colon; a scope
			"      apiKey: API_KEY/IAM_KEY/USERNAME:PASSWORD",
			"**About NPM_TOKEN**: The workflow uses the NPM_TOKEN in two ways:",
			"              \"secrets:read\",",
			// a generated client's security scheme, in its README and in its code
			"# Configure Bearer authorization: bearerAuth",
			"      const tokenString = await token(\"apiKeyAuth\", []);",
			// an invitation to a Slack workspace; a grammar's alternation of builtins
			"Join us on [Slack](https://join.slack.com/t/acme-dev/shared_invite/zt-2ab3cd4ef-Q9xYz8WvU7tS6rQ5pO4nMw)",
			"'match': '\\\\b(?:alias|bg|bind|cd|pwd|read(array)?|readonly|return)\\\\b'",
			// Laravel's validation rules for a password field
			"            'password' => 'required|string|min:8|confirmed',",
			"            'current_password' => 'current_password:web',",
			"    validate: ['password' => 'min:12'],",
			// a connection string's default without credentials; a key derivation's salt
			"        'dsn' => env('REDIS_URL', 'redis://127.0.0.1:6379'),",
			"const derived = (await promisify(scrypt)(password, 'salt', 32)) as Buffer;",
			// a pagination cursor: base64 of a small JSON object
			"GET /api/posts?cursor=eyJpZCI6NDIsIl9wb2ludHNUb05leHRJdGVtcyI6dHJ1ZX0",
			// stand-ins of a name's word and "value"
			"            'secret' => $this->when($user->isAdmin(), 'secret-value'),",
			"        client_secret: \"client_value\"",
			// a documentation site's navigation; an error's chain; a Kubernetes Secret's name
			"    - 'PassTLSClientCert': 'reference/routing/http/middlewares/passtlsclientcert.md'",
			"acme: error presenting token: route53: unexpected response",
			"    - secret: tls-secret",
			// tox's dependency pins under an environment named for tiktoken
			"    py3.11-openai-notiktoken-v1.40.0: httpx==0.27.2",
			// a scanner's finding and its severity; a pattern of file names
			"    (r\"-----BEGIN PRIVATE KEY-----\", \"Private Key\", \"critical\"),",
			"    (r\"open\\s*\\(.*(\\.env|credentials|\\.netrc|\\.pgpass)\", \"Sensitive file\", \"high\"),",
			// a commit's diff anchor; a format string's field in a query
			"# https://github.com/acme/widget/commit/5f58621f8b7c7ba257c9837333b09b391f868456#diff-50c86b7ed8ac2cf95bd48334961bf0530cdc77b5a56f852c5c61b89d735fd711",
			"requests.get(f\"https://api.example.com/v1?key={os.environ['API_KEY']}\")",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"<h2>Your password was Xk4mR9qLw2</h2>", "Xk4mR9qLw2"},
			{"\tAPIKeyAuthScopes = \"Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"apiKey: \\Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"    \"deepseek-v3\": \"DeepSeek-V3-Zx8kq2pLm9Qw4rT7\",", "Zx8kq2pLm9Qw4rT7"},
			{"    const holeToken = \"|Zx8kq2pLm9|\";", "Zx8kq2pLm9"},
			{"      apiKey: API_KEY/Zx8kq2pLm9Qw", "Zx8kq2pLm9Qw"},
			{"**Setting NPM_TOKEN**: Zx8kq2pLm9Qw4rT7 is the token.", "Zx8kq2pLm9Qw4rT7"},
			{"Authorization: Bearer zxkqpLmwqAuth", "zxkqpLmwqAuth"},
			{"      const tokenString = await token(\"Zx8kq2pLm9Auth\", []);", "Zx8kq2pLm9Auth"},
			{"https://example.com/shared_invite/zt-2ab3cd4ef-Q9xYz8WvU7tS6rQ5pO4nMw", "Q9xYz8WvU7tS6rQ5pO4nMw"},
			{"| pwd | Zx8kq2pLm9Qw |", "Zx8kq2pLm9Qw"},
			{"            'password' => 'required|Zx8kq2pLm9',", "Zx8kq2pLm9"},
			{"        'dsn' => env('REDIS_URL', 'redis://:Zx8kq2pLm9@127.0.0.1:6379'),", "Zx8kq2pLm9"},
			{"const derived = (await promisify(scrypt)(password, 'Zx8kq2pLm9Qw4rT7', 32)) as Buffer;", "Zx8kq2pLm9Qw4rT7"},
			// base64 of {"password":"Xy7pass99zK"} and of a registry's auth object
			{"page=eyJwYXNzd29yZCI6Ilh5N3Bhc3M5OXpLIn0", "eyJwYXNzd29yZCI6Ilh5N3Bhc3M5OXpLIn0"},
			{"echo eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJkWE5sY2pwbmFIQmZNVEl6TkRVMk56ZzVNR0ZpWTJSbFpnPT0ifX19 | base64 -d", "eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJkWE5sY2pwbmFIQmZNVEl6TkRVMk56ZzVNR0ZpWTJSbFpnPT0ifX19"},
			{"            'token' => $this->when($user->isAdmin(), 'token-Zx8kq2pLm9'),", "Zx8kq2pLm9"},
			{"    - 'Token': 'Zx8kq2pLm9Qw4rT7'", "Zx8kq2pLm9Qw4rT7"},
			{"token: Zx8kq2pLm9Qw4rT7: unexpected response", "Zx8kq2pLm9Qw4rT7"},
			{"    - secret: Zx8kq2pLm9-secret", "Zx8kq2pLm9"},
			{"    (r\"AKIA[0-9A-Z]{16}\", \"AWS Key\", \"Zx8kq2pLm9Qw4rT7\"),", "Zx8kq2pLm9Qw4rT7"},
			{"SECRET=diff-7470b3a5c5cbe2fcbb2703dc24f326f45a5819d853be2b1f395d122d278cd911", "7470b3a5c5cbe2fcbb2703dc24f326f45a5819d853be2b1f395d122d278cd911"},
			{"requests.get(\"https://api.example.com/v1?key=Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
