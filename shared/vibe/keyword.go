package vibe

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// keywordStems find candidate key names for the keyword-assignment rule; nameHasSecretWord
// then decides on the whole name.
var keywordStems = []string{"pass", "pasw", "pwd", "pw", "psw", "pssw", "secret", "token", "key", "cred", "dsn", "auth", "_pat", "-pat",
	"access", "private"}

// keywordStemMatcher finds every keyword stem in one pass.
var keywordStemMatcher = sync.OnceValue(func() *acMatcher { return newACMatcher(keywordStems) })

// findKeywordAssignments is the keyword-assignment rule: NAME=value, NAME: value,
// "name": "value", name := "value", name => 'value', NAME "value", name: str = "value", and
// comparisons with a literal (apikey == "value", "value" != password), where the key name
// says secret. It is written out by hand because, as a regular expression, it cost more
// than every other rule together. It records each value that keepKeyword accepts.
// bracketedMark reports a name in brackets that nothing is assigned to ([REDACTED_API_KEY],
// [YOUR_TOKEN]): what a redacting tool or a template wrote in place of a value. An index
// that is assigned (env[API_KEY] = …) is a name.
func bracketedMark(chunk string, nameStart, nameEnd int) bool {
	if nameStart == 0 || chunk[nameStart-1] != '[' || nameEnd >= len(chunk) || chunk[nameEnd] != ']' {
		return false
	}
	rest := strings.TrimLeft(chunk[nameEnd+1:], " \t")
	return rest == "" || rest[0] != '=' && rest[0] != ':'
}

// linkReference reports a Markdown link reference definition ([signing_key_2021]:
// https://keyserver.ubuntu.com/…): a label and the URL it stands for, whose own credentials the
// URL rules find.
func linkReference(chunk string, nameStart, nameEnd int) bool {
	if nameStart == 0 || chunk[nameStart-1] != '[' || nameEnd+1 >= len(chunk) || chunk[nameEnd] != ']' || chunk[nameEnd+1] != ':' {
		return false
	}
	rest := strings.TrimLeft(chunk[nameEnd+2:], " \t<")
	if !strings.HasPrefix(rest, "http://") && !strings.HasPrefix(rest, "https://") && !strings.HasPrefix(rest, "/") {
		return false
	}
	u := rest[:strings.IndexFunc(rest+" ", unicode.IsSpace)]
	// A link of words, numbers and hex digests (a key server's fingerprint, a commit), not
	// one carrying a token ([deploy-token]: https://ci.example.com/hooks#Xk29fQz81LmPq7Rw).
	for _, p := range strings.FieldsFunc(u, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
		if len(p) >= 8 && hasDigitAndLetter(p) && !isHex(p) || randomValue(p) && !isHex(p) {
			return false
		}
	}
	return true
}

// keywordValueOpeners are the words that open a value after = and name what follows it
// (--auth=token x, Authorization=Bearer x).
var keywordValueOpeners = []string{"bearer", "token", "basic"}

func findKeywordAssignments(chunk, lower string, off int, f *findings) {
	var buf [256]uint32
	stems := keywordStemMatcher().hits(lower, buf[:0])
	for si, stem := range keywordStems {
		for from := 0; ; {
			i := stems.next(si, from)
			if i < 0 {
				break
			}
			from = i + len(stem)
			nameStart, nameEnd := i, i+len(stem)
			for nameStart > 0 && i-nameStart < 60 && isNameByte(chunk[nameStart-1]) {
				nameStart--
			}
			for nameEnd < len(chunk) && nameEnd-i < 60 && isNameByte(chunk[nameEnd]) {
				nameEnd++
			}
			from = max(from, nameEnd)
			if nameEnd > i+len(stem) && chunk[nameEnd-1] == '-' && nameEnd < len(chunk) && chunk[nameEnd] == '>' {
				nameEnd-- // password-> x: the dash is the arrow's
			}
			if nameStart >= 3 && chunk[nameStart-3:nameStart] == "://" {
				continue // https://x-access-token:…@host: a URL's user, the URL rule's
			}
			if strings.HasPrefix(chunk[nameEnd:], "://") {
				continue // credential.https://github.com.helper: a URL's scheme, a setting's name's last part
			}
			if nameStart > 0 && chunk[nameStart-1] == ':' && (strings.Contains(chunk[max(0, nameStart-120):nameStart], "arn:") || strings.Contains(chunk[max(0, nameStart-40):nameStart], "urn:")) {
				continue // arn:aws:secretsmanager:…:secret:db-AbCd, urn:k8s:secret:my-secret:key: a secret's name in an ARN or a URN
			}
			if nameStart >= 4 && chunk[nameStart-4:nameStart] == "did:" {
				continue // did:key:z6Mk…: a decentralized identifier, the public key it names
			}
			name := strings.Trim(chunk[nameStart:nameEnd], ".-")
			if len(name) > 16 && strings.HasPrefix(name, "systemd-private-") {
				continue // /tmp/systemd-private-<32 hex>-chronyd.service-Xk3mQ2: a unit's private /tmp, named by systemd
			}
			if passVerdict(chunk, nameStart, nameEnd, name) {
				continue // - Pass: no-op when the cache is warm: a check's verdict and why
			}
			if bracketedMark(chunk, nameStart, nameEnd) || linkReference(chunk, nameStart, nameEnd) {
				continue // API_KEY="[REDACTED_API_KEY]"' > f: a mark written where a value was, no name
			}
			if closedTernaryBranch(chunk, nameStart, nameEnd) {
				continue // x ? 'Resolving Token...' : 'Launch Embed': the other branch, not a value
			}
			if jsxExpressionValue(chunk, nameEnd) {
				continue // token={isOwner ? undefined : recipient?.token}: a JSX attribute's expression
			}
			if attributeSetter(name) {
				continue // NetworkConnectionSubtypeKey.String("cdma2000_1xrtt"): a telemetry attribute's value
			}
			if minifiedBoolean(chunk, nameEnd) {
				continue // {radio:!0,password:!0}: a minifier's true or false, the flag's whole value
			}
			if fs := flagStart(chunk, nameStart); fs >= 0 && (flagTakesNoSecret(chunk[fs:nameEnd]) || secretNameValue(flagValue(chunk, nameEnd)) || buildSecretSpec(flagValue(chunk, nameEnd)) || buildSecretSpec(listedFlagValue(chunk, nameEnd)) || secretManagerRefs(flagValue(chunk, nameEnd))) || secretManagerListed(chunk, nameStart, nameEnd) || qualifiedKey(chunk, nameStart, name) || testStatus(chunk, nameStart, name) || gitRefUpdate(chunk, nameStart) || strings.IndexByte(name, '-') >= 0 && idHeaderName(strings.ToLower(name)) || notAssignedName(chunk, nameStart, nameEnd) || passVerb(chunk, nameStart, name) || hclBlockLabel(chunk, nameStart) || iacNameNoSecret(name) || protoFieldNumber(chunk, nameEnd) || shellNoSecret(chunk, nameStart, nameEnd) {
				continue // gpg --export-secret-keys KEYID: a flag that acts on secrets; Cache key: …
			}
			if docCommentTag(chunk, nameStart, nameEnd) || restFieldName(chunk, nameStart, nameEnd) || docListedValue(chunk, nameStart, nameEnd) || literalListMember(chunk, nameStart, nameEnd) {
				continue // * @NL80211_CMD_SET_KEY: Set key attributes …: a documented constant
			}
			if harmlessNameShape(chunk, nameStart, nameEnd) || mangledNameAt(chunk, nameStart) {
				continue // protobuf_key:"bytes,1,opt,name=key", io.jsonwebtoken:jjwt-api:0.11.2
			}
			if qualifiedConstant(name) || pathSegmentName(chunk, nameStart, nameEnd) || listedFileName(chunk, nameStart, nameEnd) || recordFieldName(chunk, nameStart, nameEnd) || quotedPackageName(chunk, nameStart, nameEnd) || memberAccess(chunk, nameStart, nameEnd) || ternaryBranch(chunk, nameStart, nameEnd) {
				continue // token.XOR: "…", {"go/token", "…"}, groupname:password:GID: no key's name
			}
			if vs, ve, ok := byteListValue(chunk, nameEnd); ok && (nameHasSecretWord(name) || keyLikeName(name) || credentialLikeName(name)) && !metadataName(name) && !digestName(name) && !strings.HasSuffix(strings.ToLower(name), "keys") {
				f.addSpan(ruleKeyword, off+vs, off+ve) // aesKey := lorawan.AES128Key{75, 137, …}: a key's bytes
				continue
			}
			if nameHasSecretWord(name) && !digestName(name) {
				if spans := generatedListLiterals(chunk, nameEnd); len(spans) > 0 {
					for _, sp := range spans {
						f.addSpan(ruleKeyword, off+sp[0], off+sp[1]) // const password = ['7490…', '6732…']
					}
					continue
				}
			}
			if !nameHasSecretWord(name) && !twoWordSecretName(chunk, nameStart, name) {
				if vs, ve, ok := queryKeyValue(chunk, nameStart, nameEnd, name); ok {
					f.addSpan(ruleKeyword, off+vs, off+ve) // vote.pl?id=…&akey=2bb0…: a key in a link
					continue
				}
				if !keyLikeName(name) && !credentialLikeName(name) && !oauthGrantName(name) || metadataName(name) {
					continue // private_key_path, client_id_label: about a secret, not one
				}
				vs, ve, ok := assignedValue(chunk, nameEnd)
				if ws, we, w := wrappedLiteral(chunk, vs, ve); ok && w {
					vs, ve = ws, we // jwtKey := []byte("…")
				}
				if ok && keyedValue(name, chunk[vs:ve]) && !computedValue(name, chunk[vs:ve]) && !(!quotedAt(chunk, vs) && codeValue(chunk, vs, ve)) && !wordsNoSecret(chunk, vs, ve, name, quotedAt(chunk, vs)) && !pyValueNoSecret(chunk, nameStart, nameEnd, vs, ve, name) && !(quotedAt(chunk, vs) && formatTemplate(chunk, vs, ve)) {
					f.addSpan(ruleKeyword, off+vs, off+ve)
				} else if ok && f.view != "" {
					// Escapes in the value (\u0026, a quote escaped inside it): judge the value
					// as the text writes it.
					if vs > 0 && strings.IndexByte("\"'", chunk[vs-1]) >= 0 {
						ve = escapedQuoteEnd(f, chunk, off, vs, ve)
					}
					if v := f.text[off+vs : off+ve]; v != chunk[vs:ve] && keyedValue(name, v) && !computedValue(name, v) {
						f.addSpan(ruleKeyword, off+vs, off+ve)
					}
				} else if !ok {
					// vendorKEY abcdef…, vendorACCESS 3f9c…: a name that only suggests a
					// credential, then a random one after a blank or glued to it.
					// setAuth("…"), .authorization("…"), define('AUTH', '…'): a generated
					// literal passed under an auth name.
					if vs, ve, ok := authArgument(f, chunk, off, name, nameStart, nameEnd); ok {
						f.addSpan(ruleKeyword, off+vs, off+ve)
					} else if vs, ve, ok := spacedValue(chunk, nameEnd); ok && credentialValue(chunk[vs:ve]) && generatedValue(chunk[vs:ve], keyLikeName(name)) && !idShapedValue(chunk[vs:ve]) && !declaredFunction(chunk, vs, ve) && !typedDeclaration(chunk, nameStart, ve) && !scopedPackage.MatchString(chunk[vs:ve]) {
						f.addSpan(ruleKeyword, off+vs, off+ve)
					} else if vs, ok := gluedValue(chunk, nameStart, nameEnd); ok && !idShapedValue(chunk[nameStart:nameEnd]) {
						f.addSpan(ruleKeyword, off+nameStart, off+nameEnd)
						f.note(ruleKeyword, chunk[vs:nameEnd]) // the value alone is what may come back
					}
				}
				continue
			}
			if vs, ve, ok := commentedConfigValue(chunk, nameStart, nameEnd); ok && keepKeyword(name, chunk[vs:ve], true) && !wordsNoSecret(chunk, vs, ve, name, true) &&
				(nameHasSecretWord(name) || keyedValue(name, chunk[vs:ve])) {
				f.addSpan(ruleKeyword, off+vs, off+ve) // # password: x, a config line commented out
				continue
			}
			vs, ve, ok := assignedValue(chunk, nameEnd)
			if !ok && perlHashKey(chunk, nameStart, nameEnd) {
				vs, ve, ok = assignedValue(chunk, nameEnd+1) // $self->{token} = '…', $h{password} = '…'
			}
			if ok && (labelClosed(chunk, nameStart, nameEnd, vs) || patternClosed(chunk, nameStart, nameEnd, vs) || quotedWordList(chunk, nameStart, vs, ve) || sedSubstitution(chunk, nameStart, vs) || twoWordSpelled(chunk, nameStart, name, chunk[vs:ve])) {
				continue // print "Token: ", $token->dump: the quote after the label closes its literal
			}
			if ok && nameStart > 0 && chunk[nameStart-1] == '$' && !strings.ContainsAny(chunk[nameEnd:vs], "=:") {
				continue // --header "x-api-key: $ANTHROPIC_API_KEY " \ --header …: a variable read inside a string, the quote after it closing that string
			}
			if !ok {
				vs, ve, ok = comparedLiteral(chunk, nameStart)
			}
			if ok && pyValueNoSecret(chunk, nameStart, nameEnd, vs, ve, name) {
				continue // credential: "TokenCredential", TOKEN_TYPE = 'Bearer': what code writes instead
			}
			if !ok && (len(nameParts(name)) == 1 || name == strings.ToUpper(name) || setterName(name) || builderCall(chunk, nameStart, name) || quotedFirstArgument(chunk, nameStart, nameEnd)) &&
				(nameStart == 0 || chunk[nameStart-1] != '$') && !inList(chunk, nameStart) && !literalPart(chunk, nameStart, nameEnd) {
				// Not in a list: ["password", "email"] names two fields; nor one end of a
				// literal: Url('http', 'username:password', 'host.com'), 'token, "x"'.
				// Not after a variable: new PDO($dsn, 'app', …) passes $dsn, then the user.
				vs, ve, ok = literalArgument(chunk, nameEnd)
				if ok && variableBeforeComma(chunk, nameStart, nameEnd) && lowerWord(chunk[vs:ve]) && kdfCallBefore(chunk, nameStart) {
					continue // scrypt(password, 'salt', 32): a key derivation's salt after the variable it derives from
				}
				if ok && !passwordName(name) && variableBeforeComma(chunk, nameStart, nameEnd) && lowerWord(chunk[vs:ve]) {
					continue // return token, "keyring", nil: a variable beside a word, not its value
				}
				if ok && nameEnd < len(chunk) && chunk[nameEnd] == '(' && lowerWord(chunk[vs:ve]) && !nameHasSecretWord(nameParts(name)[len(nameParts(name))-1]) {
					continue // persistProviderApiKeyFromState("openrouter"): a call named past the key, its argument a word
				}
				if lv, le, multi, lok := setterLastArgument(chunk, nameEnd); multi && setterName(name) {
					vs, ve, ok = lv, le, lok // set_password('svc', 'deploy', '…'): the last argument
				}
				if ok && (logMessageKey(chunk, nameStart, nameEnd, vs, ve) || phraseThenWord(chunk, nameStart, nameEnd, chunk[vs:ve]) || tupleRow(chunk, nameStart) && lowerWord(chunk[vs:ve]) && !passwordName(name)) {
					continue // logger.Error("failed to create password", "err", err): a message, then a pair's key
				}
				if ok && mvcRouteCall(chunk, nameStart) {
					continue // RedirectToAction("ResetPasswordConfirmation", "Account"): an action's and a controller's names
				}
				if ok && argumentLiteralWord(chunk, nameStart, nameEnd, chunk[vs:ve]) {
					continue // within(pass, "slices"), exec.Command("git", "credential", "fill")
				}
				if ok && snakeSecretName(chunk[vs:ve]) {
					continue // config.set('Credentials', 'aws_access_key_id', …): the option a value is kept under
				}
				if ok && (quotedAt(chunk, nameStart) && (snakeDictWords(chunk[vs:ve]) || secretNamedIdentifier(chunk[vs:ve]) || rfcNumber.MatchString(chunk[vs:ve]) || optionHelp(name, chunk[vs:ve])) || pathPrefixJoined(chunk, vs, ve)) {
					continue // @sensitive_variables('user', 'password', 'credit_card'): names listed with it;
					// lookup('…password', 'credentials/' + client): a path built
				}
			}
			if !ok {
				// NAME value with only blanks between (a log line, a table, a Dockerfile ENV),
				// or the value glued to the name: api-secret-3f9c…, TOKEN_ab12…. Not a
				// value itself, after =: -e HUBOT_SLACK_TOKEN=TOKEN_HERE a4d/hubot-slack is
				// a value, then the command's next word.
				assigned := nameStart > 0 && chunk[nameStart-1] == '=' && !slices.Contains(keywordValueOpeners, strings.ToLower(name))
				if vs, ve, ok := lineValue(chunk, nameStart, nameEnd); !assigned && ok && !typedDeclaration(chunk, nameStart, ve) && keepKeyword(name, chunk[vs:ve], true) && (dockerEnv(chunk, nameStart) || notProseWord(chunk[vs:ve]) || leetPassword(name, chunk[vs:ve])) {
					// ENV NAME value, app.password value: the rest of a config line.
					f.addSpan(ruleKeyword, off+vs, off+ve)
				} else if vs, ve, ok := spacedValue(chunk, nameEnd); !assigned && ok && !declaredFunction(chunk, vs, ve) && !typedDeclaration(chunk, nameStart, ve) && !scopedPackage.MatchString(chunk[vs:ve]) && !idShapedValue(chunk[vs:ve]) && (credentialValue(chunk[vs:ve]) || dockerEnv(chunk, nameStart) && keepKeyword(name, chunk[vs:ve], true) ||
					(passwordWord(name) || name == strings.ToUpper(name)) && randomValue(chunk[vs:ve])) {
					f.addSpan(ruleKeyword, off+vs, off+ve)
				} else if vs, ok := gluedValue(chunk, nameStart, nameEnd); ok {
					// The name and its value are one token: mask it whole; the value alone
					// is what may come back later.
					f.addSpan(ruleKeyword, off+nameStart, off+nameEnd)
					f.note(ruleKeyword, chunk[vs:nameEnd])
				} else if vs, ve, ok := nextLineValue(chunk, nameEnd); ok && !(len(name) >= 24 && randomValue(name)) && !cjkSentence(chunk[vs:ve]) && !commentProseBefore(chunk, nameStart) {
					// (Not when the "name" is itself a random run: a line of base64 that holds
					// Pw or Key by chance, the next line of the same block after it.)
					f.addSpan(ruleKeyword, off+vs, off+ve)
				} else if vs, ve, ok := valueChild(chunk, nameStart, nameEnd); ok && passwordName(name) && keepKeyword(name, chunk[vs:ve], true) && !codeReference(chunk[vs:ve]) {
					f.addSpan(ruleKeyword, off+vs, off+ve) // mock-proxy-password:\n  value: x, - name: DB_PASSWORD\n  value: x
				}
				continue
			}
			for ve > vs && chunk[ve-1] == '\\' {
				ve--
			}
			if nameStart >= 2 && chunk[nameStart-2:nameStart] == "${" && vs < len(chunk) && (chunk[vs] == '?' || chunk[vs] == '+') {
				continue // ${DB_PASSWORD:?must be set}, ${X:+alt}: a message or an alternative, not a value
			}
			e, def := placeholderDefaultEnd(chunk, nameStart, vs)
			if def {
				ve = e // ${app.password:x,y<z}: the default, a literal, runs to its closing brace
				if d := strings.Trim(strings.TrimPrefix(chunk[vs:ve], "-"), `"'`); strings.Contains(d, " ") && strings.IndexFunc(d, func(r rune) bool {
					return !unicode.IsLetter(r) && r != ' ' && r != '(' && r != ')' && r != '.' && r != '!'
				}) < 0 {
					continue // ${LANGSMITH_API_KEY:-'Not set'}: words echoed when it is unset
				}
				if d := strings.TrimPrefix(chunk[vs:ve], "-"); len(d) >= 2 && len(d) <= 8 && isLetters(d) && strings.ToUpper(d) == d && nameStart >= 2 && chunk[nameStart-2:nameStart] == "${" {
					continue // ${token:-EOF}: a marker shown when it is unset
				}
			}
			if ws, we, ok := wrappedLiteral(chunk, vs, ve); ok {
				vs, ve = ws, we // jwtKey := []byte("…"): the literal inside the conversion
			} else if ws, we, ok := prefixedLiteral(chunk, vs, ve); ok {
				if strings.ContainsAny(chunk[vs:ve], "rR") && strings.ContainsAny(chunk[ws:we], "[]") && strings.ContainsAny(chunk[ws:we], "+*?{") {
					continue // _TOKEN: Final[str] = rf"[{_TCHAR}]+": a raw string's pattern
				}
				vs, ve = ws, we // the literal after Python's prefix
			}
			if vs > 1 && chunk[vs-1] == '`' && (chunk[vs-2] == ' ' || chunk[vs-2] == '\t') && codeSpanCommand(chunk[vs:ve]) {
				continue // **Tests Pass**: `cargo test` passes: a command in a Markdown code span
			}
			quoted := vs > 0 && (strings.IndexByte("\"'`", chunk[vs-1]) >= 0 || strings.HasSuffix(chunk[:vs], "&quot;")) || quotedPair(chunk, nameStart, nameEnd, vs, ve)
			if vs > nameEnd+1 && chunk[vs-1] == '"' && chunk[vs-2] != '\\' && nameEnd < len(chunk) && (chunk[nameEnd] == ' ' || chunk[nameEnd] == '\t') && strings.TrimSpace(chunk[nameEnd:vs-1]) == "" && vs < len(chunk) && strings.IndexByte("),;]}+|&", chunk[vs]) >= 0 && insideLiteral(chunk, nameStart) {
				continue // HasPrefix(s, "WRONGPASS ") || …: the quote after the name closes the literal it is in
			}
			if quoted && f.view != "" {
				ve = escapedQuoteEnd(f, chunk, off, vs, ve)
				ve = literalPastEscapes(f, chunk, off, vs, ve)
			}
			// A query parameter's value (?userpass=x&…) is a literal as much as a config line's,
			// and it ends where the next parameter starts (&token=$token&$query).
			query := nameStart > 0 && (chunk[nameStart-1] == '?' || chunk[nameStart-1] == '&') && vs > 0 && chunk[vs-1] == '='
			if query && !quoted {
				ve = queryValueEnd(chunk, vs, ve)
			}
			if ms, me, ok := valueMember(chunk, vs); ok && !quoted {
				if keepKeyword(name, chunk[ms:me], true) && !wordsNoSecret(chunk, ms, me, name, true) {
					f.addSpan(ruleKeyword, off+ms, off+me) // cookies[:auth_token] = { value: '…', httponly: true }
				}
				continue
			}
			usersEntry := !quoted && passwordName(name) && (usersListEntry(chunk, nameStart) || accountLabelBefore(chunk, nameStart, nameEnd)) && !lowerWordsValue(chunk[vs:ve]) && !strings.HasPrefix(chunk[vs:ve], "$")
			literal := quoted || query || def || configLiteral(chunk, nameStart, nameEnd, vs, ve) && !callLike.MatchString(chunk[vs:ve]) && !compositeLiteral.MatchString(chunk[vs:ve]) || usersEntry
			if kubectlResult(chunk, ve) {
				continue // secret "app-tls" created: a resource's name
			}
			if quoted && formatTemplate(chunk, vs, ve) {
				continue // toolskey = "VS%0.f0COMNTOOLS" % version: a template Python fills in
			}
			if quoted && unionMember(chunk, vs, ve) {
				continue // type ExperimentalKey = 'authTokenSyncURL' | 'authIdTokenMaxAge': literal types
			}
			if quoted && inOperand(chunk, ve) {
				continue // hasPassword = "password" in options: a member's name tested, in JavaScript or Python
			}
			if shellValue(chunk, vs, ve) {
				continue // LOGINPASS=`head -n1`, KEY="$HOME/.ssh/$name": computed when the line runs
			}
			if !quoted && arrowConstant(chunk, nameEnd, vs, ve) {
				continue // GEMINI_API_KEY -> USE_GEMINI: what the name maps to, a constant of code
			}
			if nameStart > 0 && chunk[nameStart-1] == '/' && vs > nameEnd && strings.IndexAny(chunk[nameEnd:vs], "=:") < 0 {
				continue // llm -f github:simonw/s3-credentials 'Suggest …': a path's last segment, then the next argument
			}
			if quoted && phraseListPair(chunk, nameStart, nameEnd, vs, ve) {
				continue // "assets": ["GitHub App private key", "installation tokens"]: phrases listed
			}
			code := !quoted && !def && !usersEntry && (codeValue(chunk, vs, ve) || tsCast(chunk, vs, ve))
			kv := chunk[vs:ve]
			if def {
				kv = strings.Trim(strings.TrimPrefix(kv, "-"), "'\"") // ${X:-'default'}: the default, as written
			}
			if !code && !wordsNoSecret(chunk, vs, ve, name, literal) && keepKeyword(name, kv, literal) && !localDatabaseDefault(chunk, vs, ve) {
				if !quoted {
					ve = envValueTail(chunk, nameStart, name, vs, ve)
					ve = quotedArgumentTail(chunk, nameStart, vs, ve)
				}
				f.addSpan(ruleKeyword, off+vs, off+ve)
			} else if code || callLike.MatchString(chunk[vs:ve]) || codeReference(chunk[vs:ve]) {
				// getenv("X", "x"), const password = process.env.DB_PASSWORD || 'x': the
				// default, unless a lower-case word under a name that is no password's
				// (getToken(req) || 'anonymous', process.env.TOKEN || 'default').
				if fs, fe, ok := fallbackLiteral(chunk, vs); ok && !settingEnvName(chunk[vs:fs]) && !namedDefault(chunk[vs:fs], chunk[fs:fe]) && !((snakeSecretName(chunk[fs:fe]) || camelSecretName(chunk[fs:fe]) && listedAfter(chunk, vs, fs)) && !envNameBefore(chunk, vs, fs)) && (passwordName(name) || !lowerWord(chunk[fs:fe]) && !mailAddress(chunk[fs:fe]) || keyedValue(name, chunk[fs:fe])) && !lexerTokenWord(name, chunk[fs:fe]) && !algorithmIdentifier(chunk[fs:fe]) && !encodingNames[chunk[fs:fe]] && !headerNameValue(name, chunk[fs:fe]) && !storageKeyName(name, chunk[fs:fe]) && !strings.EqualFold(strings.TrimLeft(chunk[fs:fe], "_"), strings.TrimLeft(name, "_")) &&
					!typedGetterKey(chunk, fs, fe) && !prefixLiteral(chunk[fs:fe]) && !scopeList(chunk[fs:fe]) && !plainURL(chunk[fs:fe]) &&
					!(chunk[fs] == '$' && expandedFrame(chunk[fs:fe])) && !localDatabaseDefault(chunk, fs, fe) {
					f.addSpan(ruleKeyword, off+fs, off+fe)
				}
			}
		}
	}
}

