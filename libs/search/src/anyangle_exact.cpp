// anyangle-exact (shared docs/ALGORITHMS.md, "Line of sight and any-angle paths"): the shortest
// Euclidean path from the start centre to the goal centre that never enters a wall's interior.
// It may touch wall edges and corners, but it may not run along a grid line with walls on both
// sides, nor (except under DiagonalRule::always) pass through a lattice point whose only walls
// are two diagonally opposite cells (a squeeze between walls that touch at a corner). The
// outside of the map counts as wall. It is the infimum of the any-angle paths: Theta*, Lazy
// Theta* and their post-processed paths can only be longer or equal.
//
// Definitions and decisions:
//   Coordinates are doubled, so cell (x,y) is [2x,2x+2]x[2y,2y+2], centres are odd and lattice
//   corners even integers, and every geometric test is exact integer arithmetic.
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
//   Graph: A* with the Euclidean heuristic over {start, goal, vertices}. The start's edges are
//   tested when it is expanded (every vertex of the right class is walked), a vertex's edge to
//   the goal when the vertex is expanded, and a vertex's edges to other vertices on its first
//   expansion on this grid. Those are found without looking at every vertex: along its grid
//   lines by one scan, and in the two quadrants its class allows by a conservative
//   shadowcast per octant (a cone of slopes narrowed only at its ends, with exact rational
//   slopes), whose vertices are then walked. They are kept in the per-grid cache
//   (Workspace::exact), so the visibility graph fills in lazily and later queries reuse it:
//   one-query-per-finder users (the server, the CLI) pay only for what they expand, but a
//   query that expands new vertices allocates. The cache is
//   rebuilt when the grid (address or revision) or the diagonal rule changes. A start that
//   sees its goal gets the straight segment without a search.
//   Stats: expanded counts settled nodes (start, vertices, goal), los_checks the segment walks
//   made by this query (cached edges cost none). Grids with more than kMaxVertices corner
//   vertices are refused with Status::node_limit.
//   Result: points are the start centre, the corners (lattice points) and the goal centre,
//   collinear corners dropped; path holds the start cell, for each corner the free cell
//   touching it on the outside of the bend, and the goal cell.
//   Trace: a vertex appears as the free cell diagonally opposite its wall (opened, updated,
//   closed); line-of-sight events are reported for the start-goal and vertex-goal tests only.
//   On success the path's cells are re-announced (updated, parent = previous path cell), so
//   replay_path gives Result::path.
#include <algorithm>
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

