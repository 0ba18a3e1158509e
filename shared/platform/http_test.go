package platform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/testenv"
)

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct{ testenv.Buffer }

// logLines decodes JSON log lines whose msg is msg.
func (b *syncBuffer) logLines(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

const secretText = "pq: password authentication failed for user app at 10.0.0.7"

func newTestEcho(t *testing.T, opts ...EchoOption) (*echo.Echo, *syncBuffer, *prometheus.Registry) {
	t.Helper()
	logs := &syncBuffer{}
	reg := prometheus.NewRegistry()
	e := NewEcho(NewLogger(logs, "debug", "json"), reg, opts...)
	e.GET("/items/:id", func(c echo.Context) error {
		switch c.Param("id") {
		case "missing":
			return echo.NewHTTPError(http.StatusNotFound, "item not found")
		case "internal":
			return fmt.Errorf("loading item: %w", errors.New(secretText))
		case "wrapped500":
			return echo.NewHTTPError(http.StatusInternalServerError, errors.New(secretText)).SetInternal(errors.New(secretText))
		case "unavailable":
			return echo.NewHTTPError(http.StatusServiceUnavailable, "store unavailable").SetInternal(errors.New(secretText))
		case "panic":
			panic(secretText)
		}
		return c.JSON(http.StatusOK, map[string]string{"id": c.Param("id")})
	})
	e.POST("/echo", func(c echo.Context) error {
		b, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err
		}
		return c.String(http.StatusOK, fmt.Sprint(len(b)))
	})
	return e, logs, reg
}

func do(e http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func errorBody(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var body map[string]string
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
	require.Len(t, body, 1, rec.Body.String())
	return body["error"]
}

func TestErrorHandler(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, method, path string
		status             int
		msg                string
		logged             bool
	}{
		{"http error keeps message", http.MethodGet, "/items/missing", 404, "item not found", false},
		{"plain error is opaque", http.MethodGet, "/items/internal", 500, "internal server error", true},
		{"500 http error with error message is opaque", http.MethodGet, "/items/wrapped500", 500, "internal server error", true},
		{"503 keeps its chosen message", http.MethodGet, "/items/unavailable", 503, "store unavailable", true},
		{"panic is recovered", http.MethodGet, "/items/panic", 500, "internal server error", true},
		{"unknown route", http.MethodGet, "/nope", 404, "Not Found", false},
		{"wrong method", http.MethodDelete, "/items/1", 405, "Method Not Allowed", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, logs, _ := newTestEcho(t)
			req := httptest.NewRequest(tt.method, tt.path, nil)
			req.Header.Set(HeaderRequestID, "req-"+strings.ReplaceAll(tt.name, " ", "-"))
			rec := do(e, req)
			require.Equal(t, tt.status, rec.Code)
			require.Equal(t, tt.msg, errorBody(t, rec))
			require.NotContains(t, rec.Body.String(), "10.0.0.7")
			require.Contains(t, rec.Header().Get("Content-Type"), "application/json")

			failures := logs.logLines(t, "request failed")
			if !tt.logged {
				require.Empty(t, failures)
				return
			}
			require.Len(t, failures, 1, "the internal error is logged exactly once")
			require.Equal(t, req.Header.Get(HeaderRequestID), failures[0]["request_id"])
			require.Contains(t, failures[0]["error"], secretText)
		})
	}
}

func TestPanicLogsStack(t *testing.T) {
	t.Parallel()
	e, logs, _ := newTestEcho(t)
	rec := do(e, httptest.NewRequest(http.MethodGet, "/items/panic", nil))
	require.Equal(t, 500, rec.Code)
	lines := logs.logLines(t, "request failed")
	require.Len(t, lines, 1)
	require.Contains(t, lines[0]["stack"], "http_test.go")
}

