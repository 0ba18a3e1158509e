package vibe

import "strings"

// What code assigns under a credential's name when it holds none: a machine integer, an
// expression of names and numbers, an index or a slice, a collection, a chained assignment,
// another constant, a regular expression. Each is judged on the value the keyword rule
// found and the rest of its line, never on the whole text.

// codeShapedValue reports an unquoted value s[vs:ve] that is one of the shapes above.
func codeShapedValue(s string, vs, ve int) bool {
	v := strings.TrimRight(s[vs:ve], ",; ")
	if v == "" || !codeContext(s, vs, ve) {
		return false
	}
	if machineInteger(v) || indexExpression(v) || arrayType(v) || len(v) <= 2 && (isLetter(v[0]) || v[0] == '_') && identifierOperand(v) && statementEnd(s, vs+len(v)) {
		return true // FILTER_PASS = 0x2, key = line[0:tabIndex], [256]bool{, t.token[1] = t1 (a password has three characters or more)
	}
	if regexLiteral(v, s[ve:lineEndAt(s, ve)]) {
		return true // UNEXPECTED_TOKEN = /^Unexpected token/i
	}
	if strings.IndexByte(v, '*') > 0 && codeOperand(v) || upperConstant(v) && strings.HasSuffix(s[max(0, vs-3):vs], "= ") {
		return true // token = 1*tchar, TOKEN_EXECUTE = STANDARD_RIGHTS_EXECUTE
	}
	rest := s[vs:lineEndAt(s, vs)]
	if i := strings.Index(v, "; "); i > 0 && (len(v[:i]) <= 2 && identifierOperand(v[:i]) || cNumber(v[:i])) {
		return true // token.start = p; token.len = n;: a statement ends after a short name
	}
	if signedOrSuffixed(v) && cNumber(v) || rest[0] == '(' && cExpression(statementCode(rest)) || rest[0] == '{' && zeroInitializer(statementCode(rest)) {
		return true // _S_token_unknown = -1u, GNUTLS_PKCS11_OBJ_FLAG_COMPARE_KEY = (1<<13), .secret = { 0 },
	}
	return operatorExpression(rest) || collectionLiteral(rest) || chainedAssignment(rest)
}

// zeroInitializer reports a C initializer that sets everything to zero ({ 0 }, {0}, {},
// { NULL }): what a key's buffer starts as, not a key; a list of bytes ({0x35, 0x34, …}) is
// one.
func zeroInitializer(e string) bool {
	switch strings.Join(strings.Fields(e), "") {
	case "{0}", "{}", "{NULL}", "{0,}", "{nullptr}":
		return true
	}
	return false
}

// signedOrSuffixed reports a number written with a sign or a C suffix (-1, -1u, 0x10UL).
func signedOrSuffixed(v string) bool {
	return v != "" && (v[0] == '-' || v[0] == '+' || strings.IndexByte("uUlL", v[len(v)-1]) >= 0)
}

// statementCode returns a statement's rest without its C comment and the comma or
// semicolon that ends it: (1<<13), /* flag */ is (1<<13).
func statementCode(rest string) string {
	if c := strings.Index(rest, "/*"); c >= 0 {
		rest = rest[:c]
	}
	if c := strings.Index(rest, "//"); c >= 0 {
		rest = rest[:c]
	}
	return strings.TrimRight(rest, " \t\r,;")
}

// codeContext reports a value of a statement of code rather than of a config file, by the
// operator before it: an assignment with blanks around its = (x = v, not an INI file's) or
// :=, an argument, or a member of an object literal — a colon whose value a comma or a
// semicolon ends, whose line follows a member that does or goes on in the next line's
// operator — or a slice's bound (a[i:j]). A config file writes its
// literals after a glued = (.env, properties, a flag) or a colon that ends the line (YAML),
// and there tokens[1], 0xDEADBEEF or a.b=c are the values they spell.
func codeContext(s string, vs, ve int) bool {
	k := vs
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == 0 {
		return false
	}
	switch s[k-1] {
	case '(', ',':
		return true
	case '=':
		if k >= 2 && s[k-2] == ':' {
			return true
		}
		ls := strings.LastIndexByte(s[:k], '\n') + 1
		if k >= 2 && isWordByte(s[k-2]) && enumMember(s, ve) {
			return true // U_UNEXPECTED_TOKEN=0x10100,       /**< Syntax error */
		}
		return k >= 2 && (s[k-2] == ' ' || s[k-2] == '\t') && !iniSection(s, ls)
	case ':':
		if k >= 2 && s[k-2] == ':' {
			return false
		}
		rest := strings.TrimSpace(s[ve:lineEndAt(s, ve)])
		if rest != "" && (rest[len(rest)-1] == ',' || rest[len(rest)-1] == ';' || strings.IndexByte(",])", rest[0]) >= 0) {
			return true
		}
		ls := strings.LastIndexByte(s[:k], '\n') + 1
		return objectMemberAbove(s, ls) || continuedBelow(s, ve)
	}
	return false
}

