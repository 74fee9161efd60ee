// pathlab::api without a transport: requests read from their wire form, routed (404 for what
// matches no route, HEAD as GET), failures turned into JSON errors with their status, and the two
// catalogs giving the same answers for the same files (the repository's maps/ and scenarios/ from
// disk, as `pathlab serve` reads them, and from memory, as the static page holds them), and
// /api/solve between points in map units.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/api/api.hpp>
#include <pathlab/api/catalog.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/json/grid.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::api {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kMaps = PATHLAB_SOURCE_DIR "/maps";
const std::string kScenarios = PATHLAB_SOURCE_DIR "/scenarios";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The repository's maps/ and scenarios/ in memory, file for file.
std::shared_ptr<MemoryCatalog> memory_copy() {
  auto c = std::make_shared<MemoryCatalog>();
  for (const auto& e : fs::directory_iterator(kMaps)) {
    c->add_map(e.path().filename().string(), read_file(e.path()));
  }
  for (const auto& e : fs::directory_iterator(kScenarios)) {
    c->add_scenario(e.path().filename().string(), read_file(e.path()));
  }
  return c;
}

struct Answer {
  int status;
  json body;
};

Answer call(Api& api, const std::string& method, const std::string& target,
            const std::string& body = {}) {
  const Response r = api.handle(Request::from_target(method, target, body));
  EXPECT_EQ(r.content_type, kJsonType);
  json j = json::parse(r.body, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << target << ": " << r.body;
  return {r.status, j};
}

Answer post(Api& api, const std::string& target, const json& body) {
  return call(api, "POST", target, body.dump());
}

class ApiTest : public ::testing::Test {
 protected:
  Api disk{std::make_shared<FolderCatalog>(std::vector<std::string>{kMaps},
                                           std::vector<std::string>{kScenarios})};
  Api memory{memory_copy()};
};

TEST(ApiRequest, TargetsAreDecodedAsCppHttplibDecodesThem) {
  const Request r = Request::from_target(
      "GET", "/api/maps/a%20b+c.txt?cell=4&name=x+y%2Bz&cell=9&&=v&flag&bad=%zz%4", "body");
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.path, "/api/maps/a b+c.txt");  // '+' is a space in the query only
  EXPECT_EQ(r.param("cell"), "4");           // the first of a repeated name
  EXPECT_EQ(r.param("name"), "x y+z");
  EXPECT_EQ(r.param("flag"), "");
  EXPECT_EQ(r.param("bad"), "%zz%4");  // a '%' without two hex digits stays
  EXPECT_FALSE(r.param("v").has_value());
  EXPECT_EQ(r.query.size(), 5u);  // the empty pair and the one without a name are dropped
  EXPECT_EQ(r.body, "body");
  EXPECT_EQ(Request::from_target("GET", "/api/maps/..%2F..%2Fetc%2Fpasswd").path,
            "/api/maps/../../etc/passwd");
  EXPECT_TRUE(Request::from_target("GET", "/x?").query.empty());
}

TEST_F(ApiTest, WhatMatchesNoRouteIsNotFound) {
  for (const auto& [method, target] : std::vector<std::pair<std::string, std::string>>{
           {"GET", "/api/nothing"},
           {"POST", "/api/algorithms"},  // a route, another method
           {"PUT", "/api/solve"},
           {"GET", "/api/maps/"},  // an empty segment matches no name
           {"GET", "/api/maps/..%2F..%2Fetc%2Fpasswd"},
           {"GET", "/api/algorithms/"},
           {"GET", "api/algorithms"},
           {"GET", ""},
           {"DELETE", "/api/sim"},
       }) {
    const Answer a = call(disk, method, target);
    EXPECT_EQ(a.status, 404) << method << " " << target;
    EXPECT_EQ(a.body, json({{"error", "not found"}})) << method << " " << target;
  }
  EXPECT_EQ(call(disk, "GET", "/api/maps/nosuch.map").body["error"], "no map named 'nosuch.map'");
  EXPECT_EQ(call(disk, "GET", "/api/maps/.hidden.txt").status, 404);
  EXPECT_EQ(call(disk, "GET", "/api/maps/README.md").status, 404);  // in the folder, not a map
}

TEST_F(ApiTest, HeadIsAnsweredAsGet) {
  const Answer get = call(disk, "GET", "/api/algorithms");
  const Answer head = call(disk, "HEAD", "/api/algorithms");
  EXPECT_EQ(get.status, 200);
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(get.body, head.body);
}

TEST_F(ApiTest, FailuresBecomeJsonErrorsWithTheirStatus) {
  const json maze = call(disk, "GET", "/api/maps/seed_maze.txt").body;
  const json good{{"map", maze}, {"start", maze["start"]}, {"goal", maze["goal"]}};
  EXPECT_EQ(call(disk, "POST", "/api/solve", "{nope").status, 400);
  EXPECT_EQ(call(disk, "POST", "/api/solve", "[1, 2]").status, 400);
  EXPECT_EQ(post(disk, "/api/solve", json{{"start", {0, 0}}}).status, 400);
  json bad = good;
  bad["algorithm"] = "nope";
  EXPECT_EQ(post(disk, "/api/solve", bad).status, 422);
  bad = good;
  bad["weight"] = "heavy";  // nlohmann's type error
  const Answer typed = post(disk, "/api/solve", bad);
  EXPECT_EQ(typed.status, 400);
  EXPECT_EQ(typed.body["error"].get<std::string>().rfind("bad JSON value: ", 0), 0u);
  bad = good;
  bad["map"]["width"] = 100000;
  bad["map"]["height"] = 100000;
  EXPECT_EQ(post(disk, "/api/solve", bad).status, 413);
  // ParseError: 422 with the parser's message.
  const Answer junk = call(disk, "POST", "/api/parse?name=fake.png", "this is not an image");
  EXPECT_EQ(junk.status, 422);
  EXPECT_NE(junk.body["error"].get<std::string>().find("fake.png"), std::string::npos);
  // A name that is not UTF-8 cannot be written as JSON: 400, and the answer is still JSON.
  const Answer name =
      call(disk, "POST", "/api/parse?name=%FF.txt", read_file(kMaps + "/seed_maze.txt"));
  EXPECT_EQ(name.status, 400);
  // The body limit.
  Limits small;
  small.max_body_bytes = 10;
  Api limited(std::make_shared<MemoryCatalog>(), small);
  const Answer big = call(limited, "POST", "/api/solve", std::string(11, ' '));
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(big.body["error"], "request body too large");
  EXPECT_EQ(limited.limits().max_body_bytes, 10u);
}

