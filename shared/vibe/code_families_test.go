package vibe

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// Names of one family in code (macros, ops, functions and their typedefs, differing in a
// short middle) are no secrets, however random each looks alone; generated keys that share
// a vendor's prefix, a key shown again cut short or starred, and a key beside one copy of
// it changed in a character still are.
func TestNameFamilies(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	kept := []struct{ name, in string }{
		{"C macros of one family", "#define DER_OID_V_c2pnb163v1 DER_P_OBJECT, 8, 0x2A, 0x86\n#define DER_OID_SZ_c2pnb163v1 10\n" +
			"extern const unsigned char ossl_der_oid_c2pnb163v1[DER_OID_SZ_c2pnb163v1];\n#define DER_OID_V_c2pnb163v2 DER_P_OBJECT, 8, 0x2A, 0x86\n"},
		{"a family cut at a chunk's start", "extern const unsigned char ossl_der_oid_c2tnb239v3[DER_OID_SZ_c2tnb239v3];\n" +
			"#define DER_OID_V_c2tnb431r1 DER_P_OBJECT, 8, 0x2A\n#define DER_OID_SZ_c2tnb431r1 10\n"},
		{"a Go list of vector ops", "\tcase ssa.OpAMD64VCVTPD2PSX128,\n\t\tssa.OpAMD64VCVTPD2PSY128,\n\t\tssa.OpAMD64VCVTPD2PS256,\n" +
			"\t\tssa.OpAMD64VRCP14PS512,\n\t\tssa.OpAMD64VRCP14PS256,\n\t\tssa.OpAMD64VRCP14PD512,\n\t\tssa.OpAMD64VPERMI2B128,\n\t\tssa.OpAMD64VPERMI2W128,\n\t\tssa.OpAMD64VPERMI2D128:"},
		{"OpenGL entry points", "GLAPI void APIENTRY glVertexAttribL1ui64vNV (GLuint index, const GLuint64EXT *v);\n" +
			"GLAPI void APIENTRY glVertexAttribL2ui64vNV (GLuint index, const GLuint64EXT *v);\nGLAPI void APIENTRY glVertexAttribL3ui64vNV (GLuint index, const GLuint64EXT *v);"},
		{"typedefs of capitals and digits", "typedef void (APIENTRYP PFNGLPROGRAMUNIFORM2UI64VARBPROC) (GLuint program, GLint location);\n" +
			"typedef void (APIENTRYP PFNGLPROGRAMUNIFORM3UI64VARBPROC) (GLuint program, GLint location);\ntypedef void (APIENTRYP PFNGLPROGRAMUNIFORM4UI64VARBPROC) (GLuint program, GLint location);"},
		{"entry points with a letter put in", "GLAPI void APIENTRY glGetUniformui64vARB (GLuint program, GLint location, GLuint64 *params);\n" +
			"GLAPI void APIENTRY glGetnUniformi64vARB (GLuint program, GLint location, GLsizei bufSize, GLint64 *params);\n" +
			"GLAPI void APIENTRY glGetnUniformui64vARB (GLuint program, GLint location, GLsizei bufSize, GLuint64 *params);"},
		{"object names under three prefixes", "#define SN_pbe_WithSHA1And128BitRC2_CBC \"PBE-SHA1-RC2-128\"\n" +
			"#define LN_pbe_WithSHA1And128BitRC2_CBC LN_pbe_WithSHA1And128BitRC2_CBC_long\n#define NID_pbe_WithSHA1And128BitRC2_CBC 148"},
		{"constants differing in two places", "\tcase PKCS1WithSHA256, ECDSAWithP256AndSHA256, ECDSAWithP384AndSHA384, ECDSAWithP521AndSHA512:"},
		{"a pair of names of words", "#define LN_pbe_WithSHA1And128BitRC2_CBC \"pbeWithSHA1And128BitRC2-CBC\"\n#define LN_pbe_WithSHA1And40BitRC2_CBC \"pbeWithSHA1And40BitRC2-CBC\""},
		{"Go fields of one shape", "\tm := s.f.Config.fp32RegMask\n\tif t.IsFloat() && t.Size() == 8 {\n\t\tm = s.f.Config.fp64RegMask\n\t}\n\tn := s.f.Config.gpRegMask // s.f.Config.fp16RegMask"},
	}
	for _, tc := range kept {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.NotContains(t, out, "[redacted", "in %q", tc.in)
		})
	}

	caught := []struct{ name, in string }{
		{"keys of one vendor's prefix", "keys:\n  - Qx7mB2pzR9vL4kWn8cT1yH6j\n  - Qx7mB2pzR9hD3sFa6gJ0kL5z\n  - Qx7mB2pzR9tY8uI1oP4aS7dF"},
		{"a key shown again, cut short and starred", "export API=Qx7mB2pzR9vL4kWn8cT1yH6j\n# Qx7mB2pzR9vL...\n# Qx7mB2pzR9vL4kWn****yH6j\n# Qx7mB2pzR9vL4kWnXXXXyH6j\n# Qx7mB2pzR9vL4kWn...yH6j\n# Qx7mB2pzR9vL4kWn…yH6j"},
		{"a key beside a tampered copy", "good := \"Qx7mB2pzR9vL4kWn8cT1yH6j\"\nbad := \"Qx7mB2pzR9vL4kWn8cT1yH6k\""},
		{"base32 seeds in a list", "totp:\n  - 2TXSLRHBPY2QUZID\n  - IMJNVHET2F6J2VB3\n  - XDWD6XAZPHNPXDRE"},
		{"a key of two words beside a tampered copy", "good := \"Qx7Band9Kite2mB2pzR9vL4kA\"\nbad := \"Qx7Band9Kite2mB2pzR9vL4kB\"\n"},
		{"access key ids in a list", "aws_access_key_id = AKIASFBT3YWIMR4AO5BG\naws_access_key_id = AKIAF72B3WDNCXLNXXSU\naws_access_key_id = AKIAF6L64KLLUMHFG3CR"},
		{"capitals and digits after one prefix", "\tacme.KeyAB12VRVGXS8T39NQJ,\n\tacme.KeyAB12VYK2CD0ZBKOAO,\n\tacme.KeyAB12VMCEQ39M3SNFG,"},
		{"base64 keys differing in a character", "a: Qx7mB2pz+9vL4kWn8cT1yH6jPq3/\nb: Qx7mB2pz+9vL4kWn8cT1yH6jPq4/\nc: Qx7mB2pz+9vL4kWn8cT1yH6jPq5/"},
	}
	for _, tc := range caught {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.Contains(t, out, "[redacted", "in %q", tc.in)
			require.NotContains(t, out, "Qx7mB2pzR9vL4kWn8cT1yH6j", "in %q", tc.in)
			require.NotContains(t, out, "IMJNVHET2F6J2VB3", "in %q", tc.in)
			require.NotContains(t, out, "9vL4kWn8cT1yH6jPq", "in %q", tc.in)
			require.NotContains(t, out, "Qx7Band9Kite2mB2pz", "in %q", tc.in)
			for _, key := range []string{"AKIASFBT3YWIMR4AO5BG", "AKIAF6L64KLLUMHFG3CR", "RVGXS8T39NQJ", "YK2CD0ZBKOAO", "MCEQ39M3SNFG"} {
				require.NotContains(t, out, key, "in %q", tc.in)
			}
		})
	}

	// Each kept family with every name drawn at random in its length, alphabet and
	// punctuation: no two are of one family, and every one the entropy rule catches alone
	// is masked.
	r := rand.New(rand.NewSource(17))
	for _, tc := range kept {
		for range 50 {
			b := []byte(tc.in)
			var randoms []string
			forEachTokenRun(tc.in, 16, func(start, end int) {
				alphabet := alphabetOf(tc.in[start:end])
				for i := start; i < end; i++ {
					if isLetter(b[i]) || isDigitByte(b[i]) {
						b[i] = alphabet[r.Intn(len(alphabet))]
					}
				}
				randoms = append(randoms, string(b[start:end]))
			})
			in := string(b)
			out := san.NewSession(SessionHints{}).SanitizeText(in)
			for _, tok := range randoms {
				if highEntropySecret(tok) || knownShapeSecret(tok) {
					require.NotContainsf(t, out, tok, "%s: in %q", tc.name, in)
				}
			}
		}
	}
}

