#!/usr/bin/env bash
# Prints the build time of every translation unit and link of the last build, heaviest first,
# from Ninja's log (so the next compile-time lever is visible), and the sum.
# Usage: scripts/build-times.sh [build-dir] [how-many]   (default: build, 30)
set -euo pipefail
dir=${1:-build}
n=${2:-30}
log="$dir/.ninja_log"
[[ -f $log ]] || { echo "no $log: build first" >&2; exit 1; }
# .ninja_log v5: start_ms end_ms mtime output hash; a rebuilt output appears again later, and
# only its last entry describes the last build.
awk 'NR > 1 { t[$4] = ($2 - $1) / 1000 } END { for (o in t) printf "%7.1f s  %s\n", t[o], o }' \
  "$log" | sort -rn | head -n "$n"
awk 'NR > 1 { t[$4] = ($2 - $1) / 1000 } END { for (o in t) { s += t[o]; c++ }
     printf "%7.1f s  in all (%d steps; wall time is about this over the -j jobs)\n", s, c }' "$log"
