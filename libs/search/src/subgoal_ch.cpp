// The contraction hierarchy over the simple subgoal graph (subgoal_ch.hpp): contraction,
// upward bidirectional queries, unpacking.
#include "subgoal_ch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <istream>
#include <limits>
#include <new>
#include <ostream>
#include <string>
#include <thread>

namespace pathlab::search::detail {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kEps = 1e-9;
constexpr std::uint32_t kNone = SubgoalHierarchy::kNone;
/// Nodes one witness search may settle; past it, the shortcut is added (always correct).
constexpr std::uint32_t kWitnessSettle = 400;
/// Up to this many subgoals of at most this many neighbours on average, priorities are
/// estimated with witness searches of this many settled nodes (a better order: Aurora's
/// queries settle 227 nodes instead of 389); otherwise from the pairs of neighbours no edge
/// joins, five to ten times faster to build on the random and city maps (Boston_0_1024: 28 s
/// instead of 134 s).
constexpr std::uint32_t kSmallGraph = 32768;
constexpr std::uint32_t kEstimateSettle = 100;
constexpr double kSmallDegree = 32;

double octile(Cell a, Cell b) noexcept {
  const std::int32_t ax = a.x < b.x ? b.x - a.x : a.x - b.x;
  const std::int32_t ay = a.y < b.y ? b.y - a.y : a.y - b.y;
  const std::int32_t lo = std::min(ax, ay), hi = std::max(ax, ay);
  return static_cast<double>(hi - lo) + static_cast<double>(lo) * kSqrt2;
}

using Entry = std::pair<double, std::uint32_t>;
constexpr auto kGreater = [](const Entry& a, const Entry& b) { return a.first > b.first; };

struct Edge {
  std::uint32_t to;
  std::uint32_t via;  // a shortcut's middle subgoal, or kNone
  double cost;
  std::uint32_t hops = 1;  // edges of the subgoal graph it stands for
};

/// The graph being contracted: each live subgoal's edges to live subgoals (kept clean as
/// subgoals go). Read-only while the threads of a round compute.
struct LiveGraph {
  enum : std::uint8_t { kLive = 0, kGone = 1, kThisRound = 2 };
  std::vector<std::vector<Edge>> adj;
  std::vector<std::uint8_t> state;

  explicit LiveGraph(std::size_t n) : adj(n), state(n, kLive) {}

  /// Adds or lowers the edge u -> e.to.
  void add(std::uint32_t u, const Edge& e) {
    for (Edge& x : adj[u]) {
      if (x.to == e.to) {
        if (e.cost < x.cost - kEps) x = e;
        return;
      }
    }
    adj[u].push_back(e);
  }
  void remove(std::uint32_t u, std::uint32_t w) {
    std::vector<Edge>& list = adj[u];
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].to == w) {
        list[i] = list.back();
        list.pop_back();
        return;
      }
    }
  }
};

/// One thread's witness searches over a LiveGraph.
struct Witness {
  std::vector<double> dist;
  std::vector<std::uint32_t> reached, target;
  std::uint32_t stamp = 0;
  std::vector<Entry> heap;
  /// The shortcuts of the last shortcuts() call: (u, edge u -> w), each pair once.
  std::vector<std::pair<std::uint32_t, Edge>> added;

  explicit Witness(std::size_t n) : dist(n, 0), reached(n, 0), target(n, 0) {}

  void next_stamp() {
    if (++stamp == 0) {
      std::fill(reached.begin(), reached.end(), 0);
      std::fill(target.begin(), target.end(), 0);
      stamp = 1;
    }
  }

