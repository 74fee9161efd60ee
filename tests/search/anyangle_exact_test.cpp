// Tests of anyangle-exact, the exact shortest any-angle path (shared docs/ALGORITHMS.md, "Line
// of sight and any-angle paths"): hand-checked geometry, the corner-squeeze rule, the per-grid
// cache, the trace, and properties on random grids against independent references (Dijkstra
// over every lattice point on tiny grids, over the convex corners on larger sparse ones, both
// with the test's own exact segment test), grid A*, Theta* and Lazy Theta*; Moving AI's arena
// when the benchmark data is present.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using namespace pathlab::testing;
using grid::DiagonalRule;
using search::Algorithm;

namespace {

constexpr DiagonalRule kRules[] = {DiagonalRule::never, DiagonalRule::no_corner_cut,
                                   DiagonalRule::one_corner, DiagonalRule::always};

search::Options options(Algorithm a, DiagonalRule rule) {
  search::Options o;
  o.algorithm = a;
  o.moves.diagonal = rule;
  return o;
}

search::Result solve(const grid::Grid& g, DiagonalRule rule, Cell s, Cell t,
                     Algorithm a = Algorithm::anyangle_exact) {
  return search::Pathfinder(g, options(a, rule)).find(s, t);
}

// --- an independent exact segment test, in doubled coordinates ---------------------------------

struct P2 {
  std::int64_t x, y;  ///< twice the map coordinates: centres odd, lattice corners even
};
P2 doubled(Point p) {
  return {std::llround(2 * p.x), std::llround(2 * p.y)};
}
P2 doubled_centre(Cell c) {
  return {2 * std::int64_t{c.x} + 1, 2 * std::int64_t{c.y} + 1};
}

bool wall(const grid::Grid& g, std::int64_t x, std::int64_t y) {
  return !g.passable(static_cast<int>(x), static_cast<int>(y));
}
/// Lattice point (X, Y) with only a diagonal pair of walls among its four cells: walls that
/// touch only at this corner.
bool squeeze(const grid::Grid& g, std::int64_t X, std::int64_t Y) {
  const bool nw = wall(g, X - 1, Y - 1), ne = wall(g, X, Y - 1);
  const bool sw = wall(g, X - 1, Y), se = wall(g, X, Y);
  return (nw && se) || (ne && sw);
}

/// a/b with b > 0.
struct Frac {
  std::int64_t n, d;
};
bool less(Frac a, Frac b) {
  return a.n * b.d < b.n * a.d;
}

/// Whether the open segment a-b meets the open square of cell (cx, cy): Liang-Barsky clipping
/// of t in (0, 1) with exact fractions.
bool meets_open_square(P2 a, P2 b, std::int64_t cx, std::int64_t cy) {
  Frac lo{0, 1}, hi{1, 1};
  auto clip = [&](std::int64_t p, std::int64_t d, std::int64_t low, std::int64_t high) {
    if (d == 0) return low < p && p < high;
    Frac f1{low - p, d}, f2{high - p, d};
    if (d < 0) f1 = {p - high, -d}, f2 = {p - low, -d};
    if (less(lo, f1)) lo = f1;
    if (less(f2, hi)) hi = f2;
    return true;
  };
  if (!clip(a.x, b.x - a.x, 2 * cx, 2 * cx + 2)) return false;
  if (!clip(a.y, b.y - a.y, 2 * cy, 2 * cy + 2)) return false;
  return less(lo, hi);
}

/// The definition, checked the slow way: no wall's open square meets the open segment, no unit
/// grid edge it runs along has walls on both sides, and (unless `always`) no lattice point
/// strictly inside it is a squeeze.
bool segment_ok(const grid::Grid& g, DiagonalRule rule, P2 a, P2 b) {
  const std::int64_t x0 = std::min(a.x, b.x) / 2 - 1, x1 = std::max(a.x, b.x) / 2 + 1;
  const std::int64_t y0 = std::min(a.y, b.y) / 2 - 1, y1 = std::max(a.y, b.y) / 2 + 1;
  for (std::int64_t cy = y0; cy <= y1; ++cy) {
    for (std::int64_t cx = x0; cx <= x1; ++cx) {
      if (wall(g, cx, cy) && meets_open_square(a, b, cx, cy)) return false;
    }
  }
  if (a.x == b.x && a.x % 2 == 0) {
    for (std::int64_t y = std::min(a.y, b.y); y < std::max(a.y, b.y); y += 2) {
      if (wall(g, a.x / 2 - 1, y / 2) && wall(g, a.x / 2, y / 2)) return false;
    }
  }
  if (a.y == b.y && a.y % 2 == 0) {
    for (std::int64_t x = std::min(a.x, b.x); x < std::max(a.x, b.x); x += 2) {
      if (wall(g, x / 2, a.y / 2 - 1) && wall(g, x / 2, a.y / 2)) return false;
    }
  }
  if (rule != DiagonalRule::always) {
    const std::int64_t dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    for (std::int64_t Y = y0; Y <= y1 + 1; ++Y) {
      for (std::int64_t X = x0; X <= x1 + 1; ++X) {
        const std::int64_t px = 2 * X - a.x, py = 2 * Y - a.y;
        const std::int64_t dot = px * dx + py * dy;
        if (px * dy - py * dx == 0 && dot > 0 && dot < len2 && squeeze(g, X, Y)) return false;
      }
    }
  }
  return true;
}

/// Brute-force optimum: Dijkstra over the two centres and every lattice point of the map (but
/// squeezes, which a path may not pass through unless `always`), joined when segment_ok.
double brute_force(const grid::Grid& g, DiagonalRule rule, Cell s, Cell t) {
  std::vector<P2> nodes{doubled_centre(s), doubled_centre(t)};
  for (int Y = 0; Y <= g.height(); ++Y) {
    for (int X = 0; X <= g.width(); ++X) {
      if (rule == DiagonalRule::always || !squeeze(g, X, Y)) nodes.push_back({2 * X, 2 * Y});
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(nodes.size(), inf);
  std::vector<bool> done(nodes.size(), false);
  dist[0] = 0;
  for (;;) {
    std::size_t u = nodes.size();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!done[i] && dist[i] < inf && (u == nodes.size() || dist[i] < dist[u])) u = i;
    }
    if (u == nodes.size()) return inf;
    if (u == 1) return dist[1];
    done[u] = true;
    for (std::size_t v = 0; v < nodes.size(); ++v) {
      if (done[v] || !segment_ok(g, rule, nodes[u], nodes[v])) continue;
      const double dx = static_cast<double>(nodes[v].x - nodes[u].x) / 2;
      const double dy = static_cast<double>(nodes[v].y - nodes[u].y) / 2;
      dist[v] = std::min(dist[v], dist[u] + std::hypot(dx, dy));
    }
  }
}

double length(P2 a, P2 b) {
  return std::hypot(static_cast<double>(b.x - a.x) / 2, static_cast<double>(b.y - a.y) / 2);
}

/// A faster reference for larger grids: shortest paths around polygons bend only at convex
/// corners (one wall among the four cells; under `always` also the squeezes), so the optimum
/// is the direct segment or start -> corner -> ... -> corner -> goal, with all-pairs corner
/// distances (Floyd-Warshall over segment_ok edges) computed once per grid.
struct CornerReference {
  const grid::Grid& g;
  DiagonalRule rule;
  std::vector<P2> corners;
  std::vector<double> d;  ///< corners.size()^2

