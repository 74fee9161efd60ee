#include <pathlab/agents/stall.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pathlab::agents {

StallParams StallParams::for_step(double step) {
  if (!(step > 0) || !std::isfinite(step)) {
    throw std::invalid_argument("StallParams::for_step: step must be positive and finite");
  }
  StallParams p;
  p.epsilon = 2.5 * step;
  p.v_threshold = 0.1 * step;
  p.force_epsilon = step;
  p.goal_radius = 2.5 * step;
  p.cell_hysteresis = 0.5 * step;
  return p;
}

namespace {

bool finite_nonneg(double v) {
  return std::isfinite(v) && v >= 0;
}

Cell cell_of(Vec2 p) {
  return {static_cast<std::int32_t>(std::floor(p.x)), static_cast<std::int32_t>(std::floor(p.y))};
}

/// Distance from p to the closed unit square of c (0 inside).
double distance_to_cell(Vec2 p, Cell c) {
  const double dx = std::max({c.x - p.x, 0.0, p.x - (c.x + 1.0)});
  const double dy = std::max({c.y - p.y, 0.0, p.y - (c.y + 1.0)});
  return std::hypot(dx, dy);
}

}  // namespace

StallDetector::StallDetector(StallParams params) : params_(params) {
  const StallParams& p = params_;
  if (p.window < 1 || p.slow_ticks < 1 || p.revisit_cells < 1 || p.reversals < 1 ||
      p.cooldown < 0 || !finite_nonneg(p.epsilon) || !finite_nonneg(p.v_threshold) ||
      !finite_nonneg(p.force_epsilon) || !finite_nonneg(p.goal_radius) ||
      !finite_nonneg(p.cell_hysteresis) || !(p.reversal_cos >= -1 && p.reversal_cos <= 1)) {
    throw std::invalid_argument("StallDetector: invalid StallParams");
  }
}

void StallDetector::clear_history() {
  positions_.clear();
  reversal_flags_.clear();
  reversal_count_ = 0;
  last_heading_ = {};
  have_heading_ = false;
  slow_run_ = 0;
  cells_.clear();
}

void StallDetector::reset() {
  clear_history();
  cooldown_left_ = 0;
  last_ = StallReason::none;
}

void StallDetector::acknowledge() {
  clear_history();
  cooldown_left_ = params_.cooldown;
}

StallReason StallDetector::update(Vec2 position, Vec2 velocity, double force_magnitude,
                                  double goal_distance) {
  const StallParams& p = params_;
  const auto window = static_cast<std::size_t>(p.window);
  StallReason found = StallReason::none;

  // --- slow / heading from the displacement of this tick
  Vec2 step{};
  if (!positions_.empty()) {
    step = position - positions_.back();
    slow_run_ = norm(step) < p.v_threshold ? slow_run_ + 1 : 0;
  }
  if (slow_run_ >= p.slow_ticks) found |= StallReason::slow;

  // --- no progress over the window
  positions_.push_back(position);
  if (positions_.size() > window + 1) positions_.pop_front();
  if (positions_.size() == window + 1 && norm(position - positions_.front()) < p.epsilon) {
    found |= StallReason::no_progress;
  }

  // --- oscillation: heading reversals among the last `window` transitions
  Vec2 heading = unit(velocity);
  if (heading == Vec2{}) heading = unit(step);
  if (heading != Vec2{}) {
    if (have_heading_) {
      const bool rev = dot(heading, last_heading_) < p.reversal_cos;
      reversal_flags_.push_back(rev);
      reversal_count_ += rev ? 1 : 0;
      if (reversal_flags_.size() > window) {
        reversal_count_ -= reversal_flags_.front() ? 1 : 0;
        reversal_flags_.pop_front();
      }
    }
    last_heading_ = heading;
    have_heading_ = true;
  }
  if (reversal_count_ >= p.reversals) found |= StallReason::oscillation;

  // --- revisit: entering a cell among the previous revisit_cells distinct cells
  if (cells_.empty()) {
    cells_.push_front(cell_of(position));
  } else if (distance_to_cell(position, cells_.front()) > p.cell_hysteresis) {
    const Cell now = cell_of(position);
    const auto limit = std::min(cells_.size(), static_cast<std::size_t>(p.revisit_cells));
    if (std::find(cells_.begin(), cells_.begin() + static_cast<std::ptrdiff_t>(limit), now) !=
        cells_.begin() + static_cast<std::ptrdiff_t>(limit)) {
      found |= StallReason::revisit;
    }
    // Keep the list of distinct cells free of the re-entered cell's older copy.
    cells_.erase(std::remove(cells_.begin(), cells_.end(), now), cells_.end());
    cells_.push_front(now);
    if (cells_.size() > static_cast<std::size_t>(p.revisit_cells) + 1) cells_.pop_back();
  }

  // --- weak force
  if (force_magnitude < p.force_epsilon) found |= StallReason::weak_force;

  // --- suppression: near the goal, cooldown
  if (goal_distance <= p.goal_radius) found = StallReason::none;
  if (cooldown_left_ > 0) {
    --cooldown_left_;
    found = StallReason::none;
  } else if (found != StallReason::none) {
    cooldown_left_ = p.cooldown;
  }
  last_ = found;
  return found;
}

}  // namespace pathlab::agents
