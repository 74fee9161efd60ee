#!/usr/bin/env bash
# Installs a built pathlab tree into a temporary prefix, then configures, builds and runs small
# consumer projects against it with find_package(pathlab):
#   consumer         find_package(pathlab), pathlab::pathlab: a map parsed and solved;
#   components       find_package(pathlab COMPONENTS ...) (components/):
#     search           with giflib's find module disabled and pkg-config seeing no module (so
#                      no stb): only core, grid and search load, and a search runs;
#     json             giflib disabled: the json component and what it links (not render), a
#                      search result and a flow field written as JSON;
#     everything       no component named: every module's target and pathlab::pathlab;
#     unknown          a component that does not exist: configuring fails and says so;
#   c_consumer       the C ABI from C99: find_package(pathlab COMPONENTS c) (only pathlab::c);
#   pkg-config       the same program built by cc with `pkg-config --cflags --libs pathlab-c`;
#   examples/c       the C example (examples/c: its CMakeLists.txt), built and run from the
#                    repository's root (it reads maps/).
# Prints one line per check and, last, "package: N passed, M failed".
# Usage: tests/package/run.sh BUILD_DIR   (BUILD_DIR must already be built)
set -uo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pathlab-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
checks=8

pass() {
  echo "PASS package: $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL package: $1" >&2
  failed=$((failed + 1))
}

if ! cmake --install "$build_dir" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log" >&2
  fail "cmake --install $build_dir (no consumer can run)"
  echo "package: 0 passed, $checks failed"
  exit 1
fi

# configure NAME SOURCE_DIR [cmake args...]: configures into $tmp/NAME, the log in $tmp/NAME.log.
configure() {
  local name=$1 src=$2
  shift 2
  cmake -S "$src" -B "$tmp/$name" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_BUILD_TYPE=Release "$@" >"$tmp/$name.log" 2>&1
}
# build_and_run NAME PROGRAM...: builds $tmp/NAME and runs each program; the failing step is named.
build_and_run() {
  local name=$1
  shift
  if ! cmake --build "$tmp/$name" -j 2 >>"$tmp/$name.log" 2>&1; then
    cat "$tmp/$name.log" >&2
    fail "$name: building"
    return
  fi
  for program in "$@"; do
    if ! "$tmp/$name/$program"; then
      fail "$name: $program's check"
      return
    fi
  done
  pass "$name"
}

# The whole package, as a user who does not know about components uses it.
if configure consumer "$here/consumer"; then
  build_and_run consumer consumer
else
  cat "$tmp/consumer.log" >&2
  fail "consumer: configuring"
fi

# Only search: the consumer's machine need not have giflib or stb. pkg-config looks in an empty
# folder, so a component that asked it for stb would fail to configure.
mkdir -p "$tmp/no-pkgconfig"
if PKG_CONFIG_LIBDIR="$tmp/no-pkgconfig" PKG_CONFIG_PATH="" configure search "$here/components" \
  -DPATHLAB_COMPONENTS=search -DCMAKE_DISABLE_FIND_PACKAGE_GIF=TRUE \
  "-DEXPECT_TARGETS=pathlab::search;pathlab::grid;pathlab::core" \
  "-DEXPECT_ABSENT=pathlab::io;pathlab::render;pathlab::json;pathlab::pathlab;GIF::GIF;PkgConfig::STB"; then
  build_and_run search search_consumer
else
  cat "$tmp/search.log" >&2
  fail "search: configuring find_package(pathlab COMPONENTS search) without giflib and stb"
fi

# The json component: nlohmann_json and what the modules it links need, never giflib.
if configure json "$here/components" -DPATHLAB_COMPONENTS=json -DCMAKE_DISABLE_FIND_PACKAGE_GIF=TRUE \
  "-DEXPECT_TARGETS=pathlab::json;pathlab::flow;pathlab::agents;pathlab::search" \
  "-DEXPECT_ABSENT=pathlab::render;pathlab::pathlab;GIF::GIF"; then
  build_and_run json search_consumer json_consumer
else
  cat "$tmp/json.log" >&2
  fail "json: configuring find_package(pathlab COMPONENTS json) without giflib"
fi

# No component named: every module, pathlab::flow, pathlab::agents and pathlab::json included.
modules="core grid io search post flow agents link bench render json"
if configure everything "$here/components" -DPATHLAB_COMPONENTS= \
  "-DEXPECT_TARGETS=pathlab::pathlab;$(printf 'pathlab::%s;' $modules)"; then
  build_and_run everything search_consumer json_consumer
else
  cat "$tmp/everything.log" >&2
  fail "everything: configuring find_package(pathlab)"
fi

# An unknown component: configuring fails, naming it and the components there are.
if configure unknown "$here/components" "-DPATHLAB_COMPONENTS=search;nosuch"; then
  fail "unknown: find_package(pathlab COMPONENTS search nosuch) configured"
elif grep -q "pathlab has no component 'nosuch' (its components: core grid" "$tmp/unknown.log"; then
  pass "unknown"
else
  cat "$tmp/unknown.log" >&2
  fail "unknown: configuring failed without saying that 'nosuch' is not a component"
fi

# The C ABI: a C project finds the component c; a plain cc build asks pkg-config.
if configure c_consumer "$here/c_consumer"; then
  build_and_run c_consumer c_consumer
else
  cat "$tmp/c_consumer.log" >&2
  fail "c_consumer: configuring find_package(pathlab COMPONENTS c)"
fi
pc_dir=$(dirname "$(find "$tmp/prefix" -name pathlab-c.pc | head -1)")
if [[ ! -f "$pc_dir/pathlab-c.pc" ]]; then
  fail "pkg-config: no pathlab-c.pc installed"
elif ! flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs pathlab-c 2>"$tmp/pc.log"); then
  cat "$tmp/pc.log" >&2
  fail "pkg-config: pkg-config --cflags --libs pathlab-c"
elif ! cc -std=c99 -Wall -Wextra -Wpedantic -Werror "$here/c_consumer/main.c" -o "$tmp/pc_consumer" \
  $flags -lm >"$tmp/pc.log" 2>&1; then
  cat "$tmp/pc.log" >&2
  fail "pkg-config: building with $flags"
elif ! LD_LIBRARY_PATH="$(PKG_CONFIG_PATH="$pc_dir" pkg-config --variable=libdir pathlab-c)" \
  "$tmp/pc_consumer"; then
  fail "pkg-config: the program's check"
else
  pass "pkg-config"
fi

# The C example, as its header comment says to build it.
root=$(cd "$here/../.." && pwd)
if ! configure tour "$root/examples/c"; then
  cat "$tmp/tour.log" >&2
  fail "examples/c: configuring find_package(pathlab COMPONENTS c)"
elif ! cmake --build "$tmp/tour" -j 2 >>"$tmp/tour.log" 2>&1; then
  cat "$tmp/tour.log" >&2
  fail "examples/c: building"
elif ! (cd "$root" && "$tmp/tour/tour" >"$tmp/tour.out" 2>&1); then
  cat "$tmp/tour.out" >&2
  fail "examples/c: running tour"
else
  pass "examples/c"
fi

echo "package: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
