package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/slotbus"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/vibe"
)

// testSecret signs the test server's session tokens.
var testSecret = []byte("0123456789abcdef0123456789abcdef-api-tests")

// clock is a settable clock shared by the service and the authenticator.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is one api server over one store backend.
type env struct {
	t      testing.TB
	url    string
	store  store.Store
	broker broker.Broker
	clock  *clock
	jwt    *auth.JWT
	dbPath string // SQLite file, "" on PostgreSQL
	svc    *api.API
	reg    *prometheus.Registry
}

// envSetup is what an envOption may change before the service starts.
type envSetup struct {
	cfg        *api.Config
	wrapBroker func(broker.Broker) broker.Broker
	wrapStore  func(store.Store) store.Store
}

type envOption func(*envSetup)

func withConfig(f func(*api.Config)) envOption { return func(s *envSetup) { f(s.cfg) } }

// backends runs fn against SQLite always and PostgreSQL when the test environment has it.
func backends(t *testing.T, fn func(t *testing.T, newEnv func(...envOption) *env)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, func(opts ...envOption) *env {
			path := filepath.Join(t.TempDir(), "openvibe.db")
			return newEnv(t, path, path, opts...)
		})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, func(opts ...envOption) *env {
			return newEnv(t, testenv.Postgres(t), "", opts...)
		})
	})
}

func newEnv(t testing.TB, dbURL, dbPath string, opts ...envOption) *env {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	st := openStore(t, dbURL, log)
	t.Cleanup(func() { _ = st.Close() })
	br := openBroker(t, log)
	t.Cleanup(func() { _ = br.Close() })

	clk := &clock{now: time.Date(2026, 4, 21, 23, 10, 0, 0, time.UTC)}
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: testSecret, Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	cfg := api.DefaultConfig()
	cfg.UserWritesPerMinute, cfg.IPWritesPerMinute, cfg.AuthAttemptsPerMinute = 0, 0, 0
	setup := envSetup{cfg: &cfg}
	for _, o := range opts {
		o(&setup)
	}
	var svcBroker broker.Broker = br
	if setup.wrapBroker != nil {
		svcBroker = setup.wrapBroker(br)
	}
	var svcStore store.Store = st
	if setup.wrapStore != nil {
		svcStore = setup.wrapStore(st)
	}
	reg := prometheus.NewRegistry()
	svc, err := api.New(api.Deps{
		Store: svcStore, Broker: svcBroker, Auth: auth.NewAuthenticator(st, jwt, clk.Now), JWT: jwt,
		Logger: log, Registerer: reg, Now: clk.Now, Config: cfg,
	})
	require.NoError(t, err)
	e := platform.NewEcho(log, reg)
	svc.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, store: st, broker: br, clock: clk, jwt: jwt, dbPath: dbPath, svc: svc, reg: reg}
}

// response is a finished HTTP exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.body, v), "body: %s", r.body)
}

func (r response) errorMessage(t testing.TB) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	r.json(t, &e)
	return e.Error
}

// client calls the test server with an optional bearer credential and extra headers.
type client struct {
	e      *env
	bearer string
	header http.Header
}

func (e *env) anon() *client            { return &client{e: e} }
func (e *env) as(bearer string) *client { return &client{e: e, bearer: bearer} }
func (c *client) with(k, v string) *client {
	h := http.Header{}
	for key, vals := range c.header {
		h[key] = vals
	}
	h.Set(k, v)
	return &client{e: c.e, bearer: c.bearer, header: h}
}

func (c *client) do(method, path string, body any) response {
	t := c.e.t
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.e.url+path, rd)
	require.NoError(t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return response{status: res.StatusCode, header: res.Header, body: raw}
}

// expect performs a request, asserts the status and decodes the body into out (if not nil).
func (c *client) expect(method, path string, body any, status int, out any) response {
	t := c.e.t
	t.Helper()
	r := c.do(method, path, body)
	require.Equal(t, status, r.status, "%s %s: %s", method, path, r.body)
	if out != nil {
		r.json(t, out)
	}
	return r
}

type session struct {
	User struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
	} `json:"user"`
	Token string `json:"token"`
}

// register creates an account and returns its session.
func (e *env) register(name string) session {
	e.t.Helper()
	var s session
	e.anon().expect(http.MethodPost, "/api/auth/register", map[string]string{"username": name, "password": "correct horse battery"}, http.StatusCreated, &s)
	return s
}

