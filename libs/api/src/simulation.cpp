// Simulation sessions (see simulation.hpp): scenarios in, World states out as JSON. The
// replan events are not in the library's state: they are the per-tick differences of each
// agent's counters, which the page flashes.
#include "simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/json/agents.hpp>
#include <pathlab/json/flow.hpp>
#include <pathlab/json/grid.hpp>

namespace pathlab::api::detail {

using agents::Vec2;
using nlohmann::json;

namespace {

/// What the page is told about when it changes between two ticks.
struct Counters {
  int stalls = 0, local_replans = 0, global_replans = 0, collisions = 0;
  bool arrived = false;
};

Counters counters_of(const agents::AgentState& a) {
  return {a.metrics.stalls, a.metrics.local_replans, a.metrics.global_replans, a.metrics.collisions,
          a.arrived};
}

constexpr std::size_t kMaxEvents = 2000;  ///< per answer; more are only counted

/// [x, y] of finite numbers, or ApiError 400.
Vec2 vec_from_json(const json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number()) {
    throw ApiError{400, "\"" + what + "\" must be [x, y]"};
  }
  const Vec2 v{j[0].get<double>(), j[1].get<double>()};
  if (!std::isfinite(v.x) || !std::isfinite(v.y))
    throw ApiError{422, "\"" + what + "\" must be finite"};
  return v;
}

agents::Scenario scenario_from_text(const Catalog& catalog, const std::string& text) {
  // The map is checked before the scenario parser reads anything, so the text must be JSON that
  // names one of the catalog's maps (the parser then reports everything else with its line).
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ApiError{400, std::string("scenario_text is not JSON: ") + e.what()};
  }
  if (!j.is_object() || !j.contains("map") || !j["map"].is_string()) {
    throw ApiError{422, "scenario_text needs \"map\": one of the server's maps (GET /api/maps)"};
  }
  const std::string map = j["map"].get<std::string>();
  const std::optional<std::string> named = catalog.text_scenario_path(map);
  if (!named) {
    throw ApiError{
        422, "scenario_text: map '" + map + "' is not one of the server's maps (GET /api/maps)"};
  }
  try {
    return catalog.parse_scenario(text, *named);
  } catch (const ParseError& e) {
    if (e.file() != *named) throw;
    throw ApiError{422, "scenario_text:" + std::to_string(e.line()) + ": " + e.message()};
  }
}

}  // namespace

struct Simulations::Session {
  Session(std::string id_, std::string name_, std::string file_, agents::World w)
      : id(std::move(id_)), name(std::move(name_)), file(std::move(file_)), world(std::move(w)) {
    for (const auto& a : world.agents()) seen.push_back(counters_of(a));
  }

  /// Steps up to n ticks, collecting the events that begin in them; answers the state.
  json step(int n) {
    json events = json::array();
    std::size_t dropped = 0;
    const std::size_t before = world.tick_us().size();
    for (int k = 0; k < n && !world.finished(); ++k) {
      world.step();
      const auto& as = world.agents();
      for (std::size_t i = 0; i < as.size(); ++i) {
        const Counters now = counters_of(as[i]);
        const Counters was = seen[i];
        seen[i] = now;
        const std::pair<const char*, int> changes[] = {
            {"stall", now.stalls - was.stalls},
            {"local_replan", now.local_replans - was.local_replans},
            {"global_replan", now.global_replans - was.global_replans},
            {"collision", now.collisions - was.collisions},
            {"arrived", now.arrived && !was.arrived ? 1 : 0}};
        for (const auto& [kind, count] : changes) {
          if (count <= 0) continue;
          if (events.size() >= kMaxEvents) {
            dropped += static_cast<std::size_t>(count);
            continue;
          }
          events.push_back({{"tick", world.ticks()},
                            {"time", world.time()},
                            {"agent", as[i].spec.id},
                            {"kind", kind},
                            {"count", count},
                            {"position", pathlab::json::vec(as[i].position)}});
        }
      }
    }
    json s = state(before);
    s["events"] = std::move(events);
    if (dropped > 0) s["events_dropped"] = dropped;
    return s;
  }

  /// The world now; tick_us covers the ticks from index `since` on (the last tick if none).
  [[nodiscard]] json state(std::size_t since) const {
    json s = pathlab::json::world_state(world, since);
    s["events"] = json::array();
    return s;
  }

  std::mutex mutex;
  std::string id, name, file;
  agents::World world;
  std::vector<Counters> seen;
  std::size_t added = 0;       ///< obstacles dropped by hand
  std::uint64_t last_use = 0;  ///< guarded by the table's mutex
};

