package vibe

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Redacted replaces a whole text the sanitizer could not vouch for (it panicked, ran out of
// time or the text was too large).
const Redacted = "[redacted]"

// Sanitizer limits.
const (
	// MaxSanitizeInput is the largest text the sanitizer looks at; anything larger becomes
	// Redacted.
	MaxSanitizeInput = 256 << 10
	// DefaultSanitizeTimeout bounds the time spent on one event.
	DefaultSanitizeTimeout = 2 * time.Second

	maxSeenSecrets = 512 // per session
	minSeenSecret  = 10  // shorter secrets are masked where found, not remembered
)

// Hard caps on stored strings, in characters, well above every display limit.
const (
	capBody    = 8000 // prompt, response, thinking, tool previews, snippets
	capSummary = 1000
	capMessage = 2000
	capName    = 512 // file names and paths, tool names
	capIdent   = 256
)

// Sanitizer removes secrets, home directories and absolute paths from events. Build one per
// process with NewSanitizer (it compiles a few hundred rules) and one SessionSanitizer per
// publisher session. Both are safe for concurrent use.
type Sanitizer struct {
	gitleaks *gitleaksScanner
	timeout  time.Duration
	maxInput int
	hook     func(string) // test hook run on every text, to exercise the fail-closed paths
}

// NewSanitizer builds a Sanitizer from gitleaks' default rules (without its generic-api-key
// rule, replaced by a faster keyword rule here) plus the rules in this package.
func NewSanitizer() (*Sanitizer, error) {
	d, err := newGitleaksDetector(gitleaksGenericRule)
	if err != nil {
		return nil, fmt.Errorf("build secret detector: %w", err)
	}
	return &Sanitizer{gitleaks: newGitleaksScanner(d), timeout: DefaultSanitizeTimeout, maxInput: MaxSanitizeInput}, nil
}

// SessionHints describe the publisher's machine so paths can be made workspace-relative.
// WorkspaceRoots are absolute paths of the workspace when known; without them a path segment
// equal to WorkspaceName marks the workspace root. AccountName is the local account's name
// when the publisher knows it; it and the account of a root under a home directory are
// masked as [user] from the first event on.
type SessionHints struct {
	WorkspaceName  string
	MachineName    string
	WorkspaceRoots []string
	AccountName    string
}

// SessionSanitizer sanitizes the events of one publisher session. It remembers every secret
// it has found so that a secret seen once is masked by exact match in later text, even
// without the context that revealed it.
type SessionSanitizer struct {
	s     *Sanitizer
	paths *pathRewriter

	mu    sync.RWMutex
	known seenSecrets // secrets found so far
	// genPending counts the texts still to come that may open with what a secret-generating
	// command printed (generated.go).
	genPending int
	// readPending counts the texts still to come that may open with what a command printing a
	// stored secret printed (pass show, security … -w, vault … -field).
	readPending int
}

// NewSession starts the sanitizing of one publisher session.
func (s *Sanitizer) NewSession(h SessionHints) *SessionSanitizer {
	return &SessionSanitizer{s: s, paths: newPathRewriter(h)}
}

var errTimeout = errors.New("sanitizer deadline exceeded")

// SanitizeText returns text with secrets, home directories and absolute paths removed,
// control characters cleaned and line breaks kept. It fails closed: when it cannot finish it
// returns Redacted.
func (ss *SessionSanitizer) SanitizeText(text string) string {
	ctx, cancel := context.WithTimeout(context.Background(), ss.s.timeout)
	defer cancel()
	return ss.clean(ctx, text, true)
}

// clean sanitizes one text, recovering from any failure by returning Redacted.
func (ss *SessionSanitizer) clean(ctx context.Context, text string, keepLines bool) (out string) {
	return ss.cleanWith(ctx, text, keepLines, true)
}

// safeID reports an id of a shape no credential has: a provider id, a UUID, a model name
// made of words and versions, or fewer than 16 characters of letters, digits and . _ -.
func safeID(s string) bool {
	if len(s) < 16 {
		for i := 0; i < len(s); i++ {
			if !isWordByte(s[i]) && s[i] != '.' && s[i] != '-' {
				return false
			}
		}
		return true
	}
	return isProviderID(s) || uuidRe.MatchString(s) || isModelName(s) && wordyParts(s)
}

// cleanID sanitizes an identifier field (a provider's request or response id, a model
// name): every rule runs but the entropy fallback, since ids are random by design.
func (ss *SessionSanitizer) cleanID(ctx context.Context, text string) string {
	if len(text) <= capIdent && safeID(text) {
		return text
	}
	return ss.cleanWith(ctx, text, false, false)
}

func (ss *SessionSanitizer) cleanWith(ctx context.Context, text string, keepLines, entropy bool) (out string) {
	if text == "" {
		return ""
	}
	if len(text) > ss.s.maxInput {
		return Redacted
	}
	defer func() {
		if r := recover(); r != nil {
			out = Redacted
		}
	}()
	if expired(ctx) {
		return Redacted
	}
	if ss.s.hook != nil {
		ss.s.hook(text)
	}
	text = cleanControl(text, keepLines)
	masked, err := ss.maskSecrets(ctx, text, entropy)
	if err != nil {
		return Redacted
	}
	out = ss.paths.rewrite(masked)
	if expired(ctx) {
		return Redacted
	}
	return out
}

// maskSecrets finds every secret in text and replaces each occurrence by
// [redacted:<rule>].
func (ss *SessionSanitizer) maskSecrets(ctx context.Context, text string, entropy bool) (string, error) {
	// The rules read the text with its JSON escapes written out (escaped.go); the view has
	// the text's byte positions, so what they find masks the text itself.
	view := escapeView(text)
	f := &findings{text: text}
	if view != text {
		f.view = view
	}
	ss.s.detect(ctx, view, f, entropy)
	if entropy {
		ss.generated(view, f)
	}
	if expired(ctx) {
		return "", errTimeout
	}
	ss.s.decodeAndDetect(ctx, view, f)
	ss.s.findSplitSecrets(ctx, view, f)
	f.dropNoSecrets()
	f.addRepeats()
	f.dropInDataURIs()
	ss.matchSeen(f)
	if expired(ctx) {
		return "", errTimeout
	}
	ss.remember(f.secrets)
	return f.apply(), nil
}

// detect runs every rule over text. With entropy, the high-entropy fallback runs too.
//
// Rules run over chunks of whole lines (at most chunkSize bytes unless one line is longer)
// rather than the whole text: gitleaks and the rules here gate each rule on keywords, and a
// keyword present somewhere in a 4 KB text would otherwise make its rule scan all of it.
// Secrets never span lines except PEM blocks, whose rule runs over the whole text.
func (s *Sanitizer) detect(ctx context.Context, text string, f *findings, entropy bool) {
	gate := extraGates()
	// Each chunk lower-cased; joined, they are the text lower-cased (per rune, and chunks end
	// at line breaks). An ASCII text is lower-cased once and its chunks' forms sliced from it.
	var lowers []string
	textLower := ""
	if isASCII(text) {
		textLower = asciiLower(text)
	}
	for off := 0; off < len(text); {
		end := chunkEnd(text, off)
		chunk := text[off:end]
		var lower string
		if textLower != "" {
			lower = textLower[off:end]
		} else {
			lower = strings.ToLower(chunk)
			if len(lower) != len(chunk) {
				// Invalid UTF-8 (a decoded %80) or a letter whose lower case is longer
				// (İ): the rules index chunk by lower's positions, so lower-case ASCII
				// alone, byte for byte.
				lower = asciiLower(chunk)
			}
			lowers = append(lowers, lower)
		}
		s.gitleaks.findings(ctx, chunk, lower, f.addSecret)
		findKeywordAssignments(chunk, lower, off, f)
		findPairedSecrets(chunk, off, f)
		findPrefixedTokens(chunk, off, f)
		findTableFormats(chunk, off, f)
		findVendorValues(chunk, off, f)
		if strings.IndexByte(chunk, '.') >= 0 {
			findIPTriples(chunk, off, f)
		}
		on := gate.active(chunk, lower, textLower != "")
		for i := range extraRules {
			if on.has(i) && !extraRules[i].multiline {
				runGatedRule(&extraRules[i], gate.required[i], chunk, lower, textLower != "", off, f)
			}
		}
		off = end
	}
	lower := textLower
	for i := range extraRules {
		if extraRules[i].multiline {
			if lower == "" {
				lower = strings.Join(lowers, "")
			}
			runExtraRule(&extraRules[i], text, lower, 0, f)
		}
	}
	findDERKeys(text, f)
	findCredentialCalls(text, f)
	findSQLInserts(text, f)
	if strings.Contains(text, "receive(:") || strings.Contains(text, "thenReturn(") {
		findStubbedSecrets(text, f)
	}
	findJWK(text, f)
	findTinkKeysets(text, f)
	findKubernetesSecrets(text, f)
	if strings.Contains(text, "variable \"") {
		findTerraformDefaults(text, f)
	}
	findYAMLBlockSecrets(text, f)
	findResultTableSecrets(text, f)
	findKeyValueRows(text, f)
	if strings.Contains(text, "alue") {
		if lower == "" {
			lower = strings.Join(lowers, "")
		}
		findNameValuePairs(text, lower, f)
	}
	if entropy && (strings.Contains(text, "%2") || strings.Contains(text, "%3")) {
		findPercentEncodedSecrets(text, f)
	}
	if entropy {
		cfPage := strings.Contains(text, "_cf_chl_opt")
		forEachTokenRun(text, 16, func(start, end int) {
			tok := text[start:end]
			if knownShapeSecret(strings.TrimRight(tok, "=")) && !encodingAlphabets[tok] {
				if !nameFamily(text, start, end) {
					f.addSpan(ruleFormat, start, end)
				}
				return
			}
			if end-start < 20 || afterDigestPrefix(text, start) || inDataURI(text, start) || harmlessRun(text, start, end) || publicPointNamed(text, start, end) || cfPage && cloudflareChallengeRun(text, start) {
				return
			}
			if highEntropySecret(tok) && !idNamedValue(text, start, end) && !idContextNamed(text, start, end, false) && !pathAfterMark(text, start) {
				if nameFamily(text, start, end) || harmlessRunLate(text, start, end) {
					return
				}
				f.addSpan(ruleEntropy, pastAuthority(text, start, end), end)
				if ws, we, ok := wideSecretRun(text, start, end); ok {
					f.addSpan(ruleEntropy, ws, we)
				}
				return
			}
			if literalPosition(text, start, end) && assignedRandom(tok) && !idNamedValue(text, start, end) && !idListing(text, start) && !nameFamily(text, start, end) && !harmlessRunLate(text, start, end) {
				f.addSpan(ruleEntropy, start, end)
				return
			}
			if strings.IndexByte(tok, '/') >= 0 && !integrityRe.MatchString(strings.Trim(tok, "=.-_~/")) && !pinHashShape(tok) && !idNamedValue(text, start, end) && !harmlessRunLate(text, start, end) {
				// A token inside a URL path or a path: each segment on its own.
				seg := start
				for i := start; i <= end; i++ {
					if i == end || text[i] == '/' {
						if s := text[seg:i]; len(s) >= 16 && !idPathSegment(text, start, seg) && !acmeChallengePath(text, seg) && !cognitoPoolID(s) && !sluggedID(s) && (knownShapeSecret(s) || len(s) >= 24 && highEntropySecret(s) && !hashedFileName(s)) {
							f.addSpan(ruleEntropy, seg, i)
						}
						seg = i + 1
					}
				}
			}
		})
	}
}

const chunkSize = 512

// findPercentEncodedSecrets masks random base64 written into a URL or a header with its +, /
// and = percent-encoded (oauth_signature="%2BR0Mq%2FOz…%3D"): a run of token characters
// and %2B, %2F, %3D, one of them at least, that is random once decoded. The escapes break
// the plain runs the entropy rule reads into pieces too short to judge.
func findPercentEncodedSecrets(text string, f *findings) {
	escape := func(i int) bool {
		if i+3 > len(text) || text[i] != '%' {
			return false
		}
		switch text[i+1 : i+3] {
		case "2B", "2F", "3D", "2b", "2f", "3d":
			return true
		}
		return false
	}
	for i := 0; i < len(text); {
		if !tokenChar(text[i]) && !escape(i) {
			i++
			continue
		}
		start, escapes := i, 0
		for i < len(text) {
			if escape(i) {
				i += 3
				escapes++
			} else if tokenChar(text[i]) {
				i++
			} else {
				break
			}
		}
		if escapes == 0 || i-start < 20 {
			continue
		}
		var dec strings.Builder
		for k := start; k < i; {
			if escape(k) {
				switch text[k+2] | 0x20 {
				case 'b':
					dec.WriteByte('+')
				case 'f':
					dec.WriteByte('/')
				default:
					dec.WriteByte('=')
				}
				k += 3
			} else {
				dec.WriteByte(text[k])
				k++
			}
		}
		tok := strings.TrimRight(dec.String(), "=")
		if len(tok) >= 20 && highEntropySecret(tok) && !idNamedValue(text, start, i) && !queryIDValue(text, start) && !strings.Contains(tok, "://") && !editorRemoteRun(text, start, i) {
			f.addSpan(ruleEntropy, start, i)
		}
	}
}

// pathAfterMark reports a run that goes on a path or a URL after the account or host a
// session's rules already masked in it (https://raw.githubusercontent.com/[user]/repo/<sha>/…):
// a path's segments, each judged on its own below, not one random run.
func pathAfterMark(text string, start int) bool {
	return start < len(text) && text[start] == '/' && (strings.HasSuffix(text[:start], "[user]") || strings.HasSuffix(text[:start], "[host]"))
}

// afterDigestPrefix reports whether the token at start follows a digest label (go.sum's h1:,
// sha256:, sha512:) or opens an XML signature's digest element (<DigestValue>,
// <ds:DigestValue>): a content hash, not a secret.
func afterDigestPrefix(text string, start int) bool {
	for _, p := range []string{"h1:", "sha256:", "sha512:", "sha384:", "sha1:", "sha-256=:", "sha-512=:", "sha-384=:", "sha-256=", "sha-512=", "DigestValue>"} {
		if start >= len(p) && strings.EqualFold(text[start-len(p):start], p) {
			return true
		}
	}
	return false
}

// inDataURI reports whether the token at start is the payload of a data: URI
// (data:image/png;base64,…), an inline image or font, not a secret.
func inDataURI(text string, start int) bool {
	if start < 8 || text[start-1] != ',' {
		return false
	}
	head := text[max(0, start-120):start]
	i := strings.LastIndex(head, "data:")
	return i >= 0 && !strings.ContainsAny(head[i:], " \t\n\"'")
}

// chunkEnd returns the end of the chunk of whole lines starting at off.
func chunkEnd(text string, off int) int {
	limit := off + chunkSize
	if limit >= len(text) {
		return len(text)
	}
	if i := strings.LastIndexByte(text[off:limit], '\n'); i >= 0 {
		return off + i + 1
	}
	if i := strings.IndexByte(text[limit:], '\n'); i >= 0 {
		return limit + i + 1
	}
	return len(text)
}

// forEachTokenRun calls fn for every run of at least minLen token characters
// ([A-Za-z0-9+/_.~-], then up to two '=').
// assignedRandom holds a value assigned to a name to a lower bar than highEntropySecret: a
// generated key of one letter case and digits (pyowm = '3k144a5af729351d0fc58bdrj9a21mkr')
// is random enough there, where an id or a digest would be named so.
func assignedRandom(tok string) bool {
	if len(tok) < 20 || len(tok) > 256 || strings.ContainsAny(tok, "./") {
		return false
	}
	if strings.Trim(tok, "0123456789abcdefABCDEF-") == "" {
		return false // hex, or hex groups: a trace context (00-5f16…-d9c0…-01), a dashed digest
	}
	digits := countDigits(tok)
	if digits < 3 || len(tok)-digits < 4 || meanRunLength(tok) >= 2.6 {
		return false
	}
	if uuidRe.MatchString(tok) || integrityRe.MatchString(tok) || standIn(tok) || hashedFileName(tok) {
		return false
	}
	return shannonEntropy(tok) >= 3.8 && !knownSafeShape(tok)
}

// literalPosition reports a token that is the whole literal value of an assignment whose
// name is not an id's, a digest's or a version's: name = 'tok', name: "tok", name=tok.
func literalPosition(text string, start, end int) bool {
	i := start
	quote := byte(0)
	if i > 0 && (text[i-1] == '"' || text[i-1] == '\'') {
		quote = text[i-1]
		i--
	}
	if quote != 0 && (end >= len(text) || text[end] != quote) {
		return false
	}
	if quote == 0 && end < len(text) && !strings.ContainsRune(" \t\r\n,;", rune(text[end])) {
		return false
	}
	for k := 0; k < 2 && i > 0 && text[i-1] == ' '; k++ {
		i--
	}
	switch {
	case i >= 2 && text[i-2:i] == "=>":
		i -= 2
	case i > 0 && (text[i-1] == '=' || text[i-1] == ':'):
		i--
	default:
		return false
	}
	if i > 0 && text[i-1] == ':' { // :=
		i--
	}
	for k := 0; k < 2 && i > 0 && text[i-1] == ' '; k++ {
		i--
	}
	if i > 0 && (text[i-1] == '"' || text[i-1] == '\'') {
		i--
	}
	ne := i
	for i > 0 && ne-i < 60 && isNameByte(text[i-1]) {
		i--
	}
	if i == ne {
		return false
	}
	parts := nameParts(text[i:ne])
	if len(parts) == 0 || idNameParts[parts[len(parts)-1]] {
		return false
	}
	for _, p := range parts {
		if p == "public" || p == "pub" {
			return false // VAPID_PUBLIC_KEY, a public key: published by design
		}
	}
	return true
}

var idNameParts = map[string]bool{"id": true, "ids": true, "uuid": true, "guid": true, "sha": true, "sha1": true, "sha256": true,
	"sha512": true, "hash": true, "digest": true, "commit": true, "rev": true, "revision": true, "checksum": true, "etag": true,
	"nonce": true, "integrity": true, "version": true, "ref": true, "fingerprint": true, "name": true, "slug": true, "path": true,
	"url": true, "uri": true, "file": true, "filename": true, "image": true, "tag": true, "build": true, "trace": true, "span": true,
	"event": true, "message": true, "msg": true, "request": true, "session": true, "user": true, "username": true, "email": true,
	"model": true, "region": true, "zone": true, "host": true, "hostname": true, "title": true, "label": true, "code": true,
	"changeset": true}

// wideSecretRun widens a random run found at text[start:end] to the run of token
// characters, = and , around it, when that run is long and random as a whole: a token
// whose alphabet holds = and , (Fly.io's FlyV1 fm2_…,…=…) would otherwise keep the pieces
// between its random-looking parts.
func wideSecretRun(text string, start, end int) (int, int, bool) {
	wide := func(c byte) bool { return tokenChar(c) || c == '=' || c == ',' }
	ws, we := start, end
	for ws > 0 && wide(text[ws-1]) && start-ws < 2048 {
		ws--
	}
	for we < len(text) && wide(text[we]) && we-end < 2048 {
		we++
	}
	if ws == start && we == end || we-ws < 64 || strings.Contains(text[ws:we], "://") || inDataURI(text, ws) {
		return 0, 0, false
	}
	run := text[ws:we]
	if strings.Count(run, ",") < 1 && strings.Count(run, "=") < 2 || shannonEntropy(run) < 4.5 {
		return 0, 0, false
	}
	return ws, we, true
}

func forEachTokenRun(text string, minLen int, fn func(start, end int)) {
	for i := 0; i < len(text); {
		if !tokenChar(text[i]) {
			i++
			continue
		}
		start := i
		for i < len(text) && tokenChar(text[i]) {
			i++
		}
		for k := 0; k < 2 && i < len(text) && text[i] == '='; k++ {
			i++
		}
		if i-start >= minLen {
			fn(start, i)
		}
	}
}

var tokenChars = func() (t [256]bool) {
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_.~-" {
		t[c] = true
	}
	return t
}()

