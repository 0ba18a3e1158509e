package vibe

import (
	"regexp"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"strings"
)

// extraRule is a secret rule gitleaks lacks. Group is the capture group holding the secret
// (0: the whole match). Keywords (lower case) gate the rule: it runs only when the lowered
// text contains one of them.
type extraRule struct {
	id       string
	re       *regexp.Regexp
	group    int
	keywords []string
	// literal, when set, is a case-sensitive substring every match contains.
	literal string
	// boundary requires the match not to start inside a word.
	boundary bool
	// multiline rules run over the whole text instead of line chunks.
	multiline bool
	// endWord requires the match not to be followed by a token character.
	endWord bool
	// notInBase64 requires the match not to follow a base64 character: a signature made of
	// base64's letters (EAAA, AIza) is found by chance inside any long enough blob.
	notInBase64 bool
	// check, when set, must accept the secret.
	check func(secret string) bool
	// anchors, when set, finds the positions a match must touch, cheaply: the expression then
	// runs only over their lines. For expressions that open with a character class, which
	// the regexp engine tries at every position.
	anchors func(chunk string) []int
	// whole masks the whole match once the group passed the checks: a webhook URL, whose
	// host and path say where its token goes.
	whole bool
	// matchCheck, when set, must accept the whole match.
	matchCheck func(match string) bool
	// extend, when set, returns where the secret ends given where the expression left it:
	// for a token whose characters the expression stops at.
	extend func(chunk string, start, end int) int
}

// extraGate finds, in one Aho-Corasick pass over a chunk and one over its lower-case form,
// which added rules may match: a rule needs its literal and one of its keywords. Checking
// each of some two hundred rules' gates one by one cost more than the rules.
type extraGate struct {
	literals, keywords *acMatcher
	byLiteral          [][]int // trie pattern → rules
	byKeyword          [][]int
	litRows, kwRows    []uint64 // automaton state → gateBits of the patterns it reports (acMatcher.stateRows)
	// Literals each match of a rule's expression holds one of (ruleRequiredLiterals), in
	// sets; the literals are patterns of the same automata, case-folded ones of keywords.
	required  [][][]reqLiteral // rule → its sets
	setMask   []reqSets        // rule → the sets it needs
	needsSets []int            // rules with sets
	foldSets  reqSets          // sets holding a case-folded literal: only an ASCII chunk's lower-case form has their positions
	noLiteral ruleSet          // rules without a literal
	noKeyword ruleSet          // rules without keywords
}

var extraGates = sync.OnceValue(func() *extraGate {
	if len(extraRules) > 64*len(ruleSet{}) {
		panic("vibe: more added rules than a ruleSet holds")
	}
	g := &extraGate{}
	index := func(pats *[]string, by *[][]int, seen map[string]int, p string, rule int) {
		k, ok := seen[p]
		if !ok {
			k = len(*pats)
			seen[p] = k
			*pats = append(*pats, p)
			*by = append(*by, nil)
		}
		(*by)[k] = append((*by)[k], rule)
	}
	var lits, kws []string
	litSeen, kwSeen := map[string]int{}, map[string]int{}
	for i, r := range extraRules {
		if r.literal != "" {
			index(&lits, &g.byLiteral, litSeen, r.literal, i)
		} else {
			g.noLiteral.add(i)
		}
		if len(r.keywords) > 0 {
			for _, k := range r.keywords {
				index(&kws, &g.byKeyword, kwSeen, k, i)
			}
		} else {
			g.noKeyword.add(i)
		}
	}
	// The required literals' sets, numbered in order, as patterns of the two automata.
	var litSets, kwSets [][]int // pattern → sets
	addSet := func(pats *[]string, by *[][]int, sets *[][]int, seen map[string]int, p string, set int) {
		k, ok := seen[p]
		if !ok {
			k = len(*pats)
			seen[p] = k
			*pats = append(*pats, p)
			*by = append(*by, nil)
		}
		for len(*sets) <= k {
			*sets = append(*sets, nil)
		}
		(*sets)[k] = append((*sets)[k], set)
	}
	g.required = make([][][]reqLiteral, len(extraRules))
	g.setMask = make([]reqSets, len(extraRules))
	nsets := 0
	for i := range extraRules {
		req := ruleRequiredLiterals(&extraRules[i])
		if nsets+len(req) > 64*len(reqSets{}) {
			break // the rules past the bits run without the sets
		}
		g.required[i] = req
		for _, set := range req {
			for _, l := range set {
				if l.fold {
					addSet(&kws, &g.byKeyword, &kwSets, kwSeen, l.s, nsets)
					g.foldSets[nsets>>6] |= 1 << (nsets & 63)
				} else {
					addSet(&lits, &g.byLiteral, &litSets, litSeen, l.s, nsets)
				}
			}
			g.setMask[i][nsets>>6] |= 1 << (nsets & 63)
			nsets++
		}
		if len(req) > 0 {
			g.needsSets = append(g.needsSets, i)
		}
	}
	g.literals = newACMatcher(lits)
	g.keywords = newACMatcher(kws)
	rows := func(by [][]int, sets [][]int) func(int, []uint64) {
		return func(p int, row []uint64) {
			bits := (*gateBits)(row)
			for _, r := range by[p] {
				bits.rules().add(r)
			}
			if p < len(sets) {
				for _, set := range sets[p] {
					bits.sets()[set>>6] |= 1 << (set & 63)
				}
			}
		}
	}
	g.litRows = g.literals.stateRows(len(gateBits{}), rows(g.byLiteral, litSets))
	g.kwRows = g.keywords.stateRows(len(gateBits{}), rows(g.byKeyword, kwSets))
	return g
})

// reqSets is a set of required-literal sets by number.
type reqSets [4]uint64

// gateBits is what one automaton state of the gates reports, a row of acMatcher.stateRows:
// the rules whose literal or keyword it found (a ruleSet), then the required-literal sets
// one of whose literals it found (a reqSets).
type gateBits [len(ruleSet{}) + len(reqSets{})]uint64

func (b *gateBits) rules() *ruleSet { return (*ruleSet)(b[:len(ruleSet{})]) }
func (b *gateBits) sets() *reqSets  { return (*reqSets)(b[len(ruleSet{}):]) }

// ruleSet is a set of added rules by index; extraRules has fewer than 64·len(ruleSet).
type ruleSet [8]uint64

func (r *ruleSet) add(i int)      { r[i>>6] |= 1 << (i & 63) }
func (r *ruleSet) has(i int) bool { return r[i>>6]&(1<<(i&63)) != 0 }
func (r *ruleSet) and(o *ruleSet) {
	for i := range r {
		r[i] &= o[i]
	}
}
func (r *ruleSet) or(o *ruleSet) {
	for i := range r {
		r[i] |= o[i]
	}
}

// active returns the rules whose gates chunk passes.
//
// lower is chunk lower-cased; ascii reports an ASCII chunk, whose lower-case form has its
// byte positions. A rule with required literals (ruleRequiredLiterals) passes only when the
// chunk holds one literal of each of its sets; in a chunk that is not ASCII a set with a
// case-folded literal counts as held.
func (g *extraGate) active(chunk, lower string, ascii bool) ruleSet {
	var lit, kw gateBits
	g.literals.union(chunk, g.litRows, lit[:])
	g.keywords.union(lower, g.kwRows, kw[:])
	// A rule passes when it needs no literal or has it, and needs no keyword or has one.
	on := *lit.rules()
	on.or(&g.noLiteral)
	kw.rules().or(&g.noKeyword)
	on.and(kw.rules())
	var held reqSets
	for k := range held {
		held[k] = lit.sets()[k] | kw.sets()[k]
		if !ascii {
			held[k] |= g.foldSets[k]
		}
	}
	for _, i := range g.needsSets {
		if !on.has(i) {
			continue
		}
		for k, m := range g.setMask[i] {
			if held[k]&m != m {
				on[i>>6] &^= 1 << (i & 63)
				break
			}
		}
	}
	return on
}

// stringBytes views s as bytes without copying; the trie only reads them.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// prefixed reports whether the rule's expression opens with a literal the regexp engine
// jumps to.
func (r *extraRule) prefixed() bool {
	p, _ := r.re.LiteralPrefix()
	return p != ""
}

// Rule ids of the rules added to gitleaks'.
const (
	ruleKeyword      = "keyword-assignment"
	ruleURLCreds     = "url-credentials"
	ruleURLQuery     = "url-query-secret"
	ruleAuthHeader   = "authorization-header"
	ruleCookie       = "cookie-header"
	ruleCLIFlag      = "cli-secret-flag"
	ruleConnString   = "connection-string"
	rulePEM          = "private-key-block"
	rulePuTTY        = "putty-private-key"
	ruleVendor       = "vendor-token"
	ruleEntropy      = "high-entropy"
	ruleSeen         = "seen-secret"
	ruleEncoded      = "encoded-secret"
	ruleDERKey       = "der-private-key"
	ruleJWK          = "json-web-key"
	ruleWebhook      = "webhook-url"
	ruleSecretHeader = "secret-header"
)

// secretValue is an assignment's value: quoted, or a run of non-space characters.
// Unquoted, a <, > or & inside the run belongs to it (generated passwords hold them); one
// that ends it is left out (x > file, x&&, x</td>).
const secretValue = "(?:\"([^\"\\n]{1,400})\"|'([^'\\n]{1,400})'|\x60([^\x60\\n]{1,400})\x60|([^\\s\"'\x60,;<>&](?:[^\\s\"'\x60,;]{0,398}[^\\s\"'\x60,;<>&])?))"

