// Command devproxy is the small reverse proxy of `make up`: one local origin routed by path
// prefix to several replicas of each service, round robin, skipping replicas that refuse
// connections. WebSocket upgrades and server-sent events pass through (httputil.ReverseProxy).
//
//	devproxy -listen 127.0.0.1:8080 \
//	  -route /ws/vibe-coding/publish=127.0.0.1:9101,127.0.0.1:9102 \
//	  -route /ws/chat/=127.0.0.1:9201,127.0.0.1:9202 -route /=127.0.0.1:9301,127.0.0.1:9302
//
// It is for trying the distributed mode on one machine, not for production (see deploy/).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

type routes []string

func (r *routes) String() string     { return strings.Join(*r, " ") }
func (r *routes) Set(v string) error { *r = append(*r, v); return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "devproxy:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("devproxy", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:8080", "address to listen on (loopback)")
	var rs routes
	fs.Var(&rs, "route", "PREFIX=HOST:PORT[,HOST:PORT…] (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	h, err := newRouter(rs)
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: *listen, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdownCtx)
	}()
	slog.Info("devproxy listening", "addr", *listen, "routes", rs.String())
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// pool is the replicas behind one prefix.
type pool struct {
	prefix  string
	proxies []*httputil.ReverseProxy
	next    atomic.Uint64
}

type router struct{ pools []*pool }

func newRouter(rs routes) (*router, error) {
	r := &router{}
	for _, spec := range rs {
		prefix, targets, ok := strings.Cut(spec, "=")
		if !ok || prefix == "" || targets == "" {
			return nil, fmt.Errorf("bad -route %q: want PREFIX=HOST:PORT[,HOST:PORT…]", spec)
		}
		p := &pool{prefix: prefix}
		for _, t := range strings.Split(targets, ",") {
			host, _, err := net.SplitHostPort(t)
			if err != nil {
				return nil, fmt.Errorf("bad target %q: %w", t, err)
			}
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				return nil, fmt.Errorf("target %q is not a loopback address", t)
			}
			u := &url.URL{Scheme: "http", Host: t}
			rp := httputil.NewSingleHostReverseProxy(u)
			rp.FlushInterval = -1 // stream server-sent events
			p.proxies = append(p.proxies, rp)
		}
		r.pools = append(r.pools, p)
	}
	if len(r.pools) == 0 {
		return nil, errors.New("no -route given")
	}
	// Longest prefix first.
	sort.Slice(r.pools, func(i, j int) bool { return len(r.pools[i].prefix) > len(r.pools[j].prefix) })
	return r, nil
}

func (r *router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	for _, p := range r.pools {
		if strings.HasPrefix(req.URL.Path, p.prefix) {
			p.serve(w, req)
			return
		}
	}
	http.Error(w, `{"error":"no route"}`, http.StatusNotFound)
}

// serve tries the replicas round robin; a replica that refuses the connection is skipped.
func (p *pool) serve(w http.ResponseWriter, req *http.Request) {
	start := p.next.Add(1)
	n := uint64(len(p.proxies))
	for i := uint64(0); i < n; i++ {
		rp := p.proxies[(start+i)%n]
		refused := false
		attempt := *rp
		attempt.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
			var op *net.OpError
			if errors.As(err, &op) && op.Op == "dial" && i+1 < n {
				refused = true
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`{"error":"bad gateway"}` + "\n"))
		}
		attempt.ServeHTTP(w, req)
		if !refused {
			return
		}
	}
}
