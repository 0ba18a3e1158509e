package runner

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/shared/auth"

	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/tool"
)

const principalKey = "agent.principal"

// Register mounts the API under the prefix.
func (r *Runner) Register(e *echo.Echo) {
	g := e.Group(r.d.Prefix, r.authenticate)
	g.GET("/session", r.listSessions)
	g.POST("/session", r.createSession)
	g.POST("/session/import", r.importSession)
	g.GET("/session/:id/export", r.exportSession)
	g.GET("/session/:id", r.getSession)
	g.PATCH("/session/:id", r.updateSession)
	g.DELETE("/session/:id", r.deleteSession)
	g.POST("/session/:id/fork", r.forkSession)
	g.POST("/session/:id/abort", r.abortSession)
	g.POST("/session/:id/message", r.sendMessage)
	g.GET("/session/:id/message", r.listMessages)
	g.GET("/session/:id/queue", r.queue)
	g.DELETE("/session/:id/queue/:qid", r.cancelQueued)
	g.GET("/session/:id/todo", r.getTodos)
	g.GET("/session/:id/permission", r.sessionPermissions)
	g.GET("/session/:id/event", r.sessionEvents)
	g.GET("/event", r.allEvents)
	g.GET("/agent", r.listAgents)
	g.GET("/tool", r.listTools)
	g.GET("/config", r.getConfig)
	g.GET("/provider", r.listProviders)
	g.GET("/usage", r.usage)
	g.GET("/model", r.listModels)
	g.GET("/permission", r.listPermissions)
	g.POST("/permission/reply", r.replyPermission)
	g.GET("/permission/rule", r.listRules)
	g.DELETE("/permission/rule/:id", r.deleteRule)
	g.GET("/mcp", r.mcpStatus)
	g.POST("/session/:id/compact", r.compactSession)
	g.GET("/session/:id/snapshot", r.sessionSnapshots)
	g.POST("/session/:id/revert", r.revertSession)
	g.POST("/session/:id/unrevert", r.unrevertSession)
	g.POST("/session/:id/undo", r.undoSession)
	g.POST("/session/:id/redo", r.redoSession)
	g.GET("/session/:id/link", r.getLink)
	g.PUT("/session/:id/link", r.putLink)
	g.DELETE("/session/:id/link", r.deleteLink)
	g.GET("/link", r.listLinks)
}

// authenticate accepts the local password (as a bearer token or the Basic password) or a
// platform credential allowed to use the agent scope, and refuses cross-site writes carried
// by a credential the browser sent on its own.
func (r *Runner) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		token := auth.TokenFromRequest(req)
		if r.d.LocalPassword != "" {
			local := token
			if _, pw, ok := req.BasicAuth(); ok {
				local = pw
			}
			if local != "" && subtle.ConstantTimeCompare([]byte(local), []byte(r.d.LocalPassword)) == 1 {
				if err := refuseCrossSite(req, token); err != nil {
					return err
				}
				c.Set(principalKey, auth.Principal{UserID: LocalUserID, Username: "local"})
				return next(c)
			}
		}
		if r.d.Auth != nil {
			p, err := r.d.Auth.Authenticate(req.Context(), token)
			if err == nil {
				if !p.HasAnyScope(Scope) {
					return echo.NewHTTPError(http.StatusForbidden, "this token lacks the \"agent\" scope")
				}
				if err := refuseCrossSite(req, token); err != nil {
					return err
				}
				c.Set(principalKey, p)
				return next(c)
			}
			if !errors.Is(err, auth.ErrUnauthenticated) {
				return err
			}
		}
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="openvibe"`)
		return echo.NewHTTPError(http.StatusUnauthorized, "authentication required")
	}
}

func principal(c echo.Context) auth.Principal {
	p, _ := c.Get(principalKey).(auth.Principal)
	return p
}

// session loads the :id session, 404 unless it belongs to the caller.
func (r *Runner) session(c echo.Context) (store.Session, error) {
	s, err := r.store.GetSession(c.Request().Context(), c.Param("id"))
	if err != nil || s.OwnerID != principal(c).UserID {
		if err == nil || store.IsNotFound(err) {
			return s, echo.NewHTTPError(http.StatusNotFound, "session not found")
		}
		return s, err
	}
	return s, nil
}

// apiError maps engine and store errors to client errors; a 400's message names paths as
// the caller knows them (userText).
func (r *Runner) apiError(c echo.Context, err error) error {
	var de *permission.DeniedError
	var ce *engine.ConfigError
	switch {
	case err == nil:
		return nil
	case store.IsNotFound(err):
		return echo.NewHTTPError(http.StatusNotFound, "not found")
	case errors.Is(err, engine.ErrQueueFull):
		return echo.NewHTTPError(http.StatusConflict, err.Error())
	case errors.Is(err, engine.ErrBusy):
		return echo.NewHTTPError(http.StatusConflict, "the session is busy with another turn; abort it or wait")
	case errors.Is(err, engine.ErrClosed):
		return echo.NewHTTPError(http.StatusServiceUnavailable, "the runner is shutting down")
	case errors.As(err, &ce), errors.Is(err, engine.ErrUnknownAgent), errors.Is(err, engine.ErrBadDirectory),
		errors.Is(err, engine.ErrBadExport):
		return r.badRequest(c, err)
	case errors.As(err, &de):
		return echo.NewHTTPError(http.StatusForbidden, err.Error())
	}
	return err
}

// badRequest is a 400 with err's message as the caller may read it.
func (r *Runner) badRequest(c echo.Context, err error) error {
	return echo.NewHTTPError(http.StatusBadRequest, r.userText(c, err.Error()))
}

// userText rewrites the server's paths in a message for a confined caller: their workspace
// becomes the paths relative to it, and the global config file is named, not shown. A local
// (unconfined) server's paths are the user's own and stay as they are.
func (r *Runner) userText(c echo.Context, msg string) string {
	root := r.root(principal(c).UserID)
	if root == "" {
		return msg
	}
	if r.d.GlobalConfig != "" {
		msg = strings.ReplaceAll(msg, r.d.GlobalConfig, "the server's openvibe.json")
	}
	for _, p := range []string{tool.RealPath(root), root} {
		msg = strings.ReplaceAll(msg, p+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, p, "your workspace")
	}
	return msg
}

func bind(c echo.Context, v any) error {
	if err := c.Bind(v); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "invalid JSON body")
	}
	return nil
}
