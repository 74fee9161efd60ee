// Simulation scenario files: a full file round-trips into the expected WorldSpec, defaults
// apply, "S"/"G" resolve to the map's markers, and malformed files are refused with the right
// line and message. Every bundled scenario (scenarios/*.json) parses and builds a World.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/io/map.hpp>

using namespace pathlab;
using namespace pathlab::agents;

namespace {

const std::string kData = PATHLAB_SOURCE_DIR "/tests/agents/data";

/// A scenario text "stored" in the fixture folder (next to room.txt, plain.txt, broken.map).
std::string in_data(const std::string& name) {
  return kData + "/" + name;
}

struct Failure {
  std::string file;
  int line = -1;
  std::string message;
};

Failure failure_of(const std::string& text, const std::string& path = in_data("case.json")) {
  try {
    (void)parse_scenario(text, path);
  } catch (const ParseError& e) {
    return {e.file(), e.line(), e.message()};
  }
  return {"", -1, "(parsed without an error)"};
}

}  // namespace

TEST(Scenario, FullFileRoundTripsIntoTheWorldSpec) {
  const Scenario sc = load_scenario(in_data("full.json"));
  EXPECT_EQ(sc.path, in_data("full.json"));
  EXPECT_EQ(sc.name, "full \"scenario\" caf\xC3\xA9");
  EXPECT_EQ(sc.map_path, in_data("room.txt"));
  EXPECT_EQ(sc.seed, 42u);
  const WorldSpec& w = sc.world;
  EXPECT_TRUE(w.grid == io::load_map(in_data("room.txt")).grid);
  EXPECT_EQ(w.grid.width(), 10);
  EXPECT_EQ(w.grid.height(), 8);
  EXPECT_EQ(w.moves.diagonal, grid::DiagonalRule::always);
  EXPECT_DOUBLE_EQ(w.dt, 0.1);
  EXPECT_DOUBLE_EQ(w.time_limit, 30);

  const PlannerParams& p = w.params;
  EXPECT_DOUBLE_EQ(p.field.k, 2);
  EXPECT_DOUBLE_EQ(p.field.eta, 1.5);
  EXPECT_DOUBLE_EQ(p.field.rho0, 3);
  EXPECT_DOUBLE_EQ(p.field.n, 1);
  EXPECT_DOUBLE_EQ(p.field.beta, 4);
  EXPECT_DOUBLE_EQ(p.field.min_rho, 0.1);
  EXPECT_DOUBLE_EQ(p.subgoal_reach, 0.6);
  EXPECT_DOUBLE_EQ(p.goal_reach, 0.4);
  EXPECT_DOUBLE_EQ(p.global_replan_factor, 5);
  EXPECT_DOUBLE_EQ(p.skip_margin, 0.2);
  EXPECT_EQ(p.plans_per_tick, 2);
  EXPECT_DOUBLE_EQ(p.avoid_horizon, 1.5);
  EXPECT_DOUBLE_EQ(p.memory, 12);
  ASSERT_TRUE(p.stall.has_value());
  const StallParams& s = *p.stall;
  EXPECT_EQ(s.window, 30);
  EXPECT_DOUBLE_EQ(s.epsilon, 0.3);
  EXPECT_DOUBLE_EQ(s.v_threshold, 0.02);
  EXPECT_EQ(s.slow_ticks, 12);
  EXPECT_EQ(s.revisit_cells, 5);
  EXPECT_EQ(s.reversals, 4);
  EXPECT_DOUBLE_EQ(s.reversal_cos, -0.8);
  EXPECT_DOUBLE_EQ(s.force_epsilon, 0.2);
  EXPECT_EQ(s.cooldown, 7);
  EXPECT_DOUBLE_EQ(s.goal_radius, 0.35);
  EXPECT_DOUBLE_EQ(s.cell_hysteresis, 0.06);

  ASSERT_EQ(w.agents.size(), 2u);
  const AgentSpec& a = w.agents[0];
  EXPECT_EQ(a.id, 7);
  EXPECT_DOUBLE_EQ(a.start.x, 1.5);  // the map's S at cell (1, 1)
  EXPECT_DOUBLE_EQ(a.start.y, 1.5);
  EXPECT_DOUBLE_EQ(a.goal.x, 8.5);  // its G at cell (8, 6)
  EXPECT_DOUBLE_EQ(a.goal.y, 6.5);
  EXPECT_DOUBLE_EQ(a.radius, 0.25);
  EXPECT_DOUBLE_EQ(a.max_speed, 1.5);
  EXPECT_DOUBLE_EQ(a.max_accel, 6);
  EXPECT_EQ(a.planner, PlannerKind::replan);
  const AgentSpec& b = w.agents[1];
  EXPECT_EQ(b.id, 2);  // the default: its position in the list
  EXPECT_DOUBLE_EQ(b.start.x, 2.5);
  EXPECT_DOUBLE_EQ(b.start.y, 6.5);
  EXPECT_DOUBLE_EQ(b.goal.x, 8.25);
  EXPECT_DOUBLE_EQ(b.goal.y, 1.75);
  EXPECT_DOUBLE_EQ(b.radius, 0.3);
  EXPECT_DOUBLE_EQ(b.max_speed, 2);
  EXPECT_DOUBLE_EQ(b.max_accel, 8);
  EXPECT_EQ(b.planner, PlannerKind::apf);  // the scenario's default planner

  ASSERT_EQ(w.obstacles.size(), 3u);
  const Obstacle& d = w.obstacles[0];
  EXPECT_EQ(d.id, 10);
  EXPECT_EQ(d.shape.kind, ShapeKind::disc);
  EXPECT_DOUBLE_EQ(d.shape.radius, 0.4);
  EXPECT_TRUE(d.shape.points.empty());
  EXPECT_DOUBLE_EQ(d.motion.start.x, 7.5);
  EXPECT_DOUBLE_EQ(d.motion.start.y, 3.5);
  EXPECT_DOUBLE_EQ(d.motion.velocity.x, 0);
  EXPECT_DOUBLE_EQ(d.motion.velocity.y, 0.5);
  EXPECT_TRUE(d.motion.route.empty());
  EXPECT_DOUBLE_EQ(d.appear, 1);
  EXPECT_DOUBLE_EQ(d.disappear, 9);

  const Obstacle& poly = w.obstacles[1];
  EXPECT_EQ(poly.id, 2);
  EXPECT_EQ(poly.shape.kind, ShapeKind::polygon);
  ASSERT_EQ(poly.shape.points.size(), 3u);
  EXPECT_DOUBLE_EQ(poly.shape.points[1].x, 1);
  EXPECT_DOUBLE_EQ(poly.shape.points[1].y, 0);
  EXPECT_DOUBLE_EQ(poly.shape.points[2].y, 1);
  EXPECT_DOUBLE_EQ(poly.motion.start.x, 2);
  EXPECT_DOUBLE_EQ(poly.motion.start.y, 3);
  EXPECT_DOUBLE_EQ(poly.appear, 0);
  EXPECT_EQ(poly.disappear, std::numeric_limits<double>::infinity());

  const Obstacle& seg = w.obstacles[2];
  EXPECT_EQ(seg.id, 3);
  EXPECT_EQ(seg.shape.kind, ShapeKind::segment);
  ASSERT_EQ(seg.shape.points.size(), 2u);
  EXPECT_DOUBLE_EQ(seg.shape.points[1].y, 2);
  ASSERT_EQ(seg.motion.route.size(), 2u);
  EXPECT_DOUBLE_EQ(seg.motion.route[0].x, 8);
  EXPECT_DOUBLE_EQ(seg.motion.route[0].y, 1);
  EXPECT_DOUBLE_EQ(seg.motion.route[1].y, 5);
  EXPECT_DOUBLE_EQ(seg.motion.start.x, 8);  // a route starts at its first point
  EXPECT_DOUBLE_EQ(seg.motion.start.y, 1);
  EXPECT_DOUBLE_EQ(seg.motion.speed, 1.5);
  EXPECT_EQ(seg.motion.mode, RouteMode::ping_pong);

  // And it runs.
  World world(sc.world);
  for (int i = 0; i < 5; ++i) world.step();
  EXPECT_EQ(world.agents().size(), 2u);
}

