// Peers run beside pathlab: each output format read line by line (malformed lines skipped), and
// real child processes — small shell scripts standing in for the peers, writing what each peer
// writes — run in a scratch folder, timed out, checked against the scenario's optima, and set
// against the right pathlab row.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <pathlab/bench/bench.hpp>
#include <pathlab/bench/peers.hpp>

using namespace pathlab;
namespace fs = std::filesystem;

namespace {

TEST(PeerOutput, WarthogRowsAreReadByTheirHeader) {
  const auto q = bench::parse_warthog(
      "id\talg\texpanded\tgenerated\treopen\tsurplus\theapops\tnanos\tplen\tpcost\tscost\n"
      "0\tjps\t5\t9\t0\t0\t5\t1500\t3\t2.0\t2\n"
      "1\tjps\t5\t9\t0\t0\t5\tbad\t3\t2.0\t2\n"  // malformed: skipped
      "2\tjps\t5\t9\t0\t0\t5\t250\t3\t4.5\t4.5\r\n"
      "short\tline\n");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_DOUBLE_EQ(q[0].time_us, 1.5);
  EXPECT_DOUBLE_EQ(q[0].length, 2.0);
  EXPECT_DOUBLE_EQ(q[1].time_us, 0.25);
  EXPECT_DOUBLE_EQ(q[1].length, 4.5);
  // Without a header: nanoseconds in column 8, no length.
  const auto bare = bench::parse_warthog("7\tjps\t1\t1\t0\t0\t1\t900\n");
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_DOUBLE_EQ(bare[0].time_us, 0.9);
  EXPECT_LT(bare[0].length, 0);
}

TEST(PeerOutput, Gppc2014LinesGiveSecondsAndLengths) {
  const auto q = bench::parse_gppc2014(
      "Preprocessing...\n"
      "m.scen\ttotal-time\t0.000003\tmax-time-step\t0.000003\ttotal-len\t2.828400\tsubopt\t1\n"
      "m.scen\ttotal-time\t-1\ttotal-len\t2\n"  // negative time: skipped
      "m.scen\ttotal-time\t0.000010\tmax-time-step\t0.000010\n");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_DOUBLE_EQ(q[0].time_us, 3.0);
  EXPECT_DOUBLE_EQ(q[0].length, 2.8284);
  EXPECT_DOUBLE_EQ(q[1].time_us, 10.0);
  EXPECT_LT(q[1].length, 0);
}

TEST(PeerOutput, Gppc2023CsvIsReadByItsHeader) {
  const auto q = bench::parse_gppc2023(
      "map,scen,experiment_id,path_size,path_length,ref_length,time_cost,20steps_cost\n"
      "m,s,0,3,2.000000000,2.0,14171,14171\n"
      "m,s,1,3,2.828427125,2.8,1522\n"  // a column short: skipped
      "m,s,2,3,3.5,3.5,800,800\n");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_DOUBLE_EQ(q[0].time_us, 14.171);
  EXPECT_DOUBLE_EQ(q[0].length, 2.0);
  EXPECT_DOUBLE_EQ(q[1].time_us, 0.8);
  EXPECT_TRUE(bench::parse_gppc2023("").empty());
  EXPECT_TRUE(bench::parse_gppc2023("no,header,here\n1,2,3\n").empty());
}

class PeerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("pathlab_peers_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "bin");
    write("tiny.map", "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n");
    write("tiny.map.scen",
          "version 1\n0\ttiny.map\t5\t4\t0\t0\t4\t0\t4\n0\ttiny.map\t5\t4\t0\t2\t4\t0\t6\n"
          "0\ttiny.map\t5\t4\t0\t3\t4\t3\t4\n");
    scenario_ = bench::load_scenario((dir_ / "tiny.map.scen").string(), 0);
    options_.folder = (dir_ / "bin").string();
    options_.scratch = dir_.string();
    options_.timeout_s = 20;
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  /// An executable shell script in the peers' folder.
  void peer(const std::string& name, const std::string& body) {
    const fs::path p = dir_ / "bin" / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    fs::permissions(p, fs::perms::owner_all);
  }
  /// Scratch folders left behind in dir_.
  std::size_t leftovers() const {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir_)) {
      n += e.path().filename().string().rfind("pathlab-peer-", 0) == 0;
    }
    return n;
  }
  /// pathlab's anyangle-exact lengths between the corners of the selected queries, as
  /// `bench --endpoints corner` measures them.
  std::vector<double> corner_costs() const {
    bench::BenchOptions o;
    o.algorithms = {search::Algorithm::anyangle_exact};
    o.corners = true;
    const auto by_map = bench::costs_by_map(bench::run({scenario_}, o).rows.at(0));
    return by_map.size() == 1 ? by_map[0] : std::vector<double>{};
  }
  static const bench::Peer& known(const std::string& label) {
    for (const auto& p : bench::known_peers()) {
      if (p.label == label) return p;
    }
    throw std::runtime_error("no peer " + label);
  }
  fs::path dir_;
  bench::LoadedScenario scenario_;
  bench::PeerOptions options_;
};

