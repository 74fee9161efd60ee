// The contraction hierarchy over the simple subgoal graph (subgoal_ch.hpp): contraction,
// upward bidirectional queries, unpacking.
#include "subgoal_ch.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <unordered_map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <pathlab/core/portable.hpp>

#include "cell_buckets.hpp"
#include "landmarks.hpp"

namespace pathlab::search::detail {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kEps = 1e-9;
constexpr std::uint32_t kNone = SubgoalHierarchy::kNone;
/// Nodes one witness search may settle; past it, the shortcut is added (always correct).
constexpr std::uint32_t kWitnessSettle = 400;
/// Up to this many subgoals, the witness searches of a build are A* toward their targets
/// (32 MiB of positions at most); past it, Dijkstra's (memory first on huge maps).
constexpr std::uint32_t kGuidedNodes = std::uint32_t{1} << 22;
/// A repair's witness search with at most this many targets is an A* toward them.
constexpr std::size_t kAimedTargets = 8;
/// Up to this many subgoals of at most this many neighbours on average, priorities are
/// estimated with witness searches of this many settled nodes (a better order: Aurora's
/// queries settle 227 nodes instead of 389); otherwise from the pairs of neighbours no edge
/// joins, five to ten times faster to build on the random and city maps (Boston_0_1024: 28 s
/// instead of 134 s).
constexpr std::uint32_t kSmallGraph = 32768;
constexpr std::uint32_t kEstimateSettle = 100;
constexpr double kSmallDegree = 32;
/// ... and while one pass of those estimates stays cheap: a subgoal's estimate runs a witness
/// search from each neighbour, so a pass costs about the sum of the squared degrees, and every
/// contraction round estimates the neighbours of its subgoals again (Aurora: 230,000 estimates,
/// 40 of its 45 s of contraction, which then stopped at the time budget with 3,000 subgoals
/// left in the core). Past this sum (Aurora's is 15.9 million; the other shared maps that
/// qualify have at most 1.1 million) the cheap estimate builds Aurora fully in 3.6 s, its
/// queries settling 262 nodes instead of 226 with witness estimates (21 s to build with
/// re-estimates of 30 settled nodes).
constexpr double kEstimateWork = 2e6;

double octile(Cell a, Cell b) noexcept {
  const std::int32_t ax = a.x < b.x ? b.x - a.x : a.x - b.x;
  const std::int32_t ay = a.y < b.y ? b.y - a.y : a.y - b.y;
  const std::int32_t lo = std::min(ax, ay), hi = std::max(ax, ay);
  return static_cast<double>(hi - lo) + static_cast<double>(lo) * kSqrt2;
}

using Entry = std::pair<double, std::uint32_t>;
constexpr auto kGreater = [](const Entry& a, const Entry& b) { return a.first > b.first; };

struct Edge {  // 20 bytes, 4-aligned: a 4096x4096 random map starts contraction with 26 million
  std::uint32_t to = 0;
  std::uint32_t via = kNone;            // a shortcut's middle subgoal, or kNone
  std::uint32_t cost_bits[2] = {0, 0};  // the cost, a double kept in two words (see cost())
  std::uint32_t hops = 1;               // edges of the subgoal graph it stands for

  Edge() = default;
  Edge(std::uint32_t to_, std::uint32_t via_, double cost_, std::uint32_t hops_ = 1) noexcept
      : to(to_), via(via_), hops(hops_) {
    std::memcpy(cost_bits, &cost_, sizeof cost_);
  }
  [[nodiscard]] double cost() const noexcept {
    double c;
    std::memcpy(&c, cost_bits, sizeof c);
    return c;
  }
};
static_assert(sizeof(Edge) == 20);

/// The graph being contracted: each live subgoal's edges to live subgoals (kept clean as
/// subgoals go), all in one pool. A list that outgrows its room moves to the pool's end; the
/// pool is compacted when an eighth of it is garbage (a quarter, when a list must move), and grows
/// or shrinks with realloc (a large block is remapped, not copied). Read-only while the threads of
/// a round compute.
class LiveGraph {
 public:
  enum : std::uint8_t { kLive = 0, kGone = 1, kThisRound = 2 };
  std::vector<std::uint8_t> state;

  struct Range {
    const Edge* first;
    const Edge* last;
    [[nodiscard]] const Edge* begin() const noexcept { return first; }
    [[nodiscard]] const Edge* end() const noexcept { return last; }
    [[nodiscard]] std::size_t size() const noexcept {
      return static_cast<std::size_t>(last - first);
    }
    const Edge& operator[](std::size_t i) const noexcept { return first[i]; }
  };

  /// The subgoal graph's edges (each pair in both lists), costing the octile distance.
  LiveGraph(const SubgoalGraph::Adjacency& a, const std::vector<Cell>& pos)
      : state(pos.size(), kLive), span_(pos.size()) {
    const std::size_t n = pos.size();
    std::uint64_t total = 0;
    for (std::size_t v = 0; v < n; ++v) {
      const auto deg = static_cast<std::uint32_t>(a.begin[v + 1] - a.begin[v]);
      span_[v] = Span{static_cast<std::uint32_t>(total), deg, deg};
      total += deg;
    }
    resize(total);
    used_ = total;
    for (std::size_t v = 0; v < n; ++v) {
      Edge* out = pool_ + span_[v].begin;
      for (std::uint64_t k = a.begin[v]; k < a.begin[v + 1]; ++k) {
        *out++ = Edge{a.to[k], kNone, octile(pos[v], pos[a.to[k]]), 1};
      }
    }
  }
  LiveGraph(const LiveGraph&) = delete;
  LiveGraph& operator=(const LiveGraph&) = delete;
  ~LiveGraph() { std::free(pool_); }

  [[nodiscard]] Range adj(std::uint32_t v) const noexcept {
    const Edge* first = pool_ + span_[v].begin;
    return Range{first, first + span_[v].size};
  }
  [[nodiscard]] std::uint32_t degree(std::uint32_t v) const noexcept { return span_[v].size; }

  /// Adds or lowers the edge u -> e.to.
  void add(std::uint32_t u, const Edge& e) {
    Span& s = span_[u];
    for (Edge* x = pool_ + s.begin; x != pool_ + s.begin + s.size; ++x) {
      if (x->to == e.to) {
        if (e.cost() < x->cost() - kEps) *x = e;
        return;
      }
    }
    if (s.size == s.cap) move_to_end(u, std::max<std::uint32_t>(4, s.cap + s.cap / 2));
    pool_[span_[u].begin + span_[u].size++] = e;
  }
  void remove(std::uint32_t u, std::uint32_t w) noexcept {
    Span& s = span_[u];
    Edge* first = pool_ + s.begin;
    for (std::uint32_t i = 0; i < s.size; ++i) {
      if (first[i].to == w) {
        first[i] = first[--s.size];
        return;
      }
    }
  }
  /// Drops v's list (v has left the graph).
  void release(std::uint32_t v) noexcept {
    garbage_ += span_[v].cap;
    span_[v].size = span_[v].cap = 0;
  }
  /// Keeps only the edges of v whose far end satisfies keep.
  template <class Keep>
  void keep_if(std::uint32_t v, Keep&& keep) {
    Span& s = span_[v];
    Edge* first = pool_ + s.begin;
    for (std::uint32_t i = 0; i < s.size;) {
      if (keep(first[i].to)) {
        ++i;
      } else {
        first[i] = first[--s.size];
      }
    }
  }
  /// Moves every list down over the garbage and gives back the rest, leaving no room to grow.
  void shrink() { compact(true); }
  /// Bytes the live edges and each subgoal's span take (the pool's free room aside).
  [[nodiscard]] std::size_t bytes() const noexcept {
    return (used_ - garbage_) * sizeof(Edge) + span_.size() * sizeof(Span);
  }
  /// Compacts the pool when an eighth of it is garbage (between rounds): memory goes back as
  /// subgoals go.
  void tidy() {
    if (garbage_ * 8 > capacity_) compact();
  }

 private:
  struct Span {  // 12 bytes: a pool never holds 2^32 edges (resize() refuses)
    std::uint32_t begin, size, cap;
  };
  std::vector<Span> span_;
  Edge* pool_ = nullptr;
  std::uint64_t capacity_ = 0, used_ = 0, garbage_ = 0;

  void resize(std::uint64_t cap) {
    if (cap > std::numeric_limits<std::uint32_t>::max()) throw std::bad_alloc();
    void* p = std::realloc(pool_, std::max<std::uint64_t>(cap, 1) * sizeof(Edge));
    if (p == nullptr) throw std::bad_alloc();
    pool_ = static_cast<Edge*>(p);
    capacity_ = cap;
  }
  void move_to_end(std::uint32_t u, std::uint32_t cap) {
    if (used_ + cap > capacity_) {
      if (garbage_ * 4 > capacity_) compact();
      if (used_ + cap > capacity_) resize(std::max(used_ + cap, capacity_ + capacity_ / 8));
    }
    Span& s = span_[u];
    std::copy(pool_ + s.begin, pool_ + s.begin + s.size, pool_ + used_);
    garbage_ += s.cap;
    s.begin = static_cast<std::uint32_t>(used_);
    s.cap = cap;
    used_ += cap;
  }
  /// Moves every list down over the garbage, in pool order, each with at most its room (so
  /// it never overtakes the next), then gives back what is left beyond an eighth's slack (or
  /// all of it, tight: each list then has no room left).
  void compact(bool tight = false) {
    std::vector<std::uint32_t> lists;
    for (std::uint32_t v = 0; v < span_.size(); ++v) {
      if (span_[v].cap > 0) lists.push_back(v);
    }
    std::sort(lists.begin(), lists.end(),
              [&](std::uint32_t a, std::uint32_t b) { return span_[a].begin < span_[b].begin; });
    std::uint64_t at = 0;
    for (const std::uint32_t v : lists) {
      Span& s = span_[v];
      if (s.size > 0) std::memmove(pool_ + at, pool_ + s.begin, s.size * sizeof(Edge));
      s.begin = static_cast<std::uint32_t>(at);
      s.cap = tight ? s.size : std::min(s.cap, s.size + s.size / 2 + 2);
      at += s.cap;
    }
    used_ = at;
    garbage_ = 0;
    resize(tight ? used_ : used_ + used_ / 8);
  }
};

/// One thread's witness searches over a LiveGraph. Their state is an array over all subgoals
/// (dense: the fastest while it fits the caches) or, past BuildLimits::dense_nodes, a small hash
/// table of the nodes one search touches (a 4096x4096 random map has 5.5 million subgoals: 130
/// MB a thread less, and a table that stays in cache).
struct alignas(64) Witness {  // (a cache line of its own: threads write their own often)
  struct Slot {               // 16 bytes
    double dist = 0;
    std::uint32_t reached = 0;  // dist valid when == stamp
    std::uint32_t target = 0;   // a pair still looking for a witness when == stamp
  };
  std::vector<Slot> table;
  std::vector<std::uint32_t> key;  // hash table: the node of each slot, or kNone
  bool dense;
  std::vector<std::uint32_t> used;  // occupied slots (hash table)
  std::uint32_t stamp = 0;
  struct Item {
    double f, g;  // key (cost so far plus heuristic), cost so far
    std::uint32_t node;
  };
  static constexpr auto kLater = [](const Item& a, const Item& b) { return a.f > b.f; };
  std::vector<Item> heap;
  const std::vector<Cell>* pos;  // each subgoal's cell
  // A search's targets: their cells, ids and edge costs to the subgoal contracted (0 once
  // settled).
  std::vector<Cell> goals;
  std::vector<std::uint32_t> goal_node;
  std::vector<double> goal_cost;
  std::vector<std::uint32_t> open_node;  // the neighbours of v that one hop leaves open
  /// The shortcuts of the last shortcuts() call: (u, edge u -> w), each pair once.
  std::vector<std::pair<std::uint32_t, Edge>> added;

  Witness(std::size_t n, bool use_arrays, const std::vector<Cell>& cells)
      : table(use_arrays ? n : 1024),
        key(use_arrays ? 0 : 1024, kNone),
        dense(use_arrays),
        pos(&cells) {}

