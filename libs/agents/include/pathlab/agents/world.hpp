// The simulation world: agents (discs with a radius, a top speed and a top acceleration) moving in
// continuous 2-D space over a grid's static walls, among dynamic obstacles, with a fixed time
// step. Each agent has a planner:
//   hybrid — the users' method: a global A* path on the agent's clearance grid, smoothed to a few
//            waypoints that it follows as sub-goals with the improved potential field
//            (potential_field.hpp); a stall or an oscillation (stall.hpp) triggers a local A*
//            replan to the current sub-goal with the sensed obstacles as walls (then a cooldown);
//            no arrival after N ticks triggers a full replan.
//   apf    — the pure potential field toward the goal: the baseline that gets stuck.
//   replan — A* every tick with the sensed obstacles as walls, steering straight at the next
//            waypoint: the brute-force baseline.
//   dstar  — D* Lite on the agent's belief of the map: the cells that sensed obstacles cover are
//            blocked or freed as they move and the plan is repaired, not redone.
//   flow   — crowds: every flow agent with the same goal cell and radius follows one shared flow
//            field (flow/field.hpp) instead of a plan of its own, with ORCA against its nearest
//            neighbours. A group of n arrives anywhere in the area it fills packed around the
//            goal (PlannerParams::arrive_gap), not all on one point.
// Agents never step into one another: every planner but apf avoids the others with ORCA, with
// the walls as hard constraints (a velocity the walls would stop is never chosen), and cuts its
// step short where it would touch an agent where that agent stands now (agents move one after
// another within a tick). So crowds crossing a one-cell door from both sides queue there.
// Optionally (PlannerParams::take_turns) narrow passages are taken in turns: agents coming from
// the other side wait back from one while it is in use.
// Chase: an agent with a `target` pursues a point that moves (a route, or a velocity); its goal
// is the target's position each tick and it arrives when it catches it. Plans are kept while
// their last turning point still sees the target (only the end point moves), gain a leg while
// their old end sees it (it turned a corner), and are redone only otherwise.
// An agent that arrives leaves the world: it is no longer an obstacle for the others.
// The world is deterministic: the same spec gives the same run, tick for tick.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/agents/obstacle.hpp>
#include <pathlab/agents/potential_field.hpp>
#include <pathlab/agents/stall.hpp>
#include <pathlab/agents/vec2.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

