// Line of sight on the other map kinds (shared docs/ALGORITHMS.md: "Hex grids", "Walls on cell
// edges", "Layered maps"), against brute force written here from the definitions:
//   hex: every hex around the map (those outside it count as walls), the closed hexagon of its
//     corners (hex::corners) against the closed segment between the two centres;
//   edge walls: the cell rule (the square reference), and every blocked edge of the map as a
//     closed segment against the segment, a touch at an edge's end point being a crossing (under
//     one_corner a lattice corner needs one of its two routes open instead);
//   layers: no sight between floors, and within a floor the answer of that floor alone.
// Plus the invariant that LOS between adjacent cells equals the legality of the move
// (topology.hpp), symmetry, and the point form on cell centres.
#include <gtest/gtest.h>

#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/grid/topology.hpp>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "test_grids.hpp"

using namespace pathlab;
using grid::DiagonalRule;
using grid::Layout;
using grid::Side;

namespace los_kinds {

constexpr DiagonalRule kRules[] = {DiagonalRule::never, DiagonalRule::no_corner_cut,
                                   DiagonalRule::one_corner, DiagonalRule::always};
constexpr Layout kHexLayouts[] = {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q,
                                  Layout::flat_even_q};

// ---- geometry for the hex reference ------------------------------------------------------------

double cross(Point o, Point a, Point b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

double point_segment_distance(Point p, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

double segment_distance(Point a, Point b, Point c, Point d) {
  const double d1 = cross(a, b, c), d2 = cross(a, b, d), d3 = cross(c, d, a), d4 = cross(c, d, b);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return 0;
  }
  return std::min({point_segment_distance(a, c, d), point_segment_distance(b, c, d),
                   point_segment_distance(c, a, b), point_segment_distance(d, a, b)});
}

/// Whether the closed convex polygon and the closed segment a -> b touch (within 1e-9).
bool polygon_touches_segment(const std::array<Point, 6>& poly, Point a, Point b) {
  // An end inside: on the inner side of every edge (the corners are in one turning order).
  bool inside = true;
  const double orient = cross(poly[0], poly[1], poly[2]) > 0 ? 1 : -1;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    if (orient * cross(poly[k], poly[(k + 1) % poly.size()], a) < 0) inside = false;
  }
  if (inside) return true;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    if (segment_distance(a, b, poly[k], poly[(k + 1) % poly.size()]) <= 1e-9) return true;
  }
  return false;
}

/// The hex neighbour of (x, y) in direction d, from the axial step of ALGORITHMS.md.
Cell hex_neighbour(Layout l, int x, int y, int d) {
  constexpr int kDq[6] = {1, 1, 0, -1, -1, 0}, kDr[6] = {0, -1, -1, 0, 1, 1};
  const grid::hex::Axial a = grid::hex::to_axial(l, x, y);
  return grid::hex::from_axial(l, {a.q + kDq[d], a.r + kDr[d]});
}

bool reference_hex_los(const grid::Grid& g, Cell a, Cell b) {
  if (!g.passable(a) || !g.passable(b)) return false;
  const Layout l = g.layout();
  const Point pa = grid::hex::centre(l, a.x, a.y), pb = grid::hex::centre(l, b.x, b.y);
  for (int y = -2; y < g.height() + 2; ++y) {
    for (int x = -2; x < g.width() + 2; ++x) {
      if (g.passable(x, y)) continue;  // outside the map: not passable, a wall
      if (polygon_touches_segment(grid::hex::corners(l, x, y), pa, pb)) return false;
    }
  }
  // Walls on hex edges: the two corners the hexes share, a closed segment; a touch blocks.
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      for (int d = 0; d < 6; ++d) {
        if (!g.hex_edge_wall(x, y, d)) continue;
        const Cell n = hex_neighbour(l, x, y, d);
        std::vector<Point> shared;
        for (const Point p : grid::hex::corners(l, x, y)) {
          for (const Point q : grid::hex::corners(l, n.x, n.y)) {
            if (std::hypot(p.x - q.x, p.y - q.y) < 1e-9) shared.push_back(p);
          }
        }
        EXPECT_EQ(shared.size(), 2u);
        if (shared.size() == 2 && segment_distance(pa, pb, shared[0], shared[1]) <= 1e-9)
          return false;
      }
    }
  }
  return true;
}

