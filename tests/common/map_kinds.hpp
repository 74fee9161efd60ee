// The map kinds of issue 29 (hex layouts, walls on cell edges, layered maps with links) as a
// reference graph built straight from the definitions of shared docs/ALGORITHMS.md ("Hex
// grids", "Walls on cell edges", "Layered maps", "Units"), for the search and flow tests. It
// does not use the library's neighbour iteration: hex neighbours come from the axial formulas,
// diagonal moves next to edge walls from the two-step routes, links from the link list. And
// random maps of each kind.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>

namespace pathlab::testing::kinds {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// A move of the reference graph: where it leads and what it costs.
struct Arc {
  int to;
  double cost;
};

/// A graph over the grid's cells (index y * width + x of the stacked grid).
struct Reference {
  int w = 0, h = 0;
  std::vector<std::vector<Arc>> out;
  std::vector<char> usable;
  [[nodiscard]] int index(Cell c) const { return c.y * w + c.x; }
  [[nodiscard]] Cell cell(int i) const { return {i % w, i / w}; }
};

/// Axial coordinates, written out again from ALGORITHMS.md.
inline std::pair<int, int> axial(grid::Layout l, int x, int y) {
  switch (l) {
    case grid::Layout::pointy_odd_r:
      return {x - (y - (y & 1)) / 2, y};
    case grid::Layout::pointy_even_r:
      return {x - (y + (y & 1)) / 2, y};
    case grid::Layout::flat_odd_q:
      return {x, y - (x - (x & 1)) / 2};
    case grid::Layout::flat_even_q:
      return {x, y - (x + (x & 1)) / 2};
    default:
      return {x, y};
  }
}

/// The axial step of hex code d (ALGORITHMS.md "Hex grids").
inline constexpr int kHexDq[6] = {1, 1, 0, -1, -1, 0};
inline constexpr int kHexDr[6] = {0, -1, -1, 0, 1, 1};

inline int hex_distance(grid::Layout l, int x1, int y1, int x2, int y2) {
  const auto [q1, r1] = axial(l, x1, y1);
  const auto [q2, r2] = axial(l, x2, y2);
  const int dq = q1 - q2, dr = r1 - r2;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

/// Whether floor cells a and b are hex neighbours: the same floor, hex distance 1.
inline bool hex_adjacent(const grid::Grid& g, Cell a, Cell b) {
  if (g.layer_of(a.y) != g.layer_of(b.y)) return false;
  return hex_distance(g.layout(), a.x, g.local_y(a.y), b.x, g.local_y(b.y)) == 1;
}

/// Whether the edge between hex neighbours a and b is walled (whichever names it): the
/// direction code from the axial difference.
inline bool hex_walled(const grid::Grid& g, Cell a, Cell b) {
  const auto [qa, ra] = axial(g.layout(), a.x, g.local_y(a.y));
  const auto [qb, rb] = axial(g.layout(), b.x, g.local_y(b.y));
  for (int d = 0; d < 6; ++d) {
    if (qb - qa == kHexDq[d] && rb - ra == kHexDr[d])
      return g.hex_edge_wall(a.x, a.y, d) || g.hex_edge_wall(b.x, b.y, (d + 3) % 6);
  }
  return false;
}

/// Blocked for the unit: outside, between floors, a wall or a forbidden class.
inline bool blocked(const grid::Grid& g, const grid::Unit& u, int x, int y) {
  if (!g.in_bounds(x, y) || g.between_layers(y)) return true;
  return u.forbids(g.cell_class(x, y));
}

/// Usable: not blocked and (square) clearance >= radius, (hex) every hex within the radius not
/// blocked, both within the cell's own floor.
inline bool usable(const grid::Grid& g, const grid::Unit& u, int x, int y) {
  if (blocked(g, u, x, y)) return false;
  const int l = g.layer_of(y), ly = g.local_y(y);
  auto out_or_blocked = [&](int xx, int yy) {
    return xx < 0 || xx >= g.width() || yy < 0 || yy >= g.layer_height() ||
           blocked(g, u, xx, l * g.layer_pitch() + yy);
  };
  if (grid::is_hex(g.layout())) {
    const int k = static_cast<int>(u.radius);
    for (int yy = ly - k - 1; yy <= ly + k + 1; ++yy) {
      for (int xx = x - k - 1; xx <= x + k + 1; ++xx) {
        if (hex_distance(g.layout(), x, ly, xx, yy) <= k && out_or_blocked(xx, yy)) return false;
      }
    }
    return true;
  }
  if (u.radius <= 0.5) return true;
  const int reach = static_cast<int>(std::ceil(u.radius)) + 1;
  for (int dy = -reach; dy <= reach; ++dy) {
    for (int dx = -reach; dx <= reach; ++dx) {
      const double gx = std::max(0.0, std::abs(dx) - 0.5), gy = std::max(0.0, std::abs(dy) - 0.5);
      if (gx * gx + gy * gy < u.radius * u.radius && out_or_blocked(x + dx, ly + dy)) return false;
    }
  }
  return true;
}

/// Whether the edge between 4-adjacent cells a and b is walled (whichever names it).
inline bool walled(const grid::Grid& g, Cell a, Cell b) {
  using grid::Side;
  if (b.x == a.x + 1) return g.edge_wall(a.x, a.y, Side::east) || g.edge_wall(b.x, b.y, Side::west);
  if (b.x == a.x - 1) return g.edge_wall(a.x, a.y, Side::west) || g.edge_wall(b.x, b.y, Side::east);
  if (b.y == a.y + 1) {
    return g.edge_wall(a.x, a.y, Side::south) || g.edge_wall(b.x, b.y, Side::north);
  }
  return g.edge_wall(a.x, a.y, Side::north) || g.edge_wall(b.x, b.y, Side::south);
}

/// The graph of the definitions for unit u and moves m.
inline Reference build_reference(const grid::Grid& g, const grid::Unit& u, const grid::Moves& m) {
  Reference r;
  r.w = g.width();
  r.h = g.height();
  const int n = r.w * r.h;
  r.out.assign(static_cast<std::size_t>(n), {});
  r.usable.assign(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i)
    r.usable[static_cast<std::size_t>(i)] = usable(g, u, i % r.w, i / r.w);
  auto ok = [&](int x, int y) {
    return g.in_bounds(x, y) && r.usable[static_cast<std::size_t>(y * r.w + x)];
  };
  auto enter = [&](int x, int y) {
    return static_cast<double>(u.class_cost(g.cell_class(x, y))) * g.terrain(x, y);
  };
  const double s = m.straight_cost(), d = m.diagonal_cost();
  for (int y = 0; y < r.h; ++y) {
    for (int x = 0; x < r.w; ++x) {
      if (!ok(x, y)) continue;
      auto& out = r.out[static_cast<std::size_t>(y * r.w + x)];
      const Cell a{x, y};
      if (grid::is_hex(g.layout())) {
        for (int yy = y - 1; yy <= y + 1; ++yy) {
          for (int xx = x - 1; xx <= x + 1; ++xx) {
            if (!ok(xx, yy) || !hex_adjacent(g, a, {xx, yy}) || hex_walled(g, a, {xx, yy}))
              continue;
            out.push_back({yy * r.w + xx, s * enter(xx, yy)});
          }
        }
        continue;
      }
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || !ok(x + dx, y + dy)) continue;
          const Cell b{x + dx, y + dy};
          if (dx == 0 || dy == 0) {
            if (!walled(g, a, b)) out.push_back({b.y * r.w + b.x, s * enter(b.x, b.y)});
            continue;
          }
          if (m.diagonal == grid::DiagonalRule::never) continue;
          const Cell side_v{x, y + dy}, side_h{x + dx, y};
          // Route 1: vertical then horizontal; route 2: horizontal then vertical.
          const bool r1 = ok(side_v.x, side_v.y) && !walled(g, a, side_v) && !walled(g, side_v, b);
          const bool r2 = ok(side_h.x, side_h.y) && !walled(g, a, side_h) && !walled(g, side_h, b);
          bool legal = false;
          switch (m.diagonal) {
            case grid::DiagonalRule::no_corner_cut:
              legal = r1 && r2;
              break;
            case grid::DiagonalRule::one_corner:
              legal = r1 || r2;
              break;
            default:  // always: no edge at the shared corner blocked
              legal = !walled(g, a, side_v) && !walled(g, side_v, b) && !walled(g, a, side_h) &&
                      !walled(g, side_h, b);
              break;
          }
          if (legal) out.push_back({b.y * r.w + b.x, d * enter(b.x, b.y)});
        }
      }
    }
  }
  for (const grid::Link& l : g.links()) {
    if (!ok(l.from.x, l.from.y) || !ok(l.to.x, l.to.y)) continue;
    r.out[static_cast<std::size_t>(r.index(l.from))].push_back({r.index(l.to), l.cost});
    if (!l.oneway) {
      r.out[static_cast<std::size_t>(r.index(l.to))].push_back({r.index(l.from), l.cost});
    }
  }
  return r;
}

