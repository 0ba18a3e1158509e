package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// codeRow is a line of code of one class: harmless (secret "") must come out without a
// mark; a credential written in the same syntax beside it must lose its secret.
type codeRow struct {
	class, text, secret string
}

func runCodeRows(t *testing.T, rows []codeRow) {
	t.Helper()
	san := testSanitizer(t)
	for _, r := range rows {
		t.Run(r.class, func(t *testing.T) {
			out := san.NewSession(SessionHints{}).SanitizeText(r.text)
			if r.secret == "" {
				require.Equal(t, strings.Count(r.text, "[redacted"), strings.Count(out, "[redacted"), "a harmless line was marked: %q", out)
				return
			}
			require.NotContains(t, out, r.secret, "the secret leaked: %q", out)
		})
	}
}

// TestCodeValuesNoSecret: what code assigns under a credential's name when it holds none —
// a machine integer, an expression, an index, a collection, a chained assignment, another
// constant, a regular expression — and the credentials written the same ways.
func TestCodeValuesNoSecret(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"hex flag", "\tICMPV6_FILTER_PASS        = 0x2\n\tNETKIT_PASS     = 0x0\n", ""},
		{"hex constant", "\tTOKEN_ADJUST_PRIVILEGES = 0x0020\n", ""},
		{"hex ioctl", "\tFS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS      = 0xc0406619\n", ""},
		{"hex js", "const SOCKS5_NO_ACCEPTABLE_AUTH = 0xff;\n", ""},
		{"hex key of key length", "TOKEN = 0x1f3a9c4b7d2e8f6a1b3c5d7e9f0a2b4c\n", "1f3a9c4b7d2e8f6a1b3c5d7e9f0a2b4c"},
		{"iota", "\tTOKEN_ASSIGN_PRIMARY = 1 << iota\n", ""},
		{"arithmetic", "\tEncapsulationKeySize768 = k*encodingSize12 + 32\n\tdecapsulationKeySize1024 = k1024*encodingSize12 + EncapsulationKeySize1024 + 32 + 32\n", ""},
		{"sum js", "                tokenStartI = i + 1;\n", ""},
		{"or of flags", "\t\"PW\": arm.C_WBIT | arm.C_PBIT,\n\tTOKEN_READ  = STANDARD_RIGHTS_READ | TOKEN_QUERY\n\tTOKEN_WRITE = STANDARD_RIGHTS_WRITE |\n\t\tTOKEN_ADJUST_PRIVILEGES\n", ""},
		{"comparison", "      mode: 'cors',\n      credentials: corsAttributeState === 'anonymous'\n        ? 'same-origin'\n", ""},
		{"negation", "    const noCreds = !(creds.token || creds.username || creds.certfile && creds.keyfile)\n", ""},
		{"concatenation of names", "        token.output = nodot + token.output;\n            pw = pw + c\n            passwd = passwd + 'anonymous@'\n", ""},
		{"ABNF repetition", "//\ttoken = 1*tchar\n", ""},
		{"passphrase with and", "db:\n  password: salt and pepper\n", "salt and pepper"},
		{"three-letter password", "[client]\npassword = xyz\n", "xyz"},
		{"hex in a config line", "db:\n  password: 0xDEADBEEF\n", "0xDEADBEEF"},
		{"a name joined to a password", "password = user + \"pass1234\"\n", "pass1234"},
		{"a token holding a star", "token := Ab1*Cd2\n", "Ab1*Cd2"},
		{"weak password quoted", "pw = \"Prl23Db#@\"\n", "Prl23Db#@"},
		{"generated password in an expression line", "password = \"Xk9#fj3Lq2Zp8Rw!\"\n", "Xk9#fj3Lq2Zp8Rw!"},
		{"slice", "            pw = pw[:-1]\n\t\tc.ptrKeys = c.ptrKeys[1:]\n\tkey = line[0:tabIndex]\n", ""},
		{"index", "\t\tsKey = p.ElemList[0]\n                    password = auth[2]\n\treturn _token_name[_token_index[i]:_token_index[i+1]]\n", ""},
		{"slice in a struct", "\t\t\t\t\tnew := &Line{Token: tokens[1:], InBlock: true}\n", ""},
		{"short names", "\tt.token[1] = t1\n", ""},
		{"a value holding a comma", "secrete = A,.:-¨@*¿?!\n", ".:-¨@*¿?!"},
		{"config values shaped like code", "db:\n  password: tokens[1]\n  secret: a.b=c\n  token: 2*secret\nAPI_KEY=/^Xk9fj3/\nSECRET_KEY=abc | def\n--api_key=0xABCDEF12\n", "tokens[1]"},
		{"glued config value", "SECRET_KEY=abc | def\n", "abc"},
		{"hex after a flag", "--api_key=0xABCDEF12\n", "0xABCDEF12"},
		{"slash regex in a config", "API_KEY=/^Xk9fj3/\n", "Xk9fj3"},
		{"escapes in a config line", "secret: \"\\u00e9\\u00e8\"\n", `\u00e9`},
		{"dotted numbers in a config line", "token: 1.2.3.4.5.6\n", "1.2.3.4.5.6"},
		{"password with brackets", "password: Hq8x[2]Lm4v9Q\n", "Hq8x[2]Lm4v9Q"},
		{"tuple of names", "_SCHEME_KEYS = ('stdlib', 'platstdlib', 'purelib', 'platlib', 'include',\n                'scripts', 'data')\n", ""},
		{"dict of names", "TOKEN_MAP = {\"NAME\": token.NAME,\n             \"STRING\": token.STRING}\n", ""},
		{"comma expression", "            obj.keyDetails = (0, sigstore_common_1.publicKeyDetailsToJSON)(message.keyDetails);\n", ""},
		{"dict of a password", "creds = {\"user\": \"admin\", \"password\": \"Xk9fj3Lq2Zp8Rw\"}\n", "Xk9fj3Lq2Zp8Rw"},
		{"chained", "exports.MinipassSized = exports.SizeError = void 0;\n", ""},
		{"chained minified", "Object.defineProperty(P,\"__esModule\",{value:!0});P.Minipass=P.isWritable=P.isReadable=P.isStream=void 0;var ds=1\n", ""},
		{"chained exports", "exports.X509SCTExtension = exports.X509SubjectKeyIDExtension = exports.X509AuthorityKeyIDExtension = exports.X509SubjectAlternativeNameExtension = exports.X509Extension = void 0;\n", ""},
		{"password holding =", "APP_ENV=production\nWIFI_PASSPHRASE=Yg=Cw9+__AYbVC14k7\n", "Yg=Cw9+__AYbVC14k7"},
		{"another constant", "\tTOKEN_EXECUTE = STANDARD_RIGHTS_EXECUTE\n", ""},
		{"upper-case generated", "\tTOKEN_EXECUTE = XK9FJ3LQ2ZP8RW4TB6YH\n", "XK9FJ3LQ2ZP8RW4TB6YH"},
		{"array type", "var isTokenTable = [256]bool{\n", ""},
		{"regular expression", "const UNEXPECTED_TOKEN = /^Unexpected token '?(.)'?(,)? /i\n", ""},
		{"last member of an object", "  url: kEnumerableProperty,\n  withCredentials: kEnumerableProperty\n", ""},
		{"last member holding a secret", "  url: kEnumerableProperty,\n  credentials: 'Xk9fj3Lq2Zp8Rw4T'\n", "Xk9fj3Lq2Zp8Rw4T"},
		{"template of punctuation", "        output = token.close = `)$))${extglobStar}`;\n", ""},
		{"template with a secret", "const token = `${prefix}Xk9fj3Lq2Zp8Rw4Tb6Yh`\n", "Xk9fj3Lq2Zp8Rw4Tb6Yh"},
		{"python repr verb", "                    raise PatternSyntaxError(\"Invalid token: %r\" % value)\n", ""},
		{"a weak secret then a comment", "secret = s3cr3t // comment\n", "s3cr3t"},
		{"password then a comment", "password = Hq8xLm4v9Qz2 // the admin's\n", "Hq8xLm4v9Qz2"},
		{"a credential's name", "AUTH = 'dipPr170Gg!'\n", "dipPr170Gg!"},
		{"credentials option", "  credentials: \"s3cr3t-Xk9fj3Lq2Zp8\"\n", "s3cr3t-Xk9fj3Lq2Zp8"},
	})
}

