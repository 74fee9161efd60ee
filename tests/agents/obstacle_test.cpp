// Dynamic obstacles: closed-form motion (linear, routes once / loop / ping-pong), presence
// times, nearest points and overlap for every shape, and validation messages.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <pathlab/agents/obstacle.hpp>

#include "agents_test_util.hpp"

using namespace pathlab;
using namespace pathlab::agents;

namespace {

using pathlab::testing::expect_near;

Obstacle disc_on_route(RouteMode mode) {
  Obstacle o;
  o.shape = {ShapeKind::disc, 0.5, {}};
  // An L-shaped route 3 + 4 = 7 cells long.
  o.motion.route = {{0, 0}, {3, 0}, {3, 4}};
  o.motion.speed = 2;
  o.motion.mode = mode;
  o.appear = 1;
  return o;
}

}  // namespace

TEST(Obstacle, MovesWithAConstantVelocity) {
  Obstacle o;
  o.motion.start = {2, 3};
  o.motion.velocity = {1, -0.5};
  o.appear = 2;
  expect_near(o.position(0), {2, 3});  // before it appears: at its start
  expect_near(o.position(2), {2, 3});
  expect_near(o.position(6), {6, 1});
  expect_near(o.velocity(6), {1, -0.5});
}

TEST(Obstacle, FollowsARouteOnceThenStops) {
  const Obstacle o = disc_on_route(RouteMode::once);
  expect_near(o.position(1), {0, 0});
  expect_near(o.position(2), {2, 0});   // 2 cells along the first leg
  expect_near(o.position(3), {3, 1});   // 4 cells: 1 into the second leg
  expect_near(o.velocity(3), {0, 2});   // going down the second leg at speed 2
  expect_near(o.position(10), {3, 4});  // past 7 cells: stays at the end
  expect_near(o.velocity(10), {0, 0});
}

TEST(Obstacle, LoopsBackToTheFirstWaypoint) {
  const Obstacle o = disc_on_route(RouteMode::loop);
  // The loop is 3 + 4 + 5 = 12 cells: 6 s at speed 2.
  expect_near(o.position(1 + 6), {0, 0});
  expect_near(o.position(1 + 6 + 1), {2, 0});
  // Half way down the closing leg (3,4) -> (0,0): 7 + 2.5 cells.
  expect_near(o.position(1 + 4.75), {1.5, 2});
  expect_near(o.velocity(1 + 4.75), {-1.2, -1.6});
}

TEST(Obstacle, PingPongWalksBack) {
  const Obstacle o = disc_on_route(RouteMode::ping_pong);
  // There (7 cells) and back (7 cells): a 7 s period.
  expect_near(o.position(1 + 3.5), {3, 4});
  expect_near(o.position(1 + 4), {3, 3});  // 1 cell back up the second leg
  expect_near(o.velocity(1 + 4), {0, -2});
  expect_near(o.position(1 + 7), {0, 0});
}

RC_GTEST_PROP(Obstacle, RoutesArePeriodicAndMoveAtTheirSpeed, ()) {
  const RouteMode mode = *rc::gen::element(RouteMode::loop, RouteMode::ping_pong);
  Obstacle o;
  const int n = *rc::gen::inRange(2, 6);
  for (int i = 0; i < n; ++i) {
    o.motion.route.push_back({*rc::gen::inRange(0, 20) * 0.5, *rc::gen::inRange(0, 20) * 0.5});
  }
  o.motion.mode = mode;
  o.motion.speed = *rc::gen::inRange(1, 8) * 0.5;
  double length = 0;
  for (int i = 1; i < n; ++i) length += norm(o.motion.route[i] - o.motion.route[i - 1]);
  if (mode == RouteMode::loop) length += norm(o.motion.route.front() - o.motion.route.back());
  if (mode == RouteMode::ping_pong) length *= 2;
  RC_PRE(length > 0);
  const double period = length / o.motion.speed;
  const double t = *rc::gen::inRange(0, 1000) * 0.01;
  const Vec2 a = o.position(t), b = o.position(t + period);
  RC_ASSERT(std::abs(a.x - b.x) < 1e-9 && std::abs(a.y - b.y) < 1e-9);
  // Over a short time it moves no farther than speed * dt.
  const double dt = 0.01;
  RC_ASSERT(norm(o.position(t + dt) - a) <= o.motion.speed * dt + 1e-9);
}

