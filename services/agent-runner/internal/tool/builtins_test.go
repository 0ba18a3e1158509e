package tool

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/store"
)

type memTodos struct{ todos []store.Todo }

func (m *memTodos) GetTodos(context.Context, string) ([]store.Todo, error) { return m.todos, nil }
func (m *memTodos) SetTodos(_ context.Context, _ string, t []store.Todo) error {
	m.todos = t
	return nil
}

func newCtx(t *testing.T) *Context {
	dir := t.TempDir()
	return &Context{SessionID: "ses_1", ProjectDir: dir, WorkDir: dir, Root: dir, Files: NewFileTimes(),
		Todos: &memTodos{}, Shell: &Shell{},
		Ask: func(context.Context, AskInput) error { return nil }}
}

func call(t *testing.T, tl Tool, tc *Context, in any) (Result, error) {
	t.Helper()
	b, err := json.Marshal(in)
	require.NoError(t, err)
	return tl.Run(t.Context(), tc, b)
}

func write(t *testing.T, tc *Context, name, content string) string {
	p := filepath.Join(tc.WorkDir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestReadWindowAndBinary(t *testing.T) {
	tc := newCtx(t)
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, "line "+string(rune('0'+i%10)))
	}
	write(t, tc, "a.txt", strings.Join(lines, "\n")+"\n")
	res, err := call(t, Read(), tc, map[string]any{"file_path": "a.txt", "offset": 3, "limit": 2})
	require.NoError(t, err)
	require.Equal(t, "     3\tline 3\n     4\tline 4\n\n(more lines follow; continue with offset 5)\n", res.Output)

	write(t, tc, "bin.dat", "\x00\x01\x02ELF")
	_, err = call(t, Read(), tc, map[string]any{"file_path": "bin.dat"})
	require.ErrorContains(t, err, "binary file")
	_, err = call(t, Read(), tc, map[string]any{"file_path": "missing.txt"})
	require.ErrorContains(t, err, "file not found")
	_, err = call(t, Read(), tc, map[string]any{})
	require.ErrorContains(t, err, "missing required field(s) file_path")
}

func TestEditRequiresReadAndDetectsChanges(t *testing.T) {
	tc := newCtx(t)
	p := write(t, tc, "main.go", "package main\n")
	_, err := call(t, Edit(), tc, map[string]any{"file_path": "main.go", "old_string": "main", "new_string": "app"})
	require.ErrorContains(t, err, "must read")
	_, err = call(t, Read(), tc, map[string]any{"file_path": "main.go"})
	require.NoError(t, err)
	// Someone else changes the file after the read.
	require.NoError(t, os.WriteFile(p, []byte("package main // changed elsewhere\n"), 0o644))
	_, err = call(t, Edit(), tc, map[string]any{"file_path": "main.go", "old_string": "main", "new_string": "app"})
	require.ErrorContains(t, err, "modified since you last read it")
	_, err = call(t, Write(), tc, map[string]any{"file_path": "main.go", "content": "x"})
	require.ErrorContains(t, err, "modified since you last read it")
}

func TestEditFailuresTellTheModelWhatDiffered(t *testing.T) {
	src := "func add(a, b int) int {\n\treturn a + b\n}\n\nfunc sub(a, b int) int {\n\treturn a - b\n}\n"
	cases := []struct {
		name     string
		old      string
		all      bool
		contains []string
	}{
		{"whitespace", "func add(a, b int) int {\n    return a + b\n}", false,
			[]string{"closest text is at lines 1-3", "First difference at line 2", `"····return a + b"`, `"→return a + b"`, "differ only in whitespace"}},
		{"wrong text", "func add(a, b int) int {\n\treturn a * b\n}", false,
			[]string{"closest text is at lines 1-3", "First difference at line 2", `"→return a * b"`, "Copy the text exactly"}},
		{"nothing similar", "completely unrelated zebra", false, []string{"No similar text exists"}},
		{"ambiguous", "int {", false, []string{"occurs 2 times", "at lines 1, 5", "replace_all"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := newCtx(t)
			write(t, tc, "m.go", src)
			_, err := call(t, Read(), tc, map[string]any{"file_path": "m.go"})
			require.NoError(t, err)
			_, err = call(t, Edit(), tc, map[string]any{"file_path": "m.go", "old_string": c.old, "new_string": "X", "replace_all": c.all})
			require.Error(t, err)
			require.True(t, IsInputError(err))
			for _, s := range c.contains {
				require.Contains(t, err.Error(), s)
			}
		})
	}
}

