#!/usr/bin/env bash
# The Python module's tests (make test's `python` stage), ending with "python: N passed,
# N failed" for scripts/check.sh: pytest (Debian's) over tests/python against the module of a
# build (BUILD/python) and its command. The package built from the sources is tests/python/wheel.sh
# (make deep's `wheel` stage: a second build of the library).
#   tests/python/run.sh [BUILD]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
python=${PYTHON:-/usr/bin/python3}
passed=0 failed=0
if ! ls "$build"/python/pathlab/_pathlab*.so >/dev/null 2>&1; then
  echo "no Python module in $build/python (is python3-pybind11 installed?)"
  echo "python: 0 passed, 1 failed"
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
PYTHONPATH="$build/python" PATHLAB_CLI="$build/apps/cli/pathlab" PYTHONDONTWRITEBYTECODE=1 \
  "$python" -m pytest -q -p no:cacheprovider "$root/tests/python" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
summary=$(tail -1 "$log")
passed=$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+' || echo 0)
for k in $(grep -oE '[0-9]+ (failed|errors?)' <<<"$summary" | grep -oE '^[0-9]+'); do
  failed=$((failed + k))
done
if [[ $rc -ne 0 && $failed -eq 0 ]]; then failed=1; fi

echo "python: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