TEST(Obstacle, IsPresentBetweenItsTimes) {
  Obstacle o;
  o.appear = 1;
  o.disappear = 3;
  EXPECT_FALSE(o.present(0.99));
  EXPECT_TRUE(o.present(1));
  EXPECT_TRUE(o.present(2.99));
  EXPECT_FALSE(o.present(3));
}

TEST(Obstacle, NearestPointsAndOverlapForEveryShape) {
  Obstacle disc;
  disc.shape = {ShapeKind::disc, 1.0, {}};
  disc.motion.start = {5, 5};
  disc.motion.velocity = {1, 0};
  // At t = 2 the disc is centred on (7,5).
  const NearestPoint nd = disc.nearest({10, 5}, 2);
  expect_near(nd.point, {8, 5});
  EXPECT_NEAR(nd.distance, 2, 1e-12);
  EXPECT_TRUE(disc.overlaps({8.4, 5}, 0.5, 2));   // 1.4 from the centre < 1 + 0.5
  EXPECT_FALSE(disc.overlaps({8.5, 5}, 0.5, 2));  // touching is not overlapping

  Obstacle seg;
  seg.shape = {ShapeKind::segment, 0, {{0, 0}, {0, 4}}};
  seg.motion.start = {2, 1};
  const NearestPoint ns = seg.nearest({5, 3}, 0);  // segment from (2,1) to (2,5)
  expect_near(ns.point, {2, 3});
  EXPECT_NEAR(ns.distance, 3, 1e-12);
  EXPECT_TRUE(seg.overlaps({2.3, 0.8}, 0.4, 0));  // 0.36 from the end (2,1)

  // The L shape of the users' experiment, 3 cells long and 2 high, one cell thick.
  Obstacle ell;
  ell.shape = {ShapeKind::polygon, 0, {{0, 0}, {1, 0}, {1, 1}, {3, 1}, {3, 2}, {0, 2}}};
  ell.motion.start = {10, 10};
  EXPECT_TRUE(ell.nearest({10.5, 11.5}, 0).inside);
  EXPECT_FALSE(ell.nearest({12, 10.5}, 0).inside);  // in the notch of the L
  EXPECT_NEAR(ell.nearest({12, 10.5}, 0).distance, 0.5, 1e-12);
  EXPECT_TRUE(ell.overlaps({12, 10.5}, 0.6, 0));
  EXPECT_FALSE(ell.overlaps({12, 10.5}, 0.4, 0));
}

TEST(Obstacle, ValidationNamesTheProblem) {
  Obstacle o;
  o.id = 7;
  EXPECT_FALSE(o.validate().has_value());
  o.shape.radius = 0;
  EXPECT_NE(o.validate()->find("obstacle 7"), std::string::npos);
  o.shape = {ShapeKind::segment, 0, {{0, 0}}};
  EXPECT_NE(o.validate()->find("2 points"), std::string::npos);
  o.shape = {ShapeKind::polygon, 0, {{0, 0}, {1, 0}}};
  EXPECT_NE(o.validate()->find("3 points"), std::string::npos);
  o.shape = {ShapeKind::disc, 1, {}};
  o.motion.route = {{0, 0}, {1, 1}};
  o.motion.speed = 0;
  EXPECT_NE(o.validate()->find("speed"), std::string::npos);
  o.motion.speed = 1;
  o.appear = 2;
  o.disappear = 1;
  EXPECT_NE(o.validate()->find("appear"), std::string::npos);
  EXPECT_EQ(parse_route_mode("ping-pong"), RouteMode::ping_pong);
  EXPECT_FALSE(parse_route_mode("zigzag").has_value());
}
