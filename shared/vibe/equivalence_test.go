package vibe

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A change meant only to make the sanitizer faster must not change one output. The
// equivalence check sanitizes every text it has (both halves of the evaluation corpora, the
// agent contexts, the public transcripts line by line and every string in them, the
// project's corpus and the benchmark inputs) and writes one hash per text; run it on the
// build before the change with -equiv.write and on the change with -equiv.check:
//
//	go test ./vibe -run TestSanitizerEquivalence -equiv.write /tmp/equiv.txt   # before
//	go test ./vibe -run TestSanitizerEquivalence -equiv.check /tmp/equiv.txt   # after
//
// A held-back example that differs is counted, never printed.
var (
	equivWrite = flag.String("equiv.write", "", "write the hash of every sanitized text to this file")
	equivCheck = flag.String("equiv.check", "", "compare every sanitized text's hash with this file")
)

type equivText struct {
	key    string   // stable name of the text
	held   bool     // a held-back example: its text is never printed
	before []string // texts the same session sanitized first
	text   string
}

func TestSanitizerEquivalence(t *testing.T) {
	if *equivWrite == "" && *equivCheck == "" {
		t.Skip("needs -equiv.write or -equiv.check")
	}
	san, err := NewSanitizer()
	require.NoError(t, err)
	// A text that runs out of time comes out as Redacted, which depends on the machine's
	// load, not on the build.
	san.timeout = time.Hour
	texts := equivalenceTexts(t)
	got := make(map[string]string, len(texts))
	var keys []string
	for _, e := range texts {
		ss := san.NewSession(SessionHints{WorkspaceName: "openvibe"})
		h := sha256.New()
		for _, b := range e.before {
			fmt.Fprintf(h, "%q\n", ss.SanitizeText(b))
		}
		out := ss.SanitizeText(e.text)
		fmt.Fprintf(h, "%q\n", out)
		// The event path too: the same text as a response body and a tool result.
		ev := ss.SanitizeEvent(Event{EventID: "e", EventType: TypeToolCall, Summary: "ran",
			Tool: &ToolBody{Name: "Bash", Phase: "end", ArgumentsPreview: `{"command":"cat"}`, ResultPreview: e.text}})
		b, err := json.Marshal(ev)
		require.NoError(t, err)
		h.Write(b)
		if _, dup := got[e.key]; dup {
			t.Fatalf("duplicate key %s", e.key)
		}
		got[e.key] = hex.EncodeToString(h.Sum(nil))[:24]
		keys = append(keys, e.key)
	}
	if *equivWrite != "" {
		var sb strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&sb, "%s\t%s\n", got[k], k)
		}
		require.NoError(t, os.WriteFile(*equivWrite, []byte(sb.String()), 0o644))
		t.Logf("wrote %d hashes to %s", len(keys), *equivWrite)
		return
	}
	want := map[string]string{}
	b, err := os.ReadFile(*equivCheck)
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		h, k, ok := strings.Cut(line, "\t")
		require.True(t, ok, line)
		want[k] = h
	}
	held := map[string]bool{}
	byKey := map[string]equivText{}
	for _, e := range texts {
		held[e.key] = e.held
		byKey[e.key] = e
	}
	diffs, heldDiffs, missing := 0, 0, 0
	for _, k := range keys {
		w, ok := want[k]
		switch {
		case !ok:
			missing++
		case w != got[k] && held[k]:
			heldDiffs++
		case w != got[k]:
			diffs++
			if diffs <= 20 {
				t.Errorf("output changed: %s", k)
			}
		}
	}
	t.Logf("%d texts, %d differ (%d held-back), %d not in %s", len(keys), diffs+heldDiffs, heldDiffs, missing, *equivCheck)
	require.Zero(t, diffs+heldDiffs, "outputs differ")
	require.Zero(t, missing, "texts missing from the golden file")
	require.Len(t, want, len(keys), "golden file has other texts")
}

func equivalenceTexts(t *testing.T) []equivText {
	var out []equivText
	for _, e := range loadEvalExamples(t, evalSecretsFile, evalContextsFile) {
		out = append(out, equivText{key: "eval/" + e.ID, held: e.Split == "held", before: e.Before, text: e.Text})
	}
	files, err := filepath.Glob("testdata/eval/transcripts/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 16<<20), 16<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			key := fmt.Sprintf("transcript/%s:%d", filepath.Base(name), n)
			out = append(out, equivText{key: key, text: line})
			var v any
			if json.Unmarshal([]byte(line), &v) != nil {
				continue
			}
			var strs []string
			collectStrings(v, &strs)
			for i, s := range strs {
				if len(s) >= 8 {
					out = append(out, equivText{key: fmt.Sprintf("%s/%d", key, i), text: s})
				}
			}
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	for i, c := range loadPositiveCorpus(t) {
		out = append(out, equivText{key: fmt.Sprintf("corpus/positive/%d", i), text: c.Text})
	}
	for _, dir := range []string{"code", "prose"} {
		chunks, _ := negativeChunks(t, dir)
		for i, c := range chunks {
			out = append(out, equivText{key: fmt.Sprintf("corpus/%s/%d", dir, i), text: c})
		}
	}
	bench := benchTexts(t)
	for _, k := range slices.Sorted(maps.Keys(bench)) {
		out = append(out, equivText{key: "bench/" + k, text: bench[k]})
	}
	return out
}

func collectStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			collectStrings(e, out)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			collectStrings(x[k], out)
		}
	}
}
