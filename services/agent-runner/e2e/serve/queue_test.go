package serve

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// userTexts are the session's prompts in history order, each with the answer that followed.
func userTexts(c *client, sessionID string) []string {
	var out []string
	for _, m := range c.messages(sessionID) {
		if m.Role == message.RoleUser {
			out = append(out, m.Text())
		} else if t := m.Text(); t != "" && len(out) > 0 {
			out[len(out)-1] += " → " + t
		}
	}
	return out
}

// TestQueueAndSteer: prompts sent while a turn runs wait in order and run one after the
// other (202 with queued, not 409); one sent with steer cuts the running turn short and goes
// next; a queued prompt can be taken back; a waiting client gets its own turn's answer.
func TestQueueAndSteer(t *testing.T) {
	p := newProvider(t)
	p.decide = func(req chatRequest) (reply, bool) {
		switch u := req.LastUser(); u {
		case "slow":
			return reply{Text: "slow done", Delay: 1500 * time.Millisecond}, true
		case "endless":
			return reply{Text: "never", Delay: time.Minute}, true
		default:
			return reply{Text: strings.ToUpper(u)}, true
		}
	}
	ov := startOpenvibe(t, config(p, nil))
	c := ov.client(t)
	s := c.createSession(project(t, t.TempDir(), "app"))
	ev := c.events("/agent/session/" + s.ID + "/event")
	queue := func(text string, steer bool) map[string]any {
		var out struct {
			Queued map[string]any `json:"queued"`
		}
		c.call(http.MethodPost, "/agent/session/"+s.ID+"/message", map[string]any{"text": text, "steer": steer}, http.StatusAccepted, &out)
		require.NotNil(t, out.Queued, "%s is queued", text)
		return out.Queued
	}

	c.prompt(s.ID, "slow")
	queue("b", false)
	queue("c", false)
	var waiting []map[string]any
	c.call(http.MethodGet, "/agent/session/"+s.ID+"/queue", nil, http.StatusOK, &waiting)
	require.Len(t, waiting, 2)
	require.Equal(t, "b", waiting[0]["text"])
	for range 3 {
		ev.idle(s.ID)
	}
	require.Equal(t, []string{"slow → slow done", "b → B", "c → C"}, userTexts(c, s.ID))

	// Steering: the endless turn is cut short and the steering prompt runs before the one
	// queued earlier.
	c.prompt(s.ID, "endless")
	ev.next(func(e sseEvent) bool { return e.Type == "message.updated" && e.props(t)["role"] == "assistant" })
	queue("later", false)
	dropped := queue("dropped", false)
	c.call(http.MethodDelete, "/agent/session/"+s.ID+"/queue/"+dropped["id"].(string), nil, http.StatusNoContent, nil)
	code, _ := c.send(http.MethodDelete, "/agent/session/"+s.ID+"/queue/"+dropped["id"].(string), nil)
	require.Equal(t, http.StatusNotFound, code)
	steer := queue("instead", true)
	require.Equal(t, true, steer["steer"])
	status := ev.idle(s.ID)
	require.Contains(t, status["error"], "a new prompt took over")
	ev.idle(s.ID)
	ev.idle(s.ID)
	require.Equal(t, []string{"slow → slow done", "b → B", "c → C", "endless", "instead → INSTEAD", "later → LATER"}, userTexts(c, s.ID))
	msgs := c.messages(s.ID)
	require.Equal(t, "aborted", msgs[7].Finish, "the endless answer was cut short")

	// A client that waits while the session is busy gets its own turn's answer.
	c.prompt(s.ID, "slow")
	var out struct {
		Message *message.Message `json:"message"`
	}
	c.call(http.MethodPost, "/agent/session/"+s.ID+"/message", map[string]any{"text": "waited", "wait": true}, http.StatusOK, &out)
	require.Equal(t, "WAITED", out.Message.Text())
}
