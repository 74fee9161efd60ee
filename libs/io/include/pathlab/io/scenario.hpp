// Moving AI scenario files (.scen): "version 1" then lines
// "bucket map width height startx starty goalx goaly optimal_length" separated by tabs or
// spaces; CRLF and trailing blank lines accepted. See shared docs/ALGORITHMS.md for quirks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/error.hpp>
#include <pathlab/core/types.hpp>

namespace pathlab::io {

/// One query line of a scenario file; parse_scenarios() checks that start and goal lie
/// inside width x height, not that they fit the actual map.
struct ScenarioEntry {
  int bucket = 0;      ///< the file's difficulty bucket (0 or more), kept as written
  std::string map;     ///< as written in the file (often a path inside the original archive)
  int width = 0;       ///< map width in cells as the file states it (at least 1)
  int height = 0;      ///< map height in cells as the file states it (at least 1)
  Cell start;          ///< start cell, inside width x height
  Cell goal;           ///< goal cell, inside width x height
  double optimal = 0;  ///< the file's optimal path length (octile, diagonal sqrt 2); finite, >= 0
  int line = 0;        ///< line number in the file, for error messages
};

/// A whole scenario file: its entries in file order.
struct ScenarioFile {
  std::string path;                    ///< the path (or name) it was read from
  std::vector<ScenarioEntry> entries;  ///< the query lines in file order; may be empty
  /// The map file resolved by basename next to the .scen file (the first entry's map).
  [[nodiscard]] std::string map_path() const;
};

/// Reads and parses the scenario file at `path` (parse_scenarios() with path as its name).
/// Throws pathlab::ParseError naming the file, and the line where one is at fault, when the file
/// cannot be read or is too large, or for any error parse_scenarios() reports.
ScenarioFile load_scenarios(const std::string& path);
/// Parses a scenario file's text; `name` is the file named in errors and ScenarioFile::path.
/// Throws pathlab::ParseError with name and line on an empty text, a control byte, a bad
/// version line, a line without 9 fields, a bad number, a zero width or height, or a start or
/// goal outside width x height.
ScenarioFile parse_scenarios(std::string_view text, const std::string& name);
/// Writes "version 1" and the entries, tab-separated, optimal with 8 decimals.
[[nodiscard]] std::string write_scenarios(const ScenarioFile& file);

}  // namespace pathlab::io
