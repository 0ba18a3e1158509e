package vibe

import "strings"

// ruleCredentialCall is a password passed by position to what takes an account and its
// password: new DirectoryEntry(path, "user", "secret"), new NetworkCredential("user",
// "secret"), DriverManager.getConnection(url, "user", "secret"), mysqli_connect(host, user,
// "secret", db), ftplib.FTP(host, user, "secret").
const ruleCredentialCall = "credential-call"

// credentialCalls are the constructors and functions that take a password as a positional
// argument, by the name before their parenthesis, each with the argument's position
// (1-based) and, for names that are common words, what must come right before the name:
// facts of their APIs.
var credentialCalls = map[string]struct {
	arg  int
	qual []string
}{
	"DirectoryEntry":                      {3, nil},                              // .NET System.DirectoryServices(path, user, password)
	"NetworkCredential":                   {2, nil},                              // .NET System.Net(user, password[, domain])
	"PasswordAuthentication":              {2, nil},                              // Java java.net(user, password.toCharArray())
	"UsernamePasswordCredentials":         {2, nil},                              // Apache HttpClient(user, password)
	"UsernamePasswordAuthenticationToken": {2, nil},                              // Spring Security(principal, credentials)
	"BasicAWSCredentials":                 {2, nil},                              // AWS SDK for Java(access key, secret key)
	"create":                              {2, []string{"AwsBasicCredentials."}}, // AWS SDK for Java 2
	"NewStaticCredentialsProvider":        {2, nil},                              // AWS SDK for Go v2(id, secret, session token)
	"NewStaticCredentials":                {2, nil},                              // AWS SDK for Go(id, secret, session token)
	"getConnection":                       {3, nil},                              // JDBC DriverManager(url, user, password)
	"mysqli_connect":                      {3, nil},                              // PHP(host, user, password, db)
	"mysql_connect":                       {3, nil},                              // PHP(host, user, password)
	"mysqli":                              {3, []string{"new "}},                 // PHP(host, user, password, db)
	"PDO":                                 {3, []string{"new "}},                 // PHP(dsn, user, password)
	"ldap_bind":                           {3, nil},                              // PHP(link, dn, password)
	"simple_bind_s":                       {2, nil},                              // python-ldap(dn, password)
	"simple_bind":                         {2, nil},
	"FTP":                                 {3, []string{"ftplib."}}, // Python(host, user, passwd)
	"FTP_TLS":                             {3, nil},
	"connect":                             {3, []string{"pymysql.", "MySQLdb."}}, // Python(host, user, password, db)
	"BasicAuth":                           {2, []string{"aiohttp."}},             // Python(login, password)
	"HttpNtlmAuth":                        {2, nil},                              // requests-ntlm(user, password)
	"HTTPDigestAuth":                      {2, nil},                              // requests(user, password)
	"basic":                               {2, []string{"Credentials."}},         // OkHttp(user, password)
	"SetBasicAuth":                        {2, nil},                              // Go net/http (*Request).SetBasicAuth(user, password)
	"setBasicAuth":                        {2, nil},                              // Spring HttpHeaders, Vert.x, … .setBasicAuth(user, password)
	"withBasicAuth":                       {2, nil},                              // Laravel Http::withBasicAuth(user, password)
	"basicAuthentication":                 {2, nil},                              // Spring RestTemplateBuilder(user, password)
	"BasicAuthenticationInterceptor":      {2, nil},                              // Spring(user, password)
	"Password":                            {1, []string{"ssh."}},                 // golang.org/x/crypto/ssh Password(secret)
	"HTTPBasicAuth":                       {2, nil},                              // requests(user, password)
	"basic_auth":                          {2, []string{"."}},                    // reqwest .basic_auth(user, Some(password))
	"login":                               {2, []string{"."}},                    // smtplib, imaplib, ftplib .login(user, password)
	"PBEKeySpec":                          {1, nil},                              // Java javax.crypto.spec(password.toCharArray(), salt, …)
	"PlainAuth":                           {3, []string{"smtp."}},                // Go net/smtp PlainAuth(identity, user, password, host)
	"CRAMMD5Auth":                         {2, []string{"smtp."}},                // Go net/smtp CRAMMD5Auth(user, secret)
	"create_superuser":                    {3, nil},                              // Django(username, email, password)
	"create_user":                         {3, nil},
}

