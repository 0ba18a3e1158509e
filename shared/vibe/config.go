package vibe

import (
	"encoding/base64"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Structure-aware passes: credentials whose place in a file format or command line, not
// their key name, says they are secret. The key=value forms of INI, TOML, YAML, .env and
// properties files are the keyword-assignment rule's; these cover what it cannot see.
const (
	ruleNetrc      = "netrc-password"
	ruleRegAuth    = "registry-auth" // .npmrc _auth, docker config.json "auth"
	ruleXMLSecret  = "xml-secret"    // <password>…</password>, <add key="…Password" value="…"/>
	ruleK8sSecret  = "kubernetes-secret"
	ruleSQLPass    = "sql-password"
	ruleCLILogin   = "cli-login-password"
	ruleBearer     = "bearer-token"
	rulePathToken  = "url-path-token"
	ruleIDPassword = "id-password-pair"
	rulePassHash   = "password-hash" // crypt(3), bcrypt, argon2, PBKDF2, Kerberos hashes
	ruleNameValue  = "name-value-pair"
	ruleSeedPhrase = "seed-phrase" // a wallet's recovery phrase: its private keys in words
	ruleWalletKey  = "wallet-private-key"
)

var configRules = []extraRule{
	{
		// An Ethereum account's private key (0x and 64 hex digits, a hash's shape too) where code
		// hands it to what signs: new ethers.Wallet("0x…"), viem's privateKeyToAccount,
		// fromPrivateKey, SigningKey, and Hardhat's or Foundry's accounts: ["0x…", …] list
		// (masked whole). A transaction's or a block's hash elsewhere stays.
		id:       ruleWalletKey,
		re:       regexp.MustCompile(`(?:\b(?:Wallet|privateKeyToAccount|fromPrivateKey|privateKeyToAddress|SigningKey|signingKey|fromSecretKey)\s*\(\s*["'\x60](0x[0-9a-fA-F]{64})["'\x60]|\baccounts["']?\s*[:=]\s*\[((?:\s*["'\x60]0x[0-9a-fA-F]{64}["'\x60]\s*,?)+))`),
		keywords: []string{"wallet", "privatekeyto", "fromprivatekey", "signingkey", "fromsecretkey", "accounts"},
	},
	{
		// An interactive prompt's answer echoed after its pointer (Inquirer's and prompts'
		// "? Enter a secret value: › x", "✔ Paste your API token … › x", wrangler secret put):
		// the prompt asks for a secret.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)(?:^|\n)[ \t]*[?✔✓√>][^\n›]{0,100}?(?:password|passphrase|secret|token|api[ _-]?key|access[ _-]?key|credential)[^\n›]{0,60}›[ \t]*([^\s›]{6,400})`),
		keywords: []string{"›"},
	},
	{
		// curl's and wget's config files: user = "name:password", proxy-user = "name:password"
		// (.curlrc). Not a container's user:group or uid:gid (docker-compose's user: "node:node",
		// "1000:1000"): the password differs from the name and holds a digit or a symbol.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?m)^[ \t]*(?:user|proxy-user|proxy_user)[ \t]*[=:][ \t]*"?([^\s":@]{1,64}):([^\s"]{4,200})"?[ \t]*$`),
		group:    2,
		keywords: []string{"user"},
		matchCheck: func(m string) bool {
			_, rest, _ := strings.Cut(m, "=")
			if rest == "" {
				_, rest, _ = strings.Cut(m, ":")
			}
			u, p, ok := strings.Cut(strings.Trim(strings.TrimSpace(rest), `"`), ":")
			return ok && u != p && !isDigits(p) && (hasDigitAndLetter(p) || mixedClasses(p))
		},
	},
	{
		// A wallet's recovery (seed) phrase: twelve to twenty-four lower-case words of three
		// to eight letters under a name for one (Hardhat's accounts: { mnemonic: "…" },
		// MNEMONIC=…, "seed phrase: …"), the wallet's private keys written as BIP-39 words.
		id:       ruleSeedPhrase,
		re:       regexp.MustCompile(`(?i)\b(?:mnemonic|seed[ _-]?phrase|recovery[ _-]?phrase|seed[ _-]?words)["'\x60]?[ \t]*[:=][ \t]*["'\x60]?((?-i:[a-z]{3,8})(?:[ \t]+(?-i:[a-z]{3,8})){11,23})\b`),
		group:    1,
		keywords: []string{"mnemonic", "seed", "recovery"},
		// Not a sentence: the list has almost no function words (the, that, with, their).
		check: func(v string) bool {
			n := 0
			for _, w := range strings.Fields(v) {
				if functionWords[w] {
					n++
				}
			}
			return n < 2
		},
	},
	{
		// Password hashes in the crypt(3) and PHC formats ($6$salt$hash, $2b$12$…,
		// $argon2id$v=19$…), Django's pbkdf2_sha256$…, Kerberos AS-REP and TGS hashes, LDAP
		// and .htpasswd's {SHA}/{SSHA}…: whole, salt included. Offline cracking is what a
		// hash invites.
		id: rulePassHash,
		re: regexp.MustCompile(`(?:\$(?:1|apr1|md5)\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22,}` +
			`|\$2[abxy]?\$\d{2}\$[./0-9A-Za-z]{53}` +
			`|\$[56]\$(?:rounds=\d+\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{43,86}` +
			`|\$[89]\$[./0-9A-Za-z]{14}\$[./0-9A-Za-z]{43}` +
			`|\$(?:y|gy|7)\$[./0-9A-Za-z]{1,}\$[./0-9A-Za-z]{1,}\$[./0-9A-Za-z]{43}` +
			`|\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}` +
			`|\$(?:pbkdf2(?:-sha\d+)?|scrypt)\$[^\s"'<>$]{1,40}\$[./0-9A-Za-z+=]{8,}\$[./0-9A-Za-z+=]{16,}` +
			`|\bpbkdf2_sha(?:1|256)\$\d+\$[A-Za-z0-9]+\$[A-Za-z0-9+/=]{20,}` +
			`|\$krb5(?:asrep|tgs)\$\d+\$[^\s"'<>]{16,}` +
			`|\{(?:SHA|SSHA|SHA256|SSHA256|SHA512|SSHA512|SMD5|MD5|CRYPT)\}[A-Za-z0-9+/.$]{20,}={0,2})`),
		keywords: []string{"$1$", "$apr1$", "$md5$", "$2a$", "$2b$", "$2x$", "$2y$", "$5$", "$6$", "$7$", "$8$", "$9$",
			"$y$", "$gy$", "$argon2", "$pbkdf2", "$scrypt$", "pbkdf2_sha", "$krb5", "{sha", "{ssha", "{smd5", "{md5}", "{crypt}"},
	},
	{
		// An htpasswd file's user:password lines (Apache takes a plaintext password on some
		// platforms): in a text that shows such a file — its name, or a line holding a
		// password hash after a user — every line that is only user:value. The hash lines
		// are the rule above's too.
		id:        rulePassHash,
		re:        regexp.MustCompile(`(?m)^[ \t]*[\w.@-]{1,64}:([^\s:]{4,200})[ \t]*$`),
		group:     1,
		keywords:  []string{".htpasswd", ":$apr1$", ":$2y$", ":{sha}", ":{ssha}", ":$1$"},
		multiline: true,
		check:     htpasswdValue,
	},
	{
		// .netrc: machine host login user password secret (one line or several).
		id:       ruleNetrc,
		re:       regexp.MustCompile(`(?:^|\s)(?:password|passwd|account)\s+("[^"\n]+"|[^\s"]+)`),
		group:    1,
		keywords: []string{"machine "},
		// Not a word of a sentence's grammar: "username and password from ~/.netrc".
		check: func(v string) bool { return !passwordCompound(v) && !functionWords[strings.ToLower(v)] },
		// Nor, after account, a name of code in a sentence that mentions a machine elsewhere
		// ("cross account QueryLineage"): netrc's account is a rare second password.
		matchCheck: func(m string) bool {
			v, ok := strings.CutPrefix(strings.TrimSpace(m), "account")
			v = strings.Trim(strings.TrimSpace(v), `".,;`)
			return !ok || !(isUpperByte(v[0]) && camelWords(v))
		},
	},
	{
		// .npmrc _auth / _password (base64), and //registry/:_authToken= with any key case.
		id:       ruleRegAuth,
		re:       regexp.MustCompile(`(?i)(?:^|[\s:/"])_(?:auth|password|authtoken)\s*=\s*("[^"\n]+"|[^\s"]+)`),
		group:    1,
		keywords: []string{"_auth", "_password"},
		// Not a statement of code: private string _password = new(); (C#'s field).
		check: func(v string) bool { return !strings.HasSuffix(v, ";") && !callLike.MatchString(v) },
	},
	{
		// docker config.json, .dockercfg, k8s .dockerconfigjson: "auth": "base64(user:pass)",
		// "identitytoken", "registrytoken".
		id:       ruleRegAuth,
		re:       regexp.MustCompile(`(?i)\\?"(?:auth|identitytoken|registrytoken|password)\\?"\s*:\s*\\?"([^"\\\n]{8,})\\?"`),
		group:    1,
		keywords: []string{`auth"`, `auth\"`, `token"`, `token\"`, `password"`, `password\"`},
		// Not a translation of the word (a locale's messages: "password": "পাসওয়ার্ড"), nor
		// a package script's command ("auth": "npm run auth:npm && npm run auth:docker").
		check: func(v string) bool { return !messageText(v) && !commandValue(v) },
	},
	{
		// Composer's auth.json: a token per host under github-oauth, gitlab-oauth,
		// gitlab-token or bearer ("github-oauth": {"github.com": "…"}).
		id:       ruleRegAuth,
		re:       regexp.MustCompile(`\\?"(?:github-oauth|gitlab-oauth|gitlab-token|bearer)\\?"\s*:\s*\{\s*\\?"[\w.:-]+\\?"\s*:\s*\\?"([^"\\\n]{8,})\\?"`),
		group:    1,
		keywords: []string{"-oauth", "gitlab-token", `bearer"`, `bearer\"`},
		check:    func(v string) bool { return !placeholderValue(v) },
	},
	{
		// Maven settings.xml, .NET config, Tomcat users, Spring XML: an element or a
		// key/value attribute pair whose name says secret.
		id:         ruleXMLSecret,
		re:         regexp.MustCompile(`(?i)<([\w:.-]*(?:pass|pwd|secret|token|key|cred|auth)[\w.-]*)(?:\s[^>]*)?>([^<\n]{1,400})</[\w:.-]+>`),
		matchCheck: xmlSecretElement,
		group:      2,
		keywords:   []string{"</"},
	},
	{
		// The same value in a CDATA section: <password><![CDATA[Zx8k<q2pL]]></password>.
		id:       ruleXMLSecret,
		re:       regexp.MustCompile(`(?i)<([\w:.-]*(?:pass|pwd|secret|token|key|cred|auth)[\w.-]*)(?:\s[^>]*)?><!\[CDATA\[([^\]\n]{1,400})\]\]></[\w:.-]+>`),
		group:    2,
		keywords: []string{"cdata["},
		matchCheck: func(m string) bool {
			end := strings.IndexAny(m, " \t\n>")
			vs := strings.Index(m, "CDATA[") + len("CDATA[")
			ve := strings.LastIndex(m, "]]>")
			return end > 1 && ve > vs && xmlSecretName(m[1:end], m[vs:ve])
		},
	},
	{
		id:         ruleXMLSecret,
		re:         regexp.MustCompile(`(?i)\b(?:key|name)\s*=\s*"([\w.:-]*(?:pass|pwd|secret|token|key|cred|auth|connectionstring)[\w.:-]*)"\s+(?:value|password)\s*=\s*"([^"\n]{1,400})"`),
		group:      2,
		matchCheck: xmlSecretKey,
		keywords:   []string{"value="},
	},
	{
		// SQL: CREATE/ALTER USER … IDENTIFIED BY x, … WITH [LOGIN] PASSWORD 'x'.
		id:       ruleSQLPass,
		re:       regexp.MustCompile(`(?i)\b(?:create|alter|grant|set)\b[^;\n]{0,120}?\bidentified\s+(?:with\s+[\w]+\s+)?(?:by|as)\s+(?:password\s+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'";\\]+))`),
		keywords: []string{"identified"},
		// Not prose: "a set of objects identified by their unique id", "the scheme identified
		// by name. Only …" (an unquoted word that ends a sentence).
		check: func(v string) bool {
			return !functionWords[strings.ToLower(v)] && !(strings.HasSuffix(v, ".") && isLetters(strings.TrimSuffix(v, ".")))
		},
	},
	{
		id: ruleSQLPass,
		// SQL Server's WITH PASSWORD = 'x' too, and its literal quoted again inside an
		// EXECUTE('… ''x'' …') string (the quotes doubled, twice over when nested).
		re:       regexp.MustCompile(`(?i)\b(?:create|alter)\s+(?:user|role|login)\b[^;\n]{0,80}?\bpassword(?:\s*=\s*|\s+)(?:N?'([^'\n]+)'|''([^'\n]+)''|''''([^'\n]+)''''|"([^"\n]+)"|([^\s'";\\=]+))`),
		keywords: []string{"password"},
		// A bind parameter ($1, :pw, ?) or a variable (@pw) is where the password goes.
		check: func(v string) bool { return v != "?" && strings.IndexByte("$:@", v[0]) < 0 },
		// Not prose: "create user authentication with login, registration, and password
		// reset." (SQL quotes a password; an unquoted English word is the sentence's).
		matchCheck: func(m string) bool { return !unquotedProseWord(m) },
	},
	{
		// SQL Server's sp_addlogin 'login', 'password' (named or by position).
		id:       ruleSQLPass,
		re:       regexp.MustCompile(`(?i)\bsp_addlogin\s+(?:@loginame\s*=\s*)?N?'[^'\n]*'\s*,\s*(?:@passwd\s*=\s*)?N?'((?:[^'\n]|'')+)'`),
		group:    1,
		keywords: []string{"sp_addlogin"},
	},
	{
		// docker|podman|helm|oras … login … -p SECRET (the long form is cli-secret-flag's).
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm|crane|regctl)\b[^\n|;&]{0,120}?\blogin\b[^\n|;&]{0,200}?\s-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))`),
		keywords: []string{"login"},
	},
	{
		// echo SECRET | docker login --password-stdin, echo TOKEN | gh auth login --with-token
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:echo|printf)\s+(?:-n\s+)?(?:'([^'\n]+)'|"([^"\n$][^"\n]*)"|([^\s'"|$]+))\s*\|\s*(?:[^\n]{0,80}--password-stdin|gh\s+auth\s+login\b[^\n|;&]{0,60}--with-token)`),
		keywords: []string{"--password-stdin", "--with-token"},
	},
	{
		// htpasswd -b file user SECRET; mongo/mongosh -p SECRET; ldapsearch -w SECRET;
		// smbclient -U user%SECRET; openssl -passin pass:SECRET; az login -p SECRET.
		// openssl enc -k PASSWORD (the older way to give enc its pass phrase).
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bopenssl\s+enc\b[^\n|;&]{0,160}?\s-k\s+('[^'\n]+'|"[^"\n]+"|[^\s'"-]\S*)`),
		group:    1,
		keywords: []string{"openssl"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bhtpasswd\s+(?:-\w+\s+)*-[a-mo-zA-Z]*b[a-mo-zA-Z]*(?:\s+-\w+)*\s+[^\s-]\S*\s+\S+\s+('[^'\n]+'|"[^"\n]+"|[^\s|&;<>]\S*)`),
		group:    1,
		keywords: []string{"htpasswd"},
	},
	{
		// A password fed to a command that reads it from its input: echo x | sudo -S,
		// sudo -S <<< x, passwd --stdin, and the first line of a heredoc given to sudo -S or
		// passwd --stdin (sudo -S bash <<EOF\nSECRET\n…). mysql -p reads its terminal, not
		// its input: a heredoc after it is SQL.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:echo|printf)\s+(?:-[ne]\s+)?(?:'([^'\n]+)'|"([^"\n$][^"\n]*)"|([^\s'"|$]+))\s*\|\s*(?:sudo\s+(?:-\w+\s+)*-S\b|passwd\s+--stdin|[^\n|]{0,40}\bchpasswd\b)`),
		keywords: []string{"sudo", "passwd"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:sudo\s+(?:-\w+\s+)*-S|passwd\s+--stdin)\b[^\n<]{0,120}<\s{0,6}<\s{0,6}<\s*(?:'([^'\n]+)'|"([^"\n$][^"\n]*)"|([^\s'"$]+))`),
		keywords: []string{"sudo", "passwd"},
	},
	{
		id:        ruleCLILogin,
		re:        regexp.MustCompile(`\b(?:sudo\s+(?:-\w+\s+)*-S\b|passwd\s+--stdin\b)[^\n]{0,120}?<\s{0,6}<-?\s*['"]?(\w+)['"]?[ \t]*\n[ \t]*([^\s][^\n]{0,200})`),
		group:     2,
		keywords:  []string{"sudo", "passwd"},
		multiline: true,
		check:     func(v string) bool { return !strings.HasPrefix(v, "EOF") && !strings.HasPrefix(v, "END") },
	},
	{
		// A here-string fed to a command that takes a secret on its input: vercel env add
		// API_TOKEN production <<< "x", ssh-add - <<< x, docker login --password-stdin <<< x,
		// gh secret set NAME <<< x: the command says secret, login or auth (stdin alone is
		// no secret's: prisma db execute --stdin <<< "SELECT 1;").
		id: ruleCLILogin,
		// (A JSON-escaped < is read as < and blanks: \u003c.)
		re:      regexp.MustCompile(`(?i)(?:^|[\n;&|(])[ \t]*(?:[^\n;&|(<]*?(?:pass|secret|token|key|cred|auth|login|signin|unlock|ssh-add|env\s+add))[^\n;&|(<]*<\s{0,6}<\s{0,6}<[ \t]*(?:'([^'\n]+)'|"([^"\n$][^"\n]*)"|([^\s'"$]+))`),
		anchors: lessThanAnchors("<<"),
		// One character is no secret: a regular expression for a heredoc in a highlighter's
		// grammar (keywords:…,begin:/<<<['"]?\w+['"]?$/) stops the unquoted value at its quote.
		check:      func(v string) bool { return utf8.RuneCountInString(v) > 1 },
		matchCheck: hereStringCommand,
	},
	{
		// A value echoed into a command that stores a secret: echo x | docker secret create
		// NAME -, printf '%s' x | gh secret set NAME, echo x | wrangler secret put NAME.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:echo|printf)\s+(?:-[ne]\s+)?(?:'%s'\s+|"%s"\s+)?(?:'([^'\n]+)'|"([^"\n$][^"\n]*)"|([^\s'"|$]+))\s*\|\s*[^\n|]{0,80}?\bsecrets?\s+(?:create|set|put|add)\b`),
		keywords: []string{"secret"},
	},
	{
		// A Basic credential being made: echo -n 'user:password' | base64.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:echo|printf)\s+(?:-n\s+|-ne\s+)?(?:'[^'\n:%]{1,64}:([^'\n]+)'|"[^"\n:$%]{1,64}:([^"\n$]+)"|[^\s'":$%]{1,64}:([^\s'"|$]+))\s*\|\s*base64\b`),
		keywords: []string{"base64"},
		check:    func(v string) bool { return !strings.HasPrefix(v, "//") }, // a URL, not user:password
	},
	{
		// Java system properties named for a secret: -Djavax.net.ssl.keyStorePassword=x,
		// -Dmaven.password=x, SonarQube's -Dsonar.login=<token> and -Dsonar.token=.
		id:       ruleCLIFlag,
		re:       regexp.MustCompile(`(?i)(?:^|\s)-D[\w.-]*(?:password|passwd|pwd|passphrase|token|secret|api[._-]?key|credentials?|sonar\.login)=(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"$][^\s'"]*))`),
		keywords: []string{"-d"},
		anchors:  wordAnchors(" -D", "\t-D", "\n-D"),
	},
	{
		// Tools that take a token or a password as a positional argument or a short flag,
		// as facts: cargo login TOKEN, consul acl set-agent-token TYPE TOKEN, net user NAME
		// PASSWORD, htpasswd -nb USER PASSWORD, codecov -t TOKEN, doctl auth init -t TOKEN.
		id:      ruleCLILogin,
		re:      regexp.MustCompile(`\bcargo\s+login\s+(?:--registry[ =]\S+\s+)?([^\s-]\S{11,})`),
		group:   1,
		literal: "cargo",
	},
	{
		id:      ruleCLILogin,
		re:      regexp.MustCompile(`\bconsul\s+acl\s+set-agent-token\s+(?:-\S+\s+)*\S+\s+([^\s-]\S{7,})`),
		group:   1,
		literal: "set-agent-token",
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)\bnet\s+user\s+(?:"[^"\n]+"|[^\s/"]+)\s+(?:"([^"\n]+)"|([^\s/*"|&<>][^\s]*))`),
		keywords: []string{"net user"},
		anchors:  wordAnchors("net user", "NET USER", "Net user"),
	},
	{
		// wpa_passphrase SSID PASSPHRASE: a Wi-Fi network's passphrase, the last argument (so
		// that the command's words unquoted, "Home Net" as two, give no match).
		id:      ruleCLILogin,
		re:      regexp.MustCompile(`(?m)\bwpa_passphrase[ \t]+(?:\\*"[^"\n]+?\\*"|'[^'\n]+'|[^\s"']+)[ \t]+(?:\\*"([^"\n\\]+)\\*"|'([^'\n]+)'|([^\s|&;<>"'\\]+))[ \t]*(?:$|[|&;>\\"])`),
		literal: "wpa_passphrase",
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bhtpasswd\s+(?:-\w+\s+)*-(?:\w*n\w*b|\w*b\w*n)\w*\s+\S+\s+('[^'\n]+'|"[^"\n]+"|\S+)`),
		group:    1,
		keywords: []string{"htpasswd"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:codecov|doctl\s+auth\s+init)\b[^\n|;&]{0,80}?\s-t(?:[ =][ \t]*)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-]\S*))`),
		keywords: []string{"codecov", "doctl"},
	},
	{
		// A password file given as a process substitution: --password-file=<(echo x).
		id:      ruleCLILogin,
		re:      regexp.MustCompile(`(?i)-[\w-]*(?:pass|secret|token|key|cred)[\w-]*[= ]\s{0,6}<\s{0,6}\(\s*(?:echo|printf)\s+(?:-n\s+)?(?:'([^'\n]+)'|"([^"\n$][^"\n]*)"|([^\s'")$]+))\s*\)`),
		anchors: lessThanAnchors("<("),
	},
	{
		// ssh-keygen -N new / -P old passphrase; gh secret set NAME --body SECRET; mc alias set
		// NAME URL ACCESS SECRET; net use DRIVE SHARE SECRET /user:NAME.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bssh-keygen\b[^\n|;&]{0,120}?\s-[NP]\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"ssh-keygen"},
	},
	{
		// The other of the two (ssh-keygen -p -P old -N new: the match above ends at the first).
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bssh-keygen\b[^\n|;&]{0,120}?\s-[NP]\s*(?:'[^'\n]*'|"[^"\n]*"|[^\s'"-][^\s'"]*)[^\n|;&]{0,120}?\s-[NP]\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"ssh-keygen"},
	},
	{
		// Network devices' configurations: Cisco's password/secret with its type (username
		// admin password 0 x, enable secret 5 $1$…, key 7 0822…), SNMP community strings
		// (snmp-server community x RO, net-snmp's rocommunity x), Junos's
		// plain-text-password-value x.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?m)(?:(?:^|[ \t])(?:password|secret|key)[ \t]+[0-9][ \t]+|\bsnmp-server[ \t]+community[ \t]+|^[ \t]*r[ow]community6?[ \t]+|\bplain-text-password-value[ \t]+)(?:"([^"\n]+)"|([^\s"]{4,200}))`),
		keywords: []string{"password", "secret", "key", "community", "plain-text-password"},
		anchors:  networkConfigAnchors,
		check: func(v string) bool {
			return len(v) >= 4 && !placeholderValue(v) && notProseWord(v) && v != "public" && v != "private"
		},
	},
	{
		// Redis's AUTH [user] SECRET, typed at redis-cli's prompt (127.0.0.1:6379> AUTH x) or
		// given to it as a command (redis-cli -h h AUTH default x), on a line of its own.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?m)(?:^[ \t]*|[\w.-]+:\d{2,5}(?:\[\d+\])?> ?|\bredis-cli\b[^\n|;&]{0,120}?\s)AUTH[ \t]+(?:[^\s'"]+[ \t]+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))[ \t]*$`),
		keywords: []string{"auth"},
		anchors:  wordAnchors("AUTH ", "AUTH\t"),
		// Not a word (AUTH failed) nor an SMTP mechanism (AUTH LOGIN, AUTH CRAM-MD5).
		check: func(v string) bool {
			return len(v) >= 4 && notProseWord(v) && strings.ToUpper(v) != v
		},
	},
	{
		// rabbitmqctl add_user NAME SECRET, rabbitmqctl change_password NAME SECRET.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\brabbitmqctl\b(?:\s+-\S+(?:\s+[^\s-]\S*)?)*\s+(?:add_user|change_password)\s+(?:'[^'\n]+'|"[^"\n]+"|[^\s'"-]\S*)\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"rabbitmqctl"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bgh\s+secret\s+set\b[^\n|;&]{0,120}?\s(?:--body|-b)(?:[ =][ \t]*)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"gh secret"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bmc\s+(?:alias\s+set|config\s+host\s+add)\s+\S+\s+\S+\s+\S+\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"mc alias", "mc config"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)\bnet\s+use\s+(?:[a-z]:\s+|\*\s+)?\\\\\S+\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"/*][^\s'"]*))[^\n]{0,80}/user:`),
		keywords: []string{"net use"},
		anchors:  wordAnchors("net use", "NET USE", "Net use"),
	},
	{
		// net use SHARE /user:NAME SECRET: the password after the account, as often written.
		// The share may cross a line break of the rules' view: \\nas reads as an escaped
		// line break there.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)\bnet\s+use\b[^|&]{0,200}?/user:\S+[ \t]+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"/*][^\s'"]*))`),
		keywords: []string{"net use"},
	},
	{
		// HTTPie and xh: http -a user:SECRET, https --auth=user:SECRET.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:https?|xhs?)\s+(?:[^\n|;&]{0,120}?\s)?(?:-a|--auth)[ =]['"]?[^\s:'"]{1,100}:([^\s'"]{1,200})`),
		group:    1,
		keywords: []string{"-a", "--auth"},
		anchors:  wordAnchors("http ", "https ", "xh ", "xhs "),
	},
	{
		// An expect script answering a password prompt: expect "password:" then send "SECRET\r".
		id:        ruleCLILogin,
		re:        regexp.MustCompile(`(?i)\bexpect\s+(?:-\w+\s+)*[^\n]{0,80}?(?:password|passphrase|passcode|pin)[^\n]{0,40}\n[ \t]*(?:exp_)?send\s+(?:-\w+\s+)*(?:"([^"\n\\$\[]+)(?:\\[rn])*"|\{([^}\n$\[]+?)(?:\\[rn])*\})`),
		keywords:  []string{"send"},
		multiline: true,
	},
	{
		// XML elements whose key or name attribute says secret, the value their text:
		// <entry key="password">x</entry> (Java properties XML), <setting name="ApiKey">x</setting>.
		id:       ruleXMLSecret,
		re:       regexp.MustCompile(`(?i)<[\w:.-]+\s+(?:key|name)\s*=\s*["'][\w.:-]*(?:pass|pwd|secret|token|api_?key|credential|private_?key)[\w.:-]*["'][^>]{0,80}>([^<\n]{1,400})</`),
		group:    1,
		keywords: []string{"key=", "name="},
		// Not a C# documentation comment's tag (/// <param name="token">The token.</param>,
		// <paramref name="cancellationToken"/> is signaled.): it describes a parameter.
		matchCheck: func(m string) bool {
			end := strings.IndexAny(m, " \t\n")
			gt := strings.IndexByte(m, '>')
			return end > 1 && !xmlDocTags[strings.ToLower(m[1:end])] && gt > 0 && m[gt-1] != '/'
		},
	},
	{
		// A secret set through a tool's config command: aws configure set
		// aws_secret_access_key x, npm config set //host/:_authToken x, dotnet user-secrets
		// set Api:Key x, git config --global github.token x. The name must say secret.
		id:         ruleCLILogin,
		re:         regexp.MustCompile(`\b(?:configure\s+set|config\s+(?:--\S+\s+)*set|user-secrets\s+set|config)\s+(?:--\S+\s+)*(?:[\w.:/@-]+)[ \t=]+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		group:      0,
		keywords:   []string{"config"},
		matchCheck: configSetSecret,
		anchors:    wordAnchors("config", "user-secrets"),
	},
	{
		// A user and a password passed side by side to what logs in: login("admin", "x"),
		// HTTPBasicAuth('admin', 'x'), auth=('admin', 'x'), new NetworkCredential("u", "x"):
		// the literal after the user's is the password (calls whose password has a fixed
		// position, DirectoryEntry(path, "u", "x"), are credential-call's, calls.go). A host
		// may come first: Login("github.com", "u", "x"), where "u" is no password.
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`(?i)\b[\w.]*(?:login|log_in|signin|sign_in|logon|authenticate|auth|credentials?|credential|connect)\w*\s*(?:=\s*)?[(\[]\s*(?:[^()"'\n]{1,80},\s*|["'][\w-]+(?:\.[\w-]+)+["']\s*,\s*)?["']([^"'\n]{1,80})["']\s*,\s*["']([^"'\n]{4,200})["']\s*[),\]]`),
		group:    2,
		keywords: []string{"login", "log_in", "signin", "sign_in", "logon", "auth", "credential", "connect"},
		anchors:  wordAnchors(`", "`, `', '`, `","`, `','`, `" , "`, `" ,  "`), // the last: \"u\", \"x\" seen through escapeView
		check: func(v string) bool {
			// (digest_auth_algo = ("MD5", "SHA-256", "SHA-512"): algorithms, not a user and a password;
			// _AWS_SIGNING_HEADERS = ("authorization", "x-amz-content-sha256", …): headers' names)
			return (hasDigitAndLetter(v) || mixedClasses(v)) && !strings.HasPrefix(v, "/") && !strings.Contains(v, "://") && !strings.ContainsAny(v, " \t") && !algorithmIdentifier(v) && !extensionHeaderName(v)
		},
		// oauth2.SetAuthURLParam("code_challenge_method", "S256"), auth.add_header("X-Tenant",
		// "…"): a parameter's or a header's name and its value, no user and password
		matchCheck: func(m string) bool {
			call := strings.ToLower(m[:strings.IndexAny(m, "([")])
			return !strings.Contains(call, "param") && !strings.Contains(call, "header")
		},
	},
	{
		// user:password after a word for credentials: "credentials admin:x", "login
		// deploy:x", "basic auth: bob:x". Not a port (host:8080) nor a path.
		id: ruleIDPassword,
		// (with|as|using between the word and the pair: "Login with admin:x").
		re:       regexp.MustCompile(`(?i)\b(?:credentials?|creds|login|basic[ -]?auth|auth)\b\s*[:=]?\s+(?:(?:with|as|using)\s+)?["'\x60]?[\w.@+-]{1,64}:([^\s:@"'\x60]{4,128})["'\x60]?(?:[\s,;.)]|$)`),
		group:    1,
		keywords: []string{"cred", "login", "auth"},
		anchors:  colonPairAnchors,
		check: func(v string) bool {
			// (remote auth git@github.com:illuminate/auth.git: a repository's path)
			return notProseWord(v) && !isDigits(v) && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") && !strings.HasPrefix(v, "\\") && !strings.HasSuffix(v, ".git")
		},
	},
	{
		// The pair set apart by a slash: "default credentials: admin / x", "login: root / x".
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`(?i)\b(?:credentials?|creds|login)\b\s*[:=]?\s+(?:(?:with|as|using)\s*:?\s+)?["'\x60]?[\w.@+-]{1,64}["'\x60]?\s+/\s+["'\x60]?([^\s"'\x60]{4,128})`),
		group:    1,
		keywords: []string{"cred", "login"},
		anchors:  wordAnchors(" / "),
		check:    func(v string) bool { return notProseWord(v) && !strings.HasPrefix(v, "/") && hasDigitAndLetter(v) },
	},
	{
		// An element named for a secret holding it in a value attribute: <Password value="x"/>.
		id:       ruleXMLSecret,
		re:       regexp.MustCompile(`(?i)<[\w:.-]*(?:password|passwd|pwd|secret|token|apikey|api_key|credential)[\w:.-]*\s+(?:[\w:-]+\s*=\s*"[^"]*"\s+)*value\s*=\s*"([^"\n]{1,400})"`),
		group:    1,
		keywords: []string{"value"},
	},
	{
		// Keys that say which mode they are for, as Stripe's do and many payment and API
		// services copy (sk_live_…, ak_test_…, api_prod_…): a short prefix, the mode, and a
		// generated body.
		id:       ruleFormat,
		re:       regexp.MustCompile(`\b[a-z][a-z0-9]{1,7}_(?:live|test|prod|sandbox)_([A-Za-z0-9]{20,200})\b`),
		group:    1,
		keywords: []string{"_live_", "_test_", "_prod_", "_sandbox_"},
		anchors:  wordAnchors("_live_", "_test_", "_prod_", "_sandbox_"),
		check:    credentialValue,
		// Not a Stripe Checkout Session's id (cs_test_a1B2…): it names the session in the
		// checkout page's URL and the API's responses, where the keys are sk_, rk_ and whsec_.
		matchCheck: func(m string) bool { return !strings.HasPrefix(m, "cs_") },
		whole:      true,
	},
	{
		// poetry config http-basic.REPO user SECRET (pip, uv and pdm read the same).
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bconfig\s+(?:--\S+\s+)*http-basic\.[\w.-]+\s+\S+\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-]\S*))`),
		keywords: []string{"http-basic."},
	},
	{
		// A value echoed into base64 to be put in a Secret or a header: echo -n 'x' | base64
		// (not what base64 -d decodes: that is the encoded side, read by the encoded rule).
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\becho\s+(?:-[ne]+\s+)*(?:'([^'\n]{6,200})'|"([^"\n$\x60]{6,200})"|([^\s'"|$;&\x60]{6,200}))\s*\|\s*(?:base64|openssl\s+base64|openssl\s+enc\s+-base64)\b[^|;&\n]{0,20}`),
		keywords: []string{"base64"},
		matchCheck: func(m string) bool {
			_, tail, _ := strings.Cut(m[strings.LastIndex(m, "|"):], "base64")
			return !strings.Contains(tail, "-d") && !strings.Contains(tail, "-D")
		},
		check: func(v string) bool {
			// user:password is the Basic credential rule's, which keeps the user
			// (echo 'return true' | base64 -w 0: words, code encoded for a setting)
			return notProseWord(v) && !placeholderValue(v) && !strings.Contains(v, ":") && !(strings.Contains(v, " ") && lowerWordsValue(v))
		},
	},
	{
		// composer config github-oauth.HOST TOKEN (gitlab-oauth, gitlab-token, bearer), poetry
		// config pypi-token.REPO TOKEN.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bconfig\s+(?:-\S+\s+)*(?:github-oauth|gitlab-oauth|gitlab-token|bearer|pypi-token)\.[\w.-]+\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-]\S*))`),
		keywords: []string{"github-oauth.", "gitlab-oauth.", "gitlab-token.", "bearer.", "pypi-token."},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|az|keytool|jarsigner)\b[^\n|;&]{0,200}?\s(?:-p|-storepass|-keypass|-srcstorepass|-deststorepass)\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"mongo", "az ", "keytool", "jarsigner"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bldap\w*\b[^\n|;&]{0,200}?\s-w\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))`),
		keywords: []string{"ldap"},
	},
	{
		// Archive passwords: zip/unzip -P secret, 7z/rar/unrar -psecret; openssl enc -k
		// secret or -K <hex key>; sqlplus/imp/exp user/secret@db; lftp -u user,secret;
		// Windows tools' /p:secret, /password:secret (xfreerdp, wmic, net use).
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:zip|unzip|7z|7za|7zr|rar|unrar)\b[^\n|;&]{0,120}?\s-(?:P\s+|p)([^\s'"-][^\s'"]*|'[^'\n]+'|"[^"\n]+")`),
		group:    1,
		keywords: []string{"zip", "7z", "rar"},
		check:    notPortOrURL,
		anchors:  wordAnchors(" -P", " -p"),
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\bopenssl\b[^\n|;&]{0,200}?\s-[kK]\s+([^\s'"-][^\s'"]*)`),
		group:    1,
		keywords: []string{"openssl"},
		anchors:  wordAnchors("openssl"),
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\b(?:sqlplus|impdp|expdp|rman)\s+(?:-\w+\s+)*[A-Za-z_][\w$#]*/([^\s@/'"]+)(?:@|\s|$)`),
		group:    1,
		keywords: []string{"sqlplus", "impdp", "expdp", "rman"},
		anchors:  wordAnchors("sqlplus", "impdp", "expdp", "rman"),
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\blftp\b[^\n|;&]{0,100}?\s-u\s*['"]?[^\s,'"]+,([^\s'"]+)`),
		group:    1,
		keywords: []string{"lftp"},
		anchors:  wordAnchors("lftp"),
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)(?:^|\s)/(?:p|pass|password|pwd):(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))`),
		keywords: []string{"/p:", "/pass:", "/password:", "/pwd:"},
		// msbuild /p:Configuration=Release sets a property.
		check: func(v string) bool { return !strings.HasPrefix(v, "/") && !strings.ContainsAny(v, "=:") },
	},
	{
		// Windows tools' key material in hex after a slash option (mimikatz's /masterkey:,
		// /ntlm:, /rc4:, /aes128:, /aes256:, /key:): an NTLM hash or a Kerberos key logs in
		// as well as the password it came from.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)(?:^|\s)/(?:masterkey|key|ntlm|rc4|aes128|aes256|des|krbtgt)[:=]([0-9a-f]{16,256})\b`),
		group:    1,
		keywords: []string{"/masterkey", "/key", "/ntlm", "/rc4", "/aes128", "/aes256", "/des", "/krbtgt"},
		check:    func(v string) bool { return hasDigitAndLetter(v) && !placeholderValue(v) },
	},
	{
		// A command given an account and a password as -u user -p secret (psexec, and the
		// many tools that follow it) or -U user -P secret (sqlcmd, bcp, isql). -p as a port
		// (docker run -u 1000 -p 8080:80, psql -p 5432) is a number.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?:\s-u\s*\S+\s+(?:[^-\s]\S*\s+|-\w\s+[^-\s]\S*\s+){0,3}-p|\s-U\s*\S+\s+(?:[^-\s]\S*\s+|-\w\s+[^-\s]\S*\s+){0,3}-P)[ \t]+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"-p"},
		check:    notPortOrURL,
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`\s-U\s+['"]?[^\s%'"]+%([^\s'"]+)`),
		group:    1,
		keywords: []string{"-u"},
	},
	{
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`-pass(?:in|out|word)?\s+(?:['"]?pass:([^\s'"]+)|pass:"([^"\n]+)"|pass:'([^'\n]+)')`),
		keywords: []string{"pass:"},
	},
	{
		// Credentials written out in documentation and chat: "ID/PW: master / Xy7pass99",
		// "user/password admin/Pa55word", "id(pw) root(Secret12)".
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`(?i)\b(?:id|user(?:name)?|login|account|계정|아이디)\s*[/(,]\s*(?:pa[as]sw\w*|pswd|pwd?|pw|p/w|비밀번호|비번)\)?(?:\s*->\s*|[ =:)(/]{1,8}|\s+is\s+|\s+are\s+)\(?[\w.@-]{2,64}[ :(/"',]{1,8}([^\s)"',]{4,64})`),
		group:    1,
		keywords: []string{"/pw", "/pass", "/pwd", "/psw", "/p/w", "(pw", "(pass", ",pw", ", pw", "/ pw", "/ pass", "/비", "(비"},
		// Not a sentence's next words ("username/password authentication failed", "login/
		// password was specified": a noun and a participle, or a function word where the
		// account goes)
		// nor a variable's path ("the username/password from $HOME/.pypirc"), nor the
		// names of another pair ("username/password OR privateKey/passphrase").
		check: func(v string) bool {
			return v[0] != '$' && !secretNamePair(v) && !functionWords[strings.ToLower(v)] && !routeTemplate(v)
		},
		matchCheck: func(m string) bool { return idPairAccount(m) && !proseIDPair(m) },
	},
	{
		// "the password is Xy7pass99", "token was: abc123DEF": the value after is/was needs a
		// digit or symbol, which prose words lack.
		id: ruleIDPassword,
		// With the account it belongs to in between: "the password for root is x", "Password
		// for admin: x", "the token of the bot was x".
		re:       regexp.MustCompile(`(?i)\b(?:[\w-]*(?:password|passwd|passphrase|pwd|pw|pswd|passcode|secret|token|credential|api[ _-]?key|access[ _-]?key|private[ _-]?key|_key|_pass|_auth)|pin|pass|auth|authorization)s?["'\x60]?(?:[ \t]+(?:for|of)[ \t]+(?:the[ \t]+)?["'\x60]?[\w.@\\/-]{1,64}["'\x60]?(?:[ \t]+[\w.@-]{1,32}){0,2}[ \t]*:[ \t]*|\s+(?:(?:for|of)[ \t]+(?:the[ \t]+)?["'\x60]?[\w.@\\/-]{1,64}["'\x60]?(?:[ \t]+(?:user|account))?[ \t]+)?(?:(?:is|are)\s+now|is|are|was|were|will\s+be|should\s+be|must\s+be|(?:has\s+been\s+|was\s+|is\s+)?(?:set|changed|reset|updated)\s+to)\s*[:-]?\s+)["'\x60]?([^\s"'\x60]{4,64})`),
		group:    1,
		keywords: []string{" is", " are", " was", " were", " will be", " should be", " must be", "set to", "changed to", "reset to", "updated to", " for ", " of "},
		// Not a path nor what follows a URL's scheme: git's prompt Password for
		// 'https://bot@github.com': has no value.
		// Nor a qualified name of code: "the next token is token.CHAN", "private key is
		// *ed25519.PrivateKey".
		check: func(v string) bool {
			return v[0] != '/' && v[0] != '\\' && !qualifiedName(v) && !expansionMessageEnd(v) && !proseModifier(v) && !markdownLink(v) && !specID.MatchString(v) && !wordAlternatives(v) && !closedProseWord(v) && !proseDecimal.MatchString(v) && !wordBeforeTag(v) && !encodingAdjective(v)
		},
		matchCheck: proseNamedValue,
		anchors:    secretWordBeforeIs,
	},
	{
		// A prompt's answer echoed on its line: "? Enter a secret value: x" (wrangler secret
		// put), "Enter the API token: x", "Paste your access key > x"; the answer needs a digit
		// or a symbol, which a sentence's next word lacks. (Not "type": docstrings' ":type
		// password: L{unicode}" name a parameter's type.)
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`(?i)\b(?:enter|paste|provide)\s+(?:(?:a|an|the|your)\s+)?(?:new\s+)?(?:[\w-]+\s+)?(?:secret|password|passphrase|token|api[ _-]?key|access[ _-]?key)(?:\s+value)?\s*[:>]\s*([^\s"'\x60]{4,200})`),
		group:    1,
		keywords: []string{"enter", "paste", "provide"},
		check:    func(v string) bool { return notProseWord(v) && v[0] != '$' && v[0] != '/' && !qualifiedName(v) },
	},
	{
		// The same in Chinese: 密码是 x, 密码为：x, 密钥是 x, 令牌为 x (password, key, token
		// "is"); the value needs a digit or a symbol, as above.
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`(?:密码|口令|密钥|令牌|秘钥)(?:是|为|就是)\s*[:：]?\s*["'“「]?([^\s"'”」，。,]{4,64})`),
		group:    1,
		keywords: []string{"密码", "口令", "密钥", "令牌", "秘钥"},
		check: func(v string) bool {
			return (hasDigitAndLetter(v) || mixedClasses(v)) && !placeholderValue(v)
		},
	},
	{
		// The verb before the name: "I set the password to Xk4mR9qLw2", "changed the admin
		// password to …", "rotate the API key to …"; the value needs a digit or a symbol.
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`(?i)\b(?:set|change|changed|reset|update|updated|rotate|rotated)\s+(?:the\s+|your\s+|my\s+|its\s+|their\s+|our\s+)?(?:[\w-]+\s+)?(?:password|passphrase|passcode|pin|secret|token|api[ _-]?key)\s+to\s+["'\x60]?([^\s"'\x60]{4,64})`),
		group:    1,
		keywords: []string{"set ", "change", "reset ", "update", "rotate"},
		check: func(v string) bool {
			v = strings.TrimRight(v, ".,;:!?)")
			// (update the pin to `>=0.37.2,<0.39.0`: a version's bounds)
			return notProseWord(v) && !isDigits(v) && v[0] != '$' && v[0] != '/' && !qualifiedName(v) && !identifierWords(v) && !versionBounds.MatchString(strings.Trim(v, "`'\""))
		},
	},
	{
		// A bearer token anywhere, not only in an Authorization header. The credential is
		// the run of non-blank characters after the scheme (RFC 6750's token68 and, as
		// people write them, passwords with symbols: Bearer at5G6zi!m).
		id:       ruleBearer,
		re:       regexp.MustCompile(`(?i)\b(?:bearer|ntlm|negotiate)[ \t]+([^\s"'\x60,;<>]{5,399}[^\s"'\x60,;<>.:)\]}])(?:\.\.\.|…)?`),
		group:    1,
		keywords: []string{"bearer", "ntlm", "negotiate"},
		check:    bearerCredential,
		// A token cut short on purpose (Bearer sk-ant-api03-...) shows only its prefix.
		matchCheck: func(m string) bool { return !strings.Contains(m, "...") && !strings.Contains(m, "…") },
		extend:     tokenRunEnd,
	},
	{
		// A bearer credential of words (Bearer dev_admin, Bearer open-sesame) where a header
		// is meant: after Authorization, -H, "header".
		id:       ruleBearer,
		re:       regexp.MustCompile(`(?i)(?:authorization|header|-H)[^\n]{0,40}?\bbearer[ \t]+([A-Za-z][A-Za-z_-]{4,62}[A-Za-z])(?:[\s"'\x60,;]|\.(?:\s|$)|$)`),
		group:    1,
		keywords: []string{"bearer"},
		check:    bearerWords,
		anchors:  wordAnchors("Bearer", "bearer", "BEARER"),
	},
	{
		// Basic credentials anywhere: base64 of user:password.
		id:       ruleBearer,
		re:       regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})`),
		group:    1,
		keywords: []string{"basic"},
		check:    basicCredentials,
	},
	{
		// PowerShell: ConvertTo-SecureString [-String] "x" -AsPlainText.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`(?i)ConvertTo-SecureString(?:\s+-(?:String|AsPlainText|Force))*\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"-][^\s'"]*))`),
		keywords: []string{"convertto-securestring"},
	},
	{
		// skopeo/podman --creds user:secret, --src-creds, --dest-creds.
		id:       ruleCLILogin,
		re:       regexp.MustCompile(`--(?:src-|dest-)?creds[ =]['"]?[^\s:'"]+:([^\s'"]+)`),
		group:    1,
		keywords: []string{"creds"},
	},
	{
		// SET PASSWORD [FOR user] = 'x' / PASSWORD('x').
		id:       ruleSQLPass,
		re:       regexp.MustCompile(`(?i)\bset\s+password\s+(?:for\s+\S+\s*)?=\s*(?:password\s*\(\s*)?(?:'([^'\n]+)'|"([^"\n]+)")`),
		keywords: []string{"set password"},
	},
	{
		// .pgpass: host:port:database:user:password, a line of its own or quoted in a
		// command or a string (echo 'host:5432:db:user:x' >> ~/.pgpass, "DB": "host:…:x").
		id:         ruleNetrc,
		re:         regexp.MustCompile(`(?:^|["'\s=>])[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:[\w.*@-]+:([^\s"']+)`),
		group:      1,
		anchors:    pgpassLines,
		matchCheck: pgpassFields,
		check:      hasAlnum, // *:*:*:*: a wildcard's fields
	},
	{
		// A table row: | password | Xy7pass99 |
		id: ruleIDPassword,
		// A value with blanks is one when a word of it is generated (| DB_PASSWORD | Zx8k q2pL… |).
		re:       regexp.MustCompile(`(?i)\|[ \t]*(?:[\w -]*(?:password|passwd|pwd|pw|passphrase|secret|token|api[ _-]?key|credentials?))[ \t]*\|[ \t]*\x60?([^|\s\x60](?:[^|\x60\n]{2,126}[^|\s\x60])?)\x60?[ \t]*\|`),
		group:    1,
		keywords: []string{"|"},
		check:    tableCellSecret,
		matchCheck: func(m string) bool {
			return !nameAlternation(m) && !keyFileCell(m) && !renamedCell(m) && !regexGroupCell(m)
		},
	},
	{
		// Any table row whose name cell names a secret for its value cell, the name decided as
		// a key name is: | signing_key | <64 hex> |, | ftp_pass | hunter2 |.
		id:       ruleIDPassword,
		re:       regexp.MustCompile(`\|[ \t]*([\w .-]{2,60}?)[ \t]*\|[ \t]*\x60?([^|\s\x60]{4,128})\x60?[ \t]*\|`),
		group:    2,
		keywords: []string{"|"},
		// (| Token Introspection | `lib/…/token_introspection.rb` |, | JWT Token support |
		// [org/repo](https://…) |: a file's path, a link)
		matchCheck: func(m string) bool { return tableNamedValue(m) && !renamedCell(m) && !keyFileCell(m) && !linkCell(m) },
		anchors:    tableRowAnchors,
	},
	{
		// Passwords named in other languages: 비밀번호: x, Passwort = x, пароль: x.
		id: ruleIDPassword,
		// Also Portuguese, Dutch, Polish, Turkish, Swedish, Finnish, Czech, Slovak, Vietnamese,
		// Italian, Danish and Norwegian.
		re:    regexp.MustCompile(`(?i)(?:비밀번호|비번|패스워드|암호|passwort|kennwort|contraseña|mot de passe|пароль|密码|口令|パスワード|senha|wachtwoord|hasło|haslo|şifre|sifre|lösenord|salasana|heslo|mật khẩu|mat khau|parola|adgangskode|passord)\s*(?:설정은|은|는|:|=|：|is)\s*["']?([^\s"'，,)]{4,64})`),
		group: 1,
		keywords: []string{"비", "패", "암", "passwort", "kennwort", "contrase", "mot de passe", "пароль", "密", "口令", "パス",
			"senha", "wachtwoord", "hasło", "haslo", "şifre", "sifre", "lösenord", "salasana", "heslo", "khẩu", "khau", "parola", "adgangskode", "passord"},
		check: notProseWord,
	},
	{
		// Chat and CI webhooks: Slack, Discord, Microsoft Teams / Power Automate, Mattermost,
		// Google Chat, Zapier, IFTTT, PagerDuty, Telegram bot URLs, and any /hooks/<token>.
		id:      ruleWebhook,
		whole:   true,
		re:      regexp.MustCompile(`(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{16,})`),
		group:   1,
		literal: "hooks.slack.com",
	},
	{
		id:       ruleWebhook,
		whole:    true,
		re:       regexp.MustCompile(`(?i)(?:https?://)?(?:[\w-]+\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/([0-9]{5,30}/[A-Za-z0-9_-]{20,})`),
		group:    1,
		keywords: []string{"webhooks/"},
	},
	{
		id:       ruleWebhook,
		whole:    true,
		re:       regexp.MustCompile(`(?i)(?:https?://)?(?:[\w-]+\.)?(?:webhook\.office\.com|outlook\.office(?:365)?\.com)/(?:webhookb2|webhook)/([A-Za-z0-9@/_.-]{20,})`),
		group:    1,
		keywords: []string{"office"},
	},
	{
		// Any /hooks/<token>, /webhook/<token>, /build_hooks/<token>, /deliver/<token>:
		// Mattermost, Rocket.Chat, Zapier, Feishu, Buildkite, Netlify, Vercel deploy hooks.
		id:       ruleWebhook,
		whole:    true,
		re:       regexp.MustCompile(`(?i)(?:https?://[^\s/"'<>]+)?/(?:hooks?|webhooks?|build_hooks|deliver|deploy)/(?:catch/|v\d+/)?((?:[A-Za-z0-9_-]{6,}/)*[A-Za-z0-9_-]{16,})`),
		group:    1,
		keywords: []string{"hook", "deliver/", "deploy/"},
		check:    webhookToken,
	},
	{
		// Zapier's catch hooks: an account number and a short token.
		id:      ruleWebhook,
		whole:   true,
		re:      regexp.MustCompile(`(?:https?://)?hooks\.zapier\.com/hooks/catch/([0-9]{3,12}/[A-Za-z0-9]{4,})`),
		group:   1,
		literal: "hooks.zapier.com",
	},
	{
		// A webhook URL that carries its credential in the query (AppVeyor's ?id=, a
		// hook's ?key=, ?code= of an Azure Function): the path says hook, the value is long.
		id:       ruleWebhook,
		whole:    true,
		re:       regexp.MustCompile(`(?i)https?://[^\s/"'<>]+/[^\s?"'<>]*hook[^\s?"'<>]*\?(?:[^\s"'<>#]*&)?(?:id|key|token|secret|code|sig|signature|auth)=([A-Za-z0-9_%.~+-]{12,})`),
		group:    1,
		keywords: []string{"hook"},
		check:    func(v string) bool { return hasDigitAndLetter(v) && !placeholderValue(v) },
		anchors:  wordAnchors("hook", "Hook", "HOOK"),
	},
	{
		id:       ruleWebhook,
		whole:    true,
		re:       regexp.MustCompile(`(?i)(?:https?://)?maker\.ifttt\.com/(?:trigger/[\w-]+/(?:json/)?with/)?key/([A-Za-z0-9_-]{16,})`),
		group:    1,
		keywords: []string{"ifttt"},
	},
	{
		id:       ruleWebhook,
		whole:    true,
		re:       regexp.MustCompile(`(?i)(?:https?://)?events\.pagerduty\.com/integration/([a-f0-9]{32})`),
		group:    1,
		keywords: []string{"pagerduty"},
	},
	{
		id:      ruleWebhook,
		whole:   true,
		re:      regexp.MustCompile(`(?:https?://[^\s/"'<>]+)?/bot([0-9]{6,12}:[A-Za-z0-9_-]{30,})`),
		group:   1,
		literal: "/bot",
	},
	// Services that put a device's or a check's credential in the URL path: ThingsBoard's
	// device API (/api/v1/<access token>/telemetry, on any host: it is self-hosted too),
	// Blynk's legacy cloud (blynk-cloud.com/<auth token>/…), Healthchecks pings
	// (hc-ping.com/<uuid>). The token alone is masked; the host and the path stay.
	{
		id:      rulePathToken,
		re:      regexp.MustCompile(`/api/v1/([A-Za-z0-9_-]{8,128})/(?:telemetry|attributes|rpc|claim|firmware|software)`),
		group:   1,
		literal: "/api/v1/",
		check:   func(v string) bool { return hasDigitAndLetter(v) && !placeholderValue(v) },
	},
	{
		id:       rulePathToken,
		re:       regexp.MustCompile(`(?i)blynk-cloud\.com(?::\d+)?/([A-Za-z0-9_-]{20,64})/`),
		group:    1,
		keywords: []string{"blynk-cloud.com"},
	},
	{
		id:       rulePathToken,
		re:       regexp.MustCompile(`(?i)hc-ping\.com/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{22}/)`),
		group:    1,
		keywords: []string{"hc-ping.com"},
	},
	{
		// conda's channel token, a path segment after /t/ (https://conda.anaconda.org/t/<token>/
		// conda-forge/…): on Anaconda's hosts, or on any host or path when a channel's
		// platform directory or index follows it (…/t/<token>/channel/linux-64/repodata.json).
		id:       rulePathToken,
		re:       regexp.MustCompile(`(?i)anaconda\.(?:org|com|cloud)(?::\d+)?/t/([A-Za-z0-9][A-Za-z0-9_-]{5,127})/|/t/([A-Za-z0-9][A-Za-z0-9_-]{5,127})/(?:[\w.-]+/){0,3}(?:noarch|(?:linux|osx|win)-(?:64|32|aarch64|arm64|ppc64le|s390x|armv7l|armv6l)|(?:current_)?repodata\.json)\b`),
		keywords: []string{"/t/"},
		check:    func(v string) bool { return (hasDigitAndLetter(v) || len(v) >= 16) && !placeholderValue(v) },
	},
	{
		// Node providers' RPC URLs carry the project's key as the last path segment:
		// https://eth-mainnet.g.alchemy.com/v2/<key>, https://mainnet.infura.io/v3/<key>,
		// QuickNode's https://<name>.quiknode.pro/<key>/.
		id:       rulePathToken,
		re:       regexp.MustCompile(`(?i)(?:\.alchemy\.com|\.alchemyapi\.io)/v2/([A-Za-z0-9_-]{16,64})|\.infura\.io/v3/([0-9a-f]{32})|\.quiknode\.pro/([0-9a-f]{32,64})`),
		keywords: []string{"alchemy", "infura.io", "quiknode.pro"},
		check:    func(v string) bool { return !placeholderValue(v) },
	},
	{
		// Redis's configuration: sentinel auth-pass <master> <password>, masterauth, requirepass.
		id:       ruleKeyword,
		re:       regexp.MustCompile(`(?im)^[ \t]*(?:sentinel[ \t]+auth-pass[ \t]+\S+|masterauth|requirepass)[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'#]+))`),
		keywords: []string{"auth-pass", "masterauth", "requirepass"},
		check:    func(v string) bool { return !placeholderValue(v) && v[0] != '$' },
	},
}

