// Scenario files on good inputs: the quirks of real files (version 1 / 1.0 / none, tabs or
// spaces, CRLF, blank lines), map path resolution and the write/parse round trip.
#include <pathlab/io/scenario.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>

#include "io_test_util.hpp"

namespace {

using pathlab::Cell;
using pathlab::io::parse_scenarios;
using pathlab::io::ScenarioEntry;
using pathlab::io::ScenarioFile;

using pathlab::testing::data_dir;

TEST(Scenario, TabsAndVersion1) {
  const ScenarioFile f = parse_scenarios(
      "version 1\n15\tmaps/dao/arena.map\t49\t49\t1\t7\t47\t44\t61.3259\n"
      "0\tmaps/dao/arena.map\t49\t49\t2\t3\t2\t3\t0\n",
      "arena.map.scen");
  ASSERT_EQ(f.entries.size(), 2u);
  const ScenarioEntry& e = f.entries[0];
  EXPECT_EQ(e.bucket, 15);
  EXPECT_EQ(e.map, "maps/dao/arena.map");
  EXPECT_EQ(e.width, 49);
  EXPECT_EQ(e.height, 49);
  EXPECT_EQ(e.start, (Cell{1, 7}));
  EXPECT_EQ(e.goal, (Cell{47, 44}));
  EXPECT_DOUBLE_EQ(e.optimal, 61.3259);
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(f.entries[1].line, 3);
  EXPECT_EQ(f.entries[1].optimal, 0.0);
  EXPECT_EQ(f.path, "arena.map.scen");
}

TEST(Scenario, CrlfSpacesVersion10AndBlankLinesFixture) {
  const ScenarioFile f = pathlab::io::load_scenarios(data_dir + "crlf.scen");
  ASSERT_EQ(f.entries.size(), 2u);
  EXPECT_EQ(f.entries[0].line, 3);
  EXPECT_EQ(f.entries[0].map, "maps/bg/x.map");
  EXPECT_DOUBLE_EQ(f.entries[0].optimal, 16.90);
  EXPECT_EQ(f.entries[1].line, 5);
  EXPECT_EQ(f.entries[1].goal, (Cell{11, 9}));
  EXPECT_EQ(f.path, data_dir + "crlf.scen");
  EXPECT_EQ(f.map_path(), data_dir + "x.map");
}

TEST(Scenario, MissingVersionLineAndMixedSeparators) {
  const ScenarioFile f = parse_scenarios("\n\n1 \t a.map  4 4\t0 0 3 3 4.24264069\n", "s");
  ASSERT_EQ(f.entries.size(), 1u);
  EXPECT_EQ(f.entries[0].line, 3);
  EXPECT_EQ(f.entries[0].goal, (Cell{3, 3}));
}

TEST(Scenario, VersionOnlyHasNoEntries) {
  const ScenarioFile f = parse_scenarios("version 1\n\n", "v.scen");
  EXPECT_TRUE(f.entries.empty());
  EXPECT_EQ(f.map_path(), "");
}

TEST(Scenario, MapPathByBasename) {
  ScenarioFile f;
  f.entries.push_back({});
  f.path = "/data/bench/arena.map.scen";
  f.entries[0].map = "maps/dao/arena.map";
  EXPECT_EQ(f.map_path(), "/data/bench/arena.map");
  f.entries[0].map = "maps\\dao\\arena.map";
  EXPECT_EQ(f.map_path(), "/data/bench/arena.map");
  f.entries[0].map = "Berlin_0_256.map";
  EXPECT_EQ(f.map_path(), "/data/bench/Berlin_0_256.map");
  f.path = "arena.map.scen";
  EXPECT_EQ(f.map_path(), "Berlin_0_256.map");
  f.path = "C:\\bench\\arena.map.scen";
  EXPECT_EQ(f.map_path(), "C:\\bench\\Berlin_0_256.map");
  f.path = "/x.scen";
  EXPECT_EQ(f.map_path(), "/Berlin_0_256.map");
}

TEST(Scenario, WriteFormat) {
  ScenarioFile f;
  f.entries.push_back({3, "maps/a.map", 10, 8, {1, 2}, {3, 4}, 5.5, 0});
  EXPECT_EQ(pathlab::io::write_scenarios(f),
            "version 1\n3\tmaps/a.map\t10\t8\t1\t2\t3\t4\t5.50000000\n");
}

RC_GTEST_PROP(ScenarioProperty, WriteThenParseGivesTheSameEntries, ()) {
  ScenarioFile f;
  f.path = "p.scen";
  const int n = *rc::gen::inRange(0, 20);
  for (int i = 0; i < n; ++i) {
    ScenarioEntry e;
    e.bucket = *rc::gen::inRange(0, 1000);
    e.map = *rc::gen::element<std::string>("a.map", "maps/dao/b.map", "c\\d.map");
    e.width = *rc::gen::inRange(1, 5000);
    e.height = *rc::gen::inRange(1, 5000);
    e.start = {*rc::gen::inRange(0, e.width), *rc::gen::inRange(0, e.height)};
    e.goal = {*rc::gen::inRange(0, e.width), *rc::gen::inRange(0, e.height)};
    e.optimal = *rc::gen::inRange(0, 100000000) / 1000.0;
    f.entries.push_back(e);
  }
  const ScenarioFile back = parse_scenarios(pathlab::io::write_scenarios(f), "p.scen");
  RC_ASSERT(back.entries.size() == f.entries.size());
  for (std::size_t i = 0; i < f.entries.size(); ++i) {
    const ScenarioEntry& a = f.entries[i];
    const ScenarioEntry& b = back.entries[i];
    RC_ASSERT(a.bucket == b.bucket);
    RC_ASSERT(a.map == b.map);
    RC_ASSERT(a.width == b.width && a.height == b.height);
    RC_ASSERT(a.start == b.start && a.goal == b.goal);
    RC_ASSERT(std::abs(a.optimal - b.optimal) <= 5e-9 * std::max(1.0, a.optimal));
    RC_ASSERT(b.line == static_cast<int>(i) + 2);
  }
}

}  // namespace
