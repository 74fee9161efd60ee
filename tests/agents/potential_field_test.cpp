// Potential field (libs/agents potential_field.hpp, docs/ALGORITHMS.md "Potential fields"):
// every component against numbers worked out by hand below, the special cases (goal, beyond
// ρ0, ρ → 0), and — at random points — that each force is minus the numerical gradient of its
// potential (F = −∇(U_att + C·U_rep) for a fixed C), i.e. the formulas match the potentials.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/agents/potential_field.hpp>

#include <cmath>
#include <numbers>
#include <vector>

using namespace pathlab;
using agents::FieldParams;
using agents::ObstaclePoint;
using agents::Vec2;

namespace {

void expect_vec(Vec2 got, Vec2 want, double tol = 1e-9) {
  EXPECT_NEAR(got.x, want.x, tol) << "x";
  EXPECT_NEAR(got.y, want.y, tol) << "y";
}

bool finite(Vec2 v) {
  return std::isfinite(v.x) && std::isfinite(v.y);
}

double gen_real(double lo, double hi) {
  return lo + (hi - lo) * (*rc::gen::inRange(0, 1'000'001) / 1e6);
}

Vec2 gen_point(double lo, double hi) {
  return {gen_real(lo, hi), gen_real(lo, hi)};
}

}  // namespace

TEST(PotentialField, Attraction) {
  const FieldParams p;  // k = 1
  // x = (1,2), goal (4,6): goal − x = (3,4), ρ_g = 5, n_RG = (0.6,0.8).
  // F_att = k ρ_g n_RG = 1·5·(0.6,0.8) = (3,4); U_att = ½·1·25 = 12.5.
  expect_vec(agents::attraction({1, 2}, {4, 6}, p), {3, 4});
  EXPECT_DOUBLE_EQ(agents::attraction_potential({1, 2}, {4, 6}, p), 12.5);
  FieldParams k2;
  k2.k = 2;  // F = 2·5·(0.6,0.8) = (6,8); U = ½·2·25 = 25.
  expect_vec(agents::attraction({1, 2}, {4, 6}, k2), {6, 8});
  EXPECT_DOUBLE_EQ(agents::attraction_potential({1, 2}, {4, 6}, k2), 25);
  expect_vec(agents::attraction({4, 6}, {4, 6}, p), {0, 0});  // at the goal
}

TEST(PotentialField, RepulsionHandComputed) {
  const FieldParams p;  // η = 1, ρ0 = 2, n = 2
  // x = (0,0), x_o = (−1,0): ρ = 1, n_OR = (1,0); goal (3,4): ρ_g = 5, n_RG = (0.6,0.8).
  // s = 1/ρ − 1/ρ0 = 1 − 0.5 = 0.5.
  // F_rep1 = η s ρ_g² / ρ² = 0.5·25/1 = 12.5; F_rep2 = (n/2) η s² ρ_g = 1·0.25·5 = 1.25.
  // F = 12.5·(1,0) + 1.25·(0.6,0.8) = (13.25, 1.0); U_rep = ½·0.25·25 = 3.125.
  auto t = agents::repulsion_terms(1, 5, p);
  EXPECT_DOUBLE_EQ(t.rep1, 12.5);
  EXPECT_DOUBLE_EQ(t.rep2, 1.25);
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {-1, 0}, p), {13.25, 1.0});
  EXPECT_DOUBLE_EQ(agents::repulsion_potential({0, 0}, {3, 4}, Vec2{-1, 0}, p), 3.125);

  // x_o = (0,−0.5): ρ = 0.5, n_OR = (0,1); s = 2 − 0.5 = 1.5.
  // F_rep1 = 1.5·25/0.25 = 150; F_rep2 = 1·2.25·5 = 11.25.
  // F = (0,150) + 11.25·(0.6,0.8) = (6.75, 159); U_rep = ½·2.25·25 = 28.125.
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {0, -0.5}, p), {6.75, 159});
  EXPECT_DOUBLE_EQ(agents::repulsion_potential({0, 0}, {3, 4}, Vec2{0, -0.5}, p), 28.125);

  // Explicit ρ (measured from a disc edge): x_o = (−1,0) gives n_OR = (1,0) but ρ = 0.5:
  // F = 150·(1,0) + 11.25·(0.6,0.8) = (156.75, 9).
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {-1, 0}, 0.5, p), {156.75, 9});
  EXPECT_DOUBLE_EQ(agents::repulsion_potential({0, 0}, {3, 4}, 0.5, p), 28.125);

  // n = 3, η = 2, ρ = 1, ρ_g = 5: s = 0.5; F_rep1 = 2·0.5·125/1 = 125;
  // F_rep2 = (3/2)·2·0.25·25 = 18.75; U_rep = ½·2·0.25·125 = 31.25.
  FieldParams q;
  q.n = 3;
  q.eta = 2;
  t = agents::repulsion_terms(1, 5, q);
  EXPECT_DOUBLE_EQ(t.rep1, 125);
  EXPECT_DOUBLE_EQ(t.rep2, 18.75);
  EXPECT_DOUBLE_EQ(agents::repulsion_potential({0, 0}, {3, 4}, 1.0, q), 31.25);
}

