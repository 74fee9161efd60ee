// Bench module tests: the Moving AI tolerance, loading a scenario with its map (and refusing
// entries that do not fit it), and verification that counts suboptimal and missed queries.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <pathlab/bench/bench.hpp>
#include <pathlab/core/error.hpp>

using namespace pathlab;
namespace fs = std::filesystem;

namespace {

class BenchFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("pathlab_bench_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    write("tiny.map", "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST(Tolerance, FollowsTheMovingAiRule) {
  EXPECT_TRUE(bench::within_tolerance(16.8995, 16.90));
  EXPECT_TRUE(bench::within_tolerance(262.7645, 262.764));
  EXPECT_TRUE(bench::within_tolerance(1000.0, 1000.0 + 0.005 + 1e-5 * 1000.0 - 1e-9));
  EXPECT_FALSE(bench::within_tolerance(1000.0, 1000.0 + 0.005 + 1e-5 * 1000.0 + 1e-6));
  EXPECT_FALSE(bench::within_tolerance(10.0, 10.1));
}

TEST_F(BenchFixture, VerifiesOptimaAndCountsFailures) {
  // (0,0)->(4,0): 4 straight moves. (0,2)->(4,0) around the wall row: 6 straight moves (no
  // corner cutting forbids the diagonals next to the wall).
  const std::string good = write("tiny.map.scen",
                                 "version 1\n0\tmaps/x/tiny.map\t5\t4\t0\t0\t4\t0\t4\n"
                                 "0\tmaps/x/tiny.map\t5\t4\t0\t2\t4\t0\t6\n");
  auto s = bench::load_scenario(good, 0);
  EXPECT_EQ(s.map_name, "tiny.map");
  ASSERT_EQ(s.selected.size(), 2u);
  bench::BenchOptions o;
  o.algorithms = {search::Algorithm::astar, search::Algorithm::bfs, search::Algorithm::biastar};
  auto report = bench::run({s}, o);
  ASSERT_EQ(report.rows.size(), 3u);
  EXPECT_TRUE(report.passed());
  EXPECT_EQ(report.rows[0].solved, 2u);
  EXPECT_EQ(report.rows[0].suboptimal, 0u);
  EXPECT_LT(report.rows[0].max_error, 1e-6);
  EXPECT_FALSE(report.rows[1].optimal);  // bfs counts moves, it reports a ratio instead
  EXPECT_GE(report.rows[1].mean_ratio, 1.0);

  const std::string wrong = write("wrong.scen", "version 1\n0\ttiny.map\t5\t4\t0\t0\t4\t0\t3.5\n");
  auto bad = bench::run({bench::load_scenario(wrong, 0)}, o);
  EXPECT_FALSE(bad.passed());
  EXPECT_EQ(bad.rows[0].suboptimal, 1u);
  ASSERT_FALSE(bad.rows[0].failures.empty());
  EXPECT_NE(bad.rows[0].failures[0].find("wrong.scen:2"), std::string::npos);
}

TEST_F(BenchFixture, NodeLimitIsGaveUpNotAFailure) {
  const std::string scen = write("tiny.map.scen", "version 1\n0\ttiny.map\t5\t4\t0\t2\t4\t0\t6\n");
  bench::BenchOptions o;
  o.search.node_limit = 1;
  auto r = bench::run({bench::load_scenario(scen, 0)}, o);
  EXPECT_EQ(r.rows[0].gave_up, 1u);
  EXPECT_TRUE(r.passed());
}

TEST_F(BenchFixture, EntriesThatDoNotFitTheMapNameTheLine) {
  struct Bad {
    std::string line, message;
  };
  const Bad cases[] = {
      {"0\ttiny.map\t6\t4\t0\t0\t4\t0\t4", "5x4"},
      {"0\ttiny.map\t5\t4\t2\t1\t4\t0\t4", "on a wall"},
      {"0\ttiny.map\t5\t4\t0\t0\t2\t1\t4", "on a wall"},
  };
  for (const auto& c : cases) {
    const std::string scen =
        write("bad.scen", "version 1\n0\ttiny.map\t5\t4\t0\t0\t4\t0\t4\n" + c.line + "\n");
    try {
      (void)bench::load_scenario(scen, 0);
      ADD_FAILURE() << "no error for " << c.line;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 3) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)bench::load_scenario(
                   write("missing.scen", "version 1\n0\tnothere.map\t5\t4\t0\t0\t4\t0\t4\n"), 0),
               ParseError);
}

TEST_F(BenchFixture, SamplesSpreadOverTheFile) {
  std::string text = "version 1\n";
  for (int i = 0; i < 100; ++i) text += "0\ttiny.map\t5\t4\t0\t0\t4\t0\t4\n";
  const auto s = bench::load_scenario(write("many.scen", text), 10);
  ASSERT_EQ(s.selected.size(), 10u);
  EXPECT_EQ(s.selected.front(), 0u);
  EXPECT_EQ(s.selected.back(), 90u);
}

// Suites ending in "Threads" run queries from several threads (ThreadSanitizer runs them).
using BenchThreads = BenchFixture;

TEST_F(BenchThreads, ThreeThreadsGiveOneThreadsVerdicts) {
  std::string text = "version 1\n";
  for (int i = 0; i < 50; ++i) text += "0\ttiny.map\t5\t4\t0\t2\t4\t0\t6\n";
  const auto s = bench::load_scenario(write("many.scen", text), 0);
  bench::BenchOptions o;
  // jps+ and the subgoal graph: one prepared copy per map, shared by the threads.
  o.algorithms = {search::Algorithm::astar, search::Algorithm::jps_plus,
                  search::Algorithm::subgoal};
  o.threads = 3;
  auto r = bench::run({s}, o);
  ASSERT_EQ(r.rows.size(), 3u);
  for (const auto& row : r.rows) EXPECT_EQ(row.solved, 50u);
  EXPECT_TRUE(r.passed());
}

TEST_F(BenchFixture, ChurnVerifiesEveryAlgorithmOnTheEditedMap) {
  // A 40x30 map with a few walls, 120 queries; 3 cells toggled before each: by the end the map
  // has changed in ~360 places, and every answer is checked against a fresh Dijkstra on the
  // map as it is then.
  std::string rows;
  std::mt19937 rng(8);
  for (int y = 0; y < 30; ++y) {
    for (int x = 0; x < 40; ++x) rows += rng() % 100 < 15 ? '@' : '.';
    rows += '\n';
  }
  write("churn.map", "type octile\nheight 30\nwidth 40\nmap\n" + rows);
  std::string scen = "version 1\n";
  int lines = 0;
  while (lines < 120) {
    const int sx = static_cast<int>(rng() % 40), sy = static_cast<int>(rng() % 30);
    const int gx = static_cast<int>(rng() % 40), gy = static_cast<int>(rng() % 30);
    if (rows[static_cast<std::size_t>(sy * 41 + sx)] == '@' ||
        rows[static_cast<std::size_t>(gy * 41 + gx)] == '@') {
      continue;
    }
    // The optimum column is not used under churn (the reference is recomputed): give 0.
    scen += "0\tchurn.map\t40\t30\t" + std::to_string(sx) + "\t" + std::to_string(sy) + "\t" +
            std::to_string(gx) + "\t" + std::to_string(gy) + "\t0\n";
    ++lines;
  }
  const auto s = bench::load_scenario(write("churn.map.scen", scen), 0);
  bench::BenchOptions o;
  o.algorithms = {search::Algorithm::dijkstra, search::Algorithm::astar,
                  search::Algorithm::jps,      search::Algorithm::jps_plus,
                  search::Algorithm::subgoal,  search::Algorithm::biastar};
  o.churn = 3;
  o.churn_seed = 5;
  o.threads = 2;  // churn runs on one thread regardless
  const auto report = bench::run({s}, o);
  ASSERT_EQ(report.rows.size(), o.algorithms.size());
  for (const auto& r : report.rows) {
    EXPECT_TRUE(r.passed()) << r.algorithm << ": " << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.queries, 120u);
    EXPECT_EQ(r.solved, 120u) << r.algorithm;  // cut-off goals answered no_path count as solved
    EXPECT_GE(r.edits, 360u) << r.algorithm;
    EXPECT_GT(r.edit_us, 0) << r.algorithm;
    // Every algorithm saw the same edits and found the same least costs.
    EXPECT_EQ(r.edits, report.rows[0].edits);
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
      EXPECT_EQ(r.samples[i].optimal, report.rows[0].samples[i].optimal) << r.algorithm << i;
    }
  }
  // The same seed gives the same run; the edits change the answers (else the test is moot).
  const auto again = bench::run({s}, o);
  EXPECT_EQ(again.rows[1].mean_expanded, report.rows[1].mean_expanded);
  bench::BenchOptions still = o;
  still.churn = 0;
  still.algorithms = {search::Algorithm::astar};
  const auto fixed = bench::run({s}, still);
  int differ = 0;
  for (std::size_t i = 0; i < fixed.rows[0].samples.size(); ++i) {
    differ += fixed.rows[0].samples[i].status != report.rows[1].samples[i].status ||
              fixed.rows[0].samples[i].expanded != report.rows[1].samples[i].expanded;
  }
  EXPECT_GT(differ, 20);
}

