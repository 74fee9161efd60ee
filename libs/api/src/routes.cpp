// The stateless routes (see internal.hpp): the algorithm list, the catalog's maps, uploads,
// searches, flow fields and movement ranges, and the request readers the session routes share.
// Routes are thin: they validate, call the library and shape JSON with pathlab::json. The trace
// travels as one flat integer array (pathlab::json::compact_trace).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <pathlab/core/error.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/json/flow.hpp>
#include <pathlab/json/grid.hpp>
#include <pathlab/json/search.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "internal.hpp"

namespace pathlab::api::detail {

using nlohmann::json;

namespace {

/// The request's "smooth"/"smoothing" fields: std::nullopt when smoothing is not asked for.
std::optional<post::Smoothing> smoothing_from_json(const json& r) {
  if (!r.contains("smooth") || r["smooth"].is_null()) return std::nullopt;
  if (!r["smooth"].is_boolean()) throw ApiError{400, "\"smooth\" must be true or false"};
  if (!r["smooth"].get<bool>()) return std::nullopt;
  const std::string name = r.value("smoothing", std::string("refined"));
  const auto s = post::parse_smoothing(name);
  if (!s) throw ApiError{422, "unknown smoothing '" + name + "' (use greedy or refined)"};
  return s;
}

}  // namespace

namespace {

/// The map kind of a request's "map" object: its "layout" (square unless given) and, for a
/// layered map, "layers" and "layer_height" (the floors stacked as json::loaded_map says).
struct Shape {
  grid::Layout layout = grid::Layout::square;
  int layers = 1;
  int layer_height = 0;
};

/// The Shape of map object `m` whose "height" is h: checks that its floors stack to h rows.
Shape shape_from_json(const json& m, std::int64_t h) {
  Shape s;
  if (m.contains("layout") && !m["layout"].is_null()) {
    if (!m["layout"].is_string()) throw ApiError{400, "\"layout\" must be a string"};
    const auto l = grid::parse_layout(m["layout"].get_ref<const std::string&>());
    if (!l) {
      throw ApiError{422, "unknown layout '" + m["layout"].get<std::string>() +
                              "' (square, pointy-odd-r, pointy-even-r, flat-odd-q, flat-even-q)"};
    }
    s.layout = *l;
  }
  if (m.contains("layers") && !m["layers"].is_null()) {
    if (!m["layers"].is_number_integer() || !m.contains("layer_height") ||
        !m["layer_height"].is_number_integer()) {
      throw ApiError{400, "a layered map needs integer \"layers\" and \"layer_height\""};
    }
    const std::int64_t layers = m["layers"], lh = m["layer_height"];
    if (layers < 1 || layers > 1024 || lh < 1 || lh > h) {
      throw ApiError{422,
                     "\"layers\" must be from 1 to 1024 and \"layer_height\" from 1 to "
                     "\"height\""};
    }
    if (layers > 1) {
      // Floors are stacked with one or two rows of wall between them: Grid::layer_pitch, asked
      // of a one-column grid of two such floors.
      const std::int64_t pitch = grid::Grid::layered(1, static_cast<int>(lh), 2).layer_pitch();
      if ((layers - 1) * pitch + lh != h) {
        throw ApiError{422, std::to_string(layers) + " layers of " + std::to_string(lh) +
                                " rows stack to " + std::to_string((layers - 1) * pitch + lh) +
                                " rows, not \"height\" " + std::to_string(h)};
      }
      s.layers = static_cast<int>(layers);
      s.layer_height = static_cast<int>(lh);
    }
  }
  return s;
}

}  // namespace

/// A cell of the map as a request names it, unchecked for walls: [x, y], or [x, y, layer] (y
/// within the floor; [x, y] is floor 0).
Cell map_cell_from_json(const json& j, const std::string& what, const grid::Grid& g) {
  const bool ints =
      j.is_array() && (j.size() == 2 || j.size() == 3) &&
      std::all_of(j.begin(), j.end(), [](const json& v) { return v.is_number_integer(); });
  if (!ints) {
    throw ApiError{400,
                   "\"" + what + "\" must be [x, y]" + (g.layers() > 1 ? " or [x, y, layer]" : "")};
  }
  const std::int64_t x = j[0].get<std::int64_t>(), y = j[1].get<std::int64_t>();
  const std::int64_t layer = j.size() == 3 ? j[2].get<std::int64_t>() : 0;
  if (layer < 0 || layer >= g.layers()) {
    throw ApiError{422,
                   what + " is on floor " + std::to_string(layer) + ", the map has " +
                       std::to_string(g.layers()) +
                       (g.layers() == 1 ? " floor (0)"
                                        : " floors (0 to " + std::to_string(g.layers() - 1) + ")")};
  }
  const std::int64_t rows = g.layers() > 1 ? g.layer_height() : g.height();
  if (x < 0 || y < 0 || x >= g.width() || y >= rows) {
    throw ApiError{422, what + " is outside the map"};
  }
  return g.at(static_cast<int>(layer), static_cast<int>(x), static_cast<int>(y));
}

namespace {

/// "edge_walls": [[x, y, side], …] ([x, y, layer, side] on layered maps), side "n", "e", "s", "w"
/// on square maps, the direction code "0" .. "5" on hex maps.
void edge_walls_from_json(const json& e, grid::Grid& g) {
  if (!e.is_array()) throw ApiError{400, "\"edge_walls\" must be an array"};
  for (const json& w : e) {
    if (!w.is_array() || w.size() < 3 || w.size() > 4 || !w.back().is_string()) {
      throw ApiError{400, "an edge wall must be [x, y, side] or [x, y, layer, side]"};
    }
    const std::string& side = w.back().get_ref<const std::string&>();
    const bool hex = grid::is_hex(g.layout());
    const std::optional<int> d = side.size() == 1 ? grid::parse_edge_side(side, hex) : std::nullopt;
    if (!d) {
      throw ApiError{422, hex ? "an edge wall of a hex map names its direction \"0\" .. \"5\""
                              : "an edge wall's side must be \"n\", \"e\", \"s\" or \"w\""};
    }
    const Cell c = map_cell_from_json(json(w.begin(), w.end() - 1), "an edge wall", g);
    if (hex) {
      g.set_hex_edge_wall(c.x, c.y, *d, true);
    } else {
      g.set_edge_wall(c.x, c.y, static_cast<grid::Side>(*d), true);
    }
  }
}

/// "links": [{"from": cell, "to": cell, "cost": 1, "oneway": false}, …].
void links_from_json(const json& ls, grid::Grid& g) {
  if (!ls.is_array() || ls.size() > 100000) {
    throw ApiError{400, "\"links\" must be an array of at most 100000 links"};
  }
  for (const json& l : ls) {
    if (!l.is_object() || !l.contains("from") || !l.contains("to")) {
      throw ApiError{400, "a link must be {\"from\": cell, \"to\": cell[, \"cost\", \"oneway\"]}"};
    }
    grid::Link link;
    link.from = map_cell_from_json(l["from"], "a link's \"from\"", g);
    link.to = map_cell_from_json(l["to"], "a link's \"to\"", g);
    if (l.contains("cost") && !l["cost"].is_null()) {
      if (!l["cost"].is_number()) throw ApiError{400, "a link's \"cost\" must be a number"};
      link.cost = l["cost"].get<float>();
    }
    if (l.contains("oneway") && !l["oneway"].is_null()) {
      if (!l["oneway"].is_boolean()) throw ApiError{400, "a link's \"oneway\" must be a boolean"};
      link.oneway = l["oneway"].get<bool>();
    }
    if (auto bad = g.add_link(link)) throw ApiError{422, "link: " + *bad};
  }
}

}  // namespace

/// The grid of a request's "map" object: {"width","height","walls":"0101…"[,"terrain":[…]]
/// [,"classes"][,"layout"][,"layers","layer_height"][,"edge_walls"][,"links"]}, as
/// json::loaded_map writes it.
grid::Grid grid_from_json(const json& m, const Limits& c) {
  if (!m.is_object()) throw ApiError{400, "\"map\" must be an object"};
  if (!m.contains("width") || !m.contains("height") || !m["width"].is_number_integer() ||
      !m["height"].is_number_integer()) {
    throw ApiError{400, "map needs integer \"width\" and \"height\""};
  }
  const std::int64_t w = m["width"], h = m["height"];
  if (w < 1 || h < 1) throw ApiError{422, "map width and height must be at least 1"};
  if (w * h > c.max_cells) {
    throw ApiError{413, "map of " + std::to_string(w) + "x" + std::to_string(h) +
                            " cells exceeds the server's limit of " + std::to_string(c.max_cells)};
  }
  if (!m.contains("walls") || !m["walls"].is_string())
    throw ApiError{400, "map needs a \"walls\" string"};
  const std::string& walls = m["walls"].get_ref<const std::string&>();
  if (static_cast<std::int64_t>(walls.size()) != w * h) {
    throw ApiError{422, "\"walls\" has " + std::to_string(walls.size()) + " characters, expected " +
                            std::to_string(w * h)};
  }
  const Shape shape = shape_from_json(m, h);
  grid::Grid g = shape.layers > 1
                     ? grid::Grid::layered(static_cast<int>(w), shape.layer_height, shape.layers)
                     : grid::Grid(static_cast<int>(w), static_cast<int>(h));
  // The rows between floors are walls whatever the request says.
  const auto between = [&](std::size_t i) { return g.between_layers(static_cast<int>(i / w)); };
  for (std::size_t i = 0; i < walls.size(); ++i) {
    if (walls[i] != '0' && walls[i] != '1')
      throw ApiError{422, "\"walls\" may hold only '0' and '1'"};
    if (walls[i] == '1' && !between(i))
      g.set_blocked(static_cast<int>(i % w), static_cast<int>(i / w), true);
  }
  if (m.contains("terrain") && !m["terrain"].is_null()) {
    const json& t = m["terrain"];
    if (!t.is_array() || static_cast<std::int64_t>(t.size()) != w * h) {
      throw ApiError{422, "\"terrain\" must be an array of width*height numbers"};
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (!t[i].is_number() || !(t[i].get<double>() >= 1.0) || t[i].get<double>() > 1e6) {
        throw ApiError{422, "terrain costs must be numbers from 1 to 1e6"};
      }
      if (!between(i))
        g.set_terrain(static_cast<int>(i % w), static_cast<int>(i / w), t[i].get<float>());
    }
  }
  // Terrain classes, one character a cell ('.' ground, 'S', 'T', 'W', ...); walls stay walls.
  if (m.contains("classes") && !m["classes"].is_null()) {
    if (!m["classes"].is_string()) throw ApiError{400, "\"classes\" must be a string"};
    const std::string& cls = m["classes"].get_ref<const std::string&>();
    if (static_cast<std::int64_t>(cls.size()) != w * h) {
      throw ApiError{422, "\"classes\" has " + std::to_string(cls.size()) +
                              " characters, expected " + std::to_string(w * h)};
    }
    for (std::size_t i = 0; i < cls.size(); ++i) {
      const char k = grid::canonical_class(cls[i]);
      if (!grid::valid_class(k)) throw ApiError{422, "\"classes\" holds a non-printable character"};
      // A terrain class names the cell whatever its wall bit (the bit of 'T' and 'W' is the
      // default unit's); ground keeps the bit of "walls".
      if (k == grid::kGroundClass || between(i)) continue;
      g.set_class(static_cast<int>(i % w), static_cast<int>(i / w), k);
    }
  }
  if (shape.layout != grid::Layout::square) g.set_layout(shape.layout);
  if (m.contains("edge_walls") && !m["edge_walls"].is_null())
    edge_walls_from_json(m["edge_walls"], g);
  if (m.contains("links") && !m["links"].is_null()) links_from_json(m["links"], g);
  return g;
}

/// A cell [x, y] (or [x, y, layer]) the unit may stand on (`view`: the grid as the unit sees it).
Cell cell_from_json(const json& j, const char* what, const grid::Grid& g, const grid::Unit& unit,
                    const grid::Grid& view) {
  const Cell c = map_cell_from_json(j, what, g);
  const char cls = g.cell_class(c.x, c.y);
  if (cls == grid::kWallClass) throw ApiError{422, std::string(what) + " is on a wall"};
  if (unit.forbids(cls)) {
    throw ApiError{422, std::string(what) + " is on '" + cls + "', a class the unit may not enter"};
  }
  if (!view.passable(c)) {
    throw ApiError{422, std::string(what) +
                            " is closer than the unit's radius to a square it "
                            "cannot enter"};
  }
  return c;
}

search::Options options_from_json(const json& r, const Limits& c) {
  search::Options o;
  const std::string algo = r.value("algorithm", std::string("astar"));
  const auto a = search::parse_algorithm(algo);
  if (!a) throw ApiError{422, "unknown algorithm '" + algo + "'"};
  o.algorithm = *a;
  if (r.contains("heuristic") && !r["heuristic"].is_null()) {
    const std::string h = r["heuristic"].get<std::string>();
    o.heuristic = search::parse_heuristic(h);
    if (!o.heuristic) throw ApiError{422, "unknown heuristic '" + h + "'"};
  }
  if (r.contains("weight") && !r["weight"].is_null()) o.weight = r["weight"].get<double>();
  const std::string rule = r.value("diagonal", std::string("no-corner-cut"));
  const auto dr = grid::parse_diagonal_rule(rule);
  if (!dr) throw ApiError{422, "unknown diagonal rule '" + rule + "'"};
  const std::string model = r.value("cost_model", std::string("octile"));
  const auto cm = grid::parse_cost_model(model);
  if (!cm) throw ApiError{422, "unknown cost model '" + model + "'"};
  o.moves = {*dr, *cm};
  o.node_limit = std::min<std::uint64_t>(r.value("node_limit", c.max_nodes), c.max_nodes);
  // The unit: "radius" (cells) and "class_cost" ("T=2,W=x", as the CLI's --class-cost).
  if (r.contains("radius") && !r["radius"].is_null()) {
    if (!r["radius"].is_number()) throw ApiError{400, "\"radius\" must be a number"};
    o.unit.radius = r["radius"].get<double>();
  }
  if (r.contains("class_cost") && !r["class_cost"].is_null() && r["class_cost"] != "") {
    if (!r["class_cost"].is_string()) throw ApiError{400, "\"class_cost\" must be a string"};
    if (auto bad = grid::parse_class_costs(r["class_cost"].get<std::string>(), o.unit)) {
      throw ApiError{422, "class_cost: " + *bad};
    }
  }
  if (r.contains("partial") && !r["partial"].is_null()) {
    if (!r["partial"].is_boolean()) throw ApiError{400, "\"partial\" must be true or false"};
    o.partial = r["partial"].get<bool>();
  }
  if (auto problem = search::validate(o)) throw ApiError{422, *problem};
  return o;
}

namespace {

/// Whether a request's endpoint is a point in map units rather than a cell: [x, y], two
/// numbers, at least one written with a fraction or an exponent (10.3, 10.0, 1e1). [10, 4] is
/// cell (10, 4).
bool is_point_json(const json& j) {
  return j.is_array() && j.size() == 2 && j[0].is_number() && j[1].is_number() &&
         (j[0].is_number_float() || j[1].is_number_float());
}

/// An endpoint of a query between points: a point [x, y] in map units, or a cell [x, y]
/// (integers: checked as cell_from_json checks it) standing for its centre. 422 for a point
/// outside free space as the unit sees it (search::point_cell).
Point point_from_json(const json& j, const char* what, const grid::Grid& g, const grid::Unit& unit,
                      const grid::Grid& view) {
  if (!is_point_json(j)) return centre(cell_from_json(j, what, g, unit, view));
  const Point p{j[0].get<double>(), j[1].get<double>()};
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
    throw ApiError{422, std::string(what) + " must be two finite numbers"};
  }
  if (!search::point_cell(view, p)) {
    throw ApiError{422, std::string(what) + " " + j.dump() +
                            " is not in free space: outside the map, inside a wall or on an edge "
                            "between two walls" +
                            (g.sees_alike(unit) ? "" : ", as the unit sees the map")};
  }
  return p;
}

/// Where the unit may go, for the page to shade: "unit_blocked", its blocked cells row-major,
/// when the unit does not see the map as the default unit does.
void add_unit_blocked(json& out, const grid::Grid& g, const grid::Unit& unit,
                      const grid::Grid& view) {
  if (g.sees_alike(unit)) return;
  std::string blocked;
  blocked.reserve(static_cast<std::size_t>(g.cells()));
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) blocked += view.passable(x, y) ? '0' : '1';
  }
  out["unit_blocked"] = std::move(blocked);
}

