package vibe

import (
	"encoding/base64"
	"regexp"
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
}{
	{"akab-", `akab-[0-9a-z]{16}-[0-9a-z]{16}`, true},
	{"da2-", `da2-[a-z0-9]{26}`, true},
	{"LTAI", `LTAI[0-9A-Za-z]{12,20}`, true},
	{"amzn.mws.", `amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, false},
	{"dnkey-", `dnkey-[A-Z2-7]{26}-[A-Z2-7]{52}`, false},
	{"dt0", `dt0[a-z][0-9]{2}\.[0-9A-Z]{24}\.[0-9A-Z]{64}`, false},
	{"dp.", `dp\.(?:pt|st|sa|ct|scim|audit)\.[0-9A-Za-z]{40,44}`, false},
	{"EAA", `EAA[0-9A-Za-z]{80,}`, false},
	{"EAACEdEose0cBA", `EAACEdEose0cBA[0-9A-Za-z]+`, false},
	{"pk_", `\bpk_(?:test|live)_[0-9A-Za-z]{20,}`, false},
	{"|", `\b[0-9]{12,18}\|[0-9A-Za-z_-]{24,28}`, true},
	{"GOCSPX-", `GOCSPX-[0-9A-Za-z_-]{28}`, false},
	{"1//0", `1//0[0-9A-Za-z_-]{80,}`, false},
	{"HRKU-", `HRKU-(?:[0-9A-Za-z_-]{60}|[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})`, false},
	{"IGQVJ", `IGQVJ[=0-9A-Za-z_-]{100,}`, false},
	{"-us", `\b[0-9a-z]{32}-us[0-9]{1,2}`, true},
	{"key-", `\bkey-[0-9a-z]{32}`, true},
	{"-", `\b[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}`, true},
	{"access_token$production$", `access_token\$production\$[0-9a-z]{16}\$[0-9a-z]{32}`, false},
	{"CLOJARS_", `CLOJARS_[0-9a-f]{60}`, false},
	{"shp", `shp(?:at|ca|pa|ss|tka)_[0-9A-Fa-f]{32}`, false},
	{"xapp-", `xapp-[0-9A-Za-z-]{10,}`, false},
	{"whsec_", `whsec_[0-9A-Za-z+/=]{24,}`, false},
	{"EAAA", `EAAA[0-9A-Za-z_-]{60}`, true},
	{"sq0", `sq0(?:atp|csp|idp)-[0-9A-Za-z_-]{22,43}`, false},
	{"pypi-", `pypi-[0-9A-Za-z_-]{50,}`, false},
	{"ghs_", `ghs_[0-9]{1,20}_eyJ[\w.-]{15,}`, false},
	{"cmVmdGtuO", `cmVmdGtuO[0-9A-Za-z_-]{55}`, false},
	{"AKCp", `AKCp[0-9A-Za-z]{69}`, false},
	{"8Q~", `[0-9A-Za-z_~.-]{3}8Q~[0-9A-Za-z_~.-]{34}`, false},
	{"JQQJ9", `[0-9A-Za-z]{52}JQQJ9[9DH][0-9A-Za-z]{26}(?:[0-9A-Za-z=]{4})?`, false},
	{"ATBB", `ATBB[0-9A-Za-z]{24}[A-F0-9]{8}`, false},
	{"ATCTT3xFfGN0", `ATCTT3xFfGN0[\w\\=-]{80,}`, false},
	{"ATATT3xFfGF0", `ATATT3xFfGF0[\w\\=-]{80,}`, false},
	{"BBDC-", `BBDC-[A-Za-z0-9_-]{44}`, false},
	{"_v1_", `do[opr]_v1_[a-f0-9]{64}`, false},
	{"sl.", `\bsl\.(?:u\.)?[0-9A-Za-z_-]{77,}`, false},
	{"oy2", `\boy2[a-z0-9]{43}`, true},
	{"gl", `\b(?:gl(?:agent|soat|ffct|p[at]t|oas|cbt|imt|rtr|[dfrw]t)-|GR1348941)[0-9A-Za-z_-]{20,64}`, false},
	{"glc_", `glc_eyJ[0-9A-Za-z_-]{80,}`, false},
	{"glsa_", `glsa_[0-9A-Za-z_-]{32}_[0-9A-Fa-f]{8}`, false},
	{"AAAAAAAAAAAAAAAAAAAAA", `AAAAAAAAAAAAAAAAAAAAA[0-9A-Za-z%]{30,}`, false},
	{"pscale_", `pscale_(?:tkn|oauth|pw)_[.0-9A-Za-z_-]{32,64}`, false},
	{"NR", `\bNR(?:AK-[0-9A-Z]{27}|BR-[0-9a-f]{19,20}|II-[0-9A-Za-z_-]{25}|JS-[0-9a-f]{19}|RA-[0-9a-f]{42}|[A-Z]{2}-[0-9A-Za-z_-]{19,64})`, true},
	{"NRAL", `\b[0-9a-z]{5}[0-9a-f]{31}NRAL`, true},
	{"lin_", `lin_(?:api|oauth)_[0-9A-Za-z]{40}`, false},
	{"cf", `\bcf(?:at|ut|k)_[0-9A-Za-z]{40,}`, false},
	{"AGE-SECRET-KEY-1", `AGE-SECRET-KEY-1[0-9A-Z]{58}`, false},
	{"hv", `\bhv[bsr]\.[0-9A-Za-z_-]{24,}`, false},
	{".atlasv1.", `[0-9A-Za-z_-]{14}\.atlasv1\.[0-9A-Za-z_-]{60,}`, false},
	{"sk-", `sk-[0-9A-Za-z_-]{16,}(?:T3BlbkFJ|9wZW5BS|PcGVuQU)[0-9A-Za-z_-]{16,}`, false},
	{"sk-", `\bsk-[0-9a-f]{32,64}`, true},
	{"dckr_", `dckr_(?:pat|oat)_[0-9A-Za-z_-]{27,32}`, false},
	{"SWMTKN-1-", `SWMTKN-1-[0-9a-z]{50}-[0-9a-z]{25}`, false},
	{"SWMKEY-1-", `SWMKEY-1-[0-9A-Za-z+/]{43}`, false},
	{"ntn_", `ntn_[0-9]{9}[0-9A-Za-z_-]{36,}`, false},
	{"pplx-", `pplx-[0-9A-Za-z_-]{40,64}`, false},
	{"tvly-", `tvly-[0-9A-Za-z_-]{32,40}`, false},
	{"figd_", `figd_[0-9A-Za-z_-]{40}`, false},
	{"ops_eyJ", `ops_eyJ[0-9A-Za-z_-]{100,}`, false},
	{"xkeysib-", `xkeysib-[0-9a-f]{64}-[0-9A-Za-z_-]{16}`, false},
	{"xsmtpsib-", `xsmtpsib-[0-9a-f]{64}-[0-9A-Za-z_-]{16}`, false},
	{"tgp_v1_", `tgp_v1_[0-9A-Za-z_-]{43}`, false},
	{"llx-", `llx-[0-9A-Za-z_-]{48}`, false},
	{"sq", `\bsq[apu]_[0-9a-f]{40}`, true},
	{"sntrys_", `sntrys_eyJ[0-9A-Za-z_-]{60,}=*(?:_[0-9A-Za-z_-]{32,})?`, false},
	{"sntryu_", `sntryu_[0-9a-f]{64}`, false},
	{"vcp_", `vcp_[0-9A-Za-z]{40,}`, false},
	{"nfp_", `nfp_[0-9A-Za-z]{36}`, false},
	{"ph", `\bph[acrsx]_[0-9A-Za-z]{40,60}`, true},
	{"rubygems_", `rubygems_[0-9a-f]{48}`, false},
	{"dapi", `\bdapi[0-9a-f]{32}(?:-\d)?`, true},
	{"cosmo_", `cosmo_[0-9a-f]{32}`, false},
	{"sbp_", `sbp_(?:v0_)?[0-9a-f]{40}`, false},
	{"sb_secret_", `sb_secret_[0-9A-Za-z_-]{20,}`, false},
	{"3MVG", `3MVG[0-9A-Za-z_.]{24,}`, false},
	{"!", `\b00D[0-9A-Za-z]{12,15}![0-9A-Za-z_.]{24,}`, false},
	{"00D", `\b00D[0-9A-Za-z]{12,15}\b`, true},
	{"PMA", `PMA(?:K-[0-9a-f]{24}-[0-9a-f]{34}|T-[0-9A-Z]{26})`, false},
	{"TlRMTVNTUAA", `TlRMTVNTUAA[BCD]AAAA[=0-9A-Za-z_/+-]{28,}`, false},
	{":", `\b[0-9]{8,10}:[0-9A-Za-z_-]{35}`, true},
	{"ABSK", `\bABSK[0-9A-Za-z/+]{28,}`, false},
	{"bedrock-api-key-", `bedrock-api-key-[0-9A-Za-z/+=]{28,}`, false},
	{"AIza", `AIza[0-9A-Za-z_-]{35}`, false},
	{"glpat-", `glpat-[0-9A-Za-z_.-]{20,}`, false},
	{"sk_", `\b[rs]k_(?:test|live|prod)_[0-9A-Za-z]{20,}`, false},
	{"SK", `\bSK[0-9a-z]{32}\b`, true},
	{"AC", `\bAC[0-9a-z]{32}\b`, true},
	{"AKC", `(?:^|[\s=:"'])(AKC[a-zA-Z0-9]{10,})`, true},
	{"AP", `(?:^|[\s=:"'])(AP[0-9A-F][a-zA-Z0-9]{8,})`, true},
	{".", `\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}`, true},
	{"eyJ", `\beyJ[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{4,}={0,2}\.[A-Za-z0-9_.+/=-]*`, false},
	{"xox", `xox[a-z]-[0-9A-Za-z-]{10,}`, false},
	{"hooks.slack.com", `hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`, false},
	{"AKIA", `\bA(?:KIA|SIA|GPA|IDA|ROA|IPA|NPA|NVA|PKA)[0-9A-Z]{16}\b`, false},
	{"dop_", `dop_v1_[a-f0-9]{64}`, false},
	{"glptt-", `glptt-[0-9a-f]{40}`, false},
	{"ghp_", `ghp_[0-9A-Za-z]{36}`, false},
	{"AGE-PLUGIN-", `AGE-PLUGIN-[0-9A-Z-]{20,}`, false},
}

// ruleFormat names the matches of formatRules.
const ruleFormat = "token-format"

func formatExtraRules() []extraRule {
	rules := make([]extraRule, 0, len(formatRules))
	for _, f := range formatRules {
		re := regexp.MustCompile(f.re)
		r := extraRule{id: ruleFormat, re: re, literal: f.prefix, endWord: f.endWord}
		if re.NumSubexp() > 0 {
			r.group = 1
		}
		rules = append(rules, r)
	}
	return rules
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
