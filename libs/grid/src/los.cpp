// Line of sight between cell centres (dispatch to the integer walk) and between arbitrary points
// (a column-by-column supercover whose crossings are each computed from the endpoints).
#include <pathlab/grid/los.hpp>

#include <pathlab/grid/hex.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace pathlab::grid {

bool line_of_sight(const Grid& g, DiagonalRule rule, Cell a, Cell b) noexcept {
  if (!g.passable(a) || !g.passable(b)) return false;
  if (!g.plain()) {
    return dispatch_rule(
        rule, [&](auto r) { return line_of_sight_any<decltype(r)::value>(g, g.id(a), g.id(b)); });
  }
  return dispatch_rule(
      rule, [&](auto r) { return line_of_sight_id<decltype(r)::value>(g, g.id(a), g.id(b)); });
}

namespace {

bool free_cell(const Grid& g, std::int64_t x, std::int64_t y) noexcept;

// ---- hex layouts ------------------------------------------------------------------------------
// Everything happens in a "pointy frame": pointy layouts as they are, flat layouts with x and y
// swapped (which turns flat-top hexes into pointy-top ones and columns into rows). In that frame
// row i has its centres at Y = kCorner + i * kRowH and X = j + 0.5 (+ 0.5 on a shifted row); a
// hex spans [i * kRowH, i * kRowH + 2 kCorner] in Y and [X - 0.5, X + 0.5] in X.

constexpr double kHexEps = 1e-9;                  // touching tolerance, in hex units
constexpr double kRowH = 0.86602540378443865;     // sqrt(3) / 2: rows apart
constexpr double kHalfCorner = hex::kCorner / 2;  // corner offsets at 30 and 150 degrees

/// Whether the closed hex (row i, column j of the frame) and the closed segment p -> q come
/// within kHexEps of each other: separating axes, the hex's three edge normals and the segment's
/// normal (both convex, so no other axis can separate them).
bool hex_touches(double cx, double cy, Point p, Point q, double nx, double ny,
                 double support) noexcept {
  // Edge normals of a pointy hex: 0, 60 and 120 degrees; its half-width along each is 0.5.
  static constexpr double kAxes[3][2] = {{1.0, 0.0}, {0.5, kRowH}, {-0.5, kRowH}};
  for (const auto& u : kAxes) {
    const double c = cx * u[0] + cy * u[1];
    const double a = p.x * u[0] + p.y * u[1], b = q.x * u[0] + q.y * u[1];
    if (std::min(a, b) > c + 0.5 + kHexEps || std::max(a, b) < c - 0.5 - kHexEps) return false;
  }
  if (support >= 0) {
    const double s = p.x * nx + p.y * ny, c = cx * nx + cy * ny;
    if (std::abs(c - s) > support + kHexEps) return false;
  }
  return true;
}

/// Whether the closed segments p -> q and a -> b come within kHexEps of each other.
bool segments_touch(Point p, Point q, Point a, Point b) noexcept {
  auto side = [](Point o, Point u, Point v) {
    return (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x);
  };
  const double d1 = side(p, q, a), d2 = side(p, q, b), d3 = side(a, b, p), d4 = side(a, b, q);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return true;
  auto dist = [](Point o, Point u, Point v) {  // from o to the segment u -> v
    const double dx = v.x - u.x, dy = v.y - u.y, l2 = dx * dx + dy * dy;
    const double t = l2 > 0 ? std::clamp(((o.x - u.x) * dx + (o.y - u.y) * dy) / l2, 0.0, 1.0) : 0;
    return std::hypot(o.x - u.x - t * dx, o.y - u.y - t * dy);
  };
  return std::min({dist(p, a, b), dist(q, a, b), dist(a, p, q), dist(b, p, q)}) <= kHexEps;
}

/// Whether the segment p -> q (the map's own frame) touches a wall that free hex (x, y) keeps on
/// one of the three edges it stores (directions 0, 4, 5; the other three are stored by the
/// neighbours, which the segment touches too when it touches the edge).
bool hex_edges_touched(const Grid& g, int x, int y, Point p, Point q) noexcept {
  const Layout l = g.layout();
  const NodeId n = g.id(x, y);
  for (const int d : {0, 4, 5}) {
    if (!g.wall_hex_id(n, n, d)) continue;  // stored at n itself for these three
    const std::array<Point, 2> e = hex::edge(l, x, y, d);
    if (segments_touch(p, q, e[0], e[1])) return true;
  }
  return false;
}

/// Whether every hex touching the segment p -> q (hex units, the map's own frame) is free and
/// the segment touches no edge wall; hexes outside the map count as walls.
bool hex_clear(const Grid& g, Point p, Point q) noexcept {
  const Layout l = g.layout();
  const bool flat = !hex::pointy(l);
  const bool edges = g.has_edge_walls();
  const Point p0 = p, q0 = q;
  if (flat) {
    std::swap(p.x, p.y);
    std::swap(q.x, q.y);
  }
  const bool odd_shift = l == Layout::pointy_odd_r || l == Layout::flat_odd_q;
  auto half = [&](std::int64_t i) { return ((i & 1) != 0) == odd_shift ? 0.5 : 0.0; };
  const double dx = q.x - p.x, dy = q.y - p.y, len = std::hypot(dx, dy);
  double nx = 0, ny = 0, support = -1;  // the segment's unit normal, the hex's reach along it
  if (len > 0) {
    nx = -dy / len;
    ny = dx / len;
    support = std::max({std::abs(0.5 * nx + kHalfCorner * ny), std::abs(hex::kCorner * ny),
                        std::abs(-0.5 * nx + kHalfCorner * ny)});
  }
  const double ymin = std::min(p.y, q.y), ymax = std::max(p.y, q.y);
  const auto i0 = static_cast<std::int64_t>(std::ceil((ymin - kHexEps - 2 * hex::kCorner) / kRowH));
  const auto i1 = static_cast<std::int64_t>(std::floor((ymax + kHexEps) / kRowH));
  for (std::int64_t i = i0; i <= i1; ++i) {
    // The X interval of the segment's part within the row's band of Y.
    const double lo = static_cast<double>(i) * kRowH - kHexEps;
    const double hi = static_cast<double>(i) * kRowH + 2 * hex::kCorner + kHexEps;
    double xl = std::min(p.x, q.x), xh = std::max(p.x, q.x);
    if (dy != 0) {
      double t0 = (lo - p.y) / dy, t1 = (hi - p.y) / dy;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0);
      t1 = std::min(t1, 1.0);
      if (t0 > t1) continue;
      const double x0 = p.x + t0 * dx, x1 = p.x + t1 * dx;
      xl = std::min(x0, x1) - kHexEps;
      xh = std::max(x0, x1) + kHexEps;
    }
    const double h = half(i);
    const auto j0 = static_cast<std::int64_t>(std::ceil(xl - kHexEps - 1 - h));
    const auto j1 = static_cast<std::int64_t>(std::floor(xh + kHexEps - h));
    const double cy = hex::kCorner + static_cast<double>(i) * kRowH;
    for (std::int64_t j = j0; j <= j1; ++j) {
      const double cx = static_cast<double>(j) + 0.5 + h;
      if (!hex_touches(cx, cy, p, q, nx, ny, support)) continue;
      if (!(flat ? free_cell(g, i, j) : free_cell(g, j, i))) return false;
      if (edges && (flat ? hex_edges_touched(g, static_cast<int>(i), static_cast<int>(j), p0, q0)
                         : hex_edges_touched(g, static_cast<int>(j), static_cast<int>(i), p0, q0)))
        return false;
    }
  }
  return true;
}

