// Pictures of a flow field (flow/field.hpp): the map (walls dark, terrain shaded), every cell a
// goal reaches shaded by its distance to the nearest goal (the palette's ramp from kClosedFirst,
// light blue near, to 255, violet at the farthest reachable cell), cells no goal reaches in the
// free colour, an arrow per reachable cell for its first move (straight at the goal where the
// cell sees one), the goals in red, and optionally the sectors of a sectored field as outlines.
// PNG or SVG, to a file or in memory.
//
// Every map kind (shared docs/DESIGN.md, "Every map a game has"), as the search renders draw
// them (render.hpp): hexes, floors side by side, thin walls on cell edges, links as lines with a
// dot at each end. On a hex map the direction codes 0..5 are the axial moves (hex::kDirections)
// and each arrow points at that neighbour's centre; a cell whose first move takes a link (code 6
// on hex maps, 8 on square ones) gets a dot instead of an arrow. Sector outlines are drawn on
// plain square maps only. cell_px is the distance between neighbouring hex centres on hex maps;
// 0 fits every floor in about 640 pixels.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <pathlab/flow/field.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::render {

/// What write_flow() and flow_image() draw. The pointers are borrowed: the grid and the field
/// must outlive the call.
struct FlowPicture {
  const grid::Grid* grid = nullptr;  ///< the map (walls, terrain classes) the field was built on
  /// The field to draw, built on `grid` (same size, not empty); required.
  const flow::Field* field = nullptr;
  /// Optional: sector side in cells and which sectors hold a computed field (row-major over
  /// ceil(w/side) x ceil(h/side)); drawn as outlines, computed ones solid, others dashed/faint.
  /// sector 0 = no outlines. With sector > 0, an empty sectors_built draws every sector as not
  /// computed; otherwise it must hold one entry per sector (non-zero = computed).
  int sector = 0;
  std::vector<char> sectors_built;  ///< per sector, non-zero when computed (see `sector`)
  int cell_px = 0;  ///< pixels per cell; 0 = fit about 800 px on the long side, at least 1
  /// Arrows only when a cell is at least 6 px; cells that see a goal point at the goal.
  bool arrows = true;
};

/// Writes a PNG (.png) or SVG (.svg), chosen by extension (in any case); throws
/// std::runtime_error with a clear message for another extension, a picture that cannot be
/// drawn (no grid or field, a field of another size, a negative cell size or sector side,
/// sectors_built of the wrong length, a PNG too big) or a write failure.
void write_flow(const FlowPicture& p, const std::string& path);

/// The PNG/SVG bytes in memory (for the HTTP server), format "png" or "svg" (in any case);
/// throws std::runtime_error as write_flow does.
[[nodiscard]] std::string flow_image(const FlowPicture& p, std::string_view format);

}  // namespace pathlab::render
