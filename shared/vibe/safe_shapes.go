package vibe

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"slices"
	"strings"
)

// Shapes of harmless values that agents' tool output is full of and that look random to the
// entropy and structure rules, found by replaying real sessions (Gemini CLI, Claude Code,
// aider) of other public repositories.

// idNamed reports a name made of words and an id: hashNamed's, or a path whose file is named
// by a UUID (antigravity-data/034f02b8-1fdf-4197-b597-050b7caac6f5.pb, as git and ls print
// them).
func idNamed(tok string) bool {
	if hashNamed(tok) {
		return true
	}
	i := strings.LastIndexByte(tok, '/')
	if i < 0 {
		return false
	}
	name := tok[i+1:]
	if j := strings.LastIndexByte(name, '.'); j > 0 && j >= len(name)-6 {
		name = name[:j]
	}
	return uuidRe.MatchString(name) && wordParts(strings.ReplaceAll(tok[:i], "/", "-"), 1)
}

// hashNamed reports a name that carries a build's or a package store's hash beside words:
// cargo's registry index and build artefacts (index.crates.io-1949cf8c6b5b557f,
// blocky_cosmic_iced-6f4369831df35eb4.d), and Nix store entries
// (q3fzb7ay6r0jcvq9ap7yyjr2ywv1z2pv-python3-3.11.6). The hash is one part of 8 to 20 hex
// digits (at most 80 bits, where a key in hex has 32 or more) among parts that are words, two
// of them at least, in a dotted name (a host, a file with its extension: a vendor's prefix and
// a short hex key, dapi-1a2b3c4d5e6f7a8b, is no such name), or a Nix store hash (32 characters of Nix's base32, which has no e, o, u or t)
// before a name.
func hashNamed(tok string) bool {
	if len(tok) > 34 && tok[32] == '-' && nixBase32(tok[:32]) {
		return wordParts(tok[33:], 0)
	}
	hashes := 0
	words := 0
	for p := range strings.FieldsFuncSeq(tok, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch {
		case len(p) >= 8 && len(p) <= 20 && isHex(p) && hasDigitAndLetter(p):
			hashes++
		case len(p) > 20 && isHex(p):
			return false
		case !wordPart(p):
			return false
		case len(p) >= 3 && isLetters(p):
			words++
		}
	}
	return hashes == 1 && words >= 2 && strings.Contains(tok, ".")
}

// wordParts reports a name made of word parts (a package name and its version), at least min
// of them letters only.
func wordParts(s string, min int) bool {
	words := 0
	for p := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '+' }) {
		if !wordPart(p) {
			return false
		}
		if isLetters(p) {
			words++
		}
	}
	return s != "" && words >= min
}

// wordPart reports a part of a name that is no random run: letters, digits, or a short mix
// (py311, v2, x86).
func wordPart(p string) bool {
	return isLetters(p) || isDigits(p) || len(p) <= 6 || meanRunLength(p) >= 3
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// nixBase32 reports 32 characters of the alphabet Nix writes store hashes in.
func nixBase32(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' && c != 'e' && c != 'o' && c != 'u' && c != 't') {
			return false
		}
	}
	return len(s) == 32
}

// notColonHexGroups rejects a .pgpass-looking match whose port, database and user fields are
// one or two hex digits each: the groups of a MAC address, a key fingerprint or an IPv6
// address (90:10:57:d2:ae:e2), not host:port:database:user:password.
func notColonHexGroups(match string) bool {
	f := strings.SplitN(strings.TrimLeft(match, `"`), ":", 5)
	if len(f) < 5 {
		return true
	}
	for _, p := range f[1:4] {
		if len(p) > 2 || !isHex(p) {
			return true
		}
	}
	return false
}

// flagTakesNoSecret rejects a cli-secret-flag match whose flag acts on secrets rather than
// passing one (gpg --list-secret-keys, --export-secret-keys KEYID, gh --enable-secret-scanning,
// --no-password, --show-token) or whose value is a PAM control list (the "-password
// [success=1 default=ignore]" lines of /etc/pam.d, where a leading dash marks an optional
// module).
func flagTakesNoSecret(match string) bool {
	flag := strings.ToLower(strings.TrimLeft(match, "-"))
	if i := strings.IndexAny(flag, "= \t\n\"'\\"); i >= 0 {
		if v := strings.TrimLeft(flag[i:], "= \t\n\"'\\,"); strings.HasPrefix(v, "[") && strings.Contains(v, "=") {
			return true
		}
		flag = flag[:i]
	}
	first, _, _ := strings.Cut(strings.ReplaceAll(flag, "_", "-"), "-")
	switch first {
	case "list", "enable", "disable", "no", "show", "export", "import", "delete", "remove", "rotate", "revoke",
		"generate", "gen", "scan", "print", "verify", "require", "allow", "skip", "ignore", "forget", "clear":
		return true
	}
	return strings.HasSuffix(flag, "-scanning") || strings.HasSuffix(flag, "-protection")
}

// flagStart returns where the command-line flag holding the name at i starts (its first
// dash), or -1 when the name is no flag's.
func flagStart(s string, i int) int {
	for i > 0 && (isWordByte(s[i-1]) || s[i-1] == '-') {
		i--
	}
	if i < len(s) && s[i] == '-' {
		return i
	}
	return -1
}

// passwordCompound reports a word that makes a compound noun with "password" in prose ("as
// password login is now disabled", "a password prompt appeared", "password manager"): what
// follows the word there, not a .netrc password.
func passwordCompound(v string) bool {
	switch strings.ToLower(strings.TrimRight(v, ".,;:!?)")) {
	case "login", "logins", "prompt", "prompts", "prompted", "authentication", "auth", "manager", "managers",
		"reset", "resets", "change", "changes", "field", "fields", "policy", "policies", "hash", "hashes",
		"strength", "expiry", "expiration", "less", "protected", "protection", "based", "entry", "input",
		"dialog", "request", "requests", "required", "requirement", "requirements", "rotation", "store",
		"storage", "vault", "file", "recovery", "update", "updates", "history", "length", "complexity":
		return true
	}
	return false
}

// harmlessRun reports a random-looking run that entropy alone must not redact: a public key
// (inPublicKey), an encoded image, font or document (inEncodedMedia), a header's request
// id (idHeaderValue, idLabelValue), a Content-Security-Policy nonce (cspNonce), a JWT cut
// short on purpose (elidedJWT), a certificate or public key in base64 (publicPEMBase64) or a
// JSON Web Key's public member (jwkPublicMember), an Ethereum address (ethereumAddress).
func harmlessRun(text string, start, end int) bool {
	return inPublicKey(text, start) || inEncodedMedia(text, start) || idHeaderValue(text, start) || idLabelValue(text, start) ||
		cspNonce(text, start) || elidedJWT(text[start:end]) || strings.HasPrefix(text[end:], "…") && elidedJWT(text[start:end]+"…") ||
		publicPEMBase64(text[start:end]) || subjectPublicKeyBase64(text[start:end]) || jwkPublicMember(text, start, end) || fingerprintMember(text, start) || imageHostRun(text, start) ||
		codeIdentifierAt(text, start) || mangledCxxName(text[start:end]) || videoQueryValue(text, start) || escapedWordTail(text, start, end) || operandRun(text, start, end) || sortedRun(text[start:end]) ||
		windowsPackageLike(text[start:end]) && windowsPackageName.MatchString(text[start:end]) || didMethodBefore(text, start) ||
		x509Base64(text[start:end]) || text[start] == 'M' && x509CertHead.MatchString(text[start:end]) || relativeModulePath(text[start:end]) || pascalCaseName(text[start:end]) || qualifiedConstantName(text[start:end]) ||
		vapidPublicKey(text[max(0, start-40):start], text[start:end]) || overlayLayerID(text, start, end) || debianArchivePath(text[start:end]) ||
		ethereumAddress(text[start:end]) || publicByPlace(text, start) || encodedImageURLRun(text, start, end) || svgPathData(text, start) ||
		thinkingBlob(text, start, end) || mediaFileName(text, start, end) || forgeProfileRun(text[start:end]) ||
		protoDescriptorHead(text[start:end]) || longBinaryRun(text, start, end) || variablePathRun(text, start, end) || queryIDValue(text, start) || urlOfWords(text, start, end) || hashSuffixedName(text[start:end]) || encryptedContentRun(text, start) ||
		voiceIDRun(text, start, end) || acmeChallengeRun(text, start, end) || hashedKnownHost(text, start, end) || wireguardPublicKey(text, start, end) ||
		hashedAliasName(text[start:end]) && importAlias(text, text[start:end]) || jcaAlgorithm.MatchString(text[start:end]) ||
		end < len(text) && text[end] == '(' && calledPath(text[start:end]) || goQualifiedName(text[start:end]) ||
		text[start] >= '1' && text[start] <= '2' && timestampedName.MatchString(text[start:end]) ||
		webSocketKeyRun(text, start) || editorRemoteRun(text, start, end) || pnpmStoreRun(text, start) || brandfetchClientID(text, start) || pgDumpRestrictKey(text, start)
}

// cloudflareChallengeRun reports a value of the page Cloudflare serves a client it challenges
// (window._cf_chl_opt = {cRay: …, cH: '…', cUPMDTk: "…?__cf_chl_tk=…"}, what curl prints when
// a site checks for a browser): the challenge's own parameters, the same for whoever fetches
// the page then, no one's credential. Callers ask it only of a text that holds _cf_chl_opt.
func cloudflareChallengeRun(text string, start int) bool {
	head := text[max(0, start-1500):start]
	k := strings.LastIndex(head, "_cf_chl_opt")
	return k >= 0 && !strings.Contains(head[k:], "</script>")
}

// pgDumpRestrictKey reports the key of pg_dump's \restrict and \unrestrict lines (PostgreSQL
// 17.6 and later open and close every plain dump with one): a random nonce that keeps psql
// from running meta-commands a dumped object could smuggle in, in every dump, no credential.
func pgDumpRestrictKey(text string, start int) bool {
	head := text[max(0, start-14):start]
	return strings.HasSuffix(head, "\\restrict ") || strings.HasSuffix(head, "\\unrestrict ")
}

// brandfetchClientID reports the c= of a logo on Brandfetch's CDN
// (cdn.brandfetch.io/<brand>/theme/dark/logo.svg?c=1bxid64…): the client id every page that
// shows the logo carries in its HTML, public by design.
func brandfetchClientID(text string, start int) bool {
	if start < 3 || text[start-2:start] != "c=" || text[start-3] != '?' && text[start-3] != '&' {
		return false
	}
	u := strings.LastIndexAny(text[:start], " \t\n\"'`(<")
	return strings.Contains(text[u+1:start], "cdn.brandfetch.io/")
}

// pnpmStoreRun reports a run inside the name of a folder of pnpm's virtual store
// (node_modules/.pnpm/@cloudflare+vitest-pool-workers@0.16.20_…_@vitest+_93a1cbb2…/): packages,
// versions and, when the name grows too long, the digest pnpm cuts it to.
func pnpmStoreRun(text string, start int) bool {
	if start == 0 || text[start-1] != '@' && text[start-1] != '+' && text[start-1] != '_' && text[start-1] != '/' {
		return false // a run in a store folder's name opens after @, +, _ or the folder's /
	}
	seg := strings.LastIndexAny(text[max(0, start-300):start], "/\\ \t\n\"'")
	if seg < 0 {
		return false
	}
	seg += max(0, start-300)
	if c := text[seg]; c != '/' && c != '\\' {
		return false
	}
	return strings.HasSuffix(text[:seg], ".pnpm")
}

// editorRemoteRun reports the authority of a VS Code remote URI, the kind of remote and its
// host, percent-encoded or not (vscode-remote://ssh-remote%2B<a repl's UUID>@…): where the
// editor's window is, not a credential.
func editorRemoteRun(text string, start, end int) bool {
	if start < 14 || !strings.HasSuffix(text[:start], "vscode-remote:") && !strings.HasSuffix(text[:start], "vscode-remote://") {
		return false
	}
	run := strings.TrimLeft(text[start:end], "/")
	if i := strings.Index(run, "%2B"); i > 0 {
		run = run[:i] + "+" + run[i+3:]
	}
	return editorRemoteAuthority(run)
}

// webSocketKeyRun reports the value of a WebSocket handshake's Sec-WebSocket-Key or
// Sec-WebSocket-Accept header: a nonce the client picks and the server's hash of it, sent in
// the clear by design.
func webSocketKeyRun(text string, start int) bool {
	before := text[max(0, start-40):start]
	if !strings.Contains(before, "ocket-") && !strings.Contains(before, "OCKET-") {
		return false // (most runs: no header's name before them, and no lower-casing)
	}
	before = strings.ToLower(before)
	return strings.Contains(before, "sec-websocket-key") || strings.Contains(before, "sec-websocket-accept")
}

// timestampedName matches a name that opens with a date and a time of day and goes on in
// words (2024-08-15-13-18-36--json-no-lint-gpt-4o-2024-08-06-func): a run's directory, named
// when it was made.
var timestampedName = regexp.MustCompile(`^(?:19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]-[0-2][0-9]-[0-5][0-9](?:-[0-5][0-9])?--?[A-Za-z][A-Za-z0-9]+[-_.]`)

