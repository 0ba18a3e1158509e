package vibe

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// Personal data: what identifies the streamer or the people they work with, rather than
// what unlocks something. The account names of home directories and shell prompts are
// removed when an event is stored (see paths.go); e-mail addresses, real names in version
// control and package manifests, and account columns of ls -l, stat and id output are
// removed from what viewers see while the slot's redact_personal_data setting is on (the
// default), so that the owner's history keeps them and the setting applies to history too.

// Personal-data markers.
const (
	markEmail = "[redacted:" + ClassEmail + "]"
	markName  = "[redacted:" + ClassPersonalName + "]"
	markUser  = "[user]"
)

var (
	emailAddress = regexp.MustCompile(`[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b`)
	// personLine: version-control headers and trailers and manifest lines that name a
	// person: Author: Ada Lovelace <ada@…>, Co-authored-by: …, Maintainer: …, Owner: ….
	personLine = regexp.MustCompile(`(?im)\b(?:author|commit|committer|co-authored-by|signed-off-by|reviewed-by|reported-by|tested-by|acked-by|suggested-by|helped-by|cc|maintainer|owner|contact|written by|created by)\s*:\s+([^\n<>()"{}\[\]@:]{2,80}?)\s*(?:<|\(|$)|@author[ \t]+([^\n<>()"{}\[\]@:*]{2,80}?)[ \t]*(?:<|\(|$)`)
	// personLineCJK: the same header lines in Chinese (作者：张伟, 维护者: …, 联系人：…), with a
	// full-width colon or an ASCII one.
	personLineCJK = regexp.MustCompile(`(?m)(?:作者|维护者|联系人|负责人|开发者)[ \t]*[:：][ \t]*([^\n<>()（）"{}\[\]@:：，,;；]{1,40}?)[ \t]*(?:<|\(|（|，|,|;|；|$)`)
	// personField: manifest fields holding a name: "author": "Ada <…>", author = "Ada",
	// __author__ = 'Ada', user.name = Ada, GIT_AUTHOR_NAME=Ada, "name": "Ada" inside an
	// author object.
	personField = regexp.MustCompile(`(?i)(?:["']?(?:author|maintainer|__author__|__maintainer__|git_author_name|git_committer_name)["']?\s*[:=]\s*|\buser\.name\s*[= ]\s*|\bauthor\s*=\s*)["']([^"'<>(){}\[\]@\n]{2,80}?)\s*(?:<[^>\n]*>)?\s*(?:\([^)\n]*\))?["']`)
	// personConfig: git's configured name as git prints it, unquoted to the line's end:
	// `git config --list`'s user.name=Ada Lovelace (GIT_AUTHOR_NAME=… of env), and the line
	// after a `git config user.name` command that reads it.
	personConfig = regexp.MustCompile(`(?im)(?:^\s*(?:user\.name|git_author_name|git_committer_name)=|\bgit config (?:--(?:global|local|system|get) )*user\.name[ \t]*(?:\r?\n|\\n))([^\n\\"'<>=@]{2,80}?)[ \t\r]*(?:$|\\n)`)
	// personConfigSet: the name git is told (git config --global user.name "Ada Lovelace"),
	// quoted, its quotes maybe escaped in JSON.
	personConfigSet = regexp.MustCompile(`\bgit config (?:--(?:global|local|system) )*user\.name[ \t]+(?:\\?"([^"\\\n]{2,80})\\?"|'([^'\n]{2,80})')`)
	// personList: authors = ["Ada <…>", "Grace"], "contributors": ["…"].
	personList = regexp.MustCompile(`(?i)["']?(?:authors|maintainers|contributors|developers)["']?\s*[:=]\s*\[`)
	// personObject: "author": {"name": "Ada", …}, authors = [{name = "Ada", …}].
	personObject = regexp.MustCompile(`(?i)["']?name["']?\s*[:=]\s*["']([^"'<>@\n]{2,80})["']`)
	// lsLong: the owner and group columns of ls -l.
	// A line opens at a line break, a JSON string's escaped one (\n) or its opening quote, or
	// after a gutter's arrow or tab (cat -n, a file read through a tool).
	lsLong = regexp.MustCompile(`(?m)((?:^|\\n|"|→|\t)[ \t]*[-dlcbpsDl][rwxsStT-]{9}[@+.]?[ \t]+\d+[ \t]+)([^\s"\\]+)([ \t]+)([^\s"\\]+)`)
	// namedAddress: a name written before its address, as git log's %an <%ae>, .mailmap,
	// AUTHORS files, hg log's user: line and mail headers write it (Ada Lovelace <ada@…>):
	// capitalised words right before the <address>.
	namedAddress = regexp.MustCompile(`(?:^|[\s"'\[(,:=>])(\p{Lu}[\p{L}'.-]*(?:[ \t]\p{Lu}[\p{L}'.-]*){0,3})[ \t]*<[^<>\s@]{1,64}@[^<>\s]{1,255}>`)
	// copyrightHolder: a person named as a copyright's holder (Copyright (c) 2024 Ada
	// Lovelace, // Copyright 2019-2024 Ada Lovelace. All rights reserved.): two to four
	// capitalised words after the year; organisations and "The … Authors" are no person's.
	// A company's suffix after the words is read with them (Red Hat, Inc.), so that
	// personName sees an organisation.
	copyrightHolder = regexp.MustCompile(`(?i:copyright)(?:[ \t]+(?:\((?i:c)\)|©))?(?:[ \t]+\d{4}(?:[ \t]*[-–,][ \t]*\d{4})*,?)*[ \t]+(?:(?i:by)[ \t]+)?(\p{Lu}[\p{L}'-]+(?:[ \t]+(?:\p{Lu}\.|\p{Lu}[\p{L}'-]+)){1,3}(?:,?[ \t]+(?i:inc|llc|ltd|gmbh|corp|co|ag|plc|limited|s\.a|b\.v)\.?)?)`)
	// pomPerson: the name of a developer or contributor in a Maven pom.xml.
	pomPerson = regexp.MustCompile(`(?s)<(?:developer|contributor)>.{0,400}?<name>([^<\n]{2,80})</name>`)
	// blameLine: the author of a git blame line (^3f2a9c1 path (Ada Lovelace 2026-12-01 10:00:00 +0100 12) …).
	blameLine = regexp.MustCompile(`(?m)^\^?[0-9a-f]{7,40}(?: [^\s(]+)? \(([^()\n]{2,80}?)\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}\s+\d+\)`)
	// shortlogLine: git shortlog -sn's count, a tab and the author.
	shortlogLine = regexp.MustCompile(`(?m)^[ \t]*\d+\t([^\t\n<>]{2,80}?)[ \t]*(?:<[^>\n]*>)?[ \t]*$`)
	// svnLogLine: the author of svn log's revision line (r42 | tkaur | 2026-12-01 …).
	svnLogLine = regexp.MustCompile(`(?m)^r\d+ \| ([^|\n]{2,64}?) \| \d{4}-\d{2}-\d{2} `)
	// passwdGecos: the full name of a passwd entry (name:x:1000:1000:Ada Lovelace,,,:/home/…).
	passwdGecos = regexp.MustCompile(`(?m)(?:^|\\n)[A-Za-z_\[][A-Za-z0-9_.\]-]*:[x*!]:\d+:\d+:([^:,\n]{2,80}),*:`)
	// idOutput: uid=501(dain) gid=20(staff) groups=…, and stat's Uid: ( 501/ dain).
	// iamUserARN: an AWS IAM user's name in its ARN (aws sts get-caller-identity, an access
	// denied message): arn:aws:iam::123456789012:user/ops/jane.doe.
	iamUserARN = regexp.MustCompile(`\barn:aws[\w-]*:iam::\d{12}:user/(?:[\w+=,.@-]+/)*([\w+=,.@-]{2,64})`)
	// jsonAngle: < and > as JSON escapes them, at any depth of escaping.
	jsonAngle = regexp.MustCompile(`\\+u003[cCeE]`)
	idOutput  = regexp.MustCompile(`(?i)\b(?:uid|gid|euid|egid)=\d+\(([^)\s]+)\)|\b(?:Uid|Gid):\s*\(\s*\d+/\s*([^)\s]+)\)`)
)

