#!/usr/bin/env bash
# Installs every Debian 12 package the build, the tests and the benchmarks need.
# Idempotent: only missing packages are installed, so a provisioned machine pays nothing.
set -euo pipefail

packages=(
  build-essential cmake git ninja-build ccache pkg-config ca-certificates
  libboost1.81-all-dev libssl-dev catch2 libtrompeloeil-cpp-dev
  libsecp256k1-dev libcrypto++-dev libsqlite3-dev sqlite3 curl wrk
)

# The test command also needs the browser test's tools: Debian's chromium and Node.js with npm.
# Node is checked by command, not package: a machine may carry a Node.js build that bundles
# npm and conflicts with Debian's npm package.
# And the fuzz targets (scripts/fuzz.sh): clang-14 with its libFuzzer/sanitizer runtime, and
# llvm-14's symbolizer for readable sanitizer reports.
if [[ ${1:-} == --test ]]; then
  packages+=(chromium clang-14 libclang-rt-14-dev llvm-14)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-deps: missing ${missing[*]}; run as root to install them" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