grid::Grid random_hex(std::mt19937& rng, Layout l, int w, int h, int wall_pct, int edge_pct = 0) {
  grid::Grid g =
      pathlab::testing::random_grid(static_cast<std::uint32_t>(rng()), w, h, wall_pct, false);
  g.set_layout(l);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int d = 0; d < 6; ++d) {
        if (static_cast<int>(rng() % 100) < edge_pct) g.set_hex_edge_wall(x, y, d, true);
      }
    }
  }
  return g;
}

// ---- edge walls --------------------------------------------------------------------------------

grid::Grid random_edges(std::mt19937& rng, int w, int h, int wall_pct, int edge_pct) {
  grid::Grid g =
      pathlab::testing::random_grid(static_cast<std::uint32_t>(rng()), w, h, wall_pct, false);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (const Side s : {Side::north, Side::east, Side::south, Side::west}) {
        if (static_cast<int>(rng() % 100) < edge_pct) g.set_edge_wall(x, y, s, true);
      }
    }
  }
  if (!g.has_edge_walls()) g.set_edge_wall(0, 0, Side::north, true);  // the kind under test
  return g;
}

/// Whether the edge between 4-adjacent cells a and b (either may be just outside the map) is
/// open, read through edge_wall() of whichever is on the map.
bool edge_open(const grid::Grid& g, Cell a, Cell b) {
  auto side = [](Cell from, Cell to) {
    if (to.x > from.x) return Side::east;
    if (to.x < from.x) return Side::west;
    return to.y > from.y ? Side::south : Side::north;
  };
  if (g.in_bounds(a)) return !g.edge_wall(a.x, a.y, side(a, b));
  if (g.in_bounds(b)) return !g.edge_wall(b.x, b.y, side(b, a));
  return true;
}

/// The edge-wall part of LOS, from the definition: no blocked edge (a closed segment) touches
/// the segment between the centres; under one_corner a touch at a lattice corner strictly inside
/// the segment (a diagonal one) needs one route around that corner open. Integer arithmetic on
/// doubled coordinates: centres odd, edges even.
bool reference_edges(const grid::Grid& g, DiagonalRule rule, Cell a, Cell b) {
  const std::int64_t ax = 2 * a.x + 1, ay = 2 * a.y + 1, bx = 2 * b.x + 1, by = 2 * b.y + 1;
  auto orient = [](std::int64_t ox, std::int64_t oy, std::int64_t px, std::int64_t py,
                   std::int64_t qx, std::int64_t qy) {
    const std::int64_t v = (px - ox) * (qy - oy) - (py - oy) * (qx - ox);
    return (v > 0) - (v < 0);
  };
  // A blocked edge from (e0x, e0y) to (e1x, e1y), doubled: whether it stops the sight.
  auto blocks = [&](std::int64_t e0x, std::int64_t e0y, std::int64_t e1x, std::int64_t e1y) {
    const int o1 = orient(ax, ay, bx, by, e0x, e0y), o2 = orient(ax, ay, bx, by, e1x, e1y);
    const int o3 = orient(e0x, e0y, e1x, e1y, ax, ay), o4 = orient(e0x, e0y, e1x, e1y, bx, by);
    if (o1 * o2 > 0 || o3 * o4 > 0) return false;
    if (o1 == 0 && o2 == 0) {  // collinear (cannot happen between centres, checked anyway)
      return std::max(ax, bx) >= std::min(e0x, e1x) && std::min(ax, bx) <= std::max(e0x, e1x) &&
             std::max(ay, by) >= std::min(e0y, e1y) && std::min(ay, by) <= std::max(e0y, e1y);
    }
    if (rule != DiagonalRule::one_corner || (o1 != 0 && o2 != 0)) return true;
    // Through an end of the edge: a lattice corner (X, Y).
    const std::int64_t X = (o1 == 0 ? e0x : e1x) / 2, Y = (o1 == 0 ? e0y : e1y) / 2;
    const int sx = bx > ax ? 1 : -1, sy = by > ay ? 1 : -1;
    const Cell n{static_cast<int>(sx > 0 ? X - 1 : X), static_cast<int>(sy > 0 ? Y - 1 : Y)};
    const Cell p{n.x + sx, n.y}, q{n.x, n.y + sy}, c{n.x + sx, n.y + sy};
    const bool r1 = g.passable(p) && edge_open(g, n, p) && edge_open(g, p, c);
    const bool r2 = g.passable(q) && edge_open(g, n, q) && edge_open(g, q, c);
    return !(r1 || r2);
  };
  for (int y = -1; y <= g.height(); ++y) {
    for (int x = -1; x <= g.width(); ++x) {
      const Cell c{x, y};
      if (!edge_open(g, c, {x + 1, y}) && blocks(2 * x + 2, 2 * y, 2 * x + 2, 2 * y + 2)) {
        return false;
      }
      if (!edge_open(g, c, {x, y + 1}) && blocks(2 * x, 2 * y + 2, 2 * x + 2, 2 * y + 2)) {
        return false;
      }
    }
  }
  return true;
}

