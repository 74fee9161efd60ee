// The Link game's HTTP API (apps/server/link_api.hpp) over HTTP: a server on a free loopback
// port in this process, spoken to with cpp-httplib's client as the web page's Link view speaks
// to it. Lines are checked against the rule itself (at most three axis-aligned segments through
// empty cells and the ring outside the board), not against the engine.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <future>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "server_fixture.hpp"

namespace {

using nlohmann::json;

class LinkApi : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    pathlab::server::Config config;
    config.map_dirs = {PATHLAB_SOURCE_DIR "/maps"};
    config.scenario_dirs = {};
    start_server(config);
  }
  static void TearDownTestSuite() { stop_server(); }

  static json board(std::vector<std::string> rows) {
    return {{"width", rows.at(0).size()}, {"height", rows.size()}, {"rows", rows}};
  }
  static char at(const json& b, int x, int y) {
    if (x < 0 || y < 0 || x >= b["width"].get<int>() || y >= b["height"].get<int>()) return '.';
    return b["rows"][static_cast<std::size_t>(y)].get<std::string>()[static_cast<std::size_t>(x)];
  }
  /// Kind -> count over the board's tiles.
  static std::map<char, int> counts(const json& b) {
    std::map<char, int> out;
    for (const auto& r : b["rows"]) {
      for (const char c : r.get<std::string>()) {
        if (c != '.') ++out[c];
      }
    }
    return out;
  }
  /// What is wrong with a connection's points between a and b on board b (empty when nothing).
  static std::string line_problem(const json& b, const json& points, const json& a, const json& z) {
    if (!points.is_array() || points.size() < 2 || points.size() > 4) return "2 to 4 points";
    if (points.front() != a || points.back() != z) return "the line must run from a to b";
    const int w = b["width"], h = b["height"];
    for (std::size_t i = 1; i < points.size(); ++i) {
      int x = points[i - 1][0], y = points[i - 1][1];
      const int x1 = points[i][0], y1 = points[i][1];
      if ((x != x1) == (y != y1)) return "a segment that is not axis-aligned (or empty)";
      const int dx = (x1 > x) - (x1 < x), dy = (y1 > y) - (y1 < y);
      while (x != x1 || y != y1) {
        x += dx, y += dy;
        if (x < -1 || y < -1 || x > w || y > h) return "beyond the ring outside the board";
        const bool end = i + 1 == points.size() && x == x1 && y == y1;
        if (!end && at(b, x, y) != '.') return "through a tile";
      }
    }
    return {};
  }
};

TEST_F(LinkApi, BundledBoardsAreListedWithTheirRows) {
  const Answer a = get("/api/link/boards");
  ASSERT_EQ(a.status, 200) << a.body.dump();
  std::vector<std::string> names;
  for (const auto& b : a.body["boards"]) {
    names.push_back(b["name"]);
    ASSERT_FALSE(b.contains("error")) << b.dump();
    EXPECT_EQ(b["rows"].size(), b["height"].get<std::size_t>());
    std::size_t tiles = 0;
    for (const auto& [kind, n] : counts(b)) {
      EXPECT_EQ(n % 2, 0) << b["name"] << ": kind " << kind;
      tiles += static_cast<std::size_t>(n);
    }
    EXPECT_EQ(b["tiles"].get<std::size_t>(), tiles);
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "link_8x10.txt"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "link_12x20.txt"), names.end());
  // Other maps of the folder (seed_maze.txt, ...) are not boards.
  EXPECT_EQ(std::find(names.begin(), names.end(), "hybrid_30x20.txt"), names.end());
}

