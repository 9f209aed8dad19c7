# Sourced, not run: a throwaway PostgreSQL cluster and a throwaway nats-server for one test run, under
# one temporary directory, on loopback ports picked at run time. They never touch the machine's own
# PostgreSQL or NATS, nor any configuration outside that directory. See infra/test.sh.
#
# start_private_postgres / start_private_nats set PRIVATE_DATABASE_URL / PRIVATE_NATS_URL;
# stop_private_services stops whatever was started and removes the directory (safe to call at any point).

# shellcheck source=infra/packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/packages.sh"

PRIVATE_DIR=""
PG_BIN=""
PG_DATA=""
NATS_PID=""

say() { echo "test-services: $*" >&2; }

fail() { # message
  say "$1"
  exit 1
}

# Prints what a service logged last, then stops the run: a service that does not come up is the
# whole explanation of a failed run, so it must be on screen.
fail_with_log() { # message log-file
  say "$1"
  if [ -s "$2" ]; then
    say "the end of its log ($(basename "$2")):"
    tail -n 30 "$2" | sed 's/^/    /' >&2
  fi
  exit 1
}

# initdb and postgres refuse to run as root; as root they run as the `postgres` user that the Debian
# package creates. Run from the private directory: that user may not be allowed into the caller's cwd.
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd "$PRIVATE_DIR" && runuser -u postgres -- "$@")
  else
    (cd "$PRIVATE_DIR" && "$@")
  fi
}

make_private_dir() {
  [ -n "$PRIVATE_DIR" ] && return 0
  PRIVATE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/verdict-test.XXXXXX")"
  if [ "$(id -u)" -eq 0 ]; then
    getent passwd postgres >/dev/null || fail "as root, initdb runs as the postgres user, and there is none"
    chown postgres: "$PRIVATE_DIR"
    runuser -u postgres -- test -w "$PRIVATE_DIR" ||
      fail "the postgres user cannot write to $PRIVATE_DIR; set TMPDIR to a directory it can reach"
  fi
}

# A loopback port the kernel just handed out and took back. Another process could take it before the
# server binds it; the starts below then try again on a new port.
free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# True when a failed start's log says the port was taken in the meantime (worth another port).
port_was_taken() { # log-file
  grep -qiE 'address already in use|could not bind|could not create listen socket' "$1"
}

start_private_postgres() {
  make_private_dir
  PG_BIN="$(postgres_bindir)"
  PG_DATA="$PRIVATE_DIR/postgres"
  init_cluster
  local log="$PRIVATE_DIR/postgres.log" port attempt
  for attempt in 1 2 3; do
    port="$(free_port)"
    rm -f "$log" # pg_ctl appends: only this attempt's lines should decide whether to try again
    if as_postgres "$PG_BIN/pg_ctl" start -w -t 60 -D "$PG_DATA" -l "$log" -o "-p $port" >/dev/null 2>&1; then
      PRIVATE_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
      say "PostgreSQL $(basename "$(dirname "$PG_BIN")") on 127.0.0.1:$port ($PG_DATA)"
      return 0
    fi
    port_was_taken "$log" || break
    say "port $port was taken before PostgreSQL bound it; trying another (attempt $attempt)"
  done
  fail_with_log "PostgreSQL did not start" "$log"
}

# A new cluster whose only clients are this run's tests: trust on loopback (in this cluster's own
# pg_hba.conf), no TCP but 127.0.0.1, the unix socket inside the private directory, and durability
# switched off, since the cluster is deleted at the end of the run anyway.
init_cluster() {
  local log="$PRIVATE_DIR/initdb.log"
  # C.UTF-8 like the Debian cluster the tests ran on before: lower() and upper() handle non-ASCII.
  as_postgres "$PG_BIN/initdb" --pgdata="$PG_DATA" --username=postgres --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$log" 2>&1 ||
    fail_with_log "initdb failed" "$log"

  # Written through as_postgres so the files stay the postgres user's.
  as_postgres tee "$PG_DATA/pg_hba.conf" >/dev/null <<'EOF'
# Throwaway test cluster (infra/private-services.sh): anyone on this machine may connect, nobody else.
local all all              trust
host  all all 127.0.0.1/32 trust
EOF

  # max_connections: vitest runs the test files in parallel, each with pools of up to 10 connections,
  # plus the API and engine processes some tests start. A full run on 2 cores peaked at 22 (sampled each
  # second); 300 leaves room for more cores, hence more files at once, without a "too many clients".
  as_postgres tee -a "$PG_DATA/postgresql.conf" >/dev/null <<EOF

# Throwaway test cluster (infra/private-services.sh)
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PRIVATE_DIR'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

start_private_nats() {
  make_private_dir
  local bin log="$PRIVATE_DIR/nats.log" port attempt
  bin="$(nats_server_bin)"
  mkdir -p "$PRIVATE_DIR/nats"
  for attempt in 1 2 3; do
    port="$(free_port)"
    : >"$log"
    "$bin" -js -sd "$PRIVATE_DIR/nats" -a 127.0.0.1 -p "$port" </dev/null >>"$log" 2>&1 &
    NATS_PID=$!
    if wait_for_nats "$log"; then
      PRIVATE_NATS_URL="nats://127.0.0.1:$port"
      say "NATS with JetStream on 127.0.0.1:$port ($PRIVATE_DIR/nats)"
      return 0
    fi
    stop_private_nats
    port_was_taken "$log" || break
    say "port $port was taken before NATS bound it; trying another (attempt $attempt)"
  done
  fail_with_log "NATS did not start" "$log"
}

# nats-server logs "Server is ready" once clients can connect, JetStream included.
wait_for_nats() { # log-file
  local _
  for _ in $(seq 1 100); do
    grep -q 'Server is ready' "$1" && return 0
    if ! kill -0 "$NATS_PID" 2>/dev/null; then
      local status=0
      wait "$NATS_PID" || status=$?
      NATS_PID=""
      say "nats-server exited with status $status"
      return 1
    fi
    sleep 0.1
  done
  say "NATS did not say it was ready within 10 s"
  return 1
}

stop_private_nats() {
  [ -n "$NATS_PID" ] || return 0
  kill "$NATS_PID" 2>/dev/null || true
  wait "$NATS_PID" 2>/dev/null || true
  NATS_PID=""
}

stop_private_postgres() {
  [ -n "$PG_DATA" ] && [ -f "$PG_DATA/postmaster.pid" ] || return 0
  # immediate: nothing in a throwaway cluster is worth a shutdown checkpoint.
  if ! as_postgres "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m immediate >/dev/null 2>&1; then
    say "pg_ctl stop failed; killing the postmaster"
    tail -n 10 "$PRIVATE_DIR/postgres.log" 2>/dev/null | sed 's/^/    /' >&2 || true
    kill -KILL "$(head -n 1 "$PG_DATA/postmaster.pid")" 2>/dev/null || true
  fi
  PG_DATA=""
}

stop_private_services() {
  stop_private_postgres
  stop_private_nats
  if [ -n "$PRIVATE_DIR" ]; then
    rm -rf "$PRIVATE_DIR"
    PRIVATE_DIR=""
  fi
}
