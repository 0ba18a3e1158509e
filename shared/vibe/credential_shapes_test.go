package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCommentedConfigLine: a config line commented out keeps its value (# password: x, the
// YAML a template ships disabled); a comment's prose, a placeholder or a name of words under
// the same name stays.
func TestCommentedConfigLine(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"# password: vqtrplkz", "vqtrplkz"},
		{"db:\n#   username: app\n#   password: kwoz_qe_trhnbvx", "kwoz_qe_trhnbvx"},
		{"#  access-key: mzhdqpsw", "mzhdqpsw"},
		{"    #    pwd: yqjvtx", "yqjvtx"},
		{"// api_token = fq7Lm2xZ0pRt", "fq7Lm2xZ0pRt"},
	})
	requireKept(t, san,
		"# password: required",
		"# password: the password of the database user",
		"# password: db_password",
		"# password: ${DB_PASSWORD}",
		"# api_key: YOUR_API_KEY",
		"# token: see below",
		"// token: string",
		"# passwordFile: /etc/app/pw",
		"# sa-token.cookie.domain=login.example.com",
		"//\ttoken = 1*tchar",
		"# password: changeme",
		"# key: F401",
	)
}

// TestKeyInHex: the key of a cipher written in hex under the name key alone (32, 48, 64 or
// 128 digits: AES-128/192/256, HMAC-SHA-512); a commit id, a digest's own name and runs
// without digits stay.
func TestKeyInHex(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"'key' => '7C3A91F0B2D84E6501AF93C2D7E0B845',", "7C3A91F0B2D84E6501AF93C2D7E0B845"},
		{`  "key": "e07b5c9a14d2f3860b9ac1e7d45f2a36",`, "e07b5c9a14d2f3860b9ac1e7d45f2a36"},
		{"$key = '5d0e8a7b3c1f942a6e0d7b5c8a3f1e29406b2d8c7e5a1f3b9d0c6e4a2b8f7d13';", "5d0e8a7b3c1f942a6e0d7b5c8a3f1e29406b2d8c7e5a1f3b9d0c6e4a2b8f7d13"},
		{"\t Key type: 23\n\t Key: 0a9e2c7d51b84f36e2d09c1b7a53f864", "0a9e2c7d51b84f36e2d09c1b7a53f864"},
	})
	requireKept(t, san,
		`  "key": "3f786850e387550fdab836ed7e6dc881de23001b",`,
		`  "sha": "e07b5c9a14d2f3860b9ac1e7d45f2a36",`,
		`  "checksum": "e07b5c9a14d2f3860b9ac1e7d45f2a36",`,
		`  "key": "deadbeefdeadbeefdeadbeefdeadbeef",`,
		`  "key": "00000000000000000000000000000000",`,
		`  "key": "build-1234",`,
	)
}

// TestNKEYSeed: a NATS NKEY seed (S, the key's type, A or B, 58 base32 characters) is a
// private key wherever it stands; a constant's name in capitals of that length is none.
func TestNKEYSeed(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"  # SUAMK3FQ7ZTRW2XJ4B6YHN5DLVCOE3GIPA7KSMQ2WZRUXF6TBYD4NHJLEO", "SUAMK3FQ7ZTRW2XJ4B6YHN5DLVCOE3GIPA7KSMQ2WZRUXF6TBYD4NHJLEO"},
		{"users [\n  {\n    # SUAEREVG6MR6Q6R6V7LG7VMLVBMC2MVE6CZVGS332LRBRELNZS3LEMNGBS", "SUAEREVG6MR6Q6R6V7LG7VMLVBMC2MVE6CZVGS332LRBRELNZS3LEMNGBS"},
		{"# SOBZUV3WO3DYQ32D4Z7YM22B33BUBBX4Y3WMBVGDZG2YQDGX4MG2V2RQQG", "SOBZUV3WO3DYQ32D4Z7YM22B33BUBBX4Y3WMBVGDZG2YQDGX4MG2V2RQQG"},
		{"seed: SAABQ2ZNW7KDLRX4TYF3GHVJ6MPCE5OUIA2SXKRQLZW7DNYT3BFHVJ4MEC", "SAABQ2ZNW7KDLRX4TYF3GHVJ6MPCE5OUIA2SXKRQLZW7DNYT3BFHVJ4MEC"},
	})
	requireKept(t, san,
		"SUBSCRIPTIONS_ARE_LISTED_HERE_FOR_EVERY_ACCOUNT_AND_USER_X",
	)
}

