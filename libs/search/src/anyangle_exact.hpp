// anyangle-exact's per-grid state, shared by the online search (anyangle_exact.cpp) and the
// hub labels of anyangle-labels (anyangle_labels.cpp): the walls as bit rows, the corner
// vertices, the lazily filled visibility graph and the exact segment tests. Internal.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "engine.hpp"

namespace pathlab::search::detail {

namespace exact {

inline constexpr std::uint32_t kUnknown = 0xFFFFFFFFu;
/// Above this many corner vertices (2M: far more than any Moving AI map; random512-10 has 80k)
/// a query that needs the graph is refused with Status::node_limit.
inline constexpr std::size_t kMaxVertices = std::size_t{1} << 21;
/// Expansions after which the vertices that see the goal are found by one shadowcast from it
/// rather than by a walk from each expanded vertex. Measured (warm queries, all scenarios):
/// casting from the start of the search cost den520d 38 us a query against 29 us with walks
/// only; past 400 expansions the cast is at least as fast as the walks (Aurora).
inline constexpr std::uint64_t kGoalCastAfter = 400;

/// Blocked cells as bit rows with a one-cell border of walls: row r in [-1, rows], column c in
/// [-1, cols].
struct BitRows {
  int rows = 0;
  int cols = 0;
  std::size_t words = 0;  ///< per padded row
  std::vector<std::uint64_t> bits;

  void reset(int r, int c) {
    rows = r;
    cols = c;
    words = (static_cast<std::size_t>(c) + 2 + 63) / 64;
    bits.assign(words * (static_cast<std::size_t>(r) + 2), ~std::uint64_t{0});
  }
  [[nodiscard]] const std::uint64_t* row(int r) const noexcept {
    return bits.data() + static_cast<std::size_t>(r + 1) * words;
  }
  /// Every bit clear (not blocked), the border included.
  void clear() noexcept { std::fill(bits.begin(), bits.end(), std::uint64_t{0}); }
  void set_blocked(int r, int c) noexcept {
    const auto b = static_cast<std::size_t>(c + 1);
    bits[static_cast<std::size_t>(r + 1) * words + (b >> 6)] |= std::uint64_t{1} << (b & 63);
  }
  void set_free(int r, int c) noexcept {
    const auto b = static_cast<std::size_t>(c + 1);
    bits[static_cast<std::size_t>(r + 1) * words + (b >> 6)] &= ~(std::uint64_t{1} << (b & 63));
  }
  [[nodiscard]] bool blocked(int r, int c) const noexcept {
    const auto b = static_cast<std::size_t>(c + 1);
    return ((row(r)[b >> 6] >> (b & 63)) & 1u) != 0;
  }
  /// Whether a cell in columns [c0, c1] of row r is blocked (c0 <= c1).
  [[nodiscard]] bool any(int r, int c0, int c1) const noexcept {
    return any_masked(row(r), nullptr, c0, c1);
  }
  /// The first blocked column in [c0, c1] of row r, or c1 + 1 when none is (c0 <= c1 + 1).
  [[nodiscard]] int first_blocked(int r, int c0, int c1) const noexcept {
    const std::uint64_t* w = row(r);
    for (int c = c0; c <= c1;) {
      const auto b = static_cast<std::size_t>(c + 1);
      const std::uint64_t word = w[b >> 6] >> (b & 63);
      if (word != 0) {
        const int at = c + std::countr_zero(word);
        return at <= c1 ? at : c1 + 1;
      }
      c += 64 - static_cast<int>(b & 63);
    }
    return c1 + 1;
  }
  /// The last blocked column in [c0, c1] of row r, or c0 - 1 when none is.
  [[nodiscard]] int last_blocked(int r, int c0, int c1) const noexcept {
    const std::uint64_t* w = row(r);
    for (int c = c1; c >= c0;) {
      const auto b = static_cast<std::size_t>(c + 1);
      const std::uint64_t word = w[b >> 6] << (63 - (b & 63));
      if (word != 0) {
        const int at = c - std::countl_zero(word);
        return at >= c0 ? at : c0 - 1;
      }
      c -= 1 + static_cast<int>(b & 63);
    }
    return c0 - 1;
  }
  /// Whether some column in [c0, c1] is blocked in both rows r1 and r2.
  [[nodiscard]] bool any_both(int r1, int r2, int c0, int c1) const noexcept {
    return any_masked(row(r1), row(r2), c0, c1);
  }

