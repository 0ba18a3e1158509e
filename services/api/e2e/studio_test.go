package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv/browser"
)

// TestStudio: register in the studio, create a slot and a token there, publish with that
// token, change a setting and see it applied on an open viewer page, retract an event and see
// it leave the viewer page, then press panic.
func TestStudio(t *testing.T) {
	s := startStack(t)
	studio := browser.Start(t)
	browser.Run(t, studio,
		chromedp.Navigate(s.url+"/studio"),
		chromedp.WaitVisible(css("#register-form")),
		chromedp.SendKeys(css("#register-username"), "streamer_sam"),
		chromedp.SendKeys(css("#register-password"), "correct horse battery"),
		chromedp.Click(css("#register-form button[type=submit]")),
		chromedp.WaitVisible(css("#dashboard")),
		chromedp.SendKeys(css("#slot-slug"), "live-lab"),
		chromedp.SendKeys(css("#slot-title"), "Live Lab"),
		chromedp.Click(css("#slot-form button[type=submit]")),
		chromedp.WaitVisible(css("#slot-panel")),
		browser.WaitJS(`document.querySelector('#slot-panel-title').textContent === 'Live Lab'`),
		chromedp.WaitVisible(css("#offline-help")), // offline: the owner is told viewers see nothing
		chromedp.Click(css("#go-live")),
		browser.WaitJS(`document.querySelector('#slot-live').textContent === 'Live'`),
		chromedp.WaitNotVisible(css("#offline-help")),
		chromedp.SendKeys(css("#token-name"), "laptop"),
		chromedp.Click(css("#token-form button[type=submit]")),
		chromedp.WaitVisible(css("#token-created")),
		// The list is fetched again after the token is shown.
		browser.WaitJS(`document.querySelector('#token-list').textContent.includes('laptop')`),
	)
	token := browser.Eval[string](t, studio, `document.querySelector('#token-value').value`)
	slotText := textOf(t, studio, "#slot-id")
	require.True(t, strings.HasPrefix(token, "hbt_"), token)
	require.NotContains(t, textOf(t, studio, "#token-list"), token, "the list shows a hint, not the token")
	slotID, err := strconv.ParseInt(slotText, 10, 64)
	require.NoError(t, err)

	pub := s.publisher(token, slotID)
	publish(t, pub,
		prompt("s1-prompt", "Rename the config loader"),
		thinking("s2-thinking", "The loader is only used in two places."),
		response("s3-response", "Renamed it and updated both callers."),
	)

	viewer := browser.Tab(t, studio)
	browser.Run(t, viewer, chromedp.Navigate(s.url+"/streamer_sam/live-lab"),
		browser.WaitJS(`!!document.querySelector('#vibe-events [data-event-id="s3-response"]')`))
	require.Equal(t, []string{"s1-prompt", "s3-response"}, widgetIDs(t, viewer, "#vibe-events"))

	t.Run("a setting changed in the studio applies on the viewer page", func(t *testing.T) {
		browser.Run(t, studio,
			chromedp.Click(css(`#settings-form input[name="show_thinking"]`)),
			browser.WaitJS(`!!document.querySelector('#preview-events [data-event-id="s2-thinking"]')`), // the live preview follows the form
			browser.WaitJS(`(document.querySelector('#s-widget_title').value = '') === ''`),
			chromedp.SendKeys(css("#s-widget_title"), "Sam codes"),
			chromedp.Click(css("#settings-form button[type=submit]")),
			browser.WaitJS(`document.querySelector('#settings-status').textContent.startsWith('Saved')`))
		browser.Run(t, viewer, browser.WaitJS(`!!document.querySelector('#vibe-events [data-event-id="s2-thinking"]') && document.querySelector('#vibe-title').textContent === 'Sam codes'`))
		require.Equal(t, []string{"s1-prompt", "s2-thinking", "s3-response"}, widgetIDs(t, viewer, "#vibe-events"))
		screenshot(t, studio, "studio-settings")
	})

	t.Run("retract in the studio removes the event from the open viewer page", func(t *testing.T) {
		browser.Run(t, studio,
			chromedp.Click(css("#history-refresh")),
			// Wait for the refreshed rows (the old ones are replaced), then click the current button.
			browser.WaitJS(`document.querySelector('#history-body').getAttribute('aria-busy') !== 'true' && !!document.querySelector('#history-body tr[data-event-id="s1-prompt"] button.retract')`),
			browser.WaitJS(`(() => { document.querySelector('#history-body tr[data-event-id="s1-prompt"] button.retract').click(); return true; })()`),
			browser.WaitJS(`(document.querySelector('#history-body tr[data-event-id="s1-prompt"] .status') || {}).textContent === 'Retracted'`))
		browser.Run(t, viewer, browser.WaitJS(`!document.querySelector('#vibe-events [data-event-id="s1-prompt"]')`))
		require.Equal(t, []string{"s2-thinking", "s3-response"}, widgetIDs(t, viewer, "#vibe-events"))
		var feed struct {
			Events []struct {
				EventID string `json:"eventId"`
			} `json:"events"`
		}
		s.call(http.MethodGet, "/api/vibe-coding/channel/streamer_sam/live-lab/events", "", nil, http.StatusOK, &feed)
		for _, ev := range feed.Events {
			require.NotEqual(t, "s1-prompt", ev.EventID, "retracted events leave the public feed")
		}
	})

	t.Run("the panic button pauses the viewer page", func(t *testing.T) {
		browser.Run(t, studio, chromedp.Click(css("#panic")),
			browser.WaitJS(`document.querySelector('#settings-form input[name="paused"]').checked`))
		browser.Run(t, viewer, browser.WaitJS(`document.querySelector('#vibe-state').textContent === 'Paused' && document.querySelectorAll('#vibe-events .ev').length === 0`))
		require.Equal(t, "Paused by the streamer.", textOf(t, viewer, "#vibe-empty"))
		publish(t, pub, prompt("s4-after-panic", "This must not reach viewers"))
		require.Zero(t, browser.Eval[int](t, viewer, `document.querySelectorAll('#vibe-events [data-event-id="s4-after-panic"]').length`))
		screenshot(t, viewer, "viewer-paused")
		browser.Run(t, studio, chromedp.Click(css("#history-refresh")),
			browser.WaitJS(`!!document.querySelector('#history-body tr[data-event-id="s4-after-panic"]')`))
		screenshot(t, studio, "studio-history")
		browser.Run(t, studio, chromedp.EmulateViewport(360, 740))
		require.False(t, browser.Eval[bool](t, studio, `document.documentElement.scrollWidth > window.innerWidth`), "no horizontal scrolling at 360 px")
		screenshot(t, studio, "studio-360px")
	})
}
