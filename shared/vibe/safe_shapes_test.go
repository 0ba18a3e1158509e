package vibe

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each harmless shape found in real sessions beside a secret of a similar shape that is
// still caught.
func TestSafeShapes(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	kept := []struct{ name, in string }{
		{"cargo registry index", "/srv/build/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/kurbo-0.10.4/src/translate_scale.rs"},
		{"cargo build artefact", "target/debug/deps/blocky_cosmic_iced-6f4369831df35eb4.d\ntarget/debug/deps/libring-3f1c5a0e3a9d7c44.rlib"},
		{"cargo artefact in prose", "removed blocky_cosmic_iced-6f4369831df35eb4.d and rebuilt"},
		{"nix store path", "/nix/store/q3fzb7ay6r0jcvq9ap7yyjr2ywv1z2pv-python3-3.11.6/bin/python3"},
		{"nix store entry", "building 'q3fzb7ay6r0jcvq9ap7yyjr2ywv1z2pv-openssl-3.0.12-dev'"},
		{"mac addresses in a script", "add_lease \"Legion_Pro_7i\" \"90:10:57:d2:ae:e2\" \"192.168.8.10\"\nadd_lease \"MacBook_Pro\"   \"16:63:ea:84:8b:c6\" \"192.168.8.11\""},
		{"mac address line", "90:10:57:d2:ae:e2\n16:63:ea:84:8b:c6"},
		{"files named by uuids", " create mode 100644 antigravity-data/034f02b8-1fdf-4197-b597-050b7caac6f5.pb\n create mode 100644 raw_data/sessions/0c86f822-80be-489e-878a-42325677b25e.json"},
		{"gist url", `{"title":"Tools and system prompt of Claude Code · GitHub","url":"https://gist.github.com/wong2/e0f34aac66caf890a332f7b6f9e2ba8f"}`},
		{"aws arn", "arn:aws:iam::123456789012:role/service-role/AWSLambdaBasicExecutionRole-5f1c9e2a"},
		{"qualified keys", "Primary key: Xk29fQz81LmP\nCache key: Xk29fQz81LmP"},
		{"kubectl output", `secret "app-tls" created` + "\n" + `secret "db-credentials" deleted`},
		{"terraform references", "password = var.db_password\nmaster_password = module.db.master_password\ntoken = data.aws_ssm_parameter.token.value"},
		{"instructions as values", "JWT_SECRET=change-this-to-a-random-string\nAPI_KEY=replace-with-your-key\nSESSION_SECRET=generate-a-long-random-value"},
		{"go test output", "--- PASS: TestTokenRefresh/expired_token_is_rejected (0.00s)\n=== PASS: TestPasswordReset\nPASS\nok  \tgithub.com/acme/app/internal/auth\t0.512s"},
		// A PNG of random pixels made here, in the forms tools print it.
		{"json-escaped data uri", `{"src":"data:image\/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAA00lEQVR4nAHIADf\/AFLyJmWmDBLSiRhdlQ7ogTYJFm9rET0XjQBsD9OQH\/I5oaCV8g+TlWUM+TgLjtsiSmsAJIoekk6P0K4uGpSSozBfGIy2EJAPnjR\/AK6IbcZQd5XsdFxMP8sussc+FJNMhn7gVwC6ckmb+hIeg2sqwVcm7n1rCvarE8OOksoA4NFQV7FZmH+UzHQR1xfxRXmyqhAPu7NPAKWT\/q7Scki3YuOrWAXwdlornB1+DzfESQAhvT9lZOrffxQqcmaMR+Ij0W7djEe0avxAHVlU1Uq5sAAAAABJRU5ErkJggg=="}`},
		{"wasm module inlined by a bundler", `const blob = "AGFzbQEAAACCtw7ufxpQOb7wfsI0fwZu0I9dx1EkR+NAQwACa25UVZSgZWhdZMSYC7jUVEqHIamaAa0hnrWc9qFe9vFaHYMLt84J1rvABOcXXGQ8feywtYDsN7yXEt0uaq4=";`},
		{"mp3 with an id3 tag", `const blob = "SUQzBAAAAAAAI7lLro0vn6KcWihMnvdSGCnPEHmwgOnXShwQ/KtqQkPTNlbevkwe15ZI6Fbo+aL1jJXwzks5wVv/rVwt+4u4ILYRnLqP+IeWrlsF8oCmjO2TtrKMsNGzWOa6qw==";`},
		{"mp4", `const blob = "AAAAHGZ0eXBpc29tAAACAEhVZbn0kCjVV9eaig5kUeFccFwV8XNUG0Q4olz3YxLU7rPCJGh5vwCzz47ROr8SmjCXrZa0QtbRve9IUMP0ZUQuswDDN6ZIpsDb3XP8lfXCxFGFmv6A1AqjnQ==";`},
		{"ogg", `const blob = "T2dnUwAC+5JJ9Aw+432WFEXIBvWMfPISffqJT5KW/PM8CECZkKyXDe2zuEMSAYHpN2EH29r2xfPIZJfuIZsB3ZLxn0lU9P6pTtkYI3WIKyANqtsjz/kZPz5wOESV4Exd";`},
		{"webm", `const blob = "GkXfo59ChoEBXtNSIm0WN8Ikjx08zEQF3S6h+vq0vxxGlk2UcIYgeIKRRHi+6MdbQwmuKxIuP+h6x+z1pTcPxBtN23I7KvtsR8C1eJSqssXBRbeX3bkSblzKIDESEF9nZBT6";`},
		// A notebook's image output (nbformat keeps the PNG wrapped at 76 columns in a JSON string):
		// a line of zero bytes then a few others spells a Twitter bearer token's 21 A's.
		{"notebook image output", `{"output_type": "display_data", "data": {"image/png": "iVBORw0KGgoAAAANSUhEUgAAASwAAAAoCAAAAABh8JgLAAACWElEQVR4AQEIL/fQAKUAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABNAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAygAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABgA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAlAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAALsAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAyUHFKAAAAAElFTkSuQmCC\n"}}`},
		{"stripe checkout session and a vercel deployment", "Session ID: cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ\n🔍  Inspect: https://vercel.com/acme/my-app/7HkXQz9mP2vLqR4tYw8nB3cFjK5s [2s]"},
		// What a transcript of a Cursor or Gemini session shows.
		{"public key wrapped by a terminal", "$ cat ~/.ssh/id_rsa_git.pub\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAACAQDKmK4BZ6/kwMIkr5GiQ1T0pD0ePD0InBCIocPlUcq94dlNcajji2FeYfaNqk49\n+o3ZV0uM8FmXctPInVKzK9nnyw3zemStnI+dWCPqbO1sfWrXk9mQ2vLp7wRTz4nB8cYd3F6hJk1LqW4eR7tY0uI/awxUyAZRIE9G/ahGN/o9pA2sD5fG8hJ1kL4zX7cV0bN3mQ6wE9rT2y\n/6b/U5iO8pA1sXk9mQ2vLp7wRTz4nB8cYd3F6hJk1LqW4eR7tY0uIo9pA2sD5fG8hJ1kL== deploy key"},
		{"bearer in a markdown heading", "3. **Refresh + Bearer collision** — `extractToken` prefers `Authorization` over the cookie."},
		{"json key wrapped by a terminal", `{"success":true,"projectName":"chef chopsky","apiKeyE` + "\n" + `xists":true,"timestamp":"2025-09-05T15:23:45.282Z"}%`},
		{"message for an unset variable", `echo "LANGSMITH_API_KEY: ${LANGSMITH_API_KEY:-'Not set'}"`},
		{"supabase cli token name", "Enter your verification code: 99c38626\nToken cli_alice@Alices-MacBook-Pro.local_1757093473 created successfully."},
		{"notion page url", `"url":"https://www.notion.so/Founder-Brief-22868a5db8a580028c1ef1a6f8ac47a8","public_url":null`},
		{"command in a code span after a pass label", "2.  **Tests Pass**: `cargo test` passes all unit tests and documentation tests."},
		{"elided key and an instruction", `export OPENAI_API_KEY="sk-...your key..."`},
		// A Helm chart's templates, values and README.
		{"arguments of helm template actions", "name: {{ include \"common.tplvalues.render\" (dict \"value\" .Values.extraEnvVarsSecret \"context\" $) }}\n{{- $rootPassword := .Values.auth.rootPassword }}\n{{- include \"opensearch.tlsSecretKey\" (dict \"type\" .nodeRole \"secretKey\" \"certKey\" \"defaultKey\" \"tls.crt\" \"context\" .context) -}}"},
		{"values a template fills in", "pipelineSecretTemplate: concourse/{{.Team}}/{{.Pipeline}}/{{.Secret}}\nmongosh --authenticationDatabase admin -p $MONGODB_ROOT_PASSWORD{{- end }}"},
		{"template actions in a secret's data", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\ndata:\n  {{- range $key, $value := .Values.config.secret.repositoryCredentials }}\n  {{ $key }}: {{ $value | b64enc }}\n  {{- end }}\n  config.yml: |-"},
		{"a config map's data beside a secret", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: production-cluster\n  cache: memory"},
		{"chart values naming secrets", "existingPasswordSecret: name-of-existing-secret\ntlsSecret: grafana.local-tls\nexistingSecretUserKey: user\npasswordsSecretKeystoreKey: keystore-password\ninitdbScriptsSecret: init-scripts-secret\nextraEnvVarsSecret: logstash-secrets"},
		{"addresses under key names", "masterKeyIps: \"0.0.0.0/0\"\napiTokenAllowedCidr: 10.0.0.0/8"},
		{"a boolean ending a sentence", "and broker.automountServiceAccountToken=true."},
		{"a here-string to a command whose variable names a password", `PGPASSWORD=$POSTGRES_POSTGRES_PASSWORD psql -U postgres <<< "CREATE DATABASE app"`},
		{"where openssl reads a pass phrase from", "openssl pkcs8 -topk8 -passin pass:\"${KAFKA_TLS_PEM_KEY_PASSWORD:-}\" -in key.pem\nopenssl rsa -passin env:KEY_PASS -in key.pem\nopenssl rsa -passout fd:3 -in key.pem"},
		{"a user and a variable in a code span", "add the flag `--user root:$ETCD_ROOT_PASSWORD` to the etcdctl commands"},
		{"numbered placeholder names", "kubectl create secret generic SECRET_NAME --from-literal=client-passwords=CLIENT_PASSWORD1,CLIENT_PASSWORD2 --from-literal=smtp-password=SMTP_PASSWORD"},
		{"a chart's parameter table", "| `tls.privateKeyFilename` | Location in the container to store the private key | `/etc/ssl/private/ssl-cert-snakeoil.key` |\n| `jwt.keyFile` | Name of the file containing the private key for signing the JWT token | `jwt-token.pem` |"},
		// An agent's configuration of how it fetches secrets.
		{"settings of a secret backend", "secret_backend_arguments: [\"arg1\", \"arg2\"]\nsecret_backend_config: {\"key\": \"value\"}"},
		{"a header of snake-case words", "some-other-key: also_not_scrubbed"},
		{"a GitHub Actions expression after a scheme", `GEM_HOST_API_KEY: "Bearer ${{secrets.GITHUB_TOKEN}}"`},
		{"an instruction where a password goes", "#       DOCKER_REGISTRY_SERVER_PASSWORD: Set this to the value of your PAT token from the previous step"},
		{"a bracketed note where a token goes", "1. Set your DigitalOcean Personal Access Token: `export DO_API_TOKEN=[token here]`"},
		{"a placeholder value before a command's next word", "docker run -d --name hubot -e HUBOT_SLACK_TOKEN=TOKEN_HERE a4d/hubot-slack"},
		{"a rotation schedule", `master_user_password_rotation_schedule_expression = "rate(15 days)"`},
		{"a binding secret's service settings", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: demo-db\ntype: servicebinding.io/postgresql\nstringData:\n  type: \"postgresql\"\n  host: \"demo-db\"\n  port: \"5432\"\n  database: \"petclinic\""},
		{"a redaction mark in a JSON command", `{"command":"echo 'API_KEY=\"[REDACTED_API_KEY]\"' > test_secret.txt && git add test_secret.txt","description":"Test hook with fake secret"}`},
		{"debian package files", "steam-runtime/installed/libnotify4_0.7.5-1+srt6_amd64\nsteam-runtime/installed/libnotify4_0.7.5-1+srt6_i386.md5"},
		{"a git dependency's checkout", "./.pub-cache/git/window_manager-af74247d3c1616968ec281435f7410bcc7f9355c/.github"},
		// Ruby, Kotlin and Java libraries' code and documentation.
		{"certificate pins", `.add("publicobject.com", "sha256/afwiKY3RxoMmLkuRW1l7QsPZTJPwDS2pdDROQjXw8ig=")` + "\n" + ` *     sha1/DmxUShsZuNiqPQsX2Oi9uv2sCnw=: CN=publicobject.com, OU=PositiveSSL`},
		{"a link reference to a key server", "[signing_key_2021]: https://keyserver.ubuntu.com/pks/lookup?search=dbd744ace7ade6aa50dd591f66b50994442d2d40&fingerprint=on&op=index"},
		{"a string template of variables", `val usernameAndPassword = "$username:$password"`},
		{"an expression of members", `this.encodedPassword = this.encodedPassword + "%40" +`},
		{"a regular expression's group", `private val PARAMETER = Regex(";\\s*(?:$TOKEN=(?:$TOKEN|$QUOTED))?")`},
		{"a comparison read as a header", "val proxyAuthorization = response.code == 407"},
		{"a set of characters", "internal const val PASSWORD_ENCODE_SET = \" \\\"':;<=>@[]^`{}|/\\\\?#\""},
		{"an ipv6 address", `InetAddress.getByName("2a00:1098:3a0:0:0:0:0:1")`},
		{"a scheme's name", `.proxyAuthenticator(RecordingOkAuthenticator("password", "Basic"))`},
		{"a gemfile's path", "BUNDLE_GEMFILE=gemfiles/Gemfile-rails-8-0 bundle install"},
		{"ruby code under password names", "password = ::BCrypt::Engine.hash_secret(password, bcrypt.salt)\ndef password=(new_password)\nself.confirmation_token = @raw_confirmation_token = Devise.friendly_token\n@@reset_password_within = 6.hours"},
		{"an emphasised word after is", "# the database. It only checks if the password is *present*. Do not rely"},
		// Tools' help texts and manual pages.
		{"a help text's columns", "  -W, --password            force password prompt\n -passout val          Output file pass phrase source"},
		{"a usage synopsis", "openssl req [-in filename] [-passin arg]\n[protocol://][user[:password]@]proxyhost[:port]"},
		{"usage words for a user's password", "curl --proxy-anyauth --proxy-user user:passwd -x proxy https://example.com\ncurl --tlspassword pwd --tlsuser user https://example.com"},
		{"a pin in curl's syntax", "curl --pinnedpubkey 'sha256//ce118b51897f4452dc' https://example.com"},
		{"an X.509 extension naming a key", "authorityKeyIdentifier=keyid:always,issuer:always"},
		{"a compose file's escaped command substitution", `test: ['CMD-SHELL', 'mysqladmin ping -h 127.0.0.1 --password="$$(cat /run/secrets/db-password)" --silent']`},
		{"a variable and a note", "- Password: $POSTGRES_PW (see .env)"},
		// Python web projects' templates.
		{"a code forge's account link", "PR [#1205](https://github.com/tiangolo/full-stack-fastapi-template/pull/1205) by [@Craz1k0ek](https://github.com/Craz1k0ek)."},
		{"a form's two password fields", `"fields": ("email", "password1", "password2"),`},
		{"password hashers", `PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]`},
		{"a constant passed as an argument", "repo = Github(login_or_token=GITHUB_TOKEN).get_repo(GITHUB_REPO)"},
		{"a format string's fields", `os.environ.setdefault("DATABASE_URL","postgres://{}:{}@{}:{}/{}".format(a, b))`},
		{"a control's labels", `aria-label={showPassword ? "Hide password" : "Show password"}`},
		{"a submit button after a password field", "<label for=\"password\">Password</label>\n<input type=\"password\" name=\"password\" id=\"password\" required>\n<input type=\"submit\" value=\"Log In\">"},
		{"pytest's parameter names", "@pytest.mark.parametrize(('username', 'password', 'message'), ("},
		// A .NET solution's code and settings.
		{"a C# field named like npm's setting", "[ObservableProperty] private ValidatableObject<string> _password = new();"},
		{"a project's user secrets id", "<UserSecretsId>b99dbce4-17d4-41d2-858a-2b0529d60bb8</UserSecretsId>"},
		{"SQL Server samples' stand-in password", "\"CatalogDB\": \"Host=localhost;Database=CatalogDB;Username=postgres;Password=yourWeak(!)Password\"\ndocker run -e \"ACCEPT_EULA=Y\" -e \"MSSQL_SA_PASSWORD=yourStrong(!)Password\" -p 1433:1433 -d mcr.microsoft.com/mssql/server:2022-latest"},
		{"a protobuf descriptor's first line", `"CiNTZXJ2aWNlcy9CYXNrZXQvUHJvdG9zL2Jhc2tldC5wcm90bxIJQmFza2V0",`},
		{"paths with an @ after a port", "http://localhost:8080/@types/node\nhttps://registry.npmjs.org:443/@scope/pkg\nhttps://medium.com/@alice/post"},
		{"pnpm's lockfile entry", "      '@babel/plugin-bugfix-firefox-class-in-computed-class-key': 7.25.3(@babel/core@7.25.2)"},
		{"a sentence after user/password", "WebAuthn / Passkeys and username/password credentials. Check out our [authentication page](/getting-started/authentication) for"},
		{"a scoped package under a key's name", `"api-key": "@better-auth/api-key",`},
		{"a namespaced name after a header-like name", `const CONTEXT = "better-auth:scim-demo:oidc-subject:v2";`},
		{"prose in a table's secret cell", "| password | the one you chose |\n| Token | see the vault entry |"},
		{"prose after user/password", "create new user/password entries that will be appended to the \"pgpool_passwd\" file."},
		// Names that open with a vendor's prefix (an Objective-C selector, a constant).
		{"code names opening with hf_", "- (id)hf_requiredCharacteristicTypesForDisplayMetadata;\n_kHMSymptomhf_generatedByHomeAppForDebuggingPurposesKey,\n&hf_servingcellpriorityparametersdescription_h_prio"},
		{"ethereum contract addresses under token names", "\"iaoStakeToken\": \"0x07D325030dA1A8c1f96C414BFFbe4fBD539CED45\",\n\"iaoRewardToken\": \"0x5FbDB2315678afecb367f032d93F642f64180aa3\","},
		{"typescript interface members typed boolean", "export interface User {\n  hasPassword: boolean\n  apiKeyConfigured: Boolean\n  createdAt: string\n}"},
		{"code spans in a markdown table's cells", "830\t| WebSocket URL | `wss://.../ws?key=...` | `ws://<host>/ws` |\n831\t| Login/signup | `POST /api/auth/login` | `POST /api/auth/signup` |"},
		{"xml signature values", "<ds:SignatureValue>fDKK0so/zFcmmq2X+BaVFmS0t8KB7tyW53YN6n221OArzGCs4OyWsAjj/BUR+wNF\nQm7xT2vR9kLpZwNcBdFgHjKlMnPqRsTuVwXyZ1234567890abcdefghijklmno=</ds:SignatureValue>\n<ds:DigestValue>Qm7xT2vR9kLpZwNcBdFgHjKlMnPqRsTuVwXyZ12345=</ds:DigestValue>"},
		{"pkce code challenge", "https://auth.example.com/authorize?response_type=code&code_challenge=kjasBS523KdkAILD2k78NdcJSk2k3KHG6&code_challenge_method=S256"},
		// What example projects' READMEs and .env.example files hold.
		{"encoded image links in a deploy button", "[![Deploy](https://vercel.com/button)](https://vercel.com/new/clone?demo-image=%2F%2Fimages.ctfassets.net%2Fe5382hct74si%2F2T4BUF3mEBKPJF3jcjU6nS%2F0d4a02e7c48091d13814a4ab513e8734%2FScreen_Shot.png&integration-ids=oac_NAO87zzp3ADxj2ZUh3vikLip)"},
		{"image cdn asset path", `<img src="https://cdn.builder.io/api/v1/image/assets%2FYJIGb4i01jvw0SRdL5Bt%2F19683b4ef3f54eb78e8c2fa6c65759a7" alt="Welcome screen">`},
		{"litellm environment reference", "model_list:\n  - model_name: gpt-4o\n    litellm_params:\n      api_key: os.environ/VERCEL_AI_GATEWAY_API_KEY"},
		{"commented generator over an instruction", "# node -e 'console.log(`${crypto.randomBytes(32).toString(\"base64url\")}`)'\nFLAGS_SECRET=ReplaceThisWith32RandomBytesBase64UrlString"},
		// What a cookbook of notebooks and documentation pages holds (anthropics/anthropic-cookbook).
		{"variable read inside a json-escaped curl example", `{"text": "Single tool example Shell Python curl https://api.anthropic.com/v1/messages \\\\ --header \\\"x-api-key: $ANTHROPIC_API_KEY \\\" \\\\ --header \\\"anthropic-version: 2023-06-01\\\" \\\\ --header \\\"content-type: application/json\\\""}`},
		{"jupyter widget model ids", "      \"layout\": \"IPY_MODEL_87a2ec99584f49faa1409d1cced0bbf4\",\n      \"children\": [\n       \"IPY_MODEL_9b9272daa2cc484b99ef22536f1e5ae9\","},
		{"where a key goes", "os.environ['VOYAGE_API_KEY'] = \"VOYAGE KEY HERE\"\nDG_KEY = \"🔑🔑🔑 Your API Key here! 🔑🔑🔑\""},
		{"format spec after a pass label", "    print(f\"Pass@{k}: {results['pass_at_n']:.2f}%\")"},
		{"thinking blocks printed by code", "[TextBlock(citations=None, text=None, type='redacted_thinking', data='EvAFCoYBGAIiQL7asmglEdeKXw4EdihR2gBQ7O7+j/dGecLjsS2PMgW9av+NRwuIV2nFD4I61hUHrp5vzJF7/y+i/vvbnxaRnwMqQMizGiLSDcowtE')]"},
		{"staging provider ids", "ToolsBetaMessage(id='msg_staging_01ApgXx7W7qsDugdaRWh6p21', content=[ToolUseBlock(id='toolu_staging_01FMRQ9pZniZqFUGQwTcFU4N')])"},
		// What an SDK's examples and documentation hold (vercel/ai).
		{"media file a url ends in", "          'https://v3.fal.media/files/elephant/d5lORit2npFfBykcAtyUr_tmplacfh8oa.mp3',"},
		{"a link where to make a key", "Create a new API key: https://vercel.com/d?to=%2F%5Bteam%5D%2F%7E%2Fai%2Fapi-keys"},
		{"discord invitation", "- [DeepEval Discord](https://discord.gg/a3K9c8GRGt)"},
		{"dated beta feature", "    'anthropic-beta': 'context-1m-2025-08-07',"},
		{"scheme before an interpolated credential", "        Authorization: `KasadaApiTokenV1 ${process.env.KASADA_TOKEN ?? ''}`,"},
		{"bold prose after tokens", "when an upstream request fails **before any tokens are streamed** and a custom transport tries"},
		{"image in a json field", `"thumbnail": "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAA00lEQVR4nAHIADf/AFLyJmWmDBLSiRhdlQ7ogTYJFm9rET0XjQBsD9OQH/I5oaCV8g+TlWUM+TgLjtsiSmsAJIoekk6P0K4uGpSSozBfGIy2EJAPnjR/AK6IbcZQd5XsdFxMP8sussc+FJNMhn7gVwC6ckmb+hIeg2sqwVcm7n1rCvarE8OOksoA4NFQV7FZmH+UzHQR1xfxRXmyqhAPu7NPAKWT/q7Scki3YuOrWAXwdlornB1+DzfESQAhvT9lZOrffxQqcmaMR+Ij0W7djEe0avxAHVlU1Uq5sAAAAABJRU5ErkJggg==", "photo": "/9j/4AAQSkZJRluu4mH1OyYVLSY7qDsDfNSWLkNIASVriF6ckFHzILDbg/Oep629DXTm3sfz367Mj2RlZmQae6JmDzAR/DVwKRxXmQ0aAJEmiRnyXZ0GEt81nWAmokD0WJpdeR8d2Xz++nd6e08VJBq/V71DetSxKYQFNPPzh1wlsA=="`},
		{"mime part, json-escaped lines", `Content-Transfer-Encoding: base64\n\niVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAA00lEQVR4nAHIADf/AFLyJmWmDBLS\niRhdlQ7ogTYJFm9rET0XjQBsD9OQH/I5oaCV8g+TlWUM+TgLjtsiSmsAJIoekk6P0K4uGpSSozBf\nGIy2EJAPnjR/AK6IbcZQd5XsdFxMP8sussc+FJNMhn7gVwC6ckmb+hIeg2sqwVcm7n1rCvarE8OO\nksoA4NFQV7FZmH+UzHQR1xfxRXmyqhAPu7NPAKWT/q7Scki3YuOrWAXwdlornB1+DzfESQAhvT9l\nZOrffxQqcmaMR+Ij0W7djEe0avxAHVlU1Uq5sAAAAABJRU5ErkJggg==`},
		{"mime part", "Content-Transfer-Encoding: base64\n\n" + `iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAA00lEQVR4nAHIADf/AFLyJmWmDBLS
iRhdlQ7ogTYJFm9rET0XjQBsD9OQH/I5oaCV8g+TlWUM+TgLjtsiSmsAJIoekk6P0K4uGpSSozBf
GIy2EJAPnjR/AK6IbcZQd5XsdFxMP8sussc+FJNMhn7gVwC6ckmb+hIeg2sqwVcm7n1rCvarE8OO
ksoA4NFQV7FZmH+UzHQR1xfxRXmyqhAPu7NPAKWT/q7Scki3YuOrWAXwdlornB1+DzfESQAhvT9l
ZOrffxQqcmaMR+Ij0W7djEe0avxAHVlU1Uq5sAAAAABJRU5ErkJggg==`},
		{"provider ids on other platforms", `{"id":"toolu_vrtx_01Xk9QmDvV4Rfq3tC7bLpWsZ"} {"id":"msg_bdrk_01HCbRZ1kLkZu6ydwUiGxqrd"} id: gen-1734567890-Xk9QmDvV4Rfq3tC7bLpW`},
		{"github node ids", `"node_id": "WFR_kwLOQ3f9a1c8Gs7Kp2Xm", "check_suite_node_id": "CS_kwDOQ3f9a1c8AAAAByXk9mQ", "id": "PVTI_lADOAbCdEf4AAn3QzgXk9mQ"`},
		{"data files named by a date and a uuid", " create mode 100644 .codex/sessions/2025/11/01/rollout-2025-11-01T09-12-44-019a3b2c-729d-4da6-9a29-ec2c614e5e23.jsonl"},
		{"a listed record's id", `"voices": {"jarvis": {"id": "qZ7K2LmN9TvXc4RbWd8P", "name": "Jarvis"}, "carson": {"id": "Wk3nB8cY1dF6Xk9mQ2vL", "name": "Dan"}}`},
		{"ids listed under a heading or a comment, or in an ID column", "### Voice IDs\n\n| Voice | ID | Lang |\n|-------|-----|------|\n| Jarvis | `pxQ5J1NTCCuhK7jrRa1d` | EN |\n| Ottie | `BRk6UBXCCNU3mrjWLIMD` | DE |\n\n// Voice IDs for language-based selection\nconst VOICES = {\n  jarvis: \"pxQ5J1NTCCuhK7jrRa1d\",  // English\n  ottie: \"BRk6UBXCCNU3mrjWLIMD\",\n};"},
		{"ids a service names", "ELEVENLABS_VOICE_ID=pNInz6obpgDQGcFmaJgB\n**Voice ID:** `pNInz6obpgDQGcFmaJgB`\n- Voice ID (Jarvis): pNInz6obpgDQGcFmaJgB\nvoice_id: \"pNInz6obpgDQGcFmaJgB\""},
		{"deploy previews and notebooks", "Preview: https://64f1c2d3e5a6b7c8d9e0f1a2--acme.netlify.app ready; notebook https://colab.research.google.com/drive/1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS"},
		{"youtube playlist link", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG and https://youtu.be/dQw4w9WgXcQ?si=Xk9mQ2vLp7wRTz4nB8cY"},
		{"stripe object ids", `{"id": "cus_NffrFeUfNV2Hib", "default_source": "card_1MtHbELkdIwHu7ixl4OzzPMv", "latest_charge": "ch_3MtwBwLkdIwHu7ix0snN0B15", "payment_method": "pm_1MqLiJLkdIwHu7ixUEgbFdYF"}`},
		{"a weak etag", `"etag": "W/\"5e-Kq7vR2mXz9Lp4Wn8Tb6Yc3ZxKq7\"" {"output":"\"etag\": \"W/\\\"5e-Kq7vR2mXz9Lp4Wn8Tb6Yc3ZxKq7\\\"\""}`},
		{"ids named so, inside a JSON string", `{"output":"nonce=\"r4nd0mN0nc3Xk9mQ2vLp\" \"responseId\": \"mNq7aPmTLeyWz7IP3YKb2Qo\""}`},
		{"ids named so", `"responseId": "mNq7aPmTLeyWz7IP3YKb2Qo", "node_id": "PR_kwDOAbCdEf5Xk9QmDv", "conversationId":"Xk9QmDvV4Rfq3tC7bLpWsZ2N"`},
		{"digests named by their algorithm", `"sha512": "Zq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4aZq8rT2vLm9xKp/4aZq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4aZq8rT2==", "checksum": "Wk3nB8cY1dF6Xk9mQ2vLp7wRTz4n"`},
		{"git push output", "To github.com:acme/app.git\n   3f9c2b1..7d4b9c8  feature/token-refresh -> feature/token-refresh\n * [new branch]      fix/password-reset -> fix/password-reset"},
		{"key fingerprint", "Fingerprint: 2c:1f:ab:4e:90:10:57:d2:ae:e2:16:63:ea:84:8b:c6"},
		{"gpg lists secret keys", `{"command":"gpg --list-secret-keys","description":"List GPG secret keys."}`},
		{"gpg exports a key by id", "gpg --armor --export-secret-keys 8D357AFBEA94CD48BC1982CCBDDE13F749C6CF8A > key.asc"},
		{"boolean flags", "gh repo edit acme/app --enable-secret-scanning --enable-secret-scanning-push-protection"},
		{"pam control lists", "-auth      [success=2 default=ignore]  pam_systemd_home.so\nauth       [success=1 default=bad]     pam_unix.so try_first_pass nullok\n-password  [success=1 default=ignore]  pam_systemd_home.so"},
		{"password compounds in prose", "Copy your key to this machine first, as password login is now disabled; expect no password prompts."},
		{"ssh ed25519 public key", `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII3eL1K+hH/lrVbaXkjwZJzJwxmchBNSCOTCM8ErwQjb dev@box`},
		{"ssh rsa public key", `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCcsUtCwFAwpl076MfaGTSWwTtnJQg2G3pj6KONMIcsWGoKNzHI1czVFIlds/LaMkTEwqiD/G1uz2IHixs35d/zqkRxQ90RUfjnF6iSLr2ApOxTjZH0e08PBNfBmrZqgTYgVMKvO5E/JAktyh4NLFXiRTHuMXSmHz9+mGqNcF3QcQ== x`},
		{"authorized_keys line", "command=\"/usr/bin/backup\" " + `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII3eL1K+hH/lrVbaXkjwZJzJwxmchBNSCOTCM8ErwQjb dev@box`},
		{"pam_u2f authfile", "$ cat ~/.config/Yubico/u2f_keys\ndev:Hd3Tq0Yk9bWz1Lr5Xc7Vn2Mp8Gs4Jf6Ah0Ue3Io9Py1Ta5Sb7Dc2Ev4Fw6Gx8Hy0Iz,mQ9xT2vR7kL4pZ1wN8cB5yH3jF6gD0sA2eU9iO4tY7rE1qW3zX5vC8bM6nK0lJ2hG4fD6sA8pO0iU2yT4rE6wQ8,es256,+presence"},
		{"pgp public key block", `-----BEGIN PGP PUBLIC KEY BLOCK-----

mDMEaw8JxxYJKwYBBAHaRw8BAQdAUo1eA6HQADJYHbxHgl1cz6QNUKlmtdKnkoud
oXSdZK20GURldiBCb3ggPGRldkBib3guaW52YWxpZD6IkAQTFggAOBYhBKiO5TkX
1W1r9G6YZEExivwjEv3sBQJrDwnHAhsDBQsJCAcCBhUKCQgLAgQWAgMBAh4BAheA
AAoJEEExivwjEv3sllsA/R7+WAE2xPmlRYEifB5/O53geCPsOt09deFlhtncFRYc
AQCyqQT/R9K58M5jWci/fKYOMcDbMvs3eIrMZdbDnO1GAQ==
=CEd3
-----END PGP PUBLIC KEY BLOCK-----`},
		// A link of a Gemini CLI session in mischa-thisness/M-Gemini (CC0).
		{"gemini citation links", "[1] archlinux.org (https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHCQoZMSFll5D_fB8UdNPvYc2vDKuYPM1ZYH3ABnqqzzLw66PE_jPsYSXnaj3rQRK9tjUsrI3ObM7gkyK5a6HC2SNSh6SudzOMoSRGtPy0kh1Mh6RXAPAHHSubbLbXXNUCHZEhcm4hzxmNxIsgBe8CZNDsbiGJCLuFQ9G75fKtU3FhsxTB9T4CnoDdFepCDc4t5iV4ayFAlnQ)"},
		{"json member names on their lines", "{\n  \"sessionId\": \"d2230b34-e170-4c53-976d-5fec7ff9a796\",\n  \"projectHash\": \"86bc0e27f2bad5ee2e2625969dc74484f7717cff50ea68e3c3f18194c802a493\"\n}"},
		{"request ids in response headers", "< x-amz-id-2: vlR7PnpV2Ce81l0PRw6jlUpck7Jo5ZsQjryTjKlc5aLWGVHPZLj5NeC6qPa0emYBDXOo6QBMlwI=\n< x-amz-request-id: 8D2B1F0A3C4E5G6H\n< x-amz-cf-id: oE9gV8tYv1Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8c==\n" +
			"x-request-id: 7f3c9b1eXk9QmDvV4Rfq3tC7bLpWsZ2N\ncf-ray: 8a1b2c3d4e5f6a7b-FRA\nx-goog-request-id: Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz\n" +
			"x-guploader-uploadid: ABPtcPpXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1yH6j\napigw-requestid: Xk9QmDvV4Rfq3tC7bL=\n"},
		{"request ids in a dict of headers", `{'x-amz-id-2': 'vlR7PnpV2Ce81l0PRw6jlUpck7Jo5ZsQjryTjKlc5aLWGVHPZLj5NeC6qPa0emYBDXOo6QBMlwI=', "X-Ms-Request-Id": "Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz"}`},
		{"websocket handshake", "GET /chat HTTP/1.1\nUpgrade: websocket\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n\nHTTP/1.1 101 Switching Protocols\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="},
		{"states under a credential's name", "X-Auth-Token: enabled\napi_token: disabled\nPASSWORD=unset"},
		{"a signature inside a base64 blob", "/opt/google/chrome/chrome --type=gpu-process --gpu-preferences=WAAAAAAAAAAgAAAIAAAAAAAAAAAAAAAAAABgAAAAAAA4AAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAgAAAAAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAAAIAAAAAAAAAAgAAAAAAAAA --shared-files"},
		{"csp source list", "Content-Security-Policy: script-src 'self' 'unsafe-hashes' 'sha256-Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT=' 'wasm-unsafe-eval' 'report-sample'; object-src 'none'"},
		{"csp nonce", `add_header Content-Security-Policy "script-src 'self' 'nonce-Xk9QmDvV4Rfq3tC7bLpWsZ2N' 'strict-dynamic' https://cdn.example.com";`},
		{"csp sources in a list", `scriptSrc: ["'self'", "'unsafe-inline'", "'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC'", "https://js.stripe.com"],`},
		{"times with four colons", "10:30:00:000:ready\n[12:01:55:123:INFO] started"},
		{"a stand-in url under a secret's name", `"api_key": "https://example.com/your-api-key-here", "secret": "https://docs.acme.io/guides/secret-management"`},
		{"pass as a verb", "My focus is on determining how to pass \"hello world 42\" as a single argument. You can pass '--max-old-space-size=4096' to node."},
		{"words in a parenthesis after an address", "*   **Upstreams:** 1.1.1.2 (Cloudflare Malware) & 9.9.9.9 (Quad9)"},
		{"an organization id header", "anthropic-organization-id: 3f1c5a0e-3a9d-4c44-b597-050b7caac6f5\nx-request-id: req_011CRqN5sdXzY2vKjqGpQ8Lb"},
		{"a type alias named for a secret", "type SecretString = secrecy::SecretBox<str>;\nlet token_kind = TokenKind::Bearer;"},
		{"typescript types named for secrets", "interface Session {\n  token?: string;\n  refreshToken: string | null;\n  secret: Uint8Array;\n}"},
		{"terraform block labels", "resource \"aws_secretsmanager_secret\" \"db\" {\n  name = \"prod/db/password\"\n}\nresource \"random_password\" \"db\" {\n  length  = 32\n}"},
		{"ssh's passphrase prompt", "Enter passphrase for key '/home/dev/.ssh/id_ed25519':\nDB_PASSWORD_FILE=/run/secrets/db_password\nPASSWORD=/run/secrets/db_password"},
		{"pagination tokens and cursors", `{"nextPageToken": "CgwIARIIZXhhbXBsZRgB", "next_cursor": "dXNlcjpXMDdRQ1JQQTQ="}` + "\n" + `"pagination": {"cursor": "eyJpZCI6MTIzNDU2LCJ0cyI6MTcxNzQwNTk2NH0="}`},
		{"a ulid", `{"ulid": "01HZX3K9Q2W5E8R1T4Y7V0J3M6"} created 01HZX3K9Q2W5E8R1T4Y7V0J3M6`},
		{"cookies of words and analytics ids", "Set-Cookie: _ga=GA1.2.1234567890.1717405964; Path=/; Domain=.acme.io\nSet-Cookie: theme=dark; Path=/\nCookie: lang=en-US; consent=yes"},
		{"a masked token printed between literals", "fmt.Println(\"token: \" + token[:4] + \"...\" + token[len(token)-4:])\nconsole.log('Using API key ' + apiKey.slice(0, 4) + '****');"},
		{"a list of secrets' names", "SECRET_NAMES = [\n    \"db-password\",\n    \"api-token\",\n]"},
		{"kubectl describe of a secret's reference", "    Environment:\n      DATABASE_URL:  <set to the key 'url' in secret 'db'>  Optional: false\n      API_TOKEN:     <set to the key 'token' in secret 'api'>  Optional: false"},
		{"graphql global ids", `{"data":{"viewer":{"id":"VXNlcjoxMjM0NTY3ODkw","repositories":{"edges":[{"node":{"id":"UmVwb3NpdG9yeToxMjM0NTY3ODk=","name":"app"}}]}}}}` + "\n" + `"installation":{"node_id":"MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMTIzNDU2Nzg="}`},
		{"a secret's name after a secret manager's flag", "gcloud secrets versions access latest --secret=db-password\nhelm install db bitnami/postgresql --set auth.existingSecret=db-credentials"},
		{"git credential sections", "[credential \"https://github.com\"]\n\thelper = !gh auth git-credential\n[credential \"https://gist.github.com\"]"},
		// A CVSROOT's access method and its user, no password (a project's history in its
		// copyright file or README).
		{"cvs pserver root", "  cvs -d cvs://:pserver:guest@cvs.example.org:/cvsroot/tools checkout tools"},
		// C declarations: a function set apart from its parenthesis, a struct's typedef name.
		{"gl prototype with a blank before its parameters", "GLAPI void APIENTRY glGetPerfQueryObjecti64v (GLuint id, GLenum pname, GLint64 *params);"},
		{"typedef name after a struct's brace", "typedef struct {\n    CARD8 reqType;\n} xDRI3GetDrawableInfo64Req;"},
		// An XML signature's digest of what it signs: a hash, public.
		{"xml signature digest", "      <ds:DigestValue>q8Zk3vR1Lm9Tx2Wb7Yp4Hn6Jc0E=</ds:DigestValue>"},
		// A parameter's syntax written out: the word value where the value goes.
		{"media type parameter written out", "const type = new MIMEType('application/json;key=value');"},
		// A usage line's optional user and password, named by words.
		{"optional userinfo in a usage line", "  --proxy URL   a proxy as scheme://[user:passwd@]host[:port]"},
		// C++ symbols as the Itanium ABI mangles them, in a linker error, a symbol file and
		// nm's output: names written as their length then their letters.
		{"mangled symbols in a linker error", "/usr/bin/ld: parser.o: in function `main':\nparser.cpp:(.text+0x4a): undefined reference to `_ZN6parser11token_queue12consume_nextERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE'"},
		{"mangled symbols in a symbol file", "FUNC:_ZNSt8ios_base4InitC1Ev@@GLIBCXX_3.4\nFUNC:_ZNKSt7codecvtIwc11__mbstate_tE9do_lengthERS0_PKcS4_m@@GLIBCXX_3.4"},
		{"mangled operator in nm output", "0000000000002b30 W _ZNSt13unordered_mapIiSt6vectorIdSaIdEESt4hashIiESt8equal_toIiESaISt4pairIKiS2_EEEixERS8_"},
	}
	for _, tc := range kept {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.NotContains(t, out, "[redacted", "in %q", tc.in)
		})
	}
	caught := []struct{ name, in, secret string }{
		{"hex key after a vendor prefix", "export KEY=1 && run sk-1949cf8c6b5b557f1949cf8c6b5b557f", "1949cf8c6b5b557f1949cf8c6b5b557f"},
		{"long hex body beside words", "deploy_token-1949cf8c6b5b557f2a3b4c5d6e7f8091aabbccdd0011 used", "1949cf8c6b5b557f2a3b4c5d6e7f8091aabbccdd0011"},
		{"random run beside a hash", "id Qx7mB2pzR9vL4kWn8cT1yH6j-6f4369831df35eb4 set", "Qx7mB2pzR9vL4kWn8cT1yH6j"},
		{"mixed-case run shaped like a store path", "/nix/store/Q3fzB7aY6R0jcvQ9aP7yyJr2yWv1Z2pV-python3/bin", "Q3fzB7aY6R0jcvQ9aP7yyJr2yWv1Z2pV"},
		{"a hash-named value assigned to a secret", "API_TOKEN=index.crates.io-1949cf8c6b5b557f", "1949cf8c6b5b557f"},
		{"pgpass line", "db.internal:5432:app:deploy:Xy7pass99q", "Xy7pass99q"},
		{"pgpass line with short fields", "10.0.0.5:5432:ab:cd:hunter2pass", "hunter2pass"},
		{"password flag", "mysql_setup --password hunter2x --host db", "hunter2x"},
		{"api key flag", "deploy --api-key=Qx7mB2pzR9vL4kWn", "Qx7mB2pzR9vL4kWn"},
		{"secret flag named for a client", "login --client-secret abc123XYZ789", "abc123XYZ789"},
		{"netrc password of letters", "machine api.example.com login deploy password hardcoded", "hardcoded"},
		{"netrc password after prose", "this machine uses password Zx8kq2pLm9", "Zx8kq2pLm9"},
		{"private key after a public one", `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII3eL1K+hH/lrVbaXkjwZJzJwxmchBNSCOTCM8ErwQjb dev@box` + "\n" + `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACCN3i9SvoR/5a1W2l5I8GScycMZnIQTUgjkwjPBK8EI2wAAAJCdVIY0nVSG
NAAAAAtzc2gtZWQyNTUxOQAAACCN3i9SvoR/5a1W2l5I8GScycMZnIQTUgjkwjPBK8EI2w
AAAEDxEufizy+mXCBdLBZEPwkBZzQNiZTJsfBpirApKL8zMo3eL1K+hH/lrVbaXkjwZJzJ
wxmchBNSCOTCM8ErwQjbAAAAB2RldkBib3gBAgMEBQY=
-----END OPENSSH PRIVATE KEY-----`, "QyNTUxOQAAACCN3i9SvoR/5a"},
		{"random run after ssh-rsa", "ssh-rsa Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"random run on another line than a u2f key", "dev:Hd3Tq0Yk9bWz1Lr5Xc7Vn2Mp8Gs4Jf6Ah0Ue3Io9Py1Ta5Sb7Dc2Ev4Fw6Gx8Hy0Iz,mQ9xT2vR7kL4pZ1wN8cB5yH3jF6gD0sA,es256,+presence\ntoken Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"random run after a public key block", `-----BEGIN PGP PUBLIC KEY BLOCK-----

mDMEaw8JxxYJKwYBBAHaRw8BAQdAUo1eA6HQADJYHbxHgl1cz6QNUKlmtdKnkoud
oXSdZK20GURldiBCb3ggPGRldkBib3guaW52YWxpZD6IkAQTFggAOBYhBKiO5TkX
1W1r9G6YZEExivwjEv3sBQJrDwnHAhsDBQsJCAcCBhUKCQgLAgQWAgMBAh4BAheA
AAoJEEExivwjEv3sllsA/R7+WAE2xPmlRYEifB5/O53geCPsOt09deFlhtncFRYc
AQCyqQT/R9K58M5jWci/fKYOMcDbMvs3eIrMZdbDnO1GAQ==
=CEd3
-----END PGP PUBLIC KEY BLOCK-----` + "\n\ntoken Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"random file name beside a uuid one", "keys/Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts.pem and keys/034f02b8-1fdf-4197-b597-050b7caac6f5.pem", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"random run with slashes and a dot", "key aB3xY9pQ/7kLm2Nz.Qw8/Rt5vXc1Zb4/Yh6Jd0Fg3", "Rt5vXc1Zb4/Yh6Jd0Fg3"},
		{"aws secret with slashes", "aws_secret wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp done", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp"},
		{"license key", "License key: Xk29fQz81LmP", "Xk29fQz81LmP"},
		{"bare key", "key: Xk29fQz81LmP", "Xk29fQz81LmP"},
		{"kubectl creating a secret from a literal", "kubectl create secret generic db --from-literal=password=Zx8kq2pLm9", "Zx8kq2pLm9"},
		{"random path segment beside an arn", "arn:aws:iam::123456789012:role/x /opt/keys/Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a value under a variable's name", "password = variable_pw_Zx8kq2pLm9", "variable_pw_Zx8kq2pLm9"},
		{"a passphrase of words", "JWT_SECRET=correct-horse-battery-staple", "correct-horse-battery-staple"},
		{"pass followed by a value", "PASS: Zx8kq2pLm9!", "Zx8kq2pLm9!"},
		{"random base64 in a json field", `"blob": "i+oGwodM+qTdF7LYQoRd6CpbxTmIiseAVKI5nM/J/MLaMc490Wa9zTozhH5buwf9B8pHeEIxsZr0WHLO77n8WfT5XRQ4Gjp4MlY0e5/85pzXAHrop1jMpBXV"`, "i+oGwodM+qTdF7LYQoRd6CpbxTmIiseAVKI5nM/J"},
		{"gzip in base64", `echo "H4sIAKke6GPItsAzeuMtb8qiVRbN8vi4ZXZmvvIVuSgr/iAHJpfnd86nJZzTmPp5qO9ZJ4yMIQUDzPi5phqGv+8jb/zfMdPfNgdANkqAPcOWU0KLa9UhD+i9WuV1qQ==" | base64 -d | gunzip`, "6GPItsAzeuMtb8qiVRbN8vi4ZXZmvvIVuSgr/iAH"},
		{"random base64 after an image line", "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAA00lEQVR4nAHIADf/AFLyJmWmDBLS\n\nkey i+oGwodM+qTdF7LYQoRd6CpbxTmIiseAVKI5nM/J/MLaMc490Wa9zTozhH5buwf9B8pHeEIxsZr0WHLO77n8WfT5XRQ4Gjp4MlY0e5/85pzXAHrop1jMpBXV", "i+oGwodM+qTdF7LYQoRd6CpbxTmIiseAVKI5nM/J"},
		{"a secret id", `"secret_id": "Xk9QmDvV4Rfq3tC7bLpWsZ2N"`, "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"a client id", `"client_id": "Xk9QmDvV4Rfq3tC7bLpWsZ2N"`, "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"a bare id", `{"id": "Xk9QmDvV4Rfq3tC7bLpWsZ2N", "object": "api_key"}`, "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"a session id", `"session_id": "Xk9QmDvV4Rfq3tC7bLpWsZ2N"`, "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"a random value beside an id", `"id": 42, "data": "Xk9QmDvV4Rfq3tC7bLpWsZ2N"`, "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"a vendor token on a platform", "sk-ant-api03-Xk9QmDvV4Rfq3tC7bLpWsZ2NXk9QmDvV4Rfq3tC7bLpWsZ2NXk9QmDvV4Rfq3tC7bLpWsZ2NXk9QmDvV4Rfq3tC7b-AAAA", "Xk9QmDvV4Rfq3tC7bLpWsZ2NXk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"an arrow assignment", "$config->password = 'Zx8kq2pLm9';\n$token -> 'Qx7mB2pzR9vL'", "Zx8kq2pLm9"},
		{"random segment of another url", "https://files.example.com/download/Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts/app.zip", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"password split over literals", "password = (\n    \"Qx7mB2pzR9vL\"\n    \"4kWn8cT1yH6j\"\n)", "4kWn8cT1yH6j"},
		{"url with credentials under a secret name", "password: \"https://deploy:Zx8kq2pLm9@git.example.com\"", "Zx8kq2pLm9"},
		{"a credential header beside request ids", "x-amz-request-id: 4XJ9K2M8N1P3Q5R7\nx-amz-security-token: Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"an api key header of a cloud", "x-goog-api-key: Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a random run under a header that is no id's", "x-upload-blob: Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a credential header's value", "X-Auth-Token: Qx7mB2pz9", "Qx7mB2pz9"},
		{"a facebook token standing alone", "FB_TOKEN=EAAAQx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsQx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a secret split beside a source list", "csp = \"'self' 'unsafe-inline'\"\npassword = (\n    \"Qx7mB2pzR9vL\"\n    \"4kWn8cT1yH6j\"\n)", "4kWn8cT1yH6j"},
		{"a random quoted run that is no nonce", "script_token = 'noncE-Xk9QmDvV4Rfq3tC7bLpWsZ2N'", "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"pgpass line echoed into its file", `{"command":"echo 'db.acme.io:5432:orders:orders_rw:Qx7mB2pzR9vL' >> ~/.pgpass && chmod 600 ~/.pgpass"}`, "Qx7mB2pzR9vL"},
		{"pgpass line as a json value", `{"PGPASS": "db.acme.io:5432:app:deploy:Xy7pass99q", "x": 1}`, "Xy7pass99q"},
		{"a url under a secret's name on a documentation host", `{"webhook_secret": "https://hooks.example.com/in/Xk9QmDvV4Rfq3tC7"}`, "Xk9QmDvV4Rfq3tC7"},
		{"a session token in a cookie", "Set-Cookie: sid=sess_2Wq8Z1nX4cV7bN0mL3kJ6hG9fD2sA5pO; Path=/; HttpOnly", "2Wq8Z1nX4cV7bN0mL3kJ6hG9fD2sA5pO"},
		{"a session token in a json member", `{"session": "sess_2Wq8Z1nX4cV7bN0mL3kJ6hG9fD2sA5pO"}`, "2Wq8Z1nX4cV7bN0mL3kJ6hG9fD2sA5pO"},
		{"a whole jwt after a bearer", "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rf", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a token compared with a literal", "if token == 'Qx7mB2pzR9vL4kWn8cT1':", "Qx7mB2pzR9vL4kWn8cT1"},
		{"a jwt's header and claims without its signature", "GET /cb?a=1&eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyMTIzIn0&b=2 200 OK", "eyJzdWIiOiJ1c2VyMTIzIn0"},
		{"a password under the name PWD", "PWD=Zx8kq2pLm9!", "Zx8kq2pLm9!"},
		{"a default in a parameter expansion", `curl -H "X-Token: ${API_TOKEN:-Qx7mB2pzR9vL4kWn8cT1}" https://api.acme.io`, "Qx7mB2pzR9vL4kWn8cT1"},
		{"a secret after a file's name", "secrets.env:3:API_KEY=Qx7mB2pzR9vL4kWn8cT1", "Qx7mB2pzR9vL4kWn8cT1"},
		{"a random segment in a rooted path", "ls /var/keys/Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a private key after a certificate", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUXk9QmDvV4Rfq3tC7bLpWsZ2NQx4wCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBq7Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1oAoGCCqGSM49\n-----END EC PRIVATE KEY-----", "MHcCAQEEIBq7Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"a pkce verifier", `"code_verifier": "dBjftJeZ4CVPmB92K27uhbUJU1p1rwW1gFWFOEjXk"`, "dBjftJeZ4CVPmB92K27uhbUJU1p1rwW1gFWFOEjXk"},
		{"a password under a password key's name", "adminPasswordKey: Zx8kq2pLm9!", "Zx8kq2pLm9!"},
		{"an existing password", "existing_password = 'Zx8kq2pLm9!'", "Zx8kq2pLm9!"},
		{"a version with more in it", `password = "3.0.1a9Zx"`, "3.0.1a9Zx"},
		{"a secret beside a request id label", "Request ID: 4XJ9K2M8N1P3Q5R7; Secret Access Key: Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a host with a generated label", "482910573621-x7k2m9qwz4rt8vb1np5sd3fg6hj0lc2e.apps.googleusercontent.com", "x7k2m9qwz4rt8vb1np5sd3fg6hj0lc2e"},
		{"a stripe secret key beside a publishable one", "STRIPE_PUBLISHABLE_KEY=pk_test_TYooMQauvdEDq54NiTphI7jx\nSTRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"},
		{"a stripe restricted key", "rk_live_51HXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "51HXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz"},
		{"a courier key, upper case", "COURIER_AUTH_TOKEN=pk_prod_Q7ZK3R8DPWN2X4HVBQY5MGCS7L1A", "Q7ZK3R8DPWN2X4HVBQY5MGCS7L1A"},
		{"a courier key without its name", "send(pk_test_Q7ZK3R8DPWN2X4HVBQY5MGCS7L1A)", "Q7ZK3R8DPWN2X4HVBQY5MGCS7L1A"},
		{"a password after pass and an account", "user admin pass 'Zx8kq2pLm9!'", "Zx8kq2pLm9!"},
		{"an account in a parenthesis and its password", "10.0.0.5 (root) Zx8kq2pLm9!", "Zx8kq2pLm9!"},
		{"a vendor's key beside an id header", "anthropic-organization-id: 3f1c5a0e-3a9d-4c44-b597-050b7caac6f5\ncloudsmith: 3f9c2b1a7d4b9c8e0f1a2b3c4d5e6f7a8b9c0d1e", "3f9c2b1a7d4b9c8e0f1a2b3c4d5e6f7a8b9c0d1e"},
		{"a secret with colons under an upper-case name", `SECRET = "Zx8kq::pLm9Q"`, "Zx8kq::pLm9Q"},
		{"a password inside a terraform block", "resource \"aws_db_instance\" \"main\" {\n  password = \"Zx8kq2pLm9!\"\n}", "Zx8kq2pLm9!"},
		{"a random value that opens with a slash", `password = "/a1B2c3/D4e5F6g7H8"`, "D4e5F6g7H8"},
		{"a password typed as a string's value", "const password: string = 'Zx8kq2pLm9!';", "Zx8kq2pLm9!"},
		{"a private key in a kubeconfig", "users:\n- user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJrVENDQVRlZ0F3SUJBZ0lJWGs5UW1EdlY0UmZxM3RDN2JMcFdzWjJOUXg3\n    client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUJxN1hrOVFtRHZWNFJmcTN0QzdiTHBXc1oyTlF4N21CMnB6Ujl2TA==", "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVF"},
		{"a private json web key", `{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc","e":"AQAB","d":"X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH-HLLKD9M7dx5oo7GURknchnrRweUkC7hT5fJLM0WbFAKNLWY2vv7B6NqXSzUvxT0_YSfqijwp3RTzlBaCxWp4doFk5N2o8Gy_nHNKroADIkJ46pRUohsXywbReAdYaMwFs9tv8d_cPVY3i07a3t8MN6TNwm0dSawm9v47UiCl3Sk5ZiG7xojPLu4sbg1U2jx4IBTNBznbJSzFHK66jT8bgkuqsk0GjskDJk19Z4qwjwbsnn4j2WBii3RL-Us2lGVkY8fkFzme1z0HbIkfz0Y6mqnOYtqc0X4jfcKoAC8Q"}`, "X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoV"},
		{"a gradle store password", "signingConfigs { release { storePassword \"Zx8kq2pLm9!\"\n keyPassword \"Qx7mB2pz9!\" } }", "Zx8kq2pLm9!"},
		{"a password digest header's secret neighbour", "Content-Digest: sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:\nX-Api-Key: Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"a session cookie beside an analytics one", "Cookie: _ga=GA1.2.1234567890.1717405964; session=Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn8cT1yH6j"},
		{"a token beside a page token", `{"nextPageToken": "CgwIARIIZXhhbXBsZRgB", "access_token": "Qx7mB2pzR9vL4kWn8cT1yH6j"}`, "Qx7mB2pzR9vL4kWn8cT1yH6j"},
		{"an opaque key on another host", `"src": "https://files.acme.io/a/ACg8ocJXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1yH6j=s96-c"`, "Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz"},
		{"a signature in an image url's query", "https://lh3.googleusercontent.com/a/ACg8oc?sig=Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1yH6j", "Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz"},
		{"a token literal concatenated after its label", `print("token: " + "Qx7mB2pzR9vL4kWn8cT1")`, "Qx7mB2pzR9vL4kWn8cT1"},
		{"a list of keys", `API_KEYS = ["Qx7mB2pzR9vL4kWn8cT1", "Zx8kq2pLm9QmDvV4Rf3t"]`, "Qx7mB2pzR9vL4kWn8cT1"},
		{"a secret after kubectl's reference", "<set to the key 'token' in secret 'api'>\nsecret 'Zx8kq2pLm9!'", "Zx8kq2pLm9!"},
		{"base64 of an account and its password", `{"id":"VXNlcjoxMjM0NTY3ODkw","auth":"ZGVwbG95Olp4OGtxMnBMbTlRbUR2VjQ="}`, "ZGVwbG95Olp4OGtxMnBMbTlRbUR2VjQ="},
		{"basic credentials of a type-like user", "Authorization: Basic VXNlcjpaeDhrcTJwTG05IQ==", "VXNlcjpaeDhrcTJwTG05IQ=="},
		{"a secret after a secret flag", "gcloud secrets create app --secret=Zx8kq2pLm9Qm --data-file=-", "Zx8kq2pLm9Qm"},
		{"a generated value of words and digits after a flag", "deploy --token=api-token-3f9c2b1a7d4b", "api-token-3f9c2b1a7d4b"},
		{"pgpass file", "$ cat ~/.pgpass\nlocalhost:5432:*:postgres:s3cr3tPa55\n*:*:*:replicator:Rep1icaPa55", "s3cr3tPa55"},
		{"a random run before a parenthesis", "token (Xk29fQz81LmPq7RwT3yH) expires soon", "Xk29fQz81LmPq7RwT3yH"},
		{"a random run after a closing brace", "} Xk29fQz81LmPq7RwT3yH;", "Xk29fQz81LmPq7RwT3yH"},
		{"a client secret in an xml element", "<ClientSecret>Rk7Lq2Zx9Mv4Tb1Wn8Yc3Hp6Jd5Ea0Fs2Gu7Iv9Ko4Q=</ClientSecret>", "Rk7Lq2Zx9Mv4Tb1Wn8Yc3Hp6Jd5Ea0Fs2Gu7Iv9Ko4Q="},
		{"a generated value of a media type parameter", "const type = new MIMEType('application/json;key=Xk29fQz81LmPq7RwT3yH');", "Xk29fQz81LmPq7RwT3yH"},
		{"a generated password in brackets", "  proxy = http://[deploy:Zx8kq2pLm9@]proxy.local", "Zx8kq2pLm9"},
		{"a password in a cvs pserver root", "  cvs -d cvs://:pserver:guest:Zx8kq2pLm9@cvs.example.org:/cvsroot/tools checkout tools", "Zx8kq2pLm9"},
		{"a url-safe token that opens like a mangled symbol", "SESSION=_ZN7kQx2mB9pzR4vL8wT3yH6jPq1Zr5TsXk9", "_ZN7kQx2mB9pzR4vL8wT3yH6jPq1Zr5TsXk9"},
		{"a password with a # in a logged url", "Connecting to http://catalog.example.com:8080/login.do?userName=Morbotron&userPassword=K#2asdfu!23%%x", "2asdfu!23"},
		{"a passcode header", "x-sonar-passcode: sonarpass789", "sonarpass789"},
		{"a secret under a config object's name", `config.secret_key = "Zx8kq2pLm9Qw"`, "Zx8kq2pLm9Qw"},
		{"a secret's username and password", "apiVersion: v1\nkind: Secret\nstringData:\n  username: \"deployer\"\n  password: \"Zx8kq2pLm9Qw\"", "Zx8kq2pLm9Qw"},
		{"a generated token in a bracketed note", "export DO_API_TOKEN=[Zx8kq2pLm9Qw here]", "Zx8kq2pLm9Qw"},
		{"a random value after a scheme and a template", `API_KEY: "Bearer Zx8kq2pLm9Qw7Rt{{x}}"`, "Zx8kq2pLm9Qw7Rt"},
		{"a token assigned to a bracketed index", `env[API_KEY] = "Zx8kq2pLm9Qw"`, "Zx8kq2pLm9Qw"},
		{"a random run after a dependency's name", "./cache/git/window_manager-Zx8kq2pLm9QwRt4Yu1Io0PaSdFgHjKlZx8kq2pL/.github", "Zx8kq2pLm9QwRt4Yu1Io0PaSd"},
		{"a token in a link reference's fragment", "[deploy-token]: https://ci.example.com/hooks#Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"a password glued to a variable", `val auth = "$username:Zx8kq2pLm9Qw"`, "Zx8kq2pLm9Qw"},
		{"a password of symbols", `PASSWORD = "!@#$%^&*()Zx8kq2"`, "!@#$%^&*()Zx8kq2"},
		{"a password after a tls password flag", "curl --tlspassword Zx8kq2pLm9 --tlsuser user https://example.com", "Zx8kq2pLm9"},
		{"a user's password after a flag", "curl --proxy-user deploy:Zx8kq2pLm9 -x proxy https://example.com", "Zx8kq2pLm9"},
		{"a random value and a note", "- Password: Zx8kq2pLm9Qw (see .env)", "Zx8kq2pLm9Qw"},
		{"a random run after a forge's host", "https://github.com/Zx8kq2pLm9Qw7Rt4Yu1Io0PaSdFgHjKlZx8kq2pLm9Qw/x/y", "Zx8kq2pLm9Qw7Rt4Yu1Io0PaSdFgHjKl"},
		{"a password in a tuple row", `rows = ("alice", "admin", "password", "Xk9mQ2vpL77")`, "Xk9mQ2vpL77"},
		{"a password field's own value", `<input type="password" name="password" value="Zx8kq2pLm9Qw">`, "Zx8kq2pLm9Qw"},
		{"a secret in a configuration element", "<property><name>fs.s3a.secret.key</name><value>Zx8kq2pLm9QwRt4Yu1Io</value></property>", "Zx8kq2pLm9QwRt4Yu1Io"},
		{"a bytes literal with escapes", `app.secret_key = b'Zx8kq2pLm9\n\xecQw7Rt4'`, "Qw7Rt4"},
		{"a password with parentheses in a connection string", `"db": "Host=localhost;Username=postgres;Password=Zx8k(q2)pLm9Qw"`, "pLm9Qw"},
		{"an npm password setting", "//registry.npmjs.org/:_password=Wng4a3EycExtOVF3", "Wng4a3EycExtOVF3"},
		{"a token in a link's query", "see [the docs](https://x.test/cb?token=Zx8kq2pLm9Qw7R) for more", "Zx8kq2pLm9Qw7R"},
		{"a quoted mysql password with a blank", "mysql -u root -p'Zx8k q2pLm9Qw' db", "q2pLm9Qw"},
		{"a percent-encoded @ in a URL's password", "git clone https://bob:Zx8k%40q2pLm9Qw@github.com/x/y", "q2pLm9Qw"},
		{"a quoted sshpass password with a blank", "sshpass -p 'Zx8k q2pLm9Qw' ssh bob@host", "q2pLm9Qw"},
		{"a quoted redis password with a blank", "redis-cli -a 'Zx8k q2pLm9Qw' ping", "q2pLm9Qw"},
		{"a quoted htpasswd password with a blank", "htpasswd -b .htpasswd bob 'Zx8k q2pLm9Qw'", "q2pLm9Qw"},
		{"openssl enc's pass phrase", "openssl enc -aes-256-cbc -k 'Zx8k q2pLm9Qw' -in a -out b", "Zx8k q2pLm9Qw"},
		{"a properties value with a blank", "spring.datasource.url=jdbc:postgresql://db/app\ndb.password=Zx8k q2pLm9QwRt4Y\n", "q2pLm9QwRt4Y"},
		{"a table cell's password with a blank", "| DB_PASSWORD | Zx8k q2pLm9QwRt4Y |", "q2pLm9QwRt4Y"},
		{"cmd.exe's set with a blank", "set API_TOKEN=Zx8kq2pL m9QwRt4Y", "m9QwRt4Y"},
		{"a URL password with a slash", "DATABASE_URL=postgres://bob:Zx8k/q2pLm9Qw@db:5432/app", "q2pLm9Qw"},
		{"a password in a CDATA section", "<password><![CDATA[Zx8k<q2pLm9QwRt]]></password>", "q2pLm9QwRt"},
		{"a random scoped name", `api_key: "@Zx8kq2pLm9/Qw7Rt4Yu1Io"`, "Zx8kq2pLm9"},
		{"a quoted NAME=value argument with a blank", `docker run -e "DB_PASSWORD=Zx8k q2pLm9QwRt" app`, "q2pLm9QwRt"},
		{"a quoted terraform variable with a blank", "terraform apply -var 'db_password=Zx8k q2pLm9QwRt'", "q2pLm9QwRt"},
		{"a password literal inside a template action", `{{ include "x" (dict "password" "Zx8kq2pLm9Qw" "context" $) }}`, "Zx8kq2pLm9Qw"},
		{"a pass phrase quoted after openssl's pass:", `openssl pkcs12 -export -passout pass:"Zx8kq2pLm9!" -out a.p12`, "Zx8kq2pLm9!"},
		{"a secret's data after another document", "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: WnhoOGtxMnBMbTk=", "WnhoOGtxMnBMbTk="},
		{"a secret's data in a list", "items:\n- apiVersion: v1\n  kind: Secret\n  data:\n    password: WnhoOGtxMnBMbTk=", "WnhoOGtxMnBMbTk="},
		{"a random lower-case secret under a config object", `config.jwt.secret: "shhkllgwlujmfsqz"`, "shhkllgwlujmfsqz"},
		{"a password after a user in a code span", "add `--user root:Zx8kq2pLm9` to the commands", "Zx8kq2pLm9"},
		{"a random run after a mangled symbol's prefix", "undefined reference to `_ZN7kQx2mB9pzR4vL8wT3yH6jPq1Zr5TsXk9'", "_ZN7kQx2mB9pzR4vL8wT3yH6jPq1Zr5TsXk9"},
	}
	for _, tc := range caught {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.NotContains(t, out, tc.secret, "in %q", tc.in)
			require.True(t, strings.Contains(out, "[redacted:"), out)
		})
	}
}

// A secret inside a URL is masked alone: the URL keeps its scheme, host and path.
func TestSafeShapesURLKeepsHost(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tc := range []struct{ in, secret string }{
		{"git clone https://ghp_Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL@github.com/acme/app.git", "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"https://Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz@sentry.io/123", "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"see https://s3.amazonaws.com/bucket/key?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLF&Signature=Xk9QmDvV4Rfq3tC7bLpWsZ2N%2BQx7&Expires=1712345678 ok", "Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"curl 'https://api.example.com/v1/items?q=a%20b&api_key=Qx7mB2pzR9vL4kWn8cT1yH6j%2FPq3Zr5Ts'", "Qx7mB2pzR9vL4kWn8cT1yH6j"},
		{"git clone https://bob:Zx8k%40q2pLm9Qw@github.com/x/y", "q2pLm9Qw"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
		require.NotContains(t, out, tc.secret, "in %q", tc.in)
		// What is left of the URL: its scheme and // and, after the user part, its host.
		url := tc.in[strings.Index(tc.in, "https://"):]
		if at := strings.IndexByte(url, '@'); at >= 0 {
			url = url[at:]
		} else {
			url = url[:strings.IndexByte(url, '?')]
		}
		require.Contains(t, out, "https://", "in %q", tc.in)
		require.Contains(t, out, url[:strings.IndexAny(url[1:], "/?")+1], "in %q", tc.in)
	}
}

func TestHashNamed(t *testing.T) {
	t.Parallel()
	for tok, want := range map[string]bool{
		"index.crates.io-1949cf8c6b5b557f":                true,
		"blocky_cosmic_iced-6f4369831df35eb4.d":           true,
		"q3fzb7ay6r0jcvq9ap7yyjr2ywv1z2pv-python3-3.11.6": true,
		"sk-1949cf8c6b5b557f1949cf8c6b5b557f":             false, // 32 hex: a key's body
		"1949cf8c6b5b557f":                                false, // a hash alone is isHex's
		"Qx7mB2pzR9vL4kWn8cT1yH6j-6f4369831df35eb4":       false,
		"e3fzb7ay6r0jcvq9ap7yyjr2ywv1z2pv-python3":        false, // e is no Nix base32 digit
		"ab-6f4369831df35eb4":                             false, // no word beside the hash
		"build-6f4369831df35eb4-6f4369831df35eb4":         false, // two hashes
		"release-v1.2.3-6f4369831df35eb4-linux-amd64.tar": true,
	} {
		require.Equal(t, want, hashNamed(tok), tok)
	}
}

// An account name learned from a home directory is masked however it is capitalised; a longer
// word holding it is not.
func TestAccountSpellings(t *testing.T) {
	t.Parallel()
	ss := testSanitizer(t).NewSession(SessionHints{WorkspaceRoots: []string{"/home/mischa"}})
	out := ss.SanitizeText("the user, Mischa, should run `sudo passwd mischa`; key comment MISCHA? mischa@legion; Mischanko stays")
	require.Equal(t, "the user, [user], should run `sudo passwd [user]`; key comment MISCHA? [user]@legion; Mischanko stays", out)
	require.Equal(t, []string{"Mischa", "mischa"}, accountSpellings("Mischa", nil))
	require.Equal(t, []string{"Mischa"}, accountSpellings("mischa", []string{"mischa"}))
}

// TestSeenRandomNamedID: a random string masked for its looks alone is not masked again
// where a later text names it an id (a voice's id the first text held in an "id" member), and
// a name ending in ID is no key; a session's id and a value found by its name stay masked.
func TestSeenRandomNamedID(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{})
	require.Contains(t, ss.SanitizeText(`{"id": "qZ7K2LmN9TvXc4RbWd8P"}`), "[redacted:")
	for _, in := range []string{"ELEVENLABS_VOICE_ID=qZ7K2LmN9TvXc4RbWd8P  # Jarvis", "**Voice ID:** `qZ7K2LmN9TvXc4RbWd8P`", `voice_id: "qZ7K2LmN9TvXc4RbWd8P",`} {
		require.Equal(t, in, ss.SanitizeText(in))
	}
	require.NotContains(t, ss.SanitizeText(`session_id: "qZ7K2LmN9TvXc4RbWd8P"`), "qZ7K2LmN")
	ss = san.NewSession(SessionHints{})
	require.Contains(t, ss.SanitizeText("api_key = 'Wk3nB8cY1dF6Xk9mQ2vL'"), "[redacted:")
	require.NotContains(t, ss.SanitizeText("PROJECT_ID=Wk3nB8cY1dF6Xk9mQ2vL"), "Wk3nB8cY")
}

// TestArmorTailsAndSystemFiles: a certificate bundle or a PGP key read from its middle (a
// pager's second page, output cut at its head) is public up to its END line; a private key
// read the same way is not. Lines of system files that name a credential and hold none.
func TestArmorTailsAndSystemFiles(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		"Ljpj4X0v1n1bJ9ZMbHhHHrL2o7d9eGXPgT2GrHXqb0kRAhX1kb+SzELvjA1v3X1b\ncCOGDErcgdLMMpSEDQgJlxxPwO5rIHQw0uA5NBCFIRUBCOhVMt5xSdkoF1BN5r5N\n0XWs0Mr7QbhDparTwwVETyw2m+L64kW4I1NsBm9nVX9GtUw/bihaeSbSpKhil9Ie\n-----END CERTIFICATE-----\n",
		"-----BEGIN PGP SIGNATURE-----\n\niQIzBAABCAAdFiEEb9Kx7cZ3lV9mN1Pq2RrT8aW4uY0FAmXk9QmACgkQ2RrT8aW4\nuY0Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB\n=Ab3d\n-----END PGP SIGNATURE-----",
		"passwd:         files systemd\ngroup:          files systemd\nshadow:         files\ngshadow:        files",
		"root:*:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::",
		"private_key\t= $dir/private/cakey.pem\t# The private key",
		"You should either specify username/password OR privateKey/passphrase, since these pairings are used together.",
		"Get:7 http://deb.debian.org/debian-security bookworm-security/main amd64 libssl3 amd64 3.0.16-1~deb12u1 [2026 kB]\n  pool/main/o/openssl/libssl3_3.0.16-1~deb12u1+b1_amd64.deb\n cc6cad005b35fb93db78eeaa4a0d13 627 main/installer-mips64el/20230607+deb12u15/images/MD5SUMS",
		"2026-12-05 22:58:47 install libsecret-1-0:amd64 <none> 0.20.5-3\nUnpacking passwd:amd64 (1:4.13+dfsg1-1) ...\nii  libsecret-1-0:amd64   0.20.5-3   amd64   Secret store",
	)
	requireMasked(t, san, []maskedRow{
		{"Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pz\nMHcCAQEEIBq7Xk9QmDvV4Rfq3tC7bLpWsZ2NQx7mB2pzR9vL4kWn8cT1oAoGCCqGSM49\n-----END EC PRIVATE KEY-----", "MHcCAQEEIBq7Xk9QmDvV4Rfq3tC7bLpWsZ2N"},
		{"passwd: Zx8kq2pLm9!Qw", "Zx8kq2pLm9!Qw"},
		{"alice:$6$Qx7mB2pz$R9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rfq3tC7bLpWsZ2N:19000:0:99999:7:::\ndb.internal:5432:app:deploy:Zx8kq2pLm9Qw", "Zx8kq2pLm9Qw"},
		{"alice:$6$Qx7mB2pz$R9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rfq3tC7bLpWsZ2N:19000:0:99999:7:::", "R9vL4kWn8cT1yH6jPq3Zr5Ts"},
		{"token:amd64Zx8kq2pLm9Qw", "amd64Zx8kq2pLm9Qw"},
		{"main/Qx7mB2pz+R9vL4kWn8cT1/yH6jPq3Zr5Ts", "R9vL4kWn8cT1"},
		{"password\t= Xk4mR9qLw2zP\t# the admin's", "Xk4mR9qLw2zP"},
		{"login: admin/Xy7pass99q or user/password admin/Pa55word7", "Pa55word7"},
	})
}

// An image embedded in an SVG as a data: URI, its base64 wrapped at 76 columns as editors
// write it, is the image's bytes however far its lines run from the URI's head (past the
// 8 KB a wrapped block is traced back); a token after the URI's closing quote is still one.
func TestWrappedDataURI(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 240*57)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	enc := base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), b...))
	var lines []string
	for len(enc) > 76 {
		lines = append(lines, enc[:76])
		enc = enc[76:]
	}
	lines = append(lines, enc)
	in := "<svg>\n  <image width=\"200\" height=\"200\"\n    href=\"data:image/png;base64," + strings.Join(lines, "\n") + "\" />\n</svg>\n"
	san := testSanitizer(t)
	out := san.NewSession(SessionHints{}).SanitizeText(in)
	require.NotContains(t, out, "[redacted")
	// A line of such a payload read from its middle, its head in another text: binary once
	// decoded, it is an image's bytes too.
	mid := strings.Join(lines[100:], "")
	require.NotContains(t, san.NewSession(SessionHints{}).SanitizeText(mid[3:]), "[redacted")
	token := "ghp_Zx8kq2pLm9Qw7Rt4Yu1Io0PaSdFgHjKlZx8k"
	out = san.NewSession(SessionHints{}).SanitizeText(in + "<!-- deploy token: " + token + " -->\n")
	require.NotContains(t, out, token)
}
