// Internal to the search module: two-level subgoal graphs for 8-neighbour grids without corner
// cutting (Uras, Koenig & Hernández 2013, "Subgoal Graphs for Optimal Pathfinding in
// Eight-Neighbor Grids"; the GPPC 2012/2013 entries). Preprocessing places a subgoal at every
// convex wall corner, links the subgoals that are direct-h-reachable (found with per-direction
// clearances), then makes every subgoal "local" that no shortest path needs as an intermediate
// vertex, adding h-reachable shortcut edges where a local one was on the way. A query connects
// start and goal to the subgoals they directly h-reach, runs A* (octile heuristic) over the
// global subgoals plus those, and walks the subgoal path back into every grid cell.
//
// Decisions of ours (documented here because the paper leaves them open):
// - Edges are undirected and cost the octile distance of their endpoints. A direct edge has a
//   free diagonal-first path from at least one of its endpoints (the one that found it); an
//   added edge records the local subgoal it goes through and is refined through it.
// - Invariant of the pruning: between any two subgoals u, v the graph holds a shortest path
//   whose intermediate vertices are all global. A subgoal becomes local only when, for every
//   pair of its neighbours, that stays true without it (an alternative path of at most the same
//   cost, or a new edge when the pair is h-reachable through it). Checks are cheapest first:
//   an edge or a two-edge path between the pair, a free octile path, then a bounded A*. A
//   search that runs out of budget counts as "no alternative" (a shortcut is added, or the
//   subgoal stays global), and a subgoal whose checks run out of their work budget stays
//   global (open city maps give subgoals hundreds of neighbours): always correct, at worst
//   slower to query.
// - Start and goal are answered directly when one lies in the region explored from the other
//   (its diagonal-first path is free); else the search graph is: the global subgoals, the
//   start's and goal's direct subgoals, and the edges of local ones into those.
// - Only unit terrain, no-corner-cut and the octile cost model (1, √2): the pruning compares
//   costs of the form a + b√2, whose order differs under 10/14. Callers check applies().
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <future>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "components.hpp"
#include "radix_queue.hpp"

namespace pathlab::search::detail {

class SubgoalGraph;

// --- the prepared files of the subgoal methods ---
template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
template <class T>
void put_vector(std::string& out, const std::vector<T>& v) {
  if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}
/// Bounds-checked reader over a payload.
struct PayloadReader {
  const std::string& data;
  std::size_t at = 0;
  template <class T>
  bool get(T& v) {
    if (data.size() - at < sizeof v) return false;
    std::memcpy(&v, data.data() + at, sizeof v);
    at += sizeof v;
    return true;
  }
  template <class T>
  bool get_vector(std::vector<T>& v, std::size_t n) {
    if ((data.size() - at) / sizeof(T) < n) return false;
    v.resize(n);
    if (n) std::memcpy(v.data(), data.data() + at, n * sizeof(T));
    at += n * sizeof(T);
    return true;
  }
};
/// Writes a header (magic, format version, width, height, the map's Grid::checksum(), payload
/// size and FNV-1a checksum), then the payload. False on a stream error.
bool write_framed(std::ostream& out, const char (&magic)[8], std::uint32_t version, int width,
                  int height, std::uint64_t map_checksum, const std::string& payload);
/// The same, the payload being the pieces one after the other (not copied into one string).
bool write_framed(std::ostream& out, const char (&magic)[8], std::uint32_t version, int width,
                  int height, std::uint64_t map_checksum,
                  std::initializer_list<std::string_view> pieces);
/// A vector's bytes, as a piece of a payload.
template <class T>
std::string_view bytes_of(const std::vector<T>& v) noexcept {
  return {reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)};
}
/// The payload of what write_framed wrote for grid g; nothing when the magic, the version, the
/// map's size or checksum differ, the payload is over max_bytes, short, or fails its checksum.
std::optional<std::string> read_framed(std::istream& in, const char (&magic)[8],
                                       std::uint32_t version, const grid::Grid& g,
                                       std::uint64_t max_bytes);

