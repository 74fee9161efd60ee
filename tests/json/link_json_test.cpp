// pathlab::json's Link game objects: boards both ways, connections in the contract's field order
// (`link --connect --json`: "connected" first), hints, moves, solutions with their kinds, and
// the reader's three kinds of error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <pathlab/core/error.hpp>
#include <pathlab/json/link.hpp>

namespace pathlab {
namespace {

// A B . A
// B . . .
link::Board small_board() {
  return link::Board(4, 2, "AB.AB...");
}

TEST(LinkJson, BoardRoundTrips) {
  const link::Board b = small_board();
  const json::Ordered j = json::link_board(b);
  EXPECT_EQ(j.dump(), R"({"width":4,"height":2,"rows":["AB.A","B..."]})");
  EXPECT_EQ(json::link_board_from(nlohmann::json::parse(j.dump())), b);
}

TEST(LinkJson, ConnectionHasTheContractsFieldsInOrder) {
  const link::Board b = small_board();
  const json::Ordered j = json::link_connection(link::connect(b, {0, 0}, {3, 0}));
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"connected", "turns", "points", "length"}));
  EXPECT_EQ(j["connected"], true);
  // Over the top: (0,0) up to the ring at y = -1, across, down to (3,0): two turns.
  EXPECT_EQ(j["turns"], 2);
  EXPECT_EQ(j["points"].dump(), "[[0,0],[0,-1],[3,-1],[3,0]]");
  EXPECT_EQ(j["length"], 5);

  const json::Ordered none = json::link_connection(link::connect(b, {0, 0}, {1, 0}));
  EXPECT_EQ(none["connected"], false);
  EXPECT_EQ(none["turns"], -1);
  EXPECT_TRUE(none["points"].empty());
  EXPECT_EQ(json::link_refusal(b, {0, 0}, {1, 0}), "different kinds");
  EXPECT_EQ(json::link_refusal(b, {0, 0}, {2, 0}), "empty cell");
  EXPECT_EQ(json::link_refusal(b, {0, 0}, {3, 0}), "");
}

TEST(LinkJson, MovesAndHintsCarryTheKind) {
  const link::Board b = small_board();
  const json::Ordered moves = json::link_moves(b, link::moves(b));
  EXPECT_EQ(moves["count"], moves["moves"].size());
  EXPECT_EQ(moves["count"], 2);  // the As and the Bs
  EXPECT_EQ(moves["deadlocked"], false);
  EXPECT_EQ(moves["tiles"], 4);
  for (const auto& m : moves["moves"]) {
    const Cell a{m["a"][0], m["a"][1]}, c{m["b"][0], m["b"][1]};
    EXPECT_EQ(m["kind"], std::string(1, b.at(a)));
    EXPECT_EQ(b.at(a), b.at(c));
  }
  const json::Ordered hint = json::link_hint(b, link::hint(b));
  EXPECT_FALSE(hint["move"].is_null());
  EXPECT_GE(hint["turns"].get<int>(), 0);
  const json::Ordered stuck = json::link_hint(link::Board(2, 1, "AB"), std::nullopt);
  EXPECT_TRUE(stuck["move"].is_null());
  EXPECT_EQ(stuck["deadlocked"], true);
}

TEST(LinkJson, SolutionReplaysTheMovesKinds) {
  const link::Board b = small_board();
  const link::SolveResult r = link::solve(b);
  ASSERT_EQ(r.status, link::SolveResult::Status::solved);
  const json::Ordered j = json::link_solve(b, r, link::Gravity::none);
  EXPECT_EQ(j["status"], "solved");
  EXPECT_EQ(j["gravity"], "none");
  ASSERT_EQ(j["moves"].size(), 2u);
  std::string kinds;
  for (const auto& m : j["moves"]) kinds += m["kind"].get<std::string>();
  std::sort(kinds.begin(), kinds.end());
  EXPECT_EQ(kinds, "AB");
}

TEST(LinkJson, ReaderSaysWhatKindOfFault) {
  const auto kind_of = [](const char* text) {
    try {
      (void)json::link_board_from(nlohmann::json::parse(text));
    } catch (const json::BoardError& e) {
      return e.kind();
    }
    ADD_FAILURE() << text << " was read";
    return json::BoardError::Kind::shape;
  };
  using Kind = json::BoardError::Kind;
  EXPECT_EQ(kind_of("[]"), Kind::shape);
  EXPECT_EQ(kind_of(R"({"rows": "AB"})"), Kind::shape);
  EXPECT_EQ(kind_of(R"({"rows": ["AB", 3]})"), Kind::shape);
  EXPECT_EQ(kind_of(R"({"rows": ["AB", "A"]})"), Kind::refused);
  EXPECT_EQ(kind_of(R"({"rows": ["A B"]})"), Kind::refused);
  EXPECT_EQ(kind_of(R"({"rows": ["AB"], "width": 3})"), Kind::refused);
  EXPECT_EQ(kind_of(R"({"rows": []})"), Kind::refused);
  const std::string wide = R"({"rows": [")" + std::string(link::kMaxSide + 1, 'A') + R"("]})";
  EXPECT_EQ(kind_of(wide.c_str()), Kind::too_large);
  try {
    (void)json::link_board_from(nlohmann::json::parse(R"({"rows": ["AB", "ABC"]})"));
  } catch (const json::BoardError& e) {
    EXPECT_EQ(e.row(), 1);
  }
}

TEST(LinkJson, LoadsBothFileFormatsAndNamesTheLineOfAFault) {
  const std::string dir = ::testing::TempDir();
  const std::string text_file = dir + "/link_json_test.txt",
                    json_file = dir + "/link_json_test.json";
  std::ofstream(text_file) << "AB.A\nB...\n";
  std::ofstream(json_file) << "{\n  \"rows\": [\n    \"AB.A\",\n    \"B..\"\n  ]\n}\n";
  EXPECT_EQ(json::load_link_board(text_file), small_board());
  try {
    (void)json::load_link_board(json_file);
    ADD_FAILURE() << "a ragged board was read";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 4);
  }
  std::remove(text_file.c_str());
  std::remove(json_file.c_str());
}

TEST(LinkJson, ParsesBothFormatsFromBytesNamingTheFileGiven) {
  EXPECT_EQ(json::parse_link_board("AB.A\nB...\n", "mem/link.txt"), small_board());
  EXPECT_EQ(json::parse_link_board("\n  {\"rows\": [\"AB.A\", \"B...\"]}", "mem/link.json"),
            small_board());
  try {
    (void)json::parse_link_board("{\n  \"rows\": [\n    \"AB.A\",\n    \"B..\"\n  ]\n}\n",
                                 "mem/ragged.json");
    ADD_FAILURE() << "a ragged board was read";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "mem/ragged.json");
    EXPECT_EQ(e.line(), 4);
  }
}

}  // namespace
}  // namespace pathlab
