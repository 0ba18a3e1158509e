package runner

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/bus"
)

// sseHeartbeat keeps idle connections (and proxies) alive.
const sseHeartbeat = 15 * time.Second

func (r *Runner) allEvents(c echo.Context) error {
	owner := principal(c).UserID
	return r.stream(c, "", func(e bus.Event) bool { return e.OwnerID == owner })
}

func (r *Runner) sessionEvents(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	return r.stream(c, s.ID, func(e bus.Event) bool { return e.OwnerID == s.OwnerID && e.SessionID == s.ID })
}

// stream writes bus events as Server-Sent Events until the client leaves or the runner
// shuts down. The subscription is bounded: a client too slow to keep up loses events (and
// is told how many with a bus.lagged event) instead of slowing the agent down. sessionID
// names the session of a per-session stream in its first frame.
func (r *Runner) stream(c echo.Context, sessionID string, filter func(bus.Event) bool) error {
	sub := r.bus.Subscribe(bus.DefaultSubscriberN, filter)
	defer sub.Close()
	r.metrics.sseClients.Inc()
	defer r.metrics.sseClients.Dec()

	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := writeEvent(w, bus.Event{Type: bus.ServerConnected, SessionID: sessionID, Time: time.Now().UTC()}); err != nil {
		return nil
	}
	ctx := c.Request().Context()
	heartbeat := time.NewTicker(sseHeartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-r.closing:
			return nil
		case <-heartbeat.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return nil
			}
			w.Flush()
		case e, ok := <-sub.C():
			if !ok {
				return nil
			}
			if n := sub.Dropped(); n > 0 {
				r.metrics.sseDropped.Add(float64(n))
				if writeEvent(w, bus.Event{Type: bus.SubscriberLagged, SessionID: sessionID, Time: time.Now().UTC(),
					Properties: map[string]int64{"dropped": n}}) != nil {
					return nil
				}
			}
			if writeEvent(w, e) != nil {
				return nil
			}
		}
	}
}

func writeEvent(w *echo.Response, e bus.Event) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Type, data); err != nil {
		return err
	}
	w.Flush()
	return nil
}
