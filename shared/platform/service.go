package platform

import (
	"context"

	"github.com/labstack/echo/v4"
)

// Service is one service's contribution to a server: its routes, its background workers and
// its part in graceful shutdown. A distributed binary serves one Service; the standalone
// binary serves all of them on one echo instance.
type Service interface {
	// Register mounts the service's routes.
	Register(e *echo.Echo)
	// Run runs the service's background workers until ctx is cancelled, then returns nil
	// (or the error that stopped them).
	Run(ctx context.Context) error
	// Shutdown is called once HTTP shutdown has begun: close long-lived connections
	// (WebSockets with 1001 "going away") and flush in-flight work before ctx ends.
	Shutdown(ctx context.Context) error
}
