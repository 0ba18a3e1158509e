package vibe

import (
	"bytes"
	"encoding/base64"
	"strings"
)

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

// generatedNoSecret reports a random-looking token that a compiler, a bundler or an encoder
// wrote and that holds no credential: base64 whose decoding says so, a compiler's member
// path, a bundle's chunk name, a wasm-bindgen import's name, a regular expression's
// character ranges, a number with digit separators, a typed object id.
func generatedNoSecret(tok string) bool {
	return base64Prose(tok) || base64Binary(tok) || base64Word(tok) || compiledMember(tok) || bundleChunkName(tok) ||
		wasmBindgenName(tok) || charRanges(tok) || separatedHex(tok) || taggedObjectID(tok)
}

// taggedObjectID reports an object id of the shape Anthropic's API gives every object and
// its SDK's documentation shows (env_011CZkZ9X2dpNyB7HsEFoRfW, sesn_011CZkZAtmR3yMPDzynEDxu7,
// user_01WxYzAbCdEfGhJkMnPqRsTu): one of the API's object types, _01 and 20 to 30
// characters of base58, which leaves out 0, O, I and l. An id names an object; the API's
// keys are sk-ant-…. Other services' keys take the same shape behind their own prefix
// (slk_01q8Zr2mXv7Lp4Nw9Tc3Yb6Hd1Q7z), so the type is one of the API's, not any word.
func taggedObjectID(tok string) bool {
	t, body, ok := strings.Cut(tok, "_01")
	if !ok || !anthropicObjectTypes[t] || len(body) < 20 || len(body) > 30 {
		return false
	}
	for i := 0; i < len(body); i++ {
		if c := body[i]; !isAlnum(c) || strings.IndexByte("0OIl", c) >= 0 {
			return false
		}
	}
	return true
}

// anthropicObjectTypes are the types Anthropic's API writes before an object id's _01.
var anthropicObjectTypes = map[string]bool{"env": true, "sesn": true, "user": true, "agent": true, "file": true,
	"org": true, "wrkspc": true, "msgbatch": true, "toolu": true, "srvtoolu": true, "skill": true}

// bundleChunkName reports the name esbuild gives a shared chunk and the bindings it imports
// it by (chunk-M5T7GI2R.js, chunk_M5T7GI2R_exports, import_chunk_IF4T5P2G.link): chunk, a
// dash or _, and eight capitals and digits, its content hash.
func bundleChunkName(tok string) bool {
	t := strings.TrimPrefix(tok, "import_")
	if !strings.HasPrefix(t, "chunk_") && !strings.HasPrefix(t, "chunk-") || len(t) < 14 {
		return false
	}
	h, rest := t[6:14], t[14:]
	for i := 0; i < len(h); i++ {
		if !isDigitByte(h[i]) && !isUpperByte(h[i]) {
			return false
		}
	}
	return rest == "" || rest == "_exports" || rest[0] == '.' && identifierPath(rest[1:])
}

// wasmBindgenName reports the name wasm-bindgen gives a JavaScript import of a Rust module
// (__wbg_Number_bb48ca12f395cd08): __wbg_, the function's name, _ and 16 hex digits.
func wasmBindgenName(tok string) bool {
	tok = strings.TrimLeft(tok, "_") // the entropy rule trims the underscores
	if !strings.HasPrefix(tok, "wbg_") || len(tok) < 4+2+17 || tok[len(tok)-17] != '_' {
		return false
	}
	h := tok[len(tok)-16:]
	return isHex(h) && strings.ToLower(h) == h && identifierWords(strings.ReplaceAll(tok[4:len(tok)-17], "_", "."))
}

// charRanges reports a regular expression's character class written as ranges
// (0-9A-HJKMNP-TV-Za-hjkmnp-tv-z, Crockford's base32 alphabet): three ranges or more, each a
// character, a dash and a later character of the same kind, making up half the token.
func charRanges(tok string) bool {
	ranges := 0
	for i := 0; i+2 < len(tok); i++ {
		a, b := tok[i], tok[i+2]
		if tok[i+1] == '-' && a < b && (isDigitByte(a) && isDigitByte(b) || isUpperByte(a) && isUpperByte(b) || a >= 'a' && b <= 'z') {
			ranges++
			i += 2
		}
	}
	return ranges >= 3 && ranges*3*2 >= len(tok)
}

