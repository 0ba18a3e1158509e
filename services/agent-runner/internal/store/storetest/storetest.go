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
		"projects":           testProjects,
		"sessions":           testSessions,
		"session times":      testSessionTimes,
		"messages and parts": testMessagesAndParts,
		"fork":               testFork,
		"delete cascades":    testDeleteCascades,
		"todos":              testTodos,
		"rules":              testRules,
		"pending requests":   testPending,
		"import":             testImport,
		"queue":              testQueue,
		"usage":              testUsage,
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

func testProjects(t *testing.T, s store.Store) {
	ctx := t.Context()
	created := time.Now()
	require.NoError(t, s.UpsertProject(ctx, store.Project{ID: "prj_1", Worktree: "/a", VCS: "git", Created: created}))
	p, err := s.GetProject(ctx, "prj_1")
	require.NoError(t, err)
	require.Equal(t, "/a", p.Worktree)
	require.Equal(t, "git", p.VCS)
	require.Equal(t, time.UTC, p.Created.Location())
	require.WithinDuration(t, created, p.Created, time.Millisecond)

	// An upsert changes the worktree and VCS and keeps the creation time.
	require.NoError(t, s.UpsertProject(ctx, store.Project{ID: "prj_1", Worktree: "/b", Created: created.Add(time.Hour)}))
	got, err := s.GetProject(ctx, "prj_1")
	require.NoError(t, err)
	require.Equal(t, store.Project{ID: "prj_1", Worktree: "/b", Created: p.Created}, got)
	_, err = s.GetProject(ctx, "prj_missing")
	require.ErrorIs(t, err, store.ErrNotFound)
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
	require.Equal(t, a.ID, list[0].ID, "the limit keeps the most recently updated")
	list, err = s.ListSessions(ctx, store.SessionFilter{OwnerID: 3})
	require.NoError(t, err)
	require.NotNil(t, list, "no sessions is an empty list")
	require.Empty(t, list)

	// A project filter.
	require.NoError(t, s.UpsertProject(ctx, store.Project{ID: "prj_other", Worktree: "/o", Created: time.Now()}))
	c := b
	c.ID, c.ProjectID = id.New(id.Session), "prj_other"
	require.NoError(t, s.CreateSession(ctx, c))
	list, err = s.ListSessions(ctx, store.SessionFilter{OwnerID: 1, ProjectID: "prj_other"})
	require.NoError(t, err)
	require.Equal(t, []store.Session{c}, list)
	list, err = s.ListSessions(ctx, store.SessionFilter{OwnerID: 1, ProjectID: b.ProjectID})
	require.NoError(t, err)
	require.Len(t, list, 2)

	require.ErrorIs(t, s.UpdateSession(ctx, store.Session{ID: "ses_missing"}), store.ErrNotFound)
	require.NoError(t, s.Ping(ctx))
}

// testSessionTimes checks session times come back in UTC, to the millisecond.
func testSessionTimes(t *testing.T, s store.Store) {
	ctx := t.Context()
	ss := newSession(t, s, 1)
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("X", 5*3600))
	ss.ID, ss.Created, ss.Updated = id.New(id.Session), at, at.Add(time.Minute)
	require.NoError(t, s.CreateSession(ctx, ss))
	got, err := s.GetSession(ctx, ss.ID)
	require.NoError(t, err)
	want := at.UTC().Truncate(time.Millisecond)
	require.Equal(t, want, got.Created)
	require.Equal(t, want.Add(time.Minute), got.Updated)

	ss.Updated = at.Add(time.Hour)
	require.NoError(t, s.UpdateSession(ctx, ss))
	got, err = s.GetSession(ctx, ss.ID)
	require.NoError(t, err)
	require.Equal(t, want, got.Created)
	require.Equal(t, want.Add(time.Hour), got.Updated)
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

	// Messages of sessions written in turns keep their order within each session.
	other := newSession(t, s, 1)
	o1 := addMessage(t, s, other, message.RoleUser, "o1")
	u2 := addMessage(t, s, sess, message.RoleUser, "again")
	o2 := addMessage(t, s, other, message.RoleUser, "o2")
	msgs, err = s.ListMessages(ctx, sess.ID)
	require.NoError(t, err)
	require.Equal(t, []string{u.ID, a.ID, u2.ID}, messageIDs(msgs))
	msgs, err = s.ListMessages(ctx, other.ID)
	require.NoError(t, err)
	require.Equal(t, []string{o1.ID, o2.ID}, messageIDs(msgs))
	require.Equal(t, "o2", msgs[1].Text())

	msgs, err = s.ListMessages(ctx, "ses_missing")
	require.NoError(t, err)
	require.Empty(t, msgs)
}

