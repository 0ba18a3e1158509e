package vibe

import (
	"regexp"
	"slices"
	"strings"
)

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
	if i < len(c) && c[i] == '[' && named {
		// A description belongs to the option named before it ('--ftp-pass[…]',
		// {-p+,--password=}'[…]'); a text opening with a bracket ("[DEBUG] client: …", a
		// log line's tag) names none.
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
	if programName(s, nameStart, nameEnd) {
		return true
	}
	if s[nameStart:nameEnd] == "wpa_passphrase" {
		return true // wpa_passphrase SSID PASSPHRASE: the command, its second argument the rule's
	}
	if aliasDefinition(s, nameStart, nameEnd) {
		return true // alias pw='plz watch': a command's short name, a command its value
	}
	if zshSpecAt(s, nameStart) || optionList(s, nameStart) || sudoersTag(s, nameStart, nameEnd) || substringExpansion(s, nameStart, nameEnd) || nsswitchEntry(s, nameStart, nameEnd) || debianArchQualifier(s, nameEnd) {
		return true
	}
	// imap.pass:'password git imap-send should use:password:->string': a table's entry.
	return nameEnd+2 < len(s) && s[nameEnd] == ':' && (s[nameEnd+1] == '\'' || s[nameEnd+1] == '"') && zshSpecAt(s, nameEnd+2)
}

// aliasDefinition reports a name that alias defines (alias pw='plz watch', alias -g
// wpwd=…, Set-Alias pw …): a command's short name, whose value is a command line.
func aliasDefinition(s string, nameStart, nameEnd int) bool {
	if nameEnd >= len(s) || s[nameEnd] != '=' && s[nameEnd] != ' ' {
		return false
	}
	ls, _ := shellLine(s, nameStart)
	w := strings.Fields(s[ls:nameStart])
	for len(w) > 1 && strings.HasPrefix(w[len(w)-1], "-") {
		w = w[:len(w)-1] // alias -g NAME=…
	}
	return len(w) > 0 && (w[len(w)-1] == "alias" || strings.EqualFold(w[len(w)-1], "set-alias"))
}

// promptEscapes reports a value that holds a shell prompt's escapes (zsh's %{…%} around
// colours, %~ and %c for the directory, bash's \w and \u@\h): a prompt, not a secret
// (local pwd='%{$fg[blue]%}%~%{$reset_color%}').
func promptEscapes(v string) bool {
	return strings.Contains(v, "%{") && strings.Contains(v, "%}") || strings.Contains(v, "$fg[") || strings.Contains(v, "$reset_color")
}

// sudoersTags are the tags a sudoers rule may put before its commands.
var sudoersTags = []string{"NOPASSWD", "PASSWD", "SETENV", "NOSETENV", "EXEC", "NOEXEC", "LOG_INPUT", "NOLOG_INPUT", "LOG_OUTPUT",
	"NOLOG_OUTPUT", "MAIL", "NOMAIL", "FOLLOW", "NOFOLLOW", "INTERCEPT", "NOINTERCEPT"}

// mysqlClient matches the MySQL and MariaDB clients (mysqladmin5 as MacPorts names it).
var mysqlClient = regexp.MustCompile(`\b(?:mysql|mysqladmin|mysqldump|mysqlshow|mysqlcheck|mysqlimport|mysqlslap|mariadb|mariadb-admin|mariadb-dump)\d*\b`)

// mysqlPrompt reports a value at s[start:] after a -p and a blank on a line that runs a MySQL
// client: those clients take the password glued to -p (-pSECRET); -p alone prompts for it,
// and the word after is the client's next argument.
func mysqlPrompt(s string, start int) bool {
	if start < 3 || s[start-3:start-1] != "-p" || s[start-1] != ' ' && s[start-1] != '\t' {
		return false
	}
	ls, _ := shellLine(s, start)
	return mysqlClient.MatchString(s[ls:start])
}