// separatedHex reports a hexadecimal number written with digit separators, as Java, Kotlin
// and JavaScript allow (0x656d_ab34_98f8_e697L): a constant of code.
func separatedHex(tok string) bool {
	if len(tok) < 4 || tok[0] != '0' || tok[1]|0x20 != 'x' || !strings.Contains(tok, "_") {
		return false
	}
	h := strings.TrimSuffix(strings.TrimSuffix(tok[2:], "L"), "n")
	for _, g := range strings.Split(h, "_") {
		if g == "" || !isHex(g) {
			return false
		}
	}
	return true
}

// base64Prose reports a run of base64 that decodes to prose or source code: an inline
// source map or bundled module (sourceMappingURL=data:…;base64,…, a wasm loader's embedded
// script), which bundlers write into JavaScript and whose lines the chunking cuts anywhere.
// The run may start anywhere in the encoding (the entropy rule cuts it at '/'), so each of
// the four alignments is tried. Text counts as prose when it is 48 bytes or more, printable,
// and has a blank for every 20 bytes, or is a source map's mappings (VLQ groups split by ,
// and ;) or minified code: a credential, even encoded with its user name, is one unbroken word, and a key
// decodes to bytes. A secret written inside such text is still
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
		if strings.Count(text, " ")+strings.Count(text, "\n") >= len(text)/20 || vlqMappings(text) || codeText(text) {
			return true
		}
	}
	return false
}

// lexerTokenNameWords are the words a lexer's or a highlighter's names put beside token
// (defaultToken, tokenPostfix, tokenValue, tokenStart, space_before_token): a name about a
// lexical token, not an issued credential.
// issuedTokenName reports a name with a word that says its token is issued by a service
// (access_token, apiToken, refreshToken, GITHUB_TOKEN's github, session_token).
func issuedTokenName(name string) bool {
	for _, p := range nameParts(name) {
		switch p {
		case "access", "api", "auth", "refresh", "bearer", "session", "csrf", "xsrf", "oauth", "jwt", "id", "secret",
			"personal", "client", "app", "bot", "user", "service", "github", "gitlab", "slack", "npm", "deploy", "reset":
			return true
		}
	}
	return false
}

// languageTokens are the reserved words of the languages lexers and parsers are written for
// (Python, JavaScript, C, Go, shell, go.mod's directives) and the names parsers give
// punctuators: what a lexical token is compared with or emitted as.
var languageTokens = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`async await lambda if else elif for while def class import from as try except
		finally with yield del continue break pass return raise global nonlocal match case assert in is not and or
		struct union enum typedef const let var function switch default func package type interface go defer
		select chan map range new delete typeof instanceof void this super extends implements static public private
		protected true false null None nil end begin then do done fi esac require exclude replace retract module
		toolchain godebug use lbracket rbracket lparen rparen lbrace rbrace comma colon semicolon dot newline
		indent dedent eof`) {
		m[w] = true
	}
	return m
}()

var lexerTokenNameWords = map[string]bool{"token": true, "tokens": true, "default": true, "type": true, "value": true,
	"start": true, "end": true, "postfix": true, "prefix": true, "kind": true, "text": true, "next": true, "prev": true,
	"current": true, "cur": true, "last": true, "first": true, "raw": true, "space": true, "before": true, "after": true,
	"v": true, "val": true}

// scopeRoots are the words a highlighter's token type opens with: TextMate's scope roots
// (comment, keyword, storage.type, entity.name.function…) and the types Ace and Monaco add
// (paren.lparen, identifier, regexp.charclass).
var scopeRoots = map[string]bool{"comment": true, "constant": true, "entity": true, "invalid": true, "keyword": true,
	"markup": true, "meta": true, "storage": true, "string": true, "support": true, "variable": true, "punctuation": true,
	"text": true, "source": true, "paren": true, "lparen": true, "rparen": true, "regexp": true, "regex": true,
	"identifier": true, "operator": true, "number": true, "numeric": true, "delimiter": true, "tag": true,
	"attribute": true, "annotation": true, "emphasis": true, "heading": true, "strong": true, "escape": true,
	"function": true, "type": true, "bracket": true, "brackets": true, "predefined": true, "namespace": true,
	"xml-pe": true, "empty_line": true, "whitespace": true, "nospell": true, "doctype": true, "literal": true}

