package vibe

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzValue turns fuzzed bytes into a credential-like value: 12 to 40 letters and digits
// with both, never a placeholder.
func fuzzValue(raw string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(raw) && b.Len() < 36; i++ {
		c := raw[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		}
	}
	v := b.String() + "Q7z"
	if len(v) < 12 {
		v += "kP4mW9xR2nT6"
	}
	if placeholderValue(v) {
		return "", false
	}
	return v, true
}

func checkPlanted(t *testing.T, san *Sanitizer, in, secret string) {
	t.Helper()
	out := san.NewSession(SessionHints{}).SanitizeText(in)
	// Control characters are removed before any rule runs, so text around them may join into
	// a piece of the secret that the input held apart ("000\x1c00000" is "00000000" after):
	// such a piece is the text's, not the secret's.
	cleaned := strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, in)
	if secretLeaks(cleaned, out, secret, []string{secret}) {
		t.Fatalf("secret %q survived:\n in: %q\nout: %q", secret, in, out)
	}
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8 out of %q", in)
	}
}

// configTemplates place a password (%[1]s) where each config file format keeps one.
var configTemplates = []string{
	"machine api.github.com\n  login octocat\n  password %[1]s\n",
	"machine example.org login bob password %[1]s\n",
	"//registry.npmjs.org/:_authToken=%[1]s\nregistry=https://registry.npmjs.org/\n",
	"_auth=%[1]s\nemail=ci@corp.io\n",
	"[pypi]\nusername = __token__\npassword = %[1]s\n",
	"https://bob:%[1]s@github.com\n",
	`{"auths": {"ghcr.io": {"auth": "%[1]s"}}}`,
	"<settings><servers><server><id>nexus</id><username>deploy</username><password>%[1]s</password></server></servers></settings>",
	`<add key="ClearTextPassword" value="%[1]s" />`,
	"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: %[1]s\n",
	"apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: cluster\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: %[1]s\n",
	"items:\n- apiVersion: v1\n  kind: Secret\n  data:\n    {{- if .Values.auth.enabled }}\n    password: %[1]s\n    {{- end }}\n",
	"DB_PASSWORD=%[1]s\nDEBUG=1\n",
	"spring.datasource.password=%[1]s\n",
	"[client]\nuser = root\npassword = %[1]s\n",
	"database:\n  host: db\n  password: %[1]s\n",
	"[auth]\ntoken = \"%[1]s\"\n",
	"localhost:5432:app:postgres:%[1]s\n",
	"database:\n  password: |\n    %[1]s\n  host: db\n",
	`<entry key="db.password">%[1]s</entry>`,
	"<settingsSecurity>\n  <master>%[1]s</master>\n</settingsSecurity>\n",
	"type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: %[1]s\n",
	`{"primaryKeyId": 42, "key": [{"keyData": {"typeUrl": "type.googleapis.com/google.crypto.tink.AesGcmKey", "value": "%[1]s", "keyMaterialType": "SYMMETRIC"}, "status": "ENABLED", "keyId": 42, "outputPrefixType": "TINK"}]}`,
	"{\n    \"github-oauth\": {\n        \"github.com\": \"%[1]s\"\n    }\n}\n",
	`{"db_conn":{"sensitive":true,"type":"string","value":"%[1]s"},"region":{"sensitive":false,"value":"eu-west-1"}}`,
	"{\n  \"api_token\": {\n    \"type\": \"string\",\n    \"value\": \"%[1]s\"\n  }\n}\n",
	"sentinel monitor mymaster 10.0.0.5 6379 2\nsentinel auth-pass mymaster %[1]s\n",
	" id |  email      | password\n----+-------------+----------\n  1 | ada@corp.io | %[1]s\n(1 row)\n",
}

// FuzzConfigFiles: a password in any of the config file formats is masked, whatever text
// comes before and after the file.
func FuzzConfigFiles(f *testing.F) { fuzzTemplates(f, configTemplates, "$ cat ~/.config\n", "\n$ ") }

