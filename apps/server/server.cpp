// The JSON API of `pathlab serve` (see server.hpp). Handlers are thin: they validate, call the
// library, and shape JSON with pathlab::json. The trace travels as one flat integer array
// (pathlab::json::compact_trace).
#include "server.hpp"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include <pathlab/core/error.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/json/flow.hpp>
#include <pathlab/json/grid.hpp>
#include <pathlab/json/search.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "http.hpp"
#include "link_api.hpp"
#include "simulation.hpp"

namespace pathlab::server {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::atomic<httplib::Server*> g_server{nullptr};

/// The grid of a request's "map" object: {"width","height","walls":"0101…"[,"terrain":[…]]}.
grid::Grid grid_from_json(const json& m, const Config& c) {
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
  grid::Grid g(static_cast<int>(w), static_cast<int>(h));
  for (std::size_t i = 0; i < walls.size(); ++i) {
    if (walls[i] != '0' && walls[i] != '1')
      throw ApiError{422, "\"walls\" may hold only '0' and '1'"};
    if (walls[i] == '1') g.set_blocked(static_cast<int>(i % w), static_cast<int>(i / w), true);
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
      if (k == grid::kGroundClass) continue;
      g.set_class(static_cast<int>(i % w), static_cast<int>(i / w), k);
    }
  }
  return g;
}

/// A cell [x, y] the unit may stand on (`view`: the grid as the unit sees it).
Cell cell_from_json(const json& j, const char* what, const grid::Grid& g, const grid::Unit& unit,
                    const grid::Grid& view) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer()) {
    throw ApiError{400, std::string("\"") + what + "\" must be [x, y]"};
  }
  const Cell c{j[0].get<int>(), j[1].get<int>()};
  if (!g.in_bounds(c)) throw ApiError{422, std::string(what) + " is outside the map"};
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

search::Options options_from_json(const json& r, const Config& c) {
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

std::optional<fs::path> find_map(const Config& c, const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
      name.front() == '.') {
    return std::nullopt;
  }
  for (const auto& dir : c.map_dirs) {
    const fs::path p = fs::path(dir) / name;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
  }
  return std::nullopt;
}

bool is_map_file(const fs::path& p) {
  static const char* exts[] = {".txt", ".map", ".ascii", ".asc", ".png", ".bmp", ".jpg", ".gif"};
  const std::string e = p.extension().string();
  if (p.filename().string().find(".scen") != std::string::npos) return false;
  return std::any_of(std::begin(exts), std::end(exts), [&](const char* x) { return e == x; });
}

/// Simulation sessions: the page's simulation view (simulation.hpp).
void simulation_routes(httplib::Server& svr, Simulations& sims) {
  svr.Get("/api/scenarios", [&sims](const httplib::Request&, httplib::Response& res) {
    reply(res, sims.scenarios());
  });
  svr.Post("/api/sim", [&sims](const httplib::Request& req, httplib::Response& res) {
    reply(res, sims.create(body_object(req)));
  });
  svr.Post(R"(/api/sim/([^/]+)/step)",
           [&sims](const httplib::Request& req, httplib::Response& res) {
             reply(res, sims.step(req.matches[1], body_object(req, true)));
           });
  svr.Post(R"(/api/sim/([^/]+)/obstacle)",
           [&sims](const httplib::Request& req, httplib::Response& res) {
             reply(res, sims.add_obstacle(req.matches[1], body_object(req)));
           });
  svr.Post(R"(/api/sim/([^/]+)/target)",
           [&sims](const httplib::Request& req, httplib::Response& res) {
             reply(res, sims.drive_target(req.matches[1], body_object(req)));
           });
  svr.Post(R"(/api/sim/([^/]+)/goal)",
           [&sims](const httplib::Request& req, httplib::Response& res) {
             reply(res, sims.set_goal(req.matches[1], body_object(req)));
           });
  svr.Get(R"(/api/sim/([^/]+)/field)",
          [&sims](const httplib::Request& req, httplib::Response& res) {
            long index = 0;
            if (req.has_param("agent")) index = std::atol(req.get_param_value("agent").c_str());
            if (index < 0) throw ApiError{422, "no agent at a negative index"};
            reply(res, sims.field(req.matches[1], static_cast<std::size_t>(index)));
          });
  svr.Delete(R"(/api/sim/([^/]+))", [&sims](const httplib::Request& req, httplib::Response& res) {
    sims.erase(req.matches[1]);
    reply(res, {{"deleted", std::string(req.matches[1])}});
  });
}

