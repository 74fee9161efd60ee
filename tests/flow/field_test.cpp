// Flow fields against their definitions (shared docs/ALGORITHMS.md, "Flow fields"): D(c) equals
// a Dijkstra from c to the nearest goal on the unit's plain grid copy; following the directions
// from any reachable cell reaches a goal at total cost D(c) with legal moves; ties follow the
// stated order; the line-of-sight marks are exactly the cells within range that see a goal;
// after random edits the repaired field equals a fresh one; readers on many threads agree.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>

#include <pathlab/flow/field.hpp>
#include <pathlab/grid/los.hpp>

#include "test_grids.hpp"
#include "units.hpp"

namespace pathlab {
namespace {

using flow::Field;

bool near(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

std::vector<grid::Moves> all_moves() {
  std::vector<grid::Moves> out;
  for (const auto r : {grid::DiagonalRule::never, grid::DiagonalRule::no_corner_cut,
                       grid::DiagonalRule::one_corner, grid::DiagonalRule::always}) {
    for (const auto c : {grid::CostModel::octile, grid::CostModel::integer}) {
      grid::Moves m;
      m.diagonal = r;
      m.cost_model = c;
      out.push_back(m);
    }
  }
  return out;
}

/// Random goals among the cells the unit can use (its plain copy's free cells).
std::vector<Cell> pick_goals(const grid::Grid& plain, std::mt19937& rng, int n) {
  const std::vector<Cell> cells = pathlab::testing::passable_cells(plain);
  std::vector<Cell> out;
  for (int k = 0; k < n && !cells.empty(); ++k) out.push_back(cells[rng() % cells.size()]);
  return out;
}

/// D(c) by the definition: a forward Dijkstra from c on the plain copy, the least over goals.
std::vector<double> reference_field(const grid::Grid& plain, const grid::Moves& m,
                                    const std::vector<Cell>& goals) {
  std::vector<double> out(static_cast<std::size_t>(plain.cells()), flow::kUnreachable);
  for (int y = 0; y < plain.height(); ++y) {
    for (int x = 0; x < plain.width(); ++x) {
      if (!plain.passable(x, y)) continue;
      const auto d = pathlab::testing::reference_distances(plain, m, {x, y});
      double best = flow::kUnreachable;
      for (const Cell g : goals) {
        best = std::min(best, d[static_cast<std::size_t>(g.y) * plain.width() + g.x]);
      }
      out[static_cast<std::size_t>(y) * plain.width() + x] = best;
    }
  }
  return out;
}

/// Walks the directions from c: every move legal on the plain copy, a goal reached within the
/// map's cell count of moves, at total cost D(c).
void expect_follows_to_goal(const Field& f, const grid::Grid& plain, const grid::Moves& m,
                            const std::vector<Cell>& goals, Cell c, const std::string& what) {
  double cost = 0;
  Cell at = c;
  for (std::int64_t k = 0; k <= plain.cells(); ++k) {
    if (std::find(goals.begin(), goals.end(), at) != goals.end()) {
      EXPECT_TRUE(near(cost, f.distance(c))) << what << " from " << c.x << "," << c.y << ": walked "
                                             << cost << ", D " << f.distance(c);
      return;
    }
    const int d = f.direction(at);
    ASSERT_GE(d, 0) << what << ": no direction at " << at.x << "," << at.y << " on the way from "
                    << c.x << "," << c.y;
    const Cell next{at.x + flow::kDirDx[static_cast<std::size_t>(d)],
                    at.y + flow::kDirDy[static_cast<std::size_t>(d)]};
    ASSERT_TRUE(grid::step_legal(plain, m, at, next))
        << what << ": illegal move " << at.x << "," << at.y << " -> " << next.x << "," << next.y;
    cost += grid::step_cost(plain, m, at, next);
    at = next;
  }
  FAIL() << what << ": the directions from " << c.x << "," << c.y << " loop";
}

TEST(FlowField, DistanceEqualsDijkstraPerCellForRandomUnitsAndMoves) {
  std::mt19937 rng(7);
  const auto moves = all_moves();
  for (std::uint32_t seed = 0; seed < 24; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(
        seed, 14 + seed % 7, 10 + seed % 5, 15 + static_cast<int>(seed % 3) * 5, 30, seed % 2 == 1);
    const grid::Unit u = seed % 4 == 0 ? grid::Unit{} : pathlab::testing::random_unit(rng);
    const grid::Moves m = moves[seed % moves.size()];
    const grid::Grid plain = pathlab::testing::plain_copy(g, u);
    const std::vector<Cell> goals = pick_goals(plain, rng, 1 + static_cast<int>(seed % 3));
    if (goals.empty()) continue;
    flow::Options o;
    o.moves = m;
    o.unit = u;
    Field f;
    ASSERT_FALSE(f.build(g, goals, o).has_value());
    const std::vector<double> ref = reference_field(plain, m, goals);
    const std::string what = "seed " + std::to_string(seed);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const double want = ref[static_cast<std::size_t>(y) * g.width() + x];
        ASSERT_TRUE(near(f.distance({x, y}), want))
            << what << " cell " << x << "," << y << ": field " << f.distance({x, y})
            << ", Dijkstra " << want;
        const bool goal = std::find(goals.begin(), goals.end(), Cell{x, y}) != goals.end();
        EXPECT_EQ(f.direction({x, y}) >= 0, std::isfinite(want) && !goal) << what;
        if (std::isfinite(want)) expect_follows_to_goal(f, plain, m, goals, {x, y}, what);
      }
    }
  }
}

TEST(FlowField, DirectionTiesFollowTheStatedOrder) {
  // Every direction is the least step(c->n) + D(n), ties broken straight before diagonal, then
  // E, SE, S, SW, W, NW, N, NE: checked against a brute force over the neighbours.
  std::mt19937 rng(3);
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(seed + 100, 20, 15, 10, 0, seed % 2);
    const grid::Moves m = all_moves()[seed % 8];
    const std::vector<Cell> goals = pick_goals(g, rng, 1 + static_cast<int>(seed % 2));
    Field f;
    flow::Options o;
    o.moves = m;
    ASSERT_FALSE(f.build(g, goals, o).has_value());
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const int d = f.direction({x, y});
        if (d < 0) continue;
        double best = flow::kUnreachable;
        for (int k = 0; k < 8; ++k) {
          const Cell n{x + flow::kDirDx[static_cast<std::size_t>(k)],
                       y + flow::kDirDy[static_cast<std::size_t>(k)]};
          if (!grid::step_legal(g, m, {x, y}, n)) continue;
          best = std::min(best, grid::step_cost(g, m, {x, y}, n) + f.distance(n));
        }
        int want = -1;
        for (const int k : {0, 2, 4, 6, 1, 3, 5, 7}) {
          const Cell n{x + flow::kDirDx[static_cast<std::size_t>(k)],
                       y + flow::kDirDy[static_cast<std::size_t>(k)]};
          if (!grid::step_legal(g, m, {x, y}, n)) continue;
          if (near(grid::step_cost(g, m, {x, y}, n) + f.distance(n), best)) {
            want = k;
            break;
          }
        }
        ASSERT_EQ(d, want) << "seed " << seed << " cell " << x << "," << y;
      }
    }
  }
  // An open field, one goal: straight rows and columns move straight, the rest diagonally.
  const grid::Grid open(11, 11);
  const Cell goal{5, 5};
  Field f;
  ASSERT_FALSE(f.build(open, std::span<const Cell>(&goal, 1), flow::Options{}).has_value());
  EXPECT_EQ(f.direction({0, 5}), 0);    // E
  EXPECT_EQ(f.direction({5, 0}), 2);    // S
  EXPECT_EQ(f.direction({10, 5}), 4);   // W
  EXPECT_EQ(f.direction({5, 10}), 6);   // N
  EXPECT_EQ(f.direction({0, 0}), 1);    // SE
  EXPECT_EQ(f.direction({10, 10}), 5);  // NW
  // S and SE both lead on at the least cost (1 + D(1,1) = sqrt 2 + D(2,1)): straight first.
  EXPECT_EQ(f.direction({1, 0}), 2);
  EXPECT_EQ(f.direction(goal), flow::kNoDirection);
  EXPECT_DOUBLE_EQ(f.distance({0, 0}), 5 * std::sqrt(2.0));
}