/// The answer of /api/solve between points in map units (a fractional "start" or "goal"): the
/// search::Pathfinder::find_points query, in search_result's shape with the cells under the
/// points as "start" and "goal", and the points asked for as "start_point" and "goal_point".
json points_answer(const grid::Grid& g, search::Pathfinder& finder, const json& r,
                   const grid::Grid& view) {
  const search::Options& o = finder.options();
  if (r.contains("goals") && !r["goals"].is_null()) {
    throw ApiError{422, "a query between points takes one \"goal\", not \"goals\""};
  }
  if (!g.plain()) {
    throw ApiError{422,
                   "points in map units (a fractional \"start\" or \"goal\") take a plain square "
                   "map: not a hex layout, walls on cell edges, floors or links"};
  }
  if (o.partial) {
    throw ApiError{422, "\"partial\" takes cells: a query between points has no partial path"};
  }
  if (smoothing_from_json(r)) {
    throw ApiError{422, "\"smooth\" takes cells: a path between points is already taut"};
  }
  const Point start = point_from_json(r.value("start", json()), "start", g, o.unit, view);
  const Point goal = point_from_json(r.value("goal", json()), "goal", g, o.unit, view);
  if (!search::answers_points(o.algorithm) &&
      !(search::centre_cell(start) && search::centre_cell(goal))) {
    std::string takers;
    for (const auto& i : search::algorithms()) {
      if (!search::answers_points(i.algorithm)) continue;
      if (!takers.empty()) takers.append(", ");
      takers.append(i.name);
    }
    throw ApiError{422, std::string(search::to_string(o.algorithm)) +
                            " searches between cell centres ([x + 0.5, y + 0.5]); a point off "
                            "them needs an algorithm that takes any point: " +
                            takers};
  }
  search::Result result;
  search::TraceRecorder rec;
  const bool trace = r.value("trace", false);
  finder.find_points(start, goal, result, trace ? &rec : nullptr);
  if (result.status == Status::invalid_input) {
    throw ApiError{422, "the query between points is invalid for this map and these options"};
  }
  // The cells under the points: the path's ends, or (no path) the cells find_points takes.
  const Cell sc =
      result.path.empty() ? search::point_cell(view, start).value_or(Cell{}) : result.path.front();
  const Cell tc =
      result.path.empty() ? search::point_cell(view, goal).value_or(Cell{}) : result.path.back();
  json out = pathlab::json::search_result(o.algorithm, sc, {tc}, result, &g);
  out["start_point"] = {start.x, start.y};
  out["goal_point"] = {goal.x, goal.y};
  if (trace) out["trace"] = pathlab::json::compact_trace(rec.events(), g.width());
  add_unit_blocked(out, g, o.unit, view);
  return out;
}

}  // namespace