Simulations::Simulations(const Catalog& catalog, const Limits& limits)
    : catalog_(catalog),
      max_cells_(limits.max_cells),
      capacity_(std::max<std::size_t>(1, limits.max_sessions)) {
  std::random_device rd;
  next_id_ = (std::uint64_t{rd()} << 32) ^ rd();
}

Simulations::~Simulations() = default;

json Simulations::scenarios() const {
  json list = json::array();
  for (const std::string& file : catalog_.scenarios()) {
    try {
      const std::optional<agents::Scenario> s = catalog_.scenario(file);
      if (!s) continue;  // gone since it was listed
      const bool chase =
          std::any_of(s->world.agents.begin(), s->world.agents.end(),
                      [](const agents::AgentSpec& a) { return a.target.has_value(); });
      list.push_back({{"file", file},
                      {"name", s->name},
                      {"agents", s->world.agents.size()},
                      {"obstacles", s->world.obstacles.size()},
                      {"width", s->world.grid.width()},
                      {"height", s->world.grid.height()},
                      {"chase", chase}});
    } catch (const std::exception& e) {
      list.push_back({{"file", file}, {"name", file}, {"error", e.what()}});
    }
  }
  return {{"scenarios", list}};
}

json Simulations::create(const json& r) {
  agents::Scenario sc;
  std::string file;
  if (r.contains("scenario") && !r["scenario"].is_null()) {
    if (!r["scenario"].is_string())
      throw ApiError{400, "\"scenario\" must be a file name from /api/scenarios"};
    file = r["scenario"].get<std::string>();
    std::optional<agents::Scenario> found = catalog_.scenario(file);
    if (!found) throw ApiError{404, "no scenario named '" + file + "'"};
    sc = std::move(*found);
  } else if (r.contains("scenario_text") && !r["scenario_text"].is_null()) {
    if (!r["scenario_text"].is_string())
      throw ApiError{400, "\"scenario_text\" must be a string holding a scenario's JSON"};
    sc = scenario_from_text(catalog_, r["scenario_text"].get<std::string>());
  } else {
    throw ApiError{400,
                   "needs \"scenario\" (a file from /api/scenarios) or \"scenario_text\" (JSON)"};
  }
  if (sc.world.grid.cells() > max_cells_)
    throw ApiError{413, "the scenario's map is too large for this server"};
  if (sc.world.agents.size() > kMaxAgents) {
    throw ApiError{413, "a simulation here has at most " + std::to_string(kMaxAgents) + " agents"};
  }
  if (r.contains("planner") && !r["planner"].is_null()) {
    if (!r["planner"].is_string()) throw ApiError{400, "\"planner\" must be a string"};
    const std::string name = r["planner"].get<std::string>();
    const auto p = agents::parse_planner(name);
    if (!p) throw ApiError{422, "unknown planner '" + name + "' (hybrid, apf, replan or dstar)"};
    for (auto& a : sc.world.agents) a.planner = *p;
  }
  agents::World world(std::move(sc.world));  // std::invalid_argument: 422
  std::string id;
  {
    std::lock_guard lock(mutex_);
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx",
                  static_cast<unsigned long long>(next_id_ * 0x9E3779B97F4A7C15ull));
    ++next_id_;
    id = buf;
  }
  auto s = std::make_shared<Session>(id, sc.name, file, std::move(world));
  const agents::WorldSpec& spec = s->world.spec();
  json statics = json::array();
  for (const auto& a : s->world.agents()) statics.push_back(pathlab::json::agent_spec(a.spec));
  json out{{"id", id},          {"name", s->name},
           {"file", file},      {"grid", pathlab::json::walls(spec.grid)},
           {"dt", spec.dt},     {"time_limit", spec.time_limit},
           {"agents", statics}, {"state", s->state(0)}};
  std::lock_guard lock(mutex_);
  while (sessions_.size() >= capacity_) {
    const auto lru = std::min_element(sessions_.begin(), sessions_.end(), [](auto& a, auto& b) {
      return a.second->last_use < b.second->last_use;
    });
    sessions_.erase(lru);
  }
  s->last_use = ++clock_;
  sessions_.emplace(id, std::move(s));
  return out;
}

std::shared_ptr<Simulations::Session> Simulations::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) {
    throw ApiError{404, "no simulation '" + id + "' (it ended or was evicted: start it again)"};
  }
  it->second->last_use = ++clock_;
  return it->second;
}

