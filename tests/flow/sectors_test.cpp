// Sectored flow fields (flow/sectors.hpp): on the corridor it builds, the field equals a Dijkstra
// restricted to the corridor's cells (written here, on the unit's plain grid copy), never beats
// the whole-map field, and its directions walk to a goal at exactly the distance; requiring every
// cell gives the whole-map field itself; a far unit on an open map builds only the sectors on
// its way; update() after edits equals a fresh build.
#include <gtest/gtest.h>

#include <cmath>
#include <queue>
#include <random>

#include <pathlab/flow/sectors.hpp>

#include "test_grids.hpp"
#include "units.hpp"

namespace pathlab {
namespace {

bool close(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

/// D restricted to the corridor: a Dijkstra back from the goals over the plain copy, moves only
/// between corridor cells, the corner rule judged on the plain copy.
std::vector<double> corridor_reference(const grid::Grid& plain, const grid::Moves& m,
                                       const flow::SectorField& f) {
  const int w = plain.width(), h = plain.height();
  std::vector<double> d(static_cast<std::size_t>(w) * static_cast<std::size_t>(h),
                        flow::kUnreachable);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  for (const Cell g : f.goals()) {
    if (!f.in_corridor(g)) continue;
    d[static_cast<std::size_t>(g.y * w + g.x)] = 0;
    q.emplace(0, g.y * w + g.x);
  }
  while (!q.empty()) {
    const auto [dc, k] = q.top();
    q.pop();
    if (dc > d[static_cast<std::size_t>(k)]) continue;
    const Cell c{k % w, k / w};
    for (int dir = 0; dir < 8; ++dir) {
      const Cell n{c.x + flow::kDirDx[static_cast<std::size_t>(dir)],
                   c.y + flow::kDirDy[static_cast<std::size_t>(dir)]};
      if (!f.in_corridor(n) || !grid::step_legal(plain, m, n, c)) continue;
      const double nd = dc + grid::step_cost(plain, m, n, c);
      double& dn = d[static_cast<std::size_t>(n.y * w + n.x)];
      if (nd < dn) {
        dn = nd;
        q.emplace(nd, n.y * w + n.x);
      }
    }
  }
  return d;
}

TEST(SectorField, OnItsCorridorTheFieldIsTheRestrictedDijkstra) {
  std::mt19937 rng(21);
  const grid::DiagonalRule rules[] = {grid::DiagonalRule::no_corner_cut, grid::DiagonalRule::never,
                                      grid::DiagonalRule::one_corner, grid::DiagonalRule::always};
  int corridors = 0;
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const grid::Grid g =
        pathlab::testing::random_class_grid(seed + 500, 50 + seed * 3, 40, 18, 20, seed % 3 == 0);
    const grid::Unit u = seed % 2 == 0 ? grid::Unit{} : pathlab::testing::random_unit(rng);
    flow::Options o;
    o.unit = u;
    o.moves.diagonal = rules[seed % 4];
    o.moves.cost_model = seed % 5 == 0 ? grid::CostModel::integer : grid::CostModel::octile;
    const grid::Grid plain = pathlab::testing::plain_copy(g, u);
    const std::vector<Cell> free = pathlab::testing::passable_cells(plain);
    if (free.size() < 10) continue;
    const std::vector<Cell> goals{free[rng() % free.size()]};
    flow::SectorField f;
    ASSERT_FALSE(f.build(g, goals, o, 8 << (seed % 3), seed % 2 == 0).has_value());
    std::vector<Cell> units;
    for (int k = 0; k < 5; ++k) units.push_back(free[rng() % free.size()]);
    f.require(units);
    flow::Field whole;
    ASSERT_FALSE(whole.build(g, goals, o).has_value());
    const std::vector<double> ref = corridor_reference(plain, o.moves, f);
    const std::string what = "seed " + std::to_string(seed);
    for (const Cell c : units) {
      EXPECT_EQ(std::isfinite(f.distance(c)), std::isfinite(whole.distance(c)))
          << what << ": a required cell reaches a goal in the corridor iff it does on the map";
    }
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const double d = f.distance({x, y});
        if (!f.in_corridor({x, y})) {
          ASSERT_TRUE(std::isinf(d));
          continue;
        }
        ++corridors;
        ASSERT_TRUE(close(d, ref[static_cast<std::size_t>(y * g.width() + x)]))
            << what << " cell " << x << "," << y << ": " << d << " vs "
            << ref[static_cast<std::size_t>(y * g.width() + x)];
        ASSERT_GE(d, whole.distance({x, y}) - 1e-9) << what;
        if (!std::isfinite(d) || d == 0) continue;
        // Walk the directions: legal moves inside the corridor, a goal at exactly d.
        Cell at{x, y};
        double walked = 0;
        for (int step = 0; step < g.width() * g.height() && f.distance(at) > 0; ++step) {
          const int k = f.direction(at);
          ASSERT_GE(k, 0) << what;
          const Cell n{at.x + flow::kDirDx[static_cast<std::size_t>(k)],
                       at.y + flow::kDirDy[static_cast<std::size_t>(k)]};
          ASSERT_TRUE(f.in_corridor(n) && grid::step_legal(plain, o.moves, at, n)) << what;
          walked += grid::step_cost(plain, o.moves, at, n);
          at = n;
        }
        ASSERT_EQ(f.distance(at), 0) << what;
        ASSERT_TRUE(close(walked, d)) << what;
      }
    }
  }
  EXPECT_GT(corridors, 1000);
}

