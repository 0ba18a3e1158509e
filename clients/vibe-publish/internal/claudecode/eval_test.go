package claudecode

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/shared/vibe"
)

// Real Claude Code transcripts from public repositories (shared/vibe/testdata/eval/
// transcripts.jsonl names each one's repository, commit, path and licence, and its split),
// replayed as vibe-publish publishes them: the mapper, the publisher's sanitizer (with the
// transcript's working directory as the workspace root), then the gateway's (with only the
// hello's workspace and machine names), then what a viewer sees with every setting switched
// on. Run one half with
//
//	go test ./internal/claudecode -run TestTranscriptEvaluation -eval.split=dev -eval.show -v
var (
	evalSplit = flag.String("eval.split", "held", "which half of the transcripts to measure: dev or held")
	evalShow  = flag.Bool("eval.show", false, "print every false redaction and leak (development half only)")
)

const evalDir = "../../../../shared/vibe/testdata/eval"

type transcriptRecord struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Split  string `json:"split"`
	File   string `json:"file"`
}

// everything is the viewer settings with every kind of event and detail shown.
func everything() vibe.Settings {
	s := vibe.DefaultSettings()
	s.ShowThinking, s.ShowToolArguments, s.ShowFileSnippets, s.RedactFilePaths = 1, 1, 1, 0
	s.MaxPromptChars, s.MaxResponseChars, s.MaxThinkingChars, s.MaxToolChars, s.MaxSnippetChars = 1200, 2400, 1200, 1200, 1200
	s.ViewerDepth = vibe.DepthDeep
	return s
}

var (
	// homeUser finds the account names of home directories in the original text.
	homeUser = regexp.MustCompile(`(?:/Users/|/home/|[Cc]:\\\\?Users\\\\?)([A-Za-z0-9._-]{2,40})`)
	emailRe  = regexp.MustCompile(`[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,12}\b`)
	// secretMark is a redaction of a secret class; personal-data marks are not counted as
	// false redactions.
	secretMark = regexp.MustCompile(`\[redacted:(?:token|password|credential|webhook|private-key|high-entropy)\]`)
)

// notPersonal are account names and mail addresses that identify nobody.
var notPersonal = []string{"runner", "user", "ubuntu", "root", "admin", "shared", "username", "you", "me", "name", "example", "node", "app"}

func personalEmail(e string) bool {
	l := strings.ToLower(e)
	for _, d := range []string{"@example.", "@users.noreply.", "noreply@", "no-reply@", "@localhost", "@anthropic.com", "git@", "@test.", ".test", ".invalid", ".local"} {
		if strings.Contains(l, d) {
			return false
		}
	}
	at := strings.IndexByte(l, '@')
	return at > 0 && !slices.Contains(notPersonal, l[:at])
}

type transcriptTally struct {
	events, altered          int // events; harmless events with a secret redaction
	homeEvents, homeLeaks    int // events with a home path or account name; viewer saw one
	emailEvents, emailLeaks  int
	idEvents, idRedacted     int // events with a provider id in metadata; ids changed
	markSamples, leakSamples []string
	accounts                 map[string]bool
}

