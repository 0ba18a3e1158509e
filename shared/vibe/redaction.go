package vibe

import (
	"strings"
)

// Redaction classes: what a viewer is told was hidden. The stored event names the rule too
// ([redacted:<class>/<rule>]) so that the slot owner can tell which rule fired and report a
// false positive; Project keeps only the class ([redacted:<class>]).
const (
	ClassPrivateKey   = "private-key"
	ClassWebhook      = "webhook"
	ClassToken        = "token"      // a credential of a known format (API keys, access tokens)
	ClassPassword     = "password"   // a value a key name, flag or config file calls secret
	ClassCredential   = "credential" // authorization headers, cookies, URL query secrets
	ClassHighEntropy  = "high-entropy"
	ClassEmail        = "email"
	ClassPersonalName = "name"
)

// ruleClass maps a rule id to its class.
func ruleClass(rule string) string {
	switch rule {
	case rulePEM, ruleDERKey, ruleJWK, "private-key", "age-secret-key", ruleSeedPhrase:
		return ClassPrivateKey
	case ruleEntropy:
		return ClassHighEntropy
	case ruleWebhook:
		return ClassWebhook
	case ruleKeyword, ruleCLIFlag, ruleConnString, ruleURLCreds, ruleNetrc, ruleRegAuth, ruleXMLSecret,
		ruleK8sSecret, ruleSQLPass, ruleCLILogin, ruleIDPassword, rulePassHash, ruleNameValue, ruleCredentialCall, ruleFormFill, "curl-auth-user",
		ruleGenerated, ruleStored:
		return ClassPassword
	case ruleAuthHeader, ruleCookie, ruleURLQuery, ruleBearer, ruleSecretHeader, rulePathToken, "curl-auth-header":
		return ClassCredential
	}
	if strings.Contains(rule, "webhook") {
		return ClassWebhook
	}
	if strings.Contains(rule, "private-key") {
		return ClassPrivateKey
	}
	return ClassToken
}

// mark is the stored redaction marker of a rule.
func mark(rule string) string {
	c := ruleClass(rule)
	if c == rule {
		return "[redacted:" + c + "]"
	}
	return "[redacted:" + c + "/" + rule + "]"
}

// publicMarks rewrites the stored markers [redacted:<class>/<rule>] of text to the
// [redacted:<class>] viewers see.
func publicMarks(text string) string {
	const open = "[redacted:"
	if !strings.Contains(text, open) {
		return text
	}
	var b strings.Builder
	last := 0
	for from := 0; ; {
		i := strings.Index(text[from:], open)
		if i < 0 {
			break
		}
		i += from
		from = i + len(open)
		end := strings.IndexByte(text[from:], ']')
		if end < 0 || end > 80 {
			continue
		}
		body := text[from : from+end]
		slash := strings.IndexByte(body, '/')
		if slash < 0 {
			continue
		}
		b.WriteString(text[last:from])
		b.WriteString(body[:slash])
		last = from + end
		from = last
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
