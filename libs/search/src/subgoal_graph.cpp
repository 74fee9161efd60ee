// Two-level subgoal graphs (Uras, Koenig & Hernández 2013): construction, pruning into global
// and local subgoals, queries and the file format. See subgoal_graph.hpp for the decisions.
#include "subgoal_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <istream>
#include <limits>
#include <new>
#include <ostream>
#include <string>
#include <thread>
#include <utility>

#include "cell_buckets.hpp"

namespace pathlab::search::detail {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kEps = 1e-9;
constexpr std::uint32_t kNone = SubgoalGraph::kNone;
/// Clearances are stored in a byte, 8 a cell. A run of 255 or more free cells stores 255, and
/// clearance() reads on from the cell 255 steps further: one extra read per 255 cells.
constexpr SubgoalGraph::Clearance kSaturated = 0xff;
/// The two straight components of each diagonal direction 4..7 (NE, SE, SW, NW).
constexpr int kComponent[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
/// Expansions one pruning test may spend looking for a path that avoids a subgoal; when it runs
/// out the subgoal stays global (or the shortcut edge is added), which is always correct.
constexpr std::uint64_t kPruneBudget = 4000;
/// Work (edges scanned) the pruning may spend on one subgoal before keeping it global: bounds
/// the quadratic pair checks on open maps where subgoals have hundreds of neighbours.
constexpr std::uint64_t kPruneWork = 1 << 20;
constexpr char kMagic[8] = {'P', 'L', 'S', 'U', 'B', 'G', 'R', '1'};

double octile_cost(std::int32_t dx, std::int32_t dy) noexcept {
  const std::int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  const std::int32_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
  return static_cast<double>(hi - lo) + static_cast<double>(lo) * kSqrt2;
}

/// The diagonal direction (4..7) toward (dx, dy), both non-zero.
int diagonal_toward(std::int32_t dx, std::int32_t dy) noexcept {
  return dx > 0 ? (dy < 0 ? 4 : 5) : (dy > 0 ? 6 : 7);
}
/// The straight direction (0..3) along the larger component of (dx, dy), not both zero.
int straight_toward(std::int32_t dx, std::int32_t dy) noexcept {
  const std::int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  if (ax > ay) return dx > 0 ? 1 : 3;
  return dy > 0 ? 2 : 0;
}

constexpr std::uint64_t kFnvBasis = 1469598103934665603ull;
/// FNV-1a of data, continuing from h (kFnvBasis for a fresh sum).
std::uint64_t fnv1a(const char* data, std::size_t n, std::uint64_t h = kFnvBasis) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}

/// Convex corners: a free cell with a blocked diagonal neighbour whose two orthogonal cells
/// are free. Ascending padded ids.
std::vector<std::uint32_t> identify_subgoals(const grid::Grid& g) {
  std::vector<std::uint32_t> out;
  const std::int32_t s = g.stride();
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const grid::NodeId p = g.id(x, y);
      if (!g.passable_id(p)) continue;
      for (int d = 4; d < 8; ++d) {
        const std::int32_t o = grid::kDy[d] * s + grid::kDx[d];
        const int c1 = kComponent[d - 4][0], c2 = kComponent[d - 4][1];
        const std::int32_t o1 = grid::kDy[c1] * s + grid::kDx[c1];
        const std::int32_t o2 = grid::kDy[c2] * s + grid::kDx[c2];
        if (!g.passable_id(static_cast<grid::NodeId>(p + o)) &&
            g.passable_id(static_cast<grid::NodeId>(p + o1)) &&
            g.passable_id(static_cast<grid::NodeId>(p + o2))) {
          out.push_back(p);
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace

// --- per-cell tables -------------------------------------------------------------------------

bool SubgoalGraph::applies(const grid::Grid& g, const grid::Moves& m) noexcept {
  return !g.has_terrain() && m.diagonal == grid::DiagonalRule::no_corner_cut &&
         m.cost_model == grid::CostModel::octile && g.padded_size() < std::size_t{kNone} - 2;
}

bool SubgoalGraph::matches(const grid::Grid& g) const noexcept {
  return g.width() == width_ && g.height() == height_ && g.wall_words() == walls_;
}

void SubgoalGraph::init_cells(const grid::Grid& g) {
  width_ = g.width();
  height_ = g.height();
  stride_ = g.stride();
  map_checksum_ = g.checksum();
  walls_ = g.wall_words();
  for (int k = 0; k < 8; ++k) off_[k] = grid::kDy[k] * stride_ + grid::kDx[k];
  const std::size_t n = g.padded_size();
  sg_of_.assign(n, kNone);
  sg_pos_.resize(sg_cell_.size());
  for (std::uint32_t i = 0; i < sg_cell_.size(); ++i) {
    sg_of_[sg_cell_[i]] = i;
    sg_pos_[i] = {static_cast<std::int32_t>(sg_cell_[i] % static_cast<std::uint32_t>(stride_)),
                  static_cast<std::int32_t>(sg_cell_[i] / static_cast<std::uint32_t>(stride_))};
  }
  // Clearance: legal steps through free non-subgoal cells. A cell's value follows from the
  // next cell's, so each direction is one pass in the order that visits that cell first.
  clear_.assign(n * 8, 0);
  for (int k = 0; k < 8; ++k) {
    const std::int32_t o = off_[k];
    auto one = [&](std::uint32_t p) {
      if (!passable(p)) return;
      const std::uint32_t q = p + static_cast<std::uint32_t>(o);
      if (!passable(q) || sg_of_[q] != kNone) return;
      if (k >= 4 && !diagonal_step_ok(p, k)) return;
      const Clearance next = clear_[std::size_t{q} * 8 + static_cast<std::size_t>(k)];
      clear_[std::size_t{p} * 8 + static_cast<std::size_t>(k)] =
          next == kSaturated ? kSaturated : static_cast<Clearance>(next + 1);
    };
    const auto first = static_cast<std::uint32_t>(stride_ + 1);
    const auto last = static_cast<std::uint32_t>(n - static_cast<std::size_t>(stride_) - 1);
    if (o > 0) {
      for (std::uint32_t p = last + 1; p-- > first;) one(p);
    } else {
      for (std::uint32_t p = first; p < last; ++p) one(p);
    }
  }
  // Connected components under the move rules: unreachable goals are answered at once.
  comps_.build(g);
}

std::uint32_t SubgoalGraph::clearance(std::uint32_t cell, int dir) const noexcept {
  std::uint32_t total = 0;
  for (;;) {
    const Clearance c = clear_[std::size_t{cell} * 8 + static_cast<std::size_t>(dir)];
    if (c != kSaturated) return total + c;
    // Saturated: the cells up to there are clear; read on.
    total += kSaturated;
    cell += static_cast<std::uint32_t>(off_[dir]) * kSaturated;
  }
}

bool SubgoalGraph::diagonal_step_ok(std::uint32_t from, int dir) const noexcept {
  const int c1 = kComponent[dir - 4][0], c2 = kComponent[dir - 4][1];
  return passable(from + static_cast<std::uint32_t>(off_[c1])) &&
         passable(from + static_cast<std::uint32_t>(off_[c2])) &&
         passable(from + static_cast<std::uint32_t>(off_[dir]));
}

double SubgoalGraph::octile(std::uint32_t a, std::uint32_t b) const noexcept {
  const auto s = static_cast<std::uint32_t>(stride_);
  return octile_cost(static_cast<std::int32_t>(b % s) - static_cast<std::int32_t>(a % s),
                     static_cast<std::int32_t>(b / s) - static_cast<std::int32_t>(a / s));
}

// --- direct-h-reachability -----------------------------------------------------------------

// The paper's exploration: the four straight and four diagonal rays stop at a wall or at the
// first subgoal; each of the eight areas between a diagonal ray and its straight neighbours is
// swept row by row along the diagonal, each row no longer than the shortest row before it (a
// subgoal or wall there makes every cell beyond reachable on an h-path through it).
template <class F>
void SubgoalGraph::for_each_direct(std::uint32_t o, F&& f) const {
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t t = o + static_cast<std::uint32_t>(off_[c]) * (clearance(o, c) + 1);
    if (sg_of_[t] != kNone) f(sg_of_[t]);
  }
  for (int d = 4; d < 8; ++d) {
    const std::uint32_t steps = clearance(o, d);
    const std::uint32_t end = o + static_cast<std::uint32_t>(off_[d]) * steps;
    const std::uint32_t t = end + static_cast<std::uint32_t>(off_[d]);
    if (sg_of_[t] != kNone && diagonal_step_ok(end, d)) f(sg_of_[t]);
    for (const int c : kComponent[d - 4]) {
      std::uint32_t max_ext = clearance(o, c);
      std::uint32_t p = o;
      for (std::uint32_t i = 1; i <= steps && max_ext > 0; ++i) {
        p += static_cast<std::uint32_t>(off_[d]);
        std::uint32_t cl = clear_[std::size_t{p} * 8 + static_cast<std::size_t>(c)];
        if (cl == kSaturated) cl = clearance(p, c);
        if (cl < max_ext) {
          const std::uint32_t q = p + static_cast<std::uint32_t>(off_[c]) * (cl + 1);
          if (sg_of_[q] != kNone) f(sg_of_[q]);
          max_ext = cl;
        }
      }
    }
  }
}

bool SubgoalGraph::directly_reaches(std::uint32_t o, std::uint32_t t) const noexcept {
  const auto s = static_cast<std::uint32_t>(stride_);
  const std::int32_t dx = static_cast<std::int32_t>(t % s) - static_cast<std::int32_t>(o % s);
  const std::int32_t dy = static_cast<std::int32_t>(t / s) - static_cast<std::int32_t>(o / s);
  if (dx == 0 && dy == 0) return true;
  const auto ax = static_cast<std::uint32_t>(dx < 0 ? -dx : dx);
  const auto ay = static_cast<std::uint32_t>(dy < 0 ? -dy : dy);
  const bool found = sg_of_[t] != kNone;
  if (dx == 0 || dy == 0) {
    const std::uint32_t n = ax + ay, k = clearance(o, straight_toward(dx, dy));
    return n <= k || (n == k + 1 && found);
  }
  const int d = diagonal_toward(dx, dy);
  const std::uint32_t i = std::min(ax, ay), k = clearance(o, d);
  if (ax == ay) {
    return i <= k || (i == k + 1 && found &&
                      diagonal_step_ok(o + static_cast<std::uint32_t>(off_[d]) * k, d));
  }
  if (i > k) return false;
  const int c = straight_toward(dx, dy);
  const std::uint32_t j = std::max(ax, ay) - i;
  std::uint32_t max_ext = clearance(o, c);
  std::uint32_t p = o;
  for (std::uint32_t r = 1; r <= i; ++r) {
    p += static_cast<std::uint32_t>(off_[d]);
    const std::uint32_t cl = clearance(p, c);
    if (r == i) return j <= std::min(cl, max_ext) || (cl < max_ext && j == cl + 1 && found);
    max_ext = std::min(max_ext, cl);
    if (max_ext == 0) return false;
  }
  return false;
}

// --- construction and pruning ----------------------------------------------------------------

struct SubgoalGraph::Builder {
  struct Edge {
    std::uint32_t to;
    std::uint32_t via;
  };
  SubgoalGraph& graph;
  std::vector<std::vector<Edge>> adj;
  std::vector<std::uint8_t> global;
  std::vector<std::uint8_t> dead;  ///< (repairs) subgoals to leave out: no edges, not renumbered
  // Search state of the pruning tests.
  std::vector<std::uint32_t> seen;
  std::vector<std::uint32_t> closed;
  std::vector<double> gval;
  std::vector<std::pair<double, std::uint32_t>> heap;
  std::uint32_t stamp = 0;
  std::vector<std::uint32_t> mark;
  std::vector<double> mark_cost;
  std::uint32_t mark_stamp = 0;
  std::uint64_t work = 0;  // spent on the current subgoal

  explicit Builder(SubgoalGraph& g) : graph(g) {}

  [[nodiscard]] Cell pos(std::uint32_t sg) const noexcept { return graph.sg_pos_[sg]; }
  [[nodiscard]] double cost(std::uint32_t a, std::uint32_t b) const noexcept {
    return octile_cost(pos(b).x - pos(a).x, pos(b).y - pos(a).y);
  }
  /// Octile distance as (straight moves, diagonal moves): exact sums, since √2 is irrational.
  [[nodiscard]] std::pair<std::int32_t, std::int32_t> moves(std::uint32_t a,
                                                            std::uint32_t b) const noexcept {
    std::int32_t dx = pos(b).x - pos(a).x, dy = pos(b).y - pos(a).y;
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    return {std::max(dx, dy) - std::min(dx, dy), std::min(dx, dy)};
  }

  void link() {
    const auto n = static_cast<std::uint32_t>(graph.sg_cell_.size());
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs = graph.direct_pairs();
    adj.assign(n, {});
    for (const auto& pr : pairs) {
      adj[pr.first].push_back({pr.second, kNone});
      adj[pr.second].push_back({pr.first, kNone});
    }
    global.assign(n, 1);
    size_state(n);
  }

  /// The search state of the pruning tests for n subgoals.
  void size_state(std::size_t n) {
    seen.assign(n, 0);
    closed.assign(n, 0);
    gval.assign(n, 0);
    mark.assign(n, 0);
    mark_cost.assign(n, 0);
    stamp = mark_stamp = 0;
  }

  /// Marks the neighbours of a with their distance from a (mark == mark_stamp).
  void mark_neighbours(std::uint32_t a) {
    if (++mark_stamp == 0) {
      std::fill(mark.begin(), mark.end(), 0);
      mark_stamp = 1;
    }
    work += adj[a].size();
    for (const Edge& e : adj[a]) {
      mark[e.to] = mark_stamp;
      mark_cost[e.to] = cost(a, e.to);
    }
  }

  /// Whether a global w other than `avoid`, next to the marked vertex and to b, gives a path
  /// of cost <= limit: the cheapest alternative, tried before a search.
  [[nodiscard]] bool two_hop(std::uint32_t b, std::uint32_t avoid, double limit) noexcept {
    work += adj[b].size();
    for (const Edge& e : adj[b]) {
      const std::uint32_t w = e.to;
      if (w != avoid && mark[w] == mark_stamp && global[w] &&
          mark_cost[w] + cost(w, b) <= limit + kEps) {
        return true;
      }
    }
    return false;
  }

  /// Whether a diagonal-first or straight-first octile path from a to b is free.
  [[nodiscard]] bool freespace_h_path(std::uint32_t a, std::uint32_t b) const noexcept {
    const std::uint32_t ca = graph.sg_cell_[a], cb = graph.sg_cell_[b];
    return graph.directly_reaches(ca, cb) || graph.directly_reaches(cb, ca);
  }

  /// Whether a path from a to b of cost <= limit exists whose intermediate vertices are
  /// global and not `avoid`. Runs out of budget -> false.
  bool other_path(std::uint32_t a, std::uint32_t b, std::uint32_t avoid, double limit) {
    if (++stamp == 0) {
      std::fill(seen.begin(), seen.end(), 0);
      std::fill(closed.begin(), closed.end(), 0);
      stamp = 1;
    }
    auto greater = [](const std::pair<double, std::uint32_t>& x,
                      const std::pair<double, std::uint32_t>& y) { return x.first > y.first; };
    heap.clear();
    seen[a] = stamp;
    gval[a] = 0;
    heap.emplace_back(cost(a, b), a);
    std::uint64_t budget = kPruneBudget;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), greater);
      const std::uint32_t u = heap.back().second;
      heap.pop_back();
      if (closed[u] == stamp) continue;
      closed[u] = stamp;
      if (budget-- == 0) return false;
      work += adj[u].size();
      for (const Edge& e : adj[u]) {
        const std::uint32_t v = e.to;
        if (v == avoid) continue;
        const double ng = gval[u] + cost(u, v);
        if (v == b) {
          if (ng <= limit + kEps) return true;
          continue;
        }
        if (!global[v] || closed[v] == stamp) continue;
        if (seen[v] == stamp && gval[v] <= ng) continue;
        const double f = ng + cost(v, b);
        if (f > limit + kEps) continue;
        seen[v] = stamp;
        gval[v] = ng;
        heap.emplace_back(f, v);
        std::push_heap(heap.begin(), heap.end(), greater);
      }
    }
    return false;
  }

