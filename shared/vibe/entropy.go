package vibe

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
)

// providerID matches the request, response, message and object ids of model providers
// (Anthropic req_011…, msg_01…, toolu_01…; OpenAI chatcmpl-…, resp_…, call_…, run_…, a fine-tuned
// checkpoint's ftckpt_… and its permission's cp_…, the Responses API's items: ci_, fs_, ig_,
// mcp_, sh_, …; a served model's chatcmpl-tool-…; Bedrock's tooluse_…) and the
// ids other services print in logs (Stripe evt_…, ch_…): random, but not secrets.
var providerID = regexp.MustCompile(`^(?:req|request|msg|message|toolu|srvtoolu|tooluse|cp|ftckpt|cm|chat|ci|cntr|cfile|fs|ig|mcp|mcpr|mcpl|apc|sh|lsh|skill|msgbatch|compl|chatcmpl|cmpl|resp|response|call|fc|rs|run|thread|asst|step|batch|file|ftjob|ft|modr|vs|evt|ch|pi|cus|in|sub|prod|price|pm|txn|card|seti|si|plan|ba|po|ii|il|cn|dp|oac|prj|trace|span|gen|generation|conv|turn|item|ctx|task|job|build|deploy|srv|dpl|eval|upload|part|chunk|event|op|exec|workflow)[_-](?:(?:vrtx|bdrk|staging)_|tool-)?(?:[0-9]{2,3}[A-Za-z0-9]{16,40}|[A-Za-z0-9]{12,64})$|^gen-[0-9]{10}-[A-Za-z0-9]{16,40}$|^tooluse_[A-Za-z0-9_-]{16,40}$`)

// providerPrefixes are the words providerID's ids open with, read from its expression: an id
// is a prefix, a _ or -, and the rest, so a token whose first separator does not follow one
// of them is no provider id, which saves running the expression on every candidate.
var providerPrefixes = func() map[string]bool {
	src := providerID.String()
	words := src[len("^(?:"):strings.Index(src, ")[_-]")]
	m := make(map[string]bool)
	for _, w := range strings.Split(words, "|") {
		m[w] = true
	}
	return m
}()

// isProviderID is providerID.MatchString, with the prefix looked up first, or a tagged id.
func isProviderID(tok string) bool {
	if githubAppClientID(tok) || strings.HasPrefix(tok, "v1_Ch") && len(tok) >= 24 && len(tok) <= 120 && base64URLWord(tok[3:]) {
		return true // v1_ChdWV3NI…: a Gemini interaction's id, a protobuf's bytes in base64
	}
	i := strings.IndexAny(tok, "_-")
	return i > 0 && (providerPrefixes[tok[:i]] && providerID.MatchString(tok) || taggedID(tok, i) || checkoutSessionID(tok) || widgetModelID(tok))
}

// systemdPrivateTmp matches the name systemd gives a unit's private /tmp (PrivateTmp=):
// systemd-private-, the boot's id, the unit and six random characters.
var systemdPrivateTmp = regexp.MustCompile(`^systemd-private-[0-9a-f]{32}-[A-Za-z0-9@._\\-]{1,80}\.(?:service|socket|scope|mount)-[A-Za-z0-9]{6}$`)

// x509CertHead matches the opening of an X.509 certificate's DER in base64: a SEQUENCE of a
// SEQUENCE (the TBSCertificate) whose version is v3 (MIIDCTCCAfGgAwIBAgIU…), a certificate's
// first line pasted without its armour, which is public.
var x509CertHead = regexp.MustCompile(`^MII[A-Za-z0-9+/]{3}CCA[A-Za-z0-9+/]{2}gAwIBAgI`)

// k8sPodName reports a pod's name as a Deployment's ReplicaSet gives it: the Deployment's
// name, the template's hash and five characters (traefik-644b7c67d9-f2tn9), both drawn from
// the alphabet Kubernetes names with (no vowels, no 0, 1 or 3).
func k8sPodName(tok string) bool {
	i := strings.LastIndexByte(tok, '-')
	if i < 3 || len(tok)-i-1 != 5 {
		return false
	}
	j := strings.LastIndexByte(tok[:i], '-')
	if j < 1 || i-j-1 < 6 || i-j-1 > 10 {
		return false
	}
	for _, c := range []byte(tok[j+1:i] + tok[i+1:]) {
		if strings.IndexByte("bcdfghjklmnpqrstvwxz2456789", c) < 0 {
			return false
		}
	}
	name := tok[:j]
	return isLowerByte(name[0]) && identifierWords(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'a'
		}
		return r
	}, name))
}

