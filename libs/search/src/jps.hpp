// Internal to the search module: what jps (jps.cpp) and jps+ (jps_plus.cpp) share. The A* loop
// over jump points, templated on a jumper that generates a node's successors; the per-grid
// cache (transposed wall bits, the JPS+ table); the path expansion from jump points to cells.
// Rules (shared docs/ALGORITHMS.md, "Jump Point Search"): 8-neighbour, no corner cutting;
// straight jumps stop at the goal or at a cell with a forced neighbour; diagonal jumps need
// both orthogonal cells free at every step. Harabor & Grastien 2014, "Improving Jump Point
// Search": block-based jumping and pruning of intermediate jump points — a diagonal jump never
// puts its own cells on the open list: it continues to its end and generates, as successors
// of its origin, the jump points its straight sub-jumps reach. So a successor is reached from
// its parent by k diagonal steps then m straight ones (either may be 0), which is how the path
// is rebuilt cell by cell and how the direction a node was entered by is recovered.
#pragma once

#include <cstring>
#include <future>
#include <memory>
#include <span>
#include <vector>

#include "components.hpp"
#include "engine.hpp"
#include "landmarks.hpp"
#include "two_cores.hpp"

namespace pathlab::search::detail {

/// Tables hold distances in int16: maps wider or taller than this fall back to online jps.
inline constexpr int kMaxTableSide = 32000;

/// JPS+ jump distances for every padded cell, 8 per cell in the order of grid::kDx (N, E, S, W,
/// NE, SE, SW, NW). Straight d: > 0, the distance to the next cell with a forced neighbour in
/// that direction; 0 when a wall comes first (how far is not kept: an edit would change every
/// entry back to the jump point before). Diagonal d: > 0, the
/// steps to the next cell where a straight jump along either component direction finds a jump
/// point; <= 0, minus the number of legal diagonal steps. Immutable once built; shared.
struct JumpTable {
  int width = 0;
  int height = 0;
  std::uint64_t map_checksum = 0;
  /// 8 entries a padded cell, in huge pages where the system gives them (a query reads
  /// records all over a table of up to 32 MiB).
  std::vector<std::int16_t, CacheLineAllocator<std::int16_t>> dist;
  double seconds = 0;  ///< build time, or load time when loaded
  bool loaded = false;
  [[nodiscard]] std::size_t bytes() const noexcept {
    return sizeof(JumpTable) + dist.size() * sizeof(std::int16_t);
  }
};

/// Builds the table of a unit-terrain grid (W, H <= kMaxTableSide).
[[nodiscard]] std::shared_ptr<const JumpTable> build_jump_table(const Grid& g);
/// Brings a table built for an earlier revision of g up to date, given the areas changed
/// since (Grid::changes_since): only the entries an edit can reach are recomputed. The result
/// equals build_jump_table(g)'s table. `scratch` is reused between calls.
void repair_jump_table(const Grid& g, JumpTable& t, std::span<const grid::Rect> areas,
                       std::vector<std::uint64_t>& scratch);

struct JpsCache {
  std::uint64_t revision = 0;           ///< the grid's revision when built (Grid::revision)
  std::vector<grid::Rect> changes;      ///< scratch: areas changed since `revision`
  std::vector<std::uint64_t> repaired;  ///< scratch of repair_jump_table
  /// Transposed wall bits: column x is a "row" of stride height+2 (padded like the grid), so
  /// vertical jumps are the same word scans as horizontal ones. Empty until jps needs it.
  std::vector<std::uint64_t> cols;
  std::shared_ptr<const JumpTable> table;
  /// jps+'s connected components, beside the table (not shared with it: built by the first
  /// query that has none): a goal in another component is answered at once. Repaired with the
  /// table; labelled again after a search finds no path where walls were added since.
  Components comps;
  /// jps+'s differential heuristic (landmarks.hpp), built with the table by prepare() or the
  /// first query and repaired with it. An edit whose repair would pass its budget, or that
  /// leaves the bound stale, clears it. Then kAfterEdit (jps.cpp) are built again at the next
  /// prepare() or query, unless the last ones saved less than half their build (measured by
  /// control queries; see run_jps); those, and the landmarks of a map without walls or of a
  /// stand-in's first table, are put off: built once the queries answered without them since
  /// would have saved a landmark's build twice over (ski rental: never much more than the
  /// better of building at once and never), so that a map patched between every few queries
  /// does not pay for builds its queries cannot repay. Fewer than the map holds are built
  /// again twice as many once they have saved four times their build.
  Landmarks marks;
  bool marks_deferred = false;
  int marks_want = Landmarks::kMax;  ///< how many the next build takes (when not put off)
  double marks_debt_us = 0;          ///< query time they would have saved since put off
  double marks_price_us = 0;         ///< the last build's time (0: none yet, estimated)
  double marks_each_us = 0;          ///< the last build's time a landmark
  double marks_used_us = 0;          ///< query time they saved since their build and an edit
  bool marks_edited = false;         ///< an edit came since their build
  bool marks_changing = false;       ///< an edit gave landmarks up before
  std::uint64_t marks_queries = 0;   ///< queries counted: every 64th a control
  double marks_saving = -1;          ///< the share of a query they save (< 0: not measured)
  double marks_paid = 1;             ///< what they saved over their build, lately (a mean)
  /// The fewest cells changed whose repair failed (its budget passed): larger changes skip it.
  std::int64_t marks_failed_area = std::numeric_limits<std::int64_t>::max();
  double marks_backoff = 1;        ///< the next build waits this many times its price
  bool sliced_with_marks = false;  ///< the last search began with the landmarks' bound
  double repair_us = 0;            ///< time of the last repair (after an edit), 0 if none
  /// A subgoal method's stand-in (subgoal.cpp, stand_in_cache): its landmarks built on
  /// another core from a copy of the map at marks_pending_revision, then repaired up to date
  /// and taken by a later query, so that the stand-in gets them without a stall.
  std::future<Landmarks> marks_pending;
  std::uint64_t marks_pending_revision = 0;

