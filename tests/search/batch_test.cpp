// find_batch: the results of a pool of threads equal one finder's answers query by query, for
// every algorithm family, units and prepared data; cancelling stops it. The suite's name ends
// in Threads: ThreadSanitizer runs it.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <vector>

#include <pathlab/search/batch.hpp>

#include "test_grids.hpp"

using namespace pathlab;

TEST(BatchThreads, PoolResultsEqualOneFindersAnswers) {
  std::mt19937 rng(6);
  const grid::Grid g = pathlab::testing::random_grid(31, 90, 70, 25, false);
  const auto cells = pathlab::testing::passable_cells(g);
  std::vector<search::Query> queries;
  for (int i = 0; i < 300; ++i)
    queries.push_back({cells[rng() % cells.size()], cells[rng() % cells.size()]});
  queries.push_back({{-1, 0}, cells[0]});  // invalid: answered as invalid_input
  for (const search::Algorithm a :
       {search::Algorithm::astar, search::Algorithm::jps_plus, search::Algorithm::subgoal,
        search::Algorithm::subgoal_ch, search::Algorithm::theta}) {
    for (const double radius : {0.0, 1.5}) {
      search::Options o;
      o.algorithm = a;
      o.unit.radius = radius;
      search::Pathfinder one(g, o);
      std::vector<search::Result> want(queries.size());
      for (std::size_t i = 0; i < queries.size(); ++i)
        one.find(queries[i].start, queries[i].goal, want[i]);
      for (const int threads : {1, 2, 3}) {
        std::vector<search::Result> got(queries.size());
        EXPECT_EQ(search::find_batch(g, o, queries, got, threads), queries.size());
        for (std::size_t i = 0; i < queries.size(); ++i) {
          ASSERT_EQ(got[i].status, want[i].status) << search::to_string(a) << " " << i;
          EXPECT_EQ(got[i].path, want[i].path) << search::to_string(a) << " " << i;
          EXPECT_EQ(got[i].cost, want[i].cost);
        }
      }
    }
  }
}

TEST(BatchThreads, CancelStopsTheThreads) {
  const grid::Grid g(200, 200);
  std::vector<search::Query> queries(5000, search::Query{{0, 0}, {199, 199}});
  std::vector<search::Result> results(queries.size());
  std::atomic<bool> cancel{true};
  search::Options o;
  o.algorithm = search::Algorithm::dijkstra;
  EXPECT_EQ(search::find_batch(g, o, queries, results, 2, &cancel), 0u);
  EXPECT_EQ(results.back().status, Status::invalid_input);
  EXPECT_EQ(search::find_batch(g, o, std::span<const search::Query>(), results, 2), 0u);
}

TEST(BatchThreads, APoolKeptBetweenBatchesGivesTheSameAnswers) {
  std::mt19937 rng(2);
  const grid::Grid g = pathlab::testing::random_grid(5, 60, 60, 20, false);
  const auto cells = pathlab::testing::passable_cells(g);
  search::Options o;
  o.algorithm = search::Algorithm::jps_plus;
  search::BatchFinder pool(g, o, 2);
  EXPECT_EQ(pool.threads(), 2);
  search::Pathfinder one(g, o);
  for (int batch = 0; batch < 5; ++batch) {
    std::vector<search::Query> q;
    for (int i = 0; i < 40 + batch * 30; ++i)
      q.push_back({cells[rng() % cells.size()], cells[rng() % cells.size()]});
    std::vector<search::Result> got(q.size());
    ASSERT_EQ(pool.find(q, got), q.size());
    for (std::size_t i = 0; i < q.size(); ++i) {
      const search::Result want = one.find(q[i].start, q[i].goal);
      ASSERT_EQ(got[i].status, want.status);
      EXPECT_EQ(got[i].path, want.path);
    }
  }
}