/// The floor a point (in the grid's own units: cells, or hex units) lies on.
std::int64_t floor_of_point(const Grid& g, Point p) noexcept {
  if (g.layers() == 1) return 0;
  const double row = is_hex(g.layout()) && hex::pointy(g.layout()) ? kRowH : 1.0;
  return static_cast<std::int64_t>(std::floor(p.y / (g.layer_pitch() * row)));
}

}  // namespace

bool detail::hex_line_of_sight(const Grid& g, Cell a, Cell b) noexcept {
  const Layout l = g.layout();
  return hex_clear(g, hex::centre(l, a.x, a.y), hex::centre(l, b.x, b.y));
}

namespace {

bool free_cell(const Grid& g, std::int64_t x, std::int64_t y) noexcept {
  return x >= 0 && y >= 0 && x < g.width() && y < g.height() &&
         g.passable(static_cast<int>(x), static_cast<int>(y));
}

bool is_integer(double v) noexcept {
  return v == std::floor(v);
}

/// The closed supercover rule (never, no_corner_cut): every cell whose closed square touches
/// the segment p -> q (p.x <= q.x) is free.
bool closed_clear(const Grid& g, Point p, Point q) noexcept {
  const double dx = q.x - p.x, dy = q.y - p.y;
  const auto first_col = static_cast<std::int64_t>(std::ceil(p.x)) - 1;
  const auto last_col = static_cast<std::int64_t>(std::floor(q.x));
  for (std::int64_t X = std::max<std::int64_t>(first_col, -1); X <= last_col; ++X) {
    // The part of the segment with x in [X, X+1], as a y interval.
    double y0 = p.y, y1 = q.y;
    if (dx > 0) {
      const double xa = std::max(static_cast<double>(X), p.x);
      const double xb = std::min(static_cast<double>(X + 1), q.x);
      y0 = xa == p.x ? p.y : p.y + ((xa - p.x) * dy) / dx;
      y1 = xb == q.x ? q.y : p.y + ((xb - p.x) * dy) / dx;
    }
    const double lo = std::min(y0, y1), hi = std::max(y0, y1);
    const auto r0 = static_cast<std::int64_t>(std::ceil(lo)) - 1;
    const auto r1 = static_cast<std::int64_t>(std::floor(hi));
    for (std::int64_t R = r0; R <= r1; ++R) {
      if (!free_cell(g, X, R)) return false;
    }
  }
  return true;
}

/// The open rule (one_corner, always): every cell whose interior the segment crosses is free;
/// a run along a grid line needs a free cell on one side; under one_corner a lattice corner the
/// segment passes through needs one of its two side cells free.
bool open_clear(const Grid& g, bool one_corner, Point p, Point q) noexcept {
  const double dx = q.x - p.x, dy = q.y - p.y;
  if (dx == 0) {  // vertical
    const double lo = std::min(p.y, q.y), hi = std::max(p.y, q.y);
    const auto r0 = static_cast<std::int64_t>(std::floor(lo));
    const auto r1 = static_cast<std::int64_t>(std::ceil(hi)) - 1;
    const auto X = static_cast<std::int64_t>(std::floor(p.x));
    for (std::int64_t R = r0; R <= r1; ++R) {
      if (is_integer(p.x) ? !free_cell(g, X - 1, R) && !free_cell(g, X, R) : !free_cell(g, X, R)) {
        return false;
      }
    }
    return true;
  }
  const auto c0 = static_cast<std::int64_t>(std::floor(p.x));
  const auto c1 = static_cast<std::int64_t>(std::ceil(q.x)) - 1;
  for (std::int64_t X = c0; X <= c1; ++X) {
    const double xa = std::max(static_cast<double>(X), p.x);
    const double xb = std::min(static_cast<double>(X + 1), q.x);
    const double y0 = xa == p.x ? p.y : p.y + ((xa - p.x) * dy) / dx;
    const double y1 = xb == q.x ? q.y : p.y + ((xb - p.x) * dy) / dx;
    if (dy == 0) {  // horizontal
      const auto R = static_cast<std::int64_t>(std::floor(p.y));
      if (is_integer(p.y) ? !free_cell(g, X, R - 1) && !free_cell(g, X, R) : !free_cell(g, X, R)) {
        return false;
      }
    } else {
      const double lo = std::min(y0, y1), hi = std::max(y0, y1);
      const auto r0 = static_cast<std::int64_t>(std::floor(lo));
      const auto r1 = static_cast<std::int64_t>(std::ceil(hi)) - 1;
      for (std::int64_t R = r0; R <= r1; ++R) {
        if (!free_cell(g, X, R)) return false;
      }
      // A lattice corner at x = X + 1 strictly inside the segment: the cells before and after
      // it are checked above; under one_corner one of the two side cells must be free too.
      if (one_corner && xb == static_cast<double>(X + 1) && xb < q.x && is_integer(y1)) {
        const auto Y = static_cast<std::int64_t>(y1);
        const bool down = dy > 0;
        const bool side_a = free_cell(g, X + 1, down ? Y - 1 : Y);
        const bool side_b = free_cell(g, X, down ? Y : Y - 1);
        if (!side_a && !side_b) return false;
      }
    }
  }
  return true;
}

double cross(double ax, double ay, double bx, double by) noexcept {
  return ax * by - ay * bx;
}

/// Whether no blocked edge touches the segment p -> q (p.x <= q.x, square layout with edge
/// walls); under one_corner a lattice corner strictly inside a diagonal segment needs one of its
/// two routes open instead (see los.hpp).
bool edges_clear(const Grid& g, bool one_corner, Point p, Point q) noexcept {
  const double dx = q.x - p.x, dy = q.y - p.y;
  // A blocked edge from (ex0, ey0) to (ex1, ey1): false when it touches the segment.
  auto edge_ok = [&](double ex0, double ey0, double ex1, double ey1) {
    if (dx == 0 && dy == 0) {  // a single point: on the edge or not
      return ex0 == ex1 ? !(p.x == ex0 && p.y >= ey0 && p.y <= ey1)
                        : !(p.y == ey0 && p.x >= ex0 && p.x <= ex1);
    }
    const double o1 = cross(dx, dy, ex0 - p.x, ey0 - p.y), o2 = cross(dx, dy, ex1 - p.x, ey1 - p.y);
    if ((o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0)) return true;
    const double fx = ex1 - ex0, fy = ey1 - ey0;
    const double o3 = cross(fx, fy, p.x - ex0, p.y - ey0), o4 = cross(fx, fy, q.x - ex0, q.y - ey0);
    if ((o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0)) return true;
    if (o1 == 0 && o2 == 0) {  // collinear: do their extents overlap?
      if (fx != 0) {
        return std::max(p.x, q.x) < std::min(ex0, ex1) || std::min(p.x, q.x) > std::max(ex0, ex1);
      }
      return std::max(p.y, q.y) < std::min(ey0, ey1) || std::min(p.y, q.y) > std::max(ey0, ey1);
    }
    // They meet in one point. Through an end of the edge (a lattice corner) strictly inside a
    // diagonal segment, under one_corner: one route around the corner must be open.
    if (!one_corner || dx == 0 || dy == 0 || o3 == 0 || o4 == 0 || (o1 != 0 && o2 != 0)) {
      return false;
    }
    const double cxd = o1 == 0 ? ex0 : ex1, cyd = o1 == 0 ? ey0 : ey1;
    const auto cx = static_cast<std::int32_t>(cxd), cy = static_cast<std::int32_t>(cyd);
    const std::int32_t stride = g.stride();
    const std::int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? stride : -stride;
    const NodeId n = g.id(dx > 0 ? cx - 1 : cx, dy > 0 ? cy - 1 : cy);
    const NodeId pp = n + sx, qq = n + sy;
    const bool r1 =
        g.passable_id(pp) && !detail::wall_across_x(g, n, sx) && !detail::wall_across_y(g, pp, sy);
    const bool r2 =
        g.passable_id(qq) && !detail::wall_across_y(g, n, sy) && !detail::wall_across_x(g, qq, sx);
    return r1 || r2;
  };
  const auto first_col = std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(p.x)) - 1, -1);
  const auto last_col =
      std::min<std::int64_t>(static_cast<std::int64_t>(std::floor(q.x)) + 1, g.width() - 1);
  for (std::int64_t X = first_col; X <= last_col; ++X) {
    // The segment's rows near column X (which owns the edges east of X and south of its cells).
    double y0 = p.y, y1 = q.y;
    if (dx > 0) {
      const double xa = std::clamp(static_cast<double>(X), p.x, q.x);
      const double xb = std::clamp(static_cast<double>(X + 1), p.x, q.x);
      y0 = p.y + ((xa - p.x) * dy) / dx;
      y1 = p.y + ((xb - p.x) * dy) / dx;
    }
    const auto r0 =
        std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(std::min(y0, y1))) - 1, -1);
    const auto r1 = std::min<std::int64_t>(
        static_cast<std::int64_t>(std::floor(std::max(y0, y1))) + 1, g.height() - 1);
    for (std::int64_t R = r0; R <= r1; ++R) {
      const NodeId n = g.id(static_cast<int>(X), static_cast<int>(R));
      const auto x = static_cast<double>(X), y = static_cast<double>(R);
      if (R >= 0 && g.wall_east_id(n) && !edge_ok(x + 1, y, x + 1, y + 1)) return false;
      if (X >= 0 && g.wall_south_id(n) && !edge_ok(x, y + 1, x + 1, y + 1)) return false;
    }
  }
  return true;
}

}  // namespace

