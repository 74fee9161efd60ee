// Pictures of a simulation run (agents/world.hpp): a recorder that takes snapshots of a World
// while it runs and draws them over the map — dynamic obstacles where they were at that time,
// each agent's trail, plan, sub-goal, goal and force arrow, colliding agents in red, agents
// that arrived faded, the clock in the top-left corner — as an animated GIF, a PNG of the last
// frame, or an SVG of the final state, chosen by the extension.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <pathlab/agents/obstacle.hpp>
#include <pathlab/agents/vec2.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/render/render.hpp>

namespace pathlab::render {

/// How a SimulationRecorder samples the run and draws it.
struct SimulationOptions {
  int cell_px = 0;       ///< pixels per cell; 0 = fit the map in about 640 pixels
  int max_frames = 300;  ///< frames kept at most, the last state included [Limit: >= 2]
  /// Ticks between frames at first (0 = 1); doubled, and every other frame dropped, each time
  /// the frames would exceed max_frames, so a run of any length fits at an even pace.
  std::uint64_t ticks_per_frame = 0;
  /// GIF: hundredths of a second per frame; 0 = the simulated time between frames, held
  /// within [2, 10] (a long run plays faster than real time).
  int frame_delay_cs = 0;
  int final_delay_cs = 300;  ///< GIF: how long the last frame holds
  bool clock = true;         ///< draw the simulated time ("12.35 s") in the top-left corner
};

/// One agent at one moment, in map units.
struct AgentSnapshot {
  int id = 0;             ///< the agent's AgentSpec::id
  agents::Vec2 position,  ///< centre of its disc
      force,              ///< AgentState::force, drawn as an arrow scaled by max_speed
      goal;               ///< where it is going (a chaser's target at this moment)
  double radius = 0,      ///< disc radius (cells)
      max_speed = 0;      ///< top speed (cells/s)
  /// The waypoints ahead, the current sub-goal first and the goal last (empty for the pure
  /// potential field, which has none).
  std::vector<agents::Vec2> plan;
  bool arrived = false,   ///< it has reached its goal and left the world (drawn faded)
      colliding = false;  ///< it overlaps a wall, an obstacle or another agent (drawn in red)
  std::size_t trail = 0;  ///< how many points of the agent's trail this moment has
};

/// An obstacle present at one moment, in map units: a disc's centre, a segment's two ends or
/// a polygon's vertices.
struct ObstacleSnapshot {
  int id = 0;                                        ///< the obstacle's Obstacle::id
  agents::ShapeKind kind = agents::ShapeKind::disc;  ///< how to read `points`
  double radius = 0;                                 ///< discs only
  std::vector<agents::Vec2> points;  ///< 1 (disc), 2 (segment) or >= 3 (polygon) points
};

/// The world at one moment, as SimulationRecorder keeps it.
struct SimulationFrame {
  std::uint64_t tick = 0;                   ///< World::ticks() when it was taken
  double time = 0;                          ///< World::time(), simulated seconds
  std::vector<AgentSnapshot> agents;        ///< every agent, in World::agents() order
  std::vector<ObstacleSnapshot> obstacles;  ///< only those present at `time`
};

/// The colour of agent `index` (its position in World::agents()); `faded` for trails and
/// agents that arrived.
[[nodiscard]] std::uint8_t agent_colour(std::size_t index, bool faded = false) noexcept;

/// Records a World while it runs: construct it on the world before the first step, call
/// capture() after every step() (outside the step, so World::tick_us() is untouched), then
/// write() or draw(). It copies what it draws, so the world may go away first.
class SimulationRecorder {
 public:
  /// Takes the first frame, of the world as it is now.
  explicit SimulationRecorder(const agents::World& world, SimulationOptions options = {});

  /// Extends the agents' trails, and keeps the world's state as a frame every stride() ticks,
  /// and once it has finished (or with `keep`: a run cut short ends on its latest state).
  void capture(const agents::World& world, bool keep = false);

  /// The frames kept, in time order: the world when recording began, every stride()-th tick
  /// since, then the end of the run (or the latest tick captured with `keep`).
  [[nodiscard]] const std::vector<SimulationFrame>& frames() const noexcept { return frames_; }
  /// Ticks between kept frames.
  [[nodiscard]] std::uint64_t stride() const noexcept { return stride_; }
  /// Pixels per cell of the pictures.
  [[nodiscard]] int cell_px() const noexcept { return cp_; }
  /// Where agent `index` went: points at least 0.05 cells apart (the current position follows
  /// the frame's `trail` of them).
  [[nodiscard]] const std::vector<agents::Vec2>& trail(std::size_t index) const {
    return trails_.at(index);
  }

  /// The picture of one frame (an index into frames()).
  [[nodiscard]] IndexedImage draw(std::size_t frame) const;
  /// Every frame as an animated GIF (.gif), the last frame as a PNG (.png), or the final state
  /// as SVG (.svg), chosen by the extension. Throws std::runtime_error naming the file on an
  /// unknown extension or a write failure.
  void write(const std::string& path) const;
  /// The final state as SVG in pixels (map units × cell_px()): the cells as rectangles, then
  /// each agent's trail (`<polyline class="trail">`), the obstacles
  /// (`<polygon class="obstacle">`, `<circle class="obstacle">`, `<line class="obstacle">`),
  /// each plan (`<polyline class="plan">`), each agent (`<circle class="agent">`) and the time
  /// (`<text class="clock">`).
  [[nodiscard]] std::string svg() const;

 private:
  SimulationOptions options_;
  int cp_ = 1;
  double dt_ = 0.05;
  IndexedImage background_;  ///< the map's cells, drawn once
  std::uint64_t first_tick_ = 0, stride_ = 1;
  std::vector<SimulationFrame> frames_;
  bool last_is_extra_ = false;  ///< the last frame is off the stride (the end of the run)
  std::vector<std::vector<agents::Vec2>> trails_;

  void extend_trails(const agents::World& world);
  [[nodiscard]] SimulationFrame snapshot(const agents::World& world) const;
  void thin_out();
};

}  // namespace pathlab::render
