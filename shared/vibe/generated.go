package vibe

import (
	"regexp"
	"slices"
	"strings"
)

// Secrets a command has just made. Asked for a session secret or a signing key, a streamer
// or an agent runs openssl rand, Python's secrets module, /dev/urandom through an encoder,
// pwgen or a framework's generator (rails secret, mix phx.gen.secret, php artisan
// key:generate --show), and the terminal prints the new credential. Printed alone it has no
// name around it, and as hex it looks like any digest, which the other rules leave alone; so
// the lines of lone tokens that follow such a command are masked: in the same text (a
// terminal transcript: the command, then its output), and at the opening of the texts the
// session sanitizes next (a tool call's result arrives in the event after its arguments).

// ruleGenerated names the output of a secret-generating command.
const ruleGenerated = "generated-secret"

// generatorHints gate generatorCommand: one of them is in every command it matches.
var generatorHints = []string{"rand", "secrets.token", "urandom", "pwgen", "secret", "key:generate", "gen-random"}

// generatorCommand is a command whose output is a new secret. uuidgen is not one: a UUID is
// an identifier far more often than a credential.
var generatorCommand = regexp.MustCompile(`(?i)\bopenssl\s+rand\b[^\n]*?(?:-hex|-base64)|` +
	`\bsecrets\.token_(?:hex|urlsafe|bytes)\b|` +
	`\b(?:SecureRandom|Random::Formatter)\.(?:hex|base64|urlsafe_base64|alphanumeric)\b|` +
	`\bcrypto\.randomBytes\(|\bos\.urandom\(|\bRandomNumberGenerator\b|` +
	`/dev/u?random\b[^\n]*\|\s*(?:base64|xxd|od|hexdump|tr|head)\b|` +
	`\btr\s+-dc\b[^\n]*/dev/u?random|` +
	`\bpwgen\b|\bgpg\s+--gen-random\b|` +
	`\brails\s+secret\b|\brake\s+secret\b|\bmix\s+phx\.gen\.secret\b|\bartisan\s+key:generate\b[^\n]*--show\b|` +
	`\bget_random_secret_key\(\)`)

// generatedToken is a line that holds one printed token and nothing else: hex, base64 (with
// artisan's base64: prefix), URL-safe base64 or a password pwgen makes.
var generatedToken = regexp.MustCompile(`^(?:base64:)?[A-Za-z0-9+/_=-]{16,512}$`)

// generatorPending is how many texts after a generating command may open with its output.
const generatorPending = 4

// commandGate finds generatorHints (group 1) and readerHints (group 2) in any case in one
// pass over a text.
var commandGate, commandGroups = func() (*acMatcher, []uint8) {
	hints := slices.Concat(generatorHints, readerHints)
	groups := make([]uint8, len(hints))
	for i := range hints {
		groups[i] = 1
		if i >= len(generatorHints) {
			groups[i] = 2
		}
	}
	return newACMatcher(hints), groups
}()

// commandHints reports whether text may hold a secret-generating command and a command
// reading a stored secret.
func commandHints(text string) (generator, reader bool) {
	g := commandGate.foldGroups(text, commandGroups, 3)
	return g&1 != 0, g&2 != 0
}

// hasGeneratorCommand reports whether text holds a secret-generating command.
func hasGeneratorCommand(text string) bool {
	g, _ := commandHints(text)
	return g && generatorCommand.MatchString(text)
}

// findGeneratedSecrets masks the lone-token lines that follow each generating command in
// text, and reports whether the text's last command's output may come in a later text (no
// output line followed it here).
func findGeneratedSecrets(text string, f *findings) (pending bool) {
	locs := generatorCommand.FindAllStringIndex(text, -1)
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if ls := strings.TrimLeft(text[strings.LastIndexByte(text[:loc[0]], '\n')+1:loc[0]], " \t"); strings.HasPrefix(ls, "#") || strings.HasPrefix(ls, "//") {
			continue // # node -e 'console.log(crypto.randomBytes(32)…)' in a .env.example: how to make one, not run
		}
		nl := strings.IndexByte(text[loc[1]:end], '\n')
		if nl < 0 {
			pending = true
			continue
		}
		from := loc[1] + nl + 1
		n := maskTokenLines(text, from, end, f)
		pending = n == 0 && strings.TrimSpace(text[from:end]) == ""
	}
	return pending
}

// maskTokenLines masks the run of lone-token lines opening text[from:end] (blank lines
// before the first are skipped) and returns how many it masked.
func maskTokenLines(text string, from, end int, f *findings) int {
	n := 0
	for from < end {
		nl := strings.IndexByte(text[from:end], '\n')
		lineEnd := end
		if nl >= 0 {
			lineEnd = from + nl
		}
		line := text[from:lineEnd]
		trimmed := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		switch {
		case trimmed == "" && n == 0:
		case generatedToken.MatchString(trimmed) && hasDigitAndLetter(trimmed):
			start := from + strings.Index(line, trimmed)
			f.addSpan(ruleGenerated, start, start+len(trimmed))
			n++
		default:
			return n
		}
		if nl < 0 {
			break
		}
		from = lineEnd + 1
	}
	return n
}