TEST_F(ApiTest, TheSameFilesGiveTheSameAnswersFromDiskAndFromMemory) {
  for (const std::string target :
       {"/api/algorithms", "/api/maps", "/api/maps/seed_maze.txt", "/api/maps/cave_100.png?cell=4",
        "/api/maps/hybrid_120x80.txt", "/api/link/boards", "/api/scenarios",
        "/api/maps/hex_20x14.map", "/api/maps/tower_2floors.json", "/api/maps/fences_12x8.tmx"}) {
    const Answer a = call(disk, "GET", target), b = call(memory, "GET", target);
    EXPECT_EQ(a.status, 200) << target;
    EXPECT_EQ(a.status, b.status) << target;
    EXPECT_EQ(a.body, b.body) << target;
  }
  const json maps = call(memory, "GET", "/api/maps").body["maps"];
  EXPECT_NE(std::find(maps.begin(), maps.end(), "seed_maze.txt"), maps.end());
  EXPECT_EQ(std::find(maps.begin(), maps.end(), "README.md"), maps.end());
  EXPECT_GE(call(memory, "GET", "/api/link/boards").body["boards"].size(), 3u);
  const json scenarios = call(memory, "GET", "/api/scenarios").body["scenarios"];
  EXPECT_EQ(scenarios.size(), static_cast<std::size_t>(std::distance(
                                  fs::directory_iterator(kScenarios), fs::directory_iterator())));
  for (const json& s : scenarios) {
    EXPECT_FALSE(s.contains("error")) << s.dump();
    const Answer a = post(disk, "/api/sim", {{"scenario", s["file"]}});
    const Answer b = post(memory, "/api/sim", {{"scenario", s["file"]}});
    ASSERT_EQ(a.status, 200) << a.body.dump();
    ASSERT_EQ(b.status, 200) << b.body.dump();
    for (const char* k : {"name", "file", "grid", "dt", "time_limit", "agents"}) {
      EXPECT_EQ(a.body[k], b.body[k]) << s["file"] << " " << k;
    }
    const std::string ida = a.body["id"], idb = b.body["id"];
    const Answer sa = post(disk, "/api/sim/" + ida + "/step", {{"ticks", 5}});
    const Answer sb = post(memory, "/api/sim/" + idb + "/step", {{"ticks", 5}});
    EXPECT_EQ(sa.body["agents"], sb.body["agents"]) << s["file"];
    EXPECT_EQ(call(memory, "DELETE", "/api/sim/" + idb).body, json({{"deleted", idb}}));
  }
  EXPECT_EQ(post(memory, "/api/sim", {{"scenario", "nosuch.json"}}).status, 404);
  EXPECT_EQ(post(memory, "/api/sim", {{"scenario", "../maps/seed_maze.txt"}}).status, 404);
}

TEST_F(ApiTest, AScenarioTextReachesTheCatalogsMapsAndNothingElse) {
  const std::string text = read_file(kScenarios + "/hybrid_l_trap.json");
  for (Api* api : {&disk, &memory}) {
    const Answer ok = post(*api, "/api/sim", {{"scenario_text", text}});
    EXPECT_EQ(ok.status, 200) << ok.body.dump();
    json j = json::parse(text);
    j["map"] = "hybrid_30x20.txt";  // a map's own name: a map folder's file
    EXPECT_EQ(post(*api, "/api/sim", {{"scenario_text", j.dump()}}).status, 200);
    for (const char* outside : {"../scenarios/hybrid_l_trap.json", "/etc/passwd", "nosuch.txt",
                                "../../maps/hybrid_30x20.txt"}) {
      j["map"] = outside;
      const Answer refused = post(*api, "/api/sim", {{"scenario_text", j.dump()}});
      EXPECT_EQ(refused.status, 422) << outside << " " << refused.body.dump();
    }
    j["map"] = "hybrid_30x20.txt";
    j["dt"] = -1;
    const Answer bad = post(*api, "/api/sim", {{"scenario_text", j.dump()}});
    EXPECT_EQ(bad.status, 422);
    EXPECT_EQ(bad.body["error"].get<std::string>().rfind("scenario_text:", 0), 0u) << bad.body;
  }
}