var extraRules = append([]extraRule{
	{
		// scheme://user:password@host, any scheme; the password runs to the last @ of the
		// authority (user:p@ss@host).
		id:       ruleURLCreds,
		re:       regexp.MustCompile(`://[^\s:/@"'<>]{0,100}:([^\s/"'<>]{1,200})@[^\s/@"'<>][^\s/@"'<>:]*`),
		group:    1,
		keywords: []string{"://"},
		// A local database's default, the password its account's own name
		// (postgres://postgres:postgres@localhost, root:root@127.0.0.1), is no secret.
		matchCheck: func(m string) bool {
			return !localDefaultCredentials(m) && !cvsAccessMethod(m) && !optionalUserinfo(m) && !namedPassword(m) && !namedUserinfo(m)
		},
	},
	{
		// A password written with a / in it, unencoded (postgres://bob:Zx8k/q2pL@db:5432):
		// the authority runs to the @ before a host; a port's digits before the / make it
		// a path instead (http://localhost:8080/@types/node).
		id:       ruleURLCreds,
		re:       regexp.MustCompile(`://[^\s:/@"'<>\[\]]{1,100}:([^\s/@"'<>\[\]]{1,100}/[^\s@"'<>]{1,200})@[A-Za-z0-9][A-Za-z0-9.-]*(?:[:/]|$|\s)`),
		group:    1,
		keywords: []string{"://"},
		matchCheck: func(m string) bool {
			_, p, _ := strings.Cut(m[3:], ":")
			head, _, _ := strings.Cut(p, "/")
			return !isDigits(head)
		},
	},
	{
		// scheme://token@host where the user part is itself a credential.
		id:       ruleURLCreds,
		re:       regexp.MustCompile(`://([A-Za-z0-9_.~+-]{20,200})@[^\s/@"'<>]`),
		group:    1,
		keywords: []string{"://"},
		// azureblockblob://DefaultAzureCredential@STORAGE_ACCOUNT_URL: a class that gets the
		// credential, or a secret's name standing in for it
		check: func(v string) bool {
			return !(isUpperByte(v[0]) && camelWords(v)) && !snakeSecretName(v) && !editorRemoteAuthority(v)
		},
	},
	{
		id: ruleURLQuery,
		// Any parameter whose name ends in a credential word (api_token=, app_key=,
		// webhook_secret=), an OAuth authorization code and Firebase's auth= when the value
		// is generated; not pagination or cache keys (pageToken=, sort_key=). The value ends
		// before a ) or ] (a Markdown link's, a sentence's parenthesis) and is never a
		// backquoted command (?key=`cat ~/.key`).
		re:    regexp.MustCompile(`(?i)[?&;]([\w-]{0,40}?(?:token|key|sig|signature|secret|password|passwd|pwd|credential|x-amz-signature|x-amz-credential|x-goog-signature)|code|auth|jwt)=([^&;\s"'#<>)\]\x60]{4,})`),
		group: 2,
		// A ) the value opened a ( for is the value's (Password=Zx8k(q2)pLm9 in a
		// connection string); one closing a Markdown link or a sentence is not.
		extend:     openedParenEnd,
		keywords:   []string{"token=", "key=", "sig=", "signature=", "secret=", "password=", "passwd=", "pwd=", "credential=", "x-amz-", "x-goog-", "code=", "auth=", "jwt="},
		anchors:    queryAnchors,
		matchCheck: queryCredential,
	},
	{
		// A password parameter's value runs on through a # a log printed unescaped
		// (login.do?userName=x&userPassword=K#2asdfu!23%%x): a fragment after a password is
		// rarer than a password with a # in it.
		id:         ruleURLQuery,
		re:         regexp.MustCompile(`(?i)[?&;]([\w-]{0,40}?(?:password|passwd|pwd))=([^&;\s"'#<>)\]\x60]{0,200}#[^&;\s"'<>)\]\x60]{1,200})`),
		group:      2,
		keywords:   []string{"password=", "passwd=", "pwd="},
		anchors:    queryAnchors,
		matchCheck: queryCredential,
	},
	{
		// A form body that opens with the OAuth code ('code=…&grant_type=authorization_code',
		// curl -d "code=…&client_id=…"): the quote opens what a query's ? would.
		id:      ruleURLQuery,
		re:      regexp.MustCompile(`["']code=([0-9A-Za-z._~/+%-]{12,512})&`),
		group:   1,
		literal: "code=",
		check:   func(v string) bool { return hasDigitAndLetter(v) && !placeholderValue(v) },
	},
	{
		id: ruleAuthHeader,
		// A quoted value is the value whole, to its closing quote (authorization: "Xk,4;…").
		re:       regexp.MustCompile(`(?i)authorization["']?\s{0,3}[:=]\s{0,3}(?:"(?:` + authSchemeWords + `\s+)?([^"\s]{6,400})"|'(?:` + authSchemeWords + `\s+)?([^'\s]{6,400})'|["'\x60]?(?:` + authSchemeWords + `\s+)?([^\s"'\x60,;]{6,}))`),
		keywords: []string{"authorization"},
		// The scheme alone is no credential (Authorization: Bearer {{ token }}: the
		// expression backtracks to the scheme when what follows is too short to match).
		check: func(v string) bool {
			return !authSchemes[strings.ToLower(v)] && !(codeReference(v) && countDigits(v) == 0) && !strings.ContainsAny(v, " \t") &&
				hasAlnum(v) && // <!-- ===== METHOD INVOCATION AUTHORIZATION ===== -->: a banner's rule
				!apacheVariable(v) && // [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]
				!(v[0] == '/' && pathValue(v)) && // deviceAuthorization: "/user_management/authorize/device": an endpoint's path
				!relativeFilePath(v) && !docPagePath(v) && // mkdocs' nav: - Authorization: run/authorization.md
				v[0] != ':' && // headers::{authorization::Bearer, …}: a Rust path
				!strings.Contains(v, `\s`) && !strings.Contains(v, "[^") && // /(authorization=Bearer\s+)[^&\s]+/gi: a regular expression
				!memberPathOfWords(v) && // proxyAuthorization = response.code == 407
				!(strings.HasSuffix(v, "=") && isLetters(v[:len(v)-1])) && // Digest username="…", realm=…: a parameter's name
				!(v[0] == '!' && identifierWords(v[1:])) && // authorization: !vault |: a YAML tag
				!authorizationCode(v) && // enable_rbac_authorization: Optional[bool] = None
				!closedReference(v) && // headers: {'Authorization': authn}
				!(strings.IndexByte(v, '(') > 0 && callLike.MatchString(v)) && // headers.authorization = withAuthorizationPrefix(token)
				!(strings.IndexByte(v, '_') > 0 && isLetters(strings.ReplaceAll(v, "_", "")) && strings.ToLower(v) == v) && // type RequestExtendedAuthorization = 'if_available'
				!(strings.IndexByte(v, '-') > 0 && isLetters(strings.ReplaceAll(v, "-", "")) && strings.ToLower(v) == v) && // 'Bearer host-only-credential': words a test or a page writes
				!numberedSecretWord(v) && // 'Bearer token123': a stand-in
				!(strings.IndexByte(v, '_') > 0 && isLetters(strings.ReplaceAll(v, "_", "")) && strings.ToUpper(v) == v) && // 'Authorization': API_TOKEN: a constant
				// exports.startAuthorization = startAuthorization: a function named for an
				// authorization, in camel case of words; a credential repeats no header name.
				!(camelWords(v) && strings.Contains(strings.ToLower(v), "authorization")) &&
				!securitySchemeName(v) && // # Configure Bearer authorization: apiKeyAuth (a generated client's README)
				!tsPrimitiveTypes[v] && // request_extended_authorization: boolean | null;
				!pyGenericOpen(v) && // authorization: Union[str, object] = values.unset: a parameter's type
				!(v[0] == '&' && len(v) > 2 && isLetter(v[1]) && strings.HasSuffix(v, "{") && strings.IndexByte(v, '.') > 0 && qualifiedName(strings.TrimSuffix(v[1:], "{"))) // Authorization: &lokiv1.AuthorizationSpec{: a Go composite literal
		},
	},
	{
		// The header set by a call, its name and its value two literals: .set('Authorization',
		// 'Basic …'), Header.Set("Authorization", "Bearer …"), setRequestHeader(…).
		id:       ruleAuthHeader,
		re:       regexp.MustCompile(`(?i)authorization["']\s{0,3},\s{0,3}(?:"(?:` + authSchemeWords + `\s+)?([^"\s]{6,400})"|'(?:` + authSchemeWords + `\s+)?([^'\s]{6,400})'|\x60(?:` + authSchemeWords + `\s+)?([^\x60\s$]{6,400})\x60)`),
		keywords: []string{"authorization"},
		check: func(v string) bool {
			// Not the next name of a list of headers ("Authorization", "Www-Authenticate",
			// "x-amz-content-sha256"): words are no credential unless they look generated.
			return !authSchemes[strings.ToLower(v)] && !(codeReference(v) && countDigits(v) == 0) && !authorizationCode(v) && !placeholderValue(v) &&
				(!identifierWords(v) || randomValue(v)) && !extensionHeaderName(v)
		},
	},
	{
		id:       ruleCookie,
		re:       regexp.MustCompile(`(?i)cookie["']?[ \t]{0,3}:[ \t]{0,3}["']?([^\n"'\x60=\s][^\n"'\x60]{0,400}=[^\n"'\x60]{4,})`),
		group:    1,
		keywords: []string{"cookie"},
		boundary: true,
		check:    cookieCredential,
	},
	{
		// curl's cookie flag (-b, --cookie) with name=value pairs, quoted or one bare pair:
		// the cookies a request sends, as a Cookie header would.
		id:       ruleCookie,
		re:       regexp.MustCompile(`\bcurl\b[^\n]*?[ \t](?:-b|--cookie)[ \t=]+(?:"([^\n"=;][^\n"]{0,400}=[^\n"]{4,})"|'([^\n'=;][^\n']{0,400}=[^\n']{4,})'|([^\s"'\x60=;@][^\s"'\x60;]{0,64}=[^\s"'\x60]{4,}))`),
		keywords: []string{"curl"},
		check:    cookieCredential,
	},
	{
		id:         ruleCLIFlag,
		keywords:   []string{"pass", "token", "secret", "key", "cred", "pw", "psw"},
		re:         regexp.MustCompile(`--?(?i:(?:(?:[a-z][a-z0-9]{0,30}[-_]){0,3}(?:password|passwd|passphrase|pass|passin|passout|pwd|pswd|pw|token|oauth2-bearer|secret|api-?key|access-?key|auth-?key|(?:private|signing|encryption|master)-?key|credentials?|requirepass)|(?:[a-z][a-z0-9]{0,30}[-_]){0,2}[a-z][a-z0-9]{0,30}(?:password|passwd|passphrase|secret))(?:[-_][\w-]{0,20})?)(?:=|\s+|\\?["'],\s*\\?(?:["']))` + secretValue),
		boundary:   true,
		matchCheck: noSecretFlag,
		anchors:    secretFlagAnchors,
	},
	{
		// -p RANDOM after any command (app -p "Xk4mR9qLw2"): -p is a port, a path, a profile
		// or a project as often as a password, so only a value none of those is: 8 to 64
		// characters with an upper-case letter, a lower-case one and a digit, and none of
		// / . : @ = , (a path, a host, a port mapping, a list).
		id:       ruleCLIFlag,
		re:       regexp.MustCompile(`(?:^|[ \t])-p[ \t]?(?:"([^"\s/.:@=,]{8,64})"|'([^'\s/.:@=,]{8,64})'|([^\s"'/.:@=,;|&()<>-][^\s"'/.:@=,;|&()<>]{7,63}))(?:[ \t;|&)]|$)`),
		keywords: []string{"-p"},
		anchors:  wordAnchors(" -p", "\t-p"),
		check:    randomPassword,
	},
	{
		// mysql -uroot -pSECRET (the password is glued to -p).
		id: ruleCLIFlag,
		// A quoted password may hold blanks: -p'Zx8k q2pL'.
		re:       regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlsh|mysqlimport|mysqlcheck)\b[^\n|;&]{0,200}?\s-p('[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s'"-][^\s]{0,200})`),
		group:    1,
		keywords: []string{"mysql", "mariadb"},
	},
	{
		id:       ruleCLIFlag,
		re:       regexp.MustCompile(`\b(?:sshpass\s+-p|redis-cli\b[^\n|;&]{0,200}?\s-a)\s*('[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s]{1,200})`),
		group:    1,
		keywords: []string{"sshpass", "redis-cli"},
	},
	{
		id:       ruleCLIFlag,
		re:       regexp.MustCompile(`-(?:u|U|-user|-proxy-user)[ =]['"]?([A-Za-z0-9_.@-][^\s:'"%$]{0,99}):([^\s"'@\x60]{1,200})`),
		group:    2,
		keywords: []string{"-u", "--user", "--proxy-user"},
		boundary: true,
		// docker run -u 1000:1000, redis-cli -u redis://…, wslpath -u 'C:\\Program Files' (a drive),
		// perldoc -u Some::Module (a package's
		// path, its parts joined by ::, not a user and a password)
		// user:passwd, user:password in a usage line: the words for what goes there.
		check: func(v string) bool {
			return !isDigits(v) && !strings.HasPrefix(v, "//") && !strings.HasPrefix(v, ":") && !strings.HasPrefix(v, `\`) && !passwordWord(strings.Trim(v, "[]<>"))
		},
	},
	{
		// A header named for a credential, its value whatever the token's alphabet:
		// X-Bombbomb-Token: 0,1400,4190,171, X-Api-Key: …, Private-Token: …, X-Auth-Token: ….
		id:       ruleSecretHeader,
		re:       regexp.MustCompile(`(?i)(?:^|[^\w-])((?:[a-z0-9]+-)+(?:[a-z0-9]*(?:token|key|secret|auth|password|passwd|passcode|signature|crumb))|apikey)["']?[ \t]{0,2}:[ \t]{0,3}([^\s"'\x60<>]{6,400})`),
		group:    2,
		keywords: []string{"token", "key", "secret", "auth", "passw", "passcode", "signature", "crumb"},
		anchors:  headerAnchors,
		check: func(v string) bool {
			// sa-token: # any name: a YAML key whose value is left empty, a comment after it
			// (sso-oauth:CreateTokenWithIAM: a service's operation, its name in words)
			return v[0] != '#' && headerCredential(v) && !codeArgumentReference(v) && !jsExpression(strings.TrimRight(v, ",;")) &&
				!colonWords(strings.TrimRight(v, "\",;'")) && // "better-auth:scim-demo:oidc-subject:v2": a namespaced name
				!hyphenedWords(strings.TrimRight(v, "\"),;'")) && // Symbol.for("better-auth:broadcast-channel"): a channel's name
				!kebabStandIn(strings.TrimRight(v, "\"),;'")) && // apiKey: test-api-key-1: a test's stand-in
				!strings.HasSuffix(strings.TrimRight(v, "\"'"), ":") && // ':completion::complete:salt-key:set-option-a-1:': a context's parts
				!optionalChain(strings.TrimRight(v, ",;")) && // apiKey: handler?.getApiKey(settings): code
				!oauthClientAuthMethods[strings.ReplaceAll(strings.Trim(v, "\"',"), "-", "_")] && // client-auth:client-secret-basic
				!secretVersionTail.MatchString(v) && // --set-secrets=DB_PASSWORD=db-password:latest,…: a secret's name and version
				!(isUpperByte(v[0]) && camelWords(strings.TrimRight(v, "\",;'.`")))
		},
		// https://x-access-token:…@host: a URL's user, the URL rule's; com.j256.two-factor-auth:
		// two-factor-auth:1.3, a package's coordinate after its group's dot.
		matchCheck: func(m string) bool { return m[0] != '/' && m[0] != '.' && !headerStandIn(m) && !colonRecordWithPath(m) },
	},
	{
		// Password=...; AccountKey=...; in connection strings.
		id: ruleConnString,
		// A value in braces may hold ; (ADO.NET: Password={a;b}).
		// Not a variable ($password = …: code, the keyword rule's).
		// (The word after the value, when there is one, tells a sentence: PWD=dir to the
		// environment; a ? after it, a conditional: password = prompt ? getpass(prompt) : NULL.)
		re:       regexp.MustCompile(`(?i)(?:^|[^$])\b(?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature|access_key|secretkey|client_secret)\s{0,2}=\s{0,2}(\{[^}\n]{1,400}\}|[^;"'\s=>][^;"'\s]{0,400})(?:[ \t](?:[a-z]{1,8}(?:[ \t.,]|$)|\?[ \t]))?`),
		group:    1,
		keywords: []string{"password", "pwd", "accountkey", "sharedaccess", "access_key", "secretkey", "client_secret"},
		// Not a call (password = get_password()), what opens an expression (password = (…)
		// nor a member or an index (password = os.environ["DB_PASSWORD"], cfg.Password).
		check: func(v string) bool {
			if amp := strings.IndexByte(v, '&'); amp > 0 {
				v = v[:amp] // ?user=app&password=xxx&ssl=true: the query's next parameter
			}
			bare := strings.TrimRight(v, ",):;") // password=password), pwd=None,, pwd=None):
			if b := strings.ToLower(strings.Trim(bare, "`'\"")); b == "false" || b == "true" {
				return false // `--ask-password=false`: a switch's value
			}
			return len(v) >= 3 && v != "@" && !callLike.MatchString(v) && v != "(" && v != "[" && v != "{" && !(v[0] == '(' && isLetters(v[1:])) && !castValue(v) && !regexTail(strings.TrimRight(v, "'\"")) && !rustType.MatchString(v) && !placeholderValue(bare) && !secretNamedConstant(bare) && !codeReference(v) && !codeArgumentReference(v) && !pathValue(v) &&
				!(codeLike.MatchString(v) && strings.ContainsAny(v, ".[") && !randomSegment(v)) && !(v[0] == '/' && identifierWords(v[1:])) &&
				!(strings.HasPrefix(v, "::") && len(v) > 2 && isUpperByte(v[2])) && // ::BCrypt::Engine.hash_secret(…): a Ruby constant's path
				!(v[0] == '(' && snakeIdentifier(strings.TrimRight(v[1:], ")"))) // def password=(new_password): a Ruby setter's parameter
		},
		matchCheck: func(m string) bool { return connectionStringCode(m) && !fieldCopy(m) },
	},
	{
		// PEM private keys, also cut short (no END line).
		id:        rulePEM,
		re:        regexp.MustCompile(`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9_-]{0,100}-----|[\s\S]*)`),
		keywords:  []string{"-----begin"},
		multiline: true,
		// Not the header alone inside a literal, a pattern or prefix code looks for.
		matchCheck: func(m string) bool { return !pemHeaderAlone(m) && !pemPlaceholderBody(m) },
	},
	{
		// An SSH2 (RFC 4716, ssh.com, Tectia) private key, its headers and body.
		id:        rulePEM,
		re:        regexp.MustCompile(`---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----(?:[\s\S]*?---- END SSH2 (?:ENCRYPTED )?PRIVATE KEY ----|[\s\S]*)`),
		keywords:  []string{"---- begin ssh2"},
		multiline: true,
	},
	{
		// A PuTTY key file's private part: the base64 lines Private-Lines counts and the MAC
		// after them (the public lines above are the public key).
		id:        rulePuTTY,
		re:        regexp.MustCompile(`Private-Lines:[ \t]*\d+[ \t]*\r?\n(?:[ \t]*[A-Za-z0-9+/]+={0,2}[ \t]*(?:\r?\n|$)){1,64}(?:[ \t]*Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]{16,})?`),
		keywords:  []string{"private-lines:"},
		multiline: true,
	},
}, slices.Concat(vendorRules(), formatExtraRules(), configRules)...)

// vendorPrefixes are token formats gitleaks lacks or that are worth a cheap second check:
// each starts with a literal prefix, so its rule only runs when the prefix is present.
var vendorPrefixes = []struct{ prefix, rest string }{
	{"sk-ant-", `(?:oat|ort|api|admin|sid)\d{0,2}-[\w-]{20,}`},
	{"sk-or-", `(?:v\d-)?[\w-]{20,}`},
	{"sk-", `(?:proj|svcacct|admin|None)-[\w-]{20,}|[A-Za-z0-9]{32,}`},
	{"gsk_", `[A-Za-z0-9]{20,}`},
	{"xai-", `[A-Za-z0-9]{20,}`},
	{"r8_", `[A-Za-z0-9]{20,}`},
	{"ya29.", `[\w-]{20,}`},
	{"hbt_", `[\w-]{20,}`},
	{"hf_", `[A-Za-z0-9]{20,}`},
	{"npm_", `[A-Za-z0-9]{30,}`},
	{"ghp_", `[A-Za-z0-9]{30,}`},
	{"gho_", `[A-Za-z0-9]{30,}`},
	{"ghu_", `[A-Za-z0-9]{30,}`},
	{"ghs_", `[A-Za-z0-9]{30,}`},
	{"ghr_", `[A-Za-z0-9]{30,}`},
	{"github_pat_", `\w{30,}`},
	{"glpat-", `[\w-]{20,}`},
	{"xox", `[abposr]-[\w-]{10,}`},
	{"AKIA", `[A-Z0-9]{16}`},
	{"ASIA", `[A-Z0-9]{16}`},
	{"AIza", `[\w-]{35}`},
	{"pk_live_", `[A-Za-z0-9]{20,}`},
	{"sk_live_", `[A-Za-z0-9]{20,}`},
	{"rk_live_", `[A-Za-z0-9]{20,}`},
	{"sk_test_", `[A-Za-z0-9]{20,}`},
	{"dop_v1_", `[a-f0-9]{64}`},
	{"SG.", `[\w-]{22}\.[\w-]{43}`},
	// Riot Games' API keys (RGAPI- and a UUID's shape) and Tailscale's keys (tskey-, the
	// kind, the key's id and its secret).
	{"RGAPI-", `[0-9A-Za-z]{8}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{12}`},
	{"tskey-", `(?:api|auth|client|secret|scim|webhook)-[A-Za-z0-9]{4,}-[A-Za-z0-9]{4,}`},
}

// vendorBodyChecks tell a prefix's tokens from names that happen to open with it: Hugging
// Face's tokens mix letter cases at random where code's names are words
// (hf_requiredCharacteristicTypes…, hf_servingcellpriority…), and Slack's carry the team's
// numeric id where a placeholder names the token (xoxb-Slack_BOT_TOKEN, xoxb-abcdef-abcdef).
var vendorBodyChecks = map[string]func(string) bool{
	"hf_": func(v string) bool {
		body := v[len("hf_"):]
		return strings.ToLower(body) != body && strings.ToUpper(body) != body && !camelWords(body)
	},
	"xox": func(v string) bool { return strings.ContainsAny(v, "0123456789") },
}

func vendorRules() []extraRule {
	rules := make([]extraRule, 0, len(vendorPrefixes))
	for _, v := range vendorPrefixes {
		rules = append(rules, extraRule{
			id:      ruleVendor,
			re:      regexp.MustCompile(regexp.QuoteMeta(v.prefix) + `(?:` + v.rest + `)`),
			literal: v.prefix,
			// A token glued to the word before it is still a token; only the generic
			// sk- form is too likely to end a word (task-, disk-).
			boundary: v.prefix == "sk-",
			check:    vendorBodyChecks[v.prefix],
		})
	}
	return rules
}

// secretFlagAnchors returns the dashes that open a command-line flag whose name holds a
// secret word: the places the secret-flag expression can match.
func secretFlagAnchors(s string) []int {
	var at []int
	for from := 0; ; {
		i := strings.IndexByte(s[from:], '-')
		if i < 0 {
			return at
		}
		i += from
		from = i + 1
		if i > 0 && (s[i-1] == '-' || isWordByte(s[i-1])) {
			continue // the second dash of --, or a dash inside a word
		}
		j := i + 1
		if j < len(s) && s[j] == '-' {
			j++
		}
		k := j
		for k < len(s) && (isWordByte(s[k]) || s[k] == '-') && k-j < 64 {
			k++
		}
		if k == j {
			continue
		}
		name := strings.ToLower(s[j:k])
		if containsAny(name, []string{"pass", "token", "secret", "key", "cred", "pw", "psw", "bearer"}) {
			at = append(at, i)
		}
		from = k
	}
}

// queryAnchors returns the ?, & and ; that open a query parameter whose name holds a
// secret word.
func queryAnchors(s string) []int {
	var at []int
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '?' && c != '&' && c != ';' {
			continue
		}
		k := i + 1
		for k < len(s) && (isWordByte(s[k]) || s[k] == '-') && k-i < 48 {
			k++
		}
		if k < len(s) && s[k] == '=' && containsAny(strings.ToLower(s[i+1:k]), []string{"token", "key", "sig", "secret", "pass", "pwd", "x-amz-", "x-goog-", "code", "auth", "jwt", "credential"}) {
			at = append(at, i)
		}
	}
	return at
}

// headerAnchors returns where the header names that say credential open: a run of letters,
// digits and dashes with a dash in it (or apikey) ending in a credential word, right before a
// colon.
func headerAnchors(s string) []int {
	var at []int
	for from := 0; ; {
		i := strings.IndexByte(s[from:], ':')
		if i < 0 {
			return at
		}
		i += from
		from = i + 1
		j := i
		if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
			j--
		}
		k := j
		for k > 0 && j-k < 64 && (isWordByte(s[k-1]) && s[k-1] != '_' || s[k-1] == '-') {
			k--
		}
		if j-k < 6 || j-k > 6 && strings.IndexByte(s[k:j], '-') < 0 {
			continue // neither dashed nor apikey: no allocation for every colon of a text
		}
		if name := strings.ToLower(s[k:j]); headerName(name) {
			at = append(at, k)
		}
	}
}

// headerName reports a header name that says it carries a credential: dashed, ending in
// token, key, secret, auth, password, signature or crumb (a key of a kind the key names
// allow: not Cache-Key, Sort-Key, Sec-WebSocket-Key), or apikey.
func headerName(name string) bool {
	if name == "apikey" {
		return true
	}
	if !strings.Contains(name, "-") || strings.HasPrefix(name, "sec-websocket") {
		return false
	}
	for _, w := range []string{"token", "secret", "auth", "password", "passwd", "passcode", "signature", "crumb"} {
		if strings.HasSuffix(name, w) {
			return true
		}
	}
	return strings.HasSuffix(name, "key") && keyLikeName(name)
}

// headerCredential holds a credential header's value to what a credential is: no
// placeholder or variable, and a digit in it or 16+ characters.
func headerCredential(v string) bool {
	v = strings.TrimRight(v, ",;\\")
	return !placeholderValue(v) && !strings.HasPrefix(v, "$") && hasAlnum(v) && (countDigits(v) > 0 || len(v) >= 16) && !snakeWords(v)
}

// colonWords reports lower-case names of words joined by colons, three parts or more
// (scim-demo:oidc-subject:v2): a namespaced identifier.
func colonWords(v string) bool {
	parts := strings.Split(v, ":")
	if len(parts) < 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.ToLower(p) != p || !wordParts(p, 0) || randomValue(p) {
			return false
		}
	}
	return true
}

