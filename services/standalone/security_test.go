package main

// The security suite drives the standalone server (publish gateway, chat socket and api on
// one port) over real sockets, as an attacker would: another tenant, a weak or forged
// credential, oversize and malformed input, floods and half-open connections. Each test
// asserts what a user would notice if the rule broke. docs/security.md lists what each test
// proves.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/pubclient"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
	"openvibe.live/backend/shared/viewerclient"
)

// testJWTSecret is the session signing key the suite's servers use, so the tests can forge
// and tamper with tokens.
const testJWTSecret = "security-suite-secret-0123456789abcdef"

// secServer is one running standalone server and a direct handle on its store (for rows the
// API cannot create, such as an already expired token).
type secServer struct {
	t    *testing.T
	base string
	st   store.Store
	jwt  *auth.JWT
}

// generous rate limits for the suites that are not about rate limits.
var generousLimits = map[string]string{
	"OPENVIBE_API_AUTH_ATTEMPTS_PER_MINUTE": "100000", "OPENVIBE_API_AUTH_ATTEMPT_BURST": "100000",
	"OPENVIBE_API_USER_WRITES_PER_MINUTE": "100000", "OPENVIBE_API_USER_WRITE_BURST": "100000",
	"OPENVIBE_API_IP_WRITES_PER_MINUTE": "100000", "OPENVIBE_API_IP_WRITE_BURST": "100000",
	"OPENVIBE_CHAT_RATE": "1000", "OPENVIBE_CHAT_BURST": "1000",
}

// startSecure runs the standalone server with the suite's JWT secret and the given extra
// environment (a PostgreSQL OPENVIBE_DATABASE_URL, rate limits…) until the test ends.
func startSecure(t *testing.T, extra map[string]string) *secServer {
	t.Helper()
	dataDir := t.TempDir()
	env := map[string]string{
		"OPENVIBE_ADDR": "127.0.0.1:0", "OPENVIBE_DATA_DIR": dataDir, "OPENVIBE_LOG_LEVEL": "error",
		"OPENVIBE_JWT_SECRET": testJWTSecret,
	}
	for k, v := range extra {
		env[k] = v
	}
	out := &testenv.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, func(k string) string { return env[k] }, out, io.Discard)
	}()
	var base string
	require.Eventually(t, func() bool {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
			return true
		}
		select {
		case err := <-done:
			require.NoError(t, err, "server exited")
		default:
		}
		return false
	}, 60*time.Second, 20*time.Millisecond, "server did not start: %s", out.String())
	dbURL := env["OPENVIBE_DATABASE_URL"]
	if dbURL == "" {
		dbURL = filepath.Join(dataDir, "openvibe.db")
	}
	st, err := stores.Open(t.Context(), dbURL, stores.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	jwt, err := auth.NewJWT(auth.JWTConfig{Secret: []byte(testJWTSecret), Issuer: "openvibe.live", Audience: "openvibe.live", TTL: time.Hour})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = st.Close()
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Error("server did not stop")
		}
	})
	return &secServer{t: t, base: base, st: st, jwt: jwt}
}

// postgresEnv returns the environment that points a server at a fresh PostgreSQL database,
// skipping (or failing under REQUIRE_SERVICES=1) when none is available.
func postgresEnv(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{"OPENVIBE_DATABASE_URL": testenv.Postgres(t)}
	for k, v := range generousLimits {
		env[k] = v
	}
	return env
}

// response is one HTTP answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// errorText decodes an {"error": "..."} body.
func (r response) errorText(t *testing.T) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal(r.body, &e), "error body is not JSON: %s", r)
	return e.Error
}

