package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/runner"
	"openvibe.live/backend/services/api/api"
	"openvibe.live/backend/services/chat-socket/chat"
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// access says who may call a route.
type access int

const (
	public  access = iota // anyone, no credential
	anyAuth               // a session or an API token of any scope
	publish               // a session or an API token with vibe_coding_publish
	session               // a password session (JWT) only
)

// target says what a route acts on, which decides how cross-tenant access is tested.
type target int

const (
	caller   target = iota // the caller's own things only (its account, its lists)
	slotID                 // another tenant's slot by id
	tokenID                // another tenant's API token by id
	channel                // a public channel by username and slot
	none                   // pages, static files and probes
	agentAPI               // the agent runner's API (sessions are per user)
)

// routeRule is the security rule for one route the standalone server serves. Every route
// echo has must have one: a new route without a rule fails TestSecurityRoutesCovered.
type routeRule struct {
	access access
	target target
}

var routeRules = map[string]routeRule{
	"GET /healthz": {public, none},
	"GET /readyz":  {public, none},
	"GET /metrics": {public, none},

	"POST /api/auth/register": {public, caller},
	"POST /api/auth/login":    {public, caller},
	"POST /api/auth/logout":   {public, caller},
	"GET /api/me":             {anyAuth, caller},

	"POST /api/tokens":       {session, caller},
	"GET /api/tokens":        {session, caller},
	"DELETE /api/tokens/:id": {session, tokenID},

	"POST /api/managed-streams":            {publish, caller},
	"GET /api/managed-streams":             {anyAuth, caller},
	"GET /api/managed-streams/:id":         {anyAuth, slotID},
	"POST /api/managed-streams/:id/live":   {publish, slotID},
	"DELETE /api/managed-streams/:id/live": {publish, slotID},

	"GET /api/vibe-coding/channel/:username/:slot/events": {public, channel},
	"GET /api/vibe-coding/managed/:id/events":             {anyAuth, slotID},
	"GET /api/vibe-coding/managed/:id/settings":           {anyAuth, slotID},
	"PUT /api/vibe-coding/managed/:id/settings":           {publish, slotID},
	"DELETE /api/vibe-coding/managed/:id/events/:eventId": {publish, slotID},
	"POST /api/vibe-coding/managed/:id/panic":             {publish, slotID},

	// The original platform's flows: its broadcast settings (the slot is in the query or the
	// body) and chat history and socket (public, by live stream).
	"GET /api/streams/broadcast-settings": {anyAuth, caller}, // another's slot reads as empty: testCrossTenantBroadcastSettings
	"PUT /api/streams/broadcast-settings": {publish, slotID},
	"GET /api/chat/:streamId/history":     {public, channel},
	"GET " + chat.OriginalRoute:           {public, channel},

	"GET /":                        {public, none},
	"GET /studio":                  {public, none},
	"GET /static/*":                {public, none},
	"GET /:username/:slot":         {public, channel},
	"GET /:username/:slot/overlay": {public, channel},

	"GET " + gateway.PublishPath: {publish, slotID},
	"GET " + chat.Route:          {public, channel},

	// The agent runner: every route needs a credential (see testAgentRoutesNeedAuth).
	"DELETE /agent/permission/rule/:id":    {anyAuth, agentAPI},
	"DELETE /agent/session/:id":            {anyAuth, agentAPI},
	"DELETE /agent/session/:id/link":       {anyAuth, agentAPI},
	"GET /agent/agent":                     {anyAuth, agentAPI},
	"GET /agent/config":                    {anyAuth, agentAPI},
	"GET /agent/event":                     {anyAuth, agentAPI},
	"GET /agent/link":                      {anyAuth, agentAPI},
	"GET /agent/mcp":                       {anyAuth, agentAPI},
	"GET /agent/permission":                {anyAuth, agentAPI},
	"GET /agent/permission/rule":           {anyAuth, agentAPI},
	"GET /agent/provider":                  {anyAuth, agentAPI},
	"GET /agent/session":                   {anyAuth, agentAPI},
	"GET /agent/session/:id":               {anyAuth, agentAPI},
	"GET /agent/session/:id/event":         {anyAuth, agentAPI},
	"GET /agent/session/:id/link":          {anyAuth, agentAPI},
	"GET /agent/session/:id/message":       {anyAuth, agentAPI},
	"GET /agent/session/:id/permission":    {anyAuth, agentAPI},
	"GET /agent/session/:id/snapshot":      {anyAuth, agentAPI},
	"GET /agent/session/:id/todo":          {anyAuth, agentAPI},
	"GET /agent/tool":                      {anyAuth, agentAPI},
	"PATCH /agent/session/:id":             {anyAuth, agentAPI},
	"POST /agent/permission/reply":         {anyAuth, agentAPI},
	"POST /agent/session":                  {anyAuth, agentAPI},
	"POST /agent/session/:id/abort":        {anyAuth, agentAPI},
	"POST /agent/session/:id/compact":      {anyAuth, agentAPI},
	"POST /agent/session/:id/fork":         {anyAuth, agentAPI},
	"POST /agent/session/:id/message":      {anyAuth, agentAPI},
	"POST /agent/session/:id/revert":       {anyAuth, agentAPI},
	"POST /agent/session/:id/unrevert":     {anyAuth, agentAPI},
	"PUT /agent/session/:id/link":          {anyAuth, agentAPI},
	"DELETE /agent/session/:id/queue/:qid": {anyAuth, agentAPI},
	"GET /agent/model":                     {anyAuth, agentAPI},
	"GET /agent/session/:id/export":        {anyAuth, agentAPI},
	"GET /agent/session/:id/queue":         {anyAuth, agentAPI},
	"GET /agent/usage":                     {anyAuth, agentAPI},
	"POST /agent/session/:id/redo":         {anyAuth, agentAPI},
	"POST /agent/session/:id/undo":         {anyAuth, agentAPI},
	"POST /agent/session/import":           {anyAuth, agentAPI},
}

