// Internal to the search module: the heuristic of maps that are not plain (hex layouts, edge
// walls, layers, links). Definitions: shared docs/ALGORITHMS.md, "Hex grids" and "Layered
// maps".
//
// Within a floor it is the options' heuristic (octile by default; on hex layouts every
// heuristic but zero is the hex distance, the only one that fits six moves). Links may join
// far cells, and floors meet only through them, so with links the heuristic is the exact
// distance to the goal in a relaxed map: each floor open (no walls, steps at their base cost)
// and the links as they are. That distance is
//   h(n) = min( d(n, goal)               if n is on the goal's floor,
//               min over arcs a leaving a cell of n's floor:  d(n, a.from) + D(a) )
// where d is the floor's metric (a norm: octile, Manhattan, Euclidean, Chebyshev or hex) and
// D(a) the relaxed cost of taking arc a and going on to the goal, found per query by a
// Dijkstra over the arcs (D(a) = cost(a) + min(d(a.to, goal), min over a' leaving a.to's floor:
// d(a.to, a'.from) + D(a'))). It is admissible (every real step costs at least its relaxed
// one) and consistent (a shortest-path distance in the relaxed map). Arcs dominated by another
// of the same floor (d(a.from, a'.from) + D(a') <= D(a)) never give the minimum and are
// dropped, so h costs one term per useful arc of the floor.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/search/algorithm.hpp>

/// GCC and clang: inline the heuristic into the search's neighbour loop ([[nodiscard]] first:
/// clang accepts no attribute list after a GNU attribute).
#if defined(__GNUC__)
#define PATHLAB_HEURISTIC_INLINE __attribute__((always_inline))
#else
#define PATHLAB_HEURISTIC_INLINE
#endif

