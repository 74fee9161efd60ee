// The simulation world and its planners (see world.hpp). Walls are hard: an agent slides along
// them and never enters one. Dynamic obstacles and other agents are soft: the motion model does
// not stop an agent from running into them, so overlaps are the planners' failures and are
// counted as collisions. Every planner but apf decides its steps so that it never walks into
// another agent (clear_fraction); moving obstacles it can only dodge.
#include <pathlab/agents/world.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <pathlab/agents/dstar_lite.hpp>
#include <pathlab/agents/geometry.hpp>
#include <pathlab/agents/orca.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "hex_body.hpp"

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
    case PlannerKind::flow:
      return "flow";
  }
  return "?";
}

std::optional<PlannerKind> parse_planner(std::string_view s) noexcept {
  if (s == "hybrid") return PlannerKind::hybrid;
  if (s == "apf") return PlannerKind::apf;
  if (s == "replan") return PlannerKind::replan;
  if (s == "dstar") return PlannerKind::dstar;
  if (s == "flow") return PlannerKind::flow;
  return std::nullopt;
}

namespace {

constexpr double kFar = 1e9;

/// The map's geometry: square cells ((x, y) is the unit square [x, x+1] x [y, y+1]) or hexes
/// in hex units (grid::hex::centre: neighbouring centres 1 apart).
struct Geometry {
  grid::Layout layout = grid::Layout::square;
  bool hex = false;

  /// The cell containing p: on hex maps the hex whose centre is nearest (ties: the lower row or
  /// column first), which is the hex containing p.
  [[nodiscard]] Cell cell_at(Vec2 p) const noexcept {
    if (!hex) {
      return {static_cast<std::int32_t>(std::floor(p.x)),
              static_cast<std::int32_t>(std::floor(p.y))};
    }
    // The containing hex's centre is within kCorner of p across its rows (pointy) or columns
    // (flat), which are kRow apart: one of the two lines bracketing p.
    const bool pointy = grid::hex::pointy(layout);
    const double across = pointy ? p.y : p.x, along = pointy ? p.x : p.y;
    const int line0 = static_cast<int>(std::floor((across - grid::hex::kCorner) / kRow));
    Cell best{0, 0};
    double best_d = kFar;
    for (int line = line0; line <= line0 + 1; ++line) {
      const Point c0 =
          pointy ? grid::hex::centre(layout, 0, line) : grid::hex::centre(layout, line, 0);
      const double off = pointy ? c0.x : c0.y;  // the line's first centre, along it
      const auto k = static_cast<std::int32_t>(std::floor(along - off + 0.5));
      const Cell c = pointy ? Cell{k, line} : Cell{line, k};
      const double d = norm(centre_of(c) - p);
      if (d < best_d) {
        best_d = d;
        best = c;
      }
    }
    return best;
  }

  [[nodiscard]] Vec2 centre_of(Cell c) const noexcept {
    if (!hex) return {c.x + 0.5, c.y + 0.5};
    return Vec2(grid::hex::centre(layout, c.x, c.y));
  }

  /// The cells (in bounds or not) that may overlap the box [lo, hi] (and a few more).
  struct Range {
    int x0, x1, y0, y1;
  };
  [[nodiscard]] Range cells_in(Vec2 lo, Vec2 hi) const noexcept {
    if (!hex) {
      return {static_cast<int>(std::floor(lo.x)), static_cast<int>(std::floor(hi.x)),
              static_cast<int>(std::floor(lo.y)), static_cast<int>(std::floor(hi.y))};
    }
    // Hexes span kCorner about their centre across the lines, 0.5 (+ a half shift) along.
    const bool pointy = grid::hex::pointy(layout);
    auto lines = [](double a, double b) {
      return std::pair{static_cast<int>(std::floor((a - 2 * grid::hex::kCorner) / kRow)),
                       static_cast<int>(std::ceil(b / kRow))};
    };
    auto along = [](double a, double b) {
      return std::pair{static_cast<int>(std::floor(a - 1.5)), static_cast<int>(std::ceil(b))};
    };
    const auto ly = pointy ? lines(lo.y, hi.y) : along(lo.y, hi.y);
    const auto lx = pointy ? along(lo.x, hi.x) : lines(lo.x, hi.x);
    return {lx.first, lx.second, ly.first, ly.second};
  }

  /// The nearest point of cell (x, y)'s square or hexagon to p (see nearest_on_cell).
  [[nodiscard]] NearestPoint nearest_on(Vec2 p, int x, int y) const noexcept {
    if (!hex) return nearest_on_cell(p, {x, y});
    return detail::nearest_on_hexagon(layout, p, x, y);
  }

  static constexpr double kRow = 0.86602540378443865;  // sqrt(3) / 2: hex rows apart
};

/// Per-agent runtime state that the public AgentState does not show.
struct Runtime {
  const grid::Grid* clearance = nullptr;
  StallDetector detector;
  std::uint64_t ticks_since_global = 0;
  std::uint64_t global_limit = 0;
  std::unique_ptr<DStarLite> dstar;   ///< dstar planner: its belief of the map and its plan
  std::vector<Cell> dynamic_blocked;  ///< dstar: cells it currently believes blocked by obstacles
  std::unordered_map<std::uint32_t, double> memory;  ///< cell id -> when a still obstacle was seen
  Cell dstar_goal{-1, -1};
  std::optional<Vec2> driven;          ///< chase target driven by hand (drive_target): its velocity
  int ticks_since_sighting = 1 << 20;  ///< since the look-out last made it replan
  std::vector<Vec2> target_track;      ///< chase: the target's position at each tick so far
  int flow = -1;                       ///< flow planner: its group (World::Impl::flows)
  double best_along = 1e300;           ///< flow planner: the least distance along its field so far
  int still_ticks = 0;                 ///< flow planner: ticks since best_along last dropped
};

/// Flow agents with one goal cell and one radius: their shared field and arrival area.
struct FlowGroup {
  Cell goal;
  double radius = 0;
  flow::Field field;          ///< the whole map's field (maps up to sector_from cells)
  flow::SectorField sectors;  ///< bigger maps: built sector by sector where its agents go
  bool sectored = false;
  int members = 0;
  double arrive = 0;        ///< arrival distance along the field, in cells
  std::uint64_t epoch = 0;  ///< counts the changes of the field (a sectored corridor grows)

  [[nodiscard]] double distance(Cell c) const noexcept {
    return sectored ? sectors.distance(c) : field.distance(c);
  }
  [[nodiscard]] int direction(Cell c) const noexcept {
    return sectored ? sectors.direction(c) : field.direction(c);
  }
  /// The cell the first move from c leads to (links and hex moves included), if any.
  [[nodiscard]] std::optional<Cell> next(Cell c) const noexcept {
    return sectored ? sectors.next(c) : field.next(c);
  }
  [[nodiscard]] std::optional<Point> steer(Point p) const noexcept {
    return sectored ? sectors.steer(p) : field.steer(p);
  }
};

}  // namespace

struct World::Impl {
  WorldSpec spec;
  Geometry geo;
  [[nodiscard]] Cell cell_at(Vec2 p) const noexcept { return geo.cell_at(p); }
  [[nodiscard]] Vec2 centre_of(Cell c) const noexcept { return geo.centre_of(c); }
  /// Where a flow agent on cell c heads: the field's steer() on square maps; on hex maps the
  /// centre of the next hex (nothing on the goal's hex or where the field has no way), or where
  /// the straight way between the centres would clip a wall's corner, just past the point of
  /// the shared edge the body crosses best (detail::hex_crossing).
  [[nodiscard]] std::optional<Point> steer_from(const FlowGroup& fg, Cell c) const {
    if (!geo.hex) return fg.steer(centre(c));
    if (c == fg.goal) return std::nullopt;
    const std::optional<Cell> n = fg.next(c);
    if (!n) return std::nullopt;
    const Vec2 from = centre_of(c), to = centre_of(*n);
    if (body_fits(from, to, fg.radius)) return to.point();
    for (int d = 0; d < 6; ++d) {
      if (!(grid::hex::neighbour(geo.layout, c.x, c.y, d) == *n)) continue;
      const std::optional<Point> x = detail::hex_crossing(spec.grid, c.x, c.y, d, fg.radius);
      if (!x) break;
      // A tenth of the way between the centres past the edge: on the next hex.
      return (Vec2(*x) + (to - from) * kPastEdge).point();
    }
    return to.point();
  }
  /// A flow agent stalls when its distance along the field has not dropped for this many of
  /// its stall detector's windows.
  static constexpr int kFlowStallWindows = 3;
  /// How far past the shared edge a flow agent aims when it crosses off the line of the centres.
  static constexpr double kPastEdge = 0.1;
  /// The agent body radius's whole radius in hexes on hex maps (detail::hex_whole_radius).
  static double hex_radius(double r) { return detail::hex_whole_radius(r); }
  double t = 0;
  std::uint64_t ticks = 0;
  std::vector<AgentState> agents;
  std::vector<Runtime> rt;
  std::vector<double> tick_us;
  std::deque<std::size_t> plan_queue;  // agents waiting for a full replan, first come first served
  std::vector<char> queued;
  std::vector<FlowGroup> flows;
  /// What the neighbour queries read, by agent index, in one compact array (the AgentState is
  /// large and cold): where each agent is now, its velocity and radius, and whether it left.
  struct Hot {
    Vec2 position, velocity;
    double radius = 0;
    bool gone = false;
  };
  std::vector<Hot> hot;
  /// What a flow agent last read from its group's field, for the cell it stood on: where to
  /// head (steer depends on the cell alone) and the distance left. An agent crosses a cell in
  /// many ticks, and the field's arrays are too big to stay in cache for 10,000 agents.
  struct FlowRead {
    Cell cell{-1, -1};
    int group = -1;
    std::uint64_t epoch = 0;
    std::optional<Point> steer;
    double along = 0;
  };
  std::vector<FlowRead> flow_reads;
  const FlowRead& read_field(std::size_t i, const FlowGroup& fg, Cell c) {
    FlowRead& r = flow_reads[i];
    if (r.cell != c || r.group != rt[i].flow || r.epoch != fg.epoch) {
      r.cell = c;
      r.group = rt[i].flow;
      r.epoch = fg.epoch;
      r.steer = steer_from(fg, c);
      r.along = fg.distance(c) / spec.moves.straight_cost();
    }
    return r;
  }

