package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/auth"
	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/brokers"
	"openvibe.live/backend/shared/store"
	"openvibe.live/backend/shared/store/stores"
	"openvibe.live/backend/shared/vibe"
)

// benchEnv is what the publishers need: the gateway URL and one slot and token each.
type benchEnv struct {
	reg     *prometheus.Registry // the in-process gateway's metrics (nil with -gateway-url)
	url     string
	slots   []store.ManagedStream
	token   string
	closers []func()
}

func (e *benchEnv) close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
}

// setup creates a user with one slot per publisher and a publish token, and starts the
// in-process gateway unless -gateway-url names one.
func setup(ctx context.Context, o options, log *slog.Logger) (_ *benchEnv, err error) {
	env := &benchEnv{url: o.gatewayURL}
	defer func() {
		if err != nil {
			env.close()
		}
	}()
	cfg := gateway.DefaultConfig()
	cfg.Writers = o.writers
	st, err := stores.Open(ctx, gateway.DatabaseURL(o.databaseURL, cfg), stores.Options{Migrate: true, Logger: log})
	if err != nil {
		return nil, err
	}
	env.closers = append(env.closers, func() { _ = st.Close() })
	if err := fixtures(ctx, st, o, env); err != nil {
		return nil, err
	}
	if o.gatewayURL != "" {
		return env, nil
	}
	br, err := brokers.Open(ctx, o.redisURL, log)
	if err != nil {
		return nil, err
	}
	env.closers = append(env.closers, func() { _ = br.Close() })
	return env, startGateway(st, br, o, log, env)
}

func fixtures(ctx context.Context, st store.Store, o options, env *benchEnv) error {
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	u, err := st.CreateUser(ctx, "bench-"+hex.EncodeToString(suffix), "x")
	if err != nil {
		return fmt.Errorf("create bench user: %w", err)
	}
	tok, hash, hint, err := auth.NewAPIToken()
	if err != nil {
		return err
	}
	if _, err := st.CreateAPIToken(ctx, store.APIToken{UserID: u.ID, Name: "bench", Hash: hash, Hint: hint,
		Scopes: []string{store.ScopeVibeCodingPublish}}); err != nil {
		return fmt.Errorf("create bench token: %w", err)
	}
	env.token = tok
	bs, err := vibe.BroadcastWithSettings(json.RawMessage(`{}`), vibe.DefaultSettings())
	if err != nil {
		return err
	}
	for i := range o.publishers {
		ms, err := st.CreateManagedStream(ctx, u.ID, fmt.Sprintf("bench-%d", i), "bench", bs)
		if err != nil {
			return fmt.Errorf("create bench slot: %w", err)
		}
		if o.live {
			if _, _, err := st.StartLiveStream(ctx, ms.ID, time.Now()); err != nil {
				return fmt.Errorf("start live stream: %w", err)
			}
		}
		env.slots = append(env.slots, ms)
	}
	return nil
}

// startGateway serves the gateway on a loopback port with limits out of the way: the
// benchmark measures the durable path, not the rate limiter.
func startGateway(st store.Store, br broker.Broker, o options, log *slog.Logger, env *benchEnv) error {
	san, err := vibe.NewSanitizer()
	if err != nil {
		return err
	}
	cfg := gateway.DefaultConfig()
	cfg.ConnRate, cfg.ConnBurst = 1e6, 1e6
	cfg.SlotRate, cfg.SlotBurst = 1e6, 1e6
	cfg.BatchMaxDelay = o.batchDelay
	cfg.Writers = o.writers
	cfg.BatchMaxEvents = o.batchMax
	env.reg = prometheus.NewRegistry()
	gw, err := gateway.New(gateway.Deps{Store: st, Broker: br, Auth: auth.NewAuthenticator(st, nil, nil),
		Sanitizer: san, Logger: log, Registerer: env.reg, Config: cfg})
	if err != nil {
		return err
	}
	e := echo.New()
	gw.Register(e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	runCtx, stopRun := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- gw.Run(runCtx) }()
	serveDone := make(chan error, 1)
	go func() { serveDone <- srv.Serve(ln) }()
	env.url = "http://" + ln.Addr().String()
	env.closers = append(env.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		if err := gw.Shutdown(ctx); err != nil {
			log.Warn("gateway shutdown", "error", err)
		}
		stopRun()
		<-runDone
		if err := <-serveDone; !errors.Is(err, http.ErrServerClosed) {
			log.Warn("server", "error", err)
		}
	})
	return nil
}
