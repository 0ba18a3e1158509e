package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"openvibe.live/backend/shared/platform"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/config"
	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/permission"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/runner"
)

type cli struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	// publish, when set (serve --publish-*), streams every session to a slot.
	publish *runner.PublishTarget
}

// parse parses flags that may come before or after positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageErrorf("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func (c *cli) dbPath(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if v := c.getenv("OPENVIBE_DB"); v != "" {
		return v
	}
	base := c.getenv("XDG_DATA_HOME")
	if base == "" {
		base = filepath.Join(c.getenv("HOME"), ".local", "share")
	}
	return filepath.Join(base, "openvibe", "openvibe.db")
}

func (c *cli) open(ctx context.Context, db, model string, log *slog.Logger) (*runner.Runner, error) {
	path := c.dbPath(db)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	pw, err := randomPassword()
	if err != nil {
		return nil, err
	}
	return runner.New(ctx, runner.Deps{Logger: log, Database: path, LocalPassword: pw,
		GlobalConfig: config.DefaultGlobalPath(c.getenv), TrustProject: true, DefaultModel: model, Getenv: c.getenv,
		SnapshotDir: c.getenv("OPENVIBE_SNAPSHOT_DIR"), Publish: c.publish,
		// The user's own machine: web_fetch and links may reach local servers (web_fetch still
		// asks by default).
		AllowPrivateNetwork: true})
}

func randomPassword() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// localBodyLimit lets a local server take whole session exports (POST /agent/session/import).
const localBodyLimit = 64 << 20

// serve runs the server bound to loopback with a random (or given) password.
func (c *cli) serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", cmp.Or(c.getenv("OPENVIBE_ADDR"), "127.0.0.1:4096"), "listen address (loopback only)")
	pw := fs.String("password", c.getenv("OPENVIBE_SERVER_PASSWORD"), "password (default: random, printed)")
	db := fs.String("db", "", "state database")
	model := fs.String("model", "", "default provider/model")
	pubServer := fs.String("publish-server", "", "stream every session live to this OpenVibe.Live server")
	pubToken := fs.String("publish-token", c.getenv("OPENVIBE_PUBLISH_TOKEN"), "hbt_ token with the vibe_coding_publish scope")
	pubStream := fs.Int64("publish-stream", 0, "managed stream (slot) id to publish to")
	pubSlot := fs.String("publish-slot", "", "slot slug (optional check)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *pubServer != "" || *pubStream != 0 {
		c.publish = &runner.PublishTarget{Server: *pubServer, Token: *pubToken, ManagedStreamID: *pubStream, SlotSlug: *pubSlot}
		if err := c.publish.Validate(); err != nil {
			return usageErrorf("--publish-*: %v", err)
		}
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usageErrorf("--addr: %v", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usageErrorf("--addr %s: openvibe serve only listens on loopback; use the agent-runner service to host for others", *addr)
	}
	log := platform.NewLogger(c.stderr, "info", "text")
	r, err := c.open(ctx, *db, *model, log)
	if err != nil {
		return err
	}
	defer r.Close()
	password := *pw
	if password == "" {
		if password, err = randomPassword(); err != nil {
			return err
		}
	}
	r.SetLocalPassword(password)
	return platform.Serve(ctx, platform.ServeOptions{Addr: *addr, Logger: log, Services: []platform.Service{r},
		BodyLimit: localBodyLimit,
		Ready:     []platform.Check{{Name: "store", Fn: r.Store().Ping}},
		OnListen: func(a string) {
			fmt.Fprintf(c.stdout, "openvibe listening on http://%s/agent/\npassword: %s\n(send it as \"Authorization: Bearer <password>\")\n", a, password)
		}})
}