// cdkLogicalID reports a logical id the AWS CDK gives a resource: its construct path's words
// and eight upper-case hex digits of the path's hash (restapigatewayE22E31C5,
// MyBucketF68F3FF0).
func cdkLogicalID(tok string) bool {
	n := len(tok)
	if n < 12 || n > 255 {
		return false
	}
	tail, head := tok[n-8:], tok[:n-8]
	return isHex(tail) && strings.ToUpper(tail) == tail && countDigits(tail) > 0 && isLetters(head) && len(head) >= 4
}

// base64URLWord reports letters, digits, - and _ only.
func base64URLWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) && s[i] != '-' {
			return false
		}
	}
	return s != ""
}

// githubAppClientID reports a GitHub App's OAuth client id (Iv1. and 16 hex digits, or Iv23
// and 16 letters and digits): the app's public name in the device and web flows, which its
// API returns with the app (GitHub Actions' own is Iv1.05c79e9ad1f6bdfa); its secret is
// another value.
func githubAppClientID(tok string) bool {
	if rest, ok := strings.CutPrefix(tok, "Iv1."); ok {
		return len(rest) == 16 && isHex(rest) && strings.ToLower(rest) == rest
	}
	rest, ok := strings.CutPrefix(tok, "Iv23")
	return ok && len(rest) == 16 && allLettersDigits(rest)
}

// widgetModelID reports a Jupyter widget's model id as a notebook keeps it (IPY_MODEL_ and a
// UUID's 32 hex digits).
func widgetModelID(tok string) bool {
	rest, ok := strings.CutPrefix(tok, "IPY_MODEL_")
	return ok && len(rest) == 32 && isHex(rest)
}

// checkoutSessionID reports a Stripe Checkout Session's id, its mode before it
// (cs_test_a1B2…, cs_live_…): the checkout page's URL names it. Cloudsmith's keys, cs_ and
// the key, are not taken.
func checkoutSessionID(tok string) bool {
	rest, ok := strings.CutPrefix(tok, "cs_test_")
	if !ok {
		rest, ok = strings.CutPrefix(tok, "cs_live_")
	}
	return ok && len(rest) >= 20 && len(rest) <= 80 && allLettersDigits(rest)
}

// taggedID reports an object id in Anthropic's tagged form whatever its tag, whose _ is at
// i: 2–12 lower-case letters, _01 and 20–26 letters and digits (depl_011CZkZcDH3vPqd7…,
// vlt_011CZkZDLs7f…, wrkspc_011…): the API names every object so, and new kinds come often.
// The tags of keys are not taken.
func taggedID(tok string, i int) bool {
	if i < 2 || i > 12 || tok[i] != '_' || len(tok) < i+23 || len(tok) > i+29 || tok[i+1:i+3] != "01" || taggedIDDeny[tok[:i]] {
		return false
	}
	for k := range i {
		if !isLowerByte(tok[k]) {
			return false
		}
	}
	return allLettersDigits(tok[i+3:])
}

// taggedIDDeny are the tags of keys, which taggedID never takes for an object's.
var taggedIDDeny = map[string]bool{"sk": true, "rk": true, "pk": true, "key": true, "secret": true, "token": true,
	"api": true, "pat": true, "whsec": true, "sess": true, "auth": true, "access": true}

// awsResourceID matches the ids EC2 and VPC give resources (ami-07b06b442921831e5,
// i-0abc…, vol-, snap-, sg-, subnet-, vpc-, eni-…): a prefix and 8 or 17 hex digits, which
// name a resource and unlock nothing.
var awsResourceID = regexp.MustCompile(`^(?:ami|i|vol|snap|sg|subnet|vpc|eni|igw|eigw|rtb|acl|nat|eipalloc|eipassoc|lt|tgw|tgw-attach|pcx|vpce|fs|fsmp|r|sir|dopt|vgw|cgw|vpn|elb|ecs|lb)-(?:[0-9a-f]{8}|[0-9a-f]{17})$`)

