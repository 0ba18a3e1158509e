package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// A publisher frame over 256 KiB closes the socket with 1009 and a reason naming the limit;
// a viewer frame over the chat socket's limit closes with 1009 too. Nothing of the oversize
// message is stored, and the server keeps serving.
func testOversizeFrames(t *testing.T, s *secServer) {
	tn := s.newTenant("frankframes", "frank-slot", "Frank")
	p := s.publisher(tn.tokens[store.ScopeVibeCodingPublish], tn.slotID, "")
	p.hello("frank-session")
	big := strings.Repeat("x", 256<<10)
	p.send(eventEnvelope("evt-too-big", "frank-session", map[string]any{"eventType": "prompt", "prompt": map[string]any{"text": big}}))
	code, reason, _ := p.closed()
	require.Equal(t, websocket.StatusMessageTooBig, code)
	require.Equal(t, "Message too large (limit 262144 bytes)", reason)

	// Just under the limit is a message like any other (the sanitizer and caps shorten it).
	p = s.publisher(tn.tokens[store.ScopeVibeCodingPublish], tn.slotID, "")
	p.hello("frank-session")
	p.send(eventEnvelope("evt-just-fits", "frank-session", map[string]any{"eventType": "prompt", "prompt": map[string]any{"text": big[:200<<10]}}))
	require.Equal(t, "evt-just-fits", p.expect("vibe-coding.ack")["event_id"])

	v, _ := s.viewer(tn.username, tn.slug, tn.session)
	require.NoError(t, v.ws.Write(v.ctx, websocket.MessageText, fmt.Appendf(nil, `{"type":"chat.send","text":%q}`, strings.Repeat("y", 9<<10))))
	code, _, _ = v.closed()
	require.Equal(t, websocket.StatusMessageTooBig, code)

	hist := s.must(http.StatusOK, "GET", fmt.Sprintf("/api/vibe-coding/managed/%d/events?limit=200", tn.slotID), tn.session, nil, nil)
	require.NotContains(t, string(hist.body), "evt-too-big")
	require.Contains(t, string(hist.body), "evt-just-fits")
}

// An HTTP body over the limit is refused with 413 and a JSON error, whether its length is
// declared or it is streamed without one, and nothing of it is applied.
func testOversizeBodies(t *testing.T, s *secServer) {
	tn := s.newTenant("gracebodies", "grace-slot", "Grace")
	settings := fmt.Sprintf("/api/vibe-coding/managed/%d/settings", tn.slotID)
	send := func(method, path string, size int, chunked bool) (int, http.Header, string) {
		big := append(append([]byte(`{"settings":{"widget_title":"`), bytes.Repeat([]byte("z"), size)...), `"}}`...)
		var body io.Reader = bytes.NewReader(big)
		if chunked {
			body = io.MultiReader(body) // hides the length: sent chunked
		}
		req, err := http.NewRequestWithContext(t.Context(), method, s.base+path, body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tn.session)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(raw)
	}
	for _, c := range []struct{ method, path string }{{"POST", "/api/auth/register"}, {"PUT", settings}} {
		// Over the server's 1 MiB limit, declared: refused before the handler runs.
		status, h, body := send(c.method, c.path, 1<<20, false)
		require.Equal(t, http.StatusRequestEntityTooLarge, status, "%s: %s", c.path, body)
		require.JSONEq(t, `{"error":"request body too large"}`, body)
		requireSecurityHeaders(t, h, c.path+" 413")
	}
	var got struct{ Settings vibe.Settings }
	s.must(http.StatusOK, "GET", settings, tn.session, nil, &got)
	require.Equal(t, vibe.DefaultSettings().WidgetTitle, got.Settings.WidgetTitle)

	t.Run("streamed or over the api's own limit", func(t *testing.T) {
		for _, c := range []struct {
			path    string
			size    int
			chunked bool
		}{{settings, 1 << 20, true}, {settings, 100 << 10, false}, {"/api/auth/register", 1 << 20, true}} {
			method := "PUT"
			if c.path == "/api/auth/register" {
				method = "POST"
			}
			status, _, body := send(method, c.path, c.size, c.chunked)
			require.Equal(t, http.StatusRequestEntityTooLarge, status, "%s %d bytes chunked=%v: %s", c.path, c.size, c.chunked, body)
			require.Contains(t, body, `"error"`)
		}
	})
}