/// Per-query search state over one SubgoalGraph: generation-stamped, so after the first query
/// (warm-up) a query allocates nothing. One per thread; the graph itself is immutable.
class SubgoalWorkspace {
 public:
  /// Finds a shortest path from s to t into `path` (every cell, s..t; reusing its storage) and
  /// its cost (straight 1, diagonal √2). `expanded` counts the subgoal-graph nodes expanded
  /// (0 when start and goal are directly h-reachable). Never throws: Status::invalid_input
  /// for a start or goal outside the map or on a wall (or a graph of another map size),
  /// Status::node_limit when more than node_limit nodes would be expanded.
  Status find(const SubgoalGraph& graph, const grid::Grid& g, Cell s, Cell t,
              std::vector<Cell>& path, double& cost, std::uint64_t& expanded,
              std::uint64_t node_limit = UINT64_MAX) noexcept;

  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  struct Extra {
    std::uint32_t to;
    std::uint32_t next;
  };
  void reset(std::size_t nodes);
  bool search(const SubgoalGraph& sg, std::uint32_t start_cell, std::uint32_t goal_cell,
              std::uint64_t& expanded, std::uint64_t node_limit, bool& limit_hit);
  bool unfold(const SubgoalGraph& sg, std::uint32_t start_cell, std::uint32_t goal_cell,
              std::vector<Cell>& path, const grid::Grid& g);

  /// Per node (subgoals, then start and goal): stamps == stamp_ mark this query's state.
  struct NodeState {
    double g;
    std::uint32_t seen;    // g and parent valid
    std::uint32_t closed;  // expanded
    std::uint32_t parent;
    std::uint32_t in_goal;     // directly h-reaches the goal
    std::uint32_t extra_seen;  // extra_head valid
    std::uint32_t extra_head;  // extra edges into local subgoals next to the goal
  };
  std::uint32_t stamp_ = 0;
  std::vector<NodeState> node_;
  RadixQueue open_;  ///< the octile heuristic is consistent on the graph: f never decreases
  std::vector<Extra> extras_;
  std::vector<std::uint32_t> start_set_;
  std::vector<std::uint32_t> goal_set_;
  std::vector<std::uint32_t> chain_;  // subgoal path, goal..start
  std::vector<std::uint32_t> stack_;  // refinement of edges through local subgoals
};

class SubgoalGraph {
 public:
  /// Version of the layout written by save(); load() rejects any other.
  static constexpr std::uint32_t kFormatVersion = 1;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  using Clearance = std::uint8_t;

  SubgoalGraph() = default;

  /// Whether the graph answers optimally for this grid and these moves: no terrain,
  /// no-corner-cut, octile costs, and fewer than 2^32 - 2 padded cells.
  [[nodiscard]] static bool applies(const grid::Grid& g, const grid::Moves& m) noexcept;

  /// Builds the two-level graph (throws std::bad_alloc when memory runs out). The grid must
  /// satisfy applies() for the default moves.
  [[nodiscard]] static SubgoalGraph build(const grid::Grid& g);

  /// Convenience query with the graph's own workspace (not thread-safe; threads use one
  /// SubgoalWorkspace each over a shared const graph). `g` must be the grid it was built for.
  Status find(const grid::Grid& g, Cell s, Cell t, std::vector<Cell>& path, double& cost,
              std::uint64_t& expanded, std::uint64_t node_limit = UINT64_MAX) noexcept {
    return own_.find(*this, g, s, t, path, cost, expanded, node_limit);
  }

  /// Whether this graph was built for exactly this map (size and walls).
  [[nodiscard]] bool matches(const grid::Grid& g) const noexcept;

  /// Memory of the preprocessed data (per-cell tables, subgoals, edges), not the workspace.
  [[nodiscard]] std::size_t memory_bytes() const noexcept;
  [[nodiscard]] std::size_t subgoal_count() const noexcept { return sg_cell_.size(); }
  [[nodiscard]] std::size_t global_count() const noexcept { return n_global_; }
  /// Undirected edges (each stored in both endpoints' lists).
  [[nodiscard]] std::size_t edge_count() const noexcept { return adj_.size() / 2; }

