"""The Python module on every map a game has (shared docs/DESIGN.md, "Every map a game has"):
hex grids, walls on cell edges, layered maps with links, Tiled maps.

Every answer is checked against a small Dijkstra written here over the definitions of shared
docs/ALGORITHMS.md ("Hex grids", "Walls on cell edges", "Layered maps"), not over anything the
library computes: hex neighbours from axial coordinates, thin walls per diagonal rule, links.
On layered maps cells come in and out as (x, y, layer), y within the floor, as the CLI's JSON.

Run by tests/python/run.sh (make test): PYTHONPATH holds the build's python/ folder and
PATHLAB_CLI the built command."""

import heapq
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
TILED = ROOT / "tests" / "io" / "data" / "tiled"
CLI = os.environ.get("PATHLAB_CLI", str(ROOT / "build" / "apps" / "cli" / "pathlab"))
SQRT2 = math.sqrt(2.0)
HEX_LAYOUTS = ["pointy-odd-r", "pointy-even-r", "flat-odd-q", "flat-even-q"]
DIAGONALS = ["never", "no-corner-cut", "one-corner", "always"]
# The optimal algorithms: those made for plain square maps answer through A* (fallback
# "map-kind"), so every one of them must find the least cost on every map kind.
OPTIMAL = ["dijkstra", "astar", "biastar", "idastar", "jps", "jps+", "subgoal", "subgoal-ch"]
PLAIN_ONLY = {"jps", "jps+", "subgoal", "subgoal-ch"}


# --- the reference: the definitions, written out -----------------------------------------------

# The six axial neighbours in the order of the hex direction codes 0..5.
HEX_DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
# The square direction codes 0..7: E, SE, S, SW, W, NW, N, NE.
SQUARE_DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
SIDES = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}


def to_axial(layout, x, y):
    if layout == "pointy-odd-r":
        return x - (y - (y & 1)) // 2, y
    if layout == "pointy-even-r":
        return x - (y + (y & 1)) // 2, y
    if layout == "flat-odd-q":
        return x, y - (x - (x & 1)) // 2
    return x, y - (x + (x & 1)) // 2  # flat-even-q


def from_axial(layout, q, r):
    if layout == "pointy-odd-r":
        return q + (r - (r & 1)) // 2, r
    if layout == "pointy-even-r":
        return q + (r + (r & 1)) // 2, r
    if layout == "flat-odd-q":
        return q, r + (q - (q & 1)) // 2
    return q, r + (q + (q & 1)) // 2  # flat-even-q


class Model:
    """A map as the definitions see it: floors of blocked cells and terrain costs, a layout,
    thin walls (unordered pairs of 4-adjacent cells) and links. States are (x, y, layer)."""

    def __init__(self, width, height, layers=1, layout="square"):
        self.w, self.h, self.layers, self.layout = width, height, layers, layout
        self.blocked = np.zeros((layers, height, width), dtype=bool)
        self.cost = np.ones((layers, height, width))
        self.edges = set()
        self.links = []  # (from, to, cost, oneway)

    def plain(self):
        """A plain square map (no hex, thin walls, floors or links): none of this file's kinds."""
        return self.layout == "square" and self.layers == 1 and not self.edges and not self.links

    def inside(self, c):
        x, y, l = c
        return 0 <= x < self.w and 0 <= y < self.h and 0 <= l < self.layers

    def free(self, c):
        return self.inside(c) and not self.blocked[c[2], c[1], c[0]]

    def enter(self, c):
        return float(self.cost[c[2], c[1], c[0]])

    def open_edge(self, a, b):
        return frozenset((a, b)) not in self.edges

    def straight(self, a, b):
        return self.free(b) and self.open_edge(a, b)

    def moves(self, a, diagonal="no-corner-cut"):
        """(b, cost) of every legal move from a: grid moves by the definitions, then links."""
        x, y, l = a
        out = []
        if not self.free(a):
            return out
        if self.layout != "square":
            q, r = to_axial(self.layout, x, y)
            for dq, dr in HEX_DIRS:
                bx, by = from_axial(self.layout, q + dq, r + dr)
                b = (bx, by, l)
                if self.free(b):
                    out.append((b, self.enter(b)))
        else:
            for dx, dy in SQUARE_DIRS:
                b = (x + dx, y + dy, l)
                if not self.free(b):
                    continue
                if dx == 0 or dy == 0:
                    if self.open_edge(a, b):
                        out.append((b, self.enter(b)))
                    continue
                if diagonal == "never":
                    continue
                p, q = (x + dx, y, l), (x, y + dy, l)
                via_p = self.straight(a, p) and self.straight(p, b)
                via_q = self.straight(a, q) and self.straight(q, b)
                if diagonal == "no-corner-cut":
                    legal = via_p and via_q
                elif diagonal == "one-corner":
                    legal = via_p or via_q
                else:  # always: both cells free, none of the four edges at the corner blocked
                    legal = all(self.open_edge(*e) for e in ((a, p), (a, q), (p, b), (q, b)))
                if legal:
                    out.append((b, SQRT2 * self.enter(b)))
        for f, t, c, oneway in self.links:
            if f == a and self.free(t):
                out.append((t, c))
            if not oneway and t == a and self.free(f):
                out.append((f, c))
        return out

    def cells(self):
        return [(x, y, l) for l in range(self.layers) for y in range(self.h) for x in range(self.w)]

    def dijkstra(self, sources, diagonal="no-corner-cut", reverse=False):
        """Least costs from the sources (to them with reverse=True) over every legal move."""
        arcs = {}
        if reverse:
            for a in self.cells():
                for b, c in self.moves(a, diagonal):
                    arcs.setdefault(b, []).append((a, c))
        dist = {s: 0.0 for s in sources}
        heap = [(0.0, s) for s in sources]
        while heap:
            d, a = heapq.heappop(heap)
            if d > dist[a]:
                continue
            for b, c in arcs.get(a, []) if reverse else self.moves(a, diagonal):
                if d + c < dist.get(b, math.inf):
                    dist[b] = d + c
                    heapq.heappush(heap, (d + c, b))
        return dist

    def grid(self):
        """The same map as a pathlab.Grid (3-D arrays for several floors)."""
        walls, cost = self.blocked, self.cost
        if self.layers == 1:
            walls, cost = walls[0], cost[0]
        g = pathlab.Grid(walls, costs=cost, layout=self.layout)
        for e in sorted(self.edges):
            a, b = sorted(e)
            side = "e" if b[0] == a[0] + 1 else "s"
            g.set_edge_wall(a[0], a[1], side, layer=a[2])
        for f, t, c, oneway in self.links:
            g.add_link(self.api(f), self.api(t), cost=c, oneway=oneway)
        return g

    def api(self, c):
        """A cell as the module takes and gives it: (x, y), or (x, y, layer) with floors."""
        return c if self.layers > 1 else c[:2]

    def state(self, row):
        """A row of a returned array or tuple as a state (x, y, layer)."""
        row = tuple(int(v) for v in row)
        return row if len(row) == 3 else row + (0,)


