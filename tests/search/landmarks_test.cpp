// jps+'s differential heuristic (libs/search/src/landmarks.hpp): the tables hold exact
// distances in their units (moves rounded down to whole units) from each landmark in G' (the
// map as built, with every cell opened since), before and after repairs; the bound is admissible
// and consistent on the map as it is; a repair past its budget clears the tables; jps+ with them
// answers as Dijkstra does and expands fewer jump points than jps where the octile distance is a
// poor guide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include <pathlab/search/pathfinder.hpp>

#include "../../libs/search/src/components.hpp"
#include "../../libs/search/src/jps.hpp"
#include "../../libs/search/src/landmarks.hpp"
#include "path_checks.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using search::detail::Components;
using search::detail::Landmarks;

namespace {

constexpr double kLmInf = std::numeric_limits<double>::infinity();
constexpr double kLmSqrt2 = 1.4142135623730951;

/// Dijkstra over the cells with open[id] set (padded ids), 8 moves without corner cutting,
/// costs 1 and sqrt 2 (or those given): the reference the tables are checked against.
std::vector<double> lm_dijkstra(const grid::Grid& g, const std::vector<char>& open,
                                grid::NodeId from, double straight = 1.0,
                                double diagonal = kLmSqrt2) {
  std::vector<double> d(g.padded_size(), kLmInf);
  using Entry = std::pair<double, grid::NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> q;
  d[from] = 0;
  q.push({0.0, from});
  const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  while (!q.empty()) {
    const Entry e = q.top();
    q.pop();
    if (e.first > d[e.second]) continue;
    const Cell c = g.cell(e.second);
    for (int j = 0; j < 8; ++j) {
      const grid::NodeId v = g.id(c.x + dx[j], c.y + dy[j]);
      if (!open[v]) continue;
      if (j >= 4 && (!open[g.id(c.x + dx[j], c.y)] || !open[g.id(c.x, c.y + dy[j])])) continue;
      const double nd = e.first + (j >= 4 ? diagonal : straight);
      if (nd < d[v]) {
        d[v] = nd;
        q.push({nd, v});
      }
    }
  }
  return d;
}

std::vector<char> lm_free(const grid::Grid& g) {
  std::vector<char> open(g.padded_size(), 0);
  for (grid::NodeId n = 0; n < g.padded_size(); ++n) open[n] = g.passable_id(n) ? 1 : 0;
  return open;
}

/// The distance in the tables' units (exact: whole numbers) as a double, infinite for kFar.
double units_of(Landmarks::Dist d) {
  return d == Landmarks::kFar ? kLmInf : static_cast<double>(d);
}

/// Every landmark's column against a Dijkstra over `open` with the moves in the tables' units
/// (empty when they agree exactly).
std::string tables_problem(const Landmarks& m, const grid::Grid& g, const std::vector<char>& open) {
  for (int i = 0; i < m.count(); ++i) {
    const std::vector<double> d =
        lm_dijkstra(g, open, m.landmark(i), m.straight_units(), m.diagonal_units());
    for (grid::NodeId n = 0; n < g.padded_size(); ++n) {
      const double got = units_of(m.distance(i, n));
      if (!open[n]) continue;  // cells outside G' are never read
      if (got != d[n]) {
        const Cell c = g.cell(n);
        return "landmark " + std::to_string(i) + " at " + std::to_string(c.x) + "," +
               std::to_string(c.y) + ": " + std::to_string(got) + ", Dijkstra " +
               std::to_string(d[n]);
      }
    }
  }
  return {};
}

/// The bound toward t against the map's own distances: never above them, and consistent
/// along every legal move (empty when so).
std::string bound_problem(const Landmarks& m, const grid::Grid& g, grid::NodeId t) {
  Landmarks::Goal goal;
  m.toward(t, goal);
  if (goal.table == nullptr) return {};
  const std::vector<char> open = lm_free(g);
  const std::vector<double> d = lm_dijkstra(g, open, t);  // symmetric moves: distance to t
  const int dx[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  for (grid::NodeId n = 0; n < g.padded_size(); ++n) {
    if (d[n] == kLmInf) continue;
    const double h = goal.h(n);
    const Cell c = g.cell(n);
    const std::string at = std::to_string(c.x) + "," + std::to_string(c.y);
    if (h > d[n] + 1e-9)
      return "h " + std::to_string(h) + " above " + std::to_string(d[n]) + " at " + at;
    for (int j = 0; j < 8; ++j) {
      const grid::NodeId v = g.id(c.x + dx[j], c.y + dy[j]);
      if (!open[v]) continue;
      if (j >= 4 && (!open[g.id(c.x + dx[j], c.y)] || !open[g.id(c.x, c.y + dy[j])])) continue;
      if (h > goal.h(v) + (j >= 4 ? kLmSqrt2 : 1.0) + 1e-9) return "not consistent at " + at;
    }
  }
  return {};
}

}  // namespace

TEST(Landmarks, BuildHoldsExactDistancesInTheLargestComponent) {
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const int w = 12 + static_cast<int>(seed * 7 % 40), h = 9 + static_cast<int>(seed * 5 % 30);
    const grid::Grid g =
        pathlab::testing::random_grid(seed, w, h, 15 + static_cast<int>(seed % 4) * 8, false);
    Components comps;
    comps.build(g);
    Landmarks m;
    m.build(g, comps, 1.0, kLmSqrt2);
    ASSERT_EQ(m.count(), Landmarks::kMax) << "seed " << seed;
    std::vector<std::uint32_t> size(g.padded_size() + 1, 0);
    std::uint32_t largest = 0;
    for (grid::NodeId n = 0; n < g.padded_size(); ++n) {
      if (comps.of(n) != 0) largest = std::max(largest, ++size[comps.of(n)]);
    }
    for (int i = 0; i < m.count(); ++i) {
      EXPECT_EQ(size[comps.of(m.landmark(i))], largest) << "seed " << seed << " landmark " << i;
    }
    const std::string problem = tables_problem(m, g, lm_free(g));
    ASSERT_TRUE(problem.empty()) << "seed " << seed << ": " << problem;
    std::mt19937 rng(seed);
    for (int q = 0; q < 4; ++q) {
      const grid::NodeId t = g.id(static_cast<int>(rng() % static_cast<unsigned>(w)),
                                  static_cast<int>(rng() % static_cast<unsigned>(h)));
      if (!g.passable_id(t)) continue;
      const std::string bound = bound_problem(m, g, t);
      ASSERT_TRUE(bound.empty()) << "seed " << seed << ": " << bound;
    }
  }
}