TEST_F(LinkApi, GenerateIsDeterministicAndEvenlyDealt) {
  const json req{{"width", 8}, {"height", 6}, {"kinds", 6}, {"seed", 11}};
  const Answer a = post("/api/link/generate", req), b = post("/api/link/generate", req);
  ASSERT_EQ(a.status, 200) << a.body.dump();
  EXPECT_EQ(a.body["board"], b.body["board"]);
  EXPECT_EQ(a.body["board"]["width"], 8);
  EXPECT_EQ(a.body["board"]["height"], 6);
  const auto c = counts(a.body["board"]);
  EXPECT_EQ(c.size(), 6u);
  for (const auto& [kind, n] : c) EXPECT_EQ(n, 8) << kind;  // 48 cells, 6 kinds: 8 each
  const Answer other =
      post("/api/link/generate", {{"width", 8}, {"height", 6}, {"kinds", 6}, {"seed", 12}});
  EXPECT_NE(other.body["board"], a.body["board"]);
  EXPECT_EQ(post("/api/link/generate", {{"width", 3}, {"height", 3}, {"kinds", 2}}).status, 422);
  EXPECT_EQ(post("/api/link/generate", {{"width", 4}, {"height", 4}, {"kinds", 63}}).status, 422);
  EXPECT_EQ(post("/api/link/generate", {{"width", 999}, {"height", 4}, {"kinds", 3}}).status, 413);
  EXPECT_EQ(post("/api/link/generate", {{"width", "8"}, {"height", 4}, {"kinds", 3}}).status, 400);
}

TEST_F(LinkApi, ConnectAnswersTheLineOrWhyNot) {
  const json b = board({"A..B", "C..C", "B.DA", "D..."});
  // Straight, through the empty middle.
  Answer r = post("/api/link/connect", {{"board", b}, {"a", {0, 1}}, {"b", {3, 1}}});
  ASSERT_EQ(r.status, 200) << r.body.dump();
  EXPECT_EQ(r.body["connected"], true);
  EXPECT_EQ(r.body["turns"], 0);
  EXPECT_EQ(r.body["length"], 3);
  EXPECT_EQ(line_problem(b, r.body["points"], json{0, 1}, json{3, 1}), "");
  // Two turns: fewest turns first.
  r = post("/api/link/connect", {{"board", b}, {"a", {3, 0}}, {"b", {0, 2}}});
  EXPECT_EQ(r.body["connected"], true);
  EXPECT_EQ(r.body["turns"], 2);
  EXPECT_EQ(line_problem(b, r.body["points"], json{3, 0}, json{0, 2}), "");
  // Through the ring outside the board: the left column is blocked inside.
  const json col = board({"A.", "B.", "A."});
  r = post("/api/link/connect", {{"board", col}, {"a", {0, 0}}, {"b", {0, 2}}});
  EXPECT_EQ(r.body["connected"], true);
  EXPECT_EQ(r.body["turns"], 2);
  EXPECT_EQ(line_problem(col, r.body["points"], json{0, 0}, json{0, 2}), "");
  const json ring = board({"AB", "BA"});
  r = post("/api/link/connect", {{"board", ring}, {"a", {0, 0}}, {"b", {1, 1}}});
  EXPECT_EQ(r.body["connected"], false);
  EXPECT_EQ(r.body["turns"], -1);
  EXPECT_EQ(r.body["points"], json::array());
  EXPECT_EQ(r.body["reason"], "no line with at most two turns");
  r = post("/api/link/connect", {{"board", ring}, {"a", {0, 0}}, {"b", {1, 0}}});
  EXPECT_EQ(r.body["connected"], false);
  EXPECT_EQ(r.body["reason"], "different kinds");
  r = post("/api/link/connect", {{"board", b}, {"a", {0, 0}}, {"b", {1, 0}}});
  EXPECT_EQ(r.body["reason"], "empty cell");
  // Bad requests.
  EXPECT_EQ(post("/api/link/connect", {{"board", b}, {"a", {0, 0}}, {"b", {0, 0}}}).status, 422);
  EXPECT_EQ(post("/api/link/connect", {{"board", b}, {"a", {0, 0}}, {"b", {4, 0}}}).status, 422);
  EXPECT_EQ(post("/api/link/connect", {{"board", b}, {"a", {0, -1}}, {"b", {1, 0}}}).status, 422);
  EXPECT_EQ(post("/api/link/connect", {{"board", b}, {"a", "0,0"}, {"b", {1, 0}}}).status, 400);
  EXPECT_EQ(post("/api/link/connect", {{"board", b}, {"a", {0, 0}}}).status, 400);
  EXPECT_EQ(post("/api/link/connect", {{"a", {0, 0}}, {"b", {1, 0}}}).status, 400);
  EXPECT_EQ(post_text("/api/link/connect", "{not json").status, 400);
}