func TestEditReplaces(t *testing.T) {
	tc := newCtx(t)
	p := write(t, tc, "m.txt", "a x a x\r\nline two\r\n")
	_, err := call(t, Read(), tc, map[string]any{"file_path": "m.txt"})
	require.NoError(t, err)
	res, err := call(t, Edit(), tc, map[string]any{"file_path": "m.txt", "old_string": "x", "new_string": "y", "replace_all": true})
	require.NoError(t, err)
	require.Contains(t, res.Output, "replaced 2 occurrence(s)")
	// CRLF files are matched with LF old_string and keep their line endings.
	res, err = call(t, Edit(), tc, map[string]any{"file_path": "m.txt", "old_string": "a y a y\nline two", "new_string": "one\ntwo"})
	require.NoError(t, err, res.Output)
	b, _ := os.ReadFile(p)
	require.Equal(t, "one\r\ntwo\r\n", string(b))
	// A second edit right after needs no new read: the tool recorded its own write.
	_, err = call(t, Edit(), tc, map[string]any{"file_path": "m.txt", "old_string": "one", "new_string": "1"})
	require.NoError(t, err)
}

func TestWriteCreatesAndGuards(t *testing.T) {
	tc := newCtx(t)
	res, err := call(t, Write(), tc, map[string]any{"file_path": "dir/new.txt", "content": "hello"})
	require.NoError(t, err)
	require.Contains(t, res.Output, "Created")
	b, _ := os.ReadFile(filepath.Join(tc.WorkDir, "dir/new.txt"))
	require.Equal(t, "hello", string(b))
	write(t, tc, "old.txt", "keep")
	_, err = call(t, Write(), tc, map[string]any{"file_path": "old.txt", "content": "clobber"})
	require.ErrorContains(t, err, "must read")
}

func TestGlobAndGrepHonourGitignore(t *testing.T) {
	tc := newCtx(t)
	write(t, tc, ".gitignore", "dist/\n*.log\n")
	write(t, tc, "src/a.go", "package a // TODO one\n")
	write(t, tc, "src/sub/.gitignore", "gen.go\n")
	write(t, tc, "src/sub/gen.go", "package sub // TODO generated\n")
	write(t, tc, "src/sub/b.go", "package sub // TODO two\n")
	write(t, tc, "dist/out.go", "package dist // TODO built\n")
	write(t, tc, "debug.log", "TODO log\n")
	write(t, tc, "img.png", "\x00\x00TODO")

	res, err := call(t, Glob(), tc, map[string]any{"pattern": "**/*.go"})
	require.NoError(t, err)
	require.Contains(t, res.Output, "src/a.go")
	require.Contains(t, res.Output, "src/sub/b.go")
	require.NotContains(t, res.Output, "gen.go")
	require.NotContains(t, res.Output, "dist")

	res, err = call(t, Grep(), tc, map[string]any{"pattern": "TODO \\w+"})
	require.NoError(t, err)
	require.Contains(t, res.Output, "a.go:1: package a // TODO one")
	require.Contains(t, res.Output, "b.go:1:")
	for _, hidden := range []string{"generated", "built", "debug.log", "img.png"} {
		require.NotContains(t, res.Output, hidden)
	}
	res, err = call(t, Grep(), tc, map[string]any{"pattern": "TODO", "include": "*.go", "path": "src/sub"})
	require.NoError(t, err)
	require.Equal(t, 1, res.Metadata["matches"])
	_, err = call(t, Grep(), tc, map[string]any{"pattern": "("})
	require.ErrorContains(t, err, "invalid regular expression")
}