def random_model(rng, width, height, layers=1, layout="square", walls=0.2, terrain=0.2,
                 edges=0.0, links=0):
    m = Model(width, height, layers, layout)
    for c in m.cells():
        x, y, l = c
        if rng.random() < walls:
            m.blocked[l, y, x] = True
        elif rng.random() < terrain:
            m.cost[l, y, x] = rng.choice([1.5, 2.0, 3.0])
    if edges:
        for c in m.cells():
            x, y, l = c
            for b in ((x + 1, y, l), (x, y + 1, l)):
                if m.inside(b) and rng.random() < edges:
                    m.edges.add(frozenset((c, b)))
    cells = m.cells()
    for _ in range(links):
        f, t = rng.choice(cells), rng.choice(cells)
        if f != t:
            m.links.append((f, t, rng.choice([0.5, 1.0, 2.5, 7.0]), rng.random() < 0.4))
    return m


def path_cost(m, path, diagonal="no-corner-cut"):
    """The cost of a returned path under the definitions; fails on an illegal move."""
    states = [m.state(r) for r in path]
    total = 0.0
    for a, b in zip(states, states[1:]):
        steps = [c for t, c in m.moves(a, diagonal) if t == b]
        assert steps, ("illegal move", a, b)
        total += min(steps)
    return total


def free_pairs(rng, m, n):
    free = [c for c in m.cells() if m.free(c)]
    return [(rng.choice(free), rng.choice(free)) for _ in range(n)] if len(free) > 1 else []


def check_find(m, g, rng, algorithms=OPTIMAL, diagonal="no-corner-cut", queries=6):
    for s, t in free_pairs(rng, m, queries):
        want = m.dijkstra([s], diagonal).get(t, math.inf)
        for algo in algorithms:
            r = pathlab.find(g, m.api(s), m.api(t), algorithm=algo, diagonal=diagonal)
            if math.isinf(want):
                assert r.status == "no_path", (algo, s, t, r)
                continue
            assert r.status == "found", (algo, s, t)
            assert r.cost == pytest.approx(want, rel=1e-6, abs=1e-6), (algo, s, t, diagonal)
            assert r.path.shape[1] == (3 if m.layers > 1 else 2)
            assert m.state(r.path[0]) == s and m.state(r.path[-1]) == t
            assert path_cost(m, r.path, diagonal) == pytest.approx(want, rel=1e-6, abs=1e-6)
            if m.plain():
                continue
            if algo in PLAIN_ONLY:
                assert (r.fallback, r.answered_by) == ("map-kind", "astar"), algo
            else:
                assert (r.fallback, r.answered_by) == ("none", algo), algo


# --- hex grids ----------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", HEX_LAYOUTS)
def test_hex_find_equals_dijkstra_over_axial_neighbours(layout):
    rng = random.Random(HEX_LAYOUTS.index(layout))
    for trial in range(6):
        m = random_model(rng, rng.randint(2, 9), rng.randint(2, 8), layout=layout)
        g = m.grid()
        assert g.layout == layout and g.layers == 1
        check_find(m, g, rng)


