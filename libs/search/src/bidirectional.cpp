// Bidirectional A* (and bidirectional Dijkstra with the zero heuristic): a forward search from
// the start and a backward one from the goal, expanding the side with the smaller open list.
// Front-to-end stopping rule: stop when mu (the best meeting cost so far) <= max(fmin
// forward, fmin backward); with a consistent heuristic the result is optimal.
// The backward search walks reversed moves: the corner rules are symmetric, and the step
// y -> x it stands for pays the terrain of x, the cell entered.
#include "engine.hpp"

namespace pathlab::search::detail {
namespace {

template <class T, class H, class L>
Status biastar(const Grid& grid, const grid::Moves& moves, double w, H h, NodeId s, NodeId t,
               std::uint64_t limit, Pathfinder::Workspace& ws, Stats& st, L& listener,
               NodeId& meet) {
  constexpr DiagonalRule R = T::rule;
  const MapHeuristic* mh[2] = {&ws.map_h, &ws.map_h_back};
  const grid::StepBase base = grid::step_base(moves);
  Side* sides[2] = {&ws.side[0], &ws.side[1]};
  sides[0]->begin(grid.padded_size());
  sides[1]->begin(grid.padded_size());
  const Cell sc = grid.cell(s), tc = grid.cell(t);
  const Toward<H> hv[2] = {{h, tc.x, tc.y}, {h, sc.x, sc.y}};
  const double cost[2] = {moves.straight_cost(), moves.diagonal_cost()};
  const bool terrain = grid.has_terrain();
  const CellOf cell_of(grid);
  auto priority = [&](int side, double g, int x, int y) {
    if constexpr (T::general) {
      return g + w * (*mh[side])(x, y);
    } else if constexpr (H::is_zero) {
      return g;
    } else {
      return g + w * hv[side](x, y);
    }
  };

  const NodeId roots[2] = {s, t};
  const Cell root_cells[2] = {sc, tc};
  for (int k = 0; k < 2; ++k) {
    sides[k]->open(roots[k], 0.0, roots[k]);
    const double f = priority(k, 0.0, root_cells[k].x, root_cells[k].y);
    sides[k]->push(f, 0.0, roots[k]);
    if constexpr (L::enabled) listener.opened(roots[k], roots[k], 0.0, f, k);
  }
  st.generated = 2;
  double mu = kInf;
  if (s == t) {
    meet = s;
    mu = 0;
  }

  for (;;) {
    sides[0]->prune_top();
    sides[1]->prune_top();
    if (sides[0]->heap.empty() || sides[1]->heap.empty()) break;
    // Keys round f down a little, so this test can only stop later, never too early.
    const double fmin = std::max(key_priority(sides[0]->heap.front().key),
                                 key_priority(sides[1]->heap.front().key));
    if (mu <= fmin) break;
    st.peak_open =
        std::max<std::uint64_t>(st.peak_open, sides[0]->heap.size() + sides[1]->heap.size());
    const int k = sides[0]->heap.size() <= sides[1]->heap.size() ? 0 : 1;
    Side& me = *sides[k];
    const Side& other = *sides[1 - k];
    if (st.expanded >= limit) return Status::node_limit;
    const HeapEntry e = me.pop();
    const double gu = me.nodes[e.id].g;
    me.close(e.id);
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(e.id, k);
    int x, y;
    cell_of(e.id, x, y);
    const float enter_u = terrain ? grid.terrain_id(e.id) : 1.0f;
    auto relax = [&](NodeId n, int d, double step) PATHLAB_INLINE {
      const double ng = gu + step;
      const std::uint8_t state = me.state(n);
      NodeRec& r = me.nodes[n];
      const bool seen = state >= me.gen;
      if (seen && !improves(ng, r.g)) return;
      if (state == me.gen + 1) ++st.reopened;
      me.open(n, ng, e.id);
      double f;
      if constexpr (T::general) {
        int nx, ny;
        cell_of(n, nx, ny);
        f = priority(k, ng, nx, ny);
      } else {
        f = priority(k, ng, x + grid::kDx[d], y + grid::kDy[d]);
      }
      me.push(f, ng, n);
      if (!seen) ++st.generated;
      if constexpr (L::enabled) {
        if (seen) {
          listener.updated(n, e.id, ng, f, k);
        } else {
          listener.opened(n, e.id, ng, f, k);
        }
      }
      if (other.seen(n) && ng + other.nodes[n].g < mu) {
        mu = ng + other.nodes[n].g;
        meet = n;
      }
    };
    if constexpr (T::general) {
      // Backward: the moves into e.id, each costing what the forward move costs.
      if (k == 0) {
        grid::for_each_move<R>(grid, e.id, base, relax);
      } else {
        grid::for_each_move_in<R>(grid, e.id, base, relax);
      }
    } else {
      grid::for_each_neighbour<R>(grid, e.id, [&](NodeId n, int d) PATHLAB_INLINE {
        double step = cost[d >= 4];
        if (terrain) step *= k == 0 ? grid.terrain_id(n) : enter_u;
        relax(n, d, step);
      });
    }
  }
  if (mu == kInf) return Status::no_path;
  if constexpr (L::enabled) listener.meet(meet, meet);
  return Status::found;
}

}  // namespace

template <class L>
Status run_bidirectional_astar(const Grid& grid, const Options& o, NodeId s, NodeId t,
                               Pathfinder::Workspace& ws, Result& out, L& listener) {
  NodeId meet = s;
  const Status status = grid::dispatch_topology(grid, o.moves.diagonal, [&](auto topo) {
    using T = decltype(topo);
    if constexpr (T::general) {
      const Heuristic h = o.effective_heuristic();
      const double sc = o.moves.straight_cost(), dc = o.moves.diagonal_cost();
      ws.map_h.setup(grid, h, sc, dc, std::span<const NodeId>(&t, 1));
      ws.map_h_back.setup(grid, h, sc, dc, std::span<const NodeId>(&s, 1), true);
      return biastar<T>(grid, o.moves, o.effective_weight(), ZeroH{}, s, t, o.node_limit, ws,
                        out.stats, listener, meet);
    } else {
      return dispatch_heuristic(o.effective_heuristic(), o.moves, [&](auto h) {
        return biastar<T>(grid, o.moves, o.effective_weight(), h, s, t, o.node_limit, ws, out.stats,
                          listener, meet);
      });
    }
  });
  if (status == Status::found) {
    append_chain_forward(grid, ws.side[0], s, meet, out.path);
    out.path.pop_back();  // the meeting cell starts the backward chain
    append_chain_backward(grid, ws.side[1], t, meet, out.path);
  }
  return status;
}

template Status run_bidirectional_astar(const Grid&, const Options&, NodeId, NodeId,
                                        Pathfinder::Workspace&, Result&, NullListener&);
template Status run_bidirectional_astar(const Grid&, const Options&, NodeId, NodeId,
                                        Pathfinder::Workspace&, Result&, DynamicListener&);

}  // namespace pathlab::search::detail