// phoenixID reports the id Phoenix LiveView gives a view's socket and its element (phx- and
// 16 characters of URL-safe base64: phx-GHDoI6bQT2oMCQok), which every page it renders shows.
func phoenixID(tok string) bool {
	if len(tok) != 20 || !strings.HasPrefix(tok, "phx-") {
		return false
	}
	for i := 4; i < len(tok); i++ {
		if c := tok[i]; !isWordByte(c) && c != '-' {
			return false
		}
	}
	return true
}

// aliyunResourceID matches an Alibaba Cloud resource's id: its kind (vpc, vsw, sg, i, rm, …),
// a dash, then lower-case letters and digits that open with the region's code (bp for
// Hangzhou, 2ze Beijing, uf6 Shanghai, wz9 Shenzhen, j6c Hong Kong, t4n Singapore, …), as the
// console and aliyun's CLI print it: vpc-bp1oqqze5tyc2hbi2ft2k, vsw-bp169fg98qpg2agvt6dvq.
var aliyunResourceID = regexp.MustCompile(`^(?:vpc|vsw|sg|i|eip|rm|r|lb|nat|ngw|eni|d|s|acl|vbr|cen|dds|pgm|gp|alb|nlb|pc)-(?:bp|2ze|uf6|wz9|m5e|hp3|j6c|t4n|gw8|0xi|6we|gs5)[a-z0-9]{14,22}$`)

// aliyunResourceLike is aliyunResourceID's cheap gate: 18 to 30 characters, a kind of one to
// three lower-case letters and a dash.
func aliyunResourceLike(tok string) bool {
	i := strings.IndexByte(tok, '-')
	return len(tok) >= 18 && len(tok) <= 30 && i > 0 && i <= 3 && isLowerByte(tok[0])
}

// awsResourceLike is awsResourceID's cheap gate: a short lower-case prefix and a dash, 8 or
// 17 characters after it.
func awsResourceLike(tok string) bool {
	i := strings.IndexByte(tok, '-')
	if i <= 0 || i > 10 || !isLowerByte(tok[0]) {
		return false
	}
	n := len(tok) - strings.LastIndexByte(tok, '-') - 1
	return n == 8 || n == 17
}

// modelName matches model identifiers: claude-3-5-sonnet-20241022, gpt-4o-2024-08-06,
// HuggingFaceTB/SmolLM3-3B, meta-llama/Llama-3.1-8B-Instruct.
var modelName = regexp.MustCompile(`^(?:[A-Za-z0-9][\w.-]{0,40}/)?(?i:[a-z][\w.]*)(?:[-_.:][A-Za-z0-9.]{1,24}){1,10}$`)

// gssKexName matches SSH's GSS-API key exchange methods (RFC 4462): the method, then the
// base64 of the MD5 of the mechanism's OID (gss-group14-sha1-toWM5Slw5Ew8Mqkay+al2g==,
// Kerberos), a published name.
var gssKexName = regexp.MustCompile(`^gss-(?:group\d+|gex|nistp\d+|curve25519)-sha\d+-[A-Za-z0-9+/]{22}(?:==)?$`)

// knownSafeShape reports tokens whose shape says they are ids or names, which entropy alone
// never redacts (Z2lkOi8v…: the base64 of gid://, a Rails GlobalID).
func knownSafeShape(tok string) bool {
	if len(tok) > 50 && strings.HasPrefix(tok, "systemd-private-") && systemdPrivateTmp.MatchString(tok) {
		return true
	}
	if k8sPodName(tok) || cdkLogicalID(tok) || gssKexName.MatchString(tok) || strings.HasPrefix(tok, "Z2lkOi8v") || phoenixID(tok) {
		return true
	}
	if isProviderID(tok) || awsResourceLike(tok) && awsResourceID.MatchString(tok) || aliyunResourceLike(tok) && aliyunResourceID.MatchString(tok) || sshPublicKeyBlob(tok) || ageRecipient.MatchString(tok) || ulidShape(tok) || graphQLGlobalID(tok) || mangledName(tok) || generatedNoSecret(tok) {
		return true
	}
	if strings.ContainsAny(tok, "-_./:") && isModelName(tok) && wordyParts(tok) {
		return true
	}
	if strings.Count(tok, "_") >= 2 && debianPackageFile.MatchString(tok) || len(tok) > 41 && tok[len(tok)-41] == '-' && gitCheckoutDir.MatchString(tok) || pinHashShape(tok) {
		return true
	}
	return nameShaped(tok) || archOpName(tok) || len(tok) <= 40 && wordPieces(tok) >= 4
}

