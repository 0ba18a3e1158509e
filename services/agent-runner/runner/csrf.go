package runner

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"
)

// msgCrossSite answers a write that auth.CrossSiteWrite refuses — the api's rule: a write
// carried by the session cookie or by Basic auth a browser cached for a local server, from
// another site, so that another site's page cannot drive an agent with the visitor's login.
const msgCrossSite = "Cross-site request refused"

// refuseCrossSite answers 403 to such a write.
func refuseCrossSite(r *http.Request, token string) error {
	if auth.CrossSiteWrite(r, token) {
		return echo.NewHTTPError(http.StatusForbidden, msgCrossSite)
	}
	return nil
}
