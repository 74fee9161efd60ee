// `pathlab flow`: the flow field of one or several goals for a unit (shared docs/ALGORITHMS.md,
// "Flow fields"): the integration field (least cost to the nearest goal) and the direction field
// (each cell's first move), with the line-of-sight pass near the goals. The contract's JSON for
// programs; arrows for people (small maps), and a picture with --render.
#include <cmath>

#include <fmt/core.h>

#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
#include <pathlab/json/flow.hpp>
#include <pathlab/render/flow.hpp>

#include "common.hpp"

namespace pathlab::cli {
namespace {

struct FlowArgs {
  std::string map;
  std::vector<std::string> to;
  SearchArgs search;
  MapArgs map_args;
  double sight = 12;
  bool json = false;
  std::string render_path;
  std::vector<std::string> from;  ///< --from: a sectored field, on the way from these cells
  int sector = flow::SectorField::kDefaultSector;
};

/// `flow --from`: the sectored field, built only on the corridor from those cells.
int run_sectored(const FlowArgs& a, const grid::Grid& g, const std::vector<Cell>& goals,
                 const flow::Options& o, const search::Options& so) {
  if (!a.render_path.empty()) {
    throw CliError{"--render draws whole-map fields; drop --from to draw this one"};
  }
  std::vector<Cell> units;
  for (const std::string& t : a.from) units.push_back(parse_cell(t, "--from", &g));
  for (const Cell u : units) check_endpoint(g, so, u, "--from", a.map);
  flow::SectorField f;
  if (auto bad = f.build(g, goals, o, a.sector)) throw CliError{*bad};
  f.require(units);
  if (a.json) {
    fmt::print("{}\n", json::flow_field(f, &g).dump());
    return kExitOk;
  }
  const auto built = f.sectors_built();
  fmt::print(
      "sectored flow field of {} goal{} on {}: {} of {} sectors ({}x{} cells) built, {} corridor "
      "cells; {:.0f} us\n",
      goals.size(), goals.size() == 1 ? "" : "s", a.map, std::count(built.begin(), built.end(), 1),
      built.size(), f.sector(), f.sector(), f.corridor_cells(), f.stats().time_us);
  for (const Cell u : units) {
    const double d = f.distance(u);
    if (std::isfinite(d)) {
      fmt::print("  from {}: {:.6g}\n", cell_text(g, u), d);
    } else {
      fmt::print("  from {}: no goal reachable\n", cell_text(g, u));
    }
  }
  return kExitOk;
}

/// One arrow per direction code (E, SE, S, SW, W, NW, N, NE), then a link's (code 8).
constexpr std::array<const char*, 9> kArrows = {"→", "↘", "↓", "↙", "←", "↖", "↑", "↗", "⇅"};
/// Hex codes 0..5 (the axial order) on pointy-top and on flat-top layouts, then a link's (6).
constexpr std::array<const char*, 7> kPointyArrows = {"→", "↗", "↖", "←", "↙", "↘", "⇅"};
constexpr std::array<const char*, 7> kFlatArrows = {"↘", "↗", "↑", "↖", "↙", "↓", "⇅"};

/// The arrow of direction code d on g's layout.
const char* arrow(const grid::Grid& g, int d) {
  if (!grid::is_hex(g.layout())) return kArrows[static_cast<std::size_t>(d)];
  const bool pointy =
      g.layout() == grid::Layout::pointy_odd_r || g.layout() == grid::Layout::pointy_even_r;
  return (pointy ? kPointyArrows : kFlatArrows)[static_cast<std::size_t>(d)];
}

int run_flow(const FlowArgs& a) {
  io::Map map = load_map(a.map, a.map_args);
  a.search.apply_edits(map.grid);
  const search::Options so = a.search.options();
  std::vector<Cell> goals;
  for (const std::string& t : a.to) goals.push_back(parse_cell(t, "--to", &map.grid));
  if (goals.empty()) {
    if (!map.goal) throw CliError{a.map + ": the map has no goal marker; give --to X,Y"};
    goals.push_back(*map.goal);
  }
  for (const Cell g : goals) check_endpoint(map.grid, so, g, "--to", a.map);
  flow::Options o;
  o.moves = so.moves;
  o.unit = so.unit;
  o.sight_range = a.sight;
  if (!a.from.empty()) return run_sectored(a, map.grid, goals, o, so);
  flow::Field field;
  if (auto bad = field.build(map.grid, goals, o)) throw CliError{*bad};
  const grid::Grid& g = map.grid;
  if (!a.render_path.empty()) {
    render::FlowPicture pic;
    pic.grid = &g;
    pic.field = &field;
    try {
      render::write_flow(pic, a.render_path);
    } catch (const std::runtime_error& e) {
      throw CliError{e.what()};
    }
  }
  const std::vector<double> dist = field.distances();
  const std::vector<std::int8_t> dir = field.directions();
  std::size_t reachable = 0;
  double farthest = 0;
  for (const double d : dist) {
    if (!std::isfinite(d)) continue;
    ++reachable;
    farthest = std::max(farthest, d);
  }
  if (a.json) {
    fmt::print("{}\n", json::flow_field(field, &g).dump());
    return kExitOk;
  }
  fmt::print(
      "flow field of {} goal{} on {}: {} cells reach a goal, the farthest at {:.4g}; {:.0f} us\n",
      goals.size(), goals.size() == 1 ? "" : "s", a.map, reachable, farthest,
      field.stats().time_us);
  if (g.width() <= 160 && g.height() <= 100) {
    const auto view = g.view(o.unit);
    for (int y = 0; y < g.height(); ++y) {
      std::string row;
      for (int x = 0; x < g.width(); ++x) {
        const std::size_t k = static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) + x;
        const char cls = g.cell_class(x, y);
        if (std::find(goals.begin(), goals.end(), Cell{x, y}) != goals.end()) {
          row += 'G';
        } else if (!view->passable(x, y)) {
          row += cls == grid::kWallClass ? '#' : cls;
        } else if (dir[k] < 0) {
          row += ' ';
        } else if (field.sees({x, y}) >= 0) {
          row += '*';
        } else {
          row += arrow(g, dir[k]);
        }
      }
      fmt::print("{}\n", row);
    }
    fmt::print(
        "legend: G goal  arrows: the first move  * sees a goal (walks straight at it)  blank: no "
        "goal reachable  # wall (other letters: classes the unit cannot use)\n");
  }
  return kExitOk;
}

}  // namespace