  /// Writes a header (magic "PLSUBGR1", format version, width, height, the map's
  /// Grid::checksum(), payload size and payload checksum) then the graph. False on a stream
  /// error, and for a repaired graph (the checksum of the map it was built for no longer
  /// holds: use the overload with the map). Per-cell tables are not written: load()
  /// recomputes them from the grid.
  bool save(std::ostream& out) const;
  /// save() for the graph of g as it is now, repaired or not (g's checksum is taken here:
  /// a repair does not read every cell for it).
  bool save(std::ostream& out, const grid::Grid& g) const;

  /// Reads a graph written by save() for this grid. std::nullopt on any mismatch: magic,
  /// version, map size or checksum (a stale or foreign file), payload size or checksum, or
  /// contents that do not fit the grid (subgoal cells, edge targets). Never trusted blindly.
  [[nodiscard]] static std::optional<SubgoalGraph> load(std::istream& in, const grid::Grid& g);

  /// Build time in seconds (or the time to read and verify it, when loaded).
  double build_seconds = 0;

  // --- for SubgoalHierarchy (subgoal_ch.hpp), which builds on the simple subgoal graph ---
  /// The per-cell tables of g alone (subgoals in ascending cell order, clearances,
  /// components), no edges.
  [[nodiscard]] static SubgoalGraph cells_only(const grid::Grid& g);
  /// The map's subgoal cells (convex corners), ascending padded ids.
  [[nodiscard]] static std::vector<std::uint32_t> subgoal_cells(const grid::Grid& g);
  /// New subgoal ids: cells[i] becomes subgoal i (cells: a permutation of the subgoal cells).
  void renumber(std::vector<std::uint32_t> cells);
  /// Every pair (i < j) of directly h-reachable subgoals, once each, sorted.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint32_t>> direct_pairs() const;
  /// The same pairs as an undirected adjacency: neighbours of subgoal i are
  /// to[begin[i]] .. to[begin[i + 1]] (each pair in both lists). Computed by `threads` threads,
  /// without materialising the pairs (a 4096x4096 random map has 13 million).
  struct Adjacency {
    std::vector<std::uint64_t> begin;
    std::vector<std::uint32_t> to;
  };
  [[nodiscard]] Adjacency direct_adjacency(unsigned threads) const;
  /// Frees the per-cell tables but the wall bits (a hierarchy's contraction needs none);
  /// restore_cells(g) recomputes them.
  void drop_cells() noexcept;
  void restore_cells(const grid::Grid& g) { init_cells(g); }
  /// The subgoals directly h-reachable from padded cell c, into out (cleared first).
  void direct_subgoals(std::uint32_t c, std::vector<std::uint32_t>& out) const;
  /// Appends the cells of a free octile path a -> b (a excluded), diagonal steps first or
  /// straight steps first; false, appending nothing, when neither is free.
  bool walk(std::vector<Cell>& path, std::uint32_t a, std::uint32_t b) const;
  /// Whether walk(path, a, b) would succeed (a free octile path a -> b, either order), read
  /// from the clearances a run at a time instead of a cell at a time. a must be free.
  [[nodiscard]] bool walkable(std::uint32_t a, std::uint32_t b) const noexcept;