// The 2023 entry: -pre builds index_data/ in the working folder, -run writes result.csv there,
// lengths from the scenario's optima (column 9), times 1000 ns + 1000 ns per line.
constexpr const char* kSgch =
    "set -e\n"
    "case \"$1\" in\n"
    "  -pre) test -d index_data && echo index > index_data/x ;;\n"
    "  -run) test -f index_data/x\n"
    "        echo 'map,scen,experiment_id,path_size,path_length,ref_length,time_cost'"
    " > result.csv\n"
    "        awk -v m=\"$2\" -v s=\"$3\" 'NR > 1 { printf \"%s,%s,%d,2,%s,%s,%d\\n\", m, s, NR-2,"
    " $9 LENGTH_EDIT, $9, 1000 * (NR-1) }' \"$3\" >> result.csv ;;\n"
    "esac\n";

std::string sgch_script(const std::string& length_edit) {
  std::string s = kSgch;
  s.replace(s.find("LENGTH_EDIT"), 11, length_edit);
  return s;
}

TEST_F(PeerFixture, Gppc2023EntryIsPreparedRunAndVerified) {
  peer("sgch-jpd-2023", sgch_script(""));
  const auto row = bench::run_peer(known("SGCH-JPD, GPPC 2023"), scenario_, options_);
  ASSERT_TRUE(row.ok()) << row.error;
  EXPECT_EQ(row.map, "tiny.map");
  EXPECT_EQ(row.queries, 3u);
  EXPECT_EQ(row.checked, 3u);
  EXPECT_EQ(row.suboptimal, 0u);
  EXPECT_DOUBLE_EQ(row.mean_us, 2.0);  // (1 + 2 + 3) µs / 3
  EXPECT_GT(row.prep_s, 0);
  EXPECT_EQ(leftovers(), 0u);
}

TEST_F(PeerFixture, LongerPathsAreSuboptimalAndOnlySelectedQueriesCount) {
  // Every length but the first (4 + 0) is one too long.
  peer("sgch-jpd-2023", sgch_script(" + (NR > 2)"));
  auto row = bench::run_peer(known("SGCH-JPD, GPPC 2023"), scenario_, options_);
  ASSERT_TRUE(row.ok()) << row.error;
  EXPECT_EQ(row.suboptimal, 2u);
  // --max-queries 2 picks lines 0 and 1 of 3: the peer's figures cover the same two.
  scenario_.selected = {0, 1};
  row = bench::run_peer(known("SGCH-JPD, GPPC 2023"), scenario_, options_);
  EXPECT_EQ(row.queries, 2u);
  EXPECT_EQ(row.suboptimal, 1u);
  EXPECT_DOUBLE_EQ(row.mean_us, 1.5);
}

