// The runtime face of the search engine: a reusable Pathfinder that owns its workspace.
// One const grid can serve many threads, each with its own Pathfinder. After the first query
// (warm-up) a query allocates nothing: node state is generation-stamped, never cleared cell by
// cell, and the caller's Result keeps its path capacity. (anyangle-exact is the exception: it
// grows its per-grid visibility graph as queries reach new wall corners.) The query API never
// throws.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/trace.hpp>

namespace pathlab::search {

/// How queries are answered (Pathfinder, BatchFinder, fallback_for): the algorithm, its
/// heuristic and weight, the moves, the unit, the node limit and whether to find partial paths.
struct Options {
  Algorithm algorithm = Algorithm::astar;  ///< the search to run; astar by default
  /// Unset: default_heuristic(moves).
  std::optional<Heuristic> heuristic;
  /// f = g + weight*h. Unset: 2 for wastar, 1 otherwise. [Limit: >= 0]
  std::optional<double> weight;
  grid::Moves moves;  ///< legal diagonal steps and step costs; no-corner-cut, octile by default
  /// Expansions allowed per query (iterative searches count every iteration). [Limit: >= 1]
  std::uint64_t node_limit = 10'000'000;
  /// Who moves: radius and class costs (grid/unit.hpp). The default unit sees the grid as it
  /// is; any other is served from the grid's cached view for it (Grid::view), so every
  /// algorithm honours it. [Limit: grid::validate(unit)]
  grid::Unit unit;
  /// When the goal cannot be reached (no path, or the node limit): also find the partial path
  /// of shared docs/ALGORITHMS.md into Result::partial.
  bool partial = false;

