package codex

import (
	"cmp"
	"testing"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// TestTranscriptEvaluation replays one half of the Codex rollouts that
// shared/vibe/testdata/eval/agents.jsonl lists as vibe-publish publishes them
// (fixture.Replay), the rollout's own cwd as the workspace root (the record's root for a
// rollout of the layout before 0.20, which names its cwd only in the environment context):
//
//	go test ./internal/codex -run TestTranscriptEvaluation -eval.split=dev -eval.show -v
func TestTranscriptEvaluation(t *testing.T) {
	fixture.EvaluateAgent(t, "codex", "Codex rollouts", func(rec fixture.AgentRecord, path string) (string, []vibe.Event, error) {
		var s fixture.Sink
		err := Run(t.Context(), Options{Rollout: path}, s.Emit)
		return cmp.Or(rolloutCwd(path), rec.Root), s.Events(), err
	})
}