// request sends a request; body may be nil, a []byte (sent as is) or a value (as JSON).
func (s *secServer) request(method, path, bearer string, body any, header http.Header) response {
	s.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		r = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		require.NoError(s.t, err)
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(s.t.Context(), method, s.base+path, r)
	require.NoError(s.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := noRedirect.Do(req)
	require.NoError(s.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(s.t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: raw}
}

var noRedirect = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// must asserts the status and decodes the body into out (when not nil).
func (s *secServer) must(want int, method, path, bearer string, body, out any) response {
	s.t.Helper()
	r := s.request(method, path, bearer, body, nil)
	require.Equal(s.t, want, r.status, "%s %s: %s", method, path, r)
	if out != nil {
		require.NoError(s.t, json.Unmarshal(r.body, out), "%s", r)
	}
	return r
}

// tenant is an account with a slot, the tokens of every scope, and one stored event: all
// the things another tenant must never see or touch.
type tenant struct {
	id       int64
	username string
	password string
	session  string // JWT
	slotID   int64
	slug     string
	title    string
	tokens   map[string]string // scope → hbt_ token
	tokenIDs map[string]int64
	eventID  string
	revoked  string // a revoked publish token
	expired  string // an expired publish token
}

// newTenant registers username, creates a slot, goes live, mints one token per scope plus a
// revoked and an expired one, and publishes one event through the gateway.
func (s *secServer) newTenant(username, slug, title string) *tenant {
	s.t.Helper()
	tn := &tenant{username: username, password: "correct horse battery " + username, slug: slug, title: title,
		tokens: map[string]string{}, tokenIDs: map[string]int64{}}
	var reg struct {
		User  struct{ ID int64 } `json:"user"`
		Token string             `json:"token"`
	}
	s.must(http.StatusCreated, "POST", "/api/auth/register", "", map[string]string{"username": username, "password": tn.password}, &reg)
	tn.id, tn.session = reg.User.ID, reg.Token
	var slot struct{ ID int64 }
	s.must(http.StatusCreated, "POST", "/api/managed-streams", tn.session, map[string]string{"slug": slug, "title": title}, &slot)
	tn.slotID = slot.ID
	s.must(http.StatusCreated, "POST", fmt.Sprintf("/api/managed-streams/%d/live", tn.slotID), tn.session, nil, nil)
	for _, scope := range []string{store.ScopeVibeCodingPublish, store.ScopeRead, store.ScopeStream, "agent"} {
		var tok struct {
			ID    int64
			Token string
		}
		s.must(http.StatusCreated, "POST", "/api/tokens", tn.session, map[string]any{"name": username + " " + scope, "scopes": []string{scope}}, &tok)
		tn.tokens[scope], tn.tokenIDs[scope] = tok.Token, tok.ID
	}
	var rev struct {
		ID    int64
		Token string
	}
	s.must(http.StatusCreated, "POST", "/api/tokens", tn.session, map[string]any{"name": "revoked", "scopes": []string{store.ScopeVibeCodingPublish}}, &rev)
	s.must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/tokens/%d", rev.ID), tn.session, nil, nil)
	tn.revoked = rev.Token
	tn.expired = s.expiredToken(tn.id)
	tn.eventID = "evt-" + slug + "-secret"
	pub := s.publisher(tn.tokens[store.ScopeVibeCodingPublish], tn.slotID, "")
	pub.hello("sess-" + slug)
	pub.event(tn.eventID, "sess-"+slug, "Secret prompt of "+username)
	pub.close()
	return tn
}

// expiredToken stores a publish token that expired a minute ago (the API cannot mint one).
func (s *secServer) expiredToken(userID int64) string {
	s.t.Helper()
	tok, hash, hint, err := auth.NewAPIToken()
	require.NoError(s.t, err)
	past := time.Now().Add(-time.Minute)
	_, err = s.st.CreateAPIToken(s.t.Context(), store.APIToken{UserID: userID, Name: "expired", Hash: hash, Hint: hint,
		Scopes: []string{store.ScopeVibeCodingPublish}, ExpiresAt: &past, CreatedAt: past.Add(-time.Hour)})
	require.NoError(s.t, err)
	return tok
}

// socket is a connection to one of the server's WebSockets, through its typed client
// (shared/pubclient or shared/viewerclient), that reads JSON messages.
type socket struct {
	t    *testing.T
	ws   *websocket.Conn
	ctx  context.Context
	stop context.CancelFunc
	// read returns the next message (the publisher socket) or frame (the chat socket).
	read func(context.Context) (json.RawMessage, error)
}

func (s *secServer) socket(ctx context.Context, cancel context.CancelFunc, ws *websocket.Conn, read func(context.Context) (json.RawMessage, error)) *socket {
	sock := &socket{t: s.t, ws: ws, ctx: ctx, stop: cancel, read: read}
	s.t.Cleanup(sock.close)
	return sock
}

// publishSocket opens the publisher socket of a slot with a credential (a token or a
// session, or none).
func (s *secServer) publishSocket(token string, slotID int64, slug string) *socket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.t.Context(), 2*time.Minute)
	c, err := pubclient.Dial(ctx, pubclient.URL(s.base, token, slotID, slug), nil)
	if err != nil {
		cancel()
	}
	require.NoError(s.t, err, "dial the publisher socket")
	return s.socket(ctx, cancel, c.Conn(), func(ctx context.Context) (json.RawMessage, error) {
		m, err := c.Next(ctx)
		return m.Raw, err
	})
}

