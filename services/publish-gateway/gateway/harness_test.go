package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// pgx and go-redis keep background goroutines in their pools until Close returns.
		goleak.IgnoreTopFunction("github.com/jackc/pgx/v5/pgxpool.(*Pool).backgroundHealthCheck"),
		goleak.IgnoreTopFunction("database/sql.(*DB).connectionOpener"),
	)
}

var (
	sanitizerOnce sync.Once
	sanitizer     *vibe.Sanitizer
	sanitizerErr  error
)

// sharedSanitizer builds the (expensive) sanitizer once for the whole test binary.
func sharedSanitizer(t testing.TB) *vibe.Sanitizer {
	sanitizerOnce.Do(func() { sanitizer, sanitizerErr = vibe.NewSanitizer() })
	require.NoError(t, sanitizerErr)
	return sanitizer
}

// faultyStore wraps a real store and fails on demand: the whole store (an outage), or any
// batch holding a poisoned event id (a row the database rejects).
type faultyStore struct {
	store.Store
	down   atomic.Bool
	poison atomic.Value // string
	calls  atomic.Int64
}

var errInjected = errors.New("injected store failure")

func (f *faultyStore) InsertVibeEvents(ctx context.Context, evs []store.NewVibeEvent) ([]store.InsertedVibeEvent, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return nil, errInjected
	}
	for _, ev := range evs {
		if ev.EventID == "ev-panic" {
			panic("injected store panic")
		}
	}
	if p, _ := f.poison.Load().(string); p != "" {
		for _, ev := range evs {
			if ev.EventID == p {
				return nil, fmt.Errorf("%w: poisoned event %s", errInjected, p)
			}
		}
	}
	return f.Store.InsertVibeEvents(ctx, evs)
}

func (f *faultyStore) Ping(ctx context.Context) error {
	if f.down.Load() {
		return errInjected
	}
	return f.Store.Ping(ctx)
}

func (f *faultyStore) APITokenByHash(ctx context.Context, hash []byte) (store.APIToken, error) {
	if f.down.Load() {
		return store.APIToken{}, errInjected
	}
	return f.Store.APITokenByHash(ctx, hash)
}

func (f *faultyStore) UpsertVibeSession(ctx context.Context, s store.VibeSession) (store.VibeSession, error) {
	if f.down.Load() {
		return store.VibeSession{}, errInjected
	}
	return f.Store.UpsertVibeSession(ctx, s)
}

// faultyBroker wraps a real broker whose publishes can be made to fail (a dead broker), and
// records the channels subscribed to.
type faultyBroker struct {
	broker.Broker
	dead atomic.Bool

	mu         sync.Mutex
	subscribed []string
}

func (f *faultyBroker) Subscribe(ctx context.Context, channel string) (broker.Subscription, error) {
	f.mu.Lock()
	f.subscribed = append(f.subscribed, channel)
	f.mu.Unlock()
	return f.Broker.Subscribe(ctx, channel)
}

func (f *faultyBroker) channels() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.subscribed...)
}

func (f *faultyBroker) Publish(ctx context.Context, channel string, payload []byte) error {
	if f.dead.Load() {
		return errors.New("injected broker failure: connection refused")
	}
	return f.Broker.Publish(ctx, channel, payload)
}

type harness struct {
	t      testing.TB
	st     *faultyStore
	br     *faultyBroker
	jwt    *auth.JWT
	gw     *Gateway
	reg    *prometheus.Registry
	srv    *httptest.Server
	cfg    Config
	stop   func()
	closed atomic.Bool
}

type harnessOpt func(*harnessOptions)

type harnessOptions struct {
	cfg      Config
	postgres bool
}

func withConfig(f func(*Config)) harnessOpt { return func(o *harnessOptions) { f(&o.cfg) } }
func onPostgres() harnessOpt                { return func(o *harnessOptions) { o.postgres = true } }

// eachStore runs fn against SQLite and PostgreSQL (skipped, or failed under
// REQUIRE_SERVICES=1, when no PostgreSQL is available).
func eachStore(t *testing.T, fn func(t *testing.T, backend harnessOpt)) {
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, func(*harnessOptions) {}) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, onPostgres()) })
}

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.ConnRate, cfg.ConnBurst = 10000, 10000
	cfg.SlotRate, cfg.SlotBurst = 10000, 10000
	cfg.StoreTimeout = 3 * time.Second
	return cfg
}

