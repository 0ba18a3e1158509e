package platform

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

const (
	// DefaultWatchdogGrace is how long past ShutdownTimeout the watchdog waits before exiting.
	DefaultWatchdogGrace = 5 * time.Second
	// DefaultReadyTimeout bounds one /readyz evaluation when ServeOptions leaves it zero.
	DefaultReadyTimeout = 2 * time.Second
)

// Check is one readiness check: /readyz fails while Fn returns an error.
type Check struct {
	Name string
	Fn   func(context.Context) error
}

// ServeOptions configures Serve. Only Addr is required.
type ServeOptions struct {
	Addr     string // host:port; port 0 picks a free port (see OnListen)
	Logger   *slog.Logger
	Registry *prometheus.Registry // nil: a fresh registry
	Services []Service
	Ready    []Check
	// ShutdownTimeout bounds the whole graceful shutdown, drain included (0: the default of
	// OPENVIBE_SHUTDOWN_TIMEOUT).
	ShutdownTimeout time.Duration
	// DrainDelay is how long /readyz reports failure before the listener closes, so load
	// balancers stop routing new requests first.
	DrainDelay time.Duration
	// OnListen, if set, is called with the bound address once the server accepts connections.
	OnListen func(addr string)
	// BodyLimit caps request bodies in bytes (0: the default of OPENVIBE_HTTP_BODY_LIMIT).
	BodyLimit int64
	// ReadyTimeout bounds one /readyz evaluation (0: 2s).
	ReadyTimeout time.Duration
	// WatchdogGrace is how long past ShutdownTimeout the watchdog waits (0: 5s).
	WatchdogGrace time.Duration
	// Exit ends the process when the watchdog fires (nil: os.Exit). Tests replace it.
	Exit func(code int)
}

func (o *ServeOptions) defaults() {
	if o.Logger == nil {
		o.Logger = discardLogger()
	}
	if o.Registry == nil {
		o.Registry = prometheus.NewRegistry()
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = commonDefaults.ShutdownTimeout
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = DefaultReadyTimeout
	}
	if o.WatchdogGrace <= 0 {
		o.WatchdogGrace = DefaultWatchdogGrace
	}
	if o.Exit == nil {
		o.Exit = os.Exit
	}
}

// Serve runs an HTTP server for the services until ctx is cancelled or something fails, then
// shuts down in order: /readyz fails → DrainDelay → the listener closes and HTTP shutdown
// begins → each Service.Shutdown (WebSockets close) → in-flight requests finish → workers
// (Service.Run) are cancelled and awaited. A watchdog exits the process with status 1 if all
// this runs past ShutdownTimeout + WatchdogGrace.
//
// Serve returns nil after a shutdown caused by ctx, or the error that stopped it: a
// Service.Run that failed, a server that failed, or a step of shutdown that failed.
func Serve(ctx context.Context, opts ServeOptions) error {
	if opts.Addr == "" {
		return errors.New("serve: no listen address")
	}
	opts.defaults()
	s := &server{opts: opts, log: opts.Logger}
	return s.run(ctx)
}

type server struct {
	opts     ServeOptions
	log      *slog.Logger
	stopping atomic.Bool
}

func (s *server) run(ctx context.Context) error {
	e := s.newEcho()
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", s.opts.Addr, err)
	}
	httpSrv := &http.Server{
		Handler:           e,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	shutdownBegun := make(chan struct{})
	httpSrv.RegisterOnShutdown(func() { close(shutdownBegun) })

	workerCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	failed := make(chan error, len(s.opts.Services)+1)
	var workers sync.WaitGroup
	for _, svc := range s.opts.Services {
		workers.Go(func() {
			if err := s.runService(workerCtx, svc); err != nil && workerCtx.Err() == nil {
				failed <- fmt.Errorf("service worker: %w", err)
			} else if err != nil {
				s.log.Warn("service worker stopped with an error during shutdown", "error", err)
			}
		})
	}
	serveDone := make(chan struct{})
	go func() {
		defer close(serveDone)
		if err := httpSrv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			failed <- fmt.Errorf("http server: %w", err)
		}
	}()
	s.log.Info("server listening", "addr", ln.Addr().String())
	if s.opts.OnListen != nil {
		s.opts.OnListen(ln.Addr().String())
	}

	var cause error
	select {
	case <-ctx.Done():
		s.log.Info("shutting down", "reason", context.Cause(ctx).Error())
	case cause = <-failed:
		// The error is returned, and logged by whoever handles it.
		s.log.Info("shutting down", "reason", "failure")
	}
	err = s.shutdown(httpSrv, ln, shutdownBegun, stopWorkers, &workers, cause == nil)
	<-serveDone
	s.logLateFailures(failed)
	return errors.Join(cause, err)
}