// TestBasicCredentialsInCode: HTTP Basic credentials as code builds them — a user:password
// literal handed to a base64 encoder, and an Authorization header set by a call with its
// value a literal; templates, the words user:password, and lists of header names stay.
func TestBasicCredentialsInCode(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"auth = base64.b64encode(b'svcbot:qhtrwzpk').decode('ascii')", "qhtrwzpk"},
		{"const h = 'Basic ' + btoa('svcbot:qhtrwzpk');", "qhtrwzpk"},
		{"Buffer.from('svcbot:qhtrwzpk').toString('base64')", "qhtrwzpk"},
		{`enc := base64.StdEncoding.EncodeToString([]byte("svcbot:qhtrwzpk"))`, "qhtrwzpk"},
		{`String e = Base64.getEncoder().encodeToString("svcbot:qhtrwzpk".getBytes());`, "qhtrwzpk"},
		{".set('Authorization', 'Basic Zm9vYmFyOnF3ZXJ0eXVp')", "Zm9vYmFyOnF3ZXJ0eXVp"},
		{`req.Header.Set("Authorization", "Token 9fK2mQ7xLp4RtZ8v")`, "9fK2mQ7xLp4RtZ8v"},
	})
	requireKept(t, san,
		"base64.b64encode(f'{user}:{password}'.encode())",
		"base64.b64encode(b'user:password')",
		"btoa(`${user}:${pass}`)",
		"btoa('12:30')",
		"Buffer.from('svcbot:qhtrwzpk').toString('hex')",
		`headers.put("Authorization", "Bearer " + token);`,
		`case "Authorization", "Www-Authenticate", "Cookie":`,
		"request.headers.get('Authorization', 'none')",
	)
}

// TestKeyDecodedFromHex: a key written in hex and decoded into bytes by the statement that
// assigns it to a key's or a secret's name; digests, nonces, IVs and expected values stay.
func TestKeyDecodedFromHex(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`secretBytes, _ := hex.DecodeString("4e1f0a9c7b3d25e8f6a1c09d3b7e5f24")`, "4e1f0a9c7b3d25e8f6a1c09d3b7e5f24"},
		{`const signingKey = createSecretKey(Buffer.from('9a3c5e7f1b2d4f6a8c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d0f1a3c5e7b9d2f4a', 'hex'))`, "9a3c5e7f1b2d4f6a8c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d0f1a3c5e7b9d2f4a"},
		{`aes_key = bytes.fromhex('4e1f0a9c7b3d25e8f6a1c09d3b7e5f24')`, "4e1f0a9c7b3d25e8f6a1c09d3b7e5f24"},
		{`$key = hex2bin('4e1f0a9c7b3d25e8f6a1c09d3b7e5f24');`, "4e1f0a9c7b3d25e8f6a1c09d3b7e5f24"},
	})
	requireKept(t, san,
		`expectedHash, _ := hex.DecodeString("4e1f0a9c7b3d25e8f6a1c09d3b7e5f24")`,
		`data, _ := hex.DecodeString("4e1f0a9c7b3d25e8f6a1c09d3b7e5f24")`,
		`key_iv = bytes.fromhex('4e1f0a9c7b3d25e8f6a1c09d3b7e5f24')`,
		`pubKey := hex.DecodeString("4e1f0a9c7b3d25e8f6a1c09d3b7e5f24")`,
		`secret, _ := hex.DecodeString(input)`,
	)
}

// TestLongConfigValue: a config line's value is taken whole up to 1024 characters (a Rails
// secret_key_base is 128 hex digits, others 256), not cut at 200 with the rest shown.
func TestLongConfigValue(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	long := "eee65f53e9421ce50211670eae679f02e8d28a79023c39c200661fccd268a29a0d347301ef56e64dc3cd6089065c3146e80a9c222670bbe4f4c54977656cf2d133187c8df95247f2866028de71159b42b4ea410fb9102f29a422eb14ab2f2d0f0cc022238daceee2092f073ff80b9465aef7ac86d66c7a644fb12853ef86dcfa"
	out := san.NewSession(SessionHints{}).SanitizeText("rails:\n  secret_key: " + long)
	require.NotContains(t, out, long[200:])
	requireKept(t, san, "rails:\n  environment: test\n  log_level: "+strings.Repeat("debug ", 3))
}

