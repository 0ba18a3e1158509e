package cli

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"openvibe.live/backend/shared/vibe"
)

func TestSwitcherFollowsTheSessionWrittenTo(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	claude := candidate{adapter: "claude-code", label: "Claude Code", path: "/c/a.jsonl", mod: t0, size: 1000}
	codex := candidate{adapter: "codex", label: "Codex CLI", path: "/x/r.jsonl", mod: t0.Add(-time.Hour), size: 500}
	s := newSwitcher(claude, []candidate{claude, codex}, 3*time.Second)
	at := func(c candidate, mod time.Duration, size int64) candidate {
		c.mod, c.size = t0.Add(mod), size
		return c
	}

	// Codex's old session is only touched: newer by far, but nothing new in it.
	require.False(t, s.consider([]candidate{at(claude, 0, 1000), at(codex, time.Minute, 500)}))
	// It is written to, but Claude Code is too (within the margin): Claude Code keeps it.
	require.False(t, s.consider([]candidate{at(claude, 59*time.Second, 1200), at(codex, time.Minute, 600)}))
	// Claude Code stays quiet while Codex writes: Codex takes over.
	require.True(t, s.consider([]candidate{at(claude, 59*time.Second, 1200), at(codex, 63*time.Second, 700)}))
	next, ok := s.take()
	require.True(t, ok)
	require.Equal(t, codex.path, next.path)
	_, ok = s.take()
	require.False(t, ok, "taken once")

	// Claude Code's transcript touched since: it does not take the stream back.
	require.False(t, s.consider([]candidate{at(claude, 2*time.Minute, 1200), at(codex, 63*time.Second, 700)}))
	// Both written to, Codex last: it stays.
	require.False(t, s.consider([]candidate{at(claude, 2*time.Minute+time.Second, 1300), at(codex, 2*time.Minute+2*time.Second, 800)}))

	// A new Claude Code session appears: the first look has nothing to compare it with.
	fresh := candidate{adapter: "claude-code", label: "Claude Code", path: "/c/b.jsonl", mod: t0.Add(3 * time.Minute), size: 300}
	require.False(t, s.consider([]candidate{fresh, at(codex, 2*time.Minute+2*time.Second, 800)}))
	// It grows, Codex quiet: it takes over, and the old one is no longer anyone's newest.
	require.True(t, s.consider([]candidate{at(fresh, 3*time.Minute+2*time.Second, 900), at(codex, 2*time.Minute+2*time.Second, 800)}))
	next, _ = s.take()
	require.Equal(t, "/c/b.jsonl", next.path)

	// The followed session itself growing never switches.
	require.False(t, s.consider([]candidate{at(fresh, 4*time.Minute, 2000), at(codex, 2*time.Minute+2*time.Second, 800)}))
}

func TestSwitcherStopLooksEverySoOften(t *testing.T) {
	t0 := time.Now()
	a := candidate{adapter: "claude-code", path: "/a", mod: t0, size: 10}
	b := candidate{adapter: "codex", path: "/b", mod: t0, size: 10}
	s := newSwitcher(a, []candidate{a, b}, time.Second)
	looks := 0
	grow := func() []candidate {
		looks++
		b.size += 10
		b.mod = b.mod.Add(10 * time.Second)
		return []candidate{a, b}
	}
	stop := s.stop(grow)
	require.True(t, stop(), "the first call looks")
	require.True(t, stop(), "and keeps saying so until taken")
	require.Equal(t, 1, looks)
	_, ok := s.take()
	require.True(t, ok)
	require.False(t, stop(), "no second look within autoPoll")
	require.Equal(t, 1, looks)
}

func TestAutoEmitterPublishesEachEventOnce(t *testing.T) {
	start := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	a := &autoRun{started: start, first: vibe.Publisher{IntegrationID: "claude-code"},
		seen: map[string]map[string]bool{"/c/a.jsonl": {"held": true}}, keys: map[string]string{"/c/a.jsonl": ""}}
	var got []vibe.Event
	emit := func(_ context.Context, ev vibe.Event) error { got = append(got, ev); return nil }
	ev := func(id string, at time.Time) vibe.Event {
		return vibe.Event{EventID: id, OccurredAt: at.Format(time.RFC3339Nano)}
	}
	ctx := context.Background()

	// The session followed first: what it held at start is not sent, the rest once, under the
	// run's key and without a publisher of its own.
	claude := a.emitter(candidate{adapter: "claude-code", path: "/c/a.jsonl"},
		adapter{publisher: vibe.Publisher{IntegrationID: "claude-code"}}, emit)
	require.NoError(t, claude(ctx, ev("held", start.Add(-time.Hour))))
	require.NoError(t, claude(ctx, ev("new", start.Add(-time.Hour)))) // written since, about an earlier moment
	require.NoError(t, claude(ctx, ev("new", start.Add(-time.Hour))))
	require.Len(t, got, 1)
	require.Equal(t, "new", got[0].EventID)
	require.Empty(t, got[0].SessionKey)
	require.Nil(t, got[0].Publisher)

	// A session first looked at later (an old one resumed): only what happened since the start.
	codex := a.emitter(candidate{adapter: "codex", path: "/x/r.jsonl"},
		adapter{publisher: vibe.Publisher{IntegrationID: "codex", IntegrationLabel: "Codex CLI", Vendor: "OpenAI", ClientType: "cli"}}, emit)
	require.NoError(t, codex(ctx, ev("yesterday", start.Add(-24*time.Hour))))
	require.NoError(t, codex(ctx, ev("now", start.Add(time.Minute))))
	require.Len(t, got, 2)
	require.Equal(t, "now", got[1].EventID)
	require.NotEmpty(t, got[1].SessionKey, "a session key of its own")
	require.Equal(t, "Codex CLI", got[1].Publisher.IntegrationLabel)

	// Going back to it: the same key, nothing sent twice.
	again := a.emitter(candidate{adapter: "codex", path: "/x/r.jsonl"}, adapter{publisher: vibe.Publisher{IntegrationID: "codex"}}, emit)
	require.NoError(t, again(ctx, ev("now", start.Add(time.Minute))))
	require.NoError(t, again(ctx, ev("later", start.Add(time.Hour))))
	require.Len(t, got, 3)
	require.Equal(t, got[1].SessionKey, got[2].SessionKey)

	// With --replay, a session's whole past is published.
	a.replay = true
	old := a.emitter(candidate{adapter: "gemini", path: "/g/s.json"}, adapter{publisher: vibe.Publisher{IntegrationID: "gemini-cli"}}, emit)
	require.NoError(t, old(ctx, ev("last-year", start.AddDate(-1, 0, 0))))
	require.Len(t, got, 4)
}
