#!/usr/bin/env bash
# Installs a built pathlab tree into a temporary prefix, then configures, builds and runs the
# consumer project (tests/package/consumer) against it with find_package(pathlab).
# Usage: tests/package/run.sh BUILD_DIR   (BUILD_DIR must already be built)
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pathlab-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAIL package: $1" >&2
  echo "package: 0 passed, 1 failed"
  exit 1
}

cmake --install "$build_dir" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "cmake --install $build_dir"; }
cmake -S "$here/consumer" -B "$tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log" >&2; fail "configuring the consumer"; }
cmake --build "$tmp/build" -j 2 >"$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log" >&2; fail "building the consumer"; }
"$tmp/build/consumer" || fail "the consumer's check"
echo "package: 1 passed, 0 failed"
