package main

// End-to-end tests of the coding-agent adapters: the vibe-publish binary reads each agent's
// files where the agent keeps them (recorded or written in the agent's exact format, see
// testdata/agents), publishes into a real server, and a viewer receives the frames.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"openvibe.live/backend/clients/vibe-publish/internal/fixture"
	"openvibe.live/backend/shared/vibe"
)

type agentCase struct {
	name, slug string
	settings   string // slot settings to set first, as JSON
	// args builds the adapter and its flags from a directory the fixtures were unpacked into.
	args func(t *testing.T, dir string) []string
	// check looks at what viewers got.
	check func(t *testing.T, frames []vibe.ViewerFrame)
}

func unpack(t *testing.T, agent, set string) string {
	t.Helper()
	return fixture.Unpack(t, filepath.Join("testdata", "agents", agent, set), t.TempDir())
}

var agentCases = []agentCase{
	{name: "claude-code 1.0.51 after cd test/", slug: "claude-one", settings: `{"show_tool_arguments":1,"redact_file_paths":0}`,
		args: func(t *testing.T, _ string) []string {
			d := unpack(t, "claude-code", "tuned")
			return []string{"claude-code", "--transcript", filepath.Join(d, "-Users-dain-workspace-claude-code-log", "37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl")}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Contains(t, filePaths(frames), "claude_code_log/renderer.py", "relative to the project root, not to test/")
			sums := summariesOf(frames)
			for _, s := range sums {
				require.NotRegexp(t, toolNameOnly, s, "a tool summary that says nothing")
			}
			require.Contains(t, sums, "Read claude_code_log/renderer.py")
		}},
	{name: "claude-code 2.1.39 with a sub-agent and compaction", slug: "claude-two",
		args: func(t *testing.T, _ string) []string {
			d := unpack(t, "claude-code", "tuned")
			return []string{"claude-code", "--claude-dir", claudeDir(t, d, "-home-USER-projects-spotter-worktrees-spotter-dov"),
				"--project", "/home/USER/projects/spotter-worktrees/spotter-dov"}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, 1, count(frames, vibe.TypeSessionStatus), "the compaction")
			require.Equal(t, 2, count(frames, vibe.TypePrompt), "the compact summary is no prompt")
		}},
	{name: "claude-code 2.1.114 whose edits are all sub-agents'", slug: "claude-subagents",
		args: func(t *testing.T, _ string) []string {
			d := unpack(t, "claude-code", "tuned")
			return []string{"claude-code", "--transcript", filepath.Join(d, "-experiments-worktrees", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, 14, count(frames, vibe.TypeFileChange))
		}},
	{name: "codex", slug: "codex",
		args: func(t *testing.T, _ string) []string {
			home := t.TempDir()
			fixture.Unpack(t, filepath.Join("testdata", "agents", "codex", "own"), filepath.Join(home, "sessions"))
			return []string{"codex", "--codex-home", home, "--project", "/home/streamer/src/nightbus"}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, []string{"parse.go", "wrap_test.go", "legacy_wrap.go", "parse.go"}, filePaths(frames), "apply_patch: one file.change per file")
		}},
	{name: "gemini", slug: "gemini",
		args: func(t *testing.T, _ string) []string {
			return []string{"gemini", "--gemini-dir", unpack(t, "gemini", "own"), "--project", "/home/streamer/src/nightbus"}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, []string{"parse.go", "wrap_test.go"}, filePaths(frames))
		}},
	{name: "gemini 0.1x recorded", slug: "gemini-real",
		args: func(t *testing.T, _ string) []string {
			return []string{"gemini", "--gemini-dir", unpack(t, "gemini", "tuned"), "--project", "/home/mischa"}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.NotZero(t, count(frames, vibe.TypeFileChange))
		}},
	{name: "aider", slug: "aider",
		args: func(t *testing.T, _ string) []string {
			d := unpack(t, "aider", "own")
			return []string{"aider", "--history", filepath.Join(d, ".aider.chat.history.md")}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, []string{"wrap_test.go", "parse.go", "format.go"}, filePaths(frames))
			require.Equal(t, 2, count(frames, vibe.TypeSessionStatus), "the two commits")
		}},
	{name: "opencode", slug: "opencode",
		args: func(t *testing.T, _ string) []string {
			return []string{"opencode", "--opencode-dir", unpack(t, "opencode", "own"), "--project", "/home/streamer/src/nightbus"}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, []string{"parse.go", "wrap_test.go"}, filePaths(frames))
		}},
	{name: "auto picks the agent", slug: "auto",
		args: func(t *testing.T, _ string) []string {
			return []string{"auto", "--opencode-dir", unpack(t, "opencode", "own"), "--project", "/home/streamer/src/nightbus"}
		},
		check: func(t *testing.T, frames []vibe.ViewerFrame) {
			require.Equal(t, []string{"parse.go", "wrap_test.go"}, filePaths(frames))
		}},
}

