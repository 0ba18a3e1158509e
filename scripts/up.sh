#!/usr/bin/env bash
# The distributed mode on one machine, without containers: PostgreSQL and Redis from local
# binaries, the migrate step, two replicas of publish-gateway, chat-socket and api, one
# agent-runner, and deploy/devproxy routing one origin to them.
#
#   scripts/up.sh [start]   start everything in the background and print the URL (make up)
#   scripts/up.sh stop      stop everything (make down)
#   scripts/up.sh status
#   scripts/up.sh env       print the addresses as shell exports (for tests)
#
# OPENVIBE_UP_DIR (default .tmp/up) holds logs, pids and data; OPENVIBE_UP_ADDR (default
# 127.0.0.1:8080) is the proxy's address. Everything listens on loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${OPENVIBE_UP_DIR:-$root/.tmp/up}
addr=${OPENVIBE_UP_ADDR:-127.0.0.1:8080}
bin=$dir/bin

# free_port sets port to a loopback port nothing listens on, below the kernel's ephemeral
# range (so that no outgoing connection takes it before the service binds it), and port_lock
# to an open descriptor holding the port's lock file: the one the Go tests' testenv.FreePort
# takes, so that tests running beside this never get the same port. start_proc hands the
# descriptor to the service, which holds the reservation for as long as it runs.
ports_dir=${TMPDIR:-/tmp}/openvibe-test-ports
free_port() {
	local low p
	read -r low _ </proc/sys/net/ipv4/ip_local_port_range
	mkdir -p "$ports_dir"
	chmod 0777 "$ports_dir" 2>/dev/null || true
	for _ in $(seq 200); do
		p=$((10000 + (RANDOM * 32768 + RANDOM) % (low - 10000)))
		exec {port_lock}<>"$ports_dir/$p.lock" || continue
		if flock -n "$port_lock" &&
			python3 -c 'import socket, sys; socket.socket().bind(("127.0.0.1", int(sys.argv[1])))' "$p" 2>/dev/null; then
			port=$p
			return 0
		fi
		exec {port_lock}>&-
	done
	echo "up: no free port below $low" >&2
	return 1
}

start_proc() { # name port binary [env…]: the port is free_port's, whose lock the service keeps
	local name=$1 port=$2 binary=$3
	shift 3
	env "$@" OPENVIBE_ADDR="127.0.0.1:$port" "$bin/$binary" serve >"$dir/$name.log" 2>&1 &
	echo $! >"$dir/$name.pid"
	echo "$port" >"$dir/$name.port"
	exec {port_lock}>&-
}

wait_healthy() { # port [pid]
	for _ in $(seq 100); do
		if [ -n "${2:-}" ] && ! kill -0 "$2" 2>/dev/null; then
			echo "up: the process for port $1 exited" >&2
			return 1
		fi
		curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "up: nothing healthy on port $1" >&2
	return 1
}

start() {
	mkdir -p "$dir" "$bin"
	if [ -f "$dir/proxy.pid" ] && kill -0 "$(cat "$dir/proxy.pid")" 2>/dev/null; then
		echo "up: already running at http://$addr"; return
	fi
	echo "up: building" >&2
	go build -o "$bin/" ./services/publish-gateway ./services/chat-socket ./services/api ./services/agent-runner
	(cd deploy && go build -o "$bin/devproxy" ./devproxy)
	# As root PostgreSQL runs as the postgres user, which must be able to reach its data
	# directory under $dir (a private temporary directory is 0700).
	[ "$(id -u)" = 0 ] && chmod go+x "$dir"
	local services_env
	services_env=$(OPENVIBE_SERVICES_DIR=$dir/services bash scripts/test-services.sh env) ||
		{ echo "up: PostgreSQL or Redis did not start" >&2; return 1; }
	eval "$services_env"
	local pg=${OPENVIBE_TEST_POSTGRES_URL%%\?*}
	pg=${pg%/postgres}
	psql "$OPENVIBE_TEST_POSTGRES_URL" -qtAc "SELECT 1 FROM pg_database WHERE datname='openvibe'" | grep -q 1 ||
		psql "$OPENVIBE_TEST_POSTGRES_URL" -qc "CREATE DATABASE openvibe" >/dev/null
	local secret_file=$dir/jwt-secret
	[ -f "$secret_file" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$secret_file"
	common=(OPENVIBE_DATABASE_URL="$pg/openvibe?sslmode=disable" OPENVIBE_REDIS_URL="$OPENVIBE_TEST_REDIS_URL"
		OPENVIBE_JWT_SECRET_FILE="$secret_file" OPENVIBE_LOG_FORMAT=text
		OPENVIBE_CHAT_ALLOWED_ORIGINS="http://$addr")
	echo "up: migrating" >&2
	env "${common[@]}" "$bin/api" migrate >"$dir/migrate.log" 2>&1 || { cat "$dir/migrate.log" >&2; return 1; }
	local routes=() svc binary n port ports
	for svc in publish-gateway chat-socket api; do
		ports=()
		for n in 1 2; do
			free_port
			start_proc "$svc-$n" "$port" "$svc" "${common[@]}"
			ports+=("127.0.0.1:$port")
		done
		case $svc in
		publish-gateway) routes+=(-route "/ws/vibe-coding/publish=$(IFS=,; echo "${ports[*]}")") ;;
		chat-socket) routes+=(-route "/ws/chat/=$(IFS=,; echo "${ports[*]}")") ;;
		api) routes+=(-route "/=$(IFS=,; echo "${ports[*]}")") ;;
		esac
	done
	free_port
	mkdir -p "$dir/workspaces"
	start_proc agent-runner-1 "$port" agent-runner "${common[@]}" OPENVIBE_AGENT_WORKSPACE_ROOT="$dir/workspaces" \
		OPENVIBE_AGENT_DATABASE="$dir/agent.db"
	routes+=(-route "/agent/=127.0.0.1:$port")
	for f in "$dir"/*-[12].port; do
		wait_healthy "$(cat "$f")" "$(cat "${f%.port}.pid")" || { tail -n 20 "${f%.port}.log" >&2; return 1; }
	done
	"$bin/devproxy" -listen "$addr" "${routes[@]}" >"$dir/proxy.log" 2>&1 &
	echo $! >"$dir/proxy.pid"
	wait_healthy "${addr##*:}" "$!" || { cat "$dir/proxy.log" >&2; return 1; }
	echo "up: running at http://$addr (logs in $dir; stop with make down)"
}

stop() {
	local f
	for f in "$dir"/*.pid; do
		[ -f "$f" ] || continue
		case $f in */services/*) continue ;; esac
		kill "$(cat "$f")" 2>/dev/null || true
		rm -f "$f"
	done
	OPENVIBE_SERVICES_DIR=$dir/services bash scripts/test-services.sh stop
	echo "up: stopped" >&2
}

status() {
	local f
	for f in "$dir"/*.pid; do
		[ -f "$f" ] || continue
		local name; name=$(basename "$f" .pid)
		if kill -0 "$(cat "$f")" 2>/dev/null; then echo "$name running (port $(cat "$dir/$name.port" 2>/dev/null || echo "${addr##*:}"))"; else echo "$name dead"; fi
	done
}

env_out() {
	echo "export OPENVIBE_UP_URL='http://$addr'"
	local f
	for f in "$dir"/*-[12].port; do
		local name; name=$(basename "$f" .port)
		name=$(echo "$name" | tr 'a-z-' 'A-Z_')
		echo "export OPENVIBE_UP_${name}='127.0.0.1:$(cat "$f")'"
	done
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
status) status ;;
env) env_out ;;
*) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
