// Pictures of a flow field (flow/field.hpp): the map, every reachable cell shaded by its
// distance to the nearest goal (light blue near, violet far), an arrow per cell for its first
// move (toward the goal itself where the cell sees one), the goals in red. PNG or SVG.
#pragma once

#include <string>

#include <pathlab/flow/field.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::render {

struct FlowPicture {
  const grid::Grid* grid = nullptr;  ///< the map the field was built on
  const flow::Field* field = nullptr;
  int cell_px = 0;  ///< pixels per cell; 0 = fit the map in about 640 pixels
  /// Arrows are drawn where a cell is at least this many pixels wide.
  int arrows_from_px = 6;
};

/// Writes the picture as PNG (.png) or SVG (.svg). Throws std::runtime_error naming the file for
/// another extension, a grid and field that do not match, or a write failure.
void write_flow(const FlowPicture& p, const std::string& path);

}  // namespace pathlab::render