func tokenChar(c byte) bool { return tokenChars[c] }

// runExtraRule applies one added rule to a chunk starting at off in the text, recording the
// secret's position. A rule whose expression does not open with its literal, or that has
// anchors, runs only over the lines holding the literal or an anchor: the regexp engine
// would otherwise try it at every position of the chunk.
func runExtraRule(r *extraRule, chunk, lower string, off int, f *findings) {
	if r.literal != "" && !strings.Contains(chunk, r.literal) || len(r.keywords) > 0 && !containsAny(lower, r.keywords) {
		return
	}
	runGatedRule(r, nil, chunk, lower, false, off, f)
}

// runGatedRule is runExtraRule for a rule whose literal, keywords and required literals the
// chunk is known to hold (the chunk passed the rule's gate). When the chunk is ASCII (lower
// then has its byte positions), a line that lacks the literals every match of the rule's
// expression holds (req, requiredLiterals) is not searched.
func runGatedRule(r *extraRule, req [][]reqLiteral, chunk, lower string, ascii bool, off int, f *findings) {
	if !ascii {
		req = nil
	}
	var at []int
	switch {
	case r.anchors != nil:
		if at = r.anchors(chunk); len(at) == 0 {
			return
		}
	case r.literal != "" && !r.prefixed():
		for from := 0; ; {
			i := strings.Index(chunk[from:], r.literal)
			if i < 0 {
				break
			}
			at = append(at, from+i)
			from += i + len(r.literal)
		}
	default:
		matchExtraRule(r, chunk, off, f)
		return
	}
	end := -1
	for _, p := range at {
		if p < end {
			continue // on the line just matched
		}
		ls := strings.LastIndexByte(chunk[:p], '\n') + 1
		end = strings.IndexByte(chunk[p:], '\n')
		if end < 0 {
			end = len(chunk)
		} else {
			end += p
		}
		if req == nil || holdsRequired(req, chunk[ls:end], lower[ls:end]) {
			matchExtraRule(r, chunk[ls:end], off+ls, f)
		}
	}
}