TEST(Scenario, DefaultsApply) {
  const Scenario sc = parse_scenario(
      R"({"map": "room.txt", "agents": [{"start": "S", "goal": "G"}]})", in_data("minimal.json"));
  EXPECT_EQ(sc.name, "minimal");  // the file's stem
  EXPECT_EQ(sc.path, in_data("minimal.json"));
  EXPECT_EQ(sc.map_path, in_data("room.txt"));
  EXPECT_EQ(sc.seed, 1u);
  const WorldSpec& w = sc.world;
  const WorldSpec defaults;
  EXPECT_EQ(w.moves.diagonal, grid::DiagonalRule::no_corner_cut);
  EXPECT_EQ(w.moves.cost_model, defaults.moves.cost_model);
  EXPECT_DOUBLE_EQ(w.dt, 0.05);
  EXPECT_DOUBLE_EQ(w.time_limit, 60);
  const PlannerParams p;
  EXPECT_DOUBLE_EQ(w.params.field.k, p.field.k);
  EXPECT_DOUBLE_EQ(w.params.field.eta, p.field.eta);
  EXPECT_DOUBLE_EQ(w.params.field.rho0, p.field.rho0);
  EXPECT_DOUBLE_EQ(w.params.field.n, p.field.n);
  EXPECT_DOUBLE_EQ(w.params.field.beta, p.field.beta);
  EXPECT_DOUBLE_EQ(w.params.field.min_rho, p.field.min_rho);
  EXPECT_DOUBLE_EQ(w.params.subgoal_reach, p.subgoal_reach);
  EXPECT_DOUBLE_EQ(w.params.goal_reach, p.goal_reach);
  EXPECT_DOUBLE_EQ(w.params.global_replan_factor, p.global_replan_factor);
  EXPECT_DOUBLE_EQ(w.params.skip_margin, p.skip_margin);
  EXPECT_EQ(w.params.plans_per_tick, p.plans_per_tick);
  EXPECT_DOUBLE_EQ(w.params.avoid_horizon, p.avoid_horizon);
  EXPECT_DOUBLE_EQ(w.params.memory, p.memory);
  EXPECT_FALSE(w.params.stall.has_value());
  ASSERT_EQ(w.agents.size(), 1u);
  const AgentSpec a = w.agents[0];
  EXPECT_EQ(a.id, 1);
  EXPECT_DOUBLE_EQ(a.radius, 0.3);
  EXPECT_DOUBLE_EQ(a.max_speed, 2);
  EXPECT_DOUBLE_EQ(a.max_accel, 8);
  EXPECT_EQ(a.planner, PlannerKind::hybrid);
  EXPECT_TRUE(w.obstacles.empty());
}

