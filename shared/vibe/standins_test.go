package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Values that stand where a secret would and name it, arguments a shell keeps apart, and
// parameters of a header or a query that are no credential.
func TestNamedStandInsAndShellArguments(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// a constant's name that ends in what it holds
			"            username_secret: AWS_ACCESS_KEY_ID",
			"        join_token = 'A_BEAUTIFUL_JOIN_TOKEN'",
			"git clone https://token:MY_GITHUB_TOKEN@github.com/acme/repo.git",
			// a media type after a key's name in a call
			`        return "Bearer" + self.api_key, "application/json"`,
			// Python's word operators: code, its only literal empty
			`        self.last_token = parsed and parsed.token_prev(len(parsed.tokens))[1] or ""`,
			// a C cast
			"user = (char *) (p + 1);\npwd = (char *) (q + 1);",
			// prose: what passes
			"5. Make sure the tests pass: `docker buildx bake test`",
			"All checks pass: `go vet ./...` is clean",
			// Digest's parameters
			`    Authorization: Digest username="testuser", realm="testrealm", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093"`,
			// a backquoted command in a query
			"curl -s \"https://api.crowdin.net/api/project/app/export?key=`cat ~/.crowdin.key`\"",
			// the word for a password in the reader's language, and a sudoers rule so written
			"sshpass -p '密码' ssh -n root@$IP \"echo hello\"          # 指定密码远程操作",
			"用户  别名(可用all)=NOPASSWD:命令1，命令2",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"password: DHOY_YZQ", "DHOY_YZQ"},
			{"password: PASSWORD_2024", "PASSWORD_2024"},
			{"token = 'TOKEN_Xk9mQ2vLp7wR'", "TOKEN_Xk9mQ2vLp7wR"},
			{"git clone https://deploy:Xk9mQ2vLp7wR@github.com/acme/repo.git", "Xk9mQ2vLp7wR"},
			{`headers = {"X-Api-Key": "application/Xk9mQ2vLp7wR"}`, "Xk9mQ2vLp7wR"},
			{"    password = salt and pepper", "salt and pepper"},
			{"    password = my_secret_value and 'Hunter2!xyz'", "Hunter2!xyz"},
			{"pwd = (Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{"db pass: Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{`Authorization: Digest dXNlcjpYazltUTJ2THA3d1I=`, "dXNlcjpYazltUTJ2THA3d1I="},
			{"curl -H 'X-Api-Key: 8f3kd9sl20dk3ls9d0' https://api.example.org/v1/items", "8f3kd9sl20dk3ls9d0"},
			{`api_key = "sk-ant-api03-" "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"`, "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			{"[![ci](https://ci.example.com/badge.svg?token=Xk9mQ2vLp7wR)](https://ci.example.com)", "Xk9mQ2vLp7wR"},
			{"sshpass -p 'Xk9mQ2vLp7wR' ssh root@host", "Xk9mQ2vLp7wR"},
		})
	})
	t.Run("a flag's argument ends at its quote", func(t *testing.T) {
		out := san.NewSession(SessionHints{}).SanitizeText("curl -v -H 'X-Api-Key:123456789' 'https://synthetics.newrelic.com/synthetics/api/v3/monitors?test=2'")
		require.Contains(t, out, " 'https://synthetics.newrelic.com/synthetics/api/v3/monitors?test=2'")
		require.NotContains(t, out, "123456789")
	})
	t.Run("markdown link keeps its tail", func(t *testing.T) {
		for _, in := range []string{
			"[![ci](https://ci.example.com/badge.svg?token=Xk9mQ2vLp7wR)](https://ci.example.com/x)",
			// the keyword's value, too, when the link's target names the service
			"[![codecov](https://codecov.io/gh/o/r/graph/badge.svg?token=lWZ9OBQ7GM)](https://codecov.io/gh/o/r)",
		} {
			out := san.NewSession(SessionHints{}).SanitizeText(in)
			require.Contains(t, out, "?token=[redacted:", out)
			require.True(t, strings.HasSuffix(out, ")](https://ci.example.com/x)") || strings.HasSuffix(out, ")](https://codecov.io/gh/o/r)"), out)
		}
		out := san.NewSession(SessionHints{}).SanitizeText("see https://api.example.com/v1/items?token=Xk9mP2vLq8wRt3Ns5Hq7#section")
		require.Equal(t, "see https://api.example.com/v1/items?token=[redacted:password/keyword-assignment]#section", out)
	})
}

