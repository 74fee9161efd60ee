// Hints, move lists, deadlocks, shuffling and gravity. Tiles are grouped by kind with one
// counting pass, so a hint only tests pairs of equal tiles (a full 12x20 board with 30 kinds has
// about 900 such pairs against 28,680 pairs of cells).
#include <pathlab/link/moves.hpp>

#include <algorithm>

#include <pathlab/link/connect.hpp>

#include "detail.hpp"

namespace pathlab::link {

namespace detail {

void KindGroups::build(const Board& board) {
  const std::string& cells = board.cells();
  std::array<int, kKinds + 1> count{};
  for (const char c : cells) ++count[static_cast<unsigned char>(c)];
  count[static_cast<unsigned char>(kEmpty)] = 0;
  begin[0] = 0;
  for (int k = 0; k < kKinds; ++k) begin[k + 1] = begin[k] + count[k];
  index.resize(static_cast<std::size_t>(begin[kKinds]));
  std::array<int, kKinds> fill{};
  for (int k = 0; k < kKinds; ++k) fill[k] = begin[k];
  for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
    const auto k = static_cast<unsigned char>(cells[static_cast<std::size_t>(i)]);
    if (k != static_cast<unsigned char>(kEmpty)) index[static_cast<std::size_t>(fill[k]++)] = i;
  }
}

}  // namespace detail

namespace {

Move make_move(const Board& board, int a, int b) {
  return {detail::cell_of(board, a), detail::cell_of(board, b)};
}

}  // namespace

std::optional<Move> hint(const Board& board) {
  // One scratch buffer per thread: hints are asked for over and over on the same boards.
  thread_local detail::KindGroups groups;
  std::optional<Move> found;
  detail::for_each_move(board, groups, [&](int a, int b) {
    found = make_move(board, a, b);
    return true;
  });
  return found;
}

std::vector<Move> moves(const Board& board) {
  thread_local detail::KindGroups groups;
  std::vector<Move> out;
  detail::for_each_move(board, groups, [&](int a, int b) {
    out.push_back(make_move(board, a, b));
    return false;
  });
  return out;
}

bool deadlocked(const Board& board) {
  return board.tiles() > 0 && !hint(board).has_value();
}

bool shuffle(Board& board, std::uint64_t seed, int attempts) {
  const std::string& cells = board.cells();
  std::vector<int> occupied;
  std::string kinds;
  for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
    if (cells[static_cast<std::size_t>(i)] != kEmpty) {
      occupied.push_back(i);
      kinds.push_back(cells[static_cast<std::size_t>(i)]);
    }
  }
  if (occupied.empty()) return false;
  detail::Rng rng(seed);
  std::string trial = cells;
  // Each attempt is a fresh uniform permutation (Fisher-Yates over the tiles, continuing the one
  // random stream), so the result depends on the seed and the board only.
  for (int attempt = 0; attempt < attempts; ++attempt) {
    for (std::size_t i = kinds.size(); i > 1; --i) {
      std::swap(kinds[i - 1], kinds[rng.below(static_cast<std::uint32_t>(i))]);
    }
    for (std::size_t i = 0; i < occupied.size(); ++i) {
      trial[static_cast<std::size_t>(occupied[i])] = kinds[i];
    }
    Board candidate(board.width(), board.height(), trial);
    if (hint(candidate)) {
      board = std::move(candidate);
      return true;
    }
  }
  return false;
}

std::string_view to_string(Gravity g) noexcept {
  switch (g) {
    case Gravity::none:
      return "none";
    case Gravity::down:
      return "down";
    case Gravity::up:
      return "up";
    case Gravity::left:
      return "left";
    case Gravity::right:
      return "right";
    case Gravity::centre:
      return "centre";
  }
  return "none";
}

std::optional<Gravity> parse_gravity(std::string_view s) noexcept {
  for (const Gravity g : {Gravity::none, Gravity::down, Gravity::up, Gravity::left, Gravity::right,
                          Gravity::centre}) {
    if (s == to_string(g)) return g;
  }
  if (s == "center") return Gravity::centre;
  return std::nullopt;
}

namespace {

/// Packs the tiles of a line of cells (first, first + step, ... n cells) toward its start,
/// keeping their order: the line's own stable partition, in place.
void pack(std::string& cells, int first, int step, int n) {
  int to = first;
  for (int i = 0, at = first; i < n; ++i, at += step) {
    const char c = cells[static_cast<std::size_t>(at)];
    if (c == kEmpty) continue;
    if (at != to) {
      cells[static_cast<std::size_t>(to)] = c;
      cells[static_cast<std::size_t>(at)] = kEmpty;
    }
    to += step;
  }
}

}  // namespace

void apply_gravity(Board& board, Gravity gravity) {
  if (gravity == Gravity::none) return;
  const int w = board.width(), h = board.height();
  std::string cells = board.cells();
  for (int y = 0; y < h && (gravity == Gravity::left || gravity == Gravity::right ||
                            gravity == Gravity::centre);
       ++y) {
    const int row = y * w;
    if (gravity == Gravity::left) pack(cells, row, 1, w);
    if (gravity == Gravity::right) pack(cells, row + w - 1, -1, w);
    if (gravity == Gravity::centre) {
      // Columns [0, w/2) slide right and [(w+1)/2, w) slide left; on an odd width the middle
      // column belongs to neither half and its tiles stay (so the halves mirror each other).
      pack(cells, row + w / 2 - 1, -1, w / 2);
      pack(cells, row + (w + 1) / 2, 1, w / 2);
    }
  }
  for (int x = 0; x < w && (gravity == Gravity::down || gravity == Gravity::up); ++x) {
    if (gravity == Gravity::down) pack(cells, (h - 1) * w + x, -w, h);
    if (gravity == Gravity::up) pack(cells, x, w, h);
  }
  board = Board(w, h, std::move(cells));
}

bool play(Board& board, Move move, Gravity gravity) {
  if (!connectable(board, move.a, move.b)) return false;
  board.set(move.a, kEmpty);
  board.set(move.b, kEmpty);
  apply_gravity(board, gravity);
  return true;
}

}  // namespace pathlab::link
