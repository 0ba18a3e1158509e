package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// TestExportImportOverHTTP: GET …/export is one document with the session, its messages
// and parts in order, and its todos; POST /session/import makes a new session of it (fresh
// IDs, the same history) that continues where it left off; a bad document is 400.
func TestExportImportOverHTTP(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{"permission": allowAll}))
	c := ov.client(t)
	root := t.TempDir()
	s := c.createSession(project(t, root, "app"))
	p.script(reply{Text: "planning", Calls: []call{{Name: "todo_write", Args: map[string]any{"todos": []map[string]any{
		{"id": "1", "content": "write tests", "status": "in_progress"}}}}, bash("echo hi")}}, reply{Text: "exported answer"})
	require.Empty(t, c.turn(s.ID, "original question"))

	code, raw := c.send(http.MethodGet, "/agent/session/"+s.ID+"/export", nil)
	require.Equal(t, http.StatusOK, code, string(raw))
	var doc struct {
		Format   string             `json:"format"`
		Version  int                `json:"version"`
		Session  session            `json:"session"`
		Messages []*message.Message `json:"messages"`
		Todos    []map[string]any   `json:"todos"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Equal(t, "openvibe.session", doc.Format)
	require.Equal(t, 1, doc.Version)
	require.Equal(t, s.ID, doc.Session.ID)
	require.Len(t, doc.Messages, 3)
	require.Equal(t, "write tests", doc.Todos[0]["content"])

	other := project(t, root, "copy")
	req := func(path string, body []byte) (int, []byte) {
		return c.send(http.MethodPost, path, nil, func(r *http.Request) {
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			r.Header.Set("Content-Type", "application/json")
		})
	}
	code, body := req("/agent/session/import?directory="+other, raw)
	require.Equal(t, http.StatusCreated, code, string(body))
	var imported session
	require.NoError(t, json.Unmarshal(body, &imported))
	require.NotEqual(t, s.ID, imported.ID)
	require.Equal(t, other, imported.Directory)
	msgs := c.messages(imported.ID)
	require.Len(t, msgs, 3)
	for i, m := range msgs {
		require.NotEqual(t, doc.Messages[i].ID, m.ID)
		require.Equal(t, doc.Messages[i].Role, m.Role)
		require.Equal(t, doc.Messages[i].Text(), m.Text())
		require.Len(t, m.Parts, len(doc.Messages[i].Parts))
		for _, part := range m.Parts {
			require.Equal(t, m.ID, part.Meta().MessageID)
		}
	}
	require.Equal(t, "exported answer", msgs[2].Text())
	var todos []map[string]any
	c.call(http.MethodGet, "/agent/session/"+imported.ID+"/todo", nil, http.StatusOK, &todos)
	require.Equal(t, "write tests", todos[0]["content"])

	// The imported session goes on with the history it brought.
	p.script(reply{Text: "continued"})
	require.Empty(t, c.turn(imported.ID, "and then?"))
	last := p.requests()[len(p.requests())-1]
	var sent bytes.Buffer
	for _, m := range last.Messages {
		sent.WriteString(m.text())
	}
	require.Contains(t, sent.String(), "original question")
	require.Contains(t, sent.String(), "exported answer")

	// Without ?directory= the document's own directory is used (here it exists).
	code, body = req("/agent/session/import", raw)
	require.Equal(t, http.StatusCreated, code, string(body))
	for _, bad := range []string{`{"format": "x", "version": 1}`, `{"format": "openvibe.session", "version": 2}`, `not json`,
		`{"format": "openvibe.session", "version": 1, "session": {}, "messages": [{"role": "robot", "parts": []}]}`} {
		code, body = req("/agent/session/import?directory="+other, []byte(bad))
		require.Equal(t, http.StatusBadRequest, code, "%s: %s", bad, body)
		require.Contains(t, apiError(t, body), "not an openvibe session export")
	}
	code, _ = req("/agent/session/import?directory="+filepath.Join(root, "missing"), raw)
	require.Equal(t, http.StatusBadRequest, code)
}