 private:
  static bool any_masked(const std::uint64_t* a, const std::uint64_t* b, int c0, int c1) noexcept {
    const auto first = static_cast<std::size_t>(c0 + 1), last = static_cast<std::size_t>(c1 + 1);
    std::size_t wi = first >> 6;
    const std::size_t wl = last >> 6;
    const std::uint64_t head = ~std::uint64_t{0} << (first & 63);
    const std::uint64_t tail = ~std::uint64_t{0} >> (63 - (last & 63));
    auto word = [&](std::size_t i) { return b == nullptr ? a[i] : a[i] & b[i]; };
    if (wi == wl) return (word(wi) & head & tail) != 0;
    if ((word(wi) & head) != 0) return true;
    for (++wi; wi < wl; ++wi) {
      if (word(wi) != 0) return true;
    }
    return (word(wl) & tail) != 0;
  }
};

/// The angle order of directions: [0, pi) before [pi, 2 pi), then counter-clockwise (in the
/// y-down frame: from +x towards +y). Exact on integers.
inline bool angle_less(std::int64_t ax, std::int64_t ay, std::int64_t bx,
                       std::int64_t by) noexcept {
  const bool ha = ay < 0 || (ay == 0 && ax < 0), hb = by < 0 || (by == 0 && bx < 0);
  if (ha != hb) return hb;
  return ax * by - ay * bx > 0;
}

/// floor(v / d) for d > 0.
inline std::int64_t floor_div(std::int64_t v, std::int64_t d) noexcept {
  return v >= 0 ? v / d : -((d - 1 - v) / d);
}

}  // namespace exact

struct AnyAngleLabels;

/// The competition's rule for an endpoint on a squeeze (ExactPoint::qx, qy): with `restricted`,
/// a segment from e in direction (dx, dy) must head into e's own quadrant.
inline bool passes_quadrant(const ExactPoint& e, bool restricted, std::int64_t dx,
                            std::int64_t dy) noexcept {
  return !restricted || (dx * e.qx >= 0 && dy * e.qy >= 0);
}

struct ExactCache {
  const Grid* grid = nullptr;
  int width = -1;
  int height = -1;
  DiagonalRule rule = DiagonalRule::never;
  std::uint64_t revision = 0;  ///< the grid's revision when built (Grid::revision)
  exact::BitRows by_row;       ///< rows = y, columns = x
  exact::BitRows by_col;       ///< transposed: rows = x, columns = y
  /// The vertices as bits over the lattice: rows = Y, columns = X (and transposed), so that a
  /// shadowcast skips lattice runs without one by a word test.
  exact::BitRows vertex_rows, vertex_cols;
  bool check_pinch = false;  ///< rule != always and some lattice point is a squeeze
  // Corner vertices, in lattice coordinates (map units), with their tautness class.
  std::vector<std::int32_t> vx, vy;
  std::vector<std::uint8_t> vclass;
  /// The diagonal step from a vertex into its wall cell; (0, 0) for a squeeze vertex (under
  /// `always`, two wall cells).
  std::vector<std::int8_t> vwx, vwy;
  /// Vertices are numbered row by row (by y, then x): lattice row Y holds ids
  /// [row_first[Y], row_first[Y+1]). by_column lists them by x, then y, split by col_first.
  std::vector<std::uint32_t> row_first, col_first, by_column;
  std::vector<std::uint32_t> adj_begin, adj_end;  ///< into adj; kUnknown until computed
  /// An edge of the visibility graph as its near end keeps it: the far vertex and the step to
  /// it in lattice units, so that relaxing it reads no other vertex's record.
  struct Edge {
    std::uint32_t v;
    std::int32_t dx, dy;
  };
  std::vector<Edge> adj;
  Side side;
  std::vector<std::uint32_t> chain;
  /// anyangle-labels: the hub labels and the grid (address, revision) they were made for;
  /// kept across build(), so that an edited grid finds them stale (labels_ready).
  std::shared_ptr<const AnyAngleLabels> labels;
  const Grid* labels_grid = nullptr;
  std::uint64_t labels_revision = 0;
  /// The grid (address, revision) and rule whose labels would exceed their budget.
  const Grid* refused_grid = nullptr;
  std::uint64_t refused_revision = 0;
  DiagonalRule refused_rule = DiagonalRule::never;
  /// Per-query scratch of a label query, by hub rank: the best length from the start through
  /// the hub, the start-side vertex it came from, and stamps.
  struct HubSlot {
    double best;          ///< least length from the start to the hub so far
    std::uint32_t from;   ///< the vertex next to the start that gives it
    std::uint32_t stamp;  ///< == hub_query: set by this query
  };
  std::vector<HubSlot> hubs;
  std::uint32_t hub_query = 0;
  /// The goal side's vertices: (lower bound of a path through it, vertex, distance to goal).
  struct GoalSide {
    double bound;
    std::uint32_t v;
    double d;
  };
  std::vector<GoalSide> goal_side;
  std::vector<std::uint32_t> unpack_a, unpack_b;  ///< a path's corners from each end to its hub
  /// goal_seen[v] == goal_stamp: vertex v sees the current query's goal (tautly).
  std::vector<std::uint32_t> goal_seen;
  std::uint32_t goal_stamp = 0;
  /// walked[v] == walk_stamp: v's segment to the current endpoint (goal, then start) has been
  /// walked; a vertex reported by two octants is walked once.
  std::vector<std::uint32_t> walked;
  std::uint32_t walk_stamp = 0;

  /// A fresh walk_stamp for the next endpoint's shadowcast.
  std::uint32_t next_walk() {
    if (walked.size() != vx.size()) walked.assign(vx.size(), 0);
    if (++walk_stamp == 0) {
      std::fill(walked.begin(), walked.end(), 0);
      walk_stamp = 1;
    }
    return walk_stamp;
  }