  CornerReference(const grid::Grid& grid, DiagonalRule r) : g(grid), rule(r) {
    for (int Y = 0; Y <= g.height(); ++Y) {
      for (int X = 0; X <= g.width(); ++X) {
        const int walls =
            wall(g, X - 1, Y - 1) + wall(g, X, Y - 1) + wall(g, X - 1, Y) + wall(g, X, Y);
        if (walls == 1 || (walls == 2 && squeeze(g, X, Y) && rule == DiagonalRule::always)) {
          corners.push_back({2 * X, 2 * Y});
        }
      }
    }
    const std::size_t n = corners.size();
    d.assign(n * n, std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < n; ++i) {
      d[i * n + i] = 0;
      for (std::size_t j = i + 1; j < n; ++j) {
        if (segment_ok(g, rule, corners[i], corners[j])) {
          d[i * n + j] = d[j * n + i] = length(corners[i], corners[j]);
        }
      }
    }
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
        }
      }
    }
  }

  double operator()(Cell s, Cell t) const {
    const P2 a = doubled_centre(s), b = doubled_centre(t);
    if (segment_ok(g, rule, a, b)) return length(a, b);
    const std::size_t n = corners.size();
    std::vector<double> from_s(n), to_t(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double inf = std::numeric_limits<double>::infinity();
      from_s[i] = segment_ok(g, rule, a, corners[i]) ? length(a, corners[i]) : inf;
      to_t[i] = segment_ok(g, rule, corners[i], b) ? length(corners[i], b) : inf;
    }
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) best = std::min(best, from_s[i] + d[i * n + j] + to_t[j]);
    }
    return best;
  }
};