// snakeWords reports three words or more of letters joined by underscores, all lower-case
// (also_not_scrubbed): a name or a phrase, not a generated value.
func snakeWords(v string) bool {
	parts := strings.Split(v, "_")
	if len(parts) < 3 || strings.ToLower(v) != v {
		return false
	}
	for _, p := range parts {
		if !isLetters(p) {
			return false
		}
	}
	return true
}

// queryCredential holds a query parameter named for a credential to one: not a page token
// or a key that is an identifier (sort_key, cache_key), and, for code= and auth=, a
// generated value (12+ characters with letters and digits), not ?code=200 or ?auth=true.
func queryCredential(m string) bool {
	eq := strings.IndexByte(m, '=')
	name, v := strings.ToLower(m[1:eq]), m[eq+1:]
	if comparedQueryName(v) || metaWords[strings.ToLower(v)] {
		return false // ?key=value, ;token=string: a parameter's syntax written out
	}
	if len(v) > 1 && v[0] == '{' && (isLetter(v[1]) || v[1] == '_') {
		return false // f"https://…/log?key={os.environ['API_KEY']}": a format string's field
	}
	if strings.Contains(name, "page") || strings.Contains(name, "continuation") || strings.Contains(name, "next") {
		return false
	}
	if strings.HasSuffix(name, "key") && name != "key" && !keyLikeName(name) && !nameHasSecretWord(name) {
		return false
	}
	switch name {
	case "code", "auth":
		return len(v) >= 12 && hasDigitAndLetter(v) && !placeholderValue(v)
	}
	return true
}

// wordAnchors returns an anchors function finding any of words.
func wordAnchors(words ...string) func(string) []int {
	return func(s string) []int {
		var at []int
		for _, w := range words {
			for from := 0; ; {
				i := strings.Index(s[from:], w)
				if i < 0 {
					break
				}
				at = append(at, from+i)
				from += i + len(w)
			}
		}
		slices.Sort(at)
		return at
	}
}

// namedPlaceholder reports a flag's value that names what it is for and leaves a slot for the
// key (--api-key deepseek=<key>, --set-env OPENAI_API_KEY=<your-key>).
func namedPlaceholder(v string) bool {
	name, rest, ok := strings.Cut(v, "=")
	return ok && name != "" && identifierWords(name) && strings.HasPrefix(rest, "<") && !strings.ContainsAny(rest, " \t")
}

// noSecretFlag rejects flags that name where a secret comes from rather than take one:
// --password-stdin, --token-file, --password-env, --secret-name.
func noSecretFlag(match string) bool {
	flag := strings.ToLower(match)
	if flagTakesNoSecret(match) {
		return false
	}
	if i := strings.IndexAny(match, "= \t"); i > 0 {
		rest := strings.TrimLeft(match[i:], " \t")
		if rest != "" && rest[0] == '(' || match[i] != '=' && strings.HasPrefix(rest, "=") {
			return false // -Password (ConvertTo-SecureString …): an expression; -PASSWORD = x: a diff's removed line
		}
	}
	if i := strings.IndexAny(flag, "= \t\"'"); i >= 0 {
		if w := strings.TrimSpace(flag[i:]); flagProse[w] || flagProse[strings.TrimRight(w, ".,;:")] || functionWords[w] || flagUsageType(w) || flagMetavar(w) || flagPairMetavar(strings.Trim(w, "`'\"")) {
			return false // "Using --password via the CLI is insecure": a flag named in prose
		}
		if strings.HasPrefix(flag[i:], "   ") || strings.HasPrefix(flag[i:], "\t\t") {
			return false // -W, --password            force password prompt: a help text's columns
		}
		if v := strings.Trim(match[i:], "= \t\"',"); secretNameValue(v) || buildSecretSpec(match[i:]) || secretFlagName(flag[:i], v) || optionName(v) || opensslPassSource(v) || namedPlaceholder(v) ||
			match[i] != '=' && upperSnakeName(strings.TrimRight(v, "]")) || // --api-token API_TOKEN: argparse's metavar in a usage line
			match[i] != '=' && flagSpelling(v) ||
			v == strings.ToUpper(v) && strings.EqualFold(strings.ReplaceAll(strings.TrimLeft(match[:i], "-"), "-", "_"), v) {
			// --cookie-secret=COOKIE_SECRET: the flag's own name, as a variable's
			return false // gcloud secrets versions access latest --secret=db-password, --secret id=npmrc,src=…
		}
		flag = flag[:i]
	}
	if strings.HasSuffix(flag, "htpasswd") {
		return false // --htpasswd /path/to/htpasswd: the file of users and their hashes
	}
	if etcdClusterToken(flag) {
		return false // etcd --initial-cluster-token etcd-cluster-1: the cluster's name
	}
	for _, suffix := range []string{"stdin", "file", "path", "env", "prompt", "cmd", "command", "name", "id", "url",
		"uri", "endpoint", "length", "policy", "type", "ttl", "expiry", "expires", "hint", "reset", "store",
		"validity", "units", "spec"} {
		if strings.HasSuffix(flag, "-"+suffix) || strings.HasSuffix(flag, "_"+suffix) {
			return false
		}
	}
	return true
}

