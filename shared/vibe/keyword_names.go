package vibe

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a name or a literal says that the keyword rule reads as a credential's and is none:
// an argument handed on, a qualified constant, a path's last segment, a field of a record's
// format; a prompt, an escaped symbol, an object identifier, the name spelled again, a
// sentence.

// argumentLiteralWord reports a literal the keyword rule took as the argument after a name
// (name, "literal") when the name is itself an argument handed on (within(pass, "slices"),
// deriveSecret(s.hash, s.secret, "derived", nil), check.error(e, MissingLitKey, "missing key
// in map literal")) or a literal in a list of them (exec.Command("git", "credential",
// "fill")), or the call reads or drops a setting by its name (config.delete('_token',
// 'user')) or joins a path's segments (os.path.join('secrets', 'db')): the literal is the
// next argument, and a word or a message there is no secret.
// A generated value or a weak password with digits (hunter2) stays one.
func argumentLiteralWord(s string, nameStart, nameEnd int, v string) bool {
	word := identifierWords(v) || strings.Count(v, " ") >= 1 && proseWords(v)
	if !word {
		return false
	}
	name := s[nameStart:nameEnd]
	q := nameStart > 0 && (s[nameStart-1] == '"' || s[nameStart-1] == '\'')
	j := nameStart
	if q {
		j--
	}
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	before := byte('\n')
	if j > 0 {
		before = s[j-1]
	}
	if !q {
		// f(secret, "key"), g(sid, secret, "key"): a variable handed on; not a constant named
		// for one (setopt(CURLOPT_PASSWORD, "x")), nor a password's variable beside a word
		// (check(password, "letmein"); pass is as often a compiler's pass).
		return (before == '(' || before == ',') && name != strings.ToUpper(name) && (!passwordName(name) || strings.EqualFold(name, "pass"))
	}
	switch before {
	case '(':
		// config.delete('_token', 'user'); os.path.join('secrets', 'db'),
		// service_path('secrets', 'mode'): segments of a path, no key and its value.
		call := callNameBefore(s, j-1)
		return dropVerbs[firstNamePart(call)] || slices.ContainsFunc(nameParts(call), func(p string) bool { return p == "path" || p == "join" })
	case ',':
		// One literal of a list of them (exec.Command("git", "credential", "fill")), not a
		// key after an object (setattr(cfg, 'secret', 'x')) nor a password's name.
		return !passwordName(name) && literalBefore(s, j-1)
	case '\n':
		return literalListGoesOn(s, nameEnd) // "splitpasswd", "splitport", "splitquery" opening a line
	case ':':
		// Examples: "pass", "fail": quoted words a label lists, the name one of them
		return isLowerWord(v) && dictWord(v)
	}
	return false
}

// literalBefore reports a quoted literal right before the comma at s[comma].
func literalBefore(s string, comma int) bool {
	k := comma
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	return k > 0 && (s[k-1] == '"' || s[k-1] == '\'')
}

// literalListGoesOn reports a quoted name followed by two more quoted literals, each after a
// comma: a list of names ("splitpasswd", "splitport", "splitquery").
func literalListGoesOn(s string, nameEnd int) bool {
	k := nameEnd + 1
	for n := 0; n < 2; n++ {
		k = skipBlanks(s, k, 2)
		if k >= len(s) || s[k] != ',' {
			return false
		}
		k = skipBlanks(s, k+1, 2)
		if k >= len(s) || s[k] != '"' && s[k] != '\'' {
			return false
		}
		e := strings.IndexByte(s[k+1:min(len(s), k+80)], s[k])
		if e < 0 {
			return false
		}
		k += e + 2
	}
	return true
}

// dropVerbs open the names of calls that drop or test a setting by its name; a getter's
// second argument is a default, maybe a secret (config.get('password', 'x')).
var dropVerbs = map[string]bool{"delete": true, "del": true, "remove": true, "unset": true, "clear": true, "has": true}

// callNameBefore returns the name of the call whose parenthesis is at s[open].
func callNameBefore(s string, open int) string {
	b := open
	for b > 0 && isWordByte(s[b-1]) && open-b < 40 {
		b--
	}
	return s[b:open]
}

func firstNamePart(name string) string {
	if p := nameParts(name); len(p) > 0 {
		return p[0]
	}
	return ""
}

// proseWords reports a value of words and blanks with a sentence's punctuation at most.
func proseWords(v string) bool {
	letters := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLetter(c):
			letters++
		case c == ' ' || strings.IndexByte(",.;:'-%", c) >= 0:
		default:
			return false
		}
	}
	return letters >= 3
}

// promptValue reports a literal that asks for a value: words ending in a colon or a
// question mark, with a blank around or among the words (' Confirm: ', 'npm password: ').
func promptValue(v string) bool {
	t := strings.TrimRight(v, " \t")
	if len(t) < 4 || t[len(t)-1] != ':' && t[len(t)-1] != '?' {
		return false
	}
	t = strings.TrimLeft(t[:len(t)-1], " \t")
	if len(t) < 3 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isLetter(t[i]) && t[i] != ' ' && t[i] != '-' && t[i] != '\'' {
			return false
		}
	}
	return len(t) < len(v)-1 || strings.Contains(t, " ") // not one word: Welcome: may be a password
}

// qualifiedConstant reports a name that is a package's or a type's constant (token.XOR,
// token.CHAN): the secret word only in the qualifier, the member an upper-case identifier
// that names no secret.
func qualifiedConstant(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || dot+2 >= len(name) {
		return false
	}
	head, member := name[:dot], name[dot+1:]
	if strings.IndexByte(head, '.') >= 0 || head != strings.ToLower(head) || member != strings.ToUpper(member) || !isLetter(member[0]) {
		return false
	}
	return identifierOperand(member) && !nameHasSecretWord(member) && !keyLikeName(member)
}

// pathSegmentName reports a name that is the last segment of a path inside a literal
// ("go/token", "crypto/subtle"), not a map's key: an import path, not a key's name.
func pathSegmentName(s string, nameStart, nameEnd int) bool {
	if nameStart < 2 || s[nameStart-1] != '/' || !isWordByte(s[nameStart-2]) || nameEnd >= len(s) || s[nameEnd] != '"' && s[nameEnd] != '\'' {
		return false
	}
	if k := skipBlanks(s, nameEnd+1, 2); k < len(s) && s[k] == ':' {
		return false // "api/token": "…": a map's key names what it holds
	}
	open := strings.LastIndexAny(s[max(0, nameStart-120):nameStart], "\"'\n")
	return open >= 0 && s[max(0, nameStart-120)+open] == s[nameEnd]
}

// listedFileName reports a name that is a file's in a list of paths (man3/key_gendes.3
// man3/key_setsecret.3, src/token.c lib/auth.o): after a directory, with an extension, and
// the next word another path, not a key's name before its value.
func listedFileName(s string, nameStart, nameEnd int) bool {
	if nameStart < 2 || s[nameStart-1] != '/' || !isWordByte(s[nameStart-2]) {
		return false
	}
	dot := strings.LastIndexByte(s[nameStart:nameEnd], '.')
	if dot <= 0 || nameEnd-(nameStart+dot) < 2 || nameEnd-(nameStart+dot) > 5 || !allWordBytes(s[nameStart+dot+1:nameEnd]) {
		return false
	}
	j := skipBlanks(s, nameEnd, 8)
	if j == nameEnd || j >= len(s) {
		return false
	}
	k := j
	for k < len(s) && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' {
		k++
	}
	return strings.IndexByte(s[j:k], '/') > 0
}

