package vibe

import (
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// genTokenFormat writes a token of format f from r: the anchor and its parts filled with
// characters of their sets, lengths within their ranges.
func genTokenFormat(f *tokenFormat, r *rand.Rand) string {
	fill := func(p formatPart) string {
		if p.lit != "" {
			return p.lit
		}
		var chars []byte
		for c := 0; c < 256; c++ {
			if p.set.has(byte(c)) {
				chars = append(chars, byte(c))
			}
		}
		n := p.min + r.IntN(min(p.max-p.min, 24)+1)
		b := make([]byte, n)
		for i := range b {
			b[i] = chars[r.IntN(len(chars))]
		}
		return string(b)
	}
	var before strings.Builder
	for i := len(f.before) - 1; i >= 0; i-- {
		before.WriteString(fill(f.before[i]))
	}
	tok := before.String() + f.anchor
	for _, p := range f.after {
		tok += fill(p)
	}
	return tok
}

// TestTokenFormatTable: every format of the table, generated a few times and put where
// agents print tokens (a grep hit, a JSON value, a shell export, the end of a line), is
// found by findTableFormats exactly and is gone after sanitizing.
func TestTokenFormatTable(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ix := tokenFormats()
	require.Len(t, ix.formats, len(tokenFormatTable))
	for _, e := range tokenFormatTable {
		require.NotZero(t, e.from, "%s: every format names the rule sets it was read from", e.format)
		require.NotEmpty(t, e.vendor, e.format)
	}
	contexts := []string{"config/app.go:12: key %s found\n", `{"value": "%s", "n": 1}`, "export SERVICE=%s && make\n", "got %s"}
	r := rand.New(rand.NewPCG(17, 4))
	for k := range ix.formats {
		f := &ix.formats[k]
		for i := 0; i < 6; i++ {
			tok := genTokenFormat(f, r)
			if !plausibleGenerated(f, tok) || standIn(tok) {
				continue // a draw of only letters or holding xxxx, which real tokens are not
			}
			text := strings.Replace(contexts[i%len(contexts)], "%s", tok, 1)
			fs := &findings{text: text}
			findTableFormats(text, 0, fs)
			at := strings.Index(text, tok)
			require.Condition(t, func() bool {
				for _, s := range fs.spans {
					if s.start <= at && s.end >= at+len(tok) {
						return true
					}
				}
				return false
			}, "%s (%s): %q not found in %q", f.vendor, tokenFormatTable[k].format, tok, text)
			out := san.NewSession(SessionHints{}).SanitizeText(text)
			require.False(t, secretLeaks(text, out, tok, []string{tok}), "%s: %q leaks in %q", f.vendor, tok, out)
		}
	}
}

// plausibleGenerated reports whether a generated token passes the words check a real token
// passes: a draw without digits from an alphabet with digits is rare for real tokens, and
// rejected when it reads like words.
func plausibleGenerated(f *tokenFormat, tok string) bool {
	at := strings.Index(tok, f.anchor)
	gen := tok[:at] + tok[at+len(f.anchor):]
	if f.generic && meanRunLength(gen) >= 2.6 {
		return false
	}
	return !f.generated || strings.ContainsAny(gen, digitChars) || meanRunLength(gen) < 3
}

// TestTokenFormatTableNegatives: what shares a format's signature but is an id, a digest, a
// file name, a stand-in or prose is not taken.
func TestTokenFormatTableNegatives(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"pip install scikit-learn && python -m sk-learn-demo",
		"see static/fc-3f9c2b1a4d5e6f708192a3b4c5d6e7f8.js for the bundle",
		"commit 3f786850e387550fdab836ed7e6dc881de23001b",
		"sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
		"STRIPE_KEY=sk_test_EXAMPLEKEYEXAMPLEKEY1234",
		"AKIAIOSFODNN7EXAMPLE",
		"the ghp_ prefix marks a classic token; github_pat_ a fine-grained one",
		"npm_config_registry=https://registry.npmjs.org/",
		"key-value-store-implementation-detail-notes",
		"tvly-search-results-for-the-query-were-empty",
		"xoxb-your-bot-token-here-goes-in-this-field",
		"msg_01XFDUDYJgAACzvnptvVoYEL req_011CQ3b5Aqq6VqYsL6pGq1Ue",
		"model HuggingFaceTB/SmolLM3-3B and claude-3-5-sonnet-20241022",
		"id 123e4567-e89b-12d3-a456-426614174000",
		"dapi is the prefix; dapi-tokens are created under User Settings",
		"hvs.token and hvs.accessor are fields of the response",
		"def test_ResetPasswordForUserAccount(self): and test_ResetPasswords4UserAccount1 pass",
	} {
		fs := &findings{text: text}
		findTableFormats(text, 0, fs)
		require.Empty(t, fs.spans, "%q", text)
	}
}

// TestTokenFormatTableBoundaries: a token inside a longer run of its alphabet is no token of
// the format (a longer hash is not cut to a key's length), and one glued to a word is not
// one either.
func TestTokenFormatTableBoundaries(t *testing.T) {
	t.Parallel()
	tok := "slk_" + strings.Repeat("0f1e2d3c", 8)
	for _, text := range []string{tok + "ab", "x" + tok, "unslk_" + strings.Repeat("0f1e2d3c", 8)} {
		fs := &findings{text: text}
		findTableFormats(text, 0, fs)
		require.Empty(t, fs.spans, "%q", text)
	}
	fs := &findings{text: "(" + tok + ")"}
	findTableFormats(fs.text, 0, fs)
	require.Len(t, fs.spans, 1)

	// A run cut short at a character its part could have taken is not the token; a literal
	// edge may follow one (an assignment's =).
	cut := "glc_" + strings.Repeat("Ab3+", 14) + "x+y"
	for _, text := range []string{cut, "tok=" + cut} {
		fs := &findings{text: text}
		findTableFormats(text, 0, fs)
		for _, s := range fs.spans {
			require.Equal(t, len(text), s.end, "%q cut at %d", text, s.end)
		}
	}
	jwt := "eyJ" + strings.Repeat("hbGc", 4) + ".ewo" + strings.Repeat("ic3V", 5) + "." + strings.Repeat("Sfl3", 6)
	fs = &findings{text: "SERVICE=" + jwt}
	findTableFormats(fs.text, 0, fs)
	require.NotEmpty(t, fs.spans)
	require.Equal(t, jwt, fs.text[fs.spans[0].start:fs.spans[0].end])
}

