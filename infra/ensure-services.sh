#!/usr/bin/env bash
# For the benchmarks only (BENCHMARKS.md; the tests bring their own servers, see infra/test.sh): makes
# sure the machine's PostgreSQL (127.0.0.1:5432) and NATS with JetStream (127.0.0.1:4222), which
# `npm run bench` measures by default, answer. Starts the Debian-packaged services when nothing listens,
# installing the packages when they are missing. It changes no configuration: when PostgreSQL refuses
# the bench's passwordless login, it says so and stops. DATABASE_URL / NATS_URL set: nothing to do for
# that service. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/packages.sh

PG_PORT=5432
NATS_PORT=4222
PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"

say() { echo "ensure-services: $*" >&2; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # port name log-file
  local _
  for _ in $(seq 1 60); do
    listening "$1" && return 0
    sleep 0.5
  done
  say "$2 did not start on 127.0.0.1:$1"
  if [ -s "$3" ]; then tail -n 30 "$3" | sed 's/^/    /' >&2; fi
  exit 1
}

ensure_postgres() {
  if [ -n "${DATABASE_URL:-}" ]; then return 0; fi
  if ! listening "$PG_PORT"; then
    local version
    postgres_bindir >/dev/null # installs the package (which creates and starts a cluster) when missing
    # The newest cluster Debian set up, as pg_ctlcluster names it (<version> main).
    version="$(printf '%s\n' /etc/postgresql/*/main | sort -V | tail -n 1 | cut -d/ -f4)"
    if ! listening "$PG_PORT"; then
      say "starting the machine's PostgreSQL $version"
      as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
      wait_for "$PG_PORT" PostgreSQL "/var/log/postgresql/postgresql-$version-main.log"
    fi
  fi
  check_postgres_login
}

# The bench connects as postgres without a password. A stock Debian cluster asks for one over TCP; the
# fix is the operator's call (DATABASE_URL with a password, or a trust line), not this script's.
check_postgres_login() {
  command -v psql >/dev/null || return 0
  if ! PGCONNECT_TIMEOUT=5 psql "$PG_URL" -Atqc 'select 1' </dev/null >/dev/null 2>&1; then
    say "PostgreSQL on :$PG_PORT refuses $PG_URL (no password)."
    say "Set DATABASE_URL to a URL it accepts, or allow that login in its pg_hba.conf yourself."
    exit 1
  fi
}

ensure_nats() {
  if [ -n "${NATS_URL:-}" ]; then return 0; fi
  listening "$NATS_PORT" && return 0
  local bin
  bin="$(nats_server_bin)"
  # Not the package's systemd service: its /etc/nats-server.conf has no JetStream, and changing it is not
  # ours to do. The same binary with JetStream on, as a daemon of its own.
  as_root mkdir -p /var/lib/nats-server
  say "starting the machine's NATS with JetStream"
  as_root start-stop-daemon --start --oknodo --background --exec "$bin" -- \
    -a 127.0.0.1 -p "$NATS_PORT" -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for "$NATS_PORT" NATS /var/log/nats-server.log
}

ensure_postgres
ensure_nats
say "PostgreSQL and NATS for the benchmarks answer"