// genericAccounts are system accounts and groups that identify nobody.
var genericAccounts = []string{
	"root", "wheel", "staff", "admin", "everyone", "users", "user", "nobody", "nogroup", "daemon",
	"bin", "sys", "adm", "sudo", "docker", "www-data", "_www", "_developer", "admin", "runner",
	"ubuntu", "node", "git", "postgres", "mysql", "redis", "systemd-journal", "audio", "video",
	"plugdev", "lpadmin", "dialout", "input", "render", "kvm", "libvirt", "vboxusers", "vagrant",
	"codespace", "vscode", "dev", "app", "build", "ci", "jenkins", "circleci", "travis", "gitlab-runner",
}

// personalWords gate the name rules: one Aho-Corasick pass over the lower-case text tells
// which can match. Each word opens header lines (1), manifest fields (2) or both.
var personalWords = []struct {
	word  string
	rules int
}{
	{"author", 3}, {"maintainer", 3}, {"commit", 1}, {"-by:", 1}, {"owner", 1}, {"contact", 1},
	{"cc:", 1}, {"written by", 1}, {"created by", 1}, {"user.name", 2}, {"author_name=", 2}, {"committer_name=", 2}, {"contributors", 2}, {"developers", 2},
}

var personalTrie = sync.OnceValue(func() *ahocorasick.Trie {
	b := ahocorasick.NewTrieBuilder()
	for _, w := range personalWords {
		b.AddString(w.word)
	}
	return b.Build()
})

