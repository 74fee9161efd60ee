// Stall / oscillation detection (libs/agents stall.hpp) on synthetic tracks: stuck in place,
// back-and-forth, slow but progressing, too slow, circling, weak force away from vs at the goal,
// the cooldown and acknowledge(), and straight walks that must never trigger.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/agents/stall.hpp>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

using namespace pathlab;
using agents::StallDetector;
using agents::StallParams;
using agents::StallReason;
using agents::Vec2;

namespace {

constexpr double kStep = 0.1;  // 2 cells/s · 0.05 s

struct Tick {
  Vec2 pos;
  Vec2 vel;
  double force = 1;
  double goal_dist = 10;
};

/// Reports per tick.
std::vector<StallReason> run(StallDetector& d, const std::vector<Tick>& track) {
  std::vector<StallReason> out;
  for (const Tick& t : track) out.push_back(d.update(t.pos, t.vel, t.force, t.goal_dist));
  return out;
}

/// Index of the first report, or -1.
int first_report(const std::vector<StallReason>& r) {
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (r[i] != StallReason::none) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> report_ticks(const std::vector<StallReason>& r) {
  std::vector<int> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (r[i] != StallReason::none) out.push_back(static_cast<int>(i));
  }
  return out;
}

/// Pushing against a wall: jitter of ±0.02 around (5.5,5.5) (each tick moves 0.04, above the
/// slow threshold 0.01) with a constant desired heading (1,0).
std::vector<Tick> stuck_track(int ticks) {
  const Vec2 offsets[] = {{0.02, 0.02}, {-0.02, 0.02}, {-0.02, -0.02}, {0.02, -0.02}};
  std::vector<Tick> t;
  for (int i = 0; i < ticks; ++i) t.push_back({Vec2{5.5, 5.5} + offsets[i % 4], {1, 0}});
  return t;
}

/// Straight line from `start` in direction `dir` (unit) at `speed` cells/tick.
std::vector<Tick> line_track(Vec2 start, Vec2 dir, double speed, int ticks) {
  std::vector<Tick> t;
  for (int i = 0; i < ticks; ++i) t.push_back({start + dir * (speed * i), dir * speed});
  return t;
}

}  // namespace

TEST(Stall, DefaultsAreTheStepScaledParameters) {
  const StallParams d;
  const StallParams s = StallParams::for_step(kStep);
  EXPECT_EQ(d.window, 20);
  EXPECT_EQ(d.reversals, 3);
  EXPECT_EQ(d.cooldown, 10);
  EXPECT_DOUBLE_EQ(d.reversal_cos, -0.9);
  EXPECT_DOUBLE_EQ(d.epsilon, 0.25);  // 2.5 · 0.1
  EXPECT_DOUBLE_EQ(s.epsilon, d.epsilon);
  EXPECT_DOUBLE_EQ(s.v_threshold, d.v_threshold);
  EXPECT_DOUBLE_EQ(s.force_epsilon, d.force_epsilon);
  EXPECT_DOUBLE_EQ(s.goal_radius, d.goal_radius);
  EXPECT_DOUBLE_EQ(s.cell_hysteresis, d.cell_hysteresis);
  EXPECT_EQ(s.slow_ticks, d.slow_ticks);
  EXPECT_EQ(s.revisit_cells, d.revisit_cells);
  // Doubling the step doubles every distance/speed threshold, counts unchanged.
  const StallParams s2 = StallParams::for_step(0.2);
  EXPECT_DOUBLE_EQ(s2.epsilon, 0.5);
  EXPECT_DOUBLE_EQ(s2.v_threshold, 0.02);
  EXPECT_DOUBLE_EQ(s2.force_epsilon, 0.2);
  EXPECT_EQ(s2.window, 20);
  EXPECT_THROW((void)StallParams::for_step(0), std::invalid_argument);
  EXPECT_THROW((void)StallParams::for_step(std::nan("")), std::invalid_argument);
  StallParams bad;
  bad.window = 0;
  EXPECT_THROW(StallDetector{bad}, std::invalid_argument);
  bad = {};
  bad.reversal_cos = -2;
  EXPECT_THROW(StallDetector{bad}, std::invalid_argument);
}

TEST(Stall, FlagsCombine) {
  const StallReason r = StallReason::slow | StallReason::no_progress;
  EXPECT_TRUE(agents::has(r, StallReason::slow));
  EXPECT_TRUE(agents::has(r, StallReason::no_progress));
  EXPECT_FALSE(agents::has(r, StallReason::revisit));
  EXPECT_FALSE(agents::has(r, StallReason::none));
}

