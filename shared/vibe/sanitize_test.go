package vibe

import (
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
	"github.com/zricethezav/gitleaks/v8/logging"
)

var (
	sharedSanitizerOnce sync.Once
	sharedSanitizer     *Sanitizer
)

// testSanitizer returns one Sanitizer for the package's tests (it is safe for concurrent
// use, and building it compiles a few hundred rules).
func testSanitizer(t testing.TB) *Sanitizer {
	t.Helper()
	sharedSanitizerOnce.Do(func() {
		s, err := NewSanitizer()
		if err != nil {
			panic(err)
		}
		sharedSanitizer = s
	})
	return sharedSanitizer
}

func TestSanitizeSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	tests := []struct {
		name, in, want string
	}{
		{"env password", "DB_PASSWORD=hunter22x", "DB_PASSWORD=[redacted:password/keyword-assignment]"},
		{"env placeholder", "DB_PASSWORD=${DB_PASSWORD}", "DB_PASSWORD=${DB_PASSWORD}"},
		{"env placeholder angle", "API_KEY=<your-key>", "API_KEY=<your-key>"},
		{"yaml", "password: s3cr3t-Value", "password: [redacted:password/keyword-assignment]"},
		{"json", `{"client_secret": "abcDEF123456"}`, `{"client_secret": "[redacted:password/keyword-assignment]"}`},
		{"code call kept", "token := getToken(ctx)", "token := getToken(ctx)"},
		{"code type kept", "password: string;", "password: string;"},
		{"comparison kept", `if password == "" {`, `if password == "" {`},
		{"max tokens kept", "max_tokens: 4096", "max_tokens: 4096"},
		{"token type kept", `token_type = "bearer"`, `token_type = "bearer"`},
		{"env key", "STRIPE_KEY=rk_4f9Qx2mB7", "STRIPE_KEY=[redacted:password/keyword-assignment]"},
		{"env auth", "BASIC_AUTH=deploy:Qx2mB7pz", "BASIC_AUTH=[redacted:password/keyword-assignment]"},
		{"public key kept", "VAPID_PUBLIC_KEY=BEl62iUYgUivxIkv69yViEuiBIa", "VAPID_PUBLIC_KEY=BEl62iUYgUivxIkv69yViEuiBIa"},
		{"lower key kept", `key = "user-42"`, `key = "user-42"`},
		{"glued name", "PGPASSWORD=Abc123xyz pg_dump app", "PGPASSWORD=[redacted:password/keyword-assignment] pg_dump app"},
		{"postgres url", "postgres://u:p4ssw0rd@h:5432/db", "postgres://u:[redacted:password/url-credentials]@h:5432/db"},
		{"https basic", "https://user:tok3nValue99@example.com/x", "https://user:[redacted:password/url-credentials]@example.com/x"},
		{"url kept", "https://example.com/a/b?x=1", "https://example.com/a/b?x=1"},
		{"aws secret in prose", "use it with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCY8zQ4vN2mLp now", "use it with secret [redacted:password/keyword-assignment] now"},
		{"slashed path kept", "see services/chat-socket/internal/room/room.go", "see services/chat-socket/internal/room/room.go"},
		{"bearer", "Authorization: Bearer abcdef123456ghijkl", "Authorization: Bearer [redacted:credential/authorization-header]"},
		{"bearer past brackets", "send Bearer z{q[7}w>Kd(9)$#pLm] with it", "send Bearer [redacted:credential/bearer-token] with it"},
		{"bearer tag end", "<code>Bearer a8Kx2mQp9vLz4wRt7nYb</code>", "<code>Bearer [redacted:credential/bearer-token]</code>"},
		{"env value after a blank", "MAILER_SECRET=zz 7e1fq93kd0vm2xw8p5bt6cg4na\n", "MAILER_SECRET=[redacted:password/keyword-assignment]\n"},
		{"env value then a command", "MAILER_SECRET=Qx7mB2pzR9vL ./send.sh 7e1fq93kd0vm2xw8p5bt6cg4na", "MAILER_SECRET=[redacted:password/keyword-assignment] ./send.sh 7e1fq93kd0vm2xw8p5bt6cg4na"},
		{"cookie", "Cookie: sid=abc123def456; theme=dark", "Cookie: [redacted:credential/cookie-header]"},
		{"curl cookie flag", `curl -s -b "sessionid=k7hq2mzp9lx4wv8rt3ns5x" https://app.internal/`, `curl -s -b "[redacted:credential/cookie-header]" https://app.internal/`},
		{"curl cookie flag bare", "curl --cookie sessionid=k7hq2mzp9lx4wv8rt3ns5x https://app.internal/", "curl --cookie [redacted:credential/cookie-header] https://app.internal/"},
		{"curl cookie jar", "curl -b cookies.txt -c cookies.txt https://app.internal/", "curl -b cookies.txt -c cookies.txt https://app.internal/"},
		{"curl cookie preferences", `curl -b "theme=dark; lang=en" https://app.internal/`, `curl -b "theme=dark; lang=en" https://app.internal/`},
		{"branch named with =", "git checkout -b feature/x=y", "git checkout -b feature/x=y"},
		{"password flag", "app --password hunter2xyz --verbose", "app --password [redacted:password/cli-secret-flag] --verbose"},
		{"password flag eq", "app --db-password=hunter2xyz", "app --db-password=[redacted:password/cli-secret-flag]"},
		{"mysql -p", "mysql -uroot -pS3cret99 shop", "mysql -uroot -p[redacted:password/cli-secret-flag] shop"},
		{"sshpass", "sshpass -p 'Xy7pass99' ssh box", "sshpass -p '[redacted:password/cli-secret-flag]' ssh box"},
		{"curl user", "curl -u admin:Adm1nPass99 https://x.test", "curl -u [redacted:password/curl-auth-user] https://x.test"},
		{"connection string", "Server=db;User ID=sa;Password=P@ssw0rd99;", "Server=db;User ID=sa;Password=[redacted:password/connection-string];"},
		{"account key", "AccountName=a;AccountKey=c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5Cg==;", "AccountName=a;AccountKey=[redacted:password/connection-string];"},
		{"pem truncated", "key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "key:\n[redacted:private-key/private-key-block]"},
		{"anthropic oauth", "sk-ant-oat01-" + strings.Repeat("aB3", 30), "[redacted:token/vendor-token]"},
		{"groq", "gsk_" + strings.Repeat("aB3d", 13), "[redacted:token/vendor-token]"},
		{"xai", "xai-" + strings.Repeat("Zx9", 20), "[redacted:token/vendor-token]"},
		{"replicate", "r8_" + strings.Repeat("Qw3", 13), "[redacted:token/vendor-token]"},
		{"openrouter", "sk-or-v1-" + strings.Repeat("a1b2", 16), "[redacted:token/vendor-token]"},
		{"google oauth", "ya29." + strings.Repeat("a0B_", 20), "[redacted:token/vendor-token]"},
		{"openvibe token", "hbt_" + strings.Repeat("Ab1_", 10) + "xyz", "[redacted:token/vendor-token]"},
		{"entropy", "value k9Xq2LmN8vB4wR7tY1uI3oP6aS5dF0gH end", "value [redacted:high-entropy] end"},
		{"git sha kept", "commit 3f786850e387550fdab836ed7e6dc881de23001b", "commit 3f786850e387550fdab836ed7e6dc881de23001b"},
		{"uuid kept", "id 123e4567-e89b-12d3-a456-426614174000", "id 123e4567-e89b-12d3-a456-426614174000"},
		{"integrity kept", "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR6nR3IcO5RJ1frzA==", "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR6nR3IcO5RJ1frzA=="},
		{"go sum kept", "h1:Y2AB9Yg5AULVxXcgSpIdNs6c5H0NE8XYXysPDGN4=", "h1:Y2AB9Yg5AULVxXcgSpIdNs6c5H0NE8XYXysPDGN4="},
		{"identifier kept", "wantsHttp10KeepAlive and downgradeCanaryTLS12", "wantsHttp10KeepAlive and downgradeCanaryTLS12"},
		{"gitleaks allow ignored", "const key = \"ghp_" + strings.Repeat("x1Y2", 9) + "\" // gitleaks:allow", "const key = \"[redacted:token/vendor-token]\" // gitleaks:allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, san.NewSession(SessionHints{}).SanitizeText(tt.in))
		})
	}
}

func TestSanitizeEncodedSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	tok := "ghp_" + strings.Repeat("Ab3d", 9)
	for _, in := range []string{
		"echo R0lUSFVCX1RPS0VOPWdocF9BYjNkQWIzZEFiM2RBYjNkQWIzZEFiM2RBYjNkQWIzZEFiM2QK | base64 -d",
		"GET /x?u=https%3A%2F%2Fapi.test%2F%3Ftoken%3D" + tok,
		`{"args":"{\"env\":\"TOKEN=` + tok + `\"}"}`,
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(in)
		require.Contains(t, out, "[redacted", in)
		require.False(t, leaks(out, tok), "%q → %q", in, out)
	}
}

func TestSanitizePaths(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	tests := []struct {
		name  string
		hints SessionHints
		in    string
		want  string
	}{
		{"linux home", SessionHints{}, "cat /home/alice/.bashrc", "cat ~/.bashrc"},
		{"macos home", SessionHints{}, "ls /Users/alice/Downloads/x.zip", "ls ~/Downloads/x.zip"},
		{"root home", SessionHints{}, "vi /root/.profile", "vi ~/.profile"},
		{"workspace root", SessionHints{WorkspaceRoots: []string{"/home/alice/src/app"}}, "edit /home/alice/src/app/cmd/main.go", "edit cmd/main.go"},
		{"workspace root itself", SessionHints{WorkspaceRoots: []string{"/home/alice/src/app/"}}, "cd /home/alice/src/app", "cd ."},
		{"workspace name", SessionHints{WorkspaceName: "app"}, "edit /home/alice/src/app/cmd/main.go:3", "edit cmd/main.go:3"},
		{"other absolute", SessionHints{}, "wrote /opt/corp/build/out.bin", "wrote out.bin"},
		// A path that goes on from an expansion is relative to the directory it names; a home
		// directory's path after one is still rewritten.
		{"after a shell expansion", SessionHints{}, "cp ${BUILD_DIR}/vendor/autoload.php .\ngo build -o $(OUT)/bin/tool", "cp ${BUILD_DIR}/vendor/autoload.php .\ngo build -o $(OUT)/bin/tool"},
		{"after a template action", SessionHints{}, `creates={{ drupal_core_path }}/vendor/autoload.php src: "{{ app_root }}/config/settings.yml"`, `creates={{ drupal_core_path }}/vendor/autoload.php src: "{{ app_root }}/config/settings.yml"`},
		{"home after an expansion", SessionHints{}, "${PREFIX}/home/alice/x.txt", "${PREFIX}~/x.txt"},
		// Paths that are the same on every machine: a service's state and web root, a
		// container's secrets; removable media are an account's.
		{"system subtrees", SessionHints{}, "- db_data:/var/lib/mysql\n- ./html:/var/www/html\n--password=\"$$(cat /run/secrets/db-password)\"", "- db_data:/var/lib/mysql\n- ./html:/var/www/html\n--password=\"$$(cat /run/secrets/db-password)\""},
		{"removable media", SessionHints{}, "ls /run/media/alice/USB/x.txt", "ls x.txt"},
		{"a container's prompt", SessionHints{}, "redpanda@1add2615774b:/app$ cat order.json | rpk topic produce order\nthe redpanda service", "redpanda@1add2615774b:/app$ cat order.json | rpk topic produce order\nthe redpanda service"},
		{"a machine's prompt", SessionHints{}, "alice@macbook:~/src$ ls\nalice wrote it", "~/src$ ls\n[user] wrote it"},
		// A site's paths that a page or a document refers to stay; a home's is rewritten
		// wherever it stands.
		{"a site's paths", SessionHints{}, `<img align="right" src="/img/adapters/dgraph.svg" /> [the guide](/docs/install.md) url(/fonts/inter.woff2)`, `<img align="right" src="/img/adapters/dgraph.svg" /> [the guide](/docs/install.md) url(/fonts/inter.woff2)`},
		{"a home in a link", SessionHints{}, `<a href="/Users/alice/notes.html">notes</a> [n](/home2/bob/n.md)`, `<a href="~/notes.html">notes</a> [n](~/n.md)`},
		{"a home whose account is already marked", SessionHints{}, "/home/[USER]/.local/share/Steam/x.txt", "/home/[USER]/.local/share/Steam/x.txt"},
		{"macos private", SessionHints{}, "at /private/var/folders/ab/T/x.log", "at x.log"},
		{"system kept", SessionHints{}, "#!/usr/bin/env bash 2>/dev/null", "#!/usr/bin/env bash 2>/dev/null"},
		{"route kept", SessionHints{}, `GET /api/v1/users`, `GET /api/v1/users`},
		{"windows home", SessionHints{}, `C:\Users\Maria\proj\a.cs`, `~\proj\a.cs`},
		{"windows forward", SessionHints{}, `C:/Users/Maria/proj/a.cs`, `~/proj/a.cs`},
		{"windows json", SessionHints{}, `"C:\\Users\\Maria\\proj\\a.cs"`, `"~\\proj\\a.cs"`},
		{"windows json slash", SessionHints{}, `"\/home\/maria\/a.txt"`, `"~\/a.txt"`},
		{"windows other", SessionHints{}, `D:\Games\Steam\x.exe`, `x.exe`},
		{"windows workspace", SessionHints{WorkspaceRoots: []string{`C:\dev\shop`}}, `c:\DEV\shop\src\a.cs`, `src\a.cs`},
		{"userprofile", SessionHints{}, `%USERPROFILE%\.ssh\config`, `~\.ssh\config`},
		{"unc", SessionHints{}, `\\nas01\share\plans\q3.xlsx`, `q3.xlsx`},
		{"wsl mnt", SessionHints{}, "/mnt/c/Users/Maria/dev/x.py", "~/dev/x.py"},
		{"wsl unc", SessionHints{}, `\\wsl$\Ubuntu\home\maria\x.py`, `~\x.py`},
		// Homes on other disks and network file systems; a file URI with one slash (Java's).
		{"numbered home", SessionHints{}, "cd /home2/tkaur/proj && make", "cd ~/proj && make"},
		{"nfs home", SessionHints{}, "ls /nfs/home/tkaur/data", "ls ~/data"},
		{"automounted home", SessionHints{}, "scp box:/net/fs1/home/tkaur/a.txt .", "scp box:~/a.txt ."},
		{"java file uri", SessionHints{}, "FileNotFoundException: file:/Users/tkaur/proj/conf.xml", "FileNotFoundException: ~/proj/conf.xml"},
		{"jar file uri", SessionHints{}, "jar:file:/home/tkaur/.m2/repository/x.jar!/META-INF", "jar:~/.m2/repository/x.jar!/META-INF"},
		{"java file uri elsewhere", SessionHints{}, "loaded file:/opt/app/lib/x.jar", "loaded x.jar"},
		// System paths named for an account.
		{"mail spool", SessionHints{}, "mail spool /var/mail/tkaur is 3 KB", "mail spool [user] is 3 KB"},
		{"crontab", SessionHints{}, "stored in /var/spool/cron/crontabs/tkaur", "stored in [user]"},
		{"removable media", SessionHints{}, "ls /run/media/tkaur/USB1/photos; echo tkaur", "ls photos; echo [user]"},
		{"spool dir kept", SessionHints{}, "ls /var/spool/cron/crontabs", "ls crontabs"},
		// A URL of this machine's files: kept, its account masked.
		{"notebook url", SessionHints{}, "open http://localhost:8888/tree/home/tkaur/nb/a.ipynb", "open http://localhost:8888/tree/home/[user]/nb/a.ipynb"},
		{"sftp url", SessionHints{}, "sftp://deploy@files.corp.io/home/tkaur/out.csv", "sftp://deploy@files.corp.io/home/[user]/out.csv"},
		{"public url kept", SessionHints{}, "https://github.com/org/site/tree/main/home/components/nav.tsx", "https://github.com/org/site/tree/main/home/components/nav.tsx"},
		// An account name or a volume name with blanks in it.
		{"windows account with a blank", SessionHints{}, `C:\Users\Hank Pym\Desktop\notes.txt`, `~\Desktop\notes.txt`},
		{"macos account with a blank", SessionHints{}, "/Users/Ivan Petrov/Library/Application Support/Code", "~/Library/Application Support/Code"},
		{"another volume's home", SessionHints{}, "/Volumes/Macintosh HD/Users/erin/Desktop/a.png", "~/Desktop/a.png"},
		{"account then prose", SessionHints{}, `C:\Users\hank is my home and /Users/bob and more`, `~ is my home and ~ and more`},
		{"export home", SessionHints{}, "/export/home/judy/bin/run", "~/bin/run"},
		{"shell-escaped blanks", SessionHints{}, `/Users/Alice\ Smith/x and /Users/bob/Library/Application\ Support/Code/User/settings.json`, `~/x and ~/Library/Application\ Support/Code/User/settings.json`},
		{"percent-encoded home", SessionHints{}, "vscode://x?path=%2FUsers%2Falice%2Fproj%2Fa.md", "vscode://x?path=~%2Fproj%2Fa.md"},
		{"percent-encoded Windows home", SessionHints{}, "open?path=C%3A%5CUsers%5Calice%5Cproj%5Ca.md", "open?path=~%5Cproj%5Ca.md"},
		{"home with JSON-escaped slashes", SessionHints{}, `{"path":"\u002fUsers\u002falice\u002fproj"}`, `{"path":"~\u002fproj"}`},
		{"home with slashes escaped twice", SessionHints{}, `{"content":"{\"path\":\"\\/Users\\/alice\\/proj\"} alice"}`, `{"content":"{\"path\":\"~\\/proj\"} [user]"}`},
		{"folders of no account", SessionHints{}, `/Users/Shared/Relocated/a.txt and C:\Users\Public\Documents\b.txt`, `a.txt and b.txt`},
		{"home without its root", SessionHints{}, "-rw-r--r-- 0/0 12 2024-01-01 home/erin/.bashrc\nUsers/carol/Desktop/a.png, erin", "-rw-r--r-- 0/0 12 2024-01-01 home/[user]/.bashrc\nUsers/[user]/Desktop/a.png, [user]"},
		{"agent's folder named after a project's path", SessionHints{}, "ls ~/.claude/projects/-Users-alice-code-app/\nalice wrote it; Temp\\claude\\C--Users-carol-git-x\\y carol, ~/.cursor/projects/Users-frank-dev-app frank, -mnt-c-Users-gina at ~/.claude/projects/-mnt-c-Users-gina-p",
			"ls ~/.claude/projects/-Users-[user]-code-app/\n[user] wrote it; Temp\\claude\\C--Users-[user]-git-x\\y [user], ~/.cursor/projects/Users-[user]-dev-app [user], -mnt-c-Users-[user] at ~/.claude/projects/-mnt-c-Users-[user]-p"},
		{"short account in an agent's folder", SessionHints{}, "~/.claude/projects/-Users-will-app/ and I will run it", "~/.claude/projects/-Users-[user]-app/ and I will run it"},
		{"hyphened words are no agent's folder", SessionHints{}, "go test -home-dir=/x ./... dir; ~/projects/home-page-redesign/a.html page; .nav-home-link link; ~/.claude/projects/-home-runner-work-app runner",
			"go test -home-dir=/x ./... dir; ~/projects/home-page-redesign/a.html page; .nav-home-link link; ~/.claude/projects/-home-runner-work-app runner"},
		{"windows profile named for its domain", SessionHints{}, `C:\Users\carol.CONTOSO\proj\a.py by carol; C:\Users\erin.DESKTOP-7QK2M1\x for Erin`, `~\proj\a.py by [user]; ~\x for [user]`},
		{"route parameter folders", SessionHints{}, `C:\Users\alice\app\api\notes\[id]\print\route.ts and .\app\[...slug]\page.tsx`, `~\app\api\notes\[id]\print\route.ts and .\app\[...slug]\page.tsx`},
		{"home path glued to a log's level", SessionHints{}, "[INFO]/Users/carol/x.log by carol; /home/[USER]/.local/bin stays", "[INFO]~/x.log by [user]; /home/[USER]/.local/bin stays"},
		{"a home cut short by an ellipsis teaches no account", SessionHints{}, "cd /home/… && ls\nthen curl https://raw.githubusercontent.com/o/r/e538d50c/.…", "cd ~ && ls\nthen curl https://raw.githubusercontent.com/o/r/e538d50c/.…"},
		{"a URL's path after its masked account", SessionHints{}, "curl -fsSL https://raw.githubusercontent.com/[user]/terraform-provider-contentful/e538d50cb84c13cb94758d9fa404000b9a501b27/.…", "curl -fsSL https://raw.githubusercontent.com/[user]/terraform-provider-contentful/e538d50cb84c13cb94758d9fa404000b9a501b27/.…"},
		{"routes are no homes", SessionHints{}, "GET Users/Edit/5 and home/about/index.html", "GET Users/Edit/5 and home/about/index.html"},
		{"escaped twice", SessionHints{}, `{"content":"{\"path\":\"C:\\\\Users\\\\alice\\\\proj\\\\a.json\"}"}`, `{"content":"{\"path\":\"~\\\\proj\\\\a.json\"}"}`},
		{"relative paths in a JSON string", SessionHints{}, `{"path":"src\\app\\models\\user.py","cwd":"~\\.claude\\projects\\x\\a.jsonl","b":".\\src\\a.go"}`, `{"path":"src\\app\\models\\user.py","cwd":"~\\.claude\\projects\\x\\a.jsonl","b":".\\src\\a.go"}`},
		{"freebsd home", SessionHints{}, "/usr/home/judy/src/x.c", "~/src/x.c"},
		{"tilde user", SessionHints{}, "cd ~alice/projects/app && ls (~bob/x) PATH=a:~erin/bin", "cd ~/projects/app && ls (~/x) PATH=a:~/bin"},
		{"perl match is no tilde user", SessionHints{}, "$x =~m/foo/bar/ and HEAD~2/file", "$x =~m/foo/bar/ and HEAD~2/file"},
		{"device namespace", SessionHints{}, `\\?\C:\Users\alice\big\x.txt`, `~\big\x.txt`},
		{"documents and settings escaped", SessionHints{}, `"C:\\Documents and Settings\\alice\\Desktop"`, `"~\\Desktop"`},
		{"documents and settings", SessionHints{}, `C:\Documents and Settings\alice\x.txt`, `~\x.txt`},
		{"google workstation home", SessionHints{}, "/usr/local/google/home/zoltanq/src/main.go by zoltanq", "~/src/main.go by [user]"},
		{"university and cluster homes", SessionHints{}, "/u/zoltanq/src/a.c /global/homes/z/zoltanq/b.py /afs/cs.example.edu/user/z/zoltanq/c.py", "~/src/a.c ~/b.py ~/c.py"},
		{"web routes are no homes", SessionHints{}, "app.get('/users/profile/edit') and /homes/new/edit", "app.get('/users/profile/edit') and /homes/new/edit"},
		{"homebrew on linux", SessionHints{}, "/home/linuxbrew/.linuxbrew/bin/brew", "~/.linuxbrew/bin/brew"},
		{"file uri", SessionHints{}, "file:///home/alice/a.md", "~/a.md"},
		{"file uri windows", SessionHints{}, "file:///C:/Users/Maria/a.md", "~/a.md"},
		{"file uri windows, its colon encoded", SessionHints{}, "Read [](file:///c%3A/Users/dnvm8/Documents/a.tsx)\n{\"file_path\": \"c%3A/Users/dnvm8/b.ts\"} dnvm8", "Read [](~/Documents/a.tsx)\n{\"file_path\": \"~/b.ts\"} [user]"},
		{"prompt", SessionHints{}, "alice@laptop:~/proj$ ls", "~/proj$ ls"},
		{"raspberry pi prompt", SessionHints{}, "dave@raspberrypi:~ $ ls\ndave@raspberrypi:~/proj $ make\ndave", "~ $ ls\n~/proj $ make\n[user]"},
		{"prompt themes with the branch or sign after the path", SessionHints{}, "kate@katesbox ~/proj main* ❯ ls\n╭─liam@arch ~/proj ‹main›\n╰─$ ls liam kate", "~/proj main* ❯ ls\n╭─~/proj ‹main›\n╰─$ ls [user] [user]"},
		{"a version or an address before a path is no prompt", SessionHints{}, "npm@10.8.2 /usr/lib/node_modules/npm\ngit@github.com ~/x\nalice@corp.io ~/y", "npm@10.8.2 /usr/lib/node_modules/npm\ngit@github.com ~/x\nalice@corp.io ~/y"},
		{"git for windows prompt", SessionHints{}, "mallory@DESKTOP-AB12CD MINGW64 ~/proj (main)\n$ git status\nmallory", "MINGW64 ~/proj (main)\n$ git status\n[user]"},
		{"whoami", SessionHints{}, "$ whoami\nsybil\n$ echo hi sybil", "$ whoami\n[user]\n$ echo hi [user]"},
		{"kali prompt", SessionHints{}, "┌──(zoltanq㉿pentest-zq)-[~/app]\n└─$ ssh pentest-zq", "┌──([user]㉿[host])-[~/app]\n└─$ ssh [host]"},
		{"kali's default host", SessionHints{}, "┌──(zoltanq㉿kali)-[~/app]\nKali Linux", "┌──([user]㉿kali)-[~/app]\nKali Linux"},
		{"gh auth status", SessionHints{}, "github.com\n  ✓ Logged in to github.com account octojane (keyring)\n$ git log --author octojane", "github.com\n  ✓ Logged in to github.com account [user] (keyring)\n$ git log --author [user]"},
		{"docker login prompt", SessionHints{}, "$ docker login\nUsername: marysmith42\nPassword:\nLogin Succeeded", "$ docker login\nUsername: [user]\nPassword:\nLogin Succeeded"},
		{"username line elsewhere", SessionHints{}, "Seeded the demo account.\nUsername: marysmith42\nRole: editor", "Seeded the demo account.\nUsername: marysmith42\nRole: editor"},
		{"whoami on windows, escaped", SessionHints{}, `{"out":"PS> whoami\r\ndesktop-ab12cd\\quentin\r\n"}`, `{"out":"PS> whoami\r\ndesktop-ab12cd\\[user]\r\n"}`},
		{"personal machine", SessionHints{}, "$ hostname\ncarols-macbook-pro.local\n$ ssh carols-macbook-pro", "$ hostname\n[host]\n$ ssh [host]"},
		{"machine words of prose", SessionHints{}, "a gaming-laptop or my-macbook and a mac-mini", "a gaming-laptop or my-macbook and a mac-mini"},
		{"prompt abs", SessionHints{WorkspaceName: "proj"}, "alice@laptop:/home/alice/proj/src$ ls", "src$ ls"},
		{"machine name", SessionHints{MachineName: "streamer-laptop"}, "ssh streamer-laptop", "ssh [host]"},
		{"relative kept", SessionHints{}, "src/main.go and ./x/y and ../z", "src/main.go and ./x/y and ../z"},
		{"url kept", SessionHints{}, "https://github.com/home/alice/x", "https://github.com/home/alice/x"},
		{"email kept", SessionHints{}, "mail alice@example.com now", "mail alice@example.com now"},
		{"escaped newline then home", SessionHints{}, `{"out":"x\n/home/alice/src/app/main.go\n"}`, `{"out":"x\n~/src/app/main.go\n"}`},
		{"escaped paths on two lines", SessionHints{}, `"/home/alice/a.go\n/home/alice/b.go"`, `"~/a.go\n~/b.go"`},
		{"escaped unicode then home", SessionHints{}, `x\u003e/home/bob/y.txt`, `x\u003e~/y.txt`},
		{"escapes are no path", SessionHints{}, `{"c":"func main() {\n\tfmt.Println(\"hi\")\n}\nsee \nabc/def/g.go"}`, `{"c":"func main() {\n\tfmt.Println(\"hi\")\n}\nsee \nabc/def/g.go"}`},
		{"windows home with an escape letter", SessionHints{}, `C:\Users\nick\proj\x.go`, `~\proj\x.go`},
		{"format verb before an escape is no drive", SessionHints{}, `fmt.Printf("heap in %v:\n%+v\n", n)`, `fmt.Printf("heap in %v:\n%+v\n", n)`},
		{"format verbs run together", SessionHints{}, `"go %s%s:\n\tgo mod tidy\n"`, `"go %s%s:\n\tgo mod tidy\n"`},
		{"drive after a percent sign and a space", SessionHints{}, `100% D:\Games\x.exe`, `100% x.exe`},
		{"windows json with an escape letter", SessionHints{}, `"C:\\Users\\nick\\x.go\n"`, `"~\\x.go\n"`},
		// Escaped backslashes before a letter are a regular expression's or a string's
		// escapes, not a UNC server: \\b, \\n and \\d come out as they went in.
		{"escaped regex word boundaries", SessionHints{}, `regex: "\\b(?:mov|add)\\b"`, `regex: "\\b(?:mov|add)\\b"`},
		{"escaped regex around a word", SessionHints{}, `regex: "\\bfoo\\b"`, `regex: "\\bfoo\\b"`},
		{"escaped newline in a string", SessionHints{}, `print("a\\nfoo \\d+")`, `print("a\\nfoo \\d+")`},
		{"a server alone", SessionHints{}, `ping \\nas01`, `ping \\nas01`},
		{"unc path to a file", SessionHints{}, `copy \\nas01\share\report.pdf .`, `copy report.pdf .`},
		{"escaped unc path", SessionHints{}, `{"path": "\\\\nas01\\share\\bob\\notes.txt"}`, `{"path": "notes.txt"}`},
		{"escaped rooted home", SessionHints{}, `{"path": "\\Users\\bob\\proj\\a.txt"}`, `{"path": "~\\proj\\a.txt"}`},
		// A path after a placeholder's angle brackets is relative to the directory the reader
		// fills in: kept as written, unless a home is in it.
		{"after a placeholder directory", SessionHints{}, "cd <dir>/src/app", "cd <dir>/src/app"},
		{"after a placeholder in a url", SessionHints{}, "https://repo.anaconda.cloud/t/<TOKEN>/main/linux-64/repodata.json", "https://repo.anaconda.cloud/t/<TOKEN>/main/linux-64/repodata.json"},
		{"home after a tag", SessionHints{}, "<localRepository>/Users/bob/.m2/repository</localRepository>", "<localRepository>~/.m2/repository</localRepository>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, san.NewSession(tt.hints).SanitizeText(tt.in))
		})
	}
}

func TestSanitizeSeenSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{})
	secret := "Zq81kPw0Lr5Tn2Vx"
	require.Equal(t, "API_TOKEN=[redacted:password/keyword-assignment]", ss.SanitizeText("API_TOKEN="+secret))

	// Echoed later without the name that revealed it.
	require.Equal(t, "$ ./deploy.sh\nusing [redacted:password/seen-secret]", ss.SanitizeText("$ ./deploy.sh\nusing "+secret))
	// Split across lines by a terminal, or with an escaped newline in JSON.
	out := ss.SanitizeText("value: Zq81kPw0\n  Lr5Tn2Vx done")
	require.False(t, leaks(out, secret), out)
	out = ss.SanitizeText(`{"out":"Zq81kPw0Lr\n5Tn2Vx"}`)
	require.False(t, leaks(out, secret), out)
	// Quoted again in HTML or escaped for a shell.
	sym := "Qx7!kP2&mW9$zR4<v"
	ss.SanitizeText("DB_PASSWORD='" + sym + "'")
	for _, later := range []string{"<td>Qx7!kP2&amp;mW9$zR4&lt;v</td>", `ssh host DB_PASS=Qx7\!kP2\&mW9\$zR4\<v ./run`} {
		out := ss.SanitizeText(later)
		require.NotContains(t, out, "mW9", out)
	}
	// Put together again from string literals.
	out = ss.SanitizeText(`const t = "Zq81kP" + "w0Lr5Tn2Vx";`)
	require.False(t, leaks(out, secret), out)
	require.Contains(t, out, "const t = ")
	// Another session has not seen it.
	require.Equal(t, "plain "+secret[:8], san.NewSession(SessionHints{}).SanitizeText("plain "+secret[:8]))

	// A base64 value found again without its padding, raw or URL-escaped.
	padded := "abcdefghij+klmnopqrst/uvwx=="
	require.NotContains(t, ss.SanitizeText("line_token: "+padded), "klmnopqrst")
	for _, later := range []string{"abcdefghij+klmnopqrst/uvwx", "abcdefghij%2Bklmnopqrst%2Fuvwx"} {
		out := ss.SanitizeText("GET /cb?code=" + later + " HTTP/1.1")
		require.NotContains(t, out, "klmnopqrst", out)
	}
	// Its base64 form is masked to the end of the run, with the characters that hold bits of
	// its neighbours and the padding.
	require.Equal(t, "echo [redacted:password/seen-secret] | base64 -d",
		ss.SanitizeText("echo "+base64.StdEncoding.EncodeToString([]byte(secret+"!Z"))+" | base64 -d"))
	require.Equal(t, "value: [redacted:password/seen-secret]",
		ss.SanitizeText("value: "+base64.StdEncoding.EncodeToString([]byte("ci:"+secret))))
}