// redactPersonal removes personal data from a text a viewer is about to see.
func redactPersonal(s string) string {
	if s == "" {
		return s
	}
	if strings.Contains(s, markUser) {
		// The account name was masked when the event was stored; inside a name or an address
		// it is still a part of them (Author: [user] Martin <[user]@corp.io>), so the rules
		// read it as a word and the rest of the name and the domain go with it.
		s = strings.ReplaceAll(s, markUser, userWord)
		return strings.ReplaceAll(redactPersonalText(s), userWord, markUser)
	}
	return redactPersonalText(s)
}

// userWord stands for [user] while the personal-data rules run: letters only, so that it
// reads as a word of a name and as an address's local part.
const userWord = "Uzqxjvuserzqxj"

func redactPersonalText(s string) string {
	if strings.Contains(s, "u003") {
		// Go's encoding/json writes < and > as \u003c and \u003e: the name before an address
		// (Ada Lovelace \u003cada@…\u003e) is read with its brackets written out.
		s = jsonAngle.ReplaceAllStringFunc(s, func(e string) string {
			if e[len(e)-1]|0x20 == 'c' {
				return "<"
			}
			return ">"
		})
	}
	var lines, fields bool
	if strings.IndexByte(s, ':') >= 0 || strings.IndexByte(s, '=') >= 0 || strings.Contains(s, "user.name") || strings.Contains(s, "@author") {
		personalTrie().Walk(stringBytes(strings.ToLower(s)), func(_, _, p int64) bool {
			r := personalWords[p].rules
			lines = lines || r&1 != 0
			fields = fields || r&2 != 0
			return !(lines && fields)
		})
	}
	if lines && (strings.IndexByte(s, ':') >= 0 || strings.Contains(s, "@author")) {
		s = replaceGroups(s, personLine, markName, personName)
	}
	if fields {
		s = replaceGroups(s, personField, markName, personName)
		s = replaceGroups(s, personConfig, markName, personName)
		s = replaceGroups(s, personConfigSet, markName, personName)
		s = redactPersonLists(s)
	}
	if strings.IndexByte(s, '<') >= 0 && strings.IndexByte(s, '@') >= 0 {
		s = replaceGroups(s, namedAddress, markName, personName)
	}
	if strings.Contains(s, `"name"`) && (strings.Contains(s, `"login"`) || strings.Contains(s, `"email"`)) {
		s = redactUserObjects(s)
	}
	if strings.Contains(s, "作者") || strings.Contains(s, "维护者") || strings.Contains(s, "联系人") || strings.Contains(s, "负责人") || strings.Contains(s, "开发者") {
		s = replaceGroups(s, personLineCJK, markName, cjkPersonName)
	}
	if strings.Contains(s, "opyright") || strings.Contains(s, "OPYRIGHT") {
		s = replaceGroups(s, copyrightHolder, markName, personName)
	}
	if strings.Contains(s, "<developer>") || strings.Contains(s, "<contributor>") {
		s = replaceGroups(s, pomPerson, markName, personName)
	}
	if hasBlameLine(s) {
		s = replaceGroups(s, blameLine, markName, personName)
	}
	if strings.IndexByte(s, '\t') >= 0 && shortlogOutput(s) {
		s = replaceGroups(s, shortlogLine, markName, personName)
	}
	if strings.Contains(s, " | ") {
		s = replaceGroups(s, svnLogLine, markUser, func(v string) bool { return !slices.Contains(genericAccounts, strings.ToLower(v)) })
	}
	if strings.IndexByte(s, '@') >= 0 {
		s = redactAddresses(s)
	}
	if hasLsLine(s) {
		s = lsLong.ReplaceAllStringFunc(s, func(m string) string {
			g := lsLong.FindStringSubmatch(m)
			return g[1] + accountOrMark(g[2]) + g[3] + accountOrMark(g[4])
		})
	}
	if strings.Contains(s, ":x:") || strings.Contains(s, ":*:") {
		s = replaceGroups(s, passwdGecos, markName, func(v string) bool { return personName(strings.Trim(v, ",")) })
	}
	if hasIDOutput(s) {
		s = replaceGroups(s, idOutput, markUser, func(v string) bool { return !slices.Contains(genericAccounts, strings.ToLower(v)) })
	}
	if strings.Contains(s, ":user/") {
		s = replaceGroups(s, iamUserARN, markUser, func(v string) bool { return !slices.Contains(genericAccounts, strings.ToLower(v)) })
	}
	return s
}