  [[nodiscard]] std::size_t vertex_count() const noexcept { return vx.size(); }
  [[nodiscard]] bool blocked(int x, int y) const noexcept { return by_row.blocked(y, x); }
  [[nodiscard]] bool pinch_at(int X, int Y) const noexcept {
    const bool nw = blocked(X - 1, Y - 1), ne = blocked(X, Y - 1);
    const bool sw = blocked(X - 1, Y), se = blocked(X, Y);
    return (nw && se) || (ne && sw);
  }

  [[nodiscard]] bool up_to_date(const Grid& g, DiagonalRule r) const noexcept {
    return grid == &g && revision == g.revision() && rule == r;
  }
  /// Whether `labels` are for grid g as it is now and rule r.
  [[nodiscard]] bool labels_ready(const Grid& g, DiagonalRule r) const noexcept;
  /// Whether grid g as it is now was found too large for labels under rule r.
  [[nodiscard]] bool labels_refused(const Grid& g, DiagonalRule r) const noexcept;

  void build(const Grid& g, DiagonalRule r) {
    grid = nullptr;  // invalid until complete (an allocation may throw)
    const int w = g.width(), h = g.height();
    by_row.reset(h, w);
    by_col.reset(w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (g.passable_id(g.id(x, y))) {
          by_row.set_free(y, x);
          by_col.set_free(x, y);
        }
      }
    }
    vx.clear();
    vy.clear();
    vclass.clear();
    vwx.clear();
    vwy.clear();
    bool pinches = false;
    // Past kMaxVertices the list is cut short: queries that need the graph are refused.
    for (int Y = 0; Y <= h && vx.size() <= exact::kMaxVertices; ++Y) {
      for (int X = 0; X <= w && vx.size() <= exact::kMaxVertices; ++X) {
        const bool nw = blocked(X - 1, Y - 1), ne = blocked(X, Y - 1);
        const bool sw = blocked(X - 1, Y), se = blocked(X, Y);
        const int n = nw + ne + sw + se;
        const bool pinch = n == 2 && ((nw && se) || (ne && sw));
        if (pinch) pinches = true;
        if (n == 1 || (pinch && r == DiagonalRule::always)) {
          vx.push_back(X);
          vy.push_back(Y);
          vclass.push_back(ne || sw ? 0 : 1);
          // The diagonal into the one wall cell (none for a squeeze: two walls).
          vwx.push_back(n != 1 ? 0 : ne || se ? 1 : -1);
          vwy.push_back(n != 1 ? 0 : sw || se ? 1 : -1);
        }
      }
    }
    row_first.assign(static_cast<std::size_t>(h) + 2, 0);
    col_first.assign(static_cast<std::size_t>(w) + 2, 0);
    for (std::size_t v = 0; v < vx.size(); ++v) {
      ++row_first[static_cast<std::size_t>(vy[v]) + 1];
      ++col_first[static_cast<std::size_t>(vx[v]) + 1];
    }
    for (std::size_t i = 1; i < row_first.size(); ++i) row_first[i] += row_first[i - 1];
    for (std::size_t i = 1; i < col_first.size(); ++i) col_first[i] += col_first[i - 1];
    vertex_rows.reset(h + 1, w + 1);
    vertex_cols.reset(w + 1, h + 1);
    vertex_rows.clear();
    vertex_cols.clear();
    for (std::size_t v = 0; v < vx.size(); ++v) {
      vertex_rows.set_blocked(vy[v], vx[v]);
      vertex_cols.set_blocked(vx[v], vy[v]);
    }
    by_column.resize(vx.size());
    {
      std::vector<std::uint32_t> next(col_first.begin(), col_first.end() - 1);
      for (std::size_t v = 0; v < vx.size(); ++v) {
        by_column[next[static_cast<std::size_t>(vx[v])]++] = static_cast<std::uint32_t>(v);
      }
    }
    adj_begin.assign(vx.size(), exact::kUnknown);
    adj_end.assign(vx.size(), 0);
    adj.clear();
    revision = g.revision();
    width = w;
    height = h;
    rule = r;
    check_pinch = pinches && r != DiagonalRule::always;
    grid = &g;
  }

  /// Finds vertex u's edges on first need (kept in adj, sorted by angle); `los` counts the
  /// segment walks made.
  void ensure_edges(std::uint32_t u, std::uint64_t& los) {
    if (adj_begin[u] != exact::kUnknown) return;
    const std::int64_t ux = 2 * std::int64_t{vx[u]}, uy = 2 * std::int64_t{vy[u]};
    const auto first = static_cast<std::uint32_t>(adj.size());
    const std::uint32_t walk = next_walk();
    candidates(u, [&](std::uint32_t v, bool known) {
      if (walked[v] == walk) return;
      walked[v] = walk;
      if (!known) {
        ++los;
        if (!visible(ux, uy, 2 * std::int64_t{vx[v]}, 2 * std::int64_t{vy[v]})) return;
      }
      adj.push_back({v, vx[v] - vx[u], vy[v] - vy[u]});
    });
    // In angle order, so that the taut successors for any parent are one circular run.
    std::sort(adj.begin() + first, adj.end(), [](const Edge& a, const Edge& b) {
      return exact::angle_less(a.dx, a.dy, b.dx, b.dy);
    });
    adj_begin[u] = first;
    adj_end[u] = static_cast<std::uint32_t>(adj.size());
  }