  /// Whether sg may be local: every pair of its neighbours keeps a shortest path without it
  /// (see the header). A pair h-reachable through sg with no other path goes into *shortcuts
  /// (an edge to add through it); with no shortcuts allowed (nullptr), sg must stay global.
  /// `nb` is scratch.
  bool may_be_local(std::uint32_t sg, std::vector<std::uint32_t>& nb,
                    std::vector<std::pair<std::uint32_t, std::uint32_t>>* shortcuts) {
    nb.clear();
    for (const Edge& e : adj[sg]) nb.push_back(e.to);
    work = 0;
    for (std::size_t i = 0; i + 1 < nb.size(); ++i) {
      const std::uint32_t a = nb[i];
      mark_neighbours(a);
      if (work > kPruneWork) return false;
      for (std::size_t j = i + 1; j < nb.size(); ++j) {
        const std::uint32_t b = nb[j];
        // An edge a-b costs h(a, b) <= h(a, sg) + h(sg, b): sg is not needed between them.
        if (mark[b] == mark_stamp) continue;
        const double through = cost(a, sg) + cost(sg, b);
        if (two_hop(b, sg, through)) continue;
        const auto m1 = moves(a, sg), m2 = moves(sg, b), m = moves(a, b);
        if (m1.first + m2.first == m.first && m1.second + m2.second == m.second) {
          // a and b are h-reachable through sg: an edge replaces it unless already served.
          if (!other_path(a, b, sg, through)) {
            if (shortcuts == nullptr) return false;
            shortcuts->emplace_back(a, b);
          }
        } else if (!freespace_h_path(a, b) && !other_path(a, b, sg, through)) {
          return false;  // the shortest a-b path needs sg as an intermediate vertex
        }
      }
    }
    return true;
  }

