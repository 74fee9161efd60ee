// Sliced search (frame budgets): run a slice at a time, a query gives exactly the result of
// one unsliced query, for every slice size, for the algorithms that stop within a slice
// (dijkstra, astar, wastar, greedy, jps, jps+) and the others (which finish in their first
// slice); cancelling, a plain query between slices, and an edit between slices.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <pathlab/search/pathfinder.hpp>

#include "test_grids.hpp"
#include "units.hpp"

using namespace pathlab;

TEST(Sliced, EverySliceSizeGivesTheUnslicedResult) {
  std::mt19937 rng(12);
  const search::Algorithm algos[] = {search::Algorithm::dijkstra, search::Algorithm::astar,
                                     search::Algorithm::wastar,   search::Algorithm::greedy,
                                     search::Algorithm::jps,      search::Algorithm::jps_plus,
                                     search::Algorithm::subgoal,  search::Algorithm::subgoal_ch,
                                     search::Algorithm::biastar,  search::Algorithm::bfs};
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(
        seed, 20 + seed * 3, 16 + seed * 2, static_cast<int>(seed % 4) * 9, 20, seed % 5 == 0);
    const auto cells = pathlab::testing::passable_cells(g);
    if (cells.size() < 2) continue;
    for (int q = 0; q < 3; ++q) {
      const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
      for (const search::Algorithm a : algos) {
        search::Options o;
        o.algorithm = a;
        if (seed % 4 == 3) o.unit.radius = 1.2;
        search::Pathfinder plain(g, o), sliced(g, o);
        const search::Result want = plain.find(s, t);
        if (want.status == Status::invalid_input) {  // the unit cannot stand there
          EXPECT_FALSE(sliced.start_sliced(s, t));
          continue;
        }
        for (const std::uint64_t slice : {1ull, 2ull, 3ull, 7ull, 50ull, 1000ull}) {
          ASSERT_TRUE(sliced.start_sliced(s, t));
          search::Result r;
          int slices = 0;
          while (!sliced.run_slice(slice, r)) {
            ++slices;
            ASSERT_LE(r.stats.expanded, static_cast<std::uint64_t>(slices) * slice);
            ASSERT_TRUE(sliced.sliced_active());
          }
          const std::string what = std::string(search::to_string(a)) + " seed " +
                                   std::to_string(seed) + " slice " + std::to_string(slice);
          EXPECT_FALSE(sliced.sliced_active()) << what;
          ASSERT_EQ(r.status, want.status) << what;
          EXPECT_EQ(r.path, want.path) << what;
          EXPECT_EQ(r.cost, want.cost) << what;
          EXPECT_EQ(r.stats.expanded, want.stats.expanded) << what;
          EXPECT_EQ(r.stats.generated, want.stats.generated) << what;
          const bool stops = a != search::Algorithm::subgoal &&
                             a != search::Algorithm::subgoal_ch &&
                             a != search::Algorithm::biastar && a != search::Algorithm::bfs;
          if (stops && want.stats.expanded > slice) {
            EXPECT_GE(slices, 1) << what;  // it did pause
          }
        }
      }
    }
  }
}

TEST(Sliced, TheNodeLimitCountsOverEverySlice) {
  const grid::Grid g(80, 80);
  search::Options o;
  o.algorithm = search::Algorithm::dijkstra;
  o.node_limit = 100;
  search::Pathfinder f(g, o);
  ASSERT_TRUE(f.start_sliced({0, 0}, {79, 79}));
  search::Result r;
  int slices = 0;
  while (!f.run_slice(30, r)) ++slices;
  EXPECT_EQ(slices, 3);
  EXPECT_EQ(r.status, Status::node_limit);
  EXPECT_EQ(r.stats.expanded, 100u);
}

TEST(Sliced, CancelPlainQueriesAndEditsBetweenSlices) {
  grid::Grid g(60, 40);
  search::Options o;
  search::Pathfinder f(g, o);
  search::Result r;
  EXPECT_TRUE(f.run_slice(10, r));  // nothing started
  EXPECT_EQ(r.status, Status::invalid_input);
  EXPECT_FALSE(f.start_sliced({0, 0}, {60, 0}));
  ASSERT_TRUE(f.start_sliced({0, 0}, {59, 39}));
  EXPECT_FALSE(f.run_slice(5, r));
  f.cancel_sliced();
  EXPECT_FALSE(f.sliced_active());
  EXPECT_TRUE(f.run_slice(5, r));
  EXPECT_EQ(r.status, Status::invalid_input);
  // A plain query between slices cancels the sliced one, and is itself right.
  ASSERT_TRUE(f.start_sliced({0, 0}, {59, 39}));
  EXPECT_FALSE(f.run_slice(5, r));
  EXPECT_EQ(f.find({0, 0}, {10, 0}).cost, 10.0);
  EXPECT_FALSE(f.sliced_active());
  // An edit between slices: the search starts again on the edited map and is right on it.
  ASSERT_TRUE(f.start_sliced({0, 20}, {59, 20}));
  EXPECT_FALSE(f.run_slice(20, r));
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {30, 0, 30, 38}}).has_value());
  while (!f.run_slice(20, r)) {
  }
  ASSERT_EQ(r.status, Status::found);
  const auto ref = pathlab::testing::reference_distances(g, o.moves, {0, 20});
  EXPECT_TRUE(pathlab::testing::near(r.cost, pathlab::testing::dist_at(ref, g, {59, 20})));
  EXPECT_FALSE(grid::check_path(g, o.moves, r.path).has_value());
}