// runService runs svc's workers, turning a panic into an error so that the server still shuts
// down in order.
func (s *server) runService(ctx context.Context, svc Service) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("service worker panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("service worker panicked: %v", r)
		}
	}()
	return svc.Run(ctx)
}

// shutdown runs the shutdown sequence under a watchdog.
func (s *server) shutdown(httpSrv *http.Server, ln net.Listener, begun <-chan struct{}, stopWorkers context.CancelFunc,
	workers *sync.WaitGroup, drain bool,
) error {
	s.stopping.Store(true)
	watchdog := time.AfterFunc(s.opts.ShutdownTimeout+s.opts.WatchdogGrace, func() {
		s.log.Error("shutdown deadline exceeded, exiting", "timeout", s.opts.ShutdownTimeout.String())
		s.opts.Exit(1)
	})
	defer watchdog.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()

	if drain && s.opts.DrainDelay > 0 {
		select {
		case <-time.After(s.opts.DrainDelay):
		case <-ctx.Done():
		}
	}
	var errs []error
	httpDone := make(chan error, 1)
	go func() { httpDone <- httpSrv.Shutdown(ctx) }()
	<-begun // Shutdown has closed the listeners Serve took
	// A worker that fails at once can get here before Serve has taken the listener, which
	// Shutdown then cannot close: close it here, so that no connection is accepted while the
	// services shut down (Serve, if it starts now, returns at once).
	_ = ln.Close()
	for _, svc := range s.opts.Services {
		if err := svc.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("service shutdown: %w", err))
		}
	}
	if err := <-httpDone; err != nil {
		errs = append(errs, fmt.Errorf("http shutdown: %w", err))
		_ = httpSrv.Close() // cut the requests that did not finish in time
	}
	stopWorkers()
	if err := waitCtx(ctx, workers); err != nil {
		errs = append(errs, fmt.Errorf("waiting for service workers: %w", err))
	}
	err := errors.Join(errs...)
	if err != nil {
		s.log.Error("shutdown incomplete", "error", err)
	} else {
		s.log.Info("shutdown complete")
	}
	return err
}

// logLateFailures logs worker failures that happened after shutdown had started.
func (s *server) logLateFailures(failed <-chan error) {
	for {
		select {
		case err := <-failed:
			s.log.Error("service failed during shutdown", "error", err)
		default:
			return
		}
	}
}

// waitCtx waits for wg or ctx, whichever ends first. If ctx ends first, the goroutines left
// behind are the watchdog's business.
func waitCtx(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *server) newEcho() *echo.Echo {
	reg := s.opts.Registry
	register(reg, collectors.NewGoCollector())
	register(reg, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	e := NewEcho(s.log, reg, WithBodyLimit(s.opts.BodyLimit))
	e.GET("/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", echo.WrapHandler(promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})))
	for _, svc := range s.opts.Services {
		svc.Register(e)
	}
	return e
}

type readyBody struct {
	Status  string   `json:"status"`
	Failing []string `json:"failing,omitempty"`
}

// readyz runs the readiness checks concurrently. Check errors are logged, never returned:
// they may name hosts or carry driver messages.
func (s *server) readyz(c echo.Context) error {
	if s.stopping.Load() {
		return c.JSON(http.StatusServiceUnavailable, readyBody{Status: "shutting_down"})
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), s.opts.ReadyTimeout)
	defer cancel()
	errs := make([]error, len(s.opts.Ready))
	var wg sync.WaitGroup
	for i, chk := range s.opts.Ready {
		if chk.Fn != nil {
			wg.Go(func() { errs[i] = chk.Fn(ctx) })
		}
	}
	wg.Wait()
	var failing []string
	for i, err := range errs {
		if err != nil {
			failing = append(failing, s.opts.Ready[i].Name)
			s.log.WarnContext(ctx, "readiness check failed", "check", s.opts.Ready[i].Name, "error", err)
		}
	}
	if len(failing) > 0 {
		return c.JSON(http.StatusServiceUnavailable, readyBody{Status: "unavailable", Failing: failing})
	}
	return c.JSON(http.StatusOK, readyBody{Status: "ready"})
}
