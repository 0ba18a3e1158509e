package vibe

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEchoedName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"const PENDING_REDIRECT_KEY = 'pendingRedirect';",
			"    CREDENTIAL_ALREADY_IN_USE: 'auth/credential-already-in-use',",
			"export const METRIC_GEN_AI_SERVER_TIME_TO_FIRST_TOKEN = 'gen_ai.server.time_to_first_token';",
			"const API_TOKEN_HEADER = 'x-api-token';",
			`static SESSION_TOKEN_NAME = "session-token";`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`const API_KEY = "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u";`, "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"},
			{`const DB_PASSWORD = 'hunter2xyz';`, "hunter2xyz"},
			{`const SECRET_TOKEN = 'correcthorsebatterystaple';`, "correcthorsebatterystaple"},
			{`  password: 'hunter2xyz',`, "hunter2xyz"},
			{`  Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',`, "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		})
	})
	t.Run("shape", func(t *testing.T) {
		require.False(t, echoedName("PENDING_REDIRECT_KEY", "'pendingRedirect'"), "a plain echo of a key's name is left to lookupKeyName")
		require.True(t, echoedName("CREDENTIAL_ALREADY_IN_USE", "'auth/credential-already-in-use'"))
		require.False(t, echoedName("API_KEY", "'api-key-2024'"), "a digit leaves the value to the other rules")
		require.False(t, echoedName("SLACK_API_TOKEN", "'slack-api-token'"), "a plain echo of a credential's own name may be its value")
		require.True(t, echoedName("METRIC_TIME_TO_FIRST_TOKEN", "'gen_ai.server.time_to_first_token'"), "a namespaced code")
		require.False(t, echoedName("DB_PASSWORD", "'db_password'"), "a password named after itself is still the password")
		require.False(t, echoedName("MYSQL_ROOT_PASSWORD", "mysql-root-password"), "a password named after itself is still the password")
		require.False(t, echoedName("apiTokenKey", "'api-token'"), "only upper-case constants")
		require.False(t, echoedName("AUTH_TOKEN", "'token-for-prod-mainframe-access'"), "more words of its own than shared")
	})
}

func TestLookupKeyName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"const PERSISTENCE_KEY = 'persistence';",
		"const REFERENCES_KEY = '_references';",
		`export const SORT_ORDER_KEY = "sortOrder";`,
	)
	requireMasked(t, san, []maskedRow{
		{`const STRIPE_KEY = "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u";`, "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"},
		// (an English word under an API key's name is no key since 6327d25; a secret's stays masked)
		{`const API_SECRET = 'persistence';`, "persistence"},
		{`const ADMIN_KEY = 'dragonfly';`, "dragonfly"},
		{`const PERSISTENCE_KEY = 'xq7ZkP2mWv9sT4rL';`, "xq7ZkP2mWv9sT4rL"},
		{`const REFERENCES_KEY = 'zqxvkwpjyfhgtrmn';`, "zqxvkwpjyfhgtrmn"},
	})
}

func TestBase64Prose(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	src := base64.StdEncoding.EncodeToString([]byte("function compile(program, options) {\n  var environment = new Compiler();\n  return environment.compile(program, options);\n}\n"))
	requireKept(t, san,
		"//# sourceMappingURL=data:application/json;base64,"+src,
		src[5:], // a line of it cut anywhere
	)
	key := base64.StdEncoding.EncodeToString([]byte("\x8f\x13\xa7\x01\xfe\x9c\x42\x77\x0b\xd3\x61\xe5\x2a\x9f\x30\xc8\x55\x1e\xb4\x7d\x06\xea\x93\x28\x4f\xc1\x6b\xd0\x3e\x87\x19\xf2\xa5\x5c\x0d\xb8\x74\x2e\x91\xcf\x43\x0a\xe7\x68\x1b\xd6\x39\x84"))
	requireMasked(t, san, []maskedRow{
		{"const secret = '" + key + "';", key[8:40]},
		{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("deploy-bot:Xk9#mQ2vLp7wRt4zNc8s")), base64.StdEncoding.EncodeToString([]byte("deploy-bot:Xk9#mQ2vLp7wRt4zNc8s"))[:16]},
		{"  password: 'hunter2xyz',", "hunter2xyz"},
	})
	require.False(t, base64Prose(base64.StdEncoding.EncodeToString([]byte("user:correct-horse-battery-staple-and-more-words-here-xyz"))), "one unbroken word")
}

