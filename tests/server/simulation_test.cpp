// The simulation API of `pathlab serve` (apps/server/simulation.hpp) over HTTP: a server on a
// free loopback port in this process, spoken to with cpp-httplib's client, as the web page's
// simulation view speaks to it.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "server_fixture.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

class SimulationApi : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    pathlab::server::Config config;
    config.map_dirs = {PATHLAB_SOURCE_DIR "/maps"};
    config.scenario_dirs = {PATHLAB_SOURCE_DIR "/scenarios"};
    config.max_sessions = 4;
    start_server(config);
  }
  static void TearDownTestSuite() { stop_server(); }

  /// A new session of a shipped scenario (fails the test when the server refuses).
  static json start(const std::string& file, const json& extra = json::object()) {
    json r = extra;
    r["scenario"] = file;
    const Answer a = post("/api/sim", r);
    EXPECT_EQ(a.status, 200) << file << ": " << a.body.dump();
    return a.body;
  }
  static json step(const json& session, int ticks) {
    const Answer a =
        post("/api/sim/" + session["id"].get<std::string>() + "/step", json{{"ticks", ticks}});
    EXPECT_EQ(a.status, 200) << a.body.dump();
    return a.body;
  }
};

double at(const json& v, int k) {
  return v[k].get<double>();
}

/// Position finite, inside the map, and its cell not a wall.
void expect_sane(const json& agent, const json& grid) {
  const double x = at(agent["position"], 0), y = at(agent["position"], 1);
  ASSERT_TRUE(std::isfinite(x) && std::isfinite(y)) << agent.dump();
  const int w = grid["width"], h = grid["height"];
  ASSERT_TRUE(x >= 0 && y >= 0 && x < w && y < h) << agent.dump();
  const auto cell = static_cast<std::size_t>(static_cast<int>(y) * w + static_cast<int>(x));
  EXPECT_EQ(grid["walls"].get<std::string>()[cell], '0') << agent.dump();
  for (const auto& p : agent["plan"])
    EXPECT_TRUE(std::isfinite(at(p, 0)) && std::isfinite(at(p, 1)));
}

TEST_F(SimulationApi, EveryShippedScenarioStarts) {
  const Answer list = get("/api/scenarios");
  ASSERT_EQ(list.status, 200);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(PATHLAB_SOURCE_DIR "/scenarios")) {
    files += e.path().extension() == ".json";
  }
  ASSERT_EQ(list.body["scenarios"].size(), files);
  bool chase = false;
  for (const auto& s : list.body["scenarios"]) {
    ASSERT_FALSE(s.contains("error")) << s.dump();
    const json session = start(s["file"]);
    ASSERT_TRUE(session.contains("id")) << s["file"];
    EXPECT_EQ(session["name"], s["name"]);
    const json& g = session["grid"];
    EXPECT_EQ(g["walls"].get<std::string>().size(),
              g["width"].get<std::size_t>() * g["height"].get<std::size_t>());
    EXPECT_GT(session["dt"].get<double>(), 0);
    EXPECT_EQ(session["agents"].size(), s["agents"].get<std::size_t>());
    EXPECT_EQ(session["state"]["agents"].size(), session["agents"].size());
    EXPECT_EQ(session["state"]["ticks"], 0);
    EXPECT_EQ(session["state"]["time"], 0.0);
    for (const auto& a : session["state"]["agents"]) expect_sane(a, g);
    for (const auto& a : session["agents"]) chase = chase || a["chase"].get<bool>();
  }
  EXPECT_TRUE(chase) << "chase_target.json should have an agent with a target";
}