// fuzzTemplates plants a fuzzed credential into one of the templates, on its own lines with
// fuzzed text before and after, and requires it masked.
func fuzzTemplates(f *testing.F, templates []string, before, after string) {
	for i := range templates {
		f.Add(uint8(i), before, after, "s3cr3tValue")
	}
	f.Add(uint8(3), "", "", "")
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, before, after, raw string) {
		v, ok := fuzzValue(raw)
		if !ok {
			return
		}
		in := before + "\n" + fmt.Sprintf(templates[int(which)%len(templates)], v) + "\n" + after
		checkPlanted(t, san, in, v)
	})
}

// commandTemplates place a password (%[1]s) in the command lines that take one.
var commandTemplates = []string{
	"docker login -u bob -p %[1]s ghcr.io",
	"echo '%[1]s' | docker login ghcr.io -u bob --password-stdin",
	"mysql -uroot -p%[1]s shop",
	"PGPASSWORD=%[1]s psql -h db -U app",
	"sshpass -p '%[1]s' ssh deploy@10.0.0.5",
	"mysql -uroot -p'%[1]s' shop",
	"redis-cli -h cache -a '%[1]s' ping",
	"openssl enc -aes-256-cbc -k '%[1]s' -in a -out b",
	"curl -u bob:%[1]s https://api.corp.io/v1",
	"curl -H 'Authorization: Bearer %[1]s' https://api.corp.io",
	"app --db-password=%[1]s --verbose",
	"htpasswd -b -c .htpasswd admin %[1]s",
	"redis-cli -h cache -a %[1]s ping",
	"skopeo copy --src-creds bob:%[1]s docker://a docker://b",
	"openssl pkcs12 -export -passout pass:%[1]s -out a.p12",
	"mongosh mongodb://db -u admin -p %[1]s",
	"ldapsearch -x -D cn=admin -w %[1]s",
	"cat <<EOF > .env\nAPI_TOKEN=%[1]s\nEOF",
	"echo '%[1]s' | sudo -S apt-get update",
	"echo %[1]s | gh auth login --with-token",
	"wrangler secret put API_KEY\n? Enter a secret value: %[1]s",
	"sudo -S <<< '%[1]s' ls /etc",
	"sudo -S bash <<EOF\n%[1]s\napt-get update\nEOF",
	"ssh-keygen -t ed25519 -N '%[1]s' -f id",
	"gh secret set TOKEN --body '%[1]s'",
	"poetry config http-basic.corp bot '%[1]s'",
	"curl -H \"X-Acme-Token: %[1]s\" https://api.corp.io/v1",
	"curl --header 'Private-Token: %[1]s' https://gitlab.corp.io/api/v4/user",
	"vercel env add API_TOKEN production <<< \"%[1]s\"",
	"rsync rsync://bob@backup/share --password-file=<(echo %[1]s)",
	"cargo login %[1]s",
	"java -Dapp.db.password=%[1]s -jar app.jar",
	"echo %[1]s | docker secret create db_pass -",
	"net user bob %[1]s /add",
	"net use \\\\nas\\share /user:CORP\\bob %[1]s",
	"net use Z: \\\\fileserver\\share %[1]s /user:bob",
	"wpa_passphrase \"Home Net\" '%[1]s'",
	"http -a bob:%[1]s POST :8000/api/items",
	"spawn ssh bob@10.0.0.5\nexpect \"Password:\"\nsend \"%[1]s\\r\"",
	"composer config --global github-oauth.github.com %[1]s",
	"poetry config pypi-token.pypi %[1]s",
	"echo -n '%[1]s' | base64 -w0",
	"I set the admin password to %[1]s for now.",
}

// FuzzCommandLines: a password on any of the command lines that take one is masked.
func FuzzCommandLines(f *testing.F) { fuzzTemplates(f, commandTemplates, "$ ", "\n") }

// webhookTemplates place a token (%[1]s) in chat and CI webhook URLs.
var webhookTemplates = []string{
	"https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/%[1]s",
	"https://discord.com/api/webhooks/123456789012345678/%[1]s",
	"https://corp.webhook.office.com/webhookb2/%[1]s@abc/IncomingWebhook/x",
	"https://chat.corp.io/hooks/%[1]s",
	"https://gitlab.com/api/v4/projects/7/trigger/pipeline?token=%[1]s&ref=main",
	"https://jenkins.corp.io/job/x/build?token=%[1]s",
	"https://api.telegram.org/bot123456789:%[1]s/sendMessage",
	"http://tb.corp.io:8080/api/v1/%[1]s/telemetry",
}