json Simulations::step(const std::string& id, const json& r) {
  const auto s = find(id);
  const json& n = r.contains("ticks") ? r["ticks"] : json(1);
  if (!n.is_number_integer()) throw ApiError{400, "\"ticks\" must be an integer"};
  const auto ticks = n.get<std::int64_t>();
  if (ticks < 1 || ticks > kMaxTicksPerStep) {
    throw ApiError{422, "\"ticks\" must be from 1 to " + std::to_string(kMaxTicksPerStep)};
  }
  std::lock_guard lock(s->mutex);
  return s->step(static_cast<int>(ticks));
}

json Simulations::add_obstacle(const std::string& id, const json& r) {
  const auto s = find(id);
  const json& k = r.contains("kind") ? r["kind"] : r.value("shape", json("disc"));
  if (!k.is_string()) throw ApiError{400, "\"kind\" must be disc, segment or polygon"};
  const std::string kind = k.get<std::string>();
  agents::Obstacle o;
  if (kind == "disc") {
    o.shape.kind = agents::ShapeKind::disc;
    const json& rad = r.contains("radius") ? r["radius"] : json(0.5);
    if (!rad.is_number()) throw ApiError{400, "\"radius\" must be a number"};
    o.shape.radius = rad.get<double>();
    if (!(o.shape.radius > 0) || o.shape.radius > 16)
      throw ApiError{422, "a disc's radius must be in (0, 16]"};
  } else if (kind == "segment" || kind == "polygon") {
    o.shape.kind = kind == "segment" ? agents::ShapeKind::segment : agents::ShapeKind::polygon;
    if (!r.contains("points") || !r["points"].is_array())
      throw ApiError{400, "a " + kind + " needs \"points\": [[x, y], …] in its own frame"};
    const json& pts = r["points"];
    if (pts.size() > kMaxPoints)
      throw ApiError{422, "at most " + std::to_string(kMaxPoints) + " points"};
    for (const json& p : pts) {
      const Vec2 v = vec_from_json(p, "points");
      if (std::abs(v.x) > 64 || std::abs(v.y) > 64)
        throw ApiError{422, "points must lie within 64 cells of \"at\""};
      o.shape.points.push_back(v);
    }
  } else {
    throw ApiError{422, "unknown obstacle kind '" + kind + "' (disc, segment or polygon)"};
  }
  if (!r.contains("at")) throw ApiError{400, "missing \"at\": [x, y]"};
  o.motion.start = vec_from_json(r["at"], "at");
  if (r.contains("velocity") && !r["velocity"].is_null()) {
    o.motion.velocity = vec_from_json(r["velocity"], "velocity");
    if (agents::norm(o.motion.velocity) > kMaxTargetSpeed)
      throw ApiError{422, "an obstacle's speed must be at most " +
                              std::to_string(static_cast<int>(kMaxTargetSpeed)) + " cells/s"};
  }
  std::lock_guard lock(s->mutex);
  const grid::Grid& g = s->world.spec().grid;
  const Vec2 at = o.motion.start;
  if (at.x < 0 || at.y < 0 || at.x > g.width() || at.y > g.height())
    throw ApiError{422, "\"at\" is outside the map"};
  if (s->added >= kMaxAddedObstacles)
    throw ApiError{422, "this simulation has had enough obstacles dropped into it"};
  int id_max = 0;
  for (const auto& other : s->world.spec().obstacles) id_max = std::max(id_max, other.id);
  o.id = id_max + 1;
  o.appear = s->world.time();
  if (const auto problem = o.validate()) throw ApiError{422, *problem};
  s->world.add_obstacle(std::move(o));
  ++s->added;
  json out = s->state(s->world.tick_us().size());
  out["added"] = id_max + 1;
  return out;
}