// goQualifiedName reports a Go package's exported name (openai.GPT3Dot5Turbo,
// anthropic.ModelClaude3Opus): a package of lower-case letters, a dot, and a name written
// in capitalised pieces.
func goQualifiedName(tok string) bool {
	pkg, name, ok := strings.Cut(tok, ".")
	if !ok || len(pkg) < 2 || len(pkg) > 20 || !isLowerByte(pkg[0]) || name == "" || !isUpperByte(name[0]) || !allLettersDigits(name) {
		return false
	}
	for i := 0; i < len(pkg); i++ {
		if !isLowerByte(pkg[i]) && !isDigitByte(pkg[i]) {
			return false
		}
	}
	// Capitalised pieces (Dot, Turbo: a capital, then two lower-case letters or more) hold
	// most of the letters, as words do; a key's runs of capitals and digits hold them
	// otherwise (acme.KeyAB12VYK2CD0ZBKOAO, gnh.Ai7eGB3M41lNUbPfL7).
	letters, inPieces, pieces := 0, 0, 0
	for i := 0; i < len(name); {
		if !isLetter(name[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(name) && isLowerByte(name[j]) {
			j++
		}
		if isUpperByte(name[i]) && j-i >= 3 {
			inPieces += j - i
			pieces++
		}
		letters += j - i
		i = j
	}
	return pieces >= 2 && inPieces*3 >= letters*2
}

// calledPath reports a dotted path of names of code, the last of three camel humps or more,
// that a parenthesis right after calls: V0alpha2Api.AdminIntrospectOAuth2Token(ctx), a
// generated client's method.
func calledPath(tok string) bool {
	dot := strings.LastIndexByte(tok, '.')
	if dot <= 0 || dot == len(tok)-1 {
		return false
	}
	for seg := range strings.SplitSeq(tok, ".") {
		if seg == "" || !isLetter(seg[0]) || !allLettersDigits(strings.ReplaceAll(seg, "_", "")) {
			return false
		}
	}
	return camelHumps(tok[dot+1:]) >= 3 && codeName(tok[dot+1:])
}

// hashedAliasName reports an identifier that ends in an underscore and 16 or more hex digits,
// as a generated import's alias does (default_1a7510af427896d367a49dbf838d2de6).
func hashedAliasName(run string) bool {
	u := strings.LastIndexByte(run, '_')
	return u > 0 && len(run)-u-1 >= 16 && isHex(run[u+1:]) && pyIdentifier(run)
}

// jcaAlgorithm matches the standard names of Java's cryptography architecture that join an
// algorithm's parts with "With" and "And" (PBKDF2WithHmacSHA256, PBEWithHmacSHA256AndAES_256,
// SHA256withECDSA): a name an API takes, never a key.
var jcaAlgorithm = regexp.MustCompile(`^(?:PBKDF2With|PBEWith|(?:SHA|MD)[0-9]*(?:/[0-9]+)?with)[A-Za-z0-9]+(?:And[A-Za-z0-9_]+)?$`)

// hashedKnownHost reports the salt or the hash of a hashed known_hosts entry (|1|salt|hash
// ssh-ed25519 …, HashKnownHosts): an HMAC-SHA1 of a host's name, 28 characters of base64 each.
func hashedKnownHost(text string, start, end int) bool {
	if end-start != 28 || text[end-1] != '=' {
		return false
	}
	if start >= 3 && text[start-3:start] == "|1|" {
		return true
	}
	return start >= 32 && text[start-1] == '|' && text[start-32:start-29] == "|1|"
}

// wireguardPublicKey reports a WireGuard peer's public key (PublicKey = <44 characters of
// base64>), which the peer's configuration shares by design; its PrivateKey stays masked.
func wireguardPublicKey(text string, start, end int) bool {
	if end-start != 44 || text[end-1] != '=' {
		return false
	}
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	head := strings.TrimRight(text[ls:start], " \t=")
	return strings.HasSuffix(strings.TrimLeft(head, " \t"), "PublicKey") && strings.TrimLeft(head, " \t") == "PublicKey"
}

// acmeChallengeRun reports an ACME DNS-01 challenge's TXT value, 43 characters of base64url (a
// SHA-256 digest; 20 to 86 taken, as documentation shortens them), after the _acme-challenge
// name on its line or a TXT label (dns_ali_add
// _acme-challenge.www.domain.com "XKrx…", Txt value:9ihD…): what a domain publishes in its DNS
// to prove it holds an account's key, public by design.
func acmeChallengeRun(text string, start, end int) bool {
	if end-start < 20 || end-start > 86 {
		return false // 43 base64url characters of a SHA-256; documentation's examples are shorter
	}
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	before := strings.ToLower(text[max(ls, start-160):start])
	return strings.Contains(before, "_acme-challenge") || strings.HasSuffix(strings.TrimRight(before, " :=\"'"), "txt value")
}

// voiceIDRun reports a text-to-speech voice's id, 20 letters and digits as ElevenLabs gives its
// voices, after a word for a voice on its line (voice=pNInz6obpgDQGcFmaJgB, Voice ID für die
// Stimme: …) or opening a line of a voice listing, its name and a description after it
// (pNInz6obpgDQGcFmaJgB  Adam - Dominant, Firm): a public name of a voice, no key.
func voiceIDRun(text string, start, end int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	if end-start == 21 && (text[start] == '+' || text[start] == '-') && start == ls {
		start, ls = start+1, start+1 // +pNInz6obpgDQGcFmaJgB  Adam …: a diff's added line of a voice listing
	}
	if end-start != 20 || strings.IndexFunc(text[start:end], func(r rune) bool { return r >= 0x80 || !isAlnum(byte(r)) }) >= 0 {
		return false
	}
	if premadeVoiceIDs[text[start:end]] {
		return true // a voice of ElevenLabs' premade library, wherever it stands
	}
	if strings.Contains(strings.ToLower(text[max(ls, start-48):start]), "voice") {
		return true
	}
	if start != ls {
		return false
	}
	rest := strings.TrimLeft(text[end:min(len(text), end+64)], " \t")
	name, desc, ok := strings.Cut(rest, " - ")
	return ok && len(rest) < len(text)-end && name != "" && isUpperByte(name[0]) && len(name) <= 24 && isLetters(strings.ReplaceAll(name, " ", "")) && desc != "" && isUpperByte(desc[0])
}

// sluggedID reports a page's slug that ends in the id its site gives it
// (convert-yuv-to-rgb-for-camerax-imageanalysis-6c627f3a0292 on Medium, a Notion page's
// title and 32 hex digits): two words or more joined by dashes, then 8 to 32 hex digits.
// A page's address, public where it is linked.
func sluggedID(seg string) bool {
	i := strings.LastIndexByte(seg, '-')
	if i <= 0 || len(seg)-i-1 < 8 || len(seg)-i-1 > 32 || !isHex(seg[i+1:]) {
		return false
	}
	words := 0
	for _, p := range strings.Split(seg[:i], "-") {
		switch {
		case isLetters(p):
			words++
		case p == "" || !wordPart(p):
			return false
		}
	}
	return words >= 2
}

// wordPathRun reports a relative path whose every segment is word parts with a word among
// them (ripgrep-0.1.2-x86_64-unknown-linux-musl/rg, a release archive's directory and its
// binary): a file's name, however many parts it joins. Base64 has no such segments: a
// segment of one word part must not look random, one of two words or more is names. A
// folder named by a UUID and a last file named by a generated id pass too; the separators
// may be Windows' backslashes.
func wordPathRun(run string) bool {
	if strings.ContainsAny(run, "+=:") || strings.HasPrefix(run, "/") || !strings.ContainsAny(run, "/\\") {
		return false
	}
	words := 0
	segs := strings.FieldsFunc(strings.TrimLeft(run, "-"), func(r rune) bool { return r == '/' || r == '\\' })
	for k, seg := range segs {
		if seg == "." || seg == ".." {
			continue
		}
		if len(seg) >= 36 && uuidRe.MatchString(seg[:36]) && (len(seg) == 36 || seg[36] == '.' && isLetters(seg[37:])) {
			continue // …/C--Users-[user]-git-starcar/<session's UUID>/scratchpad/car46, <UUID>.jsonl: named by an id
		}
		if k == len(segs)-1 && generatedLeaf(seg) {
			continue // …/tasks/b124rrwgi.output: a task's output file, its name generated
		}
		if seg = strings.TrimPrefix(seg, "."); !wordParts(seg, 2) && (!wordParts(seg, 1) || randomValue(seg)) && !numberedWord(seg) {
			return false
		}
		words++
	}
	return words > 0
}

// generatedLeaf reports a file's name whose stem is a short generated id and whose
// extension is a word (b124rrwgi.output, a38588f299202d415.output).
func generatedLeaf(seg string) bool {
	stem, ext, ok := strings.Cut(seg, ".")
	return ok && len(stem) >= 6 && len(stem) <= 20 && allLettersDigits(stem) && len(ext) >= 2 && len(ext) <= 8 && isLetters(ext) && strings.ToLower(ext) == ext
}

// numberedWord reports a lower-case word and a number of up to four digits after it (car46,
// step10, v2): a folder's name in a series.
func numberedWord(seg string) bool {
	t := strings.TrimRight(seg, "0123456789")
	return len(t) >= 1 && len(seg)-len(t) >= 1 && len(seg)-len(t) <= 4 && isLetters(t) && strings.ToLower(t) == t
}

// dnsNameRun reports a host's name, and an API group's with its version after it
// (012345678903AB2BAE5D1E0BFE0E2B50.gr7.us-east-1.eks.amazonaws.com, a cluster's endpoint;
// kubeproxy.config.k8s.io/v1alpha1, a Kubernetes apiVersion): three labels or more, the
// last a top-level domain (topLevelDomains, hostOnlyDomains). Where a service is, not a credential for it.
func dnsNameRun(run string) bool {
	if i := strings.Index(run, "//"); i == 0 || i > 0 && run[i-1] == ':' && isLetters(run[:i-1]) {
		run = run[i+2:] // https://host, or //host as a run opens after the scheme's colon
	}
	if i := strings.IndexByte(run, '/'); i >= 0 {
		if !apiVersionTail.MatchString(run[i+1:]) {
			return false
		}
		run = run[:i]
	}
	if strings.HasSuffix(run, ".apps.googleusercontent.com") {
		return false // an OAuth client's id, the half of a credential its secret goes with
	}
	labels := strings.Split(run, ".")
	if len(labels) < 3 || len(run) > 253 || !topLevelDomains[labels[len(labels)-1]] && !hostOnlyDomains[labels[len(labels)-1]] {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !isAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

// apiVersionTail is the version after an API group (v1, v1beta1, v2alpha3).
var apiVersionTail = regexp.MustCompile(`^v[0-9]+(?:(?:alpha|beta)[0-9]+)?$`)

// hostOnlyDomains are the last labels of hosts' names beside the top-level domains a
// package's group opens with: a cloud's, a cluster's internal names, a few more countries'.
var hostOnlyDomains = map[string]bool{"aws": true, "local": true, "internal": true, "svc": true, "us": true, "sh": true, "site": true}

// cognitoPoolID reports an Amazon Cognito user pool's id (us-west-2_re1u6bpRA): its region
// and nine letters and digits, an identifier an issuer URL carries.
func cognitoPoolID(run string) bool {
	if i := strings.LastIndexByte(run, '/'); i >= 0 {
		if !strings.Contains(run[:i], "cognito-idp.") {
			return false
		}
		run = run[i+1:] // //cognito-idp.us-west-2.amazonaws.com/us-west-2_re1u6bpRA
	}
	return cognitoPoolShape.MatchString(run)
}

var cognitoPoolShape = regexp.MustCompile(`^[a-z]{2}(?:-gov)?-[a-z]+-[0-9]_[A-Za-z0-9]{9}$`)

// harmlessRunLate reports the harmless runs whose test costs a decode, a look far back or a
// split into parts (an alphabet, a script or a sentence in base64, a property list's archived
// object, a host's name, a path of words): asked only of a run about to be masked as random.
func harmlessRunLate(text string, start, end int) bool {
	return alphabetRun(text[start:end]) || encodedCode(text[start:end]) || plistArchiveRun(text, start) || archivedObjectLine(text, start, end) ||
		csharpDescriptorLine(text, start) || wrappedBinaryBlock(text, start, end) || dashboardLinkRun(text, start) || digestNamedRun(text, start, end) || analyticsLinkerRun(text, start) || wordULID(text[start:end]) || acmeChallengePath(text, start) || arnRun(text, start) || markedExample(text[start:end]) || amazonIDRun(text, start) || uuidNamedRun(text[start:end]) || playgroundLinkRun(text, start) || generatedFileName(text, start, end) || dnsNameRun(text[start:end]) || cognitoPoolID(text[start:end]) || wordPathRun(text[start:end])
}

// uuidNamedRun reports a name built around a UUID (kubernetes-dynamic-pvc-bdb97c58-694a-
// 11e6-91b6-080027242396, a volume's; k8s_app.ed58ec4e_pod_default_f527ca5b-…_d25592c5, a
// container's): without its UUIDs the run is words, numbers and short hex parts, a
// generated name of a resource and never a key.
func uuidNamedRun(tok string) bool {
	if len(tok) < 40 || len(tok) > 200 || strings.Count(tok, "-") < 4 {
		return false
	}
	found := false
	var rest strings.Builder
	for i := 0; i < len(tok); {
		if i+36 <= len(tok) && tok[i+8] == '-' && uuidRe.MatchString(tok[i:i+36]) && (i == 0 || !isHex(tok[i-1:i])) && (i+36 == len(tok) || !isHex(tok[i+36:i+37])) {
			found = true
			rest.WriteByte('-')
			i += 36
			continue
		}
		rest.WriteByte(tok[i])
		i++
	}
	if !found {
		return false
	}
	for _, p := range strings.FieldsFunc(rest.String(), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' }) {
		if !(isLetters(p) && strings.ToLower(p) == p && len(p) <= 24 || isDigits(p) || isHex(p) && len(p) <= 8 || allLettersDigits(p) && len(p) <= 5) {
			return false
		}
		if nameHasSecretWord(p) || uuidKeyWords[p] {
			return false // launchdarkly-private-<uuid>, api-<uuid>: a key whose format is a UUID after its words
		}
	}
	return true
}

// uuidKeyWords are words that, before a UUID, make it a key (LaunchDarkly's api-, sdk- and
// mob- keys, a private one).
var uuidKeyWords = map[string]bool{"api": true, "sdk": true, "mob": true, "private": true, "key": true, "access": true, "auth": true}

// markedExample reports a value AWS's documentation marks as a sample with EXAMPLE in
// capitals (db-BIQTE3B3K3RM7M74SK5EXAMPLE, cluster-XYEDT6ML6FHIXH4Q2J1EXAMPLE).
func markedExample(tok string) bool {
	return len(tok) >= 16 && strings.Contains(tok, "EXAMPLE")
}

// amazonIDRun reports the id part of an Amazon account's or skill's id
// (amzn1.account.AF6RHO7KZU5XRVQJGXK6HB56KR2A, amzn1.ask.skill.…).
func amazonIDRun(text string, start int) bool {
	if strings.HasPrefix(text[start:], "amzn1.") {
		return true
	}
	if start == 0 || text[start-1] != '.' {
		return false
	}
	head := text[max(0, start-40):start]
	i := strings.LastIndex(head, "amzn1.")
	if i < 0 || head[len(head)-1] != '.' {
		return false
	}
	for _, c := range head[i+6:] {
		if !(c >= 'a' && c <= 'z' || c == '.') {
			return false
		}
	}
	return true
}

// acmeChallengePath reports an ACME HTTP-01 challenge's token in its path
// (/.well-known/acme-challenge/HGr8U1Ie…), which a web server serves to anyone who asks.
func acmeChallengePath(text string, start int) bool {
	return strings.HasSuffix(text[max(0, start-28):start], "/.well-known/acme-challenge/")
}

// arnRun reports a run inside an AWS resource name (arn:aws:cognito-idp:us-west-2:…:userpool/
// us-west-2_l5cxwdm2K, …:key/mrk-1234abcd…): ids, not secrets.
func arnRun(text string, start int) bool {
	if start == 0 || text[start-1] != ':' && text[start-1] != '/' {
		return false
	}
	head := text[max(0, start-160):start]
	i := strings.LastIndex(head, "arn:aws")
	return i >= 0 && !strings.ContainsAny(head[i:], " \t\n\"'`,") && strings.Count(head[i:], ":") >= 5
}

// digestNamedRun reports a digest under a key named for one ("md5Hash": "zJIFhUtf…==",
// crc32c: …, "sha256": "…"), as object storage's metadata and a package index print it:
// base64 of 4, 16, 20, 32, 48 or 64 bytes, or hex of 32, 40, 64 or 128 digits.
func digestNamedRun(text string, start, end int) bool {
	head := strings.TrimRight(text[max(0, start-40):start], " \t\"':=")
	i := len(head)
	for i > 0 && (isWordByte(head[i-1]) || head[i-1] == '-') {
		i--
	}
	if !digestKeyName(strings.ToLower(head[i:])) {
		return false
	}
	tok := text[start:end]
	size := 0
	switch {
	case isHex(tok):
		size = len(tok) / 2
	case strings.HasSuffix(tok, "=") || len(tok)%4 == 0:
		if b, err := base64.StdEncoding.DecodeString(tok); err == nil {
			size = len(b)
		}
	}
	switch size {
	case 4, 16, 20, 32, 48, 64:
		return true
	}
	return false
}

// digestKeyName reports a key named for a digest (md5Hash, sha256, crc32c, checksum, etag, a
// revision).
func digestKeyName(name string) bool {
	if name == "" {
		return false
	}
	for _, w := range []string{"md5", "sha1", "sha256", "sha512", "crc32c", "checksum", "digest", "etag", "revision"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return strings.HasSuffix(name, "hash") && !strings.Contains(name, "pass")
}

// analyticsLinkerRun reports a run inside Google Analytics' linker parameter
// (?_gl=1*dps5w8*_ga*…*_ga_CW55HF8NVT*czE3…), which a link copied from a Google console
// carries: client and session ids, read by the analytics page only.
func analyticsLinkerRun(text string, start int) bool {
	if start == 0 || text[start-1] != '*' {
		return false
	}
	head := text[max(0, start-200):start]
	i := strings.LastIndex(head, "_gl=1*")
	return i >= 0 && !strings.ContainsAny(head[i:], " \t\n\"'&)") && head[len(head)-1] == '*'
}

// playgroundLinkRun reports the source code a playground's link carries, compressed after
// its # (https://www.typescriptlang.org/play/index.html#code/JYOw…).
func playgroundLinkRun(text string, start int) bool {
	if start == 0 || text[start-1] != '#' {
		return false
	}
	head := text[max(0, start-80):start]
	i := strings.LastIndex(head, "typescriptlang.org/play")
	return i >= 0 && !strings.ContainsAny(head[i:], " \t\n\"'") && strings.Contains(head[i:], "#")
}

// dashboardLinkRun reports a run in a cloud dashboard's link (gh pr checks printing
// https://dash.cloudflare.com/?to=/<account>/pages/view/<project>/<deployment>): the ids
// of an account and a deployment, which open nothing without the account's login.
func dashboardLinkRun(text string, start int) bool {
	head := text[max(0, start-48):start]
	return strings.Contains(head, "//dash.cloudflare.com/") || strings.Contains(head, "//console.cloud.google.com/") ||
		strings.Contains(head, ".console.aws.amazon.com/") || strings.Contains(head, "//portal.azure.com/")
}

// generatedFileName reports a run that is a file's generated name in a path, its extension
// after it (.beads/backup/k1o3v1rddua4pnanacuknm2d6dvd7av3.darc, a backup's or a cache's
// entry in a listing): lower-case letters and digits after a slash, then a dot and an
// extension of letters that ends the path.
func generatedFileName(text string, start, end int) bool {
	if start == 0 || text[start-1] != '/' || end >= len(text) || text[end] != '.' {
		return false
	}
	for k := start; k < end; k++ {
		if c := text[k]; !isLowerByte(c) && !isDigitByte(c) {
			return false
		}
	}
	k := end + 1
	for k < len(text) && isLowerByte(text[k]) && k-end <= 6 {
		k++
	}
	return k-end >= 3 && k-end <= 6 && (k == len(text) || strings.IndexByte(" \t\n\r\"'`,;:)", text[k]) >= 0)
}

// wrappedBinaryBlock reports a run on a line of a block of base64 wrapped at 76 columns (as
// MIME and coreutils' base64 write it: an SVG's embedded PNG, a mail's attachment) that holds
// 2 048 characters or more and decodes to binary bytes: a file's payload read from its middle,
// where the data: URI or the header that names it is out of the text. PEM's 64 columns are
// not read: a private key's body is wrapped so.
func wrappedBinaryBlock(text string, start, end int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	le := strings.IndexByte(text[end:], '\n')
	if le < 0 || le+end-ls != 76 {
		return false
	}
	le += end
	isLine := func(a, b int) bool {
		if b-a != 76 {
			return false
		}
		for k := a; k < b; k++ {
			if !isBase64Byte(text[k]) {
				return false
			}
		}
		return true
	}
	if !isLine(ls, le) {
		return false
	}
	bs, be := ls, le // the block: whole lines of 76 around the run's line
	for bs >= 77 && text[bs-1] == '\n' && isLine(bs-77, bs-1) && ls-bs < 1<<14 {
		bs -= 77
	}
	for be+77 <= len(text) && text[be] == '\n' && isLine(be+1, be+77) && be-le < 1<<14 {
		be += 77
	}
	if (be-bs+1)/77*76 < 2048 || strings.HasPrefix(text[bs:], "MII") || strings.HasPrefix(text[bs:], "/u3+7") {
		// (a block that opens as DER or as a Java keystore's magic does: a PKCS#12 or JKS
		// store printed by base64, a signing key's container)
		return false
	}
	return binaryBase64Sample(strings.ReplaceAll(text[bs:bs+77*14], "\n", ""))
}

// binaryBase64Sample reports a sample of base64, read from anywhere in its run (at each of
// the four offsets a quantum may start at), that decodes to bytes a third or more of which
// are not text.
func binaryBase64Sample(sample string) bool {
	n := (len(sample) - 3) / 4 * 4
	for shift := 0; shift < 4; shift++ {
		b, err := base64.StdEncoding.DecodeString(sample[shift : shift+n])
		if err != nil {
			continue
		}
		odd := 0
		for _, c := range b {
			if c < 0x09 || c > 0x0d && c < 0x20 || c >= 0x7f {
				odd++
			}
		}
		if odd*3 > len(b) {
			return true
		}
	}
	return false
}

// csharpDescriptorLine reports a line of the serialized file descriptor protoc's C#
// output embeds (descriptorData = global::System.Convert.FromBase64String(string.Concat(
// "CiNT…", "QXBp…", …)): a schema in base64, its statement not closed before the run.
func csharpDescriptorLine(text string, start int) bool {
	head := text[max(0, start-4096):start]
	i := strings.LastIndex(head, "descriptorData = global::System.Convert.FromBase64String(")
	return i >= 0 && strings.IndexByte(head[i:], ';') < 0
}

// longBinaryRun reports a token inside a run of base64 of 2 048 characters or more that
// opens the text or a line and decodes to binary bytes: an image's or a file's payload, read
// from its middle (a line of a data: URI longer than the text holds; a long encoded document
// decodes to text, which the decoding pass reads).
func longBinaryRun(text string, start, end int) bool {
	rs, re := start, end
	for rs > 0 && start-rs < 1<<16 && (isBase64Byte(text[rs-1]) || text[rs-1] == '=') {
		rs--
	}
	for re < len(text) && re-end < 1<<16 && (isBase64Byte(text[re]) || text[re] == '=') {
		re++
	}
	if re-rs < 2048 || strings.HasPrefix(text[rs:], "MII") || rs > 0 && text[rs-1] != '\n' {
		// (MII…: a DER key or certificate, a secret's shape when it is a private key; a
		// run after a name on its line is that name's value, LONG_CREDENTIAL: AgV4…)
		return false
	}
	return binaryBase64Sample(text[rs : rs+1024])
}

// protoDescriptorHead reports the first line of a serialized protobuf file descriptor as
// protoc's generated C# and Java embed it in base64 ("CiNTZXJ2aWNlcy9CYXNrZXQvUHJvdG9zL2Jh…":
// field 1, the .proto file's name): a schema, not a secret.
func protoDescriptorHead(run string) bool {
	if !strings.HasPrefix(run, "C") || len(run) < 24 {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(run[:len(run)/4*4])
	if err != nil || len(b) < 3 || b[0] != 0x0a || int(b[1])+2 > len(b) {
		return false
	}
	name := string(b[2 : 2+int(b[1])])
	return strings.HasSuffix(name, ".proto") && !strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r > 0x7e })
}

// forgeProfileRun reports a code forge's link to an account or a repository
// (//github.com/Craz1k0ek, github.com/tiangolo/full-stack-fastapi-template): names of at most
// 39 letters, digits and dashes, public where the link is.
func forgeProfileRun(run string) bool {
	rest, ok := cutPrefixAny(strings.TrimPrefix(run, "//"), "github.com/", "gitlab.com/", "codeberg.org/", "bitbucket.org/")
	if !ok {
		return false
	}
	segs := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	if len(segs) > 2 {
		return false
	}
	for _, s := range segs {
		if s == "" || len(s) > 39 || !isAlnum(s[0]) {
			return false
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
				return false
			}
		}
	}
	return true
}

// mediaFileName reports the name of a media file a URL ends in
// (https://v3.fal.media/files/elephant/d5lORit2…_tmplacfh8oa.mp3): a generated name, public
// where the link is.
func mediaFileName(text string, start, end int) bool {
	if start == 0 || !hasPrefixAny(text[end:], mediaExtensions) && !hasSuffixAny(strings.ToLower(text[start:end]), mediaExtensions) {
		return false
	}
	ls := strings.LastIndexAny(text[:start], " \t\n\"'(<")
	u := text[ls+1 : end]
	if strings.ContainsAny(u, "?#=&@") {
		return false // a query or a fragment may carry a token; only a path's file name is taken
	}
	return strings.Contains(u, "://")
}

// mediaExtensions are the extensions of images, audio and video files.
var mediaExtensions = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif", ".mp3", ".mp4", ".wav", ".ogg", ".webm", ".m4a", ".mov"}

// thinkingBlob reports the encrypted reasoning a model provider hands back with a thinking
// block, printed by code that shows a response (TextBlock(type='redacted_thinking',
// data='EvAFCoYB…'), signature='EuYBCkQY…'): the provider's opaque blob, no credential.
func thinkingBlob(text string, start, end int) bool {
	if end-start < 40 || text[start] != 'E' {
		return false
	}
	head := text[max(0, start-300):start]
	if !strings.Contains(head, "thinking") && !strings.Contains(head, "Thinking") {
		return false
	}
	h := strings.TrimRight(head, "'\" :=\\")
	return strings.HasSuffix(h, "data") || strings.HasSuffix(h, "signature") || strings.HasSuffix(h, "Signature (first 50 chars)")
}

// svgPathData reports a run inside an SVG path's d attribute (d="M0 23V1h7.8C15.35 1 …"):
// drawing commands and numbers.
func svgPathData(text string, start int) bool {
	i := start
	for i > 0 && start-i < 8192 && strings.IndexByte("0123456789.,- \tMmLlHhVvCcSsQqTtAaZz", text[i-1]) >= 0 {
		i--
	}
	return i >= 3 && (strings.HasSuffix(text[:i], ` d="`) || strings.HasSuffix(text[:i], ` d='`) || strings.HasSuffix(text[:i], `"d":"`))
}

// imageExtensions end the paths of images and media a page or a README links.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif", ".ico", ".mp4", ".webm"}

// encodedImageURLRun reports a run inside a percent-encoded link to an image
// (demo-image=%2F%2Fimages.ctfassets.net%2Fe5382hct74si%2F2T4BUF3m…%2Fshot.png in a deploy
// button's link, assets%2FYJIGb4i01…%2F1968… on an image CDN): an asset's id in its path, public
// where the page shows the image.
func encodedImageURLRun(text string, start, end int) bool {
	if start < 1 || text[start-1] != '%' || !strings.HasPrefix(text[start:], "2F") && !strings.HasPrefix(text[start:], "2f") {
		return false
	}
	delim := func(c byte) bool { return c <= ' ' || strings.IndexByte("\"'`()<>&=?", c) >= 0 }
	ts := start
	for ts > 0 && start-ts < 400 && !delim(text[ts-1]) {
		ts--
	}
	te := end
	for te < len(text) && te-end < 400 && !delim(text[te]) {
		te++
	}
	u := strings.ToLower(strings.NewReplacer("%2F", "/", "%2f", "/").Replace(text[ts:te]))
	if hasSuffixAny(u, imageExtensions) {
		return true
	}
	for _, h := range []string{"images.ctfassets.net/", "cdn.builder.io/", "cdn.sanity.io/images/", "res.cloudinary.com/", "imagedelivery.net/"} {
		if strings.Contains(u, h) || strings.Contains(text[max(0, ts-80):ts], h) {
			return true
		}
	}
	return false
}

// publicByPlace reports a run where only public values stand: the body of an XML signature's
// SignatureValue, DigestValue or X509Certificate (XMLDSig, SAML), the base64 lines below them
// included, and an OAuth PKCE code_challenge (the verifier's hash, sent in the open).
func publicByPlace(text string, start int) bool {
	head := text[max(0, start-200):start]
	if i := strings.LastIndexByte(head, '<'); i >= 0 {
		tag := head[i+1:]
		if j := strings.IndexByte(tag, '>'); j >= 0 {
			name := tag[:j]
			if k := strings.IndexByte(name, ':'); k >= 0 {
				name = name[k+1:]
			}
			rest := tag[j+1:]
			if (name == "SignatureValue" || name == "DigestValue" || name == "X509Certificate") &&
				strings.IndexFunc(rest, func(r rune) bool {
					return !(r < 128 && (isBase64Byte(byte(r)) || r == '=' || r == '\n' || r == '\r' || r == ' ' || r == '\t'))
				}) < 0 {
				return true
			}
		}
	}
	h := strings.TrimRight(head, "'\" :=")
	return strings.HasSuffix(h, "code_challenge") && len(head)-len(h) <= 4
}

// debianArchivePath reports a path inside a Debian archive, as apt, a Release file and a
// mirror's listing print them (pool/main/o/openssl/libssl3_3.0.16-1~deb12u1+b1_amd64.deb,
// main/installer-amd64/20230607+deb12u15/images/MD5SUMS): a component, then segments of
// package names and versions, whose + and ~ are no base64's.
func debianArchivePath(tok string) bool {
	rest := strings.TrimPrefix(tok, "pool/")
	comp, rest, ok := strings.Cut(rest, "/")
	if !ok || !slices.Contains([]string{"main", "contrib", "non-free", "non-free-firmware", "universe", "multiverse", "restricted"}, comp) {
		return false
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" {
			return false
		}
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return strings.ContainsRune("+~._-", r) }) {
			if len(part) > 24 || len(part) > 8 && !vowelWord(strings.ToLower(part)) && !isDigits(part) {
				return false // no piece of a name or a version (libssl3, deb12u1, b1, amd64, 20230607)
			}
		}
	}
	return true
}