// reqLiteral is a literal every match of an expression holds one of; fold: in any case (the
// expression's (?i)), lower-cased.
type reqLiteral struct {
	s    string
	fold bool
}

// holdsRequired reports whether text holds one literal of each set of req; lower is text
// lower-cased, byte for byte (an ASCII text).
func holdsRequired(req [][]reqLiteral, text, lower string) bool {
	for _, set := range req {
		if !holdsOne(set, text, lower) {
			return false
		}
	}
	return true
}

func holdsOne(set []reqLiteral, text, lower string) bool {
	for _, l := range set {
		if l.fold && strings.Contains(lower, l.s) || !l.fold && strings.Contains(text, l.s) {
			return true
		}
	}
	return false
}

// requiredLiterals returns sets of literals such that every match of re holds one literal
// of each set, read from the expression's form; none when the form shows none. A literal
// under (?i) is kept only when ASCII (lower-cased; an ASCII text holds no other case of it:
// ſ and the Kelvin sign, which fold with s and k, are not ASCII).
func requiredLiterals(re *syntax.Regexp) [][]reqLiteral {
	switch re.Op {
	case syntax.OpLiteral:
		lit := string(re.Rune)
		if re.Flags&syntax.FoldCase == 0 {
			return [][]reqLiteral{{{s: lit}}}
		}
		if !isASCII(lit) {
			return nil
		}
		return [][]reqLiteral{{{s: strings.ToLower(lit), fold: true}}}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		// A match holds a match of every part; a literal followed by an alternation whose
		// branches all open with a literal, the literal and each opening joined
		// (p(?:ass|w|swd): pass, pw, pswd).
		var all [][]reqLiteral
		for i, sub := range re.Sub {
			all = append(all, requiredLiterals(sub)...)
			if sub.Op == syntax.OpLiteral && i+1 < len(re.Sub) {
				if joined := joinOpenings(sub, re.Sub[i+1]); joined != nil {
					all = append(all, joined)
				}
			}
		}
		return all
	case syntax.OpAlternate:
		// A match holds a match of one branch: one set of each branch, joined.
		var one []reqLiteral
		for _, sub := range re.Sub {
			sets := requiredLiterals(sub)
			if len(sets) == 0 {
				return nil
			}
			best := sets[0]
			for _, set := range sets[1:] {
				if shortestLiteral(set) > shortestLiteral(best) {
					best = set
				}
			}
			one = append(one, best...)
		}
		return [][]reqLiteral{one}
	}
	return nil
}