/// Everything a found result must satisfy, whatever its length.
void check_result(const grid::Grid& g, DiagonalRule rule, Cell s, Cell t, const search::Result& r) {
  RC_ASSERT(r.status == Status::found);
  RC_ASSERT(!r.points.empty());
  RC_ASSERT(r.path.size() == r.points.size());
  RC_ASSERT(r.points.front() == centre(s));
  RC_ASSERT(r.points.back() == centre(t));
  RC_ASSERT(r.path.front() == s);
  RC_ASSERT(r.path.back() == t);
  RC_ASSERT(near(r.cost, search::polyline_length(r.points)));
  for (std::size_t i = 1; i + 1 < r.points.size(); ++i) {
    // Corners are lattice points, each with a free cell of path touching it.
    const P2 p = doubled(r.points[i]);
    RC_ASSERT(p.x % 2 == 0 && p.y % 2 == 0);
    RC_ASSERT((Point{p.x / 2.0, p.y / 2.0}) == r.points[i]);
    const Cell c = r.path[i];
    RC_ASSERT(g.passable(c));
    const bool touches =
        (c.x == p.x / 2 || c.x == p.x / 2 - 1) && (c.y == p.y / 2 || c.y == p.y / 2 - 1);
    RC_ASSERT(touches);
    if (rule != DiagonalRule::always) RC_ASSERT(!squeeze(g, p.x / 2, p.y / 2));
    // A real bend: corners the path runs straight through are not listed.
    const P2 a = doubled(r.points[i - 1]), b = doubled(r.points[i + 1]);
    RC_ASSERT((p.x - a.x) * (b.y - p.y) - (p.y - a.y) * (b.x - p.x) != 0);
  }
  for (std::size_t i = 1; i < r.points.size(); ++i) {
    RC_ASSERT(segment_ok(g, rule, doubled(r.points[i - 1]), doubled(r.points[i])));
  }
}

/// A value drawn uniformly from [lo, hi) whatever the current size (inRange is size-scaled:
/// most early cases would be tiny grids).
template <class T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

struct ExactCase {
  grid::Grid grid;
  DiagonalRule rule;
  Cell start, goal;
};

ExactCase draw_case(int max_side) {
  const int w = uniform(1, max_side + 1);
  const int h = uniform(1, max_side + 1);
  const int walls = uniform(0, 45);
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  ExactCase c{random_grid(seed, w, h, walls, false),
              kRules[uniform<std::size_t>(0, std::size(kRules))],
              {},
              {}};
  const auto cells = passable_cells(c.grid);
  RC_PRE(!cells.empty());
  c.start = cells[uniform<std::size_t>(0, cells.size())];
  c.goal = cells[uniform<std::size_t>(0, cells.size())];
  return c;
}

}  // namespace

TEST(AnyAngleExact, OpenGridIsTheStraightLine) {
  const grid::Grid g(10, 10);
  for (const DiagonalRule rule : kRules) {
    const auto r = solve(g, rule, {0, 0}, {9, 6});
    ASSERT_EQ(r.status, Status::found);
    EXPECT_NEAR(r.cost, std::hypot(9.0, 6.0), 1e-12);
    EXPECT_EQ(r.points, (std::vector<Point>{{0.5, 0.5}, {9.5, 6.5}}));
    EXPECT_EQ(r.path, (std::vector<Cell>{{0, 0}, {9, 6}}));
  }
  // The straight-move cost scales the length.
  search::Options o = options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut);
  o.moves.cost_model = grid::CostModel::integer;
  EXPECT_NEAR(search::Pathfinder(g, o).find({0, 0}, {3, 4}).cost, 50.0, 1e-12);
}