func TestFamilyMember(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tok, sib string
		want     bool
	}{
		{"DER_OID_SZ_c2pnb163v1", "DER_OID_V_c2pnb163v1", true},
		{"DER_OID_SZ_prime239v3", "DER_OID_SZ_prime256v1", true},
		{"ssa.OpAMD64VRCP14PS512", "ssa.OpAMD64VRCP14PD512", true},
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn8cT1yH6j", false}, // the same run
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9hD3sFa6gJ0kL5z", false}, // a shared prefix only
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn...yH6j", false},  // cut
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWnXXXXyH6j", false}, // a stand-in
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn", false},         // a prefix
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3x", false},
		{"Qx7mB2pz+9vL4kWn8cT1yH6j", "Qx7mB2pz+9vL4kWn8cT1yH6k", false},         // base64, no name
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "sk_live_Qx7mB2pzR9vL4kWn8cT1yH6j", false}, // the key and its body
		{"Qx7mB2pzR9vL4kWn8cT1yH6jPq3x", "Qx7mB2pzR9vL4kWn8cT1yH6j", false},
		{"glGetQueryObjecti64v", "glGetQueryObjectui64v", true},
		{"ECDSAWithP256AndSHA256", "ECDSAWithP521AndSHA512", true},
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9xY3kWn8cQ7yH6j", true}, // two places, as names differ
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzA1bC2dWn8eF3gH6j", false},
		{"Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn8cT1yH6jAb3", false}, // a start alone
		{"glGetnUniformi64vARB", "glGetUniformi64vARB", true},
	} {
		require.Equalf(t, tc.want, familyMember(tc.tok, tc.sib), "%s %s", tc.tok, tc.sib)
	}
}