func openTestStore(t testing.TB, postgres bool, cfg Config) store.Store {
	t.Helper()
	url := filepath.Join(t.TempDir(), "gateway.db")
	if postgres {
		url = DatabaseURL(testenv.Postgres(t), cfg)
	}
	st, err := stores.Open(t.Context(), url, stores.Options{Migrate: true, Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	return st
}

func newHarness(t testing.TB, opts ...harnessOpt) *harness {
	t.Helper()
	o := harnessOptions{cfg: testConfig()}
	for _, f := range opts {
		f(&o)
	}
	st := &faultyStore{Store: openTestStore(t, o.postgres, o.cfg)}
	mem := memory.New(memory.Options{})
	br := &faultyBroker{Broker: mem}
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte("0123456789abcdef0123456789abcdef"), Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	reg := prometheus.NewRegistry()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	gw, err := New(Deps{
		Store: st, Broker: br, Auth: auth.NewAuthenticator(st, jwt, nil), Sanitizer: sharedSanitizer(t),
		Logger: log, Registerer: reg, Config: o.cfg,
	})
	require.NoError(t, err)
	e := echo.New()
	gw.Register(e)
	srv := httptest.NewServer(e)
	runCtx, cancel := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- gw.Run(runCtx) }()
	h := &harness{t: t, st: st, br: br, jwt: jwt, gw: gw, reg: reg, srv: srv, cfg: o.cfg}
	h.stop = func() {
		if !h.closed.CompareAndSwap(false, true) {
			return
		}
		ctx, c := context.WithTimeout(context.Background(), 10*time.Second)
		defer c()
		require.NoError(t, gw.Shutdown(ctx))
		srv.Close()
		cancel()
		require.NoError(t, <-runDone)
	}
	t.Cleanup(func() { // runs after h.stop: cleanups run last-in first-out
		require.NoError(t, mem.Close())
		require.NoError(t, st.Store.Close())
	})
	t.Cleanup(h.stop)
	return h
}

// user creates a user and an API token with the given scopes.
func (h *harness) user(name string, scopes ...string) (store.User, string) {
	h.t.Helper()
	ctx := h.t.Context()
	u, err := h.st.CreateUser(ctx, name, "x")
	require.NoError(h.t, err)
	return u, h.token(u, scopes...)
}

func (h *harness) token(u store.User, scopes ...string) string {
	tok, _ := h.apiToken(u, nil, scopes...)
	return tok
}

// apiToken creates a token; mod may adjust the row (an expiry) before it is stored.
func (h *harness) apiToken(u store.User, mod func(*store.APIToken), scopes ...string) (string, store.APIToken) {
	h.t.Helper()
	tok, hash, hint, err := auth.NewAPIToken()
	require.NoError(h.t, err)
	row := store.APIToken{UserID: u.ID, Name: "test", Hash: hash, Hint: hint, Scopes: scopes}
	if mod != nil {
		mod(&row)
	}
	row, err = h.st.CreateAPIToken(h.t.Context(), row)
	require.NoError(h.t, err)
	return tok, row
}

func (h *harness) session(u store.User) string {
	h.t.Helper()
	tok, _, err := h.jwt.Issue(u.ID, u.Username, time.Now())
	require.NoError(h.t, err)
	return tok
}

// slot creates a slot with the given settings patch (nil: defaults) and optionally makes it live.
func (h *harness) slot(u store.User, slug string, live bool, patch string) store.ManagedStream {
	h.t.Helper()
	ctx := h.t.Context()
	s := vibe.DefaultSettings()
	if patch != "" {
		var err error
		s, err = vibe.ApplySettingsPatch(s, json.RawMessage(patch))
		require.NoError(h.t, err)
	}
	bs, err := vibe.BroadcastWithSettings(json.RawMessage(`{}`), s)
	require.NoError(h.t, err)
	ms, err := h.st.CreateManagedStream(ctx, u.ID, slug, "Night Bus Refactor", bs)
	require.NoError(h.t, err)
	if live {
		ls, _, err := h.st.StartLiveStream(ctx, ms.ID, time.Now())
		require.NoError(h.t, err)
		ms.LiveStreamID = &ls.ID
	}
	return ms
}

func (h *harness) url(token string, slotID int64, slug string) string {
	return pubclient.URL(h.srv.URL, token, slotID, slug)
}

func (h *harness) dial(token string, slotID int64, slug string) *pubclient.Client {
	h.t.Helper()
	c, err := pubclient.Dial(h.t.Context(), h.url(token, slotID, slug), nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = c.CloseNow() })
	return c
}

// connect dials, reads ready and establishes a session.
// liveSlot creates alice, a token of hers with the publish scope, and her live slot
// camp-code: what most tests publish into.
func (h *harness) liveSlot() (store.User, string, store.ManagedStream) {
	h.t.Helper()
	alice, tok := h.user("alice", store.ScopeVibeCodingPublish)
	return alice, tok, h.slot(alice, "camp-code", true, "")
}

