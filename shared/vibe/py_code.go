package vibe

import (
	"regexp"
	"slices"
	"strings"
)

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
	if len(head) < 4 || head[0] != ':' && head[0] != '@' || head[len(head)-1] != ' ' {
		return false // @type, @param: Epytext's fields (Twisted), as reST's
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
		if head[0] == '@' && len(value) > 0 && !strings.HasPrefix(value[0], "L{") && !strings.HasPrefix(value[0], "C{") {
			return false // Epytext's types are links: @type password: L{bytes}
		}
		return len(fields) == 1
	case "param", "parameter", "arg", "argument", "ivar", "cvar", "var", "keyword", "kwarg", "kwparam", "key":
		// Prose: at least two words, the first of letters, or one capitalised word closed
		// by a full stop (Required., Anything.).
		if len(value) == 1 && len(value[0]) > 3 && strings.HasSuffix(value[0], ".") && value[0][0] >= 'A' && value[0][0] <= 'Z' {
			return dictWord(value[0][:len(value[0])-1]) && isLetters(value[0][:len(value[0])-1])
		}
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

// pyValueNoSecret reports a value under a credential's name that Python code writes there
// instead of one (vs, ve: the value, quotes left out):
//
//   - a parameter's type given as a quoted forward reference in a def's signature
//     (def __init__(self, credential: "TokenCredential", …)): an annotation, never a default;
//   - the wire name in a serializer's attribute map ('resource_id': {'key': 'resourceId',
//     'type': 'str'}), which spells the member's own name again;
//   - a word under a name that ends in what kind of thing the credential is or how it is
//     sent (ACCESS_TOKEN_METHOD = 'GET', TOKEN_TYPE = 'Bearer', token_placement='header',
//     auth_type == 'token');
//   - a lower-case word under a name that opens with what is done to a credential
//     (update_password == 'always', save_password: 'never'): an option's choice;
//   - a number under a name that ends in a count, a size or a time (secret_shares=5,
//     token_num_uses=0, PASSWORD_RESET_TIMEOUT = 259200);
//   - a Google-style docstring's description of an argument (token: The runner's
//     authentication token), under an Args:, Returns: or like heading.
//
// A password compared or assigned under the credential's own name (password == 'Hunter2!xyz',
// user_password == 'dragon') is none of these and stays masked.
func pyValueNoSecret(s string, nameStart, nameEnd, vs, ve int, name string) bool {
	v := s[vs:ve]
	quoted := quotedAt(s, vs) && ve < len(s) && s[ve] == s[vs-1]
	parts := nameParts(name[strings.LastIndexByte(name, '.')+1:]) // self.update_password
	if len(parts) == 0 {
		return false
	}
	first, last := parts[0], parts[len(parts)-1]
	line := s[vs:lineEndAt(s, vs)] // code's value runs to the line's end: nothing may follow it
	switch {
	case quoted && quotedTypeAnnotation(s, nameStart, nameEnd, vs, ve):
		return true
	case quoted && name == "key" && attributeMapKey(s, nameStart, v):
		return true
	case len(parts) >= 2 && modeSuffixes[last] && modeWord(v, false):
		return true
	case len(parts) >= 2 && credentialVerbs[first] && modeWord(v, true) && !secretPart(first) && modeWords(v):
		return true
	case len(parts) >= 2 && quantitySuffixes[last] && !quoted && pyNumber(v):
		return true
	case !quoted && googleDocArgument(s, nameStart, nameEnd, vs):
		return true
	case !quoted && assignedWithEquals(s, vs) && (pySubscript(line) || pyNameExpression(line)):
		return true // vcenter_password=module.params["vcenter_password"], keys = keylist or []
	case !quoted && nameEnd < len(s) && s[nameEnd] == ':' && (pyTypeAnnotation(v) || pyTypeAnnotation(line)) && (inDefParameters(s, nameStart) || closesDefSignature(s, vs)):
		return true // passphrase: BytesOrStr) -> …, password_auth: _AuthArg,
	case quoted && authSchemes[strings.ToLower(v)] && v != strings.ToLower(v):
		return true // default_token='Bearer': the scheme a token is sent with
	case quoted && len(parts) >= 2 && patternSuffixes[last] && strings.ContainsAny(v, "\\[({%*+?^$|"):
		return true // _TOKEN_REF = r'[A-Z]\w*', LS32_PAT = "(?:{hex}:{hex}|{ipv4})"
	case quoted && formattedTemplate(s, v, ve):
		return true // creds = "%s:%s" % (user, pw), "…{hex}…".format(hex=…)
	case pyFormatField(v) || shortEscapedBytes(v):
		return true // 'Invalid private key: {0!r}', 'secret = %%s', b'\x00'
	case !quoted && assignedWithEquals(s, vs) && memberDefault(line) && !envFileLine(s, nameStart, nameEnd, vs):
		return true // secret=values.unset):
	case strings.HasPrefix(s[vs:], ":code:`<") || strings.HasPrefix(s[vs:], "``<"):
		return true // $skipToken=:code:`<token>`: reST markup around a placeholder
	case quoted && len(parts) >= 2 && messageSuffixes[last] && len(strings.Fields(v)) >= 2 && isLetters(strings.Fields(v)[0]):
		return true // password_prompt = 'Enter PIN for '
	case quoted && inOpenAPITypes(s, nameStart) && openAPIType(v):
		return true // openapi_types = {'secret_ref': 'V1SecretReference', …}
	case standardGUIDs[strings.ToUpper(v)]:
		return true // WS_KEY = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
	case !quoted && assignedWithEquals(s, vs) && assignedVariable(s, vs, ve):
		return true // self._LOGIN_TOKEN_V2 = v2_api_token, where v2_api_token = env.get(…)
	case quoted && strings.Contains(v, "%(") && strings.Contains(v, " ") && pyNamedField.MatchString(v):
		return true // set_password = 'ALTER USER %(user)s IDENTIFIED BY "%(password)s"': a statement's template
	case quoted && comparedTo(s, nameEnd, vs) && ((nameEnd < len(s) && s[nameEnd] == '.' || strings.Contains(name, ".") && !nameHasSecretWord(name[strings.LastIndexByte(name, '.')+1:])) && len(v) <= 12 && isLetters(v) && strings.ToLower(v) == v || len(v) >= 4 && isLetters(v) && strings.ToUpper(v) == v || escapedBytes.MatchString(v)):
		return true // if csrf_token == 'NOTPROVIDED', token.contents != 'endif': a marker tested for, a member's word
	case quoted && pathPrefixJoined(s, vs, ve):
		return true // 'credentials/' + client + '/' …: a path's first part, joined to what follows
	case !quoted && (strings.HasPrefix(v, "[(\"") || strings.HasPrefix(v, "[('")):
		return true // token = [("oauth2_access_token", session.access_token)]: a list of pairs, code
	case !quoted && (strings.HasPrefix(v, "self.") || strings.HasPrefix(v, "cls.")) && len(v) > 5 && pyIdentifier(strings.TrimPrefix(strings.TrimPrefix(v, "self."), "cls.")[:1]):
		return true // token_number = self.tokens_taken+len(self.tokens): the object's own members
	case quoted && len(v) == 5 && upperSnakeName(name) && sqlState.MatchString(v) && codeTableNeighbour(s, nameStart) || strings.HasPrefix(v, "**") && strings.HasSuffix(v, "**") && isLetters(strings.Trim(v, "*")):
		return true // INVALID_PASSWORD = '28P01' (psycopg2's error codes), :param passwd: **DEPRECATED**: markup
	case quoted && (last == "key" || last == "KEY") && len(parts) >= 2 && (len(v) == 2 && v[0] == '-' && isLetter(v[1]) || pascalName(v) || dottedPropertyKey(v)):
		return true // dest_key='Ec2KeyName', EMRFS_BA_ARG_KEY = '-e', EMRFS_SSE_KEY = 'fs.s3.enableServerSideEncryption': names
	case quoted && upperSnakeName(name) && snakeSecretName(v) && providerOptionPrefix[v[:max(0, strings.IndexByte(v, '_'))]]:
		return true // ACCESS_KEY = 'aws_access_key_id': the option or variable a credential is read from
	case !quoted && ve < len(s) && (s[ve] == ')' || s[ve] == ',') && v == name[strings.LastIndexByte(name, '.')+1:] || !quoted && strings.HasPrefix(v, name+")."):
		return true // Relayer.new(url: url, password: password): a variable passed under its own name
	case !quoted && vs >= 2 && s[vs-1] == ':' && s[vs-2] == ' ' && pyIdentifier(v):
		return true // has_secure_password :recovery_password: a Ruby symbol, the method's argument
	case strings.Contains(v, "#{") && strings.Contains(v, "}"):
		return true // "…credential: active_record_encryption.#{key}": what Ruby interpolates
	case isDigits(strings.ReplaceAll(strings.TrimRight(v, ",;)"), "_", "")) && slices.ContainsFunc(parts, func(p string) bool { return durationWords[p] }):
		return true // token-validity-in-seconds-for-remember-me: 2592000, expiredTokenAt: 1_700_000_000_000: a duration, a time
	case quoted && strings.HasSuffix(v, "=") && slices.Contains(nameParts(name), strings.ToLower(v[:len(v)-1])):
		return true // TOKEN_KEY = "token=": the parameter's name a header's value is parsed by
	case !quoted && pyPercentTemplate.MatchString(v):
		return true // auth_string = u'%s:%s' % (self.username, self.password): a template filled in
	case !quoted && patternSuffixes[last] && (strings.HasPrefix(v, "[\"^") || strings.HasPrefix(v, "['^")):
		return true // shadow_empty_locked_passwd_patterns = ["^{username}::", …]: patterns
	case formatFieldsOnly.MatchString(v):
		return true // Credential={1}/{2}: fields a .format() call fills
	case gpgFingerprint.MatchString(v):
		return true // TEST_KEYSERVER_KEY = "1BC3 0F71 … 013E": a public key's fingerprint, as gpg prints it
	case nameStart > 0 && (s[nameStart-1] == '\'' || s[nameStart-1] == '"') && nameEnd < len(s) && s[nameEnd] == ':' && ve < len(s) && s[ve] == s[nameStart-1] && isLowerByte(v[0]) && isLetters(v) && camelWords(v):
		return true // t('authentication:usernameNotValid'): a translation's namespace and key
	case phpCode(v):
		return true // '--password='.$connection['password']: a string PHP joins to a variable
	case quoted && strings.Contains(v, "{$") && strings.Contains(v, "}"):
		return true // $dsn = "pgsql:{$host}dbname='{$database}'": what PHP interpolates
	case quoted && translationKey(v):
		return true // const PASSWORD_RESET = 'passwords.sent': a translation's key
	case quoted && underscoredKeyName(name, v):
		return true // SESSION_KEY = '_auth_user_id': the name a session keeps a value under
	case !quoted && subscriptKey(s, nameStart, nameEnd) && pyIdentifier(strings.TrimRight(v, ";")) && strings.ContainsRune(v, '_') && strings.ToLower(v) == v:
		return true // request.session[LANGUAGE_SESSION_KEY] = lang_code: a variable stored under a constant
	}
	return false
}

// pyPercentTemplate matches a literal, maybe after Python's u or b, holding a %s, %d or %r
// and followed by the % operator: "%s:%s" % (user, password).
var pyPercentTemplate = regexp.MustCompile(`^[uUbB]?(?:'[^'\n]*%[sdr][^'\n]*'|"[^"\n]*%[sdr][^"\n]*") % `)

// formatFieldsOnly matches positional format fields and the separators between them alone.
var formatFieldsOnly = regexp.MustCompile(`^\{\d\}(?:[/:.,-]\{\d\})+$`)

// gpgFingerprint matches a key's fingerprint as gpg prints it: ten groups of four hex digits.
var gpgFingerprint = regexp.MustCompile(`^(?:[0-9A-F]{4} {1,2}){9}[0-9A-F]{4}$`)

// aclPermissions matches the permissions of a POSIX ACL's entry (rw-, r-x, ---), maybe
// with the id borg's listings add (rw-:0).
var aclPermissions = regexp.MustCompile(`^[r-][w-][xX-](?::\d+)?$`)

// signingOnly reports a line whose only word of signing in is "signing" (S3_SIGNING_NAMES):
// the user-and-password rule's signin matched inside it.
func signingOnly(s string, start int) bool {
	line := strings.ToLower(s[strings.LastIndexByte(s[:start], '\n')+1 : start])
	if !strings.Contains(line, "signing") || !quotedAt(s, start) || !strings.ContainsAny(line, "([") {
		return false // the signing_key is …: a sentence's key, not a call's pair
	}
	for _, w := range []string{"login", "log_in", "sign_in", "logon", "auth", "credential", "connect"} {
		if strings.Contains(line, w) {
			return false
		}
	}
	return !strings.Contains(strings.ReplaceAll(line, "signing", ""), "signin")
}

// chainTargets reports names assigned together before start (grp = pwd = cached_ops).
func chainTargets(s string, start int) bool {
	line := s[strings.LastIndexByte(s[:start], '\n')+1 : start]
	parts := strings.Split(line, " = ")
	if len(parts) < 3 || strings.TrimSpace(parts[len(parts)-1]) != "" {
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		if !pyIdentifier(strings.TrimSpace(p)) {
			return false
		}
	}
	return true
}

// pathPrefixJoined reports a quoted literal ending in / that + joins to what follows
// (lookup('ansible.builtin.password', 'credentials/' + client + '/' + role)): a path built.
func pathPrefixJoined(s string, vs, ve int) bool {
	return ve > vs && s[ve-1] == '/' && quotedAt(s, vs) && ve < len(s) && s[ve] == s[vs-1] && strings.HasPrefix(strings.TrimLeft(s[ve+1:], " "), "+ ")
}

// tupleTargets reports an assignment at the = before start whose left side is a list of
// names (username, _, password = login): Python unpacking a value, no connection string.
func tupleTargets(s string, start int) bool {
	ls := strings.LastIndexByte(s[:start], '\n') + 1
	eq := strings.LastIndexByte(s[ls:start], '=')
	if eq < 0 {
		return false
	}
	names := strings.Split(s[ls:ls+eq], ",")
	if len(names) < 2 {
		return false
	}
	for _, n := range names {
		if !pyIdentifier(strings.TrimPrefix(strings.TrimSpace(n), "*")) {
			return false
		}
	}
	return true
}

// escapedBytes matches a literal of \x escapes alone: bytes a protocol sends.
var escapedBytes = regexp.MustCompile(`^(?:\\x[0-9a-fA-F]{2}){2,16}$`)

// providerOptionPrefix are the first words of the options and variables cloud and API
// clients read credentials from (aws_access_key_id, azure_client_secret): a name with one
// first is where a key is found, not the key.
var providerOptionPrefix = map[string]bool{"aws": true, "azure": true, "gcp": true, "google": true, "github": true,
	"gitlab": true, "openai": true, "anthropic": true, "hf": true, "huggingface": true, "docker": true, "npm": true,
	"pypi": true, "twine": true, "heroku": true, "do": true, "digitalocean": true, "os": true, "openstack": true}

// translationKey reports lower-case words joined by dots, two to four, each of three letters
// or more and the last a word of English (passwords.sent, auth.failed): the key a message is
// looked up by in a framework's translations.
func translationKey(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if len(p) < 3 || !isLetters(strings.ReplaceAll(p, "_", "")) || strings.ToLower(p) != p {
			return false
		}
	}
	return dictWord(parts[len(parts)-1])
}

