#!/usr/bin/env bash
# Configures and builds the tree into build/ (or build-asan/ with --sanitize).
# Usage: scripts/build.sh [--sanitize] [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

build_dir=build
extra=()
if [[ ${1:-} == --sanitize ]]; then
  build_dir=build-asan
  extra+=(-DGATEWAY_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
  shift
fi
jobs=${GATEWAY_JOBS:-2}
cmake -S . -B "$build_dir" -G Ninja "${extra[@]}" "$@" >/dev/null
cmake --build "$build_dir" -j "$jobs"