TEST_F(ApiTest, MapSessionsEditRepairAndAnswer) {
  const json maze = call(memory, "GET", "/api/maps/seed_maze.txt").body;
  const Answer created = post(memory, "/api/mapsession", {{"map", maze}});
  ASSERT_EQ(created.status, 200);
  const std::string id = created.body["id"];
  const json query{{"start", maze["start"]}, {"goal", maze["goal"]}, {"algorithm", "jps+"}};
  const Answer before = post(memory, "/api/mapsession/" + id + "/solve", query);
  EXPECT_EQ(before.body["status"], "found");
  // The goal's room has one door, (9, 11): walled, no path; opened again, the old cost.
  EXPECT_EQ(post(memory, "/api/mapsession/" + id + "/edit",
                 {{"edits", {{{"kind", "wall"}, {"cell", {9, 11}}}}}})
                .body["edits"],
            1);
  EXPECT_EQ(post(memory, "/api/mapsession/" + id + "/solve", query).body["status"], "no_path");
  (void)post(memory, "/api/mapsession/" + id + "/edit",
             {{"edits", {{{"kind", "free"}, {"cell", {9, 11}}}}}});
  const Answer after = post(memory, "/api/mapsession/" + id + "/solve", query);
  EXPECT_DOUBLE_EQ(after.body["cost"].get<double>(), before.body["cost"].get<double>());
  // Walls on the door's four edges close it as well (jps+ answers with A* and says so); taken
  // down, the old cost again.
  json fence = json::array();
  for (const char* side : {"n", "e", "s", "w"})
    fence.push_back({{"kind", "edge_wall"}, {"cell", {9, 11}}, {"side", side}});
  EXPECT_EQ(post(memory, "/api/mapsession/" + id + "/edit", {{"edits", fence}}).body["edits"], 4);
  const Answer fenced = post(memory, "/api/mapsession/" + id + "/solve", query);
  EXPECT_EQ(fenced.body["status"], "no_path") << fenced.body.dump();
  for (json& e : fence) e["kind"] = "edge_open";
  (void)post(memory, "/api/mapsession/" + id + "/edit", {{"edits", fence}});
  EXPECT_DOUBLE_EQ(
      post(memory, "/api/mapsession/" + id + "/solve", query).body["cost"].get<double>(),
      before.body["cost"].get<double>());
  EXPECT_EQ(post(memory, "/api/mapsession/" + id + "/edit",
                 {{"edits", {{{"kind", "edge_wall"}, {"cell", {9, 11}}, {"side", "3"}}}}})
                .status,
            422);
  EXPECT_EQ(post(memory, "/api/mapsession/" + id + "/edit",
                 {{"edits", {{{"kind", "wall"}, {"area", {30, 0, 30, 0}}}}}})
                .status,
            422);
  EXPECT_EQ(call(memory, "DELETE", "/api/mapsession/" + id).body, json({{"deleted", true}}));
  EXPECT_EQ(post(memory, "/api/mapsession/" + id + "/solve", query).status, 404);
}

TEST_F(ApiTest, SessionsBeyondTheLimitEvictTheLeastRecentlyUsed) {
  Limits two;
  two.max_sessions = 2;
  Api api(memory_copy(), two);
  const json maze = call(api, "GET", "/api/maps/seed_maze.txt").body;
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i)
    ids.push_back(post(api, "/api/mapsession", {{"map", maze}}).body["id"]);
  const json query{{"start", maze["start"]}, {"goal", maze["goal"]}};
  EXPECT_EQ(post(api, "/api/mapsession/" + ids[0] + "/solve", query).status, 404);
  EXPECT_EQ(post(api, "/api/mapsession/" + ids[2] + "/solve", query).status, 200);
  std::vector<std::string> sims;
  for (int i = 0; i < 3; ++i) {
    sims.push_back(post(api, "/api/sim", {{"scenario", "hybrid_l_trap.json"}}).body["id"]);
  }
  EXPECT_EQ(post(api, "/api/sim/" + sims[0] + "/step", json::object()).status, 404);
  EXPECT_EQ(post(api, "/api/sim/" + sims[2] + "/step", json::object()).status, 200);
}

TEST(ApiCatalog, NamesTheCatalogsAccept) {
  EXPECT_TRUE(plain_name("a.txt"));
  EXPECT_FALSE(plain_name(""));
  EXPECT_FALSE(plain_name(".a.txt"));
  EXPECT_FALSE(plain_name("a/b.txt"));
  EXPECT_FALSE(plain_name("a\\b.txt"));
  for (const char* m : {"a.txt", "a.map", "a.ascii", "a.asc", "a.png", "a.bmp", "a.jpg", "a.gif",
                        "a.tmx", "a.tmj", "a.json", "link_8x10.txt"}) {
    EXPECT_TRUE(is_map_file(m)) << m;
  }
  for (const char* m : {"a.map.scen", "a.scen.txt", "link_x.json", "README.md", "a"}) {
    EXPECT_FALSE(is_map_file(m)) << m;
  }
  EXPECT_TRUE(is_board_file("link_8x10.txt"));
  EXPECT_TRUE(is_board_file("link_x.json"));
  EXPECT_FALSE(is_board_file("board.txt"));
  EXPECT_FALSE(is_board_file("link_x.map"));
}

TEST(ApiCatalog, AMemoryCatalogListsAndReadsWhatItWasGiven) {
  MemoryCatalog c;
  c.add_map("b.txt", "----\n0000\n0890\n");
  c.add_map("a.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
  c.add_map("link_1.txt", "AA\n");
  c.add_map("notes.md", "not a map");
  c.add_scenario("s.json", R"({"map": "../maps/b.txt", "agents": [{"start": "S", "goal": "G"}]})");
  c.add_scenario("readme.txt", "{}");
  EXPECT_EQ(c.maps(), (std::vector<std::string>{"a.map", "b.txt", "link_1.txt"}));
  EXPECT_EQ(c.boards(), std::vector<std::string>{"link_1.txt"});
  EXPECT_EQ(c.scenarios(), std::vector<std::string>{"s.json"});
  const auto b = c.map("b.txt", {});
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->grid.width(), 4);
  ASSERT_TRUE(b->start.has_value());
  EXPECT_FALSE(c.map("notes.md", {}).has_value());
  EXPECT_FALSE(c.map("nosuch.txt", {}).has_value());
  EXPECT_EQ(c.board("link_1.txt").width(), 2);
  const auto s = c.scenario("s.json");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->world.grid.width(), 4);
  EXPECT_EQ(s->map_path, "scenarios/../maps/b.txt");
  EXPECT_FALSE(c.scenario("nosuch.json").has_value());
  EXPECT_EQ(c.text_scenario_path("../maps/b.txt"), "maps/scenario_text.json");  // maps/ first
  EXPECT_EQ(c.text_scenario_path("b.txt"), "maps/scenario_text.json");
  EXPECT_FALSE(c.text_scenario_path("../b.txt").has_value());
  EXPECT_FALSE(c.text_scenario_path("/maps/b.txt").has_value());
  c.add_map("broken.map", "type octile\nheight 5\nwidth 2\nmap\n..\n");
  try {
    (void)c.map("broken.map", {});
    ADD_FAILURE() << "a broken map was read";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "maps/broken.map");
  }
}

