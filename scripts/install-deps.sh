#!/usr/bin/env bash
# Installs the Debian packages pathlab needs, only those missing (idempotent, by name).
# Usage: scripts/install-deps.sh [--fuzz | --e2e | --wasm | --wasm-bench]   (--fuzz: clang and its
# sanitizer runtimes; --e2e: Debian's chromium for the browser tests; --wasm: Debian's emscripten
# and chromium, and the npm packages of the package's tests; --wasm-bench: the JavaScript peers)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  libcli11-dev libfmt-dev nlohmann-json3-dev libcpp-httplib-dev libstb-dev libgif-dev libpugixml-dev zlib1g-dev
  libzstd-dev tiled
  libgtest-dev librapidcheck-dev libbenchmark-dev
  python3-dev python3-pybind11 python3-numpy python3-pytest python3-setuptools python3-wheel
  python3-pip python3-venv python3-build
  mkdocs doxygen python3-pygments
)
case "${1:-}" in
  --fuzz) packages+=(clang libclang-rt-14-dev) ;;
  --e2e) packages+=(chromium) ;;  # node and npm come with the machine image
  --wasm) packages+=(emscripten chromium) ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The browser tests' driver: playwright-core from npm (it downloads no browser; Debian's
# chromium is used), installed next to the tests, without a lockfile.
if [[ "${1:-}" == "--e2e" ]]; then
  e2e="$(cd "$(dirname "$0")/.." && pwd)/tests/e2e"
  if [[ ! -d "$e2e/node_modules/playwright-core" ]]; then
    (cd "$e2e" && npm install --no-save --no-package-lock --no-audit --no-fund playwright-core@1 >/dev/null)
  fi
fi

# The WebAssembly package's tests: playwright-core (Debian's chromium) and TypeScript (checks the
# package's .d.ts), from npm, next to the tests; the benchmark's peers next to the benchmark.
npm_into() {
  local dir=$1
  shift
  local want=()
  for spec in "$@"; do
    [[ -d "$dir/node_modules/${spec%@*}" ]] || want+=("$spec")
  done
  if [[ ${#want[@]} -gt 0 ]]; then
    (cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund "${want[@]}" >/dev/null)
  fi
}
js="$(cd "$(dirname "$0")/.." && pwd)/js"
case "${1:-}" in
  --wasm) npm_into "$js/test" playwright-core@1 typescript@5 ;;
  --wasm-bench) npm_into "$js/bench" pathfinding@0.4 easystarjs@0.4 ;;
esac