// FuzzWebhookURLs: the token of a webhook URL is masked.
func FuzzWebhookURLs(f *testing.F) {
	for i := range webhookTemplates {
		f.Add(uint8(i), "curl -X POST ", " -d '{}'", "AbCdEfGh1234IjKlMn")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, before, after, raw string) {
		v, ok := fuzzValue(raw + "aB3dE5fG7hJ9kL1mN3pQ5rS7")
		if !ok {
			return
		}
		in := before + fmt.Sprintf(webhookTemplates[int(which)%len(webhookTemplates)], v) + after
		checkPlanted(t, san, in, v)
	})
}

// FuzzSplitSecrets: a token cut at any point into concatenated literals, a diff hunk or
// wrapped lines is masked in both pieces.
func FuzzSplitSecrets(f *testing.F) {
	f.Add(uint8(10), uint8(0))
	f.Add(uint8(25), uint8(1))
	f.Add(uint8(30), uint8(2))
	f.Add(uint8(17), uint8(3))
	san := testSanitizer(f)
	tok := "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	f.Fuzz(func(t *testing.T, cut, form uint8) {
		c := 8 + int(cut)%(len(tok)-16) // both pieces at least 8 characters
		a, b := tok[:c], tok[c:]
		var in string
		switch form % 4 {
		case 0:
			in = `token = "` + a + `" + "` + b + `"`
		case 1:
			in = "@@ -1 +1 @@\n+" + a + "\n+" + b + "\n"
		case 2:
			in = "key:\n" + a + "\n" + b + "\n"
		default:
			in = "t = ('" + a + "'\n     '" + b + "')"
		}
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		if strings.Contains(out, a) || strings.Contains(out, b) {
			t.Fatalf("piece survived:\n in: %q\nout: %q", in, out)
		}
	})
}

// FuzzSeenSecretForms: a secret found once is masked later in raw, base64, hex and
// URL-encoded form, inside any text.
func FuzzSeenSecretForms(f *testing.F) {
	f.Add("Authorization: Basic ", "==", "u:", uint8(0))
	f.Add("", "", "", uint8(1))
	f.Add("x=", "&y=1", "", uint8(2))
	san := testSanitizer(f)
	secret := "Zq9Xv2Lm7Pw4Rt8Ks3Nd"
	f.Fuzz(func(t *testing.T, before, after, prefix string, form uint8) {
		ss := san.NewSession(SessionHints{})
		if out := ss.SanitizeText("DB_PASSWORD=" + secret); strings.Contains(out, secret) {
			t.Fatalf("not found: %q", out)
		}
		var enc string
		switch form % 4 {
		case 0:
			enc = base64.StdEncoding.EncodeToString([]byte(prefix + secret))
		case 1:
			enc = hex.EncodeToString([]byte(secret))
		case 2:
			enc = url.QueryEscape(prefix + secret + "/+")
		default:
			enc = base64.RawURLEncoding.EncodeToString([]byte(prefix + secret + "\n"))
		}
		in := before + " " + enc + " " + after
		out := ss.SanitizeText(in)
		// The encoded form must be gone where it was whole in the input.
		if strings.Contains(out, enc) || strings.Contains(out, secret) {
			t.Fatalf("encoded secret survived:\n in: %q\nout: %q", in, out)
		}
	})
}

// FuzzRedactPersonal: the personal-data pass never panics, keeps UTF-8 valid and removes a
// planted address whatever surrounds it.
func FuzzRedactPersonal(f *testing.F) {
	f.Add("Author: ", " <x>", "ada")
	f.Add(`"author": "`, `"`, "jane.doe")
	f.Add("drwxr-xr-x  2 ", " staff 64 Jan 1 x", "dain")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, before, after, local string) {
		l := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' {
				return r
			}
			return -1
		}, local)
		if len(l) < 3 || strings.HasPrefix(l, "git") || strings.HasPrefix(l, "no") {
			l = "adalove"
		}
		mail := l + "@corp-mail.io"
		in := before + " " + mail + " " + after
		out := redactPersonal(in)
		if !utf8.ValidString(out) && utf8.ValidString(in) {
			t.Fatalf("invalid UTF-8 out of %q", in)
		}
		if strings.Contains(out, mail) {
			t.Fatalf("address survived:\n in: %q\nout: %q", in, out)
		}
		_ = redactPersonal(before + after)
	})
}

