package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/testenv/browser"
)

// Hostile text planted in every text field. Each HTML payload would set window.__pwned or
// the document title if a page ever inserted it as HTML.
const (
	sqlPayload  = `x'); DROP TABLE users; -- " OR 1=1 --`
	imgPayload  = `<img src=x onerror="window.__pwned='img';document.title=String.fromCharCode(88,83,83)">`
	scrPayload  = `<script>window.__pwned='script';document.title=String.fromCharCode(88,83,83)</script>`
	svgPayload  = `<svg onload="window.__pwned='svg'"></svg>`
	attrPayload = `"><b onmouseover="window.__pwned='attr'">x</b>`
)

var htmlPayloads = []string{imgPayload, scrPayload, svgPayload, attrPayload}

// Usernames and slugs are validated: SQL and HTML are refused with a 400, not stored.
func testInjectionValidated(t *testing.T, s *secServer) {
	tn := s.newTenant("ivyvalid", "ivy-slot", "Ivy")
	for _, p := range append([]string{sqlPayload, "ivy'--", "ivy;drop"}, htmlPayloads...) {
		r := s.request("POST", "/api/auth/register", "", map[string]string{"username": p, "password": "correct horse battery"}, nil)
		require.Equal(t, http.StatusBadRequest, r.status, "username %q: %s", p, r)
		r = s.request("POST", "/api/managed-streams", tn.session, map[string]string{"slug": p, "title": "t"}, nil)
		require.Equal(t, http.StatusBadRequest, r.status, "slug %q: %s", p, r)
		// Login with a hostile username is a plain failure, not an error of the database.
		r = s.request("POST", "/api/auth/login", "", map[string]string{"username": p, "password": "correct horse battery"}, nil)
		require.Equal(t, http.StatusUnauthorized, r.status, "login %q: %s", p, r)
		// Hostile path segments are a 404, never a 500.
		for _, path := range []string{"/api/vibe-coding/channel/" + urlEscape(p) + "/x/events", "/" + urlEscape(p) + "/x"} {
			r = s.request("GET", path, "", nil, nil)
			require.Equal(t, http.StatusNotFound, r.status, "%s: %s", path, r)
		}
	}
	// The tables are all still there.
	s.must(http.StatusOK, "POST", "/api/auth/login", "", map[string]string{"username": tn.username, "password": tn.password}, nil)
}

func urlEscape(s string) string {
	return strings.NewReplacer("%", "%25", "/", "%2F", "?", "%3F", "#", "%23", " ", "%20", `"`, "%22", "<", "%3C", ">", "%3E").Replace(s)
}

// hostile is a tenant whose every free-text field carries a payload.
type hostile struct {
	*tenant
	texts []string // every payload planted
}

// plantHostile creates a tenant and puts a payload into every free-text field: slot title,
// token name, widget title, publisher fields, event text fields and a chat message. Each
// is read back through the API and must round-trip exactly.
func (s *secServer) plantHostile(t *testing.T, username, slug string) *hostile {
	t.Helper()
	title := "T " + imgPayload
	tn := s.newTenant(username, slug, title)
	h := &hostile{tenant: tn}
	var slot struct{ Title string }
	s.must(http.StatusOK, "GET", fmt.Sprintf("/api/managed-streams/%d", tn.slotID), tn.session, nil, &slot)
	require.Equal(t, title, slot.Title, "slot title round-trips")

	tokenName := "<i>" + sqlPayload
	s.must(http.StatusCreated, "POST", "/api/tokens", tn.session, map[string]any{"name": tokenName, "scopes": []string{"read"}}, nil)
	var toks struct{ Tokens []struct{ Name string } }
	s.must(http.StatusOK, "GET", "/api/tokens", tn.session, nil, &toks)
	require.Equal(t, tokenName, toks.Tokens[0].Name, "token name round-trips")

	widget := svgPayload
	var set struct {
		Settings struct {
			WidgetTitle string `json:"widget_title"`
		}
	}
	s.must(http.StatusOK, "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", tn.slotID), tn.session,
		map[string]any{"settings": map[string]any{"widget_title": widget, "show_tool_calls": 1, "show_file_events": 1, "show_thinking": 1}}, &set)
	require.Equal(t, widget, set.Settings.WidgetTitle, "widget title round-trips")

	p := s.publisher(tn.tokens[store.ScopeVibeCodingPublish], tn.slotID, "")
	p.send(map[string]any{"type": "vibe-coding.hello", "protocolVersion": 1, "sessionKey": "hostile-session",
		"publisher": map[string]any{"integrationId": "x", "integrationLabel": imgPayload, "vendor": attrPayload, "clientType": "cli", "clientName": scrPayload}})
	p.expect("vibe-coding.hello.ack")
	events := []map[string]any{
		{"eventType": "prompt", "summary": imgPayload, "prompt": map[string]any{"text": "P " + scrPayload + " " + sqlPayload}},
		{"eventType": "response", "summary": attrPayload, "response": map[string]any{"text": "R " + imgPayload}},
		{"eventType": "thinking", "summary": "thinking", "thinking": map[string]any{"text": "K " + svgPayload}},
		{"eventType": "tool.call", "summary": scrPayload, "tool": map[string]any{"name": "bash", "status": "completed", "argumentsPreview": imgPayload}},
		{"eventType": "file.change", "summary": svgPayload, "file": map[string]any{"name": "a.go", "relativePath": "a.go", "operation": "edit", "changeCount": 1}},
	}
	for i, ev := range events {
		id := fmt.Sprintf("evt-hostile-%d", i)
		p.send(eventEnvelope(id, "hostile-session", ev))
		require.Equal(t, id, p.expect("vibe-coding.ack")["event_id"])
	}
	p.close()

	v, _ := s.viewer(tn.username, tn.slug, tn.session)
	v.send(map[string]any{"type": "chat.send", "text": "C " + imgPayload})
	require.Equal(t, "C "+imgPayload, v.expect("chat.message")["text"], "chat text round-trips")
	v.close()

	// The owner history holds every event text as sent: nothing was mangled into SQL or
	// dropped because it looked like HTML.
	hist := s.must(http.StatusOK, "GET", fmt.Sprintf("/api/vibe-coding/managed/%d/events?limit=200", tn.slotID), tn.session, nil, nil)
	var decoded any
	require.NoError(t, json.Unmarshal(hist.body, &decoded))
	plain := fmt.Sprint(decoded)
	for _, want := range []string{"P " + scrPayload + " " + sqlPayload, "R " + imgPayload, imgPayload, attrPayload} {
		require.Contains(t, plain, want, "event text round-trips through the store")
	}
	h.texts = []string{title, widget, "C " + imgPayload, "P " + scrPayload}
	return h
}

