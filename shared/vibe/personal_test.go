package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRedactPersonal(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"git log", "commit 3f2a9c1\nAuthor: Ada Lovelace <ada@analytical.engine.org>\nDate:   Mon",
			"commit 3f2a9c1\nAuthor: [redacted:name] <[redacted:email]>\nDate:   Mon"},
		{"trailer", "Co-authored-by: Grace Hopper <grace@navy.mil>", "Co-authored-by: [redacted:name] <[redacted:email]>"},
		{"signed off", "Signed-off-by: Linus T <lt@kernel.example.net>", "Signed-off-by: [redacted:name] <lt@kernel.example.net>"},
		{"owner line", "Owner: Dain Sundstrom", "Owner: [redacted:name]"},
		{"package.json string", `  "author": "Jane Doe <jane@corp.io> (https://jane.dev)",`, `  "author": "[redacted:name] <[redacted:email]> (https://jane.dev)",`},
		{"package.json object", `"author": {"name": "Jane Doe", "email": "jane@corp.io"}`, `"author": {"name": "[redacted:name]", "email": "[redacted:email]"}`},
		{"pyproject", `authors = [{name = "Jane Doe", email = "jane@corp.io"}, "Bob Roe <bob@x.io>"]`, `authors = [{name = "[redacted:name]", email = "[redacted:email]"}, "[redacted:name] <[redacted:email]>"]`},
		{"git config", `git config user.name "Jane Doe"`, `git config user.name "[redacted:name]"`},
		{"git config --list", "core.editor=vim\nuser.name=Dave Lister\nuser.email=dave@reddwarf.org", "core.editor=vim\nuser.name=[redacted:name]\nuser.email=[redacted:email]"},
		{"git config read back", "$ git config --global user.name\nFiona Apple\n$ ls", "$ git config --global user.name\n[redacted:name]\n$ ls"},
		{"git config read back, escaped", `{"out":"$ git config user.name\nFiona Apple\n"}`, `{"out":"$ git config user.name\n[redacted:name]\n"}`},
		{"author variable", "GIT_AUTHOR_NAME=Eve Polastri", "GIT_AUTHOR_NAME=[redacted:name]"},
		{"generic configured name", "the user.name=root", "the user.name=root"},
		{"bare e-mail", "mail me at jane.doe+x@corp.co.uk today", "mail me at [redacted:email] today"},
		{"git blame", "^3f2a9c1 (Taran Kaur     2026-12-01 10:00:00 +0100  1) package main\n7d4e8b2a cmd/x.go (Ravi Menon 2026-12-02 11:00:00 -0500  2) import \"fmt\"",
			"^3f2a9c1 ([redacted:name]     2026-12-01 10:00:00 +0100  1) package main\n7d4e8b2a cmd/x.go ([redacted:name] 2026-12-02 11:00:00 -0500  2) import \"fmt\""},
		{"git shortlog", "    42\tTaran Kaur\n    17\tRavi Menon\n", "    42\t[redacted:name]\n    17\t[redacted:name]\n"},
		{"one numbered line is no shortlog", "     1\tMIT License\n", "     1\tMIT License\n"},
		{"git shortlog named", "$ git shortlog -sn\n    42\tTaran Kaur\n", "$ git shortlog -sn\n    42\t[redacted:name]\n"},
		{"cat -n is no shortlog", "     1\tpackage main\n     2\tImport Stuff\n", "     1\tpackage main\n     2\tImport Stuff\n"},
		{"name before address", "Taran Kaur <taran@corp.io>\nuser:        Ravi Menon <ravi@corp.io>",
			"[redacted:name] <[redacted:email]>\nuser:        [redacted:name] <[redacted:email]>"},
		{"svn log", "r42 | tkaur | 2026-12-01 10:00:00 +0100 (Tue, 01 Dec 2026) | 1 line", "r42 | [user] | 2026-12-01 10:00:00 +0100 (Tue, 01 Dec 2026) | 1 line"},
		{"commit in prose", "If it was the last commit: `git commit --amend` (after deleting it)", "If it was the last commit: `git commit --amend` (after deleting it)"},
		{"passwd entry", "tkaur:x:1000:1000:Taran Kaur,,,:/home/tkaur:/bin/bash\nsshd:x:110:65534::/run/sshd:/usr/sbin/nologin",
			"tkaur:x:1000:1000:[redacted:name],,,:/home/tkaur:/bin/bash\nsshd:x:110:65534::/run/sshd:/usr/sbin/nologin"},
		{"ls -l", "drwxr-xr-x@ 10 dain  staff   320 Jan  2 10:00 src\n-rw-r--r--   1 root  wheel    12 Jan  2 10:00 x",
			"drwxr-xr-x@ 10 [user]  staff   320 Jan  2 10:00 src\n-rw-r--r--   1 root  wheel    12 Jan  2 10:00 x"},
		{"id", "uid=501(dain) gid=20(staff) groups=20(staff)", "uid=501([user]) gid=20(staff) groups=20(staff)"},
		{"stat", "Access: (0644/-rw-r--r--)  Uid: (  501/    dain)   Gid: (   20/   staff)", "Access: (0644/-rw-r--r--)  Uid: (  501/    [user])   Gid: (   20/   staff)"},
		// The account name, masked when the event was stored, inside a name or an address:
		// the rest of the name and the address go too.
		{"masked account in a name", "Author: [user] Martin <[user]@example-corp.io>", "Author: [redacted:name] <[redacted:email]>"},
		{"masked account in an address", "mail [user].martin@corp.io or [user]@corp.io", "mail [redacted:email] or [redacted:email]"},
		{"masked account alone", "drwxr-xr-x  2 [user]  staff  64 Jan  2 10:00 x\nOwner: [user]", "drwxr-xr-x  2 [user]  staff  64 Jan  2 10:00 x\nOwner: [user]"},
		// Not personal: service mailboxes, placeholder domains, git remotes, versions, code.
		{"not personal", "git@github.com:org/repo.git noreply@github.com a@example.com lodash@4.17.21 icon@2x.png",
			"git@github.com:org/repo.git noreply@github.com a@example.com lodash@4.17.21 icon@2x.png"},
		{"author field of code", "author: string // the commit author", "author: string // the commit author"},
		{"contact field of a schema", "  contact: z.string().email().optional(),\n  owner: os.getenv('OWNER'),\nContact: J.R. Tolkien", "  contact: z.string().email().optional(),\n  owner: os.getenv('OWNER'),\nContact: [redacted:name]"},
		// Not people: assistants and bots that sign commits, organisations, teams, role
		// mailboxes; a package's maintainers' objects keep their keys.
		{"assistant co-author", "Co-authored-by: Claude <noreply@anthropic.com>", "Co-authored-by: Claude <noreply@anthropic.com>"},
		{"organisations and teams", "Owner: team-platform\nMaintainer: infra-oncall\nReviewed-by: Code Review Bot\n__author__ = \"Google LLC\"\nauthor = \"The Rust Project Developers\"",
			"Owner: team-platform\nMaintainer: infra-oncall\nReviewed-by: Code Review Bot\n__author__ = \"Google LLC\"\nauthor = \"The Rust Project Developers\""},
		{"iam user arn", `{"UserId": "AIDAQ3EXAMPLEUSERID7", "Account": "123456789012", "Arn": "arn:aws:iam::123456789012:user/ops/jane.doe"}`,
			`{"UserId": "AIDAQ3EXAMPLEUSERID7", "Account": "123456789012", "Arn": "arn:aws:iam::123456789012:user/ops/[user]"}`},
		{"iam role arn", "arn:aws:iam::123456789012:role/deploy and arn:aws:iam::123456789012:user/admin", "arn:aws:iam::123456789012:role/deploy and arn:aws:iam::123456789012:user/admin"},
		{"company after its name", " * Copyright (C) 2004 - 2009 Red Hat, Inc. All rights reserved.\n// Copyright 2019-2023 Tauri Programme within The Commons Conservancy", " * Copyright (C) 2004 - 2009 Red Hat, Inc. All rights reserved.\n// Copyright 2019-2023 Tauri Programme within The Commons Conservancy"},
		{"name git is told", `git config user.email "tara@company.io" && git config --global user.name "Tara Ding"`, `git config user.email "[redacted:email]" && git config --global user.name "[redacted:name]"`},
		{"name git is told in JSON", `{"command":"git config user.name \"Tara Ding\""}`, `{"command":"git config user.name \"[redacted:name]\""}`},
		{"licence text after copyright", "IN NO EVENT SHALL THE\nAUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM", "IN NO EVENT SHALL THE\nAUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM"},
		{"copyright holder", "// Copyright 2019-2024 Ada Lovelace. All rights reserved.\nCopyright (c) 2024 Google LLC\nCopyright 2009 The Go Authors.", "// Copyright 2019-2024 [redacted:name]. All rights reserved.\nCopyright (c) 2024 Google LLC\nCopyright 2009 The Go Authors."},
		{"maven developer", "<developer>\n  <id>al</id>\n  <name>Ada Lovelace</name>\n</developer>\n<name>my-app</name>", "<developer>\n  <id>al</id>\n  <name>[redacted:name]</name>\n</developer>\n<name>my-app</name>"},
		{"javadoc author", "/**\n * Parses tokens.\n * @author Jane Doe\n * @since 1.2\n */", "/**\n * Parses tokens.\n * @author [redacted:name]\n * @since 1.2\n */"},
		{"commit messages and stand-ins", "  - Commit: fix(cli): remove duplicate flags\nauthors = [{name=\"Your Name\"}]", "  - Commit: fix(cli): remove duplicate flags\nauthors = [{name=\"Your Name\"}]"},
		{"tools and system accounts", "Created by: terraform\nOwner: root", "Created by: terraform\nOwner: root"},
		{"role mailboxes", "Contact: hello@jane.dev", "Contact: [redacted:email]"},
		{"maintainers objects", `"maintainers": [{"name": "Jane Doe", "email": "jane@corp.io"}, {"name": "npm", "email": "npm@npmjs.com"}]`,
			`"maintainers": [{"name": "[redacted:name]", "email": "[redacted:email]"}, {"name": "npm", "email": "[redacted:email]"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, redactPersonal(tt.in))
		})
	}
}

// TestProjectPersonalData: the setting, on by default, removes personal data from what
// viewers see; the stored event keeps it for the owner.
func TestProjectPersonalData(t *testing.T) {
	t.Parallel()
	ev := &Event{EventID: "e", EventType: TypeToolCall, Tool: &ToolBody{Name: "Bash", Phase: "end", ResultPreview: "Author: Ada Lovelace <ada@corp.io>"}}
	s := projSettings(func(s *Settings) { s.ShowToolArguments = 1 })
	require.Equal(t, 1, s.RedactPersonalData)
	require.Equal(t, "Author: [redacted:name] <[redacted:email]>", Project(ev, s).Tool.ResultPreview)
	s.RedactPersonalData = 0
	require.Equal(t, "Author: Ada Lovelace <ada@corp.io>", Project(ev, s).Tool.ResultPreview)
	require.Equal(t, "Author: Ada Lovelace <ada@corp.io>", ev.Tool.ResultPreview)
}

// TestSanitizeAccountNames: the account name is learned from the workspace root, the
// publisher, home paths, prompts and ls/id output, and masked everywhere after.
func TestSanitizeAccountNames(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)

	// The root is under the home directory: the name is known before any path shows it.
	ss := san.NewSession(SessionHints{WorkspaceRoots: []string{"/Users/dain/src/app"}})
	require.Equal(t, "drwxr-xr-x@ 10 [user]  staff  320 Jan  2 10:00 cmd", ss.SanitizeText("drwxr-xr-x@ 10 dain  staff  320 Jan  2 10:00 cmd"))
	require.Equal(t, "cmd/main.go", ss.SanitizeText("/Users/dain/src/app/cmd/main.go"))

	ss = san.NewSession(SessionHints{AccountName: "mgarcia"})
	require.Equal(t, "ssh [user]@10.0.0.5", ss.SanitizeText("ssh mgarcia@10.0.0.5"))

	// Learned from ls -l output, then masked in later text.
	ss = san.NewSession(SessionHints{})
	require.Equal(t, "-rw-r--r--  1 [user]  staff  12 Jan  2 x.go", ss.SanitizeText("-rw-r--r--  1 carol  staff  12 Jan  2 x.go"))
	require.Equal(t, "whoami: [user]", ss.SanitizeText("whoami: carol"))

	// zsh and Fedora prompts lose the account and host; the host is learned too.
	ss = san.NewSession(SessionHints{})
	require.Equal(t, "~/src % ls", ss.SanitizeText("bob@Bobs-MacBook-Pro ~/src % ls"))
	require.Equal(t, "[host] is up", ss.SanitizeText("Bobs-MacBook-Pro is up"))
	require.Equal(t, "app $ make", ss.SanitizeText("[bob@fedora app]$ make"))

	// fish's prompt; a word before > is not one.
	ss = san.NewSession(SessionHints{})
	require.Equal(t, "~/proj> ls", ss.SanitizeText("tkaur@gpu-node3 ~/proj> ls"))
	require.Equal(t, "ssh [host]", ss.SanitizeText("ssh gpu-node3"))
	ss = san.NewSession(SessionHints{})
	require.Equal(t, "ann@corp.io later> ok", ss.SanitizeText("ann@corp.io later> ok"))
	require.Equal(t, "ann here", ss.SanitizeText("ann here"))
}

// TestSanitizeANSIAndEditorLinks: escapes go before any rule runs, so that a path right
// behind a colour code is still rewritten; editor links are paths.
func TestSanitizeANSIAndEditorLinks(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{WorkspaceRoots: []string{"/home/alice/app"}})
	for in, want := range map[string]string{
		"\x1b[90m/home/alice/notes/todo.md\x1b[0m":                 "~/notes/todo.md",
		"[90m/home/alice/notes/todo.md[0m":                         "~/notes/todo.md",
		`"\u001b[31merror\u001b[0m in /home/alice/x.go"`:           `"error in ~/x.go"`,
		"see cci:1://file:///home/alice/app/next.config.js:3:0-20": "see next.config.js:3:0-20",
		"open vscode://file/home/alice/app/src/a.ts:12":            "open src/a.ts:12",
		"idea://open?file=/home/alice/other/b.kt":                  "~/other/b.kt",
		"title \x1b]0;alice@box: ~\x07done":                        "title done",
	} {
		require.Equal(t, want, ss.SanitizeText(in), "%q", in)
	}
	require.Equal(t, "arr[m] and [1] stay", ss.SanitizeText("arr[m] and [1] stay"))
	// Durations and counts that look like a colour code whose ESC is gone stay.
	for _, in := range []string{"Created .env.local file  [240ms]", "retry in [5m]", "took [12min] (3 runs)", "ok [38ms] [2m] [150m]"} {
		require.Equal(t, in, ss.SanitizeText(in))
	}
	require.Equal(t, "ok done", ss.SanitizeText("[32mok[0m [1;33mdone[0m"))
}

// TestSanitizeProcessOwners: the owner column of ps, top, who and last teaches the account,
// which is then masked there and in later text; daemons' accounts are not learned.
func TestSanitizeProcessOwners(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tc := range []struct{ name, table, later, want string }{
		{"ps aux", "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
			"root           1  0.0  0.1 167744 11300 ?        Ss   09:12   0:02 /sbin/init\n" +
			"avahi        612  0.0  0.0   8540  3500 ?        Ss   09:12   0:00 avahi-daemon: running\n" +
			"mkowalski   4242  1.3  2.0 912344 81200 pts/1    Sl+  10:01   0:09 node server.js\n",
			"ssh mkowalski@build-7", "ssh [user]@build-7"},
		{"ps -ef", "UID          PID    PPID  C STIME TTY          TIME CMD\n" +
			"tnguyen    31337   31200  0 10:02 pts/0    00:00:00 -zsh\n", "Hi tnguyen, done.", "Hi [user], done."},
		{"top", "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n" +
			"   7781 rdiaz     20   0 1184012 210012  61234 S   4.7   1.3   0:12.01 code\n", "owner: rdiaz", "owner: [user]"},
		{"who", "ebrandt  pts/0        2026-12-01 09:58 (10.0.0.8)\n", "logged in as ebrandt", "logged in as [user]"},
		{"a short word", "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
			"will        4242  1.3  2.0 912344 81200 pts/1    Sl+  10:01   0:09 node server.js\n",
			"I will check /home/will/x", "I will check ~/x"},
	} {
		ss := san.NewSession(SessionHints{})
		out := ss.SanitizeText(tc.table)
		require.Equal(t, tc.want, ss.SanitizeText(tc.later), tc.name)
		require.Contains(t, out, "[user]", tc.name)
		require.NotContains(t, out, "[user]        612", tc.name) // avahi stays
	}
	// A table of daemons only teaches nothing.
	ss := san.NewSession(SessionHints{})
	ss.SanitizeText("USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
		"syslog       701  0.0  0.0 222404  5900 ?        Ssl  09:12   0:00 /usr/sbin/rsyslogd\n" +
		"_windowserver 153  4.0  0.9 412345 99999 ??       Ss   9:12AM   1:02.33 WindowServer\n")
	require.Equal(t, "syslog rotated", ss.SanitizeText("syslog rotated"))
}

// TestSanitizeAccountLines: sudo's prompt, an environment dump, ssh -v and a passwd entry
// teach the account; a computer named for its owner is a host. A .env file's USERNAME= is a
// service's account and teaches nothing.
func TestSanitizeAccountLines(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tc := range []struct{ name, first, later, want string }{
		{"sudo later", "[sudo] password for tkaur: ", "hi tkaur", "hi [user]"},
		{"env", "$ env\nSHELL=/bin/zsh\nUSER=tkaur\nLOGNAME=tkaur\n", "ping tkaur", "ping [user]"},
		{"ssh -v", `debug1: Authenticated to 10.0.0.5 ([10.0.0.5]:22) as 'tkaur' using "publickey".`, "tkaur done", "[user] done"},
		{"passwd", "tkaur:x:1000:1000:Taran Kaur,,,:/srv/tkaur:/bin/bash", "tkaur done", "[user] done"},
		{"a maker's driver is no machine", "modprobe: FATAL: Module legion-laptop not found.", "rmmod legion-laptop", "rmmod legion-laptop"},
		{"computer name", "$ scutil --get ComputerName\nTaran's MacBook Pro", "AirDrop to Taran's MacBook Pro", "AirDrop to [host]"},
		{".env keeps its service account", "USERNAME=shopsvc\nPASSWORD_FILE=/run/secrets/db\n", "the shopsvc role", "the shopsvc role"},
	} {
		ss := san.NewSession(SessionHints{})
		out := ss.SanitizeText(tc.first)
		if tc.name != ".env keeps its service account" {
			require.NotContains(t, out, "tkaur", tc.name)
			require.NotContains(t, out, "Taran's", tc.name)
		}
		require.Equal(t, tc.want, ss.SanitizeText(tc.later), tc.name)
	}
}

// TestSanitizeCIAccount: a CI agent's account learned from its home directory is masked where
// it stands as an account (ls -l's owner and group, id's output), not where the word names
// the service (a host, a product).
func TestSanitizeCIAccount(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	ss := san.NewSession(SessionHints{})
	require.Equal(t, "cd ~/workspace/app", ss.SanitizeText("cd /home/jenkins/workspace/app"))
	require.Equal(t, "drwxrwxr-x  3 [user] [user]  4096 Dec 17 01:21 .", ss.SanitizeText("drwxrwxr-x  3 jenkins jenkins  4096 Dec 17 01:21 ."))
	require.Equal(t, "uid=1001([user]) gid=1001([user])", ss.SanitizeText("uid=1001(jenkins) gid=1001(jenkins)"))
	kept := "Open https://jenkins.corp.io/job/app and the Jenkins pipeline."
	require.Equal(t, kept, ss.SanitizeText(kept))
}

// TestPersonalDataInsideJSON: the account, name and address rules read what a tool's JSON
// output or a numbered file listing holds as they read plain text: a line opened by a JSON
// string's quote, its escaped line break or a gutter, and < > as JSON escapes them.
func TestPersonalDataInsideJSON(t *testing.T) {
	san := testSanitizer(t)
	for _, in := range []string{
		`{"exit":"0","output":"-rw-r--r--  1 zoltanq  staff  1204 Mar  3 10:12 main.go"}`,
		`{"output":"total 8\n-rw-r--r--  1 zoltanq  staff  1204 Mar  3 10:12 main.go"}`,
		"    12→drwxr-xr-x@ 10 zoltanq  staff   320 Mar  3 10:12 src",
		`{"exit":"0","output":"$ whoami\nzoltanq"}`,
		`{"arguments":"{\"result\":\"$ whoami\\nzoltanq\"}"}`,
		`{"output":"Author: Zoltan Quist \u003czoltan.quist@acme-corp.io\u003e"}`,
		`{"output":"\"author\": \"Zoltan Quist \u003czoltan.quist@acme-corp.io\u003e\","}`,
		`{"output":"zoltanq@zoltans-mbp ~/projects/app % ls"}`,
		`{"arguments":"{\"result\":\"zoltanq@zoltans-mbp ~/projects/app % ls\"}"}`,
		"    12→zoltanq@zoltans-mbp ~/projects/app % ls",
	} {
		out := redactPersonal(san.NewSession(SessionHints{}).SanitizeText(in))
		for _, w := range []string{"zoltanq", "Zoltan", "Quist", "zoltan.quist"} {
			require.NotContains(t, out, w, "%s\n→ %s", in, out)
		}
	}
	// An account's record (gh api user, a users API): its name member is a person's name;
	// a mailbox's lower-case name and a repository's name are not.
	require.Equal(t, `{"login": "zq", "name": "[redacted:name]", "company": "Acme", "email": "[redacted:email]"}`,
		redactPersonal(`{"login": "zq", "name": "Zoltan Quist", "company": "Acme", "email": "zoltan.quist@acme-corp.io"}`))
	require.Equal(t, `[{"login":"zq","name":"[redacted:name]"}], {"repo": {"name": "compiler"}}, {"name": "billing", "email": "[redacted:email]"}`,
		redactPersonal(`[{"login":"zq","name":"Zoltan Quist"}], {"repo": {"name": "compiler"}}, {"name": "billing", "email": "billing@acme-corp.io"}`))
	// An address right after a JSON escape keeps the escape whole.
	require.Equal(t, `{"to":"\n[redacted:email]"}`, redactPersonal(`{"to":"\nzoltan.quist@acme-corp.io"}`))
}

// TestStandInAddresses: documentation's stand-in addresses pass; a person's address at a
// domain that is also a stand-in's (email.com is a mail provider) does not.
func TestStandInAddresses(t *testing.T) {
	t.Parallel()
	require.Equal(t, "your@email.com, user@domain.com, me@example.com", redactPersonal("your@email.com, user@domain.com, me@example.com"))
	require.Equal(t, "[redacted:email], [redacted:email]", redactPersonal("wei.zhang@email.com, tara.wind@domain.com"))
}

// TestChineseHeaderNames: 作者 (author), 维护者 (maintainer), 联系人 (contact) lines name a
// person as their English forms do; a team's or a product's name after them is no person.
func TestChineseHeaderNames(t *testing.T) {
	t.Parallel()
	require.Equal(t, "作者：[redacted:name]\n维护者：[redacted:name]（[redacted:email]）\n联系人：[redacted:name]，电话请见内网",
		redactPersonal("作者：李娜\n维护者：王芳（wangfang@corp.cn）\n联系人：Wei Zhang，电话请见内网"))
	require.Equal(t, "作者：本项目团队\n开发者：cpolar", redactPersonal("作者：本项目团队\n开发者：cpolar"))
}