// TestShellAppend: a shell appends the rest of a value split over lines (TOKEN+='…'); the
// += of code with blanks around it, a variable and a short value stay.
func TestShellAppend(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"TOKEN='3e8d1c7a'\nTOKEN+='f05b92e46a1d7c38bf'", "f05b92e46a1d7c38bf"},
		{"GH_TOKEN+=Xk8vQ2mLp9RtZ4wN", "Xk8vQ2mLp9RtZ4wN"},
	})
	requireKept(t, san, "token += chunk", "password+=c", `secret+="$x"`, "CFLAGS+=-O2", "key+=1")
}

// TestTokenUnderVerbName: a name that opens with a verb (reset_password, update_token) holds
// a mode spelled in words; a generated value set apart by dashes under it is a token.
func TestTokenUnderVerbName(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"resetPasswordToken: 'qmvzrtw-xkplh-dnwfo'", "qmvzrtw-xkplh-dnwfo"},
		{"remember_token: 'pvtzk_qhwmrx_lsndv'", "pvtzk_qhwmrx_lsndv"},
	})
	requireKept(t, san, "reset_password: 'disabled'", "update_password: 'on-demand'", "update_password: 'on_create'", "require_password: 'always'")
}

// TestQuotedNames: a name the text quotes with its value — a literal that is one pair whole
// (curl -d "auth_pwd=x", an environment list's "db_pass=x") and a backticked name before a
// quoted literal (SQL's and R's `password` = 'x'); words, a variable and a code span in a
// sentence stay.
func TestQuotedNames(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`curl -s https://cmdb.example.org/rest -d "auth_user=ops" -d "auth_pwd=zqmvtrkw"`, "zqmvtrkw"},
		{`args = ['-e', 'db_pass=hwqzrtkv']`, "hwqzrtkv"},
		{"UPDATE users SET `password` = 'k8vq2mzx' WHERE id = 1;", "k8vq2mzx"},
		{"body <- list(\n  `username` = 'ops',\n  `password` = 'zqmvtrkw'\n)", "zqmvtrkw"},
	})
	requireKept(t, san,
		`query := "access_token=imaginary_access_token"`,
		`cmd = "password=" + pw`,
		`"password=$PASSWORD"`,
		"Set `password`: the account's password",
		"`password` = password",
	)
}

// TestKeyBytesList: a key written as its bytes under a key's, a secret's or an auth name
// (Go's []byte{…} and key types, Python's bytes([…]), Java's new byte[] {…}), over several
// lines too; counting sequences, ids, lists of keys and digests' bytes stay.
func TestKeyBytesList(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"\taesKey := lorawan.AES128Key{61, 203, 17, 88, 145, 9, 230, 72, 199, 34, 5, 160, 118, 41, 250, 93}", "61, 203, 17, 88, 145, 9, 230, 72"},
		{"\tauthData := []byte{47, 112, 9, 201, 66, 135, 18, 240, 77, 3, 158, 92,\n\t\t31, 174, 55, 8}", "47, 112, 9, 201, 66, 135, 18, 240"},
		{"key = bytes([0x3c, 0xa1, 0x5e, 0x07, 0xd9, 0x62, 0xf4, 0x1b, 0x88])", "0x3c, 0xa1, 0x5e, 0x07, 0xd9"},
		{"byte[] secret = new byte[] {12, 97, 3, 54, 120, 33, 86, 71, 9};", "12, 97, 3, 54, 120"},
	})
	requireKept(t, san,
		"\tfpgaID := lorawan.EUI64{1, 2, 1, 2, 1, 2, 1, 2}",
		"\tkeyHash := []byte{61, 203, 17, 88, 145, 9, 230, 72, 199}",
		"\tkeys := []int{61, 203, 17, 88, 145, 9, 230, 72, 199}",
		"\tkey := []byte{\n\t\t0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,\n\t}",
		"\tiv := []byte{61, 203, 17, 88, 145, 9, 230, 72, 199}",
	)
}