// ---- map kinds: hex layouts, walls on cell edges, layered maps with links --------------------

/// The map of GET /api/maps/NAME as the request's "map" (what the page sends back).
json map_of(Api& api, const std::string& name) {
  const Answer a = call(api, "GET", "/api/maps/" + name);
  EXPECT_EQ(a.status, 200) << name << ": " << a.body.dump();
  return a.body;
}

TEST_F(ApiTest, PlainMapsKeepTheirFieldsAndSaySquare) {
  const json maze = map_of(disk, "seed_maze.txt");
  EXPECT_EQ(maze["layout"], "square");
  for (const char* k : {"layers", "layer_height", "layer_pitch", "edge_walls", "links"}) {
    EXPECT_FALSE(maze.contains(k)) << k;
  }
  EXPECT_EQ(maze["start"].size(), 2u);
  // A third number 0 names floor 0 of a single-floor map; any other floor is refused.
  json q{{"map", maze}, {"start", {maze["start"][0], maze["start"][1], 0}}, {"goal", maze["goal"]}};
  EXPECT_EQ(post(disk, "/api/solve", q).body["status"], "found");
  q["start"] = {maze["start"][0], maze["start"][1], 1};
  const Answer bad = post(disk, "/api/solve", q);
  EXPECT_EQ(bad.status, 422);
  EXPECT_NE(bad.body["error"].get<std::string>().find("floor 1"), std::string::npos) << bad.body;
}