// redactAddresses masks the personal e-mail addresses of s. An address right after a JSON
// string's escape (\nada@…, \u003cada@…: Go's encoding/json writes < so) starts after it:
// the escape's letters are the escape's, not the address's.
func redactAddresses(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range emailAddress.FindAllStringIndex(s, -1) {
		a, e := m[0], m[1]
		if a > 0 && s[a-1] == '\\' {
			switch {
			case strings.IndexByte("ntr", s[a]) >= 0:
				a++
			case len(s) >= a+5 && s[a] == 'u' && isHex(s[a+1:a+5]):
				a += 5
			}
		}
		if a >= e || !personalAddress(s[a:e]) {
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(markEmail)
		last = e
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// shortlogOutput reports git shortlog -sn's output: every line is a count, a tab and
// capitalised words (cat -n numbers a file's lines the same way, and they hold code), after
// the command's own line if it is there.
func shortlogOutput(s string) bool {
	n, named := 0, false
	for from := 0; from < len(s); {
		var line string
		line, from = cutLine(s, from)
		line = strings.TrimRight(line, "\r")
		t := strings.TrimLeft(line, " \t")
		switch {
		case t == "":
			continue
		case t[0] < '0' || t[0] > '9':
			if n == 0 && strings.Contains(t, "shortlog") {
				named = true
				continue
			}
			return false
		}
		m := shortlogLine.FindStringSubmatch(line)
		if m == nil {
			return false
		}
		for _, w := range strings.Fields(m[1]) {
			if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
				return false
			}
		}
		n++
	}
	return n >= 2 || named && n == 1 // one numbered line of a file (1\tMIT License) is no list
}

// cutLine returns the line of s that starts at from, without its line break, and where the
// next one starts.
func cutLine(s string, from int) (line string, next int) {
	if k := strings.IndexByte(s[from:], '\n'); k >= 0 {
		return s[from : from+k], from + k + 1
	}
	return s[from:], len(s)
}

// hasBlameLine gates blameLine: one of the first lines opens with an abbreviated commit hash
// (^ for a boundary commit) and a blank.
func hasBlameLine(s string) bool {
	for from, lines := 0, 0; from < len(s) && lines < 4; lines++ { // the output's, after the command's line
		var line string
		line, from = cutLine(s, from)
		line = strings.TrimPrefix(line, "^")
		n := 0
		for n < len(line) && (line[n] >= '0' && line[n] <= '9' || line[n] >= 'a' && line[n] <= 'f') {
			n++
		}
		if n >= 7 && n < len(line) && line[n] == ' ' && strings.Contains(line[n:], " (") {
			return true
		}
	}
	return false
}

// hasLsLine reports a line that opens with ls -l's file mode (drwxr-xr-x, -rw-r--r--@).
func hasLsLine(s string) bool {
	if isLsMode(s) {
		return true
	}
	// A mode opens with its file's type and the owner's read bit: -r, dr, lr (a file, a
	// directory, a link; the rarer types and unreadable files are left to the line-start
	// search below). The candidates are found by substring search, each checked where its
	// line opens.
	for _, pair := range [...]string{"-r", "dr", "lr"} {
		for from := 0; from < len(s); {
			i := strings.Index(s[from:], pair)
			if i < 0 {
				break
			}
			i += from
			from = i + 1
			if isLsMode(s[i:]) && lsLineOpens(s, i) {
				return true
			}
		}
	}
	for from := 0; from < len(s); {
		i := strings.IndexByte(s[from:], '\n')
		if i < 0 {
			return false
		}
		from += i + 1
		if isLsMode(s[from:]) {
			return true
		}
	}
	return false
}

// lsLineOpens reports whether an ls -l line may open at i: after up to eight blanks, at the
// text's start, a line break, a JSON string's escaped one (\n) or opening quote, a tab or a
// gutter's arrow.
func lsLineOpens(s string, i int) bool {
	for k := 0; k < 8 && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'); k++ {
		if s[i-1] == '\t' {
			return true
		}
		i--
	}
	return i == 0 || s[i-1] == '\n' || s[i-1] == '"' || i >= 3 && s[i-3:i] == "→" || i >= 2 && s[i-1] == 'n' && s[i-2] == '\\'
}

func isLsMode(s string) bool {
	if len(s) < 11 || strings.IndexByte("-dlcbpsD", s[0]) < 0 {
		return false
	}
	for i := 1; i < 10; i++ {
		if strings.IndexByte("rwxsStT-", s[i]) < 0 {
			return false
		}
	}
	return true
}

// hasIDOutput reports id or stat output: uid=501(…), Uid: ( 501/ …).
func hasIDOutput(s string) bool {
	return strings.Contains(s, "uid=") || strings.Contains(s, "gid=") || strings.Contains(s, "Uid: (") || strings.Contains(s, "Gid: (")
}

func accountOrMark(a string) string {
	if slices.Contains(genericAccounts, strings.ToLower(a)) || isDigits(a) || strings.HasPrefix(a, "[") {
		return a
	}
	return markUser
}

// personName reports a value that reads as a person's name: one to five words of letters,
// not a placeholder, a code identifier or a path.
func personName(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || v == userWord || placeholderValue(v) || strings.HasPrefix(v, "[") || strings.ContainsAny(v, "/\\=;$%`*|") {
		return false
	}
	words := strings.Fields(v)
	if len(words) == 0 || len(words) > 5 {
		return false
	}
	switch strings.ToLower(v) {
	case "none", "unknown", "anonymous", "me", "you", "the team", "team", "n/a", "yes", "no", "true", "false":
		return false
	}
	switch strings.ToLower(words[0]) {
	case "holder", "holders", "owner", "owners", "notice", "notices", "and", "or":
		return false // AUTHORS OR COPYRIGHT HOLDERS BE LIABLE: a licence's words after copyright
	}
	for _, w := range words {
		if w[0] == '-' {
			return false // a command's option (git commit --amend), not a part of a name
		}
		if k := strings.IndexByte(w, '.'); k >= 0 && k+1 < len(w) && w[k+1] >= 'a' && w[k+1] <= 'z' {
			return false // contact: z.string().email(): a member of code or a host, not an initial
		}
		letters := 0
		for _, r := range w {
			if r >= '0' && r <= '9' {
				return false
			}
			if unicode.IsLetter(r) {
				letters++
			} else if r != '.' && r != '-' && r != '\'' && r != ',' {
				return false
			}
		}
		if letters == 0 {
			return false
		}
	}
	return !notAPerson(v, words)
}

// notAPerson reports a name that is no person's: an organisation (Acme Inc., Google LLC,
// The Rust Project Developers), a bot or an assistant (Claude, Code Review Bot, GitHub,
// dependabot), a team's handle (team-platform, infra-oncall).
func notAPerson(v string, words []string) bool {
	l := strings.ToLower(v)
	if nonPersonNames[l] || strings.HasPrefix(l, "the ") || slices.Contains(genericAccounts, l) {
		return true
	}
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, ".,"))
		if orgWords[lw] {
			return true
		}
	}
	if l == v && strings.ContainsAny(v, "-_") {
		for _, p := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' }) {
			if teamWords[p] {
				return true
			}
		}
	}
	return false
}

