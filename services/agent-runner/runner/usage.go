package runner

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"openvibe.live/backend/services/agent-runner/internal/message"
)

// UsageQuery selects and groups the model usage of one user's sessions.
type UsageQuery struct {
	// Group is "session", "project", "day" (UTC) or "model".
	Group     string
	ProjectID string // empty: every project
	SessionID string // empty: every session
	// From and To bound the day of each model call (UTC, inclusive); zero: open.
	From, To time.Time
}

// UsageRow is the usage of one group: tokens, cost and how many model calls.
type UsageRow struct {
	Key   string `json:"key"`             // session ID, project ID, YYYY-MM-DD or provider/model
	Label string `json:"label,omitempty"` // the session's title, the project's directory
	message.Usage
	Calls int `json:"calls"`
}

// UsageReport is the answer to a UsageQuery.
type UsageReport struct {
	Group string     `json:"group"`
	Total UsageRow   `json:"total"`
	Rows  []UsageRow `json:"rows"`
}

var usageGroups = []string{"session", "project", "day", "model"}

// Usage adds up the usage of the owner's model calls (each assistant message) by q.Group.
// Days come oldest first, other groups costliest first.
func (r *Runner) Usage(ctx context.Context, ownerID int64, q UsageQuery) (UsageReport, error) {
	if !slices.Contains(usageGroups, q.Group) {
		return UsageReport{}, fmt.Errorf("group %q: want session, project, day or model", q.Group)
	}
	recs, err := r.store.ListUsage(ctx, ownerID)
	if err != nil {
		return UsageReport{}, err
	}
	rep := UsageReport{Group: q.Group, Total: UsageRow{Key: "total"}, Rows: []UsageRow{}}
	byKey := map[string]*UsageRow{}
	for _, rec := range recs {
		day := rec.Created.UTC().Truncate(24 * time.Hour)
		if (q.ProjectID != "" && rec.ProjectID != q.ProjectID) || (q.SessionID != "" && rec.SessionID != q.SessionID) ||
			(!q.From.IsZero() && day.Before(q.From)) || (!q.To.IsZero() && day.After(q.To)) {
			continue
		}
		key := map[string]string{"session": rec.SessionID, "project": rec.ProjectID, "day": day.Format(time.DateOnly),
			"model": cmp.Or(rec.Model, "(unknown)")}[q.Group]
		row := byKey[key]
		if row == nil {
			row = &UsageRow{Key: key}
			byKey[key] = row
		}
		row.Usage.Add(rec.Usage)
		row.Calls++
		rep.Total.Usage.Add(rec.Usage)
		rep.Total.Calls++
	}
	for _, row := range byKey {
		row.Label = r.usageLabel(ctx, q.Group, row.Key)
		rep.Rows = append(rep.Rows, *row)
	}
	slices.SortFunc(rep.Rows, func(a, b UsageRow) int {
		if q.Group == "day" {
			return cmp.Compare(a.Key, b.Key)
		}
		return cmp.Or(cmp.Compare(b.Cost, a.Cost), cmp.Compare(b.InputTokens+b.OutputTokens, a.InputTokens+a.OutputTokens),
			cmp.Compare(a.Key, b.Key))
	})
	return rep, nil
}

func (r *Runner) usageLabel(ctx context.Context, group, key string) string {
	switch group {
	case "session":
		if s, err := r.store.GetSession(ctx, key); err == nil {
			return s.Title
		}
	case "project":
		if p, err := r.store.GetProject(ctx, key); err == nil {
			return p.Worktree
		}
	}
	return ""
}

// usage answers GET /usage?group=&project_id=&session_id=&from=&to=.
func (r *Runner) usage(c echo.Context) error {
	q := UsageQuery{Group: cmp.Or(c.QueryParam("group"), "session"), ProjectID: c.QueryParam("project_id"),
		SessionID: c.QueryParam("session_id")}
	for name, dst := range map[string]*time.Time{"from": &q.From, "to": &q.To} {
		if v := c.QueryParam(name); v != "" {
			t, err := time.Parse(time.DateOnly, v)
			if err != nil {
				return echo.NewHTTPError(http.StatusBadRequest, name+": want a date such as 2026-12-01")
			}
			*dst = t
		}
	}
	if !slices.Contains(usageGroups, q.Group) {
		return echo.NewHTTPError(http.StatusBadRequest, "group: want session, project, day or model")
	}
	rep, err := r.Usage(c.Request().Context(), principal(c).UserID, q)
	if err != nil {
		return err
	}
	if q.Group == "project" {
		for i := range rep.Rows {
			rep.Rows[i].Label = r.userText(c, rep.Rows[i].Label)
		}
	}
	return c.JSON(http.StatusOK, rep)
}
