package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of rust-lang/cargo (MIT OR Apache-2.0: its sources, docs, tests'
// snapshots and changelog), laravel/framework (MIT), rails/rails (MIT),
// jhipster/jhipster-sample-app (Apache-2.0), payloadcms/payload (MIT),
// spring-projects/spring-security (Apache-2.0), nextauthjs/next-auth (ISC), ory/kratos
// (Apache-2.0), authlib/authlib (BSD-3-Clause), openiddict/openiddict-core (Apache-2.0),
// heartcombo/devise (MIT), bitnami/charts (Apache-2.0), simonw/llm (Apache-2.0),
// openai/openai-python (Apache-2.0), better-auth/better-auth (MIT) and pennersr/django-allauth
// (MIT): a Rust tool, PHP, Ruby, Java,
// Kotlin, C# and TypeScript frameworks, authentication libraries and Helm charts whose code a
// coding stream reads and edits often. The rows of secrets are made up.

func TestFrameworkShapes(t *testing.T) {
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
			// Ruby: a variable under its own name, a constructor, a symbol, a hash read by one,
			// a lambda, an instance variable's call, interpolation, RDoc's markup
			"      ActionMailbox::Relayer.new(url: url, password: password).relay(STDIN.read).tap do |result|",
			"    PASS_NOT_FOUND = Class.new { # :nodoc:",
			"          password = options.delete :password",
			"          ENV[\"PGPASSWORD\"]     = pg_config[:password].to_s if pg_config[:password] && options[:include_password]",
			"          generate_token = -> do",
			"  # token = @verifier.generate(\"signed message\", purpose: :login)",
			"  has_secure_password :recovery_password",
			"            raise Errors::Configuration, \"Missing Active Record encryption credential: active_record_encryption.#{key}\"",
			"      # Returns a textarea opening and closing tag set tailored for accessing a specified attribute (identified by +method+) on an object",
			// a parameter's name, a private key name, a GlobalID
			"      TOKEN_KEY = \"token=\"",
			"      RUBY2_KEYWORDS_KEY = \"_aj_ruby2_keywords\"",
			"    # subscribe to a broadcasting like `comments:Z2lkOi8vVGVzdEFwcC9Qb3N0LzE`.",
			// a sentence in a template, a pattern tested, a duration, a storage key
			"                    >Your password is required.</small",
			"  const alertIsKey = /^[A-Za-z0-9](?:[A-Za-z0-9.]*[A-Za-z0-9])?$/.test(alertHeader ?? '');",
			"        token-validity-in-seconds-for-remember-me: 2592000",
			"export const AUTHENTICATION_TOKEN_KEY = 'jhi-authenticationToken';",
			// TypeScript: a generated import map's aliases, a spread, a component's type, a
			// number with separators, a translation's key
			"import { default as default_1a7510af427896d367a49dbf838d2de6 } from '@/components/BeforeDashboard'\nexport const importMap = {\n  '@/components/BeforeDashboard#default': default_1a7510af427896d367a49dbf838d2de6,\n}",
			"    const tokenCss = [...stylesEntry.matchAll(/@import\\s+['\"]\\.\\/(css\\/[^'\"]+)['\"]/g)]",
			"  confirmPassword: React.FC<ConfirmPasswordFieldProps>",
			"        expiredTokenAt: 1_700_000_000_000,",
			"        description={t('authentication:checkYourEmailForPasswordReset')}",
			// its translations: a credential's name in another language, a label with it,
			// a compound ending in it, a message under a key that names one, a sentence
			// in Chinese on the line after its key
			"    token: 'jeton',",
			"    apiKey: 'API-sleutel',",
			"    apiKey: 'Chiave API',",
			"    generateNewAPIKey: 'Buat kunci API baru',",
			"    cartSecret: 'Handlekurvhemmelighet',",
			"    newPassword: 'Uus parool',",
			"    changePassword: 'Promijeni lozinku',",
			"    password: 'Şifrə',",
			"    tokenRefreshSuccessful: 'Token-Aktualisierung erfolgreich.',",
			"    forgotPasswordUsernameInstructions:\n      '请在下方输入您的用户名。密码重置的说明将发送到与您的用户名相关联的电子邮箱。',",
			// Java and Kotlin: casts, the head of an enhanced for, a typed declaration,
			// SQL under a name that says so, JCA's algorithm names, a builder's calls
			// between literals and on the next line, a generic type, types with digits,
			// a message naming its field, an attribute's name, a properties file's
			// escaped translations
			"\t\tString password = (String) authentication.getCredentials();",
			"\t\tthis.secretKey = (KeyParameter) keyGenerator.generateDerivedParameters(256);",
			"\t\t\tfor (Saml2X509Credential x509Credential : this.credentials) {",
			"\t\tX509ClientCertificateAuthenticationProvider x509ClientCertificateAuthenticationProvider = new X509ClientCertificateAuthenticationProvider(",
			"\tprivate static final String SAVE_CREDENTIAL_RECORD_SQL = \"INSERT INTO \" + TABLE_NAME",
			"\tprivate static final String SELECT_ONE_TIME_TOKEN_SQL = \"SELECT \" + COLUMN_NAMES",
			"\tpublic static final String DEF_CHANGE_PASSWORD_SQL = \"update users set password = ? where username = ?\";",
			"\t\treturn CipherUtils.newSecretKey(\"PBKDF2WithHmacSHA256\",",
			"\t\tsb.append(\"CredentialsNonExpired=\").append(this.credentialsNonExpired).append(\", \");",
			"\t\tfinal OAuth2TokenCustomizer<OAuth2TokenClaimsContext> defaultAccessTokenCustomizer = DefaultOAuth2TokenCustomizers\n\t\t\t.jwtCustomizer();",
			"val jwtBearerTokenResponseClient: ReactiveOAuth2AccessTokenResponseClient<JwtBearerGrantRequest> = ...",
			"    fun authorizedClientManager(\n        authorizedClientService: ReactiveOAuth2AuthorizedClientService\n    ): ReactiveOAuth2AuthorizedClientManager {",
			"\t\t\tAssert.notNull(this.userNotFoundEncodedPassword, \"userNotFoundEncodedPassword cannot be null\");",
			"\tprivate static final String ATT_PASSWORD = \"manager-password\";",
			"AbstractLdapAuthenticationProvider.emptyPassword=Ung\\u00FCltige Anmeldedaten",
			"BindAuthenticator.emptyPassword=\\u041F\\u0443\\u0441\\u0442\\u043E\\u0439 \\u043F\\u0430\\u0440\\u043E\\u043B\\u044C",
			// authentication libraries: a store's key named with a prefix, names joined,
			// non-null members, words joined by slashes, a GraphQL schema, DSNs without
			// credentials, JSON pointers, a comment's sentence above an import, a name
			// without the credential, a composite literal and a call closed after a
			// variable, a Go struct's field, OAuth's response types and scopes, a file's mode
			"    sessionByToken = \"nextAuthSessionByToken\",",
			"      const accountKey = accountKeyPrefix + id",
			"  const createToken = adapter!.createVerificationToken?.({\n    identifier: email,\n  })",
			"  /** Timestamp indicating the last time the user's password was reset/changed. At user creation, this field does not exist. */",
			"type Session {\n  expires: DateTime\n  sessionToken: String @search(by: [hash])\n}",
			"dsn: memory",
			"dsn: sqlite://foo.db?mode=memory&_fk=true",
			"      set_ory_session_token: \"#/components/schemas/continueWithSetOrySessionToken\"",
			"import (\n\t\"crypto/md5\" //nolint:all // System compatibility for imported passwords\n\t\"crypto/sha256\"\n)",
			"- **Passwordless \"Magic Code\"**: Introduce a passwordless login method with",
			"\t\tPerformNativeLogoutBody(ory.PerformNativeLogoutBody{SessionToken: sessionToken}).Execute()",
			"\tPassword *AdminIdentityImportCredentialsPassword `json:\"password\"`",
			"            return q.filter_by(access_token=token).first()",
			"    RESPONSE_TYPES = (\"code id_token\", \"code token\", \"code id_token token\")",
			"        token = self.resource_protector.acquire_token(\"openid\")",
			"    with open('your-private-key.pem', 'rb') as f:",
			// C#: documentation comments' tags, switch expressions, a conditional on a
			// member, a nullable cast, default!, calls closed after a named argument, a
			// JWT's media type, MVC's route names, a sentence's last word before a tag;
			// Ruby: a setter's parameter
			"        /// <param name=\"token\">The token.</param>",
			"    /// <exception cref=\"OperationCanceledException\">The specified <paramref name=\"cancellationToken\"/> is signaled.</exception>",
			"        context.EncryptionCredentials = context.TokenType switch\n        {",
			"        context.BackchannelAccessToken = context.ExtractBackchannelAccessToken ?\n            x : y;",
			"            key.X5tS256 = (string?) keys[index][JsonWebKeyParameterNames.X5tS256];",
			"        public string Token { get; set; } = default!;",
			"            cancellationToken: cancellationToken)).MatchedCount;",
			"        public const string AccessToken = \"at+jwt\";",
			"            return RedirectToAction(\"ResetPasswordConfirmation\", \"Account\");",
			"<value>An handler must be implemented to validate revocation requests (e.g to ensure the client_id and client_secret are valid).</value>",
			"      def password=(new_password)\n        @password = new_password",
			// Helm charts: a command that prints a secret's file, a Secret's key in plural,
			// grep's keep-out pattern
			"          - name: AIRFLOW__CORE__FERNET_KEY_CMD\n            value: \"cat $SECRETS_DIR/airflow-fernet-key\"",
			"* [bitnami/mongodb] Fix wrongly named mongodb secret key 'mongodb-passwords' (#10546)",
			"    local password=$(grep -oP '^password=\\K.+' $1);",
			// shapes from the agent sessions' development half, written anew: phrases listed
			// after one ending in a credential's word, a syntax's tokens in a table headed
			// Token, Rust's vec! macro, hex-speak alone
			"  \"assets\": [\"the signing private key\", \"session tokens\", \"audit logs\"],",
			"| Token | Meaning |\n|-------|---------|\n| `is:open` | open issues only |\n| `base:<ref>` | compare with a branch |\n",
			"        let private_key = vec![0u8; 32];",
			"            secret_key: \"deadbeef\".to_string(),",
			// a path's last segment before the next argument, a parameter's description
			// with a link after it
			"llm -f github:simonw/s3-credentials 'Suggest new features for this tool'",
			"            azure_ad_token: Your Azure Active Directory token, https://www.microsoft.com/en-us/security/business/identity-access/microsoft-entra-id",
			// a Django authentication app: a route's template, a rate limit, Python's
			// unpacking and lambdas, a decimal figure in a sentence
			"    \"account_reset_password_from_key\": \"/account/password/reset/key/{key}\",",
			"        \"change_password\": \"5/m/user\",  # nosec",
			"        token.user_data = {**data, **identity_data}",
			"            pre_token=[lambda orequest: self._pre_token(orequest, user, data)],",
			"    # average calculated entropy for the access tokens was 144,3 (±7,1) bits",
			// a TypeScript authentication library: a comment after an opening or in place of a
			// value, generic types, a channel's name, a header's name, error codes' messages
			// in other languages, an encoding's name, regexp literals, optional chains,
			// environment reads built in a template, readonly types, Bearer in prose, npm
			// packages
			"  emailAndPassword: { // [!code highlight]\n    enabled: true,\n  },",
			"    token: // Google ID Token,\n    nonce: x,",
			"export type AccountKey = Readonly<Pick<BaseAccount, \"issuer\" | \"accountId\">>;",
			"export const kBroadcastChannel = Symbol.for(\"better-auth:broadcast-channel\");",
			"\t\t\tapiKeyHeaders: config?.apiKeyHeaders ?? \"x-api-key\",",
			"\tINVALID_EMAIL_OR_PASSWORD: \"Indirizzo e-mail o password non validi\",",
			"\tCREDENTIAL_ACCOUNT_NOT_FOUND: \"Anmeldekonto nicht gefunden\",",
			"\t\t\t\t\tconst token = await createHMAC(\"SHA-256\", \"base64urlnopad\").sign(",
			"\tconst accessToken = /^(?:Bearer|DPoP)[ \\t]+(\\S+)$/i.exec(",
			"\t\trequireClientSecret: tokenEndpointAuth?.method === \"client_secret_post\",",
			"\t\t\tclientSecret: process.env.${providerUpper}_CLIENT_SECRET!,",
			"\tcredentials: readonly SCIMManagedCredential[];",
			"sed for services that require JWT tokens. If you're looking to use JWT tokens, check out the [Bearer Plugin](/docs/plugins/bearer).",
			"\t\t\t\t\tquestion: \"Require signature for bearer tokens?\",",
			"npm remove @auth0/auth0-react @auth0/auth0-spa-js @auth0/nextjs-auth0",
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
			{"      Relayer.new(url: url, password: \"Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"Your password is Zx8kq2pLm9.</small>", "Zx8kq2pLm9"},
			{"TOKEN_KEY = \"Zx8kq2pLm9Qw4rT7=\"", "Zx8kq2pLm9Qw4rT7"},
			{"export const AUTHENTICATION_TOKEN_KEY = 'Zx8kq2pLm9Qw4rT7';", "Zx8kq2pLm9Qw4rT7"},
			{"const apiKey = 'default_1a7510af427896d367a49dbf838d2de6'", "1a7510af427896d367a49dbf838d2de6"},
			{"  confirmPassword: 'Zx8kq2pLm9Qw4rT7',", "Zx8kq2pLm9Qw4rT7"},
			{"  \"password\": \"Chiave\",", "Chiave"},
			{"    token: 'jeton7Zq9x2',", "jeton7Zq9x2"},
			{"    tokenRefreshSuccessful: 'Zx8kq2pLm9Qw4rT7',", "Zx8kq2pLm9Qw4rT7"},
			{"    password:\n      '密码Zx8kq2pLm9Qw4rT7',", "Zx8kq2pLm9Qw4rT7"},
			{"Server=db;Password=(Zx8kq2pLm9Qw4rT7);", "Zx8kq2pLm9Qw4rT7"},
			{"\tprivate static final String TOKEN_SQL = \"Zx8kq2pLm9Qw4rT7\";", "Zx8kq2pLm9Qw4rT7"},
			{"app.password=Zx8kq2pLm9\\u00FC", "Zx8kq2pLm9"},
			{"\tprivate static final String ADMIN_PASSWORD = \"manager-password\";", "manager-password"},
			{"  tokenService: TokenService2024,", "TokenService2024"},
			{"SENTRY_DSN=https://abc123def456@o12345.ingest.sentry.io/1234567", "abc123def456"},
			{"DATABASE_DSN=postgres://app:Zx8kq2pLm9@db/app", "Zx8kq2pLm9"},
			{"dsn: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"    var privateKey = \"myHardCodedPrivateKey\";", "myHardCodedPrivateKey"},
			{"the password was Zx8kq2/pLm9Qw", "Zx8kq2/pLm9Qw"},
			{"  passwordless_fallback_password: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"<add key=\"ApiToken\" name=\"x\">Zx8kq2pLm9Qw4rT7</add>", "Zx8kq2pLm9Qw4rT7"},
			{"        public string Token { get; set; } = \"Zx8kq2pLm9Qw4rT7\";", "Zx8kq2pLm9Qw4rT7"},
			{"the client secret is Zx8kq2pLm9).</value>", "Zx8kq2pLm9"},
			{"          - name: DB_PASSWORD\n            value: \"cat Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"key: Zx8kq2-pLm9Qw-password", "Zx8kq2-pLm9Qw"},
			{"  [\"the signing private key\", \"Zx8kq2pLm9Qw4rT7\"]", "Zx8kq2pLm9Qw4rT7"},
			{"| Token | Meaning |\n|---|---|\n| `Zx8kq2pLm9Qw4rT7` | the bot's |\n", "Zx8kq2pLm9Qw4rT7"},
			{"            secret_key: \"deadbeefdeadbeefdeadbeef\",", "deadbeefdeadbeefdeadbeef"},
			{"password = \"The cat is on the mat 7\"", "The cat is on the mat 7"},
			{"  \"secret_key\": \"This is my very own secret key phrase\",", "This is my very own secret key phrase"},
			{"curl -H 'Authorization: Bearer Zx8kq2pLm9Qw4rT7' https://api.example.com/v1/token", "Zx8kq2pLm9Qw4rT7"},
			{"API_KEY=/^Xk9fj3/", "Xk9fj3"},
			{"the account/password is admin/Zx8kq2pLm9", "Zx8kq2pLm9"},
			{"the token was 8f3a9,c7d2e1", "8f3a9,c7d2e1"},
			{"\tADMIN_DEFAULT_PASSWORD: \"Correct horse battery staple\",", "Correct horse battery staple"},
			{"\t\tapiKey: process.env.KEY ?? \"Zx8kq2pLm9Qw4rT7\",", "Zx8kq2pLm9Qw4rT7"},
			{"Authorization: Bearer Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
