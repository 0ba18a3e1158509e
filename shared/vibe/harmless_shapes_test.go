package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHarmlessShapes: constructs of code and build files that sit under a credential's name
// and hold none, each beside a credential of the same construct that is still masked.
func TestHarmlessShapes(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	kept := []struct{ name, in string }{
		// protoc-gen-go struct tags: a wire type, the field's number, its options.
		{"protobuf map tag", "\tLabels map[string]string `protobuf:\"bytes,4,rep,name=labels,proto3\" json:\"labels,omitempty\" protobuf_key:\"bytes,1,opt,name=key,proto3\" protobuf_val:\"bytes,2,opt,name=value,proto3\"`"},
		{"protobuf varint key", "\tCounters map[uint32]int64 `protobuf:\"bytes,7,rep,name=counters\" protobuf_key:\"varint,1,opt,name=key\" protobuf_val:\"varint,2,opt,name=value\"`"},
		{"protobuf fixed64 key", "Weights map[uint64]float32 `protobuf_key:\"fixed64,1,opt,name=key,proto3\" protobuf_val:\"fixed32,2,opt,name=value,proto3\"`"},
		// kubectl's config subcommands name an entry, not a value.
		{"kubectl set-credentials", "kubectl config set-credentials cluster-admin --client-certificate=admin.crt --client-key=admin.key"},
		// TypeScript, Python and CI code of example projects (vercel/examples).
		{"cast environment read", "  personalApiKey: process.env.POSTHOG_PERSONAL_API_KEY as string,\n  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY as string,"},
		{"variable named for a secret", "  if (newPassword) customer.password = newPassword;"},
		{"types in a type literal", "  event: React.FormEvent<HTMLFormElement & {password: HTMLInputElement}>,\n  const {data} = await queryShop<{customerAccessTokenCreate: any}>({"},
		{"keyword argument of its own name", "    async for chunk in run_agent_flow(payload, run_id, oidc_token=oidc_token):"},
		{"constant the key is kept in", "const res = await statsig('/console/v1/gates', { apiKey: STATSIG_CONSOLE_API_KEY })"},
		{"reusable workflow's secrets", "jobs:\n  deploy:\n    uses: ./.github/workflows/deploy.yml\n    secrets: inherit"},
		{"a key's format string", `JOB_KEY = "job:{}"`},
		{"a utility class after a vendor's name", `className="opacity-0 hover:opacity-100 transition-all ease-linear duration-200"`},
		{"vercel project id", "        env:\n          VERCEL_PROJECT_ID: prj_D1Kp06w4jE67wyV3WlMHjtfDLjhC"},
		{"svg path data", `<path d="M0 23V1h7.8C15.35 1 19 5.714 19 12.031 19 18.317 15.35 23 7.8 23H0zm4-4h2.87c5.124 0 7.13-3 7.13-6.969C14 8.062 11.994 5 6.87 5H4v14z"/>`},
		// Names and constants of code under a credential's name (Go's x/crypto, Perl's corelist).
		{"module corelist upstream", "    'CPAN::HTTP::Credentials'=> 'cpan',\n    'Test2::Event::Pass'    => 'blead',"},
		{"ssh algorithm names", "\tKeyAlgoECDSA256    = \"ecdsa-sha2-nistp256\"\n\tInsecureKeyExchangeDH1SHA1   = \"diffie-hellman-group1-sha1\""},
		{"a scheme joined onto a value", "\tTokenLookup:    \"header:\" + echo.HeaderXCSRFToken,\n\tdsn := \"file:\" + filepath.Join(dir, \"db\")"},
		{"a format's magic string", `const privateKeyAuthMagic = "openssh-key-v1\x00"`},
		{"a reversed domain name", `var masterPasswordSeed = "com.lyndir.masterpassword"`},
		// TypeScript's non-null assertions after the path a secret is read from.
		{"non-null environment reads", "const client = new OpenAI({\n  apiKey: process.env.OPENAI_API_KEY!,\n  secret: import.meta.env.VITE_JWT_SECRET!,\n})"},
		{"non-null members", "password: config.db.password!,\nlet token = session!.accessToken!;\nconst bearer = req.headers.authorization!.split(\" \")[1];"},
		// Translation files: the words for a credential in another language under its name.
		{"translation json", `{"add_token": "Lisää tunnus", "password": "Salasana", "api_key": "API-avain", "secret": "Salaisuus"}`},
		{"translation properties", "auth.password=Mot de passe\nauth.token=Jeton\nauth.secret=Clé secrète"},
		{"translation yaml", "password: Passwort\ntoken: Token\nsecret_key: Geheimer Schlüssel"},
		{"android string resources", "<string name=\"password\">Passwort</string>\n<string name=\"api_key\">API-Schlüssel</string>"},
		{"apple strings file", "\"Add Token\" = \"Pievienot pilnvaru\";\n\"Secret Key\" = \"Slepenā atslēga\";"},
		{"cjk labels", `{"password": "密码", "token": "令牌", "secret_key": "비밀 키"}`},
		// A parameter's type, a name of words with a digit among them.
		{"parameter type with a digit", "export function check(\n  code: string,\n  secret: Hex32SecretKey,\n  opts: CheckOptions\n): boolean {"},
		// A credential's word glued to one that says what about it the name holds.
		{"glued secret path", `    if secretpath.endswith(".enc"):`},
		{"glued secret name", `secretname = "payments-db-creds"`},
		// A scheme's name under a key's constant.
		{"scheme name under a key constant", `    static final String SSO_TOKEN_KEY = "oauth2";`},
		// The name of the variable a secret is read from, under a name that says so.
		{"variable name under an ENV_VAR_ prefix", `ENV_VAR_DEPLOY_TOKEN = 'CI_DEPLOY_TOKEN'`},
		// A query parameter's value ends at the next parameter.
		{"shell variable as a query value", `  url="https://ci.example.com/hook?job=build&token=$token&$extra"`},
		// The algorithm a key is for.
		{"key algorithm compared", `    if host_key_alg != "ecdsa-sha2-nistp256":`},
		// The namespace a secret is kept in.
		{"secret namespace", `  tokenNamespace: kube-system`},
		// A message under its key, a sentence without its full stop.
		{"message under its key", `  "PASSWORD_RESET_FAILED": "We could not reset the password",`},
		{"error message under its code", "\tER_TOKEN_SCOPE_MISSING:   \"Token is missing a scope for this call\","},
		// A realm is the name a login prompt shows.
		{"htpasswd realm", `  -e PROXY_HTPASSWD_REALM="Staging Proxy" \`},
		// Entries of an environment list, each a literal of its own.
		{"environment list entries", "    .withEnv(List.of(\n        \"PROXY_AUTH=htpasswd\",\n        \"PROXY_AUTH_FILE=/auth/htpasswd\",\n        \"PROXY_PORT=5000\"))"},
		// A flag named in a sentence, then the word for what it is.
		{"flags named in prose", "Do not give the cmdlet both the -Account and -Password parameters at once."},
		{"options named in prose", "The --api-token and --token-file options exclude each other."},
		// ASKPASS names the program git or ssh runs to ask for a password.
		{"askpass program", "SSH_ASKPASS=cat ssh-add deploy.pem < pass.txt"},
		{"askpass mount", `docker run -v "$PWD/ask.sh":"$ASKPASS_SH":ro image`},
		// Maven and Gradle coordinates whose group holds a keyword.
		{"gradle coordinate", "    implementation 'io.webtoken:webtoken-api:0.11.2'"},
		{"gradle runtime coordinate", "runtimeOnly \"dev.opensecret:opensecret-jackson:0.9.0\" // or opensecret-gson"},
		{"maven coordinate in prose", "add the `org.webtoken:webtoken-gson` artifact to your build"},
		{"coordinate with classifier", "compile 'com.vaultsecret:vault-api:1.0.3:sources'"},
		{"maven artifact element", "<artifact>org.secretkeeper:keeper-core:1.4</artifact>"},
		// Constants naming the key an entry is looked up by: the word before KEY says what the
		// entry is, the value is an identifier of words and abbreviations.
		{"default key constant", `public static final String CART_DEF_KEY = "_cart";`},
		{"credential default key", `public static final String AUTH_TOKEN_DEF_KEY = "_authToken";`},
		{"property key constant", `private static final String METRICS_PORT_PROPERTY_KEY = "acme.metrics.http.port";`},
		{"environment key constant", `static final String LOG_DIR_ENV_KEY = "ACME_LOG_DIR";`},
		{"application key constant", `public static final String ORDER_APPLICATION_KEY = "orderApplication";`},
		{"jquery data key", `var TOOLTIP_DATA_KEY = 'ui.tooltip';`},
		{"queue key constant", `const RETRY_QUEUE_KEY = "__rtq";`},
		// Messages of a user interface under a credential's name, in any language.
		{"french message with a format verb", `		'joinRoomPassword' : 'La salle "%s" demande un mot de passe.',`},
		{"russian message", `  "PASSWORD_TOO_SHORT": "Пароль слишком короткий",`},
		{"japanese label", `"token_expired" = "トークンの有効期限が切れました";`},
		{"chinese label", `'resetPassword': '重置密码',`},
		{"spanish sentence in ascii", `  "NEW_PASSWORD_REQUIRED": "Por favor, escriba su nueva clave.",`},
		{"polish label", `  userPassword: 'Hasło użytkownika',`},
		{"english template", `api_token_expired = "Token for {account} has expired"`},
		// Names of code under a bare key: camel-case words with short abbreviations.
		{"babel class member key", `u(h,[{key:"getOpenTabID",value:function(){return this._openTabID}},{key:"getLastRowID",value:function(){return 1}}])`},
		{"xcode storyboard modifier mask", `<menuItem title="Copy" keyEquivalent="c" id="x3v-GZ-iWM"><modifierMask key="keyEquivalentModifierMask"/></menuItem>`},
		{"xaml resource key", `<local:BorderThicknessToMarginConverter x:Key="BorderThicknessToMarginConverter" />`},
		{"member name with a word the list lacks", `{key:"getOuterViewNode",value:function(){}},{key:"scrollResponderFlashNativeHandleToKeyboard",value:function(o,n,l){}}`},
		// .NET PublicAPI.Shipped.txt: a constant or enum member, its number, its type.
		{"public api enum member", "Acme.Vault.SecretKind.MasterPassword = 4 -> Acme.Vault.SecretKind"},
		{"public api constant", "const Acme.Crypto.Native.BCRYPT_KEY_DATA_BLOB_MAGIC = 1296188491 -> uint"},
		{"public api status code", "Acme.Native.NtStatus.STATUS_WRONG_PASSWORD = 3221225578 -> Acme.Native.NtStatus"},
		{"public api private magic", "Acme.Crypto.Native.KeyBlobMagic.ECDSA_PRIVATE_P256_MAGIC = 844317509 -> Acme.Crypto.Native.KeyBlobMagic"},
		// Types where a value would stand: TypeScript, Kotlin, Swift, GraphQL.
		{"graphql codegen field", "  stripeToken: Maybe<Scalars['String']>;"},
		{"graphql codegen list", "  apiSecrets: Maybe<Array<Maybe<Scalars['String']>>>;"},
		{"typescript parameter type", "  public async verify(token: string, secret: SigningKey): Promise<boolean> {"},
		{"typescript generic field", "  resetPasswordErrors: Array<FieldError>;"},
		{"graphql schema field", "  password: String! @hidden"},
		{"kotlin nullable field", "    lastToken: Phrase?,"},
		{"typescript array type", "  token_filters: AnalysisTokenFilter[]"},
		// BuildKit secret specifications: where a secret is read from, the id it is mounted as.
		{"buildx secret from a file", "docker buildx build --secret id=npmrc,src=.npmrc -t web ."},
		{"build secret from the environment", "docker build --secret=id=gh,env=GH_TOKEN ."},
		{"secret flag in an argument list", "args.push('--secret', 'id=NPM_TOKEN,src=.npmrc');"},
		// IAM policies' actions: a service's prefix and an API action.
		{"iam actions in a policy", "\"Action\": [\n  \"secretsmanager:GetSecretValue\",\n  \"secretsmanager:DescribeSecret\"\n]"},
		{"iam wildcard actions", "\"Action\": [\n  \"secretsmanager:List*\",\n  \"secretsmanager:Get*\"\n]"},
		{"iam actions named by operation", `    "AdminSetUserPassword": "cognito-idp:AdminSetUserPassword",`},
		// Pygments and prompt_toolkit styles: token types mapped to classes and colours.
		{"prompt toolkit style", `    Token.Toolbar.Status.Pending: "status-toolbar.pending",`},
		{"pygments style colours", `    Token.Menu.Completions.Meta: "bg:#448888 #ffffff",`},
		{"pygments style class", "style = {Token.Output.Header: 'output.header', Token.Output.EvenRow: 'output.even-row'}"},
		// Ruby code under a credential's name: symbols, lambdas.
		{"rspec shared context symbol", `  shared_context "revoked token", token: :revoked do`},
		{"keyword argument symbol", "    fetch_token(params, token_url: url, token_method: :get)"},
		{"stubbed lambda", `      token = ->(_req) { "stub" }`},
		{"lambda matcher", "    match_secret = lambda { |secret|"},
		{"instance variable", "      config.client_secret     = @client_secret"},
		{"instance variable argument", "    Api::Client.new(access_token: @access_token, retries: 3)"},
		// An e-mail address passed where a token is made: the account it is made for.
		{"test token for an account", `	token := newTestToken("ops-admin", "ops@shopco.io")`},
		{"session token for a user", `	sessionToken = issueToken(t, "reader", "reader+qa@corpmail.net")`},
		// Backquoted filters: the value is read from a file or a variable when the line runs.
		{"echo of a variable into awk", "    Passwd=`echo $row|awk '{print $3}'`"},
		{"awk over a host list", "    Passwd=`awk '/'$Host'/{print $3}' hosts.txt`"},
		{"filter pipeline", "DB_APP_PASS=`awk '{print $2}' $ENV_FILE | grep app_pass | cut -d \"=\" -f2`"},
		// Algorithms' names passed beside a key.
		{"mac algorithm beside a key", `  fun hmacSha384(source: Source, key: ByteString) = HashingSource(source, key, "HmacSHA384")`},
		{"jwt algorithm beside a secret", `        $token = $this->provider('secret', 'HS384')->encode($claims);`},
		{"cipher transformation", `    Cipher c = Cipher.getInstance(key, "AES/GCM/NoPadding");`},
		// Kubernetes Secrets holding certificates, named where a chart or a command mounts them.
		{"helm value naming a tls secret", "server:\n  tlsSecret: gateway-server-tls"},
		{"prose then kubectl", "# create the matching secret: ingress-cert\n$ kubectl create secret tls ingress-cert --key=tls.key --cert=tls.crt"},
		{"secret name of a certificate", "      secretName: api-gateway-ssl"},
		// Public keys in DER SubjectPublicKeyInfo, base64 (random bytes behind real headers).
		{"rsa 1024 public key", `String publicKey = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQBBZXT/pkOiEVxenGPf1fewA21Kzb6S8V4bNXJ7w1nAEjf4vQyTuYC/FErM1Rs61czzedSzhI6ZReW/F+hAVRkN79kEkjvZahH2hMHZCFcqgpiHCMT+x/U4EXhPRe2Xvxj4HYQ4wBwRltFztBH9R6AV4zu0bJb8MarhGAtPHiIB4gIDAQAB";`},
		{"rsa 2048 public key", `PUBLIC_KEY = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAODhw4RhMjR6Ma6/9qDdCd/vqoz3ectHvUKZcYqtMfJN8L7vr7YGsn/QTMNidjjCNt7ft8/S632b3FsSQmtTd2eC2it07RSadOVS6LEwk1qfqFB7/wyplReOasWCL3HQCtsL7mQC+ugYRW+Y/X1rO5V1GA7cCfiRf2DT2PRm4ratYQJ0s0GbUYLdjlCM6tnfWt1Xo1hSvl5CZke1DupOtufw3fxm7zhaEFAgrmIs1AIXtSq1jmbq0Moe5Y23n/RZxxb4UtcKCMs/Rit1cJcrn/YGV/bHJKid9ixR/0ixXxY3kjNwgoX/Uf0o5D3A8BAOrUivjvElbUKE3TIZl5VgvmgIDAQAB"`},
		{"ec p-256 public key", `verifyKey: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqaIoKU6fyVGIRb0t6+YGbNet9J6vFdecl1UW6ZNmxj7cW3VxXZvCCelc6Gn16pNAGbqHyd9wWXdnuk+loipFhw=="`},
		// YAML tags whose arguments name where a secret is kept.
		{"custom tag naming a vault path", "    NPM_TOKEN: !var ops/ci-vault/npm-publish-robot/token token"},
		{"custom tag naming a store entry", "  DEPLOY_KEY: !vault_ref infra/deploy_keys/web-01 private"},
		// A YAML key left empty, a comment after it.
		{"header key with a comment", "app-token:  #名称可以自定义"},
		{"api key with an english comment", "x-api-key: # set in the environment"},
		// Values a Windows script computes when it runs.
		{"powershell credential object", `$client.Credentials = new-object System.Net.NetworkCredential($env:REPO_USER, $env:REPO_PASS)`},
		{"cmd random password", "@echo off\nset passwd=%RANDOM%-%RANDOM%"},
		// tape, tap and AVA: t.pass(message).
		{"tape pass assertion", "  server.close(() => t.pass('Stopped'))"},
		{"ava pass assertion", "test('reconnects', t => { client.once('ready', () => t.pass('Reconnected')) })"},
		// A shell expansion's message when a variable is unset.
		{"required variable message", `REGISTRY_PASS="${REGISTRY_PASS:?REGISTRY_PASS is required}"`},
		{"nix escaped expansion message", `NPM_TOKEN="''${NPM_TOKEN:?NPM_TOKEN is missing}"`},
		// The label of a form's submit button, named after the password it sends.
		{"submit button label", `		'joinRoomPasswordSubmit' : 'Unirse a la sala',`},
		{"submit label in english", `  "resetPasswordSubmit": "Save new password",`},
		// A variable of code as an Authorization header's value, closing its brackets.
		{"dart headers map", `var res = await http.get(url, headers: {'Authorization': authz});`},
		{"generated code string", `else if (opts.auth) out += ", headers: {'Authorization': authz}"`},
		// Relative paths to the files that hold a secret.
		{"key file in a fixture", `    "privateKey": "testdata/tls/server/key.pem",`},
		{"creds file next to the config", `  credentials: "./ops.creds"`},
		{"secret file for a build", `    description: "Files to expose to the build (eg. key=filename, NPM_SECRET=./npmrc.txt)"`},
		// etcd's initial cluster token: the cluster's name while it bootstraps.
		{"etcd environment", "ETCD_INITIAL_CLUSTER_TOKEN=prod_etcd"},
		{"etcd exported", `export ETCD_INITIAL_CLUSTER_TOKEN="etcd-cluster-07"`},
		{"etcd flag", "etcd --name infra1 --initial-cluster-token etcd-cluster-07 --initial-cluster-state new"},
		// A lexer's token value compared with a keyword.
		{"sql keyword comparison", `        if token_v == "where" or is_group:`},
		{"token value elif", `        elif token_val == "delete":`},
		// The rest of a regular expression that finds a credential to redact it.
		{"js redaction regex", `      .replace(/\brefresh_token=\w+/g, "refresh_token=[REDACTED]")`},
		{"ruby filter regex", `    logger.filter(/(api_secret=)(\w+)/, '\1[FILTERED]')`},
		// A call that computes the value: awaited, yielded, or on a Ruby instance variable.
		{"yielded input list", "      secrets: yield readInputList('build-secrets', true),"},
		{"awaited vault read", `  const token = await vault.read("kv/app/deploy")`},
		{"call on an instance variable", "  access_token = @octokit.create_installation_token(installation_id)[:token]"},
		// A setting that chooses how to authenticate, and the method's name.
		{"registry auth backend", `          "REGISTRY_AUTH=htpasswd",`},
		{"credential type setting", `export GCM_GITHUB_CREDENTIALTYPE="oauth"`},
		{"auth type in yaml", "proxy:\n  auth_type: ldap"},
		// The word for a password in another language: a form's label translated.
		{"french label", `  password: "Mot de passe",`},
		{"german label", `  newPassword: "Neues Passwort",`},
		{"portuguese label", `    password: 'Senha'`},
		{"spanish confirmation label", `  confirmPassword: "Confirmar contraseña:",`},
		// Fingerprints of public keys and certificates.
		{"key fingerprint in json", `    "signingKeyFingerprint": "5d0c7e1a9b3f42c8e6a1d7b94f0e2c3a8b5d6e7f9012a3b4c5d6e7f8091a2b3c",`},
		{"certificate fingerprint in base64", `    "clientCertificateFingerprint": "q3Lk9vT2mXw8Rz4Np6Hs1Jd5Yb0Gc7Fe3Ua9Qi2Ko8M=",`},
		// A usage line: the flag, its type and a colon, its description.
		{"usage line of a secret flag", "  -session-secret string: the key that signs session cookies (optionally base64 encoded)"},
		{"usage line of a token flag", "  -api-token string: the token to call the API with"},
		// Template attributes bound to an expression.
		{"angular property binding", `    <nz-select [tokenSeparators]="separatorKeys" nzMode="tags"></nz-select>`},
		{"vue bound attribute", `  <map-view :api-key="settings.mapsKey" />`},
		// A setting's description naming another variable.
		{"alias description", `	ACME_DNS_API_KEY = "Alias to ACME_API_KEY"`},
		{"same as description", `  DEPLOY_TOKEN: "Same as GITHUB_TOKEN"`},
		// A function assigned to a name of a password's.
		{"function expression", "  var Password = function (options) {"},
		{"async arrow function", "  const password = async (req) => {"},
		// Interface Builder actions: a selector's colon, then the attribute's quote.
		{"storyboard action selector", `    <action selector="showPasswordTapped:" target="Xq2-9b-k1L" id="7Rt-Lm-p0Q"/>`},
		// A variable named after the member it is stored in: code, no password of words.
		{"variable named after the password", "        session.password = cached_password"},
		{"prompted password kept", "    password = prompt_password_twice"},
		// A credential's word at one end of a longer literal: the next argument is no value
		// of it.
		{"userinfo placeholder among arguments", "    >>> Proxy('socks5', 'login:password', 'proxy.local', 1080)"},
		{"header list in a doctest", `    >>> split_header('token, "some value"')`},
		// What opens the line after a title or a class named for a credential: a heading's
		// underline, a decorator.
		{"module title underlined", "\"\"\"\nmyapp.auth.endpoints.access_token\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n\nIssues access tokens.\n\"\"\""},
		{"decorator after a class named for a token", "class TokenApiMixin:\n    @utils.requires_version('2.41')\n    def create_token(self):"},
		// A Markdown link to a heading that says how to set a credential up.
		{"markdown reference to a heading", "[release-credentials]: https://github.com/acme/release-tools#configuring-the-signing-credentials"},
		{"markdown reference with a blank in its label", "[publish token]: https://docs.example.com/guide#creating-a-publish-token"},
		// Code highlighted in HTML: a member access the markup cuts after its dot.
		{"highlighted member call", `<span class="hljs-keyword">let</span> sessionToken = session.<span class="hljs-title function_">issue</span>();`},
		// A Perl or PHP variable negated: code.
		{"perl flag toggled", "        $secret = !$secret;"},
		// A template Python's % operator fills in: the text around what is computed.
		{"registry key template", "        toolskey = \"VC%0.f0BUILDTOOLS\" % version"},
		{"sdk key template", "        sdkkey = \"WinSDK%0.f0PATHS\" % version"},
		// A list of paths, one file's name after another.
		{"man pages listed", "       man3/key_setsecret.3 man3/key_secretkey_is_set.3 man3/getpass.3"},
		// A Makefile rule whose prerequisite is the target's own file: names, no value.
		{"makefile target and its object", "git-credential-keyring: git-credential-keyring.o\n\t$(CC) -o $@ $^ $(LDFLAGS)"},
		// Segments of a path a call joins: a section and a field, not a key and its value.
		{"path of a setting", "        config_path('secrets', 'mode'): to_int,"},
		{"path of a nested setting", "        resolve_path('secret', 'external'): to_bool,"},
		// The tuple a membership test reads lists names, not a key and its value.
		{"membership test over field names", "        for field in ('username', 'password', 'otp_code'):"},
		// Python's conditional and boolean expressions over names: code, not a value.
		{"python conditional over names", "        token = Name.Builtin if word.isupper() else Name.Other"},
		{"python boolean over names", "        token = self._in_keyword and KEYWORD or PLAIN"},
		// The name of what keeps or handles credentials, a class or a module's, not of one.
		{"credential manager class moved", `    LazyImport("KeyringPasswordMgr", "keyring2", "keyring.backends"),`},
		{"token handler registered", `register("OAuthTokenHandlerWithRetry", "httplib3", "auth.handlers")`},
	}
	for _, tc := range kept {
		t.Run("kept/"+tc.name, func(t *testing.T) {
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.Equal(t, tc.in, out)
		})
	}
	masked := []struct{ name, in, secret string }{
		{"kubectl set-credentials token", "kubectl config set-credentials ci-bot --token=Zq8x7Vb2Lm4Nc6Xp1Rt9Yw3K", "Zq8x7Vb2Lm4Nc6Xp1Rt9Yw3K"},
		{"password flag in a command", "Connect-Box -Account ops -Password Tq7vN2xLp9Kw", "Tq7vN2xLp9Kw"},
		{"quoted words with a digit", `  const login = { user: "ops", password: "Harbor4Lantern", };`, "Harbor4Lantern"},
		{"glued secret password", `secretpassword = "Lv7qN3xWk8Rz"`, "Lv7qN3xWk8Rz"},
		{"scheme word as a password", `    db_password = "oauth2"`, "oauth2"},
		{"value under an ENV_VAR_ prefix", `ENV_VAR_DEPLOY_TOKEN = 'Qm8zX2pLw7Rt'`, "Qm8zX2pLw7Rt"},
		{"query token before the next parameter", `  url="https://ci.example.com/hook?job=build&token=Rq7vX2mLp9Kz&ref=main"`, "Rq7vX2mLp9Kz"},
		{"signing key beside an algorithm", "signing_key_alg = \"HS256\"\nsigning_key = \"Zk4qT9vLw2Xm8Rp3\"", "Zk4qT9vLw2Xm8Rp3"},
		{"token named for a namespace", `NAMESPACE_TOKEN=Wc8pK3zQv7Lm2Xt`, "Wc8pK3zQv7Lm2Xt"},
		{"sentence as a passphrase", `  admin_passphrase = "Ravens fly over the old mill"`, "Ravens fly over the old mill"},
		{"password beside a realm", `  -e REALM_ADMIN_PASSWORD="Wq4zT8vKm2Xp" \`, "Wq4zT8vKm2Xp"},
		{"split literal after an entry", "    String env = \"PROXY_TOKEN=\" +\n        \"c8Xq2LmT9vRz4WpK7nYb\";", "c8Xq2LmT9vRz4WpK7nYb"},
		{"password for askpass", "ASKPASS_PASSWORD=Hv3pQ8sLx2Wm git fetch origin", "Hv3pQ8sLx2Wm"},
		{"npm config set auth", "npm config set //registry.example.com/:_authToken Zq8x7Vb2Lm4Nc6Xp1Rt9Yw3K", "Zq8x7Vb2Lm4Nc6Xp1Rt9Yw3K"},
		{"go struct field holding a token", "\tcfg := Config{Token: \"Qm7xT2vR9kL4pZ1wN8cB5yH3\"} // `protobuf:\"bytes,1,opt,name=token\"`", "Qm7xT2vR9kL4pZ1wN8cB5yH3"},
		{"struct tag default that is a secret", "\tKey string `default:\"Hq8xWm2RzP4kT9vL3nQ7\" protobuf:\"bytes,2,opt,name=key\"`", "Hq8xWm2RzP4kT9vL3nQ7"},
		{"properties key: value without blank", "app.jwt.token:Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"dotted name that is no coordinate", "com.acme.token:Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"gradle property holding a token", "ossrhToken=Vb7Nq2Lx9Tz4Kp8Wm3Rj", "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"random value under a role key", `SIGNING_DEF_KEY = "Qm7xT2vR9kL4pZ1wN8cB"`, "Qm7xT2vR9kL4pZ1wN8cB"},
		{"one glued word under a default key", `DEFAULT_KEY = "hunterkey"`, "hunterkey"},
		{"session key is key material", `WEB_SESSION_KEY = "session_admin_secret"`, "session_admin_secret"},
		{"laravel key under an env key", `APP_ENV_KEY = "base64:Xk29fQz81LmPq7RwHj3kLm9"`, "Xk29fQz81LmPq7RwHj3kLm9"},
		{"passphrase of words", `password = "correct horse battery staple"`, "correct horse battery staple"},
		{"capitalised passphrase", `db_password = "Violet anchor mellow trumpet"`, "Violet anchor mellow trumpet"},
		{"accented word beside a random one", `password: "Contraseña Xk29fQz81LmPq7"`, "Xk29fQz81LmPq7"},
		{"format verb beside a random run", `secret = "%s Vb7Nq2Lx9Tz4Kp8Wm3Rj"`, "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"random key in an attribute", `<add key="Xk29fQz81LmPq7RwHj3k"/>`, "Xk29fQz81LmPq7RwHj3k"},
		{"random camel-case run under key", `{key: "aKdFhQpWmZxTrYvBnGcS"}`, "aKdFhQpWmZxTrYvBnGcS"},
		{"words under an api key name", `{apiKey: "getOpenTabKey2024xQ"}`, "getOpenTabKey2024xQ"},
		{"number then a comment arrow", `SECRET_TOKEN = 3948572839 # -> rotate monthly`, "3948572839"},
		{"password then an arrow", `MASTER_PASSWORD = Qm7xT2vR9kL4 -> vault`, "Qm7xT2vR9kL4"},
		{"unquoted yaml password of words", "db:\n  password: MySecretPass\n", "MySecretPass"},
		{"unquoted password with a bang", "secret: Hunter!", "Hunter!"},
		{"token closing a statement", "token: Qx7Rt9Lm2Wp;", "Qx7Rt9Lm2Wp"},
		{"random id after a secret flag", "tool --secret id=Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"secret flag with a value", "vault write auth/app --secret Qm7xT2vR9kL4pZ1w", "Qm7xT2vR9kL4pZ1w"},
		{"token flag in an argument list", "args.push('--token', 'Vb7Nq2Lx9Tz4Kp8Wm3Rj');", "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"user and a password of words", `credentials: "deploy:HunterRiverStone"`, "HunterRiverStone"},
		{"service and a random token", `auth_token = "svc:Xk29fQz81LmPq7Rw"`, "Xk29fQz81LmPq7Rw"},
		{"token member of a config", `    config.Token: "Vb7Nq2Lx9Tz4Kp8Wm3Rj",`, "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"quoted token beside a symbol", `  it "signs", token: "Qm7xT2vR9kL4pZ1wN8cB", scope: :read do`, "Qm7xT2vR9kL4pZ1wN8cB"},
		{"quoted password opening with an at", `password = "@Qm7xT2vR9kL4"`, "Qm7xT2vR9kL4"},
		{"env password opening with a colon", "PASSWORD=:Xk29fQz81LmPq", "Xk29fQz81LmPq"},
		{"token default read from the environment", `	token := getenv("API_TOKEN", "Xk29fQz81LmPq7Rw")`, "Xk29fQz81LmPq7Rw"},
		{"password default shaped as an address", `	password := getenv("DB_PASSWORD", "ops@corp-mail.net")`, "ops@corp-mail.net"},
		{"echo of a literal into a filter", "TOKEN=`echo 'Xk29fQz81LmPq7Rw' | base64`", "Xk29fQz81LmPq7Rw"},
		{"literal after a backquoted filter", "PASS=`cat pass.txt | head -n1`\nDB_PASS=Qm7xT2vR9kL4", "Qm7xT2vR9kL4"},
		{"key beside an algorithm", `    sig = hmac(key="Qm7xT2vR9kL4pZ1wN8cB", alg="HS384")`, "Qm7xT2vR9kL4pZ1wN8cB"},
		{"secret after an algorithm", `        $token = $this->provider('HS384', 'Vb7Nq2Lx9Tz4Kp8Wm3Rj')->encode($claims);`, "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"secret of words and dashes", "  clientSecret: blue-river-stone-tls9x", "blue-river-stone-tls9x"},
		{"literal from kubectl", "kubectl create secret generic db-creds --from-literal=password=Qm7xT2vR9kL4", "Qm7xT2vR9kL4"},
		{"pkcs8 private key", `String privateKey = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKfNsyCjOUQ/o2nNrYBltNUBZXZuE4NU8KOSnbrdlgIziY3uK6Nppzcw0FFUFQfNwOpslfHNL4TwF9Fx+HGx5sSZB1bSxpTMyODDvS8ywS3ddgLQFCbiSy19lSC2LQvDnNYSGA0ZYfAfilwx0HTeBeGNYk/3tNi8ByKvNztshoJKsjasNfRYXja8VS6T4JxT8Rx0Tcx+pZgXvvgG5x0HVEeb6Bx36NUmyS6z9QnMpoWSRK8fpCFUSq5Dy3OlA8IxFiGQiI47BXlpvg==";`, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKfNsyCjOUQ"},
		{"tag before a random value", "API_TOKEN: !encrypted Xk29fQz81LmPq7RwHj3k", "Xk29fQz81LmPq7RwHj3k"},
		{"commented random value", "x-auth-token:  #Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"header value then a comment", "X-Api-Key: Qm7xT2vR9kL4pZ1w # rotate monthly", "Qm7xT2vR9kL4pZ1w"},
		{"literal among expansions", "set passwd=%RANDOM%Qm7xT2vR9kL4", "Qm7xT2vR9kL4"},
		{"powershell secure string", `$secret = ConvertTo-SecureString "Vb7Nq2Lx9Tz4Kp8Wm3Rj" -AsPlainText -Force`, "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"pass setter", `  cfg.pass("Xk29fQz81LmPq7Rw")`, "Xk29fQz81LmPq7Rw"},
		{"pass member of t's config", `  cfg.t.pass("Vb7Nq2Lx9Tz4Kp8Wm3Rj")`, "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"password stated in prose", "the password is Qm7xT2vR9kL4}", "Qm7xT2vR9kL4"},
		{"expansion default that is a password", `DB_PASS="${DB_PASS:-Vb7Nq2Lx9Tz4}"`, "Vb7Nq2Lx9Tz4"},
		{"password beside its submit label", "  \"roomPassword\": \"Qm7xT2vR9kL4\",\n  \"roomPasswordSubmit\": \"Join\",", "Qm7xT2vR9kL4"},
		{"token closing a brace", "{Authorization: Qm7xT2vR9kL4pZ1w}", "Qm7xT2vR9kL4pZ1w"},
		{"quoted bearer in a headers map", `headers: {'Authorization': 'Bearer Vb7Nq2Lx9Tz4Kp8Wm3Rj'}`, "Vb7Nq2Lx9Tz4Kp8Wm3Rj"},
		{"token named for submitting", "SUBMIT_TOKEN=Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"secret of a submit form", `FORM_SUBMIT_SECRET: "sesame-open-42"`, "sesame-open-42"},
		{"cjk word beside a latin run", `password = "密码QmxTvRkLpZwNcB"`, "QmxTvRkLpZwNcB"},
		{"one word of another script", `password = "Zürichsee"`, "Zürichsee"},
		{"bearer token in bold", "**Bearer Xk29fQz81LmPq7Rw**", "Xk29fQz81LmPq7Rw"},
		{"a media url with a token in its query", "https://cdn.example.com/v/clip.mp4?token=Qm7xT2vR9kLpZwNcBdFg", "Qm7xT2vR9kLpZwNcBdFg"},
		{"a webhook url under a key's name", "API key: https://hooks.example.com/in/Qm7xT2vR9kLpZwNcBdFg", "Qm7xT2vR9kLpZwNcBdFg"},
		{"php variable assigned a password", `$password = "Qm7xT2vR9kLp";`, "Qm7xT2vR9kLp"},
		{"a signature that is no thinking block's", `"signature": "EuYBCkQYAiJAGF6X7aWRuRByTdymAUdNOMC3ZqSJv7jcY5Ly"`, "EuYBCkQYAiJAGF6X7aWRuRByTdymAUdNOMC3ZqSJv7jcY5Ly"},
		{"a literal cast to a type", `  apiKey: "Qm7xT2vR9kLpZwNcBdFg" as string,`, "Qm7xT2vR9kLpZwNcBdFg"},
		{"generator's output after it ran", "$ node -e 'console.log(crypto.randomBytes(32).toString(\"base64url\"))'\nQm7xT2vR9kLpZwNcBdFgHjKlMnPqRsTuVwXyZ12345", "Qm7xT2vR9kLpZwNcBdFgHjKlMnPqRsTuVwXyZ12345"},
		{"random value in an encoded link to no image", "next=%2Fcallback%2FQm7xT2vR9kLpZwNcBdFgHjKl%2Fdone&token=Qm7xT2vR9kLpZwNcBdFgHjKl", "Qm7xT2vR9kLpZwNcBdFgHjKl"},
		{"pkce code verifier", "code_verifier=kjasBS523KdkAILD2k78NdcJSk2k3KHG6Xk9mQ2vLp7wR", "kjasBS523KdkAILD2k78NdcJSk2k3KHG6Xk9mQ2vLp7wR"},
		{"a cipher's name glued to a secret", `KEX_SECRET = "aes256-Qm7xT2vR9kL4"`, "Qm7xT2vR9kL4"},
		{"ethereum private key under a token name", `"deployerToken": "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"`, "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"},
		{"sql literals joined with ||", `password := 'Qm7xT2vR' || 'k9LpZwNc'`, "k9LpZwNc"},
		{"hugging face token in code", `login(token="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")`, "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"},
		{"slack token", "xoxb-2398475486-2348975623112-QmxTvRkLpZwNcBdFgHjK", "QmxTvRkLpZwNcBdFgHjK"},
		{"password in a code span", "**Password**: `Qm7xT2vR9kL4`", "Qm7xT2vR9kL4"},
		{"token named after its account", "Token cli_Xk29fQz81LmPq7Rw created", "cli_Xk29fQz81LmPq7Rw"},
		{"password ending in an exclamation mark", "password: Qm7xT2vR9kL4!,\napiKey: Xk29fQz81LmPq7Rw!", "Qm7xT2vR9kL4"},
		{"capitalised word outside a translation file", `{"password": "Salaisuus", "user": "deploy"}`, "Salaisuus"},
		{"mixed case beside a translated label", `{"password": "Salasana", "api_key": "SalaIsuusKey"}`, "SalaIsuusKey"},
		{"abbreviations under a default key", `DEFAULT_KEY = "dev.jwt.hmac"`, "dev.jwt.hmac"},
		{"password with a slash and a dot", `password = "Qm7x/Tv9R.kL4"`, "Qm7x/Tv9R.kL4"},
		{"random name of a file", `token = "abc/Xk29fQz81LmPq7Rw.json"`, "Xk29fQz81LmPq7Rw"},
		{"cluster token of another tool", "CLUSTER_TOKEN=Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"kubeadm join token", "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef", "0123456789abcdef"},
		{"random token value", `token_v = "Qm7xT2vR9kL4pZ1w"`, "Qm7xT2vR9kL4pZ1w"},
		{"password opening with a class escape", `password = "\wQm7xT2vR9kL"`, "Qm7xT2vR9kL"},
		{"quoted value opening with await", `password = "await Xk29fQz81LmPq7"`, "Xk29fQz81LmPq7"},
		{"quoted value opening with an instance variable", `password = "@client.Qm7xT2vR9kL4"`, "Qm7xT2vR9kL4"},
		{"basic auth value", "BASIC_AUTH=Xk29fQz81LmPq7", "Xk29fQz81LmPq7"},
		{"registry auth password", "REGISTRY_AUTH=hunter2hunter", "hunter2hunter"},
		{"translated word with digits", `  password: "Passwort2024!"`, "Passwort2024!"},
		{"translated word beside a random one", `  password: "senha Qm7xT2vR9kL4"`, "Qm7xT2vR9kL4"},
		{"secret named after a fingerprint", `fingerprint_secret = "Xk29fQz81LmPq7Rw"`, "Xk29fQz81LmPq7Rw"},
		{"encrypted value beside a fingerprint", `"encryptedValue": "Qm7xT2vR9kL4pZ1wN8cB5yH3jF6gD0sA", "keyFingerprint": "5d0c7e1a"`, "Qm7xT2vR9kL4pZ1wN8cB5yH3jF6gD0sA"},
		{"secret flag with a value", "  proxy -session-secret Qm7xT2vR9kL4pZ1w -upstream http://app", "Qm7xT2vR9kL4pZ1w"},
		{"literal inside a vue binding", `  <map-view :api-key="'Xk29fQz81LmPq7Rw'" />`, "Xk29fQz81LmPq7Rw"},
		{"plain attribute with a token", `  <embed-widget token="Qm7xT2vR9kL4pZ1w">`, "Qm7xT2vR9kL4pZ1w"},
		{"random word beside a variable's name", `token = "Xk29fQz81LmPq7 to GH_TOKEN"`, "Xk29fQz81LmPq7"},
		{"word opening with function", "Password = functionality9X", "functionality9X"},
		{"json-like pair without a blank", `password:"Xk29fQz81LmPq7"`, "Xk29fQz81LmPq7"},
		{"a token on the line after its title", "Your API token:\n    Xk29fQz81LmPq7RwT3yH\n", "Xk29fQz81LmPq7RwT3yH"},
		{"a token in a url's fragment", "[deploy-token]: https://ci.example.com/hooks#Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"a token before a tag", "<p>token = Xk29fQz81LmPq7Rw.<br>", "Xk29fQz81LmPq7Rw"},
		{"a password opening with an exclamation mark", "    $pass = !Passw0rd9;", "!Passw0rd9"},
		{"a token literal with a percent sign", `        api_key = "Xk29%fQz81LmPq7RwT3yH"`, "Xk29%fQz81LmPq7RwT3yH"},
		{"a token after a key file's path", "  certs/api.key Xk29fQz81LmPq7RwT3yH", "Xk29fQz81LmPq7RwT3yH"},
		{"a token after a name like a makefile target", "api-token: Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
		{"a generated segment of a joined path", "    p = os.path.join('token', 'Xk29fQz81LmPq7Rw')", "Xk29fQz81LmPq7Rw"},
		{"a password beside its name in a tuple", "    form = [('username', 'admin'), ('password', 'Zx8kq2pLm9!')]", "Zx8kq2pLm9!"},
		{"a password as a whole literal argument", "define('DB_PASSWORD', 'Zx8kq2pLm9!');", "Zx8kq2pLm9!"},
		{"a token literal in a python conditional", `        token = "Xk29fQz81LmPq7Rw" if debug else live_token`, "Xk29fQz81LmPq7Rw"},
		{"a password of words with an underscore", "    password = hunter_two", "hunter_two"},
		{"a manager's own password", `password_manager_password = "Xk29fQz81LmPq7"`, "Xk29fQz81LmPq7"},
		{"a token under a secrets manager's name", "SECRETS_MANAGER_TOKEN=Xk29fQz81LmPq7Rw", "Xk29fQz81LmPq7Rw"},
	}
	for _, tc := range masked {
		t.Run("masked/"+tc.name, func(t *testing.T) {
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.NotContains(t, out, tc.secret)
			require.True(t, strings.Contains(out, "[redacted"), out)
		})
	}
}
