// The contraction hierarchy over the simple subgoal graph (subgoal_ch.hpp): contraction,
// upward bidirectional queries, unpacking.
#include "subgoal_ch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <istream>
#include <limits>
#include <new>
#include <ostream>
#include <queue>
#include <string>

namespace pathlab::search::detail {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kEps = 1e-9;
constexpr std::uint32_t kNone = SubgoalHierarchy::kNone;
/// Nodes one witness search may settle; past it, the shortcut is added (always correct). The
/// priority of a subgoal is estimated with shorter searches than its contraction uses.
constexpr std::uint32_t kWitnessSettle = 400;
constexpr std::uint32_t kEstimateSettle = 400;
constexpr long kLevelDivisor = 1000000;

double octile(Cell a, Cell b) noexcept {
  const std::int32_t ax = a.x < b.x ? b.x - a.x : a.x - b.x;
  const std::int32_t ay = a.y < b.y ? b.y - a.y : a.y - b.y;
  const std::int32_t lo = std::min(ax, ay), hi = std::max(ax, ay);
  return static_cast<double>(hi - lo) + static_cast<double>(lo) * kSqrt2;
}

using Entry = std::pair<double, std::uint32_t>;
constexpr auto kGreater = [](const Entry& a, const Entry& b) { return a.first > b.first; };

}  // namespace

struct SubgoalHierarchy::Contractor {
  struct Edge {
    std::uint32_t to;
    std::uint32_t via;
    double cost;
  };
  std::vector<std::vector<Edge>> adj;  // edges between subgoals not contracted yet (and older)
  std::vector<std::uint8_t> contracted;
  std::vector<std::uint32_t> gone_neighbours;
  // Witness search state.
  std::vector<double> dist;
  std::vector<std::uint32_t> reached, target;
  std::uint32_t stamp = 0;
  std::vector<Entry> heap;
  // Scratch of one contraction.
  std::vector<Edge> around;
  std::vector<std::pair<std::uint32_t, Edge>> added;

  explicit Contractor(std::size_t n)
      : adj(n),
        contracted(n, 0),
        gone_neighbours(n, 0),
        dist(n, 0),
        reached(n, 0),
        target(n, 0),
        level(n, 0) {}