// idShapedValue reports an id of a public shape after a credential's word: a security
// advisory's (strip secrets GHSA-8mxv-9xhp-86h4).
func idShapedValue(v string) bool {
	return ghsaID.MatchString(v) || awsResourceName(v)
}

// kdfCallBefore reports a key derivation function's call opening just before nameStart, on
// its line (scrypt(password, …), pbkdf2Sync(password, …), bcrypt.hashpw(password, …)).
func kdfCallBefore(s string, nameStart int) bool {
	head := s[max(0, nameStart-48):nameStart]
	if nl := strings.LastIndexByte(head, '\n'); nl >= 0 {
		head = head[nl+1:]
	}
	head = strings.TrimRight(head, " \t")
	if !strings.HasSuffix(head, "(") {
		return false
	}
	l := strings.ToLower(head)
	for _, k := range []string{"scrypt", "pbkdf2", "argon2", "bcrypt", "hkdf", "hashpw", "derivekey", "derive_key"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// settingEnvName reports a call reading an environment variable named for a setting about a
// secret, not the secret (env('AUTH_PASSWORD_BROKER', 'users'), getenv("TOKEN_DRIVER",
// "file")): the name's last word is what the default is, a broker's, a driver's, a table's.
func settingEnvName(call string) bool {
	q := strings.IndexAny(call, "\"'")
	if q < 0 {
		return false
	}
	e := strings.IndexByte(call[q+1:], call[q])
	if e <= 0 {
		return false
	}
	return settingHeadName(call[q+1 : q+1+e])
}

// namedDefault reports a literal that is no secret's default: the name of the key it is
// read under (Keyword.get(config, :csrf_token_key, "_csrf_token")) or lower-case words
// (Phoenix.Token.sign(endpoint, "user auth", id): a token's namespace).
func namedDefault(call, lit string) bool {
	w := strings.Trim(lit, "_")
	if len(w) >= 4 && snakeIdentifier(w) && strings.Contains(call, w) {
		return true
	}
	return lowerCaseWords(lit)
}

// settingHeadName reports a name whose last word is a setting's about a secret
// (AUTH_PASSWORD_BROKER, TOKEN_DRIVER, PASSWORD_TIMEOUT, BCRYPT_ROUNDS): its value is which
// broker, driver or table, or how long, not the secret.
func settingHeadName(name string) bool {
	parts := nameParts(name)
	if len(parts) < 2 {
		return false
	}
	switch parts[len(parts)-1] {
	case "broker", "driver", "guard", "provider", "table", "model", "timeout", "throttle", "expire", "store", "cache", "channel", "rounds", "algo", "lifetime":
		return true
	}
	return false
}

// closedTernaryBranch reports a name at the end of a string literal that is a conditional's
// first branch, the second after a colon (busy ? 'Resolving Token...' : 'Launch Embed').
func closedTernaryBranch(s string, nameStart, nameEnd int) bool {
	k := nameEnd
	for k < len(s) && (s[k] == '.' || s[k] == '!' || s[k] == '?' && k > nameEnd) {
		k++
	}
	if k >= len(s) || s[k] != '\'' && s[k] != '"' {
		return false
	}
	q := s[k]
	rest := strings.TrimLeft(s[k+1:], " \t")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	open := strings.LastIndexByte(s[max(0, nameStart-120):nameStart], q)
	if open < 0 {
		return false
	}
	open += max(0, nameStart-120)
	before := strings.TrimRight(s[max(0, open-40):open], " \t")
	return strings.HasSuffix(before, "?")
}

// tsCast reports an unquoted identifier that TypeScript casts to a type (SUPABASE_KEY =
// supabaseKeyEnv as string): a variable.
func tsCast(s string, vs, ve int) bool {
	if ve+4 > len(s) || !strings.HasPrefix(s[ve:], " as ") || !identifierOperand(s[vs:ve]) {
		return false
	}
	t := s[ve+4:]
	return t != "" && (isLetter(t[0]) || t[0] == '_')
}

// jsxExpressionValue reports a JSX attribute's value in braces right after name= that is
// an expression (token={recipient.token}, presignToken={config?.presignToken},
// href={`/sign/${r.token}`}), not a literal in braces (token={"…"}, token={'…'}, a
// template without a substitution).
func jsxExpressionValue(s string, nameEnd int) bool {
	if nameEnd+2 >= len(s) || s[nameEnd] != '=' || s[nameEnd+1] != '{' || s[nameEnd+2] == '{' {
		return false
	}
	depth, end := 0, -1
	for k := nameEnd + 1; k < len(s) && k < nameEnd+400; k++ {
		switch s[k] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = k
			}
		case '\n':
			if depth > 0 && k > nameEnd+200 {
				return false
			}
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return false
	}
	inner := strings.TrimSpace(s[nameEnd+2 : end])
	if inner == "" {
		return false
	}
	switch inner[0] {
	case '"', '\'':
		return false
	case '`':
		return strings.Contains(inner, "${")
	}
	return isLetter(inner[0]) || inner[0] == '_' || inner[0] == '$' || inner[0] == '!' || inner[0] == '('
}

// arrowConstant reports a value that an arrow (->, =>, →) gives a name and that is a
// constant's name in upper snake case, letters only (GEMINI_API_KEY -> USE_GEMINI,
// 'token' => AUTH_TOKEN_HEADER): a mapping of names, as documentation and code write one.
func arrowConstant(s string, nameEnd, vs, ve int) bool {
	op := strings.Trim(s[nameEnd:vs], " \t\"'`")
	if op != "->" && op != "=>" && op != "→" {
		return false
	}
	v := strings.TrimRight(s[vs:ve], ",;.)")
	return upperSnakeName(v) && strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) < 0
}