// The integer cost model (10 and 14): 640 and 896 units, exact (64 units a cost), so the
// tables hold the Dijkstra distances exactly; and costs where a diagonal is no cheaper than two
// straight moves (1 and 2, 1 and 3), where a build's searches run in Dial's buckets instead of
// canonical Dijkstra.
TEST(Landmarks, BuildHoldsExactDistancesUnderIntegerCosts) {
  for (std::uint32_t seed = 0; seed < 6; ++seed) {
    const grid::Grid g =
        seed % 3 == 2 ? pathlab::testing::maze(seed, 14, 11, 2, 4)
                      : pathlab::testing::random_grid(seed, 37, 29, 10 + 10 * (seed % 3), false);
    Components comps;
    comps.build(g);
    Landmarks m;
    m.build(g, comps, 10.0, 14.0);
    ASSERT_EQ(m.count(), Landmarks::kMax) << "seed " << seed;
    EXPECT_EQ(m.straight_units(), 640);
    EXPECT_EQ(m.diagonal_units(), 896);
    EXPECT_EQ(m.unit(), 1.0 / 64);
    std::string problem = tables_problem(m, g, lm_free(g));
    ASSERT_TRUE(problem.empty()) << "seed " << seed << ": " << problem;
    const std::vector<double> exact = lm_dijkstra(g, lm_free(g), m.landmark(0), 10.0, 14.0);
    for (grid::NodeId n = 0; n < g.padded_size(); ++n) {
      if (g.passable_id(n)) {
        ASSERT_EQ(units_of(m.distance(0, n)) * m.unit(), exact[n]);
      }
    }
    for (const double diagonal : {2.0, 3.0}) {
      m.build(g, comps, 1.0, diagonal);
      ASSERT_EQ(m.count(), Landmarks::kMax) << "seed " << seed;
      problem = tables_problem(m, g, lm_free(g));
      ASSERT_TRUE(problem.empty())
          << "seed " << seed << " diagonal " << diagonal << ": " << problem;
    }
  }
}