// lexerTokenWord reports a lexical token's type under a name for one: a highlighter's rule
// ({token: "keyword.control.assembly", regex: …}, defaultToken: "invalid"), a lexer's
// comparison (if (token === 'option')) or a token handed to a call (token("num", valid)).
// Lexers, parsers and syntax highlighters (Ace, Monaco, CodeMirror, Prism, acorn) name
// their token types with English words, alone or joined by dots into a TextMate scope, and
// a file name's suffix (tokenPostfix: ".js"). A token a service issues is random or
// prefixed, never English words in lower case: the name must be made of token and those
// words only (not apiToken, accessToken or an upper-case TOKEN a config sets), and the
// value of letters, '.' and '-' whose parts are mostly English words (a language's short
// name may end a scope: comment.line.double-slash.lsl). A glued run of letters
// (correcthorsebatterystaple, abcdefghijklmnop) is no word, and stays masked.
func lexerTokenWord(name, v string) bool {
	if name == strings.ToUpper(name) || !strings.Contains(strings.ToLower(name), "token") {
		return false
	}
	if w := strings.Trim(strings.TrimSpace(v), "\"'`"); (languageTokens[w] || len(w) > 1 && w[0] == '#' && isLowerWord(w[1:])) && !issuedTokenName(name) {
		// if token == "async", state.add_token("elif"), line.Token[0] == "require",
		// (…, token, '#pop'): a keyword, a punctuator's name or a lexer's state
		return true
	}
	if obj, member, ok := strings.Cut(name, "."); ok && strings.Contains(strings.ToLower(obj), "token") && !strings.Contains(member, ".") {
		switch member {
		case "value", "type", "kind", "text", "string", "tag_check":
			// token.value == "=end", nexttoken.value === 'use strict': the source text a
			// lexer's token holds, compared with a keyword or a punctuator of the language.
			v = strings.Trim(strings.TrimSpace(v), "\"'`")
			return v != "" && len(v) <= 16 && countDigits(v) < 2 && !randomValue(v)
		}
		return false
	}
	for _, p := range nameParts(name) {
		if !lexerTokenNameWords[p] {
			return false
		}
	}
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "[") {
		return tokenTypes(strings.Trim(v, "\"'`"))
	}
	// token: [ "keyword.other", "text", … ]: a type for each group the rule's regex matches,
	// the list maybe cut where the value ends (its last item then unclosed, as it is when
	// the items on lines of their own are joined to look for a secret split over them).
	items := strings.Split(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"), ",")
	n := 0
	for i, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		if strings.IndexByte("\"'", it[0]) < 0 {
			return false
		}
		if len(it) >= 2 && it[len(it)-1] == it[0] {
			it = it[1 : len(it)-1]
		} else if i == len(items)-1 {
			it = it[1:]
		} else {
			return false
		}
		if !tokenTypes(it) {
			return false
		}
		n++
	}
	return n > 0
}

// tokenTypes reports one token type, or up to four scopes set apart by blanks
// (keyword.language.gdscript storage.type.var.gdscript).
func tokenTypes(v string) bool {
	f := strings.Fields(v)
	for _, w := range f {
		if !tokenType(w) || len(f) > 1 && !strings.Contains(w, ".") {
			return false
		}
	}
	return len(f) > 0 && len(f) <= 4
}

// tokenType reports one token type: a scope, words, a file name's suffix.
func tokenType(v string) bool {
	if len(v) >= 2 && len(v) <= 7 && v[0] == '.' && lowerAlnum(v[1:]) {
		return true // tokenPostfix: ".js": a file name's suffix
	}
	v = strings.TrimPrefix(v, "@") // Monaco's @brackets, @rematch
	if v == "" || len(v) > 80 || !isLetter(v[0]) {
		return false
	}
	if root, rest, _ := strings.Cut(v, "."); scopeRoots[root] {
		// paren.lparen, string.cdata.xml, text.tag-whitespace.xml, markup.heading.1 and
		// Monaco's keyword.$0 (the matched group's text put in the type).
		for i := 0; i < len(rest); i++ {
			if !isAlnum(rest[i]) && strings.IndexByte(".-_$", rest[i]) < 0 {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && strings.IndexByte(".-_", v[i]) < 0 {
			return false
		}
	}
	parts := nameParts(v)
	words, short := 0, 0
	for _, p := range parts {
		switch {
		case dictWord(p):
			words++
		case len(p) <= 8:
			short++
		default:
			return false
		}
	}
	return words > 0 && words >= short || len(parts) == 1 && len(v) <= 4
}

func lowerAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) && (s[i] < 'a' || s[i] > 'z') {
			return false
		}
	}
	return s != ""
}

