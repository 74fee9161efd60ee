#!/usr/bin/env bash
# The `make run` demo: solve each bundled map with several algorithms and print the pictures
# and a comparison table. Usage: demo.sh PATHLAB
set -euo pipefail
pathlab=$1
pathlab=$(cd "$(dirname "$pathlab")" && pwd)/$(basename "$pathlab")
cd "$(dirname "$0")/.."
maps=maps
banner() { printf '\n==== %s ====\n' "$*"; }

banner "The users' maze (maps/seed_maze.txt): A*, Dijkstra and greedy best-first"
"$pathlab" solve "$maps/seed_maze.txt" --algo astar,dijkstra,greedy

banner "maps/hybrid_30x20.txt, 4-neighbour moves: BFS against A* with the Manhattan heuristic"
"$pathlab" solve "$maps/hybrid_30x20.txt" --algo bfs,astar --diagonal never

banner "maps/cave_100.png read as an image (4 pixels per cell): every algorithm, table only"
"$pathlab" solve "$maps/cave_100.png" --cell 4 --from 10,23 --to 71,71 --picture never \
  --algo bfs,dfs,iddfs,bibfs,dijkstra,greedy,astar,wastar,biastar,idastar

banner "The same cave for an agent of radius 1.5 cells (clearance)"
"$pathlab" solve "$maps/cave_100.png" --cell 4 --from 10,23 --to 71,71 --radius 1.5 \
  --picture never --algo astar || echo "(no path for such a wide agent)"

printf '\nMore: %s solve --help, %s bench --help, %s algorithms\n' "$pathlab" "$pathlab" "$pathlab"
