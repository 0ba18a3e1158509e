package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/migrations"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/sqlite"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/viewerclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type env struct {
	t       *testing.T
	srv     *Server
	st      store.Store
	br      *memory.Broker
	jwt     *auth.JWT
	http    *httptest.Server
	user    store.User
	slot    store.ManagedStream
	session store.VibeSession
}

// newEnv runs the service with the default configuration, changed by change. Rooms do not
// linger: each stops with its last viewer.
func newEnv(t *testing.T, change ...func(*Config)) *env {
	t.Helper()
	return newEnvStore(t, nil, change...)
}

// newEnvStore is newEnv with the service's store wrapped by wrap (nil: as it is).
func newEnvStore(t *testing.T, wrap func(store.Store) store.Store, change ...func(*Config)) *env {
	t.Helper()
	cfg := DefaultConfig()
	cfg.RoomLinger = 0
	for _, c := range change {
		c(&cfg)
	}
	ctx := t.Context()
	sq, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "chat.db"), sqlite.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sq.Close() })
	require.NoError(t, migrations.Up(ctx, sq.DB(), migrations.SQLite))
	br := memory.New(memory.Options{})
	t.Cleanup(func() { _ = br.Close() })
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: bytes.Repeat([]byte("k"), 32), Issuer: "t", Audience: "t", TTL: time.Hour})
	require.NoError(t, err)
	var served store.Store = sq
	if wrap != nil {
		served = wrap(sq)
	}
	srv, err := New(Deps{Store: served, Broker: br, Auth: auth.NewAuthenticator(sq, jwt, nil), Registerer: prometheus.NewRegistry(), Config: cfg})
	require.NoError(t, err)
	e := echo.New()
	srv.Register(e)
	hs := httptest.NewServer(e)
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_ = srv.Run(runCtx)
		close(done)
	}()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		hs.Close()
		stop()
		<-done
	})
	u, err := sq.CreateUser(ctx, "Ada", "x")
	require.NoError(t, err)
	slot, err := sq.CreateManagedStream(ctx, u.ID, "camp-code", "Night Bus", nil)
	require.NoError(t, err)
	sess, err := sq.UpsertVibeSession(ctx, store.VibeSession{
		ManagedStreamID: slot.ID, SessionKey: "openvibe-20260421231000-ab12cd34", Status: store.SessionActive,
		Publisher: json.RawMessage(`{}`), StartedAt: time.Now(), LastSeenAt: time.Now(),
	})
	require.NoError(t, err)
	return &env{t: t, srv: srv, st: sq, br: br, jwt: jwt, http: hs, user: u, slot: slot, session: sess}
}

func (e *env) token(u store.User) string {
	tok, _, err := e.jwt.Issue(u.ID, u.Username, time.Now())
	require.NoError(e.t, err)
	return tok
}

// client is a viewer socket of the test server.
type client struct {
	t *testing.T
	c *viewerclient.Conn
}

// dial joins as o says (the slot path when o names a user, the original socket otherwise;
// the original join frame is left to the test).
func (e *env) dial(o viewerclient.Options) *client {
	e.t.Helper()
	o.NoJoin = true
	c, err := viewerclient.Dial(e.t.Context(), e.http.URL, o)
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = c.CloseNow() })
	return &client{t: e.t, c: c}
}

// slot is the options that join /ws/chat/ada/camp-code.
func slot() viewerclient.Options { return viewerclient.Options{Username: "ada", Slot: "camp-code"} }

// next returns the next frame (one per message, unless the socket asked for batch=1).
func (c *client) next() map[string]any {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	f, err := c.c.Next(ctx)
	require.NoError(c.t, err)
	m, err := f.Fields()
	require.NoError(c.t, err)
	return m
}

// nextOf skips frames until one of type typ.
func (c *client) nextOf(typ string) map[string]any {
	for {
		if m := c.next(); m["type"] == typ {
			return m
		}
	}
}

func (c *client) send(v any) {
	require.NoError(c.t, c.c.Send(c.t.Context(), v))
}

// closed reads until the socket ends and returns how.
func (c *client) closed(ctx context.Context) error {
	for {
		if _, err := c.c.Next(ctx); err != nil {
			return err
		}
	}
}

