// Package netguard keeps the runner from connecting to the host's own network on a user's
// behalf (web_fetch, a session's publishing link): loopback, private, link-local,
// unspecified and multicast addresses are refused, checked on the addresses a name resolves
// to when the connection is made (so a name that resolves differently later cannot slip
// through). An operator may allow particular servers, such as the platform's own gateway.
package netguard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Public reports whether ip is an address a user may make the runner connect to.
func Public(ip net.IP) bool {
	return ip != nil && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsLinkLocalUnicast() && !ip.IsLinkLocalMulticast() &&
		!ip.IsUnspecified() && !ip.IsMulticast() && !ip.IsInterfaceLocalMulticast()
}

// Policy decides which addresses may be connected to.
type Policy struct {
	// AllowPrivate turns the policy off (a single user's own machine).
	AllowPrivate bool
	// Allowed are servers allowed whatever their address: URLs or host:port.
	Allowed []string
	// Resolver looks names up; nil means net.DefaultResolver.
	Resolver *net.Resolver
}

// With returns a copy of p that also allows the servers given.
func (p Policy) With(servers ...string) Policy {
	p.Allowed = append(slices.Clone(p.Allowed), servers...)
	return p
}

// hostPort is the host:port a URL or host:port string names (port from the scheme).
func hostPort(s string) (string, error) {
	if !strings.Contains(s, "://") {
		if _, _, err := net.SplitHostPort(s); err != nil {
			return "", err
		}
		return s, nil
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute URL", s)
	}
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https", "wss":
			port = "443"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

func (p Policy) resolver() *net.Resolver {
	if p.Resolver != nil {
		return p.Resolver
	}
	return net.DefaultResolver
}

// lookup resolves host (an IP literal resolves to itself).
func (p Policy) lookup(ctx context.Context, host string) ([]net.IP, error) {
	if ip := net.ParseIP(host); ip != nil {
		return []net.IP{ip}, nil
	}
	addrs, err := p.resolver().LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	ips := make([]net.IP, 0, len(addrs))
	for _, a := range addrs {
		ips = append(ips, a.IP)
	}
	return ips, nil
}

// allowed reports whether host:port (as written, or an ip:port it resolves to) is one of
// the allowed servers.
func (p Policy) allowed(ctx context.Context, hp string, ips []net.IP) bool {
	_, port, _ := net.SplitHostPort(hp)
	for _, a := range p.Allowed {
		ahp, err := hostPort(a)
		if err != nil {
			continue
		}
		if strings.EqualFold(ahp, hp) {
			return true
		}
		ahost, aport, _ := net.SplitHostPort(ahp)
		if aport != port {
			continue
		}
		aips, err := p.lookup(ctx, ahost)
		if err != nil {
			continue
		}
		for _, ip := range ips {
			if slices.ContainsFunc(aips, ip.Equal) {
				return true
			}
		}
	}
	return false
}

// Check tells, before connecting, whether the server of rawURL may be reached: an error
// for the caller when it resolves to a non-public address that is not allowed.
func (p Policy) Check(ctx context.Context, rawURL string) error {
	if p.AllowPrivate {
		return nil
	}
	hp, err := hostPort(rawURL)
	if err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(hp)
	ips, err := p.lookup(ctx, host)
	if err != nil {
		return fmt.Errorf("%s does not resolve: %w", host, err)
	}
	if p.allowed(ctx, hp, ips) {
		return nil
	}
	for _, ip := range ips {
		if !Public(ip) {
			return fmt.Errorf("%s is not a public address (%s); the server's operator can allow it", host, ip)
		}
	}
	return nil
}

// DialContext connects like a net.Dialer with timeout, refusing non-public addresses that
// are not allowed.
func (p Policy) DialContext(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	open := &net.Dialer{Timeout: timeout}
	guarded := &net.Dialer{Timeout: timeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		if ip := net.ParseIP(host); !Public(ip) {
			return fmt.Errorf("refusing to connect to non-public address %s", host)
		}
		return nil
	}}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if p.AllowPrivate {
			return open.DialContext(ctx, network, addr)
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if len(p.Allowed) > 0 {
			if ips, err := p.lookup(ctx, host); err == nil && p.allowed(ctx, addr, ips) {
				return open.DialContext(ctx, network, addr)
			}
		}
		return guarded.DialContext(ctx, network, addr)
	}
}

// Client is an HTTP client that connects under the policy, without proxies (a proxy's
// address would stand in for the server's).
func (p Policy) Client() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: p.DialContext(10 * time.Second),
		TLSHandshakeTimeout: 10 * time.Second, ForceAttemptHTTP2: true}}
}
