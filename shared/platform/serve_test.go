package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if demoDir != "" {
		_ = os.RemoveAll(demoDir)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// client never keeps idle connections, so no transport goroutine outlives a test.
var client = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := client.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// recorder is a fake Service that records the order of lifecycle events.
type recorder struct {
	release  chan struct{} // if set, /slow waits for it
	mu       sync.Mutex
	events   []string
	addr     string
	runErr   error
	shutdown func(ctx context.Context) error
}

func (r *recorder) record(ev string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) Events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

func (r *recorder) Register(e *echo.Echo) {
	r.record("register")
	e.GET("/slow", func(c echo.Context) error {
		r.record("slow request started")
		if r.release != nil {
			select {
			case <-r.release:
			case <-time.After(5 * time.Second):
			}
		}
		time.Sleep(50 * time.Millisecond) // still in flight after Shutdown returns
		r.record("slow request finished")
		return c.String(http.StatusOK, "done")
	})
}

func (r *recorder) Run(ctx context.Context) error {
	r.record("run")
	if r.runErr != nil {
		return r.runErr
	}
	<-ctx.Done()
	r.record("workers stopped")
	return nil
}

func (r *recorder) Shutdown(ctx context.Context) error {
	// The listener must already be closed: no new connections while WebSockets close.
	if conn, err := net.DialTimeout("tcp", r.addr, time.Second); err == nil {
		conn.Close()
		r.record("shutdown while still accepting")
	} else {
		r.record("shutdown")
	}
	if r.shutdown != nil {
		return r.shutdown(ctx)
	}
	return nil
}

type running struct {
	addr   string
	cancel context.CancelFunc
	done   chan error
}

func startServe(t *testing.T, opts ServeOptions, onListen ...func(string)) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	addrCh := make(chan string, 1)
	// A reserved port below the ephemeral range: once the server closes it, neither another
	// test's listener nor the kernel's choice of a source port for a dial can take it.
	opts.Addr = testenv.FreeAddr(t)
	opts.OnListen = func(a string) {
		for _, f := range onListen {
			f(a)
		}
		addrCh <- a
	}
	r := &running{cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- Serve(ctx, opts) }()
	select {
	case r.addr = <-addrCh:
	case err := <-r.done:
		select {
		case r.addr = <-addrCh: // it listened, then a worker failed at once
			r.done <- err
		default:
			t.Fatalf("serve returned before listening: %v", err)
		}
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(10 * time.Second):
			t.Error("serve did not return")
		}
	})
	return r
}

func (r *running) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.done:
		r.done <- err // let Cleanup see it too
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return")
		return nil
	}
}

func TestServeEndpoints(t *testing.T) {
	t.Parallel()
	var broken error
	var mu sync.Mutex
	r := startServe(t, ServeOptions{Ready: []Check{
		{Name: "store", Fn: func(context.Context) error { return nil }},
		{Name: "broker", Fn: func(context.Context) error { mu.Lock(); defer mu.Unlock(); return broken }},
	}})
	base := "http://" + r.addr

	code, body := get(t, base+"/healthz")
	require.Equal(t, 200, code)
	require.JSONEq(t, `{"status":"ok"}`, body)

	code, body = get(t, base+"/readyz")
	require.Equal(t, 200, code)
	require.JSONEq(t, `{"status":"ready"}`, body)

	mu.Lock()
	broken = errors.New("dial tcp 10.1.2.3:6379: connection refused")
	mu.Unlock()
	code, body = get(t, base+"/readyz")
	require.Equal(t, 503, code)
	require.JSONEq(t, `{"status":"unavailable","failing":["broker"]}`, body)

	code, body = get(t, base+"/metrics")
	require.Equal(t, 200, code)
	for _, want := range []string{"go_goroutines", "process_cpu_seconds_total", `openvibe_http_requests_total{code="503",method="GET",route="/readyz"} 1`} {
		require.Contains(t, body, want)
	}
}

func TestReadyCheckTimeout(t *testing.T) {
	t.Parallel()
	r := startServe(t, ServeOptions{
		ReadyTimeout: 100 * time.Millisecond,
		Ready: []Check{{Name: "hang", Fn: func(ctx context.Context) error {
			<-ctx.Done()
			return ctx.Err()
		}}},
	})
	start := time.Now()
	code, body := get(t, "http://"+r.addr+"/readyz")
	require.Equal(t, 503, code)
	require.JSONEq(t, `{"status":"unavailable","failing":["hang"]}`, body)
	require.Less(t, time.Since(start), 2*time.Second)
}

