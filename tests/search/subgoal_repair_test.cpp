// subgoal-ch and subgoal after the map changed: the hierarchy (SubgoalHierarchy::repair) and
// the two-level graph (SubgoalGraph::repair) repair themselves instead of being built again.
// Random edit sequences on random grids, mazes and the shared Moving AI maps: after every edit
// the per-cell tables equal a fresh build's, every query is optimal against a fresh Dijkstra
// on the edited map, and costs equal a freshly built graph's.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <pathlab/io/map.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "../../libs/search/src/subgoal_ch.hpp"
#include "../../libs/search/src/subgoal_graph.hpp"
#include "movingai.hpp"
#include "subgoal_checks.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using pathlab::search::detail::SubgoalGraph;
using pathlab::search::detail::SubgoalHierarchy;

namespace {

/// One random edit of g: a cell toggled, a rectangle of walls or of free ground, or a pasted
/// block of mixed cells; at most `side` cells wide.
void repair_random_edit(grid::Grid& g, std::mt19937& rng, int side) {
  const int w = 1 + static_cast<int>(rng() % static_cast<unsigned>(side));
  const int h = 1 + static_cast<int>(rng() % static_cast<unsigned>(side));
  const int x = static_cast<int>(rng() % static_cast<unsigned>(std::max(1, g.width() - w + 1)));
  const int y = static_cast<int>(rng() % static_cast<unsigned>(std::max(1, g.height() - h + 1)));
  const int pw = std::min(w, g.width() - x), ph = std::min(h, g.height() - y);
  switch (rng() % 4) {
    case 0:
      g.set_blocked(x, y, g.passable({x, y}));
      break;
    case 1:
    case 2: {
      grid::Edit e;
      e.kind = rng() % 2 == 0 ? grid::Edit::Kind::wall : grid::Edit::Kind::free;
      e.area = {x, y, x + pw - 1, y + ph - 1};
      ASSERT_FALSE(g.apply(e).has_value());
      break;
    }
    default: {
      std::vector<std::uint8_t> block(static_cast<std::size_t>(pw * ph));
      for (auto& b : block) b = rng() % 3 == 0 ? 1 : 0;
      ASSERT_FALSE(g.paste({x, y}, pw, ph, block).has_value());
    }
  }
}

/// r, a finder's answer to s -> t on g (round `round` of a test), against a fresh Dijkstra:
/// no path where there is none, else found at the optimal cost.
void expect_optimal_answer(const grid::Grid& g, Cell s, Cell t, const search::Result& r,
                           int round) {
  const double opt =
      pathlab::testing::dist_at(pathlab::testing::reference_distances(g, {}, s), g, t);
  if (std::isinf(opt)) {
    EXPECT_EQ(r.status, Status::no_path) << round;
    return;
  }
  ASSERT_EQ(r.status, Status::found) << round;
  EXPECT_NEAR(r.cost, opt, 1e-9 * std::max(1.0, opt)) << round;
}

/// The per-cell tables under either graph.
const SubgoalGraph& repair_tables(const SubgoalHierarchy& h) {
  return h.base();
}
const SubgoalGraph& repair_tables(const SubgoalGraph& h) {
  return h;
}

/// Repairs h after the edits since revision rev with this work limit (the graph's own by
/// default); the tables must then equal a fresh build's.
template <class Graph>
void repair_and_check_tables(Graph& h, const grid::Grid& g, std::uint64_t rev,
                             const std::string& what, std::uint64_t work = Graph::kRepairWork) {
  std::vector<grid::Rect> areas;
  ASSERT_TRUE(g.changes_since(rev, areas)) << what;
  ASSERT_TRUE(h.repairable(g, areas)) << what;
  ASSERT_TRUE(h.repair(g, areas, work)) << what;
  EXPECT_TRUE(h.matches(g)) << what;
  if constexpr (std::is_same_v<Graph, SubgoalHierarchy>) {
    EXPECT_TRUE(h.consistent()) << what;  // (its core closed upwards, among the rest)
  }
  EXPECT_EQ(repair_tables(h).cells_problem(g), "") << what;
  std::mt19937 rng(static_cast<std::uint32_t>(rev));
  pathlab::testing::expect_walkable_is_walk(repair_tables(h), g, rng, 20, what);
}

/// Queries from a few starts to many goals: each against a fresh Dijkstra on g (found exactly
/// when reachable, at its cost, by a legal path) and against a hierarchy built afresh.
template <class Graph>
void repair_check_queries(Graph& h, const grid::Grid& g, std::mt19937& rng, int starts, int goals,
                          bool against_fresh, const std::string& what) {
  const auto cells = pathlab::testing::passable_cells(g);
  if (cells.empty()) return;
  std::optional<Graph> fresh;
  if (against_fresh) fresh = Graph::build(g);
  for (int q = 0; q < starts; ++q) {
    const Cell s = cells[rng() % cells.size()];
    const std::vector<double> dist = pathlab::testing::reference_distances(g, {}, s);
    for (int k = 0; k < goals; ++k) {
      const Cell t = cells[rng() % cells.size()];
      const std::string where = pathlab::testing::describe(what, s, t);
      const double opt = pathlab::testing::dist_at(dist, g, t);
      const auto a = pathlab::testing::ask(h, g, s, t);
      if (std::isinf(opt)) {
        EXPECT_EQ(a.status, Status::no_path) << where;
        if (fresh) {
          EXPECT_EQ(pathlab::testing::ask(*fresh, g, s, t).status, Status::no_path) << where;
        }
        continue;
      }
      ASSERT_EQ(a.status, Status::found) << where;
      EXPECT_NEAR(a.cost, opt, 1e-9 * std::max(1.0, opt)) << where;
      if (fresh) {
        const auto b = pathlab::testing::ask(*fresh, g, s, t);
        EXPECT_NEAR(a.cost, b.cost, 1e-9 * std::max(1.0, opt)) << where;
      }
      pathlab::testing::expect_sound(g, a, s, t, where);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

/// Random grids of 4x4 to 60x60 with 5-40 % walls and mazes: 25 edits each, a repair after each
/// (sometimes after two or three edits at once) with this work limit, tables and queries
/// checked every time. Returns the repairs made.
template <class Graph>
int repair_random_sequences(std::uint32_t seed, int grids, std::uint64_t work) {
  std::mt19937 rng(seed);
  int repairs = 0;
  for (int i = 0; i < grids; ++i) {
    grid::Grid g =
        i % 4 == 3 ? pathlab::testing::maze(
                         static_cast<std::uint32_t>(rng()), 3 + static_cast<int>(rng() % 12),
                         3 + static_cast<int>(rng() % 12), 1 + i % 3, static_cast<int>(rng() % 20))
                   : pathlab::testing::random_grid(
                         static_cast<std::uint32_t>(rng()), 4 + static_cast<int>(rng() % 57),
                         4 + static_cast<int>(rng() % 57), 5 + static_cast<int>(rng() % 36), false);
    Graph h = Graph::build(g);
    const int side = std::max(1, std::min(g.width(), g.height()) / 8);
    for (int step = 0; step < 25; ++step) {
      const std::uint64_t rev = g.revision();
      const int edits = 1 + static_cast<int>(rng() % 3 == 0 ? rng() % 3 : 0);
      for (int k = 0; k < edits; ++k) repair_random_edit(g, rng, side);
      if (g.revision() == rev) continue;
      std::vector<grid::Rect> areas;
      if (!g.changes_since(rev, areas)) {
        ADD_FAILURE() << "the change log lost revision " << rev;
        return repairs;
      }
      if (!h.repairable(g, areas)) {  // a large change: built afresh, as the finder does
        h = Graph::build(g);
        continue;
      }
      const std::string what = "grid " + std::to_string(i) + " step " + std::to_string(step) +
                               " work " + std::to_string(work);
      // Now and then repaired as a copy, as a finder repairs a graph other finders share (a
      // copy starts without what repairs keep from one to the next).
      if (step % 7 == 3) {
        const Graph copy = h;
        h = copy;
      }
      repair_and_check_tables(h, g, rev, what, work);
      ++repairs;
      repair_check_queries(h, g, rng, 2, 6, step % 5 == 0, what);
      if (::testing::Test::HasFailure()) return repairs;
    }
  }
  return repairs;
}

}  // namespace

// With the default work limit (two tests of 60 grids), with none (every subgoal to contract
// again goes into the core, with all above it), with a small one (some contracted again, the
// rest into the core) and with a larger one (some searched, some given their shortcuts
// unsearched, some into the core): each test well within the time limit under ASan.
TEST(SubgoalRepair, RandomEditSequencesStayExact) {
  EXPECT_GT(repair_random_sequences<SubgoalHierarchy>(20261127, 60, SubgoalHierarchy::kRepairWork),
            1000);
}

TEST(SubgoalRepair, MoreRandomEditSequencesStayExact) {
  EXPECT_GT(repair_random_sequences<SubgoalHierarchy>(20261129, 60, SubgoalHierarchy::kRepairWork),
            1000);
}

TEST(SubgoalRepair, RandomEditSequencesWithNoWorkStayExact) {
  EXPECT_GT(repair_random_sequences<SubgoalHierarchy>(11, 40, 0), 600);
}

TEST(SubgoalRepair, RandomEditSequencesWithLittleWorkStayExact) {
  EXPECT_GT(repair_random_sequences<SubgoalHierarchy>(12, 40, 150), 600);
}

TEST(SubgoalRepair, RandomEditSequencesWithSomeWorkStayExact) {
  EXPECT_GT(repair_random_sequences<SubgoalHierarchy>(15, 40, 1500), 600);
}

// The two-level graph: with the default work limit, with none (every local subgoal to test
// becomes global untested) and with a small one.
TEST(SubgoalRepair, TwoLevelGraphRandomEditSequencesStayExact) {
  EXPECT_GT(repair_random_sequences<SubgoalGraph>(20261128, 120, SubgoalGraph::kRepairWork), 2000);
  if (HasFailure()) return;
  EXPECT_GT(repair_random_sequences<SubgoalGraph>(13, 40, 0), 600);
  if (HasFailure()) return;
  EXPECT_GT(repair_random_sequences<SubgoalGraph>(14, 40, 150), 600);
}

// A cell in open ground walled and freed again and again: each time its four corners become
// new subgoals, placed below the same neighbour, so the gap between two ranks narrows until
// the ranks are spaced again. The order stays strict (consistent()) and queries exact.
TEST(SubgoalRepair, NewSubgoalsInOnePlaceKeepTheOrderStrict) {
  grid::Grid g = pathlab::testing::random_grid(11, 48, 48, 4, false);
  for (int y = 20; y <= 28; ++y) {
    for (int x = 20; x <= 28; ++x) g.set_blocked(x, y, false);
  }
  SubgoalHierarchy h = SubgoalHierarchy::build(g);
  std::mt19937 rng(3);
  for (int step = 0; step < 80; ++step) {
    const std::uint64_t rev = g.revision();
    g.set_blocked(24, 24, step % 2 == 0);
    const std::string what = "step " + std::to_string(step);
    repair_and_check_tables(h, g, rev, what);
    if (step % 8 == 7) repair_check_queries(h, g, rng, 2, 20, step % 16 == 15, what);
    if (::testing::Test::HasFailure()) return;
  }
  // (the cell ends free: its corners, added 40 times, are all gone, kept as nodes)
  EXPECT_EQ(h.node_count(), SubgoalHierarchy::build(g).node_count() + 4 * 40);
  EXPECT_GT(h.respace_count(), 0u);
}

// A change over 1/16 of the map is refused (the hierarchy unchanged): the finder builds afresh.
TEST(SubgoalRepair, LargeChangesAreLeftToARebuild) {
  grid::Grid g = pathlab::testing::random_grid(5, 40, 40, 20, false);
  SubgoalHierarchy h = SubgoalHierarchy::build(g);
  const std::uint64_t rev = g.revision();
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {0, 0, 10, 9}}).has_value());  // 110 cells
  std::vector<grid::Rect> areas;
  ASSERT_TRUE(g.changes_since(rev, areas));
  EXPECT_FALSE(h.repairable(g, areas));
  EXPECT_FALSE(h.repair(g, areas));
  EXPECT_FALSE(h.matches(g));
  EXPECT_EQ(h.repair_count(), 0u);
}

