package cli

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