// A hexadecimal floating-point constant is a number, and a gitiles link's + segment names a
// revision; random base64 holding /+/ and a random segment after one are still masked.
func TestCodeNumbersAndLinks(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, in := range []string{
		"inline constexpr double __2_over_pi = 0x1.45F306DC9C883p-1; // 2/π",
		"                 log2e      = 1.4426950408889634074, // (0x1.71547652b82feP+0)\n                 sqrt2      = 1.4142135623730950488, // (0x1.6a09e667f3bcdP+0)",
		"\tconst smallest = 0x1p-1074 + 0X1.FFFFFFFFFFFFFp+1023 + 0x1.921fb54442d18p+1",
		"  // https://android.googlesource.com/platform/bionic/+/6f12bfece5dcc01325e0abba56a46b1bcf991c69/tools/relocation_packer/src/elf_file.cc#37",
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		require.NotContains(t, out, "[redacted", "in %q", in)
	}
	for _, tc := range []struct{ in, secret string }{
		{"secret: Qx7mB2pzR9vL4kWn/+/8cT1yH6jPq3Zr5Tb2Lm", "8cT1yH6jPq3Zr5Tb2Lm"},
		{"see https://android.googlesource.com/platform/+/Qx7mB2pzR9vL4kWn8cT1yH6jPq3/x", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3"},
		{"key = 0xQx7mB2pzR9vL4kWn8cT1yH6jp-1", "Qx7mB2pzR9vL4kWn8cT1yH6j"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
		require.NotContains(t, out, tc.secret, "in %q", tc.in)
	}
	require.True(t, hexFloat("0x1.45F306DC9C883p-1"))
	require.True(t, hexFloat("0x1p-1074"))
	for _, s := range []string{"0x1.45F306DC9C883", "0x.p1", "0x1.2.3p1", "0x1p", "0x1.45F306DC9C883p-1q", "0xQx7mB2pzR9p1"} {
		require.Falsef(t, hexFloat(s), "%s", s)
	}
}

// A compiler op of one architecture is a name whatever its mnemonic (ssa.OpAMD64PrefetchT0,
// OpS390XAddTupleFirst32); a random part after the same opening, with the case changes of
// a generated string, is no mnemonic, and a random token with no architecture is no op.
func TestArchOpNames(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"ssa.OpAMD64PrefetchT0", "OpS390XAddTupleFirst32", "ssa.OpAMD64VCVTDQ2PS512load", "ssa.OpAMD64FlagLT_ULT", "ssa.OpARM64LessThanU", "Op386ADDLconst", "ssa.OpWasmI64TruncSatF64U", "ssa.OpLOONG64BITREV4B"} {
		require.Truef(t, archOpName(s), "%s", s)
	}
	for _, s := range []string{"ssa.OpAMD64Qx7mB2pzR9vL4kWn8c", "OpAMD64", "Qx7mB2pzR9vL4kWn8cT1yH6j", "ssa.OpXYZ99VCVTPD2PS", "cfg.Signer.OpAMD64VCVT", "OpAMD64V+9vL4kWn8cT1", "Op.AMD64VCVTPD2PSX128"} {
		require.Falsef(t, archOpName(s), "%s", s)
	}
	san := testSanitizer(t)
	in := "\tcase ssa.OpAMD64PrefetchT0, ssa.OpAMD64VCVTDQ2PS512load:\n\t\tv.reset(OpS390XAddTupleFirst32)"
	require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	out := san.NewSession(SessionHints{}).SanitizeText("\tkey := ssa.OpAMD64Qx7mB2pzR9vL4kWn8c")
	require.NotContains(t, out, "Qx7mB2pzR9vL4kWn8c")
}

// FuzzNameFamily: looking for a run's family never fails on any text, a run with no other
// run beside it has none, and two runs make one only for a name holding three English words.
func FuzzNameFamily(f *testing.F) {
	for _, s := range []string{
		"#define DER_OID_V_c2pnb163v1 1\n#define DER_OID_SZ_c2pnb163v1 10\n#define DER_OID_SZ_c2pnb163v2 10",
		"ssa.OpAMD64VRCP14PS512, ssa.OpAMD64VRCP14PS256, ssa.OpAMD64VRCP14PD512",
		"glGetQueryObjecti64v glGetQueryObjectui64v glGetQueryObjecti64vEXT",
		"ECDSAWithP256AndSHA256, ECDSAWithP384AndSHA384, ECDSAWithP521AndSHA512",
		"Qx7mB2pzR9vL4kWn8cT1yH6j Qx7mB2pzR9vL...yH6j",
		"glGetQCCryObj00i glGetQCCryObj0i",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		runs := 0
		forEachTokenRun(text, 1, func(int, int) { runs++ })
		forEachTokenRun(text, 16, func(start, end int) {
			if !nameFamily(text, start, end) {
				return
			}
			if runs < 2 {
				t.Fatalf("%q: a family of one run", text[start:end])
			}
			if runs < 3 && wordPieces(text[start:end]) < 3 {
				t.Fatalf("%q: a family of two runs with fewer than three words", text[start:end])
			}
		})
	})
}

