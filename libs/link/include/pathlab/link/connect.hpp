// Connecting two tiles (ALGORITHMS.md, "Link game"): two distinct cells holding the same kind
// connect when a polyline of at most 3 axis-aligned segments (at most 2 turns) joins them through
// empty cells, possibly through the one-cell ring outside the board.
#pragma once

#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/link/board.hpp>

namespace pathlab::link {

/// A connecting line: its corner points from the first tile to the second (2 to 4 points, in
/// board coordinates; -1 and width/height on the outside ring). Empty when there is none.
struct Connection {
  std::vector<Cell> points;  ///< the line's ends and corners, first tile first; empty: none

  /// Whether a line was found (points is not empty).
  [[nodiscard]] bool connected() const noexcept { return !points.empty(); }
  /// Same as connected().
  explicit operator bool() const noexcept { return connected(); }
  /// Turns (points - 2), -1 when not connected.
  [[nodiscard]] int turns() const noexcept {
    return points.empty() ? -1 : static_cast<int>(points.size()) - 2;
  }
  /// Cells walked: the sum of the segments' lengths (0 when not connected).
  [[nodiscard]] int length() const noexcept;
};

/// The connection between a and b preferring fewest turns, then shortest length; among equals
/// the first in a fixed order (documented in connect.cpp), so the answer is deterministic. Not
/// connected when a == b, either cell is outside the board or empty, the kinds differ, or no
/// line of at most two turns exists. Never throws.
[[nodiscard]] Connection connect(const Board& board, Cell a, Cell b);

/// Whether connect(board, a, b) would connect, without building the line (the fast test hints,
/// move lists and the solver use).
[[nodiscard]] bool connectable(const Board& board, Cell a, Cell b) noexcept;

}  // namespace pathlab::link
