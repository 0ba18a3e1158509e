package vibe

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
)

// corpusCase is one labelled event text of the sanitizer corpus.
type corpusCase struct {
	Name  string `json:"name"`
	Class string `json:"class"` // known, keyword, path, url
	Text  string `json:"text"`
	// Secrets must not survive, not even as any 8-character substring.
	Secrets []string `json:"secrets,omitempty"`
	// Gone must not appear in the output (home directories, user names).
	Gone []string `json:"gone,omitempty"`
	// Keep must appear unchanged in the output (URLs, relative paths).
	Keep  []string      `json:"keep,omitempty"`
	Hints *SessionHints `json:"hints,omitempty"`
}

const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	lowerAN = "abcdefghijklmnopqrstuvwxyz0123456789"
	upperAN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexLow  = "0123456789abcdef"
	b64     = alnum + "+/"
	pwChars = alnum + "!#%^*_-+"
)

type corpusGen struct{ r *rand.Rand }

func (g corpusGen) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

func (g corpusGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// password is a human-made password: a word, digits and a symbol.
func (g corpusGen) password() string {
	if g.r.IntN(2) == 0 {
		return g.s(pwChars, 12+g.r.IntN(12))
	}
	return g.pick("Summer", "Hunter", "Dragon", "Purple", "Coffee", "Rocket") + g.s("0123456789", 2+g.r.IntN(3)) + g.pick("!", "#", "_", "") + g.s(lowerAN, 3)
}

// knownTokens are provider tokens with a recognisable format.
func (g corpusGen) knownTokens() map[string]string {
	return map[string]string{
		"aws-access-key":  "AKIA" + g.s("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
		"github-pat":      "ghp_" + g.s(alnum, 36),
		"github-fine":     "github_pat_" + g.s(alnum, 22) + "_" + g.s(alnum, 59),
		"gitlab-pat":      "glpat-" + g.s(alnum+"_-", 20),
		"slack-bot":       "xoxb-" + g.s("0123456789", 12) + "-" + g.s("0123456789", 12) + "-" + g.s(alnum, 24),
		"stripe-live":     "sk_live_" + g.s(alnum, 32),
		"openai-proj":     "sk-proj-" + g.s(alnum+"_-", 48),
		"anthropic-api":   "sk-ant-api03-" + g.s(alnum+"_-", 93) + "AA",
		"anthropic-oauth": "sk-ant-oat01-" + g.s(alnum+"_-", 80),
		"groq":            "gsk_" + g.s(alnum, 52),
		"xai":             "xai-" + g.s(alnum, 80),
		"replicate":       "r8_" + g.s(alnum, 37),
		"openrouter":      "sk-or-v1-" + g.s(hexLow, 64),
		"google-oauth":    "ya29." + g.s(alnum+"_-", 120),
		"google-api":      "AIza" + g.s(alnum+"_-", 35),
		"huggingface":     "hf_" + g.s("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 34),
		"npm":             "npm_" + g.s(alnum, 36),
		"openvibe":        "hbt_" + g.s(alnum+"_-", 43),
		"sendgrid":        "SG." + g.s(alnum+"_-", 22) + "." + g.s(alnum+"_-", 43),
		"digitalocean":    "dop_v1_" + g.s(hexLow, 64),
		"jwt":             g.jwt(),
		"shopify":         "shpat_" + g.s(hexLow, 32),
		"doppler":         "dp.pt." + g.s(alnum, 43),
		"pypi":            "pypi-AgEIcHlwaS5vcmc" + g.s(alnum+"_-", 60),
	}
}

func (g corpusGen) jwt() string {
	enc := base64.RawURLEncoding
	h := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	p := enc.EncodeToString(fmt.Appendf(nil, `{"sub":"%d","name":"%s","iat":%d}`, g.r.IntN(1e6), g.pick("alice", "bob", "carol"), 1700000000+g.r.IntN(1e7)))
	return h + "." + p + "." + g.s(alnum+"_-", 43)
}

func (g corpusGen) pem() (string, string) {
	var body []string
	for range 6 + g.r.IntN(10) {
		body = append(body, g.s(b64, 64))
	}
	kind := g.pick("RSA ", "EC ", "OPENSSH ", "")
	block := "-----BEGIN " + kind + "PRIVATE KEY-----\n" + strings.Join(body, "\n") + "\n-----END " + kind + "PRIVATE KEY-----"
	return block, strings.Join(body, "\n")
}

// positiveCorpus generates the labelled positive cases deterministically.
func positiveCorpus() []corpusCase {
	g := corpusGen{r: rand.New(rand.NewPCG(2026, 11))}
	var out []corpusCase
	add := func(name, class, text string, secrets ...string) {
		out = append(out, corpusCase{Name: name, Class: class, Text: text, Secrets: secrets})
	}
	for round := range 12 {
		known := g.knownTokens()
		for _, id := range sortedKeys(known) {
			tok := known[id]
			switch round % 6 {
			case 0:
				add(id+"/export", "known", fmt.Sprintf("$ export %s_TOKEN=%s\n$ ./deploy.sh --env prod\nDeploying build 42 to prod... done", strings.ToUpper(strings.ReplaceAll(id, "-", "_")), tok), tok)
			case 1:
				add(id+"/tool-json", "known", fmt.Sprintf(`{"command":"curl -s https://api.example.com/v1/me -H 'X-Client: cli'","env":{"CLIENT":"%s"},"cwd":"."}`, tok), tok)
			case 2:
				add(id+"/prose", "known", fmt.Sprintf("I found the key in the logs: %s — please rotate it before the stream goes public.", tok), tok)
			case 3:
				add(id+"/env-read", "known", fmt.Sprintf("Read .env (4 lines)\nNODE_ENV=production\nPORT=3000\nSERVICE_CREDENTIAL=%s\nLOG_LEVEL=debug", tok), tok)
			case 4:
				add(id+"/yaml", "known", fmt.Sprintf("services:\n  api:\n    image: ghcr.io/acme/api:1.4.2\n    environment:\n      - UPSTREAM_AUTH=%s\n      - REGION=eu-west-1", tok), tok)
			case 5:
				add(id+"/output", "known", fmt.Sprintf("stdout:\n  loaded 3 plugins\n  using credential %s for upload\n  uploaded 12 files (3.4 MB)", tok), tok)
			}
		}
		block, body := g.pem()
		add("pem/full", "known", "cat ~/.ssh/id_rsa\n"+block+"\n", body)
		cut := block[:len(block)*2/3]
		add("pem/truncated", "known", "Read key.pem (first 20 lines):\n"+cut, strings.Split(body, "\n")[0])
		add("pem/json-escaped", "known", `{"path":"deploy/key.pem","content":"`+strings.ReplaceAll(block, "\n", `\n`)+`"}`, strings.Split(body, "\n")[0], strings.Split(body, "\n")[1])

		pw := g.password()
		user := g.pick("app", "admin", "deploy", "svc_api")
		host := g.pick("db.internal", "10.0.3.12", "prod-db.example.net", "localhost")
		add("dsn/postgres", "keyword", fmt.Sprintf("$ psql postgres://%s:%s@%s:5432/app?sslmode=require\npsql (16.2)\napp=> ", user, pw, host), pw)
		pw2 := g.password()
		add("dsn/mysql-url", "keyword", fmt.Sprintf(`DATABASE_URL="mysql://%s:%s@%s/shop"`, user, pw2, host), pw2)
		pw3 := g.password()
		add("dsn/mongodb", "keyword", fmt.Sprintf("const uri = `mongodb+srv://%s:%s@cluster0.ab1cd.mongodb.net/?retryWrites=true`;", user, pw3), pw3)
		pw4 := g.password()
		add("dsn/redis", "keyword", fmt.Sprintf("redis-cli -u redis://default:%s@%s:6379 PING\nPONG", pw4, host), pw4)
		tok := g.s(alnum, 40)
		add("url/https-basic", "keyword", fmt.Sprintf("git clone https://%s:%s@git.example.com/acme/infra.git", user, tok), tok)
		pw5 := g.password()
		add("env/password", "keyword", fmt.Sprintf("cat .env\nDB_HOST=%s\nDB_USER=%s\nDB_PASSWORD=%s\nDB_NAME=app", host, user, pw5), pw5)
		sec := g.s(alnum, 32)
		add("env/secret-key", "keyword", fmt.Sprintf("SECRET_KEY_BASE=%s\nRAILS_ENV=production", sec), sec)
		sec2 := g.s(b64, 40)
		add("env/aws-secret", "keyword", fmt.Sprintf("[default]\naws_access_key_id = AKIA%s\naws_secret_access_key = %s\nregion = us-east-1", g.s(upperAN, 16), sec2), sec2)
		sec3 := g.s(alnum, 28)
		add("json/client-secret", "keyword", fmt.Sprintf(`{"client_id":"web-%d","client_secret":"%s","redirect_uri":"https://app.example.com/cb"}`, g.r.IntN(999), sec3), sec3)
		pw6 := g.password()
		add("yaml/password", "keyword", fmt.Sprintf("database:\n  host: %s\n  username: %s\n  password: %s\n  pool: 5", host, user, pw6), pw6)
		pw7 := g.password()
		add("cli/password-flag", "keyword", fmt.Sprintf("$ docker login registry.example.com --username %s --password %s\nLogin Succeeded", user, pw7), pw7)
		pw8 := g.password()
		add("cli/mysql-p", "keyword", fmt.Sprintf("mysql -h %s -u%s -p%s shop -e 'select count(*) from orders'", host, user, pw8), pw8)
		pw9 := g.password()
		add("cli/pgpassword", "keyword", fmt.Sprintf("PGPASSWORD=%s pg_dump -h %s -U %s app > backup.sql", pw9, host, user), pw9)
		pw10 := g.password()
		add("cli/sshpass", "keyword", fmt.Sprintf("sshpass -p '%s' ssh %s@%s uptime", pw10, user, host), pw10)
		tok2 := g.s(alnum, 32)
		add("cli/token-flag", "keyword", fmt.Sprintf("vercel deploy --prod --token=%s", tok2), tok2)
		bearer := g.s(alnum+"-_", 40)
		add("header/bearer", "keyword", fmt.Sprintf("curl -X POST https://api.example.com/v2/jobs -H 'Content-Type: application/json' -H 'Authorization: Bearer %s' -d '{\"name\":\"nightly\"}'", bearer), bearer)
		basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + g.password()))
		add("header/basic", "keyword", fmt.Sprintf("GET /admin HTTP/1.1\nHost: internal.example.com\nAuthorization: Basic %s\nAccept: */*", basic), basic)
		cookie := g.s(alnum, 32)
		add("header/cookie", "keyword", fmt.Sprintf("> GET /dashboard HTTP/2\n> Host: app.example.com\n> Cookie: session_id=%s; theme=dark\n< HTTP/2 200", cookie), cookie)
		ak := g.s(b64, 86) + "=="
		add("conn/azure-storage", "keyword", fmt.Sprintf("DefaultEndpointsProtocol=https;AccountName=acmefiles;AccountKey=%s;EndpointSuffix=core.windows.net", ak), ak)
		pw11 := g.password()
		add("conn/sqlserver", "keyword", fmt.Sprintf(`"ConnectionStrings": { "Default": "Server=tcp:sql.example.net,1433;Database=shop;User ID=%s;Password=%s;Encrypt=True;" }`, user, pw11), pw11)
		k := g.knownTokens()["github-pat"]
		add("wrapped/base64-env", "known", "echo "+base64.StdEncoding.EncodeToString([]byte("GITHUB_TOKEN="+k+"\n"))+" | base64 -d > .env", base64.StdEncoding.EncodeToString([]byte("GITHUB_TOKEN="+k+"\n")))
		k2 := g.knownTokens()["openai-proj"]
		add("wrapped/url-query", "known", "GET https://proxy.example.com/fetch?target="+url.QueryEscape("https://api.example.com/?key="+k2)+"&mode=raw", url.QueryEscape(k2))
		sec4 := g.s(alnum, 36)
		add("wrapped/json-escaped", "keyword", `{"tool":"write_file","args":"{\"path\":\"config.json\",\"content\":\"{\\\"api_key\\\": \\\"`+sec4+`\\\"}\"}"}`, sec4)
		sec5 := g.s(alnum, 30)
		add("url/query-token", "keyword", fmt.Sprintf("Fetching https://hooks.example.com/notify?channel=ops&token=%s", sec5), sec5)
		rnd := g.s(alnum, 40)
		add("entropy/bare", "keyword", fmt.Sprintf("Use this value when prompted: %s\nthen press enter.", rnd), rnd)
		pw12 := g.password()
		add("multi/terminal", "keyword", fmt.Sprintf("$ ./scripts/bootstrap.sh\n[1/4] installing deps\n[2/4] writing config\n  ADMIN_PASSWORD=%s\n[3/4] migrating\n[4/4] done in 12.3s", pw12), pw12)
	}
	out = append(out, pathCorpus()...)
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// pathCorpus has home directories and user names that must disappear and URLs and relative
// paths that must stay.
func pathCorpus() []corpusCase {
	ws := &SessionHints{WorkspaceName: "openvibe", MachineName: "streamer-laptop"}
	root := &SessionHints{WorkspaceName: "openvibe", WorkspaceRoots: []string{"/srv/work/openvibe"}}
	winRoot := &SessionHints{WorkspaceName: "shop", WorkspaceRoots: []string{`D:\dev\shop`}}
	cases := []corpusCase{
		{Name: "linux-home", Text: "open /home/alice.smith/.config/gh/hosts.yml", Gone: []string{"alice.smith", "/home/"}},
		{Name: "linux-home-ws", Text: "edited /home/alice/code/openvibe/src/main.go:12:4", Gone: []string{"alice", "/home"}, Keep: []string{"src/main.go:12:4"}, Hints: ws},
		{Name: "macos-home", Text: "Traceback: File \"/Users/jdoe/projects/tool/run.py\", line 3", Gone: []string{"jdoe", "/Users"}},
		{Name: "macos-private", Text: "tmp file at /private/var/folders/xy/9k2l_abc/T/build-123.log", Gone: []string{"/private/var", "9k2l_abc"}},
		{Name: "windows-home", Text: `PS C:\Users\MariaG\source\repos\app> dotnet build`, Gone: []string{"MariaG", `C:\Users`}},
		{Name: "windows-forward", Text: `loading C:/Users/MariaG/AppData/Roaming/Code/settings.json`, Gone: []string{"MariaG", "C:/Users"}},
		{Name: "windows-json", Text: `{"file":"C:\\Users\\MariaG\\Desktop\\notes.txt"}`, Gone: []string{"MariaG", `C:\\Users`}},
		{Name: "windows-userprofile", Text: `copy %USERPROFILE%\.aws\credentials backup\`, Gone: []string{"%USERPROFILE%"}},
		{Name: "unc", Text: `\\fileserver01\projects\acme\secret-plan.docx`, Gone: []string{"fileserver01", `acme\`}},
		{Name: "wsl-mnt", Text: "cd /mnt/c/Users/MariaG/dev && ls", Gone: []string{"MariaG", "/mnt/c"}},
		{Name: "wsl-unc", Text: `\\wsl$\Ubuntu\home\mgarcia\app\main.py`, Gone: []string{"mgarcia", "wsl$"}},
		{Name: "wsl-localhost", Text: `\\wsl.localhost\Debian\home\mgarcia\.bashrc`, Gone: []string{"mgarcia"}},
		{Name: "file-uri", Text: "Open file:///home/alice/notes/todo.md in the browser", Gone: []string{"alice", "file://"}},
		{Name: "file-uri-win", Text: "file:///C:/Users/MariaG/Documents/report.pdf", Gone: []string{"MariaG"}},
		{Name: "prompt", Text: "alice@streamer-laptop:~/code/openvibe$ go test ./...", Gone: []string{"alice@", "streamer-laptop"}, Hints: ws},
		// A prompt's account and host go; a web root is the same on every machine.
		{Name: "prompt-root", Text: "root@web-01:/var/www/html# systemctl restart nginx", Gone: []string{"root@web-01"}, Keep: []string{"/var/www/html"}},
		{Name: "root-home", Text: "cat /root/.bash_history", Gone: []string{"/root/"}},
		{Name: "workspace-root", Text: "go build -o /srv/work/openvibe/bin/server /srv/work/openvibe/cmd/server", Gone: []string{"/srv/work"}, Keep: []string{"bin/server", "cmd/server"}, Hints: root},
		{Name: "workspace-win", Text: `Compiling D:\dev\shop\src\Cart.cs and d:\DEV\shop\tests\CartTests.cs`, Gone: []string{`D:\dev`, `d:\DEV`}, Keep: []string{`src\Cart.cs`, `tests\CartTests.cs`}, Hints: winRoot},
		{Name: "other-abs", Text: "wrote /opt/acme-internal/releases/v2/app.tar.gz", Gone: []string{"acme-internal", "/opt/"}, Keep: []string{"app.tar.gz"}},
		{Name: "urls-kept", Text: "See https://github.com/acme/app/blob/main/src/server.go#L10 and http://localhost:8080/api/v1/users?limit=10", Keep: []string{"https://github.com/acme/app/blob/main/src/server.go#L10", "http://localhost:8080/api/v1/users?limit=10"}},
		{Name: "relative-kept", Text: "modified: src/vibe/sanitize.go\nmodified: ./docs/README.md\nnew file: ../shared/x.go", Keep: []string{"src/vibe/sanitize.go", "./docs/README.md", "../shared/x.go"}},
		{Name: "routes-kept", Text: `e.GET("/api/vibe-coding/managed/:id/settings", h.settings)`, Keep: []string{"/api/vibe-coding/managed/:id/settings"}},
		{Name: "system-kept", Text: "#!/usr/bin/env bash\nset -e\nmake 2>/dev/null", Keep: []string{"/usr/bin/env", "/dev/null"}},
	}
	for i := range cases {
		cases[i].Class = "path"
		if len(cases[i].Gone) == 0 {
			cases[i].Class = "url"
		}
	}
	return cases
}

func marshalCorpus(cases []corpusCase) []byte {
	var b strings.Builder
	for _, c := range cases {
		line, _ := json.Marshal(c)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