// secretStem reports, without allocating, whether a name of at most 24 bytes holds a
// secret word's stem in any case.
func secretStem(name string) bool {
	var buf [24]byte
	n := copy(buf[:], name)
	for i := 0; i < n; i++ {
		if c := buf[i]; c >= 'A' && c <= 'Z' {
			buf[i] = c + 'a' - 'A'
		}
	}
	l := unsafe.String(&buf[0], n)
	for _, w := range []string{"pass", "pwd", "pw", "psw", "secret", "token", "credential", "key"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// lessThanAnchors returns where pair (<< or <() opens, with up to six blanks between its two
// characters: how a JSON-escaped \u003c reads.
func lessThanAnchors(pair string) func(string) []int {
	return func(s string) []int {
		var at []int
		for from := 0; ; {
			i := strings.IndexByte(s[from:], '<')
			if i < 0 {
				return at
			}
			i += from
			from = i + 1
			j := i + 1
			for j < len(s) && s[j] == ' ' && j-i <= 6 {
				j++
			}
			if j < len(s) && s[j] == pair[1] {
				at = append(at, i)
				from = j + 1
			}
		}
	}
}

// colonPairAnchors finds the user:password pairs a credentials word may precede: a colon
// between two non-blank characters.
func colonPairAnchors(s string) []int {
	var at []int
	for i := 1; i+1 < len(s); i++ {
		if s[i] == ':' && s[i-1] > ' ' && s[i+1] > ' ' && s[i+1] != '/' && s[i+1] != ':' {
			at = append(at, i)
		}
	}
	return at
}

// namedValue decides a value by the name written before it in prose or a table: under a
// name that says secret, a value that is no plain word (or a leetspeak one under a
// password's name); under one that only suggests a credential (signing_key, auth), a
// generated value.
func namedValue(name, v string) bool {
	name = strings.Trim(strings.TrimSpace(name), "\"'`*_")
	if placeholderValue(v) && !leetPassword(name, v) || metadataName(name) {
		return false
	}
	if nameHasSecretWord(name) || passwordName(name) || strings.EqualFold(name, "pin") {
		return notProseWord(v) || leetPassword(name, v)
	}
	return (keyLikeName(name) || credentialLikeName(name)) && keyedValue(name, v)
}

// tableNamedValue accepts a table row whose name cell names a secret for its value cell.
func tableNamedValue(m string) bool {
	cells := strings.Split(strings.Trim(m, "|"), "|")
	if len(cells) != 2 {
		return false
	}
	if len(strings.Fields(cells[0])) > 4 {
		return false // | Location in the container to store the private key | `/etc/ssl/…` |: a description, not a name
	}
	v := strings.Trim(strings.TrimSpace(cells[1]), "`")
	return namedValue(cells[0], v) && !pathValue(v)
}

// tableCellSecret accepts a table's value cell under a secret's name: a value that is no
// prose word, or, with blanks in it, one whose words include a generated one (| Zx8k q2pL |,
// not | the one you chose |).
func tableCellSecret(v string) bool {
	if !strings.ContainsAny(v, " \t") {
		return len(v) >= 4 && (notProseWord(v) || leetPassword("password", v))
	}
	for _, w := range strings.Fields(v) {
		if len(w) >= 6 && (randomValue(w) || hasDigitAndLetter(w) && notProseWord(w) && !identifierWords(w)) {
			return true
		}
	}
	return false
}

// keyFileCell reports a table row whose value cell names a file a key or a certificate is
// kept in (| … the private key for signing the JWT token | `jwt-token.pem` |), or its path.
func keyFileCell(m string) bool {
	cells := strings.Split(strings.Trim(m, "|"), "|")
	v := strings.Trim(strings.TrimSpace(cells[len(cells)-1]), "`")
	if pathValue(v) {
		return true
	}
	dot := strings.LastIndexByte(v, '.')
	if dot <= 0 || !wordParts(v[:dot], 1) || randomValue(v[:dot]) {
		return false
	}
	switch v[dot+1:] {
	case "pem", "key", "crt", "cer", "der", "p12", "pfx", "jks", "json", "yaml", "yml", "txt", "pub", "asc", "gpg", "env":
		return true
	}
	return false
}

// proseNamedValue accepts "the NAME is VALUE" (for ACCOUNT, set to, was…) when NAME names a
// secret for VALUE: after a word for a password, a secret, a token, a credential or an API,
// access or private key, a value that is no plain word; after another key, pass or auth
// name, what namedValue accepts.
func proseNamedValue(m string) bool {
	end := 0
	for end < len(m) && (isWordByte(m[end]) || m[end] == '-' || m[end] == ' ' && end+4 < len(m) && strings.EqualFold(m[end+1:end+4], "key")) {
		end++
	}
	v := m[strings.LastIndexAny(m, " \t\"'`")+1:]
	if v == "" {
		return false
	}
	if w := strings.Trim(v, "*_.,;:!?)”’»"); w != v && isLetters(w) && strings.ToLower(w) == w {
		return false // the password is *present*: a word a Markdown emphasis marks; the token will be used.”: a sentence's end
	}
	if proseSecretName.MatchString(m[:end]) {
		// (max_tokens is 4096: a describing name and a number)
		return (notProseWord(v) || leetPassword(m[:end], v)) && !(metadataName(m[:end]) && describedValue(v))
	}
	return namedValue(m[:end], v)
}

var proseSecretName = regexp.MustCompile(`(?i)(?:password|passwd|passphrase|pwd|pw|pswd|passcode|secret|token|credential|api[ _-]?key|access[ _-]?key|private[ _-]?key)s?$|^pins?$`)

// tableRowAnchors returns the starts of lines that open with a | (a Markdown table's rows).
func tableRowAnchors(s string) []int {
	var at []int
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == '|' {
			at = append(at, j)
		}
		nl := strings.IndexByte(s[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return at
}

// htpasswdValue accepts an htpasswd line's value: not a number (a port, a count) nor a path.
func htpasswdValue(v string) bool {
	return !isDigits(v) && v[0] != '/' && !strings.Contains(v, "//") && (hasDigitAndLetter(v) || mixedClasses(v) || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "{"))
}

// uuidTail matches a name that ends in a UUID after a dash (aspnet-App-90487118-103c-…).
var uuidTail = regexp.MustCompile(`^[\w.-]+-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

var xmlSecretWords = regexp.MustCompile(`(?i)password|passwd|passphrase|secret|token|apikey|api-key|api_key|privatekey|credential`)

// describedValue reports a value of the kind a name about a secret holds: a URL, a path, a
// number, a word, a short hex id.
func describedValue(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) <= 4 || isDigits(v) || strings.ContainsAny(v, "/\\") || identifierWords(v) || isHex(v) && len(v) <= 12
}

// xmlSecretElement accepts an element whose name, namespace aside, says secret
// (<password>, <dbPass>, <ss:secret>), or only suggests a credential (<accessKey>, <auth>)
// and holds a generated value.
func xmlSecretElement(m string) bool {
	end := strings.IndexAny(m, " \t\n>")
	name := m[1:end]
	vs := strings.IndexByte(m, '>') + 1
	ve := strings.LastIndex(m, "</")
	if vs <= 0 || ve < vs {
		return false
	}
	return xmlSecretName(name, m[vs:ve])
}

// xmlSecretKey accepts an add/entry element whose key attribute says secret.
func xmlSecretKey(m string) bool {
	q := strings.IndexByte(m, '"')
	e := strings.IndexByte(m[q+1:], '"')
	v := strings.LastIndexByte(m[:len(m)-1], '"')
	if q < 0 || e < 0 || v < 0 {
		return false
	}
	return xmlSecretName(m[q+1:q+1+e], m[v+1:len(m)-1])
}

// xmlSecretName decides an XML name and its value the way the keyword rule decides a key.
// A name with a word for a password, a secret, a token, an API or private key or a
// credential in it takes any value but what a describing name holds (PasswordUrl: a URL).
func xmlSecretName(name, v string) bool {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	if parts := nameParts(name); len(parts) > 1 && parts[len(parts)-1] == "id" && (uuidRe.MatchString(strings.TrimSpace(v)) || uuidTail.MatchString(strings.TrimSpace(v))) {
		// <UserSecretsId>b99dbce4-…</UserSecretsId>, aspnet-Project.Identity-90487118-…: the
		// folder .NET keeps a project's secrets in
		return false
	}
	if xmlSecretWords.MatchString(name) {
		return !metadataName(name) || !describedValue(v)
	}
	if nameHasSecretWord(name) || passwordName(name) && !metadataName(name) {
		return true
	}
	if parts := nameParts(name); len(parts) > 0 && passwordName(parts[len(parts)-1]) {
		return true // ClearTextPassword: ends in a word for one, whatever comes before
	}
	if (keyLikeName(name) || credentialLikeName(name)) && !metadataName(name) {
		return keyedValue(name, strings.TrimSpace(v))
	}
	return strings.Contains(strings.ToLower(name), "connectionstring")
}

// configSetSecret accepts a config command whose key says secret.
func configSetSecret(match string) bool {
	m := configSetName.FindStringSubmatch(match)
	if m == nil {
		return false
	}
	name := m[1]
	if strings.HasPrefix(name, "set-") || strings.HasPrefix(name, "get-") || strings.HasPrefix(name, "delete-") {
		return false // kubectl config set-credentials NAME: a subcommand and the entry's name
	}
	if strings.HasPrefix(m[0], "config") && !strings.ContainsAny(name, ".:/") {
		return false // the config secret helm chart: prose; git config names a key section.name
	}
	if i := strings.LastIndexAny(name, ".:/"); i >= 0 && i+1 < len(name) {
		name = name[i+1:]
	}
	return nameHasSecretWord(name)
}

// renamedCell reports a table row whose second cell is its first with a version or a
// plural after it (| kubernetes_secret | kubernetes_secret_v1 |, an upgrade guide's old and
// new names): a name and what it became.
func renamedCell(m string) bool {
	cells := strings.Split(strings.Trim(strings.TrimSpace(m), "|"), "|")
	if len(cells) < 2 {
		return false
	}
	name := strings.ToLower(strings.Trim(cells[0], " \t`"))
	v := strings.ToLower(strings.Trim(cells[1], " \t`"))
	rest, ok := strings.CutPrefix(v, name)
	return len(name) >= 4 && ok && renamedSuffix.MatchString(rest)
}

// renamedSuffix is what a renamed resource's name adds to the old one (_v1, -v2beta1, s).
var renamedSuffix = regexp.MustCompile(`^(?:[_.-]?v[0-9]+(?:(?:alpha|beta)[0-9]*)?|[_.-]?[0-9]{1,2}|[_.-](?:new|old|legacy)|s)$`)

var configSetName = regexp.MustCompile(`(?:set|config)\s+(?:--\S+\s+)*([\w.:/@-]+)[ \t=]+\S`)

// findYAMLBlockSecrets masks the body of a YAML block scalar whose key says secret
// (password: |, token: >-): every line indented under the key, up to the first line that is
// not. PEM blocks inside are the private-key rule's too; this takes any value.
func findYAMLBlockSecrets(text string, f *findings) {
	if !strings.Contains(text, ": |") && !strings.Contains(text, ": >") {
		return
	}
	lines := strings.SplitAfter(text, "\n")
	off := 0
	for i := 0; i < len(lines); i++ {
		body := strings.TrimRight(lines[i], "\r\n")
		trimmed := strings.TrimLeft(lineHead(body, len(body)), " \t")
		c := strings.Index(trimmed, ":")
		if c <= 0 {
			off += len(lines[i])
			continue
		}
		marker := strings.TrimSpace(trimmed[c+1:])
		name := strings.Trim(trimmed[:c], `"' `)
		if strings.Contains(name, "{{") {
			// {{ template "chart.secretKey" . }}: | in a Helm template: the key is what the
			// template renders, and the block's lines are the template's too
			off += len(lines[i])
			continue
		}
		if len(marker) == 0 || len(marker) > 3 || marker[0] != '|' && marker[0] != '>' || strings.Trim(marker[1:], "-+0123456789") != "" ||
			!nameHasSecretWord(name) {
			off += len(lines[i])
			continue
		}
		indent := len(body) - len(strings.TrimLeft(body, " \t"))
		next := off + len(lines[i])
		for j := i + 1; j < len(lines) && j <= i+64; j++ {
			lb := strings.TrimRight(lines[j], "\r\n")
			lt := strings.TrimLeft(lb, " \t")
			if lt != "" && len(lb)-len(lt) <= indent {
				break
			}
			if v := strings.TrimSpace(lb); v != "" && !placeholderValue(v) {
				vs := next + strings.Index(lines[j], v)
				f.addSpan(ruleKeyword, vs, vs+len(v))
			}
			next += len(lines[j])
			i = j
		}
		off = next
	}
}

// findNameValuePairs masks the value of a name/value pair whose name says secret: a
// Kubernetes or ECS environment entry (- name: DB_PASSWORD / value: x, {"name": "API_KEY",
// "value": "x"}), a Postman variable ({"key": "token", "value": "x"}), an HTML input
// (name="password" value="x"), an app setting. The name field is looked for in the 240
// bytes before each value field, within the same object.
func findNameValuePairs(text, lower string, f *findings) {
	for from := 0; ; {
		i := strings.Index(lower[from:], "value")
		if i < 0 {
			return
		}
		i += from
		from = i + 5
		if i > 0 && isWordByte(lower[i-1]) {
			continue
		}
		vs, ve, ok := fieldValue(text, i+5)
		if !ok {
			continue
		}
		if sensitiveObject(lower, i) && quotedAt(text, vs) && !placeholderValue(text[vs:ve]) && hasAlnum(text[vs:ve]) {
			f.addSpan(ruleNameValue, vs, ve) // Terraform's {"sensitive": true, "value": "…"}
			continue
		}
		name, ok := pairName(text, lower, i)
		if ok && !nameHasSecretWord(name) && !keyLikeName(name) && strings.Contains(lower[max(0, i-80):i], "cookie{") && randomValue(text[vs:ve]) && quotedAt(text, vs) {
			f.addSpan(ruleNameValue, vs, ve) // &http.Cookie{Name: "session", Value: "…"}: a cookie's value
			continue
		}
		if !ok {
			// the object is the value of a key whose name says secret; its value a quoted
			// literal (not token = { value: token_value } in code)
			if name, ok = parentKey(text, i); ok && (!nameHasSecretWord(name) || !quotedAt(text, vs)) {
				continue
			}
		}
		if !ok || !nameHasSecretWord(name) && !keyLikeName(name) {
			continue
		}
		if metadataName(name) && describedValue(text[vs:ve]) {
			continue // ApiKeyUrl, SecretKeyFile: about a secret, and its value a URL or a path
		}
		v := text[vs:ve]
		if placeholderValue(v) || !hasAlnum(v) || isDigits(v) && len(v) < 6 || !nameHasSecretWord(name) && !generatedValue(v, true) ||
			pathValue(v) || relativeFilePath(v) {
			// - name: GOOGLE_APPLICATION_CREDENTIALS / value: /etc/secrets/sa/credentials.json:
			// where the secret is mounted, not the secret
			continue
		}
		if !quotedAt(text, vs) && codeValue(text, vs, ve) || phpCode(v) {
			continue // const ValueType* value = member_value->GetRawAtomic();: a statement of code; value="'.csrf_token().'": PHP's
		}
		if !quotedAt(text, vs) && tsPrimitiveTypes[strings.TrimRight(v, "):,;")] {
			continue // writeStateKey(key: SecretKey, value: unknown): void: a parameter's type
		}
		if fileReadCommand(v) {
			continue // - name: AIRFLOW__CORE__FERNET_KEY_CMD / value: "cat /opt/…/airflow-fernet-key": where it is read from
		}
		f.addSpan(ruleNameValue, vs, ve)
	}
}

// fieldValue parses `["']? blanks [:=] blanks value` after a field name ending at i; the
// value is quoted, or a bare word to the end of its line.
func fieldValue(s string, i int) (int, int, bool) {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	i = skipBlanks(s, i, 4)
	if i >= len(s) || s[i] != ':' && s[i] != '=' {
		return 0, 0, false
	}
	i = skipBlanks(s, i+1, 8)
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		return quotedLiteral(s, i)
	}
	if i < len(s) && strings.IndexByte("{[($", s[i]) >= 0 {
		return 0, 0, false // value={password}, value: $x: an expression
	}
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\r\n,;}]", rune(s[j])) && j-i < 400 {
		j++
	}
	return i, j, j > i
}

