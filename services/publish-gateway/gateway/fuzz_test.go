package gateway

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
)

// FuzzClientMessage feeds arbitrary client messages to a connection's handler (on a real
// store and batch writer, without the socket) and checks the protocol's promise: every
// message is answered exactly once (a reply, or an ack or error once the event is stored),
// and nothing panics.
func FuzzClientMessage(f *testing.F) {
	for _, seed := range []string{
		`{"type":"vibe-coding.hello","protocolVersion":1,"sessionKey":"k","publisher":{"clientType":"cli"}}`,
		`{"type":"vibe-coding.event","protocolVersion":1,"sessionKey":"k","event":{"eventId":"e1","eventType":"response","response":{"text":"hi","truncated":false}}}`,
		`{"type":"vibe-coding.event","sessionKey":"k","event":{"eventId":"e2","eventType":"tool.call","tool":{"name":"bash","phase":"start","argumentsPreview":"export TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345"}}}`,
		`{"type":"vibe-coding.event","sessionKey":"k","event":{"eventId":"e3","eventType":"file.change","file":{"relativePath":"/home/me/x.go","snippet":null}}}`,
		`{"type":"vibe-coding.ping","protocolVersion":1,"timestamp":"2026-04-21T23:10:30.000Z"}`,
		`{"type":"vibe-coding.event","sessionKey":"k","event":null}`,
		`{"type":42}`, `[]`, `null`, `{"type":"x"}`, `{`, "\x00", ``,
	} {
		f.Add([]byte(seed))
	}
	h := newHarness(f)
	u, _ := h.user("fuzz", store.ScopeVibeCodingPublish)
	ms := h.slot(u, "fuzz", true, "")
	slot, err := h.gw.slots.join(ms)
	require.NoError(f, err)
	f.Cleanup(func() { h.gw.slots.leave(slot) })
	c := newConn(h.gw, nil, slog.New(slog.DiscardHandler))
	c.attach(auth.Principal{UserID: u.ID}, slot, c.log)
	var answers atomic.Int64
	stop := make(chan struct{})
	drained := make(chan struct{})
	go func() { // stands in for the writer goroutine
		defer close(drained)
		for {
			select {
			case <-c.replies:
				answers.Add(1)
			case <-c.results:
				answers.Add(1)
				c.release()
			case <-stop:
				return
			}
		}
	}()
	f.Cleanup(func() { close(stop); <-drained })
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		before := answers.Load()
		if req := c.handleSafely(ctx, data); req != nil {
			t.Fatalf("message closed the connection: %+v", *req)
		}
		deadline := time.Now().Add(10 * time.Second)
		for answers.Load() == before {
			if time.Now().After(deadline) {
				t.Fatalf("no answer to %q", data)
			}
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(time.Millisecond) // a second answer would show up here
		if n := answers.Load() - before; n != 1 {
			t.Fatalf("%d answers to %q", n, data)
		}
	})
}
