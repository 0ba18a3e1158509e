package activity

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// command is what a shell command line is, for its summary.
type command struct {
	label string // "tests (go test)", "git status", "make"
	tests bool
}

// Commands recognised by their first words. The label says what kind of work they are.
var commandKinds = []struct {
	words []string
	kind  string
}{
	{[]string{"go", "test"}, "tests"}, {[]string{"pytest"}, "tests"}, {[]string{"python", "-m", "pytest"}, "tests"},
	{[]string{"python3", "-m", "pytest"}, "tests"}, {[]string{"uv", "run", "pytest"}, "tests"},
	{[]string{"npm", "test"}, "tests"}, {[]string{"npm", "run", "test"}, "tests"}, {[]string{"yarn", "test"}, "tests"},
	{[]string{"pnpm", "test"}, "tests"}, {[]string{"pnpm", "run", "test"}, "tests"}, {[]string{"bun", "test"}, "tests"},
	{[]string{"npx", "jest"}, "tests"}, {[]string{"npx", "vitest"}, "tests"}, {[]string{"jest"}, "tests"}, {[]string{"vitest"}, "tests"},
	{[]string{"cargo", "test"}, "tests"}, {[]string{"cargo", "nextest"}, "tests"}, {[]string{"mix", "test"}, "tests"},
	{[]string{"rspec"}, "tests"}, {[]string{"bundle", "exec", "rspec"}, "tests"}, {[]string{"phpunit"}, "tests"},
	{[]string{"make", "test"}, "tests"}, {[]string{"dotnet", "test"}, "tests"}, {[]string{"mvn", "test"}, "tests"},
	{[]string{"gradle", "test"}, "tests"}, {[]string{"./gradlew", "test"}, "tests"}, {[]string{"deno", "test"}, "tests"},
	{[]string{"ctest"}, "tests"}, {[]string{"swift", "test"}, "tests"},
	{[]string{"go", "build"}, "a build"}, {[]string{"cargo", "build"}, "a build"}, {[]string{"npm", "run", "build"}, "a build"},
	{[]string{"pnpm", "build"}, "a build"}, {[]string{"yarn", "build"}, "a build"}, {[]string{"mix", "compile"}, "a build"},
	{[]string{"tsc"}, "a type check"}, {[]string{"npx", "tsc"}, "a type check"}, {[]string{"mypy"}, "a type check"},
	{[]string{"go", "vet"}, "checks"}, {[]string{"golangci-lint"}, "checks"}, {[]string{"eslint"}, "checks"}, {[]string{"npx", "eslint"}, "checks"},
	{[]string{"ruff"}, "checks"}, {[]string{"flake8"}, "checks"}, {[]string{"cargo", "clippy"}, "checks"}, {[]string{"mix", "credo"}, "checks"},
	{[]string{"npm", "run", "lint"}, "checks"},
}

// classify names a command line by its first simple command, skipping cd, environment
// assignments and shell wrappers (bash -lc '…').
func classify(line string) command {
	words := firstCommand(line)
	if len(words) == 0 {
		return command{}
	}
	for _, k := range commandKinds {
		if hasPrefix(words, k.words) {
			return command{label: k.kind + " (" + strings.Join(k.words, " ") + ")", tests: k.kind == "tests"}
		}
	}
	label := path.Base(words[0])
	if len(words) > 1 && isSubcommand(words[1]) {
		label += " " + words[1]
	}
	return command{label: label}
}

// firstCommand splits the first command of a line that does work into words.
func firstCommand(line string) []string {
	for _, part := range splitCommands(unwrapShell(line)) {
		words := strings.Fields(part)
		for len(words) > 0 && (strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") || words[0] == "sudo" || words[0] == "time" || words[0] == "env") {
			words = words[1:]
		}
		if len(words) == 0 || words[0] == "cd" || words[0] == "export" || words[0] == "source" || words[0] == "." {
			continue
		}
		return words
	}
	return nil
}

var shellWrap = regexp.MustCompile(`^\s*(?:/usr/bin/env\s+)?(?:/bin/|/usr/bin/)?(?:ba|z)?sh\s+-l?c\s+(.*)$`)

func unwrapShell(line string) string {
	if m := shellWrap.FindStringSubmatch(line); m != nil {
		line = strings.TrimSpace(m[1])
		if len(line) >= 2 && (line[0] == '\'' || line[0] == '"') && line[len(line)-1] == line[0] {
			line = line[1 : len(line)-1]
		}
	}
	return line
}

var separators = regexp.MustCompile(`&&|\|\||;|\||\n`)

func splitCommands(line string) []string { return separators.Split(line, -1) }

func hasPrefix(words, prefix []string) bool {
	if len(words) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if path.Base(words[i]) != p && words[i] != p {
			return false
		}
	}
	return true
}

var subcommand = regexp.MustCompile(`^[a-z][a-z0-9-]{1,20}$`)

func isSubcommand(w string) bool { return subcommand.MatchString(w) }

var (
	failedRE = regexp.MustCompile(`(?i)\b(\d+) (?:failed|failures?|failing|errors?)\b`)
	passedRE = regexp.MustCompile(`(?i)\b(\d+) (?:passed|passing|tests? passed)\b`)
	goFail   = regexp.MustCompile(`--- FAIL: `)
	goPass   = regexp.MustCompile(`--- PASS: `)
)

// TestCounts reads a test run's output for how many tests failed and passed. ok is false when
// the output names no counts.
func TestCounts(out string) (failed, passed int, ok bool) {
	if n := len(goFail.FindAllStringIndex(out, -1)); n > 0 {
		return n, len(goPass.FindAllStringIndex(out, -1)), true
	}
	f, fok := lastNumber(failedRE, out)
	p, pok := lastNumber(passedRE, out)
	if fok || pok {
		return f, p, true
	}
	if n := len(goPass.FindAllStringIndex(out, -1)); n > 0 {
		return 0, n, true
	}
	return 0, 0, false
}

func lastNumber(re *regexp.Regexp, s string) (int, bool) {
	m := re.FindAllStringSubmatch(s, -1)
	if len(m) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(m[len(m)-1][1])
	return n, err == nil
}
