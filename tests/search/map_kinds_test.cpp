// Every search on the map kinds of issue 29 (hex layouts, walls on cell edges, layered maps with
// links) against a Dijkstra over a graph built straight from the definitions of shared
// docs/ALGORITHMS.md (tests/common/map_kinds.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <random>
#include <set>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "map_kinds.hpp"

namespace pathlab {
namespace {

using grid::DiagonalRule;
using grid::Grid;
using grid::Layout;
using grid::Side;
using search::Algorithm;

using testing::kinds::build_reference;
using testing::kinds::Case;
using testing::kinds::dijkstra;
using testing::kinds::hops;
using testing::kinds::Kind;
using testing::kinds::kInf;
using testing::kinds::name;
using testing::kinds::near;
using testing::kinds::random_case;
using testing::kinds::Reference;
using testing::kinds::reference_cost;
using testing::kinds::usable_cells;

// --- the tests ----------------------------------------------------------------------------------

class MapKinds : public ::testing::TestWithParam<Kind> {};

TEST_P(MapKinds, OptimalSearchesEqualDijkstraOverTheDefinitions) {
  std::mt19937 rng(1234 + static_cast<int>(GetParam()));
  const Algorithm optimal[] = {Algorithm::dijkstra, Algorithm::astar,     Algorithm::biastar,
                               Algorithm::idastar,  Algorithm::jps,       Algorithm::jps_plus,
                               Algorithm::subgoal,  Algorithm::subgoal_ch};
  int compared = 0, found = 0;
  for (int round = 0; round < 40; ++round) {
    Case c = random_case(GetParam(), rng, round);
    const Reference ref = build_reference(c.grid, c.unit, c.moves);
    const auto cells = usable_cells(ref);
    if (cells.size() < 2) continue;
    for (int q = 0; q < 6; ++q) {
      const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
      const auto dist = dijkstra(ref, {ref.index(s)});
      const double want = dist[static_cast<std::size_t>(ref.index(t))];
      const auto moves = hops(ref, ref.index(s));
      for (const Algorithm a : optimal) {
        search::Options o;
        o.algorithm = a;
        o.moves = c.moves;
        o.unit = c.unit;
        search::Pathfinder f(c.grid, o);
        const auto r = f.find(s, t);
        SCOPED_TRACE(::testing::Message()
                     << name(GetParam()) << " round " << round << " " << search::to_string(a)
                     << " layout " << grid::to_string(c.grid.layout()) << " rule "
                     << grid::to_string(c.moves.diagonal) << " from " << s.x << "," << s.y << " to "
                     << t.x << "," << t.y);
        ++compared;
        if (want == kInf) {
          EXPECT_EQ(r.status, Status::no_path);
          continue;
        }
        ASSERT_EQ(r.status, Status::found);
        ++found;
        EXPECT_TRUE(near(r.cost, want)) << r.cost << " vs " << want;
        EXPECT_TRUE(near(reference_cost(ref, r.path), want)) << "the path is not what it costs";
        EXPECT_EQ(r.path.front(), s);
        EXPECT_EQ(r.path.back(), t);
        if (a == Algorithm::jps || a == Algorithm::jps_plus || a == Algorithm::subgoal ||
            a == Algorithm::subgoal_ch) {
          EXPECT_EQ(r.fallback, search::Fallback::map_kind);
          EXPECT_EQ(r.answered_by, Algorithm::astar);
          EXPECT_FALSE(r.note.empty());
        }
      }
      // Fewest moves.
      for (const Algorithm a : {Algorithm::bfs, Algorithm::bibfs, Algorithm::iddfs}) {
        search::Options o;
        o.algorithm = a;
        o.moves = c.moves;
        o.unit = c.unit;
        search::Pathfinder f(c.grid, o);
        const auto r = f.find(s, t);
        SCOPED_TRACE(::testing::Message()
                     << name(GetParam()) << " round " << round << " " << search::to_string(a));
        if (want == kInf) {
          EXPECT_EQ(r.status, Status::no_path);
          continue;
        }
        ASSERT_EQ(r.status, Status::found);
        EXPECT_EQ(static_cast<int>(r.moves()), moves[static_cast<std::size_t>(ref.index(t))]);
        EXPECT_GE(reference_cost(ref, r.path), 0) << "an illegal step";
      }
      // Weighted A* and greedy: legal paths, within w times the optimum for wastar.
      for (const Algorithm a : {Algorithm::wastar, Algorithm::greedy, Algorithm::dfs}) {
        search::Options o;
        o.algorithm = a;
        o.moves = c.moves;
        o.unit = c.unit;
        search::Pathfinder f(c.grid, o);
        const auto r = f.find(s, t);
        if (want == kInf) {
          EXPECT_EQ(r.status, Status::no_path);
          continue;
        }
        ASSERT_EQ(r.status, Status::found) << search::to_string(a);
        const double cost = reference_cost(ref, r.path);
        EXPECT_GE(cost, 0) << search::to_string(a) << " took an illegal step";
        EXPECT_TRUE(near(cost, r.cost)) << search::to_string(a);
        if (a == Algorithm::wastar) {
          EXPECT_LE(r.cost, 2 * want + 1e-6);
        }
      }
    }
  }
  EXPECT_GT(compared, 500);
  EXPECT_GT(found, 300);
}

TEST_P(MapKinds, QueryShapesEqualDijkstra) {
  std::mt19937 rng(99 + static_cast<int>(GetParam()));
  for (int round = 0; round < 30; ++round) {
    Case c = random_case(GetParam(), rng, round);
    const Reference ref = build_reference(c.grid, c.unit, c.moves);
    const auto cells = usable_cells(ref);
    if (cells.size() < 4) continue;
    search::Options o;
    o.moves = c.moves;
    o.unit = c.unit;
    search::Pathfinder f(c.grid, o);
    const Cell s = cells[rng() % cells.size()];
    const auto dist = dijkstra(ref, {ref.index(s)});
    SCOPED_TRACE(::testing::Message() << name(GetParam()) << " round " << round);
    // Movement range.
    const double budget = 1 + static_cast<double>(rng() % 12);
    std::vector<search::ReachCell> range;
    ASSERT_EQ(f.reach(s, budget, range), Status::found);
    std::size_t want = 0;
    for (std::size_t i = 0; i < dist.size(); ++i) want += dist[i] <= budget + 1e-9 ? 1 : 0;
    EXPECT_EQ(range.size(), want);
    for (const auto& rc : range)
      EXPECT_TRUE(near(rc.cost, dist[static_cast<std::size_t>(ref.index(rc.cell))]));
    // Nearest of several goals.
    std::vector<Cell> goals;
    for (int k = 0; k < 3; ++k) goals.push_back(cells[rng() % cells.size()]);
    double best = kInf;
    for (const Cell gl : goals)
      best = std::min(best, dist[static_cast<std::size_t>(ref.index(gl))]);
    for (const Algorithm a : {Algorithm::astar, Algorithm::dijkstra, Algorithm::biastar}) {
      o.algorithm = a;
      f.set_options(o);
      search::Result r;
      f.find_nearest(s, goals, r);
      if (best == kInf) {
        EXPECT_EQ(r.status, Status::no_path);
      } else {
        ASSERT_EQ(r.status, Status::found);
        EXPECT_TRUE(near(r.cost, best)) << search::to_string(a) << " " << r.cost << " vs " << best;
      }
    }
    // Partial path toward an unreachable goal: a legal path to a reached cell.
    o.algorithm = Algorithm::astar;
    o.partial = true;
    f.set_options(o);
    for (const Cell t : cells) {
      if (dist[static_cast<std::size_t>(ref.index(t))] != kInf) continue;
      const auto r = f.find(s, t);
      EXPECT_EQ(r.status, Status::no_path);
      ASSERT_FALSE(r.partial.path.empty());
      EXPECT_EQ(r.partial.path.front(), s);
      EXPECT_TRUE(near(reference_cost(ref, r.partial.path),
                       dist[static_cast<std::size_t>(ref.index(r.partial.reached))]))
          << "a partial path is a least-cost path to its cell";
      break;
    }
    o.partial = false;
  }
}

TEST_P(MapKinds, SlicedEqualsWhole) {
  std::mt19937 rng(7 + static_cast<int>(GetParam()));
  for (int round = 0; round < 12; ++round) {
    Case c = random_case(GetParam(), rng, round);
    const Reference ref = build_reference(c.grid, c.unit, c.moves);
    const auto cells = usable_cells(ref);
    if (cells.size() < 2) continue;
    search::Options o;
    o.moves = c.moves;
    o.unit = c.unit;
    search::Pathfinder whole(c.grid, o), sliced(c.grid, o);
    const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
    const auto r = whole.find(s, t);
    ASSERT_TRUE(sliced.start_sliced(s, t));
    search::Result out;
    int slices = 0;
    while (!sliced.run_slice(3, out)) ++slices;
    EXPECT_EQ(out.status, r.status);
    EXPECT_EQ(out.stats.expanded, r.stats.expanded);
    if (r.status == Status::found) {
      EXPECT_TRUE(near(out.cost, r.cost));
    }
  }
}

TEST_P(MapKinds, AnyAngleSearchesSeeEverySegmentOrAnswerWithAStar) {
  std::mt19937 rng(31 + static_cast<int>(GetParam()));
  int checked = 0;
  for (int round = 0; round < 24; ++round) {
    Case c = random_case(GetParam(), rng, round);
    c.unit = grid::Unit{};
    const Reference ref = build_reference(c.grid, c.unit, c.moves);
    const auto cells = usable_cells(ref);
    if (cells.size() < 2) continue;
    const Cell s = cells[rng() % cells.size()], t = cells[rng() % cells.size()];
    const double want = dijkstra(ref, {ref.index(s)})[static_cast<std::size_t>(ref.index(t))];
    const bool edges_only = GetParam() == Kind::edges && c.grid.arcs().empty();
    for (const Algorithm a : {Algorithm::theta, Algorithm::lazytheta, Algorithm::anyangle_exact}) {
      search::Options o;
      o.algorithm = a;
      o.moves = c.moves;
      search::Pathfinder f(c.grid, o);
      const auto r = f.find(s, t);
      SCOPED_TRACE(::testing::Message()
                   << name(GetParam()) << " round " << round << " " << search::to_string(a));
      if (want == kInf) {
        EXPECT_EQ(r.status, Status::no_path);
        continue;
      }
      ASSERT_EQ(r.status, Status::found);
      ++checked;
      if (!edges_only) {
        // Hex, floors, links: A* answers, at the optimum.
        EXPECT_EQ(r.fallback, search::Fallback::map_kind);
        EXPECT_EQ(r.answered_by, Algorithm::astar);
        EXPECT_TRUE(near(r.cost, want));
        EXPECT_TRUE(near(reference_cost(ref, r.path), want));
        continue;
      }
      EXPECT_EQ(r.answered_by, a == Algorithm::anyangle_exact ? Algorithm::theta : a);
      for (std::size_t i = 1; i < r.path.size(); ++i) {
        EXPECT_TRUE(grid::line_of_sight(c.grid, c.moves.diagonal, r.path[i - 1], r.path[i]))
            << "segment " << i << " crosses a wall or a thin wall";
      }
    }
  }
  EXPECT_GT(checked, 20);
}

INSTANTIATE_TEST_SUITE_P(Kinds, MapKinds,
                         ::testing::Values(Kind::hex, Kind::edges, Kind::layered,
                                           Kind::layered_hex),
                         [](const auto& info) {
                           switch (info.param) {
                             case Kind::hex:
                               return std::string("Hex");
                             case Kind::edges:
                               return std::string("EdgeWalls");
                             case Kind::layered:
                               return std::string("Layered");
                             default:
                               return std::string("LayeredHex");
                           }
                         });

TEST(MapKindsGrid, EdgeWallEditsEqualAFreshBuild) {
  std::mt19937 rng(5);
  for (int round = 0; round < 50; ++round) {
    const int w = 3 + static_cast<int>(rng() % 8), h = 3 + static_cast<int>(rng() % 8);
    Grid edited(w, h);
    std::vector<std::vector<std::array<bool, 4>>> want(
        static_cast<std::size_t>(h), std::vector<std::array<bool, 4>>(static_cast<std::size_t>(w)));
    for (int i = 0; i < 40; ++i) {
      const int x = static_cast<int>(rng() % w), y = static_cast<int>(rng() % h);
      const Side sd = static_cast<Side>(rng() % 4);
      const bool up = rng() % 3 != 0;
      edited.set_edge_wall(x, y, sd, up);
      // The same edge named from the other cell.
      want[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)][static_cast<int>(sd)] = up;
      const int nx = x + (sd == Side::east) - (sd == Side::west);
      const int ny = y + (sd == Side::south) - (sd == Side::north);
      if (nx >= 0 && ny >= 0 && nx < w && ny < h) {
        want[static_cast<std::size_t>(ny)][static_cast<std::size_t>(nx)]
            [(static_cast<int>(sd) + 2) % 4] = up;
      }
    }
    Grid fresh(w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        for (int k = 0; k < 4; ++k) {
          EXPECT_EQ(edited.edge_wall(x, y, static_cast<Side>(k)),
                    want[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)][k]);
          if (want[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)][k]) {
            fresh.set_edge_wall(x, y, static_cast<Side>(k), true);
          }
        }
      }
    }
    EXPECT_TRUE(edited == fresh);
    EXPECT_EQ(edited.checksum(), fresh.checksum());
  }
}