namespace pathlab::search::detail {

class MapHeuristic {
 public:
  /// Prepares the heuristic toward `goals` (cells of g) with heuristic `kind` scaled by the
  /// base costs s (straight, hex) and d (diagonal). More than kMaxGoals goals: zero.
  /// `reverse`: toward the goals along reversed moves (a backward search's heuristic, whose
  /// "goal" is the start: one-way links count the other way).
  void setup(const grid::Grid& g, Heuristic kind, double s, double d,
             std::span<const grid::NodeId> goals, bool reverse = false) {
    kind_ = kind;
    s_ = s;
    d_ = d;
    layout_ = g.layout();
    hex_ = grid::is_hex(layout_);
    if (hex_ && kind_ != Heuristic::zero) kind_ = Heuristic::octile;  // read as hex below
    zero_ = kind_ == Heuristic::zero || goals.size() > kMaxGoals;
    goals_.clear();
    by_layer_.clear();
    entries_.clear();
    layers_ = g.layers();
    if (row_layer_.size() != static_cast<std::size_t>(g.height()) ||
        rows_pitch_ != g.layer_pitch()) {
      row_layer_.resize(static_cast<std::size_t>(g.height()));
      for (int y = 0; y < g.height(); ++y) {
        row_layer_[static_cast<std::size_t>(y)] = static_cast<std::int16_t>(g.layer_of(y));
      }
      rows_pitch_ = g.layer_pitch();
    }
    if (zero_) return;
    for (const grid::NodeId n : goals) {
      const Cell c = g.cell(n);
      goals_.push_back({c.x, c.y, layer(c.y)});
    }
    const auto arcs = g.arcs();
    if (arcs.empty()) return;
    // D over the arcs: a Dijkstra from the goals backwards over the arc graph (cached per map).
    const std::size_t k = arcs.size();
    if (k > kMaxArcs) {
      // Too many for the per-query Dijkstra: the cheapest arc bounds any path that takes one.
      double least = kInf;
      for (const auto& a : arcs) least = std::min(least, static_cast<double>(a.cost));
      far_bound_ = least;
      many_arcs_ = true;
      return;
    }
    many_arcs_ = false;
    build_arc_graph(g, reverse);
    std::vector<double>& D = D_;
    D.assign(k, kInf);
    heap_.clear();
    for (std::size_t i = 0; i < k; ++i) {
      D[i] = cost_[i] + direct(to_[i].x, to_[i].y, to_layer_[i]);
      if (std::isfinite(D[i])) heap_.push_back({D[i], static_cast<std::uint32_t>(i)});
    }
    auto later = [](const QueueEntry& a, const QueueEntry& b) { return a.D > b.D; };
    std::make_heap(heap_.begin(), heap_.end(), later);
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      const QueueEntry top = heap_.back();
      heap_.pop_back();
      if (top.D > D[top.arc]) continue;
      // Arcs ending on the floor where `top` starts may go on through it.
      for (std::uint32_t e = rev_start_[top.arc]; e < rev_start_[top.arc + 1]; ++e) {
        const RevEdge& r = rev_[e];
        const double via = r.w + top.D;
        if (via < D[r.arc]) {
          D[r.arc] = via;
          heap_.push_back({via, r.arc});
          std::push_heap(heap_.begin(), heap_.end(), later);
        }
      }
    }
    std::vector<Cell>& from = from_;
    std::vector<int>& from_layer = from_layer_;
    // Per floor, the arcs that can give the minimum.
    by_layer_.assign(static_cast<std::size_t>(layers_) + 1, 0);
    std::vector<Entry>& cand = cand_;
    for (int l = 0; l < layers_; ++l) {
      cand.clear();
      for (std::size_t i = 0; i < k; ++i) {
        if (from_layer[i] == l && std::isfinite(D[i])) cand.push_back({from[i].x, from[i].y, D[i]});
      }
      std::sort(cand.begin(), cand.end(), [](const Entry& a, const Entry& b) { return a.D < b.D; });
      const std::size_t first = entries_.size();
      for (const Entry& e : cand) {
        // A goal on this floor no farther than D dominates the entry (triangle inequality).
        bool dominated = direct(e.x, e.y, l) <= e.D;
        for (std::size_t j = first; j < entries_.size() && !dominated; ++j) {
          dominated = metric(e.x, e.y, entries_[j].x, entries_[j].y) + entries_[j].D <= e.D;
        }
        if (!dominated) entries_.push_back(e);
      }
      by_layer_[static_cast<std::size_t>(l) + 1] = static_cast<std::uint32_t>(entries_.size());
    }
    // The entries as arrays for fast_entries: (x, y), or axial (q, r) on hex layouts.
    ea_.resize(entries_.size());
    eb_.resize(entries_.size());
    eD_.resize(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& e = entries_[i];
      if (hex_) {
        const grid::hex::Axial c = grid::hex::to_axial(layout_, e.x, e.y);
        ea_[i] = c.q;
        eb_[i] = c.r;
      } else {
        ea_[i] = e.x;
        eb_[i] = e.y;
      }
      eD_[i] = e.D;
    }
  }

  /// h of cell (x, y) of the grid given to setup().
  [[nodiscard]] PATHLAB_HEURISTIC_INLINE double operator()(int x, int y) const noexcept {
    if (zero_) return 0.0;
    const int l = layer(y);
    double h = direct(x, y, l);
    if (many_arcs_) return std::min(h, far_bound_);
    if (!by_layer_.empty()) {
      const std::uint32_t e0 = by_layer_[static_cast<std::size_t>(l)];
      const std::uint32_t e1 = by_layer_[static_cast<std::size_t>(l) + 1];
      if (hex_ || kind_ == Heuristic::octile) {
        h = std::min(h, fast_entries(x, y, e0, e1));
      } else {
        // Entries in ascending D: once D alone reaches h, no later entry can lower it.
        for (std::uint32_t i = e0; i < e1; ++i) {
          const Entry& e = entries_[i];
          if (e.D >= h) break;
          h = std::min(h, metric(x, y, e.x, e.y) + e.D);
        }
      }
    }
    // No goal even in the relaxed map: the cell cannot lead to one. A large finite value keeps
    // the priority queues' arithmetic finite and the heuristic consistent.
    return std::min(h, kNowhere);
  }