// TestCodeNamesNoSecret: names and literals the keyword rule read as a credential's that are
// none — an argument handed on, a qualified constant, an import path, a record's field, a
// capitalised word holding pass, a prompt, an escaped symbol, an object identifier, the name
// spelled again, a sentence — and the credentials written the same ways.
func TestCodeNamesNoSecret(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"variable argument", "\tif within(pass, \"slices\", \"bytes\", \"runtime\") {\n", ""},
		{"variable arguments", "\tderived := deriveSecret(s.hash, s.secret, \"derived\", nil)\n\tkey, err := kdf.labeledExpand(sid, secret, \"key\", ksContext, 32)\n", ""},
		{"message argument", "\t\t\t\t\tcheck.errorf(x, DuplicateLitKey, \"duplicate key %s in map literal\", x.val)\n", ""},
		{"argument list", "\tcmd := exec.Command(\"git\", \"credential\", \"fill\")\n", ""},
		{"list of names", "                     \"splitpasswd\", \"splitport\", \"splitquery\", \"splittag\",\n", ""},
		{"deleted by its name", "    this.npm.config.delete('_token', 'user') // prevent legacy pollution\n", ""},
		{"a password's name among arguments", "set(cfg, \"password\", \"letmein\")\n", "letmein"},
		{"a secret key's sentence", "SECRET_KEY = \"this is my very long secret key, do not share it\"\n", "this is my very long secret key, do not share it"},
		{"a password's variable and a word", "check(password, \"letmein\")\n", "letmein"},
		{"a getter's default", "config.get('password', 'letmein')\n", "letmein"},
		{"a password's variable among arguments", "f(x, password, \"letmein\")\n", "letmein"},
		{"a key after an object", "setattr(cfg, 'secret', 'letmein')\n", "letmein"},
		{"a key opening a call", "call(\"password\", \"letmein\", \"x\")\n", "letmein"},
		{"set by its name", "props.setProperty(\"db.password\", \"hunter2\");\n", "hunter2"},
		{"option constant", "curl_easy_setopt(h, CURLOPT_PASSWORD, \"Xk9fj3Lq2Zp8\");\n", "Xk9fj3Lq2Zp8"},
		{"environment set", "os.Setenv(\"API_TOKEN\", \"Xk9fj3Lq2Zp8Rw4Tb6Yh\")\n", "Xk9fj3Lq2Zp8Rw4Tb6Yh"},
		{"generated literal after a variable", "verify(secret, \"Xk9fj3Lq2Zp8Rw4Tb6Yh\")\n", "Xk9fj3Lq2Zp8Rw4Tb6Yh"},
		{"qualified constants", "\ttoken.XOR: \"bitwise complement\",\n\ttoken.ADD: \"addition\",\n", ""},
		{"qualified member holding a secret", "app.token: Xk9fj3Lq2Zp8Rw4Tb6Yh\n", "Xk9fj3Lq2Zp8Rw4Tb6Yh"},
		{"import path", "\t{\"go/token\", \"\\x04r\\x86\\x01>\\x02\\x03\\x01\\x0f\\x02\"},\n", ""},
		{"a path's key", "{\"api/token\": \"Xk9fj3Lq2Zp8Rw4Tb6Yh\"}\n", "Xk9fj3Lq2Zp8Rw4Tb6Yh"},
		{"record format", "\t\t// \tgroupname:password:GID:user_list\n", ""},
		{"a record's value", "login:password:hunter2\n", "hunter2"},
		{"colon-glued password", "host:db.internal\npassword:Xk9fj3Lq2Zp8Rw4T\n", "Xk9fj3Lq2Zp8Rw4T"},
		{"capitalised word", "exports.MinipassSized = \"sized\";\n", ""},
		{"glued pass", "dbPass = \"Xk9fj3Lq2Zp8Rw\"\nuserpass = \"hunter2x\"\n", "Xk9fj3Lq2Zp8Rw"},
		{"capitalised pass alone", "Userpass = \"s3cretPass\"\n", "s3cretPass"},
		{"glued pass lower", "userpass = \"hunter2x\"\n", "hunter2x"},
		{"prompt", "                    data['confirm'] = getpass.getpass(' Confirm: ')\nconst passwordPrompt = 'npm password: '\n", ""},
		{"password ending in a colon", "password = 'Xk9@fj3Lq:'\n", "Xk9@fj3Lq:"},
		{"one word and a colon", "password: \"Summer:\"\npassword: Welcome:\n", "Summer:"},
		{"bytes escaped", "SECRET = \"\\x8f\\x1a\\x22\\x9c\\x4b\\x7d\\x2e\"\n", `\x8f\x1a\x22\x9c`},
		{"emoji", "\t\"secret\":                               \"\\u3299\\ufe0f\",\n\t\"old_key\":                              \"\\U0001f5dd\\ufe0f\",\n", ""},
		{"key in escapes", "secret_key = \"\\x8f\\x1a\\x22\\x9c\\x4b\\x7d\\x2e\\x8f\\x6a\\x1b\\x3c\\x5d\\x7e\\x9f\\x0a\\x2b\"\n", `\x8f\x1a\x22\x9c`},
		{"object identifier", "    SERVER_AUTH = '1.3.6.1.5.5.7.3.1'\n\tOID_PKIX_KP_SERVER_AUTH = []byte(\"1.3.6.1.5.5.7.3.1\\x00\")\n", ""},
		{"enum string", "const USE_CREDENTIALS = 'use-credentials'\n", ""},
		{"table of names", "\t\"encryptionKey\": \"encryptionKey1024\",\n\t\"GenerateKeyInternal768\": \"GenerateKeyInternal1024\",\n\tencodeUserPassword:   \"encodeUserPassword\",\n", ""},
		{"alias", "        RegOpenKeyEx = win32api.RegOpenKeyEx\nexports.X509AuthorityKeyIDExtension = X509AuthorityKeyIDExtension;\n", ""},
		{"a key made of its name", "SECRET_KEY = \"secret-key-2024\"\nAPI_KEY = \"apikey2024\"\n", "apikey2024"},
		{"weak password of the name", "db_password = \"dbpassword1\"\n", "dbpassword1"},
		{"sentence", "\tinvalidTokenPanic = \"invalid jsontext.Token; it has been voided by a subsequent json.Decoder call\"\n", ""},
		{"passphrase", "password = \"correct horse battery staple\"\n", "correct horse battery staple"},
		{"spaced value under a key", "api_key: 'value with quotes and spaces'\n", "value with quotes and spaces"},
		{"property name", "const jsFetchCreds = \"js.fetch:credentials\"\n", ""},
		{"dotted words", "secret = \"my.secret.value\"\n", "my.secret.value"},
		{"colon words", "secret: \"my:secret:value\"\n", "my:secret:value"},
		{"words of a key", "error:\n  api_key: \"redirect_uri_mismatch\"\n", "redirect_uri_mismatch"},
		{"described parameter", "        - password: password to use with username\n", ""},
		{"passphrase in yaml", "db:\n  password: correct horse battery staple\n", "correct horse battery staple"},
		{"pair spelled out", "    \"\"\"splitpasswd('user:passwd') -> 'user', 'passwd'.\"\"\"\n", ""},
		{"quoted word in a sentence", "\t\t// If the arg is a Formatter, pass 'v' as the verb to it.\n    (the default of None has the same effect), or pass 'ignore' to ignore\n", ""},
		{"a quoted password in a sentence", "password \"letmein\" for admin\ntoken 'abcdef1234567890' for the api\n", "letmein"},
		{"compared then and", "if password == \"Xk9fj3Lq2Zp8\" and user == \"admin\":\n", "Xk9fj3Lq2Zp8"},
		{"variable joined to a literal", "\tcmd.Env = append(os.Environ(), \"PWD=\"+cmd.Dir, \"GOROOT=\"+build.Default.GOROOT)\n", ""},
		{"glued password in a sentence", "set PASSWORD=hunter2x to start\n", "hunter2x"},
	})
}