// overlayLayerID reports a layer's short id in an overlay mount's lower directories (mount
// and docker inspect print lowerdir=l/O4334EHW…:l/EAPFFR2K…): 26 characters of base32 that
// name a directory under /var/lib/docker/overlay2/l.
func overlayLayerID(text string, start, end int) bool {
	id := strings.TrimPrefix(text[start:end], "l/")
	if len(id) != 26 {
		return false
	}
	for k := 0; k < len(id); k++ {
		if c := id[k]; !isUpperByte(c) && (c < '2' || c > '7') {
			return false
		}
	}
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	return strings.Contains(text[max(ls, start-4000):start], "lowerdir=") || strings.HasSuffix(text[:start], "overlay2/l/")
}

// qualifiedConstantName reports a constant's name behind its type's or module's (a name in
// Pascal case, a dot, then upper case in two parts or more: Charsets.UTF8MB4_UNICODE_CI).
func qualifiedConstantName(tok string) bool {
	typ, c, ok := strings.Cut(tok, ".")
	if !ok || len(typ) < 3 || !isUpperByte(typ[0]) || !isLetters(typ) || strings.Count(c, "_") == 0 {
		return false
	}
	for _, part := range strings.Split(c, "_") {
		if part == "" || !isUpperByte(part[0]) {
			return false
		}
		for k := 0; k < len(part); k++ {
			if !isUpperByte(part[k]) && !isDigitByte(part[k]) {
				return false
			}
		}
	}
	return true
}

