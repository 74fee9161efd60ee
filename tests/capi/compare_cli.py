#!/usr/bin/env python3
"""The C ABI answers as the command does: for every algorithm on a bundled map, and for the
optimal ones on shared Moving AI maps, `capi_test solve` (pathlab_find) and `pathlab solve --json`
give the same status, cost and path; for every algorithm, the nearest of several goals
(pathlab_find_nearest; solve --to X,Y --to X,Y ...) and the partial path when the goal is walled
in (pathlab_find_partial; solve --partial --edit ...) are the command's; and movement ranges
(pathlab_reach; reach --json) have the command's cells and costs. Map kinds: on hex grids (a
bundled map given each hex layout: pathlab_grid_set_layout; solve --layout), on grids made
through the ABI with walls on cell edges, floors and links (pathlab_grid_from_layers,
pathlab_grid_set_edge_wall, pathlab_grid_add_link; the same map written as a Tiled .tmj for the
command), every algorithm's search and the movement ranges are the command's.

    compare_cli.py CAPI_TEST PATHLAB SOURCE_DIR SHARED_DIR     last line: capi-cli: N passed, N failed
"""

import json
import os
import random
import subprocess
import sys
import tempfile

HEX_LAYOUTS = ("pointy-odd-r", "pointy-even-r", "flat-odd-q", "flat-even-q")


def kinds_map(width, height, layers, seed, edges=0, links=()):
    """A map of `layers` floors of width x height cells (walls, 'S' and 'T' scattered by `seed`),
    `edges` walls on cell edges and the given links ((l, x, y), (l, x, y), cost, oneway), as
    {"rows", "edges", "links"}. The cells links and queries use are left ground."""
    rnd = random.Random(seed)
    rows = [["@" if rnd.random() < 0.2 else "S" if rnd.random() < 0.05 else
             "T" if rnd.random() < 0.03 else "." for _ in range(width)] for _ in range(layers * height)]
    keep = [end for link in links for end in link[:2]] + [(0, 0, 0), (layers - 1, width - 1, height - 1)]
    for l, x, y in keep:
        rows[l * height + y][x] = "."
    walls = set()
    while len(walls) < edges:
        walls.add((rnd.randrange(layers), rnd.randrange(width), rnd.randrange(height), rnd.choice("nesw")))
    return {"width": width, "height": height, "layers": layers, "rows": ["".join(r) for r in rows],
            "edges": sorted(walls), "links": list(links)}