// variableBeforeComma reports a name written bare, in lower or mixed case, that a comma
// follows (return token, "keyring", nil; f(token, "x")): a variable passed or returned beside
// a literal. A quoted name ("token", "x") or a constant's (define(API_TOKEN, "x")) is still
// read with the literal after it, and so is a password's variable (check(password,
// "letmein")), by the caller.
func variableBeforeComma(s string, nameStart, nameEnd int) bool {
	if nameStart > 0 && strings.IndexByte("\"'`", s[nameStart-1]) >= 0 || nameEnd < len(s) && strings.IndexByte("\"'`", s[nameEnd]) >= 0 {
		return false
	}
	i := skipBlanks(s, nameEnd, 2)
	if i >= len(s) || s[i] != ',' {
		return false
	}
	name := s[nameStart:nameEnd]
	return strings.ToUpper(name) != name
}

// authArgument returns a generated literal passed to a call named for an authorization or
// a key (setAuth("…"), .appKey("…"), define('AUTH', '…')), judged as the text writes it.
func authArgument(f *findings, chunk string, off int, name string, nameStart, nameEnd int) (int, int, bool) {
	if !authName(name) && !keyLikeName(name) {
		return 0, 0, false
	}
	vs, ve, ok := literalArgument(chunk, nameEnd)
	if !ok || argumentLiteralWord(chunk, nameStart, nameEnd, chunk[vs:ve]) {
		return 0, 0, false
	}
	v := chunk[vs:ve]
	if f.view != "" {
		ve = escapedQuoteEnd(f, chunk, off, vs, ve)
		v = f.text[off+vs : off+ve]
	}
	return vs, ve, keyedValue(name, v)
}

// codeSpanCommand reports a command line of a few words opening with a program scripts run
// (cargo test, npm run build), as Markdown's code spans quote them.
func codeSpanCommand(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "pass", "op", "security", "echo", "printf", "cat":
		return false // what prints a secret (PASSWORD=`echo hunter2`, `pass show x`)
	}
	return len(f) >= 2 && len(f) <= 8 && slices.Contains(scriptCommands, f[0])
}

// placeholderDefaultEnd returns the closing brace of a placeholder's default whose name
// opens at nameStart and whose default at vs: Spring's ${app.password:default}, the shell's
// ${DB_PASSWORD:-default}.
func placeholderDefaultEnd(s string, nameStart, vs int) (int, bool) {
	if nameStart < 2 || s[nameStart-2:nameStart] != "${" || vs >= len(s) {
		return 0, false
	}
	e := strings.IndexByte(s[vs:min(len(s), vs+400)], '}')
	if e <= 0 || strings.IndexByte(s[vs:vs+e], '\n') >= 0 {
		return 0, false
	}
	return vs + e, true
}

// escapedQuoteEnd extends a quoted value whose end the view (escaped.go) put at a quote the
// text escapes more deeply than the one that opened it: "ab\"cd" in code, \"ab\\\"cd\" in a
// JSON string. The view writes every escaped quote out, so only the text's backslashes tell
// a quote inside the value from the one that closes it.
func escapedQuoteEnd(f *findings, chunk string, off, vs, ve int) int {
	if vs == 0 || ve >= len(chunk) || chunk[ve] != chunk[vs-1] {
		return ve
	}
	q := chunk[vs-1]
	open := quoteLevel(f.text, off+vs-1)
	for n := 0; n < 8 && ve < len(chunk) && chunk[ve] == q && quoteLevel(f.text, off+ve) > open; n++ {
		next := strings.IndexByte(chunk[ve+1:], q)
		nl := strings.IndexByte(chunk[ve+1:], '\n')
		if next < 0 || nl >= 0 && nl < next || ve+1+next-vs > 400 {
			return ve
		}
		ve += 1 + next
	}
	return ve
}

// literalPastEscapes carries a quoted value the view ended at an escape it wrote out (a
// Python bytes literal's \n: b'Zx8kq\n\xecQw7') on to its closing quote in the text itself,
// on the same line, so that no tail of it is shown.
func literalPastEscapes(f *findings, chunk string, off, vs, ve int) int {
	if vs == 0 || ve >= len(chunk) || chunk[ve] == chunk[vs-1] || f.text[off+ve] != '\\' {
		return ve
	}
	q := chunk[vs-1]
	for k := off + ve; k < len(f.text) && k-off-vs < 400; k++ {
		switch c := f.text[k]; {
		case c == '\\':
			k++ // an escape, whatever it escapes
		case c == '\n':
			return ve
		case c == q:
			return k - off
		}
	}
	return ve
}

// quoteLevel counts the backslashes escaping the quote the view shows at k: before it, or,
// where the view moved a closing quote onto its backslashes, from k on.
func quoteLevel(text string, k int) int {
	n := 0
	if text[k] == '\\' {
		for k+n < len(text) && text[k+n] == '\\' {
			n++
		}
		return n
	}
	for k-n > 0 && text[k-n-1] == '\\' {
		n++
	}
	return n
}

// quotedAt reports a value opening right after a quote: a literal, never code.
func quotedAt(s string, vs int) bool {
	return vs > 0 && vs <= len(s) && strings.IndexByte("\"'`", s[vs-1]) >= 0
}

// quotedFirstArgument reports a name that is the whole of a quoted literal opening a call's
// arguments: setProperty("db.password", …), headers.set("X-Api-Key", …), the key of a
// key/value call.
func quotedFirstArgument(s string, nameStart, nameEnd int) bool {
	return beforeQuotedName(s, nameStart, nameEnd) == '('
}

// beforeQuotedName returns the character before a name that is the whole of a quoted
// literal and the blanks before its opening quote, or 0 when the name is not so quoted.
func beforeQuotedName(s string, nameStart, nameEnd int) byte {
	if nameStart < 2 || nameEnd >= len(s) || s[nameStart-1] != '"' && s[nameStart-1] != '\'' || s[nameEnd] != s[nameStart-1] {
		return 0
	}
	j := nameStart - 1
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	if j == 0 {
		return 0
	}
	return s[j-1]
}

// literalPart reports a name that a quote closes or opens on one side only: a piece of a
// longer literal ('username:password', 'token, "quoted value"'), whose next literal is no
// value of it.
func literalPart(s string, nameStart, nameEnd int) bool {
	before := nameStart > 0 && (s[nameStart-1] == '"' || s[nameStart-1] == '\'')
	after := nameEnd < len(s) && (s[nameEnd] == '"' || s[nameEnd] == '\'')
	return before != after && nameStart > 0 && s[nameStart-1] != ' ' && s[nameStart-1] != '\t' && s[nameStart-1] != '\\'
}

// inList reports a quoted name inside a list or set literal: the nearest bracket left open
// before it on its line is [ or {, or the ( of a tuple a membership test reads (for param in
// ('grant_type', 'password', 'scope'), if x not in ("token", "id_token")).
func inList(s string, nameStart int) bool {
	if nameStart < 1 || s[nameStart-1] != '"' && s[nameStart-1] != '\'' {
		return false
	}
	depth := 0
	for j := nameStart - 2; j >= 0 && s[j] != '\n' && nameStart-j < 200; j-- {
		switch s[j] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				// (pytest's parametrize names its arguments: parametrize(('username', 'password', 'message'), …))
				return s[j] == '[' || s[j] == '{' || strings.HasSuffix(strings.TrimRight(s[max(0, j-4):j], " \t"), " in") ||
					s[j] == '(' && j > 0 && s[j-1] == '(' && strings.HasSuffix(s[max(0, j-16):j-1], "parametrize")
			}
			depth--
		}
	}
	return false
}

// metadataName reports a name with a part that says it holds something about a secret
// (notSecretWords: path, file, url, name, id, type…).
func metadataName(name string) bool {
	parts := nameParts(name)
	for _, p := range parts {
		if notSecretWords[p] {
			return true
		}
	}
	// server_host_key_algorithm, key_alg: which algorithm a key is for
	switch n := len(parts); {
	case n > 1 && (parts[n-1] == "algorithm" || parts[n-1] == "algorithms" || parts[n-1] == "alg" || parts[n-1] == "algo"):
		return true
	}
	return false
}

// passwordWord reports a name that is only a word for a password (PASS, pw, passwd): a
// value of a password's shape after it and a blank is one (FTP's PASS x, "id admin pw x").
func passwordWord(name string) bool {
	switch strings.ToLower(name) {
	case "pass", "passwd", "password", "pw", "pwd", "pswd", "passphrase", "passcode":
		return true
	}
	return false
}

// unionMember reports a quoted literal at chunk[vs:ve] in a union of literal types, a | on
// either side of it ('if_available' | 'never').
func unionMember(chunk string, vs, ve int) bool {
	after := strings.TrimLeft(chunk[min(len(chunk), ve+1):], " ")
	before := strings.TrimRight(chunk[:max(0, vs-1)], " ")
	return strings.HasPrefix(after, "| '") || strings.HasPrefix(after, "| \"") || strings.HasSuffix(before, "|") && !strings.HasSuffix(before, "||")
}

// queryValueEnd is where an unquoted query parameter's value at chunk[vs:ve] ends: before the
// next parameter (&token=$token&$query), the fragment, or the bracket, quote or angle bracket
// that closes the URL around it ([badge](https://…/badge.svg?token=x)](https://…)); a closing
// parenthesis is the value's own after an opening one.
func queryValueEnd(chunk string, vs, ve int) int {
	for k := vs; k < ve; k++ {
		switch chunk[k] {
		case '&', '#', ']', '>', '"', '\'', '`':
			if k > vs {
				return k
			}
		case ')':
			if k > vs && strings.IndexByte(chunk[vs:k], '(') < 0 {
				return k
			}
		}
	}
	return ve
}

// keyedValue decides a value under a name that only suggests a credential (vendor_key,
// client, auth): random-looking, or, under a name of two or more parts with a key part, a
// UUID, 10+ hex digits (three of them digits) or a long number, the shapes of many vendors'
// keys.
func keyedValue(name, v string) bool {
	v = strings.Trim(v, `"'`+"`")
	if codeReference(v) || strings.EqualFold(name, "key") && camelWords(v) || harmlessValue(name, v) || typeNamedFor(name, v) {
		return false // auth = ENV['AUTH'], credentials: config.credentials, key="keyEquivalentModifierMask"
	}
	if randomValue(v) || keyLikeName(name) && symbolRandom(v) && !placeholderValue(v) {
		return true // (a generated password with symbols: app_key = "Hq8(x]{Lm;4v.<Z>?")
	}
	if authName(name) && !placeholderValue(v) && !strings.ContainsAny(v, " \t") && (isHex(v) && len(v) >= 32 || len(v) >= 16 && credentialValue(v) || symbolRandom(v)) {
		return true // auth = "<64 hex>", AUTHORIZATION: 3f9c…: the name alone says credential
	}
	if keyHex(name, v) {
		return true // 'key' => '2109D6F4…' (32 hex digits): a cipher's key, written in hex
	}
	if keyLikeName(name) && len(nameParts(name)) <= 2 && (gibberishValue(v) || camelGibberish(v) || unpronounceable(v)) {
		return true // String key = "NtlRziLaoky78", $consumer_key = 'sltpbmzp_xmq', key: "wq3zxk_pvmd"
	}
	if oauthGrantName(name) && grantValue(v) {
		return true // authCode = "b11fc60686", oauth_verifier: 'gkflepWOFYBTXnctHNYC'
	}
	if len(nameParts(name)) < 2 || !keyLikeName(name) || placeholderValue(v) {
		return false
	}
	return uuidRe.MatchString(v) || isHex(v) && len(v) >= 10 && hasDigitAndLetter(v) && countDigits(v) >= 3 || isDigits(v) && len(v) >= 24 ||
		credentialValue(v)
}

// authName reports a name that ends in a word for an authorization (auth, authorization,
// credentials, creds): its value is a credential when it is generated.
func authName(name string) bool {
	parts := nameParts(name)
	if len(parts) == 0 {
		return false
	}
	switch parts[len(parts)-1] {
	case "auth", "authorization", "credential", "credentials", "creds":
		return true
	}
	return false
}

// symbolRandom reports a generated password with symbols (Hq8(x]{Lm;4v.<Z>?): 12+
// characters, no blank, upper- and lower-case letters and digits, three or more symbols,
// no run of four letters.
func symbolRandom(v string) bool {
	if len(v) < 12 || len(v) > 400 || strings.ContainsAny(v, " \t\n") || !mixedClasses(v) || !hasDigitAndLetter(v) || strings.Contains(v, "://") {
		return false
	}
	symbols, run, maxRun := 0, 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if isLetter(c) {
			run++
			maxRun = max(maxRun, run)
			continue
		}
		run = 0
		if !isDigitByte(c) {
			symbols++
		}
	}
	return symbols >= 3 && maxRun < 9 && shannonEntropy(v) >= 3.5
}

// generatedValue holds a value found after a name that only suggests a credential to the
// shapes generated keys have: random-looking, a UUID, 32+ hex digits, or (after a key name)
// 24+ characters.
func generatedValue(v string, keyName bool) bool {
	return randomValue(v) || uuidRe.MatchString(v) || isHex(v) && len(v) >= 32 || keyName && len(v) >= 24
}

// nextLineValue takes a credential alone on the line after a name that ends its line
// ("Your API key:\nsk-…", "private access key\nZXC2…"); not a heading's underline, nor a
// call or a decorator opening the body of a class named for a secret (class SecretApi:\n
// @utils.minimum_version('1.25')).
func nextLineValue(s string, i int) (int, int, bool) {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == ':') && j-i < 4 {
		j++
	}
	if j >= len(s) || s[j] != '\n' {
		return 0, 0, false
	}
	if j == i {
		n := i
		for n > 0 && isWordByte(s[n-1]) {
			n--
		}
		if n > 0 && (s[n-1] == '"' || s[n-1] == '\'') {
			return 0, 0, false // {"apiKeyE⏎xists":true}: a quoted name a terminal wrapped, not a name over its value
		}
	}
	colon := strings.IndexByte(s[i:j], ':') >= 0
	j++
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if colon && j < len(s) && s[j] == '\n' {
		// Jenkins' "initial admin password:", a blank line, then the password: a label's
		// value set apart by one blank line
		for j++; j < len(s) && (s[j] == ' ' || s[j] == '\t'); j++ {
		}
	}
	k := j
	for k < len(s) && k-j < 400 && !strings.ContainsRune(" \t\r\n", rune(s[k])) {
		k++
	}
	if k < len(s) && s[k] != '\n' && s[k] != '\r' {
		return 0, 0, false // more on the line: prose, not a value
	}
	return j, k, k > j && !nextKeyLine(s[j:k]) && !repeatedByte(s[j:k]) && !callLike.MatchString(strings.TrimPrefix(s[j:k], "@")) && !requirementPin.MatchString(s[j:k]) && credentialValue(s[j:k])
}

