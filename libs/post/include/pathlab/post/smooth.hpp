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
/// an empty input gives an empty result. On every map kind (line of sight: grid/los.hpp): on
/// hex layouts distances are in hex units (a path of k moves is k long, and the result is
/// never longer); a step that is not a grid move (a link: to another floor, a portal) splits
/// the path into runs pruned on their own, and both its ends stay waypoints.
[[nodiscard]] std::vector<Cell> smooth(const grid::Grid& g, grid::DiagonalRule rule,
                                       std::span<const Cell> path,
                                       Smoothing method = Smoothing::refined,
                                       SmoothStats* stats = nullptr);

/// Euclidean length of the path through the centres of these cells.
[[nodiscard]] double length(std::span<const Cell> waypoints) noexcept;

/// The centre of cell c where g draws it: centre(c) on square layouts, hex::centre on hex
/// layouts (hex units: neighbours 1 apart).
[[nodiscard]] Point point_of(const grid::Grid& g, Cell c) noexcept;

/// The least cost of a link (grid::Link, either way for two-way ones) leading from a to b;
/// nothing when none does.
[[nodiscard]] std::optional<double> link_cost(const grid::Grid& g, Cell a, Cell b) noexcept;

/// The cost of a waypoint path on g: each step costs its segment's Euclidean length between
/// point_of() centres times `straight` (the straight-move cost) when the ends see each other
/// under `rule` on one floor, or the cost of a link from one end to the other when there is one
/// (to another floor, a portal), whichever is less. On a plain grid, length(waypoints) *
/// straight.
[[nodiscard]] double length(const grid::Grid& g, std::span<const Cell> waypoints,
                            double straight = 1.0,
                            grid::DiagonalRule rule = grid::DiagonalRule::no_corner_cut) noexcept;

/// A search result after smoothing.
struct SmoothedPath {
  std::vector<Cell> path;     ///< waypoints, start and goal included
  std::vector<Point> points;  ///< the same in map units (hex units on hex layouts)
  double cost = 0;  ///< Euclidean length times the straight-move cost, plus links (length(g, ...))
  std::uint64_t los_checks = 0;  ///< line-of-sight tests made (0 for anyangle-exact paths)
};

/// Smooths a found result of any algorithm under its options' diagonal rule (grid paths and
/// Theta* paths alike). The exact any-angle path is already shortest and bends at lattice
/// corners, not cells: it is returned as it is. Empty when r was not found.
[[nodiscard]] SmoothedPath smooth_result(const grid::Grid& g, const search::Options& o,
                                         const search::Result& r,
                                         Smoothing method = Smoothing::refined);

}  // namespace pathlab::post
