// Reciprocal collision avoidance between agents: ORCA (van den Berg, Guy, Lin, Manocha 2011),
// the "stronger anchor" of shared docs/ALGORITHMS.md. Each neighbour contributes a half-plane of
// velocities that avoid it for `horizon` seconds, each agent taking half the responsibility; the
// new velocity is the one closest to the preferred velocity inside every half-plane and the
// speed limit, found by a small 2-D linear program. When the half-planes leave no room (a dense
// crowd), the velocity that violates them least is taken instead.
#pragma once

#include <span>
#include <vector>

#include <pathlab/agents/vec2.hpp>

namespace pathlab::agents {

/// Another body an agent avoids, as orca_line() sees it.
struct Neighbour {
  Vec2 position,      ///< its centre (cells)
      velocity;       ///< its current velocity (cells/s)
  double radius = 0;  ///< its disc radius (cells)
  /// 0.5: the neighbour avoids too (another agent); 1: it does not (an obstacle that moves on
  /// its own), so this agent takes all the responsibility.
  double share = 0.5;
};

/// A half-plane of admissible velocities: those on the left of `direction` through `point`.
struct OrcaLine {
  Vec2 point,     ///< a velocity on the boundary line (cells/s)
      direction;  ///< the line's direction, a unit vector; admissible velocities lie to its left
};

/// The half-plane that keeps an agent (position p, velocity v, radius r) off a neighbour for
/// `horizon` seconds; `dt` is the time step (used once they already overlap).
[[nodiscard]] OrcaLine orca_line(Vec2 p, Vec2 v, double r, const Neighbour& n, double horizon,
                                 double dt) noexcept;

/// The velocity nearest to `preferred` with |v| <= max_speed inside every half-plane (or, when
/// none is feasible, the one that violates the others least while keeping the first `hard`
/// lines: static obstacles, as RVO2 keeps its obstacle lines).
[[nodiscard]] Vec2 orca_velocity(std::span<const OrcaLine> lines, Vec2 preferred, double max_speed,
                                 std::size_t hard = 0);

/// The half-plane that keeps an agent (position p, radius r) off a static point q (the nearest
/// point of a wall square): it may close the gap at most at gap / horizon; once inside, it
/// must leave within one step dt. The agent takes all the responsibility.
[[nodiscard]] OrcaLine static_line(Vec2 p, double r, Vec2 q, double horizon, double dt) noexcept;

/// Both steps for one agent; `hard` lines (static_line) come first and are kept.
[[nodiscard]] Vec2 avoid(Vec2 p, Vec2 v, double r, Vec2 preferred, double max_speed,
                         std::span<const Neighbour> neighbours, double horizon, double dt,
                         std::span<const OrcaLine> hard = {});

}  // namespace pathlab::agents
