// Flow fields: one search from the goals that every unit heading for them shares (shared
// docs/ALGORITHMS.md, "Flow fields"). The integration field D(c) is the least cost of a path from
// c to the nearest goal, with the moves, corner rule, unit (radius and class costs) and step
// costs of a forward path from c; the direction field gives each reachable cell that is not a
// goal its first move on such a path. A line-of-sight pass marks the cells near a goal that see
// it, so that units there walk straight at it instead of along grid moves.
//
// A Field is built once and then only read: any number of agents and threads may read it at
// once. After the map is edited, update() repairs the part the edits can change (or builds
// afresh when the grid's change log no longer reaches back) and then equals a fresh build.
//
// Lifetimes and staleness: a Field holds its own arrays, not the grid: its reads never touch
// the grid, which may be destroyed before it (the grid's address is only remembered so that
// update() knows whether it is given the same grid). So a read after an edit, without
// update(), answers for the map as it was when built or last updated; stale(g) tells, in one
// compare, whether that is the case. build() and update() read the grid: not while another
// thread edits it; update() writes the field: not while other threads read it.
//
// Every map kind (shared docs/ALGORITHMS.md "Hex grids", "Walls on cell edges", "Layered maps"):
// on a grid that is not plain() (hex layouts, edge walls, links between floors) D comes from one
// Dijkstra from the goals over reversed moves (grid::for_each_move_in: the cost of entering a
// cell paid on that cell, a link its own cost, one-way links only forward). Direction codes
// there: on hex layouts 0..5 in axial order ((+1,0), (+1,-1), (0,-1), (-1,0), (-1,+1), (0,+1)),
// ties to the lowest code; on square layouts the codes below, in their tie order; a cell whose
// first move takes a link gets grid::link_direction() (8 square, 6 hex), ranked after every grid
// direction. kDirDx/kDirDy cover the square codes 0..7 only: next(c) gives the cell the first
// move of every code leads to (a hex neighbour, the link's far end), on every map kind. The
// line-of-sight pass uses grid::line_of_sight (every kind; never across floors). update() on
// such a grid builds afresh (always equal to a fresh build); the plain square path is unchanged.
//
// Whole-map fields suit maps up to a few million cells (a 512x512 map takes about 1 ms); the
// sectored field (sectors.hpp) serves big maps sector by sector.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/grid/unit.hpp>

namespace pathlab::flow {

// Direction codes: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE (E = (+1,0), S = (0,+1)).

/// The column step of each direction code 0..7 (E, SE, S, SW, W, NW, N, NE): -1, 0 or +1.
inline constexpr std::array<int, 8> kDirDx = {1, 1, 0, -1, -1, -1, 0, 1};
/// The row step of each direction code 0..7 (E, SE, S, SW, W, NW, N, NE): -1, 0 or +1 (down).
inline constexpr std::array<int, 8> kDirDy = {0, 1, 1, 1, 0, -1, -1, -1};
/// No direction: a goal, an unreachable cell, a wall.
inline constexpr std::int8_t kNoDirection = -1;
/// +infinity: the distance() of a cell off the map, one the unit cannot use, or one from which
/// no goal is reachable.
inline constexpr double kUnreachable = std::numeric_limits<double>::infinity();

/// What a flow field is built for: the moves and unit of the paths to the goals and the range
/// of the line-of-sight pass.
struct Options {
  grid::Moves moves;  ///< legal diagonal steps and step costs; no-corner-cut, octile by default
  /// The unit the field is for: its radius and class costs (grid::Grid::view).
  grid::Unit unit;
  /// The line-of-sight pass: cells whose centre lies within this straight distance of a goal's
  /// centre, in cells, the distance included (Euclidean distance <= sight_range: with 5, the
  /// cells (5,0) and (3,4) away count, (5,1) away does not), and that see its centre
  /// (grid::line_of_sight on the unit's view) steer straight at it (sees(), steer()). 0
  /// turns the pass off (only the goal cells themselves then steer at their centre).
  /// [Limit: 0 to 1024.]
  double sight_range = 12;
};

/// What one build or repair did.
struct Stats {
  double time_us = 0;        ///< wall time of the build or repair
  std::int64_t settled = 0;  ///< cells whose distance was (re)computed
  bool rebuilt = false;      ///< update(): the whole field was built again
};

/// The tie order of the direction field: straight before diagonal, then E, SE, S, SW, W, NW, N,
/// NE. rank(code) is the position of a code in that order.
[[nodiscard]] constexpr int direction_rank(int code) noexcept {
  return (code & 1) * 4 + code / 2;
}

/// The integration and direction fields of a set of goals over a whole map (see the top of
/// this file). It owns its arrays and reads no grid but in build() and update(); a plain value
/// (copies are independent). Default-constructed, it is empty.
class Field {
 public:
  Field() = default;