// composeEcho builds the standalone server's services exactly as app.serve does, on a fresh
// data directory, and mounts them on an echo instance with the platform's middleware (the
// probes, which platform.Serve adds itself, are not on it).
func composeEcho(t *testing.T) *echo.Echo {
	t.Helper()
	cfg := &config{}
	require.NoError(t, platform.LoadConfig(cfg, func(k string) string {
		return map[string]string{"OPENVIBE_DATA_DIR": t.TempDir(), "OPENVIBE_JWT_SECRET": testJWTSecret}[k]
	}))
	require.NoError(t, cfg.resolve())
	log := slog.New(slog.DiscardHandler)
	reg := prometheus.NewRegistry()
	b, err := backends.Open(t.Context(), cfg.Backends, log, reg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Close() })
	san, err := vibe.NewSanitizer()
	require.NoError(t, err)
	gw, err := gateway.New(gateway.Deps{Store: b.Store, Broker: b.Broker, Auth: b.Auth, Sanitizer: san, Logger: log, Registerer: reg, Config: cfg.Gateway})
	require.NoError(t, err)
	ch, err := chat.New(chat.Deps{Store: b.Store, Broker: b.Broker, Auth: b.Auth, Logger: log, Registerer: reg, Config: cfg.Chat})
	require.NoError(t, err)
	ap, err := api.New(api.Deps{Store: b.Store, Broker: b.Broker, Auth: b.Auth, JWT: b.JWT, Logger: log, Registerer: reg, Config: cfg.API})
	require.NoError(t, err)
	bwrap, err := cfg.bwrap()
	require.NoError(t, err)
	ag, err := runner.New(t.Context(), runner.Deps{
		Logger: log, Registerer: reg, Database: cfg.Agent.Database,
		Auth: b.Auth, WorkspaceRoot: cfg.Agent.WorkspaceRoot, PerUserWorkspace: true,
		GlobalConfig: cfg.Agent.ConfigFile, DefaultModel: cfg.Agent.Model, Bwrap: bwrap,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ag.Close() })
	e := platform.NewEcho(log, reg)
	for _, svc := range []platform.Service{gw, ch, ap, ag} {
		svc.Register(e)
	}
	return e
}

// registeredRoutes lists the routes the standalone server mounts, probes included.
func registeredRoutes(t *testing.T) []string {
	t.Helper()
	e := composeEcho(t)
	routes := []string{"GET /healthz", "GET /readyz", "GET /metrics"}
	for _, r := range e.Routes() {
		if r.Method == echo.RouteNotFound {
			continue
		}
		routes = append(routes, r.Method+" "+r.Path)
	}
	sort.Strings(routes)
	return slices.Compact(routes)
}

