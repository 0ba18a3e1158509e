package vibe

import (
	"regexp"
	"strings"
	"unicode"
)

// Credentials written into code and build files: the key a token is signed with, passed by
// position to the signing call, and the wrappers code puts around a literal; the keys of
// Android and properties XML, Maven's master password, a docker-config secret. And what code
// writes in a credential's place (a format verb, an interpolation, a variable handed on, a
// repeated filler, an elided display), which is none, and identifiers a token format's
// signature opens.

// ruleSigningKey is a literal key passed by position to what signs, verifies, encrypts or
// decrypts with it: jwt.encode(payload, "k", algorithm="HS256"), Algorithm.HMAC256("k"),
// crypto.createHmac("sha256", "k"), token.SignedString([]byte("k")), AES.new(b"k", mode).
const ruleSigningKey = "signing-key"

// signingKeyCalls are the functions that take a signing or encryption key as a positional
// argument, by the name before their parenthesis, with the argument's position
// (1-based) and what must come right before the name: facts of their APIs. They are looked
// up in the credential-call scan (calls.go), on a name credentialCalls does not hold.
var signingKeyCalls = map[string]struct {
	arg  int
	qual []string
}{
	// PyJWT encode(payload, key)/decode(token, key); ruby-jwt JWT.encode(payload, key) and
	// JWT.decode(token, key); php-jwt JWT::encode($payload, $key) and JWT::decode($jwt, $key);
	// jwt-scala Jwt.encode(claim, key, algo) and Jwt.decode(token, key, algos).
	"encode": {2, []string{"jwt.", "JWT.", "JWT::", "Jwt.", "JwtJson.", "JwtCirce."}},
	"decode": {2, []string{"jwt.", "JWT.", "JWT::", "Jwt.", "JwtJson.", "JwtCirce."}},
	// jsonwebtoken (Node) sign(payload, secret) and verify(token, secret).
	"sign":   {2, []string{"jwt.", "jsonwebtoken."}},
	"verify": {2, []string{"jwt.", "jsonwebtoken."}},
	// java-jwt Algorithm.HMAC256(secret).
	"HMAC256": {1, []string{"Algorithm."}},
	"HMAC384": {1, []string{"Algorithm."}},
	"HMAC512": {1, []string{"Algorithm."}},
	// jjwt signWith(SignatureAlgorithm.HS256, secret) and Keys.hmacShaKeyFor(secret bytes).
	"signWith":      {2, nil},
	"hmacShaKeyFor": {1, nil},
	// golang-jwt (*Token).SignedString(key).
	"SignedString": {1, nil},
	// Node crypto.createHmac(algorithm, key); Python hmac.new(key, msg); PHP hash_hmac(algo,
	// data, key); Ruby OpenSSL::HMAC.hexdigest(digest, key, data).
	"createHmac": {2, nil},
	"New":        {2, []string{"hmac."}}, // Go crypto/hmac New(hash, key)
	"new":        {1, []string{"hmac.", "AES.", "DES3.", "DES.", "Blowfish.", "ChaCha20.", "Salsa20.", "ARC4."}},
	"hash_hmac":  {3, nil},
	"hexdigest":  {2, []string{"HMAC."}},
	"digest":     {2, []string{"HMAC."}},
	// The key an encryption call takes: PyCryptodome AES.new(key, mode) (and the other
	// ciphers' new, above), cryptography's Fernet(key), CryptoJS.AES.encrypt(data, key).
	"Fernet": {1, nil},
	// Express's cookie-parser signs cookies with cookieParser(secret); Flask's
	// itsdangerous URLSafeTimedSerializer(secret_key) and Serializer(secret_key) sign tokens.
	"cookieParser":                    {1, nil},
	"URLSafeTimedSerializer":          {1, nil},
	"URLSafeSerializer":               {1, nil},
	"TimedJSONWebSignatureSerializer": {1, nil},
	// .NET's new SymmetricSecurityKey(Encoding.UTF8.GetBytes(key)) signs JWTs.
	"SymmetricSecurityKey": {1, nil},
	"encrypt":              {2, []string{"AES.", "TripleDES.", "DES.", "Rabbit.", "RC4."}},
	"decrypt":              {2, []string{"AES.", "TripleDES.", "DES.", "Rabbit.", "RC4."}},
}

// charArrayCalls are the Java methods that take a keystore's or a key's password as a
// char array at a fixed position: KeyStore.load(in, pw), getKey(alias, pw),
// setKeyEntry(alias, key, pw, chain), KeyManagerFactory.init(ks, pw). Their names are common
// words, so only a literal made a char array there ("x".toCharArray()) is taken.
var charArrayCalls = map[string]int{"load": 2, "getKey": 2, "setKeyEntry": 3, "init": 2, "store": 2}

// findCharArrayPassword masks the literal at argument n of the call whose arguments open at
// text[i:] when it is made a char array.
func findCharArrayPassword(text string, i, n int, f *findings) {
	if vs, ve, ok := literalArgAt(text, i, n); ok && strings.HasPrefix(text[ve+1:], ".toCharArray()") {
		f.addSpan(ruleCredentialCall, vs, ve)
	}
}

// literalWrappers are what code puts around a string literal to hand it on as bytes or as
// an option: []byte("k") in Go, Some("k") in Rust, Buffer.from("k") in Node,
// Encoding.UTF8.GetBytes("k") in .NET.
var literalWrappers = []string{"[]byte(", "Some(", "Buffer.from(", "Encoding.UTF8.GetBytes(", "Encoding.ASCII.GetBytes(",
	"Encoding.Default.GetBytes("}

// unwrapLiteral narrows the argument s[start:end] to what a wrapper of literalWrappers
// holds, when the argument is one call of it.
func unwrapLiteral(s string, start, end int) (int, int) {
	b := start
	for b < end && strings.IndexByte(" \t\r\n", s[b]) >= 0 {
		b++
	}
	e := end
	for e > b && strings.IndexByte(" \t\r\n", s[e-1]) >= 0 {
		e--
	}
	if e-b < 4 || s[e-1] != ')' {
		return start, end
	}
	for _, w := range literalWrappers {
		if strings.HasPrefix(s[b:e], w) {
			return b + len(w), e - 1
		}
	}
	return start, end
}

// wrappedLiteral returns the contents of the string literal a value opens with a wrapper of
// literalWrappers (jwtKey := []byte("k"), secret = Buffer.from('k')): s[vs:ve] is the
// wrapper, the literal right after it.
func wrappedLiteral(s string, vs, ve int) (int, int, bool) {
	if ve >= len(s) || s[ve] != '"' && s[ve] != '\'' && s[ve] != '`' {
		return 0, 0, false
	}
	w := s[vs:ve]
	closer := byte(')')
	ok := false
	for _, p := range literalWrappers {
		ok = ok || w == p
	}
	if w == "{" || w == "[]string{" {
		ok, closer = true, '}' // url.Values{"client_secret": {"…"}}: Go's one-element slice of it
	}
	if !ok {
		return 0, 0, false
	}
	e := callQuoteEnd(s, ve, min(len(s), ve+402))
	if e < 0 || e+1 >= len(s) || s[e+1] != closer {
		return 0, 0, false
	}
	return ve + 1, e, e > ve+1
}