// enumMember reports a value that a comma and then only a C comment or the line's end
// follow: a member of an enum or an initializer list (NAME=0x10100,  /**< … */). A config
// file's line ends with its value.
func enumMember(s string, ve int) bool {
	if ve >= len(s) || s[ve] != ',' {
		return false
	}
	rest := strings.TrimSpace(s[ve+1 : lineEndAt(s, ve)])
	return rest == "" || strings.HasPrefix(rest, "/*") || strings.HasPrefix(rest, "//")
}

// continuedBelow reports a next line that goes on with the expression ending the line at i:
// it opens with an operator (? 'same-origin', && ok, || x, + y, .then(…)).
func continuedBelow(s string, i int) bool {
	e := lineEndAt(s, i)
	if e >= len(s) {
		return false
	}
	next := strings.TrimLeft(s[e+1:lineEndAt(s, e+1)], " \t")
	for _, op := range []string{"? ", "&& ", "|| ", "?? ", "+ ", ". ", "."} {
		if strings.HasPrefix(next, op) && len(next) > len(op) {
			return op != "." || isLetter(next[1])
		}
	}
	return false
}

// statementEnd reports what ends a value of code at i: the line's end, a semicolon, a
// closing parenthesis, or a comma and a blank; not a comma inside a value (A,.:-¨@*).
func statementEnd(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	switch s[i] {
	case '\n', '\r', ';', ')':
		return true
	case ',':
		return i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == '\n'
	}
	return false
}

func lineEndAt(s string, i int) int {
	if e := strings.IndexByte(s[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(s)
}

// machineInteger reports an integer literal in hex, octal or binary of at most 64 bits
// (0x2, 0x0020, 0xc0406619, 0o755, 0b1010), maybe with a C suffix (0xffUL): a flag or a
// constant. A key written in hex is 128 bits or more: 0x and 32 hex digits stays a key.
func machineInteger(v string) bool {
	if len(v) < 3 || v[0] != '0' {
		return false
	}
	digits := v[2:]
	for len(digits) > 1 && strings.IndexByte("uUlL", digits[len(digits)-1]) >= 0 {
		digits = digits[:len(digits)-1]
	}
	if digits == "" || len(digits) > 16 {
		return false
	}
	switch v[1] {
	case 'x', 'X':
		return isHex(digits)
	case 'o', 'O', 'b', 'B':
		return isDigits(digits)
	}
	return false
}

// identifierOperand reports a name of code as an expression's operand: letters, digits and
// _ . $, opening with a letter, _ or $, the digits of each part after its letters (k1024,
// encodingSize12, arm.C_WBIT) or before a capitalised word (X509Subject), never a letter
// run after a digit as random runs have (Xk9fj3).
func identifierOperand(t string) bool {
	if t == "" || !(isLetter(t[0]) || t[0] == '_' || t[0] == '$') || len(t) > 64 {
		return false
	}
	digit := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case isDigitByte(c):
			digit = true
		case isLetter(c):
			if digit && !(isUpperByte(c) && i+2 < len(t) && isLowerByte(t[i+1]) && isLowerByte(t[i+2])) {
				return false // X509Subject, Base64Encode: a word after the digits; not Xk9fj3
			}
			digit = false
		case c == '_' || c == '.' || c == '$':
			digit = false
		default:
			return false
		}
	}
	return true
}

// numberOperand reports a decimal, hex or floating-point number.
func numberOperand(t string) bool {
	if machineInteger(t) || isDigits(t) {
		return true
	}
	i := strings.IndexByte(t, '.')
	return i > 0 && i < len(t)-1 && isDigits(t[:i]) && isDigits(t[i+1:])
}

