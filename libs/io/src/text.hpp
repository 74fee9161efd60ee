// Internal to the io module: reading whole files with a size cap, splitting header and
// scenario lines into fields, and quoting pieces of a file in error messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/grid/grid.hpp>

namespace pathlab::io::detail {

/// Largest file we read. A text map of max_cells cells with one-cell rows ("1$\r\n") needs 4
/// bytes per cell; anything bigger cannot be a valid map, and the cap stops endless inputs
/// such as /dev/zero.
inline constexpr std::uint64_t max_file_bytes = 4 * std::uint64_t(grid::Grid::max_cells) + 65536;

/// Reads a whole file; failures become ParseError(path, 0, ...).
std::string read_file(const std::string& path);

/// Fields separated by runs of spaces or tabs.
std::vector<std::string_view> split_fields(std::string_view line);

/// Printable ASCII, the only bytes quoted as they are.
inline bool printable(unsigned char c) {
  return c >= 0x20 && c < 0x7f;
}

/// A piece of a file quoted in a message: escaped (files can hold binary junk), shortened.
std::string quote(std::string_view s);

}  // namespace pathlab::io::detail