// minifiedCode reports an unquoted value that is JavaScript a compiler or a minifier wrote:
// a member path only a compiler writes (compiledMember), void 0 (undefined: exports.Token = void 0, as TypeScript's CommonJS output opens every
// module), !0 and !1 (true and false: pwd:!1 in a table of shell words), a name a bundler
// renamed with a $ and a number (formatDistanceLocale$11[token]), a minified expression
// (minifiedOperator), or a name or member that closes an object, a block or a call
// (let{tokenStart:l}=t, this.tokenEnd=this.firstCharOffset}, Token:Ja}}). None of these is a literal: a credential written without quotes is one word
// of its own, and one in a YAML flow mapping ({password: hunter2}) is longer than a
// minifier's two letters and no member path, so it stays masked.
func minifiedCode(v string) bool {
	lead := v
	if i := strings.IndexAny(v, ",;)}]"); i > 0 {
		lead = v[:i]
	}
	switch lead {
	case "void 0", "!0", "!1":
		return true // {withCredentials:!0}).then(…
	}
	if minifiedOperator(v) {
		return true
	}
	if compiledMember(strings.TrimLeft(strings.TrimRight(v, ",;)"), "!")) {
		return true // clientSecret: this.#clientSecret, apiKeys = beta_1.BETA_CLIENT_TOOL_UNION_KEYS
	}
	head := v
	if i := strings.IndexAny(v, "}])[;,"); i > 0 {
		head = v[:i]
	}
	if renamedBinding(head) && (head == v || v[len(head)] != '}') {
		return true // formatDistanceLocale$11[token], locale$1;
	}
	if len(head) == len(v) || v[len(head)] != '}' && v[len(head)] != ')' {
		return false
	}
	if v[len(head)] == '}' && len(head) <= 2 && isLetter(head[0]) && (len(head) == 1 || isAlnum(head[1]) || head[1] == '$') {
		return true // {tokenStart:l}=t, Token:Ja}}: a minifier's name
	}
	// this.firstCharOffset}, Dt.Cancelled}, wasmExports._outToken)(e,t): a member closing
	// an object or a call's arguments
	return strings.IndexByte(head, '.') > 0 && identifierPath(head)
}

// compiledMember reports a member path only a compiler writes: through a private class
// field (this.#clientSecret, this.#options.clientSecret) or through the binding
// TypeScript's CommonJS output gives an imported module (beta_1.BETA_CLIENT_TOOL_UNION_KEYS,
// backoff_1.isFatal4xx): the module's name, _ and a number, then a member.
func compiledMember(v string) bool {
	head, rest, ok := strings.Cut(v, ".")
	if !ok || rest == "" {
		return false
	}
	if head == "this" && rest[0] == '#' {
		return identifierPath(strings.ReplaceAll(rest[1:], ".#", "."))
	}
	i := strings.LastIndexByte(head, '_')
	if i <= 0 || i == len(head)-1 || !isDigits(head[i+1:]) || !identifierPath(head[:i]) {
		return false
	}
	for _, seg := range strings.Split(rest, ".") {
		if seg == "" || !isLetter(seg[0]) && seg[0] != '_' && seg[0] != '$' {
			return false
		}
		for j := 0; j < len(seg); j++ {
			if !isWordByte(seg[j]) && seg[j] != '$' {
				return false
			}
		}
	}
	return true
}

// minifiedOperator reports a minified expression: a name, a member or a literal of code
// followed with no blank by a comparison, a logical operator or a second assignment
// (null!==(s=e.refresh_token), t.bytes===String?…, o||r, Module._outToken=(e,t)=>…,
// Module._check_password_hook=2388884). Base64's padding (abc==) ends a value, never goes
// on with a name.
func minifiedOperator(v string) bool {
	i := 0
	for i < len(v) && (isWordByte(v[i]) || v[i] == '$' || v[i] == '.') {
		i++
	}
	if i == 0 || i+2 >= len(v) || !isLetter(v[0]) && v[0] != '_' && v[0] != '$' {
		return false
	}
	head, rest := v[:i], v[i:]
	switch {
	case strings.HasPrefix(rest, "===") || strings.HasPrefix(rest, "!=="):
		return true
	case strings.HasPrefix(rest, "==") || strings.HasPrefix(rest, "!=") || strings.HasPrefix(rest, "||") || strings.HasPrefix(rest, "&&") || strings.HasPrefix(rest, "??"):
		c := rest[2]
		return isLetter(c) || c == '_' || c == '$' || c == '(' || c == '!'
	case rest[0] == '=' && strings.IndexByte(head, '.') > 0 && identifierPath(strings.ReplaceAll(head, "$", "")):
		return true // Module._outToken=…: the member a second assignment sets
	}
	return false
}