TEST(FlowField, SightMarksExactlyTheCellsWithinRangeThatSeeAGoal) {
  std::mt19937 rng(11);
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(seed + 200, 30, 22, 12, 20);
    const grid::Unit u = seed % 3 == 0 ? grid::Unit{} : pathlab::testing::random_unit(rng);
    const grid::Grid plain = pathlab::testing::plain_copy(g, u);
    const std::vector<Cell> goals = pick_goals(plain, rng, 1 + static_cast<int>(seed % 3));
    if (goals.empty()) continue;
    flow::Options o;
    o.unit = u;
    o.moves.diagonal = all_moves()[seed % 8].diagonal;
    o.sight_range = 3 + seed;
    Field f;
    ASSERT_FALSE(f.build(g, goals, o).has_value());
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        int want = -1;
        double want_e = 1e18;
        if (std::isfinite(f.distance({x, y}))) {
          for (std::size_t k = 0; k < goals.size(); ++k) {
            const double e = std::hypot(x - goals[k].x, y - goals[k].y);
            if (e > o.sight_range || e >= want_e) continue;
            if (!grid::line_of_sight(plain, o.moves.diagonal, goals[k], Cell{x, y})) continue;
            want = static_cast<int>(k);
            want_e = e;
          }
        }
        // Several goals at the same straight distance: any of them.
        const int got = f.sees({x, y});
        if (got >= 0 && want >= 0) {
          EXPECT_DOUBLE_EQ(std::hypot(x - goals[static_cast<std::size_t>(got)].x,
                                      y - goals[static_cast<std::size_t>(got)].y),
                           want_e);
        } else {
          EXPECT_EQ(got, want) << "seed " << seed << " cell " << x << "," << y;
        }
        const auto s = f.steer(centre(Cell{x, y}));
        EXPECT_EQ(s.has_value(), std::isfinite(f.distance({x, y})));
        if (got >= 0 && s) {
          EXPECT_EQ(*s, centre(goals[static_cast<std::size_t>(got)]));
        }
      }
    }
  }
}

