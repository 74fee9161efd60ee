// The Grid-Based Path Planning Competition's dynamic track (public repository
// gppc-dev/startkit-dynamic; shared docs/DESIGN.md, "Changing maps in the competition's
// format"): a scenario file ("version 2") gives a map size, a patch file and a list of commands,
// `P BUCKET PATCH X Y` (paste patch PATCH with its top-left cell at (X, Y)) and
// `Q BUCKET SX SY GX GY LENGTH...` (a query and its optimal length on the map as patched so far,
// one length per cost the header names; negative: no path). The map starts fully open. A patch
// file ("type patch", "patches N") holds N numbered rectangles of cells in the Moving AI
// characters ('.', 'G', 'S' ground; '@', 'O', 'T', 'W' walls).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/error.hpp>
#include <pathlab/core/types.hpp>

namespace pathlab::io {

/// One rectangle of a patch file.
struct Patch {
  int width = 0;                      ///< at least 1
  int height = 0;                     ///< at least 1
  std::vector<std::uint8_t> blocked;  ///< row-major, width * height cells: 1 for a wall
  int line = 0;                       ///< the line of its "patch N" in the patch file
};

/// One command of a dynamic scenario.
struct DynamicCommand {
  /// The two commands of the track.
  enum class Kind : std::uint8_t {
    patch,  ///< P: paste `patch` at `at`
    query   ///< Q: from `start` to `goal`, optimal length `length`
  };
  Kind kind = Kind::query;  ///< which command this is
  int bucket = 0;           ///< the file's first number (the track groups queries by it), kept
  int patch = 0;            ///< P: the patch's number in the patch file
  Cell at;                  ///< P: where the patch's top-left cell goes
  Cell start;               ///< Q: the start cell, inside the map
  Cell goal;                ///< Q: the goal cell, inside the map
  double length = 0;        ///< Q: the octile cost's optimal length; < 0 when there is no path
  int line = 0;             ///< its line in the scenario file
};

/// A whole dynamic scenario with its patches, checked against each other: every patch number
/// exists, every pasted patch lies inside the map, every query's cells too.
struct DynamicScenario {
  std::string path;            ///< the scenario file, as given
  std::string patch_path;      ///< the patch file it names, resolved next to the scenario file
  int width = 0;               ///< the map's width (the header's)
  int height = 0;              ///< the map's height (the header's)
  std::vector<Patch> patches;  ///< the patch file's rectangles, by number
  std::vector<DynamicCommand> commands;  ///< in file order
  /// The number of query (Q) commands.
  [[nodiscard]] std::size_t queries() const noexcept;
};

/// Largest map side the reader takes (the track's own limit).
inline constexpr int kDynamicMaxSide = 8000;

/// Whether `text` starts (after blank space) as a version-2 scenario file: "version 2".
[[nodiscard]] bool is_dynamic_scenario(std::string_view text) noexcept;

/// Parses a patch file's text; `name` is the file named in errors. Throws pathlab::ParseError
/// with name and line on anything but "type patch", "patches N" and N rectangles numbered 0 to
/// N - 1, each "patch K", "height H", "width W" (1 to kDynamicMaxSide), "map" and H rows of W
/// map characters.
std::vector<Patch> parse_patches(std::string_view text, const std::string& name);

/// Parses a scenario file's text against the patches of its patch file (`patches`, read from
/// `patch_path`). Throws pathlab::ParseError naming the scenario file and the line at fault: a
/// header other than "version 2", "height H", "width W", "cost K NAME..." (with "octile" once),
/// "patch FILE", "commands"; a command that is not P or Q or has the wrong number of fields, a
/// bad number, an unknown patch, a patch that leaves the map, a cell outside it, a length that
/// is not finite.
DynamicScenario parse_dynamic_scenario(std::string_view text, const std::string& name,
                                       std::vector<Patch> patches, const std::string& patch_path);

/// The patch file a scenario's text names (its "patch FILE" line), resolved next to the
/// scenario file `name`. Throws pathlab::ParseError as parse_dynamic_scenario does for the header.
std::string dynamic_patch_path(std::string_view text, const std::string& name);

/// Reads a scenario file and the patch file it names (next to it). Throws pathlab::ParseError
/// naming the file at fault (scenario or patch file) and its line.
DynamicScenario load_dynamic_scenario(const std::string& path);

}  // namespace pathlab::io