TEST(MapKindsGrid, EditsRepairFindersAndUnitViews) {
  // A finder built before edits of edge walls and links answers as a fresh one after them.
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    Grid g = Grid::layered(10, 8, 2);
    search::Options o;
    o.unit.set('S', 2.0f);
    for (int i = 0; i < 20; ++i) {
      const Cell c = g.at(static_cast<int>(rng() % 2), static_cast<int>(rng() % 10),
                          static_cast<int>(rng() % 8));
      g.set_class(c.x, c.y, rng() % 2 ? '@' : 'S');
    }
    search::Pathfinder before(g, o);
    const Cell s = g.at(0, 0, 0), t = g.at(1, 9, 7);
    g.set_class(s.x, s.y, '.');
    g.set_class(t.x, t.y, '.');
    (void)before.find(s, t);
    grid::Link l{g.at(0, 5, 4), g.at(1, 5, 4), 2.0f, false};
    g.set_class(l.from.x, l.from.y, '.');
    g.set_class(l.to.x, l.to.y, '.');
    ASSERT_FALSE(g.add_link(l).has_value());
    for (int i = 0; i < 10; ++i) {
      g.set_edge_wall(static_cast<int>(rng() % 10), static_cast<int>(rng() % 8), Side::east, true);
    }
    search::Pathfinder fresh(g, o);
    const auto a = before.find(s, t), b = fresh.find(s, t);
    EXPECT_EQ(a.status, b.status);
    if (a.status == Status::found) {
      EXPECT_NEAR(a.cost, b.cost, 1e-9);
    }
    const Reference ref = build_reference(g, o.unit, o.moves);
    const double want = dijkstra(ref, {ref.index(s)})[static_cast<std::size_t>(ref.index(t))];
    if (want == kInf) {
      EXPECT_EQ(a.status, Status::no_path);
    } else {
      EXPECT_TRUE(near(a.cost, want));
    }
  }
}

