// Fuzz target for flow fields and the crowds that follow them: a small grid with classes driven
// by the input, a unit, goals (many outside the map or on walls), moves and a sight range; the
// field must be refused with a message or satisfy its definition (every reachable cell that is
// not a goal points at a neighbour nearer the goal by exactly that step); steer() must take any
// point; edits must repair the field to what a fresh build gives; a few flow agents on the grid
// must step and take new goals (or refuse them with std::invalid_argument) without crashing.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <pathlab/agents/world.hpp>
#include <pathlab/flow/field.hpp>

using namespace pathlab;

namespace {

bool same(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

/// The definition, cell by cell (the grid as the unit sees it decides the step costs).
void check_field(const flow::Field& f, const grid::Grid& g, const flow::Options& o) {
  const auto view = g.view(o.unit);
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const double d = f.distance({x, y});
      const int code = f.direction({x, y});
      if (!std::isfinite(d)) {
        if (code != -1) __builtin_trap();
        continue;
      }
      if (!view->passable(x, y)) __builtin_trap();
      if (d == 0) {
        if (code != -1) __builtin_trap();
        continue;
      }
      if (code < 0 || code > 7) __builtin_trap();
      const Cell n{x + flow::kDirDx[static_cast<std::size_t>(code)],
                   y + flow::kDirDy[static_cast<std::size_t>(code)]};
      if (!grid::step_legal(*view, o.moves, {x, y}, n)) __builtin_trap();
      if (!same(grid::step_cost(*view, o.moves, {x, y}, n) + f.distance(n), d)) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::size_t at = 0;
  auto next = [&]() -> std::uint8_t { return at < size ? data[at++] : 0; };
  const int w = 1 + next() % 20, h = 1 + next() % 20;
  grid::Grid g(w, h);
  const char classes[] = {'.', '.', '.', '@', 'S', 'T', 'W', 'F'};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) g.set_class(x, y, classes[next() % 8]);
  }
  flow::Options o;
  o.unit.radius = (next() % 30) * 0.1;
  if (next() % 2) o.unit.set('T', 1.0f + next() % 4);
  if (next() % 2) o.unit.set('S', grid::Unit::forbidden);
  o.moves.diagonal = static_cast<grid::DiagonalRule>(next() % 4);
  o.moves.cost_model = static_cast<grid::CostModel>(next() % 2);
  const std::uint8_t s = next();
  o.sight_range = s == 255 ? std::numeric_limits<double>::quiet_NaN() : s % 16;
  std::vector<Cell> goals;
  const int ngoals = next() % 4;
  for (int k = 0; k < ngoals; ++k) {
    goals.push_back({static_cast<std::int8_t>(next()) % 24, static_cast<std::int8_t>(next()) % 24});
  }
  flow::Field f;
  const auto bad = f.build(g, goals, o);
  if (bad) {
    if (bad->empty() || !f.empty()) __builtin_trap();
  } else {
    check_field(f, g, o);
    for (int k = 0; k < 8; ++k) {
      const double px = (static_cast<std::int8_t>(next())) / 4.0;
      const double py = (static_cast<std::int8_t>(next())) / 4.0;
      (void)f.steer({px, py});
    }
    (void)f.steer({std::numeric_limits<double>::quiet_NaN(), 1});
    (void)f.steer({std::numeric_limits<double>::infinity(), 1});
    // Edits, repaired in place, against a fresh build around the goals still usable.
    for (int k = 0; k < 6 && at < size; ++k) {
      grid::Edit e;
      e.kind = static_cast<grid::Edit::Kind>(next() % 4);
      e.area = {next() % 22, next() % 22, next() % 22, next() % 22};
      e.cls = classes[next() % 8];
      e.cost = 1.0f + static_cast<float>(next() % 8);
      if (g.apply(e)) continue;  // outside the map: refused, nothing changed
      (void)f.update(g);
      const auto view = g.view(o.unit);
      std::vector<Cell> usable;
      for (const Cell c : goals) {
        if (view->passable(c)) usable.push_back(c);
      }
      if (usable.empty()) continue;
      flow::Field fresh;
      if (fresh.build(g, usable, o)) __builtin_trap();
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          if (!same(f.distance({x, y}), fresh.distance({x, y}))) __builtin_trap();
        }
      }
      check_field(f, g, o);
    }
  }
  // A few flow agents (radius 0.3) heading for the first goal, then a new goal from the input.
  if (goals.empty()) return 0;
  agents::WorldSpec spec;
  spec.grid = g;
  spec.time_limit = 2;
  spec.moves = o.moves;
  const int nagents = next() % 6;
  for (int k = 0; k < nagents; ++k) {
    agents::AgentSpec a;
    a.id = k + 1;
    a.planner = agents::PlannerKind::flow;
    a.start = {(next() % 24) + 0.5, (next() % 24) + 0.5};
    a.goal = {goals[0].x + 0.5, goals[0].y + 0.5};
    spec.agents.push_back(a);
  }
  try {
    agents::World world(spec);
    for (int t = 0; t < 10; ++t) world.step();
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < world.agents().size(); ++i) all.push_back(i);
    try {
      world.set_goal(all, {(static_cast<std::int8_t>(next())) / 4.0,
                           (static_cast<std::int8_t>(next())) / 4.0});
    } catch (const std::invalid_argument&) {
    }
    for (int t = 0; t < 10; ++t) world.step();
  } catch (const std::invalid_argument&) {  // agents in walls or outside: refused
  }
  return 0;
}