// TestPasswordRulesProse: the connection-string, id/password, netrc, pgpass and SQL rules
// on code and prose that names a password without one, and on credentials beside them.
func TestPasswordRulesProse(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"variable assigned", "\t\t\tpassword = value\n", ""},
		{"trailing comment", "\t\t\tpwd = name // always absolute\n", ""},
		{"member assigned", "            self.pwd = pwd\n", ""},
		{"awaited", "    const password = await read.password('Password:', creds.password)\n", ""},
		{"default None", "    def extractall(self, path=None, members=None, pwd=None):\n", ""},
		{"working directory", "// process ([\"USER=go\", \"PWD=/tmp\"]).\n", ""},
		{"word in a sentence", "// AppendPWD returns the result of appending PWD=dir to the environment base.\n", ""},
		{"glued word in a sentence", "set PASSWORD=letmein to start\n", "letmein"},
		{"indented word", "\tpassword = hunter\n\t\tself.password = hunter\n", "hunter"},
		{"config line", "user = Aladdin\npassword = open_sesame\n", "open_sesame"},
		{"connection string", "Server=db;Uid=sa;Pwd=Xk9fj3Lq2Zp8;\n", "Xk9fj3Lq2Zp8"},
		{"odbc upper", "DRIVER={SQL Server};UID=sa;PWD=hunter2x;\n", "hunter2x"},
		{"failed", "\t\t\treturn errors.New(\"username/password authentication failed\")\n", ""},
		{"specified", "        # If no login/password was specified but netrc was requested,\n", ""},
		{"from a variable's path", "            First we try to read the username/password from $HOME/.pypirc,\n", ""},
		{"id and a word for a password", "ID/PW: root / toor\n", "toor"},
		{"two connection-string pairs", "Password=Xk9fj3Lq2 Pwd=Zq8wLm4vT\n", "Zq8wLm4vT"},
		{"account and password after a slash", "ID/PW: admin / changed\n", "changed"},
		{"id and password", "ID/PW: master / Xy7pass99\n", "Xy7pass99"},
		{"qualified constant", "\t\t// If the next token is token.CHAN we still don't know if it\n", ""},
		{"type", "\t\treturn fmt.Errorf(\"tls: unsupported certificate: private key is *ed25519.PrivateKey, expected ed25519.PrivateKey\")\n", ""},
		{"password is", "the password is Xy7pass99\n", "Xy7pass99"},
		{"netrc prose", "machine api.internal\n        - usenetrc: allow loading username and password from ~/.netrc file\n", ""},
		{"netrc", "machine api.internal login deploy password Xk9fj3Lq2Zp8\n", "Xk9fj3Lq2Zp8"},
		{"pgpass wildcard", "     * Address6.fromWildcard('*:*:*:*:*:*:*:*').subnet;       // '/0'\n", ""},
		{"pgpass", "db.internal:5432:app:deploy:Xk9fj3Lq2Zp8\n", "Xk9fj3Lq2Zp8"},
		{"sql prose", "// An objset is a set of objects identified by their unique id.\n", ""},
		{"sql", "CREATE USER scott IDENTIFIED BY tiger;\n", "tiger"},
	})
}

