"""The Python module against the library's other faces: the CLI's answers, the Moving AI
optimum, Dijkstra, and its own contract (shared docs/DESIGN.md, "Python package").

Run by tests/python/run.sh (make test): PYTHONPATH holds the build's python/ folder and
PATHLAB_CLI the built command."""

import gc
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import pathlab

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
SHARED = Path(os.environ.get("SHARED", ROOT.parent / "shared"))
MOVINGAI = SHARED / "benchmarks" / "movingai"
CLI = os.environ.get("PATHLAB_CLI", str(ROOT / "build" / "apps" / "cli" / "pathlab"))
SQRT2 = math.sqrt(2.0)


def cli_json(*args):
    out = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def ends(g):
    """The map's markers, or its first and last free cells (row-major) when it has none."""
    free = np.argwhere(~g.walls())
    first, last = (int(v) for v in free[0][::-1]), (int(v) for v in free[-1][::-1])
    return g.start or tuple(first), g.goal or tuple(last)


# --- the CLI's answers ------------------------------------------------------------------------

CLI_MAPS = ["hybrid_30x20.txt", "two_rooms_25x12.txt", "corridor_40x9.txt", "seed_maze.txt"]


@pytest.mark.parametrize("name", CLI_MAPS)
def test_every_algorithm_answers_as_the_cli(name, tmp_path):
    path = str(MAPS / name)
    g = pathlab.load_map(path)
    s, t = ends(g)
    algos = pathlab.algorithms()
    got = cli_json("solve", path, "--algo", ",".join(algos), "--from", "%d,%d" % s,
                   "--to", "%d,%d" % t, "--cache", str(tmp_path))
    assert [r["algorithm"] for r in got["results"]] == algos
    for want in got["results"]:
        r = pathlab.find(g, s, t, algorithm=want["algorithm"])
        assert r.status == want["status"], want["algorithm"]
        if r.status != "found":
            continue
        assert r.cost == pytest.approx(want["cost"], rel=1e-12), want["algorithm"]
        assert r.path.tolist() == want["path"], want["algorithm"]
        np.testing.assert_allclose(r.points, np.array(want["points"], dtype=float).reshape(-1, 2))
        assert r.expanded == want["expanded"], want["algorithm"]
        assert r.path.dtype == np.int32 and r.path.shape == (len(want["path"]), 2)


def test_unit_options_answer_as_the_cli(tmp_path):
    path = str(MAPS / "hybrid_30x20.txt")
    g = pathlab.load_map(path)
    want = cli_json("solve", path, "--algo", "astar", "--radius", "0.8", "--class-cost", "T=2,W=x",
                    "--diagonal", "one-corner", "--cache", str(tmp_path))
    r = pathlab.find(g, g.start, g.goal, algorithm="astar", radius=0.8,
                     class_cost={"T": 2, "W": None}, diagonal="one-corner")
    assert r.status == want["status"]
    if r.status == "found":
        assert r.cost == pytest.approx(want["cost"], rel=1e-12)
        assert r.path.tolist() == want["path"]


# --- optimality ---------------------------------------------------------------------------------


def legal_cost(walls, path):
    """The cost of an 8-connected, no-corner-cut path on a unit-cost grid; asserts legality."""
    cost = 0.0
    for (x0, y0), (x1, y1) in zip(path[:-1], path[1:]):
        dx, dy = x1 - x0, y1 - y0
        assert max(abs(dx), abs(dy)) == 1 and not walls[y1, x1]
        if dx and dy:
            assert not walls[y0, x1] and not walls[y1, x0]
            cost += SQRT2
        else:
            cost += 1.0
    return cost


