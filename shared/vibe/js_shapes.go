package vibe

import "strings"

// Shapes of JavaScript and TypeScript source that name a credential and hold none.

// echoedName reports an upper-case constant whose value spells its own name's words again:
// an identifier, a message code or a header name, not a credential (const
// PENDING_REDIRECT_KEY = 'pendingRedirect', CREDENTIAL_ALREADY_IN_USE:
// 'auth/credential-already-in-use', METRIC_GEN_AI_SERVER_TIME_TO_FIRST_TOKEN =
// 'gen_ai.server.time_to_first_token'). JavaScript libraries keep such names for event
// names, error codes and storage keys. The value must be letters and separators only, with
// two or more of its words among the name's and no more words of its own than it shares: a
// secret is not made of the words of the name it is kept under, and a digit, which nearly
// every generated credential holds, leaves the value to the other rules. A password is not
// among them: one chosen after its own name (DB_PASSWORD = 'db_password') is weak, but it is
// the password.
func echoedName(name, v string) bool {
	v = strings.Trim(v, "\"'`")
	if len(name) < 5 || name != strings.ToUpper(name) || !strings.Contains(name, "_") || len(v) < 5 || passwordName(name) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && strings.IndexByte("_-./: ", v[i]) < 0 {
			return false
		}
	}
	parts := nameParts(name)
	switch parts[len(parts)-1] {
	case "secret", "token", "key", "credential", "credentials", "auth", "apikey":
		// The name is the credential's own: only a namespaced code (an event name, an error
		// code) echoes it; a plain echo (SLACK_TOKEN = 'slack_token') may be the value.
		if !strings.ContainsAny(v, "./:") {
			return false
		}
	}
	words := map[string]bool{}
	for _, p := range parts {
		words[p] = true
	}
	shared, own := 0, 0
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == ':' }) {
		for _, p := range nameParts(f) {
			if words[p] {
				shared++
			} else {
				own++
			}
		}
	}
	return shared >= 2 && own <= shared
}

// keyMaterialWords are the parts of a …_KEY name that say the key is key material (a
// credential), not the name an entry is looked up under.
var keyMaterialWords = map[string]bool{"api": true, "access": true, "private": true, "secret": true, "signing": true,
	"encryption": true, "crypto": true, "client": true, "master": true, "admin": true, "license": true, "licence": true,
	"app": true, "service": true, "server": true, "session": true, "auth": true, "hmac": true, "aes": true, "rsa": true,
	"ssh": true, "gpg": true, "pgp": true, "root": true, "deploy": true, "write": true, "read": true}

// lookupKeyName reports an upper-case constant for a lookup key (PERSISTENCE_KEY =
// 'persistence', REFERENCES_KEY = '_references', SORT_ORDER_KEY = 'sortOrder'): JavaScript
// keeps the property, storage or cache key an entry is kept under in such names, and its
// value is English words, where a key's material is random. A name that also says what
// the key unlocks (API_KEY, SECRET_KEY, ADMIN_KEY) or holds a word for a password is left
// to the other rules, and so is a value with a digit or a part that is no English word.
func lookupKeyName(name, v string) bool {
	parts := nameParts(name)
	if len(parts) < 2 || parts[len(parts)-1] != "key" || name != strings.ToUpper(name) || passwordName(name) {
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		if keyMaterialWords[p] || secretWords[p] || glued(p) {
			return false
		}
	}
	v = strings.Trim(v, "\"'`")
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && strings.IndexByte("_-.", v[i]) < 0 {
			return false
		}
	}
	words := nameParts(v)
	for _, w := range words {
		if !dictWord(w) {
			return false
		}
	}
	return len(words) > 0
}

// base64Prose reports a run of base64 that decodes to prose or source code: an inline
// source map or bundled module (sourceMappingURL=data:…;base64,…, a wasm loader's embedded
// script), which bundlers write into JavaScript and whose lines the chunking cuts anywhere.
// The run may start anywhere in the encoding (the entropy rule cuts it at '/'), so each of
// the four alignments is tried. Text counts as prose when it is 48 bytes or more, printable,
// and has a blank for every 20 bytes: a credential, even encoded with its user name, is one
// unbroken word, and a key decodes to bytes. A secret written inside such text is still
// found by decodeAndDetect, which decodes the whole run before the entropy rule sees it.
func base64Prose(tok string) bool {
	if len(tok) < 64 {
		return false
	}
	for k := 0; k < 4; k++ {
		s := tok[k:]
		s = s[:len(s)/4*4]
		text, ok := decodeBase64(strings.TrimRight(s, "="))
		if !ok || len(text) < 48 || strings.Contains(text, "-----BEGIN") {
			continue
		}
		if strings.Count(text, " ")+strings.Count(text, "\n") >= len(text)/20 {
			return true
		}
	}
	return false
}