// runPrompt runs one headless turn; asks are answered by policy (deny, or allow with --yes).
// --format text streams the answer to stdout and tool activity to stderr; ndjson writes every
// event of the turn (its subagents' too) as a JSON line as it happens, then a run.finished
// line; json writes one document when the turn ends. The exit code says how it went.
func (c *cli) runPrompt(ctx context.Context, args []string, sessionID string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	agentName := fs.String("agent", "", "agent (default: the session's, or build)")
	model := fs.String("model", "", "provider/model")
	sess := fs.String("session", sessionID, "continue this session")
	dir := fs.String("dir", "", "working directory (default: the current one)")
	yes := fs.Bool("yes", false, "approve every permission ask (default: deny them)")
	db := fs.String("db", "", "state database")
	format := fs.String("format", "text", "output: text, json or ndjson")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" && *format != "ndjson" {
		return usageErrorf("run: --format %q: want text, json or ndjson", *format)
	}
	if len(pos) == 0 || strings.TrimSpace(strings.Join(pos, " ")) == "" {
		return usageErrorf("run: a prompt is required")
	}
	prompt := strings.Join(pos, " ")
	log := slog.New(slog.DiscardHandler)
	r, err := c.open(ctx, *db, *model, log)
	if err != nil {
		return err
	}
	defer r.Close()
	s, err := c.pickSession(ctx, r, *sess, *dir, *agentName)
	if err != nil {
		return err
	}
	policy := permission.HeadlessDeny
	if *yes {
		policy = permission.HeadlessAllow
	}
	sub := r.Bus().Subscribe(4096, func(e bus.Event) bool { return e.OwnerID == runner.LocalUserID })
	var printed *sync.WaitGroup
	switch *format {
	case "text":
		printed = c.print(sub, s.ID)
	case "ndjson":
		printed = c.printEvents(sub, s.ID)
	default:
		printed = c.drain(sub)
	}
	_, turnErr := r.Engine().Prompt(ctx, s, engine.PromptInput{Text: prompt, Agent: *agentName, Model: *model, Policy: policy})
	sub.Close()
	printed.Wait()
	res, err := c.result(ctx, r, s.ID, turnErr)
	if err != nil {
		return err
	}
	switch *format {
	case "text":
		fmt.Fprintf(c.stderr, "\nsession %s (continue with: openvibe sessions resume %s \"…\")\n", s.ID, s.ID)
	case "ndjson":
		line, _ := json.Marshal(bus.Event{Type: "run.finished", SessionID: s.ID, Time: time.Now().UTC(), Properties: res.summary()})
		fmt.Fprintf(c.stdout, "%s\n", line)
	default:
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	return res.err()
}

func (c *cli) pickSession(ctx context.Context, r *runner.Runner, id, dir, agentName string) (store.Session, error) {
	if id != "" {
		s, err := r.Store().GetSession(ctx, id)
		if store.IsNotFound(err) {
			return s, fmt.Errorf("session %s not found", id)
		}
		return s, err
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return store.Session{}, err
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return store.Session{}, err
	}
	return r.Engine().CreateSession(ctx, engine.CreateInput{OwnerID: runner.LocalUserID, Directory: abs, Agent: agentName})
}

// print streams the turn: text to stdout, tool calls and reasoning markers to stderr.
func (c *cli) print(sub *bus.Subscription, sessionID string) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for e := range sub.C() {
			switch e.Type {
			case bus.PartDelta:
				p, _ := e.Properties.(map[string]any)
				if e.SessionID == sessionID && p != nil {
					if d, ok := p["delta"].(string); ok && p["part_type"] == message.TypeText {
						fmt.Fprint(c.stdout, d)
					}
				}
			case bus.PartUpdated:
				if tp, ok := e.Properties.(*message.ToolPart); ok {
					c.printTool(tp, e.SessionID != sessionID)
				}
			}
		}
	}()
	return &wg
}

func (c *cli) printTool(tp *message.ToolPart, child bool) {
	prefix := ""
	if child {
		prefix = "  (subagent) "
	}
	switch tp.State {
	case message.ToolRunning:
		fmt.Fprintf(c.stderr, "\n%s→ %s %s\n", prefix, tp.Tool, oneLine(tp.Title, 100))
	case message.ToolCompleted:
		fmt.Fprintf(c.stderr, "%s✓ %s\n", prefix, tp.Tool)
	case message.ToolError:
		fmt.Fprintf(c.stderr, "%s✗ %s: %s\n", prefix, tp.Tool, oneLine(tp.Error, 200))
	}
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

func (c *cli) sessions(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageErrorf("sessions: want list, resume or fork")
	}
	switch args[0] {
	case "list":
		return c.listSessions(ctx, args[1:])
	case "resume":
		if len(args) < 2 {
			return usageErrorf("sessions resume: a session ID is required")
		}
		return c.runPrompt(ctx, args[2:], args[1])
	case "fork":
		return c.fork(ctx, args[1:])
	}
	return usageErrorf("sessions: unknown subcommand %q", args[0])
}

func (c *cli) listSessions(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("sessions list", flag.ContinueOnError)
	db := fs.String("db", "", "state database")
	limit := fs.Int("limit", 50, "how many")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	r, err := c.open(ctx, *db, "", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer r.Close()
	ss, err := r.Store().ListSessions(ctx, store.SessionFilter{OwnerID: runner.LocalUserID, Limit: *limit})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tAGENT\tTITLE\tDIRECTORY")
	for _, s := range ss {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format(time.DateTime), s.Agent, oneLine(s.Title, 50), s.Directory)
	}
	return tw.Flush()
}

func (c *cli) fork(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("sessions fork", flag.ContinueOnError)
	db := fs.String("db", "", "state database")
	msg := fs.String("message", "", "fork after this message (default: the whole history)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("sessions fork: exactly one session ID is required")
	}
	r, err := c.open(ctx, *db, "", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer r.Close()
	s, err := r.Store().GetSession(ctx, pos[0])
	if err != nil {
		if store.IsNotFound(err) {
			return fmt.Errorf("session %s not found", pos[0])
		}
		return err
	}
	f, err := r.Engine().Fork(ctx, s, *msg)
	if store.IsNotFound(err) {
		return errors.New("message " + *msg + " not found in the session")
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, f.ID)
	return nil
}
