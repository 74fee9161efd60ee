// Cells, points, units and maps as JSON: the small shapes every other object of pathlab::json
// is made of. Coordinates are [x, y] (x the column, y the row), as everywhere in pathlab.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/io/map.hpp>

namespace pathlab::json {

/// [x, y]; on a layered map `g` (shared docs/DESIGN.md, "Every map a game has") [x, y, layer]
/// with y the row within the floor.
[[nodiscard]] nlohmann::json cell(Cell c, const grid::Grid* g = nullptr);
/// [[x, y], …] (cell() each).
[[nodiscard]] nlohmann::json cells(std::span<const Cell> cs, const grid::Grid* g = nullptr);
/// [[x, y], …] of floats in map units (the centre of cell (x, y) is (x + 0.5, y + 0.5)).
[[nodiscard]] nlohmann::json points(const std::vector<Point>& pts);
/// {"radius", "class_cost"}: the unit as the CLI's --radius and --class-cost give it.
[[nodiscard]] nlohmann::json unit(const grid::Unit& u);
/// {"width","height","walls":"0101…"} (row-major, '1' where the default unit cannot pass).
[[nodiscard]] nlohmann::json walls(const grid::Grid& g);
/// A loaded map as GET /api/maps/NAME gives it: walls() plus "name", "start" and "goal" ([x, y]
/// or null), "terrain" (row-major costs, when the map has terrain) and "classes" (one class
/// character a cell, row-major, when the map has classes).
[[nodiscard]] nlohmann::json loaded_map(const io::Map& m, const std::string& name);

}  // namespace pathlab::json