  /// The heuristic a query uses: `heuristic` when set, else default_heuristic(moves).
  [[nodiscard]] Heuristic effective_heuristic() const noexcept {
    return heuristic ? *heuristic : default_heuristic(moves);
  }
  /// The weight a query uses: `weight` when set, else 2 for wastar and 1 otherwise.
  [[nodiscard]] double effective_weight() const noexcept {
    return weight ? *weight : (algorithm == Algorithm::wastar ? 2.0 : 1.0);
  }
};

/// The counters and time of one query (Result::stats); a sliced query sums its slices.
struct Stats {
  std::uint64_t expanded = 0;    ///< nodes expanded (stale queue entries not counted)
  std::uint64_t generated = 0;   ///< nodes first put on the open list / frontier
  std::uint64_t reopened = 0;    ///< closed nodes reopened with a better cost
  std::uint64_t peak_open = 0;   ///< largest open list / frontier size (entries: where a better
                                 ///< cost pushes a cell again, its old entry counts until popped)
  std::uint64_t iterations = 0;  ///< iterative deepening rounds (1 for other searches)
  std::uint64_t los_checks = 0;  ///< line-of-sight tests (any-angle searches)
  double time_us = 0;            ///< wall time of the query
};

/// Why a query was answered by another algorithm than Options::algorithm: the machine-readable
/// form of Result::note. Only jps, jps+, subgoal and subgoal-ch fall back, and on maps that are
/// not plain square ones the any-angle searches (map_kind); every answer stays correct (optimal
/// where the algorithm is), only slower than the asked one would be.
enum class Fallback : std::uint8_t {
  none,           ///< answered by Options::algorithm itself
  terrain_costs,  ///< steps cost other than 1 and sqrt 2 somewhere in the grid searched: terrain
                  ///< costs, or the unit's class costs (jps, jps+, subgoal, subgoal-ch -> astar)
  diagonal_rule,  ///< a diagonal rule other than no-corner-cut (jps, jps+, subgoal, subgoal-ch ->
                  ///< astar)
  cost_model,     ///< the integer cost model (10 and 14) instead of octile's 1 and sqrt 2
                  ///< (subgoal, subgoal-ch -> astar)
  map_too_large,  ///< wider or taller than 32000 cells: no jump table (jps+ -> jps); more padded
                  ///< cells than a subgoal graph can number (subgoal, subgoal-ch -> astar)
  rebuilding,     ///< the map changed and the graph is being rebuilt on another thread; until it
                  ///< is in (prepare.hpp: preparation_state, wait_prepared), queries are
                  ///< answered by jps+, with the same optimal costs (subgoal, subgoal-ch ->
                  ///< jps+; -> jps on maps of over 2^21 cells, where its table would be large)
  map_kind,       ///< not a plain square map (Grid::plain): a hex layout, walls on cell edges,
                  ///< floors or links. jps, jps+, subgoal, subgoal-ch -> astar; theta, lazytheta
                  ///< -> astar on hex maps and maps with floors or links (they run with edge
                  ///< walls); anyangle-exact -> theta with edge walls only, astar otherwise
};
/// "none", "terrain-costs", "diagonal-rule", "cost-model", "map-too-large", "rebuilding",
/// "map-kind".
[[nodiscard]] std::string_view to_string(Fallback f) noexcept;

/// The answer to one query. find() reuses it: its vectors keep their capacity, so a warm query
/// allocates nothing.
struct Result {
  /// found, no_path, node_limit or invalid_input; invalid_input until a query sets it.
  Status status = Status::invalid_input;
  /// The algorithm that answered: Options::algorithm, or the one it fell back to (`fallback`
  /// says why and `note` says it in words). Set by every query, invalid ones included.
  Algorithm answered_by = Algorithm::astar;
  /// Why answered_by is not Options::algorithm; Fallback::none when it is.
  Fallback fallback = Fallback::none;
  /// start..goal (empty unless found): every cell for grid algorithms; the turning cells for
  /// any-angle ones (consecutive cells see each other); for anyangle-exact, a free cell touching
  /// each vertex.
  std::vector<Cell> path;
  /// Any-angle algorithms: the path's vertices in map units (cell centres; anyangle-exact may
  /// bend at wall corners, which are lattice points). Empty for grid algorithms, whose points
  /// are the centres of `path` (see path_points()).
  std::vector<Point> points;
  /// Grid algorithms: the sum of step costs along path. Any-angle algorithms: the Euclidean
  /// length of the segments through `points`, times the straight-move cost (terrain is not
  /// weighed: any-angle searches treat every free cell alike).
  Cost cost = 0;
  Stats stats;  ///< the query's counters and time
  /// Empty, or a one-line remark on how the query was answered that a user should see (e.g.
  /// "jps: the map has terrain costs; answered with A*"): the human form of `fallback`, set
  /// exactly when it is not Fallback::none. Its wording may change: test `fallback` and
  /// `answered_by`, not the text. Points to a static string: copying or keeping it never
  /// allocates.
  std::string_view note;
  /// With Options::partial, when no goal was reached: the reached cell closest to the goal (h:
  /// octile for 8-neighbour moves, Manhattan for 4; ties to the smaller path cost, then to the
  /// cell reached first) and the path start..that cell (empty when there is none). Grid steps
  /// every cell; cost as for `cost`. Found by the algorithm's own best-first search (dijkstra,
  /// astar, wastar, greedy), or by A* for the others, within the same node limit.
  struct Partial {
    Cell reached;            ///< the reached cell closest to the goal (meaningful with a path)
    Cost cost = 0;           ///< the cost of `path`, counted as Result::cost; 0 without one
    std::vector<Cell> path;  ///< start..reached, every cell; empty when there is none
  } partial;                 ///< the partial path: set only with Options::partial (see Partial)
  /// The steps of the path, path.size() - 1 (segments for any-angle algorithms); 0 without one.
  [[nodiscard]] std::size_t moves() const noexcept { return path.empty() ? 0 : path.size() - 1; }
  /// The goal reached (the last cell of the path); meaningful when found.
  [[nodiscard]] Cell reached_goal() const noexcept { return path.empty() ? Cell{} : path.back(); }
};

/// One cell of a movement range and the least cost of reaching it.
struct ReachCell {
  Cell cell;      ///< a cell whose least cost from the start is within the budget
  Cost cost = 0;  ///< that least cost, from 0 (the start) to the budget
};

/// The path in map units: r.points when the algorithm gave them, else the centres of r.path.
[[nodiscard]] std::vector<Point> path_points(const Result& r);

/// Euclidean length of a polyline.
[[nodiscard]] double polyline_length(std::span<const Point> points) noexcept;

/// A reusable query object over one grid, with its own workspace.
///
/// Lifetimes and threads:
/// - It keeps a pointer to `grid` (not a copy): the grid must outlive the finder and stay at
///   its address (do not move or destroy it while finders use it; a copy of the grid is
///   another grid, which needs its own finder).
/// - One thread at a time per finder (find, find_nearest, reach, slices, prepare.hpp's
///   functions); any number of finders, on as many threads, may share one grid.
/// - The grid may be edited (Grid::apply and the other setters) between queries, never while a
///   query of any finder on it runs: the search reads the cells without locks. After an edit
///   the finder repairs itself on its next query (unit views, the JPS+ table, the subgoal
///   graphs; after an edit over more than 1/16 of the map, or once repairs have grown it too
///   far, a subgoal graph is rebuilt on another thread from a copy of the grid, jps+ (or jps)
///   answering meanwhile, Fallback::rebuilding, unless the grown graph is still fit to be repaired
///   and asked). No query ever answers for the old map.
/// - Destroying (or moving onto) a finder whose subgoal graph is being rebuilt waits for that
///   build to end.
class Pathfinder {
 public:
  /// A finder over `grid` (which must outlive it) for `options`. Builds nothing yet.
  Pathfinder(const grid::Grid& grid, Options options = {});
  ~Pathfinder();
  /// Takes over the other finder's grid, options and workspace (a sliced query included); the
  /// moved-from finder may only be destroyed or assigned to.
  Pathfinder(Pathfinder&&) noexcept;
  /// Takes over the other finder's grid, options and workspace, freeing its own (waiting for a
  /// subgoal rebuild it runs); the moved-from finder may only be destroyed or assigned to.
  Pathfinder& operator=(Pathfinder&&) noexcept;

