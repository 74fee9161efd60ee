// Shared body of the map fuzz targets: parse with a forced format, accept only ParseError as a
// failure, and check what parsed: a non-empty grid, markers inside it, and (for the text formats)
// that writing the map and reading it back gives the same map.
#pragma once

#include <pathlab/io/map.hpp>

#include <string_view>

namespace pathlab::fuzz {

inline void check_map(std::string_view bytes, const io::MapOptions& options) {
  io::Map map;
  try {
    map = io::parse_map(bytes, "fuzz", options);
  } catch (const ParseError&) {
    return;
  }
  if (map.grid.cells() <= 0 || map.format != options.format) __builtin_trap();
  if (map.start && !map.grid.in_bounds(*map.start)) __builtin_trap();
  if (map.goal && !map.grid.in_bounds(*map.goal)) __builtin_trap();
  if (options.format == io::MapFormat::image) return;
  // A ParseError here is a writer/reader mismatch, so it is not caught.
  const io::Map again = io::parse_map(io::write_map(map, options.format), "again", options);
  if (!(again.grid == map.grid)) __builtin_trap();
  if (options.format != io::MapFormat::movingai &&
      (again.start != map.start || again.goal != map.goal)) {
    __builtin_trap();
  }
}

}  // namespace pathlab::fuzz
