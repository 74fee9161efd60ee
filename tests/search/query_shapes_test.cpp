// Query shapes (shared docs/ALGORITHMS.md, "Partial paths and other query shapes") against
// brute force on random grids and units: partial paths (the reached cell closest to the goal,
// ties to the smaller cost; a least-cost path to it for optimal algorithms), the nearest of
// several goals (the least cost over the goals), and movement ranges (every cell whose least
// cost is within the budget, row-major).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <pathlab/search/pathfinder.hpp>

#include "test_grids.hpp"
#include "units.hpp"

using namespace pathlab;

namespace {

double closeness(const grid::Moves& m, Cell a, const std::vector<Cell>& goals) {
  double best = 1e300;
  for (const Cell g : goals) {
    best = std::min(
        best, search::heuristic_distance(search::default_heuristic(m), m, a.x - g.x, a.y - g.y));
  }
  return best;
}

std::vector<search::Algorithm> optimal_grid_algorithms() {
  std::vector<search::Algorithm> out;
  for (const auto& a : search::algorithms()) {
    if (a.optimal && !a.any_angle && a.algorithm != search::Algorithm::idastar) {
      out.push_back(a.algorithm);
    }
  }
  return out;
}

}  // namespace

TEST(QueryShapes, PartialPathReachesTheClosestReachableCell) {
  std::mt19937 rng(21);
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    const grid::Grid base =
        pathlab::testing::random_class_grid(seed, 16 + seed % 20, 12 + seed % 15, 35, 20);
    const grid::Unit unit = seed % 3 == 0 ? pathlab::testing::random_unit(rng) : grid::Unit{};
    const grid::Grid plain = pathlab::testing::plain_copy(base, unit);
    const auto cells = pathlab::testing::passable_cells(plain);
    if (cells.size() < 2) continue;
    const grid::Moves moves = pathlab::testing::kAllMoves[rng() % 4];
    for (int q = 0; q < 6; ++q) {
      const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
      const auto ref = pathlab::testing::reference_distances(plain, moves, s);
      if (!std::isinf(pathlab::testing::dist_at(ref, plain, t))) continue;  // want no path
      // The brute-force closest: least h, then least cost.
      double best_h = 1e300, best_g = 1e300;
      for (const Cell c : cells) {
        const double d = pathlab::testing::dist_at(ref, plain, c);
        if (std::isinf(d)) continue;
        const double h = closeness(moves, c, {t});
        if (h < best_h - 1e-9 || (std::abs(h - best_h) <= 1e-9 && d < best_g)) {
          best_h = h;
          best_g = d;
        }
      }
      for (const search::Algorithm a :
           {search::Algorithm::dijkstra, search::Algorithm::astar, search::Algorithm::jps,
            search::Algorithm::jps_plus, search::Algorithm::subgoal, search::Algorithm::bfs,
            search::Algorithm::greedy, search::Algorithm::wastar}) {
        search::Options o;
        o.algorithm = a;
        o.moves = moves;
        o.unit = unit;
        o.partial = true;
        search::Pathfinder f(base, o);
        const search::Result r = f.find(s, t);
        const std::string what = std::string(search::to_string(a)) + " seed " +
                                 std::to_string(seed) + " q " + std::to_string(q);
        ASSERT_EQ(r.status, Status::no_path) << what;
        const auto& p = r.partial;
        ASSERT_FALSE(p.path.empty()) << what;
        EXPECT_EQ(p.path.front(), s) << what;
        EXPECT_EQ(p.path.back(), p.reached) << what;
        EXPECT_FALSE(grid::check_path(plain, moves, p.path).has_value()) << what;
        EXPECT_TRUE(pathlab::testing::near(grid::path_cost(plain, moves, p.path), p.cost)) << what;
        EXPECT_NEAR(closeness(moves, p.reached, {t}), best_h, 1e-9) << what;
        if (a == search::Algorithm::greedy || a == search::Algorithm::wastar) continue;
        // Least h, the least cost among those, and a least-cost path to it.
        EXPECT_TRUE(pathlab::testing::near(p.cost, best_g))
            << what << " " << p.cost << " vs " << best_g;
      }
    }
  }
}

TEST(QueryShapes, PartialPathUnderTheNodeLimitAndNotWhenFound) {
  const grid::Grid g = pathlab::testing::random_grid(4, 60, 40, 10, false);
  const auto cells = pathlab::testing::passable_cells(g);
  search::Options o;
  o.partial = true;
  o.node_limit = 25;
  search::Pathfinder f(g, o);
  const search::Result r = f.find(cells.front(), cells.back());
  ASSERT_EQ(r.status, Status::node_limit);
  ASSERT_FALSE(r.partial.path.empty());
  EXPECT_FALSE(grid::check_path(g, o.moves, r.partial.path).has_value());
  EXPECT_LE(r.partial.path.size(), 26u);
  o.node_limit = 10'000'000;
  f.set_options(o);
  const search::Result found = f.find(cells.front(), cells.back());
  ASSERT_EQ(found.status, Status::found);
  EXPECT_TRUE(found.partial.path.empty());
  // Without the option, no partial path.
  o.partial = false;
  o.node_limit = 25;
  f.set_options(o);
  EXPECT_TRUE(f.find(cells.front(), cells.back()).partial.path.empty());
}

