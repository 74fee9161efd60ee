// The solver: a depth-first search over removal sequences (iterative: a 256x256 board is 32,768
// removals deep), with
//  - memoisation: boards already refuted are remembered by a 128-bit hash of every cell (kinds
//    included, so gravity variants are keyed correctly); a bounded table, so memory stays flat;
//  - safe moves (gravity none only): removing tiles never blocks a line, so a kind whose
//    remaining tiles pair up into pairs that connect right now can be cleared at once without
//    losing any solution (every later move still connects on the emptier board). This settles
//    every kind down to its last pair as soon as that pair connects, and most searches never
//    branch on them;
//  - move ordering: kinds with fewer tiles left first (their pairs are nearly forced, and a kind
//    with two tiles that do not connect yet is the usual dead end, found early), then hint
//    order. Also tried: the removal that leaves the most moves first. On 100 random full 8x10
//    boards per kind count (16..28) it did not pay: equal node counts at best, twice the nodes
//    on the hardest 24-kind board (17,651 against 7,947) and a full move scan per child.
#include <pathlab/link/solver.hpp>

#include <algorithm>
#include <cstring>

#include <pathlab/link/connect.hpp>

#include "detail.hpp"

namespace pathlab::link {

namespace {

struct Key {
  std::uint64_t a = 0, b = 0;
  friend bool operator==(Key, Key) = default;
};

std::uint64_t mix(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Two independent 64-bit hashes of the cells (collisions among the at most 2^22 remembered
/// boards: about 2^44 / 2^128).
Key hash_cells(const std::string& cells) noexcept {
  std::uint64_t h1 = 0x243f6a8885a308d3ULL ^ cells.size(), h2 = 0x13198a2e03707344ULL;
  std::size_t i = 0;
  for (; i + 8 <= cells.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, cells.data() + i, 8);
    h1 = mix(h1 ^ w);
    h2 = (h2 ^ w) * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
    h2 ^= h2 >> 32;
  }
  std::uint64_t w = 0;
  std::memcpy(&w, cells.data() + i, cells.size() - i);
  return {mix(h1 ^ w), mix(h2 ^ w ^ 0xa4093822299f31d0ULL)};
}

/// An open-addressing set of refuted boards; stops growing at kMaxEntries (then new boards are
/// simply not remembered: the search stays correct, only slower).
class Memo {
 public:
  static constexpr std::size_t kMaxEntries = std::size_t{1} << 22;

  [[nodiscard]] bool contains(Key k) const noexcept {
    if (table_.empty()) return false;
    k = fix(k);
    for (std::size_t i = k.a & mask_;; i = (i + 1) & mask_) {
      if (table_[i] == k) return true;
      if (table_[i] == Key{}) return false;
    }
  }
  void insert(Key k) {
    if (size_ >= kMaxEntries) return;
    if (2 * (size_ + 1) > table_.size()) grow();
    k = fix(k);
    for (std::size_t i = k.a & mask_;; i = (i + 1) & mask_) {
      if (table_[i] == k) return;
      if (table_[i] == Key{}) {
        table_[i] = k;
        ++size_;
        return;
      }
    }
  }

 private:
  static Key fix(Key k) noexcept { return k == Key{} ? Key{1, 0} : k; }
  void grow() {
    std::vector<Key> old = std::move(table_);
    table_.assign(old.empty() ? 1024 : old.size() * 2, Key{});
    mask_ = table_.size() - 1;
    size_ = 0;
    for (const Key k : old) {
      if (!(k == Key{})) insert(k);
    }
  }
  std::vector<Key> table_;
  std::size_t mask_ = 0, size_ = 0;
};

class Solver {
 public:
  Solver(const Board& board, const SolveOptions& options) : board_(board), options_(options) {}

  SolveResult run() {
    SolveResult r;
    Outcome o = enter();
    while (o != Outcome::solved && o != Outcome::limit && !frames_.empty()) {
      Frame& f = frames_.back();
      if (f.next == f.end) {
        memo_.insert(f.key);
        undo_to(f.mark, f);
        pairs_.resize(f.begin);
        frames_.pop_back();
        continue;
      }
      undo_to(f.base, f);
      const auto [a, b] = pairs_[f.next++];
      remove(a, b);
      o = enter();
    }
    r.nodes = nodes_;
    if (o == Outcome::solved) {
      r.status = SolveResult::Status::solved;
      r.moves.reserve(path_.size());
      for (const Step& s : path_) {
        r.moves.push_back({detail::cell_of(board_, s.a), detail::cell_of(board_, s.b)});
      }
    } else {
      r.status =
          o == Outcome::limit ? SolveResult::Status::node_limit : SolveResult::Status::unsolvable;
    }
    return r;
  }

 private:
  enum class Outcome { solved, dead, pushed, limit };
  struct Step {
    int a, b;
    char kind;
  };
  struct Frame {
    Key key;
    std::size_t mark, base;        // path length on entry, and after the safe moves
    std::size_t begin, next, end;  // this node's moves in pairs_
    std::string saved;             // gravity: the cells at `base`
  };

  void remove(int a, int b) {
    path_.push_back({a, b, board_.cells()[static_cast<std::size_t>(a)]});
    board_.set(detail::cell_of(board_, a), kEmpty);
    board_.set(detail::cell_of(board_, b), kEmpty);
    if (options_.gravity != Gravity::none) apply_gravity(board_, options_.gravity);
  }
  /// Back to `mark` moves: without gravity every removal is undone by putting its two tiles
  /// back; with gravity the frame's saved board is restored (only ever at its base).
  void undo_to(std::size_t mark, const Frame& f) {
    if (options_.gravity == Gravity::none) {
      while (path_.size() > mark) {
        const Step s = path_.back();
        path_.pop_back();
        board_.set(detail::cell_of(board_, s.a), s.kind);
        board_.set(detail::cell_of(board_, s.b), s.kind);
      }
    } else if (path_.size() > mark) {
      path_.resize(mark);
      board_ = Board(board_.width(), board_.height(), f.saved);
    }
  }

  Outcome enter() {
    if (board_.tiles() == 0) return Outcome::solved;
    const Key key = hash_cells(board_.cells());
    if (memo_.contains(key)) return Outcome::dead;
    if (nodes_ >= options_.node_limit) return Outcome::limit;
    ++nodes_;
    Frame f{key, path_.size(), 0, pairs_.size(), 0, 0, {}};
    if (options_.gravity == Gravity::none) {
      apply_safe_moves();
      if (board_.tiles() == 0) return Outcome::solved;
    } else {
      f.saved = board_.cells();
    }
    f.base = path_.size();
    generate_moves();
    f.next = f.begin;
    f.end = pairs_.size();
    if (f.next == f.end) {
      memo_.insert(key);
      undo_to(f.mark, f);
      return Outcome::dead;
    }
    frames_.push_back(std::move(f));
    return Outcome::pushed;
  }

  /// Clears every kind whose tiles pair up into connectable pairs (2 tiles: one pair; 4 tiles:
  /// one of the three matchings), until no kind does.
  void apply_safe_moves() {
    for (bool again = true; again;) {
      again = false;
      groups_.build(board_);
      for (int k = 0; k < detail::KindGroups::kKinds; ++k) {
        const int n = groups_.count(k);
        if (n != 2 && n != 4) continue;
        const int* t = groups_.index.data() + groups_.begin[k];
        if (n == 2) {
          if (!detail::connectable_unchecked(board_, t[0], t[1])) continue;
          remove(t[0], t[1]);
          again = true;
          continue;
        }
        static constexpr int kMatchings[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
        for (const auto& m : kMatchings) {
          if (detail::connectable_unchecked(board_, t[m[0]], t[m[1]]) &&
              detail::connectable_unchecked(board_, t[m[2]], t[m[3]])) {
            const int p = t[m[0]], q = t[m[1]], r = t[m[2]], s = t[m[3]];
            remove(p, q);
            remove(r, s);
            again = true;
            break;
          }
        }
      }
    }
  }

  void generate_moves() {
    const std::size_t first = pairs_.size();
    detail::for_each_move(board_, groups_, [&](int a, int b) {
      pairs_.push_back({a, b});
      return false;
    });
    const std::size_t n = pairs_.size() - first;
    if (n < 2) return;
    // Fewer tiles of its kind first, then hint order (stable).
    scored_.clear();
    for (std::size_t i = first; i < pairs_.size(); ++i) {
      const auto a = static_cast<std::size_t>(pairs_[i].first);
      const int kind = static_cast<unsigned char>(board_.cells()[a]);
      scored_.push_back({groups_.count(kind), i - first, pairs_[i]});
    }
    std::sort(scored_.begin(), scored_.end(), [](const Scored& x, const Scored& y) {
      if (x.count != y.count) return x.count < y.count;
      return x.order < y.order;
    });
    for (std::size_t i = 0; i < n; ++i) pairs_[first + i] = scored_[i].pair;
  }

  struct Scored {
    int count;
    std::size_t order;
    std::pair<int, int> pair;
  };

  Board board_;
  SolveOptions options_;
  std::uint64_t nodes_ = 0;
  Memo memo_;
  detail::KindGroups groups_;
  std::vector<Step> path_;
  std::vector<Frame> frames_;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<Scored> scored_;
};

}  // namespace

SolveResult solve(const Board& board, const SolveOptions& options) {
  if (board.tiles() == 0) return {SolveResult::Status::solved, {}, 0};
  return Solver(board, options).run();
}

}  // namespace pathlab::link
