package runner

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

func (r *Runner) listPermissions(c echo.Context) error {
	return c.JSON(http.StatusOK, r.engine.Permissions().Pending(principal(c).UserID, ""))
}

func (r *Runner) sessionPermissions(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r.engine.Permissions().Pending(s.OwnerID, s.ID))
}

type replyBody struct {
	RequestID string `json:"request_id"`
	Decision  string `json:"decision"` // allow or deny
	Remember  bool   `json:"remember"`
	// Always, with remember, are the patterns to save instead of the request's own.
	Always []string `json:"always"`
}

func (r *Runner) replyPermission(c echo.Context) error {
	var b replyBody
	if err := bind(c, &b); err != nil {
		return err
	}
	if b.RequestID == "" {
		return echo.NewHTTPError(http.StatusBadRequest, "request_id is required")
	}
	if b.Decision != "allow" && b.Decision != "deny" {
		return echo.NewHTTPError(http.StatusBadRequest, "decision must be allow or deny")
	}
	req, err := r.engine.Permissions().Reply(c.Request().Context(), principal(c).UserID, b.RequestID,
		permission.Reply{Allow: b.Decision == "allow", Remember: b.Remember, Always: b.Always})
	var re *permission.ReplyError
	switch {
	case errors.Is(err, permission.ErrNotFound):
		return echo.NewHTTPError(http.StatusNotFound, "permission request not found")
	case errors.As(err, &re):
		return echo.NewHTTPError(http.StatusBadRequest, re.Error())
	case err != nil:
		return err
	}
	r.metrics.replies.WithLabelValues(b.Decision).Inc()
	return c.JSON(http.StatusOK, map[string]any{"request": req, "decision": b.Decision, "remember": b.Remember})
}

func (r *Runner) listRules(c echo.Context) error {
	rules, err := r.store.ListRules(c.Request().Context(), store.RuleFilter{OwnerID: principal(c).UserID,
		ProjectID: c.QueryParam("project_id"), Agent: c.QueryParam("agent")})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rules)
}

func (r *Runner) deleteRule(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound, "rule not found")
	}
	if err := r.store.DeleteRule(c.Request().Context(), principal(c).UserID, id); err != nil {
		if store.IsNotFound(err) {
			return echo.NewHTTPError(http.StatusNotFound, "rule not found")
		}
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
