package codex

import (
	"os"
	"path/filepath"
	"testing"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
)

// Rollouts the adapter was not written against (testdata/agents/codex/README.md): what must
// hold for any session.
func TestHeldBackRollouts(t *testing.T) {
	t.Parallel()
	dir := fixture.Unpack(t, fixture.Dir(2, "codex", "heldout"), t.TempDir())
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no held-back rollouts")
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			read := func() *fixture.Sink {
				var s fixture.Sink
				if err := Run(t.Context(), Options{Rollout: p}, s.Emit); err != nil {
					data, _ := os.ReadFile(p)
					t.Fatalf("%v (%d bytes)", err, len(data))
				}
				return &s
			}
			evs := read().Events()
			t.Logf("%v", fixture.Check(t, filepath.Base(p), evs))
			fixture.SameIDs(t, filepath.Base(p), evs, read().Events())
		})
	}
}
