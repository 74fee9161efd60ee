#!/usr/bin/env bash
# Runs test stages one after another, each with its own log and wall time, and ends with a
# table of the stages and one line "N passed, N failed" over all of them. A stage that fails
# does not stop the others.
#
#   scripts/check.sh STAGE...        e.g. scripts/check.sh build unit conformance
#   scripts/check.sh --total FILE    prints the total line of the results a run appended to FILE
#
# `make test` runs: build unit conformance contract package python docs e2e (the Release build)
# `make deep` runs: wheel sanitize-build asan fuzz tsan-build tsan wasm-build wasm site (what CI adds)
#
# How a stage is counted: the last "N passed, N failed" line of its output (ctest's "N tests
# failed out of M" summary where ctest ran), else 1 passed; a stage that exits non-zero but
# printed no failure counts 1 failed; a stage that printed "SKIP:" and nothing else counts as
# skipped. Environment: BUILD (Release build directory, default build), SHARED (default
# ../shared), SAMPLE (conformance queries per scenario file, default 200), FUZZ_SECONDS
# (default 30), JOBS (default nproc), PATHLAB_CHECK_RESULTS (a file the stage results are
# appended to: "stage passed failed skipped seconds").
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
SAMPLE=${SAMPLE:-200}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
JOBS=${JOBS:-$(nproc)}
ASAN_BUILD=build-asan
TSAN_BUILD=build-tsan
pathlab="$BUILD/apps/cli/pathlab"

# Sanitizer run-time options, one place for every stage that runs instrumented code.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"

# Configures a build directory from a preset once (again when the preset file is newer).
configure() {
  local preset=$1 dir=$2
  shift 2
  if [[ ! -f "$dir/build.ninja" || CMakePresets.json -nt "$dir/CMakeCache.txt" ]]; then
    cmake --preset "$preset" "$@" >/dev/null || return 1
  fi
}

stage_build() {
  configure release "$BUILD" -B "$BUILD" && cmake --build "$BUILD" -j "$JOBS"
}
stage_unit() {
  (cd "$BUILD" && ctest --output-on-failure -j "$JOBS")
}
stage_conformance() {
  scripts/conformance.sh "$pathlab" "$SHARED/benchmarks/movingai" "$SAMPLE"
}
stage_contract() {
  if [[ -x "$SHARED/tools/check-cli-contract" ]]; then
    "$SHARED/tools/check-cli-contract" "$pathlab"
  else
    echo "SKIP: $SHARED/tools/check-cli-contract not found"
  fi
}
stage_package() {
  tests/package/run.sh "$BUILD"
}
stage_python() {
  tests/python/run.sh "$BUILD"
}
# The Python package from the sources (a wheel: a build of the library of its own), installed into
# a fresh virtual environment and used.
stage_wheel() {
  tests/python/wheel.sh
}
# The docs site (mkdocs --strict, Doxygen with no warnings) and every runnable example of the README
# and docs/ (C++ compiled against the installed package, Python against the built module, CLI
# lines with their exit codes and shown output).
stage_docs() {
  scripts/docs.sh "$BUILD/docs/site" && tests/docs/run_examples.py --build "$BUILD" --shared "$SHARED"
}
stage_e2e() {
  scripts/install-deps.sh --e2e && tests/e2e/run.sh "$pathlab" "$BUILD/e2e"
}
# One clang build with ASan + UBSan (and libFuzzer's coverage hooks) for the tests and the fuzz
# targets alike: the library is compiled once for both.
stage_sanitize-build() {
  scripts/install-deps.sh --fuzz && configure sanitize "$ASAN_BUILD" &&
    cmake --build "$ASAN_BUILD" -j "$JOBS"
}
stage_asan() {
  (cd "$ASAN_BUILD" && ctest --output-on-failure -j "$JOBS")
}
stage_fuzz() {
  PATHLAB_FUZZ_BUILD="$root/$ASAN_BUILD" scripts/run-fuzz.sh "$FUZZ_SECONDS"
}
# ThreadSanitizer over what runs queries from several threads: the command (bench --threads,
# serve), the server, the bench and the search suites (shared prepared data).
tsan_targets=(pathlab_cli pathlab_search_tests pathlab_bench_tests pathlab_server_tests)
stage_tsan-build() {
  scripts/install-deps.sh --fuzz && configure tsan "$TSAN_BUILD" &&
    cmake --build "$TSAN_BUILD" -j "$JOBS" --target "${tsan_targets[@]}"
}
stage_tsan() {
  (cd "$TSAN_BUILD" && ctest --output-on-failure -j "$JOBS" -L threads)
}
# The npm package: the library and its C ABI compiled to WebAssembly by Debian's Emscripten, then
# Node's test runner over it beside the Release build's command (npm pack, an offline install,
# TypeScript, Chromium).
stage_wasm-build() {
  scripts/wasm.sh build
}
stage_wasm() {
  scripts/wasm.sh test "$pathlab"
}
# The static page (`make site`: the API compiled to WebAssembly, in a Web Worker) built into
# build-site-wasm/site, then served by Python's plain static file server to Chromium through
# Playwright: every view against the Release build's command, no /api/ request on the network,
# timers running while the worker searches, and the first search's time after load.
stage_site() {
  scripts/site.sh && scripts/install-deps.sh --e2e &&
    node tests/e2e/site.test.mjs build-site-wasm/site "$pathlab" "$BUILD/e2e"
}

