package claudecode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"openvibe.live/backend/clients/vibe-publish/internal/follow"
	"openvibe.live/backend/shared/vibe"
)

// reader reads one session: its transcript and its sub-agents' transcripts.
type reader struct {
	opt    Options
	main   string
	root   string
	agents map[string]string // 2.0 agent-*.jsonl beside the session → its sessionId
}

type emitFunc func(context.Context, vibe.Event) error

// readSession publishes a session's transcript and those of its sub-agents. Without Follow it
// reads them as they are, merged in time order; with it, it then keeps following them (and
// sub-agents that start later) until stop says a newer session began.
func readSession(ctx context.Context, opt Options, path string, history bool, stop func() bool, emit emitFunc) error {
	if err := checkTranscript(path); err != nil {
		return err
	}
	r := &reader{opt: opt, main: path, root: projectRoot(opt, path), agents: map[string]string{}}
	files := append([]string{path}, r.subagents()...)
	if !opt.Follow {
		if opt.OnTranscript != nil {
			opt.OnTranscript(path)
		}
		_, err := r.snapshot(ctx, files, false, emit)
		return err
	}
	var counts map[string]int64
	var err error
	if history { // what is there now was already shown while it happened
		counts, err = lineCounts(files)
	} else {
		counts, err = r.snapshot(ctx, files, true, emit)
	}
	if err != nil {
		return err
	}
	if opt.OnTranscript != nil { // after counting: anything written from now on is published
		opt.OnTranscript(path)
	}
	return r.followAll(ctx, files, counts, history, stop, emit)
}

// projectRoot is the directory Claude Code was started in (the first cwd of the transcript),
// else the project directory asked for.
func projectRoot(opt Options, path string) string {
	if cwd := TranscriptCwd(path); cwd != "" {
		return cwd
	}
	if opt.ProjectDir != "" {
		if abs, err := filepath.Abs(opt.ProjectDir); err == nil {
			return abs
		}
	}
	return ""
}

// checkTranscript refuses a file none of whose first lines is a transcript line.
func checkTranscript(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	seen, recognized := 0, false
	_ = follow.Reader(context.Background(), f, follow.Options{}, func(raw []byte, _ int64) error {
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		seen++
		var l line
		if json.Unmarshal(raw, &l) == nil && l.transcriptLike() {
			recognized = true
			return errStop
		}
		if seen >= 100 {
			return errStop
		}
		return nil
	})
	if seen > 0 && !recognized {
		return fmt.Errorf("%w: no line of %s has the type and sessionId of a transcript line (Claude Code keeps them in ~/.claude/projects/)", ErrNotTranscript, path)
	}
	return nil
}

func (r *reader) mapper(path string) *Mapper {
	if path == r.main {
		return NewMapper(r.root)
	}
	return NewSidechainMapper(r.root)
}

func (r *reader) bad(path string, n int64, err error) {
	if r.opt.OnBadLine != nil {
		r.opt.OnBadLine(path, n, err)
	}
}