/// The answer of /api/solve for request r on grid g, by `finder` (its options set from r).
json solve_answer(const grid::Grid& g, search::Pathfinder& finder, const json& r) {
  const search::Options& o = finder.options();
  const auto view = g.view(o.unit);  // the map as the unit sees it
  // Points in map units: a "start" or "goal" with a fractional number.
  if (is_point_json(r.value("start", json())) || is_point_json(r.value("goal", json()))) {
    return points_answer(g, finder, r, *view);
  }
  if (r.contains("goals") && r["goals"].is_array() &&
      std::any_of(r["goals"].begin(), r["goals"].end(), is_point_json)) {
    throw ApiError{422, "a query between points takes one \"goal\", not \"goals\""};
  }
  const Cell start = cell_from_json(r.value("start", json()), "start", g, o.unit, *view);
  // "goal", or "goals": [[x, y], ...] for the nearest of several.
  std::vector<Cell> goals;
  if (r.contains("goals") && !r["goals"].is_null()) {
    if (!r["goals"].is_array() || r["goals"].empty() || r["goals"].size() > 1024) {
      throw ApiError{400, "\"goals\" must be an array of 1 to 1024 [x, y]"};
    }
    for (const json& c : r["goals"]) goals.push_back(cell_from_json(c, "goal", g, o.unit, *view));
  } else {
    goals.push_back(cell_from_json(r.value("goal", json()), "goal", g, o.unit, *view));
  }
  const auto smoothing = smoothing_from_json(r);
  search::Result result;
  search::TraceRecorder rec;
  const bool trace = r.value("trace", false);
  finder.find_nearest(start, goals, result, trace ? &rec : nullptr);
  json out = pathlab::json::search_result(o.algorithm, start, goals, result, &g);
  // The same fields as solve --smooth.
  if (smoothing && result.status == Status::found) {
    pathlab::json::add_smoothing(out, post::smooth_result(*view, o, result, *smoothing), *smoothing,
                                 &g);
  }
  if (trace) out["trace"] = pathlab::json::compact_trace(rec.events(), g.width());
  pathlab::json::add_partial(out, o, result, &g);
  add_unit_blocked(out, g, o.unit, *view);
  return out;
}

