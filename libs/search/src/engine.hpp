// Internal to the search module: the workspace every search reuses, heuristic functors,
// listener adapters and the shared path reconstruction. Not installed.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <pathlab/core/portable.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/grid/topology.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "map_heuristic.hpp"
#include "radix_queue.hpp"

namespace pathlab::search::detail {

using grid::DiagonalRule;
using grid::Grid;
using grid::NodeId;

/// The per-neighbour body of a search must be inlined into the neighbour loop (it was called
/// eight times per expansion otherwise).
#if defined(__GNUC__)
#define PATHLAB_INLINE __attribute__((always_inline))
#else
#define PATHLAB_INLINE
#endif

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// Per-node search values. Whether a cell is untouched, open or closed in this query is kept
/// apart, a byte a cell (Side::state): on maze512-1-0 the search was bound by the cache misses
/// on the rows above and below the expanded cell, and a byte array stays in L2 where the
/// records do not.
struct NodeRec {
  double g;
  NodeId parent;
};
static_assert(sizeof(NodeRec) == 16);

/// A heap key packs the priority f and a tie-break into one integer, so that heap order is a
/// single unsigned compare (branch mispredictions in the sift loops dominated the search time).
/// For f >= 0 the IEEE bits order like the values; their low 16 bits are replaced by the
/// tie-break. Dropping them also makes equal priorities tie: sums of 1 and sqrt(2) taken in
/// different orders differ in their last bits, and without this the tie-break would never
/// apply. The resolution, 2^-36 relative, is far below any difference between distinct path
/// costs, so the order between them, and optimality, are unchanged.
/// The tie-break prefers larger g / f (deeper cells first: far fewer expansions on open maps).
inline std::uint64_t make_key(double f, double g) noexcept {
  constexpr std::uint64_t low = 0xFFFF;
  const std::uint64_t bits = core::bit_cast<std::uint64_t>(f) & ~low;
  const double depth = f > 0 ? std::min(1.0, g / f) : 1.0;
  return bits | (low - static_cast<std::uint64_t>(depth * 65535.0));
}
/// The priority part of a key (f rounded down to the key's resolution).
inline double key_priority(std::uint64_t key) noexcept {
  return core::bit_cast<double>(key & ~std::uint64_t{0xFFFF});
}

/// Whether a new cost ng really improves on g. Paths of equal cost summed in different orders
/// differ in their last bits; treating that noise as an improvement reopens closed cells in
/// cascades (thousands per query on den520d). 1e-9 relative is far below any real difference
/// between distinct path costs.
inline bool improves(double ng, double g) noexcept {
  return ng < g - 1e-9 * g;
}

inline bool before(const HeapEntry& a, const HeapEntry& b) noexcept {
  return a.key < b.key;
}

/// Frees memory from malloc, aligned_alloc or calloc.
struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

/// A fixed-size array of node records in memory the kernel may back with 2 MiB pages: a
/// 1024x1024 map has 16 MiB of records, and with 4 KiB pages the search spent much of its time
/// on TLB misses. Plain memory where transparent huge pages are not available.
class NodeArray {
 public:
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  NodeRec& operator[](std::size_t i) noexcept { return data_.get()[i]; }
  const NodeRec& operator[](std::size_t i) const noexcept { return data_.get()[i]; }
  void assign(std::size_t n, const NodeRec& value) {
    if (n != size_) {
      data_.reset();
      constexpr std::size_t huge = std::size_t{2} << 20;
      const std::size_t bytes = std::max<std::size_t>(1, n * sizeof(NodeRec));
      const bool big = bytes >= huge / 4;  // wasting up to 1.5 MiB is worth it from here
      const std::size_t rounded = big ? (bytes + huge - 1) / huge * huge : bytes;
      void* p =
          std::aligned_alloc(big ? huge : alignof(NodeRec), big ? rounded : (bytes + 15) / 16 * 16);
      if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      if (big) madvise(p, rounded, MADV_HUGEPAGE);
#endif
      data_.reset(static_cast<NodeRec*>(p));
      size_ = n;
    }
    std::fill(data_.get(), data_.get() + n, value);
  }

