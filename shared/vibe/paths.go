package vibe

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// pathRewriter makes the absolute paths in a text safe to show: inside the workspace they
// become workspace-relative, under a home directory they start with ~, and any other
// absolute path keeps only its last segment. URLs and relative paths are left alone.
type pathRewriter struct {
	roots     []pathInfo // workspace roots, parsed
	workspace string     // workspace directory name, when no root is known
	machine   *regexp.Regexp

	mu    sync.RWMutex
	users []string // account names learned from home directories, prompts, ls -l, masked as [user]
	// ciUsers are the accounts of CI agents learned the same way (/home/jenkins): nobody's
	// name, masked only where they stand as an account (ls -l's columns, a path, a prompt)
	ciUsers []string
	hosts   []string // host names learned from shell prompts, masked as [host]
}

func newPathRewriter(h SessionHints) *pathRewriter {
	p := &pathRewriter{workspace: strings.TrimSpace(h.WorkspaceName)}
	if strings.ContainsAny(p.workspace, `/\`) {
		p.workspace = baseName(p.workspace)
	}
	for _, r := range h.WorkspaceRoots {
		info, ok := parsePath(strings.TrimSpace(r))
		if ok && info.kind != kindHomeVar && len(info.segs) > 0 {
			p.roots = append(p.roots, info)
		}
	}
	if m := strings.TrimSpace(h.MachineName); len(m) >= 4 && commonHostName(m) {
		p.learnHost(m) // a word (work, devbox): masked where it stands as a host only
		p.learnHost(strings.ToLower(m))
	} else if len(m) >= 4 {
		p.machine = regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(m) + `\b`)
	}
	// The account is known before any path is seen: from the publisher, and from a
	// workspace root under a home directory (paths inside the workspace are made relative
	// and would never reveal it).
	if a := strings.TrimSpace(h.AccountName); a != "" {
		p.learnUser(a)
	}
	for _, root := range p.roots {
		if rest, ok := homeRest(root); ok {
			p.learnUser(root.segs[len(root.segs)-len(rest)-1])
		}
	}
	return p
}

// pathToken matches something that may be an absolute path, anchored at a candidate start:
// an optional file URI scheme, drive, UNC or home-variable prefix, then separator-delimited
// segments. Separators may be /, \, or their JSON-escaped forms \\ and \/.
var pathToken = regexp.MustCompile(`^(?i:file:/{2,3}|file:)?(?:\\\\[?.]\\[A-Za-z]:|[A-Za-z]:|~[A-Za-z_][A-Za-z0-9_.-]{0,31}|%(?i:userprofile|homepath)%|\$HOME\b|\$\{HOME\}|\\{2,4})?(?:(?:\\\\\\\\|\\\\|\\/|\\|/)[^\s"'<>|*?:;,()\[\]{}\x60\\/]+)+(?:\\\\\\\\|\\\\|\\/|\\|/)?`)

// shellPrompt matches the @host:path$ part of a user@host:path$ prompt (also Raspberry Pi
// OS's user@host:~ $), of the zsh, fish and Fedora forms user@host dir %, user@host ~/dir> and
// [user@host dir]$, the @HOST MINGW64 part of Git for Windows' user@HOST MINGW64 ~/proj (main),
// and the @host ~/dir part of themes that put the sign or the branch after it (oh-my-zsh's
// bira: ╭─user@host ~/proj ‹main›, user@host ~/proj main* ❯).
var shellPrompt = regexp.MustCompile(`^@([A-Za-z0-9._-]{1,253})(?::((?:~|/|[A-Za-z]:)[^\s$#>]*)?(\$|#|>|[ ][$#](?:[ \t]|$))| ((?:~|/)[^\s$#%>]*|[\w.-]{1,64})\]?[ ]?(%|\$|#|>)(?:[ \t]|$)| (MINGW64|MINGW32|MSYS|UCRT64|CLANG64|CLANGARM64) | ((?:~|/)[^\s$#%>]*)(?:[ \t\r\n]|$))`)

func (p *pathRewriter) rewrite(text string) string {
	p.learnAccounts(text)
	if !strings.ContainsAny(text, `/\%$`) {
		return p.maskMachine(text)
	}
	if strings.IndexByte(text, '@') >= 0 {
		text = p.rewritePrompts(text)
	}
	if strings.Contains(text, "%3A/") || strings.Contains(text, "%3a/") {
		text = encodedDrive.ReplaceAllString(text, "$1:/$2/") // file:///c%3A/Users/alice/…: read as c:/Users/alice/…
	}
	if strings.Contains(text, "://file") || strings.Contains(text, "cci:") || strings.Contains(text, "://vscode-remote") ||
		strings.Contains(text, "?file=") || strings.Contains(text, "?url=") || strings.Contains(text, "?filename=") {
		text = editorLink.ReplaceAllString(text, "")
	}
	if strings.Contains(text, "%2F") || strings.Contains(text, "%2f") || strings.Contains(text, "%5C") || strings.Contains(text, "%5c") || strings.Contains(text, `\u002f`) || strings.Contains(text, `\u002F`) || strings.Contains(text, `\\/`) {
		text = encodedHome.ReplaceAllStringFunc(text, func(m string) string {
			p.learnUser(strings.ReplaceAll(encodedHome.FindStringSubmatch(m)[1], "%20", " "))
			return "~"
		})
	}
	urls := findURLs(text)
	for _, u := range urls {
		p.learnFromLocalURL(text[u[0]:u[1]])
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '/' && c != '\\' && c != '%' && c != '$' {
			continue // the only bytes pathCandidate starts at
		}
		start, ok := pathCandidate(text, i)
		if !ok || start < last || insideAny(urls, start) {
			continue
		}
		tok := text[start:tokenEnd(text, start)]
		if !hasPathSegment(tok) {
			continue
		}
		loc := pathToken.FindStringIndex(tok)
		if loc == nil {
			continue
		}
		end := escapedEnd(text, start, start+loc[1])
		end = spacedSegmentEnd(text, start, shellEscapedEnd(text, start, end))
		if webReference(text, start) && p.sitePath(text[start:end]) {
			i = end - 1
			continue // <img src="/img/adapters/dgraph.svg">, [x](/docs/a.md): a site's path
		}
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[last:start])
		if afterPlaceholderDir(text, start) {
			b.WriteString(p.rewriteAfterPlaceholder(text[start:end]))
		} else if out := p.rewritePath(text[start:end]); end < len(text) && text[end] == '[' && strings.IndexByte(`/\\`, text[end-1]) >= 0 && !strings.HasSuffix(out, text[end-1:end]) {
			b.WriteString(out + text[end-1:end]) // …\notes\[id]\route.ts: the separator before a route's parameter stays
		} else {
			b.WriteString(out)
		}
		last = end
		i = end - 1
	}
	if last == 0 {
		return p.maskMachine(text)
	}
	b.WriteString(text[last:])
	return p.maskMachine(b.String())
}

// tokenEnd returns the position of the first blank at or after i, or len(text): no path
// token holds one, and an anchored match run on the rest of a 4 KB text costs the regexp
// engine a bitmap as long as the rest at every candidate.
func tokenEnd(text string, i int) int {
	for ; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t', '\n', '\r', '\f':
			return i
		}
	}
	return i
}

// editorLink matches the scheme part of editor and IDE links to local files
// (cci:1://file:///…, vscode://file/…, cursor://file/…, idea://open?file=/…,
// txmt://open?url=file://…): dropping it leaves the path, which is rewritten like any other.
var editorLink = regexp.MustCompile(`(?i)\b(?:cci:\d+://|(?:vscode(?:-insiders)?|vscodium|cursor|windsurf|zed|trae|kiro)://(?:file|vscode-remote/[^/\s]+)|(?:idea|pycharm|webstorm|goland|phpstorm|rubymine|clion|rider|fleet)://open\?file=|(?:txmt|subl|mvim)://open/?\?url=|atom://core/open/file\?filename=)`)

// pathCandidate reports whether an absolute path may begin at or just before i, and where.
// Candidates are separators, drive letters, file URIs and home variables not inside a word.
func pathCandidate(text string, i int) (int, bool) {
	c := text[i]
	switch {
	case c == '/' || c == '\\':
		if i >= 2 && text[i-1] == ':' && isLetter(text[i-2]) && pathStart(text, i-2) && (i < 3 || text[i-3] != '%') {
			return i - 2, true // C:\ or C:/; %v:\n is a format verb, a colon and an escape
		}
		if i >= 5 && c == '/' && strings.EqualFold(text[i-5:i], "file:") && pathStart(text, i-5) {
			return i - 5, true
		}
		if c == '\\' && escapeAt(text, i) {
			return 0, false // \n, \t, \" of JSON- or C-escaped text: no separator
		}
		if c == '/' && i > 0 && text[i-1] == '<' {
			return 0, false // </root>, </home>: a closing tag, not root's home
		}
		if c == '/' && i > 0 && isWordByte(text[i-1]) {
			if t, ok := tildeUser(text, i); ok {
				return t, true
			}
		}
		return i, pathStart(text, i)
	case c == '%' || c == '$':
		rest := text[i:]
		for _, v := range []string{"%USERPROFILE%", "%HOMEPATH%", "$HOME", "${HOME}"} {
			if len(rest) > len(v) && strings.EqualFold(rest[:len(v)], v) && (rest[len(v)] == '/' || rest[len(v)] == '\\') {
				return i, pathStart(text, i)
			}
		}
	}
	return 0, false
}

// findURLs returns the spans of URLs of any scheme but file, which are never rewritten.
func findURLs(text string) [][]int {
	var spans [][]int
	for from := 0; ; {
		k := strings.Index(text[from:], "://")
		if k < 0 {
			return spans
		}
		k += from
		start := k
		for start > 0 && (isLetter(text[start-1]) || text[start-1] >= '0' && text[start-1] <= '9' || strings.IndexByte("+.-", text[start-1]) >= 0) {
			start--
		}
		end := k + 3
		for end < len(text) && !strings.ContainsRune(" \t\r\n\"'<>\x60", rune(text[end])) {
			end++
		}
		if start < k && !strings.EqualFold(text[start:k], "file") {
			spans = append(spans, []int{start, end})
		}
		from = end
	}
}

// learnFromLocalURL learns the account of a home directory in the path of a URL that names
// this machine's files: one on a local address (a notebook server's
// http://localhost:8888/tree/home/alice/…) or of a file transfer or remote shell
// (sftp://host/home/alice/…). URLs are not rewritten, but the account, once learned, is
// masked in them as anywhere else.
func (p *pathRewriter) learnFromLocalURL(u string) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return
	}
	host, path, _ := strings.Cut(rest, "/")
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if h, _, ok := strings.Cut(host, ":"); ok && !strings.HasPrefix(host, "[") {
		host = h
	}
	scheme, host = strings.ToLower(scheme), strings.ToLower(host)
	if !slices.Contains([]string{"sftp", "scp", "ssh", "ftp", "ftps", "smb", "rsync", "vscode-remote"}, scheme) &&
		!(host == "localhost" || strings.HasPrefix(host, "127.") || host == "0.0.0.0" || strings.HasPrefix(host, "[::1]") || strings.HasSuffix(host, ".local")) {
		return
	}
	for _, dir := range []string{"home/", "Users/"} {
		for from := 0; ; {
			i := strings.Index(path[from:], dir)
			if i < 0 {
				break
			}
			i += from
			from = i + len(dir)
			if i > 0 && path[i-1] != '/' {
				continue
			}
			if name, _, ok := strings.Cut(path[from:], "/"); ok && name != "" && !strings.ContainsAny(name, "?#&=") {
				p.learnUser(name)
			}
		}
	}
}

