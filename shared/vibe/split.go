package vibe

import (
	"context"
	"strings"
)

// Secrets split into pieces: a token concatenated from string literals ("sk-ant-" + "api03…"),
// a key wrapped over several quoted lines, a diff hunk whose lines start with + or -, a long
// token a terminal wrapped. Each run of pieces is joined and the rules run over the joined
// text; a secret found there masks every piece it spans.

// piece is one fragment of a possibly split secret: text[start:end].
type piece struct{ start, end int }

// maxPieces bounds the fragments one run may join.
const maxPieces = 64

// findSplitSecrets joins runs of adjacent string literals and of lines made of one token each
// and reports the secrets found in the joined text as spans over the pieces.
func (s *Sanitizer) findSplitSecrets(ctx context.Context, text string, f *findings) {
	if !strings.ContainsAny(text, "\"'+\n") {
		return
	}
	chains := literalChains(text)
	runs := append(chains, tokenLineRuns(text)...)
	for i, run := range runs {
		if i >= maxSplitRuns {
			return
		}
		s.detectJoined(ctx, text, run, i >= len(chains), f)
	}
}

// maxSplitRuns bounds the joined runs looked at per text.
const maxSplitRuns = 32

// detectJoined reads a run of pieces as one text; wrapped says they are lines of one token
// each, which a terminal or an encoder may have wrapped.
func (s *Sanitizer) detectJoined(ctx context.Context, text string, run []piece, wrapped bool, f *findings) {
	if len(run) < 2 || expired(ctx) {
		return
	}
	var b strings.Builder
	// What opens the first piece's line comes first, so that the name a chain is assigned
	// to (api_key = "…" +\n "…") is read with the value it makes.
	ls := strings.LastIndexByte(text[:run[0].start], '\n') + 1
	ls = max(ls, run[0].start-80)
	head := text[ls:run[0].start]
	if ls > 0 && strings.Trim(head, " \t\"'`(") == "" {
		// The chain opens its own line: the name is on the line before (password = (\n "…"),
		// read as if the chain followed it.
		prev := text[max(strings.LastIndexByte(text[:ls-1], '\n')+1, ls-81) : ls-1]
		head = strings.TrimRight(prev, " \t\r(") + " " + strings.TrimLeft(head, " \t(")
	}
	if h := strings.TrimRight(head, "\"'`"); h != head && strings.HasSuffix(strings.TrimRight(h, " \t"), "(") {
		// api_key = ("…"\n "…"): the parenthesis only groups the chain.
		head = strings.TrimRight(strings.TrimRight(h, " \t"), "(") + head[len(h):]
	}
	b.WriteString(head)
	offsets := make([]int, len(run)) // start of each piece in the joined text
	for i, p := range run {
		offsets[i] = b.Len()
		b.WriteString(text[p.start:p.end])
	}
	joined := b.String()
	if len(joined) < 16 {
		return
	}
	// Without the entropy fallback: random-looking pieces side by side (ids in a list) are
	// not one secret.
	inner := &findings{text: joined}
	s.detect(ctx, joined, inner, false)
	for _, sp := range inner.spans {
		// Only a secret that crosses a piece boundary is new; one inside a piece was found
		// in the text itself.
		first, last := -1, -1
		for i := range run {
			pe := offsets[i] + run[i].end - run[i].start
			if sp.start < pe && sp.end > offsets[i] {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first < 0 || first == last || wrapped && sp.rule == rulePrefixed && !wrapWidths(text, run[first:last+1]) {
			continue // a generic token's shape across lines a wrap did not make
		}
		for i := first; i <= last; i++ {
			ps := run[i].start + max(0, sp.start-offsets[i])
			pe := run[i].start + min(run[i].end-run[i].start, sp.end-offsets[i])
			f.spans = append(f.spans, span{start: ps, end: pe, rule: sp.rule})
		}
		f.note(sp.rule, joined[sp.start:sp.end])
	}
}

// wrapWidths reports whether lines could be one value wrapped: each line before the last
// as wide as the last at least (a wrap fills every line but the last). A listing of names,
// one a line (config-backup, then a 32-digit directory), has a short line before a long one:
// joined, they take a generic token's shape (a prefix, a dash, hex), which a known format's
// rule would not be fooled by.
func wrapWidths(text string, run []piece) bool {
	width := func(p piece) int { return p.end - (strings.LastIndexByte(text[:p.start], '\n') + 1) }
	last := width(run[len(run)-1])
	for _, p := range run[:len(run)-1] {
		if width(p) < last {
			return false
		}
	}
	return true
}

// literalChains finds runs of quoted literals joined by + . .. & || or a line break (and
// the diff markers or indentation of the next line): "abc" + "def", 'abc' .
// 'def', "abc"\n+ "def". Escaped newlines (\n) at a literal's end are dropped from it.
func literalChains(text string) [][]piece {
	var r pieceRuns
	lastEnd := -1
	flagArgument := false
	for i := 0; i < len(text); i++ {
		q := text[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		if i > 0 && text[i-1] == '\\' {
			continue
		}
		if q != '`' && i+2 < len(text) && text[i+1] == q && text[i+2] == q {
			// """See :class:`…`""": a docstring, which no literal before or after goes on.
			r.flush()
			lastEnd = -1
			if e := strings.Index(text[i+3:], text[i:i+3]); e >= 0 {
				i += 3 + e + 2
			} else {
				i = len(text)
			}
			continue
		}
		end := i + 1
		for end < len(text) && text[end] != q && text[end] != '\n' {
			if text[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(text) || text[end] != q {
			r.flush()
			lastEnd = -1
			continue
		}
		if memberName(text, end) || hashKey(text, end) || cspSource(text[i+1:end]) || iamAction(text[i+1:end]) {
			r.flush()
			lastEnd = -1
			i = end
			continue
		}
		p := piece{i + 1, end}
		for p.end-p.start >= 2 && text[p.end-2] == '\\' && (text[p.end-1] == 'n' || text[p.end-1] == 'r') {
			p.end -= 2
		}
		if lastEnd < 0 || !joiner(text[lastEnd:i]) || namedEntry(text[p.start:p.end]) || flagArgument && blankBetween(text[lastEnd:i]) ||
			strings.IndexByte(text[lastEnd:i], ',') >= 0 && (listedName(text[p.start:p.end]) || listedOption(text[p.start:p.end]) ||
				len(r.cur) > 0 && (listedName(text[r.cur[len(r.cur)-1].start:r.cur[len(r.cur)-1].end]) || namedEntry(text[r.cur[len(r.cur)-1].start:r.cur[len(r.cur)-1].end]))) {
			r.flush()
		}
		r.add(p)
		// curl -H 'X-Api-Key: 1234' 'https://…': a flag's quoted argument, and the words after
		// it on the line are the command's next arguments, not more of one literal.
		flagArgument = afterFlag(text, i)
		lastEnd = end + 1
		i = end
	}
	r.flush()
	return r.all
}

// afterFlag reports a literal opening at text[q] that is a command-line flag's argument:
// -H '…', --header "…", --data='…'.
func afterFlag(text string, q int) bool {
	j := q
	if j > 0 && text[j-1] == '=' {
		j--
	} else {
		for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
			j--
		}
		if j == q {
			return false
		}
	}
	k := j
	for k > 0 && (isNameByte(text[k-1])) {
		k--
	}
	return k < j && text[k] == '-' && (k == 0 || text[k-1] == ' ' || text[k-1] == '\t') && k+1 < j && text[k+1] != '-' || k+2 < j && text[k:k+2] == "--"
}

// blankBetween reports text between two literals that is blanks on one line.
func blankBetween(between string) bool {
	return strings.Trim(between, " \t") == ""
}

// namedEntry reports a literal that opens with a name and = (REGISTRY_AUTH=htpasswd): an
// entry of its own in a list of environment entries, which starts a run rather than goes
// on with the literal before it.
func namedEntry(lit string) bool {
	i := 0
	for i < len(lit) && (isWordByte(lit[i]) || i > 0 && (lit[i] == '.' || lit[i] == '-')) {
		i++
	}
	return i > 0 && i < len(lit) && lit[i] == '=' && !isDigitByte(lit[0])
}

// listedOption reports a literal that is a command-line option ("--verbose", "-C"): an
// item of an argument list written one a line, never a piece of a wrapped value.
func listedOption(p string) bool {
	return optionWord(p) || len(p) == 2 && p[0] == '-' && isLetter(p[1])
}

// listedName reports a literal that is a name of code, one item of a list written one a line
// ('private_find',\n'private_findlast', 'KEY-FUNCTION', 'evstr'): a letter or underscore
// first, then letters, digits, _ - . only, in one case, and without digits unless a
// separator splits it into words. A key or token wrapped over a list's lines is base64
// (both cases) or hex and base32 (digits, no separator).
func listedName(p string) bool {
	if p == "" || !isLetter(p[0]) && p[0] != '_' {
		return false
	}
	lower, upper, digit, sep := false, false, false, false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case isLowerByte(c):
			lower = true
		case isUpperByte(c):
			upper = true
		case isDigitByte(c):
			digit = true
		case c == '_' || c == '-' || c == '.':
			sep = true
		default:
			return false
		}
	}
	return !(lower && upper) && (!digit || sep)
}

// codeListItem reports a line's token text[ls:le] that a comma ends with no quote between:
// an argument, a name imported or a member listed one a line (numbers.dmp1,
// _Ed25519PrivateKey,), when it is a name of code, maybe dotted, whose letters and digits
// run three characters long on average. A key wrapped over lines changes case or class
// every character or two, and is quoted where a list holds it.
func codeListItem(text string, ls, le int) bool {
	if le >= len(text) || text[le] != ',' {
		return false
	}
	tok := strings.TrimLeft(text[ls:le], "_")
	return identifierPath(tok) || codeName(tok)
}

// hashKey reports a quoted literal whose closing quote at end a fat comma follows
// ('Test2::Event::Plan' => '1.302120'): a key of a Perl, PHP or Ruby hash, never a piece of
// a secret split across literals, like a member's name before its colon.
func hashKey(text string, end int) bool {
	i := skipBlanks(text, end+1, 32)
	return strings.HasPrefix(text[i:], "=>")
}

// pieceRuns collects runs of adjacent pieces; a run of one piece is dropped.
type pieceRuns struct {
	all [][]piece
	cur []piece
}

func (r *pieceRuns) add(p piece) {
	if len(r.cur) >= maxPieces {
		r.flush()
	}
	r.cur = append(r.cur, p)
}

func (r *pieceRuns) flush() {
	if len(r.cur) >= 2 {
		r.all = append(r.all, r.cur)
	}
	r.cur = nil
}

// joiner reports whether the text between two literals only concatenates them.
func joiner(between string) bool {
	if len(between) > 24 {
		return false
	}
	ops := 0
	for i := 0; i < len(between); i++ {
		switch c := between[i]; c {
		case ' ', '\t', '\r':
		case '\n':
			ops++
		case '|':
			if !strings.Contains(between, "||") {
				return false // `a` | `b`: a Markdown table's cells or a shell's pipe; SQL joins with ||
			}
			ops++
		case '+', '.', '&', '\\', ',':
			ops++
		default:
			return false
		}
	}
	// "a" "b" (C and Python adjacent literals) joins too, but not "a", "b" on one line:
	// an argument list.
	if strings.Contains(between, ",") && !strings.Contains(between, "\n") {
		return false
	}
	return ops > 0 || strings.TrimSpace(between) == ""
}

// wrappedValueHead reports whether the last token of a line (text[k:le], the line from off)
// may be the head of a value wrapped onto the next lines: after = or : or a quote, or after a
// blank that follows one (token: ghp_…); after another blank only on a line long enough to have
// wrapped that is no command line, since the last word of a command (--region eu-west-1,
// vault kv get secret/app) is not the head of what the command printed.
func wrappedValueHead(text string, off, ls, k, le int) bool {
	if secretNameValue(text[k:le]) {
		return false // --secret=db-password: a secret's name, whole; the next line is output
	}
	if c := text[k-1]; c != ' ' && c != '\t' {
		return true
	}
	j := k - 1
	for j > ls && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	if j > ls && (text[j-1] == ':' || text[j-1] == '=') {
		return true
	}
	line := strings.TrimLeft(text[off:le], " \t")
	return le-off >= 60 && !strings.HasPrefix(line, "$ ") && !strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "> ") && !strings.HasPrefix(line, "PS ")
}

// tokenLineRuns finds runs of lines that each hold one token (8+ token characters), after
// an optional diff marker and indentation: a wrapped key or token.
func tokenLineRuns(text string) [][]piece {
	var r pieceRuns
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		ls, le := off, end
		if ls < le && (text[ls] == '+' || text[ls] == '-' || text[ls] == '>') {
			ls++
		}
		for ls < le && (text[ls] == ' ' || text[ls] == '\t') {
			ls++
		}
		for le > ls && (text[le-1] == ' ' || text[le-1] == '\r' || text[le-1] == '\\') {
			le--
		}
		// The quote, bracket or comma that closes what the wrapped value was in.
		for n := 0; n < 3 && le > ls && strings.IndexByte("\"'`)]};,", text[le-1]) >= 0; n++ {
			le--
		}
		ok := le-ls >= 8
		for k := ls; ok && k < le; k++ {
			// = only as base64 padding: name=value lines are assignments, not pieces.
			ok = tokenChar(text[k]) || text[k] == '=' && k >= le-2
		}
		ok = ok && !nextKeyLine(text[ls:le])    // API_KEY= left blank: an entry, not padding
		ok = ok && !identifierLine(text[ls:le]) // TOKEN_DUPLICATE, TokenGroups: an enum's next constant
		ok = ok && !codeListItem(text, ls, le)  // numbers.p,\n numbers.q,: arguments or imports one a line
		if ok {
			r.add(piece{ls, le})
		} else {
			r.flush()
			// A value wrapped after its name (DB_PASSWORD=Zx8c…\nQ5wE…, "token: ghp_…\n…"):
			// the line's last token opens a run that lines of one token may continue.
			k := le
			for k > ls && tokenChar(text[k-1]) {
				k--
			}
			if le-k >= 8 && k > ls && strings.IndexByte("=: \"'\t", text[k-1]) >= 0 && wrappedValueHead(text, off, ls, k, le) {
				r.add(piece{k, le})
			}
		}
		off = end + 1
	}
	r.flush()
	return r.all
}
