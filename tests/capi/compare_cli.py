#!/usr/bin/env python3
"""The C ABI answers as the command does: for every algorithm on a bundled map, and for the
optimal ones on shared Moving AI maps, `capi_test solve` (pathlab_find) and `pathlab solve --json`
give the same status, cost and path; for every algorithm, the nearest of several goals
(pathlab_find_nearest; solve --to X,Y --to X,Y ...) and the partial path when the goal is walled
in (pathlab_find_partial; solve --partial --edit ...) are the command's; and movement ranges
(pathlab_reach; reach --json) have the command's cells and costs.

    compare_cli.py CAPI_TEST PATHLAB SOURCE_DIR SHARED_DIR     last line: capi-cli: N passed, N failed
"""

import json
import os
import subprocess
import sys

FOUND, NO_PATH, NODE_LIMIT = 0, 1, 2


def main():
    capi_test, pathlab, source, shared = sys.argv[1:5]
    algorithms = [a["name"] for a in json.loads(subprocess.check_output([pathlab, "algorithms", "--json"]))["algorithms"]]
    cases = [(os.path.join(source, "maps", "seed_maze.txt"), a, (7, 2), (9, 9)) for a in algorithms]
    cases += [(os.path.join(source, "maps", "hybrid_30x20.txt"), a, (1, 1), (27, 17)) for a in algorithms]
    den = os.path.join(shared, "benchmarks", "movingai", "den520d.map")
    if os.path.exists(den):
        for a in ("astar", "jps", "jps+", "subgoal-ch"):
            cases += [(den, a, (101, 147), (162, 23)), (den, a, (101, 157), (78, 184))]
    else:
        print(f"SKIP: {den} not found: the shared-map comparisons need ../shared")
    passed = failed = 0
    mine = subprocess.check_output([capi_test, "algorithms"], text=True).splitlines()
    if mine == algorithms:
        passed += 1
    else:
        failed += 1
        print(f"FAIL pathlab_algorithms() lists {mine}, pathlab algorithms {algorithms}")

    def verdict(same, what, mine, theirs):
        nonlocal passed, failed
        if same:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}: C ABI {str(mine)[:300]}, CLI {str(theirs)[:300]}")

    def cli(*args):
        return json.loads(subprocess.run([pathlab, *args], capture_output=True, text=True).stdout)

    def capi(*args):
        return json.loads(subprocess.check_output([capi_test, *map(str, args)]))

    def same_search(mine, theirs):
        status = {"found": FOUND, "no_path": NO_PATH, "node_limit": NODE_LIMIT}.get(theirs["status"], -1)
        return (mine["status"] == status and abs(mine["cost"] - theirs["cost"]) < 1e-9
                and mine["path"] == theirs["path"])

    for path, algorithm, (sx, sy), (gx, gy) in cases:
        mine = capi("solve", path, algorithm, sx, sy, gx, gy)
        theirs = cli("solve", path, "--algo", algorithm, "--from", f"{sx},{sy}", "--to", f"{gx},{gy}", "--json")
        verdict(same_search(mine, theirs), f"{algorithm} on {os.path.basename(path)} {sx},{sy} -> {gx},{gy}",
                mine, theirs)

    seed = os.path.join(source, "maps", "seed_maze.txt")
    goals = [(27, 17), (9, 9), (2, 18)]
    for algorithm in algorithms:
        # The nearest of several goals.
        mine = capi("solve", seed, algorithm, 7, 2, *[v for g in goals for v in g])
        theirs = cli("solve", seed, "--algo", algorithm, "--from", "7,2",
                     *[a for g in goals for a in ("--to", f"{g[0]},{g[1]}")], "--json")
        verdict(same_search(mine, theirs), f"{algorithm}: the nearest of {goals}", mine, theirs)
        # The partial path: the goal's room closed (its door at 9,11 walled up).
        mine = capi("partial", seed, algorithm, 7, 2, 9, 9, "wall:9,11")
        theirs = cli("solve", seed, "--algo", algorithm, "--from", "7,2", "--to", "9,9", "--partial",
                     "--edit", "wall:9,11", "--json")
        mp, tp = mine.get("partial"), theirs.get("partial")
        same = (same_search(mine, theirs) and mp is not None and tp is not None
                and mp["reached"] == tp["reached"] and abs(mp["cost"] - tp["cost"]) < 1e-9
                and mp["path"] == tp["path"])
        verdict(same, f"{algorithm}: the partial path into a closed room", mp, tp)

    # Movement ranges.
    hybrid = os.path.join(source, "maps", "hybrid_30x20.txt")
    for path, (sx, sy), budget in ((seed, (7, 2), 9.5), (seed, (20, 10), 0), (hybrid, (1, 1), 12.25),
                                   (hybrid, (27, 17), 30)):
        mine = capi("reach", path, sx, sy, budget)
        theirs = cli("reach", path, "--from", f"{sx},{sy}", "--budget", str(budget), "--json")
        status = {"found": FOUND, "node_limit": NODE_LIMIT}.get(theirs["status"], -1)
        same = (mine["status"] == status and len(mine["cells"]) == len(theirs["cells"])
                and all(a[:2] == b[:2] and abs(a[2] - b[2]) < 1e-9
                        for a, b in zip(mine["cells"], theirs["cells"])))
        verdict(same, f"reach on {os.path.basename(path)} from {sx},{sy} within {budget}",
                len(mine["cells"]), len(theirs["cells"]))
    print(f"capi-cli: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
