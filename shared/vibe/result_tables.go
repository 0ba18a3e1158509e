package vibe

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// findResultTableSecrets masks the cells of a query result's columns whose names say secret:
// what psql, mysql and sqlite3 print for SELECT email, password FROM users, or a CLI's
// table of tokens. The separator line under (or, for mysql's boxes, around) the header
// gives the columns' spans; every row after the header, to a blank line, a "(n rows)" line
// or the box's closing border, has its cell in each such column masked.
func findResultTableSecrets(text string, f *findings) {
	if !strings.Contains(text, "---") {
		return
	}
	lines := strings.SplitAfter(text, "\n")
	starts := make([]int, len(lines))
	off := 0
	for i, l := range lines {
		starts[i] = off
		off += len(l)
	}
	for i := 0; i < len(lines); i++ {
		sep := strings.TrimRight(lines[i], "\r\n")
		spans := separatorSpans(sep)
		if spans == nil {
			continue
		}
		head, first := i-1, i+1
		if strings.HasPrefix(strings.TrimSpace(sep), "+") {
			// mysql: +----+ above the header, the header, +----+ again, the rows
			if i+2 >= len(lines) || separatorSpans(strings.TrimRight(lines[i+2], "\r\n")) == nil {
				continue
			}
			head, first = i+1, i+3
		}
		if head < 0 {
			continue
		}
		header := strings.TrimRight(lines[head], "\r\n")
		// The cells of a line: for psql, mysql and Markdown by their order between the bars,
		// so that a header behind other text (a JSON string's opening) still names them; for
		// sqlite's bare columns under the separator's spans.
		cells := func(l string) [][2]int {
			var out [][2]int
			for _, sp := range spans {
				a, b, ok := cellRange(l, sp)
				if !ok {
					a, b = 0, 0
				}
				out = append(out, [2]int{a, b})
			}
			return out
		}
		if strings.ContainsAny(sep, "+|") && strings.IndexByte(header, '|') >= 0 {
			cells = func(l string) [][2]int {
				c := pipeCells(l)
				if len(c) < len(spans) {
					return nil
				}
				return c[len(c)-len(spans):]
			}
		}
		hc := cells(header)
		var secret []int
		for k, c := range hc {
			if c[0] < c[1] && resultColumnSecret(header[c[0]:c[1]]) {
				secret = append(secret, k)
			}
		}
		if secret == nil && len(hc) == 2 && hc[0][0] < hc[0][1] && hc[1][0] < hc[1][1] && keyValueHeader(header[hc[0][0]:hc[0][1]], header[hc[1][0]:hc[1][1]]) {
			// A table of keys and values (vault kv get's Key / Value, a config listing):
			// the value of each row whose key names a secret.
			for j := first; j < len(lines) && j < first+500; j++ {
				row := strings.TrimRight(lines[j], "\r\n")
				if strings.TrimSpace(row) == "" || separatorSpans(row) != nil {
					break
				}
				rc := cells(row)
				if rc == nil || rc[0][0] >= rc[0][1] || rc[1][0] >= rc[1][1] {
					continue
				}
				if v := row[rc[1][0]:rc[1][1]]; resultColumnSecret(row[rc[0][0]:rc[0][1]]) && !placeholderValue(v) && len(v) >= 4 {
					f.addSpan(ruleNameValue, starts[j]+rc[1][0], starts[j]+rc[1][1])
				}
				i = j
			}
			continue
		}
		if secret == nil {
			continue
		}
		for j := first; j < len(lines) && j < first+500; j++ {
			row := strings.TrimRight(lines[j], "\r\n")
			t := strings.TrimSpace(row)
			if t == "" || strings.HasPrefix(t, "(") || separatorSpans(row) != nil {
				break
			}
			rc := cells(row)
			if rc == nil {
				break
			}
			for _, k := range secret {
				a, b := rc[k][0], rc[k][1]
				// (| Secret | Purpose |, then | `VSCE_TOKEN` | … |: a document's list of the
				// secrets a workflow reads, by name)
				if v := row[a:b]; a < b && !placeholderValue(v) && !strings.EqualFold(v, "null") && len(v) >= 4 && !(tokenWordHeader(header, hc[k]) && syntaxTokenCell(v)) && !secretNamedConstant(strings.Trim(v, "`")) && !settingNamedConstant(v) {
					f.addSpan(ruleNameValue, starts[j]+a, starts[j]+b)
				}
			}
			i = j
		}
	}
}

