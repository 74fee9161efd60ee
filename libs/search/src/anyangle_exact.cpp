// anyangle-exact (shared docs/ALGORITHMS.md, "Line of sight and any-angle paths"): the shortest
// Euclidean path from the start point (a cell centre by default) to the goal point that never
// enters a wall's interior. It may touch wall edges and corners, but it may not run along a grid
// line with walls on both sides, nor (except under DiagonalRule::always) pass through a lattice
// point whose only walls are two diagonally opposite cells (a squeeze between walls that touch at a
// corner). The outside of the map counts as wall. It is the infimum of the any-angle paths: Theta*,
// Lazy Theta* and their post-processed paths can only be longer or equal.
//
// Definitions and decisions:
//   Coordinates are integers: doubled between vertices, so cell (x,y) is [2x,2x+2]x[2y,2y+2]
//   and lattice corners are even; in units of 1/kPointScale for the start and goal. Every
//   geometric test is exact integer arithmetic.
//   Visibility of a segment: every cell whose open square the segment meets must be free (row
//   by row, a word-wide bit test over the contiguous run of cells it crosses in that row; steep
//   segments use a transposed copy of the walls); a segment on a grid line needs a free cell on
//   at least one side of every unit edge; and, unless the rule is `always`, no lattice point
//   strictly inside the segment may have both cells of a diagonal pair blocked.
//   Vertices: shortest paths bend only at convex wall corners, the lattice points with exactly
//   one of their four cells blocked; under `always` also the points with exactly a diagonal
//   pair blocked (they can be passed, and bent around).
//   Tautness: a shortest path through a vertex P wraps around P's wall, so its line through P
//   enters neither the blocked quadrant nor the opposite one. With the wall NE or SW of P only
//   directions with dx*dy >= 0 remain (class 0), with it NW or SE dx*dy <= 0 (class 1): an edge
//   between two vertices of different classes must be axis-parallel, and start/goal edges must
//   fit the vertex's class.
//   Endpoints: any point of free space (Pathfinder::find_points; cell centres for find), held
//   exactly in units of 1/kPointScale of a cell. The competition's corner endpoints
//   (find_corners) add its rule for an endpoint on a squeeze: leave and arrive through the
//   named cell's quadrant only.
//   Graph: A* with the Euclidean heuristic over {start, goal, vertices}. The start's edges
//   come from a conservative shadowcast from the start point (eight octants, every vertex in
//   them walked); the vertices that see the goal are marked before the search by the same
//   shadowcast from the goal, so an expanded vertex knows its edge to the goal without a walk.
//   A vertex's edges to other vertices are found on its first expansion on this grid,
//   without looking at every vertex: along its grid lines by one scan, and in the two
//   quadrants its class allows by a conservative shadowcast per octant (a cone of slopes
//   narrowed only at its ends, with exact rational slopes), whose vertices are then walked.
//   They are kept in the per-grid cache (Workspace::exact), so the visibility graph fills in
//   lazily and later queries reuse it: one-query-per-finder users (the server, the CLI) pay
//   only for what they expand, but a query that expands new vertices allocates. The cache is
//   rebuilt when the grid (address or revision) or the diagonal rule changes. A start that
//   sees its goal gets the straight segment without a search.
//   Taut successors: expanding vertex u reached from parent p, only edges that wrap around
//   u's wall are relaxed (the wall lies inside the angle p-u-v); the others can be cut short
//   near u, so their far vertex has a cheaper way in. This is exact whichever parent of equal
//   cost u kept.
//   Stats: expanded counts settled nodes (start, vertices, goal), los_checks the segment walks
//   made by this query (cached edges cost none). Grids with more than kMaxVertices corner
//   vertices are refused with Status::node_limit.
//   Result: points are the start point, the corners (lattice points) and the goal point,
//   collinear corners dropped; path holds the start point's cell, for each corner the free cell
//   touching it on the outside of the bend, and the goal cell.
//   Trace: a vertex appears as the free cell diagonally opposite its wall (opened, updated,
//   closed); line-of-sight events are reported for the start-goal and vertex-goal tests only.
//   On success the path's cells are re-announced (updated, parent = previous path cell), so
//   replay_path gives Result::path.
#include "anyangle_exact.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pathlab::search::detail {

void destroy(ExactCache* p) noexcept {
  delete p;
}