// formFillMethods are the calls end-to-end tests type a value into a form field with:
// Cypress .type, Playwright .fill/.type/.pressSequentially, Selenium .send_keys/.sendKeys,
// WebdriverIO .setValue.
var formFillMethods = map[string]bool{"type": true, "fill": true, "send_keys": true, "sendKeys": true, "setValue": true,
	"pressSequentially": true}

// findCredentialCalls masks the password argument of the calls above when it is a string
// literal (not a variable, a call or a placeholder), with the arguments over several lines
// too, and what an end-to-end test types into a field its selector names for a secret
// (findFormFill). One scan over the opening parentheses: the name before each is looked up,
// and only then are the arguments read, up to the closing parenthesis, quotes and brackets
// respected.
func findCredentialCalls(text string, f *findings) {
	for from := 0; ; {
		i := strings.IndexByte(text[from:], '(')
		if i < 0 {
			return
		}
		i += from
		from = i + 1
		e := i
		for e > 0 && (text[e-1] == ' ' || text[e-1] == '\t') && i-e < 4 {
			e--
		}
		b := e
		for b > 0 && isWordByte(text[b-1]) && e-b < 40 {
			b--
		}
		if b == e {
			continue
		}
		name := text[b:e]
		if formFillMethods[name] && b > 0 && text[b-1] == '.' {
			findFormFill(text, b-1, i, f)
			continue
		}
		if basicPairEncoders[name] || name == "from" && strings.HasSuffix(text[:b], "Buffer.") && base64After(text, i) {
			if vs, ve, ok := literalArgAt(text, i+1, 1); ok {
				if ps, ok := basicPairPassword(text[vs:ve]); ok {
					f.addSpan(ruleCredentialCall, vs+ps, ve)
				}
			}
			continue
		}
		if hexDecoder(text, b, i, name) {
			if vs, ve, ok := literalArgAt(text, i+1, 1); ok && keyInHex(text[vs:ve]) && secretAssignee(text, b) {
				f.addSpan(ruleCredentialCall, vs, ve)
			}
			continue
		}
		if name == "Sprintf" || name == "sprintf" || name == "format" && strings.HasSuffix(text[:b], "String.") {
			if n, ok := dsnPasswordVerb(text, i+1); ok {
				if vs, ve, ok := literalArgAt(text, i+1, n); ok {
					f.addSpan(ruleCredentialCall, vs, ve) // fmt.Sprintf("%s:%s@tcp(db)/app", "root", "…")
				}
			}
			continue
		}
		if clientConstructor(text, b, name) {
			if vs, ve, ok := literalArgAt(text, i+1, 1); ok && randomValue(text[vs:ve]) && !strings.Contains(text[vs:ve], "://") {
				f.addSpan(ruleCredentialCall, vs, ve) // openai.NewClient("…"), Client::new("…"): an API client made with its key
			}
			continue
		}
		rule := ruleCredentialCall
		c, ok := credentialCalls[name]
		if !ok {
			if n, ok := charArrayCalls[name]; ok && b > 0 && text[b-1] == '.' {
				findCharArrayPassword(text, i+1, n, f)
				continue
			}
			if c, ok = signingKeyCalls[name]; !ok {
				continue
			}
			rule = ruleSigningKey
		}
		if c.qual != nil {
			q := false
			for _, p := range c.qual {
				q = q || strings.HasSuffix(text[:b], p)
			}
			if !q {
				continue
			}
		}
		if vs, ve, ok := literalArgAt(text, i+1, c.arg); ok {
			f.addSpan(rule, vs, ve)
		}
	}
}

// literalArgAt returns the span of the contents of argument n (1-based) of the argument list
// opening at s[i:], when that argument is a string literal (maybe followed by a method call:
// "x".toCharArray()) that is no placeholder.
func literalArgAt(s string, i, n int) (int, int, bool) {
	arg, start := 1, i
	depth := 0
	limit := min(len(s), i+800)
	for k := i; k < limit; k++ {
		c := s[k]
		switch {
		case c == '"' || c == '\'' || c == '`':
			e := callQuoteEnd(s, k, limit)
			if e < 0 {
				return 0, 0, false
			}
			k = e
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case c == ',' && depth == 0 || c == ')' && depth == 0:
			if arg == n {
				return literalSpan(s, start, k)
			}
			if c == ')' {
				return 0, 0, false
			}
			arg++
			start = k + 1
		}
	}
	return 0, 0, false
}