TEST_F(LinkApi, MalformedBoardsAreRefused) {
  const auto status = [](const json& b) { return post("/api/link/hint", {{"board", b}}).status; };
  EXPECT_EQ(status(json::array()), 400);
  EXPECT_EQ(status({{"width", 2}}), 400);
  EXPECT_EQ(status({{"rows", {"AB", 3}}}), 400);
  EXPECT_EQ(status({{"rows", json::array()}}), 422);
  EXPECT_EQ(status({{"rows", {"AB", "A"}}}), 422);
  EXPECT_EQ(status({{"rows", {"A B", "AAB"}}}), 422);
  EXPECT_EQ(status({{"width", 3}, {"rows", {"AB", "BA"}}}), 422);
  EXPECT_EQ(status({{"rows", {std::string(300, 'A')}}}), 413);
  EXPECT_EQ(status({{"rows", std::vector<std::string>(300, "AA")}}), 413);
  // Width and height may be left out.
  const Answer a = post("/api/link/hint", {{"board", {{"rows", {"A.A"}}}}});
  EXPECT_EQ(a.status, 200) << a.body.dump();
}

TEST_F(LinkApi, HintMovesAndDeadlock) {
  const json b = board({"A..B", "C..C", "B..A"});
  Answer h = post("/api/link/hint", {{"board", b}});
  ASSERT_EQ(h.status, 200) << h.body.dump();
  ASSERT_TRUE(h.body["move"].is_object());
  EXPECT_EQ(h.body["deadlocked"], false);
  EXPECT_EQ(h.body["tiles"], 6);
  const json& m = h.body["move"];
  EXPECT_EQ(at(b, m["a"][0], m["a"][1]), m["kind"].get<std::string>()[0]);
  EXPECT_EQ(line_problem(b, h.body["points"], m["a"], m["b"]), "");
  const Answer all = post("/api/link/moves", {{"board", b}});
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.body["count"], 3);
  EXPECT_EQ(all.body["moves"].size(), 3u);
  EXPECT_EQ(all.body["moves"][0], m);  // the hint is the first move
  for (const auto& mv : all.body["moves"]) {
    const Answer c = post("/api/link/connect", {{"board", b}, {"a", mv["a"]}, {"b", mv["b"]}});
    EXPECT_EQ(c.body["connected"], true) << mv.dump();
  }
  const json stuck = board({"AB", "BA"});
  h = post("/api/link/hint", {{"board", stuck}});
  EXPECT_TRUE(h.body["move"].is_null());
  EXPECT_EQ(h.body["deadlocked"], true);
  EXPECT_EQ(post("/api/link/moves", {{"board", stuck}}).body["count"], 0);
  const json empty = board({"...."});
  h = post("/api/link/hint", {{"board", empty}});
  EXPECT_TRUE(h.body["move"].is_null());
  EXPECT_EQ(h.body["deadlocked"], false);
}

TEST_F(LinkApi, ShuffleKeepsTheTilesAndLeavesAMove) {
  const json stuck = board({"AB.", "BA."});
  const Answer s = post("/api/link/shuffle", {{"board", stuck}, {"seed", 5}});
  ASSERT_EQ(s.status, 200) << s.body.dump();
  EXPECT_EQ(s.body["shuffled"], true);
  EXPECT_EQ(s.body["deadlocked"], false);
  EXPECT_EQ(counts(s.body["board"]), counts(stuck));
  for (int y = 0; y < 2; ++y) EXPECT_EQ(at(s.body["board"], 2, y), '.');  // the same cells
  EXPECT_EQ(post("/api/link/shuffle", {{"board", stuck}, {"seed", 5}}).body, s.body);
  EXPECT_EQ(post("/api/link/shuffle", {{"board", stuck}, {"seed", -1}}).status, 400);
}