  /// Dijkstra from u over live subgoals but `avoid`, up to cost `limit` or `settle_limit`
  /// settled nodes, or until the `targets` nodes marked target == stamp are settled:
  /// afterwards reached[w] == stamp and dist[w] bound the witness costs.
  void search(const LiveGraph& gr, std::uint32_t u, std::uint32_t avoid, double limit,
              std::uint32_t settle_limit, std::uint32_t targets) {
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
      for (const Edge& e : gr.adj[x]) {
        if (gr.state[e.to] != LiveGraph::kLive || e.to == avoid) continue;
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

  /// The shortcuts v's contraction needs, into `added`: a pair of v's neighbours whose
  /// shortest way needs v (no witness as short avoiding v and this round's other subgoals).
  void shortcuts(const LiveGraph& gr, std::uint32_t v, std::uint32_t settle_limit) {
    const std::vector<Edge>& around = gr.adj[v];
    added.clear();
    for (std::size_t i = 0; i + 1 < around.size(); ++i) {
      const Edge& a = around[i];
      next_stamp();
      // One hop first: on open maps most neighbours of v see each other, and an edge u-w costs
      // at most the way through v (octile distances obey the triangle inequality). The
      // witness search runs only for the pairs that leaves open.
      for (const Edge& e : gr.adj[a.to]) {
        if (gr.state[e.to] != LiveGraph::kLive) continue;
        reached[e.to] = stamp;
        dist[e.to] = e.cost;
      }
      const std::uint32_t one_hop = stamp;
      next_stamp();
      double most = 0;
      std::uint32_t open = 0;
      for (std::size_t j = i + 1; j < around.size(); ++j) {
        const Edge& b = around[j];
        if (one_hop == stamp - 1 && reached[b.to] == one_hop &&
            dist[b.to] <= a.cost + b.cost + kEps) {
          continue;
        }
        most = std::max(most, b.cost);
        target[b.to] = stamp;
        ++open;
      }
      if (open == 0) continue;
      search(gr, a.to, v, a.cost + most, settle_limit, open);
      for (std::size_t j = i + 1; j < around.size(); ++j) {
        const Edge& b = around[j];
        if (target[b.to] != stamp) continue;  // an edge served it
        const double through = a.cost + b.cost;
        if (reached[b.to] == stamp && dist[b.to] <= through + kEps) continue;
        added.push_back({a.to, Edge{b.to, v, through, a.hops + b.hops}});
      }
    }
  }

  [[nodiscard]] double priority(const LiveGraph& gr, std::uint32_t v, std::uint32_t settle_limit,
                                std::uint32_t level) {
    shortcuts(gr, v, settle_limit);
    // The depth of the hierarchy below v, plus the shortcuts per edge removed, plus the
    // subgoal-graph edges the shortcuts stand for per those the removed edges stood for (the
    // priority of RoutingKit and of Strasser's GPPC 2014 entry). Against edge difference plus
    // contracted neighbours: queries settle 207 nodes instead of 227 on Aurora, 385 instead of
    // 543 on Boston_0_1024, 158 instead of 197 on random512-10-0.
    double removed_hops = 0, added_hops = 0;
    for (const Edge& e : gr.adj[v]) removed_hops += e.hops;
    for (const auto& [u, e] : added) added_hops += e.hops;
    return static_cast<double>(level) +
           static_cast<double>(added.size()) / (1.0 + static_cast<double>(gr.adj[v].size())) +
           added_hops / (1.0 + removed_hops);
  }
};

/// Runs f(thread, begin, end) over [0, count) split evenly between `threads` threads (this one
/// included): a fixed split, so results gathered per thread come out the same every run.
template <class F>
void split(std::size_t count, unsigned threads, F&& f) {
  if (threads <= 1 || count < 64) {
    f(0u, std::size_t{0}, count);
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    pool.emplace_back([&, t] { f(t, count * t / threads, count * (t + 1) / threads); });
  }
  f(0u, std::size_t{0}, count / threads);
  for (std::thread& th : pool) th.join();
}

std::uint32_t mix(std::uint32_t v) noexcept {  // tie-breaking among equal priorities
  v ^= v >> 16;
  v *= 0x7feb352dU;
  v ^= v >> 15;
  v *= 0x846ca68bU;
  return v ^ (v >> 16);
}

}  // namespace

SubgoalHierarchy SubgoalHierarchy::build(const grid::Grid& g, const BuildLimits& limits) {
  const auto t0 = std::chrono::steady_clock::now();
  SubgoalHierarchy h;
  h.base_ = SubgoalGraph::cells_only(g);
  const auto n = static_cast<std::uint32_t>(h.base_.sg_cell_.size());
  unsigned threads = limits.threads ? limits.threads : std::thread::hardware_concurrency();
  threads = std::clamp(threads, 1u, 8u);
  LiveGraph gr(n);
  {
    const auto pairs = h.base_.direct_pairs();
    for (const auto& [a, b] : pairs) {
      const double cost = octile(h.base_.sg_pos_[a], h.base_.sg_pos_[b]);
      gr.adj[a].push_back({b, kNone, cost});
      gr.adj[b].push_back({a, kNone, cost});
    }
  }
  std::vector<Witness> witness;
  for (unsigned t = 0; t < threads; ++t) witness.emplace_back(n);
  std::vector<double> prio(n, 0);
  std::vector<std::uint32_t> level(n, 0);
  std::size_t degree_sum = 0;
  for (const auto& list : gr.adj) degree_sum += list.size();
  const std::uint32_t estimate_settle =
      n <= kSmallGraph && static_cast<double>(degree_sum) <= kSmallDegree * n ? kEstimateSettle : 0;
  auto evaluate = [&](const std::vector<std::uint32_t>& nodes) {
    split(nodes.size(), threads, [&](unsigned t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        prio[nodes[i]] = witness[t].priority(gr, nodes[i], estimate_settle, level[nodes[i]]);
      }
    });
  };
  std::vector<std::uint32_t> live(n);
  for (std::uint32_t v = 0; v < n; ++v) live[v] = v;
  evaluate(live);