  /// Dijkstra from u over the live subgoals but `avoid`, up to cost `limit` or kWitnessSettle
  /// settled nodes: afterwards reached[w] == stamp and dist[w] bound the witness costs.
  /// `targets`: how many nodes marked target == stamp the search still has to settle; it stops
  /// when none is left.
  void witness(std::uint32_t u, std::uint32_t avoid, double limit, std::uint32_t settle_limit,
               std::uint32_t targets) {
    heap.clear();
    reached[u] = stamp;
    dist[u] = 0;
    heap.emplace_back(0, u);
    std::uint32_t settled = 0;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), kGreater);
      const auto [d, x] = heap.back();
      heap.pop_back();
      if (d > dist[x]) continue;
      if (d > limit || ++settled > settle_limit) return;
      if (target[x] == stamp && --targets == 0) return;
      for (const Edge& e : adj[x]) {
        if (contracted[e.to] || e.to == avoid) continue;
        const double nd = d + e.cost;
        if (nd > limit + kEps) continue;
        if (reached[e.to] == stamp && dist[e.to] <= nd) continue;
        reached[e.to] = stamp;
        dist[e.to] = nd;
        heap.emplace_back(nd, e.to);
        std::push_heap(heap.begin(), heap.end(), kGreater);
      }
    }
  }

  /// The shortcuts v's contraction needs, into `added` (u, edge u -> w), each pair once.
  void shortcuts(std::uint32_t v, std::uint32_t settle_limit) {
    around.clear();
    for (const Edge& e : adj[v]) {
      if (!contracted[e.to]) around.push_back(e);
    }
    added.clear();
    for (std::size_t i = 0; i + 1 < around.size(); ++i) {
      const Edge& a = around[i];
      if (++stamp == 0) {
        std::fill(reached.begin(), reached.end(), 0);
        std::fill(target.begin(), target.end(), 0);
        stamp = 1;
      }
      // One hop first: on open maps most neighbours of v see each other, and an edge u-w costs
      // at most the way through v (octile distances obey the triangle inequality). The
      // witness search runs only for the pairs that leaves open.
      for (const Edge& e : adj[a.to]) {
        if (contracted[e.to]) continue;
        reached[e.to] = stamp;
        dist[e.to] = e.cost;
      }
      double most = 0;
      std::uint32_t open = 0;
      for (std::size_t j = i + 1; j < around.size(); ++j) {
        const Edge& b = around[j];
        if (reached[b.to] == stamp && dist[b.to] <= a.cost + b.cost + kEps) continue;
        most = std::max(most, b.cost);
        target[b.to] = stamp;
        ++open;
      }
      if (open == 0) continue;
      if (++stamp == 0) {
        std::fill(reached.begin(), reached.end(), 0);
        std::fill(target.begin(), target.end(), 0);
        stamp = 1;
        // (the targets of this round were lost with the reset: mark them again)
        for (std::size_t j = i + 1; j < around.size(); ++j) target[around[j].to] = stamp;
      } else {
        for (std::size_t j = i + 1; j < around.size(); ++j) {
          if (target[around[j].to] == stamp - 1) target[around[j].to] = stamp;
        }
      }
      witness(a.to, v, a.cost + most, settle_limit, open);
      for (std::size_t j = i + 1; j < around.size(); ++j) {
        const Edge& b = around[j];
        if (target[b.to] != stamp) continue;  // an edge served it
        const double through = a.cost + b.cost;
        if (reached[b.to] == stamp && dist[b.to] <= through + kEps) continue;
        added.push_back({a.to, Edge{b.to, v, through}});
      }
    }
  }

  /// Edge difference, contracted neighbours and level (the hierarchy's depth below v): the
  /// usual terms of contraction hierarchies.
  [[nodiscard]] long priority(std::uint32_t v, std::uint32_t settle_limit) {
    shortcuts(v, settle_limit);
    return 2 * static_cast<long>(added.size()) - static_cast<long>(around.size()) +
           static_cast<long>(gone_neighbours[v]) + static_cast<long>(level[v]) / kLevelDivisor;
  }
  std::vector<std::uint32_t> level;

  void add(std::uint32_t u, const Edge& e) {
    for (Edge& x : adj[u]) {
      if (x.to == e.to) {
        if (e.cost < x.cost - kEps) x = e;
        return;
      }
    }
    adj[u].push_back(e);
  }
};