TEST(AnyAngleExact, BendsAtTheCornersOfAWall) {
  // . . . . .
  // . . # . .     S at (0,1), G at (4,1): around the wall's top or bottom edge,
  // . . . . .     1.5 across and 0.5 up to a corner, along the edge, and back down.
  grid::Grid g(5, 3);
  g.set_blocked(2, 1, true);
  for (const DiagonalRule rule : kRules) {
    const auto r = solve(g, rule, {0, 1}, {4, 1});
    ASSERT_EQ(r.status, Status::found);
    EXPECT_NEAR(r.cost, 1 + 2 * std::sqrt(2.5), 1e-12);
    ASSERT_EQ(r.points.size(), 4u);
    const bool top = r.points[1].y == 1.0;
    const double y = top ? 1.0 : 2.0;
    EXPECT_EQ(r.points[1], (Point{2.0, y}));
    EXPECT_EQ(r.points[2], (Point{3.0, y}));
    // The free cells on the outside of the bends, diagonally opposite the wall.
    const int cy = top ? 0 : 2;
    EXPECT_EQ(r.path, (std::vector<Cell>{{0, 1}, {1, cy}, {3, cy}, {4, 1}}));
  }
}

TEST(AnyAngleExact, HugsTheCornersOfAGap) {
  // A wall row with a gap at its left end: the path reaches the gap's corner (1,2), runs down
  // the wall's end to (1,3) and goes straight to the goal.
  grid::Grid g(8, 5);
  for (int x = 1; x < 8; ++x) g.set_blocked(x, 2, true);
  const auto r = solve(g, DiagonalRule::no_corner_cut, {7, 0}, {7, 4});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_EQ(r.points, (std::vector<Point>{{7.5, 0.5}, {1.0, 2.0}, {1.0, 3.0}, {7.5, 4.5}}));
  EXPECT_NEAR(r.cost, 2 * std::hypot(6.5, 1.5) + 1, 1e-12);
  EXPECT_EQ(r.path, (std::vector<Cell>{{7, 0}, {0, 1}, {0, 3}, {7, 4}}));
}

TEST(AnyAngleExact, SqueezeBetweenCornerTouchingWallsOnlyUnderAlways) {
  // Walls at (2,1) and (1,2) touch at the corner (2,2); from (1,1) to (2,2) the straight line
  // squeezes through it. Other rules go around one wall: 0.5*sqrt(2) + 1 + 1 + 0.5*sqrt(2).
  grid::Grid g(5, 5);
  g.set_blocked(2, 1, true);
  g.set_blocked(1, 2, true);
  for (const DiagonalRule rule : kRules) {
    const auto r = solve(g, rule, {1, 1}, {2, 2});
    ASSERT_EQ(r.status, Status::found) << grid::to_string(rule);
    const double expected = rule == DiagonalRule::always ? std::sqrt(2.0) : 2 + std::sqrt(2.0);
    EXPECT_NEAR(r.cost, expected, 1e-12) << grid::to_string(rule);
  }
  // A diagonal line of corner-touching walls splits the map unless squeezing is allowed; then
  // the shortest way passes through one of the squeezes (2,3) or (3,2).
  grid::Grid d(5, 5);
  for (int x = 0; x < 5; ++x) d.set_blocked(x, 4 - x, true);
  for (const DiagonalRule rule : kRules) {
    const auto r = solve(d, rule, {0, 0}, {4, 4});
    if (rule != DiagonalRule::always) {
      EXPECT_EQ(r.status, Status::no_path) << grid::to_string(rule);
      EXPECT_TRUE(r.path.empty());
      continue;
    }
    ASSERT_EQ(r.status, Status::found);
    EXPECT_NEAR(r.cost, 2 * std::sqrt(8.5), 1e-12);
    ASSERT_EQ(r.points.size(), 3u);
    EXPECT_TRUE(r.points[1] == (Point{2, 3}) || r.points[1] == (Point{3, 2}));
  }
}