  /// Builds the field of `goals` on `g` for `o`'s unit and moves. Returns a message and leaves
  /// the field empty when the options or goals are invalid (no goal, more than 65,535 goals, a
  /// goal outside the map or on a cell the unit cannot use, an invalid unit or sight range).
  /// Never throws but std::bad_alloc.
  std::optional<std::string> build(const grid::Grid& g, std::span<const Cell> goals,
                                   const Options& o);

  /// Whether the field no longer answers for `g` as it is now: it was built on g (or last
  /// updated with it) and g has changed since (its revision differs), or it was built on
  /// another grid. False for an empty field. One compare: cheap enough before every batch of
  /// reads; update(g) makes it false again.
  [[nodiscard]] bool stale(const grid::Grid& g) const noexcept {
    return grid_ != nullptr && (grid_ != &g || g.revision() != revision_);
  }

  /// Brings the field up to date with `g`, the grid it was built on, edited since: repairs the
  /// cells the edits can change (the edited area, the cells whose way to a goal crossed it,
  /// the cells it gives a shorter way) from the grid's change log, or builds afresh when the
  /// log no longer reaches back. A goal that became unusable keeps its place and gets no
  /// distance. Returns what it did; nothing when the field is already current.
  Stats update(const grid::Grid& g);

  /// Whether nothing is built: default-constructed, or the last build() was refused.
  [[nodiscard]] bool empty() const noexcept {
    return width_ == 0 && height_ == 0 && goals_.empty();
  }
  /// Columns of the map it was built on, in cells (0 when empty).
  [[nodiscard]] int width() const noexcept { return width_; }
  /// Rows of the map it was built on, in cells (0 when empty).
  [[nodiscard]] int height() const noexcept { return height_; }
  /// The goals, in the order given to build() (sees() indexes them); none when empty.
  [[nodiscard]] std::span<const Cell> goals() const noexcept { return goals_; }
  /// The options of the last build() (default options when empty).
  [[nodiscard]] const Options& options() const noexcept { return options_; }
  /// The grid revision the field matches.
  [[nodiscard]] std::uint64_t revision() const noexcept { return revision_; }
  /// The last build or update.
  [[nodiscard]] const Stats& stats() const noexcept { return stats_; }

  /// Whether c is a cell of the map it was built on (never when empty).
  [[nodiscard]] bool in_bounds(Cell c) const noexcept {
    return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_;
  }
  // The reads below answer for the map as it was at the last build() or update(): after an
  // edit of the grid, call update(g) first (stale(g) tells whether it is needed).

  /// D(c): the least cost to the nearest goal; kUnreachable outside the map, on cells the unit
  /// cannot use and where no goal is reachable. For the map as of the last build or update
  /// (stale()).
  [[nodiscard]] double distance(Cell c) const noexcept {
    return in_bounds(c) ? dist_[id(c)] : kUnreachable;
  }
  /// The first move toward the nearest goal (codes above; 0..5 on hex layouts, and
  /// grid::link_direction() where it takes a link), or kNoDirection. For the map as of the last
  /// build or update (stale()).
  [[nodiscard]] std::int8_t direction(Cell c) const noexcept {
    return in_bounds(c) ? code(dir_[id(c)]) : kNoDirection;
  }
  /// The index (into goals()) of the goal cell c sees within the sight range (distance <=
  /// Options::sight_range), the nearest in a straight line when it sees several; -1 when none
  /// (or the pass is off). For the map as of the last build or update (stale()).
  [[nodiscard]] int sees(Cell c) const noexcept {
    return in_bounds(c) ? static_cast<int>(sees_[id(c)]) - 1 : -1;
  }
  /// The cell the first move of c leads to (next cell down the direction field): the neighbour
  /// its code names (a hex neighbour on hex layouts) or, for grid::link_direction(), the far end
  /// of the link taken; nothing on goals, unreachable cells and outside the map. Works for
  /// every code on every map kind (kDirDx/kDirDy only cover the square codes 0..7).
  [[nodiscard]] std::optional<Cell> next(Cell c) const noexcept;