// quotedPackageName reports a name that is the last part of a package's name quoted whole
// ('Test2::Event::Pass', "CPAN::HTTP::Credentials"): a module, keyed to its version in
// Module::CoreList's tables, never a setting's name, when what it is keyed to is a version,
// where it is maintained (cpan, blead) or nothing. A package's variable ($Config::password = '…') is unquoted, after a sigil; a
// Hiera key ('mysql::server::root_password': '…') is lower-case and before a colon.
func quotedPackageName(s string, nameStart, nameEnd int) bool {
	if nameStart < 4 || s[nameStart-2:nameStart] != "::" || nameEnd >= len(s) || s[nameEnd] != '"' && s[nameEnd] != '\'' {
		return false
	}
	k := nameStart - 2
	for k > 0 && nameStart-k < 200 {
		switch c := s[k-1]; {
		case isWordByte(c):
			k--
		case c == ':' && k >= 2 && s[k-2] == ':' && k >= 3 && isWordByte(s[k-3]):
			k -= 2
		default:
			if c != s[nameEnd] || k >= nameStart-2 || !packagePath(s[k:nameEnd]) {
				return false
			}
			if j := skipBlanks(s, nameEnd+1, 8); j < len(s) && s[j] == ':' {
				return false // 'mysql::server::root_password': '…': a Hiera key, a setting's
			}
			// What a module is keyed to here is its version or nothing; a word or a
			// generated value ('Net::SMTP::Password' => 'hunter2xyz', 'API::Token' =>
			// 'a8Fk29…') stays a value.
			vs, ve, ok := assignedValue(s, nameEnd)
			switch strings.Trim(s[vs:ve], "\"'") {
			case "cpan", "blead", "first-come", "undef":
				return ok // Module::CoreList's %upstream: where a module is maintained
			}
			return !ok || moduleVersion(s[vs:ve])
		}
	}
	return false
}

// moduleVersion reports a Perl module's version (1.302188, 3.43, v5.36.0, 2.02_01) or undef.
func moduleVersion(v string) bool {
	if v == "undef" {
		return true
	}
	v = strings.TrimPrefix(v, "v")
	dot := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case isDigitByte(c):
		case c == '.' || c == '_':
			if i == 0 || i == len(v)-1 || !isDigitByte(v[i-1]) {
				return false
			}
			dot = true
		default:
			return false
		}
	}
	return dot
}

// packagePath reports a Perl package's name: capitalised parts joined by :: (Test2::Event::Pass,
// CPAN::HTTP::Credentials). Puppet's module::class::param keys are lower-case settings.
func packagePath(p string) bool {
	for _, part := range strings.Split(p, "::") {
		if part == "" || !isUpperByte(part[0]) {
			return false
		}
	}
	return strings.Contains(p, "::")
}

// memberAccess reports a name that a glued -> follows, then a member of code: a
// variable's member or method in C, C++, Perl or PHP (key->pkcs11Slot, $pw->name,
// $x->{pass}), not an arrow between a name and its value (password->Tr0ub4dor3x, a run no
// identifier is, or a word ending its line). The member is an identifier, a bracket opens
// it, or the name is a variable after its sigil.
func memberAccess(s string, nameStart, nameEnd int) bool {
	if nameEnd+2 >= len(s) || s[nameEnd] != '-' || s[nameEnd+1] != '>' {
		return false
	}
	j := nameEnd + 2
	if strings.IndexByte("{[(", s[j]) >= 0 {
		return true
	}
	k := j
	for k < len(s) && isWordByte(s[k]) && k-j < 80 {
		k++
	}
	if k == j || !identifierOperand(s[j:k]) {
		return false
	}
	sigil := nameStart > 0 && s[nameStart-1] == '$'
	return sigil || k < len(s) && strings.IndexByte("(),;[-.", s[k]) >= 0
}

