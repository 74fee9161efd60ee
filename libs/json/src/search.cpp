// Search results as JSON (see search.hpp).
#include <pathlab/json/search.hpp>

#include <cmath>
#include <cstdint>

#include <pathlab/grid/hex.hpp>
#include <pathlab/json/grid.hpp>
#include <pathlab/search/algorithm.hpp>

namespace pathlab::json {

nlohmann::json algorithm_list() {
  nlohmann::json algos = nlohmann::json::array(), heur = nlohmann::json::array();
  for (const auto& a : search::algorithms()) {
    algos.push_back({{"name", a.name},
                     {"optimal", a.optimal},
                     {"fewest_moves", a.fewest_moves},
                     {"informed", a.informed},
                     {"any_angle", a.any_angle},
                     {"summary", a.summary}});
  }
  for (auto h : search::heuristics()) heur.push_back(std::string(search::to_string(h)));
  return {{"algorithms", algos}, {"heuristics", heur}};
}

/// The centres of `cells` in the map's own units: (x + 0.5, y + 0.5) on square maps, hex::centre
/// in hex units on hex maps; on layered maps [x, y, layer] with y within the floor.
nlohmann::json centres(std::span<const Cell> cells, const grid::Grid& g) {
  nlohmann::json out = nlohmann::json::array();
  for (const Cell c : cells) {
    const int layer = g.layer_of(c.y), y = g.local_y(c.y);
    const Point p =
        grid::is_hex(g.layout()) ? grid::hex::centre(g.layout(), c.x, y) : centre(Cell{c.x, y});
    if (g.layers() > 1) {
      out.push_back({p.x, p.y, layer});
    } else {
      out.push_back({p.x, p.y});
    }
  }
  return out;
}

/// A result's points: its own (any-angle vertices) or its cells' centres, in the map's units
/// (centres()) on maps that are not plain.
nlohmann::json path_points(const search::Result& r, const grid::Grid* g) {
  if (g == nullptr || !r.points.empty() || (g->layers() == 1 && !grid::is_hex(g->layout()))) {
    return points(search::path_points(r));
  }
  return centres(r.path, *g);
}

nlohmann::json search_result(search::Algorithm algorithm, Cell start,
                             const std::vector<Cell>& goals, const search::Result& r,
                             const grid::Grid* g) {
  // The goal reached (several goals: the nearest), else the first one given.
  const Cell goal = r.status == Status::found ? r.reached_goal() : goals.front();
  nlohmann::json j = {
      {"status", std::string(to_string(r.status))},
      {"algorithm", std::string(search::to_string(algorithm))},
      {"start", cell(start, g)},
      {"goal", cell(goal, g)},
      {"cost", r.cost},
      {"moves", r.moves()},
      {"path", cells(r.path, g)},
      {"points", path_points(r, g)},
      // Whether the path is any-angle: the algorithm that answered (a fallback may not be).
      {"any_angle", search::info(r.answered_by).any_angle},
      {"expanded", r.stats.expanded},
      {"generated", r.stats.generated},
      {"los_checks", r.stats.los_checks},
      {"time_us", r.stats.time_us},
      // Which algorithm answered and why (Result::answered_by, fallback): "fallback" is
      // "none" when the one asked for did; "note" says it in words when it did not.
      {"answered_by", std::string(search::to_string(r.answered_by))},
      {"fallback", std::string(search::to_string(r.fallback))}};
  if (!r.note.empty()) j["note"] = std::string(r.note);
  return j;
}

void add_partial(nlohmann::json& out, const search::Options& o, const search::Result& r,
                 const grid::Grid* g) {
  if (!o.partial || r.status == Status::found || r.partial.path.empty()) return;
  out["partial"] = {{"reached", cell(r.partial.reached, g)},
                    {"cost", r.partial.cost},
                    {"path", cells(r.partial.path, g)}};
}

void add_smoothing(nlohmann::json& out, const post::SmoothedPath& s, post::Smoothing method,
                   const grid::Grid* g) {
  out["smoothed_path"] = cells(s.path, g);
  out["smoothed_points"] = g != nullptr && (g->layers() > 1 || grid::is_hex(g->layout()))
                               ? centres(s.path, *g)
                               : points(s.points);
  out["smoothed_cost"] = s.cost;
  out["smoothing"] = {{"method", std::string(post::to_string(method))},
                      {"los_checks", s.los_checks}};
}

nlohmann::json solve_result(const search::Options& o, Cell start, const std::vector<Cell>& goals,
                            const search::Result& r, const post::SmoothedPath* smoothed,
                            post::Smoothing method, const grid::Grid* g) {
  nlohmann::json j = search_result(o.algorithm, start, goals, r, g);
  j["heuristic"] = std::string(search::to_string(o.effective_heuristic()));
  j["weight"] = o.effective_weight();
  j["diagonal"] = std::string(grid::to_string(o.moves.diagonal));
  j["cost_model"] = std::string(grid::to_string(o.moves.cost_model));
  j["unit"] = unit(o.unit);
  j["reopened"] = r.stats.reopened;
  j["peak_open"] = r.stats.peak_open;
  j["iterations"] = r.stats.iterations;
  if (goals.size() > 1) j["goals"] = cells(goals, g);
  add_partial(j, o, r, g);
  if (smoothed != nullptr) add_smoothing(j, *smoothed, method, g);
  return j;
}

nlohmann::json trace(search::Algorithm algorithm, const grid::Grid& g, Cell start, Cell goal,
                     const std::vector<search::TraceEvent>& events) {
  nlohmann::json ev = nlohmann::json::array();
  for (const auto& e : events) {
    nlohmann::json j{{"type", std::string(search::to_string(e.type))}};
    switch (e.type) {
      case search::EventType::opened:
      case search::EventType::updated:
        j.update({{"x", e.cell.x},
                  {"y", e.cell.y},
                  {"px", e.other.x},
                  {"py", e.other.y},
                  {"g", e.g},
                  {"f", e.f},
                  {"side", e.side}});
        break;
      case search::EventType::closed:
        j.update({{"x", e.cell.x}, {"y", e.cell.y}, {"side", e.side}});
        break;
      case search::EventType::iteration:
        j["bound"] = e.g;
        break;
      case search::EventType::meet:
      case search::EventType::line_of_sight:
        j.update({{"x", e.cell.x}, {"y", e.cell.y}, {"x2", e.other.x}, {"y2", e.other.y}});
        if (e.type == search::EventType::line_of_sight) j["visible"] = e.g != 0;
        break;
    }
    ev.push_back(std::move(j));
  }
  return {{"algorithm", std::string(search::to_string(algorithm))},
          {"width", g.width()},
          {"height", g.height()},
          {"start", cell(start)},
          {"goal", cell(goal)},
          {"events", ev}};
}

nlohmann::json compact_trace(const std::vector<search::TraceEvent>& events, int width) {
  enum : int { kSightClear = 5, kSightBlocked = 6, kSecondCell = 7 };
  nlohmann::json out = nlohmann::json::array();
  std::int64_t prev = 0;
  auto put = [&](Cell c, int code) {
    const std::int64_t at = std::int64_t{c.y} * width + c.x;
    const std::int64_t d = at - prev;
    const std::int64_t zig = d >= 0 ? 2 * d : -2 * d - 1;
    out.push_back(zig * 8 + code);
    prev = at;
  };
  for (const auto& e : events) {
    if (e.type == search::EventType::line_of_sight) {
      put(e.cell, e.g != 0 ? kSightClear : kSightBlocked);
      put(e.other, kSecondCell);
    } else {
      put(e.cell, static_cast<int>(e.type));
    }
  }
  return out;
}

nlohmann::json reach(Cell from, double budget, Status status,
                     const std::vector<search::ReachCell>& cells, const grid::Grid* g) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& rc : cells) {
    nlohmann::json e = cell(rc.cell, g);
    e.push_back(rc.cost);
    list.push_back(std::move(e));
  }
  return {{"from", cell(from, g)},
          {"budget", budget},
          {"status", status == Status::node_limit ? "node_limit" : "found"},
          {"cells", std::move(list)}};
}

nlohmann::json prepared(search::Algorithm algorithm, std::string_view status,
                        const std::string& file, const search::PrepareInfo& info) {
  return {{"algorithm", std::string(search::to_string(algorithm))},
          {"status", std::string(status)},
          {"file", file},
          {"prep_s", info.seconds},
          {"bytes", info.bytes}};
}

}  // namespace pathlab::json