TEST(MapKindsGrid, RowsBetweenLayersAreNotCells) {
  Grid g = Grid::layered(5, 4, 3);
  EXPECT_EQ(g.layers(), 3);
  EXPECT_EQ(g.layer_height(), 4);
  EXPECT_EQ(g.layer_pitch() % 2, 0);
  for (int y = 0; y < g.height(); ++y) {
    const bool sep = g.between_layers(y);
    EXPECT_EQ(sep, g.local_y(y) >= 4);
    if (sep) {
      EXPECT_FALSE(g.passable(0, y));
      grid::Edit e;
      e.kind = grid::Edit::Kind::free;
      e.area = {0, y, 0, y};
      EXPECT_TRUE(g.apply(e).has_value());
      EXPECT_THROW(g.set_blocked(0, y, false), std::out_of_range);
    }
  }
  EXPECT_EQ(g.wall_count(), 0);
  EXPECT_EQ(g.at(2, 1, 3).y, 2 * g.layer_pitch() + 3);
  EXPECT_EQ(g.layer_of(g.at(2, 1, 3).y), 2);
  EXPECT_TRUE(g.add_link({g.at(0, 0, 0), {0, 4}, 1.0f, false}).has_value())
      << "a link end between floors";
  EXPECT_TRUE(g.add_link({g.at(0, 0, 0), g.at(1, 0, 0), 0.0f, false}).has_value())
      << "a link cost of 0";
}

}  // namespace
}  // namespace pathlab