// durationWords name a span of time, how long something lasts or when (expiredTokenAt): a
// number under a name with one is how long a token is valid or when it lapses, not a token.
var durationWords = map[string]bool{"at": true, "timestamp": true, "period": true, "seconds": true, "secs": true, "minutes": true, "mins": true, "hours": true,
	"days": true, "ms": true, "millis": true, "milliseconds": true, "validity": true, "ttl": true, "timeout": true,
	"lifetime": true, "expiry": true, "expiration": true}

// pascalName reports a name in Pascal case of two words or more, each a word of English or
// of three letters at most, a run of digits at most (Ec2KeyName, Ec2SubnetId): a field's or
// a parameter's name.
func pascalName(v string) bool {
	if len(v) < 4 || len(v) > 48 || !isUpperByte(v[0]) || !pyIdentifier(v) || strings.Contains(v, "_") || digitRuns(v) > 1 || strings.ToUpper(v) == v {
		return false
	}
	var parts []string
	for i, w := 0, 0; i <= len(v); i++ {
		if i == len(v) || i > w && isUpperByte(v[i]) && !isUpperByte(v[i-1]) {
			parts = append(parts, v[w:i])
			w = i
		}
	}
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		t := strings.ToLower(strings.TrimRight(p, "0123456789"))
		if len(t) < 2 || len(t) > 3 && !dictWord(t) {
			return false // DjayBenyJrtpvyd…: camel humps of no words, generated
		}
	}
	return true
}

