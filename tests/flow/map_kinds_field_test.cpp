// Flow fields on the map kinds of issue 29 (hex layouts, walls on cell edges, layered maps with
// links, one-way links included, unit class costs) against a Dijkstra written here over a graph
// built straight from the definitions of shared docs/ALGORITHMS.md ("Flow fields", "Hex grids",
// "Walls on cell edges", "Layered maps"): hex neighbours from the axial formulas, diagonal moves
// beside edge walls from their two-step routes, links from the link list. D must equal the
// reference, and following next() from every reachable cell must reach a goal at cost D.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/topology.hpp>
#include <pathlab/grid/unit.hpp>

#include "map_kinds.hpp"

namespace pathlab::flow_map_kinds_test {

using grid::DiagonalRule;
using grid::Grid;
using grid::Layout;
using grid::Side;

using testing::kinds::axial;
using testing::kinds::Case;
using testing::kinds::CaseOptions;
using testing::kinds::kHexDq;
using testing::kinds::kHexDr;
using testing::kinds::Kind;
using testing::kinds::kInf;
using testing::kinds::name;
using testing::kinds::near;
using Ref = testing::kinds::Reference;

/// The maps of these tests: up to 3 floors, no radius, square maps of every kind fenced every
/// third round, no fence taken down.
Case flow_case(Kind kind, std::mt19937& rng, int round) {
  CaseOptions o;
  o.max_layers = 3;
  o.radius = false;
  o.edge_walls_often = true;
  o.take_some_down = false;
  return testing::kinds::random_case(kind, rng, round, o);
}

/// The graph of the definitions.
Ref reference(const Grid& g, const grid::Unit& u, const grid::Moves& m) {
  return testing::kinds::build_reference(g, u, m);
}

/// D over the reference: a Dijkstra from the goals over reversed arcs.
std::vector<double> to_goals(const Ref& r, const std::vector<Cell>& goals) {
  std::vector<int> sources;
  for (const Cell c : goals) sources.push_back(r.index(c));
  return testing::kinds::dijkstra(testing::kinds::reversed(r), sources);
}

/// Whether `to` is where code d leads from `from` by a grid move (hex axial order or the
/// square kDirDx/kDirDy).
bool code_leads_to(const Grid& g, Cell from, Cell to, int d) {
  if (g.layer_of(from.y) != g.layer_of(to.y)) return false;
  if (grid::is_hex(g.layout())) {
    if (d < 0 || d >= 6) return false;
    const auto [q, r] = axial(g.layout(), from.x, g.local_y(from.y));
    const auto [q2, r2] = axial(g.layout(), to.x, g.local_y(to.y));
    return q2 - q == kHexDq[d] && r2 - r == kHexDr[d];
  }
  if (d < 0 || d >= 8) return false;
  return to.x - from.x == flow::kDirDx[static_cast<std::size_t>(d)] &&
         to.y - from.y == flow::kDirDy[static_cast<std::size_t>(d)];
}

/// The cheapest reference arc a -> b with the given kind (link or grid move), or kInf.
double arc_cost(const Grid& g, const Ref& r, Cell a, Cell b, bool link) {
  if (link) {
    double best = kInf;
    for (const grid::Link& l : g.links()) {
      if (l.from == a && l.to == b) best = std::min(best, static_cast<double>(l.cost));
      if (!l.oneway && l.to == a && l.from == b) best = std::min(best, static_cast<double>(l.cost));
    }
    return best;
  }
  return testing::kinds::arc_cost(r, a, b);
}

/// Checks the field of `goals` against the reference: D everywhere, the codes, and that
/// following next() reaches a goal at cost D.
void check(const Case& c, const flow::Field& f, const std::vector<Cell>& goals, int& followed) {
  const Ref ref = reference(c.grid, c.unit, c.moves);
  const auto want = to_goals(ref, goals);
  const Grid& g = c.grid;
  const int link = grid::link_direction(g.layout());
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const Cell s{x, y};
      const double w = want[static_cast<std::size_t>(ref.index(s))];
      SCOPED_TRACE(::testing::Message() << "cell " << x << "," << y);
      if (w == kInf) {
        EXPECT_EQ(f.distance(s), flow::kUnreachable);
        EXPECT_EQ(f.direction(s), flow::kNoDirection);
        EXPECT_FALSE(f.next(s).has_value());
        continue;
      }
      ASSERT_TRUE(near(f.distance(s), w)) << f.distance(s) << " vs " << w;
      if (w == 0) {
        EXPECT_EQ(f.direction(s), flow::kNoDirection);
        continue;
      }
      // Follow the field to a goal, summing the reference cost of each move.
      Cell at = s;
      double total = 0;
      for (int steps = 0; f.distance(at) > 0; ++steps) {
        ASSERT_LT(steps, g.width() * g.height()) << "the directions loop";
        const int d = f.direction(at);
        const auto to = f.next(at);
        ASSERT_TRUE(to.has_value());
        const bool by_link = d == link;
        if (!by_link) {
          ASSERT_TRUE(code_leads_to(g, at, *to, d)) << "code " << d;
        }
        const double step = arc_cost(g, ref, at, *to, by_link);
        ASSERT_LT(step, kInf) << "not a move of the definitions";
        total += step;
        at = *to;
      }
      EXPECT_TRUE(near(total, w)) << total << " vs " << w;
      ++followed;
    }
  }
}

