// The competition's dynamic-track files (dynamic.hpp): a scenario and its patch file read as the
// startkit writes them, and every malformed piece refused with its file and line.
#include <pathlab/io/dynamic.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using pathlab::Cell;
using pathlab::ParseError;
using pathlab::io::DynamicCommand;
using pathlab::io::DynamicScenario;
using pathlab::io::parse_dynamic_scenario;
using pathlab::io::parse_patches;
using pathlab::io::Patch;

const char* const kPatches =
    "type patch\npatches 2\npatch 0\nheight 2\nwidth 3\nmap\n@.T\nS.W\n"
    "patch 1\nheight 1\nwidth 1\nmap\n@\n";

const char* const kScenario =
    "version 2\nheight 5\nwidth 6\ncost 2 octile euclidean\npatch d.patch\ncommands\n"
    "Q 0 0 0 5 4 6.6568542495 6.4031242374\n"
    "P 1 0 3 3\r\n"
    "\n"
    "P 1 1 0 0\n"
    "Q 1 5 0 0 4 -1 -1\n";

std::vector<Patch> patches() {
  return parse_patches(kPatches, "d.patch");
}

/// The message of the ParseError that parsing (scenario, patches) throws, or "" when none.
std::string scenario_error(const std::string& scen, const std::string& patch = kPatches) {
  try {
    (void)parse_dynamic_scenario(scen, "d.scen", parse_patches(patch, "d.patch"), "d.patch");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

/// A malformed text, the "FILE:LINE:" its error starts with, and words the error holds.
struct DynamicMalformed {
  std::string text, line, words;
};

/// Every case refused by `error_of` (its message, "" when none) as the case says.
template <class ErrorOf>
void expect_refused(const std::vector<DynamicMalformed>& cases, ErrorOf&& error_of) {
  for (const DynamicMalformed& c : cases) {
    const std::string msg = error_of(c.text);
    EXPECT_EQ(msg.rfind(c.line, 0), 0u) << c.text << " -> " << msg;
    EXPECT_NE(msg.find(c.words), std::string::npos) << c.text << " -> " << msg;
  }
}

std::string patch_error(const std::string& patch) {
  try {
    (void)parse_patches(patch, "d.patch");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(DynamicScenario, ReadsPatchesAsTheStartkitWritesThem) {
  const auto p = patches();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].width, 3);
  EXPECT_EQ(p[0].height, 2);
  EXPECT_EQ(p[0].blocked, (std::vector<std::uint8_t>{1, 0, 1, 0, 0, 1}));  // T and W are walls
  EXPECT_EQ(p[0].line, 3);
  EXPECT_EQ(p[1].blocked, (std::vector<std::uint8_t>{1}));
}

TEST(DynamicScenario, ReadsCommandsInOrderWithTheOctileLength) {
  const DynamicScenario s = parse_dynamic_scenario(kScenario, "dir/d.scen", patches(), "d.patch");
  EXPECT_EQ(s.width, 6);
  EXPECT_EQ(s.height, 5);
  ASSERT_EQ(s.commands.size(), 4u);
  EXPECT_EQ(s.queries(), 2u);
  const DynamicCommand& q = s.commands[0];
  EXPECT_EQ(q.kind, DynamicCommand::Kind::query);
  EXPECT_EQ(q.start, (Cell{0, 0}));
  EXPECT_EQ(q.goal, (Cell{5, 4}));
  EXPECT_DOUBLE_EQ(q.length, 6.6568542495);  // the octile column, not the euclidean one
  EXPECT_EQ(q.line, 7);
  const DynamicCommand& p = s.commands[1];
  EXPECT_EQ(p.kind, DynamicCommand::Kind::patch);
  EXPECT_EQ(p.bucket, 1);
  EXPECT_EQ(p.patch, 0);
  EXPECT_EQ(p.at, (Cell{3, 3}));
  EXPECT_EQ(s.commands[2].line, 10);   // after a CRLF line and a blank one
  EXPECT_LT(s.commands[3].length, 0);  // no path
  EXPECT_TRUE(pathlab::io::is_dynamic_scenario(kScenario));
  EXPECT_TRUE(pathlab::io::is_dynamic_scenario("\n version\t2\r\n"));
  EXPECT_FALSE(pathlab::io::is_dynamic_scenario("version 1\n"));
  EXPECT_FALSE(pathlab::io::is_dynamic_scenario("version 20\n"));
  EXPECT_FALSE(pathlab::io::is_dynamic_scenario(""));
  EXPECT_EQ(pathlab::io::dynamic_patch_path(kScenario, "dir/d.scen"),
            (std::filesystem::path("dir") / "d.patch").string());
}

TEST(DynamicScenario, LoadsTheScenarioAndThePatchFileBesideIt) {
  const auto dir = std::filesystem::temp_directory_path() / "pathlab-dynamic-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "d.scen") << kScenario;
  std::ofstream(dir / "d.patch") << kPatches;
  const DynamicScenario s = pathlab::io::load_dynamic_scenario((dir / "d.scen").string());
  EXPECT_EQ(s.patch_path, (dir / "d.patch").string());
  EXPECT_EQ(s.patches.size(), 2u);
  EXPECT_EQ(s.commands.size(), 4u);
  std::filesystem::remove(dir / "d.patch");
  try {
    (void)pathlab::io::load_dynamic_scenario((dir / "d.scen").string());
    ADD_FAILURE() << "a missing patch file was not refused";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("d.patch"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(DynamicScenario, RefusesMalformedScenariosWithTheirLine) {
  const std::string head = "version 2\nheight 5\nwidth 6\ncost 1 octile\npatch d.patch\ncommands\n";
  const std::vector<DynamicMalformed> cases = {
      {"", "d.scen: ", "version 2"},
      {"version 1\n", "d.scen:1:", "version 2"},
      {"version 2\nwidth 6\nheight 5\n", "d.scen:2:", "height"},
      {"version 2\nheight 0\n", "d.scen:2:", "outside 1..8000"},
      {"version 2\nheight 5\nwidth 9000\n", "d.scen:3:", "outside 1..8000"},
      {"version 2\nheight 5\nwidth 6\ncost 1 euclidean\n", "d.scen:4:", "no octile"},
      {"version 2\nheight 5\nwidth 6\ncost 2 octile octile\n", "d.scen:4:", "twice"},
      {"version 2\nheight 5\nwidth 6\ncost 2 octile\n", "d.scen:4:", "names 1 costs"},
      {"version 2\nheight 5\nwidth 6\ncost 1 octile\npatch\n", "d.scen:5:", "patch FILE"},
      {"version 2\nheight 5\nwidth 6\ncost 1 octile\npatch d.patch\nQ 0 0 0 1 1 1\n",
       "d.scen:6:", "commands"},
      {head + "X 0 1 2\n", "d.scen:7:", "unknown command"},
      {head + "P 0 0 3\n", "d.scen:7:", "P BUCKET PATCH X Y"},
      {head + "P 0 2 0 0\n", "d.scen:7:", "patch 2 is not in"},
      {head + "P 0 -1 0 0\n", "d.scen:7:", "outside"},
      {head + "P 0 0 4 0\n", "d.scen:7:", "leaves the 6x5 map"},
      {head + "P 0 0 0 4\n", "d.scen:7:", "leaves the 6x5 map"},
      {head + "Q 0 0 0 6 0 1\n", "d.scen:7:", "goal (6,0) is outside"},
      {head + "Q 0 0 5 0 0 1\n", "d.scen:7:", "start (0,5) is outside"},
      {head + "Q 0 0 0 1 1\n", "d.scen:7:", "found 6 fields"},
      {head + "Q 0 0 0 1 1 nan\n", "d.scen:7:", "not finite"},
      {head + "Q 0 0 0 1 1 1.5x\n", "d.scen:7:", "not a number"},
      {head + "Q 0 0 0 1 99999999999 1\n", "d.scen:7:", "outside"},
      {head + "Q 0 0 0 1 1 1\nQ 0 0 0\x01 1 1 1\n", "d.scen:8:", "unexpected byte 0x01"},
  };
  expect_refused(cases, [](const std::string& t) { return scenario_error(t); });
}

TEST(DynamicScenario, RefusesMalformedPatchFilesWithTheirLine) {
  const std::vector<DynamicMalformed> cases = {
      {"", "d.patch: ", "type patch"},
      {"type map\n", "d.patch:1:", "type patch"},
      {"type patch\npatches -1\n", "d.patch:2:", "outside"},
      {"type patch\npatches 1\n", "d.patch:2:", "patch K"},
      {"type patch\npatches 1\npatch 1\n", "d.patch:3:", "where patch 0 was expected"},
      {"type patch\npatches 1\npatch 0\nwidth 1\n", "d.patch:4:", "height"},
      {"type patch\npatches 1\npatch 0\nheight 1\nwidth 0\n", "d.patch:5:", "outside"},
      {"type patch\npatches 1\npatch 0\nheight 2\nwidth 2\nmap\n..\n",
       "d.patch:7:", "ends after 1 of its 2 rows"},
      {"type patch\npatches 1\npatch 0\nheight 1\nwidth 2\nmap\n...\n",
       "d.patch:7:", "row of 3 cells"},
      {"type patch\npatches 1\npatch 0\nheight 1\nwidth 2\nmap\n.x\n",
       "d.patch:7:", "unknown map character"},
      {"type patch\npatches 1\npatch 0\nheight 1\nwidth 1\nmap\n.\n.\n",
       "d.patch:8:", "text after the last"},
      {"type patch\npatches 1\npatch 0\nheight 8000\nwidth 8000\nmap\n",
       "d.patch:6:", "ends after 0 of its 8000 rows"},
  };
  expect_refused(cases, patch_error);
}

}  // namespace