func TestLexerTokenWord(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		`                token: "comment",`,
		`    this.$rules = { start: [{ token: 'keyword.control.assembly', regex: "(?:mov|add)" }] };`,
		`            token : ["entity.name.function", "text", "keyword.operator", "text", "storage.type"],`,
		`{token:"paren.lparen",regex:"[[({]"},{token:"text.tag-whitespace.xml",regex:"[ ]+"}`,
		`      [/\[/, { token: "@brackets", next: "@nestedCall" }],`,
		`  "@keywords": { token: "keyword.$0" },`,
		`      if (token === "option") {`,
		`      if (token === 'halfAMinute') {`,
		`          return token("num", valid);`,
		`    defaultToken: "invalid",`,
		`    tokenPostfix: ".js",`,
		"        \"#swizzling\": [{\n                token: [\n                    \"punctuation.accessor.gdshader\",\n                    \"text\",\n                    \"variable.other.property.gdshader\"\n                ],\n                regex: /([.])(\\s*)/\n            }],",
		`                token: "keyword.language.gdscript storage.type.function.gdscript",`,
		`        if (token.value == "=end") {`,
		`if (nexttoken.value === 'use strict') {`,
		`"vpopmail_del_user|vpopmail_error|vpopmail_passwd|vpopmail_set_user_quota|wddx_add_vars"`,
		`"Security__OpenProcessToken|Security__OpenThreadToken|Security__OpenVault"`,
	)
	requireMasked(t, san, []maskedRow{
		{`if (token === 'ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i') {`, "ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i"},
		{`if (token === 'xK9mQ2vLp7wRt4zNc8sB') {`, "xK9mQ2vLp7wRt4zNc8sB"},
		{`    token: "xK9mQ2vLp7wRt4zNc8sB",`, "xK9mQ2vLp7wRt4zNc8sB"},
		{`    token: "correcthorsebatterystaple",`, "correcthorsebatterystaple"},
		{`const clientSecret = "comment";`, "comment"},
		{`TOKEN=keyword.control`, "keyword.control"},
		{`  token: 'abcdefghijklmnopqrstuvtt',`, "abcdefghijklmnopqrstuvtt"},
		{"    token: [\n        \"ghp_R2d4X9kLmQ7vN3pT8sW1\",\n        \"yZ5bC6fH0jA4eG2i\"\n    ],", "yZ5bC6fH0jA4eG2i"},
		{`    token: "correct horse battery staple",`, "correct horse battery staple"},
		{`if (token.value === 'ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i') {`, "ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i"},
		{`if (this.token.value === "xK9mQ2vLp7wRt4zNc8sB") {`, "xK9mQ2vLp7wRt4zNc8sB"},
		{"| password | hunter2xyz |", "hunter2xyz"},
		{"|password|hunter2_prod|", "hunter2_prod"},
		{"|db_password|s3cr3t_Pass_word|", "s3cr3t_Pass_word"},
	})
	require.False(t, lexerTokenWord("apiToken", "'keyword'"), "a name for an issued token")
	require.False(t, lexerTokenWord("token", "'comment1x9'"), "a digit outside a scope")
}

func TestMinifiedCode(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"exports.Token = void 0;",
		"exports.AzureKeyCredential = void 0;",
		"opd:!1,pushd:!1,pwd:!1,x:1",
		"e.space_before_token=!0,",
		"var tokenValue=formatDistanceLocale$11[token];",
		"report(0);let{tokenStart:l}=t;",
		`this.tokenEnd=this.firstCharOffset}setSource(t=""){`,
		"ken.cancel():this._token=Dt.Cancelled}dispose(e=!1){e",
		"arkerTag:En,Uri:le,Token:Ja}}var x",
		"          clientSecret: this.#clientSecret,",
		"          client_secret: this.#options.clientSecret,",
		"    const apiKeys = beta_1.BETA_CLIENT_TOOL_UNION_KEYS;",
		"    const hasCredentials = !!this.#options.clientSecret || !!this.#options.clientAssertion;",
		"h_token&&this.onlineAccess&&(t.refresh_token=null!==(s=e.refresh_token)&&void 0!==s?s:null",
		`asOwnProperty("streamToken")&&(o.streamToken=t.bytes===String?i.base64.encode(e.streamToken):e.streamToken)`,
		"n=e.sent.accessToken,t.accessToken=null==n?void 0:n.accessToken",
		"_outToken=Module._outToken=(e,t)=>(_outToken=Module._outToken=wasmExports._outToken)(e,t)",
		`Rt(e,"/api/v1/sessions/me",{withCredentials:!0}).then((function(t){var`,
		`_hint:o?"refresh_token":"access_token",token:o||r}).slice(1)`,
		"    this._apiKeyFunction = typeof options.apiKey === 'function' ? options.apiKey : null;",
		"      if (typeof self.credentials.get === 'function') {",
	)
	requireMasked(t, san, []maskedRow{
		{"creds: {password: hunter2xyz}", "hunter2xyz"},
		{"{token: xK9mQ2vLp7wRt4zNc8sB}", "xK9mQ2vLp7wRt4zNc8sB"},
		{"export TOKEN=void", "void"},
		{"API_TOKEN=Xk9mQ2vLp7wRt4zNc8s$1", "Xk9mQ2vLp7wRt4zNc8s"},
		{`password = "!1"`, "!1"},
		{"API_KEY=key_1.Xk9mQ2vLp7wRt4zNc8sB", "Xk9mQ2vLp7wRt4zNc8sB"},
		{"client_secret: #xK9mQ2vLp7wRt4zNc8sB", "xK9mQ2vLp7wRt4zNc8sB"},
		{"TOKEN=abc123XyZ9kLmQ7vN3pT==", "abc123XyZ9kLmQ7vN3pT"},
		{"password=hunter2xyz==", "hunter2xyz"},
		{"if (password === 'function') {", "function"},
		{"creds: {password: hunter2.xyz)", "hunter2.xyz"},
	})
}