  /// Whether the pair a, b of w's neighbours passes the pruning's test without w: an edge
  /// between them, a path over global subgoals (not w) of at most c(a, w) + c(w, b), or, when
  /// they are not h-reachable through w, a free octile path (then shorter than through w).
  bool pair_ok(std::uint32_t a, std::uint32_t b, std::uint32_t w) {
    mark_neighbours(a);
    if (mark[b] == mark_stamp) return true;
    const double through = cost(a, w) + cost(w, b);
    if (two_hop(b, w, through)) return true;
    const auto m1 = moves(a, w), m2 = moves(w, b), m = moves(a, b);
    if (m1.first + m2.first == m.first && m1.second + m2.second == m.second) {
      return other_path(a, b, w, through);
    }
    return freespace_h_path(a, b) || other_path(a, b, w, through);
  }

  void prune() {
    const auto n = static_cast<std::uint32_t>(adj.size());
    std::vector<std::uint32_t> nb;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> shortcuts;
    for (std::uint32_t sg = 0; sg < n; ++sg) {
      shortcuts.clear();
      if (!may_be_local(sg, nb, &shortcuts)) continue;
      global[sg] = 0;
      for (const auto& pr : shortcuts) {
        adj[pr.first].push_back({pr.second, sg});
        adj[pr.second].push_back({pr.first, sg});
      }
    }
  }

  /// Renumbers globals first and lays the edges out as CSR, global neighbours first. Returns
  /// the old id of each new one.
  std::vector<std::uint32_t> finish() {
    const auto all = static_cast<std::uint32_t>(adj.size());
    std::vector<std::uint32_t> order, new_id(all, kNone);
    order.reserve(all);
    auto kept = [&](std::uint32_t i) { return dead.empty() || !dead[i]; };
    for (std::uint32_t i = 0; i < all; ++i)
      if (global[i] && kept(i)) order.push_back(i);
    graph.n_global_ = static_cast<std::uint32_t>(order.size());
    for (std::uint32_t i = 0; i < all; ++i)
      if (!global[i] && kept(i)) order.push_back(i);
    const auto n = static_cast<std::uint32_t>(order.size());
    for (std::uint32_t k = 0; k < n; ++k) new_id[order[k]] = k;
    std::vector<std::uint32_t> cells(n);
    for (std::uint32_t k = 0; k < n; ++k) cells[k] = graph.sg_cell_[order[k]];
    graph.sg_cell_ = std::move(cells);
    graph.adj_begin_.assign(1, 0);
    graph.adj_global_end_.clear();
    graph.adj_.clear();
    graph.via_.clear();
    for (std::uint32_t k = 0; k < n; ++k) {
      auto& list = adj[order[k]];
      for (Edge& e : list) {
        e.to = new_id[e.to];
        if (e.via != kNone) e.via = new_id[e.via];
      }
      std::sort(list.begin(), list.end(), [](const Edge& x, const Edge& y) { return x.to < y.to; });
      std::uint32_t global_end = static_cast<std::uint32_t>(graph.adj_.size());
      for (const Edge& e : list) {
        graph.adj_.push_back(e.to);
        graph.via_.push_back(e.via);
        if (e.to < graph.n_global_) global_end = static_cast<std::uint32_t>(graph.adj_.size());
      }
      graph.adj_global_end_.push_back(global_end);
      graph.adj_begin_.push_back(static_cast<std::uint32_t>(graph.adj_.size()));
      std::vector<Edge>().swap(list);
    }
    graph.adj_.shrink_to_fit();
    graph.via_.shrink_to_fit();
    return order;
  }
};

std::vector<std::pair<std::uint32_t, std::uint32_t>> SubgoalGraph::direct_pairs() const {
  const auto n = static_cast<std::uint32_t>(sg_cell_.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::uint32_t i = 0; i < n; ++i) {
    for_each_direct(sg_cell_[i], [&](std::uint32_t j) {
      if (j != i) pairs.emplace_back(std::min(i, j), std::max(i, j));
    });
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

SubgoalGraph::Adjacency SubgoalGraph::direct_adjacency(unsigned threads) const {
  const auto n = static_cast<std::uint32_t>(sg_cell_.size());
  threads = std::max(1u, std::min(threads, n / 1024 + 1));
  // What each subgoal finds (sorted, once each), its list found[first[i] .. first[i + 1]).
  std::vector<std::uint64_t> first(std::size_t{n} + 1, 0);
  std::vector<std::vector<std::uint32_t>> part(threads);
  {
    auto run = [&](unsigned t) {
      const std::uint32_t b = static_cast<std::uint32_t>(std::uint64_t{n} * t / threads);
      const std::uint32_t e = static_cast<std::uint32_t>(std::uint64_t{n} * (t + 1) / threads);
      std::vector<std::uint32_t>& out = part[t];
      for (std::uint32_t i = b; i < e; ++i) {
        const std::size_t at = out.size();
        for_each_direct(sg_cell_[i], [&](std::uint32_t j) {
          if (j != i) out.push_back(j);
        });
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(at), out.end());
        out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(at), out.end()), out.end());
        first[i + 1] = out.size() - at;
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(run, t);
    run(0);
    for (std::thread& th : pool) th.join();
  }
  for (std::uint32_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<std::uint32_t> found;
  found.reserve(first[n]);
  for (auto& list : part) {
    found.insert(found.end(), list.begin(), list.end());
    std::vector<std::uint32_t>().swap(list);
  }
  // A pair found from both ends counts once: from its smaller end.
  auto counted = [&](std::uint32_t i, std::uint32_t j) {
    if (i < j) return true;
    const auto b = found.begin() + static_cast<std::ptrdiff_t>(first[j]);
    const auto e = found.begin() + static_cast<std::ptrdiff_t>(first[j + 1]);
    return !std::binary_search(b, e, i);
  };
  Adjacency adj;
  adj.begin.assign(std::size_t{n} + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint64_t k = first[i]; k < first[i + 1]; ++k) {
      if (counted(i, found[k])) {
        ++adj.begin[i + 1];
        ++adj.begin[found[k] + 1];
      }
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) adj.begin[i + 1] += adj.begin[i];
  adj.to.resize(adj.begin[n]);
  std::vector<std::uint64_t> at(adj.begin.begin(), adj.begin.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint64_t k = first[i]; k < first[i + 1]; ++k) {
      const std::uint32_t j = found[k];
      if (counted(i, j)) {
        adj.to[at[i]++] = j;
        adj.to[at[j]++] = i;
      }
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    std::sort(adj.to.begin() + static_cast<std::ptrdiff_t>(adj.begin[i]),
              adj.to.begin() + static_cast<std::ptrdiff_t>(adj.begin[i + 1]));
  }
  return adj;
}

void SubgoalGraph::drop_cells() noexcept {
  std::vector<std::uint32_t>().swap(sg_of_);
  std::vector<Clearance>().swap(clear_);
  comps_.clear();
}

void SubgoalGraph::direct_subgoals(std::uint32_t c, std::vector<std::uint32_t>& out) const {
  out.clear();
  for_each_direct(c, [&out](std::uint32_t j) { out.push_back(j); });
}

SubgoalGraph SubgoalGraph::cells_only(const grid::Grid& g) {
  SubgoalGraph graph;
  graph.sg_cell_ = identify_subgoals(g);
  graph.init_cells(g);
  graph.n_global_ = static_cast<std::uint32_t>(graph.sg_cell_.size());
  graph.adj_begin_.assign(graph.sg_cell_.size() + 1, 0);
  graph.adj_global_end_.assign(graph.sg_cell_.size(), 0);
  return graph;
}

void SubgoalGraph::renumber(std::vector<std::uint32_t> cells) {
  sg_cell_ = std::move(cells);
  const auto s = static_cast<std::uint32_t>(stride_);
  for (std::uint32_t i = 0; i < sg_cell_.size(); ++i) {
    sg_of_[sg_cell_[i]] = i;
    sg_pos_[i] = {static_cast<std::int32_t>(sg_cell_[i] % s),
                  static_cast<std::int32_t>(sg_cell_[i] / s)};
  }
}

SubgoalGraph SubgoalGraph::build(const grid::Grid& g) {
  const auto t0 = std::chrono::steady_clock::now();
  SubgoalGraph graph;
  graph.sg_cell_ = identify_subgoals(g);
  graph.init_cells(g);
  {
    Builder b(graph);
    b.link();
    b.prune();
    (void)b.finish();
  }
  graph.init_cells(g);  // subgoal ids were renumbered
  graph.built_nodes_ = graph.sg_cell_.size();
  graph.built_global_ = graph.n_global_;
  graph.built_edges_ = graph.adj_.size();
  graph.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return graph;
}

std::size_t SubgoalGraph::memory_bytes() const noexcept {
  return sizeof(*this) + walls_.size() * sizeof(std::uint64_t) +
         sg_of_.size() * sizeof(std::uint32_t) + clear_.size() * sizeof(Clearance) +
         comps_.bytes() + sg_cell_.size() * sizeof(std::uint32_t) + sg_pos_.size() * sizeof(Cell) +
         adj_begin_.size() * sizeof(std::uint32_t) +
         adj_global_end_.size() * sizeof(std::uint32_t) + adj_.size() * sizeof(std::uint32_t) +
         via_.size() * sizeof(std::uint32_t);
}

// --- file format -----------------------------------------------------------------------------

bool write_framed(std::ostream& out, const char (&magic)[8], std::uint32_t version, int width,
                  int height, std::uint64_t map_checksum, const std::string& payload) {
  return write_framed(out, magic, version, width, height, map_checksum,
                      {std::string_view(payload)});
}

bool write_framed(std::ostream& out, const char (&magic)[8], std::uint32_t version, int width,
                  int height, std::uint64_t map_checksum,
                  std::initializer_list<std::string_view> pieces) {
  std::uint64_t size = 0, sum = kFnvBasis;
  for (const std::string_view piece : pieces) {
    size += piece.size();
    sum = fnv1a(piece.data(), piece.size(), sum);
  }
  std::string header(magic, sizeof magic);
  put(header, version);
  put(header, static_cast<std::uint32_t>(width));
  put(header, static_cast<std::uint32_t>(height));
  put(header, std::uint32_t{0});
  put(header, map_checksum);
  put(header, size);
  put(header, sum);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  for (const std::string_view piece : pieces) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  }
  return static_cast<bool>(out);
}

std::optional<std::string> read_framed(std::istream& in, const char (&magic)[8],
                                       std::uint32_t version, const grid::Grid& g,
                                       std::uint64_t max_bytes) {
  std::string header(8 + 4 * 4 + 8 * 3, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header.size()))) return std::nullopt;
  PayloadReader h{header};
  char seen[8];
  std::uint32_t v = 0, width = 0, height = 0, reserved = 0;
  std::uint64_t checksum = 0, size = 0, payload_sum = 0;
  for (char& c : seen) h.get(c);
  h.get(v);
  h.get(width);
  h.get(height);
  h.get(reserved);
  h.get(checksum);
  h.get(size);
  h.get(payload_sum);
  if (std::memcmp(seen, magic, sizeof seen) != 0 || v != version ||
      width != static_cast<std::uint32_t>(g.width()) ||
      height != static_cast<std::uint32_t>(g.height()) || checksum != g.checksum() ||
      size > max_bytes) {
    return std::nullopt;
  }
  std::string payload(static_cast<std::size_t>(size), '\0');
  if (!in.read(payload.data(), static_cast<std::streamsize>(size))) return std::nullopt;
  if (fnv1a(payload.data(), payload.size()) != payload_sum) return std::nullopt;
  return payload;
}

