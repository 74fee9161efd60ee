// The uninformed searches that count moves, not cost: breadth-first (fewest moves),
// depth-first (any path), iterative deepening (fewest moves, memory-light) and bidirectional
// breadth-first (fewest moves, layer by layer). Definitions: shared docs/ALGORITHMS.md.
#include <cstdlib>

#include "engine.hpp"

namespace pathlab::search::detail {
namespace {

template <class T, class L>
Status bfs(const Grid& grid, NodeId s, NodeId t, std::uint64_t limit, Pathfinder::Workspace& ws,
           Stats& st, L& listener) {
  Side& side = ws.side[0];
  side.begin(grid.padded_size());
  auto& q = ws.queue;
  q.clear();
  side.open(s, 0, s);
  q.push_back(s);
  st.generated = 1;
  if constexpr (L::enabled) listener.opened(s, s, 0, 0, 0);
  if (s == t) return Status::found;
  for (std::size_t head = 0; head < q.size(); ++head) {
    st.peak_open = std::max<std::uint64_t>(st.peak_open, q.size() - head);
    if (st.expanded >= limit) return Status::node_limit;
    const NodeId u = q[head];
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(u, 0);
    const double depth = side.nodes[u].g + 1;
    bool found = false;
    grid::for_each_step<T>(grid, u, grid::StepBase{}, [&](NodeId n, int, double) {
      if (found || side.seen(n)) return;
      side.open(n, depth, u);
      q.push_back(n);
      ++st.generated;
      if constexpr (L::enabled) listener.opened(n, u, depth, depth, 0);
      // Checking on generation is still fewest moves: every cell of this depth is found
      // before any cell of the next.
      found = n == t;
    });
    if (found) return Status::found;
  }
  return Status::no_path;
}

template <class T, class L>
Status dfs(const Grid& grid, NodeId s, NodeId t, std::uint64_t limit, Pathfinder::Workspace& ws,
           Stats& st, L& listener) {
  Side& side = ws.side[0];
  side.begin(grid.padded_size());
  auto& stack = ws.queue;
  stack.clear();
  side.open(s, 0, s);
  stack.push_back(s);
  st.generated = 1;
  if constexpr (L::enabled) listener.opened(s, s, 0, 0, 0);
  std::vector<NodeId>& buf = ws.moves;
  while (!stack.empty()) {
    st.peak_open = std::max<std::uint64_t>(st.peak_open, stack.size());
    const NodeId u = stack.back();
    stack.pop_back();
    if (side.closed(u)) continue;
    if (st.expanded >= limit) return Status::node_limit;
    side.close(u);
    ++st.expanded;
    if constexpr (L::enabled) listener.closed(u, 0);
    if (u == t) return Status::found;
    // Push in reverse so the first direction (north, then east...) is explored first.
    buf.clear();
    grid::for_each_step<T>(grid, u, grid::StepBase{}, [&](NodeId n, int, double) {
      if (!side.closed(n)) buf.push_back(n);
    });
    const double depth = side.nodes[u].g + 1;
    while (!buf.empty()) {
      const NodeId n = buf.back();
      buf.pop_back();
      const bool seen = side.seen(n);
      side.open(n, depth, u);  // the latest discovery wins: that is the DFS tree
      stack.push_back(n);
      if (!seen) ++st.generated;
      if constexpr (L::enabled) {
        if (seen) {
          listener.updated(n, u, depth, depth, 0);
        } else {
          listener.opened(n, u, depth, depth, 0);
        }
      }
    }
  }
  return Status::no_path;
}

/// Depth-limited DFS with limits growing from a lower bound on the moves (Chebyshev or
/// Manhattan distance: no path is shorter, so starting there keeps "fewest moves"). A
/// visited-at-depth table per iteration, and the least depth ever seen per cell across
/// iterations (a deeper arrival is dominated), keep each iteration near-linear in the map size.
template <class T, class L>
Status iddfs(const Grid& grid, NodeId s, NodeId t, std::uint64_t limit, Pathfinder::Workspace& ws,
             Stats& st, L& listener) {
  Side& side = ws.side[0];
  Side& best = ws.side[1];  // least depth ever seen, across iterations
  best.begin(grid.padded_size());
  best.open(s, 0, s);
  constexpr DiagonalRule R = T::rule;
  const DirOffsets off(grid);
  const Cell a = grid.cell(s), b = grid.cell(t);
  const int dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
  int bound = R == DiagonalRule::never ? dx + dy : std::max(dx, dy);
  if constexpr (T::general) {
    // Links may shorten anything; hex moves count hex distance.
    bound = !grid.arcs().empty()          ? 0
            : grid::is_hex(grid.layout()) ? grid::hex::distance(grid.layout(), a, b)
                                          : bound;
  }
  // The k-th legal move out of u (general maps), in for_each_move's order.
  auto nth_move = [&](NodeId u, int k, NodeId& out) {
    int i = 0;
    bool any = false;
    grid::for_each_step<T>(grid, u, grid::StepBase{}, [&](NodeId n, int, double) {
      if (i++ == k) {
        out = n;
        any = true;
      }
    });
    return std::pair<bool, bool>{any, k < i};  // (this k is a move, more moves from k on)
  };
  auto& stack = ws.stack;
  for (;; ++bound) {
    side.begin(grid.padded_size());
    ++st.iterations;
    if constexpr (L::enabled) listener.iteration(bound);
    bool cut = false;
    stack.clear();
    side.open(s, 0, s);
    stack.push_back({s, 0, 0});
    ++st.generated;
    if constexpr (L::enabled) listener.opened(s, s, 0, 0, 0);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const int depth = static_cast<int>(stack.size()) - 1;
      if (f.next_dir == 0) {
        if (f.node == t) return Status::found;
        if (st.expanded >= limit) return Status::node_limit;
        ++st.expanded;
        if constexpr (L::enabled) listener.closed(f.node, 0);
      }
      NodeId n = 0;
      bool pushed = false;
      while (T::general || f.next_dir < 8) {
        const int d = f.next_dir++;
        if constexpr (T::general) {
          const auto [is_move, more] = nth_move(f.node, d, n);
          if (!more) break;
          if (!is_move) continue;
        } else {
          if (!step_in<R>(grid, off, f.node, d, n)) continue;
        }
        if (side.seen(n) && side.nodes[n].g <= depth + 1) continue;
        if (best.seen(n) && best.nodes[n].g < depth + 1) continue;
        if (depth == bound) {  // the limit cuts a cell not yet reached this shallow
          cut = true;
          continue;
        }
        const bool seen = side.seen(n);
        const NodeId parent = f.node;
        side.open(n, depth + 1, parent);
        best.open(n, depth + 1, parent);
        if (!seen) ++st.generated;
        if constexpr (L::enabled) listener.opened(n, parent, depth + 1, depth + 1, 0);
        stack.push_back({n, 0, 0});  // invalidates f
        st.peak_open = std::max<std::uint64_t>(st.peak_open, stack.size());
        pushed = true;
        break;
      }
      if (!pushed) stack.pop_back();
    }
    if (!cut) return Status::no_path;  // nothing was cut off: the whole component was seen
  }
}

/// Layer-by-layer bidirectional BFS, always expanding the smaller frontier. The first layer
/// that touches the other side closes the search with the best candidate of that layer.
template <class T, class L>
Status bibfs(const Grid& grid, NodeId s, NodeId t, std::uint64_t limit, Pathfinder::Workspace& ws,
             Stats& st, L& listener, NodeId& meet_a, NodeId& meet_b) {
  Side& fw = ws.side[0];
  Side& bw = ws.side[1];
  fw.begin(grid.padded_size());
  bw.begin(grid.padded_size());
  std::vector<NodeId>& front_f = ws.queue;
  std::vector<NodeId>& front_b = ws.next;
  front_f.assign(1, s);
  front_b.assign(1, t);
  fw.open(s, 0, s);
  bw.open(t, 0, t);
  st.generated = 2;
  if constexpr (L::enabled) {
    listener.opened(s, s, 0, 0, 0);
    listener.opened(t, t, 0, 0, 1);
  }
  if (s == t) {
    meet_a = meet_b = s;
    return Status::found;
  }
  // Next layers are appended after the current one in the same vector, then shifted down.
  while (!front_f.empty() && !front_b.empty()) {
    st.peak_open = std::max<std::uint64_t>(st.peak_open, front_f.size() + front_b.size());
    const bool forward = front_f.size() <= front_b.size();
    Side& me = forward ? fw : bw;
    Side& other = forward ? bw : fw;
    std::vector<NodeId>& layer = forward ? front_f : front_b;
    const int side_id = forward ? 0 : 1;
    const std::size_t layer_size = layer.size();
    double best = kInf;
    for (std::size_t i = 0; i < layer_size; ++i) {
      if (st.expanded >= limit) return Status::node_limit;
      const NodeId u = layer[i];
      ++st.expanded;
      if constexpr (L::enabled) listener.closed(u, side_id);
      const double depth = me.nodes[u].g + 1;
      auto visit = [&](NodeId n, int, double) {
        if (other.seen(n)) {
          const double cand = depth + other.nodes[n].g;
          if (cand < best) {
            best = cand;
            meet_a = forward ? u : n;
            meet_b = forward ? n : u;
          }
          return;
        }
        if (me.seen(n)) return;
        me.open(n, depth, u);
        layer.push_back(n);
        ++st.generated;
        if constexpr (L::enabled) listener.opened(n, u, depth, depth, side_id);
      };
      // The backward side follows moves in reverse (one-way links).
      if (forward || !T::general) {
        grid::for_each_step<T>(grid, u, grid::StepBase{}, visit);
      } else {
        grid::for_each_move_in<T::rule>(grid, u, grid::StepBase{}, visit);
      }
    }
    if (best < kInf) {
      if constexpr (L::enabled) listener.meet(meet_a, meet_b);
      return Status::found;
    }
    layer.erase(layer.begin(), layer.begin() + static_cast<std::ptrdiff_t>(layer_size));
  }
  return Status::no_path;
}

}  // namespace