TEST_F(BenchFixture, DynamicTrackScenarioPastesItsPatchesBeforeEachQuery) {
  // A 5x3 map that starts open; a wall column cuts it, then its middle opens again.
  write("d.patch",
        "type patch\npatches 2\npatch 0\nheight 3\nwidth 1\nmap\n@\n@\n@\n"
        "patch 1\nheight 1\nwidth 1\nmap\n.\n");
  const std::string head = "version 2\nheight 3\nwidth 5\ncost 1 octile\npatch d.patch\ncommands\n";
  const std::string commands =
      "Q 0 0 1 4 1 4\n"             // open: straight across
      "P 1 0 2 0\n"                 // the wall column at x = 2
      "Q 1 0 0 4 2 -1\n"            // no path
      "P 1 1 2 1\n"                 // its middle opens
      "Q 1 0 0 4 0 4.8284271247\n"  // down through (2, 1) and up again
      "Q 1 0 1 4 1 4\n";
  ASSERT_TRUE(bench::is_dynamic_scenario_file(write("d.scen", head + commands)));
  const auto s = bench::load_scenario((dir_ / "d.scen").string(), 0);
  ASSERT_NE(s.dynamic, nullptr);
  EXPECT_EQ(s.file.entries.size(), 4u);
  EXPECT_EQ(s.command_of, (std::vector<std::size_t>{0, 2, 4, 5}));
  EXPECT_EQ(s.grid.wall_count(), 0);  // the track's maps start open
  bench::BenchOptions o;
  o.algorithms = {search::Algorithm::astar, search::Algorithm::jps, search::Algorithm::jps_plus,
                  search::Algorithm::subgoal_ch};
  o.threads = 2;  // a dynamic scenario runs on one thread regardless
  const auto report = bench::run({s}, o);
  for (const auto& r : report.rows) {
    EXPECT_TRUE(r.passed()) << r.algorithm << ": " << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.solved, 4u) << r.algorithm;
    EXPECT_TRUE(r.dynamic);
    EXPECT_EQ(r.patches, 2u);
    ASSERT_EQ(r.maps.size(), 1u);
    EXPECT_EQ(r.maps[0].patches, 2u);
    EXPECT_GT(r.maps[0].total_s, 0);
    EXPECT_EQ(r.samples[1].status, Status::no_path) << r.algorithm;
    EXPECT_NEAR(r.samples[2].cost, 2 + 2 * std::sqrt(2.0), 1e-9) << r.algorithm;
  }
  // Two queries selected (the first and the third): both patches before the third still apply.
  const auto two = bench::run({bench::load_scenario((dir_ / "d.scen").string(), 2)}, o);
  for (const auto& r : two.rows) {
    EXPECT_TRUE(r.passed()) << r.algorithm << ": " << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.queries, 2u);
    EXPECT_EQ(r.patches, 2u);
  }
  // A wrong length, and a path where the scenario says there is none, are failures.
  write("bad.scen", head + "Q 0 0 1 4 1 5\nP 1 0 2 0\nQ 1 0 0 4 2 3\n");
  const auto bad = bench::run({bench::load_scenario((dir_ / "bad.scen").string(), 0)}, o);
  EXPECT_FALSE(bad.passed());
  EXPECT_EQ(bad.rows[0].suboptimal, 1u);
  EXPECT_EQ(bad.rows[0].missed, 1u);
  write("gone.scen", head + "Q 0 0 1 4 1 -1\n");
  const auto gone = bench::run({bench::load_scenario((dir_ / "gone.scen").string(), 0)}, o);
  EXPECT_EQ(gone.rows[0].missed, 1u);
  // Malformed: the scenario's file and line.
  write("short.scen", head + "P 1 0 2\n");
  try {
    (void)bench::load_scenario((dir_ / "short.scen").string(), 0);
    ADD_FAILURE() << "a short P line was accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((dir_ / "short.scen").string() + ":7:", 0), 0u)
        << e.what();
  }
}

}  // namespace