 private:
  std::unique_ptr<NodeRec, FreeDeleter> data_;
  std::size_t size_ = 0;
};

/// One search direction's state: node records, a state byte per cell, and one of two open
/// lists, chosen per query:
/// - radix (the `radix` queue): monotone searches (A*, Dijkstra, JPS, JPS+). A better g pushes
///   the cell again; the worse entry is stale (its cell closed) when it comes up.
/// - indexed binary heap (push / pop): each cell at most once, a better g moves it (its slot is
///   in pos_). For searches that need the heap's top to be live (bidirectional A*'s stopping
///   rule) or keys that may go down (weighted A* and JPS). (Theta* and Lazy Theta* keep theirs
///   in the workspace's DipQueue.)
struct Side {
  NodeArray nodes;
  std::vector<HeapEntry> heap;
  RadixQueue radix;  ///< the open list of searches whose keys never decrease
  /// This query's generation: state == gen is open, gen + 1 closed, anything else untouched.
  /// It advances by 2 per query; when it runs out the states are cleared (every 126 queries).
  std::uint8_t gen = 0;

  void begin(std::size_t n) {
    if (nodes.size() != n) {
      nodes.assign(n, NodeRec{kInf, 0});
      // Zeroed pages from the kernel, touched only where cells are reached.
      state_.reset(static_cast<std::uint8_t*>(std::calloc(n, 1)));
      if (!state_) throw std::bad_alloc();
      pos_.reset();  // allocated by the first indexed push
      gen = 0;
    }
    if (gen >= 252) {
      std::fill(state_.get(), state_.get() + n, std::uint8_t{0});
      gen = 0;
    }
    gen += 2;
    heap.clear();
    radix.clear();
  }
  [[nodiscard]] std::size_t bytes() const noexcept {
    return nodes.size() * (sizeof(NodeRec) + 1 + (pos_ ? sizeof(std::uint32_t) : 0)) +
           heap.capacity() * sizeof(HeapEntry) + radix.bytes();
  }
  /// The cell's state byte, to compare with gen.
  [[nodiscard]] std::uint8_t state(NodeId n) const noexcept { return state_.get()[n]; }
  [[nodiscard]] bool seen(NodeId n) const noexcept { return state(n) >= gen; }
  [[nodiscard]] bool closed(NodeId n) const noexcept { return state(n) == gen + 1; }
  /// First sight of n in this query, or a better g for a cell already seen (which reopens it).
  void open(NodeId n, double g, NodeId parent) noexcept {
    nodes[n] = {g, parent};
    state_.get()[n] = gen;
  }
  void close(NodeId n) noexcept { state_.get()[n] = static_cast<std::uint8_t>(gen + 1); }
  [[nodiscard]] double g(NodeId n) const noexcept { return seen(n) ? nodes[n].g : kInf; }
  [[nodiscard]] bool stale(const HeapEntry& e) const noexcept { return closed(e.id); }

  // --- indexed use ----------------------------------------------------------------------------
  /// Puts n in the heap with this priority, or moves it there if it is in already.
  void push(double f, double g, NodeId n) { push(HeapEntry{make_key(f, g), n}); }
  void push(const HeapEntry e) {
    if (!pos_) allocate_pos();
    if (!in_heap(e.id)) {
      push_new(e);
    } else if (const std::uint32_t at = pos_.get()[e.id]; e.key < heap[at].key) {
      sift_up(at, e);
    } else {
      sift_down(at, e);
    }
  }
  /// Puts n, known not to be in the heap, in it.
  void push_new(const HeapEntry e) {
    if (!pos_) allocate_pos();
    heap.push_back(e);
    sift_up(heap.size() - 1, e);
  }
  /// Whether n has an entry in the heap. A slot is trusted only if it holds n, so nothing
  /// is cleared when an entry leaves.
  [[nodiscard]] bool in_heap(NodeId n) const noexcept {
    if (!pos_) return false;
    const std::uint32_t at = pos_.get()[n];
    return at < heap.size() && heap[at].id == n;
  }
  /// The best entry (the heap is not empty).
  HeapEntry pop() {
    const HeapEntry top = heap.front();
    const HeapEntry last = heap.back();
    heap.pop_back();
    if (!heap.empty()) sift_down(0, last);
    return top;
  }
  /// Drops stale entries from the top.
  void prune_top() {
    while (!heap.empty() && stale(heap.front())) pop();
  }

