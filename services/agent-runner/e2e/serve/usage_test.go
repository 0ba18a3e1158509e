package serve

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type usageReport struct {
	Group string `json:"group"`
	Total struct {
		Calls        int     `json:"calls"`
		InputTokens  int64   `json:"input_tokens"`
		OutputTokens int64   `json:"output_tokens"`
		Cost         float64 `json:"cost"`
	} `json:"total"`
	Rows []struct {
		Key          string  `json:"key"`
		Label        string  `json:"label"`
		Calls        int     `json:"calls"`
		InputTokens  int64   `json:"input_tokens"`
		OutputTokens int64   `json:"output_tokens"`
		Cost         float64 `json:"cost"`
	} `json:"rows"`
}

// TestUsageReport: GET /usage adds up the tokens and cost the provider reported, by
// session, project, day or model, filtered by project, session and days.
func TestUsageReport(t *testing.T) {
	p := newProvider(t)
	ov := startOpenvibe(t, config(p, nil))
	c := ov.client(t)
	root := t.TempDir()
	a := c.createSession(project(t, root, "a"))
	b := c.createSession(project(t, root, "b"))
	p.script(reply{Text: "1", In: 1000, Out: 100}, reply{Text: "2", In: 3000, Out: 300}, reply{Text: "3", In: 5000, Out: 500})
	require.Empty(t, c.turn(a.ID, "one"))
	require.Empty(t, c.turn(a.ID, "two"))
	require.Empty(t, c.turn(b.ID, "three"))
	cost := func(in, out int64) float64 { return float64(in)*1e-6 + float64(out)*2e-6 }
	get := func(query string) usageReport {
		var rep usageReport
		c.call(http.MethodGet, "/agent/usage?"+query, nil, http.StatusOK, &rep)
		return rep
	}

	bySession := get("group=session")
	require.Equal(t, 3, bySession.Total.Calls)
	require.EqualValues(t, 9000, bySession.Total.InputTokens)
	require.InDelta(t, cost(9000, 900), bySession.Total.Cost, 1e-12)
	require.Len(t, bySession.Rows, 2)
	require.Equal(t, b.ID, bySession.Rows[0].Key, "costliest first")
	require.Equal(t, "three", bySession.Rows[0].Label)
	require.InDelta(t, cost(4000, 400), bySession.Rows[1].Cost, 1e-12)
	require.Equal(t, 2, bySession.Rows[1].Calls)

	byProject := get("group=project")
	require.Len(t, byProject.Rows, 2)
	require.Equal(t, b.ProjectID, byProject.Rows[0].Key)
	require.Equal(t, b.Directory, byProject.Rows[0].Label)
	require.EqualValues(t, 4000, get("group=model&project_id="+a.ProjectID).Total.InputTokens)
	require.EqualValues(t, 5000, get("group=model&session_id="+b.ID).Total.InputTokens)

	byModel := get("group=model")
	require.Len(t, byModel.Rows, 1)
	require.Equal(t, "fake/m", byModel.Rows[0].Key)
	today := time.Now().UTC().Format(time.DateOnly)
	byDay := get("group=day&from=" + today + "&to=" + today)
	require.Len(t, byDay.Rows, 1)
	require.Equal(t, today, byDay.Rows[0].Key)
	require.Equal(t, 3, byDay.Rows[0].Calls)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	require.Empty(t, get("group=day&from="+tomorrow).Rows)
	for _, bad := range []string{"group=hour", "group=day&from=yesterday"} {
		code, _ := c.send(http.MethodGet, "/agent/usage?"+bad, nil)
		require.Equal(t, http.StatusBadRequest, code, bad)
	}
}