namespace pathlab::agents {

/// How an agent plans and steers (described at the top of this header).
enum class PlannerKind : std::uint8_t {
  hybrid,  ///< global A* path followed with the improved potential field; replans on stalls
  apf,     ///< the pure potential field toward the goal (the baseline; no ORCA)
  replan,  ///< A* every tick around the sensed obstacles, steering at the next waypoint
  dstar,   ///< D* Lite on the agent's belief of the map, repaired as obstacles move
  flow     ///< a flow field shared by the agents with the same goal cell and radius
};

/// The planner's name as scenario files and the CLI spell it: "hybrid", "apf", "replan",
/// "dstar" or "flow" ("?" for a value outside the enum).
[[nodiscard]] std::string_view to_string(PlannerKind p) noexcept;
/// The planner named exactly as to_string() spells it; nullopt for any other text.
[[nodiscard]] std::optional<PlannerKind> parse_planner(std::string_view s) noexcept;

/// Tuning shared by every agent of a world; the defaults are the tested ones.
struct PlannerParams {
  /// The potential field (hybrid, apf): gains, and rho0, the reach of obstacles and agents.
  FieldParams field;
  /// Stall thresholds; unset: StallParams::for_step(speed * dt) per agent.
  std::optional<StallParams> stall;
  double subgoal_reach = 0.5;  ///< a sub-goal is reached within this distance (cells)
  double goal_reach = 0.5;     ///< the goal is reached within this distance (cells)
  /// The field (hybrid, apf) pulls toward the point this far along the straight way to the
  /// sub-goal, or the sub-goal itself when nearer (cells; 0: always the sub-goal itself). It
  /// bounds ρ_g, which scales the improved repulsion as ρ_g^n.
  double lookahead = 2.0;
  /// A later sub-goal is taken early only if the straight way there keeps this much more than
  /// the agent's radius from dynamic obstacles (cells): room for the curve that its top
  /// acceleration makes of a turn.
  double skip_margin = 0.15;
  /// Full replans (hybrid) wait in a queue and at most this many run per tick, so that a crowd
  /// never stalls a tick with hundreds of A* searches at once. [Limit: >= 1]
  int plans_per_tick = 4;
  /// Agents avoid each other with ORCA (orca.hpp) over this horizon (seconds); 0 turns it off.
  /// The apf baseline never uses it. (1 s rather than 2: in eight random 50-agent crowds on the
  /// 30x20 map the hybrid's paths were 1.19 x the optimum against 1.24, with fewer overlaps.)
  double avoid_horizon = 1.0;
  /// An obstacle that stands still stays in an agent's plans this long (seconds) after it last
  /// sensed it; moving obstacles and other agents are only planned around while sensed.
  double memory = 30.0;
  /// The hybrid sees obstacles that stand still this far away (cells, from its centre to the
  /// obstacle's nearest point). When one it had not seen stands on the next `sight` cells of its
  /// plan (its disc would touch it) it replans around it at once, before the field walks it in:
  /// a local replan when the stretch to the current sub-goal is blocked, else a full one. 0
  /// turns the check off and leaves only the stall trigger (the users' method as published).
  double sight = 6.0;
  /// Walls repel within this distance of the agent's disc (cells); dynamic obstacles and other
  /// agents within the field's rho0. [Limit: > 0]
  double wall_rho0 = 0.25;
  /// Other agents repel within this distance of the agent's disc (cells), the distance
  /// rescaled so that the field fades out at its edge; beyond it ORCA alone keeps agents apart
  /// (a field as wide as rho0 between agents that both dodge makes each swerve twice). The apf
  /// baseline, and every planner when avoid_horizon is 0, uses rho0 for agents too. [Limit: > 0]
  double agent_rho0 = 0.25;
  /// Global replan after factor × (static path length / (speed · dt)) ticks without arrival.
  double global_replan_factor = 3.0;
  /// Flow agents avoid (ORCA) at most this many of their nearest neighbours within
  /// neighbour_range cells, as RVO2's maxNeighbors and neighborDist do. [Limit: >= 1, > 0]
  int max_neighbours = 10;
  double neighbour_range = 2.0;  ///< cells from centre to centre; see max_neighbours
  /// Flow agents sharing a goal arrive within goal_reach + sqrt((n - 1) s² / π) of it, measured
  /// along their field, where n is the size of the group and s = 2 · radius + arrive_gap: the
  /// area the group fills when packed. One agent alone arrives within goal_reach. [Limit: >= 0]
  double arrive_gap = 0.2;
  /// Flow agents on maps of more cells than this follow sectored fields (flow/sectors.hpp),
  /// built only on the corridors their agents use, instead of whole-map fields.
  std::int64_t sector_from = std::int64_t{1} << 21;
  /// Narrow passages taken in turns (see above). Off by default: in two groups of 16 crossing
  /// a one-cell corridor 16 long from both sides, ORCA alone (one side backs out) had them all
  /// across in 44 s (flow) and 49 s (hybrid), against 53 s and 57 s taking turns, both without
  /// a collision.
  bool take_turns = false;
};

/// One agent as a scenario describes it.
struct AgentSpec {
  int id = 0;              ///< names it in messages and metrics (scenario files keep ids unique)
  Vec2 start,              ///< where it stands at time 0 (map units), in a cell its radius fits
      goal;                ///< where it goes (map units), in a cell its radius fits
  double radius = 0.3;     ///< cells
  double max_speed = 2.0;  ///< cells/s
  double max_accel = 8.0;  ///< cells/s²
  PlannerKind planner = PlannerKind::hybrid;  ///< hybrid, apf, replan, dstar or flow (world.hpp)
  /// Chase: the goal moves with this motion (from the start of the run); `goal` is ignored.
  std::optional<Motion> target;
};

/// Everything a World is built from; the World keeps its own copy.
struct WorldSpec {
  grid::Grid grid;    ///< the static walls (and terrain) the agents move over
  grid::Moves moves;  ///< for the A* plans (no corner cutting by default)
  double dt = 0.05;   ///< seconds of simulated time per tick [Limit: > 0 and finite]
  /// Simulated seconds after which the run is finished even if agents have not arrived.
  /// [Limit: > 0 and finite]
  double time_limit = 60;
  std::vector<AgentSpec> agents;    ///< the agents, in the order World::agents() keeps
  std::vector<Obstacle> obstacles;  ///< dynamic obstacles; World::add_obstacle() appends
  PlannerParams params;             ///< tuning for every agent
};

/// What an agent did during a run (the fields of `simulate --json`, DESIGN.md).
struct AgentMetrics {
  int id = 0;              ///< the agent's AgentSpec::id
  bool arrived = false;    ///< it reached its goal (caught its target) before the run ended
  double time = 0;         ///< seconds until arrival (or the run's length)
  double path_length = 0;  ///< distance travelled
  /// Shortest any-angle path on the static map (clearance grid) from start to goal. For a
  /// chaser, an interceptor's: the shortest way to the target's position at the earliest time
  /// the agent could have been there at top speed (had it known the target's way).
  double optimal_length = 0;
  double min_clearance = 0;   ///< least distance between its disc and a wall or obstacle
  int collisions = 0;         ///< overlaps begun
  double collision_time = 0;  ///< seconds spent overlapping
  int stalls = 0;             ///< stalls and oscillations detected
  /// Local repairs: hybrid A* detours to the current sub-goal, dstar repairs after map changes.
  int local_replans = 0;
  /// Full plans after the first: hybrid replans to the goal, every tick's A* (replan), new
  /// D* Lite searches for a goal that moved to another cell (dstar).
  int global_replans = 0;
};

/// An agent's state, for renderers and the web page.
struct AgentState {
  /// Its spec; `goal` is the current one (a chaser's target now, a flow agent's rally point).
  AgentSpec spec;
  Vec2 position,  ///< centre of its disc (map units)
      velocity,   ///< velocity of the last tick (cells/s); zero once arrived
      force;      ///< last steering: the field's force (hybrid, apf), else desired velocity
  std::vector<Vec2> plan;   ///< waypoints still ahead (sub-goals), the goal last
  std::size_t subgoal = 0;  ///< index in `plan` of the sub-goal it is heading for
  bool arrived = false;     ///< it reached its goal and has left the world
  bool colliding = false;   ///< it overlaps a wall, an obstacle or another agent this tick
  bool waiting = false;     ///< held back from a narrow passage that agents from the other side use
  AgentMetrics metrics;     ///< what it did so far
};

/// A running simulation: owns its copy of the spec and every agent's state. Movable, not
/// copyable.
class World {
 public:
  /// Validates the spec (throws std::invalid_argument with a message naming the agent or
  /// obstacle: a start or goal in a wall, a bad radius or speed, a bad obstacle) and makes the
  /// agents' first plans.
  explicit World(WorldSpec spec);
  ~World();
  /// Takes over the other world's run; the moved-from world may only be destroyed or assigned.
  World(World&&) noexcept;
  /// Takes over the other world's run (see the move constructor).
  World& operator=(World&&) noexcept;