// dottedPropertyKey reports a property's dotted name whose last part is in camel case
// (fs.s3.enableServerSideEncryption): a setting's key.
func dottedPropertyKey(v string) bool {
	segs := strings.Split(v, ".")
	if len(segs) < 2 || len(v) > 80 {
		return false
	}
	for _, seg := range segs {
		if !pyIdentifier(seg) || digitRuns(seg) > 1 || seg[0] < 'a' || seg[0] > 'z' {
			return false
		}
	}
	l := segs[len(segs)-1]
	return len(nameParts(l)) >= 2 && !randomValue(l)
}

// sqlState matches an SQLSTATE code: two characters of class, three of subclass.
var sqlState = regexp.MustCompile(`^[0-9A-Z]{2}[0-9A-Z]{3}$`)

// codeTableLine matches a constant set to such a code, a line of a table of them.
var codeTableLine = regexp.MustCompile(`^[A-Z][A-Z0-9_]* = ['"][0-9A-Z]{5}['"]$`)

// codeTableNeighbour reports a line before or after the one at p that sets another constant
// to a code of the same shape: INVALID_PASSWORD = '28P01' among psycopg2's error codes.
func codeTableNeighbour(s string, p int) bool {
	ls := strings.LastIndexByte(s[:p], '\n') + 1
	le := lineEndAt(s, p)
	if ls > 0 {
		ps := strings.LastIndexByte(s[:ls-1], '\n') + 1
		if codeTableLine.MatchString(strings.TrimRight(s[ps:ls-1], "\r")) {
			return true
		}
	}
	if le < len(s) {
		return codeTableLine.MatchString(strings.TrimRight(s[le+1:lineEndAt(s, le+1)], "\r"))
	}
	return false
}

// pyNamedField matches a named field of Python's % formatting: %(user)s.
var pyNamedField = regexp.MustCompile(`%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]`)