// Secrets a command read from where they are kept. A password manager, a keychain, a
// secrets service or a cloud CLI asked for one value prints it alone on the line after the
// command (pass show db/prod, security find-generic-password -w, op read, vault kv get
// -field=password, gcloud secrets versions access, aws ecr get-login-password): that line
// is the secret whatever its characters, a password of words too, so it is masked whole
// unless it is the tool's error.

// ruleStored names the output of a command that printed a stored secret.
const ruleStored = "stored-secret"

// readerHints gate readerCommand: one of them is in every command it matches.
var readerHints = []string{"pass show", "pass cat", "-password", "op read", "op item", "vault kv", "vault read", "get-secret-value",
	"secrets versions", "print-access-token", "print-identity-token", "keyvault secret", "get-access-token", "secrets get",
	"config:get", "bw get", "lpass", "secret-tool", "keyring get", "/run/secrets/", "jsonpath", "echo $", "echo \"$", "printenv "}

// readerCommand is a command whose output is a stored secret.
var readerCommand = regexp.MustCompile(`(?i)\b(?:go)?pass\s+(?:show|cat)\s+[^\s|;&]+[ \t]*(?:$|\n|\\n)|` +
	`\bsecurity\s+find-(?:generic|internet)-password\b[^\n]*\s-w\b|` +
	`\bop\s+read\s|\bop\s+item\s+get\b[^\n]*--fields?\b|` +
	`\bbw\s+get\s+(?:password|totp)\b|\blpass\s+show\b[^\n]*--password\b|` +
	`\bvault\s+(?:kv\s+get|read)\b[^\n]*-field[= ]|` +
	`\baws\s+secretsmanager\s+get-secret-value\b[^\n]*--output\s+text\b|\baws\s+ecr\s+get-login-password\b|` +
	`\bgcloud\s+secrets\s+versions\s+access\b|\bgcloud\s+auth\s+print-(?:access|identity)-token\b|` +
	`\baz\s+keyvault\s+secret\s+show\b[^\n]*(?:-o|--output)\s+tsv\b|\baz\s+account\s+get-access-token\b[^\n]*(?:-o|--output)\s+tsv\b|` +
	`\bdoppler\s+secrets\s+get\b[^\n]*--plain\b|\bheroku\s+config:get\b|` +
	`\bsecret-tool\s+lookup\b|\bkeyring\s+get\b|\bcat\s+/run/secrets/|` +
	`\bkubectl\s+get\s+secrets?\b[^\n]*jsonpath[^\n]*\.data\.[^\n]*|` +
	`\b(?:echo|printenv)\s+"?\$?\{?[A-Za-z_][A-Za-z0-9_]*\}?"?[ \t]*(?:$|\n|\\n)`)

// echoedVariable finds the variable an echo or printenv command prints, or "".
var echoedVariable = regexp.MustCompile(`\b(?:echo|printenv)\s+"?\$?\{?([A-Za-z_][A-Za-z0-9_]*)`)

// readerNoSecret reports a matched command that prints no secret: echo or printenv of a
// variable not named for one (echo $PATH, echo $TOKEN_FILE).
func readerNoSecret(cmd string) bool {
	m := echoedVariable.FindStringSubmatch(cmd)
	if m == nil || strings.Contains(cmd, "kubectl") {
		return false
	}
	return !nameHasSecretWord(m[1]) || metadataName(m[1])
}

// pipedOutput reports a command whose output a pipe on its line takes (aws ecr
// get-login-password | docker login --password-stdin …): the secret goes to the next
// command, and the next line is no output of it.
func pipedOutput(text string, end int) bool {
	line := text[end:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	for i := strings.IndexByte(line, '|'); i >= 0; i = strings.IndexByte(line, '|') {
		if i+1 >= len(line) || line[i+1] != '|' {
			return true
		}
		line = line[i+2:]
	}
	return false
}

// readerError opens a line a reading command prints instead of the secret.
var readerError = regexp.MustCompile(`(?i)^(?:error|fatal|usage|warning|gpg:|security:|\[error\]|an error occurred|no such|not found|permission denied|cat:|\(none\))`)

func hasReaderCommand(text string) bool {
	_, r := commandHints(text)
	return r && readerCommand.MatchString(text)
}

// findReadSecrets masks the line that follows each reading command in text, and reports
// whether the last command's output may come in a later text.
func findReadSecrets(text string, f *findings) (pending bool) {
	locs := readerCommand.FindAllStringIndex(text, -1)
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if commandSubstitution(text, loc[0]) {
			continue // a command substitution: what it prints is the value of a script's variable, not output
		}
		if readerNoSecret(text[loc[0]:loc[1]]) || pipedOutput(text, loc[1]) {
			continue
		}
		from := loc[1]
		if from > 0 && text[from-1] != '\n' {
			nl := strings.IndexByte(text[from:end], '\n')
			if nl < 0 {
				pending = true
				continue
			}
			if strings.HasSuffix(strings.TrimRight(text[from:from+nl], " \t\r"), "\\") {
				continue // aws ecr get-login-password … \ then | docker login …: the command goes on
			}
			from += nl + 1
		}
		pending = !maskReadLine(text, from, end, f) && strings.TrimSpace(text[from:end]) == ""
	}
	return pending
}

