// Line of sight on a grid, as shared docs/ALGORITHMS.md defines it ("Line of sight and any-angle
// paths"): the segment between two cell centres (or two points) sees through when every cell it
// touches is free, a supercover walk that never skips a cell the way Bresenham does.
//   never, no_corner_cut: every cell whose closed square touches the segment must be free; where
//     the segment passes exactly through a lattice corner, all four cells around it count.
//   one_corner: a lattice-corner crossing needs at least one of its two side cells free.
//   always: only the cells whose interior the segment crosses count.
// So for 8-adjacent cells LOS equals the legality of that diagonal move under the same rule
// (under `never`, which has no diagonal moves, it is the no_corner_cut answer). Pass the
// clearance grid of an agent to get LOS for that agent.
#pragma once

#include <cstdint>
#include <cstdlib>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

namespace pathlab::grid {

namespace detail {
/// Whether any cell with padded id in [first, last] (one row) is a wall: 64 cells per word.
[[nodiscard]] inline bool any_wall_in_row(const Grid& g, NodeId first, NodeId last) noexcept {
  const auto& w = g.wall_words();
  std::size_t wi = first >> 6, wl = last >> 6;
  const std::uint64_t head = ~std::uint64_t{0} << (first & 63);
  const std::uint64_t tail = ~std::uint64_t{0} >> (63 - (last & 63));
  if (wi == wl) return (w[wi] & head & tail) != 0;
  if ((w[wi] & head) != 0) return true;
  for (++wi; wi < wl; ++wi) {
    if (w[wi] != 0) return true;
  }
  return (w[wl] & tail) != 0;
}
}  // namespace detail

/// LOS between the centres of cells a and b (padded ids of in-bounds cells, with their x and
/// y in any common origin: only differences count), rule fixed at compile time: the searches' fast
/// path. Integer walk (no floating point): at each step the segment leaves the current cell through
/// a vertical side, a horizontal side or a corner, decided by comparing (2k+1)*|dy| with
/// (2m+1)*|dx|.
template <DiagonalRule R>
[[nodiscard]] inline bool line_of_sight_id(const Grid& g, NodeId a, std::int32_t ax,
                                           std::int32_t ay, NodeId b, std::int32_t bx,
                                           std::int32_t by) noexcept {
  const std::int32_t stride = g.stride();
  const std::int64_t dx = std::abs(bx - ax), dy = std::abs(by - ay);
  if (dy == 0) return !detail::any_wall_in_row(g, a < b ? a : b, a < b ? b : a);
  if (!g.passable_id(a)) return false;
  const std::int32_t sx = bx > ax ? 1 : -1;
  const std::int32_t sy = by > ay ? stride : -stride;
  NodeId n = a;
  if (dx == 0) {
    for (std::int64_t i = 0; i < dy; ++i) {
      n += sy;
      if (!g.passable_id(n)) return false;
    }
    return true;
  }
  // e = (2k+1)*dy - (2m+1)*dx after k vertical and m horizontal crossings: < 0 means the next
  // vertical grid line comes first, > 0 the next horizontal one, 0 a lattice corner.
  std::int64_t e = dy - dx;
  while (n != b) {
    if (e < 0) {
      n += sx;
      e += 2 * dy;
    } else if (e > 0) {
      n += sy;
      e -= 2 * dx;
    } else {
      const bool side_x = g.passable_id(n + sx), side_y = g.passable_id(n + sy);
      if constexpr (R == DiagonalRule::never || R == DiagonalRule::no_corner_cut) {
        if (!side_x || !side_y) return false;
      } else if constexpr (R == DiagonalRule::one_corner) {
        if (!side_x && !side_y) return false;
      }
      n += sx + sy;
      e += 2 * (dy - dx);
    }
    if (!g.passable_id(n)) return false;
  }
  return true;
}

/// The same from padded ids alone.
template <DiagonalRule R>
[[nodiscard]] inline bool line_of_sight_id(const Grid& g, NodeId a, NodeId b) noexcept {
  const auto stride = static_cast<NodeId>(g.stride());
  return line_of_sight_id<R>(
      g, a, static_cast<std::int32_t>(a % stride), static_cast<std::int32_t>(a / stride), b,
      static_cast<std::int32_t>(b % stride), static_cast<std::int32_t>(b / stride));
}

/// LOS between the centres of cells a and b. False when either is outside the map or a wall.
[[nodiscard]] bool line_of_sight(const Grid& g, DiagonalRule rule, Cell a, Cell b) noexcept;

/// LOS between two points in map units (an agent's position, a waypoint): the same rule applied
/// to the segment's exact cells (each crossing is computed from the endpoints, so nothing drifts
/// along long segments). A segment lying on a grid line touches the cells on both sides: under
/// never/no_corner_cut both must be free, under one_corner/always at least one. False when an
/// endpoint is outside the map. line_of_sight(g, r, centre(a), centre(b)) equals the cell form.
[[nodiscard]] bool line_of_sight(const Grid& g, DiagonalRule rule, Point a, Point b) noexcept;

}  // namespace pathlab::grid