  /// Calls f(v, dx, dy) once for every vertex that endpoint e sees tautly, (dx, dy) being v - e
  /// in units of 1/kPointScale: one shadowcast from e, then a walk of each vertex it reports
  /// (counted in `los`). With `restricted`, only segments into e's quadrant (passes_quadrant).
  template <class F>
  void seen_from(const ExactPoint& e, bool restricted, std::uint64_t& los, F&& f) {
    constexpr std::int64_t Q = kPointScale;
    const std::uint32_t walk = next_walk();
    auto take = [&](std::uint32_t v) {
      if (walked[v] == walk) return;
      walked[v] = walk;
      const std::int64_t dx = Q * vx[v] - e.x, dy = Q * vy[v] - e.y;
      if (!taut(v, dx, dy) || !passes_quadrant(e, restricted, dx, dy)) return;
      ++los;
      if (visible_s<Q>(e.x, e.y, e.x + dx, e.y + dy)) f(v, dx, dy);
    };
    from_point(e.x, e.y, take);
  }

  /// Calls f(edge) for every edge of vertex u (ensure_edges first) that a shortest path
  /// arriving at u from direction (ax, ay) (its parent minus u, any positive scale; (0, 0) for
  /// none) may go on along. Tautness at u: a shortest path through u wraps around u's wall,
  /// so the wall lies inside the angle between the way back (a) and the way on (b); a path
  /// that turns the other way, or back, is cut short near u. Exact: a successor pruned here is
  /// reached more cheaply by another way, whatever parent of equal cost u kept.
  template <class F>
  void taut_edges(std::uint32_t u, std::int64_t ax, std::int64_t ay, F&& f) const {
    const std::int64_t wx = vwx[u], wy = vwy[u];
    const std::int64_t aw = ax * wy - ay * wx;
    const bool prune = aw != 0;  // a parent away from u, and a vertex with one wall
    // The taut successors lie between the wall's diagonal w and the way straight on (-a):
    // counter-clockwise (w, -a] when w is counter-clockwise of a, else [-a, w). One or two
    // index runs of the angle-sorted edges; the test in the loop stays the definition.
    const Edge* const e0 = adj.data() + adj_begin[u];
    const Edge* const e1 = adj.data() + adj_end[u];
    // Runs [r0, r1) and, when the wedge wraps past angle 0, [e0, r2).
    const Edge* r0 = e0;
    const Edge* r1 = e1;
    const Edge* r2 = e0;
    if (prune) {
      // The first edge not before direction (x, y), and the first one after it.
      auto first_from = [&](std::int64_t x, std::int64_t y) {
        return std::partition_point(
            e0, e1, [x, y](const Edge& e) { return exact::angle_less(e.dx, e.dy, x, y); });
      };
      auto first_after = [&](std::int64_t x, std::int64_t y) {
        return std::partition_point(
            e0, e1, [x, y](const Edge& e) { return !exact::angle_less(x, y, e.dx, e.dy); });
      };
      const bool ccw = aw > 0;  // w is counter-clockwise of a: the wedge runs (w, -a]
      r0 = ccw ? first_after(wx, wy) : first_from(-ax, -ay);
      const Edge* to = ccw ? first_after(-ax, -ay) : first_from(wx, wy);
      const bool wraps =
          ccw ? exact::angle_less(-ax, -ay, wx, wy) : exact::angle_less(wx, wy, -ax, -ay);
      if (wraps) {
        r2 = to;
      } else {
        r1 = to;
      }
    }
    auto visit = [&](const Edge& edge) {
      if (prune) {
        const std::int64_t bx = edge.dx, by = edge.dy;
        const std::int64_t ab = ax * by - ay * bx;
        if (ab == 0) {
          if (ax * bx + ay * by >= 0) return;  // back the way it came
        } else {
          const std::int64_t wb = wx * by - wy * bx;
          if ((ab > 0) != (aw > 0) || (ab > 0) != (wb > 0)) return;
        }
      }
      f(edge);
    };
    for (const Edge* it = r0; it < r1; ++it) visit(*it);
    for (const Edge* it = e0; it < r2; ++it) visit(*it);
  }

  /// Tautness filter: a segment with direction (dx, dy) may end at vertex v.
  [[nodiscard]] bool taut(std::uint32_t v, std::int64_t dx, std::int64_t dy) const noexcept {
    if (dx == 0 || dy == 0) return true;
    return ((dx > 0) == (dy > 0)) == (vclass[v] == 0);
  }

