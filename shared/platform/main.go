package platform

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/caarlos0/env/v11"
)

// HealthcheckTimeout bounds the healthcheck subcommand's request.
const HealthcheckTimeout = 3 * time.Second

// App describes one binary for Main.
type App struct {
	Name    string
	Version string
	// Config is a pointer to the binary's config struct; Main fills it with LoadConfig before
	// running a subcommand, so Serve and Migrate read it already validated.
	Config  any
	Serve   func(ctx context.Context, log *slog.Logger) error
	Migrate func(ctx context.Context, log *slog.Logger) error
}

// Command is a binary's whole command line as a function of its arguments, environment and
// output, so that tests can run it in-process. It reports its errors itself.
type Command func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error

// Exec runs cmd with the process's arguments, environment and output, cancelled by SIGINT or
// SIGTERM, and exits 1 when it fails. It is the whole of a service's main.
func Exec(cmd Command) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cmd(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		os.Exit(1)
	}
}

// errReported marks an error Main already wrote to stderr.
type errReported struct{ err error }

func (e errReported) Error() string { return e.err.Error() }
func (e errReported) Unwrap() error { return e.err }

// Main runs the subcommand named by args (the arguments after the program name):
//
//	serve        run the server (the default)
//	migrate      apply database migrations and exit
//	healthcheck  GET /healthz on OPENVIBE_ADDR; exits non-zero unless it answers 200
//	config       print the effective configuration as JSON, secrets redacted
//	version      print name, version, Go version and VCS revision
//
// Each subcommand except version loads and validates the configuration first and reports
// every problem at once. Flags (--addr, --log-level, --log-format) override the matching
// environment variables. Errors are written to stderr (or logged) before Main returns them,
// so main only has to exit non-zero.
func Main(ctx context.Context, app App, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd, rest := "serve", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest = args[0], args[1:]
	}
	switch cmd {
	case "serve", "migrate", "healthcheck", "config", "version":
	case "help":
		rest = []string{"-h"}
	default:
		return report(stderr, app.Name, fmt.Errorf("unknown command %q (run with -h for usage)", cmd))
	}
	getenv, err := parseFlags(app, cmd, rest, getenv, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return report(stderr, app.Name, err)
	}
	if cmd == "version" {
		_, err := fmt.Fprintln(stdout, versionString(app))
		return err
	}
	var common Common
	if err := loadAll(&common, app.Config, getenv); err != nil {
		return report(stderr, app.Name, err)
	}
	logger := NewLogger(stderr, common.LogLevel, common.LogFormat).With("service", app.Name)
	switch cmd {
	case "config":
		return WriteConfig(stdout, &common, app.Config)
	case "healthcheck":
		if err := Healthcheck(ctx, common.Addr); err != nil {
			return report(stderr, app.Name, err)
		}
		_, err := fmt.Fprintln(stdout, "ok")
		return err
	case "serve":
		return runLogged(ctx, logger, "serve", app.Serve)
	default: // "migrate"
		return runLogged(ctx, logger, "migrate", app.Migrate)
	}
}

func report(stderr io.Writer, name string, err error) error {
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	return errReported{err}
}

// loadAll loads the common settings and the app's config, reporting both sets of problems.
func loadAll(common *Common, cfg any, getenv func(string) string) error {
	var p Problems
	if err := LoadConfig(common, getenv); err != nil {
		p.Add(err)
	}
	if cfg != nil {
		if err := LoadConfig(cfg, getenv); err != nil {
			p.Add(err)
		}
	}
	if len(p) == 0 {
		return nil
	}
	return &ConfigError{Problems: dedupe(p)}
}

// dedupe drops repeated problems (a config embedding Common reports its problems twice).
func dedupe(errs []error) []error {
	seen := map[string]bool{}
	var out []error
	for _, e := range errs {
		if !seen[e.Error()] {
			seen[e.Error()] = true
			out = append(out, e)
		}
	}
	return out
}

func runLogged(ctx context.Context, log *slog.Logger, what string, fn func(context.Context, *slog.Logger) error) error {
	if fn == nil {
		err := errors.New(what + " is not supported by this binary")
		log.ErrorContext(ctx, what+" failed", "error", err)
		return errReported{err}
	}
	if err := fn(ctx, log); err != nil {
		log.ErrorContext(ctx, what+" failed", "error", err)
		return errReported{err}
	}
	return nil
}

// parseFlags parses the subcommand's flags and returns getenv with the flags laid over it.
func parseFlags(app App, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) (func(string) string, error) {
	fs := flag.NewFlagSet(app.Name+" "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	overrides := map[string]*string{
		"OPENVIBE_ADDR":       fs.String("addr", "", "listen address, overrides OPENVIBE_ADDR"),
		"OPENVIBE_LOG_LEVEL":  fs.String("log-level", "", "debug|info|warn|error, overrides OPENVIBE_LOG_LEVEL"),
		"OPENVIBE_LOG_FORMAT": fs.String("log-format", "", "json|text, overrides OPENVIBE_LOG_FORMAT"),
	}
	fs.Usage = func() { usage(stdout, app, fs) }
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	return func(key string) string {
		if v, ok := overrides[key]; ok && *v != "" {
			return *v
		}
		return getenv(key)
	}, nil
}

func usage(w io.Writer, app App, fs *flag.FlagSet) {
	fmt.Fprintf(w, `Usage: %s [command] [flags]

Commands:
  serve        run the server (default)
  migrate      apply database migrations and exit
  healthcheck  check that the local server answers /healthz (for container healthchecks)
  config       print the effective configuration as JSON, secrets redacted
  version      print version information

Flags:
`, app.Name)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nEnvironment (each variable X can also be read from the file named by X_FILE):")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, f := range envHelp(&Common{}, app.Config) {
		fmt.Fprintf(tw, "  %s\t%s\n", f[0], f[1])
	}
	_ = tw.Flush()
}

// envHelp lists each variable with its default, for usage.
func envHelp(cfgs ...any) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, c := range cfgs {
		if c == nil {
			continue
		}
		params, err := env.GetFieldParamsWithOptions(c, env.Options{Environment: map[string]string{}})
		if err != nil {
			continue
		}
		for _, p := range params {
			if seen[p.Key] {
				continue
			}
			seen[p.Key] = true
			desc := "default " + fmt.Sprintf("%q", p.DefaultValue)
			if p.Required {
				desc = "required"
			} else if !p.HasDefaultValue {
				desc = "optional"
			}
			out = append(out, [2]string{p.Key, desc})
		}
	}
	return out
}

// Healthcheck GETs http://addr/healthz, addressing a wildcard listen host through loopback.
func Healthcheck(ctx context.Context, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("healthcheck: bad address %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, HealthcheckTimeout)
	defer cancel()
	url := "http://" + net.JoinHostPort(host, port) + "/healthz"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s", url, resp.Status)
	}
	return nil
}

// versionString reports the binary's name, version, toolchain and VCS state.
func versionString(app App) string {
	version := app.Version
	if version == "" {
		version = "dev"
	}
	rev, modified := "unknown", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	return fmt.Sprintf("%s %s %s revision %s%s", app.Name, version, runtime.Version(), rev, modified)
}