func TestBase64NoSecret(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	// A WebAssembly module's code: opcodes and operands, a zero byte in every seven.
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	for i, x := 0, uint32(7); i < 120; i++ {
		x = x*1103515245 + 12345
		if i%7 == 0 {
			wasm = append(wasm, 0)
		} else {
			wasm = append(wasm, byte(x>>16))
		}
	}
	wasmB64 := base64.StdEncoding.EncodeToString(wasm)
	// A module's data section, its strings each ended by a zero byte, and a source map's
	// mappings: long lines of base64 the chunking cuts anywhere.
	words := strings.Fields("table column index view trigger module socket buffer space available cannot add remove never used stored virtual constructor called recursively such page cursor schema database journal")
	const vlq = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var data, mappings []byte
	for i, x := 0, uint32(7); i < 150; i++ {
		x = x*1103515245 + 12345
		data = fmt.Appendf(data, "%s%s%d\x00%s\x00", words[x>>16%uint32(len(words))], strings.ToUpper(words[x>>8%uint32(len(words))][:1]), x>>4%1000, words[x>>20%uint32(len(words))])
		g := []byte{vlq[x%64], vlq[x>>3%64], vlq[x>>6%64], vlq[x>>9%64], vlq[x>>12%64], vlq[x>>15%64]}
		if i%3 == 0 {
			mappings = fmt.Appendf(mappings, ";;%sA,", g[:5])
		} else {
			mappings = fmt.Appendf(mappings, "%s,%sC;", g[:4], g[2:])
		}
	}
	strs, maps := base64.StdEncoding.EncodeToString(data), base64.StdEncoding.EncodeToString(mappings)
	var minified []byte
	for i, x := 0, uint32(11); i < 80; i++ {
		x = x*1103515245 + 12345
		a, b := string(rune('a'+x>>8%26)), string(rune('A'+x>>13%26))
		minified = fmt.Appendf(minified, "function %s%s(e,t){return e&&!(t.length>%d&&void 0!==t[%d])?%s.assign({},e,{%s:t}):JSON.parse(e.body)};", a, b, x>>4%9, x>>6%7, b, words[x>>16%uint32(len(words))])
	}
	requireKept(t, san,
		"\tconst md4 = new WebAssembly.Module(Buffer.from(\""+wasmB64+"\", \"base64\"));",
		wasmB64[6:], // a line of it cut anywhere
		strs[2:2002],
		maps[:2000],
		"IHRyYW5zZm9ybWF0aW9ucw== 8007 IGFjY29tcGxpc2htZW50cw== 8008 YXBwcm94aW1hdGVseQ== 8009",
		// A bundled module's minified source, inlined in a source map.
		base64.StdEncoding.EncodeToString(minified)[1:],
	)
	key := base64.StdEncoding.EncodeToString([]byte("\x8f\x13\xa7\x01\xfe\x9c\x42\x77\x0b\xd3\x61\xe5\x2a\x9f\x30\xc8\x55\x1e\xb4\x7d\x06\xea\x93\x28\x4f\xc1\x6b\xd0\x3e\x87\x19\xf2\xa5\x5c\x0d\xb8\x74\x2e\x91\xcf\x43\x0a\xe7\x68\x1b\xd6\x39\x84"))
	// A key's DER, whose SEQUENCE header holds zero bytes, written on one line.
	der := base64.StdEncoding.EncodeToString(append([]byte("\x30\x82\x01\x3b\x02\x01\x00\x02\x41\x00"), []byte("\xc4\x8e\x1f\x9a\x55\x3d\x72\xe0\xb6\x19\x4c\xa3\x8d\x67\xf2\x05\x9e\x31\xd8\x7a\x4b\xe6\x13\xc9\x70\x2f\xa8\x5e\x94\x0b\xd7\x66\x3a\xf1\x88\x27\xbc\x54\x0e\x9d\x61\xc3\x3f\xa6\x12\x7e\xe9\x45")...))
	requireMasked(t, san, []maskedRow{
		{"const secret = '" + key + "';", key[8:40]},
		{"PRIVATE_KEY=" + der, der[16:48]},
		// Token formats with zero bytes in one place: a Dropbox long-lived token, a Twitter
		// app-only bearer token.
		{"var g = '9xCzmTq4b2dAAAAAAAAAAd83M4U7sRL62nC6b17jkoxSH02efUywTreAOBmyr9qA'", "9xCzmTq4b2dAAAAAAAAAAd83M4U7sRL62nC6b17jkoxSH02efUywTreAOBmyr9qA"},
		{"BEARER=AAAAAAAAAAAAAAAAAAAAAPq7kQEAAAAAxR4mZ2vN8yTb3LcQwJ5fHsU1dKo9Ge6WnVa2Ti0", "xR4mZ2vN8yTb3LcQwJ5fHsU1dKo9Ge6WnVa2Ti0"},
		// Credentials files encoded whole: their text is searched once decoded.
		{base64.StdEncoding.EncodeToString([]byte(`{"installed":{"client_id":"1234567890-abc.apps.googleusercontent.com","client_secret":"GOCSPX-Xk9mQ2vLp7wRt4zNc8sBqW3e","redirect_uris":["http://localhost"]}}`)), "eyJpbnN0YWxsZWQiOnsiY2xpZW50X2lkIjoiMTIzNDU2Nzg5MC1hYmMuYXBwcy5nb29nbGV1c2VyY29udGVudC5jb20iLCJjbGllbnRfc2VjcmV0IjoiR09DU1BY"},
		{base64.StdEncoding.EncodeToString([]byte(`{"type":"service_account","token":"xK9mQ2vLp7wRt4zNc8sBqW3eRt5y","id":[1,2]}`)), "eyJ0eXBlIjoic2VydmljZV9hY2NvdW50IiwidG9rZW4iOiJ4SzltUTJ2THA3d1J0NHpOYzhzQnFXM2VSdDV5"},
		{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("apikey:sk_live_51HfQx2eZvKYlo2C8aZq7rT3u")), base64.StdEncoding.EncodeToString([]byte("apikey:sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"))[:16]},
	})
	require.False(t, base64Word(base64.StdEncoding.EncodeToString([]byte("QxZkvWmPtRbYnLsHqW"))), "letters that are no word")
	require.False(t, base64Word(base64.StdEncoding.EncodeToString([]byte("user:password"))), "a colon")
	require.True(t, base64Word("IHRyYW5zZm9ybWF0aW9ucw=="))
	require.False(t, base64Binary(key), "a key is random bytes")
	require.True(t, base64Binary(wasmB64[1:]))
	require.False(t, base64Binary(der), "DER is left to the other rules")
}