// relativeModulePath reports a path relative to the file that names it, of word segments
// (./sha512/Sha512WebCrypto, ../lib/x): an import's.
func relativeModulePath(tok string) bool {
	rest, ok := cutPrefixAny(tok, "./", "../")
	return ok && rest != "" && wordSegments(strings.Split(rest, "/"))
}

// pascalCaseName reports a name in Pascal case of four pieces or more, each a capital and two
// lower-case letters or more, maybe digits after them (AeadAes256GcmRtpSize): an enum member's
// or a type's name, where a random run puts capitals side by side or before a digit.
func pascalCaseName(tok string) bool {
	if len(tok) < 12 || len(tok) > 64 || !isUpperByte(tok[0]) {
		return false
	}
	pieces := 0
	for i := 0; i < len(tok); {
		if !isUpperByte(tok[i]) {
			return false
		}
		j := i + 1
		for j < len(tok) && isLowerByte(tok[j]) {
			j++
		}
		if j-i < 3 {
			return false
		}
		for j < len(tok) && isDigitByte(tok[j]) {
			j++
		}
		pieces++
		i = j
	}
	return pieces >= 4
}

// x509Base64 reports a run of base64 that holds the DER of an X.509 name or extension — the
// encoded object identifier of a name's attribute (2.5.4.x: CN, O, OU, C…) or of an
// extension (2.5.29.x) at any of the three alignments base64 gives it: a line of a
// certificate (or a request) pasted without its armour, which is public. A private key holds
// neither.
func x509Base64(tok string) bool {
	if len(tok) < 40 {
		return false
	}
	for _, oid := range []string{"BgNVBA", "YDVQQ", "GA1UE", "BgNVH", "YDVR0", "GA1Ud"} {
		if strings.Contains(tok, oid) {
			return true
		}
	}
	return false
}

// windowsPackageName is a Windows app package's full name, as its folder under
// C:\Program Files\WindowsApps is named: name, version, architecture, resource id and the
// publisher's 13-character id (OpenAI.Codex_26.305.1234.0_x64__2p2nqsd0c76g0).
var windowsPackageName = regexp.MustCompile(`^[A-Za-z0-9][\w.-]*_\d+(?:\.\d+){1,3}_(?:x64|x86|arm64|arm|neutral)_[\w.~-]*_[a-z0-9]{13}$`)

// windowsPackageLike is windowsPackageName's cheap gate: an architecture between
// underscores.
func windowsPackageLike(tok string) bool {
	return strings.Contains(tok, "_x64_") || strings.Contains(tok, "_x86_") || strings.Contains(tok, "_arm64_") ||
		strings.Contains(tok, "_neutral_") || strings.Contains(tok, "_arm_")
}

// didMethodBefore reports a run right after a decentralized identifier's method
// (did:key:z6Mk…, did:web:, did:plc:): the identifier of a public key or a document.
func didMethodBefore(text string, start int) bool {
	i := start - 1
	if i < 5 || text[i] != ':' {
		return false
	}
	j := i
	for j > 0 && isLowerByte(text[j-1]) || j > 0 && isDigitByte(text[j-1]) {
		j--
	}
	return j < i && j >= 4 && text[j-4:j] == "did:"
}

// sortedRun reports a run whose characters come in the order of digits, then letters
// without regard to case (0123456789abcdEFGhHiIKlLnoPqrRsTuUvVwxyzZ, a command's option
// letters in a pattern's bracket): a set listed, not drawn at random, which sorts itself in
// one of about 16! draws of sixteen characters.
func sortedRun(tok string) bool {
	if len(tok) < 16 {
		return false
	}
	rank := func(c byte) int {
		switch {
		case isDigitByte(c):
			return int(c - '0')
		case isLetter(c):
			return 10 + int(c|0x20-'a')
		}
		return -1
	}
	prev := -1
	for i := 0; i < len(tok); i++ {
		r := rank(tok[i])
		if r < 0 || r < prev {
			return false
		}
		prev = r
	}
	return true
}

// operandRun reports a run that is operands of code joined by + or - without blanks
// (uint32(52)+libc.Uint32FromInt32(n), .FpageSize+libc.Uint32FromInt32, iLeaf+int32(1)):
// each a name, a qualified name or a number, one of them qualified or the run called or
// closed by code's punctuation right after it. Base64 joins its pieces with + too, but its
// pieces mix digits into letters as no name does, and no dot joins them.
func operandRun(text string, start, end int) bool {
	tok := strings.TrimLeft(text[start:end], ".")
	if !strings.ContainsAny(tok, "+-") {
		return false
	}
	qualified := false
	for _, p := range strings.FieldsFunc(tok, func(r rune) bool { return r == '+' || r == '-' }) {
		if isDigits(p) {
			continue
		}
		if !qualifiedOperand(p) {
			return false
		}
		qualified = qualified || strings.IndexByte(p, '.') > 0
	}
	return qualified || end < len(text) && strings.IndexByte("()[],;", text[end]) >= 0
}

// escapedWordTail reports a run that opens with the hex of a JSON \u escape inside a word
// and goes on with letters ("Franz\u00f6sisch-Polynesien", "Stra\u00dfenverkehr"): a
// word of a language that is not English, which a tool's JSON output escapes, not a token.
func escapedWordTail(text string, start, end int) bool {
	tok := text[start:end]
	if start < 2 || text[start-1] != '\\' || len(tok) < 6 || tok[0] != 'u' || !isHex(tok[1:5]) || !isLetter(text[start-2]) {
		return false
	}
	for _, w := range strings.FieldsFunc(tok[5:], func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if !isLetters(w) {
			return false
		}
	}
	return true
}

// mediaSignatures are the base64 forms of the first bytes of images, fonts, documents, audio,
// video and WebAssembly: PNG, JPEG, GIF, WebP/RIFF (also WAV), PDF, WOFF and WOFF2, SVG (<svg,
// <?xml), ICO, TIFF (both byte orders), MP3 with an ID3 tag, Ogg, WebM/Matroska and a wasm
// module (\0asm, inlined by bundlers). Archives (gzip's H4sI, zip's UEsDB) are not among them:
// a Helm release or a packed config holds secrets.
var mediaSignatures = []string{"iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "JVBERi0", "d09GRg", "d09GMg", "PHN2Zy", "PD94bWwg",
	"AAABAA", "SUkqAA", "TU0AKg", "SUQzB", "SUQzA", "T2dnUw", "GkXfo", "AGFzbQ"}

// mp4Signature reports the base64 form of an ISO media file's opening box (00 00 00 nn
// "ftyp": MP4, MOV, HEIC, AVIF), whose size byte changes its fifth character.
func mp4Signature(s string) bool {
	return len(s) >= 10 && strings.HasPrefix(s, "AAAA") && s[5:10] == "GZ0eX"
}

// inEncodedMedia reports whether the token at start is part of an encoded image, font or
// document (looking back at most 8 KB, so a larger file's later lines are judged alone): the payload of a data: URI whose slashes are JSON-escaped (data:image\/png;base64,
// …\/…), a base64 string that opens with a media file's signature (a JSON "thumbnail":
// "iVBORw0KGgo…"), or a line of a base64 block (a MIME part, a wrapped file) whose first line
// does.
func inEncodedMedia(text string, start int) bool {
	// Back over base64 characters, JSON-escaped slashes and line breaks to where the run opens.
	i := start
	for n := 0; i > 0 && n < 8192; n++ {
		c := text[i-1]
		switch {
		case isBase64Byte(c) || c == '=':
			i--
		case c == '\\' && i < len(text) && text[i] == '/':
			i--
		case c == '\n' && i >= 2 && isBase64Byte(text[i-2]) && lineIsBase64(text, i):
			i--
		case c == '\\' && i < len(text) && text[i] == 'n' && i >= 2 && isBase64Byte(text[i-2]) && lineIsBase64(text, i+1):
			i-- // a JSON-escaped line break (the n was taken for base64)
		case c == ' ' && i >= 3 && text[i-2] == '\n' && isBase64Byte(text[i-3]) && lineIsBase64(text, i):
			i -= 2 // the same read through the escaped view, "\n" then a blank
		default:
			n = 8192
		}
	}
	if hasPrefixAny(text[i:], mediaSignatures) || mp4Signature(text[i:]) {
		return true
	}
	head := text[max(0, i-64):i]
	j := strings.LastIndex(head, "data:")
	return j >= 0 && strings.HasSuffix(head, ";base64,") && !strings.ContainsAny(head[j:], " \t\n\"'")
}

// lineIsBase64 reports whether the line starting at i is one line of a base64 block: 40 or
// more base64 characters and nothing else.
func lineIsBase64(text string, i int) bool {
	j := i
	for j < len(text) && (isBase64Byte(text[j]) || text[j] == '=') {
		j++
	}
	return j-i >= 40 && (j == len(text) || text[j] == '\n' || text[j] == '"' || text[j] == '\\' && j+1 < len(text) && text[j+1] == 'n')
}

func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}

func hasSuffixAny(s string, suffixes []string) bool {
	for _, p := range suffixes {
		if strings.HasSuffix(s, p) {
			return true
		}
	}
	return false
}

func hasPrefixAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// sshKeyTypes are the key types an OpenSSH public key line opens with.
var sshKeyTypes = []string{"ssh-ed25519", "ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com"}

// wrappedPublicKeyLine reports a line continuing an OpenSSH public key that a terminal or a
// transcript wrapped (cat id_rsa.pub in a narrow window): the lines above it, up to the one
// holding the key's type and its AAAA… opening, are base64 and nothing else.
func wrappedPublicKeyLine(text string, start int) bool {
	for start > 0 && (isBase64Byte(text[start-1]) || text[start-1] == '=') {
		start-- // a run read from the line's middle (entropy splits at /)
	}
	if start == 0 || text[start-1] != '\n' {
		return false
	}
	end := start - 1 // the line break ending the line above
	for n := 0; n < 40 && end > 0; n++ {
		ls := strings.LastIndexByte(text[:end], '\n') + 1
		line := text[ls:end]
		if sp := strings.LastIndexByte(line, ' '); sp >= 0 {
			key, head := line[sp+1:], strings.TrimRight(line[:sp], " ")
			if !strings.HasPrefix(key, "AAAA") || strings.IndexFunc(key, func(r rune) bool { return r > 127 || !isBase64Byte(byte(r)) }) >= 0 {
				return false
			}
			for _, t := range sshKeyTypes {
				if strings.HasSuffix(head, t) && (len(head) == len(t) || head[len(head)-len(t)-1] == ' ' || head[len(head)-len(t)-1] == '\t') {
					return true
				}
			}
			return false
		}
		if len(line) < 20 || strings.IndexFunc(line, func(r rune) bool { return r > 127 || !isBase64Byte(byte(r)) }) >= 0 {
			return false
		}
		if ls == 0 {
			return false
		}
		end = ls - 1
	}
	return false
}

// inPublicKey reports whether the token at start is the key of an OpenSSH public key line
// (ssh-ed25519 AAAAC3Nz…, as .pub files, authorized_keys and ssh-add -L print it), of a
// pam_u2f authfile line, or a line of an armored PGP PUBLIC KEY BLOCK: public by definition, where private keys come as PEM or PGP
// PRIVATE KEY blocks, which the key rules mask whole.
func inPublicKey(text string, start int) bool {
	if strings.HasPrefix(text[start:], "AAAA") {
		head := text[max(0, start-40):start]
		for _, alg := range []string{"ssh-ed25519 ", "ssh-rsa ", "ssh-dss ", "ecdsa-sha2-nistp256 ", "ecdsa-sha2-nistp384 ",
			"ecdsa-sha2-nistp521 ", "sk-ssh-ed25519@openssh.com ", "sk-ecdsa-sha2-nistp256@openssh.com "} {
			if strings.HasSuffix(head, alg) {
				return true
			}
		}
	}
	if u2fKeysLine(text, start) || wrappedPublicKeyLine(text, start) {
		return true
	}
	// An armored line opens its line (after indentation or a JSON-escaped line break).
	i := start
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	if i > 0 && text[i-1] != '\n' && !(i > 1 && text[i-2] == '\\' && text[i-1] == 'n') {
		return false
	}
	head := text[max(0, start-8192):start]
	for _, begin := range []string{"BEGIN PGP PUBLIC KEY BLOCK-----", "BEGIN PGP SIGNATURE-----"} {
		if b := strings.LastIndex(head, begin); b >= 0 && !strings.Contains(head[b:], "-----END PGP") {
			return true
		}
	}
	// A certificate, a certificate request or a public key in PEM: public by definition.
	if b := strings.LastIndex(head, "-----BEGIN "); b >= 0 {
		if strings.Contains(head[b:], "-----END") {
			return publicBlockTail(text, start)
		}
		label, _, _ := strings.Cut(head[b+len("-----BEGIN "):], "-----")
		return publicArmorLabel(label)
	}
	return publicBlockTail(text, start)
}

// publicArmorLabel reports the label of an armored block that holds nothing secret: a
// certificate, a certificate request, a revocation list, a public key, a PGP public key or
// signature.
func publicArmorLabel(label string) bool {
	switch label {
	case "CERTIFICATE", "TRUSTED CERTIFICATE", "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST", "X509 CRL", "PUBLIC KEY", "RSA PUBLIC KEY",
		"PGP PUBLIC KEY BLOCK", "PGP SIGNATURE":
		return true
	}
	return false
}

// publicBlockTail reports a line of an armored block whose BEGIN line the text does not hold
// (output cut at its head, a bundle's second page): only base64 lines come between it and the
// block's END line, and that END names a public block.
func publicBlockTail(text string, start int) bool {
	tail := text[start:min(len(text), start+8192)]
	e := strings.Index(tail, "-----END ")
	if e < 0 {
		return false
	}
	label, _, ok := strings.Cut(tail[e+len("-----END "):], "-----")
	if !ok || !publicArmorLabel(label) {
		return false
	}
	for _, line := range strings.Split(strings.ReplaceAll(tail[:e], `\n`, "\n"), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "=") && len(line) == 5 {
			continue // a PGP block's checksum line
		}
		for i := 0; i < len(line); i++ {
			if c := line[i]; !isAlnum(c) && c != '+' && c != '/' && c != '=' {
				return false
			}
		}
	}
	return true
}