  /// Exact visibility between two points in units of 1/S of a cell (inside the map's box):
  /// S = 2 for vertices (doubled coordinates), kPointScale for query endpoints. The walk
  /// starts at a, so blocked segments are rejected near a.
  template <std::int64_t S>
  [[nodiscard]] bool visible_s(std::int64_t ax, std::int64_t ay, std::int64_t bx,
                               std::int64_t by) const noexcept {
    const std::int64_t dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) return true;
    if (dy == 0) return axis<S>(by_row, ay, std::min(ax, bx), std::max(ax, bx));
    if (dx == 0) return axis<S>(by_col, ax, std::min(ay, by), std::max(ay, by));
    return strips<S>(ax, ay, dx, dy);
  }
  /// visible_s in doubled coordinates.
  [[nodiscard]] bool visible(std::int64_t ax, std::int64_t ay, std::int64_t bx,
                             std::int64_t by) const noexcept {
    return visible_s<2>(ax, ay, bx, by);
  }

  /// Calls f(v) for a superset of the vertices visible from point (ox, oy) (units of
  /// 1/kPointScale): a conservative shadowcast over the eight octants around the point
  /// (point_octant), the origin anywhere in a cell. Vertices on an octant's boundary ray may be
  /// reported twice; the caller walks them.
  template <class F>
  void from_point(std::int64_t ox, std::int64_t oy, F& f) const {
    for (const int sx : {1, -1}) {
      for (const int sy : {1, -1}) {
        point_octant(ox, oy, sx, sy, true, f);
        point_octant(ox, oy, sx, sy, false, f);
      }
    }
  }

  /// Calls f(v, visible) for a superset of the vertices vertex u may have an edge to: every
  /// vertex on u's grid lines that u sees along them (visible = true, no walk needed), and the
  /// vertices of u's tautness class inside a cone of the two quadrants its class allows
  /// (visible = false: the caller walks them).
  template <class F>
  void candidates(std::uint32_t u, F&& f) const {
    const int X = vx[u], Y = vy[u];
    for (const int dir : {1, -1}) {
      // Along the grid lines: up to the first unit edge with walls on both sides or the first
      // squeeze (never a vertex).
      int k = 0;
      while (!(wall(dir > 0 ? X + k : X - 1 - k, Y - 1) && wall(dir > 0 ? X + k : X - 1 - k, Y)) &&
             !(check_pinch && pinch_at(X + dir * (k + 1), Y)))
        ++k;
      in_row(Y, dir > 0 ? X + 1 : X - k, dir > 0 ? X + k : X - 1, true, f);
      k = 0;
      while (!(wall(X - 1, dir > 0 ? Y + k : Y - 1 - k) && wall(X, dir > 0 ? Y + k : Y - 1 - k)) &&
             !(check_pinch && pinch_at(X, Y + dir * (k + 1))))
        ++k;
      in_column(X, dir > 0 ? Y + 1 : Y - k, dir > 0 ? Y + k : Y - 1, true, f);
    }
    // Class 0 keeps directions with dx*dy > 0 (SE, NW), class 1 dx*dy < 0 (NE, SW).
    // The shadowcast from u's lattice point; vertices on its grid lines came from the scans.
    // A vertex on the diagonal comes from both octants of its quadrant: the caller skips the
    // second.
    const int s = vclass[u] == 0 ? 1 : -1;
    auto take = [&](std::uint32_t v) {
      if (vclass[v] == vclass[u] && vx[v] != X && vy[v] != Y) f(v, false);
    };
    const std::int64_t ox = kPointScale * X, oy = kPointScale * Y;
    for (const int sx : {1, -1}) {
      const int sy = s * sx;
      point_octant(ox, oy, sx, sy, false, take);
      point_octant(ox, oy, sx, sy, true, take);
    }
  }

 private:
  /// Bounds-checked: outside the map is wall.
  [[nodiscard]] bool wall(std::int64_t x, std::int64_t y) const noexcept {
    return x < 0 || y < 0 || x >= width || y >= height ||
           by_row.blocked(static_cast<int>(y), static_cast<int>(x));
  }

  template <class F>
  void in_row(std::int64_t Y, std::int64_t x0, std::int64_t x1, bool known, F& f) const {
    if (x0 > x1 || Y < 0 || Y > height) return;
    const auto first = vx.begin() + row_first[static_cast<std::size_t>(Y)];
    const auto last = vx.begin() + row_first[static_cast<std::size_t>(Y) + 1];
    for (auto it = std::lower_bound(first, last, x0); it != last && *it <= x1; ++it) {
      f(static_cast<std::uint32_t>(it - vx.begin()), known);
    }
  }
  template <class F>
  void in_column(std::int64_t X, std::int64_t y0, std::int64_t y1, bool known, F& f) const {
    if (y0 > y1 || X < 0 || X > width) return;
    const auto first = by_column.begin() + col_first[static_cast<std::size_t>(X)];
    const auto last = by_column.begin() + col_first[static_cast<std::size_t>(X) + 1];
    const auto it0 = std::partition_point(first, last, [&](std::uint32_t v) { return vy[v] < y0; });
    for (auto it = it0; it != last && vy[*it] <= y1; ++it) f(*it, known);
  }

  /// One octant of directions from a point (units of 1/Q, Q = kPointScale): steps (sx, sy)
  /// and, when `shallow`, |dy| <= |dx| (else |dx| <= |dy|), both ends of the cone kept. A
  /// conservative shadowcast: the cone of slopes only loses, at either end, slopes whose ray
  /// enters a wall, so it holds every visible direction; the lattice points in it are reported,
  /// to be walked. The origin is at (A0, C0) inside its frame cell, 0 <= A0, C0 < Q. In the frame,
  /// j counts strips along the long axis from the origin's cell and i cells across; the ray of
  /// slope m = n/d crosses, at along-offset t from the cell's near side, the across-offset C0 + m
  /// (t - A0). A strip's cells are one row of the wall matrix whose rows run along the strip
  /// (by_col for shallow octants), scanned a word at a time.
  template <class F>
  void point_octant(std::int64_t ox, std::int64_t oy, int sx, int sy, bool shallow, F& f) const {
    constexpr std::int64_t Q = kPointScale;
    const int sa = shallow ? sx : sy, sc = shallow ? sy : sx;
    const std::int64_t pa = (shallow ? ox : oy) * sa, pc = (shallow ? oy : ox) * sc;
    const std::int64_t J0 = exact::floor_div(pa, Q), A0 = pa - J0 * Q;
    const std::int64_t I0 = exact::floor_div(pc, Q), C0 = pc - I0 * Q;
    const exact::BitRows& m = shallow ? by_col : by_row;  // row = along, column = across
    const std::int64_t extent = shallow ? width : height;
    const std::int64_t across = shallow ? height : width;
    const std::int64_t depth = sa > 0 ? extent - J0 : -J0;
    // Frame cell k (or lattice line k) to the original coordinate, for a step sign s.
    auto cell_of = [](std::int64_t base, std::int64_t k, int s) {
      return s > 0 ? base + k : -(base + k) - 1;
    };
    auto line_of = [](std::int64_t base, std::int64_t k, int s) {
      return s > 0 ? base + k : -(base + k);
    };
    // Frame cells across that the matrix holds (its border of walls included).
    const std::int64_t vlo = sc > 0 ? -1 - I0 : -across - 1 - I0;
    const std::int64_t vhi = sc > 0 ? across - I0 : -I0;
    // The first (last, when `last`) blocked frame cell in [lo, hi] of strip j (lo >= 0), or
    // -1. Cells past the border count as walls (a ray reaches them only through it).
    auto scan = [&](std::int64_t j, std::int64_t lo, std::int64_t hi, bool last) -> std::int64_t {
      if (lo > hi) return -1;
      if (!last && lo < vlo) return lo;
      if (last && hi > vhi) return hi;
      const std::int64_t a = std::max(lo, vlo), b = std::min(hi, vhi);
      if (a <= b) {
        const int row = static_cast<int>(cell_of(J0, j, sa));
        const int c0 = static_cast<int>(cell_of(I0, sc > 0 ? a : b, sc));
        const int c1 = static_cast<int>(cell_of(I0, sc > 0 ? b : a, sc));
        if (sc > 0 ? !last : last) {
          const int hit = m.first_blocked(row, c0, c1);
          if (hit <= c1) return sc > 0 ? hit - I0 : -(hit + 1) - I0;
        } else {
          const int hit = m.last_blocked(row, c0, c1);
          if (hit >= c0) return sc > 0 ? hit - I0 : -(hit + 1) - I0;
        }
      }
      if (!last && hi > vhi) return vhi + 1;
      if (last && lo < vlo) return vlo - 1;
      return -1;
    };
    auto blocked_at = [&](std::int64_t i, std::int64_t j) {
      if (i < vlo || i > vhi) return true;
      return m.blocked(static_cast<int>(cell_of(J0, j, sa)), static_cast<int>(cell_of(I0, i, sc)));
    };
    // The cone of slopes an/ad <= m <= bn/bd, and where its end rays cross the strips: the
    // across-offset in cells, floor q and remainder r over Q d, at the strip's far line (kept
    // by adding the per-strip step, no division) and the floor at its near line.
    struct Ray {
      std::int64_t n = 0, d = 1, den = Q, q = 0, r = 0, qi = 0, ri = 0, near = 0;
    };
    auto set_ray = [&](Ray& ray, std::int64_t n, std::int64_t d, std::int64_t t0, std::int64_t t1) {
      ray.n = n;
      ray.d = d;
      ray.den = Q * d;
      const std::int64_t num = C0 * d + n * (t1 - A0);
      ray.q = num / ray.den;
      ray.r = num % ray.den;
      ray.qi = n * Q / ray.den;
      ray.ri = n * Q % ray.den;
      ray.near = (C0 * d + n * (t0 - A0)) / ray.den;
    };
    auto step = [](Ray& ray) {
      ray.near = ray.q;
      ray.q += ray.qi;
      ray.r += ray.ri;
      if (ray.r >= ray.den) ray.r -= ray.den, ++ray.q;
    };
    Ray a, b;
    set_ray(a, 0, 1, A0, Q);
    set_ray(b, 1, 1, A0, Q);
    auto empty = [&] { return a.n * b.d > b.n * a.d; };
    for (std::int64_t j = 0; j < depth; ++j) {
      const std::int64_t t0 = std::max(j * Q, A0), t1 = (j + 1) * Q;
      if (j > 0) {
        step(a);
        step(b);
      }
      // The low end: a ray that enters a wall takes every steeper ray up to the wall's near
      // upper corner with it (in the origin's strip, every steeper ray of the octant).
      for (;;) {
        std::int64_t xb = scan(j, a.near, a.q + (a.r != 0) - 1, false);
        // The ray along a grid line meets no open square, but walls on both sides stop it,
        // and every ray just above it enters the wall above.
        if (xb < 0 && a.n == 0 && C0 == 0 && blocked_at(0, j) && blocked_at(-1, j)) xb = 0;
        if (xb < 0) break;
        if (j == 0) return;
        set_ray(a, (xb + 1) * Q - C0, j * Q - A0, t0, t1);
        if (empty()) return;
      }
      // The high end, mirrored: down to the wall's far lower corner.
      for (;;) {
        const std::int64_t xb = scan(j, b.near, b.q + (b.r != 0) - 1, true);
        if (xb < 0) break;
        set_ray(b, xb * Q - C0, (j + 1) * Q - A0, t0, t1);
        if (empty()) return;
      }
      // Lattice points on the strip's far line with a slope in the cone.
      const std::int64_t klo = a.q + (a.r != 0), khi = b.q;
      if (klo > khi) continue;
      auto take = [&](std::uint32_t v, bool) { f(v); };
      const std::int64_t line = line_of(J0, j + 1, sa);
      const std::int64_t c0 =
          std::max<std::int64_t>(std::min(line_of(I0, klo, sc), line_of(I0, khi, sc)), 0);
      const std::int64_t c1 =
          std::min(std::max(line_of(I0, klo, sc), line_of(I0, khi, sc)), across);
      if (c0 > c1) continue;
      const exact::BitRows& lattice = shallow ? vertex_cols : vertex_rows;
      if (!lattice.any(static_cast<int>(line), static_cast<int>(c0), static_cast<int>(c1)))
        continue;
      if (shallow) {
        in_column(line, c0, c1, false, take);
      } else {
        in_row(line, c0, c1, false, take);
      }
    }
  }

  /// An axis-parallel segment at perpendicular coordinate v from u0 to u1 (0 <= u0 < u1, units
  /// of 1/S), in a matrix whose rows are indexed by the perpendicular cell coordinate.
  template <std::int64_t S>
  [[nodiscard]] bool axis(const exact::BitRows& m, std::int64_t v, std::int64_t u0,
                          std::int64_t u1) const noexcept {
    const int c0 = static_cast<int>(u0 / S);
    const int c1 = static_cast<int>((u1 + S - 1) / S) - 1;
    if (v % S != 0) return !m.any(static_cast<int>(v / S), c0, c1);
    // On a grid line: never walls on both sides of a unit edge, and no squeeze in between.
    const int r1 = static_cast<int>(v / S) - 1, r2 = r1 + 1;
    if (m.any_both(r1, r2, c0, c1)) return false;
    if (check_pinch) {
      for (int k = c0 + 1; k <= c1; ++k) {
        if ((m.blocked(r1, k - 1) && m.blocked(r2, k)) ||
            (m.blocked(r1, k) && m.blocked(r2, k - 1)))
          return false;
      }
    }
    return true;
  }

  /// The open squares a non-axis segment meets, strip by strip along its shorter axis, and the
  /// squeezes at the lattice points strictly inside it (all on strip boundaries). Mirrors make
  /// both steps positive; u runs along the strips (the longer axis), v across; units of 1/S.
  template <std::int64_t S>
  [[nodiscard]] bool strips(std::int64_t ax, std::int64_t ay, std::int64_t dx,
                            std::int64_t dy) const noexcept {
    const bool steep = std::abs(dy) > std::abs(dx);
    const exact::BitRows& m = steep ? by_col : by_row;
    std::int64_t u0 = steep ? ay : ax, v0 = steep ? ax : ay;
    std::int64_t du = steep ? dy : dx, dv = steep ? dx : dy;
    const std::int64_t U = m.cols, V = m.rows;
    const bool mu = du < 0, mv = dv < 0;
    if (mu) u0 = S * U - u0, du = -du;
    if (mv) v0 = S * V - v0, dv = -dv;
    auto hit = [&](std::int64_t j, std::int64_t lo, std::int64_t hi) {
      const int r = static_cast<int>(mv ? V - 1 - j : j);
      return mu ? m.any(r, static_cast<int>(U - 1 - hi), static_cast<int>(U - 1 - lo))
                : m.any(r, static_cast<int>(lo), static_cast<int>(hi));
    };
    // A lattice point (lu, lv) of the mirrored frame.
    auto squeeze = [&](std::int64_t lu, std::int64_t lv) {
      const auto a = static_cast<int>(mu ? U - lu : lu), b = static_cast<int>(mv ? V - lv : lv);
      return steep ? pinch_at(b, a) : pinch_at(a, b);
    };
    // Strip j covers v in [S j, S j + S]; there the segment's u runs between u(v) at the
    // strip's ends, u(v) = N(v) / dv with N(v) = u0*dv + (v - v0)*du >= 0, and the cells it
    // crosses are floor(u_lo / S) .. ceil(u_hi / S) - 1. Where u is a multiple of S on a strip
    // boundary, the segment passes through a lattice point.
    const std::int64_t j0 = v0 / S, j1 = (v0 + dv + S - 1) / S - 1;
    const std::int64_t u1 = u0 + du;
    std::int64_t lo = u0 / S;
    if (j0 < j1) {
      const std::int64_t D = S * dv;
      const std::int64_t N = u0 * dv + (S * (j0 + 1) - v0) * du;
      std::int64_t q = N / D, r = N % D;
      const std::int64_t qs = (S * du) / D, rs = (S * du) % D;
      for (std::int64_t j = j0; j < j1; ++j) {
        if (hit(j, lo, q + (r != 0) - 1)) return false;
        if (r == 0 && check_pinch && squeeze(q, j + 1)) return false;
        lo = q;
        q += qs;
        r += rs;
        if (r >= D) r -= D, ++q;
      }
    }
    return !hit(j1, lo, (u1 + S - 1) / S - 1);
  }
};