// jsTypeNames are what JavaScript's typeof gives.
var jsTypeNames = map[string]bool{"function": true, "object": true, "undefined": true, "string": true, "number": true,
	"boolean": true, "symbol": true, "bigint": true}

// typeofComparison reports the type name a typeof comparison tests for (typeof
// options.apiKey === 'function'): the literal after a typeof of the name on its line.
func typeofComparison(s string, vs int, v string) bool {
	if !jsTypeNames[strings.Trim(v, "\"'`")] {
		return false
	}
	head := s[max(0, vs-120):vs]
	i := strings.LastIndex(head, "typeof ")
	return i >= 0 && !strings.ContainsAny(head[i:], ";\n") && (strings.Contains(head[i:], "==") || strings.Contains(head[i:], "!="))
}

// comparedWord reports a capitalised word a variable is compared with (if tokenStr == "Not",
// token != "Bearer"): a parser's keyword or a scheme's name. What a password is compared with
// stays one (password == "swordfish", a hard-coded check), and so does a lower-case word
// (apiKey === 'function' without typeof) or a literal with a digit or a symbol.
func comparedWord(s string, vs int, name, v string) bool {
	w := strings.Trim(v, "\"'`")
	if passwordName(name) || len(w) < 2 || len(w) > 12 || !isLetters(w) || !isUpperByte(w[0]) || !dictWord(strings.ToLower(w)) {
		return false
	}
	head := strings.TrimRight(s[max(0, vs-8):vs], "\"'` \t")
	return strings.HasSuffix(head, "==") || strings.HasSuffix(head, "!=")
}

// renamedBinding reports a name a bundler gave a binding it renamed to keep it apart from
// another of the same name: the name, a $ and a number (locale$1, formatDistanceLocale$11).
func renamedBinding(s string) bool {
	i := strings.LastIndexByte(s, '$')
	return i > 0 && i < len(s)-1 && isDigits(s[i+1:]) && identifierPath(s[:i])
}

// vlqMappings reports the mappings of a source map (;;AAEM,WAAS,aAAa,CAAC…): base64 VLQ
// groups, a comma or a semicolon at least every 12 bytes.
func vlqMappings(text string) bool {
	seps, other := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == ',' || c == ';':
			seps++
		case !isAlnum(c) && c != '+' && c != '/':
			other++ // the JSON around the mappings ("mappings":"…","names":[…)
		}
	}
	return seps*12 >= len(text) && other*20 <= len(text)
}

// codeText reports minified source code (…JSON.parse(c.body);for(const t of e){…): few
// blanks, but the punctuation of code, one byte in eight, with parentheses, braces or
// brackets and a ; , = or : among them. A credential's text is a word or user:password; a
// credentials file encoded whole (JSON with a client_secret) is decoded and searched by
// decodeAndDetect, which finds the secret in it.
func codeText(text string) bool {
	punct, kinds := 0, 0
	var seen [128]bool
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < 128 && strings.IndexByte("(){}[];,=:.\"", c) >= 0 {
			punct++
			if !seen[c] {
				seen[c] = true
				kinds++
			}
		}
	}
	return punct*8 >= len(text) && kinds >= 4 && (seen['('] && seen[')'] || seen['{'] && seen['}'] || seen['['] && seen[']'])
}

