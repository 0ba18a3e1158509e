// Package browser runs the tests' headless Chromium: one way to find it, start it with a
// fresh profile, and drive it with deadlines.
package browser

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

// Step is a browser action that returns nothing.
type Step = chromedp.Action[chromedp.Void]

// Path finds Chromium: $OPENVIBE_CHROMIUM, then chromium, chromium-browser and google-chrome
// on the PATH. Without one the test is skipped, or fails under REQUIRE_SERVICES=1.
func Path(t testing.TB) string {
	t.Helper()
	for _, name := range []string{os.Getenv("OPENVIBE_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if testenv.RequireServices() {
		t.Fatal("chromium is required (REQUIRE_SERVICES=1): scripts/install-test-deps.sh installs it")
	}
	t.Skip("chromium not installed (apt-get install chromium)")
	return ""
}

// Start starts a headless Chromium with a fresh profile and a 1280×860 window and returns its
// first tab. The browser ends with the test.
func Start(t testing.TB) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Path(t)),
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

// Incognito opens a tab in a new browser context: its own cookies and storage.
func Incognito(t testing.TB, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx))
	return ctx
}

// Tab opens another tab in the same browser context as parent.
func Tab(t testing.TB, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx))
	return ctx
}

// Run runs steps in the tab, one after the other, all of them within 45 seconds. A step that
// met the page replacing its JavaScript context (a navigation that had not settled) runs again.
func Run(t testing.TB, ctx context.Context, steps ...Step) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	for _, step := range steps {
		_, err := retryGoneContext(ctx, func() (chromedp.Void, error) { return chromedp.Run(ctx, step) })
		require.NoError(t, err)
	}
}

// Eval evaluates a JavaScript expression in the tab, within 10 seconds.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := retryGoneContext(ctx, func() (T, error) { return chromedp.Run(ctx, chromedp.Evaluate[T](expr)) })
	require.NoError(t, err, expr)
	return v
}

// retryGoneContext runs f again while it fails because the execution context it ran in went
// away under it (the page navigated between the lookup of its context and the call), until
// ctx ends.
func retryGoneContext[T any](ctx context.Context, f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if err == nil || !goneContext(err) || ctx.Err() != nil {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func goneContext(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Cannot find context with specified id") ||
		strings.Contains(msg, "Execution context was destroyed")
}

// WaitJS polls a JavaScript expression every 50 ms until it is truthy, for up to 30 seconds.
func WaitJS(expr string) Step {
	poll := chromedp.Poll[any](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := poll(ctx, tg)
		return chromedp.Void{}, err
	}
}