TEST_F(SimulationApi, AClickSendsTheFlowCrowdToANewRallyPoint) {
  const json s = start("army_500.json");
  const std::string id = s["id"];
  const Answer first = get("/api/sim/" + id + "/field?agent=0");
  ASSERT_EQ(first.status, 200) << first.body.dump();
  EXPECT_EQ(first.body["goals"], json::array({json::array({109, 69})}));
  step(s, 20);
  const json rally = json::array({60.5, 10.5});
  const Answer sent = post("/api/sim/" + id + "/goal", json{{"goal", rally}});
  ASSERT_EQ(sent.status, 200) << sent.body.dump();
  EXPECT_EQ(sent.body["sent"], 500);
  EXPECT_EQ(sent.body["field"]["goals"], json::array({json::array({60, 10})}));
  auto mean_distance = [&](const json& state) {
    double sum = 0;
    for (const auto& a : state["agents"]) {
      sum += std::hypot(at(a["position"], 0) - 60.5, at(a["position"], 1) - 10.5);
    }
    return sum / static_cast<double>(state["agents"].size());
  };
  const double before = mean_distance(sent.body);
  const json later = step(s, 200);
  EXPECT_LT(mean_distance(later), before - 5) << "the crowd heads for the new rally point";
  for (const auto& a : later["agents"]) EXPECT_EQ(a["goal"], rally);
  const Answer wall = post("/api/sim/" + id + "/goal", json{{"goal", {33.5, 20.5}}});
  EXPECT_EQ(wall.status, 422) << wall.body.dump();
  EXPECT_EQ(post("/api/sim/" + id + "/goal", json{{"at", {1, 2}}}).status, 400);
  // A simulation without flow agents has no field and no rally point.
  const json plain = start("hybrid_l_trap.json");
  EXPECT_EQ(get("/api/sim/" + plain["id"].get<std::string>() + "/field?agent=0").status, 422);
  EXPECT_EQ(
      post("/api/sim/" + plain["id"].get<std::string>() + "/goal", json{{"goal", rally}}).status,
      422);
}

TEST_F(SimulationApi, PlannerOverride) {
  const json s = start("hybrid_l_trap.json", {{"planner", "dstar"}});
  for (const auto& a : s["agents"]) EXPECT_EQ(a["planner"], "dstar");
}

TEST_F(SimulationApi, SteppingAdvancesTimeByTicksTimesDt) {
  const json s = start("hybrid_l_trap.json");
  const double dt = s["dt"];
  json st = step(s, 7);
  EXPECT_EQ(st["ticks"], 7);
  EXPECT_NEAR(st["time"].get<double>(), 7 * dt, 1e-9);
  EXPECT_EQ(st["tick_us"]["ticks"], 7);
  st = step(s, 1);
  EXPECT_EQ(st["ticks"], 8);
  EXPECT_NEAR(st["time"].get<double>(), 8 * dt, 1e-9);
  // Run to the end: every replan the counters show was reported once as an event.
  int local = 0, global = 0, arrived = 0;
  const json first = s["state"]["agents"][0]["metrics"];
  for (int guard = 0; guard < 10 && !st["finished"].get<bool>(); ++guard) {
    st = step(s, 500);
    for (const auto& e : st["events"]) {
      if (e["kind"] == "local_replan") local += e["count"].get<int>();
      if (e["kind"] == "global_replan") global += e["count"].get<int>();
      if (e["kind"] == "arrived") ++arrived;
    }
  }
  ASSERT_TRUE(st["finished"].get<bool>());
  const json& a = st["agents"][0];
  EXPECT_TRUE(a["arrived"].get<bool>()) << a.dump();
  EXPECT_EQ(arrived, 1);
  EXPECT_LE(local, a["metrics"]["local_replans"].get<int>() - first["local_replans"].get<int>());
  EXPECT_LE(global, a["metrics"]["global_replans"].get<int>() - first["global_replans"].get<int>());
  // A finished world does not move on.
  const json again = step(s, 5);
  EXPECT_EQ(again["ticks"], st["ticks"]);
}