// requirementPin matches a Python requirement pinned or bounded to a version (requests==2.32.5,
// uvicorn[standard]>=0.30): a pip-compile listing's next line after a comment naming a package
// (#   tiktoken).
var requirementPin = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[\w,.-]+\])?(?:==|>=|<=|~=|!=|===)[0-9][\w.+!*-]*$`)

// formatTemplate reports a quoted value holding a % directive that Python's % operator
// fills in right after its closing quote ("VS%0.f0COMNTOOLS" % version, "--password=%s" %
// pw): the text around what is computed, no secret.
func formatTemplate(s string, vs, ve int) bool {
	if ve >= len(s) || strings.IndexByte(s[vs:ve], '%') < 0 {
		return false
	}
	j := skipBlanks(s, ve+1, 2)
	return j > ve+1 && j+1 < len(s) && s[j] == '%' && (s[j+1] == ' ' || s[j+1] == '\t')
}

// repeatedByte reports a run of one character (~~~~, =====): a heading's underline or a rule,
// under a title that names a credential.
func repeatedByte(v string) bool {
	return v != "" && strings.Trim(v, v[:1]) == ""
}

// nextKeyLine reports a next line that opens another entry rather than holding a value: a
// YAML key (api_key:), an .env line (PORT=8080, or API_KEY= left blank, as several blank
// entries in a row are). Base64 padding (QUJD==) is no entry.
func nextKeyLine(tok string) bool {
	if strings.HasSuffix(tok, ":") {
		return true
	}
	i := strings.IndexByte(tok, '=')
	if i <= 0 || !isLetter(tok[0]) && tok[0] != '_' {
		return false
	}
	for k := 0; k < i; k++ {
		if c := tok[k]; !isWordByte(c) && c != '.' && c != '-' {
			return false
		}
	}
	if i+1 < len(tok) {
		return tok[i+1] != '='
	}
	return strings.IndexByte(tok[:i], '_') >= 0
}

// spacedValue returns the token after a name and one to three blanks on the same line:
// NAME value, NAME: with the value on the line, "key token value" in a log.
func spacedValue(s string, i int) (int, int, bool) {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') && j-i < 3 {
		j++
	}
	if j == i || j >= len(s) {
		return 0, 0, false
	}
	k := j
	for k < len(s) && k-j < 400 && (tokenChar(s[k]) || strings.IndexByte("!@#$%^&*=", s[k]) >= 0) {
		k++
	}
	if k < len(s) && !strings.ContainsRune(" \t\r\n\"'`,;)]}", rune(s[k])) {
		return 0, 0, false // the token goes on (a call, a path): not a value
	}
	return j, k, k > j
}

// lineValue returns the one word that ends a line opened by a key and a blank: a Dockerfile's
// ENV NAME value, a properties file's dotted.name value. Any characters but blanks are the
// value's.
func lineValue(s string, nameStart, nameEnd int) (int, int, bool) {
	if !dockerEnv(s, nameStart) && (strings.IndexByte(s[nameStart:nameEnd], '.') <= 0 || lineHead(s, nameStart) != "") {
		return 0, 0, false
	}
	j := skipBlanks(s, nameEnd, 3)
	if j == nameEnd || j >= len(s) {
		return 0, 0, false
	}
	k := j
	for k < len(s) && k-j < 400 && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' && s[k] != '\r' {
		k++
	}
	rest := k
	for rest < len(s) && (s[rest] == ' ' || s[rest] == '\t' || s[rest] == '\r') {
		rest++
	}
	if rest < len(s) && s[rest] != '\n' || k == j || s[j] == '"' || s[j] == '\'' || s[j] == '=' || s[j] == ':' {
		return 0, 0, false
	}
	return j, j + closingStringQuote(s[j:k]), true
}

// dockerEnv reports a Dockerfile ENV line (ENV NAME value): its value is a literal.
func dockerEnv(s string, nameStart int) bool {
	return lineHead(s, nameStart) == "ENV "
}

// gluedValue finds a credential glued to the secret word of its name by - or _
// (launchdarkly-secret-3f9c…, API_TOKEN_Ab12…): the part after the last secret word,
// when it is shaped like a credential and not more words.
func gluedValue(s string, nameStart, nameEnd int) (int, bool) {
	run := s[nameStart:nameEnd]
	lower := strings.ToLower(run)
	best := -1
	for _, w := range []string{"secret", "token", "key", "password", "passwd", "pwd", "apikey", "access", "private"} {
		for from := 0; ; {
			k := strings.Index(lower[from:], w)
			if k < 0 {
				break
			}
			k += from
			from = k + len(w)
			e := k + len(w)
			if e < len(run) && (run[e] == '-' || run[e] == '_') && e+1 > best {
				best = e + 1
			}
		}
	}
	if best < 0 || nameEnd-(nameStart+best) < 16 || datedName(run) || strings.HasSuffix(run, "-") && datedName(run[:len(run)-1]) {
		return 0, false // token-counting-2024-11-01: a feature named with its date (token-exchange-2023-02-03-%232812.md: and more after it)
	}
	v := run[best:]
	if !credentialValue(v) || wordyParts(v) && !uuidRe.MatchString(v) && countDigits(v) < 6 {
		return 0, false
	}
	return nameStart + best, true
}

// credentialValue reports a value shaped like a generated credential rather than a word,
// an identifier, a path or a number: a UUID, 16+ hex digits with letters, 12+ token
// characters mixing letters and digits (not a version, a file name, a date or dotted
// words), or 24+ letters of one case without a break.
func credentialValue(v string) bool {
	if len(v) < 12 || len(v) > 400 || placeholderValue(v) || v[0] == '-' || strings.Contains(v, "://") || pathValue(v) || cliTokenName(v) {
		return false
	}
	if uuidRe.MatchString(v) {
		return true
	}
	if isDigits(v) { // before isHex: digits alone are hex too
		return len(v) >= 24
	}
	if isHex(v) {
		return len(v) >= 16 && hasDigitAndLetter(v)
	}
	if !hasDigitAndLetter(v) {
		if len(v) < 20 || strings.ContainsAny(v, "-_./") {
			return false
		}
		return strings.ToLower(v) == v || strings.ToUpper(v) == v || meanRunLength(v) < 3
	}
	if countDigits(v) < 2 || fileNameLike(v) || versionLike.MatchString(v) || dateLike.MatchString(v) {
		return false
	}
	if strings.Count(v, ".") >= 1 && dottedWords(v) && !strings.HasPrefix(v, "ey") {
		return false
	}
	return !(strings.Count(v, "/") >= 2 && !randomBase64(v))
}

var (
	versionLike = regexp.MustCompile(`^v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?$`)
	dateLike    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?$`)
)

// fileNameLike reports a name with a file extension: build-2024.tar.gz, report_v12.pdf.
func fileNameLike(v string) bool {
	i := strings.LastIndexByte(v, '.')
	if i <= 0 || len(v)-i-1 < 1 || len(v)-i-1 > 5 {
		return false
	}
	ext := v[i+1:]
	for j := 0; j < len(ext); j++ {
		if !isLetter(ext[j]) && !(j > 0 && isDigitByte(ext[j])) {
			return false
		}
	}
	return true
}

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
		}
	}
	return n
}

// configLiteral reports a value a config file spells literally: the name opens its line
// (YAML, INI, .env, properties), and the value, after ": " or a "=" with no blank before
// it, ends the line without the comma or semicolon of code (password: hunter2, but not
// password: pwd, in an object literal).
func configLiteral(s string, nameStart, nameEnd, vs, ve int) bool {
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	head := lineHead(s, nameStart)
	for _, p := range []string{"export ", "ENV ", "set "} {
		head = strings.TrimPrefix(head, p)
	}
	if strings.Trim(head, `"'`) != "" {
		return false
	}
	between := s[nameEnd:vs]
	op := strings.Trim(between, `"' \t`)
	switch op {
	case ":":
		if objectMemberAbove(s, ls) || objectLiteralEdge(s, ls, ve) {
			return false // the last member of an object literal, its comma left out
		}
	case "=":
		if strings.ContainsAny(between, " \t") && !iniSection(s, ls) {
			return false // name = value outside an INI file: code as often as config
		}
	default:
		return false
	}
	le := strings.IndexByte(s[ve:], '\n')
	if le < 0 {
		le = len(s) - ve
	}
	rest := strings.TrimSpace(s[ve : ve+le])
	if strings.HasPrefix(rest, `"`) && strings.Trim(rest[1:], " \t,}]") == "" {
		rest = "" // the quote closing the JSON string the config file is written in
	}
	rest = strings.Trim(rest, `"'`)
	return rest == "" || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, ";") && op == "="
}

// objectLiteralEdge reports a "name: value" line just inside an object literal's braces:
// the line above ends with { (target = {, _meta: {) or the next line opens with } (the
// member written last, its comma left out). A YAML block mapping has neither.
func objectLiteralEdge(s string, ls, ve int) bool {
	if ls > 1 {
		ps := strings.LastIndexByte(s[:ls-1], '\n') + 1
		if above := strings.TrimRight(s[ps:ls-1], " \t\r"); strings.HasSuffix(above, "{") {
			return true
		}
	}
	le := strings.IndexByte(s[ve:], '\n')
	if le < 0 {
		return false
	}
	below := s[ve+le+1:]
	below = below[:min(len(below), 200)]
	return strings.HasPrefix(strings.TrimLeft(below, " \t"), "}")
}

// inOperand reports a quoted literal ending at ve (before its closing quote) that is the
// left operand of the in operator ("username" in options): the name of a member looked for.
func inOperand(s string, ve int) bool {
	if ve >= len(s) || s[ve] != '"' && s[ve] != '\'' {
		return false
	}
	rest := s[ve+1 : min(len(s), ve+6)]
	return len(rest) == 5 && rest[:4] == " in " && (isLetter(rest[4]) || rest[4] == '_' || rest[4] == '$')
}

// minifiedBoolean reports a name set to !0 or !1, which minifiers write for true and false
// ({checkbox:!0,password:!0}, a.isSecret=!1).
func minifiedBoolean(s string, nameEnd int) bool {
	if nameEnd+3 > len(s) || s[nameEnd] != ':' && s[nameEnd] != '=' || s[nameEnd+1] != '!' || s[nameEnd+2] != '0' && s[nameEnd+2] != '1' {
		return false
	}
	return nameEnd+3 == len(s) || !isWordByte(s[nameEnd+3])
}

// iniSection reports whether a line above ls opens an INI section ([pypi], [client]).
func iniSection(s string, ls int) bool {
	for i := 0; i < 40 && ls > 0; i++ {
		ps := strings.LastIndexByte(s[:ls-1], '\n') + 1
		line := strings.TrimSpace(s[ps : ls-1])
		if len(line) > 2 && line[0] == '[' && line[len(line)-1] == ']' && !strings.ContainsAny(line, " ,'\"") {
			return true
		}
		ls = ps
	}
	return false
}

func isNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

// twoWordSecretName catches names written as two words, "Authentication key: …",
// "API key: …", "access token …": the stem's word alone (key) is not a secret word.
func twoWordSecretName(s string, nameStart int, name string) bool {
	n := strings.ToLower(name)
	if n != "key" && n != "token" && n != "secret" {
		return false
	}
	j := nameStart
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') && nameStart-j < 3 {
		j--
	}
	if j == nameStart {
		return false
	}
	k := j
	for k > 0 && isLetter(s[k-1]) && j-k < 20 {
		k--
	}
	switch strings.ToLower(s[k:j]) {
	case "api", "auth", "authentication", "access", "secret", "private", "license", "licence",
		"encryption", "master", "signing", "client", "bearer", "refresh", "session", "personal":
		return true
	}
	return false
}

// twoWordSpelled reports a value that spells a name written as two words (a private key
// "privateKey": the parameter a comment names), as spellsName does for a name of one.
func twoWordSpelled(s string, nameStart int, name, v string) bool {
	if !twoWordSecretName(s, nameStart, name) {
		return false
	}
	j := nameStart
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && isLetter(s[k-1]) && j-k < 20 {
		k--
	}
	return spellsName(s[k:j]+"_"+name, v)
}

// localDatabaseDefault reports a local database's default password, its account's own name,
// written beside that account and a local host (username: … || 'postgres', then password: … ||
// 'postgres', host 'localhost'; DB_USERNAME=postgres, DB_PASSWORD=postgres): what a database's
// image starts with on this machine, as postgres://postgres:postgres@localhost is.
func localDatabaseDefault(s string, vs, ve int) bool {
	switch v := s[vs:ve]; v {
	case "postgres", "mysql", "root", "guest", "mongo", "sa":
		around := s[max(0, vs-400):min(len(s), ve+400)]
		if !strings.Contains(around, "localhost") && !strings.Contains(around, "127.0.0.1") {
			return false
		}
		head := s[max(0, vs-300):vs]
		for {
			i := strings.LastIndex(head, v)
			if i < 0 {
				return false
			}
			ls := strings.LastIndexByte(head[:i], '\n') + 1
			if l := strings.ToLower(head[ls:i]); strings.Contains(l, "user") && !strings.Contains(l, "pass") {
				return true // the same name, a line above, as the account's
			}
			head = head[:i]
		}
	}
	return false
}

// lineCommentAt returns where a // comment set apart by blanks opens after a statement or a
// field that ends in ; or , (string;  // hex, x,\t// why): code and its comment, or -1. A
// URL's // follows its scheme, no blank.
func lineCommentAt(v string) int {
	for from := 0; ; {
		i := strings.Index(v[from:], "//")
		if i < 0 {
			return -1
		}
		i += from
		if i > 0 && (v[i-1] == ' ' || v[i-1] == '\t') && (i+2 == len(v) || v[i+2] == ' ' || v[i+2] == '\t') {
			k := i
			for k > 0 && (v[k-1] == ' ' || v[k-1] == '\t') {
				k--
			}
			if k > 0 && (v[k-1] == ';' || v[k-1] == ',') {
				return k
			}
		}
		from = i + 2
	}
}

// keyLikeName reports names with a key component (sort_key and the public-key words
// excepted): ANY_key=AIhq5Xyb1Gga9Q29, key_wrap = '…' hold a credential when the value is
// random.
func keyLikeName(name string) bool {
	parts := nameParts(name)
	has := false
	for _, p := range parts {
		if len(p) > 5 && strings.HasSuffix(p, "key") && !keyWords[p] {
			has = true // samplekey, licensekey: key glued to a word
		}
		switch p {
		case "key", "keys":
			has = true
		case "public", "pub", "primary", "foreign", "sort", "partition", "cache", "idempotency", "hash",
			"lookup", "unique", "map", "dict", "group", "row", "column", "index", "shortcut", "hot", "react",
			"i18n", "translation", "name", "id", "type", "path", "file", "session", "context", "ctx", "state", "event", "store", "storage", "query", "route", "cache_",
			// a record's key in a business system's JSON ("CountryKey", "StartCityKey": a UUID
			// beside the record's name and code)
			"city", "country", "region", "province", "district", "currency", "category", "channel", "warehouse",
			"carrier", "label", "folder", "menu", "locale", "language",
			// what records are matched or joined on ("matchingKey": "ELBOW_90_LR|STD|2")
			"match", "matching", "join", "composite",
			// a function that makes or finds one (keyGenerator: () => ip || "unknown")
			"generator", "provider", "resolver", "factory", "builder", "handler", "callback", "fn", "func", "getter", "extractor", "selector", "loader":
			return false
		}
	}
	return has
}

// keyWords are English words ending in key, not names with a key in them.
var keyWords = map[string]bool{"monkey": true, "hockey": true, "turkey": true, "donkey": true, "whiskey": true,
	"jockey": true, "lackey": true, "hotkey": true, "passkey": true, "turnkey": true, "latchkey": true}