/// The answer of /api/solve for request r on grid g, by `finder` (its options set from r).
json solve_answer(const grid::Grid& g, search::Pathfinder& finder, const json& r) {
  const search::Options& o = finder.options();
  const auto view = g.view(o.unit);  // the map as the unit sees it
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
  json out = pathlab::json::search_result(o.algorithm, start, goals, result);
  // The same fields as solve --smooth.
  if (smoothing && result.status == Status::found) {
    pathlab::json::add_smoothing(out, post::smooth_result(*view, o, result, *smoothing),
                                 *smoothing);
  }
  if (trace) out["trace"] = pathlab::json::compact_trace(rec.events(), g.width());
  pathlab::json::add_partial(out, o, result);
  if (!g.sees_alike(o.unit)) {
    // Where the unit may go: its blocked cells, row-major, for the page to shade.
    std::string blocked;
    blocked.reserve(static_cast<std::size_t>(g.cells()));
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) blocked += view->passable(x, y) ? '0' : '1';
    }
    out["unit_blocked"] = std::move(blocked);
  }
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
  json out = pathlab::json::reach(start, budget, st, cells);
  out["time_us"] = us;
  return out;
}

/// Editable maps held by the server (the page's live repair): edits go through Grid::apply,
/// and one finder per session is kept across them, so that its caches (unit views, the JPS+
/// table, the subgoal graph) are repaired rather than rebuilt; each answer says how long the
/// edits and the repair took. At most max_sessions; one more evicts the least recently used.
class MapSessions {
 public:
  explicit MapSessions(std::size_t max) : max_(std::max<std::size_t>(1, max)) {}
  struct Session {
    std::mutex mutex;
    grid::Grid grid;
    std::unique_ptr<search::Pathfinder> finder;
    double edit_us = 0;  ///< the last edit request's
    std::size_t edits = 0;
    std::uint64_t used = 0;
  };
  std::string create(grid::Grid g) {
    const std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_) {
      auto oldest = sessions_.begin();
      for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
        if (it->second->used < oldest->second->used) oldest = it;
      }
      sessions_.erase(oldest);
    }
    auto s = std::make_shared<Session>();
    s->grid = std::move(g);
    s->finder = std::make_unique<search::Pathfinder>(s->grid);
    s->used = ++clock_;
    std::string id = std::to_string(++next_id_);
    id.insert(id.begin(), 'm');
    sessions_[id] = std::move(s);
    return id;
  }
  std::shared_ptr<Session> get(const std::string& id) {
    const std::lock_guard lock(mutex_);
    const auto it = sessions_.find(id);
    if (it == sessions_.end()) throw ApiError{404, "no map session " + id};
    it->second->used = ++clock_;
    return it->second;
  }
  void erase(const std::string& id) {
    const std::lock_guard lock(mutex_);
    if (sessions_.erase(id) == 0) throw ApiError{404, "no map session " + id};
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
  std::size_t max_;
  std::uint64_t clock_ = 0, next_id_ = 0;
};

/// One edit of a request: {"kind": "wall"|"free"|"class"|"terrain", "area": [x0,y0,x1,y1]
/// (or "cell": [x,y]), "class": "T", "cost": 2}.
grid::Edit edit_from_json(const json& e) {
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
  } else {
    throw ApiError{422, "unknown edit kind '" + kind + "' (wall, free, class, terrain)"};
  }
  auto ints = [](const json& a, std::size_t n) {
    if (!a.is_array() || a.size() != n) return false;
    for (const json& v : a) {
      if (!v.is_number_integer()) return false;
    }
    return true;
  };
  if (e.contains("cell")) {
    if (!ints(e["cell"], 2)) throw ApiError{400, "\"cell\" must be [x, y]"};
    out.area = {e["cell"][0].get<int>(), e["cell"][1].get<int>(), e["cell"][0].get<int>(),
                e["cell"][1].get<int>()};
  } else {
    if (!e.contains("area") || !ints(e["area"], 4)) {
      throw ApiError{400, "an edit needs \"area\": [x0, y0, x1, y1] or \"cell\": [x, y]"};
    }
    out.area = {e["area"][0].get<int>(), e["area"][1].get<int>(), e["area"][2].get<int>(),
                e["area"][3].get<int>()};
  }
  return out;
}