// labelClosed reports a name inside a quoted literal whose colon the literal's closing
// quote follows ("Token: ", $token->dump): a label printed before a value, the quote at
// vs-1 closing the literal rather than opening one.
func labelClosed(s string, nameStart, nameEnd, vs int) bool {
	if vs < 1 || vs-1 <= nameEnd {
		return false
	}
	q := s[vs-1]
	if q != '"' && q != '\'' {
		return false
	}
	if strings.Trim(s[nameEnd:vs-1], ": \t") != "" || strings.IndexByte(s[nameEnd:vs-1], ':') < 0 {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	if strings.Count(s[ls:nameStart], string(q))%2 != 1 {
		return false
	}
	// What follows is a variable handed on or joined ("Token: ", $token; "key: " . $k), not
	// a literal joined to the label ("password: " + "hunter2").
	j := skipBlanks(s, vs, 2)
	if j >= len(s) || strings.IndexByte(",.+", s[j]) < 0 {
		return false
	}
	j = skipBlanks(s, j+1, 2)
	return j < len(s) && s[j] != '"' && s[j] != '\'' && s[j] != '`'
}

// patternClosed reports a name and its operator at the end of a quoted literal opened before
// the name, the quote after the operator closing it and a blank after the quote
// (grep '^GEMINI_API_KEY=' .env, sed -n 's/token: //p'): a pattern or a prefix matched or
// cut, no value after it.
func patternClosed(s string, nameStart, nameEnd, vs int) bool {
	if vs < 1 || vs-1 <= nameEnd || vs >= len(s) || s[vs] != ' ' && s[vs] != '\t' {
		return false
	}
	q := s[vs-1]
	if q != '"' && q != '\'' {
		return false
	}
	if op := strings.TrimSpace(s[nameEnd : vs-1]); op != "=" && op != ":" {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	return strings.Count(s[ls:nameStart], string(q))%2 == 1
}

// joinedVariable reports a value that is a variable joined between two pieces of literals:
// a quote that closes one, . or + and a name of code, . or + and a quote that opens the next
// (' . $unk->raw . ', " + tok + "), the quotes the value's own ends.
func joinedVariable(v string) bool {
	if len(v) < 7 {
		return false
	}
	q := v[0]
	if q != '\'' && q != '"' || v[len(v)-1] != q {
		return false
	}
	in := strings.TrimSpace(v[1 : len(v)-1])
	if len(in) < 5 || in[0] != in[len(in)-1] || in[0] != '.' && in[0] != '+' {
		return false
	}
	op := strings.TrimSpace(in[1 : len(in)-1])
	return op != "" && (identifierPath(op) || perlValue(op, 0, len(op)) || op[0] == '$' && identifierOperand(op[1:]))
}

// perlHashKey reports a name that is a Perl hash's key in braces, the element assigned
// after them ($self->{token} = '…', $h{password} = '…'): the value follows the closing brace.
func perlHashKey(s string, nameStart, nameEnd int) bool {
	if nameStart < 2 || nameEnd >= len(s) || s[nameStart-1] != '{' || s[nameEnd] != '}' {
		return false
	}
	c := s[nameStart-2]
	return c == '>' && nameStart >= 3 && s[nameStart-3] == '-' || isWordByte(c) && strings.LastIndexByte(s[max(0, nameStart-40):nameStart], '$') >= 0
}

// ternaryBranch reports a name that is a quoted literal whole after a conditional's ?
// ($as->{pass} ? "PASS" : "FAIL"): the colon after it opens the other branch, not a value.
func ternaryBranch(s string, nameStart, nameEnd int) bool {
	return beforeQuotedName(s, nameStart, nameEnd) == '?'
}

// recordFieldName reports a name that is one field of a record's format written with colons
// (groupname:password:GID:user_list): a word glued before it, a field's name after it.
func recordFieldName(s string, nameStart, nameEnd int) bool {
	if nameStart < 2 || s[nameStart-1] != ':' || !isWordByte(s[nameStart-2]) || nameEnd+1 >= len(s) || s[nameEnd] != ':' {
		return false
	}
	k := nameEnd + 1
	for k < len(s) && (isLetter(s[k]) || s[k] == '_') {
		k++
	}
	// The next field a name too (GID, user_list), not a value (login:password:hunter2).
	return k > nameEnd+1 && (k == len(s) || s[k] == ':' || s[k] == ' ' || s[k] == '\n')
}

// escapedCharacters reports a literal made only of a few code points escaped (\u3299\ufe0f,
// \U0001f5dd\ufe0f): an emoji or a symbol spelled in code. Bytes escaped (\x8f\x1a…) and
// eight or more escapes may be a key written so, and stay one.
func escapedCharacters(v string) bool {
	n := 0
	for i := 0; i < len(v); {
		if v[i] != '\\' || i+1 >= len(v) {
			return false
		}
		w := 0
		switch v[i+1] {
		case 'u':
			w = 4
		case 'U':
			w = 8
		default:
			return false
		}
		if i+2+w > len(v) || !isHex(v[i+2:i+2+w]) {
			return false
		}
		i += 2 + w
		n++
	}
	return n > 0 && n < 8
}

// charEscape reports one character escaped as C writes it ('\0', '\n', '\x00', '\177'): a
// terminator or a separator stored under a secret's name, never a secret.
func charEscape(v string) bool {
	if len(v) < 2 || v[0] != '\\' || len(v) > 5 {
		return false
	}
	e := v[1:]
	switch {
	case len(e) == 1:
		return strings.IndexByte("0abfnrtv\\'\"", e[0]) >= 0
	case e[0] == 'x':
		return len(e) <= 3 && isHex(e[1:])
	}
	return len(e) <= 3 && strings.Trim(e, "01234567") == ""
}

// objectIdentifier reports an ASN.1 object identifier (1.3.6.1.5.5.7.3.1, maybe with a NUL
// after it as C strings end): five or more numbers joined by dots.
func objectIdentifier(v string) bool {
	v = strings.TrimSuffix(strings.TrimSuffix(v, `\x00`), `\0`)
	parts := strings.Split(v, ".")
	if len(parts) < 5 {
		return false
	}
	for _, p := range parts {
		if !isDigits(p) || len(p) > 10 {
			return false
		}
	}
	return true
}

// spellsName reports a value that spells the name it is assigned to, or the name with other
// digits: an enum's string (USE_CREDENTIALS = 'use-credentials'), a table of names
// ("encryptionKey": "encryptionKey1024"), an alias (RegOpenKeyEx = win32api.RegOpenKeyEx).
// Under a password's name, the name with digits added is a weak password and stays one.
func spellsName(name, v string) bool {
	if i := strings.LastIndexByte(v, '.'); i > 0 && i < len(v)-1 && isLetter(v[0]) && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") == "" {
		v = v[i+1:] // win32api.RegOpenKeyEx: a module's member under its own name
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	letters := func(s string, digits bool) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case isLetter(c):
				b.WriteByte(c | 0x20)
			case digits && isDigitByte(c):
				b.WriteByte(c)
			case isDigitByte(c) || strings.IndexByte("_-.:", c) >= 0:
			default:
				return "\x00"
			}
		}
		return b.String()
	}
	nv, vv := letters(name, true), letters(v, true)
	if len(name) < 4 || nv == "\x00" || vv == "\x00" {
		return false
	}
	if vv == nv {
		return true
	}
	// Other digits: the name written the same way, its digits changed ("encryptionKey":
	// "encryptionKey1024"), not a weak secret made of it (API_KEY = "apikey2024").
	return strings.Trim(v, "0123456789") == strings.Trim(name, "0123456789") && !passwordName(name) && len(nameParts(name)) >= 2
}

// nameWordsValue reports a literal of two or more words that are parts of the name in a
// row, maybe written as escaped printable bytes: a protocol's label kept under a constant
// that names it (TLS_MD_MASTER_SECRET_CONST "master secret", TLS_MD_CLIENT_WRITE_KEY_CONST
// "\x63\x6c\x69…" spelling "client write key"). A passphrase is words the name does not
// hold.
func nameWordsValue(name, v string) bool {
	if strings.HasPrefix(v, `\x`) {
		v = printableEscapes(v)
	}
	words := strings.Fields(strings.ToLower(v))
	if len(words) < 2 || len(words) > 8 {
		return false
	}
	for _, w := range words {
		if !isLetters(w) {
			return false
		}
	}
	return strings.Contains("_"+strings.Join(nameParts(name), "_")+"_", "_"+strings.Join(words, "_")+"_")
}

// printableEscapes decodes a literal made only of \xNN escapes of printable ASCII
// (\x6d\x61\x73… is "mas…"), or returns "" when it holds anything else: random bytes
// escaped are mostly not printable.
func printableEscapes(v string) string {
	if len(v)%4 != 0 || len(v) > 400 {
		return ""
	}
	b := make([]byte, 0, len(v)/4)
	for i := 0; i < len(v); i += 4 {
		if v[i] != '\\' || v[i+1] != 'x' || !isHex(v[i+2:i+4]) {
			return ""
		}
		c := unhex(v[i+2])<<4 | unhex(v[i+3])
		if c < 0x20 || c > 0x7e {
			return ""
		}
		b = append(b, c)
	}
	return string(b)
}

// propertyName reports a value that names a property in a scope: lower-case words joined by
// dots, then a colon and the property (js.fetch:credentials).
func propertyName(v string) bool {
	if !identifierWords(v) || v != strings.ToLower(v) {
		return false
	}
	return strings.IndexByte(v, '.') > 0 && strings.IndexByte(v, ':') > strings.IndexByte(v, '.')
}

