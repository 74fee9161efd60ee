// Connecting two tiles with at most two turns (ALGORITHMS.md, "Link game").
//
// Every line of at most two turns is H-V-H (horizontal, vertical, horizontal; a segment may be
// empty) or V-H-V. Take H-V-H: its vertical segment runs along some column x' from row a.y to
// row b.y. The first segment is legal iff x' lies in a's horizontal reach [aL, aR] (the cells
// of a's row that a sees through empty cells, the ring included), the last iff x' lies in b's,
// and the middle one iff column x' is empty strictly between the two rows (always true on the
// ring). So one walk left and right from each tile gives an interval of candidate columns, and
// each candidate costs one column scan: O(W + H) per test plus the scans, no allocation. x' = a.x
// or b.x are the one-turn lines (and the straight one when a.x == b.x); V-H-V is the transpose.
//
// connect() returns the best line: fewest turns, then shortest (cells walked), then this fixed
// order: the straight line; for one turn, horizontal first (corner (b.x, a.y)) before vertical
// first (corner (a.x, b.y)); for two turns, H-V-H before V-H-V, then the smaller coordinate of
// the middle segment (x' for H-V-H, y' for V-H-V).
#include <pathlab/link/connect.hpp>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace pathlab::link {

namespace {

/// Row-major cells without bounds checks inside; everything outside the board is empty (the
/// ring; callers never step further than one cell out).
struct View {
  const char* c;
  int w, h;

  [[nodiscard]] bool tile(int x, int y) const noexcept { return c[y * w + x] != kEmpty; }

  /// [lo, hi]: the columns of row y that (x, y) sees along the row, itself included; -1 / w
  /// when it sees the ring.
  void row_reach(int x, int y, int& lo, int& hi) const noexcept {
    const char* row = c + y * w;
    lo = x;
    while (lo > 0 && row[lo - 1] == kEmpty) --lo;
    if (lo == 0) lo = -1;
    hi = x;
    while (hi < w - 1 && row[hi + 1] == kEmpty) ++hi;
    if (hi == w - 1) hi = w;
  }
  void column_reach(int x, int y, int& lo, int& hi) const noexcept {
    lo = y;
    while (lo > 0 && !tile(x, lo - 1)) --lo;
    if (lo == 0) lo = -1;
    hi = y;
    while (hi < h - 1 && !tile(x, hi + 1)) ++hi;
    if (hi == h - 1) hi = h;
  }
  /// Column x is empty strictly between rows y1 and y2 (any order); the ring always is.
  [[nodiscard]] bool column_clear(int x, int y1, int y2) const noexcept {
    if (x < 0 || x >= w) return true;
    if (y1 > y2) std::swap(y1, y2);
    for (int y = y1 + 1; y < y2; ++y) {
      if (tile(x, y)) return false;
    }
    return true;
  }
  [[nodiscard]] bool row_clear(int y, int x1, int x2) const noexcept {
    if (y < 0 || y >= h) return true;
    if (x1 > x2) std::swap(x1, x2);
    const char* row = c + y * w;
    for (int x = x1 + 1; x < x2; ++x) {
      if (row[x] != kEmpty) return false;
    }
    return true;
  }
};

bool valid_pair(const Board& board, Cell a, Cell b) noexcept {
  return a != b && board.inside(a) && board.inside(b) && !board.is_empty(a) &&
         board.at(a) == board.at(b);
}

bool connectable_view(const View& v, int ax, int ay, int bx, int by) noexcept {
  int aL, aR, bL, bR;
  // H-V-H (with the one-turn and same-column straight lines among its candidates).
  v.row_reach(ax, ay, aL, aR);
  v.row_reach(bx, by, bL, bR);
  int lo = std::max(aL, bL), hi = std::min(aR, bR);
  if (lo <= hi) {
    // The ring columns need no scan; try them first.
    if (lo < 0 || hi >= v.w) return true;
    for (int x = lo; x <= hi; ++x) {
      if (v.column_clear(x, ay, by)) return true;
    }
  }
  // V-H-V (also the same-row straight line).
  v.column_reach(ax, ay, aL, aR);
  v.column_reach(bx, by, bL, bR);
  lo = std::max(aL, bL);
  hi = std::min(aR, bR);
  if (lo > hi) return false;
  if (lo < 0 || hi >= v.h) return true;
  for (int y = lo; y <= hi; ++y) {
    if (v.row_clear(y, ax, bx)) return true;
  }
  return false;
}

}  // namespace

