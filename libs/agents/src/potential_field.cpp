#include <pathlab/agents/potential_field.hpp>

#include <algorithm>
#include <cmath>

namespace pathlab::agents {

namespace {

double clamp_rho(double rho, const FieldParams& p) noexcept {
  // NaN ρ (never expected) is treated as contact rather than propagated.
  return rho >= p.min_rho ? rho : p.min_rho;
}

}  // namespace

double attraction_potential(Vec2 x, Vec2 goal, const FieldParams& p) noexcept {
  const Vec2 d = goal - x;
  return 0.5 * p.k * dot(d, d);
}

Vec2 attraction(Vec2 x, Vec2 goal, const FieldParams& p) noexcept {
  // k ρ_g n_RG = k (x_g − x), written without normalising so it is exact at the goal.
  return (goal - x) * p.k;
}

double repulsion_potential(Vec2 x, Vec2 goal, double rho, const FieldParams& p) noexcept {
  if (rho > p.rho0) return 0;
  const double r = clamp_rho(rho, p);
  const double s = 1 / r - 1 / p.rho0;
  return 0.5 * p.eta * s * s * std::pow(norm(goal - x), p.n);
}

double repulsion_potential(Vec2 x, Vec2 goal, Vec2 obstacle_point, const FieldParams& p) noexcept {
  return repulsion_potential(x, goal, norm(x - obstacle_point), p);
}

RepulsionTerms repulsion_terms(double rho, double rho_g, const FieldParams& p) noexcept {
  if (rho > p.rho0) return {};
  const double r = clamp_rho(rho, p);
  const double s = 1 / r - 1 / p.rho0;
  RepulsionTerms t;
  t.rep1 = p.eta * s * std::pow(rho_g, p.n) / (r * r);
  // At the goal n_RG is undefined (zero); drop the term (also avoids 0^(n−1) = inf for n < 1).
  t.rep2 = rho_g > 0 ? 0.5 * p.n * p.eta * s * s * std::pow(rho_g, p.n - 1) : 0.0;
  return t;
}

Vec2 repulsion(Vec2 x, Vec2 goal, Vec2 obstacle_point, double rho, const FieldParams& p) noexcept {
  const Vec2 to_goal = goal - x;
  const RepulsionTerms t = repulsion_terms(rho, norm(to_goal), p);
  if (t.rep1 == 0 && t.rep2 == 0) return {};
  return unit(x - obstacle_point) * t.rep1 + unit(to_goal) * t.rep2;
}

Vec2 repulsion(Vec2 x, Vec2 goal, Vec2 obstacle_point, const FieldParams& p) noexcept {
  return repulsion(x, goal, obstacle_point, norm(x - obstacle_point), p);
}

double direction_coefficient(Vec2 heading_or_relative_velocity, Vec2 n_or, double beta) noexcept {
  const Vec2 h = unit(heading_or_relative_velocity);
  const Vec2 o = unit(n_or);
  if (h == Vec2{} || o == Vec2{}) return beta;
  const double c = std::clamp(dot(h, o), -1.0, 1.0);
  return 1 + (beta - 1) * (1 - c) / 2;
}

Vec2 total_force(Vec2 x, Vec2 goal, Vec2 heading, std::span<const ObstaclePoint> obstacles,
                 const FieldParams& p) noexcept {
  Vec2 f = attraction(x, goal, p);
  for (const ObstaclePoint& o : obstacles) {
    const double rho = o.rho ? *o.rho : norm(x - o.point);
    const Vec2 rep = repulsion(x, goal, o.point, rho, p);
    if (rep == Vec2{}) continue;
    const Vec2 dir = o.velocity == Vec2{} ? heading : heading - o.velocity;
    f += direction_coefficient(dir, x - o.point, p.beta) * rep;
  }
  return f;
}

}  // namespace pathlab::agents