TEST(Scenario, PartialStallStartsFromTheFixedDefaults) {
  const Scenario sc = parse_scenario(
      R"({"map": "room.txt", "params": {"stall": {"window": 9}},
          "agents": [{"start": "S", "goal": "G"}]})",
      in_data("stall.json"));
  ASSERT_TRUE(sc.world.params.stall.has_value());
  const StallParams defaults;
  EXPECT_EQ(sc.world.params.stall->window, 9);
  EXPECT_DOUBLE_EQ(sc.world.params.stall->epsilon, defaults.epsilon);
  EXPECT_EQ(sc.world.params.stall->cooldown, defaults.cooldown);
}

TEST(Scenario, MarkersResolveToCellCentresAndStringsDecode) {
  const Scenario sc = parse_scenario(
      "{\"name\": \"a\\u00e9\\ud83d\\ude00\\n\\t\\\\\\/\", \"map\": \"room.txt\",\n"
      " \"agents\": [{\"start\": \"G\", \"goal\": \"S\"}, {\"start\": [0, 0], \"goal\": "
      "[9.999, 7.999]}]}",
      in_data("markers.json"));
  EXPECT_EQ(sc.name, "a\xC3\xA9\xF0\x9F\x98\x80\n\t\\/");
  ASSERT_EQ(sc.world.agents.size(), 2u);
  EXPECT_DOUBLE_EQ(sc.world.agents[0].start.x, 8.5);
  EXPECT_DOUBLE_EQ(sc.world.agents[0].start.y, 6.5);
  EXPECT_DOUBLE_EQ(sc.world.agents[0].goal.x, 1.5);
  EXPECT_DOUBLE_EQ(sc.world.agents[0].goal.y, 1.5);
  EXPECT_DOUBLE_EQ(sc.world.agents[1].start.x, 0);  // the map's corner is inside
  EXPECT_DOUBLE_EQ(sc.world.agents[1].goal.y, 7.999);
}