TEST_F(SimulationApi, ObstacleDroppedOnThePath) {
  // One agent, nothing in its way but what is dropped; a twin session without the drop shows
  // that the replans come from it.
  const json text = {{"scenario_text", R"({"map": "../maps/hybrid_30x20.txt", "agents": [)"
                                       R"({"start": "S", "goal": "G", "planner": "hybrid"}]})"}};
  const Answer created = post("/api/sim", text), twin = post("/api/sim", text);
  ASSERT_EQ(created.status, 200) << created.body.dump();
  ASSERT_EQ(twin.status, 200) << twin.body.dump();
  const json& s = created.body;
  const std::string id = s["id"];
  json st = step(s, 10);
  step(twin.body, 10);
  const json& agent = st["agents"][0];
  // Three cells ahead along the plan (from the agent's position), a disc of radius 0.4.
  double px = at(agent["position"], 0), py = at(agent["position"], 1), left = 3;
  for (const auto& w : agent["plan"]) {
    const double d = std::hypot(at(w, 0) - px, at(w, 1) - py);
    if (d >= left) {
      px += (at(w, 0) - px) * left / d;
      py += (at(w, 1) - py) * left / d;
      left = 0;
      break;
    }
    left -= d;
    px = at(w, 0);
    py = at(w, 1);
  }
  ASSERT_EQ(left, 0) << "the plan is shorter than three cells: " << agent.dump();
  const std::size_t before = st["obstacles"].size();
  const Answer added = post("/api/sim/" + id + "/obstacle",
                            json{{"kind", "disc"}, {"at", {px, py}}, {"radius", 0.4}});
  ASSERT_EQ(added.status, 200) << added.body.dump();
  ASSERT_EQ(added.body["obstacles"].size(), before + 1);
  const json& disc = added.body["obstacles"].back();
  EXPECT_EQ(disc["kind"], "disc");
  EXPECT_EQ(disc["id"], added.body["added"]);
  EXPECT_NEAR(at(disc["centre"], 0), px, 1e-9);
  EXPECT_NEAR(at(disc["centre"], 1), py, 1e-9);
  EXPECT_EQ(disc["radius"], 0.4);
  EXPECT_EQ(added.body["ticks"], st["ticks"]);  // dropping does not step

  // An L-shaped polygon too, in world coordinates: its points plus "at".
  const Answer poly = post("/api/sim/" + id + "/obstacle",
                           json{{"kind", "polygon"},
                                {"at", {26, 2}},
                                {"points", {{0, 0}, {2, 0}, {2, 2}, {1, 2}, {1, 1}, {0, 1}}}});
  ASSERT_EQ(poly.status, 200) << poly.body.dump();
  const json& l = poly.body["obstacles"].back();
  EXPECT_EQ(l["kind"], "polygon");
  EXPECT_EQ(l["points"][2], json({28.0, 4.0}));

  // The agent goes around: it replans (the world senses what was dropped), stays on free cells
  // and never enters the disc, and still arrives. (How close it passes is the planner's
  // business, tested in tests/agents.)
  int replans = 0, twin_replans = 0;
  for (int k = 0; k < 400 && !st["finished"].get<bool>(); ++k) {
    st = step(s, 3);
    if (k < 20) {
      const json other = step(twin.body, 3);
      for (const auto& e : other["events"]) twin_replans += e["kind"] != "arrived";
    }
    const json& a = st["agents"][0];
    expect_sane(a, s["grid"]);
    const double gap = std::hypot(at(a["position"], 0) - px, at(a["position"], 1) - py);
    EXPECT_GT(gap, 0.4) << "tick " << st["ticks"] << ": " << a.dump();
    for (const auto& e : st["events"]) {
      const auto tick = e["tick"].get<int>();
      if (tick <= 10 + 60 && (e["kind"] == "local_replan" || e["kind"] == "global_replan")) {
        ++replans;
      }
    }
  }
  EXPECT_GT(replans, 0) << "no replan within 3 s of dropping a disc on the plan";
  EXPECT_EQ(twin_replans, 0) << "the twin without the disc replanned too";
  EXPECT_TRUE(st["agents"][0]["arrived"].get<bool>()) << st["agents"][0].dump();
}