# Prints "passed failed skipped" for a stage's log and exit code.
tally() {
  local log=$1 rc=$2 p=0 f=0 s=0 line
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  if [[ -n "$line" ]]; then
    local total failed
    failed=$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$line")
    total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
    p=$((total - failed)) f=$failed
  else
    line=$(grep -E '^([A-Za-z0-9_+-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    if [[ -n "$line" ]]; then
      p=$(sed -E 's/^([^ ]+: )?([0-9]+) passed.*/\2/' <<<"$line")
      f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
    elif [[ $rc -eq 0 ]] && grep -q '^SKIP:' "$log"; then
      s=1
    elif [[ $rc -eq 0 ]]; then
      p=1
    fi
  fi
  if [[ $rc -ne 0 && $f -eq 0 ]]; then f=1; fi
  echo "$p $f $s"
}

total_line() {
  awk '{p += $2; f += $3; s += $4} END {printf "%d passed, %d failed%s\n", p, f, s ? sprintf(", %d skipped", s) : ""}' "$1"
}

if [[ "${1:-}" == "--total" ]]; then
  [[ -f "${2:-}" ]] || { echo "usage: $0 --total RESULTS_FILE" >&2; exit 2; }
  total_line "$2"
  exit 0
fi
if [[ $# -eq 0 ]]; then
  echo "usage: $0 STAGE... (build unit conformance contract package python docs e2e wheel sanitize-build asan fuzz tsan-build tsan wasm-build wasm site)" >&2
  exit 2
fi
for s in "$@"; do
  declare -F "stage_$s" >/dev/null || { echo "$0: unknown stage '$s'" >&2; exit 2; }
done

logs=$(mktemp -d "${TMPDIR:-/tmp}/pathlab-check.XXXXXX")
trap 'rm -rf "$logs"' EXIT
results="$logs/results"
: >"$results"
start=$(date +%s)
for s in "$@"; do
  echo "== $s"
  t0=$(date +%s)
  "stage_$s" 2>&1 | tee "$logs/$s.log"
  rc=${PIPESTATUS[0]}
  secs=$(($(date +%s) - t0))
  read -r p f k < <(tally "$logs/$s.log" "$rc")
  echo "$s $p $f $k $secs" >>"$results"
  echo "== $s: $p passed, $f failed$( ((k)) && echo ", skipped") (${secs} s)"
done
[[ -n "${PATHLAB_CHECK_RESULTS:-}" ]] && cat "$results" >>"$PATHLAB_CHECK_RESULTS"

echo
printf '%-16s %8s %8s %8s\n' stage passed failed seconds
while read -r s p f k secs; do
  printf '%-16s %8s %8s %8s%s\n' "$s" "$p" "$f" "$secs" "$( ((k)) && echo "  (skipped)")"
done <"$results"
printf '%-16s %8s %8s %8s\n' wall "" "" "$(($(date +%s) - start))"
total_line "$results"
awk '{f += $3} END {exit f ? 1 : 0}' "$results"
