// Package storetest is the conformance suite every runner store backend must pass.
package storetest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// Run runs the suite; newStore returns a fresh, empty store for each subtest.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := map[string]func(t *testing.T, s store.Store){
		"sessions":           testSessions,
		"messages and parts": testMessagesAndParts,
		"fork":               testFork,
		"delete cascades":    testDeleteCascades,
		"todos":              testTodos,
		"rules":              testRules,
		"pending requests":   testPending,
	}
	for name, fn := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			t.Cleanup(func() { require.NoError(t, s.Close()) })
			fn(t, s)
		})
	}
}

func newSession(t *testing.T, s store.Store, owner int64) store.Session {
	t.Helper()
	p := store.Project{ID: "prj_test", Worktree: "/w", VCS: "git", Created: time.Now()}
	require.NoError(t, s.UpsertProject(t.Context(), p))
	now := time.Now().UTC().Truncate(time.Millisecond)
	ss := store.Session{ID: id.New(id.Session), ProjectID: p.ID, OwnerID: owner, Title: "t", Directory: "/w", Agent: "build",
		Created: now, Updated: now}
	require.NoError(t, s.CreateSession(t.Context(), ss))
	return ss
}

func testSessions(t *testing.T, s store.Store) {
	ctx := t.Context()
	a := newSession(t, s, 1)
	b := newSession(t, s, 1)
	newSession(t, s, 2)
	got, err := s.GetSession(ctx, a.ID)
	require.NoError(t, err)
	require.Equal(t, a, got)
	_, err = s.GetSession(ctx, "ses_missing")
	require.ErrorIs(t, err, store.ErrNotFound)

	a.Title, a.Usage = "renamed", message.Usage{InputTokens: 5, Cost: 0.5}
	a.Updated = a.Updated.Add(time.Second)
	require.NoError(t, s.UpdateSession(ctx, a))
	list, err := s.ListSessions(ctx, store.SessionFilter{OwnerID: 1})
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, a.ID, list[0].ID, "most recently updated first")
	require.Equal(t, "renamed", list[0].Title)
	require.Equal(t, 0.5, list[0].Usage.Cost)
	require.Equal(t, b.ID, list[1].ID)
	list, err = s.ListSessions(ctx, store.SessionFilter{OwnerID: 1, Limit: 1})
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.ErrorIs(t, s.UpdateSession(ctx, store.Session{ID: "ses_missing"}), store.ErrNotFound)
	require.NoError(t, s.Ping(ctx))
}

func addMessage(t *testing.T, s store.Store, sess store.Session, role message.Role, text string) *message.Message {
	t.Helper()
	m := &message.Message{ID: id.New(id.Message), SessionID: sess.ID, Role: role, Created: time.Now().UTC()}
	require.NoError(t, s.PutMessage(t.Context(), m))
	p := &message.TextPart{PartMeta: message.PartMeta{ID: id.New(id.Part), MessageID: m.ID, SessionID: sess.ID, Type: message.TypeText}, Text: text}
	require.NoError(t, s.PutPart(t.Context(), p))
	m.Parts = []message.Part{p}
	return m
}

func testMessagesAndParts(t *testing.T, s store.Store) {
	ctx := t.Context()
	sess := newSession(t, s, 1)
	u := addMessage(t, s, sess, message.RoleUser, "hi")
	a := &message.Message{ID: id.New(id.Message), SessionID: sess.ID, Role: message.RoleAssistant, Created: time.Now().UTC()}
	require.NoError(t, s.PutMessage(ctx, a))
	tp := &message.ToolPart{PartMeta: message.PartMeta{ID: id.New(id.Part), MessageID: a.ID, SessionID: sess.ID, Type: message.TypeTool},
		CallID: "c1", Tool: "bash", State: message.ToolPending, Input: json.RawMessage(`{"command":"ls"}`)}
	require.NoError(t, s.PutPart(ctx, &message.StepStartPart{PartMeta: message.PartMeta{ID: id.New(id.Part), MessageID: a.ID, SessionID: sess.ID, Type: message.TypeStepStart}, Step: 1}))
	require.NoError(t, s.PutPart(ctx, tp))
	// Updates keep the position.
	tp.State, tp.Output = message.ToolCompleted, "file"
	require.NoError(t, s.PutPart(ctx, tp))
	a.Finish = "tool-calls"
	require.NoError(t, s.PutMessage(ctx, a))

	msgs, err := s.ListMessages(ctx, sess.ID)
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	require.Equal(t, u.ID, msgs[0].ID)
	require.Equal(t, "hi", msgs[0].Text())
	require.Equal(t, "tool-calls", msgs[1].Finish)
	require.Len(t, msgs[1].Parts, 2)
	require.IsType(t, &message.StepStartPart{}, msgs[1].Parts[0])
	got := msgs[1].Parts[1].(*message.ToolPart)
	require.Equal(t, message.ToolCompleted, got.State)
	require.Equal(t, "file", got.Output)
	require.JSONEq(t, `{"command":"ls"}`, string(got.Input))
}