// fallbackLiteral finds the default of a secret read from the environment, on the rest of
// the line: getenv("NAME", "default"), os.environ.get("NAME") or "default", env.X || 'default',
// env.X ?? "default", Perl's $cfg->{password} // 'default'. Upper-case literals are variable
// names, not defaults.
func fallbackLiteral(s string, i int) (int, int, bool) {
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	line := s[i:end]
	for _, m := range fallbackRe.FindAllStringSubmatchIndex(line, -1) {
		v := line[m[4]:m[5]]
		if v == strings.ToUpper(v) && !hasDigitAndLetter(v) || placeholderValue(v) {
			continue
		}
		if j := skipBlanks(line, m[1], 2); j < len(line) && line[j] == ':' {
			continue // {"access_token": token, "token_type": "bearer"}: the next member's key
		}
		if textEncodings[strings.ToLower(v)] || codecErrorHandlers[v] {
			continue // readFileSync(pwdFilePath, 'utf8'), decode("UTF-8", "replace"): the encoding, what to do with bad bytes
		}
		if op := strings.TrimLeft(line[m[0]:m[2]], " \t"); strings.HasPrefix(op, "//") && strings.HasSuffix(strings.TrimRight(line[:m[0]], " \t"), ";") && !randomValue(v) && !credentialValue(v) {
			continue // x = config.apiKey; // "ls-abc123": a comment after a statement, not Perl's defined-or
		}
		if strings.Count(v, " ") >= 2 {
			continue // flag.String("token", "", "the token to use"): a message, not a default
		}
		if before := line[:m[0]]; strings.Contains(before, `, ""`) || strings.Contains(before, `, ''`) {
			continue // the default came first and is empty; what follows is another argument
		}
		if line[m[0]] == ',' && (openBracketBefore(line, m[0]) || attributeCall(line, m[0])) {
			continue // choices=['always', 'on_create'], getattr(ctx, 'become_pass'): a list's item, an attribute's name
		}
		if formattedTemplate(line, v, m[5]) {
			continue // data.get('omit_token', '__omit_place_holder__%s' % sha1(…)): a template filled in
		}
		return i + m[4], i + m[5], true
	}
	return 0, 0, false
}

// secretNamedIdentifier reports an identifier of several words, one a credential's: in
// camel case (V3ADFSPassword, pwdAllowUserChange) or run together in lower case
// (unicodepwd, userpassword): a class's, a member's or an attribute's name, listed.
func secretNamedIdentifier(v string) bool {
	if !pyIdentifier(v) || strings.ToUpper(v) == v || digitRuns(v) > 1 || strings.Contains(v, "_") {
		return false
	}
	if strings.ToLower(v) == v {
		for _, w := range []string{"password", "passwd", "pwd"} {
			if strings.HasSuffix(v, w) && len(v) >= len(w)+3 && isLetters(v) {
				return true
			}
		}
		return false
	}
	parts := nameParts(v)
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		switch strings.ToLower(strings.TrimRight(p, "0123456789")) {
		case "password", "passwd", "pwd", "token", "secret", "key", "credential", "credentials":
			return true
		}
	}
	return false
}

// optionHelp reports a sentence that names the option it follows (opt("token", "API token
// to use when authenticating")): an option's help, three words or more, one the name's.
func optionHelp(name, v string) bool {
	words := strings.Fields(strings.ToLower(v))
	if len(words) < 3 {
		return false
	}
	parts := nameParts(name)
	for _, w := range words {
		if !isLetters(strings.Trim(w, ".,;:()'-")) {
			return false
		}
	}
	for _, w := range words {
		if slices.Contains(parts, strings.Trim(w, ".,;:()'")) {
			return true
		}
	}
	return false
}

// rfcNumber matches a reference to an RFC (RFC4524): where a name is defined.
var rfcNumber = regexp.MustCompile(`^RFC ?\d{3,5}$`)

// prefixedLiteral returns the literal a two-letter Python string prefix (rb, rf, …) read as
// the value opens: the quoted text after it, on its line.
func prefixedLiteral(s string, vs, ve int) (int, int, bool) {
	if ve-vs != 2 || ve >= len(s) || s[ve] != '"' && s[ve] != '\'' {
		return 0, 0, false
	}
	switch strings.ToLower(s[vs:ve]) {
	case "rb", "br", "rf", "fr":
	default:
		return 0, 0, false
	}
	e := strings.IndexByte(s[ve+1:lineEndAt(s, ve)], s[ve])
	if e <= 0 {
		return 0, 0, false
	}
	return ve + 1, ve + 1 + e, true
}

// snakeDictWords reports a name in snake case of two English words or more, all lower case
// (credit_card, remote_user): a variable's or a field's name, no generated value.
func snakeDictWords(v string) bool {
	parts := strings.Split(v, "_")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) < 2 || !isLetters(p) || strings.ToLower(p) != p || !dictWord(p) {
			return false
		}
	}
	return true
}

// codecErrorHandlers are the names Python's codecs take for what to do with bytes that do
// not decode: newpassword.decode("UTF-8", "replace").
var codecErrorHandlers = map[string]bool{"strict": true, "replace": true, "ignore": true, "surrogateescape": true,
	"backslashreplace": true, "xmlcharrefreplace": true, "namereplace": true, "surrogatepass": true}

// openBracketBefore reports a [ that no ] closes before i on the line: what follows is a
// list's item, not a call's default argument.
func openBracketBefore(line string, i int) bool {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		switch line[k] {
		case ']':
			depth++
		case '[':
			if depth == 0 {
				return true
			}
			depth--
		case '(':
			if depth == 0 {
				return false // the call the literal is an argument of opens first
			}
		}
	}
	return false
}

// attributeCall reports a comma at i inside Python's getattr, hasattr, setattr or delattr
// (getattr(become_context, 'become_pass')): the literal after it names an attribute.
func attributeCall(line string, i int) bool {
	o := strings.LastIndexByte(line[:i], '(')
	if o < 0 || strings.IndexByte(line[o:i], ')') >= 0 {
		return false
	}
	head := strings.TrimRight(line[:o], " ")
	for _, f := range []string{"getattr", "hasattr", "setattr", "delattr"} {
		if strings.HasSuffix(head, f) && (len(head) == len(f) || !isWordByte(head[len(head)-len(f)-1])) {
			return true
		}
	}
	return false
}

// snakeSecretName reports a name in snake case of two words or more, one a secret's
// (aws_access_key_id, hcloud_api_token, db_passwd): a configuration option's or a
// variable's name passed as an argument, where a value would have no underscore between
// words (a generated one) or stand alone.
func snakeSecretName(v string) bool {
	return strings.IndexByte(v, '_') > 0 && strings.IndexByte(v, '-') < 0 && secretNameValue(v)
}

// camelSecretName reports a secret's name in camel case (authToken, clientSecret,
// refreshToken): two to four parts of letters, the first in lower case, the last a word for a
// secret; a literal so written beside another names an option or a field
// (CREDENTIAL_OPTIONS = ['apiKey', 'authToken']).
func camelSecretName(v string) bool {
	if len(v) < 6 || len(v) > 40 || !isLowerByte(v[0]) || !isLetters(v) || strings.ToLower(v) == v {
		return false
	}
	parts := nameParts(v)
	if len(parts) < 2 || len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if len(p) < 2 {
			return false
		}
	}
	switch parts[len(parts)-1] {
	case "token", "key", "secret", "password", "credentials", "apikey":
		return true
	}
	return false
}

// listedAfter reports a literal at s[fs:] that follows another after a comma, as a list's
// next element, not a fallback after || or ?? (a default secret: || 'mySuperSecretKey').
func listedAfter(s string, vs, fs int) bool {
	return strings.HasSuffix(strings.TrimRight(s[vs:fs], "'\"` \t"), ",")
}

// envNameBefore reports an environment variable's name in upper case among a call's
// arguments before its fallback literal at s[fs:] (os.getenv("DB_PASSWORD", "db_password"):
// the literal is the variable's default, a value), read from the value's start vs.
func envNameBefore(s string, vs, fs int) bool {
	head := s[vs:fs]
	for _, q := range []string{"\"", "'"} {
		parts := strings.Split(head, q)
		for k := 1; k < len(parts); k += 2 {
			if p := parts[k]; p != "" && p == strings.ToUpper(p) && upperSnakeName(p) || p != "" && p == strings.ToUpper(p) && allLettersDigits(p) {
				return true
			}
		}
	}
	return false
}

// attributeSetter reports OpenTelemetry's generated setter of an attribute key
// (NetworkConnectionSubtypeKey.String, HTTPStatusCodeKey.Int): what it sets is a telemetry
// attribute's value, an enumeration's member as the generator writes it.
func attributeSetter(name string) bool {
	key, method, ok := strings.Cut(name, ".")
	if !ok || !strings.HasSuffix(key, "Key") || len(key) < 6 || !isUpperByte(key[0]) {
		return false
	}
	switch method {
	case "String", "Int", "Int64", "Bool", "Float64", "StringSlice", "IntSlice", "Int64Slice", "BoolSlice", "Float64Slice":
		return true
	}
	return false
}

// compositeLiteral opens a composite literal of Go (&types.Credentials{, []bootstrap.ChannelCreds{{,
// endpoints.CredentialScope{, TransportCreds{): a value built by code, not a config's
// literal. A type is qualified, taken the address of, a slice's, or words in Pascal case; a
// password with a brace (admin{123}) is none of these.
var compositeLiteral = regexp.MustCompile(`^(?:&[A-Za-z_][\w.]*|\[\]\*?[A-Za-z_][\w.]*|[a-z_]\w*\.[A-Z]\w*|[A-Z][a-z]\w*[A-Z]\w*)\{`)

var fallbackRe = regexp.MustCompile(`(?:\bor|\band|\|\||\?\?|\s//|,)\s*(["'])([^"'\n]{4,400})(["'])`)

// credentialLikeName reports names with a part that often names a credential without being
// one on its own (api_id, auth, client, access, session): held to a random value.
func credentialLikeName(name string) bool {
	for _, p := range nameParts(name) {
		switch p {
		case "api", "auth", "access", "client", "private", "signing", "salt", "nonce", "license", "hmac":
			return true
		}
		if strings.HasPrefix(p, "auth") && !strings.HasPrefix(p, "author") || p == "authorization" || strings.HasPrefix(p, "api") && !strings.HasPrefix(p, "apit") {
			return true
		}
	}
	return false
}

// literalArgument accepts `name, "literal"` (setopt(CURLOPT_PROXYPASSWORD, "…"),
// setProperty("password", "…")) and `name("literal")` (std::string secret("…")).
func literalArgument(s string, i int) (int, int, bool) {
	i = skipEscapedQuote(s, i, 0)
	i = skipBlanks(s, i, 2)
	if i >= len(s) || (s[i] != ',' && s[i] != '(') {
		return 0, 0, false
	}
	i = skipBlanks(s, i+1, 2)
	if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
		return 0, 0, false
	}
	vs, ve, ok := quotedLiteral(s, i)
	if ok {
		// {"name": "password", "type": "string"}: the literal is the next key, not an argument.
		if j := skipBlanks(s, ve+1, 2); j < len(s) && s[j] == ':' {
			return 0, 0, false
		}
	}
	return vs, ve, ok
}

// randomValue reports a value that looks generated: 12+ characters mixing letters and digits,
// changing character class often.
func randomValue(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	if len(v) < 8 || len(v) > 400 || placeholderValue(v) || isHex(v) || uuidRe.MatchString(v) || pathValue(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !tokenChar(v[i]) && strings.IndexByte("!@#$%^&*=", v[i]) < 0 {
			return false
		}
	}
	mixed := hasDigitAndLetter(v) || strings.ToLower(v) != v && strings.ToUpper(v) != v
	if len(v) < 12 {
		// Short values: upper and lower case and a digit or symbol, as passwords are made.
		return mixedClasses(v) && hasDigitAndLetter(v) && shannonEntropy(v) >= 2.8
	}
	if !mixed || shannonEntropy(v) < 3.3 {
		return false
	}
	return meanRunLength(v) < 3.2 || len(v) >= 24 && shannonEntropy(v) >= 4 && !strings.ContainsAny(v, "-_./")
}