def scenarios(name, count):
    lines = (MOVINGAI / f"{name}.map.scen").read_text().splitlines()[1:]
    rows = [line.split() for line in lines if line.strip()]  # tabs or spaces
    step = max(1, len(rows) // count)
    rows = rows[::step][:count]
    starts = np.array([[int(r[4]), int(r[5])] for r in rows])
    goals = np.array([[int(r[6]), int(r[7])] for r in rows])
    optimum = np.array([float(r[8]) for r in rows])
    return starts, goals, optimum


SHARED_MAPS = sorted(p.name[: -len(".map.scen")] for p in MOVINGAI.glob("*.map.scen"))


@pytest.mark.parametrize(
    "name,algorithm",
    [(m, "jps") for m in SHARED_MAPS or ["den520d"]]
    + [("den520d", "subgoal-ch"), ("maze512-1-0", "subgoal-ch"), ("brc202d", "jps+")],
)
def test_find_many_meets_the_moving_ai_optimum(name, algorithm):
    if not MOVINGAI.is_dir():
        pytest.skip(f"{MOVINGAI} is absent: the Moving AI check needs ../shared")
    g = pathlab.load_map(str(MOVINGAI / f"{name}.map"))
    starts, goals, optimum = scenarios(name, 60)
    costs = pathlab.find_many(g, starts, goals, algorithm=algorithm, threads=2)
    assert costs.dtype == np.float64 and costs.shape == (len(starts),)
    # the tolerance of shared docs/ALGORITHMS.md: the files print the optimum rounded
    assert np.all(np.abs(costs - optimum) <= 0.005 + 1e-5 * optimum)
    # and equal to a loop of find, whose paths are legal and cost what they say
    walls = g.walls()
    for i in range(0, len(starts), 6):
        r = pathlab.find(g, tuple(starts[i]), tuple(goals[i]), algorithm=algorithm)
        assert r.cost == costs[i]
        assert legal_cost(walls, r.path.tolist()) == pytest.approx(r.cost, abs=1e-9)


def random_walls(rng, h, w, density):
    return rng.random((h, w)) < density


def test_optimal_algorithms_agree_with_dijkstra_on_random_grids():
    rng = np.random.default_rng(17)
    optimal = ["astar", "bibfs", "biastar", "jps", "jps+", "subgoal", "subgoal-ch", "idastar"]
    for trial in range(12):
        h, w = rng.integers(5, 40, size=2)
        g = pathlab.Grid(random_walls(rng, h, w, 0.25))
        free = np.argwhere(~g.walls())
        if len(free) < 2:
            continue
        pairs = free[rng.integers(0, len(free), size=(8, 2))]
        starts, goals = pairs[:, 0, ::-1], pairs[:, 1, ::-1]
        reference = pathlab.find_many(g, starts, goals, algorithm="dijkstra", threads=1)
        for a in optimal:
            if a in ("bibfs", "idastar") and h * w > 400:
                continue
            costs = pathlab.find_many(g, starts, goals, algorithm=a, threads=2)
            if a == "bibfs":  # fewest moves, not least cost
                assert np.array_equal(np.isnan(costs), np.isnan(reference))
                continue
            np.testing.assert_allclose(costs, reference, rtol=0, atol=1e-9, err_msg=a)


def test_no_path_is_nan_and_a_status():
    walls = np.zeros((5, 9), dtype=bool)
    walls[:, 4] = True
    g = pathlab.Grid(walls)
    r = pathlab.find(g, (0, 0), (8, 4))
    assert r.status == "no_path" and math.isnan(r.cost) and r.path.shape == (0, 2)
    costs = pathlab.find_many(g, [[0, 0], [0, 0]], [[8, 4], [3, 4]], algorithm="astar")
    assert math.isnan(costs[0]) and costs[1] == pytest.approx(1 + 3 * SQRT2)
    p = pathlab.find(g, (0, 0), (8, 4), partial=True)
    assert p.partial["reached"] == (3, 4) and p.partial["path"][-1].tolist() == [3, 4]


# --- grids, terrain, classes --------------------------------------------------------------------


def test_grid_from_arrays():
    walls = np.zeros((4, 6), dtype=bool)
    walls[1, 2] = True
    costs = np.ones((4, 6))
    costs[0, 5] = np.inf
    g = pathlab.Grid(walls, costs=costs)
    assert (g.width, g.height) == (6, 4)
    expect = walls.copy()
    expect[0, 5] = True
    assert np.array_equal(g.walls(), expect)
    # a step costs its length times the terrain of the cell it enters
    g = pathlab.Grid(np.zeros((1, 4), dtype=bool), costs=np.array([[1.0, 3.0, 2.5, 1.0]]))
    r = pathlab.find(g, (0, 0), (3, 0), algorithm="dijkstra")
    assert r.cost == pytest.approx(3.0 + 2.5 + 1.0) and r.path.tolist() == [[0, 0], [1, 0], [2, 0], [3, 0]]
    classes = np.full((4, 6), ord("."), dtype=np.uint8)
    classes[:, 3] = ord("W")
    g = pathlab.Grid(np.zeros((4, 6), dtype=bool), classes=classes)
    assert pathlab.find(g, (0, 0), (5, 0)).status == "no_path"  # water is forbidden by default
    r = pathlab.find(g, (0, 0), (5, 0), class_cost={"W": 4.0})
    assert r.status == "found" and r.cost == pytest.approx(4 + 4.0)


def test_flow_field_distances_are_find_costs():
    rng = np.random.default_rng(5)
    g = pathlab.Grid(random_walls(rng, 30, 40, 0.2))
    free = np.argwhere(~g.walls())
    goal = tuple(int(v) for v in free[0][::-1])
    f = pathlab.flow_field(g, [goal])
    assert f.distance.shape == (30, 40) and f.direction.dtype == np.int8
    assert f.distance[goal[1], goal[0]] == 0
    steps = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    for y, x in free[rng.integers(0, len(free), size=60)]:
        r = pathlab.find(g, (int(x), int(y)), goal, algorithm="dijkstra")
        d = f.distance[y, x]
        if r.status == "found":
            assert d == pytest.approx(r.cost, abs=1e-9)
            if (int(x), int(y)) != goal:
                dx, dy = steps[f.direction[y, x]]
                step = SQRT2 if dx and dy else 1.0
                assert f.distance[y + dy, x + dx] + step == pytest.approx(d, abs=1e-9)
        else:
            assert math.isinf(d) and f.direction[y, x] == -1


# --- errors -------------------------------------------------------------------------------------


def test_bad_arguments_raise_value_error_with_the_reason():
    g = pathlab.Grid(np.array([[0, 0, 1], [0, 0, 0]], dtype=bool))
    cases = [
        (lambda: pathlab.find(g, (0, 0), (9, 0)), "outside the 3x2 map"),
        (lambda: pathlab.find(g, (2, 0), (0, 0)), "is on a wall"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), algorithm="fast"), "unknown algorithm 'fast'"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), diagonal="x"), "unknown diagonal rule"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), heuristic="x"), "unknown heuristic"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), weight=-1.0), "weight"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), radius=99.0), "radius"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), class_cost={"TT": 2}), "class_cost"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), class_cost={"T": 0.5}), "class_cost"),
        (lambda: pathlab.find(g, (0, 0), (1, 1), class_cost=[1]), "class_cost"),
        (lambda: pathlab.find(g, (0,), (1, 1)), "pair of integers"),
        (lambda: pathlab.find(g, "ab", (1, 1)), "pair of integers"),
        (lambda: pathlab.find(g, (0.5, 0), (1, 1)), "pair of integers"),
        (lambda: pathlab.find_many(g, [[0, 0]], [[1, 1], [0, 1]]), "rows"),
        (lambda: pathlab.find_many(g, [[0, 0, 0, 0]], [[1, 1, 1, 0]]), "shape (n, 2)"),
        (lambda: pathlab.find_many(g, [[0, 0, 0]], [[1, 1, 1]]), "floor 1 is not one of"),
        (lambda: pathlab.find_many(g, [[0.0, 0.0]], [[1.0, 1.0]]), "integer array"),
        (lambda: pathlab.find_many(g, [[0, 0]], [[2, 0]]), "goals[0] (2, 0) is on a wall"),
        (lambda: pathlab.find_many(g, [[0, 0]], [[1, 1]], threads=-1), "threads"),
        (lambda: pathlab.Grid(np.zeros(5, dtype=bool)), "2-D"),
        (lambda: pathlab.Grid(np.zeros((0, 5), dtype=bool)), "each side"),
        (lambda: pathlab.Grid(np.zeros((2, 2), dtype=bool), costs=np.zeros((2, 2))), ">= 1"),
        (lambda: pathlab.Grid(np.zeros((2, 2), dtype=bool), costs=np.ones((3, 2))), "shape"),
        (lambda: pathlab.Grid(np.zeros((2, 2), dtype=bool),
                              classes=np.full((2, 2), 7, dtype=np.uint8)), "class"),
        (lambda: pathlab.Grid([["a", "b"]]), "bool array"),
        (lambda: pathlab.flow_field(g, []), "at least one goal"),
        (lambda: pathlab.flow_field(g, [(2, 0)]), "is on a wall"),
        (lambda: pathlab.load_map("/nonexistent/x.map"), "x.map"),
        (lambda: pathlab.load_map(str(MAPS / "seed_maze.txt"), format="jpeg"), "map format"),
    ]
    for call, words in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert words in str(e.value), (words, str(e.value))