// halfOpenUpgrade opens a TCP connection and sends a WebSocket upgrade request's headers one
// byte at a time, never finishing them, until stop is closed or the server hangs up. It
// returns when the server closes the connection (closedAt is then set).
func halfOpenUpgrade(addr, path string, interval time.Duration, stop <-chan struct{}) (closedAt time.Time, err error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return time.Time{}, err
	}
	defer c.Close()
	req := "GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Padding: " + strings.Repeat("a", 4096)
	gone := make(chan struct{})
	go func() { // the server hanging up shows as a read error
		_, _ = c.Read(make([]byte, 1))
		close(gone)
	}()
	t := time.NewTicker(interval)
	defer t.Stop()
	for i := 0; ; i = (i + 1) % len(req) {
		select {
		case <-stop:
			return time.Time{}, nil
		case <-gone:
			return time.Now(), nil
		case <-t.C:
			if _, err := c.Write([]byte{req[i]}); err != nil {
				return time.Now(), nil
			}
		}
	}
}

// Hundreds of WebSocket upgrade requests that send their headers a byte at a time do not
// stop a normal publisher from connecting and getting acks, nor a viewer from receiving;
// and the server hangs up on a request whose headers never end (ReadHeaderTimeout).
func testSlowloris(t *testing.T, s *secServer) {
	tn := s.newTenant("hankslow", "hank-slot", "Hank")
	addr := strings.TrimPrefix(s.base, "http://")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	const slow = 300
	for i := range slow {
		path := gateway.PublishPath + "?managedStreamId=" + strconv.FormatInt(tn.slotID, 10)
		if i%2 == 1 {
			path = "/ws/chat/" + tn.username + "/" + tn.slug
		}
		wg.Go(func() { _, _ = halfOpenUpgrade(addr, path, 200*time.Millisecond, stop) })
	}
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(time.Second) // every slow connection is open and trickling

	v, _ := s.viewer(tn.username, tn.slug, "")
	start := time.Now()
	p := s.publisher(tn.tokens[store.ScopeVibeCodingPublish], tn.slotID, tn.slug)
	p.hello("hank-session")
	for i := range 5 {
		p.event(fmt.Sprintf("evt-hank-%d", i), "hank-session", "during the slow upgrades")
	}
	for i := range 5 {
		f := v.expect("vibe-coding")
		require.Equal(t, fmt.Sprintf("evt-hank-%d", i), f["event"].(map[string]any)["eventId"])
	}
	require.Less(t, time.Since(start), 5*time.Second, "publishing and delivery were slowed down by half-open upgrades")
	s.must(http.StatusOK, "GET", "/healthz", "", nil, nil)

	// A request whose headers never end is cut by the server's ReadHeaderTimeout (10 s).
	began := time.Now()
	never := make(chan struct{})
	closedAt, err := halfOpenUpgrade(addr, gateway.PublishPath, 500*time.Millisecond, never)
	require.NoError(t, err)
	require.False(t, closedAt.IsZero())
	require.Less(t, closedAt.Sub(began), 15*time.Second, "the server kept a half-open upgrade for too long")
}

// floodLimits are the flood suite's rate limits: small enough to reach quickly.
var floodLimits = map[string]string{
	"OPENVIBE_API_AUTH_ATTEMPTS_PER_MINUTE": "1", "OPENVIBE_API_AUTH_ATTEMPT_BURST": "6",
	"OPENVIBE_API_USER_WRITES_PER_MINUTE": "60", "OPENVIBE_API_USER_WRITE_BURST": "20",
	"OPENVIBE_API_IP_WRITES_PER_MINUTE": "6000", "OPENVIBE_API_IP_WRITE_BURST": "1000",
	"OPENVIBE_GATEWAY_CONN_RATE": "5", "OPENVIBE_GATEWAY_CONN_BURST": "20",
	"OPENVIBE_CHAT_RATE": "1", "OPENVIBE_CHAT_BURST": "3",
}