 private:
  std::unique_ptr<std::uint8_t, FreeDeleter> state_;  ///< per cell, see gen
  std::unique_ptr<std::uint32_t, FreeDeleter> pos_;   ///< indexed use: each cell's heap slot

  void allocate_pos() {
    // Zeroed pages from the kernel, touched only where cells are pushed.
    pos_.reset(static_cast<std::uint32_t*>(std::calloc(nodes.size(), sizeof(std::uint32_t))));
    if (!pos_) throw std::bad_alloc();
  }
  void place(std::size_t i, const HeapEntry& e) noexcept {
    heap[i] = e;
    pos_.get()[e.id] = static_cast<std::uint32_t>(i);
  }
  /// Moves e up from the hole at i.
  void sift_up(std::size_t i, const HeapEntry e) noexcept {
    while (i > 0) {
      const std::size_t parent = (i - 1) / 4;
      if (!before(e, heap[parent])) break;
      place(i, heap[parent]);
      i = parent;
    }
    place(i, e);
  }
  /// Moves e down from the hole at i.
  void sift_down(std::size_t i, const HeapEntry e) noexcept {
    const HeapEntry* h = heap.data();
    const std::size_t n = heap.size();
    for (;;) {
      const std::size_t c = 4 * i + 1;
      std::size_t best;
      if (c + 3 < n) {  // a full node: a branch-free tournament of its four children
        const std::size_t a = before(h[c + 1], h[c]) ? c + 1 : c;
        const std::size_t b = before(h[c + 3], h[c + 2]) ? c + 3 : c + 2;
        best = before(h[b], h[a]) ? b : a;
      } else if (c < n) {
        best = c;
        for (std::size_t k = c + 1; k < n; ++k) best = before(h[k], h[best]) ? k : best;
      } else {
        break;
      }
      if (!before(h[best], e)) break;
      place(i, h[best]);
      i = best;
    }
    place(i, e);
  }
};

/// Frame of the explicit DFS stack used by iterative deepening searches.
struct Frame {
  NodeId node;
  std::uint16_t next_dir;
  double g;
};

/// anyangle-exact's per-grid state (the visibility graph of wall corners), built on the first
/// query and rebuilt when the grid or the rule changes. Defined in anyangle_exact.cpp.
struct ExactCache;
void destroy(ExactCache* p) noexcept;
[[nodiscard]] std::size_t bytes_of(const ExactCache& c) noexcept;
struct ExactCacheDeleter {
  void operator()(ExactCache* p) const noexcept { destroy(p); }
};

/// jps / jps+ per-grid state (the transposed wall bits, the JPS+ jump table), built on first
/// use and rebuilt when the grid's walls change. Defined in jps.hpp.
struct JpsCache;
void destroy(JpsCache* p) noexcept;
/// Its own memory; the JPS+ table, shared between finders, is PrepareInfo::bytes.
[[nodiscard]] std::size_t bytes_of(const JpsCache& c) noexcept;

/// subgoal's per-grid state (the two-level subgoal graph, shared between finders, and the
/// search state over it), built on first use and rebuilt when the grid's walls change.
/// Defined in subgoal_graph.hpp.
struct SubgoalCache;
void destroy(SubgoalCache* p) noexcept;
struct SubgoalCacheDeleter {
  void operator()(SubgoalCache* p) const noexcept { destroy(p); }
};
/// Its own memory (the search state); the graph is PrepareInfo::bytes.
[[nodiscard]] std::size_t bytes_of(const SubgoalCache& c) noexcept;
/// subgoal-ch's: the same for the contraction hierarchy (subgoal_ch.hpp).
struct HierarchyCache;
void destroy(HierarchyCache* p) noexcept;
struct HierarchyCacheDeleter {
  void operator()(HierarchyCache* p) const noexcept { destroy(p); }
};
[[nodiscard]] std::size_t bytes_of(const HierarchyCache& c) noexcept;

/// Bytes a vector holds (its capacity).
template <class T>
[[nodiscard]] std::size_t capacity_bytes(const std::vector<T>& v) noexcept {
  return v.capacity() * sizeof(T);
}
struct JpsCacheDeleter {
  void operator()(JpsCache* p) const noexcept { destroy(p); }
};

/// A grid's walls by column (column x's bits, bit y set for a wall), so that a sight line
/// steeper than wide is tested a word of rows at a time (grid::detail::los_runs with the axes
/// swapped). Theta* and Lazy Theta* build it on the first such line of a grid and rebuild it
/// when the grid (address or revision) changes.
struct WallColumns {
  const Grid* grid = nullptr;
  std::uint64_t revision = 0;
  std::size_t words = 0;            ///< per column
  std::vector<std::uint64_t> bits;  ///< column x: words [x * words, (x + 1) * words)
  /// Brings it up to date with g.
  void update(const Grid& g) {
    if (grid == &g && revision == g.revision()) return;
    grid = &g;
    revision = g.revision();
    words = (static_cast<std::size_t>(g.height()) + 63) / 64;
    bits.assign(words * static_cast<std::size_t>(g.width()), 0);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        if (!g.passable(x, y)) {
          bits[static_cast<std::size_t>(x) * words + (static_cast<std::size_t>(y) >> 6)] |=
              std::uint64_t{1} << (y & 63);
        }
      }
    }
  }
  /// Whether a wall stands in rows [y0, y1] of column x (cells of the map).
  [[nodiscard]] bool any(std::int64_t x, std::int64_t y0, std::int64_t y1) const noexcept {
    return grid::detail::any_bit(bits.data() + static_cast<std::size_t>(x) * words,
                                 static_cast<std::size_t>(y0), static_cast<std::size_t>(y1));
  }
};
/// Line of sight between the centres of (ax, ay) and (bx, by) (ax != bx) on a plain map under
/// R (not one-corner) from its walls by column: what grid::line_of_sight says, a word of rows
/// at a time (theta.cpp).
template <DiagonalRule R>
[[nodiscard]] bool steep_line_of_sight(const WallColumns& columns, int ax, int ay, int bx, int by);

}  // namespace pathlab::search::detail

