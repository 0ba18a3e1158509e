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
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/testenv"
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

// wsURL turns the server's http base into a ws URL for path and query.
func (s *secServer) wsURL(path string, q url.Values) string {
	u := "ws" + strings.TrimPrefix(s.base, "http") + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func publishQuery(token string, slotID int64, slug string) url.Values {
	q := url.Values{"managedStreamId": {fmt.Sprint(slotID)}}
	if token != "" {
		q.Set("token", token)
	}
	if slug != "" {
		q.Set("slotSlug", slug)
	}
	return q
}

// socket is a WebSocket client that reads JSON messages.
type socket struct {
	t    *testing.T
	ws   *websocket.Conn
	ctx  context.Context
	stop context.CancelFunc
	// pending are frames of the last message not returned yet.
	pending [][]byte
}

func (s *secServer) dial(rawURL string, header http.Header) *socket {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.t.Context(), 2*time.Minute)
	ws, resp, err := websocket.Dial(ctx, rawURL, &websocket.DialOptions{HTTPHeader: header})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	require.NoError(s.t, err, "dial %s", rawURL)
	ws.SetReadLimit(4 << 20)
	sock := &socket{t: s.t, ws: ws, ctx: ctx, stop: cancel}
	s.t.Cleanup(sock.close)
	return sock
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

// next reads one frame (a chat socket may batch frames into one message, joined by '\n';
// they come out one by one).
func (k *socket) next() (map[string]any, error) {
	if len(k.pending) == 0 {
		_, data, err := k.ws.Read(k.ctx)
		if err != nil {
			return nil, err
		}
		k.pending = bytes.Split(data, []byte("\n"))
	}
	data := k.pending[0]
	k.pending = k.pending[1:]
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
		_, data, err := k.ws.Read(k.ctx)
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
	k := s.dial(s.wsURL("/ws/vibe-coding/publish", publishQuery(token, slotID, slug)), nil)
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
	q := url.Values{}
	if token != "" {
		q.Set("token", token)
	}
	k := s.dial(s.wsURL("/ws/chat/"+url.PathEscape(username)+"/"+url.PathEscape(slot), q), nil)
	return k, k.expect("welcome")
}
