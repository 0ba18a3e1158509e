package vibe

import "strings"

// Python written by others names credentials in its docstrings far more often than it holds
// one. The rules here keep what such code says about a credential.

// restFieldName reports a name that is the argument of a reST (Sphinx) docstring field:
//
//	:type credential: ~azure.core.credentials.TokenCredential
//	:param password: The password to log in with.
//
// A type field (:type, :vartype, :paramtype) holds a type expression, never a secret. A
// description field (:param, :ivar, :keyword…) holds prose: it is kept only when its text
// is words, so that ":param password: hunter2" is still masked.
func restFieldName(s string, nameStart, nameEnd int) bool {
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	head := strings.TrimLeft(s[ls:nameStart], " \t")
	if len(head) < 4 || head[0] != ':' || head[len(head)-1] != ' ' {
		return false
	}
	fields := strings.Fields(head[1:])
	if len(fields) == 0 || len(fields) > 2 {
		return false // :param str password: (a type between the field and the name)
	}
	if nameEnd >= len(s) || s[nameEnd] != ':' {
		return false
	}
	value := strings.Fields(s[nameEnd+1 : lineEndAt(s, nameEnd)])
	switch fields[0] {
	case "type", "vartype", "paramtype":
		return len(fields) == 1
	case "param", "parameter", "arg", "argument", "ivar", "cvar", "var", "keyword", "kwarg", "kwparam", "key":
		// Prose: at least two words, the first of letters.
		return len(value) >= 2 && lowerWord(strings.ToLower(strings.TrimRight(value[0], ",.;:")))
	}
	return false
}

// setterLastArgument returns the last argument of a setter's call with more than one
// argument (keyring.set_password('svc', 'deploy', 's3cr3tpw!')): a password-setting call
// takes what the secret is for first and the secret last. multi is false for a call of one
// argument, which the caller judges as before; ok is false when the last argument is no
// quoted literal (set_password(svc, user, pw) holds none).
func setterLastArgument(s string, i int) (vs, ve int, multi, ok bool) {
	i = skipBlanks(s, i, 2)
	if i >= len(s) || s[i] != '(' {
		return 0, 0, false, false
	}
	last, depth := i+1, 0
	for k := i + 1; k < len(s) && k-i < 400; k++ {
		switch c := s[k]; c {
		case '"', '\'':
			e := strings.IndexByte(s[k+1:min(len(s), k+400)], c)
			if e < 0 {
				return 0, 0, false, false
			}
			k += e + 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
				continue
			}
			if !multi {
				return 0, 0, false, false
			}
			a := strings.TrimSpace(s[last:k])
			start := last + strings.Index(s[last:k], a)
			if len(a) >= 2 && (a[0] == '"' || a[0] == '\'') && a[len(a)-1] == a[0] {
				return start + 1, start + len(a) - 1, true, len(a) > 2
			}
			return 0, 0, true, false
		case ',':
			if depth == 0 {
				multi, last = true, k+1
			}
		case '\n':
			if depth == 0 && !multi {
				return 0, 0, false, false
			}
		}
	}
	return 0, 0, false, false
}