// u2fKeysLine reports whether the token at start is on a line of pam_u2f's authfile
// (user:KeyHandle,UserKey,es256,+presence, as pamu2fcfg prints it): a FIDO credential's id and
// public key, where the private key never leaves the authenticator. Both keys come before the
// algorithm, so the rest of the line is enough to tell.
func u2fKeysLine(text string, start int) bool {
	rest := text[start:min(len(text), start+400)]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	for _, alg := range []string{",es256,", ",eddsa,", ",rs256,"} {
		if strings.Contains(rest, alg) {
			return true
		}
	}
	return false
}

// idPathSegment reports whether the path segment at seg of the token run at start names
// rather than unlocks: the opaque id of a search provider's citation redirect
// (vertexaisearch.cloud.google.com/grounding-api-redirect/…, the links Gemini cites its web
// sources with), a resource of an AWS ARN (arn:aws:iam::…:role/service-role/
// AWSLambdaBasicExecutionRole-5f1c9e2a) or the key of an image on a profile-picture or media
// CDN (imageHostRun).
func idPathSegment(text string, start, seg int) bool {
	if strings.HasSuffix(text[max(0, seg-64):seg], ".google.com/grounding-api-redirect/") || imageHostRun(text, start) || googleDocPath(text[start:seg]) {
		return true
	}
	head := text[max(0, start-96):start] // the run opens after the ARN's last colon
	i := strings.LastIndex(head, "arn:aws")
	return i >= 0 && !strings.ContainsAny(head[i:], " \t\n\"'")
}

// googleDocPath reports the path before a Google document's id in its URL
// (docs.google.com/document/d/1CvA…, /spreadsheets/d/, /presentation/d/e/2PACX-…,
// drive.google.com/file/d/, /drive/folders/): the id names a document, which its sharing
// settings guard, as a gist's or a video's id does.
func googleDocPath(path string) bool {
	path = strings.TrimLeft(path, "/")
	if !strings.HasPrefix(path, "docs.google.com/") && !strings.HasPrefix(path, "drive.google.com/") {
		return false
	}
	return strings.HasSuffix(path, "/d/") || strings.HasSuffix(path, "/d/e/") || strings.HasSuffix(path, "/folders/")
}

// qualifiedKey reports a key named by the word before it as one that is no secret: "Cache
// key: v1-deps-…", "Primary key", "Sort key", "Host key".
func qualifiedKey(s string, nameStart int, name string) bool {
	if l := strings.ToLower(name); l != "key" && l != "keys" || nameStart < 2 || s[nameStart-1] != ' ' {
		return false
	}
	i := nameStart - 1
	for i > 0 && isLetter(s[i-1]) {
		i--
	}
	switch strings.ToLower(s[i : nameStart-1]) {
	case "public", "pub", "primary", "foreign", "sort", "partition", "cache", "idempotency", "hash", "lookup",
		"unique", "map", "dict", "group", "row", "column", "index", "shortcut", "hot", "react", "translation", "host":
		return true
	}
	return false
}

// urlWithHost reports a token that opens with a host name in lower case (words and digits
// joined by dots and dashes, the last part a top-level domain of letters): the rest of a URL
// after its scheme (gist.github.com/wong2/e0f3…), whose slashes are a path's, not random
// base64's, which mixes cases.
func urlWithHost(tok string) bool {
	host, _, _ := strings.Cut(strings.TrimLeft(tok, "/"), "/")
	parts := strings.Split(host, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	tld := parts[len(parts)-1]
	return len(tld) >= 2 && len(tld) <= 12 && isLetters(tld)
}

// idNamedValue reports a token that is the whole quoted value of a member named for the
// identifier of a record that model providers, agents and APIs return ("responseId":
// "mNq7aPmTLeyWz7IP3YKb2Qo", Gemini's response ids; "node_id": "PR_kwDO…", GitHub's;
// "conversationId", "traceId", "tool_call_id"): random, but an identifier. Only those names:
// the id of a client, an app, an account, a tenant or a key can be half of a credential pair
// or a secret itself (Vault's secret_id, an API key's key_id), and a bare "id" or "uuid" says
// nothing of what it identifies (an API key object's), so entropy still decides them.
func idNamedValue(text string, start, end int) bool { return idNamedValueAt(text, start, end, true) }

// idNamedValueAt is idNamedValue; elsewhere lets a bare "id" be read through idElsewhere
// (which asks this with elsewhere false, so the look is one level deep).
func idNamedValueAt(text string, start, end int, elsewhere bool) bool {
	if start < 4 || end >= len(text) || text[start-1] != '"' || !strings.HasPrefix(strings.TrimLeft(text[end:min(len(text), end+8)], "\\ "), `"`) {
		return false
	}
	i := start - 2
	for i >= 0 && (text[i] == '\\' || text[i] == ' ') {
		i-- // the quote escaped in a JSON string: nonce=\"…\" (in the view, a blank)
	}
	if i >= 1 && text[i-1] == 'W' && text[i] == '/' {
		for i -= 2; i >= 0 && (text[i] == '"' || text[i] == '\\' || text[i] == ' '); i-- {
		} // a weak ETag: "etag": "W/\"5e-…\""
	}
	for i >= 0 && (text[i] == ' ' || text[i] == '\t') {
		i--
	}
	if i < 0 || text[i] != ':' && text[i] != '=' {
		return false
	}
	i--
	for i >= 0 && (text[i] == ' ' || text[i] == '"' || text[i] == '\\') {
		i--
	}
	e := i + 1
	for i >= 0 && (isWordByte(text[i]) || text[i] == '-') {
		i--
	}
	name := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(text[i+1 : e]))
	if name == "id" {
		return namedRecord(text, i+1, end) || elsewhere && idElsewhere(text, start, end)
	}
	return recordIDNames[name]
}

// idElsewhere reports a value under a bare "id" that the text also holds under a record id's
// name ("responseId": "Un6L…" in a provider's reply, "id": "Un6L…" in the SDK's result): the
// same response's id, passed on.
func idElsewhere(text string, start, end int) bool {
	v := text[start:end]
	for from := 0; ; {
		j := strings.Index(text[from:], v)
		if j < 0 {
			return false
		}
		j += from
		from = j + len(v)
		if j != start && idNamedValueAt(text, j, j+len(v), false) {
			return true
		}
	}
}

// namedRecord reports an object whose "id" member (the key at k, its value ending at end)
// sits beside a "name", "title" or "slug" member: a record a service lists (a voice, a
// model, a project), whose id is a handle. A bare "id" may name an API key's own value.
func namedRecord(text string, k, end int) bool {
	o := strings.LastIndexByte(text[max(0, k-200):k], '{')
	if o < 0 {
		return false
	}
	o += max(0, k-200)
	c := strings.IndexByte(text[end:min(len(text), end+300)], '}')
	if c < 0 || strings.ContainsAny(text[o+1:k], "{}") {
		return false
	}
	obj := text[o : end+c]
	if strings.IndexByte(obj[k-o:], '{') >= 0 {
		return false // a nested object after the id: not one flat record
	}
	for _, m := range []string{`"name"`, `"title"`, `"slug"`, `"display_name"`, `"displayName"`} {
		if strings.Contains(obj, m) {
			return true
		}
	}
	return false
}

// recordIDNames are the names, lower-cased without separators, of members holding a returned
// record's identifier.
var recordIDNames = map[string]bool{
	"nodeid": true, "responseid": true,
	"requestid": true, "messageid": true, "msgid": true, "conversationid": true, "threadid": true,
	"chatid": true, "turnid": true, "runid": true, "stepid": true, "itemid": true, "eventid": true,
	"parentid": true, "callid": true, "toolcallid": true, "tooluseid": true, "generationid": true,
	"completionid": true, "promptid": true, "traceid": true, "spanid": true, "correlationid": true,
	"executionid": true, "jobid": true, "taskid": true, "commitid": true, "checkrunid": true,
	// what a cloud's API and Terraform's plan print for a request's host and for resources
	"hostid": true, "extendedrequestid": true, "resourceid": true, "instanceid": true, "imageid": true,
	"containerid": true, "snapshotid": true, "volumeid": true, "insertid": true, "segmentid": true,
	"invocationid": true, "operationid": true, "deploymentid": true, "buildid": true,
	// what OpenID Connect and PKCE publish in a request: the verifier and the client's secret
	// stay secret
	"nonce": true, "codechallenge": true,
	// where a listing goes on, and a content's version
	"cursor": true, "nextcursor": true, "startcursor": true, "endcursor": true, "pagetoken": true,
	"nextpagetoken": true, "continuationtoken": true, "etag": true, "ulid": true,
	// the ids of things a service names (a voice, a model, an agent, a project): public
	// handles, not credentials (a bare "id" may name an API key's own value)
	"voiceid": true, "modelid": true, "agentid": true, "assistantid": true,
	"projectid": true, "userid": true, "accountid": true, "orgid": true, "organizationid": true, "workspaceid": true,
	"channelid": true, "guildid": true, "teamid": true, "tenantid": true, "subscriptionid": true,
	// a file's digest, by its algorithm's name ("sha512": "HYmZ…==" in a lockfile or a
	// release manifest)
	"sha1": true, "sha224": true, "sha256": true, "sha384": true, "sha512": true, "md5": true, "shasum": true,
	"checksum": true, "digest": true, "integrity": true,
}

// gitRefLine matches the start of a line git push and fetch print for a ref they updated:
// "   3f9c2b1..7d4b9c8  feature/token-refresh -> feature/token-refresh", "* [new branch]".
var gitRefLine = regexp.MustCompile(`^\s*(?:[+ ] )?(?:[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\* \[new (?:branch|tag|ref)\]|- \[deleted\]|= \[up to date\]|! \[rejected\])\s`)

// gitRefUpdate reports a name on such a line: a branch or tag name (token-refresh), which
// the keyword rule would read as a name assigned with ->.
func gitRefUpdate(s string, nameStart int) bool {
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	return nameStart-ls < 160 && gitRefOpening(s[ls:nameStart]) && gitRefLine.MatchString(s[ls:nameStart])
}

// testStatus reports a test runner's PASS (Go's "--- PASS: TestX/case", "=== PASS", TAP and
// Jest's "PASS src/…"), which the keyword rule would read as a password's name.
func testStatus(s string, nameStart int, name string) bool {
	if name != "PASS" {
		return false
	}
	head := s[max(0, nameStart-4):nameStart]
	if (strings.HasSuffix(head, "**") || strings.HasSuffix(head, "[")) && nameStart+6 <= len(s) && (s[nameStart+4:nameStart+6] == "**" || s[nameStart+4] == ']') {
		return true // - **PASS**: all checklists complete, [PASS] build: a checklist's or a log's verdict
	}
	return strings.HasSuffix(head, "--- ") || strings.HasSuffix(head, "=== ") ||
		strings.HasPrefix(strings.TrimLeft(s[min(nameStart+4, len(s)):], ": "), "Test")
}

// hclReference matches a Terraform/HCL reference: var.db_password, local.creds.pw,
// module.db.password, data.aws_ssm_parameter.pw.value, each.value.secret.
var hclReference = regexp.MustCompile(`^(?:var|local|module|data|each\.value|self)\.[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[[^\]]*\])*$`)

// standInValue reports a value that stands in for a secret beside the placeholders: a
// reference to a Terraform variable or output, or an instruction (change-this-to-a-random-
// string, replace-with-your-key, insert_token_here, generate-a-secret). Without regexps but
// for a value that opens like a reference: it is asked of every candidate secret.
func standInValue(v string) bool {
	if i := strings.IndexByte(v, '.'); i >= 3 && i <= 10 && hclReference.MatchString(v) {
		return true
	}
	if len(v) < 8 || !strings.ContainsAny(v, "-_ ") {
		return false
	}
	if head, ok := strings.CutSuffix(v, "-value"); ok && isLetters(head) && strings.ToLower(head) == head && dictWord(head) {
		return true // 'secret' => 'secret-value': the name's word and "value", a document's stand-in
	}
	if head, ok := strings.CutSuffix(v, "_value"); ok && isLetters(head) && strings.ToLower(head) == head && dictWord(head) {
		return true // server_token: "server_value"
	}
	if strings.Count(v, " ") >= 2 && strings.ToLower(v) == v {
		for _, w := range strings.Fields(v) {
			if w == "change" || w == "replace" || w == "changeme" {
				return true // secret := "something you have to change": what to do, in words
			}
		}
	}
	verb := false
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] != '-' && v[j] != '_' && v[j] != ' ' {
			j++
		}
		w := v[i:j]
		if verb && oneOfFold(w, "this", "me", "it", "your", "with", "in", "a", "the", "here") {
			return true
		}
		verb = oneOfFold(w, "change", "replace", "insert", "fill", "generate", "put", "enter", "paste")
		i = j + 1
	}
	return false
}

