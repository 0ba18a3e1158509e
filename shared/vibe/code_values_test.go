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
		{"comparison", "      credentials: corsAttributeState === 'anonymous'\n", ""},
		{"negation", "    const noCreds = !(creds.token || creds.username || creds.certfile && creds.keyfile)\n", ""},
		{"concatenation of names", "        token.output = nodot + token.output;\n            pw = pw + c\n            passwd = passwd + 'anonymous@'\n", ""},
		{"ABNF repetition", "//\ttoken = 1*tchar\n", ""},
		{"weak password quoted", "pw = \"Prl23Db#@\"\n", "Prl23Db#@"},
		{"generated password in an expression line", "password = \"Xk9#fj3Lq2Zp8Rw!\"\n", "Xk9#fj3Lq2Zp8Rw!"},
		{"slice", "            pw = pw[:-1]\n\t\tc.ptrKeys = c.ptrKeys[1:]\n\tkey = line[0:tabIndex]\n", ""},
		{"index", "\t\tsKey = p.ElemList[0]\n                    password = auth[2]\n\treturn _token_name[_token_index[i]:_token_index[i+1]]\n", ""},
		{"slice in a struct", "\t\t\t\t\tnew := &Line{Token: tokens[1:], InBlock: true}\n", ""},
		{"short names", "\tt.token[1] = t1\n", ""},
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
		{"password then a comment", "password = Hq8xLm4v9Qz2 // the admin's\n", "Hq8xLm4v9Qz2"},
		{"a credential's name", "AUTH = 'dipPr170Gg!'\n", "dipPr170Gg!"},
		{"credentials option", "  credentials: \"s3cr3t-Xk9fj3Lq2Zp8\"\n", "s3cr3t-Xk9fj3Lq2Zp8"},
	})
}
