// Simulation scenario files (JSON): a map, agents, dynamic obstacles, the time step and limit,
// and planner parameters. The format is documented in docs/simulation.md ("Scenario files");
// runnable ones live in scenarios/*.json. The map path is relative to the scenario file.
// Every problem is reported as ParseError(file, line, what): JSON syntax errors at the line
// where they occur, bad values at the line of the offending value.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <pathlab/agents/world.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/io/map.hpp>

namespace pathlab::agents {

/// A scenario file as read: its names and the spec to build a World from.
struct Scenario {
  std::string path;      ///< the scenario file as given
  std::string name;      ///< "name", or the file's stem
  std::string map_path;  ///< resolved against the scenario file's folder
  /// The file's "seed" (default 1, 0..2^53), kept for callers; the World does not use it.
  std::uint64_t seed = 1;
  WorldSpec world;  ///< the map's grid, agents, obstacles, dt, time limit, parameters
};

/// Reads and checks a scenario file and loads its map. Throws ParseError.
[[nodiscard]] Scenario load_scenario(const std::string& path);

/// The same from text; `path` names it in errors and its folder resolves the map.
[[nodiscard]] Scenario parse_scenario(std::string_view text, const std::string& path);

/// Where a scenario's map comes from when it is not read from disk: called with the "map" value
/// joined to the scenario's folder (Scenario::map_path), it gives the map, or std::nullopt with
/// `problem` set to what is wrong (reported as a ParseError at the line of "map"). A map that
/// does not parse throws its own ParseError.
using MapReader =
    std::function<std::optional<io::Map>(const std::string& map_path, std::string& problem)>;

/// The same, the map coming from `read_map` (maps held in memory: a browser has no files).
[[nodiscard]] Scenario parse_scenario(std::string_view text, const std::string& path,
                                      const MapReader& read_map);

}  // namespace pathlab::agents