// orgWords are words that make a name an organisation's, a group's or a program's.
var orgWords = map[string]bool{"inc": true, "llc": true, "ltd": true, "gmbh": true, "corp": true, "corporation": true,
	"company": true, "co": true, "foundation": true, "project": true, "developers": true, "contributors": true,
	"team": true, "community": true, "authors": true, "maintainers": true, "bot": true, "[bot]": true, "group": true,
	"labs": true, "organization": true, "organisation": true, "university": true, "institute": true, "association": true,
	"consortium": true, "systems": true, "technologies": true, "software": true, "solutions": true, "services": true,
	"studio": true, "studios": true, "agency": true, "limited": true, "plc": true, "s.a.": true, "ag": true, "bv": true,
	"sas": true, "srl": true, "pty": true, "ab": true, "oy": true, "as": true, "developer": true, "admin": true,
	"programme": true, "program": true, "conservancy": true, "commons": true, "collective": true, "alliance": true,
	"society": true, "trust": true, "partners": true, "industries": true, "enterprises": true, "network": true,
	"administrators": true, "staff": true, "support": true, "security": true, "ci": true, "actions": true, "automation": true}

// nonPersonNames are assistants, bots and services that sign commits, own files or author
// packages.
var nonPersonNames = map[string]bool{"claude": true, "claude code": true, "chatgpt": true, "copilot": true,
	"github copilot": true, "github": true, "gitlab": true, "bitbucket": true, "github actions": true, "github-actions": true,
	"dependabot": true, "renovate": true, "renovate bot": true, "snyk": true, "cursor": true, "codex": true, "gemini": true,
	"anthropic": true, "openai": true, "devin": true, "aider": true, "google": true, "microsoft": true, "amazon": true,
	"apple": true, "meta": true, "mozilla": true, "vercel": true, "netlify": true, "npm": true, "pypi": true, "jenkins": true,
	"circleci": true, "travis": true, "semantic-release": true, "release-please": true, "mergify": true, "web-flow": true,
	"unknown author": true, "anonymous": true, "opencode": true, "qwen": true, "grok": true, "windsurf": true,
	// a template's stand-ins
	"your name": true, "my name": true, "author name": true, "full name": true, "firstname lastname": true,
	"first last": true, "first name last name": true, "name surname": true, "your full name": true,
	// conventional commits' types (Commit: fix(cli): …)
	"fix": true, "feat": true, "docs": true, "chore": true, "refactor": true, "test": true, "tests": true, "ci": true,
	"build": true, "perf": true, "style": true, "revert": true, "wip": true, "release": true, "deps": true, "merge": true,
	// tools that create and manage resources
	"terraform": true, "helm": true, "kubectl": true, "ansible": true, "pulumi": true, "cloudformation": true, "cdk": true,
	"docker": true, "system": true, "kustomize": true, "argocd": true, "flux": true, "crossplane": true, "chef": true, "puppet": true}

