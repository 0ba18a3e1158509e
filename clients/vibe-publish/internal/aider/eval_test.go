package aider

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// TestTranscriptEvaluation replays one half of the chats of the recorded aider histories that
// shared/vibe/testdata/eval/agents.jsonl lists (one record per "# aider chat started at"
// header) as vibe-publish publishes them (fixture.Replay), each chat as the history of a
// repository of its own:
//
//	go test ./internal/aider -run TestTranscriptEvaluation -eval.split=dev -eval.show -v
func TestTranscriptEvaluation(t *testing.T) {
	fixture.EvaluateAgent(t, "aider", "aider chats", func(rec fixture.AgentRecord, path string) (string, []vibe.Event, error) {
		repo := filepath.Join(t.TempDir(), "repo")
		history := filepath.Join(repo, HistoryFile)
		if err := os.Mkdir(repo, 0o755); err != nil {
			return "", nil, err
		}
		if err := os.WriteFile(history, []byte(chat(t, path, rec.Part)), 0o644); err != nil {
			return "", nil, err
		}
		var s fixture.Sink
		err := Run(t.Context(), Options{History: history}, s.Emit)
		return repo, s.Events(), err
	})
}

// chat is the part of a history from its header part (the n-th of equal headers when part
// ends in " (n)") to the next header.
func chat(t *testing.T, path, part string) string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	var out strings.Builder
	seen := map[string]int{}
	in := false
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "# aider chat started at") {
			h := strings.TrimSpace(l)
			seen[h]++
			name := h
			if seen[h] > 1 {
				name = h + " (" + strconv.Itoa(seen[h]) + ")"
			}
			in = name == part
		}
		if in {
			out.WriteString(l + "\n")
		}
	}
	require.NoError(t, sc.Err())
	require.NotZero(t, out.Len(), "no chat %q in %s", part, path)
	return out.String()
}