std::vector<std::uint32_t> SubgoalGraph::subgoal_cells(const grid::Grid& g) {
  return identify_subgoals(g);
}

bool SubgoalGraph::save(std::ostream& out) const {
  return repairs_ == 0 && write(out, map_checksum_);
}

bool SubgoalGraph::save(std::ostream& out, const grid::Grid& g) const {
  return g.width() == width_ && g.height() == height_ && write(out, g.checksum());
}

bool SubgoalGraph::write(std::ostream& out, std::uint64_t map_checksum) const {
  std::string payload;
  const auto n = static_cast<std::uint32_t>(sg_cell_.size());
  put(payload, n);
  put(payload, n_global_);
  put(payload, static_cast<std::uint32_t>(adj_.size()));
  put_vector(payload, sg_cell_);
  put_vector(payload, adj_begin_);
  put_vector(payload, adj_global_end_);
  put_vector(payload, adj_);
  put_vector(payload, via_);
  return write_framed(out, kMagic, kFormatVersion, width_, height_, map_checksum, payload);
}

std::optional<SubgoalGraph> SubgoalGraph::load(std::istream& in, const grid::Grid& g) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!applies(g, grid::Moves{})) return std::nullopt;
  // A graph never holds more than a few words per cell: absurd sizes are refused unread.
  const std::optional<std::string> framed =
      read_framed(in, kMagic, kFormatVersion, g, 4096 + 256 * std::uint64_t{g.padded_size()});
  if (!framed) return std::nullopt;
  const std::string& payload = *framed;
  SubgoalGraph graph;
  PayloadReader r{payload};
  std::uint32_t n = 0, m = 0;
  if (!r.get(n) || !r.get(graph.n_global_) || !r.get(m) || graph.n_global_ > n) return std::nullopt;
  if (!r.get_vector(graph.sg_cell_, n) || !r.get_vector(graph.adj_begin_, std::size_t{n} + 1) ||
      !r.get_vector(graph.adj_global_end_, n) || !r.get_vector(graph.adj_, m) ||
      !r.get_vector(graph.via_, m) || r.at != payload.size()) {
    return std::nullopt;
  }
  // The subgoals must be exactly the map's convex corners; the edges must stay in range.
  std::vector<std::uint32_t> cells = graph.sg_cell_;
  std::sort(cells.begin(), cells.end());
  if (cells != identify_subgoals(g)) return std::nullopt;
  if (graph.adj_begin_[0] != 0 || graph.adj_begin_[n] != m) return std::nullopt;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t b = graph.adj_begin_[i], e = graph.adj_begin_[i + 1],
                        ge = graph.adj_global_end_[i];
    if (b > e || ge < b || ge > e) return std::nullopt;
    for (std::uint32_t k = b; k < e; ++k) {
      const std::uint32_t to = graph.adj_[k], via = graph.via_[k];
      if (to >= n || (to < graph.n_global_) != (k < ge)) return std::nullopt;
      if (via != kNone && via >= n) return std::nullopt;
    }
  }
  graph.init_cells(g);
  graph.built_nodes_ = n;
  graph.built_global_ = graph.n_global_;
  graph.built_edges_ = m;
  graph.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return graph;
}

// --- queries ---------------------------------------------------------------------------------

std::size_t SubgoalWorkspace::memory_bytes() const noexcept {
  return sizeof(*this) + node_.capacity() * sizeof(NodeState) +
         (start_set_.capacity() + goal_set_.capacity() + chain_.capacity() + stack_.capacity()) *
             sizeof(std::uint32_t) +
         open_.bytes() + extras_.capacity() * sizeof(Extra);
}

void SubgoalWorkspace::reset(std::size_t nodes) {
  if (node_.size() != nodes || ++stamp_ == 0) {
    node_.assign(nodes, NodeState{0, 0, 0, kNone, 0, 0, kNone});
    stamp_ = 1;
  }
  open_.clear();
  extras_.clear();
  start_set_.clear();
  goal_set_.clear();
}

