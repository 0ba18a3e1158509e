package vibe

import (
	"regexp"
	"strings"
)

// keywordStems find candidate key names for the keyword-assignment rule; nameHasSecretWord
// then decides on the whole name.
var keywordStems = []string{"pass", "pasw", "pwd", "pw", "psw", "pssw", "secret", "token", "key", "cred", "dsn", "auth"}

// findKeywordAssignments is the keyword-assignment rule: NAME=value, NAME: value,
// "name": "value", name := "value", name => 'value', NAME "value", name: str = "value", and
// comparisons with a literal (apikey == "value", "value" != password), where the key name
// says secret. It is written out by hand because, as a regular expression, it cost more
// than every other rule together. It records each value that keepKeyword accepts.
func findKeywordAssignments(chunk, lower string, off int, f *findings) {
	for _, stem := range keywordStems {
		for from := 0; ; {
			i := strings.Index(lower[from:], stem)
			if i < 0 {
				break
			}
			i += from
			from = i + len(stem)
			nameStart, nameEnd := i, i+len(stem)
			for nameStart > 0 && i-nameStart < 60 && isNameByte(chunk[nameStart-1]) {
				nameStart--
			}
			for nameEnd < len(chunk) && nameEnd-i < 60 && isNameByte(chunk[nameEnd]) {
				nameEnd++
			}
			from = max(from, nameEnd)
			name := strings.Trim(chunk[nameStart:nameEnd], ".-")
			if !nameHasSecretWord(name) && !twoWordSecretName(chunk, nameStart, name) {
				if vs, ve, ok := assignedValue(chunk, nameEnd); ok && (keyLikeName(name) || credentialLikeName(name)) && randomValue(chunk[vs:ve]) {
					f.addSpan(ruleKeyword, off+vs, off+ve)
				}
				continue
			}
			vs, ve, ok := assignedValue(chunk, nameEnd)
			if !ok {
				vs, ve, ok = comparedLiteral(chunk, nameStart)
			}
			if !ok && (len(nameParts(name)) == 1 || name == strings.ToUpper(name)) {
				vs, ve, ok = literalArgument(chunk, nameEnd)
			}
			if !ok {
				continue
			}
			for ve > vs && chunk[ve-1] == '\\' {
				ve--
			}
			quoted := vs > 0 && (strings.IndexByte("\"'`", chunk[vs-1]) >= 0 || strings.HasSuffix(chunk[:vs], "&quot;"))
			if keepKeyword(name, chunk[vs:ve], quoted) {
				f.addSpan(ruleKeyword, off+vs, off+ve)
			} else if callLike.MatchString(chunk[vs:ve]) {
				if fs, fe, ok := fallbackLiteral(chunk, vs); ok {
					f.addSpan(ruleKeyword, off+fs, off+fe)
				}
			}
		}
	}
}

func isNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

// twoWordSecretName catches names written as two words, "Authentication key: …",
// "API key: …", "access token …": the stem's word alone (key) is not a secret word.
func twoWordSecretName(s string, nameStart int, name string) bool {
	n := strings.ToLower(name)
	if n != "key" && n != "token" && n != "secret" {
		return false
	}
	j := nameStart
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') && nameStart-j < 3 {
		j--
	}
	if j == nameStart {
		return false
	}
	k := j
	for k > 0 && isLetter(s[k-1]) && j-k < 20 {
		k--
	}
	switch strings.ToLower(s[k:j]) {
	case "api", "auth", "authentication", "access", "secret", "private", "license", "licence",
		"encryption", "master", "signing", "client", "bearer", "refresh", "session", "personal":
		return true
	}
	return false
}

// keyLikeName reports names with a key component (sort_key and the public-key words
// excepted): ANY_key=AIhq5Xyb1Gga9Q29, key_wrap = '…' hold a credential when the value is
// random.
func keyLikeName(name string) bool {
	parts := nameParts(name)
	has := false
	for _, p := range parts {
		switch p {
		case "key", "keys":
			has = true
		case "public", "pub", "primary", "foreign", "sort", "partition", "cache", "idempotency", "hash",
			"lookup", "unique", "map", "dict", "group", "row", "column", "index", "shortcut", "hot", "react",
			"i18n", "translation", "name", "id", "type", "path", "file", "session", "context", "ctx", "state", "event", "store", "storage", "query", "route", "cache_":
			return false
		}
	}
	return has
}