def test_malformed_map_raises_parse_error_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.map"
    bad.write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.Z\n")
    with pytest.raises(pathlab.ParseError) as e:
        pathlab.load_map(str(bad))
    assert str(e.value).startswith(str(bad) + ":")
    assert issubclass(pathlab.ParseError, ValueError)


def test_fuzzed_arrays_never_crash():
    """Random shapes, dtypes and values into every array entry point: an answer or a
    ValueError, never a crash (the process would die and the test with it)."""
    rng = random.Random(1234)
    dtypes = [np.bool_, np.int8, np.uint8, np.int64, np.float32, np.float64, np.complex64]
    for _ in range(400):
        shape = tuple(rng.randint(0, 6) for _ in range(rng.randint(0, 3)))
        dt = rng.choice(dtypes)
        arr = (np.random.default_rng(rng.randint(0, 1 << 30)).random(shape) * 300 - 20).astype(dt)
        try:
            g = pathlab.Grid(arr, costs=arr if rng.random() < 0.3 else None,
                             classes=arr if rng.random() < 0.3 else None)
        except ValueError:
            g = pathlab.Grid(np.zeros((4, 4), dtype=bool))
        pts = (np.random.default_rng(rng.randint(0, 1 << 30)).random(shape) * 10 - 3).astype(dt)
        xy = tuple(pts.ravel()[:2].tolist())
        n1, n2 = (rng.randint(-3, 8) for _ in range(2))
        for call in (
            lambda: pathlab.find_many(g, pts, pts, algorithm=rng.choice(pathlab.algorithms())),
            lambda: pathlab.find(g, xy, (0, 0), trace=True),
            lambda: pathlab.flow_field(g, [xy]),
            lambda: pathlab.reach(g, xy, rng.uniform(-2, 6)),
            lambda: g.set_walls(n1, n2, n2, n1, blocked=rng.random() < 0.5),
            lambda: g.set_terrain(n1, n2, rng.uniform(-1, 5)),
            lambda: g.set_class(n2, n1, rng.choice([".", "T", "W", "@", " ", "\x7f"])),
            lambda: g.edit(rng.choice(["wall", "free", "class=T", "terrain=2", "x"]) + ":%d,%d" % (n1, n2)),
        ):
            try:
                call()
            except (ValueError, TypeError):
                pass