// pairName finds the name field (name, key, variable, parameter, setting) in the 240 bytes
// before the value field at i, with no object boundary in between, and returns its value.
func pairName(s, lower string, i int) (string, bool) {
	lo := max(0, i-240)
	for _, field := range []string{"name", "key", "variable", "parameter", "param", "setting"} {
		for end := i; ; {
			k := strings.LastIndex(lower[lo:end], field)
			if k < 0 {
				break
			}
			k += lo
			end = k
			if k > 0 && isWordByte(lower[k-1]) || k+len(field) < len(lower) && isWordByte(lower[k+len(field)]) {
				continue
			}
			if strings.ContainsAny(s[k:i], "{}[]") && !strings.HasPrefix(strings.TrimLeft(s[k+len(field):i], `"' :=`), "[") {
				break // another object
			}
			if k+len(field) < len(s) && s[k+len(field)] == '=' && strings.IndexByte(s[k:i], '>') >= 0 {
				break // <input name="password" …> then <input type="submit" value="Log In">: another element's attribute
			}
			vs, ve, ok := fieldValue(s, k+len(field))
			if ok && ve <= i && ve-vs <= 60 {
				return s[vs:ve], true
			}
		}
	}
	return "", false
}

// enclosingBrace returns where the object holding position i opens: the nearest { before i
// with no } between, within 240 bytes; -1 when there is none.
func enclosingBrace(s string, i int) int {
	for k := i - 1; k >= 0 && i-k <= 240; k-- {
		switch s[k] {
		case '}':
			return -1
		case '{':
			return k
		}
	}
	return -1
}