std::size_t bytes_of(const ExactCache& c) noexcept {
  return sizeof(ExactCache) + capacity_bytes(c.by_row.bits) + capacity_bytes(c.by_col.bits) +
         capacity_bytes(c.vertex_rows.bits) + capacity_bytes(c.vertex_cols.bits) +
         capacity_bytes(c.vx) + capacity_bytes(c.vy) + capacity_bytes(c.vclass) +
         capacity_bytes(c.vwx) + capacity_bytes(c.vwy) + capacity_bytes(c.row_first) +
         capacity_bytes(c.col_first) + capacity_bytes(c.by_column) + capacity_bytes(c.adj_begin) +
         capacity_bytes(c.adj_end) + capacity_bytes(c.adj) + c.side.bytes() +
         capacity_bytes(c.chain) + capacity_bytes(c.goal_seen) + capacity_bytes(c.walked);
}

namespace {

/// The free cell touching lattice point P on the outside of the bend prev -> P -> next (units
/// of 1/kPointScale): the one whose diagonal points most against the bend's inside.
Cell outside_cell(const ExactCache& c, std::int64_t px, std::int64_t py, std::int64_t ax,
                  std::int64_t ay, std::int64_t bx, std::int64_t by) {
  const int X = static_cast<int>(px / kPointScale), Y = static_cast<int>(py / kPointScale);
  const double ux = static_cast<double>(ax - px), uy = static_cast<double>(ay - py);
  const double wx = static_cast<double>(bx - px), wy = static_cast<double>(by - py);
  const double lu = std::hypot(ux, uy), lw = std::hypot(wx, wy);
  const double ix = ux / lu + wx / lw, iy = uy / lu + wy / lw;
  Cell best{X, Y};
  double best_dot = kInf;
  for (int k = 0; k < 4; ++k) {
    const int cx = X - 1 + (k & 1), cy = Y - 1 + (k >> 1);
    if (c.blocked(cx, cy)) continue;
    const double dot = (2 * (k & 1) - 1) * ix + (2 * (k >> 1) - 1) * iy;
    if (dot < best_dot) {
      best_dot = dot;
      best = {cx, cy};
    }
  }
  return best;
}

/// The cell a vertex is shown as in traces: free, diagonally opposite its wall.
Cell trace_cell(const ExactCache& c, std::uint32_t v) {
  const int X = c.vx[v], Y = c.vy[v];
  const int k0 =
      c.vclass[v] == 0 ? (c.blocked(X, Y - 1) ? 2 : 1) : (c.blocked(X - 1, Y - 1) ? 3 : 0);
  for (int i = 0; i < 4; ++i) {
    const int k = (k0 + i) & 3;
    const int cx = X - 1 + (k & 1), cy = Y - 1 + (k >> 1);
    if (!c.blocked(cx, cy)) return {cx, cy};
  }
  return {X, Y};
}

}  // namespace

std::optional<ExactPoint> exact_point(const Grid& g, Point p) noexcept {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return std::nullopt;
  if (p.x < 0 || p.y < 0 || p.x > g.width() || p.y > g.height()) return std::nullopt;
  ExactPoint e;
  e.x = std::llround(p.x * kPointScale);
  e.y = std::llround(p.y * kPointScale);
  // The cells whose closed square holds the point: one, two (on an edge) or four (a corner).
  const std::int64_t cx = e.x / kPointScale, cy = e.y / kPointScale;
  const bool on_x = e.x % kPointScale == 0, on_y = e.y % kPointScale == 0;
  for (int k = 0; k < 4; ++k) {
    const std::int64_t x = cx - ((k & 1) != 0 && on_x ? 1 : 0);
    const std::int64_t y = cy - ((k & 2) != 0 && on_y ? 1 : 0);
    const Cell c{static_cast<std::int32_t>(x), static_cast<std::int32_t>(y)};
    if (g.in_bounds(c) && g.passable(c)) {
      e.cell = c;
      return e;
    }
  }
  return std::nullopt;
}

std::optional<ExactPoint> exact_corner(const Grid& g, Cell c) noexcept {
  if (!g.in_bounds(c) || !g.passable(c)) return std::nullopt;
  ExactPoint e;
  e.x = std::int64_t{c.x} * kPointScale;
  e.y = std::int64_t{c.y} * kPointScale;
  e.cell = c;
  e.qx = 1;
  e.qy = 1;
  return e;
}