  [[nodiscard]] std::size_t slot_of(std::uint32_t v) const noexcept {
    return (static_cast<std::size_t>(v) * 0x9E3779B1u >> 7) & (table.size() - 1);
  }
  /// v's slot, made when missing (the hash table's ways kept out of line: the dense case is
  /// the hot loop of small maps' contraction).
  [[gnu::always_inline]] Slot& at(std::uint32_t v) { return dense ? table[v] : hashed_at(v); }
  [[nodiscard, gnu::always_inline]] const Slot* find(std::uint32_t v) const noexcept {
    return dense ? &table[v] : hashed_find(v);
  }
  [[gnu::noinline]] Slot& hashed_at(std::uint32_t v) {
    for (std::size_t i = slot_of(v);; i = (i + 1) & (table.size() - 1)) {
      if (key[i] == v) return table[i];
      if (key[i] == kNone) {
        if (2 * (used.size() + 1) > table.size()) {
          grow();
          return hashed_at(v);
        }
        key[i] = v;
        used.push_back(static_cast<std::uint32_t>(i));
        return table[i];
      }
    }
  }
  [[gnu::noinline]] const Slot* hashed_find(std::uint32_t v) const noexcept {
    for (std::size_t i = slot_of(v);; i = (i + 1) & (table.size() - 1)) {
      if (key[i] == v) return &table[i];
      if (key[i] == kNone) return nullptr;
    }
  }
  void grow() {
    std::vector<Slot> old(table.size() * 2);
    std::vector<std::uint32_t> old_key(key.size() * 2, kNone);
    old.swap(table);
    old_key.swap(key);
    used.clear();
    for (std::size_t i = 0; i < old.size(); ++i) {
      if (old_key[i] != kNone) hashed_at(old_key[i]) = old[i];
    }
  }
  /// Forgets the hash table's nodes (dense arrays need not: the stamps tell).
  void clear() {
    for (const std::uint32_t i : used) {
      table[i] = Slot{};
      key[i] = kNone;
    }
    used.clear();
  }
  void next_stamp() {
    if (++stamp == 0) {
      if (dense) std::fill(table.begin(), table.end(), Slot{});
      clear();
      stamp = 1;
    }
  }