// TestTranscriptEvaluation replays one half of the transcripts and enforces on the
// held-back half: at most 1% of the events altered by a false secret redaction; on every
// transcript: no home path, account name or e-mail address reaches a viewer, no provider id
// is redacted.
func TestTranscriptEvaluation(t *testing.T) {
	require.Contains(t, []string{"dev", "held"}, *evalSplit)
	show := *evalShow && *evalSplit == "dev"
	san, err := vibe.NewSanitizer()
	require.NoError(t, err)

	recs := loadTranscriptRecords(t)
	tallies := map[string]*transcriptTally{}
	for _, rec := range recs {
		if rec.Split != *evalSplit {
			continue
		}
		tl := tallies[rec.Source]
		if tl == nil {
			tl = &transcriptTally{accounts: map[string]bool{}}
			tallies[rec.Source] = tl
		}
		replayTranscript(t, san, filepath.Join(evalDir, rec.File), tl)
	}
	require.NotEmpty(t, tallies)

	var report strings.Builder
	fmt.Fprintf(&report, "transcripts, %s half:\n", *evalSplit)
	all := &transcriptTally{}
	for _, src := range slices.Sorted(func(yield func(string) bool) {
		for k := range tallies {
			if !yield(k) {
				return
			}
		}
	}) {
		tl := tallies[src]
		all.events += tl.events
		all.altered += tl.altered
		all.homeEvents += tl.homeEvents
		all.homeLeaks += tl.homeLeaks
		all.emailEvents += tl.emailEvents
		all.emailLeaks += tl.emailLeaks
		all.idEvents += tl.idEvents
		all.idRedacted += tl.idRedacted
		fmt.Fprintf(&report, "  %-24s %s\n", src, tl.figures())
		if show {
			for _, s := range tl.markSamples {
				t.Logf("ALTERED %s: %s", src, s)
			}
			for _, s := range tl.leakSamples {
				t.Logf("LEAK %s: %s", src, s)
			}
		}
	}
	fmt.Fprintf(&report, "  %-24s %s\n", "all", all.figures())
	t.Log(report.String())

	for src, tl := range tallies {
		require.Zerof(t, tl.homeLeaks, "%s: home paths or account names shown to viewers", src)
		require.Zerof(t, tl.emailLeaks, "%s: e-mail addresses shown to viewers", src)
		require.Zerof(t, tl.idRedacted, "%s: provider ids redacted", src)
		if *evalSplit == "held" {
			require.LessOrEqualf(t, 100*float64(tl.altered)/float64(max(tl.events, 1)), 1.0, "%s: harmless events altered", src)
		}
	}
}

func (tl *transcriptTally) figures() string {
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	return fmt.Sprintf("%d events: %.2f%% altered by a false redaction (%d); home paths/account names shown in %d of %d (%.2f%% removed); e-mails shown in %d of %d; provider ids redacted in %d of %d",
		tl.events, pct(tl.altered, tl.events), tl.altered, tl.homeLeaks, tl.homeEvents, 100-pct(tl.homeLeaks, tl.homeEvents), tl.emailLeaks, tl.emailEvents, tl.idRedacted, tl.idEvents)
}

func loadTranscriptRecords(t *testing.T) []transcriptRecord {
	t.Helper()
	f, err := os.Open(filepath.Join(evalDir, "transcripts.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []transcriptRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r transcriptRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	return out
}

// replayTranscript publishes one transcript as vibe-publish and the gateway would and
// tallies what a viewer sees.
func replayTranscript(t *testing.T, san *vibe.Sanitizer, path string, tl *transcriptTally) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)

	m := NewMapper("")
	var client, gateway *vibe.SessionSanitizer
	settings := everything()
	for sc.Scan() {
		raw := sc.Bytes()
		var l line
		if json.Unmarshal(raw, &l) != nil {
			continue
		}
		if client == nil && l.Cwd != "" {
			// As vibe-publish: the transcript's working directory is the workspace root; the
			// hello names the workspace and the machine, which is all the gateway knows.
			client = san.NewSession(vibe.SessionHints{WorkspaceName: filepath.Base(l.Cwd), WorkspaceRoots: []string{l.Cwd}})
			gateway = san.NewSession(vibe.SessionHints{WorkspaceName: filepath.Base(l.Cwd)})
		}
		if u := homeUser.FindStringSubmatch(l.Cwd); u != nil && !slices.Contains(notPersonal, strings.ToLower(u[1])) {
			tl.accounts[u[1]] = true
		}
		evs, err := m.Line(raw)
		if err != nil || client == nil {
			continue
		}
		for _, ev := range evs {
			sent := client.SanitizeEvent(ev)
			// Through the wire: the gateway parses what it receives.
			b, err := json.Marshal(sent)
			require.NoError(t, err)
			parsed, err := vibe.ParseEvent(b)
			if err != nil {
				continue
			}
			stored := gateway.SanitizeEvent(parsed)
			shown := vibe.Project(&stored, settings)
			tallyEvent(tl, ev, stored, shown)
		}
	}
	require.NoError(t, sc.Err())
}