// codeOperand reports an operand of an expression: a name, a number, a product of a number
// or a short name with a name (k1024*encodingSize12, 1*tchar), or a literal of one word in
// one case without digits ('anonymous@'), inside any parentheses and after a unary operator.
func codeOperand(t string) bool {
	t = strings.TrimLeft(t, "(!~-&")
	t = strings.TrimRight(t, ")")
	if t == "" {
		return false
	}
	if q := t[0]; q == '\'' || q == '"' || q == '`' {
		in := t[1:]
		if len(in) == 0 || in[len(in)-1] != q {
			return false
		}
		in = in[:len(in)-1]
		// A word, maybe with punctuation ('anonymous', 'anonymous@'): no digit, one case, as
		// a password joined to a name has (user + "pass1234").
		return !strings.ContainsAny(in, `"'`+"`0123456789") && (in == strings.ToLower(in) || in == strings.ToUpper(in)) && !symbolRandom(in)
	}
	if a, b, ok := strings.Cut(t, "*"); ok && a != "" && b != "" && !strings.Contains(b, "*") {
		// A number or a short name times a name of words (k1024*encodingSize12, 1*tchar), not
		// two short runs (Ab1*Cd2, a password's pieces).
		short := func(x string) bool { return numberOperand(x) || len(x) <= 5 && identifierOperand(x) }
		long := func(x string) bool {
			return numberOperand(x) || len(x) >= 4 && identifierOperand(x) && meanRunLength(x) >= 3
		}
		return short(a) && long(b) || short(b) && long(a)
	}
	if i := strings.IndexByte(t, '('); i > 0 && i+1 < len(t) && qualifiedOperand(t[:i]) {
		// uint32(1), libc.Uint32FromInt32(nDest): a conversion or a call of one operand
		in := strings.TrimLeft(t[i+1:], "(*&-")
		return numberOperand(in) || qualifiedOperand(in)
	}
	return numberOperand(t) || identifierOperand(t)
}

// qualifiedOperand reports a name, or names joined by dots (libc.Uint32FromInt32, p.FnKey).
func qualifiedOperand(t string) bool {
	for _, seg := range strings.Split(t, ".") {
		if !identifierOperand(seg) {
			return false
		}
	}
	return true
}

// binaryOperators are the operators an expression of code joins its operands with (Perl's
// and PHP's concatenation, __PACKAGE__ . '/stack', among them); not
// Python's and and or, which a passphrase holds as often (salt and pepper), nor a slash,
// which sets an account and its password apart in prose (ID/PW: admin / letmein).
var binaryOperators = map[string]bool{"+": true, "-": true, "*": true, "%": true, "<<": true, ">>": true,
	">>>": true, "|": true, "&": true, "^": true, "&^": true, "||": true, "&&": true, "??": true, "==": true, "!=": true,
	"===": true, "!==": true, "<": true, ">": true, "<=": true, ">=": true, ".": true}

// operatorExpression reports a line's rest that is an expression: operands set apart by
// binary operators with blanks around them (1 << iota, i + 1, STANDARD_RIGHTS_READ |
// TOKEN_QUERY, corsAttributeState === 'anonymous', nodot + token.output), or an operand
// then an operator that the next line continues (STANDARD_RIGHTS_REQUIRED |). A trailing
// comment or statement end is left out.
func operatorExpression(rest string) bool {
	if c := strings.Index(rest, " //"); c >= 0 {
		rest = rest[:c]
	}
	if c := strings.Index(rest, " #"); c >= 0 {
		rest = rest[:c]
	}
	rest = strings.TrimRight(rest, " \t\r;,")
	if len(rest) > 200 {
		return false
	}
	fields := strings.Fields(rest)
	if len(fields) < 2 {
		return false
	}
	for i, f := range fields {
		if i%2 == 1 {
			if !binaryOperators[f] {
				return false
			}
			continue
		}
		if !codeOperand(f) {
			return false
		}
	}
	return true
}

// indexExpression reports a name indexed or sliced by numbers and names (tokens[1:],
// _token_index[i+1], p.ElemList[0], pw[:-1], line[0:tabIndex]): an element of something
// held elsewhere.
func indexExpression(v string) bool {
	i := strings.IndexByte(v, '[')
	if i <= 0 || v[len(v)-1] != ']' || !identifierOperand(v[:i]) {
		return false
	}
	for k := i; k < len(v); k++ {
		c := v[k]
		if !isWordByte(c) && strings.IndexByte("[]:+-*. ", c) < 0 {
			return false
		}
	}
	return strings.Count(v, "[") == strings.Count(v, "]")
}