TEST(SectorField, RequiringEveryCellGivesTheWholeMapField) {
  std::mt19937 rng(4);
  for (std::uint32_t seed = 0; seed < 6; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(seed + 700, 45, 33, 22, 20, seed % 2);
    const std::vector<Cell> free = pathlab::testing::passable_cells(g);
    const std::vector<Cell> goals{free[rng() % free.size()], free[rng() % free.size()]};
    flow::Options o;
    o.moves.diagonal = seed % 2 ? grid::DiagonalRule::always : grid::DiagonalRule::no_corner_cut;
    flow::SectorField f;
    ASSERT_FALSE(f.build(g, goals, o, 8).has_value());
    f.require(free);
    flow::Field whole;
    ASSERT_FALSE(whole.build(g, goals, o).has_value());
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        ASSERT_TRUE(close(f.distance({x, y}), whole.distance({x, y}))) << x << "," << y;
        ASSERT_EQ(f.direction({x, y}), whole.direction({x, y})) << x << "," << y;
      }
    }
    // Steering agrees too: straight at a goal it sees, else to the next cell.
    for (const Cell c : free) {
      ASSERT_EQ(f.steer(centre(c)), whole.steer(centre(c))) << c.x << "," << c.y;
    }
  }
}

TEST(SectorField, AFarUnitOnAnOpenMapBuildsOnlyTheSectorsOnItsWay) {
  const grid::Grid g(512, 512);
  const Cell goal{500, 20};
  for (const bool widen : {false, true}) {
    flow::SectorField f;
    ASSERT_FALSE(
        f.build(g, std::span<const Cell>(&goal, 1), flow::Options{}, 64, widen).has_value());
    const Cell unit{10, 490};
    f.require(std::span<const Cell>(&unit, 1));
    const std::vector<char> built = f.sectors_built();
    const auto n = std::count(built.begin(), built.end(), 1);
    EXPECT_GE(n, 8) << "a diagonal across 8x8 sectors crosses at least 8";
    EXPECT_LE(n, widen ? 40 : 24)
        << "not the whole map's 64 (the way, and the sectors beside its corner steps)";
    EXPECT_LT(f.sectors_labelled(), 64);
    EXPECT_NEAR(f.distance(unit), 470 * std::sqrt(2.0) + 20, 1e-6)
        << "on an open map the corridor holds a shortest path";
    // A second unit near the corridor joins it: no new search across the map.
    const Cell next{20, 480};
    f.require(std::span<const Cell>(&next, 1));
    EXPECT_TRUE(f.in_corridor(next));
    EXPECT_TRUE(std::isfinite(f.distance(next)));
  }
}