  /// A* from u over live subgoals but `avoid`, toward the targets in `goal_node` (marked
  /// target == stamp; the heuristic bounds the octile distance to the nearest of them, and is
  /// consistent; Dijkstra when the positions are not kept), until each target is reached within
  /// `base` plus its cost in `goal_cost` (its cost through v: a witness; its mark is then
  /// cleared) or settled, or `settle_limit` nodes are, or no way left can reach a target within
  /// that. Afterwards a target still marked has a witness if reached == stamp and dist is
  /// within its cost through v.
  [[gnu::noinline]] void search(const LiveGraph& gr, std::uint32_t u, std::uint32_t avoid,
                                double base, std::uint32_t settle_limit) {
    double limit = base + *std::max_element(goal_cost.begin(), goal_cost.end());
    std::size_t targets = goal_node.size();
    auto index_of = [&](std::uint32_t node) {
      return static_cast<std::size_t>(std::find(goal_node.begin(), goal_node.end(), node) -
                                      goal_node.begin());
    };
    // A target is done: the search bound shrinks to the targets still open.
    auto done = [&](std::uint32_t node) {
      goal_cost[index_of(node)] = 0;
      limit = base + *std::max_element(goal_cost.begin(), goal_cost.end());
      return --targets == 0;
    };
    heap.clear();
    {
      Slot& x = at(u);
      x.reached = stamp;
      x.dist = 0;
    }
    heap.push_back(Item{to_goal(u), 0, u});
    std::uint32_t settled = 0;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), kLater);
      const Item top = heap.back();
      heap.pop_back();
      const Slot& sx = *find(top.node);
      if (top.g > sx.dist) continue;
      if (top.f > limit || ++settled > settle_limit) return;
      if (sx.target == stamp && done(top.node)) return;
      for (const Edge& e : gr.adj(top.node)) {
        if (gr.state[e.to] != LiveGraph::kLive || e.to == avoid) continue;
        const double nd = top.g + e.cost();
        if (nd > limit + kEps) continue;
        Slot& sy = at(e.to);
        if (sy.reached == stamp && sy.dist <= nd) continue;
        sy.reached = stamp;
        sy.dist = nd;
        if (sy.target == stamp && nd <= base + goal_cost[index_of(e.to)] + kEps) {
          sy.target = 0;  // a witness: no need to settle it
          if (done(e.to)) return;
          continue;
        }
        const double f = nd + to_goal(e.to);
        if (f > limit + kEps) continue;
        heap.push_back(Item{f, nd, e.to});
        std::push_heap(heap.begin(), heap.end(), kLater);
      }
    }
  }
  /// The heuristic: a lower bound of the octile distance from subgoal x to the nearest goal
  /// cell, in integers (diagonal steps cost 1 + 424/1024 < sqrt 2, which keeps it a distance
  /// and so consistent). The octile distance itself, in doubles, made the search a third
  /// slower: its minimum over a dozen goals is a chain of dependent float operations.
  [[nodiscard]] double to_goal(std::uint32_t x) const noexcept {
    if (goals.empty()) return 0;  // (no positions: Dijkstra)
    const Cell at_x = (*pos)[x];
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (const Cell c : goals) {
      const std::int64_t dx = std::abs(static_cast<std::int64_t>(at_x.x) - c.x);
      const std::int64_t dy = std::abs(static_cast<std::int64_t>(at_x.y) - c.y);
      best = std::min(best, std::max(dx, dy) * 1024 + std::min(dx, dy) * 424);
    }
    return static_cast<double>(best) * (1.0 / 1024);
  }

  /// The shortcuts v's contraction needs, into `added`: a pair of v's neighbours whose
  /// shortest way needs v (no witness as short avoiding v and this round's other subgoals).
  void shortcuts(const LiveGraph& gr, std::uint32_t v, std::uint32_t settle_limit) {
    added.clear();
    for (std::size_t i = 0; i + 1 < gr.degree(v); ++i) shortcuts_from(gr, v, i, settle_limit);
  }
  /// Those of the pairs of v's i-th neighbour with the later ones, appended to `added` (a
  /// piece of work of its own: the threads share a round's pieces, a late round contracting
  /// one or two subgoals of 50 neighbours).
  [[gnu::noinline]] void shortcuts_from(const LiveGraph& gr, std::uint32_t v, std::size_t i,
                                        std::uint32_t settle_limit) {
    const LiveGraph::Range around = gr.adj(v);
    const Edge& a = around[i];
    if (!dense) clear();
    next_stamp();
    // One hop first: on open maps most neighbours of v see each other, and an edge u-w costs
    // at most the way through v (octile distances obey the triangle inequality). The witness
    // search runs only for the pairs that leaves open.
    for (const Edge& e : gr.adj(a.to)) {
      if (gr.state[e.to] != LiveGraph::kLive) continue;
      Slot& x = at(e.to);
      x.reached = stamp;
      x.dist = e.cost();
    }
    const std::uint32_t one_hop = stamp;
    open_node.clear();
    for (std::size_t j = i + 1; j < around.size(); ++j) {
      const Edge& b = around[j];
      const Slot* x = find(b.to);
      if (x != nullptr && x->reached == one_hop && x->dist <= a.cost() + b.cost() + kEps) continue;
      if (settle_limit > 0 && two_hops(gr, v, b, a.cost() + b.cost(), one_hop)) continue;
      open_node.push_back(static_cast<std::uint32_t>(j));
    }
    if (open_node.empty()) return;
    // With positions, one A* per pair left open: each heads straight for its target (against
    // one search for them all, whose heuristic is the nearest target's, Boston_0_1024 builds
    // in 9 s instead of 11). Without, one Dijkstra for them all.
    const bool each = !pos->empty();
    for (std::size_t k = 0; k < open_node.size();) {
      const std::size_t end = each ? k + 1 : open_node.size();
      if (!dense) clear();
      next_stamp();
      goals.clear();
      goal_node.clear();
      goal_cost.clear();
      for (std::size_t q = k; q < end; ++q) {
        const Edge& b = around[open_node[q]];
        at(b.to).target = stamp;
        if (each) goals.push_back((*pos)[b.to]);
        goal_node.push_back(b.to);
        goal_cost.push_back(b.cost());
      }
      // (With no node to settle, every pair left open needs its shortcut.)
      if (settle_limit > 0) search(gr, a.to, v, a.cost(), settle_limit);
      for (; k < end; ++k) {
        const Edge& b = around[open_node[k]];
        const Slot* x = find(b.to);
        if (x->target != stamp) continue;  // a witness was found
        const double through = a.cost() + b.cost();
        if (x->reached == stamp && x->dist <= through + kEps) continue;
        added.push_back({a.to, Edge{b.to, v, through, a.hops + b.hops}});
      }
    }
  }

  /// Whether a way of two edges a - y - b (y a live subgoal but v, a's edge marked one_hop)
  /// costs at most `through`: a witness found without a search.
  [[nodiscard]] bool two_hops(const LiveGraph& gr, std::uint32_t v, const Edge& b, double through,
                              std::uint32_t one_hop) const noexcept {
    for (const Edge& e : gr.adj(b.to)) {
      if (e.to == v) continue;
      const Slot* y = find(e.to);
      if (y != nullptr && y->reached == one_hop && y->dist + e.cost() <= through + kEps)
        return true;
    }
    return false;
  }

  [[nodiscard]] double priority(const LiveGraph& gr, std::uint32_t v, std::uint32_t settle_limit,
                                std::uint32_t level) {
    if (settle_limit == 0) return estimate(gr, v, level);
    shortcuts(gr, v, settle_limit);
    // The depth of the hierarchy below v, plus the shortcuts per edge removed, plus the
    // subgoal-graph edges the shortcuts stand for per those the removed edges stood for (the
    // priority of RoutingKit and of Strasser's GPPC 2014 entry). Against edge difference plus
    // contracted neighbours: queries settle 207 nodes instead of 227 on Aurora, 385 instead of
    // 543 on Boston_0_1024, 158 instead of 197 on random512-10-0.
    double removed_hops = 0, added_hops = 0;
    for (const Edge& e : gr.adj(v)) removed_hops += e.hops;
    for (const auto& [u, e] : added) added_hops += e.hops;
    return static_cast<double>(level) +
           static_cast<double>(added.size()) / (1.0 + static_cast<double>(gr.degree(v))) +
           added_hops / (1.0 + removed_hops);
  }
  /// priority() with no witness search: every pair of v's neighbours that no edge serves
  /// counts as a shortcut. Counted from the pairs an edge serves, found by walking each
  /// neighbour's edges once (each pair's check took a third of Boston_0_1024's build).
  [[nodiscard]] double estimate(const LiveGraph& gr, std::uint32_t v, std::uint32_t level) {
    const LiveGraph::Range around = gr.adj(v);
    const std::size_t d = around.size();
    if (!dense) clear();
    next_stamp();
    double removed_hops = 0;
    for (std::size_t j = 0; j < d; ++j) {
      Slot& x = at(around[j].to);
      x.target = stamp;
      x.dist = static_cast<double>(j);  // (here: the neighbour's index; reached stays stale)
      removed_hops += around[j].hops;
    }
    std::size_t served = 0;
    double served_hops = 0;
    for (std::size_t i = 0; i < d; ++i) {
      const Edge& a = around[i];
      for (const Edge& e : gr.adj(a.to)) {
        const Slot* x = find(e.to);
        if (x == nullptr || x->target != stamp || x->dist <= static_cast<double>(i)) continue;
        const Edge& b = around[static_cast<std::size_t>(x->dist)];
        if (e.cost() <= a.cost() + b.cost() + kEps) {
          ++served;
          served_hops += a.hops + b.hops;
        }
      }
    }
    // Each neighbour's hops count in d - 1 pairs.
    const double shortcuts = static_cast<double>(d * (d > 0 ? d - 1 : 0) / 2 - served);
    const double added_hops = static_cast<double>(d > 0 ? d - 1 : 0) * removed_hops - served_hops;
    return static_cast<double>(level) + shortcuts / (1.0 + static_cast<double>(d)) +
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

/// Runs f(thread, i) for every i in [0, count), the threads taking small batches as they go:
/// for work whose result does not depend on which thread does it (priorities), where a fixed
/// split leaves one thread idle while the other finishes the slow half.
template <class F>
void share(std::size_t count, unsigned threads, F&& f) {
  constexpr std::size_t kBatch = 8;
  std::atomic<std::size_t> next{0};
  auto work = [&](unsigned t) {
    for (;;) {
      const std::size_t b = next.fetch_add(kBatch, std::memory_order_relaxed);
      if (b >= count) return;
      for (std::size_t i = b; i < std::min(count, b + kBatch); ++i) f(t, i);
    }
  };
  if (threads <= 1 || count <= kBatch) {
    work(0);
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& th : pool) th.join();
}

std::uint32_t mix(std::uint32_t v) noexcept {  // tie-breaking among equal priorities
  v ^= v >> 16;
  v *= 0x7feb352dU;
  v ^= v >> 15;
  v *= 0x846ca68bU;
  return v ^ (v >> 16);
}

struct UpEdge {
  std::uint32_t to;
  std::uint32_t via;
  double cost;
};

/// The upward edges while contracting: in chunks of 64 MiB, so it grows without copying
/// and gives each chunk back once read (release_before).
class UpEdges {
 public:
  void push_back(const UpEdge& e) {
    if (size_ == chunks_.size() * kChunk) chunks_.emplace_back(new UpEdge[kChunk]);
    chunks_[size_ / kChunk][size_ % kChunk] = e;
    ++size_;
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  const UpEdge& operator[](std::size_t i) const noexcept { return chunks_[i / kChunk][i % kChunk]; }
  /// Frees the chunks wholly before edge i.
  void release_before(std::size_t i) noexcept {
    for (std::size_t c = 0; c < i / kChunk && c < chunks_.size(); ++c) chunks_[c].reset();
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 22;
  std::vector<std::unique_ptr<UpEdge[]>> chunks_;
  std::size_t size_ = 0;
};

/// Returns freed heap pages to the system (the contraction's many small lists), where the C
/// library can.
void give_back_memory() noexcept {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

SubgoalHierarchy SubgoalHierarchy::build(const grid::Grid& g, const BuildLimits& limits) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  SubgoalHierarchy h;
  h.base_ = SubgoalGraph::cells_only(g);
  const auto n = static_cast<std::uint32_t>(h.base_.sg_cell_.size());
  unsigned threads = limits.threads ? limits.threads : std::thread::hardware_concurrency();
  threads = std::clamp(threads, 1u, 8u);
  // The per-cell tables are not needed again until the end: they go while contracting.
  std::optional<LiveGraph> live_graph;
  {
    const SubgoalGraph::Adjacency pairs = h.base_.direct_adjacency(threads);
    h.base_.drop_cells();
    live_graph.emplace(pairs, h.base_.sg_pos_);
  }
  // Nor the subgoals' cells (subgoal i is the i-th convex corner in cell order:
  // subgoal_cells() gives them again). Their positions guide the witness searches, but past
  // kGuidedNodes subgoals memory comes first: there the searches are Dijkstra's (the 4096x4096
  // random map's 5.5 million positions took its peak over 1 GiB).
  std::vector<std::uint32_t>().swap(h.base_.sg_cell_);
  std::vector<Cell> pos;
  if (n <= kGuidedNodes) pos = std::move(h.base_.sg_pos_);
  std::vector<Cell>().swap(h.base_.sg_pos_);
  LiveGraph& gr = *live_graph;
  std::vector<Witness> witness;
  for (unsigned t = 0; t < threads; ++t) witness.emplace_back(n, n <= limits.dense_nodes, pos);
  std::vector<double> prio(n, 0);
  std::vector<std::uint16_t> level(n, 0);  // depth below each subgoal (saturating)
  std::size_t degree_sum = 0;
  double degree_squares = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    degree_sum += gr.degree(v);
    degree_squares += static_cast<double>(gr.degree(v)) * static_cast<double>(gr.degree(v));
  }
  const std::uint32_t estimate_settle =
      n <= kSmallGraph && static_cast<double>(degree_sum) <= kSmallDegree * n &&
              degree_squares <= kEstimateWork
          ? kEstimateSettle
          : 0;
  auto evaluate = [&](const std::vector<std::uint32_t>& nodes) {
    share(nodes.size(), threads, [&](unsigned t, std::size_t i) {
      prio[nodes[i]] = witness[t].priority(gr, nodes[i], estimate_settle, level[nodes[i]]);
    });
  };
  std::vector<std::uint32_t> live(n);
  for (std::uint32_t v = 0; v < n; ++v) live[v] = v;
  evaluate(live);

  // Rounds: every live subgoal whose priority beats every other within two hops (and whose
  // degree is within the limit) is contracted at once, the threads sharing the witness
  // searches; a round's subgoals are never neighbours, and their searches avoid each other, so
  // the shortcuts of all of them together are those each needs. The priorities of their
  // neighbours are computed again. Subgoals left when none qualifies, or when the time budget
  // is spent, form the core, searched without the upward restriction.
  std::vector<std::uint32_t> order, round, dirty;
  std::vector<std::uint32_t> first_task;
  order.reserve(n);
  // Upward edges in contraction order (old ids), each subgoal's recorded when it goes.
  UpEdges up;
  std::vector<std::uint32_t> up_begin{0};
  struct Found {
    std::uint32_t index;  // of the piece of work that found it
    std::uint32_t u;
    Edge e;
  };
  struct alignas(64) FoundList {  // one cache line each: the threads append to theirs
    std::vector<Found> list;
  };
  std::vector<FoundList> found(threads);
  // A subgoal is contracted in a round when its key (priority, then a hash) is the least of
  // every subgoal within two hops (subgoals kept for the core do not count): fewer subgoals a
  // round than the one-hop rule, closer to the sequential order (Aurora: 25,600 shortcuts
  // instead of 36,900, and 227 nodes settled by a query instead of 312). Found in two passes
  // over the edges: each subgoal's least key among itself and its neighbours, then the
  // subgoals that are that least for themselves and all their neighbours.
  std::vector<std::uint32_t> least1(n, kNone);
  auto eligible = [&](std::uint32_t v) { return gr.degree(v) <= limits.max_degree; };
  auto less = [&](std::uint32_t a, std::uint32_t b) {
    return prio[a] < prio[b] || (prio[a] == prio[b] && mix(a) < mix(b));
  };
  std::vector<std::vector<std::uint32_t>> picked(threads);
  // The contraction's own arrays, a subgoal each (prio, level, least1, live, order, state).
  const std::size_t per_node =
      n * (sizeof(decltype(prio)::value_type) + sizeof(decltype(level)::value_type) +
           sizeof(decltype(least1)::value_type) + sizeof(decltype(live)::value_type) +
           sizeof(decltype(order)::value_type) + sizeof(decltype(gr.state)::value_type));
  while (!live.empty() && elapsed() < limits.seconds &&
         gr.bytes() + up.size() * sizeof(UpEdge) + per_node < limits.max_bytes) {
    split(live.size(), threads, [&](unsigned, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const std::uint32_t v = live[i];
        std::uint32_t m = eligible(v) ? v : kNone;
        for (const Edge& x : gr.adj(v)) {
          if (eligible(x.to) && (m == kNone || less(x.to, m))) m = x.to;
        }
        least1[v] = m;
      }
    });
    for (auto& list : picked) list.clear();
    split(live.size(), threads, [&](unsigned t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        const std::uint32_t v = live[i];
        if (least1[v] != v) continue;
        bool least = true;
        for (const Edge& x : gr.adj(v)) least = least && least1[x.to] == v;
        if (least) picked[t].push_back(v);
      }
    });
    round.clear();
    for (const auto& list : picked) round.insert(round.end(), list.begin(), list.end());
    if (round.empty()) break;
    for (const std::uint32_t v : round) gr.state[v] = LiveGraph::kThisRound;
    // The pieces of work are (subgoal, neighbour) pairs, the threads taking them as they go:
    // each of the round's subgoals' neighbours but its last, in the round's order (subgoal k's
    // from first_task[k]). The shortcuts are then applied in that order, whichever thread found
    // them (the hierarchy is the same every run).
    for (auto& f : found) f.list.clear();
    first_task.assign(1, 0);
    for (const std::uint32_t v : round) {
      first_task.push_back(first_task.back() + std::max<std::uint32_t>(gr.degree(v), 1) - 1);
    }
    share(first_task.back(), threads, [&](unsigned t, std::size_t i) {
      const auto k = static_cast<std::size_t>(
          std::upper_bound(first_task.begin(), first_task.end(), i) - first_task.begin() - 1);
      Witness& w = witness[t];
      w.added.clear();
      w.shortcuts_from(gr, round[k], i - first_task[k], kWitnessSettle);
      for (const auto& [u, e] : w.added) {
        found[t].list.push_back(Found{static_cast<std::uint32_t>(i), u, e});
      }
    });
    dirty.clear();
    for (const std::uint32_t v : round) {
      order.push_back(v);
      for (const Edge& e : gr.adj(v)) {
        up.push_back(UpEdge{e.to, e.via, e.cost()});
        gr.remove(e.to, v);
        level[e.to] = std::max(
            level[e.to], static_cast<std::uint16_t>(std::min<std::uint32_t>(level[v] + 1, 0xffff)));
        dirty.push_back(e.to);
      }
      up_begin.push_back(static_cast<std::uint32_t>(up.size()));
      gr.release(v);
      gr.state[v] = LiveGraph::kGone;
    }
    // Each thread's list is in the round's order (it takes its batches in turn): they are
    // applied merged, without a merged copy (late rounds of a huge map add millions).
    {
      std::vector<std::size_t> at(threads, 0);
      for (;;) {
        unsigned pick = threads;
        for (unsigned t = 0; t < threads; ++t) {
          if (at[t] < found[t].list.size() &&
              (pick == threads || found[t].list[at[t]].index < found[pick].list[at[pick]].index)) {
            pick = t;
          }
        }
        if (pick == threads) break;
        const Found& f = found[pick].list[at[pick]++];
        gr.add(f.u, f.e);
        gr.add(f.e.to, Edge{f.u, f.e.via, f.e.cost(), f.e.hops});
      }
      for (auto& f : found) std::vector<Found>().swap(f.list);
    }
    gr.tidy();
    std::sort(dirty.begin(), dirty.end());
    dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
    evaluate(dirty);
    live.erase(std::remove_if(live.begin(), live.end(),
                              [&](std::uint32_t v) { return gr.state[v] == LiveGraph::kGone; }),
               live.end());
  }
  std::vector<Witness>().swap(witness);
  std::vector<Cell>().swap(pos);
  std::vector<double>().swap(prio);
  std::vector<std::uint32_t>().swap(least1);
  // The core, numbered last: its edges among themselves, each kept by its lower end.
  h.core_begin_ = static_cast<std::uint32_t>(order.size());
  for (const std::uint32_t v : live) order.push_back(v);
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t k = 0; k < n; ++k) rank[order[k]] = k;
  // Each core edge is in both its ends' lists: the copy at the upper end goes first and the
  // pool shrinks, so the upward edges grow into memory the pool gave back (on a huge map the
  // core holds millions of edges: this was the build's peak).
  for (const std::uint32_t v : live) {
    gr.keep_if(v, [&](std::uint32_t to) { return rank[to] > rank[v]; });
  }
  gr.shrink();
  for (const std::uint32_t v : live) {
    for (const Edge& e : gr.adj(v)) up.push_back(UpEdge{e.to, e.via, e.cost()});
    up_begin.push_back(static_cast<std::uint32_t>(up.size()));
  }
  live_graph.reset();
  std::vector<std::uint16_t>().swap(level);
  std::vector<std::uint32_t>().swap(live);
  give_back_memory();
  // Number the subgoals in that order (an upward edge leads to a larger id), each subgoal's
  // edges sorted by their upper end; the chunks of `up` go as they are read.
  h.up_begin_ = std::move(up_begin);
  const std::size_t m = up.size();
  h.up_to_.resize(m);
  h.up_via_.resize(m);
  h.up_cost_.resize(m);
  std::vector<UpEdge> list;
  for (std::uint32_t k = 0; k < n; ++k) {
    list.clear();
    for (std::uint32_t i = h.up_begin_[k]; i < h.up_begin_[k + 1]; ++i) {
      UpEdge e = up[i];
      e.to = rank[e.to];
      if (e.via != kNone) e.via = rank[e.via];
      list.push_back(e);
    }
    up.release_before(h.up_begin_[k + 1]);
    std::sort(list.begin(), list.end(),
              [](const UpEdge& a, const UpEdge& b) { return a.to < b.to; });
    std::uint32_t i = h.up_begin_[k];
    for (const UpEdge& e : list) {
      h.up_to_[i] = e.to;
      h.up_via_[i] = e.via;
      h.up_cost_[i] = e.cost;
      ++i;
    }
  }
  {
    std::vector<std::uint32_t> cells(n);
    const std::vector<std::uint32_t> corners = SubgoalGraph::subgoal_cells(g);
    for (std::uint32_t k = 0; k < n; ++k) cells[k] = corners[order[k]];
    h.base_.sg_cell_ = std::move(cells);
  }
  std::vector<std::uint32_t>().swap(order);
  std::vector<std::uint32_t>().swap(rank);
  h.base_.restore_cells(g);
  h.index_core();
  h.index_marks(g, limits.landmarks);
  h.build_seconds = elapsed();
  return h;
}

