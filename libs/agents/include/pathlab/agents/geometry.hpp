// Closest-point queries in map units (a cell (x,y) is the unit square [x,x+1]×[y,y+1]) used to
// find x_o, the nearest obstacle point of the potential field (see potential_field.hpp):
// segments, closed polygons, discs, cell squares and the walls of a grid.
#pragma once

#include <optional>
#include <span>

#include <pathlab/agents/vec2.hpp>
#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::agents {

/// Result of a closest-point query against a shape.
struct NearestPoint {
  /// The nearest point on the shape's boundary (see each function for points inside).
  Vec2 point;
  /// Distance from the query point to the shape as a solid region: |p - point| outside, 0 on
  /// the boundary and inside (except discs, which report a signed distance: negative inside).
  double distance = 0;
  /// The query point lies in the closed region (boundary included).
  bool inside = false;
};

/// The point of segment [a,b] nearest to p (a for a degenerate segment a == b).
[[nodiscard]] Vec2 closest_point_on_segment(Vec2 p, Vec2 a, Vec2 b) noexcept;

/// Whether p lies in the closed polygon (vertices in order, either orientation, the edge
/// last->first implied). Even-odd rule, so self-intersecting polygons work as even-odd regions.
/// Points on the boundary count as inside (tested exactly, then within 1e-12 of an edge). Fewer
/// than three vertices: only points on the degenerate boundary are inside.
[[nodiscard]] bool point_in_polygon(Vec2 p, std::span<const Vec2> polygon) noexcept;

/// Nearest point on the boundary of a closed polygon. Inside: `point` is still the nearest
/// boundary point (the way out), `distance` is 0 and `inside` is true. An empty polygon has no
/// points: returns {p, +infinity, false}.
[[nodiscard]] NearestPoint nearest_on_polygon(Vec2 p, std::span<const Vec2> polygon) noexcept;

/// Nearest point on the circle bounding the disc (centre, radius >= 0). `distance` is signed:
/// |p - centre| - radius, negative inside, 0 on the circle; `inside` is distance <= 0. At the
/// centre every boundary point is nearest: we return centre + (radius, 0) (documented choice).
[[nodiscard]] NearestPoint nearest_on_disc(Vec2 p, Vec2 centre, double radius) noexcept;

/// Nearest point on the unit square of cell c. Outside: the clamped point. Inside (closed
/// square): `point` is the nearest point of the square's boundary (ties: left, right, top,
/// bottom edge in that order — x- then y-), `distance` 0, `inside` true.
[[nodiscard]] NearestPoint nearest_on_cell(Vec2 p, Cell c) noexcept;

/// The nearest point of any blocked cell's square, the outside of the map counting as wall (the
/// border ring of cells -1 and width/height covers it), within max_dist of p (inclusive), or
/// nullopt when none is that close (also for max_dist < 0 or a non-finite p or max_dist).
/// Only the cells overlapping the box [p - max_dist, p + max_dist] are scanned, each with the
/// exact square distance; the scan is clipped to the map plus its border ring, so the cost is at
/// most (w+2)(h+2) cells. Ties go to the first cell in row-major order (y, then x).
/// p inside a wall square or outside the map: {p, 0, inside = true} — the agent is in collision
/// and there is no meaningful "nearest point" on the wall region (n_OR is undefined there).
[[nodiscard]] std::optional<NearestPoint> nearest_wall_point(const grid::Grid& grid, Vec2 p,
                                                             double max_dist);

}  // namespace pathlab::agents
