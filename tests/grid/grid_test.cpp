// Grid module tests: the padded bit layout, terrain, clearance (a cell is blocked when a wall
// square or the map's outside comes closer than r to its centre), the move rules of each
// diagonal rule, path checks and costs (shared docs/ALGORITHMS.md, "Grid moves and costs").
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using grid::DiagonalRule;

TEST(Grid, PaddingReadsAsWallsAndCellsRoundTrip) {
  grid::Grid g(70, 3);  // wider than one 64-bit word
  EXPECT_EQ(g.stride(), 72);
  for (int y = -1; y <= 3; ++y) {
    for (int x = -1; x <= 70; ++x) {
      const bool inside = x >= 0 && y >= 0 && x < 70 && y < 3;
      EXPECT_EQ(g.passable_id(g.id(x, y)), inside) << x << "," << y;
      EXPECT_EQ(g.passable(x, y), inside);
    }
  }
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 70; ++x) EXPECT_EQ(g.cell(g.id(x, y)), (Cell{x, y}));
  EXPECT_FALSE(g.has_walls());  // (the padding around the map is no wall of the map's)
  g.set_blocked(63, 1, true);
  EXPECT_TRUE(g.has_walls());
  g.set_blocked(64, 1, true);
  EXPECT_FALSE(g.passable(63, 1));
  EXPECT_FALSE(g.passable(64, 1));
  EXPECT_TRUE(g.passable(62, 1));
  EXPECT_EQ(g.wall_count(), 2);
  g.set_blocked(63, 1, false);
  EXPECT_TRUE(g.passable(63, 1));
  g.set_blocked(64, 1, false);
  EXPECT_FALSE(g.has_walls());
  EXPECT_THROW(g.set_blocked(70, 0, true), std::out_of_range);
}

TEST(Grid, HasWallsAgreesWithTheCountOnLayeredMaps) {
  // The rows between a layered map's floors are walls of its storage, not of the map.
  grid::Grid g = grid::Grid::layered(5, 4, 3);
  EXPECT_EQ(g.wall_count(), 0);
  EXPECT_FALSE(g.has_walls());
  const Cell c = g.at(2, 4, 3);
  g.set_blocked(c.x, c.y, true);
  EXPECT_EQ(g.wall_count(), 1);
  EXPECT_TRUE(g.has_walls());
}

TEST(Grid, DimensionsAreCheckedBeforeAllocating) {
  EXPECT_THROW(grid::Grid(1 << 15, 1 << 15), std::length_error);
  EXPECT_THROW(grid::Grid(-1, 5), std::length_error);
  EXPECT_NO_THROW(grid::Grid(0, 0));
}

TEST(Grid, TerrainDefaultsToOneAndRejectsCheapCells) {
  grid::Grid g(4, 4);
  EXPECT_FALSE(g.has_terrain());
  EXPECT_EQ(g.terrain(2, 2), 1.0f);
  g.set_terrain(2, 2, 1.0f);
  EXPECT_FALSE(g.has_terrain());  // storing 1 everywhere needs no array
  g.set_terrain(2, 2, 4.5f);
  EXPECT_TRUE(g.has_terrain());
  EXPECT_EQ(g.terrain(2, 2), 4.5f);
  EXPECT_THROW(g.set_terrain(1, 1, 0.5f), std::invalid_argument);
  EXPECT_THROW(g.set_terrain(1, 1, NAN), std::invalid_argument);
  EXPECT_THROW(g.set_terrain(1, 1, INFINITY), std::invalid_argument);
}

TEST(Grid, ChecksumTellsMapsApart) {
  grid::Grid a(10, 10), b(10, 10), c(11, 10);
  EXPECT_EQ(a.checksum(), b.checksum());
  EXPECT_NE(a.checksum(), c.checksum());
  b.set_blocked(3, 3, true);
  EXPECT_NE(a.checksum(), b.checksum());
  b.set_blocked(3, 3, false);
  b.set_terrain(3, 3, 2.0f);
  EXPECT_NE(a.checksum(), b.checksum());
}

TEST(Grid, RevisionChangesWithTheCellsAndOnlyThen) {
  grid::Grid a(8, 6);
  const std::uint64_t r0 = a.revision();
  EXPECT_NE(grid::Grid(8, 6).revision(), r0);  // another grid, even with the same cells
  const grid::Grid copy = a;
  EXPECT_EQ(copy.revision(), r0);  // same cells, same revision
  a.set_blocked(3, 2, true);
  EXPECT_NE(a.revision(), r0);
  EXPECT_EQ(copy.revision(), r0);
  const std::uint64_t r1 = a.revision();
  a.set_terrain(1, 1, 3.0f);
  EXPECT_NE(a.revision(), r1);
  const std::uint64_t r2 = a.revision();
  grid::Grid moved = std::move(a);
  EXPECT_EQ(moved.revision(), r2);
  EXPECT_NE(a.revision(), r2);  // NOLINT(bugprone-use-after-move): the moved-from grid
  grid::Grid assigned;
  assigned = copy;
  EXPECT_EQ(assigned.revision(), r0);
  EXPECT_TRUE(assigned == copy);
  grid::Grid other(8, 6);
  EXPECT_TRUE(other == copy);  // comparing grids ignores the revision
}

