package vibe

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/zricethezav/gitleaks/v8/detect"
)

// benchTexts returns 4 KB event texts: Go source, prose, source with two secrets in it,
// agent output packed with secrets (the worst case), and a tool call's JSON arguments
// writing a file.
func benchTexts(b testing.TB) map[string]string {
	b.Helper()
	code, _ := negativeChunks(b, "code")
	prose, _ := negativeChunks(b, "prose")
	var mixed strings.Builder
	for _, c := range loadPositiveCorpus(b) {
		if mixed.Len() > 4096 {
			break
		}
		mixed.WriteString(c.Text)
		mixed.WriteString("\n")
	}
	fit := func(s string) string {
		for len(s) < 4096 {
			s += "\n" + s
		}
		return s[:4096]
	}
	cases := loadPositiveCorpus(b)
	terminal := cases[0].Text + "\n" + code[7] + "\n" + cases[40].Text
	// A tool call's arguments: a file written through the tool, JSON-escaped, one secret in it.
	args, _ := json.Marshal(map[string]string{"file_path": "internal/server/config.go", "content": cases[0].Text + "\n" + code[5]})
	return map[string]string{"code": fit(code[3]), "prose": fit(prose[5]), "terminal": fit(terminal), "secrets": fit(mixed.String()),
		"json": fit(string(args))}
}

// BenchmarkGitleaksRules measures gitleaks' detector on 4 KB texts with every default rule
// and without generic-api-key, over the whole text and over 512-byte line chunks (as the
// sanitizer calls it). It reports the median CPU time of one call.
func BenchmarkGitleaksRules(b *testing.B) {
	texts := benchTexts(b)
	for _, variant := range []struct {
		name string
		drop []string
	}{{"all-rules", nil}, {"without-generic-api-key", []string{gitleaksGenericRule}}} {
		d, err := newGitleaksDetector(variant.drop...)
		if err != nil {
			b.Fatal(err)
		}
		for _, kind := range []string{"code", "prose", "secrets"} {
			text := texts[kind]
			for _, chunked := range []bool{false, true} {
				name := variant.name + "/" + kind + "/whole"
				if chunked {
					name = variant.name + "/" + kind + "/chunked"
				}
				b.Run(name, func(b *testing.B) {
					b.SetBytes(int64(len(text)))
					measureCPU(b, func() {
						if !chunked {
							d.DetectContext(context.Background(), detect.Fragment{Raw: text})
							return
						}
						for off := 0; off < len(text); {
							end := chunkEnd(text, off)
							d.DetectContext(context.Background(), detect.Fragment{Raw: text[off:end]})
							off = end
						}
					})
				})
			}
		}
	}
}

// measureCPU runs fn b.N times on a locked thread and reports the p50 and p99 of its CPU
// time and the p99 of its wall time. Wall-clock latency suffers from other processes on a
// shared machine; thread CPU time is what one call costs one core.
func measureCPU(b *testing.B, fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	for b.Loop() {
		start, startCPU := time.Now(), threadCPU()
		fn()
		cpu = append(cpu, threadCPU()-startCPU)
		wall = append(wall, time.Since(start))
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds()), "p50-cpu-µs")
	b.ReportMetric(float64(cpu[len(cpu)*99/100].Microseconds()), "p99-cpu-µs")
	b.ReportMetric(float64(wall[len(wall)*99/100].Microseconds()), "p99-wall-µs")
}

// BenchmarkSanitizeEvent measures a whole 4 KB response event and reports the p50 and p99
// latency of single calls.
func BenchmarkSanitizeEvent(b *testing.B) {
	san, err := NewSanitizer()
	if err != nil {
		b.Fatal(err)
	}
	texts := benchTexts(b)
	for _, kind := range []string{"code", "prose", "terminal", "secrets", "json"} {
		ev := Event{EventID: "e1", EventType: TypeResponse, Summary: "Explained the change",
			Response: &ResponseBody{Text: texts[kind]}}
		b.Run(kind, func(b *testing.B) {
			ss := san.NewSession(SessionHints{WorkspaceName: "openvibe"})
			b.SetBytes(int64(len(texts[kind])))
			measureCPU(b, func() { ss.SanitizeEvent(ev) })
		})
	}
}

// BenchmarkSanitizeParallel runs sessions concurrently to show the sanitizer scales without
// lock contention.
func BenchmarkSanitizeParallel(b *testing.B) {
	san, err := NewSanitizer()
	if err != nil {
		b.Fatal(err)
	}
	text := benchTexts(b)["secrets"]
	b.SetBytes(int64(len(text)))
	b.RunParallel(func(pb *testing.PB) {
		ss := san.NewSession(SessionHints{})
		for pb.Next() {
			ss.SanitizeText(text)
		}
	})
}

// threadCPU is the CPU time used so far by the calling OS thread
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID), Linux).
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// BenchmarkSanitizeTypicalEvent measures the event the gateway benchmark publishes: the
// protocol document's response example, with a one-line summary and text, its source and
// metadata. Most live events look like it, so its cost bounds the gateway's throughput.
func BenchmarkSanitizeTypicalEvent(b *testing.B) {
	san, err := NewSanitizer()
	if err != nil {
		b.Fatal(err)
	}
	line := "Refactored the publish server to sanitize Copilot events before viewer fanout."
	ev := Event{Version: 1, EventID: "p1-1", SessionKey: "bench", EventType: TypeResponse, Visibility: VisibilityPublic,
		Depth: "standard", OccurredAt: "2026-04-21T23:10:01.099Z", Summary: line,
		Source:   &Source{Channel: "chat-session", RawType: "request.response"},
		Response: &ResponseBody{Text: line},
		Metadata: &EventMetadata{RequestID: "req-123", ResponseID: "resp-456", Model: "gpt-5.4"}}
	ss := san.NewSession(SessionHints{WorkspaceName: "openvibe"})
	measureCPU(b, func() { ss.SanitizeEvent(ev) })
}

// BenchmarkProjectPersonal measures what a viewer's copy of a 4 KB tool result costs with
// the personal-data pass on (the default) and off: Project runs once per event and room.
func BenchmarkProjectPersonal(b *testing.B) {
	texts := benchTexts(b)
	for _, kind := range []string{"code", "terminal"} {
		ev := Event{EventID: "e", EventType: TypeToolCall, Summary: "Bash finished",
			Tool: &ToolBody{Name: "Bash", Phase: "end", ArgumentsPreview: `{"command":"git log -3"}`, ResultPreview: texts[kind]}}
		for _, on := range []int{1, 0} {
			s := DefaultSettings()
			s.ShowToolArguments, s.MaxToolChars, s.RedactPersonalData = 1, 1200, on
			b.Run(fmt.Sprintf("%s/personal=%d", kind, on), func(b *testing.B) {
				measureCPU(b, func() { Project(&ev, s) })
			})
		}
	}
}
