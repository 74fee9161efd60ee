// A 2-D vector in map units (a cell is a unit square; the centre of cell (x,y) is
// (x+0.5, y+0.5)) for positions, velocities and forces of agents.
#pragma once

#include <cmath>

#include <pathlab/core/types.hpp>

namespace pathlab::agents {

struct Vec2 {
  double x = 0;
  double y = 0;

  constexpr Vec2() = default;
  constexpr Vec2(double x_, double y_) : x(x_), y(y_) {}
  constexpr explicit Vec2(Point p) : x(p.x), y(p.y) {}
  [[nodiscard]] constexpr Point point() const noexcept { return {x, y}; }

  constexpr Vec2& operator+=(Vec2 o) noexcept {
    x += o.x;
    y += o.y;
    return *this;
  }
  constexpr Vec2& operator-=(Vec2 o) noexcept {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  constexpr Vec2& operator*=(double s) noexcept {
    x *= s;
    y *= s;
    return *this;
  }
  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Vec2 operator-(Vec2 a) noexcept { return {-a.x, -a.y}; }
  friend constexpr Vec2 operator*(Vec2 a, double s) noexcept { return {a.x * s, a.y * s}; }
  friend constexpr Vec2 operator*(double s, Vec2 a) noexcept { return {a.x * s, a.y * s}; }
  friend constexpr Vec2 operator/(Vec2 a, double s) noexcept { return {a.x / s, a.y / s}; }
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

[[nodiscard]] constexpr double dot(Vec2 a, Vec2 b) noexcept {
  return a.x * b.x + a.y * b.y;
}
[[nodiscard]] constexpr double cross(Vec2 a, Vec2 b) noexcept {
  return a.x * b.y - a.y * b.x;
}
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
