// D* Lite (Koenig & Likhachev 2002): incremental replanning for an agent that moves towards a
// fixed goal while its map changes. Shared docs/ALGORITHMS.md, "D* Lite". It searches backward
// from the goal, so g(s) is the cost from s to the goal and the agent's moves only shift the
// heuristic (by k_m) instead of invalidating the search.
//   c(s,s')  = cost of the move s -> s' (base cost times the terrain of s', the cell entered)
//   rhs(s)   = min over successors s' of c(s,s') + g(s');  rhs(goal) = 0
//   key(s)   = [min(g,rhs) + h(s_start,s) + k_m, min(g,rhs)]   (lexicographic; k1 ties within
//              a relative 1e-9, see Key)
//   h        = octile (Manhattan for 4-neighbour moves) scaled by the cost model, the hex
//              distance on hex maps: consistent and admissible because terrain >= 1
// It plans on every map kind whose moves stay between neighbouring cells: square maps, hex maps
// and walls on cell edges (grid::for_each_move); links, which join far cells, are refused.
// ComputeShortestPath pops the least key while TopKey < key(s_start) or rhs(s_start) != g(s_start):
// an outdated key is reinserted; an overconsistent vertex (g > rhs) takes g = rhs and lowers its
// predecessors' rhs; an underconsistent one takes g = inf (rhs(u) does not read g(u), so it
// stays) and the predecessors whose rhs came through it recompute theirs. On map changes k_m +=
// h(s_last, s_start), s_last = s_start, and the sources of every changed move are updated. Under
// the corner rules a cell is a corner of the diagonal moves between its orthogonal neighbours, so
// blocking or freeing it updates the cell and all eight neighbours (every changed move starts at
// one of them).
//
// State lives in flat arrays over the padded node ids (g, rhs, heap position) and an indexed
// binary heap, so there are no stale queue entries and no per-node allocation: about 20 bytes
// per padded cell (5 MB for 512x512).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>

namespace pathlab::agents {

/// A D* Lite planner for one agent, on its own copy of the map; reset() starts over with a new
/// start and goal.
class DStarLite {
 public:
  /// The default expansion budget of reset() and replan(): no limit.
  static constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();

  /// Work counters of the search.
  struct Stats {
    std::uint64_t expanded = 0;  ///< vertices popped whose g changed (re-keyed pops not counted)
    std::uint64_t updates = 0;   ///< UpdateVertex calls: rhs recomputed or lowered, key refreshed
  };

  /// Plans on its own copy of `grid` (the agent's belief of the map) with these moves.
  explicit DStarLite(const grid::Grid& grid, grid::Moves moves = {});

  /// Sets start and goal, clears all search state and computes the first plan (as replan()).
  /// invalid_input when start or goal is outside the map or a wall, or the map has links.
  Status reset(Cell start, Cell goal, std::uint64_t max_expansions = unlimited);

  /// The agent moved to `start` (normally the next cell of path()). Any cell of the map is
  /// accepted (a teleport just costs more repair); false, and nothing changes, outside the map.
  /// Moving along path() without map changes keeps path() valid even before replan().
  bool move_to(Cell start);

  /// The map changed: a cell became blocked or free. The affected vertices are updated at once;
  /// the plan is repaired by the next replan(). false (ignored) outside the map. Blocking the goal
  /// or the agent's own cell is allowed: replan() then reports no_path until it is freed.
  bool set_blocked(Cell c, bool blocked);
  /// The terrain cost of a cell changed (>= 1 and finite; throws std::invalid_argument otherwise,
  /// like grid::Grid::set_terrain). false (ignored) outside the map.
  bool set_terrain(Cell c, float cost);

  /// Repairs the plan after moves and changes (ComputeShortestPath): found or no_path;
  /// invalid_input when reset() has not succeeded. With a budget, stops after `max_expansions`
  /// expansions with node_limit; the state stays valid and the next replan() continues the work.
  /// no_path is answered without searching while the start or the goal is a wall.
  Status replan(std::uint64_t max_expansions = unlimited);

  /// Status of the last reset()/replan().
  [[nodiscard]] Status status() const noexcept { return status_; }
  /// Current path start..goal by greedy descent on c + g (empty unless the last replan found
  /// one); it is a least-cost path on grid() once replan() returned found.
  [[nodiscard]] std::vector<Cell> path() const;
  /// The first move of path() (start itself when start == goal); nullopt when there is no path.
  [[nodiscard]] std::optional<Cell> next() const;
  /// g(s_start): the cost of path(); infinity when there is none.
  [[nodiscard]] double cost() const noexcept;