// snapshot maps what the files hold now and emits it in time order. complete leaves out a
// last line that has no line break yet (it is being written). It returns how many lines of
// each file it read.
func (r *reader) snapshot(ctx context.Context, files []string, complete bool, emit emitFunc) (map[string]int64, error) {
	type timed struct {
		at string
		ev vibe.Event
	}
	var all []timed
	counts := map[string]int64{}
	for _, f := range files {
		m, last := r.mapper(f), ""
		add := func(evs []vibe.Event) {
			for _, ev := range evs {
				if ev.OccurredAt != "" {
					last = ev.OccurredAt
				}
				all = append(all, timed{last, ev})
			}
		}
		err := follow.Lines(ctx, f, follow.Options{
			Follow: complete, Stop: func() bool { return true }, MaxLine: r.opt.maxLine,
			OnSkip:     func(n int64, err error) { r.bad(f, n, err) },
			OnLongLine: func(n int64, head []byte) { counts[f] = n; add(m.LongLine(head)) },
		}, func(raw []byte, n int64) error {
			counts[f] = n
			if len(bytes.TrimSpace(raw)) == 0 {
				return nil
			}
			evs, err := m.Line(raw)
			if err != nil {
				r.bad(f, n, err)
			}
			add(evs)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read transcript %s: %w", f, err)
		}
		if !complete { // read to its end: no result will come for what is still open
			add(m.Close())
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	for _, t := range all {
		if err := emit(ctx, t.ev); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// lineCounts counts the complete lines of each file.
func lineCounts(files []string) (map[string]int64, error) {
	counts := map[string]int64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read transcript: %w", err)
		}
		counts[f] = int64(bytes.Count(data, []byte{'\n'}))
	}
	return counts, nil
}

// followAll follows the session's transcript until stop or an error, and each sub-agent's
// beside it, picking up sub-agents that start later. Lines up to counts[file] were handled
// already: they are mapped again (later lines refer to them) but not emitted.
func (r *reader) followAll(ctx context.Context, files []string, counts map[string]int64, reportHistory bool, stop func() bool, emit emitFunc) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	safeEmit := func(ctx context.Context, ev vibe.Event) error {
		mu.Lock()
		defer mu.Unlock()
		return emit(ctx, ev)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	started := map[string]bool{}
	start := func(f string, seen int64) {
		started[f] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.followFile(ctx, f, seen, reportHistory, nil, safeEmit); err != nil && ctx.Err() == nil {
				select {
				case errs <- err:
				default:
				}
				cancel()
			}
		}()
	}
	for _, f := range files[1:] {
		start(f, counts[f])
	}
	wg.Add(1)
	go func() { // sub-agents that start later are published whole
		defer wg.Done()
		t := time.NewTicker(max(r.opt.Poll*4, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				for _, f := range r.subagents() {
					if !started[f] {
						start(f, 0)
					}
				}
			}
		}
	}()
	err := r.followFile(ctx, r.main, counts[r.main], reportHistory, stop, safeEmit)
	cancel()
	wg.Wait()
	select {
	case e := <-errs:
		if err == nil || err == context.Canceled {
			err = e
		}
	default:
	}
	return err
}

func (r *reader) followFile(ctx context.Context, path string, seen int64, reportHistory bool, stop func() bool, emit emitFunc) error {
	m := r.mapper(path)
	var longErr error
	out := func(evs []vibe.Event) error {
		for _, ev := range evs {
			if err := emit(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	}
	err := follow.Lines(ctx, path, follow.Options{
		Follow: true, Poll: r.opt.Poll, Stop: stop, MaxLine: r.opt.maxLine,
		OnSkip: func(n int64, err error) {
			if n > seen || reportHistory {
				r.bad(path, n, err)
			}
		},
		OnLongLine: func(n int64, head []byte) {
			if evs := m.LongLine(head); n > seen && longErr == nil {
				longErr = out(evs)
			}
		},
	}, func(raw []byte, n int64) error {
		if longErr != nil {
			return longErr
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		evs, err := m.Line(raw)
		if err != nil && (n > seen || reportHistory) {
			r.bad(path, n, err)
		}
		if n <= seen {
			return nil
		}
		return out(evs)
	})
	if err == nil {
		err = longErr
	}
	if err == nil && stop != nil { // a newer session began
		err = out(m.Close())
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("read transcript %s: %w", path, err)
	}
	return err
}

// subagents lists the transcripts of the session's sub-agents: <session>/subagents/**/agent-*.jsonl
// (2.1) and the agent-*.jsonl beside the session whose lines carry its session id (2.0). The
// compaction agent (agent-acompact-*) only summarizes the conversation and is left out.
func (r *reader) subagents() []string {
	dir := filepath.Dir(r.main)
	id := strings.TrimSuffix(filepath.Base(r.main), ".jsonl")
	var out []string
	_ = filepath.WalkDir(filepath.Join(dir, id, "subagents"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && agentFile(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() || !agentFile(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		sid, ok := r.agents[p]
		if !ok {
			sid = firstSessionID(p)
			if sid != "" {
				r.agents[p] = sid
			}
		}
		if sid == id {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func agentFile(name string) bool {
	return strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(name, "agent-acompact-")
}

// firstSessionID is the sessionId of a transcript's first line that has one.
func firstSessionID(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	id := ""
	_ = follow.Reader(context.Background(), f, follow.Options{}, func(raw []byte, n int64) error {
		var l line
		if json.Unmarshal(raw, &l) == nil && l.SessionID != "" {
			id = l.SessionID
			return errStop
		}
		if n >= 20 {
			return errStop
		}
		return nil
	})
	return id
}