// Larger maps, where a build's canonical Dijkstra meets many turns: open and dense random
// maps, a maze with corridors one cell wide and one with wide ones, and rooms; every column
// holds Dijkstra's distances exactly (in units), and the bound is admissible and consistent.
TEST(Landmarks, CanonicalBuildsMatchDijkstraOnLargerMaps) {
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    grid::Grid g = seed == 5 ? pathlab::testing::maze(seed, 40, 30, 1, 1)
                   : seed == 6
                       ? pathlab::testing::maze(seed, 20, 15, 3, 2)
                       : pathlab::testing::random_grid(
                             seed, 160, 120, seed == 7 ? 2 : 3 + 9 * static_cast<int>(seed), false);
    if (seed == 7) {  // large blocks in the open, as on Aurora
      std::mt19937 blocks(seed);
      for (int b = 0; b < 40; ++b) {
        const int x = static_cast<int>(blocks() % 150), y = static_cast<int>(blocks() % 110);
        pathlab::testing::set_area(
            g, {x, y, x + static_cast<int>(blocks() % 10), y + static_cast<int>(blocks() % 10)},
            true);
      }
    }
    Components comps;
    comps.build(g);
    Landmarks m;
    m.build(g, comps, 1.0, kLmSqrt2);
    ASSERT_EQ(m.count(), Landmarks::kMax) << "seed " << seed;
    EXPECT_EQ(m.straight_units(), 1024);
    EXPECT_EQ(m.diagonal_units(), 1448);
    const std::string problem = tables_problem(m, g, lm_free(g));
    ASSERT_TRUE(problem.empty()) << "seed " << seed << ": " << problem;
    std::mt19937 rng(seed);
    for (int q = 0; q < 3; ++q) {
      const grid::NodeId t = g.id(static_cast<int>(rng() % static_cast<unsigned>(g.width())),
                                  static_cast<int>(rng() % static_cast<unsigned>(g.height())));
      if (!g.passable_id(t)) continue;
      const std::string bound = bound_problem(m, g, t);
      ASSERT_TRUE(bound.empty()) << "seed " << seed << ": " << bound;
    }
  }
}

// Random walls made and removed: the tables follow G' (every cell ever open since the build)
// exactly, and the bound stays admissible and consistent on the map as it is.
TEST(Landmarks, RepairsFollowEveryCellEverOpen) {
  std::mt19937 rng(31);
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    const int w = 20 + static_cast<int>(seed * 3 % 20), h = 14 + static_cast<int>(seed % 9);
    grid::Grid g = pathlab::testing::random_grid(seed + 100, w, h, 35, false);
    Components comps;
    comps.build(g);
    Landmarks m;
    m.build(g, comps, 1.0, kLmSqrt2);
    ASSERT_GT(m.count(), 0);
    std::vector<char> ever = lm_free(g);
    std::vector<grid::Rect> changed;
    for (int step = 0; step < 25; ++step) {
      const std::uint64_t rev = g.revision();
      pathlab::testing::random_edit(g, rng, 3, 3);
      ASSERT_TRUE(g.changes_since(rev, changed));
      ASSERT_TRUE(m.repair(g, changed, std::numeric_limits<std::int64_t>::max()));
      for (grid::NodeId n = 0; n < g.padded_size(); ++n) ever[n] |= g.passable_id(n) ? 1 : 0;
      const std::string problem = tables_problem(m, g, ever);
      ASSERT_TRUE(problem.empty()) << "seed " << seed << " step " << step << ": " << problem;
      const grid::NodeId t = g.id(static_cast<int>(rng() % static_cast<unsigned>(w)),
                                  static_cast<int>(rng() % static_cast<unsigned>(h)));
      if (!g.passable_id(t)) continue;
      const std::string bound = bound_problem(m, g, t);
      ASSERT_TRUE(bound.empty()) << "seed " << seed << " step " << step << ": " << bound;
    }
  }
}

