package claudecode

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

// Real Claude Code transcripts from public repositories (shared/vibe/testdata/eval/
// transcripts.jsonl and agents.jsonl name each one's repository, commit, path and licence, and
// its split), replayed as vibe-publish publishes them (fixture.Replay). Run one half with
//
//	go test ./internal/claudecode -run TestTranscriptEvaluation -eval.split=dev -eval.show -v

type transcriptRecord struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Split  string `json:"split"`
	File   string `json:"file"`
}

// TestTranscriptEvaluation replays one half of the transcripts of the evaluation corpus and of
// the other repositories' sessions that agents.jsonl lists, and
// enforces on the held-back half: at most 1% of the events altered by a false secret
// redaction; on every transcript: no home path, account name or e-mail address reaches a
// viewer, no provider id is redacted.
func TestTranscriptEvaluation(t *testing.T) {
	require.Contains(t, []string{"dev", "held"}, *fixture.EvalSplit)
	san, err := vibe.NewSanitizer()
	require.NoError(t, err)

	tallies := fixture.Tallies{}
	for _, rec := range loadTranscriptRecords(t) {
		if rec.Split == *fixture.EvalSplit {
			replayTranscript(t, san, filepath.Join(fixture.EvalDir, rec.File), tallies.Of(rec.Source))
		}
	}
	for _, rec := range fixture.AgentRecords(t, "claude-code") {
		replayTranscript(t, san, filepath.Join(fixture.EvalDir, rec.File), tallies.Of(rec.Source))
	}
	tallies.Report(t, "Claude Code transcripts")
}

func loadTranscriptRecords(t *testing.T) []transcriptRecord {
	t.Helper()
	out := fixture.ReadJSONL[transcriptRecord](t, "transcripts.jsonl")
	require.NotEmpty(t, out)
	return out
}

// replayTranscript publishes one transcript as vibe-publish and the gateway would: the
// transcript's working directory is the workspace root.
func replayTranscript(t *testing.T, san *vibe.Sanitizer, path string, tl *fixture.Tally) {
	t.Helper()
	f, err := fixture.OpenMaybeGzip(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)

	m := NewMapper("")
	var r *fixture.Replay
	for sc.Scan() {
		raw := sc.Bytes()
		var l line
		if json.Unmarshal(raw, &l) != nil {
			continue
		}
		if r == nil && l.Cwd != "" {
			r = fixture.NewReplay(san, tl, l.Cwd)
		}
		tl.LearnAccount(l.Cwd)
		evs, err := m.Line(raw)
		if err != nil || r == nil {
			continue
		}
		for _, ev := range evs {
			r.Event(t, ev)
		}
	}
	require.NoError(t, sc.Err())
}
