// CellBuckets (libs/search/src/cell_buckets.hpp), which the subgoal graphs' repairs use to find
// the blocked edges near a subgoal: every item inside a box is offered, and nearest() equals
// the least distance over all items, on random items and maps of many blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "../../libs/search/src/cell_buckets.hpp"

using pathlab::Cell;
using pathlab::search::detail::CellBuckets;

namespace {

double octile(Cell a, Cell b) {
  const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
  return std::max(dx, dy) + (1.4142135623730951 - 1) * std::min(dx, dy);
}

}  // namespace

TEST(CellBuckets, BoxesOfferEveryItemInsideAndNearestIsTheLeast) {
  std::mt19937 rng(31);
  for (int round = 0; round < 60; ++round) {
    const int w = 1 + static_cast<int>(rng() % 300), h = 1 + static_cast<int>(rng() % 300);
    const auto items = static_cast<std::size_t>(rng() % (round % 3 == 0 ? 4 : 400));
    std::vector<Cell> at(items);
    for (Cell& c : at) c = {static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
    CellBuckets b;
    b.assign(at, w, h);
    for (int q = 0; q < 20; ++q) {
      const Cell p{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
      const int r = static_cast<int>(rng() % 80);
      std::vector<int> offered(items, 0);
      b.in_box(p.x - r, p.y - r, p.x + r, p.y + r, [&](std::uint32_t i) { ++offered[i]; });
      double least = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < items; ++i) {
        EXPECT_LE(offered[i], 1) << round << " item " << i;
        const bool inside = std::abs(at[i].x - p.x) <= r && std::abs(at[i].y - p.y) <= r;
        if (inside) {
          EXPECT_EQ(offered[i], 1) << round << " item " << i;
        }
        least = std::min(least, octile(p, at[i]));
      }
      EXPECT_EQ(b.nearest(p, [&](std::uint32_t i) { return octile(p, at[i]); }), least)
          << round << " at " << p.x << "," << p.y;
    }
  }
}