TEST_F(LinkApi, SolveThenReplayWithPlayClearsTheBoard) {
  for (const char* gravity : {"none", "down", "left", "centre"}) {
    const json b =
        post("/api/link/generate", {{"width", 6}, {"height", 4}, {"kinds", 4}, {"seed", 3}})
            .body["board"];
    const Answer s = post("/api/link/solve", {{"board", b}, {"gravity", gravity}});
    ASSERT_EQ(s.status, 200) << s.body.dump();
    if (s.body["status"] != "solved") {
      EXPECT_STRNE(gravity, "none") << "generated boards are solvable without gravity";
      continue;
    }
    EXPECT_EQ(s.body["gravity"], gravity);
    ASSERT_EQ(s.body["moves"].size(), 12u);
    json current = b;
    for (const auto& mv : s.body["moves"]) {
      const Answer p =
          post("/api/link/play",
               {{"board", current}, {"a", mv["a"]}, {"b", mv["b"]}, {"gravity", gravity}});
      ASSERT_EQ(p.status, 200) << gravity << " " << mv.dump() << " " << p.body.dump();
      EXPECT_EQ(p.body["kind"], mv["kind"]);
      EXPECT_EQ(line_problem(current, p.body["points"], mv["a"], mv["b"]), "");
      current = p.body["board"];
    }
    EXPECT_TRUE(counts(current).empty());
  }
  const Answer u = post("/api/link/solve", {{"board", board({"AB", "BA"})}});
  EXPECT_EQ(u.body["status"], "unsolvable");
  EXPECT_EQ(u.body["moves"], json::array());
  EXPECT_EQ(post("/api/link/solve", {{"board", board({"AA"})}, {"gravity", "sideways"}}).status,
            422);
  EXPECT_EQ(post("/api/link/solve", {{"board", board({"AA"})}, {"node_limit", 0}}).status, 400);
}

TEST_F(LinkApi, PlayRemovesThePairAndAppliesGravity) {
  const json b = board({"AB", "CB", "CA"});
  // C-C vertical pair, gravity down: A and B above them fall.
  Answer p =
      post("/api/link/play", {{"board", b}, {"a", {0, 2}}, {"b", {0, 1}}, {"gravity", "down"}});
  ASSERT_EQ(p.status, 200) << p.body.dump();
  EXPECT_EQ(p.body["board"]["rows"], json({".B", ".B", "AA"}));
  EXPECT_EQ(p.body["tiles"], 4);
  EXPECT_EQ(p.body["won"], false);
  EXPECT_EQ(p.body["points"], json({{0, 2}, {0, 1}}));  // from the tile picked first
  EXPECT_EQ(p.body["removed"], json({{0, 2}, {0, 1}}));
  // Without gravity the A stays.
  p = post("/api/link/play", {{"board", b}, {"a", {0, 1}}, {"b", {0, 2}}});
  EXPECT_EQ(p.body["board"]["rows"], json({"AB", ".B", ".A"}));
  // A pair that does not connect is refused, and nothing changes.
  p = post("/api/link/play", {{"board", b}, {"a", {0, 0}}, {"b", {1, 0}}});
  EXPECT_EQ(p.status, 422);
  EXPECT_NE(p.body["error"].get<std::string>().find("different kinds"), std::string::npos);
  p = post("/api/link/play", {{"board", board({"AA"})}, {"a", {0, 0}}, {"b", {1, 0}}});
  EXPECT_EQ(p.body["won"], true);
  EXPECT_EQ(p.body["deadlocked"], false);
}

}  // namespace
