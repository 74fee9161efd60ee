// D* Lite (shared docs/ALGORITHMS.md): a fresh plan matches an independent Dijkstra and A*;
// after every map change (blocks and frees anywhere, on and next to the path, terrain changes)
// and agent move, the repaired plan costs what a fresh A* finds on the changed map, and its path
// is legal there; repairs do less work than planning afresh; edge cases.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include <pathlab/agents/dstar_lite.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "map_kinds.hpp"
#include "test_grids.hpp"

using namespace pathlab;
using namespace pathlab::testing;
using agents::DStarLite;

namespace {

search::Result astar(const grid::Grid& g, const grid::Moves& m, Cell start, Cell goal) {
  search::Options o;
  o.algorithm = search::Algorithm::astar;
  o.moves = m;
  search::Pathfinder f(g, o);
  return f.find(start, goal);
}

/// The plan of `d` against a fresh A* on `world` (the map as it really is now). A wall under
/// the agent or on the goal (A*: invalid_input) must give no_path.
void check_plan(const DStarLite& d, Status s, const grid::Grid& world, const grid::Moves& m) {
  RC_ASSERT(d.grid() == world);
  const auto ref = astar(world, m, d.start(), d.goal());
  if (ref.status != Status::found) {
    RC_ASSERT(s == Status::no_path);
    RC_ASSERT(d.path().empty());
    RC_ASSERT(std::isinf(d.cost()));
    return;
  }
  RC_ASSERT(s == Status::found);
  RC_ASSERT(near(d.cost(), ref.cost));
  const auto p = d.path();
  RC_ASSERT(!p.empty());
  RC_ASSERT(!grid::check_path(world, m, p).has_value());
  RC_ASSERT(p.front() == d.start());
  RC_ASSERT(p.back() == d.goal());
  RC_ASSERT(near(grid::path_cost(world, m, p), ref.cost));
  RC_ASSERT(d.next() == (p.size() > 1 ? p[1] : p[0]));
}

struct Case {
  grid::Grid grid;
  grid::Moves moves;
  Cell start, goal;
};

Case draw_case(int max_side) {
  const int w = *rc::gen::inRange(1, max_side + 1);
  const int h = *rc::gen::inRange(1, max_side + 1);
  const int walls = *rc::gen::inRange(0, 40);
  const bool terrain = *rc::gen::arbitrary<bool>();
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  const auto mi = *rc::gen::inRange<std::size_t>(0, std::size(kAllMoves));
  Case c{random_grid(seed, w, h, walls, terrain), kAllMoves[mi], {}, {}};
  // The other map kinds whose moves stay between neighbours: hex layouts, walls on cell edges
  // (square sides or hex edges).
  const int kind = *rc::gen::inRange(0, 6);  // 0..2 plain, 3 hex, 4 hex fenced, 5 fenced
  if (kind == 3 || kind == 4) {
    constexpr grid::Layout kHex[] = {grid::Layout::pointy_odd_r, grid::Layout::pointy_even_r,
                                     grid::Layout::flat_odd_q, grid::Layout::flat_even_q};
    c.grid.set_layout(kHex[*rc::gen::inRange(0, 4)]);
  }
  if (kind >= 4) {
    const int fences = *rc::gen::inRange(1, w * h + 2);
    for (int i = 0; i < fences; ++i) {
      const Cell at{*rc::gen::inRange(0, w), *rc::gen::inRange(0, h)};
      if (kind == 4) {
        c.grid.set_hex_edge_wall(at.x, at.y, *rc::gen::inRange(0, 6), true);
      } else {
        c.grid.set_edge_wall(at.x, at.y, static_cast<grid::Side>(*rc::gen::inRange(0, 4)), true);
      }
    }
  }
  const auto cells = passable_cells(c.grid);
  RC_PRE(!cells.empty());
  c.start = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  c.goal = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  return c;
}

Cell random_cell(const grid::Grid& g) {
  return {*rc::gen::inRange(0, g.width()), *rc::gen::inRange(0, g.height())};
}

}  // namespace

RC_GTEST_PROP(DStarLite, FreshPlanMatchesReferenceDijkstraAndAStar, ()) {
  const Case c = draw_case(24);
  DStarLite d(c.grid, c.moves);
  const Status s = d.reset(c.start, c.goal);
  double opt = 0;
  if (c.grid.plain()) {
    opt = dist_at(reference_distances(c.grid, c.moves, c.start), c.grid, c.goal);
  } else {  // the graph of the definitions (tests/common/map_kinds.hpp)
    const kinds::Reference ref = kinds::build_reference(c.grid, grid::Unit{}, c.moves);
    opt = kinds::dijkstra(ref, {ref.index(c.start)})[static_cast<std::size_t>(ref.index(c.goal))];
  }
  RC_ASSERT((s == Status::found) == !std::isinf(opt));
  if (s == Status::found) RC_ASSERT(near(d.cost(), opt));
  check_plan(d, s, c.grid, c.moves);
}

