package vibe

import "strings"

// Infrastructure-as-code files (Terraform, CloudFormation, Kubernetes, Ansible, protobuf
// definitions beside them) name credentials in shapes of their own: a password-named key
// whose value is a `value:` child on the next line, properties named like a token that hold
// an ARN, and field numbers after a token-named field.

// iacNameNoSecret reports a property name that says "token" and never holds one: a
// CloudFormation custom resource's ServiceToken is the ARN of the function or topic that
// serves it; an EFS file system's creation_token is an idempotency string the caller picks.
func iacNameNoSecret(name string) bool {
	return name == "ServiceToken" || strings.EqualFold(name, "creation_token") || name == "CreationToken"
}

// protoFieldNumber reports a name followed by `= N [` — a protobuf field or enum value's
// number with its options (`DATA_TOKEN = 11 [deprecated = true];`), or with the options on
// the next line (`= 2 [` ending the line). A number followed by an option list is how
// protobuf writes a field, never how a credential is assigned.
func protoFieldNumber(s string, nameEnd int) bool {
	i := skipBlanks(s, nameEnd, len(s))
	if i >= len(s) || s[i] != '=' {
		return false
	}
	i = skipBlanks(s, i+1, len(s))
	d := i
	for i < len(s) && i-d < 10 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == d || i-d > 9 {
		return false
	}
	i = skipBlanks(s, i, len(s))
	if i >= len(s) || s[i] != '[' {
		return false
	}
	// What follows the bracket: the end of the line, or an option's name (a word or a
	// parenthesised extension) and its `=`.
	j := skipBlanks(s, i+1, len(s))
	if j >= len(s) || s[j] == '\n' || s[j] == '\r' {
		return true
	}
	k := j
	if s[k] == '(' {
		for k < len(s) && s[k] != ')' && s[k] != '\n' {
			k++
		}
		k++
	} else {
		for k < len(s) && (isWordByte(s[k]) || s[k] == '.') {
			k++
		}
	}
	if k == j || k > len(s) {
		return false
	}
	k = skipBlanks(s, k, len(s))
	return k < len(s) && s[k] == '='
}

// valueChild returns the value of a `value:` line under a password-named key: a YAML key
// ending its line (`mock-proxy-password:`, the next line `  value: testpwd`), or a
// Kubernetes env entry whose `name:` is the credential's (`- name: DB_PASSWORD`, then
// `  value: "s3cr3t"`). The child's line must be indented at least as far as the name.
func valueChild(s string, nameStart, nameEnd int) (int, int, bool) {
	j := nameEnd
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	if j < len(s) && s[j] == ':' {
		j++
	}
	j = skipBlanks(s, j, len(s))
	if j < len(s) && s[j] == '\r' {
		j++
	}
	if j >= len(s) || s[j] != '\n' {
		return 0, 0, false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	indent := 0
	for ls+indent < len(s) && s[ls+indent] == ' ' {
		indent++
	}
	j++
	k := j
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k-j < indent && !strings.HasPrefix(strings.TrimLeft(s[ls:nameStart], " "), "- ") || !strings.HasPrefix(s[k:], "value:") {
		return 0, 0, false
	}
	vs := skipBlanks(s, k+len("value:"), len(s))
	ve := vs
	for ve < len(s) && s[ve] != '\n' && s[ve] != '\r' {
		ve++
	}
	if c := strings.Index(s[vs:ve], " #"); c >= 0 {
		ve = vs + c
	}
	for ve > vs && (s[ve-1] == ' ' || s[ve-1] == '\t') {
		ve--
	}
	if ve-vs >= 2 && (s[vs] == '"' || s[vs] == '\'') && s[ve-1] == s[vs] {
		vs, ve = vs+1, ve-1
	}
	return vs, ve, ve > vs
}

// findTerraformDefaults masks the default of a Terraform variable whose name says secret
// (variable "db_password" { default = "…" }): the value a plan takes when none is given,
// written in the block, lines below the name that keeps the keyword rule from seeing it.
func findTerraformDefaults(text string, f *findings) {
	for from := 0; ; {
		i := strings.Index(text[from:], "variable \"")
		if i < 0 {
			return
		}
		i += from + len("variable \"")
		from = i
		e := strings.IndexByte(text[i:], '"')
		if e <= 0 || e > 80 {
			continue
		}
		name := text[i : i+e]
		if !nameHasSecretWord(name) {
			continue
		}
		// The block, to the first line that opens with its closing brace.
		body := text[i+e : min(len(text), i+e+1200)]
		if end := strings.Index(body, "\n}"); end >= 0 {
			body = body[:end]
		}
		for _, line := range strings.Split(body, "\n") {
			t := strings.TrimSpace(line)
			rest, ok := strings.CutPrefix(t, "default")
			if !ok {
				continue
			}
			rest = strings.TrimLeft(rest, " \t")
			if !strings.HasPrefix(rest, "=") {
				continue
			}
			rest = strings.TrimLeft(rest[1:], " \t")
			if len(rest) < 3 || rest[0] != '"' {
				break
			}
			q := strings.IndexByte(rest[1:], '"')
			if q <= 0 {
				break
			}
			v := rest[1 : 1+q]
			if keepKeyword(name, v, true) && !strings.Contains(v, "${") {
				at := strings.Index(text[i:], line) + i + strings.Index(line, rest) + 1
				f.addSpan(ruleKeyword, at, at+q)
			}
			break
		}
	}
}
