// The generator: deals a board by playing the game backwards. Pairs are placed one at a time on
// empty cells where they connect at that moment; removing them in the opposite order replays
// every placement's board, so each removal connects and the board clears (with gravity none).
// Random placement can paint itself into a corner (the last empty cells may not connect); the
// deal then starts again from the same random stream, and after kAttempts failures falls back
// to a deal that cannot fail: pairs on neighbouring cells of a domino tiling.
#include <pathlab/link/solver.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <pathlab/link/connect.hpp>

#include "detail.hpp"

namespace pathlab::link {

namespace {

constexpr std::string_view kKindChars =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr int kAttempts = 8;

/// How deep a cell lies: its distance to the nearest side. Filling the deepest cells first keeps
/// the empty cells next to the ring, where they still connect, until the end.
int depth(int i, int w, int h) {
  const int x = i % w, y = i / w;
  return std::min(std::min(x, w - 1 - x), std::min(y, h - 1 - y));
}

/// The empty cells bucketed by depth, each with O(1) removal and re-insertion.
class EmptyCells {
 public:
  EmptyCells(int w, int h) : w_(w), h_(h), place_(static_cast<std::size_t>(w * h)) {
    buckets_.resize(static_cast<std::size_t>((std::min(w, h) + 1) / 2));
    for (int i = 0; i < w * h; ++i) add(i);
  }
  void add(int cell) {
    auto& b = buckets_[static_cast<std::size_t>(depth(cell, w_, h_))];
    place_[static_cast<std::size_t>(cell)] = static_cast<int>(b.size());
    b.push_back(cell);
  }
  void take(int cell) {
    auto& b = buckets_[static_cast<std::size_t>(depth(cell, w_, h_))];
    const int at = place_[static_cast<std::size_t>(cell)];
    b[static_cast<std::size_t>(at)] = b.back();
    place_[static_cast<std::size_t>(b.back())] = at;
    b.pop_back();
  }
  [[nodiscard]] const std::vector<std::vector<int>>& buckets() const { return buckets_; }

 private:
  int w_, h_;
  std::vector<int> place_;
  std::vector<std::vector<int>> buckets_;
};

/// Places one pair of `kind`: p a random empty cell of the deepest layer that has one, q the
/// first empty cell connecting to it from a random place in p's layer, else from the next layers
/// outward. Filling the deepest cells first keeps every empty cell in sight of the ring, so
/// pairs keep connecting until only a few cells are left.
bool place_pair(Board& board, EmptyCells& empty, char kind, detail::Rng& rng, int& p_out,
                int& q_out) {
  const auto& buckets = empty.buckets();
  int layer = static_cast<int>(buckets.size()) - 1;
  while (layer >= 0 && buckets[static_cast<std::size_t>(layer)].empty()) --layer;
  if (layer < 0) return false;
  const auto& mine = buckets[static_cast<std::size_t>(layer)];
  const int p = mine[rng.below(static_cast<std::uint32_t>(mine.size()))];
  const Cell pc = detail::cell_of(board, p);
  board.set(pc, kind);
  for (int l = layer; l >= 0; --l) {
    const auto& cells = buckets[static_cast<std::size_t>(l)];
    const std::size_t m = cells.size();
    if (m == 0) continue;
    const std::size_t start = rng.below(static_cast<std::uint32_t>(m));
    for (std::size_t k = 0; k < m; ++k) {
      const int q = cells[(start + k) % m];
      if (q == p) continue;
      const Cell qc = detail::cell_of(board, q);
      board.set(qc, kind);
      if (connectable(board, pc, qc)) {
        empty.take(p);
        empty.take(q);
        p_out = p;
        q_out = q;
        return true;
      }
      board.set(qc, kEmpty);
    }
  }
  board.set(pc, kEmpty);
  return false;
}

/// One reverse-play deal of `pair_kinds`. The last few empty cells may not pair up; then the
/// last placements are taken back (more of them after repeated failures) and dealt again.
/// False after kRetries such repairs.
bool deal(Board& board, const std::string& pair_kinds, detail::Rng& rng) {
  constexpr int kRetries = 2000;
  EmptyCells empty(board.width(), board.height());
  std::vector<std::pair<int, int>> placed;
  int failures = 0;
  while (placed.size() < pair_kinds.size()) {
    int p = 0, q = 0;
    if (place_pair(board, empty, pair_kinds[placed.size()], rng, p, q)) {
      placed.push_back({p, q});
      continue;
    }
    if (++failures > kRetries) return false;
    const std::size_t undo = std::min(placed.size(), std::size_t{2} << std::min(failures / 16, 12));
    for (std::size_t i = 0; i < undo; ++i) {
      for (const int c : {placed.back().first, placed.back().second}) {
        board.set(detail::cell_of(board, c), kEmpty);
        empty.add(c);
      }
      placed.pop_back();
    }
  }
  return true;
}

/// Pairs on a domino tiling (rows of horizontal dominoes, or columns of vertical ones when the
/// width is odd): neighbours always connect, whatever else is on the board.
Board domino_deal(int w, int h, const std::string& pair_kinds) {
  Board board(w, h);
  std::size_t next = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!board.is_empty({x, y})) continue;
      const Cell other = w % 2 == 0 ? Cell{x + 1, y} : Cell{x, y + 1};
      board.set({x, y}, pair_kinds[next]);
      board.set(other, pair_kinds[next]);
      ++next;
    }
  }
  return board;
}

}  // namespace

Board generate(int width, int height, int kinds, std::uint64_t seed) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide) {
    throw std::invalid_argument("link generate: sides must be 1.." + std::to_string(kMaxSide));
  }
  const int cells = width * height;
  if (cells % 2 != 0) throw std::invalid_argument("link generate: width * height must be even");
  if (kinds < 1 || kinds > static_cast<int>(kKindChars.size()) || 2 * kinds > cells) {
    throw std::invalid_argument("link generate: kinds must be 1..62 and at most half the cells");
  }
  detail::Rng rng(seed);
  // Pair i has kind i % kinds: every kind gets floor or ceil of pairs / kinds pairs. Shuffled,
  // so which kinds get the extra pairs and the order of placement are random.
  std::string pair_kinds;
  for (int i = 0; i < cells / 2; ++i)
    pair_kinds.push_back(kKindChars[static_cast<std::size_t>(i % kinds)]);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    rng.shuffle(pair_kinds);
    Board board(width, height);
    if (deal(board, pair_kinds, rng)) return board;
  }
  return domino_deal(width, height, pair_kinds);
}

}  // namespace pathlab::link
