// The Link game's JSON shapes, shared by `pathlab link --json` and the /api/link endpoints, so
// both speak the same board and move objects: a board is {"width","height","rows":["AB..",…]}
// (rows in the text format: '.' empty, any other printable character a tile kind), a cell
// [x, y], a move {"a":[x,y],"b":[x,y],"kind":"A"}, a connection {"connected","turns","points",
// "length"} with points on the ring outside the board at -1 and width / height.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/core/types.hpp>
#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>
#include <pathlab/link/solver.hpp>

namespace pathlab::json {

/// Link answers keep their fields in the order written ("connected" first, …), for people
/// reading them.
using Ordered = nlohmann::ordered_json;

/// A board object that cannot be read. `kind` says what is wrong: `shape` (not an object, a
/// missing or mistyped field), `too_large` (a side over link::kMaxSide), `refused` (values the
/// game refuses: ragged rows, bad characters, sizes that disagree). `row` is the 0-based row at
/// fault, -1 when none.
class BoardError : public std::runtime_error {
 public:
  /// What is wrong with the board object.
  enum class Kind {
    shape,      ///< not an object, or a field missing or of the wrong type
    too_large,  ///< a side over link::kMaxSide
    refused     ///< values the game refuses: ragged rows, bad characters, sizes that disagree
  };
  /// An error of `kind`, what() giving `message`, at 0-based `row` (-1: no row at fault).
  BoardError(Kind kind, const std::string& message, int row = -1)
      : std::runtime_error(message), kind_(kind), row_(row) {}
  /// What is wrong: shape, too_large or refused.
  [[nodiscard]] Kind kind() const noexcept { return kind_; }
  /// The 0-based row at fault, -1 when none.
  [[nodiscard]] int row() const noexcept { return row_; }

 private:
  Kind kind_;
  int row_;
};

/// {"width","height","rows":[…]}.
[[nodiscard]] Ordered link_board(const link::Board& board);
/// Reads a board object. "width" and "height" are optional (the rows give them) but must agree
/// with the rows when present. [Limit: sides 1..link::kMaxSide] Throws BoardError.
[[nodiscard]] link::Board link_board_from(const nlohmann::json& j);
/// Reads a board file in either format: JSON when its first non-blank character is '{' (a
/// board object, as `link --generate --json` prints it), else the text format. Throws
/// pathlab::ParseError naming the file and line.
[[nodiscard]] link::Board load_link_board(const std::string& path);
/// The same from a board file's bytes; `name` names it in errors.
[[nodiscard]] link::Board parse_link_board(std::string_view text, const std::string& name);

/// [x, y].
[[nodiscard]] Ordered link_cell(Cell c);
/// [[x, y], …].
[[nodiscard]] Ordered link_points(const std::vector<Cell>& points);
/// {"a":[x,y],"b":[x,y],"kind":"A"}, the kind read from `board` (where the move is played).
[[nodiscard]] Ordered link_move(const link::Board& board, link::Move m);
/// {"connected","turns","points","length"}: turns -1 and no points when not connected.
[[nodiscard]] Ordered link_connection(const link::Connection& c);
/// {"move": move or null, "turns", "points", "length" (of the hint's line), "deadlocked" (no
/// move while tiles are left), "tiles"}.
[[nodiscard]] Ordered link_hint(const link::Board& board, const std::optional<link::Move>& hint);
/// {"moves":[move…],"count","deadlocked","tiles"}.
[[nodiscard]] Ordered link_moves(const link::Board& board, const std::vector<link::Move>& moves);
/// Why a and b (both inside the board, distinct) do not connect: "empty cell", "different
/// kinds" or "no line with at most two turns"; empty when they connect. The "reason" field.
[[nodiscard]] std::string link_refusal(const link::Board& board, Cell a, Cell b);

/// "solved", "unsolvable" or "node_limit".
[[nodiscard]] std::string_view to_string(link::SolveResult::Status s) noexcept;

/// {"status","moves":[move…],"nodes","gravity"}: the moves' kinds are read by replaying them
/// on a copy of `board` (gravity moves tiles between removals).
[[nodiscard]] Ordered link_solve(const link::Board& board, const link::SolveResult& result,
                                 link::Gravity gravity);

}  // namespace pathlab::json
