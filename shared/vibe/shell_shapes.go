package vibe

import "strings"

// Shapes of shell scripts and of zsh's completion functions that name a credential and
// hold none.

// shellLine returns the bounds of the line of s holding position p.
func shellLine(s string, p int) (int, int) {
	ls := strings.LastIndexByte(s[:p], '\n') + 1
	le := strings.IndexByte(s[p:], '\n')
	if le < 0 {
		return ls, len(s)
	}
	return ls, p + le
}

// shellQuoted returns the bounds of the quoted string of line holding position p (quotes
// excluded), read with the shell's rules: a backslash escapes outside single quotes, none
// inside them; a quote left open runs to the line's end. ok is false when p is outside
// every quoted string.
func shellQuoted(line string, p int) (int, int, bool) {
	var q byte
	open := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q == 0 && c == '\\':
			i++
		case q == 0 && (c == '\'' || c == '"'):
			if i >= p {
				return 0, 0, false
			}
			q, open = c, i+1
		case q == '"' && c == '\\':
			i++
		case q != 0 && c == q:
			if p >= open && p < i {
				return open, i, true
			}
			q = 0
		}
	}
	if q != 0 && p >= open {
		// Literals split over lines are read joined (split.go), with no closing quote left.
		return open, len(line), true
	}
	return 0, 0, false
}

// zshCompletionCalls are zsh's completion functions whose arguments are option specs,
// messages and tags: text about the options a command takes, never their values.
var zshCompletionCalls = map[string]bool{"_arguments": true, "_message": true, "_wanted": true, "_describe": true,
	"_values": true, "_alternative": true, "_description": true, "_regex_arguments": true}

// zshSpecAt reports a position of s inside an option spec of zsh's completion system:
// '-p+[specify password]:password:', '(-w --password)'{-w,--password=}'[password]:password',
// '--webdav-pass[password]:string', "1:password", '--waitforlock:count:', or an argument of
// _arguments, _message or _wanted (_message -e passwords 'proxy password'). A spec names an
// option, describes it in brackets and gives a message and an action after colons (_files,
// ->state, (a b)); a credential's value has none of that grammar (--password='S3cr3t!pw'
// opens no bracket and no message), so it is left to the other rules.
func zshSpecAt(s string, p int) bool {
	ls, le := shellLine(s, p)
	line := s[ls:le]
	if w := strings.Fields(line); len(w) > 0 && zshCompletionCalls[w[0]] && p-ls > strings.Index(line, w[0]) {
		return true
	}
	if specDescribed(line, p-ls) {
		return true
	}
	qs, qe, ok := shellQuoted(line, p-ls)
	if !ok {
		// {-p+,--password=}'[…]:…': the option's spellings in a brace list before its spec.
		b := strings.LastIndexByte(line[:p-ls], '{')
		e := strings.IndexByte(line[p-ls:], '}')
		if b < 0 || e < 0 || strings.ContainsAny(line[b+1:p-ls+e], " \t'\"") {
			return false
		}
		e += p - ls
		return e+2 < len(line) && (line[e+1] == '\'' || line[e+1] == '"') && line[e+2] == '['
	}
	var before byte
	if qs > 1 {
		before = line[qs-2]
	}
	after := byte(0)
	if qe+1 < len(line) {
		after = line[qe+1]
	}
	return zshSpec(line[qs:qe], before, after)
}

// zshSpec reports a quoted string that is one of zsh's option specs, before and after being
// the bytes around its quotes.
func zshSpec(c string, before, after byte) bool {
	i := 0
	if strings.HasPrefix(c, "(") {
		j := strings.IndexByte(c, ')')
		if j < 0 {
			return false
		}
		if j == len(c)-1 {
			// '(-w --password)'{-w,--password=}: the options a spec excludes, before it.
			return after == '{' || after == '-' || after == '*'
		}
		i = j + 1
	}
	if i < len(c) && c[i] == '*' {
		i++
	}
	named := false
	if i < len(c) && (c[i] == '-' || c[i] == '+') || before == '}' || before == '-' {
		// -{,-}'password=:password:': the dashes may stand before the quote.
		for i < len(c) && (isNameByte(c[i]) || c[i] == '+') {
			i++
		}
		named = true
		for k := 0; k < 2 && i < len(c) && (c[i] == '=' || c[i] == '+' || c[i] == '-'); k++ {
			i++ // -I+, --file=, -fdisable--pass=-: how the argument follows
		}
	} else if i < len(c) && isDigitByte(c[i]) {
		// "1:password": a positional argument's message.
		for i < len(c) && isDigitByte(c[i]) {
			i++
		}
		return i < len(c) && c[i] == ':' && zshMessage(c[i+1:])
	}
	if i < len(c) && c[i] == '[' {
		j := strings.IndexByte(c[i:], ']')
		if j < 0 {
			return false
		}
		i += j + 1
		// A message after a colon, or the next spec, read joined with this one (split.go).
		return i == len(c) || strings.IndexByte(":-+(*{ \t", c[i]) >= 0
	}
	if i < len(c) && c[i] == ':' && (named || i > 0 && c[i-1] == '*') {
		return zshMessage(c[i+1:])
	}
	return describedAction(c)
}