void map_session_routes(httplib::Server& svr, const Config& c, MapSessions& sessions) {
  svr.Post("/api/mapsession", [&c, &sessions](const httplib::Request& req, httplib::Response& res) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    grid::Grid g = grid_from_json(r["map"], c);
    const int w = g.width(), h = g.height();
    reply(res, {{"id", sessions.create(std::move(g))}, {"width", w}, {"height", h}});
  });
  // {"edits": [edit, ...]}: all checked first, then applied (all or none).
  svr.Post(R"(/api/mapsession/([^/]+)/edit)", [&sessions](const httplib::Request& req,
                                                          httplib::Response& res) {
    const json r = body_object(req);
    const auto s = sessions.get(req.matches[1]);
    if (!r.contains("edits") || !r["edits"].is_array() || r["edits"].size() > 100000) {
      throw ApiError{400, "\"edits\" must be an array of at most 100000 edits"};
    }
    std::vector<grid::Edit> edits;
    for (const json& e : r["edits"]) edits.push_back(edit_from_json(e));
    const std::lock_guard lock(s->mutex);
    for (const grid::Edit& e : edits) {
      if (auto bad = s->grid.check(e)) throw ApiError{422, *bad};
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (const grid::Edit& e : edits) (void)s->grid.apply(e);
    s->edit_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    s->edits = edits.size();
    reply(res,
          {{"edits", edits.size()}, {"edit_us", s->edit_us}, {"revision", s->grid.revision()}});
  });
  // The answer of /api/solve (without "map"), plus the last edits' time and the repair's: the
  // finder brings its caches up to date (search::prepare) before the query, timed apart.
  svr.Post(R"(/api/mapsession/([^/]+)/solve)", [&c, &sessions](const httplib::Request& req,
                                                               httplib::Response& res) {
    const json r = body_object(req);
    const auto s = sessions.get(req.matches[1]);
    const search::Options o = options_from_json(r, c);
    const std::lock_guard lock(s->mutex);
    search::Pathfinder& f = *s->finder;
    f.set_options(o);
    const auto t0 = std::chrono::steady_clock::now();
    (void)f.searched_grid();  // the unit's view: repaired by the edits themselves
    (void)search::prepare(f);
    const double repair_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    json out = solve_answer(s->grid, f, r);
    out["repair_us"] = repair_us;
    out["edit_us"] = s->edit_us;
    out["edits"] = s->edits;
    reply(res, out);
  });
  svr.Post(R"(/api/mapsession/([^/]+)/reach)",
           [&c, &sessions](const httplib::Request& req, httplib::Response& res) {
             const json r = body_object(req);
             const auto s = sessions.get(req.matches[1]);
             const std::lock_guard lock(s->mutex);
             s->finder->set_options(options_from_json(r, c));
             reply(res, reach_answer(s->grid, *s->finder, r));
           });
  svr.Delete(R"(/api/mapsession/([^/]+))",
             [&sessions](const httplib::Request& req, httplib::Response& res) {
               sessions.erase(req.matches[1]);
               reply(res, {{"deleted", true}});
             });
}

