// pathlab::json's smaller shapes: maps as /api/maps sends them, simulation results as
// `simulate --json` prints them, and bench rows' optional fields.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <pathlab/json/agents.hpp>
#include <pathlab/json/bench.hpp>
#include <pathlab/json/grid.hpp>

namespace pathlab {
namespace {

TEST(ShapesJson, MapHasItsWallsRowMajorAndItsMarkers) {
  const io::Map m = io::parse_map("S.#\n.#G\n", "t.ascii");
  const nlohmann::json j = json::loaded_map(m, "t.ascii");
  EXPECT_EQ(j["width"], 3);
  EXPECT_EQ(j["height"], 2);
  EXPECT_EQ(j["walls"], "001010");
  EXPECT_EQ(j["name"], "t.ascii");
  EXPECT_EQ(j["start"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(j["goal"], nlohmann::json::array({2, 1}));
  EXPECT_FALSE(j.contains("terrain"));

  const io::Map bare = io::parse_map("..\n..\n", "bare.ascii");
  const nlohmann::json b = json::loaded_map(bare, "bare.ascii");
  EXPECT_TRUE(b["start"].is_null());
  EXPECT_TRUE(b["goal"].is_null());
  EXPECT_EQ(json::walls(bare.grid)["walls"], "0000");
}

TEST(ShapesJson, SimulationRunHasTheContractsFields) {
  agents::AgentMetrics near, alone;
  near.id = 3;
  near.arrived = true;
  near.time = 4.5;
  near.min_clearance = 0.25;
  near.collisions = 1;
  alone.id = 4;
  alone.min_clearance = std::numeric_limits<double>::infinity();  // nothing came near
  const nlohmann::json j = json::simulation_run("door", "hybrid", 90, {near, alone}, {10, 20, 5});
  EXPECT_EQ(j["scenario"], "door");
  EXPECT_EQ(j["planner"], "hybrid");
  EXPECT_EQ(j["ticks"], 90);
  EXPECT_EQ(j["tick_us"]["mean"], 10.0);
  EXPECT_EQ(j["tick_us"]["p99"], 20.0);
  ASSERT_EQ(j["agents"].size(), 2u);
  const nlohmann::json& a = j["agents"][0];
  for (const char* k :
       {"id", "arrived", "time", "path_length", "optimal_length", "min_clearance", "collisions",
        "collision_time", "stalls", "local_replans", "global_replans"}) {
    EXPECT_TRUE(a.contains(k)) << k;
  }
  EXPECT_EQ(a["id"], 3);
  EXPECT_EQ(a["arrived"], true);
  EXPECT_EQ(a["time"], 4.5);
  EXPECT_EQ(a["min_clearance"], 0.25);
  EXPECT_EQ(a["collisions"], 1);
  EXPECT_TRUE(j["agents"][1]["min_clearance"].is_null());
  // The server's per-agent metrics keep the number and carry no id.
  EXPECT_FALSE(json::agent_metrics(near).contains("id"));
}

TEST(ShapesJson, BenchRowsAddOptionalFieldsOnlyWhenAsked) {
  bench::Row r;
  r.algorithm = "astar";
  r.optimal = true;
  r.queries = 10;
  r.solved = 9;
  bench::MapRow m;
  m.map = "arena.map";
  m.queries = 10;
  r.maps.push_back(m);
  const nlohmann::json plain = json::bench_row(r, false, false);
  for (const char* k :
       {"algorithm", "queries", "solved", "suboptimal", "illegal", "gave_up", "max_error",
        "mean_us", "median_us", "p99_us", "mean_expanded", "prep_s", "maps"}) {
    EXPECT_TRUE(plain.contains(k)) << k;
  }
  EXPECT_EQ(plain["queries"], 10);
  EXPECT_EQ(plain["solved"], 9);
  EXPECT_EQ(plain["maps"][0]["map"], "arena.map");
  EXPECT_FALSE(plain.contains("mean_ratio"));
  EXPECT_FALSE(plain.contains("edit_us"));
  EXPECT_FALSE(plain.contains("smoothed_length"));
  const nlohmann::json both = json::bench_row(r, true, true);
  EXPECT_TRUE(both.contains("edit_us"));
  EXPECT_TRUE(both.contains("smoothed_length"));
  EXPECT_TRUE(both["maps"][0].contains("smoothed_length"));
  r.optimal = false;
  EXPECT_TRUE(json::bench_row(r, false, false).contains("mean_ratio"));

  bench::Lengths l;
  EXPECT_FALSE(json::bench_lengths(l).contains("vs_exact"));
  l.exact_queries = 2;
  EXPECT_TRUE(json::bench_lengths(l).contains("vs_exact"));
}

}  // namespace
}  // namespace pathlab
