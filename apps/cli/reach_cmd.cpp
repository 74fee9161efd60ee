// `pathlab reach`: the movement range of a unit (turn-based games): every cell whose least cost
// from the start is within a budget (shared docs/ALGORITHMS.md, "Partial paths and other query
// shapes"); a shaded picture for people, the contract's JSON for programs.
#include <cmath>

#include <fmt/core.h>

#include <pathlab/json/search.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "common.hpp"

namespace pathlab::cli {
namespace {

struct ReachArgs {
  std::string map;
  std::string from;
  double budget = -1;
  SearchArgs search;
  MapArgs map_args;
  bool json = false;
};

int run_reach(const ReachArgs& a) {
  io::Map map = load_map(a.map, a.map_args);
  a.search.apply_edits(map.grid);
  const search::Options o = a.search.options();
  Cell start;
  if (!a.from.empty()) {
    start = parse_cell(a.from, "--from", &map.grid);
  } else if (map.start) {
    start = *map.start;
  } else {
    throw CliError{a.map + ": the map has no start marker; give --from X,Y"};
  }
  check_endpoint(map.grid, o, start, "--from", a.map);
  if (!(a.budget >= 0) || !std::isfinite(a.budget)) {
    throw CliError{fmt::format("--budget {}: the budget must be a finite number >= 0", a.budget)};
  }
  search::Pathfinder finder(map.grid, o);
  std::vector<search::ReachCell> cells;
  const Status st = finder.reach(start, a.budget, cells);
  if (st == Status::invalid_input) throw CliError{"the movement range cannot be computed here"};
  if (a.json) {
    fmt::print("{}\n", json::reach(start, a.budget, st, cells, &map.grid).dump());
  } else {
    const grid::Grid& g = map.grid;
    fmt::print("{} cells within {} of {},{} on {}{}\n", cells.size(), a.budget, start.x, start.y,
               a.map, st == Status::node_limit ? " (stopped by the node limit)" : "");
    if (g.width() <= 160 && g.height() <= 100) {
      const auto view = g.view(o.unit);
      std::vector<char> in_range(static_cast<std::size_t>(g.cells()), 0);
      for (const auto& c : cells) {
        in_range[static_cast<std::size_t>(c.cell.y) * static_cast<std::size_t>(g.width()) +
                 static_cast<std::size_t>(c.cell.x)] = 1;
      }
      for (int y = 0; y < g.height(); ++y) {
        std::string row;
        for (int x = 0; x < g.width(); ++x) {
          const char cls = g.cell_class(x, y);
          row += (Cell{x, y} == start) ? 'S'
                 : in_range[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) +
                            static_cast<std::size_t>(x)]
                     ? '+'
                 : !view->passable(x, y) ? (cls == grid::kWallClass ? '#' : cls)
                                         : '.';
        }
        fmt::print("{}\n", row);
      }
      fmt::print(
          "legend: S start  + within the budget  # wall (other letters: classes the unit "
          "cannot use)\n");
    }
  }
  return st == Status::node_limit ? kExitNegative : kExitOk;
}

}  // namespace

void register_reach(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReachArgs>();
  CLI::App* cmd = app.add_subcommand(
      "reach", "movement range: every cell a unit can reach from a start within a budget");
  cmd->add_option(
         "MAP", args->map,
         "map file (text, ASCII, Moving AI .map, an image, Tiled .tmx / .tmj, a layered .json)")
      ->required();
  cmd->add_option("--from", args->from, "start X,Y (default: the map's start marker)");
  cmd->add_option("--budget", args->budget,
                  "movement points: the least path cost a cell may have (straight step 1, "
                  "diagonal sqrt 2, times class cost and terrain)")
      ->required();
  args->search.add_to(*cmd);
  args->search.add_unit_options(*cmd);
  args->map_args.add_to(*cmd, false);
  cmd->add_flag("--json", args->json,
                "machine output: {\"from\",\"budget\",\"cells\":[[x,y,cost],...]} (row-major)");
  cmd->callback([args, &exit_code] { exit_code = run_reach(*args); });
}

}  // namespace pathlab::cli