  /// Where a unit standing at p heads next: the goal's centre when its cell sees one (or is a
  /// goal), else the centre (in map coordinates: (x+0.5, y+0.5)) of next(cell); nothing on an
  /// unreachable cell or outside the map. For the map as of the last build or update (stale()).
  [[nodiscard]] std::optional<Point> steer(Point p) const noexcept;

  /// The fields as row-major arrays (index y * width + x), for output; for the map as of the
  /// last build or update (stale()).
  [[nodiscard]] std::vector<double> distances() const;
  /// direction() of every cell, row-major (index y * width + x); kNoDirection where none.
  [[nodiscard]] std::vector<std::int8_t> directions() const;

  /// Padded-layout access (the grid's grid::NodeId), for hot loops; for the map as of the last
  /// build or update (stale()).
  [[nodiscard]] std::int32_t stride() const noexcept { return width_ + 2; }
  /// The padded id of c, (y+1)*stride + (x+1), as the grid numbers it. Unchecked.
  [[nodiscard]] grid::NodeId id(Cell c) const noexcept {
    return static_cast<grid::NodeId>((c.y + 1) * (width_ + 2) + (c.x + 1));
  }
  /// distance() by padded id (kUnreachable on the padding). Unchecked: n < stride * (height+2).
  [[nodiscard]] double distance_id(grid::NodeId n) const noexcept { return dist_[n]; }
  /// direction() by padded id (kNoDirection on the padding). Unchecked, as distance_id().
  [[nodiscard]] std::int8_t direction_id(grid::NodeId n) const noexcept { return code(dir_[n]); }

 private:
  void settle_all(const grid::Grid& view, std::span<const grid::NodeId> seeds);
  void settle_general(const grid::Grid& view, std::span<const grid::NodeId> seeds);
  template <grid::DiagonalRule R, bool Terrain>
  void settle(const grid::Grid& view, std::span<const grid::NodeId> seeds);
  template <grid::DiagonalRule R>
  void sweep(const grid::Grid& view, std::span<const grid::NodeId> seeds);
  void repair(const grid::Grid& view, std::span<const grid::Rect> areas);
  void sight_pass(const grid::Grid& view);
  std::int8_t best_direction(const grid::Grid& view, grid::NodeId n) const;

  int width_ = 0, height_ = 0;
  std::vector<Cell> goals_;
  Options options_;
  std::uint64_t revision_ = 0;
  const grid::Grid* grid_ = nullptr;  ///< the grid built on (update() checks it is the same)
  bool plain_ = true;  ///< built on a plain() grid (the square fast path; next_ empty)
  static constexpr grid::NodeId kNoNode = ~grid::NodeId{0};
  /// Padded layout, only when not plain_: the node the first move leads to (kNoNode where none).
  std::vector<grid::NodeId> next_;
  std::vector<double> dist_;  ///< padded layout
  /// Padded layout, one byte a cell so that steer() reads one array: the direction code, plus
  /// kSeesBit where the cell sees a goal; kNoDirection where no goal is reachable, kGoalByte on
  /// goals.
  std::vector<std::int8_t> dir_;
  static constexpr std::int8_t kSeesBit = 16;
  static constexpr std::int8_t kCodeMask = 15;
  static constexpr std::int8_t kGoalByte = -2;
  [[nodiscard]] static constexpr std::int8_t code(std::int8_t b) noexcept {
    return b < 0 ? kNoDirection : static_cast<std::int8_t>(b & kCodeMask);
  }
  std::vector<std::uint16_t> sees_;  ///< padded layout: goal index + 1, 0 = none
  Stats stats_;
};

}  // namespace pathlab::flow