// comparedTo reports a name an equality test follows (token == 'x', token.contents != 'x')
// before the value at vs: the value is what the code looks for, not what it stores.
func comparedTo(s string, nameEnd, vs int) bool {
	between := s[nameEnd:max(nameEnd, vs-1)]
	if strings.ContainsAny(between, "\n;") {
		return false
	}
	between = strings.TrimLeft(between, ".abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789[]:")
	between = strings.TrimSpace(between)
	return between == "==" || between == "!=" || between == "===" || between == "!=="
}

// underscoredKeyName reports a value of lower-case words after one or two underscores
// under an upper-case constant whose name ends in KEY or TOKEN (SESSION_KEY = '_auth_user_id',
// INTERNAL_RESET_SESSION_TOKEN = '_password_reset_token'): a private name a session or a
// cache keeps a value under, in the convention of Python's and JavaScript's private names.
func underscoredKeyName(name, v string) bool {
	if !upperSnakeName(name) || !(strings.HasSuffix(name, "_KEY") || strings.HasSuffix(name, "_TOKEN")) || len(v) > 48 || !strings.HasPrefix(v, "_") {
		return false
	}
	w := strings.TrimPrefix(strings.TrimPrefix(v, "_"), "_")
	if w == "" || !isLowerByte(w[0]) {
		return false
	}
	for _, p := range strings.Split(w, "_") {
		if t := strings.TrimRight(p, "0123456789"); t == "" || !isLetters(t) || strings.ToLower(t) != t {
			return false
		}
	}
	return true
}

// subscriptKey reports a name written as a subscript of a variable (session[LANG_KEY]):
// what is assigned to it is stored under that key.
func subscriptKey(s string, nameStart, nameEnd int) bool {
	if nameStart >= 3 && (s[nameStart-1] == '"' || s[nameStart-1] == '\'') && s[nameStart-2] == '[' && nameEnd+1 < len(s) && s[nameEnd] == s[nameStart-1] && s[nameEnd+1] == ']' {
		nameStart--
		nameEnd++ // pkcs8_key["privateKey"] = pkcs1_key
	}
	return nameStart >= 2 && s[nameStart-1] == '[' && isWordByte(s[nameStart-2]) && nameEnd < len(s) && s[nameEnd] == ']'
}

// inOpenAPITypes reports a key inside the literal an OpenAPI or Swagger generated model
// assigns to openapi_types (swagger_types in older generators): it maps each member to its
// type's name (kubernetes' 'secret_ref': 'V1SecretReference'). The map holds no braces of
// its own, so the key is inside it while no } comes between.
func inOpenAPITypes(s string, nameStart int) bool {
	head := s[max(0, nameStart-4000):nameStart]
	i := max(strings.LastIndex(head, "openapi_types = {"), strings.LastIndex(head, "swagger_types = {"))
	return i >= 0 && strings.IndexByte(head[i:], '}') < 0
}

// openAPIType reports a type as those generators spell it: a builtin, a model's class
// (V1SecretReference) or either inside list[…] or dict(str, …).
func openAPIType(v string) bool {
	for {
		switch {
		case strings.HasPrefix(v, "list[") && strings.HasSuffix(v, "]"):
			v = v[5 : len(v)-1]
		case strings.HasPrefix(v, "dict(str, ") && strings.HasSuffix(v, ")"):
			v = v[10 : len(v)-1]
		default:
			switch v {
			case "str", "int", "float", "bool", "object", "date", "datetime", "file", "bytearray":
				return true
			}
			return typeName(v)
		}
	}
}

// standardGUIDs are identifiers a standard publishes for every implementation to write: the
// GUID a WebSocket server hashes with the client's key (RFC 6455) and the name-space UUIDs of
// RFC 4122. Everyone's copy holds the same value, so it hides nothing; any other GUID under a
// key's name is still masked.
var standardGUIDs = map[string]bool{
	"258EAFA5-E914-47DA-95CA-C5AB0DC85B11": true,
	"6BA7B810-9DAD-11D1-80B4-00C04FD430C8": true, // DNS
	"6BA7B811-9DAD-11D1-80B4-00C04FD430C8": true, // URL
	"6BA7B812-9DAD-11D1-80B4-00C04FD430C8": true, // OID
	"6BA7B814-9DAD-11D1-80B4-00C04FD430C8": true, // X.500
}

// assignedVariable reports a value that is a Python name the same text assigns on a line of
// its own (v2_api_token = env.get('CLC_V2_API_TOKEN', False)): a variable, read where it is
// used, whatever digits it holds, maybe closing a call (api_passwd=v2_api_passwd)). A word no
// line assigns (token = tok3n_Xk9mQ2) is still
// a value.
func assignedVariable(s string, vs, ve int) bool {
	v := s[vs:ve]
	if !pyIdentifier(v) || strings.Trim(s[ve:lineEndAt(s, ve)], " \t\r),]") != "" {
		return false
	}
	for i := 0; ; {
		k := strings.Index(s[i:], v)
		if k < 0 {
			return false
		}
		k += i
		i = k + len(v)
		if k == vs {
			continue
		}
		ls := strings.LastIndexByte(s[:k], '\n') + 1
		if strings.TrimLeft(s[ls:k], " \t") != "" || i < len(s) && isWordByte(s[i]) {
			continue
		}
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j+1 < len(s) && s[j] == '=' && s[j+1] != '=' {
			return true
		}
	}
}

