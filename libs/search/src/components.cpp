// Connected components kept up to date under edits (components.hpp).
#include "components.hpp"

namespace pathlab::search::detail {

void Components::build(const grid::Grid& g) {
  const std::size_t n = g.padded_size();
  const auto stride = static_cast<std::uint32_t>(g.stride());
  label_.assign(n, 0);
  root_.clear();
  split_ = false;
  std::vector<std::uint32_t> stack;
  std::uint32_t label = 0;
  for (std::uint32_t p = 0; p < n; ++p) {
    if (!g.passable_id(p) || label_[p] != 0) continue;
    label_[p] = ++label;
    stack.assign(1, p);
    while (!stack.empty()) {
      const std::uint32_t u = stack.back();
      stack.pop_back();
      // The padding is walls: every neighbour of a free cell is a padded id.
      for (const std::uint32_t v : {u - 1, u + 1, u - stride, u + stride}) {
        if (!g.passable_id(v) || label_[v] != 0) continue;
        label_[v] = label;
        stack.push_back(v);
      }
    }
  }
  labels_ = label;
}

void Components::repair(const grid::Grid& g, std::span<const grid::Rect> areas) {
  if (label_.empty()) return;  // never built: nothing to keep
  const auto stride = static_cast<std::uint32_t>(g.stride());
  if (root_.empty()) {
    root_.resize(std::size_t{labels_} + 1);
    for (std::uint32_t i = 0; i <= labels_; ++i) root_[i] = i;
  }
  auto root = [&](std::uint32_t l) {
    while (root_[l] != l) l = root_[l] = root_[root_[l]];
    return l;
  };
  bool merged = false;
  for (const grid::Rect& r : areas) {
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) {
        const std::uint32_t p = g.id(x, y);
        if (!g.passable_id(p)) {
          if (label_[p] != 0) split_ = true;
          label_[p] = 0;
          continue;
        }
        if (label_[p] != 0) continue;  // free before: its component stands (or only grows)
        // Opened: joins its free neighbours' components, merging them.
        std::uint32_t label = 0;
        for (const std::uint32_t q : {p - 1, p + 1, p - stride, p + stride}) {
          // (A wall still labelled is one this change made, not yet reached by the loop.)
          if (label_[q] == 0 || !g.passable_id(q)) continue;  // or a cell opened later on
          const std::uint32_t l = root(label_[q]);
          if (label == 0) {
            label = l;
          } else if (l != label) {
            root_[l] = label;
            merged = true;
          }
        }
        if (label == 0) {
          label = static_cast<std::uint32_t>(root_.size());
          root_.push_back(label);
        }
        label_[p] = label;
      }
    }
  }
  // of() reads one step: every label points at its root.
  if (merged) {
    for (std::uint32_t i = 0; i < root_.size(); ++i) root_[i] = root(i);
  }
}

void Components::clear() noexcept {
  std::vector<std::uint32_t>().swap(label_);
  std::vector<std::uint32_t>().swap(root_);
  labels_ = 0;
  split_ = false;
}

}  // namespace pathlab::search::detail