int Connection::length() const noexcept {
  int n = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    n += std::abs(points[i].x - points[i - 1].x) + std::abs(points[i].y - points[i - 1].y);
  }
  return n;
}

bool connectable(const Board& board, Cell a, Cell b) noexcept {
  if (!valid_pair(board, a, b)) return false;
  return connectable_view({board.cells().data(), board.width(), board.height()}, a.x, a.y, b.x,
                          b.y);
}

namespace detail {
bool connectable_unchecked(const Board& board, int a, int b) noexcept {
  const int w = board.width();
  return connectable_view({board.cells().data(), w, board.height()}, a % w, a / w, b % w, b / w);
}
}  // namespace detail

Connection connect(const Board& board, Cell a, Cell b) {
  Connection r;
  if (!valid_pair(board, a, b)) return r;
  const View v{board.cells().data(), board.width(), board.height()};
  // Straight.
  if ((a.y == b.y && v.row_clear(a.y, a.x, b.x)) || (a.x == b.x && v.column_clear(a.x, a.y, b.y))) {
    r.points = {a, b};
    return r;
  }
  int aL, aR, bL, bR, cL, cR, dL, dR;
  v.row_reach(a.x, a.y, aL, aR);
  v.row_reach(b.x, b.y, bL, bR);
  v.column_reach(a.x, a.y, cL, cR);
  v.column_reach(b.x, b.y, dL, dR);
  // One turn: both corners give the same length, so horizontal first wins.
  if (a.x != b.x && a.y != b.y) {
    if (aL <= b.x && b.x <= aR && v.column_clear(b.x, a.y, b.y)) {
      r.points = {a, {b.x, a.y}, b};
      return r;
    }
    if (cL <= b.y && b.y <= cR && v.row_clear(b.y, a.x, b.x)) {
      r.points = {a, {a.x, b.y}, b};
      return r;
    }
  }
  // Two turns: every candidate of both shapes, keep the shortest (first in the documented order
  // on ties: the strict < keeps the earlier one).
  int best = 0, best_len = 0;  // a two-turn line is never of length 0
  bool best_hvh = true;
  if (a.y != b.y) {
    const int lo = std::max(aL, bL), hi = std::min(aR, bR);
    for (int x = lo; x <= hi; ++x) {
      if (x == a.x || x == b.x || !v.column_clear(x, a.y, b.y)) continue;
      const int len = std::abs(x - a.x) + std::abs(x - b.x) + std::abs(a.y - b.y);
      if (best_len == 0 || len < best_len) {
        best = x;
        best_len = len;
      }
    }
  }
  if (a.x != b.x) {
    const int lo = std::max(cL, dL), hi = std::min(cR, dR);
    for (int y = lo; y <= hi; ++y) {
      if (y == a.y || y == b.y || !v.row_clear(y, a.x, b.x)) continue;
      const int len = std::abs(y - a.y) + std::abs(y - b.y) + std::abs(a.x - b.x);
      if (best_len == 0 || len < best_len) {
        best = y;
        best_len = len;
        best_hvh = false;
      }
    }
  }
  if (best_len == 0) return r;
  if (best_hvh) {
    r.points = {a, {best, a.y}, {best, b.y}, b};
  } else {
    r.points = {a, {a.x, best}, {b.x, best}, b};
  }
  return r;
}

}  // namespace pathlab::link