SubgoalHierarchy SubgoalHierarchy::build(const grid::Grid& g) {
  const auto t0 = std::chrono::steady_clock::now();
  SubgoalHierarchy h;
  h.base_ = SubgoalGraph::cells_only(g);
  const auto n = static_cast<std::uint32_t>(h.base_.sg_cell_.size());
  Contractor c(n);
  for (const auto& [a, b] : h.base_.direct_pairs()) {
    const double cost = octile(h.base_.sg_pos_[a], h.base_.sg_pos_[b]);
    c.adj[a].push_back({b, kNone, cost});
    c.adj[b].push_back({a, kNone, cost});
  }
  // Lazy updates: a node's priority is recomputed when it comes to the top, and it is
  // contracted only if it still beats the next one.
  using Item = std::pair<long, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (std::uint32_t v = 0; v < n; ++v) queue.emplace(c.priority(v, kEstimateSettle), v);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  // Upward edges per subgoal (old ids), recorded when it is contracted.
  std::vector<std::vector<Contractor::Edge>> up(n);
  while (!queue.empty()) {
    const std::uint32_t v = queue.top().second;
    queue.pop();
    if (c.contracted[v]) continue;
    const long p = c.priority(v, kEstimateSettle);
    if (!queue.empty() && p > queue.top().first) {
      queue.emplace(p, v);
      continue;
    }
    c.shortcuts(v, kWitnessSettle);
    for (const auto& [u, e] : c.added) {
      c.add(u, e);
      c.add(e.to, Contractor::Edge{u, e.via, e.cost});
    }
    c.contracted[v] = 1;
    order.push_back(v);
    for (const Contractor::Edge& e : c.adj[v]) {
      if (c.contracted[e.to]) continue;
      up[v].push_back(e);
      ++c.gone_neighbours[e.to];
      c.level[e.to] = std::max(c.level[e.to], c.level[v] + 1);
    }
    std::vector<Contractor::Edge>().swap(c.adj[v]);
  }
  // Number the subgoals in contraction order: an upward edge leads to a larger id.
  std::vector<std::uint32_t> rank(n);
  std::vector<std::uint32_t> cells(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    rank[order[k]] = k;
    cells[k] = h.base_.sg_cell_[order[k]];
  }
  h.base_.renumber(std::move(cells));
  h.up_begin_.assign(1, 0);
  for (std::uint32_t k = 0; k < n; ++k) {
    std::vector<Contractor::Edge>& list = up[order[k]];
    for (Contractor::Edge& e : list) {
      e.to = rank[e.to];
      if (e.via != kNone) e.via = rank[e.via];
    }
    std::sort(list.begin(), list.end(),
              [](const Contractor::Edge& a, const Contractor::Edge& b) { return a.to < b.to; });
    for (const Contractor::Edge& e : list) {
      h.up_to_.push_back(e.to);
      h.up_via_.push_back(e.via);
      h.up_cost_.push_back(e.cost);
    }
    h.up_begin_.push_back(static_cast<std::uint32_t>(h.up_to_.size()));
    std::vector<Contractor::Edge>().swap(list);
  }
  h.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

std::size_t SubgoalHierarchy::memory_bytes() const noexcept {
  return sizeof(*this) - sizeof(SubgoalGraph) + base_.memory_bytes() +
         (up_begin_.size() + up_to_.size() + up_via_.size()) * sizeof(std::uint32_t) +
         up_cost_.size() * sizeof(double);
}

std::size_t SubgoalHierarchy::shortcut_count() const noexcept {
  return static_cast<std::size_t>(
      std::count_if(up_via_.begin(), up_via_.end(), [](std::uint32_t v) { return v != kNone; }));
}

bool SubgoalHierarchy::consistent() const noexcept {
  const std::size_t n = base_.sg_cell_.size();
  if (up_begin_.size() != n + 1 || up_begin_.front() != 0 || up_begin_.back() != up_to_.size() ||
      up_via_.size() != up_to_.size() || up_cost_.size() != up_to_.size()) {
    return false;
  }
  auto find_edge = [&](std::uint32_t lo, std::uint32_t hi) -> std::ptrdiff_t {
    const auto first = up_to_.begin() + up_begin_[lo], last = up_to_.begin() + up_begin_[lo + 1];
    const auto it = std::lower_bound(first, last, hi);
    return it == last || *it != hi ? -1 : it - up_to_.begin();
  };
  for (std::uint32_t u = 0; u < n; ++u) {
    if (up_begin_[u] > up_begin_[u + 1]) return false;
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      const std::uint32_t v = up_to_[e];
      if (v <= u || v >= n || (e > up_begin_[u] && up_to_[e - 1] >= v)) return false;
      const double c = up_cost_[e];
      if (!(c > 0) || !std::isfinite(c) || c < octile(base_.sg_pos_[u], base_.sg_pos_[v]) - kEps) {
        return false;
      }
      const std::uint32_t w = up_via_[e];
      if (w == kNone) continue;
      if (w >= u) return false;
      const std::ptrdiff_t a = find_edge(w, u), b = find_edge(w, v);
      if (a < 0 || b < 0) return false;
      if (std::abs(up_cost_[static_cast<std::size_t>(a)] + up_cost_[static_cast<std::size_t>(b)] -
                   c) > 1e-6 * std::max(1.0, c)) {
        return false;
      }
    }
  }
  return true;
}

// --- file format -----------------------------------------------------------------------------

namespace {
constexpr char kMagic[8] = {'P', 'L', 'S', 'G', 'C', 'H', '0', '1'};
}

bool SubgoalHierarchy::save(std::ostream& out) const {
  std::string payload;
  put(payload, static_cast<std::uint32_t>(base_.sg_cell_.size()));
  put(payload, static_cast<std::uint32_t>(up_to_.size()));
  put_vector(payload, base_.sg_cell_);
  put_vector(payload, up_begin_);
  put_vector(payload, up_to_);
  put_vector(payload, up_via_);
  put_vector(payload, up_cost_);
  return write_framed(out, kMagic, kFormatVersion, base_.width_, base_.height_, base_.map_checksum_,
                      payload);
}