  // --- repair after the map changed ---
  /// Repairs the graph after the cells of `areas` changed (g is the map as it is now, the
  /// graph matching it as it was before; areas as Grid::changes_since gives them), instead of
  /// building it again (ALGORITHMS.md, "Changing maps"; the argument is at the repair in
  /// subgoal_graph.cpp): the per-cell tables are updated along the lines through the areas,
  /// every edge whose way a new wall blocks is dropped (with the shortcuts built on it), new
  /// subgoal-graph edges are added, a subgoal the change removed goes with its edges, and the
  /// local subgoals that gained a neighbour, or whose pruning may have relied on a path past a
  /// new wall or through a removed subgoal, are tested again: one that fails becomes global
  /// and is pruned again as the build prunes, as are new subgoals. Queries stay exact. Ids
  /// are renumbered (globals first). False when the change is too large to be worth it (more
  /// than 1/16 of the map's cells): the graph is then unchanged and must be built again.
  /// Throws std::bad_alloc, leaving it unusable.
  bool repair(const grid::Grid& g, const std::vector<grid::Rect>& areas,
              std::uint64_t work_limit = kRepairWork);
  /// Edges the tests of one repair may scan before the local subgoals left to test become
  /// global untested (always correct, at worst slower to query until the next build).
  static constexpr std::uint64_t kRepairWork = std::uint64_t{1} << 18;
  /// Whether repair(g, areas) would take these changes (the map's size, their extent).
  [[nodiscard]] bool repairable(const grid::Grid& g,
                                const std::vector<grid::Rect>& areas) const noexcept;
  /// Repairs applied since the build.
  [[nodiscard]] std::size_t repair_count() const noexcept { return repairs_; }
  /// Whether repairs have grown the graph so much that queries may be markedly slower than
  /// after a fresh build (a quarter more subgoals, counting those gone, or global subgoals, or
  /// half as many edges again): time to build again, off the query's thread.
  [[nodiscard]] bool wants_rebuild() const noexcept {
    return subgoal_count() > built_nodes_ + built_nodes_ / 4 + 64 ||
           global_count() > built_global_ + built_global_ / 4 + 64 ||
           adj_.size() > built_edges_ + built_edges_ / 2 + 1024;
  }
  /// Whether the graph, though it wants a rebuild, still answers well enough to be repaired and
  /// asked while the rebuild runs, instead of jps: half as many global subgoals again, and
  /// twice the edges it was built with, at most.
  [[nodiscard]] bool fit() const noexcept {
    return global_count() <= built_global_ + built_global_ / 2 + 64 &&
           adj_.size() <= 2 * built_edges_ + 1024;
  }
  /// Whether repairs cost more as they pile up, so that a build off the query's thread pays
  /// before wants_rebuild (SubgoalHierarchy): not here, its repairs contract nothing.
  static constexpr bool kRepairsAge = false;
  /// Takes the graph as it is now as the measure of wants_rebuild (after a rebuild that came
  /// in late was repaired up to date: its growth is not a repair's fault to rebuild for).
  void rebase() noexcept {
    built_nodes_ = subgoal_count();
    built_global_ = global_count();
    built_edges_ = adj_.size();
  }
  /// The areas clipped to a width x height map (empty ones dropped) into *out (when not
  /// null), and how many cells they cover (overlaps counted twice).
  static std::uint64_t clip_areas(const std::vector<grid::Rect>& areas, int width, int height,
                                  std::vector<grid::Rect>* out);
  /// Appends every subgoal whose exploration may find other subgoals after the cells of
  /// `rects` (clipped) changed: those whose area holds a cell within two of one (called before
  /// and after repair_cells, it covers both the old and the new explorations).
  void subgoals_near(const grid::Grid& g, const std::vector<grid::Rect>& rects,
                     std::vector<std::uint32_t>& out) const;
  /// A box of padded cells (as sg_pos_), corners included.
  struct WallBox {
    std::int32_t x0, y0, x1, y1;
  };
  /// Per area of `rects` (clipped) that walls some free cell: the box of those cells and
  /// their neighbours (a diagonal step between two walls is illegal). Read before
  /// repair_cells: no other change blocks an old path.
  [[nodiscard]] std::vector<WallBox> walled_boxes(const grid::Grid& g,
                                                  const std::vector<grid::Rect>& rects) const;

