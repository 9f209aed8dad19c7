#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and NATS with JetStream (127.0.0.1:4222) answer before tests run.
# Starts the machine's Debian-packaged copies when nothing listens, installing them with apt-get when
# they are missing. Idempotent: does nothing when both already answer.
set -euo pipefail

PG_PORT="${PGPORT:-5432}"
NATS_PORT="${NATS_PORT:-4222}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # port name
  for _ in $(seq 1 60); do listening "$1" && return 0; sleep 0.5; done
  echo "ensure-services: $2 did not start on 127.0.0.1:$1" >&2
  exit 1
}

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

ensure_postgres() {
  listening "$PG_PORT" && return 0
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "ensure-services: installing PostgreSQL from Debian packages"
    apt_install postgresql
  fi
  local version
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  local hba="/etc/postgresql/$version/main/pg_hba.conf"
  # Tests connect over loopback as postgres without a password, as on the project's machines.
  if ! grep -qE '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
    $SUDO sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
  fi
  echo "ensure-services: starting PostgreSQL $version"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_for "$PG_PORT" PostgreSQL
}

ensure_nats() {
  listening "$NATS_PORT" && return 0
  if [ ! -x /usr/sbin/nats-server ]; then
    echo "ensure-services: installing nats-server from Debian packages"
    apt_install nats-server
  fi
  $SUDO mkdir -p /var/lib/nats-server
  echo "ensure-services: starting NATS with JetStream"
  $SUDO start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p "$NATS_PORT" -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for "$NATS_PORT" NATS
}

ensure_postgres
ensure_nats
echo "ensure-services: PostgreSQL on :$PG_PORT and NATS on :$NATS_PORT are up"