  /// h of a cell from which no goal can be reached, even in the relaxed map.
  static constexpr double kNowhere = 1e15;

  /// Most goals the heuristic aims at (more: zero, Dijkstra).
  static constexpr std::size_t kMaxGoals = 64;
  /// Most arcs the per-query Dijkstra over arcs takes (more: a weaker bound).
  static constexpr std::size_t kMaxArcs = 2048;

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  struct Goal {
    int x, y, layer;
  };
  struct Entry {
    int x, y;
    double D;
  };

  [[nodiscard]] int layer(int y) const noexcept {
    return layers_ == 1 ? 0 : row_layer_[static_cast<std::size_t>(y)];
  }
  /// The floor's metric between two cells of one floor.
  [[nodiscard]] double metric(int x1, int y1, int x2, int y2) const noexcept {
    if (hex_) {
      return s_ * grid::hex::distance(layout_, Cell{x1, y1}, Cell{x2, y2});
    }
    const int dx = std::abs(x1 - x2), dy = std::abs(y1 - y2);
    switch (kind_) {
      case Heuristic::manhattan:
        return s_ * (dx + dy);
      case Heuristic::euclidean:
        return s_ * std::sqrt(static_cast<double>(dx) * dx + static_cast<double>(dy) * dy);
      case Heuristic::chebyshev:
        return s_ * std::max(dx, dy);
      case Heuristic::zero:
        return 0.0;
      case Heuristic::octile:
      default: {
        const int mn = std::min(dx, dy), mx = std::max(dx, dy);
        return s_ * (mx - mn) + d_ * mn;
      }
    }
  }
  /// The least metric to a goal on the same floor (infinity when none is).
  [[nodiscard]] double direct(int x, int y, int l) const noexcept {
    double h = kInf;
    for (const Goal& g : goals_) {
      if (g.layer == l) h = std::min(h, metric(x, y, g.x, g.y));
    }
    return h;
  }

  /// min over entries [e0, e1) of d(cell, entry) + D for the octile and hex metrics: branch-free
  /// over arrays of the entries' coordinates, four independent minima (a term per entry, with no
  /// comparisons to mispredict, is cheaper than stopping early).
  [[nodiscard]] PATHLAB_HEURISTIC_INLINE double fast_entries(int x, int y, std::uint32_t e0,
                                                             std::uint32_t e1) const noexcept {
    double m[4] = {kInf, kInf, kInf, kInf};
    const double* a = ea_.data();
    const double* b = eb_.data();
    const double* D = eD_.data();
    if (hex_) {
      const grid::hex::Axial c = grid::hex::to_axial(layout_, x, y);
      const double q = c.q, r = c.r, half = 0.5 * s_;
      std::uint32_t i = e0;
      for (; i + 4 <= e1; i += 4) {
        for (int k = 0; k < 4; ++k) {
          const double dq = q - a[i + k], dr = r - b[i + k];
          m[k] =
              std::min(m[k], half * (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) + D[i + k]);
        }
      }
      for (; i < e1; ++i) {
        const double dq = q - a[i], dr = r - b[i];
        m[0] = std::min(m[0], half * (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) + D[i]);
      }
    } else {
      const double fx = x, fy = y, straight = s_, diag = d_ - s_;
      std::uint32_t i = e0;
      for (; i + 4 <= e1; i += 4) {
        for (int k = 0; k < 4; ++k) {
          const double dx = std::abs(fx - a[i + k]), dy = std::abs(fy - b[i + k]);
          // s * (max - min) + d * min = s * max + (d - s) * min
          m[k] = std::min(m[k], straight * std::max(dx, dy) + diag * std::min(dx, dy) + D[i + k]);
        }
      }
      for (; i < e1; ++i) {
        const double dx = std::abs(fx - a[i]), dy = std::abs(fy - b[i]);
        m[0] = std::min(m[0], straight * std::max(dx, dy) + diag * std::min(dx, dy) + D[i]);
      }
    }
    return std::min(std::min(m[0], m[1]), std::min(m[2], m[3]));
  }