// TestGluedSecretFlag: a flag whose name runs words into password, passphrase or secret
// (PowerShell's -CertFilePassword, -AccountPassword, --dbpassword) takes the secret after
// it; -Rpass=regexp, switches and flags about a password stay.
func TestGluedSecretFlag(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`PS> .\Audit.ps1 -Certificate C:\certs\app.pfx -CertFilePassword Qz7#vkP2mw!x -TenantId 1`, "Qz7#vkP2mw!x"},
		{"New-ADUser -Name svc -AccountPassword Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
		{"migrate --dbpassword s3cretXyz9", "s3cretXyz9"},
	})
	requireKept(t, san,
		"/// regular expression given in -Rpass=regexp, then the remark will",
		"Connect-X -ForcePasswordChange $true",
		"New-LocalUser -Name x -NoPassword",
		"Get-X -PasswordNeverExpires true",
	)
}

// TestPercentEncodedBase64: random base64 written into a URL or a header with +, / and =
// percent-encoded (%2B, %2F, %3D) is masked whole; an encoded path, URL or short value stays.
func TestPercentEncodedBase64(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`Authorization: OAuth oauth_nonce="4", oauth_signature="%2Fk7QmR2%2BvXzLp9Wt4Hn%2B8aYcJ3%3D", oauth_version="1.0"`, "vXzLp9Wt4Hn"},
		{`expect(header).to match(/oauth_signature="Kd9mPq2Xv%2FtL7wR4zNb8Hs%3D"/)`, "tL7wR4zN"},
	})
	requireKept(t, san,
		"curl \"https://gitlab.example.org/api/v4/projects/42/repository/files/src%2Fmain%2Fjava%2Fcom%2Fexample%2FApp.java?ref=main\"",
		`oauth_callback="https%3A%2F%2Fapp.example.org%2Fcallback"`,
		"q=a%3Db%2Bc",
	)
}

// TestServerUsersList: a server config's users list (nats-server's users = [ {user: a,
// password: x} ]) holds bare literals; a variable, a member and a name of words stay.
func TestServerUsersList(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"accounts {\n\tA {\n\t\tusers = [\n\t\t\t{user: carol, password: qvzt}\n\t\t]\n\t}\n}", "qvzt"},
		{"users: [\n  {user: ops, password: wxkrm, permissions: $ADMIN}\n]", "wxkrm"},
	})
	requireKept(t, san,
		"users = [\n  {user: bob, password: $BOB_PASS}\n]",
		"const users = [\n  {user: u, password: userPass}\n]",
		"users = [\n  {user: u, password: opts.password}\n]",
		"{user: ivan, password: pw}",
	)
}

// TestOAuthGrant: an OAuth authorization code or verifier under its name (authCode,
// auth_code, oauth_verifier, code_verifier) is a credential when it is generated; words,
// placeholders and reads of a request stay.
func TestOAuthGrant(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`const string authCode = "7c2e09b4fa";`, "7c2e09b4fa"},
		{`var expectedAuthCode = "e41d8a07c3";`, "e41d8a07c3"},
		{"get :callback, params: { oauth_verifier: 'qKwhTzmPLeVRbXnuDSfa' }", "qKwhTzmPLeVRbXnuDSfa"},
	})
	requireKept(t, san,
		`authCode = "authorizationCode"`,
		`auth_code: "sample"`,
		`authCode = request.args.get("code")`,
		`authorization_code = "grant_type"`,
	)
}

// TestGibberishUnderKeyName: under a key's name (key, consumer_key), a run of eight or more
// letters with fewer than one in six a vowel is written by no language, so it is generated;
// words, abbreviations and names of code stay.
func TestGibberishUnderKeyName(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`"key": "QWKPZMBRTDLXGNH",`, "QWKPZMBRTDLXGNH"},
		{"private $consumer_key = 'vrtkplmz_qwd';", "vrtkplmz_qwd"},
		// Lower case, shorter runs, but letter pairs English hardly writes (kz, zq, wx).
		{`	private final String key = "ukzqwxte";`, "ukzqwxte"},
		{`  cache.fetch(opts, { key: "t4gvzq_hjwe" })`, "t4gvzq_hjwe"},
	})
	requireKept(t, san,
		`key: "nginx_cfg"`,
		`  cache.fetch(opts, { key: "cfg_ttl_ms" })`,
		`  theme.get({ key: "dwm_cfg_bg" })`,
		`  store.read({ key: "cfg_pth_sfx" })`,
		`	private final String key = "mysql_db";`,
		`<li key="dashboard_item">`,
		`key = "CTRL_SHIFT"`,
		`key: "xmlhttp"`,
		`key = "kubeconfig"`,
		`"key": "HTTPS_PROXY"`,
		`"key": "XXXXXXXXXXXX"`,
		`<add key="SmtpPasswdTtl" value="3600" />`,
	)
}