// phpCode reports what PHP writes where a value goes: a string joined by . to a variable or
// a call (.$connection['password'], '.csrf_token().'), a class's name by ::class.
func phpCode(v string) bool {
	switch {
	case strings.Contains(v, "::class"):
		return true
	case len(v) > 2 && v[0] == '.' && (v[1] == '$' || isLetter(v[1]) && strings.Contains(v, "(")):
		return true
	case len(v) > 4 && (v[0] == '\'' || v[0] == '"') && v[1] == '.' && v[len(v)-2] == '.' && v[len(v)-1] == v[0]:
		return true
	}
	return false
}

// constantTuple matches a tuple of names of code: (ALGORITHMS.A128GCM, ALGORITHMS.A128KW).
var constantTuple = regexp.MustCompile(`^\((?:[A-Za-z_][\w.]*, ?)+[A-Za-z_][\w.]*\)?,?$`)

// rubyExpr matches what Ruby writes where a value goes: a class's constructor (Class.new), a
// method called with a symbol (options.delete :password), a hash read by a symbol
// (pg_config[:password]), a lambda (-> do, -> {), an instance variable's method (@verifier.x).
var rubyExpr = regexp.MustCompile(`^(?:[A-Z]\w*(?:::[A-Z]\w*)*\.new\b|[a-z_]\w*(?:\.\w+)+ :\w+$|[a-z_]\w*\[:\w+\]|->(?: |$|\{)|@[a-z_]\w*\.)`)

// rustType matches what opens a type of Rust (or of TypeScript, Java, C#) as a parameter's or
// a field's annotation: a generic in camel case and its <, maybe borrowed or behind a path
// (Token<'a>, &'a Secret<…>, std::sync::OnceLock<, React.FC<), a raw pointer (*const gchar),
// or a closure's parameters (|file|, move |x|).
var rustType = regexp.MustCompile(`^(?:&(?:'[a-z_]+ )?(?:mut )?)?(?:[a-z_][a-z0-9_]*::|[A-Za-z_]\w*\.)*[A-Z][A-Za-z0-9]*<|^\*(?:const|mut) [A-Za-z_]|^(?:move )?\|[\w, :&]*\|`)

// formatVerb is a value that is all a format verb or a positional slot: %s, %v, %w (Go's
// wrapped error: "failed to get token: %w"), Python's %r and %a, %1$s, {0}, an SQL bind
// (access_token = ?).
var formatVerb = regexp.MustCompile(`^(?:%[-+# 0]?\d*\$?[svdqxXpwTtcobefgEGraiu]|\{\d{1,2}\}|\?)$`)

// versionRange is a package manager's version or range (the value of a dependency named
// jsonwebtoken, passport-jwt or keytar in package.json): ^9.0.2, ~1.2, >=2.0.0, 1.2.3-beta.1,
// 1.x; Go's pseudo-versions (v0.4.1-0.20200324110947-a37a7636d23e); an exact version has three
// parts (four dotted numbers are an address).
var versionRange = regexp.MustCompile(`^(?:(?:[~^]|[<>]=?\s?)v?\d{1,4}(?:\.(?:\d{1,6}|x|\*)){0,3}|v?\d{1,4}\.\d{1,6}\.\d{1,6}|\d{1,4}\.(?:\d{1,6}\.)?[x*])(?:[-+][A-Za-z][0-9A-Za-z.-]{0,40}|-(?:0\.)?\d{14}-[0-9a-f]{12}(?:\+incompatible)?)?$`)

// versionRanges reports a range npm writes as several: alternatives joined by || and
// comparators joined by blanks (^5.0.0 || ^6.0.2 || ^7.0.0, >=1.2.0 <2.0.0), each a
// versionRange with a dot.
func versionRanges(v string) bool {
	n := 0
	for _, f := range strings.Fields(v) {
		if f == "||" {
			continue
		}
		if strings.IndexByte(f, '.') < 0 || !versionRange.MatchString(f) {
			return false
		}
		n++
	}
	return n >= 2
}

// optionWords are the values of options named for credentials that say how they are sent,
// not what they are: fetch's credentials: 'same-origin' | 'include' | 'omit'.
var optionWords = map[string]bool{"same-origin": true, "include": true, "omit": true}

// templateReference reports a value that is what code or a template writes in the place of
// a credential: a format verb (https://%s:%s@host, password=%s), a positional slot ({0}), a
// version range ("jsonwebtoken": "^9.0.2"), how a credential is sent (credentials: 'omit'),
// an interpolated expression ({get_token()}, {self.password}, {cfg["pw"]}), a display cut
// short with words in the gap (ab12...omitted for brevity...yz89) or a pair repeated
// (ghp_abababab…): the value comes later, is elsewhere, or is filler.
func templateReference(v string) bool {
	switch c := v[0]; {
	case c == '%' || c == '?':
		if formatVerb.MatchString(v) {
			return true
		}
		// %s${DEPENDABOT_TOKEN}: a format's verb and the variable it is filled from, as a
		// shell's printf 'x-access-token:%s' "${…}" reads once joined (templateLiteral below).
	case c == '{':
		if formatVerb.MatchString(v) {
			return true
		}
		if e := strings.TrimRight(v, ".…"); len(e) >= 3 && e[len(e)-1] == '}' && interpolatedExpression(e[1:len(e)-1]) {
			return true // {token[:8]}...: a piece of it shown, interpolated
		}
	case c == 's' || c == 'i' || c == 'o':
		if len(v) <= 11 && optionWords[v] {
			return true
		}
	case c == 'n' || c == 'j':
		if rest, ok := cutPrefixAny(v, "npm:", "jsr:"); ok && rest != "" {
			// minipass: "npm:^7.0.3", "@aws-sdk/credential-provider-node": "npm:/@aws-sdk/…": a
			// package manager's specifier, a range or a package's name
			if versionRange.MatchString(rest) || strings.TrimLeft(rest, "/@") != "" && identifierWords(strings.NewReplacer("/", "", "@", "", "-", "", ".", "", "^", "", "~", "").Replace(strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return 'a'
				}
				return r
			}, rest))) {
				return true
			}
		}
	case isDigitByte(c) || c == '~' || c == '^' || c == '<' || c == '>' || c == 'v' && len(v) > 1 && isDigitByte(v[1]):
		if len(v) <= 64 && strings.IndexByte(v, '.') > 0 && versionRange.MatchString(v) {
			return true
		}
		if i := strings.IndexByte(v, '('); i > 0 && strings.HasSuffix(v, ")") && strings.IndexByte(v[:i], '.') > 0 && versionRange.MatchString(v[:i]) {
			return true // 7.25.3(@babel/core@7.25.2): pnpm's lockfile, a version and the peers it was resolved with
		}
		if len(v) <= 96 && strings.ContainsAny(v, "| ") && versionRanges(v) {
			return true // ^5.0.0 || ^6.0.2 || ^7.0.0, >=1.2.0 <2.0.0: npm's ranges, alternatives or bounds
		}
	}
	// One pass for the marks the rest look for: ${, an ellipsis, blanks, a bracket.
	var interp, ellipsis, bracket bool
	blanks := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '$':
			interp = interp || i+1 < len(v) && v[i+1] == '{'
		case '.':
			ellipsis = ellipsis || i+2 < len(v) && v[i+1] == '.' && v[i+2] == '.'
		case 0xE2: // the first byte of …
			ellipsis = ellipsis || strings.HasPrefix(v[i:], "…")
		case ' ':
			blanks++
		case '[':
			bracket = true
		}
	}
	if interp && templateLiteral(v) {
		return true
	}
	if ellipsis && blanks >= 2 {
		return true // 4AEA6u7J...The full token has been omitted for brevity...MzY2OA==: a display cut short
	}
	return bracket && regexFragment(v) || len(v) >= 16 && repeatedFiller(v)
}