// FuzzStripANSI: no escape character survives, and text without escapes is unchanged.
func FuzzStripANSI(f *testing.F) {
	f.Add("\x1b[90m/home/alice\x1b[0m")
	f.Add("\x1b]8;;file:///x\x07link\x1b]8;;\x07")
	f.Add("plain text [1] arr[m]")
	f.Fuzz(func(t *testing.T, s string) {
		out := cleanControl(s, true)
		if strings.ContainsRune(out, 0x1b) {
			t.Fatalf("escape survived in %q", out)
		}
	})
}

// nameValueTemplates place a password (%[1]s) as the value of a name/value pair whose name
// field says secret.
var nameValueTemplates = []string{
	"env:\n  - name: DEBUG\n    value: \"1\"\n  - name: DB_PASSWORD\n    value: %[1]s\n",
	`"environment": [{"name": "API_TOKEN", "value": "%[1]s"}]`,
	`{"key": "client_secret", "value": "%[1]s", "type": "secret"}`,
	`<input type="password" name="password" value="%[1]s">`,
	"name = \"SECRET_KEY\"\nvalue = \"%[1]s\"\n",
}

// FuzzNameValuePairs: the value of a pair named secret is masked, whatever surrounds it.
func FuzzNameValuePairs(f *testing.F) {
	fuzzTemplates(f, nameValueTemplates, "$ kubectl get deploy -o yaml\n", "\n")
}

// FuzzEscapedConfig: a config file or command line inside a JSON string (a tool call's
// arguments) is read unescaped: its password is masked, once or twice escaped.
func FuzzEscapedConfig(f *testing.F) {
	templates := slices.Concat(configTemplates, commandTemplates)
	for i := range templates {
		f.Add(uint8(i), false, "s3cr3tValue")
		f.Add(uint8(i), true, "s3cr3tValue")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, twice bool, raw string) {
		v, ok := fuzzValue(raw)
		if !ok {
			return
		}
		body := fmt.Sprintf(templates[int(which)%len(templates)], v)
		b, _ := json.Marshal(map[string]string{"file_path": "notes.md", "content": body})
		in := string(b)
		if twice {
			b, _ = json.Marshal(map[string]string{"arguments": in})
			in = string(b)
		}
		checkPlanted(t, san, in, v)
		if len(escapeView(in)) != len(in) {
			t.Fatalf("the view moved bytes: %q", in)
		}
	})
}

// hashTemplates place a password hash's salt (%[1]s, letters and digits) in the hash formats.
var hashTemplates = []string{
	"root:$6$%[1]s$wWPRl.PVczjzeMVgjiA8LLy2nOyZbf7Amj3qLIL978o18gbMySdKZ7uepq9tmMQXxyTIrS12Pln.2Q/6Xscao0:19000:0:99999:7:::",
	"admin:$apr1$%.8[1]s$vQK3lmgMGvcXcRP8bQ9xZ1",
	`"hash": "$argon2id$v=19$m=65536,t=3,p=4$%[1]s$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"`,
	"pbkdf2_sha256$260000$%[1]s$zR1cJvY2Qm3nX8pL5tK0wH4sG7fD6aB9=",
}