void SubgoalHierarchy::drop_marks() noexcept {
  marks_k_ = 0;
  marks_.reset();
  std::vector<std::int32_t>().swap(mark_d_);
}

void SubgoalHierarchy::index_marks(const grid::Grid& g, int want) {
  drop_marks();
  const std::size_t n = base_.sg_cell_.size();
  want = std::min({want, kMarks, Landmarks::capacity(g)});
  if (n == 0 || want < Landmarks::kMin || !Landmarks::applies(g)) return;
  try {
    auto marks = std::make_shared<Landmarks>();
    marks->build(g, base_.comps_, 1.0, std::sqrt(2.0), want);
    if (marks->count() < Landmarks::kMin) return;
    marks->release_builder();  // (a rebuild builds new tables)
    marks_k_ = marks->count();
    mark_unit_ = marks->unit();
    mark_straight_ = marks->straight_units();
    mark_diagonal_ = marks->diagonal_units();
    marks_ = std::move(marks);
    copy_mark_rows();
  } catch (const std::bad_alloc&) {
    drop_marks();  // (queries bound with the octile distance alone)
  }
}

void SubgoalHierarchy::repair_marks(const grid::Grid& g, std::span<const grid::Rect> areas) {
  if (marks_k_ == 0) return;
  bool kept = false;
  try {
    if (marks_.use_count() > 1) marks_ = std::make_shared<Landmarks>(*marks_);
    // (The budget of jps+'s repairs: a build costs a few of them.)
    kept = marks_->repair(g, areas, marks_->cells() / 32 + 64) && !marks_->stale();
  } catch (const std::bad_alloc&) {
    kept = false;
  }
  if (!kept) {
    drop_marks();
    return;
  }
  // repair() then copies every subgoal's row again (new subgoals are free cells, in G'; the
  // rows of the rest may have been lowered): a gather of 32 bytes a subgoal, a small part of
  // a repair, and the query keeps reading compact rows.
}

void SubgoalHierarchy::copy_mark_rows() {
  const std::size_t n = base_.sg_cell_.size(), k = static_cast<std::size_t>(marks_k_);
  mark_d_.resize(n * k);
  const std::int32_t* table = marks_->data();
  for (std::size_t v = 0; v < n; ++v) {
    const std::int32_t* row = table + std::size_t{base_.sg_cell_[v]} * k;
    std::copy(row, row + k, mark_d_.begin() + static_cast<std::ptrdiff_t>(v * k));
  }
}

void SubgoalHierarchy::index_core() {
  const auto n = static_cast<std::uint32_t>(base_.sg_cell_.size());
  if (in_core_.size() != n) {  // (built or loaded: repairs size it themselves)
    in_core_.assign(n, 0);
    for (std::uint32_t u = std::min(core_begin_, n); u < n; ++u) in_core_[u] = 1;
    built_nodes_ = n;
    built_edges_ = up_to_.size();
    built_core_ = n - std::min(core_begin_, n);
  }
  core_size_ = static_cast<std::size_t>(std::count(in_core_.begin(), in_core_.end(), 1));
  down_begin_.assign(std::size_t{n} + 1, 0);
  if (core_size_ == 0) {  // (most repaired hierarchies: no pass over the edges)
    down_edge_.clear();
    down_from_.clear();
    return;
  }
  for (std::uint32_t u = 0; u < n; ++u) {
    if (!in_core_[u]) continue;
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      if (in_core_[up_to_[e]]) ++down_begin_[up_to_[e] + 1];
    }
  }
  for (std::uint32_t k = 0; k < n; ++k) down_begin_[k + 1] += down_begin_[k];
  down_edge_.assign(down_begin_.back(), 0);
  down_from_.assign(down_begin_.back(), 0);
  std::vector<std::uint32_t> at(down_begin_.begin(), down_begin_.end() - 1);
  for (std::uint32_t u = 0; u < n; ++u) {
    if (!in_core_[u]) continue;
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      if (!in_core_[up_to_[e]]) continue;
      const std::uint32_t k = at[up_to_[e]]++;
      down_edge_[k] = e;
      down_from_[k] = u;
    }
  }
}

std::uint32_t SubgoalHierarchy::find_edge(std::uint32_t lo, std::uint32_t hi) const noexcept {
  const auto first = up_to_.begin() + up_begin_[lo], last = up_to_.begin() + up_begin_[lo + 1];
  const auto it = std::lower_bound(first, last, hi);
  return it == last || *it != hi ? kNone : static_cast<std::uint32_t>(it - up_to_.begin());
}

std::size_t SubgoalHierarchy::memory_bytes() const noexcept {
  return sizeof(*this) - sizeof(SubgoalGraph) + base_.memory_bytes() +
         (up_begin_.size() + up_to_.size() + up_via_.size() + down_begin_.size() +
          down_edge_.size() + down_from_.size()) *
             sizeof(std::uint32_t) +
         up_cost_.size() * sizeof(double) + in_core_.size() +
         (rank_.size() + order_.size()) * sizeof(std::uint32_t) +
         base_box_.size() * sizeof(BaseBox) + mark_d_.size() * sizeof(std::int32_t) +
         (marks_ ? marks_->bytes() : 0) +
         (scratch_.dist.size() + scratch_.lower.size()) * sizeof(double) +
         (scratch_.seen.size() + scratch_.wanted.size()) * sizeof(std::uint32_t) +
         down_index_.lists.size() * sizeof(down_index_.lists.front()) +
         std::accumulate(down_index_.lists.begin(), down_index_.lists.end(), std::size_t{0},
                         [](std::size_t sum, const auto& down) {
                           return sum + down.capacity() * sizeof(down.front());
                         });
}

std::size_t SubgoalHierarchy::shortcut_count() const noexcept {
  return static_cast<std::size_t>(
      std::count_if(up_via_.begin(), up_via_.end(), [](std::uint32_t v) { return v != kNone; }));
}

bool SubgoalHierarchy::consistent() const noexcept {
  const std::size_t n = base_.sg_cell_.size();
  if (up_begin_.size() != n + 1 || up_begin_.front() != 0 || up_begin_.back() != up_to_.size() ||
      up_via_.size() != up_to_.size() || up_cost_.size() != up_to_.size() || core_begin_ > n ||
      down_begin_.size() != n + 1 || in_core_.size() != n) {
    return false;
  }
  for (std::uint32_t u = 0; u < n; ++u) {
    if (up_begin_[u] > up_begin_[u + 1]) return false;
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      const std::uint32_t v = up_to_[e];
      if (v >= n || rank(v) <= rank(u) || (e > up_begin_[u] && up_to_[e - 1] >= v)) return false;
      if (in_core_[u] && !in_core_[v]) return false;  // (the core is closed upwards)
      const double c = up_cost_[e];
      if (!(c > 0) || !std::isfinite(c) || c < octile(base_.sg_pos_[u], base_.sg_pos_[v]) - kEps) {
        return false;
      }
      const std::uint32_t w = up_via_[e];
      if (w == kNone) continue;
      if (w >= n || rank(w) >= rank(u)) return false;
      const std::uint32_t a = find_edge(w, u), b = find_edge(w, v);
      if (a == kNone || b == kNone) return false;
      // (Its halves cost exactly as much when built; a repair may lower a half's cost and
      // leave the shortcut, then needless, as it was: never cheaper than its halves.)
      if (up_cost_[a] + up_cost_[b] > c + 1e-6 * std::max(1.0, c)) return false;
    }
  }
  // The downward index, once a repair made it: every edge once, at its upper end, by rank.
  if (!down_index_.lists.empty()) {
    if (down_index_.lists.size() != n) return false;
    std::size_t entries = 0;
    for (std::uint32_t x = 0; x < n; ++x) {
      const auto& down = down_index_.lists[x];
      entries += down.size();
      for (std::size_t i = 0; i < down.size(); ++i) {
        const auto [y, k] = down[i];
        if (y >= n || k >= up_begin_[y + 1] - up_begin_[y] || up_to_[up_begin_[y] + k] != x ||
            (i > 0 && rank(down[i - 1].first) >= rank(y))) {
          return false;
        }
      }
    }
    if (entries != up_to_.size()) return false;
  }
  if (rank_.empty()) return true;
  // After repairs: order_ lists every subgoal once, in strictly increasing rank.
  if (rank_.size() != n || order_.size() != n) return false;
  std::vector<std::uint8_t> listed(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = order_[i];
    if (v >= n || listed[v] || (i > 0 && rank_[order_[i - 1]] >= rank_[v])) return false;
    listed[v] = 1;
  }
  return true;
}

// --- repair after the map changed ------------------------------------------------------------
//
// A dynamic contraction hierarchy: the order is kept and only what the change touches is
// contracted again (Geisberger et al. 2012, "Exact routing in large road networks using
// contraction hierarchies", section on updates; here on the subgoal graph). Why it answers
// exactly: the hierarchy equals one contraction, in the old order, of the graph G' made of the
// new subgoal graph plus every old edge whose way is still free (each a real path of its cost,
// so G' has the map's distances, and a subgoal the change removed stays as a node of G'). That
// holds when, for every subgoal v, each pair of its upward neighbours has a shortcut through v
// or a witness path (avoiding v, over subgoals above v) at most as long. The repair restores
// it where it can have broken:
// - an edge is dropped when its way now crosses a wall (a shortcut with either half);
// - a new subgoal-graph edge is added at its lower end, which gains a neighbour: its pairs
//   with that neighbour are checked, and a shortcut added or made cheaper is such a new
//   neighbour for the lower of its ends (always above the subgoal being contracted, so one
//   pass upwards in id order ends);
// - a witness for the pair (a, b) around v cost at most c(a, v) + c(v, b); one that a new wall
//   broke holds, unpacked, a subgoal-graph edge x - y whose way the wall blocks, so it cost at
//   least h(a, x) + c(x, y) + h(y, b) (h: octile): the pairs where that fits are checked
//   again. (Cells that opened break no old path.)
// A pair is checked by looking for a witness. Once the checks have looked at `work_limit`
// edges, a pair without a witness of one or two edges gets its shortcut unsearched (a shortcut
// is a real path, so that, too, restores the condition). Past twice that, the subgoals still
// to contract go into the core instead, with every subgoal above them (an upward neighbour),
// which is searched along every edge: a subgoal above one in the core would have been
// contracted with that one still there, so its shortcuts are no longer relied on (the
// contraction argument holds for the others, and the core is the remaining graph). For the
// same reason an edge that a repair adds from a subgoal in the core brings its upper end, with
// every subgoal above it, into the core: the query leaves a core subgoal along any edge, but
// would not come back down from a subgoal outside it.

