package vibe

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSanitizeSplitSecrets: a secret cut into concatenated literals, wrapped quoted lines,
// diff hunks or terminal-wrapped lines is masked in every piece.
func TestSanitizeSplitSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	tok := "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5" // 36 characters after the prefix
	tests := []struct {
		name, in string
		pieces   []string
	}{
		{"concatenation", `const t = "` + tok[:12] + `" + "` + tok[12:] + `";`, []string{tok[:12], tok[12:]}},
		{"python implicit", "key = ('" + tok[:20] + "'\n       '" + tok[20:] + "')", []string{tok[:20], tok[20:]}},
		{"php dot", `$t = '` + tok[:10] + `' . '` + tok[10:] + `';`, []string{tok[:10], tok[10:]}},
		{"wrapped terminal", "token:\n" + tok[:20] + "\n" + tok[20:] + "\n", []string{tok[:20], tok[20:]}},
		{"diff hunk", "@@ -1,2 +1,2 @@\n+" + tok[:21] + "\n+" + tok[21:] + "\n", []string{tok[:21], tok[21:]}},
		{"a password concatenated", "api_key = \"Zx8cV7bN6mQ5\" +\n  \"wE4rT3yU9oPa\"", []string{"Zx8cV7bN6mQ5", "wE4rT3yU9oPa"}},
		{"a value wrapped after its name", "DB_PASSWORD=Zx8cV7bN6m\nQ5wE4rT3yU\n", []string{"Zx8cV7bN6m", "Q5wE4rT3yU"}},
		{"wrapped in a JSON string", `{"out": "token: ` + tok[:25] + `\n` + tok[25:] + `"}`, []string{tok[:25], tok[25:]}},
		{"continued in a quoted string", "  password: \"Zx8cV7bN6m\\\n    Q5wE4rT3yU\"", []string{"Zx8cV7bN6m", "Q5wE4rT3yU"}},
		{"literals on the lines after the name", "password = (\n    \"Zx8cV7bN6m\"\n    \"Q5wE4rT3yU\"\n)", []string{"Zx8cV7bN6m", "Q5wE4rT3yU"}},
		{"a base32 secret listed a piece a line", "TOTP_SECRET = [\n    'Q7ZK3R8DPWN2X4HV',\n    'BQY5MGCS7L1A9T6E',\n]", []string{"Q7ZK3R8DPWN2X4HV", "BQY5MGCS7L1A9T6E"}},
		{"a key wrapped a piece a line with commas", "private_key = (\n    Zx8cV7bN6mQ5wE4rT3yU9oPa,\n    Q7mB2pzR4vL8wT3yH6jPq1Zr,\n)", []string{"Zx8cV7bN6mQ5wE4rT3yU9oPa", "Q7mB2pzR4vL8wT3yH6jPq1Zr"}},
		{"a password listed a piece a line", "password = [\n    'Zx8cV7bN6m',\n    'Q5wE4rT3yU',\n]", []string{"Zx8cV7bN6m", "Q5wE4rT3yU"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
			for _, p := range tt.pieces {
				require.NotContains(t, out, p, "piece left in %q", out)
			}
		})
	}
	// An argument list of two literals is not one secret; nor are ids one per line.
	args := `call("` + strings.Repeat("ab", 5) + `", "` + strings.Repeat("cd", 5) + `")`
	require.Equal(t, args, san.NewSession(SessionHints{}).SanitizeText(args))
	ids := "msg_01XFDUDYJgAACzvnptvVoYEL\nmsg_01QmJrGBvCXHwXj3GJb5y7sz\n"
	require.Equal(t, ids, san.NewSession(SessionHints{}).SanitizeText(ids))
	// A command's last word is not the head of what it printed: the secret is masked, the
	// command kept.
	for _, cmd := range []string{
		"$ aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text --region eu-west-1",
		"$ vault kv get -field=password secret/app",
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(cmd + "\nXk9mQ2vLp7wRTz4nB8cY\n")
		require.True(t, strings.HasPrefix(out, cmd+"\n[redacted:"), "%q", out)
	}
}

