package platform

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

const (
	// HeaderRequestID carries the request ID in both directions.
	HeaderRequestID = "X-Request-ID"

	// ContentSecurityPolicy is sent on every response.
	ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

	unmatchedRoute  = "unmatched"
	ctxKeyUnmatched = "platform.unmatched"
)

// EchoOption adjusts NewEcho.
type EchoOption func(*echoOptions)

type echoOptions struct {
	bodyLimit int64
}

// WithBodyLimit caps request bodies at n bytes (n <= 0 keeps the default of
// OPENVIBE_HTTP_BODY_LIMIT).
func WithBodyLimit(n int64) EchoOption {
	return func(o *echoOptions) {
		if n > 0 {
			o.bodyLimit = n
		}
	}
}

// NewEcho returns an echo instance with the platform's middleware: request IDs, panic
// recovery, an access log, HTTP metrics registered on reg, security headers, a body size
// limit, and the one error handler that renders every error as {"error": "..."}.
func NewEcho(logger *slog.Logger, reg prometheus.Registerer, opts ...EchoOption) *echo.Echo {
	if logger == nil {
		logger = discardLogger()
	}
	o := echoOptions{bodyLimit: commonDefaults.BodyLimit}
	for _, opt := range opts {
		opt(&o)
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = errorHandler(logger)
	// The client address comes from X-Forwarded-For only when the hop that set it is a
	// loopback, link-local or private address (the reverse proxy); otherwise it is the peer.
	e.IPExtractor = echo.ExtractIPFromXFFHeader()
	e.Use(
		requestIDMiddleware,
		observeMiddleware(logger, newHTTPMetrics(reg)),
		securityHeaders,
		recoverMiddleware,
		bodyLimit(o.bodyLimit),
	)
	return e
}

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestIDMiddleware keeps a well-formed incoming X-Request-ID or generates one, echoes it in
// the response and puts it in the request context (see RequestID).
func requestIDMiddleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := req.Header.Get(HeaderRequestID)
		if !validRequestID.MatchString(id) {
			id = newRequestID()
		}
		c.Response().Header().Set(HeaderRequestID, id)
		c.SetRequest(req.WithContext(withRequestID(req.Context(), id)))
		return next(c)
	}
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		return next(c)
	}
}

// panicError carries a recovered panic to the error handler, which logs it once.
type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

func recoverMiddleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if r == http.ErrAbortHandler { //nolint:errorlint // sentinel value compared as net/http does
				panic(r)
			}
			err = &panicError{value: r, stack: debug.Stack()}
		}()
		return next(c)
	}
}

// bodyLimit rejects declared oversize bodies up front and caps the rest while they are read.
func bodyLimit(limit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.ContentLength > limit {
				return errBodyTooLarge
			}
			if req.Body != nil && req.Body != http.NoBody {
				req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
			}
			return next(c)
		}
	}
}

var errBodyTooLarge = echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")

// observeMiddleware renders errors through the error handler, then logs the request and
// records its metrics with the final status.
func observeMiddleware(logger *slog.Logger, m *httpMetrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			m.inFlight.Inc()
			defer m.inFlight.Dec()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			elapsed := time.Since(start)
			req, res := c.Request(), c.Response()
			route := routeLabel(c, err)
			code := strconv.Itoa(res.Status)
			m.requests.WithLabelValues(route, req.Method, code).Inc()
			m.duration.WithLabelValues(route, req.Method).Observe(elapsed.Seconds())
			level := slog.LevelInfo
			if isProbe(route) {
				level = slog.LevelDebug
			}
			logger.LogAttrs(req.Context(), level, "http request",
				slog.String("request_id", RequestID(req.Context())),
				slog.String("method", req.Method),
				slog.String("route", route),
				slog.String("path", req.URL.Path),
				slog.Int("status", res.Status),
				slog.Int64("bytes_out", res.Size),
				slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
				slog.String("remote_ip", c.RealIP()),
			)
			return nil
		}
	}
}