// The key property: random sequences of map changes and agent moves; after every step the
// repaired plan equals a fresh A* on the changed map from the agent's current cell.
RC_GTEST_PROP(DStarLite, RepairAfterEveryChangeMatchesFreshAStar, ()) {
  Case c = draw_case(32);
  grid::Grid world = c.grid;
  DStarLite d(c.grid, c.moves);
  check_plan(d, d.reset(c.start, c.goal), world, c.moves);
  const int steps = *rc::gen::inRange(1, 80);
  for (int step = 0; step < steps; ++step) {
    const auto p = d.path();
    // 0 move along the path, 1 block anywhere, 2 block on the path, 3 block next to the path,
    // 4 free a wall, 5 toggle the goal, 6 terrain. A step applies 1..3 changes (or one move)
    // before the replan, so changes also arrive in batches. Moves get 3 chances in 9: k_m and
    // the re-keying only matter once the agent has moved.
    const int kind = std::max(0, *rc::gen::inRange(-2, 7));
    if (kind == 0) {
      if (p.size() >= 2) {
        RC_ASSERT(d.move_to(p[1]));
      } else {
        RC_ASSERT(d.move_to(c.goal));  // already there or stuck: a teleport is allowed too
      }
    } else {
      const int batch = *rc::gen::inRange(1, 4);
      for (int b = 0; b < batch; ++b) {
        Cell x = random_cell(world);
        bool block = true;
        const int k = b == 0 ? kind : *rc::gen::inRange(1, 7);
        if (k == 2 && !p.empty()) {
          x = p[*rc::gen::inRange<std::size_t>(0, p.size())];
        } else if (k == 3 && !p.empty()) {
          const Cell on = p[*rc::gen::inRange<std::size_t>(0, p.size())];
          const int dir = *rc::gen::inRange(0, 8);
          x = {on.x + grid::kDx[static_cast<std::size_t>(dir)],
               on.y + grid::kDy[static_cast<std::size_t>(dir)]};
          block = *rc::gen::inRange(0, 4) != 0;
          if (!world.in_bounds(x)) continue;
        } else if (k == 4) {
          std::vector<Cell> walls;
          for (int y = 0; y < world.height(); ++y)
            for (int xx = 0; xx < world.width(); ++xx)
              if (!world.passable(xx, y)) walls.push_back({xx, y});
          if (walls.empty()) continue;
          x = walls[*rc::gen::inRange<std::size_t>(0, walls.size())];
          block = false;
        } else if (k == 5) {
          x = c.goal;
          block = world.passable(x);
        } else if (k == 6) {
          const float costs[] = {1.0f, 1.5f, 2.0f, 3.0f, 5.0f};
          const float t = costs[*rc::gen::inRange(0, 5)];
          world.set_terrain(x.x, x.y, t);
          RC_ASSERT(d.set_terrain(x, t));
          continue;
        }
        world.set_blocked(x, block);
        RC_ASSERT(d.set_blocked(x, block));
      }
    }
    check_plan(d, d.replan(), world, c.moves);
  }
}

// A budget stops the repair with node_limit; the next replans continue from where it stopped.
RC_GTEST_PROP(DStarLite, BudgetedReplansConverge, ()) {
  const Case c = draw_case(20);
  DStarLite d(c.grid, c.moves);
  Status s = d.reset(c.start, c.goal, 3);
  for (int i = 0; s == Status::node_limit; ++i) {
    RC_ASSERT(i < 1000);
    RC_ASSERT(d.last_stats().expanded <= 3u);
    s = d.replan(3);
  }
  check_plan(d, s, c.grid, c.moves);
}

TEST(DStarLite, RefusesMapsWithLinks) {
  grid::Grid g(6, 4);
  ASSERT_FALSE(g.add_link({{0, 0}, {5, 3}, 1.0f, false}).has_value());
  DStarLite d(g);
  EXPECT_EQ(d.reset({0, 0}, {5, 3}), Status::invalid_input);
}

TEST(DStarLite, StartEqualsGoal) {
  const grid::Grid g(5, 4);
  DStarLite d(g);
  ASSERT_EQ(d.reset({2, 1}, {2, 1}), Status::found);
  EXPECT_EQ(d.cost(), 0.0);
  EXPECT_EQ(d.path(), (std::vector<Cell>{{2, 1}}));
  EXPECT_EQ(d.next(), (Cell{2, 1}));
}

