// Package e2e drives real chat-socket processes over real sockets, with PostgreSQL and Redis,
// publishing events the way the publish gateway does (store, then broker) and changing
// settings, retracting and pressing panic the way the api does.
package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
	"openvibe.live/backend/shared/viewerclient"
)

const jwtSecret = "e2e-secret-e2e-secret-e2e-secret-e2e"

var binary, gatewayBinary string

func TestMain(m *testing.M) {
	os.Exit(testenv.RunWithBinaries(m, map[string]*string{"services/chat-socket": &binary, "services/publish-gateway": &gatewayBinary}))
}

// startChat runs a chat-socket replica and waits until it is ready.
func startChat(t *testing.T, dbURL, redisURL string, extra ...string) *testenv.Process {
	return startBinary(t, "chat-socket", binary, dbURL, redisURL, extra...)
}

// startGateway runs the real publish gateway against the same database and Redis.
func startGateway(t *testing.T, dbURL, redisURL string) *testenv.Process {
	return startBinary(t, "publish-gateway", gatewayBinary, dbURL, redisURL)
}

func startBinary(t *testing.T, name, bin, dbURL, redisURL string, extra ...string) *testenv.Process {
	t.Helper()
	return testenv.StartProcess(t, name, bin, append([]string{
		"PATH=" + os.Getenv("PATH"),
		"OPENVIBE_DATABASE_URL=" + dbURL,
		"OPENVIBE_REDIS_URL=" + redisURL,
		"OPENVIBE_JWT_SECRET=" + jwtSecret,
		"OPENVIBE_LOG_LEVEL=info",
		"OPENVIBE_CHAT_REFRESH_INTERVAL=1s",
		"OPENVIBE_CHAT_ROOM_LINGER=0s",
		"OPENVIBE_SHUTDOWN_TIMEOUT=5s",
	}, extra...))
}

// world is the database and broker the replicas share, with one slot and one publisher
// session, plus the gateway's and the api's side of the work.
type world struct {
	t       *testing.T
	dbURL   string
	st      store.Store
	br      broker.Broker
	user    store.User
	slot    store.ManagedStream
	session store.VibeSession
}

func newWorld(t *testing.T, redisURL string) *world {
	t.Helper()
	ctx := t.Context()
	dbURL := testenv.Postgres(t)
	migrate := exec.Command(binary, "migrate")
	migrate.Env = []string{"OPENVIBE_DATABASE_URL=" + dbURL, "OPENVIBE_JWT_SECRET=" + jwtSecret}
	out, err := migrate.CombinedOutput()
	require.NoError(t, err, string(out))
	st, err := stores.Open(ctx, dbURL, stores.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	br, err := brokers.Open(ctx, redisURL, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = br.Close() })
	u, err := st.CreateUser(ctx, "Ada", "x")
	require.NoError(t, err)
	slot, err := st.CreateManagedStream(ctx, u.ID, "camp-code", "Night Bus Refactor", nil)
	require.NoError(t, err)
	sess, err := st.UpsertVibeSession(ctx, store.VibeSession{
		ManagedStreamID: slot.ID, SessionKey: "openvibe-20260421231000-ab12cd34", Status: store.SessionActive,
		Publisher: json.RawMessage(`{"integrationId":"github-copilot"}`), StartedAt: time.Now(), LastSeenAt: time.Now(),
	})
	require.NoError(t, err)
	return &world{t: t, dbURL: dbURL, st: st, br: br, user: u, slot: slot, session: sess}
}

// settings changes the slot's settings as the api does: store, then broadcast.
func (w *world) settings(change func(*vibe.Settings)) vibe.Settings {
	w.t.Helper()
	var next vibe.Settings
	_, err := w.st.UpdateBroadcastSettings(w.t.Context(), w.slot.ID, store.SettingsOnly(func(cur json.RawMessage) (json.RawMessage, error) {
		next = vibe.SettingsFromBroadcast(cur)
		change(&next)
		return vibe.BroadcastWithSettings(cur, next)
	}))
	require.NoError(w.t, err)
	require.NoError(w.t, slotbus.Publish(w.t.Context(), w.br, slotbus.Message{Kind: slotbus.KindSettings, SlotID: w.slot.ID, Settings: &next}))
	return next
}

// publish stores an event (withheld while the slot is paused, as the gateway does) and
// publishes it; it returns once the event is acked, i.e. stored. A failed broker publish is
// not an error: the event is stored, and chat sockets recover it.
func (w *world) publish(raw string) store.VibeEvent {
	w.t.Helper()
	ev, err := vibe.ParseEvent(json.RawMessage(raw))
	require.NoError(w.t, err)
	if ev.Visibility == "" {
		ev.Visibility = vibe.VisibilityPublic // the gateway's sanitizer defaults it
	}
	return w.publishEvent(ev)
}

