#!/usr/bin/env bash
# `npm run lint:api`: the API document as the server builds it, linted by Redocly (recommended rules) and
# Spectral (OpenAPI + OWASP API Security rules, narrowed and waived with reasons in .spectral.mjs).
# Fails on any error; warnings are printed. Needs no network. With a file argument it lints that document
# (the tests lint the one a running server serves).
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
document="${1:-$dir/openapi.json}"
[ $# -gt 0 ] || node apps/api/src/openapi/export.ts "$document"
redocly lint --extends recommended --format stylish "$document"
spectral lint --ruleset .spectral.mjs --fail-severity error --format stylish "$document"
