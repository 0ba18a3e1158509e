package compat

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv/browser"
)

// frontDoor is what the original platform's page expects of its origin: the page, /api and
// /ws/chat on one host. It serves the test page and proxies the rest, as deploy/'s proxy
// does.
func frontDoor(t *testing.T, api, chat string) string {
	t.Helper()
	proxy := func(addr string) http.Handler {
		return httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: addr})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/compat/chat.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/chat.html")
	})
	mux.Handle("/api/", proxy(api))
	mux.Handle("/ws/chat", proxy(chat))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestOriginalBrowserChat: a page running the original browser chat client's flow joins
// the live stream's chat through the front door, shows every vibe-coding event of a burst
// (no message lost to parsing), chats with a viewer on the other replica, shows the viewer
// count of both, and finds the chat again in the history after a reload.
func TestOriginalBrowserChat(t *testing.T) {
	ctx := browser.Start(t)
	d := deploy(t)
	c, slot, live, token := d.c, d.slot, d.live, d.token
	carol, bob := d.viewer("carol"), d.viewer("bob")

	base := frontDoor(t, c.APIs[0].Addr, c.Chats[0].Addr)
	page := fmt.Sprintf("%s/compat/chat.html?stream=%d&user=ada&slot=camp-code", base, live)
	browser.Run(t, ctx,
		chromedp.Navigate(base+"/compat/chat.html"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf("localStorage.setItem('token', %q)", carol.Token)),
		chromedp.Navigate(page),
		browser.WaitJS(`window.__compat && window.__compat.auth && window.__compat.auth.authenticated`),
	)
	require.Equal(t, "carol", browser.Eval[string](t, ctx, `window.__compat.auth.username`))

	p := dialPublisher(t, c.Gateways[0].Addr, token, slot.ID)
	const key = "openvibe-browser-session"
	for i := range 30 { // a burst, sent without waiting for acks
		p.send(map[string]any{"type": "vibe-coding.event", "sessionKey": key, "event": map[string]any{
			"eventId": fmt.Sprintf("b-%02d", i), "eventType": "tool.call", "sequence": fmt.Sprint(i + 1),
			"occurredAt": 1776813001099 + i, "summary": fmt.Sprintf("step %d", i),
			"tool": map[string]any{"name": "run_in_terminal", "phase": []string{"running", "completed", "failed"}[i%3]}}})
	}
	for range 30 {
		require.Equal(t, "vibe-coding.ack", p.next()["type"])
	}
	browser.Run(t, ctx, browser.WaitJS(`document.querySelectorAll('#vibe-feed li').length === 30`))
	require.Zero(t, browser.Eval[int](t, ctx, `window.__compat.parseErrors`), "every message is one JSON object")
	require.Equal(t, "b-29", browser.Eval[string](t, ctx, `document.querySelector('#vibe-feed li:last-child').dataset.eventId`))

	other := dialOriginalViewer(t, c.Chats[1], live, bob.Token)
	other.waitFor("auth", func(f []map[string]any) bool { return len(ofType(f, "auth")) > 0 })
	browser.Run(t, ctx, browser.WaitJS(`document.getElementById('user-count').textContent === '2'`))

	other.send(map[string]any{"type": "chat", "message": "hello from the other replica"})
	browser.Run(t, ctx, browser.WaitJS(`[...document.querySelectorAll('#chat-messages li')].some(li => li.textContent === 'hello from the other replica')`))
	browser.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS("#chat-input"), "hello from the browser"),
		chromedp.Click(chromedp.CSS("#chat-form button")),
	)
	other.waitFor("the browser's chat", func(f []map[string]any) bool {
		for _, m := range ofType(f, "chat") {
			if m["message"] == "hello from the browser" && m["username"] == "carol" {
				return true
			}
		}
		return false
	})

	browser.Run(t, ctx, chromedp.Navigate(page), browser.WaitJS(`window.__compat && window.__compat.auth`),
		browser.WaitJS(`document.querySelectorAll('#chat-messages li').length === 2`),
		browser.WaitJS(`document.querySelectorAll('#vibe-feed li').length === 18`))
	require.Equal(t, []string{"hello from the other replica", "hello from the browser"},
		browser.Eval[[]string](t, ctx, `[...document.querySelectorAll('#chat-messages li')].map(li => li.textContent)`),
		"the history, oldest first, each message once")
	require.Empty(t, browser.Eval[[]string](t, ctx, `window.__compat.errors`))
}