// TestSanitizeKnownSafeShapes: ids, model names and inline images pass; entropy alone never
// redacts them.
func TestSanitizeKnownSafeShapes(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	img := "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	for _, in := range []string{
		"requestId req_011CPkWs2r3FUvK9xSgZaTkq and msg_01XFDUDYJgAACzvnptvVoYEL",
		"toolu_01A09q90qw90lq917835lq9 chatcmpl-9wZ3nFqjLxkPmVbT7yHr2aQ1sD4eF resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
		"model HuggingFaceTB/SmolLM3-3B, claude-3-5-sonnet-20241022, meta-llama/Llama-3.1-8B-Instruct, gpt-4o-2024-08-06",
		// Identifiers and formats taken for secrets before.
		"self.token_summary = summarize(tokens)", "see lib/phoenix/token.ex:48", "date -u +%Y-%m-%dT%H:%M:%SZ",
		// Names imported or arguments passed one a line: no key wrapped over lines.
		"from app.backends.sodium import (\n    _Curve448PrivateKey,\n    _Curve448PublicKey,\n)\n",
		"        dsa._check_private_key_values(\n            values.p,\n            values.q,\n            values.g,\n            values.x,\n        )\n",
		// A language's keywords one a line: names, never the pieces of one value.
		"KEYWORDS = [\n    'KEEP-ALIVE',\n    'KEEP-FOCUS',\n    'KEY',\n    'KEY-CODE',\n    'KEY-FUNC',\n    'KEY-FUNCTION',\n    'KEY-LABEL',\n    'KEYCODE',\n    'KEYFUNC',\n    'KEYFUNCTION',\n    'KEYLABEL',\n    'KEYS',\n    'LABEL',\n    'LABEL-BGCOLOR',\n    'LABEL-DCOLOR',\n    'LABEL-FGCOLOR',\n]\n",
		"password: ${DB_PASSWORD}", "api_key: <your-key>", "token: xxx", "SECRET=changeme",
		`<img src="` + img + `">`,
		"background: url(" + img + ")",
		// A font inline, with a parameter before base64: no run of its bytes is a token.
		`src: url("data:font/woff2;charset=utf-8;base64,d09GMgABAAAAAAKoAA0AAAAABlQAAAJRAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP0ZGVE0cGh4GYACCUhEICkSCUgsGAAE2AiQDCAQgBYNdBzcbrgXIjpQ")`,
		// YAML tags refer to a secret kept elsewhere; values that say what they stand in for.
		"api_key: !ENV ${API_KEY}\npassword: !Ref DbPassword\ntoken: !GetAtt Db.Token",
		"apiKey: 'test-api-key'\nsecret: 'my-secret'\npassword: fake_password",
		// References to where a secret is kept, masked displays, elided tokens, schemes alone.
		"password: vault:secret/data/app#password\ntoken: op://Private/db/password\nkey: ENC[AES256_GCM,data:Tr7o=,iv:1=,tag:k=,type:str]",
		"DB_PASSWORD=arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbCdEf\nAPI_KEY=projects/123/secrets/api/versions/latest",
		"password: ••••••\ntoken: test123\nid: 00000000-0000-0000-0000-000000000000",
		"Authorization: Bearer sk-ant-api03-...\nAuthorization: Bearer eyJhbGciOi...\nAuthorization: Bearer [hidden]",
		"Authorization: Bearer {{ .Values.token }}\nAuthorization: Bearer ${{ secrets.TOKEN }}\nAuthorization: Bearer TODO",
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}

// TestSanitizeMetadataIDs: request and response ids are random by design; only a real
// token format is masked in them, never entropy alone.
func TestSanitizeMetadataIDs(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ev := san.NewSession(SessionHints{}).SanitizeEvent(Event{EventID: "e", EventType: TypeResponse,
		Metadata: &EventMetadata{RequestID: "Xk9Qm2Lp7Rt4Vw8Zb3Nc6Hd1", ResponseID: "ghp_" + strings.Repeat("x1Y2", 9), Model: "HuggingFaceTB/SmolLM3-3B"}})
	require.Equal(t, "Xk9Qm2Lp7Rt4Vw8Zb3Nc6Hd1", ev.Metadata.RequestID)
	require.Equal(t, "[redacted:token/vendor-token]", ev.Metadata.ResponseID)
	require.Equal(t, "HuggingFaceTB/SmolLM3-3B", ev.Metadata.Model)
}

// TestSanitizeManySeenSecrets: secrets remembered before and after the seen-set trie was
// last built are both found again, in any encoded form.
func TestSanitizeManySeenSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{})
	var secrets []string
	for i := range 40 {
		sec := fmt.Sprintf("Zq%02dXv2Lm7Pw4Rt8Ks3Nd", i)
		secrets = append(secrets, sec)
		require.NotContains(t, ss.SanitizeText("DB_PASSWORD="+sec), sec)
	}
	for _, i := range []int{0, 17, 39} {
		b64 := base64.StdEncoding.EncodeToString([]byte("user:" + secrets[i]))
		out := ss.SanitizeText("Authorization header was " + b64 + " and " + hex.EncodeToString([]byte(secrets[i])))
		require.NotContains(t, out, b64)
		require.NotContains(t, out, hex.EncodeToString([]byte(secrets[i])))
	}
}
