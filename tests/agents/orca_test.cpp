// ORCA (van den Berg et al. 2011): the new velocity satisfies every half-plane and the speed
// limit when that is feasible, equals the preferred velocity when it is already safe, and two
// agents that both take their ORCA velocity do not collide within the horizon (the reciprocity
// guarantee), checked on random encounters.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <pathlab/agents/orca.hpp>

using namespace pathlab::agents;

namespace {

Vec2 gen_vec(double lo, double hi) {
  const auto a = *rc::gen::inRange(0, 1001), b = *rc::gen::inRange(0, 1001);
  return {lo + (hi - lo) * a / 1000.0, lo + (hi - lo) * b / 1000.0};
}

/// Least distance between two discs moving straight for `horizon` seconds, minus their radii.
double closest_gap(Vec2 pa, Vec2 va, Vec2 pb, Vec2 vb, double r, double horizon) {
  const Vec2 dp = pb - pa, dv = vb - va;
  const double dvv = dot(dv, dv);
  const double t = dvv > 0 ? std::clamp(-dot(dp, dv) / dvv, 0.0, horizon) : 0.0;
  return norm(dp + dv * t) - 2 * r;
}

}  // namespace

TEST(Orca, KeepsThePreferredVelocityWhenItIsSafe) {
  const Neighbour n{{10, 0}, {0, 0}, 0.3, 0.5};
  const Vec2 v = avoid({0, 0}, {0, 1}, 0.3, {0, 1}, 2, {&n, 1}, 2, 0.05);
  EXPECT_NEAR(v.x, 0, 1e-12);
  EXPECT_NEAR(v.y, 1, 1e-12);
  // Nothing near: just the speed limit.
  const Vec2 w = avoid({0, 0}, {0, 0}, 0.3, {3, 4}, 2, {}, 2, 0.05);
  EXPECT_NEAR(norm(w), 2, 1e-12);
}

TEST(Orca, HeadOnAgentsTurnAside) {
  const Neighbour n{{2, 0}, {-2, 0}, 0.3, 0.5};
  const Vec2 v = avoid({0, 0}, {2, 0}, 0.3, {2, 0}, 2, {&n, 1}, 2, 0.05);
  EXPECT_GT(std::abs(v.y), 0.1);  // it sidesteps
  EXPECT_LE(norm(v), 2 + 1e-9);
}

RC_GTEST_PROP(Orca, TwoAgentsTakingTheirVelocitiesDoNotCollide, ()) {
  const double r = 0.3, horizon = 2, dt = 0.05, vmax = 2;
  const Vec2 pa = gen_vec(-5, 5), pb = gen_vec(-5, 5);
  RC_PRE(norm(pb - pa) > 2 * r + 0.01);
  const Vec2 va = gen_vec(-1.4, 1.4), vb = gen_vec(-1.4, 1.4);
  const Vec2 pref_a = gen_vec(-1.4, 1.4), pref_b = gen_vec(-1.4, 1.4);
  const Neighbour na{pa, va, r, 0.5}, nb{pb, vb, r, 0.5};
  const OrcaLine la = orca_line(pa, va, r, nb, horizon, dt);
  const OrcaLine lb = orca_line(pb, vb, r, na, horizon, dt);
  const Vec2 a = orca_velocity({&la, 1}, pref_a, vmax);
  const Vec2 b = orca_velocity({&lb, 1}, pref_b, vmax);
  // Each new velocity lies in its half-plane (left of the line) and within the speed limit.
  RC_ASSERT(cross(la.direction, a - la.point) >= -1e-9);
  RC_ASSERT(cross(lb.direction, b - lb.point) >= -1e-9);
  RC_ASSERT(norm(a) <= vmax + 1e-9);
  // Reciprocity: moving straight with them, the two discs stay apart for the horizon.
  RC_ASSERT(closest_gap(pa, a, pb, b, r, horizon) >= -1e-6);
}

TEST(Orca, InfeasibleConstraintsStillGiveABoundedVelocity) {
  // Surrounded closely on all sides: no velocity satisfies every half-plane.
  std::vector<Neighbour> ring;
  for (int k = 0; k < 8; ++k) {
    const double a = k * M_PI / 4;
    ring.push_back(
        {{0.7 * std::cos(a), 0.7 * std::sin(a)}, {-std::cos(a), -std::sin(a)}, 0.3, 0.5});
  }
  const Vec2 v = avoid({0, 0}, {0, 0}, 0.3, {2, 0}, 2, ring, 2, 0.05);
  EXPECT_TRUE(std::isfinite(v.x) && std::isfinite(v.y));
  EXPECT_LE(norm(v), 2 + 1e-9);
}
