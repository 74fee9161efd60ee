// `pathlab prepare MAP [--algo NAME] [--cache DIR]`: builds the per-map data of the algorithms
// that preprocess (jps+, …) and saves it in the cache folder (DESIGN.md, "Preprocessing"),
// never beside the map. A file already there is loaded and verified instead: its header holds a
// format version and the map's checksum, and one that does not match (a stale or foreign file)
// is rebuilt, never trusted. `solve` and `bench` look in the same folder (load_or_prepare()).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/core.h>

#include <pathlab/json/search.hpp>
#include <pathlab/search/prepare.hpp>

#include "common.hpp"

namespace pathlab::cli {

std::filesystem::path cache_dir(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "pathlab";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "pathlab";
  }
  return std::filesystem::temp_directory_path() / "pathlab-cache";
}

void add_cache_option(CLI::App& cmd, std::string& value) {
  cmd.add_option("--cache", value,
                 "folder of prepared data, written by `pathlab prepare` and read by solve and "
                 "bench (default $XDG_CACHE_HOME/pathlab or ~/.cache/pathlab)");
}

PreparedOutcome load_or_prepare(search::Pathfinder& finder, const grid::Grid& g,
                                search::Algorithm algorithm, const std::string& cache_option,
                                bool save) {
  PreparedOutcome out;
  const std::filesystem::path dir = cache_dir(cache_option);
  // Named after the grid the finder searches: its unit's view when the unit sees the map
  // otherwise (a radius, other class costs).
  const grid::Grid* searched = finder.searched_grid();
  out.file = dir / search::prepared_file_name(searched != nullptr ? *searched : g, algorithm,
                                              finder.options().moves.diagonal);
  {
    std::ifstream in(out.file, std::ios::binary);
    if (in && search::load_prepared(finder, in)) {
      out.info = search::prepared_info(finder);
      out.loaded = true;
      return out;
    }
    out.stale = static_cast<bool>(in);  // there was a file, and it did not match
  }
  out.info = search::prepare(finder);
  if (!out.info.ready || !save) return out;
  // Written beside its final name and renamed, so that a reader never sees half a file.
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path tmp = out.file.string() + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    out.saved = file && search::save_prepared(finder, file) && file.flush();
  }
  if (out.saved) std::filesystem::rename(tmp, out.file, ec);
  if (!out.saved || ec) {
    out.saved = false;
    std::filesystem::remove(tmp, ec);
  }
  return out;
}

namespace {

struct PrepareArgs {
  std::string map;
  std::string algos;
  std::string cache;
  bool json = false;
  SearchArgs search;
  MapArgs map_args;
};

int run_prepare(const PrepareArgs& a) {
  const io::Map map = load_map(a.map, a.map_args);
  std::vector<search::Algorithm> list;
  if (a.algos.empty()) {
    for (const auto& i : search::algorithms()) {
      if (search::uses_preparation(i.algorithm)) list.push_back(i.algorithm);
    }
  } else {
    list = parse_algorithms(a.algos);
    for (const search::Algorithm alg : list) {
      if (!search::uses_preparation(alg)) {
        throw CliError{std::string(search::to_string(alg)) + " has nothing to prepare"};
      }
    }
  }
  nlohmann::json results = nlohmann::json::array();
  for (const search::Algorithm alg : list) {
    search::Options o = a.search.options();
    o.algorithm = alg;
    search::Pathfinder finder(map.grid, o);
    const PreparedOutcome r = load_or_prepare(finder, map.grid, alg, a.cache, true);
    if (!r.info.ready) {
      // Why, in the library's words (terrain costs or another rule: A* answers; a map too
      // large for hub labels: anyangle-exact answers).
      const search::FallbackInfo why = search::fallback_for(finder);
      const std::string reason =
          "does not preprocess this map with these options" +
          (why.note.empty() ? std::string() : " (" + std::string(why.note) + ")");
      // Asked for by name, it is an error; taken as one of "every one", it is skipped (the
      // others are still prepared) and the reason is shown.
      if (!a.algos.empty()) throw CliError{std::string(search::to_string(alg)) + " " + reason};
      if (a.json) {
        results.push_back(
            {{"algorithm", search::to_string(alg)}, {"status", "skipped"}, {"reason", reason}});
      } else {
        fmt::print("{:<16} skipped  {}\n", search::to_string(alg), reason);
      }
      continue;
    }
    if (!r.loaded && !r.saved) {
      throw CliError{r.file.string() + ": cannot write the prepared data"};
    }
    const std::string status = r.loaded ? "loaded" : (r.stale ? "rebuilt" : "built");
    if (a.json) {
      results.push_back(json::prepared(alg, status, r.file.string(), r.info));
    } else {
      fmt::print("{:<16} {:<8} {:>9.3f} s {:>10.1f} MiB  {}\n", search::to_string(alg), status,
                 r.info.seconds, static_cast<double>(r.info.bytes) / (1024.0 * 1024.0),
                 r.file.string());
    }
  }
  if (a.json) {
    fmt::print(
        "{}\n",
        nlohmann::json{{"map", a.map}, {"cache", cache_dir(a.cache).string()}, {"results", results}}
            .dump());
  }
  return kExitOk;
}

}  // namespace

void register_prepare(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PrepareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "prepare", "build the per-map data of preprocessing algorithms (jps+, …) into the cache");
  cmd->add_option("MAP", args->map, "map file")->required();
  cmd->add_option("--algo", args->algos,
                  "algorithms, comma-separated (default: every one that preprocesses)");
  add_cache_option(*cmd, args->cache);
  args->search.add_to(*cmd);
  args->search.add_unit_options(*cmd);
  args->map_args.add_to(*cmd, false);
  cmd->add_flag("--json", args->json, "machine output");
  cmd->callback([args, &exit_code] { exit_code = run_prepare(*args); });
}

}  // namespace pathlab::cli
