"""Paths between points in map units from Python: pathlab.find_points, find_corners and the
Pathfinder's methods of the same names (search::Pathfinder::find_points and find_corners),
checked against geometry worked out by hand, find() between cells and the CLI's
`solve --from X.x,Y.y`.

Run by tests/python/run.sh (make test): PYTHONPATH holds the build's python/ folder and
PATHLAB_CLI the built command."""

import json
import math
import os
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest

import pathlab

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
CLI = os.environ.get("PATHLAB_CLI", str(ROOT / "build" / "apps" / "cli" / "pathlab"))
SNAP = 1.0 / 8192  # points are held to 1/4096 of a cell: within half of that of the given ones


def wall_grid():
    """30x20, open but for a wall in column 15 over rows 2..17 (map units x 15..16, y 2..18)."""
    walls = np.zeros((20, 30), dtype=bool)
    walls[2:18, 15] = True
    return pathlab.Grid(walls), walls


def polyline_length(points):
    return float(np.sum(np.hypot(*np.diff(points, axis=0).T)))


def assert_in_free_space(points, walls, samples=400):
    """No point of the polyline lies strictly inside a wall cell (grazing a wall's edge or
    corner is allowed, as in the exact any-angle definition)."""
    h, w = walls.shape
    for a, b in zip(points[:-1], points[1:]):
        for t in np.linspace(0.0, 1.0, samples):
            x, y = a + t * (b - a)
            assert 0 <= x <= w and 0 <= y <= h, (x, y)
            if x == math.floor(x) or y == math.floor(y):
                continue  # on a grid line: edges are judged by the cells on both sides
            assert not walls[int(y), int(x)], ("inside a wall", x, y, a, b)


def test_a_path_between_points_bends_at_the_wall_corners():
    g, walls = wall_grid()
    s, t = (10.3, 4.7), (20.2, 7.9)
    r = pathlab.find_points(g, s, t)
    assert r.status == "found" and r.answered_by == "anyangle-exact" and r.fallback == "none"
    assert r.points.dtype == np.float64 and r.points.shape[1] == 2
    np.testing.assert_allclose(r.points[0], s, atol=SNAP, rtol=0)
    np.testing.assert_allclose(r.points[-1], t, atol=SNAP, rtol=0)
    # Over the wall's top: (15, 2) and (16, 2) are its corners.
    np.testing.assert_allclose(r.points, [s, (15, 2), (16, 2), t], atol=SNAP, rtol=0)
    want = math.dist(s, (15, 2)) + 1 + math.dist((16, 2), t)
    assert r.cost == pytest.approx(want, abs=1e-3)
    assert r.cost == pytest.approx(polyline_length(r.points), rel=1e-12)
    # A free cell under each point.
    assert len(r.path) == len(r.points) and r.path.dtype == np.int32
    for (cx, cy), (px, py) in zip(r.path.tolist(), r.points):
        assert not walls[cy, cx]
        assert cx <= px <= cx + 1 and cy <= py <= cy + 1
    assert r.path[0].tolist() == [10, 4] and r.path[-1].tolist() == [20, 7]


def test_random_points_give_free_paths_whose_cost_is_their_length():
    rng = random.Random(7)
    walls = np.random.default_rng(7).random((24, 32)) < 0.25
    g = pathlab.Grid(walls)
    finder = pathlab.Pathfinder(g, algorithm="anyangle-exact")
    free = np.argwhere(~walls)
    found = 0
    for _ in range(60):
        (ay, ax), (by, bx) = free[rng.randrange(len(free))], free[rng.randrange(len(free))]
        s = (ax + rng.random(), ay + rng.random())
        t = (bx + rng.random(), by + rng.random())
        r = finder.find_points(s, t)
        assert r.status in ("found", "no_path")
        if r.status != "found":
            assert math.isnan(r.cost) and len(r.points) == 0
            continue
        found += 1
        np.testing.assert_allclose(r.points[0], s, atol=SNAP, rtol=0)
        np.testing.assert_allclose(r.points[-1], t, atol=SNAP, rtol=0)
        assert r.cost == pytest.approx(polyline_length(r.points), rel=1e-12)
        assert r.cost >= math.dist(s, t) - 2 * SNAP
        assert_in_free_space(r.points, walls)
        # The module-level function answers the same.
        again = pathlab.find_points(g, s, t)
        np.testing.assert_array_equal(again.points, r.points)
    assert found > 30