// FuzzPasswordHashes: a password hash is masked whole, salt included.
func FuzzPasswordHashes(f *testing.F) {
	for i := range hashTemplates {
		f.Add(uint8(i), "Qx7kP2mW9zR4vT8n")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, raw string) {
		var b strings.Builder
		for i := 0; i < len(raw) && b.Len() < 16; i++ {
			if c := raw[i]; (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') && c != 'x' && c != 'X' {
				b.WriteByte(c) // no x: a run of x is a placeholder
			}
		}
		salt := b.String() + "Qx7kP2mW9zR4vT8n"[:max(0, 16-b.Len())]
		tmpl := hashTemplates[int(which)%len(hashTemplates)]
		in := fmt.Sprintf(tmpl, salt)
		if strings.Contains(tmpl, "%.8[1]s") {
			salt = salt[:8]
		}
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		if strings.Contains(out, salt) {
			t.Fatalf("salt survived:\n in: %q\nout: %q", in, out)
		}
	})
}

// prefixes are vendor prefixes the rules do not name.
var prefixes = []string{"slk_", "acme_live_", "nvapi-", "CFPAT-", "xyz-api-"}

// FuzzPrefixedTokens: a token of an unknown vendor's prefix and a generated body is masked.
func FuzzPrefixedTokens(f *testing.F) {
	for i := range prefixes {
		f.Add(uint8(i), "found ", " in the logs", "q8Zr2mXv7Lp4Nw9Tc3Yb6Hd1Fk5Js0")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, before, after, raw string) {
		v, ok := fuzzValue(raw + "q8Zr2mXv7Lp4Nw9Tc3Yb6Hd1")
		if !ok || len(v) < 24 || shannonEntropy(v) < 4 || meanRunLength(v) >= 2.5 || repeats(v, 4) {
			return // the body of a generated token, not letters a fuzzer strung together
		}
		if n := len(before); n > 0 && prefixedChar(before[n-1]) {
			before += " "
		}
		if len(after) > 0 && (prefixedChar(after[0]) || after[0] == '.') {
			after = " " + after
		}
		tok := prefixes[int(which)%len(prefixes)] + v
		checkPlanted(t, san, before+tok+after, v)
	})
}

// repeats reports a run of n equal bytes in s.
func repeats(s string, n int) bool {
	run := 1
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			if run++; run >= n {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}

// vendorTemplates place a generated key (%[1]s) after a service's name (%[2]s).
var vendorTemplates = []string{"%[2]s %[1]s", "%[2]s=%[1]s", "%[2]s: \"%[1]s\",", "%[2]sACCESS %[1]s", "%[2]s KEY %[1]s",
	"export %[2]s '%[1]s'", "%[2]s => '%[1]s'"}

// FuzzVendorKeys: a generated key (hex, or a UUID) after any service's name, joined in any of
// the ways the vendor-key pass reads, is masked whatever text comes before and after it.
func FuzzVendorKeys(f *testing.F) {
	names := slices.Sorted(maps.Keys(vendorNames()))
	for i := range vendorTemplates {
		f.Add(uint8(i), uint16(i*37), "deploy log:", "done", "seed")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, name uint16, before, after, raw string) {
		sum := sha256.Sum256([]byte(raw))
		v := hex.EncodeToString(sum[:20]) + "a1"
		if which%2 == 1 {
			h := hex.EncodeToString(sum[:16])
			v = h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		}
		in := before + "\n" + fmt.Sprintf(vendorTemplates[int(which)%len(vendorTemplates)], v, names[int(name)%len(names)]) + "\n" + after
		checkPlanted(t, san, in, v)
	})
}

// callTemplates place a password (%[1]s) at its position in the calls that take one.
var callTemplates = []string{
	`var de = new DirectoryEntry("LDAP://dc01.corp.local", "CORP\\svc", "%[1]s");`,
	"new NetworkCredential(\n    \"svc\",\n    \"%[1]s\", \"CORP\")",
	`conn = DriverManager.getConnection(url, "root", "%[1]s");`,
	`$db = mysqli_connect($host, 'root', '%[1]s', 'shop');`,
	`$pdo = new PDO("mysql:host=db", $user, '%[1]s');`,
	`ftp = ftplib.FTP("ftp.corp.io", "deploy", "%[1]s")`,
	`new PasswordAuthentication(user, "%[1]s".toCharArray())`,
	`req.SetBasicAuth(name, "%[1]s")`,
	`cy.get('#password').type('%[1]s')`,
	`await page.fill('input[name="password"]', '%[1]s')`,
	`System.setProperty("db.password", "%[1]s");`,
	`token = jwt.encode(payload, "%[1]s", algorithm="HS256")`,
	`s, err := token.SignedString([]byte("%[1]s"))`,
	`const sig = crypto.createHmac("sha256", "%[1]s").update(body).digest("hex")`,
	`Algorithm algorithm = Algorithm.HMAC256("%[1]s");`,
	`client.get(url).basic_auth("admin", Some("%[1]s"))`,
	`auth := smtp.PlainAuth("", "me@corp.io", "%[1]s", "smtp.corp.io")`,
	`mac := hmac.New(sha256.New, []byte("%[1]s"))`,
	`dsn := fmt.Sprintf("%%s:%%s@tcp(db:3306)/%%s", "root", "%[1]s", "shop")`,
	`form := url.Values{"client_secret": {"%[1]s"}}`,
}

