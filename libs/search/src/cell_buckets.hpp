// Internal to the search module: items placed at cells, bucketed by square blocks of cells, so
// that the items in a box, or the nearest one, are found without a pass over all of them. The
// subgoal graphs' repairs use it for the edges a batch of patches blocks: every subgoal
// against every blocked edge took 51 s (subgoal) and 17 s (subgoal-ch) after one batch of 290
// patches on the dynamic track's 1024x1024 map, where a build takes 4 s and 1.6 s.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <pathlab/core/types.hpp>

namespace pathlab::search::detail {

class CellBuckets {
 public:
  /// Block side, in cells.
  static constexpr std::int32_t kBlock = 32;

  /// Item i at cell at[i], for cells with 0 <= x < width and 0 <= y < height (others are
  /// clamped into the nearest block: still found, by a box that holds them).
  void assign(const std::vector<Cell>& at, std::int32_t width, std::int32_t height) {
    bw_ = std::max(1, (width + kBlock - 1) / kBlock);
    bh_ = std::max(1, (height + kBlock - 1) / kBlock);
    begin_.assign(static_cast<std::size_t>(bw_) * static_cast<std::size_t>(bh_) + 1, 0);
    for (const Cell c : at) ++begin_[block(c) + 1];
    for (std::size_t b = 1; b < begin_.size(); ++b) begin_[b] += begin_[b - 1];
    items_.resize(at.size());
    std::vector<std::uint32_t> next(begin_.begin(), begin_.end() - 1);
    for (std::size_t i = 0; i < at.size(); ++i) {
      items_[next[block(at[i])]++] = static_cast<std::uint32_t>(i);
    }
  }

  /// Calls f(i) for every item in a block that meets the box [x0, x1] x [y0, y1] (a superset
  /// of the items inside it: the caller tests each).
  template <class F>
  void in_box(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1, F&& f) const {
    const std::int32_t bx0 = clamp_x(x0), bx1 = clamp_x(x1), by0 = clamp_y(y0), by1 = clamp_y(y1);
    for (std::int32_t by = by0; by <= by1; ++by) {
      const std::size_t row = static_cast<std::size_t>(by) * static_cast<std::size_t>(bw_);
      const std::uint32_t last = begin_[row + static_cast<std::size_t>(bx1) + 1];
      for (std::uint32_t k = begin_[row + static_cast<std::size_t>(bx0)]; k < last; ++k) {
        f(items_[k]);
      }
    }
  }

  /// The least dist(i) over the items (infinity when there are none), where dist(i) is at
  /// least the Chebyshev distance from p to item i's cell (an octile distance is): the blocks
  /// are searched in rings around p's until no farther ring can hold a nearer item.
  template <class D>
  [[nodiscard]] double nearest(Cell p, D&& dist) const {
    double best = std::numeric_limits<double>::infinity();
    const std::int32_t px = clamp_x(p.x), py = clamp_y(p.y);
    const std::int32_t rings = std::max({px, bw_ - 1 - px, py, bh_ - 1 - py});
    for (std::int32_t r = 0; r <= rings; ++r) {
      // Items in ring r lie more than (r - 1) blocks away from p, in every direction.
      if (r >= 1 && best <= static_cast<double>(r - 1) * kBlock) break;
      for (std::int32_t by = py - r; by <= py + r; ++by) {
        if (by < 0 || by >= bh_) continue;
        const bool edge_row = by == py - r || by == py + r;
        for (std::int32_t bx = px - r; bx <= px + r; bx += edge_row || r == 0 ? 1 : 2 * r) {
          if (bx < 0 || bx >= bw_) continue;
          const std::size_t b = static_cast<std::size_t>(by) * static_cast<std::size_t>(bw_) +
                                static_cast<std::size_t>(bx);
          for (std::uint32_t k = begin_[b]; k < begin_[b + 1]; ++k) {
            best = std::min(best, static_cast<double>(dist(items_[k])));
          }
        }
      }
    }
    return best;
  }

 private:
  [[nodiscard]] std::int32_t clamp_x(std::int32_t x) const noexcept {
    return std::clamp(x / kBlock, 0, bw_ - 1);
  }
  [[nodiscard]] std::int32_t clamp_y(std::int32_t y) const noexcept {
    return std::clamp(y / kBlock, 0, bh_ - 1);
  }
  [[nodiscard]] std::size_t block(Cell c) const noexcept {
    return static_cast<std::size_t>(clamp_y(c.y)) * static_cast<std::size_t>(bw_) +
           static_cast<std::size_t>(clamp_x(c.x));
  }

  std::int32_t bw_ = 1, bh_ = 1;
  std::vector<std::uint32_t> begin_{0, 0};  ///< items of block b: items_[begin_[b], begin_[b+1])
  std::vector<std::uint32_t> items_;
};

}  // namespace pathlab::search::detail