func TestErrorCodes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"    CREDENTIAL_MISMATCH: 'auth/custom-token-mismatch',",
		"    WEAK_PASSWORD: 'auth/weak-password',",
		"    INVALID_API_KEY: 'auth/invalid-api-key',",
		`throw new A("missing_access_token","No access token available");`,
		`class K extends A{constructor(e,t){super("missing_refresh_token","Missing Refresh Token (audience: '".concat(e))}}`,
	)
	requireMasked(t, san, []maskedRow{
		{"const INVALID_TOKEN = 'auth/xK9mQ2vL-p7wRt4zNc8sB';", "xK9mQ2vL-p7wRt4zNc8sB"},
		{"const API_KEY = 'sk_live_51HfQx2eZvKYlo2C8aZq7rT3u';", "sk_live_51HfQx2eZvKYlo2C8aZq7rT3u"},
		{`password = "Correct Horse Battery Staple"`, "Correct Horse Battery Staple"},
		{`config.set("missing_password", "Correct Horse Battery Staple");`, "Correct Horse Battery Staple"},
		{`config.set("password", "Correct Horse Battery Staple");`, "Correct Horse Battery Staple"},
	})
}

func TestGeneratedNoSecret(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"            if ((0, backoff_1.isFatal4xx)(err)) {",
		"        const input = (0, flexbuffers_util_js_1.toUTF8Array)(key);",
		"var chunk_M5T7GI2R_exports = {};",
		"  link: () => import_chunk_M5T7GI2R.link,",
		"module.exports={QueryCompiler,__wbg_Error_e83987f665cf5504:()=>q,__wbg_Number_bb48ca12f395cd08:()=>C};",
		"exports.ulid = /^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/;",
		"   {-161614248, 0x7cf5_1edd_8a15_f1c9L, 0x656d_ab34_98f8_e697L, 0x12da_a2a8_0e53_c2b7L},",
		"     *     environment_id: 'env_011CZkZ9X2dpNyB7HsEFoRfW',",
		"     *     { user_id: 'user_01WxYzAbCdEfGhJkMnPqRsTu' },",
	)
	requireMasked(t, san, []maskedRow{
		{"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp"},
		{"var chunk_key = 'ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i';", "ghp_R2d4X9kLmQ7vN3pT8sW1yZ5bC6fH0jA4eG2i"},
		{"  session: '__wbg_Xk9mQ2vLp7wRt4zNc8sBqW3e',", "Xk9mQ2vLp7wRt4zNc8sBqW3e"},
		{"const secret = 'Xk9mQ2vLp7wRt4zNc8sB-qW3eRt5y';", "Xk9mQ2vLp7wRt4zNc8sB-qW3eRt5y"},
		{"ANTHROPIC_API_KEY=sk-ant-api03-Xk9mQ2vLp7wRt4zNc8sBqW3eRt5yUi8oP0aS1dF2gH3jK4lZ5xC6vB7nM8qW9eR0tY1uI2oP3aS4dF5gH6jK7lZ8xC9vB0nM-AbCdEfAA", "Xk9mQ2vLp7wRt4zNc8sBqW3eRt5y"},
		{"api_key: 'live_01Xk9mQ2vLp7wRt4zNc8sBqW3e'", "Xk9mQ2vLp7wRt4zNc8sBqW3e"}, // an id's shape under a key's name
		{"const token = 'tok_01Xk9mQ2vLp7wRt4zNc8sBqW3e';", "Xk9mQ2vLp7wRt4zNc8sBqW3e"},
	})
	require.False(t, charRanges("Xk9mQ2vLp7wRt4zNc8sB-qW3e"))
	require.False(t, bundleChunkName("chunk_xk9mq2vl_exports"))
	require.False(t, compiledMember("key_1"), "no member")
}