// callQuoteEnd returns the index of the quote closing the one at s[i], backslash escapes
// skipped, or -1 when the line (or, for a backtick, the limit) ends first.
func callQuoteEnd(s string, i, limit int) int {
	q := s[i]
	for k := i + 1; k < limit; k++ {
		switch s[k] {
		case '\\':
			k++
		case q:
			return k
		case '\n':
			if q != '`' {
				return -1
			}
		}
	}
	return -1
}

// literalSpan returns the contents of the string literal that s[start:end] (an argument) is,
// after blanks and an @, r, b, u or L prefix, and before a method call on it.
func literalSpan(s string, start, end int) (int, int, bool) {
	start, end = unwrapLiteral(s, start, end) // []byte("k"), Some("k")
	for start < end && strings.IndexByte(" \t\r\n", s[start]) >= 0 {
		start++
	}
	if start < end && strings.IndexByte("@rbuL", s[start]) >= 0 && start+1 < end && (s[start+1] == '"' || s[start+1] == '\'') {
		start++
	}
	if start >= end || s[start] != '"' && s[start] != '\'' && s[start] != '`' {
		return 0, 0, false
	}
	e := callQuoteEnd(s, start, end)
	if e < 0 {
		return 0, 0, false
	}
	rest := strings.TrimSpace(s[e+1 : end])
	if rest != "" && !(rest[0] == '.' && strings.HasSuffix(rest, ")")) {
		return 0, 0, false // "a" + b, "x" if y: not the literal alone ("x".getBytes(UTF_8) is)
	}
	v := s[start+1 : e]
	if len(v) < 3 || placeholderValue(v) || strings.ContainsAny(v, " \t") && !hasDigitAndLetter(v) {
		return 0, 0, false
	}
	return start + 1, e, true
}

// findFormFill masks what an end-to-end test types into a field its selector names for a
// secret, for the method call whose dot is at text[dot] and parenthesis at text[open]:
// cy.get('#password').type('x'), page.fill('input[name="password"]', 'x'),
// getByLabel('Password').fill('x'), find_element(By.ID, "password").send_keys("x").
func findFormFill(text string, dot, open int, f *findings) {
	if vs, ve, ok := literalArgAt(text, open+1, 2); ok {
		// page.fill(selector, value): the selector is the first argument.
		if ss, se, ok := literalArgAt(text, open+1, 1); ok && secretSelector(strings.ToLower(text[ss:se])) {
			f.addSpan(ruleFormFill, vs, ve)
		}
		return
	}
	ls := strings.LastIndexByte(text[:dot], '\n') + 1
	before := strings.ToLower(text[max(ls, dot-160):dot])
	if sc := strings.LastIndexByte(before, ';'); sc >= 0 {
		before = before[sc+1:] // the statement the call is in
	}
	if vs, ve, ok := literalArgAt(text, open+1, 1); ok && secretSelector(before) {
		f.addSpan(ruleFormFill, vs, ve)
	}
}

// ruleFormFill is a value an end-to-end test types into a password field.
const ruleFormFill = "form-fill"

// secretSelector reports a selector or locator (lower case) naming a secret's field, not a
// field about one ("Token name", #password-hint: the word after it is a notSecretWords one).
func secretSelector(s string) bool {
	for _, w := range []string{"password", "passwd", "passphrase", "pwd", "secret", "token", "apikey", "api-key", "api_key"} {
		for from := 0; ; {
			i := strings.Index(s[from:], w)
			if i < 0 {
				break
			}
			j := from + i + len(w)
			from = j
			if j < len(s) && (s[j] == ' ' || s[j] == '-' || s[j] == '_') {
				j++
			}
			k := j
			for k < len(s) && isLetter(s[k]) {
				k++
			}
			if !notSecretWords[s[j:k]] {
				return true
			}
		}
	}
	return false
}

