// Package opencode follows opencode sessions in its file storage and maps them to canonical
// vibe-coding events.
//
// opencode keeps one JSON file per record under $XDG_DATA_HOME/opencode/storage (by default
// ~/.local/share/opencode/storage): project/<project id>.json (its worktree),
// session/<project id>/<session id>.json (directory, parentID for a sub-agent's session),
// message/<session id>/<message id>.json (role, model, time) and
// part/<message id>/<part id>.json: text, reasoning, tool (callID, tool, state with status
// pending, running, completed or error, input, output, metadata), file, step-start,
// step-finish, patch, compaction, subtask. Ids sort in creation order. A part is written again
// as it changes (text streams in, a tool call finishes); the adapter reads again what changed
// and publishes what is new, part id by part id.
package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ErrNoSession means the project has no opencode session (and not following).
var ErrNoSession = errors.New("no opencode session found")

// StorageDir is opencode's storage directory.
func StorageDir(dataDir string) string {
	if dataDir == "" {
		dataDir = os.Getenv("XDG_DATA_HOME")
		if dataDir == "" {
			if h, err := os.UserHomeDir(); err == nil {
				dataDir = filepath.Join(h, ".local", "share")
			}
		}
		dataDir = filepath.Join(dataDir, "opencode")
	}
	return filepath.Join(dataDir, "storage")
}

type projectInfo struct {
	ID       string `json:"id"`
	Worktree string `json:"worktree"`
}

type sessionInfo struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectID"`
	Directory string `json:"directory"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
	Time      struct {
		Created int64 `json:"created"`
		Updated int64 `json:"updated"`
	} `json:"time"`
}

type messageInfo struct {
	ID         string `json:"id"`
	SessionID  string `json:"sessionID"`
	Role       string `json:"role"`
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
	Model      *struct {
		ModelID string `json:"modelID"`
	} `json:"model"`
	Time struct {
		Created   int64 `json:"created"`
		Completed int64 `json:"completed"`
	} `json:"time"`
}

type part struct {
	ID        string          `json:"id"`
	MessageID string          `json:"messageID"`
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Synthetic bool            `json:"synthetic"`
	Ignored   bool            `json:"ignored"`
	Tool      string          `json:"tool"`
	CallID    string          `json:"callID"`
	State     *toolState      `json:"state"`
	Auto      bool            `json:"auto"`
	Files     []string        `json:"files"`
	Time      *partTime       `json:"time"`
	Raw       json.RawMessage `json:"-"`
}

type partTime struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

type toolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input"`
	Output   string          `json:"output"`
	Error    string          `json:"error"`
	Title    string          `json:"title"`
	Metadata json.RawMessage `json:"metadata"`
	Time     *partTime       `json:"time"`
}

// final reports whether a part will not change any more. done says its message is complete.
func (p part) final(done bool) bool {
	switch p.Type {
	case "tool":
		return p.State != nil && (p.State.Status == "completed" || p.State.Status == "success" || p.State.Status == "error")
	case "text", "reasoning":
		return done || (p.Time != nil && p.Time.End > 0)
	}
	return true
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// Newest returns the project's most recently updated session (not a sub-agent's) and its
// session file.
func Newest(storage, project string) (string, time.Time, error) {
	ids := projectIDs(storage, project)
	var best string
	var bestMod time.Time
	for _, pid := range ids {
		files, _ := filepath.Glob(filepath.Join(storage, "session", pid, "*.json"))
		for _, f := range files {
			var s sessionInfo
			if readJSON(f, &s) != nil || s.ParentID != "" || !belongs(s, pid, project) {
				continue
			}
			mod := time.UnixMilli(max(s.Time.Updated, s.Time.Created))
			if info, err := os.Stat(f); err == nil && info.ModTime().After(mod) {
				mod = info.ModTime()
			}
			if m, ok := lastMessage(storage, s.ID); ok && m.After(mod) {
				mod = m
			}
			if best == "" || mod.After(bestMod) {
				best, bestMod = f, mod
			}
		}
	}
	if best == "" {
		return "", time.Time{}, fmt.Errorf("%w for %s in %s (pass --session FILE or --project DIR)", ErrNoSession, project, storage)
	}
	return best, bestMod, nil
}

// projectIDs are the opencode projects whose worktree holds dir, and "global" (sessions
// outside a git repository), whose sessions record their directory.
func projectIDs(storage, dir string) []string {
	files, _ := filepath.Glob(filepath.Join(storage, "project", "*.json"))
	var ids []string
	for _, f := range files {
		var p projectInfo
		if readJSON(f, &p) == nil && p.Worktree != "" && p.Worktree != "/" && within(dir, p.Worktree) {
			ids = append(ids, strings.TrimSuffix(filepath.Base(f), ".json"))
		}
	}
	return append(ids, "global")
}

// belongs reports whether a session ran in the project: in it or below it, or (inside a git
// repository that holds the project) above it.
func belongs(s sessionInfo, pid, project string) bool {
	if s.Directory == "" {
		return pid != "global"
	}
	return within(s.Directory, project) || (pid != "global" && within(project, s.Directory))
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// lastMessage is when the session's newest message file was written.
func lastMessage(storage, session string) (time.Time, bool) {
	entries, err := os.ReadDir(filepath.Join(storage, "message", session))
	if err != nil || len(entries) == 0 {
		return time.Time{}, false
	}
	info, err := entries[len(entries)-1].Info()
	if err != nil {
		return time.Time{}, false
	}
	return info.ModTime(), true
}

// sortedJSON lists the .json files of a directory in id (creation) order.
func sortedJSON(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// Written measures how much a session holds (its file, its messages and the parts of its
// newest message, in bytes), so that a caller can tell a session being written to from one
// whose files were only touched.
func Written(sessionFile string) int64 {
	info, err := os.Stat(sessionFile)
	if err != nil {
		return 0
	}
	n := info.Size()
	var s sessionInfo
	if readJSON(sessionFile, &s) != nil || s.ID == "" {
		return n
	}
	storage := filepath.Dir(filepath.Dir(filepath.Dir(sessionFile)))
	messages := sortedJSON(filepath.Join(storage, "message", s.ID))
	for _, m := range messages {
		if info, err := os.Stat(m); err == nil {
			n += info.Size()
		}
	}
	if len(messages) > 0 {
		last := strings.TrimSuffix(filepath.Base(messages[len(messages)-1]), ".json")
		for _, p := range sortedJSON(filepath.Join(storage, "part", last)) {
			if info, err := os.Stat(p); err == nil {
				n += info.Size()
			}
		}
	}
	return n
}
