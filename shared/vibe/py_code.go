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