def test_hex_neighbours_of_one_cell_are_the_six_axial_ones():
    # On an open map every hex costs its hex distance: a path of k moves, each to an axial
    # neighbour (|dq| + |dr| + |dq + dr|) / 2 = 1.
    for layout in HEX_LAYOUTS:
        g = pathlab.Grid(np.zeros((7, 7), dtype=bool), layout=layout)
        for x in range(7):
            for y in range(7):
                q0, r0 = to_axial(layout, 3, 3)
                q1, r1 = to_axial(layout, x, y)
                dq, dr = q1 - q0, r1 - r0
                r = pathlab.find(g, (3, 3), (x, y))
                assert r.cost == (abs(dq) + abs(dr) + abs(dq + dr)) // 2, (layout, x, y)
                for a, b in zip(r.path, r.path[1:]):
                    qa, ra = to_axial(layout, *map(int, a))
                    qb, rb = to_axial(layout, *map(int, b))
                    assert (qb - qa, rb - ra) in HEX_DIRS


def test_hex_flow_field_codes_are_axial_directions_and_distances_dijkstra():
    rng = random.Random(7)
    for layout in HEX_LAYOUTS:
        m = random_model(rng, 8, 7, layout=layout, walls=0.25)
        g = m.grid()
        goal = next(c for c in m.cells() if m.free(c))
        f = pathlab.flow_field(g, [m.api(goal)])
        dist = m.dijkstra([goal], reverse=True)
        assert f.distance.shape == (7, 8) and f.direction.shape == (7, 8)
        for c in m.cells():
            x, y, _ = c
            d, code = f.distance[y, x], int(f.direction[y, x])
            assert d == pytest.approx(dist.get(c, math.inf)), (layout, c)
            if c == goal or math.isinf(d):
                assert code == -1 and f.next((x, y)) is None
                continue
            assert 0 <= code <= 5
            q, r = to_axial(layout, x, y)
            n = from_axial(layout, q + HEX_DIRS[code][0], r + HEX_DIRS[code][1])
            assert f.next((x, y)) == n
            step = m.enter(n + (0,))
            assert d == pytest.approx(step + dist[n + (0,)])


def test_hex_reach_equals_dijkstra():
    rng = random.Random(11)
    for layout in HEX_LAYOUTS:
        m = random_model(rng, 9, 7, layout=layout)
        g = m.grid()
        s = next(c for c in m.cells() if m.free(c))
        cells, costs = pathlab.reach(g, m.api(s), 4.0)
        got = {m.state(c): float(v) for c, v in zip(cells, costs)}
        want = {c: d for c, d in m.dijkstra([s]).items() if d <= 4.0 + 1e-9}
        assert got.keys() == want.keys()
        for c in want:
            assert got[c] == pytest.approx(want[c])


def test_hex_radius_is_a_whole_number_of_hexes():
    g = pathlab.Grid(np.zeros((6, 6), dtype=bool), layout="pointy-odd-r")
    assert pathlab.find(g, (2, 2), (3, 3), radius=1).status == "found"
    for call in (
        lambda: pathlab.find(g, (2, 2), (3, 3), radius=0.5),
        lambda: pathlab.Pathfinder(g, radius=1.5).find((2, 2), (3, 3)),
        lambda: pathlab.find_many(g, [[2, 2]], [[3, 3]], radius=0.5),
        lambda: pathlab.flow_field(g, [(2, 2)], radius=2.5),
        lambda: pathlab.reach(g, (2, 2), 3.0, radius=0.5),
    ):
        with pytest.raises(ValueError, match="whole number of hexes"):
            call()


# --- walls on cell edges ------------------------------------------------------------------------


@pytest.mark.parametrize("diagonal", DIAGONALS)
def test_edge_walls_find_equals_dijkstra_under_every_diagonal_rule(diagonal):
    rng = random.Random(DIAGONALS.index(diagonal) + 100)
    for trial in range(8):
        m = random_model(rng, rng.randint(2, 9), rng.randint(2, 8), walls=0.1, edges=0.3)
        g = m.grid()
        check_find(m, g, rng, diagonal=diagonal)


def test_edge_walls_theta_honours_them():
    # Theta* answers itself on a map with only edge walls: its path never crosses one.
    m = Model(6, 6)
    for y in range(0, 5):
        m.edges.add(frozenset(((2, y, 0), (3, y, 0))))
    g = m.grid()
    r = pathlab.find(g, (0, 0), (5, 0), algorithm="theta")
    assert (r.status, r.fallback, r.answered_by) == ("found", "none", "theta")
    assert r.cost >= m.dijkstra([(0, 0, 0)])[(2, 5, 0)]  # around the fence's end
    r = pathlab.find(g, (0, 0), (5, 0), algorithm="anyangle-exact")
    assert (r.fallback, r.answered_by) == ("map-kind", "theta")


def test_edge_wall_setters_edits_and_the_edge_list():
    g = pathlab.Grid(np.zeros((4, 5), dtype=bool))
    assert g.edge_walls() == [] and not g.edge_wall(1, 1, "e")
    g.set_edge_wall(1, 1, "e")
    assert g.edge_wall(1, 1, "e") and g.edge_wall(2, 1, "w")  # one edge, both sides
    assert g.edge_walls() == [(1, 1, "e")]
    assert pathlab.find(g, (1, 1), (2, 1), diagonal="never").cost == 3
    g.set_edge_wall(2, 1, "w", blocked=False)
    assert g.edge_walls() == [] and pathlab.find(g, (1, 1), (2, 1)).cost == 1
    g.set_edge_wall(0, 2, "south", x2=4)  # a fence under row 2
    assert g.edge_walls() == [(x, 2, "s") for x in range(5)]
    g.edit("open-n:1,3:3,3")
    assert g.edge_walls() == [(0, 2, "s"), (4, 2, "s")]
    g.edit("wall-w:0,0")  # an edge to the outside: kept, blocks nothing more
    assert (0, 0, "w") in g.edge_walls()
    assert "edge walls" in repr(g)
    # Walls and edits of cells keep the edge walls.
    g.set_walls(2, 2)
    assert g.walls()[2, 2] and g.edge_wall(0, 2, "s")


