// Search results as JSON: the objects of `pathlab solve --json` (shared docs/DESIGN.md, "JSON
// fields (fixed)"), `pathlab reach --json`, `pathlab algorithms --json`, --trace files, and the
// answers of POST /api/solve and /api/reach, which start from the same functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>
#include <pathlab/search/trace.hpp>

namespace pathlab::json {

/// {"algorithms":[{name, optimal, fewest_moves, informed, any_angle, summary}…],
/// "heuristics":[…]}.
[[nodiscard]] nlohmann::json algorithm_list();

/// The fields every search answer has: "status", "algorithm", "start", "goal" (the goal
/// reached, the first of `goals` when none was), "cost", "moves", "path" (cells), "points" (map
/// units), "any_angle", "expanded", "generated", "los_checks", "time_us", "answered_by" (the
/// algorithm that answered: Result::answered_by) and "fallback" (why it is not `algorithm`:
/// to_string(Result::fallback), "none" when it is), and "note" (Result::note) when there is
/// one. Cells as json::cell writes them for `g` ([x, y, layer] on layered maps). [Limit: goals
/// not empty]
[[nodiscard]] nlohmann::json search_result(search::Algorithm algorithm, Cell start,
                                           const std::vector<Cell>& goals, const search::Result& r,
                                           const grid::Grid* g = nullptr);

/// Adds "partial": {"reached":[x,y],"cost","path"} when the options asked for a partial path,
/// none was found and the search got somewhere.
void add_partial(nlohmann::json& out, const search::Options& o, const search::Result& r,
                 const grid::Grid* g = nullptr);

/// Adds "smoothed_path" (cells), "smoothed_points", "smoothed_cost" and "smoothing":
/// {"method","los_checks"}.
void add_smoothing(nlohmann::json& out, const post::SmoothedPath& s, post::Smoothing method,
                   const grid::Grid* g = nullptr);

/// One algorithm's object of `pathlab solve --json`: search_result() for o.algorithm plus the
/// settings ("heuristic", "weight", "diagonal", "cost_model", "unit"), the other counters
/// ("reopened", "peak_open", "iterations"), "goals" when several were given, add_partial(), and
/// add_smoothing() when `smoothed` is not null.
[[nodiscard]] nlohmann::json solve_result(const search::Options& o, Cell start,
                                          const std::vector<Cell>& goals, const search::Result& r,
                                          const post::SmoothedPath* smoothed,
                                          post::Smoothing method, const grid::Grid* g = nullptr);

/// A --trace file's object: {"algorithm","width","height","start","goal","events":[…]}, each
/// event {"type", …} with its cells, costs and side.
[[nodiscard]] nlohmann::json trace(search::Algorithm algorithm, const grid::Grid& g, Cell start,
                                   Cell goal, const std::vector<search::TraceEvent>& events);

/// The trace as one flat integer array (the web page's form): v = zigzag(cell - previous cell)
/// * 8 + code, with cell = y * width + x and code
///   0 opened, 1 updated, 2 closed, 3 iteration, 4 meet (its first cell),
///   5 line of sight that sees through, 6 line of sight that is blocked (the first cell),
///   7 the second cell of the event before: a line-of-sight value is always followed by one.
/// Every value is delta-coded the same way, so a decoder that skips codes it does not know
/// still follows the cells; the visible bit rides in the code to keep los events at two small
/// values. Consecutive events are near each other, so most values take 2–4 digits on the wire.
[[nodiscard]] nlohmann::json compact_trace(const std::vector<search::TraceEvent>& events,
                                           int width);

/// A movement range: {"from":[x,y],"budget","status":"found"|"node_limit",
/// "cells":[[x,y,cost],…]}; on a layered map `g` cells are [x, y, layer] and the list's
/// entries [x, y, layer, cost] (json::cell).
[[nodiscard]] nlohmann::json reach(Cell from, double budget, Status status,
                                   const std::vector<search::ReachCell>& cells,
                                   const grid::Grid* g = nullptr);

/// One algorithm's line of `pathlab prepare --json`: {"algorithm","status","file","prep_s",
/// "bytes"}; `status` says where the data came from (loaded, rebuilt, built).
[[nodiscard]] nlohmann::json prepared(search::Algorithm algorithm, std::string_view status,
                                      const std::string& file, const search::PrepareInfo& info);

}  // namespace pathlab::json
