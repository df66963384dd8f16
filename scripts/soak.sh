#!/usr/bin/env bash
# Soak (issue 10): gatewayd on its embedded default under a steady mixed load for a duration,
# with its memory sampled. Not part of the test command; its numbers go in the issue note.
#
#   scripts/soak.sh [MINUTES]        (default 30; needs a build: scripts/build.sh)
#
# Starts build/reference-server/gatewayd on 127.0.0.1 (a free port, a fresh data directory),
# runs `build/tests/gateway_bench soak_load` with the printed demo key (per-minute requests,
# unexpected answers, p50/p99 per kind of traffic), samples gatewayd's VmRSS every 10 s into
# build/soak/rss.tsv, and prints the RSS at the start, at each fifth of the run and at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
gatewayd=build/reference-server/gatewayd
load=build/tests/gateway_bench
[[ -x $gatewayd && -x $load ]] || { echo "soak: build first (scripts/build.sh)" >&2; exit 1; }

out=build/soak
rm -rf "$out"
mkdir -p "$out"
data=$(mktemp -d)
# The per-key limit is raised so the load measures the server, not the 429 path.
GATEWAY_LOG_LEVEL=warn "$gatewayd" serve --listen 127.0.0.1:0 --data-dir "$data" \
  --key-rate 1000 --key-burst 2000 >"$out/gatewayd.out" 2>"$out/gatewayd.err" &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

for _ in $(seq 100); do
  grep -q 'demo API key' "$out/gatewayd.out" 2>/dev/null && break
  kill -0 "$pid" || { cat "$out/gatewayd.err" >&2; exit 1; }
  sleep 0.1 # waiting for a separate process to print its address
done
url=$(grep -o 'listening on http://[^ ]*' "$out/gatewayd.out" | cut -d' ' -f3)
key=$(grep 'demo API key' "$out/gatewayd.out" | sed 's/.*: //')
[[ -n $url && -n $key ]] || { echo "soak: gatewayd printed no address or key" >&2; exit 1; }
echo "soak: gatewayd pid $pid at $url for $minutes min"

(
  start=$(date +%s)
  while kill -0 "$pid" 2>/dev/null; do
    printf '%s\t%s\n' $(($(date +%s) - start)) "$(awk '/VmRSS/ {print $2}' /proc/$pid/status)"
    sleep 10
  done
) >"$out/rss.tsv" &
sampler=$!

"$load" soak_load "$key" "$url" $((minutes * 60)) | tee "$out/load.txt"
kill "$sampler" 2>/dev/null || true

echo "soak: gatewayd VmRSS (KiB) over time:"
awk -v n="$(wc -l <"$out/rss.tsv")" 'NR == 1 || NR == n || NR % int(n / 5 + 1) == 0 {
  printf "  t=%5ss  %s KiB\n", $1, $2 }' "$out/rss.tsv"
echo "soak: gatewayd warnings/errors logged: $(grep -c 'level=\(warn\|error\)' "$out/gatewayd.err" || true)"