func testFork(t *testing.T, s store.Store) {
	ctx := t.Context()
	src := newSession(t, s, 1)
	var ids []string
	for i := range 4 {
		ids = append(ids, addMessage(t, s, src, message.RoleUser, fmt.Sprint("m", i)).ID)
	}
	dst := src
	dst.ID = id.New(id.Session)
	require.NoError(t, s.ForkSession(ctx, src.ID, ids[1], dst, id.New))
	msgs, err := s.ListMessages(ctx, dst.ID)
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	require.Equal(t, "m1", msgs[1].Text())
	require.NotEqual(t, ids[1], msgs[1].ID)

	// A fork from an unknown message creates nothing.
	bad := src
	bad.ID = id.New(id.Session)
	require.ErrorIs(t, s.ForkSession(ctx, src.ID, "msg_missing", bad, id.New), store.ErrNotFound)
	_, err = s.GetSession(ctx, bad.ID)
	require.ErrorIs(t, err, store.ErrNotFound)
	all := src
	all.ID = id.New(id.Session)
	require.NoError(t, s.ForkSession(ctx, src.ID, "", all, id.New))
	msgs, err = s.ListMessages(ctx, all.ID)
	require.NoError(t, err)
	require.Len(t, msgs, 4)
}

func testDeleteCascades(t *testing.T, s store.Store) {
	ctx := t.Context()
	parent := newSession(t, s, 1)
	child := newSession(t, s, 1)
	child.ParentID = parent.ID
	child.ID = id.New(id.Session)
	require.NoError(t, s.CreateSession(ctx, child))
	addMessage(t, s, parent, message.RoleUser, "x")
	require.NoError(t, s.SetTodos(ctx, parent.ID, []store.Todo{{ID: "1", Content: "c", Status: "pending"}}))
	require.NoError(t, s.PutPendingRequest(ctx, store.PendingRequest{ID: "per_1", SessionID: parent.ID, OwnerID: 1, Data: json.RawMessage(`{}`), Created: time.Now()}))
	require.NoError(t, s.DeleteSession(ctx, parent.ID))
	_, err := s.GetSession(ctx, child.ID)
	require.ErrorIs(t, err, store.ErrNotFound)
	msgs, err := s.ListMessages(ctx, parent.ID)
	require.NoError(t, err)
	require.Empty(t, msgs)
	pending, err := s.ListPendingRequests(ctx)
	require.NoError(t, err)
	require.Empty(t, pending)
	require.ErrorIs(t, s.DeleteSession(ctx, parent.ID), store.ErrNotFound)
}

func testTodos(t *testing.T, s store.Store) {
	ctx := t.Context()
	sess := newSession(t, s, 1)
	todos, err := s.GetTodos(ctx, sess.ID)
	require.NoError(t, err)
	require.Empty(t, todos)
	want := []store.Todo{{ID: "1", Content: "a", Status: "pending", Priority: "high"}}
	require.NoError(t, s.SetTodos(ctx, sess.ID, want))
	require.NoError(t, s.SetTodos(ctx, sess.ID, want))
	todos, err = s.GetTodos(ctx, sess.ID)
	require.NoError(t, err)
	require.Equal(t, want, todos)
}

func testRules(t *testing.T, s store.Store) {
	ctx := t.Context()
	r1, err := s.AddRule(ctx, store.SavedRule{ProjectID: "p1", OwnerID: 1, Agent: "build", Tool: "bash", Pattern: "git*", Action: "allow", Created: time.Now()})
	require.NoError(t, err)
	r2, err := s.AddRule(ctx, store.SavedRule{ProjectID: "p1", OwnerID: 1, Agent: "plan", Tool: "edit", Pattern: "*", Action: "deny", Created: time.Now()})
	require.NoError(t, err)
	_, err = s.AddRule(ctx, store.SavedRule{ProjectID: "p2", OwnerID: 1, Agent: "build", Tool: "bash", Pattern: "*", Action: "allow", Created: time.Now()})
	require.NoError(t, err)
	got, err := s.ListRules(ctx, store.RuleFilter{OwnerID: 1, ProjectID: "p1"})
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, r2.ID, got[0].ID, "newest first")
	got, err = s.ListRules(ctx, store.RuleFilter{OwnerID: 1, ProjectID: "p1", Agent: "build"})
	require.NoError(t, err)
	require.Equal(t, []int64{r1.ID}, []int64{got[0].ID})
	got, err = s.ListRules(ctx, store.RuleFilter{OwnerID: 2})
	require.NoError(t, err)
	require.Empty(t, got)
	require.ErrorIs(t, s.DeleteRule(ctx, 2, r1.ID), store.ErrNotFound, "another owner cannot revoke")
	require.NoError(t, s.DeleteRule(ctx, 1, r1.ID))
	require.ErrorIs(t, s.DeleteRule(ctx, 1, r1.ID), store.ErrNotFound)
}

func testPending(t *testing.T, s store.Store) {
	ctx := t.Context()
	sess := newSession(t, s, 7)
	now := time.Now().UTC()
	require.NoError(t, s.PutPendingRequest(ctx, store.PendingRequest{ID: "per_b", SessionID: sess.ID, OwnerID: 7, Data: json.RawMessage(`{"tool":"bash"}`), Created: now.Add(time.Second)}))
	require.NoError(t, s.PutPendingRequest(ctx, store.PendingRequest{ID: "per_a", SessionID: sess.ID, OwnerID: 7, Data: json.RawMessage(`{"tool":"edit"}`), Created: now}))
	got, err := s.ListPendingRequests(ctx)
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, "per_a", got[0].ID)
	require.EqualValues(t, 7, got[0].OwnerID)
	require.JSONEq(t, `{"tool":"edit"}`, string(got[0].Data))
	require.NoError(t, s.DeletePendingRequest(ctx, "per_a"))
	require.ErrorIs(t, s.DeletePendingRequest(ctx, "per_a"), store.ErrNotFound)
}
