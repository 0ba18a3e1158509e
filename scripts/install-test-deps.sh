#!/usr/bin/env bash
# Installs what the test suites need beyond Go, when it is missing: redis-server, PostgreSQL,
# Chromium for the browser tests, bubblewrap for the agent sandbox tests and docker-compose
# (only its `config` check; no container engine is needed).
set -euo pipefail
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
command -v jq >/dev/null 2>&1 || need+=(jq)
command -v curl >/dev/null 2>&1 || need+=(curl)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-test-deps: missing ${need[*]}; install them with apt-get" >&2
	exit 0
fi
echo "install-test-deps: installing ${need[*]}" >&2
if [ ! -f /tmp/.openvibe-apt-updated ]; then apt-get update -qq >&2 && touch /tmp/.openvibe-apt-updated; fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
