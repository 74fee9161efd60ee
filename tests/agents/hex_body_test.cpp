// Bodies on hex maps (libs/agents/src/hex_body.hpp) against brute force written here: the
// whole radius a body needs at a hex's centre from every wall hexagon around it, and which
// edges a body crosses from a dense scan of each edge against every wall hexagon of the map.
#include <gtest/gtest.h>

#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/unit.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "../../libs/agents/src/hex_body.hpp"

using namespace pathlab;

namespace hex_body_test {

constexpr std::array<grid::Layout, 4> kLayouts = {
    grid::Layout::pointy_odd_r, grid::Layout::pointy_even_r, grid::Layout::flat_odd_q,
    grid::Layout::flat_even_q};

double point_segment(Point p, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double t =
      std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
  return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

/// Distance from p to the closed hexagon of (x, y), brute force over its six sides (p is
/// outside it in every use here, or on its boundary).
double to_hexagon(grid::Layout l, Point p, int x, int y) {
  const auto c = grid::hex::corners(l, x, y);
  double d = 1e300;
  for (std::size_t k = 0; k < 6; ++k) d = std::min(d, point_segment(p, c[k], c[(k + 1) % 6]));
  return d;
}

/// The least distance from p to a wall hexagon of g (the hexes outside the map counting as
/// walls) among the hexes within 4 columns and rows of cell `near` (p lies on its hex; every
/// hex farther away is over 2 units from p, more than any body tested here).
double clearance(const grid::Grid& g, Point p, Cell near) {
  double d = 1e300;
  for (int y = near.y - 4; y <= near.y + 4; ++y) {
    for (int x = near.x - 4; x <= near.x + 4; ++x) {
      if (g.in_bounds(x, y) && g.passable(x, y)) continue;
      d = std::min(d, to_hexagon(g.layout(), p, x, y));
    }
  }
  return d;
}

grid::Grid random_hex(grid::Layout l, int w, int h, double density, std::uint32_t seed) {
  grid::Grid g(w, h);
  g.set_layout(l);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (u(rng) < density) g.set_blocked(x, y, true);
    }
  }
  return g;
}

TEST(HexBody, WholeRadiusIsTheLeastRingNoCloserThanTheBody) {
  // Brute force: the ring k + 1's nearest hexagon from the centre of (20, 20) on a big map.
  for (const grid::Layout l : kLayouts) {
    const Point o = grid::hex::centre(l, 20, 20);
    std::array<double, 6> ring;
    ring.fill(1e300);
    for (int y = 5; y <= 35; ++y) {
      for (int x = 5; x <= 35; ++x) {
        const int k = grid::hex::distance(l, {20, 20}, {x, y}) - 1;
        if (k >= 0 && k < 6) ring[k] = std::min(ring[k], to_hexagon(l, o, x, y));
      }
    }
    EXPECT_NEAR(ring[0], 0.5, 1e-12);
    EXPECT_NEAR(ring[1], 2 / std::sqrt(3.0), 1e-12);
    for (int k = 0; k < 5; ++k) {
      EXPECT_EQ(agents::detail::hex_whole_radius(ring[k]), k);
      EXPECT_EQ(agents::detail::hex_whole_radius(ring[k] + 1e-6), k + 1);
      EXPECT_EQ(agents::detail::hex_whole_radius(ring[k] - 1e-6), k);
    }
  }
  EXPECT_EQ(agents::detail::hex_whole_radius(0.3), 0);
  EXPECT_THROW((void)agents::detail::hex_whole_radius(1e9), std::invalid_argument);
}