namespace pathlab::search {
struct Pathfinder::Workspace {
  std::unique_ptr<detail::ExactCache, detail::ExactCacheDeleter> exact;
  std::unique_ptr<detail::JpsCache, detail::JpsCacheDeleter> jps;
  std::unique_ptr<detail::SubgoalCache, detail::SubgoalCacheDeleter> subgoal;
  std::unique_ptr<detail::HierarchyCache, detail::HierarchyCacheDeleter> hierarchy;
  /// Microseconds of this query spent building per-grid preprocessed data (the JPS+ table, a
  /// unit's view): reported as preparation, not as query time.
  double prep_us = 0;
  /// The grid searched for `view_unit` while the finder's grid had revision `view_base`:
  /// the grid's view for that unit (owned here too), or the grid itself (view_grid null).
  grid::Unit view_unit;
  std::uint64_t view_base = 0;
  const grid::Grid* view_for = nullptr;
  std::shared_ptr<const grid::Grid> view_grid;
  detail::Side side[2];
  std::vector<grid::NodeId> queue;
  std::vector<grid::NodeId> next;
  std::vector<grid::NodeId> moves;  ///< depth-first search: the moves out of one cell
  std::vector<detail::Frame> stack;
  std::vector<Cell> scratch;
  /// A second per-cell flag as generation stamps (Lazy Theta*: "this parent is known visible").
  std::vector<std::uint32_t> stamps;
  /// Theta*, Lazy Theta*: the grid's walls by column, for steep sight lines.
  detail::WallColumns columns;
  /// Theta*'s and Lazy Theta*'s open list (their priorities may dip below the last popped).
  detail::DipQueue dip;
  /// Sliced search (Pathfinder::start_sliced): the search carries on from the open list and
  /// node records a previous slice left (no initialisation), its limit this slice's.
  bool resume = false;
  /// jps+ is standing in for a subgoal method while its graph is rebuilt (subgoal.cpp): its
  /// landmarks only on maps of at most kStandInMarksCells (elsewhere their memory, up to
  /// 128 MiB, would stay with a finder that asked for neither).
  bool standing_in = false;
  bool sliced_active = false;
  grid::NodeId sliced_start = 0, sliced_goal = 0;
  Options sliced_options;
  Stats sliced_stats;
  const grid::Grid* sliced_grid = nullptr;
  std::uint64_t sliced_revision = 0;
  /// The heuristic on maps that are not plain (hex, edge walls, layers, links).
  detail::MapHeuristic map_h;
  detail::MapHeuristic map_h_back;  ///< bidirectional searches: toward the start, reversed
  /// Best-first searches on maps that are not plain: h of each cell seen in this query (valid
  /// where side[0] has seen the cell), so that MapHeuristic runs once per cell.
  std::vector<double> h_seen;
  /// The nearest of several goals by an algorithm run once per goal: each run's result.
  Result goal_result;
  std::vector<grid::NodeId> goal_ids;
};
}  // namespace pathlab::search