  // Rounds: every live subgoal whose priority beats every other within two hops (and whose
  // degree is within the limit) is contracted at once, the threads sharing the witness
  // searches; a round's subgoals are never neighbours, and their searches avoid each other, so
  // the shortcuts of all of them together are those each needs. The priorities of their
  // neighbours are computed again. Subgoals left when none qualifies form the core, searched
  // without the upward restriction.
  std::vector<std::uint32_t> order, round, dirty;
  order.reserve(n);
  // Upward edges in contraction order (old ids), each subgoal's recorded when it goes.
  std::vector<Edge> up;
  std::vector<std::uint32_t> up_begin{0};
  std::vector<std::vector<std::pair<std::uint32_t, Edge>>> found(threads);
  std::vector<std::uint32_t> dirty_mark(n, 0);
  std::uint32_t dirty_stamp = 0;
  auto least = [&](std::uint32_t v) {
    // The least key within two hops (subgoals kept for the core do not count): fewer subgoals
    // a round than the one-hop rule, closer to the sequential order (Aurora: 25,600 shortcuts
    // instead of 36,900, and 227 nodes settled by a query instead of 312).
    const auto key = std::make_pair(prio[v], mix(v));
    auto beats = [&](std::uint32_t w) {
      return gr.adj[w].size() <= limits.max_degree && std::make_pair(prio[w], mix(w)) < key;
    };
    for (const Edge& e : gr.adj[v]) {
      if (beats(e.to)) return false;
      for (const Edge& f : gr.adj[e.to]) {
        if (f.to != v && beats(f.to)) return false;
      }
    }
    return true;
  };
  while (!live.empty()) {
    round.clear();
    for (const std::uint32_t v : live) {
      if (gr.adj[v].size() <= limits.max_degree && least(v)) round.push_back(v);
    }
    if (round.empty()) break;
    for (const std::uint32_t v : round) gr.state[v] = LiveGraph::kThisRound;
    split(round.size(), threads, [&](unsigned t, std::size_t b, std::size_t e) {
      found[t].clear();
      for (std::size_t i = b; i < e; ++i) {
        witness[t].shortcuts(gr, round[i], kWitnessSettle);
        found[t].insert(found[t].end(), witness[t].added.begin(), witness[t].added.end());
      }
    });
    ++dirty_stamp;
    dirty.clear();
    for (const std::uint32_t v : round) {
      order.push_back(v);
      for (const Edge& e : gr.adj[v]) {
        up.push_back(e);
        gr.remove(e.to, v);
        level[e.to] = std::max(level[e.to], level[v] + 1);
        if (dirty_mark[e.to] != dirty_stamp) {
          dirty_mark[e.to] = dirty_stamp;
          dirty.push_back(e.to);
        }
      }
      up_begin.push_back(static_cast<std::uint32_t>(up.size()));
      std::vector<Edge>().swap(gr.adj[v]);
      gr.state[v] = LiveGraph::kGone;
    }
    for (unsigned t = 0; t < threads; ++t) {
      for (const auto& [u, e] : found[t]) {
        gr.add(u, e);
        gr.add(e.to, Edge{u, e.via, e.cost, e.hops});
      }
      std::vector<std::pair<std::uint32_t, Edge>>().swap(found[t]);
    }
    evaluate(dirty);
    live.erase(std::remove_if(live.begin(), live.end(),
                              [&](std::uint32_t v) { return gr.state[v] == LiveGraph::kGone; }),
               live.end());
  }
  // The core, numbered last: its edges among themselves, each kept by its lower end.
  h.core_begin_ = static_cast<std::uint32_t>(order.size());
  for (const std::uint32_t v : live) order.push_back(v);
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t k = 0; k < n; ++k) rank[order[k]] = k;
  for (const std::uint32_t v : live) {
    for (const Edge& e : gr.adj[v]) {
      if (rank[e.to] > rank[v]) up.push_back(e);
    }
    up_begin.push_back(static_cast<std::uint32_t>(up.size()));
    std::vector<Edge>().swap(gr.adj[v]);
  }
  std::vector<Witness>().swap(witness);
  // Number the subgoals in that order: an upward edge leads to a larger id.
  std::vector<std::uint32_t> cells(n);
  for (std::uint32_t k = 0; k < n; ++k) cells[k] = h.base_.sg_cell_[order[k]];
  h.base_.renumber(std::move(cells));
  h.up_begin_ = std::move(up_begin);
  for (std::uint32_t k = 0; k < n; ++k) {
    const auto first = up.begin() + h.up_begin_[k], last = up.begin() + h.up_begin_[k + 1];
    for (auto it = first; it != last; ++it) {
      it->to = rank[it->to];
      if (it->via != kNone) it->via = rank[it->via];
    }
    std::sort(first, last, [](const Edge& a, const Edge& b) { return a.to < b.to; });
  }
  h.up_to_.resize(up.size());
  h.up_via_.resize(up.size());
  h.up_cost_.resize(up.size());
  for (std::size_t i = 0; i < up.size(); ++i) {
    h.up_to_[i] = up[i].to;
    h.up_via_[i] = up[i].via;
    h.up_cost_[i] = up[i].cost;
  }
  h.index_core();
  h.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