TEST(Stall, StuckInPlaceReportsNoProgressWhenTheWindowFills) {
  StallDetector d;
  const auto r = run(d, stuck_track(21));
  // 21 samples = a full window of 20 steps; the net displacement is ≤ 0.04√2 < 0.25.
  EXPECT_EQ(first_report(r), 20);
  EXPECT_EQ(r[20], StallReason::no_progress);
}

TEST(Stall, RandomJitterIsDetectedWithinAWindow) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.03, 0.03);
  std::vector<Tick> track;
  Vec2 prev{5.5, 5.5};
  for (int i = 0; i < 40; ++i) {
    const Vec2 pos{5.5 + u(rng), 5.5 + u(rng)};
    track.push_back({pos, (pos - prev) / 0.05});  // velocity from the displacement
    prev = pos;
  }
  StallDetector d;
  const auto r = run(d, track);
  const int first = first_report(r);
  ASSERT_GE(first, 0);
  EXPECT_LE(first, 20);
  bool no_progress = false;
  for (const StallReason x : r) no_progress |= agents::has(x, StallReason::no_progress);
  EXPECT_TRUE(no_progress);
}

TEST(Stall, BackAndForthReportsOscillationBeforeTheWindowFills) {
  // Velocity ±(2,0) cells/s (0.1 cell/tick), flipping every 3 ticks.
  std::vector<Tick> track;
  Vec2 pos{5.5, 5.5};
  for (int i = 0; i < 30; ++i) {
    const Vec2 vel = (i / 3) % 2 == 0 ? Vec2{2, 0} : Vec2{-2, 0};
    track.push_back({pos, vel});
    pos += vel * 0.05;
  }
  StallDetector d;
  const auto r = run(d, track);
  // Reversals between ticks 2→3, 5→6, 8→9: the third is seen at tick 9.
  EXPECT_EQ(first_report(r), 9);
  EXPECT_EQ(r[9], StallReason::oscillation);
}

TEST(Stall, OscillationAcrossACellBorderAlsoRevisits) {
  // Amplitude 0.8 across x = 6: leaving cell 6 back into cell 5 is a revisit.
  std::vector<Tick> track;
  Vec2 pos{5.5, 5.5};
  for (int i = 0; i < 20; ++i) {
    const Vec2 vel = (i / 8) % 2 == 0 ? Vec2{2, 0} : Vec2{-2, 0};
    track.push_back({pos, vel});
    pos += vel * 0.05;
  }
  StallDetector d;
  const auto r = run(d, track);
  // x: 5.5 + 0.1 i up to 6.3 (tick 8), back: 6.2, ..., 5.9 at tick 12 (< 6 − 0.05).
  const int first = first_report(r);
  ASSERT_EQ(first, 12);
  EXPECT_EQ(r[12], StallReason::revisit);
}

TEST(Stall, SlowButProgressingIsFine) {
  // 0.03 cell/tick (0.3 of a step): 0.6 cells per window > ε, 0.03 > v_thr = 0.01.
  StallDetector d;
  const auto r = run(d, line_track({2.5, 2.5}, {1, 0}, 0.03, 300));
  EXPECT_EQ(first_report(r), -1);
}

TEST(Stall, TooSlowReportsSlow) {
  // 0.005 cell/tick < 0.01: the 10th slow tick-to-tick step is at tick 10.
  StallDetector d;
  const auto r = run(d, line_track({2.5, 2.5}, {1, 0}, 0.005, 15));
  EXPECT_EQ(first_report(r), 10);
  EXPECT_EQ(r[10], StallReason::slow);
}

TEST(Stall, CirclingRevisitsCells) {
  // Circle of radius 0.7 around the lattice point (10,10) at one step per tick: it passes
  // through cells (10,10) → (9,10) → (9,9) → (10,9) → (10,10) again, ≈ 44 ticks per loop.
  const double r0 = 0.7, w = kStep / r0;
  std::vector<Tick> track;
  for (int i = 0; i < 60; ++i) {
    const double a = 0.3 + w * i;
    track.push_back(
        {{10 + r0 * std::cos(a), 10 + r0 * std::sin(a)}, {-std::sin(a) * 2, std::cos(a) * 2}});
  }
  StallDetector d;
  const auto r = run(d, track);
  const int first = first_report(r);
  ASSERT_GE(first, 35);  // not before a full loop (no false no_progress/oscillation)
  ASSERT_LE(first, 50);
  EXPECT_EQ(r[first], StallReason::revisit);

  // A wide circle (radius 3, ≈ 19 cells around) never comes back within 4 cells.
  const double r1 = 3, w1 = kStep / r1;
  std::vector<Tick> wide;
  for (int i = 0; i < 150; ++i) {
    const double a = 0.3 + w1 * i;
    wide.push_back({{20 + r1 * std::cos(a), 20 + r1 * std::sin(a)}, {-std::sin(a), std::cos(a)}});
  }
  StallDetector d2;
  EXPECT_EQ(first_report(run(d2, wide)), -1);
}