TEST(SectorField, UpdateAfterEditsEqualsAFreshBuild) {
  grid::Grid g = pathlab::testing::random_class_grid(42, 60, 40, 15);
  const std::vector<Cell> free = pathlab::testing::passable_cells(g);
  const std::vector<Cell> goals{free[7]};
  const std::vector<Cell> units{free[free.size() - 3], free[free.size() / 2]};
  flow::SectorField f;
  ASSERT_FALSE(f.build(g, goals, flow::Options{}, 16).has_value());
  f.require(units);
  grid::Edit e;
  e.kind = grid::Edit::Kind::wall;
  e.area = {20, 0, 21, 30};
  ASSERT_FALSE(g.apply(e).has_value());
  const flow::Stats s = f.update();
  EXPECT_TRUE(s.rebuilt);
  flow::SectorField fresh;
  ASSERT_FALSE(fresh.build(g, goals, flow::Options{}, 16).has_value());
  fresh.require(units);
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      ASSERT_TRUE(close(f.distance({x, y}), fresh.distance({x, y}))) << x << "," << y;
    }
  }
}

// Edits far from every labelled sector keep the field as it is (nothing rebuilt); the field
// still equals a fresh build on the edited map. An edit next to a labelled sector rebuilds.
TEST(SectorField, EditsFarFromItsSectorsChangeNothing) {
  grid::Grid g(256, 64);
  const Cell goal{10, 10}, unit{50, 40};
  flow::SectorField f;
  ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), flow::Options{}, 16, false).has_value());
  f.require(std::span<const Cell>(&unit, 1));
  ASSERT_LT(f.sectors_labelled(), 64) << "the far sectors must stay unlabelled for this test";
  grid::Edit e;
  e.kind = grid::Edit::Kind::wall;
  e.area = {230, 20, 240, 50};
  ASSERT_FALSE(g.apply(e).has_value());
  const flow::Stats far = f.update();
  EXPECT_FALSE(far.rebuilt);
  EXPECT_EQ(far.settled, 0);
  flow::SectorField fresh;
  ASSERT_FALSE(
      fresh.build(g, std::span<const Cell>(&goal, 1), flow::Options{}, 16, false).has_value());
  fresh.require(std::span<const Cell>(&unit, 1));
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      ASSERT_TRUE(close(f.distance({x, y}), fresh.distance({x, y}))) << x << "," << y;
    }
  }
  e.area = {30, 20, 30, 50};  // across the way
  ASSERT_FALSE(g.apply(e).has_value());
  EXPECT_TRUE(f.update().rebuilt);
  EXPECT_FALSE(f.update().rebuilt) << "no edit since";
}