TEST_F(SimulationApi, KeyboardDrivesTheChaseTarget) {
  const json s = start("chase_target.json");
  const std::string id = s["id"];
  json st = step(s, 4);
  const json goal0 = st["agents"][0]["goal"];
  const Answer up = post("/api/sim/" + id + "/target", json{{"agent", 1}, {"velocity", {0, -2}}});
  ASSERT_EQ(up.status, 200) << up.body.dump();
  EXPECT_EQ(up.body["driven"], 1);
  st = step(s, 10);
  const json goal1 = st["agents"][0]["goal"];
  EXPECT_NEAR(at(goal1, 0), at(goal0, 0), 1e-9);  // the route would have moved it in x
  EXPECT_NEAR(at(goal1, 1), at(goal0, 1) - 10 * 2 * s["dt"].get<double>(), 1e-9);
  // Zero stops it; "index" names the agent by position.
  ASSERT_EQ(post("/api/sim/" + id + "/target", json{{"index", 0}, {"velocity", {0, 0}}}).status,
            200);
  st = step(s, 5);
  EXPECT_EQ(st["agents"][0]["goal"], goal1);
  // Without "agent" or "index": the first agent that chases.
  ASSERT_EQ(post("/api/sim/" + id + "/target", json{{"velocity", {1, 0}}}).status, 200);
  st = step(s, 5);
  EXPECT_GT(at(st["agents"][0]["goal"], 0), at(goal1, 0));
}

TEST_F(SimulationApi, LeastRecentlyUsedSessionIsEvicted) {
  const json oldest = start("hybrid_l_trap.json");
  const json kept = start("hybrid_l_trap.json");
  step(kept, 1);
  for (int k = 0; k < 3; ++k) step(start("hybrid_l_trap.json"), 1);
  EXPECT_EQ(post("/api/sim/" + oldest["id"].get<std::string>() + "/step", json::object()).status,
            404);
  EXPECT_EQ(post("/api/sim/" + kept["id"].get<std::string>() + "/step", json::object()).status,
            200);
  EXPECT_EQ(del("/api/sim/" + kept["id"].get<std::string>()).status, 200);
  EXPECT_EQ(del("/api/sim/" + kept["id"].get<std::string>()).status, 404);
}

TEST_F(SimulationApi, SessionsStepAtOnce) {
  // Two pages stepping their own worlds, a third dropping obstacles into one of them: every
  // answer is whole and every world counts its own ticks.
  const json a = start("crowd_50.json"), b = start("corridor_oncoming.json");
  std::atomic<int> bad{0};
  auto stepper = [&bad](const json& s) {
    for (int k = 0; k < 20; ++k) {
      const Answer r = post("/api/sim/" + s["id"].get<std::string>() + "/step", json{{"ticks", 2}});
      if (r.status != 200 || r.body["ticks"] != 2 * (k + 1)) ++bad;
    }
  };
  std::thread ta(stepper, a), tb(stepper, b);
  for (int k = 0; k < 10; ++k) {
    const Answer r = post("/api/sim/" + a["id"].get<std::string>() + "/obstacle",
                          json{{"kind", "disc"}, {"at", {1.5 + k, 19.5}}, {"radius", 0.3}});
    if (r.status != 200) ++bad;
  }
  ta.join();
  tb.join();
  EXPECT_EQ(bad, 0);
}