TEST(Stall, WeakForceAwayFromTheGoalButNotAtIt) {
  {
    StallDetector d;
    auto track = line_track({2.5, 2.5}, {1, 0}, kStep, 5);
    for (Tick& t : track) t.force = 0.01;  // |F| < ε_F = 0.1, goal 10 cells away
    const auto r = run(d, track);
    EXPECT_EQ(first_report(r), 0);
    EXPECT_EQ(r[0], StallReason::weak_force);
  }
  {
    // Arrived: standing on the goal with zero force for a long time reports nothing (no
    // weak_force, no slow, no no_progress).
    StallDetector d;
    std::vector<Tick> track(100, Tick{{7.5, 7.5}, {0, 0}, 0.0, 0.0});
    EXPECT_EQ(first_report(run(d, track)), -1);
    // Within goal_radius (0.25) too.
    StallDetector d2;
    std::vector<Tick> near(100, Tick{{7.5, 7.5}, {0, 0}, 0.001, 0.2});
    EXPECT_EQ(first_report(run(d2, near)), -1);
  }
}

TEST(Stall, CooldownSuppressesRepeatedReports) {
  StallDetector d;
  // Still stuck: reported at 20, then cooldown ticks 21..30, again at 31, 42, 53.
  EXPECT_EQ(report_ticks(run(d, stuck_track(60))), (std::vector<int>{20, 31, 42, 53}));
  // Weak force every tick: 0, 11, 22.
  StallDetector w;
  auto track = line_track({2.5, 2.5}, {1, 0}, kStep, 30);
  for (Tick& t : track) t.force = 0;
  EXPECT_EQ(report_ticks(run(w, track)), (std::vector<int>{0, 11, 22}));
}

TEST(Stall, AcknowledgeClearsTheHistory) {
  StallDetector d;
  const auto track = stuck_track(60);
  std::vector<int> reports;
  for (int i = 0; i < 60; ++i) {
    const Tick& t = track[static_cast<std::size_t>(i)];
    if (d.update(t.pos, t.vel, t.force, t.goal_dist) != StallReason::none) {
      reports.push_back(i);
      d.acknowledge();  // replanned
      EXPECT_TRUE(d.cooling_down());
    }
  }
  // After acknowledging at 20 the window restarts at tick 21 and is full again at 41.
  EXPECT_EQ(reports, (std::vector<int>{20, 41}));
  d.reset();
  EXPECT_FALSE(d.cooling_down());
  EXPECT_EQ(d.last(), StallReason::none);
}

// A straight walk at 0.5–1 step per tick to a goal, then standing on the goal, never triggers:
// any direction, and also exactly along a grid line with ±0.001 lateral noise (cell hysteresis).
RC_GTEST_PROP(Stall, StraightWalkNeverTriggers, ()) {
  const bool on_grid_line = *rc::gen::arbitrary<bool>();
  const double angle = on_grid_line ? *rc::gen::inRange(0, 4) * std::numbers::pi / 2
                                    : *rc::gen::inRange(0, 36000) / 36000.0 * 2 * std::numbers::pi;
  const Vec2 dir{std::cos(angle), std::sin(angle)};
  const Vec2 start =
      on_grid_line
          ? Vec2{double(*rc::gen::inRange(20, 40)), double(*rc::gen::inRange(20, 40))}
          : Vec2{*rc::gen::inRange(2000, 4000) / 100.0, *rc::gen::inRange(2000, 4000) / 100.0};
  const double speed = kStep * *rc::gen::inRange(50, 101) / 100.0;
  const int ticks = *rc::gen::inRange(1, 150);
  const Vec2 goal = start + dir * (speed * ticks);
  std::mt19937 rng(*rc::gen::arbitrary<std::uint32_t>());
  std::uniform_real_distribution<double> noise(-0.001, 0.001);
  const Vec2 side{-dir.y, dir.x};

  StallDetector d;
  Vec2 prev = start;
  for (int i = 0; i <= ticks + 30; ++i) {
    Vec2 pos = i >= ticks ? goal : start + dir * (speed * i);
    if (on_grid_line && i < ticks) pos += side * noise(rng);
    const Vec2 vel = i == 0 ? dir * speed / 0.05 : (pos - prev) / 0.05;
    prev = pos;
    const double goal_dist = agents::norm(goal - pos);
    // |F| = k ρ_g with k = 1 (pure attraction).
    RC_ASSERT(d.update(pos, vel, goal_dist, goal_dist) == StallReason::none);
  }
}