def test_walls_on_hex_edges_are_named_by_direction():
    # Pointy-odd-r: (2, 2) is on an even row; its direction-0 neighbour is (3, 2), whose
    # direction 3 is the same edge. A fence under row 2 (directions 4 and 5 of every hex) makes
    # the way down go round its end.
    g = pathlab.Grid(np.zeros((6, 8), dtype=bool), layout="pointy-odd-r")
    g.set_edge_wall(2, 2, "0")
    assert g.edge_wall(2, 2, "0") and g.edge_wall(3, 2, "3")
    assert g.edge_walls() == [(2, 2, "0")]
    assert pathlab.find(g, (2, 2), (3, 2)).cost == 2  # round, through a hex both share
    g.set_edge_wall(3, 2, "3", blocked=False)
    assert g.edge_walls() == []
    before = pathlab.find(g, (3, 0), (3, 5)).cost
    for x in range(7):
        g.edit("wall-4:%d,2" % x)
        g.edit("wall-5:%d,2" % x)
    after = pathlab.find(g, (3, 0), (3, 5))
    assert after.cost > before
    assert any(c[1] == 2 and c[0] == 7 for c in after.path)  # round the fence's open end
    assert len(g.edge_walls()) == 14


# --- layered maps -------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["square"] + HEX_LAYOUTS)
def test_layered_find_equals_dijkstra_over_floors_and_links(layout):
    rng = random.Random(50 + (["square"] + HEX_LAYOUTS).index(layout))
    for trial in range(6):
        m = random_model(rng, rng.randint(2, 7), rng.randint(2, 6), layers=rng.randint(2, 3),
                         layout=layout, links=rng.randint(1, 6),
                         edges=0.2 if layout == "square" else 0.0)
        g = m.grid()
        assert (g.layers, g.height, g.layer_height, g.width) == (m.layers, m.h, m.h, m.w)
        assert g.walls().shape == (m.layers, m.h, m.w)
        assert np.array_equal(g.walls(), m.blocked)
        check_find(m, g, rng, queries=8)


def test_layered_single_link_path_comes_back_as_x_y_layer():
    g = pathlab.Grid.layered(5, 4, 2)
    g.set_walls(0, 1, 3, 1, layer=1)  # a wall on floor 1 only
    g.add_link((4, 3), (4, 3, 1), cost=2.0)
    r = pathlab.find(g, (0, 0), (0, 3, 1))
    assert r.status == "found"
    assert r.path.shape == (len(r.path), 3) and r.path.dtype == np.int32
    assert tuple(r.path[0]) == (0, 0, 0) and tuple(r.path[-1]) == (0, 3, 1)
    i = next(i for i in range(len(r.path) - 1) if r.path[i][2] != r.path[i + 1][2])
    assert (tuple(r.path[i]), tuple(r.path[i + 1])) == ((4, 3, 0), (4, 3, 1))
    assert r.cost == pytest.approx(3 * SQRT2 + 1 + 2.0 + 4)
    assert r.points.shape == (len(r.path), 3)
    assert tuple(r.points[-1]) == (0.5, 3.5, 1.0)
    # A one-way link works one way.
    g.clear_links()
    assert pathlab.find(g, (0, 0), (0, 3, 1)).status == "no_path"
    g.add_link((4, 3, 1), (4, 3, 0), cost=1.0, oneway=True)
    assert pathlab.find(g, (0, 0), (0, 3, 1)).status == "no_path"
    assert pathlab.find(g, (0, 3, 1), (0, 0)).status == "found"
    assert g.links == [{"from": (4, 3, 1), "to": (4, 3, 0), "cost": 1.0, "oneway": True}]
    assert g.remove_links((4, 3, 1), (4, 3, 0)) == 1 and g.links == []


def test_layered_partial_trace_smooth_and_markers_use_floors():
    g = pathlab.Grid.layered(4, 3, 2)
    g.set_walls(0, 0, 3, 2, layer=1)
    g.set_walls(2, 1, layer=1, blocked=False)
    r = pathlab.find(g, (0, 0, 0), (2, 1, 1), partial=True, trace=True, smooth="greedy")
    assert r.status == "no_path"
    assert len(r.partial["reached"]) == 3 and r.partial["path"].shape[1] == 3
    assert r.trace.cell.shape[1] == 3 and r.trace.expanded().shape == (2, 3, 4)
    assert (r.trace.expanded()[1] == -1).all()
    g.add_link((3, 2, 0), (2, 1, 1), cost=1.0)
    r = pathlab.find(g, (0, 0, 0), (2, 1, 1), trace=True, smooth="greedy")
    assert r.status == "found" and r.smoothed["path"].shape[1] == 3
    assert r.trace.expanded()[1, 1, 2] >= 0