TEST(PotentialField, RepulsionVanishesAtTheGoalForNEqualsTwo) {
  const FieldParams p;
  const auto t = agents::repulsion_terms(0.5, 0, p);  // ρ_g^2 = 0 and ρ_g^1 = 0
  EXPECT_EQ(t.rep1, 0);
  EXPECT_EQ(t.rep2, 0);
  expect_vec(agents::repulsion({2, 2}, {2, 2}, {2, 1.5}, p), {0, 0});
  EXPECT_EQ(agents::repulsion_potential({2, 2}, {2, 2}, Vec2{2, 1.5}, p), 0);
  // Goal on the obstacle boundary (the case the improved form fixes): the agent reaches it.
  const std::vector<ObstaclePoint> obs{{{2, 1.5}}};
  expect_vec(agents::total_force({2, 2}, {2, 2}, {1, 0}, obs, p), {0, 0});
}

TEST(PotentialField, RepulsionIsZeroBeyondInfluenceDistance) {
  const FieldParams p;  // ρ0 = 2
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {-2.5, 0}, p), {0, 0});
  EXPECT_EQ(agents::repulsion_potential({0, 0}, {3, 4}, Vec2{-2.5, 0}, p), 0);
  // At ρ = ρ0 exactly every term is 0 (s = 0): the field is continuous there.
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {-2, 0}, p), {0, 0});
  EXPECT_EQ(agents::repulsion_potential({0, 0}, {3, 4}, Vec2{-2, 0}, p), 0);
  EXPECT_GT(agents::norm(agents::repulsion({0, 0}, {3, 4}, {-1.99, 0}, p)), 0);
}

TEST(PotentialField, RepulsionIsCappedAsRhoGoesToZero) {
  const FieldParams p;  // min_rho = 0.05
  // ρ = 0, x == x_o: n_OR undefined (zero) so only F_rep2 remains, with ρ clamped to 0.05:
  // s = 1/0.05 − 1/2 = 19.5; F_rep2 = 1·19.5²·5 = 380.25·5 = 1901.25 along (0.6,0.8)
  // = (1140.75, 1521).
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {0, 0}, p), {1140.75, 1521}, 1e-6);
  // ρ = 1e-300 with a direction: F_rep1 = 19.5·25/0.0025 = 195000 along (1,0).
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {-1e-300, 0}, p), {195000 + 1140.75, 1521}, 1e-6);
  // U_rep capped at ½·19.5²·25 = 4753.125.
  EXPECT_DOUBLE_EQ(agents::repulsion_potential({0, 0}, {3, 4}, 0.0, p), 4753.125);
  // Explicit ρ of 0 or negative (disc overlapping the wall): same cap.
  expect_vec(agents::repulsion({0, 0}, {3, 4}, {-1, 0}, -0.3, p), {195000 + 1140.75, 1521}, 1e-6);
}

