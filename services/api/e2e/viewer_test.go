package e2e

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv/browser"
)

// TestViewerPage: events published through the gateway appear in the widget in order, a
// thinking event stays hidden with show_thinking=0, chat from a second browser context shows
// up, and a dropped connection resumes without duplicates.
func TestViewerPage(t *testing.T) {
	s := startStack(t)
	alice := s.register("alice")
	bob := s.register("bob")
	slotID := s.createSlot(alice, "camp-code")
	s.call(http.MethodPost, "/api/managed-streams/"+strconv.FormatInt(slotID, 10)+"/live", alice.Token, nil, http.StatusCreated, nil)
	pub := s.publisher(s.publishToken(alice), slotID)

	viewer := browser.Start(t)
	recordSockets(t, viewer)
	browser.Run(t, viewer, chromedp.Navigate(s.url+"/alice/camp-code"), browser.WaitJS(`document.body.dataset.connected === "true"`))

	publish(t, pub,
		prompt("e1-prompt", "Add retry with backoff to the upload client"),
		thinking("e2-thinking", "THINKING-SHOULD-NOT-SHOW the retry loop goes around doRequest"),
		toolCall("e3-tool", "grep"),
		fileChange("e4-file", "src/net/upload.go"),
		response("e5-response", "Added up to five attempts with jittered exponential backoff."),
	)
	browser.Run(t, viewer, browser.WaitJS(`document.querySelectorAll('#vibe-events .ev').length >= 4 && !!document.querySelector('[data-event-id="e5-response"]')`))
	require.Equal(t, []string{"e1-prompt", "e3-tool", "e4-file", "e5-response"}, widgetIDs(t, viewer, "#vibe-events"))
	require.NotContains(t, textOf(t, viewer, "#vibe-widget"), "THINKING-SHOULD-NOT-SHOW")
	require.Equal(t, "via openvibe agent", textOf(t, viewer, "#vibe-publisher"))
	require.Equal(t, "upload.go", textOf(t, viewer, `[data-event-id="e4-file"] .ev-text`)[len("Editing "):], "file paths are redacted to the file name")
	turns := browser.Eval[int](t, viewer, `document.querySelectorAll('#vibe-events > .turn').length`)
	require.Equal(t, 1, turns, "the prompt's tool call, file edit and response form one turn")

	t.Run("chat from a second browser context", func(t *testing.T) {
		other := browser.Incognito(t, viewer)
		setSession(t, other, s.url, bob.Token)
		browser.Run(t, other, chromedp.Navigate(s.url+"/alice/camp-code"),
			chromedp.WaitVisible(css("#chat-input")),
			chromedp.SendKeys(css("#chat-input"), "hello from bob <b>not bold</b>"),
			chromedp.Click(css("#chat-form button")))
		browser.Run(t, viewer, browser.WaitJS(`document.querySelector('#chat-messages').textContent.includes('hello from bob')`))
		require.Equal(t, "bobhello from bob <b>not bold</b>", textOf(t, viewer, "#chat-messages .chat-msg"), "chat text is shown as text")
		require.Zero(t, browser.Eval[int](t, viewer, `document.querySelectorAll('#chat-messages b').length`))
		require.True(t, textOf(t, viewer, "#chat-login") != "", "an anonymous viewer is invited to log in")
		// the logged-in viewer's widget shows the same events
		browser.Run(t, other, browser.WaitJS(`!!document.querySelector('#vibe-events [data-event-id="e5-response"]')`))
		require.Equal(t, []string{"e1-prompt", "e3-tool", "e4-file", "e5-response"}, widgetIDs(t, other, "#vibe-events"))
		screenshot(t, other, "viewer-chat")
	})

	t.Run("a dropped connection resumes without duplicates", func(t *testing.T) {
		browser.Eval[bool](t, viewer, `window.__sockets[window.__sockets.length-1].close(); true`)
		browser.Run(t, viewer, browser.WaitJS(`document.body.dataset.connected === "false"`))
		publish(t, pub, prompt("e6-prompt", "Now cover it with a test"))
		browser.Run(t, viewer, browser.WaitJS(`document.body.dataset.connected === "true" && !!document.querySelector('[data-event-id="e6-prompt"]')`))
		require.GreaterOrEqual(t, browser.Eval[int](t, viewer, `window.__sockets.length`), 2, "the page reconnected")
		require.Equal(t, []string{"e1-prompt", "e3-tool", "e4-file", "e5-response", "e6-prompt"}, widgetIDs(t, viewer, "#vibe-events"))
	})

	t.Run("the widget keeps max_events and follows settings live", func(t *testing.T) {
		s.call(http.MethodPut, "/api/vibe-coding/managed/"+strconv.FormatInt(slotID, 10)+"/settings", alice.Token,
			map[string]any{"settings": map[string]any{"max_events": 2, "widget_title": "Alice builds"}}, http.StatusOK, nil)
		browser.Run(t, viewer, browser.WaitJS(`document.querySelector('#vibe-title').textContent === 'Alice builds' && document.querySelectorAll('#vibe-events .ev').length === 2`))
		require.Equal(t, []string{"e5-response", "e6-prompt"}, widgetIDs(t, viewer, "#vibe-events"))
		s.call(http.MethodPut, "/api/vibe-coding/managed/"+strconv.FormatInt(slotID, 10)+"/settings", alice.Token,
			map[string]any{"settings": map[string]any{"max_events": 18}}, http.StatusOK, nil)
		browser.Run(t, viewer, browser.WaitJS(`document.querySelectorAll('#vibe-events .ev').length === 5`))
	})

	t.Run("an event retracted inside its delay window never reaches the page", func(t *testing.T) {
		settings := "/api/vibe-coding/managed/" + strconv.FormatInt(slotID, 10) + "/settings"
		s.call(http.MethodPut, settings, alice.Token, map[string]any{"settings": map[string]any{"delay_ms": 5000}}, http.StatusOK, nil)
		publish(t, pub, prompt("e7-oops", "OOPS-PRIVATE-TEXT"), prompt("e8-kept", "Second thought"))
		time.Sleep(time.Second) // four seconds before the delay ends, time enough on a loaded machine
		s.call(http.MethodDelete, "/api/vibe-coding/managed/"+strconv.FormatInt(slotID, 10)+"/events/e7-oops", alice.Token, nil, http.StatusOK, nil)
		browser.Run(t, viewer, browser.WaitJS(`!!document.querySelector('[data-event-id="e8-kept"]')`)) // the delay has passed
		time.Sleep(500 * time.Millisecond)
		require.NotContains(t, widgetIDs(t, viewer, "#vibe-events"), "e7-oops")
		require.NotContains(t, textOf(t, viewer, "#vibe-widget"), "OOPS-PRIVATE-TEXT")
		var feed struct {
			Events []struct {
				EventID string `json:"eventId"`
			} `json:"events"`
		}
		s.call(http.MethodGet, "/api/vibe-coding/channel/alice/camp-code/events", "", nil, http.StatusOK, &feed)
		for _, ev := range feed.Events {
			require.NotEqual(t, "e7-oops", ev.EventID)
		}
		s.call(http.MethodPut, settings, alice.Token, map[string]any{"settings": map[string]any{"delay_ms": 0}}, http.StatusOK, nil)
	})

	t.Run("the owner history records first delivery", func(t *testing.T) {
		var h struct {
			Events []struct {
				EventID          string  `json:"event_id"`
				FirstDeliveredAt *string `json:"first_delivered_at"`
				ViewerStatus     string  `json:"viewer_status"`
			} `json:"events"`
		}
		require.Eventually(t, func() bool {
			s.call(http.MethodGet, "/api/vibe-coding/managed/"+strconv.FormatInt(slotID, 10)+"/events", alice.Token, nil, http.StatusOK, &h)
			status := map[string]string{}
			for _, ev := range h.Events {
				status[ev.EventID] = ev.ViewerStatus
			}
			return status["e1-prompt"] == "delivered" && status["e8-kept"] == "delivered" &&
				status["e7-oops"] == "retracted" && status["e2-thinking"] == "hidden"
		}, 10*time.Second, 200*time.Millisecond, "history: %+v", &h)
	})

	screenshot(t, viewer, "viewer-desktop")
	browser.Run(t, viewer, chromedp.EmulateViewport(360, 740))
	require.False(t, browser.Eval[bool](t, viewer, `document.documentElement.scrollWidth > window.innerWidth`), "no horizontal scrolling at 360 px")
	screenshot(t, viewer, "viewer-360px")
}
