// The JPS+ table after map edits (shared docs/ALGORITHMS.md, "Changing maps"): repaired from
// the grid's change log, it equals a table built from nothing for the edited grid, entry for
// entry, over random edit sequences (single cells and rectangles, walls made and removed) on
// random, open and maze-like grids; and a finder repairs rather than rebuilds.
#include <gtest/gtest.h>

#include <random>

#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "../../libs/search/src/jps.hpp"
#include "test_grids.hpp"

using namespace pathlab;

TEST(JumpTableRepair, RepairedTableEqualsAFreshOneAfterRandomEdits) {
  std::mt19937 rng(41);
  for (std::uint32_t seed = 0; seed < 30; ++seed) {
    const int w = 8 + static_cast<int>(seed % 40), h = 6 + static_cast<int>(seed * 7 % 35);
    grid::Grid g =
        pathlab::testing::random_grid(seed, w, h, static_cast<int>(seed % 5) * 10, false);
    auto table = std::make_shared<search::detail::JumpTable>(*search::detail::build_jump_table(g));
    std::vector<std::uint64_t> scratch;
    std::vector<grid::Rect> changed;
    for (int step = 0; step < 40; ++step) {
      const std::uint64_t before = g.revision();
      grid::Edit e;
      e.kind = rng() % 2 == 0 ? grid::Edit::Kind::wall : grid::Edit::Kind::free;
      e.area.x0 = static_cast<int>(rng() % static_cast<unsigned>(w));
      e.area.y0 = static_cast<int>(rng() % static_cast<unsigned>(h));
      const int span = rng() % 4 == 0 ? 5 : 1;
      e.area.x1 = std::min(w - 1, e.area.x0 + static_cast<int>(rng() % span));
      e.area.y1 = std::min(h - 1, e.area.y0 + static_cast<int>(rng() % span));
      ASSERT_FALSE(g.apply(e).has_value());
      // Sometimes two edits before the repair: the log gives both.
      if (rng() % 3 == 0)
        g.set_blocked(static_cast<int>(rng() % w), static_cast<int>(rng() % h), rng() % 2 == 0);
      // Sometimes a pasted block of mixed cells (the dynamic track's patches).
      if (rng() % 4 == 0) {
        const int bw = 1 + static_cast<int>(rng() % std::min(6u, static_cast<unsigned>(w)));
        const int bh = 1 + static_cast<int>(rng() % std::min(6u, static_cast<unsigned>(h)));
        std::vector<std::uint8_t> block(static_cast<std::size_t>(bw * bh));
        for (auto& c : block) c = rng() % 3 == 0 ? 1 : 0;
        const Cell at{static_cast<int>(rng() % static_cast<unsigned>(w - bw + 1)),
                      static_cast<int>(rng() % static_cast<unsigned>(h - bh + 1))};
        ASSERT_FALSE(g.paste(at, bw, bh, block).has_value());
      }
      ASSERT_TRUE(g.changes_since(before, changed));
      search::detail::repair_jump_table(g, *table, changed, scratch);
      const auto fresh = search::detail::build_jump_table(g);
      ASSERT_TRUE(table->dist == fresh->dist) << "seed " << seed << " step " << step;
    }
  }
}