func TestCodeMessage(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		`onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");`,
		`$.items.push(r(L,"DUPLICATE_KEY","Map keys must be unique"))`,
		`p.type==="block-seq"?r(l,"BLOCK_AS_IMPLICIT_KEY","A block sequence may not be used as an implicit map key"):0`,
		`a={"missing-recaptcha-token":"The reCAPTCHA token is missing when sending request to the backend.","invalid-custom-token":"The custom token format is incorrect. Please check the documentation."}`,
	)
	requireMasked(t, san, []maskedRow{
		{`  "secret_key": "This is my very own secret key phrase",`, "This is my very own secret key phrase"},
		{`  "SECRET_KEY": "Correct horse battery staple and more",`, "Correct horse battery staple and more"},
		{`set("ADMIN_TOKEN", "Correct horse battery staple and more");`, "Correct horse battery staple and more"},
		{`set("db_password", "Correct horse battery staple and more");`, "Correct horse battery staple and more"},
		{`a={"DUPLICATE_KEY":"xK9mQ2vLp7wRt4zNc8sB"}`, "xK9mQ2vLp7wRt4zNc8sB"},
	})
}

func TestDatedName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"     * `anthropic-beta: ce-plugins-2026-09-01`. A request without",
		`          { 'anthropic-beta': [...(betas ?? []), 'webhooks-2026-10-07'].toString() },`,
		`{ "anthropic-beta": "mcp-tunnels-2026-06-22" }`,
		`anthropic_model: "claude-3-5-sonnet-20241022"`,
	)
	require.False(t, datedName("xk9mqvlpwrtzncsb-2026-13-01"))
	require.False(t, datedName("2026-09-01"))
	requireMasked(t, san, []maskedRow{
		{`{ "anthropic-beta": "q7zk3m9x2vw4-2026-09-01" }`, "q7zk3m9x2vw4"},
		{`{ "anthropic": "Xk9mQ2vLp7wRt4zNc8sB-2026-09-01" }`, "Xk9mQ2vLp7wRt4zNc8sB"},
		{`{ "anthropic": "xk9mq2vlp7wrt4zncb8s1e5t" }`, "xk9mq2vlp7wrt4zncb8s1e5t"},
		{`ANTHROPIC_API_KEY: "sk-ant-api03-Xk9mQ2vLp7wRt4zNc8sB1e5tY3uQ0aPd"`, "Xk9mQ2vLp7wRt4zNc8sB1e5tY3uQ0aPd"},
	})
}

