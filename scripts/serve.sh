#!/usr/bin/env bash
# Installs what is missing, builds, and starts the reference server on its embedded default:
# built-in mock upstreams on loopback, data under ./data, listening on 127.0.0.1:8080.
# Extra arguments go to gatewayd (e.g. --listen 127.0.0.1:9090).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec build/reference-server/gatewayd serve --data-dir ./data "$@"