// rewritePrompts turns user@host:path$ shell prompts into path$, learning the account and
// host names.
func (p *pathRewriter) rewritePrompts(text string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '@' {
			continue
		}
		m := shellPrompt.FindStringSubmatchIndex(text[i:])
		if m == nil {
			continue
		}
		user := i
		for user > last && (isWordByte(text[user-1]) || text[user-1] == '.' || text[user-1] == '-') {
			user--
		}
		if user == i {
			continue
		}
		zsh, msys, bare := m[8] >= 0, m[12] >= 0, m[14] >= 0
		if bare && (!isLetter(text[i+1]) || strings.IndexByte(text[i+m[2]:i+m[3]], '.') >= 0) {
			// npm@10.8.2 /usr/local/lib/node_modules/npm: a package's version and its folder;
			// git@github.com ~/x, an address: these themes show the host's first label only.
			continue
		}
		if zsh || msys || bare {
			// These forms need the prompt to open its line (after an optional [, (venv) or a
			// theme's box-drawing corner).
			ls := strings.LastIndexByte(text[:user], '\n') + 1
			head := strings.TrimLeft(openedLine(text[ls:user]), "╭┌─ ")
			if head != "" && head != "[" && !(strings.HasPrefix(head, "(") && strings.HasSuffix(head, ")")) {
				continue
			}
			if dir := text[i+m[8] : i+m[9]]; zsh && text[i+m[10]] == '>' && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") {
				continue // fish's user@host ~/dir> shows a path; a word and > is not a prompt
			}
		}
		if containerID(text[i+m[2] : i+m[3]]) {
			continue // redpanda@1add2615774b:/app$: a container's shell, its account the image's
		}
		p.learnUser(text[user:i])
		p.learnHost(text[i+m[2] : i+m[3]])
		var path, sign string
		switch {
		case bare:
			path = p.rewritePath(text[i+m[14] : i+m[15]])
		case msys:
			sign = text[i+m[12] : i+m[13]] // the environment's name stays, its path follows
		case zsh:
			path, sign = text[i+m[8]:i+m[9]], text[i+m[10]:i+m[11]]
			if strings.HasPrefix(path, "/") || strings.HasPrefix(path, "~") {
				path = p.rewritePath(path)
			}
			if user > 0 && text[user-1] == '[' {
				user--
			}
		default:
			if m[4] >= 0 {
				path = p.rewritePath(text[i+m[4] : i+m[5]])
			}
			sign = text[i+m[6] : i+m[7]]
		}
		b.WriteString(text[last:user])
		b.WriteString(path)
		if zsh && sign != ">" {
			b.WriteByte(' ')
		}
		b.WriteString(sign)
		last = i + m[1]
		if bare {
			last = i + m[15] // what follows the path is the theme's own: its branch, its sign
		}
		if (zsh || msys) && last > 0 && (text[last-1] == ' ' || text[last-1] == '\t') {
			last--
		}
		i = last - 1
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// openedLine returns what opens a line before a position, given the text from the last line
// break: blanks trimmed, and with the line broken by a JSON string's escape (\n), opened by a
// JSON string's quote ({"output":"…) or numbered by a gutter (12→) read from there on.
func openedLine(head string) string {
	if k := strings.LastIndex(head, `\n`); k >= 0 {
		head = head[k+2:]
	}
	if h, ok := jsonStringHead(head); ok {
		head = h
	} else if t := strings.TrimRight(head, `\"`); t != head && strings.HasSuffix(strings.TrimRight(t, " \t"), ":") && strings.HasSuffix(head, `"`) {
		head = "" // {\"result\":\"…: a member's string opening, escaped in a string itself
	}
	head = strings.TrimSpace(head)
	if g := gutterEnd(head); g > 0 {
		head = strings.TrimSpace(head[g:])
	}
	return head
}

// learnAccounts learns account names from command output that shows them: the owner of
// ls -l lines, id's uid=501(name) and stat's Uid: ( 501/ name).
// personalMachine matches the name macOS, Windows and laptop installers give a person's
// machine from its owner's name: alices-macbook-pro.local, Alices-MBP, bobs-imac.lan,
// carol-thinkpad. Learned as a host, it is masked wherever it occurs.
var personalMachine = regexp.MustCompile(`(?i)\b[a-z0-9][a-z0-9'-]{1,40}-(?:macbook(?:-pro|-air)?|mbp|mba|imac(?:-pro)?|mac-?mini|mac-?studio|laptop|thinkpad)(?:-\d{1,3})?(?:\.(?:local|lan|home|localdomain))?\b`)

// personalMachineWords gate personalMachine: one of them, in any case, is in every match.
var personalMachineWords = []string{"macbook", "mbp", "mba", "imac", "mac-mini", "macmini", "mac-studio", "macstudio", "laptop", "thinkpad"}

