// Internal to the search module: a contraction hierarchy over the simple subgoal graph
// (subgoals at convex wall corners, an edge between every two that are directly h-reachable;
// Uras & Koenig, "Subgoal Graphs for Fast Optimal Pathfinding", and their SG-CH: contraction
// hierarchies over subgoal graphs; Geisberger et al. 2008 for contraction hierarchies).
//
// Preprocessing contracts the subgoals in rounds, the threads sharing each round: every subgoal
// whose priority (its depth in the hierarchy, shortcuts per edge removed, and the subgoal-graph
// edges they stand for per those removed) beats every other within two hops goes at once. A
// subgoal's removal adds a shortcut u-w, through it, for each pair of its neighbours whose shortest
// way needs it (a bounded witness Dijkstra, avoiding the round's subgoals, finds none as short).
// Subgoals of more than BuildLimits::max_degree neighbours are left uncontracted: the core (random
// maps grow dense ones). Subgoals are then numbered in contraction order, the core last, so an edge
// leads "up" to a larger id, and each keeps its upward edges (cost, and the subgoal a shortcut goes
// through).
//
// A query joins start and goal to the subgoals they directly h-reach (or walks straight between
// them when one directly h-reaches the other), runs an A* upward from each side (in the core,
// along every edge) until neither queue holds a key below the best meeting, unpacks the
// shortcuts into subgoal-graph edges and walks each edge into grid cells.
//
// Same scope as SubgoalGraph: unit terrain, no-corner-cut, octile costs (applies()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "subgoal_graph.hpp"

namespace pathlab::search::detail {

class SubgoalHierarchy;
class Landmarks;

/// Per-query state over one SubgoalHierarchy: stamped, so a query allocates nothing after the
/// first. One per thread.
class HierarchyWorkspace {
 public:
  /// As SubgoalWorkspace::find: every cell s..t into `path`, its cost, the nodes settled in
  /// `expanded`. Never throws.
  Status find(const SubgoalHierarchy& h, const grid::Grid& g, Cell s, Cell t,
              std::vector<Cell>& path, double& cost, std::uint64_t& expanded,
              std::uint64_t node_limit = UINT64_MAX) noexcept;
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  struct Side {  // 16 bytes: four to a cache line (a query's reads of them are scattered)
    double d;
    std::uint32_t mark;  // >= stamp: d and parent valid; == stamp + 1: settled
    std::uint32_t parent;
  };
  bool search(const SubgoalHierarchy& h, std::uint32_t sc, std::uint32_t tc,
              std::uint64_t& expanded, std::uint64_t node_limit, bool& limit_hit);
  bool unfold(const SubgoalHierarchy& h, std::uint32_t sc, std::uint32_t tc,
              std::vector<Cell>& path, const grid::Grid& g);

  std::uint32_t stamp_ = 0;             // advances by 2 a query (even: open, odd: settled)
  std::vector<Side> side_[2];           // forward (from the start), backward (from the goal)
  std::vector<std::uint32_t> ends_[2];  // the subgoals each end directly h-reaches
  /// Per end and landmark, bounds on the end's distance from the landmark (its units), from
  /// the subgoals it directly h-reaches: each side's heuristic toward the other end.
  std::int64_t lo_[2][8] = {}, hi_[2][8] = {};
  RadixQueue open_[2];  // each side's keys never decrease (consistent heuristic)
  std::vector<std::uint32_t> chain_, stack_;
  std::uint32_t meet_ = 0;
};

class SubgoalHierarchy {
 public:
  static constexpr std::uint32_t kNone = SubgoalGraph::kNone;

  [[nodiscard]] static bool applies(const grid::Grid& g, const grid::Moves& m) noexcept {
    return SubgoalGraph::applies(g, m);
  }
  /// Landmarks a build takes (fewer where the map's tables would pass Landmarks::kMaxBytes).
  static constexpr int kMarks = 8;
  struct BuildLimits {
    /// Threads sharing the contraction (0: the machine's cores).
    unsigned threads = 0;
    /// Subgoals with more live neighbours than this are left in the core: it bounds the
    /// witness searches (random maps grow dense cores; the cap keeps their build in seconds).
    std::uint32_t max_degree = 64;
    /// Contraction starts no new round after this many seconds from the start of the build:
    /// the subgoals left form the core. Queries stay exact; a larger core makes them slower.
    /// It bounds preparation on huge maps (a 4096x4096 map with 20 % random walls has 5.5
    /// million subgoals); every shared Moving AI map contracts fully well within it.
    double seconds = 45;
    /// Witness searches keep their state in arrays over all subgoals up to this many subgoals
    /// (the fastest), in a small hash table past it (16 bytes a subgoal and thread less). The
    /// hierarchy is the same either way.
    std::size_t dense_nodes = std::size_t{1} << 20;
    /// Contraction starts no new round once its data (the live edges, the upward edges
    /// recorded and its arrays over the subgoals) take this many bytes: the subgoals left form
    /// the core. Unlike the time budget, it stops at the same point on any machine. It bounds
    /// memory on huge maps (the 4096x4096 random map); the shared Moving AI maps stay far below
    /// it (the whole build of Boston_0_1024, the largest, peaks at 48 MB).
    std::size_t max_bytes = std::size_t{740} << 20;
    /// Landmarks of the query's heuristic (0: the octile distance alone), at most kMarks.
    int landmarks = kMarks;
  };
  /// Builds the hierarchy (throws std::bad_alloc when memory runs out); g must satisfy applies().
  [[nodiscard]] static SubgoalHierarchy build(const grid::Grid& g, const BuildLimits& limits);
  [[nodiscard]] static SubgoalHierarchy build(const grid::Grid& g) { return build(g, {}); }