inline std::int64_t floor_half(std::int64_t v) noexcept {
  return v >= 0 ? v / 2 : -((1 - v) / 2);
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
  bool check_pinch = false;    ///< rule != always and some lattice point is a squeeze
  // Corner vertices, in lattice coordinates (map units), with their tautness class.
  std::vector<std::int32_t> vx, vy;
  std::vector<std::uint8_t> vclass;
  /// Vertices are numbered row by row (by y, then x): lattice row Y holds ids
  /// [row_first[Y], row_first[Y+1]). by_column lists them by x, then y, split by col_first.
  std::vector<std::uint32_t> row_first, col_first, by_column;
  std::vector<std::uint32_t> adj_begin, adj_end;  ///< into adj; kUnknown until computed
  std::vector<std::uint32_t> adj;
  Side side;
  std::vector<std::uint32_t> chain;

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

  /// Exact visibility between two points in doubled coordinates (inside the map's box); the
  /// walk starts at a, so blocked segments are rejected near a.
  [[nodiscard]] bool visible(std::int64_t ax, std::int64_t ay, std::int64_t bx,
                             std::int64_t by) const noexcept {
    const std::int64_t dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) return true;
    if (dy == 0) return axis(by_row, ay, std::min(ax, bx), std::max(ax, bx));
    if (dx == 0) return axis(by_col, ax, std::min(ay, by), std::max(ay, by));
    if (!strips(ax, ay, dx, dy)) return false;
    if (check_pinch) {
      // Lattice points strictly inside the segment: ax + k*dx/g for k in 1..g-1, both even.
      const std::int64_t g = std::gcd(dx, dy), sx = dx / g, sy = dy / g;
      for (std::int64_t k = 1; k < g; ++k) {
        const std::int64_t X = ax + k * sx, Y = ay + k * sy;
        if ((X & 1) == 0 && (Y & 1) == 0 &&
            pinch_at(static_cast<int>(X / 2), static_cast<int>(Y / 2)))
          return false;
      }
    }
    return true;
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
    const int s = vclass[u] == 0 ? 1 : -1;
    for (const int sx : {1, -1}) {
      const int sy = s * sx;
      octant(u, X, Y, sx, sy, false, f);
      octant(u, X, Y, sx, sy, true, f);
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

  /// One octant of directions from vertex u at (X, Y): steps (sx, sy) and, when `shallow`,
  /// |dy| < |dx| (else 0 < |dx| <= |dy|). In the octant's frame j runs along the long axis
  /// and i across; a direction is its slope m = i / j in (0, 1]. Strip j (depth j..j+1) is
  /// crossed by the ray of slope m in cells floor(j*m) .. ceil((j+1)*m) - 1. A conservative
  /// shadowcast: the cone [a, b] of slopes only loses, at either end, slopes whose ray enters
  /// a wall, so it holds every visible direction; vertices in the cone are reported, to be
  /// walked.
  template <class F>
  void octant(std::uint32_t u, int X, int Y, int sx, int sy, bool shallow, F& f) const {
    auto blocked_at = [&](std::int64_t i, std::int64_t j) {
      const std::int64_t ox = shallow ? j : i, oy = shallow ? i : j;
      return wall(sx > 0 ? X + ox : X - 1 - ox, sy > 0 ? Y + oy : Y - 1 - oy);
    };
    // Slopes an/ad <= bn/bd, each end included or not.
    std::int64_t an = 0, ad = 1, bn = 1, bd = 1;
    bool a_in = false, b_in = !shallow;  // the diagonal belongs to the steep octant
    auto empty = [&] {
      const std::int64_t l = an * bd, r = bn * ad;
      return l > r || (l == r && !(a_in && b_in));
    };
    const std::int64_t depth = shallow ? (sx > 0 ? width - X : X) : (sy > 0 ? height - Y : Y);
    for (std::int64_t j = 0; j < depth; ++j) {
      // The low end: the first wall the ray a (or a+) crosses in strip j cuts the slopes
      // through it, up to its far corner (x_b+1)/j, which stays (it may be a grazing ray).
      for (;;) {
        const std::int64_t lo = j * an / ad;
        const std::int64_t hi = a_in ? ((j + 1) * an + ad - 1) / ad - 1 : (j + 1) * an / ad;
        std::int64_t xb = -1;
        for (std::int64_t i = lo; i <= hi; ++i) {
          if (blocked_at(i, j)) {
            xb = i;
            break;
          }
        }
        if (xb < 0) break;
        if (j == 0) return;  // every ray of the octant enters this wall
        an = xb + 1;
        ad = j;
        a_in = true;
        if (empty()) return;
      }
      // The high end, mirrored: the last wall on the ray b (or b-) cuts down to x_b/(j+1).
      for (;;) {
        const std::int64_t lo = b_in ? j * bn / bd : (j == 0 ? 0 : (j * bn + bd - 1) / bd - 1);
        const std::int64_t hi = ((j + 1) * bn + bd - 1) / bd - 1;
        std::int64_t xb = -1;
        for (std::int64_t i = hi; i >= lo; --i) {
          if (blocked_at(i, j)) {
            xb = i;
            break;
          }
        }
        if (xb < 0) break;
        bn = xb;
        bd = j + 1;
        b_in = true;
        if (empty()) return;
      }
      // Lattice points at depth j+1 with a slope in the cone.
      const std::int64_t d = j + 1;
      std::int64_t klo = (d * an + ad - 1) / ad, khi = d * bn / bd;
      if (!a_in && (d * an) % ad == 0) ++klo;
      if (!b_in && (d * bn) % bd == 0) --khi;
      if (klo > khi) continue;
      auto take = [&](std::uint32_t v, bool) {
        if (vclass[v] == vclass[u]) f(v, false);
      };
      if (shallow) {
        const std::int64_t x = X + sx * d, y0 = Y + sy * klo, y1 = Y + sy * khi;
        in_column(x, std::min(y0, y1), std::max(y0, y1), false, take);
      } else {
        const std::int64_t y = Y + sy * d, x0 = X + sx * klo, x1 = X + sx * khi;
        in_row(y, std::min(x0, x1), std::max(x0, x1), false, take);
      }
    }
  }

  /// An axis-parallel segment at perpendicular coordinate v from u0 to u1 (u0 < u1), in a
  /// matrix whose rows are indexed by the perpendicular cell coordinate.
  [[nodiscard]] bool axis(const exact::BitRows& m, std::int64_t v, std::int64_t u0,
                          std::int64_t u1) const noexcept {
    const int c0 = static_cast<int>(exact::floor_half(u0));
    const int c1 = static_cast<int>(exact::floor_half(u1 + 1)) - 1;  // ceil(u1/2) - 1
    if ((v & 1) != 0) return !m.any(static_cast<int>(v / 2), c0, c1);
    // On a grid line: never walls on both sides of a unit edge, and no squeeze in between.
    const int r1 = static_cast<int>(v / 2) - 1, r2 = r1 + 1;
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

  /// The open squares a non-axis segment meets, strip by strip along its shorter axis. Mirrors
  /// make both steps positive; u runs along the strips (the longer axis), v across.
  [[nodiscard]] bool strips(std::int64_t ax, std::int64_t ay, std::int64_t dx,
                            std::int64_t dy) const noexcept {
    const bool steep = std::abs(dy) > std::abs(dx);
    const exact::BitRows& m = steep ? by_col : by_row;
    std::int64_t u0 = steep ? ay : ax, v0 = steep ? ax : ay;
    std::int64_t du = steep ? dy : dx, dv = steep ? dx : dy;
    const std::int64_t U = m.cols, V = m.rows;
    const bool mu = du < 0, mv = dv < 0;
    if (mu) u0 = 2 * U - u0, du = -du;
    if (mv) v0 = 2 * V - v0, dv = -dv;
    auto hit = [&](std::int64_t j, std::int64_t lo, std::int64_t hi) {
      const int r = static_cast<int>(mv ? V - 1 - j : j);
      return mu ? m.any(r, static_cast<int>(U - 1 - hi), static_cast<int>(U - 1 - lo))
                : m.any(r, static_cast<int>(lo), static_cast<int>(hi));
    };
    // Strip j covers v in [2j, 2j+2]; there the segment's u runs between u(v) at the strip's
    // ends, u(v) = N(v) / dv with N(v) = u0*dv + (v - v0)*du >= 0, and the cells it crosses
    // are floor(u_lo / 2) .. ceil(u_hi / 2) - 1.
    const std::int64_t j0 = v0 / 2, j1 = (v0 + dv + 1) / 2 - 1;
    const std::int64_t u1 = u0 + du;
    std::int64_t lo = u0 / 2;
    if (j0 < j1) {
      const std::int64_t D = 2 * dv;
      const std::int64_t N = u0 * dv + (2 * (j0 + 1) - v0) * du;
      std::int64_t q = N / D, r = N % D;
      const std::int64_t qs = (2 * du) / D, rs = (2 * du) % D;
      for (std::int64_t j = j0; j < j1; ++j) {
        if (hit(j, lo, q + (r != 0) - 1)) return false;
        lo = q;
        q += qs;
        r += rs;
        if (r >= D) r -= D, ++q;
      }
    }
    return !hit(j1, lo, (u1 + 1) / 2 - 1);
  }
};

void destroy(ExactCache* p) noexcept {
  delete p;
}

std::size_t bytes_of(const ExactCache& c) noexcept {
  return sizeof(ExactCache) + capacity_bytes(c.by_row.bits) + capacity_bytes(c.by_col.bits) +
         capacity_bytes(c.vx) + capacity_bytes(c.vy) + capacity_bytes(c.vclass) +
         capacity_bytes(c.row_first) + capacity_bytes(c.col_first) + capacity_bytes(c.by_column) +
         capacity_bytes(c.adj_begin) + capacity_bytes(c.adj_end) + capacity_bytes(c.adj) +
         c.side.bytes() + capacity_bytes(c.chain);
}

namespace {

/// The free cell touching lattice point (X, Y) on the outside of the bend prev -> P -> next
/// (doubled coordinates): the one whose diagonal points most against the bend's inside.
Cell outside_cell(const ExactCache& c, std::int64_t px, std::int64_t py, std::int64_t ax,
                  std::int64_t ay, std::int64_t bx, std::int64_t by) {
  const int X = static_cast<int>(px / 2), Y = static_cast<int>(py / 2);
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

template <class L>
Status run_anyangle_exact(const Grid& grid, const Options& o, NodeId s, NodeId t,
                          Pathfinder::Workspace& ws, Result& out, L& listener) {
  Stats& st = out.stats;
  const Cell sc = grid.cell(s), tc = grid.cell(t);
  if (s == t) {
    st.generated = st.expanded = st.peak_open = 1;
    if constexpr (L::enabled) {
      listener.opened(s, s, 0.0, 0.0, 0);
      listener.closed(s, 0);
    }
    out.path.push_back(sc);
    out.points.push_back(centre(sc));
    return Status::found;
  }
  if (!ws.exact) ws.exact.reset(new ExactCache);
  ExactCache& c = *ws.exact;
  if (!c.up_to_date(grid, o.moves.diagonal)) c.build(grid, o.moves.diagonal);

  const std::int64_t sx = 2 * std::int64_t{sc.x} + 1, sy = 2 * std::int64_t{sc.y} + 1;
  const std::int64_t tx = 2 * std::int64_t{tc.x} + 1, ty = 2 * std::int64_t{tc.y} + 1;
  auto dist = [](std::int64_t dx, std::int64_t dy) {
    return 0.5 * std::sqrt(static_cast<double>(dx * dx + dy * dy));
  };

  ++st.los_checks;
  const bool direct = c.visible(sx, sy, tx, ty);
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
    out.points.push_back(centre(sc));
    out.points.push_back(centre(tc));
    return Status::found;
  }
  const std::size_t nv = c.vertex_count();
  if (nv > exact::kMaxVertices) return Status::node_limit;

  const auto S = static_cast<std::uint32_t>(nv), T = S + 1;
  auto px = [&](std::uint32_t v) { return v < S ? 2 * std::int64_t{c.vx[v]} : v == S ? sx : tx; };
  auto py = [&](std::uint32_t v) { return v < S ? 2 * std::int64_t{c.vy[v]} : v == S ? sy : ty; };
  auto h = [&](std::uint32_t v) { return dist(px(v) - tx, py(v) - ty); };
  auto node = [&](std::uint32_t v) -> NodeId {
    return v == S ? s : v == T ? t : grid.id(trace_cell(c, v));
  };

  Side& side = c.side;
  side.begin(nv + 2);
  auto relax = [&](std::uint32_t v, std::uint32_t parent, double ng) {
    const std::uint8_t state = side.state(v);
    NodeRec& r = side.nodes[v];
    const bool seen = state >= side.gen;
    if (seen && state == side.gen + 1) return;  // closed
    if (seen && !improves(ng, r.g)) return;
    side.open(v, ng, parent);
    if (!seen) ++st.generated;
    const double f = ng + h(v);
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
    const std::int64_t ux = px(u), uy = py(u);
    if (u == S) {
      for (std::uint32_t v = 0; v < S; ++v) {
        const std::int64_t vx = 2 * std::int64_t{c.vx[v]}, vy = 2 * std::int64_t{c.vy[v]};
        if (!c.taut(v, vx - ux, vy - uy)) continue;
        ++st.los_checks;
        if (c.visible(ux, uy, vx, vy)) relax(v, u, dist(vx - ux, vy - uy));
      }
      continue;
    }
    if (c.adj_begin[u] == exact::kUnknown) {
      const auto first = static_cast<std::uint32_t>(c.adj.size());
      c.candidates(u, [&](std::uint32_t v, bool known) {
        if (!known) {
          ++st.los_checks;
          if (!c.visible(ux, uy, 2 * std::int64_t{c.vx[v]}, 2 * std::int64_t{c.vy[v]})) return;
        }
        c.adj.push_back(v);
      });
      c.adj_begin[u] = first;
      c.adj_end[u] = static_cast<std::uint32_t>(c.adj.size());
    }
    for (std::uint32_t i = c.adj_begin[u]; i < c.adj_end[u]; ++i) {
      const std::uint32_t v = c.adj[i];
      relax(v, u, gu + dist(2 * std::int64_t{c.vx[v]} - ux, 2 * std::int64_t{c.vy[v]} - uy));
    }
    if (c.taut(u, tx - ux, ty - uy) && !side.closed(T)) {
      ++st.los_checks;
      const bool v = c.visible(ux, uy, tx, ty);
      if constexpr (L::enabled) listener.line_of_sight(node(u), t, v);
      if (v) relax(T, u, gu + dist(tx - ux, ty - uy));
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
    out.points.push_back({static_cast<double>(px(v)) / 2, static_cast<double>(py(v)) / 2});
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

template Status run_anyangle_exact(const Grid&, const Options&, NodeId, NodeId,
                                   Pathfinder::Workspace&, Result&, NullListener&);
template Status run_anyangle_exact(const Grid&, const Options&, NodeId, NodeId,
                                   Pathfinder::Workspace&, Result&, DynamicListener&);

}  // namespace pathlab::search::detail