void register_flow(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FlowArgs>();
  CLI::App* cmd = app.add_subcommand(
      "flow", "flow field: every cell's distance and first move to the nearest of the goals");
  cmd->add_option(
         "MAP", args->map,
         "map file (text, ASCII, Moving AI .map, an image, Tiled .tmx / .tmj, a layered .json)")
      ->required();
  cmd->add_option("--to", args->to,
                  "goal X,Y (repeat for several: each cell heads for the nearest; default: the "
                  "map's goal marker)");
  cmd->add_option("--diagonal", args->search.diagonal, "never, no-corner-cut, one-corner or always")
      ->capture_default_str();
  cmd->add_option("--cost-model", args->search.cost_model, "octile (1, sqrt 2) or integer (10, 14)")
      ->capture_default_str();
  args->search.add_unit_options(*cmd);
  args->map_args.add_to(*cmd, false);
  cmd->add_option("--sight", args->sight,
                  "cells within this distance of a goal that see it walk straight at it (0: off)")
      ->check(CLI::Range(0.0, 1024.0))
      ->capture_default_str();
  cmd->add_flag("--json", args->json,
                "machine output: {\"width\",\"height\",\"goals\",\"distance\",\"direction\","
                "\"time_us\"} (row-major; distance null where no goal is reachable; direction 0 E, "
                "1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE, -1 none)");
  cmd->add_option("--from", args->from,
                  "a unit's cell (repeat for several): build the field sector by sector, only on "
                  "the way from these cells (big maps); the JSON adds the sectors built");
  cmd->add_option("--sector", args->sector, "with --from: sector side in cells (8, 16, ..., 256)")
      ->capture_default_str();
  cmd->add_option("--render", args->render_path,
                  "draw the field: distance colours and arrows (.png or .svg)");
  cmd->callback([args, &exit_code] { exit_code = run_flow(*args); });
}

}  // namespace pathlab::cli
