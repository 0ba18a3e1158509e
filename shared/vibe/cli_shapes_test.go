package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of cli/cli (MIT), google-gemini/gemini-cli (Apache-2.0),
// ohmyzsh/ohmyzsh (MIT), nvm-sh/nvm (MIT) and psf/requests (Apache-2.0): command-line tools
// and their tests, which a coding stream reads often; the rows from the changelog's on are our
// own (the voices' ids are ElevenLabs' public premade voices'). The rows of secrets are made up.

func TestCLIShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// an argument list one item a line: an option's setting, then the next option
			"\t\t\"-o\", \"PasswordAuthentication=no\",\n\t\t\"-C\", // compression\n\t}",
			// a variable returned beside a word
			"\t\treturn token, \"keyring\", nil",
			// a host, then the user, then the password
			"\t_, err := authCfg.Login(\"github.com\", \"test-user-1\", \"test-token\", \"ssh\", true)\n\trequire.NoError(t, authCfg.SwitchUser(\"github.com\", \"test-user-1\"))",
			// encodings a call reads or decodes with
			"    const credentials = Buffer.from(auth.substring(6), 'base64').toString();",
			"            const finalPwd = fs.readFileSync(pwdFilePath, 'utf8').trim();",
			"      credsJson = await fs.readFile(oldFilePath, 'utf-8');",
			// a licence's SPDX identifier
			"  licenseKey: 'Apache-2.0',",
			// a token of a command line
			"        commandToken: 'git',",
			// a name mapped to a constant of code
			" * 3. GEMINI_API_KEY -> USE_GEMINI",
			// a pattern grep matches, closed before the file it reads
			"export GEMINI_API_KEY=$(grep '^GEMINI_API_KEY=' .env | cut -d '=' -f2) && RUN_EVALS=1 npx vitest run",
			// a package script's command
			"    \"auth\": \"npm run auth:npm && npm run auth:docker\",",
			// a stored value's name in camel case, the fallback of a *_KEY constant
			"const TEST_METADATA_KEY = METADATA_KEY || '__persistedState';",
			// TypeScript: a parameter's type, a cast literal, undefined before a comment, a
			// negated expression, a number before a closing parenthesis and a colon
			"  static async saveCredentials(credentials: Credentials): Promise<void> {",
			"          token: null as unknown as OAuthToken,",
			"      password = undefined; // Break schema",
			"  const hasRejectedToken = !!(await getStoredOAuthToken(serverName));",
			"    // Estimated tokens (using charsPerToken = 1):",
			// Gemini's thought signature, a ciphertext only the provider reads
			"{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Done.\",\"thoughtSignature\":\"CiQB0e2Kb5xKxTC1a7qt3mZP8vJgqK9yL4wN2rB6sD8fH0jK3mQ=\"}],\"role\":\"model\"}}]}",
			// a completion's list of option names, the next option of a list, a sed expression
			"    splunk_options=($common_options $common_options2 \"splunk-caname\" \"splunk-source\" \"splunk-sourcetype\" \"splunk-token\" \"splunk-url\" \"splunk-verify-connection\")",
			"__gitcomp_builtin_send_email_default=\"--smtp-encryption= --smtp-pass= --smtp-server-option= --smtp-server-port=\"",
			"                        | sed 's/\"access_token\"://g' \\",
			"# zstyle ':completion::complete:salt-key:set-option-a-1:'             use-cache false",
			// a shell's default marker
			"          *) nvm_json_throw \"EXPECTED , or ] GOT ${token:-EOF}\" ;;",
			// a no_proxy list
			"        (\"a_new_key\", \"192.168.0.0/24,127.0.0.1,localhost.localdomain\"),",
			// a sentence's hyphened words after a colon
			"- Fixed diagnostics printing resolved secrets: scope-conflict warnings now show the configured `${VAR}` form",
			// text-to-speech voices' ids: after a word for a voice, and a voice listing
			"INFO elevenlabs.py:314 API call: provider=elevenlabs, voice=XB0fDUnXU5powFXDhCwa, chars=5",
			"The voice ID in our code (`Xk9mQ2vLp7wRxT5nB8cJ`) isn't in this list either.",
			"- Voice: Jarvis (Xk9mQ2vLp7wRxT5nB8cJ)",
			"pNInz6obpgDQGcFmaJgB  Adam - Dominant, Firm\nXB0fDUnXU5powFXDhCwa  Alice - Clear, Engaging Educator",
		)
		// Agents' and frameworks' code: Aider-AI/aider (Apache-2.0), cline/cline (Apache-2.0),
		// fastapi/fastapi (MIT), modelcontextprotocol/python-sdk (MIT; the progress token's value
		// and the row before the generic's call are our own).
		requireKept(t, san,
			// a flag's value that names the provider and leaves the key's slot
			"aider --model deepseek --api-key deepseek=<key>",
			// prices and sizes, a locale
			"        \"output_cost_per_token\": 0.00000042,",
			"        self.assertEqual(model.parse_token_value(\"8k\"), 8 * 1024)",
			"                mock_env_get.side_effect = lambda key: \"de_DE.UTF-8\" if key == \"LANG\" else None",
			// a pip-compile listing: a package named in a comment, the next requirement pinned
			"    #   -c requirements/common-constraints.txt\n    #   tiktoken\nrequests==2.32.5",
			// a conditional's branches, a docstring's argument, a read-only type, a cast, a
			// fallback that spells the name
			"      setFocusField(f => f === \"username\" ? \"password\" : \"username\")",
			"        token: GitHub token\n        log(\"Error: GitHub token not provided\")",
			"\townerParticipantKeys: readonly string[] | undefined,",
			"\t\tthis.secretsCache = {} as Secrets",
			"\t\tconst secrets = parseProtoMessageFieldNumbers(protoContent, \"Secrets\")",
			// Python's Annotated and pydantic's types, a constant's own word
			"    password: Annotated[str, Doc(\"The HTTP Basic password.\")]",
			"class Settings(BaseSettings):\n    github_token: SecretStr\n    github_event_path: Path",
			"_FASTAPI_SCOPE_KEY = \"fastapi\"",
			// a Markdown link for what a token is, a template, a check's reason, an elision
			"This page is the client side. Making your own server demand a token is **[Authorization](../run/authorization.md)**.",
			"The other thing a real hostname needs in front of it is a token: **[Authorization](authorization.md)**.",
			"                logger.debug(f\"Pre-loaded client credentials: client_id={client_id}\")",
			"    if (await isTrusted(pr.user.login)) return pass('author has triage+ on this repo');",
			"  `SignedJWTParameters(issuer=..., subject=..., signing_key=...).create_assertion_provider()`",
			// Cline's code: optional chaining, a parameter's type, a path and a regular
			// expression after an authorization's name, storage keys, names echoed, a key's
			// name as a value, a list of an environment variable
			"\t\tapiKey: handler?.getApiKey(selectedProviderSettings),",
			"\t\t\t\t\tconst accessToken = settings?.auth?.accessToken?.trim?.()",
			"\t\t\t\t\t\twithCredentials: !!expandedConfig.headers?.[\"Authorization\"],",
			"function writeStateKey(key: SecretKey | SettingsKey, value: unknown): void {",
			"\tdeviceAuthorization: \"/user_management/authorize/device\",",
			"\t\t.replace(/(authorization=Bearer\\s+)[^&\\s]+/gi, \"$1[redacted]\")",
			"const FAVORITE_MODELS_STORAGE_KEY = \"cline.favorite-provider-models.v1\";",
			"const COOLDOWN_KEY = \"cline:spendLimitRequestCooldown\"",
			"export const CLINEPASS_GROUP = \"cline-pass\"",
			"\tCLINE_PASS: \"ext-cline-pass\",",
			"\t\"cline-pass\": \"clineApiKey\",",
			"\t\tapiKeyEnv: [\"CLINE_API_KEY\"],",
			"\t\tthis.persistProviderApiKeyFromState(\"openrouter\")",
			// the MCP Python SDK: a protocol's dated version, a documentation page, OAuth's
			// client authentication methods, progress tokens, a generic's call
			"        PROTOCOL_VERSION_META_KEY: \"2026-07-28\",",
			"      - Authorization: run/authorization.md",
			"        token_endpoint_auth_method: Literal[\"client_secret_basic\", \"client_secret_post\"] = \"client_secret_basic\",",
			"    \"client-auth:client-secret-basic\": Requirement(",
			"        await client.send_progress_notification(progress_token=\"tok-1\", progress=50.0)",
			"        \"params\": {\"progressToken\": \"p-7f3a\", \"progress\": 1.0, \"total\": 3.0},",
			"                self._request_streams[GET_STREAM_KEY] = anyio.create_memory_object_stream[EventMessage](",
		)
		// tokio-rs/axum (MIT) and openai/openai-agents-python (MIT): Rust's paths, a Cargo
		// dependency, a turbofish and lints' levels; Python's typing generics, a getattr of the
		// name with an underscore, an error code a test expects
		requireKept(t, san,
			"needless_pass_by_ref_mut = \"warn\"",
			"    headers::{authorization::Bearer, Authorization},",
			"jsonwebtoken = { version = \"10\", features = [\"aws_lc_rs\"] }",
			"        let token_data = decode::<Claims>(bearer.token(), &KEYS.decoding, &Validation::default())",
			"    _trusted_s3_mount_credentials: dict[\n        tuple[str, str], dict[str, str]\n    ] = {}",
			"    api_key: NotRequired[str | Callable[[], MaybeAwaitable[str]]]",
			"    refresh_api_key = getattr(client, \"_refresh_api_key\", None)",
			"    (\"credentials\", \"invalid_fields\"),",
			// gemini-cli's package-lock.json: a package's bin entry
			"    \"bin\": {\n        \"secretlint\": \"bin/secretlint.js\"\n    },",
			// (our own) an ACME DNS-01 challenge's TXT value, published in the domain's DNS, as a
			// DNS hook's usage line and an ACME client's log write it
			"# usage: dns_example_add _acme-challenge.app.example.org \"Qm7vT2xKpL9wR4nZc8Yh3JdF6sA1uE5oB0iGtN-q_Xk\"",
			"Txt value:Qm7vT2xKpL9wR4nZc8Yh3JdF6sA1uE5oB0iGtN-q_Xk",
			// a header or an auth setting the shell builds from its variables
			"  export HDR=\"Authorization: cpanel $CP_USER:$CP_TOKEN\"",
			"  _auth=\"HMAC-SHA256 Credential=${ACCESS_KEY}/${scope}, SignedHeaders=${signed_headers}, Signature=${signature}\"",
		)
		s := "  const [authState, setAuthState] = useState<AuthState>("
		require.True(t, codeValue(s, len(s)-len("useState<AuthState>("), len(s)-len("AuthState>(")), "a TypeScript generic's call")
		require.True(t, pathValue(`C:\path\to\your\service-account.json`))
		require.True(t, pathValue(`C:\\Users\\dev\\keys\\sa.json`))
		require.False(t, pathValue(`C:\Zx8kq2pLm9Qw4rT7`))
		require.True(t, spdxLicense("MIT OR Apache-2.0"))
		require.False(t, spdxLicense("Apache-2.0-Zx8kq2pLm9"))
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"\t_, err := authCfg.Login(\"github.com\", \"deploy\", \"Zx8kq2pLm9Qw4rT7\", \"ssh\", true)", "Zx8kq2pLm9Qw4rT7"},
			{"err = login(\"admin\", \"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"check(password, \"letmein\")", "letmein"},
			{"return token, \"Zx8kq2pLm9Qw4rT7aB3dE5\", nil", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"licenseKey: 'Zx8kq2pLm9-Qw4rT7-aB3dE5'", "Zx8kq2pLm9-Qw4rT7-aB3dE5"},
			{"commandToken: 'Zx8kq2pLm9Qw4rT7aB3dE5'", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{" * 3. GEMINI_API_KEY -> Zx8kq2pLm9Qw4rT7aB3dE5", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"echo 'GEMINI_API_KEY=Zx8kq2pLm9Qw4rT7aB3dE5' > .env", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"sed -i 's/^password=.*/password=S3cr3tpw9/' config.ini", "S3cr3tpw9"},
			{"const TEST_API_KEY = API_KEY || 'Zx8kq2pLm9Qw4rT7aB3dE5';", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"      password = s3cr3tPw9; // the old one", "s3cr3tPw9"},
			{"echo ${token:-Zx8kq2pLm9Qw4rT7}", "Zx8kq2pLm9Qw4rT7"},
			{"(\"a_new_key\", \"192.168.0.0/24,Zx8kq2pLm9Qw4rT7aB3dE5\"),", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"\t\t\"-o\", \"Password=Zx8kq2pLm9Qw4rT7\",\n\t\t\"-C\",", "Zx8kq2pLm9Qw4rT7"},
			{"  \"auth\": \"dXNlcjpaeDhrcTJwTG05UXc0clQ3\"", "dXNlcjpaeDhrcTJwTG05UXc0clQ3"},
			{"ELEVENLABS_API_KEY=Xk9mQ2vLp7wRxT5nB8cJ", "Xk9mQ2vLp7wRxT5nB8cJ"},
			{"aider --model deepseek --api-key deepseek=Zx8kq2pLm9Qw4rT7aB3dE5", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"  \"password\": \"Zx8kq2pLm9Qw4rT7\",", "Zx8kq2pLm9Qw4rT7"},
			{"    #   tiktoken\nZx8kq2pLm9Qw4rT7aB3dE5fG7h", "Zx8kq2pLm9Qw4rT7aB3dE5fG7h"},
			{"        token: ghp_Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1mN0pQ", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1mN0pQ"},
			{"password: Zx8kq2pLm9", "Zx8kq2pLm9"},
			{"the password is Zx8kq2pLm9.", "Zx8kq2pLm9"},
			{"return pass('Zx8kq2pLm9Qw4rT7')", "Zx8kq2pLm9Qw4rT7"},
			{"app.security.jwt-secret=myPassword", "myPassword"},
			{"const COOLDOWN_KEY = \"Zx8kq2pLm9:Qw4rT7aB3dE5\"", "Qw4rT7aB3dE5"},
			{"\tCLINE_PASS: \"Zx8kq2pLm9-cline-pass\",", "Zx8kq2pLm9"},
			{"\t\tthis.persistProviderApiKey(\"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"deviceAuthorization: \"Zx8kq2pLm9Qw4rT7aB3dE5\"", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"      - Authorization: Zx8kq2pLm9Qw4rT7aB3dE5", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"        token_endpoint_auth_method: \"client_secret_basic\", client_secret: \"Zx8kq2pLm9Qw4rT7aB3dE5\",", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"the token is ABC-Zx8kq2pLm9Q", "Zx8kq2pLm9Q"},
			{"needless_pass_by_ref_mut = \"Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"jsonwebtoken = \"Zx8kq2pLm9Qw4rT7aB3dE5\"", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"    api_key: \"Zx8kq2pLm9Qw4rT7aB3dE5\"", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"  api_key: \"redirect_uri_mismatch\"", "redirect_uri_mismatch"},
			{"_acme-challenge.example.com token: sk_live_XKrxpRBosdIKFzxW_CT3KLZNf6q0HG9i01zxXp5", "XKrxpRBosdIKFzxW_CT3KLZNf6q0HG9i01zxXp5"},
			{"  export _H1=\"Authorization: Zx8kq2pLm9Qw4rT7aB3dE5 $extra\"", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"  \"token\": \"bin/Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m.js\"", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m"},
			{"voice settings: sk_3f9c2b1a8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e", "sk_3f9c2b1a8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e"},
		})
	})
}
