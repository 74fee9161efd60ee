// anyangle-labels: the hub labels over the wall-corner visibility graph give anyangle-exact's
// optimum on every query (the property tests of anyangle_exact_test.cpp draw either method
// against the brute force and the corner graph, every segment certified); here the shared
// Moving AI maps, the preparation's life (prepare, share, edits, save, load) and its files
// refused when stale, foreign or damaged.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>
#include <pathlab/search/trace.hpp>

#include "movingai.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using grid::DiagonalRule;
using pathlab::testing::passable_cells;
using pathlab::testing::random_grid;
using search::Algorithm;
using search::PrepareState;

namespace {

search::Options opts(Algorithm a, DiagonalRule rule = DiagonalRule::no_corner_cut) {
  search::Options o;
  o.algorithm = a;
  o.moves.diagonal = rule;
  return o;
}

/// Both methods on the same queries between cell centres, corners and points inside cells.
void expect_same_answers(const grid::Grid& g, search::Pathfinder& labels, DiagonalRule rule,
                         std::size_t queries, unsigned salt) {
  search::Pathfinder exact(g, opts(Algorithm::anyangle_exact, rule));
  const auto cells = passable_cells(g);
  ASSERT_FALSE(cells.empty());
  search::Result a, b;
  for (std::size_t i = 0; i < queries; ++i) {
    const Cell s = cells[(i * 7919 + salt) % cells.size()];
    const Cell t = cells[(i * 104729 + 31 * salt + 17) % cells.size()];
    const Point ps{s.x + 0.25 * double(i % 5), s.y + 0.125 * double(i % 9)};
    const Point pt{t.x + 0.5, t.y + 0.75 * double(i % 2)};
    for (int kind = 0; kind < 3; ++kind) {
      if (kind == 0) {
        exact.find_points(centre(s), centre(t), a);
        labels.find_points(centre(s), centre(t), b);
      } else if (kind == 1) {
        exact.find_corners(s, t, a);
        labels.find_corners(s, t, b);
      } else {
        exact.find_points(ps, pt, a);
        labels.find_points(ps, pt, b);
      }
      ASSERT_EQ(a.status, b.status) << "query " << i << " kind " << kind;
      if (a.status != Status::found) continue;
      ASSERT_NEAR(a.cost, b.cost, 1e-9 * std::max(1.0, a.cost))
          << "query " << i << " kind " << kind;
      EXPECT_EQ(b.answered_by, Algorithm::anyangle_labels);
      EXPECT_EQ(b.points.front(), a.points.front());
      EXPECT_EQ(b.points.back(), a.points.back());
      EXPECT_NEAR(search::polyline_length(b.points), b.cost, 1e-9 * std::max(1.0, b.cost));
    }
  }
}

}  // namespace

TEST(AnyAngleLabels, RandomGridsUnderEveryRuleEqualTheExactSearch) {
  for (const DiagonalRule rule : {DiagonalRule::never, DiagonalRule::no_corner_cut,
                                  DiagonalRule::one_corner, DiagonalRule::always}) {
    for (unsigned seed = 1; seed <= 6; ++seed) {
      const grid::Grid g = random_grid(seed, 20 + 7 * seed, 15 + 5 * seed, 8 + 5 * seed, false);
      search::Pathfinder f(g, opts(Algorithm::anyangle_labels, rule));
      expect_same_answers(g, f, rule, 40, seed);
    }
  }
}

