// Artificial potential field of docs/ALGORITHMS.md ("Potential fields"): attraction to the
// current sub-goal plus the improved repulsion of Ge & Cui (2000), weighted per obstacle by a
// direction-dependent coefficient (the "threat factor" β). Map units: cells.
//
// Notation: x agent, x_g sub-goal, x_o nearest obstacle point; ρ = |x − x_o|, ρ_g = |x − x_g|;
// n_OR = unit(x − x_o) (obstacle → agent), n_RG = unit(x_g − x) (agent → goal); ρ0 influence
// distance.
//   U_att = ½ k ρ_g²                               F_att = k ρ_g n_RG
//   U_rep = ½ η (1/ρ − 1/ρ0)² ρ_g^n  (ρ ≤ ρ0; else 0)
//   F_rep = F_rep1 n_OR + F_rep2 n_RG,  F_rep1 = η (1/ρ − 1/ρ0) ρ_g^n / ρ²,
//                                       F_rep2 = (n/2) η (1/ρ − 1/ρ0)² ρ_g^(n−1)
//   C_fr  = 1 + (β − 1)(1 − cos θ)/2,  θ = angle(heading, n_OR)  (β dead ahead, 1 behind)
//   F     = F_att + Σ_i C_fr,i F_rep,i
// For ρ ≥ min_rho (and ρ_g > 0 when n < 1) F_att = −∇U_att and F_rep = −∇U_rep exactly.
//
// Decisions where the definitions are silent:
//  * ρ is an input: by default ρ = |x − x_o|, but a caller measuring from an agent disc's edge
//    passes its own ρ (ObstaclePoint::rho / the rho overloads); n_OR is always unit(x − x_o).
//  * ρ → 0 guard: ρ is clamped to min_rho in both U_rep and F_rep, so U_rep and |F_rep| are
//    capped at their values at ρ = min_rho (finite, no NaN). Below min_rho the force is no longer
//    the gradient of the (flat) clamped potential; that is intended (a bounded push out).
//  * x == x_o: n_OR is undefined and taken as the zero vector, so only the F_rep2 term remains.
//  * x == x_g: n_RG is the zero vector; F_att = 0 and F_rep2 = 0 (for n < 1 ρ_g^(n−1) would be
//    infinite; its direction is undefined, so the term is dropped rather than produce NaN).
//  * ρ exactly ρ0 is inside the influence region (ρ ≤ ρ0) but every term is 0 there anyway.
//  * Zero heading (agent at rest) or zero n_OR: C_fr = β, the conservative choice — an agent
//    that cannot tell where it is going treats every nearby obstacle as dead ahead.
//  * Moving obstacles: C_fr uses the relative velocity v_agent − v_obstacle, so pass the agent's
//    velocity (cells/s) as `heading` when obstacles move; for static obstacles (velocity 0) only
//    the heading's direction matters.
#pragma once

#include <optional>
#include <span>

#include <pathlab/agents/vec2.hpp>

namespace pathlab::agents {

/// The field's gains and distances, named as in the formulas of potential_field.hpp.
struct FieldParams {
  double k = 1;     ///< attraction gain
  double eta = 1;   ///< repulsion gain η
  double rho0 = 2;  ///< influence distance ρ0 (cells)
  double n = 2;     ///< goal-distance exponent of the improved repulsion (n = 2: vanishes at goal)
  double beta = 3;  ///< threat factor β >= 1 (C_fr dead ahead)
  /// ρ is clamped to at least this (cells): caps |F_rep| near contact. 0.05 = half a default step
  /// (2 cells/s · 0.05 s); with the other defaults F_rep1 ≤ 19.5 · ρ_g² / 0.0025 = 7800 ρ_g².
  double min_rho = 0.05;
};

/// One obstacle seen by the agent: its nearest point x_o and its velocity (zero if static).
struct ObstaclePoint {
  Vec2 point;       ///< x_o, the obstacle's point nearest to the agent (cells)
  Vec2 velocity{};  ///< the obstacle's velocity (cells/s); zero for walls and still obstacles
  /// ρ override (e.g. measured from the agent's disc edge); nullopt = |x − point|.
  std::optional<double> rho{};
};

/// ½ k ρ_g².
[[nodiscard]] double attraction_potential(Vec2 x, Vec2 goal, const FieldParams& p) noexcept;
/// k ρ_g n_RG = k (goal − x).
[[nodiscard]] Vec2 attraction(Vec2 x, Vec2 goal, const FieldParams& p) noexcept;

/// ½ η (1/ρ − 1/ρ0)² ρ_g^n for ρ ≤ ρ0, else 0; ρ = max(|x − x_o|, min_rho).
[[nodiscard]] double repulsion_potential(Vec2 x, Vec2 goal, Vec2 obstacle_point,
                                         const FieldParams& p) noexcept;
/// Same with an explicit ρ (clamped to min_rho).
[[nodiscard]] double repulsion_potential(Vec2 x, Vec2 goal, double rho,
                                         const FieldParams& p) noexcept;

/// The two terms of the improved repulsion (magnitudes along n_OR and n_RG).
struct RepulsionTerms {
  double rep1 = 0;  ///< F_rep1, along n_OR
  double rep2 = 0;  ///< F_rep2, along n_RG
};
/// F_rep1 and F_rep2 for distance rho (clamped to min_rho) and goal distance rho_g; 0 beyond ρ0.
[[nodiscard]] RepulsionTerms repulsion_terms(double rho, double rho_g,
                                             const FieldParams& p) noexcept;

/// F_rep1 n_OR + F_rep2 n_RG with ρ = |x − x_o|.
[[nodiscard]] Vec2 repulsion(Vec2 x, Vec2 goal, Vec2 obstacle_point, const FieldParams& p) noexcept;
/// Same with an explicit ρ (n_OR still unit(x − x_o)).
[[nodiscard]] Vec2 repulsion(Vec2 x, Vec2 goal, Vec2 obstacle_point, double rho,
                             const FieldParams& p) noexcept;

/// C_fr = 1 + (β − 1)(1 − cos θ)/2 with θ the angle between `heading_or_relative_velocity`
/// and n_OR (β when either is the zero vector). n_OR need not be normalised.
[[nodiscard]] double direction_coefficient(Vec2 heading_or_relative_velocity, Vec2 n_or,
                                           double beta) noexcept;

/// F_att + Σ_i C_fr,i (F_rep1,i n_OR,i + F_rep2,i n_RG). `heading` is the agent's heading or
/// velocity; for an obstacle with non-zero velocity, C_fr uses heading − obstacle.velocity.
[[nodiscard]] Vec2 total_force(Vec2 x, Vec2 goal, Vec2 heading,
                               std::span<const ObstaclePoint> obstacles,
                               const FieldParams& p) noexcept;

}  // namespace pathlab::agents