// describedAction reports an entry of a completion table: a description of words, a
// message, then an action, a completion function or a state (imap.pass:'password git
// imap-send should use when logging in:password:->string', 'users:login
// name:_combination -s …'). A field of prose and an action after a colon are no
// credential's.
func describedAction(c string) bool {
	fields := strings.Split(c, ":")
	prose := false
	for k, f := range fields {
		if k > 0 && (strings.HasPrefix(f, "->") && len(f) > 2 || len(f) > 1 && f[0] == '_' && isLetter(f[1])) {
			return prose
		}
		if strings.Count(strings.TrimSpace(f), " ") > 0 && zshMessage(f) {
			prose = true
		}
	}
	return false
}

// zshMessage reports the rest of a spec after its first colon: a message of words, then
// an action or nothing (password:, :arg:->args, secret key:_files).
func zshMessage(r string) bool {
	r = strings.TrimPrefix(r, ":")
	msg, action, _ := strings.Cut(r, ":")
	for i := 0; i < len(msg); i++ {
		if !isLetter(msg[i]) && strings.IndexByte(" -_()/.,'", msg[i]) < 0 {
			return false
		}
	}
	switch {
	case action == "" || action == " " || strings.HasPrefix(action, "_") || strings.HasPrefix(action, "->") || strings.HasPrefix(action, "(") || strings.HasPrefix(action, "{"),
		strings.HasPrefix(action, "-"): // the next spec, read joined with this one (split.go)
		return true
	}
	return false
}

// shellNoSecret reports a keyword-assignment candidate, its name at s[nameStart:nameEnd],
// that a shape of shell holds no value for.
func shellNoSecret(s string, nameStart, nameEnd int) bool {
	if zshSpecAt(s, nameStart) {
		return true
	}
	// imap.pass:'password git imap-send should use:password:->string': a table's entry.
	return nameEnd+2 < len(s) && s[nameEnd] == ':' && (s[nameEnd+1] == '\'' || s[nameEnd+1] == '"') && zshSpecAt(s, nameEnd+2)
}

// shellPasswordRules are the rules of a password's or a flag's place in a command, which a
// shell shape can rule out; the formats of tokens are not among them.
var shellPasswordRules = map[string]bool{ruleCLIFlag: true, ruleCLILogin: true, ruleIDPassword: true, ruleConnString: true,
	ruleSecretHeader: true, ruleNetrc: true}

// shellRuleNoSecret reports a match of rule id, opening at s[m0] with its secret at
// s[start:end], that a shape of shell holds no secret for.
func shellRuleNoSecret(id, s string, m0, start, end int) bool {
	if !shellPasswordRules[id] {
		return false
	}
	return zshSpecAt(s, start)
}

// specDescribed reports a position of line inside a spec's description or its message:
// after -name[ with no ] between, or after -name[…]: with only a message's words between
// (--ftp-pass[specify FTP password]:password). Read without the quotes, which a spec split
// over lines loses when it is read joined (split.go).
func specDescribed(line string, p int) bool {
	if p < len(line) && (line[p] == '-' || line[p] == '+') && (p == 0 || strings.IndexByte("'\"}) *\t]", line[p-1]) >= 0) {
		// --jottacloud-pass[password]:string: the option a spec describes.
		i := p + 1
		for i < len(line) && isNameByte(line[i]) {
			i++
		}
		for n := 0; n < 2 && i < len(line) && strings.IndexByte("=+-", line[i]) >= 0; n++ {
			i++
		}
		if i < len(line) && line[i] == '[' && strings.IndexByte(line[i:], ']') > 1 {
			return true
		}
	}
	j := strings.LastIndexByte(line[:p], '[')
	if j < 0 {
		return false
	}
	if k := strings.IndexByte(line[j:p], ']'); k >= 0 {
		k += j
		if k+1 >= len(line) || line[k+1] != ':' {
			return false
		}
		for i := k + 2; i < p; i++ {
			if !isLetter(line[i]) && strings.IndexByte(" -_", line[i]) < 0 {
				return false
			}
		}
	}
	i := j
	for n := 0; n < 2 && i > 0 && strings.IndexByte("=+-", line[i-1]) >= 0; n++ {
		i--
	}
	e := i
	for i > 0 && (isNameByte(line[i-1]) || line[i-1] == '+') {
		i--
	}
	if i < e && strings.Contains(line[i:e], "--") {
		return true // :client ID--dropbox-client-secret[…]: a message glued to the next option
	}
	if i == e || line[i] != '-' && line[i] != '+' {
		return false
	}
	return i == 0 || strings.IndexByte("'\"}) *\t]:", line[i-1]) >= 0
}
