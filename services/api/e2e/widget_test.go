package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv/browser"
	"openvibe.live/backend/shared/vibe"
)

// widgetEvents is a turn as an agent adapter publishes it: Markdown, a tool call's start and
// end, a file change with its diff hunk, a reply too long for the panel.
func widgetEvents() (first []vibe.Event, rest []vibe.Event) {
	snippet := "@@\n func parseTime(s string) (time.Duration, error) {\n-\treturn d % day, err\n+\t// keep hours past 24: night buses run on the previous day\n+\treturn d, err"
	var long strings.Builder
	for i := 1; i <= 30; i++ {
		long.WriteString("- step " + strconv.Itoa(i) + ": check the departures of line N" + strconv.Itoa(i) + "\n")
	}
	first = []vibe.Event{
		prompt("w1-prompt", "Make the **night bus** timetable wrap at midnight, see `parse.go`"),
		{EventID: "w2-tool", EventType: vibe.TypeToolCall, Summary: "Running tests (go test)", Tool: &vibe.ToolBody{Name: "Bash", Phase: "start", ArgumentsPreview: `{"command":"go test ./internal/timetable/"}`}},
	}
	rest = []vibe.Event{
		response("w3-response", "Here is the plan:\n\n1. Keep hours past 24 in `parseTime`\n2. Add a **wraparound** test\n\n| file | change |\n|---|---|\n| parse.go | keep hours |\n| wrap_test.go | *new* |\n\n"+
			"See [the parser](internal/timetable/parse.go), [this](javascript:alert(1)), [that](https://evil.example/x) and ![a pixel](https://evil.example/p.png) <b>not bold</b>"),
		{EventID: "w4-tool", EventType: vibe.TypeToolCall, Summary: "Ran tests (go test) — 3 failed", Tool: &vibe.ToolBody{Name: "Bash", Phase: "error", ResultPreview: "--- FAIL: TestWrap (0.00s)"}},
		{EventID: "w5-file", EventType: vibe.TypeFileChange, Summary: "Edited internal/timetable/parse.go (+2 −1)",
			File: &vibe.FileBody{Name: "parse.go", RelativePath: "internal/timetable/parse.go", Operation: "edit", ChangeCount: 3, Snippet: &snippet}},
		response("w6-long", "All thirty night lines need a check:\n\n"+long.String()),
	}
	return first, rest
}