func TestSanitizeFailsClosed(t *testing.T) {
	t.Parallel()
	base := testSanitizer(t)

	panicky := *base
	panicky.hook = func(string) { panic("boom") }
	require.Equal(t, Redacted, panicky.NewSession(SessionHints{}).SanitizeText("DB_PASSWORD=x"))

	slow := *base
	slow.timeout = time.Millisecond
	slow.hook = func(string) { time.Sleep(5 * time.Millisecond) }
	ev := slow.NewSession(SessionHints{}).SanitizeEvent(Event{EventID: "e", EventType: TypePrompt, Summary: "s", Prompt: &TextBody{Text: "hello"}})
	require.Equal(t, Redacted, ev.Summary)
	require.Equal(t, Redacted, ev.Prompt.Text)

	big := strings.Repeat("a", MaxSanitizeInput+1)
	require.Equal(t, Redacted, base.NewSession(SessionHints{}).SanitizeText(big))
}

func TestSanitizeConcurrent(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{WorkspaceName: "app"})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				sec := fmt.Sprintf("Zz%02dQ%02dkPw0Lr5Tn2Vx", g, i)
				out := ss.SanitizeText("SECRET_KEY=" + sec + " in /home/u/app/x.go")
				if leaks(out, sec) || !strings.Contains(out, "x.go") {
					t.Errorf("bad output %q", out)
				}
			}
		})
	}
	wg.Wait()
}

