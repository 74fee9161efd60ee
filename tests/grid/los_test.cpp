// Line of sight (shared docs/ALGORITHMS.md, "Line of sight and any-angle paths"): the integer
// walk between cell centres and the point form against an independent brute-force reference,
// symmetry, the 8-adjacent invariant (LOS equals the legality of the diagonal move), the cells
// Bresenham would skip, the word-at-a-time row path and the clearance grid.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/grid/los.hpp>

#include <cmath>
#include <cstring>

#include "test_grids.hpp"

using namespace pathlab;
using grid::DiagonalRule;

namespace {

constexpr DiagonalRule kRules[] = {DiagonalRule::never, DiagonalRule::no_corner_cut,
                                   DiagonalRule::one_corner, DiagonalRule::always};

struct LosCase {
  grid::Grid grid;
  DiagonalRule rule;
  Cell a, b;
};

LosCase draw_los_case() {
  const int w = *rc::gen::inRange(1, 40);
  const int h = *rc::gen::inRange(1, 40);
  const int walls = *rc::gen::inRange(0, 40);
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  LosCase c{pathlab::testing::random_grid(seed, w, h, walls, false),
            kRules[*rc::gen::inRange(0, 4)],
            {*rc::gen::inRange(0, w), *rc::gen::inRange(0, h)},
            {*rc::gen::inRange(0, w), *rc::gen::inRange(0, h)}};
  return c;
}

grid::Grid parse(std::initializer_list<const char*> rows) {
  const int h = static_cast<int>(rows.size());
  const int w = static_cast<int>(std::strlen(*rows.begin()));
  grid::Grid g(w, h);
  int y = 0;
  for (const char* r : rows) {
    for (int x = 0; x < w; ++x) g.set_blocked(x, y, r[x] == '#');
    ++y;
  }
  return g;
}

}  // namespace

RC_GTEST_PROP(LineOfSight, CellsMatchTheBruteForceReference, ()) {
  const LosCase c = draw_los_case();
  const bool got = grid::line_of_sight(c.grid, c.rule, c.a, c.b);
  if (c.a == c.b || !c.grid.passable(c.a) || !c.grid.passable(c.b)) {
    RC_ASSERT(got == (c.grid.passable(c.a) && c.grid.passable(c.b)));
    return;
  }
  RC_ASSERT(got == pathlab::testing::reference_los(c.grid, c.rule, c.a, c.b));
}

RC_GTEST_PROP(LineOfSight, IsSymmetric, ()) {
  const LosCase c = draw_los_case();
  RC_ASSERT(grid::line_of_sight(c.grid, c.rule, c.a, c.b) ==
            grid::line_of_sight(c.grid, c.rule, c.b, c.a));
  RC_ASSERT(grid::line_of_sight(c.grid, c.rule, centre(c.a), centre(c.b)) ==
            grid::line_of_sight(c.grid, c.rule, centre(c.b), centre(c.a)));
}

RC_GTEST_PROP(LineOfSight, PointFormAgreesOnCellCentres, ()) {
  const LosCase c = draw_los_case();
  if (!c.grid.passable(c.a) || !c.grid.passable(c.b)) return;
  RC_ASSERT(grid::line_of_sight(c.grid, c.rule, centre(c.a), centre(c.b)) ==
            grid::line_of_sight(c.grid, c.rule, c.a, c.b));
}

// Points on a quarter-unit lattice hit every special case: endpoints on grid lines and lattice
// corners, runs along grid lines, crossings exactly through corners.
RC_GTEST_PROP(LineOfSight, PointsMatchTheBruteForceReference, ()) {
  const int w = *rc::gen::inRange(1, 16);
  const int h = *rc::gen::inRange(1, 16);
  const auto g = pathlab::testing::random_grid(*rc::gen::arbitrary<std::uint32_t>(), w, h,
                                               *rc::gen::inRange(0, 40), false);
  const DiagonalRule rule = kRules[*rc::gen::inRange(0, 4)];
  // Coarse lattices make grid-line runs and corner hits common.
  const int step = *rc::gen::element(1, 2, 4);
  const int ax = *rc::gen::inRange(0, w * 4 / step + 1) * step;
  const int ay = *rc::gen::inRange(0, h * 4 / step + 1) * step;
  const int bx = *rc::gen::inRange(0, w * 4 / step + 1) * step;
  const int by = *rc::gen::inRange(0, h * 4 / step + 1) * step;
  RC_PRE(ax != bx || ay != by);
  const Point a{ax / 4.0, ay / 4.0}, b{bx / 4.0, by / 4.0};
  const bool got = grid::line_of_sight(g, rule, a, b);
  RC_ASSERT(got == pathlab::testing::reference_los(g, rule, ax, ay, bx, by, 4));
  RC_ASSERT(got == grid::line_of_sight(g, rule, b, a));
}

TEST(LineOfSight, AdjacentCellsSeeEachOtherExactlyWhenTheMoveIsLegal) {
  // Every 3x3 wall pattern around a centre cell, every direction, every rule.
  for (int pattern = 0; pattern < 512; ++pattern) {
    grid::Grid g(3, 3);
    for (int i = 0; i < 9; ++i) g.set_blocked(i % 3, i / 3, (pattern >> i) & 1);
    const Cell c{1, 1};
    if (!g.passable(c)) continue;
    for (const DiagonalRule rule : kRules) {
      // `never` has no diagonal moves; its LOS is the no_corner_cut answer.
      const grid::Moves m{rule == DiagonalRule::never ? DiagonalRule::no_corner_cut : rule};
      for (int d = 0; d < 8; ++d) {
        const Cell n{c.x + grid::kDx[d], c.y + grid::kDy[d]};
        EXPECT_EQ(grid::line_of_sight(g, rule, c, n), grid::step_legal(g, m, c, n))
            << "pattern " << pattern << " rule " << grid::to_string(rule) << " dir " << d;
      }
    }
  }
}

