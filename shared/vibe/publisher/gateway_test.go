package publisher

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"openvibe.live/backend/shared/vibe"
)

// fakeGateway is a test double of the publish gateway's peer behaviour, built on the same
// WebSocket library: it speaks the publisher protocol, dedupes by eventId and can misbehave
// on cue (refuse, close with a code, drop the link, reject an event, hold acks, go silent).
type fakeGateway struct {
	t   testing.TB
	srv *httptest.Server
	wg  sync.WaitGroup
	ctx context.Context

	// behaviour, set before the client connects
	httpStatus  int                  // refuse the handshake with this status
	closeCode   websocket.StatusCode // close right after accept with this code
	closeReason string
	errorFirst  string      // send a vibe-coding.error before closing
	dropAfter   map[int]int // connection number → drop it after this many events (unacked)
	rejectID    string      // answer this eventId with an error
	failOnceID  string      // answer this eventId's first arrival with a store failure
	holdAcks    bool        // never ack
	notLive     bool        // ack with delivered false
	silent      bool        // never answer pings
	noReady     bool        // never send ready

	mu         sync.Mutex
	conns      int
	auth       []string
	queries    []string
	hellos     []vibe.Hello
	envelopes  []vibe.EventEnvelope
	firstSeen  []vibe.Event
	seen       map[string]int
	pings      int
	closeCodes []websocket.StatusCode // how each publisher connection ended, as the gateway saw it
	maxUnacked int
	seq        int64
}

func newFakeGateway(t testing.TB, setup func(g *fakeGateway)) *fakeGateway {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &fakeGateway{t: t, ctx: ctx, seen: map[string]int{}, dropAfter: map[int]int{}}
	if setup != nil {
		setup(g)
	}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(func() {
		cancel()
		g.srv.Close()
		g.wg.Wait()
	})
	return g
}

func (g *fakeGateway) serve(w http.ResponseWriter, r *http.Request) {
	g.wg.Add(1)
	defer g.wg.Done()
	g.mu.Lock()
	g.conns++
	n := g.conns
	g.auth = append(g.auth, r.Header.Get("Authorization"))
	g.queries = append(g.queries, r.URL.RawQuery)
	g.mu.Unlock()
	if r.URL.Path != PublishPath {
		http.NotFound(w, r)
		return
	}
	if g.httpStatus != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(g.httpStatus)
		_, _ = w.Write([]byte(`{"error":"Authentication required"}`))
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := g.ctx
	if g.errorFirst != "" {
		g.send(ctx, c, vibe.Error{Type: vibe.MsgError, Error: g.errorFirst})
	}
	if g.closeCode != 0 {
		_ = c.Close(g.closeCode, g.closeReason)
		return
	}
	if g.noReady {
		_, _, _ = c.Read(ctx)
		return
	}
	ready := vibe.Ready{Type: vibe.MsgReady, OK: true, ManagedStreamID: 7, SlotSlug: "camp-code", Settings: vibe.DefaultSettings()}
	g.send(ctx, c, ready)
	var hello vibe.Hello
	if !g.read(ctx, c, &hello) || hello.Type != vibe.MsgHello {
		return
	}
	g.mu.Lock()
	g.hellos = append(g.hellos, hello)
	g.mu.Unlock()
	g.send(ctx, c, vibe.HelloAck{Type: vibe.MsgHelloAck, SessionKey: hello.SessionKey})
	g.loop(ctx, c, n)
}

func (g *fakeGateway) loop(ctx context.Context, c *websocket.Conn, n int) {
	events, unacked := 0, 0
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			g.mu.Lock()
			g.closeCodes = append(g.closeCodes, websocket.CloseStatus(err))
			g.mu.Unlock()
			return
		}
		raw := json.RawMessage(data)
		var env vibe.Envelope
		_ = json.Unmarshal(raw, &env)
		switch env.Type {
		case vibe.MsgPing:
			g.mu.Lock()
			g.pings++
			g.mu.Unlock()
			if !g.silent {
				g.send(ctx, c, vibe.Pong{Type: vibe.MsgPong})
			}
		case vibe.MsgEvent:
			var ee vibe.EventEnvelope
			var ev vibe.Event
			if json.Unmarshal(raw, &ee) != nil || json.Unmarshal(ee.Event, &ev) != nil {
				g.send(ctx, c, vibe.Error{Type: vibe.MsgError, Error: "bad event"})
				continue
			}
			events++
			if limit, ok := g.dropAfter[n]; ok && events > limit {
				return // the link drops: this event and later ones are never acked here
			}
			unacked++
			g.mu.Lock()
			g.envelopes = append(g.envelopes, ee)
			g.maxUnacked = max(g.maxUnacked, unacked)
			g.mu.Unlock()
			if g.holdAcks {
				continue
			}
			if ev.EventID == g.failOnceID {
				g.mu.Lock()
				first := g.seen["fail:"+ev.EventID] == 0
				g.seen["fail:"+ev.EventID]++
				g.mu.Unlock()
				if first {
					unacked--
					g.send(ctx, c, vibe.Error{Type: vibe.MsgError, Error: "Event could not be stored; send it again", EventID: ev.EventID})
					continue
				}
			}
			if ev.EventID == g.rejectID {
				unacked--
				g.send(ctx, c, vibe.Error{Type: vibe.MsgError, Error: "event.eventType is not supported", EventID: ev.EventID})
				continue
			}
			g.mu.Lock()
			dup := g.seen[ev.EventID] > 0
			g.seen[ev.EventID]++
			if !dup {
				g.seq++
				g.firstSeen = append(g.firstSeen, ev)
			}
			seq := g.seq
			g.mu.Unlock()
			unacked--
			g.send(ctx, c, vibe.Ack{Type: vibe.MsgAck, EventID: ev.EventID, Delivered: !g.notLive, Duplicate: dup, Sequence: seq})
		}
	}
}

func (g *fakeGateway) send(ctx context.Context, c *websocket.Conn, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		g.t.Errorf("encode %T: %v", v, err)
		return
	}
	_ = c.Write(ctx, websocket.MessageText, data)
}

func (g *fakeGateway) read(ctx context.Context, c *websocket.Conn, v any) bool {
	_, data, err := c.Read(ctx)
	if err != nil {
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		g.t.Errorf("gateway got invalid JSON %q: %v", data, err)
		return false
	}
	return true
}

func (g *fakeGateway) snapshot() (events []vibe.Event, envelopes []vibe.EventEnvelope, hellos []vibe.Hello, conns int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]vibe.Event(nil), g.firstSeen...), append([]vibe.EventEnvelope(nil), g.envelopes...),
		append([]vibe.Hello(nil), g.hellos...), g.conns
}