def write_spec(m, layout, path):
    """The map as capi_test's spec (spec_grid() of capi_test.c)."""
    lines = [f"grid {m['width']} {m['height']} {m['layers']} {layout}", *m["rows"]]
    lines += [f"edge {l} {x} {y} {side}" for l, x, y, side in m["edges"]]
    lines += [f"link {a[0]} {a[1]} {a[2]} {b[0]} {b[1]} {b[2]} {cost} {int(oneway)}"
              for a, b, cost, oneway in m["links"]]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_tmj(m, path):
    """The same map as a Tiled JSON map (docs/tiled.md): a tile per kind of cell (its class and
    the walls on its sides as tile properties), a tile layer per floor, the links as objects."""
    w, h, layers = m["width"], m["height"], m["layers"]
    sides = {}
    for l, x, y, side in m["edges"]:
        sides.setdefault((l, x, y), set()).add(side)
    kinds, tiles = {}, []
    def gid(cls, walls):
        key = (cls, "".join(sorted(walls)))
        if key not in kinds:
            kinds[key] = len(kinds)
            props = [] if cls == "." else [{"name": "class", "type": "string", "value": "wall" if cls == "@" else cls}]
            props += [{"name": f"wall_{s}", "type": "bool", "value": True} for s in sorted(walls)]
            tiles.append({"id": kinds[key], "properties": props})
        return kinds[key] + 1
    out_layers, next_id, next_object = [], 1, 1
    for l in range(layers):
        floor = [{"name": "floor", "type": "int", "value": l}] if layers > 1 else []
        data = [gid(m["rows"][l * h + y][x], sides.get((l, x, y), ())) for y in range(h) for x in range(w)]
        out_layers.append({"type": "tilelayer", "id": next_id, "name": f"floor {l}", "width": w, "height": h,
                           "x": 0, "y": 0, "opacity": 1, "visible": True, "data": data, "properties": floor})
        objects = []
        for a, b, cost, oneway in m["links"]:
            if a[0] != l:
                continue
            objects.append({"id": next_object, "name": "link", "type": "", "point": True, "rotation": 0,
                            "visible": True, "width": 0, "height": 0, "x": (a[1] + 0.5) * 32, "y": (a[2] + 0.5) * 32,
                            "properties": [{"name": "to_layer", "type": "int", "value": b[0]},
                                           {"name": "to_x", "type": "int", "value": b[1]},
                                           {"name": "to_y", "type": "int", "value": b[2]},
                                           {"name": "cost", "type": "float", "value": cost},
                                           {"name": "oneway", "type": "bool", "value": bool(oneway)}]})
            next_object += 1
        out_layers.append({"type": "objectgroup", "id": next_id + 1, "name": f"objects {l}", "draworder": "topdown",
                           "x": 0, "y": 0, "opacity": 1, "visible": True, "objects": objects, "properties": floor})
        next_id += 2
    tmj = {"type": "map", "version": "1.8", "tiledversion": "1.8.2", "orientation": "orthogonal",
           "renderorder": "right-down", "width": w, "height": h, "tilewidth": 32, "tileheight": 32,
           "infinite": False, "nextlayerid": next_id, "nextobjectid": next_object, "layers": out_layers,
           "tilesets": [{"firstgid": 1, "name": "cells", "tilewidth": 32, "tileheight": 32, "columns": 0,
                         "margin": 0, "spacing": 0, "tilecount": len(tiles), "tiles": tiles,
                         "grid": {"orientation": "orthogonal", "width": 1, "height": 1}}]}
    with open(path, "w") as f:
        json.dump(tmj, f)

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
    # Map kinds: hex layouts of a bundled map, then grids made through the ABI.
    for layout in HEX_LAYOUTS:
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(tmp, "hex.spec")
            with open(spec, "w") as f:
                f.write(f"map {seed} {layout}\n")
            for algorithm in algorithms:
                mine = capi("kinds", spec, "solve", algorithm, 0, 7, 2, 0, 9, 9)
                theirs = cli("solve", seed, "--layout", layout, "--algo", algorithm, "--from", "7,2", "--to", "9,9",
                             "--json")
                verdict(same_search(mine, theirs) and mine["layout"] == layout,
                        f"{algorithm} on seed_maze as {layout}", mine, theirs)
    stairs = [((0, 9, 7), (1, 9, 7), 1, False), ((1, 0, 0), (2, 0, 0), 2.5, False),
              ((0, 5, 3), (2, 11, 7), 4, True), ((2, 6, 0), (0, 2, 7), 1.5, True)]
    maps = [("edge walls", kinds_map(16, 10, 1, 9, edges=40), "square"),
            ("floors and links", kinds_map(12, 8, 3, 11, links=stairs), "square"),
            ("floors, links and edge walls", kinds_map(12, 8, 3, 13, edges=30, links=stairs), "square"),
            ("hex floors and links", kinds_map(12, 8, 3, 17, links=stairs), "pointy-even-r"),
            ("flat hex", kinds_map(14, 9, 1, 19), "flat-odd-q")]
    for name, m, layout in maps:
        with tempfile.TemporaryDirectory() as tmp:
            spec, tmj = os.path.join(tmp, "map.spec"), os.path.join(tmp, "map.tmj")
            write_spec(m, layout, spec)
            write_tmj(m, tmj)
            last = m["layers"] - 1
            goal = (last, m["width"] - 1, m["height"] - 1)
            where = lambda c: f"{c[0]}:{c[1]},{c[2]}" if m["layers"] > 1 else f"{c[1]},{c[2]}"
            for algorithm in algorithms:
                mine = capi("kinds", spec, "solve", algorithm, 0, 0, 0, *goal)
                theirs = cli("solve", tmj, "--layout", layout, "--algo", algorithm, "--from", where((0, 0, 0)),
                             "--to", where(goal), "--json")
                verdict(same_search(mine, theirs) and mine["status"] == FOUND,
                        f"{algorithm} on {name} ({layout})", mine, theirs)
            for budget in (6.5, 40):
                mine = capi("kinds", spec, "reach", 0, 0, 0, budget)
                theirs = cli("reach", tmj, "--layout", layout, "--from", where((0, 0, 0)), "--budget", str(budget),
                             "--json")
                status = {"found": FOUND, "node_limit": NODE_LIMIT}.get(theirs.get("status"), -1)
                same = (mine["status"] == status and len(mine["cells"]) == len(theirs["cells"])
                        and all(a == b[:-1] and abs(c - b[-1]) < 1e-9
                                for a, c, b in zip(mine["cells"], mine["costs"], theirs["cells"])))
                verdict(same, f"reach on {name} ({layout}) within {budget}", len(mine["cells"]),
                        len(theirs.get("cells", [])))
    print(f"capi-cli: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
