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

// --- an independent exact segment test, in units of 1/kS of a cell ------------------------------

/// Units per cell: the library's resolution of arbitrary endpoints (1/4096 of a cell), so every
/// point it returns is exact here.
constexpr std::int64_t kS = 4096;

struct P2 {
  std::int64_t x, y;  ///< kS times the map coordinates: lattice corners are multiples of kS
  friend bool operator==(P2, P2) = default;
};
P2 scaled(Point p) {
  return {std::llround(kS * p.x), std::llround(kS * p.y)};
}
P2 scaled_centre(Cell c) {
  return {kS * c.x + kS / 2, kS * c.y + kS / 2};
}
Point unscaled(P2 p) {
  return {static_cast<double>(p.x) / kS, static_cast<double>(p.y) / kS};
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
  if (!clip(a.x, b.x - a.x, kS * cx, kS * cx + kS)) return false;
  if (!clip(a.y, b.y - a.y, kS * cy, kS * cy + kS)) return false;
  return less(lo, hi);
}

/// The definition, checked the slow way: no wall's open square meets the open segment, no unit
/// grid edge it runs along has walls on both sides, and (unless `always`) no lattice point
/// strictly inside it is a squeeze.
bool segment_ok(const grid::Grid& g, DiagonalRule rule, P2 a, P2 b) {
  const std::int64_t x0 = std::min(a.x, b.x) / kS - 1, x1 = std::max(a.x, b.x) / kS + 1;
  const std::int64_t y0 = std::min(a.y, b.y) / kS - 1, y1 = std::max(a.y, b.y) / kS + 1;
  for (std::int64_t cy = y0; cy <= y1; ++cy) {
    for (std::int64_t cx = x0; cx <= x1; ++cx) {
      if (wall(g, cx, cy) && meets_open_square(a, b, cx, cy)) return false;
    }
  }
  // Along a grid line: every unit edge it overlaps (cells lo..hi along the line).
  if (a.x == b.x && a.x % kS == 0) {
    const std::int64_t lo = std::min(a.y, b.y) / kS, hi = (std::max(a.y, b.y) + kS - 1) / kS - 1;
    for (std::int64_t y = lo; y <= hi; ++y) {
      if (wall(g, a.x / kS - 1, y) && wall(g, a.x / kS, y)) return false;
    }
  }
  if (a.y == b.y && a.y % kS == 0) {
    const std::int64_t lo = std::min(a.x, b.x) / kS, hi = (std::max(a.x, b.x) + kS - 1) / kS - 1;
    for (std::int64_t x = lo; x <= hi; ++x) {
      if (wall(g, x, a.y / kS - 1) && wall(g, x, a.y / kS)) return false;
    }
  }
  if (rule != DiagonalRule::always) {
    const std::int64_t dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    for (std::int64_t Y = y0; Y <= y1 + 1; ++Y) {
      for (std::int64_t X = x0; X <= x1 + 1; ++X) {
        const std::int64_t px = kS * X - a.x, py = kS * Y - a.y;
        const std::int64_t dot = px * dx + py * dy;
        if (px * dy - py * dx == 0 && dot > 0 && dot < len2 && squeeze(g, X, Y)) return false;
      }
    }
  }
  return true;
}

/// The competition's rule for corner endpoints (find_corners): an endpoint on a squeeze leaves
/// and arrives only through the south-east quadrant, the cell it names.
bool corner_rule_ok(const grid::Grid& g, DiagonalRule rule, P2 e, P2 other) {
  if (rule == DiagonalRule::always || e.x % kS != 0 || e.y % kS != 0) return true;
  if (!squeeze(g, e.x / kS, e.y / kS)) return true;
  return other.x >= e.x && other.y >= e.y;
}

