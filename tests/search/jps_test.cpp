// jps and jps+ (shared docs/ALGORITHMS.md, "Jump Point Search"): on thousands of random grids
// they find a path exactly when the reference Dijkstra does, at its cost; every path is legal
// under no-corner-cut and lists every cell; terrain maps and other diagonal rules fall back to
// A* with a note; the trace replays to the path; the JPS+ table round-trips
// through save/load and a changed map, another version or a damaged file is rejected; and a
// fixed sample of every Moving AI scenario file is solved at the scenario's optimal length.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>

#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "movingai.hpp"
#include "path_checks.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using pathlab::testing::dist_at;
using pathlab::testing::passable_cells;
using pathlab::testing::random_grid;
using pathlab::testing::reference_distances;
using pathlab::testing::varied_random_grid;
using search::Algorithm;

namespace {

void expect_sound(const grid::Grid& g, const grid::Moves& m, const search::Result& r, Cell s,
                  Cell t, const std::string& what) {
  pathlab::testing::expect_sound_path(g, m, r.path, r.cost, s, t, what);
}

constexpr Algorithm kJps[] = {Algorithm::jps, Algorithm::jps_plus};

TEST(Jps, RegisteredAsOptimal) {
  EXPECT_EQ(search::parse_algorithm("jps"), Algorithm::jps);
  EXPECT_EQ(search::parse_algorithm("jps+"), Algorithm::jps_plus);
  EXPECT_TRUE(search::info(Algorithm::jps).optimal);
  EXPECT_TRUE(search::info(Algorithm::jps_plus).optimal);
  EXPECT_FALSE(search::info(Algorithm::jps).any_angle);
  EXPECT_TRUE(search::uses_preparation(Algorithm::jps_plus));
  EXPECT_FALSE(search::uses_preparation(Algorithm::jps));
}

// Random grids: 0-40 % walls, sizes from 1xN to 48x48, with and without a wall border, both
// cost models; several starts each, every reachable goal compared with the reference.
TEST(Jps, RandomGridsMatchReferenceDijkstra) {
  std::mt19937 rng(20240607);
  int grids = 0, queries = 0, found = 0;
  for (int i = 0; i < 3000; ++i) {
    const grid::Grid g = varied_random_grid(rng, i);
    const auto cells = passable_cells(g);
    if (cells.empty()) continue;
    ++grids;
    grid::Moves m;
    if (i % 4 == 3) m.cost_model = grid::CostModel::integer;
    search::Options o;
    o.moves = m;
    o.algorithm = Algorithm::jps;
    search::Pathfinder jps(g, o);
    o.algorithm = Algorithm::jps_plus;
    search::Pathfinder plus(g, o);
    search::Result r;
    for (int q = 0; q < 3; ++q) {
      const Cell s = cells[rng() % cells.size()];
      const auto ref = reference_distances(g, m, s);
      for (int k = 0; k < 6; ++k) {
        const Cell t = cells[rng() % cells.size()];
        const double opt = dist_at(ref, g, t);
        for (search::Pathfinder* f : {&jps, &plus}) {
          ++queries;
          f->find(s, t, r);
          const std::string what = std::string(search::to_string(f->options().algorithm)) +
                                   " grid " + std::to_string(i) + " (" + std::to_string(s.x) + "," +
                                   std::to_string(s.y) + ")->(" + std::to_string(t.x) + "," +
                                   std::to_string(t.y) + ")";
          if (std::isinf(opt)) {
            ASSERT_EQ(r.status, Status::no_path) << what;
            EXPECT_TRUE(r.path.empty()) << what;
            continue;
          }
          ASSERT_EQ(r.status, Status::found) << what;
          ++found;
          EXPECT_NEAR(r.cost, opt, 1e-9 * std::max(1.0, opt)) << what;
          expect_sound(g, m, r, s, t, what);
          EXPECT_TRUE(r.note.empty()) << what;
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
  EXPECT_GT(grids, 2500);
  EXPECT_GT(found, queries / 3);
}

// Long open rows and columns: several 64-cell words per jump, goals on the scanned lines.
TEST(Jps, WideMapsAcrossWordBoundaries) {
  std::mt19937 rng(7);
  for (int i = 0; i < 60; ++i) {
    const int w = 60 + static_cast<int>(rng() % 300), h = 1 + static_cast<int>(rng() % 200);
    grid::Grid g = random_grid(static_cast<std::uint32_t>(rng()), i % 2 ? w : h, i % 2 ? h : w,
                               static_cast<int>(rng() % 6), false);
    const auto cells = passable_cells(g);
    if (cells.empty()) continue;
    const Cell s = cells[rng() % cells.size()];
    const auto ref = reference_distances(g, {}, s);
    for (const Algorithm a : kJps) {
      search::Options o;
      o.algorithm = a;
      search::Pathfinder f(g, o);
      for (int k = 0; k < 20; ++k) {
        Cell t = cells[rng() % cells.size()];
        if (k % 4 == 0) t = {t.x, s.y};  // on the start's row or column
        if (k % 4 == 1) t = {s.x, t.y};
        if (!g.passable(t)) continue;
        const auto r = f.find(s, t);
        const double opt = dist_at(ref, g, t);
        if (std::isinf(opt)) {
          EXPECT_EQ(r.status, Status::no_path);
          continue;
        }
        ASSERT_EQ(r.status, Status::found) << search::to_string(a) << " map " << i;
        EXPECT_NEAR(r.cost, opt, 1e-9 * opt) << search::to_string(a) << " map " << i;
        expect_sound(g, {}, r, s, t, std::string(search::to_string(a)));
      }
    }
  }
}

TEST(Jps, TrivialQueries) {
  grid::Grid g(5, 1);
  for (const Algorithm a : kJps) {
    search::Options o;
    o.algorithm = a;
    search::Pathfinder f(g, o);
    auto r = f.find({2, 0}, {2, 0});
    ASSERT_EQ(r.status, Status::found);
    EXPECT_EQ(r.path.size(), 1u);
    EXPECT_EQ(r.cost, 0);
    r = f.find({0, 0}, {4, 0});
    EXPECT_EQ(r.path.size(), 5u);
    EXPECT_DOUBLE_EQ(r.cost, 4);
    g.set_blocked(3, 0, true);  // the finder notices the changed walls
    EXPECT_EQ(f.find({0, 0}, {4, 0}).status, Status::no_path);
    g.set_blocked(3, 0, false);
  }
}

// Terrain maps and other diagonal rules: A* answers, with a note; the cost is the reference's.
TEST(Jps, FallsBackToAStarWithANote) {
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    const bool terrain = i % 2 == 0;
    grid::Grid g =
        random_grid(static_cast<std::uint32_t>(rng()), 1 + static_cast<int>(rng() % 30),
                    1 + static_cast<int>(rng() % 30), static_cast<int>(rng() % 35), terrain);
    const auto cells = passable_cells(g);
    if (cells.empty()) continue;
    grid::Moves m;
    if (!terrain || i % 4 == 0) {
      const grid::DiagonalRule rules[] = {grid::DiagonalRule::never, grid::DiagonalRule::one_corner,
                                          grid::DiagonalRule::always};
      m.diagonal = rules[rng() % 3];
    }
    if (terrain && i % 4 == 2) m.diagonal = grid::DiagonalRule::no_corner_cut;
    const Cell s = cells[rng() % cells.size()];
    const auto ref = reference_distances(g, m, s);
    for (const Algorithm a : kJps) {
      search::Options o;
      o.algorithm = a;
      o.moves = m;
      ASSERT_FALSE(search::fallback_note(g, o).empty());
      search::Pathfinder f(g, o);
      for (int k = 0; k < 5; ++k) {
        const Cell t = cells[rng() % cells.size()];
        const auto r = f.find(s, t);
        const double opt = dist_at(ref, g, t);
        EXPECT_EQ(r.note, search::fallback_note(g, o));
        if (std::isinf(opt)) {
          EXPECT_EQ(r.status, Status::no_path);
          continue;
        }
        ASSERT_EQ(r.status, Status::found);
        EXPECT_NEAR(r.cost, opt, 1e-9 * std::max(1.0, opt));
        expect_sound(g, m, r, s, t, "fallback");
      }
    }
  }
  search::Options o;
  o.algorithm = Algorithm::jps;
  EXPECT_TRUE(search::fallback_note(grid::Grid(4, 4), o).empty());
  EXPECT_NE(search::fallback_note(grid::Grid(4, 4), o), "x");
}

// The trace lists the jump points the search opened and closed, then re-parents the path's
// cells: replayed, it gives exactly the returned path; tracing changes nothing; one closed
// event per expansion.
TEST(Jps, TraceReplaysToThePath) {
  std::mt19937 rng(11);
  for (int i = 0; i < 300; ++i) {
    grid::Grid g =
        random_grid(static_cast<std::uint32_t>(rng()), 2 + static_cast<int>(rng() % 40),
                    2 + static_cast<int>(rng() % 40), static_cast<int>(rng() % 35), false);
    const auto cells = passable_cells(g);
    if (cells.size() < 2) continue;
    const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
    for (const Algorithm a : kJps) {
      search::Options o;
      o.algorithm = a;
      search::Pathfinder f(g, o);
      search::TraceRecorder rec;
      const auto traced = f.find(s, t, &rec);
      const auto plain = f.find(s, t);
      ASSERT_EQ(traced.status, plain.status);
      ASSERT_EQ(traced.path, plain.path);
      ASSERT_EQ(traced.stats.expanded, plain.stats.expanded);
      std::size_t closed = 0;
      for (const auto& e : rec.events()) closed += e.type == search::EventType::closed;
      EXPECT_EQ(closed, traced.stats.expanded);
      if (traced.status != Status::found) continue;
      const auto replayed = search::replay_path(rec.events(), s, t);
      ASSERT_TRUE(replayed.has_value());
      EXPECT_EQ(*replayed, traced.path) << search::to_string(a) << " grid " << i;
    }
  }
}

// The node budget counts jump points expanded.
TEST(Jps, ObeysTheNodeBudget) {
  grid::Grid g(200, 200);
  for (int y = 1; y < 200; y += 2) {
    for (int x = 0; x < 200; ++x) g.set_blocked(x, y, true);
    g.set_blocked(y % 4 == 1 ? 199 : 0, y, false);
  }
  for (const Algorithm a : kJps) {
    search::Options o;
    o.algorithm = a;
    const auto full = search::Pathfinder(g, o).find({0, 0}, {0, 198});
    ASSERT_EQ(full.status, Status::found);
    o.node_limit = full.stats.expanded / 2;
    const auto r = search::Pathfinder(g, o).find({0, 0}, {0, 198});
    EXPECT_EQ(r.status, Status::node_limit);
    EXPECT_LE(r.stats.expanded, o.node_limit);
  }
}

// --- JPS+ preparation: build, share, save and load ------------------------------------------

search::Options plus_options() {
  search::Options o;
  o.algorithm = Algorithm::jps_plus;
  return o;
}

TEST(JpsPlus, PrepareReportsTimeAndMemoryAndTheFirstQueryBuilds) {
  const grid::Grid g = random_grid(5, 120, 80, 20, false);
  search::Pathfinder f(g, plus_options());
  EXPECT_FALSE(search::prepared_info(f).ready);
  const auto info = search::prepare(f);
  ASSERT_TRUE(info.ready);
  EXPECT_FALSE(info.loaded);
  EXPECT_GE(info.seconds, 0);
  EXPECT_GE(info.bytes, static_cast<std::size_t>(g.cells()) * 16);
  search::Pathfinder lazy(g, plus_options());
  const auto cells = passable_cells(g);
  (void)lazy.find(cells.front(), cells.back());
  EXPECT_TRUE(search::prepared_info(lazy).ready);
  // Nothing to prepare for jps, or for jps+ on a terrain map (it answers with A*).
  search::Options o;
  o.algorithm = Algorithm::jps;
  search::Pathfinder plain(g, o);
  EXPECT_FALSE(search::prepare(plain).ready);
  const grid::Grid terrain = random_grid(5, 20, 20, 20, true);
  search::Pathfinder t(terrain, plus_options());
  EXPECT_FALSE(search::prepare(t).ready);
  std::stringstream ss;
  EXPECT_FALSE(search::save_prepared(t, ss));
}

TEST(JpsPlus, SharedTableGivesTheSameAnswers) {
  const grid::Grid g = random_grid(9, 90, 70, 25, false);
  search::Pathfinder a(g, plus_options()), b(g, plus_options());
  ASSERT_TRUE(search::prepare(a).ready);
  ASSERT_TRUE(search::share_prepared(a, b));
  EXPECT_TRUE(search::prepared_info(b).ready);
  const grid::Grid other = random_grid(10, 90, 70, 25, false);
  search::Pathfinder c(other, plus_options());
  EXPECT_FALSE(search::share_prepared(a, c));
  EXPECT_FALSE(search::prepared_info(c).ready);
  const auto cells = passable_cells(g);
  for (std::size_t i = 0; i < 50; ++i) {
    const Cell s = cells[(i * 97) % cells.size()], t = cells[(i * 31 + 7) % cells.size()];
    const auto ra = a.find(s, t), rb = b.find(s, t);
    EXPECT_EQ(ra.status, rb.status);
    EXPECT_EQ(ra.path, rb.path);
  }
}

TEST(JpsPlus, TableRoundTripsAndStaleOrForeignFilesAreRejected) {
  grid::Grid g = random_grid(21, 150, 90, 22, false);
  search::Pathfinder f(g, plus_options());
  std::stringstream file;
  ASSERT_TRUE(search::save_prepared(f, file));
  const std::string bytes = file.str();
  EXPECT_GE(bytes.size(), static_cast<std::size_t>(g.cells()) * 16);

  auto load = [](search::Pathfinder& into, const std::string& data) {
    std::istringstream in(data);
    return search::load_prepared(into, in);
  };
  search::Pathfinder loaded(g, plus_options());
  ASSERT_TRUE(load(loaded, bytes));
  const auto info = search::prepared_info(loaded);
  EXPECT_TRUE(info.ready);
  EXPECT_TRUE(info.loaded);
  EXPECT_EQ(info.bytes, search::prepared_info(f).bytes);
  // The loaded table answers like the built one, and saves to the same bytes.
  const auto cells = passable_cells(g);
  for (std::size_t i = 0; i < 60; ++i) {
    const Cell s = cells[(i * 53) % cells.size()], t = cells[(i * 29 + 3) % cells.size()];
    const auto a = f.find(s, t), b = loaded.find(s, t);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.path, b.path);
  }
  std::stringstream again;
  ASSERT_TRUE(search::save_prepared(loaded, again));
  EXPECT_EQ(again.str(), bytes);

  // One wall flipped: the file is stale.
  grid::Grid changed = g;
  changed.set_blocked(cells[cells.size() / 2], true);
  search::Pathfinder on_changed(changed, plus_options());
  EXPECT_FALSE(load(on_changed, bytes));
  EXPECT_FALSE(search::prepared_info(on_changed).ready);
  // Another map of the same size: foreign.
  const grid::Grid other = random_grid(22, 150, 90, 22, false);  // a Pathfinder keeps a pointer
  search::Pathfinder on_other(other, plus_options());
  EXPECT_FALSE(load(on_other, bytes));
  // Another format version (bytes 8..11 of the header).
  std::string version = bytes;
  const std::uint32_t v = search::kPreparedFormatVersion + 1;
  std::memcpy(version.data() + 8, &v, sizeof v);
  EXPECT_FALSE(load(loaded, version));
  // A damaged payload, a truncated file, an empty one, another magic.
  std::string damaged = bytes;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x10);
  search::Pathfinder fresh(g, plus_options());
  EXPECT_FALSE(load(fresh, damaged));
  EXPECT_FALSE(load(fresh, bytes.substr(0, bytes.size() - 2)));
  EXPECT_FALSE(load(fresh, ""));
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_FALSE(load(fresh, magic));
  EXPECT_FALSE(search::prepared_info(fresh).ready);
  // Loading into a jps finder (no table) is refused.
  search::Options o;
  o.algorithm = Algorithm::jps;
  search::Pathfinder jps(g, o);
  EXPECT_FALSE(load(jps, bytes));
  // Cache file names follow the map and the format.
  EXPECT_EQ(search::prepared_file_name(g, Algorithm::jps_plus),
            search::prepared_file_name(grid::Grid(g), Algorithm::jps_plus));
  EXPECT_NE(search::prepared_file_name(g, Algorithm::jps_plus),
            search::prepared_file_name(changed, Algorithm::jps_plus));
  EXPECT_NE(search::prepared_file_name(g, Algorithm::jps_plus).find("jps+-"), std::string::npos);
}

// The finder rebuilds its table when the grid's walls change between queries.
TEST(JpsPlus, ChangedWallsRebuildTheTable) {
  grid::Grid g(30, 3);
  search::Pathfinder f(g, plus_options());
  EXPECT_DOUBLE_EQ(f.find({0, 1}, {29, 1}).cost, 29);
  for (int y = 0; y < 3; ++y) g.set_blocked(15, y, true);
  EXPECT_EQ(f.find({0, 1}, {29, 1}).status, Status::no_path);
  g.set_blocked(15, 2, false);
  const auto r = f.find({0, 0}, {29, 0});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_NEAR(r.cost, 25 + 4 * std::sqrt(2.0), 1e-9);
}

// --- Moving AI ----------------------------------------------------------------------------

TEST(Jps, MovingAiSampleAtTheScenarioOptimum) {
  const auto files = pathlab::testing::movingai_scenario_files();
  if (files.empty()) GTEST_SKIP() << pathlab::testing::movingai_missing();
  std::size_t total = 0;
  for (const auto& file : files) {
    const auto scen = io::load_scenarios(file.string());
    const auto map = io::load_map(scen.map_path());
    const std::size_t step = std::max<std::size_t>(1, scen.entries.size() / 150);
    search::Options o;
    o.algorithm = Algorithm::jps;
    search::Pathfinder jps(map.grid, o);
    o.algorithm = Algorithm::jps_plus;
    search::Pathfinder plus(map.grid, o);
    search::Result r;
    for (std::size_t i = 0; i < scen.entries.size(); i += step) {
      const auto& e = scen.entries[i];
      ++total;
      for (search::Pathfinder* f : {&jps, &plus}) {
        f->find(e.start, e.goal, r);
        const std::string what = file.filename().string() + ":" + std::to_string(e.line) + " " +
                                 std::string(search::to_string(f->options().algorithm));
        ASSERT_EQ(r.status, Status::found) << what;
        EXPECT_TRUE(pathlab::testing::at_optimum(r.cost, e.optimal)) << what << ": " << r.cost;
        expect_sound(map.grid, {}, r, e.start, e.goal, what);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GE(total, 2000u);
}

}  // namespace

// A free octile path (diagonal steps then straight ones, or the reverse) is the answer without
// a search: no jump point expanded, the cost the octile distance. A blocked corner on it, or
// walls across both, leave the query to the search, which finds the optimum.
TEST(Jps, AFreeOctilePathIsAnsweredWithoutASearch) {
  const double kOctile = 5 * std::sqrt(2.0) + 7;  // (2, 3) to (14, 8): 5 diagonal, 7 straight
  for (const Algorithm a : kJps) {
    search::Options o;
    o.algorithm = a;
    const std::string name(search::to_string(a));
    grid::Grid g(20, 12);
    auto solve = [&](const grid::Grid& m) {
      return search::Pathfinder(m, o).find({2, 3}, {14, 8});
    };
    const auto open = solve(g);
    ASSERT_EQ(open.status, Status::found) << name;
    EXPECT_EQ(open.stats.expanded, 0u) << name;
    EXPECT_NEAR(open.cost, kOctile, 1e-9) << name;
    expect_sound(g, o.moves, open, {2, 3}, {14, 8}, name + " open");
    // The diagonal-first path would cut a corner at (4, 5)-(5, 6): the straight-first one is
    // taken instead, still without a search.
    g.set_blocked(5, 5, true);
    const auto corner = solve(g);
    EXPECT_EQ(corner.stats.expanded, 0u) << name;
    EXPECT_NEAR(corner.cost, kOctile, 1e-9) << name;
    expect_sound(g, o.moves, corner, {2, 3}, {14, 8}, name + " corner");
    // Both extreme paths blocked, a middle one free: the search answers at the same cost.
    g.set_blocked(9, 3, true);
    const auto middle = solve(g);
    EXPECT_GT(middle.stats.expanded, 0u) << name;
    EXPECT_NEAR(middle.cost, kOctile, 1e-9) << name;
    expect_sound(g, o.moves, middle, {2, 3}, {14, 8}, name + " middle");
    // A wall across every octile path: longer, and as Dijkstra finds it.
    for (int y = 0; y < 11; ++y) g.set_blocked(8, y, true);
    const auto around = solve(g);
    ASSERT_EQ(around.status, Status::found) << name;
    const auto ref = reference_distances(g, o.moves, {2, 3});
    EXPECT_NEAR(around.cost, dist_at(ref, g, {14, 8}), 1e-9) << name;
    EXPECT_GT(around.cost, kOctile + 0.5) << name;
    expect_sound(g, o.moves, around, {2, 3}, {14, 8}, name + " around");
  }
}