  [[nodiscard]] bool matches(const grid::Grid& g) const noexcept { return base_.matches(g); }
  [[nodiscard]] std::size_t memory_bytes() const noexcept;
  [[nodiscard]] std::size_t node_count() const noexcept { return base_.subgoal_count(); }
  /// Upward edges (each edge of the hierarchy once), and how many of them are shortcuts.
  [[nodiscard]] std::size_t edge_count() const noexcept { return up_to_.size(); }
  [[nodiscard]] std::size_t shortcut_count() const noexcept;
  /// Subgoals left uncontracted or put back by repairs (the core: searched along every edge).
  [[nodiscard]] std::size_t core_count() const noexcept { return core_size_; }
  /// Subgoals the build left in the core.
  [[nodiscard]] std::size_t built_core_count() const noexcept { return node_count() - core_begin_; }
  /// Whether the hierarchy is well formed: every edge leads to a larger id, costs a finite
  /// positive amount at least the octile distance of its ends, and a shortcut goes through a
  /// subgoal smaller than both ends that has edges to both costing at most its cost (what
  /// unpacking relies on to end; a prepared file will be checked with it), and every edge
  /// from a subgoal in the core leads into the core (what the query relies on), and, after
  /// repairs, no two subgoals share a rank.
  [[nodiscard]] bool consistent() const noexcept;

  /// Header (magic "PLSGCH01", format version, size, the map's checksum, payload size and
  /// checksum), then the subgoals in contraction order, where the core begins, and the upward
  /// edges; the core's downward index and the per-cell
  /// tables are recomputed on load. False on a stream error, and for a hierarchy repaired
  /// after edits (its core is no longer the top of one contraction order: build afresh).
  bool save(std::ostream& out) const;
  /// save(), for the hierarchy of map g (the same for both: a repaired hierarchy is refused).
  bool save(std::ostream& out, const grid::Grid& g) const;
  /// Reads what save() wrote for this grid; nothing on any mismatch (magic, version, size,
  /// checksums), when the subgoals are not exactly the map's convex corners, or when the
  /// hierarchy is not consistent(). Never trusted blindly.
  [[nodiscard]] static std::optional<SubgoalHierarchy> load(std::istream& in, const grid::Grid& g);
  static constexpr std::uint32_t kFormatVersion = 2;

  /// Build time in seconds (or the time to read and verify it, when loaded).
  double build_seconds = 0;

  Status find(const grid::Grid& g, Cell s, Cell t, std::vector<Cell>& path, double& cost,
              std::uint64_t& expanded, std::uint64_t node_limit = UINT64_MAX) noexcept {
    return own_.find(*this, g, s, t, path, cost, expanded, node_limit);
  }