# --- the interpreter: references, memory, the GIL, Ctrl-C --------------------------------------


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_references_and_memory_are_stable_over_100000_calls():
    g = pathlab.load_map(str(MAPS / "two_rooms_25x12.txt"))
    s, t = ends(g)
    finder = pathlab.Pathfinder(g, algorithm="jps")
    for _ in range(2000):  # warm: the finders' workspaces and numpy's caches
        finder.find(s, t)
        pathlab.find(g, s, t)
    gc.collect()
    refs, rss = sys.getrefcount(g), rss_kb()
    for i in range(100_000):
        r = finder.find(s, t) if i % 2 else pathlab.find(g, s, t)
        assert r.status == "found"
    del r
    gc.collect()
    assert sys.getrefcount(g) == refs
    assert rss_kb() - rss < 4096  # kB: nothing kept a call


def test_find_many_releases_the_gil():
    g = pathlab.load_map(str(MAPS / "hybrid_120x80.txt"))
    free = np.argwhere(~g.walls())[:, ::-1]
    rng = np.random.default_rng(3)
    starts = free[rng.integers(0, len(free), 4000)]
    goals = free[rng.integers(0, len(free), 4000)]
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    t0 = time.perf_counter()
    pathlab.find_many(g, starts, goals, algorithm="dijkstra", threads=1)
    t1 = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if t0 < x < t1]
    # A thread holding the GIL for the whole batch would let the ticker run at most once.
    assert t1 - t0 < 0.05 or len(during) >= 5, (t1 - t0, len(during))


def test_ctrl_c_interrupts_a_long_batch():
    g = pathlab.Grid(np.zeros((400, 400), dtype=bool))
    n = 200_000
    starts = np.zeros((n, 2), dtype=np.int64)
    goals = np.full((n, 2), 399, dtype=np.int64)
    # Python started with SIGINT ignored (as a background job is) keeps it ignored, and the
    # batch would run for minutes: the test sets the handler Ctrl-C has in a terminal.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        t0 = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            pathlab.find_many(g, starts, goals, algorithm="dijkstra", threads=2)
        elapsed = time.perf_counter() - t0
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert elapsed < 10, elapsed  # 200,000 Dijkstra queries would take minutes


# --- the API a Python user reads ----------------------------------------------------------------


def test_help_and_names():
    doc = pathlab.find.__doc__
    assert "algorithm" in doc and "diagonal" in doc and "Result" in doc
    assert "walls" in pathlab.Grid.__doc__
    names = pathlab.algorithms()
    listed = subprocess.run([CLI, "algorithms"], capture_output=True, text=True).stdout
    assert all(n in listed for n in names) and "astar" in names and "subgoal-ch" in names
    stubs = Path(pathlab.__file__).with_name("__init__.pyi")
    assert stubs.is_file() and "def find_many" in stubs.read_text()
    assert repr(pathlab.Grid(np.zeros((2, 3), dtype=bool))) == "<pathlab.Grid 3x2, 0 walls>"


def test_the_example_runs(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "compare_algorithms.py"),
                          "--queries", "40", "--plot", str(tmp_path / "search.png")],
                         capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()]
    table = {r[0]: r for r in rows if r and r[0] in ("astar", "jps", "jps+", "subgoal", "subgoal-ch")}
    assert len(table) == 5
    if MOVINGAI.is_dir():  # scenarios: every answer at the optimum
        assert all(r[3] == r[1] for r in table.values()), out.stdout


# --- traces, movement ranges, edits, scenarios ----------------------------------------------------


def test_trace_replays_to_the_path_and_counts_the_expansions():
    rng = np.random.default_rng(11)
    g = pathlab.Grid(random_walls(rng, 30, 30, 0.25))
    free = np.argwhere(~g.walls())
    s, t = tuple(int(v) for v in free[0][::-1]), tuple(int(v) for v in free[-1][::-1])
    for algorithm in ("astar", "dijkstra", "jps", "biastar"):
        r = pathlab.find(g, s, t, algorithm=algorithm, trace=True)
        if algorithm == "biastar":  # two sides: the trace ends with where they met
            assert r.trace.event[-1] == pathlab.Trace.names.index("meet")
            continue
        if r.status != "found":
            continue
        tr = r.trace
        names = pathlab.Trace.names
        assert names[:3] == ["opened", "updated", "closed"]
        closed = tr.event == names.index("closed")
        assert int(closed.sum()) >= r.expanded > 0
        if algorithm in ("astar", "dijkstra"):
            assert int(closed.sum()) == r.expanded
        order = tr.expanded()
        assert order.shape == (30, 30) and order.max() + 1 == len({tuple(c) for c in tr.cell[closed]})
        # the last parent given to each cell leads from the goal back to the start
        parent = {}
        for e, c, o in zip(tr.event, tr.cell.tolist(), tr.other.tolist()):
            if e in (names.index("opened"), names.index("updated")):
                parent[tuple(c)] = tuple(o)
        walk = [t]
        while walk[-1] != s:
            walk.append(parent[walk[-1]])
        assert walk[::-1] == [tuple(p) for p in r.path.tolist()], algorithm
    assert pathlab.find(g, s, t).trace is None