// parentKey reads the key an object holding position i is the value of: the db_password of
// Terraform's {"db_password": {"sensitive": true, "type": "string", "value": "…"}}.
func parentKey(s string, i int) (string, bool) {
	k := enclosingBrace(s, i)
	if k <= 0 {
		return "", false
	}
	k--
	for k >= 0 && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
		k--
	}
	if k < 0 || s[k] != ':' && s[k] != '=' {
		return "", false
	}
	k--
	for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
		k--
	}
	if k >= 0 && (s[k] == '"' || s[k] == '\'') {
		k--
	}
	e := k + 1
	for k >= 0 && e-k <= 60 && isNameByte(s[k]) {
		k--
	}
	if k+1 == e {
		return "", false
	}
	return s[k+1 : e], true
}

// sensitiveObject reports whether the object holding position i says its value is sensitive
// ("sensitive": true, as terraform output -json and terraform show -json print them).
func sensitiveObject(lower string, i int) bool {
	k := enclosingBrace(lower, i)
	if k < 0 {
		return false
	}
	j := strings.Index(lower[k:i], `"sensitive"`)
	if j < 0 {
		return false
	}
	rest := strings.TrimLeft(lower[k+j+len(`"sensitive"`):i], " \t")
	return strings.HasPrefix(rest, ":") && strings.HasPrefix(strings.TrimLeft(rest[1:], " \t"), "true")
}

