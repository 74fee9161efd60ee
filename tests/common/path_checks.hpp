// Checks the search tests share on a found path and on the grids they build.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

#include "test_grids.hpp"

namespace pathlab::testing {

/// A found path runs s..t, every step legal under the moves, and costs the sum of its steps.
inline void expect_sound_path(const grid::Grid& g, const grid::Moves& m,
                              const std::vector<Cell>& path, double cost, Cell s, Cell t,
                              const std::string& what) {
  ASSERT_FALSE(path.empty()) << what;
  EXPECT_EQ(path.front(), s) << what;
  EXPECT_EQ(path.back(), t) << what;
  const auto problem = grid::check_path(g, m, path);
  EXPECT_FALSE(problem.has_value()) << what << ": " << problem.value_or("");
  EXPECT_NEAR(cost, grid::path_cost(g, m, path), 1e-9 * std::max(1.0, cost)) << what;
}

/// Every cell of r made a wall (blocked) or free, through the edit API (so that the change is
/// recorded for Grid::changes_since).
inline void set_area(grid::Grid& g, grid::Rect r, bool blocked) {
  grid::Edit e;
  e.kind = blocked ? grid::Edit::Kind::wall : grid::Edit::Kind::free;
  e.area = r;
  ASSERT_FALSE(g.apply(e).has_value());
}

/// One random edit, as the repair tests make them: a random cell, or one time in three an area
/// of up to span x span cells from it, made a wall one time in `wall_one_in`, else free.
inline void random_edit(grid::Grid& g, std::mt19937& rng, int span, unsigned wall_one_in) {
  const int x0 = static_cast<int>(rng() % static_cast<unsigned>(g.width()));
  const int y0 = static_cast<int>(rng() % static_cast<unsigned>(g.height()));
  const unsigned s = rng() % 3 == 0 ? static_cast<unsigned>(span) : 1u;
  const int x1 = std::min(g.width() - 1, x0 + static_cast<int>(rng() % s));
  const int y1 = std::min(g.height() - 1, y0 + static_cast<int>(rng() % s));
  const bool wall = rng() % wall_one_in == 0;
  set_area(g, {x0, y0, x1, y1}, wall);
}

/// g with its outermost rows and columns made walls.
inline grid::Grid with_border(grid::Grid g) {
  for (int x = 0; x < g.width(); ++x) {
    g.set_blocked(x, 0, true);
    g.set_blocked(x, g.height() - 1, true);
  }
  for (int y = 0; y < g.height(); ++y) {
    g.set_blocked(0, y, true);
    g.set_blocked(g.width() - 1, y, true);
  }
  return g;
}

/// The i-th grid of a random sweep: 0-40 % walls, sizes from 1xN to 48x48 (every tenth grid
/// one cell wide, one high, or two high), every third one walled in when it can be.
inline grid::Grid varied_random_grid(std::mt19937& rng, int i) {
  int w = 1 + static_cast<int>(rng() % 48), h = 1 + static_cast<int>(rng() % 48);
  if (i % 10 == 0) w = 1;
  if (i % 10 == 1) h = 1;
  if (i % 10 == 2) h = 2;
  grid::Grid g =
      random_grid(static_cast<std::uint32_t>(rng()), w, h, static_cast<int>(rng() % 41), false);
  if (i % 3 == 0 && w > 2 && h > 2) g = with_border(std::move(g));
  return g;
}

}  // namespace pathlab::testing