// publish stores an event and publishes it, as the gateway does.
func (e *env) publish(raw string) store.VibeEvent {
	e.t.Helper()
	ev, err := vibe.ParseEvent(json.RawMessage(raw))
	require.NoError(e.t, err)
	if ev.Visibility == "" {
		ev.Visibility = vibe.VisibilityPublic // the gateway's sanitizer defaults it
	}
	payload, _ := json.Marshal(ev)
	res, err := e.st.InsertVibeEvents(e.t.Context(), []store.NewVibeEvent{{
		ManagedStreamID: e.slot.ID, SessionID: e.session.ID, EventID: ev.EventID, EventType: ev.EventType,
		Visibility: ev.Visibility, Payload: payload, ReceivedAt: time.Now().UTC(),
	}})
	require.NoError(e.t, err)
	require.NoError(e.t, slotbus.Publish(e.t.Context(), e.br, slotbus.Message{Kind: slotbus.KindEvent, SlotID: e.slot.ID, Event: slotbus.FromStoreEvent(res[0].Event)}))
	return res[0].Event
}

const seedEvent = `{
  "version": 1, "eventId": "28c49b5c-9070-4fd3-b750-b67d84338f64",
  "sessionKey": "openvibe-20260421231000-ab12cd34", "sessionId": "7b3e6b3a-78df-40d7-a53d-9acfa1b2cb30",
  "sequence": 17, "eventType": "file.change", "visibility": "public", "depth": "standard",
  "occurredAt": "2026-04-21T23:10:01.099Z", "summary": "Editing server/vibe-coding/publish-server.js",
  "file": {"name": "publish-server.js", "relativePath": "server/vibe-coding/publish-server.js", "operation": "edit", "changeCount": 3}
}`

func TestViewerGetsWelcomeAndSeedShapedFrames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.dial(viewerclient.Options{Username: "@ada", Slot: "camp-code"})
	w := c.next()
	require.Equal(t, "welcome", w["type"])
	require.EqualValues(t, e.slot.ID, w["managed_stream_id"])
	require.Equal(t, "camp-code", w["slot_slug"])
	require.Nil(t, w["user"])
	require.Equal(t, "chat.history", c.next()["type"])

	e.publish(seedEvent)
	f := c.next()
	require.Equal(t, "vibe-coding", f["type"])
	require.EqualValues(t, e.slot.ID, f["managed_stream_id"])
	require.Equal(t, "camp-code", f["slot_slug"])
	require.EqualValues(t, 0, f["delay_ms"])
	require.EqualValues(t, 1, f["seq"])
	ev := f["event"].(map[string]any)
	require.Equal(t, "28c49b5c-9070-4fd3-b750-b67d84338f64", ev["eventId"])
	require.Equal(t, "file.change", ev["eventType"])
	require.Contains(t, ev["summary"], "publish-server.js")
	file := ev["file"].(map[string]any)
	require.Equal(t, "publish-server.js", file["name"])
	require.Equal(t, "edit", file["operation"])
	require.EqualValues(t, 3, file["changeCount"])
	require.Contains(t, file, "snippet")
}

func TestSlotByIDAndUnknownSlot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.dial(viewerclient.Options{Username: "ADA", Slot: itoa(e.slot.ID)})
	require.Equal(t, "welcome", c.next()["type"])

	for _, o := range []viewerclient.Options{{Username: "ada", Slot: "nope"}, {Username: "nobody", Slot: "camp-code"}} {
		err := e.dial(o).closed(t.Context())
		require.EqualValues(t, 4404, websocket.CloseStatus(err), o)
	}
	o := slot()
	o.Query = url.Values{"since": {"x"}}
	err := e.dial(o).closed(t.Context())
	require.EqualValues(t, 4400, websocket.CloseStatus(err))
}

func TestOriginCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.AllowedOrigins = []string{"*.openvibe.live"} })
	for origin, ok := range map[string]bool{
		"":                          true,
		"https://www.openvibe.live": true,
		"https://evil.example":      false,
		e.http.URL:                  true, // same host
	} {
		hdr := http.Header{}
		if origin != "" {
			hdr.Set("Origin", origin)
		}
		o := slot()
		o.Header = hdr
		conn, err := viewerclient.Dial(t.Context(), e.http.URL, o)
		if ok {
			require.NoError(t, err, origin)
			_ = conn.CloseNow()
			continue
		}
		var refused *viewerclient.DialError
		require.ErrorAs(t, err, &refused, origin)
		require.Equal(t, http.StatusForbidden, refused.Status)
	}
}