def test_reach_is_every_cell_within_the_budget():
    rng = np.random.default_rng(8)
    g = pathlab.Grid(random_walls(rng, 20, 25, 0.2))
    free = np.argwhere(~g.walls())
    s = tuple(int(v) for v in free[len(free) // 2][::-1])
    cells, costs = pathlab.reach(g, s, 6.5)
    assert cells.dtype == np.int32 and cells.shape == (len(costs), 2)
    inside = {tuple(c): v for c, v in zip(cells.tolist(), costs.tolist())}
    assert inside[s] == 0
    for y, x in free:
        r = pathlab.find(g, s, (int(x), int(y)), algorithm="dijkstra")
        if r.status == "found" and r.cost <= 6.5 + 1e-9:
            assert inside[(int(x), int(y))] == pytest.approx(r.cost, abs=1e-9)
        else:
            assert (int(x), int(y)) not in inside
    rows = cells[:, 1] * 25 + cells[:, 0]
    assert np.all(np.diff(rows) > 0)  # row-major
    f = pathlab.Pathfinder(g, algorithm="astar")
    c2, k2 = f.reach(s, 6.5)
    assert np.array_equal(c2, cells) and np.array_equal(k2, costs)


def test_an_edited_grid_answers_as_a_fresh_one():
    rng = np.random.default_rng(21)
    walls = random_walls(rng, 40, 50, 0.15)
    g = pathlab.Grid(walls)
    free = np.argwhere(~walls)
    pick = free[rng.integers(0, len(free), size=(30, 2))]
    starts, goals = pick[:, 0, ::-1], pick[:, 1, ::-1]
    for a in ("jps+", "subgoal-ch", "astar"):  # finders and batches built before the edits
        pathlab.find_many(g, starts, goals, algorithm=a)
        pathlab.find(g, tuple(starts[0]), tuple(goals[0]), algorithm=a)
    edited = walls.copy()
    for _ in range(6):
        x0, y0 = (int(v) for v in rng.integers(0, [50, 40]))
        x1, y1 = min(49, x0 + int(rng.integers(0, 4))), min(39, y0 + int(rng.integers(0, 4)))
        blocked = bool(rng.random() < 0.6)
        g.set_walls(x0, y0, x1, y1, blocked=blocked)
        edited[y0:y1 + 1, x0:x1 + 1] = blocked
    g.edit("free:0,0:3,3")
    edited[0:4, 0:4] = False
    assert np.array_equal(g.walls(), edited)
    fresh = pathlab.Grid(edited)
    ok = ~edited[starts[:, 1], starts[:, 0]] & ~edited[goals[:, 1], goals[:, 0]]
    s2, t2 = starts[ok], goals[ok]
    want = pathlab.find_many(fresh, s2, t2, algorithm="dijkstra")
    for a in ("jps+", "subgoal-ch", "astar"):
        got = pathlab.find_many(g, s2, t2, algorithm=a)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9, err_msg=a)
        for i in range(0, len(s2), 7):
            r = pathlab.find(g, tuple(s2[i]), tuple(t2[i]), algorithm=a)
            assert (r.status == "found") == (not math.isnan(want[i])), a
    g.set_terrain(5, 5, 4.0, 6, 6)
    g.set_class(10, 10, "W")
    assert g.costs()[5, 5] == (4.0 if not edited[5, 5] else np.inf)
    assert g.classes()[10, 10] == ord("W")  # a class replaces a wall too
    with pytest.raises(ValueError, match="edit 'wall:99,99'"):
        g.edit("wall:99,99")
    with pytest.raises(ValueError, match="edit 'bogus'"):
        g.edit("bogus")
    with pytest.raises(ValueError):
        g.set_terrain(0, 0, 0.5)
    with pytest.raises(ValueError):
        g.set_class(0, 0, "ab")


def test_result_says_which_algorithm_answered_and_why():
    rng = np.random.default_rng(27)
    walls = random_walls(rng, 60, 80, 0.2)
    free = np.argwhere(~walls)
    s, t = tuple(int(v) for v in free[0][::-1]), tuple(int(v) for v in free[-1][::-1])
    plain = pathlab.Grid(walls)
    for a in ("astar", "jps", "jps+", "subgoal", "subgoal-ch"):
        r = pathlab.find(plain, s, t, algorithm=a)
        assert (r.answered_by, r.fallback, r.note) == (a, "none", ""), a
    costs = np.where(rng.random(walls.shape) < 0.3, 2.0, 1.0)
    terrain = pathlab.Grid(walls, costs=costs)
    want = pathlab.find(terrain, s, t, algorithm="dijkstra").cost
    for a in ("jps", "jps+", "subgoal", "subgoal-ch"):
        r = pathlab.find(terrain, s, t, algorithm=a)
        assert (r.answered_by, r.fallback) == ("astar", "terrain-costs"), a
        assert r.note and r.cost == pytest.approx(want, abs=1e-9), a
        r = pathlab.find(plain, s, t, algorithm=a, diagonal="always")
        assert (r.answered_by, r.fallback) == ("astar", "diagonal-rule"), a
    classes = np.full(walls.shape, ord("."), dtype=np.uint8)
    classes[:, ::4] = ord("S")
    swamp = pathlab.Grid(walls, classes=classes)
    r = pathlab.find(swamp, s, t, algorithm="jps", class_cost={"S": 3.0})
    assert (r.answered_by, r.fallback) == ("astar", "terrain-costs")
    assert pathlab.find(swamp, s, t, algorithm="jps").fallback == "none"


def test_after_a_small_edit_subgoal_methods_repair_and_after_a_large_one_jps_answers():
    rng = np.random.default_rng(28)
    walls = random_walls(rng, 120, 160, 0.25)
    free = np.argwhere(~walls)
    pick = free[rng.integers(0, len(free), size=(20, 2))]
    for a in ("subgoal", "subgoal-ch"):
        g = pathlab.Grid(walls)
        f = pathlab.Pathfinder(g, algorithm=a)
        assert f.preparation_state == "missing"
        assert f.find(tuple(pick[0, 0, ::-1]), tuple(pick[0, 1, ::-1])).answered_by == a
        assert f.preparation_state == "ready"
        g.set_walls(40, 30, 44, 80)  # 255 cells, under 1/16 of the map: repaired
        g.set_walls(100, 0, 159, 39)  # 2,400 cells: rebuilt on another thread
        edited = g.walls()
        ends = [(tuple(int(v) for v in p[0, ::-1]), tuple(int(v) for v in p[1, ::-1])) for p in pick]
        ends = [(u, v) for u, v in ends if not edited[u[1], u[0]] and not edited[v[1], v[0]]]
        assert f.preparation_state == "stale"
        g2 = pathlab.Grid(walls)
        f2 = pathlab.Pathfinder(g2, algorithm=a)
        f2.find(*ends[0])
        g2.set_walls(40, 30, 44, 80)
        r = f2.find(*ends[0])  # the graph is repaired for this very query
        assert (r.answered_by, r.fallback, r.note) == (a, "none", "")
        assert f2.preparation_state == "ready"
        r = f.find(*ends[0])
        assert (r.answered_by, r.fallback) == ("jps+", "rebuilding") and r.note
        deadline = time.monotonic() + 60
        while f.preparation_state != "ready":
            assert f.preparation_state == "building" and time.monotonic() < deadline
            time.sleep(0.01)
        fresh = pathlab.Grid(edited)
        for u, v in ends:
            r = f.find(u, v)
            assert (r.answered_by, r.fallback, r.note) == (a, "none", ""), a
            want = pathlab.find(fresh, u, v, algorithm="dijkstra")
            assert r.status == want.status
            if want.status == "found":
                assert r.cost == pytest.approx(want.cost, abs=1e-9)
        assert pathlab.Pathfinder(g, algorithm="astar").preparation_state == "none"


def test_a_flow_field_is_stale_after_an_edit():
    g = pathlab.Grid(np.zeros((20, 30), dtype=bool))
    f = pathlab.flow_field(g, [(2, 2)])
    assert not f.stale
    g.set_walls(10, 0, 10, 19, blocked=False)  # frees free cells: nothing changes
    assert not f.stale
    g.set_walls(10, 0, 10, 18)
    assert f.stale
    assert f.distance[2, 20] == pytest.approx(18.0)  # a copy: the map as it was
    f2 = pathlab.flow_field(g, [(2, 2)])
    assert not f2.stale and f2.distance[2, 20] > 18.0 + 1


def test_free_makes_plain_ground_and_wall_keeps_no_cost():
    classes = np.full((3, 4), ord("S"), dtype=np.uint8)
    g = pathlab.Grid(np.zeros((3, 4), dtype=bool), costs=np.full((3, 4), 3.0), classes=classes)
    g.edit("free:0,0:1,2")
    assert np.all(g.classes()[:, :2] == ord(".")) and np.all(g.costs()[:, :2] == 1.0)
    assert np.all(g.classes()[:, 2:] == ord("S")) and np.all(g.costs()[:, 2:] == 3.0)
    g.set_walls(2, 0)
    g.set_walls(2, 0, blocked=False)
    assert g.classes()[0, 2] == ord(".") and g.costs()[0, 2] == 1.0
    g.set_class(3, 0, "F")  # a class keeps the cell's cost
    assert g.costs()[0, 3] == 3.0


def test_load_scenarios(tmp_path):
    if not MOVINGAI.is_dir():
        pytest.skip(f"{MOVINGAI} is absent")
    sc = pathlab.load_scenarios(str(MOVINGAI / "den520d.map.scen"))
    starts, goals, optimum = scenarios("den520d", 10_000)
    assert np.array_equal(sc["starts"], starts) and np.array_equal(sc["goals"], goals)
    np.testing.assert_allclose(sc["optimal"], optimum)
    assert Path(sc["map"]).name == "den520d.map" and sc["bucket"].shape == optimum.shape
    bad = tmp_path / "bad.map.scen"
    bad.write_text("version 1\n0\tx.map\t10\t10\t1\t1\n")
    with pytest.raises(pathlab.ParseError, match=str(bad)):
        pathlab.load_scenarios(str(bad))


@pytest.mark.parametrize("method", ["greedy", "refined"])
def test_smoothing_answers_as_the_cli(method, tmp_path):
    path = str(MAPS / "hybrid_30x20.txt")
    g = pathlab.load_map(path)
    s, t = ends(g)
    for algorithm in ("astar", "theta"):
        want = cli_json("solve", path, "--algo", algorithm, "--smooth", "--smoothing", method,
                        "--from", "%d,%d" % s, "--to", "%d,%d" % t, "--cache", str(tmp_path))
        r = pathlab.find(g, s, t, algorithm=algorithm, smooth=method)
        assert r.smoothed["path"].tolist() == want["smoothed_path"]
        assert r.smoothed["cost"] == pytest.approx(want["smoothed_cost"], rel=1e-12)
        assert r.smoothed["cost"] <= r.cost + 1e-9
        np.testing.assert_allclose(r.smoothed["points"], np.array(want["smoothed_points"]))
    assert pathlab.find(g, s, t).smoothed is None
    with pytest.raises(ValueError, match="unknown smoothing 'x'"):
        pathlab.find(g, s, t, smooth="x")


# --- the simulation -----------------------------------------------------------------------------

SCENARIOS = ROOT / "scenarios"


@pytest.mark.parametrize("name", ["door_swap", "hybrid_l_trap", "corridor_oncoming", "crowd_50"])
def test_a_scenario_runs_as_the_cli_simulates_it(name):
    path = str(SCENARIOS / f"{name}.json")
    want = cli_json("simulate", path)["agents"]
    w = pathlab.World(path)
    assert len(w) == len(want) and not w.finished
    w.run()
    m = w.metrics()
    assert w.finished and w.ticks > 0
    for k in ("id", "arrived", "collisions", "stalls", "local_replans", "global_replans"):
        assert m[k].tolist() == [a[k] for a in want], k
    for k in ("time", "path_length", "optimal_length", "min_clearance", "collision_time"):
        np.testing.assert_allclose(m[k], [a[k] for a in want], rtol=1e-9, atol=1e-12, err_msg=k)
    assert w.positions.shape == (len(want), 2) and w.arrived.tolist() == m["arrived"].tolist()
    assert len(w.tick_us()) == w.ticks


def test_agents_on_a_grid():
    walls = np.zeros((20, 40), dtype=bool)
    walls[0:14, 20] = True
    g = pathlab.Grid(walls)
    starts = np.array([[2.5, 2.5], [2.5, 17.5]])
    goals = np.array([[37.5, 2.5], [37.5, 17.5]])
    w = pathlab.World.on_grid(g, starts, goals, radius=0.3, max_speed=3.0, planner="hybrid")
    np.testing.assert_allclose(w.positions, starts)
    w.step(10)
    assert w.ticks == 10 and w.time == pytest.approx(0.5)
    assert np.all(w.positions[:, 0] > starts[:, 0])  # both on their way
    w.run()
    assert w.arrived.all()
    # arrived: within goal_reach (0.5 cells) of the goal, having come no shorter a way than the
    # optimum allows
    assert np.all(np.hypot(*(w.positions - goals).T) <= 0.5 + 1e-9)
    m = w.metrics()
    assert np.all(m["path_length"] >= m["optimal_length"] - 0.5 - 1e-9)
    assert m["collisions"].sum() == 0
    with pytest.raises(ValueError, match="wall"):
        pathlab.World.on_grid(g, [[20.5, 5.5]], [[30.5, 5.5]])
    with pytest.raises(ValueError, match="planner"):
        pathlab.World.on_grid(g, starts, goals, planner="teleport")
    with pytest.raises(ValueError, match="shape"):
        pathlab.World.on_grid(g, starts, goals[:1])
    with pytest.raises(ValueError):
        w.set_goal([5], (3.5, 3.5))
    with pytest.raises(pathlab.ParseError):
        pathlab.World(str(MAPS / "seed_maze.txt"))


# --- the Link game ------------------------------------------------------------------------------


def link_cli(*args):
    out = subprocess.run([CLI, "link", *args, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def as_pairs(moves):
    return [[list(m[0]), list(m[1])] for m in moves.tolist()]


@pytest.mark.parametrize("name", ["link_8x10.txt", "link_12x20.txt", "link_holes_8x12.txt"])
def test_link_answers_as_the_cli(name):
    path = str(MAPS / name)
    b = pathlab.LinkBoard.load(path)
    assert str(b) == Path(path).read_text().rstrip("\n") + "\n"
    cells = b.cells()
    assert cells.shape == (b.height, b.width) and b.tiles == int((cells != ord(".")).sum())
    want = link_cli(path, "--moves")["moves"]
    assert as_pairs(b.moves()) == [[m["a"], m["b"]] for m in want]
    h = link_cli(path, "--hint")
    assert (b.hint() is None) == ("move" not in h or h["move"] is None)
    if b.hint() is not None:
        assert [list(p) for p in b.hint()] == [h["move"]["a"], h["move"]["b"]]
    tiles = np.argwhere(cells != ord("."))[:, ::-1]
    rng = np.random.default_rng(2)
    for i, j in rng.integers(0, len(tiles), size=(40, 2)):
        a, c = tuple(int(v) for v in tiles[i]), tuple(int(v) for v in tiles[j])
        if a == c:
            continue
        got = b.connect(a, c)
        want = link_cli(path, "--connect", "%d,%d:%d,%d" % (a + c))
        assert (got is not None) == want["connected"]
        if got is not None:
            assert got.tolist() == want["points"]
    for gravity in ("none", "down"):
        r = b.solve(gravity=gravity)
        want = link_cli(path, "--solve", "--gravity", gravity)
        assert r["status"] == want["status"]
        assert as_pairs(r["moves"]) == [[m["a"], m["b"]] for m in want.get("moves", [])]
        if r["status"] == "solved":  # replaying the moves clears the board
            board = pathlab.LinkBoard(str(b))
            for (a, c) in r["moves"].tolist():
                assert board.play(tuple(a), tuple(c), gravity=gravity)
            assert board.tiles == 0


def test_link_generate_shuffle_and_errors():
    b = pathlab.LinkBoard.generate(6, 4, kinds=5, seed=3)
    want = link_cli("--generate", "6x4", "--kinds", "5", "--seed", "3")
    assert str(b).split() == want["rows"]
    assert b.solve()["status"] == "solved"
    path = str(MAPS / "link_8x10.txt")
    s = pathlab.LinkBoard.load(path)
    assert s.shuffle(2)
    assert str(s).split() == link_cli(path, "--shuffle", "--seed", "2")["board"]["rows"]
    with pytest.raises(ValueError, match="outside"):
        b.connect((0, 0), (9, 9))
    with pytest.raises(ValueError, match="gravity"):
        b.solve(gravity="sideways")
    with pytest.raises(ValueError, match="generate"):
        pathlab.LinkBoard.generate(3, 3, kinds=2)
    with pytest.raises(pathlab.ParseError):
        pathlab.LinkBoard("AB\nABC\n")
    line = pathlab.LinkBoard("A.\n.A\n").connect((0, 0), (1, 1)).tolist()
    assert line[0] == [0, 0] and line[2] == [1, 1] and line[1] in ([1, 0], [0, 1])


def test_bench_runs_the_dynamic_track_as_the_cli(tmp_path):
    # A 5x3 map that starts open; a wall column cuts it (no path), then its middle opens.
    (tmp_path / "d.patch").write_text("type patch\npatches 2\npatch 0\nheight 3\nwidth 1\nmap\n"
                                      "@\n@\n@\npatch 1\nheight 1\nwidth 1\nmap\n.\n")
    scen = tmp_path / "d.scen"
    scen.write_text("version 2\nheight 3\nwidth 5\ncost 1 octile\npatch d.patch\ncommands\n"
                    "Q 0 0 1 4 1 4\nP 1 0 2 0\nQ 1 0 0 4 2 -1\nP 1 1 2 1\nQ 1 0 0 4 0 4.8284271247\n")
    rows = pathlab.bench([str(scen)], algorithms=["jps", "jps+"])
    want = cli_json("bench", str(scen), "--algo", "jps,jps+")["results"]
    for r, w in zip(rows, want):
        assert r["passed"] and r["solved"] == 3 and r["patches"] == 2 == w["patches"]
        assert r["total_s"] > 0 and r["maps"][0]["patches"] == 2 and "late_us" in r["maps"][0]
    (tmp_path / "bad.scen").write_text("version 2\nheight 3\nwidth 5\ncost 1 octile\n"
                                       "patch d.patch\ncommands\nP 1 0 9 0\n")
    with pytest.raises(pathlab.ParseError, match="bad.scen:7:"):
        pathlab.bench([str(tmp_path / "bad.scen")])


def test_bench_verifies_as_the_cli():
    if not MOVINGAI.is_dir():
        pytest.skip(f"{MOVINGAI} is absent")
    scen = [str(MOVINGAI / "den520d.map.scen"), str(MOVINGAI / "maze512-1-0.map.scen")]
    rows = pathlab.bench(scen, algorithms=["astar", "jps", "subgoal-ch"], max_queries=40)
    want = cli_json("bench", *scen, "--algo", "astar,jps,subgoal-ch", "--max-queries", "40",
                    "--cache", tempfile.mkdtemp())["results"]
    assert [r["algorithm"] for r in rows] == [w["algorithm"] for w in want]
    for r, w in zip(rows, want):
        assert r["passed"] and r["suboptimal"] == 0 and r["illegal"] == 0
        for k in ("queries", "solved", "suboptimal", "mean_expanded"):
            assert r[k] == pytest.approx(w[k]), (r["algorithm"], k)
        assert [m["map"] for m in r["maps"]] == [m["map"] for m in w["maps"]]
    with pytest.raises(ValueError, match="unknown algorithm"):
        pathlab.bench(scen, algorithms=["nope"])
    with pytest.raises(pathlab.ParseError):
        pathlab.bench([str(MAPS / "seed_maze.txt")])