func TestSanitizeEventShape(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{WorkspaceRoots: []string{"/home/alice/app"}})
	snip := "key := \"AKIAIOSFODNN7EXAMPL3\"\n\x00bad\xff"
	in := Event{
		EventID: "e-1", EventType: TypeFileChange, Visibility: "", Summary: "Editing /home/alice/app/src/x.go\r\nnext",
		Source:    &Source{Channel: "ch", RawType: "raw"},
		Publisher: &Publisher{ClientName: "cli", WorkspaceName: "app", MachineName: "box"},
		File: &FileBody{Name: "/home/alice/app/src/x.go", RelativePath: "/home/alice/app/src/x.go", Operation: "edit",
			ChangeCount: -2, Snippet: &snip},
		Prompt:   &TextBody{Text: "dropped: not a prompt event"},
		Metadata: &EventMetadata{RequestID: "r", Model: "m"},
	}
	out := ss.SanitizeEvent(in)
	require.Equal(t, "e-1", out.EventID)
	require.Equal(t, VisibilityPublic, out.Visibility)
	require.Equal(t, "Editing src/x.go next", out.Summary)
	require.Nil(t, out.Prompt)
	require.Equal(t, "x.go", out.File.Name)
	require.Equal(t, "src/x.go", out.File.RelativePath)
	require.Zero(t, out.File.ChangeCount)
	require.Equal(t, "key := \"[redacted:token/aws-access-token]\"\nbad\uFFFD", *out.File.Snippet)
	require.Equal(t, &EventMetadata{RequestID: "r", Model: "m"}, out.Metadata)
	require.NotSame(t, in.File, out.File)

	long := strings.Repeat("word ", 3000)
	r := ss.SanitizeEvent(Event{EventID: "e2", EventType: TypeResponse, Response: &ResponseBody{Text: long}})
	require.True(t, r.Response.Truncated)
	require.Equal(t, capBody, utf8.RuneCountInString(r.Response.Text))
}