// machineAdjectives open compounds of prose, not a machine's name: a gaming-laptop, a
// work-laptop, my-macbook.
var machineAdjectives = []string{"a", "an", "the", "my", "your", "our", "his", "her", "their", "gaming", "work", "old", "new",
	"dev", "test", "build", "office", "home", "school", "company", "personal", "spare", "main", "cheap", "budget",
	"business", "student", "thin", "windows", "linux", "intel", "m1", "m2", "m3", "m4", "apple", "ci", "remote", "local", "any",
	// makers and product lines: legion-laptop is a driver, xps-laptop a model
	"legion", "lenovo", "dell", "hp", "asus", "acer", "msi", "razer", "framework", "surface", "samsung", "huawei", "xiaomi",
	"alienware", "omen", "zenbook", "vivobook", "ideapad", "yoga", "xps", "latitude", "precision", "elitebook", "probook",
	"rog", "tuf", "predator", "system76", "tuxedo", "clevo", "gigabyte", "lg", "toshiba", "sony", "chromebook", "pinebook"}

func hasPersonalMachine(text string) bool {
	for from := 0; ; {
		k := strings.IndexByte(text[from:], '-')
		if k < 0 {
			return false
		}
		i := from + k
		from = i + 1
		if i+3 > len(text) || strings.IndexByte("mMiIlLtT", text[i+1]) < 0 {
			continue
		}
		rest := text[i+1 : min(len(text), i+12)]
		for _, w := range personalMachineWords {
			if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
				return true
			}
		}
	}
}

// accountCommand matches a command that prints the account name and the line it printed:
// whoami (Windows prints DOMAIN\name), id -un, echo $USER, $env:USERNAME, %USERNAME%.
var accountCommand = regexp.MustCompile(`(?m)\b(?:whoami|id -un|id -u -n|echo \$USER|echo \$\{USER\}|echo \$env:USERNAME|echo %USERNAME%)[ \t]*(?:\r?\n|\\+(?:r\\+)?n)+(?:[A-Za-z0-9_.-]+(?:\\\\|\\))?([A-Za-z_][A-Za-z0-9_.-]{2,31})[ \t]*(?:\r?\n|\\+[rn"]|"|$)`)

// accountLine matches a line that names the local account: sudo's prompt, an environment
// dump's USER=, LOGNAME= and USERNAME=, ssh -v's "Authenticated to … as 'name'", and a
// passwd entry as getent and /etc/passwd print it (name:x:1000:1000:…).
var accountLine = regexp.MustCompile(`(?m)\[sudo\] password for ([A-Za-z_][A-Za-z0-9_.-]{2,31}):|(?:^|\\n)(?:USER|LOGNAME|USERNAME)=([A-Za-z_][A-Za-z0-9_.-]{2,31})[ \t\r]*(?:$|\\[rn])|Authenticated to \S+ (?:\(\S+\) )?as '([A-Za-z_][A-Za-z0-9_.-]{2,31})'|(?:^|\\n)([a-z_][a-z0-9_.-]{2,31}):[x*!]:\d+:\d+:`)

// serviceLogin matches what a command line tool prints about the account it is logged in as:
// gh auth status ("Logged in to github.com account octocat (keyring)", before 2.40 "… as
// octocat (…)"), gh auth login ("Logged in as octocat"), and the answer to docker login's or
// npm login's Username: prompt (docker info prints the same line). The service's account is
// the streamer's as much as the local one.
var serviceLogin = regexp.MustCompile(`(?m)Logged in to [a-z0-9.-]+ (?:account|as) ([A-Za-z0-9_][A-Za-z0-9_.-]{1,38})(?:[ \t(]|$|\\[rn])|Logged in as ([A-Za-z0-9_][A-Za-z0-9_.-]{1,38})(?:[ \t(]|$|\\[rn])|(?:^|\\n)[ \t]*Username: ([A-Za-z0-9][A-Za-z0-9_.-]{1,63})[ \t\r]*(?:$|\\[rn])`)

// kaliPrompt matches the user and host of Kali Linux's two-line zsh prompt: ┌──(user㉿host)-[~/dir].
var kaliPrompt = regexp.MustCompile(`\(([A-Za-z_][A-Za-z0-9_.-]{1,31})㉿([A-Za-z0-9][A-Za-z0-9.-]{0,62})\)`)

// hasServiceLogin gates serviceLogin: gh's line, or a registry login's Username: prompt.
func hasServiceLogin(text string) bool {
	return strings.Contains(text, "Logged in ") || registryLogin(text)
}

// registryLogin reports a Username: line of docker login, docker info or npm login, where it
// is the account's; elsewhere (a README's test user, a form) it is not read.
func registryLogin(text string) bool {
	return strings.Contains(text, "Username: ") && (strings.Contains(text, "docker login") || strings.Contains(text, "docker info") ||
		strings.Contains(text, "npm login") || strings.Contains(text, "Login Succeeded"))
}

func hasAccountLine(text string) bool {
	return strings.Contains(text, "sudo] password for") || strings.Contains(text, "USER=") || strings.Contains(text, "LOGNAME=") ||
		strings.Contains(text, "Authenticated to") || strings.Contains(text, ":x:")
}

// envDump reports the output of env or printenv, where USER= is the account: it lists the
// login's own variables beside it. A .env file's USERNAME= is a service's account.
func envDump(text string) bool {
	return strings.Contains(text, "LOGNAME=") || strings.Contains(text, "SHELL=") || strings.Contains(text, "HOME=/")
}

// ownersDevice matches the name macOS gives a computer from its owner's first name (Taran's
// MacBook Pro, as scutil --get ComputerName, the Finder and AirDrop show it).
var ownersDevice = regexp.MustCompile(`\b[A-Z][A-Za-z-]{1,30}(?:'|’)s (?:MacBook(?: Pro| Air)?|iMac(?: Pro)?|Mac mini|Mac Studio|Mac Pro|iPhone|iPad)\b`)

// hasOwnersDevice gates ownersDevice: a possessive and the device's name, by substring
// searches (the expression has no literal prefix to find its starts by).
func hasOwnersDevice(text string) bool {
	if !strings.Contains(text, "Mac") && !strings.Contains(text, "iPhone") && !strings.Contains(text, "iPad") {
		return false
	}
	return strings.Contains(text, "'s ") || strings.Contains(text, "’s ")
}

// processRow matches a row of a process table and its owner: ps aux (USER PID %CPU %MEM),
// ps -ef (UID PID PPID C) and top or htop (PID USER PR NI). ps cuts a long name to seven
// characters and a +, which is left alone.
var processRow = regexp.MustCompile(`(?m)(?:^|\\n)[ \t]*(?:([A-Za-z_][A-Za-z0-9_.-]{2,31})[ \t]+\d+[ \t]+(?:\d+\.\d+[ \t]+\d+\.\d|\d+[ \t]+\d+[ \t])|\d+[ \t]+([A-Za-z_][A-Za-z0-9_.-]{2,31})[ \t]+(?:\d+|rt)[ \t]+-?\d+[ \t])`)

// loginRow matches a row of who, w and last: the account, then its terminal.
var loginRow = regexp.MustCompile(`(?m)(?:^|\\n)([A-Za-z_][A-Za-z0-9_.-]{2,31})[ \t]+(?:pts/\d+|tty[A-Za-z]?\d+|console|:\d+)[ \t]`)

// hasProcessTable reports the header of a process table: PID beside USER or UID.
func hasProcessTable(text string) bool {
	i := strings.Index(text, "PID")
	return i >= 0 && (strings.Contains(text, "USER") || strings.Contains(text, "UID "))
}

// loginLines returns up to max lines of text that hold a terminal name as who, w and last
// print it (pts/0, tty1, console), for loginRow to read one at a time: the expression has no
// literal to find its starts by.
func loginLines(text string, limit int) []string {
	var lines []string
	for _, term := range []string{" pts/", " tty", " console "} {
		for from := 0; len(lines) < limit; {
			k := strings.Index(text[from:], term)
			if k < 0 {
				break
			}
			i := from + k
			ls := strings.LastIndexByte(text[:i], '\n') + 1
			if e := strings.LastIndex(text[:i], `\n`); e >= 0 && e+2 > ls {
				ls = e + 2 // a JSON string's escaped line break
			}
			le := len(text)
			if e := strings.IndexByte(text[i:], '\n'); e >= 0 {
				le = i + e
			}
			if e := strings.Index(text[i:], `\n`); e >= 0 && i+e < le {
				le = i + e
			}
			lines = append(lines, text[ls:le])
			from = le
		}
	}
	return lines
}