/// The answer of /api/reach for request r on grid g, by `finder` (its options set from r).
json reach_answer(const grid::Grid& g, search::Pathfinder& finder, const json& r) {
  const search::Options& o = finder.options();
  const auto view = g.view(o.unit);
  const Cell start = cell_from_json(r.value("start", json()), "start", g, o.unit, *view);
  if (!r.contains("budget") || !r["budget"].is_number()) {
    throw ApiError{400, "\"budget\" must be a number"};
  }
  const double budget = r["budget"].get<double>();
  if (!(budget >= 0) || budget > 1e9) throw ApiError{422, "the budget must be from 0 to 1e9"};
  std::vector<search::ReachCell> cells;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = finder.reach(start, budget, cells);
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  if (st == Status::invalid_input) throw ApiError{422, "the movement range cannot be computed"};
  json out = pathlab::json::reach(start, budget, st, cells, &g);
  out["time_us"] = us;
  return out;
}

namespace {

/// The image options of a request's query: ?cell=N pixels per cell, ?threshold=T.
void image_options(const Request& req, io::MapOptions& o) {
  if (const auto cell = req.param("cell"))
    o.cell = std::clamp(std::atoi(std::string(*cell).c_str()), 1, 4096);
  if (const auto t = req.param("threshold")) {
    o.threshold = std::clamp(std::atoi(std::string(*t).c_str()), 0, 255);
  }
}

}  // namespace

