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
// (getsentry/sentry-python, MIT), and of an Ansible role, Terraform modules, Firebase's
// and Stripe's samples and Kubernetes' examples (geerlingguy/ansible-role-mysql, MIT;
// terraform-aws-modules/terraform-aws-rds, Apache-2.0; firebase/quickstart-js, Apache-2.0;
// stripe/stripe-node, MIT; kubernetes/examples, Apache-2.0) and a file-sync tool's
// documentation (rclone/rclone, MIT), AWS CLI's examples (aws/aws-cli, Apache-2.0) and an
// ACME client (certbot/certbot, Apache-2.0), an agent framework (crewAIInc/crewAI, MIT) and a
// coding agent's plugins and docs (anthropics/claude-code) and a hosting platform's docs
// (superfly/docs, Apache-2.0). The rows of secrets are made up.

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
			// a test matrix's environment named for OpenAI's tokenizer
			"    langchain-notiktoken: pytest-asyncio",
			// a document's table of the secrets a workflow reads, by name
			"| Secret | Purpose | Used in |\n| --- | --- | --- |\n| `VSCE_TOKEN` | Personal access token for publishing | `main.yaml` |\n",
			// stand-ins: a word for an unused key, words that end in the key's word
			"      apiKey: \"unused\",",
			"    apiKey: dud",
			"GATEWAY_OPERATOR_TOKEN=\"unused-operator-token\"",
			"          Authorization: \"Bearer model-token\",",
			"    apiKey: test-api-key-1",
			// a digest under its name in object storage's metadata
			"  \"md5Hash\": \"zJIFhUtfl2N1h6ljA8l3pg==\",",
			// a link copied from a Google console; a TypeScript playground's link
			"the [console](https://console.firebase.google.com/project/_/ailogic?_gl=1*dps5w8*_ga*NDk4MDUyODg4LjE3NDc4NTIwMDA.*_ga_CW55HF8NVT*czE3NDc5MzE2NzQkbzIkZzEkdDE3NDc5MzE3MjEkajEzJGwwJGgwJGRjVEhnTE1XMmtOQURjUXFPa18zZlRTU2JIblVC) first",
			"    // https://www.typescriptlang.org/play/index.html#code/JYOwLgpgTgZghgYwgAgGIHt3IN4ChnJwBcyAzmFKAOYDc+yADpQgNYA2AnieZSLfXABGiFtwrVkAH2QgArmzZSZsgLaDodAmA4MIJAOQxM",
			// a type where an interface names a member's value
			"      request_extended_authorization: boolean | null;",
			// names built around a UUID: a provisioned volume, a kubelet's container
			"    Volume:     kubernetes-dynamic-pvc-bdb97c58-694a-11e6-91b6-080027242396",
			"Up 6 minutes   k8s_iscsipd-rw.ed58ec4e_iscsipd_default_f527ca5b-6d87-11e5-aa7e-080027ff6387_d25592c5",
			// a voice listing's lines a diff adds, one of ElevenLabs' premade voices among them
			"@@ -1,2 +1,3 @@\n+XrExE9yKIg1WjnnlVkGX  Matilda - Knowledgable, Professional\n+pNInz6obpgDQGcFmaJgB  Adam - Dominant, Firm\n",
			// a value a tool shows obscured; a flag naming an htpasswd file; flags named in prose
			"- pass: *** ENCRYPTED ***",
			"Use `--htpasswd /path/to/htpasswd` to provide an htpasswd file.",
			"### --rc-htpasswd=PATH",
			"You can set a single username and password with the --user and --pass flags.",
			"Pass `--ask-password=false` to make it fail instead of asking.",
			// a remote's Windows path; an empty value, then the next member; an advisory's id
			"e.g. `rclone copy notes secret:\\docs`,",
			"token = {\"access_token\":\"{access_token}\",\"token_type\":\"Bearer\",\"refresh_token\":\"\",\"expiry\":\"2045-12-31T23:59:59Z\"}",
			"    - Fix redirect credential leaks and strip secrets GHSA-8mxv-9xhp-86h4",
			// options handed to a command; an OAuth error code in an error's chain
			"password-protected files. Also, pass '-o delete-src-file' to delete",
			"couldn't fetch token: invalid_grant: maybe token expired?",
			// an English word where a service's key or token goes; a letter typed over; what
			// to do with a secret, in words
			"ALGOLIA_API_KEY=short",
			"export CIRCLE_TOKEN=orange",
			"ZONEEE_API_USER=xxxxx \\\nZONEEE_API_KEY=yyyyy \\",
			"\tsecret := \"something you have to change\"",
			// AWS's resource names, a key's spec, a token's lifetime, a sample marked EXAMPLE
			"                    \"PreTokenGeneration\": \"arn:aws:lambda:us-east-1:123456789012:function:MyFunction\",",
			"        --resource-arn arn:aws:cognito-idp:us-west-2:767671399759:userpool/us-west-2_l5cxwdm2K \\",
			"  aws cognito-idp forget-device --device-key us-west-2_abcd_1234-5678",
			"        \"SubjectFromWebIdentityToken\": \"amzn1.account.AF6RHO7KZU5XRVQJGXK6HB56KR2A\",",
			"            \"CustomerMasterKeySpec\": \"RSA_4096\",",
			"        --refresh-token-validity 10 \\",
			"        --token-validity-units AccessToken=minutes,IdToken=minutes,RefreshToken=days \\",
			"            \"DbiResourceId\": \"db-BIQTE3B3K3RM7M74SK5EXAMPLE\",",
			"        \"versionRevision\": \"Ciqe5/9yicvkJT13b5/LdLpCyE6fqA7poa9qp+FilPs=\"",
			// an ACME challenge's path in a web server's log; a list built by calls
			"66.133.109.36 - - [05/Jan/2016:20:11:24 -0500] \"GET /.well-known/acme-challenge/HGr8U1IeTW4kY_Z6UIyaakzOkyQgPr_7ArlLgtZE8SX HTTP/1.1\" 200 87",
			"        youshallpass = [augeasparser.AugeasBlockNode(name=assertions.PASS,",
			// a format string's fields; a docstring's argument described with a compound
			"        credentials = f\"{self.username}:{self.password}\"",
			"    jws_token = f\"{signature.protected}.{payload_b64}.{signature.signature}\"",
			"        private_key: PEM-encoded private key (RSA, EC, or RSA-PSS).",
			// a command continued on the next line, no output; what a variable is for
			"aws ecr get-login-password --region us-east-1 \\\n  | docker login --username AWS --password-stdin <account-id>.dkr.ecr.us-east-1.amazonaws.com",
			"- ANTHROPIC_API_KEY: Required for LLM-based reviews",
			"- ANTHROPIC_AUTH_TOKEN: Alternative to API key — OAuth access token sent as Bearer auth.",
			// a secret's name a flag mounts; a deployment's ULID in an image's tag; how a value
			// is encoded; a token's prefix, the rest left out; CI expressions handed on
			"npx dockerfile --mount-secret=DATABASE_URL",
			"fly deploy --build-secret DATABASE_URL=value",
			"  Image         = testrun:deployment-01GQR4GN7EA8G12VE1DBRQG4KQ  ",
			"Secrets must be base64\u2011encoded. ",
			"$ fly secrets set -a my-autoscaler --stage FAS_API_TOKEN=\"FlyV1 ...\"",
			"          secrets: FOOBAR=${{ secrets.FOOBAR }} SOME_API_KEY=${{ secrets.SOME_API_KEY}}",
		)
	})
	t.Run("repeats", func(t *testing.T) {
		// A short secret spelled like a name is masked again where it stands alone, not
		// inside a longer name or an anchor (argo-cd's notifications docs).
		in := "To annotate, create an [API Key](https://grafana.com/docs/http_api/auth/#create-api-key).\n" +
			"apiVersion: v1\nkind: Secret\nmetadata:\n  name: argocd-notifications-secret\nstringData:\n  grafana-api-key: api-key\n" +
			"---\nservice.grafana: |\n  apiKey: $grafana-api-key\n  note: api-key\n"
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		require.Contains(t, out, "#create-api-key)")
		require.Contains(t, out, "  grafana-api-key: [redacted")
		require.Contains(t, out, "apiKey: $grafana-api-key")
		require.Contains(t, out, "note: [redacted")
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
			{"    langchain-token: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"| Secret | Purpose |\n| --- | --- |\n| `Zx8kq2pLm9Qw4rT7` | publishing |\n", "Zx8kq2pLm9Qw4rT7"},
			{"      apiKey: \"unused-Zx8kq2pLm9\",", "Zx8kq2pLm9"},
			{"          Authorization: \"Bearer model-Zx8kq2pLm9-token\",", "Zx8kq2pLm9"},
			// a password of words is one, whatever its words
			{"    mysql_root_password: super-secure-password", "super-secure-password"},
			// an alphabet's run stays masked: a scanner's example labels one as a key
			{"API_TOKEN = \"abcdefghijklmnopqrst\"", "abcdefghijklmnopqrst"},
			{"  \"authKey\": \"zJIFhUtfl2N1h6ljA8l3pg==\",", "zJIFhUtfl2N1h6ljA8l3pg=="},
			{"see https://example.com/?q=1*czE3NDc5MzE2NzQkbzIkZzEkdDE3NDc5MzE3MjEkajEzJGwwJGgwJGRjVEhnTE1XMmtOQURjUXFPa18zZlRTU2JIblVC", "czE3NDc5MzE2NzQkbzIkZzEkdDE3NDc5MzE3MjEkajEzJGwwJGgwJGRjVEhnTE1XMmtOQURjUXFPa18zZlRTU2JIblVC"},
			{"token: Zx8kq2pLm9Qw4rT7aB3d-bdb97c58-694a-11e6-91b6-080027242396", "Zx8kq2pLm9Qw4rT7aB3d"},
			{"x Zx8kq2pLm9Qw4rT7aB3dE5fG-bdb97c58-694a-11e6-91b6-080027242396", "Zx8kq2pLm9Qw4rT7aB3dE5fG"},
			{"+Zq8rT2vLm9xKpW4aB3dE\n", "Zq8rT2vLm9xKpW4aB3dE"},
			{"- pass: *** Zx8kq2pLm9 ***", "Zx8kq2pLm9"},
			{"run it with --pass Zx8kq2pLm9Qw.", "Zx8kq2pLm9Qw"},
			{"`--ask-password=Zx8kq2pLm9Qw` to rclone", "Zx8kq2pLm9Qw"},
			{"secret:\\Zx8kq2pLm9Qw", "Zx8kq2pLm9Qw"},
			{"token = {\"refresh_token\":\"Zx8kq2pLm9Qw4rT7\",\"expiry\":\"2045-12-31T23:59:59Z\"}", "Zx8kq2pLm9Qw4rT7"},
			{"strip secrets GHSA-Zx8k-q2pL-m9Qw", "GHSA-Zx8k-q2pL-m9Qw"},
			{"pass '-oZx8kq2pLm9Qw' to it", "Zx8kq2pLm9Qw"},
			{"couldn't fetch token: Zx8k_q2pL9: maybe", "Zx8k_q2pL9"},
			{"launchdarkly-private-abcdef12-3456-4d78-abcd-123456abcdef", "abcdef12-3456-4d78-abcd-123456abcdef"},
			// a word is a password, a secret or an auth value, and a word with digits a key
			{"DUCKDB_PASSWORD=short", "short"},
			{"FIGMA_CLIENT_SECRET=short", "short"},
			{"BLYNK_AUTH=short", "short"},
			{"CHROMA_AUTH_TOKEN=short", "short"},
			{"BUGHERD_API_KEY=Kp4Qx7Rm", "Kp4Qx7Rm"},
			{"API_KEY=yyyyyZx8kq2", "yyyyyZx8kq2"},
			{"\tsecret := \"change Zx8kq2pLm9 now\"", "Zx8kq2pLm9"},
			// a fake's name does not make its value one: reviewers label fakes as credentials
			{"const fakeOTCToken = \"52063ac05fd84d66febb31e3330ca95b\"", "52063ac05fd84d66febb31e3330ca95b"},
			{"\"PreTokenGeneration\": \"Zx8kq2pLm9Qw4rT7\",", "Zx8kq2pLm9Qw4rT7"},
			{"aws cognito-idp forget-device --device-key Zx8kq2pLm9Qw4rT7aB", "Zx8kq2pLm9Qw4rT7aB"},
			{"\"KeySpec\": \"RSA_4096\", \"Key\": \"Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"            \"DbiResourceId\": \"db-BIQTE3B3K3RM7M74SK5ZQXWVB\",", "BIQTE3B3K3RM7M74SK5ZQXWVB"},
			{"        \"Subject\": \"amzn2.x.AF6RHO7KZU5XRVQJGXK6HB56KR2A\",", "AF6RHO7KZU5XRVQJGXK6HB56KR2A"},
			// a listing's next token is kept masked: reviewers label some as credentials
			{"\"NextToken\": \"Zx8kq2pLm9Qw4rT7aB3dE5fG\"", "Zx8kq2pLm9Qw4rT7aB3dE5fG"},
			{"GET /static/HGr8U1IeTW4kY_Z6UIyaakzOkyQgPr_7ArlLgtZE8SX HTTP/1.1", "HGr8U1IeTW4kY_Z6UIyaakzOkyQgPr_7ArlLgtZE8SX"},
			// a generated value in brackets is a value, not a slot's name (it leaked on 5f97ad7)
			{"password = [Zx8kq2pLm9Qw4rT7]", "Zx8kq2pLm9Qw4rT7"},
			{"youshallpass = Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"        credentials = f\"{self.username}:Zx8kq2pLm9\"", "Zx8kq2pLm9"},
			{"        token = f\"{a}Zx8kq2pLm9Qw{b}\"", "Zx8kq2pLm9Qw"},
			{"password: correct-horse battery staple", "correct-horse"},
			{"        private_key: Zx8k-q2pLm9 private key", "Zx8k-q2pLm9"},
			{"aws ecr get-login-password --region us-east-1\nZx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m"},
			{"- DB_PASSWORD: Secret for the database", "Secret for the database"},
			{"- API_KEY: Zx8kq2pLm9 for the reviews", "Zx8kq2pLm9"},
			{"fly deploy --build-secret DATABASE_URL=Zx8kq2pLm9Qw", "Zx8kq2pLm9Qw"},
			{"fly deploy --build-secret Zx8kq2pLm9Qw", "Zx8kq2pLm9Qw"},
			{"  Image = testrun:deployment-Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ"},
			{"Secrets must be Zx8kq2pL9-encoded.", "Zx8kq2pL9"},
			{"FAS_API_TOKEN=\"FlyV1 Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"secrets: FOOBAR=Zx8kq2pLm9Qw SOME_API_KEY=${{ secrets.SOME_API_KEY}}", "Zx8kq2pLm9Qw"},
		})
	})
}
