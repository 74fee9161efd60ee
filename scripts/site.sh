#!/usr/bin/env bash
# `make site`: the web page as static files that run without a server. Emscripten compiles
# pathlab::api (js/site) into a WebAssembly module that the page's Web Worker (web/js/worker.js)
# runs, answering the requests `pathlab serve` would; the bundled maps, Link boards and
# scenarios ship beside it with files.json, the list the worker registers. Any static file
# server serves the result (python3 -m http.server, nginx, GitHub Pages...).
#
#   scripts/site.sh [OUT]     default OUT: build-site-wasm/site
# Environment: SITE_BUILD (the Emscripten build folder, default build-site-wasm; not build-wasm,
# which the npm package's build owns), JOBS.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
SITE_BUILD=${SITE_BUILD:-build-site-wasm}
OUT=${1:-$SITE_BUILD/site}
JOBS=${JOBS:-$(nproc)}
# Debian's emcc runs its JavaScript tools with the machine's node, which must find Debian's acorn.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

scripts/install-deps.sh --wasm >/dev/null
if [[ ! -f "$SITE_BUILD/build.ninja" ]]; then
  emcmake cmake -S . -B "$SITE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev >/dev/null
fi
cmake --build "$SITE_BUILD" -j "$JOBS" --target pathlab_site

rm -rf "$OUT"
mkdir -p "$OUT/js" "$OUT/wasm" "$OUT/maps" "$OUT/scenarios"
# The page as `pathlab serve` serves it, marked so that api.js asks the worker instead.
sed 's|<meta charset="utf-8">|<meta charset="utf-8">\n  <meta name="pathlab-backend" content="worker">|' \
  web/index.html >"$OUT/index.html"
grep -q 'name="pathlab-backend"' "$OUT/index.html" || { echo "site: index.html not marked" >&2; exit 1; }
cp web/style.css "$OUT/"
cp web/js/*.js "$OUT/js/"
cp "$SITE_BUILD/js/site/dist/pathlab_site.js" "$SITE_BUILD/js/site/dist/pathlab_site.wasm" "$OUT/wasm/"
# Every map and Link board of maps/ and every scenario of scenarios/, and their list.
maps=() scenarios=()
for f in maps/*; do
  case "$f" in *.txt | *.map | *.ascii | *.asc | *.png | *.bmp | *.jpg | *.gif | *.json | *.tmx | *.tmj | *.tsx | *.tsj) ;; *) continue ;; esac
  cp "$f" "$OUT/maps/" && maps+=("$(basename "$f")")
done
for f in scenarios/*.json; do
  cp "$f" "$OUT/scenarios/" && scenarios+=("$(basename "$f")")
done
python3 - "$OUT/files.json" "${#maps[@]}" "${maps[@]}" "${scenarios[@]}" <<'PY'
import json, sys
out, n, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
with open(out, "w") as f:
    json.dump({"maps": names[:n], "scenarios": names[n:]}, f, indent=1)
    f.write("\n")
PY

wasm="$OUT/wasm/pathlab_site.wasm"
echo "site: $OUT: $(find "$OUT" -type f | wc -l) files, $(du -sb "$OUT" | cut -f1) bytes;" \
  "pathlab_site.wasm $(stat -c %s "$wasm") bytes, $(gzip -9c "$wasm" | wc -c) gzipped"
echo "site: serve it with any static file server, e.g. python3 -m http.server -d $OUT 8000"