std::optional<SubgoalHierarchy> SubgoalHierarchy::load(std::istream& in, const grid::Grid& g) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!applies(g, grid::Moves{})) return std::nullopt;
  // A hierarchy holds a few words per subgoal and edge: absurd sizes are refused unread.
  const std::optional<std::string> framed =
      read_framed(in, kMagic, kFormatVersion, g, 4096 + 256 * std::uint64_t{g.padded_size()});
  if (!framed) return std::nullopt;
  PayloadReader r{*framed};
  std::uint32_t n = 0, m = 0;
  std::vector<std::uint32_t> cells;
  SubgoalHierarchy h;
  if (!r.get(n) || !r.get(m) || !r.get_vector(cells, n) ||
      !r.get_vector(h.up_begin_, std::size_t{n} + 1) || !r.get_vector(h.up_to_, m) ||
      !r.get_vector(h.up_via_, m) || !r.get_vector(h.up_cost_, m) || r.at != framed->size()) {
    return std::nullopt;
  }
  // The subgoals must be exactly the map's convex corners (in any order: contraction order).
  std::vector<std::uint32_t> sorted = cells;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != SubgoalGraph::subgoal_cells(g)) return std::nullopt;
  h.base_ = SubgoalGraph::cells_only(g);
  h.base_.renumber(std::move(cells));
  if (!h.consistent()) return std::nullopt;
  h.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

// --- queries ---------------------------------------------------------------------------------

std::size_t HierarchyWorkspace::memory_bytes() const noexcept {
  return sizeof(*this) + (side_[0].capacity() + side_[1].capacity()) * sizeof(Side) +
         (heap_[0].capacity() + heap_[1].capacity()) * sizeof(Entry) +
         (set_.capacity() + chain_.capacity() + stack_.capacity()) * sizeof(std::uint32_t);
}

bool HierarchyWorkspace::search(const SubgoalHierarchy& h, std::uint32_t sc, std::uint32_t tc,
                                std::uint64_t& expanded, std::uint64_t node_limit,
                                bool& limit_hit) {
  const SubgoalGraph& b = h.base_;
  const std::size_t n = b.sg_cell_.size();
  for (auto& side : side_) {
    if (side.size() != n) {
      side.assign(n, Side{0, 0, 0, kNone});
      stamp_ = 0;
    }
  }
  if (++stamp_ == 0) {
    for (auto& side : side_) side.assign(n, Side{0, 0, 0, kNone});
    stamp_ = 1;
  }
  // Each side is an A* upward: its key adds the octile distance to the other end, a lower
  // bound of what is left (edges cost at least the octile distance of their ends), so a side
  // is done once its least key reaches the best meeting found: no way through an open node can
  // beat it. A node an upward neighbour reaches more cheaply from above is stalled: its own
  // edges cannot lie on a shortest up-down way.
  const std::uint32_t ends[2] = {sc, tc};
  const auto stride = static_cast<std::uint32_t>(b.stride_);
  const Cell at[2] = {
      {static_cast<std::int32_t>(sc % stride), static_cast<std::int32_t>(sc / stride)},
      {static_cast<std::int32_t>(tc % stride), static_cast<std::int32_t>(tc / stride)}};
  for (int k = 0; k < 2; ++k) {
    heap_[k].clear();
    b.direct_subgoals(ends[k], set_);
    for (const std::uint32_t a : set_) {
      const double d = octile(at[k], b.sg_pos_[a]);
      Side& s = side_[k][a];
      if (s.seen == stamp_ && s.d <= d) continue;
      s = Side{d, stamp_, 0, kNone};
      heap_[k].emplace_back(d + octile(b.sg_pos_[a], at[1 - k]), a);
    }
    std::make_heap(heap_[k].begin(), heap_[k].end(), kGreater);
  }
  double best = std::numeric_limits<double>::infinity();
  meet_ = kNone;
  auto top = [&](int k) {
    return heap_[k].empty() ? std::numeric_limits<double>::infinity() : heap_[k].front().first;
  };
  for (;;) {
    const double t0 = top(0), t1 = top(1);
    if (t0 >= best - kEps && t1 >= best - kEps) break;
    const int k = t0 <= t1 ? 0 : 1;
    std::pop_heap(heap_[k].begin(), heap_[k].end(), kGreater);
    const std::uint32_t u = heap_[k].back().second;
    heap_[k].pop_back();
    Side& su = side_[k][u];
    if (su.done == stamp_) continue;
    su.done = stamp_;
    const double d = su.d;
    if (expanded >= node_limit) {
      limit_hit = true;
      return false;
    }
    ++expanded;
    const Side& other = side_[1 - k][u];
    if (other.seen == stamp_ && d + other.d < best) {
      best = d + other.d;
      meet_ = u;
    }
    const std::uint32_t first = h.up_begin_[u], last = h.up_begin_[u + 1];
    bool stalled = false;
    for (std::uint32_t e = first; e < last && !stalled; ++e) {
      const Side& sv = side_[k][h.up_to_[e]];
      stalled = sv.seen == stamp_ && sv.d + h.up_cost_[e] < d - kEps;
    }
    if (stalled) continue;
    for (std::uint32_t e = first; e < last; ++e) {
      const std::uint32_t v = h.up_to_[e];
      const double nd = d + h.up_cost_[e];
      Side& sv = side_[k][v];
      if (sv.seen == stamp_ && sv.d <= nd) continue;
      if (sv.done == stamp_) continue;  // (cannot happen with a consistent key; kept safe)
      sv = Side{nd, stamp_, 0, u};
      heap_[k].emplace_back(nd + octile(b.sg_pos_[v], at[1 - k]), v);
      std::push_heap(heap_[k].begin(), heap_[k].end(), kGreater);
    }
  }
  return meet_ != kNone;
}