func TestSanitizerSilencesGitleaks(t *testing.T) {
	t.Parallel()
	testSanitizer(t)
	require.Equal(t, zerolog.Disabled, logging.Logger.GetLevel(), "gitleaks trace logs print secrets")
}

func TestSanitizeEventEnums(t *testing.T) {
	t.Parallel()
	ss := testSanitizer(t).NewSession(SessionHints{})
	out := ss.SanitizeEvent(Event{EventID: "e", EventType: TypeToolCall, Visibility: "friends", Depth: "huge",
		Tool: &ToolBody{Name: "bash", Phase: "ls -la ~/secret"}})
	require.Equal(t, VisibilityStreamer, out.Visibility, "an unknown visibility is not shown to viewers")
	require.Empty(t, out.Depth)
	require.Empty(t, out.Tool.Phase)
	f := ss.SanitizeEvent(Event{EventID: "e", EventType: TypeFileSave, File: &FileBody{Name: "a", Operation: "shred"}})
	require.Empty(t, f.File.Operation)
	require.Nil(t, Project(&out, DefaultSettings()))
}

func TestSanitizeLearnsUserNames(t *testing.T) {
	t.Parallel()
	ss := testSanitizer(t).NewSession(SessionHints{})
	require.Equal(t, "cd ~/src && ssh [user]@10.0.0.5", ss.SanitizeText("cd /home/mgarcia/src && ssh mgarcia@10.0.0.5"))
	require.Equal(t, "owner: [user] (mgarcia2 is someone else)", ss.SanitizeText("owner: mgarcia (mgarcia2 is someone else)"))
	other := testSanitizer(t).NewSession(SessionHints{})
	require.Equal(t, "ls ~/x; whoami → ubuntu", other.SanitizeText("ls /home/ubuntu/x; whoami → ubuntu"), "generic account names are not masked as words")
}