TEST_F(SimulationApi, BadRequestsGetJsonErrors) {
  const json s = start("hybrid_l_trap.json");
  const std::string sim = "/api/sim/" + s["id"].get<std::string>();
  struct Case {
    std::string path, body;
    int status;
  };
  const Case cases[] = {
      {"/api/sim", "not json", 400},
      {"/api/sim", "[1, 2]", 400},
      {"/api/sim", "{}", 400},
      {"/api/sim", R"({"scenario": 3})", 400},
      {"/api/sim", R"({"scenario": "missing.json"})", 404},
      {"/api/sim", R"({"scenario": "../scenarios/hybrid_l_trap.json"})", 404},
      {"/api/sim", R"({"scenario": "hybrid_l_trap.json", "planner": "warp"})", 422},
      {"/api/sim", R"({"scenario_text": "{\"map\": \"/etc/passwd\", \"agents\": []}"})", 422},
      {"/api/sim", R"({"scenario_text": "{\"map\": \"../../../../etc/passwd\"}"})", 422},
      {"/api/sim", R"({"scenario_text": "{\"agents\": []}"})", 422},
      {"/api/sim", R"({"scenario_text": "{\"map\": \"hybrid_30x20.txt\",}"})", 400},
      {"/api/sim",
       R"({"scenario_text": "{\"map\": \"hybrid_30x20.txt\", \"agents\": [{\"start\": \"S\", \"goal\": [8.5, 5.5]}]}"})",
       422},  // the goal is in a wall
      {"/api/sim/nope/step", "{}", 404},
      {sim + "/step", R"({"ticks": 0})", 422},
      {sim + "/step", R"({"ticks": 100000})", 422},
      {sim + "/step", R"({"ticks": "many"})", 400},
      {sim + "/obstacle", R"({"kind": "star", "at": [3, 3]})", 422},
      {sim + "/obstacle", R"({"kind": "disc"})", 400},
      {sim + "/obstacle", R"({"kind": "disc", "at": [3, 3], "radius": -1})", 422},
      {sim + "/obstacle", R"({"kind": "disc", "at": [300, 3]})", 422},
      {sim + "/obstacle", R"({"kind": "disc", "at": "here"})", 400},
      {sim + "/obstacle", R"({"kind": "polygon", "at": [3, 3], "points": [[0, 0], [1, 0]]})", 422},
      {sim + "/obstacle", R"({"kind": "segment", "at": [3, 3], "points": [[0, 0]]})", 422},
      {sim + "/target", R"({"velocity": [1, 0]})", 422},  // nobody chases here
      {sim + "/target", R"({"agent": 1, "velocity": [1, 0]})", 422},
      {sim + "/target", R"({"velocity": "fast"})", 400},
      {"/api/sim/nope/target", R"({"velocity": [1, 0]})", 404},
  };
  for (const Case& c : cases) {
    const Answer a = post_text(c.path, c.body);
    EXPECT_EQ(a.status, c.status) << c.path << " " << c.body << " -> " << a.body.dump();
    EXPECT_TRUE(a.body.is_object() && a.body.contains("error") && a.body["error"].is_string())
        << c.path << " " << c.body << " -> " << a.body.dump();
  }
  // A scenario's own mistakes name the line of the scenario text.
  const Answer typo = post("/api/sim", json{{"scenario_text",
                                             "{\"map\": \"../maps/hybrid_30x20.txt\",\n"
                                             "\"agents\": [{\"start\": \"S\", \"goal\": \"G\",\n"
                                             "\"radus\": 1}]}"}});
  EXPECT_EQ(typo.status, 422);
  EXPECT_EQ(typo.body["error"].get<std::string>().rfind("scenario_text:3: unknown key 'radus'", 0),
            0u)
      << typo.body.dump();
  // A good scenario text runs.
  const Answer ok = post(
      "/api/sim", json{{"scenario_text", R"({"map": "hybrid_30x20.txt", "agents": [)"
                                         R"({"start": "S", "goal": "G", "planner": "apf"}]})"}});
  EXPECT_EQ(ok.status, 200) << ok.body.dump();
  EXPECT_EQ(ok.body["agents"][0]["planner"], "apf");
}

}  // namespace