/// anyangle-labels' preprocessed data: exact hub labels (pruned landmark labelling, Akiba,
/// Iwata & Yoshida 2013) over the visibility graph of the map's corner vertices, numbered as
/// ExactCache::build numbers them. The label of vertex v lists hubs by rank, each with the
/// exact length d(v, hub) and the next vertex on a shortest path from v to the hub; the
/// shortest length between two vertices is the least d(u, h) + d(h, v) over their common
/// hubs. Immutable once built: finders (threads) share it.
struct AnyAngleLabels {
  /// Version of the saved layout (prepared_file_name, save_prepared); load refuses others.
  static constexpr std::uint32_t kFormatVersion = 1;
  int width = 0, height = 0;
  DiagonalRule rule = DiagonalRule::no_corner_cut;
  std::uint32_t n = 0;               ///< vertices
  std::vector<std::uint32_t> order;  ///< rank -> vertex (hubs are numbered by rank)
  std::vector<std::uint32_t> begin;  ///< n + 1 offsets of each vertex's label
  std::vector<std::uint32_t> hub;    ///< the hubs' ranks, ascending within a label
  std::vector<std::uint32_t> next;   ///< the next vertex from the labelled one towards the hub
  std::vector<double> dist;          ///< d(vertex, hub)
  std::uint64_t edges = 0;           ///< of the visibility graph the labels were built over
  double build_seconds = 0;          ///< time to build, or to read and check when loaded
  bool loaded = false;               ///< read from a file (load)

