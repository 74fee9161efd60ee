#!/usr/bin/env bash
# The Python package as a user gets it (make deep's `wheel` stage), ending with "wheel: N passed,
# N failed" for scripts/check.sh: `python3 -m build --wheel --no-isolation` from the sources (a
# build of the library of its own, 1-4 minutes on 2 cores), the wheel installed with pip into a
# fresh virtual environment (it sees Debian's numpy), then used from outside the tree.
#   tests/python/wheel.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
passed=0 failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/pathlab-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
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
echo "wheel: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