/// anyangle-labels' query between two points that do not see each other: the vertices the
/// start sees (by one shadowcast, as the online search finds its first edges) and those the
/// goal sees, joined through their common hubs; `chain` gets the start (vertex_count()), the
/// corners and the goal (vertex_count() + 1). no_path when no pair joins; node_limit when the
/// two ends see more corners than node_limit (each corner read counts as an expansion).
Status label_chain(ExactCache& c, const ExactPoint& sp, const ExactPoint& tp, bool s_restricted,
                   bool t_restricted, std::uint64_t node_limit, Stats& st,
                   std::vector<std::uint32_t>& chain) {
  constexpr std::int64_t Q = kPointScale;
  const AnyAngleLabels& lab = *c.labels;
  const auto nv = static_cast<std::uint32_t>(c.vertex_count());
  if (lab.n != nv) return Status::invalid_input;
  const std::uint32_t S = nv, T = nv + 1;
  if (c.hubs.size() != nv) {
    c.hubs.assign(nv, {0.0, 0, 0});
    c.hub_query = 0;
  }
  if (++c.hub_query == 0) {
    for (auto& h : c.hubs) h.stamp = 0;
    c.hub_query = 1;
  }
  const std::uint32_t q = c.hub_query;
  // The vertices endpoint e sees tautly, each with its distance: f(v, d).
  auto seen_from = [&](const ExactPoint& e, bool restricted, auto&& f) {
    c.seen_from(e, restricted, st.los_checks,
                [&](std::uint32_t v, std::int64_t dx, std::int64_t dy) {
                  ++st.expanded;
                  f(v, std::sqrt(static_cast<double>(dx * dx + dy * dy)) / Q);
                });
  };
  // Start side: the least length from the start to each hub of the vertices it sees.
  seen_from(sp, s_restricted, [&](std::uint32_t v, double d) {
    const std::uint32_t* hub = lab.hub.data();
    const double* hd = lab.dist.data();
    for (std::uint32_t k = lab.begin[v], e = lab.begin[v + 1]; k < e; ++k) {
      ExactCache::HubSlot& slot = c.hubs[hub[k]];
      const double nd = d + hd[k];
      if (slot.stamp != q || nd < slot.best) slot = {nd, v, q};
    }
  });
  // Goal side, nearest lower bound first (the straight line from the start to the vertex plus
  // its distance to the goal): a vertex whose bound reaches the best length found is not read.
  c.goal_side.clear();
  seen_from(tp, t_restricted, [&](std::uint32_t v, double d) {
    const double ex = static_cast<double>(Q * c.vx[v] - sp.x),
                 ey = static_cast<double>(Q * c.vy[v] - sp.y);
    c.goal_side.push_back({d + std::sqrt(ex * ex + ey * ey) / Q, v, d});
  });
  std::sort(c.goal_side.begin(), c.goal_side.end(),
            [](const ExactCache::GoalSide& a, const ExactCache::GoalSide& b) {
              return a.bound < b.bound;
            });
  double best = kInf;
  std::uint32_t best_a = 0, best_b = 0, best_h = 0;
  for (const ExactCache::GoalSide& gs : c.goal_side) {
    if (gs.bound >= best) break;
    const std::uint32_t v = gs.v;
    const std::uint32_t* hub = lab.hub.data();
    const double* hd = lab.dist.data();
    for (std::uint32_t k = lab.begin[v], e = lab.begin[v + 1]; k < e; ++k) {
      const ExactCache::HubSlot& slot = c.hubs[hub[k]];
      if (slot.stamp != q) continue;
      const double total = slot.best + hd[k] + gs.d;
      if (total < best) {
        best = total;
        best_a = slot.from;
        best_b = v;
        best_h = hub[k];
      }
    }
  }
  st.generated = st.expanded;
  if (st.expanded > node_limit) return Status::node_limit;
  if (best == kInf) return Status::no_path;
  // Unpacks v -> hub along the labels' next vertices (at most nv steps: a label file that
  // loops is refused here rather than followed).
  auto unpack = [&](std::uint32_t v, std::vector<std::uint32_t>& to) {
    const std::uint32_t hv = lab.order[best_h];
    for (std::uint32_t steps = 0; v != hv; ++steps) {
      const std::size_t k = lab.find(v, best_h);
      if (k == AnyAngleLabels::npos || steps > nv) return false;
      v = lab.next[k];
      to.push_back(v);
    }
    return true;
  };
  auto at = [&](std::uint32_t v) {
    return v == S   ? std::pair{sp.x, sp.y}
           : v == T ? std::pair{tp.x, tp.y}
                    : std::pair{Q * c.vx[v], Q * c.vy[v]};
  };
  // A vertex on an endpoint (or twice in a row) is left out.
  auto push = [&](std::uint32_t v) {
    if (!chain.empty() && at(chain.back()) == at(v)) {
      if (v != T) return;
      chain.pop_back();
    }
    chain.push_back(v);
  };
  std::vector<std::uint32_t>& from_a = c.unpack_a;
  std::vector<std::uint32_t>& from_b = c.unpack_b;
  from_a.assign(1, best_a);
  from_b.assign(1, best_b);
  if (!unpack(best_a, from_a) || !unpack(best_b, from_b)) return Status::invalid_input;
  chain.push_back(S);
  for (const std::uint32_t v : from_a) push(v);
  for (std::size_t i = from_b.size() - 1; i-- > 0;) push(from_b[i]);
  push(T);
  if (lab.loaded) {
    // Labels read from a file are checked, not trusted (its checksum catches damage, not a
    // forgery): every segment between corners in sight, the length the one the labels gave.
    // (The ends' segments were walked by the casts.)
    double length = 0;
    for (std::size_t i = 1; i < chain.size(); ++i) {
      const auto [ax, ay] = at(chain[i - 1]);
      const auto [bx, by] = at(chain[i]);
      if (chain[i - 1] < S && chain[i] < S && !c.visible_s<Q>(ax, ay, bx, by)) {
        return Status::invalid_input;
      }
      length += std::sqrt(static_cast<double>((bx - ax) * (bx - ax) + (by - ay) * (by - ay))) / Q;
    }
    if (!(std::abs(length - best) <= 1e-9 * std::max(1.0, best))) return Status::invalid_input;
  }
  return Status::found;
}

