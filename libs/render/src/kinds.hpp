// Internal: where the cells of every map kind go in a picture (shared docs/DESIGN.md, "Every map a
// game has"): square or hex cells (hex::centre, hex::corners: hex units), the floors of a layered
// map side by side, left to right, with a gap between them; and the pieces the search and flow
// renders draw on them: thin walls as lines on cell edges, links as lines between their ends with
// a dot at each end, and a path's link steps (where it changes floor) in their own colour.
// A plain square map never comes here: its renders keep their own fast path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/render/render.hpp>

#include "raster.hpp"

namespace pathlab::render::detail {

/// Whether a map needs MapFrame: hex cells, several floors, edge walls or links.
[[nodiscard]] inline bool needs_frame(const grid::Grid& g) noexcept {
  return !g.plain();
}

/// The geometry of one panel: its size in pixels, where each cell and each point of the map goes,
/// and which cell owns each pixel.
class MapFrame {
 public:
  /// `unit`: pixels per square cell, or per hex unit (neighbouring hex centres `unit` apart);
  /// 0 fits the panel (all floors) in about 640 pixels.
  MapFrame(const grid::Grid& g, int unit);

  [[nodiscard]] const grid::Grid& grid() const noexcept { return *g_; }
  [[nodiscard]] bool hex() const noexcept { return hex_; }
  /// Pixels per map unit (a square cell's side, or the distance between hex neighbours).
  [[nodiscard]] int unit() const noexcept { return unit_; }
  /// The panel's size in pixels: every floor and the gaps between them.
  [[nodiscard]] int width() const noexcept { return width_; }
  [[nodiscard]] int height() const noexcept { return height_; }
  /// Pixels of one floor across, and the gap between two floors.
  [[nodiscard]] int floor_width() const noexcept { return floor_w_; }
  [[nodiscard]] int floor_gap() const noexcept { return gap_; }
  /// The left edge of floor f in the panel.
  [[nodiscard]] int floor_x(int f) const noexcept { return f * (floor_w_ + gap_); }

  /// The centre of cell c in map units (cells, or hex units).
  [[nodiscard]] Point centre(Cell c) const noexcept;
  /// The floor a point in map units lies on.
  [[nodiscard]] int floor_of(Point p) const noexcept;
  /// A point of floor f, in map units, in panel pixels.
  [[nodiscard]] Point to_px(Point p, int floor) const noexcept;
  /// A point in panel pixels (its own floor).
  [[nodiscard]] Point to_px(Point p) const noexcept { return to_px(p, floor_of(p)); }
  /// The centre of cell c in panel pixels.
  [[nodiscard]] Point centre_px(Cell c) const noexcept {
    return to_px(centre(c), g_->layer_of(c.y));
  }
  /// The outline of cell c in panel pixels (4 or 6 corners).
  [[nodiscard]] std::vector<Point> outline_px(Cell c) const;
  /// Per panel pixel (row-major, width() x height()): the index y * grid width + x of the cell
  /// whose shape holds the pixel's centre, or -1 (between hexes, between floors).
  [[nodiscard]] const std::vector<std::int32_t>& owners() const noexcept { return owner_; }
  /// Whether a -> b is a step a path makes through a link rather than a grid move: to another
  /// floor, or between cells that are not neighbours.
  [[nodiscard]] bool link_step(Cell a, Cell b) const noexcept;
  /// The cells of the map drawn (every cell of every floor; not the rows between floors).
  [[nodiscard]] std::vector<Cell> cells() const;

 private:
  const grid::Grid* g_;
  bool hex_ = false;
  int unit_ = 1;
  int floor_w_ = 0, floor_h_ = 0, gap_ = 0;
  int width_ = 0, height_ = 0;
  double row_ = 1.0;  // map units from one row to the next
  std::vector<std::int32_t> owner_;
};

/// Paints one panel's cells (colours per cell, row-major over the grid) at x0 of `img`; on hex
/// maps of 10 pixels a hex or more, a hairline (kGridLine) where two hexes of one colour meet.
void paint_frame(IndexedImage& img, int x0, const MapFrame& f,
                 const std::vector<std::uint8_t>& cells);

/// Thin walls as lines on cell edges (kEdgeWall), about unit/6 pixels thick.
void draw_edge_walls(IndexedImage& img, int x0, const MapFrame& f);
/// Every link as a thin line between its ends, a dot at each end (kLink).
void draw_links(IndexedImage& img, int x0, const MapFrame& f);
/// A path's link steps: a thick line between the two ends and a dot on each (kLinkTaken).
void draw_link_steps(IndexedImage& img, int x0, const MapFrame& f, const std::vector<Cell>& path);
/// Segments through points in map units, split where they change floor (those steps drawn as
/// link steps), a dot on every vertex.
void draw_polyline(IndexedImage& img, int x0, const MapFrame& f, const std::vector<Point>& pts,
                   std::uint8_t colour);

/// SVG pieces, in panel pixels offset by x0: the cells (one <polygon class="hex"> per hex, or
/// <rect class="cell"> runs per row of a floor), thin walls (<line class="edge-wall">), links
/// (<line class="link">, <circle class="link-end">), a path (<polyline class="path"> per run on
/// one floor, <line class="link-taken"> per link step) and point polylines.
[[nodiscard]] std::string svg_frame_cells(const MapFrame& f, double x0,
                                          const std::vector<std::uint8_t>& cells);
[[nodiscard]] std::string svg_edge_walls(const MapFrame& f, double x0);
[[nodiscard]] std::string svg_links(const MapFrame& f, double x0);
[[nodiscard]] std::string svg_path(const MapFrame& f, double x0, const std::vector<Cell>& path);
[[nodiscard]] std::string svg_point_line(const MapFrame& f, double x0, const char* cls,
                                         const std::vector<Point>& pts, std::uint8_t colour);

}  // namespace pathlab::render::detail
