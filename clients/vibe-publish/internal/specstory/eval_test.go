package specstory

import (
	"os"
	"path/filepath"
	"testing"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// TestTranscriptEvaluation replays one half of the recorded SpecStory histories that
// shared/vibe/testdata/eval/agents.jsonl lists (one record per history file, a repository's
// all in one half) as vibe-publish publishes them (fixture.Replay), each saved in the
// .specstory/history/ of a project of its own. A history does not say where its project was,
// so the project is that directory, as for aider's histories:
//
//	go test ./internal/specstory -run TestTranscriptEvaluation -eval.split=dev -eval.show -v
func TestTranscriptEvaluation(t *testing.T) {
	fixture.EvaluateAgent(t, "specstory", "SpecStory histories", func(rec fixture.AgentRecord, path string) (string, []vibe.Event, error) {
		project := filepath.Join(t.TempDir(), "project")
		dir := filepath.Join(project, HistoryDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, err
		}
		history := filepath.Join(dir, filepath.Base(path))
		if err := os.Rename(path, history); err != nil {
			return "", nil, err
		}
		var s fixture.Sink
		err := Run(t.Context(), Options{History: history}, s.Emit)
		return project, s.Events(), err
	})
}
