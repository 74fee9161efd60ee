// Dynamic obstacles of the simulation world: a disc, a segment (a thin wall) or a polygon (an L
// shape, a crate) that exists from `appear` to `disappear` seconds and moves with a constant
// velocity or along a route of waypoints (once, in a loop, or back and forth). Its pose at time t
// is computed from t alone, never integrated tick by tick, so nothing drifts and any tick can be
// evaluated out of order (a replay, a render, the web page scrubbing time).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/agents/geometry.hpp>
#include <pathlab/agents/vec2.hpp>

namespace pathlab::agents {

/// The kind of an obstacle's shape (Shape::kind).
enum class ShapeKind : std::uint8_t {
  disc,     ///< a disc of Shape::radius around the obstacle's position
  segment,  ///< a thin wall between Shape::points[0] and Shape::points[1]
  polygon   ///< a polygon with Shape::points as its vertices, in order
};

/// A shape in its own frame: the obstacle's position is added to every point.
struct Shape {
  ShapeKind kind = ShapeKind::disc;  ///< which of radius and points describe it
  double radius = 0.5;               ///< disc radius (> 0); ignored otherwise
  std::vector<Vec2> points;          ///< segment: 2 points; polygon: >= 3 vertices, in order
};

/// How an obstacle travels its route of waypoints (Motion::mode).
enum class RouteMode : std::uint8_t {
  once,      ///< from the first waypoint to the last, then it stays there
  loop,      ///< from the last waypoint back to the first, and round again
  ping_pong  ///< to the last waypoint and back the same way, again and again
};

/// The mode's name as scenario files spell it: "once", "loop" or "ping-pong" ("?" for a value
/// outside the enum).
[[nodiscard]] std::string_view to_string(RouteMode m) noexcept;
/// The mode named "once", "loop" or "ping-pong" (also "pingpong" and "ping_pong"); nullopt for
/// any other text (case-sensitive).
[[nodiscard]] std::optional<RouteMode> parse_route_mode(std::string_view s) noexcept;

/// How an obstacle moves. With a route, it starts at route[0] at time `appear` and travels the
/// waypoints at `speed` (cells/s); `once` stops at the last one, `loop` returns to the first,
/// `ping_pong` walks back. Without a route it starts at `start` and moves with `velocity`.
struct Motion {
  Vec2 start;                        ///< without a route: the position at `appear` (cells)
  Vec2 velocity;                     ///< without a route: the constant velocity (cells/s)
  std::vector<Vec2> route;           ///< waypoints (cells), travelled in order; empty: no route
  double speed = 1.0;                ///< with a route: cells/s along it [Limit: > 0 and finite]
  RouteMode mode = RouteMode::loop;  ///< with a route: what happens at its last waypoint

  /// Position `elapsed` seconds after the motion began (its start before that).
  [[nodiscard]] Vec2 position_at(double elapsed) const noexcept;
  /// Velocity `elapsed` seconds after the motion began (zero once a `once` route has ended).
  [[nodiscard]] Vec2 velocity_at(double elapsed) const noexcept;
};

/// A dynamic obstacle: a shape that moves with its motion while it is present.
struct Obstacle {
  int id = 0;         ///< names it in messages, pictures and JSON (scenario files keep ids unique)
  Shape shape;        ///< its shape, relative to position(t)
  Motion motion;      ///< how it moves; its clock starts at `appear`
  double appear = 0;  ///< seconds of simulated time when it comes into being [Limit: >= 0]
  /// Seconds when it goes (not present from then on); infinity: never. [Limit: > appear]
  double disappear = std::numeric_limits<double>::infinity();

  /// Whether it exists at time t (seconds): appear <= t < disappear.
  [[nodiscard]] bool present(double t) const noexcept { return t >= appear && t < disappear; }
  /// Position (the origin of the shape's frame) at time t (clamped to `appear` before it).
  [[nodiscard]] Vec2 position(double t) const noexcept { return motion.position_at(t - appear); }
  /// Velocity at time t (zero once a `once` route has ended).
  [[nodiscard]] Vec2 velocity(double t) const noexcept { return motion.velocity_at(t - appear); }
  /// Distance from the shape's origin to its farthest point: the obstacle lies within this
  /// radius of position(t).
  [[nodiscard]] double extent() const noexcept;
  /// Nearest point of the obstacle (as a solid region) to p at time t; distance is signed for
  /// discs (negative inside) and 0 inside the others, as in geometry.hpp.
  [[nodiscard]] NearestPoint nearest(Vec2 p, double t) const noexcept;
  /// Whether a disc (centre c, radius r) overlaps the obstacle at time t (touching does not).
  [[nodiscard]] bool overlaps(Vec2 c, double r, double t) const noexcept;
  /// Problems with the description (empty: valid): shape sizes, route, speed, times.
  [[nodiscard]] std::optional<std::string> validate() const;
};

}  // namespace pathlab::agents
