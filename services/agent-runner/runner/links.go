package runner

import (
	"fmt"
	"net"
	"net/http"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/livepublish"
	"openvibe.live/backend/services/agent-runner/internal/netguard"
)

// PublishTarget is a slot on an OpenVibe.Live publish gateway that sessions are streamed to.
type PublishTarget = livepublish.Target

func (r *Runner) getLink(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	st, ok := r.links.Get(s.ID)
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, "the session is not linked to a slot")
	}
	return c.JSON(http.StatusOK, st)
}

func (r *Runner) putLink(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	var t PublishTarget
	if err := bind(c, &t); err != nil {
		return err
	}
	if err := t.Validate(); err != nil {
		return r.badRequest(c, err)
	}
	policy := r.publishPolicy(c)
	if err := policy.Check(c.Request().Context(), t.Server); err != nil {
		return r.badRequest(c, fmt.Errorf("server: %w", err))
	}
	st, err := r.links.Link(s.ID, t, livepublish.LinkOptions{Roots: []string{s.Directory}, HTTPClient: policy.Client()})
	if err != nil {
		return r.badRequest(c, err)
	}
	return c.JSON(http.StatusOK, st)
}

// publishPolicy is where a session link may connect: public addresses, the gateways the
// operator allowed, and the server the request came in on (in the standalone binary the
// gateway shares the runner's listener; reaching it again exposes nothing new).
func (r *Runner) publishPolicy(c echo.Context) netguard.Policy {
	p := netguard.Policy{AllowPrivate: r.d.AllowPrivateNetwork, Allowed: r.d.PublishAllowed}
	if a, ok := c.Request().Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		p = p.With(a.String())
	}
	return p
}

func (r *Runner) deleteLink(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	if !r.links.Unlink(s.ID) {
		return echo.NewHTTPError(http.StatusNotFound, "the session is not linked to a slot")
	}
	return c.NoContent(http.StatusNoContent)
}

// listLinks shows the caller's session links, and the runner-wide link to the local user.
func (r *Runner) listLinks(c echo.Context) error {
	p := principal(c)
	out := []livepublish.Status{}
	for _, st := range r.links.Status() {
		if st.Scope == livepublish.ScopeAll {
			if p.UserID == LocalUserID && p.Username == "local" {
				out = append(out, st)
			}
			continue
		}
		s, err := r.store.GetSession(c.Request().Context(), st.Scope)
		if err == nil && s.OwnerID == p.UserID {
			out = append(out, st)
		}
	}
	return c.JSON(http.StatusOK, out)
}