  [[nodiscard]] std::size_t bytes() const noexcept;
  /// Where hub rank r is in v's label, or npos.
  [[nodiscard]] std::size_t find(std::uint32_t v, std::uint32_t r) const noexcept {
    const std::uint32_t* b = hub.data() + begin[v];
    const std::uint32_t* e = hub.data() + begin[v + 1];
    const std::uint32_t* it = std::lower_bound(b, e, r);
    return it != e && *it == r ? static_cast<std::size_t>(it - hub.data()) : npos;
  }
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  /// Writes the labels framed for grid g (header with the map's checksum).
  bool save(std::ostream& out, const Grid& g) const;
  /// Reads labels written by save for grid g, whose ExactCache `c` is built with the rule the
  /// caller searches with; nothing when the file is for another map, rule or format, damaged,
  /// or not shaped as labels over c's vertices.
  [[nodiscard]] static std::optional<AnyAngleLabels> load(std::istream& in, const Grid& g,
                                                          const ExactCache& c);
};

/// The workspace's ExactCache, made or rebuilt for grid g and rule r.
ExactCache& exact_cache(Pathfinder::Workspace& ws, const Grid& g, DiagonalRule r);
/// The workspace's anyangle-labels when they are up to date for grid g and rule r, else null.
[[nodiscard]] const std::shared_ptr<const AnyAngleLabels>* ready_labels(
    const Pathfinder::Workspace& ws, const Grid& g, DiagonalRule r) noexcept;
