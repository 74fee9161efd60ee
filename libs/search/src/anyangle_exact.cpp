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
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>
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
  if (!ws.exact) ws.exact.reset(new ExactCache);
  ExactCache& c = *ws.exact;
  if (!c.up_to_date(grid, o.moves.diagonal)) c.build(grid, o.moves.diagonal);

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
  auto through = [](const ExactPoint& e, bool r, std::int64_t dx, std::int64_t dy) {
    return !r || (dx * e.qx >= 0 && dy * e.qy >= 0);
  };

  ++st.los_checks;
  const bool direct = through(sp, s_restricted, tx - sx, ty - sy) &&
                      through(tp, t_restricted, sx - tx, sy - ty) && c.visible_s<Q>(sx, sy, tx, ty);
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
    if (!c.taut(v, dx, dy) || !through(tp, t_restricted, dx, dy)) return false;
    ++st.los_checks;
    return c.visible_s<Q>(Q * c.vx[v], Q * c.vy[v], tx, ty);
  };
  auto cast_from_goal = [&] {
    goal_cast = true;
    const std::uint32_t walk = c.next_walk();
    auto mark = [&](std::uint32_t v) {
      if (c.walked[v] == walk) return;
      c.walked[v] = walk;
      const std::int64_t dx = Q * c.vx[v] - tx, dy = Q * c.vy[v] - ty;
      if ((dx == 0 && dy == 0) || !c.taut(v, dx, dy) || !through(tp, t_restricted, dx, dy)) return;
      ++st.los_checks;
      if (c.visible_s<Q>(tx, ty, Q * c.vx[v], Q * c.vy[v])) c.goal_seen[v] = stamp;
    };
    c.from_point(tx, ty, mark);
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
  Status status = Status::no_path;
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
      const std::uint32_t walk = c.next_walk();
      auto start_edge = [&](std::uint32_t v) {
        if (c.walked[v] == walk) return;
        c.walked[v] = walk;
        const std::int64_t dx = Q * c.vx[v] - sx, dy = Q * c.vy[v] - sy;
        if (!c.taut(v, dx, dy) || !through(sp, s_restricted, dx, dy)) return;
        ++st.los_checks;
        if (c.visible_s<Q>(sx, sy, Q * c.vx[v], Q * c.vy[v])) relax(v, u, dist(dx, dy), h(v));
      };
      c.from_point(sx, sy, start_edge);
      continue;
    }
    const std::int64_t ux = 2 * std::int64_t{c.vx[u]}, uy = 2 * std::int64_t{c.vy[u]};
    if (c.adj_begin[u] == exact::kUnknown) {
      const auto first = static_cast<std::uint32_t>(c.adj.size());
      const std::uint32_t walk = c.next_walk();
      c.candidates(u, [&](std::uint32_t v, bool known) {
        if (c.walked[v] == walk) return;
        c.walked[v] = walk;
        if (!known) {
          ++st.los_checks;
          if (!c.visible(ux, uy, 2 * std::int64_t{c.vx[v]}, 2 * std::int64_t{c.vy[v]})) return;
        }
        c.adj.push_back({v, c.vx[v] - c.vx[u], c.vy[v] - c.vy[u]});
      });
      // In angle order, so that the taut successors for any parent are one circular run.
      std::sort(c.adj.begin() + first, c.adj.end(),
                [](const ExactCache::Edge& a, const ExactCache::Edge& b) {
                  return exact::angle_less(a.dx, a.dy, b.dx, b.dy);
                });
      c.adj_begin[u] = first;
      c.adj_end[u] = static_cast<std::uint32_t>(c.adj.size());
    }
    // Tautness at u given its parent: a shortest path through u wraps around u's wall, so the
    // wall lies inside the angle between the way back (a) and the way on (b); a path that
    // turns the other way, or back, is cut short near u. Exact: a successor pruned here is
    // reached more cheaply by another way, whatever parent of equal cost u kept.
    const std::uint32_t pu = side.nodes[u].parent;
    const std::int64_t ax = pu == S ? sx - Q * c.vx[u] : 2 * std::int64_t{c.vx[pu]} - ux;
    const std::int64_t ay = pu == S ? sy - Q * c.vy[u] : 2 * std::int64_t{c.vy[pu]} - uy;
    const std::int64_t wx = c.vwx[u], wy = c.vwy[u];
    const std::int64_t aw = ax * wy - ay * wx;
    const bool prune = aw != 0;  // a parent away from u, and a vertex with one wall
    const std::int64_t uqx = Q * c.vx[u] - tx, uqy = Q * c.vy[u] - ty;  // u - goal
    // The taut successors lie between the wall's diagonal w and the way straight on (-a):
    // counter-clockwise (w, -a] when w is counter-clockwise of a, else [-a, w). One or two
    // index runs of the angle-sorted edges; the test in the loop stays the definition.
    const ExactCache::Edge* const e0 = c.adj.data() + c.adj_begin[u];
    const ExactCache::Edge* const e1 = c.adj.data() + c.adj_end[u];
    // Runs [r0, r1) and, when the wedge wraps past angle 0, [e0, r2).
    const ExactCache::Edge* r0 = e0;
    const ExactCache::Edge* r1 = e1;
    const ExactCache::Edge* r2 = e0;
    if (prune) {
      // The first edge not before direction (x, y), and the first one after it.
      auto first_from = [&](std::int64_t x, std::int64_t y) {
        return std::partition_point(e0, e1, [x, y](const ExactCache::Edge& e) {
          return exact::angle_less(e.dx, e.dy, x, y);
        });
      };
      auto first_after = [&](std::int64_t x, std::int64_t y) {
        return std::partition_point(e0, e1, [x, y](const ExactCache::Edge& e) {
          return !exact::angle_less(x, y, e.dx, e.dy);
        });
      };
      const bool ccw = aw > 0;  // w is counter-clockwise of a: the wedge runs (w, -a]
      r0 = ccw ? first_after(wx, wy) : first_from(-ax, -ay);
      const ExactCache::Edge* to = ccw ? first_after(-ax, -ay) : first_from(wx, wy);
      const bool wraps =
          ccw ? exact::angle_less(-ax, -ay, wx, wy) : exact::angle_less(wx, wy, -ax, -ay);
      if (wraps) {
        r2 = to;
      } else {
        r1 = to;
      }
    }
    auto visit = [&](const ExactCache::Edge& edge) {
      const std::int64_t bx = 2 * std::int64_t{edge.dx}, by = 2 * std::int64_t{edge.dy};
      if (prune) {
        const std::int64_t ab = ax * by - ay * bx;
        if (ab == 0) {
          if (ax * bx + ay * by >= 0) return;  // back the way it came
        } else {
          const std::int64_t wb = wx * by - wy * bx;
          if ((ab > 0) != (aw > 0) || (ab > 0) != (wb > 0)) return;
        }
      }
      const std::uint32_t v = edge.v;
      const std::uint8_t state = side.state(v);
      if (state == side.gen + 1) return;  // closed
      const double ng = gu + 0.5 * std::sqrt(static_cast<double>(bx * bx + by * by));
      if (state >= side.gen && !improves(ng, side.nodes[v].g)) return;
      relax(v, u, ng, dist(uqx + Q * edge.dx, uqy + Q * edge.dy));
    };
    for (const ExactCache::Edge* it = r0; it < r1; ++it) visit(*it);
    for (const ExactCache::Edge* it = e0; it < r2; ++it) visit(*it);
    if (!goal_cast && st.expanded > exact::kGoalCastAfter) cast_from_goal();
    if (!side.closed(T) && sees_goal(u)) {
      if constexpr (L::enabled) listener.line_of_sight(node(u), t, true);
      relax(T, u, gu + h(u), 0.0);
    }
  }
  if (status != Status::found) return status;

  // The chain of vertices, start first, without corners the path runs straight through.
  std::vector<std::uint32_t>& chain = c.chain;
  chain.clear();
  for (std::uint32_t v = T;; v = side.nodes[v].parent) {
    chain.push_back(v);
    if (v == S) break;
  }
  std::reverse(chain.begin(), chain.end());
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
    for (std::size_t i = 1; i < out.path.size(); ++i) {
      const double g = side.nodes[chain[i]].g;
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
