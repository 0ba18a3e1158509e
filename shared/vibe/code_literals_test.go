package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSigningKeyCalls: a literal key passed by position to what signs or verifies with it
// is masked, through the wrappers code puts around a literal ([]byte(…), Some(…),
// Buffer.from(…)); the same call with a variable, a call or a placeholder in that place,
// another argument (the payload, the algorithm) and a same-named call of another object
// are kept.
func TestSigningKeyCalls(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tt := range []struct{ in, secret, kept string }{
		{`token = jwt.encode(payload, "Zq8rT2vLm9xKpW4a", algorithm="HS256")`, "Zq8rT2vLm9xKpW4a", `"HS256"`},
		{`claims = jwt.decode(token, 'k3y-Sign1ng-Secr3t', algorithms=["HS256"])`, "k3y-Sign1ng-Secr3t", `"HS256"`},
		{`decoded = JWT.decode(token, "rbJwtS3cret77", true, { algorithm: 'HS256' })`, "rbJwtS3cret77", `'HS256'`},
		{`$jwt = JWT::encode($payload, 'phpJwtK3y!x9', 'HS256');`, "phpJwtK3y!x9", `'HS256'`},
		{`val token = Jwt.encode(claim, "scalaK3ySecret", JwtAlgorithm.HS256)`, "scalaK3ySecret", "JwtAlgorithm.HS256"},
		{`Algorithm algorithm = Algorithm.HMAC256("j4vaJwtS3cret");`, "j4vaJwtS3cret", "Algorithm.HMAC256("},
		{`Jwts.builder().setSubject(u).signWith(SignatureAlgorithm.HS512, "jjwtS3cretK3y").compact();`, "jjwtS3cretK3y", "SignatureAlgorithm.HS512"},
		{`Keys.hmacShaKeyFor("hmacSh4KeyFor-long-secret".getBytes(StandardCharsets.UTF_8))`, "hmacSh4KeyFor-long-secret", "hmacShaKeyFor("},
		{`s, err := token.SignedString([]byte("g0JwtSigningK3y"))`, "g0JwtSigningK3y", "SignedString("},
		{`const h = crypto.createHmac('sha256', 'n0deHmacK3y!').update(body).digest('hex');`, "n0deHmacK3y!", `'sha256'`},
		{`app.use(cookieParser('c00kieS1gn!ng'));`, "c00kieS1gn!ng", "app.use"},
		{`s = URLSafeTimedSerializer("fl4skT0kenK3y")`, "fl4skT0kenK3y", "s = "},
		{`sig = hmac.new(b"pyHmacK3y2024", msg, hashlib.sha256).hexdigest()`, "pyHmacK3y2024", "hashlib.sha256"},
		{`$sig = hash_hmac('sha256', $data, 'phpHmacK3y77');`, "phpHmacK3y77", "$data"},
		{`OpenSSL::HMAC.hexdigest("SHA256", "rubyHmacK3y9", data)`, "rubyHmacK3y9", `"SHA256"`},
		{`Auth: []ssh.AuthMethod{ssh.Password("sshPassw0rd!")},`, "sshPassw0rd!", "ssh.AuthMethod"},
		{`r = requests.get(url, auth=HTTPBasicAuth("admin", "reqPassw0rd"))`, "reqPassw0rd", `"admin"`},
		{`let res = client.get(url).basic_auth("admin", Some("rustPassw0rd")).send()?;`, "rustPassw0rd", `"admin"`},
		{`const token = jwt.sign({ id: user.id }, Buffer.from("b4seSecretK3y"), { expiresIn: "1h" });`, "b4seSecretK3y", `"1h"`},
		{`cipher = AES.new(b"pyCrypt0K3y16by", AES.MODE_GCM)`, "pyCrypt0K3y16by", "AES.MODE_GCM"},
		{`f = Fernet(b"Zq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4aZq8rT2vLm9x=")`, "Zq8rT2vLm9xKpW4aZq8rT2vLm9x", "Fernet("},
		{`const ct = CryptoJS.AES.encrypt(data, "cryptoJsPassphr4se").toString();`, "cryptoJsPassphr4se", "toString()"},
		{`var key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("dotnetJwtS1gningKey"));`, "dotnetJwtS1gningKey", "SymmetricSecurityKey("},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q", tt.in)
		require.Contains(t, out, "[redacted:", "%q → %q", tt.in, out)
		require.Contains(t, out, tt.kept, "%q → %q", tt.in, out)
	}
	for _, in := range []string{
		`token = jwt.encode(payload, settings.SECRET_KEY, algorithm="HS256")`,
		`claims = jwt.decode(token, os.environ["JWT_SECRET"], algorithms=["HS256"])`,
		`Algorithm algorithm = Algorithm.HMAC256(secret);`,
		`s, err := token.SignedString([]byte(os.Getenv("JWT_KEY")))`,
		`const h = crypto.createHmac('sha256', process.env.HMAC_KEY)`,
		`app.use(cookieParser(process.env.COOKIE_SECRET)); app.use(cookieParser());`,
		`data = base64.encode(payload, "utf-8-variant-name")`,
		`const out = codec.encode(payload, "application/json+v2")`,
		`jwt.encode(payload, "<your-secret>", algorithm="HS256")`,
		`x = json.decode(body, "strict-mode-on")`,
		`let res = client.get(url).basic_auth("admin", None::<&str>).send()?;`,
		`cipher = AES.new(key, AES.MODE_GCM)`,
		`const ct = CryptoJS.AES.encrypt(data, secretKey).toString();`,
		`plain = cipher.decrypt(data, "utf-8-strict-mode")`,
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}

// TestTemplateReferences: a format verb, a positional slot or an interpolated expression
// where a credential goes is no credential (the value comes at run time), nor is a token
// shape filled with one pair of characters; the same places holding a literal are masked.
func TestTemplateReferences(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		`url = "https://%s:%s@github.com/%s.git" % (user, token, repo)`,
		`f"https://{get_user_name}:{_github_pat(github_secret_name)}@github.com/"`,
		`f"postgresql://{cfg.user}:{cfg['password']}@{cfg.host}/app"`,
		`String.format("https://{0}:{1}@registry.corp.io", user, pass)`,
		`gitfake_token:ghp_abababababababababababababababababab`,
		`print(f"Token: {token[:8]}...")`,
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	for _, tt := range []struct{ in, secret string }{
		{`url = "https://deploy:Zq8rT2vLm9xKpW4a@github.com/org/repo.git"`, "Zq8rT2vLm9xKpW4a"},
		{`f"https://{user}:Zq8rT2vLm9xKpW4a@github.com/"`, "Zq8rT2vLm9xKpW4a"},
		{`Password={Zq8rT2vLm9xKpW4a+9EF1iFQ=}`, "Zq8rT2vLm9xKpW4a"},
		{`gitfake_token:ghp_abababababababababababZq8rT2vLm9xK`, "ghp_abababababababababababZq8rT2vLm9xK"},
		{`tmetric TOKEN AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, "AAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
}

// TestCodeArgumentReferences: a credential's keyword argument holding a variable, across
// the lines of a call, is no credential; the same argument holding a value with digits, or
// a quoted one, is masked.
func TestCodeArgumentReferences(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		"s3 = boto3.resource(\n    \"s3\",\n    aws_access_key_id=ok_key,\n    aws_secret_access_key=ok_secret,\n    region_name=\"sfo2\",\n)",
		`client = Client(api_key=settings.API_KEY, password=pw)`,
		"db = connect(\n    host=host,\n    password=db_password,\n)",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	for _, tt := range []struct{ in, secret string }{
		{"s3 = boto3.resource(\n    aws_secret_access_key=wZq8rT2vLm9xKpW4aZq8r,\n)", "wZq8rT2vLm9xKpW4aZq8r"},
		{`client = Client(password=hunter2x)`, "hunter2x"},
		{"db = connect(\n    password=\"db_password\",\n)", "db_password"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
}

// TestBuildFileSecrets: an element named for a key holding a generated value (Android's
// strings.xml, Java properties XML), Maven's master password, a Kubernetes docker-config
// secret's value and a bearer token written "Bearer: x" in a literal are masked; an element
// holding a word, a <master> branch element and a type named for docker config are kept.
func TestBuildFileSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tt := range []struct{ in, secret string }{
		{`<string name="hockeyapp_key">ac4fbb5fa9ae7de11f4c8150394ac543</string>`, "ac4fbb5fa9ae7de11f4c8150394ac543"},
		{`<string name="google_maps_key" templateMergeStrategy="preserve" translatable="false">AIzbZq8rT2vLm9xKpW4a-Zq8rT2vLm9xKpW4</string>`, "Zq8rT2vLm9xKpW4a-Zq8rT2vLm9xKpW4"},
		{`<entry key="signing.key">Zq8rT2vLm9xKpW4a</entry>`, "Zq8rT2vLm9xKpW4a"},
		{"<settingsSecurity>\n<master>plainMaster</master>\n</settingsSecurity>\n", "plainMaster"},
		{"<settingsSecurity>\n  <master>{jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u+9EF1iFQyJQ=}</master>\n</settingsSecurity>", "jSMOWnoPFgsHVpMvz5VrIt5kRbzGpI8u"},
		{"data:\n  .dockerconfigjson: eyE1x2a3MpLe\n", "eyE1x2a3MpLe"},
		{`{"data": {".dockercfg": "ewE1x2a3MpLeZq8rT2vLm9"}}`, "ewE1x2a3MpLeZq8rT2vLm9"},
		{"\tbearer = \"Bearer: 2lkjdfoiuwer092834kjdwf09\"", "2lkjdfoiuwer092834kjdwf09"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
	for _, in := range []string{
		`<string name="pref_key_theme">theme_preference</string>`,
		`<string name="cache_key">v2-cache-2024</string>`,
		`<string name="maps_api_key">YOUR_API_KEY</string>`,
		`<branches><master>origin/master</master></branches>`,
		`  "type": "kubernetes.io/dockerconfigjson",`,
		"\tfmt.Println(\"Bearer: none\")",
		"\tbearer = \"Bearer: ${TOKEN}\"",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}

// TestPublicKeyNames: a name for the public half of a key pair, or for a key published by
// design, does not make its value a secret (publicKeyToken in .NET assembly names, pubkey);
// the private half beside it is masked.
func TestPublicKeyNames(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		`<assemblyIdentity name="Microsoft.IdentityModel.Protocols" publicKeyToken="31bf3856ad364e35" culture="neutral" />`,
		`"pubkey": "asdsadsadsadsadsadsadsawAJbNbGKPFXCWuBvf9Ss623VQ5DA",`,
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	out := san.NewSession(SessionHints{}).SanitizeText(`"pubkey": "npub1qZq8rT2vLm9xK", "privkey": "asdsadsadsadsadsadsadsawAJbNbGKPFXCWuBvf9Ss623VQ5DA"`)
	require.NotContains(t, out, "wAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	require.Contains(t, out, "npub1qZq8rT2vLm9xK")
}

// TestSignatureIdentifiers: an identifier a token format's signature opens (Artifactory's
// AP[0-9A-F]… before PascalCase words), a display cut short with words in the gap, and a
// name for where something is (…_ADDRESS) are kept; a generated Artifactory token, the same
// token uncut and a secret's name with its value are masked.
func TestSignatureIdentifiers(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		"apiVersion: appprotectdos.f5.com/v1beta1\nkind: APDosLogConf\nmetadata:\n  name: doslogconf",
		`private final APCInjectorFactory factory = new APCInjectorFactory();`,
		`"nextToken": "4AEA6u7J...The full token has been omitted for brevity...MzY2OA==",`,
		`export const NATIVE_TOKEN_ADDRESS = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";`,
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	for _, tt := range []struct{ in, secret string }{
		{`ARTIFACTORY_PASSWORD=AP6xJ3kLq9Zr2mTv8w`, "AP6xJ3kLq9Zr2mTv8w"},
		{`curl -H "X-JFrog-Art-Api: AP3Hj9kLq2ZrXm7Wn4" https://corp.jfrog.io`, "AP3Hj9kLq2ZrXm7Wn4"},
		{`"nextToken": "4AEA6u7Jx9Kq2mZr8vLp3nWt",`, "4AEA6u7Jx9Kq2mZr8vLp3nWt"},
		{`export const NATIVE_TOKEN = "ghp_Zq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4aZq8r";`, "Zq8rT2vLm9xKpW4aZq8r"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
}

// TestCodeOfSecretHandling: the code that handles secrets is no secret — a wrapped error's
// verb after a secret's name ("failed to get token: %w"), a pointer, a composite literal or a
// type assertion as the value, a regular expression's character class where a URL's
// password goes, a private-key armour line alone in a literal (a prefix or pattern code
// looks for); the same places holding a key are masked.
func TestCodeOfSecretHandling(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		"\t\treturn xerrors.Errorf(\"failed to store credentials: %w\", err)",
		"\t\treturn \"\", xerrors.Errorf(\"unable to refresh token: %w\", err)",
		"\t\tSecret: &result,",
		"\t\taiAPIKey = *flagAiAPIKey",
		"\t\tSecrets: []types.Secret{result},",
		"\tpasswords = []string{strings.TrimRight(string(contents), \"\\r\\n\")}",
		"var secretsPatterns = [...]secretPattern{",
		"\t\tsecretRes := res.(secretResult)",
		"\t\tregexp: regexp.MustCompile(`[a-zA-Z]{3,10}://[a-zA-Z0-9\\.\\-\\_\\+]{1,64}:[a-zA-Z0-9\\.\\-\\_\\!\\$\\%\\&\\*\\+\\=\\^\\(\\)]{1,128}@[a-zA-Z0-9\\.\\-\\_]+(:[0-9]+)?`),",
		"\t\tregexp: regexp.MustCompile(`-----BEGIN RSA PRIVATE KEY-----`),",
		"if strings.HasPrefix(s, \"-----BEGIN OPENSSH PRIVATE KEY-----\") {\n\treturn parseOpenSSH(s)\n}",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	for _, tt := range []struct{ in, secret string }{
		{"\t\treturn fmt.Errorf(\"failed to get token: Zq8rT2vLm9xKpW4aZq8r\")", "Zq8rT2vLm9xKpW4aZq8r"},
		{"\t\tSecret: &Zq8rT2vLm9xKpW4a,", "Zq8rT2vLm9xKpW4a"},
		{"https://deploy:Zq8rT2v[Lm9]+xKpW4a@git.corp.io/app.git", "Zq8rT2v"},
		{"const key = \"-----BEGIN RSA PRIVATE KEY-----\\n\" +\n\t\"MIIEpAIBAAKCAQEA2vzZq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4a\\n\"", "MIIEpAIBAAKCAQEA2vzZq8rT2vLm9xKpW4a"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA2vzZq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4a\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA2vzZq8rT2vLm9xKpW4a"},
		{"key := `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIZq8rT2vLm9xKpW4aZq8rT2vLm9xKpW4aZq8rT2vLm9xK\n-----END EC PRIVATE KEY-----`", "MHcCAQEEIZq8rT2vLm9xKpW4a"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
}

// TestCodeExpressionValues: JavaScript and SQL code after a credential's name is no
// credential — logical and nullish operators, conditionals, negations and increments of a
// name, constructors, calls, arrow functions, an object literal's members, an SQL bind, a
// storage key's name, a dependency's version, fetch's credentials mode, a template string's
// interpolations, a called name of words and digits; beside each, the same name holding a
// generated value is masked.
func TestCodeExpressionValues(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		"        internalApiKey: process.env.INTERNAL_API_KEY || process.env.OV_INTERNAL_KEY || '',",
		"            credential: process.env.TURN_CREDENTIAL || '',",
		"        refresh_token: json.refresh_token || null,",
		"                tokenEl.value = c.has_token ? TOKEN_SENTINEL : '';",
		"            credentials: crossOrigin ? 'omit' : 'include',",
		"        has_token: !!token,",
		"                hasToken: !!integration.has_token || !!payload.token,",
		"    const myToken = ++_streamSwitchToken;",
		"const TTS_SECRET_KEYS = new Set([",
		"        const rawKey = crypto.randomBytes(32).toString('hex');",
		"        streamKey = keyRes.data && keyRes.data[0] && keyRes.data[0].stream_key;",
		"    const LS_KEY = (streamId) => `ov-pip-geom-${streamId}`;",
		"        byo_key: (v) => String(v || '').trim().slice(0, 400),",
		"            active_token_count: tokens.filter(token => token.is_active).length,",
		"            access_token: tok.accessToken, refresh_token: tok.refreshToken,",
		"                access_token = ?, refresh_token = COALESCE(?, refresh_token),",
		"                RS_TOKEN: session.token,",
		"        'stream-key': streamKeyModal(),",
		"                'X-Internal-Key': config.internalApiKey,",
		"const PLAYER_VOLUME_KEY = 'openvibe_player_volume';",
		"const CHAT_SETTINGS_KEY = 'openvibe_chat_settings';",
		`    "jsonwebtoken": "^9.0.2",`,
		`    "passport-jwt": "4.0.1",`,
		"        const res = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' });",
		"    const passwordHash = `!anon-game:${safeAnonKey}:${crypto.randomBytes(12).toString('hex')}`;",
		"\tyytoken := -1",
		"                const applicationServerKey = urlBase64ToUint8Array(keyRes.publicKey);",
		"func MakeFileBase64Sha256Func(target fs.FS, baseDir string) function.Function {",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	for _, tt := range []struct{ in, secret string }{
		{"        internalApiKey: 'Zq8rT2vLm9xKpW4aZq8r',", "Zq8rT2vLm9xKpW4aZq8r"},
		{"            credential: process.env.TURN_CREDENTIAL || 'Zq8rT2vLm9xKpW4a',", "Zq8rT2vLm9xKpW4a"},
		{"        const token = process.env.API_TOKEN ?? \"Zq8rT2vLm9xKpW4aZq8r\";", "Zq8rT2vLm9xKpW4aZq8r"},
		{"                RS_TOKEN: 'Zq8rT2vLm9xKpW4aZq8r',", "Zq8rT2vLm9xKpW4aZq8r"},
		{"DB_PASSWORD=!Passw0rd2024x", "Passw0rd2024x"},
		{"PIN_PASSWORD=123456", "123456"},
		{"const PLAYER_VOLUME_KEY = 'Zq8rT2vLm9xKpW4aZq8r';", "Zq8rT2vLm9xKpW4aZq8r"},
		{"AUTH_TOKEN=m{{h}o)p${e]nob(ody>-_$#x}}", "nob(ody>-_$#x"},
		{"    const passwordHash = `Zq8rT2vLm9xKpW4a${salt}`;", "Zq8rT2vLm9xKpW4a"},
		{"export AZURE_API_KEY=010.55.6.8-9.5.93.4", "010.55.6.8-9.5.93.4"},
		{"        'X-Internal-Key': 'Zq8rT2vLm9xKpW4aZq8r',", "Zq8rT2vLm9xKpW4aZq8r"},
		{"\tjwtKey := []byte(\"Zq8rT2vLm9xKpW4a\")", "Zq8rT2vLm9xKpW4a"},
		{"\tvar jwtSecret = []byte(\"Zq8rT2vLm9xKpW4a\")", "Zq8rT2vLm9xKpW4a"},
		{"const secret = Buffer.from('Zq8rT2vLm9xKpW4a');", "Zq8rT2vLm9xKpW4a"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
}

// TestFallbackLiterals: the default a secret read from the environment falls back to is
// masked; the next member's key of an object the secret's variable is put in is not.
func TestFallbackLiterals(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tt := range []struct{ in, secret string }{
		{`api_key = os.environ.get("API_KEY") or "fallbackS3cret99"`, "fallbackS3cret99"},
		{`password = process.env.DB_PASSWORD || 'nodeFallbackPw9';`, "nodeFallbackPw9"},
		{`password := getenv("DB_PASSWORD", "g0Fallback!pw")`, "g0Fallback!pw"},
		{`const password = process.env.DB_PASSWORD || 'nodeFallbackPw9';`, "nodeFallbackPw9"},
		{`const apiKey = process.env.API_KEY ?? "Zq8rT2vLm9xKpW4aQ7bN";`, "Zq8rT2vLm9xKpW4aQ7bN"},
		{`secret := getenv("APP_SECRET", "W1NTERS3CRET")`, "W1NTERS3CRET"},
		{`password = get_password() or 'hunterpass'`, "hunterpass"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q", tt.in)
	}
	for _, in := range []string{
		`const token = process.env.TOKEN || 'default';`,
		`const token = getToken(req) || 'anonymous';`,
		`const password = process.env.DB_PASSWORD || '';`,
		`return {"access_token": access_token, "token_type": "bearer"}`,
		`resp = {'access_token': tok, 'refresh_token': refresh, 'expires_in': 3600}`,
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}

// TestNoValueShapes: what stands where a value would be and is none — a usage message
// after an empty default, an environment variable's name under a name saying it holds one,
// a value saying there is none, blank .env entries one after another — is kept; the same
// places holding a secret are masked.
func TestNoValueShapes(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		`apiKey := flag.String("api-key", "", "the API key used to reach the service")`,
		`token := flag.String("token", "", "Personal access token for GitHub")`,
		`aiAPIKeyEnv = "GOSEC_AI_API_KEY"`,
		`token_env_var: GITHUB_TOKEN`,
		`if (token === 'N/A') { return; }`,
		"DB_PASSWORD=\nAPI_KEY=\nSECRET_TOKEN=\nPORT=8080\n",
		"api_key:\nsecret_token:\nport: 8080\n",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
	for _, tt := range []struct{ in, secret string }{
		{`password := getenv("DB_PASSWORD", "g0Fallback!pw")`, "g0Fallback!pw"},
		{`aiAPIKey = "Zq8rT2vLm9xKpW4aQ7bN"`, "Zq8rT2vLm9xKpW4aQ7bN"},
		{`if (token === 'Zq8rT2vLm9xKpW4aQ7bN') { return; }`, "Zq8rT2vLm9xKpW4aQ7bN"},
		{"DB_PASSWORD=\nZq8rT2vLm9xKpW4aQ7bNc5\nPORT=8080\n", "Zq8rT2vLm9xKpW4aQ7bNc5"},
		{"DB_PASSWORD=Zq8rT2vLm9xKpW4a\nQ7bNc5Hd3Jf8Ks1L\nPORT=8080\n", "Q7bNc5Hd3Jf8Ks1L"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q → %q", tt.in, out)
	}
}