// terraformTemplates place a password (%[1]s) as the default of a variable named for it.
var terraformTemplates = []string{
	"variable \"db_password\" {\n  type      = string\n  sensitive = true\n  default   = \"%[1]s\"\n}",
	"variable \"api_token\" {\n  default = \"%[1]s\"\n}\n",
	"variable \"admin_secret\" {\n  description = \"The admin's secret\"\n\n  default = \"%[1]s\"\n}",
}

// FuzzTerraformDefaults: the default of a Terraform variable named for a secret is masked,
// whatever text comes before and after the block.
func FuzzTerraformDefaults(f *testing.F) {
	fuzzTemplates(f, terraformTemplates, "# variables.tf\n", "\nresource \"null_resource\" \"x\" {}")
}

// annotatedTemplates place a password (%[1]s) after a type annotation between the
// credential's name and its value, as Swift, Kotlin, Rust and TypeScript write them.
var annotatedTemplates = []string{
	`let password: String! = "%[1]s"`,
	`var apiToken: String? = "%[1]s"`,
	`const API_SECRET: &'static str = "%[1]s";`,
	`let db_password: &str = "%[1]s";`,
	`static SECRET_KEY: &[u8] = b"%[1]s";`,
	`val clientSecret: Option<String> = Some("%[1]s")`,
	`private readonly accessToken: string = "%[1]s";`,
}

// FuzzTypeAnnotations: a password behind a type annotation is masked, whatever text comes
// before and after the declaration.
func FuzzTypeAnnotations(f *testing.F) {
	fuzzTemplates(f, annotatedTemplates, "// settings\n", "\nfn main() {}")
}

// FuzzCredentialCalls: a password or a signing key passed by position to a call that takes
// one is masked, whatever text comes before and after the call.
func FuzzCredentialCalls(f *testing.F) {
	fuzzTemplates(f, callTemplates, "// connect\n", "\nreturn nil")
}

// queryUnescape decodes as url.QueryUnescape does, and its map points each decoded byte at
// the escape or character it came from.
func FuzzQueryUnescape(f *testing.F) {
	for _, s := range []string{"a%20b+c", "%2", "%zz", "https://h/p?sig=Xk9%2BQx7%3D&x=1", "%E2%82%AC", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, pos, ok := queryUnescape(s)
		want, err := url.QueryUnescape(s)
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("queryUnescape(%q) = %q, %v; url.QueryUnescape: %q, %v", s, got, ok, want, err)
		}
		if !ok {
			return
		}
		if len(pos) != len(got)+1 || pos[len(got)] != len(s) {
			t.Fatalf("queryUnescape(%q): %d positions for %d bytes", s, len(pos), len(got))
		}
		for i := range len(got) {
			if c := s[pos[i]]; c != got[i] && c != '%' && !(c == '+' && got[i] == ' ') {
				t.Fatalf("queryUnescape(%q): byte %d (%q) maps to %q", s, i, got[i], c)
			}
		}
	})
}