// findKubernetesSecrets masks the values of a Kubernetes Secret's data and stringData maps:
// those of the object whose kind is Secret, the map a sibling of its kind (in the same YAML
// document, at the kind's indent, before or after it). A Helm template's actions between the
// entries ({{- range $key, $value := .Values.x }}) and a block scalar's indicator are no
// values.
func findKubernetesSecrets(text string, f *findings) {
	if !strings.Contains(text, "kind: Secret") && !strings.Contains(text, `"kind": "Secret"`) && !strings.Contains(text, `"kind":"Secret"`) {
		return
	}
	lines := strings.SplitAfter(text, "\n")
	// The indents at which each document's objects say kind: Secret.
	secretAt := make([]map[int]bool, 0, 1)
	doc := map[int]bool{}
	for _, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(body, "---") {
			secretAt, doc = append(secretAt, doc), map[int]bool{}
			continue
		}
		indent, trimmed := yamlEntry(body)
		if k, ok := strings.CutPrefix(trimmed, "kind:"); ok && strings.Trim(strings.TrimSpace(k), `"'`) == "Secret" {
			doc[indent] = true
		}
	}
	secretAt = append(secretAt, doc)
	off, d := 0, 0
	inData, dataIndent := false, 0
	for _, line := range lines {
		body := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(body, "---") {
			d++
			inData = false
			off += len(line)
			continue
		}
		indent, trimmed := yamlEntry(body)
		switch {
		case (trimmed == "data:" || trimmed == "stringData:") && secretAt[d][indent]:
			inData, dataIndent = true, indent
		case inData && trimmed != "" && indent <= dataIndent && !strings.HasPrefix(trimmed, "{{"):
			inData = false
		case inData && trimmed != "" && !strings.HasPrefix(trimmed, "#") && !strings.HasPrefix(trimmed, "{{"):
			if c := strings.Index(trimmed, ":"); c > 0 {
				v := strings.TrimSpace(trimmed[c+1:])
				v = strings.Trim(v, `"'`)
				if v != "" && !blockScalarIndicator(v) && !placeholderValue(v) && !bindingSetting(trimmed[:c]) {
					colon := len(body) - len(trimmed) + c // the value after the key, not inside it (username: "user")
					vs := off + colon + strings.Index(line[colon:], v)
					f.addSpan(ruleK8sSecret, vs, vs+len(v))
				}
			}
		}
		off += len(line)
	}
	// JSON form: "data": {"key": "base64", …}
	if i := strings.Index(text, `"data"`); i >= 0 {
		if open := strings.IndexByte(text[i:], '{'); open >= 0 && open < 8 {
			start := i + open
			end := strings.IndexByte(text[start:], '}')
			if end > 0 {
				for _, m := range jsonStringValue.FindAllStringSubmatchIndex(text[start:start+end], -1) {
					f.addSpan(ruleK8sSecret, start+m[2], start+m[3])
				}
			}
		}
	}
}

