// Example-based tests of the search family: invalid input, the node budget, the registry,
// hand-checked costs, finder reuse, and allocation-free queries after warm-up.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include <pathlab/search/pathfinder.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using search::Algorithm;

// Counting allocator: every allocation in this test binary bumps the counter.
static std::atomic<std::size_t> g_allocations{0};

#if defined(__SANITIZE_THREAD__)
#define PATHLAB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PATHLAB_TSAN 1
#endif
#endif

#ifdef PATHLAB_TSAN
#include <sanitizer/allocator_interface.h>
// ThreadSanitizer's run-time defines operator new itself (a second definition does not link):
// count through its allocator's hook instead, which sees every malloc and new.
namespace {
void count_allocation(const volatile void*, std::size_t) {
  ++g_allocations;
}
void ignore_free(const volatile void*) {}
[[maybe_unused]] const int g_hooked =
    __sanitizer_install_malloc_and_free_hooks(count_allocation, ignore_free);
}  // namespace
#else
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// The nothrow form too (std::stable_sort's buffer uses it): its memory must come from malloc
// like the rest, since the deletes below free it.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(n ? n : 1);
}
// g++ sees these frees inlined into deletes of pointers from operator new and warns that the
// pair is mismatched: it is not, the replaced operator new above takes its memory from malloc.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

