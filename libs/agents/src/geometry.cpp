#include <pathlab/agents/geometry.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pathlab::agents {

Vec2 closest_point_on_segment(Vec2 p, Vec2 a, Vec2 b) noexcept {
  const Vec2 ab = b - a;
  const double len2 = dot(ab, ab);
  if (!(len2 > 0)) return a;
  const double t = std::clamp(dot(p - a, ab) / len2, 0.0, 1.0);
  // Exact endpoints for t in {0,1} so that vertices come back bit-identical.
  if (t == 0.0) return a;
  if (t == 1.0) return b;
  return a + ab * t;
}

namespace {

/// Nearest boundary point and its squared distance; polygon must be non-empty.
std::pair<Vec2, double> nearest_boundary(Vec2 p, std::span<const Vec2> poly) noexcept {
  Vec2 best = poly[0];
  double best_d2 = std::numeric_limits<double>::infinity();
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 q = closest_point_on_segment(p, poly[i], poly[(i + 1) % n]);
    const Vec2 d = p - q;
    const double d2 = dot(d, d);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = q;
    }
  }
  return {best, best_d2};
}

constexpr double kBoundaryEps = 1e-12;

}  // namespace

bool point_in_polygon(Vec2 p, std::span<const Vec2> polygon) noexcept {
  if (polygon.empty()) return false;
  if (nearest_boundary(p, polygon).second <= kBoundaryEps * kBoundaryEps) return true;
  if (polygon.size() < 3) return false;
  // Crossing number with the half-open rule (a vertex on the ray counts for one edge only).
  bool in = false;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = polygon[i];
    const Vec2 b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x_at = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x_at) in = !in;
    }
  }
  return in;
}

NearestPoint nearest_on_polygon(Vec2 p, std::span<const Vec2> polygon) noexcept {
  if (polygon.empty()) return {p, std::numeric_limits<double>::infinity(), false};
  const auto [q, d2] = nearest_boundary(p, polygon);
  const bool in = point_in_polygon(p, polygon);
  return {q, in ? 0.0 : std::sqrt(d2), in};
}

NearestPoint nearest_on_disc(Vec2 p, Vec2 centre, double radius) noexcept {
  const Vec2 d = p - centre;
  const double len = norm(d);
  const Vec2 dir = len > 0 ? d / len : Vec2{1, 0};
  const double dist = len - radius;
  return {centre + dir * radius, dist, dist <= 0};
}

NearestPoint nearest_on_cell(Vec2 p, Cell c) noexcept {
  const double x0 = c.x, y0 = c.y, x1 = c.x + 1.0, y1 = c.y + 1.0;
  const Vec2 q{std::clamp(p.x, x0, x1), std::clamp(p.y, y0, y1)};
  if (q != p) return {q, norm(p - q), false};
  // Inside the closed square: leave through the nearest edge.
  const double dl = p.x - x0, dr = x1 - p.x, dt = p.y - y0, db = y1 - p.y;
  const double m = std::min({dl, dr, dt, db});
  Vec2 edge = p;
  if (m == dl) {
    edge.x = x0;
  } else if (m == dr) {
    edge.x = x1;
  } else if (m == dt) {
    edge.y = y0;
  } else {
    edge.y = y1;
  }
  return {edge, 0.0, true};
}

std::optional<NearestPoint> nearest_wall_point(const grid::Grid& grid, Vec2 p, double max_dist) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(max_dist) || max_dist < 0) {
    return std::nullopt;
  }
  const int w = grid.width(), h = grid.height();
  // Outside the open map rectangle: p is in the wall region (the border is shared with the
  // ring cells, whose squares the scan below finds at distance 0 anyway).
  if (p.x < 0 || p.y < 0 || p.x > w || p.y > h) return NearestPoint{p, 0.0, true};
  // Cells whose closed square meets the box [p - d, p + d]: ceil(p - d) - 1 .. floor(p + d) (a
  // square [c, c+1] ending exactly at p - d still counts: max_dist is inclusive), clipped to the
  // map and its ring of outside cells (-1 .. w, -1 .. h); farther outside cells are never nearer
  // than the ring because p is inside the map rectangle.
  const int x_lo = static_cast<int>(std::max(-1.0, std::ceil(p.x - max_dist) - 1));
  const int x_hi = static_cast<int>(std::min(double(w), std::floor(p.x + max_dist)));
  const int y_lo = static_cast<int>(std::max(-1.0, std::ceil(p.y - max_dist) - 1));
  const int y_hi = static_cast<int>(std::min(double(h), std::floor(p.y + max_dist)));
  std::optional<NearestPoint> best;
  for (int y = y_lo; y <= y_hi; ++y) {
    for (int x = x_lo; x <= x_hi; ++x) {
      if (grid.passable(x, y)) continue;
      const NearestPoint np = nearest_on_cell(p, Cell{x, y});
      if (np.inside) return NearestPoint{p, 0.0, true};
      if (np.distance <= max_dist && (!best || np.distance < best->distance)) best = np;
    }
  }
  return best;
}

}  // namespace pathlab::agents
