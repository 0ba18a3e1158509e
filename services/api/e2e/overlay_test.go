package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv/browser"
)

// TestOverlay: the overlay URL shows the same widget and events as the viewer page, on a
// transparent page without chat, sized and themed by its query parameters, with the slot's
// server-side delay; a bad parameter is a 400 with a JSON body.
func TestOverlay(t *testing.T) {
	s := startStack(t)
	alice := s.register("alice")
	slotID := s.createSlot(alice, "camp-code")
	id := strconv.FormatInt(slotID, 10)
	s.call(http.MethodPost, "/api/managed-streams/"+id+"/live", alice.Token, nil, http.StatusCreated, nil)
	s.call(http.MethodPut, "/api/vibe-coding/managed/"+id+"/settings", alice.Token,
		map[string]any{"settings": map[string]any{"show_tool_arguments": 1, "show_file_snippets": 1, "max_snippet_chars": 400, "widget_title": "Alice codes"}}, http.StatusOK, nil)
	pub := s.publisher(s.publishToken(alice), slotID)
	first, rest := widgetEvents()
	publish(t, pub, append(first, rest...)...)

	b := browser.Start(t)
	browser.Run(t, b, chromedp.Navigate(s.url+"/alice/camp-code"), browser.WaitJS(`document.querySelectorAll('#vibe-events .ev').length === 5`))
	onPage := widgetIDs(t, b, "#vibe-events")

	o := browser.Tab(t, b)
	browser.Run(t, o, chromedp.EmulateViewport(520, 900), chromedp.Navigate(s.url+"/alice/camp-code/overlay?theme=dark&width=420&font=16"),
		browser.WaitJS(`document.body.dataset.connected === "true" && document.querySelectorAll('#vibe-events .ev').length === 5`))
	transparent(t, o)
	require.Equal(t, onPage, widgetIDs(t, o, "#vibe-events"), "the same events as the viewer page")
	require.Equal(t, "Alice codes", textOf(t, o, "#vibe-title"), "the title from the owner's settings")
	require.False(t, browser.Eval[bool](t, o, `!!document.querySelector('#chat-messages, #chat-form, .topbar')`), "no chat, no site chrome")
	require.Equal(t, []string{"rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"}, browser.Eval[[]string](t, o,
		`[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]`))
	require.Equal(t, 420, browser.Eval[int](t, o, `Math.round(document.querySelector('#vibe-widget').getBoundingClientRect().width)`))
	require.Equal(t, "16px", browser.Eval[string](t, o, `getComputedStyle(document.body).fontSize`))
	require.True(t, browser.Eval[bool](t, o, `!!document.querySelector('[data-event-id="w2-tool"][data-end-event-id="w4-tool"]')`), "tool calls grouped")
	require.Equal(t, "night bus", textOf(t, o, `[data-event-id="w1-prompt"] strong`), "Markdown rendered")

	shot, err := chromedp.Run(o, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	saveImage(t, "overlay", shot)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err)
	bounds := img.Bounds()
	_, _, _, a := img.At(bounds.Max.X-5, 5).RGBA()
	require.Zero(t, a, "the page around the widget is transparent")
	_, _, _, a = img.At(30, bounds.Max.Y-30).RGBA()
	require.NotZero(t, a, "the widget is not")

	t.Run("light theme, title off, fewer entries", func(t *testing.T) {
		l := browser.Tab(t, b)
		browser.Run(t, l, chromedp.EmulateViewport(420, 600), chromedp.Navigate(s.url+"/alice/camp-code/overlay?theme=light&width=360&title=0&max=3"),
			browser.WaitJS(`document.querySelectorAll('#vibe-events .ev').length >= 2`))
		transparent(t, l)
		require.False(t, browser.Eval[bool](t, l, `getComputedStyle(document.querySelector('.vibe-head')).display !== 'none'`), "no title")
		require.Equal(t, []string{"w4-tool", "w5-file", "w6-long"}, widgetIDs(t, l, "#vibe-events"), "the newest three events (a tool call's end alone once its start is cut)")
		require.Empty(t, lowContrast(t, l, "rgb(255, 255, 255)"), "contrast below 4.5:1 on the light theme")
		shot, err := chromedp.Run(l, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		saveImage(t, "overlay-light", shot)
	})

	t.Run("the slot's delay holds events back", func(t *testing.T) {
		s.call(http.MethodPut, "/api/vibe-coding/managed/"+id+"/settings", alice.Token, map[string]any{"settings": map[string]any{"delay_ms": 3000}}, http.StatusOK, nil)
		browser.Run(t, o, browser.WaitJS(`document.body.dataset.connected === "true"`))
		time.Sleep(300 * time.Millisecond) // the settings frame reaches the page
		sent := time.Now()
		publish(t, pub, prompt("w8-delayed", "delayed prompt"))
		browser.Run(t, o, browser.WaitJS(`!!document.querySelector('[data-event-id="w8-delayed"]')`))
		require.GreaterOrEqual(t, time.Since(sent), 2500*time.Millisecond, "not shown before the delay ends")
	})

	t.Run("a bad parameter is a 400", func(t *testing.T) {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, s.url+"/alice/camp-code/overlay?theme=neon&width=5", nil)
		require.NoError(t, err)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		var e struct {
			Error string `json:"error"`
		}
		require.NoError(t, json.Unmarshal(body, &e), string(body))
		require.Contains(t, e.Error, "theme must be one of dark, light, glass")
		require.Contains(t, e.Error, "width must be a whole number from 200 to 3840")
	})
}

// backgroundParams are Emulation.setDefaultBackgroundColorOverride's, with the alpha always
// sent: cdp.RGBA leaves out an alpha of 0, which the browser then takes as 1 (opaque).
type backgroundParams struct {
	Color struct {
		R int64   `json:"r"`
		G int64   `json:"g"`
		B int64   `json:"b"`
		A float64 `json:"a"`
	} `json:"color"`
}

var setBackground = cdp.Command[backgroundParams, cdp.Empty]{Method: emulation.CommandSetDefaultBackgroundColorOverride}

// transparent makes the tab's default background transparent, as OBS draws a browser source:
// the page shows through only where it paints nothing.
func transparent(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Call(ctx, setBackground, backgroundParams{})
	require.NoError(t, err)
}