  void request_global(std::size_t i) {
    rt[i].ticks_since_global = 0;
    if (queued[i]) return;
    queued[i] = 1;
    plan_queue.push_back(i);
  }
  void run_plan_queue() {
    for (int k = 0; k < spec.params.plans_per_tick && !plan_queue.empty(); ++k) {
      const std::size_t i = plan_queue.front();
      plan_queue.pop_front();
      queued[i] = 0;
      if (!agents[i].arrived) global_replan(i, true);
    }
  }
  std::map<double, grid::Grid> clearance;  // by agent radius
  std::map<double, grid::Grid> bodies;     // hex maps: by agent radius, detail::hex_body_map

  /// The map the body of an agent of `radius` walks on: on hex maps with a wall on every hex
  /// edge it cannot cross (detail::hex_body_map), so that its plans and fields go only where
  /// it fits; the map itself on square maps.
  const grid::Grid& body_map(double radius) {
    if (!geo.hex) return spec.grid;
    auto it = bodies.find(radius);
    if (it == bodies.end())
      it = bodies.emplace(radius, detail::hex_body_map(spec.grid, radius)).first;
    return it->second;
  }

  // Spatial hash of the agents, rebuilt at the start of each tick: square buckets in a
  // compressed layout (the agents of bucket k are items[start[k] .. start[k+1])). Agents move at
  // most max_step during a tick, so queries widen their range by that much.
  double bucket = 4;
  int bw = 1, bh = 1;
  double max_radius = 0, max_step = 0;
  std::vector<std::uint32_t> bucket_start, bucket_items;