// templateLiteral reports a template string whose parts are interpolations, the text
// between them a few characters of punctuation and words (`!anon-game:${key}:${rand()}`,
// "${user}:${pass}"): what it holds is computed.
func templateLiteral(v string) bool {
	if !strings.Contains(v, "${") {
		return false
	}
	outside := v[:0]
	for r := v; ; {
		i := strings.Index(r, "${")
		if i < 0 {
			outside += r
			break
		}
		outside += r[:i]
		j := strings.IndexByte(r[i:], '}')
		if j < 0 || !interpolatedExpression(r[i+2:i+j]) && !identifierWords(r[i+2:i+j]) {
			return false
		}
		r = r[i+j+1:]
	}
	if len(outside) <= 16 && !hasAlnum(outside) {
		return true // `)$))${extglobStar}`: a pattern's punctuation around what it computes
	}
	return len(outside) <= 16 && !hasDigitAndLetter(outside) && !strings.ContainsAny(outside, "{}()[]<>$")
}

// regexFragment reports a value that is a piece of a regular expression: a character class
// with a range and a quantifier after it ([a-zA-Z0-9\.\-]{1,128}), what a scanner's or a
// validator's pattern holds where a credential goes.
func regexFragment(v string) bool {
	i := strings.IndexByte(v, '[')
	if i < 0 {
		return false
	}
	j := strings.IndexByte(v[i:], ']')
	if j < 0 || i+j+1 >= len(v) || strings.IndexByte("{+*?", v[i+j+1]) < 0 {
		return false
	}
	class := v[i : i+j]
	return strings.Contains(class, "a-z") || strings.Contains(class, "A-Z") || strings.Contains(class, "0-9")
}

// interpolatedExpression reports the inside of an f-string's or a format string's braces
// when it reads as code: names, attributes, calls, indexes and quoted keys, one of them a
// word of code (an underscore, a dot or a call) rather than a random run.
func interpolatedExpression(e string) bool {
	e = strings.TrimSpace(e)
	if e == "" || !(isLetter(e[0]) || e[0] == '_') {
		return false
	}
	code, brackets := false, 0
	for i := 0; i < len(e); i++ {
		c := e[i]
		switch {
		case isWordByte(c):
		case c == '[':
			code, brackets = true, brackets+1
		case c == ']':
			brackets--
		case c == ':' && brackets > 0: // {token[:8]}: a slice
		case strings.IndexByte("._()'\" ", c) >= 0:
			code = true
		case c == '!' || c == ':': // {x!r}, {x:>10}: a conversion or a format spec
			return code || identifierWords(e[:i])
		default:
			return false
		}
	}
	return code || strings.IndexByte(e, '_') >= 0 || !hasDigitAndLetter(e)
}

// repeatedFiller reports a value whose body (after a vendor prefix ending in _ or -) is one
// pair of characters repeated to sixteen characters or more (ghp_abab…, 0101…): written by
// hand to fill a token's shape, never generated. A run of one character stays a secret to
// mask (a scanner's test tokens are written so, and masking one costs a viewer nothing).
func repeatedFiller(v string) bool {
	body := v
	if i := strings.LastIndexAny(v, "_-"); i >= 0 && i < len(v)-1 && i <= 12 {
		body = v[i+1:]
	}
	if len(body) < 16 || body[0] == body[1] {
		return false
	}
	for i := 2; i < len(body); i++ {
		if body[i] != body[i%2] {
			return false
		}
	}
	return true
}

// Rule ids of the credential shapes of code and build files added here.
const (
	ruleKeyElement = "key-element" // <string name="maps_api_key">…</string>, <entry key="x.key">…</entry>
)

func init() {
	extraRules = append(extraRules,
		extraRule{
			// An element whose name or key attribute names a key, holding a generated value
			// as its text: Android's strings.xml (<string name="hockeyapp_key"
			// translatable="false">…</string>), Java properties XML, .NET settings. Only a
			// generated value: a preference key's value is a word (<string
			// name="pref_key_theme">theme</string>).
			id:       ruleKeyElement,
			re:       regexp.MustCompile(`<[\w:.-]+\s+(?:[\w:-]+\s*=\s*["'][^"'<>\n]*["']\s+)*(?:key|name)\s*=\s*["'][\w.:-]*?(?:[a-z0-9][_.-]?(?:key|Key)|_KEY)["'][^<>\n]{0,120}>([^<\n]{8,400})</`),
			group:    1,
			keywords: []string{`key"`, `key'`},
			anchors:  wordAnchors(`key"`, `Key"`, `KEY"`, `key'`, `Key'`),
			check: func(v string) bool {
				v = strings.TrimSpace(v)
				return !strings.ContainsAny(v, " \t") && generatedValue(v, false) && !placeholderValue(v)
			},
		},
		extraRule{
			// Maven's settings-security.xml: the master password the others are encrypted
			// with (<master>{…}</master>, or in plain text), the element first in the file.
			id:        ruleXMLSecret,
			re:        regexp.MustCompile(`<settingsSecurity>[^<]{0,200}(?:<!--[^>]{0,400}-->[^<]{0,200})*<master>\s*([^<\s][^<\n]{3,400}?)\s*</master>`),
			group:     1,
			literal:   "<settingsSecurity>",
			keywords:  []string{"</master>"},
			multiline: true,
		},
		extraRule{
			// A Kubernetes secret of type dockerconfigjson or dockercfg: the value of the key
			// is the registry login, base64-encoded, also without the manifest's kind line.
			id:       ruleK8sSecret,
			re:       regexp.MustCompile(`\.docker(?:configjson|cfg)["']?\s*:\s*["']?([A-Za-z0-9+/_-]{8,}={0,2})`),
			group:    1,
			literal:  ".docker",
			keywords: []string{".dockerconfigjson", ".dockercfg"},
		},
		extraRule{
			// A bearer token written with a colon after the scheme inside a literal
			// ("Bearer: 2lkj…"), as code sets a header's value.
			id:       ruleBearer,
			re:       regexp.MustCompile(`["'\x60](?:Bearer|BEARER|bearer):[ \t]+([^\s"'\x60,;<>]{8,400})["'\x60]`),
			group:    1,
			literal:  "earer:",
			keywords: []string{"bearer:"},
			check:    bearerCredential,
		},
	)
}

