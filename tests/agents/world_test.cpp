// The simulation world: the hybrid planner reaches its goal without collisions where the pure
// potential field is trapped by an L-shaped obstacle on the planned path; the replan baseline
// arrives too; runs are deterministic; bad specs are refused with a message.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/agents/world.hpp>

using namespace pathlab;
using namespace pathlab::agents;

namespace {

/// An open 30x20 room; one agent crossing it from left to right along row 10.
WorldSpec room(PlannerKind planner) {
  WorldSpec s;
  s.grid = grid::Grid(30, 20);
  s.dt = 0.05;
  s.time_limit = 40;
  AgentSpec a;
  a.id = 1;
  a.start = {3.5, 10.5};
  a.goal = {26.5, 10.5};
  a.planner = planner;
  s.agents.push_back(a);
  return s;
}

/// The L of the users' experiment, standing on the planned path: a bar across the row the agent
/// walks and a foot that closes the pocket below it.
Obstacle ell() {
  Obstacle o;
  o.id = 1;
  o.shape = {ShapeKind::polygon, 0, {{0, 0}, {1, 0}, {1, 8}, {-4, 8}, {-4, 7}, {0, 7}}};
  o.motion.start = {14, 4};
  return o;
}

}  // namespace

TEST(World, HybridCrossesAnEmptyRoomStraight) {
  World w(room(PlannerKind::hybrid));
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_TRUE(m.arrived);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_NEAR(m.optimal_length, 23.0, 1e-9);
  EXPECT_LE(m.path_length, 1.05 * m.optimal_length);
  EXPECT_EQ(m.local_replans, 0);
}

TEST(World, AFlowAgentWithNoWayReportsStalls) {
  // A wall across the room: the field has no way from the agent's side, the agent presses
  // against the wall toward its goal, its way along the field never shortens and it says so
  // (again and again). Without the wall it walks over without a stall.
  WorldSpec s = room(PlannerKind::flow);
  for (int y = 0; y < 20; ++y) s.grid.set_blocked(15, y, true);
  World w(s);
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_FALSE(m.arrived);
  EXPECT_GE(m.stalls, 5);
  World open(room(PlannerKind::flow));
  open.run();
  EXPECT_TRUE(open.agents()[0].metrics.arrived);
  EXPECT_EQ(open.agents()[0].metrics.stalls, 0);
}

TEST(World, ThePureFieldIsTrappedByTheLAndTheHybridIsNot) {
  WorldSpec apf = room(PlannerKind::apf);
  apf.obstacles.push_back(ell());
  World trapped(apf);
  trapped.run();
  EXPECT_FALSE(trapped.agents()[0].metrics.arrived);
  EXPECT_GT(trapped.agents()[0].metrics.stalls, 0);

  WorldSpec hybrid = room(PlannerKind::hybrid);
  hybrid.obstacles.push_back(ell());
  World w(hybrid);
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_TRUE(m.arrived);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_GT(m.local_replans + m.global_replans, 0);
  EXPECT_GT(m.min_clearance, 0);
}

TEST(World, TheReplanBaselineArrives) {
  WorldSpec s = room(PlannerKind::replan);
  s.obstacles.push_back(ell());
  World w(s);
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_TRUE(m.arrived);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_GT(m.global_replans, 10);
}

TEST(World, SameSpecSameRun) {
  WorldSpec s = room(PlannerKind::hybrid);
  s.obstacles.push_back(ell());
  Obstacle mover;
  mover.id = 2;
  mover.shape = {ShapeKind::disc, 0.6, {}};
  mover.motion.route = {{20, 4}, {20, 16}};
  mover.motion.mode = RouteMode::ping_pong;
  mover.motion.speed = 1.5;
  s.obstacles.push_back(mover);
  World a(s), b(s);
  while (!a.finished()) {
    a.step();
    b.step();
    ASSERT_EQ(a.agents()[0].position, b.agents()[0].position) << "tick " << a.ticks();
  }
  EXPECT_TRUE(b.finished());
}

TEST(World, BadSpecsAreRefusedWithAMessage) {
  WorldSpec s = room(PlannerKind::hybrid);
  s.grid.set_blocked(3, 10, true);
  try {
    World w(s);
    FAIL() << "a start in a wall was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("agent 1: start"), std::string::npos) << e.what();
  }
  s = room(PlannerKind::hybrid);
  s.agents[0].radius = 0;
  EXPECT_THROW(World{s}, std::invalid_argument);
  s = room(PlannerKind::hybrid);
  s.obstacles.push_back(ell());
  s.obstacles[0].shape.points.resize(2);
  EXPECT_THROW(World{s}, std::invalid_argument);
  EXPECT_EQ(parse_planner("apf"), PlannerKind::apf);
  EXPECT_FALSE(parse_planner("teleport").has_value());
}