// joinOpenings returns lit joined with each literal one of which opens every match of next,
// when lit and those literals share their case folding; otherwise nil.
func joinOpenings(lit, next *syntax.Regexp) []reqLiteral {
	opens := openingLiteralsOf(next)
	if opens == nil {
		return nil
	}
	head := requiredLiterals(lit)
	if len(head) != 1 || len(head[0]) != 1 {
		return nil
	}
	h := head[0][0]
	var out []reqLiteral
	for _, o := range opens {
		if o.fold != h.fold {
			return nil
		}
		out = append(out, reqLiteral{s: h.s + o.s, fold: h.fold})
	}
	return out
}

// openingLiteralsOf returns literals one of which opens every match of re (a literal, or a
// concatenation opening with one, or an alternation of such), or nil.
func openingLiteralsOf(re *syntax.Regexp) []reqLiteral {
	switch re.Op {
	case syntax.OpLiteral:
		if sets := requiredLiterals(re); len(sets) == 1 {
			return sets[0]
		}
	case syntax.OpCapture:
		return openingLiteralsOf(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) > 0 {
			return openingLiteralsOf(re.Sub[0])
		}
	case syntax.OpAlternate:
		var all []reqLiteral
		for _, sub := range re.Sub {
			o := openingLiteralsOf(sub)
			if o == nil {
				return nil
			}
			all = append(all, o...)
		}
		return all
	}
	return nil
}

func shortestLiteral(set []reqLiteral) int {
	n := len(set[0].s)
	for _, l := range set[1:] {
		n = min(n, len(l.s))
	}
	return n
}