bool reference_edge_los(const grid::Grid& g, DiagonalRule rule, Cell a, Cell b) {
  if (!g.passable(a) || !g.passable(b)) return false;
  if (a == b) return true;
  return pathlab::testing::reference_los(g, rule, a, b) && reference_edges(g, rule, a, b);
}

/// Whether the move a -> b is one for_each_move makes under rule R.
template <DiagonalRule R>
bool move_legal(const grid::Grid& g, Cell a, Cell b) {
  bool found = false;
  grid::for_each_move<R>(g, g.id(a), grid::StepBase{}, [&](grid::NodeId m, int, double) {
    if (m == g.id(b)) found = true;
  });
  return found;
}

bool move_legal(const grid::Grid& g, DiagonalRule r, Cell a, Cell b) {
  return grid::dispatch_rule(r,
                             [&](auto rule) { return move_legal<decltype(rule)::value>(g, a, b); });
}

TEST(LineOfSightHex, MatchesTheGeometricDefinitionOnRandomMaps) {
  std::mt19937 rng(29);
  int blocked = 0, clear = 0;
  for (const Layout l : kHexLayouts) {
    for (int trial = 0; trial < 120; ++trial) {
      const int w = 1 + static_cast<int>(rng() % 14), h = 1 + static_cast<int>(rng() % 14);
      // Every other map with walls on hex edges too.
      const grid::Grid g = random_hex(rng, l, w, h, static_cast<int>(rng() % 30),
                                      trial % 2 == 1 ? static_cast<int>(rng() % 8) : 0);
      for (int k = 0; k < 40; ++k) {
        const Cell a{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
        const Cell b{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
        const bool want = reference_hex_los(g, a, b);
        const bool got = grid::line_of_sight(g, kRules[rng() % 4], a, b);
        ASSERT_EQ(got, want) << grid::to_string(l) << " " << w << "x" << h << " (" << a.x << ","
                             << a.y << ") -> (" << b.x << "," << b.y << ")";
        ASSERT_EQ(got, grid::line_of_sight(g, kRules[rng() % 4], b, a));
        if (g.passable(a) && g.passable(b)) {
          ASSERT_EQ(got, grid::line_of_sight(g, DiagonalRule::no_corner_cut,
                                             grid::hex::centre(l, a.x, a.y),
                                             grid::hex::centre(l, b.x, b.y)));
        }
        (want ? clear : blocked) += 1;
      }
    }
  }
  // Both answers were exercised many times.
  EXPECT_GT(clear, 1000);
  EXPECT_GT(blocked, 1000);
}

TEST(LineOfSightHex, CountsHexesTouchedAtAVertexOrAlongAnEdge) {
  // Pointy-odd-r: from (0,0) straight down to (0,2) the segment x = 0.5 runs along the left
  // edge of (0,1) and the right edge of (-1,1), outside the map: blocked by the map's border.
  grid::Grid g(4, 4);
  g.set_layout(Layout::pointy_odd_r);
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{0, 0}, Cell{0, 2}));
  // From (1,0) to (1,2): x = 1.5 runs along the edge between (0,1) and (1,1).
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{1, 0}, Cell{1, 2}));
  g.set_blocked(0, 1, true);
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{1, 0}, Cell{1, 2}));
  g.set_blocked(0, 1, false);
  g.set_blocked(1, 1, true);
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{1, 0}, Cell{1, 2}));
  // The reference agrees on every pair of this small map, with every single wall.
  for (int wy = 0; wy < 4; ++wy) {
    for (int wx = 0; wx < 4; ++wx) {
      grid::Grid m(4, 4);
      m.set_layout(Layout::flat_even_q);
      m.set_blocked(wx, wy, true);
      for (int k = 0; k < 256; ++k) {
        const Cell a{k % 4, (k / 4) % 4}, b{(k / 16) % 4, k / 64};
        ASSERT_EQ(grid::line_of_sight(m, DiagonalRule::always, a, b), reference_hex_los(m, a, b));
      }
    }
  }
}