// secretFlagName reports a flag that takes a secret's name, and a name in capitals with no
// value or a stand-in after it (--mount-secret=DATABASE_URL, --build-secret NAME=value): which
// secret goes in, read from the environment.
func secretFlagName(flag, v string) bool {
	if !strings.HasSuffix(flag, "secret") {
		return false
	}
	name, rest, _ := strings.Cut(v, "=")
	return upperSnakeName(name) && (rest == "" || placeholderValue(rest))
}

// openedParenEnd carries a query value that stopped at a ) its own ( accounts for on
// through it, to where the parameter ends (&, ;, a blank, a quote, #, <, >, ], a backquote, or
// a ) it did not open).
func openedParenEnd(chunk string, start, end int) int {
	depth := strings.Count(chunk[start:end], "(") - strings.Count(chunk[start:end], ")")
	j := end
	for j < len(chunk) && j-start < 400 {
		c := chunk[j]
		if c == ')' {
			if depth == 0 {
				break
			}
			depth--
		} else if c == '(' {
			depth++
		} else if strings.IndexByte("&; \t\n\r\"'#<>]`", c) >= 0 {
			break
		}
		j++
	}
	return j
}

// memberPathOfWords reports a dotted path of short names of letters (response.code,
// this.authHeader): code reading a member.
func memberPathOfWords(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 24 || !isLetters(p) {
			return false
		}
	}
	return true
}

// flagMetavar reports the word a usage line writes for an option's argument (-passin val,
// [-passin arg], --password <password>, -p PASS): what goes there, not what went.
func flagMetavar(w string) bool {
	w = strings.Trim(w, "[]<>{}")
	switch w {
	case "val", "value", "arg", "args", "argument", "string", "str", "text", "phrase", "passphrase", "pass", "passwd",
		"password", "pwd", "pw", "secret", "token", "key", "source", "src":
		return true
	}
	return false
}

// flagSpelling reports another flag where a value would be (add_argument('--api-token', '-a',
// …): the short or long spelling of the same option, a dash and letters.
func flagSpelling(v string) bool {
	w, ok := strings.CutPrefix(v, "-")
	w = strings.TrimPrefix(w, "-")
	return ok && w != "" && isLetters(strings.ReplaceAll(w, "-", "")) && len(w) <= 32
}

// opensslPassSource reports where OpenSSL's -passin and -passout read a pass phrase from
// rather than the phrase: env:NAME, file:PATH, fd:N, stdin, or pass: with the phrase quoted
// after it (pass:"${KEY_PASSWORD:-}": the quoted part is read on its own).
func opensslPassSource(v string) bool {
	switch {
	case v == "pass:" || v == "stdin":
		return true
	case strings.HasPrefix(v, "env:"):
		return envNameBytes(v[4:])
	case strings.HasPrefix(v, "fd:"):
		return isDigits(v[3:])
	case strings.HasPrefix(v, "file:"):
		return len(v) > 5
	}
	return false
}

// optionalUserinfo reports a usage line's optional user and password, in brackets and named
// by words (scheme://[user:passwd@]host, postgres://[user[:password]@]host): the syntax of
// a URL, no credentials. A generated password in brackets is still one.
func optionalUserinfo(m string) bool {
	rest, ok := strings.CutPrefix(m, "://[")
	if !ok {
		return false
	}
	info, _, _ := strings.Cut(rest, "@")
	_, pw, _ := strings.Cut(info, ":")
	return isLetters(strings.Trim(pw, "[]"))
}

// sameStemFile reports a value that is a file named as the name is, with an extension of its
// own: a Makefile rule's prerequisite (git-credential-store: git-credential-store.o,
// token-helper.exe : token-helper.c).
func sameStemFile(name, v string) bool {
	stem := func(s string) string {
		if i := strings.LastIndexByte(s, '.'); i > 0 && len(s)-i <= 5 {
			return s[:i]
		}
		return s
	}
	vs := stem(v)
	return vs != v && len(vs) >= 4 && vs == stem(name)
}

// cvsAccessMethod reports a URL whose userinfo is a CVSROOT's access method and a user
// without a password (cvs://:pserver:anoncvs@host:/cvs/src): the method's colons are no
// user and password; one more colon after the user still gives a password
// (:pserver:user:x@host).
func cvsAccessMethod(m string) bool {
	rest, ok := strings.CutPrefix(m, "://:")
	if !ok {
		return false
	}
	method, rest, ok := strings.Cut(rest, ":")
	if !ok || !oneOfFold(method, "pserver", "ext", "extssh", "gserver", "kserver", "server", "sspi", "fork", "local") {
		return false
	}
	user, _, _ := strings.Cut(rest, "@")
	return !strings.Contains(user, ":")
}

// flagProse are the words that follow a flag named in a sentence ("the -Username and
// -Password parameters", "--username and --password options").
var flagProse = map[string]bool{"via": true, "with": true, "flag": true, "option": true, "argument": true,
	"flags": true, "options": true, "arguments": true, "parameters": true, "values": true, "switch": true, "switches": true,
	"instead": true, "is": true, "to": true, "or": true, "and": true, "the": true, "when": true, "if": true,
	"in": true, "on": true, "for": true, "parameter": true, "value": true, "only": true, "must": true,
	"should": true, "will": true, "can": true, "also": true, "from": true, "as": true, "at": true, "of": true}

// placeholder matches values that stand for a secret rather than being one.
var placeholder = regexp.MustCompile(`(?i)^(?:[\w.-]{0,16}(?:xxx|\*\*\*|\.\.\.)[\w.*-]{0,16}|\$+\{?[\w.:-]*\}?|\$\([^)]*\)|%[\w]+%|<[^<>]*>|\{\{[^{}]*\}\}|\{\s*[A-Za-z_][\w.-]*\s*\}|\[[^\[\]]*\]|\*+|x+|\.+|-+|_+|#+|null|nil|none|undefined|true|false|yes|no|on|off|required|optional|string|str|bool|int|number|bytes|text|password|secret|token|your[A-Za-z_-]*[0-9]{0,3}|your [A-Za-z' -]{2,60}|changeme|change[_-]?me|changeit|example|sample|dummy|placeholder|redacted|\[redacted[^\]]*\]|todo|tbd|fixme|env|test|pass|foo|bar|baz|demo|value|os\.[\w.()"']*|process\.env[\w.]*)$`)

// authSchemeWords are the schemes an Authorization value may open with.
const authSchemeWords = `(?:bearer|basic|token|digest|negotiate|bot|apikey|api-key|sso-key|ntlm|hmac|aws4-hmac-sha256)`

var authSchemes = map[string]bool{"bearer": true, "basic": true, "token": true, "digest": true, "negotiate": true,
	"apikey": true, "api-key": true, "sso-key": true, "hmac": true}

// codeLike matches values that are program expressions, not literal secrets: calls, member
// accesses (a JavaScript class's private fields among them: this.#cache[k]), type names.
var codeLike = regexp.MustCompile(`^(?:[A-Za-z_$][\w$]*(?:\??\.#?[A-Za-z_$][\w$]*)*(?:\(.*\)?|\[.*\]?)?[;,)]*|&?[A-Za-z_][\w.]+\{(?:[^{].*)?|\(.*|[\[{(]|\w+\.\w+\(.*)$`)

// colonRecordWithPath reports a record of fields joined by colons that ends in a path
// (tmux list-windows: openai-oauth:0:codex:~/projects/app): a listing's line, not a header.
func colonRecordWithPath(m string) bool {
	c := strings.IndexByte(m, ':')
	return c > 0 && (strings.Contains(m[c:], ":~/") || strings.Contains(m[c:], ":/")) && !strings.Contains(m[c:], "://")
}

// headerStandIn reports a secret header's match whose value ends in the header's name
// (client-secret: facebook-client-secret, x-api-key: your-x-api-key): a stand-in that says
// what goes there.
func headerStandIn(m string) bool {
	c := strings.IndexByte(m, ':')
	if c < 0 {
		return false
	}
	name := strings.ToLower(strings.Trim(strings.TrimLeft(m[:c], " \t\n\"'"), "\"'"))
	if i := strings.LastIndexFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }); i >= 0 {
		name = name[i+1:]
	}
	v := strings.ToLower(strings.Trim(strings.TrimSpace(m[c+1:]), "\"',;"))
	return name != "" && len(v) > len(name) && strings.HasSuffix(v, name) && (v[len(v)-len(name)-1] == '-' || v[len(v)-len(name)-1] == '_')
}

// callLike matches a value that is a function call or its start, or a Rust macro's
// (env!("APP_SECRET"), include_str!(…)), a private method's among them (this.#read(…)).
var callLike = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:(?:\??\.#?|::)[A-Za-z_$][\w$]*)*!?\(`)

// codeReference reports a value that reads a secret from somewhere rather than holding it:
// an index or a call on a name (os.environ[, std::env::var(, process.env["X"]), a member
// of a name that says where it comes from or what it is (args.password, config.apiKey,
// secret.Authorization, random_password.db.result), or a PowerShell cmdlet (Read-Host).
func codeReference(v string) bool {
	v = strings.TrimRight(v, ";,)")
	if end := referenceHeadEnd(v); end > 0 {
		// The index or the arguments open with a quote or close at once (a value cut at
		// its quote ends at the bracket): os.environ["X"], getenv('X'), get_password().
		if c := v[end-1]; (c == '[' || c == '(') && (end == len(v) || strings.IndexByte(`"')`, v[end]) >= 0) {
			return true
		}
		if end == len(v) && strings.ContainsAny(v, ".:") && !randomSegment(v) {
			segs := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == ':' })
			if len(segs) >= 2 && (referenceRoots[strings.ToLower(segs[0])] || nameHasSecretWord(segs[len(segs)-1]) ||
				strings.Contains(strings.ToLower(segs[len(segs)-1]), "auth")) {
				return true
			}
		}
	}
	if rustPath(v) {
		return true // key: expr::MetaKey::Mark: an enum's variant, reached by its module's path
	}
	if i := strings.IndexByte(v, '-'); i > 0 && i < len(v)-1 && isUpperByte(v[0]) && isUpperByte(v[i+1]) && identifierWords(v) && !strings.ContainsAny(v, "_.:") &&
		powershellVerbs[v[:i]] {
		return true
	}
	return false
}

// rustPath reports a path of Rust or C++ (expr::MetaKey::Mark, std::env::Var): identifiers
// joined by ::, one of them a type's name in camel case, each holding one run of digits at
// most (MetaKey::L4proto, Sha256Digest).
func rustPath(v string) bool {
	segs := strings.Split(v, "::")
	if len(segs) < 2 {
		return false
	}
	typed := false
	for _, seg := range segs {
		if !pyIdentifier(seg) || randomValue(seg) || digitRuns(seg) > 1 {
			return false // digits spread through a segment (Zx8kq2pLm9): generated, no name of code
		}
		typed = typed || isUpperByte(seg[0]) && strings.ToUpper(seg) != seg
	}
	return typed
}

// digitRuns counts the runs of digits in s.
func digitRuns(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) && (i == 0 || !isDigitByte(s[i-1])) {
			n++
		}
	}
	return n
}

// referenceHeadEnd returns the end of the member path opening v (os.environ, std::env::var,
// a?.b) and of the [ or ( right after it, or 0 when v opens with no identifier.
func referenceHeadEnd(v string) int {
	ident := func(i int) int {
		if i >= len(v) || !(isLetter(v[i]) || v[i] == '_' || v[i] == '$') {
			return -1
		}
		for i < len(v) && (isWordByte(v[i]) || v[i] == '$') {
			i++
		}
		return i
	}
	i := ident(0)
	if i < 0 {
		return 0
	}
	for {
		j := i
		switch {
		case strings.HasPrefix(v[j:], "?."):
			j += 2
		case strings.HasPrefix(v[j:], "."):
			j++
		case strings.HasPrefix(v[j:], "::"):
			j += 2
		default:
			if i < len(v) && (v[i] == '[' || v[i] == '(') {
				return i + 1
			}
			return i
		}
		k := ident(j)
		if k < 0 {
			return i
		}
		i = k
	}
}