// Regions by their definition: two usable cells of one sector share a region exactly when legal
// moves that stay inside the sector join them (a flood fill here), on random grids with every
// corner rule, units of several sizes and sectors 8 to 64 wide (row runs that cross 64-cell
// words included).
TEST(SectorField, RegionsAreTheComponentsWithinEachSector) {
  int checked = 0;
  for (std::uint32_t seed = 1; seed <= 24; ++seed) {
    std::mt19937 rng(seed);
    const int side = 8 << (seed % 3);
    const grid::Grid g =
        pathlab::testing::random_class_grid(seed + 900, side * 2 + 5 + static_cast<int>(seed % 7),
                                            side + 3 + static_cast<int>(seed % 5),
                                            15 + 5 * static_cast<int>(seed % 4), 20, seed % 3 == 0);
    flow::Options o;
    o.moves.diagonal = static_cast<grid::DiagonalRule>(seed % 4);
    o.unit = seed % 2 == 0 ? grid::Unit{} : pathlab::testing::random_unit(rng);
    const grid::Grid plain = pathlab::testing::plain_copy(g, o.unit);
    const grid::Grid* view = &plain;
    Cell goal{-1, -1};
    for (int y = 0; y < g.height() && goal.x < 0; ++y) {
      for (int x = 0; x < g.width() && goal.x < 0; ++x) {
        if (view->passable(x, y)) goal = {x, y};
      }
    }
    if (goal.x < 0) continue;
    flow::SectorField f;
    ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), o, side, false).has_value());
    std::vector<Cell> all;
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) all.push_back({x, y});
    }
    f.require(all);  // labels every sector the searches reach; the rest stay -1
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const int r = f.region({x, y});
        if (r < 0) continue;
        ASSERT_TRUE(view->passable(x, y));
        // Flood the cell's component within its sector and compare the labels.
        const int x0 = x / side * side, y0 = y / side * side;
        auto inside = [&](Cell c) {
          return c.x >= x0 && c.y >= y0 && c.x < x0 + side && c.y < y0 + side && c.x < g.width() &&
                 c.y < g.height();
        };
        std::vector<char> seen(static_cast<std::size_t>(side * side), 0);
        std::vector<Cell> stack{{x, y}};
        seen[static_cast<std::size_t>((y - y0) * side + (x - x0))] = 1;
        while (!stack.empty()) {
          const Cell c = stack.back();
          stack.pop_back();
          for (int d = 0; d < 8; ++d) {
            const Cell n{c.x + flow::kDirDx[static_cast<std::size_t>(d)],
                         c.y + flow::kDirDy[static_cast<std::size_t>(d)]};
            if (!inside(n) || !grid::step_legal(*view, o.moves, c, n)) continue;
            char& s = seen[static_cast<std::size_t>((n.y - y0) * side + (n.x - x0))];
            if (s) continue;
            s = 1;
            stack.push_back(n);
          }
        }
        for (int v = y0; v < std::min(g.height(), y0 + side); ++v) {
          for (int u = x0; u < std::min(g.width(), x0 + side); ++u) {
            const bool same = seen[static_cast<std::size_t>((v - y0) * side + (u - x0))] != 0;
            ASSERT_EQ(f.region({u, v}) == r, same)
                << "seed " << seed << ": " << x << "," << y << " and " << u << "," << v;
          }
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(SectorField, BadInputIsAMessage) {
  const grid::Grid g(30, 20);
  const Cell c{3, 3}, out{30, 3};
  flow::SectorField f;
  EXPECT_TRUE(f.build(g, std::span<const Cell>(&c, 1), flow::Options{}, 4).has_value());
  EXPECT_TRUE(f.build(g, std::span<const Cell>(&out, 1), flow::Options{}).has_value());
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.require(std::span<const Cell>(&c, 1)).settled, 0);
  EXPECT_FALSE(f.steer({1, 1}).has_value());
  ASSERT_FALSE(f.build(g, std::span<const Cell>(&c, 1), flow::Options{}).has_value());
  const Cell outside[] = {{-1, 0}, {30, 30}};
  f.require(outside);
  EXPECT_FALSE(f.steer({std::nan(""), 1}).has_value());
}

TEST(SectorField, ARefusedBuildLeavesTheFieldEmptyEvenAfterAGoodOne) {
  const grid::Grid g(30, 20);
  const Cell c{3, 3}, out{30, 3};
  flow::SectorField f;
  ASSERT_FALSE(f.build(g, std::span<const Cell>(&c, 1), flow::Options{}, 8).has_value());
  ASSERT_FALSE(f.empty());
  EXPECT_TRUE(f.build(g, std::span<const Cell>(&out, 1), flow::Options{}, 8).has_value());
  EXPECT_TRUE(f.empty());  // not the old field of goal (3,3): the header's promise
  EXPECT_FALSE(f.steer({5.5, 5.5}).has_value());
}

}  // namespace
}  // namespace pathlab
