// Line of sight between cell centres (dispatch to the integer walk) and between arbitrary points
// (a column-by-column supercover whose crossings are each computed from the endpoints).
#include <pathlab/grid/los.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace pathlab::grid {

bool line_of_sight(const Grid& g, DiagonalRule rule, Cell a, Cell b) noexcept {
  if (!g.passable(a) || !g.passable(b)) return false;
  return dispatch_rule(
      rule, [&](auto r) { return line_of_sight_id<decltype(r)::value>(g, g.id(a), g.id(b)); });
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

}  // namespace

bool line_of_sight(const Grid& g, DiagonalRule rule, Point a, Point b) noexcept {
  auto inside = [&](Point p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && p.x >= 0 && p.y >= 0 && p.x <= g.width() &&
           p.y <= g.height();
  };
  if (!inside(a) || !inside(b)) return false;
  // One canonical order, so that LOS is symmetric to the last bit.
  if (b.x < a.x || (b.x == a.x && b.y < a.y)) std::swap(a, b);
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
