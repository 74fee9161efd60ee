// Crowds for benchmarks and stress tests: many agents with random starts and goals on one map,
// deterministic for a seed.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pathlab/agents/world.hpp>

namespace pathlab::agents {

/// A world of `n` agents shaped like `like` (radius, speed, acceleration, planner; ids 1..n),
/// each with a start and a goal drawn at random (seeded) among the cells its clearance grid
/// leaves free, goal in the start's connected component, no two starts and no two goals in
/// one cell.
/// With `groups` K > 0 the agents form K groups instead (agent i in group i mod K), each
/// sharing one goal drawn at random, every start in its goal's connected component.
/// Throws std::invalid_argument when the map has no room for them.
[[nodiscard]] WorldSpec make_crowd(const grid::Grid& grid, std::size_t n, std::uint64_t seed,
                                   const AgentSpec& like, double time_limit = 60,
                                   std::size_t groups = 0);

}  // namespace pathlab::agents