func TestChat(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.ChatMaxChars, c.ChatRate, c.ChatBurst = 10, 0.001, 2 })
	anon := e.dial(slot())
	anon.nextOf("chat.history")
	anon.send(map[string]string{"type": "chat.send", "text": "hi"})
	require.Equal(t, errLoginRequired, anon.nextOf("error")["error"])

	bob, err := e.st.CreateUser(t.Context(), "bob", "x")
	require.NoError(t, err)
	mine := slot()
	mine.Header = http.Header{"Authorization": {"Bearer " + e.token(bob)}}
	me := e.dial(mine)
	w := me.next()
	require.Equal(t, map[string]any{"id": float64(bob.ID), "username": "bob"}, w["user"])
	me.nextOf("chat.history")

	me.send(map[string]string{"type": "chat.send", "text": "  hello\nall "})
	for _, c := range []*client{me, anon} {
		m := c.nextOf("chat.message")
		require.Equal(t, "hello all", m["text"])
		require.Equal(t, map[string]any{"id": float64(bob.ID), "username": "bob"}, m["user"])
		require.NotEmpty(t, m["created_at"])
	}
	me.send(map[string]string{"type": "chat.send", "text": "far too long for this"})
	require.Contains(t, me.nextOf("error")["error"], "too long")
	me.send(map[string]string{"type": "chat.send", "text": "two"})
	me.nextOf("chat.message")
	me.send(map[string]string{"type": "chat.send", "text": "three"})
	require.Equal(t, errTooFast, me.nextOf("error")["error"])
	me.send(map[string]string{"type": "nope"})
	require.Equal(t, "unknown message type", me.nextOf("error")["error"])

	late := e.dial(slot())
	late.next()
	h := late.next()
	require.Equal(t, "chat.history", h["type"])
	require.Len(t, h["messages"], 2)
}

func TestShutdownClosesWithGoingAway(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.dial(slot())
	c.nextOf("chat.history")
	read := make(chan error, 1)
	go func() { read <- c.closed(context.Background()) }()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	require.NoError(t, e.srv.Shutdown(ctx))
	require.EqualValues(t, websocket.StatusGoingAway, websocket.CloseStatus(<-read))
	err := e.dial(slot()).closed(t.Context())
	require.EqualValues(t, websocket.StatusGoingAway, websocket.CloseStatus(err), "no new viewers once shutting down")
}

func TestWriteCoalescesQueuedFrames(t *testing.T) {
	t.Parallel()
	frames := [][]byte{[]byte(`{"n":1}`), []byte(`{"n":2}`), []byte(`{"n":3}`), bytes.Repeat([]byte("x"), 1500)}
	for _, tc := range []struct {
		name  string
		batch bool
		want  []int // frames per message
	}{
		{"batched, split at MaxBatchBytes", true, []int{3, 1}},
		{"one frame per message", false, []int{1, 1, 1, 1}},
	} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			conn, err := websocket.Accept(w, r, nil)
			if err != nil {
				return
			}
			cc := &connection{s: &Server{cfg: Config{WriteTimeout: time.Second, MaxBatchBytes: 1024}}, conn: conn, batch: tc.batch, ctx: r.Context()}
			_ = cc.write(frames)
			_ = conn.Close(websocket.StatusNormalClosure, "")
		}))
		// Batch: the client splits every message into its lines, so they can be counted.
		conn, err := viewerclient.Dial(t.Context(), hs.URL, viewerclient.Options{Batch: true})
		require.NoError(t, err)
		var got []int
		for {
			n := 0
			if conn.ReadMessage(t.Context(), func([]byte, time.Time) { n++ }) != nil {
				break
			}
			got = append(got, n)
		}
		require.Equal(t, tc.want, got, tc.name)
		_ = conn.CloseNow()
		hs.Close()
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestDeadPeerIsDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.PingInterval, c.PongTimeout = 100*time.Millisecond, 200*time.Millisecond })
	c := e.dial(slot())
	c.nextOf("chat.history")
	alive := e.dial(slot())
	alive.nextOf("chat.history")
	pongs := make(chan map[string]any, 1)
	go func() { pongs <- alive.nextOf("pong") }() // keeps reading, so it answers pings
	// A client that stops reading never answers pings (coder/websocket answers while reading).
	time.Sleep(time.Second)
	alive.send(map[string]string{"type": "ping"})
	select {
	case <-pongs:
	case <-time.After(5 * time.Second):
		t.Fatal("a live peer must not be dropped")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	err := c.closed(ctx)
	require.NoError(t, ctx.Err(), "the server must close a peer that does not answer pings")
	require.Contains(t, []websocket.StatusCode{closePingTimeout, -1}, websocket.CloseStatus(err))
}