/// The same graph with every arc reversed (a field's distances to its goals).
inline Reference reversed(const Reference& r) {
  Reference out = r;
  for (auto& v : out.out) v.clear();
  for (std::size_t a = 0; a < r.out.size(); ++a) {
    for (const Arc& e : r.out[a]) {
      out.out[static_cast<std::size_t>(e.to)].push_back({static_cast<int>(a), e.cost});
    }
  }
  return out;
}

/// Least costs from the sources (cell indices).
inline std::vector<double> dijkstra(const Reference& r, const std::vector<int>& sources) {
  std::vector<double> dist(r.out.size(), kInf);
  using E = std::pair<double, int>;
  std::priority_queue<E, std::vector<E>, std::greater<>> q;
  for (int s : sources) {
    dist[static_cast<std::size_t>(s)] = 0;
    q.push({0, s});
  }
  while (!q.empty()) {
    const auto [du, u] = q.top();
    q.pop();
    if (du > dist[static_cast<std::size_t>(u)]) continue;
    for (const Arc& a : r.out[static_cast<std::size_t>(u)]) {
      if (du + a.cost < dist[static_cast<std::size_t>(a.to)]) {
        dist[static_cast<std::size_t>(a.to)] = du + a.cost;
        q.push({du + a.cost, a.to});
      }
    }
  }
  return dist;
}