template <class L>
Status run_unit_cost(const Grid& grid, const Options& o, NodeId s, NodeId t,
                     Pathfinder::Workspace& ws, Result& out, L& listener) {
  Stats& st = out.stats;
  const std::uint64_t limit = o.node_limit;
  return grid::dispatch_topology(grid, o.moves.diagonal, [&](auto topo) {
    using R = decltype(topo);
    Status status = Status::no_path;
    switch (o.algorithm) {
      case Algorithm::bibfs: {
        NodeId a = s, b = t;
        status = bibfs<R>(grid, s, t, limit, ws, st, listener, a, b);
        if (status == Status::found) {
          append_chain_forward(grid, ws.side[0], s, a, out.path);
          if (b != a) append_chain_backward(grid, ws.side[1], t, b, out.path);
        }
        return status;
      }
      case Algorithm::dfs:
        status = dfs<R>(grid, s, t, limit, ws, st, listener);
        break;
      case Algorithm::iddfs:
        status = iddfs<R>(grid, s, t, limit, ws, st, listener);
        break;
      default:
        status = bfs<R>(grid, s, t, limit, ws, st, listener);
        break;
    }
    if (status == Status::found) append_chain_forward(grid, ws.side[0], s, t, out.path);
    return status;
  });
}

template Status run_unit_cost(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                              Result&, NullListener&);
template Status run_unit_cost(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                              Result&, DynamicListener&);

}  // namespace pathlab::search::detail
