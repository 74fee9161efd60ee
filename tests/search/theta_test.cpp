// Theta* and Lazy Theta* (shared docs/ALGORITHMS.md, "Line of sight and any-angle paths"):
// they find a path exactly when A* does, never longer than A*'s optimal grid path, every segment
// has line of sight (checked by the brute-force reference of the tests, not the library's LOS),
// the output is the turning cells with their centres and Euclidean length, and the trace replays
// to it and counts every line-of-sight check. On the Moving AI maps (sampled): never longer
// than the scenario's octile optimum.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include <pathlab/grid/los.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "../../libs/search/src/engine.hpp"
#include "movingai.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using namespace pathlab::testing;
using search::Algorithm;

namespace {

constexpr Algorithm kAnyAngle[] = {Algorithm::theta, Algorithm::lazytheta};

struct ThetaCase {
  grid::Grid grid;
  grid::Moves moves;
  Cell start, goal;
};

ThetaCase draw_case() {
  const int w = *rc::gen::inRange(1, 30);
  const int h = *rc::gen::inRange(1, 30);
  const int walls = *rc::gen::inRange(0, 45);
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  const grid::DiagonalRule rules[] = {grid::DiagonalRule::never, grid::DiagonalRule::no_corner_cut,
                                      grid::DiagonalRule::one_corner, grid::DiagonalRule::always};
  ThetaCase c{random_grid(seed, w, h, walls, false), {rules[*rc::gen::inRange(0, 4)]}, {}, {}};
  const auto cells = passable_cells(c.grid);
  RC_PRE(!cells.empty());
  c.start = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  c.goal = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  return c;
}

search::Result solve(const grid::Grid& g, grid::Moves m, Algorithm a, Cell s, Cell t,
                     search::SearchListener* l = nullptr) {
  search::Options o;
  o.algorithm = a;
  o.moves = m;
  search::Pathfinder f(g, o);
  return f.find(s, t, l);
}

/// Drops the vertices that lie on the straight line between their neighbours.
std::vector<Cell> turning(const std::vector<Cell>& chain) {
  std::vector<Cell> out;
  for (const Cell c : chain) {
    if (out.size() >= 2) {
      const Cell a = out[out.size() - 2], b = out.back();
      const long cross = long{b.x - a.x} * (c.y - b.y) - long{b.y - a.y} * (c.x - b.x);
      const long dot = long{b.x - a.x} * (c.x - b.x) + long{b.y - a.y} * (c.y - b.y);
      if (cross == 0 && dot > 0) out.pop_back();
    }
    out.push_back(c);
  }
  return out;
}

double euclid(const std::vector<Cell>& p) {
  double len = 0;
  for (std::size_t i = 1; i < p.size(); ++i)
    len += std::hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
  return len;
}

}  // namespace

RC_GTEST_PROP(Theta, FindsWhatAStarFindsNeverLongerAndEverySegmentSees, ()) {
  const ThetaCase c = draw_case();
  const auto astar = solve(c.grid, c.moves, Algorithm::astar, c.start, c.goal);
  const auto exact = solve(c.grid, c.moves, Algorithm::anyangle_exact, c.start, c.goal);
  RC_ASSERT(exact.status == astar.status);
  for (const Algorithm a : kAnyAngle) {
    const auto r = solve(c.grid, c.moves, a, c.start, c.goal);
    RC_LOG() << search::to_string(a) << " " << to_string(r.status) << " cost " << r.cost
             << " astar " << astar.cost << "\n";
    RC_ASSERT(r.status == astar.status);
    if (r.status != Status::found) continue;
    RC_ASSERT(r.path.front() == c.start);
    RC_ASSERT(r.path.back() == c.goal);
    RC_ASSERT(r.points.size() == r.path.size());
    for (std::size_t i = 0; i < r.path.size(); ++i) RC_ASSERT(r.points[i] == centre(r.path[i]));
    for (std::size_t i = 1; i < r.path.size(); ++i) {
      RC_ASSERT(r.path[i] != r.path[i - 1]);
      RC_ASSERT(reference_los(c.grid, c.moves.diagonal, r.path[i - 1], r.path[i]));
    }
    RC_ASSERT(turning(r.path) == r.path);  // only turning cells
    RC_ASSERT(near(r.cost, euclid(r.path)));
    RC_ASSERT(r.cost <= astar.cost + 1e-9);
    RC_ASSERT(r.cost >= exact.cost - 1e-9);
    RC_ASSERT(r.cost >= std::hypot(c.goal.x - c.start.x, c.goal.y - c.start.y) - 1e-9);
  }
}

