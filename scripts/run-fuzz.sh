#!/usr/bin/env bash
# Builds the libFuzzer targets in the sanitizer build (CMakePresets.json "sanitize": clang, ASan +
# UBSan, the library instrumented too; the same build runs the tests under ASan in `make deep`)
# and runs each for SECONDS (default 30). Exits non-zero if any target finds a crash, a leak, an
# out-of-memory or a timeout; reproducers are left in build-asan/artifacts/.
#   scripts/run-fuzz.sh [SECONDS]
# Environment: PATHLAB_FUZZ_JOBS (build parallelism, default 2), PATHLAB_FUZZ_TARGETS (subset),
# PATHLAB_FUZZ_SOURCE / PATHLAB_FUZZ_BUILD (other source or build directory).
set -euo pipefail

seconds="${1:-30}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 [SECONDS]" >&2
  exit 2
fi
src="${PATHLAB_FUZZ_SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
build="${PATHLAB_FUZZ_BUILD:-$src/build-asan}"
jobs="${PATHLAB_FUZZ_JOBS:-2}"
targets=(${PATHLAB_FUZZ_TARGETS:-fuzz_map_text fuzz_map_ascii fuzz_map_movingai fuzz_map_image fuzz_scenario
  fuzz_sim_scenario fuzz_link_board fuzz_link_json fuzz_prepared fuzz_units fuzz_anyangle fuzz_flow fuzz_capi fuzz_api fuzz_map_tmx fuzz_map_tmj fuzz_dynamic})

if [[ ! -f "$build/build.ninja" ]]; then
  (cd "$src" && cmake --preset sanitize -B "$build" >/dev/null)
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

mkdir -p "$build/artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# One fuzzer per core at a time ($jobs): each runs single-threaded, so on this 2-core machine
# the targets take half the wall time they would one after another.
run_one() {
  local t=$1
  # The working corpus lives in the build tree; the checked-in seeds are only read.
  local work="$build/corpus/$t"
  mkdir -p "$work"
  local dict=()
  [ -f "$src/fuzz/dict/$t.dict" ] && dict=("-dict=$src/fuzz/dict/$t.dict")
  echo "== $t: ${seconds}s"
  # Images get a smaller max_len: a valid but hugely compressed image of 64 KiB may decode to
  # 2^28 pixels, a legitimate multi-gigabyte decode that would only trip -rss_limit_mb.
  local max_len=65536
  [ "$t" = fuzz_map_image ] && max_len=16384
  if "$build/fuzz/$t" "$work" "$src/fuzz/corpus/$t" "${dict[@]}" \
      -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="$max_len" -timeout=25 \
      -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1 >"$build/$t.log" 2>&1; then
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|cov:" "$build/$t.log" | tail -3
  else
    echo "!! $t failed; log: $build/$t.log"
    grep -E "ERROR|SUMMARY|Test unit written" "$build/$t.log" | head -5 || true
    return 1
  fi
}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  rm -f "$build/$t.status"
  ( if run_one "$t" >"$build/$t.summary" 2>&1; then echo 0; else echo 1; fi >"$build/$t.status" ) &
done
wait
failed=()
for t in "${targets[@]}"; do
  cat "$build/$t.summary"
  [ "$(cat "$build/$t.status" 2>/dev/null)" = 0 ] || failed+=("$t")
done
echo "fuzz: $((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed (${seconds} s per target)"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
