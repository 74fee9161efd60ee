// Helpers of the link tests: random boards and an independent brute force over every polyline
// of at most three axis-aligned segments, written from the rules alone (ALGORITHMS.md).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>

namespace pathlab::link::testing {

/// A w x h board: each cell a tile with probability fill_pct / 100, of one of `kinds` kinds.
inline Board random_board(std::uint32_t seed, int w, int h, int fill_pct, int kinds) {
  std::mt19937 rng(seed);
  std::string cells;
  for (int i = 0; i < w * h; ++i) {
    cells.push_back(
        static_cast<int>(rng() % 100) < fill_pct
            ? static_cast<char>('A' + static_cast<int>(rng() % static_cast<unsigned>(kinds)))
            : kEmpty);
  }
  return Board(w, h, cells);
}

/// A full w x h board (w * h even) with `kinds` kinds dealt in pairs and shuffled uniformly.
inline Board random_full_board(std::uint32_t seed, int w, int h, int kinds) {
  std::mt19937 rng(seed);
  std::string cells;
  for (int i = 0; i < w * h; ++i) cells.push_back(static_cast<char>('A' + (i / 2) % kinds));
  for (std::size_t i = cells.size(); i > 1; --i) std::swap(cells[i - 1], cells[rng() % i]);
  return Board(w, h, cells);
}

struct Brute {
  int turns = -1;          ///< fewest turns, -1 when nothing connects
  int length = 0;          ///< shortest length among the lines with the fewest turns
  std::vector<Cell> best;  ///< the first best line in connect.cpp's documented order
};

/// Every polyline a = P0, P1, .., Pk = b (k <= 3) of axis-aligned, non-empty, successively
/// perpendicular segments through empty cells and the ring; the best by (turns, length, first
/// segment vertical, middle segment's coordinate).
inline Brute brute_connect(const Board& board, Cell a, Cell b) {
  Brute r;
  if (a == b || !board.inside(a) || !board.inside(b) || board.is_empty(a) ||
      board.at(a) != board.at(b)) {
    return r;
  }
  const int W = board.width(), H = board.height();
  long best_key = -1;
  const auto len = [](Cell p, Cell q) { return std::abs(p.x - q.x) + std::abs(p.y - q.y); };
  const auto consider = [&](std::initializer_list<Cell> list) {
    const std::vector<Cell> pts(list);
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const Cell p = pts[i - 1], q = pts[i];
      if (p == q || (p.x != q.x && p.y != q.y)) return;
      if (i >= 2) {
        const Cell o = pts[i - 2];
        if ((o.x == p.x) == (p.x == q.x)) return;  // not perpendicular
      }
      // Interior cells: every cell of the segment except a at the start and b at the end.
      const int dx = (q.x > p.x) - (q.x < p.x), dy = (q.y > p.y) - (q.y < p.y);
      for (Cell c = p;; c = {c.x + dx, c.y + dy}) {
        const bool endpoint = (i == 1 && c == p) || (i + 1 == pts.size() && c == q);
        if (!endpoint) {
          if (c.x < -1 || c.y < -1 || c.x > W || c.y > H) return;
          if (!board.is_empty(c)) return;  // a and b are tiles: never crossed
        }
        if (c == q) break;
      }
    }
    int length = 0;
    for (std::size_t i = 1; i < pts.size(); ++i) length += len(pts[i - 1], pts[i]);
    const int turns = static_cast<int>(pts.size()) - 2;
    const bool vertical_first = pts[0].x == pts[1].x;
    const int middle = pts.size() == 4 ? (vertical_first ? pts[1].y : pts[1].x) + 1 : 0;
    const long key =
        ((static_cast<long>(turns) * 4096 + length) * 2 + vertical_first) * 512 + middle;
    if (best_key < 0 || key < best_key) {
      best_key = key;
      r.turns = turns;
      r.length = length;
      r.best = pts;
    }
  };
  consider({a, b});
  // The first corner lies on a's row or column (any other polyline is rejected by consider),
  // the second on the first corner's perpendicular line.
  for (int horizontal = 0; horizontal < 2; ++horizontal) {
    const int n = horizontal ? W : H;
    for (int t = -1; t <= n; ++t) {
      const Cell p = horizontal ? Cell{t, a.y} : Cell{a.x, t};
      consider({a, p, b});
      const int m = horizontal ? H : W;
      for (int u = -1; u <= m; ++u) {
        consider({a, p, horizontal ? Cell{p.x, u} : Cell{u, p.y}, b});
      }
    }
  }
  return r;
}

/// The line is legal: 2..4 points from a to b, axis-aligned non-empty segments, every cell
/// crossed (endpoints aside) empty and at most one cell outside the board.
inline bool legal_line(const Board& board, Cell a, Cell b, const std::vector<Cell>& pts) {
  if (pts.size() < 2 || pts.size() > 4 || !(pts.front() == a) || !(pts.back() == b)) return false;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const Cell p = pts[i - 1], q = pts[i];
    if (p == q || (p.x != q.x && p.y != q.y)) return false;
    const int dx = (q.x > p.x) - (q.x < p.x), dy = (q.y > p.y) - (q.y < p.y);
    for (Cell c = p;; c = {c.x + dx, c.y + dy}) {
      if (c.x < -1 || c.y < -1 || c.x > board.width() || c.y > board.height()) return false;
      const bool endpoint = (i == 1 && c == a) || (i + 1 == pts.size() && c == b);
      if (!endpoint && !board.is_empty(c)) return false;
      if (c == q) break;
    }
  }
  return true;
}

}  // namespace pathlab::link::testing