TEST(PotentialField, DirectionCoefficient) {
  const double beta = 3;
  // Obstacle dead ahead: heading (1,0), obstacle at +x so n_OR = (−1,0): θ = π, cos = −1,
  // C = 1 + 2·(1 − (−1))/2 = 3 = β.
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({1, 0}, {-1, 0}, beta), 3);
  // Behind: θ = 0, C = 1 + 2·0/2 = 1.
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({-1, 0}, {-1, 0}, beta), 1);
  // Sideways: cos = 0, C = 1 + 2·½ = 2 = (1 + β)/2.
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({0, 1}, {-1, 0}, beta), (1 + beta) / 2);
  // 60°: cos = 0.5, C = 1 + 2·0.25 = 1.5; magnitudes do not matter.
  EXPECT_NEAR(agents::direction_coefficient({0.5, std::sqrt(3.0) / 2}, {4, 0}, beta), 1.5, 1e-12);
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({10, 0}, {-0.1, 0}, beta), 3);
  // Zero heading (at rest) or zero n_OR: documented choice β.
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({0, 0}, {-1, 0}, beta), beta);
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({1, 0}, {0, 0}, beta), beta);
  // β = 1 makes the field isotropic.
  EXPECT_DOUBLE_EQ(agents::direction_coefficient({1, 0}, {-1, 0}, 1), 1);
}

TEST(PotentialField, TotalForceHandComputed) {
  const FieldParams p;
  // x = (0,0), goal (3,4), heading (1,0). F_att = (3,4).
  // A at (1,0): ρ = 1, n_OR = (−1,0), dead ahead → C = 3.
  //   F_rep = 12.5·(−1,0) + 1.25·(0.6,0.8) = (−11.75, 1); ×3 = (−35.25, 3).
  // B at (0,−1): ρ = 1, n_OR = (0,1), sideways → C = 2.
  //   F_rep = 12.5·(0,1) + (0.75, 1) = (0.75, 13.5); ×2 = (1.5, 27).
  // C at (−5,0): ρ = 5 > ρ0 → 0.
  // D at (−1,0) moving with (3,0): relative velocity (1,0) − (3,0) = (−2,0), n_OR = (1,0),
  //   cos = −1 → C = 3 (it is catching up; with the plain heading C would be 1).
  //   F_rep = (13.25, 1); ×3 = (39.75, 3).
  // Total = (3 − 35.25 + 1.5 + 39.75, 4 + 3 + 27 + 3) = (9, 37).
  const std::vector<ObstaclePoint> obs{{{1, 0}}, {{0, -1}}, {{-5, 0}}, {{-1, 0}, {3, 0}}};
  expect_vec(agents::total_force({0, 0}, {3, 4}, {1, 0}, obs, p), {9, 37});
  // The same D without velocity: C = 1 → (3 − 35.25 + 1.5 + 13.25, 4 + 3 + 27 + 1) = (−17.5, 35).
  const std::vector<ObstaclePoint> still{{{1, 0}}, {{0, -1}}, {{-5, 0}}, {{-1, 0}}};
  expect_vec(agents::total_force({0, 0}, {3, 4}, {1, 0}, still, p), {-17.5, 35});
  // No obstacles: pure attraction.
  expect_vec(agents::total_force({0, 0}, {3, 4}, {1, 0}, {}, p), {3, 4});
  // ρ override: A with ρ = 0.5 (disc edge), still dead ahead: F_rep = 150·(−1,0) + 11.25·(0.6,0.8)
  //   = (−143.25, 9); ×3 = (−429.75, 27); total = (3 − 429.75, 4 + 27) = (−426.75, 31).
  const std::vector<ObstaclePoint> edge{{{1, 0}, {}, 0.5}};
  expect_vec(agents::total_force({0, 0}, {3, 4}, {1, 0}, edge, p), {-426.75, 31});
}

namespace {

/// Central-difference gradient of f at x.
template <class F>
Vec2 numeric_gradient(F f, Vec2 x, double h) {
  return {(f(Vec2{x.x + h, x.y}) - f(Vec2{x.x - h, x.y})) / (2 * h),
          (f(Vec2{x.x, x.y + h}) - f(Vec2{x.x, x.y - h})) / (2 * h)};
}

}  // namespace