// teamWords are the parts of a team's or a rota's handle.
var teamWords = map[string]bool{"team": true, "teams": true, "oncall": true, "ops": true, "platform": true, "infra": true,
	"sre": true, "devops": true, "security": true, "support": true, "core": true, "admins": true, "eng": true,
	"engineering": true, "squad": true, "group": true, "owners": true, "maintainers": true, "bot": true, "bots": true}

// cjkPersonName reports a person's name after a Chinese header: two to four Han characters
// (a Chinese name; 本项目团队, "this project's team", is longer) with none of the words for a
// group, or a capitalised name in Latin letters.
func cjkPersonName(v string) bool {
	if v == "" {
		return false
	}
	if v[0] < 0x80 {
		return isUpperByte(v[0]) && personName(v)
	}
	n := 0
	for _, r := range v {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
		n++
	}
	for _, w := range []string{"团队", "项目", "公司", "社区", "小组", "组织", "官方", "本人", "作者"} {
		if strings.Contains(v, w) {
			return false
		}
	}
	return n >= 2 && n <= 4
}

// standInLocalParts are the local parts documentation writes before a stand-in domain.
var standInLocalParts = []string{"you", "your", "your.name", "your-name", "yourname", "user", "username", "name", "me", "someone",
	"somebody", "john", "jane", "john.doe", "jane.doe", "johndoe", "janedoe", "test", "foo", "bar", "admin", "info", "hello", "contact", "email", "mail", "address"}