// serviceAccounts are the accounts daemons run as on Linux and macOS: a process table or a
// login list shows them beside the streamer's, and they say nothing about the streamer.
var serviceAccounts = []string{
	"avahi", "colord", "gdm", "sddm", "lightdm", "syslog", "messagebus", "polkitd", "rtkit", "kernoops",
	"whoopsie", "dnsmasq", "ntp", "chrony", "uuidd", "usbmux", "pulse", "geoclue", "cups", "mail", "news",
	"uucp", "proxy", "backup", "list", "irc", "gnats", "sshd", "tss", "tcpdump", "saned", "hplip", "statd",
	"unbound", "postfix", "dovecot", "nginx", "apache", "httpd", "mongodb", "elasticsearch", "grafana",
	"prometheus", "rabbitmq", "memcache", "zabbix", "tomcat", "nscd", "landscape", "pollinate", "qemu",
	"dbus", "ollama", "caddy", "containerd", "snapd", "lxd", "epmd", "redis", "mysql", "postgres", "netdata",
	"clickhouse", "kafka", "zookeeper", "haproxy", "squid", "bind", "named", "openldap", "ldap", "vault",
	"consul", "nomad", "minio", "influxdb", "telegraf", "jellyfin", "plex", "transmission", "debian-tor",
	"speech-dispatcher", "fwupd-refresh", "nm-openvpn", "libvirt-qemu", "libvirt-dnsmasq", "systemd-network",
	"systemd-resolve", "systemd-timesync", "systemd-oom", "systemd-coredump", "cockpit-ws", "gnome-initial-setup",
	"USER", "UID", "PID",
}

// learnLoginAccount learns the owner of a process or a login: not a daemon's account
// (those of macOS begin with _, systemd's with systemd-) nor a name ps cut short.
func (p *pathRewriter) learnLoginAccount(u string) {
	if strings.HasPrefix(u, "_") || strings.HasPrefix(u, "systemd-") || strings.HasSuffix(u, "+") ||
		slices.Contains(serviceAccounts, strings.ToLower(u)) || slices.Contains(serviceAccounts, u) {
		return
	}
	p.learnUser(u)
}

// encodedHome matches a home directory percent-encoded in a URL's query or an editor link
// (?path=%2FUsers%2Falice%2Fproj, file%3A%2F%2F%2Fhome%2Falice, a Windows path's
// C%3A%5CUsers%5Calice), or with its slashes escaped in JSON as \u002f or escaped twice, as
// JSON quoted inside JSON writes them (\\/Users\\/alice): the account goes with it.
var encodedHome = regexp.MustCompile(`(?i)(?:(?:[a-z]%3A)?%5C(?:home|Users)%5C|%2F(?:home|Users)%2F|\\u002f(?:home|Users)\\u002f|\\{2,}/(?:home|Users)\\{2,}/)([A-Za-z0-9._-]{1,64}|[A-Za-z0-9._-]{1,64}%20[A-Za-z0-9._-]{1,64})`)

// encodedDrive matches a Windows drive whose colon a URL percent-encodes before a home's root
// (file:///c%3A/Users/alice/…, as VS Code's Copilot links a file it read).
var encodedDrive = regexp.MustCompile(`(?i)\b([a-z])%3A/(Users|home)/`)

// relativeHome matches a home directory whose root was cut off, as tar, zip and rsync list
// one (Users/alice/Desktop/…, home/alice/.config/…): the account is learned when one of the
// directories every home has follows it, so that a route such as Users/Edit/5 teaches nothing.
var relativeHome = regexp.MustCompile(`(?:^|[\s"'(=:]|\./|\.\./)(?:Users|home)/([A-Za-z0-9._-]{3,32})/(?:Desktop|Documents|Downloads|Library|Pictures|Music|Movies|Sites|Developer|Projects|projects|src|code|dev|repos|git|github|workspace|go|\.config|\.local|\.ssh|\.cache|\.bashrc|\.zshrc|\.profile|\.npm|\.cargo)\b`)

// agentProjectDir matches the folder a coding agent names after a project's path, its
// separators turned into hyphens: Claude Code's ~/.claude/projects/-Users-alice-src-app (and
// its scratch folder Temp/claude/C--Users-alice-app, a WSL home's -mnt-c-Users-alice-…),
// Cursor's ~/.cursor/projects/Users-alice-app. The account is the part after Users or home;
// one whose name had a hyphen or a dot is learned by its first part.
var agentProjectDir = regexp.MustCompile(`(?:\.claude[/\\]{1,4}projects|(?:^|[/\\])claude(?:-\d+)?)[/\\]{1,4}(?:-mnt-[a-z]-|[A-Za-z]--|-)(?:Users|home)-([A-Za-z0-9_]{3,32})(?:$|[-/\\"'\s])|\.cursor[/\\]{1,4}projects[/\\]{1,4}-?(?:Users|home)-([A-Za-z0-9_]{3,32})(?:$|[-/\\"'\s])`)

// rootlessHome gates relativeHome: Users/ or home/ not after a / (an absolute path, which
// the path rewriter reads) unless after ./ or ../, nor inside a word.
func rootlessHome(text string) bool {
	for _, dir := range []string{"Users/", "home/"} {
		for from := 0; ; {
			i := strings.Index(text[from:], dir)
			if i < 0 {
				break
			}
			i += from
			if i == 0 || text[i-1] != '/' && !isWordByte(text[i-1]) || i >= 2 && text[i-1] == '/' && text[i-2] == '.' {
				return true
			}
			from = i + len(dir)
		}
	}
	return false
}

func (p *pathRewriter) learnAccounts(text string) {
	if rootlessHome(text) {
		for _, m := range relativeHome.FindAllStringSubmatch(text, 4) {
			p.learnUser(m[1])
		}
	}
	if strings.Contains(text, "Users-") || strings.Contains(text, "home-") {
		for _, m := range agentProjectDir.FindAllStringSubmatch(text, 4) {
			p.learnUser(m[1] + m[2])
		}
	}
	if strings.Contains(text, "whoami") || strings.Contains(text, "USER") || strings.Contains(text, "id -u") {
		for _, m := range accountCommand.FindAllStringSubmatch(text, 4) {
			p.learnUser(m[1])
		}
	}
	if hasPersonalMachine(text) {
		for _, m := range personalMachine.FindAllString(text, 4) {
			if first, _, _ := strings.Cut(m, "-"); slices.Contains(machineAdjectives, strings.ToLower(first)) {
				continue
			}
			p.learnHost(m)
			if base, _, ok := strings.Cut(m, "."); ok {
				p.learnHost(base) // alices-macbook-pro.local is also alices-macbook-pro
			}
		}
	}
	if hasLsLine(text) {
		for _, m := range lsLong.FindAllStringSubmatch(text, 8) {
			p.learnUser(m[2])
		}
	}
	if hasAccountLine(text) {
		for _, m := range accountLine.FindAllStringSubmatch(text, 8) {
			if name := m[1] + m[2] + m[3] + m[4]; m[2] == "" || envDump(text) {
				p.learnUser(name)
			}
		}
	}
	if strings.Contains(text, "㉿") {
		// Kali's zsh prompt: ┌──(user㉿host)-[~/dir]
		for _, m := range kaliPrompt.FindAllStringSubmatch(text, 4) {
			p.learnUser(m[1])
			p.learnHost(m[2])
		}
	}
	if hasServiceLogin(text) {
		for _, m := range serviceLogin.FindAllStringSubmatch(text, 4) {
			if m[3] == "" || registryLogin(text) {
				p.learnUser(m[1] + m[2] + m[3])
			}
		}
	}
	if hasOwnersDevice(text) {
		for _, m := range ownersDevice.FindAllString(text, 4) {
			p.learnHost(m)
		}
	}
	if hasProcessTable(text) {
		for _, m := range processRow.FindAllStringSubmatch(text, 64) {
			p.learnLoginAccount(m[1] + m[2])
		}
	}
	for _, line := range loginLines(text, 16) {
		if m := loginRow.FindStringSubmatch(line); m != nil {
			p.learnLoginAccount(m[1])
		}
	}
	if hasIDOutput(text) {
		for _, m := range idOutput.FindAllStringSubmatch(text, 8) {
			if strings.HasPrefix(strings.ToLower(m[0]), "uid") || strings.HasPrefix(strings.ToLower(m[0]), "euid") {
				p.learnUser(m[1] + m[2])
			}
		}
	}
}

