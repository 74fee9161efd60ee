#!/usr/bin/env python3
"""Loads a Moving AI map, compares pathlab's algorithms on its scenarios, and plots one search
(the cells A* expanded, coloured by when, and its path).

    python3 examples/compare_algorithms.py [MAP.map] [--plot out.png]

Without arguments it takes den520d from ../shared/benchmarks/movingai (or the bundled
maps/hybrid_120x80.txt when that folder is absent). The plot needs matplotlib; without it the
script says so and skips the picture.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import pathlab

ROOT = Path(__file__).resolve().parents[1]


def read_scenarios(scen: Path, limit: int):
    sc = pathlab.load_scenarios(str(scen))  # arrays: starts, goals (n, 2), optimal (n,)
    pick = np.arange(0, len(sc["optimal"]), max(1, len(sc["optimal"]) // limit))[:limit]
    return sc["starts"][pick], sc["goals"][pick], sc["optimal"][pick]


def random_queries(g: pathlab.Grid, count: int):
    free = np.argwhere(~g.walls())[:, ::-1]  # (x, y) rows
    rng = np.random.default_rng(1)
    return free[rng.integers(0, len(free), count)], free[rng.integers(0, len(free), count)], None


def main() -> int:
    default = ROOT.parent / "shared" / "benchmarks" / "movingai" / "den520d.map"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", nargs="?", default=str(default if default.exists() else
                                                      ROOT / "maps" / "hybrid_120x80.txt"))
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--plot", default="search.png", help="where to draw one query's path")
    args = parser.parse_args()

    g = pathlab.load_map(args.map)
    print(f"{args.map}: {g.width}x{g.height}, {int(g.walls().sum())} walls")
    scen = Path(args.map + ".scen")
    starts, goals, optimum = (read_scenarios(scen, args.queries) if scen.exists()
                              else random_queries(g, args.queries))

    print(f"{'algorithm':<12} {'queries':>8} {'mean us':>10} {'optimal':>8}")
    for algorithm in ["astar", "jps", "jps+", "subgoal", "subgoal-ch"]:
        # the first batch builds the algorithm's tables (jps+, subgoal graphs); later ones reuse
        pathlab.find_many(g, starts[:1], goals[:1], algorithm=algorithm, threads=1)
        t0 = time.perf_counter()
        costs = pathlab.find_many(g, starts, goals, algorithm=algorithm, threads=1)
        mean_us = (time.perf_counter() - t0) * 1e6 / len(starts)
        # the files print the optimum rounded: shared docs/ALGORITHMS.md's tolerance
        ok = "-" if optimum is None else str(int(np.sum(np.abs(costs - optimum) <= 0.005 + 1e-5 * optimum)))
        print(f"{algorithm:<12} {len(starts):>8} {mean_us:>10.1f} {ok:>8}")

    i = int(np.nanargmax(costs))  # the longest query, to draw
    r = pathlab.find(g, tuple(starts[i]), tuple(goals[i]), algorithm="astar", trace=True)
    print(f"one query: {r.status}, cost {r.cost:.3f}, {len(r.path)} cells, {r.expanded} expanded")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (apt install python3-matplotlib)")
        return 0
    fig, ax = plt.subplots(figsize=(8, 8 * g.height / g.width))
    ax.imshow(g.walls(), cmap="gray_r", interpolation="nearest")
    order = np.ma.masked_less(r.trace.expanded(), 0)  # when each cell was expanded
    ax.imshow(order, cmap="viridis", alpha=0.6, interpolation="nearest")
    if len(r.path):
        ax.plot(r.path[:, 0], r.path[:, 1], color="tab:red", linewidth=1.5)
    ax.set_title(f"astar: cost {r.cost:.2f}, {r.expanded} nodes expanded")
    fig.savefig(args.plot, dpi=120, bbox_inches="tight")
    print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
