// What the tests of the two subgoal-graph methods share (subgoal_graph_test.cpp: the two-level
// graph; subgoal_ch_test.cpp: the contraction hierarchy over the simple subgoal graph): a query
// and its answer, the path checks, and the comparison of every query on a grid with A* and
// the reference Dijkstra. `Graph` is either class: static build(grid), and
// find(grid, s, t, path, cost, expanded [, node_limit]).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "movingai.hpp"

#include "path_checks.hpp"
#include "test_grids.hpp"

namespace pathlab::testing {

struct SubgoalAnswer {
  Status status = Status::invalid_input;
  std::vector<Cell> path;
  double cost = 0;
  std::uint64_t expanded = 0;
};

template <class Graph>
SubgoalAnswer ask(Graph& graph, const grid::Grid& g, Cell s, Cell t) {
  SubgoalAnswer a;
  a.status = graph.find(g, s, t, a.path, a.cost, a.expanded);
  return a;
}

inline std::string describe(const std::string& what, Cell s, Cell t) {
  return what + " (" + std::to_string(s.x) + "," + std::to_string(s.y) + ")->(" +
         std::to_string(t.x) + "," + std::to_string(t.y) + ")";
}

/// A found path runs s..t, every step legal under no-corner-cut, and costs the sum of its steps.
inline void expect_sound(const grid::Grid& g, const SubgoalAnswer& a, Cell s, Cell t,
                         const std::string& what) {
  expect_sound_path(g, grid::Moves{}, a.path, a.cost, s, t, what);
}

/// Compares every query with A* (and, for the first start of each grid, the reference
/// Dijkstra of test_grids.hpp). Returns the number of paths found.
template <class Graph>
int check_grid(const grid::Grid& g, std::mt19937& rng, int starts, int goals,
               const std::string& what) {
  const auto cells = passable_cells(g);
  if (cells.empty()) return 0;
  Graph graph = Graph::build(g);
  search::Pathfinder astar(g);
  search::Result ref;
  int found = 0;
  for (int q = 0; q < starts; ++q) {
    const Cell s = cells[rng() % cells.size()];
    std::vector<double> dijkstra;
    if (q == 0) dijkstra = reference_distances(g, {}, s);
    for (int k = 0; k < goals; ++k) {
      Cell t = cells[rng() % cells.size()];
      if (k % 5 == 0) t = {t.x, s.y};  // on the start's row or column, when free
      if (k % 5 == 1) t = {s.x, t.y};
      if (!g.passable(t)) t = cells[rng() % cells.size()];
      const std::string where = describe(what, s, t);
      astar.find(s, t, ref);
      const SubgoalAnswer a = ask(graph, g, s, t);
      if (!dijkstra.empty()) {
        const double opt = dist_at(dijkstra, g, t);
        EXPECT_EQ(std::isinf(opt), ref.status == Status::no_path) << where;
        if (!std::isinf(opt)) {
          EXPECT_NEAR(ref.cost, opt, 1e-9 * std::max(1.0, opt)) << where;
        }
      }
      if (ref.status == Status::no_path) {
        EXPECT_EQ(a.status, Status::no_path) << where;
        EXPECT_TRUE(a.path.empty()) << where;
        continue;
      }
      EXPECT_EQ(a.status, Status::found) << where;
      if (a.status != Status::found) return found;
      ++found;
      EXPECT_NEAR(a.cost, ref.cost, 1e-9 * std::max(1.0, ref.cost)) << where;
      expect_sound(g, a, s, t, where);
      if (::testing::Test::HasFailure()) return found;
    }
  }
  return found;
}

/// Tiny maps: a path to itself, a straight corridor, a wall splitting the map (no path), a
/// start on a wall, outside the map or on another map's size (invalid input), and the diagonal
/// gap between two walls touching at a corner, closed under no-corner-cut.
template <class Graph>
void check_small_cases() {
  grid::Grid g(7, 1);
  Graph line = Graph::build(g);
  SubgoalAnswer a = ask(line, g, {3, 0}, {3, 0});
  ASSERT_EQ(a.status, Status::found);
  EXPECT_EQ(a.path, (std::vector<Cell>{Cell{3, 0}}));
  EXPECT_EQ(a.cost, 0);
  a = ask(line, g, {0, 0}, {6, 0});
  ASSERT_EQ(a.status, Status::found);
  EXPECT_EQ(a.path.size(), 7u);
  EXPECT_DOUBLE_EQ(a.cost, 6);

  grid::Grid walled(9, 9);
  for (int y = 0; y < 9; ++y) walled.set_blocked(4, y, true);
  Graph split = Graph::build(walled);
  a = ask(split, walled, {0, 0}, {8, 8});
  EXPECT_EQ(a.status, Status::no_path);
  EXPECT_TRUE(a.path.empty());
  EXPECT_EQ(ask(split, walled, {0, 0}, {4, 4}).status, Status::invalid_input);  // a wall
  EXPECT_EQ(ask(split, walled, {-1, 0}, {1, 1}).status, Status::invalid_input);
  EXPECT_EQ(ask(split, walled, {0, 0}, {9, 0}).status, Status::invalid_input);
  EXPECT_EQ(ask(split, g, {0, 0}, {1, 0}).status, Status::invalid_input);  // another map's size
  grid::Grid corner(2, 2);
  corner.set_blocked(1, 0, true);
  corner.set_blocked(0, 1, true);
  Graph c = Graph::build(corner);
  EXPECT_EQ(ask(c, corner, {0, 0}, {1, 1}).status, Status::no_path);
}

/// Every .scen of the shared Moving AI set but those `skip` names: ~150 evenly spread lines per
/// file at the optimum (ALGORITHMS.md tolerance), each path sound; `on_graph` checks each built
/// graph. Returns the number of queries (0 when the set is absent: the caller skips).
template <class Graph, class Skip, class OnGraph>
std::size_t check_movingai_sample(Skip&& skip, OnGraph&& on_graph) {
  std::size_t total = 0;
  for (const auto& file : movingai_scenario_files()) {
    const auto scen = io::load_scenarios(file.string());
    const auto map = io::load_map(scen.map_path());
    if (skip(file, map.grid)) continue;
    EXPECT_TRUE(Graph::applies(map.grid, {})) << file;
    Graph graph = Graph::build(map.grid);
    on_graph(graph, file);
    const std::size_t step = std::max<std::size_t>(1, scen.entries.size() / 150);
    for (std::size_t i = 0; i < scen.entries.size(); i += step) {
      const auto& e = scen.entries[i];
      ++total;
      const std::string what = file.filename().string() + ":" + std::to_string(e.line);
      const SubgoalAnswer a = ask(graph, map.grid, e.start, e.goal);
      EXPECT_EQ(a.status, Status::found) << what;
      EXPECT_TRUE(at_optimum(a.cost, e.optimal)) << what << ": " << a.cost;
      expect_sound(map.grid, a, e.start, e.goal, what);
      if (::testing::Test::HasFailure()) return total;
    }
  }
  return total;
}

/// The file checks both methods share: `built` (for grid g, made from random_grid(seed, ...))
/// saved and loaded again answers 80 queries as the fresh `again` does and saves the same bytes;
/// a stale map (one wall flipped), a foreign one (another seed), another size, another format
/// version, a damaged byte, a truncated file and an empty one are refused. Returns the bytes.
template <class Graph>
std::string check_file_round_trip(const Graph& built, Graph& again, const grid::Grid& g,
                                  std::uint32_t seed, int wall_pct) {
  std::stringstream file;
  EXPECT_TRUE(built.save(file));
  const std::string bytes = file.str();
  auto load = [](const std::string& data, const grid::Grid& on) {
    std::istringstream in(data);
    return Graph::load(in, on);
  };
  auto loaded = load(bytes, g);
  EXPECT_TRUE(loaded.has_value());
  if (!loaded) return bytes;
  const auto cells = passable_cells(g);
  for (std::size_t i = 0; i < 80; ++i) {
    const Cell s = cells[(i * 53) % cells.size()], t = cells[(i * 29 + 3) % cells.size()];
    const SubgoalAnswer a = ask(again, g, s, t), b = ask(*loaded, g, s, t);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.path, b.path);
  }
  std::stringstream resaved;
  EXPECT_TRUE(loaded->save(resaved));
  EXPECT_EQ(resaved.str(), bytes);
  grid::Grid changed = g;
  changed.set_blocked(cells[cells.size() / 2], true);
  EXPECT_FALSE(load(bytes, changed).has_value()) << "stale";
  EXPECT_FALSE(load(bytes, random_grid(seed + 1, g.width(), g.height(), wall_pct, false)))
      << "foreign";
  EXPECT_FALSE(load(bytes, grid::Grid(g.width(), g.height() + 1)).has_value());
  std::string version = bytes;  // the format version: bytes 8..11
  const std::uint32_t v = Graph::kFormatVersion + 1;
  std::memcpy(version.data() + 8, &v, sizeof v);
  EXPECT_FALSE(load(version, g).has_value());
  std::string damaged = bytes;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x10);
  EXPECT_FALSE(load(damaged, g).has_value());
  EXPECT_FALSE(load(bytes.substr(0, bytes.size() - 2), g).has_value());
  EXPECT_FALSE(load("", g).has_value());
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_FALSE(load(magic, g).has_value());
  return bytes;
}