// pyRuleNoSecret reports what a rule of a file format took from Python's docstrings:
//
//   - the .netrc rule's account or password followed, after a blank, by a word no .netrc
//     holds there: prose (the storage account type for the managed disk), where a .netrc
//     entry's value ends its line or comes before the next of its tokens; a word of English
//     closing a sentence (storage account type.) is prose too;
//   - the registry-auth rule's "password" given as reST markup around a placeholder
//     ("password":":code:`<pfx-file-password>`").
func pyRuleNoSecret(id, s string, start, end int) bool {
	switch id {
	case ruleNetrc:
		j := end
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if w := strings.TrimSuffix(s[start:end], "."); len(w) < end-start && isLetters(w) && dictWord(strings.ToLower(w)) {
			return true // … storage account type.
		}
		if j == end || j >= len(s) || s[j] == '\n' || s[j] == '\r' {
			return false
		}
		k := j
		for k < len(s) && isLetter(s[k]) {
			k++
		}
		return !netrcTokens[s[j:k]]
	case ruleRegAuth:
		return strings.HasPrefix(s[start:end], ":code:`<") || strings.HasPrefix(s[start:end], "``<")
	case ruleCLIFlag:
		return quotedAt(s, start) && end < len(s) && s[end] == s[start-1] && formattedTemplate(s, s[start:end], end) // ['-passwd', '/Users/%s' % name]
	case ruleConnString:
		// username, _, password = login: a tuple unpacked; hostname = userid = password =
		// virtual_host = None: names assigned together
		// accountKey = accountKeyPrefix + id: a name in camel case joined to another
		return pyIdentifier(s[start:end]) && (tupleTargets(s, start) || chainTargets(s, start) || strings.HasPrefix(s[end:], " = ")) ||
			identifierPath(s[start:end]) && camelWords(s[start:end]) && strings.HasPrefix(s[end:], " + ") ||
			// def password=(new_password) ⏎ @password = new_password: a parameter, read by its name
			pyIdentifier(s[start:end]) && strings.IndexByte(s[start:end], '_') > 0 && parameterOf(s, s[start:end])
	case ruleCLILogin:
		return aclPermissions.MatchString(s[start:end]) // user:root:rw-: a POSIX ACL's entry, its permissions
	case ruleIDPassword:
		if signingOnly(s, start) {
			return true // S3_SIGNING_NAMES = ('s3', 's3-outposts'): signing, not a sign-in
		}
		// assert client_secret is github.GithubObject.NotSet or …: Python's identity test
		line := strings.TrimLeft(s[strings.LastIndexByte(s[:start], '\n')+1:start], " \t")
		return identifierPath(strings.TrimRight(s[start:end], ":,)")) && (strings.HasPrefix(line, "assert ") || strings.HasPrefix(line, "if ") || strings.HasPrefix(line, "elif ") || strings.HasPrefix(line, "while ") || strings.HasPrefix(line, "return "))
	}
	return false
}

// netrcTokens are the words of a .netrc entry.
var netrcTokens = map[string]bool{"machine": true, "default": true, "login": true, "password": true,
	"passwd": true, "account": true, "macdef": true, "port": true}

// envFileLine reports an assignment laid out as a .env file or a shell writes it: the name
// opens its line (after blanks or export) and is joined to its value by a bare =
// (TOKEN=keyword.control). Its value is text, not a Python member, whatever it spells.
func envFileLine(s string, nameStart, nameEnd, vs int) bool {
	if nameEnd+1 != vs || s[nameEnd] != '=' {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	head := strings.TrimSpace(s[ls:nameStart])
	return head == "" || head == "export"
}

// messageSuffixes end a name of text shown about a credential (password_prompt,
// token_error_message): its value is a sentence.
var messageSuffixes = map[string]bool{"prompt": true, "message": true, "msg": true, "label": true, "help": true,
	"title": true, "hint": true, "description": true, "error": true, "placeholder": true, "text": true}

// assignedWithEquals reports a value after an = of code (a YAML or config line's value
// after a colon may be anything: password: tokens[1], password: salt and pepper).
func assignedWithEquals(s string, vs int) bool {
	k := skipBlanksBack(s, vs)
	return k > 0 && s[k-1] == '=' && (k < 2 || strings.IndexByte("=!<>", s[k-2]) < 0)
}

// pyTail cuts what closes an argument or a statement off a value read to its line's end.
func pyTail(v string) string {
	return strings.TrimRight(v, ",;) \t\r")
}

// pySubscript reports a value that is a variable indexed by keys (module.params["password"],
// data['access_token'], auth[2], cfg[key]), the value read from where it is kept.
func pySubscript(v string) bool {
	v = pyTail(v)
	i := 0
	for i < len(v) && (isWordByte(v[i]) || v[i] == '.') {
		i++
	}
	if i == 0 || i == len(v) || v[i] != '[' || isDigitByte(v[0]) || !identifierPathOK(v[:i]) {
		return false
	}
	for i < len(v) {
		if v[i] != '[' {
			return false
		}
		j := strings.IndexByte(v[i:], ']')
		if j < 2 {
			return false
		}
		key := v[i+1 : i+j]
		if key[0] == '"' || key[0] == '\'' {
			if len(key) < 3 || key[len(key)-1] != key[0] || strings.ContainsAny(key[1:len(key)-1], "\"'[]") {
				return false
			}
		} else if !pyIdentifier(strings.ReplaceAll(key, ".", "_")) && strings.Trim(key, "0123456789-:") != "" {
			return false
		}
		i += j + 1
	}
	return true
}

// identifierPathOK reports names joined by dots (self.module.params).
func identifierPathOK(p string) bool {
	for _, seg := range strings.Split(p, ".") {
		if !pyIdentifier(seg) {
			return false
		}
	}
	return true
}

// pyNameExpression reports names joined by Python's operators of words, with empty
// literals and None (vault_secrets or [], keylist if keylist else [], x is not None): no
// literal with anything in it, so no secret. Operands and operators take turns, so prose
// (value with quotes and spaces) is none.
func pyNameExpression(v string) bool {
	words := strings.Fields(pyTail(v))
	if len(words) < 3 {
		return false
	}
	operand := true // an operand is due
	for i, w := range words {
		switch w {
		case "or", "and", "if", "else", "is", "in":
			if operand {
				return false
			}
			operand = true
		case "not":
			if !operand && (i+1 == len(words) || words[i+1] != "in") && (i == 0 || words[i-1] != "is") {
				return false
			}
		default:
			if !operand {
				return false
			}
			switch w {
			case "[]", "{}", "()", "None", "True", "False", "''", `""`:
			default:
				if !identifierPathOK(w) {
					return false
				}
			}
			operand = false
		}
	}
	if operand {
		return false
	}
	// Python's own: an empty literal or None as an operand, or a conditional (a sentence's
	// "and" between two words is none: DB_PASSWORD=hunter22x and …).
	ifs, elses, coded := false, false, true
	for i := 0; i < len(words); i += 2 {
		if strings.IndexByte(words[i], '_') < 0 && strings.IndexByte(words[i], '.') < 0 {
			coded = false // token_generator or generate_token: every operand a name of code
		}
	}
	if coded && (words[1] == "or" || words[1] == "and") {
		return true
	}
	for _, w := range words {
		switch w {
		case "[]", "{}", "()", "None", "True", "False", "''", `""`:
			return true
		case "if":
			ifs = true
		case "else":
			elses = true
		}
	}
	return ifs && elses
}

// pyTypeAnnotation reports an unquoted type expression read to the line's end, up to the
// comma, bracket or = that closes the parameter (BytesOrStr, Optional[str], _AuthArg,
// Sequence[bytes]).
func pyTypeAnnotation(v string) bool {
	end, depth := len(v), 0
scan:
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case (c == ',' || c == ')' || c == '=') && depth <= 0:
			end = i
			break scan
		case isWordByte(c) || c == '.' || depth > 0 && (c == ' ' || c == ','):
		default:
			return false
		}
	}
	t := strings.TrimSpace(v[:end])
	return t != "" && depth <= 0 && (isLetter(t[0]) || t[0] == '_')
}

