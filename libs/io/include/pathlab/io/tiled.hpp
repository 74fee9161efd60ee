// Maps made in the Tiled map editor (.tmx XML, .tmj JSON) and layered maps described in JSON
// (shared docs/DESIGN.md, "Every map a game has"; docs/tiled.md says what is read and written).
// load_map() and parse_map() (map.hpp) reach these through MapFormat::tmx, tmj and layered;
// they are here for callers that know the format.
//
// What a Tiled map says, read as a grid:
// - orientation orthogonal and isometric: square cells; hexagonal: a hex layout from staggeraxis
//   (y: pointy-*-r, x: flat-*-q) and staggerindex (odd, even); staggered: refused.
// - tiles say what they are through custom properties on the tileset's tiles: `class` (a class
//   character, or wall, ground, water, swamp, trees), `cost` (>= 1), `walkable` (false: a
//   wall), `wall_n`, `wall_e`, `wall_s`, `wall_w` (true: a thin wall on that side). A tile
//   without them is ground; an empty cell is a wall unless its layer says `empty` = ground.
// - tile layers with an integer property `floor` are the floors of a layered map
//   (Grid::layered); otherwise every tile layer is overlaid onto one grid, the last non-empty
//   tile of a cell winning.
// - object layers (their `floor` property names the floor, 0 unless set): polylines and polygons
//   along cell edges are thin walls; objects with properties to_layer, to_x, to_y (cost, oneway)
//   are links; point objects named start and goal are the map's markers.
#pragma once

#include <string>
#include <string_view>

#include <pathlab/io/map.hpp>

namespace pathlab::io {

/// Reads a Tiled map in XML (.tmx). External tilesets (.tsx or .tsj) are read relative to
/// `name`'s folder through options.read_file (load_map() reads from disk; unset here, a map
/// naming one is an error). Throws ParseError naming the file and line at fault.
Map parse_tmx(std::string_view bytes, const std::string& name, const MapOptions& options = {});
/// Reads a Tiled map in JSON (.tmj, or .json as Tiled writes it); as parse_tmx.
Map parse_tmj(std::string_view bytes, const std::string& name, const MapOptions& options = {});
/// Reads a layered map: `{"layers": [{"map": "floor0.map"}, ...], "links": [{"from": [layer,
/// x, y], "to": [layer, x, y], "cost": 1, "oneway": false}, ...], "layout": "square"}`, each
/// floor a map file of any format read relative to `name`'s folder through options.read_file,
/// as parse_tmx reads tilesets (all floors of the same size).
Map parse_layered(std::string_view bytes, const std::string& name, const MapOptions& options = {});

/// The map as a Tiled JSON map (.tmj): one tileset whose tiles carry the cells' classes, costs
/// and thin walls as properties, one tile layer per floor (property `floor` when the map has
/// layers), an object layer per floor for its links and markers, and the hex layout as Tiled's
/// hexagonal orientation. parse_tmj() of it gives the same grid and markers.
[[nodiscard]] std::string write_tmj(const Map& map);

}  // namespace pathlab::io
