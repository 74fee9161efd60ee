// Random crowds: seeded draws (std::mt19937_64 with plain modulo, the same on every standard
// library), goals in the start's component found by one flood fill.
#include <pathlab/agents/crowd.hpp>

#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/topology.hpp>
#include <pathlab/grid/unit.hpp>

#include <cmath>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>

#include "hex_body.hpp"

namespace pathlab::agents {

WorldSpec make_crowd(const grid::Grid& grid, std::size_t n, std::uint64_t seed,
                     const AgentSpec& like, double time_limit, std::size_t groups) {
  WorldSpec s;
  s.grid = grid;
  s.time_limit = time_limit;
  // Hex maps: the World's planner grid (the view of a unit of the body's whole radius in hexes
  // that enters every class but walls, on the map with a wall on every hex edge the body cannot
  // cross: detail::hex_body_map), hex moves, positions at hex centres in hex units.
  const grid::Layout layout = grid.layout();
  const bool hex = grid::is_hex(layout);
  if (grid.layers() > 1 || !grid.links().empty()) {
    throw std::invalid_argument("crowds walk on one floor without links");
  }
  const grid::Grid clear = [&] {
    if (!hex) return grid.with_clearance(like.radius);
    grid::Unit u;
    u.cost.fill(1.0f);
    u.radius = detail::hex_whole_radius(like.radius);
    return grid::Grid(*detail::hex_body_map(grid, like.radius).view(u));
  }();
  const int w = clear.width(), h = clear.height();
  // Component labels of the free cells (4-neighbour flood fill is enough: components under
  // every diagonal rule are unions of 4-connected ones, and goals only need to be reachable).
  std::vector<int> label(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
  std::vector<std::vector<Cell>> components;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!clear.passable(x, y) || label[static_cast<std::size_t>(y) * w + x] >= 0) continue;
      const int id = static_cast<int>(components.size());
      components.emplace_back();
      std::queue<Cell> q;
      q.push({x, y});
      label[static_cast<std::size_t>(y) * w + x] = id;
      while (!q.empty()) {
        const Cell c = q.front();
        q.pop();
        components[id].push_back(c);
        auto visit = [&](Cell m) {
          if (!clear.passable(m)) return;
          int& l = label[static_cast<std::size_t>(m.y) * w + m.x];
          if (l < 0) {
            l = id;
            q.push(m);
          }
        };
        if (hex) {  // the six moves, less those across a wall on a hex edge
          grid::for_each_move<grid::DiagonalRule::never>(
              clear, clear.id(c), grid::StepBase{},
              [&](grid::NodeId m, int, double) { visit(clear.cell(m)); });
          continue;
        }
        for (const Cell d : {Cell{1, 0}, Cell{-1, 0}, Cell{0, 1}, Cell{0, -1}}) {
          visit({c.x + d.x, c.y + d.y});
        }
      }
    }
  }
  std::vector<Cell> cells;
  for (const auto& comp : components) {
    if (comp.size() >= 2) cells.insert(cells.end(), comp.begin(), comp.end());
  }
  if (cells.size() < n) {
    throw std::invalid_argument("the map has " + std::to_string(cells.size()) +
                                " usable cells for " + std::to_string(n) + " agents");
  }
  std::mt19937_64 rng(seed);
  std::vector<char> taken(label.size(), 0), taken_goal(label.size(), 0);
  auto at = [w](Cell c) {
    return static_cast<std::size_t>(c.y) * w + static_cast<std::size_t>(c.x);
  };
  // Up to 1000 seeded draws from `pool` for a cell `ok` accepts.
  auto draw = [&rng](const std::vector<Cell>& pool, auto&& ok) -> std::optional<Cell> {
    for (int attempt = 0; attempt < 1000; ++attempt) {
      const Cell c = pool[rng() % pool.size()];
      if (ok(c)) return c;
    }
    return std::nullopt;
  };
  auto add = [&](std::size_t i, Cell start, Cell goal) {
    AgentSpec a = like;
    a.id = static_cast<int>(i + 1);
    if (hex) {
      a.start = Vec2(grid::hex::centre(layout, start.x, start.y));
      a.goal = Vec2(grid::hex::centre(layout, goal.x, goal.y));
    } else {
      a.start = {start.x + 0.5, start.y + 0.5};
      a.goal = {goal.x + 0.5, goal.y + 0.5};
    }
    s.agents.push_back(a);
  };
  if (groups > 0) {
    // K shared goals (distinct cells); each agent's start in its goal's component.
    std::vector<Cell> goals;
    for (std::size_t k = 0; k < groups; ++k) {
      const auto g = draw(cells, [&](Cell c) { return !taken_goal[at(c)]; });
      if (!g) throw std::invalid_argument("no room for goal " + std::to_string(k + 1));
      taken_goal[at(*g)] = 1;
      goals.push_back(*g);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Cell goal = goals[i % groups];
      const auto& comp = components[static_cast<std::size_t>(label[at(goal)])];
      const auto start = draw(comp, [&](Cell c) { return !taken[at(c)] && !taken_goal[at(c)]; });
      if (!start) throw std::invalid_argument("no room left for agent " + std::to_string(i + 1));
      taken[at(*start)] = 1;
      add(i, *start, goal);
    }
    return s;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto start = draw(cells, [&](Cell c) { return !taken[at(c)]; });
    if (!start) throw std::invalid_argument("no room left for agent " + std::to_string(i + 1));
    // One agent per cell keeps starts at least a cell apart (>= two radii for radius <= 0.5).
    taken[at(*start)] = 1;
    const auto& comp = components[static_cast<std::size_t>(label[at(*start)])];
    // Goals distinct too, so that no two agents aim at one cell.
    const auto goal = draw(comp, [&](Cell c) { return !(c == *start) && !taken_goal[at(c)]; });
    if (!goal) throw std::invalid_argument("no goal left for agent " + std::to_string(i + 1));
    taken_goal[at(*goal)] = 1;
    add(i, *start, *goal);
  }
  return s;
}

}  // namespace pathlab::agents