func TestComparedQueryName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		`for(let key in o)if("string"==typeof key&&"string"==typeof profile&&key===profile){existingKey=key;break}`,
		`children:[f(P,{isActive:isActive&&stateKey===activeStateKey})]`,
		`return!unmountedRef.current&&key===keyRef.current&&initialMountedRef.current`,
	)
	requireMasked(t, san, []maskedRow{
		{`fetch("https://api.example.com/v1/items?limit=10&api_key=Xk9mQ2vLp7wRt4zNc8sB1e5t")`, "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
		{`https://hooks.example.com/in?key=Xk9mQ2vLp7wRt4zNc8sB1e5t==&x=1`, "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
		{`u="https://example.com/cb?x=1&token=Xk9mQ2vLp7wRt4zNc8sB1e5t"`, "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
	})
}

func TestCodeCookiePair(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		`n=(o=e.headers,function(){let{cookie:e}=o;if(!e)return{};let{parse:t}=a("./dist/compiled/cookie");return t(Array.isArray(e)?e.join("; "):e)})`,
		`function q(e){return function(){let{cookie:t}=e;if(!t)return{};let{parse:r}=a("./dist/compiled/cookie");return r(t)}}`,
		"\t\tswitch (source) {\n\t\tcase \"cookie\": parsed = readCookies(ctx.req);\n\t\t\tbreak;",
	)
	requireMasked(t, san, []maskedRow{
		{`Cookie: session=Xk9mQ2vLp7wRt4zNc8sB1e5t; theme=dark`, "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
		{`headers: {cookie: "sid=Xk9mQ2vLp7wRt4zNc8sB1e5t; lang=en"}`, "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
		{`let{cookie:e}=o; Cookie: _session_id=Xk9mQ2vLp7wRt4zNc8sB1e5t`, "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
		{"\t\tcase \"cookie\": 'sid=Xk9mQ2vLp7wRt4zNc8sB1e5t; lang=en'", "Xk9mQ2vLp7wRt4zNc8sB1e5t"},
	})
}

func TestFieldCopy(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"const parsedURL=new URL(url),username=parsedURL.username,password=parsedURL.password,auth=username?password?`${username}:${password}`:username:\"\";",
		`get password(){return this[u].url.password}set password(e){this[u].url.password=e}get username(){return this[u].url.username}`,
		`            refreshParams.client_secret = clientSecret;`,
	)
	requireMasked(t, san, []maskedRow{
		{`spring.datasource.password=s3cr3tP4ss`, "s3cr3tP4ss"},
		{`Server=db;User Id=sa;Password=Xk9mQ2vLp7wRt4z;`, "Xk9mQ2vLp7wRt4z"},
		{`PASSWORD=a}bcd1234`, "bcd1234"},
		{`db.password=e}Xk9mQ2`, "Xk9mQ2"},
		{`client_secret=Xk9mQ2vLp7wRt4zNc8sB`, "Xk9mQ2vLp7wRt4zNc8sB"},
	})
}

func TestAlphabetRun(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`  const keyChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";`,
			`var TOKEN_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`  const keyChars = "Vq7XbN2pLr9TzW4kYc8MhJ3sDf6G";`, "Vq7XbN2pLr9TzW4kYc8MhJ3sDf6G"},
			{`var TOKEN_SECRET = 'abcdefgh7Rq2ZkW9pXn4LtV8mYc3';`, "abcdefgh7Rq2ZkW9pXn4LtV8mYc3"},
		})
	})
	require.True(t, alphabetRun(`"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"`))
	require.False(t, alphabetRun(`"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abc"`), "a run typed past its end is a placeholder")
	require.False(t, alphabetRun(`"abcdefgh7Rq2ZkW9pXn4LtV8mYc3"`), "a secret that opens on a run is mostly random")
}

func TestObjectLiteralEdge(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"    request.meta = {\n      sessionToken: currentSession\n    };",
			"  /** the schema of a resume cursor */\n  resumeToken: ResumeTokenSchema\n});",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"    request.meta = {\n      sessionToken: 'Rk4vQ9tLmZ2xWp7s'\n    };", "Rk4vQ9tLmZ2xWp7s"},
			{"database:\n  host: db.internal\n  password: Rk4vQ9tLmZ2xWp7s\n", "Rk4vQ9tLmZ2xWp7s"},
		})
	})
}

func TestPrivateFieldValue(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"    const sessionToken = this.#sessions[0]",
			"  const secret = this.#vault.lookup(entryName);",
			"    const cacheKey = this.#entries[1][this.slot]?.[0][id];",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`    this.#sessionToken = "Rk4vQ9tLmZ2xWp7s";`, "Rk4vQ9tLmZ2xWp7s"},
			{`    const sessionToken = this.#sessions[0] || 'Rk4vQ9tLmZ2xWp7s'`, "Rk4vQ9tLmZ2xWp7s"},
		})
	})
}

func TestJSBinaryTypes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`    throw new TypeError(badKeyType(key, "CryptoKey", "KeyObject", "Float64Array"));`,
			`    throw new TypeError(badKeyType(input, "SigningKey", "KeyObject", "Int32Array"));`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`    const signingKey = "Uint8ArrayQx7vRk4tLmZ2";`, "Uint8ArrayQx7vRk4tLmZ2"},
			{`    throw new TypeError(badKeyType(key, "CryptoKey", "KeyObject", "Qx7vRk4tLmZ2wPn8"));`, "Qx7vRk4tLmZ2wPn8"},
		})
	})
}

func TestAuthorizationExport(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"exports.revokeAuthorization = revokeAuthorization;",
			"module.exports.renewDeviceAuthorization = renewDeviceAuthorization;",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"exports.defaultAuthorization = 'Bearer Rk4vQ9tLmZ2xWp7sQx7v';", "Rk4vQ9tLmZ2xWp7sQx7v"},
			{"request.authorization = Rk4vQ9tLmZ2xWp7sQx7v;", "Rk4vQ9tLmZ2xWp7sQx7v"},
		})
	})
}