func TestHeadErrorHasNoBody(t *testing.T) {
	t.Parallel()
	e, _, _ := newTestEcho(t)
	rec := do(e, httptest.NewRequest(http.MethodHead, "/nope", nil))
	require.Equal(t, 404, rec.Code)
	require.Empty(t, rec.Body.String())
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	t.Parallel()
	e, _, _ := newTestEcho(t)
	for _, path := range []string{"/items/1", "/items/internal", "/items/panic", "/nope"} {
		rec := do(e, httptest.NewRequest(http.MethodGet, path, nil))
		h := rec.Header()
		require.Equal(t, ContentSecurityPolicy, h.Get("Content-Security-Policy"), path)
		require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), path)
		require.Equal(t, "DENY", h.Get("X-Frame-Options"), path)
		require.Equal(t, "no-referrer", h.Get("Referrer-Policy"), path)
	}
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	e, logs, _ := newTestEcho(t)

	req := httptest.NewRequest(http.MethodGet, "/items/1", nil)
	req.Header.Set(HeaderRequestID, "abc-123")
	require.Equal(t, "abc-123", do(e, req).Header().Get(HeaderRequestID))

	generated := do(e, httptest.NewRequest(http.MethodGet, "/items/1", nil)).Header().Get(HeaderRequestID)
	require.Len(t, generated, 32)

	evil := httptest.NewRequest(http.MethodGet, "/items/1", nil)
	evil.Header.Set(HeaderRequestID, "x\nlevel=error forged")
	got := do(e, evil).Header().Get(HeaderRequestID)
	require.Len(t, got, 32, "a malformed incoming ID is replaced")

	access := logs.logLines(t, "http request")
	require.Len(t, access, 3)
	require.Equal(t, "abc-123", access[0]["request_id"])
	require.Equal(t, generated, access[1]["request_id"])
	require.Equal(t, "/items/:id", access[0]["route"])
	require.InDelta(t, 200, access[0]["status"], 0)
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	e, _, _ := newTestEcho(t, WithBodyLimit(10))

	rec := do(e, httptest.NewRequest(http.MethodPost, "/echo", strings.NewReader("0123456789")))
	require.Equal(t, 200, rec.Code)
	require.Equal(t, "10", rec.Body.String())

	rec = do(e, httptest.NewRequest(http.MethodPost, "/echo", strings.NewReader("0123456789x")))
	require.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	require.Equal(t, "request body too large", errorBody(t, rec))

	// No Content-Length: the limit applies while the body is read.
	req := httptest.NewRequest(http.MethodPost, "/echo", io.MultiReader(strings.NewReader(strings.Repeat("y", 100))))
	req.ContentLength = -1
	rec = do(e, req)
	require.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	require.Equal(t, "request body too large", errorBody(t, rec))
}

func TestDefaultBodyLimit(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20 // OPENVIBE_HTTP_BODY_LIMIT's documented default
	e, _, _ := newTestEcho(t)
	rec := do(e, httptest.NewRequest(http.MethodPost, "/echo", bytes.NewReader(make([]byte, limit+1))))
	require.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	rec = do(e, httptest.NewRequest(http.MethodPost, "/echo", bytes.NewReader(make([]byte, limit))))
	require.Equal(t, http.StatusOK, rec.Code)
}

func TestHTTPMetricsUseRouteTemplates(t *testing.T) {
	t.Parallel()
	e, _, reg := newTestEcho(t)
	for _, p := range []string{"/items/1", "/items/2", "/items/missing", "/random/a", "/random/b"} {
		do(e, httptest.NewRequest(http.MethodGet, p, nil))
	}
	m := newHTTPMetrics(reg) // returns the collectors already registered
	require.InDelta(t, 2, testutil.ToFloat64(m.requests.WithLabelValues("/items/:id", "GET", "200")), 0)
	require.InDelta(t, 1, testutil.ToFloat64(m.requests.WithLabelValues("/items/:id", "GET", "404")), 0)
	require.InDelta(t, 2, testutil.ToFloat64(m.requests.WithLabelValues(unmatchedRoute, "GET", "404")), 0)
	require.Equal(t, 3, testutil.CollectAndCount(m.requests), "raw paths never become labels")
	require.Equal(t, 2, testutil.CollectAndCount(m.duration))
}

