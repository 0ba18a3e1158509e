package gateway

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/vibe"
)

// refusal is a handshake failure: the socket is closed with code after a vibe-coding.error
// carrying reason.
type refusal struct {
	code   websocket.StatusCode
	reason string
	label  string // openvibe_gateway_connect_attempts_total result
}

func (r *refusal) Error() string { return r.reason }

var (
	refuseAuth      = &refusal{vibe.CloseUnauthorized, vibe.ReasonAuthRequired, "unauthenticated"}
	refuseScope     = &refusal{vibe.CloseForbidden, vibe.ReasonScopeRequired, "forbidden"}
	refuseNotFound  = &refusal{vibe.CloseNotFound, vibe.ReasonSlotNotFound, "not_found"}
	refuseSlug      = &refusal{vibe.CloseBadRequest, vibe.ReasonSlugMismatch, "slug_mismatch"}
	refuseStreamID  = &refusal{vibe.CloseBadRequest, TextBadStreamID, "bad_request"}
	refuseSlotFull  = &refusal{vibe.CloseRateLimited, TextTooManyConnections, "slot_full"}
	refuseStore     = &refusal{closeInternalErr, TextUnavailable, "store_error"}
	refuseAfterStop = &refusal{closeGoingAway, closeShutdown, "shutting_down"}
)

// handlePublish upgrades the request, then checks the credential and the slot, and only
// after sending ready starts reading client messages (which the socket buffers meanwhile, so
// nothing sent early is lost).
func (g *Gateway) handlePublish(ec echo.Context) error {
	r, w := ec.Request(), ec.Response()
	if g.conns.Closed() {
		return echo.NewHTTPError(http.StatusServiceUnavailable, "server is shutting down")
	}
	token, fromCookie := credential(r)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// A cookie is an ambient credential: only pages of this site (or configured origins)
		// may use it. A token in the URL or a header was given on purpose by the client.
		InsecureSkipVerify: !fromCookie,
		OriginPatterns:     g.cfg.OriginPatterns,
	})
	if err != nil {
		return nil // Accept has written the HTTP error
	}
	ctx := context.WithoutCancel(r.Context())
	log := g.log.With("remote_addr", r.RemoteAddr)
	c := newConn(g, ws, log)
	if !g.conns.Add(c) {
		g.refuse(ctx, ws, refuseAfterStop)
		return nil
	}
	defer g.conns.Remove(c)
	ms, p, ref := g.admit(ctx, r, token)
	if ref != nil {
		if ref.refusal == refuseStore {
			log.ErrorContext(ctx, "publisher handshake failed", "error", ref.cause)
		}
		g.refuse(ctx, ws, ref.refusal)
		return nil
	}
	slot, err := g.slots.join(ms)
	if err != nil {
		which := refuseSlotFull
		if !errors.Is(err, errSlotFull) {
			which = refuseAfterStop
		}
		g.refuse(ctx, ws, which)
		return nil
	}
	defer g.slots.leave(slot)
	c.attach(p, slot, log.With("user_id", p.UserID, "managed_stream_id", slot.id))
	g.met.connectAttempts.WithLabelValues("accepted").Inc()
	g.met.connections.Inc()
	defer g.met.connections.Dec()
	view := slot.current()
	c.serve(ctx, encode(vibe.Ready{
		Type:            vibe.MsgReady,
		OK:              true,
		ManagedStreamID: slot.id,
		SlotSlug:        slot.slug,
		LiveStreamID:    view.liveStreamID,
		Settings:        view.settings,
		Timestamp:       timestamp(g.now()),
	}))
	return nil
}

// credential returns the request's token and whether it came from the session cookie.
func credential(r *http.Request) (string, bool) {
	token := auth.TokenFromRequest(r)
	fromCookie := token != "" && r.URL.Query().Get("token") == "" && r.Header.Get("Authorization") == ""
	return token, fromCookie
}

type admitError struct {
	*refusal
	cause error
}

// admit authenticates the request and loads the slot it names. An unknown slot and someone
// else's slot are refused the same way, after the same store lookup.
func (g *Gateway) admit(ctx context.Context, r *http.Request, token string) (store.ManagedStream, auth.Principal, *admitError) {
	actx, cancel := context.WithTimeout(ctx, g.cfg.StoreTimeout)
	defer cancel()
	p, err := g.auth.Authenticate(actx, token)
	if errors.Is(err, auth.ErrUnauthenticated) {
		return store.ManagedStream{}, p, &admitError{refusal: refuseAuth}
	}
	if err != nil {
		return store.ManagedStream{}, p, &admitError{refusal: refuseStore, cause: err}
	}
	if ref := g.checkScope(ctx, p); ref != nil {
		return store.ManagedStream{}, p, &admitError{refusal: ref}
	}
	q := r.URL.Query()
	id, err := strconv.ParseInt(q.Get("managedStreamId"), 10, 64)
	if err != nil || id <= 0 {
		return store.ManagedStream{}, p, &admitError{refusal: refuseStreamID}
	}
	ms, err := g.st.ManagedStreamByID(actx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && ms.UserID != p.UserID) {
		return store.ManagedStream{}, p, &admitError{refusal: refuseNotFound}
	}
	if err != nil {
		return store.ManagedStream{}, p, &admitError{refusal: refuseStore, cause: err}
	}
	if slug := q.Get("slotSlug"); slug != "" && !strings.EqualFold(slug, ms.Slug) {
		return store.ManagedStream{}, p, &admitError{refusal: refuseSlug}
	}
	return ms, p, nil
}

// checkScope lets sessions (JWTs) through and requires API tokens to carry the publish scope,
// or the legacy stream scope while that is allowed.
func (g *Gateway) checkScope(ctx context.Context, p auth.Principal) *refusal {
	if !p.IsToken() || p.HasAnyScope(store.ScopeVibeCodingPublish) {
		return nil
	}
	if g.cfg.AllowLegacyStreamScope && p.HasAnyScope(store.ScopeStream) {
		g.met.legacyScope.Inc()
		g.log.InfoContext(ctx, "publisher connected with the legacy stream scope",
			"user_id", p.UserID, "token_id", p.TokenID)
		return nil
	}
	return refuseScope
}

// refuse ends a handshake: vibe-coding.error, then the close frame, both with the reason.
func (g *Gateway) refuse(ctx context.Context, ws *websocket.Conn, ref *refusal) {
	g.met.connectAttempts.WithLabelValues(ref.label).Inc()
	wctx, cancel := context.WithTimeout(ctx, g.cfg.WriteTimeout)
	defer cancel()
	if err := ws.Write(wctx, websocket.MessageText, errorMessage(ref.reason, "")); err != nil {
		_ = ws.CloseNow()
		return
	}
	_ = ws.Close(ref.code, ref.reason)
}