void add_core_routes(Router& router, const Catalog& catalog, const Limits& c) {
  router.add("GET", "/api/algorithms", [](const Request&, const Captures&) {
    json list = pathlab::json::algorithm_list();
    list["diagonal"] = {"never", "no-corner-cut", "one-corner", "always"};
    // The algorithms that answer /api/solve between any points (search::answers_points).
    json points = json::array();
    for (const auto& i : search::algorithms()) {
      if (search::answers_points(i.algorithm)) points.push_back(std::string(i.name));
    }
    list["points"] = std::move(points);
    return dump(list);
  });
  router.add("GET", "/api/maps", [&catalog](const Request&, const Captures&) {
    return dump(json{{"maps", catalog.maps()}});
  });
  router.add("GET", "/api/maps/:name", [&catalog, &c](const Request& req, const Captures& m) {
    const std::string& name = m[0];
    io::MapOptions o;
    image_options(req, o);
    const std::optional<io::Map> map = catalog.map(name, o);
    if (!map) throw ApiError{404, "no map named '" + name + "'"};
    if (map->grid.cells() > c.max_cells) throw ApiError{413, "map too large for this server"};
    return dump(pathlab::json::loaded_map(*map, name));
  });
  router.add("POST", "/api/parse", [&c](const Request& req, const Captures&) {
    io::MapOptions o;
    const std::string name = std::string(req.param("name").value_or("upload"));
    if (const auto format = req.param("format")) {
      const auto f = io::parse_map_format(*format);
      if (!f) throw ApiError{422, "unknown map format"};
      o.format = *f;
    }
    image_options(req, o);
    const io::Map m = io::parse_map(req.body, name, o);
    if (m.grid.cells() > c.max_cells) throw ApiError{413, "map too large for this server"};
    return dump(pathlab::json::loaded_map(m, name));
  });
  // A search: {"map","start","goal" (or "goals")[,"algorithm",…]} -> json::search_result. A
  // "start" or "goal" with a fractional number ([10.3, 4.7]) is a point in map units: the
  // query between points (Pathfinder::find_points).
  router.add("POST", "/api/solve", [&c](const Request& req, const Captures&) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    const grid::Grid g = grid_from_json(r["map"], c);
    const search::Options o = options_from_json(r, c);
    search::Pathfinder finder(g, o);
    return dump(solve_answer(g, finder, r));
  });
  // Flow field: {"map","goals":[[x,y],...] (or "goal")[,"radius","class_cost","diagonal",
  // "cost_model","sight"]} -> flow_json.
  router.add("POST", "/api/flow", [&c](const Request& req, const Captures&) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    const grid::Grid g = grid_from_json(r["map"], c);
    const search::Options so = options_from_json(r, c);
    const auto view = g.view(so.unit);
    std::vector<Cell> goals;
    if (r.contains("goals") && !r["goals"].is_null()) {
      if (!r["goals"].is_array() || r["goals"].empty() || r["goals"].size() > 1024) {
        throw ApiError{400, "\"goals\" must be an array of 1 to 1024 [x, y]"};
      }
      for (const json& j : r["goals"])
        goals.push_back(cell_from_json(j, "goal", g, so.unit, *view));
    } else {
      goals.push_back(cell_from_json(r.value("goal", json()), "goal", g, so.unit, *view));
    }
    flow::Options o;
    o.moves = so.moves;
    o.unit = so.unit;
    if (r.contains("sight")) {
      if (!r["sight"].is_number()) throw ApiError{400, "\"sight\" must be a number"};
      o.sight_range = r["sight"].get<double>();
    }
    // "units": [[x, y], ...]: a sectored field, built only on the way from them.
    if (r.contains("units") && !r["units"].is_null()) {
      if (!r["units"].is_array() || r["units"].size() > 100000) {
        throw ApiError{400, "\"units\" must be an array of at most 100000 [x, y]"};
      }
      std::vector<Cell> units;
      for (const json& j : r["units"])
        units.push_back(cell_from_json(j, "unit", g, so.unit, *view));
      int sector = flow::SectorField::kDefaultSector;
      if (r.contains("sector")) {
        if (!r["sector"].is_number_integer()) throw ApiError{400, "\"sector\" must be an integer"};
        sector = r["sector"].get<int>();
      }
      flow::SectorField f;
      if (auto bad = f.build(g, goals, o, sector)) throw ApiError{422, *bad};
      f.require(units);
      json out = pathlab::json::flow_field(f, &g);
      return dump(out);
    }
    flow::Field f;
    if (auto bad = f.build(g, goals, o)) throw ApiError{422, *bad};
    json out = pathlab::json::flow_field(f);
    out["goals"] = pathlab::json::cells(f.goals(), &g);
    return dump(out);
  });
  // Movement range: {"map","start","budget"[,"radius","class_cost","diagonal","cost_model"]}
  // -> {"cells":[[x,y,cost],...] (row-major), "status", "time_us"}.
  router.add("POST", "/api/reach", [&c](const Request& req, const Captures&) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    const grid::Grid g = grid_from_json(r["map"], c);
    search::Pathfinder finder(g, options_from_json(r, c));
    return dump(reach_answer(g, finder, r));
  });
}

}  // namespace pathlab::api::detail
