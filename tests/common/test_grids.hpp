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

/// Independent reference for line of sight (shared docs/ALGORITHMS.md) between two points given in
/// units of 1/scale (integers, so everything is exact): cell (X,Y) is the square
/// [scale*X, scale*X+scale] x [scale*Y, scale*Y+scale]. Brute force over every cell near the
/// segment with separating-axis tests; the endpoints must differ.
///   never, no_corner_cut: no blocked cell's closed square meets the segment.
///   one_corner: no blocked cell's open square meets it; at each lattice corner strictly inside
///     a slanted segment one of the two side cells is free; a run along a grid line has a free
///     cell beside every unit of it.
///   always: as one_corner without the corner condition.
inline bool reference_los(const grid::Grid& g, grid::DiagonalRule rule, std::int64_t ax,
                          std::int64_t ay, std::int64_t bx, std::int64_t by, std::int64_t scale) {
  auto free_cell = [&](std::int64_t x, std::int64_t y) {
    return x >= 0 && y >= 0 && x < g.width() && y < g.height() &&
           g.passable(static_cast<int>(x), static_cast<int>(y));
  };
  auto cross = [&](std::int64_t px, std::int64_t py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  };
  auto floor_div = [](std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
  };
  const bool closed =
      rule == grid::DiagonalRule::never || rule == grid::DiagonalRule::no_corner_cut;
  const std::int64_t xmin = std::min(ax, bx), xmax = std::max(ax, bx);
  const std::int64_t ymin = std::min(ay, by), ymax = std::max(ay, by);
  for (std::int64_t Y = floor_div(ymin, scale) - 1; Y <= floor_div(ymax, scale) + 1; ++Y) {
    for (std::int64_t X = floor_div(xmin, scale) - 1; X <= floor_div(xmax, scale) + 1; ++X) {
      if (free_cell(X, Y)) continue;
      const std::int64_t x0 = X * scale, x1 = x0 + scale, y0 = Y * scale, y1 = y0 + scale;
      const std::int64_t c[4] = {cross(x0, y0), cross(x1, y0), cross(x0, y1), cross(x1, y1)};
      const bool all_pos = c[0] > 0 && c[1] > 0 && c[2] > 0 && c[3] > 0;
      const bool all_neg = c[0] < 0 && c[1] < 0 && c[2] < 0 && c[3] < 0;
      const bool all_nonneg = c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[3] >= 0;
      const bool all_nonpos = c[0] <= 0 && c[1] <= 0 && c[2] <= 0 && c[3] <= 0;
      if (closed) {
        const bool touches =
            xmax >= x0 && xmin <= x1 && ymax >= y0 && ymin <= y1 && !all_pos && !all_neg;
        if (touches) return false;
      } else {
        const bool crosses =
            xmax > x0 && xmin < x1 && ymax > y0 && ymin < y1 && !all_nonneg && !all_nonpos;
        if (crosses) return false;
      }
    }
  }
  if (closed) return true;
  if (ax == bx || ay == by) {  // a run along a grid line: a free cell beside every unit
    const bool vertical = ax == bx;
    const std::int64_t line = vertical ? ax : ay;
    if (line % scale != 0) return true;
    const std::int64_t L = line / scale;
    const std::int64_t lo = vertical ? ymin : xmin, hi = vertical ? ymax : xmax;
    for (std::int64_t u = floor_div(lo, scale); u * scale < hi; ++u) {
      const bool side1 = vertical ? free_cell(L - 1, u) : free_cell(u, L - 1);
      const bool side2 = vertical ? free_cell(L, u) : free_cell(u, L);
      if (!side1 && !side2) return false;
    }
    return true;
  }
  if (rule == grid::DiagonalRule::one_corner) {
    for (std::int64_t Y = floor_div(ymin, scale); Y * scale <= ymax; ++Y) {
      for (std::int64_t X = floor_div(xmin, scale); X * scale <= xmax; ++X) {
        const std::int64_t px = X * scale, py = Y * scale;
        if (cross(px, py) != 0) continue;
        if ((px == ax && py == ay) || (px == bx && py == by)) continue;
        if (px < xmin || px > xmax || py < ymin || py > ymax) continue;
        // The segment goes from quadrant to opposite quadrant; the side cells are the others.
        const bool same_sign = (bx - ax > 0) == (by - ay > 0);
        const bool s1 = same_sign ? free_cell(X, Y - 1) : free_cell(X - 1, Y - 1);
        const bool s2 = same_sign ? free_cell(X - 1, Y) : free_cell(X, Y);
        if (!s1 && !s2) return false;
      }
    }
  }
  return true;
}

/// reference_los between the centres of two different cells.
inline bool reference_los(const grid::Grid& g, grid::DiagonalRule rule, Cell a, Cell b) {
  return reference_los(g, rule, 2 * a.x + 1, 2 * a.y + 1, 2 * b.x + 1, 2 * b.y + 1, 2);
}

/// A maze of `cw`-wide corridors and walls (randomised depth-first carving), with `loops`
/// extra openings so that several routes exist.
inline grid::Grid maze(std::uint32_t seed, int cols, int rows, int cw, int loops) {
  std::mt19937 rng(seed);
  const int w = cols * (cw + 1) + 1, h = rows * (cw + 1) + 1;
  grid::Grid g(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) g.set_blocked(x, y, true);
  auto open_cell = [&](int cx, int cy) {
    for (int y = 0; y < cw; ++y)
      for (int x = 0; x < cw; ++x)
        g.set_blocked(1 + cx * (cw + 1) + x, 1 + cy * (cw + 1) + y, false);
  };
  auto open_between = [&](int cx, int cy, int nx, int ny) {
    for (int k = 0; k < cw; ++k) {
      if (nx != cx) {
        g.set_blocked(1 + std::max(cx, nx) * (cw + 1) - 1, 1 + cy * (cw + 1) + k, false);
      } else {
        g.set_blocked(1 + cx * (cw + 1) + k, 1 + std::max(cy, ny) * (cw + 1) - 1, false);
      }
    }
  };
  std::vector<char> visited(static_cast<std::size_t>(cols * rows), 0);
  std::vector<std::pair<int, int>> stack{{0, 0}};
  visited[0] = 1;
  open_cell(0, 0);
  const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
  while (!stack.empty()) {
    const auto top = stack.back();
    int options[4], n = 0;
    for (int k = 0; k < 4; ++k) {
      const int nx = top.first + dx[k], ny = top.second + dy[k];
      if (nx >= 0 && ny >= 0 && nx < cols && ny < rows &&
          !visited[static_cast<std::size_t>(ny * cols + nx)]) {
        options[n++] = k;
      }
    }
    if (n == 0) {
      stack.pop_back();
      continue;
    }
    const int k = options[rng() % static_cast<unsigned>(n)];
    const int nx = top.first + dx[k], ny = top.second + dy[k];
    visited[static_cast<std::size_t>(ny * cols + nx)] = 1;
    open_cell(nx, ny);
    open_between(top.first, top.second, nx, ny);
    stack.emplace_back(nx, ny);
  }
  for (int i = 0; i < loops; ++i) {
    const int cx = static_cast<int>(rng() % static_cast<unsigned>(cols));
    const int cy = static_cast<int>(rng() % static_cast<unsigned>(rows));
    const int k = static_cast<int>(rng() % 4);
    const int nx = cx + dx[k], ny = cy + dy[k];
    if (nx >= 0 && ny >= 0 && nx < cols && ny < rows) open_between(cx, cy, nx, ny);
  }
  return g;
}

}  // namespace pathlab::testing