// An opening that makes a landmark's repair settle more cells than the budget allows gives
// them all up: the tables are cleared. With the budget the most a landmark needs, all are kept
// and exact.
TEST(Landmarks, ARepairPastItsBudgetGivesLandmarksUp) {
  grid::Grid g(40, 9);
  pathlab::testing::set_area(g, {20, 0, 20, 8}, true);
  pathlab::testing::set_area(g, {20, 8, 20, 8}, false);  // one gap at the bottom
  Components comps;
  comps.build(g);
  Landmarks m;
  m.build(g, comps, 1.0, kLmSqrt2);
  ASSERT_GT(m.count(), 0);
  std::vector<grid::Rect> changed;
  std::uint64_t rev = g.revision();
  // A gap at the top: half the map comes closer.
  pathlab::testing::set_area(g, {20, 0, 20, 0}, false);
  ASSERT_TRUE(g.changes_since(rev, changed));
  // A repair's work is the cells it settles: those it lowers, and the cells around the gap it
  // starts from that it does not.
  std::vector<std::int64_t> work(static_cast<std::size_t>(m.count()), 0);
  for (int i = 0; i < m.count(); ++i) {
    std::vector<char> open = lm_free(g);
    const std::vector<double> now =
        lm_dijkstra(g, open, m.landmark(i), m.straight_units(), m.diagonal_units());
    for (grid::NodeId n = 0; n < g.padded_size(); ++n) {
      const bool near_gap = std::abs(g.cell(n).x - 20) <= 1 && g.cell(n).y <= 1;
      const bool lower = now[n] < units_of(m.distance(i, n));
      work[static_cast<std::size_t>(i)] +=
          open[n] && (lower || (near_gap && m.distance(i, n) != Landmarks::kFar));
    }
  }
  const std::int64_t most = *std::max_element(work.begin(), work.end());
  ASSERT_GT(most, 1);
  Landmarks short_of = m;
  EXPECT_FALSE(short_of.repair(g, changed, most - 1));
  EXPECT_TRUE(short_of.empty());
  Landmarks kept = m;
  EXPECT_TRUE(kept.repair(g, changed, most));
  ASSERT_EQ(kept.count(), m.count());
  const std::string problem = tables_problem(kept, g, lm_free(g));
  EXPECT_TRUE(problem.empty()) << problem;
  // A budget of nothing gives every landmark up: the tables are cleared.
  EXPECT_FALSE(m.repair(g, changed, 0));
  EXPECT_TRUE(m.empty());
  Landmarks::Goal none;
  m.toward(g.id(1, 1), none);
  EXPECT_EQ(none.table, nullptr);
  // Rebuilt, a new wall costs no work at all (it stays in G').
  comps.build(g);
  m.build(g, comps, 1.0, kLmSqrt2);
  rev = g.revision();
  pathlab::testing::set_area(g, {20, 0, 20, 0}, true);
  ASSERT_TRUE(g.changes_since(rev, changed));
  EXPECT_TRUE(m.repair(g, changed, 0));
  EXPECT_FALSE(m.empty());
}