  /// Repairs the hierarchy after the cells of `areas` changed (g is the map as it is now, the
  /// hierarchy matching it as it was before; areas as Grid::changes_since gives them), instead
  /// of building it again (ALGORITHMS.md, "Changing maps"; the argument is at the repair in
  /// subgoal_ch.cpp): the per-cell tables are updated along the lines through the areas; every
  /// edge whose way a new wall blocks is dropped, with the shortcuts built on it; new
  /// subgoal-graph edges are added; and the subgoals that gained a neighbour, or whose
  /// contraction may have relied on a witness path past a new wall, are contracted again in
  /// their place in the order, upwards (a new subgoal goes just below the median rank of its
  /// neighbours; a subgoal the change removed stays, with its still-free edges). Queries stay
  /// exact. False when the change is too large to be worth it (more than 1/16 of the map's cells):
  /// the hierarchy is then unchanged and must be built again. Throws std::bad_alloc, leaving it
  /// unusable.
  bool repair(const grid::Grid& g, const std::vector<grid::Rect>& areas,
              std::uint64_t work_limit = kRepairWork);
  /// Edges the witness checks of one repair may look at; past it, pairs without a witness of
  /// one or two edges get their shortcut unsearched, and past twice that the subgoals left to
  /// contract again go into the core (with all above them): bounds the repair's time (a few
  /// milliseconds) at the price of needless shortcuts or a larger core until the next build.
  static constexpr std::uint64_t kRepairWork = 200000;
  /// Whether repair(g, areas) would take these changes (the map's size, their extent).
  [[nodiscard]] bool repairable(const grid::Grid& g,
                                const std::vector<grid::Rect>& areas) const noexcept;
  /// The subgoal graph's per-cell tables under the hierarchy (for tests).
  [[nodiscard]] const SubgoalGraph& base() const noexcept { return base_; }
  /// Repairs applied since the build.
  [[nodiscard]] std::size_t repair_count() const noexcept { return repairs_; }
  /// Landmarks whose distances bound the query's search (0 after a repair, or on maps too
  /// large for their tables).
  [[nodiscard]] int landmark_count() const noexcept { return marks_k_; }
  /// Times a repair found no room between two ranks for a new subgoal and spaced all the
  /// ranks again (for tests).
  [[nodiscard]] std::size_t respace_count() const noexcept { return respaced_; }
  /// Whether repairs have grown the hierarchy so much that queries may be markedly slower
  /// than after a fresh build (subgoals gone, yet kept as nodes, for a quarter of those built;
  /// half as many edges again per subgoal; or a core grown by 1/32 of the subgoals): time to
  /// build again, off the query's thread. New subgoals alone are no reason: a fresh build
  /// would have them too.
  [[nodiscard]] bool wants_rebuild() const noexcept {
    const std::uint64_t edges = edge_count(), nodes = node_count();
    return dead_ > built_dead_ + built_nodes_ / 4 + 64 ||
           2 * edges * built_nodes_ >
               3 * nodes * built_edges_ + 2048 * std::uint64_t{built_nodes_} ||
           core_size_ > 2 * built_core_ + nodes / 32 + 32;
  }
  /// Whether the hierarchy, though it wants a rebuild, still answers well enough to be repaired
  /// and asked while the rebuild runs, instead of jps: a core at most twice the built one and
  /// an eighth of the subgoals more, and at most twice the edges per subgoal it was built with.
  [[nodiscard]] bool fit() const noexcept {
    const std::uint64_t edges = edge_count(), nodes = node_count();
    return core_size_ <= 2 * built_core_ + nodes / 8 + 32 &&
           edges * built_nodes_ <= 2 * nodes * built_edges_ + 2048 * std::uint64_t{built_nodes_};
  }
  /// Whether repairs cost more as they pile up: shortcuts and new subgoals accumulate, and each
  /// repair contracts against more of them. A build off the query's thread then pays before
  /// wants_rebuild, once repairs have taken half as long as a build (subgoal.cpp; den520d
  /// under pathlab_runtime_bench's ChurnSubgoalCh: 0.66-0.68 ms a repair against 0.75-0.76).
  static constexpr bool kRepairsAge = true;
  /// Takes the hierarchy as it is now as the measure of wants_rebuild (after a rebuild that
  /// came in late was repaired up to date: its growth is not a repair's fault to rebuild for).
  void rebase() noexcept {
    built_nodes_ = node_count();
    built_edges_ = edge_count();
    built_core_ = core_size_;
    built_dead_ = dead_;
  }
  /// A subgoal's place in the contraction order (larger: later): its id for a built hierarchy;
  /// repairs place each new subgoal just below the median rank of its neighbours. Edges are
  /// kept by their lower end.
  [[nodiscard]] std::uint32_t rank(std::uint32_t v) const noexcept {
    return rank_.empty() ? v : rank_[v];
  }

 private:
  friend class HierarchyWorkspace;
  struct Contractor;
  /// Gives the subgoals from n_old on (new in a repair) their ranks, by their subgoal-graph
  /// edges (each new one's among these), and puts them in order_.
  void place_new(std::uint32_t n_old,
                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);
  /// Ranks spread evenly over order_ (gaps of 2^31 / n for the subgoals repairs add).
  void respace();

