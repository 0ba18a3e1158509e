// Package brokers opens the broker.Broker a binary is configured with: the in-process
// broker when no Redis URL is given (standalone mode), Redis pub/sub otherwise.
package brokers

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"openvibe.live/backend/shared/broker"
	"openvibe.live/backend/shared/broker/memory"
	"openvibe.live/backend/shared/broker/redis"
)

// OpenTimeout bounds connecting to Redis when ctx has no deadline of its own.
const OpenTimeout = 10 * time.Second

// Options configures OpenWith.
type Options struct {
	Logger *slog.Logger
	// Registerer, if set, receives the openvibe_broker_* metrics.
	Registerer prometheus.Registerer
}

// Open returns an in-process broker for an empty redisURL, or a Redis broker after checking
// that the server answers (the error names the server, never the URL's password).
func Open(ctx context.Context, redisURL string, logger *slog.Logger) (broker.Broker, error) {
	return OpenWith(ctx, redisURL, Options{Logger: logger})
}

// OpenWith is Open with metrics.
func OpenWith(ctx context.Context, redisURL string, opts Options) (broker.Broker, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if redisURL == "" {
		logger.InfoContext(ctx, "broker: in-process")
		return memory.New(memory.Options{Registerer: opts.Registerer}), nil
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, OpenTimeout)
		defer cancel()
	}
	b, err := redis.Open(ctx, redisURL, redis.Options{Logger: logger, Registerer: opts.Registerer})
	if err != nil {
		return nil, err
	}
	logger.InfoContext(ctx, "broker: redis pub/sub")
	return b, nil
}