TEST(FlowField, RepairAfterRandomEditsEqualsAFreshBuild) {
  std::mt19937 rng(5);
  int repaired = 0;
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    grid::Grid g = pathlab::testing::random_class_grid(seed + 300, 26, 18, 14, 25, seed % 2);
    const grid::Unit u = seed % 3 == 0 ? grid::Unit{} : pathlab::testing::random_unit(rng);
    flow::Options o;
    o.unit = u;
    o.moves = all_moves()[seed % 8];
    o.sight_range = 6;
    const std::vector<Cell> goals = pick_goals(pathlab::testing::plain_copy(g, u), rng, 2);
    if (goals.empty()) continue;
    Field f;
    ASSERT_FALSE(f.build(g, goals, o).has_value());
    for (int step = 0; step < 30; ++step) {
      grid::Edit e;
      e.kind = static_cast<grid::Edit::Kind>(rng() % 4);  // wall, free, class, terrain
      e.area.x0 = static_cast<int>(rng() % static_cast<unsigned>(g.width()));
      e.area.y0 = static_cast<int>(rng() % static_cast<unsigned>(g.height()));
      e.area.x1 = std::min(g.width() - 1, e.area.x0 + static_cast<int>(rng() % 3));
      e.area.y1 = std::min(g.height() - 1, e.area.y0 + static_cast<int>(rng() % 3));
      e.cls = pathlab::testing::kTestClasses[rng() % 5];
      e.cost = 1.0f + static_cast<float>(rng() % 4);
      ASSERT_FALSE(g.apply(e).has_value());
      const flow::Stats s = f.update(g);
      repaired += s.rebuilt ? 0 : 1;
      // The fresh field, built around goals the edits may have blocked (they keep no distance).
      const auto view = g.view(u);
      std::vector<Cell> usable;
      for (const Cell c : goals) {
        if (view->passable(c)) usable.push_back(c);
      }
      const std::string what = "seed " + std::to_string(seed) + " step " + std::to_string(step);
      if (usable.empty()) {
        for (int y = 0; y < g.height(); ++y) {
          for (int x = 0; x < g.width(); ++x) {
            ASSERT_TRUE(std::isinf(f.distance({x, y}))) << what;
          }
        }
        continue;
      }
      Field fresh;
      ASSERT_FALSE(fresh.build(g, usable, o).has_value());
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          ASSERT_TRUE(near(f.distance({x, y}), fresh.distance({x, y})))
              << what << " cell " << x << "," << y << ": repaired " << f.distance({x, y})
              << ", fresh " << fresh.distance({x, y});
          ASSERT_EQ(f.direction({x, y}), fresh.direction({x, y}))
              << what << " cell " << x << "," << y;
          const int a = f.sees({x, y}), b = fresh.sees({x, y});
          ASSERT_EQ(a >= 0, b >= 0) << what << " cell " << x << "," << y;
          if (a >= 0) {
            EXPECT_EQ(goals[static_cast<std::size_t>(a)], usable[static_cast<std::size_t>(b)]);
          }
        }
      }
    }
  }
  EXPECT_GT(repaired, 200) << "the repairs must run in place, not as rebuilds";
}

