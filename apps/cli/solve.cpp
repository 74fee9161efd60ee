// `pathlab solve`: one map, one or more algorithms; a picture and a table for people, the
// contract's JSON for programs, and the search trace on request.
#include <cmath>
#include <cstdlib>

#include <fmt/core.h>

#include <pathlab/json/search.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/render/render.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "common.hpp"

namespace pathlab::cli {
namespace {

struct SolveArgs {
  std::string map;
  std::string from;
  std::vector<std::string> to;  ///< several: the nearest of them
  bool partial = false;
  std::string algos = "astar";
  SearchArgs search;
  MapArgs map_args;
  std::string trace_path;
  std::string render_path;
  std::string picture = "auto";
  bool json = false;
  bool smooth = false;
  std::string smoothing = "refined";
  std::string cache;  ///< where `pathlab prepare` left preprocessed data
};

Cell endpoint(const std::string& text, const std::optional<Cell>& marker, const char* option,
              const std::string& map, const grid::Grid& grid) {
  Cell c;
  if (!text.empty()) {
    c = parse_cell(text, option, &grid);
  } else if (marker) {
    c = *marker;
  } else {
    throw CliError{map + ": the map has no " +
                   (std::string(option) == "--from" ? "start" : "goal") + " marker; give " +
                   option + " X,Y"};
  }
  return c;
}

int run_solve(const SolveArgs& a) {
  io::Map map = load_map(a.map, a.map_args);
  a.search.apply_edits(map.grid);
  search::Options base = a.search.options();
  base.partial = a.partial;
  // Points in map units ("--from 10.3,4.7"): an any-angle query between points of free space;
  // a cell given beside one stands for its centre.
  bool points = is_point_text(a.from);
  for (const std::string& t : a.to) points = points || is_point_text(t);
  if (points && a.to.size() > 1) throw CliError{"--to: a query between points takes one --to"};
  if (points && a.partial) throw CliError{"--partial takes cells, not points"};
  Point start_point, goal_point;
  auto point_endpoint = [&](const std::string& text, const std::optional<Cell>& marker,
                            const char* option, Point& p) {
    p = is_point_text(text) ? parse_point(text, option)
                            : centre(endpoint(text, marker, option, a.map, map.grid));
    const auto c = search::point_cell(*map.grid.view(base.unit), p);
    if (!c) {
      throw CliError{fmt::format(
          "{} {} is not in free space of {}: outside the {} map, inside a wall or on an edge "
          "between two walls{}",
          option, text.empty() ? "(marker)" : text, a.map, map_shape(map.grid),
          base.unit.radius > 0 ? ", as --radius sees it" : "")};
    }
    return *c;
  };
  std::vector<Cell> goals;
  Cell start;
  if (points) {
    start = point_endpoint(a.from, map.start, "--from", start_point);
    goals.push_back(point_endpoint(a.to.empty() ? "" : a.to[0], map.goal, "--to", goal_point));
  } else {
    start = endpoint(a.from, map.start, "--from", a.map, map.grid);
    check_endpoint(map.grid, base, start, "--from", a.map);
    for (const std::string& t : a.to.empty() ? std::vector<std::string>{""} : a.to) {
      goals.push_back(endpoint(t, map.goal, "--to", a.map, map.grid));
      check_endpoint(map.grid, base, goals.back(), "--to", a.map);
    }
  }
  const Cell goal = goals.front();  // drawn and traced; the nearest when found (below)
  // The map as the unit sees it: what the pictures show and smoothing sees. The finders get
  // the map itself and the unit, and search this same view.
  const std::shared_ptr<const grid::Grid> view = map.grid.view(base.unit);
  const grid::Grid& grid = *view;
  // NAME or NAME:WEIGHT, e.g. astar:0,astar:1000 for the users' weight comparison.
  std::vector<std::optional<double>> weights;
  std::string names;
  for (std::size_t pos = 0; pos <= a.algos.size();) {
    const std::size_t end = std::min(a.algos.find(',', pos), a.algos.size());
    std::string item = a.algos.substr(pos, end - pos);
    std::optional<double> w;
    if (const auto colon = item.find(':'); colon != std::string::npos) {
      const std::string wt = item.substr(colon + 1);
      char* stop = nullptr;
      const double v = std::strtod(wt.c_str(), &stop);
      if (wt.empty() || *stop != '\0' || !(v >= 0) || !std::isfinite(v)) {
        throw CliError{"--algo " + item + ": the weight after ':' must be a number >= 0"};
      }
      w = v;
      item.resize(colon);
    }
    weights.push_back(w);
    names += (names.empty() ? "" : ",") + item;
    pos = end + 1;
  }
  const auto algos = parse_algorithms(names);
  if (points) {
    const bool centres = start_point == centre(start) && goal_point == centre(goals.front());
    for (const auto algo : algos) {
      if (!centres && !search::answers_points(algo)) {
        throw CliError{fmt::format(
            "{} searches between cell centres; a point off them (--from/--to X.x,Y.y) needs an "
            "algorithm that takes any point: anyangle-exact",
            search::to_string(algo))};
      }
    }
  }
  if (a.picture != "auto" && a.picture != "always" && a.picture != "never") {
    throw CliError{"--picture expects auto, always or never"};
  }
  const bool picture =
      !a.json && (a.picture == "always" ||
                  (a.picture == "auto" && grid.width() <= 160 && grid.height() <= 100));
  const bool color = stdout_is_terminal();
  const auto smoothing = post::parse_smoothing(a.smoothing);
  if (!smoothing) throw CliError{"--smoothing expects greedy or refined"};
  if (grid.has_terrain() && !a.json) {
    for (const auto algo : algos) {
      if (search::info(algo).any_angle) {
        fmt::print(stderr,
                   "pathlab: note: {} measures Euclidean length and does not weigh terrain "
                   "costs\n",
                   search::to_string(algo));
      }
    }
  }

  nlohmann::json results = nlohmann::json::array(), traces = nlohmann::json::array();
  std::vector<std::pair<search::Algorithm, search::Result>> table;
  std::vector<post::SmoothedPath> smoothed(algos.size());
  std::vector<std::vector<Point>> polylines(algos.size());
  std::vector<search::TraceRecorder> recorders(algos.size());  // kept for --render
  bool all_found = true;
  for (std::size_t i = 0; i < algos.size(); ++i) {
    const search::Algorithm algo = algos[i];
    search::Options o = base;
    o.algorithm = algo;
    if (weights[i]) o.weight = weights[i];
    if (!search::admissible(o.effective_heuristic(), o.moves) && search::info(algo).informed &&
        !a.json) {
      fmt::print(stderr,
                 "pathlab: note: {} overestimates diagonal moves; {} may not find the least "
                 "cost\n",
                 search::to_string(o.effective_heuristic()), search::to_string(algo));
    }
    search::Pathfinder finder(map.grid, o);
    // Preprocessed data from the cache when `pathlab prepare` left it there (else built now, in
    // memory): time_us is the query's alone either way.
    if (search::uses_preparation(algo)) load_or_prepare(finder, map.grid, algo, a.cache, false);
    if (const std::string_view note = search::fallback_note(map.grid, o);
        !note.empty() && !a.json) {
      fmt::print(stderr, "pathlab: note: {}\n", note);
    }
    search::Result r;
    // Untraced: the figures reported are the fast path's.
    auto query = [&](search::Pathfinder& f, search::Result& out, search::TraceRecorder* l) {
      if (points) {
        f.find_points(start_point, goal_point, out, l);
      } else {
        f.find_nearest(start, goals, out, l);
      }
    };
    query(finder, r, nullptr);
    search::TraceRecorder& rec = recorders[i];
    if (picture || !a.trace_path.empty() || !a.render_path.empty()) {
      search::Result traced;
      search::Pathfinder tracer(map.grid, o);
      query(tracer, traced, &rec);
    }
    all_found = all_found && r.status == Status::found;
    if (a.smooth) smoothed[i] = post::smooth_result(grid, o, r, *smoothing);
    if (search::info(algo).any_angle) polylines[i] = search::path_points(r);
    if (a.json)
      results.push_back(json::solve_result(o, start, goals, r, a.smooth ? &smoothed[i] : nullptr,
                                           *smoothing, &map.grid));
    const Cell reached = r.status == Status::found ? r.reached_goal() : goal;
    if (!a.trace_path.empty()) {
      traces.push_back(json::trace(algo, grid, start, reached, rec.events()));
    }
    if (picture) {
      fmt::print("{} on {} ({}), {} diagonal rule, {} heuristic\n", search::to_string(algo), a.map,
                 map_shape(grid), grid::to_string(o.moves.diagonal),
                 search::to_string(o.effective_heuristic()));
      const render::Scene scene{
          &grid,
          start,
          reached,
          {{"", &rec.events(), &r.path, search::info(algo).any_angle ? &polylines[i] : nullptr,
            a.smooth ? &smoothed[i].points : nullptr}}};
      fmt::print("{}", render::text_picture(scene, color));
      fmt::print("legend: # wall  . expanded  o opened  * path  {}S start  G goal\n\n",
                 a.smooth ? "+ smoothed  " : "");
    }
    table.emplace_back(algo, std::move(r));
  }

  if (!a.render_path.empty()) {
    render::Scene scene{&grid, start, goal, {}};
    for (std::size_t i = 0; i < algos.size(); ++i) {
      scene.panels.push_back({std::string(search::to_string(algos[i])) +
                                  (weights[i] ? fmt::format(" w={}", *weights[i]) : ""),
                              &recorders[i].events(), &table[i].second.path,
                              search::info(algos[i]).any_angle ? &polylines[i] : nullptr,
                              a.smooth ? &smoothed[i].points : nullptr});
    }
    try {
      render::render_file(scene, a.render_path);
    } catch (const std::exception& e) {
      throw CliError{e.what()};
    }
  }
  if (!a.trace_path.empty()) {
    write_json_file(a.trace_path,
                    traces.size() == 1 ? traces[0] : nlohmann::json{{"results", traces}});
  }
  if (a.json) {
    fmt::print("{}\n",
               (results.size() == 1 ? results[0] : nlohmann::json{{"results", results}}).dump());
  } else {
    bool any_angle = false;
    for (const auto algo : algos) any_angle = any_angle || search::info(algo).any_angle;
    fmt::print("{:<14} {:<10} {:>12} {:>7} {:>10} {:>10} {:>10}", "algorithm", "status", "cost",
               "moves", "expanded", "generated", "time_us");
    if (any_angle) fmt::print(" {:>10}", "los");
    if (a.smooth) fmt::print(" {:>12} {:>9}", "smoothed", "waypoints");
    fmt::print("\n");
    for (std::size_t i = 0; i < table.size(); ++i) {
      const auto& [algo, r] = table[i];
      const std::string name = std::string(search::to_string(algo)) +
                               (weights[i] ? fmt::format(":{}", *weights[i]) : "");
      fmt::print("{:<14} {:<10} {:>12.4f} {:>7} {:>10} {:>10} {:>10.1f}", name, to_string(r.status),
                 r.cost, r.moves(), r.stats.expanded, r.stats.generated, r.stats.time_us);
      if (any_angle) fmt::print(" {:>10}", r.stats.los_checks);
      if (a.smooth && r.status == Status::found) {
        fmt::print(" {:>12.4f} {:>9}", smoothed[i].cost, smoothed[i].path.size());
      }
      fmt::print("\n");
      if (goals.size() > 1 && r.status == Status::found) {
        fmt::print("  nearest goal: {},{}\n", r.reached_goal().x, r.reached_goal().y);
      }
      if (a.partial && r.status != Status::found && !r.partial.path.empty()) {
        fmt::print(
            "  partial path: {} moves to {},{} (cost {:.4f}), the reached cell closest to "
            "the goal\n",
            r.partial.path.size() - 1, r.partial.reached.x, r.partial.reached.y, r.partial.cost);
      }
    }
  }
  return all_found ? kExitOk : kExitNegative;
}

}  // namespace

void register_solve(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* cmd = app.add_subcommand("solve", "find a path on a map and show how the search went");
  cmd->add_option(
         "MAP", args->map,
         "map file (text, ASCII, Moving AI .map, an image, Tiled .tmx / .tmj, a layered .json)")
      ->required();
  cmd->add_option("--from", args->from,
                  "start X,Y (default: the map's start marker); a point in map units such as "
                  "10.3,4.7 (with a '.') asks anyangle-exact for a path between points");
  cmd->add_option("--to", args->to,
                  "goal X,Y (default: the map's goal marker), or a point as for --from; "
                  "several --to: the nearest of them");
  cmd->add_flag("--partial", args->partial,
                "with no path (or the node limit): also the partial path to the reached cell "
                "closest to the goal (JSON \"partial\"); the exit code stays 1");
  cmd->add_option("--algo", args->algos,
                  "algorithm or comma-separated list; NAME:W sets its weight (astar:0,astar:1000)")
      ->capture_default_str();
  args->search.add_to(*cmd);
  args->search.add_unit_options(*cmd);
  args->map_args.add_to(*cmd, false);
  cmd->add_option("--trace", args->trace_path, "write the search events to OUT.json");
  add_cache_option(*cmd, args->cache);
  cmd->add_option("--render", args->render_path,
                  "draw the search to OUT.png, OUT.svg or an animated OUT.gif (several "
                  "algorithms: side by side, in lockstep)");
  cmd->add_option("--picture", args->picture,
                  "draw the map picture: auto (maps up to 160x100), always, never")
      ->capture_default_str();
  cmd->add_flag("--smooth", args->smooth,
                "also prune the path to waypoints that see each other (smoothed_path, "
                "smoothed_cost)");
  cmd->add_option("--smoothing", args->smoothing,
                  "with --smooth: greedy (keep a waypoint when the next cell is hidden) or "
                  "refined (greedy, then string pulling over the path's cells)")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "machine output (fields fixed by the CLI contract)");
  cmd->callback([args, &exit_code] { exit_code = run_solve(*args); });
}

}  // namespace pathlab::cli
