#!/usr/bin/env bash
# Starts throwaway PostgreSQL and Redis servers on free loopback ports for the tests, installing
# what is missing, and prints the environment that points the tests at them.
#
#   eval "$(scripts/test-services.sh env)"   start (once) and export OPENVIBE_TEST_*_URL
#   scripts/test-services.sh stop            stop both and remove their data
#   scripts/test-services.sh status
#
# State lives in $OPENVIBE_SERVICES_DIR (default /tmp/openvibe-test-services). PostgreSQL refuses
# to run as root, so as root it runs as the postgres user.
set -euo pipefail

dir=${OPENVIBE_SERVICES_DIR:-/tmp/openvibe-test-services}
log() { echo "test-services: $*" >&2; }

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

apt_install() {
	if [ "$(id -u)" != 0 ]; then log "missing $*; install it (apt-get install $*)"; return 1; fi
	if [ ! -f /tmp/.openvibe-apt-updated ]; then
		apt-get update -qq >&2 && touch /tmp/.openvibe-apt-updated
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

pg_bin() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && { echo "$d"; return; }
	done
	if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
	apt_install postgresql >/dev/null
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && { echo "$d"; return; }
	done
	log "no PostgreSQL binaries found"; return 1
}

start_postgres() {
	local bin port data
	bin=$(pg_bin)
	data="$dir/pg"
	if [ -f "$dir/pg.port" ] && as_pg "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
		return
	fi
	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
	fi
	rm -rf "$data"; mkdir -p "$data"
	[ "$(id -u)" = 0 ] && chown -R postgres "$dir"
	as_pg "$bin/initdb" -D "$data" -U postgres -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; return 1; }
	# A free port can be taken between the check and the bind: try another one.
	local try
	for try in 1 2 3 4 5; do
		port=$(free_port)
		as_pg "$bin/pg_ctl" -D "$data" -l "$dir/pg.log" -w -t 60 \
			-o "-p $port -k $data -c listen_addresses=127.0.0.1 -c max_connections=400 -c shared_buffers=256MB -c fsync=on -c synchronous_commit=on -c wal_buffers=16MB" \
			start >/dev/null && break
		[ "$try" = 5 ] && { cat "$dir/pg.log" >&2; return 1; }
		log "postgresql did not start on port $port; trying another"
	done
	echo "$port" >"$dir/pg.port"
	log "postgresql on 127.0.0.1:$port"
}

start_redis() {
	local port
	if ! command -v redis-server >/dev/null 2>&1; then apt_install redis-server; fi
	if [ -f "$dir/redis.port" ] && redis-cli -p "$(cat "$dir/redis.port")" ping >/dev/null 2>&1; then
		return
	fi
	mkdir -p "$dir/redis"
	local try up
	for try in 1 2 3 4 5; do
		port=$(free_port)
		redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
			--dir "$dir/redis" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --databases 64 >&2
		up=
		for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && { up=1; break; }; sleep 0.1; done
		[ -n "$up" ] && break
		[ "$try" = 5 ] && { cat "$dir/redis.log" >&2; return 1; }
		log "redis did not start on port $port; trying another"
	done
	echo "$port" >"$dir/redis.port"
	log "redis on 127.0.0.1:$port"
}

stop_all() {
	if [ -f "$dir/pg.port" ]; then
		as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null 2>&1 || true
	fi
	if [ -f "$dir/redis.pid" ]; then kill "$(cat "$dir/redis.pid")" 2>/dev/null || true; fi
	rm -rf "$dir"
}

case "${1:-env}" in
env)
	mkdir -p "$dir"
	start_postgres
	start_redis
	echo "export OPENVIBE_TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:$(cat "$dir/pg.port")/postgres?sslmode=disable'"
	echo "export OPENVIBE_TEST_REDIS_URL='redis://127.0.0.1:$(cat "$dir/redis.port")/0'"
	;;
stop) stop_all ;;
status)
	[ -f "$dir/pg.port" ] && echo "postgresql 127.0.0.1:$(cat "$dir/pg.port")" || echo "postgresql stopped"
	[ -f "$dir/redis.port" ] && echo "redis 127.0.0.1:$(cat "$dir/redis.port")" || echo "redis stopped"
	;;
*) echo "usage: $0 env|stop|status" >&2; exit 2 ;;
esac