TEST(AnyAngleLabels, SharedMovingAiMapsEqualTheExactSearch) {
  const auto files = pathlab::testing::movingai_scenario_files();
  if (files.empty()) GTEST_SKIP() << pathlab::testing::movingai_missing();
  std::size_t total = 0, refused = 0;
  for (const auto& file : files) {
    const auto scen = io::load_scenarios(file.string());
    const auto map = io::load_map(scen.map_path());
#ifndef NDEBUG
    // The sanitizer run (a Debug build) would spend minutes labelling the large maps; the
    // Release run of `make test` covers every one.
    if (map.grid.cells() > 300 * 300) continue;
#endif
    search::Pathfinder exact(map.grid, opts(Algorithm::anyangle_exact));
    search::Pathfinder labels(map.grid, opts(Algorithm::anyangle_labels));
    const search::PrepareInfo info = search::prepare(labels);
    if (!info.ready) {
      // Over the labels' budget (random512-10-0's visibility graph): anyangle-exact answers,
      // and says why.
      const search::FallbackInfo why = search::fallback_for(labels);
      EXPECT_EQ(why.fallback, search::Fallback::map_too_large) << file;
      EXPECT_EQ(why.answered_by, Algorithm::anyangle_exact) << file;
      EXPECT_EQ(search::preparation_state(labels), PrepareState::none) << file;
      const io::ScenarioEntry& e = scen.entries.front();
      const auto a = exact.find(e.start, e.goal), b = labels.find(e.start, e.goal);
      ASSERT_EQ(a.status, b.status) << file;
      EXPECT_EQ(b.answered_by, Algorithm::anyangle_exact) << file;
      EXPECT_EQ(b.fallback, search::Fallback::map_too_large) << file;
      EXPECT_NEAR(a.cost, b.cost, 1e-9 * std::max(1.0, a.cost)) << file;
      // A query from a cell to itself says so too.
      const auto same = labels.find(e.start, e.start);
      EXPECT_EQ(same.status, Status::found) << file;
      EXPECT_EQ(same.fallback, search::Fallback::map_too_large) << file;
      ++refused;
      continue;
    }
    EXPECT_GT(info.bytes, 0u);
    const std::size_t step = std::max<std::size_t>(1, scen.entries.size() / 60);
    search::Result a, b;
    for (std::size_t i = 0; i < scen.entries.size(); i += step) {
      const io::ScenarioEntry& e = scen.entries[i];
      for (const bool corners : {false, true}) {
        if (corners) {
          exact.find_corners(e.start, e.goal, a);
          labels.find_corners(e.start, e.goal, b);
        } else {
          exact.find_points(centre(e.start), centre(e.goal), a);
          labels.find_points(centre(e.start), centre(e.goal), b);
        }
        ASSERT_EQ(a.status, b.status) << file << ":" << e.line;
        if (a.status != Status::found) continue;
        ASSERT_NEAR(a.cost, b.cost, 1e-9 * std::max(1.0, a.cost)) << file << ":" << e.line;
        EXPECT_EQ(b.answered_by, Algorithm::anyangle_labels);
        ++total;
      }
    }
  }
  EXPECT_GT(total, 0u);
  EXPECT_LE(refused, 1u);  // random512-10-0 alone
}

TEST(AnyAngleLabels, PreparedOnFirstUseSharedAndRebuiltAfterAnEdit) {
  grid::Grid g = random_grid(42, 40, 30, 18, false);
  search::Pathfinder f(g, opts(Algorithm::anyangle_labels));
  EXPECT_TRUE(search::uses_preparation(Algorithm::anyangle_labels));
  EXPECT_TRUE(search::answers_points(Algorithm::anyangle_labels));
  EXPECT_EQ(search::preparation_state(f), PrepareState::missing);
  EXPECT_FALSE(search::prepared_info(f).ready);
  const auto cells = passable_cells(g);
  const auto r = f.find(cells.front(), cells.back());
  ASSERT_TRUE(r.status == Status::found || r.status == Status::no_path);
  EXPECT_EQ(search::preparation_state(f), PrepareState::ready);
  const search::PrepareInfo info = search::prepared_info(f);
  EXPECT_TRUE(info.ready);
  EXPECT_FALSE(info.loaded);
  EXPECT_GT(info.bytes, 0u);

  // Another finder (thread) shares the labels; one with another rule may not.
  search::Pathfinder shared(g, opts(Algorithm::anyangle_labels));
  ASSERT_TRUE(search::share_prepared(f, shared));
  EXPECT_EQ(search::preparation_state(shared), PrepareState::ready);
  search::Pathfinder other_rule(g, opts(Algorithm::anyangle_labels, DiagonalRule::always));
  EXPECT_FALSE(search::share_prepared(f, other_rule));
  expect_same_answers(g, shared, DiagonalRule::no_corner_cut, 30, 3);

  // An edit makes them stale; the next query rebuilds them for the edited map.
  g.set_blocked(cells[cells.size() / 2], true);
  g.set_blocked(cells[cells.size() / 3], true);
  EXPECT_EQ(search::preparation_state(f), PrepareState::stale);
  EXPECT_EQ(search::fallback_for(f).fallback, search::Fallback::none);
  expect_same_answers(g, f, DiagonalRule::no_corner_cut, 30, 5);
  EXPECT_EQ(search::preparation_state(f), PrepareState::ready);
  // prepare() and wait_prepared() bring a stale finder up to date on the calling thread.
  g.set_blocked(cells[cells.size() / 4], true);
  EXPECT_EQ(search::preparation_state(shared), PrepareState::stale);
  EXPECT_TRUE(search::wait_prepared(shared, std::chrono::milliseconds(0)));
  EXPECT_EQ(search::preparation_state(shared), PrepareState::ready);
  expect_same_answers(g, shared, DiagonalRule::no_corner_cut, 30, 7);
}

