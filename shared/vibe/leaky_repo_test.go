package vibe

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Leaky Repo (Plazmaz/leaky-repo at 2e95135, MIT, testdata/eval/leaky-repo/LICENSE) is a
// public benchmark for secret scanners: 44 files of the kinds that leak from real projects
// (shell profiles, registry and cloud credentials, database dumps and clients, FTP and SFTP
// clients, web configs, keys), with the number of lines in each that present a risk and the
// number that are informative (user names, hosts, times) in its secrets.csv. Its benchmark
// files report other scanners on it (total finds over risk + informative lines, 175): gitleaks
// 127/175 (72.57%, 17 lines beyond a file's count), detect-secrets 41/175 (23.43%, 0),
// truffleHog 40/175 (22.86%, 43). Its two Firefox SQLite databases are binary and not copied.
//
// Each file is one event (cut at 4000 bytes like any other), as `cat` prints it. A line is
// found when it gains a redaction mark; a file's finds count up to its labelled lines, and
// finds beyond are counted apart, the way the benchmark counts them. The whole set is held
// back: no rule is fitted to it, and only the totals are printed.
func TestLeakyRepo(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "eval", "leaky-repo")
	f, err := os.Open(filepath.Join(dir, "secrets.csv"))
	require.NoError(t, err)
	defer f.Close()
	san, err := NewSanitizer()
	require.NoError(t, err)

	var files, covered, risk, total, riskFound, found, beyond, beyondRisk int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, ",")
		require.Len(t, cols, 3, line)
		nRisk, err1 := strconv.Atoi(cols[1])
		nInfo, err2 := strconv.Atoi(cols[2])
		require.NoError(t, err1)
		require.NoError(t, err2)
		b, err := os.ReadFile(filepath.Join(dir, "files", filepath.FromSlash(cols[0])))
		require.NoError(t, err, "a file secrets.csv names is missing")
		files++
		risk += nRisk
		total += nRisk + nInfo
		masked := 0
		ss := san.NewSession(SessionHints{})
		for _, c := range sourceChunks(string(b), 4000) {
			out := ss.SanitizeText(c)
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "[redacted") {
					masked++
				}
			}
		}
		if masked > 0 {
			covered++
		}
		found += min(masked, nRisk+nInfo)
		beyond += max(0, masked-(nRisk+nInfo))
		riskFound += min(masked, nRisk)
		beyondRisk += max(0, masked-nRisk)
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 44, files)
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(b) }
	t.Logf("leaky-repo: files covered %d/%d (%.2f%%); the benchmark's total finds %d/%d (%.2f%%), %d lines beyond a file's count; risk lines %d/%d (%.2f%%), %d masked lines beyond them",
		covered, files, pct(covered, files), found, total, pct(found, total), beyond, riskFound, risk, pct(riskFound, risk), beyondRisk)
	// The floor: just short of the last build measured, so a fall is a regression.
	require.GreaterOrEqual(t, pct(riskFound, risk), leakyRepoRiskFloor, "risk lines found fell below their floor")
}

// leakyRepoRiskFloor is the share of Leaky Repo's risk lines found, in percent, below which a
// build regresses.
const leakyRepoRiskFloor = 78.0
