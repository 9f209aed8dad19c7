# Sourced, not run: finds the PostgreSQL and NATS binaries of the Debian packages, installing the
# packages with apt-get when they are missing. Used by infra/test.sh and infra/ensure-services.sh.
# Installing a package may start the machine's own service (Debian does that); nothing here uses it.

# apt-get needs root; sudo only when we are not root already (machines without sudo run as root).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

APT_UPDATED=""
apt_install() { # [apt-get option…] package…
  if [ -z "$APT_UPDATED" ]; then
    as_root apt-get update -qq
    APT_UPDATED=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# The bin directory of the newest installed PostgreSQL (Debian keeps each major version in
# /usr/lib/postgresql/<version>/bin, off the PATH), installing the `postgresql` package when there is none.
postgres_bindir() {
  local newest
  newest="$(newest_postgres_bindir)"
  if [ -z "$newest" ]; then
    echo "infra: installing PostgreSQL from the Debian packages" >&2
    apt_install postgresql
    newest="$(newest_postgres_bindir)"
  fi
  if [ -z "$newest" ]; then
    echo "infra: no PostgreSQL in /usr/lib/postgresql/*/bin even after installing the package" >&2
    return 1
  fi
  echo "$newest"
}

newest_postgres_bindir() {
  local initdb
  # printf rather than ls or find: with no match the glob stays literal and nothing fails under pipefail.
  initdb="$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)"
  if [ -x "$initdb" ]; then dirname "$initdb"; fi
}

# The nats-server binary: NATS_SERVER_BIN when set (tests/support/nats-server.ts reads the same
# variable), else the Debian package's, installed when missing.
nats_server_bin() {
  local bin="${NATS_SERVER_BIN:-/usr/sbin/nats-server}"
  if [ ! -x "$bin" ] && [ -z "${NATS_SERVER_BIN:-}" ]; then
    echo "infra: installing nats-server from the Debian packages" >&2
    apt_install nats-server
  fi
  if [ ! -x "$bin" ]; then
    echo "infra: no nats-server at $bin" >&2
    return 1
  fi
  echo "$bin"
}

# The browser of the console's end-to-end tests (tests/support/browser.ts drives it through
# playwright-core, which never downloads one): CHROMIUM_BIN when set, else Debian's chromium, installed
# when missing. Without recommends: the tests need the headless browser, not its desktop integration.
chromium_bin() {
  local bin="${CHROMIUM_BIN:-/usr/bin/chromium}"
  if [ ! -x "$bin" ] && [ -z "${CHROMIUM_BIN:-}" ]; then
    echo "infra: installing chromium from the Debian packages" >&2
    apt_install --no-install-recommends chromium
  fi
  if [ ! -x "$bin" ]; then
    echo "infra: no chromium at $bin" >&2
    return 1
  fi
  echo "$bin"
}

# `ip` of iproute2, which the cluster tests make their network namespaces with (infra/cluster/netns.ts):
# installed when missing. Its directory goes on the tests' PATH.
ip_bin() {
  local bin
  bin="$(command -v ip || true)"
  if [ -z "$bin" ]; then
    echo "infra: installing iproute2 from the Debian packages" >&2
    apt_install iproute2
    bin="$(command -v ip || true)"
  fi
  if [ -z "$bin" ]; then
    echo "infra: no ip command even after installing iproute2" >&2
    return 1
  fi
  echo "$bin"
}