TEST(World, DStarLiteRepairsItsPlanAroundTheL) {
  WorldSpec s = room(PlannerKind::dstar);
  s.obstacles.push_back(ell());
  World w(s);
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_TRUE(m.arrived);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_EQ(m.global_replans, 1);  // one search; the rest are repairs
  EXPECT_GT(m.local_replans, 0);
}

TEST(World, EveryPlannerCatchesASlowerTarget) {
  for (const PlannerKind p : {PlannerKind::hybrid, PlannerKind::replan, PlannerKind::dstar}) {
    WorldSpec s = room(p);
    Motion target;
    target.route = {{20.5, 3.5}, {20.5, 16.5}, {26.5, 16.5}};
    target.speed = 1.0;  // half the agent's speed
    target.mode = RouteMode::ping_pong;
    s.agents[0].target = target;
    World w(s);
    w.run();
    const AgentMetrics& m = w.agents()[0].metrics;
    EXPECT_TRUE(m.arrived) << to_string(p);
    EXPECT_LT(m.time, 20) << to_string(p);
    EXPECT_EQ(m.collisions, 0) << to_string(p);
    const Vec2 caught = w.agents()[0].position;
    EXPECT_LT(norm(caught - target.position_at(m.time)), 0.5 + 0.2) << to_string(p);
    // Measured against an interceptor that knew the route: the straight way (an open room,
    // between cell centres) to the target's first position it could reach in time.
    auto centre = [](Vec2 q) { return Vec2{std::floor(q.x) + 0.5, std::floor(q.y) + 0.5}; };
    // (Between cell centres, so it may be that no tick before the catch qualifies: then the
    // way to where it was caught.)
    const Vec2 from = centre(s.agents[0].start);
    double intercept = norm(centre(w.agents()[0].spec.goal) - from);
    double tk = 0;  // the world's clock adds dt each tick (a cell boundary is met exactly)
    for (int k = 0; k < static_cast<int>(w.ticks()); ++k, tk += s.dt) {
      const double d = norm(centre(target.position_at(tk)) - from);
      if (d <= s.agents[0].max_speed * (k + 1) * s.dt) {
        intercept = d;
        break;
      }
    }
    EXPECT_NEAR(m.optimal_length, intercept, 1e-6) << to_string(p);
    EXPECT_LE(m.optimal_length, m.path_length + 0.5) << to_string(p);
  }
}

// The shipped scenarios (scenarios/*.json): the hybrid brings every agent home without a
// collision, and the pure potential field is caught by the L (the failure the hybrid fixes).
TEST(World, TheHybridSolvesEveryShippedScenarioAndTheFieldFailsTheLTrap) {
  const std::filesystem::path dir = PATHLAB_SOURCE_DIR "/scenarios";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    Scenario sc = load_scenario(f.string());
    for (auto& a : sc.world.agents) a.planner = PlannerKind::hybrid;
    World w(sc.world);
    w.run();
    for (const auto& a : w.agents()) {
      EXPECT_TRUE(a.metrics.arrived) << "agent " << a.spec.id;
      EXPECT_EQ(a.metrics.collisions, 0) << "agent " << a.spec.id;
    }
  }
  Scenario trap = load_scenario((dir / "hybrid_l_trap.json").string());
  for (auto& a : trap.world.agents) a.planner = PlannerKind::apf;
  World apf(trap.world);
  apf.run();
  EXPECT_FALSE(apf.agents()[0].metrics.arrived);
}