TEST_F(PeerFixture, Gppc2014EntryWorksBesideCopiesOfTheMapAndScenario) {
  peer("nlevel-sg-2014",
       "set -e\ntest -f \"$2\" && test -f \"$3\"\n"  // relative names: the copies are here
       "case \"$1\" in\n"
       "  -pre) echo index > \"Index-$2\" ;;\n"
       "  -run) test -f \"Index-$2\"\n"
       "        awk 'NR > 1 { printf \"s\\ttotal-time\\t0.000004\\ttotal-len\\t%s\\tvalid\\n\", $9 "
       "}'"
       " \"$3\" ;;\n"
       "esac\n");
  const auto row = bench::run_peer(known("N-level subgoal graphs, GPPC 2014"), scenario_, options_);
  ASSERT_TRUE(row.ok()) << row.error;
  EXPECT_EQ(row.queries, 3u);
  EXPECT_EQ(row.suboptimal, 0u);
  EXPECT_DOUBLE_EQ(row.mean_us, 4.0);
}

TEST_F(PeerFixture, WarthogGetsItsAlgorithmAndPaths) {
  peer("warthog-jps",
       "test \"$1\" = --alg && test \"$3\" = --scen && test \"$5\" = --map || exit 3\n"
       "test -f \"$4\" && test -f \"$6\" || exit 4\n"
       "ns=100; test \"$2\" = jps2+ && ns=50\n"
       "printf 'id\\talg\\te\\tg\\tr\\ts\\th\\tnanos\\tplen\\tpcost\\n'\n"
       "awk -v ns=$ns 'NR > 1 { printf \"%d\\tx\\t1\\t1\\t0\\t0\\t1\\t%d\\t2\\t%s\\n\", NR-2, ns, "
       "$9 }'"
       " \"$4\"\n");
  auto row = bench::run_peer(known("warthog JPS2+"), scenario_, options_);
  ASSERT_TRUE(row.ok()) << row.error;
  EXPECT_DOUBLE_EQ(row.mean_us, 0.05);
  EXPECT_EQ(row.checked, 3u);  // pcost, checked
  EXPECT_EQ(row.suboptimal, 0u);
  row = bench::run_peer(known("warthog JPS"), scenario_, options_);
  EXPECT_DOUBLE_EQ(row.mean_us, 0.1);
}

TEST_F(PeerFixture, FailuresAreReportedNotThrown) {
  const bench::Peer& sgch = known("SGCH-JPD, GPPC 2023");
  EXPECT_EQ(bench::run_peer(sgch, scenario_, options_).error, "not found");
  peer("sgch-jpd-2023", "exit 7\n");
  EXPECT_EQ(bench::run_peer(sgch, scenario_, options_).error, "exit status 7");
  peer("sgch-jpd-2023", "kill -SEGV $$\n");
  EXPECT_EQ(bench::run_peer(sgch, scenario_, options_).error, "killed by signal 11");
  // Output that does not cover the scenario is refused rather than averaged.
  peer("sgch-jpd-2023",
       "test \"$1\" = -run && printf 'path_length,time_cost\\n2,100\\n' > result.csv; exit 0\n");
  EXPECT_EQ(bench::run_peer(sgch, scenario_, options_).error,
            "output has 1 queries, the scenario 3");
  // A peer that hangs is stopped at the time limit.
  peer("sgch-jpd-2023", "exec sleep 30\n");
  options_.timeout_s = 0.3;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(bench::run_peer(sgch, scenario_, options_).error, "timed out after 0.3 s");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  EXPECT_EQ(leftovers(), 0u);
}

TEST_F(PeerFixture, RunPeersLeavesOutMissingPeersAndAverages) {
  peer("sgch-jpd-2023", sgch_script(""));
  const auto rows = bench::run_peers({scenario_, scenario_}, options_);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].peer.executable, "sgch-jpd-2023");
  ASSERT_EQ(rows[0].maps.size(), 2u);
  EXPECT_EQ(rows[0].queries, 6u);
  EXPECT_DOUBLE_EQ(rows[0].mean_us, 2.0);
}