// Every route the server mounts has a security rule, and every rule names a mounted route:
// a new endpoint cannot ship without its cross-tenant and scope tests.
func TestSecurityRoutesCovered(t *testing.T) {
	routes := registeredRoutes(t)
	var missing []string
	for _, r := range routes {
		if _, ok := routeRules[r]; !ok {
			missing = append(missing, r)
		}
	}
	require.Empty(t, missing, "routes without a security rule in routeRules (add one, and its tests)")
	for r := range routeRules {
		require.Contains(t, routes, r, "routeRules names a route the server no longer mounts")
	}
}

// secrets are the strings of a tenant that must never reach another tenant.
func (tn *tenant) secrets() []string {
	return []string{tn.username, tn.slug, tn.title, tn.eventID, "sess-" + tn.slug, "Secret prompt of " + tn.username}
}

func requireNothingOf(t *testing.T, tn *tenant, body, context string) {
	t.Helper()
	for _, s := range tn.secrets() {
		require.NotContains(t, strings.ToLower(body), strings.ToLower(s), "%s leaks %q of another tenant: %s", context, s, body)
	}
}

// fill puts concrete values into a route template.
func fill(path string, vals map[string]string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") {
			parts[i] = vals[p[1:]]
		}
	}
	return strings.Join(parts, "/")
}

// body returns a valid request body for a write route (nil when it takes none); vals are the
// route's parameters, for a body that names the slot.
func routeBody(key string, vals map[string]string) any {
	switch key {
	case "PUT /api/streams/broadcast-settings":
		return map[string]any{"managed_stream_id": vals["id"], "settings": map[string]any{"bitrate": 2500}}
	case "PUT /api/vibe-coding/managed/:id/settings":
		return map[string]any{"settings": map[string]any{"delay_ms": 0}}
	case "POST /api/tokens":
		return map[string]any{"name": "scope test", "scopes": []string{"read"}}
	case "POST /api/managed-streams":
		return map[string]any{"slug": fmt.Sprintf("scope-%d", nextSlug()), "title": "scope test"}
	}
	return nil
}

var slugCounter atomic.Int64

func nextSlug() int64 { return slugCounter.Add(1) }

func splitKey(key string) (string, string) {
	m, p, _ := strings.Cut(key, " ")
	return m, p
}

// attackerTenants creates a victim A and an attacker B, named after prefix.
func (s *secServer) attackerTenants(t *testing.T, prefix string) (*tenant, *tenant) {
	t.Helper()
	a := s.newTenant(prefix+"alicesecret", "alpha-secret-slot", "Alpha Secret Title "+prefix)
	b := s.newTenant(prefix+"bobbyattacker", "bravo-slot", "Bravo")
	return a, b
}