// Floods beyond each rate limit are refused (429 with Retry-After, 4429, a chat error)
// while another user's requests, another publisher and an already connected viewer carry
// on as normal.
func TestSecurityFloods(t *testing.T) {
	t.Parallel()
	s := startSecure(t, floodLimits)
	a := s.newTenant("floodera", "flood-a", "Flood A")
	b := s.newTenant("calmb", "calm-b", "Calm B")
	viewerB, _ := s.viewer(b.username, b.slug, "")
	pubB := s.publisher(b.tokens[store.ScopeVibeCodingPublish], b.slotID, "")
	pubB.hello("calm-session")
	// bind points the long-lived sockets' assertions at the running subtest.
	bind := func(t *testing.T) { viewerB.t, pubB.t = t, t }

	t.Run("api writes", func(t *testing.T) {
		bind(t)
		path := fmt.Sprintf("/api/vibe-coding/managed/%d/settings", a.slotID)
		var limited response
		for range 40 {
			r := s.request("PUT", path, a.session, map[string]any{"settings": map[string]any{"delay_ms": 0}}, nil)
			if r.status == http.StatusTooManyRequests {
				limited = r
				break
			}
			require.Equal(t, http.StatusOK, r.status, "%s", r)
		}
		require.Equal(t, http.StatusTooManyRequests, limited.status, "40 writes in a burst of 20 were all accepted")
		require.Equal(t, "Rate limit exceeded", limited.errorText(t))
		secs, err := strconv.Atoi(limited.header.Get("Retry-After"))
		require.NoError(t, err, "Retry-After %q", limited.header.Get("Retry-After"))
		require.GreaterOrEqual(t, secs, 1)
		// B is not limited by A's flood, and reads are never limited.
		s.must(http.StatusOK, "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", b.slotID), b.session,
			map[string]any{"settings": map[string]any{"widget_title": "Still fine"}}, nil)
		s.must(http.StatusOK, "GET", path, a.session, nil, nil)
		require.Equal(t, "Still fine", viewerB.expect("vibe-coding.settings")["settings"].(map[string]any)["widget_title"])
	})

	t.Run("login attempts", func(t *testing.T) {
		bind(t)
		var last response
		for range 30 {
			last = s.request("POST", "/api/auth/login", "", map[string]string{"username": a.username, "password": "wrong password"}, nil)
			if last.status == http.StatusTooManyRequests {
				break
			}
			require.Equal(t, http.StatusUnauthorized, last.status, "%s", last)
		}
		require.Equal(t, http.StatusTooManyRequests, last.status)
		require.NotEmpty(t, last.header.Get("Retry-After"))
	})

	t.Run("publisher", func(t *testing.T) {
		bind(t)
		p := s.publisher(a.tokens[store.ScopeVibeCodingPublish], a.slotID, "")
		p.hello("flood-session")
		var sendErr error
		for i := range 200 {
			raw := fmt.Appendf(nil, `{"type":"vibe-coding.ping","n":%d}`, i)
			if sendErr = p.ws.Write(p.ctx, websocket.MessageText, raw); sendErr != nil {
				break
			}
		}
		code, reason, _ := p.closed()
		require.Equal(t, vibe.CloseRateLimited, int(code), "send error: %v", sendErr)
		require.Equal(t, vibe.ReasonRateLimited, reason)
		// B's publisher and B's viewer did not notice.
		start := time.Now()
		pubB.event("evt-calm-1", "calm-session", "calm")
		f := viewerB.expect("vibe-coding")
		require.Equal(t, "evt-calm-1", f["event"].(map[string]any)["eventId"])
		require.Less(t, time.Since(start), 3*time.Second)
	})

	t.Run("chat", func(t *testing.T) {
		bind(t)
		va, _ := s.viewer(b.username, b.slug, a.session)
		var tooFast bool
		for i := range 20 {
			va.send(map[string]any{"type": "chat.send", "text": fmt.Sprintf("spam %d", i)})
		}
		for !tooFast {
			m := va.expect("error")
			tooFast = m["error"] == "you are sending messages too fast"
		}
		// B still chats, and B's viewer gets B's message.
		vb, _ := s.viewer(b.username, b.slug, b.session)
		vb.send(map[string]any{"type": "chat.send", "text": "calm message"})
		for {
			m := viewerB.expect("chat.message")
			if m["text"] == "calm message" {
				break
			}
		}
	})
}