TEST(Scenario, MapPathIsRelativeToTheScenarioFolder) {
  const Scenario sc =
      parse_scenario(R"({"map": "../data/room.txt", "agents": [{"start": "S", "goal": "G"}]})",
                     kData + "/../data/rel.json");
  EXPECT_EQ(sc.map_path, kData + "/../data/../data/room.txt");
  EXPECT_EQ(sc.world.grid.width(), 10);
}

TEST(Scenario, LoadScenarioReportsAMissingFile) {
  try {
    (void)load_scenario(in_data("no_such_scenario.json"));
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), in_data("no_such_scenario.json"));
    EXPECT_EQ(e.line(), 0);
  }
}

// ---- malformed files: each at its line, with a telling message ------------------------------

struct BadCase {
  const char* what;
  std::string text;
  int line;
  const char* fragment;
};

// One agent on the room map; the cases below break one thing at a time.
const std::vector<BadCase>& bad_cases() {
  static const std::vector<BadCase> cases = {
      // JSON syntax
      {"trailing comma in an object", "{\n  \"map\": \"room.txt\",\n}", 2, "trailing comma"},
      {"trailing comma in an array",
       "{\"map\": \"room.txt\",\n \"agents\": [{\"start\": \"S\", \"goal\": \"G\"},\n]}", 2,
       "trailing comma"},
      {"unterminated string", "{\n  \"map\": \"room.txt\n}", 2, "unterminated string"},
      {"unterminated string at the end", "{\n\n  \"map\": \"room", 3, "unterminated string"},
      {"bad escape", "{\n \"name\": \"a\\qb\"}", 2, "invalid escape '\\q'"},
      {"bad unicode escape", "{\n\n \"name\": \"\\u12G4\"}", 3, "invalid \\u escape"},
      {"lone surrogate", "{\"name\":\n \"\\ud800x\"}", 2, "surrogate"},
      {"invalid UTF-8", "{\"name\":\n \"\xC3\x28\"}", 2, "invalid UTF-8"},
      {"raw control character", "{\"name\": \"a\tb\"}", 1, "control character"},
      {"leading zero", "{\"map\": \"room.txt\",\n \"dt\": 01}", 2, "invalid number '01'"},
      {"bare minus", "{\n\"dt\": -}", 2, "invalid number"},
      {"fraction without digits", "{\n\"dt\": 1.}", 2, "invalid number '1.'"},
      {"hex number", "{\n\"dt\": 0x10}", 2, "invalid number"},
      {"number out of range", "{\n\n\n\"dt\": 1e999}", 4, "out of range"},
      {"empty file", "", 0, "empty file"},
      {"blank file", "\n  \n", 0, "empty file"},
      {"top level is an array", "\n[1, 2]", 2, "must be a JSON object, not an array"},
      {"top level is a string", "\"map\"", 1, "must be a JSON object, not a string"},
      {"depth bomb", "{\"a\":\n" + std::string(200, '['), 2, "nesting deeper than 64"},
      {"comment", "{\n// a comment\n\"map\": \"room.txt\"}", 2, "comments are not allowed"},
      {"duplicate key", "{\"map\": \"room.txt\",\n\n \"map\": \"plain.txt\"}", 3,
       "duplicate key 'map'"},
      {"missing comma", "{\"map\": \"room.txt\"\n \"dt\": 1}", 2, "expected ',' or '}'"},
      {"unclosed object", "{\"map\": \"room.txt\",\n \"dt\": 1\n", 3, "unexpected end of input"},
      {"garbage after the object", "{}\n\nx", 3, "after the end of the JSON value"},
      {"single quotes", "{\n'map': 1}", 2, "double quotes"},
      {"misspelt literal", "{\"name\":\n tru}", 2, "invalid literal 'tru'"},
      // unknown keys, at every level
      {"unknown top-level key",
       "{\"map\": \"room.txt\",\n \"agent\": [], \"agents\": [{\"start\": \"S\", \"goal\": "
       "\"G\"}]}",
       2, "unknown key 'agent' at the top level; expected one of name, map,"},
      {"unknown agent key",
       "{\"map\": \"room.txt\", \"agents\": [\n {\"start\": \"S\", \"goal\": \"G\"},\n {\"start\": "
       "\"S\", \"goal\": \"G\",\n  \"radus\": 0.4}]}",
       4, "unknown key 'radus' in agent 2; expected one of id, start, goal, radius"},
      {"unknown params key", "{\"params\": {\n \"etta\": 1}}", 2,
       "unknown key 'etta' in params; expected one of k, eta"},
      {"unknown stall key", "{\"params\": {\"stall\": {\n\n \"windo\": 3}}}", 3,
       "unknown key 'windo' in params.stall; expected one of window"},
      {"unknown obstacle key",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n "
       "\"obstacles\": [{\"id\": 4, \"shape\": \"disc\",\n \"velocty\": [1, 0]}]}",
       3, "unknown key 'velocty' in obstacle 4"},
      // wrong types
      {"dt is a string", "{\"map\": \"room.txt\",\n \"dt\": \"0.1\"}", 2,
       "'dt' must be a number, not a string"},
      {"map is a number", "{\n \"map\": 3, \"agents\": []}", 2,
       "'map' must be a string, not a number"},
      {"agents is an object", "{\"map\": \"room.txt\",\n \"agents\": {}}", 2,
       "'agents' must be an array, not an object"},
      {"agent is a number", "{\"map\": \"room.txt\", \"agents\": [\n 5]}", 2,
       "agent 1 must be an object, not a number"},
      {"params is an array", "{\"params\":\n [1]}", 2, "'params' must be an object"},
      {"point of one number",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\",\n \"goal\": [1]}]}", 2,
       "agent 1: 'goal' must be an array of two numbers"},
      {"point with a string",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\",\n \"goal\": [1, \"2\"]}]}", 2,
       "array of two numbers"},
      {"start names no marker",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"X\",\n \"goal\": \"G\"}]}", 1,
       "'start' must be [x, y], \"S\""},
      {"name is a number", "{\n\"name\": 1}", 2, "'name' must be a string"},
      // missing keys
      {"missing map", "{\n \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}]}", 1,
       "missing key 'map'"},
      {"missing agents", "{\n \"map\": \"room.txt\"}", 1, "missing key 'agents'"},
      {"no agents", "{\"map\": \"room.txt\",\n \"agents\": []}", 2, "at least one agent"},
      {"agent without a start", "{\"map\": \"room.txt\", \"agents\": [\n {\"goal\": \"G\"}]}", 2,
       "agent 1: missing key 'start'"},
      {"obstacle without a shape",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n "
       "\"obstacles\": [\n {\"radius\": 1}]}",
       3, "obstacle 1: missing key 'shape'"},
      {"polygon without points",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n "
       "\"obstacles\": [\n {\"shape\": \"polygon\"}]}",
       3, "obstacle 1: missing key 'points'"},
      // bad values
      {"dt zero", "{\"map\": \"room.txt\",\n \"dt\": 0}", 2, "'dt' must be > 0 (got 0)"},
      {"dt negative", "{\"map\": \"room.txt\",\n \"dt\": -0.5}", 2, "'dt' must be > 0 (got -0.5)"},
      {"time limit too large", "{\n \"time_limit\": 2e6}", 2, "'time_limit' must be in (0, 1e6]"},
      {"seed negative", "{\n \"seed\": -1}", 2, "'seed' must be an integer"},
      {"seed fractional", "{\n \"seed\": 1.5}", 2, "'seed' must be an integer"},
      {"unknown planner", "{\n \"planner\": \"astar\"}", 2, "'planner' must be one of hybrid, apf"},
      {"unknown diagonal rule", "{\n \"diagonal\": \"no_corner_cut\"}", 2,
       "'diagonal' must be never, no-corner-cut, one-corner or always"},
      {"beta below 1", "{\"params\": {\n \"beta\": 0.5}}", 2, "params.beta must be >= 1"},
      {"stall window zero", "{\"params\": {\"stall\": {\n \"window\": 0}}}", 2,
       "stall.window must be an integer in [1, 1000000]"},
      {"stall reversal_cos", "{\"params\": {\"stall\": {\n \"reversal_cos\": 2}}}", 2,
       "stall.reversal_cos must be in [-1, 1]"},
      {"negative radius",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n \"radius\": "
       "-0.3}]}",
       2, "agent 1: 'radius' must be in (0, 8) (got -0.3)"},
      {"huge radius",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n \"radius\": "
       "1e308}]}",
       2, "agent 1: 'radius' must be in (0, 8) (got 1e+308)"},
      {"speed zero",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n \"speed\": "
       "0}]}",
       2, "agent 1: 'speed' must be > 0"},
      {"accel negative",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n \"accel\": "
       "-8}]}",
       2, "agent 1: 'accel' must be > 0"},
      {"unknown agent planner",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n \"planner\": "
       "\"rrt\"}]}",
       2, "agent 1: 'planner' must be one of"},
      {"start on a wall",
       "{\"map\": \"room.txt\", \"agents\": [\n {\"id\": 3, \"goal\": \"G\",\n  \"start\": [4.5, "
       "3.5]}]}",
       3, "agent 3: start (4.5, 3.5) is on a wall"},
      {"start outside the map",
       "{\"map\": \"room.txt\", \"agents\": [\n {\"goal\": \"G\",\n  \"start\": [10.5, 2]}]}", 3,
       "agent 1: start (10.5, 2) is outside the map (10x8)"},
      {"goal at a negative coordinate",
       "{\"map\": \"room.txt\", \"agents\": [\n {\"start\": \"S\",\n  \"goal\": [-0.1, 1]}]}", 3,
       "agent 1: goal (-0.1, 1) is outside the map"},
      {"duplicate agent ids",
       "{\"map\": \"room.txt\", \"agents\": [{\"id\": 4, \"start\": \"S\", \"goal\": \"G\"},\n "
       "{\"id\": 4, \"start\": \"S\", \"goal\": \"G\"}]}",
       2, "duplicate agent id 4"},
      {"duplicate default agent id",
       "{\"map\": \"room.txt\", \"agents\": [{\"id\": 2, \"start\": \"S\", \"goal\": \"G\"},\n "
       "{\"start\": \"S\", \"goal\": \"G\"}]}",
       2, "duplicate agent id 2 (the default"},
      {"agent id fractional",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n \"id\": 1.5}]}",
       2, "agent id must be an integer"},
      {"duplicate obstacle ids",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}], \"obstacles\": "
       "[\n {\"shape\": \"disc\"},\n {\"shape\": \"disc\", \"id\": 1}]}",
       3, "duplicate obstacle id 1"},
      {"velocity and route together",
       "{\"obstacles\": [{\"shape\": \"disc\", \"route\": [[1, 1]],\n \"velocity\": [1, 0]}]}", 2,
       "obstacle 1: 'velocity' and 'route' are exclusive"},
      {"at and route together",
       "{\"obstacles\": [{\"shape\": \"disc\",\n \"at\": [1, 1], \"route\": [[1, 1]]}]}", 2,
       "'at' and 'route' are exclusive"},
      {"route with a bad mode",
       "{\"obstacles\": [{\"shape\": \"disc\", \"route\": [[1, 1]],\n \"mode\": \"bounce\"}]}", 2,
       "obstacle 1: 'mode' must be once, loop or ping-pong, not \"bounce\""},
      {"empty route", "{\"obstacles\": [{\"shape\": \"disc\",\n \"route\": []}]}", 2,
       "'route' needs at least one point"},
      {"speed without a route", "{\"obstacles\": [{\"shape\": \"disc\",\n \"speed\": 2}]}", 2,
       "'speed' needs a 'route'"},
      {"route speed zero",
       "{\"obstacles\": [{\"shape\": \"disc\", \"route\": [[1, 1]],\n \"speed\": 0}]}", 2,
       "obstacle 1: 'speed' must be > 0"},
      {"polygon with two points",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n "
       "\"obstacles\": [\n {\"shape\": \"polygon\", \"points\": [[0, 0], [1, 0]]}]}",
       3, "obstacle 1: a polygon needs at least 3 points"},
      {"segment with three points",
       "{\"obstacles\": [\n\n {\"shape\": \"segment\", \"points\": [[0, 0], [1, 0], [1, 1]]}]}", 3,
       "a segment needs exactly 2 points"},
      {"disc with points",
       "{\"obstacles\": [{\"shape\": \"disc\",\n \"points\": [[0, 0], [1, 0], [1, 1]]}]}", 2,
       "'points' is not for a disc"},
      {"polygon with a radius",
       "{\"obstacles\": [{\"shape\": \"polygon\", \"points\": [[0, 0], [1, 0], [1, 1]],\n "
       "\"radius\": 1}]}",
       2, "'radius' is only for a disc"},
      {"unknown shape", "{\"obstacles\": [{\n \"shape\": \"square\"}]}", 2,
       "'shape' must be disc, segment or polygon"},
      {"negative appear", "{\"obstacles\": [{\"shape\": \"disc\",\n \"appear\": -1}]}", 2,
       "'appear' must be >= 0"},
      {"disappear before appear",
       "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n "
       "\"obstacles\": [{\"shape\": \"disc\", \"appear\": 5, \"disappear\": 2}]}",
       2, "obstacle 1: needs 0 <= appear < disappear"},
      {"empty map name", "{\n \"map\": \"\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}]}", 2,
       "'map' must not be empty"},
      // the map
      {"missing map file",
       "{\"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n\n \"map\": \"nope.txt\"}", 3,
       "not found"},
      {"map is a folder", "{\"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n \"map\": \".\"}",
       2, "is not a regular file"},
      {"map without a start marker",
       "{\"map\": \"plain.txt\", \"agents\": [\n {\"start\": \"S\", \"goal\": [0.5, 0.5]}]}", 2,
       "agent 1: start \"S\" but the map"},
      {"map without a goal marker",
       "{\"map\": \"plain.txt\", \"agents\": [\n {\"start\": [0.5, 0.5],\n \"goal\": \"G\"}]}", 3,
       "has no goal marker"},
  };
  return cases;
}