// fallbackLiteral finds the default of a secret read from the environment, on the rest of
// the line: getenv("NAME", "default"), os.environ.get("NAME") or "default", env.X || 'default',
// env.X ?? "default". Upper-case literals are variable names, not defaults.
func fallbackLiteral(s string, i int) (int, int, bool) {
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	line := s[i:end]
	for _, m := range fallbackRe.FindAllStringSubmatchIndex(line, -1) {
		v := line[m[4]:m[5]]
		if v == strings.ToUpper(v) && !hasDigitAndLetter(v) || placeholderValue(v) {
			continue
		}
		return i + m[4], i + m[5], true
	}
	return 0, 0, false
}

var fallbackRe = regexp.MustCompile(`(?:\bor|\|\||\?\?|,)\s*(["'])([^"'\n]{4,400})(["'])`)

// credentialLikeName reports names with a part that often names a credential without being
// one on its own (api_id, auth, client, access, session): held to a random value.
func credentialLikeName(name string) bool {
	for _, p := range nameParts(name) {
		switch p {
		case "api", "auth", "access", "client", "private", "signing", "salt", "nonce", "license", "hmac":
			return true
		}
		if strings.HasPrefix(p, "auth") && !strings.HasPrefix(p, "author") || strings.HasPrefix(p, "api") && !strings.HasPrefix(p, "apit") {
			return true
		}
	}
	return false
}

// literalArgument accepts `name, "literal"` (setopt(CURLOPT_PROXYPASSWORD, "…"),
// setProperty("password", "…")) and `name("literal")` (std::string secret("…")).
func literalArgument(s string, i int) (int, int, bool) {
	i = skipEscapedQuote(s, i, 0)
	i = skipBlanks(s, i, 2)
	if i >= len(s) || (s[i] != ',' && s[i] != '(') {
		return 0, 0, false
	}
	i = skipBlanks(s, i+1, 2)
	if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
		return 0, 0, false
	}
	return quotedLiteral(s, i)
}

// randomValue reports a value that looks generated: 12+ characters mixing letters and digits,
// changing character class often.
func randomValue(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	if len(v) < 8 || len(v) > 400 || placeholderValue(v) || isHex(v) || uuidRe.MatchString(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !tokenChar(v[i]) && strings.IndexByte("!@#$%^&*=", v[i]) < 0 {
			return false
		}
	}
	mixed := hasDigitAndLetter(v) || strings.ToLower(v) != v && strings.ToUpper(v) != v
	if len(v) < 12 {
		// Short values: upper and lower case and a digit or symbol, as passwords are made.
		return mixedClasses(v) && hasDigitAndLetter(v) && shannonEntropy(v) >= 2.8
	}
	if !mixed || shannonEntropy(v) < 3.3 {
		return false
	}
	return meanRunLength(v) < 3.2 || len(v) >= 24 && shannonEntropy(v) >= 4 && !strings.ContainsAny(v, "-_./")
}

