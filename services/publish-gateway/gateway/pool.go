package gateway

import (
	"net/url"
	"strconv"
)

// DatabaseURL returns a PostgreSQL URL with a connection pool sized for the gateway, unless
// the URL already sets pool_max_conns: each batch writer holds a connection for its whole
// transaction, and the handshakes, session upserts and slot reloads need more beside them.
// (pgx's default, max(4, CPUs), lets four writers starve everything else.) Other URLs (SQLite
// paths, key=value DSNs) are returned unchanged.
func DatabaseURL(raw string, cfg Config) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return raw
	}
	q := u.Query()
	if q.Has("pool_max_conns") {
		return raw
	}
	q.Set("pool_max_conns", strconv.Itoa(2*cfg.Writers+8))
	u.RawQuery = q.Encode()
	return u.String()
}
