// The map kinds of issue 29 beside the plain square grid (targets in docs/map-kinds.md):
//   - hex A* against square A* on the same 512x512 walls (20 % random), corner to corner:
//     expansions per second (counter "exp/s"), the target within 1.3x;
//   - A* across the floors of a 4-floor 256x256 map with 40 links against A* on one floor of
//     the same walls for queries of the same length (the target: within 2x a query);
//   - edge walls on a square map with none against none at all (the general path's cost).
// Run: build/bench/pathlab_map_kinds_bench --benchmark_min_time=1 --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace {

using pathlab::Cell;
using pathlab::Status;
using pathlab::grid::Grid;
using pathlab::grid::Layout;

/// 512x512, 20 % of the cells walls (seeded), the two corners free.
Grid random_walls(int w, int h, double density, unsigned seed) {
  Grid g(w, h);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (u(rng) < density) g.set_blocked(x, y, true);
    }
  }
  g.set_blocked(0, 0, false);
  g.set_blocked(w - 1, h - 1, false);
  return g;
}

void corner_to_corner(benchmark::State& state, Layout layout) {
  static const Grid walls = random_walls(512, 512, 0.2, 29);
  Grid g = walls;
  g.set_layout(layout);
  pathlab::search::Pathfinder f(g);
  pathlab::search::Result r;
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    f.find({0, 0}, {511, 511}, r);
    if (r.status != Status::found) state.SkipWithError("no path corner to corner");
    expanded += r.stats.expanded;
  }
  state.counters["exp/s"] =
      benchmark::Counter(static_cast<double>(expanded), benchmark::Counter::kIsRate);
  state.counters["expanded"] = static_cast<double>(r.stats.expanded);
  state.counters["cost"] = r.cost;
}

void BM_AStarSquare512(benchmark::State& s) {
  corner_to_corner(s, Layout::square);
}
void BM_AStarHex512(benchmark::State& s) {
  corner_to_corner(s, Layout::pointy_odd_r);
}
BENCHMARK(BM_AStarSquare512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AStarHex512)->Unit(benchmark::kMillisecond);

/// Edge walls stored but none standing: the general path against the plain one.
void BM_AStarSquare512EdgeWallsTakenDown(benchmark::State& state) {
  static const Grid walls = random_walls(512, 512, 0.2, 29);
  Grid g = walls;
  g.set_edge_wall(5, 5, pathlab::grid::Side::east, true);
  g.set_edge_wall(5, 5, pathlab::grid::Side::east, false);  // stored, none standing
  pathlab::search::Pathfinder f(g);
  pathlab::search::Result r;
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    f.find({0, 0}, {511, 511}, r);
    expanded += r.stats.expanded;
  }
  state.counters["exp/s"] =
      benchmark::Counter(static_cast<double>(expanded), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AStarSquare512EdgeWallsTakenDown)->Unit(benchmark::kMillisecond);

// --- layered: 4 floors of 256x256, 40 links ---------------------------------------------------

struct Layered {
  Grid floors = Grid::layered(256, 256, 4);
  Grid one = Grid(256, 256);                  ///< floor 0's walls alone, a plain grid
  std::vector<std::pair<Cell, Cell>> across;  ///< start and goal on different floors
  std::vector<std::pair<Cell, Cell>> within;  ///< on `one`, each as long as its `across` twin
};

const Layered& layered() {
  static const Layered m = [] {
    Layered m;
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> u(0, 1);
    for (int l = 0; l < 4; ++l) {
      for (int y = 0; y < 256; ++y) {
        for (int x = 0; x < 256; ++x) {
          if (u(rng) >= 0.15) continue;
          const Cell c = m.floors.at(l, x, y);
          m.floors.set_blocked(c.x, c.y, true);
          if (l == 0) m.one.set_blocked(x, y, true);
        }
      }
    }
    // 40 stairs between neighbouring floors, both ends free.
    for (int i = 0; i < 40; ++i) {
      const int l = i % 3;
      const int x = static_cast<int>(rng() % 256), y = static_cast<int>(rng() % 256);
      const Cell a = m.floors.at(l, x, y), b = m.floors.at(l + 1, x, y);
      m.floors.set_blocked(a.x, a.y, false);
      m.floors.set_blocked(b.x, b.y, false);
      if (l == 0) m.one.set_blocked(x, y, false);
      (void)m.floors.add_link({a, b, 2.0f, false});
    }
    // Queries across floors, and for each a query on one floor of the same optimal length.
    pathlab::search::Pathfinder across(m.floors), within(m.one);
    while (m.across.size() < 60) {
      const int l0 = static_cast<int>(rng() % 4), l1 = (l0 + 1 + static_cast<int>(rng() % 3)) % 4;
      const Cell s = m.floors.at(l0, static_cast<int>(rng() % 256), static_cast<int>(rng() % 256));
      const Cell t = m.floors.at(l1, static_cast<int>(rng() % 256), static_cast<int>(rng() % 256));
      if (!m.floors.passable(s) || !m.floors.passable(t)) continue;
      const auto r = across.find(s, t);
      if (r.status != Status::found) continue;
      // A twin on one floor: from a random cell toward a random direction, the cell whose
      // optimum is within 2 % of r.cost.
      for (int attempt = 0; attempt < 400; ++attempt) {
        const Cell a{static_cast<int>(rng() % 256), static_cast<int>(rng() % 256)};
        const double angle = u(rng) * 6.283185307179586;
        const double d = r.cost / 1.1;
        const Cell b{static_cast<int>(a.x + d * std::cos(angle)),
                     static_cast<int>(a.y + d * std::sin(angle))};
        if (!m.one.passable(a) || !m.one.passable(b)) continue;
        const auto w = within.find(a, b);
        if (w.status == Status::found && std::abs(w.cost - r.cost) <= 0.02 * r.cost) {
          m.across.emplace_back(s, t);
          m.within.emplace_back(a, b);
          break;
        }
      }
    }
    return m;
  }();
  return m;
}

/// A* over `queries` in turn on `g`, with the mean cost and expansions as counters.
void run_queries(benchmark::State& state, const Grid& g,
                 const std::vector<std::pair<Cell, Cell>>& queries) {
  pathlab::search::Pathfinder f(g);
  pathlab::search::Result r;
  std::size_t i = 0;
  double cost = 0, expanded = 0;
  for (auto _ : state) {
    const auto& q = queries[i++ % queries.size()];
    f.find(q.first, q.second, r);
    cost += r.cost;
    expanded += static_cast<double>(r.stats.expanded);
  }
  state.counters["mean_cost"] = cost / static_cast<double>(state.iterations());
  state.counters["mean_expanded"] = expanded / static_cast<double>(state.iterations());
}

void BM_AStarAcrossFloors(benchmark::State& state) {
  run_queries(state, layered().floors, layered().across);
}
void BM_AStarOneFloorSameLengths(benchmark::State& state) {
  run_queries(state, layered().one, layered().within);
}
BENCHMARK(BM_AStarAcrossFloors)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AStarOneFloorSameLengths)->Unit(benchmark::kMicrosecond);

}  // namespace