TEST(AnyAngleLabels, FilesRoundTripAndStaleForeignOrDamagedOnesAreRefused) {
  const grid::Grid g = random_grid(7, 48, 36, 20, false);
  search::Pathfinder f(g, opts(Algorithm::anyangle_labels));
  std::stringstream file;
  ASSERT_TRUE(search::save_prepared(f, file));
  const std::string bytes = file.str();
  auto load = [](search::Pathfinder& into, const std::string& data) {
    std::istringstream in(data);
    return search::load_prepared(into, in);
  };

  search::Pathfinder loaded(g, opts(Algorithm::anyangle_labels));
  ASSERT_TRUE(load(loaded, bytes));
  EXPECT_EQ(search::preparation_state(loaded), PrepareState::ready);
  EXPECT_TRUE(search::prepared_info(loaded).loaded);
  expect_same_answers(g, loaded, DiagonalRule::no_corner_cut, 40, 11);
  // Saved again, the same bytes.
  std::stringstream again;
  ASSERT_TRUE(search::save_prepared(loaded, again));
  EXPECT_EQ(again.str(), bytes);

  // Stale: the map changed by one wall. Its file name changes too.
  grid::Grid changed = g;
  const auto cells = passable_cells(g);
  changed.set_blocked(cells[cells.size() / 2], true);
  search::Pathfinder on_changed(changed, opts(Algorithm::anyangle_labels));
  EXPECT_FALSE(load(on_changed, bytes));
  EXPECT_EQ(search::preparation_state(on_changed), PrepareState::missing);
  EXPECT_NE(search::prepared_file_name(g, Algorithm::anyangle_labels),
            search::prepared_file_name(changed, Algorithm::anyangle_labels));
  EXPECT_EQ(search::prepared_file_name(g, Algorithm::anyangle_labels).rfind("anyangle-labels-", 0),
            0u);
  // Labels for each rule have their own file in the cache (no rule overwrites another's).
  EXPECT_EQ(search::prepared_file_name(g, Algorithm::anyangle_labels, DiagonalRule::always)
                .rfind("anyangle-labels-always-", 0),
            0u);
  EXPECT_NE(search::prepared_file_name(g, Algorithm::anyangle_labels, DiagonalRule::never),
            search::prepared_file_name(g, Algorithm::anyangle_labels, DiagonalRule::always));
  EXPECT_EQ(search::prepared_file_name(g, Algorithm::jps_plus, DiagonalRule::always),
            search::prepared_file_name(g, Algorithm::jps_plus));
  // Foreign: another diagonal rule, another algorithm, another algorithm's file.
  search::Pathfinder other_rule(g, opts(Algorithm::anyangle_labels, DiagonalRule::always));
  EXPECT_FALSE(load(other_rule, bytes));
  search::Pathfinder subgoal(g, opts(Algorithm::subgoal));
  EXPECT_FALSE(load(subgoal, bytes));
  std::stringstream subgoal_file;
  ASSERT_TRUE(search::save_prepared(subgoal, subgoal_file));
  search::Pathfinder fresh(g, opts(Algorithm::anyangle_labels));
  EXPECT_FALSE(load(fresh, subgoal_file.str()));
  // Damaged: a flipped byte anywhere in the payload, a truncated file, an empty one.
  for (const std::size_t at : {bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x20);
    EXPECT_FALSE(load(fresh, damaged)) << "byte " << at;
  }
  EXPECT_FALSE(load(fresh, bytes.substr(0, bytes.size() - 9)));
  EXPECT_FALSE(load(fresh, bytes.substr(0, 20)));
  EXPECT_FALSE(load(fresh, ""));
  EXPECT_EQ(search::preparation_state(fresh), PrepareState::missing);
  // After all that, the fresh finder still answers (building its own labels).
  expect_same_answers(g, fresh, DiagonalRule::no_corner_cut, 20, 13);
}

TEST(AnyAngleLabels, TraceReplaysToThePathAndOtherMapKindsFallBack) {
  const grid::Grid g = random_grid(9, 30, 24, 18, false);
  search::Pathfinder f(g, opts(Algorithm::anyangle_labels));
  const auto cells = passable_cells(g);
  search::TraceRecorder rec;
  search::Result r;
  f.find(cells.front(), cells.back(), r, &rec);
  const auto plain = f.find(cells.front(), cells.back());
  ASSERT_EQ(r.status, plain.status);
  if (r.status == Status::found) {
    EXPECT_EQ(r.path, plain.path);
    const auto replayed = search::replay_path(rec.events(), cells.front(), cells.back());
    ASSERT_TRUE(replayed.has_value());
    EXPECT_EQ(*replayed, r.path);
  }
  // Unreachable goals: no path, and a point in a wall: invalid input.
  grid::Grid boxed(6, 6);
  for (int i = 0; i < 6; ++i) boxed.set_blocked(3, i, true);
  search::Pathfinder b(boxed, opts(Algorithm::anyangle_labels));
  EXPECT_EQ(b.find({0, 0}, {5, 5}).status, Status::no_path);
  search::Result bad;
  EXPECT_EQ(b.find_points({3.5, 2.5}, {0.5, 0.5}, bad), Status::invalid_input);
}
