// The simulation world and its planners (see world.hpp). Walls are hard: an agent slides along
// them and never enters one. Dynamic obstacles and other agents are soft: the motion model does
// not stop an agent from running into them, so overlaps are the planners' failures and are
// counted as collisions.
#include <pathlab/agents/world.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

#include <pathlab/agents/dstar_lite.hpp>
#include <pathlab/agents/geometry.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::agents {

std::string_view to_string(PlannerKind p) noexcept {
  switch (p) {
    case PlannerKind::hybrid:
      return "hybrid";
    case PlannerKind::apf:
      return "apf";
    case PlannerKind::replan:
      return "replan";
    case PlannerKind::dstar:
      return "dstar";
  }
  return "?";
}

std::optional<PlannerKind> parse_planner(std::string_view s) noexcept {
  if (s == "hybrid") return PlannerKind::hybrid;
  if (s == "apf") return PlannerKind::apf;
  if (s == "replan") return PlannerKind::replan;
  if (s == "dstar") return PlannerKind::dstar;
  return std::nullopt;
}

namespace {

constexpr double kFar = 1e9;

Cell cell_at(Vec2 p) noexcept {
  return {static_cast<std::int32_t>(std::floor(p.x)), static_cast<std::int32_t>(std::floor(p.y))};
}

Vec2 centre_of(Cell c) noexcept {
  return {c.x + 0.5, c.y + 0.5};
}

/// Per-agent runtime state that the public AgentState does not show.
struct Runtime {
  const grid::Grid* clearance = nullptr;
  StallDetector detector;
  std::uint64_t ticks_since_global = 0;
  std::uint64_t global_limit = 0;
  std::unique_ptr<DStarLite> dstar;   ///< dstar planner: its belief of the map and its plan
  std::vector<Cell> dynamic_blocked;  ///< dstar: cells it currently believes blocked by obstacles
  Cell dstar_goal{-1, -1};
};

/// Where a chased target is at time t.
Vec2 target_at(const Motion& m, double t) {
  Obstacle o;
  o.motion = m;
  return o.position(t);
}

}  // namespace

struct World::Impl {
  WorldSpec spec;
  double t = 0;
  std::uint64_t ticks = 0;
  std::vector<AgentState> agents;
  std::vector<Runtime> rt;
  std::vector<double> tick_us;
  std::map<double, grid::Grid> clearance;  // by agent radius

  const grid::Grid& clearance_for(double radius) {
    auto it = clearance.find(radius);
    if (it == clearance.end()) {
      it = clearance.emplace(radius, spec.grid.with_clearance(radius)).first;
    }
    return it->second;
  }

  /// The cells that sensed obstacles (and other agents) within `range` of agent i's disc cover,
  /// inflated by its radius: an agent centred there would touch them. Its own cell and its
  /// goal's are never listed.
  std::vector<Cell> covered_cells(std::size_t i, double range) const {
    const AgentState& a = agents[i];
    const grid::Grid& g = *rt[i].clearance;
    const Cell here = cell_at(a.position), goal = cell_at(a.spec.goal);
    std::vector<Cell> out;
    auto cover = [&](auto&& distance_to, Vec2 centre, double extent) {
      const double reach = extent + a.spec.radius + 1;
      const int x0 = static_cast<int>(std::floor(centre.x - reach));
      const int x1 = static_cast<int>(std::floor(centre.x + reach));
      const int y0 = static_cast<int>(std::floor(centre.y - reach));
      const int y1 = static_cast<int>(std::floor(centre.y + reach));
      for (int y = std::max(0, y0); y <= std::min(g.height() - 1, y1); ++y) {
        for (int x = std::max(0, x0); x <= std::min(g.width() - 1, x1); ++x) {
          const Cell c{x, y};
          if (c == here || c == goal || !g.passable(c)) continue;
          // The cell's centre closer than radius + half a cell: an agent there would touch.
          if (distance_to(centre_of(c)) < a.spec.radius + 0.5) out.push_back(c);
        }
      }
    };
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      if (o.nearest(a.position, t).distance - a.spec.radius > range) continue;
      double extent = o.shape.radius;
      for (const Vec2 p : o.shape.points) extent = std::max(extent, norm(p));
      cover([&](Vec2 p) { return std::max(0.0, o.nearest(p, t).distance); }, o.position(t), extent);
    }
    for (std::size_t j = 0; j < agents.size(); ++j) {
      if (j == i) continue;
      const AgentState& b = agents[j];
      if (norm(b.position - a.position) - b.spec.radius - a.spec.radius > range) continue;
      cover([&](Vec2 p) { return std::max(0.0, norm(p - b.position) - b.spec.radius); }, b.position,
            b.spec.radius);
    }
    std::sort(out.begin(), out.end(),
              [](Cell p, Cell q) { return p.y != q.y ? p.y < q.y : p.x < q.x; });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// The agent's clearance grid with covered_cells() blocked: what a local or per-tick plan
  /// avoids.
  grid::Grid blocked_grid(std::size_t i, double range) const {
    grid::Grid g = *rt[i].clearance;
    for (const Cell c : covered_cells(i, range)) g.set_blocked(c, true);
    return g;
  }

