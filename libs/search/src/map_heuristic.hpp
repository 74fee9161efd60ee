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
    row_layer_.resize(static_cast<std::size_t>(g.height()));
    for (int y = 0; y < g.height(); ++y) {
      row_layer_[static_cast<std::size_t>(y)] = static_cast<std::int16_t>(g.layer_of(y));
    }
    if (zero_) return;
    for (const grid::NodeId n : goals) {
      const Cell c = g.cell(n);
      goals_.push_back({c.x, c.y, layer(c.y)});
    }
    const auto arcs = g.arcs();
    if (arcs.empty()) return;
    // D over the arcs: a Dijkstra from the goals backwards (dense: arcs are few).
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
    std::vector<Cell> from(k), to(k);
    std::vector<int> from_layer(k), to_layer(k);
    for (std::size_t i = 0; i < k; ++i) {
      from[i] = g.cell(reverse ? arcs[i].to : arcs[i].from);
      to[i] = g.cell(reverse ? arcs[i].from : arcs[i].to);
      from_layer[i] = layer(from[i].y);
      to_layer[i] = layer(to[i].y);
    }
    std::vector<double> D(k, kInf);
    std::vector<char> done(k, 0);
    for (std::size_t i = 0; i < k; ++i) {
      D[i] = arcs[i].cost + direct(to[i].x, to[i].y, to_layer[i]);
    }
    for (std::size_t round = 0; round < k; ++round) {
      std::size_t best = k;
      for (std::size_t i = 0; i < k; ++i) {
        if (!done[i] && (best == k || D[i] < D[best])) best = i;
      }
      if (best == k || !std::isfinite(D[best])) break;
      done[best] = 1;
      // Arcs whose end lies on the floor where `best` starts may continue through it.
      for (std::size_t i = 0; i < k; ++i) {
        if (done[i] || to_layer[i] != from_layer[best]) continue;
        const double via =
            arcs[i].cost + metric(to[i].x, to[i].y, from[best].x, from[best].y) + D[best];
        if (via < D[i]) D[i] = via;
      }
    }
    // Per floor, the arcs that can give the minimum.
    by_layer_.assign(static_cast<std::size_t>(layers_) + 1, 0);
    std::vector<Entry> cand;
    for (int l = 0; l < layers_; ++l) {
      cand.clear();
      for (std::size_t i = 0; i < k; ++i) {
        if (from_layer[i] == l && std::isfinite(D[i])) cand.push_back({from[i].x, from[i].y, D[i]});
      }
      std::sort(cand.begin(), cand.end(), [](const Entry& a, const Entry& b) { return a.D < b.D; });
      const std::size_t first = entries_.size();
      for (const Entry& e : cand) {
        bool dominated = false;
        for (std::size_t j = first; j < entries_.size() && !dominated; ++j) {
          dominated = metric(e.x, e.y, entries_[j].x, entries_[j].y) + entries_[j].D <= e.D;
        }
        if (!dominated) entries_.push_back(e);
      }
      by_layer_[static_cast<std::size_t>(l) + 1] = static_cast<std::uint32_t>(entries_.size());
    }
  }

  /// h of cell (x, y) of the grid given to setup().
  [[nodiscard]] double operator()(int x, int y) const noexcept {
    if (zero_) return 0.0;
    const int l = layer(y);
    double h = direct(x, y, l);
    if (many_arcs_) return std::min(h, far_bound_);
    if (!by_layer_.empty()) {
      const std::uint32_t e1 = by_layer_[static_cast<std::size_t>(l) + 1];
      for (std::uint32_t i = by_layer_[static_cast<std::size_t>(l)]; i < e1; ++i) {
        const Entry& e = entries_[i];
        h = std::min(h, metric(x, y, e.x, e.y) + e.D);
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

  Heuristic kind_ = Heuristic::octile;
  double s_ = 1, d_ = 1.4142135623730951;
  grid::Layout layout_ = grid::Layout::square;
  bool hex_ = false;
  bool zero_ = false;
  bool many_arcs_ = false;
  double far_bound_ = 0;
  int layers_ = 1;
  std::vector<std::int16_t> row_layer_;
  std::vector<Goal> goals_;
  std::vector<std::uint32_t> by_layer_;  // entries_ of floor l: [by_layer_[l], by_layer_[l+1])
  std::vector<Entry> entries_;
};

}  // namespace pathlab::search::detail