func (w *world) publishEvent(ev vibe.Event) store.VibeEvent {
	w.t.Helper()
	ctx := w.t.Context()
	ms, err := w.st.ManagedStreamByID(ctx, w.slot.ID)
	require.NoError(w.t, err)
	payload, err := json.Marshal(ev)
	require.NoError(w.t, err)
	res, err := w.st.InsertVibeEvents(ctx, []store.NewVibeEvent{{
		ManagedStreamID: w.slot.ID, SessionID: w.session.ID, EventID: ev.EventID, EventType: ev.EventType,
		Visibility: ev.Visibility, Payload: payload, ReceivedAt: time.Now().UTC(),
		Withheld: !vibe.SettingsFromBroadcast(ms.BroadcastSettings).Live(),
	}})
	require.NoError(w.t, err)
	_ = slotbus.Publish(ctx, w.br, slotbus.Message{Kind: slotbus.KindEvent, SlotID: w.slot.ID, Event: slotbus.FromStoreEvent(res[0].Event)})
	return res[0].Event
}

// publishBatch stores events in one transaction, then publishes them in order.
func (w *world) publishBatch(evs []vibe.Event) {
	w.t.Helper()
	ctx := w.t.Context()
	batch := make([]store.NewVibeEvent, len(evs))
	for i, ev := range evs {
		payload, err := json.Marshal(ev)
		require.NoError(w.t, err)
		batch[i] = store.NewVibeEvent{
			ManagedStreamID: w.slot.ID, SessionID: w.session.ID, EventID: ev.EventID, EventType: ev.EventType,
			Visibility: ev.Visibility, Payload: payload, ReceivedAt: time.Now().UTC(),
		}
	}
	res, err := w.st.InsertVibeEvents(ctx, batch)
	require.NoError(w.t, err)
	for _, r := range res {
		_ = slotbus.Publish(ctx, w.br, slotbus.Message{Kind: slotbus.KindEvent, SlotID: w.slot.ID, Event: slotbus.FromStoreEvent(r.Event)})
	}
}

var eventCounter struct {
	sync.Mutex
	n int
}

// event builds a canonical event of the given type and visibility.
func event(typ, visibility, summary string) vibe.Event {
	eventCounter.Lock()
	eventCounter.n++
	n := eventCounter.n
	eventCounter.Unlock()
	ev := vibe.Event{
		Version: 1, EventID: fmt.Sprintf("00000000-0000-4000-8000-%012d", n), EventType: typ,
		Visibility: visibility, Summary: summary,
	}
	switch typ {
	case vibe.TypeThinking:
		ev.Thinking = &vibe.TextBody{Text: summary}
	case vibe.TypePrompt:
		ev.Prompt = &vibe.TextBody{Text: summary}
	case vibe.TypeResponse:
		ev.Response = &vibe.ResponseBody{Text: summary}
	}
	return ev
}

// viewer is a test viewer socket, recording every frame.
type viewer struct {
	t   *testing.T
	rec *viewerclient.Recorder
}

// frame is one frame received, decoded.
type frame struct {
	raw  json.RawMessage
	m    map[string]any
	at   time.Time
	Type string
}

func (f frame) seq() int64 {
	n, _ := f.m["seq"].(float64)
	return int64(n)
}

func (f frame) eventField(k string) any {
	ev, _ := f.m["event"].(map[string]any)
	return ev[k]
}

// dialViewer joins the world's slot on p, resuming after since when given.
func dialViewer(t *testing.T, p *testenv.Process, w *world, since ...int64) *viewer {
	t.Helper()
	o := viewerclient.Options{ReadLimit: 1 << 20}
	if len(since) > 0 {
		o.Resume, o.Since = true, since[0]
	}
	return watch(t, p, w, o)
}

// watch joins the world's slot on p with the given options.
func watch(t *testing.T, p *testenv.Process, w *world, o viewerclient.Options) *viewer {
	t.Helper()
	o.Username, o.Slot = w.user.Username, w.slot.Slug
	c, err := viewerclient.Dial(t.Context(), p.Addr, o)
	require.NoError(t, err)
	v := &viewer{t: t, rec: viewerclient.Record(c)}
	t.Cleanup(func() {
		v.rec.Close()
		require.Empty(t, v.rec.Malformed(), "every message is one JSON object")
	})
	return v
}

func decode(t *testing.T, f viewerclient.Frame) frame {
	t.Helper()
	m, err := f.Fields()
	require.NoError(t, err)
	return frame{raw: f.Raw, m: m, at: f.At, Type: f.Type}
}

// next returns the next frame of type typ, skipping others.
func (v *viewer) next(typ string, timeout time.Duration) (frame, bool) {
	v.t.Helper()
	f, err := v.rec.NextOf(timeout, typ)
	if err != nil {
		return frame{}, false
	}
	return decode(v.t, f), true
}

func (v *viewer) must(typ string) frame {
	v.t.Helper()
	f, ok := v.next(typ, 10*time.Second)
	require.True(v.t, ok, "no %s frame", typ)
	return f
}

// none asserts no frame of type typ arrives within d.
func (v *viewer) none(typ string, d time.Duration) {
	v.t.Helper()
	f, ok := v.next(typ, d)
	require.False(v.t, ok, "unexpected %s frame: %s", typ, f.raw)
}