// secretPart reports a name part that is a credential word itself.
func secretPart(p string) bool {
	return nameHasSecretWord(p)
}

// modeSuffixes end a name that says what kind of credential is meant or how it travels,
// not the credential: its value is a word of a closed set.
var modeSuffixes = map[string]bool{"method": true, "methods": true, "type": true, "types": true, "mode": true, "kind": true,
	"placement": true, "location": true, "style": true, "format": true, "flow": true, "strategy": true, "scope": true}

// credentialVerbs open a name that says what is done to a credential (update_password,
// ask_vault_pass): an option whose value is a choice.
var credentialVerbs = map[string]bool{"update": true, "change": true, "reset": true, "save": true, "ask": true, "prompt": true,
	"require": true, "force": true, "generate": true, "store": true, "remember": true, "expire": true, "rotate": true,
	"validate": true, "verify": true, "check": true, "enable": true, "disable": true, "allow": true, "show": true,
	"hide": true, "encrypt": true, "hash": true, "send": true, "renew": true, "revoke": true, "create": true, "delete": true}

// quantitySuffixes end a name that counts, sizes or times a credential.
var quantitySuffixes = map[string]bool{"timeout": true, "ttl": true, "uses": true, "shares": true, "threshold": true,
	"length": true, "len": true, "size": true, "count": true, "limit": true, "retries": true, "attempts": true,
	"interval": true, "age": true, "lifetime": true, "expiry": true, "seconds": true, "minutes": true, "hours": true,
	"days": true, "bits": true, "bytes": true, "digits": true}

// modeWord reports a word of letters, maybe several joined by _ or - (GET, Bearer,
// on_create, client_credentials), of at most 24 characters; lower asks for lower case.
func modeWord(v string, lower bool) bool {
	if len(v) == 0 || len(v) > 24 || !isLetter(v[0]) || !isLetter(v[len(v)-1]) {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z' && !lower:
		case (c == '_' || c == '-') && isLetter(v[i-1]):
		default:
			return false
		}
	}
	return true
}

// modeWords reports a mode spelled in words (disabled, email_link, on-demand): each part of
// three letters or more an English word. A generated value set apart by dashes
// (reset_password_token: 'zxoxwcq-shrxh-vjfqd') is none.
func modeWords(v string) bool {
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == '-' }) {
		if len(p) >= 3 && !dictWord(p) {
			return false
		}
	}
	return true
}

// pyNumber reports a decimal number as code writes it (5, 259200, 60 * 60 * 24, 3_600).
func pyNumber(v string) bool {
	v = strings.TrimRight(v, ",; )")
	if v == "" || !isDigitByte(v[0]) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isDigitByte(v[i]) && strings.IndexByte("_ *.", v[i]) < 0 {
			return false
		}
	}
	return len(v) <= 24
}

// quotedTypeAnnotation reports a quoted value after name: within a def's parameters, a
// forward reference to a type (credential: "TokenCredential", signing_key: 'SSHKey'): the
// annotation says what kind of object is passed; a default would follow an =.
func quotedTypeAnnotation(s string, nameStart, nameEnd, vs, ve int) bool {
	if nameEnd >= len(s) || s[nameEnd] != ':' || skipBlanks(s, nameEnd+1, 2) != vs-1 {
		return false
	}
	if a := skipBlanks(s, ve+1, 2); a < len(s) && strings.IndexByte(",)=\n", s[a]) < 0 {
		return false
	}
	return typeName(s[vs:ve]) && (inDefParameters(s, nameStart) || closesDefSignature(s, ve+1))
}

// closesDefSignature reports parameters from i on that a def's signature closes: the first
// bracket left open closes as ")" then an optional return annotation and the ":" ending the
// line (") -> None:", "):"), where the def itself is before the text's start.
func closesDefSignature(s string, i int) bool {
	depth := 0
	for k := i; k < len(s) && k-i < 3000; k++ {
		switch s[k] {
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth < 0 {
				return false
			}
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			rest := strings.TrimSpace(s[k+1 : lineEndAt(s, k)])
			if c := strings.IndexByte(rest, '#'); c >= 0 {
				rest = strings.TrimSpace(rest[:c])
			}
			return rest == ":" || strings.HasPrefix(rest, "->") && strings.HasSuffix(rest, ":")
		}
	}
	return false
}

// typeName reports a class's name, maybe qualified by its module (_models.X, ~a.b.X): the
// last segment opens with a capital and is made of capitalised words, acronyms and numbers,
// English words at least half of the words (AsyncTokenCredential, SSHKey,
// GenerateCredentialsParameters, V1SecretReference); a lower-case run after a digit or a
// capital of its own (Hunter2xyz, Xk9mQ2) is no class's name.
func typeName(v string) bool {
	v = strings.TrimPrefix(v, "~")
	if i := strings.LastIndexByte(v, '.'); i >= 0 {
		for _, seg := range strings.Split(v[:i], ".") {
			if !pyIdentifier(seg) {
				return false
			}
		}
		v = v[i+1:]
	}
	if len(v) < 4 || v[0] < 'A' || v[0] > 'Z' {
		return false
	}
	words, long, pieces := 0, 0, 0
	for i := 0; i < len(v); {
		j := i + 1
		switch c := v[i]; {
		case isDigitByte(c):
			for j < len(v) && isDigitByte(v[j]) {
				j++
			}
		case c >= 'A' && c <= 'Z':
			for j < len(v) && v[j] >= 'A' && v[j] <= 'Z' {
				j++
			}
			if j-i > 1 && j < len(v) && v[j] >= 'a' && v[j] <= 'z' {
				j-- // SSHKey: the last capital opens the next word
			}
			if j-i == 1 {
				for j < len(v) && v[j] >= 'a' && v[j] <= 'z' {
					j++
				}
				if j-i >= 3 {
					long++
					if dictWord(v[i:j]) {
						words++
					}
				}
			} else if j-i > 6 {
				return false
			}
		default:
			return false
		}
		pieces++
		i = j
	}
	return words >= 1 && 2*words >= long && pieces >= 2
}

