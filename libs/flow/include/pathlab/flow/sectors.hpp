// Sectored flow fields for big maps (shared docs/ALGORITHMS.md, "Flow fields", sectors; after
// Emerson, "Crowd Pathfinding and Steering Using Flow Field Tiles", Game AI Pro 2013). The map
// is cut into square sectors; each sector's usable cells fall into regions (connected within
// the sector), and regions of neighbouring sectors that a move joins are linked: the sector
// graph, whose links are the portals. Nothing is computed for the whole map: a region is
// labelled the first time the graph search reaches its sector.
//
// require(cells) finds, for each cell, the way through the graph from its region to the goals'
// regions (A*, or to the corridor already built: later units join it), and adds the regions on
// that way to the corridor, with, where the way steps diagonally from sector to sector (through
// one corner cell), the regions beside the step that both its ends link to; the integration and
// direction fields are then built on the corridor's cells only, exactly as Field builds them on a
// whole map: D(c) is the least cost to a goal among paths that stay in the corridor, with the same
// moves, corner rule, unit and step costs. A path that leaves the corridor may be shorter (the
// price of not searching the whole map); when every cell is required, the corridor is everything
// reachable and the field equals Field's. Fields are kept per sector (tiles), built lazily, and
// reused while the goals and the map stay the same.
//
// Maps that are not plain (grid::Grid::plain: hex layouts, walls on cell edges, layered maps
// with links): the regions and portals above assume the square moves of one floor, so there a
// SectorField serves as one whole-map Field (field.hpp) instead: build() builds it for every
// cell, require() has nothing to add, update() is Field::update (equal to a fresh build),
// distance/direction/next/steer/in_corridor read it (the corridor is every cell that reaches a
// goal), region() is -1 and sectors_built() all 1. A plain grid edited into one that is not
// (an edge wall or a link added) switches to it at update().
//
// Lifetimes and staleness: unlike Field, a SectorField keeps a pointer to its grid and reads
// it in require() and update(): the grid must outlive it and stay at its address. Its reads
// (region, distance, direction, steer, ...) answer for the map as of the last build or
// update: after edits, stale() is true until update() (an edit away from every labelled
// sector leaves nothing to recompute, but stale() stays true until update() notes it); call
// update() before require() too, which would otherwise label new sectors from the edited map
// beside old ones. Reads may run on many threads at once; require() and update() write the
// field (not while it is read) and read the grid (not while it is edited).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <pathlab/flow/field.hpp>

namespace pathlab::flow {

/// A flow field for big maps, built sector by sector on the corridor of the cells required
/// (see the top of this file). It keeps a pointer to its grid, which must outlive it and stay
/// at its address. Movable, not copyable; default-constructed, it is empty.
class SectorField {
 public:
  /// The sector side, in cells, when build() is given none.
  static constexpr int kDefaultSector = 64;

  SectorField();
  ~SectorField();
  /// Takes over the other field (its grid pointer, sectors and fields); the moved-from field
  /// may only be destroyed or assigned to.
  SectorField(SectorField&&) noexcept;
  /// Takes over the other field, freeing its own; the moved-from field may only be destroyed
  /// or assigned to.
  SectorField& operator=(SectorField&&) noexcept;

  /// Prepares the field of `goals` on `g` (which must outlive it) for `o`'s unit and moves, with
  /// sectors `sector` cells wide (a power of two, 8..256): nothing is built yet. Returns a message
  /// and leaves the field empty on the inputs Field::build refuses or a sector size out of range.
  /// `widen`: the corridor also takes the regions next to the way (across its portals), about
  /// three sectors wide: three times the cells, and far shorter paths where the way first
  /// chosen (by region centroids) bends wrong; false keeps the way alone.
  std::optional<std::string> build(const grid::Grid& g, std::span<const Cell> goals,
                                   const Options& o, int sector = kDefaultSector,
                                   bool widen = true);

  /// Extends the corridor over the way from each of `cells` to the goals and rebuilds the field
  /// on it when it grew. Cells outside the map, that the unit cannot use, or from which no goal
  /// is reachable are skipped. After it, every required cell that reaches a goal has a
  /// distance, and so has every cell on its way down the direction field.
  Stats require(std::span<const Cell> cells);

  /// After edits to the grid (read from its change log): when they touch a sector the field
  /// has labelled (within the unit's radius and one cell), the regions, the corridor and the
  /// field are built again for the cells required so far (a sectored field is cheap to rebuild:
  /// it covers a corridor); edits elsewhere change nothing it computed and cost nothing.
  Stats update();

  /// Whether the grid has changed since the last build or update: the reads below may then
  /// answer for the old map; update() makes it false. One compare. False for an empty field.
  [[nodiscard]] bool stale() const noexcept;

  /// Whether it has no grid: true until a build() succeeds.
  [[nodiscard]] bool empty() const noexcept;
  /// Columns of the grid at build(), in cells (0 when empty).
  [[nodiscard]] int width() const noexcept;
  /// Rows of the grid at build(), in cells (0 when empty).
  [[nodiscard]] int height() const noexcept;
  /// The sector side in cells: a power of two from 8 to 256 (kDefaultSector when empty).
  [[nodiscard]] int sector() const noexcept;
  /// Sectors per row, width / sector() rounded up (0 when empty).
  [[nodiscard]] int sectors_x() const noexcept;
  /// Sectors per column, height / sector() rounded up (0 when empty).
  [[nodiscard]] int sectors_y() const noexcept;
  /// The goals, in the order given to build(); none when empty.
  [[nodiscard]] std::span<const Cell> goals() const noexcept;
  /// The options given to build() (default options when empty).
  [[nodiscard]] const Options& options() const noexcept;
  /// The last require or update.
  [[nodiscard]] const Stats& stats() const noexcept;

  /// Row-major over the sectors: 1 where the sector holds part of the corridor (its field is
  /// built), 0 elsewhere.
  [[nodiscard]] std::vector<char> sectors_built() const;
  // The reads below answer for the map as of the last build or update (stale()).

  /// Regions labelled so far (sectors the graph search reached) and corridor cells.
  [[nodiscard]] std::int64_t sectors_labelled() const noexcept;
  /// Corridor cells that reach a goal within it (those with a distance), as of the last time
  /// the field was built on the corridor.
  [[nodiscard]] std::int64_t corridor_cells() const noexcept;

  /// The region c belongs to (an id unique over the map), or -1 where the unit cannot be, outside
  /// the map, or in a sector not labelled yet. Two cells of one sector share a region exactly
  /// when moves that stay inside the sector join them.
  [[nodiscard]] int region(Cell c) const noexcept;
  /// Whether c is in the corridor (its distance is defined there).
  [[nodiscard]] bool in_corridor(Cell c) const noexcept;
  /// D(c) within the corridor; kUnreachable outside it or where no goal is reachable in it.
  [[nodiscard]] double distance(Cell c) const noexcept;
  /// The first move toward the nearest goal within the corridor, or kNoDirection (on maps that
  /// are not plain, Field's codes: hex 0..5, grid::link_direction() for a link).
  [[nodiscard]] std::int8_t direction(Cell c) const noexcept;
  /// The cell the first move of c leads to (Field::next: a link's far end too), or nothing.
  [[nodiscard]] std::optional<Cell> next(Cell c) const noexcept;
  /// Where a unit at p heads: the nearest goal within the sight range that its cell sees (line
  /// of sight on the unit's view), else the centre of the cell its direction points to; nothing
  /// outside the corridor.
  [[nodiscard]] std::optional<Point> steer(Point p) const noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace pathlab::flow
