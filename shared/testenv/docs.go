package testenv

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caarlos0/env/v11"
)

// Documented is the default a document gives a variable.
type Documented struct {
	// Value is the default as written ("262144", "10s"); empty when Fixed is false.
	Value string
	// Fixed is false when the document gives no literal default: the variable is required,
	// empty by default, or derived from other settings ("— (required)", "empty", "same host").
	Fixed bool
	// Where is the file and line, for messages.
	Where string
}

var (
	headingPrefix = regexp.MustCompile("\\(`(OPENVIBE_[A-Z0-9_]*_)(…|\\.\\.\\.)`\\)")
	varName       = regexp.MustCompile(`^_?[A-Z][A-Z0-9_]*$`)
	backticked    = regexp.MustCompile("`([^`]*)`")
	valueSplit    = regexp.MustCompile(` / |, `)
)

// DocumentedDefaults reads the configuration tables of a Markdown document: tables whose
// second column is headed "default", one row per variable or per group of them. The first
// cell names variables in backticks, written in full (`OPENVIBE_CHAT_RATE`), as a suffix of
// the previous one's service prefix (`OPENVIBE_CHAT_RATE` / `_BURST`), or without the prefix a
// heading gives (`### chat-socket (`OPENVIBE_CHAT_…`)` then `RATE`); `_FILE` twins are
// skipped. The second cell gives one default for all of them or one each, separated by " / "
// or ", ".
func DocumentedDefaults(path string) (map[string]Documented, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]Documented{}
	var prefix string
	var inTable, configTable bool
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			prefix = ""
			if m := headingPrefix.FindStringSubmatch(line); m != nil {
				prefix = m[1]
			}
		}
		if !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !inTable { // the header row
			inTable = true
			configTable = len(cells) >= 2 && strings.EqualFold(strings.TrimSpace(cells[1]), "default")
			continue
		}
		if !configTable || len(cells) < 2 || strings.HasPrefix(strings.TrimSpace(cells[0]), "-") {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, n)
		names := rowNames(cells[0], prefix)
		values := valueSplit.Split(strings.TrimSpace(cells[1]), -1)
		if len(values) != len(names) && len(values) != 1 {
			return nil, fmt.Errorf("%s: %d variables but %d defaults", where, len(names), len(values))
		}
		for i, name := range names {
			v := values[0]
			if len(values) > 1 {
				v = values[i]
			}
			d := documentedValue(v)
			d.Where = where
			out[name] = d
		}
	}
	return out, sc.Err()
}

// rowNames resolves the variable names of a table row's first cell.
func rowNames(cell, headingPrefix string) []string {
	var names []string
	var service string // OPENVIBE_X_ of the last full name
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		name := m[1]
		switch {
		case !varName.MatchString(name) || name == "_FILE":
			continue
		case strings.HasPrefix(name, "OPENVIBE_"):
			if parts := strings.SplitN(name, "_", 3); len(parts) == 3 {
				service = parts[0] + "_" + parts[1]
			}
		case strings.HasPrefix(name, "_") && service != "":
			name = service + name
		case headingPrefix != "":
			name = headingPrefix + name
		default:
			continue
		}
		names = append(names, name)
	}
	return names
}

// documentedValue reads one default: the backticked literal when there is one, else a bare
// token such as 50 or 10s; words, a dash, "empty" or "(none)" give no fixed default.
func documentedValue(v string) Documented {
	v = strings.TrimSpace(v)
	if m := backticked.FindStringSubmatch(v); m != nil {
		return Documented{Value: m[1], Fixed: true}
	}
	switch {
	case v == "", v == "-", strings.HasPrefix(v, "—"), v == "empty", v == "(none)", strings.Contains(v, " "):
		return Documented{}
	}
	return Documented{Value: v, Fixed: true}
}

// RequireDocumentedDefaults checks the defaults that cfg's env tags declare against the
// tables of the given documents: every variable a document lists must have the default it
// says (durations and numbers compare by value: "0" is "0s"), and one documented with no
// fixed default must have none. It returns the variables of cfg that no document lists,
// sorted as cfg declares them.
func RequireDocumentedDefaults(t testing.TB, cfg any, docs ...string) (undocumented []string) {
	t.Helper()
	params, err := env.GetFieldParamsWithOptions(cfg, env.Options{Environment: map[string]string{}})
	if err != nil {
		t.Fatalf("config fields: %v", err)
	}
	tables := make([]map[string]Documented, len(docs))
	for i, path := range docs {
		if tables[i], err = DocumentedDefaults(path); err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
	}
	for _, p := range params {
		found := false
		for _, table := range tables {
			d, ok := table[p.Key]
			if !ok {
				continue
			}
			found = true
			code := Documented{Value: p.DefaultValue, Fixed: p.HasDefaultValue && p.DefaultValue != ""}
			if d.Fixed != code.Fixed || (d.Fixed && !sameValue(d.Value, code.Value)) {
				t.Errorf("%s: %s documented with default %s, the code's is %s", d.Where, p.Key, describe(d), describe(code))
			}
		}
		if !found {
			undocumented = append(undocumented, p.Key)
		}
	}
	return undocumented
}

// RequireDefaults checks a service's DefaultConfig: cfg, a pointer to it, must be valid (its
// Validate method returns nil) and every variable it reads must be listed, with the default
// it has, in the named documents under the repository's docs/ directory.
func RequireDefaults(t testing.TB, cfg interface{ Validate() error }, docs ...string) {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("the defaults are not valid: %v", err)
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	paths := make([]string, len(docs))
	for i, d := range docs {
		paths[i] = filepath.Join(root, "docs", d)
	}
	if missing := RequireDocumentedDefaults(t, cfg, paths...); len(missing) > 0 {
		t.Errorf("variables missing from %s: %s", strings.Join(docs, ", "), strings.Join(missing, ", "))
	}
}

func describe(d Documented) string {
	if !d.Fixed {
		return "none"
	}
	return strconv.Quote(d.Value)
}

func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	if da, err := time.ParseDuration(durationForm(a)); err == nil {
		if db, err := time.ParseDuration(durationForm(b)); err == nil {
			return da == db
		}
	}
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	return errA == nil && errB == nil && fa == fb
}

// durationForm lets a bare 0 read as a duration.
func durationForm(s string) string {
	if s == "0" {
		return "0s"
	}
	return s
}