// routeLabel is the route template that served c, or "unmatched" when no route did: the
// router's 404 handler returns echo.ErrNotFound itself, and a request path must never become
// a label.
func routeLabel(c echo.Context, err error) string {
	if err == echo.ErrNotFound || c.Path() == "" { //nolint:errorlint // identity marks the router's own 404
		return unmatchedRoute
	}
	return c.Path()
}

func isProbe(route string) bool {
	return route == "/healthz" || route == "/readyz" || route == "/metrics"
}

// StatusClientClosedRequest is the status recorded for a request whose client went away
// before it was answered.
const StatusClientClosedRequest = 499

// errorHandler is the one place errors become responses. An *echo.HTTPError keeps its status
// and message; anything else is a 500 whose body says only "internal server error", while the
// real error is logged once with the request ID.
func errorHandler(logger *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		req := c.Request()
		_, panicked := errors.AsType[*panicError](err)
		if c.Response().Committed && !panicked {
			// The status line is out: the error came from writing the body, almost always
			// to a client that went away. The response keeps the status it was sent with.
			logger.LogAttrs(req.Context(), slog.LevelDebug, "response not completed",
				slog.String("request_id", RequestID(req.Context())),
				slog.String("path", req.URL.Path),
				slog.String("error", err.Error()))
			return
		}
		if req.Context().Err() != nil && errors.Is(err, context.Canceled) {
			// The client closed the request before an answer was ready: not a server fault.
			// 499 (the convention of nginx) keeps it out of the 5xx figures; nobody reads
			// the body.
			_ = c.NoContent(StatusClientClosedRequest)
			return
		}
		status, msg := errorResponse(err)
		if status >= http.StatusInternalServerError {
			attrs := []slog.Attr{
				slog.String("request_id", RequestID(req.Context())),
				slog.String("method", req.Method),
				slog.String("path", req.URL.Path),
				slog.Int("status", status),
				slog.String("error", err.Error()),
			}
			if p, ok := errors.AsType[*panicError](err); ok {
				attrs = append(attrs, slog.String("stack", string(p.stack)))
			}
			logger.LogAttrs(req.Context(), slog.LevelError, "request failed", attrs...)
		}
		if c.Response().Committed {
			return
		}
		var werr error
		if req.Method == http.MethodHead {
			werr = c.NoContent(status)
		} else {
			werr = c.JSON(status, map[string]string{"error": msg})
		}
		if werr != nil {
			logger.DebugContext(req.Context(), "writing error response", "error", werr)
		}
	}
}

// errorResponse picks the status and the client-safe message for err.
func errorResponse(err error) (int, string) {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return http.StatusRequestEntityTooLarge, "request body too large"
	}
	he, ok := errors.AsType[*echo.HTTPError](err)
	if !ok {
		return http.StatusInternalServerError, "internal server error"
	}
	status := he.Code
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	switch m := he.Message.(type) {
	case string:
		if m != "" {
			return status, m
		}
	case error:
		if status < http.StatusInternalServerError {
			return status, m.Error()
		}
	}
	if status == http.StatusInternalServerError {
		return status, "internal server error"
	}
	return status, http.StatusText(status)
}

// httpMetrics are the server's request metrics.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	return &httpMetrics{
		requests: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "openvibe_http_requests_total",
			Help: "HTTP requests served, by route template, method and status code.",
		}, []string{"route", "method", "code"})),
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "openvibe_http_request_duration_seconds",
			Help:    "Time to serve HTTP requests, by route template and method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"})),
		inFlight: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "openvibe_http_requests_in_flight",
			Help: "HTTP requests being served (long-lived WebSocket requests included).",
		})),
	}
}

// register registers c on reg, reusing the collector already there if an identical one was
// registered before (several echo instances on one registry). reg may be nil.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if reg == nil {
		return c
	}
	if err := reg.Register(c); err != nil {
		if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err); ok {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic(fmt.Sprintf("platform: registering metrics: %v", err))
	}
	return c
}