TEST(Scenario, MalformedFilesAreRefusedAtTheirLine) {
  ASSERT_GE(bad_cases().size(), 30u);
  for (const BadCase& c : bad_cases()) {
    SCOPED_TRACE(c.what);
    const Failure f = failure_of(c.text);
    EXPECT_EQ(f.file, in_data("case.json"));
    EXPECT_EQ(f.line, c.line) << f.message;
    EXPECT_NE(f.message.find(c.fragment), std::string::npos)
        << "message: " << f.message << "\nexpected to contain: " << c.fragment;
  }
}

TEST(Scenario, MissingMapFileNamesTheResolvedPath) {
  const Failure f = failure_of(
      "{\"map\": \"../data/nope.txt\",\n \"agents\": [{\"start\": \"S\", \"goal\": "
      "\"G\"}]}");
  EXPECT_EQ(f.line, 1);
  EXPECT_NE(f.message.find(kData + "/../data/nope.txt"), std::string::npos) << f.message;
}

TEST(Scenario, MapThatFailsToParseNamesTheMap) {
  const Failure f =
      failure_of("{\"map\": \"broken.map\",\n \"agents\": [{\"start\": \"S\", \"goal\": \"G\"}]}");
  EXPECT_EQ(f.file, in_data("broken.map"));
  EXPECT_EQ(f.line, 2);
  EXPECT_NE(f.message.find("height"), std::string::npos) << f.message;
}

