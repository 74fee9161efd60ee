#!/usr/bin/env bash
# Moving AI conformance: astar, dijkstra, biastar, jps, jps+, subgoal and subgoal-ch must report 0 suboptimal and 0 illegal
# paths on every scenario file of the shared set; theta, lazytheta and smoothed A* paths must
# keep line of sight on every segment and never fall below the exact any-angle optimum (on the
# maps small enough for it), with their lengths reported. Usage: conformance.sh PATHLAB DIR SAMPLE
# (SAMPLE = queries per file, spread evenly over it; 0 = every scenario; the any-angle run takes a
# quarter of the sample).
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
"$pathlab" bench "${scens[@]}" --algo astar,dijkstra,biastar,jps,jps+,subgoal,subgoal-ch --max-queries "$sample" \
  --threads "$threads"
rc1=$?
any_sample=$(( sample / 4 ))
echo "Any-angle conformance: $( ((any_sample)) && echo "$any_sample queries per file" || echo "every query")"
"$pathlab" bench "${scens[@]}" --algo astar,theta,lazytheta --smooth --max-queries "$any_sample" \
  --threads "$threads"
rc2=$?
ok=$(( (rc1 == 0) + (rc2 == 0) ))
echo "conformance: $ok passed, $(( 2 - ok )) failed"
[[ $rc1 -eq 0 && $rc2 -eq 0 ]]