// storageWords name what an application keeps under a storage key (localStorage, a
// settings store): the key then names a place, not a credential.
var storageWords = map[string]bool{"storage": true, "settings": true, "setting": true, "prefs": true, "pref": true,
	"preferences": true, "progress": true, "volume": true, "muted": true, "mute": true, "state": true, "theme": true,
	"domains": true, "points": true, "history": true, "layout": true, "geom": true, "draft": true, "drafts": true,
	"filter": true, "filters": true, "scroll": true, "position": true, "locale": true, "lang": true, "tab": true,
	"view": true, "currency": true, "player": true, "chat": true, "dm": true, "consent": true, "cookie": true,
	"banner": true, "onboarding": true, "tour": true, "dismissed": true, "seen": true, "recent": true, "favorites": true,
	"timestamp": true, "report": true, "origin": true, "lookup": true, "sort": true, "partition": true,
	"translation": true, "i18n": true}

// storageKey reports a name for a storage key (PLAYER_VOLUME_KEY, CHAT_SETTINGS_KEY) whose
// value is the words it keeps the entry under ('openvibe_player_volume'), not a key.
func storageKey(name, v string) bool {
	parts := nameParts(name)
	if len(parts) < 2 || parts[len(parts)-1] != "key" {
		return false
	}
	stored := false
	for _, p := range parts[:len(parts)-1] {
		stored = stored || storageWords[p]
	}
	if !stored || len(v) < 3 || hasDigitAndLetter(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && strings.IndexByte("_-.:/@", v[i]) < 0 {
			return false
		}
	}
	return true
}

// formatChecks vet the matches of a few formatRules (by expression) whose signature also
// opens identifiers: Artifactory's AP[0-9A-F]… opens PascalCase names (APDosLogConf,
// APCInjector), whose body reads as words where a key's changes class every character or two.
var formatChecks = map[string]func(string) bool{
	`\bAP[0-9A-F][a-zA-Z0-9]{8,}`: func(v string) bool { return meanRunLength(v[2:]) < 2.6 },
}

// codeArgumentReference reports an unquoted value that is code, not a credential: a
// variable handed on in a call's arguments (Client(password=pw), boto3.client(
// aws_secret_access_key=ok_secret, region_name=…)), a name then the comma or parenthesis
// that ends the argument; a pointer to or through a variable (Secret: &result,
// aiAPIKey = *flagAiAPIKey); a Go composite literal or type assertion (Secrets:
// []types.Secret{result}, passwords = []string{…}, [...]secretPattern{, res.(secretResult)).
// A name with digits among its letters may be a password and is not one.
func codeArgumentReference(v string) bool {
	if len(v) < 2 {
		return false
	}
	if strings.ContainsAny(v, "\"'`") {
		return false // []byte("k"), []string{"a", "k"}: a literal inside is what it holds
	}
	if strings.HasPrefix(v, "[]") || strings.HasPrefix(v, "[...]") || strings.HasPrefix(v, "map[") {
		return len(v) > 3 && (isLetter(v[strings.IndexByte(v, ']')+1]) || v[strings.IndexByte(v, ']')+1] == '*')
	}
	if i := strings.Index(v, ".("); i > 0 && identifierPath(v[:i]) && strings.HasSuffix(strings.TrimRight(v, ",;"), ")") {
		return true
	}
	name := strings.TrimRight(v, ",;")
	if name == v && v[len(v)-1] != ')' && v[0] != '&' && v[0] != '*' {
		return false
	}
	name = strings.TrimSuffix(name, ")")
	name = strings.TrimLeft(name, "&*")
	return identifierPath(name)
}

// typeAliasLine reports a line that opens a TypeScript type alias (export declare type X =).
func typeAliasLine(head string) bool {
	head = strings.TrimLeft(head, " \t")
	head = strings.TrimPrefix(head, "export ")
	head = strings.TrimPrefix(head, "declare ")
	return strings.HasPrefix(head, "type ") && strings.HasSuffix(strings.TrimRight(head, " "), "=")
}

