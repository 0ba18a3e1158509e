package vibe

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Names in code, by shape, are no secrets; a generated token in the same place and of the
// same length and alphabet, or words put before a random part, still is.
func TestCodeNames(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	kept := []struct{ name, in string }{
		{"a Go selector of an op named by words and an instruction", "case ssa.OpAMD64VCVTPD2PSXMasked128load, ssa.OpAMD64VPERMI2PSMasked128load:"},
		{"a function named for an architecture and an op", "\treturn rewriteValuePPC64_OpRsh32x8(v)\n\treturn rewriteValueS390X_OpLsh8x32(v)"},
		{"camel-case words and vector shapes", `{name: "Broadcast1To2Float64x2", argLength: 1}, {name: "ShiftAllRightConcatUint32x16", argLength: 3}`},
		{"a lower-camel name with an acronym and digits", "\tif !castagnoliSSE42TableK1(crc) || ipv4MappedIPv6Enabled {"},
		{"words with a digit inside", "function bigIntAndBufferInt64Check(value, offset) { return isTLS13OnlyKeyExchange }"},
		{"a qualified name in a dotted path", "    const ok = keyDetails === protobuf_specs_1.PublicKeyDetails.PKIX_RSA_PKCS1V15_2048_SHA256 ||"},
		{"an atomic op of an architecture", "\tcase OpARM64LoweredAtomicAnd32Variant, OpMIPS64LoweredAtomicCas64:"},
		{"a google document's url", "// See https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU/edit?usp=sharing\n// and https://drive.google.com/file/d/1un-Jn47yByHL7I0aVIP_uVCMxjdM5mpelJhiKlIqxkE/view"},
		{"a file name of a word, a digest and numbers", "\tcovcounters.cce1b350af34b6d0fb59cc1725f0ee27.821598.1663006712821344241"},
		{"arithmetic of names", "\t\tif c <= (64-getPPC64ShiftMaskLength(d)) && t.capacity > math.MaxUint16/maxAvgGroupLoad {"},
	}
	for _, tc := range kept {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.NotContains(t, out, "[redacted", "in %q", tc.in)
		})
	}

	caught := []struct{ name, in, secret string }{
		{"a random token after a vendor's words", "client.setKey(\"secret_live_token_T1z4jtdp7dcC39HqLyjWareD\")", "T1z4jtdp7dcC39HqLyjWareD"},
		{"words before a random key", "AWS_SECRET=FakeValues99cl9bqJFVA3iFUm+yqVe08HxhXFE/", "99cl9bqJFVA3iFUm+yqVe08HxhXFE"},
		{"a random part in a dotted name", "\tkey := cfg.Signer.Qx7mB2pzR9vL4kWn8cT1yH6jPq3", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3"},
		{"a random token with words by chance", "token Gx7VbandK3rueH18qZpw2Lm9", "Gx7VbandK3rueH18qZpw2Lm9"},
		{"a random segment on another host", "see https://docs.acme.io/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU/edit", "1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU"},
		{"a token in a google document's query", "https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQ/edit?resourcekey=0-Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn8cT1yH6j"},
		{"a random part beside a digest", "\tcache.cce1b350af34b6d0fb59cc1725f0ee27.Qx7mB2pzR9vL4kWn8cT1yH6j", "Qx7mB2pzR9vL4kWn8cT1yH6j"},
		{"an upper-case key of capitals and digits", "export KEY=Q7ZK3R8DPWN2X4HVBQY5MGCS7L1AZ3", "Q7ZK3R8DPWN2X4HVBQY5MGCS7L1AZ3"},
	}
	for _, tc := range caught {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := san.NewSession(SessionHints{}).SanitizeText(tc.in)
			require.Contains(t, out, "[redacted", "in %q", tc.in)
			require.NotContains(t, out, tc.secret, "in %q", tc.in)
		})
	}

	// Random tokens of each kept name's length, alphabet and punctuation are no names, and
	// every one the entropy rule catches is masked as a quoted value.
	r := rand.New(rand.NewSource(17))
	for _, tc := range kept {
		for _, tok := range strings.FieldsFunc(tc.in, func(c rune) bool { return c > 127 || !tokenChar(byte(c)) }) {
			if len(tok) < 20 {
				continue
			}
			alphabet := alphabetOf(tok)
			for range 200 {
				b := []byte(tok)
				for i := range b {
					if isLetter(b[i]) || isDigitByte(b[i]) {
						b[i] = alphabet[r.Intn(len(alphabet))]
					}
				}
				random := string(b)
				require.Falsef(t, nameShaped(random), "%s: %q taken for a name", tc.name, random)
				if highEntropySecret(random) {
					out := san.NewSession(SessionHints{}).SanitizeText(`key = "` + random + `"`)
					require.NotContainsf(t, out, random, "%s: %q", tc.name, random)
				}
			}
		}
	}
	// And random tokens of the common secret alphabets and lengths.
	for _, alphabet := range []string{base62Letters, base62Letters + "+/", base62Letters + "-_", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "abcdefghijklmnopqrstuvwxyz0123456789"} {
		for _, n := range []int{20, 24, 32, 40, 64} {
			for range 2000 {
				b := make([]byte, n)
				for i := range b {
					b[i] = alphabet[r.Intn(len(alphabet))]
				}
				require.Falsef(t, nameShaped(string(b)), "%q taken for a name", b)
			}
		}
	}
}

const base62Letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// alphabetOf returns the character classes tok holds (lower case, upper case, digits), whole.
func alphabetOf(tok string) string {
	var lower, upper, digit bool
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		lower = lower || c >= 'a' && c <= 'z'
		upper = upper || c >= 'A' && c <= 'Z'
		digit = digit || isDigitByte(c)
	}
	var a string
	if lower {
		a += "abcdefghijklmnopqrstuvwxyz"
	}
	if upper {
		a += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	}
	if digit {
		a += "0123456789"
	}
	return a
}

func TestDictWord(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimSuffix(englishWords, "\n"), "\n")
	require.True(t, slices.IsSorted(lines), "english_words.txt is sorted")
	for _, w := range lines {
		require.Truef(t, listedWord([]byte(w)), "%s", w)
		require.Falsef(t, listedWord([]byte(w+"q")), "%sq", w)
	}
	for _, w := range []string{"aardvark", "zygote", "value", "Values", "Lowered", "enabled", "Encoding", "classes", "Masked", "SHIFT", "rewrite"} {
		require.Truef(t, dictWord(w), "%s", w)
	}
	for _, w := range []string{"tineed", "sird", "gnates", "lxvi", "xqzt", "ab", "Vcvtpd"} {
		require.Falsef(t, dictWord(w), "%s", w)
	}
}
