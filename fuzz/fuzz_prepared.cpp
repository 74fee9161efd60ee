// libFuzzer target: pathlab::search::load_prepared, the reader of the cache files of
// `pathlab prepare` (jps+ jump tables, subgoal graphs and hierarchies, anyangle-labels' hub
// labels). Any bytes may only be refused (false) or accepted, and queries on what was accepted
// must end without a memory error. A jps+ table
// that is accepted answers with A*'s cost (the loader compares it with a fresh build); a path
// from a subgoal graph or hierarchy is legal and no shorter than A*'s (a tampered graph, its
// checksum forged, may miss a path or refuse a query whose shortcut does not unfold, but not
// break one). Hub labels accepted answer with a length no shorter than anyangle-exact's, from
// the start to the goal (their paths are checked against the map before they are returned).
// The seeds are real files for kMap, made by `pathlab prepare` (fuzz/corpus/fuzz_prepared).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

namespace {

// 24 x 12, Moving AI rows: '@' wall, '.' free (the map of the seed files).
constexpr const char* kMap[] = {
    "........................", "...@@@@@@@.....@@@@.....", "...@.............@......",
    "...@....@@@@@@...@...@..", "...@....@........@...@..", "........@...@@@@.@...@..",
    "..@@@@..@........@...@..", ".....@..@@@@@@@..@@@@@..", ".....@..................",
    ".....@@@@@@@...@@@@@@...", "........................", "........................"};

pathlab::grid::Grid make_grid() {
  pathlab::grid::Grid g(24, 12);
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 24; ++x) g.set_blocked(x, y, kMap[y][x] == '@');
  }
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pathlab::grid::Grid grid = make_grid();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (const auto algo :
       {pathlab::search::Algorithm::jps_plus, pathlab::search::Algorithm::subgoal,
        pathlab::search::Algorithm::subgoal_ch, pathlab::search::Algorithm::anyangle_labels}) {
    pathlab::search::Options o;
    o.algorithm = algo;
    pathlab::search::Pathfinder finder(grid, o);
    std::istringstream in(bytes);
    if (!pathlab::search::load_prepared(finder, in)) continue;
    if (algo == pathlab::search::Algorithm::anyangle_labels) {
      o.algorithm = pathlab::search::Algorithm::anyangle_exact;
      pathlab::search::Pathfinder exact(grid, o);
      pathlab::search::Result a, b;
      for (const auto& [s, t] : {std::pair{pathlab::Point{0.5, 0.5}, pathlab::Point{23.5, 11.5}},
                                 std::pair{pathlab::Point{4.25, 2.5}, pathlab::Point{20, 6}},
                                 std::pair{pathlab::Point{9.5, 4.75}, pathlab::Point{0, 12}}}) {
        finder.find_points(s, t, a);
        exact.find_points(s, t, b);
        if (a.status == pathlab::Status::found &&
            (b.status != pathlab::Status::found || a.cost < b.cost - 1e-9 ||
             a.points.front() != s || a.points.back() != t)) {
          __builtin_trap();
        }
      }
      continue;
    }
    o.algorithm = pathlab::search::Algorithm::astar;
    pathlab::search::Pathfinder astar(grid, o);
    for (const auto& [s, t] : {std::pair{pathlab::Cell{0, 0}, pathlab::Cell{23, 11}},
                               std::pair{pathlab::Cell{4, 2}, pathlab::Cell{20, 6}},
                               std::pair{pathlab::Cell{9, 4}, pathlab::Cell{0, 11}}}) {
      const auto a = finder.find(s, t), b = astar.find(s, t);
      if (algo == pathlab::search::Algorithm::jps_plus) {
        if (a.status != b.status || std::abs(a.cost - b.cost) > 1e-9) __builtin_trap();
        continue;
      }
      if (a.status == pathlab::Status::found &&
          (a.cost < b.cost - 1e-9 || pathlab::grid::check_path(grid, o.moves, a.path) ||
           a.path.front() != s || a.path.back() != t)) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