TEST(Scenario, UnknownKeyListsTheExpectedKeys) {
  const Failure f = failure_of(
      "{\"map\": \"room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": \"G\", \"radus\": 1}]}");
  EXPECT_EQ(f.message,
            "unknown key 'radus' in agent 1; expected one of id, start, goal, radius, speed, "
            "accel, planner, target");
}

TEST(Scenario, NeverThrowsAnythingButParseErrorOnMutations) {
  // Every prefix and a few byte flips of a valid file: only ParseError may escape.
  const std::string text =
      R"({"map": "room.txt", "dt": 0.05, "params": {"stall": {"window": 5}},
 "agents": [{"id": 1, "start": "S", "goal": [8.5, 6.5], "radius": 0.3}],
 "obstacles": [{"shape": "segment", "points": [[0, 0], [0, 2]], "route": [[8, 1], [8, 5]],
  "mode": "loop"}]})";
  EXPECT_NO_THROW((void)parse_scenario(text, in_data("mut.json")));
  for (std::size_t n = 0; n < text.size(); ++n) {
    try {
      (void)parse_scenario(text.substr(0, n), in_data("mut.json"));
      ADD_FAILURE() << "prefix of " << n << " bytes parsed";
    } catch (const ParseError&) {
    }
    for (char c : {'"', '[', '}', ',', '\\', '\0', '\xff', '9', 'e'}) {
      std::string t = text;
      t[n] = c;
      try {
        (void)parse_scenario(t, in_data("mut.json"));
      } catch (const ParseError&) {
      }
    }
  }
}