// chatSocket opens the chat socket of username/slot with an optional credential.
func (s *secServer) chatSocket(username, slot, token string) *socket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.t.Context(), 2*time.Minute)
	c, err := viewerclient.Dial(ctx, s.base, viewerclient.Options{Username: username, Slot: slot, Token: token})
	if err != nil {
		cancel()
	}
	require.NoError(s.t, err, "dial the chat socket")
	return s.socket(ctx, cancel, c.WS(), func(ctx context.Context) (json.RawMessage, error) {
		f, err := c.Next(ctx)
		return f.Raw, err
	})
}

func (k *socket) close() {
	_ = k.ws.CloseNow()
	k.stop()
}

func (k *socket) send(v any) {
	k.t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(k.t, err)
	require.NoError(k.t, k.ws.Write(k.ctx, websocket.MessageText, raw))
}

// next reads one message (on the chat socket, one frame).
func (k *socket) next() (map[string]any, error) {
	data, err := k.read(k.ctx)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decode %q: %w", data, err)
	}
	return m, nil
}

// expect reads until a message of type typ, failing on a read error.
func (k *socket) expect(typ string) map[string]any {
	k.t.Helper()
	for {
		m, err := k.next()
		require.NoError(k.t, err, "waiting for %s", typ)
		if m["type"] == typ {
			return m
		}
	}
}

// closed reads until the socket closes and returns the close status, reason and the raw
// messages read before it.
func (k *socket) closed() (websocket.StatusCode, string, []string) {
	k.t.Helper()
	var msgs []string
	for {
		data, err := k.read(k.ctx)
		if err != nil {
			var ce websocket.CloseError
			require.ErrorAs(k.t, err, &ce, "socket ended without a close frame: %v", err)
			return ce.Code, ce.Reason, msgs
		}
		msgs = append(msgs, string(data))
	}
}

// pub is a publisher connection that has read ready.
type pub struct {
	*socket
	ready map[string]any
}

func (s *secServer) publisher(token string, slotID int64, slug string) *pub {
	s.t.Helper()
	k := s.publishSocket(token, slotID, slug)
	return &pub{socket: k, ready: k.expect("vibe-coding.ready")}
}

func (p *pub) hello(key string) {
	p.t.Helper()
	p.send(map[string]any{"type": "vibe-coding.hello", "protocolVersion": 1, "sessionKey": key,
		"publisher": map[string]any{"integrationId": "security-suite", "clientType": "cli", "clientName": "security suite"}})
	p.expect("vibe-coding.hello.ack")
}

// event publishes a prompt event and returns its ack.
func (p *pub) event(id, key, text string) map[string]any {
	p.t.Helper()
	p.send(eventEnvelope(id, key, map[string]any{"eventType": "prompt", "summary": text, "prompt": map[string]any{"text": text}}))
	m := p.expect("vibe-coding.ack")
	require.Equal(p.t, id, m["event_id"])
	return m
}

func (p *pub) close() { p.socket.close() }

func eventEnvelope(id, key string, fields map[string]any) map[string]any {
	ev := map[string]any{"version": 1, "eventId": id, "sessionKey": key, "visibility": "public",
		"occurredAt": time.Now().UTC().Format(time.RFC3339Nano)}
	for k, v := range fields {
		ev[k] = v
	}
	return map[string]any{"type": "vibe-coding.event", "protocolVersion": 1, "sessionKey": key, "event": ev}
}

// viewer opens the chat socket of username/slot with an optional credential and reads the
// welcome frame.
func (s *secServer) viewer(username, slot, token string) (*socket, map[string]any) {
	s.t.Helper()
	k := s.chatSocket(username, slot, token)
	return k, k.expect("welcome")
}