def test_points_at_cell_centres_answer_as_find_between_the_cells():
    g = pathlab.load_map(str(MAPS / "seed_maze.txt"))
    s, t = g.start, g.goal
    sc, tc = (s[0] + 0.5, s[1] + 0.5), (t[0] + 0.5, t[1] + 0.5)
    # anyangle-exact: the same shortest path, from its query between points.
    cells = pathlab.find(g, s, t, algorithm="anyangle-exact")
    points = pathlab.find_points(g, sc, tc)
    assert cells.status == points.status == "found"
    assert points.cost == pytest.approx(cells.cost, rel=1e-9)
    np.testing.assert_allclose(points.points, cells.points, atol=SNAP, rtol=0)
    # Any other algorithm takes cell centres: find() between those cells answers, exactly.
    for algo in ("astar", "jps", "theta"):
        want = pathlab.find(g, s, t, algorithm=algo)
        got = pathlab.find_points(g, sc, tc, algorithm=algo)
        assert got.status == want.status and got.cost == want.cost, algo
        assert got.path.tolist() == want.path.tolist(), algo
        np.testing.assert_array_equal(got.points, want.points)
        assert got.answered_by == algo


def test_off_centre_points_need_an_algorithm_that_takes_them():
    g, _ = wall_grid()
    with pytest.raises(ValueError, match=r"astar searches between cell centres.*anyangle-exact"):
        pathlab.find_points(g, (10.3, 4.7), (20.5, 7.5), algorithm="astar")
    with pytest.raises(ValueError, match="anyangle-exact"):
        pathlab.Pathfinder(g, algorithm="theta").find_points((10.5, 4.5), (20.2, 7.5))
    with pytest.raises(ValueError, match="find_corners needs an algorithm"):
        pathlab.find_corners(g, (1, 1), (20, 7), algorithm="astar")


def test_points_outside_free_space_raise_value_error():
    g, _ = wall_grid()
    bad = {
        (15.5, 10.5): "inside a wall",
        (15.5, 10.0): "on the edge between wall cells (15, 9) and (15, 10)",
        (-0.25, 3.0): "left of the map",
        (12.0, 20.5): "below the map",
    }
    for p, why in bad.items():
        with pytest.raises(ValueError, match=r"start \(.*\) is not in free space"):
            pathlab.find_points(g, p, (20.2, 7.9))
        with pytest.raises(ValueError, match=r"goal \(.*\) is not in free space"):
            pathlab.find_points(g, (1.5, 1.5), p)
    # A wall's side touching free space is free space; so is the map's border.
    assert pathlab.find_points(g, (15.0, 10.3), (16.0, 10.3)).status == "found"
    assert pathlab.find_points(g, (0.0, 0.0), (30.0, 20.0)).status == "found"
    for p in [(math.nan, 1.0), (1.0, math.inf)]:
        with pytest.raises(ValueError, match="finite"):
            pathlab.find_points(g, p, (20.2, 7.9))
    for p in [(1.0,), (1.0, 2.0, 3.0), "ab", None, ("x", 1.0)]:
        with pytest.raises(ValueError, match=r"start must be a pair of numbers"):
            pathlab.find_points(g, p, (20.2, 7.9))
    # A radius: the unit's view of the map decides what is free.
    with pytest.raises(ValueError, match="as the unit"):
        pathlab.find_points(g, (14.2, 10.5), (20.2, 7.9), radius=1.0)


