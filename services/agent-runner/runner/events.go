package runner

import (
	"cmp"
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
// shuts down. Every event has an id; a client that sends Last-Event-ID (or ?since=, an event
// ID or a bare sequence number) first gets the buffered events after it. The subscription
// is bounded: a client too slow to keep up loses events (and is told how many with a
// bus.lagged event) instead of slowing the agent down. sessionID names the session of a
// per-session stream in its first frame.
func (r *Runner) stream(c echo.Context, sessionID string, filter func(bus.Event) bool) error {
	since := int64(-1)
	if from := cmp.Or(c.Request().Header.Get("Last-Event-ID"), c.QueryParam("since")); from != "" {
		n, err := r.bus.ParseID(from)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, err.Error())
		}
		since = n
	}
	sub, replay, missed := r.bus.SubscribeSince(bus.DefaultSubscriberN, filter, since)
	defer sub.Close()
	r.metrics.sseClients.Inc()
	defer r.metrics.sseClients.Dec()

	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := r.writeEvent(w, bus.Event{Type: bus.ServerConnected, SessionID: sessionID, Time: time.Now().UTC()}); err != nil {
		return nil
	}
	if missed > 0 && r.writeEvent(w, bus.Event{Type: bus.SubscriberLagged, SessionID: sessionID, Time: time.Now().UTC(),
		Properties: map[string]any{"dropped": missed, "replay": true}}) != nil {
		return nil
	}
	for _, e := range replay {
		if r.writeEvent(w, e) != nil {
			return nil
		}
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
				if r.writeEvent(w, bus.Event{Type: bus.SubscriberLagged, SessionID: sessionID, Time: time.Now().UTC(),
					Properties: map[string]int64{"dropped": n}}) != nil {
					return nil
				}
			}
			if r.writeEvent(w, e) != nil {
				return nil
			}
		}
	}
}

// writeEvent writes one frame: its id when it came from the bus, its type and its JSON.
func (r *Runner) writeEvent(w *echo.Response, e bus.Event) error {
	data := e.Data
	if data == nil {
		var err error
		if data, err = json.Marshal(e); err != nil {
			return err
		}
	}
	id := ""
	if e.Seq > 0 {
		id = "id: " + r.bus.ID(e.Seq) + "\n"
	}
	if _, err := fmt.Fprintf(w, "%sevent: %s\ndata: %s\n\n", id, e.Type, data); err != nil {
		return err
	}
	w.Flush()
	return nil
}
