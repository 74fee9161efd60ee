// The HTTP + JSON API over the library that `pathlab serve` runs (cpp-httplib): static files
// from web/, bundled and Moving AI maps, map parsing, solving with a compact trace, the
// algorithm list, simulation sessions (simulation.hpp) and the Link game (link_api.hpp). Every
// bad request gets a JSON error with 400, 404, 413 or 422.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>

namespace pathlab::server {

struct Config {
  std::string host = "127.0.0.1";
  int port = 8080;                    ///< 0 picks a free port
  std::string web_dir;                ///< static files (index.html, ...)
  std::vector<std::string> map_dirs;  ///< maps offered by /api/maps (bundled first)
  /// simulation scenarios (*.json) offered by /api/scenarios and /api/sim (shipped first)
  std::vector<std::string> scenario_dirs;
  std::size_t max_sessions = 16;  ///< live simulations; one more evicts the least recently used
  std::size_t max_body_bytes = 8u << 20;
  std::int64_t max_cells = std::int64_t{1} << 22;  ///< 2048 x 2048
  std::uint64_t max_nodes = 5'000'000;             ///< node limit cap per request
};

/// Serves until stop() is called from another thread or a signal handler's watcher.
/// `on_ready(url)` is called once the socket listens; `log` gets one line per request.
/// Returns false when the address cannot be bound.
bool serve(const Config& config, const std::function<void(const std::string&)>& on_ready,
           const std::function<void(const std::string&)>& log);

/// {"algorithms":[{name, optimal, fewest_moves, informed, any_angle, summary}…],"heuristics":[…]}:
/// what both `pathlab algorithms --json` and GET /api/algorithms answer.
/// The content type of every JSON answer. With the charset named, cpp-httplib does not compress
/// it: Debian's build compresses with brotli whenever a browser asks, and a 500-agent simulation
/// state (190 KB) took 375 ms to compress against 13 ms to send as it is (loopback).
inline constexpr const char* kJsonType = "application/json; charset=utf-8";

[[nodiscard]] nlohmann::json algorithm_list();

/// A flow field as `pathlab flow --json` and POST /api/flow give it (shared docs/DESIGN.md):
/// width, height, goals, row-major distance (null where no goal is reachable) and direction
/// (codes 0 E ... 7 NE, -1 none), the cells that see a goal (goal index, -1), the reachable
/// count, the unit, and time_us of the build.
[[nodiscard]] nlohmann::json flow_json(const flow::Field& f);
/// A sectored field (flow/sectors.hpp) the same way (no "sees"), plus "sector", "sectors_x",
/// "sectors_y", "sectors_built" (row-major, 1 where the corridor's field is built) and
/// "corridor_cells"; "time_us" is the last require's.
[[nodiscard]] nlohmann::json flow_json(const flow::SectorField& f);

/// Asks a running serve() to return.
void stop();

}  // namespace pathlab::server
