// Crowds that follow flow fields (world.hpp, the flow planner) and narrow passages taken in
// turns: every agent arrives, no two discs ever overlap, through a one-cell door crossed from both
// sides as well as in open rooms, and a run is the same for the same spec.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <pathlab/agents/crowd.hpp>
#include <pathlab/agents/world.hpp>

using namespace pathlab;
using namespace pathlab::agents;

namespace {

/// Two 12x12 rooms side by side, the wall between them (column 12) open in one cell: row 6.
grid::Grid two_rooms() {
  grid::Grid g(25, 12);
  for (int y = 0; y < 12; ++y) {
    if (y != 6) g.set_blocked(12, y, true);
  }
  return g;
}

/// `n` agents per room, packed in the far half of each, each group heading into the other room.
WorldSpec swap_rooms(PlannerKind planner, int n) {
  WorldSpec s;
  s.grid = two_rooms();
  s.time_limit = 120;
  int id = 1;
  for (int side = 0; side < 2; ++side) {
    for (int k = 0; k < n; ++k) {
      AgentSpec a;
      a.id = id++;
      a.planner = planner;
      const int col = k % 4, row = k / 4;
      const double x = side == 0 ? 1.5 + col : 23.5 - col;
      a.start = {x, 2.5 + row * 2};
      a.goal = side == 0 ? Vec2{20.5, 6.5} : Vec2{4.5, 6.5};
      s.agents.push_back(a);
    }
  }
  return s;
}

/// The least distance between two agents' discs over the run, checked every tick (negative:
/// they overlapped), and the world after it.
double run_watching(World& w) {
  double least = 1e9;
  while (!w.finished()) {
    w.step();
    const auto& as = w.agents();
    for (std::size_t i = 0; i < as.size(); ++i) {
      if (as[i].arrived) continue;
      for (std::size_t j = i + 1; j < as.size(); ++j) {
        if (as[j].arrived) continue;
        least = std::min(
            least, norm(as[i].position - as[j].position) - as[i].spec.radius - as[j].spec.radius);
      }
    }
  }
  return least;
}

}  // namespace

TEST(FlowCrowd, TwoGroupsSwapRoomsThroughOneDoorWithoutTouching) {
  for (const PlannerKind p : {PlannerKind::flow, PlannerKind::hybrid}) {
    World w(swap_rooms(p, 16));
    const double least = run_watching(w);
    int arrived = 0, collisions = 0;
    for (const auto& a : w.agents()) {
      arrived += a.metrics.arrived;
      collisions += a.metrics.collisions;
    }
    EXPECT_EQ(arrived, 32) << to_string(p) << " after " << w.time() << " s";
    EXPECT_EQ(collisions, 0) << to_string(p);
    EXPECT_GE(least, 0.0) << to_string(p);
  }
}

TEST(FlowCrowd, GroupsMeetingInAOneCellCorridorPassWithOrWithoutTurns) {
  // Rooms joined by a corridor one cell wide and 16 long: two agents cannot pass in it, so one
  // side must back out (ORCA) or wait for its turn (take_turns). Either way, nobody touches.
  for (const bool turns : {false, true}) {
    for (const PlannerKind p : {PlannerKind::flow, PlannerKind::hybrid}) {
      WorldSpec s;
      s.grid = grid::Grid(40, 12);
      for (int x = 12; x < 28; ++x) {
        for (int y = 0; y < 12; ++y) {
          if (y != 6) s.grid.set_blocked(x, y, true);
        }
      }
      s.time_limit = 150;
      s.params.take_turns = turns;
      for (int k = 0; k < 24; ++k) {
        AgentSpec a;
        a.id = k + 1;
        a.planner = p;
        const bool left = k < 12;
        a.start = {left ? 1.5 + k % 4 : 38.5 - k % 4, 2.5 + (k % 12) / 4 * 3};
        a.goal = left ? Vec2{35.5, 6.5} : Vec2{4.5, 6.5};
        s.agents.push_back(a);
      }
      World w(s);
      const double least = run_watching(w);
      int arrived = 0, collisions = 0;
      for (const auto& a : w.agents()) {
        arrived += a.metrics.arrived;
        collisions += a.metrics.collisions;
      }
      const std::string what = std::string(to_string(p)) + (turns ? " taking turns" : "");
      EXPECT_EQ(arrived, 24) << what;
      EXPECT_EQ(collisions, 0) << what;
      EXPECT_GE(least, 0.0) << what;
      if (turns) {
        bool waited = false;
        World again(s);
        while (!again.finished() && !waited) {
          again.step();
          for (const auto& a : again.agents()) waited = waited || a.waiting;
        }
        EXPECT_TRUE(waited) << what << ": one side waits for the other";
      }
    }
  }
}

