// The query shapes of shared docs/ALGORITHMS.md ("Partial paths and other query shapes"): the
// nearest of several goals, partial paths when no goal can be reached, and movement ranges.
// One best-first loop over the grid serves the three: f = a*g + w*h with h the least heuristic
// over the goals, a goal test over a set, a budget on g, and a tracker of the reached cell
// closest to the goals. It keeps the engine's rules (moves, corner rule, the unit's view,
// terrain) and the indexed heap; these shapes are not the hot path of the plain query.
#include <algorithm>
#include <cmath>

#include "engine.hpp"

namespace pathlab::search::detail {
namespace {

struct ExploreParams {
  double g_weight = 1.0;
  double h_weight = 1.0;
  bool reopen = true;
  std::uint64_t node_limit = 0;
  double budget = kInf;  ///< stop before expanding a cell with g above this (Dijkstra only)
};

/// The options' best-first rule, as ExploreParams (and its heuristic).
ExploreParams params_of(const Options& o, Heuristic& heuristic) {
  const BestFirstRule r = best_first_rule(o);
  ExploreParams p;
  p.g_weight = r.g_weight;
  p.h_weight = r.h_weight;
  p.reopen = r.reopen;
  p.node_limit = o.node_limit;
  heuristic = r.heuristic;
  return p;
}

/// The best-first loop. hf(x, y): heuristic value; is_goal(id); track(id, g) at each expansion.
/// Sets `reached` to the goal expanded.
template <class T, class HF, class Goal, class Track, class L>
Status explore(const Grid& grid, const grid::Moves& moves, const ExploreParams& p, const HF& hf,
               NodeId s, Side& side, Stats& st, L& listener, const Goal& is_goal, Track& track,
               NodeId& reached) {
  side.begin(grid.padded_size());
  const grid::StepBase base = grid::step_base(moves);
  const CellOf cell_of(grid);
  auto priority = [&](double g, NodeId n) {
    int x, y;
    cell_of(n, x, y);
    return p.g_weight * g + p.h_weight * hf(x, y);
  };
  side.open(s, 0.0, s);
  side.push(priority(0.0, s), 0.0, s);
  st.generated = 1;
  if constexpr (L::enabled) listener.opened(s, s, 0.0, priority(0.0, s), 0);
  const double budget_limit = p.budget + 1e-9 * std::max(1.0, p.budget);
  while (!side.heap.empty()) {
    st.peak_open = std::max<std::uint64_t>(st.peak_open, side.heap.size());
    const NodeId u = side.heap.front().id;
    const double gu = side.nodes[u].g;
    if (gu > budget_limit) break;  // the budget's range is settled
    if (st.expanded >= p.node_limit) return Status::node_limit;
    (void)side.pop();
    side.close(u);
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(u, 0);
    track(u, gu);
    if (is_goal(u)) {
      reached = u;
      return Status::found;
    }
    grid::for_each_step<T>(grid, u, base, [&](NodeId n, int, double step) {
      const double ng = gu + step;
      const bool seen = side.seen(n), was_closed = side.closed(n);
      if (was_closed && !p.reopen) return;
      if (seen && !improves(ng, side.nodes[n].g)) return;
      if (was_closed) ++st.reopened;
      side.open(n, ng, u);
      const double f = priority(ng, n);
      side.push(f, ng, n);
      if (!seen) {
        ++st.generated;
        if constexpr (L::enabled) listener.opened(n, u, ng, f, 0);
      } else {
        if constexpr (L::enabled) listener.updated(n, u, ng, f, 0);
      }
    });
  }
  return Status::no_path;
}

/// Least heuristic over the goals (zero past kMaxHeuristicGoals: Dijkstra). On maps that are
/// not plain, the map's own heuristic (map_heuristic.hpp) toward the same goals.
constexpr std::size_t kMaxHeuristicGoals = MapHeuristic::kMaxGoals;
struct MinOverGoals {
  Heuristic h;
  const grid::Moves* moves;
  const std::vector<Cell>* goals;
  const MapHeuristic* map = nullptr;  ///< set on maps that are not plain
  double operator()(int x, int y) const noexcept {
    if (map != nullptr) return (*map)(x, y);
    if (h == Heuristic::zero || goals->size() > kMaxHeuristicGoals) return 0.0;
    double best = kInf;
    for (const Cell c : *goals) {
      best = std::min(best, heuristic_distance(h, *moves, x - c.x, y - c.y));
    }
    return best;
  }
};

/// Runs explore under the options' diagonal rule.
template <class HF, class Goal, class Track, class L>
Status explore_rule(const Grid& g, const Options& o, const ExploreParams& p, const HF& hf, NodeId s,
                    Side& side, Stats& st, L& listener, const Goal& is_goal, Track& track,
                    NodeId& reached) {
  return grid::dispatch_topology(g, o.moves.diagonal, [&](auto topo) {
    using T = decltype(topo);
    return explore<T>(g, o.moves, p, hf, s, side, st, listener, is_goal, track, reached);
  });
}

}  // namespace

bool best_first_family(Algorithm a) noexcept {
  return a == Algorithm::dijkstra || a == Algorithm::astar || a == Algorithm::wastar ||
         a == Algorithm::greedy;
}

template <class L>
Status run_multi_goal(const Grid& g, const Options& o, NodeId s, std::span<const NodeId> goals,
                      Pathfinder::Workspace& ws, Result& out, L& listener) {
  Heuristic heur;
  const ExploreParams p = params_of(o, heur);
  std::vector<Cell>& goal_cells = ws.scratch;
  goal_cells.clear();
  for (const NodeId t : goals) goal_cells.push_back(g.cell(t));
  std::vector<NodeId>& sorted = ws.next;
  sorted.assign(goals.begin(), goals.end());
  std::sort(sorted.begin(), sorted.end());
  MinOverGoals hf{heur, &o.moves, &goal_cells};
  if (!g.plain()) {
    ws.map_h.setup(g, heur, o.moves.straight_cost(), o.moves.diagonal_cost(), goals);
    hf.map = &ws.map_h;
  }
  auto is_goal = [&](NodeId n) { return std::binary_search(sorted.begin(), sorted.end(), n); };
  auto track = [](NodeId, double) {};
  NodeId reached = s;
  const Status status =
      explore_rule(g, o, p, hf, s, ws.side[0], out.stats, listener, is_goal, track, reached);
  if (status == Status::found) append_chain_forward(g, ws.side[0], s, reached, out.path);
  return status;
}

template Status run_multi_goal(const Grid&, const Options&, NodeId, std::span<const NodeId>,
                               Pathfinder::Workspace&, Result&, NullListener&);
template Status run_multi_goal(const Grid&, const Options&, NodeId, std::span<const NodeId>,
                               Pathfinder::Workspace&, Result&, DynamicListener&);

void run_partial(const Grid& g, const Options& o, NodeId s, std::span<const NodeId> goals,
                 Pathfinder::Workspace& ws, Result::Partial& out) {
  out.path.clear();
  out.cost = 0;
  Heuristic heur;
  const ExploreParams p = params_of(o, heur);
  std::vector<Cell>& goal_cells = ws.scratch;
  goal_cells.clear();
  for (const NodeId t : goals) goal_cells.push_back(g.cell(t));
  MinOverGoals hf{heur, &o.moves, &goal_cells};
  // Closeness: octile for 8-neighbour moves, Manhattan for 4, to the nearest goal (on other
  // maps: hex distance, and through links the relaxed distance of map_heuristic.hpp).
  const std::vector<Cell> all_goals = goal_cells;
  MinOverGoals near{default_heuristic(o.moves), &o.moves, &all_goals};
  MapHeuristic near_map;
  if (!g.plain()) {
    ws.map_h.setup(g, heur, o.moves.straight_cost(), o.moves.diagonal_cost(), goals);
    hf.map = &ws.map_h;
    near_map.setup(g, default_heuristic(o.moves), o.moves.straight_cost(), o.moves.diagonal_cost(),
                   goals);
    near.map = &near_map;
  }
  const CellOf cell_of(g);
  double best_h = kInf, best_g = kInf;
  NodeId best = s;
  auto track = [&](NodeId n, double gn) {
    int x, y;
    cell_of(n, x, y);
    const double h = near(x, y);
    // Strictly better only: on a full tie the cell reached first stays.
    if (h < best_h - 1e-12 || (std::abs(h - best_h) <= 1e-12 && gn < best_g - 1e-12)) {
      best_h = h;
      best_g = gn;
      best = n;
    }
  };
  auto no_goal = [](NodeId) { return false; };
  NodeId reached = s;
  Stats st;
  NullListener none;
  (void)explore_rule(g, o, p, hf, s, ws.side[0], st, none, no_goal, track, reached);
  out.reached = g.cell(best);
  append_chain_forward(g, ws.side[0], s, best, out.path);
}

Status run_reach(const Grid& g, const Options& o, NodeId s, double budget,
                 Pathfinder::Workspace& ws, std::vector<ReachCell>& out) {
  out.clear();
  ExploreParams p;
  p.node_limit = o.node_limit;
  p.budget = budget;
  auto zero = [](int, int) { return 0.0; };
  auto no_goal = [](NodeId) { return false; };
  std::vector<NodeId>& settled = ws.next;
  settled.clear();
  auto track = [&](NodeId n, double) { settled.push_back(n); };
  NodeId reached = s;
  Stats st;
  NullListener none;
  const Status status =
      explore_rule(g, o, p, zero, s, ws.side[0], st, none, no_goal, track, reached);
  std::sort(settled.begin(), settled.end());  // padded ids grow row-major
  out.reserve(settled.size());
  for (const NodeId n : settled) out.push_back({g.cell(n), ws.side[0].nodes[n].g});
  return status == Status::node_limit ? Status::node_limit : Status::found;
}

}  // namespace pathlab::search::detail