// functionWords are the words of a sentence's grammar (articles, pronouns, prepositions,
// conjunctions, auxiliaries): no password is one, and one after a name says prose.
var functionWords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "but": true,
	"for": true, "from": true, "to": true, "of": true, "in": true, "on": true, "at": true, "by": true, "with": true,
	"as": true, "is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "if": true, "then": true,
	"than": true, "that": true, "this": true, "these": true, "those": true, "their": true, "its": true, "it": true,
	"his": true, "her": true, "our": true, "which": true, "who": true, "when": true, "where": true, "via": true,
	"into": true, "onto": true, "not": true, "can": true, "may": true, "must": true, "should": true, "will": true,
	"would": true, "used": true, "using": true, "has": true, "have": true, "had": true, "does": true, "so": true}

// proseAfter reports a value followed on its line by a function word: a sentence goes on
// (appending PWD=dir to the environment).
func proseAfter(s string, ve int) bool {
	if ve >= len(s) || s[ve] != ' ' {
		return false
	}
	k := ve + 1
	for k < len(s) && isLetter(s[k]) && k-ve < 8 {
		k++
	}
	return k > ve+1 && (k == len(s) || s[k] == ' ') && functionWords[s[ve+1:k]]
}

// quotedWordList reports a quoted name that opens a literal after another literal and a
// blank ("splunk-source" "splunk-token" "splunk-url"), the value after it a name of the same
// shape: words of a shell array or a completion's list, each its own item.
func quotedWordList(s string, nameStart, vs, ve int) bool {
	if nameStart < 3 || s[nameStart-1] != '"' && s[nameStart-1] != '\'' || vs < 1 || s[vs-1] != s[nameStart-1] {
		return false
	}
	j := nameStart - 2
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	if j < 0 || j == nameStart-2 || s[j] != s[nameStart-1] {
		return false
	}
	v := s[vs:ve]
	return v != "" && len(v) <= 48 && isLowerByte(v[0]) && strings.IndexFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) < 0 && !randomValue(v)
}