func oneOfFold(w string, words ...string) bool {
	for _, x := range words {
		if len(w) == len(x) && strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// kubectlResult reports a quoted name that kubectl or helm reports on (secret "app-tls"
// created): a resource's name, not the secret's value.
func kubectlResult(s string, end int) bool {
	rest := strings.TrimLeft(s[end:], "\"' ")
	for _, verb := range []string{"created", "deleted", "configured", "unchanged", "patched", "labeled", "annotated",
		"replaced", "not found", "already exists", "serverside-applied"} {
		if strings.HasPrefix(rest, verb) {
			return true
		}
	}
	return false
}

// accountSpellings are the spellings of an account name to mask, those not in known yet: the
// name, lower-case and capitalised (account names match regardless of case on Windows and
// macOS, and prose capitalises them: "the user, Mischa,").
func accountSpellings(u string, known []string) []string {
	var out []string
	for _, v := range []string{u, strings.ToLower(u), strings.ToUpper(u[:1]) + strings.ToLower(u[1:])} {
		if !slices.Contains(known, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// memberName reports whether a quoted literal whose closing quote is at end names a member
// ("sessionId": …, 'key': …): a JSON, YAML or dict key, never a piece of a secret split
// across literals, so no chain runs through it.
func memberName(text string, end int) bool {
	i := end + 1
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && text[i] == ':'
}

// plainURL reports a value that is a URL without credentials in it (no user part, query,
// generated path segment, nor fragment but a heading's anchor of words): where a secret is
// used or kept, as in git's [credential "https://github.com"] sections or a Markdown link to
// how to set one up, not the secret.
func plainURL(v string) bool {
	v = strings.Trim(v, `"'`)
	i := strings.Index(v, "://")
	if i <= 0 || !isLetters(v[:i]) {
		return false
	}
	rest := v[i+3:]
	if at := strings.IndexByte(rest, '@'); at > 0 && strings.IndexAny(rest[:at], "/?#") < 0 {
		user, pass, hasPass := strings.Cut(rest[:at], ":")
		if !isLowerWord(user) || hasPass && !placeholderValue(pass) {
			return false
		}
		rest = rest[at+1:] // postgres://postgres@localhost/db, postgres://user:pass@localhost: no password, or a stand-in
	}
	if h := strings.IndexByte(rest, '#'); h >= 0 && (wordParts(rest[h+1:], 2) || isLowerWord(rest[h+1:]) && dictWord(rest[h+1:])) {
		rest = rest[:h] // #setting-up-credentials: a heading's anchor, words, never a token
	}
	if strings.ContainsAny(rest, "@?#&= \t") {
		return false
	}
	for _, seg := range strings.Split(rest, "/")[1:] {
		if seg != "" && !wordParts(seg, 0) {
			return false // a generated segment may be the credential (/hooks/<token>)
		}
	}
	return true
}

// idHeaderValue reports a token that is the value of an HTTP header carrying the id of a
// request or a trace, or a protocol's nonce, as curl -v, an SDK's debug log or a dict of
// response headers prints it (x-amz-id-2: <base64>, x-amz-request-id, x-request-id, cf-ray,
// x-goog-…, apigw-requestid, Sec-WebSocket-Key/Accept, traceparent): random, and no
// credential.
func idHeaderValue(text string, start int) bool {
	i := start
	if i > 0 && (text[i-1] == '"' || text[i-1] == '\'') {
		i--
	}
	for k := 0; k < 4 && i > 0 && (text[i-1] == ' ' || text[i-1] == '\t'); k++ {
		i--
	}
	if i == 0 || text[i-1] != ':' {
		return false
	}
	i--
	if i > 0 && (text[i-1] == '"' || text[i-1] == '\'') {
		i--
	}
	ne := i
	for i > 0 && ne-i < 64 && (isAlnum(text[i-1]) || text[i-1] == '-') {
		i--
	}
	if i > 0 && text[i-1] == '_' {
		return false // part of a longer name
	}
	return idHeaderName(strings.ToLower(text[i:ne]))
}

// idHeaderName reports the lower-cased name of a header that carries an id or a nonce: a
// dashed name whose last part is an id (x-request-id, x-amzn-requestid, x-guploader-uploadid,
// x-b3-traceid), a ray or a ref (cf-ray, x-azure-ref), a cloud's own response headers
// (x-amz-…, x-goog-…, x-ms-…), a WebSocket handshake's nonce and the trace context's. Never
// a name that says credential: x-amz-security-token, x-goog-api-key, x-ms-client-secret.
func idHeaderName(n string) bool {
	switch n {
	case "sec-websocket-key", "sec-websocket-accept", "traceparent", "tracestate", "x-amz-id-2":
		return true
	}
	if !strings.Contains(n, "-") {
		return false
	}
	for _, w := range []string{"key", "token", "secret", "auth", "sig", "pass", "pwd", "cookie", "session", "cred", "bearer", "jwt", "hmac"} {
		if strings.Contains(n, w) {
			return false
		}
	}
	last := n[strings.LastIndexByte(n, '-')+1:]
	switch {
	case strings.HasSuffix(last, "id") && len(last) <= 16, last == "ray", last == "ref", last == "context",
		last == "digest", last == "md5", last == "hash", last == "checksum", last == "etag": // Content-Digest, Content-MD5
		return true
	}
	return hasPrefixAny(n, []string{"x-amz-", "x-amzn-", "x-goog-", "x-guploader-", "x-ms-", "x-azure-", "x-cloud-trace-", "x-datadog-", "x-b3-", "x-github-request"})
}

// stateWord reports a value that states a setting's state rather than holding a secret
// (X-Auth-Token: enabled, password: disabled, token: missing).
func stateWord(v string) bool {
	return oneOfFold(strings.TrimSuffix(v, "."), "enabled", "disabled", "unset", "missing", "present", "absent", "configured", "provided", "supplied",
		"expired", "revoked", "required", "optional")
}

// pastAuthority returns where a secret may start in the token run text[start:end]: after the
// // of a scheme (https://ghp_…@github.com: the run is the user part) and after a host name
// that opens the run (https://api.example.com/<token>), so a URL keeps its scheme and host.
func pastAuthority(text string, start, end int) int {
	if start == 0 || text[start-1] != ':' || !strings.HasPrefix(text[start:end], "//") {
		return start
	}
	s := start + 2
	if i := strings.IndexByte(text[s:end], '/'); i > 0 && urlWithHost(text[s:end]) {
		s += i + 1
	}
	if end-s < 16 {
		return start
	}
	return s
}

// cspSource reports a quoted literal that is a source expression of a Content-Security-Policy
// ('self', 'unsafe-inline', 'strict-dynamic', 'nonce-…', 'sha256-…', also quoted again in a
// JavaScript or Python list: "'self'"), which is never a piece of a secret split across
// literals: a source list reads as adjacent literals.
func cspSource(lit string) bool {
	v := strings.Trim(lit, "'")
	if len(v)+2 != len(lit) && v != lit {
		return false
	}
	switch v {
	case "self", "none", "unsafe-inline", "unsafe-eval", "unsafe-hashes", "strict-dynamic", "report-sample",
		"wasm-unsafe-eval", "unsafe-allow-redirects", "inline-speculation-rules", "script", "trusted-types-eval":
		return true
	}
	return hasPrefixAny(v, []string{"nonce-", "sha256-", "sha384-", "sha512-"})
}

// cspNonce reports the token of a CSP nonce source ('nonce-rAnd0m…'): a value made per
// response to let one script run, published in the page it protects.
func cspNonce(text string, start int) bool {
	return start > 0 && text[start-1] == '\'' && strings.HasPrefix(text[start:], "nonce-")
}

// urlPastHost returns a URL without its host, so that a placeholder's word in the host
// (hooks.example.com, the domain documentation uses) does not make a random token in its path
// or user part a placeholder; other values are returned as they are.
func urlPastHost(v string) string {
	i := strings.Index(v, "://")
	if i <= 0 || i > 10 || !isLetters(v[:i]) {
		return v
	}
	rest := v[i+3:]
	j := strings.IndexAny(rest, "/?#")
	if j < 0 {
		j = len(rest)
	}
	user := ""
	if at := strings.LastIndexByte(rest[:j], '@'); at >= 0 {
		user = rest[:at+1]
	}
	return v[:i+3] + user + rest[j:]
}

// notAssignedName reports a keyword candidate that is no name a value is assigned to, by
// what is around it: a source file's position in a trace (phoenix/token.ex:48:,
// password_reset.spec.js:27:14), a string literal compared with another ('token_expired' ==
// 'token_valid'), kubectl's reference to a Secret (<set to the key 'token' in secret
// 'api'>), the shell's working directory ("$PWD":/app, PWD=/home/…) or a
// parameter expansion that fails or substitutes without a default (${TOKEN:?TOKEN is not
// set}, ${TOKEN:+--token}).
func notAssignedName(s string, nameStart, nameEnd int) bool {
	name := s[nameStart:nameEnd]
	if nameEnd+1 < len(s) && s[nameEnd] == ':' && isDigitByte(s[nameEnd+1]) && sourceFileName(name) {
		return true
	}
	if nameStart > 0 && nameEnd < len(s) && (s[nameStart-1] == '\'' || s[nameStart-1] == '"') && s[nameEnd] == s[nameStart-1] {
		rest := strings.TrimLeft(s[nameEnd+1:min(len(s), nameEnd+8)], " \t")
		if strings.HasPrefix(rest, "==") || strings.HasPrefix(rest, "!=") {
			return true
		}
	}
	if name == "PWD" || name == "OLDPWD" {
		if nameStart > 0 && (s[nameStart-1] == '$' || s[nameStart-1] == '{' && nameStart > 1 && s[nameStart-2] == '$') {
			return true
		}
		if nameEnd+1 < len(s) && s[nameEnd] == '=' && (s[nameEnd+1] == '/' || s[nameEnd+1] == '~') {
			return true
		}
	}
	if head := s[max(0, nameStart-80):nameStart]; strings.HasSuffix(head, "' in ") && strings.Contains(head, "<set to the key '") {
		return true // kubectl describe: <set to the key 'token' in secret 'api'>
	}
	if nameStart > 1 && s[nameStart-2:nameStart] == "${" {
		rest := s[nameEnd:min(len(s), nameEnd+2)]
		return strings.HasPrefix(rest, ":?") || strings.HasPrefix(rest, ":+") || strings.HasPrefix(rest, "?") || strings.HasPrefix(rest, "+") || rest == "}" || strings.HasPrefix(rest, "}")
	}
	return false
}

// sourceFileName reports a name that is a source file's (token.ex, auth/tokens.py,
// password_reset.spec.js): what a stack trace or a compiler puts before :line.
func sourceFileName(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 {
		return false
	}
	switch strings.ToLower(name[i+1:]) {
	case "go", "py", "rb", "js", "mjs", "cjs", "ts", "tsx", "jsx", "ex", "exs", "erl", "java", "kt", "kts", "scala",
		"c", "h", "cc", "cpp", "hpp", "cs", "swift", "m", "mm", "rs", "php", "pl", "pm", "lua", "dart", "vue",
		"svelte", "sh", "bash", "zsh", "sql", "hs", "ml", "clj", "groovy", "gradle", "tf", "yaml", "yml", "toml",
		"json", "xml", "html", "css", "scss", "md", "txt", "ini", "cfg", "conf", "env", "lock", "proto", "zig", "nim", "jl", "r":
		return true
	}
	return false
}

// hostName reports a token that is a host name in lower case whose labels are words or a
// hash in hex (3f9c2b1a….cloudfront.net, as a CDN's via header prints it): no path, the last
// label a top-level domain. A generated label of other letters makes no host name harmless
// (<digits>-<random>.apps.googleusercontent.com is an OAuth client's id).
func hostName(tok string) bool {
	if strings.Contains(tok, "/") || !urlWithHost(tok) {
		return false
	}
	for l := range strings.SplitSeq(tok, ".") {
		if !isHex(l) && !wordParts(l, 0) {
			return false
		}
	}
	return true
}

// rootedPath reports a slash-separated token that opens like a file system path: a root
// directory's name in letters (/var/folders/…, /Users/…, ~/Library/…) and another segment
// after it, where random base64 does not open with a slash and a word.
func rootedPath(tok string) bool {
	t, ok := cutPrefixAny(tok, "~/", "/")
	if !ok {
		return false
	}
	if tok[0] == '~' && strings.Contains(t, "/") && !strings.ContainsAny(t, "+=") {
		return true // ~/e42e875d…/setup.sh: a directory in the home, whatever its name
	}
	seg, rest, ok := strings.Cut(t, "/")
	return ok && rest != "" && len(seg) >= 2 && isLetters(seg) && (strings.ToLower(seg) == seg || strings.ToLower(seg[1:]) == seg[1:])
}

// idLabelValue reports a token after a prose label that names it an id (S3's "S3 Extended
// Request ID: <base64>", "Host ID:", "Trace ID:"): the label's words read as a header's name
// (idHeaderName), up to four of them.
func idLabelValue(text string, start int) bool {
	i := start
	// blanks and Markdown's marks between label and value (**Voice ID:** `…`)
	for k := 0; k < 5 && i > 0 && strings.IndexByte(" *_`", text[i-1]) >= 0; k++ {
		i--
	}
	if i == 0 || text[i-1] != ':' {
		return false
	}
	ne := i - 1
	for k := 0; k < 2 && ne > 0 && text[ne-1] == '*'; k++ {
		ne--
	}
	if ne > 0 && text[ne-1] == ')' {
		// a name in parentheses after the label: Voice ID (Jarvis): …
		if o := strings.LastIndexByte(text[max(0, ne-32):ne], '('); o >= 0 {
			ne = max(0, ne-32) + o
			for ne > 0 && text[ne-1] == ' ' {
				ne--
			}
		}
	}
	j := ne
	for j > 0 && ne-j < 40 && (isAlnum(text[j-1]) || text[j-1] == ' ') {
		j--
	}
	words := strings.Fields(text[j:ne])
	if len(words) < 2 || len(words) > 4 {
		return false
	}
	return idHeaderName(strings.ToLower(strings.Join(words, "-")))
}

// elidedJWT reports a JSON Web Token cut short on purpose, as documentation writes one
// (Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9..., eyJhbGciOi…): an ellipsis before the
// signature, so what is shown is at most the header and part of the claims, and no
// credential.
func elidedJWT(v string) bool {
	body, ok := strings.CutSuffix(v, "...")
	if !ok {
		body, ok = strings.CutSuffix(v, "…")
	}
	body = strings.TrimRight(body, ".")
	return ok && strings.HasPrefix(body, "eyJ") && strings.Count(body, ".") <= 1 && strings.Trim(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") == ""
}

// namesNoSecret reports a keyword candidate whose value names a thing rather than holds a
// secret: a dependency's version under a package named for secrets (secret-service =
// "3.0.1", keyring = "2.3.3"), docker's credential helper ("credsStore": "desktop"), the
// Secret a chart reads credentials from (existingSecret:
// db-credentials) and the key it reads a password from there (adminPasswordKey:
// postgres-password, the Bitnami charts' …PasswordKey).
func namesNoSecret(name, v string) bool {
	v = strings.Trim(v, `"'`)
	if versionValue(v) {
		return true
	}
	if len(name) < 5 || !strings.EqualFold(name[len(name)-3:], "key") && !strings.EqualFold(name[len(name)-3:], "ret") && !strings.EqualFold(name[len(name)-3:], "ore") {
		return false // none of the names below: no nameParts for every candidate
	}
	parts := nameParts(name)
	if len(parts) >= 2 && parts[len(parts)-2] == "existing" && parts[len(parts)-1] == "secret" {
		return true // existingSecret: db-credentials, the Secret a chart reads its credentials from
	}
	if len(parts) == 2 && (parts[0] == "creds" || parts[0] == "cred") && parts[1] == "store" && isLetters(strings.ReplaceAll(v, "-", "")) {
		return true // docker's "credsStore": "desktop", the helper that keeps the credentials
	}
	if len(parts) >= 2 && parts[len(parts)-1] == "key" {
		switch parts[len(parts)-2] {
		case "password", "passwd", "token", "secret", "credential", "credentials":
			return v != "" && strings.ToLower(v) == v && identifierWords(v) && strings.ContainsAny(v, "-.")
		}
	}
	return false
}

// nameList reports a value that is a list of two or more names joined by commas, each made
// of words (no-agent-forwarding,no-user-rc), none of them a random run.
func nameList(v string) bool {
	items := strings.Split(v, ",")
	if len(items) < 2 {
		return false
	}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" || !isLetter(it[0]) || !identifierWords(strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 'x'
			}
			return r
		}, it)) || randomValue(it) {
			return false
		}
	}
	return true
}

// versionValue reports a version (3.0.1, ^2.3, ~1.4.2, v0.19.1): two or three parts of one to
// three digits.
func versionValue(v string) bool {
	v = strings.TrimLeft(v, "^~=v")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if len(p) == 0 || len(p) > 3 || !isDigits(p) {
			return false
		}
	}
	return true
}

// closesParenthesis reports an address's account and password that are the words of a
// parenthesis after it (1.1.1.2 (Cloudflare Malware), 10.0.0.5 (Primary Backup)): the
// parenthesis opened before the account closes at the end of the "password".
func closesParenthesis(before, value string) bool {
	return strings.Contains(before, "(") && strings.HasSuffix(value, ")") && !strings.Contains(value, "(")
}