namespace {

TEST(Search, StartOrGoalOnAWallOrOutsideIsInvalidInput) {
  grid::Grid g(5, 5);
  g.set_blocked(2, 2, true);
  for (const auto& info : search::algorithms()) {
    search::Options o;
    o.algorithm = info.algorithm;
    search::Pathfinder f(g, o);
    EXPECT_EQ(f.find({2, 2}, {0, 0}).status, Status::invalid_input) << info.name;
    EXPECT_EQ(f.find({0, 0}, {2, 2}).status, Status::invalid_input) << info.name;
    EXPECT_EQ(f.find({-1, 0}, {0, 0}).status, Status::invalid_input) << info.name;
    EXPECT_EQ(f.find({0, 0}, {5, 0}).status, Status::invalid_input) << info.name;
    EXPECT_EQ(f.find({0, 0}, {0, 0}).status, Status::found) << info.name;
  }
}

TEST(Search, BadOptionsAreInvalidInputNotExceptions) {
  grid::Grid g(3, 3);
  search::Options o;
  o.weight = -1;
  EXPECT_TRUE(search::validate(o).has_value());
  EXPECT_EQ(search::Pathfinder(g, o).find({0, 0}, {2, 2}).status, Status::invalid_input);
  o.weight = std::nullopt;
  o.node_limit = 0;
  EXPECT_EQ(search::Pathfinder(g, o).find({0, 0}, {2, 2}).status, Status::invalid_input);
}

TEST(Search, HandCheckedCosts) {
  grid::Grid g(10, 10);
  search::Options o;
  // Open grid, (0,0) -> (9,5): 5 diagonals and 4 straight moves.
  auto r = search::Pathfinder(g, o).find({0, 0}, {9, 5});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_NEAR(r.cost, 4 + 5 * std::sqrt(2.0), 1e-12);
  EXPECT_EQ(r.moves(), 9u);
  o.moves.cost_model = grid::CostModel::integer;
  EXPECT_DOUBLE_EQ(search::Pathfinder(g, o).find({0, 0}, {9, 5}).cost, 4 * 10 + 5 * 14);
  o.moves = {grid::DiagonalRule::never, grid::CostModel::octile};
  EXPECT_DOUBLE_EQ(search::Pathfinder(g, o).find({0, 0}, {9, 5}).cost, 14);
  // Terrain is paid on the cell entered.
  grid::Grid t(3, 1);
  t.set_terrain(1, 0, 3.0f);
  t.set_terrain(2, 0, 2.0f);
  EXPECT_DOUBLE_EQ(search::Pathfinder(t).find({0, 0}, {2, 0}).cost, 5.0);
  EXPECT_DOUBLE_EQ(search::Pathfinder(t).find({2, 0}, {0, 0}).cost, 4.0);
}

TEST(Search, CornerRuleDecidesTheSqueeze) {
  // Two walls touching at a corner: only `always` lets a path squeeze between them.
  grid::Grid g(2, 2);
  g.set_blocked(1, 0, true);
  g.set_blocked(0, 1, true);
  for (auto rule : {grid::DiagonalRule::never, grid::DiagonalRule::no_corner_cut,
                    grid::DiagonalRule::one_corner}) {
    search::Options o;
    o.moves.diagonal = rule;
    EXPECT_EQ(search::Pathfinder(g, o).find({0, 0}, {1, 1}).status, Status::no_path);
  }
  search::Options o;
  o.moves.diagonal = grid::DiagonalRule::always;
  EXPECT_EQ(search::Pathfinder(g, o).find({0, 0}, {1, 1}).moves(), 1u);
  // One wall at the corner: one-corner cuts it, no-corner-cut goes around.
  grid::Grid h(2, 2);
  h.set_blocked(1, 0, true);
  o.moves.diagonal = grid::DiagonalRule::one_corner;
  EXPECT_EQ(search::Pathfinder(h, o).find({0, 0}, {1, 1}).moves(), 1u);
  o.moves.diagonal = grid::DiagonalRule::no_corner_cut;
  EXPECT_EQ(search::Pathfinder(h, o).find({0, 0}, {1, 1}).moves(), 2u);
}

TEST(Search, EveryAlgorithmObeysTheNodeBudget) {
  // A serpentine corridor: every search needs far more than 5000 expansions.
  grid::Grid g(200, 200);
  for (int y = 1; y < 200; y += 2) {
    for (int x = 0; x < 200; ++x) g.set_blocked(x, y, true);
    g.set_blocked(y % 4 == 1 ? 199 : 0, y, false);
  }
  for (const auto& info : search::algorithms()) {
    const Algorithm a = info.algorithm;
    search::Options o;
    o.algorithm = a;
    // anyangle-exact expands wall corners, not cells: the corridor has about 200 of them;
    // jps and jps+ expand jump points, two or three per row of the corridor; subgoal expands
    // subgoals, one per turn; subgoal-ch settles a few per level of its hierarchy (about 16).
    o.node_limit = a == Algorithm::subgoal_ch ? 5
                   : a == Algorithm::anyangle_exact || a == Algorithm::jps ||
                           a == Algorithm::jps_plus || a == Algorithm::subgoal
                       ? 50
                       : 5000;
    const auto r = search::Pathfinder(g, o).find({0, 0}, {0, 198});
    if (a == Algorithm::anyangle_labels) {
      // No search: its labels join the few corners the two ends see, well within the budget.
      EXPECT_EQ(r.status, Status::found);
      EXPECT_LE(r.stats.expanded, o.node_limit);
      o.node_limit = 1;
      EXPECT_EQ(search::Pathfinder(g, o).find({0, 0}, {0, 198}).status, Status::node_limit);
      continue;
    }
    EXPECT_EQ(r.status, Status::node_limit) << search::to_string(a);
    EXPECT_LE(r.stats.expanded, o.node_limit) << search::to_string(a);
  }
}

TEST(Search, IterativeDeepeningOnSmallMaps) {
  grid::Grid g = pathlab::testing::random_grid(7, 16, 12, 25, true);
  const auto cells = pathlab::testing::passable_cells(g);
  for (std::size_t i = 0; i + 1 < cells.size(); i += 7) {
    const Cell s = cells[i], t = cells[cells.size() - 1 - i];
    const auto ref = pathlab::testing::reference_distances(g, {}, s);
    search::Options o;
    o.algorithm = Algorithm::idastar;
    const auto r = search::Pathfinder(g, o).find(s, t);
    const double opt = pathlab::testing::dist_at(ref, g, t);
    if (std::isinf(opt)) {
      EXPECT_EQ(r.status, Status::no_path);
    } else {
      ASSERT_EQ(r.status, Status::found);
      EXPECT_NEAR(r.cost, opt, 1e-9);
      EXPECT_GE(r.stats.iterations, 1u);
    }
  }
}

TEST(Search, RegistryRoundTrips) {
  for (const auto& i : search::algorithms()) {
    EXPECT_EQ(search::parse_algorithm(i.name), i.algorithm);
    EXPECT_EQ(search::to_string(i.algorithm), i.name);
  }
  EXPECT_FALSE(search::parse_algorithm("nope"));
  for (auto h :
       {search::Heuristic::manhattan, search::Heuristic::octile, search::Heuristic::euclidean,
        search::Heuristic::chebyshev, search::Heuristic::zero}) {
    EXPECT_EQ(search::parse_heuristic(search::to_string(h)), h);
  }
  EXPECT_FALSE(search::admissible(search::Heuristic::manhattan, grid::Moves{}));
  EXPECT_TRUE(search::admissible(search::Heuristic::manhattan,
                                 grid::Moves{grid::DiagonalRule::never, grid::CostModel::octile}));
  // The integer model's octile heuristic is 10*max + 4*min (ALGORITHMS.md).
  grid::Moves integer{grid::DiagonalRule::no_corner_cut, grid::CostModel::integer};
  EXPECT_DOUBLE_EQ(search::heuristic_distance(search::Heuristic::octile, integer, 7, 3),
                   10 * 7 + 4 * 3);
}

TEST(Search, FinderIsReusableAcrossQueriesAndOptions) {
  grid::Grid g = pathlab::testing::random_grid(3, 40, 30, 20, false);
  const auto cells = pathlab::testing::passable_cells(g);
  search::Pathfinder f(g);
  search::Result r;
  for (std::size_t i = 0; i < 50; ++i) {
    const Cell s = cells[(i * 37) % cells.size()], t = cells[(i * 91 + 5) % cells.size()];
    const auto ref = pathlab::testing::reference_distances(g, {}, s);
    const double opt = pathlab::testing::dist_at(ref, g, t);
    search::Options o;
    o.algorithm = i % 2 ? Algorithm::astar : Algorithm::biastar;
    f.set_options(o);
    f.find(s, t, r);
    if (std::isinf(opt)) {
      EXPECT_EQ(r.status, Status::no_path);
    } else {
      EXPECT_NEAR(r.cost, opt, 1e-9);
    }
  }
}

TEST(Search, NoHeapAllocationPerQueryAfterWarmUp) {
  {  // The counter must see an allocation, or the checks below could not fail.
    const std::size_t before = g_allocations.load();
    void* p = ::operator new(64);
    ::operator delete(p);
    ASSERT_GT(g_allocations.load(), before);
  }
  // With terrain and without (jps and jps+ search only unit-terrain maps).
  for (const bool terrain : {true, false}) {
    grid::Grid g = pathlab::testing::random_grid(11, 128, 128, 25, terrain);
    const auto cells = pathlab::testing::passable_cells(g);
    for (const auto& info : search::algorithms()) {
      search::Options o;
      o.algorithm = info.algorithm;
      o.node_limit = 200000;
      search::Pathfinder f(g, o);
      search::Result r;
      // Warm-up: the workspace, queues and the result's path grow to their working size.
      for (std::size_t i = 0; i < 40; ++i) {
        f.find(cells[(i * 131) % cells.size()], cells[(i * 17 + 3) % cells.size()], r);
      }
      r.path.reserve(g.width() * g.height());
      const std::size_t before = g_allocations.load();
      for (std::size_t i = 0; i < 40; ++i) {
        f.find(cells[(i * 131) % cells.size()], cells[(i * 17 + 3) % cells.size()], r);
      }
      EXPECT_EQ(g_allocations.load() - before, 0u) << info.name << (terrain ? " (terrain)" : "");
    }
  }
}

}  // namespace
