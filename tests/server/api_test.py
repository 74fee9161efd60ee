#!/usr/bin/env python3
"""API tests of `pathlab serve`: good and bad requests against a server on a free loopback port.
Usage: api_test.py PATHLAB_BINARY SOURCE_DIR. Prints one line per check and 'N passed, N failed'."""
import json, math, os, signal, subprocess, sys, time, urllib.error, urllib.request

PATHLAB, SOURCE = sys.argv[1], sys.argv[2]
MAPS = os.path.join(SOURCE, "maps")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}"[:400])


def request(url, body=None, timeout=30):
    """Returns (status, parsed JSON or raw bytes)."""
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"} if body else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            data, status = r.read(), r.status
    except urllib.error.HTTPError as e:
        data, status = e.read(), e.code
    try:
        return status, json.loads(data)
    except ValueError:
        return status, data


def decode_trace(values, width):
    """Inverse of the server's encoding: v = zigzag(cell - previous) * 8 + code. Codes 5 (line of
    sight, visible) and 6 (blocked) are followed by a code-7 value with the second cell; they decode
    to one event (kind, x, y, (x2, y2)). Other events are (kind, x, y, None)."""
    cell, out = 0, []
    for v in values:
        zig, kind = divmod(v, 8)
        cell += zig // 2 if zig % 2 == 0 else -(zig + 1) // 2
        x, y = cell % width, cell // width
        if kind == 7:
            assert out and out[-1][0] in (5, 6) and out[-1][3] is None, "code 7 without a line of sight before it"
            out[-1] = out[-1][:3] + ((x, y),)
        else:
            out.append((kind, x, y, None))
    return out


def centres(cells):
    return [[x + 0.5, y + 0.5] for x, y in cells]


