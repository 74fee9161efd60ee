// The text picture of a search that `pathlab solve` prints: walls, terrain, explored and open
// cells, the path, start and goal. Colour (ANSI) only when writing to a terminal.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/trace.hpp>

namespace pathlab::cli {

struct PictureInput {
  const grid::Grid* grid = nullptr;
  const std::vector<search::TraceEvent>* trace = nullptr;  ///< optional
  const std::vector<Cell>* path = nullptr;                 ///< optional
  std::optional<Cell> start, goal;
};

/// Legend: '#' wall, ' ' free, '2'..'9' terrain cost, '.' expanded, 'o' opened but not
/// expanded, '*' path, 'S' start, 'G' goal.
std::string draw_picture(const PictureInput& in, bool color);

}  // namespace pathlab::cli