TEST(LineOfSight, TouchesTheCellsBresenhamSkips) {
  // Centre (0.5,0.5) -> (3.5,1.5) passes exactly through the lattice corner (2,1): the four
  // cells around it touch the segment, and the wall (1,1) is one of the two side cells.
  const auto g = parse({
      "....",
      ".#..",
  });
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{0, 0}, Cell{3, 1}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::one_corner, Cell{0, 0}, Cell{3, 1}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::always, Cell{0, 0}, Cell{3, 1}));
  // (0.5,0.5) -> (4.5,1.5) crosses y = 1 at x = 2.5, inside column 2: it goes through both
  // (2,0) and (2,1), where Bresenham visits only one of them.
  const auto h = parse({
      ".....",
      "..#..",
  });
  EXPECT_FALSE(grid::line_of_sight(h, DiagonalRule::always, Cell{0, 0}, Cell{4, 1}));
  const auto k = parse({
      "..#..",
      ".....",
  });
  EXPECT_FALSE(grid::line_of_sight(k, DiagonalRule::always, Cell{0, 0}, Cell{4, 1}));
}

TEST(LineOfSight, DoesNotSqueezeBetweenDiagonalWallsUnlessTheRuleAllows) {
  const auto g = parse({
      ".#.",
      "#..",
      "...",
  });
  // (0,0) -> (1,1) passes the corner between the walls (1,0) and (0,1).
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{0, 0}, Cell{1, 1}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::one_corner, Cell{0, 0}, Cell{1, 1}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::always, Cell{0, 0}, Cell{1, 1}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{0, 0}, Cell{2, 2}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::always, Cell{0, 0}, Cell{2, 2}));
}

// Long shallow segments go row by row, a word of cells at a time (los_rows): the same answer
// as the brute-force reference under every rule, both ways, on sparse and dense maps.
RC_GTEST_PROP(LineOfSight, LongShallowSegmentsMatchTheBruteForceReference, ()) {
  const int w = *rc::gen::inRange(20, 260);
  const int h = *rc::gen::inRange(2, 48);
  const auto g = pathlab::testing::random_grid(*rc::gen::arbitrary<std::uint32_t>(), w, h,
                                               *rc::gen::inRange(0, 12), false);
  const DiagonalRule rule = kRules[*rc::gen::inRange(0, 4)];
  const int x0 = *rc::gen::inRange(0, w - 16), x1 = *rc::gen::inRange(x0 + 16, w);
  const int y0 = *rc::gen::inRange(0, h);
  const int reach = (x1 - x0 - 1) / 2;  // |dy| * 2 < dx
  const int y1 = *rc::gen::inRange(std::max(0, y0 - reach), std::min(h - 1, y0 + reach) + 1);
  Cell a{x0, y0}, b{x1, y1};
  if (*rc::gen::arbitrary<bool>()) std::swap(a, b);
  if (!g.passable(a) || !g.passable(b)) return;
  const bool got = grid::line_of_sight(g, rule, a, b);
  RC_ASSERT(got == pathlab::testing::reference_los(g, rule, a, b));
  RC_ASSERT(got == grid::line_of_sight(g, rule, b, a));
}

TEST(LineOfSight, LongRowsUseWholeWordsAndStillSeeEveryWall) {
  grid::Grid g(300, 3);
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{0, 1}, Cell{299, 1}));
  for (const int x : {0, 1, 62, 63, 64, 127, 128, 200, 299}) {
    g.set_blocked(x, 1, true);
    for (const int a : {0, 5, 63, 64, 150}) {
      for (const int b : {1, 63, 65, 128, 299}) {
        const bool expect = !(x >= std::min(a, b) && x <= std::max(a, b));
        if (!g.passable(a, 1) || !g.passable(b, 1)) continue;
        EXPECT_EQ(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{a, 1}, Cell{b, 1}),
                  expect)
            << x << " " << a << " " << b;
      }
    }
    g.set_blocked(x, 1, false);
  }
  // Walls in the rows above and below do not matter to a horizontal segment between centres.
  for (int x = 0; x < 300; ++x) {
    g.set_blocked(x, 0, true);
    g.set_blocked(x, 2, true);
  }
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{0, 1}, Cell{299, 1}));
}

TEST(LineOfSight, WallsAndOutsideEndpointsNeverSee) {
  const auto g = parse({"..#"});
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Cell{0, 0}, Cell{2, 0}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Cell{0, 0}, Cell{5, 0}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Cell{-1, 0}, Cell{0, 0}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::always, Cell{1, 0}, Cell{1, 0}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Point{0.5, 0.5}, Point{3.5, 0.5}));
  EXPECT_FALSE(grid::line_of_sight(g, DiagonalRule::always, Point{0.5, 0.5}, Point{NAN, 0.5}));
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::always, Point{0.1, 0.2}, Point{1.9, 0.7}));
}

TEST(LineOfSight, TheClearanceGridNarrowsWhatAnAgentSees) {
  // A one-cell gap in a wall: a point agent sees through it, an agent of radius 0.6 does not.
  auto g = parse({
      ".....",
      ".....",
      "##.##",
      ".....",
      ".....",
  });
  EXPECT_TRUE(grid::line_of_sight(g, DiagonalRule::no_corner_cut, Cell{2, 0}, Cell{2, 4}));
  const grid::Grid wide = g.with_clearance(0.6);
  EXPECT_FALSE(wide.passable(2, 2));
  EXPECT_FALSE(grid::line_of_sight(wide, DiagonalRule::no_corner_cut, Cell{2, 0}, Cell{2, 4}));
}
