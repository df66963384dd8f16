#!/usr/bin/env bash
# Browser test of the settings page (spec 5.1, CONTRACT §9). Installs what it needs when it is
# missing (Debian's chromium, Node.js, the npm packages package-lock.json pins), then runs
# settings.test.mjs against a gatewayd binary.
#
#   tests/browser/run.sh [path/to/gatewayd]
#
# gatewayd defaults to $GATEWAYD, else build/reference-server/gatewayd of this checkout.
# playwright-core never downloads a browser; the test drives /usr/bin/chromium.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gatewayd="${1:-${GATEWAYD:-$here/../../build/reference-server/gatewayd}}"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_install() {
    if [ "$apt_updated" -eq 0 ]; then
        as_root apt-get update -qq
        apt_updated=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

if [ ! -x /usr/bin/chromium ]; then
    echo "run.sh: installing Debian's chromium" >&2
    apt_install chromium
fi
# By command, not package: a Node.js build that bundles npm conflicts with Debian's npm.
if ! command -v node >/dev/null 2>&1; then
    echo "run.sh: installing Debian's Node.js" >&2
    apt_install nodejs
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "run.sh: installing Debian's npm" >&2
    apt_install npm
fi
bash "$here/../../scripts/npm-deps.sh" "$here"
if [ ! -x "$gatewayd" ]; then
    echo "run.sh: no gatewayd binary at $gatewayd (build the project first)" >&2
    exit 2
fi

exec node "$here/settings.test.mjs" "$gatewayd"