// assignedValue parses `["']? ws? op ws? ["']? value` after a key name and returns the
// value's span. The operators are = := ::= ?= : => -> and, before a quoted literal, the
// comparisons == != === !==; a bare space before a quoted literal (NAME "value") and a type
// annotation (name: str = "value") are accepted too.
func assignedValue(s string, i int) (int, int, bool) {
	i = skipEscapedQuote(s, i, 0)
	if i < len(s) && s[i] == '`' {
		// `password` = 'x' (SQL's and R's quoted names): only before a quoted literal, as a
		// Markdown code span names a field in a sentence (`password`: the account's).
		if j := skipBlanks(s, i+1, 2); j < len(s) && (s[j] == '=' || s[j] == ':') && (j+1 >= len(s) || s[j+1] != '=') {
			if k := skipBlanks(s, j+1, 2); k < len(s) && (s[k] == '\'' || s[k] == '"') {
				i++
			}
		}
	}
	if i < len(s) && s[i] == '[' { // secrete[] = "…", char secret[25] = "…"
		if j := strings.IndexByte(s[i:], ']'); j >= 0 && j < 12 {
			if numericSlice(s[i+1 : i+j]) {
				if k := skipBlanks(s, i+j+1, 2); strings.HasPrefix(s[k:], "==") || strings.HasPrefix(s[k:], "!=") {
					return 0, 0, false // password[:4] == "$2b$": a part of it compared, a hash's prefix
				}
			}
			i += j + 1
		}
	}
	if j := skipBlanks(s, i, 7); j < len(s) && s[j] == ']' { // ['password'] = "…", options[:password] = "…"
		i = j + 1 // (the blanks: a JSON string's escapes, written out)
	}
	i = skipAccessors(s, i)
	// Markdown emphasis around the name: **Password:** x, __token__: x.
	for k := 0; k < 2 && i < len(s) && (s[i] == '*' || s[i] == '_'); k++ {
		i++
	}
	blank := i
	i = skipBlanks(s, i, 8)
	if i >= len(s) {
		return 0, 0, false
	}
	comparison := false
	switch {
	case strings.HasPrefix(s[i:], "::="):
		i += 3
	case strings.HasPrefix(s[i:], "+=") && i == blank && i+2 < len(s) && s[i+2] != ' ' && s[i+2] != '\t':
		i += 2 // TOKEN+='…': a shell appends the rest of a value split over lines
	case strings.HasPrefix(s[i:], "===") || strings.HasPrefix(s[i:], "!=="):
		i, comparison = i+3, true
	case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!="):
		i, comparison = i+2, true
	case strings.HasPrefix(s[i:], "=&gt;"):
		i += 5
	case strings.HasPrefix(s[i:], "%3D") || strings.HasPrefix(s[i:], "%3d"):
		i += 3
	case strings.HasPrefix(s[i:], "->") && symlinkTarget(s, i+2):
		return 0, 0, false // ls -l: docker-credential-gcloud -> ../lib/google-cloud-sdk/bin/…
	case strings.HasPrefix(s[i:], ":="), strings.HasPrefix(s[i:], "?="), strings.HasPrefix(s[i:], "=>"), strings.HasPrefix(s[i:], "->"), strings.HasPrefix(s[i:], "=~"):
		i += 2
	case s[i] == '=':
		i++
	case strings.HasPrefix(s[i:], "→"), strings.HasPrefix(s[i:], "⇒"):
		// password → x, in notes and tables: a value that is no word.
		vs, ve, ok := spacedValue(s, i+len("→"))
		return vs, ve, ok && notProseWord(s[vs:ve]) && mixedClasses(s[vs:ve])
	case s[i] == '-' && i > blank && i+1 < len(s) && s[i+1] == ' ' && oneWordHead(s, i):
		// Password - x: a name opening its line, a dash, a value that is no word.
		vs, ve, ok := spacedValue(s, i+1)
		return vs, ve, ok && notProseWord(s[vs:ve]) && mixedClasses(s[vs:ve])
	case s[i] == ':':
		if i+1 < len(s) && s[i+1] == ':' {
			return 0, 0, false
		}
		i++
		for k := 0; k < 2 && i < len(s) && s[i] == '*'; k++ {
			i++ // **Password:** x
		}
		// name: Type = "value"
		j := skipBlanks(s, i, 2)
		if k := typeAnnotationEnd(s, j); k > j {
			// The type is set apart from its default by a blank (str = "x"); a value
			// holding an = has none (secret: live_8uq9…=CTsQ…, password: hunter2=abc).
			if m := skipBlanks(s, k, 2); m > k && m < len(s) && s[m] == '=' && (m+1 >= len(s) || s[m+1] != '=') {
				i = m + 1
			}
		}
	case (s[i] == '"' || s[i] == '\'') && i > blank:
		// NAME "value" (a macro, netrc-like): only a quoted literal.
		return quotedLiteral(s, i)
	case i > blank && macroLine(s, i):
		// %define token 4b9a…, #define PASSWORD x
		start := i
		for i < len(s) && !strings.ContainsRune(" \t\r\n\"'`", rune(s[i])) && i-start < 400 {
			i++
		}
		return start, i, i > start
	default:
		return 0, 0, false
	}
	i = skipBlanks(s, i, 32)
	i = skipEscapedQuote(s, i, 1)
	if i >= len(s) {
		return 0, 0, false
	}
	if i+1 < len(s) && (s[i] == '@' || s[i] == 'r' || s[i] == 'b' || s[i] == 'f') {
		// @"…", r"…", b'…' (in a JSON string @\"…: blanks where its backslashes were)
		if j := skipBlanks(s, i+1, 7); j < len(s) && (s[j] == '"' || s[j] == '\'') && (j == i+1 || s[i] == '@') {
			i = j
		}
	}
	if strings.HasPrefix(s[i:], "&quot;") {
		end := strings.Index(s[i+6:], "&quot;")
		nl := strings.IndexByte(s[i+6:], '\n')
		if end > 0 && (nl < 0 || end < nl) {
			return i + 6, i + 6 + end, true
		}
	}
	if q := s[i]; q == '"' || q == '\'' || q == '`' {
		if vs, ve, ok := quotedLiteral(s, i); ok {
			return vs, ve, true
		}
		if comparison {
			return 0, 0, false
		}
		// An unterminated quote: a value continued on the next line.
		end := i + 1
		for end < len(s) && s[end] != '\n' && end-i < 400 {
			end++
		}
		if end < len(s) && s[end-1] == '\\' {
			// "abc\<newline>def": a shell or C string continued with a backslash is one
			// value, up to its closing quote.
			if c := strings.IndexByte(s[end:min(len(s), i+400)], q); c > 0 && !strings.Contains(s[end+1:end+c], "\n") {
				return i + 1, end + c, true
			}
		}
		for end > i+1 && (s[end-1] == '\\' || s[end-1] == ' ') {
			end--
		}
		start := i + 1
		for start < end && s[start] == q {
			start++ // ''' or """
		}
		return start, end, end-start >= 8 && !strings.ContainsAny(s[start:end], " \t")
	}
	if comparison {
		return 0, 0, false
	}
	start := i
	if lineStartName(s, start) {
		// A config line (YAML, INI, .env, properties): the value is the rest of the line.
		end := start
		for end < len(s) && s[end] != '\n' && end-start < 1024 {
			end++
		}
		v := s[start:end]
		if _, ok := jsonStringHead(s[strings.LastIndexByte(s[:start], '\n')+1 : start]); ok {
			if q := strings.IndexByte(v, '"'); q >= 0 {
				v = v[:q] // the JSON string ends the line
			}
		}
		v = v[:closingStringQuote(v)]
		if c := strings.Index(v, " #"); c >= 0 {
			v = v[:c]
		}
		if c := strings.Index(v, "\t#"); c >= 0 {
			v = v[:c] // private_key = $dir/private/cakey.pem<tab># The private key
		}
		if c := cCommentAt(v); c >= 0 {
			v = v[:c] // VKI_CAM_PASS_ERR_RECOVER    = 0x00010000,/* Pass driver … */
		}
		if c := strings.Index(v, "; //"); c > 0 {
			v = v[:c] // password = undefined; // a comment: a statement of code and its comment
		} else if c := lineCommentAt(v); c > 0 {
			v = v[:c] // privateKey: string;  // hex, token: string,\t// the bearer token: a field and its comment
		}
		if w, rest, ok := strings.Cut(v, " as "); ok && placeholderWordSet[w] && tsTypeName(strings.TrimRight(strings.TrimPrefix(rest, "unknown as "), ",;)")) {
			v = w // token: null as unknown as OAuthToken: TypeScript's cast of a literal
		}
		v = strings.TrimRight(v, " \t\r,;")
		if v != "" && strings.Count(v, " ") <= 5 && !strings.HasSuffix(v, ".") && !strings.HasSuffix(v, "{") && !strings.HasSuffix(v, "(") {
			v = trimUnbalancedQuote(v)
			return start, start + len(v), len(v) > 0
		}
	}
	if envLine(s, start) {
		// NAME=value alone on its line (.env): the value is the whole word.
		for i < len(s) && i-start < 400 && !strings.ContainsRune(" \t\r\n", rune(s[i])) {
			i++
		}
		i = start + closingStringQuote(s[start:i])
		for i > start && s[i-1] == ';' {
			i--
		}
	} else {
		i = bareValueEnd(s, start, 400)
	}
	// A closing bracket the value did not open belongs to the text around it: (pw:x1y2), and
	// so does the colon, comma or semicolon after it when a type or a number is inside:
	// f(credentials: Credentials): Promise<…>, (using charsPerToken = 1):.
	unopened := func(i int) bool {
		return strings.IndexByte(")]}", s[i-1]) >= 0 && strings.Count(s[start:i], string(opening(s[i-1]))) < strings.Count(s[start:i], string(s[i-1]))
	}
	if i > start+1 && strings.IndexByte(":;,", s[i-1]) >= 0 && unopened(i-1) && (isDigits(s[start:i-2]) || tsTypeName(s[start:i-2]) && strings.ToUpper(s[start:i-2]) != s[start:i-2]) {
		i--
	}
	for i > start && unopened(i) {
		i--
	}
	return start, i, i > start
}

// closingStringQuote returns where an unquoted value ends at the quote that closes the string
// it is written in, or len(v): a quote not at the value's start and followed only by blanks
// and , } ] or the end ({"content": "x\nAPI_KEY: v", "b": 1} seen through escapeView, where
// the line runs on past the JSON string).
func closingStringQuote(v string) int {
	if v == "" || v[0] == '"' || v[0] == '\'' {
		return len(v)
	}
	for q := strings.IndexByte(v, '"'); q > 0; {
		rest := strings.TrimLeft(v[q+1:], " \t")
		if v[q-1] != ' ' && v[q-1] != '\\' && (rest == "" || strings.IndexByte(",}]", rest[0]) >= 0) {
			return q
		}
		n := strings.IndexByte(v[q+1:], '"')
		if n < 0 {
			break
		}
		q += 1 + n
	}
	return len(v)
}

// skipAccessors skips a C# auto-property's accessor list after its name (Password { get;
// set; } = "…"): the initializer after it is the value.
func skipAccessors(s string, i int) int {
	j := skipBlanks(s, i, 2)
	if j >= len(s) || s[j] != '{' {
		return i
	}
	e := strings.IndexByte(s[j:min(len(s), j+48)], '}')
	if e < 0 || !strings.Contains(s[j:j+e], "get") && !strings.Contains(s[j:j+e], "init") || strings.ContainsAny(s[j+1:j+e], "\"'(\n") {
		return i
	}
	return j + e + 1
}

// bareValueEnd returns the end of an unquoted value starting at start: the run of non-blank
// characters up to a quote, a comma or a semicolon (code around the value), or the <, > or &
// that opens a tag, a redirection or the next query parameter. Generated passwords hold <, >
// and & too (m{{h}o)p${e]nob(ody[finds>-_$#thisone}}), so those inside the run belong to it.
func bareValueEnd(s string, start, limit int) int {
	i := start
	for ; i < len(s) && i-start < limit; i++ {
		c := s[i]
		if strings.IndexByte(" \t\r\n\"'`,;", c) >= 0 {
			break
		}
		if c == '<' || c == '>' || c == '&' {
			if i+1 >= len(s) || valueBreak(s, i) {
				break
			}
		}
	}
	return i
}

// valueBreak reports whether the <, > or & at i ends a value: a tag (</td>, <br>), a
// redirection or pipe-like operator (x > file, x>>log, x&&cmd, x&), an entity (&amp;) or
// the next parameter of a query (&user=…).
func valueBreak(s string, i int) bool {
	c, n := s[i], s[i+1]
	switch c {
	case '<':
		return n == '/' || n == '!' || n == '<' || isLetter(n) || n == ' '
	case '>':
		return n == '>' || n == ' ' || n == '\t' || n == '\n' || n == '<' || n == '"' || n == '\''
	}
	if n == '&' || n == ' ' || n == '\t' || n == '\n' || n == '#' {
		return true
	}
	j := i + 1
	for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-' || s[j] == '[' || s[j] == ']') && j-i < 40 {
		j++
	}
	return j > i+1 && (j < len(s) && (s[j] == '=' || s[j] == ';'))
}

// setterName reports a setter or builder of a secret: setPassword, set_api_key, withToken,
// .password( … of a builder: its literal argument is the value.
func setterName(name string) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	parts := nameParts(name)
	return len(parts) >= 2 && (parts[0] == "set" || parts[0] == "with" || parts[0] == "use") && nameHasSecretWord(strings.Join(parts[1:], "_"))
}

// builderCall reports a builder's or a client's method named for a secret, called on
// something (.clientSecret("…"), Client.builder().apiKey("…")): its literal argument is the
// value. Not a method that reads or looks up a secret by a name (.getToken("scope"),
// vault.readSecret("db")).
func builderCall(s string, nameStart int, name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 && (nameStart == 0 || s[nameStart] != '.') {
		return false
	}
	method := name[dot+1:]
	parts := nameParts(method)
	if len(parts) == 0 || lookupVerbs[parts[0]] || method[0] < 'a' || method[0] > 'z' {
		return false // a constructor (PSCredential('user', …)) takes the account first
	}
	switch parts[len(parts)-1] {
	case "credential", "credentials", "creds":
		return false // .credentials("user", "secret"): the account first
	}
	return nameHasSecretWord(method)
}

// lookupVerbs open the names of methods that find, read or make a secret rather than set one.
var lookupVerbs = map[string]bool{"get": true, "find": true, "read": true, "load": true, "fetch": true, "lookup": true,
	"has": true, "is": true, "delete": true, "remove": true, "create": true, "list": true, "describe": true, "generate": true,
	"new": true, "rotate": true, "revoke": true, "validate": true, "verify": true, "check": true, "require": true, "on": true}

// oneWordHead reports a line that holds only one word (a name, maybe in **) before i.
func oneWordHead(s string, i int) bool {
	head := strings.Trim(strings.TrimSpace(lineHead(s, i)), "*_")
	return head != "" && !strings.ContainsAny(head, " \t")
}

func opening(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// envLine reports a value right after NAME= that opens its line, with nothing after the
// value's word but blanks or a comment: a .env or properties line.
func envLine(s string, start int) bool {
	if start == 0 || s[start-1] != '=' {
		return false
	}
	head := lineHead(s, start)
	head = strings.TrimPrefix(strings.TrimPrefix(head, "export "), "ENV ")
	for k := 0; k < len(head)-1; k++ {
		if !isNameByte(head[k]) {
			return false
		}
	}
	end := strings.IndexAny(s[start:], " \t\n")
	if end < 0 {
		return true
	}
	rest := s[start+end:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || strings.HasPrefix(rest, "#")
}

// lineHead returns the line up to i without its indentation, the line-number gutter of
// cat -n, grep -n or an editor view ("    12\t", "12→", "12 | "), a diff's or a list's
// leading +, - or a quote's >.
//
// A JSON string value opens a line too: "content": "password: x\n…" is a file a tool call
// writes, and its first line is as much a config line as the others.
func lineHead(s string, i int) string {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	head := strings.TrimLeft(s[ls:i], " \t")
	if h, ok := jsonStringHead(head); ok {
		head = strings.TrimLeft(h, " \t")
	}
	if k := gutterEnd(head); k > 0 {
		head = head[k:]
	}
	return strings.TrimLeft(head, " \t-+>")
}

// jsonStringHead returns what follows the opening quote of a JSON member's string value in
// head ({"content": "…), when head holds one and the string is still open.
func jsonStringHead(head string) (string, bool) {
	q := strings.LastIndexByte(head, '"')
	if q < 0 {
		return head, false
	}
	before := strings.TrimRight(head[:q], " \t")
	if !strings.HasSuffix(before, ":") || !strings.HasSuffix(strings.TrimRight(before[:len(before)-1], " \t"), `"`) {
		return head, false
	}
	return head[q+1:], true
}

// gutterEnd returns the length of a line-number gutter opening head, or 0.
func gutterEnd(head string) int {
	k := 0
	for k < len(head) && isDigitByte(head[k]) && k < 7 {
		k++
	}
	if k == 0 || k == len(head) {
		return 0
	}
	rest := head[k:]
	for _, sep := range []string{"\t", "→", "│", " │ ", " | ", ": "} {
		if strings.HasPrefix(rest, sep) {
			return k + len(sep)
		}
	}
	return 0
}

// macroLine reports a value at i after the name a macro definition defines (#define NAME,
// %define name). Only the defined name's value is one: in #define X 3 /* pass __u32 value */ or
// #define f(sk) ((SRP_user_pwd *)g(sk)) a later word is the macro's text, not a value.
func macroLine(s string, i int) bool {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	head := strings.TrimLeft(s[ls:i], " \t")
	if rest, ok := cDefine(head); ok {
		return definedName(rest) // #  define, #define\tNAME: the preprocessor's blanks
	}
	for _, p := range []string{"%define ", "%global ", "define "} {
		if strings.HasPrefix(head, p) {
			return definedName(head[len(p):])
		}
	}
	return false
}

// definedName reports a macro definition's rest up to its value that is one name alone.
func definedName(rest string) bool {
	name := strings.Trim(rest, " \t")
	return name != "" && strings.IndexFunc(name, func(r rune) bool { return r > 0x7f || !isNameByte(byte(r)) }) < 0
}

// cDefine returns what follows a C preprocessor #define and the blanks after it (blanks may
// stand between # and define, and a tab after it: #  define X, #define\tX).
func cDefine(head string) (string, bool) {
	if !strings.HasPrefix(head, "#") {
		return "", false
	}
	rest := strings.TrimLeft(head[1:], " \t")
	if !strings.HasPrefix(rest, "define") || len(rest) == len("define") || rest[len("define")] != ' ' && rest[len("define")] != '\t' {
		return "", false
	}
	return strings.TrimLeft(rest[len("define"):], " \t"), true
}

// lineStartName reports whether the value at i follows a key name that begins its line
// (after indentation, a list dash, export or set), as in a config file.
func lineStartName(s string, i int) bool {
	head := lineHead(s, i)
	for _, p := range []string{"export ", "set ", "setx ", "ENV ", "$env:"} {
		head = strings.TrimPrefix(head, p)
	}
	// head is now `name<op>` with blanks: the name must be one word.
	// A shell assignment (NAME=value command …) has no blank before its =; an INI line
	// (name = value) does, a YAML line uses :.
	k := 0
	for k < len(head) && (isNameByte(head[k]) || head[k] == '[' || head[k] == ']') {
		k++
	}
	rest := strings.TrimRight(head[k:], " \t")
	switch strings.TrimLeft(rest, " \t") {
	case ":", ":=":
		return k > 0
	case "=":
		return k > 0 && rest != "="
	}
	return false
}

// cCommentAt returns where a C comment opens in a config line's value, after a blank or
// the comma that ends a statement (y = 0x10,/* doc */), or a C++ one after that comma
// (x = 1, ///< doc), or -1. A slash pair glued to the value (a URL's, a password's) opens
// none, and a value before a blank and // is judged with its comment (secret = s3cr3t //
// comment: a weak secret, not a placeholder).
func cCommentAt(v string) int {
	for _, c := range []string{" /*", ",/*", "\t/*", ", //", ",//"} {
		if i := strings.Index(v, c); i >= 0 {
			return i + 1
		}
	}
	return -1
}

// trimUnbalancedQuote drops one trailing quote that has no opening partner.
func trimUnbalancedQuote(v string) string {
	if n := len(v); n > 1 {
		q := v[n-1]
		if (q == '"' || q == '\'' || q == '`') && strings.Count(v, string(q)) == 1 {
			return v[:n-1]
		}
	}
	return v
}

// quotedLiteral returns the contents of the quoted string opening at i, on one line. A
// quote escaped inside it (\" in most languages, a doubled ' in SQL and PowerShell) does
// not close it: "ab\"cd" is one value. A string whose opening quote is itself escaped
// (\"x\" inside a JSON string) closes at the next quote.
func quotedLiteral(s string, i int) (int, int, bool) {
	q := s[i]
	if i > 0 && s[i-1] == '\\' {
		end := strings.IndexByte(s[i+1:], q)
		nl := strings.IndexByte(s[i+1:], '\n')
		if end <= 0 || end > 400 || (nl >= 0 && nl < end) {
			return 0, 0, false
		}
		return i + 1, i + 1 + end, true
	}
	// Up to 400 characters, or 1024 of one word (a long key in base64 or hex).
	limit := min(len(s), i+1026)
	for k := i + 1; k < limit; k++ {
		switch s[k] {
		case '\\':
			if k+1 < limit && (s[k+1] == q || s[k+1] == '\\') {
				k++
			}
		case '\n':
			return 0, 0, false
		case ' ', '\t':
			if k > i+401 {
				return 0, 0, false
			}
			limit = min(limit, i+402)
		case q:
			if k+1 < limit && s[k+1] == q && k > i+1 && q == '\'' && doubledQuote(s, k) {
				k++ // 'ab''cd': a doubled quote
				continue
			}
			if k == i+1 {
				return 0, 0, false
			}
			return i + 1, k, true
		}
	}
	return 0, 0, false
}

// doubledQuote reports a quote at k doubled to stand for itself ('it”s'), not a string's
// end followed by an empty string or another string: the pair is followed by more of the
// value, not by a blank, a separator or a closing bracket.
func doubledQuote(s string, k int) bool {
	if k+2 >= len(s) {
		return false
	}
	c := s[k+2]
	return c != ' ' && c != '\t' && c != '\n' && strings.IndexByte(",;)]}\"\\", c) < 0 && c != s[k]
}

// comparedLiteral finds `"literal" == name` left of a name: the literal compared with a
// secret-named variable is the secret.
func comparedLiteral(s string, nameStart int) (int, int, bool) {
	j := nameStart
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && (s[k-1] == '=' || s[k-1] == '!') && j-k < 3 {
		k--
	}
	if j-k < 2 {
		return 0, 0, false
	}
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == 0 || (s[k-1] != '"' && s[k-1] != '\'') {
		return 0, 0, false
	}
	q := s[k-1]
	open := strings.LastIndexByte(s[:k-1], q)
	if open < 0 || k-1-open > 400 || strings.IndexByte(s[open:k-1], '\n') >= 0 || k-1-open < 1 {
		return 0, 0, false
	}
	return open + 1, k - 1, true
}

// symlinkTarget reports whether a path of two or more segments opens at i, after one blank:
// what `ls -l` prints after a link's name and ->. A secret opens with no ./, ../ or /
// followed by segments.
func symlinkTarget(s string, i int) bool {
	if i >= len(s) || s[i] != ' ' {
		return false
	}
	i++
	j := i
	for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '-' || s[j] == '/') {
		j++
	}
	if j < len(s) && s[j] != '\n' && s[j] != '\r' && s[j] != ' ' && s[j] != '"' && s[j] != '\\' {
		return false
	}
	p := s[i:j]
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
		return false
	}
	return strings.Count(strings.TrimLeft(p, "./"), "/") >= 1
}

