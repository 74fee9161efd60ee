#!/usr/bin/env bash
# Runs the browser tests: installs playwright-core from npm (no browser download: Debian's
# /usr/bin/chromium is used) and runs the tests (the visualizer, the simulation view, the Link
# game) against the built pathlab. All run even when one fails; the exit status is 1 if any did.
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
status=0
node visualizer.test.mjs "$pathlab" "$out" || status=1
node simulation.test.mjs "$pathlab" "$out" || status=1
node link.test.mjs "$pathlab" "$out" || status=1
exit $status
