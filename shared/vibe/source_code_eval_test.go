package vibe

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// Source code written by others, read the way an agent reads a file: the standard libraries
// and tools installed on every machine that builds this module. None of it was written with
// the rules, and none of it holds a credential, so every redaction mark in it is a false
// redaction. The trees are read in place (nothing is copied into the repository):
//
//   - go: the Go distribution's own source, runtime.GOROOT()/src (BSD-3-Clause);
//   - python: Debian's Python 3.11 standard library, /usr/lib/python3.11 (PSF-2.0);
//   - js: npm and its dependencies as Debian installs them, /usr/lib/node_modules/npm
//     (Artistic-2.0, ISC, MIT and others, each package's own);
//   - perl: Debian's Perl 5.36 modules, /usr/share/perl/5.36 (Artistic-1.0 or GPL-1.0+);
//   - c: the C headers Debian installs, /usr/include (glibc's LGPL-2.1+, Linux's GPL-2.0
//     with the syscall note, and the other -dev packages');
//   - shell: bash-completion's scripts, /usr/share/bash-completion/completions (GPL-2.0+);
//   - markdown: npm's documentation, /usr/lib/node_modules/npm/docs/content (Artistic-2.0);
//   - pydist: the third-party Python packages Debian installs, /usr/lib/python3/dist-packages
//     (pip, setuptools, cryptography, oauthlib, Pygments, docker-compose…, each package's
//     own licence);
//   - docs: the packages' documentation, /usr/share/doc (READMEs, NEWS, HTML manuals,
//     examples; each package's own licence); only text files, and no chunk holding a
//     certificate (public, but a base64 body the entropy rule takes, by design);
//   - gomod: the Go modules this module builds with, as the module cache holds them (go
//     list -deps -test ./...: pgx, echo, go-redis, chromedp, x/crypto, x/net, modernc.org's
//     SQLite translated from C…, each module's own licence), the secret scanner's module
//     left out; split by "gomod:<module>@<version>", so a module's files are all in one
//     half.
//
// Test files and test data are left out (they hold test keys and certificates on purpose),
// and so is any chunk holding a private key block. Every file is cut at line ends into
// chunks of at most 4000 bytes, the longest text the publisher sends; each chunk is one
// event, sanitized in a session of its own. Files are split by the SHA-256 of
// "<tree>:<path>" with the corpora's rule ("cfg:<absolute path>" for pydist and docs, the
// key they were first probed with), so the held-back half is never seen while rules are
// fitted.
type sourceTree struct {
	name, root string
	ext        string
	skipDirs   []string // directory names whose files are tests or test data
	byPath     bool     // split by "cfg:<absolute path>"
	textOnly   bool     // leave out files that are not UTF-8 text, and chunks with a certificate
	// dirs, when set, lists the directories under root that are read (the modules of a
	// module cache); files are then split by the first of them they are under, named
	// relative to root, so a module's files are all in one half.
	dirs func(root string) []string
}

// splitKey is the name a file of the tree is split by.
func (tr sourceTree) splitKey(rel string) string {
	if tr.byPath {
		return "cfg:" + tr.root + "/" + rel
	}
	if tr.dirs != nil {
		if at := strings.IndexByte(rel, '@'); at > 0 {
			if sl := strings.IndexByte(rel[at:], '/'); sl > 0 {
				rel = rel[:at+sl] // gomod:github.com/jackc/pgx/v5@v5.12.0
			}
		}
	}
	return tr.name + ":" + rel
}

// goModCache is the module cache of the Go that runs the tests.
func goModCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if d := os.Getenv("GOPATH"); d != "" {
		return filepath.Join(filepath.SplitList(d)[0], "pkg", "mod")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, "go", "pkg", "mod")
}