// wordyParts reports whether every part of a separated name is a word, a number or a short
// mix (3B, 8x7B, v0): the parts of a random string are not.
func wordyParts(tok string) bool {
	parts := strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' || r == ':' })
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) > 6 && hasDigitAndLetter(p) && !isDigits(strings.TrimLeft(p, "vV")) && meanRunLength(p) < 3 && classRuns(p) >= 4 {
			return false
		}
	}
	return true
}

// debianPackageFile matches a Debian package's name, version and architecture as dpkg and
// apt name its files (libnotify4_0.7.5-1+srt6_i386, libc6_2.36-9+deb12u4_amd64.deb).
var debianPackageFile = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]+_[0-9][A-Za-z0-9.+~:-]*_(?:amd64|i386|arm64|armhf|armel|all|ppc64el|s390x|riscv64|mips64el)(?:\.[a-z0-9]{1,8})?$`)

// pinHash matches a certificate or public key pin as OkHttp's CertificatePinner and HPKP
// write one (sha256/afwiKY3RxoMmLkuRW1l7QsPZTJPwDS2pdDROQjXw8ig=): the hash of a public key.
var pinHash = regexp.MustCompile(`^(?:sha1|sha256|sha384|sha512|md5)//?[A-Za-z0-9+/]{10,86}={0,2}$`)

// pinHashShape is pinHash behind a test of its opening letters.
func pinHashShape(tok string) bool {
	return (strings.HasPrefix(tok, "sha") || strings.HasPrefix(tok, "md5/")) && pinHash.MatchString(tok)
}

