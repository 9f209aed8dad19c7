#!/usr/bin/env bash
# The test command (`npm test [-- vitest arguments]`): every vitest project against a PostgreSQL and a
# NATS of the run's own, started here from the installed binaries and removed afterwards, whether the
# tests pass, fail or the run is interrupted. The machine's own PostgreSQL and NATS are never used.
#
# DATABASE_URL / NATS_URL, when set, name a PostgreSQL / NATS to use instead (each on its own).
# The tests learn the URLs from TEST_DATABASE_URL / TEST_NATS_URL, which only this script sets
# (packages/core/src/testing/index.ts reads them and refuses to run without them).
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/private-services.sh

VITEST_PID=""
RUN_TMPDIR=""

main() {
  trap on_exit EXIT
  # A signal only has to end the script: the EXIT trap then stops everything. 130/143 as a shell would.
  trap 'exit 130' INT
  trap 'exit 143' TERM

  use_memory_tmpdir

  if [ -n "${DATABASE_URL:-}" ]; then
    say "PostgreSQL from DATABASE_URL"
    TEST_DATABASE_URL="$DATABASE_URL"
  else
    start_private_postgres
    TEST_DATABASE_URL="$PRIVATE_DATABASE_URL"
  fi
  if [ -n "${NATS_URL:-}" ]; then
    say "NATS from NATS_URL"
    TEST_NATS_URL="$NATS_URL"
  else
    start_private_nats
    TEST_NATS_URL="$PRIVATE_NATS_URL"
  fi
  # Tests that start their own nats-server (tests/support/nats-server.ts) use the same binary.
  NATS_SERVER_BIN="$(nats_server_bin)"
  # The console's browser tests (tests/support/browser.ts) drive this chromium.
  CHROMIUM_BIN="$(chromium_bin)"
  # The cluster tests (infra/cluster/) make network namespaces with iproute2's `ip`, and start PostgreSQL
  # servers of their own from these binaries.
  PATH="$(dirname "$(ip_bin)"):$PATH"
  PG_BIN="$(postgres_bindir)"
  # The processes the tests start (API processes, engine nodes, operator commands, the CLI) share Node's
  # compile cache: each start after the first reads the compiled module graph instead of compiling its few
  # hundred files again, about half of a start's CPU, and the suite starts a few hundred. Keyed by content,
  # so a cache left by an earlier run is never stale.
  NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/node_modules/.cache/node-compile-cache}"
  export TEST_DATABASE_URL TEST_NATS_URL NATS_SERVER_BIN CHROMIUM_BIN PATH PG_BIN NODE_COMPILE_CACHE

  run_vitest "$@"
}

# Every temporary folder of the run (the private PostgreSQL and NATS below, each embedded DATA_DIR, the
# browser's profile, the README walk-through's project) goes in one folder of the run's own on /dev/shm, a
# tmpfs, when the machine has one with room; it is removed at the end. On this machine's disk (ext4) making
# a file searches past every inode deleted in the last few minutes, and the suite deletes files by the
# thousand (each embedded start copies a database template of 1,200 files, and each stop removes it): an
# embedded API start spent 0.7 s of CPU making files (BENCHMARKS.md, "The test suite's time"). A TMPDIR
# given to the command is kept, and a machine without such a tmpfs runs as before.
use_memory_tmpdir() {
  [ -z "${TMPDIR:-}" ] || return 0
  local shm=/dev/shm free_kib
  [ -d "$shm" ] && [ -w "$shm" ] && [ "$(stat -f -c %T "$shm" 2>/dev/null)" = tmpfs ] || return 0
  # Room for the run's peak (the PostgreSQL cluster, a few DATA_DIRs and installs at once: well under 2 GiB).
  free_kib="$(df -Pk "$shm" | awk 'NR == 2 { print $4 }')"
  [ "${free_kib:-0}" -ge $((4 * 1024 * 1024)) ] || return 0
  RUN_TMPDIR="$(mktemp -d "$shm/verdict-run.XXXXXX")"
  # The private PostgreSQL runs as the postgres user (private-services.sh), which must pass through.
  chmod 711 "$RUN_TMPDIR"
  export TMPDIR="$RUN_TMPDIR"
  say "temporary files in $RUN_TMPDIR (tmpfs)"
}

# vitest runs in a process group of its own, in the background: `wait` returns as soon as a signal
# arrives (a foreground child would make the traps wait for the whole run), and on the way out the group
# can be stopped at once with everything the tests started in it (API and engine processes, nats-servers).
run_vitest() {
  setsid vitest run "$@" &
  VITEST_PID=$! # setsid does not fork here (a background job is no group leader): this is the group id
  local status=0
  wait "$VITEST_PID" || status=$?
  node infra/slowest-test-files.ts 15 || true
  return "$status"
}

# Whatever the test run left: processes of vitest's group, then the private services.
on_exit() {
  local status=$?
  trap '' INT TERM # a second Ctrl-C must not cut the clean-up short
  stop_test_processes
  stop_private_services
  if [ -n "$RUN_TMPDIR" ]; then rm -rf "$RUN_TMPDIR"; fi
  exit "$status"
}

stop_test_processes() {
  [ -n "$VITEST_PID" ] || return 0
  kill -TERM -- "-$VITEST_PID" 2>/dev/null || return 0 # nothing left in the group: the usual case
  local _
  for _ in $(seq 1 50); do
    kill -0 -- "-$VITEST_PID" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$VITEST_PID" 2>/dev/null || true
}

main "$@"
