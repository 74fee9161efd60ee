// The Link game's board (连连看 / Onet / Shisen-Sho): W x H cells, each empty or holding a tile
// of some kind (a printable character). Around the board lies a ring of virtual empty cells,
// x = -1 and x = W, y = -1 and y = H, that connecting lines may run through.
// Text format: one row per line, '.' an empty cell, any other printable ASCII character except
// space a tile of that kind; every row as long as the first; blank lines at the end ignored.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <pathlab/core/types.hpp>

namespace pathlab::link {

/// The character of an empty cell, in the text format and in Board::at(): '.'.
inline constexpr char kEmpty = '.';
/// Board sides are 1..kMaxSide cells.
inline constexpr int kMaxSide = 256;

/// A Link board: width x height cells in row-major order, each kEmpty or a tile kind. A
/// default-constructed board is 0 x 0 (every cell is outside it).
class Board {
 public:
  Board() = default;
  /// An empty board. [Limit: 1 <= width, height <= kMaxSide; throws std::invalid_argument]
  Board(int width, int height);
  /// Row-major cells (kEmpty or a kind). [Limit: as above, cells.size() == width * height, every
  /// character kEmpty or printable non-space ASCII; throws std::invalid_argument]
  Board(int width, int height, std::string cells);

  /// Columns, 1..kMaxSide (0 for a default-constructed board).
  [[nodiscard]] int width() const noexcept { return width_; }
  /// Rows, 1..kMaxSide (0 for a default-constructed board).
  [[nodiscard]] int height() const noexcept { return height_; }
  /// Whether c is a cell of the board proper (the outer ring of virtual cells is not inside).
  [[nodiscard]] bool inside(Cell c) const noexcept {
    return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_;
  }
  /// The tile at c: kEmpty for an empty cell and anywhere outside the board.
  [[nodiscard]] char at(Cell c) const noexcept {
    return inside(c) ? cells_[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(width_) +
                              static_cast<std::size_t>(c.x)]
                     : kEmpty;
  }
  /// Whether c holds no tile; true anywhere outside the board, the ring included.
  [[nodiscard]] bool is_empty(Cell c) const noexcept { return at(c) == kEmpty; }
  /// Puts a kind (or kEmpty) at c. [Limit: inside(c), kind valid as above; throws
  /// std::invalid_argument]
  void set(Cell c, char kind);
  /// Number of tiles (non-empty cells).
  [[nodiscard]] std::size_t tiles() const noexcept;
  /// The cells, row-major.
  [[nodiscard]] const std::string& cells() const noexcept { return cells_; }
  /// The text format: one line per row, each ended by '\n'.
  [[nodiscard]] std::string to_text() const;

  /// Same size and the same tile in every cell.
  friend bool operator==(const Board&, const Board&) = default;

 private:
  int width_ = 0, height_ = 0;
  std::string cells_;
};

/// Parses the text format. Throws pathlab::ParseError naming `file` and the line of the problem
/// (empty board, ragged rows, bad characters, too large).
[[nodiscard]] Board parse_board(std::string_view text, const std::string& file = "<board>");
/// Reads and parses a board file (ParseError when unreadable or malformed).
[[nodiscard]] Board load_board(const std::string& path);

}  // namespace pathlab::link