bool SubgoalWorkspace::search(const SubgoalGraph& sg, std::uint32_t start_cell,
                              std::uint32_t goal_cell, std::uint64_t& expanded,
                              std::uint64_t node_limit, bool& limit_hit) {
  const auto n = static_cast<std::uint32_t>(sg.sg_cell_.size());
  const std::uint32_t start = n, goal = n + 1;
  const auto stride = static_cast<std::uint32_t>(sg.stride_);
  const auto gx = static_cast<std::int32_t>(goal_cell % stride);
  const auto gy = static_cast<std::int32_t>(goal_cell / stride);
  const auto sx = static_cast<std::int32_t>(start_cell % stride);
  const auto sy = static_cast<std::int32_t>(start_cell / stride);

  sg.for_each_direct(start_cell, [&](std::uint32_t a) { start_set_.push_back(a); });
  sg.for_each_direct(goal_cell, [&](std::uint32_t b) { goal_set_.push_back(b); });
  // Local subgoals next to the goal are entered from their global neighbours: extra edges.
  for (const std::uint32_t b : goal_set_) {
    node_[b].in_goal = stamp_;
    if (b < sg.n_global_) continue;
    for (std::uint32_t k = sg.adj_begin_[b]; k < sg.adj_global_end_[b]; ++k) {
      const std::uint32_t w = sg.adj_[k];
      NodeState& nw = node_[w];
      if (nw.extra_seen != stamp_) {
        nw.extra_seen = stamp_;
        nw.extra_head = kNone;
      }
      extras_.push_back({b, nw.extra_head});
      nw.extra_head = static_cast<std::uint32_t>(extras_.size() - 1);
    }
  }

  auto h = [&](std::uint32_t v) {
    const Cell p = sg.sg_pos_[v];
    return octile_cost(p.x - gx, p.y - gy);
  };
  std::uint32_t u = start;
  double gu = 0;
  auto relax = [&](std::uint32_t v, double ng, double hv) {
    NodeState& nv = node_[v];
    if (nv.closed == stamp_ || (nv.seen == stamp_ && nv.g <= ng)) return;
    nv.seen = stamp_;
    nv.g = ng;
    nv.parent = u;
    open_.push({priority_key(ng + hv), v});
  };
  node_[start].seen = stamp_;
  node_[start].g = 0;
  node_[start].parent = kNone;
  open_.push({priority_key(octile_cost(sx - gx, sy - gy)), start});
  while (!open_.empty()) {
    u = open_.pop().id;
    NodeState& nu = node_[u];
    if (nu.closed == stamp_) continue;  // pushed again with a better g, and expanded then
    if (u == goal) return true;
    if (expanded >= node_limit) {
      limit_hit = true;
      return false;
    }
    nu.closed = stamp_;
    ++expanded;
    gu = nu.g;
    if (u == start) {
      for (const std::uint32_t a : start_set_) {
        const Cell p = sg.sg_pos_[a];
        relax(a, gu + octile_cost(p.x - sx, p.y - sy), h(a));
      }
      continue;
    }
    const Cell pu = sg.sg_pos_[u];
    auto edge = [&](std::uint32_t v) {
      const Cell p = sg.sg_pos_[v];
      relax(v, gu + octile_cost(p.x - pu.x, p.y - pu.y), h(v));
    };
    for (std::uint32_t k = sg.adj_begin_[u]; k < sg.adj_global_end_[u]; ++k) edge(sg.adj_[k]);
    if (u < sg.n_global_) {
      if (nu.extra_seen == stamp_) {
        for (std::uint32_t e = nu.extra_head; e != kNone; e = extras_[e].next) edge(extras_[e].to);
      }
    } else {
      for (std::uint32_t k = sg.adj_global_end_[u]; k < sg.adj_begin_[u + 1]; ++k) {
        if (node_[sg.adj_[k]].in_goal == stamp_) edge(sg.adj_[k]);
      }
    }
    if (nu.in_goal == stamp_) relax(goal, gu + octile_cost(gx - pu.x, gy - pu.y), 0);
  }
  return false;
}

namespace {

/// The octile path between padded cells a and b (row stride s): nd steps in diagonal direction
/// d and ns straight steps in direction c (a direction is 0 when it has no steps).
struct OctileSteps {
  int d;
  std::int32_t nd;
  int c;
  std::int32_t ns;
};
inline OctileSteps octile_steps(std::uint32_t s, std::uint32_t a, std::uint32_t b) noexcept {
  const std::int32_t dx = static_cast<std::int32_t>(b % s) - static_cast<std::int32_t>(a % s);
  const std::int32_t dy = static_cast<std::int32_t>(b / s) - static_cast<std::int32_t>(a / s);
  const std::int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  const std::int32_t nd = std::min(ax, ay), ns = std::max(ax, ay) - nd;
  return {nd > 0 ? diagonal_toward(dx, dy) : 0, nd, ns > 0 ? straight_toward(dx, dy) : 0, ns};
}

/// Appends the cells of the octile path a -> b (a excluded), diagonal steps first, or else
/// straight steps first. Returns false, appending nothing, when neither order is legal.
template <class Passable>
bool append_walk(std::vector<Cell>& path, std::int32_t stride, std::uint32_t a, std::uint32_t b,
                 Passable&& passable, const std::int32_t* off) {
  const auto s = static_cast<std::uint32_t>(stride);
  const OctileSteps w = octile_steps(s, a, b);
  const int d = w.d, c = w.c;  // (named: a lambda cannot capture a structured binding in clang 14)
  const std::int32_t nd = w.nd, ns = w.ns;
  const std::size_t mark = path.size();
  std::uint32_t p = a;
  // The cells' coordinates advance by each direction's step (no division a cell): an offset
  // dy * stride + dx with |dx| <= 1 < stride gives dy = (offset + stride + 1) / stride - 1.
  auto step_of = [&](int dir) {
    const std::int32_t o = off[dir];
    const std::int32_t dy = (o + stride + 1) / stride - 1;
    return Cell{o - dy * stride, dy};
  };
  const Cell sd = nd > 0 ? step_of(d) : Cell{0, 0}, sc = ns > 0 ? step_of(c) : Cell{0, 0};
  Cell at{};
  auto start = [&] {
    p = a;
    at = {static_cast<std::int32_t>(a % s) - 1, static_cast<std::int32_t>(a / s) - 1};
  };
  start();
  auto diag = [&] {
    for (std::int32_t i = 0; i < nd; ++i) {
      const int c1 = kComponent[d - 4][0], c2 = kComponent[d - 4][1];
      const std::uint32_t q = p + static_cast<std::uint32_t>(off[d]);
      if (!passable(q) || !passable(p + static_cast<std::uint32_t>(off[c1])) ||
          !passable(p + static_cast<std::uint32_t>(off[c2]))) {
        return false;
      }
      p = q;
      at = {at.x + sd.x, at.y + sd.y};
      path.push_back(at);
    }
    return true;
  };
  auto straight = [&] {
    for (std::int32_t i = 0; i < ns; ++i) {
      p += static_cast<std::uint32_t>(off[c]);
      if (!passable(p)) return false;
      at = {at.x + sc.x, at.y + sc.y};
      path.push_back(at);
    }
    return true;
  };
  if (diag() && straight()) return true;
  path.resize(mark);
  if (nd == 0 || ns == 0) return false;  // one order only: the other is the same steps
  start();
  if (straight() && diag()) return true;
  path.resize(mark);
  return false;
}

}  // namespace

bool SubgoalGraph::walk(std::vector<Cell>& path, std::uint32_t a, std::uint32_t b) const {
  auto free = [this](std::uint32_t c) { return passable(c); };
  return append_walk(path, stride_, a, b, free, off_);
}

bool SubgoalGraph::run(std::uint32_t& p, int dir, std::int32_t steps) const noexcept {
  const auto o = static_cast<std::uint32_t>(off_[dir]);
  while (steps > 0) {
    // A clearance counts the legal steps into free cells that are not subgoals: it ends at a
    // wall, at an illegal diagonal step, or before a subgoal, whose cell is then stepped into.
    const auto c = static_cast<std::int32_t>(
        std::min<std::uint32_t>(clearance(p, dir), static_cast<std::uint32_t>(steps)));
    p += o * static_cast<std::uint32_t>(c);
    steps -= c;
    if (steps == 0) return true;
    if (!passable(p + o) || (dir >= 4 && !diagonal_step_ok(p, dir))) return false;
    p += o;
    --steps;
  }
  return true;
}

bool SubgoalGraph::walkable(std::uint32_t a, std::uint32_t b) const noexcept {
  const auto [d, nd, c, ns] = octile_steps(static_cast<std::uint32_t>(stride_), a, b);
  std::uint32_t p = a;
  if (run(p, d, nd) && run(p, c, ns)) return true;
  if (nd == 0 || ns == 0) return false;  // one order only: the other is the same steps
  p = a;
  return run(p, c, ns) && run(p, d, nd);
}

// --- repair after the map changed ------------------------------------------------------------

