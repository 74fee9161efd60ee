#!/usr/bin/env bash
# The WebAssembly build and the npm package `pathlab` (js/): Debian's Emscripten compiles the
# library and its C ABI into build-wasm/js/package (ES module, .d.ts, dist/pathlab_wasm.wasm).
#
#   scripts/wasm.sh build          configure (emcmake) and build; the package folder is ready
#   scripts/wasm.sh test [PATHLAB] Node's test runner over js/test (answers beside the native
#                                  command PATHLAB, default build/apps/cli/pathlab; npm pack and
#                                  an offline install; Chromium through Playwright; a test that
#                                  runs over 5 minutes fails)
#   scripts/wasm.sh bench [ARGS]   js/bench/bench.mjs: the package beside PathFinding.js,
#                                  EasyStar.js and the native build on Moving AI queries
# Environment: WASM_BUILD (default build-wasm), SHARED (default ../shared), JOBS.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
WASM_BUILD=${WASM_BUILD:-build-wasm}
SHARED=${SHARED:-../shared}
JOBS=${JOBS:-$(nproc)}
# Debian's emcc runs its JavaScript tools with the machine's node, which must find Debian's acorn.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# emcc takes a lock in its cache (Debian's, with the system libraries prebuilt); a user who
# cannot write there gets a tree of links to it in the build folder instead.
emcache=/usr/share/emscripten/cache
if [[ -d $emcache && ! -w $emcache && -z ${EM_CACHE:-} ]]; then
  export EM_CACHE="$root/$WASM_BUILD/emcache"
  if [[ ! -d $EM_CACHE ]]; then
    mkdir -p "$root/$WASM_BUILD" && cp -rs "$emcache" "$EM_CACHE" && rm -f "$EM_CACHE/cache.lock"
  fi
fi

build() {
  scripts/install-deps.sh --wasm
  if [[ ! -f "$WASM_BUILD/build.ninja" ]]; then
    emcmake cmake -S . -B "$WASM_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev >/dev/null
  fi
  cmake --build "$WASM_BUILD" -j "$JOBS"
  local wasm="$WASM_BUILD/js/package/dist/pathlab_wasm.wasm"
  echo "wasm: $(stat -c %s "$wasm") bytes, $(gzip -9c "$wasm" | wc -c) gzipped"
}

run_tests() {
  local pathlab=${1:-build/apps/cli/pathlab}
  scripts/install-deps.sh --wasm
  local log
  log=$(mktemp)
  local rc=0
  PATHLAB_CLI="$(cd "$(dirname "$pathlab")" && pwd)/$(basename "$pathlab")" \
    PATHLAB_PACKAGE="$root/$WASM_BUILD/js/package" PATHLAB_SHARED="$(cd "$SHARED" 2>/dev/null && pwd || echo "$SHARED")" \
    node --test --test-timeout=300000 --test-reporter=spec js/test/*.test.mjs 2>&1 | tee "$log" || rc=$?
  local pass fail cancelled
  pass=$(grep -E '^ℹ pass [0-9]+' "$log" | tail -1 | awk '{print $3}')
  fail=$(grep -E '^ℹ fail [0-9]+' "$log" | tail -1 | awk '{print $3}')
  cancelled=$(grep -E '^ℹ cancelled [0-9]+' "$log" | tail -1 | awk '{print $3}')
  rm -f "$log"
  echo "wasm: ${pass:-0} passed, $((${fail:-1} + ${cancelled:-0})) failed"
  return $rc
}

case "${1:-}" in
  build) build ;;
  test) shift; run_tests "$@" ;;
  bench)
    shift
    scripts/install-deps.sh --wasm-bench
    node js/bench/bench.mjs --package "$WASM_BUILD/js/package" --pathlab build/apps/cli/pathlab \
      --movingai "$SHARED/benchmarks/movingai" "$@"
    ;;
  *) echo "usage: $0 build | test [PATHLAB] | bench [ARGS]" >&2; exit 2 ;;
esac
