// Hex grids (shared docs/ALGORITHMS.md, "Hex grids"): the four offset layouts, axial
// coordinates, the six moves and their direction codes, hex distance and the real geometry of
// hex centres (for line of sight, renders and the page).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::grid::hex {

/// Axial coordinates of a hex.
struct Axial {
  int q = 0;  ///< axial column
  int r = 0;  ///< axial row
  /// Same q and r.
  friend constexpr bool operator==(Axial, Axial) = default;
};

/// The axial coordinates of cell (x, y) in a hex layout (the formulas of ALGORITHMS.md).
/// Layout::square is treated as pointy-odd-r.
[[nodiscard]] constexpr Axial to_axial(Layout l, int x, int y) noexcept {
  switch (l) {
    case Layout::pointy_even_r:
      return {x - (y + (y & 1)) / 2, y};
    case Layout::flat_odd_q:
      return {x, y - (x - (x & 1)) / 2};
    case Layout::flat_even_q:
      return {x, y - (x + (x & 1)) / 2};
    case Layout::pointy_odd_r:
    case Layout::square:
    default:
      return {x - (y - (y & 1)) / 2, y};
  }
}

/// The cell (x, y) of axial coordinates a (the inverse of to_axial).
[[nodiscard]] constexpr Cell from_axial(Layout l, Axial a) noexcept {
  switch (l) {
    case Layout::pointy_even_r:
      return {a.q + (a.r + (a.r & 1)) / 2, a.r};
    case Layout::flat_odd_q:
      return {a.q, a.r + (a.q - (a.q & 1)) / 2};
    case Layout::flat_even_q:
      return {a.q, a.r + (a.q + (a.q & 1)) / 2};
    case Layout::pointy_odd_r:
    case Layout::square:
    default:
      return {a.q + (a.r - (a.r & 1)) / 2, a.r};
  }
}

/// The six axial moves in the order of their direction codes 0..5 (a hex flow field's codes).
inline constexpr std::array<Axial, 6> kDirections = {Axial{+1, 0}, Axial{+1, -1}, Axial{0, -1},
                                                     Axial{-1, 0}, Axial{-1, +1}, Axial{0, +1}};

/// Hex distance: (|dq| + |dr| + |dq + dr|) / 2, the fewest moves between two hexes.
[[nodiscard]] constexpr int distance(Axial a, Axial b) noexcept {
  const int dq = a.q - b.q, dr = a.r - b.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}
/// Hex distance between two cells of layout l.
[[nodiscard]] constexpr int distance(Layout l, Cell a, Cell b) noexcept {
  return distance(to_axial(l, a.x, a.y), to_axial(l, b.x, b.y));
}

/// Whether the layout shifts rows (pointy-top hexes) rather than columns (flat-top).
[[nodiscard]] constexpr bool pointy(Layout l) noexcept {
  return l == Layout::pointy_odd_r || l == Layout::pointy_even_r || l == Layout::square;
}

/// The (dx, dy) of move `dir` (0..5) from a cell whose shifted coordinate (the row for pointy
/// layouts, the column for flat ones) has parity `odd`.
struct Offset {
  int dx = 0;  ///< column step
  int dy = 0;  ///< row step
};
/// The offsets of the six moves for each parity of the shifted coordinate: [odd][dir].
[[nodiscard]] constexpr std::array<std::array<Offset, 6>, 2> offsets(Layout l) noexcept {
  std::array<std::array<Offset, 6>, 2> out{};
  for (int odd = 0; odd < 2; ++odd) {
    // A cell of that parity, far from 0 so that the divisions above never round a negative.
    const Cell c = pointy(l) ? Cell{8, 8 + odd} : Cell{8 + odd, 8};
    const Axial a = to_axial(l, c.x, c.y);
    for (int d = 0; d < 6; ++d) {
      const Cell n = from_axial(l, {a.q + kDirections[d].q, a.r + kDirections[d].r});
      out[odd][d] = {n.x - c.x, n.y - c.y};
    }
  }
  return out;
}

/// Whether the cell's shifted coordinate is odd (which offsets() row its moves use).
[[nodiscard]] constexpr bool odd(Layout l, int x, int y) noexcept {
  return ((pointy(l) ? y : x) & 1) != 0;
}

/// The neighbour of cell (x, y) in direction d (0..5), which may lie outside the map.
[[nodiscard]] constexpr Cell neighbour(Layout l, int x, int y, int d) noexcept {
  const Axial a = to_axial(l, x, y);
  return from_axial(l, {a.q + kDirections[d].q, a.r + kDirections[d].r});
}

/// The centre of cell (x, y) in a hex layout, in hex units: neighbouring centres are 1 apart
/// (a hex of size s, centre to corner, has its neighbours sqrt(3)*s away: here s = 1/sqrt 3).
/// Pointy layouts: (x + 0.5 [+ 0.5 on a shifted row], s + y * sqrt(3)/2); flat layouts:
/// (s + x * sqrt(3)/2, y + 0.5 [+ 0.5 on a shifted column]). The map's hexes start at 0 on
/// both axes (extent() gives where they end).
[[nodiscard]] Point centre(Layout l, int x, int y) noexcept;
/// The distance from a hex's centre to each of its corners: 1/sqrt(3) in hex units.
inline constexpr double kCorner = 0.57735026918962576;
/// The six corners of the hex of cell (x, y), in hex units, counter-clockwise from angle 0 for
/// flat layouts and from 30 degrees for pointy ones (y grows downwards).
[[nodiscard]] std::array<Point, 6> corners(Layout l, int x, int y) noexcept;
/// The ends of the edge cell (x, y) shares with its neighbour in direction d (0..5), in hex
/// units: the two corners of both hexes (a wall on that edge is this closed segment).
[[nodiscard]] std::array<Point, 2> edge(Layout l, int x, int y, int d) noexcept;
/// The size of a w x h hex map's drawing in hex units: its hexes' bounding box from (0, 0).
[[nodiscard]] Point extent(Layout l, int width, int height) noexcept;

}  // namespace pathlab::grid::hex