@pytest.mark.parametrize("layout", ["square", "flat-odd-q"])
def test_layered_flow_field_and_reach_equal_dijkstra(layout):
    rng = random.Random(3 if layout == "square" else 4)
    link_code = 8 if layout == "square" else 6
    for trial in range(4):
        m = random_model(rng, 6, 5, layers=3, layout=layout, links=5)
        g = m.grid()
        goals = [c for c in m.cells() if m.free(c)][:2]
        f = pathlab.flow_field(g, [m.api(c) for c in goals])
        assert f.goals == [m.api(c) for c in goals]
        assert f.distance.shape == (3, 5, 6) and f.direction.shape == (3, 5, 6)
        dist = m.dijkstra(goals, reverse=True)
        for c in m.cells():
            x, y, l = c
            d, code = f.distance[l, y, x], int(f.direction[l, y, x])
            assert d == pytest.approx(dist.get(c, math.inf)), c
            if math.isinf(d) or c in goals:
                assert f.next(c) is None
                continue
            n = m.state(f.next(c))
            steps = [s for t, s in m.moves(c) if t == n]
            assert steps and d == pytest.approx(min(steps) + dist[n]), (c, n)
            if code == link_code:
                assert n[2] != l or any(c in (a, b) and n in (a, b) for a, b, _, _ in m.links)
            elif layout == "square":
                assert n == (x + SQUARE_DIRS[code][0], y + SQUARE_DIRS[code][1], l)
        s = goals[0]
        cells, costs = pathlab.reach(g, s, 5.0)
        assert cells.shape[1] == 3
        got = {m.state(c): float(v) for c, v in zip(cells, costs)}
        want = {c: d for c, d in m.dijkstra([s]).items() if d <= 5.0 + 1e-9}
        assert got.keys() == want.keys()


def test_layered_find_many_and_pathfinder_take_x_y_layer():
    rng = random.Random(5)
    m = random_model(rng, 7, 6, layers=2, links=4)
    g = m.grid()
    pairs = free_pairs(rng, m, 20)
    starts = np.array([s for s, _ in pairs])
    goals = np.array([t for _, t in pairs])
    costs = pathlab.find_many(g, starts, goals, algorithm="astar", threads=2)
    finder = pathlab.Pathfinder(g, algorithm="jps")
    for (s, t), c in zip(pairs, costs):
        want = m.dijkstra([s]).get(t, math.inf)
        assert (math.isnan(c) and math.isinf(want)) or c == pytest.approx(want)
        r = finder.find(s, t)
        assert r.status == ("no_path" if math.isinf(want) else "found")
    # (x, y) alone is floor 0, in find_many too.
    floor0 = [(s, t) for s, t in pairs if s[2] == 0 and t[2] == 0]
    if floor0:
        two = pathlab.find_many(g, np.array([s[:2] for s, _ in floor0]),
                                np.array([t[:2] for _, t in floor0]))
        three = pathlab.find_many(g, np.array([s for s, _ in floor0]),
                                  np.array([t for _, t in floor0]))
        assert np.array_equal(np.isnan(two), np.isnan(three))
        assert np.allclose(two[~np.isnan(two)], three[~np.isnan(three)])


def test_layered_edits_name_a_floor():
    g = pathlab.Grid.layered(4, 3, 3)
    g.edit("wall:2:1,1:2,2")
    g.edit("terrain=3:1:0,0")
    g.edit("class=T:0:3,0")
    g.set_class(0, 2, "S", layer=2)
    g.set_terrain(1, 0, 2.5, layer=0)
    w = g.walls()
    assert w.shape == (3, 3, 4)
    assert w[2, 1:3, 1:3].all() and w.sum() == 5  # the four walls and the trees on floor 0
    assert w[0, 0, 3]
    assert g.costs()[1, 0, 0] == 3 and g.costs()[0, 0, 1] == 2.5
    assert chr(g.classes()[2, 2, 0]) == "S"
    g.edit("wall-e:1:0,0")
    assert g.edge_wall(0, 0, "e", layer=1) and not g.edge_wall(0, 0, "e")
    assert g.edge_walls() == [(0, 0, 1, "e")]
    assert "3 floors" in repr(g)


def test_layered_grid_from_3d_arrays_and_to_them():
    walls = np.zeros((2, 3, 4), dtype=bool)
    walls[1, 0, :] = True
    costs = np.ones((2, 3, 4))
    costs[0, 2, 3] = 4.0
    classes = np.full((2, 3, 4), ord("."), dtype=np.uint8)
    classes[0, 1, 1] = ord("S")
    g = pathlab.Grid(walls, costs=costs, classes=classes)
    assert (g.layers, g.width, g.height) == (2, 4, 3)
    assert np.array_equal(g.walls(), walls)
    assert g.costs()[0, 2, 3] == 4.0 and np.isinf(g.costs()[1, 0, 2])
    assert chr(g.classes()[0, 1, 1]) == "S"
    # A single floor is a plain grid.
    one = pathlab.Grid(walls[:1])
    assert one.layers == 1 and one.walls().shape == (3, 4)