TEST_F(PeerFixture, CounterpartIsTheSameFamilyOrTheFastestPreprocessedRow) {
  bench::Report report;
  auto row = [&](const char* algorithm, double us, std::size_t suboptimal) {
    bench::Row r;
    r.algorithm = algorithm;
    r.optimal = true;
    bench::MapRow m;
    m.queries = m.solved = 10;
    m.suboptimal = suboptimal;
    m.mean_us = us;
    r.maps = {m};
    report.rows.push_back(r);
  };
  row("astar", 100, 0);
  row("jps", 20, 0);
  row("jps+", 8, 0);
  row("subgoal", 5, 1);  // fastest, but not verified on the map
  row("subgoal-ch", 6, 0);
  const bench::Row* r = bench::counterpart(known("warthog JPS"), report, 0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->algorithm, "jps");
  r = bench::counterpart(known("SGCH-JPD, GPPC 2023"), report, 0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->algorithm, "subgoal-ch");
  EXPECT_EQ(bench::counterpart(known("warthog A*"), report, 1), nullptr);  // no such map
  report.rows.erase(report.rows.begin());
  EXPECT_EQ(bench::counterpart(known("warthog A*"), report, 0), nullptr);
}

// The six entries of the GPPC 2023 any-angle track: found by these file names, their lengths
// between cell corners, set against anyangle-exact; the End Point Search and Polyanya entries
// build an index or mesh in -pre, RayScan and Gap_Search none.
TEST(KnownPeers, AnyAngleEntriesAreListedAndClassified) {
  struct Expected {
    const char* executable;
    const char* label;
    bool preprocessed;
  };
  const Expected expected[] = {
      {"anyangle-polyanya-mcdt", "Polyanya_MCDT, GPPC 2023 any-angle", true},
      {"anyangle-eps-mcdt", "EPS_MCDT, GPPC 2023 any-angle", true},
      {"anyangle-rayscan", "RayScan, GPPC 2023 any-angle", false},
      {"anyangle-eps-rec", "EPS_Rec, GPPC 2023 any-angle", true},
      {"anyangle-polyanya-rec", "Polyanya_Rec, GPPC 2023 any-angle", true},
      {"anyangle-gap-search", "Gap_Search, GPPC 2023 any-angle", false},
  };
  std::size_t any_angle = 0;
  for (const auto& p : bench::known_peers()) any_angle += p.any_angle;
  EXPECT_EQ(any_angle, 6u);
  for (const Expected& e : expected) {
    const bench::Peer* found = nullptr;
    for (const auto& p : bench::known_peers()) {
      if (p.executable == e.executable) found = &p;
    }
    ASSERT_NE(found, nullptr) << e.executable;
    EXPECT_EQ(found->label, e.label);
    EXPECT_EQ(found->kind, bench::PeerKind::gppc2023) << e.executable;
    EXPECT_TRUE(found->any_angle) << e.executable;
    EXPECT_EQ(found->preprocessed, e.preprocessed) << e.executable;
    ASSERT_TRUE(found->counterpart.has_value()) << e.executable;
    EXPECT_EQ(*found->counterpart, search::Algorithm::anyangle_exact) << e.executable;
  }
  // The grid peers stay grid peers.
  for (const auto& p : bench::known_peers()) {
    if (p.executable.rfind("anyangle-", 0) != 0) {
      EXPECT_FALSE(p.any_angle) << p.label;
    }
  }
}

// A fake any-angle entry: -pre makes its index, -run writes result.csv as the 2023 start kit
// does (9 decimals), with the given lengths and 1000, 2000, 3000 ns.
std::string anyangle_script(const std::vector<double>& lengths) {
  std::string rows;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    char line[160];
    std::snprintf(line, sizeof line, "m,s,%zu,2,%.9f,0,%zu,%zu,%zu\\n", i, lengths[i],
                  1000 * (i + 1), 1000 * (i + 1), 1000 * (i + 1));
    rows += line;
  }
  return "set -e\n"
         "case \"$1\" in\n"
         "  -pre) test -d index_data && echo mesh > index_data/m ;;\n"
         "  -run) test -f index_data/m\n"
         "        printf 'map,scen,experiment_id,path_size,path_length,ref_length,time_cost,"
         "20steps_cost,max_step_time\\n" +
         rows + "' > result.csv ;;\nesac\n";
}