// personalAddress reports an e-mail address that may identify someone: not a placeholder
// domain, not a service mailbox.
func personalAddress(e string) bool {
	l := strings.ToLower(e)
	at := strings.IndexByte(l, '@')
	if at <= 0 {
		return false
	}
	local, domain := l[:at], l[at+1:]
	switch local {
	case "git", "noreply", "no-reply", "donotreply", "do-not-reply", "mailer-daemon", "postmaster":
		return false // a role mailbox (hello@, support@) on a person's own domain names them: masked
	}
	for _, d := range []string{"example.com", "example.org", "example.net", "localhost"} {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return false
		}
	}
	if domain == "domain.com" || domain == "email.com" {
		// Documentation's stand-ins (your@email.com, user@domain.com); but email.com is a
		// mail provider too, so a person's address there stays personal.
		return !(isPlaceholder(local) || slices.Contains(standInLocalParts, local))
	}
	for _, suf := range []string{".example", ".invalid", ".test", ".localhost"} {
		if strings.HasSuffix(domain, suf) {
			return false
		}
	}
	// A version or file reference that looks like an address: pkg@1.2.3 has no letters in
	// its TLD and never matches; x@2x.png does.
	for _, ext := range []string{".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".js", ".ts", ".css", ".json"} {
		if strings.HasSuffix(domain, ext) {
			return false
		}
	}
	return true
}