std::string SubgoalGraph::cells_problem(const grid::Grid& g) const {
  SubgoalGraph fresh;
  fresh.sg_cell_ = identify_subgoals(g);
  fresh.init_cells(g);
  if (fresh.walls_ != walls_) return "wall bits differ";
  std::vector<std::uint32_t> live;
  for (std::uint32_t v = 0; v < sg_cell_.size(); ++v) {
    if (alive(v)) live.push_back(sg_cell_[v]);
  }
  std::sort(live.begin(), live.end());
  if (live != fresh.sg_cell_) return "subgoal cells differ";
  for (std::size_t p = 0; p < fresh.sg_of_.size(); ++p) {
    if ((fresh.sg_of_[p] == kNone) != (sg_of_[p] == kNone)) return "subgoal index differs";
  }
  for (std::uint32_t p = 0; p < fresh.sg_of_.size(); ++p) {
    const auto at = std::to_string(p % static_cast<std::uint32_t>(stride_)) + "," +
                    std::to_string(p / static_cast<std::uint32_t>(stride_));
    for (int k = 0; k < 8; ++k) {
      if (fresh.clearance(p, k) != clearance(p, k)) {
        return "clearance " + std::to_string(k) + " differs at padded " + at;
      }
    }
    if ((fresh.component_of(p) == 0) != (component_of(p) == 0)) {
      return "component differs at " + at;
    }
  }
  // Every pair of connected cells shares a component when each cell shares one with the first
  // cell of its fresh component.
  std::vector<std::uint32_t> first(fresh.sg_of_.size() + 1, kNone);
  for (std::uint32_t p = 0; p < fresh.sg_of_.size(); ++p) {
    const std::uint32_t c = fresh.component_of(p);  // (a fresh build's labels are 1, 2, ...)
    if (c == 0) continue;
    if (first[c] == kNone) first[c] = p;
    if (component_of(first[c]) != component_of(p)) return "connected cells in two components";
  }
  return {};
}

namespace {
/// The direction opposite to k (0..3 straight, 4..7 diagonal).
constexpr int opposite(int k) noexcept {
  return k < 4 ? (k + 2) % 4 : 4 + (k - 4 + 2) % 4;
}
}  // namespace

void SubgoalGraph::reaching_subgoals(std::uint32_t c, std::vector<std::uint32_t>& out,
                                     unsigned straight) const {
  if (!passable(c)) return;
  if (sg_of_[c] != kNone) out.push_back(sg_of_[c]);
  // The area of a subgoal i: its straight rays, its diagonal rays, and the rows leaving each
  // diagonal ray's cells along the diagonal's two straight components. Each ray runs through
  // free non-subgoal cells (legal diagonal steps) and may end on a subgoal. So c lies in i's
  // area only if walking back from c straight (any number of such cells), then diagonally,
  // first meets i.
  for (int d = 4; d < 8; ++d) {  // c on a diagonal ray
    const int back = opposite(d);
    const std::uint32_t end = c + static_cast<std::uint32_t>(off_[back]) * clearance(c, back);
    const std::uint32_t t = end + static_cast<std::uint32_t>(off_[back]);
    if (sg_of_[t] != kNone && diagonal_step_ok(end, back)) out.push_back(sg_of_[t]);
  }
  for (int s = 0; s < 4; ++s) {
    if ((straight >> s & 1u) == 0) continue;
    const int back = opposite(s);
    const std::uint32_t steps = clearance(c, back);
    const std::uint32_t t = c + static_cast<std::uint32_t>(off_[back]) * (steps + 1);
    if (sg_of_[t] != kNone) out.push_back(sg_of_[t]);  // c on a straight ray
    std::uint32_t p = c;
    for (std::uint32_t k = 1; k <= steps; ++k) {  // c on a row from p, a diagonal ray's cell
      p += static_cast<std::uint32_t>(off_[back]);
      for (int d = 4; d < 8; ++d) {
        if (kComponent[d - 4][0] != s && kComponent[d - 4][1] != s) continue;
        const int dback = opposite(d);
        const std::uint32_t end = p + static_cast<std::uint32_t>(off_[dback]) * clearance(p, dback);
        const std::uint32_t q = end + static_cast<std::uint32_t>(off_[dback]);
        if (sg_of_[q] != kNone && diagonal_step_ok(end, dback)) out.push_back(sg_of_[q]);
      }
    }
  }
}

void SubgoalGraph::repair_cells(const grid::Grid& g, const std::vector<grid::Rect>& areas,
                                CellChanges& out) {
  out.removed.clear();
  out.added.clear();
  walls_ = g.wall_words();
  map_checksum_ = 0;  // (a checksum reads every cell: save(out, g) takes the map's)
  auto grown = [&](const grid::Rect& r, int by) {
    return grid::Rect{std::max(0, r.x0 - by), std::max(0, r.y0 - by),
                      std::min(width_ - 1, r.x1 + by), std::min(height_ - 1, r.y1 + by)};
  };
  auto corner = [&](std::uint32_t p) {
    if (!passable(p)) return false;
    for (int d = 4; d < 8; ++d) {
      if (!passable(p + static_cast<std::uint32_t>(off_[d])) &&
          passable(p + static_cast<std::uint32_t>(off_[kComponent[d - 4][0]])) &&
          passable(p + static_cast<std::uint32_t>(off_[kComponent[d - 4][1]]))) {
        return true;
      }
    }
    return false;
  };
  // Subgoals: a cell's convex-corner test reads its eight neighbours.
  for (const grid::Rect& area : areas) {
    const grid::Rect r = grown(area, 1);
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) {
        const std::uint32_t p = g.id(x, y);
        const bool now = corner(p), before = sg_of_[p] != kNone;
        if (now == before) continue;
        if (before) {
          out.removed.push_back(sg_of_[p]);
          sg_of_[p] = kNone;
        } else {
          const auto id = static_cast<std::uint32_t>(sg_cell_.size());
          sg_cell_.push_back(p);
          sg_pos_.push_back({x + 1, y + 1});
          sg_of_[p] = id;
          out.added.push_back(id);
        }
      }
    }
  }
  // Clearances: a cell's value reads the cells ahead of it, so along every line through the
  // changed cells (and their neighbours, whose diagonal steps or corner status may have
  // changed) the values are recomputed backwards from the area's far side, until one beyond
  // the area comes out as it was (every value behind it then stays as it was too).
  auto value = [&](std::uint32_t p, int k) -> Clearance {
    if (!passable(p)) return 0;
    const std::uint32_t q = p + static_cast<std::uint32_t>(off_[k]);
    if (!passable(q) || sg_of_[q] != kNone) return 0;
    if (k >= 4 && !diagonal_step_ok(p, k)) return 0;
    const Clearance next = clear_[std::size_t{q} * 8 + static_cast<std::size_t>(k)];
    return next == kSaturated ? kSaturated : static_cast<Clearance>(next + 1);
  };
  for (const grid::Rect& area : areas) {
    const grid::Rect r = grown(area, 2);
    for (int k = 0; k < 8; ++k) {
      const int dx = grid::kDx[static_cast<std::size_t>(k)];
      const int dy = grid::kDy[static_cast<std::size_t>(k)];
      auto inside = [&](int x, int y) { return x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1; };
      for (int y = r.y0; y <= r.y1; ++y) {
        for (int x = r.x0; x <= r.x1; ++x) {
          if (inside(x + dx, y + dy)) continue;  // not the line's far end in the area
          int px = x, py = y;
          std::uint32_t p = g.id(x, y);
          for (;;) {
            const Clearance v = value(p, k);
            Clearance& slot = clear_[std::size_t{p} * 8 + static_cast<std::size_t>(k)];
            if (slot == v && !inside(px, py)) break;
            slot = v;
            px -= dx;
            py -= dy;
            p -= static_cast<std::uint32_t>(off_[k]);
            if (px < -1 || py < -1 || px > width_ || py > height_) break;
          }
        }
      }
    }
  }
  // Components: a wall leaves its component; a cell that opens joins (and merges) those of its
  // neighbours, never split (components.hpp).
  comps_.repair(g, areas);
}

bool SubgoalWorkspace::unfold(const SubgoalGraph& sg, std::uint32_t start_cell,
                              std::uint32_t goal_cell, std::vector<Cell>& path,
                              const grid::Grid& g) {
  const auto n = static_cast<std::uint32_t>(sg.sg_cell_.size());
  chain_.clear();
  for (std::uint32_t v = n + 1; v != kNone; v = node_[v].parent) chain_.push_back(v);
  auto cell_of = [&](std::uint32_t v) {
    return v == n ? start_cell : (v == n + 1 ? goal_cell : sg.sg_cell_[v]);
  };
  auto passable = [&](std::uint32_t c) { return sg.passable(c); };
  // A direct edge has a free diagonal-first path from the endpoint that found it, i.e. a
  // diagonal-first or a straight-first path from either end.
  auto direct = [&](std::uint32_t a, std::uint32_t b) {
    return append_walk(path, sg.stride_, a, b, passable, sg.off_);
  };
  auto via = [&](std::uint32_t a, std::uint32_t b) {
    if (a >= n || b >= n) return kNone;
    for (std::uint32_t k = sg.adj_begin_[a]; k < sg.adj_begin_[a + 1]; ++k)
      if (sg.adj_[k] == b) return sg.via_[k];
    return kNone;
  };
  path.clear();
  path.push_back(g.cell(start_cell));
  // A graph built here always unfolds; one read from a file that was tampered with (its
  // checksum forged) may not: an edge whose walk is blocked, or shortcuts through local
  // subgoals that loop. Both are refused instead of returning a broken path or never ending.
  for (std::size_t i = chain_.size() - 1; i > 0; --i) {
    std::uint32_t cur = chain_[i];
    stack_.assign(1, chain_[i - 1]);
    std::size_t steps = 0;
    while (!stack_.empty()) {
      if (++steps > 2 * static_cast<std::size_t>(n) + 4) return false;
      const std::uint32_t next = stack_.back();
      const std::uint32_t w = via(cur, next);
      if (w == kNone) {
        if (!direct(cell_of(cur), cell_of(next))) return false;
        cur = next;
        stack_.pop_back();
      } else {
        stack_.push_back(w);
      }
    }
  }
  return true;
}