// referenceRoots are the objects code reads settings and arguments from.
var referenceRoots = map[string]bool{"os": true, "process": true, "self": true, "this": true, "args": true, "argv": true,
	"opts": true, "options": true, "config": true, "cfg": true, "conf": true, "settings": true, "env": true, "params": true,
	"props": true, "secrets": true, "secret": true, "var": true, "vars": true, "local": true, "data": true, "input": true,
	"request": true, "req": true, "ctx": true, "context": true, "credentials": true, "creds": true, "random_password": true,
	"module": true, "values": true, "app": true, "flags": true}

// powershellVerbs are the approved verbs of PowerShell cmdlets that read a value.
var powershellVerbs = map[string]bool{"Read": true, "Get": true, "ConvertTo": true, "ConvertFrom": true, "Import": true,
	"New": true, "Invoke": true, "Unprotect": true}

func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }

// decimalNumber reports a number written with a decimal point or an exponent (0.00000042,
// 1.5e-05, -3.25): a price, a rate or a measure, never a credential.
func decimalNumber(v string) bool {
	if !strings.ContainsAny(v, ".eE") || len(v) > 32 {
		return false
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil && strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
}

// sizeQuantity matches a count or a size with its unit's letter (8k, 1.5M, 32K, 4G).
var sizeQuantity = regexp.MustCompile(`^[0-9]{1,6}(?:\.[0-9]{1,3})?[kKmMgGtT]$`)

// localeName matches a POSIX locale's name (de_DE.UTF-8, en_US, pt_BR.utf8, sr_RS@latin).
var localeName = regexp.MustCompile(`^[a-z]{2,3}_[A-Z]{2}(?:\.[A-Za-z0-9-]{2,12})?(?:@[a-z]{2,12})?$`)

// keepKeyword decides whether a keyword-assignment candidate is a real secret. A quoted
// value is a literal; an unquoted one may be code (token := getToken()).
func keepKeyword(name, value string, quoted bool) bool {
	if strings.HasSuffix(value, "?.[") && identifierWords(strings.TrimSuffix(value, "?.[")) {
		return false // const apiKey = resolvedHeaders?.['x-goog-api-key']: an optional index, code
	}
	if len(value) > 1 && value[0] == ' ' && value[1] != ' ' && strings.EqualFold(name, "token") {
		return false // "token": " Colour": a model's text piece (logprobs, a tokenizer's output), its blank its own
	}
	v := strings.TrimSpace(value)
	bare := strings.Trim(v, "\"'`") // the value without the quotes around it
	if parts := nameParts(name); len(parts) > 0 && strings.HasSuffix(strings.ToLower(parts[len(parts)-1]), "less") {
		return false // Passwordless "Magic Code", keyless signing: without the credential the name names
	}
	if v == "" || placeholderValue(v) && !leetPassword(name, v) || placeholderValue(strings.TrimLeft(strings.TrimRight(v, "!?):,;]."), "&*")) && !leetPassword(name, v) || plainURL(v) || pathValue(v) || namesNoSecret(name, v) || echoedName(name, v) || lookupKeyName(name, v) || roleKeyConstant(name, v) || harmlessValue(name, v) || betweenLiterals(value) || promptEscapes(v) || envVarNameValue(name, v) || sameStemFile(name, v) || typeNamedFor(name, v) {
		return false // String!, Int? : GraphQL, Kotlin and Swift types
	}

	if !nameHasSecretWord(name) && !strings.Contains(strings.ToLower(name), "key") && !strings.Contains(strings.ToLower(name), "token") && !strings.Contains(strings.ToLower(name), "secret") {
		return false
	}
	if storageKey(name, v) {
		return false // CHAT_SETTINGS_KEY = 'openvibe_chat_settings': where an entry is kept
	}
	if settingHeadName(name) && (identifierWords(bare) || isDigits(bare)) {
		return false // env('AUTH_PASSWORD_BROKER', 'users'): the broker's name
	}
	if headNounNoSecret(name, v) {
		return false // SESSION_TOKEN_QUERY_PARAM = "X-Amz-S3session-Token": what a credential goes by
	}
	if isDigits(v) && len(v) < 6 && !(quoted && len(v) >= 5 && passwordName(name) && !sequentialDigits(v)) || !hasAlnum(v) && !(quoted && passwordName(name) && symbolPassword(bare)) || pictographsOnly(bare) || utf8.RuneCountInString(bare) == 1 || len(v) <= 4 && isUpperByte(v[0]) && strings.Trim(v[1:], "):,;{ ") == "" {
		return false // accesskey="n": one character is no credential, and shows nothing of one (credential: T): T {: a type parameter)
	}
	if len(bare) >= 2 && len(bare) <= 4 && (bare[0] == 'v' || bare[0] == 'V') && isDigits(bare[1:]) {
		return false // authelia:kdf:storage:encryption_key:v1: a version's tag
	}
	if nameTailEcho(name, v) {
		return false // ActionResetPassword = "ResetPassword": the name's own words
	}
	if strings.IndexByte(bare, '.') > 0 && isLetters(strings.ReplaceAll(bare, ".", "")) && strings.EqualFold(strings.ReplaceAll(bare, ".", ""), name) {
		return false // APIKeyAuthScopes = "APIKeyAuth.Scopes": the key a context value is kept under, spelled as the name
	}
	if securitySchemeName(bare) {
		return false // token("apiKeyAuth", []), Bearer authorization: bearerAuth: an OpenAPI security scheme's name
	}
	if !quoted && len(v) > 3 && v[0] == '[' && isLetter(v[1]) && callLike.MatchString(v[1:]) {
		return false // youshallpass = [augeasparser.AugeasBlockNode(name=…: a list built by calls
	}
	if !quoted && tsTypeExpression(v) {
		return false // readSecrets: [{ keys: string[] }, Record<string, string>]; PASS_THROUGH: (keyof Protocol)[]: a type
	}
	if strings.HasPrefix(v, ",\"") {
		return false // "refresh_token":"","expiry":…: an empty value, then the object's next member
	}
	if len(bare) > 2 && bare[0] == '\\' && isLetters(bare[1:]) && strings.ToLower(bare) == bare {
		return false // rclone copy D:\docs secret:\docs: a remote's Windows path
	}
	if elidedToken.MatchString(bare) {
		return false // FAS_API_TOKEN="FlyV1 ...": a token's prefix, the rest left out
	}
	if assignedExpansions(bare) {
		return false // secrets: FOOBAR=${{ secrets.FOOBAR }} SOME_API_KEY=${{ secrets.SOME_API_KEY }}
	}
	if fieldsTemplate(bare) {
		return false // credentials = f"{self.username}:{self.password}": a format string's fields
	}
	if awsResourceName(bare) {
		return false // "PreTokenGeneration": "arn:aws:lambda:…:function:MyFunction", --device-key us-west-2_abcd_1234: a resource's name
	}
	if ghsaID.MatchString(bare) {
		return false // strip secrets GHSA-8mxv-9xhp-86h4: a security advisory's id
	}
	if len(bare) > 3 && bare[0] == '-' && isLetter(bare[1]) && (bare[2] == ' ' || bare[2] == '=') {
		return false // pass '-o delete-src-file' to …: options handed to a command
	}
	if validationRules(bare) {
		return false // 'password' => 'required|min:8|confirmed': a form field's validation rules (Laravel)
	}
	if docNavPath(bare) {
		return false // - 'PassTLSClientCert': 'reference/…/passtlsclientcert.md': a documentation site's page under its title
	}
	if !quoted && len(v) > 2 && v[len(v)-1] == ':' && strings.ToLower(v) == v && allLettersDigits(strings.ReplaceAll(v[:len(v)-1], "_", "")) {
		return false // acme: error presenting token: gandiv5: unexpected …: the next link of an error's chain
	}
	if strings.EqualFold(name, "secret") && strings.HasSuffix(bare, "-secret") && secretNameValue(bare) {
		return false // rootCAs: - secret: ca-secret: the name of a Kubernetes Secret that holds it
	}
	if pinnedRequirement(bare) {
		return false // py3.9-langchain-notiktoken-v0.1.20: SQLAlchemy==2.0.51: a package pinned to a version (tox's deps)
	}
	if len(bare) >= 3 && (bare[0]|0x20 == 'y' || bare[0]|0x20 == 'z') && strings.Count(strings.ToLower(bare), string(bare[0]|0x20)) == len(bare) {
		return false // ZONEEE_API_KEY=yyyyy: a letter typed over, as xxxxx is
	}
	if lowerDictWord(bare) && apiKeyName(name) {
		return false // ALGOLIA_API_KEY=short: an English word is no service's key
	}
	if standInWords[bare] || kebabStandIn(bare) {
		return false // apiKey: "unused", OPERATOR_TOKEN="unused-operator-token": stand-ins
	}
	if apiKeyName(name) && prefixedAbc123(bare) {
		return false // langsmithApiKey = "ls-abc123", OPENAI_API_KEY=sk-abc123: a format's prefix and the stand-in
	}
	if localServerKeys[bare] && apiKeyName(name) {
		return false // api_key="ollama", "EMPTY": what a local model server's documentation says to pass, checked by nobody
	}
	if severityWords[v] {
		return false // ("…PRIVATE\s+KEY-----", "Private Key", "critical"): a finding's severity
	}
	if scopeVerbs[v] {
		return false // "secrets:read": a permission's scope, what may be done with the secrets
	}
	if computedValue(name, v) {
		return false
	}
	if kebabKeyName(bare) || len(bare) > 2 && bare[0] == '_' && bare[1] == '_' && isLetters(bare[2:]) && strings.HasSuffix(strings.ToUpper(name), "KEY") {
		return false // apiKey: 'openai-api-key': a stand-in that names the key; AUTH_GLOBAL_KEY = '__mcpAuth': where it is kept
	}
	if len(bare) > 1 && bare[0] == '/' && strings.EqualFold(strings.Trim(bare, "/"), name) ||
		len(bare) > len(name)+1 && strings.HasSuffix(strings.ToLower(bare), "/"+strings.ToLower(name)) && wordSegments(strings.Split(bare, "/")) {
		return false // routes: { token: '/token/' }, autoload :Password, "doorkeeper/request/password": a route or a file named for what it serves
	}
	if rubyConstantPath.MatchString(bare) {
		return false // access_token_class "Doorkeeper::AccessToken": a class's name
	}
	if shoutedSentence(bare) {
		return false // apiKey: "IF YOU HAVE AN API KEY FOR THE CORE, ADD IT HERE": an instruction
	}
	if printfVerbValue(v) {
		return false // fmt.Errorf("failed to get access token: code:%v msg: %s", …): a format's verb stands for the value
	}
	if strings.HasPrefix(v, "...") && len(v) > 3 && strings.IndexByte("),];", v[3]) >= 0 {
		return false // SignedJWTParameters(issuer=..., signing_key=...): an elision, the call's end after it
	}
	if colorValue(bare) {
		return false // Token: '#d8dee9' (a Pygments style), --token-color: #fff
	}
	if t := strings.TrimRight(bare, ","); !quoted && decimalNumber(t) || sizeQuantity.MatchString(t) || localeName.MatchString(t) {
		return false // "output_cost_per_token": 0.00000042, parse_token_value("8k"), lambda key: "de_DE.UTF-8"
	}
	if kwargVariable(name, v) {
		// secret_access_key=aws_secret_access_key: a variable passed under its name (or, quoted,
		// the name of where the value is kept)
		return false
	}
	if quoted {
		return true
	}
	if callLike.MatchString(v) || codeArgumentReference(v) || codeReference(v) {
		return false // PASSWORD = os.environ.get(…), SECRET := getenv(, PASSWORD = args.password
	}
	upperName := name == strings.ToUpper(name)
	if !upperName && rubyCode(v) {
		return false // token: :expired, token = ->(r) { … }, access_token: @token
	}
	if !upperName && codeLike.MatchString(v) && !hasDigitAndLetter(v) && !unpronounceable(strings.ToLower(v)) {
		// token := getToken(), password: string, apiKey = cfg.apiKey (but not dbPassword =
		// iwSvqtzowj: letters no name of code is made of)
		return false
	}
	if !upperName && codeLike.MatchString(v) && strings.ContainsAny(v, "().") && !randomSegment(v) {
		return false
	}
	if !upperName && (codePath(v) || typeAnnotation(v)) {
		return false // type SecretString = secrecy::SecretBox<str>; refreshToken: string | null;
	}
	return true
}

// kwargVariable reports an unquoted value that is a variable in snake case named after the
// name it is given to: the same name, or the name with a qualifier before or after it
// (secret_access_key=aws_secret_access_key, 'aws_secret_access_key': secret_access_key).
func kwargVariable(name, v string) bool {
	n, v := strings.ToLower(strings.Trim(name, "\"'")), strings.TrimRight(v, ",)}")
	if v == n && isLetters(v) {
		return true // Dialector{DSN: dsn}: a variable named as the field it fills
	}
	if !strings.Contains(n, "_") || !strings.Contains(v, "_") || !snakeIdentifier(v) {
		return false
	}
	return !strings.ContainsAny(v, "0123456789") && (v == n || strings.HasSuffix(v, "_"+n) || strings.HasSuffix(n, "_"+v))
}

// headNounNoSecret reports a name whose last word says what its value is, and that is no
// secret: the parameter, header, method, field or host a credential goes by
// (SESSION_TOKEN_QUERY_PARAM = "X-Amz-S3session-Token", tokenApiHost:
// "securetoken.googleapis.com", EXCHANGE_RECAPTCHA_TOKEN_METHOD = 'exchangeRecaptchaV3Token'),
// a duration, a size or a count, a message. A value that looks generated stays a secret.
func headNounNoSecret(name, v string) bool {
	parts := nameParts(name)
	if len(parts) < 2 || !nonSecretHeads[parts[len(parts)-1]] && !slices.Contains(parts, "audience") && !slices.Contains(parts, "issuer") {
		return false // (tokenAudienceAPIS = "lms-api": the audience, whatever follows it)
	}
	v = strings.Trim(v, "\"'`")
	return v != "" && (!randomValue(v) || headerCaseName(v)) && !(len(v) >= 16 && isHex(v))
}

// headerCaseName reports an HTTP header's name as written: two or more words joined by -, each
// a capital and lower-case letters or digits, or an acronym (X-Amz-S3session-Token, X-API-Key).
func headerCaseName(v string) bool {
	parts := strings.Split(v, "-")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !isUpperByte(p[0]) {
			return false
		}
		acronym := len(p) <= 4
		for k := 1; k < len(p); k++ {
			lowerOrDigit := isLowerByte(p[k]) || isDigitByte(p[k])
			acronym = acronym && isUpperByte(p[k])
			if !lowerOrDigit && !acronym {
				return false
			}
		}
	}
	return true
}