// User B gets on A's slot, token and event exactly what it gets for things that do not exist
// (404, the same body), on every route that takes an id, with a session and with an API
// token of every scope; and nothing B can list or read about itself mentions A.
func testCrossTenantREST(t *testing.T, s *secServer) {
	a, b := s.attackerTenants(t, "rest")
	creds := map[string]string{"session": b.session}
	for scope, tok := range b.tokens {
		creds[scope] = tok
	}
	for key, rule := range routeRules {
		method, path := splitKey(key)
		if !strings.HasPrefix(path, "/api/") || (rule.target != slotID && rule.target != tokenID) {
			continue
		}
		victim := map[string]string{"id": fmt.Sprint(a.slotID), "eventId": a.eventID}
		ghost := map[string]string{"id": "987654321", "eventId": a.eventID}
		if rule.target == tokenID {
			victim["id"] = fmt.Sprint(a.tokenIDs[store.ScopeRead])
		}
		for name, cred := range creds {
			got := s.request(method, fill(path, victim), cred, routeBody(key, victim), nil)
			want := s.request(method, fill(path, ghost), cred, routeBody(key, ghost), nil)
			if got.status == http.StatusForbidden || got.status == http.StatusUnauthorized {
				// The credential may not call the route at all: the same refusal as anywhere.
				require.Equal(t, want.String(), got.String(), "%s as B (%s)", key, name)
				continue
			}
			require.Equal(t, http.StatusNotFound, got.status, "%s as B (%s): %s", key, name, got)
			require.Equal(t, want.String(), got.String(), "%s as B (%s): A's thing and a missing thing must look the same", key, name)
			requireNothingOf(t, a, string(got.body), key)
		}
	}
	// A's event through B's own slot is not found either.
	r := s.request("DELETE", fmt.Sprintf("/api/vibe-coding/managed/%d/events/%s", b.slotID, a.eventID), b.session, nil, nil)
	require.Equal(t, http.StatusNotFound, r.status, "%s", r)
	requireNothingOf(t, a, string(r.body), "retract A's event via B's slot")
	// Nothing B reads about itself mentions A.
	for _, path := range []string{"/api/me", "/api/tokens", "/api/managed-streams",
		fmt.Sprintf("/api/vibe-coding/managed/%d/events?limit=200", b.slotID), "/metrics"} {
		r := s.must(http.StatusOK, "GET", path, b.session, nil, nil)
		requireNothingOf(t, a, string(r.body), path)
	}
	// A's slot id under B's name is not a channel: REST feed, page and chat socket.
	for _, slot := range []string{fmt.Sprint(a.slotID), a.slug} {
		r := s.request("GET", "/api/vibe-coding/channel/"+b.username+"/"+slot+"/events", "", nil, nil)
		require.Equal(t, http.StatusNotFound, r.status, "%s", r)
		requireNothingOf(t, a, string(r.body), "feed")
		r = s.request("GET", "/"+b.username+"/"+slot, "", nil, nil)
		require.Equal(t, http.StatusNotFound, r.status)
		requireNothingOf(t, a, string(r.body), "viewer page")
		r = s.request("GET", "/"+b.username+"/"+slot+"/overlay", "", nil, nil)
		require.Equal(t, http.StatusNotFound, r.status)
		requireNothingOf(t, a, string(r.body), "overlay page")
	}
	// Sanity: A's own requests do see A's things, so the checks above can fail.
	r = s.must(http.StatusOK, "GET", fmt.Sprintf("/api/managed-streams/%d", a.slotID), a.session, nil, nil)
	require.Contains(t, string(r.body), a.title)
}

// B on A's slot over the publisher socket is refused with 4404 "Managed stream not found",
// exactly as for a slot that does not exist, and the chat socket of A's slot under B's name
// is 4404 too.
func testCrossTenantSockets(t *testing.T, s *secServer) {
	a, b := s.attackerTenants(t, "ws")
	for name, cred := range map[string]string{"session": b.session, "publish token": b.tokens[store.ScopeVibeCodingPublish], "stream token": b.tokens[store.ScopeStream]} {
		for _, slug := range []string{"", a.slug} {
			k := s.publishSocket(cred, a.slotID, slug)
			code, reason, msgs := k.closed()
			require.Equal(t, 4404, int(code), "%s on A's slot", name)
			require.Equal(t, vibe.ReasonSlotNotFound, reason)
			ghost := s.publishSocket(cred, 987654321, slug)
			gcode, greason, gmsgs := ghost.closed()
			require.Equal(t, gcode, code)
			require.Equal(t, greason, reason)
			require.Equal(t, gmsgs, msgs, "A's slot and a missing slot must look the same")
			requireNothingOf(t, a, strings.Join(msgs, "\n"), "publisher refusal")
		}
	}
	for _, slot := range []string{fmt.Sprint(a.slotID), a.slug} {
		k := s.chatSocket(b.username, slot, "")
		code, reason, msgs := k.closed()
		require.Equal(t, 4404, int(code))
		requireNothingOf(t, a, reason+strings.Join(msgs, "\n"), "chat socket refusal")
	}
	// B's own connection cannot publish into A's slot by naming it in the messages.
	p := s.publisher(b.tokens[store.ScopeVibeCodingPublish], b.slotID, "")
	p.hello("b-session")
	env := eventEnvelope("evt-b-into-a", "b-session", map[string]any{"eventType": "prompt", "prompt": map[string]any{"text": "x"}})
	env["managedStreamId"] = a.slotID
	p.send(env)
	e := p.expect("vibe-coding.error")
	require.Equal(t, gateway.TextSlotMismatch, e["error"])
	hist := s.must(http.StatusOK, "GET", fmt.Sprintf("/api/vibe-coding/managed/%d/events?limit=200", a.slotID), a.session, nil, nil)
	require.NotContains(t, string(hist.body), "evt-b-into-a")
}