// sedSubstitution reports a name inside a sed expression that the expression's delimiter
// follows ('s/"access_token"://g'): what the expression matches, the empty replacement and
// the flags after it no value. A replacement that writes a value
// (s/^password=.*/password=S3cr3tpw9/) is still one.
func sedSubstitution(s string, nameStart, vs int) bool {
	if vs >= len(s) || s[vs] != '/' && s[vs] != '|' && s[vs] != '#' {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	q := strings.LastIndexByte(s[ls:nameStart], '\'')
	if q < 0 {
		return false
	}
	q += ls
	expr := s[q+1 : nameStart]
	return strings.Contains(s[ls:q], "sed ") && (strings.HasPrefix(expr, "s/") || strings.HasPrefix(expr, "s|") || strings.HasPrefix(expr, "s#"))
}

// lintLevels are the levels a linter's setting gives a lint.
var lintLevels = map[string]bool{"warn": true, "deny": true, "allow": true, "forbid": true, "error": true, "off": true}

// labelOfName reports two to four words of letters, the last the name's own last word (token:
// GitHub token, api_key: Your OpenAI API key): what the value stands for, as a docstring's
// arguments or a form's labels describe it.
func labelOfName(name, v string) bool {
	parts := nameParts(name)
	words := strings.Fields(strings.TrimRight(v, ".,;"))
	if len(parts) == 0 || len(words) < 2 || len(words) > 4 || !strings.EqualFold(words[len(words)-1], parts[len(parts)-1]) {
		return false
	}
	for _, w := range words {
		if !isLetters(w) {
			return false
		}
	}
	return true
}

// hyphenedWords reports two or three lower-case English words joined by hyphens
// (scope-conflict, read-only-mode).
func hyphenedWords(v string) bool {
	words := strings.Split(v, "-")
	if len(words) < 2 || len(words) > 3 {
		return false
	}
	for _, w := range words {
		if len(w) < 3 || !isLetters(w) || strings.ToLower(w) != w || !dictWord(w) {
			return false
		}
	}
	return true
}

// sentenceGoesOn reports two lower-case words of letters after s[ve] and a blank: the
// sentence the value is a word of goes on.
func sentenceGoesOn(s string, ve int) bool {
	rest := s[ve:min(len(s), ve+80)]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	if !strings.HasPrefix(rest, " ") {
		return false
	}
	f := strings.Fields(rest)
	if len(f) < 2 {
		return false
	}
	for _, w := range f[:2] {
		if w = strings.TrimRight(w, ".,;:"); w == "" || !isLetters(w) || strings.ToLower(w) != w {
			return false
		}
	}
	return true
}

// describedParameter reports a value that describes the parameter it is written under, as a
// docstring's parameter list does (- password: password to use with username): it opens
// with the name's own word and goes on as a sentence.
func describedParameter(name, v string) bool {
	words := strings.Fields(v)
	if len(words) < 3 || !strings.EqualFold(words[0], name) {
		return false
	}
	for _, w := range words[1:] {
		if functionWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// accountPlaceholder reports user:password written as the words (user:passwd,
// username:password): the shape of a pair, not one.
func accountPlaceholder(v string) bool {
	u, p, ok := strings.Cut(strings.ToLower(v), ":")
	return ok && oneOfFold(u, "user", "username", "login", "name", "id", "account") && oneOfFold(p, "pass", "passwd", "password", "pwd", "pw", "secret")
}

// commandWordToken reports a short word under a name for a token of a command line or a
// shell's input (commandToken: 'git', argToken: "--help", wordToken = 'ls'): what a parser
// split the line into, no credential.
func commandWordToken(name, v string) bool {
	v = strings.Trim(v, "\"'`")
	if v == "" || len(v) > 24 || randomValue(v) {
		return false
	}
	token, command := false, false
	for _, p := range nameParts(name) {
		switch p {
		case "token", "tokens":
			token = true
		case "command", "cmd", "shell", "word", "arg", "argv", "argument", "completion":
			command = true
		default:
			return false
		}
	}
	if !token || !command {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isLowerByte(c) && !isDigitByte(c) && strings.IndexByte("-./_", c) < 0 {
			return false
		}
	}
	return true
}

// spdxLicenses are common SPDX licence identifiers.
var spdxLicenses = map[string]bool{"MIT": true, "Apache-2.0": true, "BSD-2-Clause": true, "BSD-3-Clause": true, "ISC": true,
	"MPL-2.0": true, "GPL-2.0": true, "GPL-3.0": true, "GPL-2.0-only": true, "GPL-3.0-only": true, "GPL-2.0-or-later": true,
	"GPL-3.0-or-later": true, "LGPL-2.1": true, "LGPL-3.0": true, "LGPL-2.1-only": true, "LGPL-3.0-only": true,
	"LGPL-2.1-or-later": true, "LGPL-3.0-or-later": true, "AGPL-3.0": true, "AGPL-3.0-only": true, "AGPL-3.0-or-later": true,
	"Unlicense": true, "CC0-1.0": true, "CC-BY-4.0": true, "CC-BY-SA-4.0": true, "EPL-2.0": true, "BSL-1.0": true, "0BSD": true,
	"Zlib": true, "BlueOak-1.0.0": true, "Artistic-2.0": true, "EUPL-1.2": true, "WTFPL": true}

// spdxLicense reports an SPDX licence identifier (licenseKey: 'Apache-2.0'), an expression of
// them included (MIT OR Apache-2.0): the licence a package is under, no licence key.
func spdxLicense(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), "\"'`()")
	if v == "" {
		return false
	}
	for _, w := range strings.Fields(v) {
		if w = strings.Trim(w, "()"); !spdxLicenses[w] && w != "OR" && w != "AND" && w != "WITH" {
			return false
		}
	}
	return true
}

// wordsNoSecret reports a value under a credential's name that is what code writes there
// instead of one: a prompt, an escaped symbol, an object identifier, the name spelled
// again, a parameter's description, user:password spelled out, a variable joined to the
// literal the name ends, a word quoted in a sentence, and, under a name that is no
// password's, a property's name. A placeholder word left unquoted that a sentence goes on
// after is prose (PWD=dir to the environment), and so is one that closes a Markdown code
// span (`export NPM_CONFIG_KEY=val`).
// listEntrySentence reports the words after "- name:" in a Markdown list that make a
// sentence: three words or more, of letters, the first a lower-case word of English and one
// a short word that only prose has (load libsecret only once, give FFI correctly-sized object).
func listEntrySentence(s string, vs int, v string) bool {
	ls := strings.LastIndexByte(s[:vs], '\n') + 1
	head := strings.TrimLeft(s[ls:vs], " \t")
	if !strings.HasPrefix(head, "- ") && !strings.HasPrefix(head, "* ") {
		return false
	}
	words := strings.Fields(v)
	if len(words) < 3 || !isLetters(words[0]) || strings.ToLower(words[0]) != words[0] || !dictWord(words[0]) {
		return false
	}
	for _, w := range words {
		if !isLetters(strings.Trim(strings.ReplaceAll(w, "-", ""), "`.,;:()'")) {
			return false
		}
	}
	return true
}

func wordsNoSecret(s string, vs, ve int, name string, quoted bool) bool {
	v := s[vs:ve]
	if v == "" {
		return false
	}
	for _, w := range literalWrappers {
		if len(v) > len(w)+2 && strings.HasPrefix(v, w) && v[len(v)-1] == ')' {
			v = strings.Trim(v[len(w):len(v)-1], `"'`+"`") // []byte("1.3.6.1.5.5.7.3.1\x00")
			break
		}
	}
	if promptValue(v) || messageText(v) || quoted && (translatedPhrase(s, vs, v) || catalogEntry(s, vs, ve)) || describesSecret(name, v) || keyedMessage(name, v) || spellsName(name, v) || describedParameter(name, v) || accountPlaceholder(v) || nameWordsValue(name, v) || lexerTokenWord(name, v) || commandWordToken(name, v) || spdxLicense(v) || lexerTokenList(name, s, vs) || errorCode(name, v) || errorMessage(s, vs, name, v) || typeofComparison(s, vs, v) || comparedWord(s, vs, name, v) {
		return true
	}
	if (escapedCharacters(v) || objectIdentifier(v) || charEscape(v)) && codeContext(s, vs-1, ve+1) {
		return true // in code's literal: a config file's \u00e9\u00e8 or 1.2.3.4.5.6 is what it spells
	}
	if strings.HasPrefix(v, "--") && optionWord(strings.TrimSuffix(v, "=")) {
		return true // "--smtp-pass= --smtp-server-option=": the next option of a list, no value
	}
	if strings.EqualFold(name, "pass") && vs > len(name) && strings.HasSuffix(strings.TrimRight(s[:vs], "'\"`"), "pass(") && strings.Count(v, " ") >= 3 &&
		slices.ContainsFunc(strings.Fields(v), func(w string) bool { return functionWords[strings.ToLower(w)] }) {
		return true // return pass('author has triage+ on this repo'): a check passed, and why (a passphrase of words has no "on", "this")
	}
	if statusCodeValue(v) {
		return true // ("credentials", "invalid_fields"): the error a test expects
	}
	if !quotedAt(s, vs) && listEntrySentence(s, vs, v) {
		return true // - cargo-credential-libsecret: load libsecret only once: a changelog's entry
	}
	if lintLevels[v] && len(strings.Split(name, "_")) >= 3 && strings.ToLower(name) == name {
		return true // needless_pass_by_ref_mut = "warn": a lint's level in a Cargo.toml or a linter's config
	}
	if labelOfName(name, v) {
		return true // token: GitHub token (a docstring's argument): what the value is, in words
	}
	if !quoted && functionWords[strings.ToLower(v)] && sentenceGoesOn(s, ve) {
		return true // **About SNYK_TOKEN**: The workflow uses …: a sentence after a heading's colon
	}
	if !quotedAt(s, vs) && !passwordName(name) && (titleWord(v) && functionWordNext(s, ve) || describingWords(v)) {
		return true // - ANTHROPIC_API_KEY: Required for LLM-based reviews; TOKEN: Alternative to API key: what the variable is for
	}
	if !quoted && hyphenCompound(v) && !passwordName(name) && sentenceGoesOn(s, ve) {
		return true // private_key: PEM-encoded private key as a string: a docstring's description
	}
	if !quoted && hyphenedWords(v) && sentenceGoesOn(s, ve) {
		return true // resolved secrets: scope-conflict warnings now show …: a sentence's words
	}
	if !passwordName(name) && propertyName(v) {
		return true
	}
	if vs >= 2 && s[vs-2] == '=' && (s[vs-1] == '"' || s[vs-1] == '\'') && v[0] == '+' && identifierOperand(strings.TrimLeft(strings.TrimRight(v, ",; "), "+ ")) {
		return true // "PWD="+cmd.Dir: the literal closed after the =, a variable joined to it
	}
	if vs >= 2 && ve < len(s) && (s[vs-1] == '"' || s[vs-1] == '\'') && s[vs-2] == ' ' && s[ve] == s[vs-1] && proseAfter(s, ve+1) {
		k := vs - 2
		for k > 0 && s[k-1] == ' ' {
			k--
		}
		if k >= 4 && strings.EqualFold(s[k-4:k], "pass") && (k == 4 || !isWordByte(s[k-5])) && identifierWords(v) {
			return true // pass 'v' as the verb: a word quoted in a sentence after pass, a verb
		}
	}
	if joinedVariable(v) {
		return true // 'Unknown TAP token: "' . $unk->raw . '"': a variable joined between a literal's pieces
	}
	if !quoted && hyphenatedWords(v) && proseAfter(s, ve) {
		return true // **API Key:** Double-check that the key is correct: a sentence's first word
	}
	if head, _, ok := strings.Cut(v, " // "); ok && !quoted && metaWords[head] {
		return true // pwd = name // always absolute: a placeholder word, then a comment
	}
	// A code span's example closes after the word (`export NPM_CONFIG_KEY=val`).
	return !quoted && metaWords[v] && (proseAfter(s, ve) || ve < len(s) && s[ve] == '`' && strings.LastIndexByte(s[max(0, vs-200):vs], '`') >= 0)
}

// hyphenatedWords reports words of the dictionary joined by hyphens (Double-check,
// re-run): a compound of prose, which a sentence may open with after a label.
func hyphenatedWords(v string) bool {
	parts := strings.Split(v, "-")
	if len(parts) < 2 || len(v) > 40 {
		return false
	}
	for _, p := range parts {
		if !isLetters(p) || !(dictWord(p) || len(p) == 2 && functionWords[strings.ToLower(p)]) {
			return false
		}
	}
	return true
}

// metaWords are the words documentation writes where a value goes (PWD=dir, password =
// value): no value, a sentence's placeholder.
var metaWords = map[string]bool{"dir": true, "path": true, "file": true, "name": true, "value": true, "val": true,
	"arg": true, "var": true, "string": true, "str": true, "text": true}

// connectionStringCode reports a connection-string match that is code or prose: an
// assignment with blanks around its = whose value is a placeholder word, an operator of code
// or the member's own name (password = value, password = await …, self.pwd = pwd; password
// = open_sesame and password = hunter stay masked), or a placeholder word a sentence goes
// on after (appending PWD=dir to the environment). A connection string's pairs are written
// without blanks and hold literals.
func connectionStringCode(m string) bool {
	eq := strings.IndexByte(m, '=')
	if eq < 0 {
		return true
	}
	rest := strings.TrimLeft(m[eq+1:], " \t")
	v, after, _ := strings.Cut(rest, " ")
	v = strings.TrimRight(v, ",);:")
	after = strings.TrimRight(after, " \t.,")
	spaced := eq > 0 && (m[eq-1] == ' ' || m[eq-1] == '\t') || eq+1 < len(m) && (m[eq+1] == ' ' || m[eq+1] == '\t')
	if spaced && identifierPath(v) && (metaWords[v] || passwordWord(v) || oneOfFold(v, "await", "yield", "new", "typeof", "function", "async", "lambda") || ownName(m[:eq], v) || namedAfter(m[:eq], v) || after == "?" || after == "or" || after == "and" || after == "if") {
		// password = value, password = await …, self.pwd = pwd, password = passwd, password = prompt ? …,
		// self.password = upass or config.get(…): a statement of code
		return false
	}
	return !(metaWords[v] && functionWords[after])
}

// ownName reports a value that is the last part of the name it is assigned to: a parameter
// kept under its own name (self.pwd = pwd).
func ownName(name, v string) bool {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:] == v
	}
	return false
}

