// Simulations as JSON (see agents.hpp).
#include <pathlab/json/agents.hpp>

#include <algorithm>
#include <string_view>

namespace pathlab::json {
namespace {

nlohmann::json path(const std::vector<agents::Vec2>& pts, agents::Vec2 offset = {}) {
  nlohmann::json out = nlohmann::json::array();
  for (const agents::Vec2 p : pts) out.push_back(vec(p + offset));
  return out;
}

std::string_view kind_name(agents::ShapeKind k) {
  switch (k) {
    case agents::ShapeKind::disc:
      return "disc";
    case agents::ShapeKind::segment:
      return "segment";
    case agents::ShapeKind::polygon:
      return "polygon";
  }
  return "disc";
}

}  // namespace

nlohmann::json vec(agents::Vec2 v) {
  return nlohmann::json::array({v.x, v.y});
}

nlohmann::json agent_metrics(const agents::AgentMetrics& m) {
  return {{"time", m.time},
          {"path_length", m.path_length},
          {"optimal_length", m.optimal_length},
          {"min_clearance", m.min_clearance},
          {"collisions", m.collisions},
          {"collision_time", m.collision_time},
          {"stalls", m.stalls},
          {"local_replans", m.local_replans},
          {"global_replans", m.global_replans}};
}

nlohmann::json agent_result(const agents::AgentMetrics& m) {
  nlohmann::json j = agent_metrics(m);
  j["id"] = m.id;
  j["arrived"] = m.arrived;
  // Nothing ever came within sensing range: no finite clearance to report.
  if (!(m.min_clearance < 1e8)) j["min_clearance"] = nullptr;
  return j;
}

nlohmann::json simulation_run(const std::string& scenario, const std::string& planner,
                              std::uint64_t ticks, const std::vector<agents::AgentMetrics>& agents,
                              const TickTimes& tick_us) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& m : agents) list.push_back(agent_result(m));
  return {{"scenario", scenario},
          {"planner", planner},
          {"ticks", ticks},
          {"agents", list},
          {"tick_us",
           {{"mean", tick_us.mean}, {"p99", tick_us.p99}, {"per_agent", tick_us.per_agent}}}};
}

nlohmann::json agent_state(const agents::AgentState& a) {
  return {{"id", a.spec.id},
          {"position", vec(a.position)},
          {"velocity", vec(a.velocity)},
          {"force", vec(a.force)},
          {"plan", path(a.plan)},
          {"subgoal", a.subgoal},
          {"arrived", a.arrived},
          {"colliding", a.colliding},
          {"goal", vec(a.spec.goal)},
          {"metrics", agent_metrics(a.metrics)}};
}

nlohmann::json agent_spec(const agents::AgentSpec& s) {
  return {{"id", s.id},
          {"radius", s.radius},
          {"speed", s.max_speed},
          {"accel", s.max_accel},
          {"planner", std::string(agents::to_string(s.planner))},
          {"start", vec(s.start)},
          {"goal", s.target ? nlohmann::json(nullptr) : vec(s.goal)},
          {"chase", s.target.has_value()}};
}

nlohmann::json obstacle(const agents::Obstacle& o, double t) {
  const agents::Vec2 p = o.position(t);
  nlohmann::json j{{"id", o.id},
                   {"kind", std::string(kind_name(o.shape.kind))},
                   {"position", vec(p)},
                   {"velocity", vec(o.velocity(t))}};
  if (o.shape.kind == agents::ShapeKind::disc) {
    j["centre"] = vec(p);
    j["radius"] = o.shape.radius;
  } else {
    j["points"] = path(o.shape.points, p);
  }
  return j;
}

nlohmann::json world_state(const agents::World& w, std::size_t since) {
  const double t = w.time();
  nlohmann::json agents = nlohmann::json::array(), obstacles = nlohmann::json::array();
  for (const auto& a : w.agents()) agents.push_back(agent_state(a));
  for (const auto& o : w.spec().obstacles) {
    if (o.present(t)) obstacles.push_back(obstacle(o, t));
  }
  const auto& us = w.tick_us();
  double mean = 0, max = 0;
  const std::size_t from = since < us.size() ? since : (us.empty() ? 0 : us.size() - 1);
  for (std::size_t k = from; k < us.size(); ++k) {
    mean += us[k];
    max = std::max(max, us[k]);
  }
  if (us.size() > from) mean /= static_cast<double>(us.size() - from);
  return {{"time", t},
          {"ticks", w.ticks()},
          {"finished", w.finished()},
          {"agents", agents},
          {"obstacles", obstacles},
          {"tick_us",
           {{"last", us.empty() ? 0.0 : us.back()},
            {"mean", mean},
            {"max", max},
            {"ticks", us.size() - from}}}};
}

}  // namespace pathlab::json