namespace {

/// The table's entry of free cell (x, y) in direction d by its definition, walked cell by cell
/// (shared docs/ALGORITHMS.md, jps and JPS+): straight, the distance to the first cell along
/// d with a forced neighbour (entered moving along d) before any wall, else 0; diagonal, the
/// number of legal diagonal steps (no corner cutting) to the first cell from which a straight
/// jump along either component finds a jump point (positive), else minus the number of legal
/// steps before the way is blocked.
int defined_entry(const grid::Grid& g, int x, int y, int d) {
  auto free = [&](int cx, int cy) { return g.passable(cx, cy); };
  const int dx = grid::kDx[d], dy = grid::kDy[d];
  auto forced = [&](int cx, int cy, int sx, int sy) {
    if (sy == 0) {
      return (free(cx, cy - 1) && !free(cx - sx, cy - 1)) ||
             (free(cx, cy + 1) && !free(cx - sx, cy + 1));
    }
    return (free(cx - 1, cy) && !free(cx - 1, cy - sy)) ||
           (free(cx + 1, cy) && !free(cx + 1, cy - sy));
  };
  auto straight = [&](int cx, int cy, int sx, int sy) {
    for (int k = 1;; ++k) {
      const int nx = cx + k * sx, ny = cy + k * sy;
      if (!free(nx, ny)) return 0;
      if (forced(nx, ny, sx, sy)) return k;
    }
  };
  if (dx == 0 || dy == 0) return straight(x, y, dx, dy);
  for (int k = 1;; ++k) {
    const int px = x + (k - 1) * dx, py = y + (k - 1) * dy;
    if (!(free(px + dx, py) && free(px, py + dy) && free(px + dx, py + dy))) return -(k - 1);
    if (straight(px + dx, py + dy, dx, 0) > 0 || straight(px + dx, py + dy, 0, dy) > 0) return k;
  }
}

void expect_defined(const grid::Grid& g, const search::detail::JumpTable& t, const char* what) {
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const std::int16_t* e = t.dist.data() + std::size_t{g.id(x, y)} * 8;
      for (int d = 0; d < 8; ++d) {
        // A wall's record: the wall mark in N, 0 elsewhere.
        const int want = g.passable(x, y) ? defined_entry(g, x, y, d) : d == 0 ? -32768 : 0;
        ASSERT_EQ(e[d], want) << what << ": cell " << x << "," << y << " direction " << d;
      }
    }
  }
}

}  // namespace