// Words a JSON encoder escaped, and values tests write for "any value".
func TestEscapedWordsAndTestValues(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`{"PF":"Franz\u00f6sisch-Polynesien","GF":"Franz\u00f6sisch-Guayana"}`,
			`{"BA":"B\u00f3snia-Herzegovina"}`,
			"$this->jwtAuth->setToken('foo.bar.baz')",
			"json_encode(['custom_token_key' => 'foobar'])",
			"'fs.s3a.access.key': 'ABCD'",
			"RAILWAY_API_TOKEN=not-a-uuid",
			"SOME_RANDOM_KEY=not_anthropic_related",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`{"token":"x\u00f6Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"}`, "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			{`{"token":"\u0041Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"}`, "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			{"api_key = 'abcdefghijklmnopqrst'", "abcdefghijklmnopqrst"},
			{"SECRET_KEY=abc | def", "abc"},
			{"token: 'nottingham42x'", "nottingham42x"},
		})
	})
}

// Go as a translator from C writes it, and expressions of code under a key's name.
func TestTranslatedCodeExpressions(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"\t\t_sqlite3VdbeSetP4KeyInfo(tls, pParse, pIdx)",
			"\t\tc = _sqlite3DecOrHexToI64(tls, z, bp)\nfunc _sqlite3DecOrHexToI64(tls *libc.TLS, z uintptr, pOut uintptr) (r int32) {",
			"\t\tx = _sqlite3Fts5MallocZero(tls, n)",
			"\t\tp = _sqlite3MallocZero(tls, uint64(uint32(52)+libc.Uint32FromInt32(nDest)+uint32(1)))",
			"\t\tpStat1 = _sqlite3DbMallocZero(tls, db, uint64(libc.Uint32FromInt64(80)+libc.Uint32FromInt32(13)))",
			"\t\t\tnKey = i - uint32(1)",
			"\t\tregBase = (*TParse)(unsafe.Pointer(pParse)).FnMem + int32(1)",
			"\tp.FiPKey = int16(-int32(1))",
			"\txAuth = (*Tsqlite3)(unsafe.Pointer(db)).FxAuth",
			"\t\tpKeyInfo = *(*uintptr)(unsafe.Pointer(pOp + 16))",
			"\t\ttoken := &parser.tokens[parser.tokens_head]",
			"\tpass := !isEmpty(object)",
			"\tlastTokenParsed = -int32(1)",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"password = -Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{"password = !Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{"password = (*Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{"token = Xk9mQ2vLp7wR - abc", "Xk9mQ2vLp7wR"},
			{`{"key":"Qx7v+Rk4tLmZ2wPn8+aB3cD9eF1gH5jK"}`, "Qx7v+Rk4tLmZ2wPn8+aB3cD9eF1gH5jK"},
			{"auth: _Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0", "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
		})
	})
}

// Python as libraries write it: annotations with defaults, lexers' tokens, constants that
// name the keys they look up, a database's weekly maintenance window.
func TestPythonLibraryShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"        password: str | None = None",
			"    username: bytes | str",
			"        secrets: Dict[str, Optional[str]] = {}",
			"        self.token_normalize_func: t.Callable[[str], str] | None = token_normalize_func",
			"    nextToken: PageToken | None",
			"    task_input: Final[str]",
			`            state.add_token("async")`,
			`                    if token == "async":`,
			"        while not current_token == 'rbracket':",
			"          (rf'{term}[a-zA-Z]*', token, '#pop'),",
			"LAMBDA_TASK_ROOT_KEY = 'LAMBDA_TASK_ROOT'",
			"CONTEXT_MISSING_KEY = 'AWS_XRAY_CONTEXT_MISSING'",
			`maintenance_window = "thu:23:30-fri:00:30"`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"password: hunter2 | none", "hunter2"},
			{"api_key: Dict[Xk9mQ2vLp7wR]", "Xk9mQ2vLp7wR"},
			{`client_secret = "lambda"`, "lambda"},
			{"API_KEY = 'DHOY_YZQ'", "DHOY_YZQ"},
			{"password = 'PASSWORD_2024'", "PASSWORD_2024"},
			{"echo 'db.internal:5432:app:deploy:Xk9mQ2vLp7wR' >> ~/.pgpass", "Xk9mQ2vLp7wR"},
		})
	})
}