/// Fewest moves (BFS) from s.
inline std::vector<int> hops(const Reference& r, int s) {
  std::vector<int> d(r.out.size(), -1);
  std::vector<int> q{s};
  d[static_cast<std::size_t>(s)] = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    for (const Arc& a : r.out[static_cast<std::size_t>(q[i])]) {
      if (d[static_cast<std::size_t>(a.to)] < 0) {
        d[static_cast<std::size_t>(a.to)] = d[static_cast<std::size_t>(q[i])] + 1;
        q.push_back(a.to);
      }
    }
  }
  return d;
}

/// The cheapest arc a -> b, or kInf when there is none.
inline double arc_cost(const Reference& r, Cell a, Cell b) {
  double best = kInf;
  for (const Arc& e : r.out[static_cast<std::size_t>(r.index(a))]) {
    if (e.to == r.index(b)) best = std::min(best, e.cost);
  }
  return best;
}

/// The cost of `path` in the reference graph (the cheapest arc for each step), or -1 when a
/// step is not an arc.
inline double reference_cost(const Reference& r, const std::vector<Cell>& path) {
  double c = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const double step = arc_cost(r, path[i - 1], path[i]);
    if (step == kInf) return -1;
    c += step;
  }
  return c;
}

inline bool near(double a, double b) {
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

// --- random maps --------------------------------------------------------------------------------

enum class Kind { hex, edges, layered, layered_hex };

inline const char* name(Kind k) {
  switch (k) {
    case Kind::hex:
      return "hex";
    case Kind::edges:
      return "edge walls";
    case Kind::layered:
      return "layered";
    default:
      return "layered hex";
  }
}

struct Case {
  grid::Grid grid;
  grid::Unit unit;
  grid::Moves moves;
};

/// How random_case varies its maps.
struct CaseOptions {
  int max_layers = 4;             ///< layered kinds: 2 to this many floors
  bool radius = true;             ///< some rounds give the unit radius 1
  bool edge_walls_often = false;  ///< every third round also fences square maps of any kind
  bool take_some_down = true;     ///< edge walls kind: take a quarter down through the edit API
};

/// A random map of `kind` for `round` (which also picks the layout, diagonal rule, cost model,
/// classes, terrain, links and unit).
inline Case random_case(Kind kind, std::mt19937& rng, int round, const CaseOptions& opt = {}) {
  using grid::Layout;
  using grid::Side;
  std::uniform_int_distribution<int> size(4, 14);
  std::uniform_real_distribution<double> u01(0, 1);
  const int w = size(rng), h = size(rng);
  const int layers = kind == Kind::layered || kind == Kind::layered_hex
                         ? 2 + round % std::max(1, opt.max_layers - 1)
                         : 1;
  Case c{grid::Grid::layered(w, h, layers), grid::Unit{}, grid::Moves{}};
  grid::Grid& g = c.grid;
  constexpr Layout kHex[] = {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q,
                             Layout::flat_even_q};
  if (kind == Kind::hex || kind == Kind::layered_hex) g.set_layout(kHex[round % 4]);
  constexpr grid::DiagonalRule kRules[] = {grid::DiagonalRule::no_corner_cut,
                                           grid::DiagonalRule::one_corner,
                                           grid::DiagonalRule::always, grid::DiagonalRule::never};
  c.moves.diagonal = kRules[round % 4];
  if (round % 5 == 4) c.moves.cost_model = grid::CostModel::integer;
  const double density = 0.1 + 0.25 * u01(rng);
  const char classes[] = {'.', '.', '.', 'S', 'W', 'T', '.'};
  for (int l = 0; l < layers; ++l) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Cell cell = g.at(l, x, y);
        if (u01(rng) < density) {
          g.set_class(cell.x, cell.y, '@');
          continue;
        }
        if (round % 3 == 1) g.set_class(cell.x, cell.y, classes[rng() % 7]);
        if (round % 4 == 2 && u01(rng) < 0.3) g.set_terrain(cell.x, cell.y, 1.0f + (rng() % 4));
      }
    }
  }
  const bool fence = kind == Kind::edges || (opt.edge_walls_often && round % 3 == 0);
  const bool hex = grid::is_hex(g.layout());
  if (hex ? round % 3 == 0 : fence) {
    // Walls on cell edges (on hex maps, hex edges), a quarter of them taken down again through
    // the edit API.
    auto random_cell = [&] {
      return g.at(static_cast<int>(rng() % layers), static_cast<int>(rng() % w),
                  static_cast<int>(rng() % h));
    };
    const int walls = static_cast<int>(w * h * (0.1 + (hex ? 0.5 : 0.4) * u01(rng)));
    for (int i = 0; i < walls; ++i) {
      const Cell at = random_cell();
      if (hex) {
        g.set_hex_edge_wall(at.x, at.y, static_cast<int>(rng() % 6), true);
      } else {
        g.set_edge_wall(at.x, at.y, static_cast<Side>(rng() % 4), true);
      }
    }
    for (int i = 0; opt.take_some_down && i < walls / 4; ++i) {
      grid::Edit e;
      e.kind = grid::Edit::Kind::edge_open;
      if (hex) {
        e.hex_side = static_cast<std::uint8_t>(rng() % 6);
      } else {
        e.side = static_cast<Side>(rng() % 4);
      }
      const Cell at = random_cell();
      e.area = {at.x, at.y, at.x, at.y};
      EXPECT_FALSE(g.apply(e).has_value());
    }
  }
  if (layers > 1 || round % 2 == 0) {
    const int links = 1 + static_cast<int>(rng() % 6) * layers;
    for (int i = 0; i < links; ++i) {
      grid::Link l;
      l.from = g.at(static_cast<int>(rng() % layers), static_cast<int>(rng() % w),
                    static_cast<int>(rng() % h));
      l.to = g.at(static_cast<int>(rng() % layers), static_cast<int>(rng() % w),
                  static_cast<int>(rng() % h));
      l.cost = static_cast<float>(0.5 + 6 * u01(rng));
      l.oneway = rng() % 3 == 0;
      EXPECT_FALSE(g.add_link(l).has_value());
    }
  }
  if (round % 3 == 1) {
    c.unit.set('S', 3.0f);
    c.unit.set('W', 2.0f);
  }
  if (opt.radius && round % 7 == 3) c.unit.radius = 1.0;
  return c;
}

/// The cells the reference graph lets the unit stand on.
inline std::vector<Cell> usable_cells(const Reference& r) {
  std::vector<Cell> out;
  for (std::size_t i = 0; i < r.usable.size(); ++i) {
    if (r.usable[i]) out.push_back(r.cell(static_cast<int>(i)));
  }
  return out;
}

}  // namespace pathlab::testing::kinds