class FlowMapKinds : public ::testing::TestWithParam<Kind> {};

TEST_P(FlowMapKinds, IntegrationFieldEqualsDijkstraAndDirectionsReachAGoalAtThatCost) {
  std::mt19937 rng(777 + static_cast<int>(GetParam()));
  int followed = 0, links_taken = 0;
  for (int round = 0; round < 40; ++round) {
    Case c = flow_case(GetParam(), rng, round);
    ASSERT_FALSE(c.grid.plain());
    std::vector<Cell> free;
    for (int y = 0; y < c.grid.height(); ++y) {
      for (int x = 0; x < c.grid.width(); ++x) {
        if (!c.grid.between_layers(y) && !c.unit.forbids(c.grid.cell_class(x, y))) {
          free.push_back({x, y});
        }
      }
    }
    if (free.empty()) continue;
    std::vector<Cell> goals;
    const int k = 1 + round % 3;
    for (int i = 0; i < k; ++i) goals.push_back(free[rng() % free.size()]);
    flow::Options o;
    o.moves = c.moves;
    o.unit = c.unit;
    o.sight_range = 4;
    flow::Field f;
    SCOPED_TRACE(::testing::Message() << name(GetParam()) << " round " << round << " layout "
                                      << grid::to_string(c.grid.layout()) << " rule "
                                      << grid::to_string(c.moves.diagonal));
    ASSERT_FALSE(f.build(c.grid, goals, o).has_value());
    check(c, f, goals, followed);
    for (const std::int8_t d : f.directions()) {
      if (d == grid::link_direction(c.grid.layout())) ++links_taken;
      EXPECT_LE(d, grid::link_direction(c.grid.layout()));
    }
    // Edits (an edge wall on square layouts, a wall, a one-way link): update() equals a fresh
    // build.
    const std::uint64_t before = c.grid.revision();
    if (!grid::is_hex(c.grid.layout())) {
      const Cell at = free[rng() % free.size()];
      c.grid.set_edge_wall(at.x, at.y, Side::east, true);
    }
    const Cell a = free[rng() % free.size()], b = free[rng() % free.size()];
    if (!(a == b)) {
      EXPECT_FALSE(c.grid.add_link({a, b, 1.5f, true}).has_value());
    }
    EXPECT_EQ(f.stale(c.grid), c.grid.revision() != before);
    f.update(c.grid);
    EXPECT_FALSE(f.stale(c.grid));
    flow::Field fresh;
    ASSERT_FALSE(fresh.build(c.grid, goals, o).has_value());
    EXPECT_EQ(f.distances(), fresh.distances());
    EXPECT_EQ(f.directions(), fresh.directions());
    check(c, f, goals, followed);
  }
  EXPECT_GT(followed, 200);
  if (GetParam() != Kind::hex) {
    EXPECT_GT(links_taken, 0) << "no direction took a link";
  }
}

INSTANTIATE_TEST_SUITE_P(All, FlowMapKinds,
                         ::testing::Values(Kind::hex, Kind::edges, Kind::layered,
                                           Kind::layered_hex));