// Scripts as systems ship them: a command kept in a variable or run by backquotes, a
// pattern's sorted option letters, a listing's padded addresses.
func TestSystemScriptShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"    my $pwd = `pwd`;",
			"    cat_passwd='getent passwd'",
			`PASS_CMD="pass show db/prod"`,
			"  (-[0123456789abcdEFGhHiIKlLnoPqrRsTuUvVwxyzZ]*[!0123456789]*)",
			"#   GNU_EH_FRAME   0x00000000000777f4 0x00000000004777f4 0x00000000004777f4",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"const password = `Xk9mQ2vLp7wR`;", "Xk9mQ2vLp7wR"},
			{"password='cat Xk9mQ2vLp7wR'", "Xk9mQ2vLp7wR"},
			{"print 'password: \"' . 'hunter2xyz' . '\"';", "hunter2xyz"},
			{`{"key":"q7ZkP2mWv9sT4rLx8BnC3dF6gH1jK5"}`, "q7ZkP2mWv9sT4rLx8BnC3dF6gH1jK5"},
			{"cloudsmith 0x9f3c2a7b1e8d4f6a0c5b", "9f3c2a7b1e8d4f6a0c5b"},
		})
	})
}

// A closing tag is no path: </root> is not root's home directory.
func TestClosingTagIsNoHome(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	out := san.NewSession(SessionHints{}).SanitizeText("<writable_roots>\n    <root>/Users/hoper/code</root>\n</writable_roots>")
	require.Equal(t, "<writable_roots>\n    <root>~/code</root>\n</writable_roots>", out)
	out = san.NewSession(SessionHints{}).SanitizeText("cat /root/.bashrc and <home>/home/alice/x</home>")
	require.Equal(t, "cat ~/.bashrc and <home>~/x</home>", out)
}

// What Codex sessions showed: a checklist's verdict, a decentralized identifier, a Windows
// app package's folder.
func TestCodexSessionShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"- **PASS**: All checklists have 0 incomplete items",
			"[PASS] build and tests",
			`{"did": "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"}`,
			`Program Files\WindowsApps\OpenAI.Codex_26.305.1234.0_x64__2p2nqsd0c76g0\app\resources\rg.exe`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"PASS: Xk9mQ2vLp7wR", "Xk9mQ2vLp7wR"},
			{`{"key": "z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"}`, "z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"},
			{`{"token": "OpenAI.Codex_x64__Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"}`, "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
		})
	})
}

// Go written by SDKs and generators: a stand-in key in words, attribute keys, generated
// documentation's Required., import aliases, composite literals under a credential's name.
func TestGoSDKShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`		option.WithAPIKey("My API Key"),`,
			`	AWSS3BucketKey = attribute.Key("aws.s3.bucket")`,
			`	K8SCronJobUIDKey = attribute.Key("k8s.cronjob.uid")`,
			`	AWSS3CopySourceKey = attribute.Key("aws.s3.copy_source")`,
			"	// Password: Required.",
			"	// ClientId: Optional.",
			`	icredentials "google.golang.org/grpc/internal/credentials"`,
			`		ChannelCreds: []bootstrap.ChannelCreds{{Type: "google_default"}},`,
			"		Credentials: &types.Credentials{",
			"	creds := &s2avTransportCreds{",
			"	// Examples: 'ami-07b06b442921831e5'",
			"aws ec2 describe-instances --instance-ids i-0abcdef1234567890",
			`	NetworkConnectionSubtypeCdma20001xrtt = NetworkConnectionSubtypeKey.String("cdma2000_1xrtt")`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`secret = "my.secret.value"`, "my.secret.value"},
			{"TOKEN=keyword.control", "keyword.control"},
			{`password = "admin{123}"`, "admin{123}"},
			{`option.WithAPIKey("AIzaSyXk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0")`, "AIzaSyXk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			{`api_key = "My Xk9mQ2vLp7wR Key"`, "Xk9mQ2vLp7wR"},
			{"secret: ami-Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0", "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			{`APIKey.String("Xk9mQ2vLp7wRz4Tn8Bq3")`, "Xk9mQ2vLp7wRz4Tn8Bq3"},
		})
	})
}