// codeValue reports an unquoted value s[vs:ve] that reads as code in its text, not a
// credential: codeArgumentReference's shapes; a name, maybe dotted, the text going on with
// a comma, a semicolon or a parenthesis (RS_TOKEN: session.token,); a JavaScript expression
// (process.env.X || ”, c.has_token ? A : B, !!row.token, ++counter, new Set([, await f(),
// a call x.y(…), a small number); an arrow function's parameter or body (LS_KEY =
// (id) => …, filter(token => token.is_active)).
func codeValue(s string, vs, ve int) bool {
	v := s[vs:ve]
	if v == "" {
		return false
	}
	if ve < len(s) && s[ve] == '<' && isUpperByte(v[0]) && typeNameChars(v) && typeArguments.MatchString(s[ve:min(len(s), ve+120)]) {
		return true // client: ReactiveOAuth2AccessTokenResponseClient<JwtBearerGrantRequest> = …: a generic type
	}
	if strings.Contains(v, ").") && closedCallChainAt(v) {
		return true // filter_by(access_token=token).first(: a variable, the call closed and another made
	}
	if h, ok := strings.CutSuffix(v, " switch"); ok && identifierPath(h) || strings.HasPrefix(s[ve:], " switch") && identifierPath(v) && (ve+7 == len(s) || strings.IndexByte(" \n\r{", s[ve+7]) >= 0) {
		return true // x = context.EndpointType switch {…}: C#'s switch expression
	}
	if h, ok := strings.CutSuffix(v, " ?"); ok && strings.IndexByte(h, '.') > 0 && identifierPath(h) ||
		identifierPath(v) && strings.IndexByte(v, '.') > 0 && (strings.HasPrefix(s[ve:], " ?\n") || strings.HasPrefix(s[ve:], " ?\r\n") || strings.HasPrefix(s[ve:], " ? ")) {
		return true // x = context.ExtractBackchannelAccessToken ? …: a conditional on a member
	}
	if strings.HasPrefix(v, "// ") || strings.HasPrefix(v, "/* ") || (v[0] == '{' || v[0] == '[' || v[0] == '(') && commentAfterOpening(v) {
		return true // token: // Google ID Token, emailAndPassword: { // [!code highlight]: no value on the line, a comment
	}
	if strings.HasPrefix(v, "{**") || v == "[lambda" || v == "lambda" || strings.HasPrefix(v, "[lambda ") || strings.HasPrefix(v, "lambda ") {
		return true // user_data = {**data, **identity_data}, pre_token=[lambda r: …]: Python's unpacking, a lambda
	}
	if strings.HasPrefix(v, "process.env.") || strings.HasPrefix(v, "/^(") || strings.HasPrefix(v, "/(?") {
		return true // process.env.${providerUpper}_CLIENT_SECRET!, /^(?:Bearer|DPoP)[ \t]+(\S+)$/i: an environment's read, a regexp literal
	}
	if q := strings.Index(v, "?."); q > 0 && identifierPath(v[:q]) && q+2 < len(v) && (isLetter(v[q+2]) || v[q+2] == '_') {
		return true // tokenEndpointAuth?.method === "client_secret_post": an optional chain
	}
	if t, ok := strings.CutPrefix(v, "readonly "); ok && tsTypeName(strings.TrimRight(t, "[];,")) {
		return true // credentials: readonly SCIMManagedCredential[]: a TypeScript type
	}
	if i := strings.IndexByte(v, '!'); i > 0 && i+1 < len(v) && (v[i+1] == '[' || v[i+1] == '(') && rustIdent(v[:i]) {
		return true // private_key = vec![0u8; 32], format!(…): a Rust macro's call
	}
	if t := strings.TrimRight(v, ";,"); t == "default!" || t == "null!" || t == "default" {
		return true // public string Token { get; set; } = default!;: C#'s default, its null warning silenced
	}
	if c := strings.IndexByte(v, ' '); v[0] == '(' && (castValue(v) || c > 0 && c+1 < len(v) && castValue(v[:c]) && (isLetter(v[c+1]) || v[c+1] == '_')) {
		return true // key.X5tS256 = (string?) keys[index][…]: a cast
	}
	if strings.Contains(v, "})") && closedLiteralArgument.MatchString(v) {
		return true // PerformNativeLogoutBody{SessionToken: sessionToken}).Execute(: a variable, the literal and the call closed after it
	}
	if strings.Contains(v, "!.") && nonNullMember.MatchString(v) {
		return true // createToken = adapter!.createVerificationToken?.({: TypeScript's non-null assertion, then a member
	}
	if chainedOnNextLine(s, ve) && identifierPathOK(v) {
		return true // customizer = DefaultOAuth2TokenCustomizers⏎ .jwtCustomizer(): a call chain, one call a line
	}
	if codeArgumentReference(v) || jsExpression(v) || pyExpression(v) || codeShapedValue(s, vs, ve) || macroValue(s, vs) || perlValue(s, vs, ve) || minifiedCode(v) || wordOperatorExpression(v) || strings.IndexByte(v, '(') > 0 && callLike.MatchString(v) || operatorPrefixedCode(v) || strings.IndexByte(v, '{') > 0 && compositeLiteral.MatchString(v) {
		return true
	}
	if sp := strings.IndexByte(v, ' '); sp > 0 && (strings.HasPrefix(v[sp:], " if ") || strings.HasPrefix(v[sp:], " unless ")) && pyIdentifier(v[:sp]) && strings.ToLower(v[:sp]) == v[:sp] {
		return true // auth.credentials = credentials_data if credentials_data: Ruby's modifier after a variable
	}
	if rustAnnotation.MatchString(v) {
		return true // password: &'s str, secret_key: u32, token: impl AsRef<[u8]>: Rust's types
	}
	if (v[0] == '&' || v[0] == '_' || strings.HasSuffix(v, "{}")) && goAddressOf.MatchString(v) && meanRunLength(strings.TrimLeft(strings.TrimRight(v, "{},;)"), "&_")) >= 2 {
		return true // r.oAuth2Client = &oAuth2Client, x := _IntrospectedOAuth2Token{}: Go's expressions
	}
	if v[0] == '{' && bracedVariable.MatchString(v) {
		return true // url.Values{"logout_token": {token}}: a one-element literal of a variable
	}
	if ve < len(s) && (s[ve] == '}' || s[ve] == ')') && lowerCamelVariable(v) {
		return true // {Name: "token", …, Value: idToken}: a variable, the literal closed after it
	}
	if strings.HasPrefix(v, "this.#") && len(v) > 6 && (isLetter(v[6]) || v[6] == '_') {
		return true // paramKey = this.#match[0][i]?.[1]: a JavaScript class's private field
	}
	if i := strings.Index(v, ", "); i > 0 && strings.IndexByte(v[:i], '.') > 0 && identifierPath(v[:i]) {
		return true // access_token: tok.accessToken, refresh_token: …: an object literal's members
	}
	if v[0] == '?' && (len(v) == 1 || v[1] == ',' || v[1] == ' ' || v[1] == ')') {
		return true // access_token = ?, refresh_token = …: an SQL bind
	}
	if (v == "new" || v == "await" || v == "typeof") && ve+1 < len(s) && s[ve] == ' ' && (isLetter(s[ve+1]) || s[ve+1] == '_') {
		return true // TTS_SECRET_KEYS = new Set([
	}
	if strings.HasPrefix(v, "{") && tomlInlineTable.MatchString(s[vs:min(len(s), vs+40)]) {
		return true // jsonwebtoken = { version = "10", features = […] }: a Cargo dependency
	}
	if strings.HasSuffix(v, "<") && identifierPath(v[:len(v)-1]) && tsGenericArgs.MatchString(s[ve:min(len(s), ve+80)]) {
		return true // const [authState, setAuthState] = useState<AuthState>(: a generic's call
	}
	if strings.HasSuffix(v, "::") && strings.HasPrefix(s[ve:], "<") {
		return true // token_data = decode::<Claims>(…): Rust's turbofish
	}
	if strings.HasPrefix(v, "[...") || strings.HasPrefix(v, "os.environ[") || len(v) > 2 && v[0] == '(' && (callLike.MatchString(v[1:]) || constantTuple.MatchString(v)) {
		return true // [...entry.matchAll(…)], os.environ[mapping['token']], (int.from_bytes(H(0), 'little') ^ 1): expressions
	}
	if phpCode(v) {
		return true // '--password='.$connection['password'], [\Illuminate\…\Manager::class: PHP
	}
	if strings.ContainsAny(v, ".:-@") && rubyExpr.MatchString(v) || strings.HasPrefix(v, "/^") && strings.Contains(v, "/.test(") {
		return true // Class.new {, options.delete :password, pg_config[:password].to_s, -> do, @verifier.generate(: Ruby; /^…$/.test(: a pattern tested
	}
	if strings.ContainsAny(v, "<*|") && rustType.MatchString(v) || strings.Contains(v, "::<") && identifierPath(v[:strings.Index(v, "::<")]) {
		return true // token: Secret<&str>, password: *const gchar, let pass = |file| {, args.get_one::<String>(…): Rust
	}
	if subscriptedCall.MatchString(v) {
		return true // anyio.create_memory_object_stream[EventMessage](: a generic's call, its arguments on the next lines
	}
	if optionalChain(strings.TrimRight(v, ",;")) || strings.HasPrefix(v, "!!") && optionalChain(strings.Trim(v, "!,;\"]")) {
		return true // accessToken = settings?.auth?.accessToken?.trim?.(), !!config.headers?.["Authorization"]: optional chaining
	}
	if (strings.HasPrefix(v, "{} as ") || strings.HasPrefix(v, "[] as ")) && tsTypeName(strings.TrimRight(v[6:], ",;)")) {
		return true // this.secretsCache = {} as Secrets: an empty object cast to a type
	}
	if v == "unique" && strings.HasPrefix(s[ve:], " symbol") || strings.HasPrefix(v, "{ [") {
		return true // API_KEY: unique symbol, key_ids: { [key: string]: string }: TypeScript's types
	}
	if ls := strings.LastIndexByte(s[:vs], '\n') + 1; typeAliasLine(s[ls:vs]) {
		return true // type Token = XOAuth2Token: a type's other name
	}
	if fn := strings.TrimPrefix(strings.TrimPrefix(s[vs:], "async "), "function"); len(fn) < len(s)-vs && strings.HasPrefix(strings.TrimLeft(fn, " *"), "(") {
		return true // options.onToken = function (token) { …: a function, written out
	}
	if ve < len(s) && strings.IndexByte(",;)", s[ve]) >= 0 && (identifierPath(v) || camelWords(v)) {
		return true // secret: Base32SecretKey, (a parameter's type): a name of words, its digits among them
	}
	if strings.HasSuffix(v, ".") && ve < len(s) && s[ve] == '<' && identifierPath(v[:len(v)-1]) {
		return true // alice.<span class="hljs-title">generateKeys</span>(): highlighted code's member
	}
	if strings.Contains(v, "->") && identifierPath(strings.ReplaceAll(strings.TrimRight(v, ",;)"), "->", ".")) {
		return true // pass = pass->next;: a member through a pointer
	}
	after := strings.TrimLeft(s[ve:min(len(s), ve+8)], " \t")
	before := strings.TrimRight(s[max(0, vs-8):vs], " \t")
	return strings.HasPrefix(after, "=>") || strings.HasSuffix(before, "=>") && (isLetter(v[0]) || v[0] == '_')
}