// arrayType reports a Go array type opening a composite literal ([256]bool{, [n]byte{).
func arrayType(v string) bool {
	i := strings.IndexByte(v, ']')
	if v[0] != '[' || i < 2 || i+1 >= len(v) || !isLetter(v[i+1]) {
		return false
	}
	n := v[1:i]
	return isDigits(n) || identifierOperand(n)
}

// collectionLiteral reports a line's rest that opens a tuple, list, set or map literal whose
// first element is a quoted name or a name followed by a comma or a colon (('stdlib',
// 'platstdlib', …), {"NAME": token.NAME, …), or a parenthesised comma expression
// ((0, f)(x)): what it holds is listed, not one secret.
func collectionLiteral(rest string) bool {
	if len(rest) < 4 || strings.IndexByte("([{", rest[0]) < 0 {
		return false
	}
	in := strings.TrimLeft(rest[1:], " \t")
	end := strings.IndexAny(in, ",:")
	if end <= 0 || end+1 >= len(in) || in[end+1] != ' ' {
		return false
	}
	first := strings.TrimRight(in[:end], " \t")
	if first == "" {
		return false
	}
	if q := first[0]; q == '"' || q == '\'' {
		return len(first) >= 2 && first[len(first)-1] == q && identifierWords(first[1:len(first)-1])
	}
	return codeOperand(first)
}

// chainedAssignment reports a line's rest that assigns on (exports.SizeError = void 0,
// P.isWritable=P.isReadable=void 0): the name the value would be is the next target. Glued
// to its =, only a member's path is one: a generated value may hold = (Yg=Cw9+…).
func chainedAssignment(rest string) bool {
	i := 0
	for i < len(rest) && (isWordByte(rest[i]) || rest[i] == '.' || rest[i] == '$') {
		i++
	}
	if i == 0 || !identifierOperand(rest[:i]) {
		return false
	}
	if i < len(rest) && rest[i] == '[' {
		// pass[0] = pass[1] = 0: an element is a target as much as a name
		e := strings.IndexByte(rest[i:], ']')
		if e < 0 || !indexExpression(rest[:i+e+1]) {
			return false
		}
		i += e + 1
	}
	j := skipBlanks(rest, i, 2)
	if j >= len(rest) || rest[j] != '=' || j+1 < len(rest) && rest[j+1] == '=' {
		return false
	}
	if j == i {
		// Glued (minified): a member's path (P.isWritable=…), not a value holding = (Yg=Cw9+…).
		return strings.IndexByte(rest[:i], '.') > 0
	}
	return j+1 < len(rest) && rest[j+1] == ' '
}

// regexLiteral reports a JavaScript regular expression literal (/^Unexpected token/i): the
// value opens with a slash and the line closes it, maybe with flags, before the statement
// ends.
func regexLiteral(v, after string) bool {
	if len(v) < 2 || v[0] != '/' || v[1] == '/' || v[1] == ' ' || v[1] == '*' {
		return false
	}
	line := v + after
	line = strings.TrimRight(line, " \t\r;,)")
	for line != "" && strings.IndexByte("dgimsuvy", line[len(line)-1]) >= 0 {
		line = line[:len(line)-1]
	}
	return len(line) > 2 && line[len(line)-1] == '/' && line[len(line)-2] != '\\' && (v[1] == '^' || strings.ContainsAny(line, `\()[]?+*`))
}

// upperConstant reports another constant's name: upper-case words joined by underscores
// (STANDARD_RIGHTS_EXECUTE).
func upperConstant(v string) bool {
	return strings.IndexByte(v, '_') > 0 && v == strings.ToUpper(v) && identifierWords(v) && !strings.ContainsAny(v, ".:-") && len(v) <= 64
}

// objectMemberAbove reports a line above ls that is a member of an object literal: a name,
// a colon, a value and the comma that goes on to the next member (onopen: kEnumerableProperty,).
// A YAML or properties line ends without one.
func objectMemberAbove(s string, ls int) bool {
	if ls == 0 {
		return false
	}
	ps := strings.LastIndexByte(s[:ls-1], '\n') + 1
	line := strings.TrimSpace(s[ps : ls-1])
	if len(line) < 4 || line[len(line)-1] != ',' {
		return false
	}
	k := 0
	for k < len(line) && (isWordByte(line[k]) || line[k] == '$') {
		k++
	}
	return k > 0 && k+1 < len(line) && line[k] == ':' && line[k+1] == ' '
}

func isLowerByte(c byte) bool { return c >= 'a' && c <= 'z' }

