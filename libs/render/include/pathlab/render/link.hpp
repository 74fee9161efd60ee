// Pictures of a Link-game board (link/board.hpp): tiles as coloured squares with their kind's
// letter, drawn with a one-cell margin (the ring outside the board that connecting lines may
// run through), and a connecting line through cell centres; as PNG, SVG, or text for a
// terminal (box-drawing characters, ANSI colours optionally).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/link/board.hpp>
#include <pathlab/render/render.hpp>

namespace pathlab::render {

/// What is drawn over a Link board besides its tiles.
struct LinkPicture {
  /// The line's corner points in board coordinates (-1 and width / height on the outer ring),
  /// as link::Connection::points; empty for no line.
  std::vector<Cell> line;
  /// Cells outlined (the two tiles of a hint or a connection).
  std::vector<Cell> marked;
  int cell_px = 0;  ///< pixels per cell; 0 = fit the board and its ring in about 640 pixels
};

/// The palette colour of a tile kind (the same kind gets the same colour on every board).
[[nodiscard]] std::uint8_t link_kind_colour(char kind) noexcept;

/// Pixels per cell of a picture of `board` (the request's, or what fits).
[[nodiscard]] int link_cell_px(const link::Board& board, int requested) noexcept;

/// The board, its ring, the marked tiles and the line as a palette image of
/// (width + 2) x (height + 2) cells.
[[nodiscard]] IndexedImage draw_link(const link::Board& board, const LinkPicture& picture);

/// SVG in pixels (board cell (x, y) spans [(x + 1)·cp, (x + 2)·cp) with the ring's margin):
/// `<rect class="ring">`, `<rect class="board">`, `<polyline class="link">` for the line (under
/// the tiles it joins), one `<g class="tile">` per tile (a `<rect>` and a `<text>` of its kind)
/// and `<rect class="marked">` outlines.
[[nodiscard]] std::string link_svg(const link::Board& board, const LinkPicture& picture);

/// Writes PNG or SVG, chosen by the extension. Throws std::runtime_error naming the file on
/// another extension or a write failure.
void write_link(const link::Board& board, const LinkPicture& picture, const std::string& path);

/// The board as text with its ring: '.' empty, tiles as their kind, the line in box-drawing
/// characters (─ │ ┌ ┐ └ ┘) over empty cells and the ring; the marked tiles (and the line)
/// highlighted with ANSI colours when `color` is set.
[[nodiscard]] std::string link_text(const link::Board& board, const LinkPicture& picture,
                                    bool color);

}  // namespace pathlab::render
