// What a player can do next: hints, every move, deadlocks, and a shuffle that always leaves a
// move; and gravity, which some versions of the game apply after each removal.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/link/board.hpp>

namespace pathlab::link {

/// A removable pair; `a` comes before `b` in row-major order.
struct Move {
  Cell a,  ///< the tile earlier in row-major order
      b;   ///< the other tile of the same kind, later in row-major order
  /// Same two cells in the same roles.
  friend constexpr bool operator==(Move, Move) = default;
};

/// A connectable pair, or none: the first in row-major order of `a`, then of `b` (tiles are
/// grouped by kind first, so a full board costs far less than all pairs).
[[nodiscard]] std::optional<Move> hint(const Board& board);
/// Every connectable pair, ordered as hint() would find them.
[[nodiscard]] std::vector<Move> moves(const Board& board);
/// Tiles are left and no pair connects.
[[nodiscard]] bool deadlocked(const Board& board);

/// Rearranges the tiles over the cells they occupy (each kind keeps its count) at random from
/// `seed`, until the board has a move. Returns false, leaving the board unchanged, when no
/// arrangement tried (at most `attempts`) has one, or there is no tile to move.
bool shuffle(Board& board, std::uint64_t seed, int attempts = 1000);

/// After a removal, tiles slide: none (default), down, up, left, right, or toward the centre
/// (the left half slides right and the right half left, in each row; on an odd width the middle
/// column belongs to neither half and its tiles stay).
enum class Gravity : std::uint8_t {
  none,   ///< tiles stay where they are
  down,   ///< tiles slide down their column
  up,     ///< tiles slide up their column
  left,   ///< tiles slide left along their row
  right,  ///< tiles slide right along their row
  centre  ///< tiles slide along their row toward its middle
};
/// The gravity's name: "none", "down", "up", "left", "right" or "centre" ("none" for a value
/// outside the enum).
[[nodiscard]] std::string_view to_string(Gravity g) noexcept;
/// The gravity named exactly as to_string() spells it (also "center"); nullopt for any other
/// text.
[[nodiscard]] std::optional<Gravity> parse_gravity(std::string_view s) noexcept;

/// Removes the pair (both cells must hold tiles) and lets the tiles slide. Returns false and
/// leaves the board unchanged when the pair does not connect.
bool play(Board& board, Move move, Gravity gravity = Gravity::none);
/// Slides every tile as far as it goes in the gravity's direction (what play() does after a
/// removal).
void apply_gravity(Board& board, Gravity gravity);

}  // namespace pathlab::link