// claudeDir makes a Claude config dir whose projects/ holds one unpacked project directory.
func claudeDir(t *testing.T, unpacked, project string) string {
	t.Helper()
	dir := t.TempDir()
	fixture.Unpack(t, filepath.Join("testdata", "agents", "claude-code", "tuned", project), filepath.Join(dir, "projects", project))
	return dir
}

func TestAgentsReachViewers(t *testing.T) {
	s := startServer(t)
	for _, c := range agentCases {
		t.Run(c.name, func(t *testing.T) {
			slotID := s.newSlot(t, c.slug)
			if c.settings != "" {
				s.call(t, "PUT", fmt.Sprintf("/api/vibe-coding/managed/%d/settings", slotID), s.jwt, `{"settings":`+c.settings+`}`, 200, nil)
			}
			v := watchSlot(t, s, c.slug)
			args := append([]string{"--server", s.base, "--token", s.token, "--slot", c.slug}, c.args(t, "")...)
			args = append(args, "--once")

			// What viewers should get: every event the adapter makes but thinking, which the
			// slot's default settings hide.
			dry, err := publish(t, nil, append([]string{"--dry-run", "--quiet"}, args[6:]...)...)
			require.NoError(t, err, dry)
			evs := decode(t, dry)
			require.NotEmpty(t, evs)
			visible := 0
			for _, ev := range evs {
				if ev.EventType != vibe.TypeThinking {
					visible++
				}
			}

			out, err := publish(t, nil, args...)
			require.NoError(t, err, out)
			require.Contains(t, out, fmt.Sprintf("%d events sent, %d acked, 0 dropped, 0 rejected", len(evs), len(evs)))
			frames := v.waitFrames(t, visible)
			checkFrames(t, frames)
			c.check(t, frames)

			// Publishing the session again stores nothing new and shows viewers nothing new.
			out, err = publish(t, nil, args...)
			require.NoError(t, err, out)
			v.waitFrames(t, visible)
			require.Len(t, s.historyOf(t, slotID), len(evs), "each event stored once")
			var feed struct {
				Publisher struct {
					IntegrationLabel string `json:"integrationLabel"`
				} `json:"publisher"`
			}
			s.call(t, "GET", "/api/vibe-coding/channel/ada/"+c.slug+"/events", "", "", 200, &feed)
			require.Equal(t, evs[0].Source.Channel, map[string]string{"Claude Code": "claude-code", "Codex CLI": "codex", "Gemini CLI": "gemini-cli",
				"aider": "aider", "opencode": "opencode"}[feed.Publisher.IntegrationLabel], "viewers see which agent it is")
		})
	}
}

// checkFrames: no prompt the streamer did not type, every tool call that started finished.
func checkFrames(t *testing.T, frames []vibe.ViewerFrame) {
	t.Helper()
	open := map[string]int{}
	for _, f := range frames {
		ev := f.Event
		switch ev.EventType {
		case vibe.TypePrompt:
			require.NotRegexp(t, fixture.Invented, ev.Prompt.Text)
		case vibe.TypeToolCall:
			if ev.Tool.Phase == "start" {
				open[ev.Tool.Name]++
			} else {
				open[ev.Tool.Name]--
			}
		}
	}
	for name, n := range open {
		require.LessOrEqual(t, n, 0, "%d %s calls never finished", n, name)
	}
}

func decode(t *testing.T, out string) []vibe.Event {
	t.Helper()
	var evs []vibe.Event
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var ev vibe.Event
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev), sc.Text())
		evs = append(evs, ev)
	}
	return evs
}

func count(frames []vibe.ViewerFrame, typ string) int {
	n := 0
	for _, f := range frames {
		if f.Event.EventType == typ {
			n++
		}
	}
	return n
}

func filePaths(frames []vibe.ViewerFrame) []string {
	var out []string
	for _, f := range frames {
		if f.Event.EventType == vibe.TypeFileChange {
			out = append(out, f.Event.File.RelativePath)
		}
	}
	return out
}

var toolNameOnly = regexp.MustCompile(`^(Running|Used) \S+$`)

func summariesOf(frames []vibe.ViewerFrame) []string {
	var out []string
	for _, f := range frames {
		out = append(out, f.Event.Summary)
	}
	return out
}