TEST(JumpTableRepair, EveryEntryFollowsItsDefinition) {
  // Entry by entry against the definitions, walked cell by cell: on random grids (open to
  // dense) and mazes, built afresh and after a paste over most of the map (a repair that
  // fills the table anew, as the dynamic track's first patch does).
  std::mt19937 rng(7);
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const int w = 5 + static_cast<int>(seed * 5 % 37), h = 4 + static_cast<int>(seed * 3 % 29);
    grid::Grid g = seed % 4 == 3 ? pathlab::testing::maze(seed, w / 3 + 2, h / 3 + 2, 1, 3)
                                 : pathlab::testing::random_grid(
                                       seed, w, h, static_cast<int>(seed % 4) * 12, false);
    auto table = std::make_shared<search::detail::JumpTable>(*search::detail::build_jump_table(g));
    expect_defined(g, *table, "built");
    if (::testing::Test::HasFatalFailure()) return;
    const int bw = g.width(), bh = g.height() - 1;
    std::vector<std::uint8_t> block(static_cast<std::size_t>(bw * bh));
    for (auto& c : block) c = rng() % 4 == 0 ? 1 : 0;
    const std::uint64_t before = g.revision();
    ASSERT_FALSE(g.paste({0, 1}, bw, bh, block).has_value());
    std::vector<std::uint64_t> scratch;
    std::vector<grid::Rect> changed;
    ASSERT_TRUE(g.changes_since(before, changed));
    search::detail::repair_jump_table(g, *table, changed, scratch);
    expect_defined(g, *table, "repaired after a paste over the map");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(JumpTableRepair, AFinderRepairsItsTableAndStaysOptimal) {
  std::mt19937 rng(3);
  grid::Grid g = pathlab::testing::random_grid(17, 120, 90, 25, false);
  search::Options o;
  o.algorithm = search::Algorithm::jps_plus;
  // The euclidean distance: jps+ then holds no landmarks (built again after edits that give
  // them up, they would change the prepared time this test reads for the table's).
  o.heuristic = search::Heuristic::euclidean;
  search::Pathfinder f(g, o);
  ASSERT_TRUE(search::prepare(f).ready);
  const double build_s = search::prepared_info(f).seconds;
  EXPECT_GT(build_s, 0);
  for (int step = 0; step < 60; ++step) {
    const int x = static_cast<int>(rng() % 120), y = static_cast<int>(rng() % 90);
    g.set_blocked(x, y, g.passable(x, y));
    const auto cells = pathlab::testing::passable_cells(g);
    const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
    const auto ref = pathlab::testing::reference_distances(g, o.moves, s);
    const search::Result r = f.find(s, t);
    const double want = pathlab::testing::dist_at(ref, g, t);
    if (std::isinf(want)) {
      EXPECT_EQ(r.status, Status::no_path);
    } else {
      ASSERT_EQ(r.status, Status::found) << step;
      EXPECT_TRUE(pathlab::testing::near(r.cost, want)) << step;
    }
    // Still the table prepared at first (repaired, not rebuilt: its build time is unchanged).
    EXPECT_EQ(search::prepared_info(f).seconds, build_s);
  }
}

// Fills and repairs of at least 8192 cells run on two cores where the process has them: the
// row passes and the chains of each direction split between the two (the JPS+ table's
// definitions say which entries each reads). On a map of 240 x 200 cells: a build (a fill),
// repairs after a batch of scattered patches (the dynamic track's batches, walked), and a
// paste over most of the map (a fill again), each entry against its definition. On one core
// the same steps run one after the other, and this checks them there.
TEST(JumpTableRepairThreads, LargeFillsAndRepairsFollowTheDefinitions) {
  std::mt19937 rng(23);
  for (std::uint32_t seed = 0; seed < 3; ++seed) {
    grid::Grid g = seed == 2 ? pathlab::testing::maze(seed, 119, 99, 1, 3)
                             : pathlab::testing::random_grid(seed, 240, 200, 10 + 15 * seed, false);
    const int w = g.width(), h = g.height();
    auto table = std::make_shared<search::detail::JumpTable>(*search::detail::build_jump_table(g));
    expect_defined(g, *table, "built");
    if (::testing::Test::HasFatalFailure()) return;
    std::vector<std::uint64_t> scratch;
    std::vector<grid::Rect> changed;
    for (int batch = 0; batch < 3; ++batch) {
      // 70 patches of 12 x 12 cells: 10,080 cells, under a quarter of the map (12,000).
      const std::uint64_t before = g.revision();
      for (int k = 0; k < 70; ++k) {
        std::vector<std::uint8_t> block(144);
        for (auto& c : block) c = rng() % 3 == 0 ? 1 : 0;
        const Cell at{static_cast<int>(rng() % static_cast<unsigned>(w - 11)),
                      static_cast<int>(rng() % static_cast<unsigned>(h - 11))};
        ASSERT_FALSE(g.paste(at, 12, 12, block).has_value());
      }
      ASSERT_TRUE(g.changes_since(before, changed));
      std::int64_t cells = 0;
      for (const grid::Rect& a : changed)
        cells += std::int64_t{a.x1 - a.x0 + 1} * (a.y1 - a.y0 + 1);
      ASSERT_GE(cells, 8192) << "the repair must be one that runs on two cores";
      ASSERT_LT(cells * 4, std::int64_t{w} * h) << "and be walked, not filled";
      search::detail::repair_jump_table(g, *table, changed, scratch);
      expect_defined(g, *table, "repaired after a batch of patches");
      if (::testing::Test::HasFatalFailure()) return;
    }
    std::vector<std::uint8_t> block(static_cast<std::size_t>(w * (h - 1)));
    for (auto& c : block) c = rng() % 5 == 0 ? 1 : 0;
    const std::uint64_t before = g.revision();
    ASSERT_FALSE(g.paste({0, 1}, w, h - 1, block).has_value());
    ASSERT_TRUE(g.changes_since(before, changed));
    search::detail::repair_jump_table(g, *table, changed, scratch);
    expect_defined(g, *table, "filled anew after a paste over the map");
    if (::testing::Test::HasFatalFailure()) return;
  }
}