func TestServeSharedRegistry(t *testing.T) {
	t.Parallel()
	// Two servers on one registry (and a second Serve after the first) must not panic on
	// duplicate registration.
	reg := prometheus.NewRegistry()
	a := startServe(t, ServeOptions{Registry: reg})
	b := startServe(t, ServeOptions{Registry: reg})
	get(t, "http://"+a.addr+"/healthz")
	code, body := get(t, "http://"+b.addr+"/metrics")
	require.Equal(t, 200, code)
	require.Contains(t, body, `route="/healthz"`)
}

func TestShutdownOrder(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	svc := &recorder{release: release, shutdown: func(context.Context) error {
		close(release)
		return nil
	}}
	r := startServe(t, ServeOptions{
		Services:   []Service{svc},
		DrainDelay: time.Second, // room for the probes below on a loaded machine
	}, func(a string) { svc.addr = a })
	base := "http://" + r.addr

	slowDone := make(chan int, 1)
	go func() {
		resp, err := client.Get(base + "/slow")
		if err != nil {
			slowDone <- 0
			return
		}
		resp.Body.Close()
		slowDone <- resp.StatusCode
	}()
	require.Eventually(t, func() bool { return slices.Contains(svc.Events(), "slow request started") },
		2*time.Second, 5*time.Millisecond)

	r.cancel()
	// During the drain the listener still accepts, and readiness reports shutdown.
	code, body := get(t, base+"/readyz")
	require.Equal(t, 503, code)
	require.JSONEq(t, `{"status":"shutting_down"}`, body)
	code, _ = get(t, base+"/healthz")
	require.Equal(t, 200, code)

	require.NoError(t, r.wait(t))
	require.Equal(t, 200, <-slowDone, "the in-flight request completed")
	require.Equal(t, []string{
		"register", "run", "slow request started", "shutdown", "slow request finished", "workers stopped",
	}, svc.Events())
}

func TestServiceRunFailureStopsServer(t *testing.T) {
	t.Parallel()
	svc := &recorder{runErr: errors.New("consumer crashed")}
	r := startServe(t, ServeOptions{Services: []Service{svc}}, func(a string) { svc.addr = a })
	err := r.wait(t)
	require.ErrorContains(t, err, "consumer crashed")
	require.Contains(t, svc.Events(), "shutdown")
	_, dialErr := net.DialTimeout("tcp", r.addr, time.Second)
	require.Error(t, dialErr, "the listener is closed")
}

type panicky struct{ recorder }

func (p *panicky) Run(context.Context) error { panic("worker bug") }

func TestServiceRunPanicStopsServerInOrder(t *testing.T) {
	t.Parallel()
	svc := &panicky{}
	r := startServe(t, ServeOptions{Services: []Service{svc}}, func(a string) { svc.addr = a })
	require.ErrorContains(t, r.wait(t), "service worker panicked: worker bug")
	require.Contains(t, svc.Events(), "shutdown")
}

func TestServiceShutdownErrorIsReturned(t *testing.T) {
	t.Parallel()
	svc := &recorder{shutdown: func(context.Context) error { return errors.New("flush failed") }}
	r := startServe(t, ServeOptions{Services: []Service{svc}}, func(a string) { svc.addr = a })
	r.cancel()
	require.ErrorContains(t, r.wait(t), "flush failed")
}

func TestWatchdogExits(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	exited := make(chan int, 1)
	svc := &recorder{shutdown: func(context.Context) error {
		<-release // a Shutdown that ignores its deadline
		return nil
	}}
	logs := &syncBuffer{}
	r := startServe(t, ServeOptions{
		Services:        []Service{svc},
		Logger:          NewLogger(logs, "info", "json"),
		ShutdownTimeout: 100 * time.Millisecond,
		WatchdogGrace:   50 * time.Millisecond,
		Exit: func(code int) {
			exited <- code
			close(release)
		},
	}, func(a string) { svc.addr = a })
	start := time.Now()
	r.cancel()
	select {
	case code := <-exited:
		require.Equal(t, 1, code)
		require.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond)
	case <-time.After(5 * time.Second):
		t.Fatal("watchdog did not fire")
	}
	_ = r.wait(t)
	require.Contains(t, logs.String(), "shutdown deadline exceeded")
}

func TestServeListenError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = Serve(t.Context(), ServeOptions{Addr: ln.Addr().String()})
	require.ErrorContains(t, err, "listening on")
}

func TestReadyzDoesNotLeakCheckErrors(t *testing.T) {
	t.Parallel()
	r := startServe(t, ServeOptions{Ready: []Check{{Name: "store", Fn: func(context.Context) error {
		return errors.New("password authentication failed for user app")
	}}}})
	_, body := get(t, "http://"+r.addr+"/readyz")
	require.NotContains(t, body, "password")
	var rb readyBody
	require.NoError(t, json.NewDecoder(strings.NewReader(body)).Decode(&rb))
	require.Equal(t, []string{"store"}, rb.Failing)
}
