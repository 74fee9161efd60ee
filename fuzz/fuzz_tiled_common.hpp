// Shared body of the Tiled fuzz targets (fuzz_map_tmx, fuzz_map_tmj): parse with the format
// forced and external tilesets served from memory (two small ones; any other name is a missing
// file), accept only ParseError as a failure, and check what parsed: markers and links on map
// cells, and that the map written as .tmj reads back as the same grid and markers.
#pragma once

#include <pathlab/io/map.hpp>
#include <pathlab/io/tiled.hpp>

#include <string>
#include <string_view>

namespace pathlab::fuzz {

inline std::string tiled_tileset(const std::string& path) {
  if (path == "ext.tsx") {
    return "<?xml version=\"1.0\"?>\n<tileset name=\"e\" tilecount=\"4\">\n"
           "<tile id=\"1\"><properties><property name=\"class\" value=\"wall\"/></properties>"
           "</tile>\n<tile id=\"2\"><properties><property name=\"wall_s\" type=\"bool\" "
           "value=\"true\"/><property name=\"cost\" value=\"2\"/></properties></tile>\n"
           "</tileset>\n";
  }
  if (path == "ext.tsj") {
    return "{\"name\": \"e\", \"tilecount\": 4, \"tiles\": [{\"id\": 1, \"properties\": "
           "[{\"name\": \"class\", \"value\": \"T\"}, {\"name\": \"wall_e\", \"value\": true}]}]}";
  }
  throw ParseError(path, 0, "cannot open file");
}

inline void check_tiled(std::string_view bytes, io::MapFormat format) {
  io::MapOptions options;
  options.format = format;
  options.read_file = tiled_tileset;
  io::Map map;
  try {
    map = io::parse_map(bytes, "fuzz", options);
  } catch (const ParseError&) {
    return;
  }
  const grid::Grid& g = map.grid;
  if (g.cells() <= 0 || map.format != format) __builtin_trap();
  if (map.start && !g.map_cell(map.start->x, map.start->y)) __builtin_trap();
  if (map.goal && !g.map_cell(map.goal->x, map.goal->y)) __builtin_trap();
  for (const grid::Link& l : g.links()) {
    if (!g.map_cell(l.from.x, l.from.y) || !g.map_cell(l.to.x, l.to.y)) __builtin_trap();
  }
  // A ParseError here is a writer/reader mismatch, so it is not caught.
  io::MapOptions again_options;
  again_options.format = io::MapFormat::tmj;
  const io::Map again = io::parse_map(io::write_tmj(map), "again", again_options);
  if (!(again.grid == map.grid) || again.start != map.start || again.goal != map.goal) {
    __builtin_trap();
  }
}

}  // namespace pathlab::fuzz