TEST_F(PeerFixture, BenchKeepsEachQuerysLengthPerMapForThePeersCheck) {
  // tiny.map: (0,0)-(4,0) along the top edge; (0,2)-(4,0) over the wall's top-left corner
  // (1,1); (0,3)-(4,3) along the bottom edge.
  const auto ref = corner_costs();
  ASSERT_EQ(ref.size(), 3u);
  EXPECT_NEAR(ref[0], 4.0, 1e-9);
  EXPECT_NEAR(ref[1], std::sqrt(2.0) + std::sqrt(10.0), 1e-9);
  EXPECT_NEAR(ref[2], 4.0, 1e-9);
  scenario_.selected = {1};
  const auto one = corner_costs();
  ASSERT_EQ(one.size(), 1u);
  EXPECT_NEAR(one[0], ref[1], 1e-12);

  // Two maps, and a query with no path (the goal walled in): -1 in its place.
  write("shut.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n@@.\n...\n");
  write("shut.map.scen",
        "version 1\n0\tshut.map\t3\t3\t0\t0\t2\t2\t3\n"
        "0\tshut.map\t3\t3\t2\t0\t2\t2\t2\n");
  bench::BenchOptions o;
  o.algorithms = {search::Algorithm::anyangle_exact};
  const auto by_map = bench::costs_by_map(
      bench::run({scenario_, bench::load_scenario((dir_ / "shut.map.scen").string(), 0)}, o)
          .rows.at(0));
  ASSERT_EQ(by_map.size(), 2u);
  ASSERT_EQ(by_map[0].size(), 1u);
  ASSERT_EQ(by_map[1].size(), 2u);
  EXPECT_LT(by_map[1][0], 0);
  EXPECT_NEAR(by_map[1][1], 2.0, 1e-12);
}

TEST_F(PeerFixture, AnyAngleLengthsAreCheckedAgainstPathlabsExactLengths) {
  const auto ref = corner_costs();
  ASSERT_EQ(ref.size(), 3u);
  // The first exact, the second 0.01 too long, the third 0.01 too short.
  peer("anyangle-eps-mcdt", anyangle_script({ref[0], ref[1] + 0.01, ref[2] - 0.01}));
  const bench::Peer& eps = known("EPS_MCDT, GPPC 2023 any-angle");
  auto row = bench::run_peer(eps, scenario_, options_, &ref);
  ASSERT_TRUE(row.ok()) << row.error;
  EXPECT_EQ(row.check, bench::LengthCheck::pathlab_exact);
  EXPECT_EQ(row.queries, 3u);
  EXPECT_EQ(row.checked, 3u);
  EXPECT_EQ(row.suboptimal, 1u);
  EXPECT_EQ(row.below, 1u);
  EXPECT_DOUBLE_EQ(row.mean_us, 2.0);
  EXPECT_GT(row.prep_s, 0);

  // Without pathlab's lengths only the octile bound (4, 6, 4) and the straight line are left:
  // 4.586 passes under 6, 3.99 is below the straight line of 4.
  row = bench::run_peer(eps, scenario_, options_);
  ASSERT_TRUE(row.ok()) << row.error;
  EXPECT_EQ(row.check, bench::LengthCheck::octile_bound);
  EXPECT_EQ(row.suboptimal, 0u);
  EXPECT_EQ(row.below, 1u);
  peer("anyangle-eps-mcdt", anyangle_script({4.0, 6.0002, 4.0}));
  row = bench::run_peer(eps, scenario_, options_);
  EXPECT_EQ(row.suboptimal, 1u);  // above the octile optimum + 1e-4
  EXPECT_EQ(row.below, 0u);

  // Within 1e-6 relative of pathlab's lengths: no finding either way.
  peer("anyangle-eps-mcdt",
       anyangle_script({ref[0] * (1 + 4e-7), ref[1] * (1 - 4e-7), ref[2] + 1e-9}));
  row = bench::run_peer(eps, scenario_, options_, &ref);
  EXPECT_EQ(row.suboptimal, 0u);
  EXPECT_EQ(row.below, 0u);

  // Only the selected queries, each against its own reference (selected order).
  scenario_.selected = {1, 2};
  const std::vector<double> two{ref[1], ref[2]};
  peer("anyangle-eps-mcdt", anyangle_script({ref[0], ref[1] + 0.01, ref[2]}));
  row = bench::run_peer(eps, scenario_, options_, &two);
  EXPECT_EQ(row.queries, 2u);
  EXPECT_EQ(row.suboptimal, 1u);
  EXPECT_EQ(row.below, 0u);
}