// basicPairEncoders are the calls that encode a literal in base64, as code builds HTTP Basic
// credentials from "user:password": Python's base64.b64encode(b"…"), JavaScript's btoa("…")
// and Buffer.from("…"), PHP's base64_encode("…"), Ruby's Base64.strict_encode64("…"), Java's
// Base64.getEncoder().encodeToString("…".getBytes()), Go's base64.StdEncoding.EncodeToString([]byte("…")).
var basicPairEncoders = map[string]bool{"b64encode": true, "urlsafe_b64encode": true, "standard_b64encode": true, "btoa": true,
	"base64_encode": true, "encode64": true, "strict_encode64": true, "urlsafe_encode64": true, "encodeToString": true,
	"EncodeToString": true, "encodeBase64": true, "encodeBase64String": true}

// basicPairPassword returns where the password of a literal user:password pair opens: one
// colon, an account of name characters before it, 4+ characters with no blank after it,
// neither the words (user:password) nor a template ({user}:{password}, %s:%s).
func basicPairPassword(v string) (int, bool) {
	c := strings.IndexByte(v, ':')
	if c < 1 || c > 64 || strings.IndexByte(v[c+1:], ':') >= 0 || len(v)-c-1 < 4 || strings.ContainsAny(v, " \t{}%$<>") {
		return 0, false
	}
	for i := 0; i < c; i++ {
		if !isNameByte(v[i]) && v[i] != '@' && v[i] != '+' {
			return 0, false
		}
	}
	p := v[c+1:]
	if accountPlaceholder(v) || placeholderValue(p) || metaWords[strings.ToLower(p)] || strings.HasPrefix(p, "//") {
		return 0, false
	}
	return c + 1, true
}

// base64After reports a Buffer.from call, its parenthesis at text[i], whose literal the code
// turns into base64 at once: Buffer.from("…").toString("base64").
func base64After(text string, i int) bool {
	e := strings.IndexByte(text[i:min(len(text), i+200)], ')')
	if e < 0 {
		return false
	}
	rest := text[i+e+1:]
	return strings.HasPrefix(rest, ".toString('base64')") || strings.HasPrefix(rest, `.toString("base64")`)
}

// hexDecoder reports a call, its name text[b:e] and its parenthesis at text[i], that turns
// a hex literal into the bytes of a key: Go's hex.DecodeString, Python's bytes.fromhex and
// binascii.unhexlify, Node's Buffer.from(…, 'hex'), PHP's hex2bin, Apache Commons'
// Hex.decodeHex, JAXB's DatatypeConverter.parseHexBinary.
func hexDecoder(text string, b, i int, name string) bool {
	switch name {
	case "DecodeString":
		return strings.HasSuffix(text[:b], "hex.")
	case "fromhex", "unhexlify", "hex2bin", "decodeHex", "parseHexBinary":
		return true
	case "from":
		if !strings.HasSuffix(text[:b], "Buffer.") {
			return false
		}
		e := strings.IndexByte(text[i:min(len(text), i+300)], ')')
		return e > 0 && (strings.HasSuffix(text[i:i+e], ", 'hex'") || strings.HasSuffix(text[i:i+e], `, "hex"`))
	}
	return false
}

// keyInHex reports a literal of 32 or more hex digits, an even count, digits and letters
// mixed: the size of a key (AES-128 and up) written in hex.
func keyInHex(v string) bool {
	return len(v) >= 32 && len(v)%2 == 0 && len(v) <= 256 && isHex(v) && hasDigitAndLetter(v) && !placeholderValue(v)
}

// secretAssignee reports a statement, its text up to b on b's line, that assigns to a name
// saying key or secret (secretData, _ := …, const secretKey = createSecretKey(…), aes_key =
// …), and none saying digest (expectedHash, sha256sum, checksum).
func secretAssignee(text string, b int) bool {
	ls := strings.LastIndexByte(text[:b], '\n') + 1
	secret := false
	for _, id := range strings.FieldsFunc(text[ls:b], func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		for _, p := range nameParts(id) {
			if digestParts[p] {
				return false
			}
		}
		secret = secret || nameHasSecretWord(id) || keyLikeName(id)
	}
	return secret
}