// TestProsePunctuationKept: a credential written in a sentence is masked without the
// punctuation that ends its clause; what a password may end with (!) stays masked.
func TestProsePunctuationKept(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tt := range []struct{ in, want string }{
		{"my password is Xy7pass99. Then", "my password is [redacted:password/id-password-pair]. Then"},
		{"The token is Zq8x7Vb2Lm4Nc6Xp1Rt9, keep it safe", "The token is [redacted:password/id-password-pair], keep it safe"},
		{"(the password is Xy7pass99) ok", "(the password is [redacted:password/id-password-pair]) ok"},
		{"login admin:secret99. Next", "login admin:[redacted:password/id-password-pair]. Next"},
		{"password was Spring2024! ok", "password was [redacted:password/id-password-pair] ok"},
		{"mysql -uroot -pXy7pass99; echo done", "mysql -uroot -p[redacted:password/cli-secret-flag]; echo done"},
	} {
		require.Equal(t, tt.want, san.NewSession(SessionHints{}).SanitizeText(tt.in), tt.in)
	}
}

// TestAccountThatIsAWord: an account named with a short English word (will) is masked where it
// stands as an account — a path, an address, id's and ls -l's columns, whoami's line — and
// left as the word in prose; any other account name is masked wherever it is a whole word.
func TestAccountThatIsAWord(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{})
	require.Equal(t, "~/proj/x.go", ss.SanitizeText("/home/will/proj/x.go"))
	for in, want := range map[string]string{
		"I will run the tests now. Will it pass?":           "I will run the tests now. Will it pass?",
		"$ whoami\nwill\n$ id\nuid=501(will) gid=20(staff)": "$ whoami\n[user]\n$ id\nuid=501([user]) gid=20(staff)",
		"-rw-r--r--  1 will  staff  12 Jan  2 10:00 x":      "-rw-r--r--  1 [user]  staff  12 Jan  2 10:00 x",
		"mail will@corp.io and see Users/will/Desktop":      "mail [user]@corp.io and see Users/[user]/Desktop",
	} {
		require.Equal(t, want, ss.SanitizeText(in))
	}
	ss = san.NewSession(SessionHints{})
	ss.SanitizeText("/home/alice/proj/x.go")
	require.Equal(t, "I asked [user] to run it", ss.SanitizeText("I asked alice to run it"))
}

// TestHostThatIsAWord: a machine named with a word (dev, box, work) loses its name where it
// stands as a host — a prompt, an address, a port or a path after it, a local domain,
// hostname's line — and keeps the word in prose and in commands ("npm run dev").
func TestHostThatIsAWord(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{})
	require.Equal(t, "~/proj$ npm run dev", ss.SanitizeText("alice@dev:~/proj$ npm run dev"))
	for in, want := range map[string]string{
		"then npm run dev and the dev server starts; see dev.js": "then npm run dev and the dev server starts; see dev.js",
		"ping dev.local; scp x dev:/tmp; [user]@dev":             "ping [host].local; scp x [host]:/tmp; [user]@[host]",
		"$ hostname\ndev\n$ ls":                                  "$ hostname\n[host]\n$ ls",
	} {
		require.Equal(t, want, ss.SanitizeText(in))
	}
	ss = san.NewSession(SessionHints{MachineName: "Work"})
	require.Equal(t, "work done; ssh [host]:22", ss.SanitizeText("work done; ssh Work:22"))
	ss = san.NewSession(SessionHints{})
	ss.SanitizeText("bob@zephyrine:~$ ls")
	require.Equal(t, "deploy to [host] now", ss.SanitizeText("deploy to zephyrine now"))
}
