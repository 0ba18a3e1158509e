package codex

import (
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// TestTranscriptEvaluation replays one half of the Codex rollouts that
// shared/vibe/testdata/eval/agents.jsonl lists as vibe-publish publishes them
// (fixture.Replay), the rollout's own cwd as the workspace root:
//
//	go test ./internal/codex -run TestTranscriptEvaluation -eval.split=dev -eval.show -v
func TestTranscriptEvaluation(t *testing.T) {
	san, err := vibe.NewSanitizer()
	require.NoError(t, err)
	tallies := fixture.Tallies{}
	for _, rec := range fixture.AgentRecords(t, "codex") {
		p := fixture.SessionFile(t, rec, t.TempDir())
		r := fixture.NewReplay(san, tallies.Of(rec.Source), rolloutCwd(p))
		var s fixture.Sink
		require.NoError(t, Run(t.Context(), Options{Rollout: p}, s.Emit), rec.ID)
		for _, ev := range s.Events() {
			r.Event(t, ev)
		}
	}
	tallies.Report(t, "Codex rollouts")
}
