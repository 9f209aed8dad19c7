#!/usr/bin/env bash
# `npm run chaos -- --minutes N [--seed S]`: a chaos run on the test cluster (infra/cluster/chaos.ts).
# Needs root (network namespaces); finds or installs PostgreSQL, nats-server and iproute2 as the tests do.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=infra/packages.sh
source infra/packages.sh
PATH="$(dirname "$(ip_bin)"):$PATH"
PG_BIN="$(postgres_bindir)"
NATS_SERVER_BIN="$(nats_server_bin)"
export PATH PG_BIN NATS_SERVER_BIN
exec node infra/cluster/chaos-cli.ts "$@"
