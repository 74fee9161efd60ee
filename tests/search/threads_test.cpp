// Queries from several threads on one const grid (the suites end in "Threads": the
// ThreadSanitizer stage of `make deep` runs them). Each thread has its own Pathfinder; jps+ and
// the subgoal graph share one prepared copy of their data (share_prepared), as `bench --threads`
// does. Every thread must give exactly the answers one thread gives alone: status, cost and path.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using pathlab::testing::passable_cells;
using pathlab::testing::random_grid;
using search::Algorithm;

namespace {

struct ThreadQuery {
  Cell start, goal;
};

struct ThreadAnswer {
  Status status;
  double cost;
  std::vector<Cell> path;
};

std::vector<ThreadQuery> random_queries(const grid::Grid& g, std::uint32_t seed, int n) {
  const auto cells = passable_cells(g);
  std::mt19937 rng(seed);
  std::vector<ThreadQuery> out;
  for (int i = 0; i < n; ++i)
    out.push_back({cells[rng() % cells.size()], cells[rng() % cells.size()]});
  return out;
}

std::vector<ThreadAnswer> answer_all(search::Pathfinder& f, const std::vector<ThreadQuery>& qs) {
  std::vector<ThreadAnswer> out;
  search::Result r;
  for (const ThreadQuery& q : qs) {
    f.find(q.start, q.goal, r);
    out.push_back({r.status, r.cost, r.path});
  }
  return out;
}

void expect_same(const std::vector<ThreadAnswer>& got, const std::vector<ThreadAnswer>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].status, want[i].status) << what << " query " << i;
    EXPECT_EQ(got[i].cost, want[i].cost) << what << " query " << i;
    EXPECT_EQ(got[i].path, want[i].path) << what << " query " << i;
  }
}

constexpr int kThreads = 4;

// Runs `make_finder()` and the queries on kThreads threads at once; compares each with `want`.
template <class MakeFinder>
void run_on_threads(const std::vector<ThreadQuery>& qs, const std::vector<ThreadAnswer>& want,
                    MakeFinder make_finder, const std::string& what) {
  std::vector<std::vector<ThreadAnswer>> got(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([&, t] {
      search::Pathfinder f = make_finder();
      got[t] = answer_all(f, qs);
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < kThreads; ++t)
    expect_same(got[t], want, what + " thread " + std::to_string(t));
}

TEST(SearchThreads, EveryAlgorithmGivesOneThreadsAnswersOnASharedGrid) {
  const grid::Grid g = random_grid(7, 48, 40, 25, false);
  const auto qs = random_queries(g, 11, 40);
  for (const auto& info : search::algorithms()) {
    search::Options o;
    o.algorithm = info.algorithm;
    // The uninformed exhaustive searches are exponential on open grids: bound them.
    if (info.algorithm == Algorithm::iddfs || info.algorithm == Algorithm::idastar ||
        info.algorithm == Algorithm::dfs) {
      o.node_limit = 20000;
    }
    search::Pathfinder alone(g, o);
    const auto want = answer_all(alone, qs);
    run_on_threads(
        qs, want, [&] { return search::Pathfinder(g, o); }, std::string(info.name));
  }
}

TEST(SearchThreads, PreparedDataSharedByFindersOnOtherThreads) {
  for (const Algorithm a : {Algorithm::jps_plus, Algorithm::subgoal, Algorithm::subgoal_ch}) {
    const grid::Grid g = random_grid(a == Algorithm::jps_plus ? 5 : 3, 96, 80, 30, false);
    const auto qs = random_queries(g, 13, 60);
    search::Options o;
    o.algorithm = a;
    search::Pathfinder owner(g, o);
    ASSERT_TRUE(search::prepare(owner).ready) << search::to_string(a);
    search::Pathfinder alone(g, o);
    const auto want = answer_all(alone, qs);
    run_on_threads(
        qs, want,
        [&] {
          search::Pathfinder f(g, o);
          EXPECT_TRUE(search::share_prepared(owner, f));
          return f;
        },
        std::string(search::to_string(a)) + " shared");
    // Finders that each build their own data on first use, at the same time.
    run_on_threads(
        qs, want, [&] { return search::Pathfinder(g, o); },
        std::string(search::to_string(a)) + " built per thread");
  }
}

}  // namespace
