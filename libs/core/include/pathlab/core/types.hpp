// Basic value types shared by every pathlab module: cells, points, costs and the status of a query.
// Coordinates follow Moving AI: x is the column, y the row, (0,0) the top-left cell.
#pragma once

#include <cstdint>
#include <string_view>

namespace pathlab {

/// A grid cell. x = column, y = row.
struct Cell {
  std::int32_t x = 0;  ///< column, 0 at the left
  std::int32_t y = 0;  ///< row, 0 at the top
  /// Same column and row.
  friend constexpr bool operator==(Cell, Cell) = default;
};

/// A point in map units; the centre of cell (x,y) is (x+0.5, y+0.5).
struct Point {
  double x = 0;  ///< map units rightwards from the grid's left edge
  double y = 0;  ///< map units downwards from the grid's top edge
  /// Exact equality of both coordinates, with no tolerance.
  friend constexpr bool operator==(Point, Point) = default;
};

/// The centre of cell c in map units: (c.x + 0.5, c.y + 0.5).
[[nodiscard]] constexpr Point centre(Cell c) noexcept {
  return {c.x + 0.5, c.y + 0.5};
}

/// A path or step cost: the sum of the step costs (1 and sqrt 2, or 10 and 14 with the integer
/// cost model, times the terrain cost of the cell entered); any-angle paths add segment lengths.
using Cost = double;

/// Outcome of a query. The query API reports these and never throws.
enum class Status : std::uint8_t { found, no_path, node_limit, invalid_input };

/// The status's name as the JSON output spells it: "found", "no_path", "node_limit" or
/// "invalid_input" ("unknown" for a value outside the enum).
[[nodiscard]] constexpr std::string_view to_string(Status s) noexcept {
  switch (s) {
    case Status::found:
      return "found";
    case Status::no_path:
      return "no_path";
    case Status::node_limit:
      return "node_limit";
    case Status::invalid_input:
      return "invalid_input";
  }
  return "unknown";
}

}  // namespace pathlab