  /// Finds a path from start to goal into `out` (reusing its storage). Start or goal outside
  /// the grid or on a wall gives Status::invalid_input. `listener` (optional) receives the
  /// trace; without one the search runs its untraced instantiation.
  Status find(Cell start, Cell goal, Result& out, SearchListener* listener = nullptr) noexcept;
  /// Convenience form that returns a fresh Result.
  [[nodiscard]] Result find(Cell start, Cell goal, SearchListener* listener = nullptr) noexcept;
  /// The nearest of several goals: the least-cost path to any of them (optimal algorithms).
  /// The best-first family (dijkstra, astar, wastar, greedy) runs one search with h = the least
  /// heuristic over the goals (zero past 64 goals: Dijkstra stopping at the first goal
  /// expanded); the other algorithms run once per goal and keep the cheapest (the first goal
  /// given on a tie). Any goal the unit cannot stand on, or none, is invalid_input.
  Status find_nearest(Cell start, std::span<const Cell> goals, Result& out,
                      SearchListener* listener = nullptr) noexcept;
  /// An any-angle query between points of free space, in map units (a unit rarely stands on a
  /// cell centre; (x + 0.5, y + 0.5) is the centre of cell (x, y)): the shortest path of shared
  /// docs/ALGORITHMS.md's exact any-angle definition from start to goal. Answered by the
  /// algorithms for which answers_points() holds (anyangle-exact); with any other, both points
  /// must be cell centres, and find() between those cells answers. Each point is snapped to the
  /// nearest 1/4096 of a cell (its exact form); out.points starts and ends at the snapped
  /// points, out.path holds a free cell under each. invalid_input: a point not finite,
  /// outside the map, inside a wall or on an edge between two walls; off-centre points with
  /// another algorithm, or on a map that is not a plain square one (Grid::plain).
  Status find_points(Point start, Point goal, Result& out,
                     SearchListener* listener = nullptr) noexcept;
  /// The any-angle competition's endpoints (GPPC 2023 any-angle track, Problem_Definition.md):
  /// from the top-left corner of cell start to the top-left corner of cell goal, both cells
  /// free. On a squeeze corner (two walls touching there) the path leaves, and arrives, through
  /// the named cell's quadrant only. answers_points() algorithms only, on plain square maps
  /// (else invalid_input).
  Status find_corners(Cell start, Cell goal, Result& out,
                      SearchListener* listener = nullptr) noexcept;
  /// Movement range: every cell whose least cost from start is <= budget (start included, cost
  /// within 1e-9 relative), row-major, by Dijkstra bounded by the budget, for the options' unit,
  /// moves and node limit. invalid_input for a bad start or a negative or NaN budget; node_limit
  /// when the limit stopped it (out then holds what was settled).
  Status reach(Cell start, double budget, std::vector<ReachCell>& out) noexcept;

