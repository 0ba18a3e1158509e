package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// TestRevertTouchesOnlyTheSession: two sessions work in one project; reverting one
// session's turn undoes that session's changes only: the other session's later file stays,
// and a file the other session changed afterwards is left as it is and reported.
func TestRevertTouchesOnlyTheSession(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{"permission": allowAll}))
	c := ov.client(t)
	dir := project(t, t.TempDir(), "app")
	writeFile(t, filepath.Join(dir, "shared.txt"), "v0\n")
	x := c.createSession(dir)
	y := c.createSession(dir)
	ev := c.events("/agent/event")

	p.script(reply{Calls: []call{write("xa.txt", "from x\n"), {Name: "read", Args: map[string]any{"file_path": "shared.txt"}}}},
		reply{Calls: []call{write("shared.txt", "v1 by x\n")}}, reply{Text: "x done"})
	xTurn := c.prompt(x.ID, "x writes")
	ev.idle(x.ID)
	p.script(reply{Calls: []call{write("yb.txt", "from y\n")}}, reply{Text: "y done"})
	c.prompt(y.ID, "y writes")
	ev.idle(y.ID)
	require.Equal(t, "from x\n", readFile(t, filepath.Join(dir, "xa.txt")))

	var rv struct {
		Diff struct {
			Changes []struct {
				Path string `json:"path"`
				Op   string `json:"op"`
			} `json:"changes"`
		} `json:"diff"`
		Conflicts []string `json:"conflicts"`
	}
	c.call(http.MethodPost, "/agent/session/"+x.ID+"/revert", map[string]any{"message_id": xTurn}, http.StatusOK, &rv)
	require.NoFileExists(t, filepath.Join(dir, "xa.txt"), "x's own file is gone")
	require.Equal(t, "from y\n", readFile(t, filepath.Join(dir, "yb.txt")), "y's later file is not x's to revert")
	require.Equal(t, "v0\n", readFile(t, filepath.Join(dir, "shared.txt")))
	require.Empty(t, rv.Conflicts)

	c.call(http.MethodPost, "/agent/session/"+x.ID+"/unrevert", nil, http.StatusOK, nil)
	require.Equal(t, "from x\n", readFile(t, filepath.Join(dir, "xa.txt")))
	require.Equal(t, "v1 by x\n", readFile(t, filepath.Join(dir, "shared.txt")))

	// y changes the file x changed; reverting x then leaves y's version alone and says so.
	p.script(reply{Calls: []call{{Name: "read", Args: map[string]any{"file_path": "shared.txt"}}}},
		reply{Calls: []call{write("shared.txt", "v2 by y\n")}}, reply{Text: "y again"})
	c.prompt(y.ID, "y edits shared")
	ev.idle(y.ID)
	c.call(http.MethodPost, "/agent/session/"+x.ID+"/revert", map[string]any{"message_id": xTurn}, http.StatusOK, &rv)
	require.Equal(t, "v2 by y\n", readFile(t, filepath.Join(dir, "shared.txt")))
	require.Equal(t, []string{"shared.txt"}, rv.Conflicts)
	require.NoFileExists(t, filepath.Join(dir, "xa.txt"))
	require.FileExists(t, filepath.Join(dir, "yb.txt"))
}

// TestUndoRedoPerSession: undo takes back the session's latest turn that is not undone,
// redo brings the earliest undone one back; another session's work is never touched.
func TestUndoRedoPerSession(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{"permission": allowAll}))
	c := ov.client(t)
	dir := project(t, t.TempDir(), "app")
	x := c.createSession(dir)
	y := c.createSession(dir)
	p.script(reply{Calls: []call{write("x.txt", "one\n")}}, reply{Text: "1"})
	require.Empty(t, c.turn(x.ID, "first"))
	p.script(reply{Calls: []call{write("y.txt", "y\n")}}, reply{Text: "y"})
	require.Empty(t, c.turn(y.ID, "other"))
	p.script(reply{Calls: []call{{Name: "read", Args: map[string]any{"file_path": "x.txt"}}}},
		reply{Calls: []call{write("x.txt", "two\n")}}, reply{Text: "2"})
	require.Empty(t, c.turn(x.ID, "second"))

	step := func(what string, want int) {
		code, body := c.send(http.MethodPost, "/agent/session/"+x.ID+"/"+what, nil)
		require.Equal(t, want, code, "%s: %s", what, body)
	}
	step("redo", http.StatusConflict)
	step("undo", http.StatusOK)
	require.Equal(t, "one\n", readFile(t, filepath.Join(dir, "x.txt")))
	step("undo", http.StatusOK)
	require.NoFileExists(t, filepath.Join(dir, "x.txt"))
	step("undo", http.StatusConflict)
	require.Equal(t, "y\n", readFile(t, filepath.Join(dir, "y.txt")), "the other session's file stays")
	step("redo", http.StatusOK)
	require.Equal(t, "one\n", readFile(t, filepath.Join(dir, "x.txt")))
	step("redo", http.StatusOK)
	require.Equal(t, "two\n", readFile(t, filepath.Join(dir, "x.txt")))
	step("redo", http.StatusConflict)
}
