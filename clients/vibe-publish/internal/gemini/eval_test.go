package gemini

import (
	"testing"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// TestTranscriptEvaluation replays one half of the recorded Gemini CLI sessions that
// shared/vibe/testdata/eval/agents.jsonl lists as vibe-publish publishes them
// (fixture.Replay), the project directory each was recorded in as the workspace root:
//
//	go test ./internal/gemini -run TestTranscriptEvaluation -eval.split=dev -eval.show -v
func TestTranscriptEvaluation(t *testing.T) {
	fixture.EvaluateAgent(t, "gemini", "Gemini CLI sessions", func(rec fixture.AgentRecord, path string) (string, []vibe.Event, error) {
		var s fixture.Sink
		err := Run(t.Context(), Options{Session: path, ProjectDir: rec.Root}, s.Emit)
		return rec.Root, s.Events(), err
	})
}