// Python frameworks' names: an option's alias, a migration, a class's dotted path.
func TestFrameworkNames(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"        common.add_argument('--token', '--api-key', dest='api_key')",
			"    group.add_argument('--private-key', '--key-file', dest='private_key_file')",
			"        ('auth', '0002_alter_permission_name_max_length'),",
			"PASSWORD_HASHERS = ['django.contrib.auth.hashers.PBKDF2PasswordHasher']",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`e = create_engine("postgresql://scott:tiger@localhost/test")`, "tiger"},
			{"common.add_argument('--token', 'Xk9mQ2vLp7wR')", "Xk9mQ2vLp7wR"},
			{"password = 'my.pass.Xk9mQ2vLp7wR'", "Xk9mQ2vLp7wR"},
		})
	})
}

// An option's or a variable's name passed as an argument is not its value.
func TestSecretNamesAsArguments(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"    conn = S3Connection(aws_access_key_id, aws_secret_access_key,\n                        secret_access_key=aws_secret_access_key)",
			"    def add_credentials(cls, cfg, aws_access_key_id, aws_secret_access_key):",
			"        self.config.set('Credentials', 'aws_access_key_id', self.ec2.aws_access_key_id)",
			"    HCLOUD_TOKEN=parser.get('default', 'hcloud_api_token')",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`db_password = os.getenv("DB_PASSWORD", "db_password_x9")`, "db_password_x9"},
			{`password="db_password"`, "db_password"},
			{"        self.config.set('Credentials', 'Xk9mQ2vLp7wRz4Tn8Bq3')", "Xk9mQ2vLp7wRz4Tn8Bq3"},
		})
	})
}

// Documentation's link definitions and lists of quoted example words.
func TestDocumentationLinksAndExamples(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"	// [secret]: https://kubernetes.io/docs/concepts/storage/volumes/#secret",
			`	// Examples: "pass", "fail"`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"callback: https://app.example.com/cb#access_token=Xk9mQ2vLp7wRz4Tn8Bq3&state=x", "Xk9mQ2vLp7wRz4Tn8Bq3"},
			{`	// Examples: "pass", "Xk9mQ2vLp7wR"`, "Xk9mQ2vLp7wR"},
			{`	login: "pass", "hunter2x"`, "hunter2x"},
		})
	})
}