// macroValue reports a C preprocessor definition's unquoted replacement that is code: in
// #define NAME body, the body (its comment left out) is a number, another name, a
// parenthesised expression or a call (#define GL_POINT_TOKEN 0x0701, #define T_KEY
// ns_t_key, #define X86_FEATURE_PAT (0 * 32 + 16), #define GRE_PPTP_KEY_MASK
// __cpu_to_be32(0xffff)). A C string is quoted: a key the preprocessor holds is a literal
// ("9f8e…"), a brace list of bytes ({0x35, 0x34, …}) or an integer wider than 64 bits,
// and those stay values.
func macroValue(s string, vs int) bool {
	ls := strings.LastIndexByte(s[:vs], '\n') + 1
	if _, ok := cDefine(strings.TrimLeft(s[ls:vs], " \t")); !ok || !macroLine(s, vs) {
		return false
	}
	return cExpression(strings.TrimRight(statementCode(s[vs:lineEndAt(s, vs)]), " \t\r\\"))
}

// cExpression reports text that is an expression of C: a number (0x0701, -12345789, 1u,
// -1u), a name of code (ns_t_key, PKCS12_key_gen_utf8), a parenthesised expression or a
// cast ((1<<1), ((SRP_user_pwd *)f(sk))), a call of a name (__cpu_to_be32(0xffff)), or
// operands joined by operators set apart by blanks (16 | SSL_SECOP_OTHER_CERT). Every
// operand is a number or a name of code, never a run of random letters and digits, and
// no string is inside.
func cExpression(e string) bool {
	if e == "" || len(e) > 400 {
		return false
	}
	if cNumber(e) || cName(e) {
		return true
	}
	open := strings.IndexByte(e, '(')
	switch {
	case open == 0, open > 0 && cName(e[:open]):
		if e[len(e)-1] != ')' || closingParen(e, open) != len(e)-1 {
			return false
		}
	default:
		if !operatorExpression(e) {
			return false
		}
	}
	for i := 0; i < len(e); {
		c := e[i]
		switch {
		case isWordByte(c):
			j := i
			for j < len(e) && isWordByte(e[j]) {
				j++
			}
			if t := e[i:j]; !cNumber(t) && !cName(t) && !(len(t) <= 2 && isLetter(t[0])) {
				return false
			}
			i = j
		case strings.IndexByte(" \t+-*/%<>=!&|^~?:,.()[]#", c) >= 0:
			i++
		default:
			return false
		}
	}
	return true
}

// closingParen returns the index of the parenthesis closing the one at open, or -1.
func closingParen(e string, open int) int {
	depth := 0
	for i := open; i < len(e); i++ {
		switch e[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// cNumber reports a C integer or floating-point literal, maybe negative and with its
// suffix (0x0701, 0xffUL, -1u, 1u, -12345789, 1.5f): a machine integer of at most 64
// bits, a number with a sign or a suffix, or a plain decimal of at most five digits (six
// or more may be a PIN or a numeric password written bare).
func cNumber(t string) bool {
	signed := strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")
	t = strings.TrimLeft(t, "-+")
	if machineInteger(t) {
		return true
	}
	d := strings.TrimRight(t, "uUlLfF")
	suffixed := len(d) < len(t)
	if d == "" || len(d) > 20 {
		return false
	}
	if i := strings.IndexByte(d, '.'); i > 0 && i < len(d)-1 && isDigits(d[:i]) && isDigits(d[i+1:]) {
		return true
	}
	return isDigits(d) && (signed || suffixed || len(d) <= 5)
}

// cName reports a name of code in C: words of one case or camel-case words joined by
// underscores (ns_t_key, PKCS12_key_gen_utf8, __X32_SYSCALL_BIT, V4L2_CID_CODEC_BASE), or
// a function's camel-case words alone (xmlSecOpenSSLAppKeyCertLoadMemory). A single word
// with digits (hunter2), capitalised words (MySecretPass) or a run that changes case and
// digits every few characters (Xk9fj3Lq8ZpW…) is none.
func cName(t string) bool {
	if t == "" || len(t) > 80 || !isLetter(t[0]) && t[0] != '_' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isWordByte(t[i]) {
			return false
		}
	}
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '_' })
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if !(p == strings.ToUpper(p) || p == strings.ToLower(p) || identifierOperand(p)) {
			return false
		}
	}
	if strings.IndexByte(t, '_') >= 0 {
		return true
	}
	// One part: a function's name in camel case, opening in lower case, of three words or
	// more (xmlSecOpenSSLAppKeyCertLoadMemory); MySecretPass may be a password written bare.
	caps := 0
	for i := 1; i < len(t); i++ {
		if isUpperByte(t[i]) && isLowerByte(t[i-1]) {
			caps++
		}
	}
	return isLowerByte(t[0]) && caps >= 2 && identifierOperand(t) && meanRunLength(t) >= 3
}

