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
//
// The other map kinds (shared docs/ALGORITHMS.md, "Hex grids", "Walls on cell edges", "Layered
// maps") go through line_of_sight_any(), which takes the fast path above on a plain() grid:
//   edge walls: the cell rule above, and the segment must not cross a blocked edge; touching a
//     blocked edge's end point (a lattice corner the segment passes through) counts as crossing
//     under never, no_corner_cut and always; under one_corner such a corner needs one of its two
//     routes open (the side cell free and both edges from it open), exactly as a diagonal move.
//     So for 8-adjacent cells LOS still equals the legality of the move (topology.hpp).
//   hex layouts: between hex centres in the real geometry (hex::centre, hex units), every hex
//     whose closed region touches the segment must be free (a tolerance of 1e-9 hex units, so
//     that touching at a vertex or running along an edge counts); hexes outside the map count
//     as walls, as the padding of square grids does. There is no corner rule: every rule gives
//     the same answer. Computed geometrically over the rows the segment spans, not with the
//     cube-coordinate lerp (which misses hexes touched at a vertex).
//   layered maps: cells on different floors never see each other (links are not sight lines);
//     within a floor the rules of its layout apply.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

namespace pathlab::grid {

namespace detail {
/// Whether any of bits [first, last] of the words w is set: 64 at a time.
[[nodiscard]] inline bool any_bit(const std::uint64_t* w, std::size_t first,
                                  std::size_t last) noexcept {
  std::size_t wi = first >> 6;
  const std::size_t wl = last >> 6;
  const std::uint64_t head = ~std::uint64_t{0} << (first & 63);
  const std::uint64_t tail = ~std::uint64_t{0} >> (63 - (last & 63));
  if (wi == wl) return (w[wi] & head & tail) != 0;
  if ((w[wi] & head) != 0) return true;
  for (++wi; wi < wl; ++wi) {
    if (w[wi] != 0) return true;
  }
  return (w[wl] & tail) != 0;
}
/// Whether any cell with padded id in [first, last] (one row) is a wall.
[[nodiscard]] inline bool any_wall_in_row(const Grid& g, NodeId first, NodeId last) noexcept {
  return any_bit(g.wall_words().data(), first, last);
}
}  // namespace detail

namespace detail {
/// Whether the step from n to its horizontal neighbour n + sx (sx = +1 or -1) crosses an edge
/// wall.
[[nodiscard]] inline bool wall_across_x(const Grid& g, NodeId n, std::int32_t sx) noexcept {
  return g.wall_east_id(sx > 0 ? n : n - 1);
}
/// Whether the step from n to its vertical neighbour n + sy (sy = +stride or -stride) crosses
/// an edge wall.
[[nodiscard]] inline bool wall_across_y(const Grid& g, NodeId n, std::int32_t sy) noexcept {
  return g.wall_south_id(sy > 0 ? n : static_cast<NodeId>(static_cast<std::int64_t>(n) + sy));
}
}  // namespace detail

namespace detail {
/// floor(n / d) and ceil(n / d) for d > 0, n of either sign.
[[nodiscard]] constexpr std::int64_t floor_div(std::int64_t n, std::int64_t d) noexcept {
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}
[[nodiscard]] constexpr std::int64_t ceil_div(std::int64_t n, std::int64_t d) noexcept {
  return n >= 0 ? (n + d - 1) / d : -(-n / d);
}

/// The cells a segment between the centres of cells (ax, ay) and (bx, by) touches, row by row
/// (ay != by): calls any_wall(r, c0, c1) for each row r it crosses with the run [c0, c1] of
/// columns it touches there, and answers false as soon as one says a wall stands in its run.
/// In doubled coordinates (centres odd) the segment's part in a row of cells spans an exact
/// rational interval of x; the closed squares it touches there (never, no-corner-cut; under
/// always only the squares whose interior it crosses) are one run. Whichever way round the
/// axes are named: with x and y swapped it walks columns. The cells are the walk's, so the
/// answer is line_of_sight_id's; the time is one test per row.
template <DiagonalRule R, class AnyWall>
[[nodiscard]] inline bool los_runs(std::int64_t ax, std::int64_t ay, std::int64_t bx,
                                   std::int64_t by, AnyWall&& any_wall) {
  static_assert(R != DiagonalRule::one_corner);
  if (ay > by) {  // upwards: the same segment from the other end
    std::swap(ax, bx);
    std::swap(ay, by);
  }
  // Leftwards: mirrored (cell c <-> -c - 1), so that x never decreases with y.
  const bool mirror = bx < ax;
  if (mirror) {
    ax = -ax - 1;
    bx = -bx - 1;
  }
  auto wall = [&](std::int64_t r, std::int64_t c0, std::int64_t c1) {
    return mirror ? any_wall(r, -c1 - 1, -c0 - 1) : any_wall(r, c0, c1);
  };
  // x at height Y, times DY: N(Y) = Ax*DY + (Y - Ay)*DX, non-decreasing. A row's run goes from
  // N at its lower end (the row's edge, or the start) to N at its upper end, over D = 2 DY.
  const std::int64_t Ax = 2 * ax + 1, Ay = 2 * ay + 1, By = 2 * by + 1;
  const std::int64_t DX = 2 * (bx - ax), DY = By - Ay, D = 2 * DY;  // DX >= 0, DY > 0
  // The first column touched from N = n on (floor and remainder q, m of n / D), the last up to.
  auto first = [](std::int64_t q, std::int64_t m) {
    if constexpr (R == DiagonalRule::always) {
      return q;
    } else {
      return q + (m != 0) - 1;
    }
  };
  auto last = [](std::int64_t q, std::int64_t m) {
    if constexpr (R == DiagonalRule::always) {
      return q + (m != 0) - 1;
    } else {
      return q;
    }
  };
  const std::int64_t n_start = Ax * DY;
  std::int64_t c0 = first(floor_div(n_start, D), n_start - floor_div(n_start, D) * D);
  if (ay < by) {
    // Row edges Y = 2r + 2, one division and then a fixed step per row.
    const std::int64_t n = n_start + DX;  // N(2 ay + 2)
    std::int64_t q = floor_div(n, D), m = n - q * D;
    const std::int64_t qs = (2 * DX) / D, ms = (2 * DX) % D;
    for (std::int64_t r = ay; r < by; ++r) {
      if (wall(r, c0, last(q, m))) return false;
      c0 = first(q, m);
      q += qs;
      m += ms;
      if (m >= D) m -= D, ++q;
    }
  }
  const std::int64_t n_end = (2 * bx + 1) * DY;
  const std::int64_t q_end = floor_div(n_end, D);
  return !wall(by, c0, last(q_end, n_end - q_end * D));
}

/// los_runs over the grid's own rows of wall bits (a shallow segment: few rows, long runs).
template <DiagonalRule R>
[[nodiscard]] inline bool los_rows(const Grid& g, NodeId a, std::int32_t ax, std::int32_t ay,
                                   std::int32_t bx, std::int32_t by) noexcept {
  const std::int64_t stride = g.stride();
  return los_runs<R>(ax, ay, bx, by, [&](std::int64_t r, std::int64_t c0, std::int64_t c1) {
    const auto first =
        static_cast<NodeId>(static_cast<std::int64_t>(a) + (r - ay) * stride + (c0 - ax));
    return any_wall_in_row(g, first, static_cast<NodeId>(first + (c1 - c0)));
  });
}
}  // namespace detail

/// LOS between the centres of cells a and b (padded ids of in-bounds cells, with their x and
/// y in any common origin: only differences count), rule fixed at compile time: the searches' fast
/// path. Integer walk (no floating point): at each step the segment leaves the current cell through
/// a vertical side, a horizontal side or a corner, decided by comparing (2k+1)*|dy| with
/// (2m+1)*|dx|. With Edges (square maps with edge walls), each crossing is also checked against
/// the edge it crosses and each lattice corner against the four edges that meet there (see the
/// top of this file).
template <DiagonalRule R, bool Edges = false>
[[nodiscard]] inline bool line_of_sight_id(const Grid& g, NodeId a, std::int32_t ax,
                                           std::int32_t ay, NodeId b, std::int32_t bx,
                                           std::int32_t by) noexcept {
  using detail::wall_across_x;
  using detail::wall_across_y;
  const std::int32_t stride = g.stride();
  const std::int64_t dx = std::abs(bx - ax), dy = std::abs(by - ay);
  if constexpr (!Edges) {
    if (dy == 0) return !detail::any_wall_in_row(g, a < b ? a : b, a < b ? b : a);
    // Long shallow segments row by row, a word of cells at a time (the same cells).
    if constexpr (R != DiagonalRule::one_corner) {
      if (dx >= 16 && dx > 2 * dy) return detail::los_rows<R>(g, a, ax, ay, bx, by);
    }
  }
  if (!g.passable_id(a)) return false;
  const std::int32_t sx = bx > ax ? 1 : -1;
  const std::int32_t sy = by > ay ? stride : -stride;
  NodeId n = a;
  if constexpr (Edges) {
    if (dy == 0) {
      for (std::int64_t i = 0; i < dx; ++i) {
        if (wall_across_x(g, n, sx)) return false;
        n += sx;
        if (!g.passable_id(n)) return false;
      }
      return true;
    }
  }
  if (dx == 0) {
    for (std::int64_t i = 0; i < dy; ++i) {
      if constexpr (Edges) {
        if (wall_across_y(g, n, sy)) return false;
      }
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
      if constexpr (Edges) {
        if (wall_across_x(g, n, sx)) return false;
      }
      n += sx;
      e += 2 * dy;
    } else if (e > 0) {
      if constexpr (Edges) {
        if (wall_across_y(g, n, sy)) return false;
      }
      n += sy;
      e -= 2 * dx;
    } else if constexpr (Edges) {
      // The corner between n, its side cells p (across x) and q (across y), and c.
      const NodeId p = n + sx, q = n + sy;
      const bool e_np = !wall_across_x(g, n, sx), e_pc = !wall_across_y(g, p, sy);
      const bool e_nq = !wall_across_y(g, n, sy), e_qc = !wall_across_x(g, q, sx);
      if constexpr (R == DiagonalRule::one_corner) {
        const bool r1 = g.passable_id(p) && e_np && e_pc, r2 = g.passable_id(q) && e_nq && e_qc;
        if (!r1 && !r2) return false;
      } else {
        if (!(e_np && e_pc && e_nq && e_qc)) return false;
        if constexpr (R != DiagonalRule::always) {
          if (!g.passable_id(p) || !g.passable_id(q)) return false;
        }
      }
      n += sx + sy;
      e += 2 * (dy - dx);
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

namespace detail {
/// LOS between the centres of two cells of a hex layout (both on the map), in los.cpp.
[[nodiscard]] bool hex_line_of_sight(const Grid& g, Cell a, Cell b) noexcept;
}  // namespace detail

/// LOS between the centres of cells a and b (padded ids of cells on the map) on any map kind
/// (see the top of this file): the fast path line_of_sight_id on a plain() grid, otherwise
/// floors, hex geometry and edge walls. False when a or b is a wall.
template <DiagonalRule R>
[[nodiscard]] inline bool line_of_sight_any(const Grid& g, NodeId a, NodeId b) noexcept {
  if (g.plain()) return line_of_sight_id<R>(g, a, b);
  if (!g.passable_id(a) || !g.passable_id(b)) return false;
  const Cell ca = g.cell(a), cb = g.cell(b);
  if (g.layer_of(ca.y) != g.layer_of(cb.y)) return false;
  if (is_hex(g.layout())) return detail::hex_line_of_sight(g, ca, cb);
  if (g.has_edge_walls()) return line_of_sight_id<R, true>(g, a, ca.x, ca.y, b, cb.x, cb.y);
  return line_of_sight_id<R>(g, a, ca.x, ca.y, b, cb.x, cb.y);
}

/// LOS between the centres of cells a and b on any map kind (line_of_sight_any). False when
/// either is outside the map or a wall.
[[nodiscard]] bool line_of_sight(const Grid& g, DiagonalRule rule, Cell a, Cell b) noexcept;

/// LOS between two points in map units (an agent's position, a waypoint): the same rule applied
/// to the segment's exact cells (each crossing is computed from the endpoints, so nothing drifts
/// along long segments). A segment lying on a grid line touches the cells on both sides: under
/// never/no_corner_cut both must be free, under one_corner/always at least one. False when an
/// endpoint is outside the map. line_of_sight(g, r, centre(a), centre(b)) equals the cell form.
/// On a hex layout the points are in hex units (hex::centre's frame) and the hex rule applies
/// (line_of_sight(g, r, hex::centre(a), hex::centre(b)) equals the cell form); with edge walls,
/// the segment must also not touch a blocked edge (at a lattice corner strictly inside the
/// segment, under one_corner, one of the corner's two routes open suffices, as for cells); on a
/// layered map both points must lie on the same floor.
[[nodiscard]] bool line_of_sight(const Grid& g, DiagonalRule rule, Point a, Point b) noexcept;

}  // namespace pathlab::grid