// nonSecretHeads are the last words of headNounNoSecret's names.
var nonSecretHeads = map[string]bool{"param": true, "params": true, "parameter": true, "method": true, "header": true,
	"field": true, "host": true, "hostname": true, "domain": true, "endpoint": true, "prefix": true, "suffix": true,
	"label": true, "event": true, "interval": true, "timeout": true, "ttl": true, "ms": true, "seconds": true,
	"length": true, "size": true, "count": true, "limit": true, "mode": true, "error": true, "exception": true,
	"format": true, "pattern": true, "regex": true, "column": true, "attr": true, "attribute": true, "property": true,
	"option": true, "options": true, "placeholder": true, "hint": true, "description": true, "title": true,
	"response": true, "request": true, "result": true, "status": true, "provider": true, "handler": true, "callback": true,
	"listener": true, "source": true, "ratio": true, "purpose": true, "reasons": true, "refresh": true, "expiry": true,
	"expiration": true, "lifetime": true, "age": true, "delay": true, "retries": true, "window": true, "mismatch": true,
	"magic": true,                   // privateKeyAuthMagic = "openssh-key-v1\x00": a format's magic string
	"user":  true, "username": true, // TOKEN_USER: &str = "gmail": the account a stored token is kept under
	"issuer": true, "audience": true} // tokenIssuer = "lms-api": whom a token names

// wordOperatorExpression reports an unquoted value that is an expression of Python's or
// SQL's word operators: a name, then and, or, if, is, not or in, then code (last_token =
// parsed and parsed.token_prev(…) or ""). A passphrase of words (salt and pepper) has no
// call, member, index or literal after its operator.
func wordOperatorExpression(v string) bool {
	f := strings.Fields(v)
	if len(f) < 3 || !identifierOperand(strings.TrimRight(f[0], ",")) {
		return false
	}
	switch f[1] {
	case "and", "or", "if", "is", "not", "in":
		return strings.ContainsAny(strings.Join(f[2:], " "), "().[]\"'")
	}
	return false
}

// colorValue reports a style made of colours and words: every field a colour of three, four,
// six or eight hex digits after # (bg: or border: before it, as Pygments styles write) or a
// lower-case word (bold, italic, noinherit), one of them a colour.
func colorValue(v string) bool {
	colors := 0
	for _, f := range strings.Fields(v) {
		c := strings.TrimPrefix(strings.TrimPrefix(f, "bg:"), "border:")
		switch {
		case len(c) > 1 && c[0] == '#' && (len(c) == 4 || len(c) == 5 || len(c) == 7 || len(c) == 9) && isHex(c[1:]):
			colors++
		case lowerWord(f):
		default:
			return false
		}
	}
	return colors > 0
}

// leetPassword reports a placeholder word in leetspeak (P@ssw0rd, s3cr3t) under a name for a
// password: elsewhere it stands in for one, there it is the weak password people choose.
func leetPassword(name, v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	return len(v) <= 12 && strings.ContainsAny(v, "@0135$!") && leetPlaceholders[strings.ToLower(unleet.Replace(v))] && passwordName(name)
}

// passwordName reports a name with a part that is a word for a password (db_password,
// MYSQL_ROOT_PASSWORD, userPwd, PGPASSWORD).
func passwordName(name string) bool {
	for _, p := range nameParts(name) {
		switch p {
		case "password", "passwd", "pwd", "pass", "passphrase", "pswd", "passcode", "pw":
			return true
		}
		if strings.Contains(p, "password") || strings.Contains(p, "passwd") || strings.HasSuffix(p, "pwd") {
			return true
		}
	}
	return false
}

// randomSegment reports a dotted value with a part no identifier has: 16+ characters with
// four or more digits among four or more letters (abc.def.ghi456ijk789mno0123456789).
func randomSegment(v string) bool {
	for _, seg := range strings.Split(v, ".") {
		if len(seg) >= 16 && countDigits(seg) >= 4 && len(seg)-countDigits(seg) >= 4 && !strings.ContainsAny(seg, "()[]") {
			return true
		}
	}
	return false
}

// symbolPassword reports a password made of symbols only (DB2_PASSWORD="@#!%#"): four to 64
// printable ASCII symbols, at least three of them different, so that a mask (****), an ellipsis
// (...), a rule (---) or an operator (=>, &&) is none.
func symbolPassword(v string) bool {
	if len(v) < 4 || len(v) > 64 {
		return false
	}
	var seen [128]bool
	distinct := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c <= ' ' || c >= 0x7f || isWordByte(c) && c != '_' {
			return false
		}
		if !seen[c] {
			seen[c] = true
			distinct++
		}
	}
	return distinct >= 3
}

// pictographsOnly reports a value of emoji and symbols, no letter or digit of any script
// (JWT_SECRET: ⚠️  NOT SET, ✅): a status a program prints, not a credential.
func pictographsOnly(s string) bool {
	sym := false
	for _, r := range s {
		switch {
		case r < 0x80:
			if r != ' ' {
				return false
			}
		case unicode.Is(unicode.So, r) || unicode.Is(unicode.Sm, r):
			sym = true
		case unicode.Is(unicode.Mn, r) || r == 0x200d: // a variation selector, a zero-width joiner
		default:
			return false
		}
	}
	return sym
}

func hasAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if isWordByte(s[i]) && s[i] != '_' || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

func hasDigitAndLetter(s string) bool {
	var d, l bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			d = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			l = true
		}
	}
	return d && l
}

// secretWords are name components that mark a value as secret; secretPairs are two
// adjacent components that do.
var (
	secretWords = map[string]bool{
		"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true, "pw": true,
		"pswd": true, "psword": true, "pssword": true, "psswrd": true, "passwort": true, "secrete": true,
		"secret": true, "secrets": true, "token": true, "apikey": true, "dsn": true,
		"credential": true, "credentials": true, "creds": true, "privatekey": true,
		"accesskey": true, "secretkey": true, "authkey": true,
	}
	secretPairs = map[[2]string]bool{
		{"api", "key"}: true, {"private", "key"}: true, {"access", "key"}: true, {"auth", "key"}: true,
		{"signing", "key"}: true, {"encryption", "key"}: true, {"master", "key"}: true,
		{"client", "secret"}: true, {"secret", "key"}: true, {"license", "key"}: true, {"licence", "key"}: true,
		{"auth", "ident"}: true, {"auth", "string"}: true,
	}
	// The last part of a setting that names how a credential is made or checked, not the
	// credential: TOKEN_ALGORITHM=HS256, password_encryption = scram-sha-256 (PostgreSQL),
	// default_pass_scheme = SHA512-CRYPT (Dovecot), token_cipher: aes-256-gcm. Only last:
	// ENCRYPTION_KEY, cipher_secret are keys.
	algorithmWords = map[string]bool{
		"algorithm": true, "algorithms": true, "alg": true, "algo": true, "encryption": true,
		"scheme": true, "schemes": true, "cipher": true, "ciphers": true,
	}
	// notSecretWords mark names that hold something about a secret, not the secret.
	notSecretWords = map[string]bool{
		"type": true, "count": true, "len": true, "length": true, "size": true, "limit": true,
		"rate":       true, // passRate, pass_rate: a share of runs that passed
		"spec":       true, // CustomerMasterKeySpec: "RSA_4096", --key-spec HMAC_384: what kind of key
		"validity":   true, // --refresh-token-validity 30: how long a token lives
		"units":      true, // --token-validity-units AccessToken=minutes,…: the units of those
		"threshold":  true, // pass_threshold: float, the score a run must reach
		"progress":   true, // progressToken: "tok-1": MCP's handle for a request's progress notifications
		"fds":        true, // pass_fds=(status_fd,): the file descriptors a child process keeps
		"providers":  true, // global-credential-providers = ["cargo:token", …]: which providers to ask
		"expression": true, // 'KeyConditionExpression' => 'application = :application': a query's condition
		"bools":      true, // PASS_BOOLS = ('check_mode', 'debug'): the names of switches passed on
		"umask":      true, // PASSWORD_STORE_UMASK: the mode new files are made with
		"selection":  true, // PASSWORD_STORE_X_SELECTION: which clipboard
		"prog":       true, // PASS_PROG: the program run
		"dir":        true, // pw_ent.pw_dir: the home directory of a passwd entry
		"use":        true, // requested_token_use="on_behalf_of": what a token is asked for
		"mismatch":   true, // AlgorithmKeyMismatch('…'): an exception's message
		"url":        true, "uri": true, "endpoint": true, "file": true, "path": true, "name": true,
		"id": true, "expires": true, "expiry": true, "ttl": true, "header": true, "prefix": true,
		"kind": true, "field": true, "hint": true, "policy": true, "min": true, "max": true,
		"tokens": true, "mode": true, "format": true, "label": true, "placeholder": true,
		// what a form or a message says about a secret: login.password.error, apiKey.label
		"error": true, "errors": true, "message": true, "msg": true, "title": true, "description": true,
		"desc": true, "help": true, "text": true, "tooltip": true, "caption": true, "warning": true,
		"validator": true, "validation": true, "strength": true, "rule": true, "rules": true,
		"requirements": true, "regex": true, "pattern": true, "input": true, "button": true, "link": true,
		// the public half of a key pair, or a key published by design: publicKeyToken (.NET
		// assembly names), pubkey, NEXT_PUBLIC_…, publishable_key
		"public": true, "pub": true, "pubkey": true, "publickey": true, "publishable": true,
		// where something is, not a secret: NATIVE_TOKEN_ADDRESS (a contract's), token_addr
		"address": true, "addr": true,
		// how many tokens a model may use: token_budget=128000
		"budget": true, "usage": true, "remaining": true,
		// when it changes: master_user_password_rotation_schedule_expression = "rate(15 days)"
		"rotation": true, "schedule": true,
		// an X.509 extension naming a key by its hash: authorityKeyIdentifier=keyid:always
		"identifier": true,
		// a list of secrets' names, not of secrets: SECRET_NAMES = ["db-password", …]
		"names": true, "labels": true, "fields": true, "kinds": true, "types": true,
		// ids of secrets, not secrets: api_key_ids=["key_abc"], secret_ids
		"ids": true,
		// where a listing goes on: nextPageToken, continuationToken, syncToken, sinceToken
		"page": true, "continuation": true, "sync": true, "since": true,
		// what code says when it fails: invalidTokenPanic = "invalid jsontext.Token; …"
		"panic": true,
		// what hands out a credential: credential_helper = osxkeychain
		"helper": true, "helpers": true,
		// what handles or shows a credential: passwordConnector: local (an identity
		// provider's connector for logins by password), tmplPassword = "password.html"
		"connector": true, "tmpl": true, "template": true,
		// a page's element for one: passwordElement := …("password-textfield")
		"element": true, "textfield": true,
		// what kind of key it is: "keyDetails": "PKIX_ECDSA_P256_SHA_256" (a Sigstore bundle)
		"details": true,
		// where secrets are read from, and a config file's section: secrets_paths, CONFIGFILE_KEY
		"paths": true, "configfile": true,
		// what a token says, readable by whoever holds it: tokenPayload.cnf[…] = x5t
		"payload": true, "claims": true,
	}
)

// nameHasSecretWord reports whether a key name (snake, kebab, dotted or camel case) has a
// component that marks its value as secret and none that marks it as metadata.
func nameHasSecretWord(name string) bool {
	parts := nameParts(name)
	found := envKeyName(name, parts)
	owned := ownedSecret(parts) // where the credential's words start, or -1
	lastSecret, keeper := -1, -1
	for i, p := range parts {
		if notSecretWords[p] && !(owned > 0 && ownerWords[p] && i < owned) || i == len(parts)-1 && i > 0 && (algorithmWords[p] || p == "time" || p == "timestamp" || p == "realm" || p == "namespace") || gluedAbout(p) {
			// last_pass_time: when something happened to it; one_time_password is one;
			// HTPASSWD_REALM: the name a login prompt shows; secretNamespace: where one is kept
			return false
		}
		if secretWords[p] || i > 0 && secretPairs[[2]string{parts[i-1], p}] || glued(p) && !capitalizedPassWord(name, p) || p == "pat" && len(parts) > 1 {
			found = true
			lastSecret = i
		}
		if i > 0 && keeperWords[p] {
			keeper = i
		}
	}
	return found && (keeper < 0 || keeper < lastSecret)
}