def test_layered_answers_as_the_cli():
    # Cells are written [x, y, layer] by `pathlab solve --json`; the module gives the same.
    path = str(TILED / "floors.tmx")
    out = subprocess.run([CLI, "solve", path, "--from", "0:0,0", "--to", "1:0,0", "--algo",
                          "astar,jps", "--json"], capture_output=True, text=True, timeout=60)
    if out.returncode not in (0, 1) or "results" not in out.stdout:
        pytest.skip("the command does not read layered maps: " + out.stderr[-200:])
    g = pathlab.load_map(path)
    for want in json.loads(out.stdout)["results"]:
        r = pathlab.find(g, (0, 0, 0), (0, 0, 1), algorithm=want["algorithm"])
        assert r.path.tolist() == want["path"]
        assert r.cost == pytest.approx(want["cost"])
        assert (r.fallback, r.answered_by) == (want["fallback"], want["answered_by"])


# --- Tiled maps and load_map --------------------------------------------------------------------

BASE_CLASSES = ["..@...", ".S...x", "W.@.T.", "...@..", "....@."]


@pytest.mark.parametrize("name", sorted(p.name for p in TILED.glob("*.tmx")))
def test_tiled_tmx_loads_as_its_tmj_export(name):
    a = pathlab.load_map(str(TILED / name))
    b = pathlab.load_map(str(TILED / name.replace(".tmx", ".tmj")))
    assert (a.width, a.height, a.layers, a.layout) == (b.width, b.height, b.layers, b.layout)
    for get in (lambda g: g.walls(), lambda g: g.costs(), lambda g: g.classes()):
        assert np.array_equal(get(a), get(b))
    assert a.links == b.links and a.edge_walls() == b.edge_walls()
    assert (a.start, a.goal) == (b.start, b.goal)


@pytest.mark.parametrize("name", ["ortho_csv", "ortho_base64", "ortho_zlib", "ortho_gzip",
                                  "ortho_zstd", "isometric", "hex_pointy_odd"])
def test_tiled_cells_say_what_they_are(name):
    g = pathlab.load_map(str(TILED / (name + ".tmx")))
    assert (g.width, g.height) == (6, 5)
    classes = ["".join(chr(c) for c in row) for row in g.classes()]
    assert classes == BASE_CLASSES
    costs = g.costs()
    assert costs[0, 4] == 3.5 and costs[1, 1] == 2.0 and costs[4, 1] == 3.5
    if name.startswith("hex"):
        assert (g.start, g.goal) == ((1, 1), (4, 3))
    else:
        assert (g.start, g.goal) == ((0, 0), (5, 4))


def test_tiled_hex_layouts_and_their_searches():
    for name, layout in [("hex_pointy_odd", "pointy-odd-r"), ("hex_pointy_even", "pointy-even-r"),
                         ("hex_flat_odd", "flat-odd-q"), ("hex_flat_even", "flat-even-q")]:
        g = pathlab.load_map(str(TILED / (name + ".tmx")))
        assert g.layout == layout
        m = Model(6, 5, layout=layout)
        m.blocked[0] = g.walls()
        m.cost[0] = np.where(g.walls(), 1.0, g.costs())
        want = m.dijkstra([(1, 1, 0)])[(4, 3, 0)]
        for algo in ("astar", "jps", "subgoal-ch"):
            r = pathlab.find(g, g.start, g.goal, algorithm=algo)
            assert r.cost == pytest.approx(want), (name, algo)
        # The same cells read as squares.
        sq = pathlab.load_map(str(TILED / (name + ".tmx")), layout="square")
        assert sq.layout == "square" and np.array_equal(sq.walls(), g.walls())


def test_tiled_floors_and_links():
    g = pathlab.load_map(str(TILED / "floors.tmx"))
    assert (g.layers, g.width, g.height, g.layer_height) == (2, 4, 3, 3)
    assert (g.start, g.goal) == ((0, 0, 0), (0, 0, 1))
    assert g.links == [
        {"from": (3, 2, 0), "to": (3, 2, 1), "cost": 2.0, "oneway": False},
        {"from": (1, 1, 1), "to": (0, 2, 0), "cost": 1.5, "oneway": True},
    ]
    m = Model(4, 3, layers=2)
    m.blocked = g.walls()
    m.links = [((3, 2, 0), (3, 2, 1), 2.0, False), ((1, 1, 1), (0, 2, 0), 1.5, True)]
    for s, t in [((0, 0, 0), (0, 0, 1)), ((0, 0, 1), (0, 0, 0)), ((2, 1, 1), (0, 2, 0))]:
        r = pathlab.find(g, s, t)
        assert r.cost == pytest.approx(m.dijkstra([s])[t])
        assert path_cost(m, r.path) == pytest.approx(r.cost)


def test_tiled_thin_walls():
    g = pathlab.load_map(str(TILED / "thin_walls.tmx"))
    walls = g.edge_walls()
    assert len(walls) == 11 and (1, 0, "e") in walls
    m = Model(g.width, g.height)
    m.blocked[0] = g.walls()
    for x, y, side in walls:
        dx, dy = SIDES[side]
        m.edges.add(frozenset(((x, y, 0), (x + dx, y + dy, 0))))
    rng = random.Random(9)
    check_find(m, g, rng, algorithms=["astar", "jps"], queries=10)
    with pytest.raises(ValueError, match="square layout"):
        pathlab.load_map(str(TILED / "thin_walls.tmx"), layout="pointy-odd-r")