// F_att + C·F_rep = −∇(U_att + C·U_rep) for a fixed C and a fixed obstacle point, wherever the
// potential is smooth: ρ ≥ min_rho (here ρ ≥ 0.2 for conditioning), ρ ≠ ρ0 is fine (U_rep is C¹
// there), ρ_g away from 0 (for n < 2 ρ_g^n is not smooth at the goal).
RC_GTEST_PROP(PotentialField, ForceIsMinusTheGradientOfThePotential, ()) {
  FieldParams p;
  p.k = gen_real(0.1, 3);
  p.eta = gen_real(0.1, 3);
  p.rho0 = gen_real(0.5, 4);
  p.n = *rc::gen::element(1.0, 2.0, 3.0, 2.5);
  const Vec2 x = gen_point(-5, 5);
  const Vec2 goal = gen_point(-5, 5);
  const Vec2 obs = gen_point(-5, 5);
  const double c = gen_real(1, 5);
  const double rho = agents::norm(x - obs);
  // Stay off ρ = ρ0 by more than the difference step: U_rep is only C¹ there.
  RC_PRE(rho >= 0.2 && std::abs(rho - p.rho0) > 1e-4 && agents::norm(goal - x) >= 0.1);
  const auto u = [&](Vec2 y) {
    return agents::attraction_potential(y, goal, p) +
           c * agents::repulsion_potential(y, goal, obs, p);
  };
  const Vec2 fa = agents::attraction(x, goal, p);
  const Vec2 fr = c * agents::repulsion(x, goal, obs, p);
  const Vec2 f = fa + fr;
  const Vec2 g = numeric_gradient(u, x, 1e-6);
  // Relative to the terms' sizes (they may cancel); covers rounding of U/h and O(h²) truncation.
  const double tol = 1e-5 * (1 + agents::norm(fa) + agents::norm(fr));
  RC_ASSERT(std::abs(f.x + g.x) <= tol);
  RC_ASSERT(std::abs(f.y + g.y) <= tol);
}

// The sum with direction coefficients equals F_att + Σ C_fr,i F_rep,i computed term by term.
RC_GTEST_PROP(PotentialField, TotalForceIsTheWeightedSum, ()) {
  const FieldParams p;
  const Vec2 x = gen_point(-3, 3);
  const Vec2 goal = gen_point(-3, 3);
  const Vec2 heading = gen_point(-1, 1);
  std::vector<ObstaclePoint> obs;
  const int count = *rc::gen::inRange(0, 5);
  Vec2 want = agents::attraction(x, goal, p);
  for (int i = 0; i < count; ++i) {
    const ObstaclePoint o{gen_point(-3, 3),
                          *rc::gen::arbitrary<bool>() ? gen_point(-2, 2) : Vec2{}};
    obs.push_back(o);
    const Vec2 rel = heading - o.velocity;
    want += agents::direction_coefficient(rel, x - o.point, p.beta) *
            agents::repulsion(x, goal, o.point, p);
  }
  const Vec2 got = agents::total_force(x, goal, heading, obs, p);
  const double tol = 1e-9 * (1 + agents::norm(want));
  RC_ASSERT(std::abs(got.x - want.x) <= tol);
  RC_ASSERT(std::abs(got.y - want.y) <= tol);
}

// Finite everywhere: coincident points, tiny and zero distances, the goal on the obstacle.
RC_GTEST_PROP(PotentialField, FiniteEverywhere, ()) {
  FieldParams p;
  p.n = *rc::gen::element(0.5, 1.0, 2.0, 3.0);
  const Vec2 x = gen_point(-3, 3);
  const int mode = *rc::gen::inRange(0, 4);
  const Vec2 obs = mode == 0   ? x
                   : mode == 1 ? x + Vec2{1e-300, 0}
                   : mode == 2 ? x + gen_point(-1e-3, 1e-3)
                               : gen_point(-3, 3);
  const Vec2 goal =
      *rc::gen::arbitrary<bool>() ? x : (*rc::gen::arbitrary<bool>() ? obs : gen_point(-3, 3));
  const Vec2 heading = *rc::gen::arbitrary<bool>() ? Vec2{} : gen_point(-1, 1);
  const std::vector<ObstaclePoint> o{{obs}, {obs, heading}, {obs, {}, 0.0}, {obs, {}, -1.0}};
  RC_ASSERT(finite(agents::repulsion(x, goal, obs, p)));
  RC_ASSERT(std::isfinite(agents::repulsion_potential(x, goal, obs, p)));
  RC_ASSERT(finite(agents::total_force(x, goal, heading, o, p)));
  // The cap: |F_rep| never exceeds the value at ρ = min_rho (both terms at their maximum).
  const double rg = agents::norm(goal - x);
  const auto cap = agents::repulsion_terms(p.min_rho, rg, p);
  RC_ASSERT(agents::norm(agents::repulsion(x, goal, obs, p)) <=
            (cap.rep1 + cap.rep2) * (1 + 1e-12));
}
