// Closest-point geometry (libs/agents geometry.hpp): hand-computed values for segments,
// polygons, discs and cell squares, and nearest_wall_point against brute-force sampling of every
// blocked square's boundary.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/agents/geometry.hpp>

#include "agents_test_util.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "test_grids.hpp"

using namespace pathlab;
using agents::Vec2;

namespace {

using pathlab::testing::expect_near;

double gen_coord(double lo, double hi) {
  // Quarter-unit lattice plus a random fraction: hits grid lines and generic points.
  const int q = *rc::gen::inRange(static_cast<int>(lo * 4), static_cast<int>(hi * 4) + 1);
  const bool exact = *rc::gen::arbitrary<bool>();
  const double frac = exact ? 0.0 : *rc::gen::inRange(0, 1000) / 4000.0;
  return q / 4.0 + frac;
}

}  // namespace

TEST(Geometry, ClosestPointOnSegment) {
  const Vec2 a{0, 0}, b{4, 0};
  expect_near(agents::closest_point_on_segment({1, 3}, a, b), {1, 0});   // interior projection
  expect_near(agents::closest_point_on_segment({-2, 1}, a, b), {0, 0});  // before a
  expect_near(agents::closest_point_on_segment({7, -1}, a, b), {4, 0});  // beyond b
  // Diagonal segment (0,0)-(2,2): p = (2,0) projects at t = (2·2)/(8) = 0.5 → (1,1).
  expect_near(agents::closest_point_on_segment({2, 0}, {0, 0}, {2, 2}), {1, 1});
  // Degenerate segment: the single point.
  expect_near(agents::closest_point_on_segment({5, 5}, {1, 2}, {1, 2}), {1, 2});
}

TEST(Geometry, PointInPolygon) {
  // A concave "L": the square [0,4]² minus [2,4]×[2,4].
  const std::vector<Vec2> l{{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 4}, {0, 4}};
  EXPECT_TRUE(agents::point_in_polygon({1, 1}, l));
  EXPECT_TRUE(agents::point_in_polygon({3, 1}, l));
  EXPECT_TRUE(agents::point_in_polygon({1, 3}, l));
  EXPECT_FALSE(agents::point_in_polygon({3, 3}, l));  // the notch
  EXPECT_FALSE(agents::point_in_polygon({5, 1}, l));
  EXPECT_TRUE(agents::point_in_polygon({4, 1}, l));    // on an edge
  EXPECT_TRUE(agents::point_in_polygon({2, 2}, l));    // reflex vertex
  EXPECT_FALSE(agents::point_in_polygon({-1, 2}, l));  // ray through vertex level y = 2
  EXPECT_TRUE(agents::point_in_polygon({1, 2}, l));
  EXPECT_FALSE(agents::point_in_polygon({0, 0}, std::vector<Vec2>{}));
}

TEST(Geometry, NearestOnPolygon) {
  const std::vector<Vec2> l{{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 4}, {0, 4}};
  // (3,3.5) in the notch: edge x = 2 at distance 1, edge y = 2 at 1.5 → (2,3.5).
  auto r = agents::nearest_on_polygon({3, 3.5}, l);
  EXPECT_FALSE(r.inside);
  EXPECT_DOUBLE_EQ(r.distance, 1.0);
  expect_near(r.point, {2, 3.5});
  // Outside near a corner: (6,-1) → (4,0), distance √(4+1) = √5.
  r = agents::nearest_on_polygon({6, -1}, l);
  EXPECT_DOUBLE_EQ(r.distance, std::sqrt(5.0));
  expect_near(r.point, {4, 0});
  // Inside: distance 0, inside flag, point = nearest boundary point (1,0.5) → (1,0).
  r = agents::nearest_on_polygon({1, 0.5}, l);
  EXPECT_TRUE(r.inside);
  EXPECT_EQ(r.distance, 0.0);
  expect_near(r.point, {1, 0});
  r = agents::nearest_on_polygon({1, 1}, std::vector<Vec2>{});
  EXPECT_TRUE(std::isinf(r.distance));
}

