// The HTTP API of pathlab (docs/http.md) without the HTTP: a request (method, path, query
// parameters, body) in, an answer (status, content type, body) out. `pathlab serve` puts
// cpp-httplib in front of it; the static web page (`make site`) runs it compiled to WebAssembly
// in a Web Worker. Both answer every request alike, because both are this code.
//
// The routes: the algorithm list, maps (listed, read, parsed from uploads), searches, flow
// fields, movement ranges, editable map sessions, simulation sessions and the Link game. The
// answers are the JSON of pathlab::json; a request that cannot be answered gets
// {"error": "…"} with 400 (malformed), 404 (unknown route, map, session), 413 (too large) or 422
// (refused by the library: unknown names, a start on a wall, …).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pathlab/api/catalog.hpp>

namespace pathlab::api {

/// The content type of every answer. With the charset named, cpp-httplib does not compress it:
/// Debian's build compresses with brotli whenever a browser asks, and a 500-agent simulation
/// state (190 KB) took 375 ms to compress against 13 ms to send as it is (loopback).
inline constexpr const char* kJsonType = "application/json; charset=utf-8";

/// One request, as a transport hands it over.
struct Request {
  std::string method;  ///< "GET", "HEAD" (answered as GET), "POST", "DELETE"
  std::string path;    ///< percent-decoded, without the query: "/api/maps/seed_maze.txt"
  /// The query parameters, percent-decoded, in the order given (a name may repeat).
  std::vector<std::pair<std::string, std::string>> query;
  std::string_view body;  ///< the bytes sent (JSON, or a map file for /api/parse)

  /// The first value of the query parameter `name`, if given.
  [[nodiscard]] std::optional<std::string_view> param(std::string_view name) const;

  /// A request from a request target as sent on the wire ("/api/maps/a%20b.txt?cell=2"): the
  /// path and the query percent-decoded as cpp-httplib decodes them ('+' is a space in the query
  /// only; a '%' not followed by two hex digits stays as it is).
  [[nodiscard]] static Request from_target(std::string method, std::string_view target,
                                           std::string_view body = {});
};

/// One answer.
struct Response {
  int status = 200;                      ///< the HTTP status: 200, or the error's
  std::string content_type = kJsonType;  ///< always kJsonType
  std::string body;                      ///< JSON text
};

/// What one API instance allows.
struct Limits {
  std::size_t max_sessions = 16;  ///< map and simulation sessions each; one more evicts the LRU
  std::size_t max_body_bytes = std::size_t{8} << 20;  ///< larger bodies are 413
  std::int64_t max_cells = std::int64_t{1} << 22;     ///< 2048 x 2048
  std::uint64_t max_nodes = 5'000'000;                ///< node limit cap per request
};

/// The API: routes, the catalog they read and the sessions they keep. handle() may be called
/// from any number of threads at once (each session has its own lock).
class Api {
 public:
  /// An API over `catalog` (shared: kept as long as the API) within `limits`.
  explicit Api(std::shared_ptr<const Catalog> catalog, Limits limits = {});
  ~Api();
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;

  /// Answers one request. Never throws: a failure the routes did not foresee is 500.
  [[nodiscard]] Response handle(const Request& request);

  /// The limits it was made with.
  [[nodiscard]] const Limits& limits() const noexcept;
  /// The catalog it reads.
  [[nodiscard]] const Catalog& catalog() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pathlab::api