type slotResp struct {
	ID           int64  `json:"id"`
	Slug         string `json:"slug"`
	Title        string `json:"title"`
	LiveStreamID *int64 `json:"live_stream_id"`
}

func (e *env) createSlot(bearer, slug string) slotResp {
	e.t.Helper()
	var s slotResp
	e.as(bearer).expect(http.MethodPost, "/api/managed-streams", map[string]string{"slug": slug, "title": "Slot " + slug}, http.StatusCreated, &s)
	return s
}

type tokenResp struct {
	ID     int64    `json:"id"`
	Token  string   `json:"token"`
	Hint   string   `json:"hint"`
	Scopes []string `json:"scopes"`
	Status string   `json:"status"`
}

func (e *env) createToken(bearer string, scopes ...string) tokenResp {
	e.t.Helper()
	var tok tokenResp
	e.as(bearer).expect(http.MethodPost, "/api/tokens", map[string]any{"name": "t", "scopes": scopes}, http.StatusCreated, &tok)
	return tok
}

// subscribe listens to a slot's control channel, where the api sends settings, retractions
// and panics.
func (e *env) subscribe(slotID int64) broker.Subscription {
	e.t.Helper()
	sub, err := e.broker.Subscribe(context.Background(), slotbus.ControlChannel(slotID))
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = sub.Close() })
	return sub
}

// nextSlotMessage waits for the next slot message.
func nextSlotMessage(t *testing.T, sub broker.Subscription) slotbus.Message {
	t.Helper()
	select {
	case m, ok := <-sub.Messages():
		require.True(t, ok, "subscription closed")
		require.False(t, m.Gap)
		msg, err := slotbus.Decode(m.Payload)
		require.NoError(t, err)
		return msg
	case <-time.After(5 * time.Second):
		t.Fatal("no slot message within 5s")
	}
	return slotbus.Message{}
}

// seedEvent is one event to store directly, as the gateway would after sanitizing.
type seedEvent struct {
	id         string
	typ        string
	visibility string
	withheld   bool
	payload    map[string]any
	normalized string // the gateway's record of what it normalised, "" for none
}

// storeEvents inserts events into the slot (one session), received at the env's clock.
func (e *env) storeEvents(slotID int64, evs ...seedEvent) []store.VibeEvent {
	e.t.Helper()
	ctx := context.Background()
	sess, err := e.store.UpsertVibeSession(ctx, store.VibeSession{
		ManagedStreamID: slotID, SessionKey: "openvibe-test-session", Status: store.SessionActive,
		Publisher: json.RawMessage(`{"integrationId":"github-copilot","integrationLabel":"GitHub Copilot","vendor":"GitHub","clientType":"vscode-extension","clientName":"OpenVibe.Live Copilot Companion","clientVersion":"0.0.1","workspaceName":"secret-workspace","machineName":"streamer-laptop"}`),
		StartedAt: e.clock.Now(), LastSeenAt: e.clock.Now(),
	})
	require.NoError(e.t, err)
	now := e.clock.Now()
	batch := make([]store.NewVibeEvent, 0, len(evs))
	for _, ev := range evs {
		vis := ev.visibility
		if vis == "" {
			vis = vibe.VisibilityPublic
		}
		p := map[string]any{"version": 1, "eventId": ev.id, "eventType": ev.typ, "visibility": vis, "summary": "summary of " + ev.id, "sessionKey": "openvibe-test-session"}
		for k, v := range ev.payload {
			p[k] = v
		}
		raw, err := json.Marshal(p)
		require.NoError(e.t, err)
		batch = append(batch, store.NewVibeEvent{
			ManagedStreamID: slotID, SessionID: sess.ID, EventID: ev.id, EventType: ev.typ, Visibility: vis,
			Payload: raw, ReceivedAt: now, Withheld: ev.withheld,
		})
		if ev.normalized != "" {
			batch[len(batch)-1].Normalized = json.RawMessage(ev.normalized)
		}
	}
	res, err := e.store.InsertVibeEvents(ctx, batch)
	require.NoError(e.t, err)
	out := make([]store.VibeEvent, 0, len(res))
	for _, r := range res {
		out = append(out, r.Event)
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// chat stores a chat message in the slot, as the chat socket would.
func (e *env) chat(slotID, userID int64, text string) store.ChatMessage {
	e.t.Helper()
	m, err := e.store.InsertChatMessage(context.Background(), store.ChatMessage{
		ManagedStreamID: slotID, UserID: userID, Text: text, CreatedAt: e.clock.Now(),
	})
	require.NoError(e.t, err)
	return m
}