template <class L>
Status run_anyangle_exact_points(const Grid& grid, const Options& o, const ExactPoint& sp,
                                 const ExactPoint& tp, Pathfinder::Workspace& ws, Result& out,
                                 L& listener) {
  constexpr std::int64_t Q = kPointScale;
  Stats& st = out.stats;
  const Cell sc = sp.cell, tc = tp.cell;
  const NodeId s = grid.id(sc), t = grid.id(tc);
  auto point = [](std::int64_t x, std::int64_t y) {
    return Point{static_cast<double>(x) / Q, static_cast<double>(y) / Q};
  };
  ExactCache& c = exact_cache(ws, grid, o.moves.diagonal);
  bool by_labels = o.algorithm == Algorithm::anyangle_labels;
  if (by_labels && !c.labels_ready(grid, o.moves.diagonal)) {
    // Built on first use, outside the query's time (as jps+ builds its table).
    const auto t0 = std::chrono::steady_clock::now();
    by_labels = labels_now(ws, grid, o.moves.diagonal) != nullptr;
    ws.prep_us +=
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (!by_labels) {
      // Over their budget: the online search answers, with the same optimum.
      set_fallback(out, fallback_info(Algorithm::anyangle_labels, Fallback::map_too_large,
                                      Algorithm::anyangle_exact));
    }
  }
  // (After the labels are settled, so that every query on a map too large for them says so.)
  if (sp.x == tp.x && sp.y == tp.y) {
    st.generated = st.expanded = st.peak_open = 1;
    if constexpr (L::enabled) {
      listener.opened(s, s, 0.0, 0.0, 0);
      listener.closed(s, 0);
    }
    out.path.push_back(sc);
    out.points.push_back(point(sp.x, sp.y));
    return Status::found;
  }

  const std::int64_t sx = sp.x, sy = sp.y, tx = tp.x, ty = tp.y;
  auto dist = [](std::int64_t dx, std::int64_t dy) {
    return std::sqrt(static_cast<double>(dx * dx + dy * dy)) / Q;
  };
  // The competition's rule for an endpoint on a squeeze: only through its own quadrant
  // (direction from the endpoint).
  auto restricted = [&](const ExactPoint& e) {
    return (e.qx != 0 || e.qy != 0) && c.check_pinch && e.x % Q == 0 && e.y % Q == 0 &&
           c.pinch_at(static_cast<int>(e.x / Q), static_cast<int>(e.y / Q));
  };
  const bool s_restricted = restricted(sp), t_restricted = restricted(tp);
  ++st.los_checks;
  const bool direct = passes_quadrant(sp, s_restricted, tx - sx, ty - sy) &&
                      passes_quadrant(tp, t_restricted, sx - tx, sy - ty) &&
                      c.visible_s<Q>(sx, sy, tx, ty);
  if constexpr (L::enabled) {
    const double d = dist(tx - sx, ty - sy);
    listener.opened(s, s, 0.0, d, 0);
    listener.closed(s, 0);
    listener.line_of_sight(s, t, direct);
  }
  if (direct) {
    st.generated = st.expanded = 2;
    st.peak_open = 1;
    if constexpr (L::enabled) {
      const double d = dist(tx - sx, ty - sy);
      listener.opened(t, s, d, d, 0);
      listener.closed(t, 0);
    }
    out.path.push_back(sc);
    out.path.push_back(tc);
    out.points.push_back(point(sx, sy));
    out.points.push_back(point(tx, ty));
    return Status::found;
  }
  const std::size_t nv = c.vertex_count();
  if (nv > exact::kMaxVertices) return Status::node_limit;

  const auto S = static_cast<std::uint32_t>(nv), T = S + 1;
  auto px = [&](std::uint32_t v) { return v < S ? Q * c.vx[v] : v == S ? sx : tx; };
  auto py = [&](std::uint32_t v) { return v < S ? Q * c.vy[v] : v == S ? sy : ty; };
  auto h = [&](std::uint32_t v) { return dist(px(v) - tx, py(v) - ty); };
  auto node = [&](std::uint32_t v) -> NodeId {
    return v == S ? s : v == T ? t : grid.id(trace_cell(c, v));
  };

  std::vector<std::uint32_t>& chain = c.chain;
  chain.clear();
  Status status = Status::no_path;
  if (by_labels) {
    status = label_chain(c, sp, tp, s_restricted, t_restricted, o.node_limit, st, chain);
    if (status != Status::found) return status;
  } else {
    // Which vertices see the goal: the first expanded vertices each walk their segment to it;
    // a search that goes on past kGoalCastAfter expansions marks them all instead by one
    // shadowcast from the goal (cheaper than a walk per vertex from then on).
    if (c.goal_seen.size() != nv) c.goal_seen.assign(nv, 0);
    if (++c.goal_stamp == 0) {
      std::fill(c.goal_seen.begin(), c.goal_seen.end(), 0);
      c.goal_stamp = 1;
    }
    const std::uint32_t stamp = c.goal_stamp;
    bool goal_cast = false;
    auto sees_goal = [&](std::uint32_t v) {
      if (goal_cast) return c.goal_seen[v] == stamp;
      const std::int64_t dx = Q * c.vx[v] - tx, dy = Q * c.vy[v] - ty;
      if (!c.taut(v, dx, dy) || !passes_quadrant(tp, t_restricted, dx, dy)) return false;
      ++st.los_checks;
      return c.visible_s<Q>(Q * c.vx[v], Q * c.vy[v], tx, ty);
    };
    auto cast_from_goal = [&] {
      goal_cast = true;
      c.seen_from(tp, t_restricted, st.los_checks,
                  [&](std::uint32_t v, std::int64_t dx, std::int64_t dy) {
                    if (dx != 0 || dy != 0) c.goal_seen[v] = stamp;
                  });
    };

    Side& side = c.side;
    side.begin(nv + 2);
    // hv: v's heuristic, h(v), given by the caller when it knows v's place without reading it.
    auto relax = [&](std::uint32_t v, std::uint32_t parent, double ng, double hv) {
      const std::uint8_t state = side.state(v);
      NodeRec& r = side.nodes[v];
      const bool seen = state >= side.gen;
      if (seen && state == side.gen + 1) return;  // closed
      if (seen && !improves(ng, r.g)) return;
      side.open(v, ng, parent);
      if (!seen) ++st.generated;
      const double f = ng + hv;
      side.push(f, ng, v);
      if constexpr (L::enabled) {
        if (seen) {
          listener.updated(node(v), node(parent), ng, f, 0);
        } else {
          listener.opened(node(v), node(parent), ng, f, 0);
        }
      }
    };

    side.open(S, 0.0, S);
    side.push(h(S), 0.0, S);
    st.generated = 1;
    while (!side.heap.empty()) {
      st.peak_open = std::max<std::uint64_t>(st.peak_open, side.heap.size());
      const HeapEntry e = side.pop();
      if (st.expanded >= o.node_limit) {
        status = Status::node_limit;
        break;
      }
      const std::uint32_t u = e.id;
      side.close(u);
      ++st.expanded;
      if constexpr (L::enabled) {
        if (u != S) listener.closed(node(u), 0);  // the start was announced above
      }
      if (u == T) {
        status = Status::found;
        break;
      }
      const double gu = side.nodes[u].g;
      if (u == S) {
        c.seen_from(sp, s_restricted, st.los_checks,
                    [&](std::uint32_t v, std::int64_t dx, std::int64_t dy) {
                      relax(v, u, dist(dx, dy), h(v));
                    });
        continue;
      }
      c.ensure_edges(u, st.los_checks);
      const std::uint32_t pu = side.nodes[u].parent;
      const std::int64_t ax = pu == S ? sx - Q * c.vx[u] : Q * (c.vx[pu] - c.vx[u]);
      const std::int64_t ay = pu == S ? sy - Q * c.vy[u] : Q * (c.vy[pu] - c.vy[u]);
      const std::int64_t uqx = Q * c.vx[u] - tx, uqy = Q * c.vy[u] - ty;  // u - goal
      c.taut_edges(u, ax, ay, [&](const ExactCache::Edge& edge) {
        const std::uint32_t v = edge.v;
        const std::uint8_t state = side.state(v);
        if (state == side.gen + 1) return;  // closed
        const double ng = gu + std::sqrt(static_cast<double>(std::int64_t{edge.dx} * edge.dx +
                                                             std::int64_t{edge.dy} * edge.dy));
        if (state >= side.gen && !improves(ng, side.nodes[v].g)) return;
        relax(v, u, ng, dist(uqx + Q * edge.dx, uqy + Q * edge.dy));
      });
      if (!goal_cast && st.expanded > exact::kGoalCastAfter) cast_from_goal();
      if (!side.closed(T) && sees_goal(u)) {
        if constexpr (L::enabled) listener.line_of_sight(node(u), t, true);
        relax(T, u, gu + h(u), 0.0);
      }
    }
    if (status != Status::found) return status;
    // The chain of vertices, start first.
    for (std::uint32_t v = T;; v = side.nodes[v].parent) {
      chain.push_back(v);
      if (v == S) break;
    }
    std::reverse(chain.begin(), chain.end());
  }
  // Without corners the path runs straight through.
  std::size_t k = 0;
  for (const std::uint32_t v : chain) {
    if (k >= 2) {
      const std::uint32_t a = chain[k - 2], b = chain[k - 1];
      const std::int64_t ex = px(b) - px(a), ey = py(b) - py(a);
      const std::int64_t fx = px(v) - px(b), fy = py(v) - py(b);
      if (ex * fy - ey * fx == 0 && ex * fx + ey * fy > 0) --k;
    }
    chain[k++] = v;
  }
  chain.resize(k);
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const std::uint32_t v = chain[i];
    out.points.push_back(point(px(v), py(v)));
    if (v == S) {
      out.path.push_back(sc);
    } else if (v == T) {
      out.path.push_back(tc);
    } else {
      const std::uint32_t a = chain[i - 1], b = chain[i + 1];
      out.path.push_back(outside_cell(c, px(v), py(v), px(a), py(a), px(b), py(b)));
    }
  }
  if constexpr (L::enabled) {
    double g = 0;
    for (std::size_t i = 1; i < out.path.size(); ++i) {
      g += dist(px(chain[i]) - px(chain[i - 1]), py(chain[i]) - py(chain[i - 1]));
      listener.updated(grid.id(out.path[i]), grid.id(out.path[i - 1]), g, g + h(chain[i]), 0);
    }
  }
  return status;
}

