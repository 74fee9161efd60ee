// Crowds on hex maps (world.hpp, crowd.hpp): positions in hex units (grid::hex::centre), the
// cell of a point is the hex containing it, walls are hexagons. On random hex maps of every
// layout, crowds with the flow planner and with the default planner reach their goals, and every
// tick no agent's centre stands in a wall hex nor its body overlaps a wall hexagon; plans and
// fields are made of the hexes the agents stand on.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <queue>
#include <random>
#include <stdexcept>
#include <vector>

#include <pathlab/agents/crowd.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/grid/hex.hpp>

using namespace pathlab;
using namespace pathlab::agents;

// A named namespace, tests included: the agents tests build as one unity file, whose anonymous
// namespaces are shared.
namespace hex_world_test {

/// Two free hexes meet on an edge 1/sqrt(3) long: where walls stand on both of its ends, only
/// a body of radius up to 1/(2 sqrt 3) ~ 0.289 gets through. Most tests here use bodies that
/// fit every crossing; BodiesOfTheDefaultRadiusArriveWherePinchesBarThem uses wider ones.
constexpr double kFitsEveryCrossing = 0.25;

constexpr std::array<grid::Layout, 4> kLayouts = {
    grid::Layout::pointy_odd_r, grid::Layout::pointy_even_r, grid::Layout::flat_odd_q,
    grid::Layout::flat_even_q};

/// A w x h hex map of `layout` with about `density` of its hexes walls (seeded).
grid::Grid random_hex_map(grid::Layout layout, int w, int h, double density, std::uint64_t seed) {
  grid::Grid g(w, h);
  g.set_layout(layout);
  std::mt19937_64 rng(seed);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (static_cast<double>(rng() % 1000) < density * 1000) g.set_blocked(x, y, true);
    }
  }
  return g;
}

Vec2 hex_centre(grid::Layout l, Cell c) {
  return Vec2(grid::hex::centre(l, c.x, c.y));
}

/// The hex containing p, by brute force: the nearest hex centre over a generous window.
Cell hex_containing(grid::Layout l, Vec2 p) {
  Cell best{0, 0};
  double best_d = 1e18;
  // Either axis: cells step 1 (then x ~ p.x) or sqrt(3)/2 (then x ~ p.x / 0.866).
  const int x0 = static_cast<int>(std::floor(p.x)) - 3, x1 = static_cast<int>(p.x / 0.86) + 3;
  const int y0 = static_cast<int>(std::floor(p.y)) - 3, y1 = static_cast<int>(p.y / 0.86) + 3;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const double d = norm(hex_centre(l, {x, y}) - p);
      if (d < best_d) {
        best_d = d;
        best = {x, y};
      }
    }
  }
  return best;
}

/// Distance from p to the closed hexagon of cell c (0 inside).
double distance_to_hexagon(grid::Layout l, Cell c, Vec2 p) {
  const auto corners = grid::hex::corners(l, c.x, c.y);
  double d = 1e18;
  bool inside = true;
  for (std::size_t k = 0; k < 6; ++k) {
    const Vec2 a(corners[k]), b(corners[(k + 1) % 6]);
    const Vec2 ab = b - a, ap = p - a;
    const double t = std::clamp(dot(ap, ab) / dot(ab, ab), 0.0, 1.0);
    d = std::min(d, norm(p - (a + ab * t)));
    // Corners run counter-clockwise in angle (y down: clockwise on screen); all cross
    // products share one sign inside.
    if (ab.x * ap.y - ab.y * ap.x < 0) inside = false;
  }
  return inside ? 0.0 : d;
}

/// The least distance from agent a's body to a wall hexagon (or a hex outside the map).
double wall_gap(const grid::Grid& g, Vec2 p, double radius) {
  const grid::Layout l = g.layout();
  const Cell here = hex_containing(l, p);
  double least = 1e18;
  for (int y = here.y - 4; y <= here.y + 4; ++y) {
    for (int x = here.x - 4; x <= here.x + 4; ++x) {
      if (g.passable(x, y)) continue;
      least = std::min(least, distance_to_hexagon(l, {x, y}, p) - radius);
    }
  }
  return least;
}

/// Whether `to` is reachable from `from` over hex moves on the passable cells of g.
bool hex_connected(const grid::Grid& g, Cell from, Cell to) {
  const grid::Layout l = g.layout();
  const auto moves = grid::hex::offsets(l);
  std::vector<char> seen(static_cast<std::size_t>(g.width()) * g.height(), 0);
  if (!g.passable(from)) return false;
  std::queue<Cell> q;
  q.push(from);
  seen[static_cast<std::size_t>(from.y) * g.width() + from.x] = 1;
  while (!q.empty()) {
    const Cell c = q.front();
    q.pop();
    if (c == to) return true;
    for (const auto d : moves[grid::hex::odd(l, c.x, c.y) ? 1 : 0]) {
      const Cell m{c.x + d.dx, c.y + d.dy};
      if (!g.passable(m)) continue;
      char& s = seen[static_cast<std::size_t>(m.y) * g.width() + m.x];
      if (!s) {
        s = 1;
        q.push(m);
      }
    }
  }
  return false;
}