func eventText(ev *vibe.Event) string {
	if ev == nil {
		return ""
	}
	parts := []string{ev.Summary}
	if ev.Prompt != nil {
		parts = append(parts, ev.Prompt.Text)
	}
	if ev.Response != nil {
		parts = append(parts, ev.Response.Text)
	}
	if ev.Thinking != nil {
		parts = append(parts, ev.Thinking.Text)
	}
	if ev.Tool != nil {
		parts = append(parts, ev.Tool.Name, ev.Tool.ArgumentsPreview, ev.Tool.ResultPreview)
	}
	if ev.File != nil {
		parts = append(parts, ev.File.Name, ev.File.RelativePath)
		if ev.File.Snippet != nil {
			parts = append(parts, *ev.File.Snippet)
		}
	}
	if ev.Status != nil {
		parts = append(parts, ev.Status.Message)
	}
	return strings.Join(parts, "\n")
}

func tallyEvent(tl *transcriptTally, orig, stored vibe.Event, shown *vibe.Event) {
	tl.events++
	in := eventText(&orig)
	out := eventText(shown)
	if n := len(secretMark.FindAllString(out, -1)); n > 0 {
		tl.altered++
		if len(tl.markSamples) < 400 {
			tl.markSamples = append(tl.markSamples, fmt.Sprintf("%q", markContext(eventText(&stored), out)))
		}
	}
	// Home paths and account names.
	users := map[string]bool{}
	for u := range tl.accounts {
		if strings.Contains(in, u) {
			users[u] = true
		}
	}
	for _, m := range homeUser.FindAllStringSubmatch(in, -1) {
		if !slices.Contains(notPersonal, strings.ToLower(m[1])) {
			users[m[1]] = true
		}
	}
	if len(users) > 0 {
		tl.homeEvents++
		for u := range users {
			if wordIn(out, u) {
				tl.homeLeaks++
				if len(tl.leakSamples) < 200 {
					tl.leakSamples = append(tl.leakSamples, fmt.Sprintf("account %q in %q", u, around(out, u)))
				}
				break
			}
		}
	}
	// E-mail addresses.
	var mails []string
	for _, e := range emailRe.FindAllString(in, -1) {
		if personalEmail(e) {
			mails = append(mails, e)
		}
	}
	if len(mails) > 0 {
		tl.emailEvents++
		for _, e := range mails {
			if strings.Contains(out, e) {
				tl.emailLeaks++
				if len(tl.leakSamples) < 200 {
					tl.leakSamples = append(tl.leakSamples, fmt.Sprintf("e-mail %q in %q", e, around(out, e)))
				}
				break
			}
		}
	}
	// Provider ids pass unchanged.
	if md := orig.Metadata; md != nil && (md.RequestID != "" || md.ResponseID != "") {
		tl.idEvents++
		if shown != nil && shown.Metadata != nil && (shown.Metadata.RequestID != md.RequestID || shown.Metadata.ResponseID != md.ResponseID) {
			tl.idRedacted++
			tl.leakSamples = append(tl.leakSamples, fmt.Sprintf("ids %q %q → %q %q", md.RequestID, md.ResponseID, shown.Metadata.RequestID, shown.Metadata.ResponseID))
		}
	}
}

// wordIn reports w in s as a whole word.
func wordIn(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		e := i + len(w)
		if (i == 0 || !wordByte(s[i-1])) && (e >= len(s) || !wordByte(s[e])) {
			return true
		}
		from = e
	}
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func around(s, w string) string {
	i := strings.Index(s, w)
	if i < 0 {
		return ""
	}
	return s[max(0, i-60):min(len(s), i+len(w)+60)]
}

// markContext shows each secret redaction with the stored marker (which names the rule) and
// some text around it.
func markContext(stored, shown string) string {
	var parts []string
	for _, loc := range regexp.MustCompile(`\[redacted:[a-z-]+/[a-z0-9-]+\]`).FindAllStringIndex(stored, 4) {
		parts = append(parts, stored[max(0, loc[0]-70):min(len(stored), loc[1]+40)])
	}
	return strings.Join(parts, " … ")
}