TEST(FlowField, BadInputIsAMessageNotACrash) {
  const grid::Grid g = pathlab::testing::random_class_grid(1, 10, 8, 30);
  Field f;
  const Cell outside{10, 3};
  auto err = f.build(g, std::span<const Cell>(&outside, 1), flow::Options{});
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("outside the 10x8 map"), std::string::npos) << *err;
  EXPECT_TRUE(f.empty());
  EXPECT_TRUE(f.build(g, {}, flow::Options{}).has_value());
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      if (g.passable(x, y)) continue;
      const Cell wall{x, y};
      err = f.build(g, std::span<const Cell>(&wall, 1), flow::Options{});
      ASSERT_TRUE(err.has_value());
      EXPECT_NE(err->find("cannot use"), std::string::npos) << *err;
    }
  }
  flow::Options bad;
  bad.unit.radius = -1;
  const Cell c = pathlab::testing::passable_cells(g).front();
  EXPECT_TRUE(f.build(g, std::span<const Cell>(&c, 1), bad).has_value());
  bad = {};
  bad.sight_range = std::nan("");
  EXPECT_TRUE(f.build(g, std::span<const Cell>(&c, 1), bad).has_value());
  EXPECT_FALSE(f.steer({-1, 2}).has_value());
  EXPECT_FALSE(f.steer({std::nan(""), 2}).has_value());
}

TEST(FlowFieldThreads, ManyReadersAgree) {
  const grid::Grid g = pathlab::testing::random_class_grid(9, 64, 48, 20);
  const std::vector<Cell> cells = pathlab::testing::passable_cells(g);
  const Cell goal = cells[cells.size() / 2];
  Field f;
  ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), flow::Options{}).has_value());
  std::vector<double> sums(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < sums.size(); ++t) {
    threads.emplace_back([&, t] {
      for (const Cell c : cells) {
        if (const auto p = f.steer(centre(c))) sums[t] += p->x + p->y + f.distance(c);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const double s : sums) EXPECT_EQ(s, sums[0]);
}

}  // namespace
}  // namespace pathlab