// tsGenericArgs matches a TypeScript generic's type arguments and the call after them
// (AuthState>(, string | null>(, File[]>().
var tsGenericArgs = regexp.MustCompile(`^[A-Za-z_][\w.]*(?:\[\])?(?:\s*\|\s*[A-Za-z_][\w.]*(?:\[\])?)*>\(`)

// tomlInlineTable matches the opening of a TOML inline table of a dependency's settings.
var tomlInlineTable = regexp.MustCompile(`^\{\s*(?:version|path|git|workspace|features|package|optional|default-features)\s*=`)

// subscriptedCall matches a call of a generic function or class subscripted with its types
// (create_memory_object_stream[EventMessage](, Queue[int]()).
var subscriptedCall = regexp.MustCompile(`^[A-Za-z_][\w.]*\[[\w., |]+\]\(\)?[,;]?$`)

// optionalChain reports a JavaScript member path or call through ?. (settings?.auth?.token,
// handler?.getApiKey(x), config.headers?.["Authorization"): code, never a value written out.
func optionalChain(v string) bool {
	i := strings.Index(v, "?.")
	if i <= 0 || !identifierPath(strings.TrimPrefix(v[:i], "$")) {
		return false
	}
	for _, c := range v[i:] {
		if !(c == '?' || c == '.' || c == '_' || c == '$' || c == '(' || c == ')' || c == '[' || c == ']' || c == '"' || c == '\'' || c == ',' || c == ' ' ||
			c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// jsExpression reports a value holding an operator of code around names: a logical or
// nullish operator, a conditional, a negation or an increment of a name, a constructor, an
// await, a call of a name (crypto.randomBytes(32)…), a small negative number.
func jsExpression(v string) bool {
	for _, op := range []string{" || ", " && ", " ?? ", "=>"} {
		if strings.Contains(v, op) {
			return true
		}
	}
	if strings.Contains(v, " ? ") {
		return true // a conditional: x ? a : b
	}
	if n := strings.TrimLeft(v, "!"); len(n) < len(v) && len(n) > 1 && n[0] == '(' && (isLetter(n[1]) || n[1] == '_' || n[1] == '$') {
		return true // !!(await getStoredOAuthToken(name)): a negated expression in parentheses
	}
	if len(v) >= 2 && (v[0] == '!' || v[:2] == "++" || v[:2] == "--") {
		// !!row.token, !integration.enabled, ++counter: the operand a name of code (a
		// password may open with ! too: !Passw0rd)
		if n := strings.TrimRight(strings.TrimLeft(v, "!+-"), ",;)"); identifierPath(strings.TrimPrefix(n, "$")) {
			return true // $pass = !$pass: a Perl or PHP variable, after its sigil
		}
	}
	for _, kw := range []string{"new ", "await ", "typeof "} {
		if strings.HasPrefix(v, kw) && len(v) > len(kw) && (isLetter(v[len(kw)]) || v[len(kw)] == '_') {
			return true
		}
	}
	if i := strings.IndexByte(v, '('); i > 0 && (identifierPath(v[:i]) || codeName(v[:i]) || strings.Contains(v[:i], "->") && identifierPath(strings.ReplaceAll(v[:i], "->", "."))) {
		return true // Resolver->findImplPass(PI): a C++ or PHP method through a pointer
	}
	if shortCallOfName(v) {
		return true // encrypted_key: b64u(encryptedKey), digest = sha3(payload): a codec's call
	}
	return len(v) >= 2 && len(v) <= 4 && v[0] == '-' && isDigits(v[1:]) // yytoken = -1
}

// pyOperators join the operands of a Python conditional or boolean expression.
var pyOperators = strings.NewReplacer(" if ", "\x00", " else ", "\x00", " and ", "\x00", " or ", "\x00", " not ", "\x00")

// pyExpression reports a Python conditional or boolean expression whose every operand is a
// name of code, maybe dotted, a call of one, None, True, False or a number, and one at
// least a member or a call (Name.Variable if value.istitle() else Keyword.Type,
// self._in_args and ARGUMENT or SYNTAX). A passphrase of words (salt and pepper) has none.
func pyExpression(v string) bool {
	v = strings.TrimRight(v, " \t,;:")
	ops := pyOperators.Replace(v)
	if ops == v {
		return false
	}
	code := false // an operand no word of a passphrase is: a member or a call
	for _, o := range strings.Split(ops, "\x00") {
		o = strings.TrimPrefix(strings.TrimSpace(o), "not ")
		if i := strings.IndexByte(o, '('); i > 0 && strings.HasSuffix(o, ")") {
			o, code = o[:i], true // value.istitle(): a call
		}
		if !identifierPath(o) && !isDigits(o) {
			return false
		}
		code = code || strings.IndexByte(o, '.') > 0
	}
	return code
}

// codeName reports a name of code whose digits belong to its words (urlBase64ToUint8Array,
// sha256Hex): camel-case words, their runs three characters long or more on average.
func codeName(name string) bool {
	if n := strings.TrimLeft(name, "_"); n == "" || !isLetter(n[0]) || len(name)-len(n) > 2 {
		return false // _sqlite3VdbeSetP4KeyInfo, __ccgo_ptr: C's reserved and internal names
	}
	for i := 0; i < len(name); i++ {
		if !isWordByte(name[i]) && name[i] != '.' {
			return false
		}
	}
	return meanRunLength(name) >= 3
}

// operatorPrefixedCode reports an unquoted value that opens with a unary operator of code
// or a pointer conversion and goes on with a call, an index or a member
// (!isEmpty(object), &parser.tokens[i], -int32(1), *(*uintptr)(unsafe.Pointer(p)),
// (*Tsqlite3)(unsafe.Pointer(db)).FxAuth): an expression, not a literal. A password that
// opens with such a character goes on with no call, index or member after a name.
func operatorPrefixedCode(v string) bool {
	rest := strings.TrimLeft(v, "!&*-^~")
	if len(v)-len(rest) > 3 || rest == "" {
		return false
	}
	if strings.HasPrefix(rest, "(*") {
		// a conversion to a pointer type, then what it converts: (*T)(x), *(*T)(x)
		i := 2
		for i < len(rest) && (isWordByte(rest[i]) || rest[i] == '.') {
			i++
		}
		return i > 2 && strings.HasPrefix(rest[i:], ")(")
	}
	if len(rest) == len(v) {
		return false
	}
	if callLike.MatchString(rest) {
		return true
	}
	i := 0
	for i < len(rest) && (isWordByte(rest[i]) || rest[i] == '.') {
		i++
	}
	return i > 0 && i < len(rest) && rest[i] == '[' && qualifiedOperand(rest[:i]) && !hasDigitAndLetter(rest[:i])
}

// codeIdentifierAt reports a run at text[start:] that is a name of code made of words and
// the digits they hold (urlBase64ToUint8Array, MakeFileBase64Sha256Func) where code names
// one: called or declared (with a blank before the parenthesis or not), a struct's typedef
// name after its closing brace, or after func, function, def, class, type or a comment's
// opening.
func codeIdentifierAt(text string, start int) bool {
	end := start
	for end < len(text) && isWordByte(text[end]) && end-start < 128 {
		end++
	}
	if end-start < 12 {
		return false
	}
	if end < len(text) && text[end] == '(' && wordPieces(text[start:end]) >= 3 && strings.IndexByte(text[start:end], '.') < 0 {
		return true // _sqlite3VdbeSetP4KeyInfo(: a called name of three words, its digits short runs between them
	}
	if end < len(text) && text[end] == '(' && text[start] == '_' && camelHumps(text[start:end]) >= 3 {
		return true // _sqlite3DecOrHexToI64(: a C function's name as a transpiler writes it, called or declared
	}
	if !codeName(text[start:end]) {
		return false
	}
	if end < len(text) && text[end] == '(' {
		return true
	}
	// Set apart from its parenthesis (glGetQueryObjecti64v (GLuint id, …), as GNU and GL
	// headers write declarations) or a struct's typedef name (} xXF86DRIGetDrawableInfoReq;),
	// a name holds two English words, where a random run's letters seldom make one.
	if (strings.HasPrefix(text[end:], " (") || strings.HasPrefix(text[end:], ";") && strings.HasSuffix(text[:start], "} ")) && wordPieces(text[start:end]) >= 2 {
		return true
	}
	head := text[max(0, start-10):start]
	for _, kw := range []string{"func ", "function ", "def ", "class ", "type ", "// ", "# "} {
		if strings.HasSuffix(head, kw) {
			return true
		}
	}
	return false
}

// camelHumps counts the capitals that follow a small letter or a digit in a name (Dec, Or,
// Hex, To, I in _sqlite3DecOrHexToI64).
func camelHumps(tok string) int {
	n := 0
	for i := 1; i < len(tok); i++ {
		if isUpperByte(tok[i]) && (tok[i-1] >= 'a' && tok[i-1] <= 'z' || isDigitByte(tok[i-1])) {
			n++
		}
	}
	return n
}

// shortCallOfName reports a call of a short name that may hold digits (b64u, sha3, utf8,
// hex2) on one name of code, the value ending with the call: how code names its encoding
// and hash helpers, which identifierPath leaves out for their digits.
func shortCallOfName(v string) bool {
	v = strings.TrimRight(v, ",;")
	i := strings.IndexByte(v, '(')
	if i < 2 || i > 10 || !isLetter(v[0]) || countDigits(v[:i]) > 3 || !strings.HasSuffix(v, ")") {
		return false
	}
	for k := 0; k < i; k++ {
		if !isLetter(v[k]) && !isDigitByte(v[k]) {
			return false
		}
	}
	arg := v[i+1 : len(v)-1]
	return identifierPath(arg) || camelWords(arg)
}

// identifierPath reports a name of code, maybe dotted (cfg.db.password), with no digits
// among its letters.
func identifierPath(name string) bool {
	if name == "" || !isLetter(name[0]) && name[0] != '_' || hasDigitAndLetter(name) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isWordByte(name[i]) && name[i] != '.' {
			return false
		}
	}
	return true
}

// pemHeaderAlone reports a private-key armour line with no key after it inside a literal
// ("-----BEGIN RSA PRIVATE KEY-----" as a pattern or a prefix to look for): the closing
// quote comes right after the header and the literal ends there.
func pemHeaderAlone(match string) bool {
	i := strings.Index(match[len("-----BEGIN"):], "-----")
	if i < 0 {
		return false
	}
	rest := match[len("-----BEGIN")+i+len("-----"):]
	for strings.HasPrefix(rest, "\\n") || strings.HasPrefix(rest, "\\r") {
		rest = rest[2:]
	}
	if rest == "" || strings.IndexByte("\"'`", rest[0]) < 0 {
		return false
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	return rest == "" || strings.IndexByte("),;]}:\n", rest[0]) >= 0
}

// pemPlaceholderBody reports a private key block whose body stands in for a key, as
// documentation writes one: nothing but an ellipsis, a slot in angle brackets or braces, a
// run of x, or words that say what goes there (-----BEGIN PRIVATE KEY-----\n...\n-----END
// PRIVATE KEY-----, <your private key here>, REPLACE_WITH_LOCAL_DEVELOPMENT_KEY).
func pemPlaceholderBody(match string) bool {
	i := strings.Index(match[len("-----BEGIN"):], "-----")
	if i < 0 {
		return false
	}
	body := match[len("-----BEGIN")+i+len("-----"):]
	if e := strings.Index(body, "-----END"); e >= 0 {
		body = body[:e]
	}
	body = strings.NewReplacer(`\r`, " ", `\n`, " ", "\r", " ", "\n", " ").Replace(body)
	body = strings.TrimSpace(body)
	if len(body) > 200 {
		return false
	}
	if strings.Trim(body, ".…") == "" {
		return true
	}
	if (body[0] == '<' && body[len(body)-1] == '>') || (body[0] == '{' && body[len(body)-1] == '}') || (body[0] == '[' && body[len(body)-1] == ']') ||
		(body[0] == '(' && body[len(body)-1] == ')') {
		return true
	}
	if strings.Trim(strings.ToLower(body), "x. ") == "" {
		return true
	}
	words := strings.Fields(strings.ToLower(strings.ReplaceAll(body, "_", " "))) // REPLACE_WITH_LOCAL_DEVELOPMENT_KEY
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if !isLetters(w) {
			return false
		}
	}
	for _, w := range words {
		if oneOfFold(w, "your", "here", "insert", "paste", "contents", "content", "replace", "omitted", "redacted", "truncated", "snip") {
			return true
		}
	}
	return false
}

// pemPlaceholderBlocks reports a run of private key blocks, each a placeholder's
// (pemPlaceholderBody): a match that reaches from one block's BEGIN to a later one's END.
func pemPlaceholderBlocks(match string) bool {
	parts := strings.Split(match, "-----BEGIN")
	if len(parts) < 2 || strings.TrimSpace(parts[0]) != "" {
		return false
	}
	for _, p := range parts[1:] {
		if !pemPlaceholderBody("-----BEGIN" + p) {
			return false
		}
	}
	return true
}

// chainedOnNextLine reports a value whose line ends where it does and whose next line opens
// with a member's dot, as a builder's chain is written one call a line (Java, Kotlin, C#,
// TypeScript) and the line opens with a call: the value is the chain's receiver, code.
func chainedOnNextLine(s string, ve int) bool {
	i := ve
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	if i == len(s) || s[i] != '\n' {
		return false
	}
	for i++; i < len(s) && (s[i] == ' ' || s[i] == '\t'); i++ {
	}
	return i+1 < len(s) && s[i] == '.' && memberCall.MatchString(s[i:min(len(s), i+80)])
}

// typeArguments matches a generic type's arguments in Pascal case, closed (<JwtBearerGrantRequest>,
// <String, List<Token>>, <?>).
var typeArguments = regexp.MustCompile(`^<(?:[A-Z?][\w.?]*(?:<[\w.?, ]*>)?(?:\[\])?(?:, ?)?)+>`)

// closedCallChain matches a name of code, the calls it is an argument of closed and a member
// read after them (token).first(, cancellationToken)).MatchedCount).
var closedCallChain = regexp.MustCompile(`^([A-Za-z_][A-Za-z_.]*)\)+\.[A-Za-z_]\w*`)

// closedLiteralArgument matches a name of code that a composite literal and the call it is
// passed to close after (sessionToken}), token})).
var closedLiteralArgument = regexp.MustCompile(`^[A-Za-z_]\w*\}\)`)

// nonNullMember matches a TypeScript name asserted non-null and a member read after it
// (adapter!.createVerificationToken, session!.user).
var nonNullMember = regexp.MustCompile(`^[A-Za-z_$][\w$]*!\.[A-Za-z_$]`)

// memberCall matches a call of a member, maybe generic, at a line's start (.jwtCustomizer(,
// .<T>build(, .builder<T>().
var memberCall = regexp.MustCompile(`^\.(?:<[\w, ?.]*>)?[A-Za-z_]\w*(?:<[\w, ?.]*>)?\(`)

// javaCast matches a cast to a type in Java or C# ((String), (KeyParameter), (byte[]),
// (string?)): what a value after it is converted to, code.
var javaCast = regexp.MustCompile(`^\((?:[A-Z][\w.]*(?:<[\w, ?.]*>)?|int|long|char|byte|short|float|double|boolean|bool|string|object|decimal|uint|ulong)\??(?:\[\])*\)$`)

// castValue reports a cast (javaCast) whose type is written as types are (typeNameChars):
// (Zx8kq2pLm9) in parentheses is a password.
func castValue(v string) bool {
	if !javaCast.MatchString(v) {
		return false
	}
	t := strings.TrimRight(v[1:len(v)-1], "[]?")
	if i := strings.IndexByte(t, '<'); i > 0 {
		t = t[:i]
	}
	return typeNameChars(t[strings.LastIndexByte(t, '.')+1:])
}

// sqlNamed reports an SQL statement kept under a name that says so (SAVE_CREDENTIAL_RECORD_SQL
// = "INSERT INTO " + …, DEF_CHANGE_PASSWORD_SQL = "update users set password = ? …",
// tokenQuery = "SELECT …"): a query, not its data.
func sqlNamed(name, v string) bool {
	v = strings.TrimLeft(v, "\"'`")
	sp := strings.IndexByte(v, ' ')
	if sp < 0 {
		sp = len(v) // "SELECT " + COLUMN_NAMES: the value read to its blank
	}
	switch strings.ToLower(v[:sp]) {
	case "select", "insert", "update", "delete", "create", "alter", "drop", "merge", "upsert", "with", "replace":
	default:
		return false
	}
	parts := nameParts(name)
	switch strings.ToLower(parts[len(parts)-1]) {
	case "sql", "query", "statement", "stmt", "ddl", "dml":
		return true
	}
	return false
}

// closedCallChainAt reports closedCallChain's match on a name of code.
func closedCallChainAt(v string) bool {
	m := closedCallChain.FindStringSubmatch(v)
	return m != nil && identifierPath(m[1])
}

// rustIdent reports a Rust macro's name: lower-case letters, digits and underscores.
func rustIdent(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(isLowerByte(c) || c == '_' || i > 0 && isDigitByte(c)) {
			return false
		}
	}
	return v != ""
}

// commentAfterOpening reports an object's, a list's or a call's opening followed by a comment
// on its line ({ // [!code highlight], ({ // …).
func commentAfterOpening(v string) bool {
	t := strings.TrimLeft(v, "{[( \t")
	return len(t) < len(v) && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "# "))
}

