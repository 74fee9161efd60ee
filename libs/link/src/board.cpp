// The board and its text format. Parsing checks every limit before the board is built and names
// the line at fault; the constructors and set() guard the same invariants with exceptions.
#include <pathlab/link/board.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <pathlab/core/error.hpp>

#include "detail.hpp"

namespace pathlab::link {

namespace {

void check_side(int width, int height) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide) {
    throw std::invalid_argument("link board: sides must be 1.." + std::to_string(kMaxSide) +
                                ", got " + std::to_string(width) + "x" + std::to_string(height));
  }
}

std::string describe(char c) {
  if (c == ' ') return "a space";
  if (c == '\t') return "a tab";
  char buf[32];
  std::snprintf(buf, sizeof buf, "byte 0x%02x",
                static_cast<unsigned>(static_cast<unsigned char>(c)));
  return buf;
}

}  // namespace

Board::Board(int width, int height) : Board(width, height, std::string()) {}

Board::Board(int width, int height, std::string cells) {
  check_side(width, height);
  const auto n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (cells.empty()) cells.assign(n, kEmpty);
  if (cells.size() != n) {
    throw std::invalid_argument("link board: " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(width) + "x" + std::to_string(height));
  }
  if (!std::all_of(cells.begin(), cells.end(), detail::printable)) {
    throw std::invalid_argument("link board: a cell is not printable non-space ASCII");
  }
  width_ = width;
  height_ = height;
  cells_ = std::move(cells);
}

void Board::set(Cell c, char kind) {
  if (!inside(c)) throw std::invalid_argument("link board: set() outside the board");
  if (!detail::printable(kind)) throw std::invalid_argument("link board: bad kind");
  cells_[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(width_) +
         static_cast<std::size_t>(c.x)] = kind;
}

std::size_t Board::tiles() const noexcept {
  return cells_.size() - static_cast<std::size_t>(std::count(cells_.begin(), cells_.end(), kEmpty));
}

std::string Board::to_text() const {
  std::string s;
  s.reserve(cells_.size() + static_cast<std::size_t>(height_));
  for (int y = 0; y < height_; ++y) {
    s.append(cells_, static_cast<std::size_t>(y) * static_cast<std::size_t>(width_),
             static_cast<std::size_t>(width_));
    s.push_back('\n');
  }
  return s;
}

Board parse_board(std::string_view text, const std::string& file) {
  // Bad characters are reported before a ragged row: "A B" says "a space", not "3 cells".
  // Lines end with '\n' (a '\r' before it is dropped: CRLF files parse too). Blank lines at the
  // end are ignored; a blank line before a row is a ragged row.
  std::vector<std::string_view> rows;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    rows.push_back(line);
    pos = end + 1;
  }
  while (!rows.empty() && rows.back().empty()) rows.pop_back();
  if (rows.empty()) throw ParseError(file, 0, "empty board: no rows");

  const std::size_t width = rows.front().size();
  std::string cells;
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const int line = static_cast<int>(y) + 1;
    const std::string_view row = rows[y];
    if (y >= static_cast<std::size_t>(kMaxSide)) {
      throw ParseError(file, line,
                       "board too tall: more than " + std::to_string(kMaxSide) + " rows");
    }
    if (row.empty()) throw ParseError(file, line, "empty row: every row needs at least one cell");
    if (row.size() > static_cast<std::size_t>(kMaxSide)) {
      throw ParseError(file, line,
                       "board too wide: " + std::to_string(row.size()) + " cells, at most " +
                           std::to_string(kMaxSide));
    }
    for (std::size_t x = 0; x < row.size(); ++x) {
      if (!detail::printable(row[x])) {
        throw ParseError(file, line,
                         "column " + std::to_string(x + 1) + ": " + describe(row[x]) +
                             " is not a cell ('.' empty, or a printable character)");
      }
    }
    if (row.size() != width) {
      throw ParseError(file, line,
                       "ragged row: " + std::to_string(row.size()) +
                           " cells where the first row has " + std::to_string(width));
    }
    if (y == 0) cells.reserve(width * rows.size());
    cells.append(row);
  }
  return Board(static_cast<int>(width), static_cast<int>(rows.size()), std::move(cells));
}

Board load_board(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot read the board file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw ParseError(path, 0, "cannot read the board file");
  return parse_board(ss.str(), path);
}

}  // namespace pathlab::link