/// Whether the workspace holds anyangle-labels at all (up to date or stale).
[[nodiscard]] bool has_labels(const Pathfinder::Workspace& ws) noexcept;
/// The labels for grid g and rule r, built now when not up to date (throws bad_alloc); null
/// when the map's labels would exceed their budget (then remembered for this grid's revision,
/// so that the next query does not try again).
const AnyAngleLabels* labels_now(Pathfinder::Workspace& ws, const Grid& g, DiagonalRule r);
/// Whether labels_now found grid g (as it is now) too large for labels under rule r.
[[nodiscard]] bool labels_refused(const Pathfinder::Workspace& ws, const Grid& g,
                                  DiagonalRule r) noexcept;
/// Gives the workspace labels made for grid g as it is now (loaded, or shared by a finder).
void adopt_labels(Pathfinder::Workspace& ws, const Grid& g,
                  std::shared_ptr<const AnyAngleLabels> labels);

/// Builds the hub labels over c's visibility graph (filling it whole first). c must be built
/// (up to date) for the grid. Null when the graph or the labels outgrow their budget; throws
/// std::bad_alloc when memory runs out.
[[nodiscard]] std::shared_ptr<const AnyAngleLabels> build_anyangle_labels(ExactCache& c);

}  // namespace pathlab::search::detail
