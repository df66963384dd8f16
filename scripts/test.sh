#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit, contract, e2e) through CTest,
# then the fuzz targets' smoke run (scripts/fuzz.sh --smoke, its own clang build in build-fuzz/).
# Usage: scripts/test.sh [--sanitize]   (ASan + UBSan build in build-asan/)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=build
[[ ${1:-} == --sanitize ]] && build_dir=build-asan
bash scripts/install-deps.sh --test
bash scripts/npm-deps.sh
bash scripts/build.sh "$@"
export GATEWAY_LOG_LEVEL=${GATEWAY_LOG_LEVEL:-warn}
ctest --test-dir "$build_dir" --output-on-failure -j "${GATEWAY_JOBS:-2}"
bash scripts/fuzz.sh --smoke # libFuzzer targets over their corpora + a few seconds each
