package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/testenv/browser"
)

func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// setSession logs the tab's browser context in by setting the session cookie.
func setSession(t *testing.T, ctx context.Context, baseURL, token string) {
	t.Helper()
	httpOnly := true
	_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: auth.CookieName, Value: token, URL: baseURL, Path: "/", HTTPOnly: &httpOnly})
	require.NoError(t, err)
}

// recordSockets makes every page of the tab keep its WebSockets in window.__sockets, so a
// test can drop the connection the way a network failure would.
func recordSockets(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const Native = window.WebSocket;
		window.__sockets = [];
		window.WebSocket = function (url, protocols) {
			const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
			window.__sockets.push(ws);
			return ws;
		};
		window.WebSocket.prototype = Native.prototype;
		Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
	})()`})
	require.NoError(t, err)
}

// screenshot saves a full-page PNG into the artifacts directory.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	path := filepath.Join(artifacts(t), name+".png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// widgetIDs lists the event ids shown in a widget list, top to bottom.
func widgetIDs(t *testing.T, ctx context.Context, list string) []string {
	t.Helper()
	return browser.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('`+list+` .ev')).map(e => e.dataset.eventId)`)
}

func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return strings.TrimSpace(browser.Eval[string](t, ctx, `(document.querySelector('`+sel+`') || {}).textContent || ""`))
}
