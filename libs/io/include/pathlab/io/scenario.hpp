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

struct ScenarioEntry {
  int bucket = 0;
  std::string map;  ///< as written in the file (often a path inside the original archive)
  int width = 0;
  int height = 0;
  Cell start;
  Cell goal;
  double optimal = 0;
  int line = 0;  ///< line number in the file, for error messages
};

struct ScenarioFile {
  std::string path;
  std::vector<ScenarioEntry> entries;
  /// The map file resolved by basename next to the .scen file (the first entry's map).
  [[nodiscard]] std::string map_path() const;
};

ScenarioFile load_scenarios(const std::string& path);
ScenarioFile parse_scenarios(std::string_view text, const std::string& name);
/// Writes "version 1" and the entries, tab-separated, optimal with 8 decimals.
[[nodiscard]] std::string write_scenarios(const ScenarioFile& file);

}  // namespace pathlab::io