// TestGibberishAssignedUnquoted: an unquoted value under a password's name is a name of
// code (dbPassword = schemaPassword) unless its letters make no name: pairs English
// hardly writes and no word among them.
func TestGibberishAssignedUnquoted(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"\t\tdeployPassword = qzWkervtoxb\n\t\tif (deployPassword.length() == 0) {", "qzWkervtoxb"},
	})
	requireKept(t, san,
		"\t\tdeployPassword = schemaPassword\n\t\tif (deployPassword.length() == 0) {",
		"\t\tdeployPassword = xhrRequest\n",
	)
}

// TestQueryKeyParameter: a link's query parameter whose one-word name ends in key holds a
// key when the value is generated (16+ hex digits, a UUID); a short or worded value stays.
func TestQueryKeyParameter(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"Vote here: <https://polls.example.org/cgi-bin/ballot.pl?id=P_77aa&bkey=c4e19d07a2b5f368>", "c4e19d07a2b5f368"},
		{`<a href="https://chat.example.net/join?gkey=0f3e9a1c7b2d4e6f8a0b1c2d3e4f5a6b">`, "0f3e9a1c7b2d4e6f8a0b1c2d3e4f5a6b"},
	})
	requireKept(t, san,
		"https://example.com/search?q=go&pagekey=page2",
		"https://example.com/x?lkey=1a2b3c&monkey=9cd41e07a3b5f261",
	)
}

// TestWindowsKeyOptions: key material in hex after a Windows tool's slash option
// (mimikatz's /masterkey:, /ntlm:, /aes256:) logs in as the password would; an option's
// word and a path stay.
func TestWindowsKeyOptions(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"dpapi::chrome /in:Cookies /masterkey:4d2f9a0c7e1b3865d4f0a2c9e7b1d3f5a8c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8", "4d2f9a0c7e1b3865d4f0a2c9e7b1d3f5"},
		{"sekurlsa::pth /user:svc /domain:corp.example /ntlm:8c1e5a3f0d7b29c46e8a1f3d5b7c9e02", "8c1e5a3f0d7b29c46e8a1f3d5b7c9e02"},
	})
	requireKept(t, san, "robocopy /mir /key:value", "msbuild /p:Configuration=Release", "tool /key:0000000000000000")
}

// TestSecretList: a list of literals under a secret's name holds secrets where they are
// generated (hex, random); a list of validation rules or of names stays.
func TestSecretList(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"const password = ['3b8f0e2a9c17d4e6b5a0f3c8d2e7b914', 'c0a9e8d7b6f5a4c3'] // admin, guest", "3b8f0e2a9c17d4e6b5a0f3c8d2e7b914"},
		{"secrets:\n  signing_secret: [\"Xk9mQ2vLp7wRtZ4nB8\", \"Hq3Lm0Vd7Pz2Wr5Ky9\"]", "Hq3Lm0Vd7Pz2Wr5Ky9"},
	})
	requireKept(t, san,
		"'password' => ['required', 'string', 'min:8', 'confirmed'],",
		"passwords = [user.password, other]",
		`secret_names = ["db-password", "api-key"]`,
	)
}

// TestKeyColonHex: a key's bytes in hex with colons between them (as OpenSSL and key tools
// print them) under the name key; a fingerprint and a short run stay.
func TestKeyColonHex(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"        $key = '5e:0b:a7:19:c3:88:2d:f4:61:9a:0e:b5:37:d2:7c:4f:a8' .", "5e:0b:a7:19:c3:88:2d:f4:61:9a:0e:b5:37:d2:7c:4f"},
		{"key: 3a:9f:00:1b:c4:7e:22:d0:58:a1:6b:ef:13:90:4c:7d:e2", "3a:9f:00:1b:c4:7e:22:d0:58:a1:6b:ef:13:90:4c:7d"},
	})
	requireKept(t, san,
		"fingerprint: 3a:9f:00:1b:c4:7e:22:d0:58:a1:6b:ef:13:90:4c:7d:e2",
		`key = "aa:bb:cc"`,
	)
}