// ruleRequiredLiterals returns what requiredLiterals reads from a rule's expression, without
// the sets that tell no more than the rule's own literal (which its gate checks) and those
// of one-byte literals; nil when none is left.
func ruleRequiredLiterals(r *extraRule) [][]reqLiteral {
	tree, err := syntax.Parse(r.re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	var req [][]reqLiteral
	for _, set := range requiredLiterals(tree) {
		if shortestLiteral(set) < 2 || len(set) == 1 && !set[0].fold && strings.Contains(r.literal, set[0].s) {
			continue
		}
		req = append(req, set)
	}
	if len(req) > 3 {
		req = req[:3] // the first three are selective enough; each costs a search
	}
	return req
}

// matchExtraRule runs a rule's expression over text, which starts at off.
func matchExtraRule(r *extraRule, chunk string, off int, f *findings) {
	for _, m := range r.re.FindAllStringSubmatchIndex(chunk, -1) {
		if r.boundary && m[0] > 0 && isWordByte(chunk[m[0]-1]) || r.notInBase64 && m[0] > 0 && isBase64Byte(chunk[m[0]-1]) {
			continue
		}
		if r.endWord && m[1] < len(chunk) && (tokenChar(chunk[m[1]]) && chunk[m[1]] != '.' || chunk[m[1]] == '.' && m[1]+1 < len(chunk) && isWordByte(chunk[m[1]+1])) {
			continue
		}
		start, end, ok := secretGroup(r, chunk, m)
		if !ok || r.check != nil && !r.check(chunk[start:end]) || r.matchCheck != nil && !r.matchCheck(chunk[m[0]:m[1]]) {
			continue
		}
		if !hasAlnum(chunk[start:end]) || encodingAlphabets[chunk[start:end]] || (r.id == ruleCLIFlag || r.id == ruleCLILogin) && flagInProse(chunk, m[0], start, end) ||
			strings.HasPrefix(chunk[start:end], ":<") || r.id == ruleAuthHeader && rustType.MatchString(chunk[start:end]) ||
			r.id == ruleURLQuery && strings.HasPrefix(chunk[end:], "&gt;") && strings.Contains(chunk[max(0, m[0]-24):start], "&lt;") ||
			phpCode(chunk[start:end]) || phpCode(chunk[max(0, start-1):min(len(chunk), end+1)]) ||
			chunk[start] == '+' && rubyDocCode.MatchString(chunk[start:end]) || r.id == ruleBearer && (capitalisedWord(chunk[start:end]) || bearerProseWord(chunk[start:end])) || r.id == ruleIDPassword && proseWordBeforeTag(chunk[start:end]) {
			// --ask-vault-pass / --vault-password-file, -u or -p is present: prose about the
			// options; .parse::<u64>(), pub authorization: Option<String>: Rust's types;
			// &lt;KEY=VALUE&gt;: a placeholder between escaped angle brackets, no query;
			// value="'.csrf_token().'": PHP joining a call into the string; (identified by
			// +method+): RDoc's code markup; Your password is required.</small: a sentence;
			// "Bearer Oracle": the word a metadata service wants (Oracle Cloud's IMDS v2)
			continue
		}
		if r.id == ruleIDPassword && m[0] > 0 && chunk[m[0]-1] == '/' && strings.IndexByte(chunk[m[0]:m[1]], ' ') < 0 {
			continue // "/<tenantId>/recipe/user/password/reset/token/consume": a route's segments
		}
		if (r.id == ruleAuthHeader || r.id == ruleSecretHeader || r.id == ruleConnString || r.id == ruleURLQuery) && (expansionsOnly(chunk[start:end]) || namedExpansionFrame(chunk[start:end])) {
			continue // "Authorization: sso-key $GD_Key:$GD_Secret": what the shell expands
		}
		if shellRuleNoSecret(r.id, chunk, m[0], start, end) || pyRuleNoSecret(r.id, chunk, start, end) || r.id == ruleCLIFlag && objectKeyAt(chunk, end) ||
			r.id == ruleRegAuth && strings.HasSuffix(strings.TrimRight(chunk[:m[0]], " \t"), "?") || // f === "username" ? "password" : "username": a conditional's branches
			(r.id == ruleRegAuth || r.id == ruleAuthHeader) && strings.Contains(chunk[start:end], "${") ||
			r.id == ruleAuthHeader && isLetters(chunk[start:end]) && strings.HasPrefix(chunk[end:], " $") { // "Authorization: cpanel $user:$token", _auth="…${KEY}…": what the shell expands
			continue
		}
		if isBase64Byte(chunk[start]) && (inEncodedMedia(f.text, off+start) || f.view != "" && inEncodedMedia(f.view, off+start)) {
			continue // a run of an encoded image's bytes that spells a token's shape (21 A's: a Twitter bearer)
		}
		if r.whole {
			start, end = m[0], m[1]
		} else if r.extend != nil {
			if e := r.extend(chunk, start, end); e > end {
				if placeholderValue(chunk[start:e]) {
					continue // Password=yourWeak(!)Password: whole, a stand-in
				}
				end = e
			}
		}
		f.addSpan(r.id, off+start, off+end)
	}
}

// capitalisedWord reports a word of 3 to 12 letters, capital first and then lower case.
func capitalisedWord(v string) bool {
	return len(v) >= 3 && len(v) <= 12 && isLetters(v) && isUpperByte(v[0]) && strings.ToLower(v[1:]) == v[1:]
}

// rubyDocCode matches RDoc's markup for code, +name+.
var rubyDocCode = regexp.MustCompile(`^\+\w+\+`)

// proseWordBeforeTag reports a word of English that ends a sentence before an HTML tag
// closes it (required.</small): what the text says, not a value.
func proseWordBeforeTag(v string) bool {
	if i := strings.IndexByte(v, '<'); i > 0 {
		v = v[:i]
	}
	w := strings.TrimRight(v, ".,;:!?")
	return w != v && isLetters(w) && strings.ToLower(w) == w && dictWord(w)
}

// objectKeyAt reports a quoted string ending at end that a colon follows: a JSON object's
// key ("delta":"-token","item_id":"msg_…"), not a flag's value in a list of arguments.
func objectKeyAt(chunk string, end int) bool {
	rest := chunk[end:]
	rest = strings.TrimPrefix(rest, "\\")
	return strings.HasPrefix(rest, "\":") || strings.HasPrefix(rest, "':")
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// secretGroup picks the secret out of a rule match and applies the rule's vetoes.
func secretGroup(r *extraRule, text string, m []int) (int, int, bool) {
	if r.group == 0 && r.re.NumSubexp() > 0 {
		// The first alternative group that matched holds the secret.
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] < 0 {
				continue
			}
			end := m[2*g+1]
			for end > m[2*g] && text[end-1] == '\\' {
				end--
			}
			v := text[m[2*g]:end]
			if placeholderValue(v) && !leetSlot(r, text[m[0]:m[1]], v) {
				return 0, 0, false
			}
			return m[2*g], end, true
		}
		return 0, 0, false
	}
	g := r.group
	if m[2*g] < 0 {
		return 0, 0, false
	}
	start, end := m[2*g], m[2*g+1]
	if end-start >= 2 && (text[start] == '\'' || text[start] == '"') && text[end-1] == text[start] {
		start, end = start+1, end-1
	}
	switch {
	case r.id == ruleIDPassword:
		end = sentenceEnd(text, start, end)
	case r.id == ruleCLIFlag && end-start > 4 && text[end-1] == ';' && (end == len(text) || text[end] == ' ' || text[end] == '\n'):
		end-- // mysql -pXy7pass99; next: the shell's separator
	}
	if r.id != rulePEM && placeholderValue(text[start:end]) && !leetSlot(r, text[m[0]:m[1]], text[start:end]) {
		return 0, 0, false
	}
	return start, end, true
}

// sentenceEnd leaves out of a value written in prose the punctuation that ends its clause
// ("the password is Xy7pass99, then…", "token was abc123DEF."): a comma, full stop,
// semicolon, colon or closing parenthesis (without an opening one in the value) before a
// blank or the text's end. What is left keeps four characters at least.
func sentenceEnd(text string, start, end int) int {
	if end-start <= 4 || end < len(text) && !strings.ContainsRune(" \t\r\n", rune(text[end])) {
		return end
	}
	switch text[end-1] {
	case ',', '.', ';', ':':
		return end - 1
	case ')':
		if strings.IndexByte(text[start:end], '(') < 0 {
			return end - 1
		}
	}
	return end
}

// leetSlot reports a placeholder word in leetspeak (P@ssw0rd) where a rule found a password:
// a rule of a password's place in a command or a statement (-p, IDENTIFIED BY,
// ConvertTo-SecureString), or a match naming a password.
func leetSlot(r *extraRule, match, v string) bool {
	if r.id == ruleSQLPass || r.id == ruleCLILogin || r.id == ruleCLIFlag || r.id == ruleXMLSecret || r.id == ruleRegAuth {
		return leetPassword("password", v)
	}
	return leetPassword(match, v)
}

// keyHereValue reports a few words saying that a key goes here: ending in "here" (then
// punctuation or symbols), naming a key, a token, a secret or a password.
func keyHereValue(v string) bool {
	l := strings.ToLower(strings.TrimRightFunc(v, func(r rune) bool { return !unicode.IsLetter(r) }))
	if !strings.HasSuffix(l, " here") || len(strings.Fields(l)) > 8 {
		return false
	}
	return strings.Contains(l, "key") || strings.Contains(l, "token") || strings.Contains(l, "secret") || strings.Contains(l, "password")
}

// instructionValue reports a stand-in that says what to do: camel-cased words opening with a
// verb of it (ReplaceThisWith32RandomBytes…, YourApiKeyHere, ChangeMe…). A value marked "do
// not use", "fake" or "not real" is no stand-in here: the corpora call such test values
// secrets (a held-back floor fell when they were taken as stand-ins).
func instructionValue(v string) bool {
	// yourStrong(!)Password: Microsoft's SQL Server samples' stand-in, a symbol shown where
	// the reader's goes.
	v = strings.ReplaceAll(v, "(!)", "")
	if !camelWords(v) {
		return false
	}
	l := strings.ToLower(v)
	for _, verb := range []string{"replace", "change", "enter", "insert", "put", "paste", "fill", "generate", "set", "your", "add"} {
		if strings.HasPrefix(l, verb) && len(v) > len(verb) && isUpperByte(v[len(verb)]) {
			return true
		}
	}
	return false
}