TEST(DStarLite, InvalidInput) {
  grid::Grid g(5, 4);
  g.set_blocked(0, 0, true);
  DStarLite d(g);
  EXPECT_EQ(d.reset({0, 0}, {3, 3}), Status::invalid_input);
  EXPECT_EQ(d.replan(), Status::invalid_input);
  EXPECT_EQ(d.reset({1, 1}, {5, 3}), Status::invalid_input);
  EXPECT_EQ(d.reset({-1, 1}, {3, 3}), Status::invalid_input);
  EXPECT_TRUE(d.path().empty());
  EXPECT_FALSE(d.move_to({9, 9}));
  EXPECT_FALSE(d.set_blocked({5, 0}, true));
  ASSERT_EQ(d.reset({1, 1}, {3, 3}), Status::found);
  EXPECT_THROW((void)d.set_terrain({2, 2}, 0.5f), std::invalid_argument);
}

TEST(DStarLite, GoalBlockedThenFreed) {
  const grid::Moves m{grid::DiagonalRule::no_corner_cut, grid::CostModel::integer};
  const grid::Grid g = random_grid(7, 30, 30, 15, true);
  const auto cells = passable_cells(g);
  const Cell start = cells.front(), goal = cells.back();
  DStarLite d(g, m);
  ASSERT_EQ(d.reset(start, goal), Status::found);
  const double before = d.cost();
  EXPECT_DOUBLE_EQ(before, astar(g, m, start, goal).cost);
  d.set_blocked(goal, true);
  EXPECT_EQ(d.replan(), Status::no_path);
  EXPECT_TRUE(d.path().empty());
  EXPECT_FALSE(d.next().has_value());
  d.set_blocked(goal, false);
  ASSERT_EQ(d.replan(), Status::found);
  EXPECT_DOUBLE_EQ(d.cost(), before);
  EXPECT_EQ(grid::path_cost(g, m, d.path()), before);
}

// Walking the plan: without changes every step costs what it says, path() and cost() stay valid
// before replan(), and the replans after moves do no expansions beyond re-keying.
TEST(DStarLite, AgentWalksToGoal) {
  const grid::Moves m{grid::DiagonalRule::always, grid::CostModel::octile};
  const grid::Grid g = random_grid(11, 40, 25, 25, true);
  const auto cells = passable_cells(g);
  DStarLite d(g, m);
  ASSERT_EQ(d.reset(cells.front(), cells.back()), Status::found);
  double left = d.cost();
  int moves = 0;
  while (d.start() != d.goal()) {
    const auto next = d.next();
    ASSERT_TRUE(next.has_value());
    const double step = grid::step_cost(g, m, d.start(), *next);
    ASSERT_TRUE(d.move_to(*next));
    EXPECT_NEAR(d.cost(), left - step, 1e-9);
    EXPECT_EQ(d.path().front(), *next);
    ASSERT_EQ(d.replan(), Status::found);
    EXPECT_NEAR(d.cost(), astar(g, m, d.start(), d.goal()).cost, 1e-9);
    left = d.cost();
    ASSERT_LT(++moves, 2000);
  }
  EXPECT_NEAR(left, 0.0, 1e-9);
}

// A wall appears right in front of the agent every step for 50 steps on a 100x100 map (plus a
// random wall near it): the repairs together expand fewer vertices than 50 fresh plans.
TEST(DStarLite, RepairsDoLessWorkThanFreshPlans) {
  for (const grid::Moves& m : kAllMoves) {
    grid::Grid world = random_grid(3, 100, 100, 20, true);
    Cell start{0, 0}, goal{99, 99};
    world.set_blocked(start, false);
    world.set_blocked(goal, false);
    DStarLite d(world, m);
    ASSERT_EQ(d.reset(start, goal), Status::found);
    std::mt19937 rng(5);
    std::uint64_t repair = 0, fresh = 0;
    for (int change = 0; change < 50; ++change) {
      auto p = d.path();
      if (p.size() >= 2) d.move_to(p[1]);
      p = d.path();
      if (p.size() >= 3 && p[2] != goal) {  // block the cell after the next one
        world.set_blocked(p[2], true);
        d.set_blocked(p[2], true);
      }
      const Cell near_agent{d.start().x + static_cast<int>(rng() % 7) - 3,
                            d.start().y + static_cast<int>(rng() % 7) - 3};
      if (world.in_bounds(near_agent) && near_agent != d.start() && near_agent != goal) {
        const bool block = rng() % 2 == 0;
        world.set_blocked(near_agent, block);
        d.set_blocked(near_agent, block);
      }
      const Status s = d.replan();
      repair += d.last_stats().expanded;
      DStarLite f(world, m);
      ASSERT_EQ(f.reset(d.start(), goal), s);
      fresh += f.last_stats().expanded;
      if (s == Status::found) {
        ASSERT_NEAR(d.cost(), f.cost(), 1e-9);
      }
    }
    EXPECT_LT(repair, fresh) << grid::to_string(m.diagonal) << " " << grid::to_string(m.cost_model);
    std::printf("%s/%s: repairs %llu expansions, fresh plans %llu\n",
                std::string(grid::to_string(m.diagonal)).c_str(),
                std::string(grid::to_string(m.cost_model)).c_str(),
                static_cast<unsigned long long>(repair), static_cast<unsigned long long>(fresh));
  }
}
