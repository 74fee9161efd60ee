// Connected components of a plain grid's free cells, kept up to date under edits: what lets a
// preprocessed method answer a goal it cannot reach without searching (subgoal graphs, jps+).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <pathlab/grid/grid.hpp>

namespace pathlab::search::detail {

/// The connected components of a plain grid's free cells under moves without corner cutting,
/// by padded cell id: 4-connected components, since a legal diagonal step has both cells
/// beside it free. Edits keep them by merging only: a cell that becomes a wall leaves its
/// component, a cell that opens joins (and merges) those of its neighbours, and a component
/// that a new wall cuts in two keeps its one label. So cells of different components are never
/// connected; cells of one may not be once walls were added (may_be_split()): build() again to
/// know. Not thread-safe to repair; of() may be read by many threads.
class Components {
 public:
  /// Labels every free cell of g afresh (throws std::bad_alloc).
  void build(const grid::Grid& g);
  /// Brings the labels up to date with g after the cells in `areas` changed (Rects of g's
  /// cells, as Grid::changes_since gives them), by merging (throws std::bad_alloc).
  void repair(const grid::Grid& g, std::span<const grid::Rect> areas);
  /// Whether build() has not run (or clear() ran since).
  [[nodiscard]] bool empty() const noexcept { return label_.empty(); }
  /// The component of padded cell c, 0 for a wall: cells of different components are not
  /// connected.
  [[nodiscard]] std::uint32_t of(std::uint32_t c) const noexcept {
    return root_.empty() ? label_[c] : root_[label_[c]];
  }
  /// One more than the largest label of() returns.
  [[nodiscard]] std::uint32_t label_bound() const noexcept {
    return root_.empty() ? labels_ + 1 : static_cast<std::uint32_t>(root_.size());
  }
  /// Whether a wall was added since build(): one component may then hold unconnected cells.
  [[nodiscard]] bool may_be_split() const noexcept { return split_; }
  /// Frees the labels.
  void clear() noexcept;
  /// Heap bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return (label_.capacity() + root_.capacity()) * sizeof(std::uint32_t);
  }

 private:
  std::vector<std::uint32_t> label_;  // padded cell -> component label (0 = wall)
  std::vector<std::uint32_t> root_;   // after repairs: label -> merged label
  std::uint32_t labels_ = 0;          // labels build() gave, 1..labels_
  bool split_ = false;
};

}  // namespace pathlab::search::detail
