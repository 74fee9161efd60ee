#!/usr/bin/env python3
# End-to-end tests of the `pathlab` command against the CLI contract (shared docs/DESIGN.md):
# malformed inputs must give exit 2 and one "pathlab: error: FILE:LINE: ..." line; good paths
# are checked field by field. Usage: cli_test.py PATHLAB_BINARY SOURCE_DIR SHARED_DIR [GROUP...]
# (stdlib only). GROUPs are the names in GROUPS (e.g. "solve", "bench"); none runs them all.
# ctest runs each group as its own test (tests/cli/CMakeLists.txt asks --list-groups), in parallel.
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

PATHLAB, SOURCE_DIR, SHARED_DIR = (os.path.abspath(a) for a in sys.argv[1:4]) if len(sys.argv) >= 4 else (None,) * 3
# Seconds per command: a guard against a hang, not a speed check (the run prints its slowest
# command; under ASan + UBSan, the slowest build, it takes about 4 s on this 2-core machine).
TIMEOUT = 60
SQRT2 = math.sqrt(2.0)
ALL_ALGOS = ["bfs", "dfs", "iddfs", "bibfs", "dijkstra", "greedy", "astar", "wastar", "biastar", "idastar"]

passed = 0
failed = 0
TMP = None
slowest = (0.0, "")  # (seconds, arguments) of the slowest command run: printed at the end


def check(name, ok, detail=""):
    """Prints one line per check and counts it."""
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")
    return ok


def run(args, cwd=None, timeout=TIMEOUT):
    """Runs pathlab; returns (returncode or None on timeout, stdout, stderr, seconds)."""
    global slowest
    t0 = time.monotonic()
    try:
        p = subprocess.run([PATHLAB] + list(args), cwd=cwd or TMP, capture_output=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", "", time.monotonic() - t0
    secs = time.monotonic() - t0
    slowest = max(slowest, (secs, " ".join(args)))
    return (p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), secs)


def run_json(args, cwd=None):
    rc, out, err, _ = run(args, cwd)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, err


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def map_path(name):
    own = os.path.join(SOURCE_DIR, "maps", name)
    return own if os.path.exists(own) else os.path.join(SHARED_DIR, "maps", name)


# ---------------------------------------------------------------------------------------------
# Malformed input: exit 2, exactly one stderr line "pathlab: error: ", naming FILE[:LINE].

def bad(name, args, where=None, mention=None, timeout=TIMEOUT):
    """`where` is the expected "FILE:LINE:" (or "FILE:") right after the prefix; `mention` a
    text the message must contain."""
    rc, out, err, secs = run(args, timeout=timeout)
    lines = err.splitlines()
    problems = []
    if rc is None:
        problems.append(f"timed out after {timeout} s")
    elif rc < 0:
        problems.append(f"crashed with signal {-rc}")
    elif rc != 2:
        problems.append(f"exit {rc}, expected 2")
    if len(lines) != 1:
        problems.append(f"{len(lines)} stderr lines, expected 1")
    if not lines or not lines[0].startswith("pathlab: error: "):
        problems.append("stderr does not start with 'pathlab: error: '")
    elif where and not lines[0].startswith("pathlab: error: " + where + " "):
        problems.append(f"expected location '{where}'")
    if mention and mention not in err:
        problems.append(f"message does not mention '{mention}'")
    check(f"malformed: {name}", not problems, "; ".join(problems) + f"; stderr={err.strip()[:300]!r}")