bool SubgoalHierarchy::repairable(const grid::Grid& g,
                                  const std::vector<grid::Rect>& areas) const noexcept {
  const SubgoalGraph& b = base_;
  if (g.width() != b.width_ || g.height() != b.height_) return false;
  return SubgoalGraph::clip_areas(areas, b.width_, b.height_, nullptr) * 16 <=
         static_cast<std::uint64_t>(b.width_) * static_cast<std::uint64_t>(b.height_);
}

void SubgoalHierarchy::place_new(
    std::uint32_t n_old, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  const auto n = static_cast<std::uint32_t>(base_.sg_cell_.size());
  if (rank_.empty()) {
    order_.resize(n_old);
    for (std::uint32_t v = 0; v < n_old; ++v) order_[v] = v;
    respace();
  }
  if (n == n_old) return;
  // Each new subgoal goes just below the median rank of its neighbours that were there before
  // (none: below all). Below all of them, it was contracted with every neighbour above it,
  // adding a shortcut for each pair whose shortest way it now lies on, and each shortcut made
  // its lower end gain a neighbour to contract again with: over 888 random edits of den520d,
  // rebuilding when wanted, a quarter more witness work than now (brc202d: 2.3 times), and
  // the first repair that ran out of work came at the 32nd edit instead of the 115th.
  std::vector<std::vector<std::uint32_t>> near(n - n_old);
  for (const auto& [i, j] : edges) {
    if (i >= n_old && j < n_old) near[i - n_old].push_back(rank_[j]);
    if (j >= n_old && i < n_old) near[j - n_old].push_back(rank_[i]);
  }
  // (the place in order_ of the rank it goes below, the new subgoal)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> below;
  const auto place_of = [&](std::uint32_t r) {
    return static_cast<std::uint32_t>(
        std::lower_bound(order_.begin(), order_.end(), r,
                         [&](std::uint32_t v, std::uint32_t x) { return rank_[v] < x; }) -
        order_.begin());
  };
  for (std::uint32_t k = 0; k < n - n_old; ++k) {
    std::vector<std::uint32_t>& r = near[k];
    std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(r.size() / 2), r.end());
    below.emplace_back(r.empty() ? 0 : place_of(r[r.size() / 2]), n_old + k);
  }
  std::sort(below.begin(), below.end());
  // Ranks strictly between those of the old subgoals on either side, evenly (room is left on
  // both sides for later ones); all spaced again when a gap is too narrow (rarely: respace()
  // leaves gaps 2^31 / n wide).
  const std::size_t old = order_.size(), k = below.size();
  rank_.resize(n);
  bool narrow = false;
  for (std::size_t a = 0; a < k && !narrow;) {
    const std::uint32_t at = below[a].first;
    std::size_t z = a;
    while (z < k && below[z].first == at) ++z;
    const std::uint64_t lo = at == 0 ? 0 : rank_[order_[at - 1]];
    const std::uint64_t hi = at == old ? std::uint64_t{1} << 32 : rank_[order_[at]];
    const std::uint64_t parts = z - a + 1;
    narrow = hi - lo < parts;
    for (std::size_t q = a; q < z && !narrow; ++q) {
      rank_[below[q].second] = static_cast<std::uint32_t>(lo + (hi - lo) * (q - a + 1) / parts);
    }
    a = z;
  }
  // The new order: each new subgoal put in just before its place, the old ones behind it moved
  // piece by piece from the back.
  order_.resize(old + k);
  std::size_t end = old;
  for (std::size_t q = k; q-- > 0;) {
    const std::uint32_t at = below[q].first;
    std::copy_backward(order_.begin() + at, order_.begin() + static_cast<std::ptrdiff_t>(end),
                       order_.begin() + static_cast<std::ptrdiff_t>(end + q + 1));
    order_[at + q] = below[q].second;
    end = at;
  }
  if (narrow) {
    respace();
    ++respaced_;
  }
}

void SubgoalHierarchy::respace() {
  rank_.resize(order_.size());
  const std::uint64_t gap = (std::uint64_t{1} << 31) / (order_.size() + 1);
  for (std::size_t r = 0; r < order_.size(); ++r) {
    rank_[order_[r]] = static_cast<std::uint32_t>((r + 1) * std::max<std::uint64_t>(gap, 1));
  }
}

