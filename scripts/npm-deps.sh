#!/usr/bin/env bash
# Installs the npm packages of the Node-based tests exactly as their committed package-lock.json
# pins them (`npm ci`): every tests/*/ directory with a package-lock.json, or only the given ones.
# A directory is installed again when its lockfile changed since the last install (a copy of the
# installed lockfile is kept in node_modules), so a pin change reaches machines that installed
# the old one. Each directory's .npmrc sets engine-strict: a package whose `engines` exclude the
# running Node.js stops the install with npm's EBADENGINE message (rules: tests/README.md).
#
#   scripts/npm-deps.sh [dir...]
set -euo pipefail

dirs=("$@")
if ((${#dirs[@]} == 0)); then
  root="$(cd "$(dirname "$0")/.." && pwd)"
  for lock in "$root"/tests/*/package-lock.json; do dirs+=("$(dirname "$lock")"); done
fi

for dir in "${dirs[@]}"; do
  installed="$dir/node_modules/.installed-package-lock.json"
  cmp -s "$dir/package-lock.json" "$installed" && continue
  echo "npm-deps: npm ci in $dir" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$dir/package-lock.json" "$installed"
done