  /// The agent's cell: the last successful reset()'s start or move_to()'s cell.
  [[nodiscard]] Cell start() const noexcept { return start_; }
  /// The goal cell of the last successful reset().
  [[nodiscard]] Cell goal() const noexcept { return goal_; }
  /// The planner's own map, with every set_blocked()/set_terrain() change applied.
  [[nodiscard]] const grid::Grid& grid() const noexcept { return grid_; }
  /// The moves it plans with (fixed at construction).
  [[nodiscard]] const grid::Moves& moves() const noexcept { return moves_; }
  /// Work summed over every reset()/replan() since construction (the vertex updates made by
  /// set_blocked()/set_terrain() count towards the replan() that follows them).
  [[nodiscard]] const Stats& stats() const noexcept { return total_; }
  /// Work of the last reset()/replan() (a reset includes its first plan).
  [[nodiscard]] const Stats& last_stats() const noexcept { return last_stats_; }

 private:
  // Keys compare lexicographically, with k1 within a relative 1e-9 counting as a tie (in the
  // heap order and in TopKey < key(s_start) alike). Ties in k1 are the rule, not the exception:
  // along a least-cost path min(g,rhs) + h is constant where h is exact, and k2 must then decide
  // (the path's vertices have a smaller k2 than s_start and must be processed first). Sums
  // taken in different orders differ in the last bits, and an exact k1 test let such a vertex
  // hide behind one with a larger k2 that came out a rounding error lower, so the search
  // stopped with a stale g(s_start). Accumulated rounding stays far below 1e-9 relative.
  struct Key {
    double k1, k2;
    friend bool operator<(const Key& a, const Key& b) noexcept {
      const double scale = std::max({1.0, std::abs(a.k1), std::abs(b.k1)});
      if (!(scale < std::numeric_limits<double>::infinity())) {
        return a.k1 < b.k1 || (a.k1 == b.k1 && a.k2 < b.k2);  // [inf, inf]: exact
      }
      const double tol = 1e-9 * scale;
      if (a.k1 < b.k1 - tol) return true;
      if (a.k1 > b.k1 + tol) return false;
      return a.k2 < b.k2;
    }
  };
  struct Entry {
    Key key;
    grid::NodeId node;
  };
  static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

  [[nodiscard]] double h(grid::NodeId n) const noexcept;
  /// The heuristic distance between two cells (octile, or hex distance on hex maps).
  [[nodiscard]] double distance(Cell a, Cell b) const noexcept;
  /// The base cost of a grid move in direction dir (hex moves all cost the straight step).
  [[nodiscard]] double base(int dir) const noexcept;
  /// f(m, dir) for every legal grid move out of n (and so, moves being symmetric, into it).
  template <grid::DiagonalRule R, class F>
  void each_move(grid::NodeId n, F&& f) const;
  [[nodiscard]] Key key(grid::NodeId n) const noexcept;
  void sync_start() noexcept;
  void update_vertex(grid::NodeId n);
  template <grid::DiagonalRule R>
  [[nodiscard]] double compute_rhs(grid::NodeId n) const noexcept;
  template <grid::DiagonalRule R>
  void update_around(grid::NodeId n);
  template <grid::DiagonalRule R>
  Status compute_shortest_path(std::uint64_t max_expansions);
  template <grid::DiagonalRule R>
  [[nodiscard]] grid::NodeId descend(grid::NodeId n) const noexcept;

  // Indexed binary heap over heap_, pos_[node] = index in heap_ or npos.
  void heap_push(grid::NodeId n, Key k);
  void heap_update(grid::NodeId n, Key k) noexcept;
  void heap_remove(grid::NodeId n) noexcept;
  void sift_up(std::uint32_t i) noexcept;
  void sift_down(std::uint32_t i) noexcept;

  grid::Grid grid_;
  grid::Moves moves_;
  Cell start_{}, goal_{}, s_last_{};
  grid::NodeId start_id_ = 0, goal_id_ = 0;
  int sx_ = 0, sy_ = 0;   // padded coordinates of start_ for h()
  bool hex_ = false;      // a hex layout: hex moves and distance
  bool general_ = false;  // not a plain square map: grid::for_each_move
  double km_ = 0;
  bool ready_ = false;  // reset() succeeded
  Status status_ = Status::invalid_input;
  std::vector<double> g_, rhs_;
  std::vector<std::uint32_t> pos_;
  std::vector<Entry> heap_;
  Stats total_, last_stats_;
  Stats work_;  // since the last replan: the updates made by map changes count towards it
};

}  // namespace pathlab::agents
