package serve

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestStreamResumes: every event has an id; a client that subscribes after the 202 of a
// prompt, with the event_id it returned, gets the whole turn; one that reconnects with
// Last-Event-ID gets what it missed and nothing twice — both see exactly what a client
// connected throughout saw.
func TestStreamResumes(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, map[string]any{"permission": allowAll}))
	c := ov.client(t)
	s := c.createSession(project(t, t.TempDir(), "app"))
	path := "/agent/session/" + s.ID + "/event"
	ref := c.events(path)
	ref.next(ofType("server.connected"))

	p.script(reply{Text: "first ", Calls: []call{bash("echo a")}}, reply{Text: "done"})
	var out struct {
		EventID string `json:"event_id"`
	}
	c.call(http.MethodPost, "/agent/session/"+s.ID+"/message", map[string]any{"text": "go"}, http.StatusAccepted, &out)
	require.NotEmpty(t, out.EventID)
	want := ref.until(idleOf(t, s.ID))
	for _, e := range want {
		require.NotEmpty(t, e.ID, "%s has an id", e.Type)
	}
	late := c.events(path + "?since=" + out.EventID)
	got := late.until(idleOf(t, s.ID))
	require.Equal(t, ids(want), ids(got), "a late subscriber gets the whole turn")

	// Disconnect in the middle of a turn and come back with Last-Event-ID.
	p.script(reply{Calls: []call{bash("echo b")}}, reply{Text: "slow", Delay: 1500 * time.Millisecond})
	c.call(http.MethodPost, "/agent/session/"+s.ID+"/message", map[string]any{"text": "again"}, http.StatusAccepted, &out)
	first := c.events(path + "?since=" + out.EventID)
	before := first.until(func(e sseEvent) bool { return e.Type == "part.updated" && e.props(t)["state"] == "completed" })
	first.close()
	second := c.events(path, http.Header{"Last-Event-Id": {before[len(before)-1].ID}})
	after := second.until(idleOf(t, s.ID))
	want = ref.until(idleOf(t, s.ID))
	require.Equal(t, ids(want), append(ids(before), ids(after)...), "nothing missed, nothing twice")

	code, body := c.send(http.MethodGet, path+"?since=bogus", nil)
	require.Equal(t, http.StatusBadRequest, code, string(body))
}