func TestInOperand(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`  const loginPasswordGiven = "login" in params && "password" in params;`,
			`    hasApiSecret = 'clientId' in config`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`  const loginPasswordGiven = "Qx7vRk4tLmZ2wPn8";`, "Qx7vRk4tLmZ2wPn8"},
			{`    hasApiSecret = 'Qx7vRk4tLmZ2wPn8' inside`, "Qx7vRk4tLmZ2wPn8"},
		})
	})
}

func TestShortCallOfName(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"      wrapped_key: b32(sealedKey)",
			"  recipient.encrypted_key = b64url(wrappedBytes);",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"      wrapped_key: Qx7vRk4tLmZ2wPn8", "Qx7vRk4tLmZ2wPn8"},
			{"  recipient.encrypted_key = Qx7vRk4tLmZ2wPn8;", "Qx7vRk4tLmZ2wPn8"},
		})
	})
	require.False(t, shortCallOfName("Qx7v9(Rk4tLmZ2wPn8)"), "an argument with digits among its letters is no name of code")
}

func TestMinifiedBoolean(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`for(n in{text:!0,password:!0,email:!0})k.kinds[n]=function(r){return function(o){var i=o.tagName.toLowerCase();return("select"===i||"option"===i)&&o.kind===r}}(n);`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`var o={user:"deploy",password:"Qx7vRk4tLmZ2wPn8",secure:!0};`, "Qx7vRk4tLmZ2wPn8"},
			{`  password=!0Qx7vRk4tLmZ2wPn8`, "!0Qx7vRk4tLmZ2wPn8"},
		})
	})
}

func TestHeredocGrammar(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			`e.LINE_COMMENT,{keywords:"fi esac",className:"string",begin:/<<<['"]?[A-Z_]+['"]?$/,end:/^\w+$/}`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`printf '%s\n' done; gh secret set DEPLOY_KEY <<< Qx7vRk4tLmZ2wPn8`, "Qx7vRk4tLmZ2wPn8"},
			{`ssh-add - <<< Qx`, "Qx"},
		})
	})
}

// Shapes of web applications' code and docs as documenso/documenso (AGPL-3.0) and
// umami-software/umami (MIT) write them — JSX attributes bound to expressions, a flag's
// name, a conditional's branches, a short link's slug, a script handed over in base64, a
// country list, a constant given to a header, a locale's translations of password — in rows written here. The rows of secrets are made up.
func TestWebAppShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"        <SignLink token={isOwner ? undefined : recipient?.token} />",
			"      presignToken={editorConfig?.embedded?.presignToken}",
			"              {isLoadingToken ? 'Loading Token...' : 'Open Editor'}",
			"Read more in [the compliance guide](https://documen.so/21-CFR-Part-11).",
			`browser eval -b "ZG9jdW1lbnQucXVlcnlTZWxlY3RvcignW3NyYyo9Il9uZXh0Il0nKQ=="`,
			`  "PW": "Palau",`+"\n"+`  "PY": "Paraguay",`,
			"const API_TOKEN = process.env.DOCUMENSO_API_TOKEN;\n\nfetch(url, { headers: { 'Authorization': API_TOKEN } })",
			`    "no-match-password": "Les mots de passe ne correspondent pas",`,
			`    "password": "পাসওয়ার্ড",`+"\n"+`    "new-password": "নতুন পাসওয়ার্ড",`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`<Provider apiKey={"Zx8kq2pLm9Qw4rT7vB3n"} />`, "Zx8kq2pLm9Qw4rT7vB3n"},
			{"<Provider apiKey={`Zx8kq2pLm9Qw4rT7vB3n`} />", "Zx8kq2pLm9Qw4rT7vB3n"},
			{`useToken = "Zx8kq2pLm9Qw4rT7vB3n"`, "Zx8kq2pLm9Qw4rT7vB3n"},
			{`  "PW": "Zx8kq2pLm9",`, "Zx8kq2pLm9"},
			{`echo "eyJ1c2VybmFtZSI6ICJkZXBsb3kiLCAicGFzc3dvcmQiOiAiWng4a3EycExtOVF3In0=" | base64 -d`, "eyJ1c2VybmFtZSI6ICJkZXBsb3kiLCAicGFzc3dvcmQiOiAiWng4a3EycExtOVF3In0="},
			{"https://hooks.acme.io/in/Zx8kq2pLm9Qw4rT7vB3nY6uI", "Zx8kq2pLm9Qw4rT7vB3nY6uI"},
			{`{"auths": {"ghcr.io": {"password": "Zx8kq2pLm9Qw4rT7"}}}`, "Zx8kq2pLm9Qw4rT7"},
			{"fetch(url, { headers: { 'Authorization': 'Zx8kq2pLm9Qw4rT7vB3n' } })", "Zx8kq2pLm9Qw4rT7vB3n"},
			{`    "password": "correct horse battery staple",`, "correct horse battery staple"},
		})
	})
}