  /// A* on g from the agent's cell to `to`, smoothed: the waypoints after the agent's cell, with
  /// `final_point` in place of the last cell's centre. Empty when there is no path.
  std::vector<Vec2> plan_on(const grid::Grid& g, Vec2 from, Cell to, Vec2 final_point) const {
    search::Options o;
    o.moves = spec.moves;
    search::Pathfinder finder(g, o);
    const Cell start = cell_at(from);
    if (!g.passable(start) || !g.passable(to)) return {};
    const search::Result r = finder.find(start, to);
    if (r.status != Status::found) return {};
    const std::vector<Cell> w = post::smooth(g, spec.moves.diagonal, r.path);
    std::vector<Vec2> out;
    for (std::size_t k = 1; k < w.size(); ++k) out.push_back(centre_of(w[k]));
    if (out.empty()) out.push_back(final_point);
    out.back() = final_point;
    return out;
  }

  /// The obstacle points the agent senses within ρ0 of its disc: the nearest wall point, every
  /// dynamic obstacle and every other agent. ρ is measured from the disc's edge. Also returns
  /// the clearance (least edge distance, kFar when nothing is near).
  double sense(std::size_t i, std::vector<ObstaclePoint>& out) const {
    const AgentState& a = agents[i];
    const double r = a.spec.radius, range = spec.params.field.rho0;
    double clearance = kFar;
    out.clear();
    if (const auto w = nearest_wall_point(spec.grid, a.position, range + r)) {
      const double d = w->inside ? -r : w->distance - r;
      clearance = std::min(clearance, d);
      out.push_back({w->point, {}, std::max(0.0, d)});
    }
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      const NearestPoint n = o.nearest(a.position, t);
      const double d = (n.inside && n.distance >= 0 ? 0.0 : n.distance) - r;
      clearance = std::min(clearance, d);
      if (d <= range) out.push_back({n.point, o.velocity(t), std::max(0.0, d)});
    }
    for (std::size_t j = 0; j < agents.size(); ++j) {
      if (j == i) continue;
      const AgentState& b = agents[j];
      const double centre_d = norm(a.position - b.position);
      const double d = centre_d - r - b.spec.radius;
      clearance = std::min(clearance, d);
      if (d <= range) {
        const Vec2 towards = centre_d > 0 ? (a.position - b.position) / centre_d : Vec2{1, 0};
        out.push_back({b.position + towards * b.spec.radius, b.velocity, std::max(0.0, d)});
      }
    }
    return clearance;
  }

  /// Whether agent i, moving straight from p to q, stays clear of walls (its clearance grid's
  /// line of sight) and of the dynamic obstacles present now (checked every quarter cell along
  /// the segment against the obstacle inflated by the agent's radius and the skip margin).
  bool clear_path(std::size_t i, Vec2 p, Vec2 q) const {
    const AgentState& a = agents[i];
    if (!grid::line_of_sight(*rt[i].clearance, spec.moves.diagonal, p.point(), q.point())) {
      return false;
    }
    const double len = norm(q - p);
    const int samples = 1 + static_cast<int>(std::ceil(len / 0.25));
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      double extent = o.shape.radius;
      for (const Vec2 v : o.shape.points) extent = std::max(extent, norm(v));
      const Vec2 c = o.position(t);
      if (norm(closest_point_on_segment(c, p, q) - c) >
          extent + a.spec.radius + spec.params.skip_margin) {
        continue;
      }
      for (int k = 0; k <= samples; ++k) {
        const Vec2 x = p + (q - p) * (static_cast<double>(k) / samples);
        if (o.overlaps(x, a.spec.radius + spec.params.skip_margin, t)) return false;
      }
    }
    return true;
  }

  /// Moves agent i with velocity v for one step; walls are hard (slide along them, else stop).
  void move(AgentState& a, Vec2 v) const {
    const double r = a.spec.radius, dt = spec.dt;
    auto free_at = [&](Vec2 p) {
      const auto w = nearest_wall_point(spec.grid, p, r);
      return !w || (!w->inside && w->distance >= r);
    };
    const Vec2 full = a.position + v * dt;
    if (free_at(full)) {
      a.position = full;
      a.velocity = v;
      return;
    }
    const Vec2 along_x{a.position.x + v.x * dt, a.position.y};
    const Vec2 along_y{a.position.x, a.position.y + v.y * dt};
    if (std::abs(v.x) >= std::abs(v.y) && free_at(along_x)) {
      a.position = along_x;
      a.velocity = {v.x, 0};
    } else if (free_at(along_y)) {
      a.position = along_y;
      a.velocity = {0, v.y};
    } else if (free_at(along_x)) {
      a.position = along_x;
      a.velocity = {v.x, 0};
    } else {
      a.velocity = {};
    }
  }

  Vec2 limit(Vec2 v, double max) const {
    const double n = norm(v);
    return n > max ? v * (max / n) : v;
  }

  void global_replan(std::size_t i, bool count) {
    AgentState& a = agents[i];
    const grid::Grid g = blocked_grid(i, spec.params.field.rho0 + 2);
    std::vector<Vec2> plan = plan_on(g, a.position, cell_at(a.spec.goal), a.spec.goal);
    if (plan.empty())
      plan = plan_on(*rt[i].clearance, a.position, cell_at(a.spec.goal), a.spec.goal);
    if (plan.empty()) plan = {a.spec.goal};
    a.plan = std::move(plan);
    a.subgoal = 0;
    rt[i].ticks_since_global = 0;
    if (count) ++a.metrics.global_replans;
  }

  void local_replan(std::size_t i) {
    AgentState& a = agents[i];
    ++a.metrics.local_replans;
    const Vec2 target = a.plan[a.subgoal];
    const grid::Grid g = blocked_grid(i, spec.params.field.rho0 + 2);
    std::vector<Vec2> local = plan_on(g, a.position, cell_at(target), target);
    if (local.empty()) {
      global_replan(i, true);
      return;
    }
    // The local detour, then the rest of the plan after the sub-goal.
    local.insert(local.end(), a.plan.begin() + static_cast<std::ptrdiff_t>(a.subgoal) + 1,
                 a.plan.end());
    a.plan = std::move(local);
    a.subgoal = 0;
  }

  /// The dstar planner's tick: tell D* Lite which cells the sensed obstacles now cover and which
  /// they left, where the agent is, and repair the plan; a new goal cell (a chased target that
  /// moved on) needs a new search.
  void dstar_step(std::size_t i) {
    AgentState& a = agents[i];
    Runtime& r = rt[i];
    if (!r.dstar) r.dstar = std::make_unique<DStarLite>(*r.clearance, spec.moves);
    const std::vector<Cell> now = covered_cells(i, spec.params.field.rho0 + 2);
    auto less = [](Cell p, Cell q) { return p.y != q.y ? p.y < q.y : p.x < q.x; };
    bool changed = false;
    for (const Cell c : r.dynamic_blocked) {
      if (!std::binary_search(now.begin(), now.end(), c, less)) {
        r.dstar->set_blocked(c, false);
        changed = true;
      }
    }
    for (const Cell c : now) {
      if (!std::binary_search(r.dynamic_blocked.begin(), r.dynamic_blocked.end(), c, less)) {
        r.dstar->set_blocked(c, true);
        changed = true;
      }
    }
    r.dynamic_blocked = now;
    const Cell here = cell_at(a.position), goal = cell_at(a.spec.goal);
    if (!(goal == r.dstar_goal)) {
      r.dstar->reset(here, goal);
      r.dstar_goal = goal;
      ++a.metrics.global_replans;
    } else {
      const bool moved = !(here == r.dstar->start());
      if (moved) r.dstar->move_to(here);
      if (changed || moved) r.dstar->replan();
      if (changed) ++a.metrics.local_replans;
    }
    const std::vector<Cell> path = r.dstar->path();
    if (path.empty()) return;  // keep the old plan (or stand) until the way opens
    a.plan.clear();
    for (std::size_t k = 1; k < path.size(); ++k) a.plan.push_back(centre_of(path[k]));
    if (a.plan.empty()) a.plan.push_back(a.spec.goal);
    a.plan.back() = a.spec.goal;
    a.subgoal = 0;
  }

  void step_agent(std::size_t i, std::vector<ObstaclePoint>& sensed) {
    AgentState& a = agents[i];
    Runtime& r = rt[i];
    const PlannerParams& pp = spec.params;
    if (a.arrived) return;

    if (a.spec.target) {
      // Chase: the goal is where the target is now. A hybrid plan is kept while its last
      // turning point still sees the target (only its end moves), and redone otherwise.
      const Vec2 g = target_at(*a.spec.target, t);
      const bool moved = !(g == a.spec.goal);
      a.spec.goal = g;
      if (moved && a.spec.planner == PlannerKind::hybrid && !a.plan.empty()) {
        const Vec2 from = a.plan.size() >= 2 ? a.plan[a.plan.size() - 2] : a.position;
        if (clear_path(i, from, g)) {
          a.plan.back() = g;
        } else {
          global_replan(i, true);
        }
      }
    }
    Vec2 target = a.spec.goal;
    if (a.spec.planner == PlannerKind::dstar) dstar_step(i);
    if (a.spec.planner == PlannerKind::replan) {
      const grid::Grid g = blocked_grid(i, pp.field.rho0 + 2);
      std::vector<Vec2> plan = plan_on(g, a.position, cell_at(a.spec.goal), a.spec.goal);
      ++a.metrics.global_replans;
      if (!plan.empty()) a.plan = std::move(plan);
      a.subgoal = 0;
    }
    if (a.spec.planner != PlannerKind::apf && !a.plan.empty()) {
      // Next sub-goal: reached within the reach distance, or skipped when the one after it is
      // already in sight (on the agent's clearance grid).
      while (a.subgoal + 1 < a.plan.size() &&
             (norm(a.plan[a.subgoal] - a.position) < pp.subgoal_reach ||
              clear_path(i, a.position, a.plan[a.subgoal + 1]))) {
        ++a.subgoal;
      }
      target = a.plan[a.subgoal];
    }

    sense(i, sensed);
    Vec2 desired;
    if (a.spec.planner == PlannerKind::replan || a.spec.planner == PlannerKind::dstar) {
      // Straight at the next waypoint; slow down only for the goal itself.
      const Vec2 to = target - a.position;
      const double speed = std::min(a.spec.max_speed, norm(to) / spec.dt);
      desired = unit(to) * speed;
      a.force = desired;
    } else {
      a.force = total_force(a.position, target, a.velocity, sensed, pp.field);
      desired = limit(a.force, a.spec.max_speed);
    }
    const Vec2 dv = limit(desired - a.velocity, a.spec.max_accel * spec.dt);
    const Vec2 before = a.position;
    move(a, limit(a.velocity + dv, a.spec.max_speed));
    a.metrics.path_length += norm(a.position - before);

    if (norm(a.spec.goal - a.position) < pp.goal_reach) {
      a.arrived = true;
      a.velocity = {};
      a.metrics.arrived = true;
      a.metrics.time = t + spec.dt;
      return;
    }
    if (a.spec.planner == PlannerKind::replan || a.spec.planner == PlannerKind::dstar) return;
    const StallReason stall =
        r.detector.update(a.position, a.velocity, norm(a.force), norm(a.spec.goal - a.position));
    if (stall != StallReason::none) {
      ++a.metrics.stalls;
      if (a.spec.planner == PlannerKind::hybrid) {
        local_replan(i);
        r.detector.acknowledge();
      }
    }
    if (a.spec.planner == PlannerKind::hybrid && ++r.ticks_since_global >= r.global_limit) {
      global_replan(i, true);
    }
  }

  void account(std::size_t i, std::vector<ObstaclePoint>& sensed) {
    AgentState& a = agents[i];
    const double clearance = sense(i, sensed);
    if (clearance < kFar) a.metrics.min_clearance = std::min(a.metrics.min_clearance, clearance);
    const bool colliding = clearance < -1e-9;
    if (colliding && !a.colliding) ++a.metrics.collisions;
    if (colliding) a.metrics.collision_time += spec.dt;
    a.colliding = colliding;
  }
};