// inDefParameters reports a position inside the parentheses of a def's parameters, which
// may run over several lines.
func inDefParameters(s string, i int) bool {
	depth := 0
	for k := i - 1; k >= 0 && i-k < 3000; k-- {
		switch s[k] {
		case ')', ']', '}':
			depth++
		case '[', '{':
			depth--
			if depth < 0 {
				return false
			}
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := k
			for j > 0 && isWordByte(s[j-1]) {
				j--
			}
			return j < k && j >= 4 && s[j-4:j] == "def "
		}
	}
	return false
}

// attributeMapKey reports the "key" of a serializer's attribute map whose value spells the
// member it describes ('resource_id': {'key': 'resourceId', 'type': 'str'}, or
// 'properties.resourceId' for a nested one).
func attributeMapKey(s string, nameStart int, v string) bool {
	k := nameStart - 1 // the name's opening quote
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\n' || s[k-1] == '\t' || s[k-1] == '\r') {
		k--
	}
	if k <= 0 || s[k-1] != '{' { // k < 0: a name opening the text has no quote before it
		return false
	}
	k = skipBlanksBack(s, k-1)
	if k == 0 || s[k-1] != ':' {
		return false
	}
	k = skipBlanksBack(s, k-1)
	if k == 0 || s[k-1] != '"' && s[k-1] != '\'' {
		return false
	}
	open := strings.LastIndexByte(s[max(0, k-80):k-1], s[k-1])
	if open < 0 {
		return false
	}
	member := s[max(0, k-80)+open+1 : k-1]
	return pyIdentifier(member) && spellsName(member, v)
}

// pyIdentifier reports a Python identifier of ASCII letters, digits and _.
func pyIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && s[i] != '_' && !(i > 0 && isDigitByte(s[i])) {
			return false
		}
	}
	return s != ""
}

func skipBlanksBack(s string, k int) int {
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	return k
}

// googleDocArgument reports a name opening its line in a Google-style docstring section
// (Args:, Returns:, Attributes:…, at a lower indent above, every line between indented
// deeper) and a description of three or more words after its colon, the first of letters
// (token: The runner's authentication token; developerKey: string, key obtained from). A
// one- or two-word value is still judged as a setting's.
func googleDocArgument(s string, nameStart, nameEnd, vs int) bool {
	if nameEnd >= len(s) || s[nameEnd] != ':' {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	indent := nameStart - ls
	if strings.Trim(s[ls:nameStart], " ") != "" || indent == 0 {
		return false
	}
	words := strings.Fields(s[nameEnd+1 : lineEndAt(s, nameEnd)])
	if len(words) < 3 || !isLetters(strings.TrimRight(words[0], ",.;:)")) {
		return false
	}
	for end, n := ls-1, 0; end > 0 && n < 40; n++ {
		ps := strings.LastIndexByte(s[:end], '\n') + 1
		line := s[ps:end]
		end = ps - 1
		t := strings.TrimLeft(line, " ")
		if t == "" {
			continue
		}
		if len(line)-len(t) >= indent {
			continue // the lines of the section above the name
		}
		switch strings.TrimSpace(t) {
		case "Args:", "Arguments:", "Parameters:", "Params:", "Keyword Args:", "Keyword Arguments:", "Kwargs:", "Attributes:", "Returns:", "Return:", "Yields:", "Raises:", "Other Parameters:":
			return true
		}
		return false
	}
	return false
}

// docListedValue reports a name that is one of the quoted values a docstring lists after
// "values are:", "values include:" or "Disallowed values:" (Known values are: "Initialized",
// "OperationNotPermittedOnKeyVault", …; Possible values include: "password", "password2"):
// only quoted literals, commas, "and" and "or" come between the list's opening and the name,
// so neither it nor the literal after it is a key and its value.
func docListedValue(s string, nameStart, nameEnd int) bool {
	q := beforeQuotedName(s, nameStart, nameEnd)
	if q == 0 {
		return false
	}
	from := max(0, nameStart-1-600)
	head := s[from : nameStart-1]
	open := -1
	for _, w := range []string{"values are:", "values include:", "values:**", "Values are:", "values:"} {
		if i := strings.LastIndex(head, w); i >= 0 && i+len(w) > open {
			open = i + len(w)
		}
	}
	if i := strings.LastIndex(head, " are:"); i >= 0 && i+5 > open && strings.HasSuffix(strings.TrimRight(head[:i], " \n\t"), "values") {
		open = i + 5 // Known values\n     are: "CKM_RSA_AES_KEY_WRAP", …
	}
	if open < 0 {
		return false
	}
	rest := head[open:]
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; c {
		case '"', '\'':
			e := strings.IndexByte(rest[i+1:], c)
			if e < 0 || strings.IndexByte(rest[i+1:i+1+e], '\n') >= 0 {
				return false
			}
			i += e + 1
		case ' ', ',', '\n', '\t', '\r', '*':
		default:
			if strings.HasPrefix(rest[i:], "and ") || strings.HasPrefix(rest[i:], "or ") {
				i += 2
				continue
			}
			return false
		}
	}
	return true
}

// authorizationCode reports what the authorization-header rule took from code that names an
// authorization rather than sending one: a type (Optional[bool]), a class's or a variable's
// name of words (InvalidAuthorization, enable_rbac_authorization) or one word of prose
// (Property that controls…). A credential sent in the header is generated, not words.
func authorizationCode(v string) bool {
	if i := strings.IndexByte(v, '['); i > 0 && strings.HasSuffix(v, "]") {
		return pyIdentifier(v[:i]) && identifierPathOK(strings.ReplaceAll(strings.ReplaceAll(v[i+1:len(v)-1], ", ", "_"), ",", "_"))
	}
	if dictWord(v) && isLetters(v) {
		return true
	}
	if strings.IndexByte(v, '_') > 0 && strings.ToLower(v) == v && pyIdentifier(v) {
		for _, p := range strings.Split(v, "_") {
			if p != "" && !dictWord(p) && len(p) > 4 {
				return false
			}
		}
		return true
	}
	return isLetters(v) && typeName(v)
}