// commandSubstitution reports a command at text[at:] inside a command substitution on its
// line (TOKEN=$(op read …), KEY=`pass show x`): opened before it and closed after it. An
// opening that is never closed on the line is no substitution: what follows the line is the
// command's output.
func commandSubstitution(text string, at int) bool {
	ls := strings.LastIndexByte(text[:at], '\n') + 1
	le := strings.IndexByte(text[at:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += at
	}
	head, rest := text[ls:at], text[at:le]
	return strings.Contains(head, "$(") && strings.IndexByte(rest, ')') >= 0 || strings.IndexByte(head, '`') >= 0 && strings.IndexByte(rest, '`') >= 0
}

// maskReadLine masks the first non-blank line of text[from:end] unless it is an error, and
// reports whether it masked one.
func maskReadLine(text string, from, end int, f *findings) bool {
	skipped := false
	for from < end {
		lineEnd := end
		if nl := strings.IndexByte(text[from:end], '\n'); nl >= 0 {
			lineEnd = from + nl
		}
		line := text[from:lineEnd]
		trimmed := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if trimmed == "" {
			from = lineEnd + 1
			skipped = true
			continue
		}
		if skipped && strings.ContainsAny(trimmed, " \t") {
			// a command prints its value on the line after it; words after a blank line are
			// the next paragraph of a document (a chart's NOTES.txt), not the output
			return false
		}
		if len(trimmed) < 6 || len(trimmed) > 4096 || readerError.MatchString(trimmed) || strings.HasPrefix(trimmed, "[redacted") || scriptLine(trimmed) {
			return false
		}
		start := from + strings.Index(line, trimmed)
		f.addSpan(ruleStored, start, start+len(trimmed))
		return true
	}
	return false
}

// scriptLine reports a line that is the next command of a script or a session rather than a
// command's output: a prompt, a comment, or a command word and its arguments.
func scriptLine(line string) bool {
	if strings.HasPrefix(line, "$ ") || strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "> ") || strings.HasPrefix(line, "#!") ||
		strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "&& ") || strings.HasPrefix(line, "|| ") {
		return true
	}
	word, rest, ok := strings.Cut(line, " ")
	return ok && rest != "" && slices.Contains(scriptCommands, word)
}

// scriptCommands are the commands a script's next line most often opens with.
var scriptCommands = []string{
	"export", "exec", "echo", "printf", "cd", "ls", "cat", "set", "unset", "source", ".", "if", "for", "while", "then",
	"else", "fi", "done", "do", "sudo", "env", "eval", "git", "gh", "glab", "docker", "kubectl", "helm", "terraform", "vault",
	"aws", "gcloud", "az", "op", "pass", "bw", "security", "heroku", "doppler", "npm", "npx", "yarn", "pnpm", "make",
	"go", "python", "python3", "pip", "node", "curl", "wget", "ssh", "scp", "psql", "mysql", "redis-cli", "cp", "mv",
	"rm", "mkdir", "chmod", "chown", "sed", "grep", "awk", "jq", "tee", "kill", "systemctl", "service", "apt", "apt-get",
	"brew", "cargo", "mvn", "gradle", "./gradlew", "dotnet", "java", "ruby", "bundle", "rails", "php", "composer",
}

// generated masks what a secret-generating command printed, in this text or, when the
// command came in one of the last texts of the session, at the opening of this one.
func (ss *SessionSanitizer) generated(text string, f *findings) {
	if ss.takePending(&ss.genPending) && maskTokenLines(text, 0, len(text), f) > 0 {
		ss.setPending(&ss.genPending, 0)
	}
	if ss.takePending(&ss.readPending) && maskReadLine(text, 0, len(text), f) {
		ss.setPending(&ss.readPending, 0)
	}
	gen, read := commandHints(text)
	if gen && generatorCommand.MatchString(text) && findGeneratedSecrets(text, f) {
		ss.setPending(&ss.genPending, generatorPending)
	}
	if read && readerCommand.MatchString(text) && findReadSecrets(text, f) {
		ss.setPending(&ss.readPending, generatorPending)
	}
}

// takePending reports whether this text may open with a command's output that an earlier
// text's command left pending, counting it off.
func (ss *SessionSanitizer) takePending(n *int) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if *n <= 0 {
		return false
	}
	*n--
	return true
}

func (ss *SessionSanitizer) setPending(n *int, v int) {
	ss.mu.Lock()
	*n = v
	ss.mu.Unlock()
}