def malformed_tests():
    maze = map_path("seed_maze.txt")
    write("empty.txt", b"")
    bad("empty file", ["solve", "empty.txt"], "empty.txt:")
    write("ruler.txt", "----+----+----+\n")
    bad("only a ruler line", ["solve", "ruler.txt"], "ruler.txt:")
    write("trunc.map", "type octile\nheight 3\n")
    bad("truncated Moving AI header", ["solve", "trunc.map"], "trunc.map:3:")
    write("fewrows.map", "type octile\nheight 3\nwidth 4\nmap\n....\n....\n")
    bad("height larger than the rows (too few rows)", ["solve", "fewrows.map", "--from", "0,0", "--to", "1,1"],
        "fewrows.map:7:")
    write("longrow.map", "type octile\nheight 3\nwidth 4\nmap\n....\n.....\n....\n")
    bad("a row longer than the width", ["solve", "longrow.map", "--from", "0,0", "--to", "1,1"], "longrow.map:6:")
    write("morerows.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n..\n")
    bad("more rows than the height", ["solve", "morerows.map", "--from", "0,0", "--to", "1,1"], "morerows.map:7:")
    write("absurd.map", "type octile\nheight 2000000000\nwidth 4\nmap\n....\n")
    bad("absurd dimensions (height 2000000000)", ["solve", "absurd.map"], "absurd.map:2:")
    write("absurd2.map", "type octile\nheight 65536\nwidth 65536\nmap\n....\n")
    bad("absurd area (65536 x 65536)", ["solve", "absurd2.map"], "absurd2.map:3:")
    write("negative.map", "type octile\nheight -3\nwidth 4\nmap\n....\n")
    bad("negative dimensions", ["solve", "negative.map"], "negative.map:2:")
    write("zero.map", "type octile\nheight 0\nwidth 2\nmap\n")
    bad("zero height", ["solve", "zero.map"], "zero.map:2:")
    write("wabc.map", "type octile\nheight 2\nwidth abc\nmap\n..\n..\n")
    bad("width is not a number", ["solve", "wabc.map"], "wabc.map:3:")
    write("hex.map", "type hex\nheight 2\nwidth 2\nmap\n..\n..\n")
    bad("unsupported map type", ["solve", "hex.map"], "hex.map:1:")
    rnd = random.Random(20240601)
    garbage = bytes(rnd.randrange(128, 256) for _ in range(4096))  # high bytes: never a magic number
    write("garbage.bin", garbage)
    bad("binary garbage (random bytes)", ["solve", "garbage.bin"], "garbage.bin:1:")
    write("garbage.map", bytes(rnd.randrange(256) for _ in range(4096)))
    bad("binary garbage with a .map name", ["solve", "garbage.map"], mention="garbage.map")
    write("fake.png", "this is not an image\n")
    bad("non-image bytes named .png", ["solve", "fake.png"], "fake.png:")
    write("fake.jpg", "this is not an image either\n")
    bad("non-image bytes named .jpg", ["solve", "fake.jpg"], "fake.jpg:")
    with open(map_path("cave_100.png"), "rb") as f:
        png = f.read()
    write("cut.png", png[: len(png) // 2])
    bad("truncated real PNG (cave_100.png cut in half)",
        ["solve", "cut.png", "--cell", "4", "--from", "10,23", "--to", "71,71"], "cut.png:")
    write("noend.png", png[:-12])
    bad("real PNG without its IEND chunk",
        ["solve", "noend.png", "--cell", "4", "--from", "10,23", "--to", "71,71"], "noend.png:")
    write("badchar.ascii", "#####\n#S.G#\n#.X.#\n#####\n")
    bad("unknown character in an ASCII map", ["solve", "badchar.ascii"], "badchar.ascii:3:")
    write("badchar.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n")
    bad("unknown character in a .map", ["solve", "badchar.map", "--from", "0,0", "--to", "2,1"], "badchar.map:6:")
    write("ctl.txt", b"----+\n1  8$\n1 9 $\n1\x01  $\n")
    bad("control byte in a users' text map", ["solve", "ctl.txt"], "ctl.txt:4:")
    write("twostart.ascii", "#####\n#S.S#\n#..G#\n#####\n")
    bad("two start markers", ["solve", "twostart.ascii"], "twostart.ascii:2:")
    write("nostart.ascii", "#####\n#...#\n#..G#\n#####\n")
    bad("no start marker and no --from", ["solve", "nostart.ascii"], "nostart.ascii:")

    # Scenario files, for bench. tiny.map is 5x4 with a wall at (1,1) and (2,1).
    write("tiny.map", "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@..\n.....\n.....\n")
    ok_line = "0\ttiny.map\t5\t4\t0\t0\t4\t3\t5.82843\n"
    write("badnum.scen", "version 1\n" + ok_line + "0\ttiny.map\t5\t4\t0\t0\t4\tx3\t5.82843\n")
    bad(".scen with a bad number", ["bench", "badnum.scen"], "badnum.scen:3:")
    write("badlen.scen", "version 1\n" + ok_line + "0\ttiny.map\t5\t4\t0\t0\t4\t3\tfive\n")
    bad(".scen with a bad optimal length", ["bench", "badlen.scen"], "badlen.scen:3:")
    write("fewfields.scen", "version 1\n0\ttiny.map\t5\t4\t0\t0\t4\n")
    bad(".scen with too few fields", ["bench", "fewfields.scen"], "fewfields.scen:2:")
    write("outside.scen", "version 1\n" + ok_line + "0\ttiny.map\t5\t4\t0\t0\t9\t3\t9\n")
    bad(".scen with out-of-map coordinates", ["bench", "outside.scen"], "outside.scen:3:")
    write("wrongsize.scen", "version 1\n" + ok_line + "0\ttiny.map\t6\t4\t0\t0\t4\t3\t5.82843\n")
    bad(".scen for a map of another size", ["bench", "wrongsize.scen"], "wrongsize.scen:3:")
    write("onwall.scen", "version 1\n" + ok_line + ok_line + "0\ttiny.map\t5\t4\t1\t1\t4\t3\t3\n")
    bad(".scen with start on a wall (bench)", ["bench", "onwall.scen"], "onwall.scen:4:")
    write("v3.scen", "version 3\n" + ok_line)
    bad(".scen with an unknown version", ["bench", "v3.scen"], "v3.scen:1:")
    # "version 2" is the dynamic track's format: a Moving AI line after it is named as such.
    write("v2.scen", "version 2\n" + ok_line)
    bad(".scen saying version 2 (the dynamic track) with Moving AI lines", ["bench", "v2.scen"],
        "v2.scen:2:", mention="dynamic track")
    write("onlyversion.scen", "version 1\n")
    bad(".scen without scenario lines", ["bench", "onlyversion.scen"], "onlyversion.scen:")
    write("nomap.scen", "version 1\n0\tmaps/x/missing.map\t5\t4\t0\t0\t4\t3\t5.82843\n")
    bad(".scen whose map file is missing", ["bench", "nomap.scen"], mention="missing.map")
    bad("bench on a missing .scen", ["bench", "nosuch.scen"], mention="nosuch.scen")

    # Options.
    bad("unknown algorithm", ["solve", maze, "--algo", "nosuch"], mention="nosuch")
    bad("unknown algorithm in a list", ["solve", maze, "--algo", "astar,nosuch"], mention="nosuch")
    bad("unknown algorithm (bench)", ["bench", "onwall.scen", "--algo", "nosuch"], mention="nosuch")
    bad("unknown heuristic", ["solve", maze, "--heuristic", "nosuch"], mention="nosuch")
    bad("unknown diagonal rule", ["solve", maze, "--diagonal", "nosuch"], mention="nosuch")
    bad("unknown cost model", ["solve", maze, "--cost-model", "nosuch"], mention="nosuch")
    bad("unknown map format", ["solve", maze, "--format", "nosuch"], mention="nosuch")
    for text in ["abc", "1", "1,2,3", "1,", ",2", "2147483648,1"]:
        bad(f"bad --from '{text}'", ["solve", maze, "--from", text], mention="--from")
    bad("--from outside the map", ["solve", maze, "--from", "100,2"], mention="--from")
    bad("--from negative", ["solve", maze, "--from=-1,3"], mention="--from")
    bad("--to outside the map", ["solve", maze, "--to", "5,20"], mention="--to")
    bad("start on a wall", ["solve", maze, "--from", "0,0"], mention="wall")
    bad("goal on a wall", ["solve", maze, "--to", "0,0"], mention="wall")
    bad("missing map file", ["solve", "nosuch.txt"], "nosuch.txt:")
    bad("map path is a directory", ["solve", TMP], mention=TMP)
    bad("negative weight", ["solve", maze, "--weight", "-1"], mention="weight")
    bad("weight not a number", ["solve", maze, "--weight", "abc"], mention="weight")
    bad("node limit 0", ["solve", maze, "--node-limit", "0"], mention="node-limit")
    bad("negative radius", ["solve", maze, "--radius", "-1"], mention="radius")
    bad("image cell size 0", ["solve", maze, "--cell", "0"], mention="cell")
    bad("unknown subcommand", ["frobnicate"])
    bad("unknown option", ["solve", maze, "--no-such-option"], mention="no-such-option")
    bad("missing MAP argument", ["solve"], mention="MAP")
    bad("missing SCEN argument", ["bench"], mention="SCEN")
    bad("convert without OUT", ["convert", maze], mention="OUT")
    bad("convert to an unknown extension", ["convert", maze, "out.xyz"], mention="out.xyz")
    bad("convert a missing file", ["convert", "nosuch.txt", "out.map"], "nosuch.txt:")
    bad("trace into a missing directory", ["solve", maze, "--trace", os.path.join(TMP, "no", "t.json")],
        mention="t.json")


# ---------------------------------------------------------------------------------------------
# Good paths.

def read_grid(path):
    """Walls of a users' text map, ASCII map or Moving AI map: (width, height, set of walls)."""
    with open(path) as f:
        lines = f.read().splitlines()
    walls = set()
    if lines and lines[0].startswith("type"):
        h = int(lines[1].split()[1])
        w = int(lines[2].split()[1])
        rows = lines[4:4 + h]
        for y, row in enumerate(rows):
            for x, c in enumerate(row):
                if c in "@OTW":
                    walls.add((x, y))
        return w, h, walls
    text = any("$" in l for l in lines) or (lines and set(lines[0]) <= set("-+|0123456789 "))
    if text:
        rows = [l.split("$")[0] for l in lines[1:]]
        while rows and rows[-1] == "":
            rows.pop()
        for y, row in enumerate(rows):
            for x, c in enumerate(row):
                if c == "1":
                    walls.add((x, y))
    else:
        rows = lines
        while rows and rows[-1] == "":
            rows.pop()
        for y, row in enumerate(rows):
            for x, c in enumerate(row):
                if c in "#@":
                    walls.add((x, y))
    return max(len(r) for r in rows), len(rows), walls


def path_problem(path, start, goal, grid=None, rule="no-corner-cut", straight=1.0, diagonal=SQRT2):
    """None when `path` runs start..goal in 8-adjacent steps (legal under the diagonal `rule` on
    `grid` if given); otherwise what is wrong. Also returns the cost of the path."""
    if not path:
        return "empty path", 0
    if path[0] != list(start) or path[-1] != list(goal):
        return f"path runs {path[0]}..{path[-1]}, expected {start}..{goal}", 0
    cost = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        dx, dy = x1 - x0, y1 - y0
        if max(abs(dx), abs(dy)) != 1:
            return f"step {[x0, y0]}->{[x1, y1]} is not to an adjacent cell", 0
        if dx and dy and rule == "never":
            return f"diagonal {[x0, y0]}->{[x1, y1]} under --diagonal never", 0
        if grid:
            w, h, walls = grid
            if not (0 <= x1 < w and 0 <= y1 < h) or (x1, y1) in walls:
                return f"step onto {[x1, y1]} (wall or outside)", 0
            if dx and dy:
                blocked = ((x0 + dx, y0) in walls) + ((x0, y0 + dy) in walls)
                if blocked > {"no-corner-cut": 0, "one-corner": 1, "always": 2}.get(rule, 0):
                    return f"diagonal {[x0, y0]}->{[x1, y1]} passes {blocked} blocked corner(s) under {rule}", 0
        cost += diagonal if dx and dy else straight
    return None, cost


def reference_cost(grid, start, goal, rule="no-corner-cut", straight=1.0, diagonal=SQRT2):
    """Least cost start..goal by a plain Dijkstra written here, independent of pathlab."""
    import heapq
    w, h, walls = grid
    allowed = {"never": -1, "no-corner-cut": 0, "one-corner": 1, "always": 2}[rule]
    dist = {tuple(start): 0.0}
    heap = [(0.0, tuple(start))]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == tuple(goal):
            return d
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = (x + dx, y + dy)
                if (dx, dy) == (0, 0) or not (0 <= n[0] < w and 0 <= n[1] < h) or n in walls:
                    continue
                if dx and dy and ((x + dx, y) in walls) + ((x, y + dy) in walls) > allowed:
                    continue
                nd = d + (diagonal if dx and dy else straight)
                if nd < dist.get(n, math.inf) - 1e-12:
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
    return None


def replay_trace(trace, start, goal):
    """Rebuilds the path from a trace: the last parent of each cell per side, from the goal
    along side 0; for bidirectional searches from the meet event along both sides."""
    parent = [{}, {}]
    meet = None
    for e in trace["events"]:
        if e["type"] in ("opened", "updated"):
            parent[e.get("side", 0)][(e["x"], e["y"])] = (e["px"], e["py"])
        elif e["type"] == "meet":
            meet = ((e["x"], e["y"]), (e["x2"], e["y2"]))

    def chain(side, cell, end):
        out = [cell]
        seen = {cell}
        while cell != end:
            if cell not in parent[side]:
                return None
            cell = parent[side][cell]
            if cell in seen:
                return None
            seen.add(cell)
            out.append(cell)
        return out

    start, goal = tuple(start), tuple(goal)
    if meet is None:
        back = chain(0, goal, start)
        return None if back is None else [list(c) for c in reversed(back)]
    a, b = meet
    fwd = chain(0, a, start)
    bwd = chain(1, b, goal)
    if fwd is None or bwd is None:
        return None
    cells = list(reversed(fwd)) + (bwd[1:] if a == b else bwd)
    return [list(c) for c in cells]


def solve_tests():
    maze = map_path("seed_maze.txt")
    maze_grid = read_grid(maze)
    fields = ["status", "algorithm", "start", "goal", "cost", "moves", "path", "points", "expanded",
              "generated", "time_us"]

    rc, j, err = run_json(["solve", maze, "--json"])
    if check("solve seed_maze.txt --json: exit 0 and JSON", rc == 0 and isinstance(j, dict), f"rc={rc} err={err!r}"):
        missing = [f for f in fields if f not in j]
        check("solve --json: contract fields present", not missing, f"missing {missing}")
        check("solve --json: status found, algorithm astar", j.get("status") == "found" and j.get("algorithm") == "astar",
              f"{j.get('status')} {j.get('algorithm')}")
        check("solve --json: start [7,2] and goal [9,9] from the map's markers",
              j.get("start") == [7, 2] and j.get("goal") == [9, 9], f"{j.get('start')} {j.get('goal')}")
        problem, cost = path_problem(j.get("path"), [7, 2], [9, 9], maze_grid)
        check("solve --json: path runs start->goal in legal adjacent steps", problem is None, problem)
        check("solve --json: cost equals the sum of the path's steps",
              problem is None and abs(cost - j.get("cost", -1)) < 1e-6, f"cost {j.get('cost')} vs steps {cost}")
        check("solve --json: moves = len(path) - 1", j.get("moves") == len(j.get("path", [])) - 1,
              f"moves {j.get('moves')}, {len(j.get('path', []))} cells")
        pts = j.get("points", [])
        check("solve --json: points are the cell centres (+0.5)",
              len(pts) == len(j["path"]) and all(abs(p[0] - c[0] - 0.5) < 1e-9 and abs(p[1] - c[1] - 0.5) < 1e-9
                                                 for p, c in zip(pts, j["path"])), f"{pts[:3]}")
        check("solve --json: expanded/generated/time_us are numbers",
              all(isinstance(j.get(k), (int, float)) and j.get(k) >= 0 for k in ("expanded", "generated", "time_us"))
              and j["expanded"] > 0, f"{j.get('expanded')} {j.get('generated')} {j.get('time_us')}")

    # Which algorithm answered, machine-readable (Result::answered_by / fallback).
    rc, j, err = run_json(["solve", maze, "--algo", "jps", "--json"])
    check("solve --algo jps --json: answered_by jps, fallback none, no note",
          rc == 0 and j.get("answered_by") == "jps" and j.get("fallback") == "none" and "note" not in j,
          f"rc={rc} {j and {k: j.get(k) for k in ('answered_by', 'fallback', 'note')}}")
    rc, j, err = run_json(["solve", maze, "--algo", "jps", "--diagonal", "always", "--json"])
    check("solve --algo jps --diagonal always --json: answered_by astar, fallback diagonal-rule, a note",
          rc == 0 and j.get("algorithm") == "jps" and j.get("answered_by") == "astar"
          and j.get("fallback") == "diagonal-rule" and "no-corner-cut" in j.get("note", ""),
          f"rc={rc} {j and {k: j.get(k) for k in ('algorithm', 'answered_by', 'fallback', 'note')}}")

    rc, out, err, _ = run(["solve", maze])
    check("solve (human output, not a terminal): exit 0, text, no colour codes",
          rc == 0 and "astar" in out and "\x1b[" not in out and "\x1b[" not in err, f"rc={rc} err={err!r}")

    # Several algorithms: {"results":[...]}; optimal ones match Dijkstra.
    rc, info, err = run_json(["algorithms", "--json"])
    names = [a.get("name") for a in (info or {}).get("algorithms", [])]
    check("algorithms --json lists the 10 algorithms", rc == 0 and all(a in names for a in ALL_ALGOS),
          f"rc={rc} names={names}")
    optimal = {a["name"]: a.get("optimal") for a in (info or {}).get("algorithms", [])}
    check("algorithms --json: optimal flags (dijkstra astar biastar idastar yes; bfs dfs greedy wastar no)",
          all(optimal.get(a) is True for a in ("dijkstra", "astar", "biastar", "idastar"))
          and all(optimal.get(a) is False for a in ("bfs", "dfs", "greedy", "wastar")), f"{optimal}")
    rc, out, err, _ = run(["algorithms"])
    check("algorithms (text): exit 0, every name listed", rc == 0 and all(a in out for a in ALL_ALGOS), f"rc={rc}")

    opt = reference_cost(maze_grid, [7, 2], [9, 9])
    rc, j, err = run_json(["solve", maze, "--algo", ",".join(ALL_ALGOS), "--json"])
    results = (j or {}).get("results") if isinstance(j, dict) else None
    if check("solve --algo <all 10> --json: exit 0 and {\"results\":[...]} in order",
             rc == 0 and isinstance(results, list) and [r.get("algorithm") for r in results] == ALL_ALGOS,
             f"rc={rc} err={err!r} algos={[r.get('algorithm') for r in results or []]}"):
        by = {r["algorithm"]: r for r in results}
        check("dijkstra's cost equals this script's own Dijkstra", abs(by["dijkstra"]["cost"] - opt) < 1e-9,
              f"{by['dijkstra']['cost']} vs {opt}")
        for r in results:
            a = r["algorithm"]
            problem, cost = path_problem(r.get("path"), [7, 2], [9, 9], maze_grid)
            check(f"{a}: found, legal path, cost = sum of steps, all fields",
                  r.get("status") == "found" and problem is None and abs(cost - r["cost"]) < 1e-6
                  and all(f in r for f in fields), f"status={r.get('status')} problem={problem} cost={r.get('cost')}/{cost}")
            if optimal.get(a):
                check(f"{a}: cost equals the optimum", abs(r["cost"] - opt) < 1e-9, f"{r['cost']} vs {opt}")
            else:
                check(f"{a}: cost >= the optimum", r["cost"] >= opt - 1e-9, f"{r['cost']} vs {opt}")
        check("wastar (w=2): cost <= 2 * optimum", by["wastar"]["cost"] <= 2 * opt + 1e-9, f"{by['wastar']['cost']}")
        fewest = min(r["moves"] for r in results)
        check("bfs, iddfs, bibfs: fewest moves", all(by[a]["moves"] == fewest for a in ("bfs", "iddfs", "bibfs")),
              f"{[(a, by[a]['moves']) for a in ('bfs', 'iddfs', 'bibfs')]} fewest {fewest}")

    # Other diagonal rules and cost models: every algorithm's path is legal under the rule, the
    # optimal ones agree with Dijkstra, and the costs follow the model.
    opts = {}
    for rule, extra, straight, diag in (("never", ["--diagonal", "never"], 1.0, SQRT2),
                                        ("always", ["--diagonal", "always"], 1.0, SQRT2),
                                        ("one-corner", ["--diagonal", "one-corner"], 1.0, SQRT2),
                                        ("no-corner-cut", ["--cost-model", "integer"], 10.0, 14.0),
                                        ("never", ["--diagonal", "never", "--heuristic", "manhattan"], 1.0, SQRT2)):
        rc, j, err = run_json(["solve", maze, "--algo", ",".join(ALL_ALGOS), "--json"] + extra)
        results = j.get("results", []) if isinstance(j, dict) else []
        ref = reference_cost(maze_grid, [7, 2], [9, 9], rule, straight, diag)
        problems = []
        for r in results:
            problem, cost = path_problem(r.get("path"), [7, 2], [9, 9], maze_grid, rule, straight, diag)
            if r.get("status") != "found" or problem or abs(cost - r.get("cost", -1)) > 1e-6:
                problems.append(f"{r.get('algorithm')}: {r.get('status')} {problem} cost {r.get('cost')} vs {cost}")
            elif optimal.get(r["algorithm"]) and abs(r["cost"] - ref) > 1e-9:
                problems.append(f"{r['algorithm']}: cost {r['cost']} but the optimum is {ref}")
        check(f"solve --algo <all 10> {' '.join(extra)}: legal paths, costs per model, optimal ones = reference",
              rc == 0 and len(results) == 10 and not problems, f"rc={rc} err={err.strip()!r} {problems[:3]}")
        if len(results) == 10:
            opts[" ".join(extra)] = results[4]["cost"]
    if len(opts) == 5:
        check("optimum: never >= no-corner-cut >= one-corner >= always",
              opts["--diagonal never"] >= opt - 1e-9 >= opts["--diagonal one-corner"] - 2e-9
              and opts["--diagonal one-corner"] >= opts["--diagonal always"] - 1e-9, f"{opts} default {opt}")

    rc, j, err = run_json(["solve", maze, "--algo", "astar,dijkstra", "--weight", "0", "--json"])
    costs = [r.get("cost") for r in (j or {}).get("results", [])] if isinstance(j, dict) else []
    check("--weight 0: astar = dijkstra", rc == 0 and len(costs) == 2 and abs(costs[0] - costs[1]) < 1e-9,
          f"rc={rc} {costs} err={err!r}")
    rc, j, err = run_json(["solve", maze, "--algo", "wastar", "--weight", "1.5", "--json"])
    check("wastar --weight 1.5: cost <= 1.5 * optimum", rc == 0 and isinstance(j, dict) and j.get("cost", 1e9) <= 1.5 * opt + 1e-9,
          f"rc={rc} {(j or {}).get('cost')} err={err!r}")
    rc, j, err = run_json(["solve", maze, "--from", "7,2", "--to", "7,2", "--algo", ",".join(ALL_ALGOS), "--json"])
    results = j.get("results", []) if isinstance(j, dict) else []
    check("start = goal: every algorithm finds the one-cell path of cost 0",
          rc == 0 and len(results) == 10 and all(r.get("status") == "found" and r.get("cost") == 0
                                                  and r.get("path") == [[7, 2]] and r.get("moves") == 0 for r in results),
          f"rc={rc} {[(r.get('algorithm'), r.get('status'), r.get('path')) for r in results]}")

    # No path.
    write("walled.ascii", "#######\n#S.#..#\n#..#.G#\n#######\n")
    rc, j, err = run_json(["solve", "walled.ascii", "--json"])
    check("no path: exit 1, status no_path, empty path", rc == 1 and isinstance(j, dict) and j.get("status") == "no_path"
          and not j.get("path"), f"rc={rc} out={j} err={err!r}")
    rc, j, err = run_json(["solve", "walled.ascii", "--algo", "astar,bfs,bibfs,biastar,idastar,iddfs", "--json"])
    statuses = [r.get("status") for r in (j or {}).get("results", [])] if isinstance(j, dict) else []
    check("no path, six algorithms: exit 1, all no_path", rc == 1 and statuses == ["no_path"] * 6, f"rc={rc} {statuses}")

    # Node limit on a large map.
    cave = map_path("cave_100.png")
    cave_args = ["solve", cave, "--cell", "4", "--from", "10,23", "--to", "71,71"]
    rc, j, err = run_json(cave_args + ["--node-limit", "5", "--json"])
    check("--node-limit 5 on cave_100: exit 1, status node_limit",
          rc == 1 and isinstance(j, dict) and j.get("status") == "node_limit" and j.get("expanded", 99) <= 5,
          f"rc={rc} status={(j or {}).get('status')} expanded={(j or {}).get('expanded')} err={err!r}")

    # Images.
    rc, j, err = run_json(cave_args + ["--json"])
    ok = rc == 0 and isinstance(j, dict) and j.get("status") == "found"
    check("solve cave_100.png --cell 4 --from 10,23 --to 71,71: found", ok, f"rc={rc} err={err!r}")
    if ok:
        problem, _ = path_problem(j["path"], [10, 23], [71, 71])
        check("cave_100: path runs (10,23)->(71,71) in adjacent steps", problem is None, problem)
        base = j["cost"]
        rc, j2, err = run_json(cave_args + ["--radius", "1.5", "--json"])
        check("cave_100 --radius 1.5: cost >= radius-0 cost (or no path)",
              (rc == 0 and j2["cost"] >= base - 1e-9) or (rc == 1 and j2.get("status") == "no_path"),
              f"rc={rc} cost={(j2 or {}).get('cost')} base={base} err={err!r}")

    hybrid = map_path("hybrid_30x20.txt")
    hgrid = read_grid(hybrid)
    rc, j0, _ = run_json(["solve", hybrid, "--json"])
    rc1, j1, err = run_json(["solve", hybrid, "--radius", "1.5", "--json"])
    if check("hybrid_30x20 with and without --radius 1.5: both found",
             rc == 0 and rc1 == 0 and isinstance(j0, dict) and isinstance(j1, dict), f"rc={rc},{rc1} err={err!r}"):
        near = [c for c in j1["path"] if any((c[0] + dx, c[1] + dy) in hgrid[2] for dx in (-1, 0, 1) for dy in (-1, 0, 1))]
        check("hybrid --radius 1.5: cost >= radius-0 cost, no path cell next to a wall",
              j1["cost"] >= j0["cost"] - 1e-9 and not near, f"{j1['cost']} vs {j0['cost']}, near walls: {near[:5]}")

    # Moving AI map with CRLF line ends and a scenario-style query.
    write("crlf.map", "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n.@@.\r\n....\r\n")
    rc, j, err = run_json(["solve", "crlf.map", "--from", "0,1", "--to", "3,1", "--json"])
    check("Moving AI map with CRLF: found, cost 5 (no corner cutting around the wall)",
          rc == 0 and isinstance(j, dict) and abs(j.get("cost", 0) - 5.0) < 1e-9,
          f"rc={rc} cost={(j or {}).get('cost')} err={err!r}")

    # Traces replay to the returned path.
    for a in ALL_ALGOS:
        tpath = os.path.join(TMP, f"trace_{a}.json")
        rc, j, err = run_json(["solve", maze, "--algo", a, "--trace", tpath, "--json"])
        try:
            with open(tpath) as f:
                trace = json.load(f)
        except (OSError, ValueError) as e:
            check(f"--trace ({a}): file written", False, f"rc={rc} {e} err={err!r}")
            continue
        rebuilt = replay_trace(trace, [7, 2], [9, 9])
        check(f"--trace ({a}): events replay to the returned path",
              rc == 0 and isinstance(j, dict) and rebuilt == j.get("path"),
              f"rc={rc} rebuilt={rebuilt and rebuilt[:6]}... returned={(j or {}).get('path', [])[:6]}...")
        if a == "astar":
            check("--trace: start/goal/width/height/algorithm fields",
                  trace.get("start") == [7, 2] and trace.get("goal") == [9, 9] and trace.get("width") == 30
                  and trace.get("height") == 20 and trace.get("algorithm") == "astar", f"{ {k: v for k, v in trace.items() if k != 'events'} }")


def big_trace_tests():
    """Traces replay on the 100x100 cave too, where the searches meet far from both ends."""
    cave = map_path("cave_100.png")
    for a in ("astar", "bibfs", "biastar", "idastar"):
        tpath = os.path.join(TMP, f"cave_trace_{a}.json")
        rc, j, err = run_json(["solve", cave, "--cell", "4", "--from", "10,23", "--to", "71,71", "--algo", a,
                               "--trace", tpath, "--json"])
        try:
            with open(tpath) as f:
                rebuilt = replay_trace(json.load(f), [10, 23], [71, 71])
        except (OSError, ValueError) as e:
            rebuilt = f"no trace: {e}"
        check(f"--trace on cave_100 ({a}): events replay to the returned path",
              rc == 0 and isinstance(j, dict) and rebuilt == j.get("path"), f"rc={rc} err={err!r}")


def mutation_tests():
    """Deterministically mutated maps: never a crash or a hang, and exit 2 always comes with one
    well-formed error line."""
    rnd = random.Random(7)
    seeds = []
    for name in ("seed_maze.txt", "hybrid_30x20.txt", "cave_100.png"):
        with open(map_path(name), "rb") as f:
            seeds.append(f.read())
    seeds.append(b"type octile\nheight 4\nwidth 5\nmap\n.....\n.@@..\n.....\n.....\n")
    problems = []
    for i in range(150):
        b = bytearray(rnd.choice(seeds))
        for _ in range(rnd.randint(1, 6)):
            op = rnd.random()
            if op < 0.4 and b:
                b[rnd.randrange(len(b))] = rnd.randrange(256)
            elif op < 0.6 and b:
                del b[rnd.randrange(len(b)):][:rnd.randint(1, 50)]
            elif op < 0.8:
                b[rnd.randrange(len(b) + 1):0] = bytes(rnd.choice(b".#@$189 \n\r-+SG") for _ in range(rnd.randint(1, 20)))
            else:
                b = b[:rnd.randrange(len(b) + 1)]
        name = f"mut{i}" + rnd.choice([".txt", ".map", ".png", ".ascii", ""])
        write(name, bytes(b))
        extra = rnd.choice([[], ["--from", "0,0", "--to", "3,3"], ["--cell", "4", "--from", "10,23", "--to", "71,71"],
                            ["--algo", "bibfs,idastar,biastar", "--from", "1,1", "--to", "2,2"], ["--radius", "1.5"]])
        rc, out, err, _ = run(["solve", name, "--json"] + extra)
        lines = err.splitlines()
        if rc is None or rc < 0 or rc not in (0, 1, 2) or (
                rc == 2 and (len(lines) != 1 or not lines[0].startswith("pathlab: error: "))):
            problems.append(f"{name} {extra}: rc={rc} stderr={err.strip()[:120]!r}")
    check("150 mutated maps: no crash or hang, errors are one 'pathlab: error:' line", not problems,
          f"{len(problems)} bad, e.g. {problems[:3]}")


def help_and_convert_tests():
    for sub in ([], ["solve"], ["bench"], ["algorithms"], ["convert"]):
        rc, out, err, _ = run(sub + ["--help"])
        check(f"{' '.join(['pathlab'] + sub)} --help: exit 0, usage on stdout", rc == 0 and len(out) > 20,
              f"rc={rc} err={err!r}")

    maze = map_path("seed_maze.txt")
    rc1, _, e1, _ = run(["convert", maze, "maze.map"])
    rc2, _, e2, _ = run(["convert", "maze.map", "maze2.txt"])
    if check("convert seed_maze.txt -> .map -> .txt: exit 0", rc1 == 0 and rc2 == 0, f"{rc1} {e1!r} {rc2} {e2!r}"):
        g0, g1, g2 = read_grid(maze), read_grid(os.path.join(TMP, "maze.map")), read_grid(os.path.join(TMP, "maze2.txt"))
        check("convert round trip: same size and walls (.txt -> .map -> .txt)", g0 == g1 == g2,
              f"sizes {g0[:2]} {g1[:2]} {g2[:2]}, walls {len(g0[2])} {len(g1[2])} {len(g2[2])}")
        q = ["--from", "7,2", "--to", "9,9", "--json"]
        _, a, _ = run_json(["solve", maze] + q)
        _, b, _ = run_json(["solve", "maze.map"] + q)
        _, c, _ = run_json(["solve", "maze2.txt"] + q)
        costs = [x.get("cost") if isinstance(x, dict) else None for x in (a, b, c)]
        check("convert round trip: same cost on all three", None not in costs and max(costs) - min(costs) < 1e-9, f"{costs}")

    hybrid = map_path("hybrid_30x20.txt")
    rc, _, err, _ = run(["convert", hybrid, "hybrid.ascii"])
    if check("convert hybrid_30x20.txt -> .ascii: exit 0", rc == 0, f"rc={rc} err={err!r}"):
        _, a, _ = run_json(["solve", hybrid, "--json"])
        rc, b, err = run_json(["solve", "hybrid.ascii", "--json"])
        check("hybrid .ascii keeps the markers and solves to the same cost",
              isinstance(a, dict) and isinstance(b, dict) and rc == 0 and a["start"] == b["start"]
              and a["goal"] == b["goal"] and abs(a["cost"] - b["cost"]) < 1e-9,
              f"rc={rc} {a and a.get('cost')} vs {b and b.get('cost')} err={err!r}")


def bench_tests():
    # A small fixture: 8x6 map, optima computed by pathlab itself with Dijkstra.
    rows = ["........", "..@@@...", "....@...", ".@..@.@.", ".@....@.", "........"]
    write("fix.map", f"type octile\nheight {len(rows)}\nwidth {len(rows[0])}\nmap\n" + "\n".join(rows) + "\n")
    queries = [((0, 0), (7, 5)), ((3, 2), (7, 0)), ((0, 5), (5, 0)), ((5, 3), (2, 3)), ((7, 2), (0, 2)), ((2, 0), (2, 0))]
    lines = []
    for (s, g) in queries:
        rc, j, err = run_json(["solve", "fix.map", "--algo", "dijkstra", "--from", f"{s[0]},{s[1]}",
                               "--to", f"{g[0]},{g[1]}", "--json"])
        if not (rc == 0 and isinstance(j, dict)):
            check(f"bench fixture: optimum for {s}->{g}", False, f"rc={rc} err={err!r}")
            return
        ref = reference_cost(read_grid(os.path.join(TMP, "fix.map")), s, g)
        if not check(f"bench fixture: pathlab's optimum {s}->{g} = this script's Dijkstra",
                     abs(j["cost"] - ref) < 1e-9, f"{j['cost']} vs {ref}"):
            return
        lines.append(f"0\tmaps/fixture/fix.map\t8\t6\t{s[0]}\t{s[1]}\t{g[0]}\t{g[1]}\t{j['cost']:.8f}")
    write("fix.map.scen", "version 1\n" + "\n".join(lines) + "\n\n")
    row_fields = ["algorithm", "queries", "solved", "suboptimal", "illegal", "gave_up", "max_error", "mean_us",
                  "median_us", "p99_us", "mean_expanded", "prep_s", "maps"]
    map_fields = ["map", "queries", "solved", "suboptimal", "mean_us", "mean_expanded"]
    n = len(queries)

    rc, j, err = run_json(["bench", "fix.map.scen", "--algo", "astar,dijkstra,biastar,idastar,bfs", "--json"])
    rows_ = (j or {}).get("results") if isinstance(j, dict) else None
    if check("bench fixture (correct optima): exit 0, one row per algorithm",
             rc == 0 and isinstance(rows_, list) and len(rows_) == 5, f"rc={rc} err={err.strip()[-300:]!r}"):
        for r in rows_:
            missing = [f for f in row_fields if f not in r] + [f"maps.{f}" for m in r.get("maps", []) for f in map_fields if f not in m]
            check(f"bench row {r.get('algorithm')}: contract fields, {n} queries solved, none suboptimal/illegal",
                  not missing and r["queries"] == n and r["solved"] == n and r["suboptimal"] == 0 and r["illegal"] == 0
                  and r["gave_up"] == 0 and len(r["maps"]) == 1 and r["maps"][0]["map"] == "fix.map"
                  and r["maps"][0]["queries"] == n,
                  f"missing={missing} row={ {k: v for k, v in r.items() if k != 'maps'} } maps={r.get('maps')}")
        bfs = [r for r in rows_ if r.get("algorithm") == "bfs"]
        check("bench bfs (non-optimal): reports mean_ratio >= 1",
              bfs and bfs[0].get("mean_ratio", 0) >= 1 - 1e-9, f"{bfs}")

    rc, out, err, _ = run(["bench", "fix.map.scen"])
    check("bench fixture (text output): exit 0", rc == 0 and "astar" in out, f"rc={rc} err={err.strip()[-300:]!r}")

    # --report: the competition-style chart and tables, HTML or SVG, well-formed XML.
    import xml.etree.ElementTree as ET
    report_algos = ["astar", "dijkstra", "bfs"]
    for ext in ("html", "svg"):
        out_path = os.path.join(TMP, f"report.{ext}")
        if os.path.exists(out_path):
            os.remove(out_path)
        rc, j, err = run_json(["bench", "fix.map.scen", "--algo", ",".join(report_algos),
                               "--report", out_path, "--json"])
        text = open(out_path, encoding="utf-8").read() if os.path.exists(out_path) else ""
        try:
            root = ET.fromstring(text.encode())
            series = [e for e in root.iter() if (e.get("class") or "").split() == ["series"]]
        except ET.ParseError as e:
            root, series = None, []
            err += f" XML: {e}"
        rows_ = (j or {}).get("results", []) if isinstance(j, dict) else []
        check(f"bench --report report.{ext}: exit 0, JSON rows unchanged, well-formed, a series per algorithm",
              rc == 0 and root is not None and len(rows_) == 3
              and [e.get("data-algorithm") for e in series] == report_algos
              and all(a in text for a in report_algos) and "<script" not in text,
              f"rc={rc} size={len(text)} series={[e.get('data-algorithm') for e in series]} err={err.strip()[-300:]!r}")
    rc, out, err, _ = run(["bench", "fix.map.scen", "--report", "report.png"])
    check("bench --report report.png: exit 2, one error line naming --report, no file",
          rc == 2 and err.startswith("pathlab: error: ") and "--report" in err and len(err.splitlines()) == 1
          and not os.path.exists(os.path.join(TMP, "report.png")), f"rc={rc} err={err!r}")
    bad("bench --report into a missing folder", ["bench", "fix.map.scen", "--report", "nosuchdir/r.html"],
        mention="nosuchdir/r.html")

    # --peers: a stand-in for the GPPC 2023 entry (its -pre/-run protocol, result.csv with the
    # scenario's optima as lengths, 2 µs a query) is run and set beside pathlab's fastest
    # preprocessed row; a missing folder is bad input.
    peers_dir = os.path.join(TMP, "peers")
    os.makedirs(peers_dir, exist_ok=True)
    fake = os.path.join(peers_dir, "sgch-jpd-2023")
    with open(fake, "w") as fh:
        fh.write("#!/bin/sh\nset -e\ntest -d index_data\n"
                 "if [ \"$1\" = -run ]; then echo path_length,time_cost > result.csv; "
                 "awk 'NR > 1 && NF >= 9 { print $9 \",2000\" }' \"$3\" >> result.csv; fi\n")
    os.chmod(fake, 0o755)
    peer_report = os.path.join(TMP, "peers.html")
    rc, j, err = run_json(["bench", "fix.map.scen", "--algo", "astar,jps+", "--peers", peers_dir,
                           "--report", peer_report, "--json"])
    peers = (j or {}).get("peers", []) if isinstance(j, dict) else []
    m = (peers[0].get("maps") or [{}])[0] if peers else {}
    check("bench --peers: the stand-in peer runs, verified, beside jps+ with its ratio, in --report",
          rc == 0 and len(peers) == 1 and m.get("queries") == n and m.get("suboptimal") == 0
          and abs(m.get("mean_us", 0) - 2.0) < 1e-9 and m.get("pathlab") == "jps+"
          and abs(m.get("ratio", 0) * m.get("pathlab_us", 0) - 2.0) < 1e-6
          and os.path.exists(peer_report) and "SGCH-JPD" in open(peer_report, encoding="utf-8").read(),
          f"rc={rc} peers={peers} err={err.strip()[-300:]!r}")
    bad("bench --peers on a missing folder", ["bench", "fix.map.scen", "--peers", "nosuchdir"],
        mention="nosuchdir")

    rc, j, err = run_json(["bench", "fix.map.scen", "--threads", "2", "--max-queries", "4", "--json"])
    rows_ = (j or {}).get("results", []) if isinstance(j, dict) else []
    check("bench --threads 2 --max-queries 4: exit 0, 4 queries, all solved",
          rc == 0 and len(rows_) == 1 and rows_[0].get("queries") == 4 and rows_[0].get("solved") == 4,
          f"rc={rc} {rows_} err={err.strip()[-200:]!r}")

    # Real files are messy: "version 1.0", spaces instead of tabs, CRLF, blank lines.
    messy = ["version 1.0"] + [l.replace("\t", "   ") if i % 2 else l for i, l in enumerate(lines)] + ["", ""]
    write("messy.map.scen", "\r\n".join(messy))
    rc, j, err = run_json(["bench", "messy.map.scen", "--json"])
    rows_ = (j or {}).get("results", []) if isinstance(j, dict) else []
    check("bench on a messy .scen (version 1.0, spaces, CRLF, blank lines): exit 0, all queries",
          rc == 0 and len(rows_) == 1 and rows_[0].get("queries") == n and rows_[0].get("suboptimal") == 0,
          f"rc={rc} err={err.strip()[-200:]!r}")

    wrong = lines[:]
    f = wrong[0].split("\t")
    f[-1] = f"{float(f[-1]) - 1.0:.8f}"  # claims a shorter path than exists
    wrong[0] = "\t".join(f)
    write("wrong.map.scen", "version 1\n" + "\n".join(wrong) + "\n")
    rc, j, err = run_json(["bench", "wrong.map.scen", "--algo", "astar,dijkstra", "--json"])
    rows_ = (j or {}).get("results", []) if isinstance(j, dict) else []
    check("bench fixture with one wrong optimum: exit 1, suboptimal counted once per optimal algorithm",
          rc == 1 and len(rows_) == 2 and all(r.get("suboptimal") == 1 and r.get("solved") == n for r in rows_),
          f"rc={rc} rows={[(r.get('algorithm'), r.get('suboptimal')) for r in rows_]} err={err.strip()[-200:]!r}")

    movingai = os.path.join(SHARED_DIR, "benchmarks", "movingai")
    scen = os.path.join(movingai, "arena.map.scen")
    if not os.path.exists(scen):
        print(f"SKIP: {scen} not found; Moving AI bench check not run")
        return
    with open(scen) as f:
        count = sum(1 for l in f if l.strip() and not l.startswith("version"))
    rc, j, err = run_json(["bench", "arena.map.scen", "--algo", "astar,bfs", "--json"], cwd=movingai)
    rows_ = (j or {}).get("results") if isinstance(j, dict) else None
    if check("bench arena.map.scen --algo astar,bfs --json: exit 0, two rows",
             rc == 0 and isinstance(rows_, list) and [r.get("algorithm") for r in rows_] == ["astar", "bfs"],
             f"rc={rc} err={err.strip()[-300:]!r}"):
        for r in rows_:
            missing = [f for f in row_fields if f not in r]
            check(f"arena {r['algorithm']}: contract fields, {count} queries, all solved, none illegal",
                  not missing and r["queries"] == count and r["solved"] == count and r["illegal"] == 0
                  and r["gave_up"] == 0 and r["maps"] and r["maps"][0].get("map") == "arena.map",
                  f"missing={missing} row={ {k: v for k, v in r.items() if k != 'maps'} }")
        check("arena astar: no suboptimal path, max_error within tolerance",
              rows_[0]["suboptimal"] == 0 and rows_[0]["max_error"] <= 0.005 + 1e-5 * 1000, f"{rows_[0]}")

    # Threads sharing one prepared copy of jps+'s table and of the subgoal graph on a real map
    # (ThreadSanitizer runs this group): the same verdicts as one thread, every query optimal.
    algos = ["astar", "jps+", "subgoal"]
    verdicts = {}
    for threads in ("1", "2"):
        rc, j, err = run_json(["bench", "den520d.map.scen", "--algo", ",".join(algos), "--threads", threads,
                               "--max-queries", "60", "--json"], cwd=movingai)
        rows_ = (j or {}).get("results", []) if isinstance(j, dict) else []
        verdicts[threads] = [(r.get("algorithm"), r.get("queries"), r.get("solved"), r.get("suboptimal"),
                              r.get("illegal")) for r in rows_]
        check(f"bench den520d --algo {','.join(algos)} --threads {threads}: 60 queries each, all optimal and legal",
              rc == 0 and verdicts[threads] == [(a, 60, 60, 0, 0) for a in algos],
              f"rc={rc} {verdicts[threads]} err={err.strip()[-300:]!r}")
    check("bench den520d: 2 threads give the verdicts of 1", verdicts["1"] == verdicts["2"], f"{verdicts}")

    # A changing map: bench --churn toggles cells before each query and verifies against a
    # fresh Dijkstra on the edited map; jps+ repairs its table, edit_us reports the cost.
    den = os.path.join(SHARED_DIR, "benchmarks", "movingai", "den520d.map.scen")
    if os.path.exists(den):
        rc, j, err = run_json(["bench", den, "--algo", "astar,jps+,subgoal", "--churn", "2",
                               "--max-queries", "60", "--json"])
        rows = (j or {}).get("results", [])
        ok = rc == 0 and len(rows) == 3 and all(
            r["queries"] == 60 and r["solved"] == 60 and r["suboptimal"] == 0 and r["illegal"] == 0
            and r.get("edits", 0) >= 120 and r.get("edit_us", 0) > 0 for r in rows)
        check("bench --churn 2 on den520d: every answer equals a fresh Dijkstra on the edited map, "
              "edit_us reported", ok, f"rc={rc} {[(r['algorithm'], r['solved'], r['suboptimal'], r.get('edits')) for r in rows]} {err[-300:]!r}")
        bad("bench --churn -1", ["bench", den, "--churn", "-1"], mention="--churn")

def render_tests():
    """solve --render writes real PNG, GIF and SVG files; an unknown extension is bad input."""
    maze = map_path("seed_maze.txt")
    magic = {"png": b"\x89PNG\r\n\x1a\n", "gif": b"GIF89a", "svg": b"<svg"}
    for ext, head in magic.items():
        out = os.path.join(TMP, f"render.{ext}")
        rc, _, err, _ = run(["solve", maze, "--algo", "astar,dijkstra", "--render", out])
        ok = rc == 0 and os.path.exists(out)
        if ok:
            with open(out, "rb") as f:
                ok = f.read(len(head)) == head
        check(f"solve --render race.{ext}: exit 0, a {ext.upper()} file", ok, f"rc={rc} err={err.strip()[:200]!r}")
    rc, j, err = run_json(["solve", maze, "--algo", "astar:0,astar:1000", "--json"])
    rows = j.get("results", []) if isinstance(j, dict) else []
    check("--algo astar:0,astar:1000: two runs with their own weights, weight 1000 expands less",
          rc == 0 and [r.get("weight") for r in rows] == [0, 1000] and rows[1]["expanded"] < rows[0]["expanded"],
          f"rc={rc} {str(rows)[:200]}")
    rc, _, err, _ = run(["solve", maze, "--algo", "astar:heavy"])
    check("--algo astar:heavy: exit 2, one error line", rc == 2 and err.startswith("pathlab: error: "), f"rc={rc}")
    rc, _, err, _ = run(["solve", maze, "--render", os.path.join(TMP, "render.bmpx")])
    check("solve --render with an unknown extension: exit 2, one error line",
          rc == 2 and err.startswith("pathlab: error: ") and err.count("\n") == 1, f"rc={rc} err={err!r}")


def segment_sees(grid, a, b):
    """Line of sight between the centres of cells a and b under no-corner-cut (shared
    docs/ALGORITHMS.md): no wall's closed square touches the segment. Exact: coordinates are
    doubled so centres are odd integers, and each nearby wall is tested by separating axes."""
    w, h, walls = grid
    ax, ay, bx, by = 2 * a[0] + 1, 2 * a[1] + 1, 2 * b[0] + 1, 2 * b[1] + 1
    def cross(px, py):
        return (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    for X in range(min(a[0], b[0]) - 1, max(a[0], b[0]) + 2):
        for Y in range(min(a[1], b[1]) - 1, max(a[1], b[1]) + 2):
            if 0 <= X < w and 0 <= Y < h and (X, Y) not in walls:
                continue
            x0, x1, y0, y1 = 2 * X, 2 * X + 2, 2 * Y, 2 * Y + 2
            if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
                continue
            c = [cross(x0, y0), cross(x1, y0), cross(x0, y1), cross(x1, y1)]
            if all(v > 0 for v in c) or all(v < 0 for v in c):
                continue
            return False
    return True


def polyline_length(points):
    return sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(points, points[1:]))


def anyangle_tests():
    maze = map_path("hybrid_30x20.txt")
    grid = read_grid(maze)
    rc, j, err = run_json(["solve", maze, "--algo", "astar,theta,lazytheta", "--smooth", "--json"])
    results = (j or {}).get("results") if isinstance(j, dict) else None
    if not check("solve hybrid_30x20 --algo astar,theta,lazytheta --smooth --json: exit 0, 3 results",
                 rc == 0 and isinstance(results, list) and len(results) == 3, f"rc={rc} err={err!r}"):
        return
    astar = results[0]
    start, goal = astar["start"], astar["goal"]
    for r in results:
        name = r["algorithm"]
        path, pts = r.get("path", []), r.get("points", [])
        check(f"{name}: found, path runs start..goal", r.get("status") == "found" and path
              and path[0] == start and path[-1] == goal, f"{r.get('status')} {path[:1]}..{path[-1:]}")
        check(f"{name}: points are the centres of path", len(pts) == len(path) and all(
            abs(p[0] - c[0] - 0.5) < 1e-9 and abs(p[1] - c[1] - 0.5) < 1e-9 for p, c in zip(pts, path)), f"{pts[:3]}")
        sp, spts = r.get("smoothed_path", []), r.get("smoothed_points", [])
        check(f"{name} --smooth: smoothed_path runs start..goal, smoothed_points are its centres",
              sp and sp[0] == start and sp[-1] == goal and len(spts) == len(sp), f"{sp}")
        blocked = [(p, q) for p, q in zip(sp, sp[1:]) if not segment_sees(grid, p, q)]
        check(f"{name} --smooth: every smoothed segment has line of sight", not blocked, f"{blocked[:3]}")
        check(f"{name} --smooth: smoothed_cost = length of the smoothed path <= cost",
              abs(r.get("smoothed_cost", -1) - polyline_length(spts)) < 1e-9 and r["smoothed_cost"] <= r["cost"] + 1e-9,
              f"{r.get('smoothed_cost')} vs {polyline_length(spts)}, cost {r['cost']}")
        if name == "astar":
            check("astar: any_angle false, los_checks 0", r.get("any_angle") is False and r.get("los_checks") == 0, f"{r}")
            continue
        blocked = [(p, q) for p, q in zip(path, path[1:]) if not segment_sees(grid, p, q)]
        check(f"{name}: any_angle, every segment between turning cells has line of sight",
              r.get("any_angle") is True and not blocked, f"{blocked[:3]}")
        check(f"{name}: cost = Euclidean length of points, shorter than A*'s grid path",
              abs(r["cost"] - polyline_length(pts)) < 1e-9 and r["cost"] < astar["cost"] - 1e-9,
              f"{r['cost']} vs {polyline_length(pts)}, astar {astar['cost']}")
        check(f"{name}: moves = len(path) - 1, los_checks > 0",
              r.get("moves") == len(path) - 1 and r.get("los_checks", 0) > 0, f"{r.get('moves')} {r.get('los_checks')}")

    rc, j, err = run_json(["solve", maze, "--algo", "theta", "--trace", "theta.json", "--json"])
    with open(os.path.join(TMP, "theta.json")) as f:
        trace = json.load(f)
    los = [e for e in trace.get("events", []) if e.get("type") == "los"]
    check("solve --algo theta --trace: 'los' events with both cells and the answer, one per check",
          rc == 0 and los and all({"x", "y", "x2", "y2", "visible"} <= e.keys() for e in los)
          and len(los) == j.get("los_checks"), f"{len(los)} events, los_checks {j.get('los_checks')}")
    wrong = [e for e in los if (e["x"], e["y"]) != (e["x2"], e["y2"])
             and segment_sees(grid, (e["x"], e["y"]), (e["x2"], e["y2"])) != e["visible"]]
    check("solve --algo theta --trace: every recorded answer is the true line of sight", not wrong, f"{wrong[:2]}")

    rc, j, err = run_json(["solve", maze, "--smooth", "--smoothing", "greedy", "--json"])
    check("solve --smooth --smoothing greedy: exit 0, smoothing method reported",
          rc == 0 and (j or {}).get("smoothing", {}).get("method") == "greedy", f"rc={rc} {j and j.get('smoothing')}")
    bad("solve --smoothing with an unknown method", ["solve", maze, "--smooth", "--smoothing", "wiggle"],
        mention="--smoothing")

    rc, out, err, _ = run(["solve", maze, "--algo", "astar,theta", "--smooth"])
    check("solve --smooth (text): table has los and smoothed columns", rc == 0 and "smoothed" in out and "los" in out,
          f"rc={rc} {out[-400:]!r}")

    # bench with any-angle columns on a small scenario file of our own.
    rows = ["..........", "...@@@....", ".....@....", ".@...@..@.", ".@......@.", ".........."]
    write("aa.map", f"type octile\nheight {len(rows)}\nwidth {len(rows[0])}\nmap\n" + "\n".join(rows) + "\n")
    g = read_grid(os.path.join(TMP, "aa.map"))
    qs = [((0, 0), (9, 5)), ((2, 2), (9, 0)), ((0, 5), (6, 0)), ((7, 4), (2, 2))]
    lines = [f"0\taa.map\t10\t6\t{s[0]}\t{s[1]}\t{t[0]}\t{t[1]}\t{reference_cost(g, s, t):.8f}" for s, t in qs]
    write("aa.map.scen", "version 1\n" + "\n".join(lines) + "\n")
    rc, j, err = run_json(["bench", "aa.map.scen", "--algo", "astar,theta,lazytheta", "--smooth", "--json"])
    rows_ = (j or {}).get("results") if isinstance(j, dict) else None
    if check("bench --algo astar,theta,lazytheta --smooth --json: exit 0, 3 rows",
             rc == 0 and isinstance(rows_, list) and len(rows_) == 3, f"rc={rc} err={err.strip()[-300:]!r}"):
        for r in rows_:
            sl = r.get("smoothed_length", {})
            check(f"bench {r['algorithm']} --smooth: smoothed length <= 1 x octile optimum",
                  0 < sl.get("vs_octile", 0) <= 1 + 1e-9, f"{sl}")
            if r["algorithm"] == "astar":
                continue
            ln = r.get("length", {})
            check(f"bench {r['algorithm']}: any_angle row with length vs octile <= 1, LOS checks per query, none illegal",
                  r.get("any_angle") is True and 0 < ln.get("vs_octile", 0) <= 1 + 1e-9
                  and r.get("los_checks_per_query", 0) > 0 and r.get("illegal") == 0 and r.get("below_exact") == 0,
                  f"{ {k: v for k, v in r.items() if k != 'maps'} }")
    anyangle_point_tests(maze, grid)


def anyangle_point_tests(maze, grid):
    """solve between points in map units; bench between the competition's cell corners."""
    w, h, walls = grid
    free = [(x, y) for y in range(h) for x in range(w) if (x, y) not in walls]
    (ax, ay), (bx, by) = free[0], free[-1]
    frm, to = f"{ax + 0.3},{ay + 0.7}", f"{bx + 0.25},{by + 0.5}"
    rc, j, err = run_json(["solve", maze, "--from", frm, "--to", to, "--algo", "anyangle-exact", "--json"])
    pts = (j or {}).get("points", [])
    if check(f"solve --from {frm} --to {to} --algo anyangle-exact: found, from and to the points",
             rc == 0 and (j or {}).get("status") == "found" and len(pts) >= 2
             and abs(pts[0][0] - ax - 0.3) <= 1 / 8192 and abs(pts[0][1] - ay - 0.7) <= 1 / 8192
             and pts[-1] == [bx + 0.25, by + 0.5], f"rc={rc} err={err!r} {pts[:1]}..{pts[-1:]}"):
        check("solve between points: cost = length of points, start/goal = the cells under the points",
              abs(j["cost"] - polyline_length(pts)) < 1e-9 and j["start"] == [ax, ay] and j["goal"] == [bx, by],
              f"{j['cost']} {j['start']} {j['goal']}")
        # Bends are wall corners: integers.
        check("solve between points: every bend is a lattice point",
              all(p[0] == int(p[0]) and p[1] == int(p[1]) for p in pts[1:-1]), f"{pts}")
    bad("solve astar from an off-centre point", ["solve", maze, "--from", frm, "--to", f"{bx},{by}"],
        mention="anyangle-exact")
    wall = min(walls) if walls else None
    if wall:
        bad("solve from a point inside a wall", ["solve", maze, "--from", f"{wall[0] + 0.5},{wall[1] + 0.25}", "--to", "1,1",
                                                 "--algo", "anyangle-exact"], mention="free space")
    bad("solve from a malformed point", ["solve", maze, "--from", "1.5,x", "--algo", "anyangle-exact"], mention="--from")
    rc, j, err = run_json(["solve", maze, "--from", f"{ax + 0.5},{ay + 0.5}", "--to", f"{bx + 0.5},{by + 0.5}",
                           "--algo", "astar", "--json"])
    check("solve astar between cell centres written as points: the cell query",
          rc == 0 and (j or {}).get("start") == [ax, ay] and (j or {}).get("goal") == [bx, by], f"rc={rc} err={err!r}")
    rc, j, err = run_json(["bench", "aa.map.scen", "--algo", "anyangle-exact", "--endpoints", "corner", "--json"])
    rows_ = (j or {}).get("results") if isinstance(j, dict) else None
    check("bench --endpoints corner --algo anyangle-exact: exit 0, every query solved, none illegal",
          rc == 0 and rows_ and rows_[0].get("solved") == rows_[0].get("queries") == 4 and rows_[0].get("illegal") == 0
          and rows_[0].get("below_exact") == 0 and rows_[0].get("length", {}).get("vs_exact") == 1.0,
          f"rc={rc} err={err.strip()[-300:]!r} {rows_}")
    bad("bench --endpoints corner with a centre-only algorithm", ["bench", "aa.map.scen", "--endpoints", "corner"],
        mention="anyangle-exact")
    bad("bench --endpoints with an unknown value", ["bench", "aa.map.scen", "--endpoints", "middle"], mention="--endpoints")


def simulate_tests():
    scen = os.path.join(SOURCE_DIR, "scenarios", "corridor_oncoming.json")
    fields = {"id", "arrived", "time", "path_length", "optimal_length", "min_clearance", "collisions",
              "collision_time", "stalls", "local_replans", "global_replans"}
    rc, j, err = run_json(["simulate", scen, "--json"])
    if check("simulate corridor_oncoming.json --json: exit 0, the contract's fields",
             rc == 0 and isinstance(j, dict) and {"scenario", "planner", "ticks", "agents", "tick_us"} <= j.keys()
             and j["agents"] and fields <= j["agents"][0].keys() and isinstance(j["agents"][0]["collisions"], int),
             f"rc={rc} err={err!r} {j}"):
        a = j["agents"][0]
        check("simulate --json: path length >= the static optimum > 0, tick times reported",
              a["optimal_length"] > 0 and a["path_length"] >= a["optimal_length"] - 1e-9
              and j["tick_us"]["mean"] > 0 and j["tick_us"]["p99"] >= j["tick_us"]["mean"] * 0.5, f"{a} {j['tick_us']}")
    rc, j, err = run_json(["simulate", scen, "--compare", "--json"])
    planners = [r.get("planner") for r in (j or {}).get("results", [])] if isinstance(j, dict) else []
    check("simulate --compare --json: one result per planner", rc == 0 and planners == ["hybrid", "apf", "replan", "dstar"],
          f"rc={rc} {planners} err={err!r}")
    rc, out, err, _ = run(["simulate", scen, "--compare"])
    check("simulate --compare (text): one table row per planner",
          rc == 0 and all(p in out for p in ("hybrid", "apf", "replan", "dstar")), f"rc={rc} {out[-300:]!r}")
    rc, j, err = run_json(["simulate", scen, "--planner", "dstar", "--json"])
    check("simulate --planner dstar: every agent runs D* Lite", rc == 0 and (j or {}).get("planner") == "dstar", f"rc={rc} {err!r}")
    bad("simulate with an unknown planner", ["simulate", scen, "--planner", "teleport"], mention="--planner")
    bad("simulate a missing scenario", ["simulate", "nosuch.json"], "nosuch.json:")
    write("broken.json", '{"map": "x.txt",\n  "agents": [}\n')
    bad("simulate a scenario with a JSON syntax error", ["simulate", "broken.json"], "broken.json:2:")
    write("room.txt", "..........\n..........\n..........\n")
    write("typo.json", '{"map": "room.txt",\n "agents": [{"start": [0.5, 0.5],\n   "goal": [9.5, 2.5], "radus": 0.3}]}\n')
    bad("simulate a scenario with an unknown key", ["simulate", "typo.json"], "typo.json:3:", mention="radus")
    simulate_render_tests()
    rc, j, err = run_json(["simulate", "--bench", map_path("hybrid_30x20.txt"), "--agents", "20", "--ticks", "50", "--json"])
    check("simulate --bench MAP --agents 20 --ticks 50 --json: tick times and counts",
          rc == 0 and isinstance(j, dict) and j.get("agents") == 20 and j.get("ticks") == 50
          and j.get("tick_ms", {}).get("mean", 0) > 0 and "initial_plans_s" in j, f"rc={rc} {j} {err!r}")
    for extra in ([], ["--flow"]):
        rc, j, err = run_json(["simulate", "--bench", map_path("hybrid_30x20.txt"), "--layout", "pointy-odd-r",
                               "--agents", "10", "--ticks", "40", "--json"] + extra)
        check(f"simulate --bench MAP --layout pointy-odd-r{''.join(' ' + e for e in extra)}: a crowd on the hex map runs",
              rc == 0 and isinstance(j, dict) and j.get("agents") == 10 and j.get("ticks") == 40
              and j.get("collisions") == 0, f"rc={rc} {j} {err!r}")


def gif_frames(data):
    """(width, height, number of images) of a GIF file's bytes, walking its blocks; None if
    it is not a well-formed GIF89a."""
    if data[:6] != b"GIF89a" or len(data) < 13:
        return None
    width, height, flags = data[6] | data[7] << 8, data[8] | data[9] << 8, data[10]
    i = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)

    def skip_sub_blocks(i):
        while data[i]:
            i += data[i] + 1
        return i + 1

    images = 0
    while i < len(data):
        if data[i] == 0x3B:  # trailer
            return width, height, images
        if data[i] == 0x21:  # extension: label, then sub-blocks
            i = skip_sub_blocks(i + 2)
        elif data[i] == 0x2C:  # image: descriptor, local colours, LZW code size, sub-blocks
            local = data[i + 9]
            i += 10 + (3 << ((local & 7) + 1) if local & 0x80 else 0)
            i = skip_sub_blocks(i + 1)
            images += 1
        else:
            return None
    return None


def simulate_render_tests():
    """simulate --render draws the run: an animated GIF of at most 300 frames, one file per
    planner with --compare; a file that cannot be written is bad input."""
    l_trap = os.path.join(SOURCE_DIR, "scenarios", "hybrid_l_trap.json")
    out = os.path.join(TMP, "l_trap.gif")
    rc, j, err = run_json(["simulate", l_trap, "--render", out, "--json"])
    info = None
    if rc == 0 and os.path.exists(out):
        with open(out, "rb") as f:
            info = gif_frames(f.read())
    check("simulate hybrid_l_trap.json --render x.gif: exit 0, the JSON unchanged, an animated GIF89a",
          rc == 0 and isinstance(j, dict) and j.get("ticks", 0) > 0 and info is not None
          and info[0] > 100 and info[1] > 50 and 10 <= info[2] <= 300, f"rc={rc} gif={info} err={err.strip()[:200]!r}")
    scen = os.path.join(SOURCE_DIR, "scenarios", "corridor_oncoming.json")
    rc, _, err, _ = run(["simulate", scen, "--compare", "--render", os.path.join(TMP, "cmp.svg")])
    files = [os.path.join(TMP, f"cmp-{p}.svg") for p in ("hybrid", "apf", "replan", "dstar")]
    check("simulate --compare --render cmp.svg: one SVG per planner, named after it",
          rc == 0 and all(os.path.exists(f) and open(f, "rb").read(4) == b"<svg" for f in files)
          and not os.path.exists(os.path.join(TMP, "cmp.svg")), f"rc={rc} err={err.strip()[:200]!r}")
    bad("simulate --render into a folder that does not exist",
        ["simulate", l_trap, "--render", "/nonexistent-dir/x.gif"], "/nonexistent-dir/x.gif:")
    bad("simulate --render with an unknown extension", ["simulate", l_trap, "--render", "x.bmp"], "x.bmp:")


# ---------------------------------------------------------------------------------------------
# The Link game (`pathlab link`): answers checked against a small Python implementation of the
# rule of ALGORITHMS.md, independent of the C++ engine.

def link_rows(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def link_connectable(rows, a, b):
    """Whether a and b (distinct, equal tiles) are joined by at most three axis-aligned segments
    through empty cells and the ring outside the board: a breadth-first search over (cell,
    direction) states, counting the segments."""
    h, w = len(rows), len(rows[0])
    at = lambda x, y: rows[y][x] if 0 <= x < w and 0 <= y < h else "."
    if a == b or at(*a) == "." or at(*a) != at(*b):
        return False
    frontier = [(a[0], a[1], d) for d in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    seen = set()
    for _segments in range(3):
        nxt = []
        for x, y, (dx, dy) in frontier:
            while True:
                x, y = x + dx, y + dy
                if not (-1 <= x <= w and -1 <= y <= h):
                    break
                if (x, y) == tuple(b):
                    return True
                if at(x, y) != ".":
                    break
                for d in ((dy, dx), (-dy, -dx)):  # a turn starts the next segment here
                    if (x, y, d) not in seen:
                        seen.add((x, y, d))
                        nxt.append((x, y, d))
        frontier = nxt
    return False


def link_line_ok(rows, points, a, b):
    """A connection's points: from a to b, at most three axis-aligned segments, every cell
    between the ends empty (or on the ring)."""
    h, w = len(rows), len(rows[0])
    if not (2 <= len(points) <= 4) or points[0] != list(a) or points[-1] != list(b):
        return False
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if (x0 != x1) == (y0 != y1):
            return False
        dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
        x, y = x0, y0
        while (x, y) != (x1, y1):
            x, y = x + dx, y + dy
            if not (-1 <= x <= w and -1 <= y <= h):
                return False
            if [x, y] != points[-1] and 0 <= x < w and 0 <= y < h and rows[y][x] != ".":
                return False
    return True


def link_all_pairs(rows):
    cells = [(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c != "."]
    return [(p, q) for i, p in enumerate(cells) for q in cells[i + 1:] if link_connectable(rows, p, q)]


def link_remove(rows, a, b, gravity="none"):
    g = [list(r) for r in rows]
    for x, y in (a, b):
        g[y][x] = "."
    if gravity == "down":
        for x in range(len(g[0])):
            col = [g[y][x] for y in range(len(g)) if g[y][x] != "."]
            col = ["."] * (len(g) - len(col)) + col
            for y in range(len(g)):
                g[y][x] = col[y]
    return ["".join(r) for r in g]


def link_tests():
    board8 = map_path("link_8x10.txt")
    rc, j, err = run_json(["link", board8, "--connect", "0,0:1,0", "--json"])
    check("link --connect adjacent tiles: exit 0, the contract's fields first",
          rc == 0 and isinstance(j, dict) and list(j)[:3] == ["connected", "turns", "points"]
          and j["connected"] is True and j["turns"] == 0 and j["points"] == [[0, 0], [1, 0]] and j.get("length") == 1,
          f"rc={rc} {j} {err!r}")
    rows8 = link_rows(board8)
    rc, j, err = run_json(["link", board8, "--connect", "0,0:0,7", "--json"])
    check("link --connect through the ring outside the board (x = -1)",
          rc == 0 and j and j["connected"] and j["turns"] == 2 and [-1, 0] in j["points"]
          and link_line_ok(rows8, j["points"], (0, 0), (0, 7)), f"rc={rc} {j}")
    rc, j, err = run_json(["link", board8, "--connect", "0,0:2,0", "--json"])
    check("link --connect different kinds: exit 1, connected false",
          rc == 1 and j and j["connected"] is False and j["points"] == [] and j.get("reason") == "different kinds",
          f"rc={rc} {j}")
    rc, j, err = run_json(["link", board8, "--connect", "1,0:0,7", "--json"])
    check("link --connect equal kinds without a line: exit 1",
          rc == 1 and j and j["connected"] is False and not link_connectable(rows8, (1, 0), (0, 7)), f"rc={rc} {j}")
    holes = write("holes.txt", "A..B\nC..C\nB.DA\nD...\n")
    rc, j, err = run_json(["link", holes, "--connect", "0,0:1,0", "--json"])
    check("link --connect with an empty cell: exit 1", rc == 1 and j and j.get("reason") == "empty cell", f"rc={rc} {j}")
    rc, out, err, _ = run(["link", holes, "--connect", "3,0:0,2"])
    check("link --connect (text): the line drawn with box characters",
          rc == 0 and "connect" in out and any(ch in out for ch in "┌┐└┘"), f"rc={rc} {out!r}")
    bad("link --connect the same cell twice", ["link", board8, "--connect", "3,3:3,3"], mention="same cell")
    bad("link --connect outside the board", ["link", board8, "--connect", "0,0:10,0"], mention="outside")
    bad("link --connect malformed", ["link", board8, "--connect", "0,0-1,0"], mention="--connect")

    # Every pair the CLI answers agrees with the Python rule, on random small boards.
    rnd = random.Random(6)
    disagree = []
    for k in range(12):
        w, h = rnd.randint(2, 6), rnd.randint(1, 5)
        rows = ["".join(rnd.choice("AB..") for _ in range(w)) for _ in range(h)]
        path = write(f"rand{k}.txt", "\n".join(rows) + "\n")
        rc, j, _ = run_json(["link", path, "--moves", "--json"])
        mine = sorted((tuple(m["a"]), tuple(m["b"])) for m in (j or {}).get("moves", []))
        if rc != 0 or mine != sorted(link_all_pairs(rows)) or j["count"] != len(mine):
            disagree.append((rows, rc, mine))
    check("link --moves: the pairs and count equal a Python brute force on 12 random boards", not disagree,
          f"{disagree[:2]}")
    rc, j, _ = run_json(["link", board8, "--moves", "--json"])
    check("link --moves on link_8x10.txt: count equals the Python count",
          rc == 0 and j and j["count"] == len(link_all_pairs(rows8)) == len(j["moves"]), f"{j and j['count']}")

    rc, j, err = run_json(["link", board8, "--hint", "--json"])
    mv = (j or {}).get("move") or {}
    check("link --hint: exit 0, a pair that connects, and its line",
          rc == 0 and mv and link_connectable(rows8, mv["a"], mv["b"]) and mv["kind"] == rows8[mv["a"][1]][mv["a"][0]]
          and link_line_ok(rows8, j["points"], mv["a"], mv["b"]) and j["deadlocked"] is False, f"rc={rc} {j}")
    stuck = write("stuck.txt", "AB\nBA\n")
    rc, j, err = run_json(["link", stuck, "--hint", "--json"])
    check("link --hint on a deadlock: exit 1, move null, deadlocked",
          rc == 1 and j and j["move"] is None and j["deadlocked"] is True, f"rc={rc} {j}")

    # Solve: replayed with the Python rule (and Python gravity).
    for board, gravity in ((board8, "none"), (map_path("link_holes_8x12.txt"), "none"), (board8, "down")):
        rows = link_rows(board)
        rc, j, err = run_json(["link", board, "--solve", "--gravity", gravity, "--json"])
        ok = rc == 0 and j and j["status"] == "solved"
        problem = ""
        for m in (j or {}).get("moves", []) if ok else []:
            a, b = tuple(m["a"]), tuple(m["b"])
            if not link_connectable(rows, a, b) or rows[a[1]][a[0]] != m["kind"]:
                problem = f"move {m} does not connect on {rows}"
                break
            rows = link_remove(rows, a, b, gravity)
        ok = ok and not problem and all(set(r) == {"."} for r in rows)
        check(f"link --solve {os.path.basename(board)} --gravity {gravity}: the replay clears the board",
              ok, f"rc={rc} {problem} {err!r}")
    rc, j, err = run_json(["link", stuck, "--solve", "--json"])
    check("link --solve an unsolvable board: exit 1, status unsolvable",
          rc == 1 and j and j["status"] == "unsolvable" and j["moves"] == [], f"rc={rc} {j}")

    # Generate: deterministic, even counts, solvable; the JSON is a board file too.
    rc1, out1, _, _ = run(["link", "--generate", "10x6", "--kinds", "8", "--seed", "5"])
    rc2, out2, _, _ = run(["link", "--generate", "10x6", "--kinds", "8", "--seed", "5"])
    rc3, out3, _, _ = run(["link", "--generate", "10x6", "--kinds", "8", "--seed", "6"])
    rows = out1.split()
    counts = {}
    for c in "".join(rows):
        counts[c] = counts.get(c, 0) + 1
    check("link --generate: the same seed deals the same board, another seed another",
          rc1 == rc2 == rc3 == 0 and out1 == out2 and out1 != out3 and len(rows) == 6 and all(len(r) == 10 for r in rows),
          f"{out1!r} {out3!r}")
    check("link --generate: 8 kinds, each an even number of times", len(counts) == 8 and all(n % 2 == 0 for n in counts.values()),
          f"{counts}")
    rc, j, _ = run_json(["link", "--generate", "10x6", "--kinds", "8", "--seed", "5", "--json"])
    check("link --generate --json: width, height, kinds, seed, rows",
          rc == 0 and j and j["width"] == 10 and j["height"] == 6 and j["kinds"] == 8 and j["seed"] == 5 and j["rows"] == rows,
          f"{j}")
    gen_json = write("gen.json", json.dumps(j, indent=1))
    rc, j2, _ = run_json(["link", gen_json, "--solve", "--json"])
    check("link: a generated board (read back as JSON) is solvable", rc == 0 and j2 and j2["status"] == "solved", f"rc={rc}")
    bad("link --generate with an odd number of cells", ["link", "--generate", "5x3", "--kinds", "2"], mention="even")
    bad("link --generate WxH malformed", ["link", "--generate", "tenxsix", "--kinds", "2"], mention="WxH")
    bad("link --generate too many kinds", ["link", "--generate", "4x4", "--kinds", "9"])
    bad("link --generate without --kinds", ["link", "--generate", "4x4"], mention="--kinds")

    # Shuffle: the same tiles on the same cells, and a move.
    rc, j, err = run_json(["link", stuck, "--shuffle", "--seed", "3", "--json"])
    new = (j or {}).get("board", {}).get("rows", [])
    check("link --shuffle a deadlock: same tiles, now a move",
          rc == 0 and j["shuffled"] and sorted("".join(new)) == sorted("ABBA") and link_all_pairs(new), f"rc={rc} {j}")

    # Malformed boards: exit 2, FILE:LINE.
    write("ragged.txt", "AB\nABA\n")
    bad("link: a ragged board", ["link", "ragged.txt", "--hint"], "ragged.txt:2:")
    write("tab.txt", "AB\nA\tB\nBA\n")
    bad("link: a bad character", ["link", "tab.txt", "--hint"], "tab.txt:2:")
    write("empty_board.txt", "")
    bad("link: an empty board file", ["link", "empty_board.txt"], "empty_board.txt:")
    write("ragged.json", '{"width": 2,\n "rows": ["AB",\n          "A"]}\n')
    bad("link: a ragged JSON board", ["link", "ragged.json"], "ragged.json:3:")
    write("broken.json", '{"rows": ["AB",\n  "BA"\n')
    bad("link: a JSON board with a syntax error", ["link", "broken.json"], "broken.json:3:")
    bad("link: a missing board", ["link", "nosuch.txt", "--hint"], "nosuch.txt:")
    bad("link: two actions at once", ["link", board8, "--hint", "--moves"])

    # Render: PNG and SVG of the board and the line.
    png, svg = os.path.join(TMP, "link.png"), os.path.join(TMP, "link.svg")
    rc1, _, err1, _ = run(["link", board8, "--connect", "0,0:0,7", "--render", png])
    rc2, _, err2, _ = run(["link", board8, "--hint", "--render", svg])
    png_ok = os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    svg_text = open(svg).read() if os.path.exists(svg) else ""
    check("link --render x.png: a PNG", rc1 == 0 and png_ok, f"rc={rc1} {err1!r}")
    check("link --render x.svg: an SVG with the tiles and the line",
          rc2 == 0 and svg_text.startswith("<svg") and svg_text.count('class="tile"') == 80 and 'class="link"' in svg_text,
          f"rc={rc2} {err2!r}")
    bad("link --render with an unknown extension", ["link", board8, "--render", "x.gif"], "x.gif:")


# ---------------------------------------------------------------------------------------------
# The competition's dynamic track (DESIGN.md, "Changing maps in the competition's format"): a
# version-2 scenario and its patch file, made here with their lengths from this script's own
# Dijkstra on the map as patched so far; bench pastes the patches and verifies every query.
def dynamic_tests():
    import random
    rng = random.Random(31)
    w, h = 24, 16
    walls = set()
    patches, commands = [], []
    for k in range(12):
        pw, ph = rng.randint(1, 6), rng.randint(1, 4)
        rows = ["".join("@" if rng.random() < 0.45 else "." for _ in range(pw)) for _ in range(ph)]
        patches.append((pw, ph, rows))
    free_cells = lambda: [(x, y) for y in range(h) for x in range(w) if (x, y) not in walls]
    no_path = 0
    for step in range(40):
        if step % 3 == 1:
            k = rng.randrange(len(patches))
            pw, ph, rows = patches[k]
            x, y = rng.randint(0, w - pw), rng.randint(0, h - ph)
            for dy in range(ph):
                for dx in range(pw):
                    (walls.add if rows[dy][dx] == "@" else walls.discard)((x + dx, y + dy))
            commands.append(f"P {step % 2} {k} {x} {y}")
        else:
            cells = free_cells()
            a, b = rng.choice(cells), rng.choice(cells)
            cost = reference_cost((w, h, walls), a, b)
            no_path += cost is None
            commands.append(f"Q 0 {a[0]} {a[1]} {b[0]} {b[1]} {-1 if cost is None else f'{cost:.10f}'}")
    # A wall across the map, queries across it (no path), then the wall taken down again.
    patches += [(1, h, ["@"] * h), (1, h, ["."] * h)]
    for k, rounds in ((len(patches) - 2, 3), (len(patches) - 1, 2)):
        commands.append(f"P 2 {k} 12 0")
        for y in range(h):
            (walls.add if k == len(patches) - 2 else walls.discard)((12, y))
        for _ in range(rounds):
            left = [c for c in free_cells() if c[0] < 12]
            right = [c for c in free_cells() if c[0] > 12]
            a, b = rng.choice(left), rng.choice(right)
            cost = reference_cost((w, h, walls), a, b)
            no_path += cost is None
            commands.append(f"Q 2 {a[0]} {a[1]} {b[0]} {b[1]} {-1 if cost is None else f'{cost:.10f}'}")
    patch_text = f"type patch\npatches {len(patches)}\n" + "".join(
        f"patch {k}\nheight {ph}\nwidth {pw}\nmap\n" + "\n".join(rows) + "\n"
        for k, (pw, ph, rows) in enumerate(patches))
    write("dyn.patch", patch_text)
    header = f"version 2\nheight {h}\nwidth {w}\ncost 1 octile\npatch dyn.patch\ncommands\n"
    scen = write("dyn.scen", header + "\n".join(commands) + "\n")
    queries = sum(c.startswith("Q") for c in commands)
    pasted = sum(c.startswith("P") for c in commands)
    rc, j, err = run_json(["bench", scen, "--algo", "jps,jps+,subgoal-ch", "--json"])
    rows = (j or {}).get("results", [])
    check("bench DYN.scen: patches pasted in order, every query at this script's Dijkstra "
          "(no-path queries answered as none)",
          rc == 0 and len(rows) == 3 and all(r["queries"] == queries and r["solved"] == queries
                                             and r["suboptimal"] == 0 and r["missed"] == 0
                                             and r["illegal"] == 0 for r in rows),
          f"rc={rc} {[(r['algorithm'], r['solved'], r['suboptimal'], r['missed']) for r in rows]} "
          f"{err!r}")
    check("bench DYN.scen: rows and maps report patches, patch_us and total_s",
          rows and all(r.get("patches") == pasted and r.get("patch_us", -1) >= 0
                       and r.get("total_s", 0) > 0 and r["maps"][0].get("patches") == pasted
                       and r["maps"][0].get("total_s", 0) > 0 and "late_us" in r["maps"][0]
                       for r in rows), f"{rows[:1]}")
    check("the scenario holds no-path queries (so that case is checked)", no_path > 0, f"{no_path}")
    # A wrong length is caught: the verification fails (exit 1).
    wrong = [c for c in commands]
    for i, c in enumerate(wrong):
        if c.startswith("Q") and not c.endswith(" -1"):
            f = c.split()
            wrong[i] = " ".join(f[:-1] + [f"{float(f[-1]) + 1:.10f}"])
            break
    scen_wrong = write("dyn_wrong.scen", header + "\n".join(wrong) + "\n")
    rc, j, err = run_json(["bench", scen_wrong, "--algo", "jps", "--json"])
    row = ((j or {}).get("results") or [{}])[0]
    check("bench DYN.scen with one length off by 1: exit 1, one suboptimal",
          rc == 1 and row.get("suboptimal") == 1, f"rc={rc} {row.get('suboptimal')} {err!r}")
    # Malformed files: FILE:LINE, exit 2.
    bad_patch = write("dyn_bad.scen", header + "P 0 0 30 0\n")
    bad("dynamic scenario: a patch that leaves the map", ["bench", bad_patch],
        where=f"{bad_patch}:7:", mention="leaves the 24x16 map")
    bad_q = write("dyn_badq.scen", header + "Q 0 0 0 1\n")
    bad("dynamic scenario: a short query line", ["bench", bad_q], where=f"{bad_q}:7:", mention="fields")
    missing = write("dyn_missing.scen", header.replace("dyn.patch", "nowhere.patch") + "Q 0 0 0 1 1 1\n")
    bad("dynamic scenario: its patch file is missing", ["bench", missing], mention="nowhere.patch")
    write("dyn_badrow.patch", "type patch\npatches 1\npatch 0\nheight 2\nwidth 2\nmap\n..\n.\n")
    badrow = write("dyn_badrow.scen", header.replace("dyn.patch", "dyn_badrow.patch") + "Q 0 0 0 1 1 1\n")
    bad("dynamic scenario: a patch row of the wrong width", ["bench", badrow],
        where=os.path.join(TMP, "dyn_badrow.patch") + ":8:", mention="row of 1 cells")
    bad("dynamic scenario with --churn", ["bench", scen, "--churn", "1"], mention="--churn")


# ---------------------------------------------------------------------------------------------
# pathlab prepare: jps+ tables in the cache folder, loaded when they match the map and rebuilt
# when they do not (a stale file: the map changed; a damaged one), never beside the map.
def prepare_tests():
    cache = os.path.join(TMP, "cache")
    rows = ["." * 40 for _ in range(30)]
    rows[10] = "." * 5 + "@" * 30 + "." * 5
    m = write("prep.map", "type octile\nheight 30\nwidth 40\nmap\n" + "\n".join(rows) + "\n")
    rc, j, err = run_json(["prepare", m, "--cache", cache, "--json"])
    first = j["results"][0] if j and j.get("results") else {}
    check("prepare: builds jps+ into the cache folder",
          rc == 0 and first.get("algorithm") == "jps+" and first.get("status") == "built"
          and os.path.dirname(first.get("file", "")) == cache and os.path.getsize(first["file"]) > 0
          and first.get("bytes", 0) > 0, f"rc={rc} {j} {err!r}")
    check("prepare: nothing written beside the map", sorted(os.listdir(TMP)).count("prep.map") == 1
          and not [f for f in os.listdir(TMP) if f.endswith(".prep")], f"{os.listdir(TMP)}")
    rc, j, err = run_json(["prepare", m, "--cache", cache, "--json"])
    check("prepare again: the cached file is loaded", rc == 0 and j and j["results"][0]["status"] == "loaded",
          f"rc={rc} {j} {err!r}")
    if first.get("file"):
        with open(first["file"], "r+b") as f:  # damage the payload
            f.seek(-5, os.SEEK_END)
            f.write(b"\xff\x00\xff\x00\xff")
        rc, j, err = run_json(["prepare", m, "--cache", cache, "--json"])
        check("prepare: a damaged file is rebuilt, not trusted",
              rc == 0 and j and j["results"][0]["status"] == "rebuilt", f"rc={rc} {j} {err!r}")
    rows[10] = "." * 5 + "@" * 29 + "." * 6  # the map changes: its cache file is another
    write("prep.map", "type octile\nheight 30\nwidth 40\nmap\n" + "\n".join(rows) + "\n")
    rc, j, err = run_json(["prepare", m, "--cache", cache, "--json"])
    check("prepare: a changed map gets a new file (the old one is never used for it)",
          rc == 0 and j and j["results"][0]["status"] == "built" and j["results"][0]["file"] != first.get("file"),
          f"rc={rc} {j}")
    rc, j, err = run_json(["solve", m, "--from", "0,0", "--to", "20,29", "--algo", "astar,jps,jps+",
                           "--cache", cache, "--json"])
    costs = [r.get("cost") for r in (j or {}).get("results", [])]
    check("solve jps, jps+ (table from the cache): A*'s cost",
          rc == 0 and len(costs) == 3 and abs(costs[0] - costs[1]) < 1e-6 and abs(costs[0] - costs[2]) < 1e-6,
          f"rc={rc} {costs} {err!r}")
    # bench loads the table from the cache once and shares it between its threads (the
    # ThreadSanitizer stage runs this group): every query at this script's Dijkstra optimum.
    grid = read_grid(m)
    pairs = [((0, 0), (20, 29)), ((39, 0), (0, 29)), ((3, 5), (36, 25)), ((20, 9), (20, 11)),
             ((0, 29), (39, 29)), ((10, 0), (30, 20)), ((5, 11), (34, 11)), ((39, 15), (1, 8))]
    write("prep.map.scen", "version 1\n" + "".join(
        f"0\tprep.map\t40\t30\t{a[0]}\t{a[1]}\t{b[0]}\t{b[1]}\t{reference_cost(grid, a, b):.8f}\n"
        for a, b in pairs))
    rc, j, err = run_json(["bench", "prep.map.scen", "--algo", "jps+", "--cache", cache, "--threads", "2",
                           "--json"])
    row = ((j or {}).get("results") or [{}])[0]
    check("bench --cache --threads 2: the cached jps+ table shared by both threads, every query optimal",
          rc == 0 and row.get("queries") == len(pairs) and row.get("solved") == len(pairs)
          and row.get("suboptimal") == 0 and row.get("illegal") == 0, f"rc={rc} {row} {err!r}")
    bad("prepare an algorithm that has nothing to prepare", ["prepare", m, "--algo", "astar", "--cache", cache],
        mention="nothing to prepare")
    # Under --diagonal always jps+ and the subgoal graphs answer with A*: `prepare MAP` skips
    # them and says why, and still prepares the others; asked for by name, it is an error.
    rc, j, err = run_json(["prepare", m, "--diagonal", "always", "--cache", cache, "--json"])
    res = {r.get("algorithm"): r for r in (j or {}).get("results", [])}
    check("prepare --diagonal always: jps+ and subgoal skipped with the reason, anyangle-labels built",
          rc == 0 and res.get("jps+", {}).get("status") == "skipped"
          and "no-corner-cut" in res.get("jps+", {}).get("reason", "")
          and res.get("subgoal", {}).get("status") == "skipped"
          and res.get("anyangle-labels", {}).get("status") in ("built", "loaded")
          and os.path.getsize(res["anyangle-labels"]["file"]) > 0, f"rc={rc} {j} {err!r}")
    bad("prepare --algo jps+ --diagonal always: named, it is an error",
        ["prepare", m, "--algo", "jps+", "--diagonal", "always", "--cache", cache],
        mention="does not preprocess")
    # anyangle-labels: hub labels in the cache, loaded by solve; the same any-angle optimum as
    # anyangle-exact between cells and between points.
    rc, j, err = run_json(["prepare", m, "--algo", "anyangle-labels", "--cache", cache, "--json"])
    lab = ((j or {}).get("results") or [{}])[0]
    check("prepare --algo anyangle-labels: hub labels in the cache folder (built by the first prepare)",
          rc == 0 and lab.get("algorithm") == "anyangle-labels" and lab.get("status") == "loaded"
          and os.path.basename(lab.get("file", "")).startswith("anyangle-labels-"), f"rc={rc} {j} {err!r}")
    for ends in (["--from", "0,0", "--to", "20,29"], ["--from", "0.3,0.7", "--to", "20.25,29.5"]):
        rc, j, err = run_json(["solve", m] + ends + ["--algo", "anyangle-exact,anyangle-labels",
                                                     "--cache", cache, "--json"])
        res = (j or {}).get("results", [])
        check(f"solve {' '.join(ends)}: anyangle-labels (labels from the cache) = anyangle-exact",
              rc == 0 and len(res) == 2 and res[1].get("answered_by", res[1].get("algorithm")) == "anyangle-labels"
              and abs(res[0]["cost"] - res[1]["cost"]) < 1e-9 and res[0]["points"][0] == res[1]["points"][0]
              and res[0]["points"][-1] == res[1]["points"][-1], f"rc={rc} {res} {err!r}")
    rc, out, err, _ = run(["solve", m, "--from", "0,0", "--to", "20,29", "--algo", "jps",
                           "--diagonal", "always", "--picture", "never"])
    check("solve jps under another diagonal rule: answered with A*, and said so on stderr",
          rc == 0 and "note:" in err and "A*" in err, f"rc={rc} {err!r}")


# ---------------------------------------------------------------------------------------------
# Units (shared docs/ALGORITHMS.md, "Units"): --class-cost and --radius against a reference
# written here from the definition (plain grid copy for the unit, then Dijkstra).

def unit_plain_copy(rows, class_cost, radius):
    """(w, h, walls, cost per cell) of the plain grid copy for a unit. class_cost maps a class
    character to a multiplier or None (forbidden); unnamed classes follow the default unit."""
    h, w = len(rows), len(rows[0])
    rule = {"T": None, "W": None}
    rule.update(class_cost)

    def cls(x, y):
        c = rows[y][x]
        return "@" if c in "@O" else ("." if c == "G" else c)

    def blocked(x, y):
        if not (0 <= x < w and 0 <= y < h):
            return True
        c = cls(x, y)
        return c == "@" or (c in rule and rule[c] is None)

    blocked_squares = [(x, y) for y in range(h) for x in range(w) if blocked(x, y)]
    walls, cost = set(), {}
    for y in range(h):
        for x in range(w):
            if blocked(x, y):
                walls.add((x, y))
                continue
            if radius > 0.5:
                d = min(x + 0.5, w - x - 0.5, y + 0.5, h - y - 0.5)
                for bx, by in blocked_squares:
                    gx, gy = max(0.0, abs(bx - x) - 0.5), max(0.0, abs(by - y) - 0.5)
                    d = min(d, math.hypot(gx, gy))
                if d < radius:
                    walls.add((x, y))
                    continue
            cost[(x, y)] = rule.get(cls(x, y), 1.0)
    return w, h, walls, cost


def unit_distances(plain, start):
    """Least cost from start to every reachable cell of a plain copy (dict)."""
    import heapq
    w, h, walls, cost = plain
    dist = {tuple(start): 0.0}
    heap = [(0.0, tuple(start))]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = (x + dx, y + dy)
                if (dx, dy) == (0, 0) or not (0 <= n[0] < w and 0 <= n[1] < h) or n in walls:
                    continue
                if dx and dy and ((x + dx, y) in walls or (x, y + dy) in walls):
                    continue
                nd = d + (SQRT2 if dx and dy else 1.0) * cost[n]
                if nd < dist.get(n, math.inf) - 1e-12:
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
    return dist


def unit_reference(plain, start, goal):
    """Least cost start..goal on a plain copy (None when unreachable)."""
    return unit_distances(plain, start).get(tuple(goal))


def units_tests():
    rng = random.Random(14)
    w, h = 28, 20
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            r = rng.random()
            row += "@" if r < 0.12 else "T" if r < 0.25 else "W" if r < 0.32 else "S" if r < 0.4 else "."
        rows.append(row)
    m = write("classes.map", f"type octile\nheight {h}\nwidth {w}\nmap\n" + "\n".join(rows) + "\n")
    units = [({}, 0), ({"T": 2.0}, 0), ({"T": 1.5, "W": 3.0, "S": None}, 0), ({}, 1.5),
             ({"T": 2.0}, 1.2), ({".": 1.5, "W": 1.0}, 0.8)]
    algos = "dijkstra,astar,jps,jps+,subgoal,biastar"
    for class_cost, radius in units:
        plain = unit_plain_copy(rows, class_cost, radius)
        free = sorted(set((x, y) for y in range(h) for x in range(w)) - plain[2])
        spec = ",".join(f"{c}={'x' if v is None else v:g}" if v is not None else f"{c}=x"
                        for c, v in class_cost.items())
        for _ in range(3):
            s, g = rng.choice(free), rng.choice(free)
            want = unit_reference(plain, s, g)
            args = ["solve", m, "--from", f"{s[0]},{s[1]}", "--to", f"{g[0]},{g[1]}", "--algo", algos,
                    "--radius", str(radius), "--json"]
            if spec:
                args += ["--class-cost", spec]
            rc, j, err = run_json(args)
            results = (j or {}).get("results", [])
            problems = []
            for r in results:
                if want is None:
                    if r["status"] != "no_path":
                        problems.append(f"{r['algorithm']}: {r['status']}, expected no_path")
                    continue
                if r["status"] != "found" or abs(r["cost"] - want) > 1e-6:
                    problems.append(f"{r['algorithm']}: {r['status']} cost {r['cost']}, expected {want}")
                    continue
                bad_step, _ = path_problem(r["path"], s, g, plain[:3])
                if bad_step:
                    problems.append(f"{r['algorithm']}: {bad_step}")
                if r.get("unit", {}).get("radius") != radius:
                    problems.append(f"{r['algorithm']}: unit {r.get('unit')}")
            check(f"units: --class-cost '{spec}' --radius {radius} {s}->{g}: every optimal algorithm "
                  f"equals the reference on the plain copy",
                  rc in (0, 1) and len(results) == 6 and not problems, f"rc={rc} {problems[:3]} {err[:200]!r}")
    # Jump point search with class costs answers with A* and says so.
    free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] == "."]
    s, g = free[0], free[-1]
    rc, out, err, _ = run(["solve", m, "--from", f"{s[0]},{s[1]}", "--to", f"{g[0]},{g[1]}",
                           "--algo", "jps", "--class-cost", "T=2", "--picture", "never"])
    check("units: jps with class costs answers with A* and says so", rc in (0, 1) and "A*" in err,
          f"rc={rc} {err!r}")
    # Endpoints the unit cannot stand on, malformed --class-cost and --radius: exit 2.
    t = next((x, y) for y in range(h) for x in range(w) if rows[y][x] == "T")
    sx = next((x, y) for y in range(h) for x in range(w) if rows[y][x] == "S")
    bad("solve --from on trees (forbidden for the default unit)",
        ["solve", m, "--from", f"{t[0]},{t[1]}", "--to", f"{s[0]},{s[1]}"], mention="'T', a class the unit may not enter")
    rc, j, err = run_json(["solve", m, "--from", f"{t[0]},{t[1]}", "--to", f"{s[0]},{s[1]}",
                           "--class-cost", "T=2", "--json"])
    check("units: a start on trees is fine for a unit that may cross them", rc in (0, 1) and j is not None,
          f"rc={rc} {err!r}")
    bad("solve --to on a class the unit forbids",
        ["solve", m, "--from", f"{s[0]},{s[1]}", "--to", f"{sx[0]},{sx[1]}", "--class-cost", "S=x"],
        mention="'S', a class the unit may not enter")
    edge = next(x for x in range(w) if rows[0][x] == ".")  # 0.5 from the outside
    bad("solve --from too close to the map's edge for the radius",
        ["solve", m, "--from", f"{edge},0", "--to", f"{s[0]},{s[1]}", "--radius", "1.5"],
        mention="closer than --radius 1.5")
    for spec, mention in [("T", "has no '='"), ("T=", "no value"), ("T=0.5", "from 1 to 1e9"),
                          ("TT=2", "one character"), ("@=2", "not a terrain class"),
                          ("T=2,,W=1", "empty item"), ("T=abc", "not a number or x"),
                          ("T=2,T=3", "given twice"), ("", None)]:
        bad(f"solve --class-cost '{spec}'",
            ["solve", m, "--from", f"{s[0]},{s[1]}", "--to", f"{g[0]},{g[1]}", "--class-cost", spec],
            mention=mention or "--class-cost")
    for radius in ["17", "-1", "abc", "nan"]:
        bad(f"solve --radius {radius}",
            ["solve", m, "--from", f"{s[0]},{s[1]}", "--to", f"{g[0]},{g[1]}", "--radius", radius],
            mention="--radius")


def shapes_tests():
    """Partial paths, the nearest of several goals and movement ranges (ALGORITHMS.md, "Partial
    paths and other query shapes") against brute force written here."""
    rng = random.Random(15)
    w, h = 30, 22
    rows = ["".join("@" if rng.random() < 0.3 else ("T" if rng.random() < 0.1 else ".") for _ in range(w))
            for _ in range(h)]
    m = write("shapes.map", f"type octile\nheight {h}\nwidth {w}\nmap\n" + "\n".join(rows) + "\n")
    for class_cost in ({}, {"T": 2.0}):
        plain = unit_plain_copy(rows, class_cost, 0)
        spec = ["--class-cost", "T=2"] if class_cost else []
        free = sorted(set((x, y) for y in range(h) for x in range(w)) - plain[2])
        # Movement range: every cell within the budget, row-major, with its least cost.
        for budget in (0, 3.5, 7):
            s = rng.choice(free)
            dist = unit_distances(plain, s)
            want = sorted(((x, y, d) for (x, y), d in dist.items() if d <= budget + 1e-9), key=lambda c: (c[1], c[0]))
            rc, j, err = run_json(["reach", m, "--from", f"{s[0]},{s[1]}", "--budget", str(budget), "--json"] + spec)
            got = (j or {}).get("cells", [])
            ok = rc == 0 and j["from"] == list(s) and j["budget"] == budget and len(got) == len(want) and all(
                g[0] == x and g[1] == y and abs(g[2] - d) < 1e-9 for g, (x, y, d) in zip(got, want))
            check(f"shapes: reach {spec} budget {budget} from {s}: every cell within it, row-major",
                  ok, f"rc={rc} got {len(got)} want {len(want)} {err[:200]!r}")
        # Nearest of several goals: the least cost over them, "goal" the one reached.
        for _ in range(4):
            s = rng.choice(free)
            goals = rng.sample(free, 3)
            dist = unit_distances(plain, s)
            want = min(dist.get(g, math.inf) for g in goals)
            args = ["solve", m, "--from", f"{s[0]},{s[1]}", "--algo", "dijkstra,astar,jps+,subgoal", "--json"] + spec
            for g in goals:
                args += ["--to", f"{g[0]},{g[1]}"]
            rc, j, err = run_json(args)
            res = (j or {}).get("results", [])
            if want == math.inf:
                ok = rc == 1 and len(res) == 4 and all(r["status"] == "no_path" for r in res)
            else:
                ok = rc == 0 and len(res) == 4 and all(
                    r["status"] == "found" and abs(r["cost"] - want) < 1e-6 and tuple(r["goal"]) in goals
                    and abs(dist[tuple(r["goal"])] - want) < 1e-6 and r["goals"] == [list(g) for g in goals]
                    for r in res)
            check(f"shapes: solve {spec} with 3 --to from {s}: the nearest goal at cost {want:.4f}", ok,
                  f"rc={rc} {[(r['algorithm'], r['status'], r['cost'], r['goal']) for r in res]} {err[:200]!r}")
    # Partial path: a goal walled in; the path runs to the reachable cell closest to it.
    rows2 = ["." * 12] * 3 + ["....@@@@....", "....@..@....", "....@@@@....", "." * 12]
    m2 = write("walled.map", "type octile\nheight 7\nwidth 12\nmap\n" + "\n".join(rows2) + "\n")
    rc, j, err = run_json(["solve", m2, "--from", "0,0", "--to", "5,4", "--partial", "--json",
                           "--algo", "astar,jps,dijkstra"])
    res = (j or {}).get("results", [])
    plain = unit_plain_copy(rows2, {}, 0)
    dist = unit_distances(plain, (0, 0))
    octile = lambda c: max(abs(c[0] - 5), abs(c[1] - 4)) + (SQRT2 - 1) * min(abs(c[0] - 5), abs(c[1] - 4))
    best_h = min(octile(c) for c in dist)
    best = min((dist[c], c) for c in dist if abs(octile(c) - best_h) < 1e-9)
    ok = rc == 1 and len(res) == 3
    for r in res:
        p = r.get("partial", {})
        ok = ok and r["status"] == "no_path" and tuple(p.get("reached", [])) in dist and \
            abs(octile(tuple(p["reached"])) - best_h) < 1e-9 and abs(p["cost"] - best[0]) < 1e-9 and \
            p["path"][0] == [0, 0] and p["path"][-1] == p["reached"] and not path_problem(p["path"], (0, 0), p["reached"], plain[:3])[0]
    check("shapes: solve --partial to a walled-in goal: exit 1, no_path, the partial path to the closest reached cell",
          ok, f"rc={rc} {[(r['status'], r.get('partial', {}).get('reached')) for r in res]} want {best} {err[:200]!r}")
    rc, j, err = run_json(["solve", m2, "--from", "0,0", "--to", "5,4", "--json"])
    check("shapes: without --partial no partial field", rc == 1 and j is not None and "partial" not in j, f"rc={rc}")
    # --edit changes the map through the edit API before the query.
    rc, j, err = run_json(["solve", m2, "--from", "0,0", "--to", "0,6", "--edit", "wall:0,3:11,3", "--json"])
    check("shapes: solve --edit walls off the bottom rows: no_path", rc == 1 and j and j["status"] == "no_path",
          f"rc={rc} {err[:200]!r}")
    rc, j, err = run_json(["solve", m2, "--from", "0,0", "--to", "5,4", "--edit", "free:5,3", "--json"])
    check("shapes: solve --edit opens the walled goal", rc == 0 and j and j["status"] == "found", f"rc={rc} {err[:200]!r}")
    bad("solve --edit outside the map", ["solve", m2, "--edit", "wall:40,3", "--from", "0,0", "--to", "1,1"],
        mention="is outside the 12x7 map")
    bad("solve --edit of an unknown kind", ["solve", m2, "--edit", "paint:1,1", "--from", "0,0", "--to", "1,1"],
        mention="unknown edit kind")
    bad("solve --edit malformed cell", ["solve", m2, "--edit", "wall:1", "--from", "0,0", "--to", "1,1"],
        mention="is not X,Y")
    # On a layered map --edit names a floor's cells as L:X,Y does: the same edit as the stacked
    # rows, and the path goes round it.
    tower = map_path("tower_2floors.json")
    rc, base, err = run_json(["solve", tower, "--json"])
    check("shapes: tower solves", rc == 0 and base and base["status"] == "found", f"rc={rc} {err[:200]!r}")
    if base:
        rc, j, err = run_json(["solve", tower, "--edit", "wall:1:9,7", "--json"])
        check("shapes: --edit wall:1:9,7 walls floor 1's cell (9, 7), on the path (it goes round)",
              rc == 0 and j and j["status"] == "found" and j["cost"] >= base["cost"] - 1e-9
              and [9, 7, 1] in base["path"] and [9, 7, 1] not in j["path"],
              f"rc={rc} {err[:200]!r}")
    bad("solve --edit on a floor the map lacks", ["solve", tower, "--edit", "wall:2:5,3"], mention="floor 2")
    bad("solve --edit on a row outside the floor", ["solve", tower, "--edit", "wall:1:5,13"],
        mention="row 13 is outside floor 1")
    # On a hex map the sides of --edit wall-S are the directions 0..5.
    hexmap = map_path("hex_20x14.map")
    rc, h0, err = run_json(["solve", hexmap, "--from", "0,0", "--to", "19,13", "--json"])
    rc, h1, err = run_json(["solve", hexmap, "--from", "0,0", "--to", "19,13", "--edit", "wall-5:0,6:12,6",
                            "--edit", "wall-4:0,6:12,6", "--json"])
    check("shapes: --edit wall-4/wall-5 fence a hex map (the path goes round)",
          rc == 0 and h0 and h1 and h1["cost"] > h0["cost"], f"rc={rc} {err[:200]!r}")
    bad("solve --edit of a square side on a hex map", ["solve", hexmap, "--edit", "wall-s:1,1"],
        mention="direction 0..5")
    bad("reach without --budget", ["reach", m2, "--from", "0,0"], mention="--budget")
    bad("reach --budget -1", ["reach", m2, "--from", "0,0", "--budget", "-1"], mention="--budget")
    bad("reach --from on a wall", ["reach", m2, "--from", "4,3", "--budget", "3"], mention="on a wall")
    bad("reach --from outside", ["reach", m2, "--from", "40,3", "--budget", "3"], mention="outside")
    bad("solve with a second --to on a wall", ["solve", m2, "--from", "0,0", "--to", "1,1", "--to", "4,3"],
        mention="on a wall")


FLOW_DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # E SE S SW W NW N NE


def flow_tests():
    """pathlab flow against a Dijkstra per cell written here (forward from each cell to the
    nearest goal, on the unit's plain copy): distances, the tie order of directions, walking the
    directions to a goal at exactly the distance; several goals; the contract's JSON; pictures;
    bad input. Then crowds: simulate --bench --goals --flow and the shipped flow scenarios."""
    rng = random.Random(15)
    w, h = 16, 11
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            r = rng.random()
            row += "@" if r < 0.15 else "T" if r < 0.24 else "S" if r < 0.32 else "."
        rows.append(row)
    m = write("flow.map", f"type octile\nheight {h}\nwidth {w}\nmap\n" + "\n".join(rows) + "\n")
    for class_cost, radius, ngoals in (({}, 0, 1), ({"T": 2.0, "S": 1.5}, 0, 2), ({"T": 3.0}, 1.2, 1)):
        plain = unit_plain_copy(rows, class_cost, radius)
        free = sorted(set((x, y) for y in range(h) for x in range(w)) - plain[2])
        goals = rng.sample(free, ngoals)
        args = ["flow", m, "--json", "--radius", str(radius)]
        for g in goals:
            args += ["--to", f"{g[0]},{g[1]}"]
        if class_cost:
            args += ["--class-cost", ",".join(f"{c}={v:g}" for c, v in class_cost.items())]
        rc, j, err = run_json(args)
        what = f"flow {class_cost} radius {radius}, {ngoals} goal(s)"
        if not check(f"{what}: exit 0 and the contract's fields", rc == 0 and j is not None and
                     all(k in j for k in ("width", "height", "goals", "distance", "direction", "time_us")) and
                     j["width"] == w and j["height"] == h and len(j["distance"]) == w * h and
                     len(j["direction"]) == w * h and j["goals"] == [list(g) for g in goals], f"rc={rc} {err[:200]!r}"):
            continue
        want = {}
        for c in free:
            dist = unit_distances(plain, c)
            best = min((dist[g] for g in goals if g in dist), default=None)
            if best is not None:
                want[c] = best
        bad_dist = [(x, y) for y in range(h) for x in range(w)
                    if (j["distance"][y * w + x] is None) != ((x, y) not in want) or
                    ((x, y) in want and abs(j["distance"][y * w + x] - want[(x, y)]) > 1e-6)]
        check(f"{what}: every distance equals a Dijkstra from that cell to the nearest goal (null where none is reachable)",
              not bad_dist, f"{len(bad_dist)} cells differ, e.g. {bad_dist[:3]}")

        def step_cost(a, b):
            (x, y), (nx, ny) = a, b
            if not (0 <= nx < w and 0 <= ny < h) or b in plain[2]:
                return None
            if nx != x and ny != y and ((nx, y) in plain[2] or (x, ny) in plain[2]):
                return None
            return (SQRT2 if nx != x and ny != y else 1.0) * plain[3][b]

        ties, walks = [], []
        for c, d in want.items():
            code = j["direction"][c[1] * w + c[0]]
            if c in goals:
                if code != -1:
                    ties.append((c, code))
                continue
            vals = {}
            for k, (dx, dy) in enumerate(FLOW_DIRS):
                n = (c[0] + dx, c[1] + dy)
                sc = step_cost(c, n)
                if sc is not None and n in want:
                    vals[k] = sc + want[n]
            least = min(vals.values())
            expect = next(k for k in (0, 2, 4, 6, 1, 3, 5, 7) if k in vals and vals[k] <= least + 1e-9)
            if code != expect:
                ties.append((c, code, expect))
            # Walk the directions: legal moves, a goal reached at total cost D(c).
            at, total = c, 0.0
            for _ in range(w * h):
                if at in goals:
                    break
                k = j["direction"][at[1] * w + at[0]]
                n = (at[0] + FLOW_DIRS[k][0], at[1] + FLOW_DIRS[k][1]) if k >= 0 else None
                sc = step_cost(at, n) if n else None
                if sc is None:
                    break
                total += sc
                at = n
            if at not in goals or abs(total - d) > 1e-6:
                walks.append((c, at, total, d))
        check(f"{what}: each direction is the least step + D(next), ties straight first then E, SE, S, SW, W, NW, N, NE",
              not ties, f"{len(ties)} cells, e.g. {ties[:3]}")
        check(f"{what}: walking the directions from every reachable cell reaches a goal at exactly its distance",
              not walks, f"{len(walks)} cells, e.g. {walks[:3]}")
    hyb = map_path("hybrid_30x20.txt")
    png, svg = os.path.join(TMP, "flow.png"), os.path.join(TMP, "flow.svg")
    rc, out, err, _ = run(["flow", hyb, "--to", "27,17", "--render", png])
    check("flow --render PNG: exit 0, a PNG file, the arrows printed for a small map",
          rc == 0 and os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n" and "→" in out,
          f"rc={rc} {err[:200]!r}")
    rc, out, err, _ = run(["flow", hyb, "--to", "27,17", "--to", "2,2", "--render", svg])
    body = open(svg).read() if os.path.exists(svg) else ""
    check("flow --render SVG: cells and one path of arrows", rc == 0 and body.startswith("<svg") and 'class="arrows"' in body,
          f"rc={rc} {err[:200]!r}")
    rc, j, err = run_json(["flow", hyb, "--json"])
    check("flow without --to: the map's goal marker", rc == 0 and j is not None and j["goals"] == [[27, 17]], f"rc={rc} {err[:200]!r}")
    # Sectored: on a 200x150 open map with one wall, units far from the goal build only the
    # sectors on their way, never shorter than the whole field and within 1 % of it there (the
    # widened corridor holds a near-shortest path around the wall).
    rows = ["." * 200 for _ in range(150)]
    rows = [r[:100] + "@" + r[101:] if 20 <= y < 130 else r for y, r in enumerate(rows)]
    big = write("open.map", "type octile\nheight 150\nwidth 200\nmap\n" + "\n".join(rows) + "\n")
    rc, whole, err = run_json(["flow", big, "--to", "190,75", "--json"])
    rc2, sec, err2 = run_json(["flow", big, "--to", "190,75", "--from", "5,75", "--from", "10,10",
                               "--sector", "16", "--json"])
    ok = rc == 0 and rc2 == 0 and whole and sec
    if ok:
        built = sec["sectors_built"]
        ok = (sec["sector"] == 16 and len(built) == sec["sectors_x"] * sec["sectors_y"] == 13 * 10 and
              0 < sum(built) < len(built) // 2 and
              all(whole["distance"][k] - 1e-9 <= sec["distance"][k] <= 1.01 * whole["distance"][k]
                  for k in (75 * 200 + 5, 10 * 200 + 10)) and
              sec["reachable"] == sec["corridor_cells"] < whole["reachable"] and
              all(d is None or d >= whole["distance"][k] - 1e-9 for k, d in enumerate(sec["distance"])))
    check("flow --from: a sectored field, only the sectors on the way built, within 1 % of the whole field at the units",
          ok, f"rc={rc},{rc2} {err2[:200]!r} {sum((sec or {}).get('sectors_built', []))}")
    bad("flow --from with --render", ["flow", big, "--to", "190,75", "--from", "5,75", "--render",
                                     os.path.join(TMP, "s.png")], mention="drop --from")
    bad("flow --sector 10", ["flow", big, "--to", "190,75", "--from", "5,75", "--sector", "10"],
        mention="power of two")
    bad("flow --to on a wall", ["flow", hyb, "--to", "8,5"], mention="on a wall")
    bad("flow --to outside", ["flow", hyb, "--to", "30,5"], mention="outside")
    bad("flow --render .gif", ["flow", hyb, "--to", "27,17", "--render", os.path.join(TMP, "f.gif")], mention="use .png or .svg")
    bad("flow --sight -1", ["flow", hyb, "--to", "27,17", "--sight", "-1"])
    bad("flow --class-cost malformed", ["flow", hyb, "--to", "27,17", "--class-cost", "T"], mention="class")
    # Crowds.
    rc, j, err = run_json(["simulate", "--bench", hyb, "--agents", "60", "--ticks", "4000", "--goals", "3",
                           "--flow", "--seed", "4", "--json"])
    check("simulate --bench --goals 3 --flow: every agent arrives, 0 collisions",
          rc == 0 and j is not None and j.get("planner") == "flow" and j.get("goals") == 3 and
          j.get("arrived") == 60 and j.get("collisions") == 0, f"rc={rc} {(j or {}).get('arrived')} {err[:200]!r}")
    rc2, j2, _ = run_json(["simulate", "--bench", hyb, "--agents", "60", "--ticks", "4000", "--goals", "3",
                           "--flow", "--seed", "4", "--json"])
    check("simulate --bench --flow: the same run for the same seed",
          j is not None and j2 is not None and j["ticks"] == j2["ticks"] and j["arrived"] == j2["arrived"], f"{j} {j2}")
    bad("simulate --flow with another planner", ["simulate", "--bench", hyb, "--flow", "--planner", "hybrid"],
        mention="--flow")
    for scen in ("door_swap.json", "army_500.json"):
        rc, j, err = run_json(["simulate", os.path.join(SOURCE_DIR, "scenarios", scen), "--json"])
        agents = (j or {}).get("agents", [])
        check(f"simulate {scen}: every agent arrives without a collision",
              rc == 0 and agents and all(a["arrived"] for a in agents) and sum(a["collisions"] for a in agents) == 0,
              f"rc={rc} arrived {sum(a['arrived'] for a in agents)}/{len(agents)} {err[:200]!r}")


GROUPS = {
    "malformed": malformed_tests,
    "solve": solve_tests,
    "big_trace": big_trace_tests,
    "mutation": mutation_tests,
    "help_and_convert": help_and_convert_tests,
    "bench": bench_tests,
    "render": render_tests,
    "anyangle": anyangle_tests,
    "simulate": simulate_tests,
    "link": link_tests,
    "dynamic": dynamic_tests,
    "prepare": prepare_tests,
    "units": units_tests,
    "shapes": shapes_tests,
    "flow": flow_tests,
}


def main():
    global TMP
    if sys.argv[1:] == ["--list-groups"]:  # tests/cli/CMakeLists.txt makes one ctest test of each
        print(";".join(GROUPS))
        return 0
    if PATHLAB is None:
        print("usage: cli_test.py PATHLAB_BINARY SOURCE_DIR SHARED_DIR [GROUP...]", file=sys.stderr)
        return 2
    groups = sys.argv[4:] or list(GROUPS)
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        print(f"unknown group {unknown[0]!r}; groups: {', '.join(GROUPS)}", file=sys.stderr)
        return 2
    if not os.access(PATHLAB, os.X_OK):
        print(f"FAIL {PATHLAB} is not an executable")
        print("0 passed, 1 failed")
        return 1
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pathlab-cli-") as tmp:
        TMP = tmp
        for name in groups:
            try:
                GROUPS[name]()
            except Exception as e:  # a broken answer must fail the run, not stop it
                check(f"{name} tests ran to the end", False, f"{type(e).__name__}: {e}")
    print(f"({time.monotonic() - t0:.1f} s; slowest command {slowest[0]:.2f} s: pathlab {slowest[1][:200]})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
