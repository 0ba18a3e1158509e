package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/agent"
	"openvibe.live/backend/services/agent-runner/internal/compaction"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// SessionView is a session as the API shows it.
type SessionView struct {
	store.Session
	Busy bool `json:"busy"`
}

func (r *Runner) view(s store.Session) SessionView {
	return SessionView{Session: s, Busy: r.engine.Busy(s.ID)}
}

func (r *Runner) listSessions(c echo.Context) error {
	limit, _ := strconv.Atoi(c.QueryParam("limit"))
	ss, err := r.store.ListSessions(c.Request().Context(), store.SessionFilter{OwnerID: principal(c).UserID,
		ProjectID: c.QueryParam("project_id"), Limit: limit})
	if err != nil {
		return err
	}
	out := make([]SessionView, 0, len(ss))
	for _, s := range ss {
		out = append(out, r.view(s))
	}
	return c.JSON(http.StatusOK, out)
}

type createSessionBody struct {
	Directory string `json:"directory"`
	Title     string `json:"title"`
	Agent     string `json:"agent"`
}

func (r *Runner) createSession(c echo.Context) error {
	var b createSessionBody
	if err := bind(c, &b); err != nil {
		return err
	}
	s, err := r.engine.CreateSession(c.Request().Context(), engine.CreateInput{OwnerID: principal(c).UserID,
		Directory: b.Directory, Title: b.Title, Agent: b.Agent})
	if err != nil {
		return r.apiError(c, err)
	}
	r.metrics.sessionsNew.Inc()
	return c.JSON(http.StatusCreated, r.view(s))
}

func (r *Runner) getSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r.view(s))
}

func (r *Runner) updateSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	var b struct {
		Title *string `json:"title"`
		Agent *string `json:"agent"`
	}
	if err := bind(c, &b); err != nil {
		return err
	}
	if b.Title != nil {
		if strings.TrimSpace(*b.Title) == "" {
			return echo.NewHTTPError(http.StatusBadRequest, "title must not be empty")
		}
		s.Title = *b.Title
	}
	if b.Agent != nil {
		if err := r.checkPrimaryAgent(c, s, *b.Agent); err != nil {
			return err
		}
		s.Agent = *b.Agent
	}
	s.Updated = time.Now().UTC()
	if err := r.store.UpdateSession(c.Request().Context(), s); err != nil {
		return r.apiError(c, err)
	}
	return c.JSON(http.StatusOK, r.view(s))
}

func (r *Runner) deleteSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	if err := r.engine.DeleteSession(c.Request().Context(), s); err != nil {
		return r.apiError(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

func (r *Runner) forkSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	var b struct {
		MessageID string `json:"message_id"`
	}
	if err := bind(c, &b); err != nil {
		return err
	}
	f, err := r.engine.Fork(c.Request().Context(), s, b.MessageID)
	if store.IsNotFound(err) {
		return echo.NewHTTPError(http.StatusNotFound, "message not found in this session")
	}
	if err != nil {
		return err
	}
	r.metrics.sessionsNew.Inc()
	return c.JSON(http.StatusCreated, r.view(f))
}

// exportSession answers the session as one document (see engine.Export).
func (r *Runner) exportSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	doc, err := r.engine.Export(c.Request().Context(), s)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+s.ID+`.json"`)
	return c.JSON(http.StatusOK, doc)
}

// importSession makes a session of the caller's from an export document (the body), in
// ?directory= or the document's own directory.
func (r *Runner) importSession(c echo.Context) error {
	var doc engine.Export
	if err := json.NewDecoder(c.Request().Body).Decode(&doc); err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			return err // the platform answers 413
		}
		return r.badRequest(c, fmt.Errorf("%w: %v", engine.ErrBadExport, err))
	}
	s, err := r.engine.Import(c.Request().Context(), engine.ImportInput{OwnerID: principal(c).UserID,
		Directory: c.QueryParam("directory"), Doc: doc})
	if err != nil {
		return r.apiError(c, err)
	}
	r.metrics.sessionsNew.Inc()
	return c.JSON(http.StatusCreated, r.view(s))
}

func (r *Runner) abortSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"aborted": r.engine.Abort(c.Request().Context(), s)})
}

type messageBody struct {
	Text  string `json:"text"`
	Agent string `json:"agent"`
	Model string `json:"model"`
	// Wait makes the request return the last assistant message once the turn ends (the
	// turn is aborted if the client goes away); otherwise it returns 202 at once.
	Wait bool `json:"wait"`
	// Steer, while a turn runs, cancels the rest of it and runs this prompt next.
	Steer bool `json:"steer"`
}

