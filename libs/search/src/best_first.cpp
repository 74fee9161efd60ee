// The best-first engine: f = a*g + w*h over the grid's neighbour iteration, templated on the
// diagonal rule, the heuristic and the listener. Dijkstra (zero heuristic), A*, weighted A*
// and greedy best-first (a = 0) are this one loop with different parameters.
#include "engine.hpp"

namespace pathlab::search::detail {
namespace {

struct BestFirstParams {
  double g_weight;  // 1, or 0 for greedy best-first
  double h_weight;
  bool reopen;    // reopen closed nodes on a better g (exact A*/Dijkstra with any heuristic)
  bool monotone;  // f never decreases along a path (consistent h, g weight 1, h weight <= 1)
  std::uint64_t node_limit;
  bool resume = false;  // sliced search: carry on from the state the last slice left in `side`
};

/// Monotone (p.monotone) runs over a radix heap with lazy updates; the others over the indexed
/// binary heap, whose keys may go down.
/// T: the neighbour iteration (grid::Topology). Plain maps take the heuristic functor h
/// toward t; other maps take `mh` (set up toward t), and h is unused.
template <class T, class H, class L, bool Monotone>
Status best_first(const Grid& grid, const grid::Moves& moves, const BestFirstParams& p, H h,
                  const MapHeuristic& mh, double* h_seen, NodeId s, NodeId t, Side& side, Stats& st,
                  L& listener) {
  if (!p.resume) side.begin(grid.padded_size());
  const Cell goal = grid.cell(t);
  const Toward<H> hv{h, goal.x, goal.y};
  const grid::StepBase base = grid::step_base(moves);
  const double cost[2] = {moves.straight_cost(), moves.diagonal_cost()};
  const bool terrain = grid.has_terrain();
  const CellOf cell_of(grid);
  const NodeId stride = static_cast<NodeId>(grid.stride());

  auto priority = [&](double g, int x, int y) {
    if constexpr (T::general) {
      return p.g_weight * g + p.h_weight * mh(x, y);
    } else if constexpr (H::is_zero) {
      return p.g_weight * g;
    } else {
      return p.g_weight * g + p.h_weight * hv(x, y);
    }
  };
  RadixQueue& radix = side.radix;
  auto push_new = [&](const HeapEntry& e) PATHLAB_INLINE {
    if constexpr (Monotone) {
      radix.push(e);
    } else {
      side.push_new(e);
    }
  };

  const Cell sc = grid.cell(s);
  auto key = [](double f, double g) { return Monotone ? priority_key(f) : make_key(f, g); };
  if (!p.resume) {
    side.open(s, 0.0, s);
    push_new(HeapEntry{key(priority(0.0, sc.x, sc.y), 0.0), s});
    st.generated = 1;
    if constexpr (L::enabled) listener.opened(s, s, 0.0, priority(0.0, sc.x, sc.y), 0);
  }

  for (;;) {
    // The limit is checked before taking an entry, so that a sliced search resumes with the
    // open list whole.
    if (st.expanded >= p.node_limit && !(Monotone ? radix.empty() : side.heap.empty())) {
      return Status::node_limit;
    }
    HeapEntry e;
    if constexpr (Monotone) {
      if (radix.empty()) break;
      st.peak_open = std::max<std::uint64_t>(st.peak_open, radix.size());
      e = radix.pop();
      if (side.stale(e)) continue;  // a cell pushed again with a better g was expanded then
    } else {
      if (side.heap.empty()) break;
      st.peak_open = std::max<std::uint64_t>(st.peak_open, side.heap.size());
      e = side.pop();
    }
    const double gu = side.nodes[e.id].g;
    side.close(e.id);
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(e.id, 0);
    if (e.id == t) return Status::found;

    int x, y;
    cell_of(e.id, x, y);
    auto relax = [&](NodeId n, int d, double step) PATHLAB_INLINE {
      const double ng = gu + step;
      const std::uint8_t state = side.state(n);
      const bool seen = state >= side.gen;
      const bool was_closed = state == side.gen + 1;
      // With a monotone f a closed cell's g is already its least: its record is not read.
      if (was_closed && (Monotone || !p.reopen)) return;
      if (seen && !improves(ng, side.nodes[n].g)) return;
      if (was_closed) ++st.reopened;
      side.open(n, ng, e.id);
      double f;
      if constexpr (T::general) {
        // h once per cell and query (the map's heuristic costs a term per useful link).
        double hn;
        if (seen) {
          hn = h_seen[n];
        } else {
          int nx, ny;
          cell_of(n, nx, ny);
          hn = mh(nx, ny);
          h_seen[n] = hn;
        }
        f = p.g_weight * ng + p.h_weight * hn;
      } else {
        f = priority(ng, x + grid::kDx[d], y + grid::kDy[d]);
      }
      const HeapEntry entry{key(f, ng), n};
      // Its expansion will touch the rows above and below: start loading them now (on
      // maze512-1-0 those misses were a third of the time).
      __builtin_prefetch(&side.nodes[n - stride], 1);
      __builtin_prefetch(&side.nodes[n + stride], 1);
      if (Monotone || !seen) {
        push_new(entry);
      } else {
        side.push(entry);
      }
      if (!seen) {
        ++st.generated;
        if constexpr (L::enabled) listener.opened(n, e.id, ng, f, 0);
      } else {
        if constexpr (L::enabled) listener.updated(n, e.id, ng, f, 0);
      }
    };
    if constexpr (T::general) {
      grid::for_each_move<T::rule>(grid, e.id, base, relax);
    } else {
      grid::for_each_neighbour<T::rule>(grid, e.id, [&](NodeId n, int d) PATHLAB_INLINE {
        relax(n, d, terrain ? cost[d >= 4] * grid.terrain_id(n) : cost[d >= 4]);
      });
    }
  }
  return Status::no_path;
}

}  // namespace

BestFirstRule best_first_rule(const Options& o) noexcept {
  BestFirstRule r;
  r.h_weight = o.effective_weight();
  r.heuristic = o.effective_heuristic();
  switch (o.algorithm) {
    case Algorithm::dijkstra:
      r.heuristic = Heuristic::zero;
      break;
    case Algorithm::greedy:
      r.g_weight = 0.0;
      r.h_weight = 1.0;
      r.reopen = false;
      break;
    case Algorithm::wastar:
      r.reopen = false;  // the w*opt bound holds without reopening
      break;
    case Algorithm::astar:
      r.reopen = r.h_weight <= 1.0;
      break;
    default:  // not of the family: A* with the options' heuristic, weight 1
      r.h_weight = 1.0;
      break;
  }
  return r;
}

template <class L>
Status run_best_first(const Grid& grid, const Options& o, NodeId s, NodeId t,
                      Pathfinder::Workspace& ws, Result& out, L& listener) {
  const BestFirstRule rule = best_first_rule(o);
  BestFirstParams p{rule.g_weight, rule.h_weight, rule.reopen, false, o.node_limit, ws.resume};
  const Heuristic heur = rule.heuristic;
  // Our admissible heuristics are all consistent, and so is w*h for w <= 1.
  p.monotone = p.g_weight == 1.0 && p.h_weight <= 1.0 &&
               (search::admissible(heur, o.moves) || grid::is_hex(grid.layout()));
  Side& side = ws.side[0];
  const Status status = grid::dispatch_topology(grid, o.moves.diagonal, [&](auto topo) {
    using T = decltype(topo);
    if constexpr (T::general) {
      // One heuristic type for every map kind: MapHeuristic decides at run time.
      if (!p.resume) {
        ws.map_h.setup(grid, heur, o.moves.straight_cost(), o.moves.diagonal_cost(),
                       std::span<const NodeId>(&t, 1));
      }
      if (ws.h_seen.size() != grid.padded_size()) ws.h_seen.assign(grid.padded_size(), 0.0);
      const ZeroH h{};
      double* hs = ws.h_seen.data();
      return p.monotone ? best_first<T, ZeroH, L, true>(grid, o.moves, p, h, ws.map_h, hs, s, t,
                                                        side, out.stats, listener)
                        : best_first<T, ZeroH, L, false>(grid, o.moves, p, h, ws.map_h, hs, s, t,
                                                         side, out.stats, listener);
    } else {
      return dispatch_heuristic(heur, o.moves, [&](auto h) {
        using H = decltype(h);
        return p.monotone ? best_first<T, H, L, true>(grid, o.moves, p, h, ws.map_h, nullptr, s, t,
                                                      side, out.stats, listener)
                          : best_first<T, H, L, false>(grid, o.moves, p, h, ws.map_h, nullptr, s, t,
                                                       side, out.stats, listener);
      });
    }
  });
  if (status == Status::found) append_chain_forward(grid, side, s, t, out.path);
  return status;
}

template Status run_best_first(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                               Result&, NullListener&);
template Status run_best_first(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                               Result&, DynamicListener&);

}  // namespace pathlab::search::detail
