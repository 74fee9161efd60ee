// Stall / oscillation detection for a potential-field agent (docs/ALGORITHMS.md): the criteria
// are combined with OR, every threshold scales with the step length s = speed · dt, and after a
// detection reports are suppressed for a cooldown so the caller replans once, not every tick.
//
// Criteria (evaluated each tick, reported as bit flags):
//  * no_progress: |pos_t − pos_{t−W}| < ε over a full window of W steps (W+1 samples).
//  * slow:        the per-tick displacement |pos_t − pos_{t−1}| (cells/tick, so it compares
//                 with s independently of dt and of what the caller passes as velocity) stayed
//                 below v_threshold for slow_ticks consecutive ticks.
//  * revisit:     the agent entered a cell that is among the previous revisit_cells distinct
//                 cells it was in. A cell change is only registered once the position is more
//                 than cell_hysteresis outside the current cell's square, so walking along a
//                 grid line with jitter does not flip between the two cells.
//  * oscillation: at least `reversals` heading reversals (cos between consecutive headings
//                 < reversal_cos) among the last W tick-to-tick transitions. The heading is the
//                 velocity passed in; when it is zero the tick's displacement is used; ticks with
//                 neither are skipped (the next heading is compared with the last known one).
//  * weak_force:  |F| < force_epsilon on this tick (no persistence required).
// Decisions where the definitions are silent:
//  * Nothing is reported while the goal distance is <= goal_radius: an agent at its goal is
//    expected to stop (slow, no progress, zero force). History is still recorded.
//  * Cooldown: a report at tick t suppresses reports on ticks t+1 .. t+cooldown (history keeps
//    being recorded, so a persisting stall is reported again at t+cooldown+1). acknowledge()
//    (call it after replanning) clears the history — the new plan is judged on fresh data —
//    and starts the same cooldown.
#pragma once

#include <cstdint>
#include <deque>

#include <pathlab/agents/vec2.hpp>
#include <pathlab/core/types.hpp>

namespace pathlab::agents {

/// The stall criteria that fired on a tick, as bit flags combined with | (see above).
enum class StallReason : std::uint8_t {
  none = 0,              ///< no criterion fired
  no_progress = 1 << 0,  ///< moved less than ε over the last W steps
  slow = 1 << 1,         ///< below v_threshold cells/tick for slow_ticks ticks in a row
  revisit = 1 << 2,      ///< entered one of the revisit_cells previous distinct cells
  oscillation = 1 << 3,  ///< at least `reversals` heading reversals in the last W transitions
  weak_force = 1 << 4,   ///< |F| below force_epsilon on this tick
};

/// The flags set in a or in b.
[[nodiscard]] constexpr StallReason operator|(StallReason a, StallReason b) noexcept {
  return static_cast<StallReason>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
/// The flags set in both a and b.
[[nodiscard]] constexpr StallReason operator&(StallReason a, StallReason b) noexcept {
  return static_cast<StallReason>(static_cast<std::uint8_t>(a) & static_cast<std::uint8_t>(b));
}
/// Adds the flags of b to a; returns a.
constexpr StallReason& operator|=(StallReason& a, StallReason b) noexcept {
  return a = a | b;
}
/// Whether every bit of `bit` is set in `flags`.
[[nodiscard]] constexpr bool has(StallReason flags, StallReason bit) noexcept {
  return (flags & bit) == bit && bit != StallReason::none;
}

/// Defaults are for_step(0.1): agent speed 2 cells/s, dt = 0.05 s. Distances in cells, speeds in
/// cells per tick, forces in the units of FieldParams (k = 1).
struct StallParams {
  int window = 20;             ///< W, ticks
  double epsilon = 0.25;       ///< ε, cells (2.5 steps)
  double v_threshold = 0.01;   ///< cells/tick (0.1 step)
  int slow_ticks = 10;         ///< K, ticks (half a window)
  int revisit_cells = 4;       ///< k, previous distinct cells checked (a loop of 4 cells)
  int reversals = 3;           ///< reversals in the window
  double reversal_cos = -0.9;  ///< cos below which consecutive headings count as a reversal
  /// ε_F: k·s, the attraction one step from the goal (scale with k if k != 1).
  double force_epsilon = 0.1;
  int cooldown = 10;              ///< ticks without reports after a detection
  double goal_radius = 0.25;      ///< no reports this close to the goal (= ε, 2.5 steps)
  double cell_hysteresis = 0.05;  ///< cells (half a step); see revisit
  /// Parameters for step length `step` = speed · dt (cells). Counts stay as above; distances,
  /// speeds and the force threshold scale with step. [Limit: step > 0 and finite; throws
  /// std::invalid_argument otherwise].
  [[nodiscard]] static StallParams for_step(double step);
};

/// Watches one agent tick by tick and reports stalls and oscillations by the criteria of
/// stall.hpp.
class StallDetector {
 public:
  /// [Limit: window, slow_ticks, revisit_cells, reversals >= 1, cooldown >= 0, thresholds finite
  /// and >= 0 (reversal_cos in [-1, 1]); throws std::invalid_argument otherwise].
  explicit StallDetector(StallParams params = {});

  /// Feeds one tick: position (cells), velocity or heading (direction used for reversals),
  /// |F| and the distance to the goal. Returns the criteria that fired (none during cooldown
  /// or near the goal).
  StallReason update(Vec2 position, Vec2 velocity, double force_magnitude, double goal_distance);

  /// The caller replanned: clear the history and start the cooldown.
  void acknowledge();
  /// Forget everything, including the cooldown.
  void reset();

  /// What the last update() returned (none before the first and after reset()).
  [[nodiscard]] StallReason last() const noexcept { return last_; }
  /// Whether reports are being suppressed: the next update() reports nothing.
  [[nodiscard]] bool cooling_down() const noexcept { return cooldown_left_ > 0; }
  /// The thresholds it was constructed with.
  [[nodiscard]] const StallParams& params() const noexcept { return params_; }

 private:
  void clear_history();

  StallParams params_;
  std::deque<Vec2> positions_;       // last window+1 positions
  std::deque<bool> reversal_flags_;  // last `window` transitions
  int reversal_count_ = 0;
  Vec2 last_heading_{};  // last non-zero heading (unit)
  bool have_heading_ = false;
  int slow_run_ = 0;
  std::deque<Cell> cells_;  // current cell first, then previous distinct cells
  int cooldown_left_ = 0;
  StallReason last_ = StallReason::none;
};

}  // namespace pathlab::agents
