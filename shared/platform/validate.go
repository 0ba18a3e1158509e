package platform

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Problems collects configuration problems so that a Validate method reports all of them at
// once:
//
//	func (c Config) Validate() error {
//		var p platform.Problems
//		p.Add(c.Common.Validate())
//		p.Add(platform.CheckURL("OPENVIBE_DATABASE_URL", c.DatabaseURL, "postgres", "postgresql"))
//		p.Check(len(c.JWTSecret) >= 32, "OPENVIBE_JWT_SECRET must be at least 32 bytes")
//		return p.Err()
//	}
type Problems []error

// Add records err (and each error joined in it); nil is ignored.
func (p *Problems) Add(err error) { *p = append(*p, flatten(err)...) }

// Addf records a problem.
func (p *Problems) Addf(format string, args ...any) { *p = append(*p, fmt.Errorf(format, args...)) }

// Check records a problem unless ok.
func (p *Problems) Check(ok bool, format string, args ...any) {
	if !ok {
		p.Addf(format, args...)
	}
}

// Err joins the problems, or returns nil when there are none.
func (p Problems) Err() error { return errors.Join(p...) }

// CheckListenAddr reports whether addr is a host:port a server can listen on (port 0 allowed).
func CheckListenAddr(key, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s: %q is not host:port: %w", key, addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%s: %q has an invalid port", key, addr)
	}
	return nil
}

// CheckOneOf reports whether v is one of allowed (case-sensitive).
func CheckOneOf(key, v string, allowed ...string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("%s: %q must be one of %s", key, v, strings.Join(allowed, ", "))
}

// CheckPositive reports whether d is greater than zero.
func CheckPositive(key string, d time.Duration) error {
	if d > 0 {
		return nil
	}
	return fmt.Errorf("%s: must be greater than zero, got %s", key, d)
}

// CheckURL reports whether raw is an absolute URL with one of the given schemes (any scheme
// when none is given). The URL is never echoed back, since it may hold a password.
func CheckURL(key, raw string, schemes ...string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || (u.Host == "" && u.Path == "" && u.Opaque == "") {
		return fmt.Errorf("%s: not an absolute URL", key)
	}
	if len(schemes) > 0 && !slices.Contains(schemes, u.Scheme) {
		return fmt.Errorf("%s: scheme %q must be one of %s", key, u.Scheme, strings.Join(schemes, ", "))
	}
	return nil
}

// Common holds the settings every binary shares. Services embed it in their Config (and call
// Common.Validate from their own Validate); Main also reads it on its own for logging and the
// healthcheck subcommand.
type Common struct {
	Addr            string        `env:"OPENVIBE_ADDR" envDefault:"127.0.0.1:8080"`
	LogLevel        string        `env:"OPENVIBE_LOG_LEVEL" envDefault:"info"`
	LogFormat       string        `env:"OPENVIBE_LOG_FORMAT" envDefault:"json"`
	ShutdownTimeout time.Duration `env:"OPENVIBE_SHUTDOWN_TIMEOUT" envDefault:"20s"`
	DrainDelay      time.Duration `env:"OPENVIBE_DRAIN_DELAY" envDefault:"0s"`
	BodyLimit       int64         `env:"OPENVIBE_HTTP_BODY_LIMIT" envDefault:"1048576"`
}

// commonDefaults are Common's defaults, which Serve and NewEcho also fall back on.
var commonDefaults = Defaults[Common]()

// Validate reports every invalid common setting.
func (c Common) Validate() error {
	var p Problems
	p.Add(CheckListenAddr("OPENVIBE_ADDR", c.Addr))
	p.Add(CheckOneOf("OPENVIBE_LOG_LEVEL", strings.ToLower(c.LogLevel), "debug", "info", "warn", "error"))
	p.Add(CheckOneOf("OPENVIBE_LOG_FORMAT", strings.ToLower(c.LogFormat), "json", "text"))
	p.Add(CheckPositive("OPENVIBE_SHUTDOWN_TIMEOUT", c.ShutdownTimeout))
	p.Check(c.DrainDelay >= 0, "OPENVIBE_DRAIN_DELAY: must not be negative")
	p.Check(c.DrainDelay < c.ShutdownTimeout, "OPENVIBE_DRAIN_DELAY: must be shorter than OPENVIBE_SHUTDOWN_TIMEOUT")
	p.Check(c.BodyLimit > 0, "OPENVIBE_HTTP_BODY_LIMIT: must be greater than zero")
	return p.Err()
}

// ServeOptions returns ServeOptions filled from the common settings.
func (c Common) ServeOptions() ServeOptions {
	return ServeOptions{
		Addr:            c.Addr,
		ShutdownTimeout: c.ShutdownTimeout,
		DrainDelay:      c.DrainDelay,
		BodyLimit:       c.BodyLimit,
	}
}