bool SubgoalHierarchy::repair(const grid::Grid& g, const std::vector<grid::Rect>& areas,
                              std::uint64_t work_limit) {
  SubgoalGraph& b = base_;
  if (!repairable(g, areas)) return false;
  std::vector<grid::Rect> rects;
  SubgoalGraph::clip_areas(areas, b.width_, b.height_, &rects);
  if (rects.empty()) return b.matches(g);
  repair_marks(g, rects);
  const auto n_old = static_cast<std::uint32_t>(b.sg_cell_.size());
  // The subgoals whose exploration may find other subgoals now (before and after the change),
  // and the boxes of the cells that became walls.
  std::vector<std::uint32_t> explore;
  b.subgoals_near(g, rects, explore);
  const std::vector<SubgoalGraph::WallBox> walled = b.walled_boxes(g, rects);
  SubgoalGraph::CellChanges changes;
  b.repair_cells(g, rects, changes);
  b.subgoals_near(g, rects, explore);
  dead_ += changes.removed.size();
  std::sort(explore.begin(), explore.end());
  explore.erase(std::unique(explore.begin(), explore.end()), explore.end());
  const auto n = static_cast<std::uint32_t>(b.sg_cell_.size());
  const std::vector<Cell>& pos = b.sg_pos_;
  // The subgoal-graph edges of the subgoals near the change as it is now (offered below), and
  // new subgoals' places in the order, by them.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> found_edges;
  {
    std::vector<std::uint32_t> found;
    for (const std::uint32_t i : explore) {
      if (!b.alive(i)) continue;
      b.direct_subgoals(b.sg_cell_[i], found);
      for (const std::uint32_t j : found) {
        if (j != i) found_edges.emplace_back(i, j);
      }
    }
  }
  place_new(n_old, found_edges);
  auto ordered = [&](std::uint32_t x, std::uint32_t y) {  // (lower rank, higher rank)
    return rank_[x] < rank_[y] ? std::pair{x, y} : std::pair{y, x};
  };
  auto box_meets = [&](Cell p, Cell q) {
    const std::int32_t x0 = std::min(p.x, q.x), x1 = std::max(p.x, q.x);
    const std::int32_t y0 = std::min(p.y, q.y), y1 = std::max(p.y, q.y);
    for (const SubgoalGraph::WallBox& k : walled) {
      if (x0 <= k.x1 && k.x0 <= x1 && y0 <= k.y1 && k.y0 <= y1) return true;
    }
    return false;
  };

  // Which old edges still stand: a way that misses the new walls, or is still free; a shortcut
  // when both its halves do. (A subgoal the change removed keeps its edges: a node of G'.)
  const std::size_t m = up_to_.size();
  std::vector<std::uint8_t> valid(m, 1);
  std::vector<std::uint32_t> dropped_edges;  // every edge flagged invalid (offer may restore it)
  auto edge_owner = [&](std::uint32_t e) {   // an old edge's lower end
    return static_cast<std::uint32_t>(std::upper_bound(up_begin_.begin(), up_begin_.end(), e) -
                                      up_begin_.begin() - 1);
  };
  struct Broken {  // a subgoal-graph edge a new wall blocks
    std::uint32_t from, to;
    double cost;
    // The highest rank of the lower end of an edge dropped with it (it, or a shortcut built on
    // it): a witness around v, a path over subgoals above v, can hold one only if above v.
    std::uint32_t top;
  };
  std::vector<Broken> broken;
  if (!walled.empty()) {
    // Edges found broken whose shortcuts are not yet dropped, with the blocked subgoal-graph
    // edge they stand on.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lost;
    auto check = [&](std::uint32_t e) {
      if (e == kNone || up_via_[e] != kNone || !valid[e]) return;
      const std::uint32_t u = edge_owner(e), v = up_to_[e];
      if (!box_meets(pos[u], pos[v])) return;
      if (b.passable(b.sg_cell_[u]) && b.walkable(b.sg_cell_[u], b.sg_cell_[v])) return;
      lost.emplace_back(e, static_cast<std::uint32_t>(broken.size()));
      broken.push_back(Broken{u, v, up_cost_[e], rank_[u]});
      valid[e] = 0;
      dropped_edges.push_back(e);
    };
    if (b.stride_ < 32767 && b.height_ < 32765) {
      if (base_box_.empty()) index_base_boxes();
      for (const BaseBox& k : base_box_) {
        for (const SubgoalGraph::WallBox& w : walled) {
          if (k.x0 <= w.x1 && w.x0 <= k.x1 && k.y0 <= w.y1 && w.y0 <= k.y1) {
            check(find_edge(k.lo, k.hi));
            break;
          }
        }
      }
    } else {
      for (std::uint32_t e = 0; e < m; ++e) check(e);
    }
    // A shortcut through w stands on two edges kept by w: those built on a dropped one go too.
    while (!lost.empty()) {
      const auto [e, origin] = lost.back();
      lost.pop_back();
      const std::uint32_t w = edge_owner(e), u = up_to_[e];
      for (std::uint32_t f = up_begin_[w]; f < up_begin_[w + 1]; ++f) {
        if (f == e) continue;
        const auto [lo, hi] = ordered(u, up_to_[f]);
        const std::uint32_t s = find_edge(lo, hi);
        if (s == kNone || !valid[s] || up_via_[s] != w) continue;
        valid[s] = 0;
        dropped_edges.push_back(s);
        lost.emplace_back(s, origin);
        broken[origin].top = std::max(broken[origin].top, rank_[lo]);
      }
    }
  }

  // The graph being repaired: the old upward lists (edges flagged valid, costs lowered in
  // place), the edges added meanwhile, and a downward index of both.
  std::unordered_map<std::uint32_t, std::vector<UpEdge>> added;
  // Per upper end: the lower end of each added edge, and its place in added[lower end].
  std::unordered_map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>>
      added_down;
  const std::vector<UpEdge> none_added;
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> none_down;
  auto added_at = [&](std::uint32_t x) -> const std::vector<UpEdge>& {
    const auto it = added.find(x);
    return it == added.end() ? none_added : it->second;
  };
  auto added_down_at =
      [&](std::uint32_t x) -> const std::vector<std::pair<std::uint32_t, std::uint32_t>>& {
    const auto it = added_down.find(x);
    return it == added_down.end() ? none_down : it->second;
  };
  // The downward index of the old edges (down_index_), made by the first repair that needs it.
  auto index_down = [&] {
    if (!down_index_.lists.empty() || n_old == 0) return;
    down_index_.lists.resize(n_old);
    {
      std::vector<std::uint32_t> count(n_old, 0);
      for (std::uint32_t e = 0; e < m; ++e) ++count[up_to_[e]];
      for (std::uint32_t x = 0; x < n_old; ++x) down_index_.lists[x].reserve(count[x]);
    }
    for (const std::uint32_t u : order_) {
      if (u >= n_old) continue;
      for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
        down_index_.lists[up_to_[e]].emplace_back(u, e - up_begin_[u]);
      }
    }
  };
  // How far each subgoal is, at least, from the nearest end of an edge a new wall blocks: the
  // octile distance (no path is shorter), computed when the scan first asks. (The old graph's
  // distances, from a Dijkstra over it, are larger bounds, but cost more than the pairs they
  // spared: a den520d repair 1.16-1.24 -> 1.05-1.08 ms without them, brc202d 232-242 ->
  // 155-161 us, the same hierarchy quality.)
  std::vector<double> near;
  double cheapest = std::numeric_limits<double>::infinity();
  for (const Broken& k : broken) cheapest = std::min(cheapest, k.cost);
  if (!broken.empty()) near.assign(n_old, -1);
  // The blocked edges' ends (item 2k: edge k's lower end, 2k + 1 its upper end), and their
  // lower ends alone, by place (cell_buckets.hpp).
  CellBuckets ends_at, from_at;
  if (!broken.empty()) {
    std::vector<Cell> at(2 * broken.size());
    for (std::size_t k = 0; k < broken.size(); ++k) {
      at[2 * k] = pos[broken[k].from];
      at[2 * k + 1] = pos[broken[k].to];
    }
    ends_at.assign(at, b.width_ + 2, b.height_ + 2);
    for (std::size_t k = 0; k < broken.size(); ++k) at[k] = pos[broken[k].from];
    at.resize(broken.size());
    from_at.assign(at, b.width_ + 2, b.height_ + 2);
  }
  auto near_of = [&](std::uint32_t x) {
    double& d = near[x];
    if (d < 0) {
      d = ends_at.nearest(pos[x], [&](std::uint32_t i) {
        const Broken& k = broken[i / 2];
        return octile(pos[x], pos[(i & 1) != 0 ? k.to : k.from]);
      });
    }
    return d;
  };
  // Work per subgoal to contract again: neighbours it gained (or reached more cheaply), and
  // pairs whose witness may be gone. Done in increasing id order.
  struct Work {
    std::vector<std::uint32_t> gained;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  };
  std::unordered_map<std::uint32_t, Work> work;
  // Edges kept in place that became subgoal-graph edges (for base_box_).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> relisted;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> queue;  // a min-heap of (rank, id)
  std::vector<std::uint8_t> queued(n, 0);
  auto enqueue = [&](std::uint32_t v) {
    if (queued[v]) return;
    queued[v] = 1;
    queue.emplace_back(rank_[v], v);
    std::push_heap(queue.begin(), queue.end(), std::greater<>());
  };
  in_core_.resize(n, 0);
  // The core is closed upwards (every edge from a subgoal in it leads into it: the query
  // searches it along every edge, and the rest only upwards). Puts x into it, with every
  // subgoal above x, and keeps core_floor, the core's lowest rank, up to date.
  std::uint32_t core_floor = std::numeric_limits<std::uint32_t>::max();
  bool to_core = false;  // some went into the core
  std::vector<std::uint32_t> lifted;
  auto lift = [&](std::uint32_t x) {
    auto mark = [&](std::uint32_t y) {
      if (in_core_[y]) return;
      in_core_[y] = 1;
      to_core = true;
      core_floor = std::min(core_floor, rank_[y]);
      lifted.push_back(y);
    };
    mark(x);
    while (!lifted.empty()) {
      const std::uint32_t y = lifted.back();
      lifted.pop_back();
      if (y < n_old) {
        for (std::uint32_t e = up_begin_[y]; e < up_begin_[y + 1]; ++e) {
          if (valid[e]) mark(up_to_[e]);
        }
      }
      for (const UpEdge& z : added_at(y)) mark(z.to);
    }
  };
  // Adds the edge x - y of this cost at its lower end, or lowers the cost of the one there;
  // the lower end then has a new neighbour to contract again with, or, in the core, an edge
  // that must lead into the core.
  auto offer = [&](std::uint32_t x, std::uint32_t y, std::uint32_t via, double cost) {
    const auto [lo, hi] = ordered(x, y);
    if (lo < n_old) {
      const std::uint32_t e = find_edge(lo, hi);
      if (e != kNone) {
        if (valid[e] && up_cost_[e] <= cost + kEps) return;
        valid[e] = 1;
        up_cost_[e] = cost;
        if (via == kNone && up_via_[e] != kNone) relisted.emplace_back(lo, hi);
        up_via_[e] = via;
        if (in_core_[lo]) {
          lift(hi);
        } else {
          work[lo].gained.push_back(hi);
          enqueue(lo);
        }
        return;
      }
    }
    bool found = false;
    std::vector<UpEdge>& list = added[lo];
    for (UpEdge& x : list) {
      if (x.to != hi) continue;
      if (x.cost <= cost + kEps) return;
      x.cost = cost;
      x.via = via;
      found = true;
    }
    if (!found) {
      added_down[hi].emplace_back(lo, static_cast<std::uint32_t>(list.size()));
      list.push_back(UpEdge{hi, via, cost});
    }
    if (in_core_[lo]) {
      lift(hi);
    } else {
      work[lo].gained.push_back(hi);
      enqueue(lo);
    }
  };
  // New subgoal-graph edges.
  for (const auto& [i, j] : found_edges) offer(i, j, kNone, b.octile(b.sg_cell_[i], b.sg_cell_[j]));
  // Pairs whose witness may have crossed a new wall (and have no shortcut through v). A
  // witness now broken holds, unpacked, a subgoal-graph edge x - y a new wall blocks: it cost
  // at least h(a, x) + c(x, y) + h(y, c) (or the other way round): its "cost through" it.
  // And, a path over subgoals above v, it held an edge dropped now (x - y, or a shortcut built
  // on it), so one whose lower end ranks above v: x - y's `top` does (a witness of a walk test
  // is such a path too: the one its argument builds).
  if (!broken.empty()) {
    std::vector<std::pair<double, std::uint32_t>> keyed;  // (near - cost, edge) of v's edges
    std::vector<std::pair<double, double>> apart;
    // The blocked edges a witness around v may hold: above v, with the lower end within
    // reach (a witness from a to c through x - y is at most c(a, v) + c(v, c) long, so x and
    // y lie within that plus c(v, a) of v, and every edge costs at least its ends' octile
    // distance).
    std::vector<Broken> close;
    std::vector<std::uint32_t> fits, fits_begin;  // per end of v's pairs: close[] it may reach
    for (std::uint32_t v = 0; v < n_old; ++v) {
      const std::uint32_t first = up_begin_[v], last = up_begin_[v + 1];
      if (in_core_[v] || last - first < 2) continue;
      double longest = 0;  // a witness around v stays within 3 x its longest edge of v
      for (std::uint32_t e = first; e < last; ++e) longest = std::max(longest, up_cost_[e]);
      const double reach = 3 * longest + kEps;
      close.clear();
      const Cell p = pos[v];
      const auto r = static_cast<std::int32_t>(std::min(reach, 1e9));
      from_at.in_box(p.x - r, p.y - r, p.x + r, p.y + r, [&](std::uint32_t i) {
        const Broken& k = broken[i];
        if (k.top > rank_[v] && octile(p, pos[k.from]) <= reach) close.push_back(k);
      });
      if (close.empty()) continue;
      // The pairs that can pass the first test below, near[a] + cheapest + near[c] <= c(a, v)
      // + c(v, c), are those whose keys near - c sum to at most -cheapest: v's edges in
      // increasing key, each with the next ones while the sum allows (a little slack: the
      // test itself follows).
      keyed.clear();
      for (std::uint32_t e = first; e < last; ++e) {
        if (valid[e]) keyed.emplace_back(near_of(up_to_[e]) - up_cost_[e], e);
      }
      std::sort(keyed.begin(), keyed.end());
      const double most = 2 * kEps - cheapest;
      if (keyed.empty() || 2 * keyed.front().first > most) continue;
      // The octile distances from each end that can be paired to each blocked edge's ends
      // (to k.from, to k.to) at [i * broken + k], for the costs through the blocked edges.
      std::size_t ends = 1;
      while (ends < keyed.size() && keyed.front().first + keyed[ends].first <= most) ++ends;
      apart.resize(ends * close.size());
      // And per end, the blocked edges it can reach within any of its pairs' bounds (a pair's
      // bound is at most its edge's cost plus v's longest edge): the only ones its pairs test.
      fits.clear();
      fits_begin.assign(1, 0);
      for (std::size_t i = 0; i < ends; ++i) {
        const Cell q = pos[up_to_[keyed[i].second]];
        const double most_i = up_cost_[keyed[i].second] + longest + kEps;
        for (std::size_t k = 0; k < close.size(); ++k) {
          const std::pair<double, double> d{octile(q, pos[close[k].from]),
                                            octile(q, pos[close[k].to])};
          apart[i * close.size() + k] = d;
          if (close[k].cost + std::min(d.first, d.second) <= most_i) {
            fits.push_back(static_cast<std::uint32_t>(k));
          }
        }
        fits_begin.push_back(static_cast<std::uint32_t>(fits.size()));
      }
      for (std::size_t i = 0; i < ends && 2 * keyed[i].first <= most; ++i) {
        for (std::size_t j = i + 1; j < ends && keyed[i].first + keyed[j].first <= most; ++j) {
          // (a before c in v's list, as the pairs were always listed)
          const bool in_order = keyed[i].second < keyed[j].second;
          const std::uint32_t e1 = in_order ? keyed[i].second : keyed[j].second;
          const std::uint32_t e2 = in_order ? keyed[j].second : keyed[i].second;
          const std::uint32_t a = up_to_[e1], c = up_to_[e2];
          const double bound = up_cost_[e1] + up_cost_[e2] + kEps;
          if (near_of(a) + cheapest + near_of(c) > bound) continue;
          const std::pair<double, double>* da = &apart[(in_order ? i : j) * close.size()];
          const std::pair<double, double>* dc = &apart[(in_order ? j : i) * close.size()];
          // (a blocked edge a pair can hit fits both ends: those of the end with fewer)
          const std::size_t by =
              fits_begin[i + 1] - fits_begin[i] <= fits_begin[j + 1] - fits_begin[j] ? i : j;
          bool hit = false;
          for (std::uint32_t f = fits_begin[by]; f < fits_begin[by + 1] && !hit; ++f) {
            const std::uint32_t k = fits[f];
            hit =
                close[k].cost + std::min(da[k].first + dc[k].second, da[k].second + dc[k].first) <=
                bound;
          }
          if (!hit) continue;
          const auto [lo, hi] = ordered(a, c);
          const std::uint32_t s = find_edge(lo, hi);
          // The shortcut through v stands, or an edge a - c is itself a witness.
          if (s != kNone && valid[s] && (up_via_[s] == v || up_cost_[s] <= bound)) continue;
          work[v].pairs.emplace_back(a, c);
          enqueue(v);
        }
      }
    }
  }

  // Contract again, upwards. Each pair (a, c) of v's upward neighbours to check keeps v out of
  // the way when a witness, a path over subgoals above v at most c(a, v) + c(v, c) long, still
  // stands; else the shortcut a - c through v is offered. Most witnesses are one or two edges,
  // found from the ends' edge lists. The others are looked for by a Dijkstra over the subgoals
  // above v (every edge, up and down), bounded by cost, by the octile distance to the targets
  // and by settled nodes, until the checks have looked at `work_limit` edges; from then on the
  // pairs without a short witness get their shortcut unsearched (a shortcut is a real path:
  // one added without need costs an edge, never exactness), and past twice that the subgoals
  // left go into the core.
  // Per subgoal, kept from one repair to the next (not cleared: an entry counts only when
  // stamped by the current check): the distance a check found, a witness search's heuristic,
  // and the stamps of the subgoals seen and of the targets.
  RepairScratch& scratch = scratch_;
  if (!queue.empty()) {
    index_down();
    scratch.dist.resize(n);
    scratch.lower.resize(n);
    scratch.seen.resize(n, 0);
    scratch.wanted.resize(n, 0);
  }
  std::vector<double>& dist = scratch.dist;
  std::vector<double>& lower = scratch.lower;
  std::vector<std::uint32_t>& seen = scratch.seen;
  std::vector<std::uint32_t>& wanted = scratch.wanted;
  std::uint32_t& stamp = scratch.stamp;
  auto next_stamp = [&] {
    if (++stamp == 0) {  // (wrapped: every stamp is old again)
      std::fill(seen.begin(), seen.end(), 0);
      std::fill(wanted.begin(), wanted.end(), 0);
      stamp = 1;
    }
  };
  // The edges the checks looked at, in short witnesses and in searches (work_limit's measure).
  std::uint64_t spent = 0;
  std::vector<Entry> heap;
  // Calls f(y, cost) for each edge x - y of the graph being repaired whose other end ranks
  // above v (x does: its upward edges all do; its downward list is read down to v's rank).
  auto each_edge = [&](std::uint32_t v, std::uint32_t x, auto&& f) {
    const std::uint32_t floor = rank_[v];
    if (x < n_old) {
      for (std::uint32_t e = up_begin_[x]; e < up_begin_[x + 1]; ++e) {
        if (valid[e]) f(up_to_[e], up_cost_[e]);
      }
      const auto& down = down_index_.lists[x];
      for (std::size_t i = down.size(); i-- > 0;) {
        const auto [y, k] = down[i];
        if (rank_[y] <= floor) break;
        const std::uint32_t e = up_begin_[y] + k;
        if (valid[e]) f(y, up_cost_[e]);
      }
    }
    for (const UpEdge& y : added_at(x)) f(y.to, y.cost);
    for (const auto& [y, i] : added_down_at(x)) {
      if (rank_[y] > floor) f(y, added_at(y)[i].cost);
    }
  };
  // The pairs (a, c) to check around v: c and the cost c(a, v) + c(v, c) a witness may not
  // exceed (c is kNone once a witness is found).
  struct Target {
    std::uint32_t c;
    double via;
  };
  std::vector<Target> targets;
  // Drops the targets with a witness of one or two edges from a.
  auto short_witnesses = [&](std::uint32_t v, std::uint32_t a) {
    next_stamp();
    each_edge(v, a, [&](std::uint32_t y, double c) {
      ++spent;
      if (seen[y] == stamp && dist[y] <= c) return;
      seen[y] = stamp;
      dist[y] = c;
    });
    for (Target& t : targets) {
      if (t.c == kNone) continue;  // (a walk witness)
      bool held = seen[t.c] == stamp && dist[t.c] <= t.via + kEps;
      if (!held) {
        each_edge(v, t.c, [&](std::uint32_t y, double c) {
          ++spent;
          held = held || (seen[y] == stamp && dist[y] + c <= t.via + kEps);
        });
      }
      if (held) t.c = kNone;
    }
  };
  // A Dijkstra from a over the subgoals above v until the targets left are settled: drops
  // those reached within their bounds.
  // The targets not yet settled, where they are and the cost their witness may not exceed.
  struct Live {
    Cell at;
    double limit;
    std::uint32_t c;
  };
  std::vector<Live> live;
  std::vector<Cell> aims;  // the targets an A* search aims at
  auto witness = [&](std::uint32_t v, std::uint32_t a) {
    next_stamp();
    double bound = 0;
    live.clear();
    for (const Target& t : targets) {
      if (t.c == kNone) continue;
      wanted[t.c] = stamp;
      bound = std::max(bound, t.via + kEps);
      live.push_back(Live{pos[t.c], t.via + kEps, t.c});
    }
    if (live.empty()) return;
    // A few targets (most searches): A* toward the nearest, by the octile distance (no edge
    // is shorter: consistent; the same targets throughout, though some drop out). Many: the
    // heuristic would cost more than it saves, Dijkstra.
    aims.clear();
    if (live.size() <= kAimedTargets) {
      for (const Live& l : live) aims.push_back(l.at);
    }
    auto h = [&](std::uint32_t y) {
      double least = aims.empty() ? 0.0 : std::numeric_limits<double>::infinity();
      for (const Cell c : aims) least = std::min(least, octile(pos[y], c));
      return least;
    };
    heap.clear();
    dist[a] = 0;
    seen[a] = stamp;
    lower[a] = h(a);
    heap.emplace_back(lower[a], a);
    std::uint32_t settled = 0;
    auto relax = [&](std::uint32_t y, double d) {
      ++spent;
      if (d > bound) return;
      if (seen[y] == stamp && dist[y] <= d) return;
      // Past every target's bound even in a straight line: on no witness (an edge costs at
      // least the octile distance between its ends). The target that passed moves to the
      // front, where the next cells, near this one, are likely to pass it too.
      const Cell p = pos[y];
      std::size_t i = 0;
      while (i < live.size() && d + octile(p, live[i].at) > live[i].limit) ++i;
      if (i == live.size()) return;
      if (i > 0) std::swap(live[0], live[i]);
      if (seen[y] != stamp) lower[y] = h(y);
      seen[y] = stamp;
      dist[y] = d;
      if (wanted[y] == stamp) {
        // A target reached within its bound: a witness, found (it need not be settled). It is
        // still searched on from: other targets' witnesses may pass it.
        const auto it =
            std::find_if(live.begin(), live.end(), [y](const Live& l) { return l.c == y; });
        if (d <= it->limit) {
          wanted[y] = 0;
          *it = live.back();
          live.pop_back();
        }
      }
      heap.emplace_back(d + lower[y], y);
      std::push_heap(heap.begin(), heap.end(), kGreater);
    };
    while (!heap.empty() && !live.empty() && settled < kWitnessSettle) {
      std::pop_heap(heap.begin(), heap.end(), kGreater);
      const std::uint32_t x = heap.back().second;
      const double f = heap.back().first;
      heap.pop_back();
      const double d = dist[x];
      if (f > d + lower[x]) continue;  // a better entry came after it
      ++settled;
      if (wanted[x] == stamp) {  // settled beyond its bound: no witness for it
        wanted[x] = 0;
        const auto it =
            std::find_if(live.begin(), live.end(), [x](const Live& l) { return l.c == x; });
        *it = live.back();
        live.pop_back();
        if (live.empty()) break;
      }
      each_edge(v, x, [&](std::uint32_t y, double c) { relax(y, d + c); });
    }
    for (Target& t : targets) {
      if (t.c != kNone && seen[t.c] == stamp && dist[t.c] <= t.via + kEps) t.c = kNone;
    }
  };
  // v's upward neighbours now, with their costs.
  std::vector<std::pair<std::uint32_t, double>> up;
  auto cost_to = [&](std::uint32_t a) {
    for (const auto& [x, c] : up) {
      if (x == a) return c;
    }
    return -1.0;
  };
  // A witness that need not be found: a and c subgoals of the map as it is now, with a free
  // octile walk between them, and h(a, c) < h(a, v) + h(v, c). The hierarchy then has a path
  // a - c of cost h(a, c) (G' has the map's distances between subgoals, and no edge is shorter
  // than its ends' octile distance), and none of its shortest a - c paths passes v, which costs
  // at least h(a, v) + h(v, c). Take one; while an inner subgoal ranks below v, its lowest
  // inner subgoal u has both path neighbours above it, and u's condition (which holds once the
  // repair ends: by induction upwards from the lowest rank) gives a shortcut, or a witness over
  // subgoals above u, no longer: put in, the path stays shortest, so still misses v, and its
  // inner ranks rise (a multiset order, so this ends). What is left is a witness for (a, c)
  // around v. (A subgoal in the core has no condition: the argument needs none below v.) The
  // test reads cells only, and most pairs around a new wall's corners pass it.
  for (std::uint32_t u = 0; u < n && core_size_ > 0; ++u) {  // (core_size_: in_core_'s count)
    if (in_core_[u]) core_floor = std::min(core_floor, rank_[u]);
  }
  auto walk_witnesses = [&](std::uint32_t v, std::uint32_t a) {
    if (rank_[v] >= core_floor || !b.alive(a)) return;
    for (Target& t : targets) {
      if (t.c == kNone || !b.alive(t.c)) continue;
      if (octile(pos[a], pos[t.c]) + kEps >= octile(pos[a], pos[v]) + octile(pos[v], pos[t.c])) {
        continue;
      }
      if (b.walkable(b.sg_cell_[a], b.sg_cell_[t.c])) t.c = kNone;
    }
  };
  // Checks the pairs from a around v (the targets), offering the shortcuts without a witness.
  auto check = [&](std::uint32_t v, std::uint32_t a) {
    walk_witnesses(v, a);
    if (std::all_of(targets.begin(), targets.end(), [](const Target& t) { return t.c == kNone; })) {
      return;
    }
    short_witnesses(v, a);
    if (spent <= work_limit) witness(v, a);
    for (const Target& t : targets) {
      if (t.c != kNone) offer(a, t.c, v, t.via);
    }
  };
  while (!queue.empty()) {
    if (spent > 2 * work_limit) {
      // Out of work altogether: the subgoals left go into the core, with every subgoal above
      // them (the first argument: their contraction is no longer relied on).
      for (const auto& q : queue) lift(q.second);
      queue.clear();
      break;
    }
    std::pop_heap(queue.begin(), queue.end(), std::greater<>());
    const std::uint32_t v = queue.back().second;
    queue.pop_back();
    if (in_core_[v]) continue;  // (lifted meanwhile: not contracted)
    Work w;
    if (const auto it = work.find(v); it != work.end()) w = std::move(it->second);
    up.clear();
    if (v < n_old) {
      for (std::uint32_t e = up_begin_[v]; e < up_begin_[v + 1]; ++e) {
        if (valid[e]) up.emplace_back(up_to_[e], up_cost_[e]);
      }
    }
    for (const UpEdge& x : added_at(v)) up.emplace_back(x.to, x.cost);
    if (up.size() < 2) continue;
    // From each gained neighbour to all the others (a pair of two gained ones once: a witness
    // runs both ways); then each pair to check, by first end, that no gained one covered.
    std::sort(w.gained.begin(), w.gained.end());
    w.gained.erase(std::unique(w.gained.begin(), w.gained.end()), w.gained.end());
    auto gained = [&](std::uint32_t x) {
      return std::binary_search(w.gained.begin(), w.gained.end(), x);
    };
    for (const std::uint32_t a : w.gained) {
      const double ca = cost_to(a);
      if (ca < 0) continue;
      targets.clear();
      for (const auto& [c, cc] : up) {
        if (c != a && !(c < a && gained(c))) targets.push_back(Target{c, ca + cc});
      }
      if (!targets.empty()) check(v, a);
    }
    std::sort(w.pairs.begin(), w.pairs.end());
    w.pairs.erase(std::unique(w.pairs.begin(), w.pairs.end()), w.pairs.end());
    if (!w.gained.empty()) {
      w.pairs.erase(
          std::remove_if(w.pairs.begin(), w.pairs.end(),
                         [&](const auto& p) { return gained(p.first) || gained(p.second); }),
          w.pairs.end());
    }
    for (std::size_t i = 0; i < w.pairs.size();) {
      const std::uint32_t a = w.pairs[i].first;
      std::size_t j = i;
      while (j < w.pairs.size() && w.pairs[j].first == a) ++j;
      const double ca = cost_to(a);
      targets.clear();
      for (std::size_t k = i; k < j && ca >= 0; ++k) {
        const double cc = cost_to(w.pairs[k].second);
        if (cc >= 0) targets.push_back(Target{w.pairs[k].second, ca + cc});
      }
      if (!targets.empty()) check(v, a);
      i = j;
    }
  }

  // The new lists: the edges that stand and those added, each list sorted (unless no edge came
  // or went: costs were lowered in place).
  const bool dropped = std::any_of(dropped_edges.begin(), dropped_edges.end(),
                                   [&](std::uint32_t e) { return !valid[e]; });
  if (!base_box_.empty()) {  // the subgoal-graph edges new here, for the next repairs
    for (const auto& [u, list] : added) {
      for (const UpEdge& x : list) {
        if (x.via == kNone) add_base_box(u, x.to);
      }
    }
    for (const auto& [lo, hi] : relisted) add_base_box(lo, hi);
  }
  if (added.empty() && !dropped && n == n_old && !to_core) {
    ++repairs_;
    return true;
  }
  // Lists that changed are made again; runs of the others are copied as they are.
  std::vector<std::uint8_t> changed(n, 0);
  for (const auto& entry : added) changed[entry.first] = 1;
  for (std::uint32_t u = n_old; u < n; ++u) changed[u] = 1;
  for (const std::uint32_t e : dropped_edges) {
    if (!valid[e]) changed[edge_owner(e)] = 1;
  }
  std::vector<std::uint32_t> nb(std::size_t{n} + 1, 0);
  for (std::uint32_t u = 0; u < n; ++u) {
    std::uint32_t count = 0;  // (a list with an edge dropped is a changed one)
    if (u < n_old && !changed[u]) {
      count = up_begin_[u + 1] - up_begin_[u];
    } else if (u < n_old) {
      for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) count += valid[e];
    }
    nb[u + 1] = nb[u] + count + static_cast<std::uint32_t>(changed[u] ? added_at(u).size() : 0);
  }
  std::vector<std::uint32_t> nt(nb[n]), nv(nb[n]);
  std::vector<double> nc(nb[n]);
  if (!down_index_.lists.empty()) down_index_.lists.resize(n);
  // Where u's entry is (or goes) in a downward list, by rank.
  auto down_place = [&](std::vector<std::pair<std::uint32_t, std::uint32_t>>& down,
                        std::uint32_t u) {
    return std::lower_bound(
        down.begin(), down.end(), rank_[u],
        [&](const auto& entry, std::uint32_t r) { return rank_[entry.first] < r; });
  };
  std::vector<UpEdge> list;
  for (std::uint32_t u = 0; u < n;) {
    if (!changed[u]) {
      std::uint32_t end = u;
      while (end < n && !changed[end]) ++end;
      const std::uint32_t from = up_begin_[u], to = up_begin_[end], at = nb[u];
      std::copy(up_to_.begin() + from, up_to_.begin() + to, nt.begin() + at);
      std::copy(up_via_.begin() + from, up_via_.begin() + to, nv.begin() + at);
      std::copy(up_cost_.begin() + from, up_cost_.begin() + to, nc.begin() + at);
      u = end;
      continue;
    }
    list.clear();
    if (u < n_old) {
      for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
        if (valid[e]) list.push_back(UpEdge{up_to_[e], up_via_[e], up_cost_[e]});
      }
    }
    const std::vector<UpEdge>& more = added_at(u);
    list.insert(list.end(), more.begin(), more.end());
    std::sort(list.begin(), list.end(),
              [](const UpEdge& x, const UpEdge& y) { return x.to < y.to; });
    std::uint32_t at = nb[u];
    for (const UpEdge& x : list) {
      nt[at] = x.to;
      nv[at] = x.via;
      nc[at] = x.cost;
      ++at;
    }
    if (!down_index_.lists.empty()) {  // u's entries in the downward index, from its new list
      if (u < n_old) {
        for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
          auto& down = down_index_.lists[up_to_[e]];
          down.erase(down_place(down, u));
        }
      }
      for (std::uint32_t i = nb[u]; i < nb[u + 1]; ++i) {
        auto& down = down_index_.lists[nt[i]];
        down.insert(down_place(down, u), {u, i - nb[u]});
      }
    }
    ++u;
  }
  up_begin_ = std::move(nb);
  up_to_ = std::move(nt);
  up_via_ = std::move(nv);
  up_cost_ = std::move(nc);
  index_core();
  if (marks_k_ > 0) copy_mark_rows();  // (the subgoals this repair added among them)
  ++repairs_;
  return true;
}

