// A 2-D vector in map units (a cell is a unit square; the centre of cell (x,y) is
// (x+0.5, y+0.5)) for positions, velocities and forces of agents.
#pragma once

#include <cmath>

#include <pathlab/core/types.hpp>

namespace pathlab::agents {

/// A position, velocity (cells/s) or force: a plain value, the zero vector by default.
struct Vec2 {
  double x = 0;  ///< rightwards component (map units: cells, or cells/s for a velocity)
  double y = 0;  ///< downwards component, the same unit as x

  constexpr Vec2() = default;
  /// The vector (x_, y_).
  constexpr Vec2(double x_, double y_) : x(x_), y(y_) {}
  /// The point p as a vector from the map's top-left corner.
  constexpr explicit Vec2(Point p) : x(p.x), y(p.y) {}
  /// The same coordinates as a pathlab::Point (for the renderers and the geometry of core).
  [[nodiscard]] constexpr Point point() const noexcept { return {x, y}; }

  /// Adds o component-wise.
  constexpr Vec2& operator+=(Vec2 o) noexcept {
    x += o.x;
    y += o.y;
    return *this;
  }
  /// Subtracts o component-wise.
  constexpr Vec2& operator-=(Vec2 o) noexcept {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  /// Scales both components by s.
  constexpr Vec2& operator*=(double s) noexcept {
    x *= s;
    y *= s;
    return *this;
  }
  /// Component-wise sum.
  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
  /// Component-wise difference: the vector from b to a.
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
  /// The opposite vector.
  friend constexpr Vec2 operator-(Vec2 a) noexcept { return {-a.x, -a.y}; }
  /// a scaled by s.
  friend constexpr Vec2 operator*(Vec2 a, double s) noexcept { return {a.x * s, a.y * s}; }
  /// a scaled by s.
  friend constexpr Vec2 operator*(double s, Vec2 a) noexcept { return {a.x * s, a.y * s}; }
  /// a divided by s (no check: s = 0 gives infinities or NaN).
  friend constexpr Vec2 operator/(Vec2 a, double s) noexcept { return {a.x / s, a.y / s}; }
  /// Exact equality of both components, with no tolerance.
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

/// The dot product a.x * b.x + a.y * b.y.
[[nodiscard]] constexpr double dot(Vec2 a, Vec2 b) noexcept {
  return a.x * b.x + a.y * b.y;
}
/// The z component of the 3-D cross product, a.x * b.y - a.y * b.x: > 0 when b turns
/// clockwise from a on screen (y down), < 0 counter-clockwise, 0 when parallel.
[[nodiscard]] constexpr double cross(Vec2 a, Vec2 b) noexcept {
  return a.x * b.y - a.y * b.x;
}
/// The length of a, |a| = sqrt(a.x² + a.y²), without overflow or underflow for huge or tiny a.
[[nodiscard]] inline double norm(Vec2 a) noexcept {
  // std::hypot only where the squares would underflow or overflow: a crowd takes tens of
  // millions of norms a second.
  const double s = a.x * a.x + a.y * a.y;
  if (s > 1e-280 && s < 1e280) return std::sqrt(s);
  return std::hypot(a.x, a.y);
}
/// a / |a|, or the zero vector for a zero vector.
[[nodiscard]] inline Vec2 unit(Vec2 a) noexcept {
  const double n = norm(a);
  return n > 0 ? a / n : Vec2{};
}

}  // namespace pathlab::agents