// assignedValue parses `["']? ws? op ws? ["']? value` after a key name and returns the
// value's span. The operators are = := ::= ?= : => -> and, before a quoted literal, the
// comparisons == != === !==; a bare space before a quoted literal (NAME "value") and a type
// annotation (name: str = "value") are accepted too.
func assignedValue(s string, i int) (int, int, bool) {
	i = skipEscapedQuote(s, i, 0)
	if i < len(s) && s[i] == '[' { // secrete[] = "…", char secret[25] = "…"
		if j := strings.IndexByte(s[i:], ']'); j >= 0 && j < 12 {
			i += j + 1
		}
	}
	blank := i
	i = skipBlanks(s, i, 4)
	if i >= len(s) {
		return 0, 0, false
	}
	comparison := false
	switch {
	case strings.HasPrefix(s[i:], "::="):
		i += 3
	case strings.HasPrefix(s[i:], "===") || strings.HasPrefix(s[i:], "!=="):
		i, comparison = i+3, true
	case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!="):
		i, comparison = i+2, true
	case strings.HasPrefix(s[i:], "=&gt;"):
		i += 5
	case strings.HasPrefix(s[i:], "%3D") || strings.HasPrefix(s[i:], "%3d"):
		i += 3
	case strings.HasPrefix(s[i:], ":="), strings.HasPrefix(s[i:], "?="), strings.HasPrefix(s[i:], "=>"), strings.HasPrefix(s[i:], "->"), strings.HasPrefix(s[i:], "=~"):
		i += 2
	case s[i] == '=':
		i++
	case s[i] == ':':
		if i+1 < len(s) && s[i+1] == ':' {
			return 0, 0, false
		}
		i++
		// name: Type = "value"
		j := skipBlanks(s, i, 2)
		k := j
		for k < len(s) && (isWordByte(s[k]) || s[k] == '.' || s[k] == '[' || s[k] == ']' || s[k] == '|') && k-j < 30 {
			k++
		}
		if k > j {
			if m := skipBlanks(s, k, 2); m < len(s) && s[m] == '=' && (m+1 >= len(s) || s[m+1] != '=') {
				i = m + 1
			}
		}
	case (s[i] == '"' || s[i] == '\'') && i > blank:
		// NAME "value" (a macro, netrc-like): only a quoted literal.
		return quotedLiteral(s, i)
	case i > blank && macroLine(s, i):
		// %define token 4b9a…, #define PASSWORD x
		start := i
		for i < len(s) && !strings.ContainsRune(" \t\r\n\"'`", rune(s[i])) && i-start < 400 {
			i++
		}
		return start, i, i > start
	default:
		return 0, 0, false
	}
	i = skipBlanks(s, i, 4)
	i = skipEscapedQuote(s, i, 1)
	if i >= len(s) {
		return 0, 0, false
	}
	if i+1 < len(s) && (s[i] == '@' || s[i] == 'r' || s[i] == 'b' || s[i] == 'f') && (s[i+1] == '"' || s[i+1] == '\'') {
		i++ // @"…", r"…", b'…'
	}
	if strings.HasPrefix(s[i:], "&quot;") {
		end := strings.Index(s[i+6:], "&quot;")
		nl := strings.IndexByte(s[i+6:], '\n')
		if end > 0 && (nl < 0 || end < nl) {
			return i + 6, i + 6 + end, true
		}
	}
	if q := s[i]; q == '"' || q == '\'' || q == '`' {
		if vs, ve, ok := quotedLiteral(s, i); ok {
			return vs, ve, true
		}
		if comparison {
			return 0, 0, false
		}
		// An unterminated quote: a value continued on the next line.
		end := i + 1
		for end < len(s) && s[end] != '\n' && end-i < 400 {
			end++
		}
		for end > i+1 && (s[end-1] == '\\' || s[end-1] == ' ') {
			end--
		}
		start := i + 1
		for start < end && s[start] == q {
			start++ // ''' or """
		}
		return start, end, end-start >= 8 && !strings.ContainsAny(s[start:end], " \t")
	}
	if comparison {
		return 0, 0, false
	}
	start := i
	if lineStartName(s, start) {
		// A config line (YAML, INI, .env, properties): the value is the rest of the line.
		end := start
		for end < len(s) && s[end] != '\n' && end-start < 200 {
			end++
		}
		v := s[start:end]
		if c := strings.Index(v, " #"); c >= 0 {
			v = v[:c]
		}
		v = strings.TrimRight(v, " \t\r,;")
		if v != "" && strings.Count(v, " ") <= 5 && !strings.HasSuffix(v, ".") && !strings.HasSuffix(v, "{") && !strings.HasSuffix(v, "(") {
			v = trimUnbalancedQuote(v)
			return start, start + len(v), len(v) > 0
		}
	}
	for i < len(s) && i-start < 400 && !strings.ContainsRune(" \t\r\n\"'`,;<>&", rune(s[i])) {
		i++
	}
	// A closing bracket the value did not open belongs to the text around it: (pw:x1y2).
	for i > start && strings.IndexByte(")]}", s[i-1]) >= 0 && strings.Count(s[start:i], string(opening(s[i-1]))) < strings.Count(s[start:i], string(s[i-1])) {
		i--
	}
	return start, i, i > start
}