// bracedVariable matches a variable alone between braces, then the end of the literal around
// it or of the value: Go's []string{token} in a url.Values, JavaScript's shorthand {token}.
var bracedVariable = regexp.MustCompile(`^\{[a-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\}(?:[},)]|$)`)

// rustAnnotation matches a Rust type written where a value would go: a reference with a
// lifetime (&'s str, &'a [u8]), a primitive (u32, usize, f64), an impl or dyn trait.
var rustAnnotation = regexp.MustCompile(`^(?:&'[a-z_]+ (?:mut )?(?:str|\[u8\]|[A-Za-z_][\w:]*)|(?:u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize|f32|f64)|(?:impl|dyn) [A-Z][\w:]*(?:<.*>)?)[,;)]?$`)

// goAddressOf matches Go's address of a variable, a field or an element (&oAuth2Client,
// &gks2.Keys[0]), and a composite literal of a type with no fields (_IntrospectedOAuth2Token{});
// codeValue takes it when its characters run in classes as a name's do (not &Zq8rT2vLm9xKpW4a).
var goAddressOf = regexp.MustCompile(`^(?:&[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\[\w+\])?|&?_?[A-Za-z]\w*(?:\.[A-Z]\w*)?\{\})[,;)]?$`)

// lowerCamelVariable reports a name of code in lower camel case made of pronounceable words
// (idToken, accessToken): a variable, where a generated value of letters alone would read as
// noise.
func lowerCamelVariable(v string) bool {
	if len(v) < 4 || len(v) > 40 || v[0] < 'a' || v[0] > 'z' || !strings.ContainsFunc(v, unicode.IsUpper) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && (v[i] < '0' || v[i] > '9') {
			return false
		}
	}
	return !unpronounceable(strings.ToLower(v)) && !randomValue(v)
}