// What JavaScript libraries' own code and documentation hold: tagged object ids in examples,
// the names a credential goes by, error codes, certificates pasted without their armour.
func TestJavaScriptLibraryShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// an object id in Anthropic's tagged form, whatever its tag
			"     *     'depl_011CZkZcDH3vPqd7xnEfwTai',",
			"const id = 'vlt_011CZkZDLs7fYzm1hXNPeRjv';",
			// a constant naming the parameter, header, method or host a credential goes by
			`export const SESSION_TOKEN_QUERY_PARAM = "X-Amz-S3session-Token";`,
			"const FIREBASE_LONGPOLL_PW_PARAM = 'pw';",
			"const EXCHANGE_RECAPTCHA_TOKEN_METHOD = 'exchangeRecaptchaV3Token';",
			`            tokenApiHost: "securetoken.googleapis.com",`,
			"const API_KEY_HEADER = 'X-API-Key';",
			// an error type or code
			`    KMS_DISABLED_KEY: "KMS_DisabledException",`,
			`        _assert(app.options?.apiKey, "invalid-api-key");`,
			`    password: "wrong_password",`,
			// code: a call, a function, a route, an import, an enum member
			"            approveAuthorization: this._approveAuthorization.bind(this),",
			"  endpoint.headers.authorization = withAuthorizationPrefix(token);",
			"      options.onToken = function (token) { return tokens.push(token); };",
			`    getOrgSecret: ["GET /orgs/{org}/actions/secrets/{secret_name}"],`,
			"exports.CREDENTIAL_OPTIONS = ['apiKey', 'authToken'];",
			`export { Sha512WebCrypto } from "./sha512/Sha512WebCrypto";`,
			`    VoiceEncryptionMode["AeadAes256GcmRtpSize"] = "aead_aes256_gcm_rtpsize";`,
			// an encoding, a regular expression, a feature named with its date, a public key of
			// Web Push, a qualified constant, a storage key's name
			"const data = await fs.promises.readFile(tokenFile, 'utf8');",
			"            : Buffer.from(secret, 'utf-8');",
			"const VALID_KEY = `[a-z]${VALID_KEY_CHAR_RANGE}{0,255}`;",
			"  'anthropic-beta': [...(betas ?? []), 'token-counting-2024-11-01'],",
			"const DEFAULT_VAPID_KEY = 'BDOU99-h67HcA6JeFXHbSNMu7e2yNNu3RzoMj8TM4W88jITfq7ZmPvIM1Iv-4a7Jk4Bvd3x0LsP5QOoQhFAvDmY';",
			"      : options.charsetNumber || Charsets.UTF8MB4_UNICODE_CI;",
			"const PARSED_LOAD_REPORT_KEY = 'grpc_orca_load_report';",
			"        tokenRatio: +obj.tokenRatio.toFixed(3),",
			// a certificate's line without its armour
			"        'gZwxCzAJBgNVBAYTAlVTMSIwIAYDVQQKDBlBbWF6b24gV2ViIFNlcnZpY2VzLCBJbmMuMRMwEQYDVQQLDApBbWF6b24gUkRTMQswCQYDVQQIDAJXQTE1MDMGA1UEAwwsQW1hem9uIFJEUyBhcC1zb3V0aGVhc3QtMSBSb290IENBIFJTQTQwOTYgRzEx' +",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			// a key of a tagged form, or an id whose body is not base58
			{"const key = 'sk_01Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd0';", "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd0"},
			// a generated value under such a name
			{"const AUTH_TOKEN_HEADER = 'Xk9mQ2vLp7wRz4Tn8Bq3';", "Xk9mQ2vLp7wRz4Tn8Bq3"},
			{"TOKEN_PARAM = 'f4556650ac31d35461610bac4ed81b1a'", "f4556650ac31d35461610bac4ed81b1a"},
			// a word of no good with a random part
			{"password: 'wrong-Xk9mQ2vLp7wR'", "Xk9mQ2vLp7wR"},
			// a default after ||, however it is written
			{"const secret = process.env.JWT_SECRET || 'mySuperSecretKey';", "mySuperSecretKey"},
			// a generated value beside code's shapes
			{"headers.authorization = 'Bearer Xk9mQ2vLp7wRz4Tn8Bq3(';", "Xk9mQ2vLp7wRz4Tn8Bq3"},
			{`export { Key } from "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0";`, "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			{`export { Key } from "./Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0";`, "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0"},
			// a Web Push private key, a random value under a storage key's name
			{"const VAPID_PRIVATE_KEY = 'Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0aB2cD3eF4g';", "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0aB2cD3eF4g"},
			{"config.setJwtSecretKey(\"QgdxvJceFRvnm\");", "QgdxvJceFRvnm"},
			// a private key's line
			{"        'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4ypbd' +", "AoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4ypbd"},
		})
	})
}

// What a development container's session shows: a listing of names one a line (not a value
// wrapped across them), a directory in the home named by a gist's id, overlay layers' ids.
func TestListingsAndLayerIDs(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"config-backup\ne42e875d0360dec9122ab5d088e66fd0\ngenshin\ngo\ngosrc\ninstallPackages.sh",
			"a GitHub gist script (`~/e42e875d0360dec9122ab5d088e66fd0/Ubuntu_Devcontainer_dotfile_setup.sh`) run via zsh",
			"lowerdir=l/O4334EHWY7WZOTZ6ABCDEFGHIJ:l/EAPFFR2KBLE6ICOMZH5ZLTTVRQ:l/FALI4CT6EGMG5ZM2J7I7PVAZY4,upperdir=diff",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			// a value wrapped at a width: every line but the last as wide as the last
			{"DB_PASSWORD=Zx8cQ5wEr7tY\nU2iO9pA4sD6f", "U2iO9pA4sD6f"},
			{"token: ghp_\nXk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0aB2c", "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd1Fg5Kc0aB2c"},
			// base32 of that length elsewhere
			{"TOTP_SECRET=O4334EHWY7WZOTZ6ABCDEFGHIJ", "O4334EHWY7WZOTZ6ABCDEFGHIJ"},
		})
	})
}

