package vibe

import (
	"encoding/base64"
	"hash/crc32"
	"regexp"
	"slices"
	"strings"
)

// Token formats of services whose tokens carry no prefix gitleaks matches without a keyword
// nearby, or none at all. Each format is a fact about the service's tokens (prefix, alphabet,
// length, checksum suffix); the regular expressions are written here. A format without a
// literal prefix is gated on a literal every match contains.
var formatRules = []struct {
	prefix  string // literal every match contains (case-sensitive)
	re      string
	endWord bool // the match must not be followed by a token character
	anchors func(string) []int
}{
	{"akab-", `akab-[0-9a-z]{16}-[0-9a-z]{16}`, true, nil},
	{"da2-", `da2-[a-z0-9]{26}`, true, nil},
	{"LTAI", `LTAI[0-9A-Za-z]{12,20}`, true, nil},
	{"amzn.mws.", `amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, false, nil},
	{"dnkey-", `dnkey-[A-Z2-7]{26}-[A-Z2-7]{52}`, false, nil},
	{"dt0", `dt0[a-z][0-9]{2}\.[0-9A-Z]{24}\.[0-9A-Z]{64}`, false, nil},
	{"dp.", `dp\.(?:pt|st|sa|ct|scim|audit)\.[0-9A-Za-z]{40,44}`, false, nil},
	{"pat-", `\bpat-(?:na|eu|ap|au)[0-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, true, nil}, // HubSpot private apps
	{"AstraCS:", `AstraCS:[A-Za-z0-9]{24}:[0-9a-f]{64}`, true, nil},                                                // DataStax Astra
	{"EAA", `\bEAA[0-9A-Za-z]{80,}`, false, nil},                                                                   // not inside a base64 blob (an SSH public key's AAAAB3…EAAAADAQAB…)
	{"EAACEdEose0cBA", `EAACEdEose0cBA[0-9A-Za-z]+`, false, nil},
	{"pk_", `\bpk_(?:test|live)_[0-9A-Za-z]{20,}`, false, nil},
	{"|", `\b[0-9]{12,18}\|[0-9A-Za-z_-]{24,28}`, true, func(c string) []int { return runBefore(c, "|", 12, isDigitByte) }},
	{"GOCSPX-", `GOCSPX-[0-9A-Za-z_-]{28}`, false, nil},
	{"1//0", `1//0[0-9A-Za-z_-]{80,}`, false, nil},
	{"HRKU-", `HRKU-(?:[0-9A-Za-z_-]{60}|[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})`, false, nil},
	{"IGQVJ", `IGQVJ[=0-9A-Za-z_-]{100,}`, false, nil},
	{"-us", `\b[0-9a-z]{32}-us[0-9]{1,2}`, true, func(c string) []int { return runBefore(c, "-us", 32, isAlnumLower) }},
	{"key-", `\bkey-[0-9a-z]{32}`, true, nil},
	{"-", `\b[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}`, true, func(c string) []int { return runBefore(c, "-", 32, isHexLower) }},
	{"access_token$production$", `access_token\$production\$[0-9a-z]{16}\$[0-9a-z]{32}`, false, nil},
	{"CLOJARS_", `CLOJARS_[0-9a-f]{60}`, false, nil},
	{"shp", `shp(?:at|ca|pa|ss|tka)_[0-9A-Fa-f]{32}`, false, nil},
	{"xapp-", `xapp-[0-9A-Za-z-]{10,}`, false, nil},
	{"whsec_", `whsec_[0-9A-Za-z+/=]{24,}`, false, nil},
	{"EAAA", `EAAA[0-9A-Za-z_-]{60}`, true, nil},
	{"sq0", `sq0(?:atp|csp|idp)-[0-9A-Za-z_-]{22,43}`, false, nil},
	{"pypi-", `pypi-[0-9A-Za-z_-]{50,}`, false, nil},
	{"ghs_", `ghs_[0-9]{1,20}_eyJ[\w.-]{15,}`, false, nil},
	{"cmVmdGtuO", `cmVmdGtuO[0-9A-Za-z_-]{55}`, false, nil},
	{"AKCp", `AKCp[0-9A-Za-z]{69}`, false, nil},
	{"8Q~", `[0-9A-Za-z_~.-]{3}8Q~[0-9A-Za-z_~.-]{34}`, false, nil},
	{"JQQJ9", `[0-9A-Za-z]{52}JQQJ9[9DH][0-9A-Za-z]{26}(?:[0-9A-Za-z=]{4})?`, false, nil},
	{"ATBB", `ATBB[0-9A-Za-z]{24}[A-F0-9]{8}`, false, nil},
	{"ATCTT3xFfGN0", `ATCTT3xFfGN0[\w\\=-]{80,}`, false, nil},
	{"ATATT3xFfGF0", `ATATT3xFfGF0[\w\\=-]{80,}`, false, nil},
	{"BBDC-", `BBDC-[A-Za-z0-9_-]{44}`, false, nil},
	{"_v1_", `do[opr]_v1_[a-f0-9]{64}`, false, nil},
	{"sl.", `\bsl\.(?:u\.)?[0-9A-Za-z_-]{77,}`, false, nil},
	{"oy2", `\boy2[a-z0-9]{43}`, true, nil},
	{"gl", `\b(?:gl(?:agent|soat|ffct|p[at]t|oas|cbt|imt|rtr|[dfrw]t)-|GR1348941)[0-9A-Za-z_-]{20,64}`, false, gitlabAnchors},
	{"glc_", `glc_eyJ[0-9A-Za-z_-]{80,}`, false, nil},
	{"glsa_", `glsa_[0-9A-Za-z_-]{32}_[0-9A-Fa-f]{8}`, false, nil},
	{"AAAAAAAAAAAAAAAAAAAAA", `AAAAAAAAAAAAAAAAAAAAA[0-9A-Za-z%]{30,}`, false, nil},
	{"pscale_", `pscale_(?:tkn|oauth|pw)_[.0-9A-Za-z_-]{32,64}`, false, nil},
	{"NR", `\bNR(?:AK-[0-9A-Z]{27}|BR-[0-9a-f]{19,20}|II-[0-9A-Za-z_-]{25}|JS-[0-9a-f]{19}|RA-[0-9a-f]{42}|[A-Z]{2}-[0-9A-Za-z_-]{19,64})`, true, nil},
	{"NRAL", `\b[0-9a-z]{5}[0-9a-f]{31}NRAL`, true, func(c string) []int { return runBefore(c, "NRAL", 36, isAlnumLower) }},
	{"lin_", `lin_(?:api|oauth)_[0-9A-Za-z]{40}`, false, nil},
	{"cf", `\bcf(?:at|ut|k)_[0-9A-Za-z]{40,}`, false, nil},
	{"AGE-SECRET-KEY-1", `AGE-SECRET-KEY-1[0-9A-Z]{58}`, false, nil},
	{"hv", `\bhv[bsr]\.[0-9A-Za-z_-]{24,}`, false, nil},
	{".atlasv1.", `[0-9A-Za-z_-]{14}\.atlasv1\.[0-9A-Za-z_-]{60,}`, false, nil},
	{"sk-", `sk-[0-9A-Za-z_-]{16,}(?:T3BlbkFJ|9wZW5BS|PcGVuQU)[0-9A-Za-z_-]{16,}`, false, nil},
	{"sk-", `\bsk-[0-9a-f]{32,64}`, true, nil},
	{"dckr_", `dckr_(?:pat|oat)_[0-9A-Za-z_-]{27,32}`, false, nil},
	{"SWMTKN-1-", `SWMTKN-1-[0-9a-z]{50}-[0-9a-z]{25}`, false, nil},
	{"SWMKEY-1-", `SWMKEY-1-[0-9A-Za-z+/]{43}`, false, nil},
	{"ntn_", `ntn_[0-9]{9}[0-9A-Za-z_-]{36,}`, false, nil},
	{"pplx-", `pplx-[0-9A-Za-z_-]{40,64}`, false, nil},
	{"tvly-", `tvly-[0-9A-Za-z_-]{32,40}`, false, nil},
	{"figd_", `figd_[0-9A-Za-z_-]{40}`, false, nil},
	{"ops_eyJ", `ops_eyJ[0-9A-Za-z_-]{100,}`, false, nil},
	{"xkeysib-", `xkeysib-[0-9a-f]{64}-[0-9A-Za-z_-]{16}`, false, nil},
	{"xsmtpsib-", `xsmtpsib-[0-9a-f]{64}-[0-9A-Za-z_-]{16}`, false, nil},
	{"tgp_v1_", `tgp_v1_[0-9A-Za-z_-]{43}`, false, nil},
	{"llx-", `llx-[0-9A-Za-z_-]{48}`, false, nil},
	{"sq", `\bsq[apu]_[0-9a-f]{40}`, true, nil},
	{"sntrys_", `sntrys_eyJ[0-9A-Za-z_-]{60,}=*(?:_[0-9A-Za-z_-]{32,})?`, false, nil},
	{"sntryu_", `sntryu_[0-9a-f]{64}`, false, nil},
	{"vcp_", `vcp_[0-9A-Za-z]{40,}`, false, nil},
	{"nfp_", `nfp_[0-9A-Za-z]{36}`, false, nil},
	{"ph", `\bph[acrsx]_[0-9A-Za-z]{40,60}`, true, nil},
	{"rubygems_", `rubygems_[0-9a-f]{48}`, false, nil},
	{"dapi", `\bdapi[0-9a-f]{32}(?:-\d)?`, true, nil},
	{"cosmo_", `cosmo_[0-9a-f]{32}`, false, nil},
	{"sbp_", `sbp_(?:v0_)?[0-9a-f]{40}`, false, nil},
	{"sb_secret_", `sb_secret_[0-9A-Za-z_-]{20,}`, false, nil},
	{"3MVG", `3MVG[0-9A-Za-z_.]{24,}`, false, nil},
	{"!", `\b00D[0-9A-Za-z]{12,15}![0-9A-Za-z_.]{24,}`, false, nil},
	{"00D", `\b00D[0-9A-Za-z]{12,15}\b`, true, nil},
	{"PMA", `PMA(?:K-[0-9a-f]{24}-[0-9a-f]{34}|T-[0-9A-Z]{26})`, false, nil},
	{"TlRMTVNTUAA", `TlRMTVNTUAA[BCD]AAAA[=0-9A-Za-z_/+-]{28,}`, false, nil},
	{":", `\b[0-9]{8,10}:[0-9A-Za-z_-]{35}`, true, func(c string) []int { return runBefore(c, ":", 8, isDigitByte) }},
	{"ABSK", `\bABSK[0-9A-Za-z/+]{28,}`, false, nil},
	{"bedrock-api-key-", `bedrock-api-key-[0-9A-Za-z/+=]{28,}`, false, nil},
	{"AIza", `AIza[0-9A-Za-z_-]{35}`, false, nil},
	{"glpat-", `glpat-[0-9A-Za-z_.-]{20,}`, false, nil},
	{"sk_", `\b[rs]k_(?:test|live|prod)_[0-9A-Za-z]{20,}`, false, nil},
	{"SK", `\bSK[0-9a-z]{32}\b`, true, nil},
	{"AC", `\bAC[0-9a-z]{32}\b`, true, nil},
	{"AKC", `\bAKC[a-zA-Z0-9]{10,}`, true, nil},
	{"AP", `\bAP[0-9A-F][a-zA-Z0-9]{8,}`, true, nil},
	{".", `\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}`, true, dotsSevenApart},
	{"eyJ", `\beyJ[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{4,}={0,2}\.[A-Za-z0-9_.+/=-]*`, false, nil},
	// A JWT's header and claims without the signature (eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOi…): what
	// a log or a query string keeps of a token, the claims that say whose it is.
	{"eyJ", `\beyJ[A-Za-z0-9_-]{10,}={0,2}\.eyJ[A-Za-z0-9_-]{10,}={0,2}`, false, nil},
	{"xox", `xox[a-z]-[0-9A-Za-z-]{10,}`, false, nil},
	{"hooks.slack.com", `(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`, false, nil},
	{"AKIA", `\bA(?:KIA|SIA|GPA|IDA|ROA|IPA|NPA|NVA|PKA)[0-9A-Z]{16}\b`, false, nil},
	{"dop_", `dop_v1_[a-f0-9]{64}`, false, nil},
	{"glptt-", `glptt-[0-9a-f]{40}`, false, nil},
	{"ghp_", `ghp_[0-9A-Za-z]{36}`, false, nil},
	{"AGE-PLUGIN-", `AGE-PLUGIN-[0-9A-Z-]{20,}`, false, nil},
	{"tskey-", `tskey-[a-z]+-[0-9A-Za-z]{6,}-[0-9A-Za-z]{10,}`, false, nil},
	{"pk_", `\bpk_(?:[0-9]{6,10}_[0-9A-Z]{32}|[0-9A-Za-z]{6}_[0-9a-f]{34}|[0-9a-f]{34})`, true, nil},
	{"sk_", `\bsk_[0-9a-f]{48}`, true, nil},
	{"CFPAT-", `CFPAT-[0-9A-Za-z_-]{43}`, false, nil},
	{"thog-", `thog-(?:key-[0-9a-f]{16}|secret-[0-9a-f]{32})`, false, nil},
	{"rh-api-", `rh-api-[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`, false, nil},
	{"VF.", `\bVF\.(?:DM\.)?[0-9A-Za-z]{24}\.[0-9A-Za-z]{16}`, false, nil},
	{"NRAL", `\b[0-9A-Za-z]{36}NRAL`, true, func(c string) []int { return runBefore(c, "NRAL", 36, isAlnum) }},
	{"-NRMA", `\bAA[0-9a-f]{40}-NRMA`, false, nil},
	{"nvapi-", `nvapi-[0-9A-Za-z_-]{64}`, false, nil},
	{"sgp_", `sgp_(?:(?:[0-9a-fA-F]{16}|local)_)?[0-9a-fA-F]{40}`, false, nil},
	{"rdme_", `rdme_[0-9a-z]{70}`, false, nil},
	{"-c-", `\b(?:pub|sub|sec)-c-[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}`, false, nil},
	{"scp-", `scp-(?:live|test)-[0-9a-f]{32}`, false, nil},
	{"S", `\bS[UAONCXP][AB][A-Z2-7]{55}`, true, nkeySeedAnchors}, // NATS NKEY seeds (nsc, nk -gen)
}

// ruleFormat names the matches of formatRules.
const ruleFormat = "token-format"

func formatExtraRules() []extraRule {
	rules := make([]extraRule, 0, len(formatRules))
	for _, f := range formatRules {
		// A leading \b keeps the regexp engine from scanning for the literal prefix; the
		// boundary is checked after the match instead.
		src, boundary := strings.CutPrefix(f.re, `\b`)
		re := regexp.MustCompile(src)
		r := extraRule{id: ruleFormat, re: re, literal: f.prefix, endWord: f.endWord, boundary: boundary, anchors: f.anchors,
			check: formatChecks[f.re], notInBase64: strings.HasPrefix(src, f.prefix) && allLettersDigits(f.prefix)}
		if re.NumSubexp() > 0 {
			r.group = 1
		}
		rules = append(rules, r)
	}
	return rules
}

// runBefore returns the positions of lit that follow at least n bytes passing class: the
// anchors of formats that open with a run of digits or hex.
func runBefore(c, lit string, n int, class func(byte) bool) []int {
	var at []int
	for from := 0; ; {
		i := strings.Index(c[from:], lit)
		if i < 0 {
			return at
		}
		i += from
		k := i
		for k > 0 && i-k < n && class(c[k-1]) {
			k--
		}
		if i-k >= n {
			at = append(at, i)
		}
		from = i + len(lit)
	}
}

func isDigitByte(c byte) bool  { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool      { return isDigitByte(c) || isLetter(c) }
func isHexLower(c byte) bool   { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
func isAlnumLower(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' }

// gitlabAnchors returns the GitLab token prefixes (gl…- and GR1348941): "gl" alone opens
// too many words (global, glob) to run the expression on every line holding it.
func gitlabAnchors(c string) []int {
	var at []int
	for from := 0; ; {
		i := strings.Index(c[from:], "gl")
		if i < 0 {
			break
		}
		i += from
		from = i + 2
		k := i + 2
		for k < len(c) && k-i < 8 && c[k] >= 'a' && c[k] <= 'z' {
			k++
		}
		if k < len(c) && c[k] == '-' && k-i >= 4 {
			at = append(at, i)
		}
	}
	if i := strings.Index(c, "GR1348941"); i >= 0 {
		at = append(at, i)
		slices.Sort(at)
	}
	return at
}

// dotsSevenApart returns dots followed by another seven bytes on, the middle part of a
// Discord bot token.
func dotsSevenApart(c string) []int {
	var at []int
	for from := 0; ; {
		i := strings.IndexByte(c[from:], '.')
		if i < 0 {
			return at
		}
		i += from
		if i+7 < len(c) && c[i+7] == '.' && i >= 23 {
			at = append(at, i)
		}
		from = i + 1
	}
}

// pairedSecret finds the secret that goes with an access key id on the same line (AWS,
// Alibaba): a 40- (AWS) or 30-character (Alibaba) random string. It runs only on lines that
// hold a key id.
var (
	awsKeyID      = regexp.MustCompile(`\bA(?:KIA|SIA)[0-9A-Z]{16}\b`)
	awsSecret     = regexp.MustCompile(`(?:^|[^0-9A-Za-z/+])([0-9A-Za-z/+]{40})(?:$|[^0-9A-Za-z/+=])`)
	alibabaKeyID  = regexp.MustCompile(`\bLTAI[0-9A-Za-z]{12,20}\b`)
	alibabaSecret = regexp.MustCompile(`\b([0-9A-Za-z]{30})\b`)
)

func findPairedSecrets(chunk string, off int, f *findings) {
	for _, p := range []struct {
		lit    string
		id, re *regexp.Regexp
	}{{"AKIA", awsKeyID, awsSecret}, {"ASIA", awsKeyID, awsSecret}, {"LTAI", alibabaKeyID, alibabaSecret}} {
		if !strings.Contains(chunk, p.lit) {
			continue
		}
		for _, loc := range p.id.FindAllStringIndex(chunk, -1) {
			ls := strings.LastIndexByte(chunk[:loc[0]], '\n') + 1
			le := strings.IndexByte(chunk[loc[1]:], '\n')
			if le < 0 {
				le = len(chunk)
			} else {
				le += loc[1]
			}
			line := chunk[ls:le]
			for _, m := range p.re.FindAllStringSubmatchIndex(line, -1) {
				s, e := ls+m[2], ls+m[3]
				if s >= loc[0] && s < loc[1] || !hasDigitAndLetter(chunk[s:e]) || isHex(chunk[s:e]) {
					continue
				}
				f.addSpan(ruleFormat, off+s, off+e)
			}
		}
	}
}

// DER-encoded private keys in base64 without PEM armour ("MIIEvQIBADAN…", "MHcCAQEE…"):
// the decoded bytes open a SEQUENCE whose first element is the INTEGER version 0 or 1, which
// a certificate (SEQUENCE, SEQUENCE) never does. The run and the base64 lines right after it
// are masked.
func findDERKeys(text string, f *findings) {
	for _, lit := range []string{"MII", "MHcCAQEE", "MC4CAQAw", "MHQCAQEE", "MIG"} {
		for from := 0; ; {
			i := strings.Index(text[from:], lit)
			if i < 0 {
				break
			}
			i += from
			from = i + len(lit)
			if i > 0 && tokenChar(text[i-1]) {
				continue
			}
			end := i
			for end < len(text) && base64Char(text[end]) {
				end++
			}
			if end-i < 40 || !derPrivateKeyPrefix(text[i:min(end, i+16)]) {
				continue
			}
			// Following lines of base64 (a key wrapped at 64 columns, maybe quoted and
			// concatenated) belong to the key.
			for end < len(text) {
				j := end
				for j < len(text) && !base64Char(text[j]) && text[j] != '-' && j-end < 24 {
					j++
				}
				k := j
				for k < len(text) && base64Char(text[k]) {
					k++
				}
				if k-j < 16 || strings.Count(text[end:j], "\n") != 1 {
					break
				}
				end = k
			}
			f.addSpan(ruleDERKey, i, end)
			from = end
		}
	}
}

func base64Char(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

func derPrivateKeyPrefix(s string) bool {
	b, err := base64.StdEncoding.DecodeString(s[:len(s)/4*4])
	if err != nil || len(b) < 7 || b[0] != 0x30 {
		return false
	}
	i := 2
	switch {
	case b[1] == 0x81:
		i = 3
	case b[1] == 0x82:
		i = 4
	case b[1] >= 0x80:
		return false
	}
	return i+3 <= len(b) && b[i] == 0x02 && b[i+1] == 0x01 && b[i+2] <= 1
}

// JSON Web Keys: in an object with a "kty" member, the private members (d, p, q, dp, dq,
// qi, and k of a symmetric key) are secrets.
var jwkMember = regexp.MustCompile(`"(?:d|p|q|dp|dq|qi|k)"\s*:\s*"([A-Za-z0-9_-]{16,})"`)

func findJWK(text string, f *findings) {
	if !strings.Contains(text, `"kty"`) {
		return
	}
	for _, m := range jwkMember.FindAllStringSubmatchIndex(text, -1) {
		f.addSpan(ruleJWK, m[2], m[3])
	}
}

// importAlias reports a name the text imports a binding as (import { default as
// default_1a7510af… } from '…', Payload's generated import map): an identifier of code, where
// it is imported and where it is used.
func importAlias(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], " as "+name)
		if j < 0 {
			return false
		}
		i += j + 4 + len(name)
		if i == len(text) || strings.IndexByte(" ,}\n", text[i]) >= 0 {
			return true
		}
	}
}

// rulePrefixed names findPrefixedTokens' matches.
const rulePrefixed = "prefixed-token"

// findPrefixedTokens finds tokens made of a short prefix, a separator and a generated body —
// the shape most services give their keys (slk_…, nvapi-…, ak_live_…, CFPAT-…) — also of
// services no rule here names. The prefix is 2–12 lower-case letters and digits (or 2–8
// upper-case), maybe followed by a second short segment (sk_live_, scp-test-); the body's
// longest unbroken part is 20+ characters mixing letters and digits that look generated:
// 32+ hex digits, or high entropy without words in it. Ids of a known-safe shape, digests
// and file names pass.
func findPrefixedTokens(chunk string, off int, f *findings) {
	cfPage := strings.Contains(chunk, "_cf_chl_opt")
	for i := 0; i < len(chunk); {
		if !prefixedChar(chunk[i]) {
			i++
			continue
		}
		start := i
		for i < len(chunk) && prefixedChar(chunk[i]) {
			i++
		}
		if i-start < 24 || start > 0 && strings.IndexByte("./@\\", chunk[start-1]) >= 0 {
			continue
		}
		if sep := strings.IndexAny(chunk[start:min(i, start+14)], "_-"); sep < 2 {
			continue // no prefix of 2–12 characters and a separator
		}
		if i < len(chunk) && chunk[i] == '.' && i+1 < len(chunk) && isLetter(chunk[i+1]) {
			continue // a file name: app-3f9c….js
		}
		if i+1 < len(chunk) && chunk[i] == '.' && isDigitByte(chunk[i+1]) && i-start > 64 && isHex(chunk[i-64:i]) && strings.IndexByte("-_", chunk[i-65]) >= 0 {
			continue // fedora-coreos-967b…949.0: an OSTree deployment, a SHA-256 checksum and its serial
		}
		if start > 0 && chunk[start-1] == '#' && strings.HasPrefix(chunk[start:i], "diff-") && isHex(chunk[start+5:i]) {
			continue // …/commit/3ce7…#diff-7470…: a diff's anchor for one file, the digest of its path
		}
		if wordULID(chunk[start:i]) {
			continue // testrun:deployment-01GQR4GN7EA8G12VE1DBRQG4KQ: a deployment's ULID in an image's tag
		}
		if markedExample(chunk[start:i]) {
			continue // db-BIQTE3B3K3RM7M74SK5EXAMPLE: AWS's documentation's sample
		}
		if cfPage && cloudflareChallengeRun(chunk, start) {
			continue // cH: 'rm_XnTJ…': a parameter of Cloudflare's challenge page
		}
		if run := chunk[start:i]; checksummedToken(run) || prefixedToken(run) && !nameFamily(f.read(), off+start, off+i) && !vapidPublicKey(chunk[max(0, start-40):start], run) && !(hashedAliasName(run) && importAlias(chunk, run)) && !wordsThenDigest(run) {
			f.addSpan(rulePrefixed, off+start, off+i)
		}
	}
}

func prefixedChar(c byte) bool { return isWordByte(c) || c == '-' }

// prefixedToken decides one run for findPrefixedTokens.
func prefixedToken(run string) bool {
	p := 0
	upper := run[0] >= 'A' && run[0] <= 'Z'
	if !isLetter(run[0]) {
		return false
	}
	segment := func(from, maxLen int) int {
		k := from
		for k < len(run) && k-from < maxLen+1 {
			c := run[k]
			if upper && (c >= 'A' && c <= 'Z' || isDigitByte(c)) || !upper && (c >= 'a' && c <= 'z' || isDigitByte(c)) {
				k++
				continue
			}
			break
		}
		return k
	}
	maxPrefix := 12
	if upper {
		maxPrefix = 8
	}
	k := segment(0, maxPrefix)
	if k < 2 || k-0 > maxPrefix || k >= len(run) || run[k] != '_' && run[k] != '-' {
		return false
	}
	if prefixDeny[strings.ToLower(run[:k])] || strings.HasPrefix(run, "cs_test_") || strings.HasPrefix(run, "cs_live_") {
		return false // cs_test_…: a Stripe Checkout Session's id, its mode before it (Cloudsmith's keys are cs_ and the key)
	}
	p = k + 1
	// A second segment: sk_live_, scp-test-, lin_api_.
	if k2 := segment(p, 10); k2-p >= 2 && k2 < len(run) && (run[k2] == '_' || run[k2] == '-') && k2-p <= 10 {
		if digestNames[strings.ToLower(run[p:k2])] && isHex(run[k2+1:]) {
			return false // target_sha256_2d12…: a digest its name says is one
		}
		if rest := run[k2+1:]; len(longestPart(rest)) >= 20 {
			p = k2 + 1
		}
	}
	body := longestPart(run[p:])
	if len(body) < 20 || !hasDigitAndLetter(body) || isProviderID(run) || knownSafeShape(run) {
		return false
	}
	if isHex(body) {
		return len(body) >= 32
	}
	h := shannonEntropy(body)
	return h >= 3.5 && (meanRunLength(body) < 3.2 || len(body) >= 40 && h >= 4.3)
}

// longestPart returns the longest part of s between _ and - separators.
func longestPart(s string) string {
	best := ""
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' }) {
		if len(part) > len(best) {
			best = part
		}
	}
	return best
}

// digestNames are the names of hash functions, which a digest's name holds.
var digestNames = map[string]bool{"sha": true, "sha1": true, "sha224": true, "sha256": true, "sha384": true, "sha512": true,
	"md5": true, "blake2b": true, "blake3": true, "digest": true, "hash": true}

// prefixDeny are prefixes of ids, digests and names, not of credentials.
var prefixDeny = map[string]bool{
	"sha": true, "sha1": true, "sha256": true, "sha384": true, "sha512": true, "md5": true, "hash": true,
	"commit": true, "rev": true, "ref": true, "refs": true, "build": true, "run": true, "job": true,
	"chunk": true, "blob": true, "tree": true, "layer": true, "digest": true, "etag": true, "id": true,
	"uid": true, "uuid": true, "guid": true, "trace": true, "span": true, "req": true, "request": true,
	"msg": true, "message": true, "file": true, "img": true, "image": true, "asset": true, "static": true,
	"v": true, "ver": true, "version": true, "tmp": true, "temp": true, "cache": true, "index": true,
	"node": true, "pod": true, "container": true, "org": true, "proj": true, "project": true, "user": true,
	"usr": true, "acct": true, "account": true, "team": true, "ws": true, "workspace": true, "crc": true,
	"checksum": true, "test": true, "tests": true, "fixture": true, "mock": true, "example": true,
	"nonce": true, // a CSP or request nonce is sent in the open
	// Stripe's object ids (a customer, a card, a payment intent or method, a charge, an
	// invoice, a subscription, a price, a product, an event…), which its API returns and logs
	// print; its keys are sk_, rk_, whsec_
	"cus": true, "card": true, "pi": true, "pm": true, "ch": true, "in": true, "sub": true, "price": true, "prod": true,
	"evt": true, "seti": true, "si": true, "txn": true, "po": true, "ii": true, "il": true, "cn": true, "dp": true,
	"plan": true, "ba": true,
	"oac": true, // a Vercel integration's OAuth client id (integration-ids=oac_… in a deploy button's link)
	"prj": true, // a Vercel project's id (VERCEL_PROJECT_ID: prj_…)
	"ipy": true, // a Jupyter widget's model id in a notebook (IPY_MODEL_87a2…)
}

// base62Digits is the alphabet of base62-encoded checksums, in the order GitHub's encoding
// uses (digits, upper case, lower case).
const base62Digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// checksummedToken reports a token whose body carries its own checksum: a prefix of letters,
// _ and a body of base62 characters whose last six are the CRC-32 of the others, base62
// encoded — GitHub's token format (ghp_, gho_, ghu_, ghs_, ghr_), npm's (npm_) and that of
// services following them. A random string passes the check once in 5·10¹⁰, so the body is
// a token whatever its entropy, and no id or name is taken.
func checksummedToken(run string) bool {
	sep := strings.IndexByte(run, '_')
	if sep < 2 || sep > 16 || !allLetters(run[:sep]) {
		return false
	}
	body := run[sep+1:]
	if len(body) < 24 || len(body) > 80 {
		return false
	}
	var sum uint64
	for i := 0; i < len(body); i++ {
		d := strings.IndexByte(base62Digits, body[i])
		if d < 0 {
			return false
		}
		if i >= len(body)-6 {
			sum = sum*62 + uint64(d)
		}
	}
	return sum == uint64(crc32.ChecksumIEEE([]byte(body[:len(body)-6])))
}

// nkeySeedAnchors returns where a NATS NKEY seed may open: S, the key's type (U user, A
// account, O operator, N server, C cluster, X curve, P a private key), A or B (the type
// byte's low bits are zero), then 55 more base32 capitals and digits, 58 in all, none
// before or after. "S" alone opens too many words to run the expression at each.
func nkeySeedAnchors(c string) []int {
	var at []int
	for from := 0; ; {
		i := strings.IndexByte(c[from:], 'S')
		if i < 0 {
			return at
		}
		i += from
		from = i + 1
		if i+58 > len(c) || i > 0 && isWordByte(c[i-1]) || strings.IndexByte("UAONCXP", c[i+1]) < 0 || c[i+2] != 'A' && c[i+2] != 'B' {
			continue
		}
		k := i + 3
		for k < i+58 && (c[k] >= 'A' && c[k] <= 'Z' || c[k] >= '2' && c[k] <= '7') {
			k++
		}
		if k == i+58 && (k == len(c) || !isWordByte(c[k])) {
			at = append(at, i)
			from = k
		}
	}
}

// wordsThenDigest reports two English words or more, then a digest of 32 hex digits or more
// (thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b): a tag made unique by a hash, where a
// vendor's prefix is short or no word (sk_live_, scp-test-).
func wordsThenDigest(run string) bool {
	cut := strings.LastIndexAny(run, "-_")
	if cut < 0 || len(run)-cut-1 < 32 || !isHex(run[cut+1:]) {
		return false
	}
	words := strings.FieldsFunc(run[:cut], func(r rune) bool { return r == '-' || r == '_' })
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if len(w) < 4 || !isLetters(w) || !dictWord(w) {
			return false
		}
	}
	return true
}