// digestParts are the words of names for what hex also spells and is no key: a digest, a
// nonce, an IV, a salt, a test's expected value, a message.
var digestParts = map[string]bool{"hash": true, "digest": true, "checksum": true, "sha1": true, "sha256": true, "sha512": true,
	"md5": true, "fingerprint": true, "nonce": true, "iv": true, "salt": true, "expected": true, "want": true, "ciphertext": true,
	"plaintext": true, "msg": true, "message": true, "input": true, "public": true, "pub": true}

// findStubbedSecrets masks the literal a test double returns for a getter named for a
// secret: RSpec's receive(:token).and_return('…') and receive(:token) { '…' }, Mockito's
// when(cfg.getApiKey()).thenReturn("…"). The getter's name says what the literal is.
func findStubbedSecrets(text string, f *findings) {
	for _, opener := range []string{"receive(:", "when("} {
		for from := 0; ; {
			i := strings.Index(text[from:], opener)
			if i < 0 {
				break
			}
			i += from
			from = i + len(opener)
			ns := i + len(opener)
			var name string
			var rest int
			if opener == "receive(:" {
				ne := ns
				for ne < len(text) && isWordByte(text[ne]) && ne-ns < 60 {
					ne++
				}
				if ne >= len(text) || text[ne] != ')' {
					continue
				}
				name, rest = text[ns:ne], ne+1
			} else {
				// when(x.getPassword()): the getter is the last member before "())".
				e := strings.Index(text[ns:min(len(text), ns+200)], "())")
				if e < 0 {
					continue
				}
				call := text[ns : ns+e]
				if d := strings.LastIndexByte(call, '.'); d >= 0 {
					call = call[d+1:]
				}
				if !strings.HasPrefix(call, "get") || !cIdentifier(call) {
					continue
				}
				name, rest = call[3:], ns+e+3
			}
			if !nameHasSecretWord(name) {
				continue
			}
			k := skipBlanks(text, rest, 2)
			switch {
			case strings.HasPrefix(text[k:], ".and_return("):
				k += len(".and_return(")
			case strings.HasPrefix(text[k:], ".thenReturn("):
				k += len(".thenReturn(")
			case strings.HasPrefix(text[k:], "{") && opener == "receive(:":
				k = skipBlanks(text, k+1, 2)
			default:
				continue
			}
			if k >= len(text) || text[k] != '"' && text[k] != '\'' {
				continue
			}
			e := strings.IndexByte(text[k+1:min(len(text), k+402)], text[k])
			if e < 0 {
				continue
			}
			vs, ve := k+1, k+1+e
			if keepKeyword(name, text[vs:ve], true) && !wordsNoSecret(text, vs, ve, name, true) {
				f.addSpan(ruleKeyword, vs, ve)
			}
		}
	}
}

// clientConstructor reports a call that makes an API client, whose first argument, when it is
// a generated literal, is the key or the token it authenticates with: Go's NewClient (openai,
// stripe, resty…), a Rust Client::new, new SomethingClient(…) elsewhere.
func clientConstructor(text string, b int, name string) bool {
	switch {
	case name == "NewClient":
		return true
	case name == "new":
		return strings.HasSuffix(text[:b], "Client::")
	case strings.HasSuffix(name, "Client") && len(name) > 6 && isUpperByte(name[0]):
		return strings.HasSuffix(text[:b], "new ")
	}
	return false
}

// dsnPasswordVerb returns the position (1-based, the format first) of the argument that fills
// a connection string's password when the format opening the argument list at s[i:] is a
// literal holding user:password@ as two verbs (%s:%s@, %v:%v@).
func dsnPasswordVerb(s string, i int) (int, bool) {
	vs, ve, ok := literalArgAt(s, i, 1)
	if !ok {
		return 0, false
	}
	format := s[vs:ve]
	at := -1
	for _, p := range []string{"%s:%s@", "%v:%v@"} {
		if k := strings.Index(format, p); k >= 0 {
			at = k + 3 // the password's verb
			break
		}
	}
	if at < 0 {
		return 0, false
	}
	verbs := 0
	for k := 0; k < at; k++ {
		if format[k] == '%' {
			if k+1 < len(format) && format[k+1] == '%' {
				k++
				continue
			}
			verbs++
		}
	}
	return verbs + 2, true
}