// gluedAbout reports a part that glues a credential's word to one that says what about it
// the name holds (secretpath, secretname, tokentype, passwordfile): the same name as
// secret_path, written in one word.
func gluedAbout(p string) bool {
	for _, w := range [...]string{"path", "file", "name", "names", "url", "uri", "type", "len", "length", "size", "count", "prefix", "label", "hint", "policy", "format", "dir"} {
		if len(p) > len(w)+3 && strings.HasSuffix(p, w) && glued(p[:len(p)-len(w)]) {
			return true
		}
	}
	return false
}

// keeperWords, after a name's last credential word, make it the name of what keeps or
// handles credentials, not of one: HTTPPasswordMgr, HTTPPasswordMgrWithDefaultRealm,
// password_manager, TokenHandler, PASSWORD_HASHERS; or of a setting of the program that fetches one
// (secret_backend_arguments, password_command, token_timeout). Before one they say whose it
// is (SECRETS_MANAGER_TOKEN is a token).
var keeperWords = map[string]bool{"mgr": true, "manager": true, "handler": true, "backend": true, "backends": true,
	"hasher": true, "hashers": true, "validators": true,
	"arguments": true, "args": true, "argv": true, "command": true, "cmd": true, "timeout": true, "config": true, "configuration": true}

// ownerWords are words notSecretWords holds that, before a credential's word, say whose it
// is rather than what about it: CertFilePassword (a certificate file's password, where
// password_file names the file), TextEncryptionKey, EndpointKey's owner.
var ownerWords = map[string]bool{"file": true, "text": true, "endpoint": true, "url": true, "uri": true}

// ownedSecret returns where the credential's words start in a name of three parts or more
// that ends in a word for a password or a secret, or in a secret's pair (encryption key):
// what comes before says whose it is. It returns -1 for any other name.
func ownedSecret(parts []string) int {
	n := len(parts)
	if n < 3 {
		return -1
	}
	last := parts[n-1]
	switch last {
	case "password", "passwd", "passphrase", "pwd", "secret":
		return n - 1
	}
	if secretPairs[[2]string{parts[n-2], last}] {
		return n - 2
	}
	return -1
}

// envKeyName reports an environment-style name ending in KEY or AUTH (STRIPE_KEY,
// OPENAI_KEY, BASIC_AUTH): in an upper-case name these hold credentials, unless the key is
// a public or database one.
func envKeyName(name string, parts []string) bool {
	if len(parts) < 2 || name != strings.ToUpper(name) {
		return false
	}
	last, prev := parts[len(parts)-1], parts[len(parts)-2]
	if last != "key" && last != "auth" {
		return false
	}
	switch prev {
	case "public", "pub", "primary", "foreign", "sort", "partition", "cache", "idempotency", "hash", "lookup", "unique":
		return false
	}
	return true
}

// capitalizedPassWord reports a part that ends in pass written in the name as one
// capitalised word after a dot or before another (P.Minipass, exports.MinipassSized): the
// name's case says
// where its words end, and pass is no word of its own there (dbPass, userpass and DBPASS
// say nothing of the kind).
func capitalizedPassWord(name, p string) bool {
	if len(p) <= 4 || !strings.HasSuffix(p, "pass") || strings.Contains(p, "passw") {
		return false
	}
	w := strings.ToUpper(p[:1]) + p[1:]
	i := strings.Index(name, w)
	if i < 0 || i+len(w) < len(name) && isLowerByte(name[i+len(w)]) {
		return false
	}
	// A member's or a type's name (P.Minipass, MinipassSized), not a name that is the word
	// alone (Userpass = "…").
	return i > 0 && name[i-1] == '.' || i+len(w) < len(name) && isUpperByte(name[i+len(w)])
}

// glued catches secret words run together with a prefix: PGPASSWORD, dbpwd, BOTTOKEN.
func glued(p string) bool {
	for _, w := range []string{"password", "passwd", "passphrase", "secret", "apikey", "credential", "passw", "pasw", "pswd", "psword", "psswrd"} {
		if strings.Contains(p, w) {
			return true
		}
	}
	if strings.HasSuffix(p, "pass") && len(p) > 4 {
		switch p { // words, not names: bypass, compass; GIT_ASKPASS names the program that asks
		case "bypass", "compass", "encompass", "overpass", "underpass", "surpass", "trespass", "firstpass", "onepass", "multipass", "askpass":
			return false
		}
		return true // dbpass, userpass, sshpass
	}
	// (tiktoken, OpenAI's tokenizer, and a test matrix's notiktoken: a library, no token)
	return strings.HasSuffix(p, "token") && !strings.HasSuffix(p, "tiktoken") || strings.HasSuffix(p, "pwd")
}

// nameParts splits an identifier into lower-case components.
func nameParts(name string) []string {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return namePartsRunes(name)
		}
	}
	lower := strings.ToLower(name) // ASCII: the same byte positions
	parts := make([]string, 0, 4)
	start := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
			if i > start {
				parts = append(parts, lower[start:i])
			}
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > start && name[i-1] >= 'a' && name[i-1] <= 'z':
			parts = append(parts, lower[start:i])
			start = i
		case c >= 'A' && c <= 'Z' && i > start && name[i-1] >= 'A' && name[i-1] <= 'Z' && i+2 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z' &&
			acronymWord(lower[i:]):
			// An acronym, then a capitalised credential word: XApiKey, DBPassword, APIKey
			// (not SECRETkey, whose capitals are the word).
			parts = append(parts, lower[start:i])
			start = i
		}
	}
	if start < len(name) {
		parts = append(parts, lower[start:])
	}
	return parts
}

// acronymWord reports a lower-cased rest of a name that opens with a credential word.
func acronymWord(rest string) bool {
	for _, w := range []string{"password", "passwd", "pass", "pwd", "key", "token", "secret", "api", "auth", "access", "private", "credential"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// namePartsRunes is nameParts for names with non-ASCII letters.
func namePartsRunes(name string) []string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			continue
		case r >= 'A' && r <= 'Z' && i > 0 && rs[i-1] >= 'a' && rs[i-1] <= 'z':
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return parts
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// envVarNameValue reports the name of an environment variable given under a name that says
// it holds one (aiAPIKeyEnv = "GOSEC_AI_API_KEY", token_env_var: GITHUB_TOKEN,
// ENV_VAR_SSL_PASSWORD = 'KEYFILE_PASSWORD'): where the secret is read from, not the secret.
func envVarNameValue(name, v string) bool {
	parts := nameParts(name)
	if len(parts) < 2 {
		return false
	}
	switch parts[len(parts)-1] {
	case "env", "var", "variable", "envvar":
	default:
		// ENV_VAR_SSL_PASSWORD = 'KEYFILE_PASSWORD': the prefix says so as the suffix does
		if !(parts[0] == "envvar" || parts[0] == "env" && (parts[1] == "var" || parts[1] == "variable")) {
			return false
		}
	}
	v = strings.Trim(strings.TrimLeft(v, "[ "), `"'`) // apiKeyEnv: ["CLINE_API_KEY"]: a list of one
	if v == "" || !isUpperByte(v[0]) && v[0] != '_' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isUpperByte(c) && !isDigitByte(c) && c != '_' {
			return false
		}
	}
	return true
}

// namedPassword reports ://user:NAME@host where the password is a constant's or a camel-case
// name naming a secret (https://token:MY_GITHUB_TOKEN@github.com,
// https://remoteUser:remotePassword@host): a template's stand-in for what a script fills in.
func namedPassword(m string) bool {
	m = strings.TrimPrefix(m, "://")
	at := strings.LastIndexByte(m, '@')
	_, pass, ok := strings.Cut(m[:max(at, 0)], ":")
	return at > 0 && ok && (secretNamedConstant(pass) || usageSyntax(pass) || camelSecretName(pass))
}

// usageSyntax reports a usage line's word for a password inside its optional brackets
// ([protocol://][user[:password]@]proxyhost, user[:passwd]): syntax, no credential.
func usageSyntax(pass string) bool {
	w := strings.Trim(pass, "[]")
	return w != pass && passwordWord(w)
}

// optionName reports another long option where a flag's value would be (add_argument('--token',
// '--api-key'): an alias listed after the flag, lower-case words joined by dashes.
func optionName(v string) bool {
	if !strings.HasPrefix(v, "--") || len(v) < 4 {
		return false
	}
	for i := 2; i < len(v); i++ {
		if c := v[i]; !isLowerByte(c) && !isDigitByte(c) && c != '-' {
			return false
		}
	}
	return true
}

// localDefaultCredentials reports ://user:password@host where the password is the account's
// name and the host is this machine: the default of a database or broker run for development.
func localDefaultCredentials(m string) bool {
	m = strings.TrimPrefix(m, "://")
	at := strings.LastIndexByte(m, '@')
	user, pass, ok := strings.Cut(m[:max(at, 0)], ":")
	if at < 0 || !ok || user == "" || !strings.EqualFold(user, pass) {
		return false
	}
	switch strings.ToLower(m[at+1:]) {
	case "localhost", "127.0.0.1", "0.0.0.0", "[::1]", "host.docker.internal":
		return true
	}
	return false
}

// sequentialDigits reports digits that count up or down one by one or repeat one digit
// (12345, 54321, 00000): what documentation writes for a password's place.
func sequentialDigits(v string) bool {
	up, down, same := true, true, true
	for i := 1; i < len(v); i++ {
		d := int(v[i]) - int(v[i-1])
		up = up && (d == 1 || d == -9)
		down = down && (d == -1 || d == 9)
		same = same && d == 0
	}
	return up || down || same
}

// randomPassword reports a value that reads as a generated or chosen password rather than a
// name: an upper-case letter, a lower-case one and a digit, not all hexadecimal, and not
// words of code (MyProject2024 is a name; Xk4mR9qLw2 is not).
func randomPassword(v string) bool {
	var up, low, digit bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return up && low && digit && !isHex(v) && !placeholderValue(v) && !wordsName(strings.TrimRight(v, "0123456789"))
}

// wordsName reports letters that are words run together (MyProfile, StagingEnv): each part of
// the name a dictionary word or two letters at most, one of them a word.
func wordsName(v string) bool {
	if !isLetters(v) {
		return false
	}
	words := 0
	for _, p := range nameParts(v) {
		switch {
		case dictWord(p):
			words++
		case len(p) > 2:
			return false
		}
	}
	return words > 0
}

// printfVerbValue reports a value that is one of printf's verbs (%v, %+v, %s, %q, %d, %w, %x),
// alone or after a word and a colon or an equals sign (code:%v, id=%d), at its end or before a
// character that is no letter or digit: a format string's placeholder, filled in when the
// message is made. A verb inside a run (Ic%s&z, 5T%x,N) is a random password's characters.
func printfVerbValue(v string) bool {
	i := 0
	for i < len(v) && i < 24 && (isLetter(v[i]) || v[i] == '_') {
		i++
	}
	if i > 0 {
		if i >= len(v) || v[i] != ':' && v[i] != '=' {
			return false
		}
		i++
	}
	if i >= len(v) || v[i] != '%' {
		return false
	}
	j := i + 1
	if j < len(v) && (v[j] == '+' || v[j] == '#') {
		j++
	}
	return j < len(v) && strings.IndexByte("vsqdwx", v[j]) >= 0 && (j+1 == len(v) || !isWordByte(v[j+1]))
}

// shoutedSentence reports four words or more in capitals with blanks between, a function word
// among them (IF YOU HAVE AN API KEY, ADD IT HERE): an instruction left where a value goes.
func shoutedSentence(v string) bool {
	words := strings.Fields(v)
	if len(words) < 4 || len(v) > 200 {
		return false
	}
	fn := false
	for _, w := range words {
		w = strings.Trim(w, ",.;:!?")
		if w == "" || !isLetters(w) || strings.ToUpper(w) != w {
			return false
		}
		fn = fn || functionWords[strings.ToLower(w)]
	}
	return fn
}

// computedValue reports a value a script computes rather than holds: the variable itself with
// more appended (baseParamAuth="$baseParamAuth,…"), a frame of the shell's expansions
// ("$RequestDateOnly/$Region/aws4_request", "$encoded_password$_base_url/cgi-bin/api.cgi"), or
// a JSON document written in a string (_data_auth="{\"auth\":{…}}", its members read on their
// own).
func computedValue(name, v string) bool {
	t := strings.Trim(v, "\"'`")
	if len(t) > len(name)+1 && t[0] == '$' {
		if rest, ok := strings.CutPrefix(strings.TrimPrefix(t[1:], "{"), name); ok && rest != "" && !isWordByte(rest[0]) {
			return true
		}
		if namedExpansionFrame(t) {
			return true
		}
	}
	j := strings.TrimLeft(strings.Trim(v, "'`"), "\"")
	return strings.HasPrefix(j, "{\\\"") || strings.HasPrefix(j, "{\"") && strings.Contains(j, "\":") ||
		iniDocument.MatchString(j) // empty_creds = '[general]\nemail = ""\n': an INI file's text
}

// iniDocument matches the text of an INI file written in a string: a section's header, a line
// break, escaped or (in the text as its escapes are read) not, and a key's name and = or :.
var iniDocument = regexp.MustCompile(`^\[[A-Za-z][\w .-]{0,40}\](?:\\n|\n)[ \t]*[A-Za-z][\w.-]*\s*[=:]`)

// namedExpansionFrame reports a frame of expansions (expandedFrame) that opens with a named
// variable, a ${…} or a $(…): not a crypt hash's $9t$78$… read as positional parameters.
func namedExpansionFrame(v string) bool {
	return len(v) > 2 && v[0] == '$' && (isLetter(v[1]) || v[1] == '_' || v[1] == '{' || v[1] == '(') && !strings.ContainsAny(v, "\n") && expandedFrame(v) && !positionalParam.MatchString(v)
}

// positionalParam matches a $ before a digit: a positional parameter, or a hash's field.
var positionalParam = regexp.MustCompile(`\$[0-9]`)

// flagPairMetavar reports a flag's value written as NAME=KEY with a metavar or a placeholder
// after the = (--api-key provider=key, PROVIDER=KEY, gemini=xxx, openai=<key>): the syntax
// of a flag that takes several keys, in its help or its documentation.
func flagPairMetavar(w string) bool {
	k, v, ok := strings.Cut(w, "=")
	return ok && k != "" && isLetters(k) && v != "" && (flagMetavar(v) || placeholderValue(v))
}

// numberedSecretWord reports a word for a secret with at most four digits after it
// (token123, secret1, apikey2024): a stand-in a page or a test writes, where a credential a
// header carries is generated.
func numberedSecretWord(v string) bool {
	w := strings.TrimRight(v, "0123456789")
	if len(v)-len(w) > 4 {
		return false
	}
	switch strings.ToLower(w) {
	case "token", "secret", "password", "apikey", "key", "bearer", "jwt", "accesstoken", "mytoken":
		return true
	}
	return false
}

// securitySchemeName reports an OpenAPI security scheme's name (apiKeyAuth, bearerAuth,
// basicAuth, oauth2Auth is not: it has a digit): a camel-case identifier of words ending in
// Auth, as generated clients name the scheme they ask a token for.
func securitySchemeName(t string) bool {
	head, ok := strings.CutSuffix(t, "Auth")
	if !ok || len(head) < 3 || len(head) > 40 || !isLetters(head) || !isLowerByte(head[0]) {
		return false
	}
	for _, p := range nameParts(head) {
		if len(p) > 4 && !dictWord(strings.ToLower(p)) {
			return false
		}
	}
	return true
}

// tsTypeExpression reports a TypeScript type written where a value would be (a member's
// type in an interface, an annotation): array types of the built-in types, Record<…>,
// keyof and typeof.
func tsTypeExpression(v string) bool {
	if v == "(keyof" || v == "(typeof" || strings.HasPrefix(v, "(keyof ") || strings.HasPrefix(v, "keyof ") || strings.HasPrefix(v, "(typeof ") {
		return true
	}
	if v == "" || v[0] != '[' && v[0] != '{' && v[0] != '(' {
		return false
	}
	for _, t := range []string{"string[]", "number[]", "boolean[]", "Record<", "Array<", "Promise<", "Partial<", "Readonly<"} {
		if strings.Contains(v, t) {
			return true
		}
	}
	return false
}

// validationRules reports a validation rule string of Laravel's validator, rules joined by
// | and each a rule's name with its arguments after a colon (required|string|min:8|confirmed,
// current_password:api, min:8): what a field must be, written beside the field's name.
func validationRules(v string) bool {
	if len(v) < 5 || len(v) > 200 {
		return false
	}
	parts := strings.Split(v, "|")
	args := false
	for _, p := range parts {
		name, arg, has := strings.Cut(p, ":")
		if !validationRuleNames[name] || has && (arg == "" || strings.ContainsAny(arg, " \t")) {
			return false
		}
		args = args || has
	}
	return len(parts) >= 2 || args
}

// validationRuleNames are the names of Laravel's validation rules a credential's field takes.
var validationRuleNames = map[string]bool{"required": true, "nullable": true, "sometimes": true, "bail": true, "string": true,
	"min": true, "max": true, "between": true, "size": true, "confirmed": true, "current_password": true, "password": true,
	"email": true, "unique": true, "exists": true, "regex": true, "not_regex": true, "different": true, "same": true,
	"alpha": true, "alpha_num": true, "alpha_dash": true, "ascii": true, "integer": true, "numeric": true, "digits": true,
	"digits_between": true, "boolean": true, "array": true, "in": true, "not_in": true, "url": true, "uuid": true,
	"filled": true, "present": true, "prohibited": true, "required_with": true, "required_if": true, "required_unless": true,
	"required_without": true, "uncompromised": true, "mixed": true, "letters": true, "symbols": true, "numbers": true}

// docNavPath reports a documentation page's relative path, three segments or more of
// lower-case names ending in .md, .mdx or .rst, as a site's navigation lists them.
func docNavPath(v string) bool {
	if len(v) > 200 || !(strings.HasSuffix(v, ".md") || strings.HasSuffix(v, ".mdx") || strings.HasSuffix(v, ".rst")) {
		return false
	}
	segs := strings.Split(v, "/")
	if len(segs) < 3 {
		return false
	}
	for _, seg := range segs {
		if seg == "" {
			return false
		}
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; !isLowerByte(c) && !isDigitByte(c) && c != '-' && c != '_' && c != '.' {
				return false
			}
		}
	}
	return true
}

