"""pathlab: verified, competition-speed grid pathfinding from Python.

A thin layer over the C++ library: every algorithm of the `pathlab` command (A*, JPS, JPS+,
subgoal graphs and their contraction hierarchy, Theta*, ...), batches on several threads
without the GIL, flow fields, units of any radius and terrain ability.

    import pathlab
    g = pathlab.load_map("den520d.map")
    r = pathlab.find(g, (107, 34), (149, 228), algorithm="jps")
    r.status, r.cost, r.path          # path: int32 array (n, 2), one (x, y) a row
    r = pathlab.find_points(g, (101.3, 157.7), (78.25, 184.5))  # any points, anyangle-exact
    r.points                          # float64 (n, 2) in map units, from (101.3, 157.7)

Coordinates are (x, y); arrays are numpy, indexed [y, x]. Hex grids (layout=), walls on cell
edges, layered maps with links and Tiled maps too: on a layered map cells are (x, y, layer) and
arrays [layer, y, x]. Bad arguments raise ValueError (pathlab.ParseError, a subclass, for a
malformed file).
"""

from ._pathlab import (
    FlowField,
    Grid,
    LinkBoard,
    ParseError,
    Pathfinder,
    Result,
    Trace,
    World,
    algorithms,
    bench,
    find,
    find_corners,
    find_many,
    find_points,
    flow_field,
    load_map,
    load_scenarios,
    reach,
)

__version__ = "0.1.0"

__all__ = [
    "FlowField",
    "Grid",
    "LinkBoard",
    "ParseError",
    "Pathfinder",
    "Result",
    "Trace",
    "World",
    "algorithms",
    "bench",
    "find",
    "find_corners",
    "find_many",
    "find_points",
    "flow_field",
    "load_map",
    "load_scenarios",
    "reach",
]