// hereStringCommand accepts a here-string's command when its own words say secret, login,
// auth or stdin: not only a variable assigned for it (PGPASSWORD=$X psql -U postgres <<<
// "CREATE DATABASE app": psql reads the password from its environment, SQL from its input).
func hereStringCommand(m string) bool {
	cmd := strings.TrimLeft(m, "\n;&|( \t")
	if i := strings.IndexByte(cmd, '<'); i >= 0 {
		cmd = cmd[:i]
	}
	for {
		eq := strings.IndexByte(cmd, '=')
		sp := strings.IndexAny(cmd, " \t")
		if eq <= 0 || sp < 0 || eq > sp || !envNameBytes(cmd[:eq]) {
			break
		}
		cmd = strings.TrimLeft(cmd[sp:], " \t")
	}
	return hereStringWords.MatchString(cmd)
}

var hereStringWords = regexp.MustCompile(`(?i)pass|secret|token|key|cred|auth|login|signin|unlock|ssh-add|env\s+add`)

// envNameBytes reports an environment variable's name: letters, digits and underscores, not
// opening with a digit.
func envNameBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(isWordByte(c) && !(i == 0 && isDigitByte(c))) {
			return false
		}
	}
	return s != ""
}

// bindingSetting reports a Secret's entry that says where a service is, not how to log in to
// it (a Service Binding's type, provider, host, port, database): the entries a binding
// Secret holds beside its username and password.
func bindingSetting(key string) bool {
	switch strings.Trim(key, `"'`) {
	case "type", "provider", "host", "hostname", "port", "database", "dbname", "namespace", "region", "sslmode", "ssl-mode", "driver", "scheme":
		return true
	}
	return false
}

