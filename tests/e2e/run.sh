#!/usr/bin/env bash
# Runs the browser tests: installs playwright-core from npm (no browser download: Debian's
# /usr/bin/chromium is used) and runs the tests (the visualizer, the simulation view, the Link
# game, the map kinds: hex, thin walls, floors; free points for anyangle-exact) against the built
# pathlab. All run even when one fails; the exit status is 1 if any did.
# Usage: tests/e2e/run.sh PATHLAB OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pathlab=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
if [[ ! -x /usr/bin/chromium ]]; then
  echo "e2e: 0 passed, 1 failed (no /usr/bin/chromium: run scripts/install-deps.sh --e2e)"
  exit 1
fi
cd "$here"
if [[ ! -d node_modules/playwright-core ]]; then
  echo "e2e: 0 passed, 1 failed (playwright-core missing: run scripts/install-deps.sh --e2e)"
  exit 1
fi
# Each suite prints its own "N passed, N failed"; the last line adds them up.
status=0 passed=0 failed=0
for suite in visualizer simulation link map_kinds points; do
  log=$(mktemp)
  rc=0
  node "$suite.test.mjs" "$pathlab" "$out" >"$log" 2>&1 || rc=$?
  cat "$log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  rm -f "$log"
  p=${line%% passed*} f=${line#*passed, } f=${f%% failed*}
  if [[ -z "$line" ]]; then p=0 f=1; fi  # the suite died before its tally
  if [[ $rc -ne 0 && $f -eq 0 ]]; then f=1; fi
  passed=$((passed + p)) failed=$((failed + f))
  [[ $rc -eq 0 ]] || status=1
done
echo "e2e: $passed passed, $failed failed"
exit $status