// TestSplitIdentifierLines: an enum's constants one per line are no secret wrapped over
// lines; a wrapped value is.
func TestSplitIdentifierLines(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"upper snake", "const (\n\tTOKEN_ASSIGN_PRIMARY = 1 << iota\n\tTOKEN_DUPLICATE\n\tTOKEN_IMPERSONATE\n\tTOKEN_QUERY\n\tTOKEN_QUERY_SOURCE\n\tTOKEN_ADJUST_PRIVILEGES\n)\n", ""},
		{"camel", "const (\n\tTokenUser = 1 + iota\n\tTokenGroups\n\tTokenPrivileges\n\tTokenOwner\n\tTokenPrimaryGroup\n\tTokenDefaultDacl\n\tTokenSessionReference\n)\n", ""},
		{"lower camel", "const (\n\ttokenArrayStart = iota\n\ttokenArrayValue\n\ttokenArrayComma\n\ttokenObjectStart\n\ttokenObjectKey\n)\n", ""},
		{"wrapped value", "DB_PASSWORD=Zx8cV7bN6m\nQ5wE4rT3yU\n", "Q5wE4rT3yU"},
		{"wrapped piece ending in a capital", "token:\nQWxhZGRpbjpvcGVuc2VzYW1lQWxh\nijklmnopqrstuvwxyzA\n", "ijklmnopqrstuvwxyzA"},
		{"wrapped letters", "token:\nQWxhZGRpbjpvcGVu\nc2VzYW1lQWxhZGRp\n", "c2VzYW1lQWxhZGRp"},
	})
}