// pipeCells returns the trimmed extents of a line's cells between | bars, without the empty
// cells before a leading and after a trailing bar.
func pipeCells(l string) [][2]int {
	var cells [][2]int
	from := 0
	for k := 0; k <= len(l); k++ {
		if k < len(l) && l[k] != '|' {
			continue
		}
		a, b := from, k
		for a < b && (l[a] == ' ' || l[a] == '\t') {
			a++
		}
		for b > a && (l[b-1] == ' ' || l[b-1] == '\t') {
			b--
		}
		cells = append(cells, [2]int{a, b})
		from = k + 1
	}
	if len(cells) > 0 && cells[0][0] == cells[0][1] && strings.HasPrefix(strings.TrimSpace(l), "|") {
		cells = cells[1:]
	}
	if len(cells) > 0 && cells[len(cells)-1][0] == cells[len(cells)-1][1] && strings.HasSuffix(strings.TrimSpace(l), "|") {
		cells = cells[:len(cells)-1]
	}
	return cells
}

// separatorSpans reads a table's separator line (----+------, +----+----+, ---  -----) and
// returns the spans of its runs of dashes; nil for any other line.
func separatorSpans(l string) [][2]int {
	t := strings.TrimSpace(l)
	if len(t) < 3 || strings.Trim(t, "-+| =:") != "" || strings.Count(t, "-") < 3 {
		return nil
	}
	var spans [][2]int
	for k := 0; k < len(l); {
		if l[k] != '-' && l[k] != '=' {
			k++
			continue
		}
		s := k
		for k < len(l) && (l[k] == '-' || l[k] == '=') {
			k++
		}
		spans = append(spans, [2]int{s, k})
	}
	return spans
}

// cellRange returns the trimmed extent of a row's cell under a column's span, widened over
// a value that runs past it (psql lets a long value push the next separator right).
func cellRange(row string, sp [2]int) (int, int, bool) {
	if sp[0] >= len(row) {
		return 0, 0, false
	}
	a, b := sp[0], min(sp[1], len(row))
	for a > 0 && row[a-1] != '|' && row[a-1] != ' ' {
		a-- // a value that starts left of its column
	}
	for b < len(row) && row[b] != '|' && !(row[b] == ' ' && b+1 < len(row) && row[b+1] == ' ') {
		b++
	}
	for a < b && (row[a] == ' ' || row[a] == '|') {
		a++
	}
	for b > a && (row[b-1] == ' ' || row[b-1] == '|') {
		b--
	}
	return a, b, a < b && !strings.Contains(row[a:b], "|")
}

// resultColumnSecret reports a column name that says its cells are secrets: password,
// api_key, token, secret_hash…, not a name about one (password_updated_at, token_count).
func resultColumnSecret(name string) bool {
	if strings.ContainsAny(name, " ()") && !strings.Contains(name, "_") {
		return oneOfFold(strings.TrimSpace(name), "api key", "access token", "secret key")
	}
	parts := nameParts(name)
	if len(parts) > 1 && aboutSecretWords[parts[len(parts)-1]] {
		return false
	}
	return nameHasSecretWord(name)
}

// aboutSecretWords end column names that say something about a secret, not hold it.
var aboutSecretWords = map[string]bool{"at": true, "on": true, "date": true, "time": true, "count": true, "len": true,
	"length": true, "id": true, "type": true, "hint": true, "policy": true, "expiry": true, "expires": true, "required": true,
	"set": true, "changed": true, "updated": true, "created": true, "enabled": true, "reset": true, "name": true, "version": true}

// keyValueHeader reports the header of a table of keys and values: Key and Value, or Name,
// Field, Property, Setting or Variable and Value, in any case.
func keyValueHeader(k, v string) bool {
	return strings.EqualFold(v, "value") && oneOfFold(k, "key", "name", "field", "property", "setting", "variable", "var")
}

