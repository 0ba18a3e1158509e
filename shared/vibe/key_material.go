package vibe

import (
	"regexp"
	"strings"
)

// Key material written in the formats of key-management libraries, and the public halves
// published beside it.

// ruleTinkKey names findTinkKeysets' matches.
const ruleTinkKey = "tink-keyset"

// A Tink keyset in JSON (`tinkey` writes it, applications load it from a file or a
// variable): a list of keys, each a keyData object naming the key's type
// (type.googleapis.com/google.crypto.tink.AesGcmKey, …), its serialized material in base64
// under "value", and what that material is. SYMMETRIC and ASYMMETRIC_PRIVATE material is the
// key itself, however short the base64; ASYMMETRIC_PUBLIC (a public keyset) and REMOTE (a
// reference to a key held by a KMS) are not secrets.
var (
	tinkKeyData      = regexp.MustCompile(`"keyData"\s*:\s*\{([^{}]{0,1000})\}`)
	tinkKeyValue     = regexp.MustCompile(`"value"\s*:\s*"([A-Za-z0-9+/_-]{8,}={0,2})"`)
	tinkPublicOrRefs = regexp.MustCompile(`"keyMaterialType"\s*:\s*"(?:ASYMMETRIC_PUBLIC|REMOTE)"`)
)

func findTinkKeysets(text string, f *findings) {
	if !strings.Contains(text, "google.crypto.tink.") {
		return
	}
	s := f.read()
	for _, m := range tinkKeyData.FindAllStringSubmatchIndex(s, -1) {
		body := s[m[2]:m[3]]
		if !strings.Contains(body, "google.crypto.tink.") || tinkPublicOrRefs.MatchString(body) {
			continue
		}
		if v := tinkKeyValue.FindStringSubmatchIndex(body); v != nil {
			f.addSpan(ruleTinkKey, m[2]+v[2], m[2]+v[3])
		}
	}
}

// publicPointNamed reports a token that is an uncompressed P-256 public point in base64url
// (65 bytes, the 0x04 lead written as "B": 87 characters, or 88 padded) given to a name that
// ends in "public key" (`VAPID_PUBLIC_KEY=`, `"vapidPublicKey":`, `Public Key:`). That is how
// Web Push servers publish their application server key: the browser is handed it, so it is
// public by design. The private half is 43 characters and is not of this shape.
func publicPointNamed(text string, start, end int) bool {
	n := end - start
	if n != 87 && !(n == 88 && text[end-1] == '=') || text[start] != 'B' {
		return false
	}
	for i := start; i < start+87; i++ {
		if c := text[i]; !isWordByte(c) && c != '-' {
			return false
		}
	}
	// Back over the quote, the `:`/`=` and blanks to the name.
	i := start - 1
	for i >= 0 && (text[i] == '"' || text[i] == '\'' || text[i] == ' ' || text[i] == '\t') {
		i--
	}
	if i < 0 || text[i] != ':' && text[i] != '=' {
		return false
	}
	i--
	for i >= 0 && (text[i] == '"' || text[i] == '\'' || text[i] == ' ' || text[i] == '\\') {
		i--
	}
	e := i + 1
	for i >= 0 && (isWordByte(text[i]) || text[i] == '-' || text[i] == ' ') && e-i <= 40 {
		i--
	}
	name := strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(text[i+1 : e]))
	return strings.HasSuffix(name, "publickey") && !strings.Contains(name, "private") && !strings.Contains(name, "secret")
}
