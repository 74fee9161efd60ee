// Waypoint pruning (shared docs/ALGORITHMS.md, "Line of sight and any-angle paths"): the greedy
// pass is exactly the users' definition (checked against a re-implementation over the tests'
// brute-force LOS); every result keeps start and goal, is a subsequence of the grid path, has
// line of sight on every segment, is never longer than the grid path, and the refinement never
// makes it longer than the greedy pass, nor shorter than the exact any-angle optimum.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using namespace pathlab::testing;

namespace {

struct Case {
  grid::Grid grid;
  grid::Moves moves;
  std::vector<Cell> path;
  double exact = 0;  ///< the exact any-angle optimum
};

Case draw_case() {
  const int w = *rc::gen::inRange(1, 40);
  const int h = *rc::gen::inRange(1, 40);
  const grid::DiagonalRule rules[] = {grid::DiagonalRule::never, grid::DiagonalRule::no_corner_cut,
                                      grid::DiagonalRule::one_corner, grid::DiagonalRule::always};
  Case c{random_grid(*rc::gen::arbitrary<std::uint32_t>(), w, h, *rc::gen::inRange(0, 40), false),
         {rules[*rc::gen::inRange(0, 4)]},
         {}};
  const auto cells = passable_cells(c.grid);
  RC_PRE(!cells.empty());
  const Cell s = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  const Cell t = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  // A* paths, and DFS paths (long and winding: much to prune).
  search::Options o;
  o.moves = c.moves;
  o.algorithm = *rc::gen::element(search::Algorithm::astar, search::Algorithm::dfs);
  auto r = search::Pathfinder(c.grid, o).find(s, t);
  RC_PRE(r.status == Status::found);
  c.path = std::move(r.path);
  o.algorithm = search::Algorithm::anyangle_exact;
  const auto ex = search::Pathfinder(c.grid, o).find(s, t);
  RC_ASSERT(ex.status == Status::found);
  c.exact = ex.cost;
  return c;
}

bool is_subsequence(const std::vector<Cell>& sub, const std::vector<Cell>& full) {
  std::size_t j = 0;
  for (const Cell c : full) {
    if (j < sub.size() && sub[j] == c) ++j;
  }
  return j == sub.size();
}

}  // namespace

RC_GTEST_PROP(Smooth, GreedyIsTheUsersDefinition, ()) {
  const Case c = draw_case();
  // Keep a waypoint only when the next cell is not visible from the last kept one.
  std::vector<Cell> expect{c.path.front()};
  for (std::size_t i = 1; i + 1 < c.path.size(); ++i) {
    if (!reference_los(c.grid, c.moves.diagonal, expect.back(), c.path[i + 1])) {
      expect.push_back(c.path[i]);
    }
  }
  if (c.path.size() > 1) expect.push_back(c.path.back());
  post::SmoothStats st;
  RC_ASSERT(post::smooth(c.grid, c.moves.diagonal, c.path, post::Smoothing::greedy, &st) == expect);
  RC_ASSERT(st.los_checks == (c.path.size() >= 2 ? c.path.size() - 2 : 0));
}

RC_GTEST_PROP(Smooth, NeverLongerAndEverySegmentSees, ()) {
  const Case c = draw_case();
  const double grid_len = post::length(c.path);
  double greedy_len = 0;
  for (const auto method : {post::Smoothing::greedy, post::Smoothing::refined}) {
    const auto w = post::smooth(c.grid, c.moves.diagonal, c.path, method);
    RC_ASSERT(!w.empty());
    RC_ASSERT(w.front() == c.path.front());
    RC_ASSERT(w.back() == c.path.back());
    RC_ASSERT(is_subsequence(w, c.path));
    for (std::size_t i = 1; i < w.size(); ++i) {
      RC_ASSERT(reference_los(c.grid, c.moves.diagonal, w[i - 1], w[i]));
    }
    const double len = post::length(w);
    RC_ASSERT(len <= grid_len + 1e-9);
    RC_ASSERT(len >= c.exact - 1e-9);
    if (method == post::Smoothing::greedy) {
      greedy_len = len;
    } else {
      RC_ASSERT(len <= greedy_len + 1e-9);
    }
  }
}