// containerID reports a host name that is a container's id as Docker and Podman set it: 12
// hexadecimal digits (or the full 64).
func containerID(h string) bool {
	return (len(h) == 12 || len(h) == 64) && isHex(h) && strings.ToLower(h) == h && strings.ContainsAny(h, "0123456789")
}

func (p *pathRewriter) learnHost(h string) {
	h = strings.TrimSpace(h)
	if len(h) < 3 || slices.Contains([]string{"localhost", "ubuntu", "debian", "raspberrypi", "server", "host"}, strings.ToLower(h)) || isDigits(strings.ReplaceAll(h, ".", "")) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.hosts, h) && len(p.hosts) < maxLearnedUsers {
		p.hosts = append(slices.Clip(p.hosts), h)
	}
}

// maskMachine masks the session's machine name as [host] and the user names learned from
// home directories as [user], as whole words.
func (p *pathRewriter) maskMachine(text string) string {
	if p.machine != nil {
		text = p.machine.ReplaceAllString(text, "[host]")
	}
	p.mu.RLock()
	users, hosts, ci := p.users, p.hosts, p.ciUsers
	p.mu.RUnlock()
	for _, u := range ci {
		text = replaceNameAt(text, u, "[user]", ciAccountPosition)
	}
	for _, h := range hosts {
		if commonHostName(h) {
			text = replaceNameAt(text, h, "[host]", hostPosition)
		} else {
			text = replaceWord(text, h, "[host]")
		}
	}
	for _, u := range users {
		if len(u) <= 4 && dictWord(u) {
			text = replaceNameAt(text, u, "[user]", accountPosition)
		} else {
			text = replaceWord(text, u, "[user]")
		}
	}
	return text
}