// perlValue reports a Perl (or PHP) value of code: a variable's member, element or method
// ($parser->get_token, $assert->{pass}, $self->{+PASS}, $opts{key}), a reference to a
// named sub or variable (\&Test2::Util::ExternalMeta::META_KEY), a pattern quoted with qr,
// or with m after =~ or !~, and closed on its line (qr{ … }x, =~ m#^/(bin|tmp)?\z#s), or a loop's keyword after a
// label (TOKEN: while (@tokens) {). A variable alone ($ecretPa55) is left to the rule.
func perlValue(s string, vs, ve int) bool {
	v := s[vs:ve]
	if len(v) < 2 {
		return false
	}
	switch {
	case v[0] == '$' && (isLetter(v[1]) || v[1] == '_'):
		k := 1
		for k < len(v) && isWordByte(v[k]) {
			k++
		}
		if !identifierOperand(v[1:k]) || k == len(v) {
			return false
		}
		rest := v[k:]
		if strings.HasPrefix(rest, "->") {
			rest = rest[2:]
			j := 0
			for j < len(rest) && isWordByte(rest[j]) {
				j++
			}
			if j > 0 {
				return identifierOperand(rest[:j])
			}
		}
		return perlSubscript(rest)
	case v[0] == '\\' && strings.IndexByte("&$@%", v[1]) >= 0:
		name := v[2:]
		return name != "" && (isLetter(name[0]) || name[0] == '_') && strings.Trim(strings.TrimRight(name, ";,)"), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") == ""
	}
	for _, q := range []string{"qr", "tr", "m", "s", "y"} {
		if !strings.HasPrefix(v, q) || len(v) == len(q) {
			continue
		}
		if q != "qr" && !strings.HasSuffix(strings.TrimRight(s[max(0, vs-4):vs], " \t"), "=~") && !strings.HasSuffix(strings.TrimRight(s[max(0, vs-4):vs], " \t"), "!~") {
			continue // m{…}, s/…/…/, tr/…/…/ only after =~ or !~; elsewhere a value may open so
		}
		if closing := perlClosing(v[len(q)]); closing != 0 {
			line := s[vs+len(q)+1 : lineEndAt(s, vs)]
			return strings.IndexByte(line, closing) > 0
		}
	}
	switch v {
	case "while", "for", "foreach", "until", "unless", "if", "switch":
		after := s[ve:min(len(s), ve+4)]
		return strings.HasPrefix(after, " (") || strings.HasPrefix(after, " {") || strings.HasPrefix(after, " my ")
	case "return", "break", "continue", "goto":
		return ve == len(s) || s[ve] == ' ' || s[ve] == ';' // case TOKEN_STRING: return "string";
	case "map", "grep", "sort", "do", "sub", "eval":
		return strings.HasPrefix(s[ve:min(len(s), ve+2)], " {") // my %TOKEN = map { $_ => 1 } …: a block
	}
	return false
}

// perlSubscript reports a hash or array subscript opening t: {name}, {+NAME}, {'name'},
// {$k}, [0], [-1], [$i]; what a generated run holding braces has between them is none.
func perlSubscript(t string) bool {
	if len(t) < 3 || t[0] != '{' && t[0] != '[' {
		return false
	}
	closing := byte('}')
	if t[0] == '[' {
		closing = ']'
	}
	e := strings.IndexByte(t, closing)
	if e < 2 {
		return false
	}
	in := strings.Trim(t[1:e], `'"`)
	in = strings.TrimPrefix(strings.TrimPrefix(in, "+"), "$")
	if t[0] == '[' {
		in = strings.TrimPrefix(in, "-")
		return isDigits(in) || identifierOperand(in)
	}
	return identifierOperand(in)
}

// perlClosing returns the delimiter closing a Perl quote-like operator opened by c, or 0
// for a character that opens none.
func perlClosing(c byte) byte {
	switch c {
	case '{':
		return '}'
	case '(':
		return ')'
	case '[':
		return ']'
	case '<':
		return '>'
	case '/', '#', '|', '!':
		return c
	}
	return 0
}
