// `pathlab serve`: the HTTP API of pathlab::api (libs/api: maps, searches with a compact trace,
// flow fields, ranges, map and simulation sessions, the Link game) behind cpp-httplib, over the
// map and scenario folders given, and the static files of web/. Every bad request gets a JSON
// error with 400, 404, 413 or 422.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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

/// Asks a running serve() to return.
void stop();

}  // namespace pathlab::server