TEST(Smooth, AStairCaseBecomesOneSegment) {
  grid::Grid g(8, 8);
  std::vector<Cell> stairs;
  for (int i = 0; i < 8; ++i) {
    stairs.push_back({i, i});
    if (i < 7) stairs.push_back({i + 1, i});
  }
  for (const auto m : {post::Smoothing::greedy, post::Smoothing::refined}) {
    EXPECT_EQ(post::smooth(g, grid::DiagonalRule::no_corner_cut, stairs, m),
              (std::vector<Cell>{{0, 0}, {7, 7}}));
  }
}

TEST(Smooth, TheRefinementShortensWhatGreedyLeaves) {
  // Greedy keeps the last cell it can see, often past a corner; string pulling moves such
  // waypoints back toward the corner. Over many A* paths on random maps it must win clearly.
  double greedy = 0, refined = 0, grid_len = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const auto g = random_grid(seed, 40, 40, 25, false);
    const auto cells = passable_cells(g);
    const Cell s = cells[seed % cells.size()], t = cells[(seed * 7919) % cells.size()];
    const auto r = search::Pathfinder(g).find(s, t);
    if (r.status != Status::found) continue;
    grid_len += post::length(r.path);
    greedy += post::length(
        post::smooth(g, grid::DiagonalRule::no_corner_cut, r.path, post::Smoothing::greedy));
    refined += post::length(
        post::smooth(g, grid::DiagonalRule::no_corner_cut, r.path, post::Smoothing::refined));
  }
  EXPECT_LT(greedy, grid_len * 0.99);
  EXPECT_LT(refined, greedy * 0.995) << "grid " << grid_len << " greedy " << greedy;
}

TEST(Smooth, DegenerateInputs) {
  grid::Grid g(3, 3);
  EXPECT_TRUE(post::smooth(g, grid::DiagonalRule::always, {}).empty());
  const std::vector<Cell> one{{1, 1}};
  EXPECT_EQ(post::smooth(g, grid::DiagonalRule::always, one), one);
  const std::vector<Cell> two{{1, 1}, {2, 2}};
  EXPECT_EQ(post::smooth(g, grid::DiagonalRule::always, two), two);
  const std::vector<Cell> off{{1, 1}, {5, 5}};  // not on this grid: returned unchanged
  EXPECT_EQ(post::smooth(g, grid::DiagonalRule::always, off), off);
}

TEST(Smooth, ResultsOfEveryAlgorithmFamily) {
  const auto g = random_grid(3, 30, 30, 20, false);
  const auto cells = passable_cells(g);
  search::Options o;
  for (const auto a : {search::Algorithm::astar, search::Algorithm::theta}) {
    o.algorithm = a;
    const auto r = search::Pathfinder(g, o).find(cells.front(), cells.back());
    ASSERT_EQ(r.status, Status::found);
    const auto sm = post::smooth_result(g, o, r);
    EXPECT_EQ(sm.path, post::smooth(g, o.moves.diagonal, r.path));
    ASSERT_EQ(sm.points.size(), sm.path.size());
    for (std::size_t i = 0; i < sm.path.size(); ++i) EXPECT_EQ(sm.points[i], centre(sm.path[i]));
    EXPECT_NEAR(sm.cost, post::length(sm.path), 1e-12);
    EXPECT_LE(sm.cost, r.cost + 1e-9);
  }
  // The integer cost model scales lengths by the straight cost.
  o.algorithm = search::Algorithm::astar;
  o.moves.cost_model = grid::CostModel::integer;
  const auto ri = search::Pathfinder(g, o).find(cells.front(), cells.back());
  EXPECT_NEAR(post::smooth_result(g, o, ri).cost,
              10 * post::length(post::smooth(g, o.moves.diagonal, ri.path)), 1e-9);
  // Nothing to smooth without a path.
  search::Result none;
  none.status = Status::no_path;
  EXPECT_TRUE(post::smooth_result(g, o, none).path.empty());
}