TEST_F(ApiTest, HexMapsAreServedSolvedAndFlowedAsHexes) {
  const json hex = map_of(memory, "hex_20x14.map");
  EXPECT_EQ(hex["layout"], "pointy-odd-r");
  EXPECT_EQ(hex["width"], 20);
  EXPECT_EQ(hex["height"], 14);
  const json start{0, 0}, goal{19, 13};
  const Answer a = post(memory, "/api/solve", {{"map", hex}, {"start", start}, {"goal", goal}});
  ASSERT_EQ(a.status, 200) << a.body.dump();
  ASSERT_EQ(a.body["status"], "found");
  const json& path = a.body["path"];
  ASSERT_GE(path.size(), 2u);
  // Every step is one hex move, so the moves are as many as the hex distance at least, and the
  // cost of a path of unit hex steps is its number of moves.
  for (std::size_t k = 1; k < path.size(); ++k) {
    const Cell p{path[k - 1][0].get<int>(), path[k - 1][1].get<int>()};
    const Cell c{path[k][0].get<int>(), path[k][1].get<int>()};
    EXPECT_EQ(grid::hex::distance(grid::Layout::pointy_odd_r, p, c), 1) << k;
  }
  EXPECT_DOUBLE_EQ(a.body["cost"].get<double>(), static_cast<double>(path.size() - 1));
  EXPECT_GE(path.size() - 1, static_cast<std::size_t>(grid::hex::distance(
                                 grid::Layout::pointy_odd_r, Cell{0, 0}, Cell{19, 13})));
  // The same walls read as squares give another answer: the layout travels with the map.
  json square = hex;
  square["layout"] = "square";
  const Answer s = post(memory, "/api/solve", {{"map", square}, {"start", start}, {"goal", goal}});
  EXPECT_NE(s.body["cost"], a.body["cost"]);
  // Flow field: hex direction codes 0..5 (-1 on walls and the goal).
  const Answer f = post(memory, "/api/flow", {{"map", hex}, {"goal", goal}});
  ASSERT_EQ(f.status, 200) << f.body.dump();
  for (const json& d : f.body["direction"]) {
    EXPECT_GE(d.get<int>(), -1);
    EXPECT_LE(d.get<int>(), 5);
  }
  // Reach: every cell within one move of the start is a hex neighbour.
  const Answer r = post(memory, "/api/reach", {{"map", hex}, {"start", {5, 5}}, {"budget", 1}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  EXPECT_EQ(r.body["cells"].size(), 7u);  // the start and its six neighbours
  square = hex;
  square["layout"] = "hexagonal";
  EXPECT_EQ(post(memory, "/api/solve", {{"map", square}, {"start", start}, {"goal", goal}}).status,
            422);
}

TEST_F(ApiTest, EdgeWallsAreServedEachOnceAndBlockTheirEdge) {
  const json fences = map_of(disk, "fences_12x8.tmx");
  EXPECT_EQ(fences["layout"], "square");
  ASSERT_TRUE(fences.contains("edge_walls"));
  const json& edges = fences["edge_walls"];
  // The three fences: 4 + 2 cells along the first, 7 along the second, 3 along the third.
  EXPECT_EQ(edges.size(), 16u);
  std::set<std::string> seen;
  for (const json& e : edges) {
    ASSERT_EQ(e.size(), 3u) << e;
    const std::string side = e[2];
    EXPECT_TRUE(side == "e" || side == "s" || side == "n" || side == "w") << e;
    if (side == "n") {
      EXPECT_EQ(e[1], 0);
    }
    if (side == "w") {
      EXPECT_EQ(e[0], 0);
    }
    EXPECT_TRUE(seen.insert(e.dump()).second) << "twice: " << e;
  }
  const json q{
      {"map", fences}, {"start", fences["start"]}, {"goal", fences["goal"]}, {"diagonal", "never"}};
  const Answer walled = post(disk, "/api/solve", q);
  ASSERT_EQ(walled.body["status"], "found") << walled.body.dump();
  // No step of the path crosses a wall on an edge.
  std::set<std::tuple<int, int, int, int>> blocked;
  for (const json& e : edges) {
    const int x = e[0], y = e[1];
    const std::string side = e[2];
    const int nx = x + (side == "e") - (side == "w"), ny = y + (side == "s") - (side == "n");
    blocked.insert({x, y, nx, ny});
    blocked.insert({nx, ny, x, y});
  }
  const json& path = walled.body["path"];
  for (std::size_t k = 1; k < path.size(); ++k) {
    EXPECT_EQ(blocked.count({path[k - 1][0], path[k - 1][1], path[k][0], path[k][1]}), 0u)
        << path[k - 1] << " -> " << path[k];
  }
  // Without its edge walls the same map has a shorter path.
  json open = q;
  open["map"].erase("edge_walls");
  const Answer free = post(disk, "/api/solve", open);
  EXPECT_LT(free.body["cost"].get<double>(), walled.body["cost"].get<double>());
  // Edge walls need square cells and one of four sides.
  json bad = q;
  bad["map"]["layout"] = "flat-odd-q";
  EXPECT_EQ(post(disk, "/api/solve", bad).status, 422);
  bad = q;
  bad["map"]["edge_walls"] = {{1, 1, "x"}};
  EXPECT_EQ(post(disk, "/api/solve", bad).status, 422);
  bad["map"]["edge_walls"] = {{1, 1}};
  EXPECT_EQ(post(disk, "/api/solve", bad).status, 400);
  bad["map"]["edge_walls"] = {{40, 1, "e"}};
  EXPECT_EQ(post(disk, "/api/solve", bad).status, 422);
}

TEST_F(ApiTest, WallsOnHexEdgesTravelAsDirectionCodes) {
  // A hex map fenced across its middle but for one gap: the walls go out as [x, y, "d"] and come
  // back the same; the path goes through the gap.
  io::Map m;
  m.grid = grid::Grid(9, 7);
  m.grid.set_layout(grid::Layout::pointy_odd_r);
  for (int x = 0; x < 9; ++x) {
    if (x == 7) continue;
    m.grid.set_hex_edge_wall(x, 3, 4, true);  // the two edges below row 3
    m.grid.set_hex_edge_wall(x, 3, 5, true);
  }
  m.grid.set_hex_edge_wall(8, 3, 0, true);  // an edge to the outside
  m.start = Cell{1, 0};
  m.goal = Cell{1, 6};
  const json served = pathlab::json::loaded_map(m, "fenced");
  ASSERT_TRUE(served.contains("edge_walls"));
  EXPECT_EQ(served["edge_walls"].size(), static_cast<std::size_t>(m.grid.edge_wall_count()));
  for (const json& e : served["edge_walls"]) {
    const std::string side = e[2];
    EXPECT_TRUE(side.size() == 1 && side[0] >= '0' && side[0] <= '5') << e;
  }
  const Answer a =
      post(memory, "/api/solve",
           {{"map", served}, {"start", {1, 0}}, {"goal", {1, 6}}, {"algorithm", "astar"}});
  ASSERT_EQ(a.status, 200) << a.body.dump();
  ASSERT_EQ(a.body["status"], "found");
  search::Pathfinder direct(m.grid, search::Options{});
  const search::Result r = direct.find({1, 0}, {1, 6});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_NEAR(a.body["cost"].get<double>(), r.cost, 1e-9);
  EXPECT_GT(r.cost, 6.0);  // the fence makes it go round: 6 steps straight down without it
  bool through_gap = false;
  for (const json& c : a.body["path"]) through_gap |= c[0] == 7 && c[1] == 3;
  EXPECT_TRUE(through_gap) << a.body["path"];
  json bad = served;
  bad["edge_walls"] = {{1, 1, "e"}};
  EXPECT_EQ(post(memory, "/api/solve", {{"map", bad}, {"start", {1, 0}}, {"goal", {1, 6}}}).status,
            422);
}

TEST_F(ApiTest, LayeredMapsTakeAndGiveCellsWithTheirFloor) {
  for (Api* api : {&disk, &memory}) {
    const json tower = map_of(*api, "tower_2floors.json");
    EXPECT_EQ(tower["layers"], 2);
    EXPECT_EQ(tower["layer_height"], 10);
    const int pitch = tower["layer_pitch"];
    EXPECT_GT(pitch, 10);
    EXPECT_EQ(tower["height"], pitch + 10);  // the floors stacked, wall rows between them
    EXPECT_EQ(tower["walls"].get<std::string>().size(), std::size_t{16} * (pitch + 10));
    EXPECT_EQ(tower["start"], json({1, 1, 0}));
    EXPECT_EQ(tower["goal"], json({6, 4, 1}));
    ASSERT_EQ(tower["links"].size(), 2u);
    EXPECT_EQ(tower["links"][0],
              json({{"from", {13, 8, 0}}, {"to", {13, 8, 1}}, {"cost", 2.0}, {"oneway", false}}));
    EXPECT_EQ(tower["links"][1]["oneway"], true);

    const json q{{"map", tower}, {"start", tower["start"]}, {"goal", tower["goal"]}};
    const Answer a = post(*api, "/api/solve", q);
    ASSERT_EQ(a.status, 200) << a.body.dump();
    ASSERT_EQ(a.body["status"], "found");
    EXPECT_EQ(a.body["start"], json({1, 1, 0}));
    EXPECT_EQ(a.body["goal"], json({6, 4, 1}));
    const json& path = a.body["path"];
    // Floor 0 up the stairs at (13, 8) to floor 1: one step changes floor, there.
    int changes = 0;
    for (std::size_t k = 0; k < path.size(); ++k) {
      ASSERT_EQ(path[k].size(), 3u) << path[k];
      if (k > 0 && path[k][2] != path[k - 1][2]) {
        ++changes;
        EXPECT_EQ(path[k - 1], json({13, 8, 0}));
        EXPECT_EQ(path[k], json({13, 8, 1}));
      }
    }
    EXPECT_EQ(changes, 1);
    // [x, y] is floor 0.
    json q0 = q;
    q0["start"] = {1, 1};
    EXPECT_EQ(post(*api, "/api/solve", q0).body["cost"], a.body["cost"]);

    // Cells off the map: a floor it does not have, a row past the floor's, a wrong shape.
    for (const json& bad :
         {json({1, 1, 2}), json({1, 1, -1}), json({1, 10, 0}), json({16, 1, 1})}) {
      json b = q;
      b["start"] = bad;
      const Answer e = post(*api, "/api/solve", b);
      EXPECT_EQ(e.status, 422) << bad;
      EXPECT_EQ(e.body["error"].get<std::string>().rfind("start is ", 0), 0u) << e.body;
    }
    json b = q;
    b["start"] = {1, 1, 0, 0};
    EXPECT_EQ(post(*api, "/api/solve", b).status, 400);
    b["start"] = {0, 0, 0};  // a wall
    EXPECT_EQ(post(*api, "/api/solve", b).status, 422);
    b = q;
    b["map"]["height"] = 21;
    b["map"]["walls"] = b["map"]["walls"].get<std::string>() + std::string(16, '1');
    EXPECT_EQ(post(*api, "/api/solve", b).status, 422);  // 2 floors of 10 rows do not stack to 21
    b = q;
    b["map"]["links"][0]["to"] = {13, 8, 5};
    EXPECT_EQ(post(*api, "/api/solve", b).status, 422);
    b = q;
    b["map"].erase("links");  // no stairs: floor 1 cannot be reached
    EXPECT_EQ(post(*api, "/api/solve", b).body["status"], "no_path");

    // Reach: [x, y, layer, cost], on both floors once the budget climbs the stairs.
    const Answer r =
        post(*api, "/api/reach", {{"map", tower}, {"start", {13, 8, 0}}, {"budget", 3}});
    ASSERT_EQ(r.status, 200) << r.body.dump();
    EXPECT_EQ(r.body["from"], json({13, 8, 0}));
    bool upstairs = false;
    for (const json& c : r.body["cells"]) {
      ASSERT_EQ(c.size(), 4u) << c;
      upstairs = upstairs || c[2] == 1;
    }
    EXPECT_TRUE(upstairs);

    // Flow: the goals answered with their floor; at the stairs' foot the first move takes the
    // link (code 8 on square cells); row-major arrays run over the stacked rows.
    const Answer f = post(*api, "/api/flow", {{"map", tower}, {"goal", tower["goal"]}});
    ASSERT_EQ(f.status, 200) << f.body.dump();
    EXPECT_EQ(f.body["goals"], json({{6, 4, 1}}));
    EXPECT_EQ(f.body["height"], pitch + 10);
    EXPECT_EQ(f.body["direction"][8 * 16 + 13], 8);
    EXPECT_FALSE(f.body["distance"][8 * 16 + 1].is_null());  // floor 0 reaches the goal
    EXPECT_EQ(post(*api, "/api/flow", {{"map", tower}, {"goal", {6, 4, 3}}}).status, 422);

    // A map session: walling the stairs' top cuts floor 1 off (the other link only goes down).
    const Answer created = post(*api, "/api/mapsession", {{"map", tower}});
    ASSERT_EQ(created.status, 200) << created.body.dump();
    const std::string id = created.body["id"];
    const json query{{"start", tower["start"]}, {"goal", tower["goal"]}};
    EXPECT_EQ(post(*api, "/api/mapsession/" + id + "/solve", query).body["status"], "found");
    EXPECT_EQ(post(*api, "/api/mapsession/" + id + "/edit",
                   {{"edits", {{{"kind", "wall"}, {"cell", {13, 8, 1}}}}}})
                  .status,
              200);
    EXPECT_EQ(post(*api, "/api/mapsession/" + id + "/solve", query).body["status"], "no_path");
    EXPECT_EQ(post(*api, "/api/mapsession/" + id + "/edit",
                   {{"edits", {{{"kind", "wall"}, {"cell", {13, 8, 2}}}}}})
                  .status,
              422);
    (void)call(*api, "DELETE", "/api/mapsession/" + id);
  }
}

// ---- /api/solve between points in map units (search::Pathfinder::find_points) ----------------

/// 30x20, open but for a wall in column 15 over rows 2..17 (map units x 15..16, y 2..18), and,
/// with `closed`, one more in row 10 from column 20 to the east side with column 20 walled
/// down to the bottom: cell (25, 15) is shut in.
json points_map(bool closed = false) {
  std::string walls(30 * 20, '0');
  for (int y = 2; y < 18; ++y) walls[static_cast<std::size_t>(y * 30 + 15)] = '1';
  if (closed) {
    for (int x = 20; x < 30; ++x) walls[static_cast<std::size_t>(10 * 30 + x)] = '1';
    for (int y = 10; y < 20; ++y) walls[static_cast<std::size_t>(y * 30 + 20)] = '1';
  }
  return {{"width", 30}, {"height", 20}, {"walls", walls}};
}

double polyline(const json& points) {
  double length = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    length += std::hypot(points[i][0].get<double>() - points[i - 1][0].get<double>(),
                         points[i][1].get<double>() - points[i - 1][1].get<double>());
  }
  return length;
}

constexpr double kSnap = 1.0 / 8192;  // points are held to 1/4096 of a cell

TEST_F(ApiTest, FractionalStartAndGoalAreAQueryBetweenPoints) {
  json q{{"map", points_map()},
         {"start", {10.3, 4.7}},
         {"goal", {20.2, 7.9}},
         {"algorithm", "anyangle-exact"}};
  const Answer a = post(disk, "/api/solve", q);
  ASSERT_EQ(a.status, 200) << a.body.dump();
  const json& r = a.body;
  EXPECT_EQ(r["status"], "found");
  EXPECT_EQ(r["answered_by"], "anyangle-exact");
  EXPECT_EQ(r["any_angle"], true);
  // The exact path: over the wall's top corners (15, 2) and (16, 2).
  ASSERT_EQ(r["points"].size(), 4u) << r.dump();
  const double want[4][2] = {{10.3, 4.7}, {15, 2}, {16, 2}, {20.2, 7.9}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(r["points"][i][0].get<double>(), want[i][0], kSnap) << i;
    EXPECT_NEAR(r["points"][i][1].get<double>(), want[i][1], kSnap) << i;
  }
  EXPECT_NEAR(r["cost"].get<double>(), polyline(r["points"]), 1e-12);
  EXPECT_NEAR(r["cost"].get<double>(),
              std::hypot(15 - 10.3, 2 - 4.7) + 1 + std::hypot(20.2 - 16, 7.9 - 2), 1e-3);
  // The existing shape: the cells under the points as start, goal and the path's ends.
  EXPECT_EQ(r["start"], json({10, 4}));
  EXPECT_EQ(r["goal"], json({20, 7}));
  EXPECT_EQ(r["path"].size(), r["points"].size());
  EXPECT_EQ(r["path"].front(), r["start"]);
  EXPECT_EQ(r["path"].back(), r["goal"]);
  EXPECT_EQ(r["moves"], 3);
  EXPECT_EQ(r["start_point"], json({10.3, 4.7}));
  EXPECT_EQ(r["goal_point"], json({20.2, 7.9}));
  // The library's answer, point for point.
  grid::Grid g(30, 20);
  for (int y = 2; y < 18; ++y) g.set_blocked(15, y, true);
  search::Options o;
  o.algorithm = search::Algorithm::anyangle_exact;
  search::Pathfinder finder(g, o);
  search::Result lib;
  ASSERT_EQ(finder.find_points({10.3, 4.7}, {20.2, 7.9}, lib), Status::found);
  ASSERT_EQ(lib.points.size(), r["points"].size());
  for (std::size_t i = 0; i < lib.points.size(); ++i) {
    EXPECT_EQ(r["points"][i][0].get<double>(), lib.points[i].x);
    EXPECT_EQ(r["points"][i][1].get<double>(), lib.points[i].y);
  }
  EXPECT_EQ(r["cost"].get<double>(), lib.cost);
  // With its trace; one point and one cell (the cell's centre).
  q["trace"] = true;
  q["goal"] = {20, 7};
  const Answer traced = post(memory, "/api/solve", q);
  ASSERT_EQ(traced.status, 200) << traced.body.dump();
  EXPECT_FALSE(traced.body["trace"].empty());
  EXPECT_EQ(traced.body["goal_point"], json({20.5, 7.5}));
  EXPECT_NEAR(traced.body["points"].back()[0].get<double>(), 20.5, kSnap);
  EXPECT_NEAR(traced.body["points"].back()[1].get<double>(), 7.5, kSnap);
  // 1e1 and 4.0 are numbers with a fraction or an exponent: points too (a grid corner here).
  q = {{"map", points_map()},
       {"start", json::parse("[1e1, 4.0]")},
       {"goal", {20, 7}},
       {"algorithm", "anyangle-exact"}};
  const Answer corner = post(disk, "/api/solve", q);
  ASSERT_EQ(corner.status, 200) << corner.body.dump();
  EXPECT_EQ(corner.body["points"].front(), json({10.0, 4.0}));
}

TEST_F(ApiTest, IntegerStartAndGoalStayCells) {
  for (const char* algo : {"anyangle-exact", "astar", "theta"}) {
    const json q{{"map", points_map()}, {"start", {10, 4}}, {"goal", {20, 7}}, {"algorithm", algo}};
    const Answer a = post(disk, "/api/solve", q);
    ASSERT_EQ(a.status, 200) << a.body.dump();
    EXPECT_FALSE(a.body.contains("start_point")) << algo;
    EXPECT_EQ(a.body["points"].front(), json({10.5, 4.5})) << algo;
    EXPECT_EQ(a.body["points"].back(), json({20.5, 7.5})) << algo;
    // Cell centres as points: the same answer (another algorithm: find() between the cells).
    json centres = q;
    centres["start"] = {10.5, 4.5};
    centres["goal"] = {20.5, 7.5};
    const Answer c = post(disk, "/api/solve", centres);
    ASSERT_EQ(c.status, 200) << algo << ": " << c.body.dump();
    EXPECT_NEAR(c.body["cost"].get<double>(), a.body["cost"].get<double>(), 1e-9) << algo;
    EXPECT_EQ(c.body["path"].front(), a.body["path"].front()) << algo;
    EXPECT_EQ(c.body["path"].back(), a.body["path"].back()) << algo;
    EXPECT_EQ(c.body["points"].size(), a.body["points"].size()) << algo;
    if (std::string(algo) != "anyangle-exact") {
      EXPECT_EQ(c.body["path"], a.body["path"]) << algo;
      EXPECT_EQ(c.body["points"], a.body["points"]) << algo;
      EXPECT_EQ(c.body["expanded"], a.body["expanded"]) << algo;
    }
  }
  // /api/algorithms names the algorithms that take any point.
  EXPECT_EQ(call(disk, "GET", "/api/algorithms").body["points"],
            json({"anyangle-exact", "anyangle-labels"}));
}

TEST_F(ApiTest, PointsTheQueryCannotTakeAre422WithTheReason) {
  const json good{{"map", points_map()},
                  {"start", {10.3, 4.7}},
                  {"goal", {20.2, 7.9}},
                  {"algorithm", "anyangle-exact"}};
  auto error = [&](const json& q) {
    const Answer a = post(disk, "/api/solve", q);
    EXPECT_EQ(a.status, 422) << a.body.dump();
    return a.body.value("error", std::string());
  };
  auto with = [&](const char* key, const json& v) {
    json q = good;
    q[key] = v;
    return q;
  };
  EXPECT_EQ(error(with("algorithm", "astar")),
            "astar searches between cell centres ([x + 0.5, y + 0.5]); a point off them needs an "
            "algorithm that takes any point: anyangle-exact, anyangle-labels");
  json centre_and_point = with("algorithm", "jps");
  centre_and_point["start"] = {10.5, 4.5};
  EXPECT_NE(error(centre_and_point).find("jps searches between cell centres"), std::string::npos);
  for (const json& p : {json({15.5, 10.5}), json({15.5, 10.0}), json({-0.25, 3.0}),
                        json({12.0, 20.5}), json({30.5, 1.0})}) {
    EXPECT_EQ(error(with("start", p)),
              "start " + p.dump() +
                  " is not in free space: outside the map, inside a wall or on an edge between "
                  "two walls");
    EXPECT_EQ(error(with("goal", p)).rfind("goal " + p.dump() + " is not in free space", 0), 0u);
  }
  // A number JSON cannot hold (1e400) is bad JSON: 400.
  std::string huge = good.dump();
  huge.replace(huge.find("10.3"), 4, "1e400");
  EXPECT_EQ(call(disk, "POST", "/api/solve", huge).status, 400);
  // A wall's side touching free space is free space; so is the map's border.
  EXPECT_EQ(post(disk, "/api/solve", with("start", {15.0, 10.3})).status, 200);
  EXPECT_EQ(post(disk, "/api/solve", with("start", {0.0, 20.0})).status, 200);
  // A radius: the unit's view decides.
  json wide = with("start", {14.2, 10.5});
  wide["radius"] = 1.0;
  EXPECT_NE(error(wide).find("as the unit sees the map"), std::string::npos);
  // An integer cell beside a point is checked as a cell.
  EXPECT_EQ(error(with("goal", {15, 10})), "goal is on a wall");
  EXPECT_NE(error(with("goals", {{20, 7}, {25, 3}})).find("one \"goal\""), std::string::npos);
  json cells_goals = good;
  cells_goals["start"] = {10, 4};
  cells_goals.erase("goal");
  cells_goals["goals"] = {{20, 7}, {25.5, 3.5}};
  EXPECT_NE(error(cells_goals).find("one \"goal\""), std::string::npos);
  EXPECT_NE(error(with("partial", true)).find("partial"), std::string::npos);
  EXPECT_NE(error(with("smooth", true)).find("smooth"), std::string::npos);
  EXPECT_EQ(post(disk, "/api/solve", with("smooth", false)).status, 200);
  // Plain square maps only.
  json hex = good;
  hex["map"]["layout"] = "flat-odd-q";
  EXPECT_NE(error(hex).find("plain square map"), std::string::npos);
  json edged = good;
  edged["map"]["edge_walls"] = {{3, 3, "e"}};
  EXPECT_NE(error(edged).find("plain square map"), std::string::npos);
  // [x, y] of anything but numbers stays a 400.
  EXPECT_EQ(post(disk, "/api/solve", with("start", {"10.3", 4.7})).status, 400);
}

TEST_F(ApiTest, PointsWithNoPathBetweenThemSayTheirCells) {
  const json q{{"map", points_map(true)},
               {"start", {10.3, 4.7}},
               {"goal", {25.25, 15.75}},
               {"algorithm", "anyangle-exact"}};
  const Answer a = post(disk, "/api/solve", q);
  ASSERT_EQ(a.status, 200) << a.body.dump();
  EXPECT_EQ(a.body["status"], "no_path");
  EXPECT_EQ(a.body["start"], json({10, 4}));
  EXPECT_EQ(a.body["goal"], json({25, 15}));
  EXPECT_TRUE(a.body["path"].empty());
  EXPECT_TRUE(a.body["points"].empty());
}

TEST_F(ApiTest, MapSessionsAnswerBetweenPoints) {
  const Answer created = post(memory, "/api/mapsession", {{"map", points_map()}});
  ASSERT_EQ(created.status, 200);
  const std::string id = created.body["id"];
  const json query{{"start", {10.3, 4.7}}, {"goal", {20.2, 7.9}}, {"algorithm", "anyangle-exact"}};
  const Answer before = post(memory, "/api/mapsession/" + id + "/solve", query);
  ASSERT_EQ(before.status, 200) << before.body.dump();
  EXPECT_EQ(before.body["points"].size(), 4u);
  // Walled across the top: the path goes round the bottom, from the same points.
  json edits = json::array();
  for (int y = 0; y < 2; ++y) edits.push_back({{"kind", "wall"}, {"cell", {15, y}}});
  ASSERT_EQ(post(memory, "/api/mapsession/" + id + "/edit", {{"edits", edits}}).status, 200);
  const Answer after = post(memory, "/api/mapsession/" + id + "/solve", query);
  ASSERT_EQ(after.status, 200) << after.body.dump();
  EXPECT_EQ(after.body["status"], "found");
  EXPECT_GT(after.body["cost"].get<double>(), before.body["cost"].get<double>());
  EXPECT_NEAR(after.body["points"].front()[0].get<double>(), 10.3, kSnap);
  EXPECT_NEAR(after.body["points"].back()[1].get<double>(), 7.9, kSnap);
  EXPECT_NEAR(after.body["points"][1][1].get<double>(), 18.0, kSnap);  // the wall's foot
  (void)call(memory, "DELETE", "/api/mapsession/" + id);
}

TEST(ApiCatalog, AMemoryCatalogReadsALayeredMapsFloorsFromItsOwnFiles) {
  MemoryCatalog c;
  c.add_map("f0.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n");
  c.add_map("two.json", R"({"layers": [{"map": "f0.map"}, {"map": "f0.map"}],
                            "links": [{"from": [0, 0, 0], "to": [1, 2, 1]}]})");
  c.add_map("outside.json", R"({"layers": [{"map": "../scenarios/x.map"}]})");
  const auto two = c.map("two.json", {});
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->grid.layers(), 2);
  EXPECT_EQ(two->grid.links().size(), 1u);
  EXPECT_THROW((void)c.map("outside.json", {}), ParseError);
}

}  // namespace
}  // namespace pathlab::api