/// Brute-force optimum: Dijkstra over the two endpoints and every lattice point of the map (but
/// squeezes, which a path may not pass through unless `always`), joined when segment_ok; with
/// `corners`, the endpoints also obey corner_rule_ok.
double brute_force(const grid::Grid& g, DiagonalRule rule, P2 s, P2 t, bool corners = false) {
  std::vector<P2> nodes{s, t};
  for (int Y = 0; Y <= g.height(); ++Y) {
    for (int X = 0; X <= g.width(); ++X) {
      if (rule == DiagonalRule::always || !squeeze(g, X, Y)) nodes.push_back({kS * X, kS * Y});
    }
  }
  auto edge_ok = [&](std::size_t u, std::size_t v) {
    if (!segment_ok(g, rule, nodes[u], nodes[v])) return false;
    if (!corners) return true;
    const auto end_ok = [&](std::size_t e, std::size_t o) {
      return e > 1 || corner_rule_ok(g, rule, nodes[e], nodes[o]);
    };
    return end_ok(u, v) && end_ok(v, u);
  };
  if (s == t) return 0;
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
      if (done[v] || !edge_ok(u, v)) continue;
      const double dx = static_cast<double>(nodes[v].x - nodes[u].x) / kS;
      const double dy = static_cast<double>(nodes[v].y - nodes[u].y) / kS;
      dist[v] = std::min(dist[v], dist[u] + std::hypot(dx, dy));
    }
  }
}
double brute_force(const grid::Grid& g, DiagonalRule rule, Cell s, Cell t) {
  return brute_force(g, rule, scaled_centre(s), scaled_centre(t));
}