// TestWidget: Markdown is rendered as a safe subset, a tool call's start and end are one
// entry that goes from running to failed, a file change shows its diff stat and a highlighted
// snippet, a long reply folds behind "more" which the keyboard opens, and the socket reader
// takes frames one per message or joined by newlines.
func TestWidget(t *testing.T) {
	s := startStack(t)
	alice := s.register("alice")
	slotID := s.createSlot(alice, "camp-code")
	id := strconv.FormatInt(slotID, 10)
	s.call(http.MethodPost, "/api/managed-streams/"+id+"/live", alice.Token, nil, http.StatusCreated, nil)
	s.call(http.MethodPut, "/api/vibe-coding/managed/"+id+"/settings", alice.Token,
		map[string]any{"settings": map[string]any{"show_tool_arguments": 1, "show_file_snippets": 1, "max_snippet_chars": 400, "max_response_chars": 2000}}, http.StatusOK, nil)
	pub := s.publisher(s.publishToken(alice), slotID)

	b := browser.Start(t)
	browser.Run(t, b, chromedp.EmulateViewport(1280, 1100), chromedp.Navigate(s.url+"/alice/camp-code"), browser.WaitJS(`document.body.dataset.connected === "true"`))
	first, rest := widgetEvents()
	publish(t, pub, first...)
	browser.Run(t, b, browser.WaitJS(`!!document.querySelector('[data-event-id="w2-tool"].tool-running')`))
	require.Equal(t, "running", textOf(t, b, `[data-event-id="w2-tool"] .ev-head .sr-only`))

	publish(t, pub, rest...)
	browser.Run(t, b, browser.WaitJS(`!!document.querySelector('[data-event-id="w6-long"]') && !!document.querySelector('[data-end-event-id="w4-tool"]')`))

	t.Run("markdown", func(t *testing.T) {
		require.Equal(t, "night bus", textOf(t, b, `[data-event-id="w1-prompt"] strong`))
		require.Equal(t, "parse.go", textOf(t, b, `[data-event-id="w1-prompt"] code`))
		r := `[data-event-id="w3-response"]`
		require.Equal(t, 2, browser.Eval[int](t, b, `document.querySelectorAll('`+r+` ol.md-list > li').length`))
		require.Equal(t, []string{"file", "change"}, browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll('`+r+` table th')).map(e => e.textContent)`))
		require.Equal(t, "new", textOf(t, b, r+` table em`))
		links := browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll('#vibe-widget a')).map(a => a.getAttribute('href'))`)
		require.Equal(t, []string{"internal/timetable/parse.go"}, links, "only links to relative paths")
		require.Zero(t, browser.Eval[int](t, b, `document.querySelectorAll('#vibe-widget img, #vibe-widget b, #vibe-widget script').length`), "no images, no HTML")
		text := textOf(t, b, r)
		require.Contains(t, text, "<b>not bold</b>", "HTML stays text")
		require.Contains(t, text, "a pixel", "an image shows its alt text")
		require.Contains(t, text, "See the parser, this, that and a pixel", "links elsewhere show their text")
		require.NotContains(t, textOf(t, b, "#vibe-widget"), "**", "no raw emphasis markers")
		require.NotContains(t, text, "|---|", "no raw table pipes")
	})

	t.Run("a tool call is one entry", func(t *testing.T) {
		require.Equal(t, 1, browser.Eval[int](t, b, `document.querySelectorAll('#vibe-events .ev-tool-call').length`))
		sel := `[data-event-id="w2-tool"]`
		require.Equal(t, "w4-tool", browser.Eval[string](t, b, `document.querySelector('`+sel+`').dataset.endEventId`))
		require.True(t, browser.Eval[bool](t, b, `document.querySelector('`+sel+`').classList.contains('tool-failed')`))
		require.Equal(t, "Ran tests (go test) — 3 failed", textOf(t, b, sel+` .ev-text`))
		require.Equal(t, "failed", textOf(t, b, sel+` .ev-head .sr-only`))
		require.Contains(t, textOf(t, b, sel+` details`), "--- FAIL: TestWrap", "the result preview, behind details")
	})

	t.Run("a file change shows its diff", func(t *testing.T) {
		sel := `[data-event-id="w5-file"]`
		require.Equal(t, "+2", textOf(t, b, sel+` .stat-add`))
		require.Equal(t, "−1", textOf(t, b, sel+` .stat-del`))
		require.Equal(t, "2 lines added, 1 removed", browser.Eval[string](t, b, `document.querySelector('`+sel+` .ev-stat').getAttribute('aria-label')`))
		require.Equal(t, 2, browser.Eval[int](t, b, `document.querySelectorAll('`+sel+` .diff-add').length`))
		require.Equal(t, 1, browser.Eval[int](t, b, `document.querySelectorAll('`+sel+` .diff-del').length`))
		require.Contains(t, browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll('`+sel+` .tok-keyword')).map(e => e.textContent)`), "return")
		require.NotEmpty(t, textOf(t, b, sel+` .tok-comment`))
	})

	t.Run("a long reply folds behind more, and the keyboard opens it", func(t *testing.T) {
		sel := `[data-event-id="w6-long"]`
		require.True(t, browser.Eval[bool](t, b, `document.querySelector('`+sel+` .ev-body').classList.contains('clamped')`))
		require.Equal(t, "false", browser.Eval[string](t, b, `document.querySelector('`+sel+` .ev-more').getAttribute('aria-expanded')`))
		require.False(t, browser.Eval[bool](t, b, `!!document.querySelector('[data-event-id="w1-prompt"] .ev-more')`), "a short one does not")
		browser.Run(t, b, chromedp.Focus(css(sel+" .ev-more")), chromedp.KeyEvent("\r"))
		require.Equal(t, "true", browser.Eval[string](t, b, `document.querySelector('`+sel+` .ev-more').getAttribute('aria-expanded')`))
		require.False(t, browser.Eval[bool](t, b, `document.querySelector('`+sel+` .ev-body').classList.contains('clamped')`))
		// it stays open when the list is drawn again
		publish(t, pub, prompt("w7-prompt", "thanks"))
		browser.Run(t, b, browser.WaitJS(`!!document.querySelector('[data-event-id="w7-prompt"]')`))
		require.Equal(t, "true", browser.Eval[string](t, b, `document.querySelector('`+sel+` .ev-more').getAttribute('aria-expanded')`))
		browser.Run(t, b, chromedp.KeyEvent("\r"))
		require.True(t, browser.Eval[bool](t, b, `document.querySelector('`+sel+` .ev-body').classList.contains('clamped')`))
	})

	t.Run("accessible", func(t *testing.T) {
		require.Equal(t, "Recent coding activity", browser.Eval[string](t, b, `document.querySelector('#vibe-events').getAttribute('aria-label')`))
		require.Zero(t, browser.Eval[int](t, b, `Array.from(document.querySelectorAll('#vibe-widget button')).filter(e => !e.textContent.trim() && !e.getAttribute('aria-label')).length`), "every button has a name")
		// Text colours against the panel: at least 4.5:1 (WCAG AA).
		require.Empty(t, lowContrast(t, b, "rgb(23, 26, 33)"), "contrast below 4.5:1")
	})

	t.Run("socket frames one per message or joined by newlines", func(t *testing.T) {
		require.Equal(t, 1, browser.Eval[int](t, b, `OpenVibe.feed.parseFrames('{"type":"vibe-coding","seq":1}').length`))
		require.Equal(t, 2, browser.Eval[int](t, b, `OpenVibe.feed.parseFrames('{"type":"a"}\n{"type":"b"}\n').length`))
		require.Equal(t, 1, browser.Eval[int](t, b, `OpenVibe.feed.parseFrames('{"type":"a"}\nnot json').length`))
	})

	// For the README: the plan opened, so that its list and table show.
	browser.Run(t, b, chromedp.EmulateViewport(1280, 2200), chromedp.Click(css(`[data-event-id="w3-response"] .ev-more`)))
	browser.Eval[bool](t, b, `document.activeElement.blur(), true`)
	png, err := chromedp.Run(b, chromedp.Screenshot(css("#vibe-widget")))
	require.NoError(t, err)
	saveImage(t, "widget", png)
}

// saveImage writes a screenshot into the artifacts directory, and into docs/images when
// OPENVIBE_DOCS_IMAGES names that directory (how the README's images are made).
func saveImage(t *testing.T, name string, png []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(artifacts(t), name+".png"), png, 0o644))
	if dir := os.Getenv("OPENVIBE_DOCS_IMAGES"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
	}
}

// lowContrast lists the widget's text colours whose contrast against bg is below 4.5:1.
func lowContrast(t *testing.T, ctx context.Context, bg string) []string {
	t.Helper()
	return browser.Eval[[]string](t, ctx, `(() => {
		const lum = (c) => { const v = c.match(/[\d.]+/g).slice(0, 3).map(x => { x = x / 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
		const bg = lum('`+bg+`');
		const out = [];
		for (const sel of ['.ev-text', '.ev-type', '.ev-time', '.ev-tool', '.stat-add', '.stat-del', '.md-code', '.tok-keyword', '.tok-comment', '.diff-hunk', '.tool-failed .ev-text', '.md-link', '.ev-more']) {
			const e = document.querySelector('#vibe-widget ' + sel);
			if (!e || !e.offsetParent) continue;
			const l = lum(getComputedStyle(e).color);
			const ratio = (Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05);
			if (ratio < 4.5) out.push(sel + ' ' + ratio.toFixed(2));
		}
		return out;
	})()`)
}