// TestCMacroValues: a C preprocessor definition whose unquoted replacement is code — a
// number, another name, a parenthesised expression, a call — and only the defined name
// having a value; the keys a header does hold (a quoted literal, a bare generated run, an
// integer wider than 64 bits) stay masked.
func TestCMacroValues(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"hex", "#define GL_POINT_TOKEN\t\t\t\t0x0701\n#define DVD_AUTH\t\t0x5392  /* Authentication */\n", ""},
		{"decimal with sign or suffix", "#define XSLT_PAT_NO_PRIORITY -12345789\n#define XSLT_SOURCE_NODE_HAS_KEY    1u\n", ""},
		{"shift", "#define GNUTLS_PKCS11_TOKEN_TRUSTED (1<<1) /* p11-kit trusted */\n", ""},
		{"arithmetic", "#define X86_FEATURE_PAT\t      (0 * 32 + 16) /* Page Attribute Table */\n#define __NR_request_key (__X32_SYSCALL_BIT + 249)\n", ""},
		{"or of names", "#define SSL_SECOP_PEER_EE_KEY (SSL_SECOP_EE_KEY | SSL_SECOP_PEER)\n#define V4L2_CID_MPEG_VIDEO_FORCE_KEY_FRAME\t\t(V4L2_CID_CODEC_BASE+229)\n", ""},
		{"call", "#define GRE_PPTP_KEY_MASK\t__cpu_to_be32(0xffff)\n", ""},
		{"another name", "#define T_KEY ns_t_key\n#define PKCS12_key_gen PKCS12_key_gen_utf8\n#define xmlSecCryptoAppKeyCertLoadMemory        xmlSecOpenSSLAppKeyCertLoadMemory\n", ""},
		{"function-like macro", "#define sk_SRP_user_pwd_value(sk, idx) ((SRP_user_pwd *)OPENSSL_sk_value(ossl_check_const_SRP_user_pwd_sk_type(sk), (idx)))\n", ""},
		{"a word in the comment", "#define CAN_ISOTP_TX_STMIN\t3\t/* pass __u32 value in nano secs    */\n", ""},
		{"the preprocessor's blanks", "#  define __THROW_KEY\t0x10\n#define\tPASS_FLAG\t(1 << 3)\n", ""},
		{"quoted key", "#define API_TOKEN \"9f8e7d6c5b4a39281706f5e4d3c2b1a0\"\n", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"quoted key after a tab", "#define\tSECRET_KEY\t\"9f8e7d6c5b4a39281706f5e4d3c2b1a0\"\n", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"password in a nested definition", "#  define DB_PASSWORD hunter2xyz\n", "hunter2xyz"},
		{"password after a tab", "#define\tDB_PASSWORD\thunter2xyz\n", "hunter2xyz"},
		{"generated token in a nested definition", "#  define API_TOKEN Xk9fj3Lq8ZpW2mNv7RtY4uHs\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"quoted password", "#define DB_PASSWORD \"hunter2xyz\"\n", "hunter2xyz"},
		{"bare hex key", "#define API_KEY 9f8e7d6c5b4a39281706f5e4d3c2b1a0\n", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"hex key wider than 64 bits", "#define SECRET_KEY 0x9f8e7d6c5b4a39281706f5e4d3c2b1a0\n", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"bare password", "#define PASSWORD hunter2\n", "hunter2"},
		{"bare password of capitalised words", "#define WIFI_PASSWORD MySecretPass\n", "MySecretPass"},
		{"bare generated token", "#define API_TOKEN Xk9fj3Lq8ZpW2mNv7RtY4uHs\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"generated token in parentheses", "#define AUTH_TOKEN (Xk9fj3Lq8ZpW2mNv7RtY4uHs)\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
	})
}