// The users' hybrid as published (sight 0) walks into the L's hollow, detects the stall and
// replans out of it; with the look-out (the default) it sees the L standing on its plan and
// replans before the field walks it in: no stall, and a shorter way.
TEST(World, TheLookOutReplansBeforeTheTrapTheStallDetectorAfterIt) {
  const std::filesystem::path file = PATHLAB_SOURCE_DIR "/scenarios/hybrid_l_trap.json";
  Scenario published = load_scenario(file.string());
  published.world.params.sight = 0;
  World late(published.world);
  late.run();
  const AgentMetrics& m0 = late.agents()[0].metrics;
  EXPECT_TRUE(m0.arrived);
  EXPECT_EQ(m0.collisions, 0);
  EXPECT_GE(m0.stalls, 1);
  EXPECT_GE(m0.local_replans, 1);

  World early(load_scenario(file.string()).world);
  early.run();
  const AgentMetrics& m1 = early.agents()[0].metrics;
  EXPECT_TRUE(m1.arrived);
  EXPECT_EQ(m1.collisions, 0);
  EXPECT_EQ(m1.stalls, 0);
  EXPECT_GE(m1.local_replans + m1.global_replans, 1);
  EXPECT_LT(m1.path_length, m0.path_length);
}

// An obstacle that comes head-on down a corridor: every planner that steers gets past it
// without touching it (ORCA takes it as a velocity obstacle that does not dodge).
TEST(World, AnOncomingObstacleIsPassedByEveryPlannerThatSteers) {
  for (const PlannerKind p : {PlannerKind::hybrid, PlannerKind::replan, PlannerKind::dstar}) {
    WorldSpec s = room(p);
    Obstacle o;
    o.id = 7;
    o.shape = {ShapeKind::disc, 0.45, {}};
    o.motion.route = {{28.5, 10.5}, {1.5, 10.5}};
    o.motion.mode = RouteMode::once;
    o.motion.speed = 1.0;
    s.obstacles.push_back(o);
    World w(s);
    w.run();
    const AgentMetrics& m = w.agents()[0].metrics;
    EXPECT_TRUE(m.arrived) << to_string(p);
    EXPECT_EQ(m.collisions, 0) << to_string(p);
    EXPECT_LT(m.path_length, 1.2 * m.optimal_length) << to_string(p);
  }
}

// The web page drops obstacles into a running world and drives a chase target by hand.
TEST(World, ObstaclesDroppedWhileRunningAreAvoided) {
  World w(room(PlannerKind::hybrid));
  for (int k = 0; k < 20; ++k) w.step();
  Obstacle o;
  o.id = 9;
  o.shape = {ShapeKind::disc, 0.8, {}};
  o.motion.start = {w.agents()[0].position.x + 4, 10.5};  // right on the way, 4 cells ahead
  o.appear = w.time();
  w.add_obstacle(o);
  ASSERT_EQ(w.spec().obstacles.size(), 1u);
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_TRUE(m.arrived);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_GT(m.min_clearance, 0);
  EXPECT_GT(m.path_length, m.optimal_length + 0.1);  // it went around

  Obstacle bad = o;
  bad.shape = {ShapeKind::polygon, 0, {{0, 0}, {1, 0}}};
  EXPECT_THROW(w.add_obstacle(bad), std::invalid_argument);
}

TEST(World, AHandDrivenTargetSlidesAlongWallsAndIsCaught) {
  WorldSpec s = room(PlannerKind::hybrid);
  for (int y = 0; y < 20; ++y) s.grid.set_blocked(22, y, y != 10);  // a wall with one door
  Motion target;
  target.start = {26.5, 4.5};
  s.agents[0].target = target;
  EXPECT_THROW(World(room(PlannerKind::hybrid)).drive_target(0, {1, 0}), std::invalid_argument);
  World w(s);
  EXPECT_THROW(w.drive_target(1, {1, 0}), std::invalid_argument);
  // Drive it left into the wall: it stops at the wall's face (its cell stays free).
  w.drive_target(0, {-3, 0});
  for (int k = 0; k < 60; ++k) w.step();
  const Vec2 at_wall = w.agents()[0].spec.goal;
  EXPECT_GE(at_wall.x, 23.0);
  EXPECT_LT(at_wall.x, 24.0);
  EXPECT_NEAR(at_wall.y, 4.5, 1e-9);
  // Then down the wall to the door's row and through it: it slides along the wall while
  // pushed diagonally into it, and the chaser, which has been coming all along, catches it.
  w.drive_target(0, {-0.5, 1});
  while (!w.finished() && w.agents()[0].spec.goal.y < 10.5) w.step();
  w.drive_target(0, {0, 0});
  w.run();
  const AgentMetrics& m = w.agents()[0].metrics;
  EXPECT_TRUE(m.arrived);
  EXPECT_EQ(m.collisions, 0);
  EXPECT_LT(norm(w.agents()[0].position - w.agents()[0].spec.goal), 0.5 + 1e-9);
}