// base64Binary reports a run of base64 that decodes to the bytes of a binary format: a
// WebAssembly module, a font, a lexer's tables, which bundlers inline into JavaScript and
// whose lines the chunking cuts anywhere. Such formats are full of zero bytes spread through
// them (lengths, offsets, padding); a key, a token or compressed data is random, with a zero
// byte in 256, and a token whose format holds zeros holds them in one place (a Dropbox
// token's AAAAAAAAAA, a Twitter bearer token's leading run). The run must decode to 30
// bytes or more with zero bytes in four places or more, one byte in 16 a zero, at one of
// the four alignments it may start at, or to 48 bytes or more of text whose strings each
// end in a zero byte, as a module's data section holds them, with a zero byte or a blank
// every 20 bytes. A run that opens as DER does (MI…: a private key's or a keystore's
// SEQUENCE) or as a Kerberos keytab does (BQI…) is left to the other rules, whatever its
// zeros.
func base64Binary(tok string) bool {
	if len(tok) < 40 || strings.HasPrefix(tok, "MI") || strings.HasPrefix(tok, "BQI") {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; !isAlnum(c) && c != '+' && c != '/' && c != '=' {
			return false
		}
	}
	for k := 0; k < 4; k++ {
		s := strings.TrimRight(tok[k:], "=")
		b, err := base64.RawStdEncoding.DecodeString(s[:len(s)/4*4])
		if err != nil || len(b) < 30 {
			continue
		}
		zeros, runs, text := 0, 0, 0
		for i, c := range b {
			switch {
			case c == 0:
				zeros++
				if i == 0 || b[i-1] != 0 {
					runs++
				}
			case c >= 0x20 && c < 0x7f || c == '\n' || c == '\t':
				text++
			}
		}
		if runs >= 4 && zeros*16 >= len(b) {
			return true
		}
		if len(b) >= 48 && zeros > 0 && zeros+text == len(b) && (zeros+bytes.Count(b, []byte(" ")))*20 >= len(b) {
			return true // a module's data: strings each ended by a zero byte (Page %u: never used\0…)
		}
	}
	return false
}

// base64Word reports a run of base64 that decodes to one word: a tokenizer's vocabulary
// (tiktoken's encoders list every token as base64: IHRyYW5zZm9ybWF0aW9ucw== is
// " transformations"). The word is letters, after the blank a word-opening token has, or
// without one an English word; a secret is not the base64 of a word (a password encoded
// under its name is the keyword rule's, and user:password holds a colon).
func base64Word(tok string) bool {
	if len(tok) > 64 || len(tok)%4 != 0 && strings.HasSuffix(tok, "=") {
		return false
	}
	enc := base64.StdEncoding
	if len(tok)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(tok)
	if err != nil || len(b) < 4 {
		return false
	}
	w := string(b)
	if w[0] == ' ' {
		return len(w) >= 5 && isLetters(w[1:])
	}
	return isLetters(w) && dictWord(w)
}

// lexerTokenList reports a list of token types opening at s[vs] under a name for a token,
// its items on lines of their own (token: [\n "punctuation.accessor", "text", …\n]).
func lexerTokenList(name, s string, vs int) bool {
	if vs >= len(s) || s[vs] != '[' {
		return false
	}
	end := strings.IndexByte(s[vs:min(len(s), vs+400)], ']')
	return end > 0 && lexerTokenWord(name, s[vs:vs+end+1])
}

// regexGroupCell reports a "row" of a regular expression's alternation
// (pushd|pwd|read(array)?|readonly: a grammar's list of builtins): cells with no blank, the
// value a group made optional or repeated.
func regexGroupCell(m string) bool {
	if strings.ContainsAny(m, " \t") {
		return false
	}
	cells := strings.Split(strings.Trim(m, "|"), "|")
	v := cells[len(cells)-1]
	return strings.Contains(v, "(?") || strings.IndexByte(v, '(') > 0 && (strings.HasSuffix(v, ")?") || strings.HasSuffix(v, ")*") || strings.HasSuffix(v, ")+")) ||
		len(v) > 3 && strings.HasPrefix(strings.TrimLeft(v, `\\`), ".") && v[0] == '\\' && isLetters(strings.TrimLeft(v, `\\.`)) // (\.env|credentials|\.netrc|…): a file's name a pattern escapes
}

// nameAlternation reports two cells of what looks like a table row that are names in an
// alternation of a regular expression or a highlighter's keyword list (…|vpopmail_passwd|
// vpopmail_set_user_quota|…, …|Security__OpenProcessToken|Security__OpenThreadToken|…):
// no blank around either cell, as a table's cells have, and the second a name made of two
// or more English words joined by _ or case changes and no digit, as functions are named
// and passwords are not.
func nameAlternation(m string) bool {
	if strings.ContainsAny(m, " \t`") {
		return false
	}
	cells := strings.Split(strings.Trim(m, "|"), "|")
	if len(cells) != 2 || !strings.Contains(cells[1], "_") && cells[1] == strings.ToLower(cells[1]) {
		return false
	}
	words := 0
	for _, p := range nameParts(cells[1]) {
		if dictWord(p) {
			words++
		}
	}
	return words >= 2 && identifierWords(cells[1])
}

