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
)

// step is a browser action that returns nothing.
type step = chromedp.Action[chromedp.Void]

// browser starts a headless Chromium with a fresh profile and returns its first tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 860),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	require.NoError(t, chromedp.Do(ctx), "start chromium") // no timeout: it would outlive the browser
	return ctx
}

// incognito opens a tab in a new browser context: its own cookies and storage.
func incognito(t *testing.T, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx))
	return ctx
}

// tab opens another tab in the same browser context as parent.
func tab(t *testing.T, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx))
	return ctx
}

// run runs steps with a deadline.
func run(t *testing.T, ctx context.Context, steps ...step) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, steps...))
}

// eval evaluates a JavaScript expression in the tab.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, expr)
	return v
}

// waitJS polls a JavaScript expression until it is truthy.
func waitJS(expr string) step {
	poll := chromedp.Poll[any](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := poll(ctx, tg)
		return chromedp.Void{}, err
	}
}

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
	return eval[[]string](t, ctx, `Array.from(document.querySelectorAll('`+list+` .ev')).map(e => e.dataset.eventId)`)
}

func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return strings.TrimSpace(eval[string](t, ctx, `(document.querySelector('`+sel+`') || {}).textContent || ""`))
}