  /// Advances one time step.
  void step();
  /// Steps until every agent arrived or the time limit.
  void run();
  /// Whether every agent has arrived or time() has reached the spec's time_limit.
  [[nodiscard]] bool finished() const noexcept;
  /// Simulated seconds so far: ticks() × dt (summed tick by tick).
  [[nodiscard]] double time() const noexcept;
  /// Steps taken so far (0 before the first step()).
  [[nodiscard]] std::uint64_t ticks() const noexcept;
  /// Every agent's state, in the spec's order, updated in place by step().
  [[nodiscard]] const std::vector<AgentState>& agents() const noexcept;
  /// The spec the world runs, with the obstacles added by add_obstacle().
  [[nodiscard]] const WorldSpec& spec() const noexcept;
  /// Wall time of each tick so far (µs), initial plans excluded.
  [[nodiscard]] const std::vector<double>& tick_us() const noexcept;

  /// Adds a dynamic obstacle while the world runs (a person dropping one on the web page). It
  /// is validated like the spec's (throws std::invalid_argument) and appended to
  /// spec().obstacles; an `appear` time in the past means it is there from the next tick. Agents
  /// learn of it by sensing, like any other.
  void add_obstacle(Obstacle obstacle);
  /// Drives agent `index`'s chase target by hand from the next tick on (the keyboard on the web
  /// page): it moves with `velocity` (cells/s; zero stops it) and slides along walls instead of
  /// entering them, until the next call. Throws std::invalid_argument when the index is out of
  /// range or the agent chases nothing.
  void drive_target(std::size_t index, Vec2 velocity);

  /// The sectored field agent `index` follows (flow planner on a map of more than
  /// PlannerParams::sector_from cells), or nullptr.
  [[nodiscard]] const flow::SectorField* sectors_of(std::size_t index) const noexcept;
  /// The whole-map flow field agent `index` follows (flow planner), or nullptr.
  [[nodiscard]] const flow::Field* field_of(std::size_t index) const noexcept;
  /// Sends the flow agents among `indices` that have not arrived to a new goal (a rally point
  /// set on the web page): they share a field for it from the next tick. Throws
  /// std::invalid_argument for an index out of range or a goal one of them cannot reach a cell
  /// of (a wall, outside the map, too close to a wall for its radius).
  void set_goal(std::span<const std::size_t> indices, Vec2 goal);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace pathlab::agents
