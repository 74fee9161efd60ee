// Reading and writing maps: the users' text format (ruler line, 1 wall, 8 start, 9 goal),
// ASCII (# wall, S start, G goal), Moving AI .map, images (dark pixels are walls), Tiled maps
// (.tmx, .tmj: tiled.hpp) and layered maps described in JSON.
// Formats: shared docs/DESIGN.md, "Formats". Parsers throw pathlab::ParseError naming the
// file and line; dimensions are checked before anything is allocated.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <pathlab/core/error.hpp>
#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::io {

/// A map file format (MapOptions::format).
enum class MapFormat {
  automatic,  ///< detected from the bytes and the file name (detect_format())
  text,       ///< the users' text format: ruler line, 1 wall, 8 start, 9 goal
  ascii,      ///< ASCII: # wall, S start, G goal
  movingai,   ///< Moving AI .map: a "type" header, then the rows
  image,      ///< an image: dark pixels are walls
  tmx,        ///< a Tiled map in XML (.tmx)
  tmj,        ///< a Tiled map in JSON (.tmj, or .json as Tiled writes it)
  layered     ///< a layered map in JSON: floors in other map files, and links between them
};

/// The format's name as the CLI spells it: "auto", "text", "ascii", "movingai", "image", "tmx",
/// "tmj" or "layered" ("unknown" for a value outside the enum).
[[nodiscard]] std::string_view to_string(MapFormat f) noexcept;
/// The format named exactly as to_string() spells it ("auto", "text", "ascii", "movingai",
/// "image", "tmx", "tmj", "layered"); nullopt for any other text.
[[nodiscard]] std::optional<MapFormat> parse_map_format(std::string_view s) noexcept;

/// How parse_map() and load_map() read a map; the image fields matter only for images.
struct MapOptions {
  /// The format to read; automatic (the default) detects it with detect_format().
  MapFormat format = MapFormat::automatic;
  int threshold = 128;        ///< images: luminance below this (0..255) is a wall
  int cell = 1;               ///< images: N x N pixels per cell, blocked if any pixel is a wall
  bool gray_terrain = false;  ///< images: light-gray pixels become terrain cost 1..9
  /// The layout of the map's cells (the CLI's --layout): set on whatever map is read, so a
  /// square map's cells read as hexes. Unset keeps the file's own (square for most formats).
  std::optional<grid::Layout> layout{};
  /// How the files a map names are read (Tiled's external tilesets, a layered map's floors),
  /// given their path: the path joined to the map's folder. A reader that cannot serve a file
  /// throws ParseError. Unset, load_map() reads them from disk, while parse_map() reads none
  /// (a map that names a file is then an error): bytes from elsewhere, such as an upload to
  /// the HTTP API, never make pathlab read the files they name.
  std::function<std::string(const std::string& path)> read_file{};
};

/// A grid with the start/goal markers its file carried (if any). On a layered map the markers
/// are grid cells (Grid::at(layer, x, y)).
struct Map {
  grid::Grid grid;            ///< the walls (and, from images with gray_terrain, terrain costs)
  std::optional<Cell> start;  ///< text '8', ASCII 'S', image red blob; unset when absent
  std::optional<Cell> goal;   ///< text '9', ASCII 'G', image green blob; unset when absent
  MapFormat format = MapFormat::automatic;  ///< the format it was read from
};

/// Reads a map file; the format is detected by content unless options.format forces one.
Map load_map(const std::string& path, const MapOptions& options = {});
/// Parses map bytes; `name` is used in error messages. Images are detected by magic bytes.
Map parse_map(std::string_view bytes, const std::string& name, const MapOptions& options = {});
/// Guesses the format of map bytes (never returns automatic).
[[nodiscard]] MapFormat detect_format(std::string_view bytes, std::string_view name);

/// Writes a map; the format is taken from the extension (.map movingai, .txt text, .ascii /
/// .asc ascii, .png/.bmp image, .tmj Tiled JSON) unless `format` is given. Throws
/// std::runtime_error on I/O failure or a format that cannot be written.
void save_map(const Map& map, const std::string& path, MapFormat format = MapFormat::automatic);
/// Serialises to text formats (text, ascii, movingai, tmj). Only tmj keeps everything a grid
/// holds (classes, terrain costs, edge walls, floors, links, layout); Moving AI keeps the
/// layout (type hex-...) and the classes it spells.
[[nodiscard]] std::string write_map(const Map& map, MapFormat format);

}  // namespace pathlab::io