// TestStubbedSecret: the literal a test double returns for a getter named for a secret
// (RSpec's receive(:token) { '…' } and .and_return('…'), Mockito's
// when(cfg.getApiKey()).thenReturn("…")); a variable, nil, an empty string and a getter
// about a secret stay.
func TestStubbedSecret(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"    allow(access_token).to receive(:token) { 'e3b9a1c07d5f28e4b6a0c9d3f7e1b5a2' }", "e3b9a1c07d5f28e4b6a0c9d3f7e1b5a2"},
		{"    allow(client).to receive(:api_key).and_return('Zq4Wm8Xv2Lp6Rt0Nb5')", "Zq4Wm8Xv2Lp6Rt0Nb5"},
		{`when(config.getApiKey()).thenReturn("Zq4Wm8Xv2Lp6Rt0Nb5");`, "Zq4Wm8Xv2Lp6Rt0Nb5"},
	})
	requireKept(t, san,
		"    allow(x).to receive(:token) { nil }",
		"    allow(x).to receive(:token).and_return(token)",
		"    allow(x).to receive(:password).and_return('')",
		`when(config.getPassword()).thenReturn(password);`,
		`when(config.getTokenType()).thenReturn("Bearer");`,
	)
}

// TestValueMember: a map assigned to a secret's name keeps it in its value member (Rails'
// cookie jar: cookies[:auth_token] = { value: '…', httponly: true }); an empty value, a
// variable and a prompt stay.
func TestValueMember(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"      request.cookies[:remember_me_token] = { value: 'kq70v2mz4rw9x8ty51', expires: 3600 }", "kq70v2mz4rw9x8ty51"},
		{`    cookies.signed[:secret] = { "value" => "Zq4Wm8Xv2Lp6", "expires" => 1.hour }`, "Zq4Wm8Xv2Lp6"},
	})
	requireKept(t, san,
		"    password = { value: '', required: true }",
		"    token = { value: token_value }",
		"    passwordInput = { value: 'Enter password' }",
	)
}

// TestCamelGibberishUnderKeyName: under a key's name, letters in both cases with a digit
// whose capitals cut them into parts no one of which is a word are generated; a name of
// code made of words stays.
func TestCamelGibberishUnderKeyName(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"\tString key = \"QvrTxnPwlekz42\";", "QvrTxnPwlekz42"},
	})
	requireKept(t, san,
		`	String key = "myApiKey2024";`,
		`	String key = "HmacSha256Key";`,
		`  { key: "GetUser2Id", label: "user" },`, // a digit, then the next word's capital
	)
}

// TestKeyOpeningText: a text that opens with the name key and a quoted value is judged
// like any other (the attribute-map check read before the text's start and the whole text
// came out as [redacted]).
func TestKeyOpeningText(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san, `key: "user_id"`, `key = "theme"`, `key: "nginx_cfg"`)
	requireMasked(t, san, []maskedRow{{`key: "QWKPZMBRTDLXGNH"`, "QWKPZMBRTDLXGNH"}})
	out := san.NewSession(SessionHints{}).SanitizeText(`key: "Zq4Wm8Xv2Lp6Rt0Nb5"  # the signing key`)
	require.Equal(t, `key: "[redacted:password/keyword-assignment]"  # the signing key`, out)
}

// TestOwnedSecretName: a name of three parts or more ending in a credential's word says
// whose credential it is with the words before (CertFilePassword: a certificate file's
// password; TextEncryptionKey); the file, the text or the help about a secret stay.
func TestOwnedSecretName(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"CertFilePassword = 'pqzvkrtw'", "pqzvkrtw"},
		{`    "TextEncryptionKey": "R7Q2M9ZK4P1XW8NC5T3VB6YD"`, "R7Q2M9ZK4P1XW8NC5T3VB6YD"},
	})
	requireKept(t, san,
		`password_file = "/etc/app/pw"`,
		`cert_password_file = "server.pw"`,
		`helpTextPassword = "Use eight characters or more"`,
		`url_password_text = "Forgot?"`,
	)
}

// TestFiveDigitPassword: five digits given as a password's literal are the weak password
// people choose; counting, repeated digits and settings about a password stay.
func TestFiveDigitPassword(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"$host=\"127.0.0.1\";\n$user =\"root\";\n$password=\"73914\";", "73914"},
		{"db_password = '80617'", "80617"},
	})
	requireKept(t, san, `"password": "12345"`, `password="00000"`, `PASSWORD_MIN = '10000'`, `pin = "4821"`)
}