// debianArches are the architectures dpkg and apt qualify a package's name with.
var debianArches = []string{"amd64", "arm64", "i386", "armhf", "armel", "all", "any", "ppc64el", "s390x", "mips64el", "riscv64",
	"loong64", "x32", "powerpc", "ppc64", "sparc64", "alpha", "hppa", "m68k", "sh4", "ia64"}

// debianArchQualifier reports a name followed by :<architecture>, as dpkg, apt and dpkg -l
// print a package (Setting up libsecret-1-0:amd64 …, Unpacking passwd:amd64 …).
func debianArchQualifier(s string, nameEnd int) bool {
	if nameEnd >= len(s) || s[nameEnd] != ':' {
		return false
	}
	end := nameEnd + 1
	for end < len(s) && isAlnum(s[end]) {
		end++
	}
	return slices.Contains(debianArches, s[nameEnd+1:end]) && (end == len(s) || strings.IndexByte(" \t\r\n.,)", s[end]) >= 0)
}

// nsswitchSources are the services a line of /etc/nsswitch.conf looks a database up in.
var nsswitchSources = []string{"files", "compat", "systemd", "sss", "ldap", "nis", "nisplus", "db", "winbind", "mymachines",
	"resolve", "dns", "myhostname", "altfiles", "cache", "extrausers", "hesiod", "wins", "mdns4_minimal", "mdns4", "mdns"}