RC_GTEST_PROP(Theta, TraceReplaysAndCountsEveryLineOfSightCheck, ()) {
  const ThetaCase c = draw_case();
  for (const Algorithm a : kAnyAngle) {
    search::TraceRecorder rec;
    const auto r = solve(c.grid, c.moves, a, c.start, c.goal, &rec);
    const auto plain = solve(c.grid, c.moves, a, c.start, c.goal);
    RC_ASSERT(r.status == plain.status);
    RC_ASSERT(r.path == plain.path);
    RC_ASSERT(r.stats.los_checks == plain.stats.los_checks);
    std::uint64_t los = 0;
    for (const auto& e : rec.events()) {
      if (e.type != search::EventType::line_of_sight) continue;
      ++los;
      // The recorded answer is the true one.
      if (e.cell != e.other)
        RC_ASSERT((e.g == 1.0) == reference_los(c.grid, c.moves.diagonal, e.cell, e.other));
    }
    RC_ASSERT(los == r.stats.los_checks);
    if (r.status != Status::found) continue;
    const auto replayed = search::replay_path(rec.events(), c.start, c.goal);
    RC_ASSERT(replayed.has_value());
    RC_ASSERT(turning(*replayed) == r.path);
  }
}

TEST(Theta, CutsTheCornerAStarMustWalk) {
  // An open 10x10 map: the any-angle path is the straight segment.
  grid::Grid g(10, 10);
  for (const Algorithm a : kAnyAngle) {
    const auto r = solve(g, {}, a, {0, 0}, {9, 4});
    ASSERT_EQ(r.status, Status::found);
    EXPECT_EQ(r.path, (std::vector<Cell>{{0, 0}, {9, 4}}));
    EXPECT_NEAR(r.cost, std::hypot(9.0, 4.0), 1e-12);
  }
  // The integer cost model scales lengths by 10.
  const auto r = solve(g, {grid::DiagonalRule::no_corner_cut, grid::CostModel::integer},
                       Algorithm::theta, {0, 0}, {9, 4});
  EXPECT_NEAR(r.cost, 10 * std::hypot(9.0, 4.0), 1e-9);
}

TEST(Theta, SteepSightLinesByColumnSeeWhatTheWalkSees) {
  // Theta*'s long steep sight lines go column by column over the walls by column
  // (detail::WallColumns, steep_line_of_sight): the same answers as grid::line_of_sight, on
  // tall maps sparse and dense, under every rule it serves; the columns follow edits.
  std::mt19937 rng(23);
  search::detail::WallColumns columns;
  int seen = 0, blocked = 0;
  for (int round = 0; round < 60; ++round) {
    const int w = 2 + static_cast<int>(rng() % 60), h = 20 + static_cast<int>(rng() % 200);
    grid::Grid g = pathlab::testing::random_grid(static_cast<std::uint32_t>(rng()), w, h,
                                                 static_cast<int>(rng() % 10), false);
    for (int edit = 0; edit < 2; ++edit) {
      columns.update(g);
      for (int k = 0; k < 200; ++k) {
        const int ax = static_cast<int>(rng() % w), ay = static_cast<int>(rng() % h);
        const int bx = static_cast<int>(rng() % w), by = static_cast<int>(rng() % h);
        if (ax == bx || !g.passable(ax, ay) || !g.passable(bx, by)) continue;
        for (const grid::DiagonalRule r :
             {grid::DiagonalRule::never, grid::DiagonalRule::no_corner_cut,
              grid::DiagonalRule::always}) {
          const bool want = grid::line_of_sight(g, r, Cell{ax, ay}, Cell{bx, by});
          const bool got = grid::dispatch_rule(r, [&](auto rule) {
            constexpr grid::DiagonalRule R = decltype(rule)::value;
            if constexpr (R == grid::DiagonalRule::one_corner) {
              return want;
            } else {
              return search::detail::steep_line_of_sight<R>(columns, ax, ay, bx, by);
            }
          });
          ASSERT_EQ(got, want) << w << "x" << h << " (" << ax << "," << ay << ") -> (" << bx << ","
                               << by << ") " << grid::to_string(r);
          (want ? seen : blocked) += 1;
        }
      }
      for (int k = 0; k < 30; ++k) {  // edits: the columns must be rebuilt
        const int x = static_cast<int>(rng() % w), y = static_cast<int>(rng() % h);
        g.set_blocked(x, y, !g.passable(x, y));
      }
    }
  }
  EXPECT_GT(seen, 500);
  EXPECT_GT(blocked, 500);
}