TEST(FlowCrowd, AGroupSharesOneFieldAndArrivesAroundItsGoal) {
  grid::Grid g(40, 30);
  for (int y = 5; y < 25; ++y) g.set_blocked(20, y, true);
  AgentSpec like;
  like.planner = PlannerKind::flow;
  WorldSpec s = make_crowd(g, 120, 3, like, 120, 2);
  World w(s);
  const double least = run_watching(w);
  EXPECT_GE(least, 0.0);
  // Two goals: two fields, each shared by its group.
  const flow::Field* f0 = w.field_of(0);
  const flow::Field* f1 = w.field_of(1);
  ASSERT_NE(f0, nullptr);
  ASSERT_NE(f1, nullptr);
  EXPECT_NE(f0, f1);
  EXPECT_EQ(w.field_of(2), f0);
  for (std::size_t i = 0; i < w.agents().size(); ++i) {
    const AgentState& a = w.agents()[i];
    EXPECT_TRUE(a.arrived) << "agent " << a.spec.id;
    EXPECT_EQ(a.metrics.collisions, 0);
    // A group of 60 arrives within goal_reach + sqrt(59 * 0.8^2 / pi) of its goal, along the
    // field (cells): about 4 cells, not on one point.
    const flow::Field* f = w.field_of(i);
    const Cell c{static_cast<int>(a.position.x), static_cast<int>(a.position.y)};
    EXPECT_LE(f->distance(c), 0.5 + std::sqrt(59 * 0.64 / 3.141592653589793) + 1e-9);
    EXPECT_GE(a.metrics.optimal_length, 0.0);
  }
}

TEST(FlowCrowd, OnBigMapsGroupsFollowSectoredFields) {
  // sector_from 0: every map counts as big. The groups build their fields sector by sector where
  // their agents go, and still every agent arrives without touching another.
  grid::Grid g(96, 64);
  for (int y = 8; y < 56; ++y) g.set_blocked(48, y, true);
  AgentSpec like;
  like.planner = PlannerKind::flow;
  WorldSpec s = make_crowd(g, 80, 9, like, 200, 2);
  s.params.sector_from = 0;
  World w(s);
  ASSERT_EQ(w.field_of(0), nullptr);
  const flow::SectorField* f = w.sectors_of(0);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->sector(), flow::SectorField::kDefaultSector);
  const double least = run_watching(w);
  EXPECT_GE(least, 0.0);
  for (const auto& a : w.agents()) {
    EXPECT_TRUE(a.arrived) << "agent " << a.spec.id;
    EXPECT_EQ(a.metrics.collisions, 0);
  }
}

TEST(FlowCrowd, RunsAreTheSameForTheSameSpec) {
  const WorldSpec s = swap_rooms(PlannerKind::flow, 8);
  World a(s), b(s);
  a.run();
  b.run();
  ASSERT_EQ(a.ticks(), b.ticks());
  for (std::size_t i = 0; i < a.agents().size(); ++i) {
    EXPECT_EQ(a.agents()[i].position.x, b.agents()[i].position.x);
    EXPECT_EQ(a.agents()[i].position.y, b.agents()[i].position.y);
    EXPECT_EQ(a.agents()[i].metrics.path_length, b.agents()[i].metrics.path_length);
  }
}

TEST(FlowCrowd, ANewRallyPointSendsTheGroupThere) {
  grid::Grid g(30, 20);
  AgentSpec like;
  like.planner = PlannerKind::flow;
  WorldSpec s = make_crowd(g, 20, 5, like, 60, 1);
  World w(s);
  for (int k = 0; k < 10; ++k) w.step();
  std::vector<std::size_t> all;
  for (std::size_t i = 0; i < w.agents().size(); ++i) {
    if (!w.agents()[i].arrived) all.push_back(i);
  }
  const Vec2 rally{27.5, 17.5};
  w.set_goal(all, rally);
  w.run();
  for (const std::size_t i : all) {
    EXPECT_TRUE(w.agents()[i].arrived);
    EXPECT_LT(norm(w.agents()[i].position - rally), 5.0);
    EXPECT_EQ(w.field_of(i)->goals()[0], (Cell{27, 17}));
  }
  const std::size_t bad[] = {999};
  EXPECT_THROW(w.set_goal(bad, rally), std::invalid_argument);
}

TEST(FlowCrowd, AFlowAgentCannotChase) {
  WorldSpec s = swap_rooms(PlannerKind::flow, 1);
  Motion m;
  m.start = {5.5, 5.5};
  s.agents[0].target = m;
  EXPECT_THROW(World{s}, std::invalid_argument);
}