namespace pathlab::search::detail {

// --- heuristics: functors of (dx, dy) >= 0, already scaled by the cost model -------------------
struct ZeroH {
  static constexpr bool is_zero = true;
  double operator()(int, int) const noexcept { return 0.0; }
};
struct ManhattanH {
  static constexpr bool is_zero = false;
  double s;
  double operator()(int dx, int dy) const noexcept { return s * (dx + dy); }
};
struct OctileH {
  static constexpr bool is_zero = false;
  double s, d;
  double operator()(int dx, int dy) const noexcept {
    const int mn = std::min(dx, dy), mx = std::max(dx, dy);
    return s * (mx - mn) + d * mn;
  }
};
struct EuclideanH {
  static constexpr bool is_zero = false;
  double s;
  double operator()(int dx, int dy) const noexcept {
    return s * std::sqrt(static_cast<double>(dx) * dx + static_cast<double>(dy) * dy);
  }
};
struct ChebyshevH {
  static constexpr bool is_zero = false;
  double s;
  double operator()(int dx, int dy) const noexcept { return s * std::max(dx, dy); }
};

template <class Body>
decltype(auto) dispatch_heuristic(Heuristic h, const grid::Moves& m, Body&& body) {
  const double s = m.straight_cost(), d = m.diagonal_cost();
  switch (h) {
    case Heuristic::manhattan:
      return body(ManhattanH{s});
    case Heuristic::euclidean:
      return body(EuclideanH{s});
    case Heuristic::chebyshev:
      return body(ChebyshevH{s});
    case Heuristic::zero:
      return body(ZeroH{});
    case Heuristic::octile:
    default:
      return body(OctileH{s, d});
  }
}

/// Distance functor toward a fixed target cell.
template <class H>
struct Toward {
  H h;
  int tx, ty;
  double operator()(int x, int y) const noexcept { return h(std::abs(x - tx), std::abs(y - ty)); }
};

// --- listeners: the engine calls these with node ids --------------------------------------
struct NullListener {
  static constexpr bool enabled = false;
  void opened(NodeId, NodeId, double, double, int) {}
  void updated(NodeId, NodeId, double, double, int) {}
  void closed(NodeId, int) {}
  void iteration(double) {}
  void meet(NodeId, NodeId) {}
  void line_of_sight(NodeId, NodeId, bool) {}
};

struct DynamicListener {
  static constexpr bool enabled = true;
  const Grid& grid;
  SearchListener& l;
  void opened(NodeId n, NodeId p, double g, double f, int side) {
    l.on_opened(grid.cell(n), grid.cell(p), g, f, side);
  }
  void updated(NodeId n, NodeId p, double g, double f, int side) {
    l.on_updated(grid.cell(n), grid.cell(p), g, f, side);
  }
  void closed(NodeId n, int side) { l.on_closed(grid.cell(n), side); }
  void iteration(double bound) { l.on_iteration(bound); }
  void meet(NodeId a, NodeId b) { l.on_meet(grid.cell(a), grid.cell(b)); }
  void line_of_sight(NodeId a, NodeId b, bool visible) {
    l.on_line_of_sight(grid.cell(a), grid.cell(b), visible);
  }
};

/// Node id -> (x, y) without a hardware division (two per expansion were measurable):
/// y = id / stride as a multiply-shift, exact while id * stride < 2^40; else it divides.
struct CellOf {
  std::uint64_t magic = 0;
  std::uint32_t stride;
  bool exact;
  explicit CellOf(const Grid& g)
      : stride(static_cast<std::uint32_t>(g.stride())),
        exact(static_cast<double>(g.padded_size()) * g.stride() < 1099511627776.0) {
    magic = (std::uint64_t{1} << 40) / stride + 1;
  }
  /// Writes the cell's x and y (unpadded).
  void operator()(NodeId id, int& x, int& y) const noexcept {
    const std::uint32_t row =
        exact ? static_cast<std::uint32_t>((std::uint64_t{id} * magic) >> 40) : id / stride;
    x = static_cast<int>(id - row * stride) - 1;
    y = static_cast<int>(row) - 1;
  }
};

/// Offsets of the eight directions in padded ids.
struct DirOffsets {
  std::int32_t off[8];
  explicit DirOffsets(const Grid& g) {
    for (int d = 0; d < 8; ++d) off[d] = grid::kDx[d] + grid::kDy[d] * g.stride();
  }
};

/// Whether moving from n in direction d is legal under rule R; writes the target to `out`.
template <DiagonalRule R>
inline bool step_in(const Grid& g, const DirOffsets& o, NodeId n, int d, NodeId& out) noexcept {
  if constexpr (R == DiagonalRule::never) {
    if (d >= 4) return false;
  }
  out = n + o.off[d];
  if (!g.passable_id(out)) return false;
  if (d < 4) return true;
  const bool a = g.passable_id(n + grid::kDx[d]);
  const bool b = g.passable_id(n + grid::kDy[d] * g.stride());
  if constexpr (R == DiagonalRule::no_corner_cut) return a && b;
  if constexpr (R == DiagonalRule::one_corner) return a || b;
  return true;
}

/// Cost of entering `to` with a straight (d < 4) or diagonal step.
inline double step_cost(const Grid& g, const grid::Moves& m, int d, NodeId to) noexcept {
  const double base = d < 4 ? m.straight_cost() : m.diagonal_cost();
  return g.has_terrain() ? base * g.terrain_id(to) : base;
}

/// Appends start..n (following parents on `side` back to `start`) to out, in order.
inline void append_chain_forward(const Grid& g, const Side& side, NodeId start, NodeId n,
                                 std::vector<Cell>& out) {
  const std::size_t first = out.size();
  for (NodeId c = n;; c = side.nodes[c].parent) {
    out.push_back(g.cell(c));
    if (c == start) break;
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

/// Appends n..goal following backward-side parents (each parent is one step closer to goal).
inline void append_chain_backward(const Grid& g, const Side& side, NodeId goal, NodeId n,
                                  std::vector<Cell>& out) {
  for (NodeId c = n;; c = side.nodes[c].parent) {
    out.push_back(g.cell(c));
    if (c == goal) break;
  }
}

/// How the best-first family weighs a node: f = g_weight*g + h_weight*h with `heuristic`, and
/// whether a closed node is reopened on a better g.
struct BestFirstRule {
  double g_weight = 1.0;
  double h_weight = 1.0;
  bool reopen = true;
  Heuristic heuristic = Heuristic::octile;
};
/// The rule of the options' algorithm: dijkstra (h zero), greedy (f = h, no reopening), wastar
/// (no reopening: the w*opt bound holds without), astar (reopening when w <= 1); any other
/// algorithm gets A*'s with weight 1.
[[nodiscard]] BestFirstRule best_first_rule(const Options& o) noexcept;

/// Whether the algorithm is of the best-first family (dijkstra, astar, wastar, greedy).
[[nodiscard]] bool best_first_family(Algorithm a) noexcept;
/// The nearest of several goals by one best-first search (query_shapes.cpp).
template <class L>
Status run_multi_goal(const Grid&, const Options&, NodeId s, std::span<const NodeId> goals,
                      Pathfinder::Workspace&, Result&, L&);
/// The partial path toward the goals (Options::partial), path and reached cell.
void run_partial(const Grid&, const Options&, NodeId s, std::span<const NodeId> goals,
                 Pathfinder::Workspace&, Result::Partial& out);
/// Movement range within a budget.
Status run_reach(const Grid&, const Options&, NodeId s, double budget, Pathfinder::Workspace&,
                 std::vector<ReachCell>& out);

/// fallback_note for the grid actually searched (the unit's view already applied).
[[nodiscard]] std::string_view note_for(const Grid& searched, const Options& o) noexcept;

// Fallbacks (Result::answered_by, fallback, note), defined in jps.cpp beside note_for, used by
// jps.cpp and subgoal.cpp.
/// The answer of `asked` falling back for `why`: the algorithm answering and the note (for
/// Fallback::rebuilding, use the form with `by`: its stand-in depends on the map).
[[nodiscard]] FallbackInfo fallback_info(Algorithm asked, Fallback why) noexcept;
/// The same, answered by `by`.
[[nodiscard]] FallbackInfo fallback_info(Algorithm asked, Fallback why, Algorithm by) noexcept;
/// Maps of at most this many cells have jps+ stand in for a subgoal method whose graph is
/// being rebuilt (Fallback::rebuilding): a jump table of 16 bytes a cell, 32 MiB here, built in
/// tens of milliseconds on the query's thread when first needed and repaired after each edit.
/// Larger maps have jps, which needs no table.
inline constexpr std::uint64_t kStandInTableCells = std::uint64_t{1} << 21;
/// ... and of at most this many cells, jps+'s landmarks too (their tables are 8 bytes a cell
/// per landmark, at most 16: 32 MiB here): built on another core where one is free (see
/// stand_in_cache), else once the stand-in's queries would have saved their time.
inline constexpr std::uint64_t kStandInMarksCells = std::uint64_t{1} << 18;
/// The cells of g (width times height).
[[nodiscard]] inline std::uint64_t cells_of(const Grid& g) noexcept {
  return std::uint64_t{static_cast<std::uint32_t>(g.width())} *
         static_cast<std::uint32_t>(g.height());
}
[[nodiscard]] inline bool stand_in_marks(const Grid& g) noexcept {
  return cells_of(g) <= kStandInMarksCells;
}
/// The jps+ cache of a finder whose jps+ stands in on grid g for a query with o (jps_cache).
/// Its landmarks never stall a query: where another core is free, they are built there (from
/// a copy of the map) and taken here once in, repaired up to date; elsewhere they are put off
/// the first time, until the stand-in's queries would have saved their time.
JpsCache& stand_in_cache(Pathfinder::Workspace& ws, const Grid& g, const Options& o);
/// Starts the build of the stand-in's landmarks on another core, if they would be used, none
/// are built or building, and the build would take at most within_s seconds (its last time,
/// or an estimate); stand_in_cache takes them once in.
void start_stand_in_marks(Pathfinder::Workspace& ws, const Grid& g, const Options& o,
                          double within_s);
/// The algorithm answering for a subgoal method while its graph is rebuilt on grid g: jps+
/// (within kStandInTableCells, and table_applies) or jps.
[[nodiscard]] Algorithm rebuild_stand_in(const Grid& g) noexcept;
/// How a query with o is answered on the grid actually searched (the unit's view applied),
/// every reason but rebuilding.
[[nodiscard]] FallbackInfo fallback_on(const Grid& searched, const Options& o) noexcept;
/// Records f in out (answered_by, fallback, note).
void set_fallback(Result& out, const FallbackInfo& f) noexcept;

// Families, each in its own translation unit. They fill out.path (and set status); the
// Pathfinder computes the cost and times the query.
template <class L>
Status run_best_first(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&,
                      Result&, L&);
template <class L>
Status run_bidirectional_astar(const Grid&, const Options&, NodeId s, NodeId t,
                               Pathfinder::Workspace&, Result&, L&);
template <class L>
Status run_idastar(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&, Result&,
                   L&);
template <class L>
Status run_theta(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&, Result&,
                 L&);
/// Fills out.points (vertices, lattice corners included) and out.path.
template <class L>
Status run_anyangle_exact(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&,
                          Result&, L&);

/// The resolution of any-angle endpoints that are not cell centres or corners: points are held
/// exactly as multiples of 1 / kPointScale of a cell, so every geometric test stays exact
/// integer arithmetic (products stay below 2^56 on maps up to 32768 cells a side).
inline constexpr std::int64_t kPointScale = 4096;

/// An endpoint of an any-angle query between points (Pathfinder::find_points, find_corners).
struct ExactPoint {
  std::int64_t x = 0;  ///< map units times kPointScale
  std::int64_t y = 0;  ///< map units times kPointScale
  Cell cell;           ///< a free cell whose closed square holds the point (the path's cell)
  /// The competition's rule for endpoints on a squeeze (two walls touching at the point):
  /// segments leave and arrive only through this quadrant, (+1, +1) being the cell south-east
  /// of the point. (0, 0): any free direction.
  std::int8_t qx = 0;
  std::int8_t qy = 0;
};

/// The endpoint at point p (map units) on grid g: snapped to the nearest multiple of
/// 1 / kPointScale; nullopt when not finite, outside the map, or not in the closed square of a
/// free cell (inside a wall, or on an edge between two walls).
[[nodiscard]] std::optional<ExactPoint> exact_point(const Grid& g, Point p) noexcept;
/// The competition's endpoint of cell c: its top-left corner, leaving and arriving through c
/// itself on a squeeze; nullopt when c is not a free cell of g.
[[nodiscard]] std::optional<ExactPoint> exact_corner(const Grid& g, Cell c) noexcept;

/// anyangle-exact between two points (find_points, find_corners): out.points starts and ends
/// at the snapped points; out.path holds their cells.
template <class L>
Status run_anyangle_exact_points(const Grid&, const Options&, const ExactPoint& s,
                                 const ExactPoint& t, Pathfinder::Workspace&, Result&, L&);
/// subgoal and subgoal-ch (fall back to A* on terrain, other diagonal rules or costs; set
/// out.note).
template <class L>
Status run_subgoal(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&, Result&,
                   L&);
/// jps and jps+ (fall back to A* on terrain or other diagonal rules; set out.note).
template <class L>
Status run_jps(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&, Result&,
               L&);
template <class L>
Status run_unit_cost(const Grid&, const Options&, NodeId s, NodeId t, Pathfinder::Workspace&,
                     Result&, L&);

}  // namespace pathlab::search::detail
