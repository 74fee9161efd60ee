// The map session routes (/api/mapsession...): edits go through Grid::apply, and the session's
// finder repairs its caches (search::prepare) before it answers.
#include "map_sessions.hpp"

#include <chrono>
#include <string>
#include <vector>

#include <pathlab/search/prepare.hpp>

namespace pathlab::api::detail {

using nlohmann::json;

namespace {

/// One edit of a request: {"kind": "wall"|"free"|"class"|"terrain"|"edge_wall"|"edge_open",
/// "area": [x0,y0,x1,y1] (or "cell": [x,y], [x,y,layer] on a layered map), "class": "T",
/// "cost": 2, "side": "n"|"e"|"s"|"w" (on hex maps "0" .. "5")}. An area's rows are the grid's,
/// a layered map's floors stacked (json::loaded_map).
grid::Edit edit_from_json(const json& e, const grid::Grid& g) {
  if (!e.is_object()) throw ApiError{400, "an edit must be an object"};
  grid::Edit out;
  const std::string kind = e.value("kind", std::string());
  if (kind == "wall") {
    out.kind = grid::Edit::Kind::wall;
  } else if (kind == "free") {
    out.kind = grid::Edit::Kind::free;
  } else if (kind == "class") {
    out.kind = grid::Edit::Kind::set_class;
    const json& k = e.contains("class") ? e["class"] : json();
    if (!k.is_string() || k.get_ref<const std::string&>().size() != 1) {
      throw ApiError{400, "a class edit needs \"class\": one character"};
    }
    out.cls = k.get_ref<const std::string&>()[0];
  } else if (kind == "terrain") {
    out.kind = grid::Edit::Kind::terrain;
    if (!e.contains("cost") || !e["cost"].is_number()) {
      throw ApiError{400, "a terrain edit needs a number \"cost\""};
    }
    out.cost = e["cost"].get<float>();
  } else if (kind == "edge_wall" || kind == "edge_open") {
    // A wall on a cell edge, put up or taken down: the side as edge_walls of a map names it.
    out.kind = kind == "edge_wall" ? grid::Edit::Kind::edge_wall : grid::Edit::Kind::edge_open;
    const json& sd = e.contains("side") ? e["side"] : json();
    const std::string side = sd.is_string() ? sd.get<std::string>() : std::string();
    const bool hex = grid::is_hex(g.layout());
    const std::optional<int> d = side.size() == 1 ? grid::parse_edge_side(side, hex) : std::nullopt;
    if (d && hex) {
      out.hex_side = static_cast<std::uint8_t>(*d);
    } else if (d) {
      out.side = static_cast<grid::Side>(*d);
    } else {
      throw ApiError{422, hex ? "an edge edit of a hex map needs \"side\": \"0\" .. \"5\""
                              : "an edge edit needs \"side\": \"n\", \"e\", \"s\" or \"w\""};
    }
  } else {
    throw ApiError{
        422, "unknown edit kind '" + kind + "' (wall, free, class, terrain, edge_wall, edge_open)"};
  }
  auto ints = [](const json& a, std::size_t n) {
    if (!a.is_array() || a.size() != n) return false;
    for (const json& v : a) {
      if (!v.is_number_integer()) return false;
    }
    return true;
  };
  if (e.contains("cell")) {
    const Cell c = map_cell_from_json(e["cell"], "\"cell\"", g);
    out.area = {c.x, c.y, c.x, c.y};
  } else {
    if (!e.contains("area") || !ints(e["area"], 4)) {
      throw ApiError{400, "an edit needs \"area\": [x0, y0, x1, y1] or \"cell\": [x, y]"};
    }
    out.area = {e["area"][0].get<int>(), e["area"][1].get<int>(), e["area"][2].get<int>(),
                e["area"][3].get<int>()};
  }
  return out;
}

}  // namespace

void add_map_session_routes(Router& router, MapSessions& sessions, const Limits& c) {
  router.add("POST", "/api/mapsession", [&c, &sessions](const Request& req, const Captures&) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    grid::Grid g = grid_from_json(r["map"], c);
    const int w = g.width(), h = g.height();
    return dump(json{{"id", sessions.create(std::move(g))}, {"width", w}, {"height", h}});
  });
  // {"edits": [edit, ...]}: all checked first, then applied (all or none).
  router.add(
      "POST", "/api/mapsession/:id/edit", [&sessions](const Request& req, const Captures& m) {
        const json r = body_object(req);
        const auto s = sessions.get(m[0]);
        if (!r.contains("edits") || !r["edits"].is_array() || r["edits"].size() > 100000) {
          throw ApiError{400, "\"edits\" must be an array of at most 100000 edits"};
        }
        const std::lock_guard lock(s->mutex);
        std::vector<grid::Edit> edits;
        for (const json& e : r["edits"]) edits.push_back(edit_from_json(e, s->grid));
        for (const grid::Edit& e : edits) {
          if (auto bad = s->grid.check(e)) throw ApiError{422, *bad};
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (const grid::Edit& e : edits) (void)s->grid.apply(e);
        s->edit_us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count();
        s->edits = edits.size();
        return dump(json{
            {"edits", edits.size()}, {"edit_us", s->edit_us}, {"revision", s->grid.revision()}});
      });
  // The answer of /api/solve (without "map"), plus the last edits' time and the repair's: the
  // finder brings its caches up to date (search::prepare) before the query, timed apart.
  router.add("POST", "/api/mapsession/:id/solve",
             [&c, &sessions](const Request& req, const Captures& m) {
               const json r = body_object(req);
               const auto s = sessions.get(m[0]);
               const search::Options o = options_from_json(r, c);
               const std::lock_guard lock(s->mutex);
               search::Pathfinder& f = *s->finder;
               f.set_options(o);
               const auto t0 = std::chrono::steady_clock::now();
               (void)f.searched_grid();  // the unit's view: repaired by the edits themselves
               (void)search::prepare(f);
               const double repair_us =
                   std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                       .count();
               json out = solve_answer(s->grid, f, r);
               out["repair_us"] = repair_us;
               out["edit_us"] = s->edit_us;
               out["edits"] = s->edits;
               return dump(out);
             });
  router.add("POST", "/api/mapsession/:id/reach",
             [&c, &sessions](const Request& req, const Captures& m) {
               const json r = body_object(req);
               const auto s = sessions.get(m[0]);
               const std::lock_guard lock(s->mutex);
               s->finder->set_options(options_from_json(r, c));
               return dump(reach_answer(s->grid, *s->finder, r));
             });
  router.add("DELETE", "/api/mapsession/:id", [&sessions](const Request&, const Captures& m) {
    sessions.erase(m[0]);
    return dump(json{{"deleted", true}});
  });
}

}  // namespace pathlab::api::detail