template <class L>
Status run_anyangle_exact(const Grid& grid, const Options& o, NodeId s, NodeId t,
                          Pathfinder::Workspace& ws, Result& out, L& listener) {
  auto centre_of = [&](NodeId id) {
    ExactPoint e;
    e.cell = grid.cell(id);
    e.x = std::int64_t{e.cell.x} * kPointScale + kPointScale / 2;
    e.y = std::int64_t{e.cell.y} * kPointScale + kPointScale / 2;
    return e;
  };
  return run_anyangle_exact_points(grid, o, centre_of(s), centre_of(t), ws, out, listener);
}

template Status run_anyangle_exact(const Grid&, const Options&, NodeId, NodeId,
                                   Pathfinder::Workspace&, Result&, NullListener&);
template Status run_anyangle_exact(const Grid&, const Options&, NodeId, NodeId,
                                   Pathfinder::Workspace&, Result&, DynamicListener&);
template Status run_anyangle_exact_points(const Grid&, const Options&, const ExactPoint&,
                                          const ExactPoint&, Pathfinder::Workspace&, Result&,
                                          NullListener&);
template Status run_anyangle_exact_points(const Grid&, const Options&, const ExactPoint&,
                                          const ExactPoint&, Pathfinder::Workspace&, Result&,
                                          DynamicListener&);

}  // namespace pathlab::search::detail
