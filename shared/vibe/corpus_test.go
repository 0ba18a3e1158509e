package vibe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite generated files under testdata")

const positiveCorpusFile = "testdata/corpus/positive.jsonl"

func loadPositiveCorpus(t testing.TB) []corpusCase {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(positiveCorpusFile, marshalCorpus(positiveCorpus()), 0o644))
	}
	f, err := os.Open(positiveCorpusFile)
	require.NoError(t, err)
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c corpusCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		out = append(out, c)
	}
	require.NoError(t, sc.Err())
	return out
}

// leaks reports whether out holds any 8-character piece of secret (the whole secret when it
// is shorter).
func leaks(out, secret string) bool {
	for _, line := range strings.Split(secret, "\n") {
		if len(line) <= 8 {
			if line != "" && strings.Contains(out, line) {
				return true
			}
			continue
		}
		for i := 0; i+8 <= len(line); i++ {
			if strings.Contains(out, line[i:i+8]) {
				return true
			}
		}
	}
	return false
}

// negativeChunks splits the negative corpus into event-sized texts.
func negativeChunks(t testing.TB, dir string) (chunks []string, size int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata/corpus", dir, "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		size += len(b)
		for len(b) > 0 {
			n := min(len(b), 4096)
			if i := bytes.LastIndexByte(b[:n], '\n'); i > 0 && n == 4096 {
				n = i + 1
			}
			chunks = append(chunks, string(b[:n]))
			b = b[n:]
		}
	}
	return chunks, size
}

type corpusStats struct {
	secrets, caught map[string]int
	events, leaking int
	failures        []string
}

func TestSanitizerCorpus(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	cases := loadPositiveCorpus(t)

	st := corpusStats{secrets: map[string]int{}, caught: map[string]int{}}
	pathFail, urlFail := 0, 0
	for _, c := range cases {
		hints := SessionHints{}
		if c.Hints != nil {
			hints = *c.Hints
		}
		out := san.NewSession(hints).SanitizeText(c.Text)
		st.events++
		leaked := false
		for _, sec := range c.Secrets {
			st.secrets[c.Class]++
			if leaks(out, sec) {
				leaked = true
				st.failures = append(st.failures, fmt.Sprintf("%s: secret survived:\n  in:  %q\n  out: %q", c.Name, c.Text, out))
			} else {
				st.caught[c.Class]++
			}
		}
		if leaked {
			st.leaking++
		}
		for _, g := range c.Gone {
			if strings.Contains(out, g) {
				pathFail++
				st.failures = append(st.failures, fmt.Sprintf("%s: %q survived in %q", c.Name, g, out))
			}
		}
		for _, k := range c.Keep {
			if !strings.Contains(out, k) {
				urlFail++
				st.failures = append(st.failures, fmt.Sprintf("%s: %q was changed in %q", c.Name, k, out))
			}
		}
	}
	for _, f := range st.failures {
		t.Log(f)
	}

	fr := map[string]float64{}
	for _, dir := range []string{"code", "prose"} {
		chunks, size := negativeChunks(t, dir)
		ss := san.NewSession(SessionHints{})
		n := 0
		for _, ch := range chunks {
			out := ss.SanitizeText(ch)
			if k := strings.Count(out, "[redacted") - strings.Count(ch, "[redacted"); k > 0 {
				n += k
				for _, line := range strings.Split(out, "\n") {
					if strings.Contains(line, "[redacted") {
						t.Logf("false redaction in %s: %q", dir, line)
					}
				}
			}
		}
		fr[dir] = float64(n) / (float64(size) / (1 << 20))
	}

	recall := func(class string) float64 {
		return 100 * float64(st.caught[class]) / float64(max(st.secrets[class], 1))
	}
	leakPct := 100 * float64(st.leaking) / float64(st.events)
	t.Logf("corpus: %d events; known-format recall %.2f%% (%d/%d); keyword-context recall %.2f%% (%d/%d); leaking events %.2f%%; false redactions %.2f/MB code, %.2f/MB prose; path failures %d; changed URLs/relative paths %d",
		st.events, recall("known"), st.caught["known"], st.secrets["known"], recall("keyword"), st.caught["keyword"], st.secrets["keyword"],
		leakPct, fr["code"], fr["prose"], pathFail, urlFail)

	require.Equal(t, 100.0, recall("known"), "known-format secrets caught")
	require.GreaterOrEqual(t, recall("keyword"), 98.0, "keyword-context secrets caught")
	require.Less(t, leakPct, 0.5, "events leaking a secret")
	require.LessOrEqual(t, fr["code"], 5.0, "false redactions per MB of code")
	require.LessOrEqual(t, fr["prose"], 1.0, "false redactions per MB of prose")
	require.Zero(t, pathFail, "home paths and user names removed")
	require.Zero(t, urlFail, "URLs and relative paths unchanged")
}