TEST_F(PeerFixture, RunPeersChecksAnyAngleEntriesAgainstPathlabOnlyWhenAsked) {
  const auto ref = corner_costs();
  ASSERT_EQ(ref.size(), 3u);
  peer("anyangle-rayscan", anyangle_script({ref[0], ref[1] + 0.01, ref[2]}));
  peer("sgch-jpd-2023", sgch_script(""));
  auto rows = bench::run_peers({scenario_}, options_);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    ASSERT_EQ(r.maps.size(), 1u);
    ASSERT_TRUE(r.maps[0].ok()) << r.maps[0].error;
    if (r.peer.any_angle) {
      EXPECT_EQ(r.peer.executable, "anyangle-rayscan");
      EXPECT_EQ(r.maps[0].check, bench::LengthCheck::octile_bound);
      EXPECT_EQ(r.maps[0].suboptimal, 0u);  // under the octile bound
    } else {
      EXPECT_EQ(r.maps[0].check, bench::LengthCheck::scenario_optimum);
    }
  }
  options_.anyangle_reference = {ref};
  rows = bench::run_peers({scenario_}, options_);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    if (r.peer.any_angle) {
      EXPECT_EQ(r.maps[0].check, bench::LengthCheck::pathlab_exact);
      EXPECT_EQ(r.maps[0].suboptimal, 1u);
      EXPECT_EQ(r.maps[0].checked, 3u);
    } else {
      EXPECT_EQ(r.maps[0].check, bench::LengthCheck::scenario_optimum);  // a grid peer
      EXPECT_EQ(r.maps[0].suboptimal, 0u);
    }
  }
  EXPECT_EQ(bench::to_string(bench::LengthCheck::pathlab_exact), "pathlab anyangle-exact");
  EXPECT_EQ(bench::to_string(bench::LengthCheck::octile_bound), "octile bound");
}

TEST_F(PeerFixture, AnyAngleEntriesAreSetAgainstAnyAngleExact) {
  bench::Report report;
  auto row = [&](const char* algorithm, double us, bool optimal) {
    bench::Row r;
    r.algorithm = algorithm;
    r.optimal = optimal;
    bench::MapRow m;
    m.queries = m.solved = 10;
    m.mean_us = us;
    r.maps = {m};
    report.rows.push_back(r);
  };
  row("jps+", 8, true);  // preprocessed and faster, but a grid search
  row("anyangle-exact", 70, false);
  for (const char* label : {"EPS_MCDT, GPPC 2023 any-angle", "RayScan, GPPC 2023 any-angle"}) {
    const bench::Row* r = bench::counterpart(known(label), report, 0);
    ASSERT_NE(r, nullptr) << label;
    EXPECT_EQ(r->algorithm, "anyangle-exact");
  }
  bench::PeerRow p{known("Polyanya_MCDT, GPPC 2023 any-angle"), {}, 10, 35};
  bench::PeerMapRow m;
  m.queries = 10;
  m.mean_us = 35;
  p.maps = {m};
  const auto vs = bench::versus(p, report, 0);
  ASSERT_NE(vs.first, nullptr);
  EXPECT_DOUBLE_EQ(vs.second, 0.5);
  // With anyangle-labels measured too, the faster of the two exact methods is the counterpart.
  row("anyangle-labels", 20, false);
  EXPECT_EQ(bench::counterpart(known("EPS_MCDT, GPPC 2023 any-angle"), report, 0)->algorithm,
            "anyangle-labels");
  report.rows.back().maps[0].mean_us = 90;
  EXPECT_EQ(bench::counterpart(known("EPS_MCDT, GPPC 2023 any-angle"), report, 0)->algorithm,
            "anyangle-exact");
  report.rows.pop_back();
  report.rows.pop_back();  // no exact any-angle row: no counterpart, not jps+
  EXPECT_EQ(bench::counterpart(known("EPS_MCDT, GPPC 2023 any-angle"), report, 0), nullptr);
}

}  // namespace