Status SubgoalWorkspace::find(const SubgoalGraph& sg, const grid::Grid& g, Cell s, Cell t,
                              std::vector<Cell>& path, double& cost, std::uint64_t& expanded,
                              std::uint64_t node_limit) noexcept {
  expanded = 0;
  return sg.query(g, s, t, path, cost, [&](std::uint32_t sc, std::uint32_t tc) {
    reset(sg.sg_cell_.size() + 2);
    bool limit_hit = false;
    if (!search(sg, sc, tc, expanded, node_limit, limit_hit)) {
      return limit_hit ? Status::node_limit : Status::no_path;
    }
    // A graph read from a tampered file (its checksum forged) may not unfold.
    return unfold(sg, sc, tc, path, g) ? Status::found : Status::invalid_input;
  });
}

std::uint64_t SubgoalGraph::clip_areas(const std::vector<grid::Rect>& areas, int width, int height,
                                       std::vector<grid::Rect>* out) {
  std::uint64_t cells = 0;
  for (const grid::Rect& a : areas) {
    const grid::Rect r{std::max(0, a.x0), std::max(0, a.y0), std::min(width - 1, a.x1),
                       std::min(height - 1, a.y1)};
    if (r.x0 > r.x1 || r.y0 > r.y1) continue;
    cells +=
        static_cast<std::uint64_t>(r.x1 - r.x0 + 1) * static_cast<std::uint64_t>(r.y1 - r.y0 + 1);
    if (out != nullptr) out->push_back(r);
  }
  return cells;
}

bool SubgoalGraph::repairable(const grid::Grid& g,
                              const std::vector<grid::Rect>& areas) const noexcept {
  if (g.width() != width_ || g.height() != height_ || sg_of_.empty()) return false;
  return clip_areas(areas, width_, height_, nullptr) * 16 <=
         static_cast<std::uint64_t>(width_) * static_cast<std::uint64_t>(height_);
}

void SubgoalGraph::subgoals_near(const grid::Grid& g, const std::vector<grid::Rect>& rects,
                                 std::vector<std::uint32_t>& out) const {
  for (const grid::Rect& area : rects) {
    const grid::Rect r{std::max(0, area.x0 - 2), std::max(0, area.y0 - 2),
                       std::min(width_ - 1, area.x1 + 2), std::min(height_ - 1, area.y1 + 2)};
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) {
        // A cell's walk back in direction s is part of the walk from the cell ahead of it when
        // that one's first step back is a free non-subgoal cell (this one): walked there only.
        unsigned straight = 0;
        for (int s = 0; s < 4; ++s) {
          const int fx = x + grid::kDx[s], fy = y + grid::kDy[s];
          const bool covered = fx >= r.x0 && fx <= r.x1 && fy >= r.y0 && fy <= r.y1 &&
                               clearance(g.id(fx, fy), opposite(s)) >= 1;
          if (!covered) straight |= 1u << s;
        }
        reaching_subgoals(g.id(x, y), out, straight);
      }
    }
  }
}

std::vector<SubgoalGraph::WallBox> SubgoalGraph::walled_boxes(
    const grid::Grid& g, const std::vector<grid::Rect>& rects) const {
  std::vector<WallBox> walled;
  for (const grid::Rect& r : rects) {
    WallBox k{0, 0, 0, 0};
    bool any = false;
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) {
        if (!passable(g.id(x, y)) || g.passable({x, y})) continue;
        // Padded coordinates: the cell is (x + 1, y + 1), its neighbours one further.
        k = any ? WallBox{std::min(k.x0, x), std::min(k.y0, y), std::max(k.x1, x + 2),
                          std::max(k.y1, y + 2)}
                : WallBox{x, y, x + 2, y + 2};
        any = true;
      }
    }
    if (any) walled.push_back(k);
  }
  return walled;
}