TEST(AnyAngleExact, MayNotRunBetweenTwoWallsAlongAGridLine) {
  // A wall column: the grid line y = 1 between its two cells is inside the obstacle, under
  // every rule.
  grid::Grid g(3, 2);
  g.set_blocked(1, 0, true);
  g.set_blocked(1, 1, true);
  for (const DiagonalRule rule : kRules) {
    EXPECT_EQ(solve(g, rule, {0, 0}, {2, 1}).status, Status::no_path) << grid::to_string(rule);
  }
  // . . . . . . .
  // . . . . . . .
  // . . # # # . .    Along y = 3 from the corner (2,3) to the corner (5,3) would be 3 long,
  // S . . # . . G    but between x = 3 and 4 it runs between two walls. The way round is
  // . . . # . . .    over the top: (2,2), (5,2). Also transposed.
  // . . . # . . .
  // . . # # # . .
  // S . # # # . G    As above with both walls reaching the map's edge: the only way from S
  // . . # # # . .    to G would be along y = 3, between walls, after bending taut around the
  // . . . # . . .    corners (2,3) and (5,3). No path. Also transposed.
  // . . . # . . .
  // . . . # . . .
  for (const bool transposed : {false, true}) {
    grid::Grid h(transposed ? 6 : 7, transposed ? 7 : 6);
    auto block = [&](int x, int y) { h.set_blocked(transposed ? y : x, transposed ? x : y, true); };
    for (int x = 2; x <= 4; ++x) {
      for (int y = 0; y <= 2; ++y) block(x, y);
    }
    for (int y = 3; y <= 5; ++y) block(3, y);
    const Cell s = transposed ? Cell{1, 0} : Cell{0, 1}, t = transposed ? Cell{1, 6} : Cell{6, 1};
    for (const DiagonalRule rule : kRules) {
      EXPECT_EQ(solve(h, rule, s, t).status, Status::no_path) << grid::to_string(rule);
    }
  }
  for (const bool transposed : {false, true}) {
    grid::Grid h(transposed ? 6 : 7, transposed ? 7 : 6);
    auto block = [&](int x, int y) { h.set_blocked(transposed ? y : x, transposed ? x : y, true); };
    for (int x = 2; x <= 4; ++x) block(x, 2);
    for (int y = 3; y <= 5; ++y) block(3, y);
    const Cell s = transposed ? Cell{3, 0} : Cell{0, 3}, t = transposed ? Cell{3, 6} : Cell{6, 3};
    for (const DiagonalRule rule : kRules) {
      const auto r = solve(h, rule, s, t);
      ASSERT_EQ(r.status, Status::found);
      EXPECT_NEAR(r.cost, 3 + 2 * std::sqrt(4.5), 1e-12) << grid::to_string(rule);
    }
  }
}

TEST(AnyAngleExact, StartEqualsGoalAndInvalidInput) {
  grid::Grid g(4, 4);
  g.set_blocked(1, 1, true);
  const auto r = solve(g, DiagonalRule::no_corner_cut, {2, 3}, {2, 3});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_EQ(r.path, (std::vector<Cell>{{2, 3}}));
  EXPECT_EQ(r.points, (std::vector<Point>{{2.5, 3.5}}));
  EXPECT_EQ(r.cost, 0.0);
  EXPECT_EQ(solve(g, DiagonalRule::no_corner_cut, {1, 1}, {3, 3}).status, Status::invalid_input);
  EXPECT_EQ(solve(g, DiagonalRule::no_corner_cut, {0, 0}, {1, 1}).status, Status::invalid_input);
  EXPECT_EQ(solve(g, DiagonalRule::no_corner_cut, {0, 0}, {4, 0}).status, Status::invalid_input);
  EXPECT_EQ(solve(g, DiagonalRule::no_corner_cut, {-1, 0}, {0, 0}).status, Status::invalid_input);
}

TEST(AnyAngleExact, UnreachableGoalIsNoPath) {
  grid::Grid g(9, 6);
  for (int y = 0; y < 6; ++y) g.set_blocked(4, y, true);
  for (const DiagonalRule rule : kRules) {
    const auto r = solve(g, rule, {0, 0}, {8, 5});
    EXPECT_EQ(r.status, Status::no_path) << grid::to_string(rule);
    EXPECT_TRUE(r.path.empty());
    EXPECT_TRUE(r.points.empty());
  }
}

TEST(AnyAngleExact, ObeysTheNodeLimit) {
  // A serpentine: every row change bends at two wall ends.
  grid::Grid g(30, 30);
  for (int y = 1; y < 30; y += 2) {
    for (int x = 0; x < 30; ++x) g.set_blocked(x, y, true);
    g.set_blocked(y % 4 == 1 ? 29 : 0, y, false);
  }
  search::Options o = options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut);
  o.node_limit = 10;
  const auto r = search::Pathfinder(g, o).find({0, 0}, {0, 28});
  EXPECT_EQ(r.status, Status::node_limit);
  EXPECT_LE(r.stats.expanded, 10u);
  o.node_limit = 10'000;
  const auto full = search::Pathfinder(g, o).find({0, 0}, {0, 28});
  ASSERT_EQ(full.status, Status::found);
  EXPECT_GT(full.stats.expanded, 10u);
  EXPECT_GT(full.stats.los_checks, 0u);
}