TEST(Geometry, NearestOnDisc) {
  // Centre (1,1), r = 2; p = (4,5): |p−c| = √(9+16) = 5, distance 5 − 2 = 3,
  // point = c + 2·(3,4)/5 = (2.2, 2.6).
  auto r = agents::nearest_on_disc({4, 5}, {1, 1}, 2);
  EXPECT_DOUBLE_EQ(r.distance, 3.0);
  expect_near(r.point, {2.2, 2.6});
  EXPECT_FALSE(r.inside);
  // Inside: p = (1,2): |p−c| = 1, distance 1 − 2 = −1, point (1,3).
  r = agents::nearest_on_disc({1, 2}, {1, 1}, 2);
  EXPECT_DOUBLE_EQ(r.distance, -1.0);
  expect_near(r.point, {1, 3});
  EXPECT_TRUE(r.inside);
  // On the circle: distance 0, inside.
  r = agents::nearest_on_disc({3, 1}, {1, 1}, 2);
  EXPECT_EQ(r.distance, 0.0);
  EXPECT_TRUE(r.inside);
  // Centre: documented choice centre + (r, 0).
  r = agents::nearest_on_disc({1, 1}, {1, 1}, 2);
  EXPECT_DOUBLE_EQ(r.distance, -2.0);
  expect_near(r.point, {3, 1});
}

TEST(Geometry, NearestOnCell) {
  const Cell c{2, 3};                               // square [2,3]×[3,4]
  auto r = agents::nearest_on_cell({0.5, 3.5}, c);  // left: (2,3.5), distance 1.5
  expect_near(r.point, {2, 3.5});
  EXPECT_DOUBLE_EQ(r.distance, 1.5);
  EXPECT_FALSE(r.inside);
  r = agents::nearest_on_cell({4, 6}, c);  // corner (3,4): √(1+4) = √5
  expect_near(r.point, {3, 4});
  EXPECT_DOUBLE_EQ(r.distance, std::sqrt(5.0));
  r = agents::nearest_on_cell({2.5, 3.9}, c);  // inside, bottom edge (y = 4) nearest
  EXPECT_TRUE(r.inside);
  EXPECT_EQ(r.distance, 0.0);
  expect_near(r.point, {2.5, 4});
  r = agents::nearest_on_cell({3, 3.5}, c);  // on the right edge
  EXPECT_TRUE(r.inside);
  expect_near(r.point, {3, 3.5});
}

TEST(Geometry, NearestWallPointHandComputed) {
  grid::Grid g(6, 5);
  g.set_blocked(3, 2, true);  // square [3,4]×[2,3]
  // Centre of (1,2) = (1.5,2.5): wall square at distance 1.5 (x = 3); border x = 0 at 1.5 too;
  // y borders at 2.5. Row-major tie-break: cell (-1,2) (y = 2, x = -1) comes first → (0, 2.5).
  auto r = agents::nearest_wall_point(g, {1.5, 2.5}, 3);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->distance, 1.5);
  expect_near(r->point, {0, 2.5});
  // (2.2, 2.5): wall at 0.8 (x = 3), borders at 2.2 and 2.5.
  r = agents::nearest_wall_point(g, {2.2, 2.5}, 3);
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->distance, 0.8, 1e-12);
  expect_near(r->point, {3, 2.5});
  // max_dist is inclusive: exactly 1.5 finds the border point, just below finds nothing.
  r = agents::nearest_wall_point(g, {1.5, 2.5}, 1.5);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->distance, 1.5);
  EXPECT_FALSE(agents::nearest_wall_point(g, {1.5, 2.5}, 1.49));
  // Out of range.
  EXPECT_FALSE(agents::nearest_wall_point(g, {2.2, 2.5}, 0.7));
  // (4.5, 3.5) to the square's corner (4,3): √(0.25+0.25) = √0.5; border y = 5 at 1.5.
  r = agents::nearest_wall_point(g, {4.5, 3.5}, 1);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->distance, std::sqrt(0.5));
  expect_near(r->point, {4, 3});
  // Inside a wall and outside the map: in collision.
  r = agents::nearest_wall_point(g, {3.5, 2.5}, 1);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->inside);
  EXPECT_EQ(r->distance, 0.0);
  r = agents::nearest_wall_point(g, {-3, 1}, 0.5);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->inside);
  // Invalid input.
  EXPECT_FALSE(agents::nearest_wall_point(g, {1, 1}, -1));
  EXPECT_FALSE(agents::nearest_wall_point(g, {std::nan(""), 1}, 1));
  // Empty map: everything is wall.
  r = agents::nearest_wall_point(grid::Grid(0, 0), {0, 0}, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->distance, 0.0);
}

