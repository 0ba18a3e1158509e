package vibe

import (
	"regexp"
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

// hasGeneratorCommand reports whether text holds a secret-generating command.
func hasGeneratorCommand(text string) bool {
	lower := ""
	for _, h := range generatorHints {
		if lower == "" {
			lower = strings.ToLower(text)
		}
		if strings.Contains(lower, h) {
			return generatorCommand.MatchString(text)
		}
	}
	return false
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

// generated masks what a secret-generating command printed, in this text or, when the
// command came in one of the last texts of the session, at the opening of this one.
func (ss *SessionSanitizer) generated(text string, f *findings) {
	ss.mu.Lock()
	waiting := ss.genPending > 0
	if waiting {
		ss.genPending--
	}
	ss.mu.Unlock()
	if waiting && maskTokenLines(text, 0, len(text), f) > 0 {
		ss.setGenPending(0)
	}
	if hasGeneratorCommand(text) && findGeneratedSecrets(text, f) {
		ss.setGenPending(generatorPending)
	}
}

func (ss *SessionSanitizer) setGenPending(n int) {
	ss.mu.Lock()
	ss.genPending = n
	ss.mu.Unlock()
}