// namedAfter reports a value that is a variable of snake case named after what it is
// assigned to: one of its parts is the name's last word (password = url_user_password,
// userdata.password = password_ptr). A password of words (open_sesame) holds none.
func namedAfter(name, v string) bool {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexAny(name, ". \t"); i >= 0 {
		name = name[i+1:]
	}
	parts := strings.Split(v, "_")
	return len(parts) >= 2 && name != "" && slices.ContainsFunc(parts, func(p string) bool { return strings.EqualFold(p, name) })
}

// qualifiedName reports a value that is a name of code qualified by its package or type
// (token.CHAN, *ed25519.PrivateKey, os.ErrNotExist): two parts, the member an upper-case
// constant or words in Pascal case.
func qualifiedName(v string) bool {
	v = strings.TrimRight(strings.TrimLeft(v, "*&"), ",.;:)")
	head, member, ok := strings.Cut(v, ".")
	if !ok || strings.IndexByte(member, '.') >= 0 || !identifierOperand(head) || !identifierOperand(member) || !isLetter(head[0]) || !isUpperByte(member[0]) {
		return false
	}
	return member == strings.ToUpper(member) || meanRunLength(member) >= 3
}

// identifierLine reports a line that is one identifier of words: UPPER_SNAKE with an
// underscore, or camel case whose words are a capital and lower-case letters, three and a
// half letters long on average (TokenGroups, tokenArrayStart, TokenSessionId). A wrapped
// key's lines mix digits in, change case every letter or two, or end in a lone capital.
func identifierLine(t string) bool {
	if upperSnakeName(t) {
		return true // GNUTLS_PKCS11_OBJ_DATA, NL80211_EXT_FEATURE_EXT_KEY_ID
	}
	if !identifierWords(t) || strings.ContainsAny(t, ".:-") {
		return false
	}
	if strings.IndexByte(t, '_') > 0 && (t == strings.ToUpper(t) || t == strings.ToLower(t)) {
		return true
	}
	words, run := 1, 0
	for i := 0; i < len(t); i++ {
		if i > 0 && isUpperByte(t[i]) {
			if run < 2 || i+1 >= len(t) || !isLowerByte(t[i+1]) {
				return false // a lone capital or a run of them: no word of a name
			}
			words++
			run = 0
		}
		run++
	}
	return words >= 2 && run >= 2 && float64(len(t))/float64(words) >= 3.5
}

// upperSnakeName reports an upper-case constant's name whose parts may hold digits after
// their letters (GNUTLS_PKCS11_OBJ_DATA, NL80211_ATTR_KEY, X509_CRT): each part opens with a
// letter or, after the first, is a number (OSSL_DEPRECATEDIN_3_0), and one part is a word of
// three letters or more. A wrapped key's line mixes cases
// (base64) or has no underscore (base32, hex).
func upperSnakeName(t string) bool {
	t = strings.TrimLeft(t, "_")
	if strings.IndexByte(t, '_') < 0 || len(t) > 80 {
		return false
	}
	word := false
	for i, p := range strings.Split(t, "_") {
		if p == "" || !isUpperByte(p[0]) && !(i > 0 && isDigits(p)) {
			return false // OSSL_DEPRECATEDIN_3_0, X86_64: a number after the first part
		}
		for i := 0; i < len(p); i++ {
			if !isUpperByte(p[i]) && !isDigitByte(p[i]) {
				return false
			}
		}
		word = word || len(p) >= 3 && isLetters(p)
	}
	return word
}

// declaredFunction reports a value after a type's name that is a function's name: blanks
// and an opening parenthesis follow it on its line (xmlSecKeyPtr
// xmlSecGnuTLSAppPkcs12LoadMemory   (const xmlSecByte* data,), as C declares one.
func declaredFunction(s string, vs, ve int) bool {
	j := skipBlanks(s, ve, 40)
	return j < len(s) && s[j] == '(' && cName(s[vs:ve])
}