func TestRealIPTrustsOnlyPrivateProxies(t *testing.T) {
	t.Parallel()
	e, logs, _ := newTestEcho(t)
	fromProxy := httptest.NewRequest(http.MethodGet, "/items/1", nil)
	fromProxy.RemoteAddr = "10.0.0.2:1234"
	fromProxy.Header.Set("X-Forwarded-For", "203.0.113.9")
	do(e, fromProxy)
	direct := httptest.NewRequest(http.MethodGet, "/items/1", nil)
	direct.RemoteAddr = "198.51.100.7:1234"
	direct.Header.Set("X-Forwarded-For", "203.0.113.9")
	do(e, direct)
	lines := logs.logLines(t, "http request")
	require.Len(t, lines, 2)
	require.Equal(t, "203.0.113.9", lines[0]["remote_ip"])
	require.Equal(t, "198.51.100.7", lines[1]["remote_ip"], "a public peer cannot claim another address")
}

func TestHandlerLogsCarryRequestID(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	logger := NewLogger(logs, "info", "json")
	e := NewEcho(logger, nil)
	e.GET("/work", func(c echo.Context) error {
		logger.InfoContext(c.Request().Context(), "doing work")
		return c.NoContent(http.StatusNoContent)
	})
	req := httptest.NewRequest(http.MethodGet, "/work", nil)
	req.Header.Set(HeaderRequestID, "rid-1")
	do(e, req)
	work := logs.logLines(t, "doing work")
	require.Len(t, work, 1)
	require.Equal(t, "rid-1", work[0]["request_id"])
	access := logs.logLines(t, "http request")
	require.Len(t, access, 1)
	for line := range strings.SplitSeq(strings.TrimSpace(logs.String()), "\n") {
		require.Equal(t, 1, strings.Count(line, `"request_id"`), "one request_id per line: %s", line)
	}
}

func TestClientGoneIsNotAServerError(t *testing.T) {
	t.Parallel()
	e, logs, reg := newTestEcho(t)
	e.GET("/cut", func(c echo.Context) error {
		c.Response().WriteHeader(http.StatusOK)
		return fmt.Errorf("write response: %w", errors.New("write: broken pipe"))
	})
	e.GET("/left", func(c echo.Context) error {
		<-c.Request().Context().Done()
		return fmt.Errorf("query feed: %w", c.Request().Context().Err())
	})
	e.GET("/canceled-inside", func(c echo.Context) error {
		return fmt.Errorf("query feed: %w", context.Canceled) // the client is still there
	})

	rec := do(e, httptest.NewRequest(http.MethodGet, "/cut", nil))
	require.Equal(t, http.StatusOK, rec.Code, "a sent status stays")
	require.Len(t, logs.logLines(t, "response not completed"), 1)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rec = do(e, httptest.NewRequestWithContext(ctx, http.MethodGet, "/left", nil))
	require.Equal(t, StatusClientClosedRequest, rec.Code)

	require.Empty(t, logs.logLines(t, "request failed"), "neither is a server fault")
	rec = do(e, httptest.NewRequest(http.MethodGet, "/canceled-inside", nil))
	require.Equal(t, http.StatusInternalServerError, rec.Code, "a cancellation the client did not cause is a fault")
	require.Len(t, logs.logLines(t, "request failed"), 1)

	m := newHTTPMetrics(reg)
	require.InDelta(t, 1, testutil.ToFloat64(m.requests.WithLabelValues("/cut", "GET", "200")), 0)
	require.InDelta(t, 1, testutil.ToFloat64(m.requests.WithLabelValues("/left", "GET", "499")), 0)
}