TEST(LineOfSightHex, NeighboursSeeEachOtherExactlyWhenTheMoveIsLegal) {
  std::mt19937 rng(7);
  for (const Layout l : kHexLayouts) {
    const grid::Grid g = random_hex(rng, l, 12, 11, 30, 10);
    ASSERT_GT(g.edge_wall_count(), 20);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        if (!g.passable(x, y)) continue;
        int moves = 0;
        grid::for_each_hex_cell(g, g.id(x, y), [&](grid::NodeId m, int) {
          const Cell c = g.cell(m);
          if (!g.in_bounds(c)) return;
          ++moves;
          for (const DiagonalRule r : kRules) {
            ASSERT_EQ(grid::line_of_sight(g, r, Cell{x, y}, c), move_legal(g, r, {x, y}, c));
          }
        });
        EXPECT_GT(moves, 0);
      }
    }
  }
}

TEST(LineOfSightEdges, MatchesTheDefinitionOnRandomMaps) {
  std::mt19937 rng(31);
  int blocked_by_edges = 0, clear = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int w = 1 + static_cast<int>(rng() % 16), h = 1 + static_cast<int>(rng() % 16);
    const grid::Grid g =
        random_edges(rng, w, h, static_cast<int>(rng() % 20), static_cast<int>(rng() % 12));
    for (int k = 0; k < 30; ++k) {
      const Cell a{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
      const Cell b{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
      const DiagonalRule r = kRules[rng() % 4];
      const bool want = reference_edge_los(g, r, a, b);
      const bool got = grid::line_of_sight(g, r, a, b);
      ASSERT_EQ(got, want) << w << "x" << h << " rule " << static_cast<int>(r) << " (" << a.x << ","
                           << a.y << ") -> (" << b.x << "," << b.y << ")";
      ASSERT_EQ(got, grid::line_of_sight(g, r, b, a));
      if (g.passable(a) && g.passable(b)) {
        ASSERT_EQ(got, grid::line_of_sight(g, r, centre(a), centre(b)))
            << "point form, rule " << static_cast<int>(r);
      }
      clear += want;
      blocked_by_edges +=
          !want && g.passable(a) && g.passable(b) && pathlab::testing::reference_los(g, r, a, b);
    }
  }
  EXPECT_GT(clear, 1000);
  EXPECT_GT(blocked_by_edges, 500);  // the edges themselves decided many answers
}

TEST(LineOfSightEdges, AdjacentCellsSeeEachOtherExactlyWhenTheMoveIsLegal) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 30; ++trial) {
    const grid::Grid g = random_edges(rng, 10, 9, 20, 25);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const Cell a{x, y}, b{x + dx, y + dy};
            if ((dx == 0 && dy == 0) || !g.passable(a) || !g.passable(b)) continue;
            for (const DiagonalRule r : kRules) {
              if (r == DiagonalRule::never && dx != 0 && dy != 0) {
                // No diagonal moves: LOS is the no_corner_cut answer.
                ASSERT_EQ(grid::line_of_sight(g, r, a, b),
                          move_legal(g, DiagonalRule::no_corner_cut, a, b));
                continue;
              }
              ASSERT_EQ(grid::line_of_sight(g, r, a, b), move_legal(g, r, a, b))
                  << "rule " << static_cast<int>(r) << " (" << x << "," << y << ") d(" << dx << ","
                  << dy << ")";
            }
          }
        }
      }
    }
  }
}