// nsswitchEntry reports the passwd:, shadow:, group: or gshadow: line of /etc/nsswitch.conf
// (passwd:  files systemd): the name of a database, then the services it is looked up in.
func nsswitchEntry(s string, nameStart, nameEnd int) bool {
	if !oneOfFold(s[nameStart:nameEnd], "passwd", "shadow", "gshadow", "group") || nameEnd >= len(s) || s[nameEnd] != ':' {
		return false
	}
	if ls := strings.LastIndexByte(s[:nameStart], '\n'); strings.TrimLeft(s[ls+1:nameStart], " \t") != "" {
		return false
	}
	line, _, _ := strings.Cut(s[nameEnd+1:], "\n")
	fields := strings.Fields(line)
	for _, f := range fields {
		if !slices.Contains(nsswitchSources, f) && !(strings.HasPrefix(f, "[") && strings.HasSuffix(f, "]")) {
			return false
		}
	}
	return len(fields) > 0
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
	if zshSpecAt(s, start) || optionList(s, start) || flagNoValue(s, m0, start, end) || passwdEntry(s, start) || patternValue(s, start) || commandWord(s, m0) == "ulimit" {
		return true
	}
	if s[start] == '`' {
		return true // PWD=`cd "$DIR";pwd`: a command's output, assigned when the line runs
	}
	if mysqlPrompt(s, start) {
		return true // mysqladmin -u root -p ping: -p alone asks for the password; ping is the command
	}
	// echo "root:$root_password" | chpasswd: the user's and the password's variables.
	v := s[start:end]
	if start > 0 && s[start-1] == '\'' {
		return false // single quotes expand nothing
	}
	return wholeExpansion(v[strings.IndexByte(v, ':')+1:])
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

// shellValue reports a keyword's value at s[vs:ve] that the shell computes when the line
// runs, so it holds no literal secret: a command substitution in backquotes after an
// assignment (LOGINPASS=`head -n1`, MOUNTPASS=`random_passphrase $KEYBYTES`), or a
// double-quoted value made of expansions in a frame of separators, paths, flags and words
// ("$KDUMP_SSH_USER@$KDUMP_SSH_TARGET", "$HOME/.ssh/$pm_k", "--private-key=$2",
// "$ENTRY_TOKEN_SEARCH Default"). Single quotes expand nothing, so 'abc$def' is left to the
// other rules, and so is a frame with a part a password has ("hunter2$x9", "$P-S3cr3t",
// "Tr0ub4dor&3$x"): a digit among letters outside a path, or a symbol.
func shellValue(s string, vs, ve int) bool {
	if vs < 2 || ve > len(s) || vs >= ve {
		return false
	}
	if patternValue(s, vs) {
		return true
	}
	if v := s[vs:ve]; len(v) > 4 && v[0] == '(' && v[len(v)-1] == ')' && s[vs-1] == '=' {
		if inner := strings.TrimLeft(v[1:], " \t\"'"); strings.HasPrefix(inner, "${") || strings.HasPrefix(inner, "$(") {
			return true // pwd=("${(s:/:)PWD/#$HOME/~}"): an array the shell makes of an expansion
		}
	}
	if v := s[vs:ve]; strings.HasSuffix(v, "/") && wholeExpansion(strings.TrimSuffix(v, "/")) && commandWord(s, vs) == "sed" {
		return true // sed "s/^api_key = .*/api_key = $API_KEY/": the replacement's variable
	}
	switch s[vs-1] {
	case ':':
		// ${PASSWORD_STORE_DIR:-$HOME/.password-store/}: a default made of expansions.
		v := s[vs:ve]
		ls, _ := shellLine(s, vs)
		return len(v) > 1 && (v[0] == '-' || v[0] == '=') && strings.Contains(s[max(ls, vs-64):vs], "${") && expandedFrame(strings.TrimRight(v[1:], "}"))
	case '`':
		return (s[vs-2] == '=' || sigilAssignment(s[:vs-1])) && (commandText(s[vs:ve]) && !generatedWord(s[vs:ve]) || filterPipeline(s[vs:ve]))
	case '"':
		// The shell assigns with no blank around = (KEY="…") or passes an argument; a
		// blank before the quote after = or : is another language's (key = "…", key: "…").
		b := strings.TrimRight(s[:vs-1], " \t")
		if len(b) < vs-1 && b != "" && strings.IndexByte("=:(,", b[len(b)-1]) >= 0 {
			return false
		}
		return expandedFrame(s[vs:ve])
	}
	return false
}

// sigilAssignment reports a head that ends with a $variable and = (my $pwd = , $out = ):
// Perl, PHP and Ruby, where a backquoted string is a command run, as in the shell (in
// JavaScript it is a template literal, and its name takes no sigil).
func sigilAssignment(head string) bool {
	b := strings.TrimRight(head, " \t")
	if !strings.HasSuffix(b, "=") || len(b) == len(head) {
		return false
	}
	b = strings.TrimRight(b[:len(b)-1], " \t")
	i := len(b)
	for i > 0 && isWordByte(b[i-1]) {
		i--
	}
	return i > 0 && i < len(b) && b[i-1] == '$'
}

// generatedWord reports a backquoted word no command is named: mixed cases with a digit
// (Xk9mQ2vLp7), or lower-case letters no language writes. Commands are words and
// abbreviations in lower case (pwgen, uuidgen, python3).
func generatedWord(v string) bool {
	if strings.ContainsAny(v, " \t/.") {
		return false
	}
	return mixedClasses(v) && hasDigitAndLetter(v) && len(v) >= 6 || unpronounceable(v)
}

// commandText reports the text of a command substitution: a command's name (head, pwd,
// /usr/bin/id, random_passphrase) and its arguments, with no quoted literal; not echo or
// printf, which would print a literal.
func commandText(v string) bool {
	if strings.IndexByte(v, '"') >= 0 {
		v = quotedVariable.ReplaceAllString(v, "x") // cd "$DIR";pwd: a variable quoted against its blanks
	}
	name, _, _ := strings.Cut(strings.TrimSpace(v), " ")
	name = name[strings.LastIndexByte(name, '/')+1:]
	if name == "" || !isLetter(name[0]) || strings.ContainsAny(v, "'\"\n") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isWordByte(name[i]) && name[i] != '-' && name[i] != '.' {
			return false
		}
	}
	return name != "echo" && name != "printf" && name != "print"
}