bool line_of_sight(const Grid& g, DiagonalRule rule, Point a, Point b) noexcept {
  if (is_hex(g.layout())) {
    const Point e = hex::extent(g.layout(), g.width(), g.height());
    auto inside = [&](Point p) {
      return std::isfinite(p.x) && std::isfinite(p.y) && p.x >= 0 && p.y >= 0 && p.x <= e.x &&
             p.y <= e.y;
    };
    if (!inside(a) || !inside(b)) return false;
    if (floor_of_point(g, a) != floor_of_point(g, b)) return false;
    if (b.x < a.x || (b.x == a.x && b.y < a.y)) std::swap(a, b);
    return hex_clear(g, a, b);
  }
  auto inside = [&](Point p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && p.x >= 0 && p.y >= 0 && p.x <= g.width() &&
           p.y <= g.height();
  };
  if (!inside(a) || !inside(b)) return false;
  if (floor_of_point(g, a) != floor_of_point(g, b)) return false;
  // One canonical order, so that LOS is symmetric to the last bit.
  if (b.x < a.x || (b.x == a.x && b.y < a.y)) std::swap(a, b);
  if (g.has_edge_walls() && !edges_clear(g, rule == DiagonalRule::one_corner, a, b)) {
    return false;
  }
  const bool closed = rule == DiagonalRule::never || rule == DiagonalRule::no_corner_cut;
  if (a == b) {
    // A single point: the cells whose closed square holds it; all free (closed rules) or one.
    const auto x1 = static_cast<std::int64_t>(std::floor(a.x));
    const auto y1 = static_cast<std::int64_t>(std::floor(a.y));
    const std::int64_t x0 = is_integer(a.x) ? x1 - 1 : x1, y0 = is_integer(a.y) ? y1 - 1 : y1;
    bool all = true, any = false;
    for (std::int64_t y = y0; y <= y1; ++y) {
      for (std::int64_t x = x0; x <= x1; ++x) {
        const bool f = free_cell(g, x, y);
        all = all && f;
        any = any || f;
      }
    }
    return closed ? all : any;
  }
  if (closed) return closed_clear(g, a, b);
  return open_clear(g, rule == DiagonalRule::one_corner, a, b);
}

}  // namespace pathlab::grid