  struct QueueEntry {
    double D;
    std::uint32_t arc;
  };
  struct RevEdge {
    std::uint32_t arc;  ///< an arc i ending on the floor where this one starts
    double w;           ///< cost(i) + d(i.to, this.from)
  };

  /// The arcs' ends and, per arc j, the arcs i that may be followed by j (i ends on the floor
  /// where j starts) with w = cost(i) + d(i.to, j.from). Rebuilt when the map, the metric or the
  /// direction changes.
  void build_arc_graph(const grid::Grid& g, bool reverse) {
    const std::uint64_t rev = g.revision();
    if (graph_valid_ && graph_rev_ == rev && graph_kind_ == kind_ && graph_s_ == s_ &&
        graph_d_ == d_ && graph_reverse_ == reverse && graph_layout_ == layout_) {
      return;
    }
    const auto arcs = g.arcs();
    const std::size_t k = arcs.size();
    from_.resize(k);
    to_.resize(k);
    from_layer_.resize(k);
    to_layer_.resize(k);
    cost_.resize(k);
    for (std::size_t i = 0; i < k; ++i) {
      from_[i] = g.cell(reverse ? arcs[i].to : arcs[i].from);
      to_[i] = g.cell(reverse ? arcs[i].from : arcs[i].to);
      from_layer_[i] = layer(from_[i].y);
      to_layer_[i] = layer(to_[i].y);
      cost_[i] = arcs[i].cost;
    }
    rev_start_.assign(k + 1, 0);
    rev_.clear();
    for (std::size_t j = 0; j < k; ++j) {
      rev_start_[j] = static_cast<std::uint32_t>(rev_.size());
      for (std::size_t i = 0; i < k; ++i) {
        if (to_layer_[i] != from_layer_[j]) continue;
        rev_.push_back({static_cast<std::uint32_t>(i),
                        cost_[i] + metric(to_[i].x, to_[i].y, from_[j].x, from_[j].y)});
      }
    }
    rev_start_[k] = static_cast<std::uint32_t>(rev_.size());
    graph_valid_ = true;
    graph_rev_ = rev;
    graph_kind_ = kind_;
    graph_s_ = s_;
    graph_d_ = d_;
    graph_reverse_ = reverse;
    graph_layout_ = layout_;
  }

  // The arc graph (build_arc_graph) and the per-query state.
  bool graph_valid_ = false;
  std::uint64_t graph_rev_ = 0;
  Heuristic graph_kind_ = Heuristic::octile;
  double graph_s_ = 0, graph_d_ = 0;
  bool graph_reverse_ = false;
  grid::Layout graph_layout_ = grid::Layout::square;
  std::vector<Cell> from_, to_;
  std::vector<int> from_layer_, to_layer_;
  std::vector<double> cost_;
  std::vector<std::uint32_t> rev_start_;
  std::vector<RevEdge> rev_;
  std::vector<double> D_;
  std::vector<QueueEntry> heap_;
  std::vector<Entry> cand_;

  Heuristic kind_ = Heuristic::octile;
  double s_ = 1, d_ = 1.4142135623730951;
  grid::Layout layout_ = grid::Layout::square;
  bool hex_ = false;
  bool zero_ = false;
  bool many_arcs_ = false;
  double far_bound_ = 0;
  int layers_ = 1;
  std::vector<std::int16_t> row_layer_;
  int rows_pitch_ = 0;
  std::vector<Goal> goals_;
  std::vector<std::uint32_t> by_layer_;  // entries_ of floor l: [by_layer_[l], by_layer_[l+1])
  std::vector<Entry> entries_;
  std::vector<double> ea_, eb_, eD_;  // entries_ as arrays: x or q, y or r, D
};

}  // namespace pathlab::search::detail