// Why the repaired graph answers exactly. Its edges are those of G', the new subgoal graph
// plus every old edge whose way is still free and whose ends are still subgoals (a real path
// of its octile cost, so G' has the map's distances), plus shortcuts. A query
// needs, for every two subgoals, a shortest path whose intermediate vertices are all global
// (the header's invariant). That holds when every local subgoal w passes this test (S): for
// each pair a, b of its neighbours, d(a, b) < c(a, w) + c(w, b), or a path from a to b over
// global subgoals costs at most that (then a shortest path with the fewest local
// intermediates has none: one with a local w between a and b would be replaced). The build
// leaves the invariant true. After a change, S can fail only
// - for a local subgoal that gained a neighbour (a new subgoal-graph edge): new pairs;
// - for a local subgoal with a pair whose path of cost at most c(a, w) + c(w, b) a new wall
//   broke: that path holds, unpacked, a subgoal-graph edge x - y the wall blocks, so it cost
//   at least h(a, x) + c(x, y) + h(y, b) (octile h); the pairs where that fits are suspect.
//   The same for an edge dropped with a subgoal the change removed. Cells that opened break
//   no old path.
// Those pairs are tested again (below).
bool SubgoalGraph::repair(const grid::Grid& g, const std::vector<grid::Rect>& areas,
                          std::uint64_t work_limit) {
  if (!repairable(g, areas)) return false;
  std::vector<grid::Rect> rects;
  clip_areas(areas, width_, height_, &rects);
  if (rects.empty()) return matches(g);
  const auto n_old = static_cast<std::uint32_t>(sg_cell_.size());
  std::vector<std::uint32_t> explore;
  subgoals_near(g, rects, explore);
  const std::vector<WallBox> walled = walled_boxes(g, rects);
  CellChanges changes;
  repair_cells(g, rects, changes);
  subgoals_near(g, rects, explore);
  std::sort(explore.begin(), explore.end());
  explore.erase(std::unique(explore.begin(), explore.end()), explore.end());
  const auto n = static_cast<std::uint32_t>(sg_cell_.size());

  // Which old edges still stand: a direct edge whose way misses the new walls, or is still
  // free; a shortcut when both its halves do.
  auto entry = [&](std::uint32_t u, std::uint32_t v) {  // adj_ index of edge u -> v, or kNone
    const auto first = adj_.begin() + adj_begin_[u], last = adj_.begin() + adj_begin_[u + 1];
    const auto it = std::lower_bound(first, last, v);
    return it == last || *it != v ? kNone : static_cast<std::uint32_t>(it - adj_.begin());
  };
  std::vector<std::uint8_t> valid(adj_.size(), 1);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> dropped;  // every edge dropped
  if (!walled.empty() || !changes.removed.empty()) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lost;  // shortcuts not yet looked at
    auto drop = [&](std::uint32_t u, std::uint32_t k) {
      const std::uint32_t v = adj_[k], back = entry(v, u);
      valid[k] = 0;
      if (back != kNone) valid[back] = 0;
      lost.emplace_back(u, v);
      dropped.emplace_back(u, v);
    };
    for (std::uint32_t u = 0; u < n_old; ++u) {
      const Cell p = sg_pos_[u];
      for (std::uint32_t k = adj_begin_[u]; k < adj_begin_[u + 1]; ++k) {
        const std::uint32_t v = adj_[k];
        if (v < u || via_[k] != kNone || !valid[k]) continue;
        const Cell q = sg_pos_[v];
        const std::int32_t x0 = std::min(p.x, q.x), x1 = std::max(p.x, q.x);
        const std::int32_t y0 = std::min(p.y, q.y), y1 = std::max(p.y, q.y);
        bool meets = false;
        for (const WallBox& w : walled)
          meets = meets || (x0 <= w.x1 && w.x0 <= x1 && y0 <= w.y1 && w.y0 <= y1);
        if (!meets) continue;
        if (passable(sg_cell_[u]) && walkable(sg_cell_[u], sg_cell_[v])) continue;
        drop(u, k);
      }
    }
    // A subgoal the change removed goes, with its edges (a path through it breaks as a
    // blocked edge does).
    for (const std::uint32_t x : changes.removed) {
      for (std::uint32_t k = adj_begin_[x]; k < adj_begin_[x + 1]; ++k)
        if (valid[k]) drop(x, k);
    }
    // A shortcut a - b through w stands on the edges a - w and w - b: those built on a dropped
    // edge x - y go too (through x with an end y, or through y with an end x).
    while (!lost.empty()) {
      const auto [x, y] = lost.back();
      lost.pop_back();
      for (const auto& [w, end] : {std::pair{x, y}, std::pair{y, x}}) {
        for (std::uint32_t k = adj_begin_[w]; k < adj_begin_[w + 1]; ++k) {
          const std::uint32_t c = adj_[k];
          if (c == end) continue;
          const std::uint32_t s = entry(end, c);
          if (s != kNone && valid[s] && via_[s] == w) drop(end, s);
        }
      }
    }
  }

  // The graph being repaired, as the builder holds it: the edges still standing.
  Builder b(*this);
  b.adj.assign(n, {});
  b.global.assign(n, 1);
  for (std::uint32_t v = n_global_; v < n_old; ++v) b.global[v] = 0;  // the local subgoals
  b.dead.assign(n, 0);
  for (const std::uint32_t x : changes.removed) b.dead[x] = 1;
  b.size_state(n);
  for (std::uint32_t u = 0; u < n_old; ++u) {
    for (std::uint32_t k = adj_begin_[u]; k < adj_begin_[u + 1]; ++k)
      if (valid[k]) b.adj[u].push_back({adj_[k], via_[k]});
  }
  // New subgoal-graph edges (and old ones dropped as shortcuts, now direct again).
  // The pairs to test again, as (w, a, c): w's pairs with a neighbour it gained (c = kNone:
  // every other neighbour), and pairs whose path may have crossed a new wall.
  struct Pair {
    std::uint32_t w, a, c;
  };
  std::vector<Pair> pairs;
  std::vector<std::uint32_t> found;
  for (const std::uint32_t i : explore) {
    if (!alive(i)) continue;
    direct_subgoals(sg_cell_[i], found);
    b.mark_neighbours(i);
    for (const std::uint32_t j : found) {
      if (j == i || b.mark[j] == b.mark_stamp) continue;
      b.mark[j] = b.mark_stamp;
      b.adj[i].push_back({j, kNone});
      b.adj[j].push_back({i, kNone});
      if (!b.global[i]) pairs.push_back({i, j, kNone});
      if (!b.global[j]) pairs.push_back({j, i, kNone});
    }
  }
  // A suspect pair a, c around w: the graph held a path from a to c over global subgoals of
  // cost d(a, c) <= c(a, w) + c(w, c) (the invariant); if the change broke every such path,
  // each has a dropped edge (a shortcut, or a subgoal-graph edge) between global subgoals, a
  // or c, of the cost bounded below.
  auto h = [&](std::uint32_t x, std::uint32_t y) { return b.cost(x, y); };
  // The work spent (edges scanned, bounds computed); past the limit, subgoals still to test
  // become global untested.
  std::uint64_t spent = 0;
  if (!dropped.empty()) {
    // The dropped edges by their first end, so that each w looks only at those within its
    // reach (cell_buckets.hpp).
    CellBuckets by_first;
    {
      std::vector<Cell> at(dropped.size());
      for (std::size_t k = 0; k < dropped.size(); ++k) at[k] = sg_pos_[dropped[k].first];
      by_first.assign(at, width_ + 2, height_ + 2);
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> near;  // the dropped edges near w
    for (std::uint32_t w = n_global_; w < n_old; ++w) {
      const auto& list = b.adj[w];
      if (list.size() < 2) continue;
      // Past the limit, w becomes global untested (always correct), before its dropped edges
      // are even looked at: on the switch map's second batch, looking at them for every w left
      // (to keep those with none near local) took 81 s.
      if (spent >= work_limit) {
        b.global[w] = 1;
        continue;
      }
      double reach = 0;  // such a path stays within 3 x w's longest edge of w
      for (const auto& e : list) reach = std::max(reach, h(w, e.to));
      reach = 3 * reach + kEps;
      near.clear();
      // Within octile distance `reach`, so within as many cells each way.
      const Cell p = sg_pos_[w];
      const auto r = static_cast<std::int32_t>(std::min(reach, 1e9));
      std::uint64_t looked = 0;
      by_first.in_box(p.x - r, p.y - r, p.x + r, p.y + r, [&](std::uint32_t k) {
        const auto& d = dropped[k];
        ++looked;
        if (h(w, d.first) > reach) return;
        // A pair a, c can fit only if c(x, y) + min over a of (h(a, x) - h(a, w)) + the same
        // for y does (the pairs' bound, each end minimised on its own).
        double ax = std::numeric_limits<double>::infinity(), ay = ax;
        for (const auto& e : list) {
          ax = std::min(ax, h(e.to, d.first) - h(e.to, w));
          ay = std::min(ay, h(e.to, d.second) - h(e.to, w));
        }
        if (h(d.first, d.second) + ax + ay <= kEps) near.push_back(d);
      });
      spent += looked * list.size();
      if (near.empty()) continue;
      // Past the limit, even halfway through w's pairs, w becomes global untested.
      for (std::size_t i = 0; i + 1 < list.size() && !b.global[w]; ++i) {
        const std::uint32_t a = list[i].to;
        for (std::size_t j = i + 1; j < list.size(); ++j) {
          if (spent >= work_limit) {
            b.global[w] = 1;
            break;
          }
          const std::uint32_t c = list[j].to;
          const double through = h(a, w) + h(w, c) + kEps;
          spent += near.size();
          for (const auto& [x, y] : near) {
            if ((!b.global[x] && x != a && x != c) || (!b.global[y] && y != a && y != c)) continue;
            if (h(x, y) + std::min(h(a, x) + h(y, c), h(a, y) + h(x, c)) <= through) {
              pairs.push_back({w, a, c});
              break;
            }
          }
        }
      }
    }
  }
  // First the pairs are tested against the graph as it is (paths over global subgoals; the
  // subgoals to test still local, which only makes a test harder): a subgoal with a pair that
  // fails becomes global. Each test passed holds in the final graph (global subgoals are only
  // added), so S holds for every local subgoal left, and the invariant with it. Past the work
  // limit, the subgoals left untested become global.
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& x, const Pair& y) { return x.w < y.w; });
  std::vector<std::uint8_t> again(n, 0);  // made global here: pruned again below
  b.work = 0;
  for (const Pair& p : pairs) {
    if (b.global[p.w]) continue;
    bool ok = spent + b.work < work_limit;
    if (p.c != kNone) {
      ok = ok && b.pair_ok(p.a, p.c, p.w);
    } else {
      for (std::size_t k = 0; ok && k < b.adj[p.w].size(); ++k) {
        const std::uint32_t c = b.adj[p.w][k].to;
        if (c != p.a) ok = b.pair_ok(p.a, c, p.w);
      }
    }
    if (!ok) b.global[p.w] = again[p.w] = 1;
  }
  spent += b.work;
  // Then the subgoals made global, and the new ones, are pruned again as the build prunes
  // (local when every pair of its neighbours keeps a path without it, shortcuts through it
  // added where needed), which keeps the invariant step by step. One left untested (past the
  // work limit), or failing, stays global.
  for (const std::uint32_t v : changes.added) again[v] = 1;  // (appended: id >= n_old)
  std::vector<std::uint32_t> nb;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> shortcuts;
  for (std::uint32_t w = 0; w < n && spent < work_limit; ++w) {
    if (!again[w]) continue;
    shortcuts.clear();
    const bool local = b.may_be_local(w, nb, &shortcuts);
    spent += b.work;
    if (!local) continue;
    b.global[w] = 0;
    for (const auto& pr : shortcuts) {
      b.adj[pr.first].push_back({pr.second, w});
      b.adj[pr.second].push_back({pr.first, w});
    }
  }

  // Renumbered, globals first (the removed subgoals left out): the per-cell tables follow.
  const std::vector<Cell> old_pos = sg_pos_;
  const std::vector<std::uint32_t> old_cell = sg_cell_;
  const std::vector<std::uint32_t> order = b.finish();  // sets sg_cell_, n_global_, the CSR
  sg_pos_.resize(order.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    sg_pos_[k] = old_pos[order[k]];
    sg_of_[old_cell[order[k]]] = k;  // (each one kept is still a subgoal, at its cell)
  }
  ++repairs_;
  return true;
}

}  // namespace pathlab::search::detail