def test_load_map_layout_and_layered_json(tmp_path):
    (tmp_path / "f0.map").write_text("type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n")
    (tmp_path / "f1.map").write_text("type octile\nheight 3\nwidth 4\nmap\n@...\n....\n...@\n")
    hexmap = pathlab.load_map(str(tmp_path / "f0.map"), layout="flat-odd-q")
    assert hexmap.layout == "flat-odd-q" and hexmap.layers == 1
    spec = {
        "layers": [{"map": "f0.map"}, {"map": "f1.map"}],
        "links": [{"from": [0, 3, 0], "to": [1, 3, 0], "cost": 2, "oneway": False},
                  {"from": [1, 0, 2], "to": [0, 0, 2], "cost": 0.5, "oneway": True}],
        "layout": "square",
    }
    (tmp_path / "tower.json").write_text(json.dumps(spec))
    g = pathlab.load_map(str(tmp_path / "tower.json"))
    assert (g.layers, g.width, g.height) == (2, 4, 3)
    assert g.links[0] == {"from": (3, 0, 0), "to": (3, 0, 1), "cost": 2.0, "oneway": False}
    assert g.walls()[1, 0, 0] and g.walls()[0, 1, 1] and not g.walls()[0, 1, 0]
    r = pathlab.find(g, (0, 0), (1, 2, 1))
    assert r.status == "found" and tuple(r.path[-1]) == (1, 2, 1)
    assert pathlab.load_map(str(tmp_path / "tower.json"), layout="pointy-odd-r").layout == \
        "pointy-odd-r"
    (tmp_path / "bad.json").write_text(json.dumps({"layers": [{"map": "missing.map"}]}))
    with pytest.raises(ValueError):
        pathlab.load_map(str(tmp_path / "bad.json"))


def test_layout_property_and_constructor():
    g = pathlab.Grid(np.zeros((5, 5), dtype=bool))
    assert g.layout == "square"
    assert pathlab.find(g, (0, 0), (4, 4)).cost == pytest.approx(4 * SQRT2)
    g.layout = "pointy-even-r"
    assert g.layout == "pointy-even-r" and "pointy-even-r" in repr(g)
    m = Model(5, 5, layout="pointy-even-r")
    assert pathlab.find(g, (0, 0), (4, 4)).cost == m.dijkstra([(0, 0, 0)])[(4, 4, 0)]
    g.layout = "square"
    assert pathlab.find(g, (0, 0), (4, 4)).cost == pytest.approx(4 * SQRT2)
    assert pathlab.Grid.layered(3, 3, 2, layout="flat-even-q").layout == "flat-even-q"


# --- every error raises ValueError with the reason ----------------------------------------------


