// Connected components kept under edits (libs/search/src/components.hpp), and jps+ answering
// a goal it cannot reach without a search: labels repaired by merging are never wrong about
// two cells being unconnected (a repaired partition is a coarsening of a fresh one), merge what
// an opened cell joins, and jps+ answers as Dijkstra does through splits and merges.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "../../libs/search/src/components.hpp"
#include "path_checks.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using search::detail::Components;

namespace {

/// What is wrong with `kept` (repaired) against labels built afresh for g: empty when every
/// wall is 0, every free cell is not, and cells of one fresh component share a kept one (the
/// kept labels may join fresh components, never part one).
std::string components_problem(const Components& kept, const grid::Grid& g) {
  Components fresh;
  fresh.build(g);
  std::vector<std::uint32_t> kept_of_fresh(g.padded_size() + 1, 0);
  for (int y = -1; y <= g.height(); ++y) {
    for (int x = -1; x <= g.width(); ++x) {
      const std::uint32_t p = g.id(x, y);
      const std::string at = std::to_string(x) + "," + std::to_string(y);
      if ((fresh.of(p) == 0) != (kept.of(p) == 0)) return "wall or not differs at " + at;
      if (fresh.of(p) == 0) continue;
      std::uint32_t& k = kept_of_fresh[fresh.of(p)];
      if (k == 0) k = kept.of(p);
      if (k != kept.of(p)) return "connected cells in two components at " + at;
    }
  }
  return {};
}

}  // namespace

TEST(Components, RepairedLabelsNeverPartConnectedCells) {
  std::mt19937 rng(9);
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    const int w = 10 + static_cast<int>(seed % 30), h = 8 + static_cast<int>(seed * 5 % 25);
    grid::Grid g =
        pathlab::testing::random_grid(seed, w, h, 20 + static_cast<int>(seed % 4) * 10, false);
    Components c;
    c.build(g);
    EXPECT_FALSE(c.may_be_split());
    std::vector<grid::Rect> changed;
    for (int step = 0; step < 40; ++step) {
      const std::uint64_t rev = g.revision();
      pathlab::testing::random_edit(g, rng, 4, 2);
      ASSERT_TRUE(g.changes_since(rev, changed));
      c.repair(g, changed);
      const std::string problem = components_problem(c, g);
      ASSERT_TRUE(problem.empty()) << "seed " << seed << " step " << step << ": " << problem;
    }
  }
}

// Opening a gap merges two components; walling it again leaves one label (may_be_split says
// so) until the next build parts them.
TEST(Components, AGapMergesAndAWallLeavesThemToTheNextBuild) {
  grid::Grid g(9, 5);
  pathlab::testing::set_area(g, {4, 0, 4, 4}, true);  // a wall down the middle
  Components c;
  c.build(g);
  const std::uint32_t left = g.id(1, 2), right = g.id(7, 2);
  EXPECT_NE(c.of(left), c.of(right));
  EXPECT_EQ(c.of(g.id(4, 2)), 0u);
  std::vector<grid::Rect> changed;
  std::uint64_t rev = g.revision();
  pathlab::testing::set_area(g, {4, 2, 4, 2}, false);
  ASSERT_TRUE(g.changes_since(rev, changed));
  c.repair(g, changed);
  EXPECT_EQ(c.of(left), c.of(right));
  EXPECT_EQ(c.of(g.id(4, 2)), c.of(left));
  EXPECT_FALSE(c.may_be_split());
  rev = g.revision();
  pathlab::testing::set_area(g, {4, 2, 4, 2}, true);
  ASSERT_TRUE(g.changes_since(rev, changed));
  c.repair(g, changed);
  EXPECT_TRUE(c.may_be_split());
  EXPECT_EQ(c.of(left), c.of(right));  // merged labels are never split by a repair
  c.build(g);
  EXPECT_FALSE(c.may_be_split());
  EXPECT_NE(c.of(left), c.of(right));
}

// jps+ answers a goal in another component without a search, and after a wall cuts a region
// in two, searches once, labels afresh, and answers the next such goal at once.
TEST(Components, JpsPlusAnswersAnUnreachableGoalAtOnce) {
  grid::Grid g(30, 12);
  pathlab::testing::set_area(g, {15, 0, 15, 11}, true);
  search::Options o;
  o.algorithm = search::Algorithm::jps_plus;
  search::Pathfinder f(g, o);
  search::Result r = f.find({2, 5}, {27, 5});
  EXPECT_EQ(r.status, Status::no_path);
  EXPECT_EQ(r.stats.expanded, 0u);
  pathlab::testing::set_area(g, {15, 6, 15, 6}, false);  // a gap: one component
  r = f.find({2, 5}, {27, 5});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_GT(r.stats.expanded, 0u);
  pathlab::testing::set_area(g, {15, 6, 15, 6},
                             true);  // closed again: still one label, so a search
  r = f.find({2, 5}, {27, 5});
  EXPECT_EQ(r.status, Status::no_path);
  EXPECT_GT(r.stats.expanded, 0u);
  r = f.find({3, 7}, {26, 2});  // labelled afresh after that search: no search now
  EXPECT_EQ(r.status, Status::no_path);
  EXPECT_EQ(r.stats.expanded, 0u);
  r = f.find({3, 7}, {12, 2});  // the same side: found
  EXPECT_EQ(r.status, Status::found);
}

// Through random walls made and removed, jps+ answers every query as Dijkstra does, reachable
// or not (the components' early answers included).
TEST(Components, JpsPlusUnderEditsAnswersAsDijkstra) {
  std::mt19937 rng(12);
  grid::Grid g = pathlab::testing::random_grid(4, 60, 40, 38, false);  // many components
  search::Options o;
  o.algorithm = search::Algorithm::jps_plus;
  search::Pathfinder f(g, o);
  int unreachable = 0;
  for (int step = 0; step < 150; ++step) {
    const int x = static_cast<int>(rng() % 60), y = static_cast<int>(rng() % 40);
    if (step % 2 == 0)
      pathlab::testing::set_area(g, {x, y, std::min(59, x + 2), y}, rng() % 2 == 0);
    const auto cells = pathlab::testing::passable_cells(g);
    const Cell s = cells[rng() % cells.size()];
    const auto ref = pathlab::testing::reference_distances(g, o.moves, s);
    for (int q = 0; q < 4; ++q) {
      const Cell t = cells[rng() % cells.size()];
      const double want = pathlab::testing::dist_at(ref, g, t);
      const search::Result r = f.find(s, t);
      if (std::isinf(want)) {
        ++unreachable;
        ASSERT_EQ(r.status, Status::no_path) << "step " << step;
      } else {
        ASSERT_EQ(r.status, Status::found) << "step " << step;
        ASSERT_TRUE(pathlab::testing::near(r.cost, want)) << "step " << step;
      }
    }
  }
  EXPECT_GT(unreachable, 50);
}