def test_points_take_plain_square_maps_only():
    hexg = pathlab.Grid(np.zeros((4, 5), dtype=bool), layout="flat-odd-q")
    with pytest.raises(ValueError, match="plain square map"):
        pathlab.find_points(hexg, (0.5, 0.5), (3.2, 2.7))
    edged = pathlab.Grid(np.zeros((4, 5), dtype=bool))
    edged.set_edge_wall(1, 1, "e")
    with pytest.raises(ValueError, match="plain square map"):
        pathlab.find_corners(edged, (0, 0), (4, 3))
    with pytest.raises(ValueError, match="partial"):
        pathlab.Pathfinder(pathlab.Grid(np.zeros((4, 5), dtype=bool)), algorithm="anyangle-exact",
                           partial=True).find_points((0.5, 0.5), (3.2, 2.7))


def test_corners_are_the_top_left_corners_of_the_cells():
    g, walls = wall_grid()
    r = pathlab.find_corners(g, (10, 4), (20, 8))
    assert r.status == "found"
    np.testing.assert_array_equal(r.points[0], (10, 4))
    np.testing.assert_array_equal(r.points[-1], (20, 8))
    want = math.dist((10, 4), (15, 2)) + 1 + math.dist((16, 2), (20, 8))
    assert r.cost == pytest.approx(want, abs=1e-9)
    assert r.cost == pytest.approx(polyline_length(r.points), rel=1e-12)
    assert_in_free_space(r.points, walls)
    # In the open, straight from corner to corner; the Pathfinder answers the same.
    r = pathlab.Pathfinder(g, algorithm="anyangle-exact").find_corners((1, 1), (9, 19))
    np.testing.assert_array_equal(r.points, [(1, 1), (9, 19)])
    assert r.cost == pytest.approx(math.hypot(8, 18), rel=1e-12)
    with pytest.raises(ValueError, match=r"start \(15, 5\) is on a wall"):
        pathlab.find_corners(g, (15, 5), (1, 1))
    with pytest.raises(ValueError, match="outside"):
        pathlab.find_corners(g, (1, 1), (30, 1))


def test_a_traced_query_between_points():
    g, _ = wall_grid()
    r = pathlab.find_points(g, (10.3, 4.7), (20.2, 7.9), trace=True)
    assert r.trace is not None and len(r.trace) > 0
    assert pathlab.find_points(g, (10.3, 4.7), (20.2, 7.9)).trace is None


def test_points_answer_as_the_cli():
    path = str(MAPS / "seed_maze.txt")
    g = pathlab.load_map(path)
    free = np.argwhere(~g.walls())
    rng = random.Random(3)
    for _ in range(5):
        (ay, ax), (by, bx) = free[rng.randrange(len(free))], free[rng.randrange(len(free))]
        s = (round(ax + rng.uniform(0.05, 0.95), 3), round(ay + rng.uniform(0.05, 0.95), 3))
        t = (round(bx + rng.uniform(0.05, 0.95), 3), round(by + rng.uniform(0.05, 0.95), 3))
        out = subprocess.run([CLI, "solve", path, "--algo", "anyangle-exact", "--from",
                              "%r,%r" % s, "--to", "%r,%r" % t, "--json"],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode in (0, 1), out.stderr
        want = json.loads(out.stdout)
        r = pathlab.find_points(g, s, t)
        assert r.status == want["status"]
        if r.status == "found":
            assert r.cost == pytest.approx(want["cost"], rel=1e-12)
            np.testing.assert_allclose(r.points, np.array(want["points"], dtype=float))
            assert r.path.tolist() == want["path"]


def test_stubs_name_the_point_queries():
    stubs = Path(pathlab.__file__).with_name("__init__.pyi").read_text()
    assert "def find_points(" in stubs and "def find_corners(" in stubs
    assert "find_points" in pathlab.__all__ and "find_corners" in pathlab.__all__
    assert "map units" in pathlab.find_points.__doc__
