// What the API's routes share: the error a route throws for a request it cannot answer, the one
// way a body is read, the router, and the readers of the request fields several routes take
// (the map, cells, search options). Only the API lives here; the JSON of library results comes
// from pathlab::json.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/api/api.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::api::detail {

/// A request that cannot be answered: its status and message (the answer's "error").
struct ApiError {
  int status;
  std::string message;
};

/// The request's body as a JSON object, else ApiError 400; an empty body is {} where `empty_ok`.
[[nodiscard]] nlohmann::json body_object(const Request& req, bool empty_ok = false);

/// The path segments a route's ":name" segments matched, in order.
using Captures = std::vector<std::string>;
/// A route: answers with the JSON text of a 200, or throws (ApiError, ParseError, …).
using Handler = std::function<std::string(const Request&, const Captures&)>;

/// Routes by method and path pattern ("/api/sim/:id/step": a ":" segment matches any non-empty
/// segment). HEAD is answered as GET.
class Router {
 public:
  void add(std::string method, std::string_view pattern, Handler handler);
  /// The route for the request and the segments it captured, or nullptr.
  [[nodiscard]] const Handler* match(const Request& req, Captures& captures) const;

 private:
  struct Route {
    std::string method;
    std::vector<std::string> segments;
    Handler handler;
  };
  std::vector<Route> routes_;
};

/// The JSON text of an answer (nlohmann::json or its ordered variant).
template <class J>
std::string dump(const J& j) {
  return j.dump();
}

// ---- request fields several routes read ------------------------------------------------------

/// The grid of a request's "map" object: {"width","height","walls":"0101…"[,"terrain":[…]]
/// [,"classes":"…"][,"layout"][,"layers","layer_height"][,"edge_walls"][,"links"]}, the fields
/// of json::loaded_map (a layered map's floors stacked as it says).
[[nodiscard]] grid::Grid grid_from_json(const nlohmann::json& m, const Limits& limits);
/// The grid cell a request names as [x, y] or, on a layered map, [x, y, layer] (y within the
/// floor; [x, y] is floor 0): ApiError 400 for another shape, 422 outside the map or on a floor
/// it does not have. Walls are not checked. `what` names the cell in the message.
[[nodiscard]] Cell map_cell_from_json(const nlohmann::json& j, const std::string& what,
                                      const grid::Grid& g);
/// A cell [x, y] (or [x, y, layer]) the unit may stand on (`view`: the grid as the unit sees it).
[[nodiscard]] Cell cell_from_json(const nlohmann::json& j, const char* what, const grid::Grid& g,
                                  const grid::Unit& unit, const grid::Grid& view);
/// The search options of a request (algorithm, heuristic, weight, diagonal, cost model, node
/// limit, the unit, partial).
[[nodiscard]] search::Options options_from_json(const nlohmann::json& r, const Limits& limits);
/// The answer of /api/solve for request r on grid g, by `finder` (its options set from r).
[[nodiscard]] nlohmann::json solve_answer(const grid::Grid& g, search::Pathfinder& finder,
                                          const nlohmann::json& r);
/// The answer of /api/reach for request r on grid g, by `finder` (its options set from r).
[[nodiscard]] nlohmann::json reach_answer(const grid::Grid& g, search::Pathfinder& finder,
                                          const nlohmann::json& r);

// ---- the routes, by part ---------------------------------------------------------------------

/// /api/algorithms, /api/maps, /api/parse, /api/solve, /api/flow, /api/reach.
void add_core_routes(Router& router, const Catalog& catalog, const Limits& limits);
class MapSessions;
/// /api/mapsession...
void add_map_session_routes(Router& router, MapSessions& sessions, const Limits& limits);
class Simulations;
/// /api/scenarios, /api/sim...
void add_simulation_routes(Router& router, Simulations& sims);
/// /api/link/...
void add_link_routes(Router& router, const Catalog& catalog, const Limits& limits);

}  // namespace pathlab::api::detail