// quotedVariable matches a variable's expansion in double quotes ("$DIR", "${HOME}").
var quotedVariable = regexp.MustCompile(`"\$\{?[A-Za-z_]\w*\}?"`)

// shellExpansionEnd returns the end of the expansion opening v at i ($NAME, $1, $@,
// ${…}, $(…), `…`), or i when none opens there.
func shellExpansionEnd(v string, i int) int {
	if v[i] == '`' {
		if j := strings.IndexByte(v[i+1:], '`'); j >= 0 {
			return i + j + 2
		}
		return i
	}
	if v[i] != '$' || i+1 >= len(v) {
		return i
	}
	switch c := v[i+1]; {
	case c == '{' || c == '(':
		closing := byte('}')
		if c == '(' {
			closing = ')'
		}
		depth := 0
		for j := i + 1; j < len(v); j++ {
			switch v[j] {
			case c:
				depth++
			case closing:
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return i
	case isDigitByte(c) || strings.IndexByte("@*#?$!", c) >= 0:
		return i + 2
	case isLetter(c) || c == '_':
		j := i + 1
		for j < len(v) && isWordByte(v[j]) {
			j++
		}
		if name := v[i+1 : j]; name != strings.ToUpper(name) && name != strings.ToLower(name) && !wordedVariable(name) {
			return i // $g8Heax1fEG: a shell's variables are one case (HOME, pm_k) or words ($pfxPassword); this is text
		}
		return j
	}
	return i
}

// literalAfterExpansion reports a value that opens with a shell expansion and goes on with a
// literal of a password's make: eight characters or more past the separator, letters and
// digits in both cases or with a symbol, no path, host or placeholder
// (DB_PASSWORD="$DB_USER:Xk9mQ2vLp7wR", API_TOKEN="${PREFIX}-S3cr3tValue9"). The
// expansion is the value's head; the literal is the secret. "$HOME/.ssh/id", "${BASE}/v1" and
// "${APP}_cache" are frames, not this.
func literalAfterExpansion(v string) bool {
	if v[0] != '$' {
		return false
	}
	e := shellExpansionEnd(v, 0)
	if e == 0 || e >= len(v) {
		return false
	}
	tail := strings.TrimLeft(v[e:], ":-_@+=")
	if len(tail) < 8 || strings.ContainsAny(tail, "/.$ \t{}()<>`") || !hasDigitAndLetter(tail) {
		return false
	}
	upper, lower, symbol := false, false, false
	for i := 0; i < len(tail); i++ {
		switch c := tail[i]; {
		case isUpperByte(c):
			upper = true
		case isLowerByte(c):
			lower = true
		case !isDigitByte(c):
			symbol = true
		}
	}
	return (upper && lower || symbol) && !placeholderValue(tail)
}

// expandedFrame reports a double-quoted shell value with at least one expansion whose
// literal rest is a frame: separators, a path, flags, short or English words.
func expandedFrame(v string) bool {
	var rest strings.Builder
	n := 0
	for i := 0; i < len(v); {
		if e := shellExpansionEnd(v, i); e > i {
			n++
			rest.WriteByte(' ')
			i = e
			continue
		}
		rest.WriteByte(v[i])
		i++
	}
	r := rest.String()
	if n == 0 || len(strings.TrimSpace(r)) > 48 {
		return false
	}
	for i := 0; i < len(r); i++ {
		if !isLetter(r[i]) && !isDigitByte(r[i]) && strings.IndexByte(" \t/:@=,.-_+", r[i]) < 0 {
			return false // a symbol is a password's, not a frame's
		}
	}
	// A path frame is rooted at an expansion or at /: "$HOME/.ssh2/$pm_k".
	path := strings.Contains(r, "/") && (v[0] == '$' || v[0] == '/')
	for _, f := range strings.FieldsFunc(r, func(c rune) bool { return strings.ContainsRune(" \t/:@=,.-_+", c) }) {
		switch {
		case f != strings.ToLower(f) && f != strings.ToUpper(f) && !(isUpperByte(f[0]) && f[1:] == strings.ToLower(f[1:]) && dictWord(strings.ToLower(f))):
			return false // IjdJ, Zr: one case, or a capitalized word (Default)
		case path && len(f) <= 20 && (!hasDigitAndLetter(f) || len(f) <= 5), len(f) <= 4 && !hasDigitAndLetter(f), f == strings.ToUpper(f) && !hasDigitAndLetter(f) && len(f) <= 12, dictWord(strings.ToLower(f)):
		default:
			return false
		}
	}
	return true
}

// wholeExpansion reports a value that is one shell expansion and nothing else ($root_password,
// ${PASS}, $(cat /run/secrets/db)): a variable's or a command's, no literal.
func wholeExpansion(v string) bool {
	return v != "" && (v[0] == '$' || v[0] == '`') && shellExpansionEnd(v, 0) == len(v)
}

// optionList reports a position inside a list of long options as getopt takes them
// (-l arch:,auth-key:,clean,help; long_opts="arch:,auth-key:,name:"): names, each with
// the colons that say it takes an argument, joined by commas. No value is in it.
func optionList(s string, p int) bool {
	i, j := p, p
	for i > 0 && (isNameByte(s[i-1]) || s[i-1] == ':' || s[i-1] == ',') {
		i--
	}
	for j < len(s) && (isNameByte(s[j]) || s[j] == ':' || s[j] == ',') {
		j++
	}
	list := s[i:j]
	if strings.Count(list, ",") < 2 {
		return false
	}
	for _, o := range strings.Split(list, ",") {
		o = strings.TrimRight(o, ":")
		if o == "" || strings.Contains(o, ":") || !isLetter(o[0]) && o[0] != '-' {
			return false
		}
		for k := 0; k < len(o); k++ {
			if !isLetter(o[k]) && !isDigitByte(o[k]) && o[k] != '-' && o[k] != '_' {
				return false
			}
		}
	}
	return true
}

// sudoersTag reports the NOPASSWD: or PASSWD: tag of a sudoers rule (%wheel ALL=(ALL:ALL)
// NOPASSWD: ALL, echo 'deploy ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers, as Dockerfiles
// write): it says whether sudo asks for a password, and the commands follow it.
func sudoersTag(s string, nameStart, nameEnd int) bool {
	name := s[nameStart:nameEnd]
	if name != "NOPASSWD" && name != "PASSWD" || nameEnd >= len(s) || s[nameEnd] != ':' || nameStart == 0 || strings.IndexByte(" )=:", s[nameStart-1]) < 0 {
		return false
	}
	// The rule's user and hosts before it: deploy ALL=(ALL) NOPASSWD:, %sudo ALL=NOPASSWD:
	// (a YAML key PASSWD: opens its line).
	// After it, more tags (NOPASSWD:SETENV:), then the commands: ALL, a path, a negation or
	// an alias.
	ls, _ := shellLine(s, nameStart)
	cmd := strings.TrimLeft(s[nameEnd+1:], " \t")
	for {
		tag, rest, ok := strings.Cut(cmd, ":")
		if !ok || !slices.Contains(sudoersTags, tag) {
			break
		}
		cmd = strings.TrimLeft(rest, " \t")
	}
	// A document's rule may write all in lower case and its commands as words of its own
	// language (用户 别名(可用all)=NOPASSWD:命令1).
	return strings.Contains(strings.ToUpper(s[ls:nameStart]), "ALL") && strings.IndexByte(s[ls:nameStart], '=') >= 0 &&
		(strings.HasPrefix(cmd, "ALL") || strings.HasPrefix(cmd, "/") || strings.HasPrefix(cmd, "!") || cmd != "" && cmd[0] >= 0x80 || cmd != "" && isUpperByte(cmd[0]) && identifierWords(strings.Fields(cmd)[0]) && strings.Fields(cmd)[0] == strings.ToUpper(strings.Fields(cmd)[0]))
}

// flagNoValue reports a flag matched at s[m0:] with its value at s[start:end] where the
// value is none: the next option of a list (--token --registry, as completion scripts
// list a command's options), a file descriptor's number (--passphrase-fd 0), a case
// pattern's glob
// (--private-key=?*)), the prefix a parameter expansion strips (${1#--private-key=}), or
// a usage line's placeholder before its description (--private-key=file     read the
// private key from file, -S | --auth-key K  insert auth key 'K', --root_password  set
// container root password). A script's continuation line passing a value
// (  --password S3cr3tpw \) has no description after it, so it stays masked.
func flagNoValue(s string, m0, start, end int) bool {
	v := s[start:end]
	flag := strings.TrimRight(s[m0:start], " \t=\"',") // ['--passphrase-fd', '0']: a list's next item
	switch {
	case isDigits(v) && len(v) <= 2 && strings.HasSuffix(strings.ToLower(flag), "-fd"):
		return true
	case strings.Trim(v, "?*)") == "" && (strings.HasSuffix(v, ")") || end < len(s) && s[end] == ')'):
		return true
	case m0 > 1 && (s[m0-1] == '#' || s[m0-1] == '%') && strings.Contains(s[max(0, m0-12):m0], "${"):
		return true
	case optionWord(v) && start > 0 && (s[start-1] == ' ' || s[start-1] == '\t'):
		return true // compgen -W "--token --registry", opts="--access-key --os-user": the next option
	}
	ls, le := shellLine(s, m0)
	head := strings.TrimLeft(s[ls:m0], " \t")
	if head != "" && strings.Trim(head, "-, |") != "" && !(len(head) <= 6 && head[0] == '-') {
		return false // the flag opens the line, or follows its short form (-S, --auth-key)
	}
	gap := 0
	for k := start - 1; k > m0 && (s[k] == ' ' || s[k] == '\t'); k-- {
		gap++
	}
	metavar := v == strings.ToUpper(v) && !hasDigitAndLetter(v) || v == "file" || v == "path" || v == "name"
	if !metavar && gap < 2 {
		return false
	}
	rest := strings.TrimSpace(s[end:le])
	if metavar && (strings.HasPrefix(s[end:le], "  ") || strings.HasPrefix(s[end:le], "\t")) || gap >= 2 && lowerWord(v) {
		return prose(rest)
	}
	return metavar && len(v) > 2 && prose(rest)
}

// proseFunctionWords are words that follow an option's name in a sentence about it (-p is
// present, --token or --password, --password from …) and that no password is.
var proseFunctionWords = map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true,
	"or": true, "and": true, "from": true, "to": true, "the": true, "of": true, "for": true, "with": true,
	"in": true, "on": true, "by": true, "as": true, "if": true, "not": true, "only": true, "also": true,
	"can": true, "will": true, "may": true, "must": true, "should": true, "would": true, "could": true,
	"does": true, "has": true, "have": true, "which": true, "when": true, "then": true, "than": true,
	"but": true, "instead": true, "option": true, "flag": true, "argument": true, "parameter": true}

// flagInProse reports an option named in a sentence: a lower-case word before it on its line
// and, as its "value", a word a sentence goes on with (-u or -p is present), or a verb of
// prose that more words follow (but --password suffers from the same flaw).
func flagInProse(s string, m0, start, end int) bool {
	v := s[start:end]
	if !isLetters(v) || strings.ToLower(v) != v {
		return false
	}
	ls, le := shellLine(s, m0)
	before := strings.Fields(s[ls:m0])
	if len(before) == 0 {
		return false
	}
	prev := strings.TrimLeft(before[len(before)-1], "`(\"'")
	if !isLetters(prev) || strings.ToLower(prev) != prev || !dictWord(prev) && !proseFunctionWords[prev] {
		return false
	}
	if proseFunctionWords[v] {
		return true
	}
	after := strings.Fields(s[end:le])
	return len(v) >= 5 && strings.HasSuffix(v, "s") && dictWord(v) && len(after) >= 2 && proseFunctionWords[after[0]]
}

// prose reports a description: three or more words of letters, the first a word's.
func prose(r string) bool {
	words := strings.Fields(r)
	if len(words) < 3 || strings.HasSuffix(r, "\\") {
		return false
	}
	letters := 0
	for _, w := range words {
		if strings.Trim(w, ".,;:'\"()") != "" && identifierWords(strings.Trim(w, ".,;:'\"()")) {
			letters++
		}
	}
	return letters*4 >= len(words)*3 && isLetter(words[0][0])
}

// passwdEntry reports a line of /etc/passwd (root:*:0:0:root:/root:/bin/bash), or of
// /etc/shadow (root:*:20228:0:99999:7:::, nine fields): passwd's seven
// fields, the user's and group's ids in digits, a home and a shell. What follows the ids is
// a name and two paths, not the password a .pgpass line ends with; the password field of
// a passwd line is x or * (a real hash is the password-hash rule's).
func passwdEntry(s string, p int) bool {
	ls, le := shellLine(s, p)
	f := strings.Split(strings.TrimSpace(s[ls:le]), ":")
	if len(f) == 9 {
		// /etc/shadow: name, hash, then seven aging fields of digits or nothing (the hash is
		// the password-hash rule's; no field here is a .pgpass password)
		for _, a := range f[2:] {
			if a != "" && !isDigits(a) {
				return false
			}
		}
		return f[0] != "" && !strings.ContainsAny(f[0], " \t")
	}
	return len(f) == 7 && isDigits(f[2]) && isDigits(f[3]) && strings.HasPrefix(f[5], "/") && (f[6] == "" || strings.HasPrefix(f[6], "/"))
}

// substringExpansion reports ${name: -4}, ${name:2} or ${name:0:8}: the part of a variable
// an offset and a length pick, after the name's colon; no value is written there.
func substringExpansion(s string, nameStart, nameEnd int) bool {
	if nameStart < 2 || s[nameStart-2:nameStart] != "${" || nameEnd >= len(s) || s[nameEnd] != ':' {
		return false
	}
	i := nameEnd + 1
	if i < len(s) && s[i] == ' ' {
		i++
		if i < len(s) && s[i] == '-' {
			i++ // ${name: -4}: the blank keeps :- from being a default
		}
	}
	j := i
	for j < len(s) && isDigitByte(s[j]) {
		j++
	}
	return j > i && j < len(s) && (s[j] == '}' || s[j] == ':')
}

// regexOpenings open a regular expression's pattern, not a value.
var regexOpenings = []string{".*", ".+", "[^", "\\s", "\\S", "\\w", "[[:", "(.*", "\\(.*"}

// patternValue reports a value at s[vs:] that opens a regular expression, on a line that
// runs sed, grep, awk or perl or matches with =~ (sed -i 's/^password=.*/password=/',
// grep -E '^passwd:[^#]*\s(systemd)', [[ "$token" =~ [[:alnum:]] ]]): the keyword is in a
// pattern that finds a setting. The replacement of a substitution that writes a value
// (s/^password=.*/password=S3cr3tpw/) opens with no pattern, so it stays masked.
func patternValue(s string, vs int) bool {
	if vs >= len(s) {
		return false
	}
	opens := false
	for _, o := range regexOpenings {
		if strings.HasPrefix(s[vs:], o) {
			opens = true
			break
		}
	}
	if !opens {
		return false
	}
	ls, le := shellLine(s, vs)
	line := s[ls:le]
	if strings.Contains(line, "=~") {
		return true
	}
	for _, w := range strings.Fields(line) {
		switch strings.TrimLeft(w, "({`$") {
		case "sed", "grep", "egrep", "awk", "gawk", "perl", "rg":
			return true
		}
	}
	return false
}

// commandWord returns the first word of the line holding s[p].
func commandWord(s string, p int) string {
	ls, le := shellLine(s, p)
	if w := strings.Fields(s[ls:le]); len(w) > 0 {
		return w[0]
	}
	return ""
}

// programWords end a name that holds a program to run, not a credential.
var programWords = map[string]bool{"program": true, "prog": true, "cmd": true, "command": true, "bin": true, "binary": true,
	"exe": true, "executable": true, "tool": true}

// programName reports a name for a program (__grub_mkpasswd_pbkdf2_program, PASSWD_CMD)
// assigned the program's name, which spells the name's words again
// ("grub-mkpasswd-pbkdf2"), or its path (/usr/bin/pass). A value of its own under such a
// name (PASSWORD_CMD="Xk9mQ2vLp7wR") is left to the other rules.
func programName(s string, nameStart, nameEnd int) bool {
	parts := nameParts(strings.Trim(s[nameStart:nameEnd], "_"))
	if len(parts) < 2 || !programWords[parts[len(parts)-1]] || nameEnd+2 >= len(s) || s[nameEnd] != '=' {
		return false
	}
	vs := nameEnd + 1
	if s[vs] == '"' || s[vs] == '\'' {
		vs++
	}
	ve := vs
	for ve < len(s) && (isNameByte(s[ve]) || s[ve] == '/') {
		ve++
	}
	v := s[vs:ve]
	if v == "" || ve < len(s) && !strings.ContainsRune("\"' \t\n;", rune(s[ve])) {
		return false
	}
	if v[0] == '/' {
		return true
	}
	words := map[string]bool{}
	for _, p := range parts {
		words[p] = true
	}
	shared, own := 0, 0
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if words[strings.ToLower(f)] {
			shared++
		} else {
			own++
		}
	}
	return shared >= 1 && own < shared
}