  int bucket_of(double v, int n) const noexcept {
    const int b = static_cast<int>(std::floor(v / bucket));
    return std::clamp(b, 0, n - 1);
  }
  void rebuild_hash() {
    bucket_start.assign(static_cast<std::size_t>(bw) * static_cast<std::size_t>(bh) + 1, 0);
    bucket_items.resize(agents.size());
    auto key = [&](const AgentState& a) {
      return static_cast<std::size_t>(bucket_of(a.position.y, bh)) * static_cast<std::size_t>(bw) +
             static_cast<std::size_t>(bucket_of(a.position.x, bw));
    };
    for (const AgentState& a : agents) ++bucket_start[key(a) + 1];
    for (std::size_t k = 1; k < bucket_start.size(); ++k) bucket_start[k] += bucket_start[k - 1];
    std::vector<std::uint32_t> fill(bucket_start.begin(), bucket_start.end() - 1);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      bucket_items[fill[key(agents[i])]++] = static_cast<std::uint32_t>(i);
    }
  }
  /// Calls f(j) for every agent j that may be within `range` of p (and some farther).
  template <class F>
  void for_agents_near(Vec2 p, double range, F&& f) const {
    const double reach = range + max_radius + 2 * max_step;
    const int x0 = bucket_of(p.x - reach, bw), x1 = bucket_of(p.x + reach, bw);
    const int y0 = bucket_of(p.y - reach, bh), y1 = bucket_of(p.y + reach, bh);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const std::size_t k = static_cast<std::size_t>(y) * static_cast<std::size_t>(bw) +
                              static_cast<std::size_t>(x);
        for (std::uint32_t q = bucket_start[k]; q < bucket_start[k + 1]; ++q) f(bucket_items[q]);
      }
    }
  }

  const grid::Grid& clearance_for(double radius) {
    auto it = clearance.find(radius);
    if (it == clearance.end()) {
      if (geo.hex) {
        // The view of a unit of whole radius k hexes that may enter every class but walls.
        grid::Unit u;
        u.cost.fill(1.0f);
        u.radius = hex_radius(radius);
        it = clearance.emplace(radius, *body_map(radius).view(u)).first;
      } else {
        it = clearance.emplace(radius, spec.grid.with_clearance(radius)).first;
      }
    }
    return it->second;
  }

  /// The cells that sensed obstacles (and other agents) within `range` of agent i's disc cover,
  /// inflated by its radius: an agent centred there would touch them. Its own cell and its
  /// goal's are never listed.
  std::vector<Cell> covered_cells(std::size_t i, double range) {
    const AgentState& a = agents[i];
    Runtime& r = rt[i];
    const grid::Grid& g = *r.clearance;
    const Cell here = cell_at(a.position), goal = cell_at(a.spec.goal);
    std::vector<Cell> out;
    bool remember = false;  // set while covering an obstacle that stands still
    auto cover = [&](auto&& distance_to, Vec2 centre, double extent) {
      const double reach = extent + a.spec.radius + 1;
      const Vec2 span{reach, reach};
      const Geometry::Range box = geo.cells_in(centre - span, centre + span);
      const int x0 = box.x0, x1 = box.x1, y0 = box.y0, y1 = box.y1;
      for (int y = std::max(0, y0); y <= std::min(g.height() - 1, y1); ++y) {
        for (int x = std::max(0, x0); x <= std::min(g.width() - 1, x1); ++x) {
          const Cell c{x, y};
          if (c == here || c == goal || !g.passable(c)) continue;
          // The cell's centre closer than radius + half a cell: an agent there would touch.
          if (distance_to(centre_of(c)) < a.spec.radius + 0.5) {
            out.push_back(c);
            if (remember) r.memory[static_cast<std::uint32_t>(g.id(c))] = t;
          }
        }
      }
    };
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      if (o.nearest(a.position, t).distance - a.spec.radius > range) continue;
      const double extent = o.extent();
      const Vec2 v = o.velocity(t);
      remember = v.x == 0 && v.y == 0;
      cover([&](Vec2 p) { return std::max(0.0, o.nearest(p, t).distance); }, o.position(t), extent);
    }
    remember = false;
    // Still obstacles seen in the last `memory` seconds stay in the plan even out of range, so
    // that an agent that walked away from one does not plan back into it.
    for (auto it = r.memory.begin(); it != r.memory.end();) {
      if (t - it->second > spec.params.memory) {
        it = r.memory.erase(it);
        continue;
      }
      const Cell c = g.cell(it->first);
      if (!(c == here) && !(c == goal)) out.push_back(c);
      ++it;
    }
    for_agents_near(a.position, range + a.spec.radius, [&](std::size_t j) {
      if (j == i || agents[j].arrived) return;
      const AgentState& b = agents[j];
      if (norm(b.position - a.position) - b.spec.radius - a.spec.radius > range) return;
      cover([&](Vec2 p) { return std::max(0.0, norm(p - b.position) - b.spec.radius); }, b.position,
            b.spec.radius);
    });
    std::sort(out.begin(), out.end(),
              [](Cell p, Cell q) { return p.y != q.y ? p.y < q.y : p.x < q.x; });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// The agent's clearance grid with covered_cells() blocked: what a local or per-tick plan
  /// avoids.
  grid::Grid blocked_grid(std::size_t i, double range) {
    grid::Grid g = *rt[i].clearance;
    for (const Cell c : covered_cells(i, range)) g.set_blocked(c, true);
    return g;
  }

  /// A* on g from the agent's cell to `to`, smoothed: the waypoints after the agent's cell, with
  /// `final_point` in place of the last cell's centre. Empty when there is no path.
  std::vector<Vec2> plan_on(std::size_t i, const grid::Grid& g, Vec2 from, Cell to,
                            Vec2 final_point) {
    search::Options o;
    o.moves = spec.moves;
    search::Pathfinder finder(g, o);
    const Cell start = cell_at(from);
    if (!g.passable(start) || !g.passable(to)) return {};
    const search::Result r = finder.find(start, to);
    if (r.status != Status::found) return {};
    std::vector<Vec2> out;
    // The first waypoint is seen from where the agent really is, not from its cell's centre:
    // the farthest cell of the path it can go to straight (or its own centre, if not even the
    // next one); the rest is the smoothed path from there.
    std::size_t first = 0;
    while (
        first + 1 < r.path.size() &&
        clear_path(i, from, r.path[first + 1] == to ? final_point : centre_of(r.path[first + 1]))) {
      ++first;
    }
    if (first == 0 && r.path.size() > 1) out.push_back(centre_of(r.path[0]));
    const std::span<const Cell> rest(r.path.data() + first, r.path.size() - first);
    // (Hex maps: the path's own hexes. A smoothed leg between hex centres may pass a wall's
    // corner closer than the body's radius; hex to neighbouring hex never does for bodies that
    // fit the hexes' shared edges. clear_path still skips waypoints the body can go past.)
    const std::vector<Cell> w = geo.hex ? std::vector<Cell>(rest.begin(), rest.end())
                                        : post::smooth(g, spec.moves.diagonal, rest);
    for (std::size_t k = first == 0 ? 1 : 0; k < w.size(); ++k) out.push_back(centre_of(w[k]));
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
    if (const auto w = nearest_wall(a.position, range + r)) {
      const double d = w->inside ? -r : w->distance - r;
      clearance = std::min(clearance, d);
      // Walls are already kept at a distance by the A* plan on the clearance grid: they repel
      // only within wall_rho0 (the distance rescaled so the field still fades out at its edge).
      const double wr = spec.params.wall_rho0;
      if (d <= wr) out.push_back({w->point, {}, std::max(0.0, d) * range / wr});
    }
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      const NearestPoint n = o.nearest(a.position, t);
      const double d = (n.inside && n.distance >= 0 ? 0.0 : n.distance) - r;
      clearance = std::min(clearance, d);
      if (d <= range) out.push_back({n.point, o.velocity(t), std::max(0.0, d)});
    }
    for_agents_near(a.position, range + r, [&](std::size_t j) {
      if (j == i || agents[j].arrived) return;
      const AgentState& b = agents[j];
      const double centre_d = norm(a.position - b.position);
      const double d = centre_d - r - b.spec.radius;
      clearance = std::min(clearance, d);
      // Where ORCA keeps agents apart they repel only within agent_rho0, rescaled like walls;
      // the pure field (apf) has only its field, over the whole rho0.
      const bool orca = a.spec.planner != PlannerKind::apf && spec.params.avoid_horizon > 0;
      const double ar = orca ? spec.params.agent_rho0 : range;
      if (d <= ar) {
        const Vec2 towards = centre_d > 0 ? (a.position - b.position) / centre_d : Vec2{1, 0};
        out.push_back(
            {b.position + towards * b.spec.radius, b.velocity, std::max(0.0, d) * range / ar});
      }
    });
    return clearance;
  }

  /// Whether agent i, moving straight from p to q, stays clear of walls (its clearance grid's
  /// line of sight, and the edges of the band its disc sweeps) and of the dynamic obstacles present
  /// now (checked every quarter cell along the segment against the obstacle inflated by the agent's
  /// radius and the skip margin).
  bool clear_path(std::size_t i, Vec2 p, Vec2 q) const {
    const AgentState& a = agents[i];
    if (!grid::line_of_sight(*rt[i].clearance, spec.moves.diagonal, p.point(), q.point())) {
      return false;
    }
    // The band the disc sweeps, plus the margin: its centre line and its two edges see through.
    // A wall square cannot fit between lines less than a cell apart, so no wall enters the band
    // unnoticed (the round ends are the agent's own position and a waypoint).
    const Vec2 d = unit(q - p);
    const Vec2 off = Vec2{-d.y, d.x} * (a.spec.radius + spec.params.skip_margin);
    for (const Vec2 o : {off, -off}) {
      if (!grid::line_of_sight(spec.grid, grid::DiagonalRule::no_corner_cut, (p + o).point(),
                               (q + o).point())) {
        return false;
      }
    }
    const double len = norm(q - p);
    const int samples = 1 + static_cast<int>(std::ceil(len / 0.25));
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      const double extent = o.extent();
      const Vec2 c = o.position(t);
      if (norm(closest_point_on_segment(c, p, q) - c) >
          extent + a.spec.radius + spec.params.skip_margin) {
        continue;
      }
      // Already too close at p (pushed there, or the obstacle came to it): the way is clear
      // if it never takes the agent closer than it is now.
      const double reach = a.spec.radius + spec.params.skip_margin;
      const double d0 = o.nearest(p, t).distance;
      const bool inside = d0 < reach;
      for (int k = 1; k <= samples; ++k) {
        const Vec2 x = p + (q - p) * (static_cast<double>(k) / samples);
        if (inside ? o.nearest(x, t).distance < d0 - 1e-9 : o.overlaps(x, reach, t)) return false;
      }
    }
    return true;
  }

  /// Calls f(x, y) for every blocked square (a wall, or outside the map) in the box of
  /// half-side `reach` about p, until f returns false; whether it went through the whole box.
  template <class F>
  bool each_wall_near(Vec2 p, double reach, F&& f) const {
    const Vec2 span{reach, reach};
    const Geometry::Range box = geo.cells_in(p - span, p + span);
    const int x0 = box.x0, x1 = box.x1, y0 = box.y0, y1 = box.y1;
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        if (!spec.grid.passable(x, y) && !f(x, y)) return false;
      }
    }
    return true;
  }
  /// Whether every square within the box of half-side `reach` about p is free (then no wall
  /// is nearer than reach): the quick test before the exact nearest_wall_point.
  bool box_free(Vec2 p, double reach) const noexcept {
    if (geo.hex) {  // only the hexes that reach into the disc (the box is a loose bound)
      return each_wall_near(p, reach, [&](int x, int y) {
        return norm(centre_of({x, y}) - p) >= reach + grid::hex::kCorner;
      });
    }
    return each_wall_near(p, reach, [](int, int) { return false; });
  }
  /// Whether a disc of radius r moved straight from p to q stays off the walls (sampled every
  /// tenth of a cell).
  bool body_fits(Vec2 p, Vec2 q, double r) const {
    const double len = norm(q - p);
    const int samples = 1 + static_cast<int>(std::ceil(len / 0.1));
    for (int k = 0; k <= samples; ++k) {
      const Vec2 x = p + (q - p) * (static_cast<double>(k) / samples);
      if (box_free(x, r)) continue;
      const auto w = nearest_wall(x, r);
      if (w && (w->inside || w->distance < r)) return false;
    }
    return true;
  }
  /// nearest_wall_point on the map's geometry: on hex maps the nearest point of a wall hexagon
  /// (the outside counting as walls) within max_dist, {p, 0, inside} when p is in one.
  std::optional<NearestPoint> nearest_wall(Vec2 p, double max_dist) const {
    if (!geo.hex) return nearest_wall_point(spec.grid, p, max_dist);
    if (!(max_dist >= 0) || !std::isfinite(max_dist) || !std::isfinite(p.x) ||
        !std::isfinite(p.y)) {
      return std::nullopt;
    }
    if (!spec.grid.passable(cell_at(p))) return NearestPoint{p, 0, true};
    std::optional<NearestPoint> best;
    each_wall_near(p, max_dist, [&](int x, int y) {
      const NearestPoint n = geo.nearest_on(p, x, y);
      if (n.inside) {
        best = NearestPoint{p, 0, true};
        return false;
      }
      if (n.distance <= max_dist && (!best || n.distance < best->distance)) best = n;
      return true;
    });
    return best;
  }

  /// Agents keep this much more than touching distance when they decide their step (cells).
  static constexpr double kClearMargin = 1e-6;

  /// The largest fraction t in [0, 1] of the step d that keeps agent i's disc off every other
  /// agent's disc where that agent is now. Agents move one after another within a tick, so
  /// planners that take no more than this never overlap one another: every planner but apf
  /// (the baseline, which has only its field) decides its step so.
  double clear_fraction(std::size_t i, Vec2 d) const {
    const AgentState& a = agents[i];
    const double len = norm(d);
    if (len == 0 || a.spec.planner == PlannerKind::apf) return 1;
    double t = 1;
    for_agents_near(a.position, len + a.spec.radius + kClearMargin, [&](std::size_t j) {
      const Hot& b = hot[j];
      if (j == i || b.gone) return;
      const double reach = a.spec.radius + b.radius + kClearMargin;
      const Vec2 w = a.position - b.position;
      // |w + s d|^2 >= reach^2 for every s in [0, t].
      const double qa = dot(d, d), qb = 2 * dot(w, d), qc = dot(w, w) - reach * reach;
      if (qb >= 0) return;  // moving apart (or sideways): no closer than now
      if (qc <= 0) {        // already within the margin: no step closer
        t = 0;
        return;
      }
      const double disc = qb * qb - 4 * qa * qc;
      if (disc <= 0) return;
      const double s1 = (-qb - std::sqrt(disc)) / (2 * qa);
      t = std::clamp(s1, 0.0, t);
    });
    return t;
  }

  /// Moves agent i with velocity v for one step; walls are hard (slide along them, else stop),
  /// and the step is cut short where it would touch another agent (clear_fraction).
  void move(std::size_t i, Vec2 v) {
    AgentState& a = agents[i];
    const double r = a.spec.radius, dt = spec.dt;
    auto free_at = [&](Vec2 p) {
      if (box_free(p, r)) return true;
      const auto w = nearest_wall(p, r);
      return !w || (!w->inside && w->distance >= r);
    };
    Vec2 step{};
    if (free_at(a.position + v * dt)) {
      step = v * dt;
    } else {
      const Vec2 along_x{v.x * dt, 0}, along_y{0, v.y * dt};
      if (std::abs(v.x) >= std::abs(v.y) && free_at(a.position + along_x)) {
        step = along_x;
      } else if (free_at(a.position + along_y)) {
        step = along_y;
      } else if (free_at(a.position + along_x)) {
        step = along_x;
      }
    }
    step = step * clear_fraction(i, step);
    a.position += step;
    a.velocity = step / dt;
    hot[i].position = a.position;
    hot[i].velocity = a.velocity;
  }

  Vec2 limit(Vec2 v, double max) const {
    const double n = norm(v);
    return n > max ? v * (max / n) : v;
  }

  /// A full plan to the goal around what the agent senses within `range` (rho0 + 2 cells by
  /// default) and the still obstacles it remembers.
  void global_replan(std::size_t i, bool count, double range = -1) {
    AgentState& a = agents[i];
    const grid::Grid g = blocked_grid(i, range >= 0 ? range : spec.params.field.rho0 + 2);
    std::vector<Vec2> plan = plan_on(i, g, a.position, cell_at(a.spec.goal), a.spec.goal);
    if (plan.empty())
      plan = plan_on(i, *rt[i].clearance, a.position, cell_at(a.spec.goal), a.spec.goal);
    if (plan.empty()) plan = {a.spec.goal};
    a.plan = std::move(plan);
    a.subgoal = 0;
    rt[i].ticks_since_global = 0;
    if (count) ++a.metrics.global_replans;
  }

  void local_replan(std::size_t i, double range) {
    AgentState& a = agents[i];
    ++a.metrics.local_replans;
    const Vec2 target = a.plan[a.subgoal];
    const grid::Grid g = blocked_grid(i, range);
    std::vector<Vec2> local = plan_on(i, g, a.position, cell_at(target), target);
    if (local.empty()) {
      request_global(i);
      return;
    }
    // The local detour, then the rest of the plan after the sub-goal.
    local.insert(local.end(), a.plan.begin() + static_cast<std::ptrdiff_t>(a.subgoal) + 1,
                 a.plan.end());
    a.plan = std::move(local);
    a.subgoal = 0;
  }

  /// The hybrid's look-out: when a still obstacle within `sight` stands on the next `sight`
  /// cells of its plan it replans now (see PlannerParams::sight), at most once per stall
  /// cooldown. Returns whether it replanned.
  bool watch_for_blockers(std::size_t i) {
    AgentState& a = agents[i];
    Runtime& r = rt[i];
    const double sight = spec.params.sight;
    if (sight <= 0 || a.plan.empty()) return false;
    if (r.ticks_since_sighting < r.detector.params().cooldown) {
      ++r.ticks_since_sighting;
      return false;
    }
    sighted.clear();
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t) || !(o.velocity(t) == Vec2{})) continue;
      if (o.nearest(a.position, t).distance <= sight) sighted.push_back(&o);
    }
    if (sighted.empty()) return false;
    // Would the disc touch one of them on the stretch of the plan within sight?
    double left = sight;
    Vec2 p = a.position;
    for (std::size_t s = a.subgoal; s < a.plan.size() && left > 0; ++s) {
      const Vec2 q = a.plan[s];
      const double len = norm(q - p);
      const double part = std::min(len, left);
      const Vec2 end = len > 0 ? p + (q - p) * (part / len) : q;
      const int samples = 1 + static_cast<int>(std::ceil(part / 0.25));
      for (const Obstacle* o : sighted) {
        for (int j = 0; j <= samples; ++j) {
          const Vec2 x = p + (end - p) * (static_cast<double>(j) / samples);
          if (!o->overlaps(x, a.spec.radius, t)) continue;
          if (s == a.subgoal) {
            local_replan(i, sight);
          } else {
            global_replan(i, true, sight);
          }
          r.detector.acknowledge();
          r.ticks_since_sighting = 0;
          return true;
        }
      }
      left -= part;
      p = q;
    }
    return false;
  }
  std::vector<const Obstacle*> sighted;  // scratch

  /// ORCA against the other agents near agent i (the ones that arrived have left): the velocity
  /// nearest to `preferred` that keeps it off them for the avoidance horizon.
  Vec2 avoid_agents(std::size_t i, Vec2 preferred) {
    const AgentState& a = agents[i];
    const double horizon = spec.params.avoid_horizon;
    const double reach = 2 * a.spec.max_speed * horizon + a.spec.radius;
    neighbours.clear();
    if (a.spec.planner == PlannerKind::flow) {
      // The nearest max_neighbours within neighbour_range, nearest first (as RVO2).
      const double range = spec.params.neighbour_range;
      const auto cap = static_cast<std::size_t>(spec.params.max_neighbours);
      nearest.clear();
      for_agents_near(a.position, range, [&](std::size_t j) {
        if (j == i || hot[j].gone) return;
        const Vec2 d = hot[j].position - a.position;
        const double d2 = dot(d, d);
        if (d2 >= range * range) return;
        if (nearest.size() == cap && d2 >= nearest.back().first) return;
        auto at = std::upper_bound(nearest.begin(), nearest.end(), d2,
                                   [](double v, const auto& e) { return v < e.first; });
        nearest.insert(at, {d2, j});
        if (nearest.size() > cap) nearest.pop_back();
      });
      for (const auto& [d2, j] : nearest) {
        const Hot& b = hot[j];
        neighbours.push_back({b.position, b.velocity, b.radius, 0.5});
      }
    } else {
      for_agents_near(a.position, reach, [&](std::size_t j) {
        if (j == i || agents[j].arrived) return;
        const AgentState& b = agents[j];
        if (norm(b.position - a.position) - b.spec.radius > reach) return;
        neighbours.push_back({b.position, b.velocity, b.spec.radius, 0.5});
      });
    }
    // Obstacles that move are velocity obstacles too, with all the responsibility on the agent
    // (they do not dodge): the field alone cannot pass one that comes head-on, its push is
    // straight back. A segment or polygon counts as the disc around it.
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      const Vec2 v = o.velocity(t);
      if (v == Vec2{}) continue;
      Vec2 c = o.position(t);
      double extent = o.shape.radius;
      if (o.shape.kind != ShapeKind::disc) {  // the disc about the points' mean
        Vec2 mean;
        for (const Vec2 q : o.shape.points) mean += q;
        mean = mean / static_cast<double>(o.shape.points.size());
        extent = 0;
        for (const Vec2 q : o.shape.points) extent = std::max(extent, norm(q - mean));
        c += mean;
      }
      if (norm(c - a.position) - extent > reach) continue;
      neighbours.push_back({c, v, extent, 1.0});
    }
    // A velocity obstacle dead ahead and coming straight on is symmetric: ORCA would only slow
    // the agent down. Keep to one side (turn the preferred velocity 20° clockwise) so that it
    // passes instead.
    for (const Neighbour& n : neighbours) {
      if (n.share < 1) continue;
      const Vec2 rel = n.position - a.position;
      if (dot(unit(preferred), unit(rel)) > 0.97 && dot(n.velocity, rel) < 0) {
        constexpr double c = 0.9396926207859084, s = 0.3420201433256687;  // cos, sin 20°
        preferred = {c * preferred.x - s * preferred.y, s * preferred.x + c * preferred.y};
        break;
      }
    }
    // A skin of 0.05 cells: ORCA's half-planes are tangent to contact, and a tick's
    // discretisation alone lets discs touch (random 50-agent crowds on the 30x20 map: 41
    // overlaps in 400 agents without it, 10 with it, 2 with a 1 s horizon as well).
    const double skin = 0.05;
    // On hex maps two free hexes meet on an edge 1/sqrt(3) long: between walls at both of its
    // ends a skin would close the way for bodies that fit, so there the walls' skin ends at
    // kHexPinch (they are hard in move() anyway).
    const double wall_r = geo.hex
                              ? std::max(a.spec.radius, std::min(a.spec.radius + skin, kHexPinch))
                              : a.spec.radius + skin;
    wall_lines(i, wall_r);
    return avoid(a.position, a.velocity, a.spec.radius + skin, preferred, a.spec.max_speed,
                 neighbours, horizon, spec.dt, walls);
  }
  /// The walls near agent i as hard ORCA lines (static_line), one per wall square (or square of
  /// the outside) within reach of a step of kWallHorizon: the velocity ORCA picks is one the
  /// walls allow, so that no agent is stopped by a wall where its neighbours expected it to
  /// give way.
  static constexpr double kWallHorizon = 0.25;
  /// Just under half a hex edge, 1/(2 sqrt 3): the widest body that passes between walls at
  /// both ends of the edge two free hexes share.
  static constexpr double kHexPinch = 0.28;
  void wall_lines(std::size_t i, double r) {
    const AgentState& a = agents[i];
    walls.clear();
    const double reach = r + a.spec.max_speed * kWallHorizon;
    const Vec2 p = a.position;
    each_wall_near(p, reach, [&](int x, int y) {
      const Vec2 q =
          geo.hex ? geo.nearest_on(p, x, y).point
                  : Vec2{std::clamp(p.x, double(x), x + 1.0), std::clamp(p.y, double(y), y + 1.0)};
      if (norm(q - p) - r <= a.spec.max_speed * kWallHorizon) {
        walls.push_back(static_line(p, r, q, kWallHorizon, spec.dt));
      }
      return true;
    });
  }
  std::vector<OrcaLine> walls;                          // scratch
  std::vector<Neighbour> neighbours;                    // scratch
  std::vector<std::pair<double, std::size_t>> nearest;  // scratch: squared distance, agent

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

  /// The static optimum from agent i's start to its goal (for a chase: where the target is
  /// now): the exact any-angle length between their cells' centres on its clearance grid
  /// (Theta* on maps too large for the exact reference); 0 when there is no path.
  double static_optimum(std::size_t i) const {
    search::Pathfinder finder(*rt[i].clearance, optimum_options(i));
    return optimum_to(finder, agents[i].spec.start, agents[i].spec.goal);
  }
  search::Options optimum_options(std::size_t i) const {
    search::Options o;
    o.moves = spec.moves;
    o.algorithm = rt[i].clearance->cells() <= 300 * 300 ? search::Algorithm::anyangle_exact
                                                        : search::Algorithm::theta;
    return o;
  }
  double optimum_to(search::Pathfinder& finder, Vec2 from, Vec2 to) const {
    const auto r = finder.find(cell_at(from), cell_at(to));
    return r.status == Status::found ? r.cost / spec.moves.straight_cost() : -1.0;
  }

  /// A chaser's optimum: the shortest way to the target for an interceptor that knew where it
  /// would go — the static optimum to its position at the earliest time T (of those recorded,
  /// at most 400 looked at) that the agent could reach it by at top speed; or to where it is
  /// now when no such time came.
  double interception_optimum(std::size_t i) const {
    const AgentState& a = agents[i];
    const std::vector<Vec2>& track = rt[i].target_track;
    search::Pathfinder finder(*rt[i].clearance, optimum_options(i));
    const std::size_t stride = std::max<std::size_t>(1, track.size() / 400);
    for (std::size_t k = 0; k < track.size(); k += stride) {
      const double d = optimum_to(finder, a.spec.start, track[k]);
      if (d >= 0 && d <= a.spec.max_speed * static_cast<double>(k + 1) * spec.dt) return d;
    }
    return std::max(0.0, optimum_to(finder, a.spec.start, a.spec.goal));
  }

  /// A hand-driven target's next position: one step of `v`, sliding along walls (of the chasing
  /// agent's clearance grid, so that it stays where the agent can reach it).
  Vec2 drive(std::size_t i, Vec2 v) const {
    const grid::Grid& g = *rt[i].clearance;
    const Vec2 p = agents[i].spec.goal;
    auto free_at = [&](Vec2 q) { return g.passable(cell_at(q)); };
    for (const Vec2 q :
         {p + v * spec.dt, Vec2{p.x + v.x * spec.dt, p.y}, Vec2{p.x, p.y + v.y * spec.dt}}) {
      if (free_at(q)) return q;
    }
    return p;
  }

  /// The group of flow agents heading for the cell of `goal` with `radius`; its field is built
  /// on first use.
  int flow_group(Vec2 goal, double radius) {
    const Cell c = cell_at(goal);
    for (std::size_t k = 0; k < flows.size(); ++k) {
      if (flows[k].goal == c && flows[k].radius == radius) return static_cast<int>(k);
    }
    FlowGroup fg;
    fg.goal = c;
    fg.radius = radius;
    flow::Options o;
    o.moves = spec.moves;
    o.unit.radius = geo.hex ? hex_radius(radius) : radius;
    fg.sectored = spec.grid.cells() > spec.params.sector_from;
    const grid::Grid& map = body_map(radius);
    const auto bad = fg.sectored ? fg.sectors.build(map, std::span<const Cell>(&c, 1), o)
                                 : fg.field.build(map, std::span<const Cell>(&c, 1), o);
    if (bad) throw std::invalid_argument(*bad);
    flows.push_back(std::move(fg));
    return static_cast<int>(flows.size() - 1);
  }

  /// Sectored groups: the corridor extended over the cells of their agents that stand outside
  /// it (a unit pushed off the way, a new rally point), before anyone moves.
  void extend_sectors() {
    for (std::size_t k = 0; k < flows.size(); ++k) {
      FlowGroup& fg = flows[k];
      if (!fg.sectored) continue;
      std::vector<Cell> outside;
      for (std::size_t i = 0; i < agents.size(); ++i) {
        if (rt[i].flow != static_cast<int>(k) || agents[i].arrived) continue;
        const Cell c = cell_at(agents[i].position);
        if (!fg.sectors.in_corridor(c)) outside.push_back(c);
      }
      if (outside.empty()) continue;
      fg.sectors.require(outside);
      ++fg.epoch;
    }
  }

  /// Each group's arrival distance from the agents in it that have not arrived.
  void size_groups() {
    for (FlowGroup& f : flows) f.members = 0;
    for (std::size_t i = 0; i < agents.size(); ++i) {
      if (rt[i].flow >= 0 && !agents[i].arrived)
        ++flows[static_cast<std::size_t>(rt[i].flow)].members;
    }
    for (FlowGroup& f : flows) {
      const double s = 2 * f.radius + spec.params.arrive_gap;
      f.arrive = spec.params.goal_reach +
                 std::sqrt(std::max(0, f.members - 1) * s * s / 3.141592653589793);
    }
  }

  /// The flow planner's tick: toward the next cell of its group's field (straight at the goal
  /// where the cell sees it), ORCA against its nearest neighbours, then the move; it arrives in
  /// its group's area.
  void flow_step(std::size_t i) {
    AgentState& a = agents[i];
    const FlowGroup& fg = flows[static_cast<std::size_t>(rt[i].flow)];
    const PlannerParams& pp = spec.params;
    Vec2 target = a.spec.goal;
    if (const auto& s = read_field(i, fg, cell_at(a.position)).steer) {
      if (!(*s == centre_of(fg.goal).point())) target = Vec2(*s);
    }
    if (geo.hex && !(target == a.spec.goal) && !body_fits(a.position, target, a.spec.radius)) {
      // Off its hex's centre the straight way to the next centre can clip a wall at a corner
      // (two hexes meet on an edge only 1/sqrt(3) long): line up at the centre first.
      target = centre_of(cell_at(a.position));
    }
    Vec2 desired = unit(target - a.position) * a.spec.max_speed;
    if (a.waiting) desired = wait_velocity(i);
    a.force = desired;
    const Vec2 dv = limit(desired - a.velocity, a.spec.max_accel * spec.dt);
    Vec2 v = limit(a.velocity + dv, a.spec.max_speed);
    if (pp.avoid_horizon > 0) v = avoid_agents(i, v);
    const Vec2 before = a.position;
    move(i, v);
    a.metrics.path_length += norm(a.position - before);
    const double along = read_field(i, fg, cell_at(a.position)).along;
    if (norm(a.spec.goal - a.position) < pp.goal_reach || along <= fg.arrive) {
      a.arrived = true;
      a.waiting = false;
      a.velocity = {};
      hot[i].gone = true;
      a.metrics.arrived = true;
      a.metrics.time = t + spec.dt;
    } else if (a.waiting) {
      rt[i].still_ticks = 0;
    } else if (along < rt[i].best_along) {
      rt[i].best_along = along;
      rt[i].still_ticks = 0;
    } else if (++rt[i].still_ticks >= kFlowStallWindows * rt[i].detector.params().window) {
      // A flow agent has no plan to mend, but one whose way along its field has not shortened
      // for that long (a jam, a gap it cannot pass) says so, once for each such stretch. (The
      // stall detector's criteria cost a third of a tick in crowds of 10,000.)
      ++a.metrics.stalls;
      rt[i].still_ticks = 0;
    }
  }

  // Narrow passages, taken in turns (PlannerParams::take_turns). A free cell is narrow when its
  // row or its column of free cells (on hex maps: one of its three lines of hexes) is too short
  // for two of the widest agents side by side; the narrow cells form passages (8-connected, hex:
  // 6), and the wide free cells around a passage form its mouths, one per side. An agent whose way
  // enters a passage within kLookAhead cells claims it for the mouth it comes from; while agents
  // from one mouth are in it or about to enter, those from the others wait back from it. A mouth
  // kept waiting longer than kTurnAfter seconds gets the next turn: the owners stop entering until
  // the passage is empty.
  static constexpr int kLookAhead = 3;
  static constexpr double kTurnAfter = 8.0;
  struct Passage {
    int owner = -1;  ///< the mouth whose agents use it, -1 when free
    int turn = -1;   ///< the mouth that gets it next (waited too long), -1 for none
    int users = 0;   ///< agents inside or about to enter this tick
    std::unordered_map<int, double> waiting_since;  ///< mouth -> since when some agent waits
  };
  std::vector<int> narrow_region;  // row-major: passage id, -1 when not narrow
  std::vector<int> mouth_of;       // row-major: mouth id, -1 when not a mouth
  std::vector<Passage> passages;
  std::vector<int> entered;        // per agent: the mouth it entered its passage from, -1
  std::vector<int> ahead_passage;  // per agent this tick: the passage on its way, -1
  std::vector<int> ahead_mouth;    // ... and the mouth it comes from (-1: already inside)
  std::vector<Cell> ahead_cell;    // ... and the first narrow cell on its way

  std::size_t cell_index(Cell c) const noexcept {
    return static_cast<std::size_t>(c.y) * static_cast<std::size_t>(spec.grid.width()) +
           static_cast<std::size_t>(c.x);
  }

  void find_passages() {
    const grid::Grid& g = spec.grid;
    const int w = g.width(), h = g.height();
    double widest = 0;
    for (const AgentState& a : agents) {
      if (a.spec.planner != PlannerKind::apf) widest = std::max(widest, a.spec.radius);
    }
    const double need = 2 * (2 * widest + spec.params.arrive_gap);
    const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    // The length of the run of free cells through each cell along each axis: rows and columns
    // on square maps, the three lines of hex moves (directions 0, 1, 2 and back) on hex maps.
    const int axes = geo.hex ? 3 : 2;
    std::vector<std::vector<int>> run(static_cast<std::size_t>(axes), std::vector<int>(n, 0));
    auto step = [&](Cell c, int axis, bool back) -> Cell {
      if (geo.hex) return grid::hex::neighbour(geo.layout, c.x, c.y, back ? axis + 3 : axis);
      const int s = back ? -1 : 1;
      return axis == 0 ? Cell{c.x + s, c.y} : Cell{c.x, c.y + s};
    };
    for (int axis = 0; axis < axes; ++axis) {
      std::vector<int>& out = run[static_cast<std::size_t>(axis)];
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          // From each run's first cell, forward to its end.
          if (!g.passable(x, y) || g.passable(step({x, y}, axis, true))) continue;
          std::vector<Cell> cells;
          for (Cell c{x, y}; g.passable(c); c = step(c, axis, false)) cells.push_back(c);
          for (const Cell c : cells) out[cell_index(c)] = static_cast<int>(cells.size());
        }
      }
    }
    // The cells around c that join it in a passage or a mouth: 8 on square maps, 6 on hex.
    auto around = [&](Cell c, auto&& f) {
      for (int d = 0; d < (geo.hex ? 6 : 8); ++d) {
        f(geo.hex ? grid::hex::neighbour(geo.layout, c.x, c.y, d)
                  : Cell{c.x + grid::kDx[static_cast<std::size_t>(d)],
                         c.y + grid::kDy[static_cast<std::size_t>(d)]});
      }
    };
    narrow_region.assign(n, -1);
    mouth_of.assign(n, -1);
    passages.clear();
    std::vector<Cell> stack;
    auto is_narrow = [&](Cell c) {
      if (!g.passable(c)) return false;
      int least = run[0][cell_index(c)];
      for (int axis = 1; axis < axes; ++axis)
        least = std::min(least, run[static_cast<std::size_t>(axis)][cell_index(c)]);
      return least < need;
    };
    int mouths = 0;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (!is_narrow({x, y}) || narrow_region[cell_index({x, y})] >= 0) continue;
        const int id = static_cast<int>(passages.size());
        passages.emplace_back();
        std::vector<Cell> cells{{x, y}}, ring;
        narrow_region[cell_index({x, y})] = id;
        for (std::size_t k = 0; k < cells.size(); ++k) {
          around(cells[k], [&](Cell m) {
            if (!g.passable(m)) return;
            if (is_narrow(m)) {
              if (narrow_region[cell_index(m)] < 0) {
                narrow_region[cell_index(m)] = id;
                cells.push_back(m);
              }
            } else if (mouth_of[cell_index(m)] == -1) {
              mouth_of[cell_index(m)] = -2;  // a mouth cell, not yet labelled
              ring.push_back(m);
            }
          });
        }
        // The ring's connected parts (8-neighbours among themselves) are the mouths.
        for (const Cell r : ring) {
          if (mouth_of[cell_index(r)] != -2) continue;
          const int mouth = mouths++;
          stack.assign(1, r);
          mouth_of[cell_index(r)] = mouth;
          while (!stack.empty()) {
            const Cell c = stack.back();
            stack.pop_back();
            around(c, [&](Cell m) {
              if (!g.in_bounds(m) || mouth_of[cell_index(m)] != -2) return;
              mouth_of[cell_index(m)] = mouth;
              stack.push_back(m);
            });
          }
        }
      }
    }
  }

  /// The first narrow cell on agent i's way within kLookAhead cells, and the last wide cell
  /// before it; false when its way enters none.
  bool way_ahead(std::size_t i, Cell& first, Cell& before) const {
    const AgentState& a = agents[i];
    Cell c = cell_at(a.position);
    if (!spec.grid.in_bounds(c)) return false;
    before = c;
    if (narrow_region[cell_index(c)] >= 0) {
      first = c;
      return true;
    }
    if (a.spec.planner == PlannerKind::flow) {
      const FlowGroup& f = flows[static_cast<std::size_t>(rt[i].flow)];
      for (int k = 0; k < kLookAhead; ++k) {
        const std::optional<Cell> n = f.next(c);
        if (!n) return false;
        before = c;
        c = *n;
        if (narrow_region[cell_index(c)] >= 0) {
          first = c;
          return true;
        }
      }
      return false;
    }
    // A plan: its legs sampled every quarter cell, up to kLookAhead cells of way.
    double left = kLookAhead;
    Vec2 p = a.position;
    for (std::size_t s = a.subgoal; s < a.plan.size() && left > 0; ++s) {
      const Vec2 q = a.plan[s];
      const double len = norm(q - p);
      const int samples = static_cast<int>(std::ceil(std::min(len, left) / 0.25));
      for (int k = 1; k <= samples; ++k) {
        const Cell m = cell_at(p + (q - p) * (std::min(1.0, 0.25 * k / std::max(len, 1e-9))));
        if (!spec.grid.in_bounds(m) || m == c) continue;
        before = c;
        c = m;
        if (narrow_region[cell_index(c)] >= 0) {
          first = c;
          return true;
        }
      }
      left -= len;
      p = q;
    }
    return false;
  }

  /// Decides, before the agents move, who may use each passage this tick (see find_passages).
  void take_turns() {
    for (Passage& p : passages) p.users = 0;
    const std::size_t n = agents.size();
    ahead_passage.assign(n, -1);
    ahead_mouth.assign(n, -1);
    ahead_cell.assign(n, Cell{});
    std::vector<std::size_t> approaching;
    for (std::size_t i = 0; i < n; ++i) {
      AgentState& a = agents[i];
      a.waiting = false;
      if (a.arrived || a.spec.planner == PlannerKind::apf) continue;
      Cell first, before;
      if (!way_ahead(i, first, before)) {
        entered[i] = -1;
        continue;
      }
      const int p = narrow_region[cell_index(first)];
      ahead_passage[i] = p;
      ahead_cell[i] = first;
      if (first == cell_at(a.position)) {  // inside: it uses the passage
        Passage& q = passages[static_cast<std::size_t>(p)];
        if (q.owner < 0 && entered[i] >= 0) q.owner = entered[i];
        ++q.users;
        continue;
      }
      entered[i] = -1;
      ahead_mouth[i] = mouth_of[cell_index(before)];
      approaching.push_back(i);
    }
    for (const std::size_t i : approaching) {
      Passage& q = passages[static_cast<std::size_t>(ahead_passage[i])];
      const int m = ahead_mouth[i];
      if (m < 0) continue;  // coming in from a corner the mouths do not cover: let it be
      if (q.owner < 0 && (q.turn < 0 || q.turn == m)) {
        q.owner = m;
        q.turn = -1;
      }
      if (q.owner == m && (q.turn < 0 || q.turn == m)) {
        ++q.users;
        entered[i] = m;
        q.waiting_since.erase(m);
        continue;
      }
      agents[i].waiting = true;
      const auto [it, fresh] = q.waiting_since.emplace(m, t);
      if (!fresh && q.turn < 0 && t - it->second > kTurnAfter) q.turn = m;
    }
    for (Passage& q : passages) {
      if (q.users == 0) q.owner = -1;
    }
  }

  /// A waiting agent's velocity: back off from the passage to a cell and a half beyond its
  /// radius, then stand.
  Vec2 wait_velocity(std::size_t i) const {
    const AgentState& a = agents[i];
    const Vec2 away = a.position - centre_of(ahead_cell[i]);
    const double d = norm(away);
    const double keep = 1.5 + a.spec.radius;
    if (d >= keep || d == 0) return {};
    return unit(away) * std::min(a.spec.max_speed * 0.5, (keep - d) / spec.dt);
  }

  void step_agent(std::size_t i, std::vector<ObstaclePoint>& sensed) {
    AgentState& a = agents[i];
    Runtime& r = rt[i];
    const PlannerParams& pp = spec.params;
    if (a.arrived) return;
    if (a.spec.planner == PlannerKind::flow) {
      flow_step(i);
      return;
    }

    if (a.spec.target) {
      // Chase: the goal is where the target is now. A hybrid plan is kept while its last
      // turning point still sees the target (only its end moves) or gains a leg while its old
      // end does (the target turned a corner), and is redone otherwise.
      const Vec2 g = r.driven ? drive(i, *r.driven) : a.spec.target->position_at(t);
      r.target_track.push_back(g);
      const bool moved = !(g == a.spec.goal);
      a.spec.goal = g;
      if (moved && a.spec.planner == PlannerKind::hybrid && !a.plan.empty()) {
        const Vec2 from = a.plan.size() >= 2 ? a.plan[a.plan.size() - 2] : a.position;
        if (clear_path(i, from, g)) {
          a.plan.back() = g;
        } else if (a.plan.size() < 64 && clear_path(i, a.plan.back(), g)) {
          a.plan.push_back(g);  // the target turned a corner: one more leg, no search
        } else {
          global_replan(i, true);
        }
      }
    }
    Vec2 target = a.spec.goal;
    if (a.spec.planner == PlannerKind::dstar) dstar_step(i);
    if (a.spec.planner == PlannerKind::replan) {
      const grid::Grid g = blocked_grid(i, pp.field.rho0 + 2);
      std::vector<Vec2> plan = plan_on(i, g, a.position, cell_at(a.spec.goal), a.spec.goal);
      ++a.metrics.global_replans;
      if (!plan.empty()) a.plan = std::move(plan);
      a.subgoal = 0;
    }
    if (a.spec.planner == PlannerKind::hybrid) watch_for_blockers(i);
    if (a.spec.planner != PlannerKind::apf && !a.plan.empty()) {
      // Next sub-goal: reached within the reach distance, or skipped when the one after it is
      // already in sight (on the agent's clearance grid).
      // (The planners that steer straight at their sub-goal move on only when the next one is
      // clear of walls and obstacles for their disc; the hybrid's field handles the rest.)
      const bool field = a.spec.planner == PlannerKind::hybrid;
      while (a.subgoal + 1 < a.plan.size() &&
             ((field && norm(a.plan[a.subgoal] - a.position) < pp.subgoal_reach) ||
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
      // The field pulls toward a point at most `lookahead` along the way to the sub-goal: the
      // improved repulsion grows with ρ_g^n, and a sub-goal ten cells away would make an
      // obstacle push a hundred times harder than one near the goal.
      const Vec2 to = target - a.position;
      const double dist = norm(to);
      const Vec2 pull = pp.lookahead > 0 && dist > pp.lookahead
                            ? a.position + to * (pp.lookahead / dist)
                            : target;
      a.force = total_force(a.position, pull, a.velocity, sensed, pp.field);
      // The field's strength sets the speed only on the approach to a goal that stays put; a
      // sub-goal on the way, or a target that runs, is followed at full speed.
      const bool approach =
          !a.spec.target && (a.spec.planner == PlannerKind::apf || a.subgoal + 1 >= a.plan.size());
      desired = approach ? limit(a.force, a.spec.max_speed) : unit(a.force) * a.spec.max_speed;
    }
    if (a.waiting) desired = wait_velocity(i);
    const Vec2 dv = limit(desired - a.velocity, a.spec.max_accel * spec.dt);
    Vec2 v = limit(a.velocity + dv, a.spec.max_speed);
    if (pp.avoid_horizon > 0 && a.spec.planner != PlannerKind::apf) v = avoid_agents(i, v);
    const Vec2 before = a.position;
    move(i, v);
    a.metrics.path_length += norm(a.position - before);

    if (norm(a.spec.goal - a.position) < pp.goal_reach) {
      a.arrived = true;
      a.velocity = {};
      hot[i].gone = true;
      a.metrics.arrived = true;
      a.metrics.time = t + spec.dt;
      // A chaser is measured against an interceptor that knew the target's way.
      if (a.spec.target) a.metrics.optimal_length = interception_optimum(i);
      return;
    }
    if (a.spec.planner == PlannerKind::replan || a.spec.planner == PlannerKind::dstar) return;
    if (a.waiting) return;  // held back on purpose: neither a stall nor a reason to replan
    const StallReason stall =
        r.detector.update(a.position, a.velocity, norm(a.force), norm(a.spec.goal - a.position));
    if (stall != StallReason::none) {
      ++a.metrics.stalls;
      if (a.spec.planner == PlannerKind::hybrid) {
        local_replan(i, pp.field.rho0 + 2);
        r.detector.acknowledge();
      }
    }
    if (a.spec.planner == PlannerKind::hybrid && ++r.ticks_since_global >= r.global_limit) {
      request_global(i);
    }
  }

  /// The least distance from agent i's disc to a wall, an obstacle or another agent within
  /// kContactRange of it (kFar when none is): the collision check of crowds of flow agents,
  /// which sense nothing else.
  static constexpr double kContactRange = 0.5;
  double contact_clearance(std::size_t i) const {
    const AgentState& a = agents[i];
    const double r = a.spec.radius;
    double clearance = kFar;
    if (!box_free(a.position, kContactRange + r)) {
      if (const auto w = nearest_wall(a.position, kContactRange + r)) {
        clearance = w->inside ? -r : w->distance - r;
      }
    }
    for (const Obstacle& o : spec.obstacles) {
      if (!o.present(t)) continue;
      const NearestPoint n = o.nearest(a.position, t);
      clearance = std::min(clearance, (n.inside && n.distance >= 0 ? 0.0 : n.distance) - r);
    }
    for_agents_near(a.position, kContactRange + r, [&](std::size_t j) {
      const Hot& b = hot[j];
      if (j == i || b.gone) return;
      const double d = norm(a.position - b.position) - r - b.radius;
      if (d <= kContactRange) clearance = std::min(clearance, d);
    });
    return clearance;
  }

  void account(std::size_t i, std::vector<ObstaclePoint>& sensed) {
    AgentState& a = agents[i];
    if (a.arrived) {  // it has left the world
      a.colliding = false;
      return;
    }
    const double clearance =
        a.spec.planner == PlannerKind::flow ? contact_clearance(i) : sense(i, sensed);
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
  if (s.params.plans_per_tick < 1) throw std::invalid_argument("plans_per_tick must be >= 1");
  if (s.params.max_neighbours < 1 || !(s.params.neighbour_range > 0) ||
      !std::isfinite(s.params.neighbour_range) || !(s.params.arrive_gap >= 0) ||
      !std::isfinite(s.params.arrive_gap)) {
    throw std::invalid_argument(
        "max_neighbours must be >= 1, neighbour_range > 0 and arrive_gap >= 0");
  }
  for (const Obstacle& o : s.obstacles) {
    if (const auto e = o.validate()) throw std::invalid_argument(*e);
  }
  w.geo.layout = s.grid.layout();
  w.geo.hex = grid::is_hex(s.grid.layout());
  if (s.grid.layers() > 1 || !s.grid.links().empty()) {
    throw std::invalid_argument(
        "the simulation runs on one floor without links: agents cannot take stairs or portals");
  }
  if (s.grid.has_edge_walls()) {
    throw std::invalid_argument(
        "the simulation's bodies meet wall cells, not walls on cell edges: make the fences "
        "cells of wall");
  }
  for (const AgentSpec& a : s.agents) {
    const std::string who = "agent " + std::to_string(a.id) + ": ";
    if (!(a.radius > 0) || a.radius >= 8 || !(a.max_speed > 0) || !(a.max_accel > 0)) {
      throw std::invalid_argument(who + "needs 0 < radius < 8, max_speed > 0, max_accel > 0");
    }
    if (a.planner == PlannerKind::flow && a.target) {
      throw std::invalid_argument(who +
                                  "a flow agent follows a field to a fixed goal: it cannot chase");
    }
    const grid::Grid& g = w.clearance_for(a.radius);
    const Vec2 goal = a.target ? a.target->position_at(0) : a.goal;
    for (auto [p, what] : {std::pair{a.start, "start"}, std::pair{goal, "goal"}}) {
      if (!g.passable(w.cell_at(p))) {
        // Built with append(): g++ 12 gives a false -Wrestrict on chained operator+.
        std::string msg = who;
        msg.append(what).append(" (").append(std::to_string(p.x)).append(", ");
        msg.append(std::to_string(p.y)).append(") is in a wall, outside the map or too close ");
        msg.append("to a wall for its radius");
        throw std::invalid_argument(msg);
      }
    }
  }
  w.agents.reserve(s.agents.size());
  for (const AgentSpec& a : s.agents) {
    AgentState st;
    st.spec = a;
    if (a.target) st.spec.goal = a.target->position_at(0);
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
  // The spatial hash: buckets as wide as an agent's sensing reach.
  for (const AgentSpec& a : s.agents) {
    w.max_radius = std::max(w.max_radius, a.radius);
    w.max_step = std::max(w.max_step, a.max_speed * s.dt);
  }
  for (std::size_t i = 0; i < w.agents.size(); ++i) {
    const AgentState& a = w.agents[i];
    if (a.spec.planner == PlannerKind::flow)
      w.rt[i].flow = w.flow_group(a.spec.goal, a.spec.radius);
  }
  w.size_groups();
  w.extend_sectors();
  w.entered.assign(w.agents.size(), -1);
  if (s.params.take_turns) w.find_passages();
  // Buckets as wide as an agent's sensing reach; crowds of flow agents are dense and look only
  // at their nearest neighbours: narrower buckets.
  w.bucket = w.flows.empty() ? std::max(1.0, s.params.field.rho0 + 2 * w.max_radius + 2)
                             : std::max(1.0, s.params.neighbour_range * 0.8);
  // (The map's size in its units: hex maps are narrower or shorter than their cell counts.)
  const Point size = w.geo.hex ? grid::hex::extent(w.geo.layout, s.grid.width(), s.grid.height())
                               : Point{double(s.grid.width()), double(s.grid.height())};
  w.bw = std::max(1, static_cast<int>(std::ceil(size.x / w.bucket)));
  w.bh = std::max(1, static_cast<int>(std::ceil(size.y / w.bucket)));
  for (const AgentState& a : w.agents) {
    w.hot.push_back({a.position, a.velocity, a.spec.radius, a.arrived});
  }
  w.rebuild_hash();
  w.queued.assign(w.agents.size(), 0);
  w.flow_reads.assign(w.agents.size(), {});
  for (std::size_t i = 0; i < w.agents.size(); ++i) {
    AgentState& a = w.agents[i];
    if (w.rt[i].flow >= 0) {
      // The grid optimum from the field: no search per agent in a crowd of thousands.
      const double d =
          w.flows[static_cast<std::size_t>(w.rt[i].flow)].distance(w.cell_at(a.spec.start));
      a.metrics.optimal_length = std::isfinite(d) ? d / s.moves.straight_cost() : 0.0;
      continue;
    }
    a.metrics.optimal_length = std::max(0.0, w.static_optimum(i));
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
  w.rebuild_hash();
  w.run_plan_queue();
  w.extend_sectors();
  if (w.spec.params.take_turns && !w.passages.empty()) w.take_turns();
  // Agents move one after another in the spatial hash's order: neighbours are near in memory,
  // and near in the field, when they are near on the map.
  // The AgentState is large and visited out of index order: fetch the parts a step reads a few
  // agents ahead.
  const std::vector<std::uint32_t>& order = w.bucket_items;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k + 4 < order.size()) {
      const AgentState& next = w.agents[order[k + 4]];
      __builtin_prefetch(&next.arrived);
      __builtin_prefetch(&next.position);
      __builtin_prefetch(&next.spec.planner);
      __builtin_prefetch(&next.spec.goal);
      __builtin_prefetch(&next.metrics);
    }
    w.step_agent(order[k], sensed);
  }
  w.t += w.spec.dt;
  ++w.ticks;
  for (std::size_t i = 0; i < w.agents.size(); ++i) {
    if (!w.agents[i].arrived) w.agents[i].metrics.time = w.t;
    w.account(i, sensed);
  }
  if (finished()) {  // a chaser still running: against an interceptor too
    for (std::size_t i = 0; i < w.agents.size(); ++i) {
      AgentState& a = w.agents[i];
      if (a.spec.target && !a.arrived) a.metrics.optimal_length = w.interception_optimum(i);
    }
  }
  w.tick_us.push_back(
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
}

void World::run() {
  while (!finished()) step();
}

void World::add_obstacle(Obstacle obstacle) {
  if (const auto e = obstacle.validate()) throw std::invalid_argument(*e);
  impl_->spec.obstacles.push_back(std::move(obstacle));
}

void World::drive_target(std::size_t index, Vec2 velocity) {
  Impl& w = *impl_;
  if (index >= w.agents.size()) throw std::invalid_argument("no agent with that index");
  if (!w.agents[index].spec.target) {
    throw std::invalid_argument("agent " + std::to_string(w.agents[index].spec.id) +
                                " chases no target");
  }
  if (!std::isfinite(velocity.x) || !std::isfinite(velocity.y)) {
    throw std::invalid_argument("the target's velocity must be finite");
  }
  w.rt[index].driven = velocity;
}

const flow::Field* World::field_of(std::size_t index) const noexcept {
  const Impl& w = *impl_;
  if (index >= w.rt.size() || w.rt[index].flow < 0) return nullptr;
  const FlowGroup& fg = w.flows[static_cast<std::size_t>(w.rt[index].flow)];
  return fg.sectored ? nullptr : &fg.field;
}

const flow::SectorField* World::sectors_of(std::size_t index) const noexcept {
  const Impl& w = *impl_;
  if (index >= w.rt.size() || w.rt[index].flow < 0) return nullptr;
  const FlowGroup& fg = w.flows[static_cast<std::size_t>(w.rt[index].flow)];
  return fg.sectored ? &fg.sectors : nullptr;
}

void World::set_goal(std::span<const std::size_t> indices, Vec2 goal) {
  Impl& w = *impl_;
  for (const std::size_t i : indices) {
    if (i >= w.agents.size()) throw std::invalid_argument("no agent with that index");
    const AgentState& a = w.agents[i];
    if (a.spec.planner != PlannerKind::flow || a.arrived) continue;
    if (!std::isfinite(goal.x) || !std::isfinite(goal.y) ||
        !w.clearance_for(a.spec.radius).passable(w.cell_at(goal))) {
      throw std::invalid_argument("agent " + std::to_string(a.spec.id) +
                                  ": the goal is in a wall, outside the map or too close to a "
                                  "wall for its radius");
    }
  }
  for (const std::size_t i : indices) {
    AgentState& a = w.agents[i];
    if (a.spec.planner != PlannerKind::flow || a.arrived) continue;
    w.rt[i].flow = w.flow_group(goal, a.spec.radius);
    w.rt[i].best_along = 1e300;  // a new field: progress counts afresh
    w.rt[i].still_ticks = 0;
    a.spec.goal = goal;
  }
  w.size_groups();
  w.extend_sectors();
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
