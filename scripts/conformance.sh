#!/usr/bin/env bash
# Moving AI conformance: astar, dijkstra and biastar must report 0 suboptimal and 0 illegal
# paths on every scenario file of the shared set. Usage: conformance.sh PATHLAB DIR SAMPLE
# (SAMPLE = queries per file, spread evenly over it; 0 = every scenario).
set -uo pipefail
pathlab=$1 dir=$2 sample=$3
if [[ ! -d "$dir" ]]; then
  echo "SKIP: Moving AI conformance: $dir not found (the shared benchmark set is absent)"
  exit 0
fi
scens=("$dir"/*.scen)
if [[ ! -e "${scens[0]}" ]]; then
  echo "SKIP: Moving AI conformance: no .scen files in $dir"
  exit 0
fi
threads=$(nproc)
echo "Moving AI conformance: ${#scens[@]} scenario files, $( ((sample)) && echo "$sample queries each" || echo "every query"), $threads threads"
"$pathlab" bench "${scens[@]}" --algo astar,dijkstra,biastar --max-queries "$sample" \
  --threads "$threads"
rc=$?
if [[ $rc -eq 0 ]]; then echo "conformance: 1 passed, 0 failed"; else echo "conformance: 0 passed, 1 failed"; fi
exit $rc
