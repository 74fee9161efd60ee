#!/usr/bin/env bash
# The Python module's tests (make test's `python` stage), ending with "python: N passed,
# N failed" for scripts/check.sh:
#  1. pytest (Debian's) over tests/python against the module of a build (BUILD/python) and its
#     command;
#  2. the package: `python3 -m build --wheel --no-isolation` from the sources, the wheel
#     installed with pip into a fresh virtual environment (it sees Debian's numpy), then used
#     from outside the tree. PATHLAB_PYTHON_PACKAGE=0 skips it (about 70 s on 2 cores).
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
work=$(mktemp -d "${TMPDIR:-/tmp}/pathlab-python.XXXXXX")
trap 'rm -rf "$log" "$work"' EXIT
PYTHONPATH="$build/python" PATHLAB_CLI="$build/apps/cli/pathlab" PYTHONDONTWRITEBYTECODE=1 \
  "$python" -m pytest -q -p no:cacheprovider "$root/tests/python" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
summary=$(tail -1 "$log")
passed=$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+' || echo 0)
for k in $(grep -oE '[0-9]+ (failed|errors?)' <<<"$summary" | grep -oE '^[0-9]+'); do
  failed=$((failed + k))
done
if [[ $rc -ne 0 && $failed -eq 0 ]]; then failed=1; fi

if [[ "${PATHLAB_PYTHON_PACKAGE:-1}" != 0 ]]; then
  echo "== the package: wheel, virtual environment, use"
  t0=$(date +%s)
  if (cd "$root" && "$python" -m build --wheel --no-isolation --outdir "$work/dist" . >"$work/build.log" 2>&1) &&
    "$python" -m venv --system-site-packages "$work/env" &&
    "$work/env/bin/pip" install --no-index --no-deps -q "$work"/dist/pathlab-*.whl &&
    (cd "$work" && "$work/env/bin/python" - <<'PY'
import pathlib, numpy as np, pathlab
assert pathlib.Path(pathlab.__file__).is_relative_to(pathlib.Path.cwd() / "env"), pathlab.__file__
assert (pathlib.Path(pathlab.__file__).parent / "__init__.pyi").is_file()
walls = np.zeros((20, 30), dtype=bool); walls[2:18, 15] = True
r = pathlab.find(pathlab.Grid(walls), (2, 10), (27, 10), algorithm="subgoal-ch")
assert r.status == "found" and len(r.path) > 25, r
print("installed:", pathlab.__file__, r)
PY
    ); then
    echo "package: wheel built, installed and used in $(($(date +%s) - t0)) s"
    passed=$((passed + 1))
  else
    tail -20 "$work/build.log" 2>/dev/null
    echo "package: FAILED"
    failed=$((failed + 1))
  fi
fi
echo "python: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