TEST(LineOfSightEdges, PointFormTouchingAnEdgeIsBlocked) {
  grid::Grid g(4, 4);
  g.set_edge_wall(1, 1, Side::east, true);  // the edge x = 2, y in [1, 2]
  // Crossing it, touching its end, running along it: blocked; passing beside it: clear.
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Point{1.5, 1.5}, Point{2.5, 1.5}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Point{1.5, 0.5}, Point{2.5, 1.5}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Point{2, 0.5}, Point{2, 3.5}));
  EXPECT_TRUE(
      grid::line_of_sight(g, DiagonalRule::no_corner_cut, Point{1.5, 2.5}, Point{2.5, 2.5}));
  EXPECT_TRUE(
      grid::line_of_sight(g, DiagonalRule::no_corner_cut, Point{2.5, 0.5}, Point{2.5, 3.5}));
  // One corner: through the lattice corner (2, 1), the route through (2, 0) stays open.
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::one_corner, Cell{1, 0}, Cell{2, 1}) ==
              grid::line_of_sight(g, DiagonalRule::one_corner, Point{1.5, 0.5}, Point{2.5, 1.5}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::one_corner, Cell{1, 0}, Cell{2, 1}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{1, 0}, Cell{2, 1}));
}

TEST(LineOfSightLayers, FloorsNeverSeeEachOtherAndEachFloorSeesAsAlone) {
  std::mt19937 rng(11);
  for (const Layout l : {Layout::square, Layout::pointy_odd_r, Layout::pointy_even_r,
                         Layout::flat_odd_q, Layout::flat_even_q}) {
    for (int trial = 0; trial < 20; ++trial) {
      const int w = 2 + static_cast<int>(rng() % 9), h = 2 + static_cast<int>(rng() % 9);
      const int layers = 2 + static_cast<int>(rng() % 2);
      grid::Grid g = grid::Grid::layered(w, h, layers);
      g.set_layout(l);
      std::vector<grid::Grid> floors;
      for (int f = 0; f < layers; ++f) {
        floors.push_back(
            pathlab::testing::random_grid(static_cast<std::uint32_t>(rng()), w, h, 25, false));
        floors.back().set_layout(l);
        for (int y = 0; y < h; ++y) {
          for (int x = 0; x < w; ++x) {
            const Cell c = g.at(f, x, y);
            g.set_blocked(c.x, c.y, !floors.back().passable(x, y));
          }
        }
      }
      // A link, so that the grid is not plain even on one square floor.
      ASSERT_FALSE(g.add_link({g.at(0, 0, 0), g.at(1, 0, 0), 1.0f, false}).has_value());
      for (int k = 0; k < 60; ++k) {
        const int fa = static_cast<int>(rng() % layers), fb = static_cast<int>(rng() % layers);
        const Cell a{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
        const Cell b{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
        const DiagonalRule r = kRules[rng() % 4];
        const bool got = grid::line_of_sight(g, r, g.at(fa, a.x, a.y), g.at(fb, b.x, b.y));
        if (fa != fb) {
          ASSERT_FALSE(got);
        } else {
          ASSERT_EQ(got, grid::line_of_sight(floors[static_cast<std::size_t>(fa)], r, a, b))
              << grid::to_string(l) << " floor " << fa;
        }
      }
      // The point form too: centres on two floors never see each other, even above free cells.
      grid::Grid open = grid::Grid::layered(w, h, 2);
      open.set_layout(l);
      const Cell a = open.at(0, 0, h - 1), b = open.at(1, 0, 0);
      const Point pa = is_hex(l) ? grid::hex::centre(l, a.x, a.y) : centre(a);
      const Point pb = is_hex(l) ? grid::hex::centre(l, b.x, b.y) : centre(b);
      EXPECT_FALSE(grid::line_of_sight(open, DiagonalRule::always, pa, pb));
      EXPECT_FALSE(grid::line_of_sight(open, DiagonalRule::always, a, b));
    }
  }
}

TEST(LineOfSightKinds, AnyFormEqualsTheCellForm) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const int w = 2 + static_cast<int>(rng() % 12), h = 2 + static_cast<int>(rng() % 12);
    const grid::Grid g = trial % 2 == 0 ? random_edges(rng, w, h, 15, 10)
                                        : random_hex(rng, kHexLayouts[rng() % 4], w, h, 20);
    const Cell a{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
    const Cell b{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
    for (const DiagonalRule r : kRules) {
      const bool any = grid::dispatch_rule(r, [&](auto rule) {
        return grid::line_of_sight_any<decltype(rule)::value>(g, g.id(a), g.id(b));
      });
      ASSERT_EQ(any, grid::line_of_sight(g, r, a, b));
    }
  }
}

}  // namespace los_kinds