// findKeyValueRows masks the value of a two-cell row whose key names a secret where no
// separator line sets the table apart: a box-drawn table's row (│ API_KEY │ … │, ║ … ║, as
// cli-table and railway variables draw them), and the rows under a KEY or NAME and VALUE
// header written without a rule (pulumi config --show-secrets). The value is one token;
// a sentence or a type name is no value.
func findKeyValueRows(text string, f *findings) {
	boxed := strings.Contains(text, "│") || strings.Contains(text, "║") || strings.Contains(text, "┃")
	headed := strings.Contains(text, "VALUE") || strings.Contains(text, "Value")
	if !boxed && !headed {
		return
	}
	underHeader := false
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		line := strings.TrimRight(text[off:end], "\r")
		if boxed {
			if k, v, ok := boxRow(line); ok && resultColumnSecret(line[k[0]:k[1]]) && keyValueCell(line[k[0]:k[1]], line[v[0]:v[1]]) {
				f.addSpan(ruleNameValue, off+v[0], off+v[1])
			}
		}
		if headed {
			fields := strings.Fields(line)
			switch {
			case len(fields) == 2 && oneOfFold(fields[0], "key", "name") && strings.EqualFold(fields[1], "value") && strings.Contains(line, "  "):
				underHeader = true
			case underHeader && len(fields) == 2 && strings.Contains(line, "  "):
				v := strings.LastIndex(line, fields[1])
				if resultColumnSecret(fields[0]) && keyValueCell(fields[0], fields[1]) {
					f.addSpan(ruleNameValue, off+v, off+v+len(fields[1]))
				}
			default:
				underHeader = false
			}
		}
		off = end + 1
	}
}

// boxRow returns the extents of the two cells of a box-drawn table's row (│ a │ b │), or false
// for any other line.
func boxRow(line string) (key, value [2]int, ok bool) {
	var cells [][2]int
	from := 0
	for i := 0; i <= len(line); {
		r, size := rune(0), 1
		if i < len(line) {
			r, size = utf8.DecodeRuneInString(line[i:])
		}
		if i == len(line) || r == '│' || r == '║' || r == '┃' {
			a, b := from, i
			for a < b && (line[a] == ' ' || line[a] == '\t') {
				a++
			}
			for b > a && (line[b-1] == ' ' || line[b-1] == '\t') {
				b--
			}
			if a < b {
				cells = append(cells, [2]int{a, b})
			}
			from = i + size
		}
		i += size
	}
	if len(cells) != 2 || !strings.ContainsAny(line, "│║┃") {
		return key, value, false
	}
	return cells[0], cells[1], true
}

// keyValueCell reports a cell that may hold the value of the key k: one token of four
// characters or more, no placeholder and no header's word (Description, Type), and, unless k
// names a password (a word is one), not a word or words run together.
func keyValueCell(k, v string) bool {
	if len(v) < 4 || strings.ContainsAny(v, " \t") || placeholderValue(v) || oneOfFold(v, "null", "description", "value", "type", "default", "notes", "status", "details", "comment") {
		return false
	}
	return passwordName(k) || !isLetters(v) || !(dictWord(v) || wordsName(v) || camelWords(v))
}

// tokenWordHeader reports a column headed Token or Tokens alone: in documentation often the
// tokens of a syntax, a template or a query language, not credentials.
func tokenWordHeader(header string, c [2]int) bool {
	h := strings.TrimSpace(header[c[0]:c[1]])
	return strings.EqualFold(h, "token") || strings.EqualFold(h, "tokens")
}

// syntaxTokenDirective matches a directive of a syntax in a code span or alone (mode:agent,
// base:<ref>, is:open).
var syntaxTokenDirective = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,20}:(?:[a-z][a-z0-9_-]{0,20}|<[a-z_-]{1,20}>)$`)

// syntaxTokenCell reports a cell of such a column that is a word of the list or a directive
// (`mode:agent`), in backticks or not.
func syntaxTokenCell(v string) bool {
	v = strings.Trim(v, "`")
	if syntaxTokenDirective.MatchString(v) {
		after := v[strings.IndexByte(v, ':')+1:]
		return strings.HasPrefix(after, "<") || dictWord(after)
	}
	return dictWord(strings.ToLower(v))
}

// settingNamedConstant reports a constant's name in code marks that ends in the setting it
// holds (`VPS_HOST`, `DEPLOY_URL`, `S3_BUCKET`): in a document's table of a workflow's secrets
// the rows name them — the host and the user beside the key — and hold none of them.
func settingNamedConstant(v string) bool {
	if len(v) < 6 || v[0] != '`' || v[len(v)-1] != '`' || !upperSnakeName(v[1:len(v)-1]) {
		return false
	}
	v = v[1 : len(v)-1]
	switch v[strings.LastIndexByte(v, '_')+1:] {
	case "HOST", "HOSTNAME", "URL", "URI", "PORT", "NAME", "REGION", "ENDPOINT", "DOMAIN", "BUCKET", "PROJECT",
		"ACCOUNT", "EMAIL", "ORG", "ZONE", "PATH", "DIR", "SERVER", "DATABASE", "DB", "IP", "ADDRESS", "ADDR":
		return true
	}
	return false
}