// errorCode reports a namespaced error or event code under an upper-case constant
// (CREDENTIAL_MISMATCH: 'auth/custom-token-mismatch', WEAK_PASSWORD: 'auth/weak-password',
// INVALID_API_KEY: 'auth/invalid-api-key'): SDKs keep their error codes in such tables. The
// code is a lower-case namespace, a slash and words joined by '-', each an English word or
// an abbreviation of four letters or fewer (api, mfa, otp); a credential has no such shape.
func errorCode(name, v string) bool {
	if name != strings.ToUpper(name) || !isLetter(name[0]) {
		return false
	}
	v = strings.Trim(v, "\"'`")
	ns, code, ok := strings.Cut(v, "/")
	if !ok || !lowerWord(ns) || len(ns) > 16 || !strings.Contains(code, "-") {
		return false
	}
	for _, w := range strings.Split(code, "-") {
		if !lowerWord(w) || !dictWord(w) && len(w) > 4 {
			return false
		}
	}
	return true
}

// errorStatusWords say a code names an error or a state, not a secret: missing_access_token,
// invalid_token, passwordless_challenge_error.
var errorStatusWords = map[string]bool{"missing": true, "invalid": true, "expired": true, "error": true, "failed": true,
	"required": true, "mismatch": true, "unsupported": true, "denied": true, "revoked": true, "unknown": true,
	"not": true, "no": true, "bad": true, "malformed": true, "unauthorized": true, "forbidden": true, "exception": true,
	"mismatched": true}

// statusCodeValue reports a value of two to four lower-case words joined by underscores, the
// first a word for an error or a state (invalid_fields, mismatched_topology): a code a test
// expects, not a secret.
func statusCodeValue(v string) bool {
	words := strings.Split(strings.Trim(v, "\"'`"), "_")
	if len(words) < 2 || len(words) > 4 || !errorStatusWords[words[0]] {
		return false
	}
	for _, w := range words {
		if !lowerWord(w) {
			return false
		}
	}
	return true
}

// errorMessage reports the message a quoted error code is given beside it
// (new AuthError("missing_access_token", "No access token available")): the code snake-case
// words, one of them a word for an error or a state, the message prose of three words or
// more opening with a capital. A passphrase under a name that is no error's
// (set("password", "Correct Horse Battery Staple")) or a password's is left to the other
// rules. Parsers and SDKs also key their messages by codes of other shapes, as a call's next
// argument or as an object's entry (onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of
// flow sequence pairs need to be on a single line"), "invalid-custom-token": "The custom token
// format is incorrect."): see codeMessage.
func errorMessage(s string, vs int, name, v string) bool {
	if vs < 3 || strings.IndexByte("\"'", s[vs-1]) < 0 || passwordName(name) {
		return false
	}
	k := vs - 2
	for k > 0 && s[k] == ' ' {
		k--
	}
	if k == 0 || s[k-1] != s[vs-1] {
		return false // the code a literal of its own, the message the next argument or its entry
	}
	if s[k] == ':' || s[k] == ',' && (!strings.Contains(name, "_") || name != strings.ToLower(name)) {
		return codeMessage(name, v)
	}
	if s[k] != ',' {
		return false
	}
	status := false
	for _, p := range nameParts(name) {
		status = status || errorStatusWords[p]
	}
	if !status {
		return false
	}
	return codeProse(v, 3)
}

// codeProse reports text of at least n blank-separated words, opening with a capital, more
// than half of them English words.
func codeProse(v string, n int) bool {
	f := strings.Fields(v)
	if len(f) < n || !isUpperByte(v[0]) {
		return false
	}
	words := 0
	for _, w := range f {
		if dictWord(strings.Trim(w, ".,:;()'\"")) {
			words++
		}
	}
	return words*2 > len(f)
}

// codeMessage reports a message under a code of words joined by _ or - in one case
// (DUPLICATE_KEY, invalid-custom-token, BLOCK_AS_IMPLICIT_KEY): prose of five words or more.
// A key or a token a service issues is one random word, never a sentence. A passphrase is
// words too, so a code that says what a credential unlocks (SECRET_KEY, api-key,
// ADMIN_TOKEN) needs a word for an error or a state besides (INVALID_API_KEY), and a
// password's name is never one.
func codeMessage(name, v string) bool {
	if name != strings.ToLower(name) && name != strings.ToUpper(name) || !strings.ContainsAny(name, "_-") {
		return false
	}
	parts := nameParts(name)
	if len(parts) < 2 {
		return false
	}
	status, material := false, false
	for _, p := range parts {
		status = status || errorStatusWords[p]
		material = material || keyMaterialWords[p] || secretWords[p] || glued(p)
	}
	return (status || !material) && codeProse(v, 5)
}

