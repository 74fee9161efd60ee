// Clearing a board: a search over removal sequences with memoisation of boards already refuted
// and move ordering, which finds a full clearing sequence or proves there is none; and a
// generator of boards that are solvable by construction (dealt by playing the game backwards).
#pragma once

#include <cstdint>
#include <vector>

#include <pathlab/link/board.hpp>
#include <pathlab/link/moves.hpp>

namespace pathlab::link {

/// How solve() searches.
struct SolveOptions {
  Gravity gravity = Gravity::none;  ///< how tiles slide after each removal (default: they stay)
  std::uint64_t node_limit = 20'000'000;  ///< boards expanded before giving up
};

/// What solve() found, and how much work it took.
struct SolveResult {
  /// How the search ended.
  enum class Status : std::uint8_t {
    solved,      ///< `moves` clears the board
    unsolvable,  ///< the search proved that no removal sequence clears the board
    node_limit   ///< SolveOptions::node_limit boards were expanded without an answer
  };
  Status status = Status::unsolvable;  ///< the outcome; `moves` is meaningful only when solved
  std::vector<Move> moves;             ///< solved: the removals, in order, that clear the board
  std::uint64_t nodes = 0;             ///< boards expanded
};

/// Never throws (an empty board is solved with no moves).
[[nodiscard]] SolveResult solve(const Board& board, const SolveOptions& options = {});

/// A full width x height board with `kinds` kinds (each used an even number of times, as evenly
/// as possible) that can be cleared (with gravity none), dealt from `seed` by reverse play:
/// pairs are placed one at a time only where they connect at that moment, so removing them in
/// the opposite order clears the board. [Limit: width * height even, 1 <= kinds <= 62 and
/// 2 * kinds <= width * height, sides as Board; throws std::invalid_argument]
[[nodiscard]] Board generate(int width, int height, int kinds, std::uint64_t seed);

}  // namespace pathlab::link