// TypeScript's declarations: parameters' and aliases' types, generic types, unique symbols,
// literal types in a union, special names, documented example keys and ids.
func TestTypeScriptDeclarations(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"    static _fromCredential(credential: PhoneAuthCredential): void;",
			"export declare function reauthenticateWithCredential(user: User, credential: AuthCredential): Promise<UserCredential>;",
			"    request(method: string, body: Req, _forwardCredentials: boolean): Promise<Resp>;",
			"    persist(targetId: string, current: boolean, resumeToken: _ByteString): void;",
			`    "GET /repos/{owner}/{repo}/codespaces": ReadonlyOperation<"/repos/{owner}/{repo}/codespaces", "get">;`,
			"export declare const GLOBAL_LOGS_API_KEY: unique symbol;",
			"    type Token = XOAuth2Token;",
			`export declare const RESERVED_DECIMAL128_KEY = "__decimal128__";`,
			"heroku config:set DOTENV_PRIVATE_KEY_PRODUCTION=value",
			// Java's cacerts ships with this password, the same everywhere
			"keytool -importkeystore -srckeystore cacerts -storepass 'changeit' -noprompt",
			"storepass='changeit'",
			"    TOKEN_REFRESH = 300000,",
			`    CREDENTIAL_MISMATCH = "custom-token-mismatch",`,
			"   type RequestExtendedAuthorization = 'if_available' | 'never';",
			"  external_key_ids: { [key: string]: string };",
			" * value is a Workspace ID (for example, `wrkspc_011CZkZaBF1tNoB5wlCeusgy`)",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"    password: Hunter2xyzQ9", "Hunter2xyzQ9"},
			{"const key = 'sk_01Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd0';", "Xk9mQ2vLp7wRz4Tn8Bq3Hs6Jd0"},
			{`    API_SECRET = "__Xk9mQ2vLp7wR__",`, "Xk9mQ2vLp7wR"},
			{`    password = "hunter#Password",`, "hunter#Password"},
		})
	})
}

// An environment file's generated values are its keys, whatever the variable's name, unless
// the name says what else the value is.
func TestEnvironmentFileValues(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"TRANSPOSE=cdce91dd51dd450d5b00d6009adc6429", "cdce91dd51dd450d5b00d6009adc6429"},
			{"APP_ENV=production\nMAILJET=Kp4Qx7Rm2Sn5Tb8VwZ3y\n", "Kp4Qx7Rm2Sn5Tb8VwZ3y"},
			{"export ACME_CLOUD=Kp4Qx7Rm2Sn5Tb8VwZ3y", "Kp4Qx7Rm2Sn5Tb8VwZ3y"},
			{"FROM node:20\nENV ACME_CLOUD=Kp4Qx7Rm2Sn5Tb8VwZ3y\n", "Kp4Qx7Rm2Sn5Tb8VwZ3y"},
			{"+ACME_CLOUD=Kp4Qx7Rm2Sn5Tb8VwZ3y", "Kp4Qx7Rm2Sn5Tb8VwZ3y"},
			// a properties or INI line's
			{"medium=b6559e279ed5ab9ef6f25fed4628f8e6", "b6559e279ed5ab9ef6f25fed4628f8e6"},
		})
	})
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"GIT_SHA=cdce91dd51dd450d5b00d6009adc6429",
			"ELOQUA_SITE_NAME=Kp4Qx7Rm2Sn5Tb8V",
			"DOTENV_PUBLIC_KEY=037cfbfc90234cfdab7eb54050566293789efaa1a35dc420749662db400dc9c4b2",
			"IDEMPOTENCY_KEY=9b2f6c1e-4d3a-4b8e-a1f2-3c4d5e6f7a8b",
			"BUILD_NUMBER=20241201123456",
			"CI_PIPELINE_ID=1234567890",
			"PYTHON_MD5=d41d8cd98f00b204e9800998ecf8427e",
			// indented: code, not an environment file
			"    ANSI_COLORS_ALIASES='newcolor1=oldcolor1,newcolor2=oldcolor2'",
		)
	})
}