// optionWord reports an option's name: a dash or two, then lower-case letters, digits and
// dashes (--registry, --os-user, -p). A value opening with a dash has an upper-case letter
// or a symbol in it (-Xk9mQ2vLp7wR), or is no value the shell would pass.
func optionWord(v string) bool {
	w := strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-")
	if len(w) == len(v) || w == "" || !(w[0] >= 'a' && w[0] <= 'z') {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !(w[i] >= 'a' && w[i] <= 'z') && !isDigitByte(w[i]) && w[i] != '-' && w[i] != '_' {
			return false
		}
	}
	return true
}

// wordedVariable reports a variable's name in mixed case made of words, without digits
// ($pfxPassword, $RequestDateOnly, $CONOHA_IdentityServiceApi): a script's variable, where a
// password that opens with $ mixes its cases at random.
func wordedVariable(name string) bool {
	if len(name) > 48 || strings.ContainsAny(name, "0123456789") {
		return false
	}
	word := false
	for _, p := range nameParts(name) {
		switch {
		case dictWord(p):
			word = true
		case len(p) > 4 && !vowelWord(p):
			return false
		}
	}
	return word
}

// expansionsOnly reports a value made of the shell's expansions and at most a few characters
// that are no letters between them ($GD_Key:$GD_Secret, \$1\$$_ovh_hex): what a script
// fills in when the line runs.
func expansionsOnly(v string) bool {
	n, other := 0, 0
	for i := 0; i < len(v); {
		if v[i] == '\\' && i+1 < len(v) && v[i+1] == '$' {
			other, i = other+2, i+2 // \$: a dollar sign itself
			continue
		}
		if e := shellExpansionEnd(v, i); e > i {
			n++
			i = e
			continue
		}
		if isLetter(v[i]) {
			return false
		}
		other++
		i++
	}
	return n > 0 && other <= 8
}