// yamlEntry returns a YAML line's entry without its indent, and the indent the entry's key
// stands at: a sequence item's dash counts as indent (- kind: Secret is a key at the dash's
// indent plus two).
func yamlEntry(body string) (int, string) {
	trimmed := strings.TrimLeft(body, " ")
	indent := len(body) - len(trimmed)
	for strings.HasPrefix(trimmed, "- ") {
		t := strings.TrimLeft(trimmed[2:], " ")
		indent += len(trimmed) - len(t)
		trimmed = t
	}
	return indent, trimmed
}

// blockScalarIndicator reports a YAML block scalar's header (|, >, |-, >+, |2): the value is
// on the lines below.
func blockScalarIndicator(v string) bool {
	if v == "" || v[0] != '|' && v[0] != '>' {
		return false
	}
	return strings.Trim(v[1:], "+-0123456789") == ""
}

var jsonStringValue = regexp.MustCompile(`"[^"\n]+"\s*:\s*"([^"\n]{4,})"`)

// tokenRunEnd carries a credential found at chunk[start:end] on to the blank that ends its
// run when the run goes on past a character the expression stops at (a password with > or
// a closing bracket in it: Bearer x{{y}z)q[w>-_$#v}}), so no tail of it is shown. It stops
// at a quote, a backquote, a comma, a semicolon and a <, which open what follows (</code>),
// and leaves out closing brackets and . : ) that no opening one in the run accounts for: a
// sentence's or a bracket's end.
func tokenRunEnd(chunk string, start, end int) int {
	j := end
	for j < len(chunk) && j-start < 400 {
		c := chunk[j]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte("\"'`,;<", c) >= 0 {
			break
		}
		j++
	}
	if j == end {
		return end
	}
	depth := 0
	for i := start; i < j; i++ {
		switch chunk[i] {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
		}
	}
	for j > end {
		c := chunk[j-1]
		if c == '.' || c == ':' || c == '>' {
			j--
			continue
		}
		if (c == '}' || c == ']' || c == ')') && depth < 0 {
			depth++
			j--
			continue
		}
		break
	}
	return j
}

// bearerCredential decides the value after Bearer, NTLM or Negotiate outside a header: 16+
// characters with letters and digits (or 32+), 8+ mixing cases and digits as passwords do,
// or 6+ holding a letter and a symbol no identifier has (Prl23Db#@). "Bearer tokens",
// "bearer auth" and "Bearer v1.2" are words.
func bearerCredential(v string) bool {
	if v[0] == '[' || v[0] == '(' || v[0] == '{' {
		return false // Bearer [hidden], Bearer (token), Bearer {token}
	}
	if t := strings.TrimRight(v, "'\"`,;)}"); numberedSecretWord(t) || strings.IndexByte(t, '-') > 0 && isLetters(strings.ReplaceAll(t, "-", "")) && strings.ToLower(t) == t {
		return false // Bearer token123, Bearer host-only-credential: a stand-in in a test or a page
	}
	if w := strings.TrimRight(v, "*_"); w != v && allLetters(w) {
		return false // **Refresh + Bearer collision**: a word a Markdown emphasis closes
	}
	if len(v) >= 16 && (hasDigitAndLetter(v) || len(v) >= 32) {
		return true
	}
	if mixedClasses(v) && hasDigitAndLetter(v) && !strings.Contains(v, ".") {
		return true
	}
	if len(v) >= 10 && countDigits(v) >= 3 && len(v)-countDigits(v) >= 3 && hasDigitAndLetter(v) && !strings.ContainsAny(v, ".") && !placeholderValue(v) {
		return true // Bearer 123456789ABCD: one letter case and digits
	}
	if strings.HasSuffix(v, "*") && upperSnakeName(strings.TrimRight(v, "_*")) {
		return false // negotiate TLS_DHE_* cipher suites: a glob of constants' names
	}
	if unpronounceable(v) {
		return true // Bearer 6qtvphbge6, Bearer okkrqekvrqwtowctnvp: one case, no word
	}
	return len(v) >= 6 && strings.ContainsAny(v, "!#@$%^*?|{}[]()&<>~") && strings.IndexFunc(v, func(r rune) bool {
		return r < 128 && isLetter(byte(r))
	}) >= 0 && !placeholderValue(v)
}

// bearerWords accepts a header's bearer credential made of words joined by - or _ or of
// mixed case (dev_admin, open-sesame, OpenSesame), not the words that name the scheme's
// parts (Bearer token, Bearer access_token).
func bearerWords(v string) bool {
	l := strings.ToLower(v)
	if !strings.ContainsAny(v, "-_") && l == v || bearerNameWords[strings.NewReplacer("-", "_").Replace(l)] {
		return false
	}
	if tokenVariableName(v) {
		return false // Bearer ADMIN_TOKEN: a variable's name written where its value goes
	}
	return !placeholderValue(v) && !kebabStandIn(v) // Bearer model-token: words a test writes
}

var bearerNameWords = map[string]bool{"token": true, "tokens": true, "access_token": true, "auth_token": true,
	"id_token": true, "api_key": true, "apikey": true, "authentication": true, "authorization": true,
	"credential": true, "credentials": true, "scheme": true, "header": true, "jwt": true, "value": true,
	"bearer_token": true, "oauth_token": true, "session_token": true, "refresh_token": true, "secret": true}

// mixedClasses reports a value with upper- and lower-case letters and a digit or symbol.
func mixedClasses(v string) bool {
	var up, low, other bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		default:
			other = true
		}
	}
	return up && low && other && !placeholderValue(v)
}

// notProseWord reports a value that is not a plain word: it holds a digit or a symbol.
func notProseWord(v string) bool {
	v = strings.TrimRight(v, ".,;:!?)”’»")
	if len(v) < 4 || placeholderValue(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && v[i] < 0x80 && v[i] != '-' && v[i] != '\'' {
			return true
		}
	}
	return false
}

// notPortOrURL rejects what -p takes as a port, a path or a URL rather than a password.
func notPortOrURL(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isDigitByte(v[i]) && v[i] != ':' && v[i] != '.' && v[i] != '/' && v[i] != '-' {
			return !strings.Contains(v, "://") && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "$")
		}
	}
	return false
}

// webhookToken accepts a webhook path that holds a generated token, not a directory of
// source files (/hooks/useAuthentication).
func webhookToken(v string) bool {
	last := v[strings.LastIndexByte(v, '/')+1:]
	return hasDigitAndLetter(last) && meanRunLength(last) < 3.5 && !strings.Contains(v, ".")
}

// basicCredentials reports base64 that decodes to user:password.
func basicCredentials(v string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	if err != nil || !printable(b) {
		return false
	}
	i := strings.IndexByte(string(b), ':')
	return i > 0 && i < len(b)-1
}

