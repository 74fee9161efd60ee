#!/usr/bin/env bash
# Builds the docs site: MkDocs over docs/ (mkdocs.yml) into OUT (default build/docs/site), then
# the C++ API reference by Doxygen over the public headers into OUT/api. Both fail on any
# warning (mkdocs --strict; Doxyfile's WARN_AS_ERROR). Prints the warnings and the site's path.
#   scripts/docs.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=$(realpath -m "${1:-build/docs/site}")
log=$(mktemp)
trap 'rm -f "$log"' EXIT

t0=$(date +%s.%N)
if ! mkdocs build --strict --clean --site-dir "$out" >"$log" 2>&1; then
  cat "$log" >&2
  echo "docs: mkdocs build failed (warnings are errors)" >&2
  exit 1
fi
grep -E 'WARNING|ERROR' "$log" >&2 || true
mkdir -p "$out/api"
if ! PATHLAB_API_OUT="$out/api" doxygen Doxyfile >"$log" 2>&1 || [[ -s $log ]]; then
  cat "$log" >&2
  echo "docs: doxygen reported the problems above (every public declaration is documented)" >&2
  exit 1
fi
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v o="$out" 'BEGIN {printf "docs: site in %s (API reference: %s/api/index.html), built in %.1f s\n", o, o, b - a}'
