// Path post-processing: waypoint pruning of a grid path by line of sight (the users' path
// optimisation), and a refinement that shortens it further. Definitions: shared
// docs/ALGORITHMS.md, "Line of sight and any-angle paths". Every segment of a result has line of
// sight under the rule given (pass the clearance grid for an agent), and the result is never
// longer than the input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::post {

/// How smooth() prunes a path's waypoints.
enum class Smoothing : std::uint8_t {
  /// The users' method: walk the path and keep a waypoint only when the next cell is not
  /// visible from the last kept one. One pass, one LOS check per cell.
  greedy,
  /// greedy, then string pulling over the path's own cells: each kept waypoint moves to the
  /// cell (between its two neighbours' positions on the path) that shortens the two segments
  /// most while both stay visible, and a waypoint goes when its neighbours see each other;
  /// repeated until nothing changes. Never longer than greedy.
  refined,
};

/// The method's name as the CLI spells it: "greedy" or "refined".
[[nodiscard]] std::string_view to_string(Smoothing s) noexcept;
/// The method named "greedy" or "refined"; nullopt for any other text.
[[nodiscard]] std::optional<Smoothing> parse_smoothing(std::string_view s) noexcept;

/// Work counters that smooth() adds to (it never resets them, so one can sum several calls).
struct SmoothStats {
  std::uint64_t los_checks = 0;  ///< line-of-sight tests made
};

/// The waypoints (start and goal included) of a smoothed grid path. The input must be a path
/// whose consecutive cells see each other (every legal grid path under the same rule does);
/// an empty input gives an empty result.
[[nodiscard]] std::vector<Cell> smooth(const grid::Grid& g, grid::DiagonalRule rule,
                                       std::span<const Cell> path,
                                       Smoothing method = Smoothing::refined,
                                       SmoothStats* stats = nullptr);

/// Euclidean length of the path through the centres of these cells.
[[nodiscard]] double length(std::span<const Cell> waypoints) noexcept;

/// A search result after smoothing.
struct SmoothedPath {
  std::vector<Cell> path;        ///< waypoints, start and goal included
  std::vector<Point> points;     ///< the same in map units
  double cost = 0;               ///< Euclidean length times the straight-move cost
  std::uint64_t los_checks = 0;  ///< line-of-sight tests made (0 for anyangle-exact paths)
};

/// Smooths a found result of any algorithm under its options' diagonal rule (grid paths and
/// Theta* paths alike). The exact any-angle path is already shortest and bends at lattice
/// corners, not cells: it is returned as it is. Empty when r was not found.
[[nodiscard]] SmoothedPath smooth_result(const grid::Grid& g, const search::Options& o,
                                         const search::Result& r,
                                         Smoothing method = Smoothing::refined);

}  // namespace pathlab::post