TEST(QueryShapes, NearestGoalIsTheLeastCostOverTheGoals) {
  std::mt19937 rng(8);
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    const grid::Grid base =
        pathlab::testing::random_class_grid(seed, 14 + seed % 25, 10 + seed % 20, 20, 25);
    const grid::Unit unit = seed % 2 == 0 ? pathlab::testing::random_unit(rng) : grid::Unit{};
    const grid::Grid plain = pathlab::testing::plain_copy(base, unit);
    const auto cells = pathlab::testing::passable_cells(plain);
    if (cells.size() < 3) continue;
    const grid::Moves moves = pathlab::testing::kAllMoves[rng() % 6];
    for (int q = 0; q < 4; ++q) {
      const Cell s = cells[rng() % cells.size()];
      std::vector<Cell> goals;
      const int k = 1 + static_cast<int>(rng() % 5);
      for (int i = 0; i < k; ++i) goals.push_back(cells[rng() % cells.size()]);
      const auto ref = pathlab::testing::reference_distances(plain, moves, s);
      double want = std::numeric_limits<double>::infinity();
      for (const Cell gl : goals) want = std::min(want, pathlab::testing::dist_at(ref, plain, gl));
      for (const search::Algorithm a : optimal_grid_algorithms()) {
        search::Options o;
        o.algorithm = a;
        o.moves = moves;
        o.unit = unit;
        search::Pathfinder f(base, o);
        search::Result r;
        f.find_nearest(s, goals, r);
        const std::string what = std::string(search::to_string(a)) + " seed " +
                                 std::to_string(seed) + " goals " + std::to_string(k);
        if (std::isinf(want)) {
          EXPECT_EQ(r.status, Status::no_path) << what;
          continue;
        }
        ASSERT_EQ(r.status, Status::found)
            << what << " from " << s.x << "," << s.y << " to " << goals[0].x << "," << goals[0].y
            << " rule " << grid::to_string(moves.diagonal) << " want " << want;
        EXPECT_TRUE(pathlab::testing::near(r.cost, want))
            << what << " " << r.cost << " vs " << want;
        EXPECT_NE(std::find(goals.begin(), goals.end(), r.reached_goal()), goals.end()) << what;
        EXPECT_TRUE(
            pathlab::testing::near(pathlab::testing::dist_at(ref, plain, r.reached_goal()), want))
            << what;
        EXPECT_FALSE(grid::check_path(plain, moves, r.path).has_value()) << what;
      }
    }
  }
}

TEST(QueryShapes, NearestGoalRejectsBadGoals) {
  grid::Grid g(10, 10);
  g.set_blocked(5, 5, true);
  search::Pathfinder f(g);
  search::Result r;
  EXPECT_EQ(f.find_nearest({0, 0}, {}, r), Status::invalid_input);
  const std::vector<Cell> goals{{3, 3}, {5, 5}};
  EXPECT_EQ(f.find_nearest({0, 0}, goals, r), Status::invalid_input);
  const std::vector<Cell> outside{{3, 3}, {10, 0}};
  EXPECT_EQ(f.find_nearest({0, 0}, outside, r), Status::invalid_input);
}

TEST(QueryShapes, MovementRangeIsEveryCellWithinTheBudget) {
  std::mt19937 rng(13);
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    const grid::Grid base =
        pathlab::testing::random_class_grid(seed, 12 + seed % 25, 10 + seed % 20, 25, 30, seed % 2);
    const grid::Unit unit = seed % 3 == 0 ? pathlab::testing::random_unit(rng) : grid::Unit{};
    const grid::Grid plain = pathlab::testing::plain_copy(base, unit);
    const auto cells = pathlab::testing::passable_cells(plain);
    if (cells.empty()) continue;
    const grid::Moves moves = pathlab::testing::kAllMoves[rng() % 6];
    const Cell s = cells[rng() % cells.size()];
    const double budget = static_cast<double>(rng() % 12) * moves.straight_cost() +
                          (rng() % 2 ? moves.diagonal_cost() : 0.0);
    const auto ref = pathlab::testing::reference_distances(plain, moves, s);
    std::vector<search::ReachCell> want;
    for (int y = 0; y < plain.height(); ++y) {
      for (int x = 0; x < plain.width(); ++x) {
        const double d = pathlab::testing::dist_at(ref, plain, {x, y});
        if (d <= budget + 1e-9 * std::max(1.0, budget)) want.push_back({{x, y}, d});
      }
    }
    search::Options o;
    o.moves = moves;
    o.unit = unit;
    search::Pathfinder f(base, o);
    std::vector<search::ReachCell> got;
    ASSERT_EQ(f.reach(s, budget, got), Status::found);
    ASSERT_EQ(got.size(), want.size()) << "seed " << seed << " budget " << budget;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].cell, want[i].cell) << "seed " << seed << " " << i;
      EXPECT_TRUE(pathlab::testing::near(got[i].cost, want[i].cost)) << "seed " << seed;
    }
  }
  grid::Grid g(5, 5);
  search::Pathfinder f(g);
  std::vector<search::ReachCell> out;
  EXPECT_EQ(f.reach({0, 0}, -1, out), Status::invalid_input);
  EXPECT_EQ(f.reach({0, 0}, std::nan(""), out), Status::invalid_input);
  EXPECT_EQ(f.reach({9, 0}, 3, out), Status::invalid_input);
  ASSERT_EQ(f.reach({2, 2}, 0, out), Status::found);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cell, (Cell{2, 2}));
}