// dependencyModules returns the directories in the module cache of the modules whose
// packages this module's packages and tests import (go list -deps -test ./...): third-party
// Go that an agent working here reads, the same set wherever the module builds. The secret
// scanner's own module is left out: its rules hold example secrets on purpose.
func dependencyModules(root string) []string {
	cmd := exec.Command("go", "list", "-deps", "-test", "-f", "{{with .Module}}{{if not .Main}}{{.Dir}}{{end}}{{end}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var dirs []string
	for _, d := range strings.Fields(string(out)) {
		if strings.HasPrefix(d, root+string(filepath.Separator)) && !strings.Contains(d, "/gitleaks/") && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	return dirs
}

func sourceTrees() []sourceTree {
	return []sourceTree{
		{name: "go", root: filepath.Join(runtime.GOROOT(), "src"), ext: ".go", skipDirs: []string{"testdata"}},
		{name: "python", root: "/usr/lib/python3.11", ext: ".py", skipDirs: []string{"test", "tests", "idle_test", "site-packages", "dist-packages"}},
		{name: "js", root: "/usr/lib/node_modules/npm", ext: ".js", skipDirs: []string{"test", "tests", "__tests__", "fixtures"}},
		{name: "perl", root: "/usr/share/perl/5.36", ext: ".pm", skipDirs: []string{"t"}},
		{name: "c", root: "/usr/include", ext: ".h"},
		{name: "shell", root: "/usr/share/bash-completion/completions"},
		{name: "markdown", root: "/usr/lib/node_modules/npm/docs/content", ext: ".md"},
		{name: "pydist", root: "/usr/lib/python3/dist-packages", ext: ".py", skipDirs: []string{"test", "tests", "testing"}, byPath: true},
		{name: "docs", root: "/usr/share/doc", byPath: true, textOnly: true},
		{name: "gomod", root: goModCache(), ext: ".go", skipDirs: []string{"testdata", "vendor", "_examples"}, dirs: dependencyModules},
	}
}

func (tr sourceTree) testFile(name string) bool {
	switch tr.name {
	case "go", "gomod":
		return strings.HasSuffix(name, "_test.go")
	case "python", "pydist":
		return strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py")
	case "js":
		return strings.HasSuffix(name, ".test.js") || strings.HasSuffix(name, ".spec.js")
	}
	return false
}

// sourceChunks cuts text at line ends into pieces of at most n bytes (a longer line is cut
// where it must be).
func sourceChunks(text string, n int) []string {
	var out []string
	for len(text) > 0 {
		k := min(n, len(text))
		if k < len(text) {
			if i := strings.LastIndexByte(text[:k], '\n'); i > 0 {
				k = i + 1
			}
		}
		out = append(out, text[:k])
		text = text[k:]
	}
	return out
}

// firstChange returns the first line that differs, cut to a window around the change, for
// -eval.show.
func firstChange(in, out string) (string, string) {
	il, ol := strings.Split(in, "\n"), strings.Split(out, "\n")
	for i := range ol {
		if i < len(il) && il[i] == ol[i] {
			continue
		}
		a, b := "", ol[i]
		if i < len(il) {
			a = il[i]
		}
		k := 0
		for k < len(a) && k < len(b) && a[k] == b[k] {
			k++
		}
		from := max(0, k-120)
		return a[from:min(len(a), k+120)], b[from:min(len(b), k+120)]
	}
	return in, out
}

// Held-back ceilings per tree, in percent of chunks with a false redaction mark: just above
// the last build measured, so that a rise is a regression. They move only toward the
// target, ≤ 1% for every tree, with the figures in docs/sanitizer.md.
var sourceCodeFloors = map[string]float64{"go": 0.45, "python": 0.9, "js": 0.5, "perl": 0.85, "c": 0.45, "shell": 1.5, "markdown": 1.0, "pydist": 0.95, "docs": 1.0, "gomod": 0.25}

// sourceCodeChunks is each tree's held-back half as the floors were measured: Debian 12 with
// what scripts/install-test-deps.sh installs, and this module's dependencies at the versions
// go.mod names (a dependency upgraded changes gomod's count until its floor is measured again). The trees under /usr/share and dist-packages
// grow with the packages a machine has (chromium and docker-compose bring completion scripts,
// Python packages and their documentation), so on a machine whose tree differs the figure is
// reported and its floor not applied.
var sourceCodeChunks = map[string]int{"go": 8427, "python": 1495, "js": 1154, "perl": 1137, "c": 14953, "shell": 136, "markdown": 108, "pydist": 3049, "docs": 6810, "gomod": 20481}

// TestSourceCodeHarmless measures false redactions on source code the project did not write:
//
//	go test ./vibe -run TestSourceCodeHarmless -v                                # held-back half
//	go test ./vibe -run TestSourceCodeHarmless -eval.split=dev -eval.show -v     # development half
func TestSourceCodeHarmless(t *testing.T) {
	t.Parallel()
	require.Contains(t, []string{"dev", "held"}, *evalSplit)
	show := *evalShow && *evalSplit == "dev"
	san, err := NewSanitizer()
	require.NoError(t, err)
	var report strings.Builder
	fmt.Fprintf(&report, "source code, %s half:\n", *evalSplit)
	for _, tr := range sourceTrees() {
		root, err := filepath.EvalSymlinks(tr.root) // Debian's perl tree is a link to its version
		if err != nil {
			t.Logf("%s: %s is missing, not measured", tr.name, tr.root)
			continue
		}
		key := tr
		tr.root = root
		var files, chunks, marked, rewritten, keyChunks int
		rules := map[string]int{}
		walkRoots := []string{tr.root}
		if tr.dirs != nil {
			walkRoots = tr.dirs(tr.root)
		}
		for _, walkRoot := range walkRoots {
			err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil // an unreadable entry is left out, like a file we may not read
				}
				if d.IsDir() {
					if slices.Contains(tr.skipDirs, d.Name()) {
						return filepath.SkipDir
					}
					return nil
				}
				if !d.Type().IsRegular() || tr.ext != "" && filepath.Ext(p) != tr.ext || tr.testFile(d.Name()) {
					return nil
				}
				rel, _ := filepath.Rel(tr.root, p)
				rel = filepath.ToSlash(rel)
				if evalSplitOf(key.splitKey(rel)) != *evalSplit {
					return nil
				}
				b, err := os.ReadFile(p)
				if err != nil || len(b) > 1<<20 || tr.textOnly && (!utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0) {
					return nil
				}
				files++
				for _, c := range sourceChunks(string(b), 4000) {
					if strings.Contains(c, "PRIVATE KEY") || tr.textOnly && strings.Contains(c, "BEGIN CERTIFICATE") {
						keyChunks++
						continue
					}
					chunks++
					out := san.NewSession(SessionHints{}).SanitizeText(c)
					switch {
					case strings.Count(out, "[redacted") > strings.Count(c, "[redacted"):
						marked++
						for _, m := range strings.Split(out, "[redacted:")[1:] {
							if j := strings.IndexByte(m, ']'); j > 0 {
								rules[m[:j]]++
							}
						}
						if show {
							in, o := firstChange(c, out)
							t.Logf("ALTERED %s:%s\n  in:  %q\n  out: %q", tr.name, rel, in, o)
						}
					case out != c:
						rewritten++ // paths made relative or cut to their file name, by design
					}
				}
				return nil
			})
			require.NoError(t, err)
		}
		if chunks == 0 {
			t.Logf("%s: no files in %s", tr.name, tr.root)
			continue
		}
		pct := 100 * float64(marked) / float64(chunks)
		fmt.Fprintf(&report, "  %-7s %5d files %6d chunks: %.2f%% with a false redaction (%d), %d with paths rewritten, %d holding a private key left out\n",
			tr.name, files, chunks, pct, marked, rewritten, keyChunks)
		for _, r := range slices.Sorted(maps.Keys(rules)) {
			fmt.Fprintf(&report, "          %6d × %s\n", rules[r], r)
		}
		if pct > 1 {
			t.Logf("TARGET NOT MET on the %s half (%s): %.2f%% of chunks with a false redaction (target ≤ 1%%)", *evalSplit, tr.name, pct)
		}
		switch {
		case *evalSplit != "held":
		case chunks != sourceCodeChunks[tr.name]:
			t.Logf("%s: the held-back half has %d chunks here, %d where its floor was measured (another set of packages): floor not applied",
				tr.name, chunks, sourceCodeChunks[tr.name])
		default:
			require.LessOrEqualf(t, pct, sourceCodeFloors[tr.name], "%s: false redactions rose above their floor", tr.name)
		}
	}
	t.Log(report.String())
}
