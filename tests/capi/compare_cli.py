#!/usr/bin/env python3
"""The C ABI answers as the command does: for every algorithm on a bundled map, and for the
optimal ones on shared Moving AI maps, `capi_test solve` (pathlab_find) and `pathlab solve --json`
give the same status, cost and path.

    compare_cli.py CAPI_TEST PATHLAB SOURCE_DIR SHARED_DIR     last line: capi-cli: N passed, N failed
"""

import json
import os
import subprocess
import sys

FOUND, NO_PATH = 0, 1


def main():
    capi, pathlab, source, shared = sys.argv[1:5]
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
    for path, algorithm, (sx, sy), (gx, gy) in cases:
        mine = json.loads(subprocess.check_output([capi, "solve", path, algorithm, str(sx), str(sy), str(gx), str(gy)]))
        run = subprocess.run([pathlab, "solve", path, "--algo", algorithm, "--from", f"{sx},{sy}", "--to", f"{gx},{gy}",
                              "--json"], capture_output=True, text=True)
        theirs = json.loads(run.stdout)
        status = {"found": FOUND, "no_path": NO_PATH}.get(theirs["status"], -1)
        same = (mine["status"] == status and abs(mine["cost"] - theirs["cost"]) < 1e-9
                and mine["path"] == theirs["path"])
        if same:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {algorithm} on {os.path.basename(path)} {sx},{sy} -> {gx},{gy}: "
                  f"C ABI {mine['status']} {mine['cost']} {mine['path'][:4]}..., "
                  f"CLI {theirs['status']} {theirs['cost']} {theirs['path'][:4]}...")
    print(f"capi-cli: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