// A serpentine of walls through scattered obstacles, where the octile distance is a poor
// guide: jps+ with its landmarks answers every query as Dijkstra does, before and after edits,
// and expands far fewer jump points than jps.
TEST(Landmarks, JpsPlusAnswersAsDijkstraAndExpandsLess) {
  grid::Grid g = pathlab::testing::random_grid(3, 64, 48, 12, false);
  for (int x = 6; x < 64; x += 7) {
    const bool top = (x / 7) % 2 == 0;
    pathlab::testing::set_area(g, {x, top ? 0 : 5, x, top ? 42 : 47}, true);
  }
  search::Options oj, op, od;
  oj.algorithm = search::Algorithm::jps;
  op.algorithm = search::Algorithm::jps_plus;
  od.algorithm = search::Algorithm::dijkstra;
  search::Pathfinder jps(g, oj), plus(g, op), dijkstra(g, od);
  std::mt19937 rng(5);
  std::uint64_t expanded_jps = 0, expanded_plus = 0;
  for (int round = 0; round < 3; ++round) {
    for (int q = 0; q < 60; ++q) {
      const Cell s{static_cast<int>(rng() % 64), static_cast<int>(rng() % 48)};
      const Cell t{static_cast<int>(rng() % 64), static_cast<int>(rng() % 48)};
      if (!g.passable(s.x, s.y) || !g.passable(t.x, t.y)) continue;
      const search::Result a = jps.find(s, t), b = plus.find(s, t), c = dijkstra.find(s, t);
      ASSERT_EQ(b.status, c.status) << "round " << round << " query " << q;
      if (c.status != Status::found) continue;
      EXPECT_NEAR(b.cost, c.cost, 1e-9) << "round " << round << " query " << q;
      if (round == 0) {
        expanded_jps += a.stats.expanded;
        expanded_plus += b.stats.expanded;
      }
    }
    // Edits between rounds: a gap opened and a wall added.
    pathlab::testing::set_area(g, {13 + 14 * round, 20, 13 + 14 * round, 21}, false);
    pathlab::testing::set_area(g, {30, 2 + round, 33, 2 + round}, true);
  }
  EXPECT_LT(expanded_plus * 2, expanded_jps) << expanded_plus << " against " << expanded_jps;
}

// A subgoal method's stand-in (subgoal.cpp, stand_in_cache): its landmarks are built on
// another core from a copy of the map, while the map is edited here, then taken by a later
// call, repaired for the edits made meanwhile. Their tables then hold G''s distances (the map
// as it was copied, with every cell opened since) and the bound is admissible and consistent
// on the map as it is.
TEST(Landmarks, AStandInTakesThemFromAnotherCoreRepairedForTheEditsSince) {
  std::mt19937 rng(5);
  int dropped = 0;
  for (std::uint32_t seed = 0; seed < 4; ++seed) {
    grid::Grid g = pathlab::testing::random_grid(seed + 7, 60, 45, 25, false);
    search::Options o;
    o.algorithm = search::Algorithm::subgoal_ch;
    search::Pathfinder::Workspace ws;
    search::detail::JpsCache& c = search::detail::stand_in_cache(ws, g, o);
    if (!c.marks_pending.valid()) {
      GTEST_SKIP() << "one core here: the stand-in's landmarks wait for its queries instead";
    }
    EXPECT_TRUE(c.marks.empty());  // not at once
    std::vector<char> ever = lm_free(g);
    for (int step = 0; step < 6; ++step) {
      pathlab::testing::random_edit(g, rng, 3, 3);
      for (grid::NodeId n = 0; n < g.padded_size(); ++n) ever[n] |= g.passable_id(n) ? 1 : 0;
    }
    c.marks_pending.wait();
    ASSERT_EQ(&search::detail::stand_in_cache(ws, g, o), &c);
    EXPECT_FALSE(c.marks_pending.valid());
    if (c.marks.empty()) {
      // Their repair would have passed its budget: dropped, and the next call starts another
      // build, on the map as it is now (its G'), taken as it is once done.
      ++dropped;
      ever = lm_free(g);
      (void)search::detail::stand_in_cache(ws, g, o);
      ASSERT_TRUE(c.marks_pending.valid()) << "seed " << seed;
      c.marks_pending.wait();
      (void)search::detail::stand_in_cache(ws, g, o);
    }
    ASSERT_FALSE(c.marks.empty()) << "seed " << seed;
    const std::string problem = tables_problem(c.marks, g, ever);
    ASSERT_TRUE(problem.empty()) << "seed " << seed << ": " << problem;
    for (int q = 0; q < 4; ++q) {
      const grid::NodeId t = g.id(static_cast<int>(rng() % 60), static_cast<int>(rng() % 45));
      if (!g.passable_id(t)) continue;
      const std::string bound = bound_problem(c.marks, g, t);
      ASSERT_TRUE(bound.empty()) << "seed " << seed << ": " << bound;
    }
  }
  EXPECT_LT(dropped, 3) << "most are taken repaired";
}