// TestCEnumMembers: an enum's or an initializer's member, its value a C number or a
// parenthesised expression, a comma and a comment after it; and a key in the same places.
func TestCEnumMembers(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"negative with suffix", "      _S_token_unknown = -1u\n", ""},
		{"parenthesised shift", "\tGNUTLS_PKCS11_OBJ_FLAG_COMPARE_KEY = (1<<13),\n", ""},
		{"glued to its = before a doc comment", "    U_UNEXPECTED_TOKEN=0x10100,       /**< Syntax error in format pattern */\n", ""},
		{"a comment glued to the comma", "   VKI_CAM_PASS_ERR_RECOVER    = 0x00010000,/* Pass driver does err. recovery*/\n", ""},
		{"a C++ doc comment after the comma", "  PMT_ModulePassManager = 1, ///< MPPassManager\n", ""},
		{"zero initializer", "\t.secret = { 0 },\n\tunsigned char key[32] = {0};\n", ""},
		{"quoted key in an initializer", "\t.secret = { \"Xk9fj3Lq8ZpW2mNv7RtY4uHs\" },\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"generated token in parentheses", "SECRET_KEY = (Xk9fj3Lq8ZpW2mNv7RtY4uHs)\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"hex key before a comma", "  TOKEN=0x9f8e7d6c5b4a39281706f5e4d3c2b1a0,\n", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"password before a comma and a comment", "PASSWORD=hunter2xyz, # comment\n", "hunter2xyz"},
		{"password before a comment", "password = hunter2xyz /* set by ops */\n", "hunter2xyz"},
		{"generated value before a comma", "api_key = Xk9fj3Lq8ZpW2mNv7RtY4uHs,\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
	})
}

// TestPerlCodeValues: Perl (and PHP, C++) code that names a credential and holds none — a
// module's name keyed to its version, a variable's member or method, a reference, a
// pattern, a loop's label, a label printed before a value, a conditional's branches, a
// concatenation — and the credentials Perl code does hold, written beside them.
func TestPerlCodeValues(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"module keyed to its version", "    'Test2::Event::Pass'    => '1.302188',\n    'Pod::Simple::PullParserEndToken'=> '3.43',\n    'CPAN::HTTP::Credentials'=> undef,\n", ""},
		{"module versions over lines", "            'Test2::Event::Pass'    => '1.302120',\n            'Test2::Event::Plan'    => '1.302120',\n            'Test2::Event::Skip'    => '1.302120',\n", ""},
		{"method of a variable", "  while(my $token = $parser->get_token) {\n    $pw_uid     = $pwob->uid    ( $_[2] );\n", ""},
		{"member of a hash", "    my $pass = $assert->{pass};\n        pass     => $self->{+PASS},\n    $self->{+PASS} = $self->{+PASS} ? 1 : 0;\n", ""},
		{"method in a conditional", "        pass     => $self->causes_fail ? 0 : 1,\n", ""},
		{"member through a pointer", "    s/&/ucfirst(lc($pw->name))/ge;\n    PK11_HasAttributeSet(key->pkcs11Slot, key->pkcs11ID, attribute, PR_FALSE)\n  Pass *ResultPass = Resolver->findImplPass(PI);\n", ""},
		{"reference to a sub", "    *META_KEY = \\&Test2::Util::ExternalMeta::META_KEY;\n", ""},
		{"concatenation", "my $H_STACK_KEY = __PACKAGE__ . '/stack';\n", ""},
		{"patterns", "my $ESCAPE_KEY  = qr{ (?: ^\\W ) | $ESCAPE_CHAR }x;\n if ( $pw_uid == 1 && $pw_dir =~ m#^/(bin|tmp)?\\z#s ) {\n", ""},
		{"loop label", "          TOKEN: while (@tokens) {\n", ""},
		{"builtin taking a block", "    my %TOKEN = map { $_ => 1 } qw(a b c);\n    my $secret = do { local $/; <$fh> };\n", ""},
		{"label printed before a value", "    $DEBUG and print STDERR \"Token: \", $token->dump, \"\\n\";\n", ""},
		{"branches of a conditional", "    my $out = $as->{pass} ? \"PASS\" : \"FAIL\";\n", ""},
		{"variable joined between a literal's pieces", "                        'Unknown TAP token: \"' . $unk->raw . '\"' );\nmsg = \"token: '\" + tok + \"'\"\n", ""},
		{"password joined between a literal's pieces", "print 'password: \"' . 'hunter2xyz' . '\"';\n", "hunter2xyz"},
		{"time of a pass", "    last_pass_time => '1219328376.07815',\n", ""},
		{"password in a hash", "password => 'hunter2xyz',\n", "hunter2xyz"},
		{"hash element assigned", "$self->{token} = 'Xk9fj3Lq8ZpW2mNv7RtY4uHs';\n$h{password} = 'hunter2xyz';\n", "hunter2xyz"},
		{"element of a hash assigned", "$self->{token} = 'Xk9fj3Lq8ZpW2mNv7RtY4uHs';\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"default after defined-or", "password => $cfg->{password} // 'hunter2xyz',\n", "hunter2xyz"},
		{"default after an environment read", "my $password = $ENV{DB_PASSWORD} || 'hunter2xyz';\n", "hunter2xyz"},
		{"one-time password", "one_time_password = \"583920\"\nONE_TIME_TOKEN=Xk9fj3Lq8ZpW2mNv7RtY4uHs\n", "583920"},
		{"one-time token", "ONE_TIME_TOKEN=Xk9fj3Lq8ZpW2mNv7RtY4uHs\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"token in a variable", "my $secret = \"Xk9fj3Lq8ZpW2mNv7RtY4uHs\";\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"password with symbols", "my $password = 'Tr0ub4dor&3';\n", "Tr0ub4dor&3"},
		{"package variable", "$Config::password = 'hunter2xyz';\n", "hunter2xyz"},
		{"password keyed to a module's name", "'Net::SMTP::Password' => 'hunter2xyz',\n", "hunter2xyz"},
		{"Hiera key", "'mysql::server::root_password': 'hunter2'\n'mysql::server::root_password' => 'hunter2',\n", "hunter2"},
		{"generated value keyed to a module", "    'API::Token'    => 'a8Fk29dLq0ZmX7vB3nR5tY1w',\n", "a8Fk29dLq0ZmX7vB3nR5tY1w"},
		{"key wrapped in a hash", "my %cfg = ( api_token => 'Xk9fj3Lq8ZpW' .\n    'mNv7RtY4uHs2' );\n", "mNv7RtY4uHs2"},
		{"arrow glued to a password", "password->Tr0ub4dor3x\n", "Tr0ub4dor3x"},
		{"generated password opening with m", "secret: m{{h}o)p${e]nob(ody[finds>-_$#thisone}}\n", "h}o)p${e]nob(ody[finds"},
		{"generated password opening with a sigil", "password = $Xk9{fj3Lq8}ZpW2\n", "Xk9{fj3Lq8}ZpW2"},
	})
}