// TestAccountThenPassword: a password's label after an account's on one line, as notes
// write a login (User: app / Password: x); words, templates and sentences stay.
func TestAccountThenPassword(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"Database name:shop/User:shop/Password:qvztkwr", "qvztkwr"},
		{"Database: app / User: app / Password: zrkqvmt", "zrkqvmt"},
	})
	requireKept(t, san,
		"user: {name}, password: pw",
		"Login: admin / Password: required",
		"User: bob Password: see the vault",
	)
}

// TestSQLServerLoginPassword: SQL Server's CREATE LOGIN … WITH PASSWORD = 'x', with N'x',
// and quoted again inside an EXECUTE string (the quotes doubled, twice over when nested);
// a bind parameter stays.
func TestSQLServerLoginPassword(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`EXECUTE('EXECUTE(''CREATE LOGIN ops WITH PASSWORD = ''''Kv9#rTz2.mQ'''' '') AT "SRV1"') AT "SRV2"`, "Kv9#rTz2.mQ"},
		{"ALTER LOGIN sa WITH PASSWORD = N'Kv9#rTz2.mQ'", "Kv9#rTz2.mQ"},
	})
	requireKept(t, san, "CREATE USER app WITH PASSWORD = $1")
}

// TestInvalidUTF8Decoded: a URL-encoded run that decodes to bytes no UTF-8 holds (%80) is
// read like any other; lower-casing it changed its length, the rules read past its end and
// the whole text came out as [redacted].
func TestInvalidUTF8Decoded(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		`curl "https://x.example.org/a?q=%80%81apikey" -H "X-Trace: 1"`,
		"GET /a?q=%e9%80token HTTP/1.1",
	)
}

// TestFormBodyCode: a form body that opens with an OAuth authorization code (curl -d
// 'code=…&grant_type=authorization_code'); a status code and a word stay.
func TestFormBodyCode(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"curl -d 'code=Qm4xTz8vKp2LrW9n&grant_type=authorization_code' https://auth.example.org/token", "Qm4xTz8vKp2LrW9n"},
	})
	requireKept(t, san, "x = 'code=200&msg=ok'", `s = "code=abcdefghijkl&x=1"`)
}

// TestBasicAuthSetters: the password of the calls that set Basic credentials from a user
// and a password (Spring's setBasicAuth and basicAuthentication, Laravel's withBasicAuth);
// variables stay.
func TestBasicAuthSetters(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{`client.setBasicAuth("ops", "kwzrtvq")`, "kwzrtvq"},
		{"Http::withBasicAuth('ops', 'mvqzrtk')->get($url);", "mvqzrtk"},
	})
	requireKept(t, san, "headers.setBasicAuth(user, password);", `headers.setBasicAuth("user", "<password>");`)
}

// TestLongQuotedValue: a quoted value of one word is taken whole up to 1024 characters (a
// long key in hex or base64), not cut at 400 with its tail shown; a long sentence is not
// a value.
func TestLongQuotedValue(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	long := "895747542690d408428ed48b7fdbda3b8e4ee5965b8be88c4f776b42dec0d174fe85d8b6b47f611ba59653752d1ea20493d982fb10aa4ff7691c548d68d7b79d6bd1ace221096efca19d4413b5699c91b43bfed1b941a540742fb2b86177e6c1134bc94982b1050382ad591339ccfc844e90088a77bd5fd84ee6cf601f5430492f16d004941d87f037a0ea71d703b4eb4b79284453140ebcfd2e8ac36ac2fd90ecdf128604a96d9062342c6a5055117d5d2f431b152d9d9789d98632513847933fe31d4f7fab30f238e0d4047b4dd0bbab63455d1d3fd64c0ccadc927c51ee3e41607d1f8d1b6ec5e6dc1cc76d6110ecc4e2ffe201f5730d6ef1d168f44405295f6f072e322c5610c6ea4e5472d5cd799e03ee7580e6804da7e0c8341ae0223b25fe0e0ab2dd26a4342c9f9d"
	out := san.NewSession(SessionHints{}).SanitizeText("api_key = '" + long + "'")
	require.NotContains(t, out, long[400:])
	prose := strings.Repeat("the key is kept in the vault and rotated ", 12)
	requireKept(t, san, "help = \""+prose+"\"")
}