/// Tables::walkable(a, b), the clearance-based check, against Tables::walk(path, a, b), the
/// cell-by-cell walk, for `pairs` random pairs: a a free cell, b any cell within 12 columns and
/// rows of it (so that many walks succeed). Each walk's path ends at b and has max(|dx|, |dy|)
/// cells. Returns how many pairs were walkable.
template <class Tables>
int expect_walkable_is_walk(const Tables& sg, const grid::Grid& g, std::mt19937& rng, int pairs,
                            const std::string& what) {
  const auto cells = passable_cells(g);
  if (cells.empty()) return 0;
  int yes = 0;
  for (int i = 0; i < pairs; ++i) {
    const Cell a = cells[rng() % cells.size()];
    const Cell b{std::clamp(a.x + static_cast<int>(rng() % 25) - 12, 0, g.width() - 1),
                 std::clamp(a.y + static_cast<int>(rng() % 25) - 12, 0, g.height() - 1)};
    std::vector<Cell> path;
    const bool walked = sg.walk(path, g.id(a), g.id(b));
    const bool walkable = sg.walkable(g.id(a), g.id(b));
    EXPECT_EQ(walkable, walked) << describe(what, a, b);
    if (walked) {
      ++yes;
      // A legal octile path a..b: every step legal, max(dx, dy) steps, the octile cost.
      const int dx = std::abs(b.x - a.x), dy = std::abs(b.y - a.y);
      EXPECT_EQ(path.size(), static_cast<std::size_t>(std::max(dx, dy))) << describe(what, a, b);
      path.insert(path.begin(), a);
      expect_sound_path(g, grid::Moves{}, path,
                        std::min(dx, dy) * std::sqrt(2.0) + std::abs(dx - dy), a, b,
                        describe(what, a, b));
    } else {
      EXPECT_TRUE(path.empty()) << describe(what, a, b);
    }
    if (::testing::Test::HasFailure()) return yes;
  }
  return yes;
}

}  // namespace pathlab::testing