  /// Sliced search (frame budgets): start a query, then run it a slice at a time, each slice
  /// expanding at most N nodes, and resume it in a later frame. dijkstra, astar, wastar,
  /// greedy, jps and jps+ stop within the slice and resume where they stopped, with exactly
  /// the result and expansions of one unsliced query; the other algorithms run to the end in
  /// their first slice. The finder serves one query at a time: find() between slices, or a
  /// new start_sliced(), cancels the sliced one. An edit of the grid between slices restarts
  /// it (the next slice starts afresh on the edited map). False, and nothing started, when the
  /// start or goal is invalid for the options' unit.
  bool start_sliced(Cell start, Cell goal) noexcept;
  /// Runs the sliced query for at most max_expansions expansions (>= 1). True when it has
  /// finished: `out` then holds the whole result (status found, no_path or node_limit; stats
  /// over every slice, time_us their sum). False when it needs another slice (out.stats holds
  /// the expansions so far). Without a started query: true, status invalid_input.
  bool run_slice(std::uint64_t max_expansions, Result& out) noexcept;
  /// Drops the sliced query (nothing happens without one).
  void cancel_sliced() noexcept;
  /// Whether a sliced query is started and neither finished nor cancelled.
  [[nodiscard]] bool sliced_active() const noexcept;

  /// The options the next query is answered with.
  [[nodiscard]] const Options& options() const noexcept { return options_; }
  /// Replaces the options for the next queries, unchecked (a query with invalid ones answers
  /// invalid_input); a started sliced query keeps the options it started with.
  void set_options(const Options& o) noexcept { options_ = o; }
  /// The grid given at construction (the unit's view of it: searched_grid()).
  [[nodiscard]] const grid::Grid& grid() const noexcept { return *grid_; }
  /// The grid this finder searches for its options' unit: grid() itself, or the grid's view
  /// for the unit (built on first use). nullptr when the unit is invalid or memory ran out.
  [[nodiscard]] const grid::Grid* searched_grid() const noexcept;
  /// Bytes of search state this finder holds now: node records, open lists, queues and its
  /// per-grid caches (anyangle-exact's visibility graph, jps's transposed walls); not the
  /// preprocessed data it may share with other finders (prepare.hpp: PrepareInfo::bytes).
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

  struct Workspace;

 private:
  friend struct PreparedAccess;     // pathlab/search/prepare.hpp
  friend struct PreparationAccess;  // prepare.hpp's preparation_state and wait_prepared
  Status query(Cell start, std::span<const Cell> goals, Result& out,
               SearchListener* listener) noexcept;
  Status query_points(Point start, Point goal, bool corners, Result& out,
                      SearchListener* listener) noexcept;
  const grid::Grid* grid_;
  Options options_;
  std::unique_ptr<Workspace> ws_;
};

/// How queries with some options on some grid are answered: the algorithm, why it is not the
/// one asked for, and the note (Result's answered_by, fallback and note).
struct FallbackInfo {
  Algorithm answered_by = Algorithm::astar;  ///< the algorithm that answers (Result::answered_by)
  Fallback fallback = Fallback::none;        ///< why it is not the one asked for; none when it is
  std::string_view note;  ///< the reason in words, empty for none; a static string (Result::note)
};

/// How every query with options `o` on grid `g` (as o.unit sees it) is answered, as far as the
/// grid and options decide it: every Fallback but `rebuilding`, which depends on a finder's
/// state (ask fallback_for(finder) in prepare.hpp, or preparation_state). Lets a caller
/// report it once before running queries. An invalid unit gives {o.algorithm, none, ""}.
[[nodiscard]] FallbackInfo fallback_for(const grid::Grid& g, const Options& o) noexcept;

/// fallback_for(g, o).note: the note (Result::note) a query with these options on this grid
/// will carry, empty when none.
[[nodiscard]] std::string_view fallback_note(const grid::Grid& g, const Options& o) noexcept;

/// Whether algorithm a answers queries between arbitrary points (Pathfinder::find_points and
/// find_corners): anyangle-exact and anyangle-labels, the exact any-angle methods.
[[nodiscard]] bool answers_points(Algorithm a) noexcept;

/// The free cell under point p (map units) of grid g, as find_points() takes p: nullopt when p
/// is not finite, outside the map, inside a wall or on an edge between two walls. Cell
/// (floor x, floor y) when it is free; on an edge or a corner, else a free cell touching p.
[[nodiscard]] std::optional<Cell> point_cell(const grid::Grid& g, Point p) noexcept;

/// The cell whose centre p is, (x + 0.5, y + 0.5) exactly: how find_points() reads a point for
/// an algorithm that takes cell centres only (answers_points). nullopt for any other point,
/// including one not finite or beyond ±1e9.
[[nodiscard]] std::optional<Cell> centre_cell(Point p) noexcept;

/// Checks options against the grid: returns a message for a bad weight, node limit or unit.
[[nodiscard]] std::optional<std::string> validate(const Options& o);

}  // namespace pathlab::search