// docCommentTag reports a name that a documentation comment's tag opens, a sentence after
// its colon (kernel-doc and gtk-doc: * @GNUTLS_PKCS11_TOKEN_SERIAL: The token's serial
// number., * @pass: %TRUE if the test passed): the constant or parameter documented, not a
// value. A value
// there that is no sentence (* @token: 9f8e…, * @password: hunter2xyz) stays one.
func docCommentTag(s string, nameStart, nameEnd int) bool {
	if nameStart < 2 || s[nameStart-1] != '@' {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	switch strings.TrimSpace(s[ls : nameStart-1]) {
	case "*", "/**", "/*", "**", "///", "//", "//!", "#", "##":
	default:
		return false
	}
	k := nameEnd
	for k < len(s) && isWordByte(s[k]) {
		k++
	}
	k = skipBlanks(s, k, 2)
	if k >= len(s) || s[k] != ':' {
		return false
	}
	words := strings.Fields(s[k+1 : lineEndAt(s, k)])
	if len(words) < 2 {
		return false
	}
	first := strings.TrimRight(words[0], ",.;:")
	if len(first) > 1 && strings.IndexByte("%#@", first[0]) >= 0 {
		first = first[1:] // gtk-doc's references: %TRUE, #GKey, @other
	}
	for i := 0; i < len(first); i++ {
		if !isLetter(first[i]) && first[i] != '-' && first[i] != '\'' {
			return false
		}
	}
	return len(first) >= 2 && !strings.HasPrefix(first, "-")
}

// secretNamePair reports a value of two names joined by a slash, each naming a secret
// (privateKey/passphrase, token/secret): the fields of a pair, no credential.
func secretNamePair(v string) bool {
	a, b, ok := strings.Cut(strings.TrimRight(v, ".,;:"), "/")
	return ok && identifierWords(a) && identifierWords(b) && nameHasSecretWord(a) && nameHasSecretWord(b)
}

// idPairAccount reports a documentation form's match whose account, the word before the
// password, is no function word of a sentence (login/password was specified), nor a long
// noun before a participle (username/password authentication failed; admin/changed is a pair).
func idPairAccount(m string) bool {
	end := len(m)
	for end > 0 && strings.IndexByte(" :(/\"',", m[end-1]) < 0 {
		end--
	}
	for end > 0 && strings.IndexByte(" :(/\"',", m[end-1]) >= 0 {
		end--
	}
	start := end
	for start > 0 && strings.IndexByte(" :(/\"',=)", m[start-1]) < 0 {
		start--
	}
	account, v := m[start:end], strings.TrimLeft(m[end:], " :(/\"',")
	if lowerWord(account) && len(account) >= 8 && lowerWord(v) && strings.HasSuffix(v, "ed") {
		return false // "authentication failed": a noun and a participle, not an account's pair
	}
	if a := strings.TrimSuffix(account, "."); a != account && lowerWord(a) && v != "" && isUpperByte(v[0]) && isLetters(v) {
		return false // "username/password credentials. Check out …": a sentence ends, the next opens
	}
	return !functionWords[strings.ToLower(account)]
}

// logMethods are the names structured loggers log a message and key-value pairs under
// (log/slog, zap's sugared logger, klog, logr, go-kit, zerolog's Msg aside), lower-cased,
// without the Context, S or w that some add.
var logMethods = map[string]bool{
	"error": true, "info": true, "warn": true, "warning": true, "debug": true, "trace": true,
	"fatal": true, "panic": true, "log": true, "logattrs": true, "notice": true, "critical": true,
}

// logMessageKey reports a literal that is the key of a structured log call's first pair after
// a message that ends in a credential's word: logger.Error("failed to create password",
// "err", err), klog.InfoS("token refreshed", "user", name). The message holds a blank before
// the name, the next literal is a key of code's spelling, and an expression follows it.
func logMessageKey(s string, nameStart, nameEnd, vs, ve int) bool {
	if nameEnd >= len(s) || s[nameEnd] != '"' || ve >= len(s) || s[ve] != '"' || ve-vs > 32 || ve == vs {
		return false
	}
	for i := vs; i < ve; i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || i > vs && (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-')) {
			return false
		}
	}
	if j := skipBlanks(s, ve+1, 2); j >= len(s) || s[j] != ',' {
		return false
	} else if j = skipBlanks(s, j+1, 2); j >= len(s) || !(isWordByte(s[j]) || s[j] == '&' || s[j] == '*') {
		return false // "err", err: the pair's value an expression
	}
	q := lineQuoteBefore(s, nameStart)
	if q < 0 || !strings.ContainsAny(s[q+1:nameStart], " \t") {
		return false
	}
	// The call the message opens: its ( the nearest left open before the message's quote.
	m, dotted, ok := enclosingCall(s, q, 400)
	if !ok || !dotted {
		return false
	}
	m = strings.ToLower(m)
	for _, suffix := range []string{"context", "ctx", "s", "w"} {
		if t, ok := strings.CutSuffix(m, suffix); ok && logMethods[t] {
			m = t
			break
		}
	}
	return logMethods[m]
}

// enclosingCall returns the name before the nearest ( left open before i on i's line, within
// limit bytes, and whether a dot comes before the name (a method's); ok is false when a
// quote comes first (another literal before it) or no call is open.
func enclosingCall(s string, i, limit int) (name string, dotted, ok bool) {
	depth := 0
	for j := i - 1; j >= 0 && s[j] != '\n' && i-j < limit; j-- {
		switch s[j] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			k := j
			for k > 0 && isWordByte(s[k-1]) {
				k--
			}
			return s[k:j], k > 0 && s[k-1] == '.', true
		case '"', '\'':
			return "", false, false
		}
	}
	return "", false, false
}

// translatedPhrase reports a value of words under a key that is itself a phrase, both
// opening with a capital: a message catalog's entry ("There was an issue resetting the
// password": "Det oppstod et problem under tilbakestilling av passordet", "Incorrect
// password": "Palavra-passe incorreta"). A key of words in code's configuration is rare
// outside a catalog; a passphrase under one would be lower-case words, and is kept masked.
func translatedPhrase(s string, vs int, v string) bool {
	if vs < 1 || s[vs-1] != '"' {
		return false
	}
	words := strings.Fields(v)
	if len(words) < 2 || len(v) > 400 || strings.ContainsAny(v, "0123456789") {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(v); !unicode.IsUpper(r) && len(words) < 4 {
		return false // (‘n Fout het voorgekom…: four words or more need no capital)
	}
	plain := 0
	for _, w := range words {
		if t := strings.Trim(w, `.,;:!?()-‘’`); t != "" && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' }) < 0 {
			plain++
		}
	}
	if plain < len(words) {
		return false
	}
	// The key: "…": right before the value's quote, on the same line.
	j := vs - 2
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	if j < 1 || s[j] != ':' {
		return false
	}
	j--
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	if j < 1 || s[j] != '"' {
		return false
	}
	open := lineQuoteBefore(s, j)
	if open < 0 {
		return false
	}
	key := s[open+1 : j]
	return strings.Count(key, " ") >= 1 && len(key) > 0 && isUpperByte(key[0]) && !strings.ContainsAny(key, "_=/\\")
}

// typedGetterKey reports a literal that is the key a typed getter reads, the last argument of
// a call named Get<Type> (cobra's and viper's GetString, flagx.MustGetString(cmd,
// "client-secret"), GetBool, GetDuration…): a flag's or a setting's name, not its value. A
// bare get("token", "x") is left alone: its second argument is a default.
func typedGetterKey(s string, fs, fe int) bool {
	if fs < 2 || fe >= len(s) || s[fe] != s[fs-1] || s[fe] != '"' && s[fe] != '\'' || !strings.HasPrefix(strings.TrimLeft(s[fe+1:], " \t"), ")") {
		return false
	}
	name, _, ok := enclosingCall(s, fs-1, 200)
	t, get := strings.CutPrefix(strings.TrimPrefix(name, "Must"), "Get")
	return ok && get && t != "" && isUpperByte(t[0]) && isLetters(t) && !strings.EqualFold(t, "env")
}