bool HierarchyWorkspace::unfold(const SubgoalHierarchy& h, std::uint32_t sc, std::uint32_t tc,
                                std::vector<Cell>& path, const grid::Grid& g) {
  const SubgoalGraph& b = h.base_;
  // The subgoals of the way, start side to goal side.
  chain_.clear();
  for (std::uint32_t v = meet_; v != kNone; v = side_[0][v].parent) chain_.push_back(v);
  std::reverse(chain_.begin(), chain_.end());
  for (std::uint32_t v = side_[1][meet_].parent; v != kNone; v = side_[1][v].parent) {
    chain_.push_back(v);
  }
  path.clear();
  path.push_back(g.cell(sc));
  if (!b.walk(path, sc, b.sg_cell_[chain_.front()])) return false;
  auto edge_via = [&](std::uint32_t x, std::uint32_t y) {
    const std::uint32_t lo = std::min(x, y), hi = std::max(x, y);
    const auto first = h.up_to_.begin() + h.up_begin_[lo];
    const auto last = h.up_to_.begin() + h.up_begin_[lo + 1];
    const auto it = std::lower_bound(first, last, hi);
    if (it == last || *it != hi) return kNone - 1;  // no such edge (a damaged file)
    return h.up_via_[static_cast<std::size_t>(it - h.up_to_.begin())];
  };
  for (std::size_t i = 0; i + 1 < chain_.size(); ++i) {
    // Unpack the edge chain_[i] -> chain_[i + 1]: a shortcut stands for the two edges through
    // its middle subgoal, which is below both ends (so this ends).
    std::uint32_t cur = chain_[i];
    stack_.assign(1, chain_[i + 1]);
    while (!stack_.empty()) {
      const std::uint32_t next = stack_.back();
      const std::uint32_t via = edge_via(cur, next);
      if (via == kNone - 1) return false;
      if (via == kNone) {
        if (!b.walk(path, b.sg_cell_[cur], b.sg_cell_[next])) return false;
        cur = next;
        stack_.pop_back();
      } else {
        stack_.push_back(via);
      }
    }
  }
  return b.walk(path, b.sg_cell_[chain_.back()], tc);
}

Status HierarchyWorkspace::find(const SubgoalHierarchy& h, const grid::Grid& g, Cell s, Cell t,
                                std::vector<Cell>& path, double& cost, std::uint64_t& expanded,
                                std::uint64_t node_limit) noexcept {
  expanded = 0;
  return h.base_.query(g, s, t, path, cost, [&](std::uint32_t sc, std::uint32_t tc) {
    bool limit_hit = false;
    if (!search(h, sc, tc, expanded, node_limit, limit_hit)) {
      return limit_hit ? Status::node_limit : Status::no_path;
    }
    return unfold(h, sc, tc, path, g) ? Status::found : Status::invalid_input;
  });
}

}  // namespace pathlab::search::detail