TEST(Theta, LazyThetaChecksFarFewerLinesOfSight) {
  // Open ground with rectangular buildings, like game maps: Theta* checks line of sight for
  // every neighbour its parent's line could improve, Lazy Theta* about once per expansion.
  grid::Grid g(120, 120);
  std::mt19937 rng(7);
  for (int k = 0; k < 40; ++k) {
    const int x0 = static_cast<int>(rng() % 110), y0 = static_cast<int>(rng() % 110);
    const int w = 2 + static_cast<int>(rng() % 9), h = 2 + static_cast<int>(rng() % 9);
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x) g.set_blocked(x, y, true);
  }
  const auto cells = passable_cells(g);
  std::uint64_t theta_checks = 0, lazy_checks = 0;
  double theta_len = 0, lazy_len = 0;
  for (std::size_t i = 0; i < 40; ++i) {
    const Cell s = cells[(i * 7919) % cells.size()], t = cells[(i * 104729 + 17) % cells.size()];
    const auto a = solve(g, {}, Algorithm::theta, s, t);
    const auto b = solve(g, {}, Algorithm::lazytheta, s, t);
    ASSERT_EQ(a.status, b.status);
    theta_checks += a.stats.los_checks;
    lazy_checks += b.stats.los_checks;
    theta_len += a.cost;
    lazy_len += b.cost;
  }
  EXPECT_GT(2 * theta_checks, 3 * lazy_checks) << theta_checks << " vs " << lazy_checks;
  EXPECT_NEAR(lazy_len / theta_len, 1.0, 0.01);
}

TEST(Theta, MovingAiScenariosAreNeverLongerThanTheOctileOptimum) {
  const std::filesystem::path dir = pathlab::testing::movingai_dir();
  if (!std::filesystem::exists(dir / "den520d.map")) {
    GTEST_SKIP() << pathlab::testing::movingai_missing();
  }
  for (const char* name : {"arena", "den520d", "ht_chantry", "maze512-8-0"}) {
    const auto map = io::load_map((dir / (std::string(name) + ".map")).string());
    const auto scen = io::load_scenarios((dir / (std::string(name) + ".map.scen")).string());
    const std::size_t step = std::max<std::size_t>(1, scen.entries.size() / 25);
    for (std::size_t i = 0; i < scen.entries.size(); i += step) {
      const auto& e = scen.entries[i];
      for (const Algorithm a : kAnyAngle) {
        const auto r = solve(map.grid, {}, a, e.start, e.goal);
        ASSERT_EQ(r.status, Status::found) << name << " #" << i;
        // Moving AI prints optima with 5-6 significant digits (docs/ALGORITHMS.md tolerance).
        EXPECT_LE(r.cost, e.optimal + 0.005 + 1e-5 * e.optimal)
            << name << " #" << i << " " << search::to_string(a);
        for (std::size_t k = 1; k < r.path.size(); ++k) {
          ASSERT_TRUE(
              reference_los(map.grid, grid::DiagonalRule::no_corner_cut, r.path[k - 1], r.path[k]))
              << name << " #" << i;
        }
      }
    }
  }
}
