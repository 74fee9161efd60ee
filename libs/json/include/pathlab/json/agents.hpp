// Simulations as JSON: the results of `pathlab simulate --json` (shared docs/DESIGN.md) and the
// world states, agents and obstacles the /api/sim endpoints answer for the web page to draw.
// Positions are [x, y] in map units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/agents/obstacle.hpp>
#include <pathlab/agents/world.hpp>

namespace pathlab::json {

/// [x, y].
[[nodiscard]] nlohmann::json vec(agents::Vec2 v);

/// {"time","path_length","optimal_length","min_clearance","collisions","collision_time",
/// "stalls","local_replans","global_replans"}: an agent's metrics as the world keeps them.
[[nodiscard]] nlohmann::json agent_metrics(const agents::AgentMetrics& m);
/// An agent's line of `simulate --json`: agent_metrics() plus "id" and "arrived", with
/// "min_clearance" null when nothing ever came within sensing range.
[[nodiscard]] nlohmann::json agent_result(const agents::AgentMetrics& m);

/// Tick times of a run, in microseconds.
struct TickTimes {
  double mean = 0;       ///< mean time of a tick over the run, µs
  double p99 = 0;        ///< 99th-percentile tick time (nearest rank), µs
  double per_agent = 0;  ///< per agent per tick, while it was in the world
};

/// One run of `simulate --json`: {"scenario","planner","ticks","agents":[agent_result…],
/// "tick_us":{"mean","p99","per_agent"}}.
[[nodiscard]] nlohmann::json simulation_run(const std::string& scenario, const std::string& planner,
                                            std::uint64_t ticks,
                                            const std::vector<agents::AgentMetrics>& agents,
                                            const TickTimes& tick_us);

/// An agent now: {"id","position","velocity","force","plan","subgoal","arrived","colliding",
/// "goal","metrics"}.
[[nodiscard]] nlohmann::json agent_state(const agents::AgentState& a);
/// What does not change during a run (the page draws the discs with it): {"id","radius",
/// "speed","accel","planner","start","goal" (null for a chaser),"chase"}.
[[nodiscard]] nlohmann::json agent_spec(const agents::AgentSpec& s);
/// An obstacle present at time t in world space: {"id","kind","position","velocity"} plus a
/// disc's "centre" and "radius", or a segment's or polygon's "points" (its frame's points plus
/// its position).
[[nodiscard]] nlohmann::json obstacle(const agents::Obstacle& o, double t);
/// The world now: {"time","ticks","finished","agents","obstacles" (those present),"tick_us":
/// {"last","mean","max","ticks"}}; tick_us covers the ticks from index `since` on (the last
/// tick if none).
[[nodiscard]] nlohmann::json world_state(const agents::World& w, std::size_t since);

}  // namespace pathlab::json
