package vibe

import (
	"regexp"
	"strings"
)

// sqlInsertHead matches an INSERT statement's head up to its VALUES: the table and the
// columns named in their order.
var sqlInsertHead = regexp.MustCompile("(?i)\\binsert\\s+(?:ignore\\s+)?into\\s+[\\w.\"`\\[\\]]+\\s*\\(([^()]{1,1000})\\)\\s*values\\s*")

// findSQLInserts reads an INSERT statement's rows by its column list (insert into users
// (id, email, password, first_name) values ('rob', 'rob@example.com', 'x', 'Rob')): the
// value in a column whose name says secret is masked, and a value in another column is no
// secret whatever a rule made of its neighbours ('password','Rob' read as a key and its
// value is the password column's value and the next column's).
func findSQLInserts(text string, f *findings) {
	if !strings.Contains(text, "nsert") && !strings.Contains(text, "NSERT") || !strings.Contains(text, "nto") && !strings.Contains(text, "NTO") {
		return
	}
	var plain [][2]int
	for _, m := range sqlInsertHead.FindAllStringSubmatchIndex(text, -1) {
		var cols []string
		for c := range strings.SplitSeq(text[m[2]:m[3]], ",") {
			cols = append(cols, strings.Trim(strings.TrimSpace(c), "\"`[]"))
		}
		for i, rows := m[1], 0; i < len(text) && text[i] == '(' && rows < 1000; rows++ {
			values, end, ok := sqlRow(text, i+1)
			if !ok || len(values) != len(cols) {
				break
			}
			named := sqlNamedSecret(text, cols, values)
			for k, v := range values {
				if nameHasSecretWord(cols[k]) && !metadataName(cols[k]) || k == named {
					if lit := text[v[0]:v[1]]; len(lit) >= 2 && lit[0] == '\'' && !placeholderValue(lit[1:len(lit)-1]) && hasAlnum(lit) {
						f.addSpan(ruleSQLPass, v[0]+1, v[1]-1)
					}
					continue
				}
				plain = append(plain, v)
			}
			i = end
			for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
				i++
			}
			if i >= len(text) || text[i] != ',' {
				break
			}
			i++
			for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
				i++
			}
		}
	}
	if len(plain) == 0 {
		return
	}
	f.dropSpans(func(s span) bool {
		if s.rule != ruleKeyword {
			return false
		}
		for _, v := range plain {
			if s.start >= v[0] && s.end <= v[1] {
				return true
			}
		}
		return false
	})
}

// sqlNamedSecret is the index of the value column of a row of names and values whose name
// says secret (insert into settings (name, value) values ('smtp_password', 'x')), or -1.
func sqlNamedSecret(text string, cols []string, values [][2]int) int {
	name, value := -1, -1
	for k, c := range cols {
		c = strings.ToLower(c)
		switch {
		case nameHasSecretWord(c):
			// api_key: a credential's own column, not a row's name
		case c == "name" || c == "key" || strings.HasSuffix(c, "_name") || strings.HasSuffix(c, "_key"):
			name = k
		case c == "value" || strings.HasSuffix(c, "_value"):
			value = k
		}
	}
	if name < 0 || value < 0 {
		return -1
	}
	if n := strings.Trim(text[values[name][0]:values[name][1]], "'"); nameHasSecretWord(n) && !metadataName(n) {
		return value
	}
	return -1
}

// sqlRow reads the values of one row from text[i:], just past its opening parenthesis: each
// value's bounds (a quoted literal with its quotes, a doubled quote inside it one quote), and where the row
// ends, just past its closing parenthesis.
func sqlRow(text string, i int) (values [][2]int, end int, ok bool) {
	for len(values) < 500 {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i >= len(text) {
			return nil, 0, false
		}
		start := i
		if text[i] == '\'' {
			i++
			for {
				q := strings.IndexByte(text[i:], '\'')
				if q < 0 || strings.IndexByte(text[i:i+q], '\n') >= 0 {
					return nil, 0, false
				}
				i += q + 1
				if i < len(text) && text[i] == '\'' {
					i++
					continue
				}
				break
			}
		} else {
			for i < len(text) && text[i] != ',' && text[i] != ')' && text[i] != '\n' {
				if text[i] == '(' {
					return nil, 0, false // a call's arguments (NOW(), crypt('x', gen_salt('bf'))): not read
				}
				i++
			}
		}
		values = append(values, [2]int{start, i})
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i >= len(text) {
			return nil, 0, false
		}
		switch text[i] {
		case ',':
			i++
		case ')':
			return values, i + 1, true
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}