func messageIDs(msgs []*message.Message) []string {
	var ids []string
	for _, m := range msgs {
		ids = append(ids, m.ID)
	}
	return ids
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
	for _, m := range msgs {
		require.Equal(t, dst.ID, m.SessionID)
		require.Len(t, m.Parts, 1)
		meta := m.Parts[0].Meta()
		require.Equal(t, m.ID, meta.MessageID)
		require.Equal(t, dst.ID, meta.SessionID)
	}
	got, err := s.GetSession(ctx, dst.ID)
	require.NoError(t, err)
	require.Equal(t, dst, got)
	msgs, err = s.ListMessages(ctx, src.ID)
	require.NoError(t, err)
	require.Equal(t, ids, messageIDs(msgs), "the source is left as it was")

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
	grandchild := child
	grandchild.ParentID, grandchild.ID = child.ID, id.New(id.Session)
	require.NoError(t, s.CreateSession(ctx, grandchild))
	other := newSession(t, s, 1)
	addMessage(t, s, parent, message.RoleUser, "x")
	addMessage(t, s, grandchild, message.RoleUser, "y")
	addMessage(t, s, other, message.RoleUser, "z")
	require.NoError(t, s.SetTodos(ctx, parent.ID, []store.Todo{{ID: "1", Content: "c", Status: "pending"}}))
	require.NoError(t, s.PutPendingRequest(ctx, store.PendingRequest{ID: "per_1", SessionID: parent.ID, OwnerID: 1, Data: json.RawMessage(`{}`), Created: time.Now()}))
	require.NoError(t, s.DeleteSession(ctx, parent.ID))
	for _, ss := range []store.Session{parent, child, grandchild} {
		_, err := s.GetSession(ctx, ss.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		msgs, err := s.ListMessages(ctx, ss.ID)
		require.NoError(t, err)
		require.Empty(t, msgs)
	}
	todos, err := s.GetTodos(ctx, parent.ID)
	require.NoError(t, err)
	require.Empty(t, todos)
	_, err = s.GetSession(ctx, other.ID)
	require.NoError(t, err, "an unrelated session stays")
	msgs, err := s.ListMessages(ctx, other.ID)
	require.NoError(t, err)
	require.Len(t, msgs, 1)
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
	created := time.Now()
	r1, err := s.AddRule(ctx, store.SavedRule{ProjectID: "p1", OwnerID: 1, Agent: "build", Tool: "bash", Pattern: "git*", Action: "allow", Created: created})
	require.NoError(t, err)
	require.Equal(t, time.UTC, r1.Created.Location())
	require.WithinDuration(t, created, r1.Created, time.Millisecond)
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
	require.Equal(t, []store.SavedRule{r1}, got, "a rule lists as AddRule returned it")
	got, err = s.ListRules(ctx, store.RuleFilter{OwnerID: 1, Agent: "build"})
	require.NoError(t, err)
	require.Len(t, got, 2)
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
	require.Equal(t, time.UTC, got[0].Created.Location())
	require.WithinDuration(t, now, got[0].Created, time.Millisecond)

	// An upsert replaces the data and keeps the creation time.
	require.NoError(t, s.PutPendingRequest(ctx, store.PendingRequest{ID: "per_a", SessionID: sess.ID, OwnerID: 7, Data: json.RawMessage(`{"tool":"read"}`), Created: now.Add(time.Hour)}))
	again, err := s.ListPendingRequests(ctx)
	require.NoError(t, err)
	require.Len(t, again, 2)
	require.Equal(t, []string{"per_a", "per_b"}, []string{again[0].ID, again[1].ID})
	require.JSONEq(t, `{"tool":"read"}`, string(again[0].Data))
	require.Equal(t, got[0].Created, again[0].Created)

	require.NoError(t, s.DeletePendingRequest(ctx, "per_a"))
	require.ErrorIs(t, s.DeletePendingRequest(ctx, "per_a"), store.ErrNotFound)
	require.NoError(t, s.DeletePendingRequest(ctx, "per_b"))
	got, err = s.ListPendingRequests(ctx)
	require.NoError(t, err)
	require.Nil(t, got, "no requests is a nil list")
}

// testImport: an imported session comes back with its messages, parts and todos as given;
// a conflicting ID stores nothing.
func testImport(t *testing.T, s store.Store) {
	ctx := t.Context()
	src := newSession(t, s, 1)
	dst := src
	dst.ID, dst.Title = id.New(id.Session), "imported"
	u := &message.Message{ID: id.New(id.Message), SessionID: dst.ID, Role: message.RoleUser, Created: time.Now().UTC()}
	u.Parts = []message.Part{&message.TextPart{PartMeta: message.PartMeta{ID: id.New(id.Part), MessageID: u.ID, SessionID: dst.ID,
		Type: message.TypeText}, Text: "hello"}}
	a := &message.Message{ID: id.New(id.Message), SessionID: dst.ID, Role: message.RoleAssistant, Created: time.Now().UTC(),
		Usage: message.Usage{OutputTokens: 3}}
	a.Parts = []message.Part{&message.TextPart{PartMeta: message.PartMeta{ID: id.New(id.Part), MessageID: a.ID, SessionID: dst.ID,
		Type: message.TypeText}, Text: "hi"}}
	todos := []store.Todo{{ID: "1", Content: "do", Status: "pending"}}
	require.NoError(t, s.ImportSession(ctx, dst, []*message.Message{u, a}, todos))
	got, err := s.GetSession(ctx, dst.ID)
	require.NoError(t, err)
	require.Equal(t, dst, got)
	msgs, err := s.ListMessages(ctx, dst.ID)
	require.NoError(t, err)
	require.Equal(t, []string{u.ID, a.ID}, messageIDs(msgs))
	require.Equal(t, "hi", msgs[1].Text())
	require.EqualValues(t, 3, msgs[1].Usage.OutputTokens)
	gotTodos, err := s.GetTodos(ctx, dst.ID)
	require.NoError(t, err)
	require.Equal(t, todos, gotTodos)

	again := dst
	again.ID = id.New(id.Session)
	require.Error(t, s.ImportSession(ctx, again, []*message.Message{u}, nil), "a message ID already stored")
	_, err = s.GetSession(ctx, again.ID)
	require.ErrorIs(t, err, store.ErrNotFound, "all or nothing")
}

// testQueue: queued prompts come back in the order they run, front ones first; deleting
// one, or the session, removes it.
func testQueue(t *testing.T, s store.Store) {
	ctx := t.Context()
	sess := newSession(t, s, 1)
	other := newSession(t, s, 1)
	q := func(text string, front bool, on store.Session) store.QueuedPrompt {
		p := store.QueuedPrompt{ID: id.New("que"), SessionID: on.ID, OwnerID: 1, Text: text, Agent: "build", Steer: front,
			Created: time.Now().UTC().Truncate(time.Millisecond)}
		require.NoError(t, s.QueuePrompt(ctx, p, front))
		return p
	}
	a := q("a", false, sess)
	b := q("b", false, sess)
	steer := q("steer", true, sess)
	o := q("o", false, other)
	got, err := s.ListQueued(ctx, sess.ID)
	require.NoError(t, err)
	require.Equal(t, []store.QueuedPrompt{steer, a, b}, got)
	all, err := s.ListQueued(ctx, "")
	require.NoError(t, err)
	require.Len(t, all, 4)
	require.NoError(t, s.DeleteQueued(ctx, a.ID))
	require.ErrorIs(t, s.DeleteQueued(ctx, a.ID), store.ErrNotFound)
	got, err = s.ListQueued(ctx, sess.ID)
	require.NoError(t, err)
	require.Equal(t, []store.QueuedPrompt{steer, b}, got)
	require.NoError(t, s.DeleteSession(ctx, sess.ID))
	all, err = s.ListQueued(ctx, "")
	require.NoError(t, err)
	require.Equal(t, []store.QueuedPrompt{o}, all)
	none, err := s.ListQueued(ctx, "ses_missing")
	require.NoError(t, err)
	require.NotNil(t, none)
	require.Empty(t, none)
}

// testUsage: one record per assistant message of the owner's sessions, with its session,
// project, model, time and usage.
func testUsage(t *testing.T, s store.Store) {
	ctx := t.Context()
	sess := newSession(t, s, 1)
	addMessage(t, s, sess, message.RoleUser, "hi")
	when := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	a := &message.Message{ID: id.New(id.Message), SessionID: sess.ID, Role: message.RoleAssistant, Model: "p/m", Created: when,
		Usage: message.Usage{InputTokens: 10, OutputTokens: 2, Cost: 0.25}}
	require.NoError(t, s.PutMessage(ctx, a))
	theirs := newSession(t, s, 2)
	require.NoError(t, s.PutMessage(ctx, &message.Message{ID: id.New(id.Message), SessionID: theirs.ID, Role: message.RoleAssistant,
		Created: when, Usage: message.Usage{InputTokens: 99}}))
	got, err := s.ListUsage(ctx, 1)
	require.NoError(t, err)
	require.Equal(t, []store.UsageRecord{{SessionID: sess.ID, ProjectID: sess.ProjectID, Model: "p/m", Created: when,
		Usage: message.Usage{InputTokens: 10, OutputTokens: 2, Cost: 0.25}}}, got)
	none, err := s.ListUsage(ctx, 3)
	require.NoError(t, err)
	require.Empty(t, none)
}