namespace {

/// The shared Moving AI maps (the room, maze and city maps of the churn benchmark): 40 edits
/// of up to 4x4 cells each, queries against a fresh Dijkstra after every fifth.
template <class Graph>
void repair_shared_maps() {
  const auto dir = pathlab::testing::movingai_dir();
  if (!std::filesystem::exists(dir / "den520d.map"))
    GTEST_SKIP() << pathlab::testing::movingai_missing();
  std::mt19937 rng(7);
  for (const char* name : {"den520d.map", "brc202d.map", "maze512-1-0.map", "Berlin_0_256.map"}) {
    grid::Grid g = io::load_map((dir / name).string()).grid;
    Graph h = Graph::build(g);
    for (int step = 0; step < 40; ++step) {
      const std::uint64_t rev = g.revision();
      repair_random_edit(g, rng, 4);
      if (g.revision() == rev) continue;
      const std::string what = std::string(name) + " step " + std::to_string(step);
      repair_and_check_tables(h, g, rev, what);
      if (step % 5 == 4) repair_check_queries(h, g, rng, 1, 20, step == 39, what);
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(h.repair_count(), 20u);
  }
}

/// `steps` random edits of up to side x side cells, each repaired and its tables checked.
template <class Graph>
void repair_edits(Graph& h, grid::Grid& g, std::mt19937& rng, int steps, int side) {
  for (int step = 0; step < steps; ++step) {
    const std::uint64_t rev = g.revision();
    repair_random_edit(g, rng, side);
    if (g.revision() == rev) continue;
    repair_and_check_tables(h, g, rev, "step " + std::to_string(step));
  }
}

}  // namespace

namespace {

/// Many patches at once, as the dynamic track pastes them between queries (up to 6x6 cells
/// each, scattered over the map), then one repair: the blocked edges then lie in many blocks
/// of the repairs' index of them (cell_buckets.hpp). Queries against a fresh Dijkstra and a
/// fresh build.
template <class Graph>
void repair_batches(grid::Grid g, std::uint32_t seed, int batches, int patches,
                    const std::string& name) {
  std::mt19937 rng(seed);
  Graph h = Graph::build(g);
  for (int batch = 0; batch < batches; ++batch) {
    const std::uint64_t rev = g.revision();
    for (int k = 0; k < patches; ++k) {
      const int pw = 1 + static_cast<int>(rng() % 6), ph = 1 + static_cast<int>(rng() % 6);
      const int x = static_cast<int>(rng() % static_cast<unsigned>(g.width() - pw + 1));
      const int y = static_cast<int>(rng() % static_cast<unsigned>(g.height() - ph + 1));
      std::vector<std::uint8_t> block(static_cast<std::size_t>(pw * ph));
      for (auto& b : block) b = rng() % 3 == 0 ? 1 : 0;
      ASSERT_FALSE(g.paste({x, y}, pw, ph, block).has_value());
    }
    const std::string what = name + " batch " + std::to_string(batch);
    repair_and_check_tables(h, g, rev, what,
                            Graph::kRepairWork * static_cast<std::uint64_t>(patches));
    repair_check_queries(h, g, rng, 6, 150, batch == batches - 1, what);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(h.repair_count(), static_cast<std::size_t>(batches));
}

template <class Graph>
void repair_batches_everywhere() {
  repair_batches<Graph>(pathlab::testing::random_grid(41, 230, 200, 20, false), 41, 3, 60,
                        "random 230x200");
  if (::testing::Test::HasFailure()) return;
  const auto dir = pathlab::testing::movingai_dir();
  if (!std::filesystem::exists(dir / "den520d.map"))
    GTEST_SKIP() << pathlab::testing::movingai_missing();
  repair_batches<Graph>(io::load_map((dir / "den520d.map").string()).grid, 43, 2, 80, "den520d");
}

}  // namespace

TEST(SubgoalRepair, BatchesOfScatteredPatchesStayExact) {
  repair_batches_everywhere<SubgoalHierarchy>();
}

TEST(SubgoalRepair, TwoLevelGraphBatchesOfScatteredPatchesStayExact) {
  repair_batches_everywhere<SubgoalGraph>();
}

TEST(SubgoalRepair, SharedMapsUnderEditsStayExact) {
  repair_shared_maps<SubgoalHierarchy>();
}

TEST(SubgoalRepair, TwoLevelGraphOnSharedMapsUnderEditsStaysExact) {
  repair_shared_maps<SubgoalGraph>();
}

// After edits the two-level graph keeps most of its local subgoals: a repair promotes only
// those whose pruning a change may have undone, not every one.
TEST(SubgoalRepair, TwoLevelGraphKeepsItsLocalSubgoals) {
  grid::Grid g = pathlab::testing::random_grid(21, 120, 120, 20, false);
  SubgoalGraph h = SubgoalGraph::build(g);
  const std::size_t local_before = h.subgoal_count() - h.global_count();
  ASSERT_GT(local_before, 100u);
  std::mt19937 rng(5);
  repair_edits(h, g, rng, 20, 3);
  const std::size_t local_after = h.subgoal_count() - h.global_count();
  EXPECT_GT(local_after, local_before * 3 / 4);
  repair_check_queries(h, g, rng, 3, 20, true, "after 20 edits");
}

// A repaired two-level graph is saved with the checksum of the map as it is now (a repair
// does not compute it), and loads back for that map, answering alike.
TEST(SubgoalRepair, TwoLevelGraphRepairedIsSavedForTheMapAsItIsNow) {
  grid::Grid g = pathlab::testing::random_grid(23, 90, 70, 20, false);
  SubgoalGraph h = SubgoalGraph::build(g);
  std::mt19937 rng(8);
  repair_edits(h, g, rng, 5, 2);
  ASSERT_GT(h.repair_count(), 0u);
  std::stringstream stale, file;
  EXPECT_FALSE(h.save(stale));  // the checksum of the map it was built for no longer holds
  ASSERT_TRUE(h.save(file, g));
  std::optional<SubgoalGraph> loaded = SubgoalGraph::load(file, g);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->subgoal_count(), h.subgoal_count());
  EXPECT_EQ(loaded->global_count(), h.global_count());
  repair_check_queries(*loaded, g, rng, 3, 20, true, "loaded");
  // The file names the map it was saved for: the map before the edits is refused.
  grid::Grid before = g;
  before.set_blocked(0, 0, before.passable(0, 0));
  file.clear();
  file.seekg(0);
  EXPECT_FALSE(SubgoalGraph::load(file, before).has_value());
}

// Through a finder: after a small edit the first query is answered by the repaired hierarchy
// (no jps fallback), optimally, as fallback_for predicts; once repairs have grown it too far,
// jps answers while it is rebuilt; a large edit falls back to jps at once.
class SubgoalRepairFinder : public ::testing::TestWithParam<search::Algorithm> {};

TEST_P(SubgoalRepairFinder, AnswersTheFirstQueryAfterAnEditWithTheRepairedGraph) {
  const search::Algorithm algo = GetParam();
  grid::Grid g = pathlab::testing::random_grid(11, 160, 120, 25, false);
  search::Options o;
  o.algorithm = algo;
  search::Pathfinder f(g, o);
  const auto cells = pathlab::testing::passable_cells(g);
  std::mt19937 rng(3);
  search::Result r = f.find(cells[0], cells[cells.size() / 2]);
  ASSERT_EQ(r.answered_by, algo);
  int repaired = 0;
  for (int round = 0; round < 30; ++round) {
    repair_random_edit(g, rng, 3);
    Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
    if (!g.passable(s)) g.set_blocked(s, false);
    if (!g.passable(t)) g.set_blocked(t, false);
    const search::Fallback predicted = search::fallback_for(f).fallback;
    if (round == 0) {
      EXPECT_EQ(predicted, search::Fallback::none);
    }
    r = f.find(s, t);
    EXPECT_EQ(r.fallback, predicted) << round;
    if (predicted == search::Fallback::none) {
      EXPECT_EQ(r.answered_by, algo) << round;
      EXPECT_EQ(search::preparation_state(f), search::PrepareState::ready);
      ++repaired;
    } else {
      EXPECT_EQ(r.answered_by, search::Algorithm::jps_plus) << round;
    }
    expect_optimal_answer(g, s, t, r, round);
  }
  EXPECT_GE(repaired, 3);
  ASSERT_TRUE(search::wait_prepared(f, std::chrono::seconds(60)));
  // Over 1/16 of the map: rebuilt on another thread, jps+ answering meanwhile.
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {10, 10, 60, 40}}).has_value());
  EXPECT_EQ(search::fallback_for(f).fallback, search::Fallback::rebuilding);
  const Cell s = {100, 100}, t = {150, 110};
  g.set_blocked(s, false);
  g.set_blocked(t, false);
  r = f.find(s, t);
  EXPECT_EQ(r.answered_by, search::Algorithm::jps_plus);
  ASSERT_TRUE(search::wait_prepared(f, std::chrono::seconds(60)));
  r = f.find(s, t);
  EXPECT_EQ(r.answered_by, algo);
}

