#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz into build-fuzz/ (clang-14, ASan + UBSan) and runs
# them.
#
#   scripts/fuzz.sh --smoke [target...]
#       Every target over its seed corpus and its regressions, then a few seconds of fuzzing
#       (FUZZ_SMOKE_SECONDS, default 5). Fails on any crash, sanitizer report or failed check.
#       The test command (scripts/test.sh) runs this.
#   scripts/fuzz.sh --long [--runs N] [--seconds S] [target...]
#       One target at a time, niced, until N executions (default 10000000) or S seconds
#       (default 1800), whichever comes first, growing a working corpus in
#       build-fuzz/fuzz-long/corpus/<target>. Appends to build-fuzz/fuzz-long/summary.txt:
#       executions, coverage (cov, ft), corpus size and findings per target.
#
# Crash inputs land in build-fuzz/fuzz-*/findings/<target>/; reproduce one with
#   build-fuzz/tests/fuzz/fuzz_<target> <file>
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
shift || true
runs=10000000
seconds=1800
targets=()
while (($#)); do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [[ $mode != --smoke && $mode != --long ]]; then
  sed -n '2,18p' "$0" >&2
  exit 2
fi
all_targets=(http_request decimal_address client_bodies router alpha_info alpha_exchange beta_rest
             gamma_rest eip712 msgpack ws_frames ws_wire upstream_headers)
((${#targets[@]})) || targets=("${all_targets[@]}")

for tool in clang++-14 cmake ninja; do
  command -v "$tool" >/dev/null || { echo "fuzz: $tool missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done

build=build-fuzz
cmake -S . -B "$build" -G Ninja -DGATEWAY_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
started=$(date +%s)
cmake --build "$build" -j "${GATEWAY_JOBS:-2}" --target fuzz_targets
echo "fuzz: build took $(($(date +%s) - started)) s"

symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[[ -x $symbolizer ]] && export ASAN_SYMBOLIZER_PATH=$symbolizer
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The options every run shares; the input length follows the largest seed (at least 4096).
common_options() {
  local t=$1
  local opts=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
  [[ -f tests/fuzz/dict/$t.dict ]] && opts+=("-dict=tests/fuzz/dict/$t.dict")
  printf '%s\n' "${opts[@]}"
}

# Seed corpus and regressions of a target (the regressions directory may be missing).
inputs_of() {
  local t=$1
  echo "tests/fuzz/corpus/$t"
  [[ -d tests/fuzz/regressions/$t ]] && echo "tests/fuzz/regressions/$t"
  return 0
}

if [[ $mode == --smoke ]]; then
  out=$build/fuzz-smoke
  rm -rf "$out"
  failed=()
  for t in "${targets[@]}"; do
    mkdir -p "$out/corpus/$t" "$out/findings/$t"
    mapfile -t opts < <(common_options "$t")
    mapfile -t dirs < <(inputs_of "$t")
    # New inputs go to the scratch corpus (first directory); the seeds are only read.
    if "$build/tests/fuzz/fuzz_$t" "$out/corpus/$t" "${dirs[@]}" "${opts[@]}" -seed=1 \
        -max_total_time="${FUZZ_SMOKE_SECONDS:-5}" -artifact_prefix="$out/findings/$t/" \
        >"$out/$t.log" 2>&1; then
      echo "fuzz: $t ok ($(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$out/$t.log" | grep -Eo '[0-9]+$') runs)"
    else
      echo "fuzz: $t FAILED; log $out/$t.log, inputs in $out/findings/$t/" >&2
      tail -n 40 "$out/$t.log" >&2
      failed+=("$t")
    fi
  done
  ((${#failed[@]} == 0)) || { echo "fuzz: failures in ${failed[*]}" >&2; exit 1; }
  exit 0
fi

# --long
out=$build/fuzz-long
mkdir -p "$out"
summary=$out/summary.txt
# Appended, so that runs in parallel lanes (one invocation per lane) share one summary.
{
  echo "# scripts/fuzz.sh --long --runs $runs --seconds $seconds ${targets[*]} ($(date -u +%FT%TZ), $(nproc) cores)"
  printf '%-16s %12s %8s %7s %7s %9s %8s %s\n' target executions seconds cov ft corpus exec/s findings
} >>"$summary"
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "$out/findings/$t"
  mapfile -t opts < <(common_options "$t")
  mapfile -t dirs < <(inputs_of "$t")
  log=$out/$t.log
  t0=$(date +%s)
  status=0
  nice -n 19 "$build/tests/fuzz/fuzz_$t" "$out/corpus/$t" "${dirs[@]}" "${opts[@]}" \
    -runs="$runs" -max_total_time="$seconds" -artifact_prefix="$out/findings/$t/" \
    >"$log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - t0))
  execs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(grep -Eo 'cov: [0-9]+' <<<"$last" | grep -Eo '[0-9]+' || echo '?')
  ft=$(grep -Eo 'ft: [0-9]+' <<<"$last" | grep -Eo '[0-9]+' || echo '?')
  corpus=$(grep -Eo 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$last" | cut -d' ' -f2 || echo '?')
  rate=$(grep -Eo 'exec/s: [0-9]+' <<<"$last" | grep -Eo '[0-9]+' || echo '?')
  found=$(find "$out/findings/$t" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) | wc -l)
  ((status == 0)) || found="$found (exit $status)"
  printf '%-16s %12s %8s %7s %7s %9s %8s %s\n' "$t" "$execs" "$elapsed" "$cov" "$ft" "$corpus" \
    "$rate" "$found" >>"$summary"
  tail -n 1 "$summary"
done
echo "fuzz: summary in $summary"