TEST(Clearance, SmallRadiusChangesNothing) {
  grid::Grid g = pathlab::testing::random_grid(5, 20, 20, 30, false);
  EXPECT_EQ(g.with_clearance(0.0), g);
  EXPECT_EQ(g.with_clearance(0.5), g);
}

TEST(Clearance, RadiusOneBlocksTheEightNeighboursOfAWall) {
  grid::Grid g(9, 9);
  g.set_blocked(4, 4, true);
  const grid::Grid c = g.with_clearance(1.0);
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      // Border cells touch the outside at distance 0.5 < 1: blocked too.
      const bool near_wall = std::abs(x - 4) <= 1 && std::abs(y - 4) <= 1;
      const bool border = x == 0 || y == 0 || x == 8 || y == 8;
      EXPECT_EQ(c.passable(x, y), !(near_wall || border)) << x << "," << y;
    }
  }
}

RC_GTEST_PROP(Clearance, MatchesTheDistanceDefinition, ()) {
  const int w = *rc::gen::inRange(1, 16), h = *rc::gen::inRange(1, 16);
  const grid::Grid g =
      pathlab::testing::random_grid(*rc::gen::arbitrary<std::uint32_t>(), w, h, 15, false);
  const double r = *rc::gen::element(0.6, 0.75, 1.0, 1.2, 1.5, 2.0, 2.5);
  const grid::Grid c = g.with_clearance(r);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      // Brute force: the closest wall square (or outside cell) to the centre of (x, y).
      double best = INFINITY;
      for (int wy = -4; wy < h + 4; ++wy) {
        for (int wx = -4; wx < w + 4; ++wx) {
          if (g.passable(wx, wy) || (wx == x && wy == y)) continue;
          const double gx = std::max(0.0, std::abs(wx - x) - 0.5);
          const double gy = std::max(0.0, std::abs(wy - y) - 0.5);
          best = std::min(best, std::hypot(gx, gy));
        }
      }
      RC_ASSERT(c.passable(x, y) == (g.passable(x, y) && !(best < r)));
    }
  }
}

TEST(Moves, DiagonalLegalityUnderEachRule) {
  // (0,0) -> (1,1) with the side cells (1,0) and (0,1) blocked or free.
  for (int mask = 0; mask < 4; ++mask) {
    grid::Grid g(2, 2);
    if (mask & 1) g.set_blocked(1, 0, true);
    if (mask & 2) g.set_blocked(0, 1, true);
    const int blocked = (mask & 1) + ((mask >> 1) & 1);
    auto legal = [&](DiagonalRule r) { return grid::step_legal(g, {r, {}}, {0, 0}, {1, 1}); };
    EXPECT_FALSE(legal(DiagonalRule::never));
    EXPECT_EQ(legal(DiagonalRule::no_corner_cut), blocked == 0);
    EXPECT_EQ(legal(DiagonalRule::one_corner), blocked <= 1);
    EXPECT_TRUE(legal(DiagonalRule::always));
  }
}

TEST(Moves, NeighbourIterationAgreesWithStepLegal) {
  const grid::Grid g = pathlab::testing::random_grid(9, 12, 10, 35, false);
  for (const auto& m : pathlab::testing::kAllMoves) {
    grid::dispatch_rule(m.diagonal, [&](auto rule) {
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          if (!g.passable(x, y)) continue;
          int count = 0;
          grid::for_each_neighbour<decltype(rule)::value>(
              g, g.id(x, y), [&](grid::NodeId n, int d) {
                const Cell c = g.cell(n);
                EXPECT_EQ(c, (Cell{x + grid::kDx[d], y + grid::kDy[d]}));
                EXPECT_TRUE(grid::step_legal(g, m, {x, y}, c));
                ++count;
              });
          int expected = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              expected += grid::step_legal(g, m, {x, y}, {x + dx, y + dy});
          EXPECT_EQ(count, expected);
        }
      }
      return 0;
    });
  }
}

TEST(Moves, CostsAndPathChecks) {
  grid::Grid g(4, 4);
  g.set_terrain(1, 1, 3.0f);
  const grid::Moves octile{}, integer{DiagonalRule::no_corner_cut, grid::CostModel::integer};
  const std::vector<Cell> path{{0, 0}, {1, 1}, {2, 1}, {3, 2}};
  EXPECT_FALSE(grid::check_path(g, octile, path).has_value());
  EXPECT_DOUBLE_EQ(grid::path_cost(g, octile, path), 3 * std::sqrt(2.0) + 1 + std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(grid::path_cost(g, integer, path), 3 * 14 + 10 + 14);
  EXPECT_TRUE(grid::check_path(g, octile, std::vector<Cell>{{0, 0}, {2, 0}}).has_value());
  EXPECT_TRUE(grid::check_path(g, octile, std::vector<Cell>{}).has_value());
  g.set_blocked(1, 0, true);
  EXPECT_TRUE(grid::check_path(g, octile, path).has_value());  // (0,0)->(1,1) cuts a corner
  EXPECT_FALSE(grid::check_path(g, {DiagonalRule::one_corner, {}}, path).has_value());
  EXPECT_EQ(grid::parse_diagonal_rule("one-corner"), DiagonalRule::one_corner);
  EXPECT_FALSE(grid::parse_diagonal_rule("sometimes"));
  EXPECT_EQ(grid::parse_cost_model("integer"), grid::CostModel::integer);
}