// TestCHeaderShapes: what C headers write around a credential's name without holding one —
// a documentation comment's tag before a sentence, an enum's constants one per line with
// digits in their parts, a function declared after a type named for a key, a protocol's
// label spelling the constant's words (in text or as escaped bytes) — beside the secrets
// written in the same places.
func TestCHeaderShapes(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"kernel-doc tag", " * @GNUTLS_PKCS11_OBJ_TOKEN_SERIAL: The token's serial number. Null-terminated text.\n * @NL80211_CMD_DEL_KEY: delete a key identified by %NL80211_ATTR_KEY_IDX\n * @NL80211_ATTR_TDLS_DIALOG_TOKEN: Non-zero token for uniquely identifying a\n", ""},
		{"enum constants with digits", "typedef enum {\n\tGNUTLS_PKCS11_OBJ_UNKNOWN,\n\tGNUTLS_PKCS11_OBJ_X509_CRT,\n\tGNUTLS_PKCS11_OBJ_PUBKEY,\n\tGNUTLS_PKCS11_OBJ_PRIVKEY,\n\tGNUTLS_PKCS11_OBJ_SECRET_KEY,\n\tGNUTLS_PKCS11_OBJ_DATA,\n\tGNUTLS_PKCS11_OBJ_X509_CRT_EXTENSION\n} gnutls_pkcs11_obj_type_t;\n", ""},
		{"function after a key's type", "XMLSEC_CRYPTO_EXPORT xmlSecKeyPtr xmlSecGnuTLSAppPkcs12LoadMemory       (const xmlSecByte* data,\nCK_TOKEN_INFO_PTR   p11_kit_uri_get_token_info              (P11KitUri *uri);\n", ""},
		{"label spelling the name", "#define TLS_MD_MASTER_SECRET_CONST \"master secret\"\n#define TLS_MD_SERVER_WRITE_KEY_CONST \"\\x73\\x65\\x72\\x76\\x65\\x72\\x20\\x77\\x72\\x69\\x74\\x65\\x20\\x6b\\x65\\x79\"\n", ""},
		{"value of code after a key", "    const KeyType* key = weak_member_key.GetRawAtomic();\n    if (!key) return;\n\n    // `value` must always be non-null.\n    CPPGC_DCHECK(member_value);\n    const ValueType* value = member_value->GetRawAtomic();\n", ""},
		{"value after a secret's name", "- name: DB_PASSWORD\n  value: hunter2xyz\n", "hunter2xyz"},
		{"parameter spelling a two-word name", "** Convert a private key \"privateKey\" into a public key\n", ""},
		{"key after a two-word name", "private key \"Xk9fj3Lq8ZpW2mNv7RtY4uHs\"\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"gtk-doc reference after a tag", " * @pass: %TRUE if the test passed\n", ""},
		{"password after a doc tag and a sigil", " * @password: %hunter2xyz is the default\n", "hunter2xyz"},
		{"token after a doc tag", " * @token: 9f8e7d6c5b4a39281706f5e4d3c2b1a0\n", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"password after a doc tag", " * @password: hunter2xyz\n", "hunter2xyz"},
		{"key wrapped over lines", "API_KEY=\n\tXk9fj3Lq8ZpW2mNv7RtY4uHsQ1\n\tAb3dE5fG7hJ9kL1mN3pQ5rS7t\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHsQ1"},
		{"generated value after a key's type", "xmlSecKeyPtr Xk9fj3Lq8ZpW2mNv7RtY4uHs\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"passphrase under a secret's name", "#define MASTER_SECRET \"correct horse battery staple\"\n", "correct horse battery staple"},
		{"key as escaped bytes", "#define AES_KEY \"\\x8f\\x1a\\x9c\\x03\\x44\\xd2\\x7e\\x11\\xa0\\x5b\\x66\\xc3\\x2f\\x90\\x0e\\x77\"\n", `\x8f\x1a\x9c\x03`},
		{"password as escaped bytes", "#define ADMIN_PASSWORD \"\\x68\\x75\\x6e\\x74\\x65\\x72\\x32\\x78\\x79\\x7a\"\n", `\x68\x75\x6e\x74`},
	})
}

