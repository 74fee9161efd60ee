// Internal to the search module: the open-list entry and the radix queue that monotone
// searches (A*, Dijkstra, JPS, JPS+, subgoal graphs) keep their open cells in. Not installed.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <pathlab/core/portable.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::search::detail {

/// push and pop run once per generated cell: inlined into the search loop (they were calls).
#if defined(__GNUC__)
#define PATHLAB_QUEUE_INLINE __attribute__((always_inline)) inline
#else
#define PATHLAB_QUEUE_INLINE inline
#endif

/// 16 bytes: four children of a 4-ary heap node share one cache line.
struct HeapEntry {
  std::uint64_t key;
  grid::NodeId id;
};

/// A key of the priority alone (no tie-break), for the radix queue.
inline std::uint64_t priority_key(double f) noexcept {
  return core::bit_cast<std::uint64_t>(f) & ~std::uint64_t{0xFFFF};
}
/// A radix heap (Ahuja, Mehlhorn, Orlin & Tarjan 1990) over priority keys (priority_key), for
/// searches whose priorities never decrease (A* with a consistent heuristic, Dijkstra). An
/// entry sits in the bucket of the highest bit in which its key differs from the last key
/// popped; popping empties the lowest non-empty bucket into lower ones around its least key.
/// Equal priorities share bucket 0 and come out last in, first out: the cells just generated,
/// the deepest, first, which is the tie-break make_key encodes for the binary heap, here for
/// free. A better g pushes the cell again; the worse entry is stale when it comes up. A key
/// below the last one popped (the last-bit noise of a sum: mathematically it is equal) is
/// raised to it.
/// Measured against the indexed 4-ary heap with make_key's tie-break: 23-28% less time per
/// query on den520d, brc202d and maze512-1-0, the same expansions within 0.3%. Radix over the
/// full keys was slower (their tie-break bits made every key distinct, so every pop emptied a
/// bucket).
class RadixQueue {
 public:
  void clear() noexcept {
    for (std::uint64_t m = used_; m != 0; m &= m - 1) buckets_[std::countr_zero(m)].clear();
    used_ = 0;
    size_ = 0;
    last_ = 0;
  }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t bytes() const noexcept {
    std::size_t b = 0;
    for (const auto& v : buckets_) b += v.capacity() * sizeof(HeapEntry);
    return b;
  }
  /// The last key popped: a push below it is raised to it.
  [[nodiscard]] std::uint64_t last() const noexcept { return last_; }
  PATHLAB_QUEUE_INLINE void push(HeapEntry e) {
    if (e.key < last_) e.key = last_;
    const int b = bucket(e.key);
    buckets_[b].push_back(e);
    used_ |= std::uint64_t{1} << b;
    ++size_;
  }
  /// The least key (the next pop's). Not empty.
  PATHLAB_QUEUE_INLINE std::uint64_t min_key() {
    if (buckets_[0].empty()) refill();
    return last_;
  }
  /// The least entry (by key; equal keys last in, first out). Not empty.
  PATHLAB_QUEUE_INLINE HeapEntry pop() {
    if (buckets_[0].empty()) refill();
    std::vector<HeapEntry>& zero = buckets_[0];
    const HeapEntry e = zero.back();
    zero.pop_back();
    if (zero.empty()) used_ &= ~std::uint64_t{1};
    --size_;
    return e;
  }

 private:
  /// Empties the lowest non-empty bucket into lower ones around its least key, which becomes
  /// the last key popped (bucket 0 is empty, the queue is not).
  void refill() {
    const int i = std::countr_zero(used_ & ~std::uint64_t{1});
    std::vector<HeapEntry>& from = buckets_[i];
    std::uint64_t least = from.front().key;
    for (const HeapEntry& e : from) least = std::min(least, e.key);
    last_ = least;
    for (const HeapEntry& e : from) {
      const int b = bucket(e.key);
      buckets_[b].push_back(e);
      used_ |= std::uint64_t{1} << b;
    }
    from.clear();
    used_ &= ~(std::uint64_t{1} << i);
  }
  /// 0 for a key equal to the last popped, else 1 + the highest differing bit (1..64). Bucket
  /// 64 is folded into 63's bit of the mask: keys there differ in their sign bit, never
  /// (priorities are >= 0).
  [[nodiscard]] int bucket(std::uint64_t key) const noexcept {
    return key == last_ ? 0 : std::min(63, 64 - std::countl_zero(key ^ last_));
  }
  std::vector<HeapEntry> buckets_[64];
  std::uint64_t used_ = 0;  ///< bit b: bucket b is not empty
  std::size_t size_ = 0;
  std::uint64_t last_ = 0;
};

/// An open list for searches whose priorities may drop below the last one popped, but rarely
/// (Theta*: a shortcut through a parent can open a cell below the f just expanded): the radix
/// queue, and a small binary heap of the entries below its last key, which always come out
/// first. Pops are exactly in priority order (to priority_key's resolution).
class DipQueue {
 public:
  void clear() noexcept {
    radix_.clear();
    low_.clear();
  }
  [[nodiscard]] bool empty() const noexcept { return low_.empty() && radix_.empty(); }
  [[nodiscard]] std::size_t size() const noexcept { return low_.size() + radix_.size(); }
  [[nodiscard]] std::size_t bytes() const noexcept {
    return radix_.bytes() + low_.capacity() * sizeof(HeapEntry);
  }
  PATHLAB_QUEUE_INLINE void push(HeapEntry e) {
    if (e.key < radix_.last()) {
      low_.push_back(e);
      std::push_heap(low_.begin(), low_.end(), later);
    } else {
      radix_.push(e);
    }
  }
  /// The least key. Not empty.
  PATHLAB_QUEUE_INLINE std::uint64_t min_key() {
    return low_.empty() ? radix_.min_key() : low_.front().key;
  }
  /// The least entry. Not empty.
  PATHLAB_QUEUE_INLINE HeapEntry pop() {
    if (low_.empty()) return radix_.pop();
    std::pop_heap(low_.begin(), low_.end(), later);
    const HeapEntry e = low_.back();
    low_.pop_back();
    return e;
  }

 private:
  static bool later(const HeapEntry& a, const HeapEntry& b) noexcept { return a.key > b.key; }
  RadixQueue radix_;
  std::vector<HeapEntry> low_;
};

}  // namespace pathlab::search::detail