def test_map_kind_errors_raise_value_error():
    flat = pathlab.Grid(np.zeros((4, 5), dtype=bool))
    hexg = pathlab.Grid(np.zeros((4, 5), dtype=bool), layout="pointy-odd-r")
    tower = pathlab.Grid.layered(5, 4, 3)
    fenced = pathlab.Grid(np.zeros((4, 5), dtype=bool))
    fenced.set_edge_wall(1, 1, "e")
    cases = [
        # floors and rows
        (lambda: pathlab.find(tower, (0, 0, 3), (1, 1)), "floor 3 is not one of the map's 3"),
        (lambda: pathlab.find(tower, (0, 0, -1), (1, 1)), "floor -1"),
        (lambda: pathlab.find(tower, (0, 0), (1, 4)), "row 4 is outside floor 0 (4 rows)"),
        (lambda: pathlab.find(tower, (0, 0), (1, 9, 1)), "row 9 is outside floor 1"),
        (lambda: pathlab.find(tower, (0, 0), (7, 1, 1)), "(7, 1, 1) is outside the 5x4 map"),
        (lambda: pathlab.find(flat, (0, 0, 1), (1, 1)), "floor 1 is not one of the map's 1"),
        (lambda: pathlab.find(tower, (0, 0, 0, 0), (1, 1)), "triple (x, y, layer)"),
        (lambda: pathlab.find(tower, (0, 0, 0.5), (1, 1)), "triple (x, y, layer)"),
        (lambda: pathlab.reach(tower, (0, 5, 2), 3.0), "row 5 is outside floor 2"),
        (lambda: pathlab.flow_field(tower, [(0, 0, 4)]), "floor 4"),
        (lambda: pathlab.find_many(tower, [[0, 0, 0]], [[1, 1, 5]]), "goals[0] (1, 1, 5): floor 5"),
        (lambda: pathlab.find_many(tower, [[0, 7]], [[1, 1]]), "starts[0] (0, 7): row 7"),
        (lambda: pathlab.Pathfinder(tower).find((0, 0, 9), (1, 1)), "floor 9"),
        (lambda: pathlab.flow_field(tower, [(0, 0)]).next((0, 0, 3)), "floor 3"),
        (lambda: pathlab.flow_field(tower, [(0, 0)]).next((9, 0, 1)), "outside"),
        (lambda: tower.set_walls(0, 0, layer=3), "floor 3"),
        (lambda: tower.set_walls(0, 0, 4, 4, layer=1), "row 4 is outside floor 1"),
        (lambda: tower.set_walls(0, 0, 5, 1, layer=1), "column 5 is outside the map"),
        (lambda: tower.set_terrain(0, 9, 2.0), "row 9"),
        (lambda: tower.set_class(0, 0, "T", layer=-2), "floor -2"),
        (lambda: tower.edit("wall:3:0,0"), "floor 3"),
        (lambda: tower.edit("wall:x:0,0"), "is not a floor"),
        (lambda: tower.edit("wall:1:0,4"), "row 4 is outside floor 1"),
        (lambda: tower.edge_wall(0, 0, "n", layer=5), "floor 5"),
        (lambda: flat.edge_wall(9, 0, "n"), "outside the map"),
        (lambda: pathlab.Grid.layered(0, 3, 2), "must be >= 1"),
        (lambda: pathlab.Grid.layered(3, 3, 0), "must be >= 1"),
        (lambda: pathlab.Grid.layered(1 << 15, 1 << 15, 4), "Grid.layered"),
        (lambda: pathlab.Grid(np.zeros((2, 3, 4, 5), dtype=bool)), "3-D array"),
        (lambda: pathlab.Grid(np.zeros((2, 3, 4), dtype=bool), costs=np.ones((3, 4))),
         "costs has shape"),
        (lambda: pathlab.Grid(np.zeros((2, 3, 4), dtype=bool), costs=np.zeros((2, 3, 4))),
         "costs[0, 0, 0]"),
        # hex layouts and edge walls
        (lambda: hexg.set_edge_wall(1, 1, "e"), "direction 0..5"),
        (lambda: hexg.edit("wall-s:1,1"), "direction 0..5"),
        (lambda: setattr(fenced, "layout", "flat-odd-q"), "square layout"),
        (lambda: flat.set_edge_wall(1, 1, "up"), "unknown side 'up'"),
        (lambda: flat.set_edge_wall(1, 1, "3"), "unknown side '3'"),
        (lambda: flat.edit("wall-q:1,1"), "the side must be"),
        (lambda: flat.set_edge_wall(7, 1, "e"), "set_edge_wall"),
        (lambda: flat.edit("wall-n:1,9"), "edit"),
        (lambda: pathlab.Grid(np.zeros((3, 3), dtype=bool), layout="hexagonal"), "unknown layout"),
        (lambda: pathlab.Grid.layered(3, 3, 2, layout="iso"), "unknown layout"),
        (lambda: setattr(flat, "layout", "round"), "unknown layout"),
        (lambda: pathlab.load_map(str(TILED / "ortho_csv.tmx"), layout="x"), "unknown layout"),
        (lambda: pathlab.load_map(str(TILED / "ortho_csv.tmx"), format="tiled"), "tmx"),
        (lambda: pathlab.find(hexg, (0, 0), (1, 1), radius=0.5), "whole number of hexes"),
        # links
        (lambda: tower.add_link((0, 0), (1, 1, 1), cost=0), "link cost must be a finite number"),
        (lambda: tower.add_link((0, 0), (1, 1, 1), cost=-2), "link cost"),
        (lambda: tower.add_link((0, 0), (1, 1, 1), cost=math.nan), "link cost"),
        (lambda: tower.add_link((0, 0), (1, 1, 1), cost=math.inf), "link cost"),
        (lambda: tower.add_link((0, 0), (1, 1, 1), cost=1e300), "link cost"),
        (lambda: tower.add_link((0, 0), (1, 1, 3)), "floor 3"),
        (lambda: tower.add_link((0, 4), (1, 1, 1)), "row 4 is outside floor 0"),
        (lambda: tower.add_link((5, 0), (1, 1, 1)), "(5, 0, 0) is outside the 5x4 map"),
        (lambda: flat.add_link((0, 0), (9, 9)), "outside"),
        (lambda: tower.add_link("ab", (1, 1)), "pair of integers"),
        (lambda: tower.remove_links((0, 0, 7), (1, 1)), "floor 7"),
    ]
    for call, words in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert words in str(e.value), (words, str(e.value))
    # Nothing was changed by a refused call.
    assert tower.links == [] and not tower.walls().any() and flat.edge_walls() == []
    assert fenced.layout == "square" and hexg.edge_walls() == []


def test_map_kind_fallback_names_the_reason():
    hexg = pathlab.Grid(np.zeros((4, 5), dtype=bool), layout="flat-odd-q")
    for algo in ("jps", "jps+", "subgoal", "subgoal-ch", "theta", "lazytheta", "anyangle-exact"):
        r = pathlab.find(hexg, (0, 0), (4, 3), algorithm=algo)
        assert (r.status, r.fallback, r.answered_by) == ("found", "map-kind", "astar"), algo
        assert r.note
        p = pathlab.Pathfinder(hexg, algorithm=algo)
        assert p.find((0, 0), (4, 3)).fallback == "map-kind"
    r = pathlab.find(hexg, (0, 0), (4, 3), algorithm="astar")
    assert (r.fallback, r.answered_by) == ("none", "astar")


def test_stubs_name_the_map_kind_api():
    stubs = Path(pathlab.__file__).with_name("__init__.pyi").read_text()
    for cls in (pathlab.Grid, pathlab.FlowField):
        for name in dir(cls):
            if not name.startswith("_"):
                assert f"def {name}(" in stubs or f"    {name}:" in stubs, (cls.__name__, name)
    assert "layout: Optional[Layout] = None" in stubs  # load_map(layout=)