// replaceNameAt masks the whole-word occurrences of w that at accepts. With accountPosition
// it masks an account name that is also a short English word, of the kind
// prose is full of (will, may, mark, max, art), only where it stands as an account: in a path
// or an address (after / \ ~ @ or before @ / \), in id's uid=501(will), alone on its line
// (what whoami printed) and on a line of ls -l. In prose it is the word ("I will run the
// tests"). A longer name (carol, grace) is masked wherever it is a whole word.
func replaceNameAt(s, w, repl string, at func(s string, i, end int) bool) string {
	var b strings.Builder
	last := 0
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			break
		}
		i += from
		end := i + len(w)
		from = end
		if i > 0 && isWordByte(s[i-1]) && !escapeLetterBefore(s, i) || end < len(s) && isWordByte(s[end]) || !at(s, i, end) {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(repl)
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// escapeLetterBefore reports a JSON string's escape right before i (\nname, \tname): its
// letter ends a word as the line break or tab it stands for does.
func escapeLetterBefore(s string, i int) bool {
	return i >= 2 && s[i-2] == '\\' && strings.IndexByte("ntr", s[i-1]) >= 0
}

// commonHostName reports a machine name that is also a word of prose or of a project's own
// vocabulary (dev, box, work, web, db, staging): masked where it stands as a host, not in
// "npm run dev".
func commonHostName(h string) bool {
	return len(h) <= 6 && dictWord(h) || slices.Contains(genericHosts, strings.ToLower(h))
}

var genericHosts = []string{"dev", "devbox", "prod", "staging", "stage", "test", "demo", "web", "app", "api", "db", "box", "vm",
	"pi", "mac", "pc", "work", "home", "main", "build", "ci", "sandbox", "workstation", "desktop", "laptop", "local", "node",
	"worker", "master", "primary", "backup", "router", "gateway", "proxy", "cache", "storage", "nas", "macbook", "imac",
	// distributions' default host names
	"kali", "parrot", "raspberrypi", "ubuntu", "debian", "fedora", "archlinux", "localhost"}

// hostPosition accepts a host name after @ or [ (a prompt, an address), before a : that a path
// or a port follows (dev:~/x, dev:22), before a local domain (dev.local, box.lan; not dev.js),
// or alone on its line (what hostname printed).
func hostPosition(s string, i, end int) bool {
	var before, after byte = '\n', '\n'
	if i > 0 {
		before = s[i-1]
	}
	if end < len(s) {
		after = s[end]
	}
	next := byte(' ')
	if end+1 < len(s) {
		next = s[end+1]
	}
	switch {
	case before == '@' || before == '[':
		return true
	case after == ':' && next != ' ' && next != '\n' && next != '\t':
		return true
	case after == '.':
		for _, d := range []string{".local", ".lan", ".home", ".internal", ".localdomain"} {
			if strings.HasPrefix(s[end:], d) && (end+len(d) == len(s) || !isWordByte(s[end+len(d)])) {
				return true
			}
		}
	}
	return before == '\n' && (after == '\n' || after == '\r')
}

// ciAccountPosition accepts a CI agent's account where it stands as one: an ls -l line's
// owner and group, id's uid=…(jenkins), a prompt's jenkins@host; not a host name or a path
// (jenkins.corp.io, /var/lib/jenkins), where the word names the service.
func ciAccountPosition(s string, i, end int) bool {
	var before, after byte = '\n', '\n'
	if i > 0 {
		before = s[i-1]
	}
	if end < len(s) {
		after = s[end]
	}
	if before == '(' && after == ')' || after == '@' && (before == ' ' || before == '\n' || before == '\t') {
		return true
	}
	return isLsMode(s[strings.LastIndexByte(s[:i], '\n')+1:])
}

func accountPosition(s string, i, end int) bool {
	var before, after byte = '\n', '\n'
	if i > 0 {
		before = s[i-1]
	}
	if end < len(s) {
		after = s[end]
	}
	switch {
	case strings.IndexByte(`/\~@`, before) >= 0, strings.IndexByte(`@/\`, after) >= 0, before == '(' && after == ')':
		return true
	case before == '\n' && (after == '\n' || after == '\r'):
		return true
	case before == '-' && (strings.HasSuffix(s[:i-1], "Users") || strings.HasSuffix(s[:i-1], "home")):
		return true // an agent's folder named after a project's path (-Users-will-src-app)
	}
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	if isLsMode(s[ls:]) {
		return true
	}
	// The owner column of a process table or a login list (will  4242  0.0  0.1 …).
	le := len(s)
	if k := strings.IndexByte(s[end:], '\n'); k >= 0 {
		le = end + k
	}
	for _, re := range []*regexp.Regexp{processRow, loginRow} {
		m := re.FindStringSubmatchIndex(s[ls:le])
		for g := 2; m != nil && g+1 < len(m); g += 2 {
			if m[g] >= 0 && ls+m[g] == i {
				return true
			}
		}
	}
	return false
}

// genericUsers are account names that say nothing about the streamer and are common words.
var genericUsers = []string{
	"admin", "administrator", "app", "build", "builder", "default", "dev", "developer", "docker",
	"ec2-user", "git", "guest", "home", "node", "public", "root", "runner", "shared", "test",
	"ubuntu", "user", "users", "vagrant", "vscode", "www", "www-data", "codespace", "debian",
	"linuxbrew", // Homebrew on Linux: /home/linuxbrew/.linuxbrew
}

const maxLearnedUsers = 16

// ciAccounts are the accounts CI agents run as.
var ciAccounts = []string{"jenkins", "circleci", "travis", "gitlab-runner", "buildkite-agent", "teamcity", "bamboo", "gocd"}

func (p *pathRewriter) learnUser(u string) {
	if slices.Contains(ciAccounts, u) {
		p.mu.Lock()
		if !slices.Contains(p.ciUsers, u) {
			p.ciUsers = append(slices.Clip(p.ciUsers), u)
		}
		p.mu.Unlock()
		return
	}
	if len(u) < 3 || slices.Contains(genericUsers, strings.ToLower(u)) || slices.Contains(genericAccounts, strings.ToLower(u)) ||
		strings.ContainsAny(u, "%$~[]{}()") || isDigits(u) || strings.Contains(u, Ellipsis) || strings.IndexFunc(u, unicode.IsLetter) < 0 {
		return // /home/… cut short by a summary's ellipsis names no account: every later … would be masked
	}
	if i := strings.LastIndexByte(u, '.'); i >= 3 && windowsProfileSuffix(u[i+1:]) {
		p.learnUser(u[:i]) // C:\Users\carol.CONTOSO: a second profile of carol's, named for its domain
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.users, u) && len(p.users) < maxLearnedUsers {
		p.users = append(slices.Clip(p.users), accountSpellings(u, p.users)...)
	}
}

// windowsProfileSuffix reports what Windows puts after an account's name when its profile
// folder is taken (carol.000, carol.CONTOSO, carol.DESKTOP-7QK2M1): digits, or a domain's or a
// machine's name in capitals.
func windowsProfileSuffix(s string) bool {
	if len(s) < 2 || len(s) > 20 || !isUpperByte(s[0]) && !isDigitByte(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isUpperByte(c) && !isDigitByte(c) && c != '-' {
			return false
		}
	}
	return true
}

// replaceWord replaces whole-word occurrences of w in s.
func replaceWord(s, w, repl string) string {
	return replaceNameAt(s, w, repl, func(string, int, int) bool { return true })
}

// pathStart reports whether a path may start at i: not inside a word or a relative path.
func pathStart(text string, i int) bool {
	if i == 0 || escapeBefore(text, i) {
		return true
	}
	c := text[i-1]
	if c == '\\' && text[i] == '\\' {
		return false // the second of an escaped backslash: src\\app\\a.go, ~\\src in a JSON string
	}
	// Nor after an expansion's closing brace or parenthesis: ${BUILD_DIR}/vendor/x.php,
	// {{ app_root }}/config/x.yml, $(OUT)/bin/tool go on from a directory the expansion names.
	// Nor after a bracket that closes a name written in place of a segment (/home/[USER]/.local,
	// a log's own mark): the path goes on.
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '~' || c == '/' || c == '@' || c == '$' ||
		c == ']' && i >= 2 && (isUpperByte(text[i-2]) || routeParamBefore(text, i-1)) && !homeRooted(text[i:]) ||
		(c == '}' || c == ')') && expansionBefore(text, i-1) && !homeRooted(text[i:]))
}

// routeParamBefore reports a web framework's route parameter closing at end, a folder's
// name in brackets (Next.js' app\api\notes\[id]\print\route.ts, [...nextauth], [[...slug]]):
// the relative path goes on after it.
func routeParamBefore(text string, end int) bool {
	k := end
	for k > 0 && k > end-40 && (isWordByte(text[k-1]) || text[k-1] == '.') {
		k--
	}
	name := strings.TrimLeft(text[k:end], ".")
	return k > 0 && k < end && text[k-1] == '[' && name != "" && isLetter(name[0]) && (k-1 == 0 || text[k-2] == '/' || text[k-2] == '\\' || text[k-2] == '[')
}

// webReference reports a path that an HTML attribute or a Markdown link refers to
// (src="/img/x.svg", href='/docs/', srcset="/a.png", url(/fonts/x.woff), [text](/guide.md)):
// a path on a web site, not on a machine.
func webReference(text string, start int) bool {
	if start >= 2 && (text[start-1] == '(' && (text[start-2] == ']' || strings.HasSuffix(text[:start-1], "url"))) {
		return true
	}
	if start < 2 || text[start-1] != '"' && text[start-1] != '\'' || text[start-2] != '=' {
		return false
	}
	head := strings.ToLower(text[max(0, start-10) : start-2])
	for _, a := range []string{"src", "href", "srcset", "action", "poster", "data", "to"} {
		if strings.HasSuffix(head, " "+a) || strings.HasSuffix(head, "\t"+a) || head == a {
			return true
		}
	}
	return false
}

// sitePath reports a path that says nothing of a machine or its accounts: rooted at a
// directory that is no machine's (machineRoots), no home's nor an account's, outside every
// workspace.
func (p *pathRewriter) sitePath(tok string) bool {
	info, ok := parsePath(tok)
	if !ok || info.kind != kindRoot || len(info.segs) == 0 || slices.Contains(machineRoots, info.segs[0]) {
		return false
	}
	if _, home := homeRest(info); home {
		return false
	}
	if _, account := accountInPath(info); account {
		return false
	}
	_, inside := p.insideWorkspace(info)
	return !inside
}

// homeRooted reports a path that opens with a home directory's root (/home/, /Users/), which
// is rewritten wherever it stands.
func homeRooted(p string) bool {
	return strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/Users/") || strings.HasPrefix(p, "/root/")
}

// expansionBefore reports whether the brace or parenthesis at close ends a variable's
// expansion or a template's action on its line (${X}, $(X), {{ x }}, %(x)).
func expansionBefore(text string, close int) bool {
	ls := strings.LastIndexByte(text[:close], '\n') + 1
	line := text[ls:close]
	if text[close] == ')' {
		i := strings.LastIndexByte(line, '(')
		return i > 0 && (line[i-1] == '$' || line[i-1] == '%') && !strings.ContainsAny(line[i+1:], " \t")
	}
	if i := strings.LastIndex(line, "{{"); i >= 0 && strings.HasSuffix(line, "}") {
		return true
	}
	i := strings.LastIndexByte(line, '{')
	return i > 0 && line[i-1] == '$' && !strings.ContainsAny(line[i+1:], " \t")
}

// tildeUser returns where a ~name prefix ends at the separator at i (cd ~alice/src): the ~ at
// the start of a word (after a blank, a quote, a bracket or :, so not =~ or !~ of a Perl or
// awk match), then a name of an account: a letter or _, then up to 31 letters,
// digits, _, . or -, at least two characters in all.
func tildeUser(text string, i int) (int, bool) {
	j := i
	for j > 0 && i-j <= 32 && (isWordByte(text[j-1]) || text[j-1] == '.' || text[j-1] == '-') {
		j--
	}
	if j == 0 || text[j-1] != '~' || i-j < 2 || !(isLetter(text[j]) || text[j] == '_') {
		return 0, false
	}
	t := j - 1
	if t == 0 {
		return t, true
	}
	switch text[t-1] {
	case ' ', '\t', '\n', '"', '\'', '`', '(', '[', ':':
		return t, true
	}
	return 0, false
}

// escapeAt reports whether the backslash at i opens an escape of JSON- or C-escaped text
// (\n, \t, \r, \b, \f, \", \uXXXX) rather than a separator: it follows an even run of
// backslashes (\\n is an escaped backslash and a letter). A rooted Windows path without a
// drive whose first directory begins with one of those letters (\temp\x) is read as text.
func escapeAt(text string, i int) bool {
	if i+1 >= len(text) || oddBackslashesBefore(text, i) {
		return false
	}
	switch text[i+1] {
	case 'n', 't', 'r', 'b', 'f', '"':
		return true
	case 'u':
		return i+6 <= len(text) && isHex(text[i+2:i+6])
	}
	return false
}

// escapedEnd cuts a path token [start, end) at the first escape (escapeAt) in it, unless the
// path's own separator is a lone backslash (C:\Users\nick is a path, not C:\Users and a
// newline): /home/alice/a.go\n/home/alice/b.go in JSON-escaped text is two paths.
func escapedEnd(text string, start, end int) int {
	first := strings.IndexAny(text[start:end], `/\`)
	if first < 0 {
		return end
	}
	first += start
	if first+2 < end && text[first] == '\\' && text[first+1] == '\\' && text[first+2] != '\\' && !oddBackslashesBefore(text, first) {
		// \\nas01\share\report.pdf: a UNC prefix, then the path's own separators.
		if k := strings.IndexByte(text[first+2:end], '\\'); k >= 0 {
			first += 2 + k
		}
	}
	if text[first] == '\\' && first+1 < end && text[first+1] != '\\' && text[first+1] != '/' {
		return end // separated by lone backslashes
	}
	for j := first + 1; j < end; j++ {
		if text[j] == '\\' && escapeAt(text, j) {
			return j
		}
	}
	return end
}

// escapeBefore reports whether an escape (escapeAt) ends just before i, so that a path may
// start there: "x\n/home/alice/…" holds a path after its newline.
func escapeBefore(text string, i int) bool {
	if i >= 2 && text[i-2] == '\\' && escapeAt(text, i-2) && text[i-1] != 'u' {
		return true
	}
	return i >= 6 && text[i-6] == '\\' && text[i-5] == 'u' && escapeAt(text, i-6)
}

// oddBackslashesBefore reports whether an odd number of backslashes ends just before i.
func oddBackslashesBefore(text string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && text[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func insideAny(spans [][]int, i int) bool {
	for _, s := range spans {
		if i >= s[0] && i < s[1] {
			return true
		}
	}
	return false
}

// Kinds of absolute path.
const (
	kindRoot    = iota // /x/y
	kindDrive          // C:\x
	kindUNC            // \\server\share
	kindHomeVar        // %USERPROFILE%\x, $HOME/x
)

type pathInfo struct {
	kind  int
	drive string   // "C:" for kindDrive
	segs  []string // path segments, without separators
	sep   string   // separator to write back
	file  bool     // was a file:// URI
	user  string   // the account of a ~user prefix (kindHomeVar)
}

// parsePath splits an absolute path; ok is false for anything else.
func parsePath(s string) (pathInfo, bool) {
	var info pathInfo
	if len(s) >= 6 && strings.EqualFold(s[:5], "file:") && s[5] == '/' && (len(s) == 6 || s[6] != '/') {
		info.file = true // file:/Users/a/x.xml, as Java's File.toURI and URL.toString write it
		s = s[5:]
	} else if len(s) >= 7 && strings.EqualFold(s[:7], "file://") {
		info.file = true
		s = s[7:]
		if len(s) >= 3 && s[0] == '/' && s[2] == ':' {
			s = s[1:] // file:///C:/x
		} else if !strings.HasPrefix(s, "/") {
			s = "//" + s // file://server/share
		}
	}
	// A shell escapes a blank with a backslash (/Users/Alice\ Smith/Library/Application\
	// Support): inside a /-rooted path that is part of a name, not a separator.
	shellEscaped := strings.HasPrefix(s, "/") && strings.Contains(s, `\ `)
	if shellEscaped {
		s = strings.ReplaceAll(s, `\ `, "\x00")
	}
	switch body := strings.TrimLeft(s, `\`); {
	case strings.Contains(body, `\\\\`):
		info.sep = `\\\\` // escaped twice: a JSON file's path inside a JSON string
	case strings.Contains(body, `\\`):
		info.sep = `\\`
	case strings.Contains(body, `\/`):
		info.sep = `\/`
	case strings.Contains(body, `\`):
		info.sep = `\`
	default:
		info.sep = "/"
	}
	if len(s) >= 6 && s[0] == '\\' && s[1] == '\\' && (s[2] == '?' || s[2] == '.') && s[3] == '\\' && s[5] == ':' {
		s = s[4:] // \\?\C:\… and \\.\C:\…, Win32's device namespace: a drive path
	}
	lower := strings.ToLower(s)
	switch {
	case s != "" && s[0] == '~':
		// ~alice/src: the home directory of the account alice, the shell's tilde prefix.
		info.kind, info.user = kindHomeVar, s[1:strings.IndexAny(s+"/", `/\`)]
		s = s[len(info.user)+1:]
	case len(s) >= 2 && s[1] == ':' && isLetter(s[0]):
		info.kind, info.drive, s = kindDrive, strings.ToUpper(s[:1])+":", s[2:]
	case strings.HasPrefix(lower, "%userprofile%"), strings.HasPrefix(lower, "%homepath%"):
		info.kind, s = kindHomeVar, s[strings.Index(s[1:], "%")+2:]
	case strings.HasPrefix(s, "${HOME}"):
		info.kind, s = kindHomeVar, s[7:]
	case strings.HasPrefix(s, "$HOME"):
		info.kind, s = kindHomeVar, s[5:]
	case strings.HasPrefix(s, `\\`) && !strings.HasPrefix(s, `\\\`) && info.sep == `\\`:
		// \\Users\\bob\\a.txt: escaped text (JSON, a C or Python string) separates by
		// escaped backslashes, so its two leading ones are one root, not a UNC prefix (which
		// it writes as four).
		info.kind = kindRoot
	case strings.HasPrefix(s, `\\`) || strings.HasPrefix(s, "//"):
		info.kind = kindUNC
	case strings.HasPrefix(s, `\`) || strings.HasPrefix(s, "/"):
		info.kind = kindRoot
	default:
		return info, false
	}
	info.segs = strings.FieldsFunc(strings.ReplaceAll(s, `\/`, "/"), func(r rune) bool { return r == '/' || r == '\\' })
	if shellEscaped {
		for i, seg := range info.segs {
			info.segs[i] = strings.ReplaceAll(seg, "\x00", `\ `)
		}
	}
	return info, true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// systemRoots are top-level directories whose paths are the same on every machine; they
// are left as they are (/usr/bin/env, /dev/null, /etc/hosts).
var systemRoots = []string{"bin", "dev", "etc", "lib", "lib32", "lib64", "proc", "sbin", "sys", "usr"}

// systemSubtree reports a path under /var or /run that is the same on every machine: a
// service's state, logs, web root and caches (/var/lib/mysql, /var/www/html) and the
// secrets a container is given (/run/secrets/db-password); not removable media
// (/run/media/<account>/…).
func systemSubtree(segs []string) bool {
	if len(segs) < 2 {
		return false
	}
	switch segs[0] {
	case "var":
		switch segs[1] {
		case "lib", "log", "www", "run", "cache", "backups":
			return true
		}
	case "run":
		return segs[1] != "media"
	}
	return false
}

// machineRoots are top-level directories whose paths describe one machine.
var machineRoots = []string{
	"Applications", "Library", "Users", "Volumes", "app", "builds", "code", "data", "home", "media",
	"mnt", "nix", "opt", "private", "root", "run", "snap", "src", "srv", "tmp", "var",
	"workspace", "workspaces", "cygdrive", "github", "runner",
}

// rewritePath rewrites one absolute path token.
func (p *pathRewriter) rewritePath(tok string) string {
	info, ok := parsePath(tok)
	if !ok {
		return tok
	}
	if info.kind == kindHomeVar {
		if info.user != "" {
			p.learnUser(info.user)
		}
		return joinPath("~", info.segs, info.sep)
	}
	home, underHome := homeRest(info)
	if underHome {
		p.learnUser(info.segs[len(info.segs)-len(home)-1])
	} else if u, ok := accountInPath(info); ok {
		p.learnUser(u)
	}
	if rest, ok := p.insideWorkspace(info); ok {
		if len(rest) == 0 {
			return "."
		}
		return strings.Join(rest, info.sep)
	}
	if underHome {
		return joinPath("~", home, info.sep)
	}
	if len(info.segs) == 0 || info.kind == kindUNC && len(info.segs) < 2 && !info.file {
		return tok // \\nas alone names a server, no file: nothing to cut (nor \\b of a regex)
	}
	if info.kind == kindRoot && !info.file {
		first := info.segs[0]
		if slices.Contains(systemRoots, first) || len(info.segs) == 1 || systemSubtree(info.segs) {
			return tok
		}
		if !slices.Contains(machineRoots, first) && !strings.Contains(info.segs[len(info.segs)-1], ".") {
			return tok // an URL route such as /api/v1/users, not a file
		}
	}
	return info.segs[len(info.segs)-1]
}

// afterPlaceholderDir reports a path at start that follows a placeholder's angle brackets
// (cd <dir>/src/app, https://…/t/<TOKEN>/main/linux-64/…): a directory the reader fills in,
// so what follows is relative to it, not a path from the root.
func afterPlaceholderDir(text string, start int) bool {
	if start < 3 || text[start-1] != '>' {
		return false
	}
	for j := start - 2; j >= 0 && start-j <= 42; j-- {
		c := text[j]
		if c == '<' {
			return j < start-2
		}
		if !isWordByte(c) && c != '-' && c != '.' {
			return false
		}
	}
	return false
}

// rewriteAfterPlaceholder rewrites a path that follows a placeholder directory: a home or an
// account in it is removed as anywhere (<code>/home/alice/x</code>), any other is kept as
// written, being no absolute path to cut to its last segment.
func (p *pathRewriter) rewriteAfterPlaceholder(tok string) string {
	if info, ok := parsePath(tok); ok && info.kind == kindRoot {
		if _, underHome := homeRest(info); !underHome {
			if _, account := accountInPath(info); !account {
				return tok
			}
		}
	}
	return p.rewritePath(tok)
}

func joinPath(head string, segs []string, sep string) string {
	if len(segs) == 0 {
		return head
	}
	return head + sep + strings.Join(segs, sep)
}

// insideWorkspace returns the path's segments below the workspace root.
func (p *pathRewriter) insideWorkspace(info pathInfo) ([]string, bool) {
	fold := info.kind != kindRoot
	for _, root := range p.roots {
		if root.kind != info.kind || !strings.EqualFold(root.drive, info.drive) || len(info.segs) < len(root.segs) {
			continue
		}
		match := true
		for i, s := range root.segs {
			if !(s == info.segs[i] || fold && strings.EqualFold(s, info.segs[i])) {
				match = false
				break
			}
		}
		if match {
			return info.segs[len(root.segs):], true
		}
	}
	if len(p.roots) == 0 && p.workspace != "" {
		for i, s := range info.segs {
			if s == p.workspace || fold && strings.EqualFold(s, p.workspace) {
				return info.segs[i+1:], true
			}
		}
	}
	return nil, false
}

// shellEscapedEnd extends a /-rooted path token that ends in a shell's escaped blank
// (/Users/alice/Library/Application\ Support/Code): the name goes on after the blank.
func shellEscapedEnd(text string, start, end int) int {
	if text[start] != '/' {
		return end
	}
	for end < len(text) && text[end] == ' ' && text[end-1] == '\\' && !oddBackslashesBefore(text, end-1) {
		k := end + 1
		for k < len(text) && strings.IndexByte(" \t\r\n\"'<>|*?:;,()[]{}`", text[k]) < 0 {
			k++
		}
		if k == end+1 {
			return end
		}
		end = k
	}
	return end
}

// spacedSegmentEnd extends a path token that a blank ended inside a directory name that
// holds blanks, where leaving the rest would show it: the account of a home directory
// (C:\Users\Hank Pym\Desktop, /Users/Ivan Petrov/Library) and a macOS volume
// (/Volumes/Macintosh HD/Users/erin). The name goes on through one or two more words when
// a separator follows them; "C:\Users\hank is my home" stays as it is.
func spacedSegmentEnd(text string, start, end int) int {
	if end >= len(text) || text[end] != ' ' {
		return end
	}
	info, ok := parsePath(text[start:end])
	if !ok {
		return end
	}
	rest, home := homeRest(info)
	volume := info.kind == kindRoot && len(info.segs) == 2 && info.segs[0] == "Volumes"
	settings := info.kind == kindDrive && len(info.segs) == 1 && strings.EqualFold(info.segs[0], "Documents") // … and Settings
	if !(home && len(rest) == 0 || volume || settings) {
		return end
	}
	j := end
	for range 2 {
		if j >= len(text) || text[j] != ' ' {
			return end
		}
		k := j + 1
		for k < len(text) && (isWordByte(text[k]) || text[k] == '.' || text[k] == '-' || text[k] == '\'') {
			k++
		}
		if k == j+1 {
			return end
		}
		if k < len(text) && (text[k] == '\\' || text[k] == '/') {
			loc := pathToken.FindStringIndex(text[k:tokenEnd(text, k)])
			if loc == nil {
				return k
			}
			return spacedSegmentEnd(text, start, escapedEnd(text, k, k+loc[1]))
		}
		j = k
	}
	return end
}

// accountInPath returns the account a system path is named for: a mail spool
// (/var/mail/u, /var/spool/mail/u), a crontab (/var/spool/cron/crontabs/u, /var/spool/cron/u)
// and the removable media mounted for a login (/run/media/u/<label>).
func accountInPath(info pathInfo) (string, bool) {
	s := info.segs
	if info.kind != kindRoot {
		return "", false
	}
	switch {
	case len(s) == 3 && s[0] == "var" && s[1] == "mail":
		return s[2], true
	case len(s) == 4 && s[0] == "var" && s[1] == "spool" && s[2] == "mail":
		return s[3], true
	case len(s) == 5 && s[0] == "var" && s[1] == "spool" && s[2] == "cron" && s[3] == "crontabs":
		return s[4], true
	case len(s) == 4 && s[0] == "var" && s[1] == "spool" && s[2] == "cron" && s[3] != "crontabs":
		return s[3], true
	case len(s) >= 3 && s[0] == "run" && s[1] == "media":
		return s[2], true
	}
	return "", false
}

// sharedUserDirs are the folders beside the homes under /Users and C:\Users that belong to no
// account: macOS's Shared, Windows' Public, Default and All Users.
var sharedUserDirs = []string{"Shared", "Public", "Default", "Default User", "All Users"}

// mountedHomeRoots are the mount points under which a home directory is /<root>/home/<u>.
var mountedHomeRoots = []string{"nfs", "gpfs", "lustre", "data", "storage", "shared", "mnt", "media", "fs", "ifs", "cluster"}

// homeRest returns the segments below a home directory: /home/u, /Users/u, /root,
// /var/home/u, C:\Users\u, /mnt/c/Users/u (WSL), /c/Users/u (Git Bash), \\wsl$\distro\home\u.
func homeRest(info pathInfo) ([]string, bool) {
	s := info.segs
	at := func(i int, name string) bool { return len(s) > i && strings.EqualFold(s[i], name) }
	switch info.kind {
	case kindRoot:
		switch {
		case len(s) >= 2 && s[0] == "Users" && slices.Contains(sharedUserDirs, s[1]):
			return nil, false // /Users/Shared: macOS's folder every account may write, nobody's home
		case len(s) >= 2 && (s[0] == "home" || s[0] == "Users"):
			return s[2:], true
		case len(s) >= 1 && s[0] == "root":
			return s[1:], true
		case len(s) >= 3 && s[0] == "var" && s[1] == "home":
			return s[3:], true
		case len(s) >= 4 && s[0] == "mnt" && len(s[1]) == 1 && at(2, "Users"):
			return s[4:], true
		case len(s) >= 3 && len(s[0]) == 1 && at(1, "Users"):
			return s[3:], true
		case len(s) >= 4 && s[0] == "cygdrive" && at(2, "Users"):
			return s[4:], true
		case len(s) >= 4 && s[0] == "Volumes" && s[2] == "Users":
			return s[4:], true // another macOS volume's home directories
		case len(s) >= 3 && (s[0] == "export" || s[0] == "usr") && s[1] == "home":
			return s[3:], true // Solaris and NFS-mounted homes, FreeBSD's (/home links there)
		case len(s) >= 2 && len(s[0]) > 4 && s[0][:4] == "home" && isDigits(s[0][4:]):
			return s[2:], true // /home2/u, /home1/u: clusters and hosts that spread homes over disks
		case len(s) >= 3 && s[1] == "home" && slices.Contains(mountedHomeRoots, s[0]):
			return s[3:], true // /nfs/home/u, /gpfs/home/u: homes on a network or cluster file system
		case len(s) >= 4 && s[0] == "net" && s[2] == "home":
			return s[4:], true // /net/<server>/home/u, the automounter's
		case len(s) >= 5 && s[0] == "usr" && s[1] == "local" && s[2] == "google" && s[3] == "home":
			return s[5:], true // /usr/local/google/home/u, Google's workstations
		case len(s) >= 3 && s[0] == "u":
			return s[2:], true // /u/ada/…: universities' homes (/users/… and /homes/… are web routes as often)
		case len(s) >= 4 && (s[0] == "global" || s[0] == "gpfs") && s[1] == "homes" && len(s[2]) == 1:
			return s[4:], true // /global/homes/a/ada (NERSC), homes grouped by their first letter
		case len(s) >= 5 && s[0] == "afs" && (s[2] == "user" || s[2] == "usr") && len(s[3]) == 1:
			return s[5:], true // /afs/<cell>/user/a/ada, AFS homes grouped by their first letter
		}
	case kindDrive:
		if len(s) >= 2 && (at(0, "Users") || at(0, "Documents and Settings")) && !slices.ContainsFunc(sharedUserDirs, func(d string) bool { return strings.EqualFold(d, s[1]) }) {
			return s[2:], true
		}
	case kindUNC:
		if len(s) >= 4 && (at(0, "wsl$") || at(0, "wsl.localhost")) && at(2, "home") {
			return s[4:], true
		}
		if len(s) >= 3 && (at(0, "wsl$") || at(0, "wsl.localhost")) && at(2, "root") {
			return s[3:], true
		}
	}
	return nil, false
}