// passVerb reports the word pass used as a verb in prose (how to pass "…" as an argument,
// you can pass '…' to node): after a word that a verb follows, lower case; an account's
// password after pass (user admin pass x, FTP's PASS x) is no verb.
func passVerb(s string, nameStart int, name string) bool {
	if name != "pass" || nameStart < 3 || s[nameStart-1] != ' ' {
		return false
	}
	i := nameStart - 1
	for i > 0 && isLetter(s[i-1]) || i > 0 && s[i-1] == '\'' {
		i--
	}
	return oneOfFold(s[i:nameStart-1], "to", "can", "could", "will", "would", "should", "must", "may", "might", "we",
		"you", "i", "they", "then", "and", "also", "just", "simply", "not", "don't", "never", "please", "i'll", "we'll", "let's",
		// what passes: the tests pass: `make test`, all checks pass: ✓
		"tests", "test", "checks", "builds", "build", "specs", "suites", "jobs", "all", "everything", "it", "still", "now", "both", "which", "that")
}

// passVerdict reports a check's verdict written as Pass: at a line's start (after a list's
// mark), then a sentence of three words or more (- Pass: no-op when the cache is warm): a
// test's result and why, not a password.
func passVerdict(s string, nameStart, nameEnd int, name string) bool {
	if name != "Pass" && name != "PASS" || nameEnd+2 > len(s) || s[nameEnd] != ':' || s[nameEnd+1] != ' ' {
		return false
	}
	ls := strings.LastIndexByte(s[:nameStart], '\n') + 1
	if lead := strings.TrimSpace(s[ls:nameStart]); lead != "" && lead != "-" && lead != "*" && lead != "•" && !(strings.HasSuffix(lead, ".") && isDigits(lead[:len(lead)-1])) {
		return false
	}
	line, _, _ := strings.Cut(s[nameEnd+2:], "\n")
	words := strings.Fields(line)
	if len(words) < 3 {
		return false
	}
	if first := strings.ReplaceAll(words[0], "-", ""); !isLetters(first) || strings.ToLower(first) != first {
		return false // Pass: Zx8kq2pLm9 for the admin account: a password, then words about it
	}
	lower := 0
	for _, w := range words[1:] {
		if w = strings.TrimRight(w, ".,;:!?)"); isLetters(w) && strings.ToLower(w) == w {
			lower++
		}
	}
	return lower >= 2 && lower*3 >= (len(words)-1)*2
}

// codePath reports a value that is a path in code: names joined by :: (Rust, C++, PHP,
// Ruby), maybe with type arguments (secrecy::SecretBox<str>, Foo::Bar::TOKEN).
func codePath(v string) bool {
	v = strings.TrimRight(v, ";,)")
	if i := strings.IndexByte(v, '<'); i > 0 && strings.HasSuffix(v, ">") {
		v = v[:i]
	}
	parts := strings.Split(v, "::")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !identifierWords(strings.Trim(p, "0123456789")) || isDigitByte(p[0]) {
			return false
		}
	}
	return true
}

// hclBlockLabel reports a name that is a label of a Terraform or HCL block (resource
// "aws_secretsmanager_secret" "db" {, resource "random_password" "db" {): a resource's type
// and name, not an assignment.
func hclBlockLabel(s string, nameStart int) bool {
	if nameStart < 8 || s[nameStart-1] != '"' {
		return false // a label is quoted; most names are not, and lineHead reads back to the line's start
	}
	head := lineHead(s, nameStart)
	kw, rest, ok := strings.Cut(head, " ")
	if !ok || !oneOfFold(kw, "resource", "data", "variable", "output", "module", "provider", "ephemeral", "check", "import", "removed") {
		return false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || rest[0] != '"' {
		return false
	}
	line := s[nameStart:min(len(s), nameStart+200)]
	if le := strings.IndexByte(line, '\n'); le >= 0 {
		line = line[:le]
	}
	return strings.HasSuffix(strings.TrimRight(line, " \t\r"), "{")
}

// typeAnnotation reports a value that is a type, after a lower-case name in TypeScript,
// Kotlin, Swift, Rust or Go (refreshToken: string | null;, secret: Uint8Array;, key: [u8; 32],
// token: Option<String>): a union of type names, a typed array or buffer, or a built-in
// type of bytes.
func typeAnnotation(v string) bool {
	v = strings.TrimRight(v, ";,")
	if t := strings.TrimRight(v, "):;,{ "); t != v && t != "" || strings.HasSuffix(v, "<") || strings.HasSuffix(v, "<{") {
		// A parameter's type in a signature (credential: AuthCredential):, enabled: boolean),
		// or a generic type opening (ReadonlyOperation<, Partial<{).
		t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "{"), "<"), "?")
		return tsPrimitiveTypes[t] || typeName(strings.TrimSuffix(strings.TrimLeft(t, "_"), "[]")) || len(t) >= 2 && t[0] == 'I' && typeName(t[1:])
	}

	if strings.Contains(v, " | ") {
		for _, alt := range strings.Split(v, " | ") {
			alt = strings.TrimSuffix(strings.TrimSpace(alt), "[]")
			if alt == "" || !identifierWords(strings.Trim(alt, "0123456789<>")) {
				return false
			}
		}
		return true
	}
	switch strings.TrimSuffix(v, "?") {
	case "Uint8Array", "Uint8ClampedArray", "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array",
		"Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "ArrayBuffer", "Buffer", "ByteArray",
		"[]byte", "[u8; 32]", "[u8; 64]", "Vec<u8>", "Option<String>", "SecretString", "SecretBox<str>", "Data", "bytes":
		return true
	}
	return false
}

// tsPrimitiveTypes are TypeScript's primitive types and the words of its type operators.
var tsPrimitiveTypes = map[string]bool{"boolean": true, "string": true, "number": true, "bigint": true, "any": true,
	"unknown": true, "void": true, "never": true, "object": true, "symbol": true, "undefined": true, "null": true}

// pathValue reports a value that is a file's path of word segments (/home/dev/.ssh/id_ed25519,
// /run/secrets/db_password): where a secret is kept, as a prompt or a mounted secret names it.
func pathValue(v string) bool {
	v = strings.Trim(v, `"'`)
	if len(v) > 2 && v[0] == '@' && (v[1] == '/' || v[1] == '~') {
		v = v[1:] // @/run/secrets/token: a file the value is read from (curl, PostgREST, az)
	}
	minSegs := 2
	t, ok := cutPrefixAny(v, "~/", "/")
	if !ok && len(v) > 3 && isLetter(v[0]) && v[1] == ':' && (v[2] == '\\' || v[2] == '/') {
		// C:\path\to\your\service-account.json: a Windows path, its backslashes maybe escaped
		t, ok = strings.ReplaceAll(strings.ReplaceAll(strings.TrimLeft(v[3:], "\\"), `\\`, `\`), `\`, "/"), true
	}
	if !ok {
		// $HOME/work/pass, ${TEST_DIR}/a/b: a path under a variable's directory, which is
		// the rest of the path, so one segment is enough.
		if t, ok = variableDirectory(v); !ok {
			return false
		}
		minSegs = 1
	}
	segs := strings.Split(t, "/")
	if len(segs) < minSegs {
		return false
	}
	for _, seg := range segs {
		if seg == "" || !wordParts(strings.TrimPrefix(seg, "."), 0) {
			return false
		}
	}
	return true
}

// plistArchiveRun reports a run inside a property list's <data> element whose payload is an
// archived object (base64 of bplist00…: a Terminal profile's colours and fonts, an archived
// preference): what an application serialised, read line by line.
func plistArchiveRun(text string, start int) bool {
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	if strings.TrimLeft(text[ls:start], " \t") != "" {
		return false // a <data> element's lines hold its base64 alone
	}
	d := strings.LastIndex(text[max(0, start-8192):start], "<data>")
	if d < 0 {
		return false
	}
	d += max(0, start-8192) + len("<data>")
	if strings.Contains(text[d:start], "</data>") {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(text[d:], " \t\r\n"), "YnBsaXN0MDD")
}

// archivedObjectLine reports a run on a line of a base64 block (lines of base64 alone) one of
// whose lines decodes to a piece of an archived Cocoa object (its class names, NSColor,
// NSKeyedArchiver, $class, bplist00): a property list's <data> read from the block's
// middle, where <data> may be out of sight.
func archivedObjectLine(text string, start, end int) bool {
	base64Line := func(ls, le int) (string, bool) {
		l := strings.TrimSpace(text[ls:le])
		if len(l) < 16 || len(l) > 128 {
			return "", false
		}
		for i := 0; i < len(l); i++ {
			if !isBase64Byte(l[i]) && l[i] != '=' {
				return "", false
			}
		}
		return l, true
	}
	archived := func(l string) bool {
		if len(l)%4 != 0 {
			return false
		}
		b, err := base64.StdEncoding.DecodeString(l)
		return err == nil && (bytes.Contains(b, []byte("$class")) || bytes.Contains(b, []byte("NSKeyedArchiver")) ||
			bytes.Contains(b, []byte("bplist00")) || bytes.Contains(b, []byte("streamtyped")) || nsClassName.Match(b))
	}
	ls := strings.LastIndexByte(text[:start], '\n') + 1
	le := lineEndAt(text, end)
	if _, ok := base64Line(ls, le); !ok {
		return false
	}
	// The block's lines before and after, up to 64 each way.
	for i, s := 0, ls; i < 64 && s < len(text); i++ {
		l, ok := base64Line(s, lineEndAt(text, s))
		if !ok {
			break
		}
		if archived(l) {
			return true
		}
		s = lineEndAt(text, s) + 1
	}
	for i, e := 0, ls-1; i < 64 && e > 0; i++ {
		s := strings.LastIndexByte(text[:e], '\n') + 1
		l, ok := base64Line(s, e)
		if !ok {
			break
		}
		if archived(l) {
			return true
		}
		e = s - 1
	}
	return false
}

// nsClassName matches a Foundation or AppKit class's name inside archived bytes.
var nsClassName = regexp.MustCompile(`NS(?:Color|Font|Object|Dictionary|Array|String|Data|Number|Value|Mutable[A-Z][a-z]+|Attributed)[A-Za-z]*`)

// namedUserinfo reports a URL whose user and password are both names in snake case, the
// password's a secret's (dynamodb://aws_access_key_id:aws_secret_access_key@region): what goes
// there, spelled out.
func namedUserinfo(m string) bool {
	rest, ok := strings.CutPrefix(m, "://")
	if !ok {
		return false
	}
	user, pass, ok := strings.Cut(rest, ":")
	if !ok {
		return false
	}
	pass, _, _ = strings.Cut(pass, "@")
	return strings.Contains(user, "_") && snakeIdentifier(user) && snakeSecretName(pass)
}

// urlOfWords reports a run that is a URL's host and a path of words and numbers
// (https://documen.so/21-CFR-Part-11: a short link's slug): a page's address.
func urlOfWords(text string, start, end int) bool {
	tok := text[start:end]
	if !strings.HasSuffix(text[:start], ":") && !strings.HasSuffix(text[:start], "://") {
		return false
	}
	tok = strings.TrimLeft(tok, "/")
	host, path, ok := strings.Cut(tok, "/")
	if !ok || !hostName(host) {
		return false
	}
	for _, seg := range strings.Split(strings.TrimRight(path, "/"), "/") {
		if seg == "" || !wordParts(seg, 1) || randomValue(seg) {
			return false
		}
	}
	return true
}

// encodedCode reports a base64 run that decodes to a line of code or prose (a script given
// to eval -b, a sentence): printable text with blanks or brackets. What the text holds is
// the decoding pass's to judge (a password inside it is masked as encoded-secret).
func encodedCode(tok string) bool {
	tok = strings.TrimRight(tok, "=")
	if len(tok) < 24 {
		return false
	}
	b, err := base64.RawStdEncoding.DecodeString(tok)
	if err != nil {
		if b, err = base64.RawURLEncoding.DecodeString(tok); err != nil {
			return false
		}
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	// {"id":15,"_pointsToNextItems":true}: a JSON object, as a pagination cursor encodes one
	// whose every run of a token's characters is short or letters only (what it might hold
	// of a key stays a reason to mask the whole)
	jsonObject := len(b) > 8 && b[0] == '{' && b[len(b)-1] == '}' && bytes.Contains(b, []byte(`":`)) && shortRuns(b, 20)
	return jsonObject || bytes.IndexByte(b, ' ') >= 0 || bytes.IndexByte(b, '(') >= 0 && bytes.IndexByte(b, ')') >= 0
}

// shortRuns reports text whose runs of letters, digits and _ - + / are shorter than n, but
// for runs of letters alone.
func shortRuns(b []byte, n int) bool {
	run, letters := 0, true
	for i := 0; i <= len(b); i++ {
		if i < len(b) && (isWordByte(b[i]) || b[i] == '-' || b[i] == '+' || b[i] == '/') {
			run++
			letters = letters && (isLetter(b[i]) || b[i] == '_')
			continue
		}
		if run >= n && !letters {
			return false
		}
		run, letters = 0, true
	}
	return true
}

// hashSuffixedName reports an identifier a build tool made of a name and a 32-digit hex
// hash (LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e in a generated import map).
func hashSuffixedName(tok string) bool {
	i := strings.LastIndexByte(tok, '_')
	if i < 6 || len(tok)-i-1 != 32 || !isHex(tok[i+1:]) || strings.ToLower(tok[i+1:]) != tok[i+1:] {
		return false
	}
	p := tok[:i]
	upper := 0
	for k := 0; k < len(p); k++ {
		if isUpperByte(p[k]) {
			upper++
		}
	}
	return camelWords(p) || isLetters(p) && (dictWord(strings.ToLower(p)) || isUpperByte(p[0]) && upper >= 2)
}

// encryptedContentRun reports a run that is the value of an encrypted_content member (a
// model provider's encrypted reasoning, gAAAAAB…, in a Codex or Responses API record; a web
// search result's encrypted_index, an encryptedContent, Gemini's thoughtSignature): a
// ciphertext whose key only the provider holds, read back when a session's files are shown.
func encryptedContentRun(text string, start int) bool {
	head := strings.TrimRight(text[max(0, start-40):start], `"\ :`)
	return strings.HasSuffix(head, "encrypted_content") || strings.HasSuffix(head, "encrypted_index") || strings.HasSuffix(head, "encryptedContent") ||
		strings.HasSuffix(head, "thoughtSignature") || strings.HasSuffix(head, "thought_signature")
}

// queryIDValue reports a run that is the value of a URL query parameter named for an id
// (?package_id=UGFja2FnZS01NzA4OTExNg%3D%3D, ?trackingId=…): a record's or a visit's
// handle, not a credential. Not a session's, an access's or an auth's id, which let in.
func queryIDValue(text string, start int) bool {
	if start < 4 || text[start-1] != '=' {
		return false
	}
	i := start - 1
	for i > 0 && (isWordByte(text[i-1]) || text[i-1] == '-') {
		i--
	}
	if i == 0 || i == start-1 || text[i-1] != '?' && text[i-1] != '&' {
		return false
	}
	parts := nameParts(text[i : start-1])
	if len(parts) < 2 || parts[len(parts)-1] != "id" {
		return false
	}
	for _, p := range parts {
		switch p {
		case "session", "sess", "auth", "access", "token", "secret", "key", "api", "login", "sid":
			return false
		}
	}
	return true
}

// variablePathRun reports a run right after $ that is a variable's name, a slash and a
// path of words ("$TMP_WORK_DIR/01-app-env.sh"): a file under the variable's directory.
func variablePathRun(text string, start, end int) bool {
	if start == 0 || text[start-1] != '$' {
		return false
	}
	rest, ok := variableDirectory(text[start-1 : end])
	if !ok {
		return false
	}
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" || !wordParts(strings.TrimPrefix(seg, "."), 1) {
			return false
		}
	}
	return true
}

// variableDirectory returns the rest of a path that opens with a shell variable and a
// slash ($HOME/work/pass, ${TEST_DIR}/a): what follows the variable's slash.
func variableDirectory(v string) (string, bool) {
	if len(v) < 3 || v[0] != '$' {
		return "", false
	}
	i := 1
	braced := v[i] == '{'
	if braced {
		i++
	}
	n := i
	for i < len(v) && isWordByte(v[i]) {
		i++
	}
	if i == n || !isLetter(v[n]) && v[n] != '_' || v[n:i] != strings.ToUpper(v[n:i]) && v[n:i] != strings.ToLower(v[n:i]) {
		return "", false // (not $ecretPa55/word: a variable's name is in one case)
	}
	if braced {
		if i >= len(v) || v[i] != '}' {
			return "", false
		}
		i++
	}
	if i+1 >= len(v) || v[i] != '/' {
		return "", false
	}
	return v[i+1:], true
}

// publicPEMBase64 reports base64 of a PEM certificate or public key (a kubeconfig's
// certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0t…): public; client-key-data, a
// private key's, stays masked.
func publicPEMBase64(tok string) bool {
	return hasPrefixAny(tok, []string{"LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t", "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0"})
}

// jwkPublicMember reports the quoted value of a JSON Web Key's public member (the modulus
// "n", the exponent "e", the point "x" and "y") in an object that says its key type
// ("kty"): a public key. The private members (d, p, q, dp, dq, qi, k) are the json-web-key
// rule's.
func jwkPublicMember(text string, start, end int) bool {
	if start < 5 || end >= len(text) || text[start-1] != '"' || text[end] != '"' {
		return false
	}
	head := strings.TrimRight(text[max(0, start-8):start-1], " \t")
	if !strings.HasSuffix(head, ":") {
		return false
	}
	head = strings.TrimRight(head[:len(head)-1], " \t")
	switch {
	case strings.HasSuffix(head, `"n"`), strings.HasSuffix(head, `"e"`), strings.HasSuffix(head, `"x"`), strings.HasSuffix(head, `"y"`),
		strings.HasSuffix(head, `"kid"`), strings.HasSuffix(head, `"x5t"`), strings.HasSuffix(head, `"x5t#S256"`): // a key's id and its certificate's thumbprints
	default:
		return false
	}
	return strings.Contains(text[max(0, start-200):min(len(text), end+200)], `"kty"`)
}

// cookieCredential holds a cookie header to one that may carry a credential: a value that
// is more than a word, a number or an analytics id (theme=dark, lang=en-US,
// _ga=GA1.2.1234567890.1717405964 pass; session=… is masked whole).
func cookieCredential(v string) bool {
	for pair := range strings.SplitSeq(v, ";") {
		name, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || codeCookiePair(name) {
			continue
		}
		if oneOfFold(name, "path", "domain", "expires", "max-age", "samesite", "priority", "partitioned") {
			continue
		}
		val = strings.Trim(val, `"`)
		switch {
		case isLetters(strings.ReplaceAll(val, "-", "")) && len(val) <= 12, strings.Trim(val, "0123456789.") == "", wholeExpansion(val), // did=$SYNO_DEVICE_ID: the shell's
			len(val) > 2 && val[0] == '<' && val[len(val)-1] == '>' && identifierWords(val[1:len(val)-1]), // dex_session=<session_id>: a placeholder
			(strings.HasPrefix(val, "GA1.") || strings.HasPrefix(val, "GS1.")) && strings.Trim(val[4:], "0123456789.") == "":
		default:
			return true
		}
	}
	return false
}

// wordULID reports a word, a dash and a ULID (deployment-01GQR4GN7EA8G12VE1DBRQG4KQ, a
// deployment's image tag): an id.
func wordULID(tok string) bool {
	j := strings.LastIndexByte(tok, '-')
	return j > 0 && len(tok)-j-1 == 26 && isLetters(tok[:j]) && ulidShape(tok[j+1:])
}

// ulidShape reports a ULID (26 characters of Crockford's base32 whose first ten are a time
// in milliseconds between 2016 and 2040): an id that sorts by creation, not a secret.
func ulidShape(tok string) bool {
	if len(tok) != 26 {
		return false
	}
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	var ms int64
	for i := 0; i < 26; i++ {
		k := strings.IndexByte(alphabet, tok[i])
		if k < 0 {
			return false
		}
		if i < 10 {
			ms = ms<<5 | int64(k)
		}
	}
	return ms >= 1451606400000 && ms <= 2208988800000
}

// cutPrefixAny returns s without the first of prefixes it opens with.
func cutPrefixAny(s string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return s, false
}

// imageHostRun reports a token run that is a URL's host and path on a CDN that serves
// profile pictures and media by opaque keys (lh3.googleusercontent.com/a/ACg8oc…=s96-c,
// pbs.twimg.com, yt3.ggpht.com, i.ytimg.com, scontent…fbcdn.net) or on YouTube (youtu.be/…,
// a video's id): an image's or a video's address. Its
// query, where a signed URL keeps its signature, is no part of the run.
func imageHostRun(text string, start int) bool {
	rest, ok := strings.CutPrefix(text[start:], "//")
	if !ok {
		return false
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r >= 128 || !tokenChar(byte(r)) })
	if end < 0 {
		end = len(rest)
	}
	host, _, ok := strings.Cut(rest[:min(end, 80)], "/")
	if !ok {
		// a deploy preview's host alone (64f1c2d3…--site.netlify.app): an id the host
		// serves in the open
		return end <= 80 && previewHost(host)
	}
	if host == "youtu.be" || host == "youtube.com" || strings.HasSuffix(host, ".youtube.com") || host == "colab.research.google.com" {
		return true // a video's or a playlist's public id, a notebook's Drive id
	}
	if host == "notion.so" || host == "www.notion.so" || strings.HasSuffix(host, ".notion.site") {
		return true // a page's slug and id (notion.so/Founder-Brief-22868a5d…): the workspace's sharing decides who reads it
	}
	if host == "discord.gg" || (host == "discord.com" || host == "discordapp.com") && strings.HasPrefix(rest[len(host):], "/invite/") {
		return true // an invitation to a server, published to be followed
	}
	if host == "join.slack.com" && strings.Contains(rest[len(host):min(len(rest), 200)], "/shared_invite/") {
		return true // an invitation to a Slack workspace, published to be followed
	}
	if host == "vercel.com" {
		return true // a deployment's id in its dashboard page (Inspect: https://vercel.com/team/app/7HkX…), shown to the team signed in
	}
	for _, h := range []string{".googleusercontent.com", ".ggpht.com", ".ytimg.com", ".twimg.com", ".fbcdn.net", ".cdninstagram.com", ".licdn.com", ".gravatar.com"} {
		if strings.HasSuffix(host, h) {
			return true
		}
	}
	return false
}