json Simulations::drive_target(const std::string& id, const json& r) {
  const auto s = find(id);
  if (!r.contains("velocity")) throw ApiError{400, "missing \"velocity\": [vx, vy]"};
  const Vec2 v = vec_from_json(r["velocity"], "velocity");
  if (agents::norm(v) > kMaxTargetSpeed) {
    throw ApiError{422, "the target's speed must be at most " +
                            std::to_string(static_cast<int>(kMaxTargetSpeed)) + " cells/s"};
  }
  std::lock_guard lock(s->mutex);
  const auto& as = s->world.agents();
  std::optional<std::size_t> index;
  if (r.contains("index") && !r["index"].is_null()) {
    if (!r["index"].is_number_integer()) throw ApiError{400, "\"index\" must be an integer"};
    const auto i = r["index"].get<std::int64_t>();
    if (i < 0 || i >= static_cast<std::int64_t>(as.size()))
      throw ApiError{422, "no agent at index " + std::to_string(i)};
    index = static_cast<std::size_t>(i);
  } else if (r.contains("agent") && !r["agent"].is_null()) {
    if (!r["agent"].is_number_integer()) throw ApiError{400, "\"agent\" must be an agent's id"};
    const auto want = r["agent"].get<std::int64_t>();
    for (std::size_t i = 0; i < as.size(); ++i) {
      if (as[i].spec.id == want) index = i;
    }
    if (!index) throw ApiError{422, "no agent with id " + std::to_string(want)};
  } else {
    for (std::size_t i = 0; i < as.size() && !index; ++i) {
      if (as[i].spec.target) index = i;
    }
    if (!index) throw ApiError{422, "no agent in this simulation chases a target"};
  }
  if (!as[*index].spec.target) {
    throw ApiError{422, "agent " + std::to_string(as[*index].spec.id) + " chases no target"};
  }
  s->world.drive_target(*index, v);
  json out = s->state(s->world.tick_us().size());
  out["driven"] = as[*index].spec.id;
  return out;
}

json Simulations::set_goal(const std::string& id, const json& r) {
  const auto s = find(id);
  if (!r.contains("goal")) throw ApiError{400, "missing \"goal\": [x, y]"};
  const Vec2 goal = vec_from_json(r["goal"], "goal");
  std::lock_guard lock(s->mutex);
  const auto& as = s->world.agents();
  std::vector<std::size_t> flow;
  for (std::size_t i = 0; i < as.size(); ++i) {
    if (as[i].spec.planner == agents::PlannerKind::flow && !as[i].arrived) flow.push_back(i);
  }
  if (flow.empty()) throw ApiError{422, "no flow agent in this simulation is still on its way"};
  try {
    s->world.set_goal(flow, goal);
  } catch (const std::invalid_argument& e) {
    throw ApiError{422, e.what()};
  }
  json out = s->state(s->world.tick_us().size());
  if (const auto* f = s->world.field_of(flow.front())) {
    out["field"] = pathlab::json::flow_field(*f);
  } else if (const auto* sf = s->world.sectors_of(flow.front())) {
    out["field"] = pathlab::json::flow_field(*sf);
  }
  out["sent"] = flow.size();
  return out;
}

json Simulations::field(const std::string& id, std::size_t index) {
  const auto s = find(id);
  std::lock_guard lock(s->mutex);
  if (index >= s->world.agents().size()) {
    throw ApiError{422, "no agent at index " + std::to_string(index)};
  }
  if (const flow::Field* f = s->world.field_of(index)) return pathlab::json::flow_field(*f);
  if (const flow::SectorField* f = s->world.sectors_of(index)) return pathlab::json::flow_field(*f);
  throw ApiError{422, "agent at index " + std::to_string(index) + " follows no flow field"};
}

void Simulations::erase(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (sessions_.erase(id) == 0) throw ApiError{404, "no simulation '" + id + "'"};
}

std::size_t Simulations::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

void add_simulation_routes(Router& router, Simulations& sims) {
  router.add("GET", "/api/scenarios",
             [&sims](const Request&, const Captures&) { return dump(sims.scenarios()); });
  router.add("POST", "/api/sim", [&sims](const Request& req, const Captures&) {
    return dump(sims.create(body_object(req)));
  });
  router.add("POST", "/api/sim/:id/step", [&sims](const Request& req, const Captures& m) {
    return dump(sims.step(m[0], body_object(req, true)));
  });
  router.add("POST", "/api/sim/:id/obstacle", [&sims](const Request& req, const Captures& m) {
    return dump(sims.add_obstacle(m[0], body_object(req)));
  });
  router.add("POST", "/api/sim/:id/target", [&sims](const Request& req, const Captures& m) {
    return dump(sims.drive_target(m[0], body_object(req)));
  });
  router.add("POST", "/api/sim/:id/goal", [&sims](const Request& req, const Captures& m) {
    return dump(sims.set_goal(m[0], body_object(req)));
  });
  router.add("GET", "/api/sim/:id/field", [&sims](const Request& req, const Captures& m) {
    long index = 0;
    if (const auto agent = req.param("agent")) index = std::atol(std::string(*agent).c_str());
    if (index < 0) throw ApiError{422, "no agent at a negative index"};
    return dump(sims.field(m[0], static_cast<std::size_t>(index)));
  });
  router.add("DELETE", "/api/sim/:id", [&sims](const Request&, const Captures& m) {
    sims.erase(m[0]);
    return dump(json{{"deleted", m[0]}});
  });
}

}  // namespace pathlab::api::detail