double length(P2 a, P2 b) {
  return std::hypot(static_cast<double>(b.x - a.x) / kS, static_cast<double>(b.y - a.y) / kS);
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
          corners.push_back({kS * X, kS * Y});
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

  double operator()(Cell s, Cell t) const { return (*this)(scaled_centre(s), scaled_centre(t)); }
  double operator()(P2 a, P2 b) const {
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

/// Whether free cell c's closed square holds point p.
bool holds(Cell c, P2 p) {
  return kS * c.x <= p.x && p.x <= kS * c.x + kS && kS * c.y <= p.y && p.y <= kS * c.y + kS;
}

/// Everything a found result between points s and t must satisfy, whatever its length; with
/// `corners`, the competition's squeeze rule at both ends too.
void check_points_result(const grid::Grid& g, DiagonalRule rule, P2 s, P2 t,
                         const search::Result& r, bool corners = false) {
  RC_ASSERT(r.status == Status::found);
  RC_ASSERT(!r.points.empty());
  RC_ASSERT(r.path.size() == r.points.size());
  RC_ASSERT(scaled(r.points.front()) == s);
  RC_ASSERT(scaled(r.points.back()) == t);
  RC_ASSERT(r.points.front() == unscaled(s));
  RC_ASSERT(r.points.back() == unscaled(t));
  RC_ASSERT(g.passable(r.path.front()) && holds(r.path.front(), s));
  RC_ASSERT(g.passable(r.path.back()) && holds(r.path.back(), t));
  RC_ASSERT(near(r.cost, search::polyline_length(r.points)));
  for (std::size_t i = 1; i + 1 < r.points.size(); ++i) {
    // Corners are lattice points, each with a free cell of path touching it.
    const P2 p = scaled(r.points[i]);
    RC_ASSERT(p.x % kS == 0 && p.y % kS == 0);
    RC_ASSERT(unscaled(p) == r.points[i]);
    const Cell c = r.path[i];
    RC_ASSERT(g.passable(c));
    RC_ASSERT(holds(c, p));
    if (rule != DiagonalRule::always) RC_ASSERT(!squeeze(g, p.x / kS, p.y / kS));
    // A real bend: corners the path runs straight through are not listed.
    const P2 a = scaled(r.points[i - 1]), b = scaled(r.points[i + 1]);
    RC_ASSERT((p.x - a.x) * (b.y - p.y) - (p.y - a.y) * (b.x - p.x) != 0);
  }
  for (std::size_t i = 1; i < r.points.size(); ++i) {
    RC_ASSERT(segment_ok(g, rule, scaled(r.points[i - 1]), scaled(r.points[i])));
  }
  if (corners && r.points.size() > 1) {
    RC_ASSERT(corner_rule_ok(g, rule, s, scaled(r.points[1])));
    RC_ASSERT(corner_rule_ok(g, rule, t, scaled(r.points[r.points.size() - 2])));
  }
}

/// Everything a found result between the centres of s and t must satisfy.
void check_result(const grid::Grid& g, DiagonalRule rule, Cell s, Cell t, const search::Result& r) {
  check_points_result(g, rule, scaled_centre(s), scaled_centre(t), r);
  RC_ASSERT(r.points.front() == centre(s));
  RC_ASSERT(r.points.back() == centre(t));
  RC_ASSERT(r.path.front() == s);
  RC_ASSERT(r.path.back() == t);
}

/// A value drawn uniformly from [lo, hi) whatever the current size (inRange is size-scaled:
/// most early cases would be tiny grids).
template <class T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

/// One of the exact any-angle methods: the online search or the hub labels (which must give
/// the same optimum, every segment certified alike).
Algorithm draw_exact() {
  return *rc::gen::element(Algorithm::anyangle_exact, Algorithm::anyangle_labels);
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
  const Algorithm algo = draw_exact();
  search::Pathfinder f(c.grid, options(algo, c.rule));
  const auto cells = passable_cells(c.grid);
  for (int q = 0; q < 3; ++q) {
    const Cell s = q == 0 ? c.start : cells[uniform<std::size_t>(0, cells.size())];
    const Cell t = q == 0 ? c.goal : cells[uniform<std::size_t>(0, cells.size())];
    const double want = q == 0 ? expected : brute_force(c.grid, c.rule, s, t);
    const auto r = f.find(s, t);
    RC_LOG() << search::to_string(algo) << " rule " << grid::to_string(c.rule) << " " << s.x << ","
             << s.y << " -> " << t.x << "," << t.y << ": " << to_string(r.status) << " " << r.cost
             << " want " << want << "\n";
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
  const Algorithm algo = draw_exact();
  search::Pathfinder f(g, options(algo, rule));
  for (int q = 0; q < 12; ++q) {
    const Cell s = cells[uniform<std::size_t>(0, cells.size())];
    const Cell t = cells[uniform<std::size_t>(0, cells.size())];
    const double want = reference(s, t);
    const auto r = f.find(s, t);
    RC_LOG() << search::to_string(algo) << " rule " << grid::to_string(rule) << " " << s.x << ","
             << s.y << " -> " << t.x << "," << t.y << ": " << to_string(r.status) << " " << r.cost
             << " want " << want << "\n";
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

// --- endpoints anywhere: find_points and the competition's corners (find_corners) -------------

namespace {

/// A point of free cell c: its centre, a corner, a point of an edge or any point inside, in
/// units of 1/kS (so the library holds it exactly).
P2 draw_point_in(Cell c) {
  auto offset = [] {
    switch (uniform(0, 4)) {
      case 0:
        return kS / 2;
      case 1:
        return std::int64_t{0};
      case 2:
        return kS;
      default:
        return uniform<std::int64_t>(0, kS + 1);
    }
  };
  return {kS * c.x + offset(), kS * c.y + offset()};
}

search::Result find_points(search::Pathfinder& f, P2 s, P2 t) {
  search::Result r;
  f.find_points(unscaled(s), unscaled(t), r);
  return r;
}

}  // namespace

RC_GTEST_PROP(AnyAngleExactProperty, PointsAnywhereMatchBruteForceOnTinyGrids, ()) {
  const ExactCase c = draw_case(6);
  const Algorithm algo = draw_exact();
  search::Pathfinder f(c.grid, options(algo, c.rule));
  const auto cells = passable_cells(c.grid);
  for (int q = 0; q < 3; ++q) {
    const P2 s = draw_point_in(q == 0 ? c.start : cells[uniform<std::size_t>(0, cells.size())]);
    const P2 t = draw_point_in(q == 0 ? c.goal : cells[uniform<std::size_t>(0, cells.size())]);
    const double want = brute_force(c.grid, c.rule, s, t);
    const auto r = find_points(f, s, t);
    RC_LOG() << search::to_string(algo) << " rule " << grid::to_string(c.rule) << " (" << s.x << ","
             << s.y << ")/" << kS << " -> (" << t.x << "," << t.y << ")/" << kS << ": "
             << to_string(r.status) << " " << r.cost << " want " << want << "\n";
    if (std::isinf(want)) {
      RC_ASSERT(r.status == Status::no_path);
      continue;
    }
    check_points_result(c.grid, c.rule, s, t, r);
    RC_ASSERT(std::abs(r.cost - want) <= 1e-9);
  }
}

RC_GTEST_PROP(AnyAngleExactProperty, CornerEndpointsMatchBruteForceOnTinyGrids, ()) {
  const ExactCase c = draw_case(6);
  const Algorithm algo = draw_exact();
  search::Pathfinder f(c.grid, options(algo, c.rule));
  const auto cells = passable_cells(c.grid);
  for (int q = 0; q < 3; ++q) {
    const Cell sc = q == 0 ? c.start : cells[uniform<std::size_t>(0, cells.size())];
    const Cell tc = q == 0 ? c.goal : cells[uniform<std::size_t>(0, cells.size())];
    const P2 s{kS * sc.x, kS * sc.y}, t{kS * tc.x, kS * tc.y};
    const double want = brute_force(c.grid, c.rule, s, t, true);
    search::Result r;
    f.find_corners(sc, tc, r);
    RC_LOG() << search::to_string(algo) << " rule " << grid::to_string(c.rule) << " corner " << sc.x
             << "," << sc.y << " -> " << tc.x << "," << tc.y << ": " << to_string(r.status) << " "
             << r.cost << " want " << want << "\n";
    if (std::isinf(want)) {
      RC_ASSERT(r.status == Status::no_path);
      continue;
    }
    check_points_result(c.grid, c.rule, s, t, r, true);
    RC_ASSERT(r.path.front() == sc);
    RC_ASSERT(r.path.back() == tc);
    RC_ASSERT(std::abs(r.cost - want) <= 1e-9);
  }
}

RC_GTEST_PROP(AnyAngleExactProperty, PointsAnywhereMatchTheCornerGraphOnSparseGrids, ()) {
  // Longer sight lines from points off the lattice: the shadowcasts from the start and the
  // goal must report every corner those points see.
  const int w = uniform(4, 19), h = uniform(4, 19);
  const grid::Grid g =
      random_grid(*rc::gen::arbitrary<std::uint32_t>(), w, h, uniform(0, 16), false);
  const DiagonalRule rule = kRules[uniform<std::size_t>(0, std::size(kRules))];
  const auto cells = passable_cells(g);
  RC_PRE(cells.size() >= 2u);
  const CornerReference reference(g, rule);
  const Algorithm algo = draw_exact();
  search::Pathfinder f(g, options(algo, rule));
  for (int q = 0; q < 12; ++q) {
    const P2 s = draw_point_in(cells[uniform<std::size_t>(0, cells.size())]);
    const P2 t = draw_point_in(cells[uniform<std::size_t>(0, cells.size())]);
    const double want = s == t ? 0.0 : reference(s, t);
    const auto r = find_points(f, s, t);
    RC_LOG() << search::to_string(algo) << " rule " << grid::to_string(rule) << " (" << s.x << ","
             << s.y << ")/" << kS << " -> (" << t.x << "," << t.y << ")/" << kS << ": "
             << to_string(r.status) << " " << r.cost << " want " << want << "\n";
    if (std::isinf(want)) {
      RC_ASSERT(r.status == Status::no_path);
      continue;
    }
    check_points_result(g, rule, s, t, r);
    RC_ASSERT(std::abs(r.cost - want) <= 1e-9);
  }
}

TEST(AnyAngleExact, PointsOutsideFreeSpaceAreInvalid) {
  grid::Grid g(4, 3);
  g.set_blocked(1, 1, true);
  g.set_blocked(2, 1, true);
  search::Pathfinder f(g, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
  search::Result r;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Point ok{0.25, 0.75};
  for (const Point bad : {Point{nan, 1}, Point{1, inf}, Point{-0.01, 1}, Point{4.01, 1},
                          Point{1, 3.5}, Point{1.5, 1.5}, Point{2, 1.5}}) {
    // Inside a wall; on the edge between the two walls (x = 2, 1 < y < 2).
    EXPECT_EQ(f.find_points(bad, ok, r), Status::invalid_input) << bad.x << "," << bad.y;
    EXPECT_EQ(f.find_points(ok, bad, r), Status::invalid_input) << bad.x << "," << bad.y;
  }
  // The map's border and a wall's edge and corner are free space when a free cell touches them.
  for (const Point good : {Point{0, 0}, Point{4, 3}, Point{1.5, 1}, Point{1, 1}, Point{3, 1.5}}) {
    EXPECT_EQ(f.find_points(good, ok, r), Status::found) << good.x << "," << good.y;
    EXPECT_EQ(r.points.front(), good);
  }
  // A point is held to 1/4096 of a cell.
  ASSERT_EQ(f.find_points({0.3, 0.7}, {3.3, 2.7}, r), Status::found);
  EXPECT_EQ(r.points.front(), (Point{1229.0 / 4096, 2867.0 / 4096}));
  EXPECT_NEAR(r.points.front().x, 0.3, 0.5 / 4096);
  // Corner endpoints name free cells.
  EXPECT_EQ(f.find_corners({1, 1}, {0, 0}, r), Status::invalid_input);
  EXPECT_EQ(f.find_corners({0, 0}, {4, 0}, r), Status::invalid_input);
  EXPECT_EQ(f.find_corners({0, 0}, {3, 2}, r), Status::found);
  EXPECT_EQ(r.points.back(), (Point{3, 2}));
}

TEST(AnyAngleExact, OtherAlgorithmsTakeCentresOnly) {
  grid::Grid g(5, 5);
  g.set_blocked(2, 2, true);
  search::Pathfinder astar(g, options(Algorithm::astar, DiagonalRule::no_corner_cut));
  search::Result r;
  ASSERT_EQ(astar.find_points({0.5, 0.5}, {4.5, 4.5}, r), Status::found);
  EXPECT_EQ(r.answered_by, Algorithm::astar);
  EXPECT_EQ(r.cost, astar.find({0, 0}, {4, 4}).cost);
  EXPECT_EQ(astar.find_points({0.5, 0.5}, {4.25, 4.5}, r), Status::invalid_input);
  EXPECT_EQ(astar.find_corners({0, 0}, {4, 4}, r), Status::invalid_input);
  // anyangle-exact on centres is find() between the cells.
  search::Pathfinder exact(g, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
  ASSERT_EQ(exact.find_points({0.5, 0.5}, {4.5, 3.5}, r), Status::found);
  const auto cells = exact.find({0, 0}, {4, 3});
  EXPECT_EQ(r.points, cells.points);
  EXPECT_EQ(r.path, cells.path);
}

TEST(AnyAngleExact, CentreCellIsTheCellWhoseCentreAPointIs) {
  using search::centre_cell;
  EXPECT_EQ(centre_cell({4.5, 3.5}), (Cell{4, 3}));
  EXPECT_EQ(centre_cell({-0.5, 0.5}), (Cell{-1, 0}));  // no map: any cell
  EXPECT_FALSE(centre_cell({4.5, 3.25}));
  EXPECT_FALSE(centre_cell({4.0, 3.5}));
  EXPECT_FALSE(centre_cell({4.5 + 1e-12, 3.5}));
  EXPECT_FALSE(centre_cell({std::nan(""), 0.5}));
  EXPECT_FALSE(centre_cell({0.5, std::numeric_limits<double>::infinity()}));
  EXPECT_FALSE(centre_cell({2e9 + 0.5, 0.5}));
}

TEST(AnyAngleExact, CornerEndpointOnASqueezeLeavesThroughItsCell) {
  // Walls (2,1) and (1,2) touch at lattice point (2,2), the corner of free cell (2,2).
  grid::Grid g(4, 4);
  g.set_blocked(2, 1, true);
  g.set_blocked(1, 2, true);
  search::Pathfinder f(g, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
  search::Result r;
  // As a point, it may head north-west at once: the squeeze is its end, not passed through.
  ASSERT_EQ(f.find_points({2, 2}, {0, 0}, r), Status::found);
  EXPECT_NEAR(r.cost, 2 * std::sqrt(2.0), 1e-12);
  // The competition's corner of cell (2,2) must leave into that cell (south-east), round the
  // wall (2,1): (2,2) -> (3,2) -> (3,1) -> (0,0). Arriving there is mirrored.
  ASSERT_EQ(f.find_corners({2, 2}, {0, 0}, r), Status::found);
  EXPECT_NEAR(r.cost, 2 + std::sqrt(10.0), 1e-12);
  EXPECT_EQ(r.points, (std::vector<Point>{{2, 2}, {3, 2}, {3, 1}, {0, 0}}));
  ASSERT_EQ(f.find_corners({0, 0}, {2, 2}, r), Status::found);
  EXPECT_NEAR(r.cost, 2 + std::sqrt(10.0), 1e-12);
  // Under `always` the squeeze is open, and the rule does not apply.
  search::Pathfinder open(g, options(Algorithm::anyangle_exact, DiagonalRule::always));
  ASSERT_EQ(open.find_corners({2, 2}, {0, 0}, r), Status::found);
  EXPECT_NEAR(r.cost, 2 * std::sqrt(2.0), 1e-12);
}

TEST(AnyAngleExact, MovingAiCornerEndpointsNeverBeatTheStraightLine) {
  const std::string dir = PATHLAB_SHARED_DIR "/benchmarks/movingai/";
  if (!std::filesystem::exists(dir + "arena.map")) {
    GTEST_SKIP() << "Moving AI benchmark data not found in " << dir;
  }
  const io::Map m = io::load_map(dir + "arena.map");
  const io::ScenarioFile sc = io::load_scenarios(dir + "arena.map.scen");
  search::Pathfinder exact(m.grid, options(Algorithm::anyangle_exact, DiagonalRule::no_corner_cut));
  search::Result r, centres;
  for (std::size_t i = 0; i < sc.entries.size(); i += 3) {
    const io::ScenarioEntry& e = sc.entries[i];
    ASSERT_EQ(exact.find_corners(e.start, e.goal, r), Status::found) << "line " << e.line;
    EXPECT_EQ(r.points.front(), (Point{double(e.start.x), double(e.start.y)}));
    EXPECT_EQ(r.points.back(), (Point{double(e.goal.x), double(e.goal.y)}));
    EXPECT_GE(r.cost, std::hypot(e.goal.x - e.start.x, e.goal.y - e.start.y) - 1e-9);
    // Every segment certified by the definition's own test.
    const P2 s{kS * e.start.x, kS * e.start.y}, t{kS * e.goal.x, kS * e.goal.y};
    for (std::size_t k = 1; k < r.points.size(); ++k) {
      EXPECT_TRUE(segment_ok(m.grid, DiagonalRule::no_corner_cut, scaled(r.points[k - 1]),
                             scaled(r.points[k])))
          << "line " << e.line;
    }
    EXPECT_TRUE(corner_rule_ok(m.grid, DiagonalRule::no_corner_cut, s, scaled(r.points[1])));
    EXPECT_TRUE(corner_rule_ok(m.grid, DiagonalRule::no_corner_cut, t,
                               scaled(r.points[r.points.size() - 2])));
    // Centres half a cell away: the two optima differ by at most the two half-diagonals.
    ASSERT_EQ(exact.find_points(centre(e.start), centre(e.goal), centres), Status::found);
    EXPECT_LE(std::abs(r.cost - centres.cost), std::sqrt(2.0) + 1e-9) << "line " << e.line;
  }
}