// gitCheckoutDir matches the directory a package manager checks a git dependency out to, its
// name and the commit's SHA-1 (Dart's .pub-cache/git/window_manager-af74247d…).
var gitCheckoutDir = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*-[0-9a-f]{40}$`)

var (
	uuidRe      = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	integrityRe = regexp.MustCompile(`^(?:(?:sha(?:1|224|256|384|512)|sha3-\d+|md5|blake2[bs]?|crc32c?)-[A-Za-z0-9+/]+=*|h1:.*)$`)
)

// knownShapeSecret reports tokens whose shape alone says secret, whatever their entropy: a
// base32 TOTP seed (16 or 32 characters of A-Z2-7 with digits, not words in capitals), an Atlassian personal
// access token (base64 of "<12 digits>:<random>"), a Salesforce org id.
func knownShapeSecret(tok string) bool {
	switch {
	case (len(tok) == 16 || len(tok) == 32) && base32Seed(tok):
		return !wordsInCapitals(tok) // SMACK64TRANSMUTE: a constant's name in capitals
	case len(tok) == 44 && strings.IndexByte("MNO", tok[0]) >= 0:
		b, err := base64.RawURLEncoding.DecodeString(tok[:40])
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(tok[:40])
		}
		return err == nil && len(b) == 30 && isDigits(string(b[:12])) && b[12] == ':'
	}
	return false
}

func base32Seed(tok string) bool {
	digits := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= '2' && c <= '7':
			digits++
		case c < 'A' || c > 'Z':
			return false
		}
	}
	return digits >= 2 && shannonEntropy(tok) >= 3.5
}

// highEntropySecret reports whether tok (a match of entropyToken) looks like a random secret:
// long, mixed character classes, high Shannon entropy, and not one of the random-looking
// strings code is full of (git SHAs and other hex digests, UUIDs, integrity hashes, paths,
// dotted names), nor of a known-safe shape.
func highEntropySecret(tok string) bool {
	return randomShaped(tok) && !knownSafeShape(strings.Trim(tok, "=.-_~/"))
}

// randomShaped is highEntropySecret before the known-safe shapes are ruled out.
func randomShaped(tok string) bool {
	rooted := rootedPath(tok) // /var/folders/…: a path, however random its segments look together
	tok = strings.Trim(tok, "=.-_~/")
	if len(tok) < 20 || isHex(tok) || uuidRe.MatchString(tok) || integrityRe.MatchString(tok) || standIn(tok) {
		return false // …EXAMPLEKEY, …xxxx…: a stand-in, however random the rest looks
	}
	if hexFloat(tok) {
		return false // 0x1.45F306DC9C883p-1: a number
	}
	// A gitiles URL's path names its revision with a segment of its own, +
	// (platform/bionic/+/6f12…/tools/…), which is no base64.
	if (strings.Count(tok, "/") >= 2 || rooted && strings.Contains(tok, "/")) && !strings.ContainsAny(strings.ReplaceAll(tok, "/+/", "/"), "+=") && (rooted || !randomBase64(tok)) {
		return false // a path
	}
	if hashedFileName(tok) || idNamed(tok) {
		return false // app-3f9c2b1a….js: a build's content hash
	}
	if strings.Count(tok, ".") >= 1 && !strings.HasPrefix(tok, "ey") && (dottedWords(tok) || hostName(tok)) {
		return false // a dotted identifier or host name
	}
	var lower, upper, digit int
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit++
		}
	}
	if digit < 2 || lower+upper < 4 {
		return false
	}
	classes := 0
	for _, n := range []int{lower, upper, digit} {
		if n > 0 {
			classes++
		}
	}
	if classes < 3 && len(tok) < 32 {
		return false
	}
	if meanRunLength(tok) >= 3.75 {
		return false // made of words: wantsHttp10KeepAlive, TLS12_CIPHER_SUITES
	}
	return shannonEntropy(tok) >= entropyThreshold(len(tok))
}

// hexFloat reports a hexadecimal floating-point constant of C, C++ and Go
// (0x1.45F306DC9C883p-1, 0x1.71547652b82feP+0, 0X1P-1074): hex digits, maybe a point and more,
// and a binary exponent, maybe with a type suffix.
func hexFloat(tok string) bool {
	if len(tok) < 5 || tok[0] != '0' || tok[1]|0x20 != 'x' {
		return false
	}
	i, digits := 2, 0
	for i < len(tok) && (strings.IndexByte("0123456789abcdefABCDEF._", tok[i]) >= 0) {
		if tok[i] != '.' && tok[i] != '_' {
			digits++
		}
		i++
	}
	if digits == 0 || strings.Count(tok[2:i], ".") > 1 || i == len(tok) || tok[i]|0x20 != 'p' {
		return false
	}
	i++
	if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
		i++
	}
	e := i
	for i < len(tok) && isDigitByte(tok[i]) {
		i++
	}
	if i == e {
		return false
	}
	switch rest := strings.ToLower(tok[i:]); rest {
	case "", "f", "l", "f16", "f32", "f64", "f128", "bf16":
		return true
	}
	return false
}

// standIn reports a token that says it is an example: EXAMPLE or a run of x inside it.
func standIn(tok string) bool {
	l := strings.ToLower(tok)
	return strings.Contains(l, "example") || strings.Contains(l, "xxxx")
}

// hashedFileName reports a file name (app-3f9c2b1a….js, main.7d8e9f0a.css, a content hash
// in a build artefact's name): random-looking, but not a secret.
func hashedFileName(tok string) bool {
	if strings.HasSuffix(tok, ".whl.metadata") {
		return true // pip's "Using cached greenlet-3.1.1-cp311-…whl.metadata": a wheel's metadata file
	}
	i := strings.LastIndexByte(tok, '.')
	if i <= 0 {
		return false
	}
	switch strings.ToLower(tok[i+1:]) {
	case "js", "mjs", "cjs", "css", "map", "html", "json", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico",
		"woff", "woff2", "ttf", "otf", "eot", "wasm", "txt", "gz", "zip", "tar", "tgz", "whl", "jar", "so",
		"dll", "exe", "py", "go", "rs", "ts", "tsx", "jsx", "md", "yaml", "yml", "lock", "log", "pdf", "mp4",
		"jsonl", "ndjson", "csv", "parquet", "xml", "toml", "sql", "sqlite", "db", "bin", "pt", "onnx", "safetensors",
		"darc": // a Dolt archive named by its hash (beads keeps its backups in one)
		return true
	}
	return false
}

// randomBase64 reports whether a slash-separated token is one random base64 string (an AWS
// secret key such as wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp) rather than a path: long once
// the slashes are removed, and changing character class every one or two characters where
// path segments are words.
func randomBase64(tok string) bool {
	s := strings.ReplaceAll(tok, "/", "")
	return len(s) >= 30 && meanRunLength(s) < 2.2 && !urlWithHost(tok) // //gist.github.com/…: a URL
}

// classRuns counts the runs meanRunLength sees.
func classRuns(s string) int {
	if m := meanRunLength(s); m > 0 {
		letters := 0
		for i := 0; i < len(s); i++ {
			if isWordByte(s[i]) && s[i] != '_' {
				letters++
			}
		}
		return int(float64(letters)/m + 0.5)
	}
	return 0
}

// meanRunLength splits s into runs at lower-to-upper case changes, letter-digit changes and
// punctuation, and returns their mean length: identifiers are made of words (long runs),
// random strings change class every one or two characters.
func meanRunLength(s string) float64 {
	class := func(c byte) int {
		switch {
		case c >= 'a' && c <= 'z':
			return 1
		case c >= 'A' && c <= 'Z':
			return 2
		case c >= '0' && c <= '9':
			return 3
		}
		return 0
	}
	runs, letters := 0, 0
	prev := 0
	for i := 0; i < len(s); i++ {
		c := class(s[i])
		if c == 0 {
			prev = 0
			continue
		}
		letters++
		// upper→lower continues a word (Http); every other change starts a run.
		if c != prev && !(prev == 2 && c == 1) {
			runs++
		}
		prev = c
	}
	if runs == 0 {
		return 0
	}
	return float64(letters) / float64(runs)
}

// entropyThreshold grows with length up to 4.3 bits per character; random base64 or base62
// strings of 20+ characters score above it, identifiers and words below.
func entropyThreshold(n int) float64 {
	return min(4.3, 0.86*math.Log2(float64(n)))
}

func shannonEntropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// dottedWords reports whether every dot-separated part of s is a plain word or version
// number (golang.org.x.crypto, v1.2.3, foo.bar.baz), or a file name's parts of words,
// numbers and hex digests (covcounters.cce1b350….821598.1663006712821344241: a hash, a
// process id and a time), which hold no more than a hex digest does.
func dottedWords(s string) bool {
	word := false
	long := false
	for part := range strings.SplitSeq(s, ".") {
		word = word || len(part) >= 3 && isLetters(part)
		if isHex(part) && len(part) >= 8 {
			long = true // a digest or a number
			continue
		}
		if len(part) > 24 || hasDigitAndLetter(part) && len(part) > 8 {
			return false
		}
	}
	return !long || word
}

// sshPublicKeyBlob reports the base64 blob of an OpenSSH public key (authorized_keys,
// known_hosts, a .pub file): it opens with the length-prefixed name of its algorithm
// (AAAAC3NzaC1lZDI1NTE5… is "\0\0\0\x0bssh-ed25519"). A public key is no secret.
func sshPublicKeyBlob(tok string) bool {
	if len(tok) < 60 || !strings.HasPrefix(tok, "AAAA") {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(tok[:48])
	if err != nil || len(b) < 4 {
		return false
	}
	n := int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3])
	if n < 7 || n > len(b)-4 {
		return false
	}
	switch name := string(b[4 : 4+n]); {
	case strings.HasPrefix(name, "ssh-"), strings.HasPrefix(name, "ecdsa-sha2-"), strings.HasPrefix(name, "sk-ssh-"), strings.HasPrefix(name, "sk-ecdsa-"):
		return true
	}
	return false
}

// ageRecipient matches an age public key (age1 and 58 bech32 characters), which a file is
// encrypted to and which is shared openly; its secret counterpart is AGE-SECRET-KEY-1….
var ageRecipient = regexp.MustCompile(`^age1[02-9ac-hj-np-z]{58}$`)