// datedName reports a name versioned by the date it was published (ce-plugins-2026-09-01,
// prompt-caching-2024-07-31, the values of Anthropic's anthropic-beta header; a model's
// claude-3-5-sonnet-20241022): parts of lower-case letters or short numbers joined by -,
// ending in a calendar date written YYYY-MM-DD or YYYYMMDD. A service's key is random
// letters of both cases and digits throughout, never words closed by a date.
func datedName(v string) bool {
	parts := strings.Split(v, "-")
	n := len(parts)
	var y, m, d string
	switch {
	case n >= 4 && len(parts[n-3]) == 4 && len(parts[n-2]) == 2 && len(parts[n-1]) == 2:
		y, m, d, parts = parts[n-3], parts[n-2], parts[n-1], parts[:n-3]
	case n >= 2 && len(parts[n-1]) == 8:
		p := parts[n-1]
		y, m, d, parts = p[:4], p[4:6], p[6:], parts[:n-1]
	default:
		return false
	}
	if !isDigits(y+m+d) || y < "2000" || y > "2099" || m < "01" || m > "12" || d < "01" || d > "31" {
		return false
	}
	letters := false
	for _, p := range parts {
		if p == "" || len(p) > 20 {
			return false
		}
		if isDigits(p) {
			if len(p) > 2 {
				return false
			}
			continue
		}
		for i := 0; i < len(p); i++ {
			if (p[i] < 'a' || p[i] > 'z') && !(len(p) <= 4 && p[i] >= '0' && p[i] <= '9') {
				return false // a short part may mix digits in (context-1m-2025-08-07)
			}
		}
		letters = true
	}
	return letters
}

// comparedQueryName reports a query parameter's shape that is a comparison in minified
// JavaScript (typeof profile&&key===profile, isActive&&stateKey===activeStateKey): the value
// taken after the name's = opens with another =. A URL's value never does; base64 pads at
// its end.
func comparedQueryName(v string) bool {
	return strings.HasPrefix(v, "=")
}

// codeCookiePair reports a cookie pair's name that no cookie can have: RFC 6265 keeps
// separators such as ( ) { } [ ] < > @ , : \ " / ? out of a cookie's name, and JavaScript
// that reads a cookie puts them there (let{cookie:e}=o;if(!e)return{};let{parse:t}=a(…), a
// destructuring of the header, not its value), as it puts blanks around an assignment's =
// (case "cookie": value = getCookie(c)), which a cookie's name holds neither.
func codeCookiePair(name string) bool {
	return strings.ContainsAny(name, "(){}[]<>@,:\\\"/? \t")
}

// fieldCopy reports a connection string's shape that is JavaScript copying a field: the
// value is another object's member of the same name (password=parsedURL.password), or, with
// the name itself a member, the name in camel case (refreshParams.client_secret =
// clientSecret) or a minifier's parameter closing a setter's body before the class's next
// accessor (set password(e){this[u].url.password=e}get username(){…}).
// A password spelled as its own name (Password=password, DB_PASSWORD=dbPassword in a .env
// file) is left to the other rules.
func fieldCopy(m string) bool {
	eq := strings.IndexByte(m, '=')
	if eq < 1 {
		return false
	}
	member := m[0] == '.'
	name := strings.TrimSpace(m[:eq])
	for name != "" && !isWordByte(name[0]) {
		name = name[1:]
	}
	v := strings.TrimLeft(m[eq+1:], " \t")
	if i := strings.IndexAny(v, ",;) \t"); i >= 0 {
		v = v[:i]
	}
	if i := strings.IndexByte(v, '}'); member && i > 0 && i <= 3 && identifierOperand(v[:i]) && oneOfFold(v[i+1:], "get", "set", "static", "async") {
		return true
	}
	if name == "" || !identifierPath(v) {
		return false
	}
	fold := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	if dot := strings.LastIndexByte(v, '.'); dot > 0 {
		return fold(v[dot+1:]) == fold(name)
	}
	return member && strings.Contains(name, "_") && name == strings.ToLower(name) && !strings.Contains(v, "_") && v != strings.ToLower(v) && fold(v) == fold(name)
}
