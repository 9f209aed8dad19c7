#!/usr/bin/env bash
# The test command (`npm test`): real PostgreSQL and NATS first, then every vitest project.
set -euo pipefail
cd "$(dirname "$0")/.."
bash infra/ensure-services.sh
exec vitest run "$@"
