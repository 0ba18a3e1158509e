// Command gateway-bench measures the publish-gateway: N concurrent publishers, each on its
// own connection (and its own slot, so per-slot limits do not interfere), send response
// events; the tool reports durable events per second (acks received, each after its commit)
// and ack latency percentiles measured at the client, from the write of an event to the read
// of its ack.
//
// By default it runs the gateway in-process on a loopback port against the given database
// (PostgreSQL or SQLite) with an in-process broker, or against Redis with -redis-url:
//
//	gateway-bench -database-url postgres://… -publishers 100 -duration 10s            # max rate
//	gateway-bench -database-url postgres://… -publishers 100 -duration 10s -rate 1000 # paced
//
// With -gateway-url it drives an already running gateway instead; the database must be the
// one that gateway uses, since the tool creates the users, slots and tokens it publishes as.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"openvibe.live/backend/services/publish-gateway/gateway"
)

type options struct {
	databaseURL string
	redisURL    string
	gatewayURL  string
	publishers  int
	duration    time.Duration
	warmup      time.Duration
	rate        float64
	window      int
	live        bool
	batchDelay  time.Duration
	cpuProfile  string
	writers     int
	batchMax    int
	original    bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "gateway-bench:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("gateway-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.databaseURL, "database-url", os.Getenv("OPENVIBE_DATABASE_URL"), "store URL (postgres://… or a SQLite path)")
	fs.StringVar(&o.redisURL, "redis-url", "", "broker URL for the in-process gateway (empty: in-process broker)")
	fs.StringVar(&o.gatewayURL, "gateway-url", "", "drive this running gateway (http://host:port) instead of an in-process one")
	fs.IntVar(&o.publishers, "publishers", 100, "concurrent publisher connections")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "measured run time")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured run time before the measurement")
	fs.Float64Var(&o.rate, "rate", 0, "total events per second across publishers (0: as fast as acks allow)")
	fs.IntVar(&o.window, "window", 32, "events each publisher may have unacked in max-rate mode")
	fs.BoolVar(&o.live, "live", true, "make the slots live (acks then say delivered:true)")
	fs.DurationVar(&o.batchDelay, "batch-delay", 0, "OPENVIBE_GATEWAY_BATCH_MAX_DELAY of the in-process gateway")
	fs.IntVar(&o.writers, "writers", gateway.DefaultConfig().Writers, "OPENVIBE_GATEWAY_WRITERS of the in-process gateway")
	fs.IntVar(&o.batchMax, "batch-max", gateway.DefaultConfig().BatchMaxEvents, "OPENVIBE_GATEWAY_BATCH_MAX_EVENTS of the in-process gateway")
	fs.BoolVar(&o.original, "original-forms", false, "send tool.call events in the original platform's value forms (phase \"completed\", sequence and epoch time as strings), which the gateway normalises")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the measured run (in-process gateway included) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.databaseURL == "" {
		return errors.New("-database-url is required")
	}
	if o.publishers < 1 || o.window < 1 || o.duration <= 0 {
		return errors.New("-publishers, -window and -duration must be positive")
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	env, err := setup(ctx, o, log)
	if err != nil {
		return err
	}
	defer env.close()
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	res, err := drive(ctx, o, env)
	if err != nil {
		return err
	}
	res.print(stdout, o)
	printServerStats(stdout, env)
	return nil
}
