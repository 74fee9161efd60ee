// `pathlab algorithms` (what can be asked for) and `pathlab convert` (map format conversion).
#include <fmt/core.h>

#include <pathlab/core/error.hpp>
#include <pathlab/json/search.hpp>
#include <pathlab/search/algorithm.hpp>

#include "common.hpp"

namespace pathlab::cli {

void register_algorithms(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("algorithms", "list the algorithms and heuristics");
  cmd->add_flag("--json", *json, "machine output");
  cmd->callback([json, &exit_code] {
    if (*json) {
      fmt::print("{}\n", pathlab::json::algorithm_list().dump());
    } else {
      fmt::print("{:<15} {:<8} {:<10} {}\n", "name", "optimal", "paths", "what it does");
      for (const auto& a : search::algorithms()) {
        fmt::print("{:<15} {:<8} {:<10} {}\n", a.name, a.optimal ? "yes" : "no",
                   a.any_angle ? "any-angle" : "grid", a.summary);
      }
      fmt::print("\nheuristics:");
      for (auto h : search::heuristics()) fmt::print(" {}", search::to_string(h));
      fmt::print("\n");
    }
    exit_code = kExitOk;
  });
}

void register_convert(CLI::App& app, int& exit_code) {
  struct Args {
    std::string in, out, to = "auto";
    MapArgs map;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "convert", "convert a map between formats (output format from OUT's extension or --to)");
  cmd->add_option("IN", args->in, "input map")->required();
  cmd->add_option("OUT", args->out,
                  "output map: .map (Moving AI), .txt (users' text), .ascii, .png, .bmp, .tmj "
                  "(Tiled: every map kind)")
      ->required();
  cmd->add_option("--to", args->to, "output format: auto, text, ascii, movingai, image, tmj")
      ->capture_default_str();
  args->map.add_to(*cmd);
  cmd->callback([args, &exit_code] {
    const io::Map m = load_map(args->in, args->map);
    auto to = io::parse_map_format(args->to);
    if (!to) throw CliError{"unknown output format '" + args->to + "'"};
    try {
      io::save_map(m, args->out, *to);
    } catch (const std::exception& e) {
      throw CliError{e.what()};
    }
    fmt::print("{} ({}, {}) -> {}\n", args->in, map_shape(m.grid), io::to_string(m.format),
               args->out);
    exit_code = kExitOk;
  });
}

}  // namespace pathlab::cli