// previewHost reports a host name under a domain hosting services give deploys and previews.
func previewHost(host string) bool {
	for _, d := range []string{".netlify.app", ".vercel.app", ".pages.dev", ".web.app", ".firebaseapp.com", ".herokuapp.com", ".onrender.com", ".fly.dev", ".github.io", ".surge.sh"} {
		if strings.HasSuffix(host, d) {
			return true
		}
	}
	return false
}

// videoQueryValue reports the value of a YouTube link's video, playlist or share parameter
// (watch?v=…&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG, youtu.be/…?si=…): a public id.
func videoQueryValue(text string, start int) bool {
	head := text[max(0, start-300):start]
	k := strings.LastIndexAny(head, "?&")
	if k < 0 {
		return false
	}
	switch head[k+1:] {
	case "v=", "list=", "si=", "pp=":
	default:
		return false
	}
	u := strings.LastIndex(head[:k], "://")
	if u < 0 || strings.ContainsAny(head[u:k], " \t\n\"'<>") {
		return false
	}
	host, _, _ := strings.Cut(head[u+3:k], "/")
	return host == "youtu.be" || host == "youtube.com" || strings.HasSuffix(host, ".youtube.com")
}

// betweenLiterals reports a "quoted value" that is the code between two string literals: the
// name closed its literal and the next one opened ("token: " + token[:4] + "...", 'Using API
// key ' + apiKey.slice(0, 4) + '****'), so the value opens or closes with a concatenation, or
// opens with a builder's next call and ends with the one after.
func betweenLiterals(v string) bool {
	if len(v) > 4 && strings.HasPrefix(v, ").") && strings.HasSuffix(v, "(") && memberCall.MatchString(v[1:]) {
		return true // sb.append("CredentialsNonExpired=").append(this.credentialsNonExpired).append(", "): a builder's calls
	}
	if v == "" || v[0] != ' ' && v[len(v)-1] != ' ' {
		return false
	}
	t := strings.TrimSpace(v)
	return hasPrefixAny(t, []string{"+ ", ". ", ".. ", "|| ", "& "}) || strings.HasSuffix(t, " +") || strings.HasSuffix(t, " .") || strings.HasSuffix(t, " ..")
}

// githubNodeID is GitHub's newer global node id: the type's abbreviation, _ and the base64 of
// a MessagePack array (kg, kw, lA… for two to seven members): U_kgDOAbCdEf, PR_kwDOAbC…,
// WFR_kwLOQ3f…, PVTI_lADO….
var githubNodeID = regexp.MustCompile(`^[A-Z]{1,8}_(?:kg|kw|lA|lQ|lg|lw)[A-Za-z0-9_-]{6,}$`)

// graphQLGlobalID reports a GraphQL global id: base64 of a type's name and a number, as Relay
// servers and GitHub's API write them (VXNlcjoxMjM0NTY3ODkw is User:1234567890,
// MDQ6VXNlcjE= is 04:User1).
func graphQLGlobalID(tok string) bool {
	if len(tok) > 64 {
		return false
	}
	if githubNodeID.MatchString(tok) {
		return true
	}
	b, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(tok, "=")); err != nil {
			return false
		}
	}
	head, num, ok := strings.Cut(string(b), ":")
	if !ok {
		return false
	}
	if isDigits(head) { // GitHub's legacy ids: 04:User1
		head, num = strings.TrimRight(num, "0123456789"), num[len(strings.TrimRight(num, "0123456789")):]
	}
	return len(head) >= 2 && head[0] >= 'A' && head[0] <= 'Z' && isLetters(head) && num != "" && isDigits(num)
}

// secretNameValue reports a value that names a secret rather than holds it: lower-case words
// joined by - or _, one of them a secret's (db-password, api-token, stripe_secret_key), as a
// secret manager's command takes it (gcloud secrets versions access latest --secret=db-password).
func secretNameValue(v string) bool {
	if len(v) < 4 || len(v) > 64 || strings.ToLower(v) != v || !strings.ContainsAny(v, "-_") {
		return false
	}
	named := false
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' }) {
		if !isLetters(w) {
			return false
		}
		switch w {
		case "password", "passwd", "token", "secret", "key", "credentials", "creds", "apikey",
			"passwords", "tokens", "secrets", "keys": // mongodb-passwords: a Secret's key
			named = true
		}
	}
	return named
}

// flagValue returns the word after a command-line flag's name (--secret=db-password, --secret
// db-password), unquoted.
func flagValue(s string, nameEnd int) string {
	if nameEnd >= len(s) || s[nameEnd] != '=' && s[nameEnd] != ' ' {
		return ""
	}
	v := s[nameEnd+1 : min(len(s), nameEnd+80)]
	if i := strings.IndexAny(v, " \t\n;&|)"); i >= 0 {
		v = v[:i]
	}
	return strings.Trim(v, `"'`)
}

// premadeVoiceIDs are the ids of ElevenLabs' premade voices (Rachel, Adam, Matilda…), the
// same for every account and printed in its documentation and voice library: facts, no key.
// A dictionary of voices by name ("rachel": "21m00Tcm4TlvDq8ikWAM") names them with no word for
// a voice on the line.
var premadeVoiceIDs = map[string]bool{
	"21m00Tcm4TlvDq8ikWAM": true, "29vD33N1CtxCmqQRPOHJ": true, "2EiwWnXFnvU5JabPnv8n": true,
	"5Q0t7uMcjvnagumLfvZi": true, "AZnzlk1XvdvUeBnXmlld": true, "CYw3kZ02Hs0563khs1Fj": true,
	"D38z5RcWu1voky8WS1ja": true, "EXAVITQu4vr4xnSDxMaL": true, "ErXwobaYiN019PkySvjV": true,
	"GBv7mTt0atIp3Br8iCZE": true, "IKne3meq5aSn9XLyUdCD": true, "JBFqnCBsd6RMkjVDRZzb": true,
	"LcfcDJNUP1GQjkzn1xUU": true, "MF3mGyEYCl7XYWbV9V6O": true, "N2lVS1w4EtoT3dr4eOWO": true,
	"ODq5zmih8GrVes37Dizd": true, "SOYHLrjzK2X1ezoPC6cr": true, "TX3LPaxmHKxFdv7VOQHJ": true,
	"ThT5KcBeYPX3keUQqHPh": true, "TxGEqnHWrfWFTfGW9XjX": true, "VR6AewLTigWG4xSOukaG": true,
	"XB0fDUnXU5powFXDhCwa": true, "Xb7hH8MSUJpSbSDYk0k2": true, "XrExE9yKIg1WjnnlVkGX": true,
	"ZQe5CZNOzWyzPSCn5a3c": true, "Zlb1dXrM653N07WRdFW3": true, "bVMeCyTHy58xNoL34h3p": true,
	"flq6f7yk4E4fJM5XTYuZ": true, "g5CIjZEefAph4nQFvHAz": true, "iP95p4xoKVk53GoZ742B": true,
	"jBpfuIE2acCO8z3wKNLl": true, "jsCqWAovK2LkecY7zXl4": true, "nPczCjzI2devNBz1zQrb": true,
	"oWAxZDx7w5VEj9dCyTzz": true, "onwK4e9ZLuTAKqWW03F9": true, "pFZP5JQG7iQjIQuC4Bku": true,
	"pMsXgVXv3BLzUgSXRplE": true, "pNInz6obpgDQGcFmaJgB": true, "piTKgcLEGmPE4e6mEKli": true,
	"pqHfZKP75CvOlQylNhV4": true, "t0jbNlBVZ17f02VDIeMI": true, "yoZ06aMxZJJ28mfd3POQ": true,
	"z9fAnlkpzviPz146aGWa": true, "zcAOhNBS3c14rBihAFp1": true, "zrHiDhphv9ZnVXBqCLjz": true,
}