// apacheVariable reports an Apache server variable (%{HTTP:Authorization}, a mod_rewrite
// rule passing the header on to PHP, as every Laravel app's .htaccess does): a reference.
func apacheVariable(v string) bool {
	v = strings.TrimRight(v, "]")
	inner, ok := strings.CutPrefix(v, "%{")
	if !ok || !strings.HasSuffix(inner, "}") || len(inner) < 2 {
		return false
	}
	for _, c := range []byte(inner[:len(inner)-1]) {
		if !isWordByte(c) && c != ':' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func placeholderValue(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	if v != "" && literalAfterExpansion(v) {
		return false // "$DB_USER:Xk9mQ2vLp7wR": the variable is only the value's head
	}
	if leetDollar(v) {
		return false // '$ecRetT0F1nD': a password that opens with $, no variable's name
	}
	if len(v) > 10 && v[0] == '[' && v[len(v)-1] == ']' && generatedInBrackets(v[1:len(v)-1]) {
		return false // password = [Zx8kq2pLm9Qw4rT7]: a generated value in brackets is no slot's name
	}
	if v == "" || isPlaceholder(v) && !partlyMasked(v) || strings.HasPrefix(v, "[redacted") {
		return true
	}
	if len(v) <= 12 && strings.ContainsAny(v, "@0135$!") && leetPlaceholders[strings.ToLower(unleet.Replace(v))] {
		return true // p@ssw0rd, s3cr3t: the placeholder words in leetspeak
	}
	if v == "{}" {
		return true // "postgres://{}:{}@{}/{}".format(…): a format string's fields
	}
	if len(v) > 6 && strings.HasPrefix(v, "...") && strings.HasSuffix(v, "...") {
		return true // { credential: '...serialized-credential...' }: elided on both sides
	}
	if len(v) > 4 && strings.HasPrefix(v, "__") && strings.HasSuffix(v, "__") && upperSlot(strings.Trim(v, "_")) {
		return true // postgresql://__USER__:__PASSWORD__@…, ?api_key=__XX_XX_XX__: a template's slots
	}
	if strings.HasPrefix(v, "$$(") || strings.HasPrefix(v, "$${") || strings.HasPrefix(v, "\\${") || strings.HasPrefix(v, "\\$(") {
		v = v[1:] // $$(cat /run/secrets/db-password): Compose's escape of $; `apiKey: \${{ secrets.KEY }}`: a template literal's
	}
	if upperNameAlternatives(v) || sentinelToken(v) || starredNote(v) {
		return true
	}
	for _, p := range []string{"<", "$(", "${", "{{", "%(", "#{"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	if apacheVariable(v) {
		return true
	}
	if v[0] == '!' && len(v) > 2 && isLetter(v[1]) {
		// A YAML tag: !ENV ${API_KEY}, !Ref DbPassword, !GetAtt Db.Password, !vault |
		// (Ansible's ciphertext follows): a reference or an encrypted value, not the secret.
		if sp := strings.IndexAny(v, " \t"); sp > 0 && allLettersDigits(v[1:sp]) {
			rest := strings.TrimSpace(v[sp:])
			if rest == "" || rest == "|" || rest == ">" || placeholderValue(rest) || identifierWords(rest) {
				return true
			}
		}
	}
	if (strings.Contains(v, "...") || strings.Contains(v, "…")) && strings.Contains(strings.ToLower(v), "your ") {
		return true // "sk-...your key...": an elided key and an instruction
	}
	if name, ok := strings.CutPrefix(v, "os.environ/"); ok && upperSnakeName(name) {
		return true // api_key: os.environ/OPENAI_API_KEY: LiteLLM's reference to an environment variable
	}
	if keyHereValue(v) {
		return true // "VOYAGE KEY HERE", "🔑🔑🔑 Your API Key here! 🔑🔑🔑": where the reader's key goes
	}
	if instructionValue(v) {
		return true // FLAGS_SECRET=ReplaceThisWith32RandomBytesBase64UrlString, exampledonotuse0Q4E…
	}
	if translatedSecretWords[v] {
		return true // sshpass -p '密码': the word "password" where a document's reader puts theirs
	}
	if strings.Trim(v, "•●*·∙") == "" {
		return true // a masked display: ••••••
	}
	if head, ok := strings.CutSuffix(v, "…"); ok && len(head) <= 16 && (head == "" || strings.IndexByte("-_", head[len(head)-1]) >= 0) {
		return true // sk-ant-…, ghp_…: a format's prefix, its body left out
	}
	if selfDescribing(v) || secretReference(v) || trivialValue(v) || standInValue(v) || templateReference(v) || stateWord(v) || templatedValue(v) || interpolationsOnly(v) {
		return true
	}
	if v[0] == '(' {
		// Terraform's (sensitive value) and (known after apply), (redacted), (not set), npm config
		// ls's (protected).
		for _, w := range []string{"(sensitive", "(known", "(redacted", "(hidden", "(not set", "(none", "(empty", "(masked", "(secret", "(protected"} {
			if strings.HasPrefix(strings.ToLower(v), w) {
				return true
			}
		}
	}
	return placeholderWords(v)
}

// starredNote reports a value a tool shows in its stead between asterisks (*** ENCRYPTED ***,
// ***HIDDEN***): what rclone and others print for a value they keep obscured.
func starredNote(v string) bool {
	if !strings.HasPrefix(v, "***") || !strings.HasSuffix(v, "***") || len(v) < 8 {
		return false
	}
	inner := strings.TrimSpace(strings.Trim(v, "*"))
	return inner != "" && isLetters(strings.ReplaceAll(inner, " ", "")) && strings.ToUpper(inner) == inner
}

// upperNameAlternatives reports names in capitals set side by side with / or : (apiKey:
// API_KEY/ZENAPI_KEY/USERNAME:PASSWORD): which of several values goes there, one of them a
// credential's name, spelled as a document's slots.
func upperNameAlternatives(v string) bool {
	if len(v) < 8 || len(v) > 120 || !strings.ContainsAny(v, "/:") {
		return false
	}
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == ':' })
	if len(parts) < 2 {
		return false
	}
	named := false
	for _, p := range parts {
		if len(p) < 2 || !upperSlot(p) || countDigits(p) > 0 {
			return false
		}
		named = named || nameHasSecretWord(strings.ToLower(p)) || strings.HasSuffix(p, "USERNAME") || strings.HasSuffix(p, "USER")
	}
	return named
}

// sentinelToken reports a word in capitals between marks (|CURSOR|, <|FIM_MIDDLE|>, [MASK],
// @@TOKEN@@): a marker a template or a tokenizer puts into text, no credential.
func sentinelToken(v string) bool {
	if len(v) < 5 || len(v) > 40 {
		return false
	}
	inner := strings.TrimLeft(v, "<|[{#@%~")
	lead := len(v) - len(inner)
	inner = strings.TrimRight(inner, ">|]}#@%~")
	trail := len(v) - lead - len(inner)
	if lead == 0 || trail == 0 || len(inner) < 3 || !upperSlot(inner) || countDigits(inner) > 0 {
		return false
	}
	open, end := v[:lead], v[len(v)-trail:]
	// the marks mirror each other: | and |, <| and |>, [ and ], @@ and @@
	mirror := strings.NewReplacer("<", ">", "[", "]", "{", "}").Replace(open)
	return len(open) == len(end) && reverseString(mirror) == end
}

// reverseString returns s with its bytes in reverse order.
func reverseString(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// upperSlot reports capitals, digits and underscores with a capital among them (PASSWORD,
// XX_XX_XX): the name inside a template's __SLOT__.
func upperSlot(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isUpperByte(c) && !isDigitByte(c) && c != '_' {
			return false
		}
		letter = letter || isUpperByte(c)
	}
	return letter
}

func allLettersDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigitByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// identifierWords reports a name made of letters joined by . : _ or - (Db.Password,
// AWS::StackName): what a YAML tag refers to.
func identifierWords(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && strings.IndexByte(".:_-", s[i]) < 0 {
			return false
		}
	}
	return s != ""
}

