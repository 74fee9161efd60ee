// IDA* (Korf 1985): depth-first iterations bounded by f = g + w*h, the next bound being the
// least f that was cut. A transposition table (cell -> best g in this iteration) and the least
// g ever seen per cell (an arrival with a larger g is dominated) keep each iteration
// near-linear on grids; a relative epsilon absorbs floating-point sums of sqrt(2).
// It obeys the node budget: on large open maps it is slow by nature and reports node_limit.
#include "engine.hpp"

namespace pathlab::search::detail {
namespace {

template <class T, class H, class L>
Status idastar(const Grid& grid, const grid::Moves& moves, double w, H h, NodeId s, NodeId t,
               std::uint64_t limit, Pathfinder::Workspace& ws, Stats& st, L& listener) {
  Side& side = ws.side[0];
  Side& best = ws.side[1];  // least g ever seen, across iterations
  best.begin(grid.padded_size());
  best.open(s, 0, s);
  const DirOffsets off(grid);
  const Cell goal = grid.cell(t);
  const Toward<H> hv{h, goal.x, goal.y};
  const std::int32_t stride = grid.stride();
  constexpr DiagonalRule R = T::rule;
  const grid::StepBase base = grid::step_base(moves);
  auto hcost = [&](NodeId n) {
    if constexpr (T::general) {
      return w * ws.map_h(static_cast<int>(n % static_cast<NodeId>(stride)) - 1,
                          static_cast<int>(n / static_cast<NodeId>(stride)) - 1);
    } else if constexpr (H::is_zero) {
      return 0.0;
    } else {
      return w * hv(static_cast<int>(n % static_cast<NodeId>(stride)) - 1,
                    static_cast<int>(n / static_cast<NodeId>(stride)) - 1);
    }
  };
  double bound = hcost(s);
  auto& stack = ws.stack;
  for (;;) {
    side.begin(grid.padded_size());
    ++st.iterations;
    if constexpr (L::enabled) listener.iteration(bound);
    const double cutoff = bound + 1e-9 * std::max(1.0, bound);
    double next_bound = kInf;
    stack.clear();
    side.open(s, 0, s);
    stack.push_back({s, 0, 0.0});
    ++st.generated;
    if constexpr (L::enabled) listener.opened(s, s, 0.0, bound, 0);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next_dir == 0) {
        if (f.node == t) return Status::found;
        if (st.expanded >= limit) return Status::node_limit;
        ++st.expanded;
        if constexpr (L::enabled) listener.closed(f.node, 0);
      }
      bool pushed = false;
      NodeId n = 0;
      while (T::general || f.next_dir < 8) {
        const int d = f.next_dir++;
        double g;
        if constexpr (T::general) {
          // The d-th move out of the cell, in for_each_move's order.
          int i = 0;
          double step = -1;
          grid::for_each_move<R>(grid, f.node, base, [&](NodeId m, int, double c) {
            if (i++ == d) n = m, step = c;
          });
          if (d >= i) break;
          g = f.g + step;
        } else {
          if (!step_in<R>(grid, off, f.node, d, n)) continue;
          g = f.g + step_cost(grid, moves, d, n);
        }
        if (side.seen(n) && side.nodes[n].g <= g) continue;  // transposition table
        if (best.seen(n) && best.nodes[n].g < g) continue;
        const double fn = g + hcost(n);
        if (fn > cutoff) {
          next_bound = std::min(next_bound, fn);
          continue;
        }
        const bool seen = side.seen(n);
        const NodeId parent = f.node;
        side.open(n, g, parent);
        if (!best.seen(n) || g < best.nodes[n].g) best.open(n, g, parent);
        if (!seen) ++st.generated;
        if constexpr (L::enabled) listener.opened(n, parent, g, fn, 0);
        stack.push_back({n, 0, g});  // invalidates f
        st.peak_open = std::max<std::uint64_t>(st.peak_open, stack.size());
        pushed = true;
        break;
      }
      if (!pushed) stack.pop_back();
    }
    if (next_bound == kInf) return Status::no_path;
    bound = next_bound;
  }
}

}  // namespace

template <class L>
Status run_idastar(const Grid& grid, const Options& o, NodeId s, NodeId t,
                   Pathfinder::Workspace& ws, Result& out, L& listener) {
  const Status status = grid::dispatch_topology(grid, o.moves.diagonal, [&](auto topo) {
    using T = decltype(topo);
    if constexpr (T::general) {
      ws.map_h.setup(grid, o.effective_heuristic(), o.moves.straight_cost(),
                     o.moves.diagonal_cost(), std::span<const NodeId>(&t, 1));
      return idastar<T>(grid, o.moves, o.effective_weight(), ZeroH{}, s, t, o.node_limit, ws,
                        out.stats, listener);
    } else {
      return dispatch_heuristic(o.effective_heuristic(), o.moves, [&](auto h) {
        return idastar<T>(grid, o.moves, o.effective_weight(), h, s, t, o.node_limit, ws, out.stats,
                          listener);
      });
    }
  });
  if (status == Status::found) append_chain_forward(grid, ws.side[0], s, t, out.path);
  return status;
}

template Status run_idastar(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                            Result&, NullListener&);
template Status run_idastar(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                            Result&, DynamicListener&);

}  // namespace pathlab::search::detail