// replaceGroupsAt replaces group 1 of every match of re whose position keep accepts.
func replaceGroupsAt(s string, re *regexp.Regexp, mark string, keep func(start, end int) bool) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		if m[2] < 0 || !keep(m[2], m[3]) {
			continue
		}
		b.WriteString(s[last:m[2]])
		b.WriteString(mark)
		last = m[3]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// replaceGroups replaces the first non-empty group of every match of re that keep accepts.
func replaceGroups(s string, re *regexp.Regexp, mark string, keep func(string) bool) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		for g := 1; 2*g+1 < len(m); g++ {
			st, en := m[2*g], m[2*g+1]
			if st < 0 || st < last {
				continue
			}
			v := strings.TrimSpace(s[st:en])
			if !keep(v) {
				break
			}
			st += strings.Index(s[st:en], v)
			b.WriteString(s[last:st])
			b.WriteString(mark)
			last = st + len(v)
			break
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactPersonLists replaces the names in author and contributor lists and objects.
func redactPersonLists(s string) string {
	locs := personList.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		if i := strings.Index(strings.ToLower(s), `"author"`); i >= 0 {
			return redactAuthorObject(s, i)
		}
		return s
	}
	for k := len(locs) - 1; k >= 0; k-- {
		start := locs[k][1]
		end := strings.IndexByte(s[start:], ']')
		if end < 0 || end > 2000 {
			continue
		}
		body := s[start : start+end]
		if strings.IndexByte(body, '{') >= 0 {
			// a list of objects: each object's name member; its keys and other values are
			// no names
			body = replaceGroups(body, personObject, markName, personName)
		} else {
			body = replaceGroups(body, quotedPerson, markName, personName)
		}
		s = s[:start] + body + s[start+end:]
	}
	if i := strings.Index(strings.ToLower(s), `"author"`); i >= 0 {
		s = redactAuthorObject(s, i)
	}
	return s
}

var quotedPerson = regexp.MustCompile(`["']([^"'<>(){}\[\]@\n]{2,80}?)\s*(?:<[^>\n]*>)?\s*(?:\([^)\n]*\))?["']`)

// userNameMember finds a JSON object's "name" member and its string value.
var userNameMember = regexp.MustCompile(`"name"\s*:\s*"([^"\\<>@\n]{2,80})"`)

// redactUserObjects replaces the name in a JSON object that describes an account: one that
// also has a "login" or an "email" member (gh api user, a users API's records).
func redactUserObjects(s string) string {
	return replaceGroupsAt(s, userNameMember, markName, func(start, end int) bool {
		// The object around the member: its { before with no } between, its } after.
		from := max(0, start-600)
		open := strings.LastIndexByte(s[from:start], '{')
		if open < 0 || strings.IndexByte(s[from+open:start], '}') >= 0 {
			return false
		}
		close := strings.IndexByte(s[end:min(len(s), end+600)], '}')
		if close < 0 {
			return false
		}
		obj := s[from+open : end+close]
		v := s[start:end]
		// A person's name has a capital, a blank or a letter of another script (not billing).
		return (strings.Contains(obj, `"login"`) || strings.Contains(obj, `"email"`)) && personName(v) &&
			(isUpperByte(v[0]) || strings.IndexByte(v, ' ') >= 0 || v[0] >= 0x80)
	})
}

// redactAuthorObject replaces the name in "author": {"name": "…"}.
func redactAuthorObject(s string, i int) string {
	rest := s[i:]
	open := strings.IndexByte(rest, '{')
	if open < 0 || open > 12 {
		return s
	}
	end := strings.IndexByte(rest[open:], '}')
	if end < 0 || end > 600 {
		return s
	}
	body := replaceGroups(rest[open:open+end], personObject, markName, personName)
	return s[:i] + rest[:open] + body + rest[open+end:]
}