/// The agents of w that arrived; every other one must have reported a stall.
int arrived_or_stalled(const World& w, const std::string& what) {
  int arrived = 0;
  for (const AgentState& a : w.agents()) {
    if (a.arrived) {
      ++arrived;
    } else {
      EXPECT_GT(a.metrics.stalls, 0)
          << what << " agent " << a.spec.id << " neither arrived nor stalled at " << a.position.x
          << "," << a.position.y;
    }
  }
  return arrived;
}

struct Watch {
  double least_wall_gap = 1e18;
  int centre_in_wall = 0;
  int off_plan = 0;  ///< waypoints or field cells that are not the hexes the agents stand on
};

/// Runs w to the end, checking every tick.
Watch run_watching(World& w) {
  Watch out;
  const grid::Grid& g = w.spec().grid;
  const grid::Layout l = g.layout();
  while (!w.finished()) {
    w.step();
    const auto& as = w.agents();
    for (std::size_t i = 0; i < as.size(); ++i) {
      const AgentState& a = as[i];
      if (a.arrived) continue;
      const Cell c = hex_containing(l, a.position);
      if (!g.passable(c)) ++out.centre_in_wall;
      out.least_wall_gap = std::min(out.least_wall_gap, wall_gap(g, a.position, a.spec.radius));
      if (a.spec.planner == PlannerKind::flow) {
        // The field the agent follows knows the hex it stands on (a way from there).
        const flow::Field* f = w.field_of(i);
        if (f != nullptr && !std::isfinite(f->distance(c))) ++out.off_plan;
      } else {
        // Every waypoint before the goal is the centre of a free hex.
        for (std::size_t k = 0; k + 1 < a.plan.size(); ++k) {
          const Cell wc = hex_containing(l, a.plan[k]);
          if (!g.passable(wc) || norm(hex_centre(l, wc) - a.plan[k]) > 1e-9) ++out.off_plan;
        }
      }
    }
  }
  return out;
}

TEST(HexWorld, MakeCrowdPutsStartsAndGoalsOnConnectedFreeHexes) {
  for (const grid::Layout l : kLayouts) {
    const grid::Grid g = random_hex_map(l, 24, 18, 0.2, 7);
    AgentSpec like;
    for (const std::size_t groups : {std::size_t{0}, std::size_t{3}}) {
      const WorldSpec s = make_crowd(g, 30, 11, like, 60, groups);
      ASSERT_EQ(s.agents.size(), 30u);
      for (const AgentSpec& a : s.agents) {
        const Cell sc = hex_containing(l, a.start), gc = hex_containing(l, a.goal);
        EXPECT_TRUE(g.passable(sc));
        EXPECT_TRUE(g.passable(gc));
        EXPECT_LT(norm(hex_centre(l, sc) - a.start), 1e-9);
        EXPECT_LT(norm(hex_centre(l, gc) - a.goal), 1e-9);
        EXPECT_TRUE(hex_connected(g, sc, gc)) << grid::to_string(l) << " agent " << a.id;
      }
    }
  }
}

TEST(HexWorld, FlowCrowdReachesItsGoalsWithoutEnteringWalls) {
  for (const grid::Layout l : kLayouts) {
    AgentSpec like;
    like.radius = kFitsEveryCrossing;
    like.planner = PlannerKind::flow;
    WorldSpec s = make_crowd(random_hex_map(l, 30, 20, 0.15, 3), 40, 5, like, 90, 2);
    World w(s);
    const Watch watch = run_watching(w);
    EXPECT_EQ(watch.centre_in_wall, 0) << grid::to_string(l);
    EXPECT_GE(watch.least_wall_gap, -1e-6) << grid::to_string(l);
    EXPECT_EQ(watch.off_plan, 0) << grid::to_string(l);
    for (const AgentState& a : w.agents()) {
      EXPECT_TRUE(a.arrived) << grid::to_string(l) << " agent " << a.spec.id;
    }
  }
}

TEST(HexWorld, DefaultPlannerCrowdReachesItsGoalsOrReportsStalls) {
  for (const grid::Layout l : kLayouts) {
    AgentSpec like;  // the hybrid planner
    like.radius = kFitsEveryCrossing;
    WorldSpec s = make_crowd(random_hex_map(l, 30, 20, 0.15, 9), 15, 4, like, 90);
    World w(s);
    const Watch watch = run_watching(w);
    EXPECT_EQ(watch.centre_in_wall, 0) << grid::to_string(l);
    EXPECT_GE(watch.least_wall_gap, -1e-6) << grid::to_string(l);
    EXPECT_EQ(watch.off_plan, 0) << grid::to_string(l);
    EXPECT_GE(arrived_or_stalled(w, std::string(grid::to_string(l))), 13) << grid::to_string(l);
  }
}