namespace pathlab {
namespace {

TEST(MapKindsGrid, EdgeWallEditsParse) {
  grid::Edit e;
  ASSERT_FALSE(grid::parse_edit("wall-e:3,1:1,2", e).has_value());
  EXPECT_EQ(e.kind, grid::Edit::Kind::edge_wall);
  EXPECT_EQ(e.side, grid::Side::east);
  EXPECT_EQ(e.area, (grid::Rect{1, 1, 3, 2}));
  ASSERT_FALSE(grid::parse_edit("open-n:0,0", e).has_value());
  EXPECT_EQ(e.kind, grid::Edit::Kind::edge_open);
  EXPECT_EQ(e.side, grid::Side::north);
  const auto bad = grid::parse_edit("wall-x:0,0", e);
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->find("n, e, s or w"), std::string::npos);
  // Applied: the wall stands between (3,1) and (4,1), seen from both cells.
  grid::Grid g(6, 4);
  ASSERT_FALSE(grid::parse_edit("wall-e:3,1", e).has_value());
  ASSERT_FALSE(g.apply(e).has_value());
  EXPECT_TRUE(g.edge_wall(4, 1, grid::Side::west));
  // A hex layout and edge walls do not mix, either way round.
  EXPECT_THROW(g.set_layout(grid::Layout::pointy_odd_r), std::invalid_argument);
  grid::Grid h(6, 4);
  h.set_layout(grid::Layout::pointy_odd_r);
  EXPECT_TRUE(h.apply(e).has_value());
  EXPECT_THROW(h.set_edge_wall(1, 1, grid::Side::east, true), std::invalid_argument);
  // Hex maps name their edges by direction code: wall-0 .. wall-5; square maps refuse those.
  ASSERT_FALSE(grid::parse_edit("wall-4:2,1", e).has_value());
  EXPECT_EQ(e.hex_side, 4);
  ASSERT_FALSE(h.apply(e).has_value());
  EXPECT_TRUE(h.hex_edge_wall(2, 1, 4));
  EXPECT_TRUE(g.apply(e).has_value());
  EXPECT_TRUE(grid::parse_edit("wall-6:0,0", e).has_value());
  EXPECT_THROW(h.set_layout(grid::Layout::square), std::invalid_argument);
  EXPECT_NO_THROW(h.set_layout(grid::Layout::flat_even_q));  // hex to hex: edges stay edges
  // A floor before the cells, given the map: floor 1's rows stacked as Grid::at stacks them.
  const Grid tower = Grid::layered(6, 4, 3);
  ASSERT_FALSE(grid::parse_edit("wall:1:2,3:4,0", e, &tower).has_value());
  EXPECT_EQ(e.area, (grid::Rect{2, tower.at(1, 0, 0).y, 4, tower.at(1, 0, 3).y}));
  ASSERT_FALSE(grid::parse_edit("wall-east:2:0,1", e, &tower).has_value());
  EXPECT_EQ(e.side, grid::Side::east);
  EXPECT_EQ(e.area.y0, tower.at(2, 0, 1).y);
  EXPECT_TRUE(grid::parse_edit("wall:1:2,3", e).has_value());  // no map to name floors of
  for (const char* bad_floor : {"wall:3:0,0", "wall:-1:0,0", "wall:1:0,4", "wall:x:0,0"}) {
    EXPECT_TRUE(grid::parse_edit(bad_floor, e, &tower).has_value()) << bad_floor;
  }
}

TEST(MapKindsGrid, HexEdgeWallEditsEqualAFreshBuild) {
  // Each edge named from either of its hexes is the same edge; edits end equal to a grid built
  // with the walls that stand, whatever order and side they were put up and taken down from.
  std::mt19937 rng(31);
  constexpr grid::Layout kLayouts[] = {grid::Layout::pointy_odd_r, grid::Layout::pointy_even_r,
                                       grid::Layout::flat_odd_q, grid::Layout::flat_even_q};
  for (int round = 0; round < 60; ++round) {
    const int w = 3 + static_cast<int>(rng() % 8), h = 3 + static_cast<int>(rng() % 8);
    const grid::Layout l = kLayouts[round % 4];
    Grid edited(w, h);
    edited.set_layout(l);
    // The reference: the set of walled edges, each as the pair of its cells (outside included).
    std::set<std::pair<std::pair<int, int>, std::pair<int, int>>> want;
    auto neighbour = [&](int x, int y, int d) {
      const grid::hex::Axial a = grid::hex::to_axial(l, x, y);
      return grid::hex::from_axial(
          l, {a.q + testing::kinds::kHexDq[d], a.r + testing::kinds::kHexDr[d]});
    };
    auto key = [](Cell a, Cell b) {
      std::pair<int, int> p{a.x, a.y}, q{b.x, b.y};
      return p < q ? std::pair(p, q) : std::pair(q, p);
    };
    for (int i = 0; i < 40; ++i) {
      const int x = static_cast<int>(rng() % w), y = static_cast<int>(rng() % h);
      const int d = static_cast<int>(rng() % 6);
      const bool up = rng() % 3 != 0;
      edited.set_hex_edge_wall(x, y, d, up);
      if (up) {
        want.insert(key({x, y}, neighbour(x, y, d)));
      } else {
        want.erase(key({x, y}, neighbour(x, y, d)));
      }
    }
    EXPECT_EQ(edited.edge_wall_count(), static_cast<std::int64_t>(want.size()));
    Grid fresh(w, h);
    fresh.set_layout(l);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        for (int d = 0; d < 6; ++d) {
          const Cell n = neighbour(x, y, d);
          const bool walled = want.count(key({x, y}, n)) > 0;
          ASSERT_EQ(edited.hex_edge_wall(x, y, d), walled) << x << "," << y << " " << d;
          if (walled) fresh.set_hex_edge_wall(x, y, d, true);
        }
      }
    }
    EXPECT_TRUE(edited == fresh);
    EXPECT_EQ(edited.checksum(), fresh.checksum());
    if (!want.empty()) {
      Grid bare(w, h);
      bare.set_layout(l);
      EXPECT_FALSE(edited == bare);
      EXPECT_NE(edited.checksum(), bare.checksum());
    }
  }
}

}  // namespace
}  // namespace pathlab