def length(points):
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def main():
    proc = subprocess.Popen([PATHLAB, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline()
    check("serve prints its URL", "http://127.0.0.1:" in line, repr(line))
    url = line.split()[2]
    try:
        run(url)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=10)
            check("Ctrl-C (SIGINT) stops the server cleanly: exit 0", proc.returncode == 0 and "stopped" in out,
                  f"rc={proc.returncode} err={err[:200]!r}")
            solves = sum(1 for l in out.splitlines() if l.startswith("POST /api/solve "))
            check("one log line per request", solves == SOLVE_REQUESTS, f"{solves} log lines, {SOLVE_REQUESTS} requests")
        except subprocess.TimeoutExpired:
            proc.kill()
            check("Ctrl-C (SIGINT) stops the server cleanly", False, "still running after 10 s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


SOLVE_REQUESTS = 0


def solve(url, payload):
    global SOLVE_REQUESTS
    SOLVE_REQUESTS += 1
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return request(url + "api/solve", body)


def run(url):
    st, j = request(url + "api/algorithms")
    check("GET /api/algorithms lists the algorithms", st == 200 and "astar" in [a["name"] for a in j["algorithms"]])
    st, j = request(url + "api/maps")
    check("GET /api/maps lists the bundled maps", st == 200 and "seed_maze.txt" in j["maps"], str(j)[:200])
    st, m = request(url + "api/maps/seed_maze.txt")
    check("GET /api/maps/seed_maze.txt: 30x20 with its markers",
          st == 200 and m["width"] == 30 and m["height"] == 20 and m["start"] == [7, 2] and m["goal"] == [9, 9])
    st, _ = request(url + "api/maps/nosuch.map")
    check("unknown map: 404", st == 404)
    st, _ = request(url + "api/maps/..%2F..%2Fetc%2Fpasswd")
    check("a path outside the map folders: 404", st == 404)

    # Solve: the same cost as the CLI on the same map, and a trace that matches the stats.
    cli = json.loads(subprocess.run([PATHLAB, "solve", os.path.join(MAPS, "seed_maze.txt"), "--json"],
                                    capture_output=True, text=True).stdout)
    st, r = solve(url, {"map": m, "start": m["start"], "goal": m["goal"], "algorithm": "astar", "trace": True})
    check("POST /api/solve: same cost as pathlab solve --json", st == 200 and abs(r["cost"] - cli["cost"]) < 1e-9,
          f"{st} {str(r)[:200]}")
    events = decode_trace(r["trace"], m["width"])
    closed = sum(1 for e in events if e[0] == 2)
    check("compact trace decodes: closed events = expanded", closed == r["expanded"], f"{closed} vs {r['expanded']}")
    check("compact trace starts at the start cell", events[0][1:3] == (7, 2), str(events[:2]))
    check("astar: points are the path's cell centres, not any-angle, no LOS checks",
          r["points"] == centres(r["path"]) and r["any_angle"] is False and r["los_checks"] == 0
          and "smoothed_cost" not in r, str(r)[:200])
    astar = r
    size = len(json.dumps(r["trace"], separators=(",", ":")))
    check("trace <= 8 bytes per event on the wire", size / len(events) <= 8, f"{size / len(events):.2f}")

    for algo in ("dijkstra", "biastar", "bfs"):
        st, r2 = solve(url, {"map": m, "start": m["start"], "goal": m["goal"], "algorithm": algo})
        check(f"POST /api/solve {algo}: found", st == 200 and r2["status"] == "found" and "trace" not in r2)

    any_angle(url, m, astar)
    game_runtime(url, m)

    # Uploads in any format the CLI reads.
    with open(os.path.join(MAPS, "seed_maze.txt"), "rb") as f:
        st, up = request(url + "api/parse?name=seed_maze.txt", f.read())
    check("POST /api/parse (users' text map) = the bundled map", st == 200 and up["walls"] == m["walls"])
    with open(os.path.join(MAPS, "cave_100.png"), "rb") as f:
        st, cave = request(url + "api/parse?name=cave.png&cell=4", f.read())
    check("POST /api/parse (PNG image, cell 4): 100x100", st == 200 and cave["width"] == 100 and cave["height"] == 100)
    st, j = request(url + "api/parse?name=fake.png", b"this is not an image")
    check("POST /api/parse of junk named .png: 422 with a message", st == 422 and "error" in j, f"{st} {j}")

    # Bad requests: a JSON error, never a crash.
    good = {"map": m, "start": m["start"], "goal": m["goal"]}
    cases = [
        ("malformed JSON", b"{nope", 400),
        ("not an object", b"[1,2]", 400),
        ("missing map", json.dumps({"start": [0, 0]}).encode(), 400),
        ("huge grid", json.dumps({"map": {"width": 100000, "height": 100000, "walls": ""}, "start": [0, 0],
                                  "goal": [1, 1]}).encode(), 413),
        ("oversized body", b"x" * (9 << 20), 413),
        ("unknown algorithm", json.dumps(dict(good, algorithm="nope")).encode(), 422),
        ("unknown heuristic", json.dumps(dict(good, heuristic="nope")).encode(), 422),
        ("start on a wall", json.dumps(dict(good, start=[0, 0])).encode(), 422),
        ("goal outside the map", json.dumps(dict(good, goal=[99, 99])).encode(), 422),
        ("walls of the wrong length", json.dumps(dict(good, map=dict(m, walls="01"))).encode(), 422),
        ("walls with other characters", json.dumps(dict(good, map=dict(m, walls="x" * 600))).encode(), 422),
        ("negative weight", json.dumps(dict(good, weight=-1)).encode(), 422),
        ("start not a pair", json.dumps(dict(good, start="7,2")).encode(), 400),
    ]
    for name, body, want in cases:
        st, j = solve(url, body)
        check(f"bad request, {name}: {want} with a JSON error", st == want and isinstance(j, dict) and "error" in j,
              f"got {st} {str(j)[:150]}")
    st, j = solve(url, dict(good, node_limit=3))
    check("node limit: status node_limit", st == 200 and j["status"] == "node_limit")


def game_runtime(url, m):
    """Units, the nearest of several goals, partial paths and movement ranges: the same answers
    as the CLI on the same map."""
    seed = os.path.join(MAPS, "seed_maze.txt")

    def cli(*args):
        p = subprocess.run([PATHLAB] + list(args) + ["--json"], capture_output=True, text=True)
        return json.loads(p.stdout) if p.stdout else None

    want = cli("solve", seed, "--radius", "1.2", "--algo", "jps")
    st, r = solve(url, {"map": m, "start": m["start"], "goal": m["goal"], "algorithm": "jps", "radius": 1.2})
    check("POST /api/solve radius 1.2: the CLI's cost, and where the unit may go",
          st == 200 and want and abs(r["cost"] - want["cost"]) < 1e-9 and len(r.get("unit_blocked", "")) == 600
          and r["unit_blocked"].count("1") > sum(ch == "1" for ch in m["walls"]), f"{st} {str(r)[:200]}")
    classes = "".join("S" if i % 7 == 0 and m["walls"][i] == "0" and i not in (2 * 30 + 7, 9 * 30 + 9) else "."
                      for i in range(600))
    mc = dict(m, classes=classes)
    st, r = solve(url, {"map": mc, "start": m["start"], "goal": m["goal"], "class_cost": "S=3"})
    st2, r2 = solve(url, {"map": mc, "start": m["start"], "goal": m["goal"]})
    check("POST /api/solve class_cost S=3 on a map with classes: dearer than the default unit",
          st == 200 and st2 == 200 and r["cost"] > r2["cost"] + 1e-9, f"{st} {str(r)[:160]} {str(r2)[:160]}")
    st, r = solve(url, {"map": mc, "start": m["start"], "goal": m["goal"], "class_cost": "S=0.5"})
    check("POST /api/solve bad class_cost: 422 with the parser's message", st == 422 and "from 1 to 1e9" in str(r), str(r)[:200])
    st, r = solve(url, {"map": m, "start": m["start"], "goal": m["goal"], "radius": 40})
    check("POST /api/solve radius 40: 422", st == 422, str(r)[:200])

    goals = [[28, 18], [1, 1], m["goal"]]
    want = cli("solve", seed, "--to", "28,18", "--to", "1,1", "--to", f"{m['goal'][0]},{m['goal'][1]}")
    st, r = solve(url, {"map": m, "start": m["start"], "goals": goals})
    check("POST /api/solve goals: the nearest, as the CLI's several --to",
          st == 200 and want and r["goal"] == want["goal"] and abs(r["cost"] - want["cost"]) < 1e-9, f"{st} {str(r)[:200]}")
    walls = list(m["walls"])
    for x, y in ((0, 0), (1, 0), (0, 1)):  # wall in the top-left corner cell... (0,0) itself stays
        walls[y * 30 + x] = "1"
    walls[0] = "0"
    boxed = dict(m, walls="".join(walls))
    st, r = solve(url, {"map": boxed, "start": m["start"], "goal": [0, 0], "partial": True})
    check("POST /api/solve partial: no_path with a partial path to a reached cell",
          st == 200 and r["status"] == "no_path" and r.get("partial", {}).get("path", [[0]])[0] == m["start"],
          f"{st} {str(r)[:200]}")

    # Flow fields: the CLI's JSON, field for field; bad goals are 422.
    want = cli("flow", seed, "--to", f"{m['goal'][0]},{m['goal'][1]}", "--to", f"{m['start'][0]},{m['start'][1]}",
               "--radius", "1.2")
    st, r = request(url + "api/flow", json.dumps({"map": m, "goals": [m["goal"], m["start"]], "radius": 1.2}).encode())
    check("POST /api/flow: the CLI's distances, directions and sight marks",
          st == 200 and want and all(r[k] == want[k] for k in ("width", "height", "goals", "distance", "direction", "sees", "reachable")),
          f"{st} {str(r)[:200]}")
    want = cli("flow", seed, "--to", f"{m['goal'][0]},{m['goal'][1]}", "--from", f"{m['start'][0]},{m['start'][1]}",
               "--sector", "8")
    st, r = request(url + "api/flow", json.dumps({"map": m, "goals": [m["goal"]], "units": [m["start"]],
                                                  "sector": 8}).encode())
    check("POST /api/flow with units: the CLI's sectored field (flow --from)",
          st == 200 and want and all(r[k] == want[k] for k in ("distance", "direction", "sectors_built", "corridor_cells")),
          f"{st} {str(r)[:200]}")
    st, r = request(url + "api/flow", json.dumps({"map": m, "goals": [[0, 0]]}).encode())
    check("POST /api/flow goal on a wall: 422", st == 422 and "wall" in str(r), str(r)[:200])
    st, r = request(url + "api/flow", json.dumps({"map": m, "goals": []}).encode())
    check("POST /api/flow no goals: 400", st == 400, str(r)[:200])
    st, r = request(url + "api/flow", json.dumps({"map": m, "goal": m["goal"], "sight": "far"}).encode())
    check("POST /api/flow sight not a number: 400", st == 400, str(r)[:200])
    want = cli("reach", seed, "--budget", "5")
    st, r = request(url + "api/reach", json.dumps({"map": m, "start": m["start"], "budget": 5}).encode())
    check("POST /api/reach: the CLI's cells", st == 200 and want and r["cells"] == want["cells"], f"{st} {str(r)[:200]}")
    st, r = request(url + "api/reach", json.dumps({"map": m, "start": m["start"], "budget": -1}).encode())
    check("POST /api/reach budget -1: 422", st == 422, str(r)[:200])
    st, r = request(url + "api/reach", json.dumps({"map": m, "start": [0, 0], "budget": 3}).encode())
    check("POST /api/reach from a wall: 422", st == 422, str(r)[:200])

    # Map sessions: edits through the library's edit API, the finder kept and repaired.
    post = lambda path, body: request(url + path, json.dumps(body).encode())
    st, s = post("api/mapsession", {"map": m})
    sid = s.get("id") if st == 200 else None
    check("POST /api/mapsession: a session id", st == 200 and sid, str(s)[:200])
    query = {"start": m["start"], "goal": m["goal"], "algorithm": "jps+"}
    st, astar = solve(url, {"map": m, "start": m["start"], "goal": m["goal"]})
    st, r0 = post(f"api/mapsession/{sid}/solve", query)
    check("session solve: the stateless answer", st == 200 and abs(r0["cost"] - astar["cost"]) < 1e-9
          and "repair_us" in r0 and "edit_us" in r0, str(r0)[:200])
    st, r = post(f"api/mapsession/{sid}/edit", {"edits": [{"kind": "wall", "area": [30, 0, 30, 0]}]})
    check("session edit outside the map: 422 with the library's message, nothing applied",
          st == 422 and "outside the 30x20 map" in r.get("error", ""), str(r)[:200])
    # Wall the goal's room door (9,11): no path; free it: the old cost again.
    st, r = post(f"api/mapsession/{sid}/edit", {"edits": [{"kind": "wall", "cell": [9, 11]}]})
    st2, r2 = post(f"api/mapsession/{sid}/solve", query)
    check("session: walling the door leaves no path (jps+ table repaired)",
          st == 200 and r["edits"] == 1 and st2 == 200 and r2["status"] == "no_path", f"{r} {str(r2)[:200]}")
    st, r = post(f"api/mapsession/{sid}/edit", {"edits": [{"kind": "free", "cell": [9, 11]}]})
    st2, r2 = post(f"api/mapsession/{sid}/solve", dict(query, algorithm="subgoal"))
    check("session: freeing it gives the old cost again", st2 == 200 and abs(r2["cost"] - astar["cost"]) < 1e-9,
          str(r2)[:200])
    st, r = post(f"api/mapsession/{sid}/edit", {"edits": [{"kind": "paint", "cell": [1, 1]}]})
    check("session edit of an unknown kind: 422", st == 422, str(r)[:200])
    with urllib.request.urlopen(urllib.request.Request(url + f"api/mapsession/{sid}", method="DELETE")) as resp:
        check("DELETE /api/mapsession/ID", resp.status == 200)
    st, r = post(f"api/mapsession/{sid}/solve", query)
    check("a deleted session: 404", st == 404, str(r)[:200])
    st, r = post("api/mapsession/nosuch/solve", query)
    check("unknown map session: 404", st == 404, str(r)[:200])


def any_angle(url, m, astar):
    """Theta*, Lazy Theta*, the exact any-angle search, smoothing, and line-of-sight trace events."""
    st, j = request(url + "api/algorithms")
    flags = {a["name"]: a.get("any_angle") for a in j["algorithms"]}
    check("GET /api/algorithms: any_angle flags (theta lazytheta anyangle-exact yes, astar no)",
          flags.get("theta") is True and flags.get("lazytheta") is True and flags.get("anyangle-exact") is True
          and flags.get("astar") is False, str(flags))

    base = {"map": m, "start": m["start"], "goal": m["goal"]}
    results = {}
    for algo in ("theta", "lazytheta"):
        st, r = solve(url, dict(base, algorithm=algo, trace=True))
        results[algo] = r
        ok = st == 200 and r.get("status") == "found"
        check(f"{algo}: found, any_angle", ok and r["any_angle"] is True, f"{st} {str(r)[:200]}")
        if not ok:
            continue
        check(f"{algo}: points are the centres of the turning cells, start to goal",
              r["points"] == centres(r["path"]) and r["path"][0] == m["start"] and r["path"][-1] == m["goal"]
              and r["moves"] == len(r["path"]) - 1, str(r["points"]))
        check(f"{algo}: cost = Euclidean length of points", abs(r["cost"] - length(r["points"])) < 1e-9,
              f"{r['cost']} vs {length(r['points'])}")
        check(f"{algo}: cost <= astar's", r["cost"] <= astar["cost"] + 1e-9, f"{r['cost']} vs {astar['cost']}")
        check(f"{algo}: shorter than astar on seed_maze (the maze has open diagonals)",
              r["cost"] < astar["cost"] - 1e-6, f"{r['cost']} vs {astar['cost']}")
        events = decode_trace(r["trace"], m["width"])
        sight = [e for e in events if e[0] in (5, 6)]
        check(f"{algo}: the trace has line-of-sight events, each with its second cell, both kinds",
              len(sight) > 0 and all(e[3] is not None for e in sight) and {e[0] for e in sight} == {5, 6},
              f"{len(sight)} events")
        check(f"{algo}: one line-of-sight event per check", len(sight) == r["los_checks"],
              f"{len(sight)} vs {r['los_checks']}")
        closed = sum(1 for e in events if e[0] == 2)
        check(f"{algo}: closed events = expanded", closed == r["expanded"], f"{closed} vs {r['expanded']}")
        walls = m["walls"]
        visible_ok = all(walls[y * m["width"] + x] == "0" and walls[o[1] * m["width"] + o[0]] == "0"
                         for k, x, y, o in sight if k == 5)
        check(f"{algo}: visible checks join free cells", visible_ok)
    if "theta" in results and "lazytheta" in results and results["theta"].get("status") == "found":
        check("lazytheta checks line of sight less often than theta",
              results["lazytheta"]["los_checks"] < results["theta"]["los_checks"],
              f"{results['lazytheta']['los_checks']} vs {results['theta']['los_checks']}")
        st, r = solve(url, dict(base, algorithm="anyangle-exact"))
        if st == 200 and r.get("status") == "found":
            check("anyangle-exact: cost = length of its points, <= theta's",
                  abs(r["cost"] - length(r["points"])) < 1e-9 and r["cost"] <= results["theta"]["cost"] + 1e-9,
                  f"{r['cost']} vs {results['theta']['cost']}")
        else:
            check("anyangle-exact: answers (found, or a status / JSON error while it is unfinished)",
                  (st == 200 and "status" in r) or (isinstance(r, dict) and "error" in r), f"{st} {str(r)[:200]}")

    # Smoothing: waypoints of the found path that see each other.
    for method in ("refined", "greedy"):
        body = dict(base, algorithm="astar", smooth=True)
        if method == "greedy":
            body["smoothing"] = "greedy"
        st, r = solve(url, body)
        ok = st == 200 and r.get("status") == "found" and "smoothed_cost" in r
        check(f"smooth ({method}) astar: smoothed_path, smoothed_points, smoothed_cost", ok, f"{st} {str(r)[:200]}")
        if not ok:
            continue
        sp, pts = r["smoothed_path"], r["smoothed_points"]
        check(f"smooth ({method}): from start to goal, points are the waypoints' centres",
              sp[0] == m["start"] and sp[-1] == m["goal"] and pts == centres(sp) and 2 <= len(sp) <= len(r["path"]),
              str(sp))
        check(f"smooth ({method}): smoothed_cost <= cost, = length of the points",
              r["smoothed_cost"] <= r["cost"] + 1e-9 and abs(r["smoothed_cost"] - length(pts)) < 1e-9,
              f"{r['smoothed_cost']} vs {r['cost']}")
        check(f"smooth ({method}): method reported", r.get("smoothing", {}).get("method") == method, str(r.get("smoothing")))
        results["smooth_" + method] = r
    if "smooth_refined" in results and "smooth_greedy" in results:
        check("smooth: refined is never longer than greedy",
              results["smooth_refined"]["smoothed_cost"] <= results["smooth_greedy"]["smoothed_cost"] + 1e-9)
    st, r = solve(url, dict(base, algorithm="astar", smooth=False))
    check("smooth=false: no smoothed fields", st == 200 and "smoothed_path" not in r)
    st, r = solve(url, dict(base, smooth=True, smoothing="nope"))
    check("unknown smoothing: 422 with a JSON error", st == 422 and "error" in r, f"{st} {r}")
    st, r = solve(url, dict(base, smooth="yes"))
    check("smooth not a boolean: 400 with a JSON error", st == 400 and "error" in r, f"{st} {r}")
    blocked = dict(m, walls=m["walls"][:m["width"] * 5] + "1" * m["width"] + m["walls"][m["width"] * 6:])
    st, r = solve(url, dict(base, map=blocked, smooth=True))
    check("smooth with no path: no smoothed fields", st == 200 and r["status"] == "no_path" and "smoothed_path" not in r,
          f"{st} {str(r)[:200]}")
    map_kinds(url)


def map_kinds(url):
    """The map kinds over HTTP: the bundled Tiled, hex and layered maps, listed, served with their
    kind and solved as the CLI solves their files (cells [x, y, layer] on the layered one)."""
    st, j = request(url + "api/maps")
    check("GET /api/maps lists the .tmx, hex and layered maps",
          st == 200 and {"fences_12x8.tmx", "hex_20x14.map", "tower_2floors.json"} <= set(j["maps"]), str(j)[:300])
    for name, kind in (("fences_12x8.tmx", "edge_walls"), ("hex_20x14.map", "layout"), ("tower_2floors.json", "links")):
        st, m = request(url + "api/maps/" + name)
        start = m.get("start") or [0, 0]
        goal = m.get("goal") or [m["width"] - 1, m["height"] - 1]
        args = [] if m.get("start") else ["--from", ",".join(map(str, start)), "--to", ",".join(map(str, goal))]
        cli = json.loads(subprocess.run([PATHLAB, "solve", os.path.join(MAPS, name), "--json", *args],
                                        capture_output=True, text=True).stdout)
        st, r = solve(url, {"map": m, "start": start, "goal": goal})
        check(f"{name}: served with its {kind}, solved at the CLI's cost over HTTP",
              st == 200 and kind in m and abs(r["cost"] - cli["cost"]) < 1e-9 and r["path"] == cli["path"],
              f"{st} {str(r)[:200]} vs {cli.get('cost')}")
        if name == "tower_2floors.json":
            check("layered: cells [x, y, layer] in and out",
                  r["start"] == [1, 1, 0] and r["goal"] == [6, 4, 1] and all(len(c) == 3 for c in r["path"]), str(r)[:200])
            st, e = solve(url, {"map": m, "start": [1, 1, 5], "goal": goal})
            check("layered: a floor the map does not have is 422 with a JSON error",
                  st == 422 and "floor 5" in e.get("error", ""), f"{st} {e}")


if __name__ == "__main__":
    sys.exit(main())