// sendMessage starts a turn, or queues the prompt while one runs (202 with queued).
func (r *Runner) sendMessage(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	var b messageBody
	if err := bind(c, &b); err != nil {
		return err
	}
	if strings.TrimSpace(b.Text) == "" {
		return echo.NewHTTPError(http.StatusBadRequest, "text is required")
	}
	ctx := c.Request().Context()
	in := engine.PromptInput{Text: b.Text, Agent: b.Agent, Model: b.Model, Policy: permission.Interactive}
	if !b.Wait {
		since := r.bus.LastID() // the turn's events come after it
		sub, err := r.engine.Submit(ctx, s, in, b.Steer, false)
		if err != nil {
			return r.apiError(c, err)
		}
		r.metrics.prompts.WithLabelValues("async").Inc()
		if sub.Queued != nil {
			return c.JSON(http.StatusAccepted, map[string]any{"queued": sub.Queued, "event_id": since})
		}
		return c.JSON(http.StatusAccepted, map[string]any{"message": sub.User, "event_id": since})
	}
	r.metrics.prompts.WithLabelValues("wait").Inc()
	last, err := r.waitTurn(ctx, s, in, b.Steer)
	if err != nil && last == nil {
		return r.apiError(c, err)
	}
	out := map[string]any{"message": last}
	if err != nil {
		out["error"] = err.Error()
	}
	return c.JSON(http.StatusOK, out)
}

// waitTurn runs the prompt's turn to its end: at once when the session is free, else after
// the turns queued before it. A client that leaves takes its prompt out of the queue, or
// aborts its turn.
func (r *Runner) waitTurn(ctx context.Context, s store.Session, in engine.PromptInput, steer bool) (*message.Message, error) {
	waiting, err := r.engine.Queued(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	if len(waiting) == 0 && !r.engine.Busy(s.ID) {
		last, err := r.engine.Prompt(ctx, s, in)
		if !errors.Is(err, engine.ErrBusy) {
			return last, err
		}
	}
	sub, err := r.engine.Submit(ctx, s, in, steer, true)
	if err != nil || sub.Done == nil {
		return nil, err
	}
	select {
	case res := <-sub.Done:
		return res.Last, res.Err
	case <-ctx.Done():
		bg := context.WithoutCancel(ctx)
		if err := r.engine.CancelQueued(bg, s, sub.Queued.ID); store.IsNotFound(err) {
			r.engine.Abort(bg, s) // it had started
		}
		return nil, context.Cause(ctx)
	}
}

func (r *Runner) queue(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	qs, err := r.engine.Queued(c.Request().Context(), s.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, qs)
}

func (r *Runner) cancelQueued(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	qs, err := r.engine.Queued(c.Request().Context(), s.ID)
	if err != nil {
		return err
	}
	for _, q := range qs {
		if q.ID == c.Param("qid") {
			if err := r.engine.CancelQueued(c.Request().Context(), s, q.ID); err != nil && !store.IsNotFound(err) {
				return err
			}
			return c.NoContent(http.StatusNoContent)
		}
	}
	return echo.NewHTTPError(http.StatusNotFound, "no such prompt in the queue (it may have started)")
}

func (r *Runner) listMessages(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	msgs, err := r.store.ListMessages(c.Request().Context(), s.ID)
	if err != nil {
		return err
	}
	if msgs == nil {
		msgs = []*message.Message{}
	}
	return c.JSON(http.StatusOK, msgs)
}

func (r *Runner) getTodos(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	todos, err := r.store.GetTodos(c.Request().Context(), s.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, todos)
}

// checkPrimaryAgent refuses an agent that does not exist for the session's project or is not
// a primary agent.
func (r *Runner) checkPrimaryAgent(c echo.Context, s store.Session, name string) error {
	proj, err := r.store.GetProject(c.Request().Context(), s.ProjectID)
	if err != nil {
		return err
	}
	st, err := r.settings(c.Request().Context(), proj.Worktree)
	if err != nil {
		return r.badRequest(c, err)
	}
	if a, ok := st.Agents[name]; !ok || a.Mode != agent.Primary {
		return echo.NewHTTPError(http.StatusBadRequest, "unknown primary agent "+strconv.Quote(name))
	}
	return nil
}

func (r *Runner) compactSession(c echo.Context) error {
	s, err := r.session(c)
	if err != nil {
		return err
	}
	m, err := r.engine.Compact(c.Request().Context(), s, compaction.Config{})
	switch {
	case errors.Is(err, compaction.ErrNothingToCompact), errors.Is(err, compaction.ErrNoProgress):
		return echo.NewHTTPError(http.StatusConflict, err.Error())
	case err != nil:
		return r.apiError(c, err)
	}
	return c.JSON(http.StatusOK, m)
}