func skipBlanks(s string, i, limit int) int {
	for n := 0; i < len(s) && n < limit && (s[i] == ' ' || s[i] == '\t'); n++ {
		i++
	}
	return i
}

// skipEscapedQuote skips up to seven backslashes followed by a quote (a JSON-escaped
// quote); with minSlashes 0 a bare quote is skipped too.
func skipEscapedQuote(s string, i, minSlashes int) int {
	j := i
	for j < len(s) && j-i < 7 && s[j] == '\\' {
		j++
	}
	if j-i >= minSlashes && j < len(s) && (s[j] == '"' || s[j] == '\'') {
		return j + 1
	}
	return i
}

// lowerWord reports a value made of lower-case letters alone (anonymous, default, guest).
func lowerWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 'a' || v[i] > 'z' {
			return false
		}
	}
	return v != ""
}

// commentedConfigValue returns the value of a config line commented out (# password: x,
// #   api_key = x, // token: x): the comment marker and blanks, then the name opening the
// rest of the line, ": " or "=", and one word alone up to the line's end. Prose in a
// comment writes words there (# password: required, # token: see below), so the value
// must be no English word nor a name made of them (db_password), no placeholder and no
// reference ($VAR, {{ x }}, <value>).
func commentedConfigValue(s string, nameStart, nameEnd int) (int, int, bool) {
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	head := strings.TrimLeft(s[ls:nameStart], " \t")
	switch {
	case strings.HasPrefix(head, "#") && !strings.HasPrefix(head, "#!"):
		head = strings.TrimLeft(head, "#")
	case strings.HasPrefix(head, "//"):
		head = head[2:]
	default:
		return 0, 0, false
	}
	if strings.Trim(head, " \t-") != "" {
		return 0, 0, false
	}
	if parts := nameParts(s[nameStart:nameEnd]); len(parts) == 0 || !nameHasSecretWord(parts[len(parts)-1]) && !oneOfFold(parts[len(parts)-1], "key", "token", "secret", "pass") {
		return 0, 0, false // # sa-token.cookie.domain=x: a setting about a token, not one
	}
	i := nameEnd
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) || s[i] != ':' && s[i] != '=' {
		return 0, 0, false
	}
	if i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '=') {
		return 0, 0, false
	}
	vs := skipBlanks(s, i+1, 16)
	if vs == i+1 && s[i] == ':' {
		return 0, 0, false // name:value with no blank: a path or a pair, not a YAML line
	}
	ve := vs
	for ve < len(s) && s[ve] != '\n' && s[ve] != '\r' && s[ve] != ' ' && s[ve] != '\t' {
		ve++
	}
	le := strings.IndexByte(s[ve:], '\n')
	if le < 0 {
		le = len(s) - ve
	}
	if strings.TrimSpace(s[ve:ve+le]) != "" {
		return 0, 0, false // more words: a sentence
	}
	v := strings.Trim(s[vs:ve], `"'`)
	if len(v) < 4 || len(v) > 200 || placeholderValue(v) || strings.ContainsAny(v, "$%{}<>()[]*|;`\\") {
		return 0, 0, false
	}
	if strings.IndexFunc(v, func(r rune) bool { return r >= 0x80 }) >= 0 {
		return 0, 0, false
	}
	for _, p := range nameParts(v) {
		if len(p) >= 3 && isLetters(p) && !dictWord(p) || len(p) > 0 && !isLetters(p) {
			return vs, ve, true // a part no word is: ywjpgi, myzqui_te_sblzvmdo, s3cr3t7
		}
	}
	return 0, 0, false
}

// keyHex reports the key of a cipher or a service written in hex under the name key alone
// ($key, 'key' =>, "key":, Key:): 24 to 128 hex digits (AES-128, -192 and -256 keys have 32,
// 48 and 64; a service's key, 36) with digits and letters mixed. A digest has 40 (SHA-1, a
// commit), 56 or 96, or a name of its own (sha, hash, digest, checksum, etag).
func keyHex(name, v string) bool {
	if !strings.EqualFold(strings.TrimLeft(name, "$@:"), "key") {
		return false
	}
	if colonHex(v) {
		return true // '07:c2:ff:06:…': the bytes as OpenSSL prints them
	}
	switch {
	case len(v) == 40 || len(v) == 56 || len(v) == 96:
		return false // a SHA-1, SHA-224 or SHA-384 digest's length: a cache's or a map's key
	case len(v) < 24 || len(v) > 128:
		return false
	}
	return isHex(v) && hasDigitAndLetter(v) && countDigits(v) >= 4 && !placeholderValue(v)
}

// quotedPair reports a literal that is one NAME=value pair whole, the quote before the name
// and the same quote right after the value: curl -d "auth_pwd=x", -F 'db_pass=x', an
// environment list's "db_password=x". The value is a literal as much as a quoted one,
// unless it is made of English words.
func quotedPair(s string, nameStart, nameEnd, vs, ve int) bool {
	if nameStart == 0 || vs != nameEnd+1 || s[nameEnd] != '=' || ve >= len(s) || ve <= vs {
		return false
	}
	q := s[nameStart-1]
	if v := s[vs:ve]; modeWord(v, false) && modeWords(v) {
		return false // "access_token=imaginary_access_token", "secret=value": words, not one
	}
	return (q == '"' || q == '\'') && s[ve] == q && strings.IndexByte(s[vs:ve], q) < 0
}

// digestName reports a name with a part that names a digest, a nonce, an IV, a salt, a
// public key or an expected value (digestParts): bytes under it are no key.
func digestName(name string) bool {
	for _, p := range nameParts(name) {
		if digestParts[p] {
			return true
		}
	}
	return false
}

// byteListValue returns the numbers of a key written as its bytes, assigned after a name at
// s[i:]: = or :=, maybe a type ([]byte, []uint8, lorawan.AES128Key, new byte[], bytes(),
// bytearray()), a brace or a bracket, then eight or more integers (decimal or 0x) with
// commas, to the closing bracket or the text's end.
func byteListValue(s string, i int) (int, int, bool) {
	i = skipBlanks(s, i, 2)
	switch {
	case strings.HasPrefix(s[i:], ":="):
		i += 2
	case i < len(s) && s[i] == '=' && (i+1 >= len(s) || s[i+1] != '='):
		i++
	default:
		return 0, 0, false
	}
	i = skipBlanks(s, i, 2)
	if i < len(s) && s[i] == '[' {
		j := i + 1
		for j < len(s) && isDigitByte(s[j]) && j-i < 4 {
			j++
		}
		if j < len(s) && s[j] == ']' {
			i = j + 1 // []byte, [16]byte: a Go slice's or array's type
		}
	}
	for k := 0; k < 3 && i < len(s) && s[i] != '{' && s[i] != '['; k++ {
		j := i
		for j < len(s) && (isNameByte(s[j]) || s[j] == '[' && j+1 < len(s) && s[j+1] == ']' || s[j] == ']' || s[j] == '(' || s[j] == ' ') && j-i < 40 {
			if s[j] == '(' {
				j++
				break
			}
			j++
		}
		if j == i {
			return 0, 0, false
		}
		i = j
	}
	if i >= len(s) || s[i] != '{' && s[i] != '[' {
		return 0, 0, false
	}
	start, n, end := -1, 0, -1
	seen := map[string]bool{}
	run := true // 1, 2, 3, …: a counting sequence, test data
	prev := ""
	enough := func() bool { return n >= 8 && len(seen) >= 6 && !run }
	for j := i + 1; j < len(s) && j-i < 2000; {
		c := s[j]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			j++
		case isDigitByte(c):
			k := j
			if strings.HasPrefix(s[j:], "0x") || strings.HasPrefix(s[j:], "0X") {
				k += 2
			}
			for k < len(s) && (isDigitByte(s[k]) || isHexLower(s[k]) || s[k] >= 'A' && s[k] <= 'F') && k-j < 6 {
				k++
			}
			if start < 0 {
				start = j
			}
			num := s[j:k]
			if prev != "" && smallNumber(num) != smallNumber(prev)+1 {
				run = false
			}
			seen[num], prev = true, num
			n++
			end, j = k, k
		case c == '}' || c == ']':
			return start, end, enough()
		default:
			return 0, 0, false
		}
	}
	return start, end, enough()
}

// smallNumber reads a decimal or 0x number of at most four digits, or -2.
func smallNumber(v string) int {
	base := 10
	if strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X") {
		v, base = v[2:], 16
	}
	if v == "" || len(v) > 4 {
		return -2
	}
	n := 0
	for i := 0; i < len(v); i++ {
		c := v[i] | 0x20
		d := int(c - '0')
		if c >= 'a' && c <= 'f' {
			d = int(c-'a') + 10
		}
		if d < 0 || d >= base {
			return -2
		}
		n = n*base + d
	}
	return n
}

// usersListEntry reports a name inside a users list of a server's config (nats-server's
// users = [ {user: alice, password: x} ], also users: [ and users [), the list still open:
// its values are bare literals, not names of code.
func usersListEntry(s string, nameStart int) bool {
	head := s[max(0, nameStart-400):nameStart]
	i := strings.LastIndex(head, "users")
	if i < 0 || i > 0 && isWordByte(head[i-1]) {
		return false
	}
	rest := strings.TrimLeft(head[i+len("users"):], " \t")
	rest = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(rest, "="), ":"), " \t")
	return strings.HasPrefix(rest, "[") && strings.IndexByte(rest, ']') < 0 && strings.IndexByte(rest, '{') >= 0
}

// lowerWordsValue reports a value that is an English word or a name made of them
// (password, user_password): what code names, not a password.
func lowerWordsValue(v string) bool {
	v = strings.TrimRight(v, ",;}) ")
	for _, p := range nameParts(v) {
		if !isLetters(p) || len(p) >= 3 && !dictWord(p) {
			return false
		}
	}
	return true
}

// oauthGrantName reports a name for what an OAuth client trades for a token: an
// authorization code (auth_code, authorizationCode, expectedAuthCode) or a verifier
// (oauth_verifier, code_verifier, PKCE's).
func oauthGrantName(name string) bool {
	parts := nameParts(name)
	n := len(parts)
	if n < 2 {
		return false
	}
	last, prev := parts[n-1], parts[n-2]
	return last == "code" && (prev == "auth" || prev == "authorization" || prev == "authz") ||
		last == "verifier" && (prev == "oauth" || prev == "code")
}

// grantValue reports a value of an authorization code's or a verifier's shape: 8 to 512
// characters of a token's alphabet, no blank, hex with a digit and a letter or letters in
// both cases or with digits; not a placeholder nor a word.
func grantValue(v string) bool {
	if len(v) < 8 || len(v) > 512 || placeholderValue(v) || codeReference(v) || strings.Contains(v, "://") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !tokenChar(v[i]) && v[i] != '=' {
			return false
		}
	}
	if isHex(v) {
		return hasDigitAndLetter(v)
	}
	mixedCase := strings.ToLower(v) != v && strings.ToUpper(v) != v
	return (mixedCase || hasDigitAndLetter(v)) && !lowerWordsValue(v) && !wordsInCamel(v)
}

// wordsInCamel reports a camel-case name whose parts are English words (authorizationCode,
// TestCode): code, not a grant.
func wordsInCamel(v string) bool {
	parts := nameParts(v)
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if !isLetters(p) || len(p) >= 3 && !dictWord(p) {
			return false
		}
	}
	return true
}

// gibberishValue reports a value no language writes: 8 to 64 letters, digits and
// underscores, with a run of 8 or more letters fewer than one in six of which is a vowel
// (sltpbmzp_xmq, JPQKDBLMHGREET), where English words have one in three and names of code
// close to that; abbreviations are shorter runs (nginx_cfg, CTRL_SHIFT, xmlhttp, PasswdTtl).
func gibberishValue(v string) bool {
	if len(v) < 8 || len(v) > 64 || placeholderValue(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && !isDigitByte(v[i]) && v[i] != '_' {
			return false
		}
	}
	for _, p := range nameParts(v) { // camel case sets words apart too: PasswdTtl
		for i := 0; i < len(p); {
			if !isLetter(p[i]) {
				i++
				continue
			}
			j, vowels := i, 0
			for j < len(p) && isLetter(p[j]) {
				if strings.IndexByte("aeiouy", p[j]) >= 0 {
					vowels++
				}
				j++
			}
			if n := j - i; n >= 8 && vowels*6 < n && p[i:j] != strings.Repeat(p[i:i+1], n) {
				return true
			}
			i = j
		}
	}
	return false
}