// B reading A's broadcast settings gets the empty object a missing slot gets, as on the
// original platform; B writing them is refused as for a missing slot, and A's are unchanged.
func testCrossTenantBroadcastSettings(t *testing.T, s *secServer) {
	a, b := s.attackerTenants(t, "bcast")
	s.must(http.StatusOK, "PUT", "/api/streams/broadcast-settings", a.session,
		map[string]any{"managed_stream_id": a.slotID, "settings": map[string]any{"secret": a.title}}, nil)
	for _, cred := range []string{b.session, b.tokens[store.ScopeVibeCodingPublish]} {
		var got, ghost struct {
			Settings map[string]any `json:"settings"`
		}
		s.must(http.StatusOK, "GET", fmt.Sprintf("/api/streams/broadcast-settings?managed_stream_id=%d", a.slotID), cred, nil, &got)
		s.must(http.StatusOK, "GET", "/api/streams/broadcast-settings?managed_stream_id=987654321", cred, nil, &ghost)
		require.Empty(t, got.Settings)
		require.Equal(t, ghost.Settings, got.Settings)
		put := s.request("PUT", "/api/streams/broadcast-settings", cred, map[string]any{"managed_stream_id": a.slotID, "settings": map[string]any{}}, nil)
		putGhost := s.request("PUT", "/api/streams/broadcast-settings", cred, map[string]any{"managed_stream_id": 987654321, "settings": map[string]any{}}, nil)
		require.Equal(t, http.StatusForbidden, put.status, "%s", put)
		require.Equal(t, putGhost.String(), put.String())
		requireNothingOf(t, a, string(put.body), "broadcast settings refusal")
	}
	r := s.must(http.StatusOK, "GET", fmt.Sprintf("/api/streams/broadcast-settings?managed_stream_id=%d", a.slotID), a.session, nil, nil)
	require.Contains(t, string(r.body), a.title, "A's settings are still A's")
}

// scopeCase is one credential and what it may do.
type scopeCase struct {
	name  string
	cred  func(*tenant) string
	allow func(access) bool // false: refused
	// refusal is the status and message when not allowed.
	status int
	msg    func(access) string
}

func scopeCases() []scopeCase {
	authRequired := func(access) string { return "Authentication required" }
	tokenRefusal := func(a access) string {
		if a == session {
			return "API tokens cannot manage API tokens: sign in with your password"
		}
		return vibe.ReasonScopeRequired
	}
	readOnly := func(a access) bool { return a == public || a == anyAuth }
	return []scopeCase{
		{"session", func(tn *tenant) string { return tn.session }, func(access) bool { return true }, 0, nil},
		{"publish token", func(tn *tenant) string { return tn.tokens[store.ScopeVibeCodingPublish] },
			func(a access) bool { return a != session }, http.StatusForbidden, tokenRefusal},
		{"read token", func(tn *tenant) string { return tn.tokens[store.ScopeRead] }, readOnly, http.StatusForbidden, tokenRefusal},
		{"stream token", func(tn *tenant) string { return tn.tokens[store.ScopeStream] }, readOnly, http.StatusForbidden, tokenRefusal},
		{"agent token", func(tn *tenant) string { return tn.tokens[store.ScopeAgent] }, readOnly, http.StatusForbidden, tokenRefusal},
		{"revoked token", func(tn *tenant) string { return tn.revoked }, func(a access) bool { return a == public }, http.StatusUnauthorized, authRequired},
		{"expired token", func(tn *tenant) string { return tn.expired }, func(a access) bool { return a == public }, http.StatusUnauthorized, authRequired},
		{"unknown token", func(*tenant) string { return "hbt_" + strings.Repeat("A", 43) }, func(a access) bool { return a == public }, http.StatusUnauthorized, authRequired},
		{"no credential", func(*tenant) string { return "" }, func(a access) bool { return a == public }, http.StatusUnauthorized, authRequired},
	}
}