// proseIDPair reports an account and password pair read from a sentence: blanks alone after
// the pair's names, and a word of English where the password goes ("Login/password fields
// visibility"); "ID/PW: master / changed" marks its pair with a colon and a slash.
func proseIDPair(m string) bool {
	f := strings.Fields(m)
	if len(f) == 3 && titleWords(f[1], f[2]) && isUpperByte(f[0][0]) {
		return true // Username/Password Fields (Lowest Priority): a heading's words
	}
	if len(f) != 3 || strings.ContainsAny(m, ":=()") {
		return false
	}
	v := strings.Trim(f[2], ".,;!?")
	return isLetters(v) && strings.ToLower(v) == v && dictWord(v) && isLetters(f[1])
}

// titleWords reports words that each open with a capital and go on in lower-case letters.
func titleWords(ws ...string) bool {
	for _, w := range ws {
		w = strings.Trim(w, "#*_.,;:!?()")
		if len(w) < 2 || !isUpperByte(w[0]) || !isLetters(w) || strings.ToLower(w[1:]) != w[1:] {
			return false
		}
	}
	return true
}

// findIPTriples finds an address, an account and a password in a row: "10.0.0.5 root
// Secr3t!x", "ip/id/pw 10.0.0.5/admin/Secr3t!x", "10.0.0.5(admin) Secr3t!x". The password
// mixes letter cases and a digit or symbol.
func findIPTriples(chunk string, off int, f *findings) {
	for from := 0; ; {
		i := strings.IndexByte(chunk[from:], '.')
		if i < 0 {
			return
		}
		i += from
		from = i + 1
		// The quad: digits and dots around i, three dots.
		s := i
		for s > 0 && isDigitByte(chunk[s-1]) && i-s < 3 {
			s--
		}
		if s == i || s > 0 && !(chunk[s-1] == ' ' || chunk[s-1] == '\t' || chunk[s-1] == '/' || chunk[s-1] == '\n') {
			continue
		}
		e, dots := i, 0
		for e < len(chunk) && (isDigitByte(chunk[e]) || chunk[e] == '.') && e-s < 15 {
			if chunk[e] == '.' {
				dots++
			}
			e++
		}
		if dots != 3 || !isDigitByte(chunk[e-1]) {
			continue // (18.15.0. For Next.js: a version ending a sentence)
		}
		from = e
		if s >= 5 && (chunk[s-5:s] == "/ip4/" || chunk[s-5:s] == "/ip6/") {
			continue // /ip4/127.0.0.1/tcp/5001: a multiaddr, its protocol and port
		}
		j := e
		sep := func(k int) int {
			n := 0
			for k < len(chunk) && n < 8 && strings.IndexByte(" \t,/(", chunk[k]) >= 0 {
				k++
				n++
			}
			return k
		}
		if j = sep(j); j == e || j >= len(chunk) || !isLetter(chunk[j]) {
			continue
		}
		a := j
		for j < len(chunk) && (isWordByte(chunk[j]) || chunk[j] == '.' || chunk[j] == '-') && j-a < 80 {
			j++
		}
		if j-a < 3 {
			continue
		}
		if j < len(chunk) && chunk[j] == ')' {
			j++
		}
		k := sep(j)
		if k == j {
			continue
		}
		v := k
		for v < len(chunk) && !strings.ContainsRune(" \t\n\r/", rune(chunk[v])) && v-k < 64 {
			v++
		}
		if sshKeyAlgorithms[chunk[a:j]] {
			continue // 192.168.42.12 ssh-ed25519 AAAAC3…: a known_hosts line, a host's public key
		}
		if v-k >= 7 && mixedClasses(chunk[k:v]) && !closesParenthesis(chunk[e:a], chunk[k:v]) && !schemaDefinitionOID(chunk, s, chunk[a:j]) {
			f.addSpan(ruleIDPassword, off+k, off+v)
		}
	}
}

// sshKeyAlgorithms are the key types of OpenSSH's known_hosts and authorized_keys lines.
var sshKeyAlgorithms = map[string]bool{"ssh-ed25519": true, "ssh-rsa": true, "ssh-dss": true, "ecdsa-sha2-nistp256": true,
	"ecdsa-sha2-nistp384": true, "ecdsa-sha2-nistp521": true, "sk-ssh-ed25519@openssh.com": true, "sk-ecdsa-sha2-nistp256@openssh.com": true}

// pgpassLines returns where host:port:database:user:password may start: before a colon
// followed by a port or * and a colon, on a line with three colons more.
func pgpassLines(s string) []int {
	var at []int
	for from := 0; from < len(s); {
		end := strings.IndexByte(s[from:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += from
		}
		line := s[from:end]
		if left := strings.Count(line, ":"); left >= 4 {
			for i := 0; i < len(line); {
				c := strings.IndexByte(line[i:], ':')
				if c < 0 {
					break
				}
				c += i
				i = c + 1
				left-- // the colons after c
				p := strings.IndexByte(line[c+1:], ':')
				if p < 0 || left < 3 {
					break
				}
				if port := line[c+1 : c+1+p]; port == "*" || len(port) >= 2 && len(port) <= 5 && isDigits(port) {
					h := c
					for h > 0 && (isWordByte(line[h-1]) || strings.IndexByte(".*-", line[h-1]) >= 0) {
						h--
					}
					if h < c {
						at = append(at, from+h)
					}
				}
			}
		}
		from = end + 1
	}
	return at
}

var (
	beforeIsVerbs   = []string{" is ", " was ", " are ", " were ", " is:", " was:", " be ", " to "}
	beforeIsPreps   = []string{" for ", " of ", " FOR "}
	beforeIsMatcher = sync.OnceValue(func() *acMatcher { return newACMatcher(append(slices.Clip(beforeIsVerbs), beforeIsPreps...)) })
)

// pgpassFields holds a .pgpass match to its fields: a host (a name, an address or *, not a
// number: 10:30:00:000:x is a time) and not the hex groups of a MAC address.
func pgpassFields(match string) bool {
	m := strings.TrimLeft(match, "\"' \t\n=>")
	host, _, _ := strings.Cut(m, ":")
	return (host == "*" || !isDigits(host)) && notColonHexGroups(m) && !weeklyWindow.MatchString(m) && !ipv6Run(m)
}

// ipv6Run reports a match that opens with an IPv6 address (2a00:1098:3a0:0:0:0:0:1), whose
// groups have a .pgpass line's colons.
func ipv6Run(m string) bool {
	e := 0
	for e < len(m) && (isHex(m[e:e+1]) || m[e] == ':' || m[e] == '.') {
		e++
	}
	a, err := netip.ParseAddr(m[:e])
	return err == nil && a.Is6()
}

// weeklyWindow is a weekly time window, day:hh:mm-day:hh:mm (a database's maintenance or
// backup window, "thu:23:30-fri:00:30"), which has a .pgpass line's colons.
var weeklyWindow = regexp.MustCompile(`(?i)^(?:mon|tue|wed|thu|fri|sat|sun):\d{2}:\d{2}-(?:mon|tue|wed|thu|fri|sat|sun):\d{2}:\d{2}`)

// encodingAdjective reports how something is encoded, as a sentence says it (Secrets must be
// base64-encoded., hex-encoded, PEM‑encoded with a non-breaking hyphen).
func encodingAdjective(v string) bool {
	v = strings.ToLower(strings.TrimRight(v, ".,;:)"))
	v = strings.NewReplacer("\u2010", "-", "\u2011", "-").Replace(v)
	head, ok := strings.CutSuffix(v, "-encoded")
	if !ok {
		return false
	}
	switch head {
	case "base64", "base32", "base58", "hex", "url", "pem", "der", "utf8", "utf-8", "json", "percent":
		return true
	}
	return false
}

// wordBeforeTag reports a lower-case word closed by markup (<h2>Your password was
// changed</h2>, was reset<br>): the sentence's word, the tag the page's.
func wordBeforeTag(v string) bool {
	i := strings.IndexByte(v, '<')
	if i < 3 || !isLetters(v[:i]) || strings.ToLower(v[:i]) != v[:i] {
		return false
	}
	t := v[i+1:]
	t = strings.TrimPrefix(t, "/")
	j := 0
	for j < len(t) && isLetter(t[j]) || j > 0 && j < len(t) && isDigitByte(t[j]) {
		j++
	}
	return j > 0 && j < len(t) && (t[j] == '>' || t[j] == ' ' || t[j] == '/')
}

// secretWordBeforeIs returns each " is ", " was ", " are " or " were " right after a word
// that names a secret, the only places the is/are rule can match.
func secretWordBeforeIs(s string) []int {
	var at []int
	var buf [64]uint32
	hits := beforeIsMatcher().hits(s, buf[:0])
	for vi, verb := range beforeIsVerbs {
		for from := 0; ; {
			i := hits.next(vi, from)
			if i < 0 {
				break
			}
			from = i + len(verb)
			if verb == " be " || verb == " to " {
				// will be, set to, changed to, reset to, updated to: the word before the verb
				// is where the secret's name ends.
				j := i
				for j > 0 && isLetter(s[j-1]) {
					j--
				}
				switch strings.ToLower(s[j:i]) {
				case "will", "should", "must", "set", "changed", "reset", "updated":
					i = max(j-1, 0)
				default:
					continue
				}
			}
			k := i
			for k > 0 && i-k < 40 && (isNameByte(s[k-1]) || s[k-1] == ' ' && i-k < 8) {
				k--
			}
			w := strings.ToLower(s[k:i])
			if containsAny(w, []string{"pass", "pwd", "pw", "psw", "secret", "token", "credential", "key", "pin", "auth"}) {
				at = append(at, i)
			}
		}
	}
	// " for " and " of " right after a secret's name: the account comes next, then the value
	// after a colon or a verb.
	for pi, prep := range beforeIsPreps {
		for from := 0; ; {
			i := hits.next(len(beforeIsVerbs)+pi, from)
			if i < 0 {
				break
			}
			from = i + len(prep)
			if i == 0 || strings.IndexByte("sdwtnlySDWTNLY", s[i-1]) < 0 {
				continue // the stems end password(s), pwd, pw, secret, token, credential, key
			}
			k := i
			for k > 0 && i-k < 24 && isNameByte(s[k-1]) {
				k--
			}
			if k < i && secretStem(s[k:i]) {
				at = append(at, i)
			}
		}
	}
	slices.Sort(at)
	return at
}

// networkConfigAnchors finds where a network device's credential may stand: password,
// secret or key then a blank, one digit and a blank (Cisco's type), a community string's
// keyword, Junos's plain-text password.
func networkConfigAnchors(s string) []int {
	at := keywordLineAnchors(s)
	for _, w := range []string{"password", "secret", "key"} {
		for from := 0; ; {
			i := strings.Index(s[from:], w)
			if i < 0 {
				break
			}
			j := from + i + len(w)
			if j+3 <= len(s) && (s[j] == ' ' || s[j] == '\t') && isDigitByte(s[j+1]) && (s[j+2] == ' ' || s[j+2] == '\t') {
				at = append(at, from+i)
			}
			from = j
		}
	}
	slices.Sort(at)
	return at
}

// keywordLineAnchors finds a community string's keyword and Junos's plain-text password.
var keywordLineAnchors = wordAnchors("community", "plain-text-password-value")

// versionBounds matches a dependency's version bounds (>=0.37.2,<0.39.0, ~1.4, ^2.0.0, ==3.1).
var versionBounds = regexp.MustCompile(`^(?:[<>=!~^]=?[0-9][0-9a-z.*+-]*,?)+$`)

// linkCell reports a table row whose value cell is a Markdown link or a relative file's path.
func linkCell(m string) bool {
	cells := strings.Split(strings.Trim(m, "|"), "|")
	v := strings.TrimSpace(cells[len(cells)-1])
	return markdownLink(v) || relativeFilePath(strings.Trim(v, "`")) || sourceFilePath(strings.Trim(v, "`"))
}

// sourceFilePath reports a relative path of word segments to a source or a document file
// (lib/doorkeeper/oauth/token_introspection.rb).
func sourceFilePath(v string) bool {
	segs := strings.Split(v, "/")
	if len(segs) < 2 || strings.ContainsAny(v, " \t") || !wordSegments(segs) {
		return false
	}
	_, ext, ok := strings.Cut(segs[len(segs)-1], ".")
	switch ext {
	case "rb", "py", "go", "js", "ts", "tsx", "jsx", "java", "kt", "rs", "php", "c", "h", "cs", "swift", "md", "yml", "yaml", "json", "toml":
		return ok
	}
	return false
}

// unquotedProseWord reports a match that ends in an unquoted English word in lower case,
// maybe closing its sentence with a full stop: prose, not a statement's literal.
func unquotedProseWord(m string) bool {
	m = strings.TrimSuffix(m, ".")
	k := len(m)
	for k > 0 && isLowerByte(m[k-1]) {
		k--
	}
	return k < len(m) && k > 0 && (m[k-1] == ' ' || m[k-1] == '\t') && dictWord(m[k:])
}
