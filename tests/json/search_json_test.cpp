// pathlab::json's search objects: the fixed fields of `solve --json` (shared docs/DESIGN.md)
// hold the Result's values; partial paths, smoothing, several goals, the compact trace and the
// movement range.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <pathlab/json/grid.hpp>
#include <pathlab/json/search.hpp>
#include <pathlab/search/algorithm.hpp>

namespace pathlab {
namespace {

/// 6x4, a wall across x = 2 from y = 0 to 2: the way round goes through (2, 3).
grid::Grid wall_grid() {
  grid::Grid g(6, 4);
  for (int y = 0; y < 3; ++y) g.set_blocked(2, y, true);
  return g;
}

std::vector<Cell> cells_of(const nlohmann::json& a) {
  std::vector<Cell> out;
  for (const auto& c : a) out.push_back({c.at(0).get<int>(), c.at(1).get<int>()});
  return out;
}

TEST(SearchJson, SolveResultHasTheFixedFieldsWithTheResultsValues) {
  const grid::Grid g = wall_grid();
  search::Options o;
  o.algorithm = search::Algorithm::astar;
  search::Pathfinder finder(g, o);
  const Cell s{0, 0}, t{5, 0};
  const search::Result r = finder.find(s, t);
  ASSERT_EQ(r.status, Status::found);
  const nlohmann::json j = json::solve_result(o, s, {t}, r, nullptr, post::Smoothing::refined);
  for (const char* k : {"status", "algorithm", "start", "goal", "cost", "moves", "path", "points",
                        "expanded", "generated", "time_us"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  EXPECT_EQ(j["status"], "found");
  EXPECT_EQ(j["algorithm"], "astar");
  EXPECT_EQ(j["start"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(j["goal"], nlohmann::json::array({5, 0}));
  EXPECT_DOUBLE_EQ(j["cost"].get<double>(), r.cost);
  EXPECT_EQ(j["moves"].get<std::size_t>(), r.path.size() - 1);
  EXPECT_EQ(cells_of(j["path"]), r.path);
  ASSERT_EQ(j["points"].size(), r.path.size());
  for (std::size_t i = 0; i < r.path.size(); ++i) {
    EXPECT_DOUBLE_EQ(j["points"][i][0].get<double>(), r.path[i].x + 0.5);
    EXPECT_DOUBLE_EQ(j["points"][i][1].get<double>(), r.path[i].y + 0.5);
  }
  EXPECT_EQ(j["expanded"].get<std::uint64_t>(), r.stats.expanded);
  EXPECT_EQ(j["generated"].get<std::uint64_t>(), r.stats.generated);
  EXPECT_EQ(j["any_angle"], false);
  EXPECT_EQ(j["diagonal"], "no-corner-cut");
  EXPECT_EQ(j["unit"]["radius"], 0.0);
  EXPECT_FALSE(j.contains("goals"));
  EXPECT_FALSE(j.contains("partial"));
  EXPECT_FALSE(j.contains("smoothed_path"));
}

TEST(SearchJson, AnsweredByAndFallbackSayWhoAnsweredAndWhy) {
  const grid::Grid g = wall_grid();
  search::Options o;
  o.algorithm = search::Algorithm::jps;
  search::Pathfinder asked(g, o);
  search::Result r = asked.find({0, 0}, {5, 0});
  ASSERT_EQ(r.status, Status::found);
  nlohmann::json j = json::search_result(o.algorithm, {0, 0}, {{5, 0}}, r);
  EXPECT_EQ(j["answered_by"], "jps");
  EXPECT_EQ(j["fallback"], "none");
  EXPECT_FALSE(j.contains("note"));

  o.moves.diagonal = grid::DiagonalRule::always;  // jps is defined for no-corner-cut only
  search::Pathfinder fallen(g, o);
  r = fallen.find({0, 0}, {5, 0});
  ASSERT_EQ(r.status, Status::found);
  j = json::solve_result(o, {0, 0}, {{5, 0}}, r, nullptr, post::Smoothing::refined);
  EXPECT_EQ(j["algorithm"], "jps");
  EXPECT_EQ(j["answered_by"], std::string(search::to_string(r.answered_by)));
  EXPECT_EQ(j["answered_by"], "astar");
  EXPECT_EQ(j["fallback"], "diagonal-rule");
  EXPECT_EQ(j["note"], std::string(r.note));
}

TEST(SearchJson, TheServersFieldsAreTheSolveFieldsTheyShare) {
  const grid::Grid g = wall_grid();
  search::Options o;
  search::Pathfinder finder(g, o);
  const search::Result r = finder.find({0, 0}, {5, 0});
  const nlohmann::json shared = json::search_result(o.algorithm, {0, 0}, {{5, 0}}, r);
  const nlohmann::json cli =
      json::solve_result(o, {0, 0}, {{5, 0}}, r, nullptr, post::Smoothing::refined);
  for (const auto& [key, value] : shared.items()) EXPECT_EQ(cli.at(key), value) << key;
  EXPECT_FALSE(shared.contains("heuristic"));
  EXPECT_TRUE(cli.contains("heuristic"));
}

TEST(SearchJson, SeveralGoalsNameTheOneReachedAndListThemAll) {
  const grid::Grid g = wall_grid();
  search::Options o;
  search::Pathfinder finder(g, o);
  const std::vector<Cell> goals{{5, 0}, {1, 3}};
  search::Result r;
  ASSERT_EQ(finder.find_nearest({0, 0}, goals, r), Status::found);
  const nlohmann::json j =
      json::solve_result(o, {0, 0}, goals, r, nullptr, post::Smoothing::refined);
  EXPECT_EQ(j["goal"], nlohmann::json::array({1, 3}));
  EXPECT_EQ(cells_of(j["goals"]), goals);
}

TEST(SearchJson, NoPathWithPartialGivesTheCellReachedAndTheFirstGoal) {
  grid::Grid g = wall_grid();
  g.set_blocked(2, 3, true);  // the wall now closes the map
  search::Options o;
  o.partial = true;
  search::Pathfinder finder(g, o);
  const search::Result r = finder.find({0, 0}, {5, 0});
  ASSERT_EQ(r.status, Status::no_path);
  const nlohmann::json j =
      json::solve_result(o, {0, 0}, {{5, 0}}, r, nullptr, post::Smoothing::refined);
  EXPECT_EQ(j["status"], "no_path");
  EXPECT_EQ(j["goal"], nlohmann::json::array({5, 0}));
  EXPECT_TRUE(j["path"].empty());
  ASSERT_TRUE(j.contains("partial"));
  const std::vector<Cell> partial = cells_of(j["partial"]["path"]);
  ASSERT_FALSE(partial.empty());
  EXPECT_EQ(partial.front(), (Cell{0, 0}));
  EXPECT_EQ(j["partial"]["reached"], json::cell(r.partial.reached));
  EXPECT_EQ(partial.back(), r.partial.reached);
  EXPECT_DOUBLE_EQ(j["partial"]["cost"].get<double>(), r.partial.cost);
  for (const Cell c : partial) EXPECT_LT(c.x, 2);  // all on the start's side

  o.partial = false;  // not asked for: no field
  const nlohmann::json plain =
      json::solve_result(o, {0, 0}, {{5, 0}}, r, nullptr, post::Smoothing::refined);
  EXPECT_FALSE(plain.contains("partial"));
}

TEST(SearchJson, SmoothingAddsTheSmoothedPathAndItsCost) {
  const grid::Grid g(8, 8);
  search::Options o;
  search::Pathfinder finder(g, o);
  const search::Result r = finder.find({0, 0}, {7, 3});
  const post::SmoothedPath sm = post::smooth_result(g, o, r, post::Smoothing::greedy);
  const nlohmann::json j = json::solve_result(o, {0, 0}, {{7, 3}}, r, &sm, post::Smoothing::greedy);
  EXPECT_EQ(cells_of(j["smoothed_path"]), sm.path);
  EXPECT_DOUBLE_EQ(j["smoothed_cost"].get<double>(), sm.cost);
  EXPECT_EQ(j["smoothed_points"].size(), sm.points.size());
  EXPECT_EQ(j["smoothing"]["method"], "greedy");
  // Open ground: straight from start to goal.
  EXPECT_EQ(sm.path, (std::vector<Cell>{{0, 0}, {7, 3}}));
  EXPECT_NEAR(sm.cost, std::hypot(7.0, 3.0), 1e-9);
}

TEST(SearchJson, CompactTraceDecodesToTheEventsCells) {
  const grid::Grid g = wall_grid();
  search::Options o;
  o.algorithm = search::Algorithm::theta;  // has line-of-sight events (two cells each)
  search::Pathfinder finder(g, o);
  search::TraceRecorder rec;
  (void)finder.find({0, 0}, {5, 0}, &rec);
  ASSERT_FALSE(rec.events().empty());
  const nlohmann::json a = json::compact_trace(rec.events(), g.width());
  std::vector<std::pair<int, Cell>> decoded;  // (code, cell)
  std::int64_t cell = 0;
  for (const auto& v : a) {
    const std::int64_t value = v.get<std::int64_t>(), zig = value / 8;
    cell += zig % 2 == 0 ? zig / 2 : -(zig + 1) / 2;
    decoded.push_back({static_cast<int>(value % 8),
                       {static_cast<int>(cell % g.width()), static_cast<int>(cell / g.width())}});
  }
  std::size_t k = 0;
  bool saw_sight = false;
  for (const auto& e : rec.events()) {
    ASSERT_LT(k, decoded.size());
    EXPECT_EQ(decoded[k].second, e.cell);
    if (e.type == search::EventType::line_of_sight) {
      saw_sight = true;
      EXPECT_EQ(decoded[k].first, e.g != 0 ? 5 : 6);
      EXPECT_EQ(decoded[k + 1].first, 7);
      EXPECT_EQ(decoded[k + 1].second, e.other);
      k += 2;
    } else {
      EXPECT_EQ(decoded[k].first, static_cast<int>(e.type));
      ++k;
    }
  }
  EXPECT_EQ(k, decoded.size());
  EXPECT_TRUE(saw_sight);
}

TEST(SearchJson, TraceFileHasOneObjectPerEvent) {
  const grid::Grid g = wall_grid();
  search::Options o;
  search::Pathfinder finder(g, o);
  search::TraceRecorder rec;
  (void)finder.find({0, 0}, {5, 0}, &rec);
  const nlohmann::json j = json::trace(o.algorithm, g, {0, 0}, {5, 0}, rec.events());
  EXPECT_EQ(j["width"], 6);
  EXPECT_EQ(j["height"], 4);
  ASSERT_EQ(j["events"].size(), rec.events().size());
  for (std::size_t i = 0; i < rec.events().size(); ++i) {
    const auto& e = rec.events()[i];
    EXPECT_EQ(j["events"][i]["type"], std::string(search::to_string(e.type)));
    if (e.type == search::EventType::closed) {
      EXPECT_EQ(j["events"][i]["x"], e.cell.x);
      EXPECT_EQ(j["events"][i]["y"], e.cell.y);
    }
  }
}

TEST(SearchJson, ReachListsEveryCellWithinTheBudgetRowMajor) {
  const grid::Grid g = wall_grid();
  search::Options o;
  search::Pathfinder finder(g, o);
  std::vector<search::ReachCell> cells;
  const Status st = finder.reach({0, 0}, 2.0, cells);
  const nlohmann::json j = json::reach({0, 0}, 2.0, st, cells);
  EXPECT_EQ(j["from"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(j["budget"], 2.0);
  EXPECT_EQ(j["status"], "found");
  ASSERT_EQ(j["cells"].size(), cells.size());
  std::set<std::pair<int, int>> seen;
  int last = -1;
  for (const auto& c : j["cells"]) {
    ASSERT_EQ(c.size(), 3u);
    const int x = c[0], y = c[1];
    EXPECT_LE(c[2].get<double>(), 2.0);
    EXPECT_GT(y * g.width() + x, last);  // row-major
    last = y * g.width() + x;
    seen.insert({x, y});
  }
  EXPECT_TRUE(seen.count({0, 0}));
  EXPECT_TRUE(seen.count({1, 1}));   // sqrt 2
  EXPECT_FALSE(seen.count({2, 3}));  // 3 moves away at least
}

TEST(SearchJson, AlgorithmListNamesEveryAlgorithmAndHeuristic) {
  const nlohmann::json j = json::algorithm_list();
  ASSERT_EQ(j["algorithms"].size(), search::algorithms().size());
  std::set<std::string> names;
  for (const auto& a : j["algorithms"]) names.insert(a["name"].get<std::string>());
  for (const char* n : {"astar", "jps", "theta", "dijkstra", "bfs"}) EXPECT_TRUE(names.count(n));
  EXPECT_EQ(j["heuristics"].size(), search::heuristics().size());
}

}  // namespace
}  // namespace pathlab
