package api_test

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, filepath.Join(t.TempDir(), "pages.db"), "")
	alice := e.register("alice")
	slot := e.createSlot(alice.Token, "camp-code")
	e.as(alice.Token).expect(http.MethodPut, "/api/vibe-coding/managed/"+itoa(slot.ID)+"/settings",
		map[string]any{"settings": map[string]any{"widget_title": "<script>alert(1)</script>"}}, http.StatusOK, nil)

	t.Run("viewer page", func(t *testing.T) {
		for _, path := range []string{"/alice/camp-code", "/ALICE/camp-code", "/alice/" + itoa(slot.ID)} {
			r := e.anon().expect(http.MethodGet, path, nil, http.StatusOK, nil)
			require.Contains(t, r.header.Get("Content-Type"), "text/html")
			body := string(r.body)
			require.Contains(t, body, `data-slot-slug="camp-code"`)
			require.Contains(t, body, `id="vibe-widget"`)
			require.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt;", "the widget title is escaped")
			require.NotContains(t, body, "<script>alert(1)")
			require.Contains(t, r.header.Get("Content-Security-Policy"), "script-src 'self'")
		}
	})

	t.Run("the widget comes before the chat header", func(t *testing.T) {
		body := string(e.anon().expect(http.MethodGet, "/alice/camp-code", nil, http.StatusOK, nil).body)
		require.Less(t, strings.Index(body, `id="vibe-widget"`), strings.Index(body, `id="chat-title"`))
	})

	t.Run("unknown channel or slot is an HTML 404", func(t *testing.T) {
		for _, path := range []string{"/nobody/camp-code", "/alice/nope"} {
			r := e.anon().do(http.MethodGet, path, nil)
			require.Equal(t, http.StatusNotFound, r.status, path)
			require.Contains(t, r.header.Get("Content-Type"), "text/html")
		}
	})

	t.Run("studio and home", func(t *testing.T) {
		r := e.anon().expect(http.MethodGet, "/studio", nil, http.StatusOK, nil)
		require.Contains(t, string(r.body), `id="panic"`)
		e.anon().expect(http.MethodGet, "/", nil, http.StatusOK, nil)
	})

	t.Run("static files with ETag", func(t *testing.T) {
		for file, ctype := range map[string]string{"vibe.js": "javascript", "viewer.js": "javascript", "studio.js": "javascript", "style.css": "text/css", "favicon.svg": "image/svg+xml"} {
			r := e.anon().expect(http.MethodGet, "/static/"+file, nil, http.StatusOK, nil)
			require.Contains(t, r.header.Get("Content-Type"), ctype, file)
			etag := r.header.Get("ETag")
			require.NotEmpty(t, etag)
			require.Equal(t, http.StatusNotModified, e.anon().with("If-None-Match", etag).do(http.MethodGet, "/static/"+file, nil).status)
		}
		require.Equal(t, http.StatusNotFound, e.anon().do(http.MethodGet, "/static/nope.js", nil).status)
	})
}

// TestPagesHaveNoInlineScriptOrExternalRequests checks the page sources: every script is a
// same-origin file, nothing loads from another host, and no script writes HTML.
func TestPagesHaveNoInlineScriptOrExternalRequests(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "internal", "web")
	scriptTag := regexp.MustCompile(`<script[^>]*>`)
	external := regexp.MustCompile(`(?i)(src|href)="(https?:)?//`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(raw)
		switch filepath.Ext(path) {
		case ".html":
			for _, tag := range scriptTag.FindAllString(src, -1) {
				require.Regexp(t, `src="/static/[a-z]+\.js"`, tag, "%s: inline or external script", path)
			}
			require.NotRegexp(t, external, src, path)
			require.NotRegexp(t, `\son[a-z]+=`, src, "%s: no inline event handlers", path)
		case ".js":
			require.NotContains(t, src, "innerHTML", path)
			require.NotContains(t, src, "insertAdjacentHTML", path)
			require.NotContains(t, src, "document.write", path)
			require.NotRegexp(t, `https?://`, src, path)
		case ".css":
			require.NotContains(t, src, "@import", path)
			require.NotRegexp(t, `url\((['"])?https?:`, src, path)
		}
		return nil
	})
	require.NoError(t, err)
}
