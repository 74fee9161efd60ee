// Internals shared by the link module's sources: the seeded PRNG (splitmix64, identical on every
// standard library, unlike std::uniform_int_distribution), kind validation, and tiles grouped by
// kind, which hints, move lists, the solver and the generator all scan.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <pathlab/link/board.hpp>
#include <pathlab/link/moves.hpp>

namespace pathlab::link::detail {

/// Printable ASCII except space: '!' .. '~'. kEmpty is one of them.
[[nodiscard]] constexpr bool printable(char c) noexcept {
  return c > ' ' && c < 127;
}

/// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and its stream is fixed by the seed alone.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n >= 1) by Lemire's multiply-shift; the tiny bias (n / 2^64) is
  /// irrelevant here and the result is the same everywhere.
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  /// Fisher-Yates over any random-access container.
  template <class C>
  void shuffle(C& v) noexcept {
    for (std::size_t i = v.size(); i > 1; --i) {
      std::swap(v[i - 1], v[below(static_cast<std::uint32_t>(i))]);
    }
  }

 private:
  std::uint64_t state_;
};

/// The tiles' cell indices (row-major) grouped by kind: kind k's tiles are
/// index[begin[k] .. begin[k + 1]), each group in row-major order. Reused between calls.
struct KindGroups {
  static constexpr int kKinds = 128;
  std::array<int, kKinds + 1> begin{};
  std::vector<int> index;

  void build(const Board& board);
  [[nodiscard]] int count(int kind) const noexcept { return begin[kind + 1] - begin[kind]; }
};

/// Calls f(a, b) (row-major indices, a < b) for every connectable pair in hint() order: a in
/// row-major order, then b in row-major order. Stops early when f returns true; returns whether
/// it did.
template <class F>
bool for_each_move(const Board& board, KindGroups& groups, F&& f);

/// connectable() on row-major indices, without the validity checks (both cells hold the same
/// kind, a != b).
[[nodiscard]] bool connectable_unchecked(const Board& board, int a, int b) noexcept;

template <class F>
bool for_each_move(const Board& board, KindGroups& groups, F&& f) {
  groups.build(board);
  // Each tile's position inside its kind's group, so the scan can start right after it.
  const std::string& cells = board.cells();
  std::array<int, KindGroups::kKinds> seen{};
  for (int a = 0; a < static_cast<int>(cells.size()); ++a) {
    const auto k = static_cast<unsigned char>(cells[static_cast<std::size_t>(a)]);
    if (k == static_cast<unsigned char>(kEmpty)) continue;
    const int from = groups.begin[k] + ++seen[k];
    const int to = groups.begin[k + 1];
    for (int i = from; i < to; ++i) {
      const int b = groups.index[static_cast<std::size_t>(i)];
      if (connectable_unchecked(board, a, b) && f(a, b)) return true;
    }
  }
  return false;
}

[[nodiscard]] inline Cell cell_of(const Board& board, int i) noexcept {
  return {i % board.width(), i / board.width()};
}

}  // namespace pathlab::link::detail