void SubgoalHierarchy::add_base_box(std::uint32_t lo, std::uint32_t hi) {
  const Cell a = base_.sg_pos_[lo], c = base_.sg_pos_[hi];
  base_box_.push_back(BaseBox{static_cast<std::int16_t>(std::min(a.x, c.x)),
                              static_cast<std::int16_t>(std::min(a.y, c.y)),
                              static_cast<std::int16_t>(std::max(a.x, c.x)),
                              static_cast<std::int16_t>(std::max(a.y, c.y)), lo, hi});
}

void SubgoalHierarchy::index_base_boxes() {
  base_box_.clear();
  const auto n = static_cast<std::uint32_t>(up_begin_.size() - 1);
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t e = up_begin_[u]; e < up_begin_[u + 1]; ++e) {
      if (up_via_[e] == kNone) add_base_box(u, up_to_[e]);
    }
  }
}

// --- file format -----------------------------------------------------------------------------

namespace {
constexpr char kMagic[8] = {'P', 'L', 'S', 'G', 'C', 'H', '0', '1'};
}

bool SubgoalHierarchy::save(std::ostream& out, const grid::Grid& g) const {
  return g.width() == base_.width_ && g.height() == base_.height_ && save(out);
}

bool SubgoalHierarchy::save(std::ostream& out) const {
  if (repairs_ > 0) return false;
  // Written piece by piece: the edges of a large map are hundreds of megabytes.
  std::string counts;
  put(counts, static_cast<std::uint32_t>(base_.sg_cell_.size()));
  put(counts, static_cast<std::uint32_t>(up_to_.size()));
  put(counts, core_begin_);
  return write_framed(out, kMagic, kFormatVersion, base_.width_, base_.height_, base_.map_checksum_,
                      {counts, bytes_of(base_.sg_cell_), bytes_of(up_begin_), bytes_of(up_to_),
                       bytes_of(up_via_), bytes_of(up_cost_)});
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
  h.index_marks(g);
  h.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

// --- queries ---------------------------------------------------------------------------------

std::size_t HierarchyWorkspace::memory_bytes() const noexcept {
  return sizeof(*this) + (side_[0].capacity() + side_[1].capacity()) * sizeof(Side) +
         open_[0].bytes() + open_[1].bytes() +
         (ends_[0].capacity() + ends_[1].capacity() + chain_.capacity() + stack_.capacity()) *
             sizeof(std::uint32_t);
}

bool HierarchyWorkspace::search(const SubgoalHierarchy& h, std::uint32_t sc, std::uint32_t tc,
                                std::uint64_t& expanded, std::uint64_t node_limit,
                                bool& limit_hit) {
  const SubgoalGraph& b = h.base_;
  const std::size_t n = b.sg_cell_.size();
  // Grown, never cleared, when the graph gained subgoals (a repair: the next query must not pay
  // for the whole of it): a new entry's stamps (0) are below every search's; the stamps of
  // another graph's entries are below this search's too.
  for (auto& side : side_) {
    if (side.size() < n) side.resize(n, Side{0, 0, kNone});
  }
  stamp_ += 2;
  if (stamp_ < 2 || stamp_ > UINT32_MAX - 2) {
    for (auto& side : side_) side.assign(n, Side{0, 0, kNone});
    stamp_ = 2;
  }
  const std::uint32_t live = stamp_, settled = stamp_ + 1;
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
  for (int k = 0; k < 2; ++k) b.direct_subgoals(ends[k], ends_[k]);
  // The landmarks' bound (SubgoalHierarchy::mark_d_): an end's distance D(e) from a landmark
  // lies within D(a) -+ the octile distance a-e in units, for every subgoal a it directly
  // h-reaches (the octile path a-e is free); then D(v) - hi and lo - D(v) bound v's distance
  // to e from below, and change by at most an edge's cost along it (consistent).
  const int marks = h.marks_k_;
  bool use_marks = marks > 0 && !ends_[0].empty() && !ends_[1].empty();
  auto row_of = [&](std::uint32_t v) {
    return h.mark_d_.data() + std::size_t{v} * static_cast<std::size_t>(marks);
  };
  static_assert(SubgoalHierarchy::kMarks <= 8);
  for (int k = 0; k < 2 && use_marks; ++k) {
    for (int i = 0; i < marks; ++i) {
      lo_[k][i] = std::numeric_limits<std::int64_t>::min();
      hi_[k][i] = std::numeric_limits<std::int64_t>::max();
    }
    for (const std::uint32_t a : ends_[k]) {
      const std::int32_t ax = std::abs(b.sg_pos_[a].x - at[k].x);
      const std::int32_t ay = std::abs(b.sg_pos_[a].y - at[k].y);
      const std::int64_t o = std::int64_t{std::min(ax, ay)} * h.mark_diagonal_ +
                             std::int64_t{std::max(ax, ay) - std::min(ax, ay)} * h.mark_straight_;
      const std::int32_t* row = row_of(a);
      for (int i = 0; i < marks; ++i) {
        if (row[i] == Landmarks::kFar) use_marks = false;  // (another component)
        lo_[k][i] = std::max(lo_[k][i], std::int64_t{row[i]} - o);
        hi_[k][i] = std::min(hi_[k][i], std::int64_t{row[i]} + o);
      }
    }
  }
  // A lower bound on the way from v to the end the side k searches toward.
  auto bound = [&](int k, std::uint32_t v) {
    const double o = octile(b.sg_pos_[v], at[1 - k]);
    if (!use_marks) return o;
    const std::int32_t* row = row_of(v);
    const std::int64_t* lo = lo_[1 - k];
    const std::int64_t* hi = hi_[1 - k];
    std::int64_t u = 0;
    for (int i = 0; i < marks; ++i) {
      u = std::max(u, std::max(std::int64_t{row[i]} - hi[i], lo[i] - std::int64_t{row[i]}));
    }
    return std::max(o, static_cast<double>(u) * h.mark_unit_);
  };
  for (int k = 0; k < 2; ++k) {
    open_[k].clear();
    for (const std::uint32_t a : ends_[k]) {
      const double d = octile(at[k], b.sg_pos_[a]);
      Side& s = side_[k][a];
      if (s.mark >= live && s.d <= d) continue;
      s = Side{d, live, kNone};
      open_[k].push(HeapEntry{priority_key(d + bound(k, a)), a});
      const std::uint32_t ae = h.up_begin_[a];  // (as in relax below)
      __builtin_prefetch(h.up_to_.data() + ae);
      __builtin_prefetch(h.up_cost_.data() + ae);
    }
  }
  double best = std::numeric_limits<double>::infinity();
  meet_ = kNone;
  auto top = [&](int k) {
    return open_[k].empty() ? std::numeric_limits<double>::infinity()
                            : core::bit_cast<double>(open_[k].min_key());
  };
  for (;;) {
    const double t0 = top(0), t1 = top(1);
    if (t0 >= best - kEps && t1 >= best - kEps) break;
    const int k = t0 <= t1 ? 0 : 1;
    const std::uint32_t u = open_[k].pop().id;
    Side& su = side_[k][u];
    if (su.mark == settled) continue;
    su.mark = settled;
    const double d = su.d;
    if (expanded >= node_limit) {
      limit_hit = true;
      return false;
    }
    ++expanded;
    const Side& other = side_[1 - k][u];
    if (other.mark >= live && d + other.d < best) {
      best = d + other.d;
      meet_ = u;
    }
    const std::uint32_t first = h.up_begin_[u], last = h.up_begin_[u + 1];
    auto relax = [&](std::uint32_t v, double nd) {
      Side& sv = side_[k][v];
      // (A settled node cannot get a shorter label with a consistent key; kept safe.)
      if (sv.mark >= live && (sv.d <= nd || sv.mark == settled)) return;
      sv = Side{nd, live, u};
      open_[k].push(HeapEntry{priority_key(nd + bound(k, v)), v});
      // Its edges are read when it comes up, and those reads are the search's cache misses
      // (the edge arrays pass L2 on large maps): ask for them now.
      const std::uint32_t ve = h.up_begin_[v];
      __builtin_prefetch(h.up_to_.data() + ve);
      __builtin_prefetch(h.up_cost_.data() + ve);
    };
    if (h.in_core_[u]) {
      // In the core every edge is searched, up and down (its labels are exact: no stalling).
      for (std::uint32_t e = first; e < last; ++e) relax(h.up_to_[e], d + h.up_cost_[e]);
      for (std::uint32_t i = h.down_begin_[u]; i < h.down_begin_[u + 1]; ++i) {
        relax(h.down_from_[i], d + h.up_cost_[h.down_edge_[i]]);
      }
      continue;
    }
    bool stalled = false;
    for (std::uint32_t e = first; e < last && !stalled; ++e) {
      const Side& sv = side_[k][h.up_to_[e]];
      stalled = sv.mark >= live && sv.d + h.up_cost_[e] < d - kEps;
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
    const bool x_low = h.rank(x) < h.rank(y);
    const std::uint32_t lo = x_low ? x : y, hi = x_low ? y : x;
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