  // --- the pieces of a repair (SubgoalHierarchy::repair uses them too) ---
  /// Appends every subgoal whose direct-h-reachable area may hold padded cell c: found by
  /// walking back along the exploration's rays (straight from c, then diagonally, each walk
  /// stopping at the first subgoal or wall). A superset: the rows' shrinking bound is not
  /// applied. Nothing for a wall. `straight`: a bit per straight direction s (grid::kDx/kDy)
  /// whose walks back (opposite s) to take; the others are left to the caller.
  void reaching_subgoals(std::uint32_t c, std::vector<std::uint32_t>& out,
                         unsigned straight = 0xfu) const;
  /// What repair_cells changed among the subgoals.
  struct CellChanges {
    std::vector<std::uint32_t> removed;  ///< ids whose cell is no longer a convex corner
    std::vector<std::uint32_t> added;    ///< new ids (appended) of new convex corners
  };
  /// Brings the per-cell tables up to date with g after the cells of `areas` (map cells,
  /// inside the map) changed and nothing else: the wall bits, the subgoals within one cell of
  /// an area (a removed one keeps its id, no longer found from its cell; a new one is
  /// appended), the clearances along every line through them, and the components (merged when
  /// walls open; never split: two cells of one label may since have been cut apart, which a
  /// search then finds out). g must have the size the tables were built for.
  void repair_cells(const grid::Grid& g, const std::vector<grid::Rect>& areas, CellChanges& out);
  /// For tests: what differs between the per-cell tables and a fresh build's for g (empty when
  /// nothing): the wall bits, the live subgoals' cells, the clearances, and components (two
  /// cells connected on g must share one; repairs never split them).
  [[nodiscard]] std::string cells_problem(const grid::Grid& g) const;
  /// Whether subgoal id v still is a subgoal (repair_cells may have removed it).
  [[nodiscard]] bool alive(std::uint32_t v) const noexcept { return sg_of_[sg_cell_[v]] == v; }
  /// The connected component of padded cell c (0 for a wall): cells of different components
  /// are not connected.
  [[nodiscard]] std::uint32_t component_of(std::uint32_t c) const noexcept { return comps_.of(c); }
  /// The frame of a query of either method: checks the input (Status::invalid_input), the
  /// components (no_path), walks straight when one end directly h-reaches the other, else
  /// calls route(start cell, goal cell), which appends the rest of the path to `path` (holding
  /// s) and returns found or why not; then the path's cost. Never throws.
  template <class Route>
  Status query(const grid::Grid& g, Cell s, Cell t, std::vector<Cell>& path, double& cost,
               Route&& route) const noexcept;

 private:
  /// save()'s body, with the map checksum to write.
  bool write(std::ostream& out, std::uint64_t map_checksum) const;
  friend class SubgoalWorkspace;
  friend class SubgoalHierarchy;
  friend class HierarchyWorkspace;
  struct Builder;

  void init_cells(const grid::Grid& g);  // subgoal cells, clearances, components
  [[nodiscard]] std::uint32_t clearance(std::uint32_t cell, int dir) const noexcept;
  [[nodiscard]] bool diagonal_step_ok(std::uint32_t from, int dir) const noexcept;
  /// Takes `steps` legal steps from p in direction dir (p advances), by the clearances; false
  /// at the first step that is not legal.
  [[nodiscard]] bool run(std::uint32_t& p, int dir, std::int32_t steps) const noexcept;
  [[nodiscard]] bool passable(std::uint32_t cell) const noexcept {
    return ((walls_[cell >> 6] >> (cell & 63)) & 1u) == 0;
  }
  /// Calls f(subgoal id) for every subgoal directly h-reachable from `cell` (the paper's
  /// clearance-based exploration; each found once).
  template <class F>
  void for_each_direct(std::uint32_t cell, F&& f) const;
  /// Whether t lies in the region explored from o (or is a subgoal found from it): then the
  /// diagonal-first path o -> t is free.
  [[nodiscard]] bool directly_reaches(std::uint32_t o, std::uint32_t t) const noexcept;
  [[nodiscard]] double octile(std::uint32_t a, std::uint32_t b) const noexcept;

  int width_ = 0;
  int height_ = 0;
  std::int32_t stride_ = 2;
  std::uint64_t map_checksum_ = 0;
  std::int32_t off_[8] = {};                   // padded offsets of grid::kDx/kDy
  std::vector<std::uint64_t> walls_;           // the grid's wall bits (padded, bit set = wall)
  std::vector<std::uint32_t> sg_of_;           // padded cell -> subgoal id or kNone
  std::vector<Clearance> clear_;               // 8 per padded cell; saturated values re-walked
  Components comps_;                           // padded cell -> connected component (0 = wall)
  std::vector<std::uint32_t> sg_cell_;         // subgoal id -> padded cell; globals first
  std::vector<Cell> sg_pos_;                   // subgoal id -> padded (x, y), for the heuristic
  std::uint32_t n_global_ = 0;                 // ids below are global subgoals
  std::vector<std::uint32_t> adj_begin_;       // CSR over subgoals (size n + 1)
  std::vector<std::uint32_t> adj_global_end_;  // per subgoal: its global neighbours come first
  std::vector<std::uint32_t> adj_;             // neighbour ids
  std::vector<std::uint32_t> via_;  // per adj_ entry: local subgoal it goes through, or kNone
  SubgoalWorkspace own_;
  std::size_t repairs_ = 0;
  // As built or loaded (wants_rebuild).
  std::size_t built_nodes_ = 0, built_global_ = 0, built_edges_ = 0;
};