func opening(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// macroLine reports a line that opens with a macro definition keyword.
func macroLine(s string, i int) bool {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	head := strings.TrimLeft(s[ls:i], " \t")
	for _, p := range []string{"%define ", "%global ", "#define ", "define "} {
		if strings.HasPrefix(head, p) {
			return true
		}
	}
	return false
}

// lineStartName reports whether the value at i follows a key name that begins its line
// (after indentation, a list dash, export or set), as in a config file.
func lineStartName(s string, i int) bool {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	head := strings.TrimLeft(s[ls:i], " \t-")
	for _, p := range []string{"export ", "set ", "setx ", "ENV ", "$env:"} {
		head = strings.TrimPrefix(head, p)
	}
	// head is now `name<op>` with blanks: the name must be one word.
	// A shell assignment (NAME=value command …) has no blank before its =; an INI line
	// (name = value) does, a YAML line uses :.
	k := 0
	for k < len(head) && (isNameByte(head[k]) || head[k] == '[' || head[k] == ']') {
		k++
	}
	rest := strings.TrimRight(head[k:], " \t")
	switch strings.TrimLeft(rest, " \t") {
	case ":", ":=":
		return k > 0
	case "=":
		return k > 0 && rest != "="
	}
	return false
}

// trimUnbalancedQuote drops one trailing quote that has no opening partner.
func trimUnbalancedQuote(v string) string {
	if n := len(v); n > 1 {
		q := v[n-1]
		if (q == '"' || q == '\'' || q == '`') && strings.Count(v, string(q)) == 1 {
			return v[:n-1]
		}
	}
	return v
}

// quotedLiteral returns the contents of the quoted string opening at i, on one line.
func quotedLiteral(s string, i int) (int, int, bool) {
	q := s[i]
	end := strings.IndexByte(s[i+1:], q)
	nl := strings.IndexByte(s[i+1:], '\n')
	if end <= 0 || end > 400 || (nl >= 0 && nl < end) {
		return 0, 0, false
	}
	return i + 1, i + 1 + end, true
}

// comparedLiteral finds `"literal" == name` left of a name: the literal compared with a
// secret-named variable is the secret.
func comparedLiteral(s string, nameStart int) (int, int, bool) {
	j := nameStart
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && (s[k-1] == '=' || s[k-1] == '!') && j-k < 3 {
		k--
	}
	if j-k < 2 {
		return 0, 0, false
	}
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == 0 || (s[k-1] != '"' && s[k-1] != '\'') {
		return 0, 0, false
	}
	q := s[k-1]
	open := strings.LastIndexByte(s[:k-1], q)
	if open < 0 || k-1-open > 400 || strings.IndexByte(s[open:k-1], '\n') >= 0 || k-1-open < 1 {
		return 0, 0, false
	}
	return open + 1, k - 1, true
}

func skipBlanks(s string, i, limit int) int {
	for n := 0; i < len(s) && n < limit && (s[i] == ' ' || s[i] == '\t'); n++ {
		i++
	}
	return i
}

// skipEscapedQuote skips up to seven backslashes followed by a quote (a JSON-escaped
// quote); with minSlashes 0 a bare quote is skipped too.
func skipEscapedQuote(s string, i, minSlashes int) int {
	j := i
	for j < len(s) && j-i < 7 && s[j] == '\\' {
		j++
	}
	if j-i >= minSlashes && j < len(s) && (s[j] == '"' || s[j] == '\'') {
		return j + 1
	}
	return i
}