// secretReference reports a value that names where a secret is kept rather than holding it:
// a secret manager's reference (vault:secret/data/app#password, op://vault/item/field,
// arn:aws:secretsmanager:…, projects/1/secrets/db/versions/latest, keyvault://…, ssm:/…),
// a sops-encrypted value (ENC[AES256_GCM,…]) or an environment reference ({env:API_KEY}).
func secretReference(v string) bool {
	if isASCII(v) {
		// As below, without lower-casing: an ASCII value keeps its length.
		for _, p := range secretReferencePrefixes {
			if len(v) > len(p) && hasPrefixFold(v, p) {
				return true
			}
		}
		return hasPrefixFold(v, "projects/") && strings.Contains(strings.ToLower(v), "/secrets/")
	}
	l := strings.ToLower(v)
	for _, p := range secretReferencePrefixes {
		if strings.HasPrefix(l, p) && len(l) > len(p) {
			return true
		}
	}
	return strings.HasPrefix(l, "projects/") && strings.Contains(l, "/secrets/")
}

// templatedValue reports a value a template fills in: its literal parts, outside the {{ … }}
// actions (one left open at the value's end included), are words between slashes, blanks,
// dots and dashes, a shell variable, or nothing (concourse/{{.Team}}/{{.Secret}},
// $MONGODB_ROOT_PASSWORD{{- end }}, "Bearer ${{secrets.GITHUB_TOKEN}}").
func templatedValue(v string) bool {
	if !strings.Contains(v, "{{") {
		return false
	}
	var rest strings.Builder
	for {
		i := strings.Index(v, "{{")
		if i < 0 {
			rest.WriteString(v)
			break
		}
		rest.WriteString(strings.TrimSuffix(v[:i], "$")) // ${{ secrets.X }}: a GitHub Actions expression
		j := strings.Index(v[i+2:], "}}")
		if j < 0 {
			if a := strings.TrimLeft(v[i+2:], "- "); a != "" && !templateAction(a) {
				return false // (an action cut at its first blank: $X{{- end }} read as $X{{-)
			}
			break
		}
		if !templateAction(v[i+2 : i+2+j]) {
			return false
		}
		rest.WriteByte('/')
		v = v[i+2+j+2:]
	}
	r := strings.Trim(rest.String(), "/")
	if r == "" {
		return true
	}
	if r[0] == '$' {
		return shellExpansionEnd(r, 0) == len(r)
	}
	for p := range strings.FieldsFuncSeq(r, func(c rune) bool { return c == '/' || c == ' ' }) {
		if !wordParts(p, 1) || randomValue(p) {
			return false
		}
	}
	return true
}

// interpolationsOnly reports a string template made of variables and separators only
// ("$username:$password", "${user}@${host}"): what code fills in.
func interpolationsOnly(v string) bool {
	n := 0
	for i := 0; i < len(v); {
		switch c := v[i]; {
		case c == '$' && i+1 < len(v) && (v[i+1] == '{' || isLetter(v[i+1]) || v[i+1] == '_'):
			e := shellExpansionEnd(v, i)
			if e <= i+1 {
				return false
			}
			i = e
			n++
		case strings.IndexByte(":@/.-_ ", c) >= 0:
			i++
		default:
			return false
		}
	}
	return n >= 2
}

// templateAction reports the inside of a Go or Jinja template action: a field, a variable or
// a word opening it (.Values.x, $port, include "name" ., - end), no brace in it.
func templateAction(a string) bool {
	a = strings.TrimLeft(a, "- ")
	return a != "" && (a[0] == '.' || a[0] == '$' || isLetter(a[0])) && !strings.ContainsAny(a, "{}")
}

var secretReferencePrefixes = []string{"vault:", "op://", "arn:aws:secretsmanager:", "arn:aws:ssm:", "arn:aws:kms:", "keyvault://", "akv://",
	"azurekeyvault://", "sm://", "ssm:/", "ssm://", "secretsmanager:", "gcpsm://", "gsm://", "doppler://", "infisical://", "bws://",
	"enc[aes256_gcm,", "enc[", "{env:", "env:", "secret:", "secretref:", "file:", "k8s://", "kubernetes://"}

// trivialValue reports a value no one would generate as a secret: the nil UUID, or a stand-in
// word with a number (test123, demo2). Runs of one character (AAAA…) and ascending runs
// (1234567890abcdef) stay secrets: the scanners' own examples are written so.
func trivialValue(v string) bool {
	if len(v) <= 9 {
		for _, w := range noValueWords {
			if strings.EqualFold(v, w) {
				return true // token === 'N/A': a value saying there is none
			}
		}
	}
	// trivialWord's matches end with a digit.
	return v == "00000000-0000-0000-0000-000000000000" || hexSpeak[strings.ToLower(v)] || v != "" && isDigitByte(v[len(v)-1]) && trivialWord.MatchString(v) ||
		metasyntacticLike(v) && metasyntacticWords.MatchString(v) || shortAlphabetRun(v) || strings.HasPrefix(v, "not") && negatedWords.MatchString(v)
}

// metasyntacticWords are foo, bar, baz and their kin, alone or joined (foobar, foo.bar.baz):
// what tests and documentation write for any value.
var metasyntacticWords = regexp.MustCompile(`(?i)^(?:foo|bar|baz|qux|quux)(?:[._-]?(?:foo|bar|baz|qux|quux))*$`)

// metasyntacticLike is metasyntacticWords' cheap gate: the value opens with one of them.
func metasyntacticLike(v string) bool {
	if len(v) < 3 {
		return false
	}
	switch strings.ToLower(v[:3]) {
	case "foo", "bar", "baz", "qux", "quu":
		return true
	}
	return false
}

// negatedWords are lower-case words that say the value is none (not-a-uuid,
// not_anthropic_related, not-set): a test's value written not to match.
var negatedWords = regexp.MustCompile(`^not(?:[-_]an?)?[-_][a-z]+(?:[-_][a-z]+)*$`)

// shortAlphabetRun reports the alphabet's first four to eight letters in one case (abcd,
// ABCDEF, abcdefgh): a stand-in typed by hand. A longer run stays a secret, as the scanners'
// own examples write one (abcdefghijklmnopqrst).
func shortAlphabetRun(v string) bool {
	if len(v) < 4 || len(v) > 8 {
		return false
	}
	return v == "abcdefgh"[:len(v)] || v == "ABCDEFGH"[:len(v)]
}

// translatedSecretWords are the words for a password, a key or a token in the languages
// documentation is often written in, which stand where the reader puts their own.
var translatedSecretWords = map[string]bool{"密码": true, "密碼": true, "口令": true, "密钥": true, "令牌": true, "비밀번호": true,
	"비번": true, "암호": true, "パスワード": true, "暗証番号": true, "пароль": true, "Пароль": true, "ключ": true, "токен": true}

var noValueWords = []string{"n/a", "tbd", "unknown", "undefined", "unset", "not set", "missing"}