// TestFlagAndSchemeProse: a flag named in a sentence, a package's path after -u, a glob of
// constants after the verb negotiate, a placeholder word closing a code span, a macro
// after a prototype — and the credentials in the same places.
func TestFlagAndSchemeProse(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"package path after -u", "  perldoc -u Some::Modulename\n", ""},
		{"flag in a sentence", "// Whether or not -debug-pass has been specified. For use to check if it's\n", ""},
		{"glob after negotiate", "/* Ordinarily, when negotiating a TLS_DHE_* cipher suite the server picks the\n * enabled.  A server will only negotiate TLS_DHE_* cipher suites if the\n", ""},
		{"placeholder closing a code span", "  For example, `export NPM_CONFIG_KEY=val`.\n", ""},
		{"macro after a prototype", "OSSL_DEPRECATEDIN_3_0\nint ENGINE_set_load_privkey_function(ENGINE *e, ENGINE_LOAD_KEY_PTR loadpriv_f);\nOSSL_DEPRECATEDIN_3_0\nint ENGINE_set_load_pubkey_function(ENGINE *e, ENGINE_LOAD_KEY_PTR loadpub_f);\nOSSL_DEPRECATEDIN_3_0\n", ""},
		{"user and password after -u", "curl -u admin:hunter2xyz https://example.com\n", "hunter2xyz"},
		{"password after a flag", "mysql --password hunter2xyz\n", "hunter2xyz"},
		{"token opening with a function word", "app --token has2Xk9fj3Lq8Zp\n", "has2Xk9fj3Lq8Zp"},
		{"bearer password with a star", "send Bearer at5G6zi!m* now\n", "at5G6zi!m*"},
		{"token in a code span", "  For example, `export NPM_TOKEN=Xk9fj3Lq8ZpW2mNv7RtY4uHs`.\n", "Xk9fj3Lq8ZpW2mNv7RtY4uHs"},
		{"key wrapped after its name", "API_KEY = Xk9fj3Lq8ZpW2mNv7RtY4\nuHsQ1Ab3dE5fG7hJ9kL1\n", "Xk9fj3Lq8ZpW2mNv7RtY4"},
	})
}

// TestCStatements: statements of C (and Perl) source files around a credential's name — a
// character escape stored, a member through a pointer, a statement after a case label, a
// short name before the next statement, a transliteration — beside credentials written in
// the same statements.
func TestCStatements(t *testing.T) {
	t.Parallel()
	runCodeRows(t, []codeRow{
		{"character escape", "\tpassword[len] = '\\0';\n", ""},
		{"member through a pointer", "\tpass = pass->next;\n", ""},
		{"statement after a case label", "\tcase TOKEN_STRING: return \"string\";\n", ""},
		{"short name before the next statement", "\ttoken.start = p; token.len = n;\n", ""},
		{"transliteration", "$pass =~ tr/a-z/A-Z/;\n", ""},
		{"conditional after the name", "\tpassword = prompt ? getpass(prompt) : NULL;\n", ""},
		{"chained assignment of elements", "\tpass[0] = pass[1] = 0;\n", ""},
		{"password before a question mark", "password = letmein ?\n", "letmein"},
		{"password in a conditional", "password = hunter2xyz ? x : y\n", "hunter2xyz"},
		{"password before the next statement", "\tpassword = hunter2xyz; login(password);\n", "hunter2xyz"},
		{"escaped bytes of a key", "\tsecret = \"\\x8f\\x1a\\x9c\\x03\\x44\\xd2\\x7e\\x11\";\n", `\x8f\x1a\x9c\x03`},
		{"password opening with s", "password: s/ecr3t/Pa55\n", "ecr3t/Pa55"},
		{"password after a case label", "\tcase 1: password = \"hunter2xyz\";\n", "hunter2xyz"},
	})
}