TEST(HexWorld, WideAgentsUseTheViewOfTheirWholeRadius) {
  // Radius 1.1: a unit of radius 1 hex (fits at the centre of every hex of that view: the
  // nearest wall hexagon is 2/sqrt(3) ~ 1.155 away); it keeps its body off the walls all along.
  for (const grid::Layout l : kLayouts) {
    AgentSpec like;
    like.radius = 1.1;
    like.planner = PlannerKind::flow;
    WorldSpec s = make_crowd(random_hex_map(l, 30, 20, 0.05, 21), 6, 2, like, 90, 1);
    World w(s);
    const Watch watch = run_watching(w);
    EXPECT_EQ(watch.centre_in_wall, 0) << grid::to_string(l);
    EXPECT_GE(watch.least_wall_gap, -1e-6) << grid::to_string(l);
  }
}

TEST(HexWorld, BodiesOfTheDefaultRadiusArriveWherePinchesBarThem) {
  // Radius 0.3 does not fit between walls at both ends of a hex edge (0.289): the planners go
  // round such pinches, make_crowd pairs only hexes joined without one, and every flow agent
  // arrives (the hybrid ones arrive or report the stall).
  for (const grid::Layout l : kLayouts) {
    for (const PlannerKind p : {PlannerKind::flow, PlannerKind::hybrid, PlannerKind::dstar}) {
      AgentSpec like;
      like.radius = 0.3;
      like.planner = p;
      WorldSpec s = make_crowd(random_hex_map(l, 30, 20, 0.2, 41), 16, 4, like, 200);
      World w(s);
      const Watch watch = run_watching(w);
      EXPECT_EQ(watch.centre_in_wall, 0) << grid::to_string(l);
      EXPECT_GE(watch.least_wall_gap, -1e-6) << grid::to_string(l);
      const int arrived = arrived_or_stalled(w, std::string(grid::to_string(l)));
      if (p != PlannerKind::hybrid) {  // dstar: D* Lite on the body map, repaired each tick
        EXPECT_EQ(arrived, 16) << grid::to_string(l) << " " << to_string(p);
      } else {
        EXPECT_GE(arrived, 14) << grid::to_string(l);
      }
    }
  }
}

TEST(HexWorld, GroupsMeetingInAOneHexCorridorTakeTurns) {
  // Two rooms joined by a corridor one hex wide (a straight row of hexes, 14 long): two agents
  // cannot pass in it. With take_turns one side waits while the other goes through; everyone
  // arrives and no body touches a wall.
  for (const grid::Layout l : kLayouts) {
    const bool pointy = grid::hex::pointy(l);
    // The corridor runs along the hexes' own rows (pointy) or columns (flat).
    grid::Grid g(pointy ? 40 : 13, pointy ? 13 : 40);
    g.set_layout(l);
    for (int i = 13; i < 27; ++i) {
      for (int j = 0; j < 13; ++j) {
        if (j != 6) g.set_blocked(pointy ? i : j, pointy ? j : i, true);
      }
    }
    WorldSpec s;
    s.grid = g;
    s.time_limit = 200;
    s.params.take_turns = true;
    for (int k = 0; k < 12; ++k) {
      AgentSpec a;
      a.id = k + 1;
      a.planner = PlannerKind::flow;
      a.radius = kFitsEveryCrossing;
      const bool first = k < 6;
      const int along = first ? 2 + k % 3 : 37 - k % 3, across = 3 + (k % 6) / 3 * 6;
      const Cell from = pointy ? Cell{along, across} : Cell{across, along};
      const Cell to = pointy ? Cell{first ? 35 : 4, 6} : Cell{6, first ? 35 : 4};
      a.start = hex_centre(l, from);
      a.goal = hex_centre(l, to);
      s.agents.push_back(a);
    }
    World world(s);
    bool waited = false;
    Watch watch;
    while (!world.finished()) {
      world.step();
      for (const AgentState& a : world.agents()) {
        waited = waited || a.waiting;
        if (!a.arrived) {
          watch.least_wall_gap =
              std::min(watch.least_wall_gap, wall_gap(g, a.position, a.spec.radius));
        }
      }
    }
    int arrived = 0;
    for (const AgentState& a : world.agents()) arrived += a.metrics.arrived;
    EXPECT_EQ(arrived, 12) << grid::to_string(l) << " after " << world.time() << " s";
    EXPECT_TRUE(waited) << grid::to_string(l) << ": one side waits for the other";
    EXPECT_GE(watch.least_wall_gap, -1e-6) << grid::to_string(l);
  }
}

TEST(HexWorld, RejectsWhatItCannotDo) {
  grid::Grid g(10, 10);
  g.set_layout(grid::Layout::pointy_odd_r);
  WorldSpec s;
  s.grid = g;
  AgentSpec a;
  a.id = 1;
  a.start = hex_centre(g.layout(), {1, 1});
  a.goal = hex_centre(g.layout(), {8, 8});
  a.planner = PlannerKind::flow;
  s.agents.push_back(a);
  EXPECT_NO_THROW(World{s});
  WorldSpec layered = s;
  layered.grid = grid::Grid::layered(10, 10, 2);
  EXPECT_THROW(World{layered}, std::invalid_argument);
  WorldSpec fenced = s;  // bodies meet wall cells, not walls on edges
  fenced.grid.set_hex_edge_wall(4, 4, 0, true);
  EXPECT_THROW(World{fenced}, std::invalid_argument);
}

}  // namespace hex_world_test