World::World(WorldSpec spec) : impl_(std::make_unique<Impl>()) {
  Impl& w = *impl_;
  w.spec = std::move(spec);
  const WorldSpec& s = w.spec;
  if (!(s.dt > 0) || !std::isfinite(s.dt)) throw std::invalid_argument("dt must be > 0");
  if (!(s.time_limit > 0) || !std::isfinite(s.time_limit)) {
    throw std::invalid_argument("time_limit must be > 0");
  }
  for (const Obstacle& o : s.obstacles) {
    if (const auto e = o.validate()) throw std::invalid_argument(*e);
  }
  for (const AgentSpec& a : s.agents) {
    const std::string who = "agent " + std::to_string(a.id) + ": ";
    if (!(a.radius > 0) || a.radius >= 8 || !(a.max_speed > 0) || !(a.max_accel > 0)) {
      throw std::invalid_argument(who + "needs 0 < radius < 8, max_speed > 0, max_accel > 0");
    }
    const grid::Grid& g = w.clearance_for(a.radius);
    const Vec2 goal = a.target ? target_at(*a.target, 0) : a.goal;
    for (auto [p, what] : {std::pair{a.start, "start"}, std::pair{goal, "goal"}}) {
      if (!g.passable(cell_at(p))) {
        throw std::invalid_argument(who + what + " (" + std::to_string(p.x) + ", " +
                                    std::to_string(p.y) +
                                    ") is in a wall, outside the map or too close to a wall "
                                    "for its radius");
      }
    }
  }
  w.agents.reserve(s.agents.size());
  for (const AgentSpec& a : s.agents) {
    AgentState st;
    st.spec = a;
    if (a.target) st.spec.goal = target_at(*a.target, 0);
    st.position = a.start;
    st.metrics.id = a.id;
    st.metrics.min_clearance = kFar;
    w.agents.push_back(std::move(st));
    Runtime r;
    r.clearance = &w.clearance_for(a.radius);
    r.detector =
        StallDetector(s.params.stall ? *s.params.stall : StallParams::for_step(a.max_speed * s.dt));
    w.rt.push_back(std::move(r));
  }
  for (std::size_t i = 0; i < w.agents.size(); ++i) {
    AgentState& a = w.agents[i];
    // The static optimum: the exact any-angle length on the clearance grid (Theta* on maps too
    // large for the exact reference), plus the offsets of start and goal from their centres.
    search::Options o;
    o.moves = s.moves;
    o.algorithm = w.rt[i].clearance->cells() <= 300 * 300 ? search::Algorithm::anyangle_exact
                                                          : search::Algorithm::theta;
    const auto r =
        search::Pathfinder(*w.rt[i].clearance, o).find(cell_at(a.spec.start), cell_at(a.spec.goal));
    a.metrics.optimal_length = r.status == Status::found ? r.cost / s.moves.straight_cost() : 0.0;
    const double steps = std::max(1.0, a.metrics.optimal_length / (a.spec.max_speed * s.dt));
    w.rt[i].global_limit =
        static_cast<std::uint64_t>(std::ceil(s.params.global_replan_factor * steps));
    if (a.spec.planner == PlannerKind::hybrid) w.global_replan(i, false);
  }
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

void World::step() {
  Impl& w = *impl_;
  if (finished()) return;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<ObstaclePoint> sensed;
  for (std::size_t i = 0; i < w.agents.size(); ++i) w.step_agent(i, sensed);
  w.t += w.spec.dt;
  ++w.ticks;
  for (std::size_t i = 0; i < w.agents.size(); ++i) {
    if (!w.agents[i].arrived) w.agents[i].metrics.time = w.t;
    w.account(i, sensed);
  }
  w.tick_us.push_back(
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
}

void World::run() {
  while (!finished()) step();
}

bool World::finished() const noexcept {
  const Impl& w = *impl_;
  if (w.t >= w.spec.time_limit - 1e-9) return true;
  return std::all_of(w.agents.begin(), w.agents.end(),
                     [](const AgentState& a) { return a.arrived; });
}

double World::time() const noexcept {
  return impl_->t;
}
std::uint64_t World::ticks() const noexcept {
  return impl_->ticks;
}
const std::vector<AgentState>& World::agents() const noexcept {
  return impl_->agents;
}
const WorldSpec& World::spec() const noexcept {
  return impl_->spec;
}
const std::vector<double>& World::tick_us() const noexcept {
  return impl_->tick_us;
}

}  // namespace pathlab::agents
