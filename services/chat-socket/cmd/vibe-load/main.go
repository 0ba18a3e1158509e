// Command vibe-load is the chat-socket load tool. It opens N viewer sockets spread over K
// slots (one publisher per slot), publishes events at a fixed rate per slot, and reports
// delivered messages per second, publish→viewer latency (p50/p99), and the server's CPU and
// resident memory per connection, read from its /metrics.
//
// Publishing mode is explicit: -mode store writes events to the store and the broker the way
// the publish gateway does (no gateway needed); -mode gateway publishes through a running
// publish gateway's WebSocket with an API token it creates. Everything must be on loopback,
// and runs are bounded in connections and time.
//
//	vibe-load -chat ws://127.0.0.1:8081 -metrics http://127.0.0.1:8081/metrics \
//	  -database-url postgres://… -redis-url redis://127.0.0.1:6379/0 \
//	  -viewers 1000 -slots 1 -rate 10 -duration 30s
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Hard bounds: the tool refuses anything bigger.
const (
	maxViewers  = 20_000
	maxSlots    = 1_000
	maxRate     = 1_000
	maxDuration = 10 * time.Minute
)

type options struct {
	chatURLs    []string
	metricsURLs []string
	mode        string
	gatewayURL  string
	databaseURL string
	redisURL    string
	username    string
	viewers     int
	slots       int
	rate        float64
	duration    time.Duration
	warmup      time.Duration
	dialers     int
	batch       int
	coalesce    bool
	jsonOut     bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vibe-load:", err)
		os.Exit(1)
	}
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	var o options
	var chat, metrics string
	fs := flag.NewFlagSet("vibe-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&chat, "chat", "ws://127.0.0.1:8081", "chat-socket base URL(s), comma-separated: viewers are spread over them")
	fs.StringVar(&metrics, "metrics", "", "chat-socket /metrics URL(s), comma-separated, for server CPU and memory")
	fs.StringVar(&o.mode, "mode", "store", "how events are published: store (store + broker, as the gateway does) or gateway (publisher WebSocket)")
	fs.StringVar(&o.gatewayURL, "gateway", "ws://127.0.0.1:8082", "publish gateway base URL (-mode gateway)")
	fs.StringVar(&o.databaseURL, "database-url", os.Getenv("OPENVIBE_DATABASE_URL"), "store URL (setup, and publishing in store mode)")
	fs.StringVar(&o.redisURL, "redis-url", os.Getenv("OPENVIBE_REDIS_URL"), "Redis URL (store mode)")
	fs.StringVar(&o.username, "user", "vibeload", "user owning the load slots (created when missing)")
	fs.IntVar(&o.viewers, "viewers", 100, fmt.Sprintf("viewer sockets (at most %d)", maxViewers))
	fs.IntVar(&o.slots, "slots", 1, "slots, one publisher each; viewers are spread evenly")
	fs.Float64Var(&o.rate, "rate", 10, "events per second per slot (0: connect and hold only)")
	fs.DurationVar(&o.duration, "duration", 20*time.Second, "measured publishing time")
	fs.DurationVar(&o.warmup, "warmup", 3*time.Second, "publishing time before measuring")
	fs.IntVar(&o.dialers, "dialers", 64, "concurrent connection attempts")
	fs.IntVar(&o.batch, "batch", 1, "events per store transaction (store mode), like the gateway's batching writer")
	fs.BoolVar(&o.coalesce, "coalesce", false, "viewers ask for coalesced frames (batch=1) instead of one JSON object per WebSocket message")
	fs.BoolVar(&o.jsonOut, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.chatURLs = splitList(chat)
	o.metricsURLs = splitList(metrics)
	return o, o.validate()
}

func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (o options) validate() error {
	var errs []error
	check := func(ok bool, format string, a ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	check(o.viewers >= 0 && o.viewers <= maxViewers, "-viewers must be between 0 and %d", maxViewers)
	check(o.slots >= 1 && o.slots <= maxSlots, "-slots must be between 1 and %d", maxSlots)
	check(o.rate >= 0 && o.rate <= maxRate, "-rate must be between 0 and %d", maxRate)
	check(o.duration > 0 && o.duration+o.warmup <= maxDuration, "-duration plus -warmup must be positive and at most %s", maxDuration)
	check(o.dialers >= 1 && o.dialers <= 1024, "-dialers must be between 1 and 1024")
	check(o.batch >= 1 && o.batch <= 256, "-batch must be between 1 and 256")
	check(o.mode == "store" || o.mode == "gateway", "-mode must be store or gateway")
	check(len(o.chatURLs) > 0, "-chat is required")
	check(o.databaseURL != "", "-database-url (or OPENVIBE_DATABASE_URL) is required")
	check(o.mode != "store" || o.rate == 0 || o.redisURL != "", "-redis-url is required in store mode")
	urls := append(append([]string{}, o.chatURLs...), o.metricsURLs...)
	if o.mode == "gateway" {
		urls = append(urls, o.gatewayURL)
	}
	if o.redisURL != "" {
		urls = append(urls, o.redisURL)
	}
	if strings.Contains(o.databaseURL, "://") && !strings.HasPrefix(o.databaseURL, "sqlite:") {
		urls = append(urls, o.databaseURL)
	}
	for _, u := range urls {
		if err := loopbackOnly(u); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// loopbackOnly refuses any URL whose host is not a loopback address.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("bad URL %q", redact(raw))
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s: only loopback hosts are allowed", redact(raw))
}

func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		u.User = url.User("***")
		return u.String()
	}
	return raw
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	rep, err := newLoad(o, log).run(ctx, stderr)
	if err != nil {
		return err
	}
	if o.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.print(stdout)
	return nil
}
