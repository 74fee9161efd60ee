#include <pathlab/grid/hex.hpp>

#include <cmath>

namespace pathlab::grid::hex {
namespace {

/// Whether the shifted row (pointy) or column (flat) of a cell is drawn half a hex further.
bool shifted(Layout l, int x, int y) noexcept {
  switch (l) {
    case Layout::pointy_even_r:
      return (y & 1) == 0;
    case Layout::flat_odd_q:
      return (x & 1) != 0;
    case Layout::flat_even_q:
      return (x & 1) == 0;
    default:
      return (y & 1) != 0;
  }
}

constexpr double kRow = 0.86602540378443865;  // sqrt(3) / 2: 1.5 corners

}  // namespace

Point centre(Layout l, int x, int y) noexcept {
  const double half = shifted(l, x, y) ? 0.5 : 0.0;
  if (pointy(l)) return {x + 0.5 + half, kCorner + y * kRow};
  return {kCorner + x * kRow, y + 0.5 + half};
}

std::array<Point, 2> edge(Layout l, int x, int y, int d) noexcept {
  // Across the midpoint of the two centres (1 apart), perpendicular to them, kCorner long.
  const Point a = centre(l, x, y);
  const Cell nb = neighbour(l, x, y, d);
  const Point b = centre(l, nb.x, nb.y);
  const double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
  const double ux = -(b.y - a.y) * kCorner / 2, uy = (b.x - a.x) * kCorner / 2;
  return {Point{mx - ux, my - uy}, Point{mx + ux, my + uy}};
}

std::array<Point, 6> corners(Layout l, int x, int y) noexcept {
  const Point c = centre(l, x, y);
  std::array<Point, 6> out{};
  const double start = pointy(l) ? 30.0 : 0.0;
  for (int i = 0; i < 6; ++i) {
    const double a = (start + 60.0 * i) * 3.14159265358979323846 / 180.0;
    out[i] = {c.x + kCorner * std::cos(a), c.y + kCorner * std::sin(a)};
  }
  return out;
}

Point extent(Layout l, int width, int height) noexcept {
  if (width <= 0 || height <= 0) return {0, 0};
  if (pointy(l)) {
    const bool any_shift = height > 1 || shifted(l, 0, 0);
    return {width + (any_shift ? 0.5 : 0.0), 2 * kCorner + (height - 1) * kRow};
  }
  const bool any_shift = width > 1 || shifted(l, 0, 0);
  return {2 * kCorner + (width - 1) * kRow, height + (any_shift ? 0.5 : 0.0)};
}

}  // namespace pathlab::grid::hex