void routes(httplib::Server& svr, const Config& c) {
  svr.Get("/api/algorithms", [](const httplib::Request&, httplib::Response& res) {
    json list = pathlab::json::algorithm_list();
    list["diagonal"] = {"never", "no-corner-cut", "one-corner", "always"};
    reply(res, list);
  });
  svr.Get("/api/maps", [&c](const httplib::Request&, httplib::Response& res) {
    std::vector<std::string> names;
    for (const auto& dir : c.map_dirs) {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.is_regular_file() && is_map_file(e.path()))
          names.push_back(e.path().filename().string());
      }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    reply(res, {{"maps", names}});
  });
  svr.Get(R"(/api/maps/([^/]+))", [&c](const httplib::Request& req, httplib::Response& res) {
    const std::string name = req.matches[1];
    const auto p = find_map(c, name);
    if (!p || !is_map_file(*p)) throw ApiError{404, "no map named '" + name + "'"};
    io::MapOptions o;  // images: ?cell=N pixels per cell, ?threshold=T
    if (req.has_param("cell"))
      o.cell = std::clamp(std::atoi(req.get_param_value("cell").c_str()), 1, 4096);
    if (req.has_param("threshold")) {
      o.threshold = std::clamp(std::atoi(req.get_param_value("threshold").c_str()), 0, 255);
    }
    const io::Map m = io::load_map(p->string(), o);
    if (m.grid.cells() > c.max_cells) throw ApiError{413, "map too large for this server"};
    reply(res, pathlab::json::loaded_map(m, name));
  });
  svr.Post("/api/parse", [&c](const httplib::Request& req, httplib::Response& res) {
    io::MapOptions o;
    const std::string name = req.has_param("name") ? req.get_param_value("name") : "upload";
    if (req.has_param("format")) {
      const auto f = io::parse_map_format(req.get_param_value("format"));
      if (!f) throw ApiError{422, "unknown map format"};
      o.format = *f;
    }
    if (req.has_param("cell"))
      o.cell = std::clamp(std::atoi(req.get_param_value("cell").c_str()), 1, 4096);
    if (req.has_param("threshold")) {
      o.threshold = std::clamp(std::atoi(req.get_param_value("threshold").c_str()), 0, 255);
    }
    const io::Map m = io::parse_map(req.body, name, o);
    if (m.grid.cells() > c.max_cells) throw ApiError{413, "map too large for this server"};
    reply(res, pathlab::json::loaded_map(m, name));
  });
  svr.Post("/api/solve", [&c](const httplib::Request& req, httplib::Response& res) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    const grid::Grid g = grid_from_json(r["map"], c);
    const search::Options o = options_from_json(r, c);
    search::Pathfinder finder(g, o);
    reply(res, solve_answer(g, finder, r));
  });
  // Flow field: {"map","goals":[[x,y],...] (or "goal")[,"radius","class_cost","diagonal",
  // "cost_model","sight"]} -> flow_json.
  svr.Post("/api/flow", [&c](const httplib::Request& req, httplib::Response& res) {
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
      reply(res, pathlab::json::flow_field(f));
      return;
    }
    flow::Field f;
    if (auto bad = f.build(g, goals, o)) throw ApiError{422, *bad};
    reply(res, pathlab::json::flow_field(f));
  });
  // Movement range: {"map","start","budget"[,"radius","class_cost","diagonal","cost_model"]}
  // -> {"cells":[[x,y,cost],...] (row-major), "status", "time_us"}.
  svr.Post("/api/reach", [&c](const httplib::Request& req, httplib::Response& res) {
    const json r = body_object(req);
    if (!r.contains("map")) throw ApiError{400, "missing \"map\""};
    const grid::Grid g = grid_from_json(r["map"], c);
    search::Pathfinder finder(g, options_from_json(r, c));
    reply(res, reach_answer(g, finder, r));
  });
}

}  // namespace

bool serve(const Config& c, const std::function<void(const std::string&)>& on_ready,
           const std::function<void(const std::string&)>& log) {
  httplib::Server svr;
  svr.set_payload_max_length(c.max_body_bytes);
  if (!c.web_dir.empty()) svr.set_mount_point("/", c.web_dir);
  svr.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        try {
          std::rethrow_exception(ep);
        } catch (const ApiError& e) {
          reply(res, {{"error", e.message}}, e.status);
        } catch (const ParseError& e) {
          reply(res, {{"error", e.what()}}, 422);
        } catch (const json::exception& e) {
          reply(res, {{"error", std::string("bad JSON value: ") + e.what()}}, 400);
        } catch (const std::exception& e) {
          reply(res, {{"error", e.what()}}, 422);
        } catch (...) {
          reply(res, {{"error", "internal error"}}, 500);
        }
      });
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      const char* what = res.status == 413   ? "request body too large"
                         : res.status == 404 ? "not found"
                                             : "bad request";
      reply(res, {{"error", what}}, res.status);
    }
  });
  svr.set_logger([&log](const httplib::Request& req, const httplib::Response& res) {
    log(req.method + " " + req.path + " " + std::to_string(res.status) + " " +
        std::to_string(res.body.size()) + "B");
  });
  routes(svr, c);
  link_routes(svr, c);
  Simulations sims(c, c.max_sessions);
  simulation_routes(svr, sims);
  MapSessions map_sessions(c.max_sessions);
  map_session_routes(svr, c, map_sessions);
  const int port =
      c.port == 0 ? svr.bind_to_any_port(c.host) : (svr.bind_to_port(c.host, c.port) ? c.port : -1);
  if (port < 0) return false;
  g_server = &svr;
  on_ready("http://" + c.host + ":" + std::to_string(port) + "/");
  const bool ok = svr.listen_after_bind();
  g_server = nullptr;
  return ok;
}

void stop() {
  if (httplib::Server* s = g_server.load()) s->stop();
}

}  // namespace pathlab::server