// Sampling every blocked square's boundary (including the outside ring) finds nothing nearer
// than the reported point, and the reported point lies on a blocked square at the reported
// distance.
RC_GTEST_PROP(Geometry, NearestWallPointMatchesBruteForceSampling, ()) {
  const int w = *rc::gen::inRange(1, 9);
  const int h = *rc::gen::inRange(1, 9);
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  const grid::Grid g = pathlab::testing::random_grid(seed, w, h, *rc::gen::inRange(0, 40), false);
  const Vec2 p{gen_coord(0, w), gen_coord(0, h)};
  RC_PRE(p.x <= w && p.y <= h);
  const double max_dist = *rc::gen::inRange(0, 40) / 8.0;
  const auto r = agents::nearest_wall_point(g, p, max_dist);

  constexpr int kSamples = 64;  // per edge; spacing 1/64, so sampling error ≤ 1/128
  double brute = std::numeric_limits<double>::infinity();
  bool inside = false;
  for (int y = -1; y <= h; ++y) {
    for (int x = -1; x <= w; ++x) {
      if (g.passable(x, y)) continue;
      if (p.x >= x && p.x <= x + 1 && p.y >= y && p.y <= y + 1) inside = true;
      for (int i = 0; i <= kSamples; ++i) {
        const double t = static_cast<double>(i) / kSamples;
        for (const Vec2 q : {Vec2{x + t, double(y)}, Vec2{x + t, y + 1.0}, Vec2{double(x), y + t},
                             Vec2{x + 1.0, y + t}}) {
          brute = std::min(brute, agents::norm(p - q));
        }
      }
    }
  }
  if (inside) {
    RC_ASSERT(r.has_value());
    RC_ASSERT(r->inside);
    RC_ASSERT(r->distance == 0.0);
    return;
  }
  const double tol = 1.0 / 128 + 1e-12;
  if (!r) {
    RC_ASSERT(brute > max_dist - tol);  // nothing (much) closer than max_dist
    return;
  }
  RC_ASSERT(!r->inside);
  RC_ASSERT(r->distance <= max_dist);
  RC_ASSERT(std::abs(r->distance - agents::norm(p - r->point)) < 1e-12);
  RC_ASSERT(r->distance <= brute + 1e-12);  // exact ≤ sampled
  RC_ASSERT(r->distance >= brute - tol);    // and sampling comes within its resolution
  // The point is on (the boundary of) a blocked square.
  bool on_wall = false;
  for (int y = -1; y <= h; ++y) {
    for (int x = -1; x <= w; ++x) {
      if (!g.passable(x, y) && r->point.x >= x && r->point.x <= x + 1 && r->point.y >= y &&
          r->point.y <= y + 1) {
        on_wall = true;
      }
    }
  }
  RC_ASSERT(on_wall);
}

// The polygon distance equals the minimum over sampled boundary points, and point_in_polygon
// agrees with the cell test on unit squares.
RC_GTEST_PROP(Geometry, PolygonAgreesWithSamplingAndCells, ()) {
  const Cell c{*rc::gen::inRange(-3, 3), *rc::gen::inRange(-3, 3)};
  const std::vector<Vec2> sq{{double(c.x), double(c.y)},
                             {c.x + 1.0, double(c.y)},
                             {c.x + 1.0, c.y + 1.0},
                             {double(c.x), c.y + 1.0}};
  const Vec2 p{gen_coord(-5, 5), gen_coord(-5, 5)};
  const auto a = agents::nearest_on_polygon(p, sq);
  const auto b = agents::nearest_on_cell(p, c);
  RC_ASSERT(a.inside == b.inside);
  RC_ASSERT(std::abs(a.distance - b.distance) < 1e-12);
  RC_ASSERT(agents::norm(a.point - b.point) < 1e-12 || a.inside);
}