// Every text field takes SQL and HTML verbatim, and stores and returns it unchanged.
func testInjectionRoundTrip(t *testing.T, s *secServer) {
	s.plantHostile(t, "jackhostile", "jack-slot")
	// The database is intact: the users table still answers.
	s.must(http.StatusCreated, "POST", "/api/auth/register", "", map[string]string{"username": "jackafter", "password": "correct horse battery"}, nil)
}

// The viewer page and the studio show every planted payload as text, and none of it runs:
// no element from a payload exists in the DOM, window.__pwned is unset and the title is
// untouched. The pages are loaded in headless Chromium.
func testInjectionInBrowser(t *testing.T, s *secServer) {
	h := s.plantHostile(t, "kimbrowser", "kim-slot")
	ctx := browser.Start(t)

	inert := func(t *testing.T, page string) {
		t.Helper()
		require.Equal(t, "", browser.Eval[string](t, ctx, `String(window.__pwned || "")`), "%s: a payload ran", page)
		require.NotContains(t, browser.Eval[string](t, ctx, `document.title`), "XSS", page)
		n := browser.Eval[float64](t, ctx, `document.querySelectorAll('img[src="x"], svg[onload], b[onmouseover], [onerror]').length +
			Array.from(document.scripts).filter(s => s.textContent.includes('__pwned')).length`)
		require.Zero(t, n, "%s: a payload became an element", page)
	}

	// The viewer page: slot title, widget title, publisher label, every event and the chat.
	browser.Run(t, ctx, chromedp.Navigate(s.base+"/"+h.username+"/"+h.slug),
		browser.WaitJS(`document.querySelectorAll('#vibe-events [data-event-id]').length >= 4`),
		browser.WaitJS(`document.querySelector('#chat-messages').textContent.includes('C <img')`))
	body := browser.Eval[string](t, ctx, `document.body.innerText`)
	for _, want := range []string{"T " + imgPayload, svgPayload, "C " + imgPayload, "P " + scrPayload} {
		require.Contains(t, body, want, "viewer page shows the payload as text")
	}
	require.Contains(t, browser.Eval[string](t, ctx, `document.querySelector('#vibe-publisher').textContent`), "<img")
	inert(t, "viewer page")

	// The studio, logged in: slot list, token list, settings form, preview and history.
	httpOnly := true
	_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: auth.CookieName, Value: h.session, URL: s.base, Path: "/", HTTPOnly: &httpOnly})
	require.NoError(t, err)
	browser.Run(t, ctx, chromedp.Navigate(s.base+"/studio"),
		browser.WaitJS(`document.querySelector('#history-body') && document.querySelector('#history-body').textContent.includes('R <img')`),
		browser.WaitJS(`document.querySelector('#token-list').textContent.includes('<i>x\'); DROP TABLE')`))
	body = browser.Eval[string](t, ctx, `document.body.innerText`)
	require.Contains(t, body, "T "+imgPayload)
	require.Equal(t, svgPayload, browser.Eval[string](t, ctx, `document.querySelector('#s-widget_title').value`))
	inert(t, "studio")
}