TEST(Scenario, BundledScenariosParseAndBuildAWorld) {
  const std::filesystem::path dir = PATHLAB_SOURCE_DIR "/scenarios";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;  // none yet
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    try {
      const Scenario sc = load_scenario(f.string());
      EXPECT_FALSE(sc.world.agents.empty());
      World world(sc.world);
      EXPECT_EQ(world.agents().size(), sc.world.agents.size());
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(Scenario, DocsExampleParses) {
  // The example of docs/simulation.md, "Scenario files", placed in scenarios/ as it says.
  std::ifstream in(PATHLAB_SOURCE_DIR "/docs/simulation.md");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t section = page.find("## Scenario files");
  ASSERT_NE(section, std::string::npos);
  const std::size_t begin = page.find("```json\n", section);
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = page.find("```", begin + 8);
  ASSERT_NE(end, std::string::npos);
  const std::string example = page.substr(begin + 8, end - begin - 8);
  try {
    const Scenario sc = parse_scenario(example, PATHLAB_SOURCE_DIR "/scenarios/page.json");
    EXPECT_EQ(sc.world.agents.size(), 2u);
    EXPECT_EQ(sc.world.obstacles.size(), 4u);
    World world(sc.world);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
}

TEST(Scenario, AChaseTargetReplacesTheGoal) {
  const std::string dir = ::testing::TempDir();
  { std::ofstream(dir + "/chase_room.txt") << "S.........\n..........\n..........\n"; }
  const Scenario sc = parse_scenario(
      "{\"map\": \"chase_room.txt\", \"agents\": [{\"start\": \"S\",\n"
      " \"target\": {\"route\": [[8.5, 1.5], [8.5, 2.5]], \"speed\": 0.5, \"mode\": "
      "\"ping-pong\"}}]}",
      dir + "/chase.json");
  ASSERT_TRUE(sc.world.agents[0].target.has_value());
  EXPECT_EQ(sc.world.agents[0].target->route.size(), 2u);
  EXPECT_EQ(sc.world.agents[0].target->mode, RouteMode::ping_pong);
  EXPECT_DOUBLE_EQ(sc.world.agents[0].target->speed, 0.5);
  try {
    (void)parse_scenario(
        "{\"map\": \"chase_room.txt\", \"agents\": [{\"start\": \"S\", \"goal\": [1.5, 1.5],\n"
        " \"target\": {\"at\": [8.5, 1.5]}}]}",
        dir + "/both.json");
    FAIL() << "goal and target together were accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(e.message().find("exclusive"), std::string::npos) << e.message();
  }
}

TEST(Scenario, AMapReaderGivesTheMapWithoutTheDisk) {
  // The static web page holds its maps in memory: the reader is asked for the map path as
  // resolved against the scenario's folder, and the scenario is the one read from disk.
  std::vector<std::string> asked;
  const MapReader memory = [&](const std::string& map_path,
                               std::string&) -> std::optional<io::Map> {
    asked.push_back(map_path);
    return io::load_map(in_data("room.txt"));
  };
  std::ifstream in(in_data("full.json"));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const Scenario from_memory = parse_scenario(text, "virtual/folder/full.json", memory);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], "virtual/folder/room.txt");
  EXPECT_EQ(from_memory.map_path, "virtual/folder/room.txt");
  const Scenario from_disk = load_scenario(in_data("full.json"));
  EXPECT_TRUE(from_memory.world.grid == from_disk.world.grid);
  EXPECT_EQ(from_memory.world.agents.size(), from_disk.world.agents.size());
  EXPECT_EQ(from_memory.name, from_disk.name);

  // A reader that has no such map: its problem, at the line of "map".
  const MapReader none = [](const std::string& map_path, std::string& problem) {
    problem = "no map '" + map_path + "' here";
    return std::optional<io::Map>();
  };
  try {
    (void)parse_scenario(
        "{\"agents\": [{\"start\": \"S\", \"goal\": \"G\"}],\n\n \"map\": \"x.txt\"}",
        "mem/case.json", none);
    FAIL() << "a map the reader does not have was accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "mem/case.json");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.message(), "no map 'mem/x.txt' here");
  }
}