// prefixLiteral reports a short literal of lower-case letters and underscores that ends in
// one: a token's prefix (strings.TrimPrefix(token, "ory_at_"), "ghp_"), which no secret is.
func prefixLiteral(v string) bool {
	if len(v) < 3 || len(v) > 16 || v[len(v)-1] != '_' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !(v[i] >= 'a' && v[i] <= 'z' || v[i] == '_') {
			return false
		}
	}
	return true
}

// catalogEntry reports a single capitalised word or short phrase of letters under a
// capitalised key, in a text where three lines or more pair phrases with phrases: a message
// catalog's entry ("Secret": "Skrivnost", "One-Time Password": "Engangspassord"), where the
// value is the key's word in another language.
func catalogEntry(s string, vs, ve int) bool {
	v := s[vs:ve]
	if vs < 1 || s[vs-1] != '"' || len(v) < 2 || len(v) > 60 || strings.ContainsAny(v, "0123456789_") {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(v); !unicode.IsUpper(r) {
		return false
	}
	if strings.IndexFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '\'' }) >= 0 {
		return false
	}
	if vs < 5 || s[vs-4:vs] != "\": \"" {
		return false
	}
	j := vs - 4
	open := lineQuoteBefore(s, j)
	if open < 0 || open+1 >= j || !isUpperByte(s[open+1]) {
		return false
	}
	phrases := 0
	for line := range strings.SplitSeq(s[max(0, vs-2000):min(len(s), ve+2000)], "\n") { // the entries around it
		t := strings.TrimSpace(line)
		k, val, ok := strings.Cut(t, "\": \"")
		if ok && strings.HasPrefix(k, "\"") && strings.Contains(k, " ") && strings.Contains(strings.TrimRight(val, "\","), " ") {
			if phrases++; phrases >= 3 {
				return true
			}
		}
	}
	return false
}

// phraseThenWord reports a name that ends a quoted phrase of three words or more and a
// lower-case English word as the next argument: doGetEmailNodeID(t, "[Authelia] Reset your
// password", "link"), a subject and what to look for in it, no password and its value.
func phraseThenWord(s string, nameStart, nameEnd int, v string) bool {
	if nameEnd >= len(s) || s[nameEnd] != '"' || len(v) > 12 || !isLetters(v) || strings.ToLower(v) != v || !dictWord(v) {
		return false
	}
	q := lineQuoteBefore(s, nameStart)
	return q >= 0 && strings.Count(strings.TrimSpace(s[q+1:nameStart]), " ") >= 1
}

// lineQuoteBefore returns the index of the last double quote before i on i's line, within 512
// bytes (a minified line may be long), or -1.
func lineQuoteBefore(s string, i int) int {
	ls := max(0, i-512)
	ls += strings.LastIndexByte(s[ls:i], '\n') + 1
	if q := strings.LastIndexByte(s[ls:i], '"'); q >= 0 {
		return ls + q
	}
	return -1
}

// nameTailEcho reports a value of letters that spells the name's last two parts or more
// (ActionResetPassword = "ResetPassword", resourceRefreshToken = "refreshtokens"): what the
// constant is called in the protocol or the API it names, not a secret.
func nameTailEcho(name, v string) bool {
	v = strings.Trim(v, "\"'`")
	if len(v) < 6 || !isLetters(v) {
		return false
	}
	parts := nameParts(name)
	l := strings.ToLower(v)
	for i := 1; i+2 <= len(parts); i++ {
		tail := strings.Join(parts[i:], "")
		if l == tail || l == tail+"s" {
			return true
		}
	}
	return false
}

// titleWord reports an English word written with a capital first (Required, Alternative).
func titleWord(v string) bool {
	return len(v) >= 4 && isUpperByte(v[0]) && isLetters(v) && strings.ToLower(v[1:]) == v[1:] && dictWord(strings.ToLower(v))
}

// functionWordNext reports a blank and a function word right after s[:ve] (Alternative to …).
func functionWordNext(s string, ve int) bool {
	rest := s[ve:min(len(s), ve+16)]
	if !strings.HasPrefix(rest, " ") {
		return false
	}
	f := strings.Fields(rest)
	return len(f) > 0 && functionWords[strings.ToLower(f[0])]
}

// describingWords reports three words or more that open with a capitalised English word and
// hold a function word (Required for LLM-based reviews, Used to sign the session cookie): a
// description of what a variable is for.
func describingWords(v string) bool {
	words := strings.Fields(v)
	if len(words) < 3 || len(words[0]) < 3 || !isUpperByte(words[0][0]) || !isLetters(words[0]) || strings.ToLower(words[0][1:]) != words[0][1:] {
		return false
	}
	for _, w := range words[1:] {
		if functionWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// hyphenCompound reports an English compound of two or three parts joined by hyphens, one of
// them a lower-case word (PEM-encoded, base64-encoded, read-only): letters only.
func hyphenCompound(v string) bool {
	parts := strings.Split(v, "-")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	word := false
	for _, p := range parts {
		if p == "" || !isLetters(p) {
			return false
		}
		word = word || len(p) >= 4 && strings.ToLower(p) == p && dictWord(p)
	}
	return word
}

// describesSecret reports a phrase of four lower-case words or more, one of them a function
// word and one the name's word for a secret (newHelpTopic("hash-password", "help topic for
// hashing passwords"), SECRET_KEY="a random key to use"): what the named thing is about, or
// what to put there, in words.
func describesSecret(name, v string) bool {
	words := strings.Fields(v)
	if len(words) < 4 || !lowerCaseWords(v) {
		return false
	}
	fn, secret := false, false
	for _, w := range words {
		fn = fn || functionWords[w]
		secret = secret || strings.HasPrefix(w, "password") || strings.HasPrefix(w, "secret") || strings.HasPrefix(w, "token") || strings.HasPrefix(w, "credential") || w == "key" || w == "keys"
	}
	return fn && secret && nameHasSecretWord(name)
}

// scopeList reports OAuth scopes set apart by blanks, each of lower-case words joined by a dot
// or a colon (calendar.read calendar.write, read:user): what a token is asked for.
func scopeList(v string) bool {
	if v == "" || len(v) > 200 {
		return false
	}
	for _, s := range strings.Split(v, " ") {
		sep := strings.IndexAny(s, ".:")
		if sep <= 0 || sep == len(s)-1 {
			return false
		}
		for i := 0; i < len(s); i++ {
			if !isLowerByte(s[i]) && s[i] != '.' && s[i] != ':' && s[i] != '_' {
				return false
			}
		}
	}
	return true
}

// tupleRow reports a quoted name that opens a tuple standing alone on its line or after
// another in a list ([("ANTHROPIC_API_KEY", "sonnet"), …]): a table's row pairing a variable's
// name with what it selects, where a call would have its name before the parenthesis. (Taken
// with a lower-case word under a key's or a token's name, which a generated key is not; a
// password's row, ("password", "hunter"), stays masked.)
func tupleRow(s string, nameStart int) bool {
	j := nameStart - 1 // the name's opening quote
	if j < 1 || s[j] != '"' && s[j] != '\'' || s[j-1] != '(' {
		return false
	}
	k := j - 2
	for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
		k--
	}
	return k < 0 || s[k] == '\n' || s[k] == ',' || s[k] == '['
}