// Three English words in a random token are rare, the pair rule's bar, and four in 40
// characters or fewer none, a name's alone.
func TestWordPiecesOfRandomTokens(t *testing.T) {
	t.Parallel()
	require.Equal(t, 3, wordPieces("pbeWithSHA1And128BitRC2-CBC"))
	require.Equal(t, 3, wordPieces("xmlSecTmplX509DataAddCRL"))
	r := rand.New(rand.NewSource(5))
	caught, wordy := 0, 0
	for _, alphabet := range []string{base62Letters, base62Letters + "+/", "abcdefghijklmnopqrstuvwxyz0123456789"} {
		for _, n := range []int{20, 24, 32, 40} {
			for range 20000 {
				b := make([]byte, n)
				for i := range b {
					b[i] = alphabet[r.Intn(len(alphabet))]
				}
				if highEntropySecret(string(b)) {
					caught++
					if wordPieces(string(b)) >= 3 {
						wordy++
					}
				}
			}
		}
	}
	require.Greater(t, caught, 150000)
	require.LessOrEqualf(t, wordy, 10, "%d of %d random tokens hold three words", wordy, caught)

	san := testSanitizer(t)
	in := "XMLSEC_CRYPTO_EXPORT int   xmlSecGnuTLSX509CertGetKey              (gnutls_x509_crt_t cert);"
	require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	for _, alphabet := range []string{base62Letters, base62Letters + "+/", base62Letters + "-_", "abcdefghijklmnopqrstuvwxyz0123456789"} {
		for _, n := range []int{20, 26, 32, 40} {
			for range 20000 {
				b := make([]byte, n)
				for i := range b {
					b[i] = alphabet[r.Intn(len(alphabet))]
				}
				if highEntropySecret(string(b)) {
					require.Lessf(t, wordPieces(string(b)), 4, "%s", b)
				}
			}
		}
	}
}

// A constant written in capital words is no base32 seed (SMACK64TRANSMUTE); random seeds of
// the same lengths and alphabet, in the same syntax, are.
func TestCapitalWords(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	in := "#define XATTR_SMACK_TRANSMUTE \"SMACK64TRANSMUTE\"\n#define XATTR_NAME_SMACKTRANSMUTE XATTR_SECURITY_PREFIX XATTR_SMACK_TRANSMUTE"
	require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	for _, s := range []string{"SIOCAX25GETPARMS", "JBSWY3DPEHPK3PXP", "7H4GRID2UFLEW444", "37IRINK7CURSX536"} {
		require.Falsef(t, wordsInCapitals(s), "%s", s)
	}
	r := rand.New(rand.NewSource(9))
	const base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	seeds := 0
	for _, n := range []int{16, 32} {
		for range 100000 {
			b := make([]byte, n)
			for i := range b {
				b[i] = base32[r.Intn(len(base32))]
			}
			if !base32Seed(string(b)) {
				continue
			}
			seeds++
			require.Falsef(t, wordsInCapitals(string(b)), "%s taken for words", b)
			if seeds%500 == 0 {
				line := "#define XATTR_SMACK_TRANSMUTE \"" + string(b) + "\""
				require.NotContains(t, san.NewSession(SessionHints{}).SanitizeText(line), string(b))
			}
		}
	}
	require.Greater(t, seeds, 150000)
}