template <class Route>
Status SubgoalGraph::query(const grid::Grid& g, Cell s, Cell t, std::vector<Cell>& path,
                           double& cost, Route&& route) const noexcept {
  path.clear();
  cost = 0;
  if (g.width() != width_ || g.height() != height_ || !g.passable(s) || !g.passable(t)) {
    return Status::invalid_input;
  }
  try {
    const std::uint32_t sc = g.id(s), tc = g.id(t);
    if (component_of(sc) != component_of(tc)) return Status::no_path;
    path.push_back(s);
    if (sc != tc) {
      if (directly_reaches(sc, tc) || directly_reaches(tc, sc)) {
        walk(path, sc, tc);
      } else if (const Status st = route(sc, tc); st != Status::found) {
        path.clear();
        return st;
      }
    }
    std::uint64_t diagonal = 0;
    for (std::size_t i = 1; i < path.size(); ++i)
      diagonal += path[i].x != path[i - 1].x && path[i].y != path[i - 1].y;
    cost = static_cast<double>(path.size() - 1 - diagonal) +
           static_cast<double>(diagonal) * 1.4142135623730951;
    return Status::found;
  } catch (const std::bad_alloc&) {
    path.clear();
    return Status::invalid_input;
  }
}

/// What a Pathfinder keeps for a subgoal method (engine.hpp): the graph of its grid (immutable,
/// so finders on other threads share it) and its own search state over it.
template <class Graph, class Search>
struct GraphCache {
  using graph_type = Graph;
  std::shared_ptr<const Graph> graph;
  /// After the map changed: the graph being rebuilt on another thread from a copy of the grid
  /// at revision pending_revision (Changing maps: queries meanwhile are answered by jps+, whose
  /// table repairs itself after an edit in microseconds, or jps on large maps). A finder destroyed
  /// meanwhile waits for the build to finish.
  std::future<std::shared_ptr<const Graph>> pending;
  std::uint64_t pending_revision = 0;
  /// When pending is a finished build being brought up to date off the query's thread (edits
  /// came while it was built): the changes it started from (0 for a build).
  std::size_t pending_lag = 0;
  /// Seconds the repairs on the query's thread took since the graph was built or taken over.
  double repair_seconds = 0;
  /// The revision of the grid the graph was last found to match (Grid::revision; 0: not
  /// checked), so that a query compares one number instead of the walls.
  std::uint64_t revision = 0;
  bool loaded = false;  ///< the graph came from load_prepared (prepare.hpp)
  Search search;
};
struct SubgoalCache : GraphCache<SubgoalGraph, SubgoalWorkspace> {};

/// The workspace's slot for a cache type (ws.subgoal or ws.hierarchy): the cache, or nullptr
/// when there is none yet; own_cache makes it (throws std::bad_alloc).
template <class Cache>
[[nodiscard]] Cache* cache_of(const Pathfinder::Workspace& ws) noexcept;
template <class Cache>
Cache& own_cache(Pathfinder::Workspace& ws);
template <>
SubgoalCache* cache_of<SubgoalCache>(const Pathfinder::Workspace& ws) noexcept;
template <>
SubgoalCache& own_cache<SubgoalCache>(Pathfinder::Workspace& ws);

/// The workspace's cache (ws.subgoal or ws.hierarchy, by the cache's type) with a graph for g:
/// kept when it matches, else built now (the build time added to ws.prep_us). Throws
/// std::bad_alloc.
template <class Cache>
Cache& graph_cache(Pathfinder::Workspace& ws, const grid::Grid& g);
/// The same after the map changed, without waiting: a graph for g when one is ready (the old
/// one still matching, or a rebuild started earlier for this revision), else nullptr, having
/// started a rebuild off this thread (unless one for this revision is running). With no graph
/// at all yet it builds one now, as graph_cache does.
template <class Cache>
Cache* graph_cache_now(Pathfinder::Workspace& ws, const grid::Grid& g);

}  // namespace pathlab::search::detail
