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
/// The walls on cell edges, each edge once: [[x, y, "e"|"s"|"n"|"w"], …] ([x, y, layer, side]
/// on layered maps). East and south sides name the inner edges; "n" and "w" appear only on a
/// floor's first row and column (edges to the outside).
[[nodiscard]] nlohmann::json edge_walls(const grid::Grid& g);
/// The links: [{"from": cell, "to": cell, "cost", "oneway"}, …] (cell() of each end).
[[nodiscard]] nlohmann::json links(const grid::Grid& g);
/// A loaded map as GET /api/maps/NAME gives it: walls() plus "name", "start" and "goal" (cell()
/// or null), "terrain" (row-major costs, when the map has terrain), "classes" (one class
/// character a cell, row-major, when the map has classes) and "layout" ("square", "pointy-odd-r",
/// …). A layered map adds "layers", "layer_height" (rows of each floor) and "layer_pitch": its
/// floors are stacked in one grid, so "height" and every row-major string or array run over
/// the stacked rows, floor l's row y being row l * layer_pitch + y, with layer_pitch -
/// layer_height rows of wall between floors; its cells are written [x, y, layer], y within the
/// floor. A map with walls on cell edges adds "edge_walls" (edge_walls()), one with links
/// "links" (links()).
///
/// On hex maps edge_walls() names each edge by the direction code "0" .. "5" from one of its
/// hexes: directions 0, 4 and 5 for inner edges, 1, 2 and 3 only toward no cell of the map.
[[nodiscard]] nlohmann::json loaded_map(const io::Map& m, const std::string& name);

}  // namespace pathlab::json
