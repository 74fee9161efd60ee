// `subgoal` and `subgoal-ch` behind the Pathfinder (the graph and the hierarchy themselves are
// tested in subgoal_graph_test.cpp and subgoal_ch_test.cpp): the registry, Dijkstra's cost on
// random grids through the public API, the A* fallback with its note, preparation shared and
// saved through prepare.hpp, and the trace.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>
#include <pathlab/search/trace.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using pathlab::search::Algorithm;
using pathlab::testing::dist_at;
using pathlab::testing::passable_cells;
using pathlab::testing::random_grid;
using pathlab::testing::reference_distances;

/// The tests below run once for each subgoal method.
class SubgoalMethod : public ::testing::TestWithParam<Algorithm> {
 protected:
  [[nodiscard]] search::Options subgoal_options() const {
    search::Options o;
    o.algorithm = GetParam();
    return o;
  }
};

INSTANTIATE_TEST_SUITE_P(Both, SubgoalMethod,
                         ::testing::Values(Algorithm::subgoal, Algorithm::subgoal_ch),
                         [](const auto& p) {
                           return p.param == Algorithm::subgoal ? std::string("subgoal")
                                                                : std::string("subgoal_ch");
                         });

TEST_P(SubgoalMethod, RegisteredAsOptimalAndPreprocessed) {
  const Algorithm a = GetParam();
  EXPECT_EQ(search::parse_algorithm(a == Algorithm::subgoal ? "subgoal" : "subgoal-ch"), a);
  EXPECT_TRUE(search::info(a).optimal);
  EXPECT_FALSE(search::info(a).any_angle);
  EXPECT_TRUE(search::uses_preparation(a));
}

