package gateway

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// FuzzPublisherMessage sends each input as one frame on a real publisher connection (after
// ready and hello), then a ping. Properties: the server never panics (a panic while
// handling a message would close the socket with 1011), the connection stays open, and
// everything it answers is a protocol message of a known type.
func FuzzPublisherMessage(f *testing.F) {
	seeds := []string{
		`{"type":"vibe-coding.ping"}`,
		`{"type":"vibe-coding.hello","protocolVersion":1,"sessionKey":"fuzz","publisher":{"clientType":"cli"}}`,
		`{"type":"vibe-coding.event","protocolVersion":1,"sessionKey":"fuzz","event":{"version":1,"eventId":"e1","sessionKey":"fuzz","eventType":"response","visibility":"public","occurredAt":"2026-04-21T23:10:01.099Z","summary":"s","response":{"text":"ok"}}}`,
		`{"type":"vibe-coding.event","sessionKey":"fuzz","event":{"eventId":7,"eventType":"nope"}}`,
		`{"type":"vibe-coding.event","sessionKey":"fuzz","event":null}`,
		`{"type":"vibe-coding.event","sessionKey":"other","event":{}}`,
		`{"type":"vibe-coding.hello","protocolVersion":99}`,
		`{"type":"vibe-coding.hello","managedStreamId":-1,"slotSlug":"x"}`,
		`{"type":1}`, `[]`, `null`, `"x"`, `{`, ``, `{"type":"` + string(make([]byte, 100)) + `"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	h := newHarness(f, withConfig(func(c *Config) {
		c.ConnRate, c.ConnBurst = 1e9, 1<<30
		c.SlotRate, c.SlotBurst = 1e9, 1<<30
	}))
	u, tok := h.user("fuzzer", store.ScopeVibeCodingPublish)
	ms := h.slot(u, "fuzz-slot", true, "")
	var c *pubclient.Client
	f.Cleanup(func() {
		if c != nil {
			_ = c.CloseNow()
		}
	})
	f.Fuzz(func(t *testing.T, msg []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if c == nil {
			var err error
			if c, err = pubclient.Dial(ctx, h.url(tok, ms.ID, ms.Slug), nil); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Ready(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Hello(ctx, helloMsg("fuzz")); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.SendRaw(ctx, msg); err != nil {
			t.Fatal(err)
		}
		if err := c.Send(ctx, map[string]any{"type": vibe.MsgPing}); err != nil {
			t.Fatal(err)
		}
		for {
			m, err := c.Next(ctx)
			if err != nil {
				code, reason, _ := c.CloseError(ctx)
				t.Fatalf("connection ended after %q: %v (close %d %q)", msg, err, code, reason)
			}
			switch m.Type {
			case vibe.MsgPong:
				return
			case vibe.MsgError, vibe.MsgAck, vibe.MsgHelloAck:
				var body map[string]any
				if err := json.Unmarshal(m.Raw, &body); err != nil {
					t.Fatalf("answer is not a JSON object: %s", m.Raw)
				}
			default:
				t.Fatalf("unexpected answer to %q: %s", msg, m.Raw)
			}
		}
	})
}