// accountTemplates are outputs that show the local account; %s is the account.
var accountTemplates = []string{
	"USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n%s        4242  1.3  2.0 912344 81200 pts/1    Sl+  10:01   0:09 node server.js\n",
	"UID          PID    PPID  C STIME TTY          TIME CMD\n%s    31337   31200  0 10:02 pts/0    00:00:00 -zsh\n",
	"    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n   7781 %s     20   0 1184012 210012  61234 S   4.7   1.3   0:12.01 code\n",
	"%s  pts/0        2026-12-01 09:58 (10.0.0.8)\n",
	"[sudo] password for %s: ",
	"$ env\nSHELL=/bin/zsh\nUSER=%s\nLOGNAME=%s\n",
	"debug1: Authenticated to 10.0.0.5 ([10.0.0.5]:22) as '%s' using \"publickey\".",
	"%s:x:1000:1000:,,,:/srv/x:/bin/bash",
	"-rw-r--r--  1 %s  staff  12 Jan  2 x.go",
	"$ whoami\n%s\n",
	"  ✓ Logged in to github.com account %s (keyring)\n",
	"$ docker login\nUsername: %s\nPassword:\nLogin Succeeded\n",
	"cat /home/%s/.bashrc",
}

// FuzzAccountOutputs: an account shown by any output that names it is learned and masked
// there and in a later event, whatever its spelling, unless it is a generic or service account.
func FuzzAccountOutputs(f *testing.F) {
	for i := range accountTemplates {
		f.Add(uint8(i), "tkaur")
		f.Add(uint8(i), "will")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, name string) {
		if !accountNameShape.MatchString(name) || slices.Contains(genericUsers, strings.ToLower(name)) ||
			slices.Contains(genericAccounts, strings.ToLower(name)) || slices.Contains(serviceAccounts, strings.ToLower(name)) ||
			strings.HasPrefix(name, "systemd-") || dictWord(name) && len(name) <= 4 || commonText(name) || credentialLike.MatchString(name) ||
			nameHasSecretWord(name) { // an account called pswd or token: its passwd line reads as a password's
			return
		}
		tmpl := accountTemplates[int(which)%len(accountTemplates)]
		ss := san.NewSession(SessionHints{})
		out := redactPersonal(ss.SanitizeText(strings.ReplaceAll(tmpl, "%s", name)))
		if containsWord(out, name) {
			t.Fatalf("account %q shown:\n%s", name, out)
		}
		if later := ss.SanitizeText("ping " + name + " now"); containsWord(later, name) {
			t.Fatalf("account %q learned from %q not masked later: %q", name, tmpl, later)
		}
	})
}

// credentialLike: a name read as a credential's (pwd:x:…) is masked as one, not shown.
var credentialLike = regexp.MustCompile(`pw|pass|secret|token|key|auth|cred|pin`)

var accountNameShape = regexp.MustCompile(`^[a-z][a-z0-9_-]{2,15}$`) // _name: a macOS daemon

// commonText reports names a template's own text holds as words (pts, zsh, node…): masking
// them there is not a leak of the account, and the template would show them anyway.
func commonText(name string) bool {
	for _, tmpl := range accountTemplates {
		if containsWord(strings.ReplaceAll(tmpl, "%s", ""), name) {
			return true
		}
	}
	return false
}

func containsWord(s, w string) bool { return replaceWord(s, w, "") != s }

// sqlInsertTemplates place a secret (%[1]s) in a column of an INSERT whose name says
// secret, or in the value of a (name, value) row named for one, among other columns and rows.
var sqlInsertTemplates = []string{
	"insert into users (id,email,password,first_name,last_name) values ('rob','rob@example.com','%[1]s','Rob','Winch');",
	"INSERT INTO users (id, username, api_token) VALUES (1, 'alice', 'x'), (2, 'bob', '%[1]s');",
	"INSERT INTO `accounts` (`name`, `secret_key`, `note`) VALUES\n  ('a', '%[1]s', 'password'),\n  ('b', NULL, 'it''s fine');",
	"insert into settings (name, value) values ('smtp_password', '%[1]s');",
	"INSERT INTO t (id, passwd) VALUES (7, '%[1]s') ON CONFLICT DO NOTHING;",
}

// FuzzSQLInserts: an INSERT's secret column is masked in every row, whatever surrounds the
// statement.
func FuzzSQLInserts(f *testing.F) {
	fuzzTemplates(f, sqlInsertTemplates, "sqlite> ", "\nsqlite> ")
}