func TestGlobCapsResults(t *testing.T) {
	tc := newCtx(t)
	for i := range 250 {
		write(t, tc, filepath.Join("many", strings.Repeat("f", 1)+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".txt"), "")
	}
	res, err := call(t, Glob(), tc, map[string]any{"pattern": "many/*.txt"})
	require.NoError(t, err)
	require.Equal(t, globMaxResults, res.Metadata["count"])
	require.Contains(t, res.Output, "results truncated")
}

func TestTodos(t *testing.T) {
	tc := newCtx(t)
	_, err := call(t, TodoWrite(), tc, map[string]any{"todos": []map[string]any{
		{"id": "1", "content": "write tests", "status": "in_progress"}, {"id": "2", "content": "ship", "status": "pending"}}})
	require.NoError(t, err)
	res, err := call(t, TodoRead(), tc, map[string]any{})
	require.NoError(t, err)
	require.Contains(t, res.Output, "write tests")
	require.Equal(t, "2 todos", res.Title)
	_, err = call(t, TodoWrite(), tc, map[string]any{"todos": []map[string]any{{"id": "1", "content": "x", "status": "done"}}})
	require.ErrorContains(t, err, "want pending, in_progress, completed or cancelled")
}

func TestWebFetch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(`<html><body><h1>Title</h1><p>Some <b>bold</b> text and <a href="/x">a link</a>.</p></body></html>`))
		case "/big":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte(strings.Repeat("a", fetchMaxBytes+10)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	tc := newCtx(t)
	open := WebFetch(Options{AllowPrivateFetch: true})
	res, err := call(t, open, tc, map[string]any{"url": srv.URL + "/page"})
	require.NoError(t, err)
	require.Contains(t, res.Output, "# Title")
	require.Contains(t, res.Output, "**bold**")
	require.Contains(t, res.Output, "[a link](")
	_, err = call(t, open, tc, map[string]any{"url": srv.URL + "/big"})
	require.ErrorContains(t, err, "larger than 5 MB")
	_, err = call(t, open, tc, map[string]any{"url": srv.URL + "/missing"})
	require.ErrorContains(t, err, "HTTP 404")
	_, err = call(t, open, tc, map[string]any{"url": "file:///etc/passwd"})
	require.ErrorContains(t, err, "http or https")
	// The default client refuses loopback and private addresses.
	_, err = call(t, WebFetch(Options{}), tc, map[string]any{"url": srv.URL + "/page"})
	require.ErrorContains(t, err, "non-public address")
}

func TestSchemasAreGenerated(t *testing.T) {
	for _, tl := range Builtins(Options{}) {
		s := tl.Schema()
		require.Equal(t, "object", s["type"], tl.Name())
		require.NotNil(t, s["properties"], tl.Name())
	}
	s := Edit().Schema()
	require.ElementsMatch(t, []any{"file_path", "old_string", "new_string"}, s["required"])
	props := s["properties"].(map[string]any)
	require.Equal(t, "boolean", props["replace_all"].(map[string]any)["type"])
	require.NotEmpty(t, props["old_string"].(map[string]any)["description"])
}

// TestSchemaDescriptionsWhole: every parameter description reaches the schema as written
// (struct-tag options are split at commas, so descriptions live in their own tag).
func TestSchemaDescriptionsWhole(t *testing.T) {
	params := map[string]any{"bash": BashParams{}, "read": ReadParams{}, "write": WriteParams{}, "edit": EditParams{},
		"glob": GlobParams{}, "grep": GrepParams{}, "web_fetch": WebFetchParams{}, "task": TaskParams{}, "todo_write": TodoWriteParams{}}
	schemas := map[string]map[string]any{}
	for _, tl := range Builtins(Options{}) {
		schemas[tl.Name()] = tl.Schema()
	}
	for name, p := range params {
		props := schemas[name]["properties"].(map[string]any)
		typ := reflect.TypeOf(p)
		for i := range typ.NumField() {
			f := typ.Field(i)
			require.NotContains(t, f.Tag.Get("jsonschema"), "description=", "%s.%s", name, f.Name)
			want := f.Tag.Get("jsonschema_description")
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			require.Equal(t, want, props[key].(map[string]any)["description"], "%s.%s", name, key)
		}
	}
}