// schemaDefinitionOID reports a dotted quad at s that is the object identifier opening an
// LDAP schema definition (RFC 4512: "( 2.5.4.0 NAME 'objectClass' DESC …", as ldap3 and
// slapd's schema files write them; word is the word after it): no address, account and password.
func schemaDefinitionOID(chunk string, s int, word string) bool {
	k := skipBlanksBack(chunk, s)
	return word == "NAME" && k > 0 && chunk[k-1] == '('
}

// pyFormatField reports a replacement field of str.format or a %-conversion, maybe with its
// % doubled inside a template (%%s): a place a value goes, not a value ({0!r}, {}, {name},
// %s, %(user)s).
func pyFormatField(v string) bool {
	v = strings.TrimRight(v, ",.;)'\"")
	switch {
	case len(v) >= 2 && v[0] == '{' && v[len(v)-1] == '}':
		f := v[1 : len(v)-1]
		if i := strings.IndexAny(f, "!:"); i >= 0 {
			if strings.Trim(f[i:], "!:rsa<>^=+-0123456789.dfxXe") != "" {
				return false
			}
			f = f[:i]
		}
		// The field's name: empty, a position, or a lower-case name (a password in
		// braces mixes cases and digits).
		return strings.Trim(f, "0123456789") == "" || strings.Trim(f, "abcdefghijklmnopqrstuvwxyz_.") == ""
	case strings.HasPrefix(v, "%%"):
		v = v[1:]
		fallthrough
	case strings.HasPrefix(v, "%"):
		if strings.HasPrefix(v, "%(") {
			e := strings.IndexByte(v, ')')
			if e < 0 || !pyIdentifier(v[2:e]) {
				return false
			}
			v = "%" + v[e+1:]
		}
		return len(v) == 2 && strings.IndexByte("srdixfa", v[1]) >= 0
	}
	return false
}

// shortEscapedBytes reports a literal of one or two bytes written as \xNN escapes
// (b'\x00', b'\x03'): a flag or a state byte. A key written so is far longer.
func shortEscapedBytes(v string) bool {
	if len(v) < 4 || len(v) > 8 || len(v)%4 != 0 {
		return false
	}
	for i := 0; i < len(v); i += 4 {
		if v[i] != '\\' || v[i+1] != 'x' || !isHex(v[i+2:i+4]) {
			return false
		}
	}
	return true
}

// memberDefault reports a member of a module or an object given as a default, read to the
// line's end (values.unset):, github.GithubObject.NotSet,): names of letters joined by dots.
func memberDefault(v string) bool {
	v = strings.TrimRight(strings.TrimSpace(v), ",):")
	if strings.IndexByte(v, '.') <= 0 {
		return false
	}
	for _, seg := range strings.Split(v, ".") {
		if seg == "" || strings.Trim(seg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
			return false
		}
	}
	return true
}

// patternSuffixes end a name of a pattern or template for a credential (TOKEN_PATTERN,
// _TOKEN_REF_RE, LS32_PAT, token_fmt): its value is regular-expression or format syntax.
var patternSuffixes = map[string]bool{"pat": true, "pattern": true, "patterns": true, "regex": true, "regexp": true, "re": true,
	"rx": true, "fmt": true, "template": true, "tmpl": true, "ref": true}

// formattedTemplate reports a literal that Python formats at once: %-conversions then the %
// operator ("%s:%s" % (user, pw), "%s\\Setup\\VC" % version), or replacement fields then
// .format( ("(?:{hex}:{hex}|{ipv4})".format(hex=…)). The literal is the template the value is
// built from.
func formattedTemplate(s, v string, ve int) bool {
	if ve+1 >= len(s) {
		return false
	}
	after := s[ve+1 : min(len(s), ve+12)]
	switch {
	case strings.HasPrefix(strings.TrimLeft(after, " "), "% ") || strings.HasPrefix(strings.TrimLeft(after, " "), "%("):
		for i := 0; i+1 < len(v); i++ {
			if v[i] == '%' && (strings.IndexByte("sdr", v[i+1]) >= 0 || v[i+1] == '(') {
				return true
			}
		}
	case strings.HasPrefix(after, ".format("):
		return strings.Contains(v, "{") && strings.Contains(v, "}")
	}
	return false
}

// literalListMember reports a name that is one quoted literal of a long list of them: six or
// more, some before it and some after, joined by commas alone (a lexer's keywords,
// 'not', 'null', 'of', 'on', 'or', 'order', 'password', 'permission', …): a vocabulary, not
// a key beside its value.
func literalListMember(s string, nameStart, nameEnd int) bool {
	q := beforeQuotedName(s, nameStart, nameEnd)
	if q == 0 {
		return false
	}
	before, k := 0, nameStart-1
	for before < 5 {
		j := k
		for j > 0 && strings.IndexByte(" \t\r\n", s[j-1]) >= 0 {
			j--
		}
		if j == 0 || s[j-1] != ',' {
			break
		}
		j--
		for j > 0 && strings.IndexByte(" \t\r\n", s[j-1]) >= 0 {
			j--
		}
		if j == 0 || s[j-1] != '"' && s[j-1] != '\'' {
			break
		}
		o := strings.LastIndexByte(s[max(0, j-80):j-1], s[j-1])
		if o < 0 || strings.IndexByte(s[max(0, j-80)+o:j-1], '\n') >= 0 {
			break
		}
		k = max(0, j-80) + o
		before++
	}
	after, k := 0, nameEnd+1
	for after < 5 {
		j := k
		for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
			j++
		}
		if j >= len(s) || s[j] != ',' {
			break
		}
		j++
		for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
			j++
		}
		if j >= len(s) || s[j] != '"' && s[j] != '\'' {
			break
		}
		e := strings.IndexByte(s[j+1:min(len(s), j+81)], s[j])
		if e < 0 || strings.IndexByte(s[j+1:j+1+e], '\n') >= 0 {
			break
		}
		k = j + e + 2
		after++
	}
	return before >= 1 && after >= 1 && before+after >= 5
}

// parameterOf reports a name the text declares as a parameter: alone between brackets, or
// first or last in a list of them ((new_password), (new_password, …), (…, new_password)).
func parameterOf(s, name string) bool {
	return strings.Contains(s, "("+name+")") || strings.Contains(s, "("+name+", ") || strings.Contains(s, ", "+name+")")
}