  SubgoalGraph base_;                    // per-cell tables; subgoal ids = contraction order
  std::vector<std::uint32_t> up_begin_;  // CSR over subgoals (size n + 1)
  std::vector<std::uint32_t> up_to_;     // a larger id
  std::vector<std::uint32_t> up_via_;  // a shortcut's middle subgoal (smaller than both), or kNone
  std::vector<double> up_cost_;
  std::uint32_t core_begin_ = 0;       // the build's core: ids from here on
  std::vector<std::uint8_t> in_core_;  // per subgoal: in the core (the build's, or put back)
  std::size_t core_size_ = 0;
  std::size_t repairs_ = 0;
  std::size_t built_nodes_ = 0, built_edges_ = 0, built_core_ = 0;  // as built (or loaded)
  std::size_t dead_ = 0, built_dead_ = 0;  // subgoals repairs removed (kept as nodes): since
                                           // the build, and at the last rebase()
  std::vector<std::uint32_t> rank_;        // after repairs: see rank() (increasing, with gaps)
  std::vector<std::uint32_t> order_;       // after repairs: the subgoals by increasing rank
  std::size_t respaced_ = 0;               // see respace_count()
  /// For repairs, made by the first: each subgoal-graph edge's ends (lower first) and bounding
  /// box (padded cells), so that finding the edges a new wall may block reads one small array.
  /// Repairs append the edges they add; an entry whose edge is gone is passed over.
  struct BaseBox {
    std::int16_t x0, y0, x1, y1;
    std::uint32_t lo, hi;
  };
  std::vector<BaseBox> base_box_;
  /// A differential heuristic for the query (Goldberg & Harrelson 2005, as jps+'s landmarks,
  /// landmarks.hpp): every cell's distance from marks_k_ landmark cells in G' (the map as
  /// built, with the cells opened since), in whole units of mark_unit_ (a move's cost times
  /// 1024, rounded down), and each subgoal's row of them (mark_d_: 32 bytes a subgoal, read
  /// by the query). Built with the hierarchy (and on load). A repair repairs the tables
  /// (Landmarks::repair: opened cells lower distances; new walls stay in G', where the bound
  /// still holds) and copies the subgoals' rows from them again; a repair past the tables' budget,
  /// or too many walls kept open, gives them up (queries then bound with the octile distance alone)
  /// until a build.
  std::shared_ptr<Landmarks> marks_;  // shared by copies until one repairs
  int marks_k_ = 0;
  double mark_unit_ = 0;
  std::int32_t mark_straight_ = 0, mark_diagonal_ = 0;  // a move in units
  std::vector<std::int32_t> mark_d_;                    // mark_d_[v * marks_k_ + i]
  void index_marks(const grid::Grid& g, int want = kMarks);
  void drop_marks() noexcept;
  void repair_marks(const grid::Grid& g, std::span<const grid::Rect> areas);
  void copy_mark_rows();
  void index_base_boxes();
  void add_base_box(std::uint32_t lo, std::uint32_t hi);
  /// For repairs, made by the first that contracts: per subgoal, the lower end of each of its
  /// edges with the edge's place in that end's upward list, in increasing rank of the lower end
  /// (a witness search over the subgoals above v reads a list from its end down to v's rank).
  /// Each repair mends the entries of the lists it changes, so none reindexes every edge. A
  /// copy of the hierarchy (made to repair one that finders share) starts without it: copying
  /// a list per subgoal made a copy of a repaired maze512-1-0 hierarchy take 2.2 ms instead of
  /// 0.45, more than the copy's first repair takes to index it again.
  struct DownIndex {
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> lists;
    DownIndex() = default;
    DownIndex(const DownIndex&) noexcept {}
    DownIndex& operator=(const DownIndex&) noexcept {
      lists.clear();
      return *this;
    }
    DownIndex(DownIndex&&) noexcept = default;
    DownIndex& operator=(DownIndex&&) noexcept = default;
    ~DownIndex() = default;
  };
  DownIndex down_index_;
  // Per subgoal, its edges from lower core subgoals when it is in the core: the edge's index
  // and its lower end (recomputed from the upward edges, never stored).
  std::vector<std::uint32_t> down_begin_, down_edge_, down_from_;
  void index_core();
  /// A repair's per-subgoal scratch for its witness checks, kept for the next repair so that
  /// none pays to clear it (an entry counts only when stamped by the current check).
  struct RepairScratch {
    std::vector<double> dist, lower;
    std::vector<std::uint32_t> seen, wanted;
    std::uint32_t stamp = 0;
  };
  RepairScratch scratch_;
  std::uint32_t find_edge(std::uint32_t lo, std::uint32_t hi) const noexcept;
  HierarchyWorkspace own_;
};

/// What a Pathfinder keeps for `subgoal-ch` (engine.hpp), as SubgoalCache for `subgoal`.
struct HierarchyCache : GraphCache<SubgoalHierarchy, HierarchyWorkspace> {};
template <>
HierarchyCache* cache_of<HierarchyCache>(const Pathfinder::Workspace& ws) noexcept;
template <>
HierarchyCache& own_cache<HierarchyCache>(Pathfinder::Workspace& ws);

}  // namespace pathlab::search::detail