  /// The bookkeeping of landmarks just put in `marks` (built here or taken from another core):
  /// their price is their build's time; `edited` when the map changed since their build.
  void marks_in(bool edited) noexcept {
    marks_price_us = marks.seconds * 1e6;
    marks_want = marks.count();
    marks_each_us = marks_want > 0 ? marks_price_us / marks_want : 0;
    marks_used_us = 0;
    marks_edited = edited;
    marks_deferred = false;
    marks_debt_us = 0;
  }
  /// Whether the savings of the landmarks in use are counted: once an edit came since their
  /// build or gave others up before, and while they may grow (not otherwise: two clock reads
  /// are 5% of a query on a small map).
  [[nodiscard]] bool marks_counted() const noexcept {
    return marks_edited || marks_changing || (!marks.empty() && marks.count() < marks.room());
  }
  /// Whether this was built for g's cells (one compare per query: comparing the walls cost
  /// 1-2 us a query on den520d, a sixth of a JPS+ query).
  [[nodiscard]] bool up_to_date(const Grid& g) const noexcept { return revision == g.revision(); }
  void reset(const Grid& g) {
    cols.clear();
    table.reset();
    comps.clear();
    marks = Landmarks{};
    marks_deferred = false;
    marks_debt_us = 0;
    marks_used_us = 0;
    marks_edited = false;
    marks_changing = false;
    marks_queries = 0;
    marks_saving = -1;
    marks_paid = 1;
    marks_failed_area = std::numeric_limits<std::int64_t>::max();
    marks_backoff = 1;
    marks_want = Landmarks::kMax;
    revision = g.revision();
  }
};

/// The workspace's cache, reset for g when stale.
JpsCache& jps_cache(Pathfinder::Workspace& ws, const Grid& g);
/// Builds jps+'s table and components when missing (throws std::bad_alloc).
void ensure_table(JpsCache& c, const Grid& g);
/// Whether jps+'s landmarks for moves m are missing (or built for other costs) and due: not
/// put off, or put off with the build's price paid in queries since; never on maps too large.
[[nodiscard]] bool landmarks_due(const JpsCache& c, const Grid& g, const grid::Moves& m) noexcept;
/// Builds jps+'s landmarks when due; a map without walls puts them off instead (the octile
/// distance is exact there), and no memory for them gives them up for good. Throws
/// std::bad_alloc only from labelling the components, when they are missing.
void ensure_landmarks(JpsCache& c, const Grid& g, const grid::Moves& m);
/// Builds the transposed bits when missing.
void ensure_columns(JpsCache& c, const Grid& g);
/// Whether jps / jps+ search this grid with these moves (else they answer with A*).
[[nodiscard]] bool jps_applies(const Grid& g, const grid::Moves& m) noexcept;
[[nodiscard]] bool table_applies(const Grid& g) noexcept;

// --- 64-cell windows of a padded bit stream (bit set = wall) -------------------------------

/// Bits [b, b+64) of the stream, bit i = cell b+i. Needs w[(b>>6)+1] to exist.
inline std::uint64_t window_from(const std::uint64_t* w, std::uint32_t b) noexcept {
  const std::uint32_t i = b >> 6, s = b & 63;
  return (w[i] >> s) | ((w[i + 1] << 1) << (63 - s));
}
/// Bits (e-64, e], bit 63 = cell e, bit 63-i = cell e-i; cells before the stream read as walls.
inline std::uint64_t window_to(const std::uint64_t* w, std::int64_t e) noexcept {
  if (e >= 63) return window_from(w, static_cast<std::uint32_t>(e - 63));
  const int missing = static_cast<int>(63 - e);  // e+1 real bits, in w[0]
  return (w[0] << missing) | ((std::uint64_t{1} << missing) - 1);
}

/// Forward scan along a padded row of `stride` cells from cell p (exclusive): the first cell
/// that is a wall (dead = true) or has a forced neighbour (a free side cell whose predecessor
/// on that side is a wall). The row's padding stops it. 63 cells a step: one window of each
/// side row, read from the cell before, holds both a side cell and its predecessor (half the
/// loads of reading them apart).
inline std::uint32_t scan_forward(const std::uint64_t* w, std::uint32_t p, std::uint32_t stride,
                                  bool& dead) noexcept {
  constexpr std::uint64_t kLow63 = ~std::uint64_t{0} >> 1;
  for (std::uint32_t b = p + 1;; b += 63) {
    const std::uint64_t wall = window_from(w, b);
    // Bit i of `up`: cell b+i-stride free (bit i+1 of the window) and b+i-1-stride a wall.
    const std::uint64_t u = window_from(w, b - stride - 1);
    const std::uint64_t d = window_from(w, b + stride - 1);
    const std::uint64_t stop = (wall | ((~u >> 1) & u) | ((~d >> 1) & d)) & kLow63;
    if (stop != 0) {
      const int i = std::countr_zero(stop);
      dead = ((wall >> i) & 1) != 0;
      return b + static_cast<std::uint32_t>(i);
    }
  }
}
/// The same scan backward (toward lower ids), 63 cells a step.
inline std::uint32_t scan_backward(const std::uint64_t* w, std::uint32_t p, std::uint32_t stride,
                                   bool& dead) noexcept {
  constexpr std::uint64_t kHigh63 = ~std::uint64_t{1};
  for (std::int64_t e = std::int64_t{p} - 1;; e -= 63) {
    const std::uint64_t wall = window_to(w, e);
    // Bit 63-k of `up`: cell e-k-stride free (bit 62-k of the window) and e-k+1-stride a wall.
    const std::uint64_t u = window_to(w, e - stride + 1);
    const std::uint64_t d = window_to(w, e + stride + 1);
    const std::uint64_t stop = (wall | ((~u << 1) & u) | ((~d << 1) & d)) & kHigh63;
    if (stop != 0) {
      const int i = std::countl_zero(stop);
      dead = ((wall >> (63 - i)) & 1) != 0;
      return static_cast<std::uint32_t>(e - i);
    }
  }
}

// --- the search ------------------------------------------------------------------------------

struct JumpParams {
  double h_weight;
  bool reopen;
  std::uint64_t node_limit;
  bool resume = false;  ///< sliced search: carry on from the state left in `side`
  /// jps+: the landmarks' bound toward the goal, the heuristic's when larger (null: none).
  const Landmarks::Goal* marks = nullptr;
};

/// Sign of v: -1, 0 or 1.
inline int sgn(int v) noexcept {
  return (v > 0) - (v < 0);
}

/// A* over jump points. J::expand(id, x, y, dx, dy, emit) generates the successors of the node
/// at (x,y) entered in direction (dx,dy) ((0,0) for the start), calling
/// emit(id, x, y, k, m) for each: reached by k diagonal then m straight steps.
/// The open list is the radix queue when f is monotone (p.reopen: weight <= 1 and an admissible
/// heuristic), else the indexed binary heap.
template <bool Monotone, class J, class H, class L>
Status jump_search(const Grid& grid, const grid::Moves& moves, const J& jumper, const JumpParams& p,
                   H h, NodeId s, NodeId t, Side& side, Stats& st, L& listener) {
  if (!p.resume) side.begin(grid.padded_size());
  const Cell goal = grid.cell(t);
  const Toward<H> hv{h, goal.x, goal.y};
  const double straight = moves.straight_cost(), diagonal = moves.diagonal_cost();
  const CellOf cell_of(grid);
  auto priority = [&](double g, int x, int y, NodeId n) PATHLAB_INLINE {
    if constexpr (H::is_zero) {
      return g;
    } else {
      double h = hv(x, y);
      if (p.marks != nullptr) h = std::max(h, p.marks->h(n));
      return g + p.h_weight * h;
    }
  };

  auto push = [&](double f, double g, NodeId n) PATHLAB_INLINE {
    if constexpr (Monotone) {
      side.radix.push(HeapEntry{priority_key(f), n});
    } else {
      side.push(f, g, n);
    }
  };

  const Cell sc = grid.cell(s);
  if (!p.resume) {
    side.open(s, 0.0, s);
    push(priority(0.0, sc.x, sc.y, s), 0.0, s);
    st.generated = 1;
    if constexpr (L::enabled) listener.opened(s, s, 0.0, priority(0.0, sc.x, sc.y, s), 0);
  }

  double gu = 0;
  NodeId u = s;
  auto emit = [&](NodeId n, int x, int y, int k, int m) PATHLAB_INLINE {
    const double ng = gu + k * diagonal + m * straight;
    const std::uint8_t state = side.state(n);
    const bool seen = state >= side.gen;
    const bool was_closed = state == side.gen + 1;
    if (was_closed && !p.reopen) return;
    if (seen && !improves(ng, side.nodes[n].g)) return;
    if (was_closed) ++st.reopened;
    side.open(n, ng, u);
    if (!seen) ++st.generated;
    const double f = priority(ng, x, y, n);
    push(f, ng, n);
    if constexpr (Monotone && requires { jumper.ahead(n); }) {
      // At the least priority, it comes out next (the radix queue's ties: last in, first out):
      // the jumper may fetch what its expansion reads now.
      if (priority_key(f) <= side.radix.last()) jumper.ahead(n);
    }
    if constexpr (L::enabled) {
      if (seen) {
        listener.updated(n, u, ng, f, 0);
      } else {
        listener.opened(n, u, ng, f, 0);
      }
    }
  };

  for (;;) {
    // The limit is checked before taking an entry, so that a sliced search resumes with the
    // open list whole.
    if (st.expanded >= p.node_limit && !(Monotone ? side.radix.empty() : side.heap.empty())) {
      return Status::node_limit;
    }
    HeapEntry e;
    if constexpr (Monotone) {
      if (side.radix.empty()) break;
      st.peak_open = std::max<std::uint64_t>(st.peak_open, side.radix.size());
      e = side.radix.pop();
    } else {
      if (side.heap.empty()) break;
      st.peak_open = std::max<std::uint64_t>(st.peak_open, side.heap.size());
      e = side.pop();
    }
    if (side.stale(e)) continue;
    u = e.id;
    gu = side.nodes[u].g;
    side.close(u);
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(u, 0);
    if (u == t) return Status::found;
    int x, y, px, py;
    cell_of(u, x, y);
    cell_of(side.nodes[u].parent, px, py);
    // Entered by k diagonal then m straight steps: straight when m > 0, i.e. |dx| != |dy|.
    const int dx = x - px, dy = y - py;
    const int adx = std::abs(dx), ady = std::abs(dy);
    jumper.expand(u, x, y, adx >= ady ? sgn(dx) : 0, ady >= adx ? sgn(dy) : 0, emit);
  }
  return Status::no_path;
}

/// Appends the path start..goal, every cell, by expanding each parent -> child link of the
/// jump-point chain into its diagonal steps then its straight ones.
void append_jump_path(const Grid& g, const Side& side, NodeId s, NodeId t, std::vector<Cell>& out);

/// Appends the cells of an octile path s..t and returns true when one is free: the diagonal
/// steps then the straight ones, or the straight ones then the diagonals (no corner cutting).
/// It costs the octile distance, a lower bound on every path under the moves jps searches
/// (straight <= diagonal <= 2 straight): so it is optimal. False, and out unchanged, when both
/// are blocked.
bool append_direct_path(const Grid& g, NodeId s, NodeId t, std::vector<Cell>& out);

/// The A* over jump points with a given jumper (online scans or the JPS+ table), and the
/// path expanded into every cell: what jps and jps+ share once their jumper is ready.
/// `marks`: jps+'s landmark bound toward t, taken with the octile heuristic (null: none).
template <class J, class L>
Status run_jumper(const Grid& grid, const Options& o, const J& jumper, NodeId s, NodeId t,
                  Pathfinder::Workspace& ws, Result& out, L& listener,
                  const Landmarks::Goal* marks = nullptr) {
  const double w = o.effective_weight();
  const Heuristic heur = o.effective_heuristic();
  const JumpParams p{w, w <= 1.0 && search::admissible(heur, o.moves), o.node_limit, ws.resume,
                     heur == Heuristic::octile ? marks : nullptr};
  // A free octile path is optimal without a search: most queries on open maps (84% of
  // arena's). A sliced search's later slices skip the check (its first slice made it).
  // Every path cell is re-parented to the cell before it, opened if the search never generated
  // it (all of them, when there was no search): so that a trace replays to exactly the
  // returned path (the search links jump points, the path walks every cell between them).
  auto trace_path = [&](auto searched) {  // generic: compiled only with a listener
    double g = 0;
    for (std::size_t i = 1; i < out.path.size(); ++i) {
      const NodeId c = grid.id(out.path[i]), prev = grid.id(out.path[i - 1]);
      const bool diagonal =
          out.path[i].x != out.path[i - 1].x && out.path[i].y != out.path[i - 1].y;
      g += diagonal ? o.moves.diagonal_cost() : o.moves.straight_cost();
      if (static_cast<bool>(searched) && ws.side[0].seen(c)) {
        listener.updated(c, prev, g, g, 0);
      } else {
        listener.opened(c, prev, g, g, 0);
      }
    }
  };
  if (!ws.resume && append_direct_path(grid, s, t, out.path)) {
    if constexpr (L::enabled) {
      listener.opened(s, s, 0.0, 0.0, 0);
      trace_path(false);
    }
    return Status::found;
  }
  Side& side = ws.side[0];
  const Status status = dispatch_heuristic(heur, o.moves, [&](auto h) {
    return p.reopen
               ? jump_search<true>(grid, o.moves, jumper, p, h, s, t, side, out.stats, listener)
               : jump_search<false>(grid, o.moves, jumper, p, h, s, t, side, out.stats, listener);
  });
  if (status != Status::found) return status;
  append_jump_path(grid, side, s, t, out.path);
  if constexpr (L::enabled) trace_path(true);
  return status;
}

/// Runs A* instead of jps (terrain, another diagonal rule): same options, algorithm astar.
template <class L>
Status run_astar_instead(const Grid& g, const Options& o, NodeId s, NodeId t,
                         Pathfinder::Workspace& ws, Result& out, L& listener) {
  Options a = o;
  a.algorithm = Algorithm::astar;
  return run_best_first(g, a, s, t, ws, out, listener);
}

/// jps+ over the table (jps_plus.cpp).
template <class L>
Status run_jps_table(const Grid&, const Options&, const JumpTable&, NodeId s, NodeId t,
                     Pathfinder::Workspace&, Result&, L&, const Landmarks::Goal* marks);

}  // namespace pathlab::search::detail
