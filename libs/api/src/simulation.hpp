// Simulation sessions of the API: the web page's simulation view creates a World from a
// scenario of the catalog, steps it, drops obstacles into it and drives chase targets, and draws
// the states these answer. The API runs the world; the page never re-implements a planner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include <pathlab/api/api.hpp>
#include <pathlab/api/catalog.hpp>

#include "internal.hpp"

namespace pathlab::api::detail {

/// The live worlds, by session id. Thread-safe: a mutex guards the table and each session has
/// its own, so two sessions step at once. At most `capacity` sessions; creating one more evicts
/// the least recently used. Every method throws ApiError (404 for an unknown id, 400 for a
/// malformed request, 422 for a well-formed one the world refuses).
class Simulations {
 public:
  static constexpr int kMaxTicksPerStep = 500;     ///< [Limit: 1..500] ticks per step request
  static constexpr std::size_t kMaxAgents = 2000;  ///< per session
  static constexpr std::size_t kMaxAddedObstacles = 256;
  static constexpr std::size_t kMaxPoints = 64;  ///< vertices of a dropped polygon
  static constexpr double kMaxTargetSpeed = 50;  ///< cells/s for a driven chase target

  /// At most limits.max_sessions sessions, maps of at most limits.max_cells cells.
  Simulations(const Catalog& catalog, const Limits& limits);
  ~Simulations();
  Simulations(const Simulations&) = delete;
  Simulations& operator=(const Simulations&) = delete;

  /// {"scenarios":[{"file","name","agents","obstacles","chase"}…]}: the catalog's scenarios
  /// (one that does not load is listed with "error" instead).
  [[nodiscard]] nlohmann::json scenarios() const;

  /// {"scenario": FILE} or {"scenario_text": JSON} (its "map" one of the catalog's maps), and
  /// optionally {"planner": "hybrid"|"apf"|"replan"|"dstar"} for every agent. Answers the
  /// session: {"id","name","grid","dt","time_limit","agents":[static info…],"state"}.
  [[nodiscard]] nlohmann::json create(const nlohmann::json& request);
  /// {"ticks": n}: steps n ticks (fewer if the run finishes) and answers the state, with the
  /// replans, stalls and collisions that began during those ticks as "events".
  [[nodiscard]] nlohmann::json step(const std::string& id, const nlohmann::json& request);
  /// {"kind": disc|segment|polygon, "at": [x,y], "radius" | "points", "velocity"?}: drops an
  /// obstacle that is there from now on; answers the state.
  [[nodiscard]] nlohmann::json add_obstacle(const std::string& id, const nlohmann::json& request);
  /// {"agent": ID | "index": I, "velocity": [vx,vy]}: drives that agent's chase target by hand
  /// from the next tick on (World::drive_target); answers the state.
  [[nodiscard]] nlohmann::json drive_target(const std::string& id, const nlohmann::json& request);
  /// {"goal": [x, y]}: sends every flow agent that has not arrived to a new rally point
  /// (World::set_goal); answers the state and "field": the new field (flow_json).
  [[nodiscard]] nlohmann::json set_goal(const std::string& id, const nlohmann::json& request);
  /// The flow field agent `index` follows (flow_json); 422 when it follows none.
  [[nodiscard]] nlohmann::json field(const std::string& id, std::size_t index);
  /// Ends a session.
  void erase(const std::string& id);
  [[nodiscard]] std::size_t size() const;

  struct Session;

 private:
  std::shared_ptr<Session> find(const std::string& id);

  const Catalog& catalog_;
  std::int64_t max_cells_;
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Session>> sessions_;
  std::uint64_t clock_ = 0;  ///< use counter for least-recently-used eviction
  std::uint64_t next_id_ = 0;
};

}  // namespace pathlab::api::detail