// Shapes seen in coding agents' sessions that their authors published with their projects
// (rows written here after them): a generated database type whose fields are unions of
// primitives (one taken for a secret was then masked in every field as seen-secret), a
// store's namespaced key, the account a stored token is kept under, a TypeScript cast, a
// generated import map's hashed names, a spec's question about password fields, Next.js'
// Node version warning, a development server's stand-in token (dev-token), a validation's
// message after a field's name ("is required": once masked, it was masked in every message
// of the session), a token's issuer and audience, a variable named as its field, a dotted
// store key, a provider's encrypted reasoning read back from a session file. The rows of secrets are made up.
func TestAgentSessionShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"      sites: {\n        Row: {\n          id: string\n          display_name: string | null\n          verified: boolean\n          verification_token: string | null\n          verification_date: string | null\n        }",
			`const SESSIONS_KEY = "chess:sessions";`,
			`const TOKEN_USER: &str = "mailbox";`,
			"const SUPABASE_KEY = supabaseKeyEnv as string",
			"import { RichTextCell as RichTextCell_0a1b2c3d4e5f60718293a4b5c6d7e8f9 } from '@payloadcms/richtext-lexical/client'",
			"## Question 2: Login/password fields visibility\nContext: FR-004.",
			`You are using Node.js 18.15.0. For Next.js, Node.js version ">=20.9.0" is required.`,
			"import { QuoteFeatureClient as QuoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'",
			"curl -X POST http://localhost:8787 \\\n  -H \"Authorization: Bearer dev-token\" \\\n  -H \"Content-Type: application/json\"",
			"SESSION_SECRET=local-secret",
			"\t\terrs.Add(\"confirmPassword\", \"is required\")\n\t}\n\tif secret == \"\" {\n\t\treturn nil, errors.New(\"security: JWT secret is required\")",
			`    tokenIssuer       = "lms-api"`,
			"\treturn &Dialector{DSN: dsn}",
			`const USER_KEY = "cw.user";`,
			"+const (\n+    tokenIssuer       = \"lms-go\"\n+    tokenAudienceAPIS = \"lms-api\"\n+)",
			`{"type":"reasoning","summary":[],"content":null,"encrypted_content":"gAAAAABo7kP9x2VQmZk3Lr8fTqW1nY4sD6hJ0cX5bV9aZ2mN7pQ1rT3uW5yE8iO0kL4jH6gF2dS9aA1zX3cV5bN7mQ9wE2rT4yU6iO8pL0kJ2hG4fD6sA8"}`,
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"verification_token: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{`const SESSION_KEY = "Zx8kq2pLm9Qw4rT7";`, "Zx8kq2pLm9Qw4rT7"},
			{`const TOKEN_USER_PASSWORD = "Zx8kq2pLm9";`, "Zx8kq2pLm9"},
			{"ID/PW: master / changed\n", "changed"},
			{"login: 10.0.0.5 root Secr3t!x", "Secr3t!x"},
			{"const SUPABASE_KEY = 'Zx8kq2pLm9Qw4rT7vB3n' as string", "Zx8kq2pLm9Qw4rT7vB3n"},
			{"curl -X POST http://localhost:8787 \\\n  -H \"Authorization: Bearer Zx8kq2pLm9Qw4rT7\" \\\n  -H \"Content-Type: application/json\"", "Zx8kq2pLm9Qw4rT7"},
			{"SESSION_SECRET=devops-Zx8kq2pLm9", "devops-Zx8kq2pLm9"},
			{`password = "correct horse battery staple"`, "correct horse battery staple"},
			{"\treturn &Dialector{DSN: \"postgres://app:Zx8kq2pLm9@db/app\"}", "Zx8kq2pLm9"},
			{`const USER_KEY = "Zx8kq2pLm9Qw4rT7";`, "Zx8kq2pLm9Qw4rT7"},
			{`{"OPENAI_API_KEY": null, "tokens": {"id_token": "eyJhbGciOiJSUzI1NiIsImtpZCI6IjE5MzQ0ZTY1In0.eyJhdWQiOlsiYXBwX0VNb2FtRUVaNzNmMENrWGFYcDdocmFubiJdLCJlbWFpbCI6ImFkYUBjb3JwLmlvIn0.Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rf"}}`, "Qx7mB2pzR9vL4kWn8cT1yH6jPq3Zr5TsXk9QmDvV4Rf"},
			{`{"encrypted_content_key": "Zx8kq2pLm9Qw4rT7vB3nY6uI1oP5aS8d"}`, "Zx8kq2pLm9Qw4rT7vB3nY6uI1oP5aS8d"},
		})
	})
}