// elidedToken matches a token's prefix and an ellipsis (FlyV1 ..., sk-ant-…).
var elidedToken = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,11} ?(?:\.\.\.|…)$`)

// assignedExpansions reports NAME=<expansion> pairs and nothing else (FOOBAR=${{ secrets.FOOBAR
// }} API_KEY=$API_KEY): names given the values of expressions, as a CI step hands them on.
func assignedExpansions(t string) bool {
	if !strings.Contains(t, "=$") {
		return false
	}
	pairs := 0
	for _, m := range strings.Fields(t) {
		name, val, ok := strings.Cut(m, "=")
		switch {
		case ok && upperSnakeName(name) || ok && upperSlot(name):
			if !strings.HasPrefix(val, "$") {
				return false
			}
			pairs++
		case strings.HasPrefix(m, "secrets.") || strings.HasPrefix(m, "env.") || strings.HasPrefix(m, "vars.") || m == "}}" || strings.HasSuffix(m, "}}"):
		default:
			return false
		}
	}
	return pairs > 0
}

// fieldsTemplate reports a format string of two fields or more ({self.username}:{self.
// password}, {header}.{payload}.{signature}) whose text between the fields holds no run of
// six letters or digits: what the fields are filled with is the value.
func fieldsTemplate(t string) bool {
	if len(t) < 7 || t[0] != '{' {
		return false
	}
	fields, run := 0, 0
	for i := 0; i < len(t); i++ {
		if t[i] == '{' {
			j := strings.IndexByte(t[i:], '}')
			if j < 2 || !isLetter(t[i+1]) && t[i+1] != '_' || strings.IndexByte(t[i+1:i+j], '{') >= 0 {
				return false
			}
			fields++
			i += j
			run = 0
			continue
		}
		if isAlnum(t[i]) {
			if run++; run >= 6 {
				return false
			}
		} else {
			run = 0
		}
	}
	return fields >= 2
}

// awsResourceName reports an AWS resource's name: an ARN, an Amazon account's id
// (amzn1.account.…) or an id that opens with its region (us-west-2_abcd_1234-5678, a Cognito
// device's or pool's).
func awsResourceName(t string) bool {
	if strings.HasPrefix(t, "arn:aws:") || strings.HasPrefix(t, "arn:aws-cn:") || strings.HasPrefix(t, "arn:aws-us-gov:") {
		return strings.Count(t, ":") >= 5
	}
	if strings.HasPrefix(t, "amzn1.") && strings.Count(t, ".") >= 2 {
		return true
	}
	return awsRegionPrefixed.MatchString(t)
}

// awsRegionPrefixed matches an id that opens with an AWS region and an underscore.
var awsRegionPrefixed = regexp.MustCompile(`^(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:north|south|east|west|central|northeast|southeast|northwest|southwest)-\d_[A-Za-z0-9_-]+$`)

// ghsaID matches a GitHub security advisory's id.
var ghsaID = regexp.MustCompile(`^GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}$`)

// pinnedRequirement reports a Python requirement pinned to a version (multidict==6.7.1,
// pyasn1_modules==0.4.2, pytest-asyncio~=1.4).
func pinnedRequirement(v string) bool {
	i := strings.Index(v, "==")
	if i < 0 {
		i = strings.Index(v, "~=")
	}
	if i < 2 || len(v) > 80 || !isLetter(v[0]) || i+2 >= len(v) || !isDigitByte(v[i+2]) {
		return false
	}
	for k := 0; k < i; k++ {
		if c := v[k]; !isWordByte(c) && c != '-' && c != '.' {
			return false
		}
	}
	for k := i + 2; k < len(v); k++ {
		if c := v[k]; !isDigitByte(c) && c != '.' && !(isLowerByte(c) && k > i+3) {
			return false
		}
	}
	return true
}

// standInWords are what a document or a test puts where a key is not needed or must fail.
var standInWords = map[string]bool{"unused": true, "dud": true, "invalid": true, "hardcoded": true, "not-needed": true, "not_needed": true, "ignored": true}

// prefixedAbc123 reports a key's prefix and abc123, the stand-in people type for its body
// (sk-abc123, ls-abc123, pk_test_abc123).
func prefixedAbc123(v string) bool {
	head, ok := strings.CutSuffix(v, "abc123")
	if !ok || len(head) < 2 || len(head) > 12 || head[len(head)-1] != '-' && head[len(head)-1] != '_' {
		return false
	}
	for i := 0; i < len(head); i++ {
		if c := head[i]; !isLowerByte(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// localServerKeys are the values local model servers that speak OpenAI's API document for its
// key, which they do not check: Ollama's "ollama", LM Studio's "lm-studio", vLLM's "EMPTY",
// llama.cpp server's "sk-no-key-required".
var localServerKeys = map[string]bool{"ollama": true, "lm-studio": true, "lmstudio": true, "EMPTY": true, "sk-no-key-required": true, "no-key": true}

// lowerDictWord reports one English word in lower case.
func lowerDictWord(t string) bool {
	return len(t) <= 12 && lowerWord(t) && dictWord(t)
}

// apiKeyName reports a name of what a service hands out, generated: an API key or a token
// (ALGOLIA_API_KEY, CIRCLE_TOKEN, canvas_token), no password or secret, and no key its owner
// chooses (ADMIN_KEY, MASTER_KEY, SIGNING_KEY).
func apiKeyName(name string) bool {
	parts := nameParts(name)
	if len(parts) < 2 || passwordName(name) {
		return false
	}
	api := false
	for _, p := range parts {
		switch {
		case strings.Contains(p, "secret") || strings.Contains(p, "pass") || p == "auth":
			return false
		case p == "admin" || p == "master" || p == "root" || p == "private" || p == "signing" || p == "encryption" || p == "jwt" || p == "session" || p == "hmac":
			return false // ADMIN_KEY = 'dragonfly': a key its owner chose, which may be a word
		case p == "api" || p == "apikey":
			api = true
		}
	}
	switch parts[len(parts)-1] {
	case "key", "apikey":
		return api
	case "token":
		return true
	}
	return false
}

// kebabStandIn reports English words joined by dashes that end in a token's or a key's
// word, maybe numbered (unused-operator-token, model-token, test-api-key-1):
// what a test or a sample writes where the credential goes.
func kebabStandIn(t string) bool {
	if len(t) < 8 || len(t) > 48 || strings.IndexByte(t, '-') < 0 {
		return false
	}
	parts := strings.Split(t, "-")
	if n := len(parts); n > 2 && len(parts[n-1]) == 1 && isDigits(parts[n-1]) {
		parts = parts[:n-1]
	}
	last := parts[len(parts)-1]
	if last != "token" && last != "key" {
		// (a password of words is one: ADMIN_PASSWORD = "manager-password")
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		if p == "" || !isLetters(p) || strings.ToLower(p) != p || !(dictWord(p) || p == "api") {
			return false
		}
	}
	return true
}

// severityWords are the levels a scanner's or a linter's finding is given.
var severityWords = map[string]bool{"critical": true, "high": true, "medium": true, "low": true, "severe": true, "moderate": true}

// scopeVerbs are what a permission's scope allows (secrets:read, repo:write): the word after
// a credential's name and a colon in a scope's string.
var scopeVerbs = map[string]bool{"read": true, "write": true, "readwrite": true, "read-write": true, "read_write": true,
	"readonly": true, "read-only": true, "read_only": true, "manage": true, "list": true}

// kebabKeyName reports lower-case words joined by dashes that end in api-key
// (openai-api-key, provider-api-key): a stand-in a page or a test writes, naming the key it
// stands for.
func kebabKeyName(v string) bool {
	head, ok := strings.CutSuffix(v, "-api-key")
	return ok && head != "" && isLetters(strings.ReplaceAll(head, "-", "")) && strings.ToLower(head) == head
}

// rubyConstantPath matches a constant's path of Ruby, C++ or Rust (Doorkeeper::AccessToken).
var rubyConstantPath = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*(?:::[A-Z][A-Za-z0-9]*)+$`)

// secretVersionTail matches what follows a Secret Manager secret's name in gcloud run's
// --set-secrets list: its version, then the list's next pair or its end.
var secretVersionTail = regexp.MustCompile(`^(?:latest|[0-9]{1,6})(?:,[A-Za-z_/][^\s]*)?$`)

// editorRemoteAuthority reports the authority of a VS Code remote URI, the kind of remote, a +
// and its host (vscode-remote://ssh-remote+<a repl's UUID>@…replit.dev:22/…, wsl+Ubuntu,
// dev-container+<hex>): where the editor's window is, not a credential.
func editorRemoteAuthority(v string) bool {
	kind, _, ok := strings.Cut(v, "+")
	if !ok {
		return false
	}
	switch kind {
	case "ssh-remote", "wsl", "dev-container", "attached-container", "codespaces", "tunnel", "k8s-container", "exec":
		return true
	}
	return false
}
