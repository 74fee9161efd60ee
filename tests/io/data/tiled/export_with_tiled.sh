#!/usr/bin/env bash
# Exports every .tmx map of this folder to .tmj with the Tiled editor itself (Debian's `tiled`),
# the files tests/io/tiled_test.cpp compares with the maps they came from.
set -euo pipefail
cd "$(dirname "$0")"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
for f in *.tmx; do
  tiled --export-map json "$f" "${f%.tmx}.tmj"
done