TEST(HexBody, AOneHexCorridorLetsThroughOnlyBodiesUpToHalfAnEdge) {
  // Row 2 of a pointy map free between walls above and below: each step along it crosses an
  // edge with walls at both ends, 1/sqrt 3 long.
  grid::Grid g(8, 5);
  g.set_layout(grid::Layout::pointy_odd_r);
  for (int y : {1, 3}) {
    for (int x = 0; x < 8; ++x) g.set_blocked(x, y, true);
  }
  const double half = 0.5 / std::sqrt(3.0);
  EXPECT_TRUE(agents::detail::hex_body_crosses(g, 3, 2, 0, half));
  EXPECT_FALSE(agents::detail::hex_body_crosses(g, 3, 2, 0, half + 1e-6));
  EXPECT_FALSE(agents::detail::hex_body_crosses(g, 3, 2, 0, 0.3));
  EXPECT_FALSE(agents::detail::hex_crossing(g, 3, 2, 0, 0.3).has_value());
  const auto mid = agents::detail::hex_crossing(g, 3, 2, 0, 0.25);
  ASSERT_TRUE(mid.has_value());
  const std::array<Point, 2> e = grid::hex::edge(g.layout(), 3, 2, 0);
  EXPECT_NEAR(mid->x, (e[0].x + e[1].x) / 2, 1e-12);
  EXPECT_NEAR(mid->y, (e[0].y + e[1].y) / 2, 1e-12);
  // The body map walls those edges for 0.3 and none for 0.25: rows 0, 2 and 4 are all such
  // corridors (walls or the outside on both sides), 7 edges each.
  const grid::Grid wide = agents::detail::hex_body_map(g, 0.3);
  EXPECT_TRUE(wide.hex_edge_wall(3, 2, 0));
  EXPECT_TRUE(wide.hex_edge_wall(4, 2, 3));
  EXPECT_EQ(wide.edge_wall_count(), 21);
  EXPECT_EQ(agents::detail::hex_body_map(g, 0.25).edge_wall_count(), 0);
  // Free the hex above one edge's end: a 0.3 body passes by that end, off the centre line.
  g.set_blocked(3, 1, false);  // (3, 1): above both (3, 2) and (4, 2) (row 1 is shifted right)
  EXPECT_TRUE(agents::detail::hex_body_crosses(g, 3, 2, 0, 0.3));
  const auto by = agents::detail::hex_crossing(g, 3, 2, 0, 0.3);
  ASSERT_TRUE(by.has_value());
  EXPECT_GE(clearance(g, *by, {3, 2}), 0.3);
  EXPECT_LT(by->y, (e[0].y + e[1].y) / 2);  // toward the freed hex, above
}

TEST(HexBody, EdgesCrossedMatchADenseScanOfEveryEdge) {
  // For bodies of whole radius 0 and 1, each edge between two hexes where the body fits is
  // walled exactly when no point of it lies r from every wall (a dense scan of 121 points;
  // hex_body_crosses samples 33 for whole radius >= 1, so a way wider than the body by less
  // than the difference of the two samplings may go either way).
  int walled = 0, open = 0;
  std::uint32_t seed = 1;
  for (const grid::Layout l : kLayouts) {
    for (const double r : {0.3, 0.45, 0.7, 1.1}) {
      const grid::Grid g = random_hex(l, 9, 8, 0.18, seed++);
      const grid::Grid body = agents::detail::hex_body_map(g, r);
      grid::Unit u;
      u.cost.fill(1.0f);
      u.radius = agents::detail::hex_whole_radius(r);
      const auto view = g.view(u);
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          for (int d = 0; d < 6; ++d) {
            const Cell n = grid::hex::neighbour(l, x, y, d);
            if (!view->passable(x, y) || !view->passable(n)) {
              EXPECT_FALSE(body.hex_edge_wall(x, y, d));  // only edges the body could use
              continue;
            }
            const std::array<Point, 2> e = grid::hex::edge(l, x, y, d);
            double best = 0;
            for (int s = 0; s <= 120; ++s) {
              const double t = s / 120.0;
              best = std::max(
                  best,
                  clearance(g, {e[0].x + t * (e[1].x - e[0].x), e[0].y + t * (e[1].y - e[0].y)},
                            {x, y}));
            }
            const bool is_walled = body.hex_edge_wall(x, y, d);
            if (best < r - 1e-9) {
              EXPECT_TRUE(is_walled) << grid::to_string(l) << " r " << r << " " << x << "," << y
                                     << " d" << d << " best " << best;
            } else if (best >= r + 0.02 || u.radius == 0) {
              EXPECT_FALSE(is_walled) << grid::to_string(l) << " r " << r << " " << x << "," << y
                                      << " d" << d << " best " << best;
            }
            (is_walled ? walled : open) += 1;
            if (!is_walled) {
              const auto at = agents::detail::hex_crossing(g, x, y, d, r);
              ASSERT_TRUE(at.has_value());
              EXPECT_GE(clearance(g, *at, {x, y}), r - 1e-9);
            }
          }
        }
      }
    }
  }
  EXPECT_GT(walled, 50);
  EXPECT_GT(open, 500);
}

}  // namespace hex_body_test