void SubgoalHierarchy::index_core() {
  const auto n = static_cast<std::uint32_t>(base_.sg_cell_.size());
  const std::uint32_t core = n - std::min(core_begin_, n);
  down_begin_.assign(std::size_t{core} + 1, 0);
  for (std::uint32_t u = core_begin_; u < n; ++u) {
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      ++down_begin_[up_to_[e] - core_begin_ + 1];
    }
  }
  for (std::uint32_t k = 0; k < core; ++k) down_begin_[k + 1] += down_begin_[k];
  down_edge_.assign(down_begin_.back(), 0);
  down_from_.assign(down_begin_.back(), 0);
  std::vector<std::uint32_t> at(down_begin_.begin(), down_begin_.end() - 1);
  for (std::uint32_t u = core_begin_; u < n; ++u) {
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      const std::uint32_t k = at[up_to_[e] - core_begin_]++;
      down_edge_[k] = e;
      down_from_[k] = u;
    }
  }
}

std::size_t SubgoalHierarchy::memory_bytes() const noexcept {
  return sizeof(*this) - sizeof(SubgoalGraph) + base_.memory_bytes() +
         (up_begin_.size() + up_to_.size() + up_via_.size() + down_begin_.size() +
          down_edge_.size() + down_from_.size()) *
             sizeof(std::uint32_t) +
         up_cost_.size() * sizeof(double);
}

std::size_t SubgoalHierarchy::shortcut_count() const noexcept {
  return static_cast<std::size_t>(
      std::count_if(up_via_.begin(), up_via_.end(), [](std::uint32_t v) { return v != kNone; }));
}

bool SubgoalHierarchy::consistent() const noexcept {
  const std::size_t n = base_.sg_cell_.size();
  if (up_begin_.size() != n + 1 || up_begin_.front() != 0 || up_begin_.back() != up_to_.size() ||
      up_via_.size() != up_to_.size() || up_cost_.size() != up_to_.size() || core_begin_ > n ||
      down_begin_.size() != n - core_begin_ + 1) {
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
  put(payload, core_begin_);
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
  if (!r.get(n) || !r.get(m) || !r.get(h.core_begin_) || !r.get_vector(cells, n) ||
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
  if (h.core_begin_ > n || h.up_begin_.front() != 0 || h.up_begin_.back() != m ||
      !std::is_sorted(h.up_begin_.begin(), h.up_begin_.end())) {
    return std::nullopt;
  }
  for (std::uint32_t u = 0; u < n; ++u) {  // (index_core relies on edges leading up)
    for (std::uint32_t e = h.up_begin_[u]; e < h.up_begin_[u + 1]; ++e) {
      if (h.up_to_[e] <= u || h.up_to_[e] >= n) return std::nullopt;
    }
  }
  h.index_core();
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
    auto relax = [&](std::uint32_t v, double nd) {
      Side& sv = side_[k][v];
      if (sv.seen == stamp_ && sv.d <= nd) return;
      if (sv.done == stamp_) return;  // (cannot happen with a consistent key; kept safe)
      sv = Side{nd, stamp_, 0, u};
      heap_[k].emplace_back(nd + octile(b.sg_pos_[v], at[1 - k]), v);
      std::push_heap(heap_[k].begin(), heap_[k].end(), kGreater);
    };
    if (u >= h.core_begin_) {
      // In the core every edge is searched, up and down (its labels are exact: no stalling).
      for (std::uint32_t e = first; e < last; ++e) relax(h.up_to_[e], d + h.up_cost_[e]);
      const std::uint32_t c = u - h.core_begin_;
      for (std::uint32_t i = h.down_begin_[c]; i < h.down_begin_[c + 1]; ++i) {
        relax(h.down_from_[i], d + h.up_cost_[h.down_edge_[i]]);
      }
      continue;
    }
    bool stalled = false;
    for (std::uint32_t e = first; e < last && !stalled; ++e) {
      const Side& sv = side_[k][h.up_to_[e]];
      stalled = sv.seen == stamp_ && sv.d + h.up_cost_[e] < d - kEps;
    }
    if (stalled) continue;
    for (std::uint32_t e = first; e < last; ++e) relax(h.up_to_[e], d + h.up_cost_[e]);
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
