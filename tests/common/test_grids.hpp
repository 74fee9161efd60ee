// Helpers shared by the tests: random grids and an independent reference search (plain
// Dijkstra / BFS over cells using the grid module's step rules) to compare the engine with.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

namespace pathlab::testing {

/// A random grid: each cell a wall with probability `wall_pct`/100; with `terrain`, free cells
/// get a cost in {1, 1.5, 2, 3, 5} with probability 1/2.
inline grid::Grid random_grid(std::uint32_t seed, int w, int h, int wall_pct, bool terrain) {
  std::mt19937 rng(seed);
  grid::Grid g(w, h);
  const float costs[] = {1.5f, 2.0f, 3.0f, 5.0f};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (static_cast<int>(rng() % 100) < wall_pct) {
        g.set_blocked(x, y, true);
      } else if (terrain && rng() % 2 == 0) {
        g.set_terrain(x, y, costs[rng() % 4]);
      }
    }
  }
  return g;
}

inline std::vector<Cell> passable_cells(const grid::Grid& g) {
  std::vector<Cell> out;
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      if (g.passable(x, y)) out.push_back({x, y});
  return out;
}

inline const grid::Moves kAllMoves[] = {
    {grid::DiagonalRule::never, grid::CostModel::octile},
    {grid::DiagonalRule::no_corner_cut, grid::CostModel::octile},
    {grid::DiagonalRule::one_corner, grid::CostModel::octile},
    {grid::DiagonalRule::always, grid::CostModel::octile},
    {grid::DiagonalRule::no_corner_cut, grid::CostModel::integer},
    {grid::DiagonalRule::always, grid::CostModel::integer},
};

/// Reference single-source search from `from`: least cost (or fewest moves with unit=true) to
/// every cell; infinity where unreachable. Deliberately simple and independent of the engine.
inline std::vector<double> reference_distances(const grid::Grid& g, const grid::Moves& m, Cell from,
                                               bool unit = false) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto w = static_cast<std::size_t>(g.width());
  std::vector<double> dist(w * static_cast<std::size_t>(g.height()), inf);
  auto idx = [&](Cell c) {
    return static_cast<std::size_t>(c.y) * w + static_cast<std::size_t>(c.x);
  };
  using Item = std::pair<double, std::pair<int, int>>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  dist[idx(from)] = 0;
  pq.push({0, {from.x, from.y}});
  while (!pq.empty()) {
    auto [d, xy] = pq.top();
    pq.pop();
    const Cell c{xy.first, xy.second};
    if (d > dist[idx(c)]) continue;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const Cell n{c.x + dx, c.y + dy};
        if (!grid::step_legal(g, m, c, n)) continue;
        const double nd = d + (unit ? 1.0 : grid::step_cost(g, m, c, n));
        if (nd < dist[idx(n)]) {
          dist[idx(n)] = nd;
          pq.push({nd, {n.x, n.y}});
        }
      }
    }
  }
  return dist;
}

inline double dist_at(const std::vector<double>& d, const grid::Grid& g, Cell c) {
  return d[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(g.width()) +
           static_cast<std::size_t>(c.x)];
}

inline bool near(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

}  // namespace pathlab::testing