// hexSpeak are the magic numbers of eight hex digits that spell words (0xDEADBEEF,
// 0xCAFEBABE): what a test writes for bytes of no meaning, alone; repeated or longer they
// stay secrets, as the scanners' examples write keys so.
var hexSpeak = map[string]bool{"deadbeef": true, "cafebabe": true, "feedface": true, "baadf00d": true, "decafbad": true,
	"8badf00d": true, "defec8ed": true, "cafed00d": true}

var trivialWord = regexp.MustCompile(`(?i)^(?:test|testing|demo|dummy|fake|sample|example|foo|bar)[-_]?[0-9]{1,6}$`)

// selfDescribing reports a value made of lower-case words that say what it stands in for:
// a stand-in word and a secret's name (test-api-key, my-secret, dummy_token, fake-password), or
// a word saying it is none or no good (invalid-api-key, an error's code; wrong_password,
// expired-token, what a test sends to be refused).
func selfDescribing(v string) bool {
	if f := strings.Fields(v); len(f) >= 2 && len(f) <= 4 && len(v) <= 40 {
		// "My API Key", "your secret token": the same words with blanks, in any case
		v = strings.ToLower(strings.Join(f, "-"))
	}
	if len(v) > 40 || !strings.ContainsAny(v, "-_") {
		return false
	}
	var stand, named bool
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' }) {
		if !identifierWords(w) || strings.ToLower(w) != w {
			return false
		}
		switch w {
		case "test", "tests", "testing", "my", "your", "dummy", "sample", "fake", "demo", "foo", "bar", "mock", "some", "default", "dev", "local",
			"invalid", "missing", "expired", "revoked", "wrong", "bad", "empty", "no", "null",
			// which of a test's stand-ins: "first secret", "explicit token", "replacement secret key"
			"first", "second", "third", "other", "another", "explicit", "replacement", "initial", "original", "stale", "refreshed", "rotated":
			stand = true
		case "key", "api", "apikey", "token", "secret", "password", "pass", "passwd", "pwd", "credential", "credentials", "auth":
			named = true
		}
	}
	return stand && named
}

var leetPlaceholders = map[string]bool{"password": true, "passwd": true, "secret": true, "changeme": true, "example": true,
	"sample": true, "dummy": true, "token": true, "test": true, "pass": true, "letmein": true}

var unleet = strings.NewReplacer("@", "a", "0", "o", "1", "i", "3", "e", "5", "s", "$", "s", "!", "i")

// placeholderWords reports values that say they stand in for a secret: runs of x or *, the
// words example, placeholder, changeme, dummy, fake, "your key here".
func placeholderWords(v string) bool {
	if elidedJWT(v) {
		return true
	}
	v = urlPastHost(v)
	if isASCII(v) {
		return placeholderWordMatcher().containsFold(v) && !partlyMasked(v)
	}
	l := strings.ToLower(v)
	for _, w := range placeholderWordList {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// partlyMasked reports a secret written out but for a run of x or * (sk-proj-Qx7mB2pz…
// R9vL4kWn8cT1XXXX, a key whose tail its owner crossed out): a piece of sixteen characters
// or more that looks generated is left, and that piece is what must not be shown.
func partlyMasked(v string) bool {
	if len(v) < 20 {
		return false
	}
	lower := strings.ToLower(v)
	if !strings.Contains(lower, "xxxx") && !strings.Contains(v, "****") {
		return false
	}
	for _, seg := range strings.FieldsFunc(v, func(r rune) bool { return !isAlnum(byte(r)) || r >= 0x80 }) {
		for _, piece := range xRuns.Split(seg, -1) {
			if len(piece) >= 16 && randomValue(piece) {
				return true
			}
		}
	}
	return false
}

// xRuns are the runs of x (four or more) that cross out part of a value.
var xRuns = regexp.MustCompile(`[xX]{4,}`)

var placeholderWordList = []string{"xxxx", "****", "example", "placeholder", "changeme", "change_me", "change-me",
	"dummy", "fake", "your_", "your-", "yourkey", "yourtoken", "yoursecret", "yourpassword", "replace_me",
	"replace-me", "replaceme", "insert_", "insert-", "_here", "-here", "redacted", "sample_", "notreal", "not-a-real", "not_a_real"}

// placeholderWordMatcher finds placeholderWordList in one pass over an ASCII value in any
// case, instead of lower-casing it and searching it once per word.
var placeholderWordMatcher = sync.OnceValue(func() *acMatcher { return newACMatcher(placeholderWordList) })

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return len(subs) == 0
}

// matchSeen masks the session's known secrets wherever they occur, in any of their encoded
// forms, also when whitespace or escaped line breaks were inserted into them.
func (ss *SessionSanitizer) matchSeen(f *findings) {
	ss.mu.RLock()
	defer ss.mu.RUnlock()
	if len(ss.known.order) == 0 {
		return
	}
	ss.known.find(f)
	f.addSplitSeen(ss.known.order, ss.known.class)
}

// remember adds the secrets found in one text to the session's set.
func (ss *SessionSanitizer) remember(secrets map[string]string) {
	type found struct{ secret, class string }
	var add []found
	ss.mu.RLock()
	// In a fixed order: the order secrets are added decides when the trie is rebuilt and
	// which secret's class a form shared by two keeps.
	for _, sec := range slices.Sorted(maps.Keys(secrets)) {
		rule := secrets[sec]
		if len(sec) < minSeenSecret || shannonEntropy(sec) < 2.5 || grammarPhrase(sec) || primitiveUnion(sec) {
			continue // (is required, string | null: were one taken for a secret, every message and type would be)
		}
		if _, ok := ss.known.class[sec]; !ok {
			add = append(add, found{sec, ruleClass(rule)})
		}
	}
	ss.mu.RUnlock()
	if len(add) == 0 {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, a := range add {
		if ss.known.add(a.secret, a.class) {
			ss.known.addForms(a.secret)
		}
	}
	ss.known.build()
}

// leetDollar reports a value of $ and a run of letters and digits that no variable is named
// like: both cases mixed after its first letter and a digit between letters ($ecRetT0F1nD,
// $up3rS3cret): a password whose first letter is written as $. A variable is named in one
// case, in snake case or in camel case of words ($DB_PASSWORD, $dbPassword, $user1).
func leetDollar(v string) bool {
	if len(v) < 8 || v[0] != '$' || !isLetter(v[1]) {
		return false
	}
	w := v[1:]
	var upper, lower, sandwiched int
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case isUpperByte(c):
			upper++
		case isLowerByte(c):
			lower++
		case isDigitByte(c):
			if i > 0 && i+1 < len(w) && isLetter(w[i-1]) && isLetter(w[i+1]) {
				sandwiched++
			}
		default:
			return false
		}
	}
	return upper >= 2 && lower >= 2 && sandwiched >= 2
}

// grammarPhrase reports words of English with blanks among which is a word of grammar (is
// required, must be set, not found): a message's words, which a passphrase of words has
// none of, and which a session repeats everywhere.
func grammarPhrase(v string) bool {
	words := strings.Fields(v)
	if len(words) < 2 || len(words) > 6 {
		return false
	}
	grammar := false
	for _, w := range words {
		w = strings.ToLower(strings.Trim(w, ".,;:!?\"'"))
		if !isLetters(w) || !dictWord(w) && !functionWords[w] {
			return false
		}
		grammar = grammar || functionWords[w]
	}
	return grammar
}

// expired reports whether ctx is done or past its deadline. The deadline is checked against
// the clock too: on a busy machine the timer that cancels the context may fire late.
func expired(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}