func TestParseTokenFormat(t *testing.T) {
	t.Parallel()
	f, err := parseTokenFormat("v", "{b33}AzCa{[ABCDEFGHIJKLMNOP]1}{b5}=")
	require.NoError(t, err)
	require.Equal(t, "AzCa", f.anchor)
	require.Len(t, f.before, 1)
	require.Len(t, f.after, 3)
	for _, bad := range []string{"{a32}", "ab{q3}", "ab{a3", "ab{a5-2}", "ab{[]3}"} {
		_, err := parseTokenFormat("v", bad)
		require.Error(t, err, bad)
	}
}

// withCRC appends the base62 CRC-32 of body, as GitHub's tokens carry it.
func withCRC(body string) string {
	sum := crc32.ChecksumIEEE([]byte(body))
	b := make([]byte, 6)
	for i := 5; i >= 0; i-- {
		b[i] = base62Digits[sum%62]
		sum /= 62
	}
	return body + string(b)
}

// TestChecksummedTokens: a body that carries its CRC-32 is a token whatever its entropy and
// whoever issued it (the gist's published GitHub example, a vendor's token of repeated
// letters); the same shape with a wrong checksum and a body of words is not.
func TestChecksummedTokens(t *testing.T) {
	t.Parallel()
	require.Equal(t, "zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ0mLq17", withCRC("zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ"))
	for _, tok := range []string{
		"ghp_" + withCRC("zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ"),
		"acme_" + withCRC("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
		"Vendor_" + withCRC("ThisIsMyServiceTokenBodyABC"),
	} {
		require.True(t, checksummedToken(tok), tok)
		text := "token " + tok + " printed"
		f := &findings{text: text}
		findPrefixedTokens(text, 0, f)
		require.Len(t, f.spans, 1, tok)
		require.Equal(t, tok, text[f.spans[0].start:f.spans[0].end])
	}
	for _, tok := range []string{
		"acme_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa000000",
		"Vendor_ThisIsMyServiceTokenBodyABCdefghi",
		"ghp_zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ0mLq18",
		"12_" + withCRC("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
	} {
		require.False(t, checksummedToken(tok), tok)
	}
}

// FuzzTableFormats: on any text the table's pass stays inside the text, finds tokens no
// shorter than the shortest format, and finds the same again (no state leaks between calls).
func FuzzTableFormats(f *testing.F) {
	ix := tokenFormats()
	r := rand.New(rand.NewPCG(3, 9))
	for k := 0; k < len(ix.formats); k += 7 {
		f.Add("x=" + genTokenFormat(&ix.formats[k], r) + "\n")
	}
	f.Add("glc_" + strings.Repeat("Ab3+", 40))
	f.Fuzz(func(t *testing.T, text string) {
		a, b := &findings{text: text}, &findings{text: text}
		findTableFormats(text, 0, a)
		findTableFormats(text, 0, b)
		require.Equal(t, a.spans, b.spans)
		for _, s := range a.spans {
			require.True(t, 0 <= s.start && s.start < s.end && s.end <= len(text), "%v", s)
			require.GreaterOrEqual(t, s.end-s.start, ix.minLen)
		}
	})
}

// TestPublicKeysPass: public keys are no secrets — an OpenSSH public key (whose base64 blob
// names its algorithm) and an age recipient pass whole, while a key blob of another kind
// and an age secret key do not.
func TestPublicKeysPass(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, text := range []string{
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop",
		"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA9W8b3Ck1ZmQ3XBX5c2QeQk6wV1xqAi9yZzq8t6N4m2pL0kQ5r7sT3uV9w1xY2z4A6b8C0d2E4f6G8h0J2k4L6m8N0p2Q4r6S8t0U2v4W6x8Y0z2 bob@box",
		"encrypted to age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
	} {
		require.Equal(t, text, san.NewSession(SessionHints{}).SanitizeText(text))
	}
	require.False(t, sshPublicKeyBlob("AAAAB3Zx9Kq2mVb4Nc8Lp1Rt5Ws3Yz6A7Jx9Kq2mVb4Nc8Lp1Rt5Ws3Yz6A7Jx9Kq2mVb4Nc8Lp1"))
	out := san.NewSession(SessionHints{}).SanitizeText("AGE-SECRET-KEY-1QL3Z7HJY54PW3HYWW5AYYFG7ZQGVC7W3J2ELW8ZMRJ2KG5SFN9AQMCAC8P")
	require.Contains(t, out, "[redacted:")
}

// TestNonceIsNoToken: a nonce is sent in the open (a CSP source list, a request's nonce), so
// its random body is no prefixed token.
func TestNonceIsNoToken(t *testing.T) {
	t.Parallel()
	text := "Content-Security-Policy: script-src 'nonce-r4nd0mB4se64Str1ngHere2' 'strict-dynamic'"
	require.Equal(t, text, testSanitizer(t).NewSession(SessionHints{}).SanitizeText(text))
}