TEST_P(SubgoalMethod, RandomGridsMatchReferenceDijkstra) {
  std::mt19937 rng(7071);
  int found = 0;
  for (int i = 0; i < 600; ++i) {
    const int w = 1 + static_cast<int>(rng() % 40), h = 1 + static_cast<int>(rng() % 40);
    const grid::Grid g =
        random_grid(static_cast<std::uint32_t>(rng()), w, h, static_cast<int>(rng() % 41), false);
    const auto cells = passable_cells(g);
    if (cells.empty()) continue;
    search::Pathfinder f(g, subgoal_options());
    search::Result r;
    for (int q = 0; q < 3; ++q) {
      const Cell s = cells[rng() % cells.size()];
      const auto ref = reference_distances(g, grid::Moves{}, s);
      for (int k = 0; k < 5; ++k) {
        const Cell t = cells[rng() % cells.size()];
        const double opt = dist_at(ref, g, t);
        f.find(s, t, r);
        const std::string what = "grid " + std::to_string(i);
        if (std::isinf(opt)) {
          ASSERT_EQ(r.status, Status::no_path) << what;
          continue;
        }
        ASSERT_EQ(r.status, Status::found) << what;
        ++found;
        EXPECT_NEAR(r.cost, opt, 1e-9 * std::max(1.0, opt)) << what;
        ASSERT_FALSE(r.path.empty());
        EXPECT_EQ(r.path.front(), s) << what;
        EXPECT_EQ(r.path.back(), t) << what;
        EXPECT_FALSE(grid::check_path(g, grid::Moves{}, r.path).has_value()) << what;
        EXPECT_TRUE(r.note.empty()) << what;
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GT(found, 3000);
}

/// Open fields longer than a stored clearance (255 cells): a straight or diagonal run of 600
/// free cells is read in several parts, and the answers stay Dijkstra's.
TEST_P(SubgoalMethod, LongClearRunsMatchReferenceDijkstra) {
  std::mt19937 rng(2550);
  for (const auto& [w, h] : {std::pair{700, 9}, std::pair{9, 700}, std::pair{610, 610}}) {
    grid::Grid g(w, h);
    for (int k = 0; k < 12; ++k) {  // a few walls, so that there are subgoals to go around
      g.set_blocked(static_cast<int>(rng() % static_cast<unsigned>(w)),
                    static_cast<int>(rng() % static_cast<unsigned>(h)), true);
    }
    const auto cells = passable_cells(g);
    search::Pathfinder f(g, subgoal_options());
    search::Result r;
    const std::vector<Cell> starts{{0, 0}, {w - 1, h - 1}, cells[rng() % cells.size()]};
    for (const Cell s : starts) {
      if (!g.passable(s)) continue;
      const auto ref = reference_distances(g, grid::Moves{}, s);
      for (int k = 0; k < 20; ++k) {
        const Cell t = k == 0 ? Cell{w - 1 - s.x, h - 1 - s.y} : cells[rng() % cells.size()];
        if (!g.passable(t)) continue;
        const double opt = dist_at(ref, g, t);
        f.find(s, t, r);
        ASSERT_EQ(r.status, Status::found) << w << "x" << h;
        EXPECT_NEAR(r.cost, opt, 1e-9 * std::max(1.0, opt)) << w << "x" << h;
        EXPECT_FALSE(grid::check_path(g, grid::Moves{}, r.path).has_value());
      }
    }
  }
}

TEST_P(SubgoalMethod, FallsBackToAStarWithANote) {
  const grid::Grid g = random_grid(5, 30, 20, 20, false);
  const auto cells = passable_cells(g);
  for (const auto rule : {grid::DiagonalRule::always, grid::DiagonalRule::never}) {
    search::Options o = subgoal_options();
    o.moves.diagonal = rule;
    search::Options a = o;
    a.algorithm = Algorithm::astar;
    const auto r = search::Pathfinder(g, o).find(cells.front(), cells.back());
    const auto ref = search::Pathfinder(g, a).find(cells.front(), cells.back());
    EXPECT_EQ(r.status, ref.status);
    EXPECT_NEAR(r.cost, ref.cost, 1e-9);
    EXPECT_NE(r.note.find("answered with A*"), std::string_view::npos) << r.note;
    EXPECT_EQ(r.note, search::fallback_note(g, o));
    EXPECT_FALSE(search::prepare(*std::make_unique<search::Pathfinder>(g, o)).ready);
  }
  const grid::Grid terrain = random_grid(6, 30, 20, 10, true);
  const auto tc = passable_cells(terrain);
  const auto r = search::Pathfinder(terrain, subgoal_options()).find(tc.front(), tc.back());
  EXPECT_NE(r.note.find("terrain"), std::string_view::npos) << r.note;
}

TEST_P(SubgoalMethod, PreparedGraphIsSharedSavedAndCheckedAgainstTheMap) {
  const grid::Grid g = random_grid(11, 120, 80, 25, false);
  search::Pathfinder f(g, subgoal_options());
  const search::PrepareInfo info = search::prepare(f);
  ASSERT_TRUE(info.ready);
  EXPECT_FALSE(info.loaded);
  EXPECT_GT(info.bytes, 0u);
  search::Pathfinder shared(g, subgoal_options());
  ASSERT_TRUE(search::share_prepared(f, shared));
  EXPECT_TRUE(search::prepared_info(shared).ready);

  std::stringstream file;
  ASSERT_TRUE(search::save_prepared(f, file));
  const std::string bytes = file.str();
  search::Pathfinder loaded(g, subgoal_options());
  {
    std::istringstream in(bytes);
    ASSERT_TRUE(search::load_prepared(loaded, in));
  }
  EXPECT_TRUE(search::prepared_info(loaded).loaded);
  const auto cells = passable_cells(g);
  for (std::size_t i = 0; i < 50; ++i) {
    const Cell s = cells[(i * 37) % cells.size()], t = cells[(i * 91 + 5) % cells.size()];
    const auto a = f.find(s, t), b = shared.find(s, t), c = loaded.find(s, t);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.status, c.status);
    EXPECT_NEAR(a.cost, c.cost, 1e-9);
    EXPECT_NEAR(a.cost, b.cost, 1e-9);
  }
  // The map changed (one wall): the file is stale and the finder keeps nothing from it.
  grid::Grid changed = g;
  changed.set_blocked(cells[cells.size() / 3], true);
  search::Pathfinder on_changed(changed, subgoal_options());
  std::istringstream in(bytes);
  EXPECT_FALSE(search::load_prepared(on_changed, in));
  EXPECT_FALSE(search::prepared_info(on_changed).ready);
  const Algorithm a = GetParam();
  EXPECT_NE(search::prepared_file_name(g, a), search::prepared_file_name(changed, a));
  EXPECT_EQ(search::prepared_file_name(g, a).rfind(std::string(search::to_string(a)) + "-", 0), 0u);
  // The two methods' files are never taken for each other.
  const Algorithm other = a == Algorithm::subgoal ? Algorithm::subgoal_ch : Algorithm::subgoal;
  search::Options oo = subgoal_options();
  oo.algorithm = other;
  search::Pathfinder wrong(g, oo);
  std::istringstream again(bytes);
  EXPECT_FALSE(search::load_prepared(wrong, again));
  EXPECT_FALSE(search::share_prepared(f, wrong));
}

TEST_P(SubgoalMethod, TraceReplaysToThePath) {
  const grid::Grid g = random_grid(12, 40, 30, 20, false);
  const auto cells = passable_cells(g);
  search::TraceRecorder rec;
  search::Result r;
  search::Pathfinder(g, subgoal_options()).find(cells.front(), cells.back(), r, &rec);
  ASSERT_EQ(r.status, Status::found);
  std::vector<Cell> closed;
  for (const auto& e : rec.events()) {
    if (e.type == search::EventType::closed) closed.push_back(e.cell);
  }
  EXPECT_EQ(closed, r.path);
}