TEST(AnyAngleExact, CacheFollowsTheGridAndTheRule) {
  grid::Grid g(6, 6);
  search::Pathfinder f(g, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
  EXPECT_NEAR(f.find({1, 1}, {2, 2}).cost, std::sqrt(2.0), 1e-12);
  // Same grid object, new walls: the cached graph must be rebuilt.
  g.set_blocked(2, 1, true);
  g.set_blocked(1, 2, true);
  EXPECT_NEAR(f.find({1, 1}, {2, 2}).cost, 2 + std::sqrt(2.0), 1e-12);
  // A rule change alone (squeezes become passable).
  f.set_options(options(Algorithm::anyangle_exact, DiagonalRule::always));
  EXPECT_NEAR(f.find({1, 1}, {2, 2}).cost, std::sqrt(2.0), 1e-12);
  f.set_options(options(Algorithm::anyangle_exact, DiagonalRule::one_corner));
  EXPECT_NEAR(f.find({1, 1}, {2, 2}).cost, 2 + std::sqrt(2.0), 1e-12);
  // Another algorithm in between leaves the cache usable.
  f.set_options(options(Algorithm::theta, DiagonalRule::one_corner));
  EXPECT_EQ(f.find({1, 1}, {4, 4}).status, Status::found);
  f.set_options(options(Algorithm::anyangle_exact, DiagonalRule::one_corner));
  EXPECT_NEAR(f.find({1, 1}, {2, 2}).cost, 2 + std::sqrt(2.0), 1e-12);
}

TEST(AnyAngleExact, TraceDoesNotChangeTheResultAndReplaysToThePath) {
  const grid::Grid g = random_grid(5, 24, 18, 30, false);
  const auto cells = passable_cells(g);
  for (std::size_t i = 0; i < 20; ++i) {
    const Cell s = cells[(i * 37) % cells.size()], t = cells[(i * 91 + 5) % cells.size()];
    search::Pathfinder f(g, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
    search::TraceRecorder rec;
    const auto traced = f.find(s, t, &rec);
    const auto plain = search::Pathfinder(g, f.options()).find(s, t);
    ASSERT_EQ(traced.status, plain.status);
    EXPECT_EQ(traced.points, plain.points);
    EXPECT_EQ(traced.path, plain.path);
    EXPECT_EQ(traced.stats.expanded, plain.stats.expanded);
    std::size_t closed = 0;
    for (const auto& e : rec.events()) closed += e.type == search::EventType::closed;
    EXPECT_EQ(closed, traced.stats.expanded);
    if (traced.status != Status::found) continue;
    const auto replayed = search::replay_path(rec.events(), s, t);
    ASSERT_TRUE(replayed.has_value());
    EXPECT_EQ(*replayed, traced.path);
  }
}

RC_GTEST_PROP(AnyAngleExactProperty, MatchesBruteForceOnTinyGrids, ()) {
  const ExactCase c = draw_case(6);
  const double expected = brute_force(c.grid, c.rule, c.start, c.goal);
  // One finder for several queries: the lazily filled graph is reused between them.
  search::Pathfinder f(c.grid, options(Algorithm::anyangle_exact, c.rule));
  const auto cells = passable_cells(c.grid);
  for (int q = 0; q < 3; ++q) {
    const Cell s = q == 0 ? c.start : cells[uniform<std::size_t>(0, cells.size())];
    const Cell t = q == 0 ? c.goal : cells[uniform<std::size_t>(0, cells.size())];
    const double want = q == 0 ? expected : brute_force(c.grid, c.rule, s, t);
    const auto r = f.find(s, t);
    RC_LOG() << "rule " << grid::to_string(c.rule) << " " << s.x << "," << s.y << " -> " << t.x
             << "," << t.y << ": " << to_string(r.status) << " " << r.cost << " want " << want
             << "\n";
    if (std::isinf(want)) {
      RC_ASSERT(r.status == Status::no_path);
      continue;
    }
    check_result(c.grid, c.rule, s, t, r);
    RC_ASSERT(std::abs(r.cost - want) <= 1e-9);
  }
}

RC_GTEST_PROP(AnyAngleExactProperty, MatchesTheCornerGraphOnSparseGrids, ()) {
  // Longer sight lines than the tiny grids and many queries on one finder: every visibility
  // edge the search prunes, skips or caches must be one no shortest path needs.
  const int w = uniform(4, 19), h = uniform(4, 19);
  const grid::Grid g =
      random_grid(*rc::gen::arbitrary<std::uint32_t>(), w, h, uniform(0, 16), false);
  const DiagonalRule rule = kRules[uniform<std::size_t>(0, std::size(kRules))];
  const auto cells = passable_cells(g);
  RC_PRE(cells.size() >= 2u);
  const CornerReference reference(g, rule);
  search::Pathfinder f(g, options(Algorithm::anyangle_exact, rule));
  for (int q = 0; q < 12; ++q) {
    const Cell s = cells[uniform<std::size_t>(0, cells.size())];
    const Cell t = cells[uniform<std::size_t>(0, cells.size())];
    const double want = reference(s, t);
    const auto r = f.find(s, t);
    RC_LOG() << "rule " << grid::to_string(rule) << " " << s.x << "," << s.y << " -> " << t.x << ","
             << t.y << ": " << to_string(r.status) << " " << r.cost << " want " << want << "\n";
    if (std::isinf(want)) {
      RC_ASSERT(r.status == Status::no_path);
      continue;
    }
    check_result(g, rule, s, t, r);
    RC_ASSERT(std::abs(r.cost - want) <= 1e-9);
  }
}

RC_GTEST_PROP(AnyAngleExactProperty, IsALowerBoundOfGridAndThetaPaths, ()) {
  const ExactCase c = draw_case(16);
  const auto r = solve(c.grid, c.rule, c.start, c.goal);
  const auto astar = solve(c.grid, c.rule, c.start, c.goal, Algorithm::astar);
  // Connectivity: without squeezes both are 4-connectivity (a diagonal step under one_corner
  // passes a free orthogonal cell); with them, 8-connectivity.
  RC_ASSERT((r.status == Status::found) == (astar.status == Status::found));
  if (r.status != Status::found) {
    RC_ASSERT(r.status == Status::no_path);
    return;
  }
  check_result(c.grid, c.rule, c.start, c.goal, r);
  const double euclid = std::hypot(c.goal.x - c.start.x, c.goal.y - c.start.y);
  RC_ASSERT(r.cost >= euclid - 1e-9);
  RC_ASSERT(r.cost <= astar.cost + 1e-9);
  for (const Algorithm a : {Algorithm::theta, Algorithm::lazytheta}) {
    const auto any = solve(c.grid, c.rule, c.start, c.goal, a);
    RC_ASSERT(any.status == Status::found);
    RC_ASSERT(r.cost <= any.cost + 1e-9);
  }
}

TEST(AnyAngleExact, MovingAiArenaScenarios) {
  const std::string dir = PATHLAB_SHARED_DIR "/benchmarks/movingai/";
  if (!std::filesystem::exists(dir + "arena.map")) {
    GTEST_SKIP() << "Moving AI benchmark data not found in " << dir;
  }
  const io::Map m = io::load_map(dir + "arena.map");
  const io::ScenarioFile sc = io::load_scenarios(dir + "arena.map.scen");
  // Moving AI's rule; one finder for all queries.
  search::Pathfinder exact(m.grid, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
  search::Pathfinder theta(m.grid, options(Algorithm::theta, DiagonalRule::no_corner_cut));
  for (std::size_t i = 0; i < sc.entries.size(); i += 3) {
    const io::ScenarioEntry& e = sc.entries[i];
    const auto r = exact.find(e.start, e.goal);
    ASSERT_EQ(r.status, Status::found) << "line " << e.line;
    // The scenario's optimum is the octile length, printed rounded.
    EXPECT_LE(r.cost, e.optimal + 1e-4) << "line " << e.line;
    EXPECT_GE(r.cost, std::hypot(e.goal.x - e.start.x, e.goal.y - e.start.y) - 1e-9);
    const auto t = theta.find(e.start, e.goal);
    ASSERT_EQ(t.status, Status::found);
    EXPECT_LE(r.cost, t.cost + 1e-9) << "line " << e.line;
  }
}
