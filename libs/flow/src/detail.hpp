// Internal pieces shared by the whole-map field (field.cpp) and the sectored field
// (sectors.cpp): the tie tolerance, padded-id offsets of the direction codes, the legal moves of
// a cell as a bit mask, and the bucket queue. Not installed.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include <pathlab/flow/field.hpp>

namespace pathlab::flow::detail {
using grid::NodeId;

/// Ties within this relative tolerance count as equal (sums of 1 and sqrt 2 taken in different
/// orders differ in their last bits).
inline double tolerance(double v) noexcept {
  return 1e-9 * std::max(1.0, v);
}

/// The direction a cell takes from its neighbours' values (kUnreachable where there is no
/// move): the first code in tie order (E, S, W, N, then SE, SW, NW, NE) within the tolerance of
/// the least value, two bit scans; -1 when no value is finite.
inline std::int8_t pick_direction(const std::array<double, 8>& value) noexcept {
  double best = value[0];
  for (std::size_t d = 1; d < 8; ++d) best = std::min(best, value[d]);
  if (!(best < kUnreachable)) return -1;
  const double limit = best + tolerance(best);
  unsigned within = 0;
  for (std::size_t d = 0; d < 8; ++d) within |= (value[d] <= limit ? 1u : 0u) << d;
  const unsigned straight = within & 0x55u;
  return static_cast<std::int8_t>(std::countr_zero(straight != 0 ? straight : within));
}

/// Padded-id offsets of the eight direction codes.
inline std::array<std::int32_t, 8> offsets(std::int32_t s) noexcept {
  return {1, s + 1, s, s - 1, -1, -s - 1, -s, -s + 1};
}

/// legal_moves with the rule fixed at compile time (the build's hot loop), without a branch on
/// the walls: random walls make such branches a coin toss.
template <grid::DiagonalRule R>
inline unsigned legal_moves_t(const grid::Grid& g, NodeId n) noexcept {
  const std::int32_t s = g.stride();
  auto free = [&g](NodeId m) { return g.passable_id(m) ? 1u : 0u; };
  const unsigned e = free(n + 1), w = free(n - 1);
  const unsigned so = free(n + s), no = free(n - s);
  const unsigned m = e | so << 2 | w << 4 | no << 6;
  if constexpr (R == grid::DiagonalRule::never) {
    return m;
  } else {
    auto ok = [](unsigned a, unsigned b) -> unsigned {
      if constexpr (R == grid::DiagonalRule::no_corner_cut) return a & b;
      if constexpr (R == grid::DiagonalRule::one_corner) return a | b;
      return 1u;
    };
    return m | (ok(e, so) & free(n + s + 1)) << 1 | (ok(w, so) & free(n + s - 1)) << 3 |
           (ok(w, no) & free(n - s - 1)) << 5 | (ok(e, no) & free(n - s + 1)) << 7;
  }
}

/// The legal moves out of (and, the rules being symmetric, into) padded id n: bit d set when the
/// move in direction code d is legal for `rule`. n itself must be passable.
inline unsigned legal_moves(const grid::Grid& g, grid::DiagonalRule rule, NodeId n) noexcept {
  return grid::dispatch_rule(rule, [&](auto r) { return legal_moves_t<decltype(r)::value>(g, n); });
}

/// A bucket queue for keys that never fall below the last popped bucket and never run more
/// than `span` buckets ahead of it.
class BucketQueue {
 public:
  BucketQueue(double width, std::size_t span) : inv_(1.0 / width), buckets_(span) {}
  void push(double key, NodeId n) {
    const auto b = static_cast<std::uint64_t>(key * inv_);
    buckets_[b % buckets_.size()].push_back(n);
    ++size_;
  }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// The bucket of the least keys, taken out whole.
  std::vector<NodeId>& next() {
    while (buckets_[cursor_ % buckets_.size()].empty()) ++cursor_;
    std::vector<NodeId>& b = buckets_[cursor_ % buckets_.size()];
    current_.swap(b);
    b.clear();
    size_ -= current_.size();
    ++cursor_;
    return current_;
  }

 private:
  double inv_;
  std::vector<std::vector<NodeId>> buckets_;
  std::vector<NodeId> current_;
  std::uint64_t cursor_ = 0;
  std::size_t size_ = 0;
};

/// The bucket queue of the uniform-cost sweep: the caller asks for room for eight ids at the end
/// of a key's bucket, writes them without a branch and commits how many it kept. A bucket is read
/// in place (next) and emptied (release) after; while it is read, keys land in later buckets.
class FlatBuckets {
 public:
  FlatBuckets(double width, std::size_t span) : inv_(1.0 / width), ring_(span) {}
  NodeId* room(double key) {
    Bucket& b = at(key);
    if (b.ids.size() < b.n + 8) b.ids.resize(std::max<std::size_t>(256, 2 * (b.n + 8)));
    return b.ids.data() + b.n;
  }
  void commit(double key, std::size_t kept) noexcept {
    at(key).n += kept;
    size_ += kept;
  }
  void push(double key, NodeId n) {
    *room(key) = n;
    commit(key, 1);
  }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  std::span<const NodeId> next() noexcept {
    while (ring_[cursor_ % ring_.size()].n == 0) ++cursor_;
    Bucket& b = ring_[cursor_ % ring_.size()];
    size_ -= b.n;
    floor_ = cursor_ + 1;
    return {b.ids.data(), b.n};
  }
  void release() noexcept {
    ring_[cursor_ % ring_.size()].n = 0;
    ++cursor_;
  }

 private:
  struct Bucket {
    std::vector<NodeId> ids;
    std::size_t n = 0;
  };
  Bucket& at(double key) noexcept {
    const auto b = std::max(floor_, static_cast<std::uint64_t>(key * inv_));
    return ring_[b % ring_.size()];
  }
  double inv_;
  std::vector<Bucket> ring_;
  std::uint64_t cursor_ = 0, floor_ = 0;
  std::size_t size_ = 0;
};

/// One half of a uniform-cost sweep's pop: offers here + step to the four neighbours `dirs`
/// (the straight or the diagonal codes) without a branch on the data. slot(d) is the
/// neighbour's distance (negative: outside the field), key(d) its queue id; the distance is
/// stored back whether it improved or not, and the id written into the offer's bucket, its end
/// advanced by the comparison. value[d] gets what the neighbour offers back (kUnreachable where
/// there is no move), for the direction.
template <class Slot, class Key>
inline void relax_four(FlatBuckets& q, const std::array<std::size_t, 4>& dirs, double here,
                       double step, unsigned legal, Slot&& slot, Key&& key,
                       std::array<double, 8>& value) {
  const double offer = here + step;
  NodeId* p = q.room(offer);
  NodeId* const p0 = p;
  for (const std::size_t d : dirs) {
    double* const dn = slot(d);
    const double old = *dn;
    // (Bitwise and, not &&: no branch on the data.)
    const bool ok = ((legal >> d & 1u) != 0) & (old >= 0);
    const bool better = ok & (offer < old);
    *dn = better ? offer : old;
    *p = key(d);
    p += better ? 1 : 0;
    value[d] = ok ? old + step : kUnreachable;
  }
  q.commit(offer, static_cast<std::size_t>(p - p0));
}

}  // namespace pathlab::flow::detail