// generatedListLiterals returns the literals of a list assigned after a secret's name at
// s[i:] (= [ or : [, up to the closing bracket on the lines that follow) that are generated:
// hex of 16+ digits with digits and letters, or a credential's or a random value's shape.
// A list of rules or words ('password' => ['required', 'min:8']) has none.
func generatedListLiterals(s string, i int) [][2]int {
	j := skipBlanks(s, skipEscapedQuote(s, i, 0), 2)
	switch {
	case strings.HasPrefix(s[j:], "=>"), strings.HasPrefix(s[j:], ":="):
		j += 2
	case j < len(s) && (s[j] == '=' || s[j] == ':') && !strings.HasPrefix(s[j:], "=="):
		j++
	default:
		return nil
	}
	j = skipBlanks(s, j, 2)
	if j >= len(s) || s[j] != '[' {
		return nil
	}
	var spans [][2]int
	for k := j + 1; k < len(s) && k-j < 2000; k++ {
		c := s[k]
		switch {
		case c == ']':
			return spans
		case c == '"' || c == '\'':
			e := strings.IndexByte(s[k+1:min(len(s), k+402)], c)
			if e < 0 {
				return spans
			}
			v := s[k+1 : k+1+e]
			if isHex(v) && len(v) >= 16 && hasDigitAndLetter(v) || credentialValue(v) || randomValue(v) {
				spans = append(spans, [2]int{k + 1, k + 1 + e})
			}
			k += e + 1
		case c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			return nil // a call, a variable, a number: not a list of literals
		}
	}
	return spans
}

// colonHex reports 16 or more bytes written in hex with colons between them, as OpenSSL
// and key tools print a key (07:c2:ff:06:…), digits and letters mixed.
func colonHex(v string) bool {
	parts := strings.Split(v, ":")
	if len(parts) < 16 || !hasDigitAndLetter(v) {
		return false
	}
	for _, p := range parts {
		if len(p) == 0 || len(p) > 2 || !isHex(p) {
			return false
		}
	}
	return true
}

// valueMember returns the quoted literal of the value member that opens a map assigned at
// s[vs:] ({ value: '…', expires: 3600 }, {"value" => "…"}, { value = "…" }): Rails' cookie
// jar and option maps keep what a name holds there.
func valueMember(s string, vs int) (int, int, bool) {
	if vs >= len(s) || s[vs] != '{' {
		return 0, 0, false
	}
	i := skipBlanks(s, vs+1, 4)
	q := byte(0)
	if i < len(s) && (s[i] == '"' || s[i] == '\'' || s[i] == ':') {
		q = s[i]
		i++
	}
	if !strings.HasPrefix(s[i:], "value") {
		return 0, 0, false
	}
	i += len("value")
	if q == '"' || q == '\'' {
		if i >= len(s) || s[i] != q {
			return 0, 0, false
		}
		i++
	}
	i = skipBlanks(s, i, 2)
	switch {
	case strings.HasPrefix(s[i:], "=>"):
		i += 2
	case i < len(s) && (s[i] == ':' || s[i] == '='):
		i++
	default:
		return 0, 0, false
	}
	i = skipBlanks(s, i, 2)
	if i >= len(s) || s[i] != '"' && s[i] != '\'' {
		return 0, 0, false
	}
	return quotedLiteral(s, i)
}

// camelGibberish reports 10 to 64 letters and digits in both cases with a digit, cut by
// its capitals into three or more parts none of which is an English word (NtlRziLaoky78):
// a generated value, where a name of code is words (myApiKey2024, HmacSha256Key).
func camelGibberish(v string) bool {
	if len(v) < 10 || len(v) > 64 || !allLettersDigits(v) || !hasDigitAndLetter(v) || strings.ToLower(v) == v || strings.ToUpper(v) == v || placeholderValue(v) {
		return false
	}
	parts := nameParts(v)
	if len(parts) < 3 {
		return false
	}
	for _, p := range parts {
		w := strings.TrimRight(p, "0123456789")
		if len(w) >= 3 && dictWord(w) || len(w) == 0 {
			return false
		}
		if len(w) < 3 && !isLetters(w) {
			return false
		}
	}
	return true
}

// accountLabelBefore reports a password's label that follows an account's on its line, as
// notes write a login (User: app / Password: x, Login:admin, Password:x): a colon after
// the password's name and an account's label (user, username, login, account) before it.
func accountLabelBefore(s string, nameStart, nameEnd int) bool {
	if nameEnd >= len(s) || s[nameEnd] != ':' {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	head := strings.ToLower(s[max(ls, nameStart-200):nameStart])
	for _, l := range []string{"user:", "username:", "login:", "account:", "user name:", "user :"} {
		if i := strings.LastIndex(head, l); i >= 0 && (i == 0 || !isWordByte(head[i-1])) {
			rest := strings.TrimSpace(head[i+len(l):])
			return rest != "" && strings.IndexAny(rest, "=(){}") < 0
		}
	}
	return false
}

// queryKeyValue returns the value of a URL's query parameter whose name, one word of
// letters, ends in key (?akey=, &idkey=, &amp;skey=) when it is generated: 16 or more hex
// digits with three digits among them, a UUID, or a random run. A link that carries a key
// lets whoever holds it in, whatever the key is called.
func queryKeyValue(s string, nameStart, nameEnd int, name string) (int, int, bool) {
	if nameStart == 0 || nameEnd >= len(s) || s[nameEnd] != '=' || len(name) > 12 || !isLetters(name) || !strings.HasSuffix(strings.ToLower(name), "key") || keyWords[strings.ToLower(name)] {
		return 0, 0, false
	}
	if c := s[nameStart-1]; c != '?' && c != '&' && !strings.HasSuffix(s[:nameStart], "&amp;") {
		return 0, 0, false
	}
	vs := nameEnd + 1
	ve := vs
	for ve < len(s) && ve-vs <= 256 && (tokenChar(s[ve]) || s[ve] == '%') {
		ve++
	}
	v := s[vs:ve]
	if isHex(v) && len(v) >= 16 && countDigits(v) >= 3 && hasDigitAndLetter(v) || uuidRe.MatchString(v) || randomValue(v) {
		return vs, ve, !placeholderValue(v)
	}
	return 0, 0, false
}

// envBlockLineEnd returns where the value of the NAME=value line at ls ends when the line
// stands among others of its kind (the line before or after is NAME=value too: a .env file,
// not a command that sets a variable for the program after it): at the line's end, before a
// comment (" #"), trailing blanks left out; or 0.
func envBlockLineEnd(s string, ls, ve int) int {
	le := lineEndAt(s, ve)
	if strings.ContainsAny(s[ls:le], "|;&<>$`\"'") {
		return 0
	}
	prevLine, nextLine := "", ""
	if ls > 0 {
		ps, _ := shellLine(s, ls-1)
		prevLine = s[ps : ls-1]
	}
	if le < len(s) {
		nextLine = s[le+1 : lineEndAt(s, le+1)]
	}
	if !upperAssignment(prevLine) && !upperAssignment(nextLine) {
		return 0
	}
	if c := strings.Index(s[ve:le], " #"); c >= 0 {
		le = ve + c
	}
	return ve + len(strings.TrimRight(s[ve:le], " \t\r"))
}

// upperAssignment reports a NAME=value line of a .env file: the name in capitals, digits
// and underscores, after indentation or export.
func upperAssignment(l string) bool {
	l = strings.TrimPrefix(strings.TrimLeft(l, " \t"), "export ")
	eq := strings.IndexByte(l, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		if c := l[i]; !isUpperByte(c) && !isDigitByte(c) && c != '_' {
			return false
		}
	}
	return true
}

// envValueTail returns where an unquoted value of a .env line (NAME=value at the line's
// start, the name in capitals) ends when a blank cuts it and one generated word follows
// to the line's end (SERVICE_SECRET=ab 4f9c…e21): a dotenv file's value runs to the end
// of its line, and the part after the blank is the credential's bulk; or, among other
// NAME=value lines, at the line's end whatever follows (envBlockLineEnd). Otherwise ve.
// restOfLineEnd is where the line holding i ends, trailing blanks left out.
func restOfLineEnd(s string, i int) int {
	return i + len(strings.TrimRight(s[i:lineEndAt(s, i)], " \t\r"))
}

// quotedArgumentTail carries a value whose NAME=value is one quoted argument on to the
// argument's closing quote (-e "DB_PASSWORD=Zx8k q2pL", -var 'db_password=Zx8k q2pL'): the
// quotes hold the value's blanks.
func quotedArgumentTail(s string, nameStart, vs, ve int) int {
	if nameStart == 0 || vs == 0 || s[vs-1] != '=' || ve >= len(s) || s[ve] != ' ' && s[ve] != '\t' {
		return ve
	}
	q := s[nameStart-1]
	if q != '"' && q != '\'' || nameStart >= 2 && s[nameStart-2] != ' ' && s[nameStart-2] != '=' && s[nameStart-2] != '\t' {
		return ve
	}
	for j := ve; j < len(s) && j-vs < 400; j++ {
		switch s[j] {
		case q:
			for _, w := range strings.Fields(s[ve:j]) {
				if functionWords[strings.ToLower(w)] {
					return ve // "PASSWORD=x is set": a message, the value its first word
				}
			}
			return j
		case '\n':
			return ve
		}
	}
	return ve
}

func envValueTail(s string, nameStart int, name string, vs, ve int) int {
	if ve < len(s) && (s[ve] == ' ' || s[ve] == '\t') && vs > 0 && s[vs-1] == '=' && strings.Contains(name, ".") {
		// db.password=Zx8k q2pL: a Java properties line, its value the rest of the line
		// (a shell variable's name has no dot).
		if ls := strings.LastIndexByte(s[:nameStart], '\n') + 1; strings.TrimLeft(s[ls:nameStart], " \t") == "" {
			return restOfLineEnd(s, ve)
		}
	}
	if ve >= len(s) || s[ve] != ' ' && s[ve] != '\t' || vs == 0 || s[vs-1] != '=' || name != strings.ToUpper(name) {
		return ve
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	if head := strings.TrimLeft(s[ls:nameStart], " \t"); strings.EqualFold(head, "set ") {
		return restOfLineEnd(s, ve) // set API_TOKEN=Zx8k q2pL: cmd.exe's set takes the rest of the line
	} else if head != "" && head != "export " {
		return ve
	}
	if le := envBlockLineEnd(s, ls, ve); le > ve {
		return le // DB_PASSWORD=correct horse battery staple among other NAME=value lines: a .env file's whole value
	}
	ts := skipBlanks(s, ve, 4)
	te := ts
	for te < len(s) && s[te] != ' ' && s[te] != '\t' && s[te] != '\n' && s[te] != '\r' {
		te++
	}
	if ts == te || skipBlanks(s, te, 8) < len(s) && s[skipBlanks(s, te, 8)] != '\n' && s[skipBlanks(s, te, 8)] != '\r' {
		return ve // more words: a sentence or a command's arguments
	}
	if t := s[ts:te]; randomValue(t) || isHex(t) && len(t) >= 16 && countDigits(t) >= 3 && hasDigitAndLetter(t) || len(t) >= 16 && credentialValue(t) {
		return te
	}
	return ve
}

// typedDeclaration reports a type and a variable's name in the head of Java's enhanced for
// (for (Saml2X509Credential x509Credential : this.credentials)), a type in Pascal case and the
// variable it declares, assigned next (X509ClientCertificateAuthenticationProvider
// x509ClientCertificateAuthenticationProvider = new …), or a Go struct's field, its type and
// its tag (Password *AdminIdentityImportCredentialsPassword `json:"password"`): a
// declaration, no value.
func typedDeclaration(chunk string, nameStart, ve int) bool {
	rest := strings.TrimLeft(chunk[ve:], " \t")
	if strings.HasPrefix(rest, "`") && goStructTag.MatchString(rest) {
		return true
	}
	if name := chunk[nameStart:min(len(chunk), nameStart+80)]; len(name) > 0 && isUpperByte(name[0]) && ve < len(chunk) {
		if sp := strings.IndexByte(name, ' '); sp > 1 && strings.ToUpper(name[:sp]) != name[:sp] && typeNameChars(name[:sp]) && strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") {
			return true
		}
	}
	head := strings.TrimRight(chunk[max(0, nameStart-16):nameStart], " \t")
	head = strings.TrimSuffix(strings.TrimSuffix(head, "final"), " ")
	if !strings.HasSuffix(head, "for (") && !strings.HasSuffix(head, "for(") {
		return false
	}
	return strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "::")
}

// commentProseBefore reports a name that ends a comment's sentence ("crypto/md5" //nolint:all
// // System compatibility for imported passwords): three words or more between the comment's
// mark and the name on its line, prose about the next line, not a label over its value.
func commentProseBefore(chunk string, nameStart int) bool {
	line := chunk[strings.LastIndexByte(chunk[:nameStart], '\n')+1 : nameStart]
	c := strings.LastIndex(line, "// ")
	if h := strings.LastIndex(line, "# "); h > c {
		c = h
	}
	if c < 0 {
		return false
	}
	words := 0
	for _, w := range strings.Fields(line[c+2:]) {
		if isLetters(w) {
			words++
		}
	}
	return words >= 3
}

// goStructTag matches a Go struct field's tag (`json:"password"`, `yaml:"token,omitempty"`).
var goStructTag = regexp.MustCompile("^`[a-z][a-z0-9_]*:\"")

// mvcRouteCalls open ASP.NET MVC's calls that take an action's and a controller's names.
var mvcRouteCalls = []string{"RedirectToAction(\"", "Url.Action(\"", "ActionLink(\"", "RedirectToRoute(\"", "RedirectToPage(\"", "RedirectToActionPermanent(\""}

// mvcRouteCall reports a name inside the first literal of such a call.
func mvcRouteCall(chunk string, nameStart int) bool {
	head := chunk[max(0, nameStart-40):nameStart]
	q := strings.LastIndexByte(head, '"')
	if q < 0 {
		return false
	}
	for _, c := range mvcRouteCalls {
		if strings.HasSuffix(head[:q+1], c) {
			return true
		}
	}
	return false
}

// phraseListPair reports a name that ends a quoted phrase of three words or more, the next
// literal in the list a phrase of lower-case words ("GitHub App private key", "installation
// tokens"): a list of things named, not a key and its value.
func phraseListPair(chunk string, nameStart, nameEnd, vs, ve int) bool {
	if nameEnd >= len(chunk) || chunk[nameEnd] != '"' && chunk[nameEnd] != '\'' || vs-1 <= nameEnd || vs > len(chunk) || chunk[vs-1] != chunk[nameEnd] {
		return false
	}
	if strings.TrimSpace(chunk[nameEnd+1:vs-1]) != "," {
		return false
	}
	open := strings.LastIndexByte(chunk[:nameStart], chunk[nameEnd])
	if open < 0 || strings.IndexByte(chunk[open:nameStart], '\n') >= 0 {
		return false
	}
	if key := chunk[open+1 : nameEnd]; strings.Count(key, " ") >= 1 && upperCaseWords(key) && upperCaseWords(chunk[vs:ve]) {
		return true // []string{"CLIENT ID", "CLIENT SECRET", "GRANT TYPES"}: a table's column headers
	}
	return len(strings.Fields(chunk[open+1:nameEnd])) >= 3 && lowerCaseWords(chunk[vs:ve])
}

// upperCaseWords reports one word or more of capital letters, set apart by single blanks.
func upperCaseWords(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] == ' ') {
			return false
		}
	}
	return true
}

// lowerCaseWords reports two words or more, each of lower-case letters alone.
func lowerCaseWords(s string) bool {
	words := strings.Fields(s)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if !isLetters(w) || strings.ToLower(w) != w {
			return false
		}
	}
	return true
}

// numericSlice reports a slice's bounds of digits around one colon (:4, 1:, 2:10): a part of
// a string taken by position, in Go or Python.
func numericSlice(b string) bool {
	lo, hi, ok := strings.Cut(strings.TrimSpace(b), ":")
	return ok && (lo != "" || hi != "") && (lo == "" || isDigits(lo)) && (hi == "" || isDigits(hi))
}

// insideLiteral reports a position inside a double-quoted literal of its line: an odd number
// of unescaped double quotes before it (at most 512 bytes back).
func insideLiteral(s string, i int) bool {
	ls := max(0, i-512)
	ls += strings.LastIndexByte(s[ls:i], '\n') + 1
	n := 0
	for j := ls; j < i; j++ {
		if s[j] == '"' && (j == 0 || s[j-1] != '\\') {
			n++
		}
	}
	return n%2 == 1
}
