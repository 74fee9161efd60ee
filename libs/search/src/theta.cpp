// Theta* and Lazy Theta* (shared docs/ALGORITHMS.md, "Line of sight and any-angle paths"):
// A* over the grid's moves where a cell may take any visible cell as parent, so the path is a
// chain of straight segments between cell centres. Euclidean heuristic and Euclidean edge costs
// (times the straight-move cost); terrain is not weighed.
//   Theta*: when s is expanded with neighbour s', if LOS(parent(s), s') the update goes through
//     parent(s) (path 2), otherwise through s (path 1, the A* update).
//   Lazy Theta*: every update assumes path 2 without a check; when s is expanded, LOS(parent(s),
//     s) is tested once, and if it fails s takes the closed neighbour n minimising g(n) + c(n,s)
//     (and returns to the open list if that makes it worse than the best open cell).
// A closed cell is never reopened (as in the published algorithms).
#include <pathlab/grid/los.hpp>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "engine.hpp"

namespace pathlab::search::detail {
namespace {}  // namespace

/// Line of sight between the centres of (ax, ay) and (bx, by) on a plain map (ax != bx) by
/// columns: grid::detail::los_runs with x and y swapped over the walls by column.
template <DiagonalRule R>
bool steep_line_of_sight(const WallColumns& columns, int ax, int ay, int bx, int by) {
  return grid::detail::los_runs<R>(
      ay, ax, by, bx,
      [&](std::int64_t x, std::int64_t y0, std::int64_t y1) { return columns.any(x, y0, y1); });
}
template bool steep_line_of_sight<DiagonalRule::never>(const WallColumns&, int, int, int, int);
template bool steep_line_of_sight<DiagonalRule::no_corner_cut>(const WallColumns&, int, int, int,
                                                               int);
template bool steep_line_of_sight<DiagonalRule::always>(const WallColumns&, int, int, int, int);

namespace {

/// T: plain maps, or (general) square maps with edge walls, which the moves and the sight
/// lines honour; other map kinds never get here (fallback_on).
template <class T, bool Lazy, class L>
Status theta(const Grid& grid, const Options& o, NodeId s, NodeId t, Side& side, DipQueue& open,
             std::vector<std::uint32_t>& verified, WallColumns& columns, Stats& st, L& listener) {
  constexpr DiagonalRule R = T::rule;
  side.begin(grid.padded_size());
  // The open list: a better g pushes a cell again, and the worse entry is skipped when it
  // comes up (the cell is closed by then).
  open.clear();
  // Lazy Theta*: verified[n] == side.gen when n's parent is known to see n (a neighbour reached
  // by a legal move, or a parent whose line of sight was checked), so a cell that goes back to
  // the open list is not checked again.
  if constexpr (Lazy) {
    if (verified.size() != grid.padded_size() || side.gen <= 2) {
      verified.assign(grid.padded_size(), 0);
    }
  }
  const CellOf cell_of(grid);
  const double unit = o.moves.straight_cost();
  const double hw = o.effective_weight();
  // Plain ints, not structured bindings: clang 14 cannot capture those in lambdas.
  int tx, ty;
  cell_of(t, tx, ty);
  auto dist = [&](int ax, int ay, int bx, int by) {
    const double dx = ax - bx, dy = ay - by;
    return unit * std::sqrt(dx * dx + dy * dy);
  };
  auto h = [&](int x, int y) { return hw * dist(x, y, tx, ty); };
  auto los = [&](NodeId a, int ax, int ay, NodeId b, int bx, int by) {
    ++st.los_checks;
    bool v;
    if constexpr (T::general) {
      v = grid::line_of_sight_any<R>(grid, a, b);  // edge walls
      (void)ax, (void)ay, (void)bx, (void)by;
    } else if constexpr (R != DiagonalRule::one_corner) {
      // Long steep lines column by column, a word of rows at a time (the same cells).
      const int adx = std::abs(bx - ax), ady = std::abs(by - ay);
      if (ady >= 16 && ady > 2 * adx) {
        columns.update(grid);
        v = adx == 0 ? !columns.any(ax, std::min(ay, by), std::max(ay, by))
                     : steep_line_of_sight<R>(columns, ax, ay, bx, by);
      } else {
        v = grid::line_of_sight_id<R>(grid, a, ax, ay, b, bx, by);
      }
    } else {
      v = grid::line_of_sight_id<R>(grid, a, ax, ay, b, bx, by);
    }
    if constexpr (L::enabled) listener.line_of_sight(a, b, v);
    return v;
  };

  int sx, sy;
  cell_of(s, sx, sy);
  side.open(s, 0.0, s);
  open.push({priority_key(h(sx, sy)), s});
  st.generated = 1;
  if constexpr (L::enabled) listener.opened(s, s, 0.0, h(sx, sy), 0);

  while (!open.empty()) {
    st.peak_open = std::max<std::uint64_t>(st.peak_open, open.size());
    const HeapEntry e = open.pop();
    if (side.closed(e.id)) continue;  // a worse entry of a cell expanded since
    if (st.expanded >= o.node_limit) return Status::node_limit;
    const NodeId u = e.id;
    int ux, uy;
    cell_of(u, ux, uy);
    if constexpr (Lazy) {
      // Lazy Theta*'s SetVertex: the parent assumed when u was opened must be visible.
      NodeRec& ru = side.nodes[u];
      if (ru.parent != u && verified[u] != side.gen) {
        int px, py;
        cell_of(ru.parent, px, py);
        if (!los(ru.parent, px, py, u, ux, uy)) {
          double best = kInf;
          NodeId best_parent = u;
          grid::for_each_step<T>(grid, u, grid::StepBase{}, [&](NodeId n, int d, double) {
            if (!side.closed(n)) return;
            const double g = side.nodes[n].g + dist(ux + grid::kDx[d], uy + grid::kDy[d], ux, uy);
            if (g < best) {
              best = g;
              best_parent = n;
            }
          });
          // u was opened from a closed neighbour, so one exists.
          ru.g = best;
          ru.parent = best_parent;
          verified[u] = side.gen;
          const double f = best + h(ux, uy);
          if constexpr (L::enabled) listener.updated(u, best_parent, best, f, 0);
          // Its priority grew: when it is no longer among the best, it goes back to the open
          // list instead of being expanded out of order (the published algorithm expands it
          // anyway, which gave paths up to 17% longer than A*'s on random maps).
          const HeapEntry again{priority_key(f), u};
          if (!open.empty() && open.min_key() < again.key) {
            open.push(again);
            continue;
          }
        }
      }
    }
    side.close(u);
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(u, 0);
    if (u == t) return Status::found;

    const NodeId pu = side.nodes[u].parent;
    int pux, puy;
    cell_of(pu, pux, puy);
    const double gu = side.nodes[u].g, gpu = side.nodes[pu].g;
    grid::for_each_step<T>(grid, u, grid::StepBase{}, [&](NodeId n, int d, double) PATHLAB_INLINE {
      const std::uint8_t state = side.state(n);
      NodeRec& r = side.nodes[n];
      const bool seen = state >= side.gen;
      if (seen && state == side.gen + 1) return;  // closed
      const int nx = ux + grid::kDx[d], ny = uy + grid::kDy[d];
      // n straight on from parent(u) through u: parent(u) sees u and u sees n, and a segment
      // through u's centre touches exactly the cells its two halves touch, so parent(u) sees n
      // without a walk.
      const int ddx = ux - pux, ddy = uy - puy, sdx = nx - ux, sdy = ny - uy;
      const bool straight_on = ddx * sdy == ddy * sdx && ddx * sdx + ddy * sdy > 0;
      // Path 2 is never longer than path 1 (g(u) = g(pu) + |pu u|, and |pu n| <= |pu u| + |u n|):
      // when even it cannot improve n, neither can path 1, and the sight line need not be
      // walked.
      if (!Lazy && seen && pu != u && !improves(gpu + dist(pux, puy, nx, ny), r.g)) return;
      NodeId parent;
      double ng;
      if (pu != u && (Lazy || straight_on || los(pu, pux, puy, n, nx, ny))) {
        parent = pu;  // path 2: straight from u's parent
        ng = gpu + dist(pux, puy, nx, ny);
      } else {
        parent = u;  // path 1: the A* update
        ng = gu + (d < 4 ? unit : unit * 1.4142135623730951);
      }
      if (seen && !improves(ng, r.g)) return;
      side.open(n, ng, parent);
      if (!seen) ++st.generated;
      if constexpr (Lazy) verified[n] = parent == u || straight_on ? side.gen : 0;
      const double f = ng + h(nx, ny);
      open.push({priority_key(f), n});
      if constexpr (L::enabled) {
        if (seen) {
          listener.updated(n, parent, ng, f, 0);
        } else {
          listener.opened(n, parent, ng, f, 0);
        }
      }
    });
  }
  return Status::no_path;
}

}  // namespace

template <class L>
Status run_theta(const Grid& grid, const Options& o, NodeId s, NodeId t, Pathfinder::Workspace& ws,
                 Result& out, L& listener) {
  Side& side = ws.side[0];
  const bool lazy = o.algorithm == Algorithm::lazytheta;
  const Status status = grid::dispatch_topology(grid, o.moves.diagonal, [&](auto topo) {
    using T = decltype(topo);
    return lazy ? theta<T, true>(grid, o, s, t, side, ws.dip, ws.stamps, ws.columns, out.stats,
                                 listener)
                : theta<T, false>(grid, o, s, t, side, ws.dip, ws.stamps, ws.columns, out.stats,
                                  listener);
  });
  if (status != Status::found) return status;
  // The chain of parents is the list of turning cells; drop the collinear ones (a segment
  // through a cell centre sees whatever its two halves see).
  std::vector<Cell>& chain = ws.scratch;
  chain.clear();
  append_chain_forward(grid, side, s, t, chain);
  for (const Cell c : chain) {
    const std::size_t k = out.path.size();
    if (k >= 2) {
      const Cell a = out.path[k - 2], b = out.path[k - 1];
      const std::int64_t cross =
          std::int64_t{b.x - a.x} * (c.y - b.y) - std::int64_t{b.y - a.y} * (c.x - b.x);
      const std::int64_t dot =
          std::int64_t{b.x - a.x} * (c.x - b.x) + std::int64_t{b.y - a.y} * (c.y - b.y);
      if (cross == 0 && dot > 0) out.path.pop_back();
    }
    out.path.push_back(c);
  }
  return status;
}

template Status run_theta(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                          Result&, NullListener&);
template Status run_theta(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                          Result&, DynamicListener&);

}  // namespace pathlab::search::detail