// Every REST route, with every kind of credential, on the caller's own things: allowed where
// the scope allows it, refused with the documented status and message otherwise.
func testTokenScopes(t *testing.T, s *secServer) {
	tn := s.newTenant("carolscopes", "carol-slot", "Carol")
	for _, sc := range scopeCases() {
		for key, rule := range routeRules {
			method, path := splitKey(key)
			if !strings.HasPrefix(path, "/api/") || rule.access == public {
				continue
			}
			vals := map[string]string{"id": fmt.Sprint(tn.slotID), "eventId": tn.eventID}
			if rule.target == tokenID {
				var tok struct{ ID int64 }
				s.must(http.StatusCreated, "POST", "/api/tokens", tn.session, routeBody("POST /api/tokens", nil), &tok)
				vals["id"] = fmt.Sprint(tok.ID)
			}
			r := s.request(method, fill(path, vals), sc.cred(tn), routeBody(key, vals), nil)
			if sc.allow(rule.access) {
				require.True(t, r.status >= 200 && r.status < 300, "%s with %s: %s", key, sc.name, r)
			} else {
				require.Equal(t, sc.status, r.status, "%s with %s: %s", key, sc.name, r)
				require.Equal(t, sc.msg(rule.access), r.errorText(t), "%s with %s", key, sc.name)
			}
			if key == "POST /api/vibe-coding/managed/:id/panic" && r.status == http.StatusOK {
				s.must(http.StatusOK, "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", tn.slotID), tn.session,
					map[string]any{"settings": map[string]any{"paused": 0}}, nil)
			}
			if key == "DELETE /api/managed-streams/:id/live" && r.status == http.StatusOK {
				s.must(http.StatusCreated, "POST", fmt.Sprintf("/api/managed-streams/%d/live", tn.slotID), tn.session, nil, nil)
			}
		}
		// The publisher socket: a session or a publish-scoped token (or the legacy stream
		// scope, accepted by default) gets ready; other tokens 4403; bad ones 4401.
		k := s.publishSocket(sc.cred(tn), tn.slotID, tn.slug)
		m, err := k.next()
		require.NoError(t, err, sc.name)
		switch sc.name {
		case "session", "publish token", "stream token":
			require.Equal(t, "vibe-coding.ready", m["type"], "%s: %v", sc.name, m)
		case "read token", "agent token":
			require.Equal(t, vibe.ReasonScopeRequired, m["error"], sc.name)
			code, _, _ := k.closed()
			require.Equal(t, 4403, int(code), sc.name)
		default:
			require.Equal(t, vibe.ReasonAuthRequired, m["error"], sc.name)
			code, _, _ := k.closed()
			require.Equal(t, 4401, int(code), sc.name)
		}
		k.close()
		// The chat socket: anyone may watch, only a session may chat.
		v, w := s.viewer(tn.username, tn.slug, sc.cred(tn))
		v.send(map[string]any{"type": "chat.send", "text": "hello from " + sc.name})
		if sc.name == "session" {
			require.NotNil(t, w["user"])
			msg := v.expect("chat.message")
			require.Equal(t, "hello from session", msg["text"])
		} else {
			require.Nil(t, w["user"], "%s must leave the viewer anonymous", sc.name)
			require.Equal(t, "log in to chat", v.expect("error")["error"], sc.name)
		}
		v.close()
	}
}

// Every agent runner route refuses a request without a credential and one with a forged,
// revoked or expired one (401), before touching any session.
func testAgentRoutesNeedAuth(t *testing.T, s *secServer) {
	tn := s.newTenant("oscaragent", "oscar-slot", "Oscar")
	forged := sign(t, jwt.SigningMethodHS256, claimsFor(tn), []byte("another-secret-of-enough-length-123456"))
	for key, rule := range routeRules {
		if rule.target != agentAPI {
			continue
		}
		method, path := splitKey(key)
		path = fill(path, map[string]string{"id": "1"})
		for name, cred := range map[string]string{"none": "", "forged": forged, "revoked": tn.revoked, "expired": tn.expired} {
			r := s.request(method, path, cred, nil, nil)
			require.Equal(t, http.StatusUnauthorized, r.status, "%s with %s credential: %s", key, name, r)
			requireSecurityHeaders(t, r.header, key)
		}
	}
}