// Hex codes: a two-cell corridor on a pointy-odd-r map, each neighbour of a goal points at it
// with the axial code of the move.
TEST(FlowMapKindsHex, CodesFollowTheAxialOrder) {
  Grid g(5, 5);
  g.set_layout(Layout::pointy_odd_r);
  const Cell goal{2, 2};
  flow::Options o;
  o.sight_range = 0;
  flow::Field f;
  ASSERT_FALSE(f.build(g, std::vector<Cell>{goal}, o).has_value());
  int seen = 0;
  for (int y = 1; y <= 3; ++y) {
    for (int x = 1; x <= 3; ++x) {
      const Cell c{x, y};
      if (c == goal || f.distance(c) != 1.0) continue;
      const int d = f.direction(c);
      ASSERT_GE(d, 0);
      ASSERT_LT(d, 6);
      EXPECT_TRUE(code_leads_to(g, c, goal, d));
      ASSERT_TRUE(f.next(c).has_value());
      EXPECT_EQ(*f.next(c), goal);
      ++seen;
    }
  }
  EXPECT_EQ(seen, 6);
}

}  // namespace pathlab::flow_map_kinds_test

namespace pathlab::flow_map_kinds_test {

// On maps that are not plain a SectorField serves as one whole-map field: it equals Field's,
// before and after edits, and a plain map edited into one that is not switches to it.
TEST_P(FlowMapKinds, SectorFieldServesAsTheWholeMapField) {
  std::mt19937 rng(99 + static_cast<int>(GetParam()));
  for (int round = 0; round < 12; ++round) {
    Case c = flow_case(GetParam(), rng, round);
    std::vector<Cell> free;
    for (int y = 0; y < c.grid.height(); ++y) {
      for (int x = 0; x < c.grid.width(); ++x) {
        if (!c.grid.between_layers(y) && !c.unit.forbids(c.grid.cell_class(x, y))) {
          free.push_back({x, y});
        }
      }
    }
    if (free.size() < 2) continue;
    const std::vector<Cell> goals{free[rng() % free.size()]};
    flow::Options o;
    o.moves = c.moves;
    o.unit = c.unit;
    flow::Field f;
    ASSERT_FALSE(f.build(c.grid, goals, o).has_value());
    flow::SectorField sf;
    ASSERT_FALSE(sf.build(c.grid, goals, o, 8).has_value());
    sf.require(std::vector<Cell>{free[0]});
    auto same = [&] {
      for (int y = 0; y < c.grid.height(); ++y) {
        for (int x = 0; x < c.grid.width(); ++x) {
          const Cell s{x, y};
          ASSERT_EQ(sf.distance(s), f.distance(s)) << x << "," << y;
          ASSERT_EQ(sf.direction(s), f.direction(s)) << x << "," << y;
          ASSERT_EQ(sf.next(s), f.next(s)) << x << "," << y;
        }
      }
    };
    same();
    const Cell a = free[rng() % free.size()], b = free[rng() % free.size()];
    if (!(a == b)) {
      EXPECT_FALSE(c.grid.add_link({a, b, 2.0f, false}).has_value());
    }
    f.update(c.grid);
    sf.update();
    EXPECT_FALSE(sf.stale());
    same();
  }
}

TEST(FlowMapKindsSectors, PlainMapEditedIntoEdgeWallsSwitchesToTheWholeField) {
  Grid g(20, 20);
  flow::Options o;
  const std::vector<Cell> goals{{2, 2}};
  flow::SectorField sf;
  ASSERT_FALSE(sf.build(g, goals, o, 8).has_value());
  sf.require(std::vector<Cell>{{18, 18}});
  for (int y = 0; y < 19; ++y) g.set_edge_wall(5, y, Side::east, true);  // a fence, gap at 19
  sf.update();
  flow::Field f;
  ASSERT_FALSE(f.build(g, goals, o).has_value());
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 20; ++x) {
      ASSERT_EQ(sf.distance({x, y}), f.distance({x, y})) << x << "," << y;
      ASSERT_EQ(sf.direction({x, y}), f.direction({x, y})) << x << "," << y;
    }
  }
  EXPECT_GT(sf.distance({18, 2}), 16.0);  // around the fence
}

}  // namespace pathlab::flow_map_kinds_test