// (A suite of its own, named for the ThreadSanitizer stage: the build and its catch-up run on
// other threads.)
class SubgoalRebuildThreads : public ::testing::TestWithParam<search::Algorithm> {};

TEST_P(SubgoalRebuildThreads, BringABuildThatCameInBehindUpToDateOffTheQueryThread) {
  // A large edit starts a rebuild; 40 cells toggled while it runs. The finished build is 40
  // changes behind: the next prepare() repairs it on another thread (before, on the query's,
  // stalling it), jps answering meanwhile, and the finder takes it over once it is up to date.
  const search::Algorithm algo = GetParam();
  grid::Grid g = pathlab::testing::random_grid(13, 240, 240, 15, false);
  search::Options o;
  o.algorithm = algo;
  search::Pathfinder f(g, o);
  const auto cells = pathlab::testing::passable_cells(g);
  search::Result r = f.find(cells[0], cells.back());
  ASSERT_EQ(r.answered_by, algo);
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {20, 20, 90, 90}}).has_value());
  ASSERT_EQ(search::prepare(f).ready, false);
  std::mt19937 rng(21);
  for (int k = 0; k < 40; ++k) {
    const Cell c{100 + static_cast<int>(rng() % 140u), 100 + static_cast<int>(rng() % 140u)};
    g.set_blocked(c, g.passable(c));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (search::preparation_state(f) == search::PrepareState::building &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(search::preparation_state(f), search::PrepareState::stale);
  EXPECT_FALSE(search::prepare(f).ready);
  EXPECT_EQ(search::preparation_state(f), search::PrepareState::building);
  EXPECT_EQ(search::fallback_for(f).fallback, search::Fallback::rebuilding);
  std::uniform_int_distribution<std::size_t> pick(0, cells.size() - 1);
  for (int q = 0; q < 4; ++q) {
    const Cell s = cells[pick(rng)], t = cells[pick(rng)];
    if (!g.passable(s) || !g.passable(t)) continue;
    r = f.find(s, t);
    expect_optimal_answer(g, s, t, r, q);
  }
  ASSERT_TRUE(search::wait_prepared(f, std::chrono::seconds(60)));
  for (int q = 0; q < 16; ++q) {
    const Cell s = cells[pick(rng)], t = cells[pick(rng)];
    if (!g.passable(s) || !g.passable(t)) continue;
    r = f.find(s, t);
    EXPECT_EQ(r.answered_by, algo) << q;
    expect_optimal_answer(g, s, t, r, q);
  }
}

TEST_P(SubgoalRepairFinder, KeepsAnsweringWithTheRepairedGraphWhileItsRebuildRuns) {
  // Cells toggled one at a time in open ground add subgoals and edges until the graph asks
  // for a rebuild; while that runs on another thread, the graph, still fit, goes on being
  // repaired and answers (before, jps answered until the rebuild was in).
  const search::Algorithm algo = GetParam();
  // (Ground open enough that the repairs grow the graph this far within the rounds, and not so
  // open that the hierarchy's core outgrows fit(): 4 % and 12 % walls.)
  grid::Grid g = algo == search::Algorithm::subgoal
                     ? pathlab::testing::random_grid(5, 320, 320, 4, false)
                     : pathlab::testing::random_grid(5, 240, 240, 12, false);
  search::Options o;
  o.algorithm = algo;
  search::Pathfinder f(g, o);
  const auto cells = pathlab::testing::passable_cells(g);
  std::mt19937 rng(8);
  search::Result r = f.find(cells[0], cells.back());
  ASSERT_EQ(r.answered_by, algo);
  int while_building = 0, by_jps = 0;
  for (int round = 0; round < 600 && while_building < 4; ++round) {
    const Cell c{static_cast<int>(rng() % static_cast<unsigned>(g.width())),
                 static_cast<int>(rng() % static_cast<unsigned>(g.height()))};
    g.set_blocked(c, g.passable(c));
    Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
    g.set_blocked(s, false);
    g.set_blocked(t, false);
    const bool building = search::preparation_state(f) == search::PrepareState::building;
    const search::Fallback predicted = search::fallback_for(f).fallback;
    r = f.find(s, t);
    EXPECT_EQ(r.fallback, predicted) << round;
    if (predicted == search::Fallback::none) {
      EXPECT_EQ(r.answered_by, algo) << round;
      if (building) ++while_building;
    } else {
      ++by_jps;
    }
    if (!building && predicted == search::Fallback::none && round % 8 != 0) continue;
    expect_optimal_answer(g, s, t, r, round);
  }
  EXPECT_GE(while_building, 1) << "jps answered " << by_jps;
}

namespace {
std::string algo_name(const ::testing::TestParamInfo<search::Algorithm>& info) {
  return info.param == search::Algorithm::subgoal ? "subgoal" : "subgoal_ch";
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(Both, SubgoalRepairFinder,
                         ::testing::Values(search::Algorithm::subgoal,
                                           search::Algorithm::subgoal_ch),
                         algo_name);
INSTANTIATE_TEST_SUITE_P(Both, SubgoalRebuildThreads,
                         ::testing::Values(search::Algorithm::subgoal,
                                           search::Algorithm::subgoal_ch),
                         algo_name);