func (h *harness) connect(token string, ms store.ManagedStream, key string) *pubclient.Client {
	h.t.Helper()
	c := h.dial(token, ms.ID, ms.Slug)
	ctx := h.ctx()
	_, err := c.Ready(ctx)
	require.NoError(h.t, err)
	_, err = c.Hello(ctx, helloMsg(key))
	require.NoError(h.t, err)
	return c
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(h.t.Context(), 30*time.Second)
	h.t.Cleanup(cancel)
	return ctx
}

func (h *harness) counter(c prometheus.Collector) float64 { return testutil.ToFloat64(c) }

// subscribe collects the slot's stored-event broadcasts.
func (h *harness) subscribe(slotID int64) *collector {
	h.t.Helper()
	sub, err := h.br.Broker.Subscribe(h.t.Context(), slotbus.Channel(slotID))
	require.NoError(h.t, err)
	c := &collector{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for m := range sub.Messages() {
			if m.Gap {
				continue
			}
			msg, err := slotbus.Decode(m.Payload)
			if err == nil && msg.Kind == slotbus.KindEvent {
				c.mu.Lock()
				c.events = append(c.events, *msg.Event)
				c.mu.Unlock()
			}
		}
	}()
	h.t.Cleanup(func() { _ = sub.Close(); <-c.done })
	return c
}

type collector struct {
	mu     sync.Mutex
	events []slotbus.Event
	done   chan struct{}
}

func (c *collector) snapshot() []slotbus.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]slotbus.Event(nil), c.events...)
}

func helloMsg(key string) vibe.Hello {
	return vibe.Hello{
		Type: vibe.MsgHello, ProtocolVersion: 1, SessionKey: key, Timestamp: "2026-04-21T23:10:00.000Z",
		Publisher: json.RawMessage(`{"integrationId":"github-copilot","integrationLabel":"GitHub Copilot","vendor":"GitHub",
			"clientType":"vscode-extension","clientName":"OpenVibe.Live Copilot Companion","clientVersion":"0.0.1",
			"workspaceName":"openvibe","machineName":"streamer-laptop","viewerDepth":"standard",
			"capabilities":{"thinking":false,"toolCalls":true,"workspaceFileEvents":true}}`),
	}
}

// eventMsg builds a vibe-coding.event envelope around a response event.
func eventMsg(key, eventID, eventType string, extra map[string]any) map[string]any {
	ev := map[string]any{
		"version": 1, "eventId": eventID, "sessionKey": key, "eventType": eventType,
		"visibility": "public", "occurredAt": "2026-04-21T23:10:01.099Z",
		"summary": "Refactored the publish server to sanitize Copilot events before viewer fanout.",
	}
	switch eventType {
	case vibe.TypeResponse:
		ev["response"] = map[string]any{"text": "Refactored the publish server.", "truncated": false}
	case vibe.TypePrompt:
		ev["prompt"] = map[string]any{"text": "Refactor the publish server."}
	case vibe.TypeThinking:
		ev["thinking"] = map[string]any{"text": "Considering the options."}
	}
	for k, v := range extra {
		ev[k] = v
	}
	return map[string]any{"type": vibe.MsgEvent, "protocolVersion": 1, "sessionKey": key, "event": ev}
}

// sendEvent sends one response event and returns the answer (ack or error).
// numbered is the id of the i-th of a run of test events: ev-00, ev-01, …
func numbered(i int) string { return fmt.Sprintf("ev-%02d", i) }

// sendNumbered writes n response events, numbered from 0, without reading the answers.
func sendNumbered(t *testing.T, ctx context.Context, c *pubclient.Client, key string, n int) {
	t.Helper()
	for i := range n {
		require.NoError(t, c.Send(ctx, eventMsg(key, numbered(i), vibe.TypeResponse, nil)))
	}
}

func sendEvent(t *testing.T, ctx context.Context, c *pubclient.Client, key, id string) pubclient.Message {
	t.Helper()
	require.NoError(t, c.Send(ctx, eventMsg(key, id, vibe.TypeResponse, nil)))
	m, err := c.Next(ctx)
	require.NoError(t, err)
	return m
}

func ack(t *testing.T, m pubclient.Message) vibe.Ack {
	t.Helper()
	require.Equal(t, vibe.MsgAck, m.Type, "%s", m.Raw)
	var a vibe.Ack
	require.NoError(t, m.Decode(&a))
	return a
}

func protoError(t *testing.T, m pubclient.Message) vibe.Error {
	t.Helper()
	require.Equal(t, vibe.MsgError, m.Type, "%s", m.Raw)
	var e vibe.Error
	require.NoError(t, m.Decode(&e))
	return e
}

var _ = http.StatusOK
